"""The API docs page in Chromium at 390×844: no console error (CSP included),
nothing wider than the screen, every example readable."""

from __future__ import annotations

from playwright.sync_api import Page


def test_api_docs_fit_a_phone_without_console_errors(page: Page, live_server: str):
    page.goto(live_server + "/api/v1/docs")
    assert page.locator("h1").inner_text().startswith("JSON API")
    assert page.locator("section.panel pre").count() >= 6
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width}px"
    page.locator("a[href='#match']").click()
    assert page.locator("#match pre").first.is_visible()
