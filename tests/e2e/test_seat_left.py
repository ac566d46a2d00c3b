"""#38 on three phones at 390×844: Carla's phone closes in the middle of her
turn; after the grace period Ben's phone hands her seat to the computer,
which plays her turn; Ana closes; Carla's points on every phone are the
engine's; Carla opens her link again and takes her seat back.

The grace period passes by writing when Carla's phone was last seen, as the
server itself does.  Screenshots go to /work/screens (or ``$CHINCHON_SCREENS``)."""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from companion.extensions import db
from companion.models import Deal, GameTable, now
from companion.rules import parse_cards
from companion.rules.game import HandGame
from companion.services import clock as clocks
from companion.services import play
from companion.services.unit import transaction

from .conftest import LIVE_APPS

SCREENS = Path(os.environ.get("CHINCHON_SCREENS", "/work/screens"))
NAMES = ["Ana", "Ben", "Carla"]


def table_with_carla_to_move(base: str, clock: str = "off") -> tuple[str, dict[str, str]]:
    """A game on a phone each (on ``clock``), Carla to draw; whatever the
    computer does for her, Ana's next draw lets her close (4o or 10c)."""
    app = LIVE_APPS[base]
    with app.app_context():
        with transaction():
            table = play.create_digital_table(
                name="",
                preset="classic",
                overrides={"target": 100},
                players=[(n, "human") for n in NAMES],
                mode="devices",
                first_dealer=1,
                suit_style="spanish",
                clock=clock,
            )
        with transaction():
            deal = db.session.query(Deal).filter_by(table_id=table.id).one()
            game = HandGame(
                rules=table.rules,
                dealer=1,
                hands=[
                    parse_cards("1o 2o 3o 5c 6c 7c 12e"),
                    parse_cards("2e 4e 6e 10o 11b 12b 1b"),
                    parse_cards("3e 5e 7e 10e 11c 12c 2b"),
                ],
                stock=parse_cards("5b 4b 3b 10c 4o"),  # 4o on top
                discards=parse_cards("10b"),
                turn=2,
                turns_taken=4,
            )
            deal.seats, deal.state = [0, 1, 2], game.to_dict()
            deal.version += 1
        return table.owner_token, {p.name: p.seat_token for p in table.players}


def carla_last_seen(base: str, owner: str, seconds_ago: int) -> None:
    app = LIVE_APPS[base]
    with app.app_context(), transaction():
        table = db.session.query(GameTable).filter_by(owner_token=owner).one()
        table.players[2].seen_at = now() - timedelta(seconds=seconds_ago)


def carlas_time_ran_out(base: str, owner: str, seconds_left: float = -1) -> None:
    """Carla's turn began so long ago that ``seconds_left`` of her time and reserve remain."""
    app = LIVE_APPS[base]
    with app.app_context(), transaction():
        table = db.session.query(GameTable).filter_by(owner_token=owner).one()
        deal = db.session.query(Deal).filter_by(table_id=table.id).one()
        pace = clocks.PACES[deal.clock]
        deal.turn_since = now() - pace.turn - timedelta(seconds=deal.reserves[2] - seconds_left)


def stored(base: str, owner: str) -> tuple[HandGame, list[int | None]]:
    app = LIVE_APPS[base]
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=owner).one()
        deal = db.session.query(Deal).filter_by(table_id=table.id).order_by(Deal.id.desc()).first()
        game = HandGame.from_dict(deal.state, table.rules)
        return game, [p.stand_in_since is not None for p in table.players]


def points_shown(phone: Page) -> dict[str, int]:
    rows = phone.locator("#board table tbody tr")
    out = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("th, td").all_inner_texts()
        name = cells[0].strip()
        out[name] = int(re.sub(r"[^\d−-]", "", rows.nth(i).locator("td.num").last.inner_text()).replace("−", "-"))
    return out


def test_a_seat_whose_phone_left_is_played_by_the_computer_and_taken_back(
    browser: Browser, browser_context_args, live_server: str
):
    owner, seats = table_with_carla_to_move(live_server)
    phones: dict[str, Page] = {}
    for name in NAMES:
        phones[name] = browser.new_context(**browser_context_args).new_page()
        phones[name].goto(f"{live_server}/s/{seats[name]}")
    expect(phones["Ben"].locator("#board")).to_contain_text("Waiting for Carla.")
    phones["Carla"].context.close()  # her phone goes away in the middle of her turn
    carla_last_seen(live_server, owner, 20)
    ben = phones["Ben"]
    expect(ben.locator("li", has_text="Carla").locator(".badge.away")).to_have_text("away", timeout=5000)
    expect(ben.get_by_role("button", name="Let the computer play for Carla")).to_have_count(0)
    carla_last_seen(live_server, owner, 2 * 60 + 5)  # past the grace period: the table may go on
    hand_over = ben.get_by_role("button", name="Let the computer play for Carla")
    expect(hand_over).to_be_visible(timeout=5000)  # arrives by polling, no reload
    expect(ben.locator("#board")).to_contain_text("Carla has been away for 2 minutes.")
    SCREENS.mkdir(parents=True, exist_ok=True)
    ben.screenshot(path=str(SCREENS / "seat-away.png"), full_page=True, animations="disabled")
    with ben.expect_navigation():
        hand_over.click()
    expect(ben.locator(".flash")).to_contain_text("The computer plays for Carla now.")
    expect(ben.locator("#board")).to_contain_text("(Played by the computer for Carla.)")
    game, handed = stored(live_server, owner)
    assert handed == [False, False, True] and game.turn == 0 and game.turns_taken == 5

    ana = phones["Ana"]
    draw = ana.get_by_role("button", name=re.compile("^Draw from the stock"))
    expect(draw).to_be_visible(timeout=5000)
    with ana.expect_navigation():
        draw.click()
    close = ana.locator("button.close-option").first
    expect(close).to_be_visible()
    with ana.expect_navigation():
        close.click()
    game, _handed = stored(live_server, owner)
    assert game.closer == 0
    expected = {NAMES[i]: r.points for i, r in enumerate(game.settle().results)}
    for name in ("Ana", "Ben"):
        expect(phones[name].locator("#board")).to_contain_text("Ana closed.", timeout=5000)
        assert points_shown(phones[name]) == expected, name
    ben.screenshot(path=str(SCREENS / "seat-computer-hand-over.png"), full_page=True, animations="disabled")

    carla = browser.new_context(**browser_context_args).new_page()  # back, on her phone
    carla.goto(f"{live_server}/s/{seats['Carla']}")
    expect(carla.locator("#board")).to_contain_text("The computer is playing for you.")
    carla.screenshot(path=str(SCREENS / "seat-im-back.png"), full_page=True, animations="disabled")
    with carla.expect_navigation():
        carla.get_by_role("button", name="I'm back").click()
    expect(carla.locator(".flash")).to_contain_text("Carla plays again.")
    assert stored(live_server, owner)[1] == [False, False, False]
    expect(ben.locator("li", has_text="Carla").locator(".badge.here")).to_have_text("here", timeout=5000)
    for phone in (ana, ben, carla):
        phone.context.close()


def test_eight_long_names_away_and_played_by_the_computer_fit_a_360px_phone(
    browser: Browser, browser_context_args, live_server: str
):
    """Every presence badge, in es-AR (the longest: "en manos de la máquina"),
    on eight 40-letter names: the page never scrolls sideways."""
    app = LIVE_APPS[live_server]
    names = [("María de los Ángeles Fernández Gutiérrez Sosa"[:39] + str(i)) for i in range(8)]
    with app.app_context():
        with transaction():
            table = play.create_digital_table(
                name="",
                preset="classic",
                overrides={},
                players=[(n, "human") for n in names],
                mode="devices",
                first_dealer=0,
                suit_style="spanish",
            )
        with transaction():
            table = db.session.get(GameTable, table.id)
            for player, seconds in zip(table.players, [0, 3, 200, 0, 30, 0, 0, 400], strict=True):
                player.seen_at = now() - timedelta(seconds=seconds)
            table.players[3].stand_in_since = now()
        owner, seat = table.owner_token, table.players[0].seat_token
    context = browser.new_context(
        **{**browser_context_args, "viewport": {"width": 360, "height": 800}, "locale": "es-AR"}
    )
    page = context.new_page()
    for url in (f"{live_server}/t/{owner}/play", f"{live_server}/s/{seat}"):
        page.goto(url)
        expect(page.locator("#board")).to_contain_text("en manos de la máquina")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, url
    page.screenshot(path=str(SCREENS / "seat-eight-long-names.png"), full_page=True, animations="disabled")
    context.close()


def test_a_hand_goes_on_by_the_clock_when_a_phone_leaves_mid_turn(
    browser: Browser, browser_context_args, live_server: str
):
    """The quick clock: every phone counts Carla's time down; her phone
    closes; when her time and reserve are spent the computer plays her turn
    and, her phone being away, her seat, with nobody tapping anything; Ana
    closes; Carla's points are the engine's; she comes back and plays on."""
    owner, seats = table_with_carla_to_move(live_server, clock="quick")
    phones: dict[str, Page] = {}
    for name in NAMES:
        phones[name] = browser.new_context(**browser_context_args).new_page()
        phones[name].goto(f"{live_server}/s/{seats[name]}")
    ana, ben = phones["Ana"], phones["Ben"]
    expect(phones["Carla"].locator(".turn-clock .whose")).to_have_text("Your time")
    expect(ana.locator(".turn-clock .whose")).to_have_text("Time for Carla")
    carlas_time_ran_out(live_server, owner, seconds_left=8)
    ben.reload()
    clock = ben.locator(".turn-clock")
    expect(clock).to_have_class(re.compile(r"\blow\b"))  # the last ten seconds: red
    first = clock.locator(".reserve-left").inner_text()
    expect(clock.locator(".reserve-left")).not_to_have_text(first, timeout=3000)  # it counts down by itself
    ben.screenshot(path=str(SCREENS / "clock-running-out.png"), full_page=True, animations="disabled")
    phones["Carla"].context.close()  # her phone goes away in the middle of her turn
    carla_last_seen(live_server, owner, 20)
    carlas_time_ran_out(live_server, owner)
    for phone in (ana, ben):  # by polling alone
        expect(phone.locator("#board")).to_contain_text("(Played by the computer for Carla.)", timeout=5000)
        expect(phone.locator("li", has_text="Carla")).to_contain_text("computer plays")
    game, handed = stored(live_server, owner)
    assert handed == [False, False, True] and game.turn == 0 and game.turns_taken == 5
    expect(ana.locator(".turn-clock .whose")).to_have_text("Your time")
    ana.screenshot(path=str(SCREENS / "clock-played-for-carla.png"), full_page=True, animations="disabled")
    draw = ana.get_by_role("button", name=re.compile("^Draw from the stock"))
    with ana.expect_navigation():
        draw.click()
    with ana.expect_navigation():
        ana.locator("button.close-option").first.click()
    game, _handed = stored(live_server, owner)
    assert game.closer == 0
    expected = {NAMES[i]: r.points for i, r in enumerate(game.settle().results)}
    for name in ("Ana", "Ben"):
        expect(phones[name].locator("#board")).to_contain_text("Ana closed.", timeout=5000)
        assert points_shown(phones[name]) == expected, name
        expect(phones[name].locator(".turn-clock")).to_have_count(0)  # no clock once the hand is over
    carla = browser.new_context(**browser_context_args).new_page()
    carla.goto(f"{live_server}/s/{seats['Carla']}")
    with carla.expect_navigation():
        carla.get_by_role("button", name="I'm back").click()
    expect(carla.locator(".flash")).to_contain_text("Carla plays again.")
    assert stored(live_server, owner)[1] == [False, False, False]
    for phone in (ana, ben, carla):
        phone.context.close()


def test_without_javascript_a_phone_shows_the_time_left_when_drawn(
    browser: Browser, browser_context_args, live_server: str
):
    owner, seats = table_with_carla_to_move(live_server, clock="relaxed")
    carla_last_seen(live_server, owner, 2)  # her phone is at the table
    carlas_time_ran_out(live_server, owner, seconds_left=100)
    context = browser.new_context(**{**browser_context_args, "java_script_enabled": False, "locale": "es-AR"})
    page = context.new_page()
    page.goto(f"{live_server}/s/{seats['Ana']}")
    expect(page.locator(".turn-clock .whose")).to_have_text("Tiempo de Carla")
    expect(page.locator(".turn-clock .turn-left")).to_have_text("0:00")
    reserve = page.locator(".turn-clock .reserve-left").inner_text()
    assert reserve in ("1:40", "1:39"), reserve
    expect(page.locator(".turn-clock")).to_contain_text("reserva")
    context.close()
