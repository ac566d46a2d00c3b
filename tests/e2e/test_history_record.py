"""The history of a match with a re-entry, a stake, a Chinchón and a −10 on
a 390 px phone in Spanish: nothing scrolls sideways, the marks read as
words, and a read-only link says so beside the title."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from companion.extensions import db
from companion.models import GameTable
from tests.web.helpers import create_table, decide_reentry, enter_points

from .conftest import LIVE_APPS
from .test_accessibility import AXE, violations


def played(base: str) -> tuple[str, str]:
    """The match of tests/web/test_history_csv.py, stored through the app: (owner link, read-only link)."""
    app = LIVE_APPS[base]
    client = app.test_client()
    client.set_cookie("lang", "es")
    token = create_table(client, ["Peña", "Ramón", "Iñaki", "Bea"], stake="2.5")
    enter_points(client, token, 0, {0: -10, 1: 60, 2: 5, 3: 3})
    enter_points(client, token, 0, {0: 1, 1: 49, 2: 10, 3: 4})
    decide_reentry(client, token, 1)
    enter_points(client, token, 0, {0: -10, 1: 20, 2: 3, 3: 2}, chinchon=True)
    with app.app_context():
        watch = db.session.query(GameTable).filter_by(owner_token=token).one().watch_token
    return token, watch


@pytest.mark.parametrize("role", ["owner", "watch"])
def test_the_history_reads_on_a_phone(browser: Browser, live_server: str, role: str):
    owner, watch = played(live_server)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES", bypass_csp=True)
    page = context.new_page()
    page.goto(f"{live_server}/t/{owner if role == 'owner' else watch}/history")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    fits = page.evaluate(
        "(() => { const t = document.querySelector('table.history'); return t.scrollWidth <= t.parentElement.clientWidth })()"
    )
    assert fits, "the history table scrolls sideways at 390 px"
    assert page.locator(".badge.mark").all_inner_texts() == ["−10", "★"]
    assert (
        page.locator("tr.note").inner_text()
        == "Ramón se reenganchó con 15. Pagado al bote: 2,50\xa0€; bote: 12,50\xa0€."
    )
    assert "109 fuera" in page.locator("tbody tr").nth(1).inner_text()
    if AXE.exists():
        assert not violations(page)
    context.close()


def test_a_read_only_link_says_so_beside_the_title(browser: Browser, live_server: str):
    _owner, watch = played(live_server)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES")
    page = context.new_page()
    page.goto(f"{live_server}/t/{watch}")
    title = page.locator(".title-row h1").bounding_box()
    badge = page.locator(".title-row .read-only")
    assert badge.inner_text() == "Solo lectura" and badge.is_visible()
    box = badge.bounding_box()
    assert box["y"] < title["y"] + title["height"] + 40  # on the title's row or just below it
    context.close()
