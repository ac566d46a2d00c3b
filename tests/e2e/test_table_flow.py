"""A whole evening at a physical table, in the browser at 390×844."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .handpage import expect_totals

HAND_1 = {
    0: "11c 11e 11b 5o 6o 7o 3c 12e",
    1: "5b 5c 5e 4o 12o 2c 1c",
    2: "2e 3b 6c 7b 10e 12c 12b",
    3: "1o 2o 3o 1e 4b 7c 10o",
}
HAND_2 = {
    0: "10o 11o 12o 3c 4c 5c 7e",
    1: "1o 2o 3o 4o 5o 6c 6e 6b",
    2: "12c 12e 11b 11c 10b 10e 7o",
    3: "1c 1e 1b 2c 2e 2b 7c",
}
HAND_3 = {
    0: "2o 3o 5o 10c 11c 12c 7o",
    1: "4e 5e 6e 12b 11b 10b 2c",
    2: "5b 5c 6o 3e 3b 7b 6c",
    3: "7e 10e 11e 12e 1b 1c 1o 4o",
}


def pick_closer(page: Page, closer: int) -> None:
    """On the scoreboard: "Enter hand N: who closed?" opens the closer's cards."""
    page.locator(".pick-closer a").nth(closer).click()
    expect(page.locator(f"input[name=closer][value='{closer}']")).to_be_checked()


def enter_hand(page: Page, closer: int, hands: dict[int, str]) -> None:
    pick_closer(page, closer)
    for seat, cards in hands.items():
        for token in cards.split():
            # After seven cards the next player's grid opens by itself; a
            # closer's eighth card (the face-down one) needs their tab again.
            if not page.locator(f"[data-tab='{seat}'] input").is_checked():
                page.locator(f"[data-tab='{seat}']").click()
            page.locator(f"[data-card='{token}']:visible").first.click()
    expect(page.locator("#verdict")).to_contain_text("Legal close")


def enter_points(page: Page, closer: int, points: list[int]) -> None:
    pick_closer(page, closer)
    page.locator(f"label.pill:has(input[name=closer_score][value='{points[closer]}'])").click()
    for seat, value in enumerate(points):
        if seat != closer:
            page.fill(f"input[name=p{seat}]", str(value))


def test_a_four_player_evening(page: Page, live_server: str):
    page.goto(live_server + "/tables/new")
    for i, name in enumerate(["Ana", "Ben", "Carla", "Dani"]):
        page.fill(f"#players-{i}", name)
    page.get_by_role("button", name="Start the table").click()
    expect(page.locator(".status")).to_contain_text("Hand 1")
    expect_totals(page, [0, 0, 0, 0])

    # Hand 1: the German seed plus Dani, who lays off 3, 2, 1 and the sota of oros in a chain.
    enter_hand(page, 0, HAND_1)
    verdict = page.locator("#verdict")
    expect(verdict).to_contain_text("lays off")
    expect(verdict.locator("tr", has_text="Ben")).to_contain_text("13")
    expect(verdict.locator("tr", has_text="Dani")).to_contain_text("12")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".flash")).to_contain_text("Hand 1 saved")
    expect_totals(page, [3, 13, 46, 12])

    # Hand 2: Ben closes all combined; Carla goes over 100 and may buy back in.
    enter_hand(page, 1, HAND_2)
    page.get_by_role("button", name="Save hand 2").click()
    expect_totals(page, [10, 3, 107, 19])
    expect(page.locator(".score", has_text="Carla")).to_contain_text("out")
    expect(page.locator(".offer")).to_contain_text("Carla is out. Buy back in at 19 points?")
    page.get_by_role("button", name="Carla buys back in").click()
    expect(page.locator(".flash")).to_contain_text("Carla is back in the game")
    expect_totals(page, [10, 3, 19, 19])

    # Hand 3: Dani closes with -10; Carla lays off onto Ben's melds.
    enter_hand(page, 3, HAND_3)
    expect(page.locator("#verdict tr", has_text="Carla")).to_contain_text("lays off")
    page.get_by_role("button", name="Save hand 3").click()
    expect_totals(page, [27, 5, 44, 9])

    # Hand 4 in points only, then undone.
    enter_points(page, 0, [2, 20, 30, 40])
    page.get_by_role("button", name="Save hand 4").click()
    expect_totals(page, [29, 25, 74, 49])
    page.get_by_role("button", name="Undo last").click()
    expect(page.locator(".restore")).to_contain_text("Hand 4 undone")
    expect_totals(page, [27, 5, 44, 9])
    page.get_by_role("button", name="Restore").click()  # one tap takes the undo back
    expect(page.locator(".flash")).to_contain_text("Hand 4 restored")
    expect_totals(page, [29, 25, 74, 49])
    page.get_by_role("button", name="Undo last").click()
    expect_totals(page, [27, 5, 44, 9])

    # Correct hand 1: Dani really had 20.  Carla's re-entry price follows.
    page.get_by_role("link", name="History").click()
    page.get_by_role("link", name="Correct hand 1").click()
    # Dani's cards are unticked; her points typed instead.
    page.locator("[data-tab='3']").click()
    for token in HAND_1[3].split():
        page.locator(f"[data-card='{token}']:visible").first.click()
    page.fill("input[name=p3]", "20")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator(".flash")).to_contain_text("corrected")
    expect_totals(page, [27, 5, 52, 17])

    page.get_by_role("link", name="History").click()
    expect(page.locator("svg.chart polyline")).to_have_count(4)
    expect(page.locator("table.history tbody tr:not(.note)")).to_have_count(3)
    expect(page.locator("table.history tbody tr.note")).to_contain_text("bought back in")  # where it happened
    # Nothing scrolls sideways on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_no_reentry_with_only_two_left_and_the_last_one_wins(page: Page, live_server: str):
    page.goto(live_server + "/tables/new")
    for i, name in enumerate(["Ana", "Ben", "Carla"]):
        page.fill(f"#players-{i}", name)
    page.get_by_role("button", name="Start the table").click()
    for points in ([60, 3, 20], [41, 3, 20]):
        enter_points(page, 1, points)
        page.get_by_role("button", name=re.compile("Save hand")).click()
    expect(page.locator(".offer")).to_contain_text("re-entry needs at least 3 players still in")
    expect_totals(page, [101, 6, 40])
