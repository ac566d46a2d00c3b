"""Group pages: standings, last matches, play again, seasons, settle up.

Which link may use which route is in the app's one authorization table
(``companion.web.access.PERMISSIONS``); one check before each request enforces it.
"""

from __future__ import annotations

import csv
import io
import json
import re
from decimal import Decimal, InvalidOperation

from flask import Response, abort, flash, g, make_response, redirect, render_template, request, url_for
from flask_babel import format_currency, format_date, format_decimal, format_percent
from flask_babel import gettext as _
from sqlalchemy import select

from ..extensions import db
from ..models import GameTable
from ..rules import ChinchonError
from ..rules.names import name_key, normalize_name
from ..services.groups import (
    create_group,
    find,
    ledger,
    link_for,
    matches,
    rank,
    record_payment,
    set_members,
    standings,
    start_season,
    touch,
)
from ..services.ledger import from_cents, to_cents
from ..services.play import create_digital_table
from ..services.scoreboard import create_table
from ..services.transfer import export_bundle
from ..services.unit import transaction
from ..web.access import OWNER, PLAYER, WATCH, authorize
from ..web.cookies import remember_table, set_cookie
from ..web.messages import error_text
from . import bp
from .charts import BUCKET_COLOURS, BUCKETS, points_chart, wins_chart
from .forms import GroupForm

#: The group's roles as its pages name them (a member link has the player level).
GROUP_ROLE = {OWNER: "owner", PLAYER: "member", WATCH: "watch"}

GROUPS_COOKIE = "groups"


@bp.before_request
def check_link():
    """Every route with a link is in the app's one authorization table
    (``companion.web.access.PERMISSIONS``)."""
    token = (request.view_args or {}).get("token")
    if token is None:
        return None
    link = authorize(token)
    if link.group is None:
        abort(404)
    g.group, g.role = link.group, GROUP_ROLE[link.role]
    return None


def money(cents: int, currency: str) -> str:
    return format_currency(from_cents(cents), currency)


@bp.app_context_processor
def group_helpers() -> dict:
    return {"group_money": money}


def remembered_groups() -> list[str]:
    return [t for t in request.cookies.get(GROUPS_COOKIE, "").split(".") if t][:8]


def remember_group(response, token: str):
    tokens = [token, *[t for t in remembered_groups() if t != token]][:8]
    return set_cookie(response, GROUPS_COOKIE, ".".join(tokens), days=365)


# -- creating -------------------------------------------------------------------------------
@bp.route("/groups/new", methods=["GET", "POST"])
def new():
    form = GroupForm()
    if request.method == "POST" and form.check():
        with transaction():
            group = create_group(
                name=form.name.data,
                members=form.member_names(),
                preset=form.preset.data,
                overrides=form.overrides(),
                currency=form.currency.data,
            )
        flash(_("Group created. Keep this page's link: it is the owner's."), "ok")
        response = redirect(url_for("groups.page", token=group.owner_token))
        return remember_group(response, group.owner_token), 303
    mine = [f for f in (find(t) for t in remembered_groups()) if f is not None]
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
    if role != "watch":
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
    token = table.watch_token if role == "watch" else table.player_token
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
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([_("Date"), _("Season"), _("Table"), _("Players"), _("Final totals"), _("Winners"), _("Pot")])
    for m in matches(group):
        if m.season != number:
            continue
        writer.writerow(
            [
                m.played_at.strftime("%Y-%m-%d %H:%M"),
                m.season,
                m.table.name,
                "; ".join(m.players),
                "; ".join(f"{p} {m.totals[p]}" for p in m.players),
                "; ".join(m.winners) if m.finished else _("in progress"),
                str(from_cents(m.pot_cents)),
            ]
        )
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="group-season-{number}.csv"'},
    )


# -- playing in the group -----------------------------------------------------------------------
#: A table link as pasted: the token after ``/t/``, or the bare token.
TABLE_LINK = re.compile(r"(?:/t/|^)([A-Za-z0-9_-]{16,40})(?:[/?#]|$)")


@bp.post("/g/<token>/tables")
def add_table(token: str):
    group = g.group
    match = TABLE_LINK.search((request.form.get("link") or "").strip())
    table = None
    if match:
        table = db.session.scalar(select(GameTable).where(GameTable.owner_token == match.group(1)))
    if table is None:
        flash(_("That is not a table's owner link: only the table's owner can add it to a group."), "error")
    elif table.group_id == group.id:
        flash(_("That table already counts for this group."), "ok")
    elif table.group_id is not None:
        flash(_("That table already counts for another group; a match belongs to one group only."), "error")
    else:
        table.group_id = group.id
        touch(group)
        db.session.commit()
        flash(_("The table now counts for this group."), "ok")
    return redirect(url_for("groups.page", token=token)), 303


@bp.post("/g/<token>/again")
def again(token: str):
    """A new table with last time's players and rules, in this group."""
    group = g.group
    last = group.tables[-1] if group.tables else None
    if last is None:
        flash(_("No match yet to play again."), "error")
        return redirect(url_for("groups.page", token=token)), 303
    options = dict(last.overrides)
    first_dealer = (last.first_dealer + 1) % len(last.players)
    try:
        if last.kind == "digital":
            table = create_digital_table(
                name=last.name,
                preset=last.preset,
                overrides=options,
                players=[(p.name, p.kind) for p in last.players],
                mode=last.play_mode or "hotseat",
                first_dealer=first_dealer,
                suit_style=last.suit_style,
            )
            target = url_for("play.table", token=table.owner_token)
        else:
            table = create_table(
                name=last.name,
                preset=last.preset,
                overrides=options,
                players=last.names,
                first_dealer=first_dealer,
                suit_style=last.suit_style,
            )
            target = url_for("tables.scoreboard", token=table.owner_token)
    except ChinchonError as error:
        db.session.rollback()
        flash(error_text(error), "error")
        return redirect(url_for("groups.page", token=token)), 303
    table.group_id = group.id
    touch(group)
    db.session.commit()
    return remember_table(redirect(target), table.owner_token), 303


# -- seasons ----------------------------------------------------------------------------------
@bp.post("/g/<token>/seasons")
def new_season(token: str):
    with transaction():
        season = start_season(g.group)
    flash(_("Season %(number)s has started; earlier seasons stay readable.", number=season.number), "ok")
    return redirect(url_for("groups.page", token=token)), 303


# -- money ----------------------------------------------------------------------------------------
@bp.get("/g/<token>/settle")
def settle(token: str):
    return _settle_page(token)


def _settle_page(token: str, error: tuple[str, str] | None = None, status: int = 200):
    group = g.group
    book = ledger(group, matches(group))
    return render_template(
        "groups/settle.html",
        group=group,
        role=g.role,
        token=token,
        book=book,
        names=sorted(book.balances, key=name_key),
        amount_value=lambda cents: str(from_cents(cents)),
        error=error,
    ), status


def read_amount(raw: str) -> int | None:
    """Cents from what was typed ("2.50", "2,50"); None when it is no amount."""
    text = (raw or "").strip().replace(",", ".")
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    if not value.is_finite() or value <= 0 or value > 1_000_000 or value.as_tuple().exponent < -2:
        return None
    return to_cents(value)


@bp.post("/g/<token>/payments")
def payment(token: str):
    group = g.group
    book = ledger(group, matches(group))
    known = {name_key(n): n for n in book.balances}
    payer = known.get(name_key(request.form.get("payer", "")))
    payee = known.get(name_key(request.form.get("payee", "")))
    cents = read_amount(request.form.get("amount", ""))
    submission = (request.form.get("submission") or "")[:40]
    error = None
    if payer is None:
        error = ("payer", _("Choose who paid."))
    elif payee is None or payee == payer:
        error = ("payee", _("Choose who was paid: somebody other than the payer."))
    elif cents is None:
        error = ("amount", _("Type an amount above zero, with at most two decimals."))
    elif not submission:
        error = ("amount", _("That request was incomplete; nothing was changed."))
    if error is not None:
        return _settle_page(token, error, 400)
    with transaction():
        payment = record_payment(group, payer, payee, cents, submission)
    if payment is None:
        flash(_("That payment was already recorded."), "ok")
    else:
        flash(
            _(
                "Recorded: %(payer)s paid %(payee)s %(amount)s.",
                payer=payer,
                payee=payee,
                amount=money(cents, group.currency),
            ),
            "ok",
        )
    return redirect(url_for("groups.settle", token=token)), 303


# -- the owner: settings, export ------------------------------------------------------------------
@bp.route("/g/<token>/settings", methods=["GET", "POST"])
def settings(token: str):
    group = g.group
    form = GroupForm(
        data=None
        if request.method == "POST"
        else {
            "name": group.name,
            "members": "\n".join(group.names),
            "preset": group.preset,
            "target": group.rules.target,
            "stake": group.rules.stake or None,
            "currency": group.currency,
        }
    )
    if request.method == "POST" and form.check():
        group.name = normalize_name(form.name.data)[:80]
        set_members(group, form.member_names())
        group.preset = form.preset.data
        group.overrides = form.overrides()
        group.currency = form.currency.data
        touch(group)
        db.session.commit()
        flash(_("Group settings saved."), "ok")
        return redirect(url_for("groups.page", token=token)), 303
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
    levels = [r for r in ("member", "watch") if rank(r) <= rank(role)]
    return [(r, url_for("groups.page", token=link_for(group, r), _external=True)) for r in levels]


@bp.app_template_global()
def group_share_links(group, role):
    return share_links(group, role)
