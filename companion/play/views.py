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

import segno
from flask import Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, FieldList, RadioField, SelectChoice, SelectField

from ..access import authorize
from ..cookies import remember_table
from ..digital import (
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
    rematch_of,
    seat_view,
    the_rematch,
)
from ..extensions import db
from ..forms import MAX_PLAYERS, TableForm, table_problem
from ..group_service import group_for_form, join
from ..messages import error_text
from ..models import Deal, GameTable, Player
from ..rules import ChinchonError
from ..rules.game import Phase, PlayError
from ..scoreboard import StaleError, standing
from ..templating import render_page
from . import bp

KIND_CHOICES = [
    SelectChoice("human", _l("Person")),
    SelectChoice("simple", _l("Computer (easy): keeps its loose points low, closes as soon as it can")),
    SelectChoice("good", _l("Computer (hard): remembers the discards, looks one draw ahead")),
    SelectChoice("expert", _l("Computer (expert): weighs the odds of every unseen card and the match score")),
]

RESHUFFLE_CHOICES = [
    SelectChoice("", _l("Unlimited, as the rulebooks say")),
    SelectChoice("0", _l("Never: the hand is void when the stock runs out")),
    SelectChoice("1", _l("Once, then the hand is void")),
    SelectChoice("2", _l("Twice, then the hand is void")),
    SelectChoice("3", _l("Three times, then the hand is void")),
]


class PlayForm(TableForm):
    kinds = FieldList(
        SelectField(choices=KIND_CHOICES, default="human"), min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS
    )
    mode = RadioField(
        _l("How do you play?"),
        choices=[
            SelectChoice("hotseat", _l("On this phone, passing it round")),
            SelectChoice("devices", _l("Each person on their own phone (a link each)")),
        ],
        default="hotseat",
    )
    max_reshuffles = SelectField(
        _l("Reshuffling the stock"),
        choices=RESHUFFLE_CHOICES,
        default="",
        description=_l("A house rule for hands that go round without anybody closing: nobody scores a void hand."),
    )

    hints = BooleanField(
        _l("Hints: a player may ask for the odds of each move"),
        default=True,
        description=_l("Everybody sees who asked, in the moves and in the history. Turn off for a rated match."),
    )

    def overrides(self) -> dict[str, object]:
        options = super().overrides()
        if self.max_reshuffles.data:
            options["max_reshuffles"] = int(self.max_reshuffles.data)
        return options


@bp.route("/play/new", methods=["GET", "POST"])
def new_game():
    form = PlayForm()
    group = group_for_form(form)
    if request.method == "POST" and form.validate():
        entries = [
            (p.data.strip(), k.data) for p, k in zip(form.players, form.kinds, strict=True) if p.data and p.data.strip()
        ]
        names = [n for n, _k in entries]
        found = table_problem(form, names)
        problem = found[1] if found else None
        if problem is None:
            try:
                table = create_digital_table(
                    name=form.name.data or "",
                    preset=form.preset.data,
                    overrides=form.overrides(),
                    players=entries,
                    mode=form.mode.data,
                    first_dealer=int(form.first_dealer.data),
                    suit_style=form.suit_style.data,
                    hints=bool(form.hints.data),
                )
                join(table, group)
                response = redirect(url_for("play.table", token=table.owner_token))
                return remember_table(response, table.owner_token)
            except ChinchonError as error:
                db.session.rollback()
                problem = error_text(error) if error.code != "error" else error.message
        form.players.errors = [problem]
    return render_template("play/new.html", form=form), 400 if request.method == "POST" else 200


# -- the table's links ------------------------------------------------------------------------
def shared_phone(game_table: GameTable, role: str) -> bool:
    """The owner link is the phone passed round in hot-seat mode."""
    return game_table.play_mode == "hotseat" and role == "owner"


def hotseat_shown(game_table: GameTable, deal: Deal, game, role: str) -> int | None:
    """The cards of the person to move appear only on the shared phone, after
    "I am X" for this very position (a refresh after the next move hides them)."""
    if (
        shared_phone(game_table, role)
        and game.phase != Phase.OVER
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
    advance(game_table, deal)
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
    view = seat_view(game_table, deal, game, shown, current)
    chosen = choices_of(deal)
    result = game.settle(chosen) if game.closer is not None else None
    marker = poll_marker(game_table, deal)
    poll = (
        url_for("play.poll", seat_token=seat_token, v=marker)
        if seat_token
        else url_for("play.table_poll", token=token, v=marker, show=request.args.get("show"))
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
        can_deal=bool(seat_token) or role == "owner",
        arrangement_seats=seats,
        hint=hint_for(game_table, deal, game, shown),
        rematch=rematch,
        rematch_seat=_rematch_seat(rematch, seat_token, game_table),
        owner_rematch=rematch is not None and role == "owner",
    ), status


def _rematch_seat(rematch: GameTable | None, seat_token: str | None, game_table: GameTable) -> str | None:
    """A seat link leads to the same seat's link at the rematch."""
    if rematch is None or seat_token is None:
        return None
    mine = next((p.seat for p in game_table.players if p.seat_token == seat_token), None)
    new = next((p for p in rematch.players if p.seat == mine), None)
    return new.seat_token if new is not None else None


@bp.post("/t/<token>/play")
def table_act(token: str):
    game_table, role, deal = digital(token)
    back = url_for("play.table", token=token)
    action = request.form.get("action", "")
    if role == "owner" and action == "next":
        return _deal_next(game_table, deal, back)
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
        call()
    except StaleError:
        _too_late()
    except (PlayError, ChinchonError) as error:
        db.session.rollback()
        flash(error_text(error), "error")
    return redirect(back), 303


def _deal_next(game_table: GameTable, deal: Deal, back: str):
    version = request.form.get("version", type=int) or 0
    if request.form.get("deal", type=int) != deal.id:
        _too_late()
        return redirect(back), 303
    return _attempt(lambda: deal_next(game_table, deal, version), back)


def _act(game_table: GameTable, deal: Deal, seat: int, back: str, *, arrangement_seats: tuple[int, ...]):
    version = request.form.get("version", type=int) or 0
    action = request.form.get("action", "")
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
        if action == "hint":  # written into the deal, then shown with the cards
            ask_hint(game_table, deal, seat, version)
            return redirect(back + (f"?show={deal.version}" if hotseat else "") + "#hint"), 303
        game = act(game_table, deal, seat, version, action, card)
    except StaleError:
        _too_late()
        return redirect(back), 303
    except PlayError as error:
        db.session.rollback()
        flash(error_text(error), "error")
        return redirect(back + (f"?show={deal.version}" if hotseat else "")), 303
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
    advance(game_table, deal)
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
    if not standing(game_table).state.finished:
        flash(_("The match is still going on."), "error")
        return redirect(back), 303
    new = the_rematch(game_table)
    if new is None:
        if not game_table.bump(request.form.get("table_version", type=int) or 0):
            db.session.rollback()
            new = the_rematch(game_table)
        else:
            db.session.commit()
            new = rematch_of(game_table)
    if new is None:
        _too_late()
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
    if not standing(game_table).state.finished:
        flash(_("The match is still going on."), "error")
        return redirect(url_for("tables.scoreboard", token=token)), 303
    new = the_rematch(game_table) or rematch_of(game_table)
    target = new.owner_token if role == "owner" else new.player_token
    response = redirect(url_for("play.table", token=target))
    remember_table(response, target)
    return response, 303


@bp.get("/s/<seat_token>/qr.svg")
def seat_qr(seat_token: str):
    seat_of_token(seat_token)
    link = url_for("play.seat", seat_token=seat_token, _external=True)
    return Response(
        segno.make(link, error="m").svg_inline(scale=4, dark="#000", light="#fff"), mimetype="image/svg+xml"
    )
