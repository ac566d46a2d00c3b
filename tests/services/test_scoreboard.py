"""The scoreboard's writes without HTTP: a match-winning Chinchón in every
position, corrections that name the later hand that no longer fits, and
undone hands offered back only when they can come back."""

from __future__ import annotations

import copy
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.extensions import db
from companion.models import GameTable, Hand, Reentry
from companion.rules import MatchState, format_cards, get_rules, parse_cards, replay_match
from companion.rules.close import chinchon_score, max_hand_points, possible_closer_scores
from companion.services.hands import HandInput, store_hand
from companion.services.reentries import reenter
from companion.services.standing import Mark, standing
from companion.services.tables import create_table
from companion.services.undo import restorable_hand, restore_hand, undo_last
from companion.services.unit import ServiceError, transaction

NAMES = ["Ana", "Ben", "Carla", "Dani"]


def new_table(names=NAMES, **overrides) -> GameTable:
    with transaction():
        table = create_table(
            name="", preset="classic", overrides=overrides, players=names, first_dealer=0, suit_style="spanish"
        )
    return table


def points_hand(table, closer, points, *, chinchon=False, replaces=None) -> Hand:
    data = HandInput(closer=closer, mode="points", points=dict(points), chinchon=chinchon)
    with transaction():
        return store_hand(table, table.version, uuid.uuid4().hex, data, replaces=replaces)


def cards_hand(table, closer, cards) -> Hand:
    data = HandInput(closer=closer, mode="cards", cards={s: parse_cards(c) for s, c in cards.items()})
    with transaction():
        return store_hand(table, table.version, uuid.uuid4().hex, data)


def decide(table, seat, *, buy):
    with transaction():
        reenter(table, table.version, uuid.uuid4().hex, seat, declined=not buy)


def undo(table):
    with transaction():
        return undo_last(table, table.version)


def hand_number(table, number) -> Hand:
    return next(h for h in table.active_hands() if h.number == number)


def refusal(call) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call()
    db.session.rollback()
    return caught.value


def totals(table) -> list[int]:
    current = standing(table)
    return [current.total(s) for s in range(len(table.names))]


def ana_out_ben_92_carla_67_dani_89() -> GameTable:
    """The position of the report: Ana out (she said no to buying back in)."""
    table = new_table()
    points_hand(table, 2, {0: 60, 1: 50, 2: 2, 3: 45})
    points_hand(table, 2, {0: 45, 1: 42, 2: 4, 3: 54})  # Ana 105: out
    decide(table, 0, buy=False)
    points_hand(table, 3, {1: 0, 2: 61, 3: -10})
    assert totals(table) == [105, 92, 67, 89]
    return table


# -- a Chinchón that wins the match --------------------------------------------------------
def test_spec_6_carlas_chinchon_wins_although_ben_and_danis_points_end_the_match_first(app):
    table = ana_out_ben_92_carla_67_dani_89()
    hand = points_hand(table, 2, {1: 20, 2: -10, 3: 15}, chinchon=True)
    assert hand.wins_match
    state = standing(table).state
    assert state.finished and state.winners == ["Carla"]
    # As SPEC §8 replays it: Ben and Dani go out, Carla is the last one in and
    # has won; a Chinchón event after the end would be refused, so none follows.
    replayed = replay_match(
        NAMES,
        [
            {"hand": {"Ana": 60, "Ben": 50, "Carla": 2, "Dani": 45}},
            {"hand": {"Ana": 45, "Ben": 42, "Carla": 4, "Dani": 54}},
            {"hand": {"Ben": 0, "Carla": 61, "Dani": -10}},
            {"hand": {"Ben": 20, "Carla": -10, "Dani": 15}},
        ],
        table.rules,
    )
    assert state.totals == replayed.totals and state.winners == replayed.winners
    assert totals(table) == [105, 112, 57, 104] and standing(table).rows[-1].counted


def test_spec_6_a_chinchon_whose_points_leave_the_match_open_counts_them(app):
    table = ana_out_ben_92_carla_67_dani_89()
    points_hand(table, 2, {1: 5, 2: -10, 3: 15}, chinchon=True)  # Dani out, Ben still in
    current = standing(table)
    assert current.state.winners == ["Carla"] and current.state.chinchon_by == "Carla"
    assert totals(table) == [105, 97, 57, 104] and current.rows[-1].counted


def test_spec_6_a_chinchon_wins_even_where_its_closers_own_score_would_put_them_out(app):
    # A house rule scoring an all-combined close +5: Ana at 98 would go over.
    table = new_table(NAMES[:3], all_combined_bonus=5, target=100)
    points_hand(table, 1, {0: 60, 1: 1, 2: 3})
    points_hand(table, 1, {0: 38, 1: 1, 2: 3})
    points_hand(table, 0, {0: 5, 1: 10, 2: 12}, chinchon=True)
    current = standing(table)
    assert current.state.winners == ["Ana"] and current.state.chinchon_by == "Ana"
    assert not current.rows[-1].counted and totals(table) == [98, 2, 6]


@st.composite
def positions(draw):
    """A match played by points up to a random position (eliminations,
    re-entries bought or refused), and a closer still in."""
    target = draw(st.sampled_from([30, 50, 100]))
    players = draw(st.integers(3, 4))
    rules = get_rules("classic", target=target, decks=1)  # the table fixes "auto" at creation
    most = max_hand_points(rules)
    scores = sorted(possible_closer_scores(rules))
    hands = []
    state = MatchState.start(NAMES[:players], rules)
    for _ in range(draw(st.integers(0, 6))):
        seats = [s for s, n in enumerate(state.players) if n not in state.out]
        closer = draw(st.sampled_from(seats))
        points = {s: draw(st.integers(0, most)) for s in seats if s != closer}
        points[closer] = draw(st.sampled_from(scores))
        trial = copy.deepcopy(state)
        trial.apply({"hand": {state.players[s]: p for s, p in points.items()}})
        if trial.finished:
            break
        state = trial
        decisions = {state.players.index(n): draw(st.booleans()) for n in state.can_reenter}
        for seat, buy in decisions.items():
            if buy and state.can_reentry(state.players[seat]):
                state.apply({"reentry": state.players[seat]})
        hands.append((closer, points, decisions))
    seats = [s for s, n in enumerate(state.players) if n not in state.out]
    closer = draw(st.sampled_from(seats))
    others = {s: draw(st.integers(0, most)) for s in seats if s != closer}
    return target, players, hands, closer, others


def play_position(target, players, hands):
    table = new_table(NAMES[:players], target=target)
    for closer, points, decisions in hands:
        points_hand(table, closer, points)
        for seat, buy in decisions.items():
            decide(table, seat, buy=buy)
    return table


def assert_won_by_chinchon(table, closer):
    """The closer has won; the points of the Chinchón hand count unless they
    end the match first (then no Chinchón event follows them) or cannot count."""
    current = standing(table)
    state, row = current.state, current.rows[-1]
    assert state.finished and state.winners == [table.names[closer]]
    assert state.chinchon_by == table.names[closer] or (row.counted and state.still_in == [table.names[closer]])


FEW = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FEW
@given(position=positions())
def test_spec_6_a_match_winning_chinchon_by_points_saves_in_every_position(app, position):
    target, players, hands, closer, others = position
    table = play_position(target, players, hands)
    points = {**others, closer: chinchon_score(table.rules)}
    points_hand(table, closer, points, chinchon=True)
    assert_won_by_chinchon(table, closer)


@FEW
@given(position=positions(), data=st.data())
def test_spec_6_a_match_winning_chinchon_by_cards_saves_in_every_position(app, position, data):
    target, players, hands, closer, _others = position
    table = play_position(target, players, hands)
    seats = standing(table).seats_in
    run = parse_cards("1o 2o 3o 4o 5o 6o 7o")
    pack = [c for c in table.rules.pack.cards() if c not in run]
    dealt = data.draw(st.permutations(pack))
    cards = {closer: format_cards([*run, dealt[0]])}
    others = [s for s in seats if s != closer]
    for i, seat in enumerate(others):
        cards[seat] = format_cards(dealt[1 + 7 * i : 8 + 7 * i])
    hand = cards_hand(table, closer, {s: " ".join(c) for s, c in cards.items()})
    assert hand.wins_match and hand.chinchon
    assert_won_by_chinchon(table, closer)


# -- corrections that change who went out ---------------------------------------------------
def three_hands_ana_50_60_scores_again() -> GameTable:
    table = new_table(NAMES[:3])
    points_hand(table, 1, {0: 50, 1: 3, 2: 20})
    points_hand(table, 1, {0: 10, 1: 3, 2: 20})
    points_hand(table, 1, {0: 10, 1: 3, 2: 20})
    return table


def test_a_correction_putting_ana_out_names_the_later_hand_she_scored_in(app):
    table = three_hands_ana_50_60_scores_again()
    error = refusal(lambda: points_hand(table, 1, {0: 60, 1: 3, 2: 20}, replaces=hand_number(table, 2)))
    assert error.params["key"] == "later_hand"
    assert error.params["problem"] == "out_scores" and error.params["name"] == "Ana"
    assert error.params["number"] == 3 and error.params["count"] == 1
    assert totals(table) == [70, 9, 60] and len(table.hands) == 3  # nothing stored


def test_a_correction_after_which_the_match_ends_earlier_names_where_it_ends(app):
    table = new_table(NAMES[:2])
    points_hand(table, 0, {0: 3, 1: 60})
    points_hand(table, 0, {0: 3, 1: 30})
    points_hand(table, 0, {0: 3, 1: 5})
    error = refusal(lambda: points_hand(table, 0, {0: 3, 1: 50}, replaces=hand_number(table, 2)))
    assert error.params["problem"] == "after_end" and error.params["end"] == 2
    assert error.params["number"] == 3 and error.params["count"] == 1


def test_a_correction_that_keeps_a_player_in_names_the_hand_without_her_points(app):
    table = new_table(NAMES[:3])
    points_hand(table, 1, {0: 60, 1: 3, 2: 20})
    points_hand(table, 1, {0: 50, 1: 3, 2: 20})  # Ana out, and only two would be left: no re-entry
    points_hand(table, 1, {1: 3, 2: 20})
    points_hand(table, 1, {1: 3, 2: 20})
    error = refusal(lambda: points_hand(table, 1, {0: 30, 1: 3, 2: 20}, replaces=hand_number(table, 2)))
    assert error.params["problem"] == "missing" and error.params["name"] == "Ana"
    assert error.params["number"] == 3 and error.params["count"] == 2


def test_a_correction_with_a_lost_reentry_says_why_she_cannot_buy_back_in(app):
    table = new_table()
    points_hand(table, 1, {0: 60, 1: 3, 2: 30, 3: 50})
    points_hand(table, 1, {0: 41, 1: 3, 2: 20, 3: 0})  # Ana out, buys back in at 50
    decide(table, 0, buy=True)
    points_hand(table, 1, {0: 10, 1: 3, 2: 10, 3: 0})
    # Correct hand 2 so that Carla goes out too: two are left, no re-entry for Ana.
    error = refusal(lambda: points_hand(table, 1, {0: 41, 1: 3, 2: 75, 3: 0}, replaces=hand_number(table, 2)))
    assert error.params.get("problem") == "reentry_lost" and error.params["name"] == "Ana", error.params
    assert error.params["reason"].params["key"] == "min_players" and error.params["number"] == 3
    assert db.session.query(Reentry).one().undone_at is None


def test_after_a_match_winning_chinchon_later_points_of_others_do_not_block_a_correction(app):
    table = new_table(NAMES[:3])
    points_hand(table, 1, {0: 60, 1: 3, 2: 20})
    points_hand(table, 1, {0: 20, 1: 3, 2: 20})
    points_hand(table, 2, {0: 15, 1: 30, 2: -10}, chinchon=True)  # Carla's Chinchón wins
    # Hand 2 corrected: Ana had 50 and went out then (only two left: no re-entry).
    points_hand(table, 1, {0: 50, 1: 3, 2: 20}, replaces=hand_number(table, 2))
    current = standing(table)
    assert current.state.winners == ["Carla"] and current.state.chinchon_by == "Carla"
    assert not current.rows[-1].counted  # Ana, out since hand 2, cannot score in it


# -- restoring an undone hand -------------------------------------------------------------------
def test_undo_hand_9_correct_hand_8_and_hand_9_is_no_longer_offered_as_restorable(app):
    table = new_table(NAMES[:3])
    for _ in range(7):
        points_hand(table, 1, {0: 5, 1: 1, 2: 3})
    points_hand(table, 1, {0: 40, 1: 1, 2: 3})  # hand 8: Ana 75
    points_hand(table, 1, {0: 20, 1: 1, 2: 3})  # hand 9: Ana 95
    assert undo(table) == "hand"
    points_hand(table, 1, {0: 70, 1: 1, 2: 3}, replaces=hand_number(table, 8))  # Ana 105: out, two left
    found = restorable_hand(table)
    assert found is not None and found.hand.number == 9
    assert found.refusal.params["why"] == "corrected" and found.refusal.params["corrected"] == 8
    error = refusal(lambda: restore_hand(table, table.version, 9))
    assert error.params["why"] == "corrected"
    assert [h.number for h in table.active_hands()] == list(range(1, 9))


def test_a_correction_that_leaves_the_undone_hand_fitting_keeps_it_restorable(app):
    table = new_table(NAMES[:3])
    points_hand(table, 1, {0: 2, 1: 1, 2: 3})
    points_hand(table, 1, {0: 20, 1: 1, 2: 3})
    undo(table)
    points_hand(table, 1, {0: 4, 1: 1, 2: 3}, replaces=hand_number(table, 1))
    found = restorable_hand(table)
    assert found.hand.number == 2 and found.refusal is None
    with transaction():
        restore_hand(table, table.version, 2)
    assert totals(table) == [24, 2, 6]


def test_an_undone_reentry_decision_is_pending_and_the_hand_after_it_waits(app):
    table = new_table()
    points_hand(table, 1, {0: 60, 1: 3, 2: 20, 3: 50})
    points_hand(table, 1, {0: 41, 1: 3, 2: 20, 3: 0})  # Ana out
    decide(table, 0, buy=False)
    points_hand(table, 1, {1: 3, 2: 20, 3: 0})
    assert undo(table) == "hand"
    assert undo(table) == "declined"  # Ana's "no" taken back: her decision is pending again
    found = restorable_hand(table)
    assert found.hand.number == 3 and found.refusal.params["why"] == "reentry_pending"
    assert found.refusal.params["names"] == ["Ana"]
    refusal(lambda: restore_hand(table, table.version, 3))
    decide(table, 0, buy=False)
    assert restorable_hand(table).refusal is None
    with transaction():
        restore_hand(table, table.version, 3)
    assert standing(table).last_number == 3


# -- the final standings -------------------------------------------------------------------------
def ranked(table) -> list[tuple[int, str, int | None]]:
    """The final standings as (place, name, hand that put the player out)."""
    return [(p.place, table.names[p.seat], p.out_in) for p in standing(table).ranking()]


def dani_out_in_hand_2(**overrides) -> GameTable:
    """Dani goes out first (104) and says no to buying back in; Ana, Ben and Carla play on."""
    table = new_table(**overrides)
    points_hand(table, 0, {0: -10, 1: 50, 2: 40, 3: 60})
    points_hand(table, 0, {0: -10, 1: 30, 2: 30, 3: 44})
    decide(table, 3, buy=False)
    return table


def test_final_standings_follow_the_order_players_went_out_the_first_out_last(app):
    # Ben (115) and Carla (108) go out together in hand 3: Ana, the last one
    # in, wins; Carla, out in the same hand with the lower total, is second;
    # Dani, the first out, is last although her total (104) is the lowest out.
    table = dani_out_in_hand_2()
    points_hand(table, 0, {0: -10, 1: 35, 2: 38})
    assert standing(table).state.winners == ["Ana"]
    assert totals(table) == [-30, 115, 108, 104]
    assert ranked(table) == [(1, "Ana", None), (2, "Carla", 3), (3, "Ben", 3), (4, "Dani", 2)]


def test_final_standings_players_out_in_the_same_hand_with_equal_totals_share_the_place(app):
    table = dani_out_in_hand_2()
    points_hand(table, 0, {0: -10, 1: 30, 2: 40})  # Ben and Carla both at 110
    assert ranked(table) == [(1, "Ana", None), (2, "Ben", 3), (2, "Carla", 3), (4, "Dani", 2)]


def test_final_standings_when_all_go_out_in_one_hand_the_lowest_total_wins_and_equal_totals_share(app):
    table = new_table(NAMES[:3])
    points_hand(table, 0, {0: 1, 1: 50, 2: 50})
    points_hand(table, 1, {0: 50, 1: 1, 2: 48})
    points_hand(table, 2, {0: 47, 1: 47, 2: 1})  # 98, 98, 99
    points_hand(table, 0, {0: 4, 1: 5, 2: 4})  # everyone out: 102, 103, 103
    assert standing(table).state.winners == ["Ana"] and totals(table) == [102, 103, 103]
    assert ranked(table) == [(1, "Ana", 4), (2, "Ben", 4), (2, "Carla", 4)]


def test_final_standings_put_players_still_in_above_all_out_and_a_comeback_by_its_last_time_out(app):
    table = new_table()
    points_hand(table, 0, {0: -10, 1: 20, 2: 40, 3: 60})
    points_hand(table, 0, {0: -10, 1: 10, 2: 30, 3: 45})  # Dani 105: out, buys back in at 70
    decide(table, 3, buy=True)
    points_hand(table, 0, {0: -10, 1: 10, 2: 35, 3: 5})  # Carla 105: out, says no
    decide(table, 2, buy=False)
    points_hand(table, 0, {0: -10, 1: 10, 3: 30})  # Dani 105 again; two in: no buying back
    points_hand(table, 0, {0: chinchon_score(table.rules), 1: 20}, chinchon=True)
    current = standing(table)
    assert current.state.winners == ["Ana"] and totals(table) == [-40 + chinchon_score(table.rules), 70, 105, 105]
    # Ben never went out: above both; Dani and Carla, equal totals, by when they went out.
    assert ranked(table) == [(1, "Ana", None), (2, "Ben", None), (3, "Dani", 4), (4, "Carla", 3)]


def test_a_hand_row_keeps_the_total_that_put_a_player_out_the_pot_and_how_it_was_closed(app):
    table = new_table(stake="2")
    points_hand(table, 0, {0: -10, 1: 20, 2: 40, 3: 60})
    points_hand(table, 1, {0: 10, 1: 2, 2: 30, 3: 49})  # Dani 109: out, buys back in at 70
    decide(table, 3, buy=True)
    points_hand(table, 2, {0: 5, 1: 8, 2: chinchon_score(table.rules), 3: 1}, chinchon=True)
    first, second, third = standing(table).rows
    assert second.reached[3] == 109 and second.totals[3] == 70 and second.reentries == [3]
    assert (first.pot, second.paid_in, second.pot, third.pot) == (8, 2, 10, 10) and first.paid_in == 0
    assert (first.mark, second.mark, third.mark) == (Mark.ALL_COMBINED, None, Mark.CHINCHON)
