"""A match: totals, eliminations, reenganche, the pot and the winners (SPEC §6).

>>> m = replay_match(["Ana", "Ben"], [{"hand": {"Ana": 30, "Ben": 3}}], get_rules("classic"))
>>> m.totals, m.finished
({'Ana': 30, 'Ben': 3}, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from .errors import ChinchonError, CountError, MatchError
from .names import normalize_name, repeated_name
from .variants import Eliminate, Rules, get_rules  # noqa: F401  (doctest uses get_rules)


@dataclass(slots=True)
class MatchState:
    """Where a match stands.  Change it only through its methods, which check
    every event first (``verify_x`` raises, ``can_x`` asks, ``x`` does)."""

    rules: Rules
    players: tuple[str, ...]
    totals: dict[str, int] = field(default_factory=dict)
    out: list[str] = field(default_factory=list)
    reentries: dict[str, int] = field(default_factory=dict)
    pot: Decimal = Decimal(0)
    winners: list[str] = field(default_factory=list)
    finished: bool = False
    #: Players who went out in the last hand (their window to buy back in).
    just_out: list[str] = field(default_factory=list)
    hands: int = 0
    chinchon_by: str | None = None

    @classmethod
    def start(cls, players: Sequence[str], rules: Rules) -> MatchState:
        names = tuple(players)
        verify_players(names, rules)
        return cls(
            rules=rules,
            players=names,
            totals=dict.fromkeys(names, 0),
            reentries=dict.fromkeys(names, 0),
            pot=rules.stake * len(names),
        )

    # -- derived ------------------------------------------------------------
    @property
    def still_in(self) -> list[str]:
        return [p for p in self.players if p not in self.out]

    @property
    def can_reenter(self) -> list[str]:
        return [p for p in self.just_out if self.can_reentry(p)]

    def reentry_price(self) -> int:
        """The total a returning player takes: the highest among those still in."""
        return max(self.totals[p] for p in self.still_in)

    def is_over_target(self, total: int) -> bool:
        if self.rules.eliminate == Eliminate.REACH:
            return total >= self.rules.target
        return total > self.rules.target

    # -- hand ---------------------------------------------------------------
    def verify_hand(self, points: Mapping[str, Any]) -> None:
        if self.finished:
            raise MatchError("The match is already over.")
        if not isinstance(points, Mapping):
            raise MatchError("A hand gives points as {player: points}.")
        for name, value in points.items():
            if name not in self.totals:
                raise MatchError(f"{name!r} is not a player in this match.", player=str(name))
            if name in self.out:
                raise MatchError(f"{name} is out and cannot score.", player=name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise MatchError(f"{name}'s points must be a whole number.", player=name)
        missing = [p for p in self.still_in if p not in points]
        if missing:
            raise MatchError(f"Every player still in needs points; missing: {', '.join(missing)}.", player=missing[0])

    def hand(self, points: Mapping[str, int]) -> list[str]:
        """Add one hand's points; returns the players who went out in it."""
        self.verify_hand(points)
        playing = self.still_in
        for name in playing:
            self.totals[name] += points[name]
        went_out = [p for p in playing if self.is_over_target(self.totals[p])]
        self.out.extend(went_out)
        self.just_out = went_out
        self.hands += 1
        left = self.still_in
        if not left:
            low = min(self.totals[p] for p in went_out)
            self._finish([p for p in went_out if self.totals[p] == low])
        elif len(left) == 1 and not self.can_reenter:
            self._finish(left)
        return went_out

    # -- Chinchón -------------------------------------------------------------
    def verify_chinchon(self, name: str) -> None:
        if not self.rules.chinchon_wins_match:
            raise MatchError("Under these rules a Chinchón does not win the match.", player=str(name))
        if self.finished:
            raise MatchError("The match is already over.")
        if name not in self.totals:
            raise MatchError(f"{name!r} is not a player in this match.", player=str(name))
        if name in self.out:
            raise MatchError(f"{name} is out and cannot close.", player=name)

    def chinchon(self, name: str) -> None:
        """A Chinchón that wins the match ends it at once."""
        self.verify_chinchon(name)
        self.chinchon_by = name
        self._finish([name])

    # -- reenganche -------------------------------------------------------------
    def verify_reentry(self, name: str) -> None:
        """Refusals carry ``key`` (and the numbers) so a front end can word them."""
        rules = self.rules
        if self.finished:
            raise MatchError("The match is already over.", player=str(name), key="finished")
        if name not in self.totals:
            raise MatchError(f"{name!r} is not a player in this match.", player=str(name), key="not_player")
        if name not in self.out:
            raise MatchError(f"{name} is still in the game.", player=name, key="still_in")
        if name not in self.just_out:
            raise MatchError(
                f"{name} can only buy back in right after the hand in which they went out.", player=name, key="too_late"
            )
        if rules.reentries is not None and self.reentries[name] >= rules.reentries:
            if rules.reentries == 0:
                raise MatchError("These rules allow no re-entry.", player=name, key="no_reentry")
            raise MatchError(
                f"{name} has already bought back in {self.reentries[name]} time(s), the limit.",
                player=name,
                key="reentries_used",
                count=rules.reentries,
            )
        if len(self.still_in) < rules.reentry_min_players:
            raise MatchError(
                f"Re-entry needs at least {rules.reentry_min_players} players still in; only {len(self.still_in)} are.",
                player=name,
                key="min_players",
                count=rules.reentry_min_players,
                left=len(self.still_in),
            )

    def can_reentry(self, name: str) -> bool:
        try:
            self.verify_reentry(name)
        except MatchError:
            return False
        return True

    def reentry(self, name: str) -> int:
        """Buy back in at the highest total still in, paying the stake again."""
        self.verify_reentry(name)
        price = self.reentry_price()
        self.totals[name] = price
        self.out.remove(name)
        self.just_out = [p for p in self.just_out if p != name]
        self.reentries[name] += 1
        self.pot += self.rules.stake
        return price

    def _finish(self, winners: list[str]) -> None:
        self.finished = True
        self.winners = winners
        self.just_out = []

    # -- replay ---------------------------------------------------------------
    def apply(self, event: Any) -> None:
        """Apply one JSON-style event: ``{"hand": {...}}``, ``{"chinchon": name}``
        or ``{"reentry": name}``.  Its shape is checked before any rule."""
        if not isinstance(event, Mapping) or len(event) != 1:
            raise MatchError('An event is {"hand": {...}}, {"chinchon": name} or {"reentry": name}.')
        ((kind, value),) = event.items()
        if kind == "hand":
            self.hand(_hand_points(value))
        elif kind in ("chinchon", "reentry"):
            if not isinstance(value, str) or len(value) > NAME_LENGTH:
                raise MatchError(f'A {kind} event names one player, such as {{"{kind}": "Ana"}}.')
            if kind == "chinchon":
                self.chinchon(value)
            else:
                self.reentry(value)
        else:
            raise MatchError("Unknown event; use hand, chinchon or reentry.")

    def to_dict(self) -> dict[str, Any]:
        pot = self.pot
        return {
            "totals": dict(self.totals),
            "in": self.still_in,
            "out": list(self.out),
            "reentries": dict(self.reentries),
            "can_reenter": self.can_reenter,
            "pot": int(pot) if pot == pot.to_integral_value() else float(pot),
            "finished": self.finished,
            "winners": list(self.winners),
        }


#: Points one player may score in one hand of an event, either way.
HAND_POINTS_BOUND = 10_000
#: The longest player name (the create form's limit).
NAME_LENGTH = 40


def _hand_points(value: Any) -> Mapping[str, int]:
    """A hand event's ``{player: points}``, each a whole number within the bound."""
    if not isinstance(value, Mapping):
        raise MatchError('A hand gives points as {player: points}, such as {"Ana": 12, "Ben": -10}.')
    for name, points in value.items():
        if isinstance(name, str) and len(name) > NAME_LENGTH:
            raise MatchError(f"A player's name has at most {NAME_LENGTH} characters.")
        if isinstance(points, bool) or not isinstance(points, int) or abs(points) > HAND_POINTS_BOUND:
            raise MatchError(
                f"Points in a hand must be whole numbers from {-HAND_POINTS_BOUND} to {HAND_POINTS_BOUND}.",
                player=str(name),
            )
    return value


def verify_players(names: Sequence[Any], rules: Rules) -> None:
    if not rules.min_players <= len(names) <= rules.max_players:
        raise CountError(
            f"These rules are for {rules.min_players} to {rules.max_players} players; got {len(names)}.",
            "players",
            key="players_count",
            count=len(names),
            low=rules.min_players,
            high=rules.max_players,
        )
    for name in names:
        if not isinstance(name, str) or not normalize_name(name):
            raise ChinchonError("Each player needs a name.", "players", key="name_missing")
        if len(name) > NAME_LENGTH:
            raise ChinchonError(
                f"A player's name has at most {NAME_LENGTH} characters.", "players", key="name_long", high=NAME_LENGTH
            )
    twice = repeated_name(names)
    if twice is not None:
        raise ChinchonError(
            f"Two players are called {twice}; give each a different name.", "players", key="name_twice", name=twice
        )


def replay_match(players: Sequence[str], events: Sequence[Any] | None, rules: Rules) -> MatchState:
    """Replay a match from its events; errors name the event (``events[i]``)."""
    state = MatchState.start(players, rules)
    for i, event in enumerate(events or ()):
        try:
            state.apply(event)
        except MatchError as error:
            raise error.at(f"events[{i}]") from None
    return state
