"""What a person does on the hand page, shared by the browser tests."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def choose_closer(page: Page, seat: int) -> None:
    """Picks who closed; a closer already picked sits behind "Change"."""
    folded = page.locator("[data-closer-pick]:not([open]) > summary")
    if folded.count():
        folded.click()
    page.locator(f"label.pill:has(input[name=closer][value='{seat}'])").first.click()


def expect_totals(page: Page, expected: list[int]) -> None:
    """The scoreboard's totals, waited for: a save's redirect may still be loading."""
    expect(page.locator(".score .total")).to_have_text([str(t) for t in expected])
