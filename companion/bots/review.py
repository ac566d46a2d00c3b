"""The review of a finished hand: every move face up, and the expert's
judgement of each decision of the seats asked for, from what that seat knew
at that moment (its :class:`~companion.bots.view.SeatView`, never the hidden
cards).

For a decision the expert values the moves it weighs when it plays (its
:meth:`~companion.bots.expert.ExpertBot.judge_draw` and
:meth:`~companion.bots.expert.ExpertBot.judge_end` over its candidates, and
every move when the one made is not among them; on its scale of expected
points); the move's *loss* is the best move's value less the value of the
move made.  A loss of at least :data:`INACCURACY` points marks the move an
inaccuracy, :data:`MISTAKE` a mistake, :data:`BLUNDER` a blunder.  A seat's
accuracy is the average over its decisions of ``1 - loss / BLUNDER`` (0 for a
blunder or worse), as a percentage.

The moment a hand was lost: for the seat that closed, the share of
``samples`` random orders of the stock in which it can close within its next
two draws from each position on (its cards as they were, the draws from the
stock as it was); the hand was lost at the first move from which that share
stays at or above :data:`LOST_AT` until the close, if that is before the
closer's last turn (else nobody could have seen the close coming).

>>> import random
>>> from companion.bots import GoodBot, play_hand
>>> from companion.rules import get_rules
>>> from companion.rules.game import HandGame
>>> game = HandGame.deal(get_rules("classic"), players=2, dealer=1, rng=random.Random(4))
>>> _ = play_hand(game, [GoodBot(), GoodBot()], random.Random(5))
>>> review = review_hand(game, seats=[0])
>>> all(s.judgement is None for s in review.steps if s.seat != 0), 0 <= review.accuracy[0] <= 100
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..rules import Card, Rules, parse_card
from ..rules.game import Close, Discard, Draw, HandGame, Move, Source, move_from_json, move_to_json, replay
from .advice import _best_seven, _closes_within
from .expert import ExpertBot
from .hands import evaluator
from .view import SeatView, seat_view

# Points of the expert's value.  In a tryout's hand, throwing a card out of a complete
# five-card run cost 19.5 (a blunder), passing over the pile's card that made a meld 10.6.
INACCURACY = 3.0
MISTAKE = 7.0
BLUNDER = 15.0
LOST_AT = 0.5
SAMPLES = 200
#: The review's format: a stored review of another version is made again.
VERSION = 1


@dataclass(frozen=True, slots=True)
class Option:
    """A move a seat could make: ``"stock"`` or ``"pile"`` (draw), ``"throw"``
    or ``"close"`` (``card`` put down), with the expert's value of it."""

    move: str
    card: Card | None
    value: float


@dataclass(frozen=True, slots=True)
class Judgement:
    made: Option
    best: Option
    options: tuple[Option, ...]  # every move looked at, the best first

    @property
    def loss(self) -> float:
        return max(0.0, self.best.value - self.made.value)

    @property
    def mark(self) -> str | None:
        loss = self.loss
        if loss >= BLUNDER:
            return "blunder"
        if loss >= MISTAKE:
            return "mistake"
        if loss >= INACCURACY:
            return "inaccuracy"
        return None


@dataclass(frozen=True, slots=True)
class Step:
    """One move, the position before it (every hand face up), and the
    judgement of it when its seat was reviewed."""

    move: Move
    hands: tuple[tuple[Card, ...], ...]
    top: Card | None
    stock: int
    judgement: Judgement | None
    #: The closer's chance to close within two draws from here (None: no close).
    closer_chance: float | None

    @property
    def seat(self) -> int | None:
        return getattr(self.move, "seat", None)


@dataclass(frozen=True)
class Review:
    steps: tuple[Step, ...]
    closer: int | None
    #: The step from which the closer's chance stayed at or above LOST_AT.
    lost_at: int | None
    version: int = VERSION

    @property
    def accuracy(self) -> dict[int, float]:
        """Per reviewed seat: its :func:`accuracy` over this hand's decisions."""
        losses: dict[int, list[float]] = {}
        for step in self.steps:
            if step.judgement is not None and step.seat is not None:
                losses.setdefault(step.seat, []).append(step.judgement.loss)
        return {seat: accuracy(xs) for seat, xs in losses.items()}

    @property
    def marks(self) -> dict[int, dict[str, int]]:
        """Per reviewed seat: how many moves got each mark."""
        out: dict[int, dict[str, int]] = {}
        for step in self.steps:
            if step.judgement is not None and step.seat is not None:
                per = out.setdefault(step.seat, {"inaccuracy": 0, "mistake": 0, "blunder": 0})
                if step.judgement.mark:
                    per[step.judgement.mark] += 1
        return out


def accuracy(losses: Sequence[float]) -> float:
    """100 × the average over decisions of ``1 - loss / BLUNDER`` (0 for a blunder or worse)."""
    return 100.0 * sum(max(0.0, 1.0 - x / BLUNDER) for x in losses) / len(losses)


def review_hand(
    final: HandGame,
    *,
    seats: Iterable[int] | None = None,
    totals: Sequence[int] | None = None,
    samples: int = SAMPLES,
    seed: int = 0,
) -> Review:
    """Replay a finished hand (:func:`~companion.rules.game.replay`) and judge
    every decision of ``seats`` (all by default) with the match score
    ``totals`` (in the hand's seat order) as that seat saw it."""
    judged = set(range(final.players) if seats is None else seats)
    expert = ExpertBot()
    steps = []
    moves = replay(final)
    chances = _closer_chances(final, [before for before, _ in moves], samples, seed)
    for (before, move), chance in zip(moves, chances, strict=True):
        judgement = None
        if isinstance(move, Draw | Discard | Close) and move.seat in judged:
            judgement = _judge(expert, seat_view(before, move.seat, totals), move)
        steps.append(
            Step(move, tuple(tuple(h) for h in before.hands), before.top_discard, len(before.stock), judgement, chance)
        )
    lost_at = None
    if final.closer is not None:
        for i in range(len(steps) - 1, -1, -1):
            chance = steps[i].closer_chance
            if chance is None or chance < LOST_AT:
                break
            lost_at = i
        last_turn = max(i for i, s in enumerate(steps) if isinstance(s.move, Draw) and s.seat == final.closer)
        if lost_at is not None and lost_at >= last_turn:
            lost_at = None  # only the closing turn itself: nobody could have seen it coming
    return Review(tuple(steps), final.closer, lost_at)


def _judge(expert: ExpertBot, view: SeatView, move: Draw | Discard | Close) -> Judgement:
    """The moves the expert weighs when it plays (its candidates), and the
    move made when it is not one of them."""
    if isinstance(move, Draw):
        draws = expert.judge_draw(view, candidates=True)
        options = [Option("stock" if s == "stock" else "pile", None, v) for s, v in draws.items()]
        made = "stock" if move.source == Source.STOCK else "pile"
        chosen = next(o for o in options if o.move == made)
    else:
        ends = expert.judge_end(view, candidates=True)
        if (move.card, isinstance(move, Close)) not in ends:
            ends = expert.judge_end(view)  # every move, the one made among them
        options = [Option("close" if close else "throw", card, v) for (card, close), v in ends.items()]
        made = "close" if isinstance(move, Close) else "throw"
        chosen = next(o for o in options if o.move == made and o.card == move.card)
    # Values to the hundredth, as they are stored: a review read back is the review made.
    options = [replace(o, value=round(o.value, 2)) for o in options]
    chosen = replace(chosen, value=round(chosen.value, 2))
    options.sort(key=lambda o: (-o.value, o.move, str(o.card)))
    return Judgement(chosen, options[0], tuple(options))


def _closer_chances(final: HandGame, positions: list[HandGame], samples: int, seed: int) -> list[float | None]:
    """Per position: the closer's chance to close within its next two draws
    (its cards then, two cards from the stock then in random order)."""
    closer = final.closer
    if closer is None:
        return [None] * len(positions)
    ev = evaluator(final.rules)
    memo: dict = {}
    players = final.players
    out: list[float | None] = []
    for game in positions:
        hand = list(game.hands[closer])
        if len(hand) == 8:
            kept, _, can = _best_seven(ev, hand, players, memo)
            if can and not (game.first_round and not final.rules.first_round_close):
                out.append(1.0)
                continue
            hand = kept
        stock = list(game.stock)
        if len(stock) < 2:
            out.append(None)
            continue
        rng = random.Random(f"{seed}:{len(game.log)}")
        hits = sum(_closes_within(ev, hand, rng.sample(stock, 2), players, memo) for _ in range(samples))
        out.append(hits / samples)
    return out


# -- as JSON (stored with the deal, and the API's answer) -------------------------------
def _option_json(o: Option) -> dict[str, Any]:
    return {"move": o.move, "card": None if o.card is None else str(o.card), "value": round(o.value, 2)}


def to_json(review: Review) -> dict[str, Any]:
    def judgement(j: Judgement | None) -> dict[str, Any] | None:
        if j is None:
            return None
        return {
            "made": _option_json(j.made),
            "best": _option_json(j.best),
            "loss": round(j.loss, 2),
            "mark": j.mark,
            "options": [_option_json(o) for o in j.options],
        }

    return {
        "version": review.version,
        "closer": review.closer,
        "lost_at": review.lost_at,
        "accuracy": {str(seat): round(a, 1) for seat, a in review.accuracy.items()},
        "marks": {str(seat): m for seat, m in review.marks.items()},
        "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
        "steps": [
            {
                "move": move_to_json(s.move),
                "hands": [[str(c) for c in h] for h in s.hands],
                "top": None if s.top is None else str(s.top),
                "stock": s.stock,
                "judgement": judgement(s.judgement),
                "closer_chance": None if s.closer_chance is None else round(s.closer_chance, 3),
            }
            for s in review.steps
        ],
    }


def from_json(data: dict[str, Any], rules: Rules) -> Review:
    deck = rules.pack

    def card(token: str | None) -> Card | None:
        return None if token is None else parse_card(token, deck)

    def option(o: dict[str, Any]) -> Option:
        return Option(o["move"], card(o["card"]), o["value"])

    def judgement(j: dict[str, Any] | None) -> Judgement | None:
        if j is None:
            return None
        return Judgement(option(j["made"]), option(j["best"]), tuple(option(o) for o in j["options"]))

    steps = tuple(
        Step(
            move_from_json(s["move"], deck),
            tuple(tuple(parse_card(t, deck) for t in h) for h in s["hands"]),  # hands hold no empty token
            card(s["top"]),
            s["stock"],
            judgement(s["judgement"]),
            s["closer_chance"],
        )
        for s in data["steps"]
    )
    return Review(steps, data["closer"], data["lost_at"], data["version"])
