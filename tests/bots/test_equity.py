"""Heads-up match equity: the chance to win from two totals."""

from __future__ import annotations

import pytest

from companion.bots.equity import equity

eq = equity(100, reach=False)


@pytest.mark.parametrize("mine,theirs", [(0, 0), (30, 70), (95, 12), (-10, 88)])
def test_the_two_players_chances_add_up_to_one(mine, theirs):
    assert eq(mine, theirs) + eq(theirs, mine) == pytest.approx(1.0)


def test_a_player_over_the_target_is_out_and_when_both_go_out_the_lower_total_wins():
    assert eq(101, 40) == 0.0 and eq(40, 101) == 1.0 and eq(100, 40) > 0.0
    assert eq(104, 110) == 1.0 and eq(110, 104) == 0.0 and eq(105, 105) == 0.5
    assert equity(100, reach=True)(100, 40) == 0.0  # eliminate "reach": at the target is out


def test_points_cost_more_near_the_target():
    assert all(eq(t, 50) > eq(t + 1, 50) for t in range(-20, 100))
    early = eq(0, 50) - eq(10, 50)
    late = eq(85, 50) - eq(95, 50)
    assert late > 1.5 * early


def test_one_point_at_the_start_weighs_about_one():
    assert eq.points * (eq(0, 1) - eq(1, 0)) / 2 == pytest.approx(1.0, rel=0.3)
