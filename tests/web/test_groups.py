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

from .helpers import (
    create_table,
    csrf,
    decide_reentry,
    enter_points,
    field,
    forget_migrations,
    migrated_to,
    table_count,
    table_of,
)


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


def season_form(html: str) -> dict[str, str]:
    """The owner's "Start a new season" form, its box ticked."""
    return {"csrf_token": field(html, "csrf_token"), "season": field(html, "season"), "confirm": "season"}


def group_of(app, token) -> SimpleNamespace:
    with app.app_context():
        group = db.session.scalar(select(Group).where(Group.owner_token == token))
        return SimpleNamespace(
            id=group.id,
            names=group.names,
            members=[(m.id, m.name, list(m.aliases)) for m in group.members],
            seasons=[s.number for s in group.seasons],
            tables=[t.owner_token for t in group.tables],
        )


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


def test_a_group_keeps_its_members_normalised(client, app):
    token = create_group(client, members="Ana\n Ben\u200b \n\nCarla,  Dani ,")
    with app.app_context():
        group = db.session.scalar(select(Group).where(Group.owner_token == token))
        assert group.names == ["Ana", "Ben", "Carla", "Dani"]
        assert group.overrides == {"stake": "0.50"} and group.currency == "EUR"
        assert [s.number for s in group.seasons] == [1]


@pytest.mark.parametrize(
    "extra,message",
    [
        ({"members": "Ana"}, "at least two members"),
        ({"members": "Ana\nana"}, "Two members are called Ana;"),
        ({"members": "Ana, ana"}, "Two members are called Ana;"),
        ({"members": "Ana,\n\n"}, "at least two members"),
        ({"name": ""}, "This field is required"),
        ({"stake": "-1"}, "Type an amount from 0 to 1,000,000."),
        ({"stake": "0.505"}, "two decimals"),
        ({"target": "0"}, "Type a whole number from 1 to 10,000."),
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


# The ledger's pure parts (cents, split pots, fewest payments) are tested in tests/services/test_ledger.py.


# -- seasons, play again, adding and deleting tables -----------------------------------------------------
def test_a_new_season_starts_empty_and_the_old_one_stays_readable(client, app):
    token = create_group(client)
    play_example(client, token)
    html = client.get(f"/g/{token}").get_data(as_text=True)
    response = client.post(f"/g/{token}/seasons", data=season_form(html))
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
    assert [field(html, f"current-{i}-name") for i in range(4)] == ["Ana", "Ben", "Carla", "Dani"]
    assert field(html, "stake") == "0.50"
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


# -- names: exactly as a table's players ----------------------------------------------------------------
def test_a_group_refuses_the_same_name_twice_in_the_words_of_a_table(client, app):
    data = {
        "csrf_token": csrf(client, "/groups/new"),
        "name": "Friday",
        "members": "Ana, ana\nBen",
        "preset": "classic",
        "target": "100",
        "currency": "EUR",
    }
    group_page = client.post("/groups/new", data=data)
    table_page = client.post(
        "/tables/new",
        data={
            "csrf_token": csrf(client),
            "preset": "classic",
            "first_dealer": "0",
            "jokers": "0",
            "target": "100",
            "suit_style": "spanish",
            "players-0": "Ana",
            "players-1": "ana",
        },
    )
    assert group_page.status_code == table_page.status_code == 400
    # The same rule, each form in its own words: a group has members, a table players.
    assert "Two members are called Ana; give each a different name." in group_page.get_data(as_text=True)
    assert "Two players are called Ana; give each a different name." in table_page.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Group).count() == 0


FAMILY = "\U0001f469\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # one grapheme: a ZWJ sequence


def test_a_name_is_never_cut_inside_a_grapheme_cluster():
    from companion.groups.forms import split_names

    assert split_names(f"{FAMILY}, Ben\r\nCarla，Dani、Eva") == [split_names(FAMILY)[0], "Ben", "Carla", "Dani", "Eva"]
    assert len(split_names(FAMILY)) == 1
    # A comma carrying a combining mark is part of the name, not a break.
    assert split_names("Ana,\u0301b, Ben") == ["Ana,\u0301b", "Ben"]
    assert split_names("\U0001f44d\U0001f3fd, Ben") == ["\U0001f44d\U0001f3fd", "Ben"]  # a skin tone stays on its hand


def test_an_emoji_family_is_one_member_named_as_a_table_names_it(client, app):
    token = create_group(client, members=f"{FAMILY}, Ben")
    table = create_table(client, [FAMILY, "Ben"])
    assert group_of(app, token).names == table_of(app, table).names
    assert len(group_of(app, token).names) == 2


# -- money in the group's currency ----------------------------------------------------------------------
#: A currency code touching a number ("debe EUR9,72"), outside any link.
GLUED = re.compile(r"(?<![\w/-])(?:EUR|USD|GBP|SEK|CHF|ARS|MXN|UYU)\d|\d(?:EUR|USD|GBP|SEK|CHF|ARS|MXN|UYU)(?![\w-])")


@pytest.mark.parametrize(
    "lang,pot,stake",
    [
        ("en", "€40.00", "€10.00"),
        ("es", "40,00\u00a0€", "10,00\u00a0€"),
        ("es_AR", "EUR\u00a040,00", "EUR\u00a010,00"),
        ("de", "40,00\u00a0€", "10,00\u00a0€"),
        ("it", "40,00\u00a0€", "10,00\u00a0€"),
        ("sv", "40,00\u00a0€", "10,00\u00a0€"),
    ],
)
def test_a_group_tables_pot_and_stake_are_in_the_groups_currency_in_every_language(client, app, lang, pot, stake):
    token = create_group(client, stake="10")
    table = table_in_group(client, token, ["Ana", "Ben", "Carla", "Dani"])
    enter_points(client, table, 0, {0: 1, 1: 70, 2: 5, 3: 5})
    enter_points(client, table, 0, {0: 1, 1: 40, 2: 5, 3: 5})  # Ben out: the re-entry offer names the stake
    client.set_cookie("lang", lang)
    html = client.get(f"/t/{table}").get_data(as_text=True)
    assert pot in html and stake in html and "\u00a0kr" not in html and "$" not in html
    assert not GLUED.search(html)


def test_a_table_outside_a_group_keeps_the_languages_currency(client, app):
    table = create_table(client, ["Ana", "Ben", "Carla"], stake="10")
    client.set_cookie("lang", "sv")
    assert "30,00\u00a0kr" in client.get(f"/t/{table}").get_data(as_text=True)
    client.set_cookie("lang", "es_AR")
    assert "$30,00" in client.get(f"/t/{table}").get_data(as_text=True)


def test_a_peso_group_never_shows_euros(client, app):
    token = create_group(client, stake="1000000", currency="UYU")
    table = table_in_group(client, token, ["Ana", "Ben", "Carla", "Dani"])
    client.set_cookie("lang", "es")
    html = client.get(f"/t/{table}").get_data(as_text=True)
    assert "4.000.000,00\u00a0UYU" in html and "€" not in html
    client.set_cookie("lang", "es_AR")
    assert "UYU\u00a04.000.000,00" in client.get(f"/t/{table}").get_data(as_text=True)


def test_the_group_pages_never_glue_a_currency_code_to_a_number(client, app):
    token = create_group(client)
    play_example(client, token)
    client.set_cookie("lang", "es_AR")
    settle = client.get(f"/g/{token}/settle").get_data(as_text=True)
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "EUR\u00a01,00" in settle and "EUR\u00a02,50" in page
    assert not GLUED.search(settle) and not GLUED.search(page)


# -- payments: who recorded them, and undoing one -------------------------------------------------------
def pay(client, token, **changes):
    html = client.get(f"/g/{token}/settle").get_data(as_text=True)
    form = {
        "csrf_token": field(html, "csrf_token"),
        "payer": "Ben",
        "payee": "Carla",
        "amount": "1,00",
        "submission": field(html, "submission"),
        **changes,
    }
    return client.post(f"/g/{token}/payments", data=form)


def undo(client, token, payment_id):
    html = client.get(f"/g/{token}/settle").get_data(as_text=True)
    data = {"csrf_token": field(html, "csrf_token"), "payment": str(payment_id)}
    return client.post(f"/g/{token}/payments/undo", data=data, follow_redirects=True)


def history(html: str) -> list[str]:
    return [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", item)).strip()
        for item in re.findall(r"<li data-payment=\"\d+\"[^>]*>(.*?)</li>", html, re.S)
    ]


def test_payments_are_listed_with_who_recorded_them_and_undone_once(client, app):
    token = create_group(client)
    play_example(client, token)
    assert pay(client, token).status_code == 303
    html = client.get(f"/g/{token}/settle").get_data(as_text=True)
    [line] = history(html)
    assert line.startswith("Ben paid Carla €1.00 recorded with the owner link, ") and "Undo" in line
    assert balances(html)["Ben"] == 0
    with app.app_context():
        payment_id = db.session.scalar(select(Payment.id))
    first = undo(client, token, payment_id).get_data(as_text=True)
    assert "The payment was undone; it stays in the history." in first
    second = undo(client, token, payment_id).get_data(as_text=True)  # the same form again: undone once
    assert "That payment was already undone." in second
    html = client.get(f"/g/{token}/settle").get_data(as_text=True)
    assert balances(html) == {"Ana": 0, "Ben": -100, "Carla": 150, "Dani": -50}
    [line] = history(html)
    assert "undone" in line and "Undo" not in line and "<del" in html
    with app.app_context():
        [payment] = db.session.query(Payment).all()
        assert payment.undone_at is not None and payment.recorded_by == "owner"
    # Only the owner link sees the undo button; the member link sees the history.
    member = client.get(f"/g/{links(app, token).member}/settle").get_data(as_text=True)
    assert history(member) and "payments/undo" not in member


def test_a_refused_payment_keeps_what_was_typed_and_names_the_limit(client, app):
    token = create_group(client)
    play_example(client, token)
    response = pay(client, token, payer="Dani", payee="Ana", amount="2000000")
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and "A payment is at most €1,000,000.00." in html
    assert re.search(r'<option value="Dani" selected>', html) and re.search(r'<option value="Ana" selected>', html)
    assert 'value="2000000"' in html
    client.set_cookie("lang", "es")
    html = pay(client, token, amount="1,005").get_data(as_text=True)
    assert "con dos decimales como mucho" in html and 'value="1,005"' in html
    with app.app_context():
        assert db.session.query(Payment).count() == 0


# -- renaming a member ----------------------------------------------------------------------------------
def settings_form(client, token) -> dict[str, str]:
    html = client.get(f"/g/{token}/settings").get_data(as_text=True)
    data = {"csrf_token": field(html, "csrf_token")}
    for name in ("name", "target", "stake"):
        data[name] = field(html, name)
    data.update(preset="classic", currency="EUR", members="")
    for i in range(len(re.findall(r'name="current-\d+-id"', html))):
        data[f"current-{i}-id"] = field(html, f"current-{i}-id")
        data[f"current-{i}-name"] = field(html, f"current-{i}-name")
    return data


def test_renaming_a_member_keeps_their_history(client, app):
    token = create_group(client)
    play_example(client, token)
    before = group_of(app, token).members
    form = settings_form(client, token)
    assert [form[f"current-{i}-name"] for i in range(4)] == ["Ana", "Ben", "Carla", "Dani"]
    form["current-2-name"] = "Carlita"
    assert client.post(f"/g/{token}/settings", data=form).status_code == 303
    after = group_of(app, token).members
    assert after[2] == (before[2][0], "Carlita", ["Carla"])  # the same member, the old name kept
    html = client.get(f"/g/{token}").get_data(as_text=True)
    assert figures(html)["Carlita"]["won"] == "1" and "Carla" not in figures(html)
    assert standing_order(html) == ["Carlita", "Ana", "Ben", "Dani"]
    assert "won by Carlita" in html and '<th scope="col">Carlita</th>' in html
    settle = client.get(f"/g/{token}/settle").get_data(as_text=True)
    assert balances(settle) == {"Ana": 0, "Ben": -100, "Carlita": 150, "Dani": -50}
    # A new match under the new name is the same person; a new member under the old one is refused.
    table = table_in_group(client, token, ["Carlita", "Ana"])
    enter_points(client, table, 0, {0: 1, 1: 60})
    enter_points(client, table, 0, {0: 1, 1: 50})
    assert figures(client.get(f"/g/{token}").get_data(as_text=True))["Carlita"]["played"] == "2"
    response = client.post(f"/g/{token}/settings", data={**settings_form(client, token), "members": "carla"})
    assert response.status_code == 400
    assert "Carla is an earlier name of Carlita" in response.get_data(as_text=True)


def test_the_settings_keep_what_was_typed_when_refused(client, app):
    token = create_group(client)
    form = settings_form(client, token)
    form["current-0-name"] = "Benjamín"
    response = client.post(f"/g/{token}/settings", data={**form, "members": "ben"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and "Two members are called Ben;" in html
    assert field(html, "current-0-name") == "Benjamín" and ">ben</textarea>" in html
    assert group_of(app, token).names == ["Ana", "Ben", "Carla", "Dani"]


# -- seasons ask first ----------------------------------------------------------------------------------
def test_a_new_season_asks_first_and_never_leaves_an_empty_one(client, app):
    token = create_group(client)
    html = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Start a new season" not in html and "A new season can start once this one has a match." in html
    response = client.post(f"/g/{token}/seasons", data=season_form_without_page(client, token), follow_redirects=True)
    assert "Season 1 has no matches yet" in response.get_data(as_text=True)
    table_in_group(client, token, ["Ana", "Ben"])
    html = client.get(f"/g/{token}").get_data(as_text=True)
    assert 'name="confirm" value="season" required' in html
    unticked = {k: v for k, v in season_form(html).items() if k != "confirm"}
    response = client.post(f"/g/{token}/seasons", data=unticked, follow_redirects=True)
    assert "Tick the box to confirm the new season." in response.get_data(as_text=True)
    assert group_of(app, token).seasons == [1]
    assert client.post(f"/g/{token}/seasons", data=season_form(html)).status_code == 303
    again = client.post(f"/g/{token}/seasons", data=season_form(html), follow_redirects=True)  # sent twice
    assert "Season 2 has already started." in again.get_data(as_text=True)
    assert group_of(app, token).seasons == [1, 2]


def season_form_without_page(client, token) -> dict[str, str]:
    """The season form as a stale page (or a hand-made post) would send it."""
    return {"csrf_token": csrf(client, f"/g/{token}"), "season": "1", "confirm": "season"}


# -- play again, made once ------------------------------------------------------------------------------
def test_play_again_twice_makes_one_table_and_moves_the_dealer_once(client, app):
    token = create_group(client)
    _first, second = play_example(client, token)
    html = client.get(f"/g/{token}").get_data(as_text=True)
    form = {"csrf_token": field(html, "csrf_token"), "table": field(html, "table")}
    one = client.post(f"/g/{token}/again", data=form)
    two = client.post(f"/g/{token}/again", data=form)  # a double tap
    assert one.status_code == two.status_code == 303 and one.headers["Location"] == two.headers["Location"]
    new = one.headers["Location"].rsplit("/", 1)[1]
    assert group_of(app, token).tables[-1] == new and len(group_of(app, token).tables) == 3
    assert table_of(app, new).first_dealer == (table_of(app, second).first_dealer + 1) % 2
    # From a match still going on, too: the page's last match is the new one.
    html = client.get(f"/g/{token}").get_data(as_text=True)
    form = {"csrf_token": field(html, "csrf_token"), "table": field(html, "table")}
    third = client.post(f"/g/{token}/again", data=form).headers["Location"].rsplit("/", 1)[1]
    assert table_of(app, third).first_dealer == table_of(app, second).first_dealer
    assert table_of(app, third).names == ["Ana", "Ben"] and len(group_of(app, token).tables) == 4


# -- one role system ------------------------------------------------------------------------------------
def test_group_links_resolve_through_the_tables_roles(client, app):
    from companion.services import groups as service
    from companion.web.access import MEMBER, OWNER, PLAYER, WATCH, group_link

    assert not hasattr(service, "ROLES") and not hasattr(service, "rank") and not hasattr(service, "find")
    token = create_group(client)
    group = links(app, token)
    table = create_table(client, ["Ana", "Ben"])
    with app.app_context():
        assert [group_link(t).role for t in (group.owner, group.member, group.watch)] == [OWNER, PLAYER, WATCH]
        assert MEMBER == PLAYER and group_link(table) is None and group_link("nope") is None
    response = client.get(f"/g/{group.member}/settings")
    assert response.status_code == 403 and "member link starts and adds matches" in response.get_data(as_text=True)


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
    assert response.get_data().startswith("\ufeff".encode())  # UTF-8 with a BOM, as the history's
    rows = list(csv.reader(io.StringIO(response.get_data().decode("utf-8-sig"))))
    assert rows[0] == ["Date", "Season", "Table", "Players", "Final totals", "Winners", "Pot"]
    assert [r[3:] for r in rows[1:]] == [
        ["Ana; Ben; Carla; Dani", "Ana 115; Ben 102; Carla 57; Dani 109", "Carla", "2.5"],
        ["Ana; Ben", "Ana -9; Ben 100", "Ana", "1"],  # a number a spreadsheet reads, as every CSV's
    ]
    client.set_cookie("lang", "es_AR")  # a decimal comma where the language writes one, as every CSV's numbers
    spanish = client.get(f"/g/{token}/matches.csv?season=1").get_data().decode("utf-8-sig")
    assert spanish.splitlines()[1].endswith(";2,5")


def test_season_csv_cells_never_start_a_formula(client, app):
    """Found reading the change: the history's CSV was safe, the group's was not."""
    token = create_group(client)
    table_in_group(client, token, ["Ana", "Ben"], name="=HYPERLINK(1)")
    rows = list(csv.reader(io.StringIO(client.get(f"/g/{token}/matches.csv?season=1").get_data().decode("utf-8-sig"))))
    assert rows[1][2] == "'=HYPERLINK(1)"


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
    client.post(f"/g/{token}/payments", data=form | {"payer": "Dani", "submission": "e" * 32})
    with app.app_context():
        mistaken = db.session.scalar(select(Payment.id).where(Payment.submission == "e" * 32))
    client.post(f"/g/{token}/payments/undo", data={"csrf_token": form["csrf_token"], "payment": str(mistaken)})
    client.post(f"/g/{token}/seasons", data=season_form(client.get(f"/g/{token}").get_data(as_text=True)))
    create_table(client, ["Eva", "Fer"])  # not in the group
    web = client.get(f"/g/{token}/export.json")
    assert web.status_code == 200 and len(web.get_json()["tables"]) == 3
    exported = app.test_cli_runner().invoke(args=["export"])
    data = json.loads(exported.output)
    assert len(data["tables"]) == 4 and len(data["groups"]) == 1
    assert [p["undone_at"] is not None for p in data["groups"][0]["payments"]] == [False, True]  # kept, as undone
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
    from sqlalchemy import inspect

    with app.app_context():
        migrated_to()
        with db.engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []
        downgrade(revision="0002")
        assert "groups" not in inspect(db.engine).get_table_names()
        assert "group_id" not in {c["name"] for c in inspect(db.engine).get_columns("game_tables")}
        upgrade()
        assert {"groups", "group_members", "seasons", "payments"} <= set(inspect(db.engine).get_table_names())
        forget_migrations()
