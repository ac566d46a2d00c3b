"""The advisor in digital play (issue #14): a hint for the seat to move, from
that seat's view only, written into the hand's moves and the history, and a
table option that turns hints off."""

from __future__ import annotations

import re

from companion.bots import seat_view
from companion.bots.advice import hint
from companion.extensions import db
from companion.models import Deal, GameTable
from companion.rules import parse_cards

from ..positions import fixed
from .test_play import links_of, post, rules_of, set_deal, snapshot
from .test_play import new_game as play_game


def new_game(client, players, *, hints=True, mode="devices"):
    response = play_game(client, players, mode, **({"hints": "y"} if hints else {}))
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].split("/")[2]


def position(rules):
    """Ana (seat 0) to draw, the 7 de espadas on the pile."""
    return fixed(
        ["11c 11e 11b 5o 6o 3c 12e", "5c 4e 1o 3e 2e 10c 10b"],
        "7o 1c 2c 4c 6c 7c 10o 12o 1b 2b 3b 4b 5b 6b 7b 10e 12b 1e 12c",
        "4o 7e",
        rules=rules,
        turns_taken=2,
    )


def pages(client, links):
    return {name: client.get(f"/s/{t}").get_data(as_text=True) for name, t in links.items()}


def hint_rows(html):
    table = re.search(r'<table class="odds">.*?</table>', html, re.S)
    assert table, "no hint table"
    rows = re.findall(r"<tr(?: class=\"best\")?>\s*<th scope=\"row\">(.*?)</th>(.*?)</tr>", table.group(0), re.S)
    out = []
    for head, cells in rows:
        text = re.sub(r"<[^>]+>", "", head).split()
        out.append((" ".join(text), re.findall(r"<td[^>]*>(.*?)</td>", cells, re.S)))
    return out


def test_a_hint_shows_the_odds_the_advisor_gives_for_that_seats_view(client, app):
    token = new_game(client, [("Ana", "human"), ("Ben", "human")])
    _, seats = links_of(app, token)
    set_deal(app, token, position(rules_of(app, token)), seats=[0, 1])
    deal_id, version = set_deal(app, token, position(rules_of(app, token)))
    before = pages(client, seats)
    assert "Hint: show the odds" in before["Ana"] and "Hint: show the odds" not in before["Ben"]

    response = post(client, f"/s/{seats['Ana']}", version=version, action="hint")
    assert response.status_code == 303 and response.headers["Location"].endswith("#hint")
    after = pages(client, seats)
    _, _, new_version, game = snapshot(app, token)
    assert new_version == version + 1  # every phone's next poll shows that Ana asked
    expected = hint(seat_view(game, 0), seed=deal_id * 1000 + len(game.log))
    shown = hint_rows(after["Ana"])
    assert len(shown) == len(expected.rows) == 2  # draw from the stock, or take the 7 de espadas
    assert shown[0][0].startswith("best") and "odds" not in after["Ben"]
    for (label, cells), row in zip(shown, expected.rows, strict=True):
        assert ("Draw from the stock" in label) == (row.move == "stock")
        assert cells[0] == f"{round(row.close_next * 100)}%"
        assert cells[1] == f"{round(row.close_within_3 * 100)}%"
    assert "Ana asked for a hint." in after["Ben"]


def test_the_hint_comes_from_the_seats_view_only(client, app):
    """Two positions that differ only in the cards hidden from Ana (Ben's hand
    and the stock's order) give Ana the same hint."""
    token = new_game(client, [("Ana", "human"), ("Ben", "human")])
    _, seats = links_of(app, token)
    rules = rules_of(app, token)
    game = position(rules)
    other = position(rules)
    other.hands[1], other.stock = other.stock[:7], [*other.hands[1], *other.stock[7:]]
    tables = []
    for g in (game, other):
        deal_id, version = set_deal(app, token, g, seats=[0, 1])
        post(client, f"/s/{seats['Ana']}", version=version, action="hint")
        tables.append(hint_rows(client.get(f"/s/{seats['Ana']}").get_data(as_text=True)))
        with app.app_context():
            db.session.get(Deal, deal_id).hints = None
            db.session.commit()
    assert tables[0] == tables[1]


def test_asked_hints_are_in_the_moves_and_the_history(client, app):
    token = new_game(client, [("Ana", "human"), ("Ben", "human")])
    owner_links, seats = links_of(app, token)
    deal_id, version = set_deal(app, token, position(rules_of(app, token)), seats=[0, 1])
    post(client, f"/s/{seats['Ana']}", version=version, action="hint")
    post(client, f"/s/{seats['Ana']}", version=version + 1, action="hint")  # asking again records nothing more
    _, _, version, _ = snapshot(app, token)
    post(client, f"/s/{seats['Ana']}", version=version, action="stock")
    _, _, version, game = snapshot(app, token)
    assert "(Asked for a hint.)" in client.get(f"/s/{seats['Ben']}").get_data(as_text=True)
    post(client, f"/s/{seats['Ana']}", version=version, action="hint")  # after drawing: the discards' odds
    _, _, version, game = snapshot(app, token)
    rows = hint_rows(client.get(f"/s/{seats['Ana']}").get_data(as_text=True))
    assert len(rows) == len(set(game.hands[0]))
    closing = [c for c in set(game.hands[0]) if game.can_close(0, c)]
    card = closing[0] if closing else game.hands[0][0]
    post(client, f"/s/{seats['Ana']}", version=version, action="close" if closing else "discard", card=card)
    with app.app_context():
        assert len(db.session.get(Deal, deal_id).hints) == 2
    history = client.get(f"/t/{owner_links['watch']}/history").get_data(as_text=True)
    if not closing:  # close the hand from Ben's side so it reaches the history
        finish = position(rules_of(app, token))
        finish.hands[0] = parse_cards("11c 11e 11b 5o 6o 7o 12e 3c")
        finish.stock, finish.turns_taken = finish.stock[1:], 4
        with app.app_context():
            deal = db.session.get(Deal, deal_id)
            deal.state = finish.to_dict()
            db.session.commit()
            version = deal.version
        post(client, f"/s/{seats['Ana']}", version=version, action="close", card="12e")
        history = client.get(f"/t/{owner_links['watch']}/history").get_data(as_text=True)
    assert "Hints asked" in history and "Ana: 2 hints" in history


def test_hints_can_be_turned_off_for_a_rated_match(client, app):
    token = new_game(client, [("Ana", "human"), ("Ben", "human")], hints=False)
    _, seats = links_of(app, token)
    _, version = set_deal(app, token, position(rules_of(app, token)), seats=[0, 1])
    assert "Hint: show the odds" not in client.get(f"/s/{seats['Ana']}").get_data(as_text=True)
    response = post(client, f"/s/{seats['Ana']}", version=version, action="hint")
    assert "Hints are turned off at this table." in client.get(response.headers["Location"]).get_data(as_text=True)
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=token).one()
        assert not table.hints_allowed and db.session.query(Deal).one().hints is None
    assert snapshot(app, token)[2] == version


def test_only_the_seat_to_move_may_ask_and_stale_asks_are_refused(client, app):
    token = new_game(client, [("Ana", "human"), ("Ben", "human")])
    owner_links, seats = links_of(app, token)
    _, version = set_deal(app, token, position(rules_of(app, token)), seats=[0, 1])
    response = post(client, f"/s/{seats['Ben']}", version=version, action="hint")
    assert "It is not your turn." in client.get(response.headers["Location"]).get_data(as_text=True)
    response = post(client, f"/s/{seats['Ana']}", version=version - 1, action="hint")
    assert "too late" in client.get(response.headers["Location"]).get_data(as_text=True)
    for link in ("player", "watch"):  # a scorekeeping link never plays, nor asks
        assert post(client, f"/t/{owner_links[link]}/play", version=version, action="hint").status_code == 403
    with app.app_context():
        assert db.session.query(Deal).one().hints is None


def test_hotseat_hint_shows_on_the_shared_phone_with_the_cards(client, app):
    token = new_game(client, [("Ana", "human"), ("Ben", "human")], mode="hotseat")
    _, version = set_deal(app, token, position(rules_of(app, token)), seats=[0, 1])
    response = post(client, f"/t/{token}/play", version=version, action="hint")
    assert response.headers["Location"].endswith(f"?show={version + 1}#hint")
    page = client.get(response.headers["Location"].split("#")[0]).get_data(as_text=True)
    assert hint_rows(page)
    # After the phone is passed (the next move), nobody else sees Ana's hint.
    post(client, f"/t/{token}/play", version=version + 1, action="stock")
    _, _, version, game = snapshot(app, token)
    card = next(c for c in game.hands[0] if not game.can_close(0, c))
    post(client, f"/t/{token}/play", version=version, action="discard", card=card)
    page = client.get(f"/t/{token}/play?show={version + 1}").get_data(as_text=True)
    assert 'class="odds"' not in page and "Hint: show the odds" in page


def test_the_new_game_form_offers_hints_on_by_default(client):
    page = client.get("/play/new").get_data(as_text=True)
    assert re.search(r'name="hints" value="y" checked', page)


def test_export_keeps_the_hint_option_and_the_hints_asked(client, app, tmp_path):
    import json

    from companion import create_app

    token = new_game(client, [("Ana", "human"), ("Ben", "human")], hints=False)
    with app.app_context():
        deal = db.session.query(Deal).one()
        deal.hints = [{"seat": 0, "at": 0, "phase": "draw"}]
        db.session.commit()
    data = json.loads(app.test_cli_runner().invoke(args=["export"]).output)
    table = data["tables"][0]
    assert table["hints_allowed"] is False and table["play_mode"] == "devices"
    assert table["deals"][0]["hints"] == [{"seat": 0, "at": 0, "phase": "draw"}]
    for key in ("hints_allowed", "play_mode", "entry_mode"):  # an export made before these existed
        del table[key]
    dump = tmp_path / "old.json"
    dump.write_text(json.dumps(data))
    other = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'o.sqlite'}"})
    with other.app_context():
        db.create_all()
    assert "imported 1 table(s)" in other.test_cli_runner().invoke(args=["import", str(dump)]).output
    with other.app_context():
        imported = db.session.query(GameTable).filter_by(owner_token=token).one()
        assert imported.hints_allowed is True and imported.entry_mode == "cards"
        db.engine.dispose()


def test_a_garbled_hint_request_is_refused_and_records_nothing(client, app):
    token = new_game(client, [("Ana", "human"), ("Ben", "human")])
    _, seats = links_of(app, token)
    set_deal(app, token, position(rules_of(app, token)), seats=[0, 1])
    for version in ("", "abc", "-1", "99999999999999999999"):
        response = post(client, f"/s/{seats['Ana']}", version=version, action="hint")
        assert "too late" in client.get(response.headers["Location"]).get_data(as_text=True)
    response = post(client, f"/s/{seats['Ana']}", version=snapshot(app, token)[2], action="hints")
    assert "Unknown action." in client.get(response.headers["Location"]).get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Deal).one().hints is None
