""" "Buy back in?": which questions a page answers, and the answer's form,
the same for a physical table's phones and a digital table's."""

from __future__ import annotations

from flask import flash, redirect, request
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ..models import GameTable
from ..services import reentries
from ..services.nextstep import NextStep
from .access import Link
from .messages import Replayed, incomplete_text, reentry_refused_text
from .writes import write


def offers(step: NextStep, link: Link) -> list[int]:
    """The buy-back questions this link's page answers (the others say whose they are)."""
    return [seat for seat in step.pending_seats if step.may_answer(seat, link.asker)]


def decide_reentry(table: GameTable, link: Link, back: str) -> tuple[Response, int]:
    """Answer "buy back in?" for the seat the form names, from this link's phone."""
    seat = request.form.get("seat", type=int)
    version = request.form.get("version", type=int)
    submission = (request.form.get("submission") or "")[:40]
    asker = link.asker
    if seat is None or version is None or not submission or asker is None:
        flash(incomplete_text(), "error")
        return redirect(back), 303
    declined = request.form.get("decision") == "no"
    name = table.names[seat] if 0 <= seat < len(table.names) else ""
    said = _("%(name)s stays out.", name=name) if declined else _("%(name)s is back in the game.", name=name)
    return write(
        lambda: reentries.reenter(table, version, submission, seat, declined=declined, asker=asker),
        back,
        said,
        replayed=Replayed.REENTRY,
        refused=reentry_refused_text,
    )
