"""Ratings: each player's skill from the finishing order of the matches
they played, with openskill's Weng–Lin Plackett–Luce model (made for
free-for-all games of any size).  Read only: a rating is recomputed from
the record every time it is asked for and never stored, so a corrected
hand, a table deleted or a table joining the group changes it at once.

Which matches count, in the order they were played (``GameTable.created_at``):

- a **finished** match (a winner is known);
- with **people only**: a match with a computer player does not count;
- its finishing order is the standings' own (:meth:`Standing.ranking`):
  the winners, then the players still in by lower total, then those out by
  the order they went out, equal places shared;
- a person who **abandoned** the match (their seat still played by the
  computer when it ended, ``services.seats``) takes the last place, shared
  with anyone else who left; the others keep their order above them.

The number shown is the conservative estimate openskill ranks by, its
*ordinal* (μ − 3σ: 0 for a newcomer, rising as wins come and the model
grows sure); the **level** a person reads at a glance is μ on a scale of 1
to 10, 5 being where everybody starts.  A player with fewer than
:data:`PROVISIONAL` rated matches is marked provisional.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from openskill.models import PlackettLuce, PlackettLuceRating

from ..models import GameTable, PlayerKind
from ..rules.names import name_key
from .standing import Standing

#: The model, with openskill's defaults (μ 25, σ 25/3, β 25/6).
MODEL = PlackettLuce()
#: Below this many rated matches a rating is provisional.
PROVISIONAL = 5
#: μ this far from the start moves the level by one.
LEVEL_STEP = 2.5


@dataclass(frozen=True, slots=True)
class Result:
    """One rated match: when, which table, each player's place (1 is first;
    equal places are shared), players named as the group counts them."""

    played_at: datetime
    table_id: int
    places: dict[str, int]


def places(table: GameTable, current: Standing, *, people_only: bool = True) -> dict[int, int] | None:
    """Each seat's finishing place, or None when the match does not count
    (not finished, or, with ``people_only``, a computer player at the
    table).  A person who left (the computer still plays their seat) is last.

    Ana won; Ben, Carla, Dani followed; Ben left before the end: Ana 1,
    Carla 2, Dani 3, Ben 4."""
    if not current.state.finished or (people_only and any(p.kind is not PlayerKind.HUMAN for p in table.players)):
        return None
    return left_last(table.players, {p.seat: p.place for p in current.ranking()})


class Seated(Protocol):
    """A table's seat as :func:`left_last` reads it (a player, or a tournament page's row)."""

    @property
    def seat(self) -> int: ...

    @property
    def stand_in_since(self) -> datetime | None: ...


def left_last(players: Iterable[Seated], ranked: Mapping[int, int]) -> dict[int, int]:
    """Seat → place with every person who left (the computer still plays
    their seat) moved to a shared last place, the others closing up."""
    left = {p.seat for p in players if p.stand_in_since is not None and p.seat in ranked}
    stayed = {seat: place for seat, place in ranked.items() if seat not in left}
    result = {seat: 1 + sum(other < place for other in stayed.values()) for seat, place in stayed.items()}
    return result | dict.fromkeys(left, len(stayed) + 1)


@dataclass
class Rating:
    """A player's rating after the matches counted so far."""

    name: str
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    matches: int = 0
    wins: int = 0
    #: ``(played_at, table_id, ordinal after it, change)`` after each rated match, oldest first.
    history: list[tuple[datetime, int, float, float]] = field(default_factory=list)

    @property
    def ordinal(self) -> float:
        """The number a list is ranked by: μ − 3σ (0 for a newcomer)."""
        return self.mu - 3 * self.sigma

    @property
    def level(self) -> int:
        """1 to 10 from μ: 5 where everybody starts, one step per 2.5 points of μ."""
        return max(1, min(10, 5 + math.floor((self.mu - MODEL.mu) / LEVEL_STEP + 0.5)))

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL

    @property
    def last_change(self) -> float | None:
        return self.history[-1][3] if self.history else None

    def model(self) -> PlackettLuceRating:
        return MODEL.rating(mu=self.mu, sigma=self.sigma, name=self.name)


def rate(results: Iterable[Result]) -> dict[str, Rating]:
    """Every player's rating after these matches, played in this order; by name key.

    >>> from datetime import datetime
    >>> day = datetime(2026, 12, 4)
    >>> r = rate([Result(day, 1, {"Ana": 1, "Ben": 2}), Result(day, 2, {"Ana": 1, "Ben": 2})])
    >>> r["ana"].ordinal > r["ben"].ordinal, r["ana"].matches, r["ana"].wins
    (True, 2, 2)
    """
    ratings: dict[str, Rating] = {}
    for result in results:
        if len(result.places) < 2:
            continue
        players = [ratings.setdefault(name_key(n), Rating(n)) for n in result.places]
        for player, name in zip(players, result.places, strict=True):
            player.name = name  # the latest spelling
        before = [p.ordinal for p in players]
        rated = MODEL.rate([[p.model()] for p in players], ranks=list(result.places.values()))
        for player, (after,), was, place in zip(players, rated, before, result.places.values(), strict=True):
            player.mu, player.sigma = after.mu, after.sigma
            player.matches += 1
            player.wins += place == 1
            player.history.append((result.played_at, result.table_id, player.ordinal, player.ordinal - was))
    return ratings


def ranked(ratings: Mapping[str, Rating]) -> list[Rating]:
    """Best first by the ordinal, then by name."""
    return sorted(ratings.values(), key=lambda r: (-r.ordinal, name_key(r.name)))


def win_chances(ratings: Mapping[str, Rating], names: Sequence[str]) -> dict[str, float] | None:
    """Each player's chance of winning a match among ``names`` (summing to 1),
    or None when nobody of them has a rated match yet.  A newcomer counts
    with the rating everybody starts from."""
    known = [ratings.get(name_key(n)) for n in names]
    if len(names) < 2 or not any(r is not None and r.matches for r in known):
        return None
    teams = [[(r if r is not None else Rating(n)).model()] for r, n in zip(known, names, strict=True)]
    return dict(zip(names, MODEL.predict_win(teams), strict=True))
