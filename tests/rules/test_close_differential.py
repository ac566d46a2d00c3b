"""Close checks against a slow search written from the rules alone.

The reference below knows nothing of the solver's tables: it tries every
subset of the hand as a meld with the brute-force checker of
``reference.py``, every set of disjoint melds, and every way of closing they
allow, ranked as :class:`~companion.rules.close.CloseOption` documents
(legal first, then winning the match, the fewest points, the fewest loose
cards, the fewest melds, the lowest meld bits).  The public ``check_close``
must choose exactly the same option (every field, so the same discard, melds
and deadwood), for the three rule sets the benchmark times (one deck, two
jokers, two decks) and the common variants, with named discards, seven kept
cards and the first round.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import JOKER, Card, CardError, CountError, Rules, check_close, get_rules
from companion.rules.close import CloseOption, reason_for
from companion.rules.validate import check_cards

from .reference import Ref, as_tuples

#: (preset, overrides, players): players fixes how many copies the pack holds.
RULE_SETS = {
    "classic, one deck": ("classic", {}, 4),
    "classic + 2 jokers": ("classic", {"jokers": 2}, 4),
    "two decks": ("classic", {}, 8),
    "two decks + 2 jokers": ("classic", {"jokers": 2}, 8),
    "fournier (points)": ("fournier", {}, 4),
    "italy (no Chinchón)": ("italy", {"jokers": 1}, 6),
    "wild A♦": ("classic", {"wild_cards": ["1o"]}, 6),
    "one wild per meld": ("classic", {"jokers": 2, "max_wilds_per_meld": 1}, 4),
    "min_real 1": ("fournier", {"jokers": 2, "min_real_cards": 1}, 4),
    "french52, courts ten": ("classic", {"deck": "french52", "court_values": "ten", "jokers": 1}, 4),
    "four jokers worth nothing": ("classic", {"jokers": 4, "joker_points": 0}, 4),
    "Chinchón scores -100": ("classic", {"chinchon": -100, "jokers": 1}, 4),
    "positive all-combined score": ("classic", {"jokers": 1, "all_combined_bonus": 3, "chinchon": 2}, 4),
}
PROFILE = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def hand_bits(cards: list[Card], rules: Rules) -> tuple[list[int], bool]:
    """Each card's bit, as the engine numbers them, and whether the hand is
    plain: a hand of distinct real cards, none wild, uses the cards' deck
    ids; any other hand numbers its cards from the most valuable (ties: lower
    deck id first)."""
    deck = rules.pack
    ids = [deck.card_id(c) for c in cards]
    wild = {deck.card_id(c) for c in rules.wild_cards} | {deck.joker_id}
    if len(set(ids)) == len(ids) and not wild & set(ids):
        return [1 << i for i in ids], True
    order = sorted(range(len(cards)), key=lambda k: (-rules.value(cards[k]), ids[k]))
    bits = [0] * len(cards)
    for place, k in enumerate(order):
        bits[k] = 1 << place
    return bits, False


def full_close_score(rules: Rules, chinchon: bool, wilds: int | None) -> int:
    """SPEC §4: what an all-combined close scores."""
    if chinchon:
        return rules.chinchon if isinstance(rules.chinchon, int) else rules.all_combined_bonus
    bonus = rules.joker_run_bonus
    if wilds and bonus and wilds <= len(bonus):
        return bonus[wilds - 1]
    return rules.all_combined_bonus


def reference_option(cards: list[Card], rules: Rules, first_round: bool, discard: Card | None) -> CloseOption:
    """The best close of these cards by exhaustive search (see the module docstring)."""
    ref = Ref(rules)
    bits, plain = hand_bits(cards, rules)
    bit_card = dict(zip(bits, cards, strict=True))
    full = sum(bits)
    melds: dict[int, int] = {}  # meld bits → fewest cards acting as wild
    for size in range(3, len(cards) + 1):
        for group in combinations(bits, size):
            wilds = ref.meld_wilds(as_tuples([bit_card[b] for b in group]))
            if wilds is not None:
                melds[sum(group)] = wilds
    combos: list[tuple[int, ...]] = [()]
    for m in sorted(melds):
        combos += [(*c, m) for c in combos if not sum(c) & m]
    blocked = first_round and not rules.first_round_close
    best = None
    for combo in combos:
        left = full ^ sum(combo)
        put_down = 0
        if len(cards) == 8:
            pool = [b for b in bits if b & left and (discard is None or bit_card[b] == discard)]
            if not pool:
                continue
            # The most valuable card goes face down; among equals, the engine's first.
            most = max(rules.value(bit_card[b]) for b in pool)
            equals = [b for b in pool if rules.value(bit_card[b]) == most]
            put_down = max(equals) if plain else min(equals)
        dead = left ^ put_down
        loose = [bit_card[b] for b in bits if b & dead]
        points = rules.points(loose)
        if blocked or not rules.can_close(len(loose), points):
            row = (True, True, points, len(loose), len(combo), combo, put_down, dead, points, None, False)
        elif loose:
            row = (False, True, points, len(loose), len(combo), combo, put_down, dead, points, points, False)
        else:
            wilds = melds[combo[0]] if len(combo) == 1 and len(cards) - bool(put_down) == 7 else None
            chinchon = wilds == 0
            score = full_close_score(rules, chinchon, wilds)
            loses = not (chinchon and rules.chinchon_wins_match)
            row = (False, loses, score, 0, len(combo), combo, put_down, dead, points, score, chinchon)
        if best is None or row < best:
            best = row
    assert best is not None
    return CloseOption._make(best)


@st.composite
def hands(draw: st.DrawFn, rules: Rules, copies: int) -> list[Card]:
    """Seven or eight cards from the pack: from all of it, or (most of the
    time) from a window of a few ranks, where melds, duplicates and jokers
    crowd together as in the hands players check."""
    pack = rules.pack.cards() * copies + [JOKER] * rules.jokers
    if draw(st.integers(0, 3)):
        ranks = rules.pack.ranks
        width = draw(st.integers(3, 6))
        low = draw(st.integers(0, len(ranks) - width))
        window = set(ranks[low : low + width])
        pack = [c for c in pack if c.is_joker or c.rank in window]
    size = draw(st.sampled_from([8, 8, 8, 7]))
    return draw(st.permutations(pack))[:size]


@pytest.mark.parametrize("name", list(RULE_SETS))
@PROFILE
@given(data=st.data())
def test_check_close_chooses_the_option_the_exhaustive_search_ranks_first(name, data):
    preset, options, players = RULE_SETS[name]
    rules = get_rules(preset, **options)
    cards = data.draw(hands(rules, rules.copies(players)))
    first_round = data.draw(st.booleans())
    discard = data.draw(st.sampled_from([None, None, *cards])) if len(cards) == 8 else None
    verdict = check_close(cards, rules, first_round, discard, players=players)
    expected = reference_option(cards, rules, first_round, discard)
    assert verdict._option == expected
    # What the verdict shows follows from the option.
    assert verdict.legal == expected.legal and verdict.score == expected.score
    assert verdict.wins_match == expected.wins_match and verdict.chinchon == expected.chinchon
    assert verdict.why == reason_for(expected, rules, first_round)
    shown = [c for m in verdict.melds for c in m] + list(verdict.deadwood)
    if verdict.discard is not None:
        shown.append(verdict.discard)
        assert discard is None or verdict.discard == discard
    assert sorted(shown) == sorted(cards)
    assert rules.points(list(verdict.deadwood)) == verdict.dead_points
    # And the brute-force reference's own verdict agrees (no discard named).
    if discard is None:
        legal, score, wins = Ref(rules).close(as_tuples(cards), first_round)
        assert (verdict.legal, verdict.score, verdict.wins_match) == (legal, score, wins)


@pytest.mark.parametrize("name", ["classic, one deck", "classic + 2 jokers", "two decks"])
@PROFILE
@given(data=st.data())
def test_check_close_refuses_what_the_card_checker_refuses_with_the_same_error(name, data):
    """Errors are the card checker's: same class, field and sentence."""
    preset, options, players = RULE_SETS[name]
    rules = get_rules(preset, **options)
    every = [*rules.pack.cards(), JOKER]
    cards = data.draw(st.lists(st.sampled_from(every), min_size=6, max_size=9))
    try:
        if len(cards) not in (7, 8):
            raise CountError("wrong count", "cards")
        check_cards(cards, rules, rules.copies(players))
        expected = None
    except (CardError, CountError) as error:
        expected = (type(error), error.field, str(error) if isinstance(error, CardError) else None)
    try:
        check_close(cards, rules, players=players)
        got = None
    except (CardError, CountError) as error:
        got = (type(error), error.field, str(error) if isinstance(error, CardError) else None)
    assert got == expected
