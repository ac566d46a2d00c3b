"""A duplicate tournament in Chromium at 390×844: the organizer asks for
duplicate deals on the form, seats two tables in the app, the tables play
their hand (the people's turns played for them on the server, the computer
filling each table), and the round's results compare each seat with the
same seat at the other table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select

from companion.extensions import db
from companion.models import Tournament
from companion.services import tournaments as service

from ..services.test_tournament_digital import play_hand
from .conftest import LIVE_APPS


@pytest.mark.play_seed("e2e-duplicate")
def test_a_duplicate_round_compares_each_seat_across_the_tables(page: Page, live_server: str):
    page.goto(live_server + "/tournaments/new")
    page.fill("#name", "Copa duplicada")
    page.fill("#players", "Ana\nBen\nCarla\nDani\nEva\nFede")
    page.locator("input[name=format][value=points]").check()
    page.locator("details.panel", has_text="How rounds are played").locator("summary").click()
    page.fill("#rounds", "1")
    page.fill("#round_hands", "1")
    page.locator("details.panel", has_text="Cards or app").locator("summary").click()
    page.locator("input[name=play][value=hotseat]").check()
    page.select_option("#bots", "simple")
    page.get_by_label("Duplicate deals: every table of a round gets the same cards").check()
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.locator(".flash")).to_contain_text("Tournament created")
    page.get_by_role("button", name="Start round 1").click()
    expect(page.locator(".t-table")).to_have_count(2)

    app = LIVE_APPS[live_server]
    with app.app_context():
        tournament = db.session.scalar(select(Tournament).order_by(Tournament.id.desc()))
        assert tournament.duplicate
        tables = tournament.played_rounds[0].tables
        assert tables[0].deals[0].seed == tables[1].deals[0].seed  # dealt alike
        for table in tables:
            play_hand(table)
        comparison = service.same_cards(tournament.played_rounds[0])
        expected = [[(s.place, s.name, s.table, s.points) for s in c.scores] for c in comparison]
        db.session.remove()
    assert len(expected) == 4

    page.reload()
    expect(page.locator("p.status")).to_have_text("The tournament is over.")
    page.get_by_role("link", name="Round 1 results").click()
    page.wait_for_url(re.compile(r"/rounds/1$"))
    expect(page.locator("h1")).to_have_text("Round 1 results")
    expect(page.locator(".same-cards h3")).to_have_text([f"Seat {k} across tables" for k in range(1, 5)])
    for k, scores in enumerate(expected):
        rows = page.locator(f".same-seat[data-seat='{k + 1}'] li")
        expect(rows).to_have_count(2)
        for row, (place, name, table, points) in zip(rows.all(), scores, strict=True):
            expect(row).to_contain_text(f"{place}. {name}")
            expect(row).to_contain_text(f"table {table}")
            expect(row.locator("strong")).to_have_text(f"{points} pt" if points == 1 else f"{points} pts")
    expect(page.locator(".same-cards")).to_contain_text("Points of the 1 hand dealt alike at these tables.")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
