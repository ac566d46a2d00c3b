"""Thin JSON layer: parse the body, call the engine, answer JSON.

Every engine error becomes one 400 answer ``{error, field}``, here only.  The
body is parsed here (not by Flask's ``get_json``) so that no JSON, however
deep, large or strange, reaches the engine unchecked.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Response, jsonify, request
from werkzeug.exceptions import HTTPException

from ..rules import (
    PRESETS,
    ChinchonError,
    check_close,
    parse_card,
    replay_match,
    rules_from_json,
    settle_hand,
)
from ..rules.cards import Card, Deck
from ..rules.errors import CardError, CountError
from ..rules.melds import best_melds
from ..rules.serialize import arrangement_json, hand_json, verdict_json
from . import bp
from .http import cached_json, http_error_json
from .openapi import CARD_PATTERN

_CARD = re.compile(CARD_PATTERN)
#: The deepest JSON a request may hold (a match event's points are at depth 4).
MAX_DEPTH = 6


def _bad_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _too_deep(value: Any, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _body() -> dict[str, Any]:
    """The request's JSON object, or a 400 at ``body``."""
    if not request.is_json:
        raise ChinchonError("Send a JSON object as the body, with Content-Type: application/json.", "body")
    raw = request.get_data(cache=True)  # over MAX_CONTENT_LENGTH: 413
    try:
        data = json.loads(raw, parse_constant=_bad_constant)
    except RecursionError:
        raise ChinchonError(f"The JSON body is nested too deeply (more than {MAX_DEPTH} levels).", "body") from None
    except ValueError:
        raise ChinchonError("The body is not valid JSON; send one JSON object.", "body") from None
    if not isinstance(data, dict):
        raise ChinchonError("Send a JSON object as the request body.", "body")
    if _too_deep(data, MAX_DEPTH):
        raise ChinchonError(f"The JSON body is nested too deeply (more than {MAX_DEPTH} levels).", "body")
    return data


def _optional(data: dict[str, Any], name: str) -> Any:
    """An optional field; ``null`` counts as absent."""
    return data.get(name)


def _card(token: Any, deck: Deck, field: str) -> Card:
    """One card token, checked against the published pattern, then parsed."""
    if not isinstance(token, str):
        raise CardError('A card is written as text, such as "5o" or "12c".', field)
    if not _CARD.match(token):
        shown = f"'{token.strip()}'" if len(token) <= 20 else "This"
        raise CardError(f"{shown} is not a card; write a rank and a suit letter, like 5o or 12c.", field)
    return parse_card(token, deck, field)


def _cards(value: Any, deck: Deck, field: str) -> list[Card]:
    if not isinstance(value, list):
        raise CountError(f'{field} must be a list of cards such as ["5o", "6o"].', field)
    if len(value) > 8:
        raise CountError(f"{field} holds {len(value)} cards; a hand has at most 8.", field, count=len(value))
    return [_card(token, deck, f"{field}[{i}]") for i, token in enumerate(value)]


def _flag(data: dict[str, Any], name: str) -> bool:
    value = _optional(data, name)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ChinchonError(f"{name} must be true or false.", name)
    return value


@bp.get("/presets")
def presets() -> Response:
    return cached_json({name: rules.to_dict() for name, rules in PRESETS.items()})


@bp.post("/melds")
def melds():
    data = _body()
    rules = rules_from_json(_optional(data, "rules"))
    cards = _cards(data.get("cards"), rules.pack, "cards")
    return jsonify(arrangement_json(best_melds(cards, rules)))


@bp.post("/close")
def close():
    data = _body()
    rules = rules_from_json(_optional(data, "rules"))
    cards = _cards(data.get("cards"), rules.pack, "cards")
    first_round = _flag(data, "first_round")
    discard = _optional(data, "discard")
    if discard is not None:
        discard = _card(discard, rules.pack, "discard")
        if len(cards) == 7:
            raise ChinchonError("Name a discard only with the 8 cards held after drawing.", "discard")
    return jsonify(verdict_json(check_close(cards, rules, first_round, discard)))


@bp.post("/hand")
def hand():
    data = _body()
    rules = rules_from_json(_optional(data, "rules"))
    hands = data.get("hands")
    if not isinstance(hands, list) or not hands:
        raise CountError("hands must be a list of hands, each a list of cards, in play order.", "hands")
    if len(hands) > 8:
        raise CountError(f"hands holds {len(hands)} hands; a table has at most 8 players.", "hands")
    parsed = [_cards(h, rules.pack, f"hands[{i}]") for i, h in enumerate(hands)]
    closer = _optional(data, "closer")
    closer = 0 if closer is None else closer
    if isinstance(closer, bool) or not isinstance(closer, int) or not 0 <= closer < len(parsed):
        raise ChinchonError(f"closer must be a player index from 0 to {len(parsed) - 1}.", "closer")
    first_round = _flag(data, "first_round")
    return jsonify(hand_json(settle_hand(parsed, rules, closer, first_round)))


@bp.post("/match")
def match():
    data = _body()
    rules = rules_from_json(_optional(data, "rules"))
    players = data.get("players")
    if not isinstance(players, list):
        raise ChinchonError('players must be a list of names, such as ["Ana", "Ben"].', "players")
    events = _optional(data, "events")
    if events is not None and not isinstance(events, list):
        raise ChinchonError('events must be a list, such as [{"hand": {"Ana": 12, "Ben": -10}}].', "events")
    return jsonify(replay_match(players, events, rules).to_dict())


@bp.errorhandler(ChinchonError)
def bad_input(error: ChinchonError):
    return jsonify(error=error.message, field=error.field), 400


@bp.errorhandler(HTTPException)
def http_error(error: HTTPException):
    return http_error_json(error)
