"""The opponent model reads the evidence a seat saw and samples deals consistent with it."""

from __future__ import annotations

import random
from collections import Counter

from companion.bots import seat_view
from companion.bots.hands import evaluator
from companion.bots.model import OpponentModel, close_chance, held_by, refused_by
from companion.rules import get_rules, parse_card, parse_cards
from companion.rules.game import HandGame

from ..positions import fixed

classic = get_rules("classic")


def building_from_the_pile():
    """Seat 1 takes 1b, 2b and 3b from the pile, throwing 12o, 10e and 1c;
    seat 0 throws what it draws.  Seat 0 to draw."""
    game = fixed(["11c 11e 11b 5o 6o 7o 12e", "5b 5c 10e 4o 12o 2c 1c"], "1e 10c 4c 3b 2b 1b", "12c")
    rng = random.Random(0)
    for threw in ("12o", "10e", "1c"):
        game.discard(0, game.draw(0, "stock", rng))
        game.draw(1, "discard", rng)
        game.discard(1, parse_card(threw))
    return game


def test_what_an_opponent_took_threw_and_refused_is_read_from_the_pile():
    view = seat_view(building_from_the_pile(), 0)
    assert list(map(str, held_by(view, 1))) == ["1b", "2b", "3b"]
    assert list(map(str, view.thrown_by(1))) == ["12o", "10e", "1c"]
    assert list(map(str, refused_by(view, 1))) == []  # it took every card seat 0 threw
    assert list(map(str, refused_by(view, 0))) == ["12o", "10e"]  # the last one is still on top


def test_cards_near_what_an_opponent_took_are_likelier_theirs_and_near_what_they_threw_less():
    view = seat_view(building_from_the_pile(), 0)
    chance = OpponentModel(view).chance_held(1)
    assert set(map(str, held_by(view, 1))).isdisjoint(map(str, chance))  # known held: not unseen
    base = chance[parse_card("6c")]  # near nothing the opponent did
    assert chance[parse_card("4b")] > 1.5 * base  # extends the run it took
    assert chance[parse_card("2o")] > base  # a set with the 2 it took
    assert chance[parse_card("11o")] < base  # beside the 12o and 10e it threw
    hidden = 7 - 3
    assert abs(sum(chance.values()) - hidden) < 0.2


def test_a_sampled_deal_fills_every_hand_to_its_size_with_the_known_cards_and_no_card_twice():
    game = HandGame.deal(classic, 3, 0, random.Random(4))
    rng = random.Random(4)
    for _ in range(4):  # a few turns, with pile draws
        seat = game.turn
        game.draw(seat, "discard" if seat == 1 else "stock", rng)
        game.discard(seat, game.hands[seat][0])
    view = seat_view(game, game.turn)
    model = OpponentModel(view, evaluator(classic))
    for seed in range(20):
        deal = model.sample(random.Random(seed))
        for seat, hand in zip(view.opponents, deal.hands, strict=True):
            assert len(hand) == view.hand_sizes[seat]
            assert Counter(held_by(view, seat)) <= Counter(hand)
        everything = [*view.hand, *view.pile, *deal.stock, *(c for h in deal.hands for c in h)]
        assert sorted(everything) == sorted(classic.pack.cards())
        assert len(deal.stock) == view.stock_size


def test_a_deal_whose_last_throw_was_the_best_fits_better():
    """The opponent threw 1c last: keeping 7c 7e 12b loose instead of a 1 fits badly."""
    view = seat_view(building_from_the_pile(), 0)
    model = OpponentModel(view, evaluator(classic))
    deal = model.draw(random.Random(0))
    good = type(deal)((tuple(parse_cards("1b 2b 3b 4b 7c 7e 7b")),), deal.stock)
    bad = type(deal)((tuple(parse_cards("1b 2b 3b 4b 7c 7e 12b")),), deal.stock)
    assert model.fit(good) == 1.0  # all melded: throwing the 1 was best
    assert model.fit(bad) < 0.02  # 24 loose points kept where 12b thrown would leave 15


def test_the_close_chance_follows_the_simple_players_draw():
    ev = evaluator(classic)
    hand = tuple(parse_cards("11c 11e 11b 5o 6o 7o 12c"))
    assert close_chance(ev, hand, parse_card("4o"), ()) == 1.0  # takes it: 4o-7o, 12c down
    assert close_chance(ev, hand, parse_card("10c"), ()) == 0.0  # taken to throw 12c: 10c loose (8) cannot close
    stock = tuple(parse_cards("12e 3e 10e 5e"))
    assert close_chance(ev, hand, parse_card("12b"), stock) == 0.25  # 12b left; of the stock only 3e closes


def test_closing_draws_count_what_the_search_finds():
    for preset in ("classic", "sweden"):
        rules = get_rules(preset)
        ev = evaluator(rules)
        rng = random.Random(3)
        pack = rules.pack.cards()
        outs = 0
        for _ in range(300):
            hand = rng.sample(pack, 7)
            if ev.loose(hand) > 25:
                continue  # far from closing: no card closes
            mask = ev.mask(hand)
            rest = [c for c in pack if c not in hand]
            count = ev.closing_draws(mask, rest)
            assert count == sum(ev.eight_mask(mask | ev.bit[c])[1] for c in rest)
            outs += count
        assert outs > 20  # the sample holds hands one card from closing


def test_a_card_added_gives_what_the_search_gives():
    for rules in (classic, get_rules("fournier")):  # one loose card, and loose points up to 5
        ev = evaluator(rules)
        rng = random.Random(5)
        pack = rules.pack.cards()
        for _ in range(200):
            hand = rng.sample(pack, 8)
            mask = ev.mask(hand[:7])
            assert ev.with_card(mask, hand[7]) == ev.eight_mask(mask | ev.bit[hand[7]])[:2]
