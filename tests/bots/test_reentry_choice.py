"""A computer player's answer to "buy back in?" (SPEC §4: reenganche at the
highest total still in, paying the stake again)."""

from decimal import Decimal

import pytest

from companion.bots.equity import equity
from companion.bots.reentry import buys_back, win_chance
from companion.rules import get_rules, replay_match


def out_after(totals: dict[str, int], **options):
    """A classic match (to 100, re-entry with three still in) after one hand."""
    return replay_match(list(totals), [{"hand": totals}], get_rules("classic", **options))


def test_spec_4_a_computer_buys_back_in_when_it_costs_nothing():
    state = out_after({"Ana": 0, "Robo": 101, "Carla": 99, "Dani": 99})
    assert state.can_reenter == ["Robo"] and buys_back(state, "Robo")


def test_spec_4_reenganche_at_equal_totals_is_one_chance_in_as_many_as_are_in():
    # Ana and Carla both at 40: Robo comes back at 40, level with both.
    # Ana, Carla and Dani all at 40: Robo comes back at 40, level with them.
    state = out_after({"Ana": 40, "Robo": 101, "Carla": 40, "Dani": 40}, stake=1)
    assert state.can_reenter == ["Robo"] and state.reentry_price() == 40
    assert win_chance(state, "Robo") == pytest.approx(1 / 4)
    assert buys_back(state, "Robo")  # 1/4 of a pot of 5 beats a stake of 1


def test_spec_4_the_chance_is_a_share_of_the_heads_up_races_from_the_reentry_total():
    state = out_after({"Ana": 95, "Robo": 101, "Carla": 5, "Dani": 5}, stake=1)
    race = equity(100, False)
    at_95 = race(95, 95) * race(95, 5) ** 2  # Robo's strength, and Ana's
    at_5 = race(5, 95) ** 2 * race(5, 5)  # Carla's, and Dani's
    assert win_chance(state, "Robo") == pytest.approx(at_95 / (2 * at_95 + 2 * at_5))
    # Back at 95 against two players at 5: a small chance, not worth a stake of 1 for a pot of 5.
    assert win_chance(state, "Robo") * 5 < 1 and not buys_back(state, "Robo")


def test_spec_4_a_bigger_pot_makes_the_same_chance_worth_a_stake():
    state = out_after({"Ana": 80, "Robo": 101, "Carla": 10, "Dani": 20}, stake=1)
    chance = win_chance(state, "Robo")
    assert 0 < chance < 1 / 5 and not buys_back(state, "Robo")
    state.pot = Decimal(1 / chance) + 1  # a pot the chance pays for
    assert buys_back(state, "Robo")
