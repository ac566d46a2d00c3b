"""The app's settings for digital play, handed to the play services."""

from __future__ import annotations

from flask import current_app

from ..services.play import BOT_SECONDS, BOT_TURNS, Pace


def play_pace() -> Pace:
    """``PLAY_SEED`` replays the same deals (tests); ``PLAY_BOT_TURNS`` and
    ``PLAY_BOT_SECONDS`` bound the computer players' share of one request;
    ``PLAY_BOT_THINK_MS`` is the expert's thinking budget per decision, spent
    in a helper process at low priority unless ``PLAY_BOT_APART`` is false."""
    config = current_app.config
    return Pace(
        seed=config.get("PLAY_SEED"),
        turns=config.get("PLAY_BOT_TURNS", BOT_TURNS),
        seconds=config.get("PLAY_BOT_SECONDS", BOT_SECONDS),
        think_ms=config.get("PLAY_BOT_THINK_MS"),
        apart=config.get("PLAY_BOT_APART", True),
    )
