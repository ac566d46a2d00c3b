"""A group's evening in Chromium at 390×844: two physical matches for money and
a digital one, then the standings and settle-up checked against figures the
test computes itself from the hands stored on the server."""

from __future__ import annotations

import os
import re
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select

from companion.extensions import db
from companion.models import Group
from companion.rules import replay_match

from .conftest import LIVE_APPS

SCREENS = os.environ.get("CHINCHON_SCREENS", "/work/screens")

#: Match 1 (target 30): Carla goes out in hand 2, buys back in, and wins.
MATCH_1 = [
    (0, [-10, 10, 25, 5]),
    (1, [15, 2, 10, 8]),
    (3, [30, 20, 5, -10]),
    (2, [None, None, 1, 40]),
]
#: Match 2: Ben closes, Ana is caught with 40 and goes out.
MATCH_2 = [(1, [40, 3])]


def shot(page: Page, name: str, locator=None) -> None:
    if locator is not None:
        locator.scroll_into_view_if_needed()
    os.makedirs(SCREENS, exist_ok=True)
    page.screenshot(path=os.path.join(SCREENS, f"groups-{name}.png"))


def enter_points(page: Page, closer: int, points: list[int | None]) -> None:
    # "Enter hand N: who closed?" lists the players still in, in seat order.
    still_in = [seat for seat, value in enumerate(points) if value is not None]
    page.locator(".pick-closer a").nth(still_in.index(closer)).click()
    expect(page.locator(f"input[name=closer][value='{closer}']")).to_be_checked()
    page.locator(f"label.pill:has(input[name=closer_score][value='{points[closer]}'])").click()
    for seat, value in enumerate(points):
        if value is not None and seat != closer:
            page.fill(f"input[name=p{seat}]", str(value))
    page.get_by_role("button", name=re.compile("Save hand")).click()
    expect(page.locator(".flash")).to_contain_text("saved")


def start_table(page: Page, group_url: str, players: list[str]) -> None:
    page.goto(group_url)
    page.get_by_role("link", name="New table in this group").click()
    expect(page.locator(".group-note")).to_contain_text("counts for the group Friday")
    for i in range(4):
        expect(page.locator(f"#players-{i}")).to_have_value(["Ana", "Ben", "Carla", "Dani"][i])
        page.fill(f"#players-{i}", players[i] if i < len(players) else "")
    page.get_by_role("button", name="Start the table").click()
    expect(page.locator(".status")).to_contain_text("Hand 1")


def play_digital(page: Page, group_url: str) -> None:
    """Ana against the computer on one phone: she draws and throws until the match ends."""
    page.goto(group_url)
    page.get_by_role("link", name="Digital game in this group").click()
    page.fill("#players-1", "Robo")
    page.select_option("#kinds-1", "good")
    page.fill("#players-2", "")
    page.fill("#players-3", "")
    page.get_by_role("button", name="Deal the cards").click()
    page.wait_for_url(re.compile(r"/play$"))
    for _ in range(400):
        if page.get_by_role("link", name="See the final scores").count():
            return
        if page.get_by_role("button", name="Deal the next hand").count():
            with page.expect_navigation():
                page.get_by_role("button", name="Deal the next hand").click()
            continue
        with page.expect_navigation():  # alone against the computer: her cards, no pass screen
            page.get_by_role("button", name="Draw from the stock").click()
        page.locator(".pcard.pick").last.click()
        with page.expect_navigation():
            page.get_by_role("button", name="Throw", exact=True).click()
    raise AssertionError("the digital match did not finish")


def expected_from_stored_hands(base: str) -> tuple[dict, dict]:
    """Standings (as the page words them) and balances in cents, replayed here
    from the stored hands and re-entries with the rules engine alone."""
    app = LIVE_APPS[base]
    with app.app_context():
        group = db.session.scalar(select(Group))
        lines: dict[str, dict] = {}
        balances = {m.name: 0 for m in group.members}
        for table in group.tables:
            hands = sorted((h for h in table.hands if h.active), key=lambda h: h.number)
            names = table.names
            events = []
            for hand in hands:
                events.append({"hand": {names[e.seat]: e.points for e in hand.entries}})
                if hand.wins_match:
                    events.append({"chinchon": names[hand.closer_seat]})
                events += [{"reentry": names[r.seat]} for r in table.active_reentries() if r.after_hand == hand.number]
            state = replay_match(names, events, table.rules)
            assert state.finished
            for seat, name in enumerate(names):
                line = lines.setdefault(name, dict(played=0, won=0, total=0, closed=0, minus10=0, chinchon=0, re=0))
                line["played"] += 1
                line["won"] += name in state.winners
                line["total"] += state.totals[name]
                closes = [h for h in hands if h.closer_seat == seat]
                line["closed"] += len(closes)
                line["minus10"] += sum(1 for h in closes if not h.chinchon and h.points_by_seat()[seat] == -10)
                line["chinchon"] += sum(1 for h in closes if h.chinchon)
                line["re"] += state.reentries[name]
            stake = table.rules.stake
            if stake and all(p.kind == "human" for p in table.players):
                pot = sum(stake * (1 + state.reentries[n]) for n in names)
                for name in names:
                    won = pot / len(state.winners) if name in state.winners else 0
                    balances[name] += int((won - stake * (1 + state.reentries[name])) * 100)
    shown = {
        name: {
            "played": str(x["played"]),
            "won": str(x["won"]),
            "share": f"{round(100 * x['won'] / x['played'])}%",
            "average": f"{Decimal(x['total']) / x['played']:.1f}",
            "closed": str(x["closed"]),
            "minus10": str(x["minus10"]),
            "chinchon": str(x["chinchon"]),
            "reentries": str(x["re"]),
        }
        for name, x in lines.items()
    }
    return shown, balances


def page_figures(page: Page, lines: int | None = None) -> dict:
    """Each standings line's figures; with `lines`, first waits until the page
    shows that many (a link just clicked may still be loading on a busy host)."""
    if lines is not None:
        page.wait_for_load_state()
        expect(page.locator(".group-line")).to_have_count(lines)
    result = {}
    for item in page.locator(".group-line").all():
        name = item.get_attribute("data-name")
        result[name] = {dd.get_attribute("data-figure"): dd.inner_text() for dd in item.locator("dd").all()}
    return result


def euros(cents: int) -> str:
    return f"€{cents // 100}.{cents % 100:02d}"


@pytest.mark.play_seed("e2e-19")  # the digital match against the computer, the same deals on every run
def test_a_group_evening(page: Page, live_server: str):
    # The group: four friends, 50 cents a match, short matches to 30.
    page.goto(live_server + "/")
    page.get_by_role("link", name="A group that plays every week").click()
    page.fill("#name", "Friday")
    page.fill("#members", "Ana\nBen\nCarla\nDani")
    page.fill("#target", "30")
    page.fill("#stake", "0.50")
    shot(page, "1-new")
    page.get_by_role("button", name="Create the group").click()
    expect(page.locator(".flash")).to_contain_text("Group created")
    group_url = page.url

    # Match 1, on paper, four players: Carla buys back in after hand 2.
    start_table(page, group_url, ["Ana", "Ben", "Carla", "Dani"])
    shot(page, "2-table")
    for number, (closer, points) in enumerate(MATCH_1, start=1):
        enter_points(page, closer, points)
        if number == 2:
            page.get_by_role("button", name="Carla buys back in").click()
            expect(page.locator(".flash")).to_contain_text("Carla is back in the game")
    expect(page.locator(".winner")).to_contain_text("Carla wins!")
    # Match 2, two players.
    start_table(page, group_url, ["Ana", "Ben"])
    for closer, points in MATCH_2:
        enter_points(page, closer, points)
    expect(page.locator(".winner")).to_contain_text("Ben wins!")
    # Match 3, digital, against the computer.
    play_digital(page, group_url)

    # The standings and the money, against the stored hands.
    expected, balances = expected_from_stored_hands(live_server)
    page.goto(group_url)
    assert page_figures(page, len(expected)) == expected
    assert expected["Carla"]["reentries"] == "1" and expected["Ana"]["minus10"] == "1"
    expect(page.locator(".group-matches li")).to_have_count(3)
    expect(page.locator(".group-matches li").nth(1)).to_contain_text("won by Ben")
    expect(page.locator(".group-matches li").nth(2)).to_contain_text("won by Carla")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "3-standings")
    shot(page, "4-matches", page.locator("#recent-title"))
    shot(page, "5-wins-chart", page.locator("figure.group-chart").first)
    shot(page, "6-hands-chart", page.locator("figure.group-chart").nth(1))

    page.get_by_role("link", name="Settle up").click()
    creditors = [n for n, c in balances.items() if c > 0]
    assert balances == {"Ana": -100, "Ben": 0, "Carla": 150, "Dani": -50} and len(creditors) == 1
    wanted = sorted(f"{n} pays {creditors[0]} {euros(-c)}" for n, c in balances.items() if c < 0)
    expect(page.locator(".group-payment")).to_have_count(len(wanted))  # the page has come (a busy host)
    assert sorted(page.locator(".group-payment").all_inner_texts()) == wanted
    for name, cents in balances.items():
        expect(page.locator(f".group-balances li[data-name='{name}'] strong")).to_have_attribute(
            "data-cents", str(cents)
        )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "7-settle-up")

    # Ana hands Carla her euro; the owner records it.
    page.get_by_role("button", name="Record that Ana paid Carla").click()
    expect(page.locator(".flash")).to_contain_text("Recorded: Ana paid Carla €1.00.")
    expect(page.locator(".group-payment")).to_have_text(["Dani pays Carla €0.50"])
    expect(page.locator(".group-history li")).to_have_count(1)
    expect(page.locator(".group-history li")).to_contain_text("Ana paid Carla €1.00")
    expect(page.locator(".group-history li")).to_contain_text("recorded with the owner link")
    shot(page, "8-paid")

    # A mistaken "Paid" is undone, not typed in reverse; it stays in the history.
    page.get_by_role("button", name="Record that Dani paid Carla").click()
    expect(page.locator(".group-history li")).to_have_count(2)
    page.locator(".group-history li", has_text="Dani paid Carla").get_by_role("button", name="Undo").click()
    expect(page.locator(".flash")).to_contain_text("The payment was undone")
    expect(page.locator(".group-payment")).to_have_text(["Dani pays Carla €0.50"])
    expect(page.locator(".group-history li.undone")).to_contain_text("undone")
    shot(page, "8b-undone")

    # A new season asks first: empty standings, the first one still readable.
    page.goto(group_url)
    page.locator("details.share summary").click()
    page.get_by_label("Yes, close season 1").check()
    page.get_by_role("button", name="Start a new season").click()
    expect(page.locator(".flash")).to_contain_text("Season 2 has started")
    expect(page.locator(".group-line[data-name='Carla'] dd[data-figure='played']")).to_have_text("0")
    shot(page, "9-new-season")
    page.get_by_role("link", name="Season 1").click()
    expect(page).to_have_url(re.compile(r"/seasons/1$"))
    assert page_figures(page, len(expected)) == expected

    # Carla is renamed in the settings: her matches follow her.
    page.goto(group_url + "/settings")
    page.get_by_label("Carla", exact=True).fill("Carlita")
    page.get_by_role("button", name="Save the settings").click()
    expect(page.locator(".flash")).to_contain_text("Group settings saved")
    page.get_by_role("link", name="Season 1").click()
    expect(page).to_have_url(re.compile(r"/seasons/1$"))
    renamed = {("Carlita" if name == "Carla" else name): line for name, line in expected.items()}
    assert page_figures(page, len(renamed)) == renamed
