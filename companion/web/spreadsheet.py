"""CSV files people open in a spreadsheet: UTF-8 with a byte-order mark (so
a Spanish Excel shows "ñ" and "ó"), and no cell a spreadsheet would run as a
formula (OWASP CSV injection)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

#: What a spreadsheet reads first to know the file is UTF-8.
BOM = "\ufeff"


def csv_safe(text: str) -> str:
    """A cell a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def spreadsheet(rows: Iterable[Sequence[object]]) -> str:
    """The rows as a CSV file: text cells made safe, numbers as they are."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([csv_safe(c) if isinstance(c, str) else c for c in row])
    return BOM + out.getvalue()
