"""Tournament rules: how many tables of which size, who sits where, and what
a place at a table is worth.  Pure functions of plain values; the record of a
tournament (who played where, which results stand) is ``services.tournaments``.

A club tournament seats its players at tables of three to five.  Each table
plays an ordinary match (or a round of a fixed number of hands); then

- **knockout**: the best ``advance`` of each table go on and are seated again,
  until one table is left: its winner wins the tournament;
- **rounds on points**: every table's ranking gives tournament points from a
  scale (e.g. 4-2-1-0, ties shared), hand points break ties, and the players
  are seated again by standing or at random for the next round.

>>> table_sizes(17)
[5, 4, 4, 4]
>>> shared_points([1, 2, 2, 4], [4, 2, 1, 0])
[Fraction(4, 1), Fraction(3, 2), Fraction(3, 2), Fraction(0, 1)]
"""

from __future__ import annotations

import enum
import functools
import random
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations, pairwise

from .errors import ChinchonError

MIN_TABLE = 3
MAX_TABLE = 5
#: A table's usual size: the number of tables is chosen to seat as many fours as possible.
BEST_TABLE = 4
MIN_PLAYERS = MIN_TABLE
#: 64 tables of five: a club night holds a 64-table round (the issue asks for 16 to 128 players, and for 64 tables).
MAX_PLAYERS = 320
#: The tournament-points scale when none is given: the classic 4-2-1-0.
DEFAULT_SCALE = (4, 2, 1, 0)


class Format(enum.StrEnum):
    KNOCKOUT = "knockout"
    POINTS = "points"


class Reseat(enum.StrEnum):
    """How a rounds-on-points tournament seats its next round."""

    STANDING = "standing"  #: the top players meet: table 1 takes the leaders
    RANDOM = "random"


class Play(enum.StrEnum):
    """Where a tournament's tables play: with cards on the table (a phone
    enters the hands), or dealt by the app, each player on their own phone
    or one phone passed round the table."""

    CARDS = "cards"
    DEVICES = "devices"
    HOTSEAT = "hotseat"


#: A digital table the organizer lets computer players fill gets up to this many seats.
FILLED_SEATS = 4


class TournamentError(ChinchonError):
    code = "tournament"


def table_sizes(players: int, *, first_round: bool = True) -> list[int]:
    """Tables of 3–5 seating ``players``, largest first, as even as possible
    and as close to four a table as possible; on a tie the smaller tables
    (ten players sit 4-3-3, not 5-5: five hands of seven leave a 40-card
    pack four cards of stock).  A later round may end at one table of two
    (a heads-up final); the first round never seats a table of two.

    >>> table_sizes(16), table_sizes(18), table_sizes(10), table_sizes(7), table_sizes(5)
    ([4, 4, 4, 4], [4, 4, 4, 3, 3], [4, 3, 3], [4, 3], [5])
    >>> table_sizes(2, first_round=False)
    [2]
    """
    if players == 2 and not first_round:
        return [2]
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise TournamentError(
            f"A tournament seats {MIN_PLAYERS} to {MAX_PLAYERS} players.", "players", low=MIN_PLAYERS, high=MAX_PLAYERS
        )
    best: tuple[int, int] | None = None
    for count in range(-(-players // MAX_TABLE), players // MIN_TABLE + 1):
        low, extra = divmod(players, count)
        sizes = [low + 1] * extra + [low] * (count - extra)
        if sizes[-1] >= MIN_TABLE and sizes[0] <= MAX_TABLE:
            off = sum(abs(s - BEST_TABLE) for s in sizes)
            if best is None or off <= best[0]:  # counts go up: a tie takes the smaller tables
                best = (off, count)
    assert best is not None  # every count from 3 players up has a seating
    low, extra = divmod(players, best[1])
    return [low + 1] * extra + [low] * (best[1] - extra)


def pairs(tables: Sequence[Sequence[str]]) -> set[frozenset[str]]:
    """Every two players who sat at the same table."""
    return {frozenset(pair) for table in tables for pair in combinations(table, 2)}


def _split(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def draw(players: Sequence[str], seed: int, *, previous: Sequence[Sequence[str]] = ()) -> list[list[str]]:
    """A random seating, the same for the same seed (the draw can be shown
    and repeated): tables of :func:`table_sizes`, then swaps between tables
    until no two players who shared a table in ``previous`` share one again
    (or no swap lowers the number of such pairs: the numbers do not allow it).
    Within a table the order is the seat order.

    >>> draw(["Ana", "Ben", "Carla", "Dani", "Eva", "Fede", "Gus"], seed=7) == draw(
    ...     ["Ana", "Ben", "Carla", "Dani", "Eva", "Fede", "Gus"], seed=7)
    True
    """
    rnd = random.Random(seed)
    order = list(players)
    rnd.shuffle(order)
    tables = _split(order, table_sizes(len(order), first_round=not previous))
    before = pairs(previous)

    def clashes(table: Sequence[str]) -> int:
        return sum(frozenset(pair) in before for pair in combinations(table, 2))

    # Hill-climbing: the swap that removes the most repeated pairs, until none helps.
    while before:
        best = None
        for a, b in combinations(range(len(tables)), 2):
            here = clashes(tables[a]) + clashes(tables[b])
            for i, j in ((i, j) for i in range(len(tables[a])) for j in range(len(tables[b]))):
                one, two = list(tables[a]), list(tables[b])
                one[i], two[j] = two[j], one[i]
                gain = here - clashes(one) - clashes(two)
                if gain > 0 and (best is None or gain > best[0]):
                    best = (gain, a, i, b, j)
        if best is None:
            break
        _gain, a, i, b, j = best
        tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
    return tables


def by_standing(ranked: Sequence[str], *, first_round: bool = False) -> list[list[str]]:
    """The top players meet: table 1 takes the leaders, table 2 the next, and so on.

    >>> by_standing(["Ana", "Ben", "Carla", "Dani", "Eva", "Fede", "Gus"])
    [['Ana', 'Ben', 'Carla', 'Dani'], ['Eva', 'Fede', 'Gus']]
    """
    return _split(ranked, table_sizes(len(ranked), first_round=first_round))


def shared_points(places: Sequence[int], scale: Sequence[int]) -> list[Fraction]:
    """Tournament points for places at one table (1 = first; equal places are
    a tie): the points of the positions tied players fill, shared equally.
    Positions past the end of the scale are worth nothing.

    >>> [str(p) for p in shared_points([1, 1, 3], [4, 2, 1, 0])]
    ['3', '3', '1']
    """
    return list(_shared_points(tuple(places), tuple(scale)))


@functools.lru_cache(maxsize=512)
def _shared_points(places: tuple[int, ...], scale: tuple[int, ...]) -> tuple[Fraction, ...]:
    """:func:`shared_points`, worked out once per places and scale (most tables of a round rank 1-2-3-4)."""
    worth = [Fraction(scale[i]) if i < len(scale) else Fraction(0) for i in range(len(places))]
    points = []
    for place in places:
        tied = sum(p == place for p in places)
        points.append(sum(worth[place - 1 : place - 1 + tied], Fraction(0)) / tied)
    return tuple(points)


def advancing(places: Sequence[int], advance: int) -> list[int]:
    """The indices of the players who go on from a knockout table: the first
    ``advance`` places, and everybody tied with the last of them (a shared
    place is shared: nobody is cut on a tie).

    >>> advancing([1, 2, 3, 4], 2), advancing([1, 2, 2, 4], 2), advancing([1, 1, 3], 1)
    ([0, 1], [0, 1, 2], [0, 1])
    """
    return [i for i, place in enumerate(places) if place <= advance]


def knockout_rank(*, alive: bool, reached: int, place: int | None, points: int) -> tuple[bool, int, bool, int, int]:
    """How a knockout ranks a player, best first (smaller sorts first):
    still in the running, then the furthest round reached, then the place at
    their table of that round, then fewer hand points.

    While a table plays, its place is the one the points so far give, as an
    organizer reads a round in progress; a table with no hand yet gives no
    place (``None``): its players come after every placed player of that
    round, never tied first with the leaders.

    >>> leader = knockout_rank(alive=True, reached=1, place=1, points=10)
    >>> waiting = knockout_rank(alive=True, reached=1, place=None, points=0)
    >>> leader < waiting
    True
    """
    return (not alive, -reached, place is None, place or 0, points)


def verify_scale(scale: Sequence[int]) -> tuple[int, ...]:
    """A points scale: 1 to 5 whole numbers from 0 to 100, never rising (a
    better place is never worth less), the first above 0."""
    values = tuple(scale)
    if not 1 <= len(values) <= MAX_TABLE or any(not 0 <= v <= 100 for v in values):
        raise TournamentError("A points scale is 1 to 5 numbers from 0 to 100.", "scale")
    if any(a < b for a, b in pairwise(values)):
        raise TournamentError("A better place is never worth fewer points.", "scale")
    if not values[0]:
        raise TournamentError("The first place is worth something.", "scale")
    return values
