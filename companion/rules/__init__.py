"""The Chinchón rules engine: pure Python, no Flask, no database.

>>> from companion.rules import get_rules, parse_cards, check_close
>>> check_close(parse_cards("11c 11e 11b 5o 6o 7o 3c 12e"), get_rules("classic")).score
3
"""

from .cards import (
    DECKS,
    FRENCH52,
    JOKER,
    SPANISH40,
    SPANISH48,
    SUITS,
    Card,
    Deck,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)
from .close import REASON_TEXT, CloseVerdict, Reason, check_close
from .errors import CardError, ChinchonError, CountError, MatchError, RulesError
from .match import MatchState, replay_match
from .melds import Arrangement, best_melds, meld_context
from .settle import HandResult, Layoff, PlayerResult, settle_hand
from .variants import OPTION_NAMES, PRESETS, Rules, get_rules, rules_from_json

__all__ = [
    "DECKS",
    "FRENCH52",
    "JOKER",
    "OPTION_NAMES",
    "PRESETS",
    "REASON_TEXT",
    "SPANISH40",
    "SPANISH48",
    "SUITS",
    "Arrangement",
    "Card",
    "CardError",
    "ChinchonError",
    "CloseVerdict",
    "CountError",
    "Deck",
    "HandResult",
    "Layoff",
    "MatchError",
    "MatchState",
    "PlayerResult",
    "Reason",
    "Rules",
    "RulesError",
    "Suit",
    "best_melds",
    "check_close",
    "format_cards",
    "get_rules",
    "meld_context",
    "parse_card",
    "parse_cards",
    "replay_match",
    "rules_from_json",
    "settle_hand",
]
