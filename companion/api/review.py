"""``POST /api/v1/review``: the review of a recorded hand (``companion.bots.review``)."""

from __future__ import annotations

from typing import Any

from flask import jsonify

from ..bots.review import review_hand, to_json
from ..rules import ChinchonError, rules_from_json
from ..rules.game import HandGame
from . import bp
from .views import _body, _optional

#: The longest hand reviewed over the API (moves in its log), which bounds its cost.
MAX_MOVES = 160
NOT_A_DEAL = (
    "deal is not a recorded deal: send a deal's state as the play history exports it "
    "(dealer, hands, stock, discards, turn, turns_taken, reshuffles, closer, closing_discard, void, log)."
)
MAX_PLAYERS = 8


def _deal(data: Any, rules) -> HandGame:
    """The recorded deal (its ``state`` as the play history exports it)."""
    if not isinstance(data, dict):
        raise ChinchonError("deal must be a recorded deal: the object the play history exports as state.", "deal")
    log, hands = data.get("log"), data.get("hands")
    if not isinstance(log, list) or len(log) > MAX_MOVES:
        raise ChinchonError(f"deal.log must be a list of at most {MAX_MOVES} moves.", "deal.log")
    if not isinstance(hands, list) or not 2 <= len(hands) <= MAX_PLAYERS:
        raise ChinchonError(f"deal.hands must list the hands of 2 to {MAX_PLAYERS} players.", "deal.hands")
    bounds = {"dealer": len(hands) - 1, "turn": len(hands) - 1, "turns_taken": 10 * MAX_MOVES, "reshuffles": MAX_MOVES}
    for name, high in bounds.items():
        value = data.get(name)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= high:
            raise ChinchonError(f"deal.{name} must be a whole number from 0 to {high}.", f"deal.{name}")
    closer = data.get("closer")
    if closer is not None and (not isinstance(closer, int) or isinstance(closer, bool) or not 0 <= closer < len(hands)):
        raise ChinchonError(f"deal.closer must be null or a seat from 0 to {len(hands) - 1}.", "deal.closer")
    try:
        game = HandGame.from_dict(data, rules)
    except ChinchonError:  # a card of another deck, or no card at all (never echoed: it may be long)
        raise ChinchonError(
            "deal holds something that is not a card of this deck: write a rank and a suit letter, like 5o or 12c.",
            "deal",
        ) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        raise ChinchonError(NOT_A_DEAL, "deal") from None
    if game.phase != "over":
        raise ChinchonError("deal: this hand is still being played; a review needs a finished hand.", "deal")
    return game


def _whole_numbers(value: Any, name: str, fits, words: str) -> list[int] | None:
    """An optional list of at most MAX_PLAYERS whole numbers that ``fits``, or a 400 at ``name``."""
    if value is None:
        return None
    if (
        isinstance(value, list)
        and len(value) <= MAX_PLAYERS
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        and fits(value)
    ):
        return value
    raise ChinchonError(f"{name} must {words}.", name)


@bp.post("/review")
def review():
    data = _body()
    rules = rules_from_json(_optional(data, "rules"))
    game = _deal(data.get("deal"), rules)
    n = game.players
    seats = _whole_numbers(
        _optional(data, "seats"), "seats", lambda v: all(0 <= s < n for s in v), f"list seats from 0 to {n - 1}"
    )
    totals = _whole_numbers(
        _optional(data, "totals"),
        "totals",
        lambda v: len(v) == n and all(-100_000 <= t <= 100_000 for t in v),
        f"give each of the {n} players' totals",
    )
    try:
        result = review_hand(game, seats=seats, totals=totals)
    except ChinchonError as error:  # a record the rules do not allow
        raise ChinchonError(f"deal: {error}", "deal.log") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # a field of the wrong kind deep inside
        raise ChinchonError(NOT_A_DEAL, "deal") from None
    return jsonify(to_json(result))
