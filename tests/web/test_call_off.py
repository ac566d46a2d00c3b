"""#38: before anybody has moved, a hand can be called off without a record
(a phone that never came): nothing of it shows, and the same dealer deals
again when the table is ready.  Once anybody moved, stopping it voids it."""

from __future__ import annotations

from companion.extensions import db
from companion.models import Deal, GameTable, Hand

from .test_clock import the_deal
from .test_play import new_game, post, snapshot
from .test_seats import PEOPLE, links_of

NAMES = [name for name, _kind in PEOPLE]


def dealer_of(app, token) -> str:
    _id, deal_seats, _version, game = snapshot(app, token)
    return NAMES[deal_seats[game.dealer]]


def test_a_hand_nobody_moved_in_is_called_off_and_dealt_again_by_the_same_dealer(client, app):
    token = new_game(client, PEOPLE, mode="devices").headers["Location"].split("/")[2]
    dealer = dealer_of(app, token)
    first = the_deal(app, token)
    html = client.get(f"/t/{token}/play").get_data(as_text=True)
    assert "Waiting for a phone that never came? Call off this hand…" in html
    html = client.get(f"/t/{token}/play?void=1").get_data(as_text=True)
    assert "Nobody has moved yet." in html
    assert f"nothing of it is recorded, and {dealer} deals it again when you are ready." in html
    response = post(client, f"/t/{token}/play", action="void", deal=first.id, version=first.version)
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Hand 1 was called off." in page and f"{dealer} deals it again" in page
    assert "void" not in page.lower().replace("void-hand", "")  # never read as a void hand
    assert "Review this hand" not in page
    _links, seats = links_of(app, token)
    assert "Hand 1 was called off." in client.get(f"/s/{seats['Ben']}").get_data(as_text=True)
    called_off = the_deal(app, token)
    assert called_off.called_off
    assert client.get(f"/t/{token}/review/1").status_code == 404  # nothing to review: no record
    post(client, f"/t/{token}/play", action="next", deal=called_off.id, version=called_off.version)
    again = the_deal(app, token)
    assert again.id != called_off.id and again.number == 1 and not again.called_off
    assert dealer_of(app, token) == dealer
    assert again.state["hands"] != first.state["hands"]  # a new shuffle
    with app.app_context():
        assert db.session.query(Hand).count() == 0


def test_once_anybody_moved_stopping_the_hand_voids_it(client, app):
    token = new_game(client, PEOPLE, mode="devices").headers["Location"].split("/")[2]
    _links, seats = links_of(app, token)
    _id, deal_seats, version, game = snapshot(app, token)
    post(client, f"/s/{seats[NAMES[deal_seats[game.turn]]]}", version=version, action="stock")
    html = client.get(f"/t/{token}/play?void=1").get_data(as_text=True)
    assert "Nobody scores this hand." in html and "Call off" not in html
    deal = the_deal(app, token)
    post(client, f"/t/{token}/play", action="void", deal=deal.id, version=deal.version)
    stopped = the_deal(app, token)
    assert stopped.state["void"] and not stopped.called_off
    assert "This hand is void: nobody scores." in client.get(f"/t/{token}/play").get_data(as_text=True)


def test_a_seat_phone_cannot_call_off_a_hand(client, app):
    token = new_game(client, PEOPLE, mode="devices").headers["Location"].split("/")[2]
    _links, seats = links_of(app, token)
    deal = the_deal(app, token)
    response = post(client, f"/s/{seats['Ana']}", action="void", deal=deal.id, version=deal.version)
    assert response.status_code == 403
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=token).one()
        assert not db.session.query(Deal).filter_by(table_id=table.id).one().called_off


def test_a_seats_scoreboard_is_read_only_and_leads_back_to_its_cards(client, app):
    """#38: a seat's phone that opened the scoreboard reached only the
    read-only game, with no way back to its cards but the browser's history."""
    token = new_game(client, PEOPLE, mode="devices").headers["Location"].split("/")[2]
    links, seats = links_of(app, token)
    board = client.get(f"/s/{seats['Ben']}").get_data(as_text=True)
    assert f'href="/s/{seats["Ben"]}/scoreboard"' in board
    html = client.get(f"/s/{seats['Ben']}/scoreboard").get_data(as_text=True)
    assert f'href="/s/{seats["Ben"]}">Back to your cards</a>' in html and "Read only" in html
    assert links["player"] not in html and links["owner"] not in html  # never a higher link
    poll = f"/s/{seats['Ben']}/scoreboard?since="
    assert poll in html.replace("&amp;", "&")
    version = html.replace("&amp;", "&").split(poll)[1].split('"')[0]
    assert client.get(poll + version).status_code == 204
    assert client.get("/s/not-a-seat/scoreboard").status_code == 404


def test_a_called_off_hand_keeps_its_dealer_on_the_scoreboard(client, app):
    token = new_game(client, PEOPLE, mode="devices").headers["Location"].split("/")[2]
    links, _seats = links_of(app, token)
    dealer = dealer_of(app, token)
    assert f"Hand 1 · {dealer} deals" in client.get(f"/t/{links['watch']}").get_data(as_text=True)
    deal = the_deal(app, token)
    post(client, f"/t/{token}/play", action="void", deal=deal.id, version=deal.version)
    assert f"Hand 1 · {dealer} deals" in client.get(f"/t/{links['watch']}").get_data(as_text=True)
