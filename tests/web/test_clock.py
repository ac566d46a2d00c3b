"""#38: the turn clock.  Chosen on the form (off, relaxed, quick, with their
seconds stated), changed by the owner between hands, shown on every phone;
a turn whose time and reserve are spent is played by the computer for the
seat, and a seat whose phone is away then is handed to the computer.

Time moves by writing when the turn began, as the server stores it."""

from __future__ import annotations

import re
from datetime import timedelta

from companion.extensions import db
from companion.models import Deal, GameTable, TurnClock, now
from companion.services import clock as clocks
from companion.services import seats as seat_rules

from .helpers import csrf, field
from .test_play import new_game, post, snapshot
from .test_seats import PEOPLE, last_seen, links_of, player

QUICK = clocks.PACES[TurnClock.QUICK]
NAMES = [name for name, _kind in PEOPLE]


def clocked_game(client, app, clock="quick"):
    """Three phones on a clock; every phone has opened its seat.  Returns the
    owner token, the seat links and who moves first."""
    token = new_game(client, PEOPLE, mode="devices", clock=clock).headers["Location"].split("/")[2]
    client.delete_cookie("tables")  # the seats' phones never held the owner link
    _links, links = links_of(app, token)
    _id, deal_seats, _version, game = snapshot(app, token)
    for name in links:
        client.get(f"/s/{links[name]}")
    return token, links, NAMES[deal_seats[game.turn]]


def the_deal(app, token) -> Deal:
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=token).one()
        deal = db.session.query(Deal).filter_by(table_id=table.id).order_by(Deal.id.desc()).first()
        db.session.expunge(deal)
        return deal


def turn_began(app, token, seconds_ago: float) -> None:
    """The turn in play began ``seconds_ago``."""
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=token).one()
        deal = db.session.query(Deal).filter_by(table_id=table.id).order_by(Deal.id.desc()).first()
        deal.turn_since = now() - timedelta(seconds=seconds_ago)
        db.session.commit()


def shown_clock(html: str) -> tuple[str, int, int] | None:
    """Whose time a page shows, and its turn and reserve seconds."""
    found = re.search(
        r'<p class="turn-clock" role="timer" data-clock data-turn="(\d+)" data-reserve="(\d+)">\s*'
        r'<span class="whose">([^<]+)</span>',
        html,
    )
    return (found.group(3), int(found.group(1)), int(found.group(2))) if found else None


def test_the_form_states_each_clock_and_its_seconds(client, app):
    html = client.get("/play/new").get_data(as_text=True)
    assert "No clock: the table waits for each player" in html
    assert "Relaxed: 60 s a turn, plus 3 min in reserve each hand" in html
    assert "Quick: 20 s a turn, plus 1 min in reserve each hand" in html
    client.set_cookie("lang", "es_AR")
    html = client.get("/play/new").get_data(as_text=True)
    assert "Rápido: 20 s por turno, más 1 min de reserva en cada mano" in html


def test_a_clock_on_one_phone_passed_round_is_refused_in_words(client, app):
    response = new_game(client, PEOPLE, mode="hotseat", clock="quick")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "The turn clock is for a game where each person plays on their own phone." in html
    with app.app_context():
        assert db.session.query(GameTable).count() == 0


def test_a_made_up_clock_is_refused_and_nothing_is_stored(client, app):
    response = new_game(client, PEOPLE, mode="devices", clock="blitz")
    assert response.status_code == 400 and "Not a valid choice" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(GameTable).count() == 0


def test_every_phone_shows_the_time_left_of_the_seat_to_move(client, app):
    token, links, mover = clocked_game(client, app)
    for name, link in links.items():
        html = client.get(f"/s/{link}").get_data(as_text=True)
        whose, turn, reserve = shown_clock(html)
        assert whose == ("Your time" if name == mover else f"Time for {mover}")
        assert 18 <= turn <= 20 and reserve == 60
    turn_began(app, token, 35)  # 20 s of the turn and 15 of the reserve spent
    whose, turn, reserve = shown_clock(client.get(f"/t/{token}/play").get_data(as_text=True))
    assert whose == f"Time for {mover}" and turn == 0 and 44 <= reserve <= 45
    assert "data-clock" not in client.get(f"/t/{clocked_game(client, app, 'off')[0]}/play").get_data(as_text=True)


def test_a_slow_turn_is_paid_from_the_seats_reserve(client, app):
    token, links, mover = clocked_game(client, app)
    turn_began(app, token, 30)  # 10 s over the turn's 20
    _id, _deal_seats, version, game = snapshot(app, token)
    seat = game.turn
    post(client, f"/s/{links[mover]}", version=version, action="stock")
    _id, _seats, version, game = snapshot(app, token)
    post(
        client, f"/s/{links[mover]}", version=version, action="discard", card=str(sorted(game.hands[seat], key=str)[0])
    )
    deal = the_deal(app, token)
    assert 49 <= deal.reserves[seat] <= 50.1
    assert all(r == QUICK.reserve.total_seconds() for i, r in enumerate(deal.reserves) if i != seat)
    assert now() - deal.turn_since < timedelta(seconds=2)  # the next turn's time began


def test_a_turn_out_of_time_is_played_by_the_computer_for_a_seat_still_here(client, app):
    """Carla thinks past her 20 s and her reserve while her phone is open:
    the next poll of any phone plays that one turn for her, marked so; she
    plays her next turn herself."""
    token, links, mover = clocked_game(client, app)
    other = next(n for n in links if n != mover)
    _id, _seats, version, before = snapshot(app, token)
    turn_began(app, token, QUICK.turn.total_seconds() + QUICK.reserve.total_seconds() - 2)
    assert client.get(f"/s/{links[other]}/poll").status_code in (200, 204)
    assert snapshot(app, token)[2] == version  # 2 s left: nothing moved
    turn_began(app, token, QUICK.turn.total_seconds() + QUICK.reserve.total_seconds() + 1)
    client.get(f"/s/{links[other]}/poll")
    _id, _seats, after_version, game = snapshot(app, token)
    assert after_version > version and game.turns_taken > before.turns_taken
    deal = the_deal(app, token)
    assert deal.covered == [len(before.log)] and deal.reserves[before.turn] == 0
    page = client.get(f"/s/{links[other]}").get_data(as_text=True)
    assert f"(Played by the computer for {mover}.)" in page
    assert player(app, token, mover).stand_in_since is None  # her phone is here: only that turn


def test_a_seat_away_when_its_time_runs_out_is_handed_to_the_computer(client, app):
    """With the clock on, a phone that left is handed over by itself: the
    computer plays its turns until the person taps "I'm back"."""
    token, links, mover = clocked_game(client, app)
    other = next(n for n in links if n != mover)
    last_seen(app, token, mover, seat_rules.AWAY_AFTER.total_seconds() + 5)
    turn_began(app, token, QUICK.turn.total_seconds() + QUICK.reserve.total_seconds() + 1)
    client.get(f"/s/{links[other]}/poll")
    gone = player(app, token, mover)
    assert gone.stand_in_since is not None and gone.stand_in_by == seat_rules.BY_THE_CLOCK
    page = client.get(f"/s/{links[other]}").get_data(as_text=True)
    assert f"The computer plays for {mover} now." in page or "computer plays" in page
    html = client.get(f"/s/{links[mover]}").get_data(as_text=True)
    assert "The computer is playing for you." in html


def test_a_move_made_in_time_wins_over_the_clock(client, app):
    token, links, mover = clocked_game(client, app)
    turn_began(app, token, QUICK.turn.total_seconds() + QUICK.reserve.total_seconds() - 1)
    _id, _seats, version, _before = snapshot(app, token)
    response = post(client, f"/s/{links[mover]}", version=version, action="stock")
    assert response.status_code == 303
    deal = the_deal(app, token)
    assert not deal.covered  # hers, not the computer's


def test_the_owner_changes_the_clock_from_the_next_hand(client, app):
    token, _links, _mover = clocked_game(client, app)
    html = client.get(f"/t/{token}/settings").get_data(as_text=True)
    assert "Turn clock (each on their own phone)" in html
    assert re.search(r'name="clock" value="quick" checked', html)
    data = {"csrf_token": csrf(client, f"/t/{token}/settings"), "version": field(html, "version"), "clock": "relaxed"}
    data |= {"target": "100"}
    response = client.post(f"/t/{token}/settings", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(GameTable).filter_by(owner_token=token).one().turn_clock is TurnClock.RELAXED
    assert the_deal(app, token).clock is TurnClock.QUICK  # the hand in play keeps its clock
    deal = the_deal(app, token)
    post(client, f"/t/{token}/play", action="void", deal=str(deal.id), version=str(deal.version))
    deal = the_deal(app, token)
    post(client, f"/t/{token}/play", action="next", deal=str(deal.id), version=str(deal.version))
    assert the_deal(app, token).id != deal.id
    assert the_deal(app, token).clock is TurnClock.RELAXED
    assert the_deal(app, token).reserves == [180.0] * 3


def test_settings_of_a_game_on_one_phone_offer_no_clock(client, app):
    token = new_game(client, PEOPLE, mode="hotseat").headers["Location"].split("/")[2]
    assert 'name="clock"' not in client.get(f"/t/{token}/settings").get_data(as_text=True)


def test_the_clock_starts_when_the_seat_to_move_first_opens_the_game(client, app):
    """A tryout (#38): the clock ran from the deal, so the first player had
    spent their turn and most of their reserve while the links were shared."""
    token = new_game(client, PEOPLE, mode="devices", clock="quick").headers["Location"].split("/")[2]
    client.delete_cookie("tables")
    _links, links = links_of(app, token)
    _id, deal_seats, version, game = snapshot(app, token)
    mover = NAMES[deal_seats[game.turn]]
    other = next(n for n in NAMES if n != mover)
    client.get(f"/s/{links[other]}")
    turn_began(app, token, 10 * 60)  # ten minutes of sharing links
    html = client.get(f"/s/{links[other]}").get_data(as_text=True)
    assert f"The clock starts when {mover} opens the game." in html and shown_clock(html) is None
    client.get(f"/s/{links[other]}/poll")
    assert snapshot(app, token)[2] == version  # nobody played for a phone that never came
    html = client.get(f"/s/{links[mover]}").get_data(as_text=True)
    whose, turn, reserve = shown_clock(html)
    assert whose == "Your time" and 19 <= turn <= 20 and reserve == 60


def test_a_seat_whose_phone_left_has_its_turns_seconds_only(client, app):
    """A tryout (#38): a phone gone mid-turn held the table for its turn and
    its whole reserve; the reserve is for thinking, not for a phone that left."""
    token, links, mover = clocked_game(client, app)
    other = next(n for n in links if n != mover)
    last_seen(app, token, mover, seat_rules.AWAY_AFTER.total_seconds() + 1)
    turn_began(app, token, QUICK.turn.total_seconds() - 5)
    html = client.get(f"/s/{links[other]}").get_data(as_text=True)
    assert "away: the computer plays when this time runs out" in html
    whose, turn, reserve = shown_clock(html)
    assert whose == f"Time for {mover}" and 4 <= turn <= 5 and reserve == 0
    turn_began(app, token, QUICK.turn.total_seconds() + 1)
    client.get(f"/s/{links[other]}/poll")
    assert player(app, token, mover).stand_in_since is not None
    assert the_deal(app, token).covered


def test_a_phone_that_comes_back_is_not_taken_for_a_second_one(client, app):
    """A tryout (#38): Carla's phone closed, she opened her link again on a
    fresh browser and read "Your seat is also open on another phone"."""
    token, links, _mover = clocked_game(client, app)
    last_seen(app, token, "Carla", 60)
    again = app.test_client()
    again.set_cookie("lang", "en")
    for _ in range(3):
        html = again.get(f"/s/{links['Carla']}").get_data(as_text=True)
    assert "also open on another phone" not in html
    assert player(app, token, "Carla").shared_at is None
