"""Pages of a physical table: create, scoreboard, enter/edit a hand, history."""

from __future__ import annotations

import csv
import dataclasses
import io

import segno
from flask import Response, abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..access import load, owned, writable
from ..cookies import remember_table, set_cookie
from ..extensions import db
from ..forms import TableForm, table_problem
from ..i18n import error_text
from ..models import GameTable
from ..rules import ChinchonError, MatchError, get_rules
from ..rules.variants import PRESETS
from ..scoreboard import (
    AlreadySaved,
    StaleError,
    create_table,
    reenter,
    settle,
    standing,
    standing_before,
    store_hand,
    undo_last,
)
from ..templating import render_page
from . import bp
from .charts import totals_chart
from .entry import DISCARD, EntryState, grid_view, read_state, state_of_hand, to_input


# -- creating ------------------------------------------------------------------------
@bp.route("/tables/new", methods=["GET", "POST"])
def new_table():
    form = TableForm()
    recent = [n for n in request.cookies.get("names", "").split("|") if n][:16]
    if request.method == "POST" and form.validate():
        names = form.player_names()
        problem = table_problem(form, names)
        if problem is None:
            table = create_table(
                name=form.name.data or "",
                preset=form.preset.data,
                overrides=form.overrides(),
                players=names,
                first_dealer=int(form.first_dealer.data),
                suit_style=form.suit_style.data,
            )
            response = redirect(url_for("tables.scoreboard", token=table.owner_token))
            remember_table(response, table.owner_token)
            kept = list(dict.fromkeys([*names, *recent]))[:16]
            return set_cookie(response, "names", "|".join(kept), days=365)
        field, message = problem
        target = getattr(form, field, None) or form.players
        target.errors = [*target.errors, message] if isinstance(target.errors, list) else [message]
    status = 400 if request.method == "POST" else 200
    if (
        request.method == "GET"
        and form.suit_style.data == "spanish"
        and request.accept_languages.best_match(["de", "sv"])
    ):
        form.suit_style.data = "french"
    return render_template("tables/new.html", form=form, recent=recent, presets=PRESETS), status


# -- the scoreboard ---------------------------------------------------------------------
@bp.get("/t/<token>")
def scoreboard(token: str):
    table, role = load(token)
    current = standing(table)
    response = make_response(render_template("tables/scoreboard.html", table=table, s=current, token=token, role=role))
    if role != "watch":
        remember_table(response, token)
    return response


@bp.get("/t/<token>/qr.svg")
def qr(token: str):
    table, _role = load(token)
    target = request.args.get("to", "player")
    shared = table.watch_token if target == "watch" else table.player_token
    link = url_for("tables.scoreboard", token=shared, _external=True)
    svg = segno.make(link, error="m").svg_inline(scale=5, dark="#000", light="#fff", omitsize=False)
    return Response(svg, mimetype="image/svg+xml")


@bp.post("/t/<token>/reentry")
def reentry(token: str):
    table, _role = writable(token)
    seat = request.form.get("seat", type=int)
    version = request.form.get("version", type=int)
    submission = (request.form.get("submission") or "")[:40]
    if seat is None or version is None or not submission:
        flash(_("That request was incomplete; nothing was changed."), "error")
        return redirect(url_for("tables.scoreboard", token=token)), 303
    try:
        reenter(table, version, submission, seat)
        flash(_("%(name)s is back in the game.", name=table.names[seat]), "ok")
    except AlreadySaved:
        flash(_("That re-entry was already recorded."), "ok")
    except StaleError:
        flash(
            _("Someone else changed this table a moment ago; here is the current score. Nothing was changed."), "error"
        )
    except MatchError as error:
        db.session.rollback()
        flash(_("Re-entry refused: %(reason)s", reason=reentry_reason(table, seat, error)), "error")
    except ChinchonError:
        db.session.rollback()
        flash(_("Unknown player."), "error")
    return redirect(url_for("tables.scoreboard", token=token)), 303


def reentry_reason(table: GameTable, seat: int, error: MatchError) -> str:
    rules = table.rules
    current = standing(table)
    if current.state.finished:
        return _("the match is over.")
    name = table.names[seat]
    if name not in current.state.out:
        return _("%(name)s is still in the game.", name=name)
    if name not in current.state.just_out:
        return _("a player can only buy back in right after the hand in which they went out.")
    if rules.reentries is not None and current.state.reentries[name] >= rules.reentries:
        return _("%(name)s has used the re-entries these rules allow (%(count)s).", name=name, count=rules.reentries)
    if len(current.state.still_in) < rules.reentry_min_players:
        return _(
            "re-entry needs at least %(count)s players still in; only %(left)s are.",
            count=rules.reentry_min_players,
            left=len(current.state.still_in),
        )
    return error.message


@bp.post("/t/<token>/undo")
def undo(token: str):
    table, _role = writable(token, by_hand=True)
    version = request.form.get("version", type=int)
    try:
        what = undo_last(table, version if version is not None else -1)
        flash(_("Re-entry undone.") if what == "reentry" else _("Last hand undone. It stays in the history."), "ok")
    except StaleError:
        flash(
            _("Someone else changed this table a moment ago; here is the current score. Nothing was undone."), "error"
        )
    except ChinchonError:
        flash(_("There is nothing to undo yet."), "error")
    return redirect(url_for("tables.scoreboard", token=token)), 303


@bp.post("/t/<token>/rematch")
def rematch(token: str):
    table, _role = writable(token)
    current = standing(table)
    if not current.state.finished:
        flash(_("The match is still going on."), "error")
        return redirect(url_for("tables.scoreboard", token=token)), 303
    new = create_table(
        name=table.name,
        preset=table.preset,
        overrides={k: v for k, v in table.overrides.items()},
        players=table.names,
        first_dealer=(table.first_dealer + 1) % len(table.players),
        suit_style=table.suit_style,
        rematch_of=table,
    )
    response = redirect(url_for("tables.scoreboard", token=new.owner_token))
    remember_table(response, new.owner_token)
    return response, 303


# -- entering a hand ------------------------------------------------------------------------
def _entry_page(table, token, current, state, *, error=None, hand_number=None, status=200):
    result = None
    problem = error
    if state.mode == "points" and not state.points and any(state.hands.values()):
        _prefill_points(current, state)
    if state.closer is not None and state.mode == "cards":
        result, missing = preview(current, state)
        problem = problem or missing
    context = dict(
        table=table,
        token=token,
        s=current,
        state=state,
        result=result,
        problem=problem,
        grid_view=grid_view(state, current, table.suit_style),
        order=state.order(current),
        DISCARD=DISCARD,
        hand_number=hand_number or current.next_number,
        editing=hand_number is not None,
    )
    return render_page("tables/hand.html", "tables/partials/verdict.html", "verdict", **context), status


def _prefill_points(current, state: EntryState) -> None:
    """Switching from cards to points keeps what the cards already say."""
    result, _missing = preview(current, dataclasses.replace(state, mode="cards"))
    if result is not None and result.legal:
        state.points = {seat: str(r.points) for seat, r in zip(current.seats_in, result.results, strict=True)}
        state.chinchon = result.chinchon


def preview(current, state: EntryState):
    """The engine's verdict so far, or the first thing still missing."""
    try:
        data = to_input(state, current)
    except ChinchonError as error:
        return None, error
    try:
        return settle(current, data), None
    except ChinchonError as error:
        return None, error


def _save(table, token, current, state, *, replaces=None):
    # A hand sent again by the phone's offline queue (offline.js) reads the
    # outcome as JSON instead of following a redirect.
    queued = request.headers.get("X-Chinchon-Queue") == "1"
    try:
        data = to_input(state, current)
        hand = store_hand(table, state.version, state.submission, data, replaces=replaces)
    except AlreadySaved:
        if queued:
            return _queue_answer(table, "stored")
        flash(_("This hand was already saved."), "ok")
        return redirect(url_for("tables.scoreboard", token=token)), 303
    except StaleError:
        if queued:
            return _queue_answer(table, "stale")
        flash(
            _(
                "Someone else saved a change to this table meanwhile. Check the score below, then enter the hand again if it is missing."
            ),
            "error",
        )
        return redirect(url_for("tables.scoreboard", token=token)), 303
    except ChinchonError as error:
        db.session.rollback()
        if queued:
            return _queue_answer(table, "refused", error=error_text(error), field=error.field)
        return _entry_page(
            table, token, current, state, error=error, hand_number=replaces.number if replaces else None, status=400
        )
    if queued:
        return _queue_answer(table, "stored")
    if replaces is not None:
        flash(_("Hand %(number)s corrected; every later total was recomputed.", number=hand.number), "ok")
    else:
        flash(_("Hand %(number)s saved.", number=hand.number), "ok")
    return redirect(url_for("tables.scoreboard", token=token)), 303


def _queue_answer(table, status: str, **extra):
    """The outcome for the offline queue (``stored``, ``stale`` or ``refused``:
    the request itself went well, so 200), the table's version now, and the
    last hand stored (shown beside a pending hand that met a newer version)."""
    current = standing(table)
    names = table.names
    last = None
    if current.rows:
        row = current.rows[-1]
        last = {
            "number": row.hand.number,
            "closer": names[row.hand.closer_seat],
            "points": [[names[seat], points] for seat, points in sorted(row.points.items())],
        }
    answer = {"status": status, "version": table.version, "next_number": current.next_number, "last": last}
    return {**answer, **extra}


@bp.route("/t/<token>/hands/new", methods=["GET", "POST"])
def new_hand(token: str):
    table, _role = writable(token, by_hand=True)
    current = standing(table)
    if current.state.finished:
        if request.headers.get("X-Chinchon-Queue") == "1":
            return _queue_answer(table, "refused", error=_("The match is over."), field="closer")
        flash(_("The match is over."), "error")
        return redirect(url_for("tables.scoreboard", token=token)), 303
    if request.method == "GET":
        state = EntryState(version=table.version)
        return _entry_page(table, token, current, state)
    state = read_state(request.form, current)
    if request.form.get("action") == "save":
        return _save(table, token, current, state)
    return _entry_page(table, token, current, state)


@bp.route("/t/<token>/hands/<int:number>/edit", methods=["GET", "POST"])
def edit_hand(token: str, number: int):
    table, _role = writable(token, by_hand=True)
    hand = next((h for h in table.active_hands() if h.number == number), None)
    if hand is None:
        abort(404)
    before = standing_before(table, hand)
    if request.method == "GET":
        state = state_of_hand(hand, before)
        state.version = table.version
        return _entry_page(table, token, before, state, hand_number=number)
    state = read_state(request.form, before)
    if request.form.get("action") == "save":
        return _save(table, token, before, state, replaces=hand)
    return _entry_page(table, token, before, state, hand_number=number)


# -- history ---------------------------------------------------------------------------------
@bp.get("/t/<token>/history")
def history(token: str):
    table, role = load(token)
    current = standing(table)
    chart = totals_chart(table, current)
    return render_template("tables/history.html", table=table, s=current, token=token, role=role, chart=chart)


@bp.get("/t/<token>/history.csv")
def history_csv(token: str):
    table, _role = load(token)
    current = standing(table)
    out = io.StringIO()
    writer = csv.writer(out)
    names = table.names
    writer.writerow(
        [_("Hand"), _("Closer"), *[f"{n} ({_('points')})" for n in names], *[f"{n} ({_('total')})" for n in names]]
    )
    for row in current.rows:
        writer.writerow(
            [
                row.hand.number,
                names[row.hand.closer_seat],
                *[row.points.get(s, "") for s in range(len(names))],
                *[row.totals[s] for s in range(len(names))],
            ]
        )
    filename = f"chinchon-{table.created_at:%Y%m%d-%H%M}.csv"
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


# -- the owner's link: change the rules, delete the table --------------------------------------
@bp.route("/t/<token>/settings", methods=["GET", "POST"])
def settings(token: str):
    table = owned(token)
    error = None
    if request.method == "POST":
        version = request.form.get("version", type=int)
        options = dict(table.overrides)
        try:
            target = int(request.form.get("target", ""))
        except ValueError:
            target = 0
        reentries = request.form.get("reentries", "")
        options["target"] = target
        if reentries == "unlimited":
            options["reentries"] = None
        elif reentries.isdigit():
            options["reentries"] = int(reentries)
        name = request.form.get("name", "").strip()[:80]
        try:
            get_rules(table.preset, **options)
            old = table.overrides
            table.overrides = options
            try:
                standing(table)  # the whole match must still replay under the new rules
            except MatchError as exc:
                table.overrides = old
                raise ChinchonError(
                    _("With these rules the hands already played no longer fit (%(reason)s).", reason=exc.message),
                    "target",
                ) from None
            table.name = name
            if version is None or not table.bump(version):
                db.session.rollback()
                flash(
                    _("Someone else changed this table a moment ago; here is the current score. Nothing was changed."),
                    "error",
                )
                return redirect(url_for("tables.scoreboard", token=token)), 303
            db.session.commit()
            flash(_("Rules updated; every total was recomputed."), "ok")
            return redirect(url_for("tables.scoreboard", token=token)), 303
        except ChinchonError as exc:
            db.session.rollback()
            error = error_text(exc) if exc.code != "error" else exc.message
    return render_template("tables/settings.html", table=table, token=token, error=error), 400 if error else 200


@bp.post("/t/<token>/delete")
def delete_table(token: str):
    table = owned(token)
    if request.form.get("confirm") != "delete":
        flash(_("Tick the box to confirm deleting the table."), "error")
        return redirect(url_for("tables.settings", token=token)), 303
    db.session.delete(table)
    db.session.commit()
    flash(_("The table was deleted."), "ok")
    return redirect(url_for("main.home")), 303
