"""One word for each thing, in every language: the catalogues against the
glossary (companion/translations/glossary.csv).

A row is one game term; its English cell picks the messages that speak of it
(the words after "≠" are English phrases that mean something else), and each
language's cell the word that message must use there, after "≠" the words it
must not use for that thing.  A form is a whole word, "*" standing for any
letters ("cort*": corta, cortó, cortar).  es_AR is read as its pages show it:
its own text, or the es text it falls back to.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.web.i18n import FALLBACKS, LANGUAGES

TRANSLATIONS = Path(__file__).resolve().parent.parent / "companion" / "translations"
GLOSSARY = TRANSLATIONS / "glossary.csv"
COLUMNS = ["term", *LANGUAGES, "source"]
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


def words(forms: str) -> re.Pattern | None:
    """A "/"-separated list of forms as one whole-word pattern."""
    parts = [re.escape(f.strip()).replace(r"\*", r"\w*").replace(r"\ ", r"\s+") for f in forms.split("/") if f.strip()]
    return re.compile(rf"(?<!\w)(?:{'|'.join(parts)})(?!\w)", re.I) if parts else None


def cell(text: str) -> tuple[re.Pattern, re.Pattern | None]:
    use, _, avoid = text.partition("≠")
    return words(use), words(avoid)


def glossary() -> list[dict[str, str]]:
    with GLOSSARY.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def shown(lang: str) -> dict:
    """(context, msgid) → the text a page in ``lang`` shows, every plural form joined."""

    def load(code):
        with (TRANSLATIONS / code / "LC_MESSAGES" / "messages.po").open("rb") as f:
            return {(m.context, m.id): m.string for m in read_po(f, locale=code) if m.id}

    own = load(lang)
    base = load(FALLBACKS[lang]) if lang in FALLBACKS else {}
    texts = {}
    for key, value in own.items():
        if not translated(value):
            value = base.get(key, value)
        if translated(value):  # an untranslated message is test_i18n's to report
            texts[key] = " ".join(value) if isinstance(value, tuple) else value
    return texts


def translated(value) -> bool:
    return all(value) if isinstance(value, tuple) else bool(value)


def english(msgid) -> str:
    return PLACEHOLDER.sub(" ", " ".join(msgid) if isinstance(msgid, tuple) else msgid)


def test_the_glossary_is_one_full_table():
    rows = glossary()
    assert rows and list(rows[0]) == COLUMNS
    empty = [(row["term"], column) for row in rows for column in COLUMNS if not (row[column] or "").strip()]
    assert not empty, f"fill in {empty}"
    assert len({row["term"] for row in rows}) == len(rows)


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_each_game_term_has_one_word_in_each_language(lang):
    texts = shown(lang)
    wrong = []
    for row in glossary():
        about, not_about = cell(row["en"])
        use, avoid = cell(row[lang])
        for (_context, msgid), text in texts.items():
            source = english(msgid)
            if not_about:
                source = not_about.sub(" ", source)
            if not about.search(source):
                continue
            text = PLACEHOLDER.sub(" ", text)
            if not use.search(text) or (avoid and avoid.search(text)):
                wrong.append(f"[{row['term']}] {english(msgid)[:70]!r} → {text[:110]!r}")
    assert not wrong, f"{lang}: use the glossary's word ({GLOSSARY.name}):\n" + "\n".join(wrong)
