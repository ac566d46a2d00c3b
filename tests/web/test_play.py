"""Digital play in the browser's place: hot-seat, a link per seat, computer players."""

from __future__ import annotations

import re

import pytest

from companion.bots import GoodBot, seat_view
from companion.extensions import db
from companion.models import Deal, GameTable, Hand, Player
from companion.rules import parse_card
from companion.rules.game import HandGame, Phase

from .helpers import csrf, field, totals


def new_game(client, players, mode="hotseat", preset="classic"):
    data = {
        "csrf_token": csrf(client, "/play/new"),
        "mode": mode,
        "preset": preset,
        "first_dealer": "0",
        "target": "100",
        "jokers": "0",
        "suit_style": "spanish",
    }
    for i, (name, kind) in enumerate(players):
        data[f"players-{i}"] = name
        data[f"kinds-{i}"] = kind
    return client.post("/play/new", data=data)


def snapshot(app, token):
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=token).one()
        deal = db.session.query(Deal).filter_by(table_id=table.id).order_by(Deal.id.desc()).first()
        game = HandGame.from_dict(deal.state, table.rules)
        return table.id, deal.seats, deal.version, game


def test_only_people_can_start_a_game(client, app):
    response = new_game(client, [("Bot", "good"), ("Bot2", "simple")])
    assert response.status_code == 400 and "must be a person" in response.get_data(as_text=True)


def test_hotseat_hides_the_cards_until_the_player_takes_the_phone(client, app):
    response = new_game(client, [("Ana", "human"), ("Ben", "human"), ("Robo", "good")])
    token = response.headers["Location"].split("/")[2]
    _, seats, version, game = snapshot(app, token)
    page = client.get(f"/t/{token}/play").get_data(as_text=True)
    mover = ["Ana", "Ben", "Robo"][seats[game.turn]]
    assert f"Pass the phone to {mover}" in page
    assert 'name="card"' not in page and 'value="stock"' not in page
    shown = client.get(f"/t/{token}/play?show={version}").get_data(as_text=True)
    assert 'value="stock"' in shown
    assert "Pass the phone" in client.get(f"/t/{token}/play?show={version - 1}").get_data(as_text=True)


def play_turn(client, app, url, token, *, close=True):
    """The person to move draws from the stock, then closes if they can, else discards."""
    _, _seats, version, _game = snapshot(app, token)
    client.post(url, data={"csrf_token": csrf(client), "version": version, "action": "stock"})
    _, _seats, version, game = snapshot(app, token)
    if game.phase != "discard":
        return game
    hand = game.hands[game.turn]
    if close:
        for card in hand:
            if game.can_close(game.turn, card):
                client.post(
                    url, data={"csrf_token": csrf(client), "version": version, "action": "close", "card": str(card)}
                )
                return snapshot(app, token)[3]
    client.post(url, data={"csrf_token": csrf(client), "version": version, "action": "discard", "card": str(max(hand))})
    return snapshot(app, token)[3]


def play_like_a_bot(client, app, url, token):
    """The person to move plays what the good computer player would, through the forms."""
    _, _seats, version, game = snapshot(app, token)
    bot = GoodBot()
    source = bot.choose_draw(seat_view(game, game.turn))
    client.post(
        url,
        data={
            "csrf_token": csrf(client),
            "version": version,
            "action": "stock" if source == "stock" else "discard_pile",
        },
    )
    _, _seats, version, game = snapshot(app, token)
    card, close = bot.choose_end(seat_view(game, game.turn))
    action = "close" if close else "discard"
    client.post(url, data={"csrf_token": csrf(client), "version": version, "action": action, "card": str(card)})
    return snapshot(app, token)[3]


def test_a_whole_hotseat_hand_lands_in_the_scoreboard(client, app):
    token = new_game(client, [("Ana", "human"), ("Ben", "human")]).headers["Location"].split("/")[2]
    for _ in range(400):
        game = play_like_a_bot(client, app, f"/t/{token}/play", token)
        if game.phase == "over":
            break
    assert game.phase == "over"
    with app.app_context():
        hands = db.session.query(Hand).all()
        if game.closer is not None:
            assert len(hands) == 1 and hands[0].mode == "cards"
            assert totals(client, token) == [e.points for e in sorted(hands[0].entries, key=lambda e: e.seat)]
    page = client.get(f"/t/{token}/play").get_data(as_text=True)
    assert "Deal the next hand" in page
    _, _, version, _ = snapshot(app, token)
    client.post(f"/t/{token}/play", data={"csrf_token": csrf(client), "version": version, "action": "next"})
    _, _, _, fresh = snapshot(app, token)
    assert fresh.phase == "draw" and all(len(h) == 7 for h in fresh.hands)


@pytest.mark.parametrize(
    "form,message",
    [
        ({"action": "discard", "card": "1o"}, "Draw first."),
        ({"action": "close", "card": "1o"}, "Draw first."),
        ({"action": "fly"}, "Unknown action"),
        ({"action": "stock", "version": "0"}, "too late"),
        ({"action": "stock", "version": "99999999999"}, "too late"),
    ],
)
def test_refused_moves_say_why_and_change_nothing(client, app, form, message):
    token = new_game(client, [("Ana", "human"), ("Ben", "human")]).headers["Location"].split("/")[2]
    _, _, version, before = snapshot(app, token)
    data = {"csrf_token": csrf(client), "version": str(version), **form}
    response = client.post(f"/t/{token}/play", data=data)
    assert message in client.get(response.headers["Location"]).get_data(as_text=True)
    _, _, version_after, after = snapshot(app, token)
    assert after.to_dict() == before.to_dict() and version_after == version


def test_drawing_twice_and_a_card_not_held(client, app):
    token = new_game(client, [("Ana", "human"), ("Ben", "human")]).headers["Location"].split("/")[2]
    _, _, version, game = snapshot(app, token)
    client.post(f"/t/{token}/play", data={"csrf_token": csrf(client), "version": version, "action": "stock"})
    _, _, version, game = snapshot(app, token)
    response = client.post(f"/t/{token}/play", data={"csrf_token": csrf(client), "version": version, "action": "stock"})
    assert "drawn already" in client.get(response.headers["Location"]).get_data(as_text=True)
    missing = next(c for c in game.rules.pack.cards() if c not in game.hands[game.turn])
    response = client.post(
        f"/t/{token}/play",
        data={"csrf_token": csrf(client), "version": version, "action": "discard", "card": str(missing)},
    )
    assert "not in your hand" in client.get(response.headers["Location"]).get_data(as_text=True)
    assert snapshot(app, token)[3].to_dict() == game.to_dict()


def hidden_cards(game, engine_seat):
    """Cards this seat must never see: the other hands and the stock."""
    secret = set(game.stock)
    for i, hand in enumerate(game.hands):
        if i != engine_seat:
            secret |= set(hand)
    return secret - set(game.discards)


def assert_no_secrets(html: str, game, engine_seat, rules):
    from companion.i18n import card_name  # noqa: F401 - names are checked through tokens and values

    for card in hidden_cards(game, engine_seat):
        token = str(card)
        assert f'value="{token}"' not in html and f'data-card="{token}"' not in html, token


def test_each_device_sees_only_its_own_cards(client, app):
    token = (
        new_game(client, [("Ana", "human"), ("Ben", "human"), ("Robo", "good")], mode="devices")
        .headers["Location"]
        .split("/")[2]
    )
    with app.app_context():
        links = {p.name: p.seat_token for p in db.session.query(Player).all() if p.seat_token}
    assert set(links) == {"Ana", "Ben"}
    assert "their link" in client.get(f"/t/{token}/play").get_data(as_text=True)
    with client.get(f"/s/{links['Ana']}/qr.svg") as qr:
        assert qr.mimetype == "image/svg+xml"
    for _round in range(6):
        _, seats, version, game = snapshot(app, token)
        if game.phase == "over":
            break
        for name, seat_token in links.items():
            engine_seat = seats.index(["Ana", "Ben", "Robo"].index(name))
            html = client.get(f"/s/{seat_token}").get_data(as_text=True)
            assert_no_secrets(html, game, engine_seat, game.rules)
            for card in game.hands[engine_seat]:
                assert f">{card_label(card)}<" in html or str(card) in html
        mover = ["Ana", "Ben", "Robo"][seats[game.turn]]
        url = f"/s/{links[mover]}"
        # Another seat cannot move for the player whose turn it is.
        other = links["Ben" if mover == "Ana" else "Ana"]
        response = client.post(f"/s/{other}", data={"csrf_token": csrf(client), "version": version, "action": "stock"})
        assert "not your turn" in client.get(response.headers["Location"]).get_data(as_text=True)
        play_turn(client, app, url, token, close=False)


def card_label(card):
    return str(card.rank)


def test_polling_costs_nothing_when_nothing_changed(client, app):
    new_game(client, [("Ana", "human"), ("Ben", "human")], mode="devices").headers["Location"].split("/")[2]
    with app.app_context():
        seat_token = db.session.query(Player).filter_by(name="Ana").one().seat_token
        deal = db.session.query(Deal).one()
        marker = f"{deal.id}.{deal.version}"
    response = client.get(f"/s/{seat_token}/poll?v={marker}")
    assert response.status_code == 204 and response.get_data() == b""
    changed = client.get(f"/s/{seat_token}/poll?v=0.0", headers={"HX-Request": "true", "HX-Target": "board"})
    html = changed.get_data(as_text=True)
    assert changed.status_code == 200 and 'id="board"' in html and "<html" not in html
    assert client.get("/s/not-a-seat").status_code == 404


def test_digital_tables_take_no_hands_by_hand(client, app):
    token = new_game(client, [("Ana", "human"), ("Ben", "human")]).headers["Location"].split("/")[2]
    assert client.get(f"/t/{token}/hands/new").status_code == 403
    assert client.post(f"/t/{token}/undo", data={"csrf_token": csrf(client), "version": "1"}).status_code == 403
    assert "Back to the game" in client.get(f"/t/{token}").get_data(as_text=True)


def test_bots_move_on_the_server(client, app):
    token = new_game(client, [("Robo", "good"), ("Ana", "human"), ("Simp", "simple")]).headers["Location"].split("/")[2]
    _, seats, _version, game = snapshot(app, token)
    assert game.phase == "over" or ["Robo", "Ana", "Simp"][seats[game.turn]] == "Ana"
    assert parse_card("1o")  # the engine's parser is what the forms use
    assert re.search("Hand 1", client.get(f"/t/{token}/play").get_data(as_text=True))
    assert field(client.get("/play/new").get_data(as_text=True), "csrf_token")


def test_a_stale_move_from_a_second_phone_is_refused(client, app):
    token = new_game(client, [("Ana", "human"), ("Ben", "human")]).headers["Location"].split("/")[2]
    _, _, old, _ = snapshot(app, token)
    client.post(f"/t/{token}/play", data={"csrf_token": csrf(client), "version": old, "action": "stock"})
    _, _, _version, game = snapshot(app, token)
    response = client.post(
        f"/t/{token}/play",
        data={"csrf_token": csrf(client), "version": old, "action": "discard", "card": str(game.hands[game.turn][0])},
    )
    assert "too late" in client.get(response.headers["Location"]).get_data(as_text=True)
    assert snapshot(app, token)[3].to_dict() == game.to_dict()


def test_after_a_close_a_player_may_show_another_arrangement(client, app):
    """The SPEC §5 tie example: Ben scores 15 either way; his other arrangement
    lets Carla lay off the ace of espadas (38 → 37)."""
    from companion.rules import parse_cards

    token = new_game(client, [("Ana", "human"), ("Ben", "human"), ("Carla", "human")]).headers["Location"].split("/")[2]
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=token).one()
        deal = db.session.query(Deal).one()
        game = HandGame(
            rules=table.rules,
            dealer=2,
            hands=[
                parse_cards("5b 7o 2o 7c 4b 7b 3b 1c"),
                parse_cards("3o 4e 1o 3e 2e 3c 10b"),
                parse_cards("5c 4o 1e 10c 12e 11e 1b"),
            ],
            stock=parse_cards("6o 6c"),
            discards=parse_cards("10o"),
            turn=0,
            phase=Phase.DISCARD,
            turns_taken=3,
        )
        deal.seats = [0, 1, 2]
        deal.state = game.to_dict()
        db.session.commit()
        version = deal.version
    client.post(
        f"/t/{token}/play", data={"csrf_token": csrf(client), "version": version, "action": "close", "card": "2o"}
    )
    assert totals(client, token) == [1, 15, 38]
    page = client.get(f"/t/{token}/play").get_data(as_text=True)
    assert "(1 of 2)" in page
    _, _, version, _ = snapshot(app, token)
    client.post(
        f"/t/{token}/play",
        data={"csrf_token": csrf(client), "version": version, "action": "alt", "seat": "1", "pick": "1"},
    )
    assert totals(client, token) == [1, 15, 37]
    assert "(2 of 2)" in client.get(f"/t/{token}/play").get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Hand).count() == 2  # the first version stays in the history
