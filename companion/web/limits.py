"""Rate limits counted per link, under a generous ceiling per address.

A club's phones share one address (the room's Wi-Fi, a carrier's NAT): a
budget per address would let one table's writes refuse another's.  So a
page's writes count against its secret link (a table's, a seat's or a
group's: ``RATE_LIMIT_WRITES``, and ``RATE_LIMIT_PREVIEWS`` for the live
verdict while tapping, which only reads), and all the writes from one address
against a ceiling many tables high (``RATE_LIMIT_ADDRESS_WRITES``,
``RATE_LIMIT_ADDRESS_PREVIEWS``).  A flood through one link is cut at the
link's limit; a flood through made-up links, at the ceiling.  A write
without a link (creating a table or a group) counts against the ceiling only.
Keys hold a hash of the link, never the link.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, current_app, request
from flask_limiter.util import get_remote_address

from ..extensions import limiter
from .redaction import link_hash

LINK = "link "
ADDRESS = "address "


def link_token() -> str | None:
    values = request.view_args or {}
    return values.get("token") or values.get("seat_token")


def by_link() -> str:
    return LINK + link_hash(link_token() or "")


def by_address() -> str:
    return ADDRESS + get_remote_address()


def limit_posts(bp: Blueprint, is_preview: Callable[[], bool] | None = None) -> None:
    """Limit the POSTs of ``bp``: writes, and (when ``is_preview`` tells them
    apart) previews, each per link and per address."""
    never: Callable[[], bool] = lambda: False  # noqa: E731
    kinds: list[tuple[str, str, Callable[[], bool]]] = [("writes", "WRITES", is_preview or never)]
    if is_preview is not None:
        kinds.append(("previews", "PREVIEWS", lambda: not is_preview()))
    for scope, name, exempt in kinds:
        limiter.limit(
            _setting(f"RATE_LIMIT_{name}"),
            methods=["POST"],
            key_func=by_link,
            scope=scope,
            exempt_when=_or_without_link(exempt),
        )(bp)
        limiter.limit(
            _setting(f"RATE_LIMIT_ADDRESS_{name}"),
            methods=["POST"],
            key_func=by_address,
            scope=f"{scope} by address",
            exempt_when=exempt,
        )(bp)


def _or_without_link(exempt: Callable[[], bool]) -> Callable[[], bool]:
    """Exempt as ``exempt`` says, and when the request has no link to count against."""
    return lambda: exempt() or link_token() is None


def _setting(name: str) -> Callable[[], str]:
    return lambda: current_app.config[name]


def breached_by_link() -> bool:
    """Whether the limit this request broke is its link's (not the address's)."""
    current = limiter.current_limit
    return current is not None and LINK in current.key
