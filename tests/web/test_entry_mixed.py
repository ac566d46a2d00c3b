"""Each player by cards or by points, mixed in one hand (issue 12)."""

from __future__ import annotations

import re

from companion.extensions import db
from companion.models import Entry, Hand

from .helpers import GERMAN, create_table, hand_count, hand_form, post_hand, totals


def test_the_closers_cards_and_the_others_points(client, app):
    """The German seed: Anna's cards are checked (3), Ben and Carla type theirs."""
    token = create_table(client, ["Anna", "Ben", "Carla"])
    post_hand(client, token, {"closer": "0", "h0": GERMAN[0].split(), "p1": "13", "p2": "46"})
    assert totals(client, token) == [3, 13, 46]
    with app.app_context():
        hand = db.session.query(Hand).one()
        anna = db.session.query(Entry).filter_by(seat=0).one()
        ben = db.session.query(Entry).filter_by(seat=1).one()
        assert hand.discard == "12e" and anna.cards.split() == GERMAN[0].split() and anna.points == 3
        assert ben.cards == "" and ben.points == 13


def test_cards_only_where_a_layoff_is_disputed(client):
    """Ben's cards are tapped: he lays off 4o onto Anna's run (13); Carla typed."""
    token = create_table(client, ["Anna", "Ben", "Carla"])
    post_hand(client, token, {"closer": "0", "h0": GERMAN[0].split(), "h1": GERMAN[1].split(), "p2": "40"})
    assert totals(client, token) == [3, 13, 40]


def test_an_illegal_close_by_cards_stores_nothing(client, app):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    response = post_hand(
        client,
        token,
        {"closer": "0", "h0": ["2o", "3o", "6o", "7o", "10o", "11o", "1e", "12e"], "p1": "5", "p2": "6"},
        expect=400,
    )
    assert "Anna cannot close." in response.get_data(as_text=True) and hand_count(app) == 0


def test_a_chinchon_needs_the_closers_cards_only(client, app):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    post_hand(client, token, {"closer": "1", "h1": ["1c", "2c", "3c", "4c", "5c", "6c", "7c", "12b"]})
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "Ben wins!" in html
    with app.app_context():
        assert db.session.query(Hand).one().wins_match


def test_the_closers_score_is_a_choice_so_no_minus_key_is_needed(client):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    html = client.get(f"/t/{token}/hands/new?closer=0").get_data(as_text=True)
    assert 'name="closer_score" value="-10"' in html and 'inputmode="tel"' in html
    assert "<span>−10</span>" in html and "<span>-10</span>" not in html  # shown with the minus sign of print
    post_hand(client, token, {"closer": "0", "closer_score": "-10", "p1": "10", "p2": "20"})
    assert totals(client, token) == [-10, 10, 20]


def test_the_closers_cards_must_come_with_a_disputed_layoff(client, app):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    response = post_hand(
        client, token, {"closer": "0", "closer_score": "3", "h1": GERMAN[1].split(), "p2": "46"}, expect=400
    )
    assert "Tap Anna&#39;s cards too" in response.get_data(as_text=True) and hand_count(app) == 0


def test_missing_points_are_named_and_nothing_is_stored(client, app):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    response = post_hand(client, token, {"closer": "0", "h0": GERMAN[0].split(), "p1": "13"}, expect=400)
    assert "Enter Carla&#39;s points." in response.get_data(as_text=True) and hand_count(app) == 0


def test_a_mixed_hand_is_corrected_player_by_player(client):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    post_hand(client, token, {"closer": "0", "h0": GERMAN[0].split(), "p1": "13", "p2": "46"})
    html = client.get(f"/t/{token}/hands/1/edit").get_data(as_text=True)
    assert 'name="p1" type="text" inputmode="tel" autocomplete="off" class="points" value="13"' in html
    data = hand_form(client, token, 1)
    data.update({"closer": "0", "h0": GERMAN[0].split(), "p1": "13", "p2": "30", "action": "save"})
    assert client.post(f"/t/{token}/hands/1/edit", data=data).status_code == 303
    assert totals(client, token) == [3, 13, 30]


def test_a_stale_save_keeps_the_second_phones_entry_to_save_as_the_next_hand(client, app):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    second = hand_form(client, token)  # the second phone opens hand 1 ...
    post_hand(client, token, {"closer": "1", "closer_score": "2", "p0": "10", "p2": "5"})  # ... the first saves it
    second.update({"closer": "0", "h0": GERMAN[0].split(), "p1": "13", "p2": "46", "action": "save"})
    response = client.post(f"/t/{token}/hands/new", data=second)
    html = response.get_data(as_text=True)
    assert response.status_code == 409 and hand_count(app) == 1
    assert html.index("Another phone saved hand 1") < html.index('<form id="hand-form"')  # above the form
    assert "Save hand 2" in html and "Saved as hand 1" in html and "the same hand: the same closer" not in html
    # Side by side: what the other phone saved (Ben closed) and this entry (Anna closed).
    cells = re.findall(r'<th scope="row">(\w+)</th>\s*<td><b>(.*?)</b>(\*?)</td>\s*<td><b>(.*?)</b>(\*?)</td>', html)
    assert cells == [("Anna", "10", "", "3", "*"), ("Ben", "2", "*", "13", ""), ("Carla", "5", "", "46", "")]
    assert re.search(r'class="pick" name="h0" value="11c"[^>]* checked', html)
    kept = {k: v for k, v in second.items()}
    kept["version"] = re.search(r'name="version" value="(\d+)"', html).group(1)
    assert client.post(f"/t/{token}/hands/new", data=kept).status_code == 303
    assert totals(client, token) == [13, 15, 51]


def test_the_table_remembers_how_the_others_were_entered(client, app):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    assert 'data-entry="cards"' in client.get(f"/t/{token}/hands/new").get_data(as_text=True)
    post_hand(client, token, {"closer": "0", "h0": GERMAN[0].split(), "p1": "13", "p2": "46"})
    assert 'data-entry="points"' in client.get(f"/t/{token}/hands/new").get_data(as_text=True)
    post_hand(client, token, {"closer": "0", "h0": GERMAN[0].split(), "h1": GERMAN[1].split(), "h2": GERMAN[2].split()})
    assert 'data-entry="cards"' in client.get(f"/t/{token}/hands/new").get_data(as_text=True)


def test_a_second_phone_entering_the_same_hand_is_told_so_and_offered_only_to_drop_it(client, app):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    second = hand_form(client, token)
    post_hand(client, token, {"closer": "0", "h0": GERMAN[0].split(), "p1": "13", "p2": "46"})
    second.update({"closer": "0", "closer_score": "3", "p1": "13", "p2": "46", "mode": "points", "action": "save"})
    response = client.post(f"/t/{token}/hands/new", data=second)
    html = response.get_data(as_text=True)
    assert response.status_code == 409 and hand_count(app) == 1
    assert "Your entry is the same hand: the same closer and the same points." in html
    assert 'value="save"' not in html and "Save hand 2" not in html and "Drop my entry" in html
    assert totals(client, token) == [3, 13, 46]
