"""``POST /api/v1/advice``: the advisor's odds per discard (``companion.bots.advice``)."""

from __future__ import annotations

from typing import Any, overload

from flask import jsonify

from ..bots.advice import DEFAULT_SAMPLES, MAX_SAMPLES, advise
from ..rules import ChinchonError, parse_cards, rules_from_json
from . import bp
from .views import _body, _card, _cards, _flag, _optional


@overload
def _int(data: dict[str, Any], name: str, default: int, low: int, high: int | None = None) -> int: ...
@overload
def _int(data: dict[str, Any], name: str, default: None, low: int, high: int | None = None) -> int | None: ...
def _int(data: dict[str, Any], name: str, default: int | None, low: int, high: int | None = None) -> int | None:
    value = _optional(data, name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        limit = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise ChinchonError(f"{name} must be a whole number {limit}.", name)
    return value


#: Two decks with four jokers hold 84 cards; nothing longer can be real.
MAX_SEEN = 104


@bp.post("/advice")
def advice():
    data = _body()
    rules = rules_from_json(_optional(data, "rules"))
    hand = _cards(data.get("hand"), rules.pack, "hand")
    seen = _optional(data, "seen")
    if seen is None:
        seen = []
    elif not isinstance(seen, list) or len(seen) > MAX_SEEN:
        raise ChinchonError(f'seen must be a list of at most {MAX_SEEN} cards such as ["5o", "6o"].', "seen")
    seen = [_card(token, rules.pack, f"seen[{i}]") for i, token in enumerate(seen)]
    parse_cards([*map(str, hand), *map(str, seen)], rules.pack, "seen")  # no card more often than the pack holds
    players = _int(data, "players", 2, 2, 8)
    stock = _int(data, "stock", None, 0, MAX_SEEN)
    samples = _int(data, "samples", DEFAULT_SAMPLES, 1, MAX_SAMPLES)
    seed = _int(data, "seed", 0, 0, 2**31 - 1)
    first_round = _flag(data, "first_round")
    result = advise(
        rules,
        hand,
        seen,
        stock=stock,
        players=players,
        samples=samples,
        seed=seed,
        first_round=first_round,
    )
    return jsonify(
        discards=[
            {
                "discard": None if row.discard is None else str(row.discard),
                "close_next": row.close_next,
                "close_within_3": row.close_within_3,
                "expected_points": row.expected_points,
                "close_now": row.close_now,
            }
            for row in result.rows
        ],
        recommended=None if result.recommended is None else str(result.recommended),
        samples=result.samples,
        draws=result.draws,
        unseen=result.unseen,
    )
