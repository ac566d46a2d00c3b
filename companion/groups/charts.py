"""The group page's pictures as server-rendered SVG data (no chart library,
no inline style: colours are presentation attributes, text sits in the SVG
and every chart has a table beside it as its text alternative)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..rules.names import name_key
from ..services.groups import Line, Match
from ..services.ratings import Rating
from ..web.palette import COLOURS

#: Where a player's hand points fall: they closed it, or caught with so many.
BUCKETS = ("closed", "low", "mid", "high")
BUCKET_COLOURS = {"closed": "#009e73", "low": "#56b4e9", "mid": "#e69f00", "high": "#d55e00"}


def bucket(points: int, closed: bool) -> str:
    """``closed`` when the player closed the hand, else 0–9, 10–19 or 20+ points."""
    if closed:
        return "closed"
    if points < 10:
        return "low"
    return "mid" if points < 20 else "high"


@dataclass
class WinLine:
    name: str
    colour: str
    points: str  # polyline points
    wins: list[int]  # running count after each finished match


@dataclass
class WinsChart:
    width: int
    height: int
    left: int
    bottom: float
    lines: list[WinLine]
    ticks: list[tuple[float, int]]
    matches: list[tuple[float, int]]


def wins_chart(lines: Sequence[Line], season_matches: Sequence[Match], width: int = 340, height: int = 200):
    """Each player's running win count through the season's finished matches."""
    finished = [m for m in season_matches if m.finished]
    players = [ln for ln in lines if ln.played]
    if not finished or not players:
        return None
    left, right, top, bottom = 28, 12, 10, height - 24
    series = []
    for ln in players:
        count, running = 0, [0]
        for match in finished:
            count += any(name_key(w) == name_key(ln.name) for w in match.winners)
            running.append(count)
        series.append((ln, running))
    high = max(1, *(r[-1] for _ln, r in series))
    steps = len(finished)

    def x(i: int) -> float:
        return round(left + (width - left - right) * i / steps, 1)

    def y(v: int) -> float:
        return round(bottom - (bottom - top) * v / high, 1)

    def dodge(i: int) -> float:
        """Lines with equal counts would hide each other: shift each by a hair."""
        return round((i - (len(series) - 1) / 2) * 2.5, 1)

    result = [
        WinLine(
            name=ln.name,
            colour=COLOURS[i % len(COLOURS)],
            points=" ".join(f"{x(j)},{round(y(v) + dodge(i), 1)}" for j, v in enumerate(running)),
            wins=running[1:],
        )
        for i, (ln, running) in enumerate(series)
    ]
    every = max(1, high // 5)
    ticks = [(y(v), v) for v in range(0, high + 1, every)]
    shown = max(1, steps // 8)
    return WinsChart(width, height, left, bottom, result, ticks, [(x(i), i) for i in range(0, steps + 1, shown)])


@dataclass
class Bar:
    name: str
    counts: dict[str, int]
    total: int
    y: float
    segments: list[tuple[str, float, float]]  # (bucket, x, width)


@dataclass
class PointsChart:
    width: int
    height: int
    bars: list[Bar]
    bar_height: int


class Hands(Protocol):
    """A player's hands: name, and each hand's points with whether they closed it."""

    @property
    def name(self) -> str: ...

    @property
    def points(self) -> list[tuple[int, bool]]: ...


def points_chart(lines: Sequence[Hands], width: int = 340):
    """Per player, one bar split by how their hands ended: closed, 0–9, 10–19, 20+."""
    players = [ln for ln in lines if ln.points]
    if not players:
        return None
    label, bar_height, gap = 18, 22, 12
    bars = []
    for i, ln in enumerate(players):
        counts = dict.fromkeys(BUCKETS, 0)
        for points, closed in ln.points:
            counts[bucket(points, closed)] += 1
        total = sum(counts.values())
        y = i * (label + bar_height + gap) + label
        segments, x = [], 0.0
        for b in BUCKETS:
            w = round(width * counts[b] / total, 1)
            if counts[b]:
                segments.append((b, round(x, 1), w))
            x += w
        bars.append(Bar(ln.name, counts, total, y, segments))
    height = len(players) * (label + bar_height + gap)
    return PointsChart(width, height, bars, bar_height)


@dataclass
class RatingLine:
    name: str
    colour: str
    points: str  # polyline points, from the player's first rated match on
    last: float


@dataclass
class RatingChart:
    width: int
    height: int
    left: int
    bottom: float
    lines: list[RatingLine]
    ticks: list[tuple[float, int]]
    matches: list[tuple[float, int]]


def rating_chart(players: Sequence[Rating], width: int = 340, height: int = 200) -> RatingChart | None:
    """Each player's rating (the ordinal) after every rated match of the group, on one time line."""
    shown = [r for r in players if r.history]
    tables = sorted({(when, table) for r in shown for when, table, _o, _c in r.history})
    if not tables:
        return None
    step_of = {table: i + 1 for i, (_when, table) in enumerate(tables)}
    values = [o for r in shown for _w, _t, o, _c in r.history] + [0.0]
    low, high = math.floor(min(values) / 5) * 5, math.ceil(max(values) / 5) * 5
    high = max(high, low + 5)
    left, right, top, bottom = 28, 12, 10, height - 24
    steps = len(tables)

    def x(i: int) -> float:
        return round(left + (width - left - right) * i / steps, 1)

    def y(v: float) -> float:
        return round(bottom - (bottom - top) * (v - low) / (high - low), 1)

    lines = []
    for i, r in enumerate(shown):
        first = step_of[r.history[0][1]] - 1
        points = [f"{x(first)},{y(0.0)}"] + [f"{x(step_of[t])},{y(o)}" for _w, t, o, _c in r.history]
        lines.append(RatingLine(r.name, COLOURS[i % len(COLOURS)], " ".join(points), r.ordinal))
    every = max(5, (high - low) // 4 // 5 * 5)
    ticks = [(y(v), v) for v in range(low, high + 1, every)]
    every_match = max(1, steps // 8)
    return RatingChart(width, height, left, bottom, lines, ticks, [(x(i), i) for i in range(0, steps + 1, every_match)])


@dataclass
class ChanceBar:
    name: str
    share: float
    width: float


def chance_bars(chances: dict[str, float], width: int = 340) -> list[ChanceBar]:
    """Each player's chance of winning as a bar, most likely first."""
    order = sorted(chances.items(), key=lambda kv: -kv[1])
    return [ChanceBar(name, share, round(width * share, 1)) for name, share in order]
