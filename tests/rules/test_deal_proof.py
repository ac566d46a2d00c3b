"""Deals anyone can check (``rules.deal_proof``): the derivation is fixed
and fair, a played hand checks out, and each kind of tampering is caught
with the check it breaks."""

from __future__ import annotations

import copy
import hashlib
import hmac
from collections import Counter

import pytest

from companion.rules import get_rules, parse_card
from companion.rules.deal_proof import (
    Check,
    HandRecord,
    ProofError,
    Reshuffles,
    SeededShuffle,
    Stream,
    commitment,
    deal_from,
    derive_seed,
    pack_of,
    record_of,
    short,
    shuffle,
    verify,
)
from companion.rules.game import HandGame

classic = get_rules("classic")
SEED = derive_seed(b"tests of the deal proof".ljust(32, b"."), "seed")


def reference_shuffle(items, seed: bytes, label: str):
    """The README's words, written again from scratch: what anybody else would do."""
    out, counter = list(items), 0
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        while True:
            mac = hmac.new(seed, f"{label}:{counter}".encode(), hashlib.sha256).digest()
            counter += 1
            u = int.from_bytes(mac[:8], "big")
            if u < 2**64 - 2**64 % n:
                break
        j = u % n
        out[i], out[j] = out[j], out[i]
    return out


def draw_and_throw(game: HandGame, seed: bytes, turns: int) -> HandGame:
    """Everybody draws from the stock and throws the card drawn: nobody
    closes, so the stock runs out and the pile is reshuffled."""
    for _ in range(turns):
        card = game.draw(game.turn, "stock", Reshuffles(seed, game.reshuffles))
        if card is None:
            break
        game.discard(game.turn, card)
    return game


def played(seed: bytes = SEED, turns: int = 40) -> dict:
    """A two-player hand with one reshuffle (25 cards in the first stock), as its JSON record."""
    game = draw_and_throw(deal_from(seed, classic, 2, dealer=0), seed, turns)
    assert game.reshuffles == 1
    return record_of(game, seed, players=["Ana", "Ben"], table_players=2, number=1).to_json()


def checked(data: dict, seal: str | None = None):
    return verify(HandRecord.from_json(data), seal)


def another_card(data: dict, token: str) -> str:
    """A card of the deck other than ``token``."""
    return next(str(c) for c in classic.pack.cards() if str(c) != token)


# -- the derivation -------------------------------------------------------------------------------
def test_the_shuffle_is_the_documented_fisher_yates_over_hmac_sha256():
    pack = pack_of(classic, 4)
    for label in ("deal", "reshuffle:1", "reshuffle:7"):
        mine = list(pack)
        shuffle(mine, SEED, label)
        assert mine == reference_shuffle(pack, SEED, label)


def test_the_same_seed_deals_the_same_hand_and_another_seed_another():
    one, again = deal_from(SEED, classic, 4, 1), deal_from(SEED, classic, 4, 1)
    assert one.to_dict() == again.to_dict()
    other = deal_from(derive_seed(SEED, "other"), classic, 4, 1)
    assert other.hands != one.hands


def test_the_deal_and_each_reshuffle_have_their_own_numbers():
    cards = list(range(20))
    orders = []
    for label in ("deal", "reshuffle:1", "reshuffle:2"):
        mine = list(cards)
        shuffle(mine, SEED, label)
        orders.append(mine)
    assert len({tuple(o) for o in orders}) == 3
    first, second = list(cards), list(cards)
    shuffler = Reshuffles(SEED)
    shuffler.shuffle(first)
    Reshuffles(SEED, done=1).shuffle(second)  # a later request counts on from the reshuffles so far
    assert first == orders[1] and second == orders[2] and shuffler.done == 1


def test_the_deal_takes_cards_from_the_end_of_the_shuffled_pack():
    """The README's dealing order: from the end, one each from the player after the dealer, then the pile."""
    pack = pack_of(classic, 3)
    SeededShuffle(SEED).shuffle(pack)
    game = deal_from(SEED, classic, 3, dealer=2)
    assert game.hands[0][0] == pack[-1] and game.hands[1][0] == pack[-2] and game.hands[2][0] == pack[-3]
    assert game.discards == [pack[-22]] and game.stock == pack[:-22]


def test_every_card_reaches_every_position():
    pack = pack_of(classic, 2)
    seen = [set() for _ in pack]
    for i in range(1500):
        order = list(pack)
        shuffle(order, derive_seed(SEED, str(i)), "deal")
        for position, card in enumerate(order):
            seen[position].add(card)
    assert all(len(cards) == len(pack) for cards in seen)


def test_positions_are_spread_evenly_chi_square():
    """Where the first of six items lands over 6000 seeds: chi-square with 5
    degrees of freedom under 20.5 (p = 0.001; the seeds are fixed, so the
    test never flickers)."""
    counts = Counter()
    for i in range(6000):
        order = list(range(6))
        shuffle(order, derive_seed(SEED, f"chi:{i}"), "deal")
        counts[order.index(0)] += 1
    expected = 6000 / 6
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in range(6))
    assert chi2 < 20.5, counts


def test_a_number_that_would_favour_low_values_is_drawn_again():
    """Rejection sampling: with n just over 2**63 about half the blocks are
    skipped, and every number kept is below n."""
    n = 2**63 + 1
    stream = Stream(SEED, "big")
    numbers = [stream.below(n) for _ in range(40)]
    assert all(0 <= x < n for x in numbers)
    assert stream.blocks > 50  # some blocks were skipped


def test_the_seal_is_sha256_of_the_seed_and_its_short_form_four_groups():
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()
    assert short(commitment(SEED)) == " ".join(commitment(SEED)[i : i + 4] for i in (0, 4, 8, 12))


# -- checking a hand ------------------------------------------------------------------------------
def test_a_played_hand_with_a_reshuffle_checks_out():
    data = played()
    verdict = checked(data)
    assert verdict.ok and verdict.reshuffles == 1 and verdict.draws == 40
    assert {verdict.status(c) for c in Check} == {"ok"}


def test_the_seal_noted_on_a_phone_may_be_its_short_form():
    data = played()
    assert checked(data, seal=short(data["commitment"])).ok
    assert checked(data, seal=data["commitment"].upper()).ok


def test_a_changed_seed_fails_the_seal():
    data = played()
    data["seed"] = derive_seed(SEED, "forged").hex()
    verdict = checked(data)
    assert verdict.status(Check.COMMITMENT) == "failed" and not verdict.ok
    # Another key deals other cards: the deal fails, and the moves are not
    # judged from a deal that is not the key's (nobody broke a rule).
    assert verdict.status(Check.DEAL) == "failed"
    assert [verdict.status(c) for c in (Check.DRAWS, Check.RESHUFFLES, Check.MOVES)] == ["unchecked"] * 3


def test_a_changed_seal_fails_the_seal_only():
    data = played()
    data["commitment"] = commitment(b"another seed")
    verdict = checked(data)
    assert [m.check for m in verdict.mismatches] == [Check.COMMITMENT]
    assert verdict.status(Check.DEAL) == verdict.status(Check.DRAWS) == "ok"
    assert "does not match the seal" in verdict.mismatches[0].text


def test_a_seal_noted_during_the_hand_that_differs_fails_even_with_a_consistent_record():
    """A server that swapped seed and seal together after the hand is caught by the seal people saw."""
    seen = played()["commitment"]
    forged = played(derive_seed(SEED, "swapped"))
    assert checked(forged).ok  # consistent in itself
    verdict = checked(forged, seal=short(seen))
    assert verdict.status(Check.COMMITMENT) == "failed"


def test_a_changed_dealt_card_fails_the_deal():
    data = played()
    dealt = data["dealt"]["hands"][1]
    dealt[0] = another_card(data, dealt[0]) if dealt[0] != "1o" else "2o"
    verdict = checked(data)
    problem = verdict.mismatch(Check.DEAL)
    assert problem is not None and problem.key == "hand" and problem.seat == 1
    assert problem.text.startswith("Ben was dealt")
    assert verdict.status(Check.COMMITMENT) == "ok"


def test_a_changed_first_card_of_the_pile_fails_the_deal():
    data = played()
    data["dealt"]["discard"] = another_card(data, data["dealt"]["discard"])
    assert checked(data).mismatch(Check.DEAL).key == "discard"


def test_a_changed_stock_draw_fails_the_draws_at_that_move():
    data = played()
    moves = data["moves"]
    k = 4  # the third draw (draw, throw, draw, throw, draw…)
    assert moves[k]["move"] == "draw" and moves[k]["source"] == "stock"
    moves[k]["card"] = another_card(data, moves[k]["card"])
    verdict = checked(data)
    problem = verdict.mismatch(Check.DRAWS)
    assert problem is not None and problem.move == k + 1 and problem.key == "draw"
    assert [m.check for m in verdict.mismatches] == [Check.DRAWS]
    assert verdict.status(Check.RESHUFFLES) == "unchecked"


def after_reshuffle(data: dict) -> int:
    return next(i for i, m in enumerate(data["moves"]) if m["move"] == "reshuffle") + 1


def test_a_changed_draw_after_the_reshuffle_fails_the_reshuffles():
    data = played()
    k = after_reshuffle(data)
    move = data["moves"][k]
    assert move["move"] == "draw"
    move["card"] = another_card(data, move["card"])
    verdict = checked(data)
    problem = verdict.mismatch(Check.RESHUFFLES)
    assert problem is not None and problem.key == "draw" and problem.reshuffle == 1 and problem.move == k + 1
    assert verdict.status(Check.DRAWS) == "ok"  # every draw before it was the seed's


def test_a_reshuffle_that_keeps_another_card_fails_the_reshuffles():
    data = played()
    shuffled = data["moves"][after_reshuffle(data) - 1]
    shuffled["stock"] += 1
    problem = checked(data).mismatch(Check.RESHUFFLES)
    assert problem is not None and problem.key == "shape"


def test_a_reshuffle_left_out_of_the_record_is_missed():
    data = played()
    del data["moves"][after_reshuffle(data) - 1]
    assert checked(data).mismatch(Check.RESHUFFLES).key == "missing"


def test_a_changed_stock_left_at_the_end_fails():
    data = played(turns=30)  # reshuffled, then five draws
    data["stock_left"] = list(reversed(data["stock_left"]))
    problem = checked(data).mismatch(Check.RESHUFFLES)
    assert problem is not None and problem.key == "stock_left"


def test_a_move_the_rules_refuse_fails_the_moves():
    data = played()
    throw = data["moves"][1]
    held = set(data["dealt"]["hands"][1]) | {data["moves"][0]["card"]}
    throw["card"] = next(str(c) for c in classic.pack.cards() if str(c) not in held)
    problem = checked(data).mismatch(Check.MOVES)
    assert problem is not None and problem.move == 2


def test_a_void_hand_checks_out_up_to_its_end():
    rules = get_rules("classic", max_reshuffles=0)
    game = draw_and_throw(deal_from(SEED, rules, 2, dealer=1), SEED, 30)
    assert game.void is not None and game.void.reason == "reshuffles"
    data = record_of(game, SEED, players=["Ana", "Ben"], table_players=2).to_json()
    assert checked(data).ok


def test_a_hand_called_off_before_anybody_moved_checks_out():
    game = deal_from(SEED, classic, 3, dealer=0)
    game.abandon()
    assert checked(record_of(game, SEED, players=["A", "B", "C"], table_players=3).to_json()).ok


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(seed="xyz"), "seed"),
        (lambda d: d.update(commitment="12"), "commitment"),
        (lambda d: d.update(players=["Solo"]), "players"),
        (lambda d: d.update(dealer=7), "dealer"),
        (lambda d: d["dealt"]["hands"][0].append("13o"), "dealt.hands[0][7]"),
        (lambda d: d["moves"].append({"move": "fly"}), "moves[81]"),
        (lambda d: d.update(rules={"preset": "nope"}), "rules"),
    ],
)
def test_a_record_that_cannot_be_read_names_the_part(change, field):
    data = copy.deepcopy(played())
    change(data)
    with pytest.raises(ProofError) as caught:
        HandRecord.from_json(data)
    assert caught.value.field == field


def test_the_record_reads_back_what_it_wrote():
    data = played()
    again = HandRecord.from_json(data).to_json()
    assert again == data
    assert parse_card(data["dealt"]["discard"], classic.pack) is not None
