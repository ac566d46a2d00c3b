"""Group pages: standings, last matches, play again, seasons, settle up.

Which link may use which route is in the app's one authorization table
(``companion.web.access.PERMISSIONS``); one check before each request enforces it.
Every write is one call to ``companion.services.groups`` inside
:func:`~companion.services.unit.transaction`.
"""

from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation

from flask import Response, abort, flash, g, make_response, redirect, render_template, request, url_for
from flask_babel import format_date, format_datetime, format_decimal, format_percent
from flask_babel import gettext as _

from ..models import GameTable
from ..rules import ChinchonError
from ..rules.names import name_key
from ..services.groups import (
    add_table_by_link,
    create_group,
    ledger,
    matches,
    payment_cents,
    payment_names,
    play_again,
    record_payment,
    season_tables,
    standings,
    start_season,
    undo_payment,
    update_group,
)
from ..services.ledger import from_cents
from ..services.transfer import export_bundle
from ..services.unit import StaleError, transaction
from ..web.access import PLAYER, WATCH, Link, authorize, group_link, may_show
from ..web.cookies import remember_table, set_cookie
from ..web.i18n import money
from ..web.messages import error_text, stale_text
from ..web.pace import play_pace
from ..web.spreadsheet import spreadsheet
from . import bp
from .charts import BUCKET_COLOURS, BUCKETS, points_chart, wins_chart
from .forms import GroupForm, GroupSettingsForm

GROUPS_COOKIE = "groups"


@bp.before_request
def check_link():
    """Every route with a link is in the app's one authorization table
    (``companion.web.access.PERMISSIONS``); a group's roles are its names
    (owner, player for the member link, watch)."""
    token = (request.view_args or {}).get("token")
    if token is None:
        return None
    link = authorize(token)
    g.group, g.role = link.group, link.role
    return None


def group_money(cents: int, currency: str) -> str:
    return money(from_cents(cents), currency)


@bp.app_context_processor
def group_helpers() -> dict:
    return {"group_money": group_money}


def remembered_groups() -> list[str]:
    return [t for t in request.cookies.get(GROUPS_COOKIE, "").split(".") if t][:8]


def remember_group(response, token: str):
    tokens = [token, *[t for t in remembered_groups() if t != token]][:8]
    return set_cookie(response, GROUPS_COOKIE, ".".join(tokens), days=365)


def back_to(token: str, endpoint: str = "groups.page"):
    return redirect(url_for(endpoint, token=token)), 303


# -- creating -------------------------------------------------------------------------------
@bp.route("/groups/new", methods=["GET", "POST"])
def new():
    form = GroupForm()
    if request.method == "POST" and form.check():
        try:
            with transaction():
                group = create_group(
                    name=form.name.data,
                    members=form.member_names(),
                    preset=form.preset.data,
                    overrides=form.overrides(),
                    currency=form.currency.data,
                )
        except ChinchonError as error:
            form.add_error(error.field.removeprefix("rules."), error_text(error))
        else:
            flash(_("Group created. Keep this page's link: it is the owner's."), "ok")
            response = redirect(url_for("groups.page", token=group.owner_token))
            return remember_group(response, group.owner_token), 303
    mine = [(link.group, t) for link, t in ((group_link(t), t) for t in remembered_groups()) if link is not None]
    status = 400 if request.method == "POST" else 200
    return render_template("groups/new.html", form=form, mine=mine), status


# -- the group page ---------------------------------------------------------------------------
def _season_page(token: str, number: int):
    group, role = g.group, g.role
    if not any(s.number == number for s in group.seasons):
        abort(404)
    everything = matches(group)
    season_matches = [m for m in everything if m.season == number]
    lines = standings(group, season_matches)
    context = dict(
        group=group,
        role=role,
        token=token,
        number=number,
        current=number == group.current_season.number,
        season_has_matches=bool(season_tables(group, group.current_season.number)),
        lines=lines,
        recent=list(reversed(season_matches))[:10],
        wins=wins_chart(lines, season_matches),
        spread=points_chart(lines),
        buckets=BUCKETS,
        bucket_colours=BUCKET_COLOURS,
        table_link=lambda t: table_link(t, role),
        last=everything[-1] if everything else None,
        figures=figures,
        format_date=format_date,
    )
    response = make_response(render_template("groups/page.html", **context))
    if role != WATCH:
        remember_group(response, token)
    return response


def figures(line) -> list[tuple[str, str, str]]:
    """A standings line as ``(key, label, shown value)``, in the language's number format."""
    return [
        ("played", _("Played"), format_decimal(line.played)),
        ("won", _("Won"), format_decimal(line.won)),
        ("share", _("Win share"), format_percent(line.win_share) if line.win_share is not None else "–"),
        (
            "average",
            _("Average final total"),
            format_decimal(line.average_total, format="#,##0.0") if line.average_total is not None else "–",
        ),
        ("closed", _("Hands closed"), format_decimal(line.closed)),
        ("minus10", _("−10s"), format_decimal(line.minus_tens)),
        ("chinchon", _("Chinchones"), format_decimal(line.chinchones)),
        ("reentries", _("Re-entries bought"), format_decimal(line.reentries)),
    ]


def table_link(table: GameTable, role: str) -> str:
    """A match's link no stronger than the group link: read-only for read-only."""
    token = table.watch_token if role == WATCH else table.player_token
    return url_for("tables.scoreboard", token=token)


@bp.get("/g/<token>")
def page(token: str):
    return _season_page(token, g.group.current_season.number)


@bp.get("/g/<token>/seasons/<int:number>")
def season(token: str, number: int):
    return _season_page(token, number)


@bp.get("/g/<token>/matches.csv")
def matches_csv(token: str):
    group = g.group
    number = request.args.get("season", type=int) or group.current_season.number
    rows: list[list[object]] = [
        [_("Date"), _("Season"), _("Table"), _("Players"), _("Final totals"), _("Winners"), _("Pot")]
    ]
    rows += [
        [
            m.played_at.strftime("%Y-%m-%d %H:%M"),
            m.season,
            m.table.name,
            "; ".join(m.players),
            "; ".join(f"{p} {m.totals[p]}" for p in m.players),
            "; ".join(m.winners) if m.finished else _("in progress"),
            str(from_cents(m.pot_cents)),
        ]
        for m in matches(group)
        if m.season == number
    ]
    return Response(
        spreadsheet(rows),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="group-season-{number}.csv"'},
    )


# -- playing in the group -----------------------------------------------------------------------
@bp.post("/g/<token>/tables")
def add_table(token: str):
    try:
        with transaction():
            added = add_table_by_link(g.group, request.form.get("link") or "")
    except ChinchonError as error:
        flash(error_text(error), "error")
    else:
        if added:
            flash(_("The table now counts for this group."), "ok")
        else:
            flash(_("That table already counts for this group."), "ok")
    return back_to(token)


@bp.post("/g/<token>/again")
def again(token: str):
    """A new table with last time's players and rules, in this group (made once)."""
    try:
        with transaction():
            table = play_again(g.group, request.form.get("table", type=int), pace=play_pace())
    except StaleError:
        flash(stale_text(), "error")
        return back_to(token)
    except ChinchonError as error:
        flash(error_text(error), "error")
        return back_to(token)
    endpoint = "play.table" if table.kind == "digital" else "tables.scoreboard"
    return remember_table(redirect(url_for(endpoint, token=table.owner_token)), table.owner_token), 303


# -- seasons ----------------------------------------------------------------------------------
@bp.post("/g/<token>/seasons")
def new_season(token: str):
    if request.form.get("confirm") != "season":
        flash(_("Tick the box to confirm the new season."), "error")
        return back_to(token)
    try:
        with transaction():
            season = start_season(g.group, request.form.get("season", type=int))
    except ChinchonError as error:
        flash(error_text(error), "error")
        return back_to(token)
    flash(_("Season %(number)s has started; earlier seasons stay readable.", number=season.number), "ok")
    return back_to(token)


# -- money ----------------------------------------------------------------------------------------
@bp.get("/g/<token>/settle")
def settle(token: str):
    return _settle_page(token)


def _settle_page(token: str, error: tuple[str, str] | None = None, status: int = 200, typed: dict | None = None):
    group = g.group
    book = ledger(group, matches(group))
    names = sorted(book.balances, key=name_key)
    typed = typed or {}
    return render_template(
        "groups/settle.html",
        group=group,
        role=g.role,
        token=token,
        book=book,
        names=names,
        history=[payment_line(group, p) for p in reversed(group.payments)],
        amount_value=lambda cents: str(from_cents(cents)),
        error=error,
        typed={
            "payer": name_key(typed.get("payer", "")) or name_key(names[0] if names else ""),
            "payee": name_key(typed.get("payee", "")) or name_key(names[1] if len(names) > 1 else ""),
            "amount": typed.get("amount", ""),
        },
        name_key=name_key,
    ), status


def payment_line(group, payment) -> dict:
    """One recorded payment as the history shows it."""
    payer, payee = payment_names(group, payment)
    recorded = format_datetime(payment.created_at, "short")
    if payment.recorded_by == PLAYER:
        by = _("recorded with a member link, %(when)s", when=recorded)
    else:
        by = _("recorded with the owner link, %(when)s", when=recorded)
    return {
        "id": payment.id,
        "text": _(
            "%(payer)s paid %(payee)s %(amount)s",
            payer=payer,
            payee=payee,
            amount=group_money(payment.cents, group.currency),
        ),
        "by": by,
        "undone": _("undone %(when)s", when=format_datetime(payment.undone_at, "short")) if payment.undone_at else "",
        "payer": payer,
        "payee": payee,
    }


def read_amount(raw: str) -> Decimal | None:
    """The amount typed ("2.50", "2,50"); None when it is no number."""
    text = (raw or "").strip().replace(",", ".")
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


@bp.post("/g/<token>/payments")
def payment(token: str):
    group = g.group
    typed = {k: (request.form.get(k) or "")[:40] for k in ("payer", "payee", "amount")}
    amount = read_amount(typed["amount"])
    if amount is None:
        message = _("Type an amount above zero, with at most two decimals.")
        return _settle_page(token, ("amount", message), 400, typed)
    try:
        with transaction():
            payment = record_payment(
                group,
                typed["payer"],
                typed["payee"],
                payment_cents(group, amount),
                (request.form.get("submission") or "")[:40],
                recorded_by=g.role,
            )
    except ChinchonError as error:
        return _settle_page(token, (error.field, error_text(error)), 400, typed)
    if payment is None:
        flash(_("That payment was already recorded."), "ok")
    else:
        flash(
            _(
                "Recorded: %(payer)s paid %(payee)s %(amount)s.",
                payer=payment.payer,
                payee=payment.payee,
                amount=group_money(payment.cents, group.currency),
            ),
            "ok",
        )
    return back_to(token, "groups.settle")


@bp.post("/g/<token>/payments/undo", endpoint="undo_payment")
def undo(token: str):
    try:
        with transaction():
            undone = undo_payment(g.group, request.form.get("payment", type=int))
    except ChinchonError as error:
        flash(error_text(error), "error")
    else:
        if undone:
            flash(_("The payment was undone; it stays in the history."), "ok")
        else:
            flash(_("That payment was already undone."), "ok")
    return back_to(token, "groups.settle")


# -- the owner: settings, export ------------------------------------------------------------------
@bp.route("/g/<token>/settings", methods=["GET", "POST"])
def settings(token: str):
    group = g.group
    form = GroupSettingsForm.for_group(group, submitted=request.method == "POST")
    if request.method == "POST" and form.check():
        try:
            with transaction():
                update_group(
                    group,
                    name=form.name.data,
                    members=form.changes(),
                    preset=form.preset.data,
                    overrides=form.overrides(),
                    currency=form.currency.data,
                )
        except ChinchonError as error:
            form.add_error(error.field.removeprefix("rules."), error_text(error))
        else:
            flash(_("Group settings saved."), "ok")
            return back_to(token)
    status = 400 if request.method == "POST" else 200
    return render_template("groups/settings.html", form=form, group=group, token=token), status


@bp.get("/g/<token>/export.json")
def export(token: str):
    data = export_bundle([g.group])
    return Response(
        json.dumps(data, ensure_ascii=False, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": 'attachment; filename="group.json"'},
    )


def share_links(group, role: str) -> list[tuple[str, str]]:
    """The links this role may pass on: its own level and below, never above."""
    link = Link(None, role, group=group)
    levels = [r for r in (PLAYER, WATCH) if may_show(role, r)]
    return [(r, url_for("groups.page", token=link.token_for(r), _external=True)) for r in levels]


@bp.app_template_global()
def group_share_links(group, role):
    return share_links(group, role)
