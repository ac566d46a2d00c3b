"""Checking a deal (``rules.deal_proof``): the proof page of one deal, its
record as JSON, and the check page where anybody brings a record.

A deal is named by its number at the table (``ordinal``: the first deal is
1, a void hand dealt again is a new deal).  Every link of the table sees
the seal from the deal on and the shuffle key once the hand is over; a
read-only link sees nothing of the proof before then (as it waits for the
review), and nobody sees the key before.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from flask import abort, make_response, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_wtf import FlaskForm
from wtforms import StringField, TextAreaField
from wtforms.validators import Length, Optional

from ..models import Deal, GameTable, TableKind
from ..rules.cards import Deck, parse_card, short_label
from ..rules.deal_proof import Check, HandRecord, Mismatch, ProofError, Verdict
from ..services import proofs
from ..web.access import READ, SEAT_ONLY, WATCH, Link, allow
from ..web.writes import Refused, attempt
from . import bp

GAME_READ = READ.of(TableKind.DIGITAL)
#: The largest record the check page reads (a long hand's record is about 20 kB).
MAX_RECORD = 512 * 1024


def proof_url(link: Link, deal: Deal, ordinal: int) -> str | None:
    """The proof page of ``deal`` at this link's level (a read-only link: once the hand is over)."""
    if link.player is not None:
        return url_for("play.seat_proof", seat_token=link.token, number=ordinal)
    if link.role is WATCH and not proofs.hand_over(deal):
        return None
    return url_for("play.proof", token=link.token, number=ordinal)


# -- one deal's proof ---------------------------------------------------------------------------
@bp.get("/t/<token>/deal/<int:number>/proof")
@allow(GAME_READ)
def proof(link: Link, number: int):
    return _proof_page(link, number, url_for("play.table", token=link.token))


@bp.get("/s/<seat_token>/deal/<int:number>/proof")
@allow(SEAT_ONLY)
def seat_proof(link: Link, number: int):
    return _proof_page(link, number, url_for("play.seat", seat_token=link.token))


@bp.get("/t/<token>/deal/<int:number>/proof.json")
@allow(GAME_READ)
def proof_json(link: Link, number: int):
    return _record_download(link, number, url_for("play.table", token=link.token))


@bp.get("/s/<seat_token>/deal/<int:number>/proof.json")
@allow(SEAT_ONLY)
def seat_proof_json(link: Link, number: int):
    return _record_download(link, number, url_for("play.seat", seat_token=link.token))


def _deal(link: Link, number: int, back: str) -> Deal:
    """Deal ``number`` of the link's table; a read-only link is told to wait while it is played."""
    deal = proofs.deal_at(link.table, number)
    if deal is None:
        abort(404)
    if link.role is WATCH and not proofs.hand_over(deal):
        message = _("The shuffle key is shown when the hand ends.")
        page = render_template("error.html", code=403, message=message, back=back, back_label=_("Back to the game"))
        abort(make_response(page, 403))
    return deal


def _proof_page(link: Link, number: int, back: str):
    table = link.table
    deal = _deal(link, number, back)
    seal = proofs.seal_of(deal)
    checked = None
    if seal.revealed:
        checked = attempt(lambda: _checked(table, deal))
        if isinstance(checked, Refused):
            checked = None
    json_url = (
        url_for("play.seat_proof_json", seat_token=link.token, number=number)
        if link.player is not None
        else url_for("play.proof_json", token=link.token, number=number)
    )
    return render_template(
        "play/proof.html",
        table=table,
        deal=deal,
        seal=seal,
        checked=checked,
        json_url=json_url if seal.revealed else None,
        back=back,
    )


def _checked(table: GameTable, deal: Deal) -> Checked:
    return checked_lines(*proofs.check(table, deal))


def _record_download(link: Link, number: int, back: str):
    table = link.table
    deal = _deal(link, number, back)
    data = attempt(lambda: proofs.record_json(table, deal))
    if isinstance(data, Refused):
        page = render_template(
            "error.html", code=409, message=data.message, back=back, back_label=_("Back to the game")
        )
        return page, 409
    body = json.dumps(data, ensure_ascii=False, indent=1)
    filename = f"hand-{deal.number}-deal-{number}.json"
    return (
        body,
        200,
        {
            "Content-Type": "application/json; charset=utf-8",
            "Content-Disposition": f'attachment; filename="{filename}"',
        },
    )


# -- the check page: anybody, any record ----------------------------------------------------------
class VerifyForm(FlaskForm):
    record = TextAreaField(
        _l("The hand's record (JSON)"),
        validators=[Optional(), Length(max=MAX_RECORD)],
        description=_l("Paste the file from “Download the record”, or pick it below."),
    )
    seed = StringField(
        _l("Shuffle key (optional)"),
        validators=[Optional(), Length(max=80)],
        description=_l("Leave empty to use the key in the record."),
    )
    seal = StringField(
        _l("The seal you saw during the hand (optional)"),
        validators=[Optional(), Length(max=90)],
        description=_l("The first 16 digits are enough. Leave empty to use the seal in the record."),
    )


@bp.route("/verify", methods=["GET", "POST"])
def verify():
    """Bring a hand's record (and the seal noted during the hand): it is
    shuffled again from its key and every check is shown."""
    form = VerifyForm()
    checked, problem, status = None, None, 200
    if request.method == "POST":
        if form.validate():
            text = form.record.data or _uploaded()
            result = attempt(lambda: _verify(text, (form.seed.data or "").strip(), (form.seal.data or "").strip()))
            if isinstance(result, Refused):
                problem, status = result.message, 400
            else:
                checked = result
        else:
            status = 400
    return render_template("play/verify.html", form=form, checked=checked, problem=problem), status


def _uploaded() -> str:
    upload = request.files.get("file")
    if upload is None:
        return ""
    return upload.read(MAX_RECORD + 1).decode("utf-8", errors="replace")


def _verify(text: str, seed: str, seal: str) -> Checked:
    if not text.strip() or len(text) > MAX_RECORD:
        raise ProofError("No record.", "record")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise ProofError("Not JSON.", "record") from None
    if seed and isinstance(data, dict):
        data["seed"] = seed
    record, verdict = proofs.check_record(data, seal)
    return checked_lines(record, verdict)


# -- the verdict in words --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Line:
    check: str
    status: str  # ok, failed, unchecked
    text: str


@dataclass(frozen=True, slots=True)
class Checked:
    """A verdict as a page shows it: one line per check."""

    ok: bool
    lines: tuple[Line, ...]
    seed: str
    commitment: str
    number: int | None
    players: tuple[str, ...]


def checked_lines(record: HandRecord, verdict: Verdict) -> Checked:
    lines = []
    for check in Check:
        status = verdict.status(check)
        mismatch = verdict.mismatch(check)
        if mismatch is not None:
            text = mismatch_text(mismatch, record)
        elif status == "unchecked":
            text = _("%(what)s: not checked past the first problem.", what=CHECK_NAMES[check])
        else:
            text = _passed_text(check, verdict)
        lines.append(Line(check.value, status, text))
    return Checked(verdict.ok, tuple(lines), record.seed.hex(), record.commitment, record.number, record.players)


CHECK_NAMES = {
    Check.COMMITMENT: _l("The seal"),
    Check.DEAL: _l("The deal"),
    Check.DRAWS: _l("The stock"),
    Check.RESHUFFLES: _l("The reshuffles"),
    Check.MOVES: _l("The moves"),
}


def _passed_text(check: Check, verdict: Verdict) -> str:
    match check:
        case Check.COMMITMENT:
            return _("The shuffle key matches the seal.")
        case Check.DEAL:
            return _("Every hand dealt, and the first card of the pile, come from the key.")
        case Check.DRAWS if not verdict.draws:
            return _("No card was drawn from the stock.")
        case Check.DRAWS:
            return ngettext(
                "The %(num)s card drawn from the stock is the one the key put there.",
                "All %(num)s cards drawn from the stock are the ones the key put there.",
                verdict.draws,
            )
        case Check.RESHUFFLES if verdict.reshuffles:
            return ngettext(
                "The reshuffle comes from the key.", "All %(num)s reshuffles come from the key.", verdict.reshuffles
            )
        case Check.RESHUFFLES:
            return _("No reshuffle in this hand.")
    return _("Every move follows the rules.")


def mismatch_text(m: Mismatch, record: HandRecord) -> str:
    """What failed, in the page's language."""
    deck = record.rules.pack
    name = record.players[m.seat] if m.seat is not None and 0 <= m.seat < len(record.players) else ""
    if m.check is Check.COMMITMENT:
        return _(
            "The shuffle key does not match the seal: the key's SHA-256 begins %(hash)s.", hash=(m.found or "")[:16]
        )
    found, expected = _cards(m.found, deck), _cards(m.expected, deck)
    match m.check, m.key:
        case Check.COMMITMENT, _k:
            return _(
                "The shuffle key does not match the seal: the key's SHA-256 begins %(hash)s.", hash=(m.found or "")[:16]
            )
        case Check.DEAL, "hand":
            return _(
                "%(name)s was dealt %(found)s, but the key deals %(expected)s.",
                name=name,
                found=found,
                expected=expected,
            )
        case Check.DEAL, _k:
            return _(
                "The pile started with %(found)s, but the key turns up %(expected)s.", found=found, expected=expected
            )
        case _c, "stock_left":
            return _("The cards left in the stock are not in the key's order.")
        case Check.DRAWS, _k:
            return _(
                "Move %(n)s: %(name)s drew %(found)s, but the key put %(expected)s there.",
                n=m.move,
                name=name,
                found=found,
                expected=expected,
            )
        case Check.RESHUFFLES, "draw":
            return _(
                "Move %(n)s: %(name)s drew %(found)s after reshuffle %(r)s, but the key put %(expected)s there.",
                n=m.move,
                name=name,
                found=found,
                expected=expected,
                r=m.reshuffle,
            )
        case Check.RESHUFFLES, "missing":
            return _("Before move %(n)s the stock ran out: the key reshuffles there, the record does not.", n=m.move)
        case Check.RESHUFFLES, "extra":
            return _("The record reshuffles before move %(n)s, but the stock still had cards.", n=m.move)
        case Check.RESHUFFLES, _k:
            return _("The reshuffle before move %(n)s is not the one the rules make.", n=m.move)
    return _("Move %(n)s does not follow the rules.", n=m.move)


def _cards(tokens: str | None, deck: Deck) -> str:
    if not tokens:
        return "—"
    return " ".join(short_label(parse_card(t, deck), deck) for t in tokens.split())
