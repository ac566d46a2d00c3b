"""Digital tables in a tournament (issue 25): the app deals each table of a
round, computer players fill its empty seats only when the organizer lets
them and never take a place in the tournament, and a played-out table's
result goes to the tournament by itself."""

from __future__ import annotations

import pytest

from companion.bots import BOTS
from companion.bots.view import seat_view
from companion.extensions import db
from companion.models import Deal, GameTable
from companion.rules.tournament import Format, Play
from companion.services import proofs
from companion.services import tournaments as service
from companion.services.play import Pace, act, advance, current_deal, deal_next, game_of
from companion.services.rematch import rematch
from companion.services.standing import standing
from companion.services.tournaments import Settings
from companion.services.unit import ServiceError, transaction

from .test_tournaments import refused, snapshot

pytestmark = pytest.mark.usefixtures("app")

SIX = ["Ana", "Ben", "Carla", "Dani", "Eva", "Fede"]
PACE = Pace(seed="digital-tournament", turns=400, seconds=60)


def new(play=Play.HOTSEAT, bots="simple", names=SIX, **settings):
    with transaction():
        return service.create_tournament(
            name="Copa digital",
            players=names,
            preset="classic",
            overrides={"target": 50, "reentries": 0},
            settings=Settings(play=play, bots=bots, **settings),
            seed=5,
        )


def start(tournament):
    with transaction():
        return service.start_round(tournament, tournament.version, PACE)


def person_turn(table: GameTable) -> None:
    """The person to move plays (the rest of) a turn as the easy computer player would."""
    deal = current_deal(table)
    game = game_of(table, deal)
    seat, bot = game.turn, BOTS["simple"]()
    if game.phase == "draw":
        pile = bot.choose_draw(seat_view(game, seat)) == "discard" and game.discards
        with transaction():
            act(table, deal, seat, deal.version, "discard_pile" if pile else "stock", pace=PACE)
        game = game_of(table, deal)
        if game.phase == "over":
            return
    card, close = bot.choose_end(seat_view(game, seat))
    action = "close" if close and game.can_close(seat, card) else "discard"
    with transaction():
        act(table, deal, seat, deal.version, action, str(card), pace=PACE)


def play_hand(table: GameTable) -> None:
    """Play the deal in play to its end (a hand stored, or a void one dealt again)."""
    hands = standing(table).last_number
    for _ in range(300):
        deal = current_deal(table)
        if deal.state["phase"] == "over":
            if standing(table).last_number > hands:
                return
            with transaction():
                deal_next(table, deal.id, deal.version, PACE)  # a void hand: dealt again
            continue
        person_turn(table)
    raise AssertionError("the hand never ended")


def test_computer_players_fill_each_table_to_four_and_take_no_place():
    tournament = new(format=Format.POINTS, rounds=1, round_hands=1)
    round_ = start(tournament)
    assert [len(t.players) for t in round_.tables] == [4, 4]  # six players: two tables of three, a computer each
    for table in round_.tables:
        assert table.kind == "digital" and table.play_mode == "hotseat" and not table.hints_allowed
        assert [p.kind for p in table.players] == ["human", "human", "human", "simple"]
        assert table.names[3] == "Bot 1"
        assert service.table_status(table).status == service.PLAYING
    for table in round_.tables:
        play_hand(table)
    view = service.overview(tournament)
    assert all(s.status == service.FINISHED and s.result is None for s in view.current)  # nobody had to confirm
    assert view.over
    for status in view.current:
        ranking = [p.seat for p in standing(db.session.get_one(GameTable, status.table.id)).ranking() if p.seat != 3]
        assert [seat for seat, _place in status.places] == ranking
        assert sorted(place for _seat, place in status.places)[0] == 1
        assert "Bot 1" not in status.place_names
    lines = service.overview(tournament).standings
    assert sorted(line.name for line in lines) == sorted(SIX)
    assert sum(line.points for line in lines) == 2 * sum((4, 2, 1))  # two tables, three places scored each


def test_a_played_out_digital_table_deals_no_more_and_plays_no_rematch():
    tournament = new(format=Format.POINTS, rounds=2, round_hands=1)
    table = start(tournament).tables[0]
    play_hand(table)
    deal = current_deal(table)
    refused(lambda: deal_next(table, deal.id, deal.version, PACE), "hand_limit")
    refused(lambda: service.confirm_result(table, table.version, 0), "result_digital")
    refused(lambda: service.dispute_result(table, table.version, 0, "no"), "result_digital")


def test_a_finished_tournament_table_plays_no_rematch():
    tournament = new(play=Play.DEVICES, bots="", names=SIX[:3], format=Format.KNOCKOUT)
    table = start(tournament).tables[0]
    assert [p.kind for p in table.players] == ["human"] * 3 and all(p.seat_token for p in table.players)
    while not standing(table).state.finished:
        play_hand(table)
    assert service.table_status(table).status == service.FINISHED
    assert service.overview(tournament).over
    refused(lambda: rematch(table, table.version), "rematch_tournament")


def test_the_organizer_closes_a_digital_table_and_nobody_moves_there_after():
    tournament = new(bots="good", names=SIX[:4], format=Format.KNOCKOUT)
    table = start(tournament).tables[0]
    assert len(table.players) == 4 and all(p.kind == "human" for p in table.players)  # a full table: no computer
    person_turn(table)
    with transaction():
        service.close_table(tournament, tournament.version, table.id)
    deal = current_deal(table)
    game = game_of(table, deal)
    refused(lambda: act(table, deal, game.turn, deal.version, "stock", pace=PACE), "table_closed")
    with transaction():
        assert not advance(table, deal, PACE)
    assert service.table_status(table).final


def test_the_organizer_corrects_only_the_players_places():
    tournament = new(names=SIX[:3], format=Format.KNOCKOUT)
    table = start(tournament).tables[0]
    assert sorted(table.names[:3]) == SIX[:3] and table.names[3] == "Bot 1"
    refused(lambda: service.correct_result(tournament, tournament.version, table.id, [3, 0, 1, 2], "x"), "order")
    with transaction():
        service.correct_result(tournament, tournament.version, table.id, [2, 0, 1], "the third won")
    assert service.overview(tournament).current[0].winners == [table.names[2]]


@pytest.mark.parametrize(
    "change, key",
    [
        ({"play": "online"}, "play"),
        ({"play": Play.CARDS, "bots": "good"}, "bots_cards"),
        ({"bots": "wizard"}, "unknown_player"),
        ({"play": Play.CARDS, "duplicate": True}, "duplicate_cards"),
    ],
)
def test_bad_digital_settings_are_refused_and_store_nothing(change, key):
    before = snapshot()
    with pytest.raises(ServiceError) as error, transaction():
        service.create_tournament(
            name="x", players=SIX, preset="classic", overrides={}, settings=Settings(**{"play": Play.HOTSEAT, **change})
        )
    assert error.value.params["key"] == key
    assert snapshot() == before


def test_bot_names_never_take_a_players_name():
    assert service.bot_names(["Ana", "bot 1", "BOT 2"], 2) == ["Bot 3", "Bot 4"]
    assert service.bot_names(["Ana"] * 5, -1) == []


def test_a_round_in_the_app_cannot_be_undone_once_somebody_moved():
    tournament = new(names=SIX[:4], bots="", format=Format.KNOCKOUT)
    start(tournament)
    assert service.overview(tournament).undoable
    table = tournament.played_rounds[0].tables[0]
    person_turn(table)
    assert not service.overview(tournament).undoable
    refused(lambda: service.undo_round(tournament, tournament.version), "round_played")


def deals_of(table: GameTable) -> list[Deal]:
    return sorted(table.deals, key=lambda d: d.id)


def dealt(table: GameTable, deal: Deal) -> tuple:
    """The hands as dealt, seat by seat, and the first card of the pile (from the deal's record)."""
    record = proofs.record(table, deal)
    return record.hands, record.discard, record.dealer


def test_a_duplicate_round_deals_every_table_alike_and_compares_the_same_seats():
    tournament = new(format=Format.POINTS, rounds=1, round_hands=2, duplicate=True)
    first, second = start(tournament).tables
    assert len(first.players) == len(second.players) == 4
    one, two = current_deal(first), current_deal(second)
    assert one.seed == two.seed and one.commitment == two.commitment  # the same seed, each deal its own row
    assert game_of(first, one).hands == game_of(second, two).hands  # seat k holds the same cards at both
    play_hand(first)
    # Hand 1 is over at table 1, not at table 2: its key would show table 2 everybody's cards.
    seal = proofs.seal_of(deals_of(first)[0])
    assert seal.held and seal.seed is None
    refused(lambda: proofs.record(first, deals_of(first)[0]), "proof_held")
    play_hand(second)
    assert proofs.seal_of(deals_of(first)[0]).seed == deals_of(first)[0].seed
    for table in (first, second):
        play_hand(table)
    assert service.overview(tournament).over
    closed = [[d for d in deals_of(t) if d.hand_id is not None] for t in (first, second)]
    assert [d.number for d in closed[0]] == [d.number for d in closed[1]] == [1, 2]
    for a, b in zip(*closed, strict=True):
        assert a.commitment == b.commitment and dealt(first, a) == dealt(second, b)
        assert proofs.check(first, a)[1].ok and proofs.check(second, b)[1].ok
    comparison = service.same_cards(tournament.played_rounds[0])
    assert [(c.players, c.seat) for c in comparison] == [(4, 0), (4, 1), (4, 2), (4, 3)]
    for c in comparison:
        assert c.hands == c.played == 2
        expected = sorted(
            ((standing(t).total(c.seat), t.round_table, t.names[c.seat]) for t in (first, second)),
        )
        assert [(s.points, s.table, s.name) for s in c.scores] == expected
        places = [s.place for s in c.scores]
        assert places[0] == 1 and places[1] == (1 if expected[0][0] == expected[1][0] else 2)
    assert [s.computer for s in comparison[3].scores] == [True, True]  # Bot 1 holds seat 4 at both tables


def test_a_round_without_duplicate_deals_shuffles_each_table_on_its_own():
    tournament = new(format=Format.POINTS, rounds=1, round_hands=1)
    first, second = start(tournament).tables
    assert current_deal(first).seed != current_deal(second).seed
    assert service.same_cards(tournament.played_rounds[0]) == []
