"""A club tournament through its pages, as an organizer's phone and the
tables' phones use them: the form, the dashboard, a table's own page
("Round 1 · Table 2"), confirming there, the wall, the exports."""

from __future__ import annotations

import csv
import io
import json
import re
import uuid

import pytest
from sqlalchemy import select

from companion import create_app
from companion.extensions import db
from companion.models import GameTable, TableResult, Tournament
from companion.services import tournaments as service
from companion.services.play import current_deal
from companion.services.transfer import export_tournament, import_tournament

from ..services.test_tournament_digital import play_hand
from .helpers import csrf, enter_points, field

EIGHT = "Ana\nBen\nCarla\nDani\nEva\nFede\nGus\nHugo"


def form_data(client, **changes) -> dict[str, str]:
    data = {
        "csrf_token": csrf(client, "/tournaments/new"),
        "name": "Copa del Bar",
        "players": EIGHT,
        "preset": "classic",
        "format": "knockout",
        "advance": "1",
        "rounds": "3",
        "round_hands": "0",
        "round_minutes": "0",
        "scale": "4-2-1-0",
        "reseat": "standing",
        "entry": "",
        "currency": "EUR",
        "prizes": "100",
        "target": "50",
        "reentries": "0",
        "jokers": "0",
    }
    data.update(changes)
    return data


def create(client, **changes) -> str:
    response = client.post("/tournaments/new", data=form_data(client, **changes))
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]
    return response.headers["Location"].rsplit("/", 1)[1]


def tournament(app, token) -> Tournament:
    return db.session.scalar(select(Tournament).where(Tournament.owner_token == token))


def post(client, token, path, **data):
    html = client.get(f"/c/{token}").get_data(as_text=True)
    data = {"csrf_token": field(html, "csrf_token"), "version": field(html, "version"), **data}
    return client.post(f"/c/{token}{path}", data=data)


def table_links(client, token) -> list[str]:
    """The tables of the round in play, as the dashboard links them."""
    html = client.get(f"/c/{token}").get_data(as_text=True)
    return re.findall(r'href="/t/([A-Za-z0-9_-]+)">[^<]*Open table', html)


def win_at(client, link: str, winner: int = 0, players: int = 4) -> None:
    """Everybody but ``winner`` goes out over 50 (one hand each)."""
    out: set[int] = set()
    for loser in [s for s in range(players) if s != winner]:
        points = {s: 1 for s in range(players) if s not in out}
        points[loser] = 60
        enter_points(client, link, winner, points)
        out.add(loser)


def confirm_at(client, link: str, seat: int = 1):
    html = client.get(f"/t/{link}").get_data(as_text=True)
    version = re.search(r"since=(\d+)", html).group(1)
    return client.post(
        f"/t/{link}/result/confirm", data={"csrf_token": csrf(client), "version": version, "seat": str(seat)}
    )


def test_an_organizer_runs_a_knockout_from_the_form_to_the_winner(client, app):
    token = create(client)
    html = client.get(f"/c/{token}").get_data(as_text=True)
    assert "8 players signed up" in html
    # The seating is shown before the round starts, and it is the draw the round gets.
    with app.app_context():
        planned = service.overview(tournament(app, token)).next_seating()
    for number, names in enumerate(planned, start=1):
        assert f"<strong>Table {number}</strong>: {', '.join(names)}" in html
    assert post(client, token, "/rounds").status_code == 303
    links = table_links(client, token)
    assert len(links) == 2
    page = client.get(f"/t/{links[1]}").get_data(as_text=True)
    assert "Round 1 · Table 2" in page
    winners = []
    with app.app_context():
        for link in links:
            winners.append(db.session.scalar(select(GameTable).where(GameTable.player_token == link)).names[0])
    for link in links:
        win_at(client, link)
        page = client.get(f"/t/{link}").get_data(as_text=True)
        assert "waiting for a result" in page
        table_number = links.index(link) + 1
        assert f"Confirm: {winners[links.index(link)]} wins table {table_number}" in page
        assert "Rematch" not in page
        assert confirm_at(client, link).status_code == 303
        assert "confirmed by" in client.get(f"/t/{link}").get_data(as_text=True)
    html = client.get(f"/c/{token}").get_data(as_text=True)
    assert "Round 1 is finished." in html and "Start round 2" in html
    assert post(client, token, "/rounds").status_code == 303
    (final,) = table_links(client, token)
    with app.app_context():
        seated = db.session.scalar(select(GameTable).where(GameTable.player_token == final)).names
    assert sorted(seated) == sorted(winners)
    win_at(client, final, 1, players=2)
    confirm_at(client, final, 0)
    html = client.get(f"/c/{token}").get_data(as_text=True)
    assert f"{seated[1]} wins the tournament!" in html
    wall = client.get(f"/c/{token}/wall").get_data(as_text=True)
    assert "Final ranking" in wall and f"{seated[1]} wins the tournament!" in wall


def test_every_refused_write_answers_4xx_with_the_reason_and_changes_nothing(client, app):
    token = create(client)
    response = post(client, token, "/rounds", version="7")  # another phone's form, long gone
    assert response.status_code == 409
    assert "Somebody just changed this tournament" in response.get_data(as_text=True)
    assert table_links(client, token) == []
    assert post(client, token, "/rounds").status_code == 303
    with app.app_context():
        before = tournament(app, token).version
    response = post(client, token, "/rounds")
    assert response.status_code == 400
    assert "Round 1 is still being played." in response.get_data(as_text=True)
    response = post(client, token, "/tables/close", table="999999", confirm="close")
    assert response.status_code == 400 and "That table is not in the round being played." in response.get_data(
        as_text=True
    )
    response = post(client, token, "/tables/close", table="1")
    assert response.status_code == 400 and "Tick the box" in response.get_data(as_text=True)
    link = table_links(client, token)[0]
    response = confirm_at(client, link)
    assert response.status_code == 400
    assert "The table is still playing" in response.get_data(as_text=True)
    with app.app_context():
        assert tournament(app, token).version == before
        assert db.session.scalar(select(TableResult.id)) is None


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": "Ana\nBen"}, "Add at least 3 players."),
        ({"players": "Ana\nBen\nana"}, "Two players are called Ana;"),
        ({"scale": "1-2"}, "never rising"),
        ({"scale": "cuatro"}, "Type whole numbers with a dash between them"),
        ({"prizes": "60-30"}, "adding up to 100"),
        ({"entry": "abc"}, "Type an amount such as 5 or 2.50."),
        ({"rounds": "99"}, "Number must be between 1 and 12."),
        ({"format": "swiss"}, "Not a valid choice"),
        ({"target": "-5"}, ""),
        ({"name": ""}, "This field is required."),
    ],
)
def test_a_bad_new_tournament_form_answers_400_by_its_field(client, app, changes, message):
    response = client.post("/tournaments/new", data=form_data(client, **changes))
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(Tournament.id)) is None


def test_a_round_on_points_stops_each_table_after_its_hands(client, app):
    token = create(client, format="points", rounds="2", round_hands="1", players=EIGHT)
    post(client, token, "/rounds")
    link = table_links(client, token)[0]
    enter_points(client, link, 0, {0: 1, 1: 10, 2: 20, 3: 30})
    page = client.get(f"/t/{link}").get_data(as_text=True)
    assert "who closed?" not in page and "Confirm:" in page
    opened = client.get(f"/t/{link}/hands/new")  # no grid to tap in vain: back to the scoreboard, saying why
    assert opened.status_code == 303 and opened.headers["Location"].endswith(f"/t/{link}")
    assert "This round is 1 hand" in client.get(f"/t/{link}").get_data(as_text=True)
    form = {
        "csrf_token": field(page, "csrf_token"),
        "version": re.search(r"since=(\d+)", page).group(1),
        "submission": uuid.uuid4().hex,  # a fresh form, forged after the round
        "closer": "0",
        "mode": "points",
        "action": "save",
        **{f"p{s}": "5" for s in range(1, 4)},
        "p0": "1",
    }
    response = client.post(f"/t/{link}/hands/new", data=form)
    assert response.status_code in (400, 409)
    assert "This round is 1 hand" in response.get_data(as_text=True)


def test_the_organizer_corrects_a_table_with_a_reason_shown_everywhere(client, app):
    token = create(client)
    post(client, token, "/rounds")
    link = table_links(client, token)[0]
    with app.app_context():
        table = db.session.scalar(select(GameTable).where(GameTable.player_token == link))
        table_id, names = table.id, table.names
    page = client.get(f"/c/{token}/tables/{table_id}/correct")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    data = {"csrf_token": field(html, "csrf_token"), "version": field(html, "version"), "reason": ""}
    data.update({"place0": "2", "place1": "1", "place2": "3", "place3": "4"})
    response = client.post(f"/c/{token}/tables/{table_id}/correct", data=data)
    assert response.status_code == 400 and "Say why" in response.get_data(as_text=True)
    data["place1"] = "2"
    data["reason"] = "x"
    response = client.post(f"/c/{token}/tables/{table_id}/correct", data=data)
    assert response.status_code == 400  # a tie: two players in second place
    assert "a different place, 1 for the best: a correction has no ties" in response.get_data(as_text=True)
    data.update({"place1": "1", "reason": "Ana left early, Ben agreed"})
    assert client.post(f"/c/{token}/tables/{table_id}/correct", data=data).status_code == 303
    html = client.get(f"/c/{token}").get_data(as_text=True)
    assert f"{names[1]} wins the table" in html and "corrected: Ana left early, Ben agreed" in html
    assert "corrected by the organizer: Ana left early" in client.get(f"/t/{link}").get_data(as_text=True)


def test_the_exports_hold_the_whole_tournament_and_csv_opens_as_excel_would(client, app, tmp_path):
    token = create(client, entry="2,50", prizes="70-30")
    post(client, token, "/rounds")
    for link in table_links(client, token):
        win_at(client, link)
        confirm_at(client, link)
    data = client.get(f"/c/{token}/export.json").get_json()
    assert [len(r["tables"]) for r in data["tournament"]["seated"]] == [2]
    assert data["tournament"]["seated"][0]["tables"][0]["results"][0]["kind"] == "confirmed"
    raw = client.get(f"/c/{token}/standings.csv").get_data()
    assert raw.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert rows[0][:2] == ["Place", "Player"] and len(rows) >= 9
    with app.app_context():
        original = tournament(app, token)
        before = service.overview(original).standings
        db.session.delete(original)
        for table in db.session.scalars(select(GameTable)):
            db.session.delete(table)
        db.session.commit()
        copy = import_tournament(json.loads(json.dumps(data)))
        db.session.commit()
        assert service.overview(copy).standings == before
        assert export_tournament(copy) == data
    # The same file through `flask import`, into another database, once.
    dump = tmp_path / "cup.json"
    dump.write_text(json.dumps(data), encoding="utf-8")
    other = create_app({**app.config, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'other.sqlite'}"})
    with other.app_context():
        db.create_all()
    first = other.test_cli_runner().invoke(args=["import", str(dump)])
    assert "imported the tournament 'Copa del Bar' with 2 table(s)" in first.output, first.output
    assert "already here" in other.test_cli_runner().invoke(args=["import", str(dump)]).output
    with other.app_context():
        assert [line.name for line in service.overview(db.session.scalar(select(Tournament))).standings] == [
            line.name for line in before
        ]
        db.engine.dispose()


def test_the_player_link_opens_tables_the_watch_link_only_watches(client, app):
    token = create(client)
    post(client, token, "/rounds")
    with app.app_context():
        t = tournament(app, token)
        player, watch = t.player_token, t.watch_token
        tables = t.played_rounds[0].tables
        player_links = {x.player_token for x in tables}
        watch_links = {x.watch_token for x in tables}
    html = client.get(f"/c/{player}").get_data(as_text=True)
    assert player_links <= set(re.findall(r'/t/([A-Za-z0-9_-]+)"', html))
    assert "Start round" not in html and token not in html
    html = client.get(f"/c/{watch}").get_data(as_text=True)
    assert watch_links <= set(re.findall(r'/t/([A-Za-z0-9_-]+)"', html))
    assert not player_links & set(re.findall(r"/t/([A-Za-z0-9_-]+)", html))
    assert client.post(f"/c/{watch}/rounds", data={"csrf_token": csrf(client)}).status_code == 403


def test_a_tournament_in_a_group_counts_its_tables_there(client, app):
    from .test_groups import create_group

    group = create_group(client)
    page = client.get(f"/tournaments/new?group={group}").get_data(as_text=True)
    assert "counts for the group" in page
    token = create(client, group=group, players="Ana\nBen\nCarla\nDani")
    post(client, token, "/rounds")
    with app.app_context():
        t = tournament(app, token)
        assert t.group_id is not None
        assert all(table.group_id == t.group_id for table in t.played_rounds[0].tables)


def test_an_unchanged_poll_answers_204_and_a_hand_at_a_table_changes_it(client, app):
    token = create(client)
    post(client, token, "/rounds")
    html = client.get(f"/c/{token}/wall").get_data(as_text=True)
    since = re.search(r"since=([0-9.]+)", html).group(1)
    assert client.get(f"/c/{token}/wall?since={since}").status_code == 204
    enter_points(client, table_links(client, token)[0], 0, {0: 1, 1: 10, 2: 10, 3: 10})
    response = client.get(f"/c/{token}/wall?since={since}")
    assert response.status_code == 200 and "1 hand" in response.get_data(as_text=True)


def test_a_played_out_table_announces_no_next_hand_and_offers_no_undo_once_confirmed(client, app):
    token = create(client)
    post(client, token, "/rounds")
    link = table_links(client, token)[0]
    win_at(client, link)
    page = client.get(f"/t/{link}").get_data(as_text=True)
    assert "deals" not in page.split('id="board"')[1].split("<ul")[0]
    assert confirm_at(client, link, 0).status_code == 400  # seat 0 won: somebody else confirms
    assert confirm_at(client, link, 1).status_code == 303
    page = client.get(f"/t/{link}").get_data(as_text=True)
    assert "Undo last" not in page and "Confirm the result" not in page
    response = client.post(f"/t/{link}/undo", data={"csrf_token": csrf(client), "version": "99"})
    assert response.status_code == 303  # the table's undo route flashes its refusal
    assert "This table&#39;s result is final already." in client.get(f"/t/{link}").get_data(as_text=True)


def test_spanish_pages_write_shared_points_with_a_comma_and_offer_the_local_currency(client, app):
    client.set_cookie("lang", "es_AR")
    assert '<option value="ARS" selected' in client.get("/tournaments/new").get_data(as_text=True)
    client.set_cookie("lang", "en")
    token = create(client, format="points", rounds="1", round_hands="1")
    post(client, token, "/rounds")
    for link in table_links(client, token):
        enter_points(client, link, 0, {0: 1, 1: 10, 2: 10, 3: 20})  # seats 1 and 2 share places 2 and 3
    client.set_cookie("lang", "es")
    html = client.get(f"/c/{token}").get_data(as_text=True)
    assert '<td class="num">1,5</td>' in html
    client.set_cookie("lang", "en")
    assert '<td class="num">1.5</td>' in client.get(f"/c/{token}").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(client.get(f"/c/{token}/standings.csv").get_data().decode("utf-8-sig"))))
    assert rows[0][2] == "Tournament points" and "1.5" in [r[2] for r in rows[1:9]]
    knockout = create(client)
    rows = list(csv.reader(io.StringIO(client.get(f"/c/{knockout}/standings.csv").get_data().decode("utf-8-sig"))))
    assert "Tournament points" not in rows[0]


# -- tables played in the app -------------------------------------------------------------------------
def test_a_tournament_in_the_app_is_dealt_and_played_on_its_tables_player_link(client, app):
    """The organizer hands each table its player link: on a hot-seat table it
    is the phone passed round (the owner's stays with the organizer); a
    computer player fills the table of three; the result needs nobody's
    confirmation; no rematch and no next deal once the round's hand is in."""
    token = create(
        client, players="Ana\nBen\nCarla", play="hotseat", bots="simple", format="points", rounds="1", round_hands="1"
    )
    assert post(client, token, "/rounds").status_code == 303
    (link,) = table_links(client, token)
    with app.app_context():
        table = db.session.scalar(select(GameTable).where(GameTable.player_token == link))
        assert table.kind == "digital" and table.names[3] == "Bot 1" and table.players[3].kind == "simple"
        deal, watch = current_deal(table), table.watch_token
        person = table.players[deal.seats[deal.state["turn"]]].kind == "human"
    page = client.get(f"/t/{link}/play").get_data(as_text=True)
    assert "Round 1 · Table 1" in page and "Tournament standings" in page and "Bot 1" in page
    move = {"csrf_token": csrf(client), "version": deal.version, "action": "stock"}
    assert client.post(f"/t/{watch}/play", data=move).status_code == 403
    if person:
        assert client.post(f"/t/{link}/play", data=move).status_code == 303
        with app.app_context():
            assert current_deal(db.session.get(GameTable, table.id)).version == deal.version + 1
    with app.app_context():
        play_hand(db.session.get(GameTable, table.id))
        over = current_deal(db.session.get(GameTable, table.id))
        view = service.overview(tournament(app, token))
        assert view.over and [s.status for s in view.current] == ["finished"]
        assert [s.result for s in view.current] == [None]  # nobody had to confirm
        assert "Bot 1" not in [line.name for line in view.standings]
    page = client.get(f"/t/{link}/play").get_data(as_text=True)
    assert "played in the app" in page
    assert "Deal the next hand" not in page and "Rematch" not in page and "Confirm:" not in page
    again = {"csrf_token": csrf(client), "version": over.version, "deal": over.id, "action": "next"}
    assert client.post(f"/t/{link}/play", data=again).status_code == 303  # refused, said on the page it came from
    assert "This round is 1 hand: it is over at this table." in client.get(f"/t/{link}/play").get_data(as_text=True)


def test_the_organizer_hands_out_a_link_per_player_when_each_plays_on_their_own_phone(client, app):
    token = create(client, players="Ana\nBen\nCarla\nDani", play="devices")
    assert post(client, token, "/rounds").status_code == 303
    with app.app_context():
        cup = tournament(app, token)
        seats = [p.seat_token for p in cup.played_rounds[0].tables[0].players]
        players_link = cup.player_token
    assert all(seats)
    dashboard = client.get(f"/c/{token}").get_data(as_text=True)
    for seat in seats:
        assert f"/s/{seat}" in dashboard and f"/s/{seat}/qr.svg" in dashboard
        image = client.get(f"/s/{seat}/qr.svg")  # a file an <img> draws: with its namespace
        assert image.mimetype == "image/svg+xml" and 'xmlns="http://www.w3.org/2000/svg"' in image.get_data(
            as_text=True
        )
    players_view = client.get(f"/c/{players_link}").get_data(as_text=True)
    assert not any(seat in players_view for seat in seats)  # only the organizer's link shows them
    assert "Round 1 · Table 1" in client.get(f"/s/{seats[0]}").get_data(as_text=True)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"play": "cards", "bots": "good"}, "only fill tables played in the app"),
        ({"play": "online"}, "Not a valid choice"),
    ],
)
def test_a_bad_choice_of_tables_is_refused_by_its_field(client, app, changes, message):
    response = client.post("/tournaments/new", data=form_data(client, **changes))
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(Tournament)) is None


def test_the_dashboard_shows_the_first_twenty_and_links_every_players_line(client, app):
    names = "\n".join(f"Player {i:02d}" for i in range(24))
    token = create(client, players=names, format="points")
    with app.app_context():
        cup = tournament(app, token)
        watch = cup.watch_token
        expected = [line.name for line in service.overview(cup).standings]
    dashboard = client.get(f"/c/{token}").get_data(as_text=True)
    assert re.findall(r'data-name="([^"]+)"', dashboard) == expected[:20]
    assert f'href="/c/{token}/standings">All 24 players' in dashboard
    page = client.get(f"/c/{watch}/standings")
    assert page.status_code == 200
    assert re.findall(r'data-name="([^"]+)"', page.get_data(as_text=True)) == expected
    assert "All 24 players" not in page.get_data(as_text=True)
    html = client.get(f"/c/{watch}/standings").get_data(as_text=True)
    since = re.search(r"standings\?since=([^\"&]+)", html).group(1)
    assert client.get(f"/c/{watch}/standings?since={since}").status_code == 204


def test_deleting_a_tournament_takes_its_tables_and_its_links_then_say_so(client, app):
    token = create(client)
    assert post(client, token, "/rounds").status_code == 303
    links = table_links(client, token)
    with app.app_context():
        watch = tournament(app, token).watch_token
    refused = post(client, token, "/delete")
    assert refused.status_code == 400 and "Tick the box" in refused.get_data(as_text=True)
    assert post(client, token, "/delete", confirm="delete").status_code == 303
    with app.app_context():
        assert db.session.scalar(select(Tournament)) is None and db.session.scalar(select(GameTable)) is None
    for url in (f"/c/{token}", f"/c/{watch}/wall", f"/t/{links[0]}"):
        gone = client.get(url)
        assert gone.status_code == 404
        assert "what it opened was deleted" in gone.get_data(as_text=True)


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "Iris is signed up."), ("es", "Se ha apuntado a Iris."), ("es_AR", "Anotamos a Iris.")],
)
def test_a_late_sign_up_is_news_that_reads_as_done(client, app, lang, said):
    """The organizer adds a player before the first round: the green note says
    it was done ("Cinco ya está en la lista" read like a refusal: already on the list)."""
    client.set_cookie("lang", lang)
    token = create(client)
    html = client.get(f"/c/{token}").get_data(as_text=True)
    response = client.post(
        f"/c/{token}/players",
        data={"csrf_token": field(html, "csrf_token"), "version": field(html, "version"), "name": " Iris "},
    )
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert said in page
    with app.app_context():
        assert [p.name for p in tournament(app, token).players][-1] == "Iris"
