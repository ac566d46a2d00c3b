"""The hand page at 390×844 with JavaScript on: the grid on the first screen,
whose cards you tap and Save always in view, the next player in play order,
a summary that says what the form holds, and a half-entered hand that stays
until it is saved or dropped (issue #23)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from companion.services.tables import create_table
from companion.services.unit import transaction

from .conftest import LIVE_APPS

NAMES = ["Ana", "Ben", "Carla", "Dani"]
VIEWPORT = 844
#: Carla (seat 2) closes: a legal close with 3 points (11s, 5-6-7 of oros, the 3).
LEGAL = "11c 11e 11b 5o 6o 7o 3c"
#: Seven loose cards: nobody may close with them.
ILLEGAL = "1o 3c 5e 7b 10o 11c 12e"


def new_table(live_server: str) -> str:
    with LIVE_APPS[live_server].app_context(), transaction():
        return create_table(
            name="", preset="classic", overrides={}, players=NAMES, first_dealer=0, suit_style="spanish"
        ).owner_token


def box(page: Page, selector: str) -> dict:
    b = page.locator(selector).first.bounding_box()
    assert b is not None, selector
    return b


def on_screen_and_uncovered(page: Page, selector: str) -> bool:
    """The element is inside the viewport and is what a tap at its centre reaches."""
    return page.evaluate(
        """(selector) => { const el = [...document.querySelectorAll(selector)].find(e => e.offsetParent);
             const r = el.getBoundingClientRect();
             if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return false;
             const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
             return el.contains(hit) || (el.control && el.control.contains(hit)) || hit.closest('label') === el; }""",
        selector,
    )


def tap(page: Page, cards: str) -> None:
    for token in cards.split():
        page.locator(f"[data-card='{token}']:visible").first.click()


def open_hand(page: Page, live_server: str, token: str, closer: int) -> None:
    """As a person does: the scoreboard's closer button."""
    page.goto(f"{live_server}/t/{token}")
    page.locator(".pick-closer a").nth(closer).click()
    expect(page.locator("h1")).to_contain_text("Hand")


def test_with_the_closer_known_the_grid_starts_in_the_upper_half_and_save_is_on_the_first_screen(
    page: Page, live_server: str
):
    open_hand(page, live_server, new_table(live_server), 1)
    assert box(page, ".grid[data-panel='1'] .cell")["y"] < VIEWPORT / 2
    # The closer is not asked twice: the pills stay folded behind one line that names Ben.
    expect(page.locator("label.pill:has(input[name=closer])").first).to_be_hidden()
    expect(page.locator("[data-closer-pick] summary")).to_contain_text("Ben")
    # "Keep the screen on" is a small control in the title row, not a full-width button,
    # that says what it does (a sun alone read as a light/dark switch).
    wake = box(page, "[data-wake]")
    assert wake["width"] <= 140 and wake["height"] <= 56 and wake["y"] < box(page, ".tabs")["y"]
    expect(page.locator("[data-wake]")).to_have_text("Screen on")
    assert on_screen_and_uncovered(page, "button[name=action][value=save]")


def test_whose_cards_and_save_stay_on_screen_at_every_scroll_position(page: Page, live_server: str):
    open_hand(page, live_server, new_table(live_server), 1)
    tap(page, "1o 12b")
    height = page.evaluate("document.documentElement.scrollHeight")
    for y in range(0, height, 150):
        page.evaluate(f"window.scrollTo(0, {y})")
        grid = page.locator(".grid[data-panel='1']").bounding_box()
        if grid["y"] + grid["height"] < 60 or grid["y"] > VIEWPORT:
            continue  # the grid is off screen here
        assert on_screen_and_uncovered(page, "[data-tab='1']"), y
        assert page.locator("[data-tab='1'] [data-count]").inner_text() == "2"
        assert on_screen_and_uncovered(page, "button[name=action][value=save]"), y
        assert on_screen_and_uncovered(page, "#summary"), y
    # Scrolled until the grid's last row sits on the action bar, it can be tapped: neither bar covers it.
    page.evaluate(
        """() => { const row = [...document.querySelectorAll(".grid[data-panel='1'] [data-card='12c']")].find(e => e.offsetParent);
                   const bar = document.querySelector(".actionbar").getBoundingClientRect();
                   window.scrollBy(0, row.getBoundingClientRect().bottom - bar.top + 4); }"""
    )
    assert on_screen_and_uncovered(page, ".grid[data-panel='1'] [data-card='12c']")


def test_after_seven_cards_the_next_player_in_play_order_from_the_closer_is_active(page: Page, live_server: str):
    open_hand(page, live_server, new_table(live_server), 2)
    expect(page.locator("[data-tab='2'] input")).to_be_checked()
    tap(page, LEGAL)
    for seat, cards in ((3, "1b 2b 3b 4b 5b 6b 7b"), (0, "1e 2e 3e 4e 5e 6e 7e")):
        expect(page.locator(f"[data-tab='{seat}'] input")).to_be_checked()
        tap(page, cards)
    expect(page.locator("[data-tab='1'] input")).to_be_checked()


def points_table(page: Page, live_server: str) -> str:
    """A table whose first hand went in as typed points: the page then offers points first."""
    token = new_table(live_server)
    open_hand(page, live_server, token, 0)
    page.locator("label.pill:has(input[name=closer_score][value='2'])").click()
    for seat, value in ((1, 10), (2, 20), (3, 30)):
        page.fill(f"input[name=p{seat}]", str(value))
    page.locator("button[name=action][value=save]").click()
    expect(page.locator(".flash")).to_contain_text("Hand 1 saved")
    return token


def test_in_points_mode_the_next_field_in_play_order_takes_focus_only_after_a_legal_close(page: Page, live_server: str):
    token = points_table(page, live_server)
    open_hand(page, live_server, token, 2)
    tap(page, ILLEGAL)
    expect(page.locator("#summary")).to_contain_text("cannot close")
    page.wait_for_timeout(300)
    assert page.evaluate("document.activeElement.name || ''") not in {"p0", "p1", "p3"}
    # Carla closes legally: Dani, who plays after her, is next, not Ana.
    tap(page, ILLEGAL)  # each tap again puts the card back
    assert checked_cards(page, 2) == []
    tap(page, LEGAL)
    # A legal close, the others' points still to come: no ✓ yet (issue 39), the next field takes focus.
    expect(page.locator("#summary")).to_have_class(re.compile(r"\bis-legal\b"))
    expect(page.locator("#summary")).not_to_contain_text("✓")
    expect(page.locator("#p3")).to_be_focused()


def test_the_summary_says_what_the_form_holds_as_it_is_typed(page: Page, live_server: str):
    token = new_table(live_server)
    open_hand(page, live_server, token, 1)
    page.locator("label.pill:has(input[name=closer_score][value='-10'])").click()
    expect(page.locator("#summary .who[data-seat='1']")).to_have_text(re.compile(r"Ben\s+-10"))
    page.locator("#p2").click()
    page.keyboard.type("13")  # no blur, no pause: the line follows the keys
    expect(page.locator("#summary .who[data-seat='2']")).to_have_text(re.compile(r"Carla\s+13"), timeout=200)
    # While a preview is on its way the line says so.
    page.route(re.compile(r".*/hands/new$"), lambda route: (page.wait_for_timeout(800), route.continue_()))
    page.locator("#p3").click()
    page.keyboard.type("7")
    expect(page.locator("#summary .checking")).to_be_visible()
    expect(page.locator("#summary .checking")).to_be_hidden(timeout=5000)
    expect(page.locator("#summary .who[data-seat='3']")).to_have_text(re.compile(r"Dani\s+7"))


def checked_cards(page: Page, seat: int) -> list[str]:
    return page.eval_on_selector_all(f".grid[data-panel='{seat}'] input.pick:checked", "els => els.map(e => e.value)")


def test_a_half_entered_hand_stays_whatever_the_way_back_until_saved_or_dropped(page: Page, live_server: str):
    token = new_table(live_server)
    open_hand(page, live_server, token, 1)
    tap(page, "1o 2o 3o")
    page.fill("#p2", "17")
    page.get_by_role("link", name="Scoreboard").click()
    # Back to the scoreboard, the same closer picked again.
    page.locator(".pick-closer a").nth(1).click()
    expect(page.locator("#p2")).to_have_value("17")
    assert sorted(checked_cards(page, 1)) == ["1o", "2o", "3o"]
    # Another closer picked on the scoreboard: the cards stay, the new closer counts.
    page.get_by_role("link", name="Scoreboard").click()
    page.locator(".pick-closer a").nth(3).click()
    expect(page.locator("input[name=closer][value='3']")).to_be_checked()
    assert sorted(checked_cards(page, 1)) == ["1o", "2o", "3o"]
    # Another tab of the same phone, and a reload.
    other = page.context.new_page()
    other.goto(f"{live_server}/t/{token}/hands/new")
    expect(other.locator("#p2")).to_have_value("17")
    other.close()
    page.reload()
    assert sorted(checked_cards(page, 1)) == ["1o", "2o", "3o"]
    # Dropped: "Start over" clears it, and it does not come back.
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Start over").click()
    assert checked_cards(page, 1) == []
    expect(page.locator("#p2")).to_have_value("")
    page.goto(f"{live_server}/t/{token}/hands/new?closer=1")
    assert checked_cards(page, 1) == []


def test_a_saved_hand_leaves_no_draft_behind(page: Page, live_server: str):
    token = new_table(live_server)
    open_hand(page, live_server, token, 1)
    page.locator("label.pill:has(input[name=closer_score][value='2'])").click()
    for seat, value in ((0, 5), (2, 6), (3, 7)):
        page.fill(f"#p{seat}", str(value))
    page.locator("button[name=action][value=save]").click()
    expect(page.locator(".flash")).to_contain_text("Hand 1 saved")
    page.locator(".pick-closer a").nth(1).click()
    expect(page.locator("h1")).to_contain_text("Hand 2")
    expect(page.locator("#p0")).to_have_value("")
    drafts = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('chinchon-draft:'))")
    assert not [k for k in drafts if k.endswith(":new:1")], drafts


def test_without_javascript_the_closer_is_changed_behind_its_line_and_the_hand_saves(
    browser, browser_context_args, live_server: str
):
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    page = context.new_page()
    token = new_table(live_server)
    page.goto(f"{live_server}/t/{token}/hands/new?closer=1")
    assert box(page, ".grid[data-panel='1'] .cell")["y"] < VIEWPORT / 2
    expect(page.locator("[data-wake]")).to_be_hidden()
    expect(page.get_by_role("button", name="Start over")).to_be_hidden()
    # Carla closed, in fact: "Change" opens the closer's pills, "Check" shows her grid.
    page.locator("[data-closer-pick] summary").click()
    page.locator("label.pill:has(input[name=closer][value='2'])").click()
    page.get_by_role("button", name="Check").click()
    expect(page.locator("[data-closer-pick] summary")).to_contain_text("Carla")
    page.locator("[data-tab='2']").click()
    tap(page, LEGAL)
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#summary")).to_have_class(re.compile(r"\bis-legal\b"))
    assert on_screen_and_uncovered(page, "button[name=action][value=save]")
    for seat, value in ((0, 5), (1, 6), (3, 7)):
        page.fill(f"#p{seat}", str(value))
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#summary")).to_contain_text("✓")  # every player in: Save stores it as it stands
    page.locator("button[name=action][value=save]").click()
    expect(page.locator(".flash")).to_contain_text("Hand 1 saved")
    context.close()
