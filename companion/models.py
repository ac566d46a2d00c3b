"""Database models: tables (a match at a physical or digital table), their
players, hands with each player's entry, and re-entries.

Nothing is ever deleted when a hand is undone or edited: an undone row gets
``undone_at``, an edited hand points at the row that replaced it, so the
history keeps every version.  Totals are never stored: they are replayed from
the active hands with the rules engine (``companion.rules.replay_match``).
"""

from __future__ import annotations

import functools
import json
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from sqlalchemy import JSON, Dialect, ForeignKey, Integer, String, TypeDecorator, UniqueConstraint, false, true
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from .extensions import Base, db
from .rules import Rules, get_rules

if TYPE_CHECKING:
    Model = Base  # what Flask-SQLAlchemy's ``db.Model`` is, as a type checker can see it
else:
    Model = db.Model


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


@functools.lru_cache(maxsize=1024)
def _rules_of(preset: str, options: str) -> Rules:
    """A table's rules, made once per preset and options (``Rules`` is frozen):
    a tournament's dashboard replays 64 tables of the same rules."""
    return get_rules(preset, **json.loads(options))


def rules_of(preset: str, overrides: dict[str, Any]) -> Rules:
    return _rules_of(preset, json.dumps(overrides, sort_keys=True))


# -- closed sets: stored as their values, read back as members --------------------------
class TableKind(StrEnum):
    PHYSICAL = "physical"  # cards dealt at a real table; the hands are entered after
    DIGITAL = "digital"  # the app deals and runs every hand


class PlayerKind(StrEnum):
    """A person, or a computer player of one of the levels in ``bots.BOTS``."""

    HUMAN = "human"
    SIMPLE = "simple"
    GOOD = "good"
    EXPERT = "expert"

    @property
    def computer(self) -> bool:
        return self is not PlayerKind.HUMAN


class PlayMode(StrEnum):
    HOTSEAT = "hotseat"  # one phone passed round
    DEVICES = "devices"  # a phone each, a secret link per seat


class TurnClock(StrEnum):
    """How long a person may think over a turn at a digital table on a phone
    each (``services.clock``: the seconds, and what happens when they run out)."""

    OFF = "off"
    RELAXED = "relaxed"
    QUICK = "quick"


class EntryMode(StrEnum):
    """How a hand (or a player in it) was entered."""

    CARDS = "cards"  # the engine scored the cards
    POINTS = "points"  # the table typed the points


E = TypeVar("E", bound=StrEnum)


class ResultKind(StrEnum):
    """What was said about a tournament table's result (``TableResult.kind``)."""

    CONFIRMED = "confirmed"  # by a player at the table who did not win it
    DISPUTED = "disputed"  # by a player at the table: the organizer decides
    CLOSED = "closed"  # by the organizer, with the standing of the moment
    CORRECTED = "corrected"  # by the organizer, with a reason

    @property
    def final(self) -> bool:
        """The tournament counts it, and the table takes no more writes."""
        return self is not ResultKind.DISPUTED


class Choice(TypeDecorator[E]):
    """A closed set in a ``VARCHAR``: the value is stored, the member read back."""

    impl = String
    cache_ok = True

    def __init__(self, enum: type[E], length: int = 10) -> None:
        super().__init__(length)
        self.enum = enum

    def process_bind_param(self, value: E | str | None, dialect: Dialect) -> str | None:
        return None if value is None else self.enum(value).value

    def process_result_value(self, value: str | None, dialect: Dialect) -> E | None:
        return None if value is None else self.enum(value)


class _Kinded(Protocol):
    @property
    def kind(self) -> TableKind: ...
    @property
    def play_mode(self) -> PlayMode | None: ...


class HowPlayed:
    """How a table is played, read alike from a stored table and from the plain
    row a page of many tables reads (``services.tournaments.TableRow``)."""

    __slots__ = ()

    @property
    def digital(self: _Kinded) -> bool:
        return self.kind is TableKind.DIGITAL

    @property
    def seat_links(self: _Kinded) -> bool:
        """A digital table played on a phone each: every person has a seat link."""
        return self.play_mode is PlayMode.DEVICES


class GameTable(Model, HowPlayed):
    __tablename__ = "game_tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: The link players share to enter hands (128 bits of randomness).
    player_token: Mapped[str] = mapped_column(String(40), unique=True, index=True)
    #: The creator's link: also allows deleting the table and changing rules.
    owner_token: Mapped[str] = mapped_column(String(40), unique=True, index=True)
    #: A read-only link for spectators.
    watch_token: Mapped[str] = mapped_column(String(40), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(80), default="")
    kind: Mapped[TableKind] = mapped_column(Choice(TableKind), default=TableKind.PHYSICAL)
    preset: Mapped[str] = mapped_column(String(20))
    overrides: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    suit_style: Mapped[str] = mapped_column(String(10), default="spanish")
    first_dealer: Mapped[int] = mapped_column(Integer, default=0)
    #: Raised by every write; a form carrying an older version is stale.
    version: Mapped[int] = mapped_column(Integer, default=1)
    rematch_of_id: Mapped[int | None] = mapped_column(ForeignKey("game_tables.id"), default=None)
    #: The group this match counts for (at most one); see :class:`Group`.
    group_id: Mapped[int | None] = mapped_column(ForeignKey("groups.id", ondelete="SET NULL"), default=None, index=True)
    created_at: Mapped[datetime] = mapped_column(default=now)
    updated_at: Mapped[datetime] = mapped_column(default=now)
    #: The one-time submission id of the form that created it: the same form
    #: sent again finds it and creates nothing (None: made without a form).
    submission: Mapped[str | None] = mapped_column(String(40), unique=True, index=True, default=None)

    # A table is always read whole (the match is replayed from it): load each
    # collection in one query instead of one per hand.
    players: Mapped[list[Player]] = relationship(
        back_populates="table", order_by="Player.seat", cascade="all, delete-orphan", lazy="selectin"
    )
    hands: Mapped[list[Hand]] = relationship(
        back_populates="table", order_by="Hand.id", cascade="all, delete-orphan", lazy="selectin"
    )
    reentries: Mapped[list[Reentry]] = relationship(
        back_populates="table", order_by="Reentry.id", cascade="all, delete-orphan", lazy="selectin"
    )
    #: Digital tables: "hotseat" (one phone passed round) or "devices" (a link per seat).
    play_mode: Mapped[PlayMode | None] = mapped_column(Choice(PlayMode), default=None)
    #: How the players who did not close were entered last: "cards" or "points"
    #: (the hand-entry page opens the same way next time).
    entry_mode: Mapped[EntryMode] = mapped_column(Choice(EntryMode), default=EntryMode.CARDS, server_default="cards")
    #: Digital tables: whether a player may ask for a hint (every hint asked
    #: is written in the hand's moves and in the history).
    hints_allowed: Mapped[bool] = mapped_column(default=True, server_default=true())
    #: Digital tables on a phone each: the turn clock of the next deal (a deal keeps its own).
    turn_clock: Mapped[TurnClock] = mapped_column(Choice(TurnClock), default=TurnClock.OFF, server_default="off")
    deals: Mapped[list[Deal]] = relationship(
        back_populates="table", order_by="Deal.id", cascade="all, delete-orphan", lazy="select"
    )
    #: A table of a tournament round: the round, its number in the round
    #: ("Round 2 · Table 3"), the hands a round on points plays (None: the
    #: whole match) and when the organizer closed it with its standing.
    round_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournament_rounds.id", ondelete="CASCADE"), default=None, index=True
    )
    round_table: Mapped[int | None] = mapped_column(Integer, default=None)
    hand_limit: Mapped[int | None] = mapped_column(Integer, default=None)
    #: The match as a page of many tables shows it (``services.summary.Summary``),
    #: stored by the unit of work with every write; valid while ``summary_version`` is ``version``.
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    summary_version: Mapped[int | None] = mapped_column(Integer, default=None)
    closed_at: Mapped[datetime | None] = mapped_column(default=None)
    results: Mapped[list[TableResult]] = relationship(
        back_populates="table", order_by="TableResult.id", cascade="all, delete-orphan", lazy="select"
    )
    group: Mapped[Group | None] = relationship(back_populates="tables")
    round: Mapped[TournamentRound | None] = relationship(back_populates="tables")

    @validates("kind", "play_mode", "entry_mode", "turn_clock")
    def _member(self, key: str, value: str | None) -> StrEnum | None:
        """Plain strings assigned become the set's members at once, not only once read back."""
        enum = {"kind": TableKind, "play_mode": PlayMode, "entry_mode": EntryMode, "turn_clock": TurnClock}[key]
        return None if value is None else enum(value)

    @property
    def rules(self) -> Rules:
        return rules_of(self.preset, self.overrides)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def active_hands(self) -> list[Hand]:
        return sorted((h for h in self.hands if h.active), key=lambda h: h.number)

    def active_reentries(self) -> list[Reentry]:
        return [r for r in self.reentries if r.undone_at is None]


class Player(Model):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), index=True)
    #: Play order: turns go from seat 0 to seat 1 and so on.
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    #: Digital tables: a person, or a computer player of some level.
    kind: Mapped[PlayerKind] = mapped_column(Choice(PlayerKind), default=PlayerKind.HUMAN)
    #: Digital tables played on own devices: this seat's secret link.
    seat_token: Mapped[str | None] = mapped_column(String(40), unique=True, default=None)
    #: When the seat's own link last asked for its page (``services.seats``:
    #: written at most every few seconds), None: never.
    seen_at: Mapped[datetime | None] = mapped_column(default=None)
    #: Since when the computer plays this person's seat (None: they play it),
    #: and who handed it over (a player's name, "" for the owner).
    stand_in_since: Mapped[datetime | None] = mapped_column(default=None)
    stand_in_by: Mapped[str] = mapped_column(String(40), default="", server_default="")
    #: The phone (a random cookie of its browser) that last asked with the seat's
    #: link, and when another phone asked with it while that one was here.
    seen_by: Mapped[str] = mapped_column(String(40), default="", server_default="")
    shared_at: Mapped[datetime | None] = mapped_column(default=None)

    table: Mapped[GameTable] = relationship(back_populates="players")

    @property
    def played_by_computer(self) -> bool:
        """A computer player, or a person's seat the computer plays for now."""
        return self.kind.computer or self.stand_in_since is not None

    @validates("kind")
    def _member(self, _key: str, value: str) -> PlayerKind:
        return PlayerKind(value)


class Hand(Model):
    __tablename__ = "hands"
    #: Submission ids are one-time per table: another table's ids never collide.
    __table_args__ = (UniqueConstraint("table_id", "submission", name="uq_hands_table_submission"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    mode: Mapped[EntryMode] = mapped_column(Choice(EntryMode), default=EntryMode.CARDS)
    closer_seat: Mapped[int] = mapped_column(Integer)
    dealer_seat: Mapped[int] = mapped_column(Integer, default=0)
    first_round: Mapped[bool] = mapped_column(default=False)
    discard: Mapped[str | None] = mapped_column(String(4), default=None)
    chinchon: Mapped[bool] = mapped_column(default=False)
    wins_match: Mapped[bool] = mapped_column(default=False)
    #: The form's one-time id: a replayed submission finds it and stores nothing.
    submission: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(default=now)
    undone_at: Mapped[datetime | None] = mapped_column(default=None)
    replaced_by_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"), default=None)

    table: Mapped[GameTable] = relationship(back_populates="hands")
    entries: Mapped[list[Entry]] = relationship(
        back_populates="hand", order_by="Entry.seat", cascade="all, delete-orphan", lazy="selectin"
    )

    @validates("mode")
    def _member(self, _key: str, value: str) -> EntryMode:
        return EntryMode(value)

    @property
    def active(self) -> bool:
        return self.undone_at is None and self.replaced_by_id is None

    def points_by_seat(self) -> dict[int, int]:
        return {e.seat: e.points for e in self.entries}


class Entry(Model):
    """One player's part of a hand: the cards held, what the engine found, points."""

    __tablename__ = "entries"
    __table_args__ = (UniqueConstraint("hand_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    # The cards and what the engine found are read only to show or correct a
    # hand: deferred, so replaying a match loads just the points.
    cards: Mapped[str] = mapped_column(String(64), default="", deferred=True, deferred_group="detail")
    melds: Mapped[list[list[str]]] = mapped_column(JSON, default=list, deferred=True, deferred_group="detail")
    layoffs: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list, deferred=True, deferred_group="detail")
    deadwood: Mapped[str] = mapped_column(String(64), default="", deferred=True, deferred_group="detail")
    points: Mapped[int] = mapped_column(Integer)
    #: Which of the equally good arrangements the table picked (0 = engine's).
    choice: Mapped[int] = mapped_column(Integer, default=0)

    hand: Mapped[Hand] = relationship(back_populates="entries")


class Deal(Model):
    """A hand being played at a digital table: the engine's state as JSON.

    Only the server reads ``state`` (it holds every hand and the stock); pages
    show each seat its own cards.  ``version`` rises with every action.
    """

    __tablename__ = "deals"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    #: Table seats in the order of the engine's seats (players still in).
    seats: Mapped[list[int]] = mapped_column(JSON)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=1)
    #: Hints asked, in order: ``{"seat": engine seat, "at": moves in the
    #: log when asked, "phase": "draw" | "discard"}`` (None: none yet).
    hints: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    #: The scoreboard hand this deal became once somebody closed.
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"), default=None)
    #: The review of the finished hand (``bots.review.to_json``), made the first time it is asked for.
    review: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    #: Who dealt it from their phone (a seat's player), "" for the table's phone:
    #: another phone that asked to deal too is told who was first.
    dealt_by: Mapped[str] = mapped_column(String(40), default="", server_default="")
    #: The moves the computer played for a person (their seat handed over):
    #: indexes into the game's log (None: none).
    covered: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    #: The turn clock this deal is played on (the table's when it was dealt),
    #: when the turn in play began, and each engine seat's reserve left, in
    #: seconds (``services.clock``; None: no clock).
    clock: Mapped[TurnClock] = mapped_column(Choice(TurnClock), default=TurnClock.OFF, server_default="off")
    turn_since: Mapped[datetime | None] = mapped_column(default=None)
    reserves: Mapped[list[float] | None] = mapped_column(JSON, default=None)
    #: Called off before anybody moved (a phone that never came): no record of
    #: it is shown, and the same dealer deals the hand again.
    called_off: Mapped[bool] = mapped_column(default=False, server_default=false())
    #: The secret the hand's shuffles come from (``rules.deal_proof``), in hex,
    #: and its seal, ``sha256(seed)``, shown on every phone from the deal on;
    #: the seed is shown only once the hand is over.  None: dealt before deals
    #: had seeds.
    seed: Mapped[str | None] = mapped_column(String(64), default=None)
    commitment: Mapped[str | None] = mapped_column(String(64), default=None)
    created_at: Mapped[datetime] = mapped_column(default=now)
    updated_at: Mapped[datetime] = mapped_column(default=now)

    table: Mapped[GameTable] = relationship(back_populates="deals")

    @validates("clock")
    def _member(self, _key: str, value: str) -> TurnClock:
        return TurnClock(value)


class Reentry(Model):
    """A reenganche: ``seat`` bought back in right after hand ``after_hand``
    (or, ``declined``, said no: the next hand may then be played)."""

    __tablename__ = "reentries"
    __table_args__ = (UniqueConstraint("table_id", "submission", name="uq_reentries_table_submission"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), index=True)
    after_hand: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    submission: Mapped[str] = mapped_column(String(40))
    declined: Mapped[bool] = mapped_column(default=False, server_default=false())
    #: Who answered from their phone (a seat's player), "" for the table's phone.
    decided_by: Mapped[str] = mapped_column(String(40), default="", server_default="")
    #: A "no" given for a person whose phone was away past the grace period (``services.seats``).
    away: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(default=now)
    undone_at: Mapped[datetime | None] = mapped_column(default=None)

    table: Mapped[GameTable] = relationship(back_populates="reentries")


# -- groups: the same friends, every week ------------------------------------------
class Group(Model):
    """Friends who play together week after week: members, seasons, a money
    ledger.  Nothing about a match is copied here: standings and balances are
    replayed from the group's tables (``GameTable.group_id``), so deleting or
    correcting a table changes the group's figures at once."""

    __tablename__ = "groups"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: The same three link levels as a table's (128 bits of randomness each).
    owner_token: Mapped[str] = mapped_column(String(40), unique=True, index=True)
    member_token: Mapped[str] = mapped_column(String(40), unique=True, index=True)
    watch_token: Mapped[str] = mapped_column(String(40), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(80))
    #: The group's usual rules, offered when a table is started in the group.
    preset: Mapped[str] = mapped_column(String(20), default="classic")
    overrides: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    currency: Mapped[str] = mapped_column(String(3), default="EUR")
    created_at: Mapped[datetime] = mapped_column(default=now)
    updated_at: Mapped[datetime] = mapped_column(default=now)
    #: The one-time submission id of the form that created it: the same form
    #: sent again finds it and creates nothing (None: made without a form).
    submission: Mapped[str | None] = mapped_column(String(40), unique=True, index=True, default=None)

    members: Mapped[list[GroupMember]] = relationship(
        back_populates="group", order_by="GroupMember.position", cascade="all, delete-orphan", lazy="selectin"
    )
    seasons: Mapped[list[Season]] = relationship(
        back_populates="group", order_by="Season.number", cascade="all, delete-orphan", lazy="selectin"
    )
    payments: Mapped[list[Payment]] = relationship(
        back_populates="group", order_by="Payment.id", cascade="all, delete-orphan", lazy="select"
    )
    tables: Mapped[list[GameTable]] = relationship(
        GameTable,
        back_populates="group",
        order_by=(GameTable.created_at, GameTable.id),
        lazy="select",
        passive_deletes=True,
    )

    @property
    def rules(self) -> Rules:
        return rules_of(self.preset, self.overrides)

    @property
    def names(self) -> list[str]:
        return [m.name for m in self.members]

    @property
    def current_season(self) -> Season:
        return self.seasons[-1]


class GroupMember(Model):
    __tablename__ = "group_members"
    __table_args__ = (UniqueConstraint("group_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    #: As shown (``names.normalize_name``) and as compared (``names.name_key``).
    name: Mapped[str] = mapped_column(String(40))
    key: Mapped[str] = mapped_column(String(80))
    #: The member's earlier names (a rename keeps the row, the old name comes
    #: here): tables and payments under any of them count for this member.
    aliases: Mapped[list[str]] = mapped_column(JSON, default=list, server_default="[]")

    group: Mapped[Group] = relationship(back_populates="members")


class Season(Model):
    """A season runs from ``started_at`` until the next one starts; a match
    belongs to the season in which its table was created."""

    __tablename__ = "seasons"
    __table_args__ = (UniqueConstraint("group_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(default=now)

    group: Mapped[Group] = relationship(back_populates="seasons")


class Payment(Model):
    """Money handed over outside the app ("Ben paid Ana 2.50"), in cents of the
    group's currency: exact, never a float."""

    __tablename__ = "payments"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    payer: Mapped[str] = mapped_column(String(40))
    payee: Mapped[str] = mapped_column(String(40))
    cents: Mapped[int] = mapped_column(Integer)
    #: The form's one-time id: a replayed submission records nothing twice.
    submission: Mapped[str] = mapped_column(String(40), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=now)
    #: The link level that recorded it ("owner" or "player", the member link).
    recorded_by: Mapped[str] = mapped_column(String(10), default="owner", server_default="owner")
    #: Set when the payment was undone: it stays in the history, out of the ledger.
    undone_at: Mapped[datetime | None] = mapped_column(default=None)

    group: Mapped[Group] = relationship(back_populates="payments")

    @property
    def active(self) -> bool:
        return self.undone_at is None


# -- tournaments: many tables, one organizer ---------------------------------------
class Tournament(Model):
    """A club tournament: players seated at tables round after round
    (``companion.rules.tournament``).  Its tables are ordinary tables
    (``GameTable.round_id``); standings are replayed from them and from the
    results confirmed, closed or corrected at them, never stored."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: The organizer's link, the players' and a read-only one (128 bits each).
    owner_token: Mapped[str] = mapped_column(String(40), unique=True, index=True)
    player_token: Mapped[str] = mapped_column(String(40), unique=True, index=True)
    watch_token: Mapped[str] = mapped_column(String(40), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(80))
    preset: Mapped[str] = mapped_column(String(20))
    overrides: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: "knockout" or "points" (``rules.tournament.Format``).
    format: Mapped[str] = mapped_column(String(10))
    #: Knockout: how many of each table go on (1 or 2).
    advance: Mapped[int] = mapped_column(Integer, default=1)
    #: Rounds on points: how many rounds, the hands each (0: the whole
    #: match), minutes each (0: no limit), the points scale, the next seating.
    rounds: Mapped[int] = mapped_column(Integer, default=3)
    round_hands: Mapped[int] = mapped_column(Integer, default=0)
    round_minutes: Mapped[int] = mapped_column(Integer, default=0)
    scale: Mapped[list[int]] = mapped_column(JSON, default=list)
    reseat: Mapped[str] = mapped_column(String(10), default="standing")
    #: The entry fee in cents of ``currency`` (0: none) and the pot's split
    #: in percent by place (``[60, 30, 10]``).
    currency: Mapped[str] = mapped_column(String(3), default="EUR")
    entry_cents: Mapped[int] = mapped_column(Integer, default=0)
    prizes: Mapped[list[int]] = mapped_column(JSON, default=list)
    #: Where the tables play (``rules.tournament.Play``), and the computer
    #: player who fills a digital table's empty seats ("": none may).
    play: Mapped[str] = mapped_column(String(10), default="cards", server_default="cards")
    bots: Mapped[str] = mapped_column(String(10), default="", server_default="")
    #: Duplicate deals: at the app's tables of a round, hand n is dealt alike
    #: at every table of the same size (``services.tournaments.duplicate_seed``).
    duplicate: Mapped[bool] = mapped_column(default=False, server_default=false())
    #: The draw's seed: round n is drawn from ``seed + n``, so it can be shown and repeated.
    seed: Mapped[int] = mapped_column(Integer)
    group_id: Mapped[int | None] = mapped_column(ForeignKey("groups.id", ondelete="SET NULL"), default=None)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(default=now)
    updated_at: Mapped[datetime] = mapped_column(default=now)
    #: The one-time submission id of the form that created it: the same form
    #: sent again finds it and creates nothing (None: made without a form).
    submission: Mapped[str | None] = mapped_column(String(40), unique=True, index=True, default=None)

    #: Loaded when first asked for: a poll that finds nothing changed, and a
    #: table's own page ("Round 2 · Table 3"), never need the sign-up list.
    players: Mapped[list[TournamentPlayer]] = relationship(
        back_populates="tournament",
        order_by="TournamentPlayer.position",
        cascade="all, delete-orphan",
        lazy="select",
    )
    #: Loaded when first asked for (with every table, in a few queries): a
    #: poll that finds nothing changed (``services.tournaments.fingerprint``) never loads them.
    all_rounds: Mapped[list[TournamentRound]] = relationship(
        back_populates="tournament", order_by="TournamentRound.id", cascade="all, delete-orphan", lazy="select"
    )

    @property
    def rules(self) -> Rules:
        return rules_of(self.preset, self.overrides)

    @property
    def played_rounds(self) -> list[TournamentRound]:
        """The rounds started and not undone, in order."""
        return [r for r in self.all_rounds if r.undone_at is None]


class TournamentPlayer(Model):
    __tablename__ = "tournament_players"
    __table_args__ = (UniqueConstraint("tournament_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    #: As shown (``names.normalize_name``) and as compared (``names.name_key``).
    name: Mapped[str] = mapped_column(String(40))
    key: Mapped[str] = mapped_column(String(80))
    #: The rounds played before the player withdrew (None: still playing).
    withdrawn_after: Mapped[int | None] = mapped_column(Integer, default=None)

    tournament: Mapped[Tournament] = relationship(back_populates="players")


class TournamentRound(Model):
    """A round started: its tables are ``GameTable`` rows.  Undoing the start
    (before any hand) deletes the empty tables and keeps this row, undone."""

    __tablename__ = "tournament_rounds"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    #: The seed of this round's draw (random seatings only).
    seed: Mapped[int] = mapped_column(Integer)
    #: A duplicate round's secret (hex), which every deal's seed of the round
    #: is made from; never shown (each deal's own seed is, once its hand is
    #: over everywhere).  None: not a duplicate round.
    deal_secret: Mapped[str | None] = mapped_column(String(64), default=None)
    started_at: Mapped[datetime] = mapped_column(default=now)
    undone_at: Mapped[datetime | None] = mapped_column(default=None)

    tournament: Mapped[Tournament] = relationship(back_populates="all_rounds")
    tables: Mapped[list[GameTable]] = relationship(
        GameTable, back_populates="round", order_by=GameTable.round_table, lazy="selectin", passive_deletes=True
    )


class TableResult(Model):
    """What was said about a tournament table's result, in order: confirmed
    by a player at the table, disputed, closed by the organizer with the
    standing of the moment, or corrected by the organizer (with the reason).
    ``places`` is ``[[seat, place], ...]`` best first.  Rows are never
    deleted; the latest one speaks for the table."""

    __tablename__ = "table_results"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), index=True)
    kind: Mapped[ResultKind] = mapped_column(Choice(ResultKind))
    places: Mapped[list[list[int]]] = mapped_column(JSON, default=list)
    #: Who confirmed or disputed (a player's name), or "" for the organizer.
    by: Mapped[str] = mapped_column(String(40), default="")
    reason: Mapped[str] = mapped_column(String(200), default="")
    #: The table's version when this was said: any later write at the table
    #: (a hand, an undo, a correction) outdates a confirmation or a dispute.
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=now)

    table: Mapped[GameTable] = relationship(back_populates="results")

    @validates("kind")
    def _member(self, _key: str, value: str) -> ResultKind:
        return ResultKind(value)
