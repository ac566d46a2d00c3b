"""CSV files people open in a spreadsheet: UTF-8 with a byte-order mark (so
a Spanish Excel shows "ñ" and "ó"), and no cell a spreadsheet would run as a
formula (OWASP CSV injection)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from decimal import Decimal

from babel.numbers import get_decimal_symbol
from flask_babel import get_locale

from .i18n import DEFAULT_LANGUAGE

#: What a spreadsheet reads first to know the file is UTF-8.
BOM = "\ufeff"


def csv_safe(text: str) -> str:
    """A cell a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def plain(amount: Decimal) -> str:
    """An amount as a spreadsheet reads a number: ``5``, ``2.5``."""
    return str(int(amount)) if amount == amount.to_integral_value() else str(amount.normalize())


def spreadsheet(rows: Iterable[Sequence[object]]) -> str:
    """The rows as a CSV file as the page's language opens one: where a
    decimal is written "2,5" (Spanish, German, Italian, Swedish Excel) the
    cells are split by ";" and amounts carry a comma, else "," and "2.5";
    negative numbers with the ASCII minus a spreadsheet reads as a number;
    text cells made safe."""
    comma = get_decimal_symbol(str(get_locale() or DEFAULT_LANGUAGE)) == ","
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";" if comma else ",")
    for row in rows:
        cells: list[object] = []
        for c in row:
            if isinstance(c, Decimal):
                cells.append(plain(c).replace(".", ",") if comma else plain(c))
            else:
                cells.append(csv_safe(c) if isinstance(c, str) else c)
        writer.writerow(cells)
    return BOM + out.getvalue()
