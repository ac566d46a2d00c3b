"""The seat view on a 390×844 phone with 2 to 8 players (JavaScript on):
after drawing, the player's eight cards, the Throw button and the pile are
on screen without scrolling, and every card of a meld shows its suit mark
(the card laid over it never covers it).  The 6-player view is photographed
in light and dark into /tmp/shots (or ``$CHINCHON_SHOTS``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.extensions import db
from companion.models import Deal, GameTable
from companion.rules import parse_cards
from companion.rules.game import Discard, Draw, HandGame, Source
from companion.services.play import create_digital_table
from companion.services.unit import transaction

from .conftest import LIVE_APPS

SHOTS = Path(os.environ.get("CHINCHON_SHOTS", "/tmp/shots"))
NAMES = ["Ana", "Benjamín", "Carla", "Dani", "Eva", "Fran", "Gus", "Hugo"]
#: Ana's seven cards and the one she draws (the stock's top): a set of sevens
#: in three suits and five loose cards (two rows of cards on a phone), or two
#: melds that close throwing the card drawn (a close button above Throw).
HANDS = {"loose": ("7o 7c 7b 1e 3b 5o 10c", "12e"), "closing": ("7o 7c 7b 3e 4e 5e 1o", "12e")}


def seat_at_discard(base: str, players: int, style: str = "spanish", hand: str = "loose") -> str:
    """A digital table on several phones, Ana (seat 0) to draw after the
    player before her took a turn; her seat link."""
    app = LIVE_APPS[base]
    with app.app_context():
        with transaction():
            table = create_digital_table(
                name="",
                preset="classic",
                overrides={},
                players=[("Ana", "human")] + [(n, "good") for n in NAMES[1:players]],
                mode="devices",
                first_dealer=players - 1,
                suit_style=style,
            )
        deal = db.session.query(Deal).filter_by(table_id=table.id).one()
        mine, top = (parse_cards(cards) for cards in HANDS[hand])
        rest = [c for c in table.rules.pack.cards() if c not in mine + top]
        rest += [c for c in table.rules.pack.cards() if c not in mine + top] if players > 4 else []  # two decks
        hands = [mine] + [rest[i * 7 : i * 7 + 7] for i in range(players - 1)]
        left = rest[(players - 1) * 7 :]
        game = HandGame(
            rules=table.rules,
            dealer=players - 1,
            hands=hands,
            stock=left[1:12] + top,
            discards=left[:1],
            turn=0,
            turns_taken=players + 2,
            log=[Draw(players - 1, Source.STOCK, None), Discard(players - 1, left[0])],
        )
        deal.seats = list(range(players))
        deal.state = game.to_dict()
        db.session.commit()
        return db.session.get(GameTable, table.id).players[0].seat_token


def drawn(page: Page, base: str, players: int, style: str = "spanish", hand: str = "loose") -> None:
    page.goto(f"{base}/s/{seat_at_discard(base, players, style, hand)}")
    with page.expect_navigation():
        page.get_by_role("button", name="Draw from the stock").click()
    expect(page.get_by_role("button", name="Throw", exact=True)).to_be_visible()


def in_view(page: Page, selector: str) -> list[str]:
    """The elements matching ``selector`` that are not wholly inside the viewport."""
    return page.evaluate(
        """sel => [...document.querySelectorAll(sel)].filter(e => {
             const r = e.getBoundingClientRect();
             return r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth;
           }).map(e => e.textContent.trim() || e.outerHTML.slice(0, 80))""",
        selector,
    )


def covered_suits(page: Page) -> list[str]:
    """Meld cards whose suit mark another element covers (checked at the
    mark's corners and centre with elementFromPoint)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.my-hand .group.meld .pcard')].filter(card => {
             const mark = card.querySelector('svg.suit, .mark');
             if (!mark) return true;
             const r = mark.getBoundingClientRect();
             const points = [[r.left + 1, r.top + 1], [r.right - 1, r.top + 1], [r.left + 1, r.bottom - 1],
                             [r.right - 1, r.bottom - 1], [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
             return points.some(([x, y]) => !card.contains(document.elementFromPoint(x, y)));
           }).map(card => card.textContent.trim())"""
    )


@pytest.mark.parametrize("hand", ["loose", "closing"])
@pytest.mark.parametrize(("players", "style"), [(2, "spanish"), (6, "spanish"), (8, "spanish"), (6, "french")])
def test_own_cards_throw_and_pile_fit_the_phone(page: Page, live_server: str, players: int, style: str, hand: str):
    drawn(page, live_server, players, style, hand)
    assert page.evaluate("scrollY") == 0
    expect(page.locator(".my-hand .pcard")).to_have_count(8)
    expect(page.locator(".moves")).to_contain_text("Ana drew")
    assert in_view(page, ".my-hand .pcard") == []
    assert in_view(page, ".actions.throw button[value=discard]") == []
    assert in_view(page, ".actions.throw .close-option") == []
    assert in_view(page, ".piles .pcard") == []
    expect(page.locator(".my-hand .group.meld .pcard")).to_have_count(3 if hand == "loose" else 6)
    assert covered_suits(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_six_player_seat_view_is_photographed(browser: Browser, live_server: str, scheme: str):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="en-US", color_scheme=scheme, reduced_motion="reduce"
    )
    page = context.new_page()
    drawn(page, live_server, 6)
    expect(page.locator(".moves")).to_contain_text("Ana drew")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"play-seat-6-{scheme}.png"))
    assert covered_suits(page) == []
    context.close()
