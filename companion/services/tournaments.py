"""A club tournament's record: players signed up, rounds seated, tables
played, results confirmed, disputed, closed or corrected, and the standings
replayed from all of it (``companion.rules.tournament`` holds the formats).

Each table of a round is an ordinary table (hands, undo, corrections,
re-entries); what the tournament counts from it is the latest
:class:`~companion.models.TableResult` when the organizer closed or
corrected it, else its live ranking, which stands once a player at the
table confirmed it (and no hand changed since).

Every write runs inside :func:`~companion.services.unit.transaction`, claims
the tournament's (or the table's) version and refuses with a
:class:`~companion.services.unit.ServiceError` before it changes anything.

>>> prize_cents(10_000, [1, 2, 2, 4], [60, 30, 10])
[6000, 2000, 2000, 0]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from functools import cached_property
from itertools import groupby
from operator import itemgetter
from typing import Any

from sqlalchemy import func, select

from ..bots import BOTS
from ..extensions import db
from ..models import (
    Deal,
    GameTable,
    Group,
    Hand,
    HowPlayed,
    Player,
    PlayerKind,
    PlayMode,
    ResultKind,
    TableKind,
    TableResult,
    Tournament,
    TournamentPlayer,
    TournamentRound,
    now,
)
from ..rules import get_rules
from ..rules.match import NAME_LENGTH
from ..rules.names import name_key, normalize_name, repeated_name
from ..rules.tournament import (
    DEFAULT_SCALE,
    FILLED_SEATS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Format,
    Play,
    Reseat,
    TournamentError,
    advancing,
    by_standing,
    draw,
    knockout_rank,
    shared_points,
    verify_scale,
)
from .groups import CURRENCIES
from .ledger import split_pot, to_cents
from .nextstep import played_out
from .play import DEFAULT_PACE, Pace, create_digital_table, new_round_secret
from .standing import Standing
from .summary import Summary, summary_of
from .tables import create_table
from .unit import ServiceError, add_created, check_new_creation, claim, new_token, one_time

MAX_ROUNDS = 12
MAX_ROUND_HANDS = 40
MAX_ROUND_MINUTES = 600
MAX_ENTRY = Decimal(10_000)
REASON_LENGTH = 200


class TableState(StrEnum):
    """Where a table of the round in play stands, as the organizer sees it."""

    PLAYING = "playing"
    WAITING = "waiting"  # played out, waiting for a player there to confirm the result
    DISPUTED = "disputed"
    FINISHED = "finished"  # the tournament counts its result


PLAYING, WAITING, DISPUTED, FINISHED = TableState
#: What a result row says (``TableResult.kind``).
CONFIRMED, DISPUTE, CLOSED, CORRECTED = ResultKind


# -- settings and players -----------------------------------------------------------------
def verify_players(names: Sequence[str]) -> list[str]:
    """The players normalised like a table's (blank lines dropped), or
    ``players_few`` / ``players_many`` / ``name_long`` / ``name_twice``."""
    shown = [n for n in (normalize_name(raw) for raw in names) if n]
    if len(shown) < MIN_PLAYERS:
        raise ServiceError("players_few", "players", count=MIN_PLAYERS)
    if len(shown) > MAX_PLAYERS:
        raise ServiceError("players_many", "players", count=MAX_PLAYERS)
    if any(len(n) > NAME_LENGTH for n in shown):
        raise ServiceError("name_long", "players", high=NAME_LENGTH)
    twice = repeated_name(shown)
    if twice is not None:
        raise ServiceError("name_twice", "players", name=twice)
    return shown


@dataclass(frozen=True, slots=True)
class Settings:
    """How a tournament is played, as plain values (the form's or the API's)."""

    format: str = Format.KNOCKOUT
    #: Knockout: how many of each table go on.
    advance: int = 1
    #: Rounds on points.
    rounds: int = 3
    round_hands: int = 0
    round_minutes: int = 0
    scale: tuple[int, ...] = DEFAULT_SCALE
    reseat: str = Reseat.STANDING
    currency: str = "EUR"
    entry: Decimal = Decimal(0)
    prizes: tuple[int, ...] = (100,)
    #: Where the tables play, and the computer player (a level of
    #: ``bots.BOTS``) who fills a digital table up to four seats ("": nobody).
    play: str = Play.CARDS
    bots: str = ""
    #: Duplicate deals at the app's tables (``duplicate_seed``; not with cards).
    duplicate: bool = False

    def verify(self) -> None:
        if self.format not in tuple(Format):
            raise ServiceError("format", "format")
        if self.play not in tuple(Play):
            raise ServiceError("play", "play")
        if self.bots and (self.bots not in BOTS or self.play == Play.CARDS):
            raise ServiceError("bots_cards" if self.bots in BOTS else "unknown_player", "bots")
        if self.duplicate and self.play == Play.CARDS:
            raise ServiceError("duplicate_cards", "duplicate")
        if self.advance not in (1, 2):
            raise ServiceError("advance", "advance")
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise ServiceError("rounds", "rounds", low=1, high=MAX_ROUNDS)
        if not 0 <= self.round_hands <= MAX_ROUND_HANDS:
            raise ServiceError("round_hands", "round_hands", low=0, high=MAX_ROUND_HANDS)
        if not 0 <= self.round_minutes <= MAX_ROUND_MINUTES:
            raise ServiceError("round_minutes", "round_minutes", low=0, high=MAX_ROUND_MINUTES)
        try:
            verify_scale(self.scale)
        except TournamentError:
            raise ServiceError("scale", "scale") from None
        if self.reseat not in tuple(Reseat):
            raise ServiceError("reseat", "reseat")
        if self.currency not in CURRENCIES:
            raise ServiceError("currency", "currency")
        if not 0 <= self.entry <= MAX_ENTRY or self.entry != self.entry.quantize(Decimal("0.01")):
            raise ServiceError("entry", "entry", high=MAX_ENTRY)
        if not self.prizes or len(self.prizes) > 5 or any(p < 0 for p in self.prizes) or sum(self.prizes) != 100:
            raise ServiceError("prizes", "prizes")
        if any(a < b for a, b in zip(self.prizes, self.prizes[1:], strict=False)):
            raise ServiceError("prizes", "prizes")


def create_tournament(
    *,
    name: str,
    players: Sequence[str],
    preset: str,
    overrides: dict,
    settings: Settings,
    group: Group | None = None,
    seed: int | None = None,
    submission: str | None = None,
) -> Tournament:
    """A new tournament, no round started yet (players may still sign up or withdraw).

    ``submission``: the creation form's one-time id, stored with the
    tournament.  The same form sent again (Back, then Create) stores nothing:
    it raises :class:`AlreadySaved` carrying the organizer's link of the
    tournament it made."""
    check_new_creation(Tournament, submission)
    names = verify_players(players)
    if not normalize_name(name):
        raise ServiceError("tournament_name", "name")
    get_rules(preset, **overrides)  # a ChinchonError names the rule's field
    settings.verify()
    tournament = Tournament(
        owner_token=new_token(),
        player_token=new_token(),
        watch_token=new_token(),
        name=normalize_name(name)[:80],
        preset=preset,
        overrides=dict(overrides),
        format=str(settings.format),
        advance=settings.advance,
        rounds=settings.rounds,
        round_hands=settings.round_hands,
        round_minutes=settings.round_minutes,
        scale=list(settings.scale),
        reseat=str(settings.reseat),
        currency=settings.currency,
        entry_cents=to_cents(settings.entry),
        prizes=list(settings.prizes),
        play=str(settings.play),
        bots=settings.bots,
        duplicate=settings.duplicate,
        seed=seed if seed is not None else random.SystemRandom().randrange(1, 1_000_000),
        group_id=group.id if group is not None else None,
        submission=one_time(submission),
    )
    tournament.players = [TournamentPlayer(position=i, name=n, key=name_key(n)) for i, n in enumerate(names)]
    add_created(tournament)
    db.session.flush()
    return tournament


def _between_rounds(tournament: Tournament, field: str) -> Overview:
    """Sign-ups, withdrawals and a round's start wait until the round in play is finished."""
    view = overview(tournament)
    if view.in_play:
        raise ServiceError("round_in_play", field, round=view.number)
    if view.over:
        raise ServiceError("tournament_over", field)
    return view


def sign_up(tournament: Tournament, version: int | None, name: str) -> TournamentPlayer:
    """A late sign-up: before the first round, or between rounds on points
    (a knockout's later rounds are for those who went on)."""
    _between_rounds(tournament, "name")
    if tournament.format == Format.KNOCKOUT and tournament.played_rounds:
        raise ServiceError("signup_closed", "name")
    shown = normalize_name(name)
    if not shown:
        raise ServiceError("name_missing", "name")
    if len(shown) > NAME_LENGTH:
        raise ServiceError("name_long", "name", high=NAME_LENGTH)
    if len(tournament.players) >= MAX_PLAYERS:
        raise ServiceError("players_many", "name", count=MAX_PLAYERS)
    known = next((p for p in tournament.players if p.key == name_key(shown)), None)
    claim(tournament, version)
    if known is not None:
        if known.withdrawn_after is None:
            raise ServiceError("name_twice", "name", name=known.name)
        known.withdrawn_after = None  # back after withdrawing: the same player, the same record
        return known
    player = TournamentPlayer(position=len(tournament.players), name=shown, key=name_key(shown))
    tournament.players.append(player)
    return player


def withdraw(tournament: Tournament, version: int | None, player_id: int | None) -> TournamentPlayer:
    """A player leaves between rounds: not seated again, their record kept."""
    _between_rounds(tournament, "player")
    player = next((p for p in tournament.players if p.id == player_id and p.withdrawn_after is None), None)
    if player is None:
        raise ServiceError("unknown_player", "player")
    claim(tournament, version)
    player.withdrawn_after = len(tournament.played_rounds)
    return player


# -- the tables of a round ------------------------------------------------------------------
# The pages of many tables (the dashboard, the wall, the standings) read
# plain rows, not the tables' objects: one query for every table of every
# round played (:func:`_board`), each table's match from its stored summary.


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of a table, as the tournament's pages read it."""

    seat: int
    name: str
    kind: PlayerKind
    seat_token: str | None
    #: Since when the computer plays for a person who left (None: nobody left).
    stand_in_since: datetime | None


@dataclass(frozen=True, slots=True)
class ResultRow:
    """What was last said of a table's result (:class:`~companion.models.TableResult`)."""

    kind: ResultKind
    #: ``(seat, place)`` best first.
    places: tuple[tuple[int, int], ...]
    by: str
    reason: str
    #: The table's version when it was said.
    version: int

    @classmethod
    def of(cls, result: TableResult) -> ResultRow:
        places = tuple((seat, place) for seat, place in result.places)
        return cls(result.kind, places, result.by, result.reason, result.version)


@dataclass(frozen=True, slots=True)
class TableRow(HowPlayed):
    """A tournament table as the pages of many tables read it: plain values."""

    id: int
    round_table: int | None
    kind: TableKind
    play_mode: PlayMode | None
    version: int
    hand_limit: int | None
    created_at: datetime
    player_token: str
    watch_token: str
    players: tuple[SeatRow, ...]
    names: tuple[str, ...]

    @classmethod
    def of(cls, table: GameTable) -> TableRow:
        seats = tuple(SeatRow(p.seat, p.name, p.kind, p.seat_token, p.stand_in_since) for p in table.players)
        return cls(
            table.id,
            table.round_table,
            table.kind,
            table.play_mode,
            table.version,
            table.hand_limit,
            table.created_at,
            table.player_token,
            table.watch_token,
            seats,
            tuple(s.name for s in seats),
        )


@dataclass(frozen=True, slots=True)
class RoundRow:
    """A round started and not undone."""

    id: int
    number: int
    started_at: datetime
    #: The seed of the round's draw (the seating page shows it, so the draw can be repeated).
    seed: int


@dataclass(frozen=True, slots=True)
class TableStatus:
    """One table of a round as the organizer sees it."""

    table: TableRow
    #: The table's match (its summary: hands, totals, ranking).
    summary: Summary
    status: TableState
    #: ``(seat, place)`` best first: what the tournament counts (the result, or the live ranking).
    places: list[tuple[int, int]]
    #: The result row that speaks for the table (None: nothing said yet).
    result: ResultRow | None

    @property
    def number(self) -> int:
        return self.table.round_table or 0

    @property
    def hands(self) -> int:
        return self.summary.hands

    def total(self, seat: int) -> int:
        return self.summary.total(seat)

    @property
    def leader(self) -> str:
        return self.table.names[self.places[0][0]]

    @property
    def place_names(self) -> list[str]:
        return [self.table.names[seat] for seat, _place in self.places]

    @property
    def winners(self) -> list[str]:
        return [self.table.names[seat] for seat, place in self.places if place == 1]

    @property
    def last_hand_at(self) -> datetime | None:
        return self.summary.last_hand_at

    @property
    def final(self) -> bool:
        return self.status == FINISHED


def entrants(table: GameTable | TableRow) -> list[int]:
    """The seats of the tournament's players (not the computer players filling a digital table)."""
    return [p.seat for p in table.players if p.kind is PlayerKind.HUMAN]


def live_places(table: GameTable | TableRow, summary: Summary) -> list[tuple[int, int]]:
    """The table's ranking of the moment among the tournament's players:
    a computer player ahead of them takes no place from them."""
    people = set(entrants(table))
    ranked = [(seat, place) for seat, place in summary.ranking if seat in people]
    places: list[tuple[int, int]] = []
    for index, (seat, place) in enumerate(ranked):
        same = index and ranked[index - 1][1] == place
        places.append((seat, places[-1][1] if same else index + 1))
    return places


def table_status(table: GameTable, current: Standing | None = None) -> TableStatus:
    """One table's status (its own pages, and the writes about its result).
    ``current``: the table's standing when the caller has it, else its stored summary."""
    summary = Summary.of(current) if current is not None else summary_of(table)
    latest = ResultRow.of(table.results[-1]) if table.results else None
    return _status(TableRow.of(table), summary, latest)


def _status(table: TableRow, summary: Summary, latest: ResultRow | None) -> TableStatus:
    """A digital table's result goes to the tournament by itself once it is
    played out (the app dealt and judged every card); a physical table's
    waits for a player there to confirm it."""
    live = live_places(table, summary)
    if latest is not None and latest.kind in (CLOSED, CORRECTED):
        return TableStatus(table, summary, FINISHED, list(latest.places), latest)
    out = played_out(table, summary)
    if table.digital:
        return TableStatus(table, summary, FINISHED if out else PLAYING, live, None)
    if latest is not None and latest.version == table.version:  # said of the table as it stands
        if out and latest.kind is CONFIRMED:
            return TableStatus(table, summary, FINISHED, live, latest)
        if latest.kind is DISPUTE:
            return TableStatus(table, summary, DISPUTED, live, latest)
    return TableStatus(table, summary, WAITING if out else PLAYING, live, None)


def in_round(table: GameTable, current: Standing) -> dict:
    """What a tournament table's own pages show of its round ("Round 2 ·
    Table 3", its status, the time left): ``in_round`` and ``round_left``,
    both None at a table outside a tournament."""
    round_ = table.round
    if round_ is None:
        return {"in_round": None, "round_left": None}
    return {"in_round": table_status(table, current), "round_left": time_left(round_.tournament, round_)}


def time_left(
    tournament: Tournament, round_: TournamentRound | RoundRow, at: datetime | None = None
) -> timedelta | None:
    """A round on points with a time limit: what is left of it (negative: past), else None."""
    if not tournament.round_minutes:
        return None
    return round_.started_at + timedelta(minutes=tournament.round_minutes) - (at or now())


@dataclass
class Overview:
    """A tournament read once: every table of every round played, with its
    status; the standings, who goes on and the next seating follow from it."""

    tournament: Tournament
    rounds: list[tuple[RoundRow, list[TableStatus]]]
    #: The players signed up, in order: ``(name, withdrawn_after)``.
    players: list[tuple[str, int | None]]

    @property
    def number(self) -> int:
        """The number of the round in play (or the last one played; 0: none yet)."""
        return len(self.rounds)

    @property
    def current(self) -> list[TableStatus]:
        return self.rounds[-1][1] if self.rounds else []

    @property
    def in_play(self) -> bool:
        return bool(self.rounds) and not all(s.final for s in self.current)

    @property
    def over(self) -> bool:
        if not self.rounds or self.in_play:
            return False
        if self.tournament.format == Format.POINTS:
            return self.number >= self.tournament.rounds
        return len(self.current) == 1

    @cached_property
    def undoable(self) -> bool:
        """The last round's start may be taken back: nothing played at its tables yet."""
        return bool(self.rounds) and not played_at([s.table for s in self.current])

    @cached_property
    def standings(self) -> list[Line]:
        return _standings(self)

    @cached_property
    def going_on(self) -> list[str]:
        """Who is seated next: every player still in before the first round
        and in a round on points; in a knockout, who went on from each table."""
        tournament = self.tournament
        active = [name for name, withdrawn_after in self.players if withdrawn_after is None]
        if tournament.format == Format.POINTS or not self.rounds:
            return active
        names = []
        for status in self.current:
            places = [place for _seat, place in status.places]
            names += [status.table.names[status.places[i][0]] for i in advancing(places, tournament.advance)]
        return [n for n in names if n in set(active)]

    def next_seating(self) -> list[list[str]]:
        """The seating of the next round, the same every time it is asked
        for (the draw's seed is the tournament's plus the round's number):
        the dashboard shows it before the organizer starts the round."""
        tournament = self.tournament
        number = self.number + 1
        names = self.going_on
        first = number == 1
        if len(names) < (MIN_PLAYERS if first else 2):
            raise ServiceError("players_few", "round", count=MIN_PLAYERS if first else 2)
        if not first and tournament.format == Format.POINTS and tournament.reseat == Reseat.STANDING:
            seated = set(names)
            return by_standing([line.name for line in self.standings if line.name in seated])
        previous = [s.place_names for s in self.current]
        return draw(names, tournament.seed + number, previous=previous)

    @cached_property
    def pot_cents(self) -> int:
        """Every player who sat at a table paid the entry fee once."""
        seated = {name for _round, tables in self.rounds for s in tables for name in s.place_names}
        return self.tournament.entry_cents * len(seated)

    @cached_property
    def prizes(self) -> dict[str, int]:
        """What each player takes home once the tournament is over (nothing before)."""
        if not self.tournament.entry_cents or not self.over:
            return {}
        lines = self.standings
        cents = prize_cents(self.pot_cents, [line.place for line in lines], self.tournament.prizes)
        return {line.name: c for line, c in zip(lines, cents, strict=True) if c}


def fingerprint(tournament: Tournament, at: datetime | None = None) -> str:
    """What a page of the tournament shows changes with it: the tournament's
    version, every table's, and the minute (times shown: "last hand 3
    minutes ago", the time left).  One query; no table is loaded."""
    count, versions = db.session.execute(
        select(func.count(GameTable.id), func.coalesce(func.sum(GameTable.version), 0))
        .join(TournamentRound, GameTable.round_id == TournamentRound.id)
        .where(TournamentRound.tournament_id == tournament.id, TournamentRound.undone_at.is_(None))
    ).one()
    minute = int((at or now()).timestamp() // 60)
    return f"{tournament.version}.{count}.{versions}.{minute}"


def overview(tournament: Tournament) -> Overview:
    """The tournament as its pages show it, read as plain rows: one query for
    its players, one for every table of every round played (:func:`_board`)."""
    players = db.session.execute(
        select(TournamentPlayer.name, TournamentPlayer.withdrawn_after)
        .where(TournamentPlayer.tournament_id == tournament.id)
        .order_by(TournamentPlayer.position)
    ).all()
    return Overview(tournament, _board(tournament), [(name, after) for name, after in players])


def _board(tournament: Tournament) -> list[tuple[RoundRow, list[TableStatus]]]:
    """Every table of every round played, with its players, its latest
    result and its stored summary, in one query (a row per seat); a table
    whose summary is not its version's (written in this very transaction)
    is replayed."""
    latest = (
        select(func.max(TableResult.id))
        .where(TableResult.table_id == GameTable.id)
        .correlate(GameTable)
        .scalar_subquery()
    )
    query = (
        select(
            TournamentRound.id,
            TournamentRound.number,
            TournamentRound.started_at,
            GameTable.id,
            GameTable.round_table,
            GameTable.kind,
            GameTable.play_mode,
            GameTable.version,
            GameTable.hand_limit,
            GameTable.created_at,
            GameTable.player_token,
            GameTable.watch_token,
            GameTable.summary,
            GameTable.summary_version,
            Player.seat,
            Player.name,
            Player.kind,
            Player.seat_token,
            Player.stand_in_since,
            TableResult.kind,
            TableResult.places,
            TableResult.by,
            TableResult.reason,
            TableResult.version,
            TournamentRound.seed,
        )
        .join(GameTable, GameTable.round_id == TournamentRound.id)
        .join(Player, Player.table_id == GameTable.id)
        .outerjoin(TableResult, TableResult.id == latest)
        .where(TournamentRound.tournament_id == tournament.id, TournamentRound.undone_at.is_(None))
        .order_by(TournamentRound.id, GameTable.round_table, GameTable.id, Player.seat)
    )
    rounds: dict[int, tuple[RoundRow, list[TableStatus]]] = {}
    for _table_id, rows in groupby(db.session.execute(query), key=itemgetter(3)):
        seated = list(rows)
        (round_id, number, started_at, table_id, round_table, kind, mode, version, limit, created_at, player, watch,
         summary_json, summary_version, *_seat, result_kind, places, by, reason, said_at, seed) = seated[0]  # fmt: skip
        seats = tuple(SeatRow(row[14], row[15], row[16], row[17], row[18]) for row in seated)
        table = TableRow(
            table_id,
            round_table,
            kind,
            mode,
            version,
            limit,
            created_at,
            player,
            watch,
            seats,
            tuple(s.name for s in seats),
        )
        if summary_json is not None and summary_version == version:
            summary = Summary.from_json(summary_json)
        else:
            summary = summary_of(db.session.get_one(GameTable, table_id))
        result = None
        if result_kind is not None:
            result = ResultRow(result_kind, tuple((seat, place) for seat, place in places), by, reason, said_at)
        rounds.setdefault(round_id, (RoundRow(round_id, number, started_at, seed), []))[1].append(
            _status(table, summary, result)
        )
    return list(rounds.values())


def start_round(tournament: Tournament, version: int | None, pace: Pace = DEFAULT_PACE) -> TournamentRound:
    """Seat the next round: one ordinary table per table of the seating,
    playing the tournament's rules (a round on points stops after its
    hands).  A digital table is dealt at once, without hints, computer
    players filling it up to four seats when the organizer lets them."""
    view = _between_rounds(tournament, "round")
    seating = view.next_seating()
    claim(tournament, version)
    number = view.number + 1
    round_ = TournamentRound(number=number, seed=tournament.seed + number)
    if tournament.duplicate and tournament.play != Play.CARDS:
        round_.deal_secret = new_round_secret(pace, tournament.id, number)
    tournament.all_rounds.append(round_)
    db.session.flush()
    for index, names in enumerate(seating, start=1):
        common: dict[str, Any] = dict(
            name=tournament.name,
            preset=tournament.preset,
            overrides=tournament.overrides,
            first_dealer=0,
            suit_style="spanish",
        )
        if tournament.play == Play.CARDS:
            table = create_table(**common, players=names)
        else:
            seats = [(name, PlayerKind.HUMAN.value) for name in names]
            if tournament.bots:
                seats += [(name, tournament.bots) for name in bot_names(names, FILLED_SEATS - len(names))]
            table = create_digital_table(
                **common, players=seats, mode=tournament.play, hints=False, pace=pace, round_=round_, round_table=index
            )
        table.round_id = round_.id
        table.round_table = index
        table.group_id = tournament.group_id
        if tournament.format == Format.POINTS and tournament.round_hands:
            table.hand_limit = tournament.round_hands
        round_.tables.append(table)
    db.session.flush()
    return round_


def played_at(tables: Sequence[GameTable | TableRow]) -> bool:
    """Something was played at one of these tables: a write to it (a hand,
    even one undone since, a re-entry, a result: its version moved on), or a
    move in a deal of the app (one query for all of them)."""
    if any(t.version > 1 for t in tables):
        return True
    dealt = [t.id for t in tables if t.kind is TableKind.DIGITAL]
    moved = select(func.count(Deal.id)).where(Deal.table_id.in_(dealt), Deal.version > 1)
    return bool(dealt) and bool(db.session.scalar(moved))


def bot_names(taken: Sequence[str], count: int) -> list[str]:
    """Names for ``count`` computer players that no player at the table has."""
    keys = {name_key(n) for n in taken}
    names = (f"Bot {i}" for i in range(1, len(taken) + count + 2))
    return [n for n in names if name_key(n) not in keys][: max(count, 0)]


def undo_round(tournament: Tournament, version: int | None) -> TournamentRound:
    """Take back the last round's start while none of its tables has a hand
    or a result: its empty tables go, the round stays in the record, undone."""
    rounds = tournament.played_rounds
    if not rounds:
        raise ServiceError("no_round", "round")
    last = rounds[-1]
    if played_at(last.tables):
        raise ServiceError("round_played", "round", round=last.number)
    claim(tournament, version)
    for table in list(last.tables):
        db.session.delete(table)
    last.undone_at = now()
    db.session.flush()
    db.session.expire(last, ["tables"])
    return last


# -- results ---------------------------------------------------------------------------------------
def _at_table(table: GameTable, seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(table.players):
        raise ServiceError("unknown_player", "seat")
    return table.names[seat]


def confirm_result(table: GameTable, version: int | None, seat: int | None) -> TableResult:
    """A player at the table who did not win it confirms its result once
    nothing is left to play (as at a bridge table, the opponents check the
    score).  Then the result is final: the table takes no more writes
    (``nextstep.verify_open``).  A disputed result waits for the organizer,
    or for the table to change a hand."""
    if table.round_id is None:
        raise ServiceError("not_in_tournament", "seat")
    if table.kind is TableKind.DIGITAL:
        raise ServiceError("result_digital", "seat")
    status = table_status(table)
    if status.final:
        raise ServiceError("result_final", "seat")
    if status.status is DISPUTED and status.result is not None:
        raise ServiceError("result_disputed", "seat", name=status.result.by)
    if not played_out(table, status.summary):
        raise ServiceError("table_playing", "seat")
    by = _at_table(table, seat)
    if by in status.winners and len(status.winners) < len(table.players):
        raise ServiceError("confirm_by_winner", "seat", name=by)
    return _say(table, version, CONFIRMED, status.places, by, "")


def dispute_result(table: GameTable, version: int | None, seat: int | None, reason: str) -> TableResult:
    """A player at the table says the result is wrong: the organizer decides."""
    if table.round_id is None:
        raise ServiceError("not_in_tournament", "seat")
    if table.kind is TableKind.DIGITAL:
        raise ServiceError("result_digital", "seat")
    status = table_status(table)
    if status.final:
        raise ServiceError("result_final", "seat")
    return _say(table, version, DISPUTE, status.places, _at_table(table, seat), _reason(reason, required=False))


def _reason(text: str, *, required: bool) -> str:
    shown = normalize_name(text)
    if required and not shown:
        raise ServiceError("reason_missing", "reason")
    if len(shown) > REASON_LENGTH:
        raise ServiceError("reason_long", "reason", high=REASON_LENGTH)
    return shown


def _say(
    table: GameTable, version: int | None, kind: ResultKind, places: Sequence[tuple[int, int]], by: str, reason: str
) -> TableResult:
    claim(table, version)
    result = TableResult(kind=kind, places=[list(p) for p in places], by=by, reason=reason, version=table.version)
    table.results.append(result)
    db.session.flush()
    return result


def _round_table(tournament: Tournament, table_id: int | None) -> GameTable:
    rounds = tournament.played_rounds
    table = next((t for t in rounds[-1].tables if t.id == table_id), None) if rounds else None
    if table is None:
        raise ServiceError("unknown_table", "table")
    return table


def close_table(tournament: Tournament, version: int | None, table_id: int | None) -> TableResult:
    """The organizer ends a table of the round in play with its standing of
    the moment (the time is up, a player left): no hand is added after."""
    table = _round_table(tournament, table_id)
    status = table_status(table)
    if status.final:
        raise ServiceError("result_final", "table")
    claim(tournament, version)
    table.closed_at = now()
    return _say(table, table.version, CLOSED, status.places, "", "")


def correct_result(
    tournament: Tournament, version: int | None, table_id: int | None, order: Sequence[int], reason: str
) -> TableResult:
    """The organizer sets the places of a table of the round in play (seats
    best first, no ties) with a reason that is kept; it stands over anything
    the table says."""
    table = _round_table(tournament, table_id)
    if sorted(order) != entrants(table):
        raise ServiceError("order", "order")
    why = _reason(reason, required=True)
    claim(tournament, version)
    places = [(seat, place) for place, seat in enumerate(order, start=1)]
    return _say(table, table.version, CORRECTED, places, "", why)


# -- standings -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Line:
    """One player's line of the standings, best first."""

    place: int
    name: str
    #: Rounds on points: tournament points (exact: ties share them).
    points: Fraction
    #: Hand points over every table played (the tie-break: fewer is better).
    hand_points: int
    rounds: int
    #: Knockout: still in the running (False once a table did not send them on).
    alive: bool
    withdrawn: bool
    #: The table of the round in play (or the last one played), if seated there.
    table: int | None


def _standings(view: Overview) -> list[Line]:
    """Every player, best first, live: a table in play counts as it stands.
    On points: tournament points, then fewer hand points.  Knockout:
    :func:`~companion.rules.tournament.knockout_rank` (a table in play
    places its players by the points so far; one with no hand yet, not at all)."""
    tournament = view.tournament
    knockout = tournament.format == Format.KNOCKOUT
    tally = {name: _Tally() for name, _withdrawn_after in view.players}
    for round_, tables in view.rounds:
        for status in tables:
            ranks = [place for _seat, place in status.places]
            worth = shared_points(ranks, tournament.scale)
            on = set(advancing(ranks, tournament.advance))
            placed = status.final or status.hands > 0
            for index, (seat, place) in enumerate(status.places):
                line = tally.setdefault(status.table.names[seat], _Tally())
                line.points += worth[index]
                line.hand += status.total(seat)
                line.rounds += 1
                line.reached, line.table = round_.number, status.number
                line.place = place if placed else None
                line.alive = not (knockout and status.final and (index not in on or (view.over and place > 1)))
    withdrawn = {name for name, withdrawn_after in view.players if withdrawn_after is not None}
    for name in [n for n in withdrawn if not tally[n].rounds]:
        del tally[name]  # signed up and withdrawn before playing: not in the standings
    for name, line in tally.items():
        if knockout and line.reached < view.number:
            line.alive = False
        line.withdrawn = name in withdrawn

    def key(name: str) -> tuple:
        line = tally[name]
        if knockout:
            return knockout_rank(alive=line.alive, reached=line.reached, place=line.place, points=line.hand)
        # A float orders these exactly: shares of a table of at most five, summed over a few rounds.
        return (-float(line.points), line.hand)

    keys = {name: key(name) for name in tally}
    order = sorted(tally, key=lambda n: (keys[n], name_key(n)))
    places: dict[str, int] = {}
    for index, name in enumerate(order):  # equal keys share the place of the first of them
        same = index and keys[order[index - 1]] == keys[name]
        places[name] = places[order[index - 1]] if same else index + 1
    return [
        Line(
            place=places[name],
            name=name,
            points=tally[name].points,
            hand_points=tally[name].hand,
            rounds=tally[name].rounds,
            alive=tally[name].alive and not tally[name].withdrawn,
            withdrawn=tally[name].withdrawn,
            table=tally[name].table if tally[name].reached == view.number and view.number else None,
        )
        for name in order
    ]


@dataclass
class _Tally:
    points: Fraction = Fraction(0)
    hand: int = 0
    rounds: int = 0
    alive: bool = True
    withdrawn: bool = False
    reached: int = 0
    #: The place at the last table (None: a table in play with no hand yet).
    place: int | None = 0
    table: int | None = None


# -- duplicate rounds ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SeatScore:
    """What one player scored holding one seat's cards, and their place among
    everybody who held them across the round."""

    name: str
    table: int
    points: int
    place: int
    computer: bool


@dataclass(frozen=True, slots=True)
class SameCards:
    """One seat across the tables of a duplicate round with ``players``
    seats: who held its cards, fewest points first.  ``points`` count only
    the ``hands`` that were dealt alike at every one of these tables (of
    ``played`` hands played at them)."""

    players: int
    seat: int
    scores: tuple[SeatScore, ...]
    hands: int
    played: int


def same_cards(round_: TournamentRound) -> list[SameCards]:
    """The duplicate comparison of a round, worked out from its deals (never
    stored): tables of the same size were dealt alike (``play.deal_seed``),
    so seat k at one holds the cards seat k held at the others.  A hand
    counts where every such table closed it from the same seal (a void hand
    dealt again, or a player out, changes the deal: that hand counts for
    nobody).  Tables of a size no other table has are left out."""
    if not round_.deal_secret:
        return []
    by_size: dict[int, list[GameTable]] = {}
    for table in round_.tables:
        by_size.setdefault(len(table.players), []).append(table)
    out: list[SameCards] = []
    for size, tables in sorted(by_size.items()):
        if len(tables) < 2:
            continue
        closed = {t.id: _closed_deals(t) for t in tables}
        numbers = set.intersection(*(set(closed[t.id]) for t in tables))
        alike = sorted(n for n in numbers if len({closed[t.id][n][0] for t in tables}) == 1)
        played = max(len(closed[t.id]) for t in tables)
        points = {t.id: _seat_points(t, [closed[t.id][n][1] for n in alike]) for t in tables}
        for seat in range(size):
            scored = [
                (points[t.id][seat], t.round_table or 0, t.names[seat], t.players[seat].kind.computer) for t in tables
            ]
            scored.sort(key=lambda x: (x[0], x[1]))
            scores: list[SeatScore] = []
            for index, (value, number, name, computer) in enumerate(scored):
                place = scores[-1].place if index and scored[index - 1][0] == value else index + 1
                scores.append(SeatScore(name, number, value, place, computer))
            out.append(SameCards(size, seat, tuple(scores), len(alike), played))
    return out


def _closed_deals(table: GameTable) -> dict[int, tuple[str | None, int]]:
    """Hand number → the seal and the scoreboard hand of the deal that closed it."""
    query = select(Deal).where(Deal.table_id == table.id, Deal.hand_id.is_not(None)).order_by(Deal.id)
    return {d.number: (d.commitment, d.hand_id) for d in db.session.scalars(query) if d.hand_id is not None}


def _seat_points(table: GameTable, hand_ids: Sequence[int]) -> list[int]:
    """Each seat's points in these hands of the table."""
    points = [0] * len(table.players)
    if not hand_ids:
        return points
    for hand in db.session.scalars(select(Hand).where(Hand.id.in_(hand_ids))):
        for entry in hand.entries:
            if 0 <= entry.seat < len(points):
                points[entry.seat] += entry.points or 0
    return points


def prize_cents(pot: int, places: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """The pot split by place, ``prizes`` in percent from the first place
    down; tied players share the shares of the places they fill.  A share's
    fraction of a cent is dropped and the cents left go to the first place,
    so the prizes add up to the pot."""
    shares = [prizes[i] if i < len(prizes) else 0 for i in range(len(places))]
    result = [0] * len(places)
    for place in sorted(set(places)):
        tied = [i for i, p in enumerate(places) if p == place]
        group = int(Fraction(pot * sum(shares[place - 1 : place - 1 + len(tied)]), 100))
        for i, cents in zip(tied, split_pot(group, [str(i) for i in tied]).values(), strict=True):
            result[i] = cents
    if result and sum(shares) == 100:
        first = [i for i, p in enumerate(places) if p == min(places)]
        for i, cents in zip(first, split_pot(pot - sum(result), [str(i) for i in first]).values(), strict=True):
            result[i] += cents
    return result


def delete_tournament(tournament: Tournament) -> None:
    """The organizer deletes the tournament and every table it seated."""
    for round_ in tournament.all_rounds:
        for table in round_.tables:
            db.session.delete(table)
    db.session.delete(tournament)
