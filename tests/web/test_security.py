"""Findings of issue #11 (a stranger's and a spectator's first minute), each
reproduced as a test: forged or colliding submission ids, NUL bytes, numbers
past every bound, formula cells, look-alike names, caching and logging of
secret links."""

from __future__ import annotations

import io
import logging

import pytest

from companion.extensions import db
from companion.models import GameTable, Hand
from companion.web.redaction import link_hash, redact

from .helpers import (
    GERMAN,
    create_table,
    csrf,
    enter_cards,
    enter_points,
    hand_count,
    hand_form,
    rematch,
    table_count,
    table_of,
    totals,
)


def save_points(client, token, points, closer=1, submission=None):
    data = hand_form(client, token)
    data.update({"closer": str(closer), "mode": "points", "action": "save"})
    data.update({f"p{seat}": str(v) for seat, v in points.items()})
    if submission is not None:
        data["submission"] = submission
    return client.post(f"/t/{token}/hands/new", data=data)


# -- submission ids ------------------------------------------------------------------------
def test_a_submission_id_seen_on_another_table_does_not_block_a_save(client, app):
    """Submission ids were unique across all tables: a hand on one table could
    make another table's hand vanish as 'already saved'."""
    first = create_table(client, ["Ana", "Ben"])
    second = create_table(client, ["Carla", "Dani"])
    shared = "ab" * 16
    assert save_points(client, first, {0: 10, 1: -10}, submission=shared).status_code == 303
    assert save_points(client, second, {0: 7, 1: -10}, submission=shared).status_code == 303
    assert totals(client, first) == [10, -10] and totals(client, second) == [7, -10]


def test_a_form_cannot_forge_a_server_made_submission_id(client, app):
    """``deal-N`` ids are the server's (digital play): a form sending one is refused."""
    token = create_table(client, ["Ana", "Ben"])
    response = save_points(client, token, {0: 10, 1: -10}, submission="deal-1")
    assert response.status_code == 400 and "not one this app made" in response.get_data(as_text=True)
    assert hand_count(app) == 0


def test_a_replayed_form_is_stored_once_per_table(client, app):
    token = create_table(client, ["Ana", "Ben"])
    data = hand_form(client, token)
    data.update({"closer": "1", "mode": "points", "action": "save", "p0": "10", "p1": "-10"})
    assert client.post(f"/t/{token}/hands/new", data=data).status_code == 303
    assert client.post(f"/t/{token}/hands/new", data=data).status_code == 303
    assert hand_count(app) == 1


# -- NUL bytes -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "path",
    [
        "/t/abc%00def",
        "/s/abc%00def",
        "/t/abc%00def/history",
        "/referee/layoffs?table=a%00b",
        "/referee/close?cards=1o%00",
    ],
)
def test_a_nul_byte_in_a_url_is_a_clear_400(client, path):
    response = client.get(path)
    assert response.status_code == 400 and "NUL" in response.get_data(as_text=True)


def test_a_nul_byte_in_a_name_is_refused_and_nothing_is_stored(client, app):
    data = {"csrf_token": csrf(client), "preset": "classic", "first_dealer": "0", "target": "100"}
    data.update({"players-0": "Ana\x00", "players-1": "Ben", "jokers": "0", "suit_style": "spanish"})
    response = client.post("/tables/new", data=data)
    assert response.status_code == 400 and table_count(app) == 0


# -- numbers ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("target", "reentries"),
    [("1" + "0" * 400, "1"), ("5" * 5000, "1"), ("50", "²"), ("50", "9" * 40), ("0", "1"), ("-5", "1")],
)
def test_settings_are_bounded_like_the_create_form(client, app, target, reentries):
    """Found by hand: target=1 followed by 400 zeros was accepted, then /history answered 500."""
    owner = create_table(client, ["Ana", "Ben", "Carla"])
    data = {"csrf_token": csrf(client), "version": table_of(app, owner).version}
    data.update({"target": target, "reentries": reentries})
    response = client.post(f"/t/{owner}/settings", data=data)
    assert response.status_code == 400
    assert table_of(app, owner).rules.target == 100
    assert client.get(f"/t/{owner}/history").status_code == 200


def test_the_settings_page_shows_the_current_rules(client, app):
    owner = create_table(client, ["Ana", "Ben", "Carla"], target="70")
    html = client.get(f"/t/{owner}/settings").get_data(as_text=True)
    assert 'value="70"' in html


# -- what a spreadsheet would run --------------------------------------------------------------
def test_csv_cells_never_start_a_formula(client, app):
    owner = create_table(client, ["=HYPERLINK(1)", "+Ben", "@Carla", "-Dani"])
    enter_points(client, owner, 1, {0: 10, 1: -10, 2: 5, 3: 7})
    text = client.get(f"/t/{owner}/history.csv").get_data(as_text=True)
    cells = [cell for line in text.splitlines() for cell in line.split(",")]
    assert not [c for c in cells if c[:1] in ("=", "+", "@") or (c[:1] == "-" and not c[1:].isdigit())]
    assert "'=HYPERLINK(1)," in text and "-10" in text


# -- look-alike names -----------------------------------------------------------------------------
@pytest.mark.parametrize("twin", ["Ana\u200b", "ana", "Ana\u2060", "A\u0301na".replace("A\u0301", "Á")])
def test_names_that_look_the_same_are_the_same_player(client, app, twin):
    if twin == "Ána":  # a different name: accepted
        create_table(client, ["Ana", twin])
        assert table_count(app) == 1
        return
    data = {"csrf_token": csrf(client), "preset": "classic", "first_dealer": "0", "target": "100"}
    data.update({"players-0": "Ana", "players-1": twin, "jokers": "0", "suit_style": "spanish"})
    response = client.post("/tables/new", data=data)
    assert response.status_code == 400 and "Two players are called Ana;" in response.get_data(as_text=True)
    assert table_count(app) == 0


def test_names_are_stored_clean(client, app):
    owner = create_table(client, ["Ana\u200b", "Ben"])
    assert table_of(app, owner).names == ["Ana", "Ben"]


# -- secret links: caches and logs ---------------------------------------------------------------
def test_pages_behind_a_secret_link_are_never_stored(client, app):
    owner = create_table(client, ["Ana", "Ben"])
    for path in (f"/t/{owner}", f"/t/{owner}/history", f"/t/{owner}/hands/new", f"/t/{owner}/history.csv"):
        assert client.get(path).headers["Cache-Control"] == "no-store", path
    assert "no-store" not in client.get("/").headers.get("Cache-Control", "")


def test_logs_carry_a_hash_of_a_link_never_the_link(app):
    token = "Zk3q0vVb1xY2w3e4r5t6yA"
    assert redact(f"GET /t/{token}/history?x=1 HTTP/1.1") == f"GET /t/{link_hash(token)}/history?x=1 HTTP/1.1"
    assert redact(f"/s/{token}") == f"/s/{link_hash(token)}"
    assert redact(f"/referee/layoffs?table={token}&n=2") == f"/referee/layoffs?table={link_hash(token)}&n=2"
    stream = io.StringIO()
    handler = app.logger.handlers[0]
    old_stream = handler.setStream(stream)
    old_level = app.logger.level
    app.logger.setLevel(logging.DEBUG)
    try:
        client = app.test_client()
        client.get(f"/t/{token}")
        with app.test_request_context(f"/t/{token}/history"):
            try:
                raise RuntimeError(f"boom at /t/{token}")
            except RuntimeError:
                import sys

                app.log_exception(sys.exc_info())
    finally:
        handler.setStream(old_stream)
        app.logger.setLevel(old_level)
    logged = stream.getvalue()
    assert token not in logged and link_hash(token) in logged and "boom" in logged


def test_an_owner_link_is_never_shown_to_a_player_after_a_rematch(client, app):
    """Found by hand: a player link's rematch redirected to the new table's owner link."""
    owner = create_table(client, ["Ana", "Ben"])
    player = table_of(app, owner).player_token
    enter_points(client, owner, 1, {0: 60, 1: -10})
    enter_points(client, owner, 1, {0: 60, 1: -10})
    response = rematch(client, player)
    assert response.status_code == 303
    with app.app_context():
        new = db.session.query(GameTable).order_by(GameTable.id.desc()).first()
        assert response.headers["Location"].endswith(f"/t/{new.player_token}")
        assert new.owner_token not in response.get_data(as_text=True)
        assert db.session.query(Hand).count() == 2


@pytest.mark.parametrize("alt", ["1:" + "1" * 30, "1" * 30 + ":1", "1:-" + "9" * 12, "1:1e99"])
def test_an_arrangement_pick_past_every_bound_is_ignored(client, app, alt):
    """Found by hand: alt=0: followed by 30 digits overflowed an integer."""
    token = create_table(client, ["Ana", "Ben", "Carla"])
    enter_cards(client, token, 0, GERMAN, extra={"alt": alt})
    assert hand_count(app) == 1 and totals(client, token) == [3, 13, 46]
