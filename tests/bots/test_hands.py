"""The bots' memoised hand evaluation agrees with the engine exactly."""

from __future__ import annotations

import random

import pytest

from companion.bots.hands import evaluator
from companion.rules import JOKER, best_melds, check_close, get_rules, parse_cards

PRESETS = ["classic", "fournier", "sweden", "italy"]
#: A house rule: loose points up to 40, more than any one card (the close rule's other kind at its widest).
WIDE = get_rules("fournier", close_max=40)


def near_closable(rules, rng):
    """Seven cards with at least one meld (the hands that matter to the bots)."""
    ev = evaluator(rules)
    while True:
        hand = rng.sample(rules.pack.cards(), 7)
        if ev.loose(hand) < rules.points(hand):
            return hand


@pytest.mark.parametrize("rules", [*map(get_rules, PRESETS), WIDE], ids=[*PRESETS, "points up to 40"])
def test_loose_points_and_closes_match_the_engine(rules):
    ev = evaluator(rules)
    rng = random.Random(7)
    for _ in range(300):
        hand = near_closable(rules, rng)
        eight = [*hand, rng.choice([c for c in rules.pack.cards() if c not in hand])]
        assert ev.loose(hand) == best_melds(hand, rules).points
        assert ev.loose(eight) == best_melds(eight, rules).points
        verdict = check_close(hand, rules)
        assert (ev.close_score(hand) is not None) == verdict.legal
        if verdict.legal:
            assert ev.close_score(hand) == (-1000 if verdict.wins_match else verdict.score)


def test_one_card_rule_prefers_fewer_loose_cards():
    """1o 2c loose (3 points, two cards) is not a close; 4b alone is."""
    rules = get_rules("classic")
    ev = evaluator(rules)
    hand = parse_cards("5o 6o 7o 10e 11e 12e 4b")
    assert ev.close_score(hand) == 4
    assert ev.close_score(parse_cards("5o 6o 7o 10e 11e 1o 2c")) is None


def test_a_chinchon_is_marked_and_wilds_go_to_the_engine():
    rules = get_rules("classic")
    assert evaluator(rules).close_score(parse_cards("1o 2o 3o 4o 5o 6o 7o")) == -1000
    jokers = get_rules("classic", jokers=2)
    hand = parse_cards("* 2o 3o 4o 5o 6o 7o")
    assert JOKER in hand
    assert evaluator(jokers).close_score(hand) == check_close(hand, jokers).score
    assert evaluator(jokers).loose(parse_cards("* 5b 10o")) == best_melds(parse_cards("* 5b 10o"), jokers).points


@pytest.mark.parametrize("rules", [*map(get_rules, PRESETS), WIDE], ids=[*PRESETS, "points up to 40"])
def test_eight_cards_best_discard_and_close_match_the_engine(rules):
    """The one-pass answer for eight cards (a free discard inside the search)
    equals trying every discard with the engine."""
    ev = evaluator(rules)
    rng = random.Random(11)
    closes = 0
    for _ in range(300):
        seven = near_closable(rules, rng)
        eight = [*seven, rng.choice([c for c in rules.pack.cards() if c not in seven])]
        mask = ev.mask(eight)
        loose, legal, score = ev.eight_mask(mask)
        verdict = check_close(eight, rules)
        assert loose == min(best_melds([c for c in eight if c != e], rules).points for e in eight)
        assert legal == verdict.legal
        assert score == ((-1000 if verdict.wins_match else verdict.score) if legal else None)
        keep = ev.keep_mask(mask)
        assert keep.bit_count() == 7 and keep & mask == keep and ev.points_of_mask(keep) == loose
        closes += legal
    assert closes > 10  # the sample holds real closes
