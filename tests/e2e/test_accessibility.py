"""axe-core on every main page, light and dark: no serious or critical violations.

axe-core comes from npm (package.json); the browser context bypasses the
page's CSP only so the checker itself can be injected.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from .handpage import choose_closer

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

pytestmark = pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (make test runs npm ci)")


def violations(page: Page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
             .filter(v => ["serious", "critical"].includes(v.impact))
             .map(v => v.id + ": " + v.nodes.map(n => n.target.join(" ")).slice(0, 3).join(", "))"""
    )
    return found


def fill_table(page: Page, base: str) -> str:
    page.goto(base + "/tables/new")
    for i, name in enumerate(["Ana", "Ben", "Carla"]):
        page.fill(f"#players-{i}", name)
    page.locator("form button.primary").click()
    page.wait_for_url(re.compile(r"/t/"))
    return page.url


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_main_pages_have_no_serious_violations(browser: Browser, live_server: str, scheme: str):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="es-ES", bypass_csp=True, color_scheme=scheme
    )
    page = context.new_page()
    problems = {}
    scoreboard = fill_table(page, live_server)
    pages = {
        "home": live_server + "/",
        "new table": live_server + "/tables/new",
        "scoreboard": scoreboard,
        "hand entry": scoreboard + "/hands/new",
        "referee close": live_server + "/referee/close?cards=2o+3o+4o+5o+6o+1c+2e+12b",
        "referee layoffs": live_server + "/referee/layoffs?n=2&h0=1c+2c+3c+4c+10e+11e+12e+7o&h1=5c+6o+6c+6e+12b+11b+3o",
        "offline": live_server + "/offline",
        "not found": live_server + "/t/nope",
    }
    for name, url in pages.items():
        page.goto(url)
        if name == "hand entry":
            choose_closer(page, 0)
            for token in ["11c", "11e", "11b", "5o", "6o", "7o", "3c", "12e"]:
                page.locator(f"[data-card='{token}']:visible").first.click()
            page.wait_for_function("() => !document.querySelector('form[data-waiting], .htmx-request')")
        found = violations(page)
        if found:
            problems[name] = found
    page.goto(scoreboard + "/history")
    if found := violations(page):
        problems["history"] = found
    context.close()
    assert not problems, problems


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_hint_table_has_no_serious_violations(browser: Browser, live_server: str, scheme: str):
    """Digital play with the advisor's table open (issue #14), and the close
    checker's odds with the Seen tab active."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="en-US", bypass_csp=True, color_scheme=scheme
    )
    page = context.new_page()
    page.goto(live_server + "/play/new")
    page.fill("#players-0", "Ana")
    page.fill("#players-1", "Ben")
    page.get_by_role("button", name="Deal the cards").click()
    page.get_by_role("link", name=re.compile("^I am ")).click()
    page.get_by_role("button", name="Hint: show the odds").click()
    page.locator("table.odds").wait_for()
    problems = {}
    if found := violations(page):
        problems["hint"] = found
    page.goto(live_server + "/referee/close?cards=2o+3o+4o+5o+6o+1c+2e+12b&seen=1o+7o&active=s")
    if found := violations(page):
        problems["close odds"] = found
    context.close()
    assert not problems, problems
