"""Scorekeeping for physical tables: every route and every bad input."""

from __future__ import annotations

import re

import pytest

from companion.extensions import db
from companion.models import Entry, Hand, Reentry

from .helpers import (
    GERMAN,
    create_table,
    csrf,
    decide_reentry,
    enter_cards,
    enter_points,
    hand_count,
    hand_form,
    rematch,
    table_count,
    table_of,
    totals,
)


# -- creating a table ----------------------------------------------------------------
def test_home_and_new_table_pages(client):
    assert client.get("/").status_code == 200
    html = client.get("/tables/new").get_data(as_text=True)
    assert 'name="players-0"' in html and 'value="classic"' in html


def test_create_a_three_player_classic_table(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    table = table_of(app, token)
    assert table.names == ["Ana", "Ben", "Carla"] and table.preset == "classic"
    assert table.overrides["decks"] == 1  # auto resolved: 3 players, one deck
    assert totals(client, token) == [0, 0, 0]
    home = client.get("/").get_data(as_text=True)
    assert token in home  # the phone remembers its tables


def test_five_players_get_two_decks_and_house_variants(client, app):
    token = create_table(
        client, ["A", "B", "C", "D", "E"], jokers=2, wild_ace="y", target=70, stake="0.5", reentries="unlimited"
    )
    table = table_of(app, token)
    assert table.overrides == {
        "decks": 2,
        "jokers": 2,
        "wild_cards": ["1o"],
        "target": 70,
        "stake": "0.5",
        "reentries": None,
    }
    assert table.rules.target == 70


@pytest.mark.parametrize(
    "names,extra,message",
    [
        (["Ana"], {}, "at least 2 players"),
        (["Ana", "ana"], {}, "Two players are called Ana;"),
        (["Ana", "Ben"], {"first_dealer": "5"}, "first dealer"),
        (["A", "B", "C", "D", "E", "F", "G"], {"preset": "sweden"}, "2 to 6"),
        (["Ana", "Ben"], {"target": "0"}, "Type a whole number from 1 to 10,000."),
        (["Ana", "Ben"], {"target": "lots"}, "valid integer"),
        (["Ana", "Ben"], {"stake": "-1"}, "Type an amount from 0 to 1,000,000."),
        (["Ana", "Ben"], {"preset": "argentina"}, "valid choice"),
        (["Ana", "Ben"], {"jokers": "9"}, "valid choice"),
        (["Ana", "B" * 41], {}, "40 characters"),
    ],
)
def test_bad_table_forms_say_why_and_store_nothing(client, app, names, extra, message):
    data = {
        "csrf_token": csrf(client),
        "preset": "classic",
        "first_dealer": "0",
        "jokers": "0",
        "target": "100",
        "suit_style": "spanish",
    }
    data.update({f"players-{i}": n for i, n in enumerate(names)})
    data.update(extra)
    response = client.post("/tables/new", data=data)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert table_count(app) == 0


def test_missing_or_forged_csrf_is_refused_and_stores_nothing(client, app):
    data = {"preset": "classic", "players-0": "Ana", "players-1": "Ben", "first_dealer": "0", "target": "100"}
    assert client.post("/tables/new", data=data).status_code == 400
    assert client.post("/tables/new", data={**data, "csrf_token": "forged"}).status_code == 400
    token = create_table(client, ["Ana", "Ben", "Carla"])
    form = hand_form(client, token)
    form.update(
        {"closer": "0", "mode": "points", "p0": "3", "p1": "10", "p2": "20", "action": "save", "csrf_token": "x"}
    )
    response = client.post(f"/t/{token}/hands/new", data=form)
    assert response.status_code == 400 and "expired" in response.get_data(as_text=True)
    assert table_count(app) == 1 and hand_count(app) == 0


def test_unknown_table_links_are_404(client):
    assert client.get("/t/not-a-table").status_code == 404
    assert client.get("/t/not-a-table/hands/new").status_code == 404
    assert client.post("/t/not-a-table/undo").status_code in (400, 404)


# -- entering hands ------------------------------------------------------------------
def test_german_seed_hand_with_cards_stores_melds_layoffs_and_points(client, app):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    enter_cards(client, token, 0, GERMAN)
    assert totals(client, token) == [3, 13, 46]
    with app.app_context():
        hand = db.session.query(Hand).one()
        assert (hand.number, hand.discard, hand.closer_seat, hand.mode) == (1, "12e", 0, "cards")
        ben = db.session.query(Entry).filter_by(seat=1).one()
        assert ben.layoffs == [{"card": "4o", "seat": 0, "meld": 1}] and ben.points == 13
        assert ben.melds == [["5c", "5e", "5b"]]


def test_live_verdict_fragment_for_htmx(client):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    data = hand_form(client, token)
    data.update({"closer": "0", "mode": "cards", "h0": GERMAN[0]})
    response = client.post(f"/t/{token}/hands/new", data=data, headers={"HX-Request": "true", "HX-Target": "verdict"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "<html" not in html
    assert "Enter Ben&#39;s points." in html and "Legal close." in html  # the closer judged; next: Ben
    data.update({"h1": GERMAN[1], "h2": GERMAN[2]})
    html = client.post(
        f"/t/{token}/hands/new", data=data, headers={"HX-Request": "true", "HX-Target": "verdict"}
    ).get_data(as_text=True)
    assert "Legal close" in html and ">13<" in html and ">46<" in html


def test_closer_may_enter_seven_cards_and_the_discard(client):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    hands = {**GERMAN, 0: "11c 11e 11b 5o 6o 7o 3c"}
    enter_cards(client, token, 0, hands, discard="12e")
    assert totals(client, token) == [3, 13, 46]


def checked_cards(html: str, name: str) -> list[str]:
    """The cards a grid shows checked for the field ``name``."""
    return sorted(re.findall(rf'class="pick(?: c1)?" name="{name}" value="(\w+)"[^>]* checked', html))


def test_the_form_holds_the_tapped_cards_and_nothing_toggles_them_again(client):
    """Each card is a checkbox: the form sends what is checked, the page shows
    it checked, and a stray ``tap=`` (the old script's double toggle) is ignored."""
    token = create_table(client, ["Anna", "Ben", "Carla"])
    data = hand_form(client, token)
    data.update({"closer": "0", "mode": "cards", "h0": ["11c", "11e"], "active": "1", "tap": "11e"})
    html = client.post(f"/t/{token}/hands/new", data=data).get_data(as_text=True)
    checked = re.findall(r'<input type="checkbox" class="pick(?: c1)?" name="(h\d)" value="(\w+)"[^>]* checked', html)
    assert sorted(checked) == [("h0", "11c"), ("h0", "11e")]
    assert re.search(r'name="active" value="1" checked', html)


@pytest.mark.parametrize(
    "hands,discard,closer,message",
    [
        ({}, "", "", "Choose who closed"),
        ({0: "11c 11e 11b 5o 6o"}, "", "0", "tap the 8 cards"),
        ({**GERMAN, 1: "5b 5c 5e 4o 12o"}, "", "0", "Ben holds 7 cards"),
        ({**GERMAN, 1: "5b 5c 5e 4o 12o 2c 8o"}, "", "0", "not a card of this deck"),
        ({**GERMAN, 1: "5b 5c 5e 4o 12o 2c 5o"}, "", "0", "5o appears twice"),
        ({**GERMAN, 0: "2o 3o 6o 7o 10o 11o 1e 12e"}, "", "0", "cannot close"),
        ({**GERMAN, 0: "11c 11e 11b 5o 6o 7o 3c 12e"}, "1b", "0", "tap the 8 cards"),
        ({**GERMAN}, "", "7", "Choose who closed"),
    ],
)
def test_bad_hands_get_a_clear_message_and_store_nothing(client, app, hands, discard, closer, message):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    data = hand_form(client, token)
    data.update({"closer": closer, "mode": "cards", "action": "save", "discard": discard})
    data.update({f"h{s}": c for s, c in hands.items()})
    response = client.post(f"/t/{token}/hands/new", data=data)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert hand_count(app) == 0


def test_points_only_hand_and_impossible_points(client, app):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    enter_points(client, token, 0, {0: 7, 1: 10, 2: 20}, expect=400)  # classic: a closer scores at most 4
    enter_points(client, token, 0, {0: 3, 1: -5, 2: 20}, expect=400)
    enter_points(client, token, 0, {0: 3, 1: 77, 2: 20}, expect=400)  # eight kings and horses count 76 at most
    enter_points(client, token, 0, {0: 3, 1: 10}, expect=400)
    enter_points(client, token, 0, {0: 3, 1: "ten", 2: 20}, expect=400)
    enter_points(client, token, 0, {0: 5, 1: 10, 2: 20}, chinchon=True, expect=400)
    assert hand_count(app) == 0
    enter_points(client, token, 0, {0: -10, 1: 10, 2: 20})
    assert totals(client, token) == [-10, 10, 20]


def test_a_stale_form_is_refused_with_a_fresh_view(client, app):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    old = hand_form(client, token)
    enter_points(client, token, 0, {0: 3, 1: 10, 2: 20})
    old.update({"closer": "1", "mode": "points", "p0": "5", "p1": "2", "p2": "7", "action": "save"})
    response = client.post(f"/t/{token}/hands/new", data=old)
    assert response.status_code == 409  # refused; the entry is kept beside the saved hand (issue 12)
    assert "Another phone saved hand 1" in response.get_data(as_text=True)
    assert hand_count(app) == 1 and totals(client, token) == [3, 10, 20]


def test_a_replayed_submission_is_stored_once(client, app):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    data = hand_form(client, token)
    data.update({"closer": "0", "mode": "points", "p0": "3", "p1": "10", "p2": "20", "action": "save"})
    assert client.post(f"/t/{token}/hands/new", data=data).status_code == 303
    response = client.post(f"/t/{token}/hands/new", data=data)
    assert response.status_code == 303
    assert "already saved" in client.get(response.headers["Location"]).get_data(as_text=True)
    assert hand_count(app) == 1 and totals(client, token) == [3, 10, 20]


def test_watch_link_is_read_only(client, app):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    watch = table_of(app, token).watch_token
    assert client.get(f"/t/{watch}").status_code == 200
    assert client.get(f"/t/{watch}/hands/new").status_code == 403
    assert client.post(f"/t/{watch}/undo", data={"csrf_token": csrf(client)}).status_code == 403
    assert "Enter hand" not in client.get(f"/t/{watch}").get_data(as_text=True)


# -- the match ---------------------------------------------------------------------------
def test_elimination_reentry_and_the_pot(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla", "Dani"], stake="1")
    enter_points(client, token, 1, {0: 60, 1: 3, 2: 20, 3: 50})
    enter_points(client, token, 1, {0: 41, 1: -10, 2: 10, 3: 0})
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "Ana is out. Buy back in at 50 points?" in html and "Pot: 4" in html
    data = {
        "csrf_token": csrf(client),
        "version": str(table_of(app, token).version),
        "seat": "0",
        "submission": "1" * 32,
    }
    client.post(f"/t/{token}/reentry", data=data)
    client.post(f"/t/{token}/reentry", data=data)  # replayed: once only
    assert totals(client, token) == [50, -7, 30, 50]
    with app.app_context():
        assert db.session.query(Reentry).count() == 1
    assert "Pot: 5" in client.get(f"/t/{token}").get_data(as_text=True)


def test_reentry_refused_with_only_two_left(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    enter_points(client, token, 1, {0: 60, 1: 3, 2: 20})
    enter_points(client, token, 1, {0: 41, 1: 3, 2: 20})
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "No buy-back: re-entry needs at least 3 players still in; only 2 are." in html  # nobody asked: not "refused"
    data = {
        "csrf_token": csrf(client),
        "version": str(table_of(app, token).version),
        "seat": "0",
        "submission": "2" * 32,
    }
    response = client.post(f"/t/{token}/reentry", data=data)
    assert "Re-entry refused" in client.get(response.headers["Location"]).get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Reentry).count() == 0


def test_an_out_player_cannot_score_and_the_last_one_in_wins(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    enter_points(client, token, 1, {0: 60, 1: 3, 2: 20})
    enter_points(client, token, 1, {0: 41, 1: 3, 2: 20})
    enter_points(client, token, 1, {0: 5, 1: 3, 2: 20})  # Ana's points are ignored: she is not in the form
    with app.app_context():
        assert {e.seat for e in db.session.query(Hand).order_by(Hand.id.desc()).first().entries} == {1, 2}
    enter_points(client, token, 1, {1: -10, 2: 45})
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "Ben wins!" in html and "Rematch" in html
    assert client.get(f"/t/{token}/hands/new").status_code == 303


def test_chinchon_wins_the_match_and_rematch(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    enter_cards(
        client, token, 1, {0: "10o 1c 3b 4b 5b 10c 11e", 1: "1o 2o 3o 4o 5o 6o 7o 12b", 2: "2e 3e 6c 7b 10e 12c 11b"}
    )
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "Ben wins!" in html and "Chinchón!" in html
    response = rematch(client, token)
    new = response.headers["Location"].rsplit("/", 1)[1]
    assert new != token and totals(client, new) == [0, 0, 0]
    assert table_of(app, new).first_dealer == 1


def test_undo_keeps_history(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    enter_points(client, token, 0, {0: 3, 1: 10, 2: 20})
    enter_points(client, token, 1, {0: 30, 1: 1, 2: 20})
    client.post(f"/t/{token}/undo", data={"csrf_token": csrf(client), "version": str(table_of(app, token).version)})
    assert totals(client, token) == [3, 10, 20]
    assert hand_count(app) == 2  # the undone hand stays in the history
    assert "undone" in client.get(f"/t/{token}/history").get_data(as_text=True)
    response = client.post(f"/t/{token}/undo", data={"csrf_token": csrf(client), "version": "1"})  # stale
    assert totals(client, token) == [3, 10, 20]
    assert response.status_code == 303


def test_edit_an_earlier_hand_recomputes_later_totals_and_voids_a_reentry(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla", "Dani"])
    enter_points(client, token, 1, {0: 60, 1: 3, 2: 20, 3: 50})
    enter_points(client, token, 1, {0: 41, 1: 3, 2: 20, 3: 0})
    data = {
        "csrf_token": csrf(client),
        "version": str(table_of(app, token).version),
        "seat": "0",
        "submission": "3" * 32,
    }
    client.post(f"/t/{token}/reentry", data=data)
    enter_points(client, token, 1, {0: 10, 1: -10, 2: 10, 3: 0})
    assert totals(client, token) == [60, -4, 50, 50]
    # Hand 2 was mistyped: Ana had 31, so she never went out.
    enter_points(client, token, 1, {0: 31, 1: 3, 2: 20, 3: 0}, number=2)
    assert totals(client, token) == [101, -4, 50, 50]
    with app.app_context():
        assert db.session.query(Reentry).one().undone_at is not None
        assert db.session.query(Hand).count() == 4
    assert "corrected" in client.get(f"/t/{token}/history").get_data(as_text=True)


def test_an_edit_that_breaks_later_hands_is_refused(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    enter_points(client, token, 1, {0: 50, 1: 3, 2: 20})
    enter_points(client, token, 1, {0: 10, 1: 3, 2: 20})
    enter_points(client, token, 1, {0: 10, 1: 3, 2: 20})
    # Correcting hand 2 to 60 puts Ana out before hand 3, where she scored.
    response = enter_points(client, token, 1, {0: 60, 1: 3, 2: 20}, number=2, expect=400)
    assert (
        "With this change Ana is out before hand 3, yet has points in it. "
        "Undo hand 3 (the last one) first, then save the correction."
    ) in response.get_data(as_text=True)
    assert totals(client, token) == [70, 9, 60] and hand_count(app) == 3


def test_a_correction_that_breaks_a_later_hand_names_it_in_the_pages_language(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    enter_points(client, token, 1, {0: 50, 1: 3, 2: 20})
    enter_points(client, token, 1, {0: 10, 1: 3, 2: 20})
    enter_points(client, token, 1, {0: 10, 1: 3, 2: 20})
    enter_points(client, token, 1, {0: 10, 1: 3, 2: 20})
    client.set_cookie("lang", "es")
    html = enter_points(client, token, 1, {0: 60, 1: 3, 2: 20}, number=2, expect=400).get_data(as_text=True)
    assert "Con este cambio Ana queda fuera antes de la mano 3, pero tiene puntos en ella." in html
    assert (
        "Deshacé" not in html and "Deshaz las últimas 2 manos (desde la mano 3) y luego guarda la corrección." in html
    )
    assert "cannot score" not in html and "out and" not in html
    client.set_cookie("lang", "es_AR")
    html = enter_points(client, token, 1, {0: 60, 1: 3, 2: 20}, number=2, expect=400).get_data(as_text=True)
    assert "Deshacé las últimas 2 manos (desde la mano 3) y después guardá la corrección." in html
    assert totals(client, token) == [80, 12, 80] and hand_count(app) == 4


def test_spec_6_carlas_chinchon_by_points_saves_although_the_others_would_go_out_first(client, app):
    # Ben 92, Carla 67, Dani 89 still in (Ana out); Carla's Chinchón with Ben 20
    # and Dani 15 used to be refused: "The match is already over." in English.
    token = create_table(client, ["Ana", "Ben", "Carla", "Dani"])
    enter_points(client, token, 2, {0: 60, 1: 50, 2: 2, 3: 45})
    enter_points(client, token, 2, {0: 45, 1: 42, 2: 4, 3: 54})
    decide_reentry(client, token, 0, buy=False)
    enter_points(client, token, 3, {1: 0, 2: 61, 3: -10})
    assert totals(client, token) == [105, 92, 67, 89]
    client.set_cookie("lang", "es")
    enter_points(client, token, 2, {1: 20, 2: -10, 3: 15}, chinchon=True)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "¡Gana Carla!" in html and "¡Chinchón! La partida termina en el acto." in html
    assert hand_count(app) == 4 and totals(client, token) == [105, 112, 57, 104]


def test_after_a_winning_chinchon_the_others_later_points_do_not_block_a_correction(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    enter_points(client, token, 1, {0: 60, 1: 3, 2: 20})
    enter_points(client, token, 1, {0: 20, 1: 3, 2: 20})
    enter_points(client, token, 2, {0: 15, 1: 30, 2: -10}, chinchon=True)
    client.set_cookie("lang", "es")
    # Hand 2 was 50 for Ana: she went out then, yet has points in the Chinchón hand.
    enter_points(client, token, 1, {0: 50, 1: 3, 2: 20}, number=2)
    assert "¡Gana Carla!" in client.get(f"/t/{token}").get_data(as_text=True)
    history = client.get(f"/t/{token}/history").get_data(as_text=True)
    assert (
        "Mano 3: el chinchón terminó la partida en el acto, antes de que contaran los puntos de esta mano." in history
    )
    assert totals(client, token) == [110, 6, 40]


# Ben closes; Carla may keep her four tens or lay the 10 of copas off onto Ben's
# copas run: either way 25, but laid off it lets Ana lay off her 11 of copas.
CARLAS_TENS = {0: "1b 2b 3b 4b 11c 4e 5o", 1: "5c 6c 7c 1o 2o 3o 1e 12b", 2: "10o 10e 10b 10c 12e 6b 11o"}


def test_spec_5_no_other_arrangement_is_offered_that_would_move_anas_points(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    data = hand_form(client, token)
    data.update({"closer": "1", "mode": "cards", "discard": ""})
    data.update({f"h{seat}": cards.split() for seat, cards in CARLAS_TENS.items()})
    html = client.post(f"/t/{token}/hands/new", data=data, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "Another arrangement" not in html
    for alt in ("2:1", "2:2"):  # an old form asking for another arrangement gets the engine's
        html = client.post(f"/t/{token}/hands/new", data={**data, "alt": alt}, headers={"HX-Request": "true"})
        assert "Another arrangement" not in html.get_data(as_text=True)
    enter_cards(client, token, 1, CARLAS_TENS, extra={"c2": "1"})
    assert totals(client, token) == [18, 1, 25]


def test_edit_a_hand_entered_with_cards(client, app):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    enter_cards(client, token, 0, GERMAN)
    html = client.get(f"/t/{token}/hands/1/edit").get_data(as_text=True)
    assert checked_cards(html, "h1") == sorted(["5b", "5c", "5e", "4o", "12o", "2c", "1c"])
    assert checked_cards(html, "h0") == sorted(["11c", "11e", "11b", "5o", "6o", "7o", "3c", "12e"])
    enter_cards(client, token, 0, {**GERMAN, 2: "2e 3b 6c 7b 10e 12c 1b"}, number=1)
    assert totals(client, token) == [3, 13, 37]
    assert client.get(f"/t/{token}/hands/9/edit").status_code == 404


def test_history_grid_chart_and_csv(client):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    enter_points(client, token, 0, {0: 3, 1: 10, 2: 20})
    enter_points(client, token, 1, {0: 30, 1: -10, 2: 20})
    html = client.get(f"/t/{token}/history").get_data(as_text=True)
    assert "<polyline" in html and html.count("<polyline") == 3
    csv = client.get(f"/t/{token}/history.csv").get_data().decode("utf-8-sig").splitlines()
    assert csv[1:] == [
        "1,Ana,3,3,no,no,,,Ana",
        "1,Ben,10,10,no,no,,,Ana",
        "1,Carla,20,20,no,no,,,Ana",
        "2,Ana,30,33,no,no,,,Ben",
        "2,Ben,-10,0,no,no,,all seven combined,Ben",
        "2,Carla,20,40,no,no,,,Ben",
    ]


def test_qr_code_is_an_svg_of_the_player_link(client, app):
    token = create_table(client, ["Ana", "Ben"])
    response = client.get(f"/t/{token}/qr.svg")
    assert response.mimetype == "image/svg+xml" and response.get_data(as_text=True).startswith("<svg")


def test_dealer_rotates_in_play_order_among_players_still_in(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla", "Dani"], first_dealer="2")
    assert "Carla deals" in client.get(f"/t/{token}").get_data(as_text=True)
    enter_points(client, token, 1, {0: 60, 1: 3, 2: 20, 3: 50})
    assert "Dani deals" in client.get(f"/t/{token}").get_data(as_text=True)
    enter_points(client, token, 1, {0: 41, 1: 3, 2: 20, 3: 5})
    # Ana is out at 101: who deals waits on her buy-back (she would deal if she came back)
    assert " deals" not in client.get(f"/t/{token}").get_data(as_text=True)
    decide_reentry(client, token, 0, buy=False)
    assert "Ben deals" in client.get(f"/t/{token}").get_data(as_text=True)  # Ana is out: skipped


def test_dealer_after_a_buy_back_is_the_player_who_came_back(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla", "Dani"], first_dealer="2")
    enter_points(client, token, 1, {0: 60, 1: 3, 2: 20, 3: 50})
    enter_points(client, token, 1, {0: 41, 1: 3, 2: 20, 3: 5})
    decide_reentry(client, token, 0, buy=True)
    assert "Ana deals" in client.get(f"/t/{token}").get_data(as_text=True)


def test_security_headers(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert not re.search(r"<script(?![^>]*\bsrc=)", response.get_data(as_text=True))  # no inline scripts


def test_token_links_carry_128_bits(client, app):
    token = create_table(client, ["Ana", "Ben"])
    table = table_of(app, token)
    for t in (table.owner_token, table.player_token, table.watch_token):
        assert len(t) >= 22  # 16 random bytes, url-safe base64
    assert len({table.owner_token, table.player_token, table.watch_token}) == 3


def test_the_history_offers_each_hand_to_edit_in_plain_words(client):
    """English says "Edit" (the verb "Correct" read as "right"); the Spanish "Corregir" stays."""
    token = create_table(client, ["Ana", "Ben"])
    enter_points(client, token, 0, {0: 2, 1: 13})
    html = client.get(f"/t/{token}/history").get_data(as_text=True)
    assert f'href="/t/{token}/hands/1/edit" aria-label="Correct hand 1">Edit</a>' in html
    client.set_cookie("lang", "es")
    html = client.get(f"/t/{token}/history").get_data(as_text=True)
    assert ">Corregir</a>" in html
