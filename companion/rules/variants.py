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
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Final, Literal

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
TWO_DECKS: Final = "two_decks"
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
    run_layoff_limit: int | Literal["two_decks"] | None = None
    target: int = 100
    eliminate: Eliminate = Eliminate.OVER
    reentries: int | None = 1
    reentry_min_players: int = 3
    stake: Decimal = Decimal(0)
    reshuffle: Reshuffle = Reshuffle.KEEP_TOP
    #: Reshuffles allowed in one hand (None: no limit); one more voids the hand.
    max_reshuffles: int | None = None
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
        return self.run_layoff_limit

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


# -- the option table ---------------------------------------------------------
#: Bound of every option counted in points (bonuses, joker value, close limit).
POINTS_BOUND = 1000


@dataclass(frozen=True, slots=True)
class Option:
    """One rules option as data: the JSON values it accepts (SPEC §7).

    :func:`get_rules` checks every override against this table, and the API
    publishes it in its OpenAPI document, so the two cannot disagree.

    ``kind`` is ``int``, ``bool``, ``choice``, ``cards`` (a list of real
    cards), ``ints`` (a list of whole numbers) or ``money`` (a number with at
    most ``places`` decimals, or the same as text matching ``pattern``).
    ``words`` are the strings accepted (a choice's values, or a word beside a
    number such as ``"auto"``).  ``null`` is a value for a ``nullable``
    option; for the others it keeps the preset's value.
    """

    kind: str
    low: int | None = None
    high: int | None = None
    words: tuple[str, ...] = ()
    nullable: bool = False
    enum_type: type[enum.StrEnum] | None = None
    length: tuple[int, int] = (0, 0)
    places: int = 0
    pattern: str = ""
    doc: str = ""

    def expected(self) -> str:
        """What the option takes, as the end of a sentence ("must be …")."""
        number = _range_text(self.low, self.high)
        words = [f'"{w}"' for w in self.words]
        match self.kind:
            case "bool":
                text = "true or false"
            case "choice":
                text = "one of " + ", ".join(words)
            case "cards":
                text = f'a list of at most {self.high} real cards of the deck, such as ["1o"]'
            case "ints":
                low, high = self.length
                count = f"{low} to {high}" if low != high else str(low)
                text = f"a list of {count} whole numbers, each {number}"
            case "money":
                text = f"a number {number} with at most {self.places} decimals"
            case _:
                text = " or ".join(filter(None, [", ".join(words), f"a whole number {number}"]))
        return f"null or {text}" if self.nullable else text


def _range_text(low: int | None, high: int | None) -> str:
    if high is None:
        return f"at least {low}" if low is not None else ""
    if low is None:
        return f"at most {high}"
    return f"from {low} to {high}"


def _choice_option(enum_type: type[enum.StrEnum], doc: str) -> Option:
    return Option("choice", words=tuple(e.value for e in enum_type), enum_type=enum_type, doc=doc)


OPTIONS: dict[str, Option] = {
    "deck": Option("choice", words=tuple(DECKS), doc="The pack: spanish40 (no 8 and 9), spanish48 or french52."),
    "decks": Option(
        "int", 1, 2, words=(AUTO,), doc='Decks shuffled together; "auto": one up to 4 players, two for 5–8.'
    ),
    "min_players": Option("int", 2, 8, doc="Fewest players these rules are for."),
    "max_players": Option("int", 2, 8, doc="Most players these rules are for."),
    "court_values": _choice_option(CourtValues, "What court cards count when unmatched (SPEC §2)."),
    "jokers": Option("int", 0, 4, doc="Jokers in the whole pack."),
    "wild_cards": Option("cards", high=52, doc="Real cards that are wild as well (e.g. the A♦, 1o)."),
    "joker_points": Option("int", 0, POINTS_BOUND, doc="What an unmatched joker counts."),
    "min_real_cards": Option("int", 1, 3, doc="Cards of a meld that must not act as wild."),
    "max_wilds_per_meld": Option(
        "int", 1, 13, nullable=True, doc="Most cards acting as wild in one meld (null: no limit)."
    ),
    "close_rule": _choice_option(CloseRule, "When a close is legal (SPEC §4)."),
    "close_max": Option("int", 0, POINTS_BOUND, doc="The close rule's limit in points."),
    "first_round_close": Option("bool", doc="Whether a player may close before everybody has had a turn."),
    "all_combined_bonus": Option("int", -POINTS_BOUND, POINTS_BOUND, doc="The closer's score with all seven combined."),
    "joker_run_bonus": Option(
        "ints",
        -POINTS_BOUND,
        POINTS_BOUND,
        nullable=True,
        length=(1, 2),
        doc="Scores of a seven-card run with one wild, then two (null: none).",
    ),
    "chinchon": Option(
        "int",
        -POINTS_BOUND,
        POINTS_BOUND,
        words=(WINS_MATCH, NO_CHINCHON),
        doc="What a genuine Chinchón does: wins the match, nothing special, or scores these points.",
    ),
    "layoffs": _choice_option(Layoffs, "Onto whose melds the other players may lay off (SPEC §5)."),
    "layoff_onto_full_close": Option("bool", doc="Whether cards may be laid off onto an all-combined close."),
    "run_layoff_limit": Option(
        "int",
        1,
        13,
        words=(TWO_DECKS,),
        nullable=True,
        doc='Cards a player may add to one run in their turn (null: no limit; "two_decks": 1 with two decks).',
    ),
    "target": Option("int", 1, 10_000, doc="A player whose total goes over (or reaches) this is out."),
    "eliminate": _choice_option(Eliminate, "Out over the target, or on reaching it."),
    "reentries": Option("int", 0, 100, nullable=True, doc="Re-entries allowed per player (null: unlimited)."),
    "reentry_min_players": Option("int", 2, 8, doc="Players who must still be in for a re-entry."),
    "stake": Option(
        "money",
        0,
        1_000_000,
        places=2,
        pattern=r"^[0-9]{1,7}(\.[0-9]{1,2})?$",
        doc="Paid into the pot by each player at the start and at each re-entry.",
    ),
    "reshuffle": _choice_option(Reshuffle, "What is shuffled when the stock runs out."),
    "max_reshuffles": Option(
        "int",
        0,
        100,
        nullable=True,
        doc="Times the stock may be reshuffled in one hand; once more and the hand is void (null: unlimited).",
    ),
    "direction": _choice_option(Direction, "Play direction."),
}


def _shown(value: Any) -> str:
    """A short picture of a bad value for a message (never a huge repr)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if abs(value) < 10**15 else "a number that large"
    if isinstance(value, str) and len(value) <= 20:
        return repr(value)
    kinds: dict[type, str] = {list: "a list", tuple: "a list", dict: "an object", str: "a long text"}
    return kinds.get(type(value), "that")


def _refuse(name: str, option: Option, value: Any, detail: str = "") -> RulesError:
    message = detail or f"Option {name} must be {option.expected()}, not {_shown(value)}."
    return RulesError(message, f"rules.{name}", option=name)


def _whole(value: Any, low: int | None, high: int | None) -> bool:
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    return (low is None or value >= low) and (high is None or value <= high)


def _money(option: Option, value: Any) -> Decimal | None:
    """The amount, or None when the value is not one this option takes."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        if not re.fullmatch(option.pattern, value):
            return None
        amount = Decimal(value)
    elif isinstance(value, int):
        if abs(value) > 10**15:
            return None
        amount = Decimal(value)
    elif isinstance(value, float):
        if not math.isfinite(value) or abs(value) > 1e15:
            return None
        amount = Decimal(repr(value))
    elif isinstance(value, Decimal):
        if not value.is_finite() or abs(value) > 10**15:
            return None
        amount = value
    else:
        return None
    if not option.low <= amount <= option.high:  # type: ignore[operator]  # money options always have both bounds
        return None
    if amount != amount.quantize(Decimal(1).scaleb(-option.places)):
        return None
    return amount


def _convert(name: str, value: Any, deck: Deck) -> Any:
    """Check one option's value against its table entry; convert it to the Rules field type."""
    option = OPTIONS.get(name)
    if option is None:
        raise RulesError(f"There is no rules option called {_shown(name)}.", f"rules.{name}", option=name)
    if value is None and option.nullable:
        return None
    match option.kind:
        case "bool":
            if isinstance(value, bool):
                return value
        case "choice":
            if isinstance(value, str) and value in option.words:
                return option.enum_type(value) if option.enum_type else value
        case "int":
            if isinstance(value, str) and value in option.words:
                return value
            if _whole(value, option.low, option.high):
                return value
            if _whole(value, None, None) and abs(value) < 10**15:
                bound = " or ".join([*(f'"{w}"' for w in option.words), _range_text(option.low, option.high)])
                raise _refuse(name, option, value, f"Option {name} must be {bound}, not {value}.")
        case "ints":
            low, high = option.length
            fits = isinstance(value, list | tuple) and low <= len(value) <= high
            if fits and all(_whole(v, option.low, option.high) for v in value):
                return tuple(value)
        case "money":
            amount = _money(option, value)
            if amount is not None:
                return amount
        case "cards":
            if isinstance(value, list | tuple) and len(value) <= option.high:  # type: ignore[operator]  # a cards option has a high
                return _wild_cards(name, option, value, deck)
    raise _refuse(name, option, value)


def _wild_cards(name: str, option: Option, value: list | tuple, deck: Deck) -> tuple[Card, ...]:
    cards: list[Card] = []
    for token in value:
        if not isinstance(token, str):
            raise _refuse(name, option, value, f'Option {name} lists cards as text such as "1o", not {_shown(token)}.')
        try:
            card = parse_card(token, deck, f"rules.{name}")
        except CardError as error:
            raise _refuse(name, option, value, f"Option {name}: {error}") from None
        if card == JOKER:
            raise _refuse(
                name, option, value, f"Option {name} lists real cards; jokers are set with the jokers option."
            )
        if card not in cards:
            cards.append(card)
    return tuple(cards)


_NULLABLE = {name for name, option in OPTIONS.items() if option.nullable}


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
            f"There is no preset called {_shown(preset)}; choose one of {', '.join(PRESETS)}.",
            "rules.preset",
            option="preset",
        )
    base = PRESETS[preset]
    for name in overrides:
        if name not in OPTION_NAMES:
            raise RulesError(f"There is no rules option called {_shown(name)}.", f"rules.{name}", option=name)
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
