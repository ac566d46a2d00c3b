"""One request and its exact answer per endpoint: shown in the OpenAPI document
and on ``/api/v1/docs``, and run by ``tests/web/test_api_contract.py``, which
checks that the API answers exactly this."""

from __future__ import annotations

from .openapi import Example

#: The classic preset with every option resolved; the others are written as
#: their differences from it (each still a literal the API must answer).
CLASSIC = {
    "deck": "spanish40",
    "decks": "auto",
    "min_players": 2,
    "max_players": 8,
    "court_values": "sequence",
    "jokers": 0,
    "wild_cards": [],
    "joker_points": 25,
    "min_real_cards": 2,
    "max_wilds_per_meld": None,
    "close_rule": "one_card",
    "close_max": 4,
    "first_round_close": False,
    "all_combined_bonus": -10,
    "joker_run_bonus": [-50, -25],
    "chinchon": "wins_match",
    "layoffs": "all",
    "layoff_onto_full_close": False,
    "run_layoff_limit": None,
    "target": 100,
    "eliminate": "over",
    "reentries": 1,
    "reentry_min_players": 3,
    "stake": 0,
    "reshuffle": "keep_top",
    "max_reshuffles": None,
    "direction": "counterclockwise",
}
PRESETS = Example(
    None,
    {
        "classic": CLASSIC,
        "fournier": {**CLASSIC, "close_rule": "points", "close_max": 5},
        "sweden": {
            **CLASSIC,
            "deck": "spanish48",
            "decks": 1,
            "max_players": 6,
            "court_values": "ten",
            "close_rule": "points",
            "close_max": 5,
            "first_round_close": True,
            "joker_run_bonus": None,
            "layoffs": "none",
        },
        "italy": {
            **CLASSIC,
            "close_rule": "points",
            "close_max": 5,
            "first_round_close": True,
            "joker_run_bonus": None,
            "chinchon": "none",
            "run_layoff_limit": "two_decks",
            "reentries": None,
            "reentry_min_players": 2,
            "reshuffle": "all",
            "direction": "clockwise",
        },
    },
    "The four presets with every option resolved.",
)
MELDS = Example(
    {"rules": {"preset": "classic"}, "cards": ["5b", "5c", "5e", "4o", "12o", "2c", "1c"]},
    {"melds": [["5c", "5e", "5b"]], "deadwood": ["1c", "2c", "4o", "12o"], "points": 17},
    "A seven-card hand: the set of fives is the only meld, 17 points loose.",
)
CLOSE = Example(
    {"rules": {"preset": "classic"}, "cards": ["11c", "11e", "11b", "5o", "6o", "7o", "3c", "12e"]},
    {
        "legal": True,
        "discard": "12e",
        "melds": [["5o", "6o", "7o"], ["11c", "11e", "11b"]],
        "deadwood": ["3c"],
        "score": 3,
        "chinchon": False,
        "wins_match": False,
        "reason": None,
    },
    "The German rulebook's close: discard the 12e, the 3c is the one loose card.",
)
HAND = Example(
    {
        "rules": {"preset": "classic"},
        "hands": [
            ["11c", "11e", "11b", "5o", "6o", "7o", "3c", "12e"],
            ["5b", "5c", "5e", "4o", "12o", "2c", "1c"],
            ["2e", "3b", "6c", "7b", "10e", "12c", "12b"],
        ],
        "closer": 0,
    },
    {
        "legal": True,
        "reason": None,
        "chinchon": False,
        "wins_match": False,
        "discard": "12e",
        "results": [
            {"melds": [["11c", "11e", "11b"], ["5o", "6o", "7o"]], "layoffs": [], "deadwood": ["3c"], "points": 3},
            {
                "melds": [["5c", "5e", "5b"]],
                "layoffs": [{"card": "4o", "player": 0, "meld": 1}],
                "deadwood": ["1c", "2c", "12o"],
                "points": 13,
            },
            {"melds": [], "layoffs": [], "deadwood": ["2e", "3b", "6c", "7b", "10e", "12c", "12b"], "points": 46},
        ],
    },
    "The German rulebook's hand: the second player lays the 4o off onto the closer's run.",
)
MATCH = Example(
    {
        "rules": {"preset": "classic", "stake": 1},
        "players": ["Ana", "Ben", "Carla", "Dani"],
        "events": [
            {"hand": {"Ana": 12, "Ben": 95, "Carla": -10, "Dani": 30}},
            {"hand": {"Ana": 20, "Ben": 8, "Carla": 4, "Dani": 3}},
            {"reentry": "Ben"},
        ],
    },
    {
        "totals": {"Ana": 32, "Ben": 33, "Carla": -6, "Dani": 33},
        "in": ["Ana", "Ben", "Carla", "Dani"],
        "out": [],
        "reentries": {"Ana": 0, "Ben": 1, "Carla": 0, "Dani": 0},
        "can_reenter": [],
        "pot": 5,
        "finished": False,
        "winners": [],
    },
    "Ben goes out over 100 and buys back in at the highest total still in (Dani's 33), paying the stake again.",
)

#: A bad input and its 400 answer, shown on the docs page.
ADVICE = Example(
    {
        "rules": {"preset": "classic"},
        "hand": ["1o", "2o", "3o", "5c", "5e", "7c", "4o", "12b"],
        "seen": ["6c", "7b"],
        "stock": 20,
        "players": 2,
        "samples": 50,
        "seed": 7,
    },
    {
        "discards": [
            {
                "discard": "1o",
                "close_next": 0.0,
                "close_within_3": 0.18,
                "expected_points": 21.666666666666668,
                "close_now": False,
            },
            {
                "discard": "2o",
                "close_next": 0.0,
                "close_within_3": 0.02,
                "expected_points": 29.666666666666668,
                "close_now": False,
            },
            {
                "discard": "3o",
                "close_next": 0.0,
                "close_within_3": 0.02,
                "expected_points": 28.666666666666668,
                "close_now": False,
            },
            {"discard": "5c", "close_next": 0.0, "close_within_3": 0.0, "expected_points": 17.5, "close_now": False},
            {"discard": "5e", "close_next": 0.0, "close_within_3": 0.0, "expected_points": 17.5, "close_now": False},
            {
                "discard": "7c",
                "close_next": 0.06666666666666667,
                "close_within_3": 0.16,
                "expected_points": 14.666666666666666,
                "close_now": False,
            },
            {
                "discard": "4o",
                "close_next": 0.0,
                "close_within_3": 0.18,
                "expected_points": 21.666666666666668,
                "close_now": False,
            },
            {
                "discard": "12b",
                "close_next": 0.06666666666666667,
                "close_within_3": 0.16,
                "expected_points": 13.966666666666667,
                "close_now": False,
            },
        ],
        "recommended": "12b",
        "samples": 50,
        "draws": 3,
        "unseen": 30,
    },
    "Eight cards after drawing: for each discard, the chance to close on the next draw (exact over the "
    "30 unseen cards), within three draws (sampled, 50 samples, seed 7) and the loose points expected.",
)
ERROR = Example(
    {"rules": {"preset": "classic"}, "cards": ["1o", "2o", "13o"]},
    {"error": "13o is not in the spanish40 deck.", "field": "cards[2]"},
    "A card the deck does not have: the answer names it and its place.",
)

#: A six-move hand: Ana takes the 4 de oros from the pile, and closes at her second turn.
REVIEW = Example(
    {
        "rules": {"preset": "classic"},
        "deal": {
            "dealer": 1,
            "hands": [["3o", "2o", "2b", "7o", "2e", "4b", "4o", "4c"], ["5o", "10b", "10e", "7c", "1b", "1o", "10o"]],
            "stock": [
                "6b",
                "1e",
                "3b",
                "1c",
                "12c",
                "11o",
                "2c",
                "3c",
                "5c",
                "10c",
                "11e",
                "6o",
                "12e",
                "6c",
                "7b",
                "6e",
                "3e",
                "11c",
                "5e",
                "11b",
                "12b",
                "4e",
                "7e",
                "5b",
            ],
            "discards": ["12o"],
            "turn": 0,
            "phase": "over",
            "turns_taken": 2,
            "reshuffles": 0,
            "closer": 0,
            "closing_discard": "7o",
            "void": None,
            "log": [
                {"move": "draw", "seat": 0, "source": "discard", "card": "4o"},
                {"move": "discard", "seat": 0, "card": "10o"},
                {"move": "draw", "seat": 1, "source": "discard", "card": "10o"},
                {"move": "discard", "seat": 1, "card": "12o"},
                {"move": "draw", "seat": 0, "source": "stock", "card": "4c"},
                {"move": "close", "seat": 0, "card": "7o"},
            ],
        },
        "seats": [0],
    },
    {
        "version": 1,
        "closer": 0,
        "lost_at": None,
        "accuracy": {"0": 100.0},
        "marks": {"0": {"inaccuracy": 0, "mistake": 0, "blunder": 0}},
        "thresholds": {"inaccuracy": 3.0, "mistake": 7.0, "blunder": 15.0},
        "steps": [
            {
                "move": {"move": "draw", "seat": 0, "source": "discard", "card": "4o"},
                "hands": [["10o", "7o", "4b", "3o", "2o", "2e", "2b"], ["12o", "10e", "10b", "7c", "5o", "1o", "1b"]],
                "top": "4o",
                "stock": 25,
                "judgement": {
                    "made": {"move": "pile", "card": None, "value": 5.28},
                    "best": {"move": "pile", "card": None, "value": 5.28},
                    "loss": 0.0,
                    "mark": None,
                    "options": [
                        {"move": "pile", "card": None, "value": 5.28},
                        {"move": "stock", "card": None, "value": -3.85},
                    ],
                },
                "closer_chance": 0.095,
            },
            {
                "move": {"move": "discard", "seat": 0, "card": "10o"},
                "hands": [
                    ["10o", "7o", "4b", "3o", "2o", "2e", "2b", "4o"],
                    ["12o", "10e", "10b", "7c", "5o", "1o", "1b"],
                ],
                "top": None,
                "stock": 25,
                "judgement": {
                    "made": {"move": "throw", "card": "10o", "value": 5.8},
                    "best": {"move": "throw", "card": "10o", "value": 5.8},
                    "loss": 0.0,
                    "mark": None,
                    "options": [
                        {"move": "throw", "card": "10o", "value": 5.8},
                        {"move": "throw", "card": "7o", "value": 5.8},
                        {"move": "throw", "card": "4b", "value": 0.89},
                        {"move": "throw", "card": "2e", "value": -1.42},
                    ],
                },
                "closer_chance": 0.275,
            },
            {
                "move": {"move": "draw", "seat": 1, "source": "discard", "card": "10o"},
                "hands": [["7o", "4b", "3o", "2o", "2e", "2b", "4o"], ["12o", "10e", "10b", "7c", "5o", "1o", "1b"]],
                "top": "10o",
                "stock": 25,
                "judgement": None,
                "closer_chance": 0.28,
            },
            {
                "move": {"move": "discard", "seat": 1, "card": "12o"},
                "hands": [
                    ["7o", "4b", "3o", "2o", "2e", "2b", "4o"],
                    ["12o", "10e", "10b", "7c", "5o", "1o", "1b", "10o"],
                ],
                "top": None,
                "stock": 25,
                "judgement": None,
                "closer_chance": 0.285,
            },
            {
                "move": {"move": "draw", "seat": 0, "source": "stock", "card": "4c"},
                "hands": [["7o", "4b", "3o", "2o", "2e", "2b", "4o"], ["10e", "10b", "7c", "5o", "1o", "1b", "10o"]],
                "top": "12o",
                "stock": 25,
                "judgement": {
                    "made": {"move": "stock", "card": None, "value": 8.98},
                    "best": {"move": "stock", "card": None, "value": 8.98},
                    "loss": 0.0,
                    "mark": None,
                    "options": [
                        {"move": "stock", "card": None, "value": 8.98},
                        {"move": "pile", "card": None, "value": 8.33},
                    ],
                },
                "closer_chance": 0.34,
            },
            {
                "move": {"move": "close", "seat": 0, "card": "7o"},
                "hands": [
                    ["7o", "4b", "3o", "2o", "2e", "2b", "4o", "4c"],
                    ["10e", "10b", "7c", "5o", "1o", "1b", "10o"],
                ],
                "top": "12o",
                "stock": 24,
                "judgement": {
                    "made": {"move": "close", "card": "7o", "value": 19.47},
                    "best": {"move": "close", "card": "7o", "value": 19.47},
                    "loss": 0.0,
                    "mark": None,
                    "options": [
                        {"move": "close", "card": "7o", "value": 19.47},
                        {"move": "throw", "card": "7o", "value": 19.3},
                        {"move": "throw", "card": "3o", "value": 11.44},
                        {"move": "throw", "card": "2e", "value": 2.25},
                        {"move": "throw", "card": "2o", "value": -3.26},
                    ],
                },
                "closer_chance": 1.0,
            },
        ],
    },
    "Ana's decisions judged from what she could see; Ben's moves shown, not judged.",
)
