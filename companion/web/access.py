"""Links and what they allow: one table, route × role → allowed.

Every table has three secret links (owner, player, read-only "watch") and a
digital table on several phones one link per human seat.  A view never
decides on its own who may do what: it calls :func:`authorize`, which looks
the request's endpoint and method up in :data:`PERMISSIONS`.  A link may only
show (or lead to) links at its own level or below (:func:`may_show`).
"""

from __future__ import annotations

import hashlib
import re
from typing import NamedTuple

from flask import abort, make_response, render_template, request, url_for
from flask_babel import gettext as _
from sqlalchemy import or_, select

from ..extensions import db
from ..models import GameTable, Group, Player, Tournament

#: A form's one-time submission id, as the pages make it (uuid4().hex).  Ids the
#: server makes itself (``deal-7``) never match, so a form cannot forge one.
SUBMISSION_ID = re.compile(r"[0-9a-f]{32}")

OWNER, PLAYER, WATCH, SEAT, NONE = "owner", "player", "watch", "seat", "none"
ROLES = (OWNER, PLAYER, WATCH, SEAT, NONE)
#: A group's member link is the player level of the same three (owner, player, watch).
MEMBER = PLAYER

_TABLE = frozenset({OWNER, PLAYER, WATCH})
_WRITE = frozenset({OWNER, PLAYER})

#: endpoint → method → the roles that may use it.  A route that takes a link
#: and is missing here answers 403 to everybody (tests/web/test_access.py
#: fails on any route that is missing or answers otherwise).
#: The phone of a digital table (hot-seat play, "deal the next hand", a
#: re-entry): the owner's link, and at a tournament's table its player link,
#: since the organizer keeps the owner's.  Elsewhere the view answers a
#: player link 403 (``play.views.runs_table``).
TABLE_PHONE = frozenset({OWNER, PLAYER})
TABLE_PHONE_ROUTES = frozenset({"play.table_act", "play.table_reentry"})
PERMISSIONS: dict[str, dict[str, frozenset[str]]] = {
    "tables.scoreboard": {"GET": _TABLE},
    "tables.qr": {"GET": _TABLE},
    "tables.history": {"GET": _TABLE},
    "tables.history_csv": {"GET": _TABLE},
    "tables.reentry": {"POST": _WRITE},
    "tables.undo": {"POST": _WRITE},
    "tables.restore": {"POST": _WRITE},
    "tables.rematch": {"POST": _WRITE},
    "tables.new_hand": {"GET": _WRITE, "POST": _WRITE},
    "tables.edit_hand": {"GET": _WRITE, "POST": _WRITE},
    "tables.settings": {"GET": frozenset({OWNER}), "POST": frozenset({OWNER})},
    "tables.delete_table": {"POST": frozenset({OWNER})},
    "play.table": {"GET": _TABLE},
    "play.table_poll": {"GET": _TABLE},
    "play.rematch": {"POST": _WRITE},
    "play.table_reentry": {"POST": TABLE_PHONE},
    "play.seat_reentry": {"POST": frozenset({SEAT})},
    "play.seat_rematch": {"POST": frozenset({SEAT})},
    "play.table_act": {"POST": TABLE_PHONE},
    "play.seat": {"GET": frozenset({SEAT})},
    "play.poll": {"GET": frozenset({SEAT})},
    "play.seat_act": {"POST": frozenset({SEAT})},
    "play.seat_qr": {"GET": frozenset({SEAT})},
    # A finished hand face up (a read-only link once the match is over: play.views.review).
    "play.review": {"GET": _TABLE},
    "play.seat_review": {"GET": frozenset({SEAT})},
    # A group's links: owner, member (the player level) and read-only.
    "groups.page": {"GET": _TABLE},
    "groups.season": {"GET": _TABLE},
    "groups.settle": {"GET": _TABLE},
    "groups.matches_csv": {"GET": _TABLE},
    "groups.add_table": {"POST": _WRITE},
    "groups.again": {"POST": _WRITE},
    "groups.payment": {"POST": frozenset({OWNER})},
    "groups.undo_payment": {"POST": frozenset({OWNER})},
    "groups.new_season": {"POST": frozenset({OWNER})},
    "groups.settings": {"GET": frozenset({OWNER}), "POST": frozenset({OWNER})},
    "groups.export": {"GET": frozenset({OWNER})},
    # A tournament's links: the organizer (owner), the players and read-only.
    "tournaments.page": {"GET": _TABLE},
    "tournaments.wall": {"GET": _TABLE},
    "tournaments.seating": {"GET": _TABLE},
    "tournaments.standings": {"GET": _TABLE},
    "tournaments.standings_csv": {"GET": _TABLE},
    "tournaments.table_qr": {"GET": _TABLE},
    "tournaments.export": {"GET": frozenset({OWNER})},
    "tournaments.start_round": {"POST": frozenset({OWNER})},
    "tournaments.undo_round": {"POST": frozenset({OWNER})},
    "tournaments.sign_up": {"POST": frozenset({OWNER})},
    "tournaments.withdraw": {"POST": frozenset({OWNER})},
    "tournaments.close_table": {"POST": frozenset({OWNER})},
    "tournaments.correct": {"GET": frozenset({OWNER}), "POST": frozenset({OWNER})},
    "tournaments.delete": {"POST": frozenset({OWNER})},
    # A tournament table: a player at it confirms or disputes the result.
    "tables.confirm_result": {"POST": _WRITE},
    "tables.dispute_result": {"POST": _WRITE},
}

#: Which links a page opened with a role may show.
SHOWS: dict[str, frozenset[str]] = {
    OWNER: frozenset({OWNER, PLAYER, WATCH, SEAT}),
    PLAYER: frozenset({PLAYER, WATCH}),
    SEAT: frozenset({WATCH}),
    WATCH: frozenset({WATCH}),
    NONE: frozenset(),
}


class Link(NamedTuple):
    """What a secret link opens: a table (with the seat, for a seat link), a
    group or a tournament, and the role.  A group's member link has the player level."""

    table: GameTable | None
    role: str
    player: Player | None = None
    group: Group | None = None
    tournament: Tournament | None = None

    @property
    def held(self) -> GameTable | Group | Tournament:
        return self.group or self.tournament or self.table

    def token_for(self, role: str) -> str:
        """The link of ``role`` to the same table, group or tournament, if this link may show it."""
        if not may_show(self.role, role):
            abort(403)
        held = self.held
        return {OWNER: held.owner_token, PLAYER: _player_token(held), WATCH: held.watch_token}[role]


def _player_token(held: GameTable | Group | Tournament) -> str:
    return held.member_token if isinstance(held, Group) else held.player_token


def may_show(role: str, shown: str) -> bool:
    return shown in SHOWS[role]


def resolve(token: str) -> Link | None:
    """The table behind a link (any kind), or None."""
    if not token or len(token) > 64:
        return None
    table = db.session.scalar(
        select(GameTable).where(
            or_(GameTable.player_token == token, GameTable.owner_token == token, GameTable.watch_token == token)
        )
    )
    if table is not None:
        role = OWNER if token == table.owner_token else PLAYER if token == table.player_token else WATCH
        return Link(table, role)
    player = db.session.scalar(select(Player).where(Player.seat_token == token))
    if player is not None:
        return Link(player.table, SEAT, player)
    group = db.session.scalar(
        select(Group).where(or_(Group.owner_token == token, Group.member_token == token, Group.watch_token == token))
    )
    if group is not None:
        role = OWNER if token == group.owner_token else PLAYER if token == group.member_token else WATCH
        return Link(None, role, group=group)
    tournament = db.session.scalar(
        select(Tournament).where(
            or_(Tournament.owner_token == token, Tournament.player_token == token, Tournament.watch_token == token)
        )
    )
    if tournament is not None:
        role = OWNER if token == tournament.owner_token else PLAYER if token == tournament.player_token else WATCH
        return Link(None, role, tournament=tournament)
    return None


def group_link(token: str) -> Link | None:
    """The group behind a link and the link's role, or None (no link, or a table's)."""
    link = resolve(token)
    return link if link is not None and link.group is not None else None


def authorize(token: str) -> Link:
    """The link behind ``token`` if :data:`PERMISSIONS` lets it use this route
    with this method; else 404 (no such link) or 403 with a page that says
    what the link can do."""
    link = resolve(token)
    if link is None:
        abort(404)
    method = "GET" if request.method == "HEAD" else request.method
    allowed = PERMISSIONS.get(request.endpoint or "", {}).get(method, frozenset())
    if link.role not in allowed:
        forbid(link)
    # A link opens the pages of what it links to: a group's only the group's, a tournament's only its own.
    if (link.group is not None) != (request.blueprint == "groups"):
        abort(404)
    if (link.tournament is not None) != (request.blueprint == "tournaments"):
        abort(404)
    return link


def by_hand(link: Link) -> GameTable:
    """Entering, correcting or undoing hands by hand is for physical tables: a
    digital table's hands come from play."""
    if link.table.kind == "digital":
        page = render_template(
            "error.html",
            code=403,
            message=_("This is a digital game: its hands are scored by the app as they are played."),
            back=url_for("tables.scoreboard", token=link.token_for(link.role)),
        )
        abort(make_response(page, 403))
    return link.table


def forbid(link: Link) -> None:
    """403: say in words what this link can do, and offer the way back."""
    if link.role == WATCH:
        message = _("This is a read-only link: it shows the score and the history, but cannot change anything.")
    elif link.role == SEAT:
        message = _("This link plays one seat of a digital game; it cannot change the table.")
    elif link.tournament is not None:
        message = _("Only the organizer's link can seat rounds, sign players up or change results.")
    elif link.role == PLAYER and link.group is not None:
        message = _(
            "This member link starts and adds matches; only the group's owner link can change the settings, "
            "record payments or start a season."
        )
    elif link.role == PLAYER:
        message = _("This link enters hands; only the table's owner link can change the settings or delete the table.")
    else:
        message = _("This link cannot do that here.")
    label = None  # "Back to the table"
    if link.role == SEAT and link.player is not None:
        back, label = url_for("play.seat", seat_token=link.player.seat_token), _("Back to the game")
    elif link.group is not None:
        back, label = url_for("groups.page", token=link.token_for(link.role)), _("Back to the group")
    elif link.tournament is not None:
        back, label = url_for("tournaments.page", token=link.token_for(link.role)), _("Back to the tournament")
    else:
        back = url_for("tables.scoreboard", token=link.token_for(link.role))
    page = render_template("error.html", code=403, message=message, back=back, back_label=label)
    abort(make_response(page, 403))


# -- secrets out of logs ----------------------------------------------------------------
_SECRET_PATH = re.compile(r"(/[tsgc]/)([A-Za-z0-9_-]{8,})")
_SECRET_QUERY = re.compile(r"((?:^|[?&])table=)([^&#\s]+)")


def link_hash(token: str) -> str:
    """A short, stable stand-in for a secret link in logs."""
    return "#" + hashlib.sha256(token.encode()).hexdigest()[:8]


def redact(text: str) -> str:
    """A path or request line with every secret link replaced by its hash."""
    text = _SECRET_PATH.sub(lambda m: m.group(1) + link_hash(m.group(2)), text)
    return _SECRET_QUERY.sub(lambda m: m.group(1) + link_hash(m.group(2)), text)
