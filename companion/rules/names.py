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

import unicodedata

#: Unicode categories never meant to be seen: format characters (zero-width
#: spaces and joiners, direction marks, BOM), controls, unassigned, private use.
_INVISIBLE = {"Cf", "Cc", "Cn", "Co", "Cs"}


def normalize_name(raw: str) -> str:
    """The name to store and show: NFC, invisible characters dropped,
    whitespace runs made one space, trimmed."""
    text = unicodedata.normalize("NFC", raw or "")
    visible = "".join(
        " " if ch.isspace() else ch for ch in text if unicodedata.category(ch) not in _INVISIBLE or ch.isspace()
    )
    return " ".join(visible.split())


def name_key(raw: str) -> str:
    """What two names are compared by: the normal form, case-folded (then NFC
    again, since folding can decompose)."""
    return unicodedata.normalize("NFC", normalize_name(raw).casefold())
