"""A whole digital match on three browser contexts at 390×844: Ana and Ben on
their own phones, Robo a computer player, to the winner, through a void hand
(``max_reshuffles: 0`` with the seeded deals of ``PLAY_SEED``), "Deal the next
hand" and a rematch that stays digital.  Every page update on the phone that
is not acting arrives by polling (no reload), and no page ever holds another
seat's cards.  Screenshots of the seat view go to /work/screens (or
``$CHINCHON_SCREENS``)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.extensions import db
from companion.models import Deal, GameTable
from companion.rules.game import HandGame

from .conftest import LIVE_APPS
from .test_accessibility import AXE, violations

SCREENS = Path(os.environ.get("CHINCHON_SCREENS", "/work/screens"))
NAMES = ("Ana", "Ben", "Robo")


def server_state(base: str) -> tuple[HandGame, list[int], bool]:
    from companion.services.standing import standing

    app = LIVE_APPS[base]
    with app.app_context():
        table = db.session.query(GameTable).filter_by(rematch_of_id=None).order_by(GameTable.id).first()
        deal = db.session.query(Deal).filter_by(table_id=table.id).order_by(Deal.id.desc()).first()
        return HandGame.from_dict(deal.state, table.rules), deal.seats, standing(table).state.finished


def no_secrets(html: str, game: HandGame, me: int) -> None:
    hidden = set(game.stock)
    for other, hand in enumerate(game.hands):
        if other != me:
            hidden |= set(hand)
    for card in hidden - set(game.discards):
        assert f'value="{card}"' not in html, card


def shot(page: Page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    # As the page settles: any animation left (the last move's highlight) is run to its end.
    page.screenshot(path=str(SCREENS / f"play-{name}.png"), animations="disabled")


def play_turn(phone: Page) -> None:
    """Draw from the stock; close if the page offers it, else pick the card just drawn and throw it."""
    draw = phone.get_by_role("button", name=re.compile("^Draw from the stock"))
    expect(draw).to_be_visible(timeout=5000)  # the turn arrived by polling
    with phone.expect_navigation():
        draw.click()
    if phone.locator("#board").get_by_text("This hand is void").count():
        return
    close = phone.locator("button.close-option")
    if close.count():
        button = close.first
    else:
        phone.locator(".pcard.pick.drawn").click()
        button = phone.get_by_role("button", name="Throw", exact=True)
    with phone.expect_navigation():
        button.click()


@pytest.mark.play_seed("e2e-m1")  # hand 1 ends void (the stock runs out), dealt again it is closed and ends the match
def test_a_whole_match_on_three_phones(browser: Browser, browser_context_args, page: Page, live_server: str):
    page.goto(live_server + "/play/new")
    for i, (name, kind) in enumerate([("Ana", "human"), ("Ben", "human"), ("Robo", "good")]):
        page.fill(f"#players-{i}", name)
        page.select_option(f"#kinds-{i}", kind)
    page.locator("input[name=mode][value=devices]").check()
    page.locator("details.house summary").click()
    page.fill("#target", "20")
    page.select_option("#max_reshuffles", "0")
    page.get_by_role("button", name="Deal the cards").click()
    page.wait_for_url(re.compile(r"/play$"))
    expect(page.locator("#board")).not_to_contain_text("Pass the phone")
    expect(page.locator("details.panel", has_text="A link for each player")).to_have_attribute("open", "")  # first hand
    links = {
        row.locator("span").first.inner_text(): row.locator("a.link").get_attribute("href")
        for row in page.locator("details.panel .list > li").all()
    }
    assert set(links) == {"Ana", "Ben"}

    phones: dict[str, Page] = {}
    for name in ("Ana", "Ben"):
        phones[name] = browser.new_context(**browser_context_args).new_page()
        phones[name].goto(links[name])

    outcomes: list[str] = []
    shots: set[str] = set()
    for _step in range(400):
        game, seats, finished = server_state(live_server)
        for index, name in enumerate(("Ana", "Ben")):
            if index in seats:
                no_secrets(phones[name].content(), game, seats.index(index))
        if game.phase == "over":
            outcome = "void" if game.void is not None else "closed"
            if not outcomes or outcomes[-1] != f"{len(outcomes)}:{outcome}":
                outcomes.append(f"{len(outcomes) + 1}:{outcome}")
            for phone in phones.values():  # both phones learn it without a reload
                text = "This hand is void: nobody scores." if outcome == "void" else "closed."
                expect(phone.locator("#board")).to_contain_text(text, timeout=5000)
            if outcome == "void" and "void" not in shots:
                shot(phones["Ana"], "void-light")
                shots.add("void")
            if finished:
                break
            number = phones["Ben"].locator("h1").inner_text()
            with phones["Ana"].expect_navigation():
                phones["Ana"].get_by_role("button", name="Deal the next hand").click()
            expect(phones["Ben"].locator(".felt")).to_be_visible(timeout=5000)  # the new deal reached Ben
            assert phones["Ben"].locator("h1").inner_text() == number or "void" not in outcomes[-1]
            continue
        mover = NAMES[seats[game.turn]]
        if mover == "Robo":
            phones["Ana"].wait_for_timeout(200)  # the polls let Robo carry on
            continue
        phone = phones[mover]
        if mover == "Ana" and "turn" not in shots:
            expect(phone.get_by_role("button", name=re.compile("^Draw from the stock"))).to_be_visible(timeout=5000)
            shot(phone, "seat-draw-light")
            shots.add("turn")
        play_turn(phone)
    else:
        pytest.fail(f"the match did not end: {outcomes}")

    assert any(o.endswith("void") for o in outcomes) and len(outcomes) >= 2, outcomes
    game, seats, finished = server_state(live_server)
    assert finished
    for phone in phones.values():
        expect(phone.locator("#board")).to_contain_text("Winner:", timeout=5000)
    history = phones["Ana"]
    history.get_by_role("link", name="Scoreboard").first.click()  # the seat's own, read only
    history.get_by_role("link", name="History").click()
    expect(history.locator("table.history")).to_contain_text("Void hand")
    history.go_back()
    history.go_back()

    # The rematch: Ana starts it; Ben's page offers his new seat by polling.
    with phones["Ana"].expect_navigation():
        phones["Ana"].get_by_role("button", name="Rematch").click()
    expect(phones["Ana"].locator("h1")).to_contain_text("Hand 1")
    rematch = phones["Ben"].get_by_role("link", name="Play the rematch")
    expect(rematch).to_be_visible(timeout=5000)
    rematch.click()
    expect(phones["Ben"].locator("h1")).to_contain_text("Hand 1")
    app = LIVE_APPS[live_server]
    with app.app_context():
        new = db.session.query(GameTable).filter(GameTable.rematch_of_id.isnot(None)).one()
        assert new.kind == "digital" and new.play_mode == "devices"
        assert [(p.name, p.kind) for p in new.players] == [("Ana", "human"), ("Ben", "human"), ("Robo", "good")]
        assert new.rules.max_reshuffles == 0 and new.rules.target == 20
    for phone in phones.values():
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.context.close()


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (make test runs npm ci)")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_seat_view_passes_axe_and_is_photographed(browser: Browser, live_server: str, scheme: str):
    # Reduced motion: axe judges the settled page, not a card halfway through its entrance.
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        locale="en-US",
        bypass_csp=True,
        color_scheme=scheme,
        reduced_motion="reduce",
    )
    page = context.new_page()
    page.goto(live_server + "/play/new")
    for i, (name, kind) in enumerate([("Ana", "human"), ("Robo", "good"), ("Ben", "human")]):
        page.fill(f"#players-{i}", name)
        page.select_option(f"#kinds-{i}", kind)
    problems = {}
    if found := violations(page):
        problems["new game"] = found
    page.locator("input[name=mode][value=devices]").check()
    page.get_by_role("button", name="Deal the cards").click()
    page.wait_for_url(re.compile(r"/play$"))
    if found := violations(page):
        problems["owner"] = found
    app = LIVE_APPS[live_server]
    with app.app_context():
        table = db.session.query(GameTable).one()
        seat = {p.name: p.seat_token for p in table.players}
    game, seats, _ = server_state(live_server)
    # Whoever moves first: bring their phone to their turn (Robo moves on the server).
    for _ in range(4):
        game, seats, _ = server_state(live_server)
        mover = ("Ana", "Robo", "Ben")[seats[game.turn]]
        if mover != "Robo":
            break
        page.wait_for_timeout(300)
    page.goto(f"{live_server}/s/{seat[mover]}")
    expect(page.get_by_role("button", name=re.compile("^Draw from the stock"))).to_be_visible()
    if found := violations(page):
        problems["seat, draw"] = found
    with page.expect_navigation():
        page.get_by_role("button", name=re.compile("^Draw from the stock")).click()
    expect(page.get_by_role("button", name="Throw", exact=True)).to_be_visible()
    if found := violations(page):
        problems["seat, throw"] = found
    shot(page, f"seat-{scheme}")
    other = "Ben" if mover == "Ana" else "Ana"
    page.goto(f"{live_server}/s/{seat[other]}")
    if found := violations(page):
        problems["seat, waiting"] = found
    shot(page, f"waiting-{scheme}")
    context.close()
    assert not problems, problems


def test_melds_are_grouped_and_a_legal_close_is_offered_with_its_score(page: Page, live_server: str):
    """The SPEC §5 tie position: Ana holds 3-4-5 of bastos and three sevens;
    throwing the 2 of oros she may close with the ace of copas loose (1 point)."""
    from companion.rules import parse_card

    from ..web.test_play import tie_position

    page.goto(live_server + "/play/new")
    for i, name in enumerate(["Ana", "Ben", "Carla"]):
        page.fill(f"#players-{i}", name)
    page.locator("input[name=mode][value=devices]").check()
    page.get_by_role("button", name="Deal the cards").click()
    page.wait_for_url(re.compile(r"/play$"))
    app = LIVE_APPS[live_server]
    with app.app_context():
        table = db.session.query(GameTable).one()
        deal = db.session.query(Deal).one()
        game = tie_position(table.rules)  # Ana to draw: the 1c she closes with goes back on the stock
        game.hands[0].remove(parse_card("1c"))
        game.stock.append(parse_card("1c"))
        deal.seats = [0, 1, 2]
        deal.state = game.to_dict()
        db.session.commit()
        ana = table.players[0].seat_token
    page.goto(f"{live_server}/s/{ana}")
    with page.expect_navigation():
        page.get_by_role("button", name=re.compile("^Draw from the stock")).click()
    expect(page.locator(".group.meld")).to_have_count(2)
    expect(page.locator(".pcard.drawn")).to_contain_text("1")
    expect(page.locator("button.close-option")).to_have_count(2)  # either loose card may go face down
    close = page.locator("button.close-option", has_text="Close with 2 of oros face down · you score 1")
    expect(close).to_have_count(1)
    shot(page, "melds-light")
    with page.expect_navigation():
        close.click()
    expect(page.locator("#board")).to_contain_text("Ana closed.")
