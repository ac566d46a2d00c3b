"""SPEC §4: a player who went out buys back in "right after the hand in which
they went out, and before the next hand".  The next hand waits for the
decision of every eligible player, asked where the players are (#22: the
offer vanished when the next hand was saved)."""

from __future__ import annotations

import re

from companion.extensions import db
from companion.models import Deal, GameTable, Reentry
from companion.rules import parse_cards
from companion.rules.game import HandGame

from .helpers import create_table, csrf, decide_reentry, enter_points, field, hand_count, table_of, totals

FOUR = ["Ana", "Ben", "Carla", "Dani"]


def dani_goes_out(client):
    token = create_table(client, FOUR)
    enter_points(client, token, 0, {0: 2, 1: 10, 2: 20, 3: 60})
    enter_points(client, token, 1, {0: 5, 1: 1, 2: 7, 3: 45})  # Dani 105: out, may buy back in at 27
    return token


def test_the_next_hand_waits_for_the_reentry_decision(client, app):
    token = dani_goes_out(client)
    response = enter_points(client, token, 2, {0: 5, 1: 3, 2: 1}, expect=400)
    assert "First decide whether Dani buys back in." in response.get_data(as_text=True)
    assert hand_count(app) == 2
    with app.app_context():
        assert db.session.query(Reentry).count() == 0


def test_the_hand_page_asks_the_question_naming_the_player(client, app):
    token = dani_goes_out(client)
    html = client.get(f"/t/{token}/hands/new?closer=2").get_data(as_text=True)
    assert "Dani is out. Buy back in at 27 points?" in html
    assert "Dani buys back in" in html and "No, Dani stays out" in html
    form = re.search(r'<form method="post" action="/t/[^"]+/reentry".*?</form>', html, re.S).group(0)
    assert 'name="back" value="hand"' in form
    response = client.post(
        f"/t/{token}/reentry",
        data={
            "csrf_token": field(form, "csrf_token"),
            "version": field(form, "version"),
            "seat": field(form, "seat"),
            "submission": field(form, "submission"),
            "back": "hand",
            "decision": "yes",
        },
    )
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{token}/hands/new")
    assert totals(client, token) == [7, 11, 27, 27]


def test_saying_no_lets_the_next_hand_be_saved_and_undo_asks_again(client, app):
    token = dani_goes_out(client)
    decide_reentry(client, token, 3, buy=False)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "Dani stays out." in html and "No, Dani stays out" not in html
    enter_points(client, token, 2, {0: 5, 1: 3, 2: 1})
    assert totals(client, token) == [12, 14, 28, 105]
    assert decide_reentry(client, token, 3, buy=True).status_code == 303  # too late now: refused, nothing stored
    with app.app_context():
        assert db.session.query(Reentry).filter_by(declined=False).count() == 0
    undo = lambda: client.post(  # noqa: E731
        f"/t/{token}/undo", data={"csrf_token": csrf(client, f"/t/{token}"), "version": table_of(app, token).version}
    )
    undo()  # the second hand
    undo()  # the "no"
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "No, Dani stays out" in html
    assert "First decide whether Dani buys back in." in enter_points(
        client, token, 1, {0: 5, 1: 0, 2: 7}, expect=400
    ).get_data(as_text=True)


def test_a_no_is_recorded_once(client, app):
    token = dani_goes_out(client)
    decide_reentry(client, token, 3, buy=False)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert 'name="decision"' not in html
    with app.app_context():
        assert db.session.query(Reentry).filter_by(declined=True).count() == 1


def test_the_refusal_is_in_the_pages_language(client, app):
    token = dani_goes_out(client)
    client.set_cookie("lang", "es")
    text = enter_points(client, token, 2, {0: 5, 1: 3, 2: 1}, expect=400).get_data(as_text=True)
    assert "Antes decidid si Dani se reengancha." in text
    client.set_cookie("lang", "es_AR")
    text = enter_points(client, token, 2, {0: 5, 1: 3, 2: 1}, expect=400).get_data(as_text=True)
    assert "Antes decidan si Dani se reengancha." in text


# -- digital play ------------------------------------------------------------------------------------
def dani_goes_over(app, table_id: int) -> int:
    """Rig the deal in play: Ana (seat 0) is to discard and closes with 12b;
    Dani (seat 3) holds only high cards and goes over the target.  Returns
    the deal's version."""
    with app.app_context():
        table = db.session.get(GameTable, table_id)
        deal = db.session.query(Deal).filter_by(table_id=table.id).one()
        game = HandGame(
            rules=table.rules,
            dealer=3,
            hands=[
                parse_cards("1o 2o 3o 1c 1e 1b 4b 12b"),
                parse_cards("2c 3c 4c 5e 6e 7e 2b"),
                parse_cards("2e 3e 4e 5c 6c 7c 3b"),
                parse_cards("12c 11e 10b 7b 12o 11b 10e"),
            ],
            stock=parse_cards("6o 7o"),
            discards=parse_cards("10o"),
            turn=0,
            turns_taken=4,
        )
        deal.seats, deal.state = [0, 1, 2, 3], game.to_dict()
        db.session.commit()
        return deal.version


def dani_out_in_a_digital_game(client, app, mode="hotseat", dani="human", **house):
    """Ana closes; Dani holds only high cards and goes over the target of 15
    (``house``: more fields of the new-game form, e.g. ``reentries="0"``)."""
    data = {
        "csrf_token": csrf(client, "/play/new"),
        "mode": mode,
        "preset": "classic",
        "first_dealer": "0",
        "target": "15",
        "jokers": "0",
        "suit_style": "spanish",
        **house,
    }
    for i, (name, kind) in enumerate([("Ana", "human"), ("Ben", "human"), ("Carla", "human"), ("Dani", dani)]):
        data |= {f"players-{i}": name, f"kinds-{i}": kind}
    token = client.post("/play/new", data=data).headers["Location"].split("/")[2]
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=token).one()
        table_id, ana = table.id, table.players[0].seat_token
    version = dani_goes_over(app, table_id)
    url = f"/s/{ana}" if mode == "devices" else f"/t/{token}/play"
    client.post(url, data={"csrf_token": csrf(client), "version": version, "action": "close", "card": "12b"})
    return token


def test_a_digital_deal_waits_for_the_reentry_decision(client, app):
    token = dani_out_in_a_digital_game(client, app)
    html = client.get(f"/t/{token}/play").get_data(as_text=True)
    assert "Dani is out. Buy back in at" in html and "No, Dani stays out" in html
    assert 'value="next"' not in html  # no "Deal the next hand" before the decision
    with app.app_context():
        deal = db.session.query(Deal).order_by(Deal.id.desc()).first()
        deal_id, version = deal.id, deal.version
    client.post(
        f"/t/{token}/play", data={"csrf_token": csrf(client), "version": version, "deal": deal_id, "action": "next"}
    )
    with app.app_context():
        assert db.session.query(Deal).count() == 1  # refused: nothing dealt
    form = re.search(r'<form method="post" action="(/t/[^"]+/play/reentry)".*?</form>', html, re.S)
    response = client.post(
        form.group(1),
        data={
            "csrf_token": csrf(client),
            "version": field(form.group(0), "version"),
            "seat": "3",
            "submission": field(form.group(0), "submission"),
            "decision": "no",
        },
    )
    assert response.status_code == 303
    html = client.get(f"/t/{token}/play").get_data(as_text=True)
    assert "Dani stays out." in html and 'value="next"' in html
    client.post(
        f"/t/{token}/play", data={"csrf_token": csrf(client), "version": version, "deal": deal_id, "action": "next"}
    )
    with app.app_context():
        new = db.session.query(Deal).order_by(Deal.id.desc()).first()
        assert db.session.query(Deal).count() == 2 and new.seats == [0, 1, 2]


def test_spec_4_a_computer_player_answers_buy_back_in_itself(client, app):
    """#38 (a tryout of #26 asked a person to decide for Bea, a computer
    player): Dani, a computer player, goes over 15 in hand 1 and answers at
    once, as the expert would (no stake: buying back costs nothing); nobody
    is asked, and the next hand can be dealt."""
    token = dani_out_in_a_digital_game(client, app, dani="good")
    html = client.get(f"/t/{token}/play").get_data(as_text=True)
    assert "Dani is out. Buy back in at" not in html and "Waiting for Dani" not in html
    assert "Deal the next hand" in html
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=token).one()
        assert [(r.seat, r.declined, r.decided_by, r.after_hand) for r in table.reentries] == [(3, False, "Dani", 1)]
    person = dani_out_in_a_digital_game(client, app)
    assert "Dani is out. Buy back in at" in client.get(f"/t/{person}/play").get_data(as_text=True)


def test_a_seat_link_decides_only_for_its_own_seat(client, app):
    token = dani_out_in_a_digital_game(client, app, mode="devices")
    with app.app_context():
        seats = {p.name: p.seat_token for p in db.session.query(GameTable).filter_by(owner_token=token).one().players}
    assert "No, Dani stays out" not in client.get(f"/s/{seats['Ben']}").get_data(as_text=True)
    assert "Waiting for Dani to decide whether to buy back in." in client.get(f"/s/{seats['Ben']}").get_data(
        as_text=True
    )
    html = client.get(f"/s/{seats['Dani']}").get_data(as_text=True)
    assert "No, Dani stays out" in html
    decision = {
        "csrf_token": csrf(client),
        "version": field(html, "version"),
        "seat": "3",
        "submission": field(html, "submission"),
        "decision": "no",
    }
    assert client.post(f"/s/{seats['Ben']}/reentry", data=decision).status_code == 403
    assert client.post(f"/s/{seats['Dani']}/reentry", data=decision).status_code == 303
    with app.app_context():
        assert [(r.seat, r.declined) for r in db.session.query(Reentry)] == [(3, True)]


def test_who_deals_is_not_shown_until_the_buy_back_is_decided(client, app):
    """Found by a tryout (#36): the scoreboard said "Hand 4 · Ana deals" while
    Dani's buy-back was still open, though Dani deals hand 4 if she buys back
    in (SPEC §6: the deal passes to the next player still in play)."""
    shown = {}
    for buys in (True, False):
        token = create_table(client, FOUR)
        enter_points(client, token, 0, {0: 2, 1: 10, 2: 20, 3: 40})
        enter_points(client, token, 1, {0: 5, 1: 1, 2: 7, 3: 40})
        enter_points(client, token, 2, {0: 3, 1: 4, 2: 1, 3: 30})  # Carla dealt hand 3; Dani 110: out
        html = client.get(f"/t/{token}").get_data(as_text=True)
        assert re.search(r'<p class="status">Hand 4</p>', html), html
        assert "badge dealer" not in html
        decide_reentry(client, token, 3, buy=buys)
        html = client.get(f"/t/{token}").get_data(as_text=True)
        shown[buys] = re.search(r'<p class="status">Hand 4 · (\w+) deals</p>', html).group(1)
        assert re.search(rf'<span class="name">{shown[buys]}\s(?:(?!</li>).)*badge dealer', html, re.S)
    assert shown == {True: "Dani", False: "Ana"}
