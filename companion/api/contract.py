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

_MOVE = {
    "type": "object",
    "description": "A move of the log: draw {seat, source: stock|discard, card}, discard {seat, card}, "
    "close {seat, card}, reshuffle {kept, stock}, void {seat, reason}.",
    "properties": {"move": {"type": "string", "enum": ["draw", "discard", "close", "reshuffle", "void"]}},
    "required": ["move"],
}
_OPTION = obj(
    {
        "move": {"type": "string", "enum": ["stock", "pile", "throw", "close"]},
        "card": nullable(ref("CardOut")),
        "value": {"type": "number"},
    },
    required=["move", "card", "value"],
)
add(
    Endpoint(
        "post",
        "/review",
        "review",
        "The review of a finished hand",
        "deal is a finished hand as the play history exports it (a deal's state: dealer, hands, stock, "
        "discards, turn, turns_taken, reshuffles, closer, closing_discard, void and the log of moves, "
        "every drawn card kept).  The deal is rebuilt from it and replayed; each decision of the seats "
        "asked for (all by default) is judged by the expert from what that seat could see then, never the "
        "hidden cards: made and best move with their values (expected points), the loss, and a mark "
        "(inaccuracy, mistake, blunder at the thresholds given).  accuracy: per seat, 100 × the average of "
        "1 − loss / blunder threshold.  closer_chance: the closer's chance to close within its next two "
        "draws from each position; lost_at: the step from which it stayed at 50 % or more.  totals: the "
        "match score before the hand, in the deal's seat order.",
        request=obj(
            RULES
            | {
                "deal": {"type": "object", "properties": {"log": {"type": "array", "items": _MOVE, "maxItems": 160}}},
                "seats": nullable({"type": "array", "items": SEAT, "maxItems": 8}),
                "totals": nullable(
                    {
                        "type": "array",
                        "items": {"type": "integer", "minimum": -100000, "maximum": 100000},
                        "maxItems": 8,
                    }
                ),
            },
            required=["deal"],
        ),
        response=obj(
            {
                "version": {"type": "integer"},
                "closer": nullable(SEAT),
                "lost_at": nullable({"type": "integer", "minimum": 0}),
                "accuracy": {"type": "object", "additionalProperties": {"type": "number"}},
                "marks": {"type": "object", "additionalProperties": {"type": "object"}},
                "thresholds": obj(
                    {k: {"type": "number"} for k in ("inaccuracy", "mistake", "blunder")},
                    required=["inaccuracy", "mistake", "blunder"],
                ),
                "steps": {
                    "type": "array",
                    "items": obj(
                        {
                            "move": _MOVE,
                            "hands": {"type": "array", "items": cards_out()},
                            "top": nullable(ref("CardOut")),
                            "stock": {"type": "integer"},
                            "judgement": nullable(
                                obj(
                                    {
                                        "made": _OPTION,
                                        "best": _OPTION,
                                        "loss": {"type": "number", "minimum": 0},
                                        "mark": nullable(
                                            {"type": "string", "enum": ["inaccuracy", "mistake", "blunder"]}
                                        ),
                                        "options": {"type": "array", "items": _OPTION},
                                    },
                                    required=["made", "best", "loss", "mark", "options"],
                                )
                            ),
                            "closer_chance": nullable(PROBABILITY),
                        },
                        required=["move", "hands", "top", "stock", "judgement", "closer_chance"],
                    ),
                },
            },
            required=["version", "closer", "lost_at", "accuracy", "steps"],
        ),
        example=examples.REVIEW,
    )
)
