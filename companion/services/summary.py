"""A table's match as pages of many tables read it: kept in the table's row,
written by the unit of work in the same commit as every write to the table
(registered below as a hook of :mod:`.unit`), so a 64-table dashboard reads
64 rows instead of replaying 64 matches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..models import GameTable
from ..rules import ChinchonError
from . import unit
from .standing import Standing, standing


@dataclass(frozen=True, slots=True)
class Summary:
    """What a page of many tables shows of one table's match, as it stood at
    one version of the table: hands played, finished or not, each seat's
    total, the ranking (:meth:`Standing.ranking`, as ``(seat, place)``) and
    the time of the last hand.  The unit of work keeps it in the table's row
    (``GameTable.summary``) with every write (:func:`refresh_summaries`), so
    a 64-table dashboard reads 64 rows instead of replaying 64 matches; it
    is used only while its version is the table's (:func:`summary_of`)."""

    hands: int
    finished: bool
    totals: tuple[int, ...]
    ranking: tuple[tuple[int, int], ...]
    last_hand_at: datetime | None

    @classmethod
    def of(cls, current: Standing) -> Summary:
        table = current.table
        hands = table.active_hands()
        return cls(
            hands=current.last_number,
            finished=current.state.finished,
            totals=tuple(current.total(seat) for seat in range(len(table.players))),
            ranking=tuple((p.seat, p.place) for p in current.ranking()),
            last_hand_at=max(h.created_at for h in hands) if hands else None,
        )

    def total(self, seat: int) -> int:
        return self.totals[seat]

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "finished": self.finished,
            "totals": list(self.totals),
            "ranking": [list(p) for p in self.ranking],
            "last_hand_at": self.last_hand_at.isoformat() if self.last_hand_at else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Summary:
        last = data["last_hand_at"]
        return cls(
            hands=data["hands"],
            finished=data["finished"],
            totals=tuple(data["totals"]),
            ranking=tuple((seat, place) for seat, place in data["ranking"]),
            last_hand_at=datetime.fromisoformat(last) if last else None,
        )


def summary_of(table: GameTable) -> Summary:
    """The table's summary: the stored one while it is the table's version, else replayed now."""
    if table.summary is not None and table.summary_version == table.version:
        return Summary.from_json(table.summary)
    return Summary.of(standing(table))


def refresh_summaries(tables: Sequence[GameTable]) -> None:
    """Store each table's summary as of its version (the unit of work calls
    this before every commit, for each table written or made).  A match
    that does not replay stores none: the pages replay it themselves."""
    for table in tables:
        try:
            summary = Summary.of(standing(table)).to_json()
        except ChinchonError:
            summary = None
        table.summary, table.summary_version = summary, table.version


unit.before_commit(refresh_summaries)
