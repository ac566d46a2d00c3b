"""Club tournaments through ``companion.services.tournaments``, without HTTP:
knockout and rounds on points, seated, played, confirmed, closed and
corrected; every refusal leaves every row as it was."""

from __future__ import annotations

import uuid
from decimal import Decimal
from fractions import Fraction

import pytest
from sqlalchemy import func, select

from companion.extensions import db
from companion.models import GameTable, TableResult, Tournament, TournamentRound
from companion.rules.tournament import pairs
from companion.services import tournaments as service
from companion.services.hands import HandInput, store_hand
from companion.services.nextstep import next_step
from companion.services.reentries import reenter
from companion.services.standing import standing
from companion.services.tournaments import Settings
from companion.services.undo import undo_last
from companion.services.unit import ServiceError, StaleError, transaction

pytestmark = pytest.mark.usefixtures("app")

EIGHT = ["Ana", "Ben", "Carla", "Dani", "Eva", "Fede", "Gus", "Hugo"]
#: Short matches: out over 50, no buying back in.
QUICK = {"target": 50, "reentries": 0}


def new(names=EIGHT, settings: Settings | None = None, seed: int = 11, overrides=None) -> Tournament:
    with transaction():
        return service.create_tournament(
            name="Copa del Bar",
            players=names,
            preset="classic",
            overrides=QUICK if overrides is None else overrides,
            settings=settings or Settings(),
            seed=seed,
        )


def start(tournament: Tournament) -> TournamentRound:
    with transaction():
        return service.start_round(tournament, tournament.version)


def hand(table: GameTable, closer: int, points: dict[int, int]) -> None:
    with transaction():
        store_hand(table, table.version, uuid.uuid4().hex, HandInput(closer=closer, mode="points", points=points))


def win(table: GameTable, winner: str) -> None:
    """Everybody but ``winner`` goes out over 50, the lower seats first (one hand each)."""
    seat = table.names.index(winner)
    for loser in [s for s in range(len(table.players)) if s != seat]:
        current = standing(table)
        points = {s: (60 if s == loser else 1) for s in current.seats_in}
        points[seat] = 1
        hand(table, seat, points)


def confirm(table: GameTable, seat: int = 1) -> None:
    with transaction():
        service.confirm_result(table, table.version, seat)


def snapshot() -> dict:
    """Every row a tournament write may touch, as plain values."""
    count = lambda model: db.session.scalar(select(func.count()).select_from(model))  # noqa: E731
    db.session.expire_all()
    return {
        "tables": count(GameTable),
        "rounds": [(r.number, r.undone_at) for r in db.session.scalars(select(TournamentRound))],
        "results": count(TableResult),
        "tournaments": [
            (t.version, len(t.players), [p.withdrawn_after for p in t.players])
            for t in db.session.scalars(select(Tournament))
        ],
    }


def refused(call, key: str) -> None:
    before = snapshot()
    with pytest.raises(ServiceError) as error, transaction():
        call()
    assert error.value.params["key"] == key
    assert snapshot() == before


def test_a_knockout_of_eight_seats_two_fours_then_a_final_of_two():
    """16 to 128 players sit at tables of 3 to 5; here 8: two tables of 4,
    the winner of each goes on, the final table's winner wins."""
    tournament = new()
    first = start(tournament)
    assert [t.round_table for t in first.tables] == [1, 2]
    assert sorted(len(t.players) for t in first.tables) == [4, 4]
    assert sorted(n for t in first.tables for n in t.names) == sorted(EIGHT)
    # The draw is seeded: the same seed gives the same seating.
    again = new(seed=11, names=[*EIGHT])
    assert service.overview(again).next_seating() == [t.names for t in first.tables]

    view = service.overview(tournament)
    assert [s.status for s in view.current] == ["playing", "playing"]
    winners = []
    for table in first.tables:
        win(table, table.names[2])
        winners.append(table.names[2])
    view = service.overview(tournament)
    assert [s.status for s in view.current] == ["waiting", "waiting"]
    assert view.in_play
    refused(lambda: service.start_round(tournament, tournament.version), "round_in_play")
    for table in first.tables:
        confirm(table)
    view = service.overview(tournament)
    assert [s.status for s in view.current] == ["finished", "finished"]
    assert view.going_on == winners
    final = start(tournament)
    assert [sorted(t.names) for t in final.tables] == [sorted(winners)]
    win(final.tables[0], winners[1])
    confirm(final.tables[0], 0)
    view = service.overview(tournament)
    assert view.over
    lines = view.standings
    assert (lines[0].name, lines[0].place) == (winners[1], 1)
    assert lines[1].name == winners[0] and not lines[1].alive
    assert [line.rounds for line in lines[:2]] == [2, 2]
    refused(lambda: service.start_round(tournament, tournament.version), "tournament_over")


def test_a_knockout_round_in_play_ranks_by_each_tables_place_so_far_then_points():
    """The club night's example: at table 1 the leader has 10 points after two
    hands; tables 2 and 3 have no hand yet.  The leader is first, the rest of
    table 1 follow in their order there, and the eight players still waiting
    for a first hand come after them (not tied first ahead of the leader)."""
    twelve = [*EIGHT, "Iris", "Juan", "Kim", "Lola"]
    tournament = new(names=twelve, overrides={})
    first = start(tournament)
    played, *waiting = first.tables
    hand(played, 1, {0: 6, 1: 2, 2: 20, 3: 25})
    hand(played, 0, {0: 4, 1: 15, 2: 20, 3: 30})
    lines = service.overview(tournament).standings
    assert [(line.place, line.name, line.hand_points) for line in lines[:4]] == [
        (1, played.names[0], 10),
        (2, played.names[1], 17),
        (3, played.names[2], 40),
        (4, played.names[3], 55),
    ]
    assert {line.name for line in lines[4:]} == {n for t in waiting for n in t.names}
    assert {line.place for line in lines[4:]} == {5}


def test_a_confirmed_result_is_final_at_the_table():
    """Found at a real table: one tap on "Undo last" after the confirmation
    opened a finished tournament again.  Verification as at a bridge table:
    once a player who did not win confirms, the table takes no more writes;
    only the organizer corrects it."""
    tournament = new()
    table = start(tournament).tables[0]
    win(table, table.names[0])
    refused(lambda: service.confirm_result(table, table.version, 0), "confirm_by_winner")
    confirm(table, 1)
    assert service.table_status(table).status == "finished"
    refused(lambda: undo_last(table, table.version), "result_final")
    refused(lambda: reenter(table, table.version, uuid.uuid4().hex, 1), "result_final")
    refused(
        lambda: store_hand(table, table.version, uuid.uuid4().hex, HandInput(closer=0, mode="points", points={0: 1})),
        "result_final",
    )


def test_a_table_that_fixes_a_disputed_hand_confirms_again():
    """A dispute waits for the organizer, or for the table to correct the
    hand: the confirmation from before the dispute (a stale page) is refused."""
    tournament = new()
    table = start(tournament).tables[0]
    win(table, table.names[0])
    seen = table.version
    with transaction():
        service.dispute_result(table, table.version, 3, "the last hand was 16")
    refused(lambda: service.confirm_result(table, seen, 1), "result_disputed")
    refused(lambda: service.confirm_result(table, table.version, 1), "result_disputed")
    with transaction():
        undo_last(table, table.version)
    assert service.table_status(table).status == "playing"
    win(table, table.names[0])  # one loser was left: out now
    assert service.table_status(table).status == "waiting"
    confirm(table, 2)
    assert service.table_status(table).status == "finished"


def test_a_disputed_table_waits_for_the_organizer_who_corrects_it_with_a_reason():
    tournament = new()
    table = start(tournament).tables[0]
    win(table, table.names[0])
    with transaction():
        service.dispute_result(table, table.version, 3, "Ben's last hand was 16, not 60")
    assert service.table_status(table).status == "disputed"
    refused(
        lambda: service.correct_result(tournament, tournament.version, table.id, [1, 0, 2, 3], "  "), "reason_missing"
    )
    refused(lambda: service.correct_result(tournament, tournament.version, table.id, [1, 0, 2], "x"), "order")
    with transaction():
        service.correct_result(tournament, tournament.version, table.id, [1, 0, 2, 3], "Ben's last hand was 16")
    status = service.table_status(table)
    assert status.status == "finished" and status.winners == [table.names[1]]
    assert status.result.reason == "Ben's last hand was 16"
    # Every word said about the table is kept, in order.
    assert [r.kind for r in table.results] == ["disputed", "corrected"]
    refused(lambda: service.confirm_result(table, table.version, 0), "result_final")


def test_confirming_while_the_table_still_plays_is_refused():
    tournament = new()
    table = start(tournament).tables[0]
    hand(table, 0, {0: 1, 1: 10, 2: 10, 3: 10})
    refused(lambda: service.confirm_result(table, table.version, 1), "table_playing")
    refused(lambda: service.confirm_result(table, table.version, 9), "table_playing")


def test_the_organizer_closes_a_table_with_its_standing_and_no_hand_is_added_after():
    tournament = new()
    table = start(tournament).tables[0]
    hand(table, 0, {0: 1, 1: 10, 2: 30, 3: 20})
    with transaction():
        service.close_table(tournament, tournament.version, table.id)
    status = service.table_status(table)
    assert status.status == "finished"
    assert [table.names[s] for s, _p in status.places] == [table.names[i] for i in (0, 1, 3, 2)]
    before = snapshot()
    with pytest.raises(ServiceError) as error, transaction():
        store_hand(
            table, table.version, uuid.uuid4().hex, HandInput(closer=0, mode="points", points={0: 1, 1: 1, 2: 1, 3: 1})
        )
    assert error.value.params["key"] == "table_closed"
    assert snapshot() == before


def test_undoing_a_round_start_deletes_its_empty_tables_and_draws_the_same_again():
    tournament = new()
    seating = [t.names for t in start(tournament).tables]
    with transaction():
        service.undo_round(tournament, tournament.version)
    assert tournament.played_rounds == [] and len(tournament.all_rounds) == 1
    assert db.session.scalar(select(func.count()).select_from(GameTable)) == 0
    assert [t.names for t in start(tournament).tables] == seating
    hand(tournament.played_rounds[0].tables[0], 0, {0: 1, 1: 10, 2: 10, 3: 10})
    refused(lambda: service.undo_round(tournament, tournament.version), "round_played")


def test_rounds_on_points_share_the_scale_on_a_tie_and_reseat_the_leaders_together():
    """Rounds on points, 4-2-1-0 with ties shared: two hands a round; the
    second round seats the top four at table 1."""
    settings = Settings(format="points", rounds=2, round_hands=2, scale=(4, 2, 1, 0), reseat="standing")
    tournament = new(settings=settings, overrides={})
    tables = start(tournament).tables
    assert all(t.hand_limit == 2 for t in tables)
    for table in tables:
        hand(table, 0, {0: 1, 1: 10, 2: 20, 3: 20})
        hand(table, 0, {0: 1, 1: 10, 2: 5, 3: 5})
        # A round of two hands takes no third.
        before = snapshot()
        with pytest.raises(ServiceError) as error, transaction():
            store_hand(
                table,
                table.version,
                uuid.uuid4().hex,
                HandInput(closer=0, mode="points", points={0: 1, 1: 1, 2: 1, 3: 1}),
            )
        assert error.value.params["key"] == "hand_limit"
        assert snapshot() == before
        assert service.table_status(table).status == "waiting"
        confirm(table)
    lines = service.overview(tournament).standings
    points = {line.name: line.points for line in lines}
    for table in tables:
        names = table.names
        assert [points[n] for n in names] == [4, 2, Fraction(1, 2), Fraction(1, 2)]  # 25 and 25 share 1 + 0
    # Equal tournament points: fewer hand points first (both seat 0s have 2).
    assert [line.place for line in lines][:2] == [1, 1]
    second = start(tournament)
    top = {n for n, p in points.items() if p >= 2}
    assert set(second.tables[0].names) == top


def test_a_random_reseat_keeps_players_apart_who_just_met():
    settings = Settings(format="points", rounds=3, round_hands=1, reseat="random")
    names = [f"P{i}" for i in range(16)]
    tournament = new(names=names, settings=settings, overrides={})
    first = start(tournament)
    for table in first.tables:
        hand(table, 0, {0: 1, 1: 10, 2: 20, 3: 30})
        confirm(table)
    second = start(tournament)
    met = pairs([t.names for t in first.tables])
    assert not met & pairs([t.names for t in second.tables])


def test_late_sign_ups_and_withdrawals_wait_for_the_round_and_a_knockout_closes_them():
    tournament = new()
    with transaction():
        service.sign_up(tournament, tournament.version, "  Iris ")
    with transaction():
        service.withdraw(tournament, tournament.version, tournament.players[0].id)
    refused(lambda: service.sign_up(tournament, tournament.version, "ben"), "name_twice")
    refused(lambda: service.sign_up(tournament, tournament.version, "x" * 41), "name_long")
    round_ = start(tournament)
    seated = {n for t in round_.tables for n in t.names}
    assert "Iris" in seated and "Ana" not in seated and len(seated) == 8
    refused(lambda: service.sign_up(tournament, tournament.version, "Juan"), "round_in_play")
    for table in round_.tables:
        win(table, table.names[0])
        confirm(table)
    refused(lambda: service.sign_up(tournament, tournament.version, "Juan"), "signup_closed")
    # A stale form (another phone started the round) is refused whole.
    before = snapshot()
    with pytest.raises(StaleError), transaction():
        service.start_round(tournament, tournament.version - 1)
    assert snapshot() == before


def test_the_pot_is_split_by_place_with_ties_sharing():
    """An entry fee of 5 from 8 players, split 70-30: the winner takes 28, second 12."""
    settings = Settings(entry=Decimal("5.00"), prizes=(70, 30))
    tournament = new(settings=settings)
    for _round in range(2):
        for table in start(tournament).tables:
            win(table, table.names[0])
            confirm(table)
    view = service.overview(tournament)
    assert view.over and view.pot_cents == 4000
    lines = view.standings
    assert view.prizes == {lines[0].name: 2800, lines[1].name: 1200}
    assert service.prize_cents(1000, [1, 1, 3], [50, 30, 20]) == [400, 400, 200]
    assert service.prize_cents(100, [1, 2, 2], [50, 50]) == [50, 25, 25]
    assert service.prize_cents(1001, [1, 2, 3], [34, 33, 33]) == [341, 330, 330]


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"format": "swiss"}, "format"),
        ({"advance": 3}, "advance"),
        ({"rounds": 0}, "rounds"),
        ({"round_hands": 41}, "round_hands"),
        ({"scale": (1, 2)}, "scale"),
        ({"reseat": "alphabet"}, "reseat"),
        ({"currency": "XXX"}, "currency"),
        ({"entry": Decimal("0.001")}, "entry"),
        ({"prizes": (50, 40)}, "prizes"),
        ({"prizes": (30, 70)}, "prizes"),
    ],
)
def test_bad_settings_are_refused_by_field_and_store_nothing(change, key):
    refused(lambda: new(settings=Settings(**change)), key)


def test_too_few_or_repeated_players_are_refused():
    refused(lambda: new(names=["Ana", "Ben", "", " "]), "players_few")
    refused(lambda: new(names=["Ana", "Ben", "ANA"]), "name_twice")
    refused(lambda: new(names=[f"P{i}" for i in range(321)]), "players_many")


def test_reentries_at_a_tournament_table_follow_the_tournaments_rules():
    """A table of the round is an ordinary table: a player out may buy back
    in when the tournament's rules allow it, and the table waits for it."""
    tournament = new(overrides={"target": 50})
    table = start(tournament).tables[0]
    hand(table, 0, {0: 1, 1: 60, 2: 1, 3: 1})
    assert next_step(table).pending_seats == [1]
    with transaction():
        reenter(table, table.version, uuid.uuid4().hex, 1)
    assert not standing(table).is_out(1)
