"""Pages of a digital table: hot-seat on one phone, or one link per seat.

Who may do what on a digital table (``web.access``: each route declares it):

- **the table's phone** (the owner link; at a tournament's table its player
  link, the organizer keeping the owner link): in hot-seat mode it *is* the
  shared phone: it shows the cards of the person to move after "I am X" and
  plays for them; in another-phone mode it sees the board (never a hand),
  lists every seat's link (the owner link) and may deal the next hand.
- **player link** (elsewhere) and **read-only link**: the board, moves and
  totals, never a hand or a seat link; they cannot play.
- **seat link** (another-phone mode): its own cards only; plays its own
  seat, picks its own arrangement, deals the next hand, starts a rematch.

What may happen next (deal, buy back in) is ``services.nextstep``'s to say.
"""

from __future__ import annotations

from flask import abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from wtforms import BooleanField, FieldList, RadioField, SelectField

from ..models import Deal, GameTable, PlayerKind, PlayMode, TableKind, TurnClock
from ..rules.game import HandGame, Phase
from ..rules.names import name_key
from ..services import seats
from ..services.groups import join
from ..services.nextstep import answers_for, next_step, redealer
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
    hand_seat_over,
    hint_for,
    phone_seen,
    review_of,
    reviewed,
    turn_time,
    untouched_deal,
    void_hand,
)
from ..services.proofs import seal_of
from ..services.rematch import rematch as make_rematch
from ..services.rematch import the_rematch
from ..services.standing import standing
from ..services.tournaments import in_round
from ..web.access import OWNER, OWNER_ONLY, READ, SEAT_ONLY, TABLE_PHONE, WATCH, WRITE, Link, allow
from ..web.cookies import holds_table_link, phone_id, remember_table
from ..web.forms import KIND_CHOICES, KIND_SHORT, MAX_PLAYERS, MODE_CHOICES, ClockField, TableForm, table_problem
from ..web.group_form import group_for_form
from ..web.messages import FormError, Replayed, Stale, error_text, review_waits_text
from ..web.pace import play_pace
from ..web.qr import qr_response
from ..web.reentry import decide_reentry, offers
from ..web.templating import render_page
from ..web.writes import Refused, Why, attempt, write
from . import bp
from .presenters import review_page, seat_page
from .proofs import proof_url

GAME_READ = READ.of(TableKind.DIGITAL)
GAME_PHONE = TABLE_PHONE.of(TableKind.DIGITAL)


class PlayForm(TableForm):
    kinds = FieldList(
        SelectField(choices=KIND_SHORT, default=PlayerKind.HUMAN.value),
        min_entries=MAX_PLAYERS,
        max_entries=MAX_PLAYERS,
    )
    mode = RadioField(
        _l("How do you play?"),
        choices=MODE_CHOICES,
        default=PlayMode.HOTSEAT.value,
    )
    hints = BooleanField(
        _l("Hints: a player may ask for the odds of each move"),
        default=True,
        description=_l("Everybody sees who asked, in the moves and in the history. Turn off for a rated match."),
    )
    clock = ClockField()


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
            made = attempt(lambda: _create(form, entries, group), replayed=Replayed.TABLE)
            if isinstance(made, Refused) and made.made:
                made.flash()  # the form sent again (Back, then Start): the game it started
                return remember_table(redirect(url_for("play.table", token=made.made), 303), made.made)
            if not isinstance(made, Refused):
                response = redirect(url_for("play.table", token=made))
                return remember_table(response, made)
            problem = FormError(made.field, made.message)
        target = getattr(form, problem.field, None) or form.players
        target.errors = [*target.errors, problem.message] if isinstance(target.errors, list) else [problem.message]
    return render_template("play/new.html", form=form, kinds=KIND_CHOICES[1:]), 400 if request.method == "POST" else 200


def _create(form: PlayForm, entries: list[tuple[str, str]], group) -> str:
    table = create_digital_table(
        name=form.name.data or "",
        preset=form.preset.data,
        overrides=form.overrides(),
        players=entries,
        mode=form.mode.data,
        first_dealer=int(form.first_dealer.data),
        suit_style=form.suit_style.data,
        hints=bool(form.hints.data),
        clock=form.clock.data,
        pace=play_pace(),
        submission=form.submission.data,
    )
    join(table, group)
    return table.owner_token


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
    return [n for n, (name, kind) in enumerate(_rows(form), 1) if kind.data != PlayerKind.HUMAN and not _typed(name)]


def _rows(form: PlayForm):
    return zip(form.players, form.kinds, strict=True)


def _typed(field) -> str:
    return (field.data or "").strip()


# -- what a link sees --------------------------------------------------------------------------
def the_deal(link: Link) -> Deal:
    deal = current_deal(link.table)
    if deal is None:
        abort(404)
    return deal


def shared_phone(link: Link) -> bool:
    """The phone passed round in hot-seat mode: the link that runs the table."""
    return link.table.play_mode is PlayMode.HOTSEAT and link.may("play.table_act")


def human_seats(game_table: GameTable, deal: Deal) -> tuple[int, ...]:
    """The engine seats people play (the shared phone picks arrangements for them)."""
    return tuple(i for i, s in enumerate(deal.seats) if not game_table.players[s].kind.computer)


def shown_seat(link: Link, deal: Deal, game: HandGame) -> int | None:
    """Whose cards this page shows: a seat link its own; on the shared phone
    the person to move, after "I am X" for this very position (a refresh
    after the next move hides them), or with one person against the
    computer that person, their turn or not (nobody to hide them from)."""
    table = link.table
    if link.player is not None:
        return deal.seats.index(link.player.seat) if link.player.seat in deal.seats else None
    if not shared_phone(link):
        return None
    people = human_seats(table, deal)
    if len(people) == 1:
        return people[0]
    if (
        game.phase != Phase.OVER
        and request.args.get("show") == str(deal.version)
        and not table.players[deal.seats[game.turn]].kind.computer
    ):
        return game.turn
    return None


def poll_marker(game_table: GameTable, deal: Deal) -> str:
    """What every phone's page shows changes with the deal, its version, the
    table's version (a buy-back, new settings, a rematch made, a seat handed
    to the computer) and, on a phone each, who is here (``seats``)."""
    marker = f"{deal.id}.{deal.version}.{game_table.version}"
    if game_table.play_mode is PlayMode.DEVICES:
        marker += "." + seats.presence_marker(game_table)
    return marker


def _seen(link: Link) -> None:
    """A seat's own link asked: its phone is here (``seats``; written every few seconds at most)."""
    player = link.player
    if player is None:
        return
    phone = phone_id()
    if seats.seen_due(player, phone=phone):
        attempt(lambda: phone_seen(link.table, player, phone))


def _as_owner(link: Link) -> bool:
    """The table's owner: its owner link, or a seat's link on the phone that
    holds the owner link too (the creator on their own seat)."""
    if link.role is OWNER:
        return True
    return link.player is not None and holds_table_link(link.table.owner_token)


def render_play(link: Link, deal: Deal, status: int = 200):
    """The board as ``link`` sees it, with every decision made for it here
    (the template gets booleans)."""
    table = link.table
    game = game_of(table, deal)
    current = standing(table)
    step = next_step(table, current, deal)
    shown = shown_seat(link, deal, game)
    seat_token = link.token if link.player is not None else None
    token = None if seat_token else link.token
    hotseat = shared_phone(link)
    arranged = ((shown,) if shown is not None else ()) if seat_token else (human_seats(table, deal) if hotseat else ())
    view = seat_page(table, deal, game, shown, step)
    chosen = choices_of(deal)
    runs = link.may("play.table_act")
    rematch = the_rematch(table) if current.state.finished else None
    over = game.phase == Phase.OVER
    shown_time, mover = turn_time(table, deal, game), table.players[deal.seats[game.turn]]
    seal = seal_of(deal)
    return render_page(
        "play/table.html",
        "play/partials/board.html",
        "board",
        table=table,
        deal=deal,
        game=game,
        view=view,
        result=game.settle(chosen) if game.closer is not None else None,
        chosen=chosen,
        s=current,
        step=step,
        token=token,
        seat_token=seat_token,
        rules=table.rules,
        poll_url=_poll_url(link, deal),
        read_only=link.role is WATCH,
        can_play=bool(seat_token) or hotseat,
        pass_phone=hotseat and not over and shown is None and not table.players[deal.seats[game.turn]].kind.computer,
        can_deal=over and step.may_deal(link.asker),
        offers=offers(step, link) if over else [],
        arrangement_seats=arranged,
        hint=hint_for(table, deal, game, shown),
        turn_time=shown_time,
        clock_waits=shown_time is None
        and deal.clock is not TurnClock.OFF
        and not over
        and not mover.played_by_computer,
        review_url=_review_url(link, deal, current.state.finished),
        seal=seal,
        proof_url=proof_url(link, deal, seal.ordinal) if seal.checkable else None,
        rematch=rematch,
        may_rematch=current.state.finished and table.round_id is None and link.role is not WATCH,
        rematch_url=_rematch_url(link, rematch),
        list_seats=table.play_mode is PlayMode.DEVICES and link.role is OWNER,
        can_void=runs and not over,
        confirm_void=asked_void(link) is not None,
        untouched=untouched_deal(deal, game),
        redealer=_redealer(table, current, deal, game) if runs and not over else None,
        owner_url=url_for("play.table", token=table.owner_token) if seat_token and _as_owner(link) else None,
        open_twice=link.player is not None and seats.open_twice(link.player),
        **_who_plays(link, deal, step),
        **_my_exit(link, current, step),
        away_out=_away_out(table, current) if over else [],
        **in_round(table, current),
    ), status


def _redealer(table: GameTable, current, deal: Deal, game: HandGame) -> str:
    """Who deals again once the hand in play is stopped: the same dealer when nobody has moved yet."""
    return table.names[deal.seats[game.dealer] if untouched_deal(deal, game) else redealer(current, deal)]


def _my_exit(link: Link, current, step) -> dict:
    """A seat's own phone, its player out of the match: with how many points
    and, when the rules refuse a buy-back, why (a question open is shown as
    on every phone)."""
    player = link.player
    if player is None or current.state.finished or not current.is_out(player.seat):
        return {"my_out": None, "my_refusal": None}
    seat = player.seat
    refused = current.reentry_refusal(seat)
    key = refused.params.get("key") if refused is not None else None
    why = error_text(refused) if key in ("no_reentry", "reentries_used", "min_players") else None
    asked = seat in step.pending_seats
    return {"my_out": current.total(seat), "my_refusal": None if asked or seat in current.declined else why}


def _away_out(table: GameTable, current) -> list[str]:
    """Who stays out because their phone was away when asked to buy back in (after the last hand)."""
    return [table.names[r.seat] for r in table.active_reentries() if r.away and r.after_hand == current.last_number]


def _who_plays(link: Link, deal: Deal, step) -> dict:
    """On a phone each: who is here, and which seats this link may hand to
    the computer or take back (the decisions are ``seats``'s)."""
    table = link.table
    if table.play_mode is not PlayMode.DEVICES:
        return {"presence": [], "hand_over": set(), "take_back": set(), "seats_url": None, "my_seat": None}
    owner = _as_owner(link)
    asker = link.asker
    shown = seats.presence(table, deal, step)
    mine = link.player.seat if link.player is not None else None
    hand_over = {p.seat for p in shown if seats.can_hand_over(table, p.seat, asker, owner=owner, deal=deal, step=step)}
    take_back = {p.seat for p in shown if seats.can_take_back(table, p.seat, asker, owner=owner)}
    if link.player is not None:
        url = url_for("play.seat_seats", seat_token=link.token)
    elif link.may("play.table_seats"):
        url = url_for("play.table_seats", token=link.token)
    else:
        url, hand_over, take_back = None, set(), set()
    return {"presence": shown, "hand_over": hand_over, "take_back": take_back, "seats_url": url, "my_seat": mine}


def _poll_url(link: Link, deal: Deal) -> str:
    """Where this page polls, with the marker of what it shows (and, on the
    shared phone, whose cards it shows and whether it asks to void)."""
    marker = poll_marker(link.table, deal)
    if link.player is not None:
        return url_for("play.poll", seat_token=link.token, v=marker)
    show = request.args.get("show")
    return url_for("play.table_poll", token=link.token, v=marker, show=show, void=asked_void(link))


def _review_url(link: Link, deal: Deal, finished: bool) -> str | None:
    """The finished hand's review: a read-only link sees it once the match is over."""
    if deal.called_off:
        return None
    if link.player is not None:
        return url_for("play.seat_review", seat_token=link.token, number=deal.number)
    if link.role is WATCH and not finished:
        return None
    return url_for("play.review", token=link.token, number=deal.number)


def _rematch_url(link: Link, rematch: GameTable | None) -> str | None:
    """The rematch already made, at this link's level (a seat's link leads to the same seat)."""
    if rematch is None:
        return None
    if link.player is not None:
        new = next((p for p in rematch.players if p.seat == link.player.seat), None)
        return url_for("play.seat", seat_token=new.seat_token) if new is not None and new.seat_token else None
    if link.role is WATCH:
        return None
    return url_for("play.table", token=rematch.owner_token if link.role is OWNER else rematch.player_token)


def asked_void(link: Link) -> str | None:
    """The table phone's "void this hand" link leads to its confirmation (``?void=1``)."""
    return "1" if link.may("play.table_act") and request.args.get("void") == "1" else None


def _advance(link: Link, deal: Deal) -> None:
    """Computer players carry on (a poll's share of their work)."""
    table = link.table
    attempt(lambda: advance(table, deal, play_pace()))


# -- the table's links ------------------------------------------------------------------------
@bp.get("/t/<token>/play")
@allow(READ)
def table(link: Link):
    if link.table.kind is not TableKind.DIGITAL:  # a physical table has no game page: its scoreboard
        return redirect(url_for("tables.scoreboard", token=link.token))
    return render_play(link, the_deal(link))


@bp.get("/t/<token>/play/poll")
@allow(GAME_READ)
def table_poll(link: Link):
    """Live updates: computer players carry on, and ``204`` when nothing changed."""
    deal = the_deal(link)
    _advance(link, deal)
    if request.args.get("v") == poll_marker(link.table, deal):
        return "", 204
    return render_play(link, deal)


@bp.post("/t/<token>/play")
@allow(GAME_PHONE)
def table_act(link: Link):
    deal = the_deal(link)
    back = url_for("play.table", token=link.token)
    action = request.form.get("action", "")
    if action == "next":
        return _deal_next(link, back)
    if action == "void":
        return _void(link, back)
    if not shared_phone(link):
        abort(403)
    game = game_of(link.table, deal)
    return _act(link, deal, game.turn, back, arrangement_seats=human_seats(link.table, deal))


def _deal_next(link: Link, back: str):
    table, asker = link.table, link.asker
    assert asker is not None  # the table's phone, or a seat's
    deal_id, version = request.form.get("deal", type=int), request.form.get("version", type=int)
    return write(lambda: deal_next(table, deal_id, version, play_pace(), asker=asker), back, stale=Stale.GAME)


def _void(link: Link, back: str):
    """The table's phone voids the hand in play, after the confirmation (nobody scores)."""
    table = link.table
    deal_id, version = request.form.get("deal", type=int), request.form.get("version", type=int)
    return write(lambda: void_hand(table, deal_id, version), back, stale=Stale.VOID)


def _act(link: Link, deal: Deal, seat: int, back: str, *, arrangement_seats: tuple[int, ...]):
    table = link.table
    version = request.form.get("version", type=int) or 0
    action = request.form.get("action", "")
    if action == "void":  # the table phone's alone (table_act)
        abort(403)
    if action == "next":
        return _deal_next(link, back)
    if action == "alt":
        picked = request.form.get("seat", -1, type=int)
        pick = request.form.get("pick", -1, type=int)
        return write(
            lambda: choose_arrangement(table, deal, picked, version, pick, allowed=arrangement_seats),
            back,
            stale=Stale.GAME,
        )
    hotseat = table.play_mode is PlayMode.HOTSEAT
    card = request.form.get("card")
    if request.form.get("close"):  # "Close with X face down" names its card
        action, card = "close", request.form["close"]

    def move() -> tuple[Phase, int, int]:
        """The move, and where the hand is after it (the phase, whose turn, the deal's version)."""
        if action == "hint":  # written into the deal, then shown with the cards
            ask_hint(table, deal, seat, version)
            return Phase.DISCARD, seat, deal.version
        game = act(table, deal, seat, version, action, card, play_pace())
        return game.phase, game.turn, deal.version

    shown = f"?show={deal.version}" if hotseat else ""  # the version the page showed: the cards stay up on a refusal
    outcome = attempt(move, stale=Stale.GAME)
    if isinstance(outcome, Refused):
        outcome.flash()
        return redirect(back if outcome.why is Why.STALE else back + shown), 303
    phase, turn, now = outcome
    if action == "hint":
        return redirect(back + (f"?show={now}" if hotseat else "") + "#hint"), 303
    if hotseat and phase == Phase.DISCARD and turn == seat:
        return redirect(back + f"?show={now}"), 303  # the same player continues: keep the cards shown
    return redirect(back), 303


# -- a phone per seat ------------------------------------------------------------------------
@bp.get("/s/<seat_token>")
@allow(SEAT_ONLY)
def seat(link: Link):
    _seen(link)
    return render_play(link, the_deal(link))


@bp.get("/s/<seat_token>/poll")
@allow(SEAT_ONLY)
def poll(link: Link):
    """Live updates that cost almost nothing when nothing changed: 204.
    Computer players carry on here when a request before left them mid-hand."""
    _seen(link)
    deal = the_deal(link)
    _advance(link, deal)
    if request.args.get("v") == poll_marker(link.table, deal):
        return "", 204
    return render_play(link, deal)


@bp.post("/s/<seat_token>")
@allow(SEAT_ONLY)
def seat_act(link: Link):
    _seen(link)
    deal = the_deal(link)
    assert link.player is not None
    mine = deal.seats.index(link.player.seat) if link.player.seat in deal.seats else None
    return _act(
        link,
        deal,
        mine if mine is not None else -1,
        url_for("play.seat", seat_token=link.token),
        arrangement_seats=(mine,) if mine is not None else (),
    )


@bp.post("/s/<seat_token>/rematch")
@allow(SEAT_ONLY)
def seat_rematch(link: Link):
    """A finished match's rematch from a seat: the first press creates it
    (claiming the table's version), every press leads to this seat's new link."""
    assert link.player is not None
    seat_number = link.player.seat
    back = url_for("play.seat", seat_token=link.token)
    made = _rematch(link, lambda new: next((p.seat_token for p in new.players if p.seat == seat_number), None))
    return redirect(url_for("play.seat", seat_token=made) if made else back), 303


@bp.post("/t/<token>/play/rematch")
@allow(WRITE.of(TableKind.DIGITAL))
def rematch(link: Link):
    """The rematch of a digital match stays digital, with the same computer
    players; the link it leads to is of the same level as the one that asked."""
    role = link.role
    made = _rematch(link, lambda new: new.owner_token if role is OWNER else new.player_token)
    if made is None:
        return redirect(url_for("play.table", token=link.token)), 303
    response = redirect(url_for("play.table", token=made))
    remember_table(response, made)
    return response, 303


def _rematch(link: Link, opened) -> str | None:
    """The link ``opened`` picks at the one rematch of this match (made now,
    or by an earlier tap), or None with the reason flashed."""
    table = link.table
    made = attempt(
        lambda: opened(make_rematch(table, request.form.get("table_version", type=int), pace=play_pace())),
        stale=Stale.GAME,
    )
    if isinstance(made, Refused):
        made.flash()
        return None
    return made


@bp.post("/s/<seat_token>/reentry")
@allow(SEAT_ONLY)
def seat_reentry(link: Link):
    """A seat's phone answers "buy back in?" for its own seat (or for a
    computer player, whom every phone at the table may decide for)."""
    seat = request.form.get("seat", type=int)
    if seat is not None and 0 <= seat < len(link.table.players) and not answers_for(link.table, seat, link.asker):
        abort(403)
    return decide_reentry(link.table, link, url_for("play.seat", seat_token=link.token))


@bp.post("/t/<token>/play/reentry")
@allow(GAME_PHONE)
def table_reentry(link: Link):
    """The table's phone answers "buy back in?"."""
    return decide_reentry(link.table, link, url_for("play.table", token=link.token))


@bp.post("/s/<seat_token>/seats")
@allow(SEAT_ONLY)
def seat_seats(link: Link):
    """From a seat's phone: hand the seat the game waits on to the computer
    (its phone away past the grace period), or take one's own seat back."""
    return _seats(link, url_for("play.seat", seat_token=link.token))


@bp.post("/t/<token>/play/seats")
@allow(GAME_PHONE)
def table_seats(link: Link):
    """From the table's phone: the owner hands any seat to the computer and
    back; a tournament table's phone as any other phone does."""
    return _seats(link, url_for("play.table", token=link.token))


def _seats(link: Link, back: str):
    table, asker, owner = link.table, link.asker, _as_owner(link)
    assert asker is not None
    seat = request.form.get("seat", type=int)
    if seat is None:
        abort(400)
    version = request.form.get("version", type=int)
    name = table.names[seat] if 0 <= seat < len(table.players) else ""
    if request.form.get("action") == "back":
        return write(
            lambda: seats.take_back(table, seat, version, asker, owner=owner),
            back,
            _("%(name)s plays again.", name=name),
            stale=Stale.GAME,
        )
    return write(
        lambda: hand_seat_over(table, seat, version, asker, owner=owner, pace=play_pace()),
        back,
        _("The computer plays for %(name)s now.", name=name),
        stale=Stale.GAME,
    )


@bp.post("/t/<token>/play/seat-link")
@allow(OWNER_ONLY.of(TableKind.DIGITAL))
def renew_seat_link(link: Link):
    """The owner gives a seat a new link; the old one ends."""
    table = link.table
    seat = request.form.get("seat", type=int)
    if seat is None:
        abort(400)
    return write(
        lambda: seats.renew_link(table, seat, request.form.get("version", type=int)),
        url_for("play.table", token=link.token),
        lambda player: _("%(name)s has a new link: the old one no longer opens the seat.", name=player.name),
        stale=Stale.GAME,
    )


@bp.get("/s/<seat_token>/qr.svg")
@allow(SEAT_ONLY)
def seat_qr(link: Link):
    return qr_response(url_for("play.seat", seat_token=link.token, _external=True))


# -- the review of a finished hand ------------------------------------------------------
@bp.get("/t/<token>/review/<int:number>")
@allow(GAME_READ)
def review(link: Link, number: int):
    """A finished hand with every move face up and the expert's judgement of
    the people's decisions.  A read-only link sees it once the match is over
    (before, the hands could still help somebody at the table)."""
    back = url_for("play.table", token=link.token)
    if link.role is WATCH and not standing(link.table).state.finished:
        return render_template(
            "error.html", code=403, message=review_waits_text(), back=back, back_label=_("Back to the game")
        ), 403
    return _review(link, number, back)


@bp.get("/s/<seat_token>/review/<int:number>")
@allow(SEAT_ONLY)
def seat_review(link: Link, number: int):
    return _review(link, number, url_for("play.seat", seat_token=link.token))


def _review(link: Link, number: int, back: str):
    game_table = link.table
    deal = reviewed(game_table, number)
    if deal is None:
        abort(404)
    result = attempt(lambda: review_page(game_table, deal, review_of(game_table, deal)))
    if isinstance(result, Refused):
        return render_template(
            "error.html", code=409, message=result.message, back=back, back_label=_("Back to the game")
        ), 409
    seal = seal_of(deal)
    url = proof_url(link, deal, seal.ordinal) if seal.checkable else None
    return render_template("play/review.html", **result, back=back, seal=seal, proof_url=url)
