"""The referee operations as the OpenAPI document publishes them (SPEC §8).

Request and answer schemas are data; the examples are in ``examples.py``.
"""

from __future__ import annotations

from ..rules.match import HAND_POINTS_BOUND, NAME_LENGTH
from . import examples
from .openapi import Endpoint, add, cards, cards_out, melds_out, nullable, obj, ref, strings

RULES = {"rules": ref("Rules")}
FIRST_ROUND = {
    "first_round": nullable(
        {"type": "boolean", "description": "True when not every player has had a turn yet (default false)."}
    )
}
SEAT = {"type": "integer", "minimum": 0, "maximum": 7}
NAME = {"type": "string", "minLength": 1, "maxLength": NAME_LENGTH}

add(
    Endpoint(
        "get",
        "/presets",
        "presets",
        "Every preset, fully resolved",
        "Each preset with every rules option's value (SPEC §7).  The answer carries an ETag; "
        "send it back as If-None-Match to get 304 while nothing changed.",
        response={"type": "object", "additionalProperties": ref("ResolvedRules")},
        example=examples.PRESETS,
        etag=True,
    )
)

add(
    Endpoint(
        "post",
        "/melds",
        "melds",
        "The best melds of some cards",
        "The arrangement of 1–8 cards with the fewest unmatched points.",
        request=obj(RULES | {"cards": cards(1, 8)}, required=["cards"]),
        response=obj(
            {"melds": melds_out(), "deadwood": cards_out(), "points": {"type": "integer"}},
            required=["melds", "deadwood", "points"],
            closed=True,
        ),
        example=examples.MELDS,
    )
)

add(
    Endpoint(
        "post",
        "/close",
        "close",
        "May this hand close, and for what score?",
        "cards is the 8-card hand after drawing (the engine picks the best discard unless discard names one) "
        "or the 7 cards kept.  When the close is not legal, score is null and reason says why; the melds "
        "shown are the kept seven with the fewest unmatched points.",
        request=obj(
            RULES
            | {
                "cards": cards(7, 8),
                "discard": nullable(ref("Card")) | {"description": "The card put face down (8 cards only)."},
            }
            | FIRST_ROUND,
            required=["cards"],
        ),
        response=obj(
            {
                "legal": {"type": "boolean"},
                "discard": nullable(ref("CardOut")),
                "melds": melds_out(),
                "deadwood": cards_out(),
                "score": {"type": ["integer", "null"]},
                "chinchon": {"type": "boolean", "description": "The seven cards are a genuine seven-card run."},
                "wins_match": {"type": "boolean"},
                "reason": {"type": ["string", "null"]},
            },
            required=["legal", "discard", "melds", "deadwood", "score", "chinchon", "wins_match", "reason"],
            closed=True,
        ),
        example=examples.CLOSE,
    )
)

LAYOFF = obj(
    {
        "card": ref("CardOut"),
        "player": {"type": "integer", "description": "Index of the player whose meld takes the card."},
        "meld": {"type": "integer", "description": "Index of that player's meld."},
    },
    required=["card", "player", "meld"],
    closed=True,
)
RESULT = obj(
    {
        "melds": melds_out(),
        "layoffs": {"type": "array", "items": LAYOFF},
        "deadwood": cards_out(),
        "points": {"type": "integer"},
    },
    required=["melds", "layoffs", "deadwood", "points"],
    closed=True,
)

add(
    Endpoint(
        "post",
        "/hand",
        "hand",
        "Settle a whole hand after a close",
        "hands in play order, closer its index (default 0).  The closer's hand has 8 cards (best discard "
        "chosen) or 7; the others 6–8.  Every player shows and lays off as well as they can (SPEC §5).",
        request=obj(
            RULES
            | {
                "hands": {
                    "type": "array",
                    "items": cards(6, 8),
                    "minItems": 2,
                    "maxItems": 8,
                    "description": "Every player's cards, in play order.",
                },
                "closer": nullable(SEAT | {"description": "Index of the closer in hands (default 0)."}),
            }
            | FIRST_ROUND,
            required=["hands"],
        ),
        response=obj(
            {
                "legal": {"type": "boolean"},
                "reason": {"type": ["string", "null"]},
                "chinchon": {"type": "boolean"},
                "wins_match": {"type": "boolean"},
                "discard": nullable(ref("CardOut")),
                "results": nullable({"type": "array", "items": RESULT}),
            },
            required=["legal", "reason", "chinchon", "wins_match", "discard", "results"],
            closed=True,
        ),
        example=examples.HAND,
    )
)

POINTS = {"type": "integer", "minimum": -HAND_POINTS_BOUND, "maximum": HAND_POINTS_BOUND}
EVENT = {
    "oneOf": [
        obj(
            {
                "hand": {
                    "type": "object",
                    "additionalProperties": POINTS,
                    "description": "Points of each player still in.",
                }
            },
            required=["hand"],
            closed=True,
        ),
        obj({"chinchon": NAME}, required=["chinchon"], closed=True),
        obj({"reentry": NAME}, required=["reentry"], closed=True),
    ]
}

add(
    Endpoint(
        "post",
        "/match",
        "match",
        "Replay a match: totals, who is out, re-entries, the pot",
        'events in order: {"hand": {name: points}} (one entry per player still in), {"chinchon": name} '
        '(a 400 where a Chinchón wins nothing), {"reentry": name}.  An event that breaks the rules is a 400 '
        "naming events[i].",
        request=obj(
            RULES
            | {
                "players": {"type": "array", "items": NAME, "minItems": 2, "maxItems": 8},
                "events": nullable({"type": "array", "items": EVENT}),
            },
            required=["players"],
        ),
        response=obj(
            {
                "totals": {"type": "object", "additionalProperties": {"type": "integer"}},
                "in": strings(),
                "out": strings(),
                "reentries": {"type": "object", "additionalProperties": {"type": "integer"}},
                "can_reenter": strings(),
                "pot": {"type": "number"},
                "finished": {"type": "boolean"},
                "winners": strings(),
            },
            required=["totals", "in", "out", "reentries", "can_reenter", "pot", "finished", "winners"],
            closed=True,
        ),
        example=examples.MATCH,
    )
)

PROBABILITY = {"type": "number", "minimum": 0, "maximum": 1}
add(
    Endpoint(
        "post",
        "/advice",
        "advice",
        "The odds of each discard",
        "hand is 8 cards after drawing (or 7 before).  For each discard: close_next, the chance to be able "
        "to close after the next draw (exact, every unseen card equally likely); close_within_3, within "
        "the next three own draws (sampled: samples sequences, seeded by seed); expected_points, the loose "
        "points expected in the kept seven after the best next draw, should someone else close first.  "
        "seen lists cards known to be out of reach (thrown); stock the cards left in it.  first_round: this "
        "turn is in the first round, so (unless the rules' first_round_close allows it) 8 cards cannot close "
        "now and 7 cannot close with this turn's draw; the later draws can.",
        request=obj(
            RULES
            | FIRST_ROUND
            | {
                "hand": cards(7, 8),
                "seen": nullable({"type": "array", "items": ref("Card"), "maxItems": 104}),
                "stock": nullable({"type": "integer", "minimum": 0, "maximum": 104}),
                "players": nullable({"type": "integer", "minimum": 2, "maximum": 8}),
                "samples": nullable({"type": "integer", "minimum": 1, "maximum": 5000}),
                "seed": nullable({"type": "integer", "minimum": 0, "maximum": 2**31 - 1}),
            },
            required=["hand"],
        ),
        response=obj(
            {
                "discards": {
                    "type": "array",
                    "items": obj(
                        {
                            "discard": nullable(ref("CardOut")),
                            "close_next": PROBABILITY,
                            "close_within_3": PROBABILITY,
                            "expected_points": {"type": "number"},
                            "close_now": {"type": "boolean"},
                        },
                        required=["discard", "close_next", "close_within_3", "expected_points"],
                    ),
                },
                "recommended": nullable(ref("CardOut")),
                "samples": {"type": "integer"},
                "draws": {"type": "integer"},
                "unseen": {"type": "integer"},
            },
            required=["discards", "recommended", "samples"],
        ),
        example=examples.ADVICE,
    )
)
