"""Spanish on both sides of the Atlantic: es (Spain) and es_AR (Río de la Plata),
whose catalogue holds only what it says differently and falls back to es."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from flask_babel import force_locale, gettext, ngettext, pgettext

from companion.web.i18n import money, negotiate_language, possessive

from .helpers import GERMAN, create_table, decide_reentry, enter_points, hand_form

TRANSLATIONS = Path(__file__).resolve().parents[2] / "companion" / "translations"


def page(client, path="/", **headers) -> str:
    return client.get(path, headers=headers).get_data(as_text=True)


# -- choosing the variant ----------------------------------------------------------
@pytest.mark.parametrize(
    "header,lang",
    [
        ("es-AR", "es-AR"),
        ("es-AR,es;q=0.9,en;q=0.8", "es-AR"),
        ("es-UY", "es-AR"),
        ("es-419", "es-AR"),
        ("es_ar", "es-AR"),
        ("es-ES", "es"),
        ("es", "es"),
        ("es-MX", "es"),
        ("es;q=0.9,es-AR;q=0.5", "es"),
        ("en-US,es-AR;q=0.5", "en"),
        ("pt-BR,es-UY;q=0.8", "es-AR"),
        ("es-AR;q=0,de", "de"),
    ],
)
def test_the_browser_region_chooses_the_spanish(client_without_language, header, lang):
    html = page(client_without_language, **{"Accept-Language": header})
    assert f'<html lang="{lang}">' in html
    rioplatense = "Llevá la cuenta en la mesa: anotá las cartas" in html
    assert rioplatense == (lang == "es-AR")


def test_negotiation_ignores_wildcards_and_refused_languages():
    assert negotiate_language([("*", 1), ("es-uy", 0.5)]) == "es_AR"
    assert negotiate_language([("fr", 1), ("es-AR", 0)]) is None


def test_the_switcher_offers_and_remembers_the_variant(client_without_language):
    c = client_without_language
    html = page(c)
    assert "Español (España)" in html and "Español (Río de la Plata)" in html
    assert 'lang="es-AR"' in html  # the switcher's link, as a BCP 47 tag
    response = c.get("/lang/es_AR?next=/referee/")
    assert response.status_code == 302
    html = page(c, "/", **{"Accept-Language": "es-ES"})
    assert '<html lang="es-AR">' in html and "¿puedo cortar?" in html and "ES-AR" in html
    c.get("/lang/es")
    html = page(c, "/", **{"Accept-Language": "es-AR"})
    assert '<html lang="es">' in html and "¿puedo cerrar?" in html


# -- the fallback --------------------------------------------------------------------
def catalogue(lang):
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=lang)


def test_every_message_es_ar_leaves_out_renders_as_in_spain(app):
    """The fallback is real: messages absent from the es_AR catalogue come from
    es at run time (Flask-Babel loads one catalogue per locale by itself)."""
    with (TRANSLATIONS / "es_AR" / "LC_MESSAGES" / "messages.mo").open("rb") as f:
        compiled = {(m.context, m.id) for m in read_mo(f) if isinstance(m.id, str) and m.id}
    spain = {(m.context, m.id): m.string for m in catalogue("es") if m.id and not m.pluralizable}
    left_out = [key for key in spain if key not in compiled]
    assert len(left_out) > 100  # most of the catalogue is shared
    with app.test_request_context(), force_locale("es_AR"):
        for context, msgid in left_out:
            text = pgettext(context, msgid) if context else gettext(msgid)
            assert text == spain[(context, msgid)], msgid
        # Plurals come from es_AR itself and still read in Spanish.
        assert ngettext("%(num)s point", "%(num)s points", 3) == "3 puntos"
        # What es_AR does say differently wins over es.
        assert gettext("Pile: %(card)s", card="7") == "Pozo: 7" and gettext("Closer") == "Quien corta"


def test_a_page_in_es_ar_mixes_its_own_words_with_spain_s_never_english(client_without_language):
    c = client_without_language
    c.set_cookie("lang", "es_AR")
    html = page(c, "/referee/close?cards=11c+11e+11b+5o+6o+7o+3c+12e")
    assert "¿Puedo cortar con esto?" in html or "Corte válido." in html  # es_AR's own
    assert "Árbitro" in html  # from es
    visible = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S))
    for english in ("Referee", "Legal close", "Cards", "Closer", "Language", "Discard"):
        assert not re.search(rf"\b{english}\b", visible), english


# -- a page in each variant --------------------------------------------------------------
@pytest.mark.parametrize(
    "lang,expected,absent",
    [
        ("es", ["Ana queda fuera.", "Bote: 4,00\xa0€", "(pone 1,00\xa0€ en el bote)"], ["afuera"]),
        (
            "es_AR",
            ["Ana queda afuera.", "Premio: $4,00", "(pone $1,00 para el premio)"],
            ["Bote", "€", "Apuntar"],
        ),
    ],
)
def test_the_scoreboard_in_each_spanish(client_without_language, lang, expected, absent):
    c = client_without_language
    c.set_cookie("lang", lang)
    token = create_table(c, ["Ana", "Ben", "Carla", "Dani"], stake="1")
    enter_points(c, token, 1, {0: 60, 1: 3, 2: 20, 3: 50})
    enter_points(c, token, 1, {0: 41, 1: -10, 2: 10, 3: 0})
    html = page(c, f"/t/{token}")
    for text in expected:
        assert text in html.replace("&nbsp;", "\xa0"), text
    for text in absent:
        assert text not in html, text
    # Ana's buy-back answered, the next hand is offered in the variant's words.
    decide_reentry(c, token, 0, buy=False)
    assert {"es": "Apuntar la mano 3", "es_AR": "Anotar la mano 3"}[lang] in page(c, f"/t/{token}")


@pytest.mark.parametrize(
    "lang,expected",
    [
        ("es", ["Toca las cartas de cada jugador", "Quien cierra", "rey de espadas"]),
        ("es_AR", ["Tocá las cartas de cada jugador", "Quien corta", "12 de espadas"]),
    ],
)
def test_the_hand_entry_in_each_spanish(client_without_language, lang, expected):
    c = client_without_language
    c.set_cookie("lang", lang)
    token = create_table(c, ["Ana", "Ben", "Carla"])
    html = page(c, f"/t/{token}/hands/new")
    for text in expected:
        assert text in html, text


def test_the_verdict_in_es_ar_cuts_and_takes_the_pozo_words(client_without_language):
    text = german_verdict(client_without_language, "es_AR", "Ana")
    assert "Corte válido." in text and "juego 2 de Ana" in text


# -- names, money and the CSV ------------------------------------------------------------
@pytest.mark.parametrize(
    "lang,name,expected",
    [
        ("sv", "Lars", "Lars' kombination 2"),
        ("sv", "Anna", "Annas kombination 2"),
        ("sv", "Max", "Max' kombination 2"),
        ("de", "Lars", "Lars' Meldung 2"),
        ("de", "Anna", "Annas Meldung 2"),
        ("en", "Anna", "Anna's meld 2"),
        ("es", "Lars", "combinación 2 de Lars"),
        ("it", "Lars", "combinazione 2 di Lars"),
    ],
)
def test_a_player_s_meld_in_the_possessive(app, lang, name, expected):
    with app.test_request_context(), force_locale(lang):
        assert gettext("%(owner)s meld %(n)s", owner=possessive(name), n=2) == expected


def test_swedish_verdict_says_lars_not_larss(client_without_language):
    text = german_verdict(client_without_language, "sv", "Lars").replace("&#39;", "'")
    assert "Lars' kombination 2" in text and "Larss" not in text


@pytest.mark.parametrize(
    "lang,expected",
    [
        ("es", "2,50\xa0€"),
        ("es_AR", "$2,50"),
        ("de", "2,50\xa0€"),
        ("it", "2,50\xa0€"),
        ("sv", "2,50\xa0kr"),
        ("en", "2.5"),
    ],
)
def test_the_pot_is_in_the_locale_s_currency(app, lang, expected):
    with app.test_request_context(), force_locale(lang):
        assert money("2.5") == expected


@pytest.mark.parametrize(
    "lang,header",
    [
        ("es", "Mano,Jugador,Puntos,Total,Eliminado,Reenganche,Bote,Marca,Quien cierra"),
        ("es_AR", "Mano,Jugador,Puntos,Total,Eliminado,Reenganche,Premio,Marca,Quien corta"),
        ("it", "Mano,Giocatore,Punti,Totale,Fuori,Rientro,Piatto,Segno,Chi chiude"),
        ("sv", "Giv,Spelare,Poäng,Summa,Ute,Återinträde,Pott,Markering,Den som går ut"),
        ("de", "Hand,Spieler,Punkte,Gesamt,Raus,Wiedereinstieg,Pott,Markierung,Schließender"),
    ],
)
def test_the_csv_header_is_translated(client_without_language, lang, header):
    c = client_without_language
    c.set_cookie("lang", lang)
    token = create_table(c, ["Ana", "Ben"])
    first = page(c, f"/t/{token}/history.csv").lstrip("\ufeff").splitlines()[0]
    assert first == header.replace(",", ";")  # each of these languages writes "2,5": its Excel splits at ";"


def test_the_manifest_names_the_variant_as_a_bcp47_tag(client_without_language):
    c = client_without_language
    c.set_cookie("lang", "es_AR")
    data = c.get("/manifest.webmanifest").get_json(force=True)
    assert data["lang"] == "es-AR" and data["name"] == "Chinchón: anotador y árbitro"


def test_the_docstring_examples_of_the_language_module():
    import doctest

    import companion.web.i18n

    assert doctest.testmod(companion.web.i18n).failed == 0


def german_verdict(c, lang: str, closer: str) -> str:
    """The live verdict, in ``lang``, of the German rulebook's hand closed by ``closer``."""
    c.set_cookie("lang", lang)
    token = create_table(c, [closer, "Ben", "Carla"])
    data = hand_form(c, token)
    data.update({"closer": "0", "mode": "cards", "h0": GERMAN[0], "h1": GERMAN[1], "h2": GERMAN[2]})
    html = c.post(f"/t/{token}/hands/new", data=data, headers={"HX-Request": "true", "HX-Target": "verdict"})
    return html.get_data(as_text=True)
