"""The table's language: locale choice, and card and rule names per language.

Every visible string goes through gettext; the engine's reasons come as codes
with parameters and are translated here, never glued together in English.
"""

from __future__ import annotations

import functools

from flask import request
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import lazy_pgettext as _lp

from .rules import DECKS, JOKER, Card

LANGUAGES = {"es": "Español", "en": "English", "de": "Deutsch", "it": "Italiano", "sv": "Svenska"}
DEFAULT_LANGUAGE = "es"


def select_locale() -> str:
    """The language picked on the switcher (a cookie), else the browser's,
    else Spanish.  Unknown codes fall back cleanly."""
    chosen = request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or DEFAULT_LANGUAGE


# -- cards --------------------------------------------------------------------
SUIT_NAMES = {
    "spanish": {"o": _l("oros"), "c": _l("copas"), "e": _l("espadas"), "b": _l("bastos")},
    "french": {"o": _l("diamonds"), "c": _l("hearts"), "e": _l("spades"), "b": _l("clubs")},
}
SPANISH_COURTS = {
    1: _lp("spanish deck", "Ace"),
    10: _lp("spanish deck", "Jack"),
    11: _lp("spanish deck", "Knight"),
    12: _lp("spanish deck", "King"),
}
FRENCH_COURTS = {
    1: _lp("french deck", "Ace"),
    11: _lp("french deck", "Jack"),
    12: _lp("french deck", "Queen"),
    13: _lp("french deck", "King"),
}
FRENCH_MARK = {"o": "♦", "c": "♥", "e": "♠", "b": "♣"}


PRESET_NAMES = {"classic": _l("Classic"), "fournier": _l("Fournier"), "sweden": _l("Swedish"), "italy": _l("Italian")}


def preset_name(name: str) -> str:
    return str(PRESET_NAMES.get(name, name))


def suit_name(suit: str, style: str) -> str:
    return str(SUIT_NAMES[style][suit])


def card_name(card: Card, deck_name: str, style: str) -> str:
    """A card as players say it: "5 de oros", "Rey de copas", "Karo-Bube"."""
    return _card_names(str(get_locale() or DEFAULT_LANGUAGE), deck_name, style)[card]


@functools.lru_cache(maxsize=64)
def _card_names(locale: str, deck_name: str, style: str) -> dict[Card, str]:
    """Every card's name for one language, deck and suit style (a grid names 40+ cards)."""
    del locale  # part of the cache key: gettext below answers in the current language
    courts = FRENCH_COURTS if deck_name == "french52" else SPANISH_COURTS
    names = {JOKER: _("joker")}
    for card in DECKS[deck_name].cards():
        rank = str(courts[card.rank]) if card.rank in courts else str(card.rank)
        names[card] = _("%(rank)s of %(suit)s", rank=rank, suit=suit_name(card.suit.value, style))
    return names


def card_label(card: Card, deck_name: str, style: str) -> str:
    """The short face of a card: "12" plus its suit mark, or "K♥"."""
    if card.is_joker:
        return "★"
    if deck_name == "french52":
        rank = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(card.rank, str(card.rank))
    else:
        rank = str(card.rank)
    return rank + (FRENCH_MARK[card.suit.value] if style == "french" else "")


# The sentences for engine refusals live in companion/messages.py.
from .messages import error_text, reason_text, refusal_text  # noqa: E402,F401
