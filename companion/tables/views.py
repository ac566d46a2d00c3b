"""Pages of a table: create, scoreboard, enter/correct a hand, history, settings.

Each route that takes a link declares who may use it (``web.access.allow``);
each write is one service call through the write pipeline (``web.writes``);
what may happen next is ``services.nextstep``'s to say.
"""

from __future__ import annotations

import dataclasses

from flask import Response, abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from ..extensions import db
from ..models import EntryMode, GameTable, TableKind
from ..rules import ChinchonError
from ..rules.close import possible_closer_scores
from ..rules.variants import PRESETS
from ..services import hands as hand_service
from ..services import tables as table_service
from ..services import undo as undo_service
from ..services.groups import join
from ..services.hands import LastHand, SavedHand
from ..services.nextstep import can_rematch, next_step
from ..services.play import hints_by_number
from ..services.rematch import rematch as make_rematch
from ..services.rematch import the_rematch
from ..services.standing import HandRow, Standing, standing, standing_before
from ..services.statistics import chances_before
from ..services.tournaments import confirm_result as confirm_result_
from ..services.tournaments import dispute_result as dispute_result_
from ..services.tournaments import in_round
from ..web.access import OWNER, OWNER_ONLY, PLAYER, READ, SEAT_ONLY, WATCH, WRITE, Link, Role, allow
from ..web.client import QUEUE_HEADER, QUEUED, QueueAnswer, QueueStatus
from ..web.client import LastHand as LastHandJSON
from ..web.cookies import remember_table, set_cookie
from ..web.forms import SettingsForm, TableForm, table_problem
from ..web.group_form import group_for_form
from ..web.house_rules import signed
from ..web.i18n import listed
from ..web.messages import FormError, Replayed, Unconfirmed, error_text, unconfirmed_text
from ..web.qr import qr_response
from ..web.reentry import decide_reentry, offers
from ..web.rules_text import table_rules_line
from ..web.templating import render_page
from ..web.writes import Refused, Why, attempt, write
from . import bp
from .charts import totals_chart
from .entry import DISCARD, EntryState, grid_view, read_state, state_of_hand
from .record import history_csv as history_file
from .record import mark_text

BY_HAND = WRITE.of(TableKind.PHYSICAL)  # a digital table's hands come from play


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
            made = attempt(lambda: _create(form, names, group), replayed=Replayed.TABLE)
            if isinstance(made, Refused) and made.made:
                made.flash()  # the form sent again (Back, then Create): the table it made
                return _created(made.made, names, recent), 303
            if not isinstance(made, Refused):
                return _created(made, names, recent)
            problem = FormError(made.field or "players", made.message)
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


def _create(form: TableForm, names: list[str], group) -> str:
    table = table_service.create_table(
        name=form.name.data or "",
        preset=form.preset.data,
        overrides=form.overrides(),
        players=names,
        first_dealer=int(form.first_dealer.data),
        suit_style=form.suit_style.data,
        submission=form.submission.data,
    )
    join(table, group)
    return table.owner_token


def _created(token: str, names: list[str], recent: list[str]) -> Response:
    """To the new table's scoreboard, remembering the table and the names typed."""
    response = redirect(url_for("tables.scoreboard", token=token))
    remember_table(response, token)
    kept = list(dict.fromkeys([*names, *recent]))[:16]
    return set_cookie(response, "names", "|".join(kept), days=365)


# -- the scoreboard ---------------------------------------------------------------------
@bp.get("/t/<token>")
@allow(READ)
def scoreboard(link: Link):
    table = link.table
    if request.args.get("since", type=int) == table.version:
        return "", 204  # a poll: nothing changed since the page was drawn
    response = make_response(_scoreboard_page(link))
    if link.role is not WATCH:
        remember_table(response, link.token)
    return response


@bp.get("/s/<seat_token>/scoreboard")
@allow(SEAT_ONLY.of(TableKind.DIGITAL))
def seat_scoreboard(link: Link):
    """A seat's phone looks at the scoreboard: read only (a seat link leads to
    no higher link), and back to its own cards."""
    table = link.table
    if request.args.get("since", type=int) == table.version:
        return "", 204  # a poll: nothing changed since the page was drawn
    watching = Link(table, WATCH, table.watch_token)
    poll = url_for("tables.seat_scoreboard", seat_token=link.token, since=table.version)
    return _scoreboard_page(watching, game_url=url_for("play.seat", seat_token=link.token), poll_url=poll)


def _scoreboard_page(
    link: Link, error: str | None = None, game_url: str | None = None, poll_url: str | None = None
) -> str:
    table = link.table
    current = standing(table)
    step = next_step(table, current)
    return render_template(
        "tables/scoreboard.html",
        game_url=game_url,
        poll_url=poll_url or url_for("tables.scoreboard", token=link.token, since=table.version),
        table=table,
        s=current,
        step=step,
        token=link.token,
        read_only=link.role is WATCH,
        offers=offers(step, link),
        can_rematch=link.may("tables.rematch") and can_rematch(table, current),
        rematch_token=_rematch_token(table, link.role) if current.state.finished else None,
        can_undo=link.may("tables.undo") and table.kind is TableKind.PHYSICAL and undo_service.can_undo(table, current),
        restorable=undo_service.restorable_hand(table, current) if link.may("tables.restore") else None,
        may_enter=link.may("tables.new_hand") and step.can_take_hand,
        rules_text=table_rules_line(table),
        chances=chances_before(table, len(current.rows)),
        **in_round(table, current),
        error=error,
    )


# -- a tournament table's result ------------------------------------------------------------
def _say_result(link: Link, call, done: str):
    table = link.table
    if table.round_id is None:
        abort(404)
    seat = request.form.get("seat", type=int)
    outcome = attempt(lambda: call(table, request.form.get("version", type=int), seat))
    if isinstance(outcome, Refused):
        db.session.refresh(table)
        return _scoreboard_page(link, outcome.message), outcome.status
    flash(done, "ok")
    return redirect(url_for("tables.scoreboard", token=link.token)), 303


@bp.post("/t/<token>/result/confirm")
@allow(WRITE)
def confirm_result(link: Link):
    """A player at the table confirms its result, on the phone that entered it."""
    return _say_result(link, confirm_result_, _("Result confirmed: the tournament has it."))


@bp.post("/t/<token>/result/dispute")
@allow(WRITE)
def dispute_result(link: Link):
    reason = request.form.get("reason") or ""
    return _say_result(
        link,
        lambda table, version, seat: dispute_result_(table, version, seat, reason),
        _("The organizer is told the result is disputed."),
    )


@bp.get("/t/<token>/qr.svg")
@allow(READ)
def qr(link: Link):
    """A QR code of a link at this link's level or below (``to=player|watch``)."""
    default = WATCH if link.role is WATCH else PLAYER
    target = request.args.get("to", default)
    if target not in (PLAYER, WATCH):
        abort(404)
    url = url_for("tables.scoreboard", token=link.token_for(Role(target)), _external=True)
    return qr_response(url)


@bp.post("/t/<token>/reentry")
@allow(WRITE)
def reentry(link: Link):
    table = link.table
    back = url_for("tables.new_hand" if request.form.get("back") == "hand" else "tables.scoreboard", token=link.token)
    return decide_reentry(table, link, back)


@bp.post("/t/<token>/undo")
@allow(BY_HAND)
def undo(link: Link):
    def said(what: undo_service.Undone) -> str | None:
        if what is undo_service.Undone.REENTRY:
            return _("Re-entry undone.")
        if what is undo_service.Undone.DECLINED:
            return _("Undone: the question of buying back in is open again.")
        return None

    version = request.form.get("version", type=int)
    return write(
        lambda: undo_service.undo_last(link.table, version), url_for("tables.scoreboard", token=link.token), said
    )


@bp.post("/t/<token>/restore")
@allow(BY_HAND)
def restore(link: Link):
    version = request.form.get("version", type=int)
    number = request.form.get("number", type=int)
    return write(
        lambda: undo_service.restore_hand(link.table, version, number),
        url_for("tables.scoreboard", token=link.token),
        lambda restored: _("Hand %(number)s restored.", number=restored),
    )


@bp.post("/t/<token>/rematch")
@allow(WRITE)
def rematch(link: Link):
    table = link.table
    if table.kind is TableKind.DIGITAL:  # stays digital, with its computer players: the play blueprint makes it
        return redirect(url_for("play.rematch", token=link.token), 307)
    # A link never leads to a higher one: the player link's rematch opens with the player link.
    role = link.role
    made = attempt(lambda: _opened(make_rematch(table, request.form.get("version", type=int)), role))
    if isinstance(made, Refused):
        made.flash()
        return redirect(url_for("tables.scoreboard", token=link.token)), 303
    response = redirect(url_for("tables.scoreboard", token=made))
    remember_table(response, made)
    return response, 303


def _opened(new: GameTable, role: str) -> str:
    return new.owner_token if role == OWNER else new.player_token


def _rematch_token(table: GameTable, role: Role) -> str | None:
    """The rematch already made of a finished match, behind the same kind of
    link as this one (never a higher one)."""
    made = the_rematch(table)
    if made is None:
        return None
    return made.watch_token if role is WATCH else _opened(made, role)


# -- entering a hand ------------------------------------------------------------------------
def numbers_text(numbers) -> str:
    """Hand numbers as a table says them: "7", "7 and 8", "7–9"."""
    numbers = list(numbers)
    if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}–{numbers[-1]}"
    return listed([str(n) for n in numbers])


def _field_key(field: str) -> str:
    """Where a refusal's field is on the hand page: ``closer``, a player's
    cards (``h2``), the discard (``hd``) or a player's points (``p2``)."""
    kind, seat = hand_service.field_seat(field)
    return {"hands": f"h{seat}", "points": f"p{seat}", "discard": "hd"}.get(kind, "closer")


def _entry_page(
    link: Link,
    current: Standing,
    state: EntryState,
    *,
    error: ChinchonError | None = None,
    number=None,
    status=200,
    other=None,
):
    """The hand page.  A refused save (``error``, with every other problem
    found at once in ``error.also``) lists each at the top of the page and
    again at its field; its first player's cards are the grid shown."""
    table = link.table
    result = problem = None
    entry = state.entry()
    if state.closer is not None and state.mode is EntryMode.CARDS:
        shown = hand_service.preview(current, entry)
        result = shown.judgement
        problem = FormError.of(shown.problem) if shown.problem is not None else None
    refused = [FormError.of(e) for e in (error, *error.also)] if error is not None else []

    def anchor(field: str) -> str:  # the closer's points are their score's choices ("cs")
        key = _field_key(field)
        return "cs" if key == f"p{state.closer}" else key

    at_field: dict[str, str] = {}
    for found in refused:
        at_field.setdefault(anchor(found.field), found.message)

    def whose(found: FormError) -> str:  # the player a refusal is about, where its words do not name them
        _kind, seat = hand_service.field_seat(found.field)
        name = table.names[seat] if seat is not None and seat < len(table.names) else ""
        return "" if name in found.message else name

    lines = [(anchor(found.field), whose(found), found.message) for found in refused]
    first_cards = next((key[1:] for key in at_field if key.startswith("h") and key[1:].isdecimal()), None)
    if first_cards is not None:
        state.active = first_cards
    step = next_step(table, current) if number is None else None
    # A correction: the hands after it, and who bought back in after it (a new hand has neither).
    later = [h.number for h in table.active_hands() if h.number > number] if number is not None else []
    bought_after = (
        [table.names[r.seat] for r in table.active_reentries() if r.after_hand >= number and not r.declined]
        if number is not None
        else []
    )
    misdrawn = hand_service.misdrawn(current, entry)
    context = dict(
        table=table,
        token=link.token,
        s=current,
        state=state,
        result=result,
        problem=None if refused else problem,
        refused=lines,
        at_field=at_field,
        anchor=anchor,
        misdrawn=misdrawn,
        # ✓ in the summary: a hand Save would store as it stands (a mis-draw not yet confirmed is asked first).
        savable=result is not None and result.complete and all(seat in state.misdraws for seat, _n in misdrawn),
        later=later,
        bought_after=listed(bought_after),
        bought_count=len(bought_after),
        later_text=numbers_text(later),
        drop_offered=error is not None and error.params.get("key") == "later_hand",
        grid_view=grid_view(state, current, table.suit_style),
        order=state.order(current),
        closer_scores=sorted(possible_closer_scores(current.rules)),
        DISCARD=DISCARD,
        hand_number=number or current.next_number,
        editing=number is not None,
        other=other,
        step=step,
        offers=offers(step, link) if step is not None else [],
    )
    return render_page("tables/hand.html", "tables/partials/verdict.html", "verdict", **context), status


@dataclasses.dataclass(frozen=True)
class KeptEntry:
    """What another phone did first, beside this phone's entry: saved a hand
    (``other``, a scoreboard row, with this entry's points by seat, empty
    while incomplete; ``same``: the same closer and points, a duplicate), or
    undid one (``undone``: its number), or changed something else."""

    other: HandRow | None = None
    mine: dict[int, int] = dataclasses.field(default_factory=dict)
    closer: int | None = None
    same: bool = False
    undone: int | None = None

    @property
    def saved(self) -> bool:
        return self.other is not None

    @property
    def seats(self) -> list[int]:
        return sorted({*(self.other.points if self.other else {}), *self.mine})


def _kept_entry(link: Link, state: EntryState):
    """Another phone wrote first: this phone's entry is kept (never thrown
    away) beside what happened.  It saved a hand: shown next to the entry,
    to save as the next hand or drop (only dropping when both are the same
    hand); it undid one, or changed something else: said so."""
    table = link.table
    db.session.refresh(table)
    fresh = standing(table)
    step = next_step(table, fresh)
    if step.played_out:
        flash(error_text(step.error("closer")), "error")
        return redirect(url_for("tables.scoreboard", token=link.token)), 303
    shown = state.number or fresh.next_number  # an older page does not say: as if a hand was saved
    other = fresh.rows[-1] if fresh.rows else None
    if fresh.next_number < shown:
        kept = KeptEntry(undone=fresh.next_number)
    elif (fresh.next_number == shown and state.number is not None) or other is None:
        kept = KeptEntry()
    else:
        mine = hand_service.entry_points(standing_before(table, other.hand), state.entry())
        kept = KeptEntry(
            other=other,
            mine=mine or {},
            closer=state.closer,
            same=mine == other.points and state.closer == other.hand.closer_seat,
        )
    state.version = table.version
    if state.closer not in fresh.seats_in:
        state.closer = None
    return _entry_page(link, fresh, state, status=409, other=kept)


def _save(link: Link, current: Standing, state: EntryState, *, replaces=None, drop_later: bool = False):
    """Judge and store the form's hand in one service call.  A hand sent
    again by the phone's offline queue (offline.js) reads the outcome as JSON
    instead of following a redirect."""
    table = link.table
    queued = request.headers.get(QUEUE_HEADER) == QUEUED
    entry = state.entry()
    saved = attempt(
        lambda: hand_service.save_hand(
            table, state.version, state.submission, entry, replaces=replaces, drop_later=drop_later
        ),
        replayed=Replayed.HAND,
    )
    if isinstance(saved, Refused):
        if queued:
            return _queue_answer(table, saved)
        if saved.why is Why.REPLAYED:
            saved.flash()
            return redirect(url_for("tables.scoreboard", token=link.token)), 303
        if saved.why is Why.STALE and replaces is None:
            return _kept_entry(link, state)
        if saved.why is Why.STALE:
            saved.flash()
            return redirect(url_for("tables.scoreboard", token=link.token)), 303
        return _entry_page(
            link, current, state, error=saved.error, number=replaces.number if replaces else None, status=400
        )
    if queued:
        return _stored_answer(saved)
    if saved.unbought:
        flash(
            ngettext(
                "%(names)s's buy-back was undone: the corrected hands no longer put them out.",
                "The buy-backs of %(names)s were undone: the corrected hands no longer put them out.",
                len(saved.unbought),
                names=listed(saved.unbought),
            ),
            "ok",
        )
    if saved.dropped:
        flash(
            ngettext(
                "Hand %(number)s corrected; hand %(later)s was undone and kept: restore it or enter it again.",
                "Hand %(number)s corrected; hands %(later)s were undone and kept: restore them or enter them again.",
                len(saved.dropped),
                number=saved.number,
                later=numbers_text(saved.dropped),
            ),
            "ok",
        )
    elif saved.corrected:
        flash(_("Hand %(number)s corrected; every later total was recomputed.", number=saved.number), "ok")
    else:
        flash(_("Hand %(number)s saved.", number=saved.number), "ok")
    return redirect(url_for("tables.scoreboard", token=link.token)), 303


def _stored_answer(saved: SavedHand) -> QueueAnswer:
    """A queued hand stored now: the answer is the service's, read before the commit."""
    return {
        "status": QueueStatus.STORED,
        "version": saved.version,
        "next_number": saved.next_number,
        "last": _last_hand(saved.last),
    }


def _queue_answer(table: GameTable, refused: Refused) -> QueueAnswer:
    """The outcome for the offline queue of a hand not stored now (``stored``
    before, ``stale`` or ``refused``: the request itself went well, so 200),
    the table's version now, and the last hand stored (shown beside a pending
    hand that met a newer version)."""
    db.session.refresh(table)
    current = standing(table)
    answer: QueueAnswer = {
        "status": QueueStatus.STORED,
        "version": table.version,
        "next_number": current.next_number,
        "last": _last_hand(LastHand.of(current)),
    }
    if refused.why is Why.STALE:
        answer["status"] = QueueStatus.STALE
    elif not refused.harmless:
        # Every mistake at once, as the page says them (the queue shows the reason in one line).
        said = [refused.message, *(error_text(e) for e in (refused.error.also if refused.error else ()))]
        answer["status"], answer["error"], answer["field"] = QueueStatus.REFUSED, " ".join(said), refused.field
    return answer


def _last_hand(last: LastHand | None) -> LastHandJSON | None:
    if last is None:
        return None
    return {"number": last.number, "closer": last.closer, "points": [[name, p] for name, p in last.points]}


@bp.route("/t/<token>/hands/new", methods=["GET", "POST"])
@allow(BY_HAND)
def new_hand(link: Link):
    table = link.table
    current = standing(table)
    step = next_step(table, current)
    saving = request.method == "POST" and request.form.get("action") == "save"
    if (step.played_out or step.closed) and not saving:  # nothing left to enter: no grid to tap in vain
        flash(error_text(step.error("closer")), "error")
        return redirect(url_for("tables.scoreboard", token=link.token)), 303
    if request.method == "GET":
        again = _undone_hand(table, request.args.get("again", type=int))
        if again is not None:  # an undone hand entered again: its values, for the players still in
            state = state_of_hand(again, table.version)
            state.keep_only(current.seats_in)
            return _entry_page(link, current, state)
        closer = request.args.get("closer", type=int)  # picked on the scoreboard: one tap less
        state = EntryState(version=table.version, closer=closer if closer in current.seats_in else None)
        state.active = str(state.closer) if state.closer is not None else ""
        return _entry_page(link, current, state)
    state = read_state(request.form, current)
    if saving:
        return _save(link, current, state)
    return _entry_page(link, current, state)


def _undone_hand(table: GameTable, number: int | None):
    """The hand of this number undone last (not one a correction replaced), or None."""
    undone = [h for h in table.hands if h.number == number and h.undone_at is not None and h.replaced_by_id is None]
    return max(undone, key=lambda h: (h.undone_at, h.id), default=None)


@bp.route("/t/<token>/hands/<int:number>/edit", methods=["GET", "POST"])
@allow(BY_HAND)
def edit_hand(link: Link, number: int):
    table = link.table
    hand = next((h for h in table.active_hands() if h.number == number), None)
    if hand is None:
        abort(404)
    before = standing_before(table, hand)
    if request.method == "GET":
        return _entry_page(link, before, state_of_hand(hand, table.version), number=number)
    state = read_state(request.form, before)
    if request.form.get("action") in ("save", "save_drop"):
        return _save(link, before, state, replaces=hand, drop_later=request.form.get("action") == "save_drop")
    return _entry_page(link, before, state, number=number)


# -- history ---------------------------------------------------------------------------------
@bp.get("/t/<token>/history")
@allow(READ)
def history(link: Link):
    table = link.table
    current = standing(table)
    digital = table.kind is TableKind.DIGITAL
    return render_template(
        "tables/history.html",
        table=table,
        s=current,
        token=link.token,
        read_only=link.role is WATCH,
        may_correct=link.may("tables.edit_hand") and not digital,
        may_review=digital and (link.role is not WATCH or current.state.finished),
        digital=digital,
        chart=totals_chart(table, current),
        hints=hints_by_number(table) if digital else {},
        marks={row.hand.number: mark_text(row) for row in current.rows},
        all_combined=signed(current.rules.all_combined_bonus),
        currency=table.group.currency if table.group else None,
    )


@bp.get("/t/<token>/history.csv")
@allow(READ)
def history_csv(link: Link):
    table = link.table
    filename = f"chinchon-{table.created_at:%Y%m%d-%H%M}.csv"
    return Response(
        history_file(standing(table)),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


# -- the owner's link: change the rules, delete the table --------------------------------------
@bp.route("/t/<token>/settings", methods=["GET", "POST"])
@allow(OWNER_ONLY)
def settings(link: Link):
    table = link.table
    form = SettingsForm.for_table(table, submitted=request.method == "POST")
    renamable = table.round_id is None  # a tournament's tables keep the names the organizer seated
    typed = [request.form.get(f"players-{p.seat}", p.name) for p in table.players]  # as sent, else as they are
    names_error = None
    if request.method == "POST" and form.validate():
        version, name, overrides = form.version.data, form.name.data or "", form.overrides()
        clock = form.clock.data if "clock" in form else None
        names = typed if renamable else None
        changed = attempt(lambda: table_service.change_settings(table, version, name, overrides, clock, names))
        if not isinstance(changed, Refused):
            flash(_("Settings saved; every total was recomputed.") if changed else _("Settings saved."), "ok")
            return redirect(url_for("tables.scoreboard", token=link.token)), 303
        if changed.why is Why.STALE:
            changed.flash()
            return redirect(url_for("tables.scoreboard", token=link.token)), 303
        if changed.field == "players":
            names_error = changed.message
        else:
            target = getattr(form, changed.field.removeprefix("rules."), None) or form.target
            target.errors = [*target.errors, changed.message]
    status = 400 if request.method == "POST" else 200
    rules_text = table_rules_line(table)
    return render_template(
        "tables/settings.html",
        table=table,
        token=link.token,
        form=form,
        rules_text=rules_text,
        renamable=renamable,
        typed_names=typed,
        names_error=names_error,
    ), status


@bp.post("/t/<token>/delete")
@allow(OWNER_ONLY)
def delete_table(link: Link):
    if request.form.get("confirm") != "delete":
        flash(unconfirmed_text(Unconfirmed.DELETE_TABLE), "error")
        return redirect(url_for("tables.settings", token=link.token)), 303
    table = link.table
    return write(lambda: table_service.delete_table(table), url_for("main.home"), _("The table was deleted."))
