"""A club tournament in Chromium: the organizer's phone (390×844) creates
it and seats round 1, a table's phone enters its hands and a second player
confirms there, the dashboard follows, and the wall on a TV (1920×1080)
shows 32 tables without scrolling and updates by itself."""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select

from companion.extensions import db
from companion.models import GameTable, Tournament
from companion.services import tournaments as service
from companion.services.hands import HandInput, store_hand
from companion.services.tournaments import Settings
from companion.services.unit import transaction

from .conftest import LIVE_APPS

SCREENS = Path(os.environ.get("CHINCHON_SCREENS", "/work/screens"))
EIGHT = ["Ana", "Ben", "Carla", "Dani", "Eva", "Fede", "Gus", "Hugo"]


def shot(page: Page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"tournament-{name}.png"), full_page=True)


def enter_points(phone: Page, closer: int, points: list[int]) -> None:
    """The table's phone: "who closed?", the closer's score, everybody else's points, save."""
    phone.locator(".pick-closer a").nth(closer).click()
    phone.locator(f"label.pill:has(input[name=closer_score][value='{points[closer]}'])").click()
    for seat, value in enumerate(points):
        if seat != closer and value is not None:
            phone.fill(f"input[name=p{seat}]", str(value))
    phone.get_by_role("button", name=re.compile("^Save hand")).click()
    expect(phone.locator(".flash")).to_contain_text("saved")


def store_points(app, token: str, closer: int, points: dict[int, int]) -> None:
    with app.app_context():
        table = db.session.scalar(select(GameTable).where(GameTable.player_token == token))
        with transaction():
            store_hand(table, table.version, uuid.uuid4().hex, HandInput(closer=closer, mode="points", points=points))
        db.session.remove()


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_an_organizer_seats_a_round_and_a_table_confirms_its_result(browser: Browser, live_server: str, js: bool):
    organizer = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US", java_script_enabled=js)
    page = organizer.new_page()
    page.goto(live_server + "/")
    page.get_by_role("link", name=re.compile("club tournament")).click()
    page.fill("#name", "Copa del Bar")
    page.fill("#players", "\n".join(EIGHT))
    page.locator("details.panel", has_text="House variants").locator("summary").click()
    page.select_option("#reentries", "0")
    page.fill("#target", "50")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.locator(".flash")).to_contain_text("Tournament created")
    expect(page.locator("p.status")).to_contain_text("8 players signed up")
    # The seating shown is the draw the round gets.
    app = LIVE_APPS[live_server]
    with app.app_context():
        cup = db.session.scalar(select(Tournament).order_by(Tournament.id.desc()))
        planned = service.overview(cup).next_seating()
    for number, names in enumerate(planned, start=1):
        expect(page.locator(".seating li").nth(number - 1)).to_have_text(f"Table {number}: {', '.join(names)}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, f"seating-{'js' if js else 'nojs'}")
    page.get_by_role("button", name="Start round 1").click()
    expect(page.locator(".flash")).to_contain_text("Round 1 is seated.")
    expect(page.locator(".t-table")).to_have_count(2)
    expect(page.locator(".t-table").first).to_contain_text("playing")
    shot(page, f"dashboard-{'js' if js else 'nojs'}")

    # Table 1's phone opens the link the organizer hands out.
    href = page.locator(".t-table").first.get_by_role("link", name="Open table 1").get_attribute("href")
    phone_context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US", java_script_enabled=js)
    phone = phone_context.new_page()
    phone.goto(live_server + href)
    expect(phone.locator(".round-of")).to_contain_text("Round 1 · Table 1")
    names = planned[0]
    # Three hands, one player out over 50 in each (no re-entry at this tournament).
    expect(phone.locator(".confirm-result")).to_have_count(0)
    for loser in (1, 2, 3):
        points = [1] + [None if s < loser else (60 if s == loser else 5) for s in range(1, 4)]
        if js:
            enter_points(phone, 0, points)
        else:
            store_points(app, href.rsplit("/", 1)[1], 0, {s: p for s, p in enumerate(points) if p is not None})
    phone.reload()
    confirm = phone.locator(".confirm-result")
    expect(confirm).to_contain_text(f"Confirm: {names[0]} wins table 1")
    phone.select_option("#confirm-seat", label=names[1])
    phone.get_by_role("button", name="Confirm the result").click()
    expect(phone.locator(".flash")).to_contain_text("Result confirmed")
    expect(phone.locator(".result-final")).to_contain_text(f"confirmed by {names[1]}")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, f"table-{'js' if js else 'nojs'}")

    page.reload()
    expect(page.locator(".t-table").first).to_contain_text("finished")
    expect(page.locator(".t-table").first).to_contain_text(f"{names[0]} wins the table")
    phone_context.close()
    organizer.close()


def many_tables(base: str, players: int = 128) -> str:
    """A 32-table round with a few hands in: the wall's hard case."""
    app = LIVE_APPS[base]
    with app.app_context():
        with transaction():
            cup = service.create_tournament(
                name="Gran Torneo de Chinchón del Club Social",
                players=[f"Jugador número {i:03d}" for i in range(players)],
                preset="classic",
                overrides={},
                settings=Settings(),
            )
        with transaction():
            service.start_round(cup, cup.version)
        token, links = cup.watch_token, [t.player_token for t in cup.played_rounds[0].tables]
        db.session.remove()
    for link in links[:20]:
        store_points(app, link, 0, {0: 1, 1: 10, 2: 20, 3: 30})
    return token, links


def test_the_wall_shows_32_tables_without_scrolling_and_follows_a_new_hand(browser: Browser, live_server: str):
    token, links = many_tables(live_server)
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="es-ES")
    wall = context.new_page()
    wall.goto(f"{live_server}/c/{token}/wall")
    expect(wall.locator(".w-table")).to_have_count(32)
    assert wall.evaluate("document.documentElement.scrollHeight") <= 1080
    assert wall.evaluate("document.documentElement.scrollWidth") <= 1920
    # Every table box is on the screen, whole.
    boxes = wall.locator(".w-table").evaluate_all("els => els.map(e => e.getBoundingClientRect().bottom)")
    assert max(boxes) <= 1080
    shot(wall, "wall-32")
    # A table's hand reaches the wall within 2 s, without touching it.
    store_points(LIVE_APPS[live_server], links[31], 0, {0: 1, 1: 10, 2: 20, 3: 30})
    expect(wall.locator(".w-table").nth(31)).to_contain_text("1 mano", timeout=2500)  # the page speaks Spanish
    context.close()


@pytest.mark.play_seed("e2e-cup")
def test_a_tournament_in_the_app_on_one_phone_per_table(browser: Browser, live_server: str):
    """Three players, a computer filling the table, one hand: the table's
    phone (its player link) is passed round; the result goes to the
    dashboard and the wall by itself, without the computer player."""
    organizer = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    page = organizer.new_page()
    page.goto(live_server + "/tournaments/new")
    page.fill("#name", "Copa digital")
    page.fill("#players", "Ana\nBen\nCarla")
    page.locator("input[name=format][value=points]").check()
    page.locator("details.panel", has_text="How rounds are played").locator("summary").click()
    page.fill("#rounds", "1")
    page.fill("#round_hands", "1")
    page.locator("details.panel", has_text="Cards or app").locator("summary").click()
    page.locator("input[name=play][value=hotseat]").check()
    page.select_option("#bots", "simple")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.locator(".flash")).to_contain_text("Tournament created")
    page.get_by_role("button", name="Start round 1").click()
    expect(page.locator(".t-table")).to_have_count(1)
    expect(page.locator(".t-table")).to_contain_text("Bot 1")
    href = page.locator(".t-table").get_by_role("link", name="Open table 1").get_attribute("href")

    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US").new_page()
    phone.goto(live_server + href)
    phone.get_by_role("link", name="Back to the game").click()
    expect(phone.locator(".round-of")).to_contain_text("Round 1 · Table 1")
    for _ in range(150):
        if phone.locator(".result-final").count():
            break
        turn = phone.get_by_role("link", name=re.compile("^I am (Ana|Ben|Carla): show my cards"))
        expect(turn.or_(phone.locator(".result-final"))).to_be_visible()
        if phone.locator(".result-final").count():
            break
        turn.click()
        with phone.expect_navigation():
            phone.get_by_role("button", name="Draw from the stock").click()
        close = phone.locator(".close-option")
        if close.count():  # a person closes as soon as the hand allows
            with phone.expect_navigation():
                close.first.click()
            continue
        phone.locator(".pcard.pick").last.click()
        with phone.expect_navigation():
            phone.get_by_role("button", name="Throw", exact=True).click()
    expect(phone.locator(".result-final")).to_contain_text("played in the app")
    expect(phone.get_by_role("button", name="Deal the next hand")).to_have_count(0)
    expect(phone.get_by_role("button", name="Rematch")).to_have_count(0)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "digital-table")

    app = LIVE_APPS[live_server]
    with app.app_context():
        view = service.overview(db.session.scalar(select(Tournament).order_by(Tournament.id.desc())))
        expected = [(line.place, line.name) for line in view.standings]
    assert sorted(name for _place, name in expected) == ["Ana", "Ben", "Carla"]
    page.reload()
    expect(page.locator("p.status")).to_have_text("The tournament is over.")
    winners = [name for place, name in expected if place == 1]
    if len(winners) == 1:
        expect(page.locator(".winner h2")).to_have_text(f"{winners[0]} wins the tournament!")
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(3)
    for i, (place, name) in enumerate(expected):
        expect(rows.nth(i).locator("td").first).to_have_text(str(place))
        expect(rows.nth(i).locator("th")).to_contain_text(name)
    shot(page, "digital-dashboard")
    organizer.close()
