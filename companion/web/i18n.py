"""The table's language: locale choice, and card and rule names per language.

Every visible string goes through gettext; the engine's reasons come as codes
with parameters and are translated here, never glued together in English.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence
from decimal import Decimal

from babel import support
from babel.lists import format_list
from babel.numbers import format_currency, get_currency_symbol, get_territory_currencies
from flask import g, request
from flask_babel import Babel, Domain, format_decimal, get_locale, pgettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import lazy_pgettext as _lp

from ..rules import DECKS, JOKER, Card
from ..services.ledger import from_cents, split_pot, to_cents

LANGUAGES = {
    "es": "Español (España)",
    "es_AR": "Español (Río de la Plata)",
    "en": "English",
    "de": "Deutsch",
    "it": "Italiano",
    "sv": "Svenska",
}
DEFAULT_LANGUAGE = "es"
#: A regional variant's catalogue holds only what it says differently; every
#: other message comes from its base language (never from the English source).
FALLBACKS = {"es_AR": "es"}
#: Browser regions whose Spanish is the Río de la Plata's: Argentina, Uruguay,
#: and "Latin America" as a whole (es-419).  Any other Spanish is Spain's.
RIOPLATENSE_REGIONS = {"ar", "uy", "419"}
#: The country whose money each language's tables play for (Babel knows its currency).
TERRITORIES = {"es": "ES", "es_AR": "AR", "de": "DE", "it": "IT", "sv": "SE"}


def negotiate_language(accepted) -> str | None:
    """The first language the browser accepts that the app speaks.

    ``accepted`` is ``[(tag, quality), ...]`` as in ``Accept-Language``:

    >>> negotiate_language([("es-UY", 1), ("en", 0.5)])
    'es_AR'
    >>> negotiate_language([("es-MX", 1)]), negotiate_language([("pt", 1), ("de-AT", 0.8)])
    ('es', 'de')
    """
    ranked = sorted(((tag, q) for tag, q in accepted if q > 0 and tag != "*"), key=lambda item: -item[1])
    for tag, _quality in ranked:
        language, *subtags = tag.replace("_", "-").lower().split("-")
        if language == "es" and RIOPLATENSE_REGIONS.intersection(subtags):
            return "es_AR"
        if language in LANGUAGES:
            return language
    return None


def select_locale() -> str:
    """The language picked on the switcher (a cookie), else the browser's,
    else Spanish.  Unknown codes fall back cleanly."""
    chosen = request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return negotiate_language(request.accept_languages) or DEFAULT_LANGUAGE


def html_lang(code: str) -> str:
    """A locale code as a BCP 47 tag for ``lang=""`` attributes: es_AR → es-AR."""
    return str(code).replace("_", "-")


class FallbackDomain(Domain):
    """Flask-Babel loads one catalogue per locale; chain a regional variant's
    base language behind it, so that es_AR falls back to es, not to English.

    The catalogue found is kept for the request beside Flask-Babel's own
    per-request state (``g._flask_babel``), for as long as the locale is the
    same object (``force_locale`` puts another): a page asks for it once per
    string, some 900 times for a 64-table dashboard."""

    def get_translations(self):
        space = g.get("_flask_babel") if g else None
        locale = getattr(space, "babel_locale", None)
        kept = getattr(space, "companion_translations", None)
        if kept is not None and locale is not None and kept[0] is locale:
            return kept[1]
        translations = super().get_translations()
        base = FALLBACKS.get(str(get_locale()))
        if base and not getattr(translations, "chained_to", None):
            for directory in self.translation_directories:
                translations.add_fallback(support.Translations.load(directory, [base], self.domain[0]))
            translations.chained_to = base
        space = g.get("_flask_babel") if g else None
        if space is not None:
            space.companion_translations = (getattr(space, "babel_locale", None), translations)
        return translations


class RegionalBabel(Babel):
    """Flask-Babel with regional variants that fall back to their base language."""

    @functools.cached_property
    def domain_instance(self):
        return FallbackDomain(domain=self.domain)

    def init_app(self, app, *args, **kwargs) -> None:
        """Flask-Babel's, with the templates' ``_`` and ``ngettext`` asking
        this domain straight away (Flask-Babel's own look the domain up again
        for every string)."""
        super().init_app(app, *args, **kwargs)

        def found():  # the domain is made within the first request (it needs the app)
            return self.domain_instance.get_translations()

        app.jinja_env.install_gettext_callables(
            gettext=lambda s: found().ugettext(s),
            ngettext=lambda s, p, n: found().ungettext(s, p, n),
            newstyle=True,
            pgettext=lambda c, s: found().upgettext(c, s),
            npgettext=lambda c, s, p, n: found().unpgettext(c, s, p, n),
        )


babel = RegionalBabel()  # regional variants (es_AR) fall back to their base language


def local_currency(offered: Sequence[str] = ("EUR", "USD", "GBP", "SEK", "CHF", "ARS", "MXN", "UYU")) -> str:
    """The currency a new tournament is offered in: the page's country's, if offered (else EUR)."""
    territory = TERRITORIES.get(str(get_locale() or DEFAULT_LANGUAGE))
    found = [c for c in (get_territory_currencies(territory) if territory else []) if c in offered]
    return found[0] if found else "EUR"


def money(amount, currency: str | None = None) -> str:
    """An amount as Babel writes it in the page's language, in ``currency``
    when the money has one (a group's tables play in the group's currency):
    "2,50 €" (es), "EUR 2,50" (es_AR), "€2.50" (en).  Without one, in the
    currency of the language's country: "$2,50" (es_AR), "2,50 kr" (sv);
    English stands for no one country: a plain number."""
    value = Decimal(str(amount))
    locale = str(get_locale() or DEFAULT_LANGUAGE)
    if currency is None:
        territory = TERRITORIES.get(locale)
        currencies = get_territory_currencies(territory) if territory else []
        if not currencies:
            return format_decimal(value)
        currency = currencies[0]
    text = format_currency(value, currency, locale=locale)
    return _currency_spacing(text, get_currency_symbol(currency, locale))


def number(value) -> str:
    """A number as the page's language writes it, with the minus sign of
    print: "1,000,000" (en), "1.000.000" (es), "−1 000" (sv)."""
    text = format_decimal(abs(value))
    return f"\u2212{text}" if value < 0 else text


def one_place(value, *, sign: bool = False) -> str:
    """To one decimal as the page's language writes it, with the minus sign
    of print (and a plus with ``sign``); "–" for nothing: "−4,7" (es), "+2.3" (en)."""
    if value is None:
        return "–"
    shown = round(Decimal(str(value)), 1)
    text = format_decimal(abs(shown), format="#,##0.0")
    return "\u2212" + text if shown < 0 else ("+" + text if sign else text)


def pot_text(pot: Decimal, winners: Sequence[str], currency: str | None = None) -> str:
    """Who takes the pot, and what each takes when several share it (the odd
    cent to the first winners in seat order, as the group's ledger pays it):
    "Takes the pot: €7.65", "Shared pot of €7.65: Ana €3.83 and Ben €3.82"."""
    if len(winners) < 2:
        return _("Takes the pot: %(pot)s", pot=money(pot, currency))
    shares = [
        f"{name} {money(from_cents(cents), currency)}"
        for name, cents in split_pot(to_cents(Decimal(str(pot))), winners).items()
    ]
    return _("Shared pot of %(pot)s: %(shares)s", pot=money(pot, currency), shares=listed(shares))


def listed(items: Sequence[str]) -> str:
    """Items joined as the page's language lists them: "Ana, Ben and Carla"."""
    return format_list(list(items), locale=str(get_locale() or DEFAULT_LANGUAGE)) if items else ""


def _currency_spacing(text: str, symbol: str) -> str:
    """CLDR's currency spacing, which Babel leaves out: a symbol that ends in
    a letter never touches the number ("EUR 9,72", not "EUR9,72"); "$9,72"
    and "9,72 €" stay as they are."""
    at = text.find(symbol) if symbol else -1
    if at < 0:
        return text
    end = at + len(symbol)
    if end < len(text) and text[end].isdigit() and unicodedata.category(symbol[-1])[0] not in "SZ":
        text = f"{text[:end]}\u00a0{text[end:]}"
    if at > 0 and text[at - 1].isdigit() and unicodedata.category(symbol[0])[0] not in "SZ":
        text = f"{text[:at]}\u00a0{text[at:]}"
    return text


def possessive(name: str) -> str:
    """A player's name in the possessive, as the language builds it: "Ana's",
    "Anas" but "Lars'" (sv, de), "de Ana" (es)."""
    if name[-1:].lower() in ("s", "x", "z", "ß"):
        return pgettext("possessive of a name ending in s, x or z", "%(name)s's", name=name)
    return pgettext("possessive of a name", "%(name)s's", name=name)


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


#: The presets named by what a table notices first: how a hand may be closed.
PRESET_TITLES = {
    "classic": _l("Classic: close with ≤ 4"),
    "fournier": _l("Fournier: close with ≤ 5"),
    "sweden": _l("Swedish: close with ≤ 5"),
    "italy": _l("Italian: close with ≤ 5"),
}


def preset_name(name: str) -> str:
    """The preset's short name ("Classic"), where several are listed together."""
    return str(PRESET_NAMES.get(name, name))


def preset_title(name: str) -> str:
    """The preset named by its close ("Classic: close with ≤ 4")."""
    return str(PRESET_TITLES.get(name, preset_name(name)))


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
        assert card.suit is not None  # a deck's cards have suits; the joker is named above
        names[card] = _("%(rank)s of %(suit)s", rank=rank, suit=suit_name(card.suit.value, style))
    return names


def card_label(card: Card, deck_name: str, style: str) -> str:
    """The short face of a card: "12" plus its suit mark, or "K♥"."""
    if card.suit is None:  # the joker
        return "★"
    if deck_name == "french52":
        rank = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(card.rank, str(card.rank))
    else:
        rank = str(card.rank)
    return rank + (FRENCH_MARK[card.suit.value] if style == "french" else "")
