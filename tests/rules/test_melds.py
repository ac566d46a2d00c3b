"""SPEC §3: melds, wild cards and the exact solver."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import CardError, CountError, best_melds, get_rules, parse_cards
from companion.rules.close import close_facts
from companion.rules.melds import meld_context, suit_major

from .reference import Ref, as_tuples
from .test_properties import EXAMPLES, hands_of

classic = get_rules("classic")


def melds(text, rules=classic):
    return best_melds(parse_cards(text, rules.pack), rules)


def shown(arrangement):
    return sorted(" ".join(map(str, m)) for m in arrangement.melds)


def test_german_seed_carla_has_no_meld_and_scores_46():
    assert melds("2e 3b 6c 7b 10e 12c 12b").points == 46


def test_german_seed_ben_set_of_fives_leaves_17():
    result = melds("5b 5c 5e 4o 12o 2c 1c")
    assert result.points == 17
    assert shown(result) == ["5c 5e 5b"]


def test_swedish_seed_lone_eight_counts_eight():
    assert melds("5o 6o 7o 12c 12e 12b 8b", get_rules("sweden")).points == 8


def test_spanish40_seven_and_sota_are_adjacent():
    assert shown(melds("6c 7c 10c 1e")) == ["6c 7c 10c"]


def test_spanish48_keeps_eight_and_nine_so_six_seven_ten_is_no_run():
    assert melds("6c 7c 10c 1e", get_rules(deck="spanish48")).points == 24


def test_runs_never_wrap_from_rey_to_ace():
    assert melds("11o 12o 1o").points == 20


def test_a_set_needs_different_suits_even_with_two_decks():
    assert melds("7c 7c 7e").points == 21


def test_two_decks_let_one_five_serve_a_set_and_its_twin_a_run():
    result = melds("5o 5o 5c 5e 6o 7o")
    assert result.points == 0 and len(result.melds) == 2


def test_a_joker_fills_a_gap_in_a_run():
    result = melds("* 4o 6o 11b", get_rules(jokers=2))
    assert result.points == 9
    assert [str(c) for c in result.melds[0]] == ["4o", "*", "6o"]  # laid out where it stands


def test_unmatched_joker_counts_joker_points():
    assert melds("* 1c 7e", get_rules(jokers=2)).points == 33


def test_min_real_cards_two_jokers_and_one_card_is_no_meld():
    assert melds("* * 5c 4e", get_rules(jokers=2)).points == 59
    assert melds("* * 5c 4e", get_rules(jokers=2, min_real_cards=1)).points == 4


def test_wild_ace_of_oros_stands_for_a_five():
    assert melds("1o 5c 5e 2b 3b", get_rules(wild_cards=["1o"])).points == 5


def test_wild_ace_of_oros_may_stand_for_itself():
    assert melds("1o 1c 1e 4b", get_rules(wild_cards=["1o"])).points == 4


def test_french_deck_with_jokers_jqk_run_and_kings_with_a_joker():
    assert melds("11c 12c 13c * 13o 13e", get_rules(deck="french52", jokers=2)).points == 0


def test_a_set_with_wilds_has_at_most_four_cards():
    assert melds("5o 5c * *", get_rules(jokers=2)).points == 0
    # Five cards cannot all go in one set: two jokers with two fives, 5e left.
    five = melds("5o 5c 5e * *", get_rules(jokers=2))
    assert max(len(m) for m in five.melds) == 4 and five.points == 5


def test_a_run_with_wilds_must_fit_inside_the_deck():
    # 11o 12o + 2 jokers fits as 7-10-11-12; with 10 more cards it would not.
    assert melds("11o 12o * *", get_rules(jokers=2)).points == 0


def test_max_wilds_per_meld_house_rule():
    assert melds("4o * * 7o", get_rules(jokers=2)).points == 0
    assert melds("4o * * 7o", get_rules(jokers=2, max_wilds_per_meld=1)).points == 4 + 25 + 25 + 7


def test_best_melds_takes_one_to_eight_cards():
    with pytest.raises(CountError):
        best_melds([], classic)
    with pytest.raises(CountError):
        best_melds(parse_cards("1o 2o 3o 4o 5o 6o 7o 10o 11o"), classic)


def test_card_counts_are_checked_against_the_pack():
    with pytest.raises(CardError) as error:
        best_melds(parse_cards("* 1o 2o"), classic)
    assert error.value.field == "cards[0]"
    with pytest.raises(CardError) as error:
        best_melds(parse_cards("5o 5o 5o"), classic)
    assert error.value.field == "cards[2]"
    with pytest.raises(CardError) as error:
        best_melds(parse_cards("5o 5o"), get_rules("sweden"))
    assert error.value.field == "cards[1]"


# -- the invariant exactness rests on (companion/rules/melds.py docstring) ----------
LISTER_CONFIGS = {
    "classic": ("classic", {}),
    "two decks": ("classic", {"decks": 2}),
    "two jokers": ("classic", {"jokers": 2}),
    "two decks and two jokers": ("classic", {"decks": 2, "jokers": 2}),
    "wild A♦ and a joker": ("classic", {"wild_cards": ["1o"], "jokers": 1}),
    "two wild cards, two decks": ("italy", {"jokers": 1, "wild_cards": ["1o", "12b"], "decks": 2}),
    "min_real 1, three jokers": ("fournier", {"jokers": 3, "min_real_cards": 1}),
    "one wild per meld": ("classic", {"jokers": 2, "max_wilds_per_meld": 1}),
    "french52 and a joker": ("classic", {"deck": "french52", "jokers": 1}),
}


@pytest.mark.parametrize("name", list(LISTER_CONFIGS))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_candidate_lister_lists_exactly_the_subsets_that_are_melds(name, data):
    """Brute force over every subset of the hand: the lister must give each
    subset that is a meld, with its fewest wild cards, and nothing else."""
    preset, options = LISTER_CONFIGS[name]
    rules = get_rules(preset, **options)
    cards = data.draw(hands_of(rules, rules.copies(None), data.draw(st.integers(3, 8))))
    ref = Ref(rules)
    expected = {}
    for mask in range(1, 1 << len(cards)):
        wilds = ref.meld_wilds(as_tuples([c for i, c in enumerate(cards) if mask >> i & 1]))
        if wilds is not None:
            expected[mask] = wilds
    assert meld_context(rules).candidates([rules.pack.card_id(c) for c in cards]) == expected


@pytest.mark.parametrize("deck", ["spanish40", "spanish48", "french52"])
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_numbered_melds_of_a_plain_hand_are_exactly_its_subsets_that_are_melds(deck, data):
    """The close check's numbered melds of distinct real cards (no wilds),
    against brute force over every subset of the hand."""
    rules = get_rules("classic", deck=deck)
    cards = data.draw(hands_of(rules, 1, data.draw(st.integers(3, 8))))
    ids = [rules.pack.card_id(c) for c in cards]
    numbered = close_facts(rules).numbered
    found = numbered.of_hand(sum(1 << i for i in ids), suit_major(ids))
    got = {m for i, m in enumerate(numbered.melds) if found >> i & 1}
    ref = Ref(rules)
    expected = set()
    for mask in range(1, 1 << len(cards)):
        if ref.meld_wilds(as_tuples([c for i, c in enumerate(cards) if mask >> i & 1])) is not None:
            expected.add(sum(1 << ids[i] for i in range(len(cards)) if mask >> i & 1))
    assert got == expected


@pytest.mark.parametrize("deck", ["spanish40", "french52"])
def test_numbered_melds_are_in_increasing_order_with_their_points_and_disjoint_partners(deck):
    rules = get_rules("classic", deck=deck)
    numbered = close_facts(rules).numbered
    melds = numbered.melds
    assert melds == sorted(set(melds))
    cards = rules.pack.cards()
    for i, m in enumerate(melds):
        assert numbered.values[i] == rules.points([cards[b] for b in range(len(cards)) if m >> b & 1])
        assert numbered.disjoint[i] == sum(1 << j for j, n in enumerate(melds) if not m & n)
