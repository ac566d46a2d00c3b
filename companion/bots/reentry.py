"""A computer player's answer to "buy back in?" (SPEC §4), and the one the
computer gives for a person whose seat it plays.

It buys back in when what it expects to win pays for the stake.  Back in at
the re-entry total (the highest total still in), each player's strength is
the product of its heads-up chances against every other player
(:mod:`companion.bots.equity`, the race the expert plays heads-up matches
by), and its chance of winning the pot is its share of the strengths (equal
totals: one in as many as are in).  With no stake it always buys back in
(it costs nothing); with one, it does when ``chance × (pot + stake) >
stake``.
"""

from __future__ import annotations

import math

from ..rules.match import MatchState
from ..rules.variants import Eliminate
from .equity import equity


def win_chance(state: MatchState, name: str) -> float:
    """The chance that ``name``, back in at the re-entry total, wins the match."""
    rules = state.rules
    race = equity(rules.target, rules.eliminate == Eliminate.REACH)
    totals = {other: state.totals[other] for other in state.still_in if other != name}
    totals[name] = state.reentry_price()
    strength = {
        player: math.prod(race(total, theirs) for other, theirs in totals.items() if other != player)
        for player, total in totals.items()
    }
    field = sum(strength.values())
    return strength[name] / field if field else 0.0


def buys_back(state: MatchState, name: str) -> bool:
    """Whether the computer buys ``name`` back in (asked only when the rules let it)."""
    stake = state.rules.stake
    if not stake:
        return True
    return win_chance(state, name) * float(state.pot + stake) > float(stake)
