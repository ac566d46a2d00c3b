"""A group's statistics and ratings, each against figures computed here by
hand or straight with openskill, from the group example of ``test_groups``
(two finished matches, one still going) and from short made-up seasons."""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime, timedelta

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select

from companion.extensions import db
from companion.models import GameTable, PlayerKind, now

from .helpers import create_table, enter_points
from .test_groups import create_group, play_example, table_in_group


def ordinals(*matches: dict[str, int]) -> dict[str, float]:
    """openskill by hand: each match's places, in order; every player's μ − 3σ after the last."""
    model = PlackettLuce()
    ratings: dict[str, object] = {}
    for places in matches:
        names = list(places)
        teams = [[ratings.get(n) or model.rating(name=n)] for n in names]
        for name, (after,) in zip(names, model.rate(teams, ranks=[places[n] for n in names]), strict=True):
            ratings[name] = after
    return {n: r.ordinal() for n, r in ratings.items()}


def shown_ratings(html: str) -> dict[str, float]:
    return {
        name: float(value)
        for name, value in re.findall(
            r'<li data-name="([^"]+)">\s*<span class="rating-name">.*?data-rating="([-\d.]+)"', html, re.S
        )
    }


def shown_order(html: str) -> list[str]:
    return re.findall(r'<li data-name="([^"]+)">\s*<span class="rating-name">', html)


def figures(html: str) -> dict[str, dict[str, str]]:
    result = {}
    for name, body in re.findall(
        r'<li class="group-line" data-name="([^"]+)">(.*?)</li>\s*(?=<li class="group-line"|</ol>)', html, re.S
    ):
        result[name] = dict(re.findall(r'<dd data-figure="([a-z0-9_]+)">([^<]*)</dd>', body))
    return result


def facts(html: str) -> dict[str, str]:
    found = re.findall(r'<dd data-fact="([a-z]+)">(.*?)</dd>', html, re.S)
    return {k: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", v)).strip() for k, v in found}


def finish(client, group, names, order, **variants) -> str:
    """A match of ``names`` finished in one hand in the finishing ``order`` (its first wins by closing)."""
    token = table_in_group(client, group, names, **({"target": 50} | variants))
    points = {names.index(order[0]): 1} | {names.index(n): 51 + i for i, n in enumerate(order[1:])}
    enter_points(client, token, names.index(order[0]), points)
    return token


def set_time(app, token, when: datetime) -> None:
    with app.app_context():
        table = db.session.scalar(select(GameTable).where(GameTable.owner_token == token))
        table.created_at = when
        db.session.commit()


def csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))


# -- ratings ----------------------------------------------------------------------------------------
def test_ratings_follow_openskill_on_the_hand_made_season(client, app):
    """Match 1: Carla won; then Dani (out last, hand 5), Ana (hand 4), Ben (hand 3).
    Carla went out in hand 2 but bought back in: she ranks by her win.  Match
    2: Ana beat Ben.  The match still being played does not count."""
    token = create_group(client)
    play_example(client, token)
    going = table_in_group(client, token, ["Carla", "Dani"])
    enter_points(client, going, 0, {0: 1, 1: 10})
    html = client.get(f"/g/{token}/ratings").get_data(as_text=True)
    expected = ordinals({"Ana": 3, "Ben": 4, "Carla": 1, "Dani": 2}, {"Ana": 1, "Ben": 2})
    assert shown_ratings(html) == pytest.approx({n: round(v, 2) for n, v in expected.items()}, abs=0.006)
    assert shown_order(html) == sorted(expected, key=lambda n: -expected[n])
    assert "2 matches · provisional" in html


def test_a_match_with_a_computer_player_is_not_rated_but_counts_in_the_figures(client, app):
    token = create_group(client)
    finish(client, token, ["Ana", "Ben"], ["Ana", "Ben"])
    with_robot = finish(client, token, ["Ana", "Ben", "Robo"], ["Robo", "Ben", "Ana"])
    with app.app_context():
        table = db.session.scalar(select(GameTable).where(GameTable.owner_token == with_robot))
        table.players[2].kind = PlayerKind.GOOD
        db.session.commit()
    html = client.get(f"/g/{token}/ratings").get_data(as_text=True)
    assert shown_ratings(html) == pytest.approx(
        {n: round(v, 2) for n, v in ordinals({"Ana": 1, "Ben": 2}).items()}, abs=0.006
    )
    stats = figures(client.get(f"/g/{token}/stats").get_data(as_text=True))
    assert stats["Ana"]["matches"] == "2" and stats["Ben"]["matches"] == "2"


def test_a_player_who_left_the_match_counts_last(client, app):
    """Ana won; Ben would have been second, but the computer was playing his
    seat when the match ended (he left): Carla second, Ben last."""
    token = create_group(client)
    left = finish(client, token, ["Ana", "Ben", "Carla"], ["Ana", "Ben", "Carla"])
    with app.app_context():
        table = db.session.scalar(select(GameTable).where(GameTable.owner_token == left))
        table.players[1].stand_in_since = now()
        db.session.commit()
    html = client.get(f"/g/{token}/ratings").get_data(as_text=True)
    expected = ordinals({"Ana": 1, "Ben": 3, "Carla": 2})
    assert shown_ratings(html) == pytest.approx({n: round(v, 2) for n, v in expected.items()}, abs=0.006)
    assert shown_order(html) == ["Ana", "Carla", "Ben"]


def test_a_shared_place_is_shared_in_the_rating(client, app):
    """Ben and Carla both went out with 51 in the same hand: they share second place."""
    token = create_group(client)
    tied = table_in_group(client, token, ["Ana", "Ben", "Carla"], target=50)
    enter_points(client, tied, 0, {0: 1, 1: 51, 2: 51})
    html = client.get(f"/g/{token}/ratings").get_data(as_text=True)
    got = shown_ratings(html)
    assert got["Ben"] == got["Carla"] < got["Ana"]
    assert got == pytest.approx(
        {n: round(v, 2) for n, v in ordinals({"Ana": 1, "Ben": 2, "Carla": 2}).items()}, abs=0.006
    )


def test_a_deleted_or_corrected_match_changes_the_ratings_at_once(client, app):
    token = create_group(client)
    finish(client, token, ["Ana", "Ben"], ["Ana", "Ben"])
    second = finish(client, token, ["Ana", "Ben"], ["Ana", "Ben"])
    before = shown_ratings(client.get(f"/g/{token}/ratings").get_data(as_text=True))
    enter_points(client, second, 1, {0: 51, 1: 1}, number=1)  # corrected: Ben closed, Ana went out
    after = shown_ratings(client.get(f"/g/{token}/ratings").get_data(as_text=True))
    assert after != before
    assert after == pytest.approx(
        {n: round(v, 2) for n, v in ordinals({"Ana": 1, "Ben": 2}, {"Ana": 2, "Ben": 1}).items()}, abs=0.006
    )


def test_the_chances_of_winning_sum_to_one_and_favour_the_better_player(client, app):
    token = create_group(client)
    for _ in range(3):
        finish(client, token, ["Ana", "Ben"], ["Ana", "Ben"])
    html = client.get(f"/g/{token}/ratings?p=Ana&p=Ben&p=Carla&p=Nobody").get_data(as_text=True)
    shares = {
        n: float(s)
        for n, s in re.findall(
            r'<li data-name="([^"]+)"><span class="chance-name">.*?data-share="([\d.]+)"', html, re.S
        )
    }
    assert set(shares) == {"Ana", "Ben", "Carla"}  # a name nobody has is left out
    assert sum(shares.values()) == pytest.approx(1, abs=0.001)
    assert shares["Ana"] > shares["Carla"] > shares["Ben"]  # Carla, a newcomer, starts in the middle
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert re.search(r'class="hint group-chances">.*Ana \d+%.*Ben \d+%', page)
    alone = client.get(f"/g/{token}/ratings?p=Ana").get_data(as_text=True)
    assert "Pick two players or more." in alone and "chance-share" not in alone


def test_before_any_rated_match_the_pages_say_so(client, app):
    token = create_group(client)
    html = client.get(f"/g/{token}/ratings").get_data(as_text=True)
    assert "No rated match yet" in html
    assert "No finished match in this period yet." in client.get(f"/g/{token}/stats").get_data(as_text=True)


# -- statistics ---------------------------------------------------------------------------------------
def test_statistics_match_the_hand_computed_example(client, app):
    """Ana: 6 hands (−10, 25, 70, 30; 1, −10) = 106 points, 17.7 a hand, closed
    3 of them (50%).  Carla: 5 hands, 130 points (26.0), closed 2.  Ben: 5 hands,
    202 points (40.4).  Dani: 5 hands, 109 points (21.8)."""
    token = create_group(client)
    play_example(client, token)
    html = client.get(f"/g/{token}/stats").get_data(as_text=True)
    got = figures(html)
    assert {n: (f["matches"], f["wins"], f["hands"], f["closes"], f["close_share"], f["per_hand"]) for n, f in got.items()} == {
        "Carla": ("1", "1", "5", "2", "40%", "26.0"),
        "Ana": ("2", "1", "6", "3", "50%", "17.7"),
        "Dani": ("1", "0", "5", "1", "20%", "21.8"),
        "Ben": ("2", "0", "5", "1", "20%", "40.4"),
    }  # fmt: skip
    assert got["Ana"]["minus10"] == "1" and got["Ana"]["chinchon"] == "1" and got["Carla"]["reentries"] == "1"
    # Carla won match 1 after being 70 behind Ana after hand 1 (60 against −10).
    day = re.search(r'data-fact="comeback">.*?<a href="(/t/[^"]+)">([^<]+)</a>', html, re.S)
    assert day.group(1).startswith("/t/") and "2026" in day.group(2)
    assert facts(html) == {
        "matches": "2",
        "closes": "Ana (3)",
        "comeback": f"Carla was 70 points behind the leader after hand 1, and won · {day.group(2)}",
    }  # no streak: nobody won two in a row
    ana = re.search(r'data-name="Ana">.*?</details>', html, re.S).group(0)
    assert re.findall(
        r'<tr data-against="([^"]+)"><th scope="row">[^<]*</th><td data-h2h="ahead">(\d+)</td><td data-h2h="behind">(\d+)</td>',
        ana,
    ) == [
        ("Ben", "2", "0"),
        ("Carla", "0", "1"),
        ("Dani", "0", "1"),
    ]


def test_evenings_streaks_and_periods(client, app):
    """Two evenings a week apart, the second across midnight; Ana wins three
    in a row.  A year before, one match: only in its year and in all time."""
    token = create_group(client)
    friday = datetime(2026, 11, 20, 21, 0)
    plan = [
        (friday, ["Ben", "Ana"]),
        (friday + timedelta(hours=1), ["Ana", "Ben"]),
        (friday + timedelta(days=7), ["Ana", "Ben"]),
        (friday + timedelta(days=7, hours=3, minutes=30), ["Ana", "Ben"]),  # 00:30: still that evening
        (datetime(2025, 6, 1, 20, 0), ["Ben", "Ana"]),
    ]
    for when, order in plan:
        set_time(app, finish(client, token, ["Ana", "Ben"], order), when)
    html = client.get(f"/g/{token}/stats?period=year-2026").get_data(as_text=True)
    assert figures(html)["Ana"]["matches"] == "4" and figures(html)["Ana"]["wins"] == "3"
    assert "Ana: 3 matches in a row" in facts(html)["streak"]
    best = re.search(
        r'data-name="Ana">.*?data-evening="best"><strong>Best evening:</strong> ([^<]*)</p>', html, re.S
    ).group(1)
    worst = re.search(
        r'data-name="Ana">.*?data-evening="worst"><strong>Worst evening:</strong> ([^<]*)</p>', html, re.S
    ).group(1)
    assert best.startswith("Nov 27, 2026: won 2 of 2") and worst.startswith("Nov 20, 2026: won 1 of 2")
    everything = figures(client.get(f"/g/{token}/stats?period=all").get_data(as_text=True))
    assert everything["Ana"]["matches"] == "5" and everything["Ben"]["wins"] == "2"
    earlier = figures(client.get(f"/g/{token}/stats?period=year-2025").get_data(as_text=True))
    assert earlier["Ben"]["wins"] == "1" and earlier["Ana"]["matches"] == "1"
    assert client.get(f"/g/{token}/stats?period=year-1999").status_code == 404
    assert client.get(f"/g/{token}/stats?period=season-9").status_code == 404
    assert client.get(f"/g/{token}/stats?period=<script>").status_code == 404


def test_the_spreadsheets_hold_every_figure(client, app):
    token = create_group(client)
    play_example(client, token)
    players = csv_rows(client.get(f"/g/{token}/stats.csv?period=all"))
    assert players[0][:7] == ["Player", "Member", "Matches", "Won", "Hands", "Hands closed", "Points a hand"]
    by_name = {row[0]: row for row in players[1:]}
    assert by_name["Ana"][2:7] == ["2", "1", "6", "3", "17.7"]
    ratings = {row[0]: float(row[12]) for row in players[1:]}
    expected = ordinals({"Ana": 3, "Ben": 4, "Carla": 1, "Dani": 2}, {"Ana": 1, "Ben": 2})
    assert ratings == pytest.approx(expected, abs=0.006)
    h2h = csv_rows(client.get(f"/g/{token}/head-to-head.csv?period=all"))
    assert ["Ana", "Ben", "2", "0", "0"] in h2h and ["Ben", "Ana", "0", "2", "0"] in h2h
    history = csv_rows(client.get(f"/g/{token}/ratings.csv"))
    assert history[0] == ["Date", "Player", "Rating", "Rating change"]
    assert [row[1] for row in history[1:]] == ["Ana", "Ben", "Carla", "Dani", "Ana", "Ben"]
    client.set_cookie("lang", "es")
    spanish = client.get(f"/g/{token}/stats.csv?period=all").get_data(as_text=True)
    assert ";17,7;" in spanish


def test_the_pages_speak_the_language_of_the_phone(client, app):
    token = create_group(client)
    play_example(client, token)
    client.set_cookie("lang", "es_AR")
    stats = client.get(f"/g/{token}/stats").get_data(as_text=True)
    assert "<h1>Estadísticas</h1>" in stats and figures(stats)["Ana"]["per_hand"] == "17,7"
    assert "Carla estaba 70 puntos atrás del primero después de la mano 1, y ganó" in stats
    ratings = client.get(f"/g/{token}/ratings").get_data(as_text=True)
    assert "<h1>Ranking</h1>" in ratings and "Elegí" not in ratings
    ben = round(ordinals({"Ana": 3, "Ben": 4, "Carla": 1, "Dani": 2}, {"Ana": 1, "Ben": 2})["Ben"], 1)
    assert ben < 0 and f"\u2212{abs(ben):.1f}".replace(".", ",") in ratings  # the minus of print, a decimal comma
    assert "2 partidas · provisorio" in ratings
    assert "Elegí dos jugadores o más." in client.get(f"/g/{token}/ratings?p=Ana").get_data(as_text=True)


def test_a_new_table_of_the_group_shows_the_chances_until_its_first_hand(client, app):
    token = create_group(client)
    for _ in range(2):
        finish(client, token, ["Ana", "Ben"], ["Ana", "Ben"])
    table = table_in_group(client, token, ["Ben", "Ana", "Carla"], target=50)
    html = client.get(f"/t/{table}").get_data(as_text=True)
    line = re.search(r'<p class="hint group-chances">(.*?)</p>', html, re.S).group(1)
    shown = dict(re.findall(r'<span data-name="([^"]+)">[^<]*? (\d+)%</span>', line))
    assert list(shown) == ["Ben", "Ana", "Carla"]  # in seat order
    assert int(shown["Ana"]) > int(shown["Carla"]) > int(shown["Ben"])
    assert abs(sum(map(int, shown.values())) - 100) <= 2
    assert "/g/" not in line  # a table's link never leads to the group's pages
    enter_points(client, table, 0, {0: 1, 1: 10, 2: 12})
    assert "group-chances" not in client.get(f"/t/{table}").get_data(as_text=True)
    outside = create_table(client, ["Ana", "Ben"])  # in no group: nothing to rate by
    assert "group-chances" not in client.get(f"/t/{outside}").get_data(as_text=True)


# -- a club's tournament -------------------------------------------------------------------------
def test_a_tournaments_ratings_come_from_its_tables_places_and_its_next_seating_shows_the_chances(client, app):
    """Eight players, a knockout: at each table of round 1 seat 1 wins and the
    others go out seat 2 first (places 1, 4, 3, 2 by seat).  The standings page
    rates them from those places; the final's seating gives each finalist's chance."""
    from .test_tournaments import confirm_at, create, post, table_links, win_at

    token = create(client)
    assert post(client, token, "/rounds").status_code == 303
    seatings = []
    for link in table_links(client, token):
        with app.app_context():
            seatings.append(db.session.scalar(select(GameTable).where(GameTable.player_token == link)).names)
        win_at(client, link)
        assert confirm_at(client, link).status_code == 303
    expected = ordinals(*({names[0]: 1, names[3]: 2, names[2]: 3, names[1]: 4} for names in seatings))
    html = client.get(f"/c/{token}/standings").get_data(as_text=True)
    assert shown_ratings(html) == pytest.approx({n: round(v, 2) for n, v in expected.items()}, abs=0.006)
    seating = client.get(f"/c/{token}/seating").get_data(as_text=True)
    line = re.search(r'<span class="hint group-chances" data-table="1">(.*?)</span>\s*</li>', seating, re.S).group(1)
    shown = dict(re.findall(r'<span data-name="([^"]+)">[^<]*? (\d+)%</span>', line))
    assert set(shown) == {seatings[0][0], seatings[1][0]}
    assert sum(map(int, shown.values())) == 100
