"""Digital play in Chromium at 390×844: a hot-seat hand, and a hand on two
devices where neither page ever shows the other's cards."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.extensions import db
from companion.models import Deal, GameTable, Player
from companion.rules.game import HandGame

from .conftest import LIVE_APPS
from .test_play_match import shot


def create(page: Page, base: str, players, mode: str, preset: str = "classic") -> None:
    page.goto(base + "/play/new")
    page.locator(f"input[name=preset][value={preset}]").check()
    for i, (name, kind) in enumerate(players):
        page.fill(f"#players-{i}", name)
        page.select_option(f"#kinds-{i}", kind)
    page.locator(f"input[name=mode][value={mode}]").check()
    page.get_by_role("button", name="Deal the cards").click()
    page.wait_for_url(re.compile(r"/play$"))


def server_game(base: str) -> tuple[HandGame, list[int]]:
    app = LIVE_APPS[base]
    with app.app_context():
        table = db.session.query(GameTable).order_by(GameTable.id.desc()).first()
        deal = db.session.query(Deal).filter_by(table_id=table.id).order_by(Deal.id.desc()).first()
        return HandGame.from_dict(deal.state, table.rules), deal.seats


def take_turn(page: Page) -> None:
    """Draw from the stock and throw the last card shown."""
    with page.expect_navigation():
        page.get_by_role("button", name="Draw from the stock").click()
    page.locator(".pcard.pick").last.click()
    with page.expect_navigation():
        page.get_by_role("button", name="Throw", exact=True).click()


@pytest.mark.play_seed("e2e-21")  # a replayable deal, played until somebody closes
def test_a_hotseat_hand_against_the_computer(page: Page, live_server: str):
    create(page, live_server, [("Ana", "human"), ("Robo", "good")], "hotseat")
    for _ in range(150):
        if page.get_by_role("button", name="Deal the next hand").count():
            break
        # Alone against the computer: her cards at once, never "Pass the phone".
        expect(page.locator(".hand-title")).to_contain_text("Your cards · Ana")
        assert page.locator(".pass").count() == 0
        if page.locator(".last-move").inner_text().startswith("Robo"):
            shot(page, "solo-light")  # what Robo did, above her cards
        take_turn(page)
    expect(page.locator("#board")).to_contain_text("closed")
    shot(page, "closed-light")
    page.get_by_role("link", name="Scoreboard").click()
    expect(page.locator(".score .total")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.play_seed("e2e-15")  # a replayable deal, played until somebody closes
def test_a_hand_on_two_devices_never_shows_the_other_hand(
    browser: Browser, browser_context_args, page: Page, live_server: str
):
    create(page, live_server, [("Ana", "human"), ("Ben", "human"), ("Robo", "good")], "devices", preset="fournier")
    app = LIVE_APPS[live_server]
    with app.app_context():
        links = {p.name: p.seat_token for p in db.session.query(Player).filter(Player.seat_token.isnot(None))}
    phones = {}
    for name in ("Ana", "Ben"):
        phones[name] = browser.new_context(**browser_context_args).new_page()
        phones[name].goto(f"{live_server}/s/{links[name]}")
    for _ in range(80):
        game, seats = server_game(live_server)
        if game.phase == "over":
            break
        for index, name in enumerate(("Ana", "Ben")):
            phone = phones[name]
            phone.reload()
            html = phone.content()
            me = seats.index(index)
            for other, hand in enumerate(game.hands):
                if other != me:
                    for card in set(hand) - set(game.discards):
                        assert f'value="{card}"' not in html, (name, card)
        mover = ("Ana", "Ben", "Robo")[seats[game.turn]]
        if mover != "Robo":
            take_turn(phones[mover])  # its page was just reloaded and checked
    assert server_game(live_server)[0].phase == "over"
    for phone in phones.values():
        phone.reload()
        expect(phone.locator("#board")).to_contain_text("closed")
        phone.context.close()


def test_a_hint_shows_the_advisors_odds_and_the_table_sees_it_was_asked(page: Page, live_server: str):
    """Issue #14: Ana asks for a hint on the shared phone; the table shows the
    advisor's figures for her view (computed here from the server's state),
    the best first, and the moves say she asked."""
    from companion.bots import seat_view
    from companion.bots.advice import hint

    create(page, live_server, [("Ana", "human"), ("Ben", "human")], "hotseat")
    page.get_by_role("link", name=re.compile("^I am ")).click()
    mover = page.locator(".opponents li.turn .who").inner_text().split()[0]
    with page.expect_navigation():
        page.get_by_role("button", name="Hint: show the odds").click()
    table = page.locator("table.odds")
    expect(table).to_be_visible()
    game, _seats = server_game(live_server)
    app = LIVE_APPS[live_server]
    with app.app_context():
        deal_id = db.session.query(Deal).order_by(Deal.id.desc()).first().id
    expected = hint(seat_view(game, game.turn), seed=deal_id * 1000 + len(game.log))
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(len(expected.rows))
    for i, row in enumerate(expected.rows):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[0].replace("\u00a0", "") == f"{round(row.close_next * 100)}%"
        assert cells[1].replace("\u00a0", "") == f"{round(row.close_within_3 * 100)}%"
    expect(rows.first).to_contain_text("best")
    expect(page.locator(".last-move")).to_contain_text(f"{mover} asked for a hint.")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "hint-light")
    take_turn(page)
    expect(page.locator("#board")).to_contain_text("(Asked for a hint.)")


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_nothing_is_picked_after_a_draw_and_a_hint_row_picks_its_card(browser: Browser, live_server: str, js: bool):
    """Issue #23: after drawing no card is picked, so Throw sends nothing until
    the player taps a card; a row of the odds picks the card it names."""
    from companion.rules import parse_card

    from .test_play_layout import seat_at_discard

    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US", java_script_enabled=js)
    page = context.new_page()
    page.goto(f"{live_server}/s/{seat_at_discard(live_server, 2)}")
    with page.expect_navigation():
        page.get_by_role("button", name="Draw from the stock").click()
    expect(page.locator(".pcard.drawn")).to_have_count(1)
    assert page.locator("input[name=card]:checked").count() == 0
    page.get_by_role("button", name="Throw", exact=True).click()  # the browser asks for a card first
    page.wait_for_timeout(500)
    game, _seats = server_game(live_server)
    assert game.phase == "discard" and len(game.hands[0]) == 8
    with page.expect_navigation():
        page.get_by_role("button", name="Hint: show the odds").click()
    row = page.locator("table.odds label.pick-row").nth(1)
    card = row.get_attribute("for").removeprefix("pick-")
    row.click()
    expect(page.locator(f"#pick-{card}")).to_be_checked()
    assert page.locator("input[name=card]:checked").count() == 1
    with page.expect_navigation():
        page.get_by_role("button", name="Throw", exact=True).click()
    game, _seats = server_game(live_server)
    assert game.discards[-1] == parse_card(card) and parse_card(card) not in game.hands[0]
    context.close()


def test_the_owner_calls_off_a_hand_nobody_moved_in_after_a_confirmation(page: Page, live_server: str):
    """The owner's board in another-phone mode, a phone that never came: the
    link, then the confirmation that says nothing is recorded (it stays while
    the board polls), then the hand called off; the same dealer deals again."""
    create(page, live_server, [("Ana", "human"), ("Ben", "human")], "devices")
    page.get_by_role("link", name=re.compile("^Waiting for a phone that never came\\? Call off this hand")).click()
    confirm = page.locator(".void-confirm")
    expect(confirm).to_contain_text("Nobody has moved yet.")
    for _ in range(2):  # polls in between (one a second): the confirmation stays
        with page.expect_response(re.compile(r"/play/poll\?")):
            pass
    expect(confirm).to_be_visible()
    with page.expect_navigation():
        confirm.get_by_role("button", name="Call off this hand").click()
    expect(page.locator("#board")).to_contain_text("Hand 1 was called off.")
    expect(page.locator("#board")).not_to_contain_text("void")
    game, _seats = server_game(live_server)
    assert game.void is not None and game.void.reason == "abandoned"
    with page.expect_navigation():
        page.get_by_role("button", name="Deal the next hand").click()
    again, _seats = server_game(live_server)
    assert again.void is None and again.dealer == game.dealer and again.hands != game.hands


def test_throw_before_tapping_a_card_says_so_on_the_cards(page: Page, live_server: str):
    """A tryout (#26): Throw with no card tapped showed only the browser's own
    bubble, pinned to a 1-pixel radio button.  Each card's radio now covers
    the card, and the message is the page's: "Tap a card first."."""
    create(page, live_server, [("Ana", "human"), ("Robo", "good")], "hotseat")
    with page.expect_navigation():
        page.get_by_role("button", name="Draw from the stock").click()
    page.get_by_role("button", name="Throw", exact=True).click()
    first = page.locator("input[name=card]").first
    assert first.evaluate("input => input.validationMessage") == "Tap a card first."
    card, radio = page.locator(".pcard.pick").first.bounding_box(), first.bounding_box()
    assert radio["width"] == pytest.approx(card["width"], abs=2) and radio["height"] == pytest.approx(
        card["height"], abs=2
    )
    assert server_game(live_server)[0].phase == "discard"  # nothing was sent
    page.locator(".pcard.pick").last.click()
    assert first.evaluate("input => input.validationMessage") == ""
    with page.expect_navigation():
        page.get_by_role("button", name="Throw", exact=True).click()
    expect(page.locator(".moves")).to_contain_text(re.compile(r"Ana drew .+ from the stock, threw"))
