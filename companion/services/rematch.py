"""A rematch: the same players, rules, stake and group, the dealer moved on by one.

One function serves physical tables, digital games and the tables of a
group (a group's "Play again" too).  It claims the finished table's version,
so two taps (or two phones) make one rematch: every later call answers the
one already made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..models import GameTable, Group, PlayMode, TableKind, now
from .nextstep import verify_rematch
from .play import DEFAULT_PACE, Pace, create_digital_table
from .tables import create_table
from .unit import StaleError, claim


def the_rematch(table: GameTable) -> GameTable | None:
    """The rematch already made of ``table``, if any."""
    return db.session.scalar(select(GameTable).where(GameTable.rematch_of_id == table.id).order_by(GameTable.id))


def rematch(table: GameTable, version: int | None, *, pace: Pace = DEFAULT_PACE) -> GameTable:
    """The rematch of a finished match, made once.

    Raises a ``ServiceError`` (``match_on``) while the match is still
    going on and :class:`StaleError` when another write came first and made
    no rematch (the caller shows the table as it is now)."""
    made = the_rematch(table)
    if made is not None:
        return made
    verify_rematch(table)
    return play_on(table, version, pace=pace)


def play_on(
    table: GameTable,
    version: int | None,
    *,
    names: Sequence[str] | None = None,
    pace: Pace = DEFAULT_PACE,
    claim_it: bool = True,
) -> GameTable:
    """The next match of ``table``'s players (``names``: under these names
    instead), made once: claims ``table``'s version (unless ``claim_it`` is
    false: a group plays again from a match still going on, which stays as
    it is), and a call that loses the race answers the table the winner made."""
    made = the_rematch(table)
    if made is not None:
        return made
    verify_rematch(table, finished=False)
    try:
        if claim_it:
            claim(table, version)
    except StaleError:
        made = the_rematch(table)  # the other tap's, committed meanwhile
        if made is not None:
            return made
        raise
    names = list(names or table.names)
    common: dict[str, Any] = dict(
        name=table.name,
        preset=table.preset,
        overrides=dict(table.overrides),
        first_dealer=(table.first_dealer + 1) % len(table.players),
        suit_style=table.suit_style,
        rematch_of=table,
    )
    if table.kind is TableKind.DIGITAL:
        new = create_digital_table(
            **common,
            players=[(name, p.kind) for name, p in zip(names, table.players, strict=True)],
            mode=table.play_mode or PlayMode.HOTSEAT,
            hints=table.hints_allowed,
            pace=pace,
        )
    else:
        new = create_table(**common, players=names)
    if table.group_id is not None:
        new.group_id = table.group_id
        group = db.session.get(Group, table.group_id)
        if group is not None:
            group.updated_at = now()
    return new
