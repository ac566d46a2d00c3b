"""Links and what they allow: the table behind a secret link and its role."""

from __future__ import annotations

from flask import abort
from sqlalchemy import or_, select

from .extensions import db
from .models import GameTable

ROLES = ("owner", "player", "watch")


def load(token: str) -> tuple[GameTable, str]:
    """The table behind a link, and what the link allows."""
    table = db.session.scalar(
        select(GameTable).where(
            or_(GameTable.player_token == token, GameTable.owner_token == token, GameTable.watch_token == token)
        )
    )
    if table is None:
        abort(404)
    role = "owner" if token == table.owner_token else "player" if token == table.player_token else "watch"
    return table, role


def writable(token: str, *, by_hand: bool = False) -> tuple[GameTable, str]:
    """A link that may write; ``by_hand`` writes (entering, correcting or undoing
    hands) are for physical tables: a digital table's hands come from play."""
    table, role = load(token)
    if role == "watch" or (by_hand and table.kind == "digital"):
        abort(403)
    return table, role


def owned(token: str) -> GameTable:
    table, role = load(token)
    if role != "owner":
        abort(403)
    return table
