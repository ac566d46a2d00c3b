"""SPEC §6: totals, eliminations, reenganche, pot and winners."""

import pytest

from companion.rules import MatchError, get_rules, replay_match
from companion.rules.errors import ChinchonError


def replay(players, events, **options):
    preset = options.pop("preset", "classic")
    return replay_match(players, events, get_rules(preset, **options))


def test_totals_add_hands_and_negative_scores_subtract():
    m = replay(["Ana", "Ben"], [{"hand": {"Ana": 30, "Ben": 3}}, {"hand": {"Ana": -10, "Ben": 40}}], stake=1)
    assert m.totals == {"Ana": 20, "Ben": 43} and not m.finished and m.pot == 2


def test_over_one_hundred_is_out_and_the_last_player_in_wins_the_pot():
    m = replay(["Ana", "Ben"], [{"hand": {"Ana": 60, "Ben": 3}}, {"hand": {"Ana": 41, "Ben": 40}}], stake=1)
    assert m.out == ["Ana"] and m.finished and m.winners == ["Ben"]


def test_eliminate_over_keeps_exactly_one_hundred_in_reach_puts_it_out():
    events = [{"hand": {"Ana": 60, "Ben": 3}}, {"hand": {"Ana": 40, "Ben": 40}}]
    assert replay(["Ana", "Ben"], events).still_in == ["Ana", "Ben"]
    assert replay(["Ana", "Ben"], events, eliminate="reach").winners == ["Ben"]


def test_target_seventy_and_no_reentry_below_three_players():
    m = replay(["Ana", "Ben", "Carla"], [{"hand": {"Ana": 71, "Ben": 3, "Carla": 10}}], target=70, stake=2)
    assert m.out == ["Ana"] and m.can_reenter == [] and m.pot == 6


def test_reenganche_at_the_highest_total_still_in_paying_the_stake_again():
    players = ["Ana", "Ben", "Carla", "Dani"]
    m = replay(players, [{"hand": {"Ana": 101, "Ben": 30, "Carla": 20, "Dani": 50}}], stake=1)
    assert m.can_reenter == ["Ana"]
    m = replay(players, [{"hand": {"Ana": 101, "Ben": 30, "Carla": 20, "Dani": 50}}, {"reentry": "Ana"}], stake=1)
    assert m.totals["Ana"] == 50 and m.still_in == players and m.pot == 5 and m.reentries["Ana"] == 1


def test_classic_allows_one_reentry_per_player():
    players = ["Ana", "Ben", "Carla", "Dani"]
    events = [
        {"hand": {"Ana": 101, "Ben": 0, "Carla": 0, "Dani": 0}},
        {"reentry": "Ana"},
        {"hand": {"Ana": 60, "Ben": 0, "Carla": 0, "Dani": 0}},
    ]
    assert replay(players, events).can_reenter == []
    with pytest.raises(MatchError) as error:
        replay(players, [*events, {"reentry": "Ana"}])
    assert error.value.field == "events[3]"


def test_reentry_is_only_right_after_the_hand_that_put_you_out():
    players = ["Ana", "Ben", "Carla", "Dani"]
    events = [{"hand": {"Ana": 101, "Ben": 0, "Carla": 0, "Dani": 0}}, {"hand": {"Ben": 1, "Carla": 1, "Dani": 1}}]
    with pytest.raises(MatchError) as error:
        replay(players, [*events, {"reentry": "Ana"}])
    assert error.value.field == "events[2]"


def test_italian_reentry_with_two_left_and_unlimited():
    events = [
        {"hand": {"Ana": 101, "Ben": 30, "Carla": 20}},
        {"reentry": "Ana"},
        {"hand": {"Ana": 71, "Ben": 0, "Carla": 0}},
        {"reentry": "Ana"},
    ]
    m = replay(["Ana", "Ben", "Carla"], events, preset="italy", stake=1)
    assert m.totals == {"Ana": 30, "Ben": 30, "Carla": 20} and m.pot == 5


def test_everyone_out_in_one_hand_lowest_total_wins_and_ties_share():
    m = replay(
        ["Ana", "Ben", "Carla"],
        [{"hand": {"Ana": 90, "Ben": 95, "Carla": 99}}, {"hand": {"Ana": 20, "Ben": 20, "Carla": 2}}],
    )
    assert m.winners == ["Carla"]
    m = replay(
        ["Ana", "Ben", "Carla"],
        [{"hand": {"Ana": 90, "Ben": 95, "Carla": 99}}, {"hand": {"Ana": 15, "Ben": 10, "Carla": 6}}],
    )
    assert sorted(m.winners) == ["Ana", "Ben", "Carla"]


def test_a_chinchon_ends_the_match_at_once():
    m = replay(["Ana", "Ben", "Carla"], [{"hand": {"Ana": 30, "Ben": 3, "Carla": 10}}, {"chinchon": "Ben"}])
    assert m.finished and m.winners == ["Ben"]
    with pytest.raises(MatchError) as error:
        replay(["Ana", "Ben"], [{"chinchon": "Ben"}], preset="italy")
    assert error.value.field == "events[0]"


def test_swedish_five_players_one_reenters_the_other_still_may():
    players = ["Ana", "Ben", "Carla", "Dani", "Eva"]
    events = [{"hand": {"Ana": 101, "Ben": 102, "Carla": 0, "Dani": 0, "Eva": 0}}, {"reentry": "Ben"}]
    m = replay(players, events, preset="sweden", stake=5)
    assert m.totals["Ben"] == 0 and m.can_reenter == ["Ana"] and m.pot == 30


def test_decimal_stakes_make_a_decimal_pot():
    m = replay(["Ana", "Ben", "Carla"], [], stake=0.5)
    assert m.to_dict()["pot"] == 1.5


@pytest.mark.parametrize(
    "events,index",
    [
        ([{"hand": {"Ana": 101, "Ben": 0}}, {"hand": {"Ben": 5}}], 1),  # after the end
        ([{"hand": {"Ana": 5}}], 0),  # Ben missing
        ([{"hand": {"Ana": 5, "Ben": 1, "Zoe": 3}}], 0),  # unknown player
        ([{"hand": {"Ana": "5", "Ben": 1}}], 0),  # points not a number
        ([{"hand": {"Ana": 5.5, "Ben": 1}}], 0),
        ([{"reentry": "Ana"}], 0),  # not out
        ([{"draw": "Ana"}], 0),  # unknown event
        (["hand"], 0),
        ([{"hand": {"Ana": 1, "Ben": 1}, "reentry": "Ana"}], 0),
    ],
)
def test_events_that_break_the_rules_name_the_event(events, index):
    with pytest.raises(MatchError) as error:
        replay(["Ana", "Ben"], events)
    assert error.value.field == f"events[{index}]"


@pytest.mark.parametrize(
    "players", [["Ana"], ["Ana", "Ana"], ["Ana", ""], ["A", "B", "C", "D", "E", "F", "G", "H", "I"], ["Ana", 3]]
)
def test_bad_player_lists(players):
    with pytest.raises(ChinchonError) as error:
        replay(players, [])
    assert error.value.field == "players"


@pytest.mark.parametrize(
    ("players", "named"),
    [
        (["Ana", "Ben", "ana"], "Ana"),
        (["Ben", " Ana  María", "Carla", "ANA MARÍA", "ben"], "Ben"),
        (["Ben", " Ana  María", "Carla", "ANA MARÍA"], "Ana María"),
        (["Ana\u200b", "Ana"], "Ana"),
    ],
)
def test_two_players_of_one_name_are_refused_naming_the_first_as_typed(players, named):
    """Compared as ``rules.names`` compares names; the first of them shown as
    it is stored (spaces and invisible characters put right), under the same
    key and field as ever."""
    with pytest.raises(ChinchonError) as error:
        replay(players, [])
    assert (error.value.field, error.value.params) == ("players", {"key": "name_twice", "name": named})
    assert error.value.message == f"Two players are called {named}; give each a different name."
