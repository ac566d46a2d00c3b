"""The computer-player protocol: what any bot must offer.

A bot is a class whose instances answer two questions, each from a
:class:`~companion.bots.view.SeatView` (the seat's own cards and the public
facts, nothing hidden)::

    class MyBot:
        name = "mine"

        def choose_draw(self, view) -> str:          # "stock" or "discard"
            return "stock"

        def choose_end(self, view) -> tuple[Card, bool]:  # (card, close?)
            return view.hand[0], False

``choose_draw`` is asked with the seven cards held before drawing;
``choose_end`` with the eight held after, and answers the card to throw and
whether to close with it (put it face down) instead.  A close must be legal
(``view.can_close(card)``); an illegal close is played as a plain discard.
``"discard"`` with an empty pile draws from the stock.  A bot may be built
afresh for every turn (the web app does), so it should keep no state it
cannot rebuild from the view.

Register a bot by name in :data:`companion.bots.BOTS`, or load any class
with ``load_bot("package.module:Class")`` (the arena's ``--bot``).
"""

from __future__ import annotations

import importlib
from typing import Literal, Protocol, runtime_checkable

from ..rules import Card
from .view import SeatView

Source = Literal["stock", "discard"]


@runtime_checkable
class Bot(Protocol):
    name: str

    def choose_draw(self, view: SeatView) -> Source: ...

    def choose_end(self, view: SeatView) -> tuple[Card, bool]: ...


def load_bot(spec: str) -> type[Bot]:
    """The class named by ``"module:Class"``; refuses one without the protocol."""
    module_name, _, class_name = spec.partition(":")
    if not module_name or not class_name:
        raise ValueError(f"Name a bot as module:Class, not {spec!r}.")
    cls = getattr(importlib.import_module(module_name), class_name)
    if not all(callable(getattr(cls, m, None)) for m in ("choose_draw", "choose_end")):
        raise ValueError(f"{spec} has no choose_draw/choose_end.")
    return cls
