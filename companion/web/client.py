"""What the client code (companion/static/) is told by the server, in one JSON.

``client_config()`` gives the route shapes (``/t/{token}/hands/new``), the
hand form's field names, the offline queue's header and the statuses the
server answers a queued hand with, and the static files the service worker
precaches with the release they make.  Pages carry it in
``<meta name="client-config" content="...">`` (as htmx's config: an inline
script, even of JSON, is what the app's pages never hold); the service worker
reads it from ``/client.json``.  The words the scripts show are not in it:
they are the page's, in its language (``offline_texts()``).

The server side of the queue reads the same constants (``QUEUE_HEADER``,
``QueueStatus``), so neither side spells them on its own.
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from flask import current_app, has_request_context, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

#: Sent (with ``QUEUED``) by a hand the phone kept offline and sends later:
#: the server answers it with a ``QueueAnswer`` (JSON) instead of pages.
QUEUE_HEADER = "X-Chinchon-Queue"
QUEUED = "1"


class QueueStatus(enum.StrEnum):
    """What the server did with a queued hand (its answer is 200 for each)."""

    STORED = "stored"  # saved now, or saved before (its submission id was seen)
    STALE = "stale"  # the table changed meanwhile: ``last`` is what is stored
    REFUSED = "refused"  # the engine refused it: ``error`` says why, ``field`` where


class LastHand(TypedDict):
    number: int
    closer: str
    points: list[list[str | int]]  # [name, points] per seat


class QueueAnswer(TypedDict):
    """The JSON a queued hand gets back."""

    status: QueueStatus
    version: int  # the table's version now
    next_number: int
    last: LastHand | None
    error: NotRequired[str]
    field: NotRequired[str | None]


def is_queued(headers: Mapping[str, str]) -> bool:
    """Was this request sent by the phone's offline queue?"""
    return headers.get(QUEUE_HEADER) == QUEUED


#: The hand form's fields the scripts read and fill (tables/entry.py reads them).
HAND_FIELDS = {
    "csrf": "csrf_token",
    "version": "version",
    "submission": "submission",
    "number": "number",  # the hand's number as the page showed it
    "action": "action",
    "save": "save",  # the value of ``action`` that saves the hand
    "closer": "closer",
    "closerScore": "closer_score",
    "discard": "discard",
    # Per seat: its cards ``h0``, the points typed for it ``p0``, the arrangement chosen ``c0``.
    "cards": "h",
    "points": "p",
    "choice": "c",
}

#: What the service worker precaches: these files at their content-hashed URLs.
STATIC_ASSETS = (
    "app.css",
    "app.js",
    "offline.js",
    "js/routes.js",
    "js/queue.js",
    "js/drafts.js",
    "js/creations.js",
    "js/wakelock.js",
    "js/worker.js",
    "js/clock.js",
    "htmx.min.js",
    "suits.svg",
    "icon.svg",
    "icon-192.png",
)
#: The service worker, a static file served at ``/sw.js`` (scope ``/``).
SERVICE_WORKER = "sw.js"

#: A route's parameters as they appear in its shape.  A number parameter
#: (``<int:number>``) cannot take ``{number}``: it is built with a number no
#: route takes (app.BoundedInt stops at 2**31 - 1), then replaced.
_NUMBERS = {"number": 2**31 + 7, "table_id": 2**31 + 7}


def route_shape(endpoint: str, *params: str, **fixed: Any) -> str:
    """The address of ``endpoint`` with ``{name}`` for each parameter (and the
    ``fixed`` values as they are): ``route_shape("tables.scoreboard", "token")``
    is ``/t/{token}``."""
    values: dict[str, Any] = {name: _NUMBERS.get(name, f"{{{name}}}") for name in params}
    shape = url_for(endpoint, **fixed, **values).replace("%7B", "{").replace("%7D", "}")
    for name in params:
        if name in _NUMBERS:
            shape = shape.replace(str(_NUMBERS[name]), f"{{{name}}}")
    return shape


def route_shapes() -> dict[str, str]:
    """The addresses the scripts build, recognize, or have the worker keep."""
    return {
        "home": route_shape("main.home"),
        "scoreboard": route_shape("tables.scoreboard", "token"),
        "newHand": route_shape("tables.new_hand", "token"),
        "editHand": route_shape("tables.edit_hand", "token", "number"),
        "history": route_shape("tables.history", "token"),
        "qr": route_shape("tables.qr", "token"),
        "offline": route_shape("main.offline"),
        "serviceWorker": route_shape("main.service_worker"),
        "config": route_shape("main.client_json"),
        "static": route_shape("static", "filename"),
    }


def client_config() -> dict[str, Any]:
    """The one JSON the scripts and the service worker read (every page
    carries it: made once per app and address root, not to be changed)."""
    made = current_app.extensions.setdefault("client_config", {})
    root = request.script_root if has_request_context() else ""
    if root not in made:
        made[root] = _client_config()
    return made[root]


def page_config() -> dict[str, Any]:
    """What every page carries of :func:`client_config`: all but the files
    the worker precaches, which only the worker reads (from ``/client.json``)."""
    return {key: value for key, value in client_config().items() if key != "assets"}


def _client_config() -> dict[str, Any]:
    """``version`` names the release: a hash of everything else here and of
    the worker, so new files, routes or fields (or a new worker) install a
    new worker."""
    config: dict[str, Any] = {
        "routes": route_shapes(),
        "fields": HAND_FIELDS,
        "queue": {"header": QUEUE_HEADER, "value": QUEUED, "statuses": {s.name.lower(): s.value for s in QueueStatus}},
        "assets": [url_for("static", filename=name) for name in STATIC_ASSETS],
    }
    release = json.dumps(config, sort_keys=True) + current_app.extensions["static_hashes"][SERVICE_WORKER]
    return {"version": hashlib.sha256(release.encode()).hexdigest()[:12], **config}


def offline_texts() -> dict[str, str]:
    """What offline.js says, in the page's language (``{n}``, ``{time}``... are
    filled in by the script)."""
    return {
        "asOf": _("offline · as of %(time)s", time="{time}"),
        "queueOne": ngettext("%(count)s hand waiting to be sent", "%(count)s hands waiting to be sent", 1, count="{n}"),
        "queueOther": ngettext(
            "%(count)s hand waiting to be sent", "%(count)s hands waiting to be sent", 2, count="{n}"
        ),
        "hand": _("Hand %(number)s", number="{n}"),
        "closed": _("%(name)s closed", name="{name}"),
        "unchecked": _("not checked yet"),
        "uncheckedLong": _("Not checked yet: the rules engine checks these cards when the hand is sent."),
        "kept": _(
            "No connection: hand %(number)s is kept on this phone and will be sent by itself when the connection returns.",
            number="{n}",
        ),
        "notSent": _("No connection: nothing was sent. Try again when the connection returns."),
        "keptUnsaved": _(
            "Hand %(number)s is kept on this phone and is sent by itself as soon as the server can save it.",
            number="{n}",
        ),
        "editing": _("You are changing a hand that is waiting to be sent."),
        "edit": _("Change"),
        "drop": _("Drop"),
        "refused": _("The rules engine refused this hand:"),
        "stale": _("Another phone saved this table meanwhile. Stored on the server:"),
        "yours": _("Yours, not sent:"),
        "sendMine": _("Send mine as the next hand"),
        "dropMine": _("Drop mine"),
        "sent": ngettext("%(count)s hand sent.", "%(count)s hands sent.", 1, count="{n}"),
        "sentOther": ngettext("%(count)s hand sent.", "%(count)s hands sent.", 2, count="{n}"),
        "retry": _("Not sent yet (%(reason)s); trying again shortly.", reason="{reason}"),
        "wakeRefused": _("This phone would not keep the screen on."),
        "startOver": _("Clear every card and score of this hand?"),
    }
