"""The expert plays from its view, closes when it should, and plays the score."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.bots import ExpertBot, SimpleBot, bot_turn, play_hand, seat_view
from companion.bots.arena import main as arena_main
from companion.bots.arena import run, wilson
from companion.bots.hands import evaluator
from companion.rules import JOKER, Card, get_rules, parse_cards
from companion.rules.game import HandGame, Phase

from ..positions import fixed

classic = get_rules("classic")


def after_drawing(game):
    assert game.phase == Phase.DISCARD  # eight cards in hand: the state machine's own phase
    return game


def test_a_chinchon_closes_at_once():
    game = after_drawing(fixed(["1o 2o 3o 4o 5o 6o 7o 12b", "5b 5c 5e 4c 12o 2c 1c"], "1b", "4e"))
    card, close = ExpertBot().choose_end(seat_view(game, 0))
    assert close and str(card) == "12b"


def test_a_close_that_puts_the_last_opponent_out_is_taken():
    """Heads-up at 95 to 20: the opponent holds plenty, so closing with 4 wins the match."""
    game = after_drawing(fixed(["11c 11e 11b 5o 6o 7o 4c 12e", "5b 5c 10e 4o 12o 2c 1c"], "1b 3b 2b", "10o"))
    card, close = ExpertBot().choose_end(seat_view(game, 0, totals=[20, 95]))
    assert close and str(card) == "12e"


def test_it_takes_the_top_card_that_lets_it_close():
    game = fixed(["11c 11e 11b 5o 6o 7o 12e", "5b 5c 10e 4o 12o 2c 1c"], "1b 3b 2b", "4o")
    game.hands[1] = parse_cards("5b 5c 10e 3o 12o 2c 1c")
    assert ExpertBot().choose_draw(seat_view(game, 0)) == "discard"


def test_decisions_are_repeatable_and_use_the_view_only():
    game = HandGame.deal(classic, 3, 0, random.Random(8))
    view = seat_view(game, game.turn)
    assert ExpertBot(seed=4).choose_draw(view) == ExpertBot(seed=4).choose_draw(view)
    game.draw(game.turn, "stock", random.Random(1))
    view = seat_view(game, game.turn)
    assert ExpertBot(seed=4).choose_end(view) == ExpertBot(seed=4).choose_end(view)


def test_the_search_is_repeatable_and_sees_only_the_view():
    """With a budget the search samples deals from the view and its seed: the
    same decision every time, whatever the opponent really holds."""
    game = after_drawing(fixed(WAITING, "1e 10c 3b 2b 1b", "12c", turns_taken=2))
    other = after_drawing(fixed([WAITING[0], "5b 5c 10e 4o 12o 3c 2c"], "1e 10c 1c 2b 1b", "12c", turns_taken=2))
    view, other_view = seat_view(game, 0), seat_view(other, 0)
    assert (view.hand, view.pile, view.thrown, view.stock_size) == (
        other_view.hand,
        other_view.pile,
        other_view.thrown,
        other_view.stock_size,
    )
    moves = {ExpertBot(seed=3, think_ms=60).choose_end(v) for v in (view, other_view, view)}
    assert len(moves) == 1


def test_the_search_draws_the_same_deals_in_every_process():
    """The search's seed is made of ints only: two processes with different
    string hashing choose alike (its averages included)."""
    code = (
        "from companion.bots.expert import ExpertBot, _Plan;"
        "from companion.bots.search import Search;"
        "from companion.bots import seat_view;"
        "from tests.positions import fixed;"
        f"g = fixed({WAITING!r}, '1e 10c 3b 2b 1b', '12c', turns_taken=2);"
        "v = seat_view(g, 0);"
        "s = Search(_Plan(v, 0, 160), 0, 20.0);"
        "print(sorted((str(c), k, round(x, 6)) for (k, c), x in s.best([('throw', v.hand[6]), ('throw', v.hand[7])], v.hand)[1].items()))"
    )
    root = Path(__file__).resolve().parents[2]
    outs = {
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": str(h)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for h in (1, 2)
    }
    assert len(outs) == 1 and "12e" in outs.pop()


@pytest.mark.parametrize(
    "preset,overrides,players",
    [("classic", {}, 2), ("fournier", {}, 3), ("sweden", {}, 2), ("italy", {}, 4), ("classic", {"jokers": 2}, 5)],
)
def test_the_expert_finishes_hands_in_every_preset(preset, overrides, players):
    rules = get_rules(preset, **overrides)
    game = HandGame.deal(rules, players, 0, random.Random(2))
    bots = [ExpertBot() if i % 2 == 0 else SimpleBot() for i in range(players)]
    result = play_hand(game, bots, random.Random(2))
    assert result is not None and result.legal


def test_an_illegal_close_from_a_bot_is_played_as_a_discard():
    class Cheat(SimpleBot):
        def choose_end(self, view):
            return view.hand[0], True

    game = fixed(["11c 11e 11b 5o 6o 7o 3c", "5b 5c 5e 4o 12o 2c 1c"], "1b 10b", "4e")
    assert bot_turn(game, Cheat(), random.Random(0)) is None and game.closer is None and game.turn == 1


def test_wilson_interval():
    low, high = wilson(0.7, 400)
    assert round(low, 3) == 0.653 and round(high, 3) == 0.743
    assert wilson(0.0, 10)[0] == 0.0 and wilson(1.0, 10)[1] == 1.0


class Mine(SimpleBot):
    """An outside player: any class with the protocol."""

    name = "mine"


def test_the_arena_plays_seeded_matches_and_loads_outside_bots(capsys):
    first = run("simple", "good", matches=2, preset="classic", seed=5, jobs=1)
    again = run("simple", "good", matches=2, preset="classic", seed=5, jobs=1)
    assert first["share"] == again["share"] and first["hands"] == again["hands"] > 0
    arena_main(["mine", "simple", "--bot", "tests.bots.test_expert:Mine", "--matches", "2", "--jobs", "1"])
    out = capsys.readouterr().out
    assert "mine wins" in out and "95%" in out and "p95" in out
    arena_main(["tests.bots.test_expert:Mine", "good", "--matches", "1", "--jobs", "1"])
    assert "wins" in capsys.readouterr().out


def test_it_closes_at_once_when_the_opponent_is_building_from_the_pile():
    """The opponent took three cards from the pile and just threw a 2: closing
    with 4 loose points now beats waiting for a better close."""
    game = fixed(["11c 11e 11b 5o 6o 7o 12e", "5b 5c 10e 4o 12o 2c 1c"], "1e 10c 4c 3b 2b 1b", "12c")
    rng = random.Random(0)
    for took, threw in (("1b", "12o"), ("2b", "10e"), ("3b", "1c")):
        drawn = game.draw(0, "stock", rng)
        assert str(drawn) == took
        game.discard(0, drawn)
        game.draw(1, "discard", rng)
        game.discard(1, parse_cards(threw)[0])
    game.draw(0, "stock", rng)
    view = seat_view(game, 0)
    assert [str(t.card) for t in view.thrown if t.taken_by == 1] == ["1b", "2b", "3b"]
    card, close = ExpertBot().choose_end(view)
    assert close and str(card) == "12e"


def test_early_against_a_quiet_opponent_the_table_model_waits_for_the_better_close():
    """The same eight cards at the second turn, the opponent having shown
    nothing: the table model alone (no search) keeps the 4 and waits for −10."""
    game = after_drawing(
        fixed(["11c 11e 11b 5o 6o 7o 12e 4c", "5b 5c 10e 4o 12o 2c 1c"], "1e 10c 3b 2b 1b", "12c", turns_taken=2)
    )
    card, close = ExpertBot(think_ms=0).choose_end(seat_view(game, 0))
    assert not close and str(card) == "12e"


def test_played_out_waiting_for_the_better_close_loses_to_closing_now():
    """The same position, played out over sampled deals: while it waits one
    turn for −10 (three cards of about thirty), the opponent's hand improves
    (it takes what it needs) and may close first, so closing with 4 now does
    better on the same deals and the search overturns the table model."""
    game = after_drawing(fixed(WAITING, "1e 10c 3b 2b 1b", "12c", turns_taken=2))
    assert ExpertBot(think_ms=100).choose_end(seat_view(game, 0)) == (parse_cards("12e")[0], True)


WAITING = ["11c 11e 11b 5o 6o 7o 12e 4c", "5b 5c 10e 4o 12o 2c 1c"]


@pytest.mark.parametrize(
    "totals,closes",
    [
        ([97, 40], False),  # closing with 4 puts itself over 100: the opponent wins the match
        ([20, 95], True),  # the opponent holds plenty: closing with 4 puts it out and wins the match
    ],
)
@pytest.mark.parametrize("think_ms", [0, 20, 100])
def test_near_the_target_the_match_decides_whether_to_close(totals, closes, think_ms):
    """The position where, early in a match, the table model waits for −10
    (see above); with or without the search."""
    game = after_drawing(fixed(WAITING, "1e 10c 3b 2b 1b", "12c", turns_taken=2))
    view = seat_view(game, 0, totals=totals)
    card, close = ExpertBot(think_ms=think_ms).choose_end(view)
    assert close == closes and (not closes or str(card) == "12e")


def test_near_the_target_waiting_is_valued_over_the_same_opponent_points_as_closing_now():
    """A match played in the arena (expert against simple), hand 412: at 96
    to 90 the expert holds 4c 5c 6c 7c, 6b 7b 10b and 2o, a close for −10.
    Closing now wins the match when the opponent holds 11 or more; valued at
    the mean of the points they might hold, a later close always did, so it
    threw 7c and waited (the opponent closed first). Over the same spread of
    their points as a close now, it closes."""
    game = fixed(
        ["11e 11c 12c 3b 3e 10c 6e", "12e 5c 10b 7b 5o 2o 4c"],
        "12b 2c 11b 10e 1e 2e 2b 7o 1b 1c 4e 12o 10o 6o 7e 4o 3o 1o 3c 5b 6b 4b 7c 5e 11o",
        "6c",
        turn=1,
        turns_taken=0,
        dealer=0,
    )
    rng = random.Random(0)
    moves = [(1, "discard", "5o"), (0, "discard", "11e"), (1, "stock", "12e"), (0, "stock", "6e")]
    for seat, source, throw in [*moves, (1, "stock", "11o"), (0, "stock", "5e")]:
        game.draw(seat, source, rng)
        game.discard(seat, parse_cards(throw)[0])
    game.draw(1, "stock", rng)
    view = seat_view(game, 1, totals=[90, 96])
    assert sorted(view.hand) == sorted(parse_cards("4c 5c 6c 7c 6b 7b 10b 2o"))
    card, close = ExpertBot().choose_end(view)
    assert close and str(card) == "2o"
    assert evaluator(classic).close_score(parse_cards("4c 5c 6c 7c 6b 7b 10b"), 2) == -10


def test_every_move_is_judged_and_the_choice_is_the_best_judged():
    """Without a budget the choice is the table model's best; with one, the
    search picks among the table model's best throws and its best close."""
    game = after_drawing(fixed(WAITING, "1e 10c 3b 2b 1b", "12c", turns_taken=2))
    view = seat_view(game, 0, totals=[20, 30])
    bot = ExpertBot(think_ms=0)
    values = bot.judge_end(view)
    legal = {(c, True) for c in set(view.hand) if view.can_close(c)}
    assert set(values) == {(c, False) for c in set(view.hand)} | legal and legal
    card, close = bot.choose_end(view)
    best = bot.judge_end(view, candidates=True)
    assert best[(card, close)] == max(best.values())
    for think_ms in (20, 100):
        assert ExpertBot(think_ms=think_ms).choose_end(view) in best
    draw = bot.judge_draw(seat_view(fixed(["11c 11e 11b 5o 6o 7o 12e", WAITING[1]], "1b", "4o"), 0))
    assert set(draw) == {"stock", "discard"} and draw["discard"] > draw["stock"]  # 4o makes 4o-7o


@pytest.mark.parametrize(
    "overrides, players",
    [({"decks": 2, "jokers": 4}, 4), ({"jokers": 2}, 2), ({"wild_cards": ("2o",)}, 3), ({"decks": 2}, 5)],
)
def test_the_eight_card_search_skips_only_discards_that_cannot_matter(overrides, players):
    """With wild cards or two decks the expert asks the engine about eight
    cards; trying the discards from the lowest bound and skipping the ones
    that can beat nothing gives what trying all eight gives (the seven kept,
    its points, whether it closes and the best close score)."""
    rules = get_rules("classic", **overrides)
    ev = evaluator(rules)
    rng = random.Random(7)
    deck = rules.pack.cards() * rules.copies(players) + [JOKER] * rules.jokers
    close = 0
    for _ in range(150):
        left = list(deck)
        eight = []
        if rng.random() < 0.5:  # hands near a close, where the search cannot skip much
            run = rng.choice([c for c in rules.pack.cards() if c.rank <= 5])
            eight = [run, Card(run.rank + 1, run.suit), Card(run.rank + 2, run.suit)]
            for c in eight:
                left.remove(c)
        eight += rng.sample(left, 8 - len(eight))
        expected = _every_discard(ev, eight, players)
        assert ev.solve_eight(list(eight), players) == expected, eight
        close += expected[2]
    assert close  # some of them close


def _every_discard(ev, eight, players):
    best = None
    score = None
    for e in set(eight):
        rest = list(eight)
        rest.remove(e)
        key = (ev.loose(rest), -ev.rules.value(e), e)
        if best is None or key < best[0]:
            best = (key, rest)
        s = ev.close_score(rest, players)
        if s is not None and (score is None or s < score):
            score = s
    return (tuple(sorted(best[1])), best[0][0], score is not None, score)
