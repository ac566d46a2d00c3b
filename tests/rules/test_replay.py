"""A finished hand replayed move by move from its record (rules.game.replay)."""

from __future__ import annotations

import itertools
import random

import pytest

from companion.bots import GoodBot, SimpleBot, play_hand
from companion.rules import get_rules
from companion.rules.game import Close, Discard, Draw, HandGame, PlayError, Reshuffle, Void, replay


def played(rules, players, seed):
    game = HandGame.deal(rules, players, dealer=seed % players, rng=random.Random(seed))
    play_hand(game, [GoodBot() if s % 2 else SimpleBot() for s in range(players)], random.Random(seed + 1))
    return game


CASES = [
    (get_rules("classic"), 2),
    (get_rules("classic"), 4),
    (get_rules("classic", jokers=2), 3),
    (get_rules("classic", decks=2), 6),
    (get_rules("sweden"), 3),
    (get_rules("classic", max_reshuffles=3, close_max=0, close_rule="points"), 2),  # long hands: reshuffles
]


@pytest.mark.parametrize("rules,players", CASES)
@pytest.mark.parametrize("seed", range(6))
def test_every_recorded_hand_replays_to_its_end(rules, players, seed):
    """The deal rebuilt from the final position, then each move from the
    position before it gives the position before the next, and the last one
    the final position (the same cards everywhere, the same log)."""
    final = played(rules, players, seed)
    steps = replay(HandGame.from_dict(final.to_dict(), rules))
    assert [m for _, m in steps] == [m for m in final.log if not isinstance(m, Reshuffle | Void) or _abandoned(m)]
    first = steps[0][0]
    assert not first.log and first.turns_taken == 0 and all(len(h) == 7 for h in first.hands)
    assert len(first.discards) == 1 and sorted(first.cards_in_play()) == sorted(final.cards_in_play())
    for (before, move), (after, _) in itertools.pairwise(steps):
        if isinstance(move, Draw):
            assert after.hands[move.seat] == [*before.hands[move.seat], move.card]
        elif isinstance(move, Discard):
            assert after.discards[-1] == move.card and after.turns_taken == before.turns_taken + 1
        assert after.log[: len(before.log)] == before.log


def _abandoned(move):
    return isinstance(move, Void) and move.reason.value == "abandoned"


def test_a_long_hand_with_reshuffles_replays():
    """Nobody may close with loose points (close_max 0): the stock runs out and
    is rebuilt from the pile; the draws after each reshuffle still follow."""
    rules = get_rules("classic", max_reshuffles=3, close_max=0, close_rule="points")
    finals = [g for g in (played(rules, 2, seed) for seed in range(12)) if g.reshuffles]
    assert finals  # the case is really exercised
    for final in finals:
        steps = replay(final)
        assert sum(isinstance(m, Reshuffle) for m in steps[-1][0].log) >= final.reshuffles - 1
        assert len(steps) == sum(not isinstance(m, Reshuffle | Void) or _abandoned(m) for m in final.log)


def tampered(final, change):
    data = final.to_dict()
    change(data)
    return HandGame.from_dict(data, final.rules)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["log"].pop(0),  # a move missing
        lambda d: d["log"][0].update(card=None),  # a stock card not kept
        lambda d: d["log"][0].update(seat=7),  # no such seat
        lambda d: d["hands"][0].pop(),  # a card missing
        lambda d: d["log"].insert(1, dict(d["log"][1])),  # a move twice
    ],
)
def test_a_record_the_rules_do_not_allow_is_refused(change):
    final = played(get_rules("classic"), 2, 1)
    with pytest.raises(PlayError) as error:
        replay(tampered(final, change))
    assert error.value.field in ("log", "phase", "seat", "card")


def test_the_closer_shows_the_card_put_face_down():
    final = played(get_rules("classic"), 2, 3)
    steps = replay(final)
    if final.closer is not None:
        before, move = steps[-1]
        assert isinstance(move, Close) and move.card in before.hands[move.seat] and len(before.hands[move.seat]) == 8


@pytest.mark.parametrize("limit", [0])
def test_a_hand_void_when_the_stock_runs_out_past_the_house_rule_replays(limit):
    """SPEC §6: with ``max_reshuffles`` the stock may run out for good: the
    draw that finds it empty takes no card and the hand ends void.  Its record
    (no draw logged, then the void) replays to the same final position."""
    rules = get_rules("classic", max_reshuffles=limit, close_max=0, close_rule="points")
    finals = [g for g in (played(rules, 2, seed) for seed in range(40)) if g.void is not None]
    assert finals  # the case is really exercised
    for final in finals:
        assert final.void.reason.value == "reshuffles" and final.reshuffles == limit
        steps = replay(HandGame.from_dict(final.to_dict(), rules))
        assert len(steps) == sum(not isinstance(m, Reshuffle | Void) for m in final.log)
        assert isinstance(steps[-1][1], Discard)  # the last decision: the void is no one's


def test_a_void_hand_that_does_not_follow_from_its_deal_is_refused():
    rules = get_rules("classic", max_reshuffles=0, close_max=0, close_rule="points")
    final = next(g for g in (played(rules, 2, seed) for seed in range(40)) if g.void is not None)
    data = final.to_dict()
    data["log"].insert(len(data["log"]) - 1, dict(data["log"][-2]))  # one discard more before the void
    with pytest.raises(PlayError):
        replay(HandGame.from_dict(data, rules))
