"""Links and what they allow.

Every table has three secret links (owner, player, read-only "watch") and a
digital table on several phones one link per human seat.  A view never
decides on its own who may do what: each route that takes a link declares
its :class:`Access` with :func:`allow`, one of the few levels defined here
(:data:`READ`, :data:`WRITE`, :data:`OWNER_ONLY`, :data:`SEAT_ONLY`,
:data:`TABLE_PHONE`), and gets the :class:`Link` once it is let in.  Pages
ask :func:`may` (a boolean) instead of comparing roles.  A link may only
show (or lead to) links at its own level or below (:func:`may_show`).
What may happen next at the table is not a question of links: the view
asks ``services.nextstep`` with the link's :attr:`Link.asker`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NoReturn

from flask import Flask, abort, g, has_request_context, make_response, render_template, request, url_for
from flask_babel import gettext as _
from sqlalchemy import or_, select

from ..extensions import db
from ..models import GameTable, Group, Player, TableKind, Tournament
from ..services.nextstep import TABLE_PHONE as THE_TABLES_PHONE
from ..services.nextstep import Asker, Phone


class Role(StrEnum):
    """What a secret link is: a table's (or group's, or tournament's) owner,
    player (a group's member) or read-only link, a digital table's seat, or
    no link at all."""

    OWNER = "owner"
    PLAYER = "player"
    WATCH = "watch"
    SEAT = "seat"
    NONE = "none"


OWNER, PLAYER, WATCH, SEAT, NONE = Role
ROLES = tuple(Role)
#: A group's member link is the player level of the same three (owner, player, watch).
MEMBER = PLAYER


@dataclass(frozen=True)
class Access:
    """Who may use a route: the link roles, and (``round_phone``) also the
    player link of a tournament's table, which is that table's phone (the
    organizer keeps the owner link); ``kind``: a route of one kind of table
    only (a physical table's hand entry, a digital table's game)."""

    roles: frozenset[Role]
    round_phone: bool = False
    kind: TableKind | None = None

    @property
    def levels(self) -> frozenset[Role]:
        """The link roles the route ever takes (a tournament table's phone is a player link)."""
        return self.roles | {PLAYER} if self.round_phone else self.roles

    def allows(self, link: Link) -> bool:
        if link.role in self.roles:
            return True
        held = link.held
        return self.round_phone and link.role is PLAYER and isinstance(held, GameTable) and held.round_id is not None

    def of(self, kind: TableKind) -> Access:
        return Access(self.roles, self.round_phone, kind)


#: The levels of access, the one table every route declares itself from.
READ = Access(frozenset({OWNER, PLAYER, WATCH}))
WRITE = Access(frozenset({OWNER, PLAYER}))
OWNER_ONLY = Access(frozenset({OWNER}))
SEAT_ONLY = Access(frozenset({SEAT}))
#: The phone that runs a digital table (hot-seat play, dealing, voiding, a
#: buy-back): the owner's link, and at a tournament's table its player link.
TABLE_PHONE = Access(frozenset({OWNER}), round_phone=True)

#: endpoint → method → the roles that may use it (a tournament table's
#: phone counted as ``PLAYER`` where ``round_phone``), made from the routes'
#: declarations when the app is made (:func:`init_app`): for the tests and
#: for :func:`may`.  A route that takes a link without declaring its access
#: answers 403 to everybody (tests/web/test_access.py fails on it).
PERMISSIONS: dict[str, dict[str, frozenset[Role]]] = {}
#: endpoint → its declared access.
ACCESS: dict[str, Access] = {}

#: Which links a page opened with a role may show.
SHOWS: dict[Role, frozenset[Role]] = {
    OWNER: frozenset({OWNER, PLAYER, WATCH, SEAT}),
    PLAYER: frozenset({PLAYER, WATCH}),
    SEAT: frozenset({WATCH}),
    WATCH: frozenset({WATCH}),
    NONE: frozenset(),
}

#: The view arguments that carry a link.
LINK_ARGS = ("token", "seat_token")


@dataclass(frozen=True)
class Link:
    """What a secret link opens (``held``: a table, also for a seat link with
    its ``player``; a group; or a tournament) and the link's role.  A group's
    member link has the player level."""

    held: GameTable | Group | Tournament
    role: Role
    token: str = ""
    player: Player | None = None

    @property
    def table(self) -> GameTable:
        if not isinstance(self.held, GameTable):
            raise LookupError("not a table's link")
        return self.held

    @property
    def group(self) -> Group:
        if not isinstance(self.held, Group):
            raise LookupError("not a group's link")
        return self.held

    @property
    def tournament(self) -> Tournament:
        if not isinstance(self.held, Tournament):
            raise LookupError("not a tournament's link")
        return self.held

    def token_for(self, role: Role) -> str:
        """The link of ``role`` to the same table, group or tournament, if this link may show it."""
        if not may_show(self.role, role):
            abort(403)
        held = self.held
        return {OWNER: held.owner_token, PLAYER: _player_token(held), WATCH: held.watch_token}[role]

    @property
    def asker(self) -> Asker | None:
        """Who this link is to the table's next step (``services.nextstep``):
        the phone keeping a physical table's score, the phone that runs a
        digital table, one seat's phone, or nobody (read-only, a digital
        table's player link)."""
        if self.role is SEAT and self.player is not None:
            return Asker(Phone.SEAT, self.player.seat, self.player.name)
        if not isinstance(self.held, GameTable):
            return None
        if self.held.kind is TableKind.PHYSICAL:
            return THE_TABLES_PHONE if self.role in WRITE.roles else None
        return THE_TABLES_PHONE if TABLE_PHONE.allows(self) else None

    def may(self, endpoint: str) -> bool:
        """Whether this link may use the route ``endpoint`` (its declared access)."""
        access = ACCESS.get(endpoint)
        return access is not None and access.allows(self)


def _player_token(held: GameTable | Group | Tournament) -> str:
    return held.member_token if isinstance(held, Group) else held.player_token


def may_show(role: Role, shown: Role) -> bool:
    return shown in SHOWS[role]


def resolve(token: str) -> Link | None:
    """The table, seat, group or tournament behind a link, or None."""
    if not token or len(token) > 64:
        return None
    table = db.session.scalar(
        select(GameTable).where(
            or_(GameTable.player_token == token, GameTable.owner_token == token, GameTable.watch_token == token)
        )
    )
    if table is not None:
        return Link(table, _role(table, token), token)
    player = db.session.scalar(select(Player).where(Player.seat_token == token))
    if player is not None:
        return Link(player.table, SEAT, token, player)
    group = db.session.scalar(
        select(Group).where(or_(Group.owner_token == token, Group.member_token == token, Group.watch_token == token))
    )
    if group is not None:
        return Link(group, _role(group, token), token)
    tournament = db.session.scalar(
        select(Tournament).where(
            or_(Tournament.owner_token == token, Tournament.player_token == token, Tournament.watch_token == token)
        )
    )
    if tournament is not None:
        return Link(tournament, _role(tournament, token), token)
    return None


def _role(held: GameTable | Group | Tournament, token: str) -> Role:
    if token == held.owner_token:
        return OWNER
    return PLAYER if token == _player_token(held) else WATCH


def group_link(token: str) -> Link | None:
    """The group behind a link and the link's role, or None (no link, or a table's)."""
    link = resolve(token)
    return link if link is not None and isinstance(link.held, Group) else None


# -- the routes ------------------------------------------------------------------------------
def allow(access: Access) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare who may use a route that takes a link (``<token>`` or
    ``<seat_token>``): the view is called with the :class:`Link` instead of
    the token, once the link is found (else 404) and allowed (else 403 with a
    page that says what the link can do).  Every link route declares one."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def guarded(**values: Any) -> Any:
            token = next(values.pop(name) for name in LINK_ARGS if name in values)
            return view(authorize(token, access), **values)

        guarded.access = access  # type: ignore[attr-defined]
        return guarded

    return decorate


def authorize(token: str, access: Access | None = None) -> Link:
    """The link behind ``token`` if ``access`` (the route's declared access)
    lets it in; else 404 (no such link) or 403 with a page that says what the
    link can do.  A link opens only the pages of what it links to."""
    link = resolve(token)
    if link is None:
        abort(404)
    access = access or ACCESS.get(request.endpoint or "")
    if access is None or link.role not in access.levels:
        forbid(link)
    held = link.held
    if isinstance(held, Group) != (request.blueprint == "groups"):
        abort(404)
    if isinstance(held, Tournament) != (request.blueprint == "tournaments"):
        abort(404)
    if not access.allows(link):
        forbid(link)
    if access.kind is not None and isinstance(held, GameTable) and held.kind is not access.kind:
        _wrong_kind(held, link.token)
    g.link = link
    return link


def _wrong_kind(table: GameTable, token: str) -> NoReturn:
    """A physical table's link on a game's route: no such page; a digital
    table's on a route for hands entered by hand: say why."""
    if table.kind is TableKind.PHYSICAL:
        abort(404)
    page = render_template(
        "error.html",
        code=403,
        message=_("This is a digital game: its hands are scored by the app as they are played."),
        back=url_for("tables.scoreboard", token=token),
    )
    abort(make_response(page, 403))


def may(endpoint: str) -> bool:
    """Whether the link this request opened may use ``endpoint`` (for pages: a boolean, never a role to compare)."""
    link = g.get("link") if has_request_context() else None
    return link is not None and link.may(endpoint)


def init_app(app: Flask) -> None:
    """Collect every route's declared access (:data:`ACCESS`, :data:`PERMISSIONS`)."""
    for rule in app.url_map.iter_rules():
        access = getattr(app.view_functions[rule.endpoint], "access", None)
        if access is None:
            continue
        ACCESS[rule.endpoint] = access
        methods = sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})
        PERMISSIONS.setdefault(rule.endpoint, {}).update(dict.fromkeys(methods, access.levels))
    app.add_template_global(may)


def forbid(link: Link) -> NoReturn:
    """403: say in words what this link can do, and offer the way back."""
    if link.role is WATCH:
        message = _("This is a read-only link: it shows the score and the history, but cannot change anything.")
    elif link.role is SEAT:
        message = _("This link plays one seat of a digital game; it cannot change the table.")
    elif isinstance(link.held, Tournament):
        message = _("Only the organizer's link can seat rounds, sign players up or change results.")
    elif link.role is PLAYER and isinstance(link.held, Group):
        message = _(
            "This member link starts and adds matches; only the group's owner link can change the settings, "
            "record payments or start a season."
        )
    elif link.role is PLAYER:
        message = _("This link enters hands; only the table's owner link can change the settings or delete the table.")
    else:
        message = _("This link cannot do that here.")
    label = None  # "Back to the table"
    if link.role is SEAT and link.player is not None:
        back, label = url_for("play.seat", seat_token=link.player.seat_token), _("Back to the game")
    elif isinstance(link.held, Group):
        back, label = url_for("groups.page", token=link.token_for(link.role)), _("Back to the group")
    elif isinstance(link.held, Tournament):
        back, label = url_for("tournaments.page", token=link.token_for(link.role)), _("Back to the tournament")
    else:
        back = url_for("tables.scoreboard", token=link.token_for(link.role))
    page = render_template("error.html", code=403, message=message, back=back, back_label=label)
    abort(make_response(page, 403))
