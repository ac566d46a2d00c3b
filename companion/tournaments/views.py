"""A club tournament: the organizer's form and dashboard, the players' and
spectators' pages, the wall for a TV, seating lists and exports."""

from __future__ import annotations

import json
from decimal import Decimal

from flask import Response, abort, flash, g, make_response, redirect, render_template, request, url_for
from flask_babel import format_decimal
from flask_babel import gettext as _

from ..models import GameTable, now
from ..rules import ChinchonError
from ..services.ledger import from_cents
from ..services.tournaments import (
    Overview,
    close_table,
    correct_result,
    create_tournament,
    delete_tournament,
    entrants,
    fingerprint,
    overview,
    sign_up,
    start_round,
    table_status,
    time_left,
    undo_round,
    withdraw,
)
from ..services.transfer import export_tournament
from ..services.unit import ServiceError, StaleError, transaction
from ..web.access import OWNER, PLAYER, WATCH, authorize, group_link
from ..web.i18n import local_currency, money
from ..web.messages import error_text
from ..web.pace import play_pace
from ..web.qr import qr_response
from ..web.spreadsheet import spreadsheet
from . import bp
from .forms import CorrectForm, TournamentForm


@bp.before_request
def check_link():
    """Every route with a link is in ``companion.web.access.PERMISSIONS``."""
    token = (request.view_args or {}).get("token")
    if token is None:
        return None
    link = authorize(token)
    g.tournament, g.role = link.tournament, link.role
    return None


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
        try:
            with transaction():
                tournament = create_tournament(
                    name=form.name.data,
                    players=form.player_names(),
                    preset=form.preset.data,
                    overrides=form.overrides(),
                    settings=form.settings(),
                    group=group,
                )
        except ChinchonError as error:
            form.add_error(error.field.removeprefix("rules."), error_text(error))
        else:
            flash(_("Tournament created. Keep this page's link: it is the organizer's."), "ok")
            return redirect(url_for("tournaments.page", token=tournament.owner_token)), 303
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
def page(token: str):
    if _unchanged():
        return "", 204
    return render_template("tournaments/page.html", **_context(token))


@bp.get("/c/<token>/wall")
def wall(token: str):
    if _unchanged():
        return "", 204
    return render_template("tournaments/wall.html", **_context(token))


@bp.get("/c/<token>/seating")
def seating(token: str):
    """Every round's seating, printable: the tables, and a line per player."""
    return render_template("tournaments/seating.html", **_context(token))


@bp.get("/c/<token>/standings")
def standings(token: str):
    """Every player's line (the dashboard shows the first 20)."""
    if _unchanged():
        return "", 204
    return render_template("tournaments/standings.html", **_context(token))


@bp.get("/c/<token>/tables/<int:table_id>/qr.svg")
def table_qr(token: str, table_id: int):
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
    try:
        with transaction():
            call()
    except StaleError:
        return _refused(token, stale(), 409)
    except ChinchonError as error:
        return _refused(token, error_text(error), 400)
    flash(done, "ok")
    return _back(token)


def stale() -> str:
    return _("Somebody just changed this tournament; here is how it stands now. Nothing was changed.")


def _version() -> int | None:
    return request.form.get("version", type=int)


@bp.post("/c/<token>/rounds", endpoint="start_round")
def start_round_(token: str):
    t = g.tournament
    number = len(t.played_rounds) + 1
    return _write(
        token, lambda: start_round(t, _version(), play_pace()), _("Round %(number)s is seated.", number=number)
    )


@bp.post("/c/<token>/rounds/undo", endpoint="undo_round")
def undo_round_(token: str):
    t = g.tournament
    return _write(token, lambda: undo_round(t, _version()), _("The round's start is undone; its tables are gone."))


@bp.post("/c/<token>/players", endpoint="sign_up")
def sign_up_(token: str):
    t = g.tournament
    name = request.form.get("name") or ""
    return _write(token, lambda: sign_up(t, _version(), name), _("%(name)s is signed up.", name=name.strip()))


@bp.post("/c/<token>/players/withdraw", endpoint="withdraw")
def withdraw_(token: str):
    t = g.tournament
    player = request.form.get("player", type=int)
    names = {p.id: p.name for p in t.players}
    return _write(
        token, lambda: withdraw(t, _version(), player), _("%(name)s has withdrawn.", name=names.get(player, ""))
    )


@bp.post("/c/<token>/tables/close", endpoint="close_table")
def close_table_(token: str):
    t = g.tournament
    if request.form.get("confirm") != "close":
        return _refused(token, _("Tick the box to confirm: the table ends with its standing now."), 400)
    table = request.form.get("table", type=int)
    return _write(token, lambda: close_table(t, _version(), table), _("The table is closed with its standing."))


@bp.route("/c/<token>/tables/<int:table_id>/correct", methods=["GET", "POST"])
def correct(token: str, table_id: int):
    t = g.tournament
    table = _table_of(table_id)
    if t.played_rounds[-1] is not table.round:
        abort(404)  # a table of an earlier round stands as it was
    form = CorrectForm() if request.method == "POST" else CorrectForm(formdata=None, version=t.version)
    error, code = None, 200
    if request.method == "POST":
        error, code = _correct(t, table, form), 400
        if error is None:
            flash(_("Table %(number)s corrected.", number=table.round_table), "ok")
            return _back(token)
        if error == stale():
            code = 409
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


def _correct(t, table: GameTable, form: CorrectForm) -> str | None:
    """The correction stored, or what stopped it."""
    if not form.validate():
        return _("This form has expired. Please send it again.")
    places = {seat: request.form.get(f"place{seat}", type=int) for seat in entrants(table)}
    if sorted(p or 0 for p in places.values()) != list(range(1, len(places) + 1)):
        return error_text(ServiceError("order", "order"))
    order = sorted(places, key=places.__getitem__)
    try:
        with transaction():
            correct_result(t, form.version.data, table.id, order, form.reason.data or "")
    except StaleError:
        return stale()
    except ChinchonError as refused:
        return error_text(refused)
    return None


@bp.post("/c/<token>/delete")
def delete(token: str):
    if request.form.get("confirm") != "delete":
        return _refused(token, _("Tick the box to confirm: the tournament and all its tables are deleted."), 400)
    with transaction():
        delete_tournament(g.tournament)
    flash(_("Tournament deleted."), "ok")
    return redirect(url_for("main.home")), 303


# -- exports ---------------------------------------------------------------------------------------
@bp.get("/c/<token>/export.json")
def export(token: str):
    return Response(
        json.dumps(export_tournament(g.tournament), ensure_ascii=False, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": 'attachment; filename="tournament.json"'},
    )


@bp.get("/c/<token>/standings.csv")
def standings_csv(token: str):
    """The standings, then one row per player and table played."""
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


def status_text(status: str) -> str:
    return {
        "playing": _("playing"),
        "waiting": _("waiting for a result"),
        "disputed": _("disputed"),
        "finished": _("finished"),
    }[status]


@bp.app_template_global()
def tournament_status(status: str) -> str:
    return status_text(status)


@bp.app_template_global()
def minutes_since(when) -> int:
    return max(0, int((now() - when).total_seconds() // 60))
