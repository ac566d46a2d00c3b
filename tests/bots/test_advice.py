"""The advisor's figures against plain enumeration with the engine itself."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from companion.bots.advice import advise, unseen_cards
from companion.rules import ChinchonError, best_melds, check_close, get_rules, parse_cards

classic = get_rules("classic")


def kept_of(hand, d):
    kept = list(hand)
    kept.remove(d)
    return kept


def keep_best(eight, rules):
    """The reference policy: fewest loose points, then throw the higher card, then the later card."""
    options = []
    for e in set(eight):
        rest = kept_of(eight, e)
        options.append(((best_melds(rest, rules, copies=2).points, -rules.value(e), e), rest))
    return min(options)[1]


def can_close(eight, rules):
    return check_close(eight, rules).legal


def reference(rules, hand, seen, players=2, draws=3):
    unseen = unseen_cards(rules, hand, seen, players)
    out = {}
    for d in dict.fromkeys(hand):
        kept = kept_of(hand, d)
        nxt = sum(can_close([*kept, c], rules) for c in unseen) / len(unseen)
        pts = sum(best_melds(keep_best([*kept, c], rules), rules).points for c in unseen) / len(unseen)
        hits = total = 0
        for seq in itertools.permutations(range(len(unseen)), min(draws, len(unseen))):
            k = kept
            total += 1
            for i in seq:
                eight = [*k, unseen[i]]
                if can_close(eight, rules):
                    hits += 1
                    break
                k = keep_best(eight, rules)
        out[d] = (nxt, pts, hits / total)
    return out


def seen_except(hand, unseen):
    """Every other card of the pack counts as seen, leaving only ``unseen``."""
    out = set(parse_cards(hand)) | set(parse_cards(unseen))
    return " ".join(str(c) for c in classic.pack.cards() if c not in out)


# Few unseen cards, so that three draws can be enumerated too.
SMALL = [
    ("11c 11e 11b 5o 6o 7o 3c 12e", "3o 11o 5c 4e 12e 1b 7c"),
    ("4o 5o 6o 7c 7e 10b 10c 1e", "7o 10o 11o 10e 7b 11b 12b 3o"),
    ("1o 2o 3o 5c 5e 10b 11b 7e", "5b 5o 4o 12b 7o 6e 2c 1e"),
]
SMALL = [(hand, seen_except(hand, unseen)) for hand, unseen in SMALL]


@pytest.mark.parametrize("hand,seen", SMALL)
def test_close_next_and_expected_points_are_exact(hand, seen):
    hand, seen = parse_cards(hand), parse_cards(seen)
    advice = advise(classic, hand, seen, samples=20)
    ref = reference(classic, hand, seen, draws=0)
    assert len(advice.rows) == len(ref)
    for row in advice.rows:
        nxt, pts, _ = ref[row.discard]
        assert row.close_next == pytest.approx(nxt, abs=1e-12)
        assert row.expected_points == pytest.approx(pts, abs=1e-12)


@pytest.mark.parametrize("hand,seen", SMALL)
def test_close_within_three_draws_matches_enumeration(hand, seen):
    """Sampled with 4000 sequences: within 0.03 of the exact share (over 4 standard errors)."""
    hand, seen = parse_cards(hand), parse_cards(seen)
    advice = advise(classic, hand, seen, samples=4000, seed=5)
    ref = reference(classic, hand, seen)
    for row in advice.rows:
        assert abs(row.close_within_3 - ref[row.discard][2]) < 0.03, row


def test_the_same_seed_gives_the_same_figures():
    hand = parse_cards("4o 5o 6o 7c 7e 10b 10c 1e")
    assert advise(classic, hand, seed=3, samples=300) == advise(classic, hand, seed=3, samples=300)


def test_a_close_now_is_recommended_with_its_best_score():
    advice = advise(classic, parse_cards("11c 11e 11b 5o 6o 7o 3c 12e"), samples=50)
    assert str(advice.recommended) == "12e"
    row = {str(r.discard): r for r in advice.rows}["12e"]
    assert row.close_now and row.close_score == 3 and row.close_next == 1.0 == row.close_within_3


def test_seven_cards_give_one_row_and_no_recommendation():
    advice = advise(classic, parse_cards("11c 11e 11b 5o 6o 7o 3c"), samples=50)
    assert [r.discard for r in advice.rows] == [None] and advice.recommended is None
    # 29 unseen; closing needs the 4o or 1o..4 of any suit... compared with the engine:
    unseen = unseen_cards(classic, parse_cards("11c 11e 11b 5o 6o 7o 3c"), [], 2)
    expected = sum(can_close([*parse_cards("11c 11e 11b 5o 6o 7o 3c"), c], classic) for c in unseen) / len(unseen)
    assert advice.rows[0].close_next == expected


def test_two_decks_and_jokers_count_every_copy():
    rules = get_rules("classic", jokers=2)
    hand = parse_cards("* 4o 5o 6o 7c 7e 10b 10c")
    unseen = unseen_cards(rules, hand, [], 5)
    assert len(unseen) == 80 + 2 - 8 and Counter(unseen)[parse_cards("4o")[0]] == 1
    advice = advise(rules, hand, players=5, samples=30)
    ref = reference(rules, hand, [], players=5, draws=0)
    for row in advice.rows:
        assert row.close_next == pytest.approx(ref[row.discard][0])


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({"hand": parse_cards("1o 2o 3o")}, "hand"),
        ({"hand": parse_cards("1o 2o 3o 4o 5o 6o 7o 7o")}, "hand[7]"),
        ({"seen": parse_cards("2c 1o")}, "seen[1]"),
        ({"players": 9}, "players"),
        ({"stock": 99}, "stock"),
        ({"samples": 0}, "samples"),
    ],
)
def test_bad_input_names_the_field(kwargs, field):
    args = {"hand": parse_cards("1o 2o 3o 4o 5o 6o 7o 7c")} | kwargs
    hand = args.pop("hand")
    with pytest.raises(ChinchonError) as error:
        advise(classic, hand, **args)
    assert error.value.field == field
