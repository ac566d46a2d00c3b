"""What a person does on the hand page, shared by the browser tests."""

from __future__ import annotations

from playwright.sync_api import Page


def choose_closer(page: Page, seat: int) -> None:
    """Picks who closed; a closer already picked sits behind "Change"."""
    folded = page.locator("[data-closer-pick]:not([open]) > summary")
    if folded.count():
        folded.click()
    page.locator(f"label.pill:has(input[name=closer][value='{seat}'])").first.click()
