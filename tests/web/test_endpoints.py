"""Every route named by its endpoint's string exists.

``url_for("tables.scoreboard", ...)`` in ``web/``, in a blueprint or in a
template, and ``may("tables.undo")`` / ``link.may(...)`` asking the access
table, fail only when the line runs (a page, a refusal): a renamed view would
break them silently.  This walks every such string in the package and checks
the app has the route.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "companion"
NAMING_CALLS = {"url_for", "may", "redirect_to"}
IN_TEMPLATES = re.compile(r"""\b(?:url_for|may)\(\s*['"]([a-z_]+\.[a-z_]+|static)['"]""")


def named_in_python() -> list[tuple[str, str]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            first = node.args[0]
            if name in NAMING_CALLS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append((f"{path.relative_to(PACKAGE)}:{node.lineno}", first.value))
    return found


def named_in_templates() -> list[tuple[str, str]]:
    found = []
    for path in sorted((PACKAGE / "templates").rglob("*.html")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            found += [(f"{path.relative_to(PACKAGE)}:{number}", name) for name in IN_TEMPLATES.findall(line)]
    return found


@pytest.mark.parametrize("where", ["python", "templates"])
def test_every_endpoint_named_in_the_code_is_a_route(app, where):
    named = named_in_python() if where == "python" else named_in_templates()
    assert len(named) > 20  # the walk found them (a broken pattern finds nothing and passes)
    missing = [f"{place}: {endpoint}" for place, endpoint in named if endpoint not in app.view_functions]
    assert not missing, "\n".join(missing)


def test_a_renamed_route_would_be_caught(app):
    """The check itself: an endpoint the app does not have is reported."""
    assert "tables.scoreboard" in app.view_functions
    assert "tables.scoreboard_renamed" not in app.view_functions
    assert ("x", "tables.scoreboard") in [("x", e) for _p, e in named_in_python()]
