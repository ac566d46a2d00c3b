"""Computer players and automatic play: pure Python over the rules engine.

``BOTS`` maps a level's name to its class; ``play_hand`` and ``play_match``
run whole hands and matches (tests, benchmarks, the server's bot turns).
"""

from .auto import bot_turn, play_hand, play_match
from .players import BOTS, GoodBot, SimpleBot

__all__ = ["BOTS", "GoodBot", "SimpleBot", "bot_turn", "play_hand", "play_match"]
