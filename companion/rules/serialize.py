"""The engine's answers as JSON values (SPEC §8), shared by the API and the CLI."""

from __future__ import annotations

from typing import Any

from .cards import format_cards
from .close import CloseVerdict
from .melds import Arrangement
from .settle import HandResult


def arrangement_json(arrangement: Arrangement) -> dict[str, Any]:
    return {
        "melds": [format_cards(m) for m in arrangement.melds],
        "deadwood": format_cards(arrangement.deadwood),
        "points": arrangement.points,
    }


def verdict_json(verdict: CloseVerdict) -> dict[str, Any]:
    return {
        "legal": verdict.legal,
        "discard": str(verdict.discard) if verdict.discard else None,
        "melds": [format_cards(m) for m in verdict.melds],
        "deadwood": format_cards(verdict.deadwood),
        "score": verdict.score,
        "chinchon": verdict.chinchon,
        "wins_match": verdict.wins_match,
        "reason": verdict.reason,
    }


def hand_json(result: HandResult) -> dict[str, Any]:
    return {
        "legal": result.legal,
        "reason": result.reason,
        "chinchon": result.chinchon,
        "wins_match": result.wins_match,
        "discard": str(result.discard) if result.discard else None,
        "results": None
        if result.results is None
        else [
            {
                "melds": [format_cards(m) for m in r.melds],
                "layoffs": [{"card": str(x.card), "player": x.player, "meld": x.meld} for x in r.layoffs],
                "deadwood": format_cards(r.deadwood),
                "points": r.points,
            }
            for r in result.results
        ],
    }
