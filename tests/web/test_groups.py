"""Groups: standings, seasons, money, links and data, each against a hand-computed example."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from datetime import timedelta
from types import SimpleNamespace

import pytest
from sqlalchemy import select

from companion import create_app
from companion.extensions import db
from companion.models import GameTable, Group, Payment, now

from .helpers import create_table, csrf, decide_reentry, enter_points, field, table_count, table_of


def create_group(client, name="Friday", members="Ana\nBen\nCarla\nDani", **extra) -> str:
    """Create a group through its form; returns the owner link's token."""
    data = {
        "csrf_token": csrf(client, "/groups/new"),
        "name": name,
        "members": members,
        "preset": "classic",
        "target": "100",
        "stake": "0.50",
        "currency": "EUR",
    }
    data.update({k: str(v) for k, v in extra.items()})
    response = client.post("/groups/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return response.headers["Location"].rsplit("/", 1)[1]


def links(app, token) -> SimpleNamespace:
    with app.app_context():
        group = db.session.scalar(select(Group).where(Group.owner_token == token))
        return SimpleNamespace(owner=group.owner_token, member=group.member_token, watch=group.watch_token)


def table_in_group(client, group_token, names, **variants) -> str:
    """Start a physical table from the group's prefilled form; returns its owner token."""
    html = client.get(f"/tables/new?group={group_token}").get_data(as_text=True)
    prefilled = {name: field(html, name) for name in ("group", "target", "stake")}
    return create_table(client, names, **(prefilled | variants))


def reentry(client, token, seat):
    html = client.get(f"/t/{token}").get_data(as_text=True)
    response = client.post(
        f"/t/{token}/reentry",
        data={
            "csrf_token": field(html, "csrf_token"),
            "version": re.search(r'name="version" value="(\d+)"', html).group(1),
            "seat": str(seat),
            "submission": hashlib.md5(f"{token}{seat}".encode()).hexdigest(),
        },
    )
    assert response.status_code == 303


#: The hand-computed example every figure is checked against (classic rules, stake 0.50).
#: Match 1 (Ana, Ben, Carla, Dani): Carla buys back in once and wins.
MATCH_1 = [
    (0, {0: -10, 1: 30, 2: 60, 3: 7}),
    (1, {0: 25, 1: 2, 2: 45, 3: 12}),  # Carla 105: out, buys back in at 32
    (3, {0: 70, 1: 70, 2: 20, 3: -10}),  # Ben 102: out, does not buy back in
    (2, {0: 30, 2: 1, 3: 70}),  # Ana 115: out (two left: no re-entry)
    (2, {2: 4, 3: 30}),  # Dani 109: out; Carla wins with 57
]
#: Match 2 (Ana, Ben): Ana closes with 1, then a Chinchón (−10) wins at once.
MATCH_2 = [(0, {0: 1, 1: 60})]


def play_example(client, group_token) -> tuple[str, str]:
    """Both finished matches of the example; returns their owner tokens."""
    first = table_in_group(client, group_token, ["Ana", "Ben", "Carla", "Dani"])
    for number, (closer, points) in enumerate(MATCH_1, start=1):
        enter_points(client, first, closer, points)
        if number == 2:
            reentry(client, first, 2)
        if number == 3:
            decide_reentry(client, first, 1, buy=False)  # Ben says no: the next hand may be played
    second = table_in_group(client, group_token, ["Ana", "Ben"])
    enter_points(client, second, *MATCH_2[0])
    enter_points(client, second, 0, {0: -10, 1: 40}, chinchon=True)
    return first, second


def table_row(app, token) -> SimpleNamespace:
    with app.app_context():
        table = db.session.scalar(select(GameTable).where(GameTable.owner_token == token))
        return SimpleNamespace(id=table.id, group_id=table.group_id, player=table.player_token, watch=table.watch_token)


def figures(html: str) -> dict[str, dict[str, str]]:
    """Standings as shown: name → figure key → text."""
    result = {}
    for name, body in re.findall(r'<li class="group-line" data-name="([^"]+)">(.*?)</li>', html, re.S):
        result[name] = dict(re.findall(r'<dd data-figure="([a-z0-9]+)">([^<]*)</dd>', body))
    return result


def standing_order(html: str) -> list[str]:
    return re.findall(r'<li class="group-line" data-name="([^"]+)">', html)


def payments(html: str) -> list[str]:
    return [re.sub(r"\s+", " ", p).strip() for p in re.findall(r'<span class="group-payment">([^<]*)</span>', html)]


def balances(html: str) -> dict[str, int]:
    return {
        name: int(cents) for name, cents in re.findall(r'<li data-name="([^"]+)">.*?data-cents="(-?\d+)"', html, re.S)
    }


# -- names and creating ------------------------------------------------------------------------------
def test_names_are_normalised_like_table_players():
    from companion.rules.names import name_key, normalize_name

    assert normalize_name("  Jose\u0301\u200b  María\u00a0") == "José María"
    assert normalize_name("Ana\u200d") == "Ana"
    assert name_key("ÁNA") == name_key("a\u0301na")
    assert name_key("Straße") == name_key("STRASSE")


def test_a_group_keeps_its_members_normalised_and_once(client, app):
    token = create_group(client, members="Ana\n ANA \nBen\u200b\n\nCarla")
    with app.app_context():
        group = db.session.scalar(select(Group).where(Group.owner_token == token))
        assert group.names == ["Ana", "Ben", "Carla"]
        assert group.overrides == {"stake": "0.50"} and group.currency == "EUR"
        assert [s.number for s in group.seasons] == [1]


@pytest.mark.parametrize(
    "extra,message",
    [
        ({"members": "Ana"}, "at least two members"),
        ({"members": "Ana\nana"}, "at least two members"),
        ({"name": ""}, "This field is required"),
        ({"stake": "-1"}, "between 0 and"),
        ({"stake": "0.505"}, "two decimals"),
        ({"target": "0"}, "between 1 and"),
        ({"currency": "XXX"}, "Not a valid choice"),
        ({"members": "Ana\n" + "B" * 41}, "40 characters"),
    ],
)
def test_bad_group_forms_say_why_and_store_nothing(client, app, extra, message):
    data = {
        "csrf_token": csrf(client, "/groups/new"),
        "name": "Friday",
        "members": "Ana\nBen",
        "preset": "classic",
        "target": "100",
        "currency": "EUR",
        **extra,
    }
    response = client.post("/groups/new", data=data)
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Group).count() == 0


def test_a_new_table_in_a_group_offers_members_rules_and_stake(client, app):
    token = create_group(client, target=70)
    html = client.get(f"/tables/new?group={token}").get_data(as_text=True)
    assert [field(html, f"players-{i}") for i in range(5)] == ["Ana", "Ben", "Carla", "Dani", ""]
    assert field(html, "target") == "70" and field(html, "stake") == "0.50" and field(html, "group") == token
    assert "This match counts for the group Friday" in html
    table = table_in_group(client, token, ["Ana", "Ben"])
    with app.app_context():
        row = db.session.scalar(select(GameTable).where(GameTable.owner_token == table))
        assert row.group.owner_token == token and row.rules.target == 70 and str(row.rules.stake) == "0.50"
    # the digital game's form too
    html = client.get(f"/play/new?group={token}").get_data(as_text=True)
    assert field(html, "players-1") == "Ben" and field(html, "group") == token


def test_only_member_links_start_matches_in_a_group(client, app):
    token = create_group(client)
    group = links(app, token)
    assert client.get(f"/tables/new?group={group.member}").status_code == 200
    assert client.get(f"/tables/new?group={group.watch}").status_code == 403
    assert client.get("/tables/new?group=nope").status_code == 404
    assert client.get(f"/play/new?group={group.watch}").status_code == 403
    data = {
        "csrf_token": csrf(client),
        "group": group.watch,
        "preset": "classic",
        "first_dealer": "0",
        "jokers": "0",
        "target": "100",
        "suit_style": "spanish",
        "players-0": "Ana",
        "players-1": "Ben",
    }
    assert client.post("/tables/new", data=data).status_code == 403
    assert table_count(app) == 0


# -- the figures, against the hand-computed example ------------------------------------------------------
def test_standings_match_the_hand_computed_example(client, app):
    token = create_group(client)
    play_example(client, token)
    unfinished = table_in_group(client, token, ["Carla", "Dani"])
    enter_points(client, unfinished, 0, {0: 1, 1: 10})
    html = client.get(f"/g/{token}").get_data(as_text=True)
    # Ana: match 1 out with 115, match 2 won with 1 - 10 = -9: average 53.0;
    # she closed 3 hands (-10, 1, the Chinchón), one -10 (the Chinchón is counted apart).
    assert figures(html) == {
        "Carla": {"played": "1", "won": "1", "share": "100%", "average": "57.0", "closed": "2", "minus10": "0", "chinchon": "0", "reentries": "1"},
        "Ana": {"played": "2", "won": "1", "share": "50%", "average": "53.0", "closed": "3", "minus10": "1", "chinchon": "1", "reentries": "0"},
        "Ben": {"played": "2", "won": "0", "share": "0%", "average": "101.0", "closed": "1", "minus10": "0", "chinchon": "0", "reentries": "0"},
        "Dani": {"played": "1", "won": "0", "share": "0%", "average": "109.0", "closed": "1", "minus10": "1", "chinchon": "0", "reentries": "0"},
    }  # fmt: skip
    assert standing_order(html) == ["Carla", "Ana", "Ben", "Dani"]  # wins, then share, then lower average
    recent = re.findall(r'<span class="group-winner">([^<]*)</span>', html)
    assert recent == ["in progress", "won by Ana", "won by Carla"]  # newest first
    assert "pot €1.00" in html and "pot €2.50" in html


def test_figures_follow_the_page_language(client, app):
    token = create_group(client)
    play_example(client, token)
    client.set_cookie("lang", "es")
    html = client.get(f"/g/{token}").get_data(as_text=True)
    ana = figures(html)["Ana"]
    assert (ana["share"], ana["average"]) == ("50\u00a0%", "53,0")
    assert "bote 2,50\u00a0€" in html and "ganó Carla" in html


def test_the_charts_match_the_example_and_have_text(client, app):
    token = create_group(client)
    play_example(client, token)
    html = client.get(f"/g/{token}").get_data(as_text=True)
    # Running wins after match 1 and 2: Carla 1, 1; Ana 0, 1; Ben and Dani 0, 0.
    wins = re.search(r"<summary>The wins as a table</summary>.*?<tbody>(.*?)</tbody>", html, re.S).group(1)
    rows = [re.findall(r"<td>(\d+)</td>", r) for r in re.findall(r"<tr>(.*?)</tr>", wins)]
    assert rows == [["1", "0", "0", "0"], ["1", "1", "0", "0"]]
    assert html.count('stroke-linejoin="round"/>') == 4
    # How hands end: closed / 0-9 / 10-19 / 20+ (Ben: 30, 2 closed, 70 and 60, 40).
    spread = re.search(r'<table class="history group-spread">(.*?)</table>', html, re.S).group(1)
    counts = {
        name: [int(v) for v in re.findall(r'data-bucket="[a-z]+">(\d+)<', row)]
        for name, row in re.findall(r'<th scope="row">([^<]+)</th>(.*?)</tr>', spread, re.S)
    }
    assert counts == {"Carla": [2, 0, 0, 3], "Ana": [3, 0, 0, 3], "Ben": [1, 0, 0, 4], "Dani": [1, 1, 1, 2]}
    assert "<title" in html and 'role="img"' in html and "style=" not in html and "<script>" not in html


def test_settle_up_gives_the_fewest_payments_to_the_cent(client, app):
    token = create_group(client)
    play_example(client, token)
    html = client.get(f"/g/{token}/settle").get_data(as_text=True)
    # Match 1: pot 4 x 0.50 + Carla's re-entry 0.50 = 2.50, Carla paid 1.00: +1.50, the others -0.50.
    # Match 2: pot 1.00, Ana +0.50, Ben -0.50.
    assert balances(html) == {"Ana": 0, "Ben": -100, "Carla": 150, "Dani": -50}
    assert payments(html) == ["Ben pays Carla €1.00", "Dani pays Carla €0.50"]
    client.set_cookie("lang", "es")
    assert "Ben paga a Carla 1,00\u00a0€" in client.get(f"/g/{token}/settle").get_data(as_text=True)


def test_the_owner_records_a_payment_once(client, app):
    token = create_group(client)
    play_example(client, token)
    html = client.get(f"/g/{token}/settle").get_data(as_text=True)
    form = {
        "csrf_token": field(html, "csrf_token"),
        "payer": "ben",
        "payee": "Carla",
        "amount": "1,00",
        "submission": "a1" * 16,
    }
    assert client.post(f"/g/{token}/payments", data=form).status_code == 303
    assert client.post(f"/g/{token}/payments", data=form).status_code == 303  # a retried form: stored once
    html = client.get(f"/g/{token}/settle").get_data(as_text=True)
    assert balances(html) == {"Ana": 0, "Ben": 0, "Carla": 50, "Dani": -50}
    assert payments(html) == ["Dani pays Carla €0.50"]
    with app.app_context():
        assert [(p.payer, p.payee, p.cents) for p in db.session.query(Payment)] == [("Ben", "Carla", 100)]


@pytest.mark.parametrize(
    "change,message",
    [
        ({"payer": "Zoe"}, "Choose who paid"),
        ({"payee": "Ben"}, "somebody other than the payer"),
        ({"amount": "0"}, "above zero"),
        ({"amount": "1.005"}, "two decimals"),
        ({"amount": "lots"}, "above zero"),
        ({"amount": "NaN"}, "above zero"),
        ({"submission": ""}, "incomplete"),
    ],
)
def test_a_bad_payment_says_why_and_stores_nothing(client, app, change, message):
    token = create_group(client)
    html = client.get(f"/g/{token}/settle").get_data(as_text=True)
    form = {
        "csrf_token": field(html, "csrf_token"),
        "payer": "Ben",
        "payee": "Ana",
        "amount": "2",
        "submission": "c" * 32,
    }
    response = client.post(f"/g/{token}/payments", data={**form, **change})
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Payment).count() == 0


def test_split_pots_and_fewest_payments():
    from companion.services.ledger import fewest_payments, split_pot

    assert split_pot(100, ["Ana", "Ben", "Carla"]) == {"Ana": 34, "Ben": 33, "Carla": 33}
    assert split_pot(250, ["Ana", "Ben"]) == {"Ana": 125, "Ben": 125}
    # Two independent pairs need two payments, not three (greedy on the totals would chain them).
    assert fewest_payments({"A": 300, "B": -300, "C": 500, "D": -200, "E": -300}) == [
        ("B", "A", 300),
        ("D", "C", 200),
        ("E", "C", 300),
    ]
    assert fewest_payments({"A": 0, "B": 0}) == []


def test_fewest_payments_is_minimal_against_brute_force():
    import itertools
    import random

    from companion.services.ledger import fewest_payments

    def brute(values):
        """n minus the most zero-sum parts of a partition, by trying every partition."""
        best = 0

        def parts(items, count):
            nonlocal best
            if not items:
                best = max(best, count)
                return
            first, rest = items[0], items[1:]
            for r in range(len(rest) + 1):
                for combo in itertools.combinations(rest, r):
                    if values[first] + sum(values[i] for i in combo) == 0:
                        parts([i for i in rest if i not in combo], count + 1)

        parts(list(range(len(values))), 0)
        return len(values) - best

    rng = random.Random(15)
    for _ in range(60):
        n = rng.randint(2, 7)
        values = [rng.choice([-300, -200, -100, -50, 50, 100, 200, 300]) for _ in range(n - 1)]
        values.append(-sum(values))
        if values[-1] == 0 or values.count(0):
            continue
        balances = {f"P{i}": v for i, v in enumerate(values)}
        result = fewest_payments(balances)
        left = dict(balances)
        for payer, payee, cents in result:
            assert cents > 0
            left[payer] += cents
            left[payee] -= cents
        assert not any(left.values())
        assert len(result) == brute(values)


# -- seasons, play again, adding and deleting tables -----------------------------------------------------
def test_a_new_season_starts_empty_and_the_old_one_stays_readable(client, app):
    token = create_group(client)
    play_example(client, token)
    html = client.get(f"/g/{token}").get_data(as_text=True)
    response = client.post(f"/g/{token}/seasons", data={"csrf_token": field(html, "csrf_token")})
    assert response.status_code == 303
    html = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Season 2" in html and set(figures(html)["Ana"].values()) <= {"0", "–"}
    old = client.get(f"/g/{token}/seasons/1").get_data(as_text=True)
    assert figures(old)["Carla"]["won"] == "1" and "An earlier season" in old
    assert client.get(f"/g/{token}/seasons/3").status_code == 404
    table_in_group(client, token, ["Ana", "Ben"])
    html = client.get(f"/g/{token}").get_data(as_text=True)
    assert re.findall(r'<span class="group-winner">([^<]*)</span>', html) == ["in progress"]
    # Money outlives the season.
    assert balances(client.get(f"/g/{token}/settle").get_data(as_text=True))["Carla"] == 150


def test_play_again_uses_last_times_players_and_rules(client, app):
    token = create_group(client)
    first, second = play_example(client, token)
    html = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Last time: Ana, Ben" in html
    response = client.post(f"/g/{token}/again", data={"csrf_token": field(html, "csrf_token")})
    assert response.status_code == 303
    new = response.headers["Location"].rsplit("/", 1)[1]
    again = table_of(app, new)
    assert again.names == ["Ana", "Ben"] and again.overrides == table_of(app, second).overrides
    assert table_row(app, new).group_id == table_row(app, first).group_id


def test_play_again_with_a_digital_match(client, app):
    token = create_group(client)
    html = client.get(f"/play/new?group={token}").get_data(as_text=True)
    data = {
        "csrf_token": field(html, "csrf_token"),
        "group": token,
        "preset": "classic",
        "first_dealer": "0",
        "jokers": "0",
        "target": "100",
        "suit_style": "spanish",
        "mode": "hotseat",
        "players-0": "Ana",
        "kinds-0": "human",
        "players-1": "Robo",
        "kinds-1": "good",
    }
    response = client.post("/play/new", data=data)
    assert response.status_code == 302
    html = client.get(f"/g/{token}").get_data(as_text=True)
    response = client.post(f"/g/{token}/again", data={"csrf_token": field(html, "csrf_token")})
    assert response.status_code == 303 and response.headers["Location"].endswith("/play")
    with app.app_context():
        tables = db.session.scalars(select(GameTable).order_by(GameTable.id)).all()
        assert [t.kind for t in tables] == ["digital", "digital"]
        assert [p.kind for p in tables[1].players] == ["human", "good"]
        assert {t.group_id for t in tables} == {tables[0].group_id} != {None}


def test_an_existing_table_joins_with_its_owner_link_only(client, app):
    token = create_group(client)
    other = create_group(client, name="Sunday")
    table = create_table(client, ["Ana", "Ben"], stake="1")
    row = table_row(app, table)
    html = client.get(f"/g/{token}").get_data(as_text=True)
    post = {"csrf_token": field(html, "csrf_token")}
    client.post(f"/g/{token}/tables", data={**post, "link": f"http://x/t/{row.player}"})
    assert table_row(app, table).group_id is None
    response = client.post(
        f"/g/{token}/tables",
        data={**post, "link": f" https://example.org/t/{table}/settings?x=1 "},
        follow_redirects=True,
    )
    assert "now counts for this group" in response.get_data(as_text=True)
    group_id = table_row(app, table).group_id
    assert group_id is not None
    response = client.post(f"/g/{other}/tables", data={**post, "link": table}, follow_redirects=True)
    assert "one group only" in response.get_data(as_text=True)
    assert table_row(app, table).group_id == group_id


def test_deleting_a_table_says_so_and_drops_it_from_the_figures(client, app):
    token = create_group(client)
    first, _second = play_example(client, token)
    settings = client.get(f"/t/{first}/settings").get_data(as_text=True)
    assert "counts for the group Friday: deleting the table removes it from the group's standings" in settings
    client.post(f"/t/{first}/delete", data={"csrf_token": field(settings, "csrf_token"), "confirm": "delete"})
    html = client.get(f"/g/{token}").get_data(as_text=True)
    assert figures(html)["Carla"]["played"] == "0" and figures(html)["Ana"]["played"] == "1"
    assert balances(client.get(f"/g/{token}/settle").get_data(as_text=True)) == {
        "Ana": 50,
        "Ben": -50,
        "Carla": 0,
        "Dani": 0,
    }


def test_the_owner_changes_the_settings(client, app):
    token = create_group(client)
    html = client.get(f"/g/{token}/settings").get_data(as_text=True)
    assert "Ana\nBen\nCarla\nDani" in html and field(html, "stake") == "0.50"
    data = {
        "csrf_token": field(html, "csrf_token"),
        "name": "Viernes",
        "members": "Ana\nBen\nEva",
        "preset": "fournier",
        "target": "70",
        "stake": "",
        "currency": "SEK",
    }
    assert client.post(f"/g/{token}/settings", data=data).status_code == 303
    with app.app_context():
        group = db.session.scalar(select(Group).where(Group.owner_token == token))
        assert (group.name, group.names, group.preset, group.overrides, group.currency) == (
            "Viernes",
            ["Ana", "Ben", "Eva"],
            "fournier",
            {"target": 70},
            "SEK",
        )
    assert client.post(f"/g/{token}/settings", data={**data, "members": "Ana"}).status_code == 400


# -- links and roles ----------------------------------------------------------------------------------------
# Every group route × every link × GET and POST is walked by tests/web/test_access.py.


def test_a_link_never_shows_a_stronger_one(client, app):
    token = create_group(client)
    first, second = play_example(client, token)
    group = links(app, token)
    tables = [table_row(app, first), table_row(app, second)]
    for role, stronger in [
        ("watch", [group.member, group.owner, *(t.player for t in tables)]),
        ("member", [group.owner]),
    ]:
        link = getattr(group, role)
        pages = [client.get(f"/g/{link}{suffix}").get_data(as_text=True) for suffix in ("", "/settle", "/seasons/1")]
        for html in pages:
            for secret in [*stronger, first, second]:
                assert secret not in html, (role, secret)
    watch_page = client.get(f"/g/{group.watch}").get_data(as_text=True)
    assert all(t.watch in watch_page for t in tables)
    assert "Play again" not in watch_page and "Record the payment" not in watch_page
    member_settle = client.get(f"/g/{group.member}/settle").get_data(as_text=True)
    assert "Record the payment" not in member_settle and "Ben pays Carla" in member_settle


# -- data ------------------------------------------------------------------------------------------------------
def test_season_csv(client, app):
    token = create_group(client)
    play_example(client, token)
    response = client.get(f"/g/{token}/matches.csv?season=1")
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0] == ["Date", "Season", "Table", "Players", "Final totals", "Winners", "Pot"]
    assert [r[3:] for r in rows[1:]] == [
        ["Ana; Ben; Carla; Dani", "Ana 115; Ben 102; Carla 57; Dani 109", "Carla", "2.50"],
        ["Ana; Ben", "Ana -9; Ben 100", "Ana", "1.00"],
    ]


def test_group_export_and_import_are_lossless(client, app, tmp_path):
    token = create_group(client)
    play_example(client, token)
    table_in_group(client, token, ["Ana", "Ben"])
    html = client.get(f"/g/{token}/settle").get_data(as_text=True)
    form = {
        "csrf_token": field(html, "csrf_token"),
        "payer": "Ben",
        "payee": "Carla",
        "amount": "1",
        "submission": "d" * 32,
    }
    client.post(f"/g/{token}/payments", data=form)
    client.post(f"/g/{token}/seasons", data={"csrf_token": field(html, "csrf_token")})
    create_table(client, ["Eva", "Fer"])  # not in the group
    web = client.get(f"/g/{token}/export.json")
    assert web.status_code == 200 and len(web.get_json()["tables"]) == 3
    exported = app.test_cli_runner().invoke(args=["export"])
    data = json.loads(exported.output)
    assert len(data["tables"]) == 4 and len(data["groups"]) == 1
    dump = tmp_path / "dump.json"
    dump.write_text(exported.output)
    other = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'o.sqlite'}"})
    with other.app_context():
        db.create_all()
    result = other.test_cli_runner().invoke(args=["import", str(dump)])
    assert "imported 4 table(s)" in result.output and "imported 1 group(s)" in result.output
    again = other.test_cli_runner().invoke(args=["import", str(dump)])
    assert "skipped 1 already present" in again.output.splitlines()[1]
    assert json.loads(other.test_cli_runner().invoke(args=["export"]).output) == data
    other_client = other.test_client()
    other_client.set_cookie("lang", "en")
    before = client.get(f"/g/{token}/seasons/1").get_data(as_text=True)
    after = other_client.get(f"/g/{token}/seasons/1").get_data(as_text=True)
    assert figures(after) == figures(before) and figures(after)["Carla"]["won"] == "1"
    assert "Season 2" in other_client.get(f"/g/{token}").get_data(as_text=True)
    assert balances(other_client.get(f"/g/{token}/settle").get_data(as_text=True)) == balances(
        client.get(f"/g/{token}/settle").get_data(as_text=True)
    )
    with other.app_context():
        db.engine.dispose()


def test_purge_leaves_groups_with_recent_activity_alone(client, app):
    active = create_group(client)
    idle = create_group(client, name="Old")
    old_in_active = table_in_group(client, active, ["Ana", "Ben"])
    recent_in_active = table_in_group(client, active, ["Ana", "Ben"])
    old_in_idle = table_in_group(client, idle, ["Ana", "Ben"])
    loose = create_table(client, ["Eva", "Fer"])
    past = now() - timedelta(days=40)
    with app.app_context():
        for t in db.session.scalars(
            select(GameTable).where(GameTable.owner_token.in_([old_in_active, old_in_idle, loose]))
        ):
            t.updated_at = past
        for g in db.session.scalars(select(Group)):
            g.updated_at = past
        db.session.commit()
    runner = app.test_cli_runner()
    output = runner.invoke(args=["purge", "--days", "30"]).output
    assert "removed 2 table(s)" in output and "removed 1 idle group(s)" in output
    with app.app_context():
        left = set(db.session.scalars(select(GameTable.owner_token)))
        assert left == {old_in_active, recent_in_active}
        assert [g.owner_token for g in db.session.scalars(select(Group))] == [active]


def test_the_migration_matches_the_models(app, tmp_path):
    """The migrations upgrade, downgrade and upgrade again, ending exactly at the models
    (SQLite here; PostgreSQL when TEST_DATABASE_URL points at it)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from flask_migrate import downgrade, upgrade
    from sqlalchemy import inspect, text

    with app.app_context():
        db.drop_all()
        with db.engine.begin() as connection:
            connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
        upgrade()
        with db.engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []
        downgrade(revision="0002")
        assert "groups" not in inspect(db.engine).get_table_names()
        assert "group_id" not in {c["name"] for c in inspect(db.engine).get_columns("game_tables")}
        upgrade()
        assert {"groups", "group_members", "seasons", "payments"} <= set(inspect(db.engine).get_table_names())
        with db.engine.begin() as connection:
            connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
