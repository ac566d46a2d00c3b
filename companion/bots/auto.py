"""Computer players playing whole hands and matches (benchmarks, tests, and
the server's bot turns).  Same engine calls as human players make."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules import HandResult, MatchState, Rules
from ..rules.game import HandGame, Phase, Shuffler
from .protocol import Bot
from .view import seat_view

MAX_TURNS = 400  # a safety net; real hands end long before


def bot_turn(game: HandGame, bot: Bot, rng: Shuffler, *, totals: Sequence[int] | None = None) -> HandResult | None:
    """Play the whole turn of the seat to move; returns the result if it closed.

    The bot sees only :func:`seat_view` of its seat (``totals``: the match
    totals per seat, zeros when not given).  Asking for the pile when it is
    empty draws from the stock; an illegal close is played as a discard.
    """
    seat = game.turn
    if game.phase == Phase.DRAW:  # else a person's turn, drawn, handed to the computer
        source = bot.choose_draw(seat_view(game, seat, totals))
        if source not in ("stock", "discard") or not game.discards:
            source = "stock"
        if game.draw(seat, source, rng) is None:
            return None  # the pack ran out
    view = seat_view(game, seat, totals)
    card, close = bot.choose_end(view)
    if close and view.can_close(card):
        return game.close(seat, card)
    game.discard(seat, card)
    return None


def play_hand(
    game: HandGame, bots: Sequence[Bot], rng: Shuffler, *, totals: Sequence[int] | None = None
) -> HandResult | None:
    """Bots play until somebody closes (the result) or the pack runs out (None)."""
    for _ in range(MAX_TURNS):
        if game.phase == Phase.OVER:
            return None
        result = bot_turn(game, bots[game.turn], rng, totals=totals)
        if result is not None:
            return result
    if game.phase != Phase.OVER:  # the last turn may have voided the hand already
        game.abandon()
    return None


@dataclass
class MatchLog:
    state: MatchState
    events: list[dict[str, Any]] = field(default_factory=list)
    hands: int = 0
    closed: int = 0
    turns: int = 0


def play_match(
    rules: Rules, names: Sequence[str], bots: Mapping[str, Bot], rng: Shuffler, *, max_hands: int = 200
) -> MatchLog:
    """A whole match between computer players; re-enters whenever allowed."""
    log = MatchLog(MatchState.start(list(names), rules))
    state = log.state
    dealer_name = names[0]
    while not state.finished and log.hands < max_hands:
        seated = state.still_in
        dealer = seated.index(dealer_name) if dealer_name in seated else 0
        game = HandGame.deal(rules, len(seated), dealer, rng, table_players=len(names))
        totals = [state.totals[n] for n in seated]
        result = play_hand(game, [bots[n] for n in seated], rng, totals=totals)
        log.hands += 1
        log.turns += game.turns_taken + 1
        if result is not None:
            log.closed += 1
            event: dict[str, Any] = {"hand": {n: r.points for n, r in zip(seated, result.results or (), strict=True)}}
            state.apply(event)
            log.events.append(event)
            if result.wins_match and not state.finished:
                event = {"chinchon": seated[result.closer]}
                state.apply(event)
                log.events.append(event)
            for name in list(state.just_out):
                if state.can_reentry(name):
                    state.reentry(name)
                    log.events.append({"reentry": name})
        still = state.still_in
        after = [n for n in names if n in still]
        if after:
            later = [n for n in after if names.index(n) > names.index(dealer_name)]
            dealer_name = later[0] if later else after[0]
    return log
