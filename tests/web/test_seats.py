"""#38: nobody waits for a player who left.  Presence on every phone, the
computer taking the seat of a phone that left (by another phone after the
grace period, by the owner at any time), "I'm back", and the computer
answering "buy back in?" for a seat it plays.

Time moves by writing when a phone was last seen, as the server does."""

from __future__ import annotations

import random
import re
from datetime import timedelta

from companion.extensions import db
from companion.models import Deal, GameTable, Player, Reentry, now
from companion.rules.game import HandGame
from companion.services import seats as seat_rules

from .helpers import field
from .test_play import links_of, new_game, post, snapshot

PEOPLE = [("Ana", "human"), ("Ben", "human"), ("Carla", "human")]


def three_phones(client, app):
    """A game on three phones; returns the owner token, the seat links, and who moves first."""
    token = new_game(client, PEOPLE, mode="devices").headers["Location"].split("/")[2]
    client.delete_cookie("tables")  # the seats' phones never held the owner link
    _links, links = links_of(app, token)
    _id, deal_seats, _version, game = snapshot(app, token)
    mover = ["Ana", "Ben", "Carla"][deal_seats[game.turn]]
    for name in links:
        client.get(f"/s/{links[name]}")  # every phone opens its seat
    return token, links, mover


def last_seen(app, token, name, seconds_ago):
    """``name``'s phone was last seen ``seconds_ago`` (its page stopped asking then)."""
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=token).one()
        player = next(p for p in table.players if p.name == name)
        player.seen_at = now() - timedelta(seconds=seconds_ago)
        db.session.commit()


def player(app, token, name) -> Player:
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=token).one()
        found = next(p for p in table.players if p.name == name)
        db.session.expunge(found)
        return found


def table_version(app, token) -> str:
    with app.app_context():
        return str(db.session.query(GameTable).filter_by(owner_token=token).one().version)


def seat_form(html: str, name: str, action: str) -> dict[str, str] | None:
    """The fields of the form that hands ``name``'s seat over (``computer``) or back (``back``)."""
    for form in re.findall(r'<form method="post" action="[^"]+/seats" class="seat-form">.*?</form>', html, re.S):
        if f'value="{action}"' in form and (name in form or action == "back"):
            return {"version": field(form, "version"), "seat": field(form, "seat"), "action": action}
    return None


def badges(html: str) -> dict[str, str]:
    """Each player's name and their presence badge on the board."""
    out = {}
    for row in re.findall(r'<li class="[^"]*">\s*<span class="who">(.*?)</span>(.*?)</li>', html, re.S):
        name, rest = row
        found = re.search(r'<span class="badge (?:here|away)">([^<]+)</span>', rest)
        plays = "computer plays" in rest
        out[name] = "computer plays" if plays else (found.group(1) if found else "")
    return out


def test_every_phone_shows_who_is_here_and_who_is_away(client, app):
    token, links, _mover = three_phones(client, app)
    last_seen(app, token, "Carla", 16)  # past the 15 s that make a phone away
    html = client.get(f"/s/{links['Ana']}").get_data(as_text=True)
    assert badges(html) == {"Ana": "", "Ben": "here", "Carla": "away"}
    last_seen(app, token, "Carla", 3 * 60 + 5)
    html = client.get(f"/t/{token}/play").get_data(as_text=True)  # the owner sees every seat
    assert badges(html) == {"Ana": "here", "Ben": "here", "Carla": "away · 3 min"}


def test_a_phone_that_leaves_changes_what_the_others_poll(client, app):
    token, links, _mover = three_phones(client, app)
    html = client.get(f"/s/{links['Ana']}").get_data(as_text=True)
    poll = re.search(r'hx-get="([^"]+/poll[^"]*)"', html).group(1).replace("&amp;", "&")
    assert client.get(poll).status_code == 204  # nothing changed
    last_seen(app, token, "Carla", 20)
    again = client.get(poll)
    assert again.status_code == 200 and badges(again.get_data(as_text=True))["Carla"] == "away"


def test_presence_is_written_every_few_seconds_at_most(client, app):
    token, links, _mover = three_phones(client, app)
    client.get(f"/s/{links['Ana']}/poll")  # the phone names itself (its cookie came back): written once
    seen = player(app, token, "Ana").seen_at
    client.get(f"/s/{links['Ana']}/poll")
    assert player(app, token, "Ana").seen_at == seen  # within SEEN_EVERY: no write
    last_seen(app, token, "Ana", seat_rules.SEEN_EVERY.total_seconds() + 1)
    client.get(f"/s/{links['Ana']}/poll")
    assert now() - player(app, token, "Ana").seen_at < timedelta(seconds=2)


def test_a_seat_away_past_the_grace_period_at_its_turn_is_handed_to_the_computer(client, app):
    """Carla's phone closes in the middle of her turn: after the grace period
    another phone hands her seat to the computer, which plays her turn at
    once; the moves say so; her points come from the engine as anybody's."""
    token, links, mover = three_phones(client, app)
    other = next(n for n in links if n != mover)
    last_seen(app, token, mover, 30)  # away, but not for the grace period yet
    html = client.get(f"/s/{links[other]}").get_data(as_text=True)
    assert seat_form(html, mover, "computer") is None
    last_seen(app, token, mover, seat_rules.GRACE.total_seconds() + 1)
    html = client.get(f"/s/{links[other]}").get_data(as_text=True)
    assert f"{mover} has been away for 1 minute." in html
    form = seat_form(html, mover, "computer")
    assert form is not None
    _id, _seats, version, before = snapshot(app, token)
    response = post(client, f"/s/{links[other]}/seats", **form)
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert f"The computer plays for {mover} now." in page
    _id, _deal_seats, after_version, game = snapshot(app, token)
    assert after_version > version and game.turns_taken > before.turns_taken  # the computer played the turn
    assert f"(Played by the computer for {mover}.)" in page
    assert badges(page)[mover] == "computer plays"
    with app.app_context():
        deal = db.session.query(Deal).order_by(Deal.id.desc()).first()
        assert deal.covered and deal.covered[0] == len(before.log)


def test_a_seat_that_is_here_or_not_waited_on_is_not_handed_over(client, app):
    token, links, mover = three_phones(client, app)
    idle = next(n for n in links if n != mover)
    asker = next(n for n in links if n not in (mover, idle))
    last_seen(app, token, idle, 10 * 60)  # long gone, but the game is not waiting for them
    html = client.get(f"/s/{links[asker]}").get_data(as_text=True)
    assert seat_form(html, idle, "computer") is None and seat_form(html, mover, "computer") is None
    seat = str(["Ana", "Ben", "Carla"].index(idle))
    version = table_version(app, token)
    response = post(client, f"/s/{links[asker]}/seats", version=version, seat=seat, action="computer")
    shown = client.get(response.headers["Location"]).get_data(as_text=True)
    assert f"{idle} is here, or the game is not waiting for them" in shown
    assert player(app, token, idle).stand_in_since is None
    own = str(["Ana", "Ben", "Carla"].index(asker))
    response = post(client, f"/s/{links[asker]}/seats", version=version, seat=own, action="computer")
    shown = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "only the table&#39;s owner gives it to the computer" in shown


def test_im_back_takes_the_seat_back_and_the_next_turn_waits_for_the_person(client, app):
    token, links, mover = three_phones(client, app)
    response = post(
        client,
        f"/t/{token}/play/seats",
        version=field(client.get(f"/t/{token}/play").get_data(as_text=True), "version"),
        seat=str(["Ana", "Ben", "Carla"].index(mover)),
        action="computer",
    )  # the owner, at any time
    assert response.status_code == 303 and player(app, token, mover).stand_in_since is not None
    html = client.get(f"/s/{links[mover]}").get_data(as_text=True)
    assert "The computer is playing for you." in html
    form = seat_form(html, mover, "back")
    assert form is not None
    page = client.get(post(client, f"/s/{links[mover]}/seats", **form).headers["Location"]).get_data(as_text=True)
    assert f"{mover} plays again." in page and "The computer is playing for you." not in page
    assert player(app, token, mover).stand_in_since is None
    # The computer no longer plays the seat: when its turn comes it waits.
    _id, deal_seats, _version, game = snapshot(app, token)
    names = ["Ana", "Ben", "Carla"]
    for _ in range(6):
        if names[deal_seats[game.turn]] == mover:
            break
        client.get(f"/s/{links[mover]}/poll")  # polls carry only computer turns on
        to_move = names[deal_seats[game.turn]]
        if game.phase.value == "draw":
            post(client, f"/s/{links[to_move]}", version=_version, action="stock")
        else:
            hand = sorted(game.hands[game.turn], key=str)
            post(client, f"/s/{links[to_move]}", version=_version, action="discard", card=str(hand[0]))
        _id, deal_seats, _version, game = snapshot(app, token)
    assert names[deal_seats[game.turn]] == mover
    assert client.get(f"/s/{links[mover]}/poll").status_code in (200, 204)
    _id, _seats, _v, still = snapshot(app, token)
    assert still.turns_taken == game.turns_taken and still.phase == game.phase  # nobody played for them


def test_only_the_person_or_the_owner_gives_a_seat_back(client, app):
    token, links, mover = three_phones(client, app)
    owner_page = client.get(f"/t/{token}/play").get_data(as_text=True)
    seat = str(["Ana", "Ben", "Carla"].index(mover))
    post(client, f"/t/{token}/play/seats", version=field(owner_page, "version"), seat=seat, action="computer")
    other = next(n for n in links if n != mover)
    html = client.get(f"/s/{links[other]}").get_data(as_text=True)
    assert seat_form(html, mover, "back") is None
    response = post(client, f"/s/{links[other]}/seats", version=table_version(app, token), seat=seat, action="back")
    shown = client.get(response.headers["Location"]).get_data(as_text=True)
    assert f"Only {mover}, on their own phone, or the table&#39;s owner gives the seat back." in shown
    assert player(app, token, mover).stand_in_since is not None
    owner_page = client.get(f"/t/{token}/play").get_data(as_text=True)
    form = seat_form(owner_page, mover, "back")
    assert form is not None and f"Give {mover} their seat back" in owner_page
    post(client, f"/t/{token}/play/seats", **form)
    assert player(app, token, mover).stand_in_since is None


def test_a_read_only_link_sees_presence_but_hands_nothing_over(client, app):
    token, _links, mover = three_phones(client, app)
    watch = links_of(app, token)[0]["watch"]
    last_seen(app, token, mover, 5 * 60)
    html = client.get(f"/t/{watch}/play").get_data(as_text=True)
    assert badges(html)[mover] == "away · 5 min" and "/seats" not in html
    assert post(client, f"/t/{watch}/play/seats", version="1", seat="0", action="computer").status_code == 403


def test_spec_4_the_computer_answers_buy_back_in_for_a_seat_it_plays(client, app):
    """Dani goes over 15 while the computer plays her seat: it answers for
    her, as the expert would (no stake: back in); nobody waits."""
    from .test_reentry_pending import dani_out_in_a_digital_game

    token = dani_out_in_a_digital_game(client, app, mode="devices")
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=token).one()
        assert not table.reentries  # Dani, a person, is asked
    owner = client.get(f"/t/{token}/play").get_data(as_text=True)
    assert "Dani is out. Buy back in at" in owner
    form = seat_form(owner, "Dani", "computer")
    assert form is not None  # the owner may hand her seat over at any time
    post(client, f"/t/{token}/play/seats", **form)
    with app.app_context():
        assert [(r.seat, r.declined, r.decided_by) for r in db.session.query(Reentry)] == [(3, False, "Dani")]
    assert "Deal the next hand" in client.get(f"/t/{token}/play").get_data(as_text=True)


def test_presence_and_seats_in_the_pages_language(client, app):
    token, links, mover = three_phones(client, app)
    other = next(n for n in links if n != mover)
    last_seen(app, token, mover, 2 * 60 + 1)
    client.set_cookie("lang", "es_AR")
    html = client.get(f"/s/{links[other]}").get_data(as_text=True)
    assert f"{mover} no está hace 2 minutos." in html and f"Que la máquina juegue por {mover}" in html
    client.set_cookie("lang", "de")
    html = client.get(f"/s/{links[other]}").get_data(as_text=True)
    assert f"{mover} ist seit 2 Minuten weg." in html and f"Den Computer für {mover} spielen lassen" in html


def test_the_turn_the_computer_played_is_marked_in_the_moves():
    from companion.play.presenters import turns_of
    from companion.rules import get_rules

    game = HandGame.deal(get_rules("classic"), 2, 0, random.Random(5))
    first = game.turn
    game.discard(first, game.draw(first, "stock", random.Random(1)))
    covered = len(game.log)  # where the computer's turn for Ben begins
    second = game.turn
    game.discard(second, game.draw(second, "stock", random.Random(2)))
    turns = turns_of(game.seen_by(None), ["Ana", "Ben"], (), [covered])
    assert [t.computer for t in turns] == [False, True]


def test_a_player_who_goes_out_is_told_on_their_own_phone(client, app):
    """Dani goes over 15: her phone says so with her points, asks her, and
    once she stays out says she follows the match from there."""
    from .test_reentry_pending import dani_out_in_a_digital_game

    token = dani_out_in_a_digital_game(client, app, mode="devices")
    dani = links_of(app, token)[1]["Dani"]
    with app.app_context():
        total = standing_total(token, "Dani")
    html = client.get(f"/s/{dani}").get_data(as_text=True)
    assert f"You are out with {total} points." in html and "Buy back in at" in html
    assert "You follow the rest of the match from here." not in html
    form = re.search(r'<form method="post" action="(/s/[^"]+/reentry)".*?</form>', html, re.S)
    data = {f: field(form.group(0), f) for f in ("version", "seat", "submission")}
    post(client, form.group(1), decision="no", **data)
    html = client.get(f"/s/{dani}").get_data(as_text=True)
    assert f"You are out with {total} points." in html and "You follow the rest of the match from here." in html
    ben = client.get(f"/s/{links_of(app, token)[1]['Ben']}").get_data(as_text=True)
    assert "You are out" not in ben


def test_a_player_out_for_good_reads_why_on_their_own_phone(client, app):
    from .test_reentry_pending import dani_out_in_a_digital_game

    token = dani_out_in_a_digital_game(client, app, mode="devices", reentries="0")
    dani = links_of(app, token)[1]["Dani"]
    html = client.get(f"/s/{dani}").get_data(as_text=True)
    assert "You are out with" in html and "Buy back in at" not in html
    assert "You cannot buy back in: Dani has used the re-entries these rules allow (0)." in html
    client.set_cookie("lang", "es_AR")
    html = client.get(f"/s/{dani}").get_data(as_text=True)
    assert "Quedaste afuera con" in html


def standing_total(token: str, name: str) -> int:
    from companion.services.standing import standing

    table = db.session.query(GameTable).filter_by(owner_token=token).one()
    return standing(table).total(table.names.index(name))


def test_a_person_away_at_their_buy_back_stays_out_after_a_minute(client, app):
    """Dani goes over 15 and her phone is gone: a minute later the next poll
    of any phone answers "stays out" for her, and every phone says why."""
    from companion.models import Hand

    from .test_reentry_pending import dani_out_in_a_digital_game

    token = dani_out_in_a_digital_game(client, app, mode="devices")
    links = links_of(app, token)[1]

    def a_minute_passes(seconds):
        with app.app_context():
            table = db.session.query(GameTable).filter_by(owner_token=token).one()
            hand = db.session.query(Hand).filter_by(table_id=table.id).one()
            hand.created_at = now() - timedelta(seconds=seconds)
            db.session.query(Deal).filter_by(table_id=table.id).one().updated_at = hand.created_at
            table.players[3].seen_at = now() - timedelta(seconds=seconds)
            db.session.commit()

    a_minute_passes(30)
    client.get(f"/s/{links['Ana']}/poll")
    with app.app_context():
        assert db.session.query(Reentry).count() == 0  # not yet
    a_minute_passes(61)
    client.get(f"/s/{links['Ana']}/poll")
    with app.app_context():
        assert [(r.seat, r.declined, r.away) for r in db.session.query(Reentry)] == [(3, True, True)]
    html = client.get(f"/s/{links['Ben']}").get_data(as_text=True)
    assert "Dani's phone was away for a minute: Dani stays out." in html and "Deal the next hand" in html
    client.set_cookie("lang", "es_AR")
    html = client.get(f"/s/{links['Ben']}").get_data(as_text=True)
    assert "El celular de Dani estuvo un minuto sin conexión: Dani se queda afuera." in html


def test_a_person_seen_within_the_minute_is_still_asked(client, app):
    from companion.models import Hand

    from .test_reentry_pending import dani_out_in_a_digital_game

    token = dani_out_in_a_digital_game(client, app, mode="devices")
    links = links_of(app, token)[1]
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=token).one()
        db.session.query(Hand).filter_by(table_id=table.id).one().created_at = now() - timedelta(seconds=90)
        db.session.query(Deal).filter_by(table_id=table.id).one().updated_at = now() - timedelta(seconds=90)
        db.session.commit()
    client.get(f"/s/{links['Dani']}")  # her phone is here: she answers herself
    client.get(f"/s/{links['Ana']}/poll")
    with app.app_context():
        assert db.session.query(Reentry).count() == 0


def test_the_owner_renews_a_seats_link_and_the_old_one_ends(client, app):
    token, links, _mover = three_phones(client, app)
    page = client.get(f"/t/{token}/play").get_data(as_text=True)
    assert "Whoever opens a seat's link plays that seat and sees its cards" in page
    form = re.search(r'<form method="post" action="(/t/[^"]+/play/seat-link)".*?</form>', page, re.S)
    assert form is not None and "New link for Ana (the old one ends)" in page
    response = post(client, form.group(1), version=field(form.group(0), "version"), seat="0")
    shown = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Ana has a new link: the old one no longer opens the seat." in shown
    assert client.get(f"/s/{links['Ana']}").status_code == 404
    new = links_of(app, token)[1]["Ana"]
    assert new != links["Ana"] and client.get(f"/s/{new}").status_code == 200
    again = post(client, form.group(1), version=field(form.group(0), "version"), seat="0")  # the same form again
    assert "moved on" in client.get(again.headers["Location"]).get_data(as_text=True)
    assert links_of(app, token)[1]["Ana"] == new


def test_garbage_in_the_seat_forms_is_refused_in_words_and_stores_nothing(client, app):
    token, links, mover = three_phones(client, app)
    version = table_version(app, token)
    for url, data in [
        (f"/t/{token}/play/seats", {"seat": "abc", "version": version, "action": "computer"}),
        (f"/s/{links[mover]}/seats", {"seat": "", "version": version, "action": "back"}),
        (f"/t/{token}/play/seat-link", {"seat": "1.5", "version": version}),
    ]:
        response = post(client, url, **data)
        assert response.status_code == 400, url
        assert "Something in the request was wrong" in response.get_data(as_text=True), url
    for url, data, said in [
        (f"/t/{token}/play/seats", {"seat": "99", "version": version, "action": "computer"}, "Unknown player."),
        (f"/t/{token}/play/seat-link", {"seat": "-1", "version": version}, "Unknown player."),
        (f"/t/{token}/play/seats", {"seat": "0", "version": "x", "action": "computer"}, "moved on"),
    ]:
        shown = client.get(post(client, url, **data).headers["Location"]).get_data(as_text=True)
        assert said in shown, (url, data)
    assert table_version(app, token) == version  # nothing stored
    assert all(player(app, token, n).stand_in_since is None for n in ("Ana", "Ben", "Carla"))


def test_the_creator_on_their_own_seat_reaches_the_owner_page_and_every_seat(client, app):
    """#38: the creator, once on their own seat, reached the owner page only
    through the browser's history.  The phone that holds the owner link is
    led back to it from its seat, and hands seats over from there; another
    phone's seat page shows neither."""
    token = new_game(client, PEOPLE, mode="devices").headers["Location"].split("/")[2]
    _links, links = links_of(app, token)
    html = client.get(f"/s/{links['Ana']}").get_data(as_text=True)
    assert f'<a class="button small" href="/t/{token}/play">All seats and settings</a>' in html
    form = seat_form(html, "Ben", "computer")
    assert form is not None  # the owner hands any seat over, at any time
    response = post(client, f"/s/{links['Ana']}/seats", **form)
    assert response.status_code == 303 and player(app, token, "Ben").stand_in_since is not None
    other = app.test_client()
    html = other.get(f"/s/{links['Carla']}").get_data(as_text=True)
    assert token not in html and "All seats and settings" not in html
    assert seat_form(html, "Ana", "computer") is None and seat_form(html, "Ben", "back") is None
    response = post(other, f"/s/{links['Carla']}/seats", version=table_version(app, token), seat="1", action="back")
    assert player(app, token, "Ben").stand_in_since is not None  # refused: not the owner's phone


def test_a_seat_open_on_two_phones_says_so_on_both(client, app):
    token, links, _mover = three_phones(client, app)
    warning = "Your seat is also open on another phone."
    first, second = app.test_client(), app.test_client()
    for phone in (first, second):
        phone.set_cookie("lang", "en")
    for phone in (first, first, second, second):  # each phone's first visit names it (a cookie)
        html = phone.get(f"/s/{links['Carla']}").get_data(as_text=True)
    assert warning in html
    assert warning in first.get(f"/s/{links['Carla']}").get_data(as_text=True)
    assert warning not in client.get(f"/s/{links['Ana']}").get_data(as_text=True)  # only that seat
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=token).one()
        carla = next(p for p in table.players if p.name == "Carla")
        carla.shared_at = now() - seat_rules.AWAY_AFTER  # the second phone left a while ago:
        carla.seen_by, carla.seen_at = first.get_cookie("phone").value, now()  # only the first asks since
        db.session.commit()
    assert warning not in first.get(f"/s/{links['Carla']}").get_data(as_text=True)


def test_a_phone_that_keeps_no_cookies_is_never_taken_for_a_second_one(client, app):
    token, links, _mover = three_phones(client, app)
    private = app.test_client(use_cookies=False)
    for _ in range(4):
        html = private.get(f"/s/{links['Ben']}").get_data(as_text=True)
    assert "also open on another phone" not in html
    assert player(app, token, "Ben").shared_at is None
