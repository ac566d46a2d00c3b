"""Every visible string is translated, in every language the app speaks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from companion.web.i18n import FALLBACKS, LANGUAGES

ROOT = Path(__file__).resolve().parent.parent / "companion"
TRANSLATIONS = ROOT / "translations"
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))


def load(path: Path, reader=read_po):
    with path.open("rb") as f:
        if reader is read_po and path.parent.name == "LC_MESSAGES":
            return read_po(f, locale=path.parent.parent.name)  # its own number of plural forms
        return reader(f)


def template_ids() -> set:
    return {(m.context, m.id) for m in load(TRANSLATIONS / "messages.pot") if m.id}


def strings(catalog) -> dict:
    def plain(value):
        return tuple(value) if isinstance(value, list | tuple) else value

    return {(m.context, plain(m.id)): plain(m.string) for m in catalog if m.id}


def translated(value) -> bool:
    return all(value) if isinstance(value, tuple) else bool(value)


def catalogue(lang: str) -> dict:
    return strings(load(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"))


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_message_has_a_translation(lang):
    """Every language translates every message; a regional variant (es_AR)
    only what it says differently, the rest coming from its base language.
    Plurals excepted: Babel compiles an untranslated plural as the English
    text instead of leaving it to the fallback, so a variant carries them all."""
    chain = [catalogue(lang)] + ([catalogue(FALLBACKS[lang])] if lang in FALLBACKS else [])
    missing = [
        k
        for k in template_ids()
        if not any(translated(c.get(k)) for c in (chain[:1] if isinstance(k[1], tuple) else chain))
    ]
    assert not missing, f"{lang} lacks {missing[:5]}"


@pytest.mark.parametrize("lang", sorted(FALLBACKS))
def test_a_regional_variant_translates_what_differs_and_not_a_copy(lang):
    own = catalogue(lang)
    base = catalogue(FALLBACKS[lang])
    differ = [k for k, v in own.items() if translated(v)]
    assert len(differ) >= 50, f"{lang} translates only {len(differ)} messages"
    copies = [k for k in differ if own[k] == base.get(k) and not isinstance(k[1], tuple)]
    assert not copies, f"{lang} repeats its base language (leave these empty): {copies[:5]}"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_translations_keep_the_placeholders(lang):
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        errors = [(m.id, [str(e) for e in errs]) for m, errs in read_po(f, locale=lang).check()]
    assert not errors, errors[:3]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_compiled_catalogs_match_their_sources(lang):
    folder = TRANSLATIONS / lang / "LC_MESSAGES"
    source = {k: v for k, v in strings(load(folder / "messages.po")).items() if translated(v)}
    assert source == strings(load(folder / "messages.mo", read_mo))


def test_the_template_catalogue_is_up_to_date():
    """Every _() in the code is in messages.pot (run `make messages` after adding strings)."""
    from babel.messages.extract import extract_from_dir

    keywords = {
        "_": None,
        "gettext": None,
        "ngettext": (1, 2),
        "_l": None,
        "lazy_gettext": None,
        "_lp": ((1, "c"), 2),
        "lazy_pgettext": ((1, "c"), 2),
        "pgettext": ((1, "c"), 2),
    }
    method_map = [("companion/**.py", "python"), ("companion/templates/**.html", "jinja2")]
    found = set()
    for _filename, _lineno, message, _comments, context in extract_from_dir(ROOT.parent, method_map, keywords=keywords):
        found.add((context, message if isinstance(message, str) else tuple(message)))
    assert found <= template_ids(), sorted(found - template_ids())[:5]


JINJA = re.compile(r"{{.*?}}|{%.*?%}|{#.*?#}", re.S)
LETTERS = re.compile(r"[^\W\d_]{2,}")
ALLOWED = {"Chinchón", "CSV", "QR"}  # names, not language


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_templates_hold_no_untranslated_text(path):
    source = JINJA.sub(" ", path.read_text(encoding="utf-8"))
    source = re.sub(r"<!--.*?-->", " ", source, flags=re.S)
    visible = re.sub(r"<[^>]*>", " ", source)
    # Macros that print attributes leave them outside any tag: not visible text.
    visible = re.sub(r'\b[a-z-]+="[^"]*"|\b(?:aria|data)-[a-z-]+', " ", visible)
    words = [w for w in LETTERS.findall(visible) if w not in ALLOWED]
    assert not words, f"untranslated text in {path.name}: {words[:8]}"
    for attr in re.findall(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"', source):
        assert not LETTERS.findall(attr), f"untranslated attribute in {path.name}: {attr}"


def test_spanish_is_the_default(client_without_language):
    html = client_without_language.get("/").get_data(as_text=True)
    assert 'lang="es"' in html and "Nueva mesa" in html


@pytest.mark.parametrize(
    "header,lang,text",
    [
        ("de-DE,de;q=0.9", "de", "Neuer Tisch"),
        ("it", "it", "Nuovo tavolo"),
        ("sv-SE", "sv", "Nytt bord"),
        ("en-GB", "en", "New table"),
        ("xx-YY", "es", "Nueva mesa"),
    ],
)
def test_the_browser_language_is_used(client_without_language, header, lang, text):
    html = client_without_language.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
    assert f'lang="{lang}"' in html and text in html


def test_the_switcher_remembers_the_choice_in_a_cookie(client_without_language):
    c = client_without_language
    response = c.get("/lang/it?next=/referee/")
    assert response.status_code == 302 and response.headers["Location"] == "/referee/"
    assert "Arbitro" in c.get("/referee/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    # Unknown codes and foreign redirects fall back cleanly.
    assert c.get("/lang/xx?next=https://evil.example/").headers["Location"] == "/"
    assert "Arbitro" in c.get("/referee/").get_data(as_text=True)


@pytest.mark.parametrize(
    "lang,expected",
    [
        ("es", ["rey de espadas", "3 de copas"]),
        ("es_AR", ["12 de espadas", "3 de copas"]),
        ("it", ["re di spade", "3 di coppe"]),
        ("de", ["Espadas-König"]),
        ("sv", ["espadas kung"]),
    ],
)
def test_card_names_read_naturally(client_without_language, lang, expected):
    c = client_without_language
    c.set_cookie("lang", lang)
    html = c.get("/referee/close?cards=11c+11e+11b+5o+6o+7o+3c+12e").get_data(as_text=True)
    for name in expected:
        assert name in html


def test_french_suits_in_german(client_without_language):
    c = client_without_language
    c.set_cookie("lang", "de")
    html = c.get("/referee/close?cards=11c+11e+11b+5o+6o+7o+3c+12e&suits=french").get_data(as_text=True)
    assert "Pik-König" in html and "Karo-5" in html
