"""Pages of a digital table: hot-seat on one phone, or one link per seat.

Who may do what on a digital table (the links of ``access.py`` plus seats):

- **owner link**: in hot-seat mode it *is* the shared phone: it shows the
  cards of the person to move after "I am X" and plays for them; in
  another-phone mode it sees the board (never a hand), lists every seat's
  link and may deal the next hand.
- **player link**: sees the board, moves and totals, never a hand and never
  a seat link; it cannot play (a table's player link is for scorekeeping and
  may be shared widely).
- **read-only link**: the same as the player link.
- **seat link** (another-phone mode): its own cards only; plays its own
  seat, picks its own arrangement, deals the next hand, starts a rematch.
"""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from wtforms import BooleanField, FieldList, RadioField, SelectField

from ..models import Deal, GameTable, Player
from ..rules import ChinchonError
from ..rules.game import Phase
from ..rules.names import name_key
from ..services.groups import join
from ..services.play import (
    act,
    advance,
    ask_hint,
    choices_of,
    choose_arrangement,
    create_digital_table,
    current_deal,
    deal_next,
    game_of,
    hint_for,
    review_of,
    reviewed,
    void_hand,
)
from ..services.rematch import rematch as make_rematch
from ..services.rematch import the_rematch
from ..services.scoreboard import reenter, standing
from ..services.tournaments import in_round
from ..services.unit import AlreadySaved, StaleError, transaction
from ..web.access import WATCH, authorize, forbid, resolve
from ..web.cookies import remember_table
from ..web.forms import KIND_CHOICES, KIND_SHORT, MAX_PLAYERS, MODE_CHOICES, TableForm, table_problem
from ..web.group_form import group_for_form
from ..web.messages import FormError, error_text
from ..web.pace import play_pace
from ..web.qr import qr_response
from ..web.templating import render_page
from . import bp
from .presenters import review_page, seat_page


class PlayForm(TableForm):
    kinds = FieldList(
        SelectField(choices=KIND_SHORT, default="human"), min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS
    )
    mode = RadioField(
        _l("How do you play?"),
        choices=MODE_CHOICES,
        default="hotseat",
    )
    hints = BooleanField(
        _l("Hints: a player may ask for the odds of each move"),
        default=True,
        description=_l("Everybody sees who asked, in the moves and in the history. Turn off for a rated match."),
    )


@bp.route("/play/new", methods=["GET", "POST"])
def new_game():
    form = PlayForm()
    group = group_for_form(form)
    if request.method == "POST" and form.validate():
        entries = [
            (p.data.strip(), k.data) for p, k in zip(form.players, form.kinds, strict=True) if (p.data or "").strip()
        ]
        problem = seat_problem(form) or table_problem(form, [n for n, _k in entries])
        form.bad_rows = rows_at_fault(form) if problem is not None and problem.field == "players" else set()
        if problem is None:
            try:
                with transaction():
                    table = create_digital_table(
                        name=form.name.data or "",
                        preset=form.preset.data,
                        overrides=form.overrides(),
                        players=entries,
                        mode=form.mode.data,
                        first_dealer=int(form.first_dealer.data),
                        suit_style=form.suit_style.data,
                        hints=bool(form.hints.data),
                        pace=play_pace(),
                    )
                    join(table, group)
            except ChinchonError as error:
                problem = FormError.of(error)
            else:
                response = redirect(url_for("play.table", token=table.owner_token))
                return remember_table(response, table.owner_token)
        target = getattr(form, problem.field, None) or form.players
        target.errors = [*target.errors, problem.message] if isinstance(target.errors, list) else [problem.message]
    return render_template("play/new.html", form=form, kinds=KIND_CHOICES[1:]), 400 if request.method == "POST" else 200


def seat_problem(form: PlayForm) -> FormError | None:
    """A computer seat left without a name is a mistake on the form, not a
    seat to drop: the message names every such row (as the form numbers them)."""
    rows = _nameless_computers(form)
    if not rows:
        return None
    listed = ", ".join(str(n) for n in rows)
    return FormError(
        "players",
        ngettext(
            "Player %(list)s plays for the computer and needs a name.",
            "Players %(list)s play for the computer and need names.",
            len(rows),
            list=listed,
        ),
    )


def rows_at_fault(form: PlayForm) -> set[int]:
    """The rows (from 1) the players' message is about: computers without a
    name, and names given twice (as the engine compares them)."""
    keys = [name_key(_typed(name)) if _typed(name) else None for name, _kind in _rows(form)]
    bad = set(_nameless_computers(form))
    bad |= {n for n, key in enumerate(keys, 1) if key is not None and keys.count(key) > 1}
    return bad


def _nameless_computers(form: PlayForm) -> list[int]:
    """The rows (from 1) of computer players left without a name."""
    return [n for n, (name, kind) in enumerate(_rows(form), 1) if kind.data != "human" and not _typed(name)]


def _rows(form: PlayForm):
    return zip(form.players, form.kinds, strict=True)


def _typed(field) -> str:
    return (field.data or "").strip()


# -- the table's links ------------------------------------------------------------------------
def runs_table(game_table: GameTable, role: str) -> bool:
    """The link that deals and voids hands: the owner's, and at a
    tournament's table its player link (the organizer holds the owner's)."""
    return role == "owner" or (role == "player" and game_table.round_id is not None)


def shared_phone(game_table: GameTable, role: str) -> bool:
    """The phone passed round in hot-seat mode: the link that runs the table."""
    return game_table.play_mode == "hotseat" and runs_table(game_table, role)


def hotseat_shown(game_table: GameTable, deal: Deal, game, role: str) -> int | None:
    """The cards of the person to move appear only on the shared phone, after
    "I am X" for this very position (a refresh after the next move hides them).
    With one person against the computer there is nobody to hide them from:
    that person's cards stay on the phone, their turn or not."""
    if not shared_phone(game_table, role):
        return None
    people = human_seats(game_table, deal)
    if len(people) == 1:
        return people[0]
    if (
        game.phase != Phase.OVER
        and request.args.get("show") == str(deal.version)
        and game_table.players[deal.seats[game.turn]].kind == "human"
    ):
        return game.turn
    return None


def digital(token: str) -> tuple[GameTable, str, Deal]:
    link = authorize(token)
    game_table, role = link.table, link.role
    if game_table.kind != "digital":
        abort(redirect(url_for("tables.scoreboard", token=token)))
    deal = current_deal(game_table)
    if deal is None:
        abort(404)
    return game_table, role, deal


@bp.get("/t/<token>/play")
def table(token: str):
    game_table, role, deal = digital(token)
    game = game_of(game_table, deal)
    return render_play(game_table, deal, game, hotseat_shown(game_table, deal, game, role), token=token, role=role)


@bp.get("/t/<token>/play/poll")
def table_poll(token: str):
    """Live updates: computer players carry on, and ``204`` when nothing changed."""
    game_table, role, deal = digital(token)
    with transaction():
        advance(game_table, deal, play_pace())
    if request.args.get("v") == poll_marker(game_table, deal):
        return "", 204
    game = game_of(game_table, deal)
    return render_play(game_table, deal, game, hotseat_shown(game_table, deal, game, role), token=token, role=role)


def poll_marker(game_table: GameTable, deal: Deal) -> str:
    """What a page shows changes with the deal, its version, and a rematch
    being started once the hand is over."""
    marker = f"{deal.id}.{deal.version}"
    if deal.state.get("phase") == "over" and (new := the_rematch(game_table)) is not None:
        marker += f".r{new.id}"
    return marker


def render_play(
    game_table: GameTable,
    deal: Deal,
    game,
    shown: int | None,
    *,
    token=None,
    seat_token=None,
    role="watch",
    status=200,
):
    current = standing(game_table)
    if seat_token:
        seats = (shown,) if shown is not None else ()
    else:
        seats = human_seats(game_table, deal) if shared_phone(game_table, role) else ()
    view = seat_page(game_table, deal, game, shown, current)
    chosen = choices_of(deal)
    result = game.settle(chosen) if game.closer is not None else None
    marker = poll_marker(game_table, deal)
    poll = (
        url_for("play.poll", seat_token=seat_token, v=marker)
        if seat_token
        else url_for(
            "play.table_poll", token=token, v=marker, show=request.args.get("show"), void=asked_void(game_table, role)
        )
    )
    rematch = the_rematch(game_table) if current.state.finished else None
    return render_page(
        "play/table.html",
        "play/partials/board.html",
        "board",
        table=game_table,
        deal=deal,
        game=game,
        view=view,
        result=result,
        chosen=chosen,
        s=current,
        token=token,
        seat_token=seat_token,
        role=role,
        rules=game_table.rules,
        poll_url=poll,
        can_play=bool(seat_token) or shared_phone(game_table, role),
        pass_phone=shared_phone(game_table, role)
        and game.phase != Phase.OVER
        and shown is None
        and game_table.players[deal.seats[game.turn]].kind == "human",
        can_deal=bool(seat_token) or runs_table(game_table, role),
        arrangement_seats=seats,
        hint=hint_for(game_table, deal, game, shown),
        rematch=rematch,
        rematch_seat=_rematch_seat(rematch, seat_token, game_table),
        owner_rematch=rematch is not None and role == "owner",
        can_void=runs_table(game_table, role) and game.phase != Phase.OVER,
        confirm_void=asked_void(game_table, role) is not None,
        **in_round(game_table, current),
    ), status


def asked_void(game_table: GameTable, role: str) -> str | None:
    """The owner's "void this hand" link leads to its confirmation (``?void=1``)."""
    return "1" if runs_table(game_table, role) and request.args.get("void") == "1" else None


def _rematch_seat(rematch: GameTable | None, seat_token: str | None, game_table: GameTable) -> str | None:
    """A seat link leads to the same seat's link at the rematch."""
    if rematch is None or seat_token is None:
        return None
    mine = next((p.seat for p in game_table.players if p.seat_token == seat_token), None)
    new = next((p for p in rematch.players if p.seat == mine), None)
    return new.seat_token if new is not None else None


def table_phone(token: str) -> tuple[GameTable, str, Deal]:
    """:func:`digital`, for the routes of the phone that runs the table (403 for any other link)."""
    game_table, role, deal = digital(token)
    if not runs_table(game_table, role):
        forbid(resolve(token))
    return game_table, role, deal


@bp.post("/t/<token>/play")
def table_act(token: str):
    game_table, role, deal = table_phone(token)
    back = url_for("play.table", token=token)
    action = request.form.get("action", "")
    if action == "next":
        return _deal_next(game_table, deal, back)
    if action == "void":
        return _void(game_table, back)
    if not shared_phone(game_table, role):
        abort(403)
    game = game_of(game_table, deal)
    return _act(game_table, deal, game.turn, back, arrangement_seats=human_seats(game_table, deal))


def human_seats(game_table: GameTable, deal: Deal) -> tuple[int, ...]:
    """The engine seats people play (the shared phone picks arrangements for them)."""
    return tuple(i for i, s in enumerate(deal.seats) if game_table.players[s].kind == "human")


def _too_late() -> None:
    flash(_("That move came too late: the game had moved on. Here is where it stands."), "error")


def _attempt(call, back: str):
    """Run one of the service's writes; a stale or refused one is said on the
    page it came from (nothing was stored)."""
    try:
        with transaction():
            call()
    except StaleError:
        _too_late()
    except ChinchonError as error:
        flash(error_text(error), "error")
    return redirect(back), 303


def _deal_next(game_table: GameTable, deal: Deal, back: str):
    version = request.form.get("version", type=int) or 0
    if request.form.get("deal", type=int) != deal.id:
        _too_late()
        return redirect(back), 303
    return _attempt(lambda: deal_next(game_table, deal, version, play_pace()), back)


def _void(game_table: GameTable, back: str):
    """The owner voids the hand in play, after the confirmation (nobody scores)."""
    try:
        with transaction():
            void_hand(game_table, request.form.get("deal", type=int), request.form.get("version", type=int))
    except StaleError:
        flash(
            _("The hand had moved on, so nothing was voided. Look again, and void it if the table still agrees."),
            "error",
        )
    except ChinchonError as error:
        flash(error_text(error), "error")
    return redirect(back), 303


def _act(game_table: GameTable, deal: Deal, seat: int, back: str, *, arrangement_seats: tuple[int, ...]):
    version = request.form.get("version", type=int) or 0
    action = request.form.get("action", "")
    if action == "void":  # the owner link's alone (table_act)
        abort(403)
    if action == "next":
        return _deal_next(game_table, deal, back)
    if action == "alt":
        seat_picked = request.form.get("seat", -1, type=int)
        pick = request.form.get("pick", -1, type=int)
        return _attempt(
            lambda: choose_arrangement(game_table, deal, seat_picked, version, pick, allowed=arrangement_seats), back
        )
    hotseat = game_table.play_mode == "hotseat"
    card = request.form.get("card")
    if request.form.get("close"):  # "Close with X face down" names its card
        action, card = "close", request.form["close"]
    try:
        with transaction():
            if action == "hint":  # written into the deal, then shown with the cards
                ask_hint(game_table, deal, seat, version)
            else:
                game = act(game_table, deal, seat, version, action, card, play_pace())
    except StaleError:
        _too_late()
        return redirect(back), 303
    except ChinchonError as error:
        flash(error_text(error), "error")
        return redirect(back + (f"?show={deal.version}" if hotseat else "")), 303
    if action == "hint":
        return redirect(back + (f"?show={deal.version}" if hotseat else "") + "#hint"), 303
    if hotseat and game.phase == Phase.DISCARD and game.turn == seat:
        return redirect(back + f"?show={deal.version}"), 303  # the same player continues: keep the cards shown
    return redirect(back), 303


# -- a phone per seat ------------------------------------------------------------------------
def seat_of_token(seat_token: str) -> tuple[GameTable, Player]:
    link = authorize(seat_token)
    return link.table, link.player  # type: ignore[return-value]


def _engine_seat(deal: Deal, player: Player) -> int | None:
    return deal.seats.index(player.seat) if player.seat in deal.seats else None


@bp.get("/s/<seat_token>")
def seat(seat_token: str):
    game_table, player = seat_of_token(seat_token)
    deal = current_deal(game_table)
    game = game_of(game_table, deal)
    return render_play(game_table, deal, game, _engine_seat(deal, player), seat_token=seat_token)


@bp.get("/s/<seat_token>/poll")
def poll(seat_token: str):
    """Live updates that cost almost nothing when nothing changed: 204.
    Computer players carry on here when a request before left them mid-hand."""
    game_table, player = seat_of_token(seat_token)
    deal = current_deal(game_table)
    with transaction():
        advance(game_table, deal, play_pace())
    if request.args.get("v") == poll_marker(game_table, deal):
        return "", 204
    game = game_of(game_table, deal)
    return render_play(game_table, deal, game, _engine_seat(deal, player), seat_token=seat_token)


@bp.post("/s/<seat_token>")
def seat_act(seat_token: str):
    game_table, player = seat_of_token(seat_token)
    deal = current_deal(game_table)
    mine = _engine_seat(deal, player)
    return _act(
        game_table,
        deal,
        mine if mine is not None else -1,
        url_for("play.seat", seat_token=seat_token),
        arrangement_seats=(mine,) if mine is not None else (),
    )


@bp.post("/s/<seat_token>/rematch")
def seat_rematch(seat_token: str):
    """A finished match's rematch from a seat: the first press creates it
    (claiming the table's version), every press leads to this seat's new link."""
    game_table, player = seat_of_token(seat_token)
    back = url_for("play.seat", seat_token=seat_token)
    new = _rematch(game_table, request.form.get("table_version", type=int))
    if new is None:
        return redirect(back), 303
    target = next((p.seat_token for p in new.players if p.seat == player.seat), None)
    return redirect(url_for("play.seat", seat_token=target) if target else back), 303


@bp.post("/t/<token>/play/rematch")
def rematch(token: str):
    """The rematch of a digital match stays digital, with the same computer
    players; the link it leads to is of the same level as the one that asked."""
    link = authorize(token)
    game_table, role = link.table, link.role
    if game_table.kind != "digital":
        abort(404)
    new = _rematch(game_table, request.form.get("table_version", type=int))
    if new is None:
        return redirect(url_for("play.table", token=token)), 303
    target = new.owner_token if role == "owner" else new.player_token
    response = redirect(url_for("play.table", token=target))
    remember_table(response, target)
    return response, 303


def _rematch(game_table: GameTable, version: int | None) -> GameTable | None:
    """The one rematch of this match (made now, or by an earlier tap), or
    None with the reason flashed."""
    try:
        with transaction():
            return make_rematch(game_table, version, pace=play_pace())
    except StaleError:
        _too_late()
    except ChinchonError as error:
        flash(error_text(error), "error")
    return None


@bp.post("/s/<seat_token>/reentry")
def seat_reentry(seat_token: str):
    """A seat's phone answers "buy back in?" for its own seat (or for a
    computer player, whom everybody at the table may decide for)."""
    game_table, player = seat_of_token(seat_token)
    seat = request.form.get("seat", type=int)
    if seat is not None and seat != player.seat and not _computer(game_table, seat):
        abort(403)
    _decide_reentry(game_table, seat)
    return redirect(url_for("play.seat", seat_token=seat_token)), 303


@bp.post("/t/<token>/play/reentry")
def table_reentry(token: str):
    """The shared phone (or the owner's board) answers "buy back in?"."""
    game_table, _role, _deal = table_phone(token)
    _decide_reentry(game_table, request.form.get("seat", type=int))
    return redirect(url_for("play.table", token=token)), 303


def _computer(game_table: GameTable, seat: int) -> bool:
    return 0 <= seat < len(game_table.players) and game_table.players[seat].kind != "human"


def _decide_reentry(game_table: GameTable, seat: int | None) -> None:
    version = request.form.get("version", type=int)
    submission = (request.form.get("submission") or "")[:40]
    declined = request.form.get("decision") == "no"
    if seat is None or version is None or not submission:
        flash(_("That request was incomplete; nothing was changed."), "error")
        return
    try:
        with transaction():
            reenter(game_table, version, submission, seat, declined=declined)
    except AlreadySaved:
        return
    except StaleError:
        _too_late()
        return
    except ChinchonError as error:
        flash(_("Re-entry refused: %(reason)s", reason=error_text(error)), "error")
        return
    name = game_table.names[seat]
    if declined:
        flash(_("%(name)s stays out.", name=name), "ok")
    else:
        flash(_("%(name)s is back in the game.", name=name), "ok")


@bp.get("/s/<seat_token>/qr.svg")
def seat_qr(seat_token: str):
    seat_of_token(seat_token)
    link = url_for("play.seat", seat_token=seat_token, _external=True)
    return qr_response(link)


# -- the review of a finished hand ------------------------------------------------------
@bp.get("/t/<token>/review/<int:number>")
def review(token: str, number: int):
    """A finished hand with every move face up and the expert's judgement of
    the people's decisions.  A read-only link sees it once the match is over
    (before, the hands could still help somebody at the table)."""
    link = authorize(token)
    game_table = link.table
    if game_table.kind != "digital":
        abort(404)
    back = url_for("play.table", token=token)
    if link.role == WATCH and not standing(game_table).state.finished:
        message = _("A read-only link shows the review of each hand once the match is over.")
        return render_template(
            "error.html", code=403, message=message, back=back, back_label=_("Back to the game")
        ), 403
    return _review(game_table, number, back)


@bp.get("/s/<seat_token>/review/<int:number>")
def seat_review(seat_token: str, number: int):
    game_table, _player = seat_of_token(seat_token)
    return _review(game_table, number, url_for("play.seat", seat_token=seat_token))


def _review(game_table: GameTable, number: int, back: str):
    deal = reviewed(game_table, number)
    if deal is None:
        abort(404)
    try:
        with transaction():
            result = review_of(game_table, deal)
    except ChinchonError as error:
        return render_template(
            "error.html", code=409, message=error_text(error), back=back, back_label=_("Back to the game")
        ), 409
    return render_template("play/review.html", **review_page(game_table, deal, result), back=back)
