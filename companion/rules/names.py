"""Players' names as people type them: one normal form, one comparison key.

Phones type the same name in different ways (an "é" as one code point or as
"e" plus an accent, a zero-width space pasted from a chat, two spaces).  A
name is kept in NFC with invisible characters removed and spaces collapsed;
two names are the same player when their keys (the case-folded normal form)
are equal.

>>> normalize_name("  Jose\\u0301\\u200b  María ")
'José María'
>>> name_key("ANA") == name_key("ana")
True
"""

from __future__ import annotations

import functools
import unicodedata
from collections import Counter
from collections.abc import Iterable

#: Unicode categories never meant to be seen: format characters (zero-width
#: spaces and joiners, direction marks, BOM), controls, unassigned, private use.
_INVISIBLE = {"Cf", "Cc", "Cn", "Co", "Cs"}


_ZWJ = "\u200d"
_VS16 = "\ufe0f"


def _joins_emoji(text: str, i: int) -> bool:
    """A zero-width joiner inside an emoji sequence (👩‍👩‍👧‍👦, 🏳️‍🌈) is part of
    what the name shows; anywhere else it is invisible."""
    before, after = text[i - 1 : i], text[i + 1 : i + 2]
    return (
        bool(before and after)
        and (unicodedata.category(before) in ("So", "Sk") or before == _VS16)
        and unicodedata.category(after) == "So"
    )


@functools.lru_cache(maxsize=4096)
def normalize_name(raw: str) -> str:
    """The name to store and show: NFC, invisible characters dropped (but
    the joiners of an emoji sequence kept), whitespace runs made one space,
    trimmed.

    >>> normalize_name("  Ana\u200b  María ")
    'Ana María'
    >>> len(normalize_name("\U0001f469\u200d\U0001f467"))  # one family emoji, joiner kept
    3
    """
    text = unicodedata.normalize("NFC", raw or "")
    visible = "".join(
        " " if ch.isspace() else ch
        for i, ch in enumerate(text)
        if ch.isspace() or unicodedata.category(ch) not in _INVISIBLE or (ch == _ZWJ and _joins_emoji(text, i))
    )
    return " ".join(visible.split())


@functools.lru_cache(maxsize=4096)
def name_key(raw: str) -> str:
    """What two names are compared by: the normal form, case-folded (then NFC
    again, since folding can decompose)."""
    return unicodedata.normalize("NFC", normalize_name(raw).casefold())


def repeated_name(names: Iterable[str]) -> str | None:
    """The first name another one repeats (compared by :func:`name_key`), as
    :func:`normalize_name` writes it; None when every name differs.

    >>> repeated_name(["Ana", "Ben", " ANA "]), repeated_name(["Ana", "Ben"])
    ('Ana', None)
    """
    names = list(names)
    keys = Counter(name_key(n) for n in names)
    return next((normalize_name(n) for n in names if keys[name_key(n)] > 1), None)
