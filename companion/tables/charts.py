"""Totals per hand as a small server-rendered SVG line chart (no chart library)."""

from __future__ import annotations

from dataclasses import dataclass

from ..models import GameTable
from ..services.standing import Standing
from ..web.palette import COLOURS


@dataclass
class Line:
    name: str
    colour: str
    points: str  # SVG polyline points
    last: tuple[float, float]
    total: int


@dataclass
class Chart:
    width: int
    height: int
    lines: list[Line]
    target_y: float
    ticks: list[tuple[float, int]]  # (y, value)
    hands: list[tuple[float, int]]  # (x, hand number)
    left: int
    bottom: float


def totals_chart(table: GameTable, standing: Standing, width: int = 340, height: int = 220) -> Chart | None:
    if not standing.rows:
        return None
    left, right, top, bottom = 34, 10, 10, height - 24
    names = table.names
    # Each hand's point is the total it left (over the target when that
    # player went out); a re-entry right after it is a jump at the same hand.
    series: list[list[tuple[int, int]]] = []
    for s in range(len(names)):
        points, total = [(0, 0)], 0
        for i, row in enumerate(standing.rows, start=1):
            total += row.points.get(s, 0)
            points.append((i, total))
            if row.totals[s] != total:
                total = row.totals[s]
                points.append((i, total))
        series.append(points)
    target = standing.rules.target
    high = max(target, *(v for line in series for _i, v in line))
    low = min(0, *(v for line in series for _i, v in line))
    span = max(high - low, 1)
    steps = len(standing.rows)

    def x(i: int) -> float:
        return round(left + (width - left - right) * i / max(steps, 1), 1)

    def y(v: float) -> float:
        return round(bottom - (bottom - top) * (v - low) / span, 1)

    lines = [
        Line(
            name=names[s],
            colour=COLOURS[s % len(COLOURS)],
            points=" ".join(f"{x(i)},{y(v)}" for i, v in values),
            last=(x(steps), y(values[-1][1])),
            total=values[-1][1],
        )
        for s, values in enumerate(series)
    ]
    step = max(10, round(span / 5, -1))
    ticks = []
    value = (low // step) * step
    while value <= high:
        ticks.append((y(value), int(value)))
        value += step
    every = max(1, steps // 8)
    hands = [(x(i), i) for i in range(0, steps + 1, every)]
    return Chart(width, height, lines, y(target), ticks, hands, left, bottom)
