"""Rule sets: every option of SPEC §7 as one frozen value, and the presets.

>>> r = get_rules("classic", jokers=2)
>>> r.jokers, r.close_rule, r.close_max
(2, <CloseRule.ONE_CARD: 'one_card'>, 4)
>>> get_rules("classic", close_rule="points").close_max   # resets to the rule's default
5
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from .cards import DECKS, JOKER, Card, Deck, parse_card
from .errors import CardError, RulesError


class CourtValues(enum.StrEnum):
    SEQUENCE = "sequence"
    TEN = "ten"


class CloseRule(enum.StrEnum):
    ONE_CARD = "one_card"
    POINTS = "points"


class Layoffs(enum.StrEnum):
    ALL = "all"
    CLOSER_ONLY = "closer_only"
    NONE = "none"


class Eliminate(enum.StrEnum):
    OVER = "over"
    REACH = "reach"


class Reshuffle(enum.StrEnum):
    KEEP_TOP = "keep_top"
    ALL = "all"


class Direction(enum.StrEnum):
    COUNTERCLOCKWISE = "counterclockwise"
    CLOCKWISE = "clockwise"


CLOSE_MAX_DEFAULT = {CloseRule.ONE_CARD: 4, CloseRule.POINTS: 5}
WINS_MATCH = "wins_match"
NO_CHINCHON = "none"
TWO_DECKS = "two_decks"
AUTO = "auto"


@dataclass(frozen=True, slots=True)
class Rules:
    """One table's rules.  Build it with :func:`get_rules`, which validates."""

    preset: str = "classic"
    deck: str = "spanish40"
    decks: int | str = AUTO
    min_players: int = 2
    max_players: int = 8
    court_values: CourtValues = CourtValues.SEQUENCE
    jokers: int = 0
    wild_cards: tuple[Card, ...] = ()
    joker_points: int = 25
    min_real_cards: int = 2
    max_wilds_per_meld: int | None = None
    close_rule: CloseRule = CloseRule.ONE_CARD
    close_max: int = 4
    first_round_close: bool = False
    all_combined_bonus: int = -10
    joker_run_bonus: tuple[int, ...] | None = (-50, -25)
    chinchon: str | int = WINS_MATCH
    layoffs: Layoffs = Layoffs.ALL
    layoff_onto_full_close: bool = False
    run_layoff_limit: int | str | None = None
    target: int = 100
    eliminate: Eliminate = Eliminate.OVER
    reentries: int | None = 1
    reentry_min_players: int = 3
    stake: Decimal = Decimal(0)
    reshuffle: Reshuffle = Reshuffle.KEEP_TOP
    direction: Direction = Direction.COUNTERCLOCKWISE
    _values: tuple[int, ...] = field(default=(), repr=False, compare=False, init=False)
    _keys: dict[Card, int] = field(default_factory=dict, repr=False, compare=False, init=False)
    _card_values: dict[Card, int] = field(default_factory=dict, repr=False, compare=False, init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_values", _value_table(self))
        deck = DECKS.get(self.deck)
        if deck is not None:
            values = {c: self.value(c) for c in [*deck.cards(), JOKER]}
            object.__setattr__(self, "_card_values", values)
            object.__setattr__(self, "_keys", {c: -v * 256 + deck.card_id(c) for c, v in values.items()})

    @property
    def card_values(self) -> dict[Card, int]:
        """Card → penalty points, for every card of the pack (jokers too)."""
        return self._card_values

    @property
    def card_keys(self) -> dict[Card, int]:
        """Card → ``-value * 256 + engine id``: sorting by it puts the highest
        value first, and ``key & 255`` gives the id back."""
        return self._keys

    # -- derived facts -------------------------------------------------
    @property
    def pack(self) -> Deck:
        return DECKS[self.deck]

    def copies(self, players: int | None = None) -> int:
        """How many copies of each real card the pack holds.

        ``decks: "auto"`` means one deck up to 4 players and two for 5–8; with
        the player count unknown it allows two copies.
        """
        if self.decks != AUTO:
            return int(self.decks)
        return 2 if players is None or players > 4 else 1

    def run_limit(self, players: int | None = None) -> int | None:
        """Cards a player may add to one run in their turn (None: no limit)."""
        if self.run_layoff_limit == TWO_DECKS:
            return 1 if self.copies(players) == 2 else None
        return self.run_layoff_limit  # type: ignore[return-value]

    @property
    def chinchon_wins_match(self) -> bool:
        return self.chinchon == WINS_MATCH

    def value(self, card: Card) -> int:
        """Penalty points of one unmatched card (SPEC §2)."""
        if card.suit is None:
            return self.joker_points
        return self._values[card.rank]

    def points(self, cards: list[Card] | tuple[Card, ...]) -> int:
        values = self._values
        return sum(self.joker_points if c.suit is None else values[c.rank] for c in cards)

    def is_wild(self, card: Card) -> bool:
        return card.suit is None or card in self.wild_cards

    def can_close(self, deadwood_cards: int, deadwood_points: int) -> bool:
        """Whether the unmatched kept cards satisfy the close rule."""
        if self.close_rule == CloseRule.ONE_CARD:
            return deadwood_cards == 0 or (deadwood_cards == 1 and deadwood_points <= self.close_max)
        return deadwood_points <= self.close_max

    def to_dict(self) -> dict[str, Any]:
        """Every option with its JSON value (SPEC §7 names)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if not f.init or f.name == "preset":
                continue
            out[f.name] = _json_value(getattr(self, f.name))
        return out

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this rules' preset, as JSON values."""
        base = PRESETS[self.preset].to_dict()
        return {k: v for k, v in self.to_dict().items() if base[k] != v}

    def with_options(self, **overrides: Any) -> Rules:
        """A copy with more overrides, validated."""
        return get_rules(self.preset, **(self.overrides() | overrides))


def _json_value(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, tuple):
        return [_json_value(v) for v in value]
    if isinstance(value, Card):
        return str(value)
    return value


def _value_table(rules: Rules) -> tuple[int, ...]:
    """Value of each rank (index = rank) under the deck and court_values."""
    deck = DECKS.get(rules.deck)
    table = [0] * 14
    if deck is None:
        return tuple(table)
    courts = set(deck.courts[1:])
    for rank in deck.ranks:
        if rank not in courts:
            table[rank] = rank
        elif rules.court_values == CourtValues.TEN:
            table[rank] = 10
        elif deck.name == "spanish40":
            table[rank] = {10: 8, 11: 9, 12: 10}[rank]
        else:
            table[rank] = rank
    return tuple(table)


_CLASSIC = Rules()
PRESETS: dict[str, Rules] = {
    "classic": _CLASSIC,
    "fournier": dataclasses.replace(_CLASSIC, preset="fournier", close_rule=CloseRule.POINTS, close_max=5),
    "sweden": dataclasses.replace(
        _CLASSIC,
        preset="sweden",
        deck="spanish48",
        decks=1,
        max_players=6,
        court_values=CourtValues.TEN,
        close_rule=CloseRule.POINTS,
        close_max=5,
        first_round_close=True,
        joker_run_bonus=None,
        layoffs=Layoffs.NONE,
    ),
    "italy": dataclasses.replace(
        _CLASSIC,
        preset="italy",
        close_rule=CloseRule.POINTS,
        close_max=5,
        first_round_close=True,
        joker_run_bonus=None,
        chinchon=NO_CHINCHON,
        run_layoff_limit=TWO_DECKS,
        reentries=None,
        reentry_min_players=2,
        reshuffle=Reshuffle.ALL,
        direction=Direction.CLOCKWISE,
    ),
}

OPTION_NAMES: tuple[str, ...] = tuple(k for k in _CLASSIC.to_dict())


# -- validation ---------------------------------------------------------------
def _int(name: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"Option {name} must be a whole number.", f"rules.{name}", option=name)
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            bound = f"at least {low}"
        elif low is None:
            bound = f"at most {high}"
        else:
            bound = f"from {low} to {high}"
        raise RulesError(f"Option {name} must be {bound}, not {value}.", f"rules.{name}", option=name)
    return value


def _bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise RulesError(f"Option {name} must be true or false.", f"rules.{name}", option=name)
    return value


def _choice(name: str, value: Any, enum_type: type[enum.StrEnum]) -> Any:
    try:
        return enum_type(value)
    except ValueError:
        allowed = ", ".join(e.value for e in enum_type)
        raise RulesError(
            f"Option {name} must be one of {allowed}, not {value!r}.", f"rules.{name}", option=name
        ) from None


def _convert(name: str, value: Any, deck: Deck) -> Any:
    """Check one option's value and convert it to the Rules field type."""
    match name:
        case "deck":
            if value not in DECKS:
                raise RulesError(
                    f"Option deck must be one of {', '.join(DECKS)}, not {value!r}.", "rules.deck", option=name
                )
            return value
        case "decks":
            if value == AUTO:
                return AUTO
            return _int(name, value, 1, 2)
        case "min_players" | "max_players":
            return _int(name, value, 2, 8)
        case "court_values":
            return _choice(name, value, CourtValues)
        case "jokers":
            return _int(name, value, 0, 4)
        case "wild_cards":
            if not isinstance(value, list | tuple):
                raise RulesError("Option wild_cards must be a list of cards.", "rules.wild_cards", option=name)
            cards = []
            for token in value:
                try:
                    card = parse_card(token, deck, "rules.wild_cards")
                except CardError as error:
                    raise RulesError(f"Option wild_cards: {error}", "rules.wild_cards", option=name) from None
                if card == JOKER:
                    raise RulesError(
                        "Option wild_cards lists real cards; jokers are set with the jokers option.",
                        "rules.wild_cards",
                        option=name,
                    )
                if card not in cards:
                    cards.append(card)
            return tuple(cards)
        case "joker_points" | "close_max":
            return _int(name, value, 0)
        case "min_real_cards":
            return _int(name, value, 1, 3)
        case "max_wilds_per_meld":
            return None if value is None else _int(name, value, 1)
        case "close_rule":
            return _choice(name, value, CloseRule)
        case "first_round_close" | "layoff_onto_full_close":
            return _bool(name, value)
        case "all_combined_bonus":
            return _int(name, value)
        case "joker_run_bonus":
            if value is None:
                return None
            if not isinstance(value, list | tuple) or not 1 <= len(value) <= 2:
                raise RulesError(
                    "Option joker_run_bonus must be null or a list of one or two whole numbers.",
                    "rules.joker_run_bonus",
                    option=name,
                )
            return tuple(_int(name, v) for v in value)
        case "chinchon":
            if value in (WINS_MATCH, NO_CHINCHON):
                return value
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(
                    'Option chinchon must be "wins_match", "none" or a whole number of points.',
                    "rules.chinchon",
                    option=name,
                )
            return value
        case "layoffs":
            return _choice(name, value, Layoffs)
        case "run_layoff_limit":
            if value is None or value == TWO_DECKS:
                return value
            return _int(name, value, 1)
        case "target":
            return _int(name, value, 1)
        case "eliminate":
            return _choice(name, value, Eliminate)
        case "reentries":
            return None if value is None else _int(name, value, 0)
        case "reentry_min_players":
            return _int(name, value, 2)
        case "stake":
            if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
                raise RulesError("Option stake must be a number of at least 0.", "rules.stake", option=name)
            try:
                stake = Decimal(str(value))
            except InvalidOperation:
                raise RulesError("Option stake must be a number of at least 0.", "rules.stake", option=name) from None
            if not stake.is_finite() or stake < 0:
                raise RulesError("Option stake must be a number of at least 0.", "rules.stake", option=name)
            return stake
        case "reshuffle":
            return _choice(name, value, Reshuffle)
        case "direction":
            return _choice(name, value, Direction)
    raise RulesError(f"There is no rules option called {name!r}.", f"rules.{name}", option=name)


_NULLABLE = {"max_wilds_per_meld", "joker_run_bonus", "run_layoff_limit", "reentries"}


def get_rules(preset: str | None = "classic", /, **overrides: Any) -> Rules:
    """A preset with overrides, every name and value validated.

    Options given as ``None`` that cannot be null count as absent (they keep
    the preset's value).  Overriding ``close_rule`` alone also resets
    ``close_max`` to that rule's default.
    """
    if preset is None:
        preset = "classic"
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RulesError(
            f"There is no preset called {preset!r}; choose one of {', '.join(PRESETS)}.",
            "rules.preset",
            option="preset",
        )
    base = PRESETS[preset]
    for name in overrides:
        if name not in OPTION_NAMES:
            raise RulesError(f"There is no rules option called {name!r}.", f"rules.{name}", option=name)
    given = {k: v for k, v in overrides.items() if v is not None or k in _NULLABLE}
    deck_name = given.get("deck", base.deck)
    deck = DECKS[_convert("deck", deck_name, base.pack)]
    values = {name: _convert(name, value, deck) for name, value in given.items()}
    if "close_rule" in values and "close_max" not in values:
        values["close_max"] = CLOSE_MAX_DEFAULT[values["close_rule"]]
    if "deck" in values and "wild_cards" not in values and base.wild_cards:
        values["wild_cards"] = tuple(c for c in base.wild_cards if c in deck)
    rules = dataclasses.replace(base, **values)
    if rules.min_players > rules.max_players:
        name = "min_players" if "min_players" in values else "max_players"
        raise RulesError(
            f"min_players ({rules.min_players}) cannot be more than max_players ({rules.max_players}).",
            f"rules.{name}",
            option=name,
        )
    return rules


def rules_from_json(obj: Any) -> Rules:
    """The API's rules object ``{"preset": NAME, ...overrides}`` (null = classic)."""
    if obj is None:
        return PRESETS["classic"]
    if not isinstance(obj, Mapping):
        raise RulesError('rules must be an object such as {"preset": "classic"}.', "rules", option="")
    options = dict(obj)
    preset = options.pop("preset", None)
    return get_rules(preset, **options)
