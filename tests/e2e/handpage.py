"""What a person does on the hand page, shared by the browser tests."""

from __future__ import annotations

import random
import time

from playwright.sync_api import Page, expect


class Taps:
    """A person's taps on one page at table speed: 40–250 ms (seeded) from
    one tap to the next.  The time the test takes in between (reading the
    page, Playwright's click itself) is part of that gap, not added to it."""

    def __init__(self, page: Page, rng: random.Random) -> None:
        self.page, self.rng, self.due = page, rng, 0.0

    def tap(self, selector: str) -> None:
        started = self.pause()
        self.page.locator(selector).first.click()
        self.due = started + self.rng.randint(40, 250) / 1000

    def pause(self) -> float:
        """Waits out the gap after the last tap; returns when the next one starts."""
        if (wait := self.due - time.monotonic()) > 0:
            self.page.wait_for_timeout(wait * 1000)
        self.due = 0.0
        return time.monotonic()


def choose_closer(page: Page, seat: int) -> None:
    """Picks who closed; a closer already picked sits behind "Change"."""
    folded = page.locator("[data-closer-pick]:not([open]) > summary")
    if folded.count():
        folded.click()
    page.locator(f"label.pill:has(input[name=closer][value='{seat}'])").first.click()


def expect_totals(page: Page, expected: list[int]) -> None:
    """The scoreboard's totals, waited for: a save's redirect may still be loading."""
    expect(page.locator(".score .total")).to_have_text([str(t) for t in expected])
