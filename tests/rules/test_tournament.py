"""The knockout's ranking rule (``rules.tournament.knockout_rank``), with the
example it comes from."""

from __future__ import annotations

from companion.rules.tournament import knockout_rank


def test_a_round_in_play_ranks_by_each_tables_place_so_far_then_points():
    """A club night's knockout, round 1 in play: the leader of table 1 has 10
    points after two hands, the eight players of tables 2 and 3 no hand yet
    (tied first at their tables, with 0 points).  An organizer reads the
    leader first: a table with no hand yet places nobody."""
    leader = ("Leader", knockout_rank(alive=True, reached=1, place=1, points=10))
    second = ("Second", knockout_rank(alive=True, reached=1, place=2, points=17))
    waiting = [(f"Waiting {i}", knockout_rank(alive=True, reached=1, place=None, points=0)) for i in range(8)]
    order = [name for name, _key in sorted([*waiting, second, leader], key=lambda line: line[1])]
    assert order[:2] == ["Leader", "Second"]
    assert set(order[2:]) == {name for name, _key in waiting}
    # Among placed players, the place comes before the points; then fewer points.
    assert knockout_rank(alive=True, reached=1, place=1, points=40) < knockout_rank(
        alive=True, reached=1, place=2, points=3
    )
    assert knockout_rank(alive=True, reached=1, place=1, points=8) < leader[1]
    # Still in the running and the furthest round reached come first, as before.
    assert knockout_rank(alive=True, reached=2, place=None, points=0) < leader[1]
    assert leader[1] < knockout_rank(alive=False, reached=1, place=1, points=0)
