"""Pages of a physical table: create, scoreboard, enter/edit a hand, history."""

from __future__ import annotations

import dataclasses

from flask import Response, abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..extensions import db
from ..rules import ChinchonError
from ..rules.close import possible_closer_scores
from ..rules.errors import CountError
from ..rules.variants import PRESETS
from ..services.groups import join
from ..services.play import hints_by_number
from ..services.rematch import rematch as make_rematch
from ..services.scoreboard import (
    HandRow,
    change_settings,
    create_table,
    reenter,
    restorable_hand,
    restore_hand,
    standing,
    standing_before,
    store_hand,
    store_mixed_hand,
    undo_last,
    verify_next_hand,
)
from ..services.scoreboard import (
    delete_table as delete_table_record,
)
from ..services.tournaments import confirm_result as confirm_result_
from ..services.tournaments import dispute_result as dispute_result_
from ..services.tournaments import in_round
from ..services.unit import AlreadySaved, ServiceError, StaleError, transaction
from ..web.access import OWNER, PLAYER, WATCH, authorize, by_hand
from ..web.cookies import remember_table, set_cookie
from ..web.forms import SettingsForm, TableForm, table_problem
from ..web.group_form import group_for_form
from ..web.house_rules import signed
from ..web.messages import FormError, error_text, stale_text
from ..web.qr import qr_response
from ..web.rules_text import table_rules_line
from ..web.templating import render_page
from . import bp
from .charts import totals_chart
from .entry import (
    DISCARD,
    EntryState,
    count_problem,
    entry_points,
    grid_view,
    judge,
    read_state,
    state_of_hand,
    to_input,
)
from .record import history_csv as history_file
from .record import mark_text


# -- creating ------------------------------------------------------------------------
@bp.route("/tables/new", methods=["GET", "POST"])
def new_table():
    form = TableForm()
    group = group_for_form(form)
    recent = [n for n in request.cookies.get("names", "").split("|") if n][:16]
    if request.method == "POST" and form.validate():
        names = form.player_names()
        problem = table_problem(form, names)
        if problem is None:
            with transaction():
                table = create_table(
                    name=form.name.data or "",
                    preset=form.preset.data,
                    overrides=form.overrides(),
                    players=names,
                    first_dealer=int(form.first_dealer.data),
                    suit_style=form.suit_style.data,
                )
                join(table, group)
            response = redirect(url_for("tables.scoreboard", token=table.owner_token))
            remember_table(response, table.owner_token)
            kept = list(dict.fromkeys([*names, *recent]))[:16]
            return set_cookie(response, "names", "|".join(kept), days=365)
        target = getattr(form, problem.field, None) or form.players
        target.errors = [*target.errors, problem.message] if isinstance(target.errors, list) else [problem.message]
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
    link = authorize(token)
    table, role = link.table, link.role
    if request.args.get("since", type=int) == table.version:
        return "", 204  # a poll: nothing changed since the page was drawn
    response = make_response(_scoreboard_page(table, token, role))
    if role != "watch":
        remember_table(response, token)
    return response


def _scoreboard_page(table, token: str, role: str, error: str | None = None) -> str:
    current = standing(table)
    return render_template(
        "tables/scoreboard.html",
        table=table,
        s=current,
        token=token,
        role=role,
        restorable=restorable_hand(table, current) if role != "watch" else None,
        rules_text=table_rules_line(table),
        **in_round(table, current),
        error=error,
    )


# -- a tournament table's result ------------------------------------------------------------
def _say_result(token: str, call, done: str):
    link = authorize(token)
    table = link.table
    if table.round_id is None:
        abort(404)
    seat = request.form.get("seat", type=int)
    try:
        with transaction():
            call(table, request.form.get("version", type=int), seat)
    except StaleError:
        return _scoreboard_page(table, token, link.role, stale_text()), 409
    except ChinchonError as error:
        return _scoreboard_page(table, token, link.role, error_text(error)), 400
    flash(done, "ok")
    return redirect(url_for("tables.scoreboard", token=token)), 303


@bp.post("/t/<token>/result/confirm")
def confirm_result(token: str):
    """A player at the table confirms its result, on the phone that entered it."""
    return _say_result(token, confirm_result_, _("Result confirmed: the tournament has it."))


@bp.post("/t/<token>/result/dispute")
def dispute_result(token: str):
    reason = request.form.get("reason") or ""
    return _say_result(
        token,
        lambda table, version, seat: dispute_result_(table, version, seat, reason),
        _("The organizer is told the result is disputed."),
    )


@bp.get("/t/<token>/qr.svg")
def qr(token: str):
    """A QR code of a link at this link's level or below (``to=player|watch``)."""
    link = authorize(token)
    default = WATCH if link.role == WATCH else PLAYER
    target = request.args.get("to", default)
    if target not in (PLAYER, WATCH):
        abort(404)
    url = url_for("tables.scoreboard", token=link.token_for(target), _external=True)
    return qr_response(url)


@bp.post("/t/<token>/reentry")
def reentry(token: str):
    table = authorize(token).table
    seat = request.form.get("seat", type=int)
    version = request.form.get("version", type=int)
    submission = (request.form.get("submission") or "")[:40]
    if seat is None or version is None or not submission:
        flash(_("That request was incomplete; nothing was changed."), "error")
        return redirect(url_for("tables.scoreboard", token=token)), 303
    declined = request.form.get("decision") == "no"
    try:
        with transaction():
            reenter(table, version, submission, seat, declined=declined)
        if declined:
            flash(_("%(name)s stays out.", name=table.names[seat]), "ok")
        else:
            flash(_("%(name)s is back in the game.", name=table.names[seat]), "ok")
    except AlreadySaved:
        flash(_("That re-entry was already recorded."), "ok")
    except StaleError:
        flash(stale_text(), "error")
    except ChinchonError as error:
        flash(_("Re-entry refused: %(reason)s", reason=error_text(error)), "error")
    if request.form.get("back") == "hand":
        return redirect(url_for("tables.new_hand", token=token)), 303
    return redirect(url_for("tables.scoreboard", token=token)), 303


@bp.post("/t/<token>/undo")
def undo(token: str):
    table = by_hand(authorize(token))
    version = request.form.get("version", type=int)
    try:
        with transaction():
            what = undo_last(table, version)
        if what == "reentry":
            flash(_("Re-entry undone."), "ok")
        elif what == "declined":
            flash(_("Undone: the question of buying back in is open again."), "ok")
    except StaleError:
        flash(stale_text(), "error")
    except ChinchonError as error:
        flash(error_text(error), "error")
    return redirect(url_for("tables.scoreboard", token=token)), 303


@bp.post("/t/<token>/restore")
def restore(token: str):
    table = by_hand(authorize(token))
    version = request.form.get("version", type=int)
    number = request.form.get("number", type=int)
    try:
        with transaction():
            hand = restore_hand(table, version, number)
        flash(_("Hand %(number)s restored.", number=hand.number), "ok")
    except StaleError:
        flash(stale_text(), "error")
    except ChinchonError as error:
        flash(error_text(error), "error")
    return redirect(url_for("tables.scoreboard", token=token)), 303


@bp.post("/t/<token>/rematch")
def rematch(token: str):
    link = authorize(token)
    table = link.table
    if table.kind == "digital":  # stays digital, with its computer players: the play blueprint makes it
        return redirect(url_for("play.rematch", token=token), 307)
    try:
        with transaction():
            new = make_rematch(table, request.form.get("version", type=int))
    except StaleError:
        flash(stale_text(), "error")
        return redirect(url_for("tables.scoreboard", token=token)), 303
    except ChinchonError as error:
        flash(error_text(error), "error")
        return redirect(url_for("tables.scoreboard", token=token)), 303
    # A link never leads to a higher one: the player link's rematch opens with the player link.
    opened = new.owner_token if link.role == OWNER else new.player_token
    response = redirect(url_for("tables.scoreboard", token=opened))
    remember_table(response, opened)
    return response, 303


# -- entering a hand ------------------------------------------------------------------------
def _entry_page(table, token, current, state, *, error=None, hand_number=None, status=200, other=None):
    result = None
    problem = error
    if state.closer is not None and state.mode == "cards":
        result, missing = preview(current, state)
        problem = problem or missing
    if isinstance(problem, ChinchonError):
        problem = FormError.of(problem)
    context = dict(
        table=table,
        token=token,
        s=current,
        state=state,
        result=result,
        problem=problem,
        grid_view=grid_view(state, current, table.suit_style),
        order=state.order(current),
        closer_scores=sorted(possible_closer_scores(current.rules)),
        DISCARD=DISCARD,
        hand_number=hand_number or current.next_number,
        editing=hand_number is not None,
        other=other,
    )
    return render_page("tables/hand.html", "tables/partials/verdict.html", "verdict", **context), status


def preview(current, state: EntryState):
    """The engine's verdict so far (a :class:`Judged`), or the first thing still missing."""
    try:
        data = to_input(state, current)
        if state.mode == "points":
            return None, None
        judged = judge(state, current, data)
        return judged, (judged.missing[0] if judged and judged.legal and judged.missing else None)
    except CountError as error:
        return None, count_problem(error, state, current)
    except ChinchonError as error:
        return None, ChinchonError(error_text(error), error.field)  # engine errors in the page's language


def _store(table, current, state: EntryState, replaces):
    """Store the form's hand: every player by cards (the engine settles it
    all), by points, or some by cards and the others by points."""
    data = to_input(state, current)
    others = [s for s in current.seats_in if s != state.closer]
    table.entry_mode = "cards" if any(state.hands.get(s) for s in others) else "points"  # stored with the hand
    judged = judge(state, current, data) if state.mode == "cards" else None
    if judged is None:
        data = to_input(dataclasses.replace(state, mode="points"), current)
        return store_hand(table, state.version, state.submission, data, replaces=replaces)
    if judged.all_cards:
        return store_hand(table, state.version, state.submission, data, replaces=replaces)
    if judged.legal and judged.missing:
        raise judged.missing[0]
    if not judged.legal:
        raise ServiceError("cannot_close", "closer", name=table.names[state.closer], why=judged.verdict.why)
    data.points = dict(judged.points)
    data.chinchon = judged.chinchon
    data.mode = "points"
    return store_mixed_hand(
        table, state.version, state.submission, data, judged.seats, judged.result, replaces=replaces
    )


@dataclasses.dataclass(frozen=True)
class KeptEntry:
    """The hand another phone saved first (a scoreboard row) beside this
    phone's entry (points by seat, empty while incomplete); ``same``: the
    same closer and the same points, a duplicate."""

    other: HandRow
    mine: dict[int, int]
    closer: int | None
    same: bool

    @property
    def seats(self) -> list[int]:
        return sorted({*self.other.points, *self.mine})


def _kept_entry(table, token, state: EntryState):
    """Another phone saved first: show what it saved next to this phone's
    entry, which is kept (not thrown away) to be saved as the next hand or
    dropped; when both are the same hand, only dropping it is offered."""
    db.session.refresh(table)
    fresh = standing(table)
    if fresh.state.finished:
        flash(_("The match is over."), "error")
        return redirect(url_for("tables.scoreboard", token=token)), 303
    other = fresh.rows[-1] if fresh.rows else None
    kept = None
    if other is not None:
        mine = entry_points(standing_before(table, other.hand), state)
        kept = KeptEntry(
            other=other,
            mine=mine or {},
            closer=state.closer,
            same=mine == other.points and state.closer == other.hand.closer_seat,
        )
    state.version = table.version
    if state.closer not in fresh.seats_in:
        state.closer = None
    return _entry_page(table, token, fresh, state, status=409, other=kept)


def _save(table, token, current, state, *, replaces=None):
    # A hand sent again by the phone's offline queue (offline.js) reads the
    # outcome as JSON instead of following a redirect.
    queued = request.headers.get("X-Chinchon-Queue") == "1"
    try:
        with transaction():
            try:
                hand = _store(table, current, state, replaces)
            except CountError as error:
                raise count_problem(error, state, current) from None
    except AlreadySaved:
        if queued:
            return _queue_answer(table, "stored")
        flash(_("This hand was already saved."), "ok")
        return redirect(url_for("tables.scoreboard", token=token)), 303
    except StaleError:
        if queued:
            return _queue_answer(table, "stale")
        if replaces is None:
            return _kept_entry(table, token, state)
        flash(
            _(
                "Someone else saved a change to this table meanwhile. Check the score below, then enter the hand again if it is missing."
            ),
            "error",
        )
        return redirect(url_for("tables.scoreboard", token=token)), 303
    except ChinchonError as error:
        if queued:
            return _queue_answer(table, "refused", error=error_text(error), field=error.field)
        return _entry_page(
            table,
            token,
            current,
            state,
            error=error,
            hand_number=replaces.number if replaces else None,
            status=400,
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
    table = by_hand(authorize(token))
    current = standing(table)
    if current.state.finished:
        if request.headers.get("X-Chinchon-Queue") == "1":
            return _queue_answer(table, "refused", error=_("The match is over."), field="closer")
        flash(_("The match is over."), "error")
        return redirect(url_for("tables.scoreboard", token=token)), 303
    if request.method == "GET":
        try:
            verify_next_hand(table, current)
        except ServiceError as refused:  # a tournament's table closed or played out: no grid to tap in vain
            if refused.params["key"] in ("table_closed", "result_final", "hand_limit"):
                flash(error_text(refused), "error")
                return redirect(url_for("tables.scoreboard", token=token)), 303
        closer = request.args.get("closer", type=int)  # picked on the scoreboard: one tap less
        state = EntryState(version=table.version, closer=closer if closer in current.seats_in else None)
        state.active = str(state.closer) if state.closer is not None else ""
        return _entry_page(table, token, current, state)
    state = read_state(request.form, current)
    if request.form.get("action") == "save":
        return _save(table, token, current, state)
    return _entry_page(table, token, current, state)


@bp.route("/t/<token>/hands/<int:number>/edit", methods=["GET", "POST"])
def edit_hand(token: str, number: int):
    table = by_hand(authorize(token))
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
    link = authorize(token)
    table, role = link.table, link.role
    current = standing(table)
    chart = totals_chart(table, current)
    hints = hints_by_number(table) if table.kind == "digital" else {}
    marks = {row.hand.number: mark_text(row) for row in current.rows}
    all_combined = signed(current.rules.all_combined_bonus)
    currency = table.group.currency if table.group else None
    return render_template(
        "tables/history.html",
        table=table,
        s=current,
        token=token,
        role=role,
        chart=chart,
        hints=hints,
        marks=marks,
        all_combined=all_combined,
        currency=currency,
    )


@bp.get("/t/<token>/history.csv")
def history_csv(token: str):
    table = authorize(token).table
    filename = f"chinchon-{table.created_at:%Y%m%d-%H%M}.csv"
    return Response(
        history_file(standing(table)),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


# -- the owner's link: change the rules, delete the table --------------------------------------
@bp.route("/t/<token>/settings", methods=["GET", "POST"])
def settings(token: str):
    table = authorize(token).table
    form = SettingsForm.for_table(table, submitted=request.method == "POST")
    if request.method == "POST" and form.validate():
        try:
            with transaction():
                change_settings(table, form.version.data, form.name.data or "", form.overrides())
        except StaleError:
            flash(stale_text(), "error")
            return redirect(url_for("tables.scoreboard", token=token)), 303
        except ChinchonError as error:
            problem = FormError.of(error)
            target = getattr(form, problem.field.removeprefix("rules."), None) or form.target
            target.errors = [*target.errors, problem.message]
        else:
            flash(_("Rules updated; every total was recomputed."), "ok")
            return redirect(url_for("tables.scoreboard", token=token)), 303
    status = 400 if request.method == "POST" else 200
    rules_text = table_rules_line(table)
    return render_template("tables/settings.html", table=table, token=token, form=form, rules_text=rules_text), status


@bp.post("/t/<token>/delete")
def delete_table(token: str):
    table = authorize(token).table
    if request.form.get("confirm") != "delete":
        flash(_("Tick the box to confirm deleting the table."), "error")
        return redirect(url_for("tables.settings", token=token)), 303
    with transaction():
        delete_table_record(table)
    flash(_("The table was deleted."), "ok")
    return redirect(url_for("main.home")), 303
