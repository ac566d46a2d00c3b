"""Layouts that hold: 40-letter names without a space (the longest the forms
take) and 8 players never widen a page past a 360 px phone (issue #23)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page

from companion.extensions import db
from companion.models import GameTable
from companion.rules import parse_cards
from companion.services.groups import create_group, join
from companion.services.hands import HandInput, store_hand
from companion.services.play import create_digital_table
from companion.services.tables import create_table
from companion.services.unit import transaction

from .conftest import LIVE_APPS

NAMES = [f"Maximiliano{letter}Fernández".ljust(40, letter.lower()) for letter in "ABCDEFGH"]
WIDTH = 360
SCREENS = Path(os.environ.get("CHINCHON_SCREENS", "/work/screens"))


@pytest.fixture
def links(live_server: str) -> dict[str, str]:
    with LIVE_APPS[live_server].app_context():
        with transaction():
            group = create_group(
                name="G" * 60, members=NAMES, preset="classic", overrides={"stake": "1"}, currency="EUR"
            )
            table = create_table(
                name="T" * 80,
                preset="classic",
                overrides={"stake": "1.50"},
                players=NAMES,
                first_dealer=0,
                suit_style="spanish",
            )
            join(table, group)
            digital = create_digital_table(
                name="",
                preset="classic",
                overrides={},
                players=[(n, "human" if i < 2 else "good") for i, n in enumerate(NAMES)],
                mode="devices",
                first_dealer=0,
                suit_style="spanish",
            )
        for closer in range(2):
            with transaction():
                table = db.session.get(GameTable, table.id)
                points = {s: 1 if s == closer else 3 + s for s in range(8)}
                store_hand(
                    table, table.version, f"hand-{closer}", HandInput(closer=closer, mode="points", points=points)
                )
        seat = next(p.seat_token for p in digital.players if p.seat_token)
        return {
            "scoreboard": f"/t/{table.owner_token}",
            "scoreboard (player link)": f"/t/{table.player_token}",
            "hand entry": f"/t/{table.owner_token}/hands/new?closer=1",
            "correction": f"/t/{table.owner_token}/hands/2/edit",
            "history": f"/t/{table.owner_token}/history",
            "settings": f"/t/{table.owner_token}/settings",
            "group": f"/g/{group.owner_token}",
            "settle-up": f"/g/{group.owner_token}/settle",
            "group settings": f"/g/{group.owner_token}/settings",
            "digital table": f"/t/{digital.owner_token}/play",
            "seat": f"/s/{seat}",
        }


def test_no_page_is_wider_than_360px_with_eight_40_letter_names(page: Page, live_server: str, links):
    page.set_viewport_size({"width": WIDTH, "height": 780})
    wide = {}
    for name, path in links.items():
        response = page.goto(live_server + path)
        assert response.status == 200, (name, response.status)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > WIDTH:
            wide[name] = width
    assert not wide, wide
    # The names wrap or are cut with the full name still there to read.
    page.goto(live_server + links["scoreboard"])
    text = page.locator("main").inner_text()
    assert all(name in text.replace("\n", "") for name in NAMES)
    # The history scrolls sideways inside its box, and its caption stays in view above it.
    page.goto(live_server + links["history"])
    caption = page.locator("table.history caption")
    ends = caption.evaluate(
        "e => { const r = document.createRange(); r.selectNodeContents(e);"
        " return [...r.getClientRects()].map(b => [b.left, b.right]); }"
    )
    assert ends and min(left for left, _ in ends) >= 0 and max(right for _, right in ends) <= WIDTH, ends


def test_the_new_table_form_holds_eight_40_letter_names(page: Page, live_server: str):
    page.set_viewport_size({"width": WIDTH, "height": 780})
    page.goto(live_server + "/tables/new")
    page.get_by_text("More players").click()
    for i, name in enumerate(NAMES):
        page.fill(f"#players-{i}", name)
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_selector(".scores")
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH


def test_a_hand_entered_by_cards_fits_360px_with_40_letter_names_laying_off(page: Page, live_server: str):
    """The verdict's table of melds, lay-offs and points: a 40-letter name
    without a space, in its row and in "lays off 4♠ → …'s meld 1", wraps
    instead of widening the page (it was 613 px wide on a 390 px phone)."""
    names = [NAMES[0], NAMES[1], "Ana"]
    with LIVE_APPS[live_server].app_context():
        with transaction():
            table = create_table(
                name="", preset="classic", overrides={}, players=names, first_dealer=2, suit_style="spanish"
            )
        cards = {0: "1o 2o 3o 5c 5e 5b 1e", 1: "4o 10c 11c 12c 2e 3e 6b", 2: "7c 7e 7b 6o 6c 12e 11b"}
        with transaction():
            store_hand(
                table,
                table.version,
                "by-cards",
                HandInput(
                    closer=0,
                    mode="cards",
                    cards={s: parse_cards(c) for s, c in cards.items()},
                    discard=parse_cards("12b")[0],
                ),
            )
        owner = table.owner_token
    page.set_viewport_size({"width": WIDTH, "height": 780})
    page.goto(f"{live_server}/t/{owner}/hands/1/edit")
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / "long-names-verdict.png"), full_page=True)
    rows = page.locator("table.results tbody tr")
    assert rows.count() == 3
    assert "lays off" in rows.nth(1).inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    for i in range(3):  # every row's points inside the screen
        box = rows.nth(i).locator("td.num").bounding_box()
        assert box is not None and box["x"] + box["width"] <= WIDTH


def test_a_digital_table_of_four_shows_long_names_whole_and_its_badges_unbroken(page: Page, live_server: str):
    """The board's list of players at 360 px: "computer" (es: "máquina") beside
    a 40-letter name was squeezed to a letter a line, and the name was cut."""
    from .test_tournament_layout import BROKEN, CUT

    long = ["María de los Ángeles Fernández Gutiérrez", NAMES[2]]
    with LIVE_APPS[live_server].app_context():
        with transaction():
            table = create_digital_table(
                name="",
                preset="classic",
                overrides={},
                players=[("Ana", "human"), (long[0], "good"), (long[1], "good"), ("Bea", "good")],
                mode="hotseat",
                first_dealer=3,
                suit_style="spanish",
            )
        owner = table.owner_token
    for lang in ("en", "es_AR"):
        page.context.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
        page.set_viewport_size({"width": WIDTH, "height": 780})
        page.goto(f"{live_server}/t/{owner}/play")
        SCREENS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENS / f"long-names-board-{lang}.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, lang
        who = page.locator(".opponents .who")
        assert [" ".join(t.split()) for t in who.all_inner_texts()] == ["Ana", *long, "Bea"]
        assert page.evaluate(CUT, ".opponents .who") == [], lang
        assert page.evaluate(BROKEN, ".opponents .badge, .opponents .count, .opponents .total") == [], lang
