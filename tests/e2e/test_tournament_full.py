"""Whole tournaments in Chromium at 390×844 (issue 25): a 12-player knockout
(three tables of four, then a final table of three) and a 10-player
tournament of three rounds on points (tables of four and three), from the
sign-up form to the final ranking.  Every hand is typed by points on its
table's phone and confirmed there by a player who did not win; the
standings, the movements and the wall are checked against a reckoning kept
in this file from the points typed."""

from __future__ import annotations

import re
from collections import defaultdict

from playwright.sync_api import Browser, Page, expect

from companion.rules.names import name_key
from companion.rules.tournament import table_sizes

from .test_tournament_flow import enter_points, shot

PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "en-US"}
TWELVE = ["Ana", "Ben", "Carla", "Dani", "Eva", "Fede", "Gus", "Hugo", "Iris", "Juan", "Kim", "Lola"]
TEN = TWELVE[:10]


def create(page: Page, base: str, names: list[str], **choices: str) -> None:
    page.goto(base + "/tournaments/new")
    page.fill("#name", "Copa del Bar")
    page.fill("#players", "\n".join(names))
    if choices.get("format") == "points":
        page.locator("input[name=format][value=points]").check()
        page.locator("details.panel", has_text="How rounds are played").locator("summary").click()
        page.fill("#rounds", choices["rounds"])
        page.fill("#round_hands", choices["round_hands"])
    page.locator("details.panel", has_text="House variants").locator("summary").click()
    page.select_option("#reentries", "0")
    page.fill("#target", "50")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.locator(".flash")).to_contain_text("Tournament created")


def seated(page: Page, number: int) -> list[tuple[str, list[str]]]:
    """Round ``number`` in play as the dashboard shows it: each table's link and players, in seat order.

    The round's heading is waited for first: the click that starts it posts and the page comes
    back later, and until then the page is the one before (no tables, or the last round's)."""
    expect(page.get_by_role("heading", name=f"Round {number}: the tables")).to_be_visible()
    expect(page.get_by_role("button", name=f"Start round {number}")).to_have_count(0)
    tables = page.locator(".t-table")
    out = []
    for i in range(tables.count()):
        row = tables.nth(i)
        href = row.get_by_role("link", name=f"Open table {i + 1}").get_attribute("href")
        out.append((href, row.locator(".t-line").first.inner_text().split(", ")))
    return out


def play_table(browser: Browser, base: str, href: str, hands: list[list[int | None]]) -> None:
    """The table's phone: each hand typed by points (seat 0 closes), then the result confirmed by seat 1."""
    context = browser.new_context(**PHONE)
    phone = context.new_page()
    phone.goto(base + href)
    for points in hands:
        enter_points(phone, 0, points)
    phone.reload()
    names = phone.locator("#confirm-seat option").all_inner_texts()
    phone.select_option("#confirm-seat", label=names[1])
    phone.get_by_role("button", name="Confirm the result").click()
    expect(phone.locator(".flash")).to_contain_text("Result confirmed")
    context.close()


def knockout_hands(size: int) -> list[list[int | None]]:
    """Seat 0 wins: in hand k seat k goes out over 50, the others score 5 (out players: no field)."""
    return [
        [1] + [None if s < loser else (60 if s == loser else 5) for s in range(1, size)] for loser in range(1, size)
    ]


def standings_shown(page: Page) -> list[tuple[int, str]]:
    rows = page.locator("table.standings tbody tr")
    return [
        (int(rows.nth(i).locator("td").first.inner_text()), rows.nth(i).locator("th").inner_text().split(" ")[0])
        for i in range(rows.count())
    ]


def ranked(keys: dict[str, tuple]) -> list[tuple[int, str]]:
    """Best key first, names in their order within a tie; equal keys share the place of the first."""
    order = sorted(keys, key=lambda n: (keys[n], name_key(n)))
    return [(1 + sum(keys[o] < keys[n] for o in order), n) for n in order]


def moves_shown(page: Page, round_number: int) -> dict[str, int]:
    section = page.locator(
        "section.round-seating", has=page.get_by_role("heading", name=re.compile(f"^Round {round_number}\\b"))
    )
    lines = section.locator("ul.movements li").all_inner_texts()
    return {m[1]: int(m[2]) for m in (re.match(r"(.+) → table (\d+)$", line) for line in lines)}


def wall_lines(browser: Browser, base: str, watch: str) -> tuple[list[tuple[int, str]], str]:
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US")
    wall = context.new_page()
    wall.goto(f"{base}/c/{watch}/wall")
    items = wall.locator(".wall-standings li")
    lines = [
        (int(items.nth(i).locator(".w-place").inner_text()), items.nth(i).locator(".w-name").inner_text())
        for i in range(items.count())
    ]
    winner = wall.locator(".wall-winner").inner_text()
    assert wall.evaluate("document.documentElement.scrollHeight") <= 1080
    shot(wall, f"wall-final-{len(lines)}")
    context.close()
    return lines, winner


def watch_link(page: Page) -> str:
    page.locator("details.share summary").click()
    href = page.locator("details.share a", has_text="/c/").last.get_attribute("href")
    return href.rsplit("/", 1)[1]


def test_a_12_player_knockout_from_the_form_to_the_final_table(browser: Browser, live_server: str):
    organizer = browser.new_context(**PHONE)
    page = organizer.new_page()
    create(page, live_server, TWELVE)
    token = page.url.rsplit("/", 1)[1]
    page.get_by_role("button", name="Start round 1").click()
    first = seated(page, 1)
    assert [len(names) for _href, names in first] == [4, 4, 4]
    assert sorted(n for _h, names in first for n in names) == sorted(TWELVE)
    # The reckoning: each player's furthest round, place at their last table, hand points.
    record: dict[str, dict] = {}
    for href, names in first:
        play_table(browser, live_server, href, knockout_hands(4))
        # Seat 0 won; the others went out in seat order, so the last out ranks second.
        totals = [3, 60, 65, 70]
        for seat, name in enumerate(names):
            record[name] = {"reached": 1, "place": [1, 4, 3, 2][seat], "hand": totals[seat]}
    winners = [names[0] for _h, names in first]
    page.reload()
    expect(page.locator("p.status")).to_have_text("Round 1 is finished.")
    expect(page.locator(".seating li")).to_have_count(1)
    for name in winners:
        expect(page.locator(".seating li")).to_contain_text(name)
    page.goto(f"{live_server}/c/{token}/seating")
    assert moves_shown(page, 2) == dict.fromkeys(winners, 1)  # "Ana → table 1" for every winner
    assert moves_shown(page, 1) == {n: i for i, (_h, names) in enumerate(first, 1) for n in names}
    page.goto(f"{live_server}/c/{token}")
    page.get_by_role("button", name="Start round 2").click()
    (final,) = seated(page, 2)
    assert sorted(final[1]) == sorted(winners)
    play_table(browser, live_server, final[0], knockout_hands(3))
    for seat, name in enumerate(final[1]):
        record[name] = {"reached": 2, "place": [1, 3, 2][seat], "hand": record[name]["hand"] + [2, 60, 65][seat]}
    champion = final[1][0]
    page.reload()
    expect(page.locator("p.status")).to_have_text("The tournament is over.")
    expect(page.locator(".winner h2")).to_have_text(f"{champion} wins the tournament!")
    keys = {n: (n != champion, -r["reached"], r["place"], r["hand"]) for n, r in record.items()}
    expected = ranked(keys)
    assert expected[0] == (1, champion) and [p for p, _n in expected] == [1, 2, 3, 4, 4, 4, 7, 7, 7, 10, 10, 10]
    assert standings_shown(page) == expected
    shot(page, "knockout-final")
    lines, winner = wall_lines(browser, live_server, watch_link(page))
    assert lines == expected and winner == f"{champion} wins the tournament!"
    organizer.close()


def test_a_10_player_tournament_of_three_rounds_on_points(browser: Browser, live_server: str):
    organizer = browser.new_context(**PHONE)
    page = organizer.new_page()
    create(page, live_server, TEN, format="points", rounds="3", round_hands="1")
    token = page.url.rsplit("/", 1)[1]
    scale = [4, 2, 1, 0]
    points: dict[str, int] = defaultdict(int)
    hand: dict[str, int] = defaultdict(int)
    typed = [1, 5, 10, 15]  # seat 0 closes with 1; the others in seat order, so places follow the seats

    def by_standing() -> list[str]:
        return [n for _p, n in ranked({n: (-points[n], hand[n]) for n in TEN})]

    for number in (1, 2, 3):
        if number > 1:
            page.goto(f"{live_server}/c/{token}/seating")
            leaders, sizes = by_standing(), table_sizes(len(TEN), first_round=False)
            expected_tables = []
            for size in sizes:
                expected_tables.append(leaders[:size])
                leaders = leaders[size:]
            shown = moves_shown(page, number)  # the next round, before it starts
            assert shown == {n: i for i, names in enumerate(expected_tables, 1) for n in names}
            page.goto(f"{live_server}/c/{token}")
        page.get_by_role("button", name=f"Start round {number}").click()
        tables = seated(page, number)
        assert sorted(len(names) for _h, names in tables) == [3, 3, 4]
        if number > 1:  # by standing: table 1 holds the leaders, in order
            assert [names for _h, names in tables] == expected_tables
        for href, names in tables:
            play_table(browser, live_server, href, [typed[: len(names)]])
            for seat, name in enumerate(names):
                points[name] += scale[seat]
                hand[name] += typed[seat]
        page.reload()
        expected = ranked({n: (-points[n], hand[n]) for n in TEN})
        assert standings_shown(page) == expected
        rows = page.locator("table.standings tbody tr")
        for i, (_place, name) in enumerate(expected):
            cells = rows.nth(i).locator("td.num").all_inner_texts()
            assert cells == [str(points[name]), str(hand[name])], (name, cells)
    expect(page.locator("p.status")).to_have_text("The tournament is over.")
    champions = [n for p, n in expected if p == 1]
    if len(champions) == 1:
        expect(page.locator(".winner h2")).to_have_text(f"{champions[0]} wins the tournament!")
    shot(page, "points-final")
    lines, _winner = wall_lines(browser, live_server, watch_link(page))
    assert lines == expected
    organizer.close()
