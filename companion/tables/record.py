"""The match record as people read it: how a hand was closed, and the
history as a spreadsheet (one row per hand and player)."""

from __future__ import annotations

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


def history_csv(standing: Standing) -> str:
    """The history, one row per hand and player who played it: the points,
    the total they made (the one that put a player out included), whether
    the hand put the player out, the pot after the hand (blank without a
    stake), the closer's mark and the closer; a re-entry is a row of its own
    under its hand, its points the change to the total bought back in at, so
    each player's points add up to their total.  UTF-8 with a byte-order
    mark; no cell starts a formula (``web/spreadsheet.py``)."""
    names = standing.table.names
    yes, no = _("yes"), _("no")
    stake = standing.rules.stake
    rows: list[list[object]] = [
        [_("Hand"), _("Player"), _("Points"), _("Total"), _("Out"), _("Re-entry"), _("Pot"), _("Mark"), _("Closer")]
    ]
    for row in standing.rows:
        closer = row.hand.closer_seat
        pot: object = (row.pot - row.paid_in) if stake else ""
        for seat in sorted(row.points):
            reached = row.reached.get(seat, row.totals[seat])
            rows.append(
                [
                    row.hand.number,
                    names[seat],
                    row.points[seat],
                    reached,
                    yes if seat in row.out_after else no,
                    no,
                    pot,
                    csv_mark(row) if seat == closer else "",
                    names[closer],
                ]
            )
        for seat in sorted(row.reentries):
            reached = row.reached.get(seat, row.totals[seat])
            rows.append(
                [
                    row.hand.number,
                    names[seat],
                    row.totals[seat] - reached,
                    row.totals[seat],
                    no,
                    yes,
                    row.pot if stake else "",
                    "",
                    "",
                ]
            )
    return spreadsheet(rows)


def csv_mark(row: HandRow) -> str:
    """A hand's mark in words for a spreadsheet (a number there would be read as points)."""
    if row.mark is Mark.CHINCHON:
        return _("Chinchón")
    if row.mark is Mark.ALL_COMBINED:
        return _("all seven combined")
    return ""
