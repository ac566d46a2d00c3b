"""A knockout round in play with 40-letter names, the way a club night
tried it: the wall on a landscape and a portrait TV, and the organizer's
pages (dashboard, seating, standings, a table's phone) at 360 px, in two
languages.  The tournament is built through the services (one table with
two hands in, its leader on 10 points; two tables with no hand yet), then
the pages are only loaded and measured."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from companion.extensions import db
from companion.services import tournaments as service
from companion.services.tournaments import Settings
from companion.services.unit import transaction

from .conftest import LIVE_APPS
from .test_tournament_flow import shot, store_points

#: Eight names of 40 letters (two without a space to break at), and four short ones: three tables of four.
LONG = [
    "María de los Ángeles Fernández Gutiérrez",
    "José Francisco Rodríguez de la Fuente Pé",
    "Hans-Joachim Müller-Lüdenscheidt von Ber",
    "Anna-Katharina Schwarzenberger-Hohenlohe",
    "Maximiliano Bartolomé Etcheverry Irigoye",
    "Guadalupe Inmaculada Concepción Sarmient",
    "WolfgangFriedrichOberschwarzbacherGrafen",
    "ConstanzaValentinaEcheverríaLarrañagaXYZ",
]
SHORT = ["Ana", "Ben", "Carla", "Dani"]
PHONE = 360

#: Elements whose text is cut: wider or taller than the box that shows them, with that overflow hidden.
CUT = """sel => [...document.querySelectorAll(sel)].filter(e => {
  const style = getComputedStyle(e);
  const hides = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
  return e.scrollWidth > e.clientWidth + 1 && hides
      || e.scrollHeight > e.clientHeight + 1 && style.overflowY !== 'visible';
}).map(e => e.textContent.trim())"""
BOX = "e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height}; }"
#: Words of these elements drawn over two lines: a button's word or a number broken to make
#: room ("Zurüc|kziehen", a total of 41 as 4 over 1).  A long word (a 40-letter name without a
#: space, "Schwarzenberger" in a narrow button) may break, and a name breaks at its hyphens.
BROKEN = """sel => [...document.querySelectorAll(sel)].flatMap(e => {
  const out = [], walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    for (const m of n.data.matchAll(/[^\\s-]+/g)) {
      if (m[0].length > 12) continue;
      const r = document.createRange();
      r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
      if (new Set([...r.getClientRects()].map(b => Math.round(b.top))).size > 1) out.push(m[0]);
    }
  }
  return out;
})"""
WORDS = "main button, main .button, main .badge, main .ranking strong, main td, main .total, main .w-pts"
#: One line of an element's own text, in px.
LINE = "e => parseFloat(getComputedStyle(e).lineHeight) || parseFloat(getComputedStyle(e).fontSize) * 1.45"


def round_one_in_play(name: str, players: list[str], seed: int):
    """A classic tournament with the default settings, created and
    its first round started through the services (inside an app context)."""
    with transaction():
        tournament = service.create_tournament(
            name=name, players=players, preset="classic", overrides={}, settings=Settings(), seed=seed
        )
    with transaction():
        service.start_round(tournament, tournament.version)
    return tournament


@pytest.fixture
def cup(live_server: str) -> dict:
    """A 12-player knockout, round 1 in play: the table holding the first long
    name has two hands in (its first seat leads on 10), the other two none."""
    assert all(len(name) == 40 for name in LONG)
    app = LIVE_APPS[live_server]
    with app.app_context():
        tournament = round_one_in_play("Torneo de Chinchón del Club Social y Deportivo", LONG + SHORT, seed=11)
        tables = tournament.played_rounds[0].tables
        played = next(t for t in tables if any(n in LONG for n in t.names))
        out = {
            "owner": tournament.owner_token,
            "watch": tournament.watch_token,
            "table": played.player_token,
            "played": list(played.names),
            "seed": tournament.played_rounds[0].seed,
            "tables": [list(t.names) for t in tables],
        }
        db.session.remove()
    store_points(app, out["table"], 1, {0: 6, 1: 2, 2: 20, 3: 25})
    store_points(app, out["table"], 0, {0: 4, 1: 15, 2: 20, 3: 30})
    return out


def fits(page, width: int, height: int | None = None) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if height is not None:
        assert page.evaluate("document.documentElement.scrollHeight") <= height


def test_the_wall_reads_in_full_on_a_landscape_and_a_portrait_screen(browser: Browser, live_server: str, cup):
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="es-AR")
    wall = context.new_page()
    for width, height in ((1920, 1080), (1080, 1920)):
        wall.set_viewport_size({"width": width, "height": height})
        wall.goto(f"{live_server}/c/{cup['watch']}/wall")
        shot(wall, f"layout-wall-{width}x{height}")
        fits(wall, width, height)
        # Nothing cut: the title, every name (standings and tables), every table's status line.
        assert wall.evaluate(CUT, ".wall-head h1, .w-name, .w-who, .w-status") == []
        bottoms = wall.locator(".wall-standings li, .w-table").evaluate_all(f"els => els.map({BOX})")
        assert max(box["bottom"] for box in bottoms) <= height
        # The live ranking: table 1's leader first (10 points), the players with no hand yet after table 1.
        names = wall.locator(".wall-standings .w-name").all_inner_texts()
        assert names[:4] == cup["played"]
        assert sorted(names) == sorted(LONG + SHORT)
        # Each table's card names each of its players; the status badge stays on one line.
        cards = wall.locator(".w-table")
        for i, seated in enumerate(cup["tables"]):
            assert sorted(cards.nth(i).locator(".w-who").all_inner_texts()) == sorted(seated)
            status = cards.nth(i).locator(".w-status")
            assert status.evaluate(BOX)["height"] <= 1.5 * status.evaluate(LINE)
        assert cards.first.locator(".w-pts").all_inner_texts() == ["10", "17", "40", "55"]
        standings, tables = (wall.locator(s).evaluate(BOX) for s in (".wall-standings", ".wall-tables"))
        if width > height:  # side by side, the tables reaching the right edge: no empty fifth
            assert tables["left"] >= standings["right"] and tables["right"] >= 0.95 * width
            assert min(cards.evaluate_all(f"els => els.map({BOX})"), key=lambda b: b["left"])["right"] >= 0.95 * width
        else:  # one column: the standings above the tables, as wide as the screen
            assert tables["top"] >= standings["bottom"] and standings["right"] - standings["left"] >= 0.9 * width
    # A phone may scroll down the stacked wall, never sideways, and cuts no name either.
    wall.set_viewport_size({"width": 390, "height": 844})
    wall.reload()
    shot(wall, "layout-wall-phone")
    fits(wall, 390)
    assert wall.evaluate(CUT, ".wall-head h1, .w-name, .w-who") == []
    context.close()


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_organizers_pages_fit_360px_with_40_letter_names(browser: Browser, live_server: str, cup, locale: str):
    context = browser.new_context(viewport={"width": PHONE, "height": 780}, locale=locale)
    page = context.new_page()
    tag = locale[:2]
    for name, path in (
        ("dashboard", f"/c/{cup['owner']}"),
        ("seating", f"/c/{cup['owner']}/seating"),
        ("standings", f"/c/{cup['owner']}/standings"),
        ("table", f"/t/{cup['table']}"),
        ("round", f"/c/{cup['owner']}/rounds/1"),
        ("hand", f"/t/{cup['table']}/hands/new"),
    ):
        page.goto(live_server + path)
        shot(page, f"layout-{name}-{tag}")
        fits(page, PHONE)
        assert page.evaluate(BROKEN, WORDS) == [], name
        # No box scrolls sideways inside the page either (the standings table sits in one).
        assert page.evaluate(CUT, ".scroll, table.standings th, .t-line, .score .name, .round-seating li") == [], name
        text = page.locator("main").inner_text()
        assert all(n in text for n in cup["played"]), name
        if name in ("dashboard", "standings"):
            rows = page.locator("table.standings tbody th")
            assert [rows.nth(i).inner_text() for i in range(4)] == cup["played"]  # the leader on 10 first
            assert page.locator("table.standings tbody tr").first.locator("td").first.inner_text() == "1"
            # A name over several lines keeps its figures on its first line.
            for tops in page.locator("table.standings tbody tr").evaluate_all(
                "rows => rows.map(r => [...r.children].map(c => {"
                " const t = document.createRange(); t.selectNodeContents(c); return t.getClientRects()[0].top; }))"
            ):
                assert max(tops) - min(tops) <= 2, tops
        if name == "round":  # each table's places with their points, each number on one line beside its name
            ranking = page.locator(".round-table").first.locator(".ranking li")
            assert [" ".join(t.split()) for t in ranking.all_inner_texts()] == [
                f"{place}. {who} {points}"
                for place, who, points in zip(range(1, 5), cup["played"], (10, 17, 40, 55), strict=True)
            ]
            # A table with no hand yet places nobody (everybody "1." on 0 read as a four-way tie) and says so.
            idle = page.locator(".round-table").nth(1)
            assert idle.locator(".no-hand").inner_text() == {"en": "No hand yet", "de": "Noch keine Hand"}[tag]
            assert idle.locator(".ranking li").all_inner_texts() == cup["tables"][1]
            assert idle.locator(".ranking strong").count() == 0
        if name == "hand":  # every player's tab shows the whole name (on two lines when it needs them)
            tabs = page.locator(".grid-panel .tab .tab-label")
            assert set(cup["played"]) <= {" ".join(t.split()) for t in tabs.all_inner_texts()}
            assert page.evaluate(CUT, ".grid-panel .tab .tab-label") == []
        if name == "seating":  # each status badge a compact pill: one line high, not stretched by its row
            assert page.locator(".round-seating h2 .muted").inner_text().endswith(f" {cup['seed']}")
            for box, line in page.locator(".round-seating .badge").evaluate_all(
                f"els => els.map(e => [({BOX})(e), ({LINE})(e)])"
            ):
                assert box["height"] <= 1.6 * line, box
        if name == "table":  # each total on its name's line, at its right: the name wraps instead
            scores = page.locator(".score")
            for i in range(scores.count()):
                label = scores.nth(i).locator(".name").evaluate(BOX)
                total = scores.nth(i).locator(".total").evaluate(BOX)
                assert total["left"] >= label["right"] - 1 and total["top"] < label["bottom"], (i, label, total)
    context.close()


@pytest.mark.parametrize("locale", ["es-AR", "de-DE"])
def test_the_sign_up_list_keeps_its_buttons_whole_beside_40_letter_names(
    browser: Browser, live_server: str, locale: str
):
    """Before the first round the organizer's list of players has a button on
    each line: at 360 px in German "Zurückziehen" broke over three lines
    beside a long name, and "Anmelden" beside the name field."""
    app = LIVE_APPS[live_server]
    with app.app_context():
        with transaction():
            tournament = service.create_tournament(
                name="Torneo", players=LONG + SHORT, preset="classic", overrides={}, settings=Settings(), seed=3
            )
        owner = tournament.owner_token
        db.session.remove()
    context = browser.new_context(viewport={"width": PHONE, "height": 780}, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server}/c/{owner}")
    shot(page, f"layout-sign-up-{locale[:2]}")
    fits(page, PHONE)
    lines = page.locator("#players-title ~ .list li")
    assert sorted(t.split("\n")[0].strip() for t in lines.all_inner_texts()) == sorted(LONG + SHORT)
    assert page.evaluate(BROKEN, "main button, main .button") == []
    for i in range(lines.count()):  # the button beside its name, inside the screen
        name, button = (lines.nth(i).locator(s).evaluate(BOX) for s in ("span", "button"))
        assert button["left"] >= name["right"] - 1 and button["right"] <= PHONE, (i, name, button)
    context.close()


def test_a_wall_of_16_tables_shows_its_standings_whole_with_40_letter_names(browser: Browser, live_server: str):
    """Over twelve tables the wall's standings get a third of the screen: 16
    lines of 40-letter names each wrapping to two lines ran off the bottom.
    It shows twelve there, every one of them whole, and says how many more."""
    names = [f"{LONG[i % len(LONG)][:35]} {i:04d}" for i in range(64)]
    assert all(len(name) == 40 for name in names)
    app = LIVE_APPS[live_server]
    with app.app_context():
        tournament = round_one_in_play("Gran Torneo Anual de Chinchón del Club Social", names, seed=5)
        watch = tournament.watch_token
        db.session.remove()
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="es-AR")
    wall = context.new_page()
    wall.goto(f"{live_server}/c/{watch}/wall")
    shot(wall, "layout-wall-16-tables")
    fits(wall, 1920, 1080)
    assert wall.locator(".w-table").count() == 16
    assert wall.evaluate(CUT, ".wall-head h1, .w-name, .w-who, .w-status") == []
    lines = wall.locator(".wall-standings li")
    shown = lines.count()
    assert shown == 12
    boxes = [*lines.evaluate_all(f"els => els.map({BOX})"), wall.locator(".w-more").evaluate(BOX)]
    assert max(box["bottom"] for box in boxes) <= 1080
    assert wall.locator(".w-more").inner_text() == f"y {64 - shown} más"
    cards = wall.locator(".w-table").evaluate_all(f"els => els.map({BOX})")
    assert max(box["bottom"] for box in cards) <= 1080
    context.close()
