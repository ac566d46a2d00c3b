"""The match record as people read it: how a hand was closed, and the
history as a spreadsheet (one row per hand and player)."""

from __future__ import annotations

from decimal import Decimal

from flask_babel import gettext as _

from ..services.standing import HandRow, Mark, Standing
from ..web.house_rules import signed
from ..web.spreadsheet import spreadsheet


def mark_text(row: HandRow) -> str:
    """A hand's mark as printed: "Chinchón", the closer's score with all seven
    combined ("−10", with a true minus sign), or "" for any other close."""
    if row.mark is Mark.CHINCHON:
        return _("Chinchón")
    if row.mark is Mark.ALL_COMBINED:
        return signed(row.points[row.hand.closer_seat])
    return ""


def plain(amount: Decimal) -> str:
    """An amount as a spreadsheet reads a number: ``5``, ``2.5``."""
    return str(int(amount)) if amount == amount.to_integral_value() else str(amount.normalize())


def history_csv(standing: Standing) -> str:
    """The history, one row per hand and player who played it: the points,
    the total after the hand (after a re-entry, the total bought back in
    at), whether the hand put the player out, whether they bought back in,
    the pot after the hand (blank without a stake), the closer's mark and
    the closer.  UTF-8 with a byte-order mark; no cell starts a formula."""
    names = standing.table.names
    yes, no = _("yes"), _("no")
    stake = standing.rules.stake
    rows: list[list[object]] = [
        [_("Hand"), _("Player"), _("Points"), _("Total"), _("Out"), _("Re-entry"), _("Pot"), _("Mark"), _("Closer")]
    ]
    for row in standing.rows:
        closer = row.hand.closer_seat
        rows += [
            [
                row.hand.number,
                names[seat],
                row.points[seat],
                row.totals[seat],
                yes if seat in row.out_after else no,
                yes if seat in row.reentries else no,
                plain(row.pot) if stake else "",
                mark_text(row) if seat == closer else "",
                names[closer],
            ]
            for seat in sorted(row.points)
        ]
    return spreadsheet(rows)
