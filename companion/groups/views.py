"""Group pages: standings, last matches, play again, seasons, settle up.

Each route that takes a link declares who may use it (``web.access.allow``:
the owner, member and read-only links are the owner, player and watch
levels); every write is one call to ``companion.services.groups`` through
the write pipeline (``web.writes``).
"""

from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation

from flask import Response, abort, flash, g, make_response, redirect, render_template, request, url_for
from flask_babel import format_date, format_datetime, format_decimal, format_percent
from flask_babel import gettext as _

from ..models import GameTable, TableKind
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
from ..services.ratings import win_chances
from ..services.statistics import group_ratings
from ..services.transfer import export_bundle
from ..services.unit import ServiceError
from ..web.access import OWNER_ONLY, PLAYER, READ, WATCH, WRITE, Link, Role, allow, group_link, may_show
from ..web.cookies import remember_table, set_cookie
from ..web.i18n import money
from ..web.messages import Replayed, Stale, Unconfirmed, error_text, replayed_text, unconfirmed_text
from ..web.pace import play_pace
from ..web.spreadsheet import spreadsheet
from ..web.writes import Refused, attempt, write
from . import bp
from .charts import BUCKET_COLOURS, BUCKETS, points_chart, wins_chart
from .forms import GroupForm, GroupSettingsForm

GROUPS_COOKIE = "groups"


def _opened(link: Link) -> None:
    g.group, g.role = link.group, link.role


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
        made = attempt(
            lambda: (
                create_group(
                    name=form.name.data,
                    members=form.member_names(),
                    preset=form.preset.data,
                    overrides=form.overrides(),
                    currency=form.currency.data,
                    submission=form.submission.data,
                ).owner_token
            ),
            replayed=Replayed.GROUP,
        )
        if isinstance(made, Refused) and made.made:
            made.flash()  # the form sent again (Back, then Create): the group it made
            return remember_group(redirect(url_for("groups.page", token=made.made)), made.made), 303
        if isinstance(made, Refused):
            form.add_error(made.field.removeprefix("rules."), made.message)
        else:
            flash(_("Group created. Keep this page's link: it is the owner's."), "ok")
            return remember_group(redirect(url_for("groups.page", token=made)), made), 303
    mine = [(link.group, t) for link, t in ((group_link(t), t) for t in remembered_groups()) if link is not None]
    status = 400 if request.method == "POST" else 200
    return render_template("groups/new.html", form=form, mine=mine), status


# -- the group page ---------------------------------------------------------------------------
def _season_page(link: Link, number: int):
    _opened(link)
    group, role, token = link.group, link.role, link.token
    if not any(s.number == number for s in group.seasons):
        abort(404)
    everything = matches(group)
    season_matches = [m for m in everything if m.season == number]
    lines = standings(group, season_matches)
    last = everything[-1] if everything else None
    chances = win_chances(group_ratings(everything), last.players) if last and not last.computers else None
    context = dict(
        group=group,
        role=role,
        read_only=role is WATCH,
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
        last=last,
        chances=chances,
        figures=figures,
        format_date=format_date,
    )
    response = make_response(render_template("groups/page.html", **context))
    if role is not WATCH:
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
@allow(READ)
def page(link: Link):
    return _season_page(link, link.group.current_season.number)


@bp.get("/g/<token>/seasons/<int:number>")
@allow(READ)
def season(link: Link, number: int):
    return _season_page(link, number)


@bp.get("/g/<token>/matches.csv")
@allow(READ)
def matches_csv(link: Link):
    group = link.group
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
            from_cents(m.pot_cents),
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
@allow(WRITE)
def add_table(link: Link):
    group, typed = link.group, request.form.get("link") or ""

    def said(added: bool) -> str:
        if added:
            return _("The table now counts for this group.")
        return _("That table already counts for this group.")

    return write(lambda: add_table_by_link(group, typed), url_for("groups.page", token=link.token), said)


@bp.post("/g/<token>/again")
@allow(WRITE)
def again(link: Link):
    """A new table with last time's players and rules, in this group (made once)."""
    group, source = link.group, request.form.get("table", type=int)
    made = attempt(lambda: _opened_table(play_again(group, source, pace=play_pace())), stale=Stale.GROUP)
    if isinstance(made, Refused):
        made.flash()
        return back_to(link.token)
    endpoint, token = made
    return remember_table(redirect(url_for(endpoint, token=token)), token), 303


def _opened_table(table: GameTable) -> tuple[str, str]:
    return ("play.table" if table.kind is TableKind.DIGITAL else "tables.scoreboard"), table.owner_token


# -- seasons ----------------------------------------------------------------------------------
@bp.post("/g/<token>/seasons")
@allow(OWNER_ONLY)
def new_season(link: Link):
    if request.form.get("confirm") != "season":
        flash(unconfirmed_text(Unconfirmed.NEW_SEASON), "error")
        return back_to(link.token)
    group, number = link.group, request.form.get("season", type=int)
    return write(
        lambda: start_season(group, number).number,
        url_for("groups.page", token=link.token),
        lambda started: _("Season %(number)s has started; earlier seasons stay readable.", number=started),
        stale=Stale.GROUP,
    )


# -- money ----------------------------------------------------------------------------------------
@bp.get("/g/<token>/settle")
@allow(READ)
def settle(link: Link):
    _opened(link)
    return _settle_page(link.token)


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
@allow(OWNER_ONLY)
def payment(link: Link):
    _opened(link)
    group, token = link.group, link.token
    typed = {k: (request.form.get(k) or "")[:40] for k in ("payer", "payee", "amount")}
    amount = read_amount(typed["amount"])
    if amount is None:
        return _settle_page(token, ("amount", error_text(ServiceError("amount_low", "amount"))), 400, typed)
    submission = (request.form.get("submission") or "")[:40]
    recorded = attempt(
        lambda: _recorded(
            group,
            record_payment(
                group,
                typed["payer"],
                typed["payee"],
                payment_cents(group, amount),
                submission,
                recorded_by=link.role,
            ),
        ),
        stale=Stale.GROUP,
        replayed=Replayed.PAYMENT,
    )
    if isinstance(recorded, Refused):
        if recorded.harmless:
            recorded.flash()
            return back_to(token, "groups.settle")
        return _settle_page(token, (recorded.field, recorded.message), recorded.status, typed)
    flash(recorded or replayed_text(Replayed.PAYMENT), "ok")
    return back_to(token, "groups.settle")


def _recorded(group, payment) -> str | None:
    """What the page says of a payment just recorded (None: it was recorded before)."""
    if payment is None:
        return None
    return _(
        "Recorded: %(payer)s paid %(payee)s %(amount)s.",
        payer=payment.payer,
        payee=payment.payee,
        amount=group_money(payment.cents, group.currency),
    )


@bp.post("/g/<token>/payments/undo", endpoint="undo_payment")
@allow(OWNER_ONLY)
def undo(link: Link):
    group, number = link.group, request.form.get("payment", type=int)

    def said(undone: bool) -> str:
        if undone:
            return _("The payment was undone; it stays in the history.")
        return _("That payment was already undone.")

    return write(lambda: undo_payment(group, number), url_for("groups.settle", token=link.token), said)


# -- the owner: settings, export ------------------------------------------------------------------
@bp.route("/g/<token>/settings", methods=["GET", "POST"])
@allow(OWNER_ONLY)
def settings(link: Link):
    group = link.group
    form = GroupSettingsForm.for_group(group, submitted=request.method == "POST")
    if request.method == "POST" and form.check():
        saved = attempt(
            lambda: update_group(
                group,
                name=form.name.data,
                members=form.changes(),
                preset=form.preset.data,
                overrides=form.overrides(),
                currency=form.currency.data,
            ),
            stale=Stale.GROUP,
        )
        if isinstance(saved, Refused):
            form.add_error(saved.field.removeprefix("rules."), saved.message)
        else:
            flash(_("Group settings saved."), "ok")
            return back_to(link.token)
    status = 400 if request.method == "POST" else 200
    return render_template("groups/settings.html", form=form, group=group, token=link.token), status


@bp.get("/g/<token>/export.json")
@allow(OWNER_ONLY)
def export(link: Link):
    data = export_bundle([link.group])
    return Response(
        json.dumps(data, ensure_ascii=False, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": 'attachment; filename="group.json"'},
    )


def share_links(group, role: str) -> list[tuple[str, str]]:
    """The links this role may pass on: its own level and below, never above."""
    link = Link(group, Role(role))
    levels = [r for r in (PLAYER, WATCH) if may_show(Role(role), r)]
    return [(r, url_for("groups.page", token=link.token_for(r), _external=True)) for r in levels]


@bp.app_template_global()
def group_share_links(group, role):
    return share_links(group, role)
