"""axe-core on the group pages (owner, member and read-only links), light and
dark, with a season of matches and payments (one undone) behind them; nothing
scrolls sideways at 390 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.web.test_groups import create_group, links, pay, play_example, undo

from .conftest import LIVE_APPS
from .test_accessibility import AXE, violations

pytestmark = pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (make test runs npm ci)")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_group_pages_have_no_serious_violations(browser: Browser, live_server: str, scheme: str):
    app = LIVE_APPS[live_server]
    client = app.test_client()
    client.set_cookie("lang", "en")
    token = create_group(client)
    play_example(client, token)
    pay(client, token)  # the settle-up page lists a payment recorded and one undone
    pay(client, token, payer="Dani", amount="0.50")
    undo(client, token, 2)
    group = links(app, token)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="es-ES", bypass_csp=True, color_scheme=scheme
    )
    page = context.new_page()
    pages = {
        "new group": "/groups/new",
        "owner page": f"/g/{group.owner}",
        "member page": f"/g/{group.member}",
        "read-only page": f"/g/{group.watch}",
        "settle up": f"/g/{group.owner}/settle",
        "statistics": f"/g/{group.member}/stats?period=all",
        "ratings": f"/g/{group.watch}/ratings",
        "settings": f"/g/{group.owner}/settings",
        "new table in the group": f"/tables/new?group={group.member}",
    }
    problems = {}
    for name, path in pages.items():
        page.goto(live_server + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, name
        small = page.evaluate(
            """() => [...document.querySelectorAll('main button, main .button, main select, main input:not([type=hidden]):not([type=radio]):not([type=checkbox])')]
                 .filter(e => e.offsetParent && !e.closest('label.choice') && e.getBoundingClientRect().height < 44).map(e => e.outerHTML.slice(0, 80))"""
        )
        assert not small, (name, small)
        if found := violations(page):
            problems[name] = found
    context.close()
    assert not problems, problems
