"""Thin JSON layer: every engine error becomes one 400 answer, here only."""

from __future__ import annotations

from typing import Any

from flask import jsonify, request
from werkzeug.exceptions import HTTPException

from ..rules import (
    PRESETS,
    ChinchonError,
    check_close,
    parse_card,
    parse_cards,
    replay_match,
    rules_from_json,
    settle_hand,
)
from ..rules.errors import CountError
from ..rules.melds import best_melds
from ..rules.serialize import arrangement_json, hand_json, verdict_json
from . import bp


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ChinchonError("Send a JSON object as the request body.", "body")
    return data


def _optional(data: dict[str, Any], name: str) -> Any:
    """An optional field; ``null`` counts as absent."""
    return data.get(name)


def _card_list(data: dict[str, Any], name: str, deck) -> list:
    value = data.get(name)
    if not isinstance(value, list):
        raise CountError(f'{name} must be a list of cards such as ["5o", "6o"].', name)
    return parse_cards(value, deck, name)


def _flag(data: dict[str, Any], name: str) -> bool:
    value = _optional(data, name)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ChinchonError(f"{name} must be true or false.", name)
    return value


@bp.get("/presets")
def presets():
    return jsonify({name: rules.to_dict() for name, rules in PRESETS.items()})


@bp.post("/melds")
def melds():
    data = _body()
    rules = rules_from_json(_optional(data, "rules"))
    cards = _card_list(data, "cards", rules.pack)
    arrangement = best_melds(cards, rules)
    return jsonify(arrangement_json(arrangement))


@bp.post("/close")
def close():
    data = _body()
    rules = rules_from_json(_optional(data, "rules"))
    cards = _card_list(data, "cards", rules.pack)
    first_round = _flag(data, "first_round")
    discard = _optional(data, "discard")
    if discard is not None:
        discard = parse_card(discard, rules.pack, "discard")
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
    parsed = []
    for i, h in enumerate(hands):
        if not isinstance(h, list):
            raise CountError(f"hands[{i}] must be a list of cards.", f"hands[{i}]")
        parsed.append(parse_cards(h, rules.pack, f"hands[{i}]"))
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
        raise ChinchonError("players must be a list of names.", "players")
    events = _optional(data, "events")
    if events is not None and not isinstance(events, list):
        raise ChinchonError("events must be a list.", "events")
    return jsonify(replay_match(players, events, rules).to_dict())


@bp.errorhandler(ChinchonError)
def bad_input(error: ChinchonError):
    return jsonify(error=error.message, field=error.field), 400


@bp.errorhandler(HTTPException)
def http_error(error: HTTPException):
    return jsonify(error=error.description, field=""), error.code
