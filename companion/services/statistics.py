"""A group's statistics over a season, a year or all time, and its ratings:
read only, replayed from the group's tables (``services.groups.matches``)
every time, never stored.

What counts, everywhere here, is a **finished** match, as the season's
standings count (a match still being played has no result yet).  A match
with a computer player counts for the figures of the people who played it
but not for their rating (``services.ratings``).

- **Evenings.**  Matches started less than :data:`EVENING_GAP` after the
  previous one are one evening (a Friday that runs past midnight stays one
  evening); a player's best evening is the one with the most wins, then the
  fewest points a hand, the worst the other way round.
- **Head to head.**  For two players at the same finished match, who
  finished above the other (the standings' order, a player who left last).
- **The year in review.**  Who closed most; the biggest comeback: the most
  points a winner was behind the leader (the lowest total of the players
  still in) after some hand of a match they went on to win; the longest
  streak: the most matches in a row a player won, of the matches they played.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal

from ..models import GameTable, Group, PlayerKind
from ..rules.names import name_key
from . import ratings as rating_service
from .groups import Match, counted_names, identities, matches
from .ratings import Rating, Result
from .tournaments import Overview

#: Matches started within this of the previous one are the same evening.
EVENING_GAP = timedelta(hours=6)
ONE_PLACE = Decimal("0.1")


# -- periods ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Period:
    """A season (``season``, its number), a calendar year (``year``) or all time (``all``)."""

    kind: str
    value: int = 0

    @property
    def key(self) -> str:
        """As the page's address writes it: ``season-2``, ``year-2026``, ``all``."""
        return "all" if self.kind == "all" else f"{self.kind}-{self.value}"

    @classmethod
    def parse(cls, text: str | None) -> Period | None:
        """The period an address names, or None.

        >>> Period.parse("year-2026"), Period.parse("all"), Period.parse("year-x")
        (Period(kind='year', value=2026), Period(kind='all', value=0), None)
        """
        if text == "all":
            return cls("all")
        kind, _, number = (text or "").partition("-")
        if kind in ("season", "year") and number.isdigit() and len(number) <= 6:
            return cls(kind, int(number))
        return None

    def holds(self, match: Match) -> bool:
        if self.kind == "season":
            return match.season == self.value
        if self.kind == "year":
            return match.played_at.year == self.value
        return True


def periods(group: Group, everything: Sequence[Match]) -> list[Period]:
    """What the page offers: every season, newest first, every year a match was played, all time."""
    seasons = [Period("season", s.number) for s in reversed(group.seasons)]
    years = [Period("year", y) for y in sorted({m.played_at.year for m in everything}, reverse=True)]
    return [*seasons, *years, Period("all")]


# -- evenings ---------------------------------------------------------------------------------------
def evenings(everything: Iterable[Match]) -> dict[int, datetime]:
    """Each match's evening, named by its first match's start: table id → start."""
    result: dict[int, datetime] = {}
    start: datetime | None = None
    last: datetime | None = None
    for match in sorted(everything, key=lambda m: (m.played_at, m.table.id)):
        if last is None or match.played_at - last >= EVENING_GAP:
            start = match.played_at
        last = match.played_at
        assert start is not None
        result[match.table.id] = start
    return result


@dataclass
class Evening:
    """One player's evening: matches finished, won, and their hands' points."""

    started: datetime
    matches: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0

    @property
    def per_hand(self) -> Decimal | None:
        return (Decimal(self.points) / self.hands).quantize(ONE_PLACE) if self.hands else None

    def rank(self) -> tuple[int, Decimal]:
        """Higher is better: wins, then fewer points a hand."""
        return self.wins, -(self.per_hand if self.per_hand is not None else Decimal(0))


# -- a player's figures -----------------------------------------------------------------------
@dataclass
class Record:
    """Head to head against one other player: finished above, below, level (a shared place)."""

    ahead: int = 0
    behind: int = 0
    even: int = 0

    @property
    def played(self) -> int:
        return self.ahead + self.behind + self.even


@dataclass
class PlayerStats:
    name: str
    member: bool
    matches: int = 0
    wins: int = 0
    hands: int = 0
    closes: int = 0
    minus_tens: int = 0
    chinchones: int = 0
    reentries: int = 0
    #: Every hand's points, with whether the player closed it (the points picture).
    points: list[tuple[int, bool]] = field(default_factory=list)
    evenings: dict[datetime, Evening] = field(default_factory=dict)
    head_to_head: dict[str, Record] = field(default_factory=dict)
    rating: Rating | None = None

    @property
    def win_share(self) -> Decimal | None:
        return Decimal(self.wins) / self.matches if self.matches else None

    @property
    def close_share(self) -> Decimal | None:
        return Decimal(self.closes) / self.hands if self.hands else None

    @property
    def points_per_hand(self) -> Decimal | None:
        total = sum(p for p, _closed in self.points)
        return (Decimal(total) / self.hands).quantize(ONE_PLACE) if self.hands else None

    @property
    def best_evening(self) -> Evening | None:
        return max(self.evenings.values(), key=lambda e: (e.rank(), e.started), default=None)

    @property
    def worst_evening(self) -> Evening | None:
        """None with a single evening (it is the best one too)."""
        if len(self.evenings) < 2:
            return None
        return min(self.evenings.values(), key=lambda e: (e.rank(), e.started))


@dataclass(frozen=True, slots=True)
class Comeback:
    name: str
    behind: int
    after_hand: int
    match: Match


@dataclass(frozen=True, slots=True)
class Streak:
    name: str
    length: int
    until: datetime


@dataclass
class Review:
    """The period in review: who closed most, the biggest comeback, the longest winning streak."""

    most_closes: list[str]
    closes: int
    comeback: Comeback | None
    streaks: list[Streak]


@dataclass
class Statistics:
    period: Period
    matches: list[Match]
    players: list[PlayerStats]
    review: Review
    ratings: dict[str, Rating]

    def player(self, name: str) -> PlayerStats | None:
        return next((p for p in self.players if name_key(p.name) == name_key(name)), None)


def finishing_places(match: Match) -> dict[str, int]:
    """Each player's place in a finished match (computer players too), a player who left last."""
    seats = rating_service.places(match.table, match.standing, people_only=False) or {}
    return {match.players[seat]: place for seat, place in seats.items()}


def result_of(match: Match) -> Result | None:
    """The match as a rated result, or None when it does not count for ratings."""
    seats = rating_service.places(match.table, match.standing)
    if seats is None:
        return None
    return Result(match.played_at, match.table.id, {match.players[s]: seats[s] for s in sorted(seats)})


def group_ratings(everything: Sequence[Match], until: datetime | None = None) -> dict[str, Rating]:
    """Ratings from every rated match of the group (in every season: skill outlives a season)."""
    results = (result_of(m) for m in everything if until is None or m.played_at <= until)
    return rating_service.rate(r for r in results if r is not None)


def statistics(group: Group, everything: Sequence[Match], period: Period) -> Statistics:
    """Every figure of the period's finished matches, per player: members first, then guests."""
    chosen = [m for m in everything if m.finished and period.holds(m)]
    night = evenings(everything)
    lines: dict[str, PlayerStats] = {m.key: PlayerStats(m.name, True) for m in group.members}
    for match in chosen:
        placed = finishing_places(match)
        for name in match.players:
            line = lines.setdefault(name_key(name), PlayerStats(name, False))
            hands = match.hand_points[name]
            won = name in match.winners
            line.matches += 1
            line.wins += won
            line.hands += len(hands)
            line.closes += sum(1 for _p, closed in hands if closed)
            line.minus_tens += match.minus_tens[name]
            line.chinchones += match.chinchones[name]
            line.reentries += match.reentries[name]
            line.points.extend(hands)
            evening = line.evenings.setdefault(night[match.table.id], Evening(night[match.table.id]))
            evening.matches += 1
            evening.wins += won
            evening.hands += len(hands)
            evening.points += sum(p for p, _closed in hands)
            for other in match.players:
                if other == name or other in match.computers or name in match.computers:
                    continue
                record = line.head_to_head.setdefault(other, Record())
                if placed[name] < placed[other]:
                    record.ahead += 1
                elif placed[name] > placed[other]:
                    record.behind += 1
                else:
                    record.even += 1
    # A period's ratings are as they stood at its end (all time: now).
    until = max((m.played_at for m in chosen), default=None) if period.kind != "all" else None
    rated = group_ratings(everything, until) if chosen else {}
    for line in lines.values():
        line.rating = rated.get(name_key(line.name))
        line.head_to_head = {_shown(lines, n): r for n, r in sorted(line.head_to_head.items(), key=_order(lines))}
    players = sorted(
        lines.values(),
        key=lambda p: (not p.member, -p.wins, -(p.win_share or 0), p.points_per_hand or Decimal("Infinity")),
    )
    return Statistics(period, chosen, players, review(chosen, players), rated)


def _shown(lines: dict[str, PlayerStats], name: str) -> str:
    line = lines.get(name_key(name))
    return line.name if line is not None else name


def _order(lines: dict[str, PlayerStats]) -> Callable[[tuple[str, Record]], tuple[int, str]]:
    keys = list(lines)

    def key(item: tuple[str, Record]) -> tuple[int, str]:
        k = name_key(item[0])
        return (keys.index(k) if k in keys else len(keys), k)

    return key


def tournament_ratings(view: Overview) -> dict[str, Rating]:
    """Ratings from a tournament's tables, round by round: each finished
    table between people (no computer filling a seat) by the places the
    tournament counts (its result: confirmed, closed or corrected)."""
    results = []
    for _round, tables in view.rounds:
        for status in tables:
            table = status.table
            if not status.final or any(p.kind is not PlayerKind.HUMAN for p in table.players):
                continue
            seats = rating_service.left_last(table.players, dict(status.places))
            results.append(Result(table.created_at, table.id, {table.names[s]: seats[s] for s in sorted(seats)}))
    return rating_service.rate(results)


def chances_before(table: GameTable, hands: int) -> dict[str, float] | None:
    """Before a group's match between people begins (no hand yet): each
    player's chance of winning by the group's ratings (names as the table
    writes them), or None (not a group's, a hand in, a computer player, or
    nobody rated yet).  A tournament's table shows its chances on the
    seating page instead (:func:`tournament_ratings`)."""
    group = table.group
    if group is None or table.round_id is not None or hands:
        return None
    if any(p.kind is not PlayerKind.HUMAN for p in table.players):
        return None
    names = list(table.names)
    counted = counted_names(identities(group), names)
    rated = group_ratings([m for m in matches(group) if m.table.id != table.id])
    chances = rating_service.win_chances(rated, counted)
    if chances is None:
        return None
    return {name: chances[as_counted] for name, as_counted in zip(names, counted, strict=True)}


# -- the review -----------------------------------------------------------------------------------
def review(chosen: Sequence[Match], players: Sequence[PlayerStats]) -> Review:
    most = max((p.closes for p in players), default=0)
    return Review(
        most_closes=[p.name for p in players if most and p.closes == most],
        closes=most,
        comeback=biggest_comeback(chosen),
        streaks=longest_streaks(chosen),
    )


def behind_the_leader(match: Match) -> list[tuple[int, dict[str, int]]]:
    """After each hand: how far each player still in was behind the lowest total among them."""
    names = match.players
    out: set[int] = set()
    result = []
    for row in match.standing.rows:
        out.update(row.out_after)
        out.difference_update(row.reentries)
        still = {seat: total for seat, total in row.totals.items() if seat not in out}
        if not still:
            continue
        low = min(still.values())
        result.append((row.hand.number, {names[seat]: total - low for seat, total in still.items()}))
    return result


def biggest_comeback(chosen: Sequence[Match]) -> Comeback | None:
    """The most points a winner was behind the leader after a hand (ties: the earliest)."""
    best: Comeback | None = None
    for match in chosen:
        for number, behind in behind_the_leader(match):
            for winner in match.winners:
                gap = behind.get(winner, 0)
                if gap > 0 and (best is None or gap > best.behind):
                    best = Comeback(winner, gap, number, match)
    return best


def longest_streaks(chosen: Sequence[Match]) -> list[Streak]:
    """The longest run of wins in a row, of each player's own matches (only runs of 2 or more; every player tied)."""
    runs: dict[str, tuple[str, int]] = {}
    best: dict[str, Streak] = {}
    for match in chosen:
        for name in match.players:
            key = name_key(name)
            if name in match.computers:
                continue
            _, run = runs.get(key, (name, 0))
            run = run + 1 if name in match.winners else 0
            runs[key] = (name, run)
            if run >= 2 and (key not in best or run > best[key].length):
                best[key] = Streak(name, run, match.played_at)
    top = max((s.length for s in best.values()), default=0)
    return sorted((s for s in best.values() if s.length == top), key=lambda s: s.until)
