"""Pages of a digital table: hot-seat on one phone, or one link per seat."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import FieldList, RadioField, SelectChoice, SelectField

from ..access import authorize
from ..cookies import remember_table
from ..extensions import db
from ..forms import MAX_PLAYERS, TableForm, table_problem
from ..group_service import group_for_form, join
from ..i18n import error_text
from ..models import Deal, GameTable, Player
from ..rules import ChinchonError
from ..rules.game import Phase, PlayError
from ..scoreboard import StaleError, standing
from ..templating import render_page
from . import bp
from .service import (
    act,
    choices_of,
    choose_arrangement,
    create_digital_table,
    current_deal,
    game_of,
    seat_view,
    start_deal,
)

KIND_CHOICES = [
    SelectChoice("human", _l("Person")),
    SelectChoice("good", _l("Computer (good)")),
    SelectChoice("simple", _l("Computer (simple)")),
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
                )
                join(table, group)
                response = redirect(url_for("play.table", token=table.owner_token))
                return remember_table(response, table.owner_token)
            except ChinchonError as error:
                db.session.rollback()
                problem = error_text(error) if error.code != "error" else error.message
        form.players.errors = [problem]
    return render_template("play/new.html", form=form), 400 if request.method == "POST" else 200


# -- one phone passed round ----------------------------------------------------------------
@bp.get("/t/<token>/play")
def table(token: str):
    link = authorize(token)
    game_table, role = link.table, link.role
    if game_table.kind != "digital":
        return redirect(url_for("tables.scoreboard", token=token))
    deal = current_deal(game_table)
    if deal is None:
        abort(404)
    game = game_of(game_table, deal)
    shown = None
    # The cards of the player to move appear only after "I am X" for this very
    # position (a refresh after the next move does not show them again).
    if role != "watch" and game_table.play_mode == "hotseat" and request.args.get("show") == str(deal.version):
        shown = game.turn
    return render_play(game_table, deal, game, shown, token=token, role=role)


def render_play(
    game_table: GameTable, deal: Deal, game, shown, *, token=None, seat_token=None, role="player", status=200
):
    current = standing(game_table)
    view = seat_view(game_table, deal, game, shown)
    chosen = choices_of(deal)
    result = game.settle(chosen) if game.closer is not None else None
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
        is_human_turn=game_table.players[deal.seats[game.turn]].kind == "human",
    ), status


@bp.post("/t/<token>/play")
def table_act(token: str):
    link = authorize(token)
    game_table, role = link.table, link.role
    if role == "watch" or game_table.kind != "digital" or game_table.play_mode != "hotseat":
        abort(403)
    return _act(game_table, lambda deal, game: game.turn, url_for("play.table", token=token))


def _act(game_table: GameTable, seat_of, back: str):
    deal = current_deal(game_table)
    if deal is None:
        abort(404)
    version = request.form.get("version", type=int) or 0
    action = request.form.get("action", "")
    if action == "next":
        game = game_of(game_table, deal)
        if game.phase != Phase.OVER or deal.version != version:
            flash(_("This hand is still being played."), "error")
        elif standing(game_table).state.finished:
            flash(_("The match is over."), "error")
        else:
            start_deal(game_table)
        return redirect(back), 303
    game = game_of(game_table, deal)
    if action == "alt":
        try:
            choose_arrangement(
                game_table, deal, request.form.get("seat", -1, type=int), version, request.form.get("pick", 0, type=int)
            )
        except StaleError:
            flash(_("That move came too late: the game had moved on. Here is where it stands."), "error")
        except (PlayError, ChinchonError) as error:
            db.session.rollback()
            flash(play_error_text(error) if isinstance(error, PlayError) else error.message, "error")
        return redirect(back), 303
    seat = seat_of(deal, game)
    try:
        game = act(game_table, deal, seat, version, action, request.form.get("card"))
    except StaleError:
        flash(_("That move came too late: the game had moved on. Here is where it stands."), "error")
        return redirect(back), 303
    except PlayError as error:
        db.session.rollback()
        flash(play_error_text(error), "error")
        target = back + (f"?show={deal.version}" if "?" not in back and game_table.play_mode == "hotseat" else "")
        return redirect(target), 303
    if game_table.play_mode == "hotseat" and game.phase == Phase.DISCARD and game.turn == seat:
        return redirect(back + f"?show={deal.version}"), 303  # the same player continues: keep the cards shown
    return redirect(back), 303


def play_error_text(error: PlayError) -> str:
    from ..i18n import reason_text

    why = error.params.get("why")
    if why is not None:
        return _("You cannot close: %(reason)s", reason=reason_text(why))
    match error.params.get("key"):
        case "source":
            return _("Draw from the stock or from the discard pile.")
        case "empty_pile":
            return _("The discard pile is empty; draw from the stock.")
        case "not_held":
            return _("That card is not in your hand.")
        case "over":
            return _("This hand is over.")
        case "seat":
            return _("That seat is not yours to play.")
        case "turn":
            return _("It is not your turn.")
        case "drawn":
            return _("You have drawn already: discard or close.")
        case "draw_first":
            return _("Draw first.")
        case "not_closed":
            return _("Nobody has closed yet.")
    return error.message


# -- a phone per seat ------------------------------------------------------------------------
def seat_of_token(seat_token: str) -> tuple[GameTable, Player]:
    link = authorize(seat_token)
    return link.table, link.player  # type: ignore[return-value]


@bp.get("/s/<seat_token>")
def seat(seat_token: str):
    game_table, player = seat_of_token(seat_token)
    deal = current_deal(game_table)
    game = game_of(game_table, deal)
    engine_seat = deal.seats.index(player.seat) if player.seat in deal.seats else None
    return render_play(game_table, deal, game, engine_seat, seat_token=seat_token)


@bp.get("/s/<seat_token>/poll")
def poll(seat_token: str):
    """Live updates that cost almost nothing when nothing changed: 204."""
    game_table, player = seat_of_token(seat_token)
    deal = current_deal(game_table)
    if request.args.get("v") == f"{deal.id}.{deal.version}":
        return "", 204
    game = game_of(game_table, deal)
    engine_seat = deal.seats.index(player.seat) if player.seat in deal.seats else None
    return render_play(game_table, deal, game, engine_seat, seat_token=seat_token)


@bp.post("/s/<seat_token>")
def seat_act(seat_token: str):
    game_table, player = seat_of_token(seat_token)
    return _act(
        game_table,
        lambda deal, game: deal.seats.index(player.seat) if player.seat in deal.seats else -1,
        url_for("play.seat", seat_token=seat_token),
    )


@bp.get("/s/<seat_token>/qr.svg")
def seat_qr(seat_token: str):
    import segno
    from flask import Response

    seat_of_token(seat_token)
    link = url_for("play.seat", seat_token=seat_token, _external=True)
    return Response(
        segno.make(link, error="m").svg_inline(scale=4, dark="#000", light="#fff"), mimetype="image/svg+xml"
    )
