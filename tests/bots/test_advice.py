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


def reference(rules, hand, seen, players=2, draws=3, first_round=False):
    """Per discard (None for seven cards): (close_next, expected_points,
    close_within_3, close_now), enumerated.  In the first round seven cards
    held before drawing cannot close with this turn's draw, eight cannot close
    now; later draws are later turns."""
    unseen = unseen_cards(rules, hand, seen, players)
    blocked = first_round and not rules.first_round_close
    out = {}
    for d in dict.fromkeys(hand) if len(hand) == 8 else [None]:
        kept = kept_of(hand, d) if d is not None else list(hand)
        first = 1 if blocked and d is None else 0
        nxt = 0.0 if first else sum(can_close([*kept, c], rules) for c in unseen) / len(unseen)
        pts = sum(best_melds(keep_best([*kept, c], rules), rules).points for c in unseen) / len(unseen)
        hits = total = 0
        for seq in itertools.permutations(range(len(unseen)), min(draws, len(unseen))):
            k = kept
            total += 1
            for n, i in enumerate(seq):
                eight = [*k, unseen[i]]
                if n >= first and can_close(eight, rules):
                    hits += 1
                    break
                k = keep_best(eight, rules)
        now = not (first_round and not rules.first_round_close) and check_close(kept, rules).legal
        out[d] = (nxt, pts, hits / total if total else 0.0, now)
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
        nxt, pts, *_ = ref[row.discard]
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


# -- the hint of digital play ------------------------------------------------------------
def hint_position(pile="4o 7e"):
    from companion.rules.game import HandGame

    return HandGame(
        rules=classic,
        dealer=1,
        hands=[parse_cards("11c 11e 11b 5o 6o 3c 12e"), parse_cards("5c 4e 1o 3e 2e 10c 10b")],
        stock=parse_cards("1c 2c 4c 6c 7c 10o 12o 1b 2b 3b 4b 5b 6b 7b 10e 12b 1e 12c"),
        discards=parse_cards(pile),
        turn=0,
        turns_taken=2,
    )


def test_before_drawing_the_hint_compares_the_pile_with_the_stock():
    """Taking the 7 de oros completes 5-6-7 de oros: Ana may close at once,
    throwing the 12 de espadas and keeping the 3 de copas (3 points)."""
    from companion.bots import seat_view
    from companion.bots.advice import hint

    got = hint(seat_view(hint_position("4o 7o"), 0), seed=1)
    assert got.phase == "draw"
    best = got.rows[0]
    assert (best.move, str(best.card), str(best.then), best.score) == ("take", "7o", "12e", 3)
    assert best.close_next == 1.0 == best.close_within_3 and best.expected_points == 3.0
    stock = next(r for r in got.rows if r.move == "stock")
    # From the stock, Ana closes this turn with the 7, 4 de oros... the engine decides: every unseen card tried.
    view = seat_view(hint_position("4o 7o"), 0)
    unseen = unseen_cards(classic, view.hand, view.pile, 2)
    assert stock.close_next == sum(can_close([*view.hand, c], classic) for c in unseen) / len(unseen)


def test_after_drawing_the_hint_is_the_advice_with_the_seats_seen_cards():
    """The cards out of the stock's reach are the pile and the cards an
    opponent took from it and still holds."""
    import random

    from companion.bots import seat_view
    from companion.bots.advice import hint, seen_by_seat
    from companion.rules.game import Source

    game = hint_position("4o 7e")
    game.turn, game.hands[1] = 1, [*game.hands[1]]
    game.draw(1, Source.DISCARD, random.Random(1))  # Ben takes the 7 de espadas ...
    game.discard(1, parse_cards("10b")[0])  # ... and throws the 10 de bastos
    game.draw(0, Source.STOCK, random.Random(1))
    view = seat_view(game, 0)
    assert sorted(seen_by_seat(view)) == sorted(parse_cards("4o 10b 7e"))
    got = hint(view, seed=4)
    ref = advise(classic, view.hand, seen_by_seat(view), stock=view.stock_size, players=2, seed=4, samples=200)
    assert got.phase == "discard"
    assert sorted((str(r.card), r.close_next, r.close_within_3) for r in got.rows) == sorted(
        (str(r.discard), r.close_next, r.close_within_3) for r in ref.rows
    )
    assert got.rows[0].card == ref.recommended


def test_next_draw_lists_the_cards_that_let_the_seat_close():
    """The referee's odds: each discard's outs are exactly the unseen cards
    with which the engine finds a legal close."""
    from companion.bots.advice import next_draw

    hand = parse_cards("4o 5o 6o 7c 7e 10b 10c 1e")
    seen = parse_cards("7o 3o")
    for row in next_draw(classic, hand, seen):
        kept = kept_of(hand, row.discard)
        unseen = unseen_cards(classic, hand, seen, None)
        outs = [c for c in unseen if can_close([*kept, c], classic)]
        assert list(row.outs) == sorted(set(outs), key=lambda c: classic.card_keys[c])
        assert row.hits == len(outs) and row.close_next == len(outs) / len(unseen)


def test_two_loose_cards_drawing_the_ace_or_a_two_closes():
    """Seven kept after throwing the 12b, 1c and 2e loose: the ace or a two
    closes, the twos with all seven combined."""
    from companion.bots.advice import next_draw

    hand = parse_cards("2o 3o 4o 5o 6o 1c 2e 12b")
    (row,) = [r for r in next_draw(classic, hand) if str(r.discard) == "12b"]
    assert sorted(map(str, row.outs)) == ["1o", "2b", "2c", "4o", "7o"]
    kept = kept_of(hand, row.discard)
    assert [check_close([*kept, c], classic).score for c in parse_cards("1o 2c 2b 4o 7o")] == [1, -10, -10, 1, 1]


def test_swedish_seed_lone_eight_outs_include_the_queen_and_the_eights():
    from companion.bots.advice import next_draw

    sweden = get_rules("sweden")
    hand = parse_cards("5o 6o 7o 12c 12e 12b 8b", sweden.pack)
    (row,) = next_draw(sweden, hand)
    outs = [str(c) for c in row.outs]
    assert {"12o", "4o", "8o"} <= set(outs)
    assert all(check_close([*hand, c], sweden).score == -10 for c in parse_cards("12o 4o 8o", sweden.pack))
    assert "8b" not in outs  # one deck: the eight of bastos is already held


# -- the first-round rule (SPEC §3: ``first_round_close: false`` forbids closing
# before every player has had a turn) in every figure ---------------------------------
FIRST_ROUND = [
    # (rules, hand, unseen cards, players): few unseen cards so every sequence is enumerated
    (classic, "11c 11e 11b 5o 6o 7o 3c", "4o 3o 1c 12e 7c 2b", 2),  # seven before drawing, many outs
    (classic, "11c 11e 11b 5o 6o 7o 3c 12e", "4o 3o 1c 7c 2b", 2),  # eight: closes now, but not in round one
    (get_rules("classic", jokers=2), "* 4o 5o 6o 7c 7e 10b", "7b 10c 10e 3o 12b", 2),  # a joker held
    (get_rules("classic", decks=2), "4o 5o 6o 7c 7c 10b 10c", "7o 10b 10e 3o 12b 7e", 5),  # two decks
]


def pack_except(rules, hand, unseen, players):
    """The seen cards that leave exactly ``unseen`` out of the pack (every copy)."""
    left = Counter(unseen_cards(rules, hand, [], players))
    left.subtract(Counter(unseen))
    return [c for c, n in left.items() for _ in range(n)]


@pytest.mark.parametrize("rules,hand,unseen,players", FIRST_ROUND)
@pytest.mark.parametrize("first_round", [True, False])
def test_first_round_rule_holds_in_every_figure_of_the_advice(rules, hand, unseen, players, first_round):
    """Ana's first turn: with seven cards before drawing she cannot close with
    this draw (close_next 0; close_within_3 counts only the draws after it);
    with eight she cannot close now.  Each figure against enumeration."""
    hand, unseen = parse_cards(hand), parse_cards(unseen)
    seen = pack_except(rules, hand, unseen, players)
    advice = advise(rules, hand, seen, players=players, samples=3000, seed=2, draws=2, first_round=first_round)
    ref = reference(rules, hand, seen, players=players, draws=2, first_round=first_round)
    for row in advice.rows:
        nxt, pts, within, now = ref[row.discard]
        assert row.close_next == pytest.approx(nxt, abs=1e-12), row
        assert row.expected_points == pytest.approx(pts, abs=1e-12), row
        assert abs(row.close_within_3 - within) < 0.04, (row, within)
        assert row.close_now == now, row
    if first_round and len(hand) == 7:
        assert advice.rows[0].close_next == 0.0 and advice.rows[0].hits == 0 and advice.rows[0].outs == ()
    if not first_round:
        assert any(r.close_next > 0 or r.close_now or r.close_within_3 > 0 for r in advice.rows)  # they do close


def test_first_round_close_allowed_by_the_rules_lets_the_draw_close():
    """Italian-style rules with first_round_close: the first-round flag changes nothing."""
    rules = get_rules("classic", first_round_close=True)
    hand = parse_cards("11c 11e 11b 5o 6o 7o 3c")
    assert advise(rules, hand, samples=200, seed=1, first_round=True) == advise(rules, hand, samples=200, seed=1)


def test_first_round_hint_before_drawing_offers_no_close_this_turn():
    """The hint before Ana's first draw: nobody may close in the first round,
    so the stock closes nothing this turn, though the 7 de oros (unseen)
    would complete 5-6-7 de oros and leave 3 points; nor does the pile's card."""
    from companion.bots import seat_view
    from companion.bots.advice import hint

    game = hint_position("4o 7e")
    game.turns_taken = 0
    view = seat_view(game, 0)
    assert view.first_round
    got = hint(view, seed=1)
    assert got.phase == "draw" and {r.move for r in got.rows} == {"stock", "take"}
    for row in got.rows:
        assert row.close_next == 0.0 and row.score is None, row
    stock = next(r for r in got.rows if r.move == "stock")
    later = hint(seat_view(hint_position("4o 7e"), 0), seed=1)
    assert next(r for r in later.rows if r.move == "stock").close_next > 0  # the same cards close later on
    assert 0 < stock.close_within_3 <= next(r for r in later.rows if r.move == "stock").close_within_3
