"""The fast solver against the brute-force reference, for every preset and
the common table variants (jokers, wild A♦, two decks, house rules)."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.rules import JOKER, CardError, best_melds, check_close, get_rules, parse_card, settle_hand
from companion.rules.close import CloseOption, CloseVerdict, _option_rows, best_close, close_facts, make_hand
from companion.rules.melds import IndexedHand, PlainHand, meld_context
from companion.rules.validate import check_cards

from .reference import Ref, as_tuples

CONFIGS = {
    "classic": ("classic", {}),
    "fournier": ("fournier", {}),
    "sweden": ("sweden", {}),
    "italy": ("italy", {}),
    "classic+2 jokers": ("classic", {"jokers": 2}),
    "classic+wild A♦": ("classic", {"wild_cards": ["1o"]}),
    "two decks+jokers": ("classic", {"decks": 2, "jokers": 2}),
    "one wild per meld": ("classic", {"jokers": 2, "max_wilds_per_meld": 1}),
    "min_real 1": ("fournier", {"jokers": 2, "min_real_cards": 1}),
    "french52 ten": ("classic", {"deck": "french52", "court_values": "ten", "jokers": 1}),
    "italy wild+jokers": ("italy", {"jokers": 1, "wild_cards": ["1o", "12b"]}),
    "positive all-combined score": ("classic", {"jokers": 1, "all_combined_bonus": 3, "chinchon": 2}),
}
# CHINCHON_EXAMPLES=5000 for a long soak; the default keeps the suite quick.
EXAMPLES = int(os.environ.get("CHINCHON_EXAMPLES", "120"))
PROFILE = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def pack(rules, copies):
    return rules.pack.cards() * copies + [JOKER] * rules.jokers


@st.composite
def hands_of(draw, rules, copies, size):
    """Hands drawn from the whole pack, or (half the time) from a window of
    five ranks, where melds, duplicates and lay-offs are dense."""
    cards = pack(rules, copies)
    if draw(st.booleans()):
        ranks = rules.pack.ranks
        low = draw(st.integers(0, len(ranks) - 5))
        window = set(ranks[low : low + 5])
        dense = [c for c in cards if c.is_joker or c.rank in window]
        cards = dense if len(dense) >= size else cards
    return draw(st.permutations(cards))[:size]


@pytest.mark.parametrize("name", list(CONFIGS))
@PROFILE
@given(data=st.data())
def test_best_melds_matches_brute_force(name, data):
    preset, options = CONFIGS[name]
    rules = get_rules(preset, **options)
    n = data.draw(st.integers(1, 8))
    cards = data.draw(hands_of(rules, rules.copies(None), n))
    ref = Ref(rules)
    result = best_melds(cards, rules)
    assert result.points == ref.best_points(as_tuples(cards))
    ctx = meld_context(rules)
    for meld in result.melds:
        assert ref.meld_wilds(as_tuples(meld)) is not None
        assert ctx.is_meld([rules.pack.card_id(c) for c in meld])
    assert sorted([*(c for m in result.melds for c in m), *result.deadwood]) == sorted(cards)


@pytest.mark.parametrize("name", list(CONFIGS))
@PROFILE
@given(data=st.data())
def test_close_matches_brute_force(name, data):
    preset, options = CONFIGS[name]
    rules = get_rules(preset, **options)
    n = data.draw(st.sampled_from([7, 8]))
    cards = data.draw(hands_of(rules, rules.copies(None), n))
    first_round = data.draw(st.booleans())
    verdict = check_close(cards, rules, first_round)
    legal, score, wins = Ref(rules).close(as_tuples(cards), first_round)
    assert (verdict.legal, verdict.score, verdict.wins_match) == (legal, score, wins)
    shown = [c for m in verdict.melds for c in m] + list(verdict.deadwood)
    if verdict.discard is not None:
        shown.append(verdict.discard)
    assert sorted(shown) == sorted(cards)


@pytest.mark.parametrize("name", list(CONFIGS))
@PROFILE
@given(data=st.data())
def test_best_close_of_the_combinations_no_meld_can_join_is_the_best_of_all(name, data):
    """``more_melds_never_hurt``: when the rules pay no positive score for an
    all-combined close, the search may skip every combination of melds that
    another meld could join; the answer (tie-breaks included) is the same."""
    preset, options = CONFIGS[name]
    rules = get_rules(preset, **options)
    cards = data.draw(hands_of(rules, rules.copies(None), data.draw(st.sampled_from([7, 8]))))
    first_round = data.draw(st.booleans())
    hand = make_hand(cards, rules)
    facts = close_facts(rules)
    assert facts.maximal_only == (name != "positive all-combined score")
    every = min(_option_rows(hand, rules, first_round, None, hand.covers(), facts.loose_limit))
    assert best_close(hand, rules, first_round) == CloseOption._make(every)


#: Rules under which eight distinct real cards take the close check's plain
#: path (no wild cards; extra melds never hurt).
PLAIN_CONFIGS = {
    "classic": ("classic", {}),
    "fournier": ("fournier", {}),
    "sweden": ("sweden", {}),
    "italy (no Chinchón)": ("italy", {}),
    "Chinchón scores -100": ("classic", {"chinchon": -100}),
    "points up to 40": ("fournier", {"close_max": 40}),
    "first-round close": ("classic", {"first_round_close": True}),
    "french52 ten": ("classic", {"deck": "french52", "court_values": "ten"}),
}


@st.composite
def plain_eights(draw, rules):
    """Eight distinct real cards: from the whole pack, from a window of five
    ranks (sets and runs), or mostly from one suit (long runs, Chinchones)."""
    cards = rules.pack.cards()
    mode = draw(st.sampled_from(["pack", "window", "suit"]))
    if mode == "window":
        ranks = rules.pack.ranks
        low = draw(st.integers(0, len(ranks) - 5))
        cards = [c for c in cards if c.rank in ranks[low : low + 5]]
    elif mode == "suit":
        suit = draw(st.sampled_from(sorted({c.suit for c in cards})))
        run = [c for c in cards if c.suit == suit]
        mine = draw(st.permutations(run))[: draw(st.integers(6, 8))]
        others = [c for c in cards if c not in mine]
        return mine + draw(st.permutations(others))[: 8 - len(mine)]
    return draw(st.permutations(cards))[:8]


@pytest.mark.parametrize("name", list(PLAIN_CONFIGS))
@PROFILE
@given(data=st.data())
def test_close_of_eight_plain_cards_ranks_like_the_search_over_every_combination(name, data):
    """The plain eight-card path (melds by number, no row but the winner's)
    gives the best of every combination of melds, tie-breaks included."""
    preset, options = PLAIN_CONFIGS[name]
    rules = get_rules(preset, **options)
    cards = data.draw(plain_eights(rules))
    first_round = data.draw(st.booleans())
    hand = make_hand(cards, rules)
    assert type(hand) is PlainHand
    facts = close_facts(rules)
    every = min(_option_rows(hand, rules, first_round, None, hand.covers(), facts.loose_limit))
    assert best_close(hand, rules, first_round) == CloseOption._make(every)
    assert check_close(cards, rules, first_round)._option == CloseOption._make(every)


#: Rules under which eight distinct real cards with one or two jokers take
#: the close check's numbered joker path.
JOKER_CONFIGS = {
    "classic+2 jokers": ("classic", {"jokers": 2}),
    "italy+1 joker": ("italy", {"jokers": 1}),
    "one wild per meld": ("classic", {"jokers": 2, "max_wilds_per_meld": 1}),
    "min_real 1": ("fournier", {"jokers": 2, "min_real_cards": 1}),
    "min_real 3": ("fournier", {"jokers": 2, "min_real_cards": 3}),
    "jokers worth 5": ("classic", {"jokers": 3, "joker_points": 5}),
    "jokers worth nothing": ("classic", {"jokers": 2, "joker_points": 0}),
    "wild A♦ not held": ("classic", {"jokers": 2, "wild_cards": ["1o"]}),
    "french52 ten": ("classic", {"deck": "french52", "court_values": "ten", "jokers": 2}),
    "Chinchón scores -100": ("classic", {"chinchon": -100, "jokers": 1}),
}


@pytest.mark.parametrize(
    "tokens",
    [
        ["7e", "5e", "1e", "1o", "11e", "1b"],  # 5-J-7-J-C of espadas: 2 points (was: no close, 21)
        ["2o", "2c", "2e", "3b", "6b", "2b"],  # four 2s, the 3 and 6 of bastos: 4 points left (was 11)
        ["1o", "2b", "1b", "2o", "3b", "5o"],  # two runs with two jokers tie on 3 points
    ],
)
@pytest.mark.parametrize("first_round", [False, True])
def test_three_real_cards_a_meld_with_two_jokers_closes_like_the_search_over_every_combination(tokens, first_round):
    """Found by the property test below (house rule min_real_cards 3, two
    jokers): the search over the combinations no meld can join missed the
    best close, so a hand that closes for 2 points was called no close."""
    rules = get_rules("fournier", jokers=2, min_real_cards=3)
    cards = [*map(parse_card, tokens), JOKER, JOKER]
    hand = make_hand(cards, rules)
    every = CloseOption._make(
        min(_option_rows(hand, rules, first_round, None, hand.covers(), close_facts(rules).loose_limit))
    )
    assert check_close(cards, rules, first_round)._option == every
    if tokens[0] == "7e" and not first_round:
        verdict = check_close(cards, rules, first_round)
        assert verdict.legal and verdict.score == 2 and str(verdict.discard) == "1o"


@pytest.mark.parametrize("name", list(JOKER_CONFIGS))
@PROFILE
@given(data=st.data())
def test_close_of_eight_cards_with_jokers_ranks_like_the_search_over_every_combination(name, data):
    """The joker eight-card path (melds by number in the value order, no row
    but the winner's) gives the best of every combination of the indexed
    hand's melds, tie-breaks and bits included, and shows the same cards."""
    preset, options = JOKER_CONFIGS[name]
    rules = get_rules(preset, **options)
    jokers = data.draw(st.integers(1, min(2, rules.jokers)))
    reals = [c for c in data.draw(plain_eights(rules)) if c not in rules.wild_cards][: 8 - jokers]
    assume(len(reals) == 8 - jokers)
    cards = data.draw(st.permutations([*reals, *[JOKER] * jokers]))
    first_round = data.draw(st.booleans())
    hand = make_hand(cards, rules)
    assert type(hand) is IndexedHand
    facts = close_facts(rules)
    every = CloseOption._make(min(_option_rows(hand, rules, first_round, None, hand.covers(), facts.loose_limit)))
    verdict = check_close(cards, rules, first_round)
    assert verdict._option == every
    shown = CloseVerdict(hand, every, rules, first_round)
    assert (verdict.discard, verdict.melds, verdict.deadwood) == (shown.discard, shown.melds, shown.deadwood)


@pytest.mark.parametrize(
    "name", ["classic", "fournier", "italy", "classic+2 jokers", "two decks+jokers", "classic+wild A♦"]
)
@settings(
    max_examples=max(EXAMPLES // 2, 10),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_each_player_gets_their_lowest_points_given_the_table(name, data):
    preset, options = CONFIGS[name]
    rules = get_rules(preset, **options, close_rule="points", close_max=40)
    players = data.draw(st.integers(2, 4))
    cards = data.draw(hands_of(rules, rules.copies(players), 7 * players + 1))
    hands = [list(cards[i * 7 : i * 7 + 7]) for i in range(players)]
    hands[0].append(cards[7 * players])
    result = settle_hand(hands, rules, 0)
    assume(result.legal)
    ref = Ref(rules)
    closer = result.results[0]
    full = not closer.deadwood
    table = {(0, j): list(m) for j, m in enumerate(closer.melds)}
    limit = rules.run_limit(players)
    for p in range(1, players):
        r = result.results[p]
        allowed = [
            k
            for k in table
            if (k[0] == 0 and rules.layoffs != "none" and (not full or rules.layoff_onto_full_close))
            or (k[0] != 0 and rules.layoffs == "all")
        ]
        best = ref.lowest_after_layoffs(as_tuples(hands[p]), [as_tuples(table[k]) for k in allowed], limit)
        assert r.points == best, (p, hands, result.results)
        assert r.points == rules.points(r.deadwood)
        for x in r.layoffs:
            assert (x.player, x.meld) in allowed
            table[(x.player, x.meld)].append(x.card)
            assert ref.meld_wilds(as_tuples(table[(x.player, x.meld)])) is not None
        for j, m in enumerate(r.melds):
            table[(p, j)] = list(m)
        laid = [x.card for x in r.layoffs]
        assert sorted([*(c for m in r.melds for c in m), *laid, *r.deadwood]) == sorted(hands[p])


@pytest.mark.parametrize("name", ["classic", "sweden", "classic+2 jokers", "two decks+jokers", "french52 ten"])
@PROFILE
@given(data=st.data())
def test_close_refuses_exactly_the_hands_the_pack_cannot_hold(name, data):
    """The close check's quick count of copies agrees with the card checker."""
    preset, options = CONFIGS[name]
    rules = get_rules(preset, **options)
    players = data.draw(st.sampled_from([None, 2, 6]))
    cards = data.draw(st.lists(st.sampled_from([*rules.pack.cards(), JOKER]), min_size=8, max_size=8))
    try:
        check_cards(cards, rules, rules.copies(players))
        expected = None
    except CardError as error:
        expected = error.field
    try:
        check_close(cards, rules, players=players)
        got = None
    except CardError as error:
        got = error.field
    assert got == expected
