"""The table's language: locale choice, and card and rule names per language.

Every visible string goes through gettext; the engine's reasons come as codes
with parameters and are translated here, never glued together in English.
"""

from __future__ import annotations

import functools

from flask import request
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import lazy_pgettext as _lp

from .rules import DECKS, JOKER, Card, ChinchonError
from .rules.close import Reason

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


# -- reasons and errors ------------------------------------------------------------
def reason_text(reason: Reason | None) -> str:
    if reason is None:
        return ""
    p = reason.params
    match reason.code:
        case "first_round":
            return _("Nobody may close before every player has had a turn (first round).")
        case "one_card_many":
            return _(
                "%(count)s loose cards worth %(points)s; these rules allow at most one loose card worth %(max)s or less.",
                **p,
            )
        case "one_card_high":
            return _("The loose card is worth %(points)s; these rules allow one loose card worth %(max)s or less.", **p)
        case "points_high":
            return _("The loose cards are worth %(points)s; these rules allow at most %(max)s points.", **p)
    return reason.text


def over_limit_text(reason: Reason | None) -> str:
    """How far a refused close is from closing, from the engine's reason.

    Uses the reason's ``over`` parameter when the engine gives it; until then
    it is worked out here, once, from the reason's own ``points``/``max``/``count``.
    """
    if reason is None:
        return ""
    p = reason.params
    if reason.code == "one_card_many":
        return ngettext("%(num)s loose card too many.", "%(num)s loose cards too many.", p["count"] - 1)
    if reason.code in ("one_card_high", "points_high"):
        over = p["over"] if "over" in p else p["points"] - p["max"]
        return ngettext("%(num)s point over the limit.", "%(num)s points over the limit.", over)
    return ""


def error_text(error: ChinchonError) -> str:
    """An engine error in the table's language (the English text as a fallback)."""
    p = error.params
    match error.code, p:
        case "card", {"token": token, "deck": deck} if "copies" not in p:
            return _("%(card)s is not in the %(deck)s deck.", card=token, deck=deck)
        case "card", {"token": "*", "copies": copies}:
            return _("Only %(count)s jokers in the pack; this is one too many.", count=copies)
        case "card", {"token": token, "copies": 1}:
            return _("%(card)s appears twice, but the pack has only one.", card=token)
        case "card", {"token": token, "copies": copies}:
            return _("%(card)s appears more often than the pack has (%(count)s).", card=token, count=copies)
        case "card", {"token": "*"}:
            return _("These rules play without jokers.")
        case "card", {"token": token}:
            return _("'%(card)s' is not a card.", card=token)
        case "count", {"count": count}:
            return _("Wrong number of cards: %(count)s.", count=count)
    return error.message


def refusal_text(refused) -> str:
    """Why a lay-off that fits is refused (a RefusedLayoff), translated."""
    match refused.rule:
        case "no_layoffs":
            return _("these rules allow no laying off.")
        case "full_close":
            return _("nobody lays off onto the melds of a closer who had all seven combined.")
        case "closer_only":
            return _("these rules allow laying off only onto the closer's melds.")
        case "run_limit":
            return _("with two decks at most %(limit)s card may be added to one run in a turn.", limit=refused.limit)
    return refused.text
