"""Fewer taps, fewer requests (issue 12): a 4-player hand in Chromium at 390×844.

Every tap the test makes is counted (a click, or focusing a points field;
typing digits on the keypad is not a tap).  Requests are the ones the page
sends to the server while the hand is entered, counted from the browser.
"""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta

from playwright.sync_api import Page, expect

from companion.services.tables import create_table
from companion.services.unit import transaction

from .conftest import LIVE_APPS
from .handpage import Taps

# The German seed plus Dani; the closer shows 7 cards (12e went face down).
SHOWN = {
    0: "11c 11e 11b 5o 6o 7o 3c",
    1: "5b 5c 5e 4o 12o 2c 1c",
    2: "2e 3b 6c 7b 10e 12c 12b",
    3: "1o 2o 3o 1e 4b 7c 10o",
}
POINTS = [3, 13, 46, 12]


class Counter(Taps):
    """Taps at table speed (:class:`~.handpage.Taps`), counted, and the requests the page sends."""

    def __init__(self, page: Page, rng: random.Random) -> None:
        super().__init__(page, rng)
        self.taps, self.requests = 0, []
        page.on("request", lambda r: self.requests.append(r) if "/static/" not in r.url else None)

    def tap(self, selector: str) -> None:
        super().tap(selector)
        self.taps += 1

    def type(self, selector: str, text: str) -> None:
        self.pause()
        self.page.locator(selector).click()
        self.taps += 1
        self.page.keyboard.type(text, delay=60)


def new_table(live_server: str) -> str:
    with LIVE_APPS[live_server].app_context(), transaction():
        return create_table(
            name="",
            preset="classic",
            overrides={},
            players=["Ana", "Ben", "Carla", "Dani"],
            first_dealer=0,
            suit_style="spanish",
        ).owner_token


def test_four_players_with_cards_in_30_taps_and_at_most_8_requests(page: Page, live_server: str):
    token = new_table(live_server)
    page.goto(f"{live_server}/t/{token}")
    count = Counter(page, random.Random(7))
    count.requests.clear()
    count.tap(".pick-closer a >> nth=0")  # "who closed?" opens the hand with Ana's cards
    for seat, cards in SHOWN.items():
        expect(page.locator(f"[data-tab='{seat}'] input")).to_be_checked()  # moved on by itself
        for token_ in cards.split():
            count.tap(f"[data-card='{token_}']:visible")
    verdict = page.locator("#verdict")
    expect(verdict).to_contain_text("Legal close")
    expect(page.locator("#summary")).to_contain_text("Dani 12")
    count.tap("button[name=action][value=save]")
    expect(page.locator(".flash")).to_contain_text("Hand 1 saved")
    assert [int(t) for t in page.locator(".score .total").all_inner_texts()] == POINTS
    hand_requests = [r for r in count.requests if "/hands/new" in r.url]
    print(f"4 players with cards: {count.taps} taps, {len(hand_requests)} requests")
    assert count.taps <= 30
    assert len(hand_requests) <= 8


def test_closers_cards_and_three_typed_points_in_14_taps(page: Page, live_server: str):
    token = new_table(live_server)
    page.goto(f"{live_server}/t/{token}")
    count = Counter(page, random.Random(8))
    count.tap(".pick-closer a >> nth=0")
    for token_ in SHOWN[0].split():
        count.tap(f"[data-card='{token_}']:visible")
    for seat in (1, 2, 3):
        count.type(f"input[name=p{seat}]", str(POINTS[seat]))
    expect(page.locator("#summary")).to_contain_text("Ana 3")
    count.tap("button[name=action][value=save]")
    expect(page.locator(".flash")).to_contain_text("Hand 1 saved")
    assert [int(t) for t in page.locator(".score .total").all_inner_texts()] == POINTS
    print(f"closer's cards + 3 typed points: {count.taps} taps")
    assert count.taps <= 14


def test_player_tabs_fit_a_360px_screen_and_tabs_and_summary_stay_in_view(page: Page, live_server: str):
    page.set_viewport_size({"width": 360, "height": 740})
    token = new_table(live_server)
    page.goto(f"{live_server}/t/{token}/hands/new?closer=2")
    for tab in page.locator(".tabs [data-tab]").all():
        box = tab.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360 and box["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.locator("[data-card='1o']:visible").first.click()
    expect(page.locator("#problem")).to_contain_text("1 so far")  # the preview came back
    page.mouse.wheel(0, 600)
    page.wait_for_timeout(300)
    tabs = page.locator(".tabs").bounding_box()
    assert 0 <= tabs["y"] <= 10, tabs  # whose cards: at the top
    box = page.locator("#summary").bounding_box()
    assert box["y"] >= 740 - 120 and box["y"] + box["height"] <= 740, box  # the verdict: at the foot
    assert re.search(r"Carla", page.locator("#summary").inner_text())


def test_at_a_persons_pace_the_verdict_is_asked_after_a_pause_or_a_players_last_card(page: Page, live_server: str):
    """Light on the wire: a tap every 0.8 s asks nothing until a player's
    seventh card, which is judged at once; a pause in tapping (or typing)
    asks once.  The page's clock is Playwright's, paused and moved on by
    hand only: a slow host's real seconds never reach the page's timers."""
    token = new_table(live_server)
    start = datetime(2026, 12, 3, 21, 0, 0)
    page.clock.install(time=start)
    page.goto(f"{live_server}/t/{token}/hands/new?closer=0")
    page.clock.pause_at(start + timedelta(minutes=1))
    previews = []
    page.on("request", lambda r: previews.append(r) if r.method == "POST" else None)

    def tap_at_pace(cards: str) -> None:
        asked = len(previews)
        for token_ in cards.split():
            page.locator(f"[data-card='{token_}']:visible").first.click()
            if len(previews) == asked:
                expect(page.locator("#summary .checking")).to_be_visible()  # the line waits for its verdict
            page.clock.run_for(800)

    def answered() -> None:
        page.wait_for_function("() => !document.querySelector('form[data-waiting], .htmx-request')", polling=50)

    tap_at_pace(SHOWN[0])
    answered()
    assert len(previews) == 1  # Ana's seventh card, at once
    expect(page.locator("#summary")).to_contain_text("Ana 3")
    tap_at_pace("5b 5c 5e")
    assert len(previews) == 1
    page.clock.run_for(500)  # a pause: 1.3 s since the last tap
    answered()
    assert len(previews) == 2
    expect(page.locator("#problem")).to_contain_text("Ben holds 7 cards (6 or 8 after a mis-draw); 3 tapped.")
    tap_at_pace("4o 12o 2c 1c")
    answered()
    assert len(previews) == 3  # Ben's seventh card, at once
    for seat in (2, 3):
        page.fill(f"input[name=p{seat}]", str(POINTS[seat]))
        page.clock.run_for(800)
    assert len(previews) == 3
    page.clock.run_for(500)
    answered()
    assert len(previews) == 4
    expect(page.locator("#summary")).to_contain_text("Dani 12")
    page.locator("button[name=action][value=save]").click()
    expect(page.locator(".flash")).to_contain_text("Hand 1 saved")
    assert [int(t) for t in page.locator(".score .total").all_inner_texts()] == POINTS
