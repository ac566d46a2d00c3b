"""The one write pipeline every view goes through.

A view parses its request into plain values and hands one service call to
:func:`attempt`, which runs it inside the unit of work and turns what can
go wrong into a :class:`Refused` worded in the page's language: a form that
lost the race against another phone (``StaleError``, answered 409), a form
sent again (``AlreadySaved``; a creation form's names what it made then,
where its page leads) or a write another phone did first (``AlreadyDone``),
both news rather than failures, and a write the record does not allow (a
coded ``ChinchonError``, 400).  :func:`write` is the common answer of a
form: say what happened and go back (303).

What a page says after a write is known before the commit: the call returns
plain values, and nothing after the commit reads the database again.  (A
creation form that lost the race against its twin, sent at the same moment,
reads the twin's link after its rollback: ``AlreadySaved.made_link``.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from flask import flash, redirect
from werkzeug.wrappers import Response

from ..rules import ChinchonError
from ..services.unit import AlreadyDone, AlreadySaved, StaleError, transaction
from .messages import Replayed, Stale, error_text, replayed_text, stale_text

T = TypeVar("T")


class Why(StrEnum):
    """Why a write stored nothing."""

    STALE = "stale"  # another phone wrote first: the page is out of date
    REPLAYED = "replayed"  # this very form was stored already
    DONE = "done"  # what it asked for was done meanwhile, from another phone
    REFUSED = "refused"  # the rules or the record do not allow it


@dataclass(frozen=True, slots=True)
class Refused:
    """A write that stored nothing, and why, worded for the page."""

    why: Why
    message: str
    error: ChinchonError | None = None
    #: A creation form sent again: the owner link of what it made then.
    made: str | None = None

    @property
    def harmless(self) -> bool:
        """Nothing went wrong for the person: what they wanted is stored."""
        return self.why in (Why.REPLAYED, Why.DONE)

    @property
    def category(self) -> str:
        """The flash category: news in green, failures in red."""
        return "ok" if self.harmless else "error"

    @property
    def status(self) -> int:
        """The HTTP status of a page that shows the refusal itself."""
        return {Why.STALE: 409, Why.REFUSED: 400}.get(self.why, 200)

    @property
    def field(self) -> str:
        return self.error.field if self.error is not None else ""

    def flash(self) -> None:
        flash(self.message, self.category)


def attempt(call: Callable[[], T], *, stale: Stale = Stale.TABLE, replayed: Replayed = Replayed.OTHER) -> T | Refused:
    """Run one service call in the unit of work: its result, or why it stored nothing."""
    try:
        with transaction():
            return call()
    except StaleError:
        return Refused(Why.STALE, stale_text(stale))
    except AlreadySaved as saved:
        return Refused(Why.REPLAYED, replayed_text(replayed), made=saved.made_link())
    except AlreadyDone as done:
        return Refused(Why.DONE, error_text(done), done)
    except ChinchonError as error:
        return Refused(Why.REFUSED, error_text(error), error)


def write(
    call: Callable[[], T],
    back: str,
    done: Callable[[T], str | None] | str | None = None,
    *,
    stale: Stale = Stale.TABLE,
    replayed: Replayed = Replayed.OTHER,
    refused: Callable[[str], str] | None = None,
) -> tuple[Response, int]:
    """A form's write: run it, say what happened (``done`` from the call's
    result; a refusal in the page's words, put in context by ``refused``
    when given), and go back to ``back`` (303)."""
    outcome = attempt(call, stale=stale, replayed=replayed)
    if isinstance(outcome, Refused):
        if refused is not None and outcome.why is Why.REFUSED:
            flash(refused(outcome.message), "error")
        else:
            outcome.flash()
    else:
        said = done(outcome) if callable(done) else done
        if said:
            flash(said, "ok")
    return redirect(back), 303
