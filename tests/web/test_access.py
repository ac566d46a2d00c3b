"""The authorization table, walked whole: every route that takes a link ×
every kind of link (owner, player, read-only, seat, none) × GET and POST.

A cell that answers otherwise than ``companion.web.access.PERMISSIONS`` says
fails, and so does a route that takes a link but is missing from the table.
"""

from __future__ import annotations

import io

import pytest
import segno
from werkzeug.exceptions import MethodNotAllowed

from companion.extensions import db
from companion.models import GameTable, Group, Player
from companion.services.tournaments import Settings, create_tournament, start_round
from companion.services.unit import transaction
from companion.web.access import ACCESS, NONE, OWNER, PERMISSIONS, PLAYER, ROLES, SEAT, SHOWS, WATCH

from .helpers import create_table, csrf, enter_points
from .test_groups import create_group
from .test_play import new_game

LINK_ARGS = {"token", "seat_token"}


@pytest.fixture
def links(client, app):
    """Links of every kind: a physical table with a hand, and a digital game on two phones."""
    owner = create_table(client, ["Ana", "Ben", "Carla"])
    enter_points(client, owner, 1, {0: 10, 1: -10, 2: 20})
    hotseat_owner = new_game(client, [("Fran", "human"), ("Gus", "human")], mode="hotseat")
    hotseat_owner = hotseat_owner.headers["Location"].split("/")[2]
    devices_owner = new_game(client, [("Dani", "human"), ("Eva", "human"), ("Robo", "good")], mode="devices")
    devices_owner = devices_owner.headers["Location"].split("/")[2]
    group_owner = create_group(client)
    with app.app_context():
        with transaction():
            cup = create_tournament(
                name="Copa",
                players=["Ana", "Ben", "Carla", "Dani"],
                preset="classic",
                overrides={},
                settings=Settings(),
            )
        with transaction():
            start_round(cup, cup.version)
        cup_table = cup.played_rounds[0].tables[0]

        def tokens(owner_token):
            table = db.session.query(GameTable).filter_by(owner_token=owner_token).one()
            return {OWNER: owner_token, PLAYER: table.player_token, WATCH: table.watch_token}, table.id

        physical, _id = tokens(owner)
        hotseat, _id = tokens(hotseat_owner)
        devices, devices_id = tokens(devices_owner)
        seat = db.session.query(Player).filter_by(table_id=devices_id, name="Dani").one().seat_token
        other_seat = db.session.query(Player).filter_by(table_id=devices_id, name="Eva").one().seat_token
        group = db.session.query(Group).filter_by(owner_token=group_owner).one()
        return {
            "group": {OWNER: group.owner_token, PLAYER: group.member_token, WATCH: group.watch_token},
            "tournament": {OWNER: cup.owner_token, PLAYER: cup.player_token, WATCH: cup.watch_token},
            "tournament_table": {
                OWNER: cup_table.owner_token,
                PLAYER: cup_table.player_token,
                WATCH: cup_table.watch_token,
            },
            "table_id": cup_table.id,
            "physical": physical,
            "digital": hotseat,
            "devices": devices,
            SEAT: seat,
            "other_seat": other_seat,
            NONE: "NoSuchLink0000000000aa",
        }


def link_rules(app):
    return [r for r in app.url_map.iter_rules() if LINK_ARGS & set(r.arguments)]


#: Routes of a tournament table only: another table has no result to confirm (404).
ROUND_TABLE_ROUTES = {"tables.confirm_result", "tables.dispute_result"}


def kind_of(endpoint: str) -> str:
    if endpoint in ROUND_TABLE_ROUTES:
        return "tournament_table"
    return {"play": "digital", "groups": "group", "tournaments": "tournament"}.get(endpoint.split(".")[0], "physical")


def url_for_role(rule, role, links, kind=None):
    kind = kind or kind_of(rule.endpoint)
    if role == SEAT:
        token = links[SEAT]
    elif role == NONE:
        token = links[NONE]
    else:
        token = links[kind][role]
    values = {arg: token for arg in LINK_ARGS & set(rule.arguments)}
    if "number" in rule.arguments:
        values["number"] = 1
    if "table_id" in rule.arguments:
        values["table_id"] = links["table_id"]
    return rule.build(values)[1]


def test_every_route_that_takes_a_link_is_in_the_table(app):
    endpoints = {r.endpoint for r in link_rules(app)}
    assert endpoints == set(PERMISSIONS), "declare the route's access (companion.web.access.allow)"
    for rule in link_rules(app):
        for method in PERMISSIONS[rule.endpoint]:
            assert method in rule.methods, (rule.endpoint, method)


@pytest.mark.parametrize("role", ROLES)
def test_each_route_answers_each_link_as_the_table_says(client, app, links, role):
    token = csrf(client)
    adapter = app.url_map.bind("localhost")
    cells = []
    for rule in sorted(link_rules(app), key=lambda r: r.endpoint):
        url = url_for_role(rule, role, links)
        for method in ("GET", "POST"):
            try:
                endpoint, _args = adapter.match(url.split("?")[0], method=method)
            except MethodNotAllowed:
                expected = "405"
            else:
                if ACCESS[endpoint].round_phone and role == PLAYER:
                    expected = "403"  # a tournament's table only (test_a_tournament_tables_player_link_is_its_phone)
                elif endpoint == "play.review" and role == WATCH:
                    expected = "403"  # once the match is over (test_the_read_only_link_waits_for_the_end_of_the_match)
                elif endpoint in ("play.proof", "play.proof_json") and role == WATCH:
                    expected = "403"  # once the hand is over (test_deal_proof.py)
                elif role in PERMISSIONS[endpoint].get(method, ()):
                    expected = "allowed"
                else:
                    expected = "404" if role == NONE else "403"
            if method == "GET":
                status = client.get(url).status_code
            else:
                status = client.post(url, data={"csrf_token": token}).status_code
            got = {403: "403", 404: "404", 405: "405"}.get(status, "allowed")
            if got != expected:
                cells.append(f"{method} {url} ({rule.endpoint}) as {role}: {status}, expected {expected}")
    assert not cells, "\n".join(sorted(set(cells)))


@pytest.mark.parametrize("role", [OWNER, PLAYER, WATCH])
def test_a_link_opens_only_the_pages_of_what_it_links_to(client, app, links, role):
    """A group's or a tournament's links open no table or seat page, and a
    table's links no group or tournament page: 404, or 403 where the route
    never takes that role (found by hand: a group's link on a digital
    table's page answered 500)."""
    token = csrf(client)
    adapter = app.url_map.bind("localhost")
    cells = []
    others = {"group": ("physical", "tournament"), "tournament": ("physical", "group")}
    for rule in sorted(link_rules(app), key=lambda r: r.endpoint):
        for other in others.get(kind_of(rule.endpoint), ("group", "tournament")):
            url = url_for_role(rule, role, links, other)
            for method in ("GET", "POST"):
                try:
                    endpoint, _args = adapter.match(url.split("?")[0], method=method)
                except MethodNotAllowed:
                    continue
                # A role the route never takes is told so (403), as for any link; otherwise: no such page.
                expected = 404 if role in PERMISSIONS[endpoint].get(method, ()) else 403
                response = client.get(url) if method == "GET" else client.post(url, data={"csrf_token": token})
                if response.status_code != expected:
                    cells.append(
                        f"{method} {url} ({endpoint}) with a {other} {role} link: {response.status_code}, "
                        f"expected {expected}"
                    )
    assert not cells, "\n".join(cells)


def tokens_above(role, links):
    """Every link a page opened with ``role`` must never show."""
    hidden = {}
    for kind in ("physical", "digital", "devices", "group", "tournament", "tournament_table"):
        for shown_role, token in links[kind].items():
            if shown_role not in SHOWS[role]:
                hidden[token] = f"{kind} {shown_role}"
    if SEAT not in SHOWS[role]:
        hidden[links["other_seat"]] = "another seat"
        if role != SEAT:
            hidden[links[SEAT]] = "a seat"
    return hidden


@pytest.mark.parametrize("role", [OWNER, PLAYER, WATCH, SEAT])
def test_no_page_shows_or_leads_to_a_higher_link(client, app, links, role):
    """A link may only show links of its own level or below: in the page, in a
    redirect, in a QR code."""
    hidden = tokens_above(role, links)
    client.delete_cookie("tables")  # a phone that holds this link alone (the tables were made on this client)
    leaks = []
    pages = [
        url_for_role(rule, role, links, kind) + query
        for rule in link_rules(app)
        if "GET" in rule.methods and role in PERMISSIONS[rule.endpoint].get("GET", ())
        for kind in ({"digital", "devices"} if rule.endpoint.startswith("play.") else {kind_of(rule.endpoint)})
        for query in ("", "?to=owner", "?to=player", "?to=watch", "?show=1", "?show=2")
    ]
    for url in pages:
        response = client.get(url)
        text = response.get_data(as_text=True) + response.headers.get("Location", "")
        leaks += [f"{url}: {what}" for token, what in hidden.items() if token in text]
    assert not leaks, "\n".join(sorted(set(leaks)))


def qr_of(url: str) -> str:
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=5, dark="#000", light="#fff", xmldecl=False)
    return out.getvalue().decode()


@pytest.mark.parametrize(
    ("role", "to", "shows"),
    [
        (WATCH, "", WATCH),
        (WATCH, "player", None),
        (WATCH, "owner", None),
        (PLAYER, "", PLAYER),
        (PLAYER, "watch", WATCH),
        (PLAYER, "owner", None),
        (OWNER, "", PLAYER),
        (OWNER, "watch", WATCH),
    ],
)
def test_a_qr_code_holds_only_a_link_at_or_below_its_own(client, links, role, to, shows):
    """Found by hand: the read-only link's QR code encoded the player link."""
    tokens = links["physical"]
    response = client.get(f"/t/{tokens[role]}/qr.svg" + (f"?to={to}" if to else ""))
    if shows is None:
        assert response.status_code in (403, 404)
    else:
        assert response.status_code == 200
        assert response.get_data(as_text=True) == qr_of(f"http://localhost/t/{tokens[shows]}")


@pytest.mark.parametrize(
    "kind, role, path, back",
    [
        ("tournament", PLAYER, "/c/{token}/rounds", ("/c/{token}", "Back to the tournament")),
        ("group", PLAYER, "/g/{token}/settings", ("/g/{token}", "Back to the group")),
        ("physical", WATCH, "/t/{token}/undo", ("/t/{token}", "Back to the table")),
    ],
)
def test_a_refusal_leads_back_to_what_the_link_opens(client, links, kind, role, path, back):
    token = links[kind][role]
    response = client.post(path.format(token=token), data={"csrf_token": csrf(client)})
    assert response.status_code == 403
    html = response.get_data(as_text=True)
    href, label = back
    assert f'<a class="button primary" href="{href.format(token=token)}">{label}</a>' in html
