"""Computer players and automatic play: pure Python over the rules engine.

A bot sees only a :class:`SeatView` (:func:`seat_view`), and answers the
protocol of :mod:`companion.bots.protocol`: ``choose_draw(view)`` →
``"stock"`` or ``"discard"``; ``choose_end(view)`` → ``(card, close)``.
``BOTS`` maps a level's name to its class; ``bot_turn``, ``play_hand`` and
``play_match`` run turns, whole hands and matches (the server's bot turns,
tests, benchmarks, ``python -m companion.bots.arena``).
"""

from .auto import bot_turn, play_hand, play_match
from .expert import ExpertBot
from .players import GoodBot, SimpleBot
from .protocol import Bot, load_bot
from .view import SeatView, Thrown, seat_view

BOTS: dict[str, type[Bot]] = {"simple": SimpleBot, "good": GoodBot, "expert": ExpertBot}

__all__ = [
    "BOTS",
    "Bot",
    "ExpertBot",
    "GoodBot",
    "SeatView",
    "SimpleBot",
    "Thrown",
    "bot_turn",
    "load_bot",
    "play_hand",
    "play_match",
    "seat_view",
]
