"""A club tournament: the organizer's form and dashboard, the players' and
spectators' pages, the wall for a TV, seating lists and exports."""

from __future__ import annotations

import json
from decimal import Decimal

from flask import Response, abort, flash, g, make_response, redirect, render_template, request, url_for
from flask_babel import format_decimal
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ..models import GameTable, now
from ..rules import ChinchonError
from ..services.ledger import from_cents
from ..services.ratings import ranked, win_chances
from ..services.statistics import tournament_ratings
from ..services.tournaments import (
    Overview,
    close_table,
    correct_result,
    create_tournament,
    delete_tournament,
    entrants,
    fingerprint,
    overview,
    same_cards,
    sign_up,
    start_round,
    table_status,
    time_left,
    undo_round,
    withdraw,
)
from ..services.transfer import export_tournament
from ..services.unit import ServiceError
from ..web.access import OWNER, OWNER_ONLY, PLAYER, READ, WATCH, Link, allow, group_link
from ..web.i18n import local_currency, money, one_place
from ..web.messages import Replayed, Stale, Unconfirmed, error_text, expired_text, unconfirmed_text
from ..web.pace import play_pace
from ..web.qr import qr_response
from ..web.spreadsheet import spreadsheet
from ..web.writes import Refused, Why, attempt
from . import bp
from .forms import CorrectForm, TournamentForm


def _opened(link: Link) -> str:
    """The tournament this request's link opened (``g.tournament``, ``g.role``); returns the link."""
    g.tournament, g.role = link.tournament, link.role
    return link.token


def table_token(table: GameTable, role: str) -> str:
    """The link of a tournament table that a tournament link of ``role`` hands
    out: the table's player link (to enter hands there), read-only for a
    read-only link; never the table's owner link."""
    return table.watch_token if role == WATCH else table.player_token


@bp.app_template_global()
def tournament_money(cents: int, currency: str) -> str:
    return money(from_cents(cents), currency)


def _back(token: str):
    return redirect(url_for("tournaments.page", token=token)), 303


# -- creating ------------------------------------------------------------------------------------
@bp.route("/tournaments/new", methods=["GET", "POST"])
def new():
    form = TournamentForm()
    group = None
    token = form.group.data if request.method == "POST" else request.args.get("group")
    if token:
        link = group_link(token)
        if link is None:
            abort(404)
        if link.role not in (OWNER, PLAYER):
            abort(403)
        group = link.group
        form.group_name = group.name
        if request.method == "GET":
            form.group.data = token
            form.players.data = "\n".join(group.names)
            form.preset.data = group.preset
            form.currency.data = group.currency
            form.fill(group.overrides)
    elif request.method == "GET":
        form.currency.data = local_currency()
    if request.method == "POST" and form.validate():
        made = attempt(
            lambda: (
                create_tournament(
                    name=form.name.data,
                    players=form.player_names(),
                    preset=form.preset.data,
                    overrides=form.overrides(),
                    settings=form.settings(),
                    group=group,
                    submission=form.submission.data,
                ).owner_token
            ),
            stale=Stale.TOURNAMENT,
            replayed=Replayed.TOURNAMENT,
        )
        if isinstance(made, Refused) and made.made:
            made.flash()  # the form sent again (Back, then Create): the tournament it made
            return redirect(url_for("tournaments.page", token=made.made)), 303
        if isinstance(made, Refused):
            form.add_error(made.field.removeprefix("rules."), made.message)
        else:
            flash(_("Tournament created. Keep this page's link: it is the organizer's."), "ok")
            return redirect(url_for("tournaments.page", token=made)), 303
    status = 400 if request.method == "POST" else 200
    return render_template("tournaments/new.html", form=form), status


# -- the pages -------------------------------------------------------------------------------------
def _context(token: str, view: Overview | None = None, **extra) -> dict:
    tournament = g.tournament
    # Read before the tables: a write landing in between makes the next poll draw again, never miss it.
    since = fingerprint(tournament)
    view = view or overview(tournament)
    seating = None
    problem = None
    if not view.in_play and not view.over:
        try:
            seating = view.next_seating()
        except ChinchonError as error:
            problem = error_text(error)
    left = time_left(tournament, view.rounds[-1][0]) if view.rounds and view.in_play else None
    return {
        "t": tournament,
        "view": view,
        "token": token,
        "role": g.role,
        "read_only": g.role is WATCH,
        "organizer": g.role is OWNER,
        "seating": seating,
        "seating_problem": problem,
        "time_left": left,
        "table_token": table_token,
        "since": since,
        **extra,
    }


def _unchanged() -> bool:
    """A poll (``?since=``) of a page whose figures have not changed: 204, drawn from one query."""
    since = request.args.get("since")
    return since is not None and since == fingerprint(g.tournament)


@bp.get("/c/<token>")
@allow(READ)
def page(link: Link):
    token = _opened(link)
    if _unchanged():
        return "", 204
    return render_template("tournaments/page.html", **_context(token))


@bp.get("/c/<token>/wall")
@allow(READ)
def wall(link: Link):
    token = _opened(link)
    if _unchanged():
        return "", 204
    return render_template("tournaments/wall.html", **_context(token))


@bp.get("/c/<token>/seating")
@allow(READ)
def seating(link: Link):
    """Every round's seating, printable: the tables, and a line per player."""
    token = _opened(link)
    context = _context(token)
    seated = context["seating"]
    rated = tournament_ratings(context["view"]) if seated else {}
    chances = [win_chances(rated, names) for names in seated] if seated else []
    return render_template("tournaments/seating.html", chances=chances, **context)


@bp.get("/c/<token>/standings")
@allow(READ)
def standings(link: Link):
    """Every player's line (the dashboard shows the first 20)."""
    token = _opened(link)
    if _unchanged():
        return "", 204
    context = _context(token)
    rated = ranked(tournament_ratings(context["view"]))
    return render_template("tournaments/standings.html", ratings=rated, one_place=one_place, **context)


@bp.get("/c/<token>/rounds/<int:number>")
@allow(READ)
def round_results(link: Link, number: int):
    """One round's tables, their places and, for duplicate deals, each seat
    compared with the same seat at the other tables (worked out, never stored)."""
    token = _opened(link)
    view = overview(g.tournament)
    if not 1 <= number <= len(view.rounds):
        abort(404)
    round_, tables = view.rounds[number - 1]
    same = same_cards(g.tournament.played_rounds[number - 1])
    return render_template("tournaments/round.html", **_context(token, view), round_=round_, tables=tables, same=same)


@bp.get("/c/<token>/tables/<int:table_id>/qr.svg")
@allow(READ)
def table_qr(link: Link, table_id: int):
    _opened(link)
    table = _table_of(table_id)
    url = url_for("tables.scoreboard", token=table_token(table, g.role), _external=True)
    return qr_response(url)


def _table_of(table_id: int) -> GameTable:
    table = next(
        (t for r in g.tournament.played_rounds for t in r.tables if t.id == table_id),
        None,
    )
    if table is None:
        abort(404)
    return table


# -- the organizer's writes ----------------------------------------------------------------------
def _refused(token: str, message: str, status: int):
    """The dashboard again, saying why nothing was changed."""
    return make_response(render_template("tournaments/page.html", **_context(token, error=message)), status)


def _write(token: str, call, done: str):
    """One of the organizer's writes, through the write pipeline; a refusal
    shows the dashboard again, saying why nothing was changed."""
    outcome = attempt(call, stale=Stale.TOURNAMENT)
    if isinstance(outcome, Refused):
        return _refused(token, outcome.message, outcome.status)
    flash(done, "ok")
    return _back(token)


def _version() -> int | None:
    return request.form.get("version", type=int)


@bp.post("/c/<token>/rounds", endpoint="start_round")
@allow(OWNER_ONLY)
def start_round_(link: Link):
    token = _opened(link)
    t = g.tournament
    number = len(t.played_rounds) + 1
    return _write(
        token, lambda: start_round(t, _version(), play_pace()), _("Round %(number)s is seated.", number=number)
    )


@bp.post("/c/<token>/rounds/undo", endpoint="undo_round")
@allow(OWNER_ONLY)
def undo_round_(link: Link):
    token = _opened(link)
    t = g.tournament
    return _write(token, lambda: undo_round(t, _version()), _("The round's start is undone; its tables are gone."))


@bp.post("/c/<token>/players", endpoint="sign_up")
@allow(OWNER_ONLY)
def sign_up_(link: Link):
    token = _opened(link)
    t = g.tournament
    name = request.form.get("name") or ""
    return _write(token, lambda: sign_up(t, _version(), name), _("%(name)s is signed up.", name=name.strip()))


@bp.post("/c/<token>/players/withdraw", endpoint="withdraw")
@allow(OWNER_ONLY)
def withdraw_(link: Link):
    token = _opened(link)
    t = g.tournament
    player = request.form.get("player", type=int)
    names = {p.id: p.name for p in t.players}
    return _write(
        token, lambda: withdraw(t, _version(), player), _("%(name)s has withdrawn.", name=names.get(player, ""))
    )


@bp.post("/c/<token>/tables/close", endpoint="close_table")
@allow(OWNER_ONLY)
def close_table_(link: Link):
    token = _opened(link)
    t = g.tournament
    if request.form.get("confirm") != "close":
        return _refused(token, unconfirmed_text(Unconfirmed.CLOSE_TABLE), 400)
    table = request.form.get("table", type=int)
    return _write(token, lambda: close_table(t, _version(), table), _("The table is closed with its standing."))


@bp.route("/c/<token>/tables/<int:table_id>/correct", methods=["GET", "POST"])
@allow(OWNER_ONLY)
def correct(link: Link, table_id: int):
    token = _opened(link)
    t = g.tournament
    table = _table_of(table_id)
    if t.played_rounds[-1] is not table.round:
        abort(404)  # a table of an earlier round stands as it was
    form = CorrectForm() if request.method == "POST" else CorrectForm(formdata=None, version=t.version)
    error, code = None, 200
    if request.method == "POST":
        refused = _correct(t, table, form)
        if refused is None:
            flash(_("Table %(number)s corrected.", number=table.round_table), "ok")
            return _back(token)
        error, code = refused.message, refused.status
    page = render_template(
        "tournaments/correct.html",
        t=t,
        token=token,
        table=table,
        status=table_status(table),
        entrants=entrants(table),
        form=form,
        error=error,
    )
    return page, code


def _correct(t, table: GameTable, form: CorrectForm) -> Refused | None:
    """The correction stored (None), or what stopped it."""
    if not form.validate():
        return Refused(Why.REFUSED, expired_text())
    places = {seat: request.form.get(f"place{seat}", type=int) or 0 for seat in entrants(table)}
    if sorted(places.values()) != list(range(1, len(places) + 1)):
        error = ServiceError("order", "order")
        return Refused(Why.REFUSED, error_text(error), error)
    order = sorted(places, key=places.__getitem__)
    done = attempt(
        lambda: correct_result(t, form.version.data, table.id, order, form.reason.data or ""), stale=Stale.TOURNAMENT
    )
    return done if isinstance(done, Refused) else None


@bp.post("/c/<token>/delete")
@allow(OWNER_ONLY)
def delete(link: Link):
    token = _opened(link)
    if request.form.get("confirm") != "delete":
        return _refused(token, unconfirmed_text(Unconfirmed.DELETE_TOURNAMENT), 400)
    tournament = g.tournament
    return _write_home(lambda: delete_tournament(tournament), _("Tournament deleted."))


def _write_home(call, done: str):
    outcome = attempt(call, stale=Stale.TOURNAMENT)
    if isinstance(outcome, Refused):
        outcome.flash()
    else:
        flash(done, "ok")
    return redirect(url_for("main.home")), 303


# -- exports ---------------------------------------------------------------------------------------
@bp.get("/c/<token>/export.json")
@allow(OWNER_ONLY)
def export(link: Link):
    _opened(link)
    return Response(
        json.dumps(export_tournament(g.tournament), ensure_ascii=False, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": 'attachment; filename="tournament.json"'},
    )


@bp.get("/c/<token>/standings.csv")
@allow(READ)
def standings_csv(link: Link):
    """The standings, then one row per player and table played."""
    _opened(link)
    view = overview(g.tournament)
    on_points = g.tournament.format == "points"  # a knockout counts no tournament points
    head = [_("Place"), _("Player"), *([_("Tournament points")] if on_points else [])]
    rows: list[list[object]] = [[*head, _("Hand points"), _("Rounds played"), _("Prize")]]
    for line in view.standings:
        prize = str(from_cents(view.prizes.get(line.name, 0)))
        points = [_points(line.points)] if on_points else []
        rows.append([line.place, line.name, *points, line.hand_points, line.rounds, prize])
    rows.append([])
    rows.append([_("Round"), _("Table"), _("Player"), _("Place at the table"), _("Total"), _("Result")])
    for round_, tables in view.rounds:
        for status in tables:
            for seat, place in status.places:
                rows.append(
                    [
                        round_.number,
                        status.number,
                        status.table.names[seat],
                        place,
                        status.total(seat),
                        status_text(status.status),
                    ]
                )
    return Response(
        spreadsheet(rows),
        mimetype="text/csv",
        headers={"Content-Disposition": 'attachment; filename="standings.csv"'},
    )


def _points(value) -> str:
    """Tournament points as a spreadsheet reads them: whole, or to two decimals."""
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}".rstrip("0")


@bp.app_template_filter("tpoints")
def tpoints(value) -> str:
    """Tournament points in the page's language: "2,5" in Spanish, "2.5" in
    English (a whole number under 1000 is written the same in all of them)."""
    if value.denominator == 1 and -1000 < value.numerator < 1000:
        return str(value.numerator)
    return format_decimal(Decimal(value.numerator) / value.denominator, format="#,##0.##")


#: A table's status in words (translated as it is shown: one lookup, not four).
STATUS_TEXT = {
    "playing": _l("playing"),
    "waiting": _l("waiting for a result"),
    "disputed": _l("disputed"),
    "finished": _l("finished"),
}


def status_text(status: str) -> str:
    return str(STATUS_TEXT[status])


@bp.app_template_global()
def tournament_status(status: str) -> str:
    return status_text(status)


@bp.app_template_global()
def minutes_since(when) -> int:
    return max(0, int((now() - when).total_seconds() // 60))
