"""A group's statistics and ratings pages, and their spreadsheets: read
only, for any of the group's links (``services.statistics``,
``services.ratings``: replayed from the record every time)."""

from __future__ import annotations

from decimal import Decimal

from flask import Response, abort, render_template, request
from flask_babel import format_date, format_decimal, format_percent
from flask_babel import gettext as _

from ..rules.names import name_key
from ..services.groups import matches
from ..services.ratings import PROVISIONAL, Rating, ranked, win_chances
from ..services.statistics import Period, PlayerStats, Statistics, periods, statistics
from ..web.access import READ, WATCH, Link, allow
from ..web.i18n import one_place
from ..web.spreadsheet import spreadsheet
from . import bp
from .charts import BUCKET_COLOURS, BUCKETS, chance_bars, points_chart, rating_chart
from .views import table_link


def period_name(period: Period) -> str:
    if period.kind == "season":
        return _("Season %(number)s", number=period.value)
    if period.kind == "year":
        return str(period.value)
    return _("All time")


def _period(link: Link, offered: list[Period]) -> Period:
    """The period asked for (``?period=``), the current season by default; 404 for one the group never had."""
    raw = request.args.get("period")
    if raw is None:
        return Period("season", link.group.current_season.number)
    period = Period.parse(raw)
    if period is None or period not in offered:
        abort(404)
    return period


def _asked(link: Link) -> tuple[Statistics, list[Period]]:
    """The statistics of the period the address asks for, and every period the group offers."""
    everything = matches(link.group)
    offered = periods(link.group, everything)
    return statistics(link.group, everything, _period(link, offered)), offered


def rating_number(rating: Rating | None) -> str:
    return one_place(rating.ordinal if rating is not None else None)


def share(value: Decimal | float | None) -> str:
    return format_percent(value) if value is not None else "–"


def player_figures(line: PlayerStats) -> list[tuple[str, str, str]]:
    """A player's period as ``(key, label, shown value)``."""
    return [
        ("matches", _("Matches"), format_decimal(line.matches)),
        ("wins", _("Won"), format_decimal(line.wins)),
        ("share", _("Win share"), share(line.win_share)),
        ("hands", _("Hands"), format_decimal(line.hands)),
        ("closes", _("Hands closed"), format_decimal(line.closes)),
        ("close_share", _("Closes a hand"), share(line.close_share)),
        ("per_hand", _("Points a hand"), one_place(line.points_per_hand)),
        ("minus10", _("−10s"), format_decimal(line.minus_tens)),
        ("chinchon", _("Chinchones"), format_decimal(line.chinchones)),
        ("reentries", _("Re-entries bought"), format_decimal(line.reentries)),
    ]


def evening_text(evening) -> str:
    return _(
        "%(date)s: won %(wins)s of %(matches)s, %(points)s points a hand",
        date=format_date(evening.started),
        wins=format_decimal(evening.wins),
        matches=format_decimal(evening.matches),
        points=one_place(evening.per_hand),
    )


@bp.get("/g/<token>/stats")
@allow(READ)
def stats(link: Link):
    group = link.group
    figures, offered = _asked(link)
    period = figures.period
    played = [p for p in figures.players if p.matches]
    return render_template(
        "groups/stats.html",
        group=group,
        token=link.token,
        read_only=link.role is WATCH,
        period=period,
        offered=offered,
        period_name=period_name,
        stats=figures,
        played=played,
        idle=[p for p in figures.players if not p.matches],
        player_figures=player_figures,
        evening_text=evening_text,
        rating_number=rating_number,
        spread=points_chart(played),
        buckets=BUCKETS,
        bucket_colours=BUCKET_COLOURS,
        table_link=lambda t: table_link(t, link.role),
        format_date=format_date,
    )


@bp.get("/g/<token>/ratings")
@allow(READ)
def ratings(link: Link):
    """Every rated player, best first, the ratings over time, and the chances
    of the players picked (by default the last match's) to win a match."""
    group = link.group
    everything = matches(group)
    figures = statistics(group, everything, Period("all"))
    table = ranked(figures.ratings)
    everybody = _everybody(figures)
    asked = request.args.getlist("p")
    if asked:
        keys = {name_key(n) for n in asked}
        picked = [n for n in everybody if name_key(n) in keys]
    else:
        last = everything[-1].players if everything else []
        picked = [n for n in everybody if any(name_key(n) == name_key(p) for p in last)]
    chances = win_chances(figures.ratings, picked)
    return render_template(
        "groups/ratings.html",
        group=group,
        token=link.token,
        ratings=table,
        chart=rating_chart(table),
        everybody=everybody,
        picked=set(picked),
        chances=chance_bars(chances) if chances else None,
        too_few=len(picked) < 2,
        provisional=PROVISIONAL,
        rating_number=rating_number,
        one_place=one_place,
        format_date=format_date,
    )


def _everybody(figures: Statistics) -> list[str]:
    """The members, then whoever else has a rating."""
    names = [p.name for p in figures.players if p.member]
    known = {name_key(n) for n in names}
    return names + [r.name for r in ranked(figures.ratings) if name_key(r.name) not in known]


# -- spreadsheets ------------------------------------------------------------------------------
def _csv(rows: list[list[object]], name: str) -> Response:
    return Response(
        spreadsheet(rows), mimetype="text/csv", headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


def _decimal(value: Decimal | None) -> object:
    return value if value is not None else ""


def _rounded(value: float) -> Decimal:
    return Decimal(str(round(value, 2)))


@bp.get("/g/<token>/stats.csv")
@allow(READ)
def stats_csv(link: Link):
    """One row per player of the period, every figure of the statistics page and the rating."""
    figures, _offered = _asked(link)
    period = figures.period
    rows: list[list[object]] = [
        [
            _("Player"),
            _("Member"),
            _("Matches"),
            _("Won"),
            _("Hands"),
            _("Hands closed"),
            _("Points a hand"),
            _("−10s"),
            _("Chinchones"),
            _("Re-entries bought"),
            _("Best evening"),
            _("Worst evening"),
            _("Rating"),
            _("Level"),
            _("Rated matches"),
        ]
    ]
    for p in figures.players:
        best, worst, r = p.best_evening, p.worst_evening, p.rating
        rows.append(
            [
                p.name,
                _("yes") if p.member else _("no"),
                p.matches,
                p.wins,
                p.hands,
                p.closes,
                _decimal(p.points_per_hand),
                p.minus_tens,
                p.chinchones,
                p.reentries,
                best.started.strftime("%Y-%m-%d") if best else "",
                worst.started.strftime("%Y-%m-%d") if worst else "",
                _rounded(r.ordinal) if r else "",
                r.level if r else "",
                r.matches if r else 0,
            ]
        )
    return _csv(rows, f"group-stats-{period.key}.csv")


@bp.get("/g/<token>/head-to-head.csv")
@allow(READ)
def head_to_head_csv(link: Link):
    """Every pair who met in the period's finished matches: who finished above whom, how often."""
    figures, _offered = _asked(link)
    period = figures.period
    rows: list[list[object]] = [[_("Player"), _("Against"), _("Above"), _("Below"), _("Tied")]]
    for p in figures.players:
        for other, record in p.head_to_head.items():
            rows.append([p.name, other, record.ahead, record.behind, record.even])
    return _csv(rows, f"group-head-to-head-{period.key}.csv")


@bp.get("/g/<token>/ratings.csv")
@allow(READ)
def ratings_csv(link: Link):
    """Every rated match of every player: the rating after it and the change."""
    figures = statistics(link.group, matches(link.group), Period("all"))
    rows: list[list[object]] = [[_("Date"), _("Player"), _("Rating"), _("Rating change")]]
    history = sorted(
        (
            (when, table, r.name, after, change)
            for r in figures.ratings.values()
            for when, table, after, change in r.history
        ),
        key=lambda row: (row[0], row[1], name_key(row[2])),
    )
    for when, _table, name, after, change in history:
        rows.append([when.strftime("%Y-%m-%d %H:%M"), name, _rounded(after), _rounded(change)])
    return _csv(rows, "group-ratings.csv")
