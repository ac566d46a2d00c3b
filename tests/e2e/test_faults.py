"""A database restart in the middle of a save, in Chromium at 390×844
(issue #37): the phone is told in the app's words that nothing was stored,
keeps the hand, and sends it by itself once the server can save: stored once."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.faults import DatabaseGone

from .conftest import LIVE_APPS
from .handpage import expect_totals
from .test_offline import NAMES, save, server_hands, start_table


@pytest.fixture(autouse=True)
def no_console_errors(page: Page):
    """As in conftest, but for the one answer this test wants: the 503 of the
    save that met the database away (Chromium logs every failed load)."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield
    assert not [e for e in errors if "status of 503" not in e], errors


def test_a_hand_saved_while_the_database_restarts_is_kept_and_sent_once(page: Page, live_server: str):
    scoreboard = start_table(page, live_server, NAMES)
    owner = scoreboard.rsplit("/", 1)[1]
    gone = DatabaseGone(LIVE_APPS[live_server])
    try:
        page.locator(".pick-closer a").nth(1).click()  # Ben closed
        page.locator("label.pill:has(input[name=closer_score][value='-10'])").click()
        for seat, value in ((0, 5), (2, 12), (3, 30)):
            page.fill(f"input[name=p{seat}]", str(value))
        gone.armed = True  # the database restarts now
        save(page)
        expect(page.locator("h1")).to_have_text("One moment")
        expect(page.locator("main")).to_contain_text("The hand could not be saved")
        kept = page.locator("[data-unsaved-hand]")
        expect(kept).to_have_text(
            "Hand 1 is kept on this phone and is sent by itself as soon as the server can save it."
        )
        expect(page.locator("main")).to_contain_text("Reference for the organizer:")
        gone.armed = False  # back
        assert server_hands(live_server, owner) == []  # nothing stored: the phone holds it
        page.goto(scoreboard)
        expect(page.locator("#pending-hands")).to_contain_text("1 hand sent.")
        expect_totals(page, [5, -10, 12, 30])
        page.reload()
        expect_totals(page, [5, -10, 12, 30])
        assert server_hands(live_server, owner) == [(1, 1, [5, -10, 12, 30])]
    finally:
        gone.close()
