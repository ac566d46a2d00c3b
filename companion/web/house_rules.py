"""Every house rule the engine has, as form fields.

One table, :data:`HOUSE_RULES`, says how each option of the engine's
:data:`~companion.rules.variants.OPTIONS` reads on a form: the kind of field,
a label, a line of description and the words for its values.  The forms of a
table, a digital game and a group, and the settings pages, are generated
from it; the values a field offers (words, ranges, enums) are the engine's,
and the engine (``get_rules``) judges what is sent.  A field left blank keeps
the preset's value, so a preset and nothing else gives exactly the preset.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, DecimalField, IntegerField, SelectChoice, SelectField, StringField
from wtforms.validators import Length, NumberRange, Optional, StopValidation, ValidationError

from ..rules import DECKS, PRESETS, ChinchonError, Rules, get_rules, parse_card
from ..rules.variants import CLOSE_MAX_DEFAULT, OPTIONS, CloseRule
from .i18n import number, preset_name
from .messages import error_text

SELECT = "select"  # one of the engine's values: its words, null, the numbers of its range
NUMBER = "number"  # a whole number in the engine's range
POINTS = "points"  # one of the engine's words, or points typed beside them
CARDS = "cards"  # real cards typed ("1o 12e"), beside the box for the ace of oros
MONEY = "money"  # an amount with cents

#: Options no form offers, and why.
NOT_ON_FORMS = {
    "min_players": "follows from the players: the table has exactly the players typed",
    "max_players": "follows from the players: the table has exactly the players typed",
}

#: A whole number, or "points" on a form for an option that takes points beside its words.
AS_POINTS = "points"


@dataclass(frozen=True, slots=True)
class HouseRule:
    """How one engine option reads on a form.  ``values``: the words for its
    values by form token (numbers read as themselves unless named here);
    ``most``: the highest number a select lists (default: the engine's
    bound); ``null``: the form's token for the engine's null."""

    kind: str
    label: Any
    description: Any
    values: Mapping[str, Any] = field(default_factory=dict)
    most: int | None = None
    null: str = "unlimited"


ALLOWED = {"true": _l("Allowed"), "false": _l("Not allowed")}

HOUSE_RULES: dict[str, HouseRule] = {
    "deck": HouseRule(
        SELECT,
        _l("Cards"),
        _l("The Spanish pack of 40 has no 8 and 9; the one of 48 has them."),
        {
            "spanish40": _l("Spanish 40 cards (no 8 and 9)"),
            "spanish48": _l("Spanish 48 cards (with 8 and 9)"),
            "french52": _l("French 52 cards"),
        },
    ),
    "decks": HouseRule(
        SELECT,
        _l("Decks"),
        _l("Packs shuffled together; by the number of players means one up to 4, two for 5 to 8."),
        {"auto": _l("By the number of players"), "1": _l("One"), "2": _l("Two")},
    ),
    "court_values": HouseRule(
        SELECT,
        _l("Court cards"),
        _l("What a loose jack, knight or king counts."),
        {"sequence": _l("In sequence (8, 9 and 10 in the pack of 40)"), "ten": _l("10 each")},
    ),
    "jokers": HouseRule(
        SELECT, _l("Jokers in the pack"), _l("A joker stands for any card in a meld."), {"0": _l("None")}
    ),
    "wild_cards": HouseRule(
        CARDS,
        _l("Other wild cards"),
        _l("Real cards that stand for any card too, typed like 2c 12e (the number, then o, c, e or b)."),
    ),
    "joker_points": HouseRule(NUMBER, _l("A joker left in hand counts"), _l("Points of a joker not in a meld.")),
    "min_real_cards": HouseRule(
        SELECT, _l("Real cards in a meld, at least"), _l("Cards of a meld that are not standing in as wild.")
    ),
    "max_wilds_per_meld": HouseRule(
        SELECT,
        _l("Wild cards in a meld, at most"),
        _l("Jokers and wild cards standing in within one meld."),
        {"unlimited": _l("No limit")},
    ),
    "close_rule": HouseRule(
        SELECT,
        _l("Closing"),
        _l("When a player may close the hand."),
        {"one_card": _l("One loose card at most"), "points": _l("Loose cards up to a limit")},
    ),
    "close_max": HouseRule(
        NUMBER,
        _l("Close limit (points)"),
        _l(
            "What the loose cards may be worth at most. Left blank with another close rule, it is that rule's usual limit: %(one)s for one card, %(points)s for points.",
            one=CLOSE_MAX_DEFAULT[CloseRule.ONE_CARD],
            points=CLOSE_MAX_DEFAULT[CloseRule.POINTS],
        ),
    ),
    "first_round_close": HouseRule(
        SELECT,
        _l("Closing in the first round"),
        _l("Whether a player may close before everybody has had a turn."),
        ALLOWED,
    ),
    "all_combined_bonus": HouseRule(
        NUMBER, _l("All seven combined scores"), _l("The closer's score with no loose card; usually −10.")
    ),
    "joker_run_bonus": HouseRule(
        POINTS,
        _l("A seven-card run with a joker scores"),
        _l("The closer's score for a run of all seven with one wild card, then with two; usually −50 and −25."),
        {"none": _l("Nothing special"), AS_POINTS: _l("These points:")},
        null="none",
    ),
    "chinchon": HouseRule(
        POINTS,
        _l("A Chinchón"),
        _l("Seven cards in a row of one suit, none of them wild."),
        {
            "wins_match": _l("Wins the match"),
            "none": _l("Nothing special: all seven combined"),
            AS_POINTS: _l("Scores these points:"),
        },
    ),
    "layoffs": HouseRule(
        SELECT,
        _l("Laying off"),
        _l("Onto whose melds the others may add their cards once a hand is closed."),
        {
            "all": _l("Onto every meld on the table"),
            "closer_only": _l("Only onto the closer's melds"),
            "none": _l("No laying off"),
        },
    ),
    "layoff_onto_full_close": HouseRule(
        SELECT,
        _l("Laying off onto an all-combined close"),
        _l("Whether cards may be added to the melds of a closer with all seven combined."),
        ALLOWED,
    ),
    "run_layoff_limit": HouseRule(
        SELECT,
        _l("Cards added to one run per turn"),
        _l("How many cards a player may lay off onto one run."),
        {"unlimited": _l("No limit"), "two_decks": _l("1 with two decks")},
    ),
    "target": HouseRule(NUMBER, _l("A player is out over"), _l("Usually 100; short matches play to 70 or 50.")),
    "eliminate": HouseRule(
        SELECT,
        _l("Out at the target"),
        _l("Whether reaching the target is already out, or only going over it."),
        {"over": _l("Only over it"), "reach": _l("Already on reaching it")},
    ),
    "reentries": HouseRule(
        SELECT,
        _l("Re-entry (reenganche)"),
        _l("Right after going out a player may buy back in at the highest total still in."),
        {
            "unlimited": _l("Unlimited"),
            "0": _l("No re-entry"),
            "1": _l("Once per player"),
            "2": _l("Twice per player"),
            **{str(n): _l("%(num)s times per player", num=n) for n in (3, 4, 5)},
        },
        most=5,
    ),
    "reentry_min_players": HouseRule(
        SELECT,
        _l("Re-entry needs players still in"),
        _l("How many players must still be in for somebody to buy back in."),
    ),
    "stake": HouseRule(
        MONEY,
        _l("Stake per player (optional)"),
        _l("Paid into the pot at the start and at every re-entry; the winner takes the pot."),
    ),
    "reshuffle": HouseRule(
        SELECT,
        _l("When the stock runs out"),
        _l("What is shuffled into a new stock. Matters only when the app deals."),
        {"keep_top": _l("The discards but the top one"), "all": _l("Every discard")},
    ),
    "max_reshuffles": HouseRule(
        SELECT,
        _l("Reshuffling the stock"),
        _l(
            "A house rule for hands that go round without anybody closing: nobody scores a void hand. Matters only when the app deals."
        ),
        {
            "unlimited": _l("Unlimited, as the rulebooks say"),
            "0": _l("Never: the hand is void when the stock runs out"),
            "1": _l("Once, then the hand is void"),
            "2": _l("Twice, then the hand is void"),
            "3": _l("Three times, then the hand is void"),
        },
        most=3,
    ),
    "direction": HouseRule(
        SELECT,
        _l("Direction of play"),
        _l("Which way the turn and the deal go round."),
        {"counterclockwise": _l("Counterclockwise (to the right)"), "clockwise": _l("Clockwise (to the left)")},
    ),
}


# -- values on a form ---------------------------------------------------------------------
def to_token(name: str, value: Any) -> str:
    """An engine value (JSON) as the form writes it: ``None`` → the rule's
    null word, booleans → ``true``/``false``, numbers as digits."""
    if value is None:
        return HOUSE_RULES[name].null
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value)
    return str(value)


def from_token(name: str, token: str) -> Any:
    """A select's token as the engine's value (the select has checked it is one of its choices)."""
    option = OPTIONS[name]
    if option.nullable and token == HOUSE_RULES[name].null:
        return None
    if option.kind == "bool":
        return token == "true"
    if token in option.words:
        return token
    return int(token)


def tokens(name: str) -> list[str]:
    """What a select offers for one option, from the engine's table."""
    option, rule = OPTIONS[name], HOUSE_RULES[name]
    if option.kind == "bool":
        return ["true", "false"]
    found = [rule.null] if option.nullable else []
    found += option.words
    if rule.kind == POINTS:
        return [*found, AS_POINTS]
    if option.kind == "int":
        assert option.low is not None and option.high is not None  # the engine bounds every int option
        found += [str(n) for n in range(option.low, min(option.high, rule.most or option.high) + 1)]
    return found


def value_text(name: str, value: Any) -> str:
    """An engine value as the form's words say it (numbers as numbers, −10 with a real minus)."""
    if isinstance(value, list | tuple) and HOUSE_RULES[name].kind != CARDS:
        return " ".join(signed(v) for v in value)
    token = to_token(name, value)
    label = HOUSE_RULES[name].values.get(token)
    if label is not None:
        return str(label)
    if isinstance(value, int) and not isinstance(value, bool):
        return signed(value)
    return token or _("None")


def signed(number: int) -> str:
    """A number with the minus sign of print (U+2212): ``signed(-10) == "−10"``."""
    return f"−{-number}" if number < 0 else str(number)


@functools.cache
def _preset_options() -> dict[str, dict[str, Any]]:
    """Each preset's options as JSON values, worked out once (every form lists them)."""
    return {preset: rules.to_dict() for preset, rules in PRESETS.items()}


def preset_says(name: str) -> str:
    """What the presets give an option: "25", or "Classic: 4 · Fournier, Swedish, Italian: 5"."""
    return _preset_says(name, str(get_locale()))


@functools.lru_cache(maxsize=512)
def _preset_says(name: str, locale: str) -> str:
    """:func:`preset_says` in the request's language (``locale`` keys the cache)."""
    by_value: dict[str, list[str]] = {}
    for preset, options in _preset_options().items():
        value = options[name]
        by_value.setdefault(value_text(name, value), []).append(preset_name(preset))
    if len(by_value) == 1:
        return next(iter(by_value))
    return " · ".join(f"{', '.join(names)}: {value}" for value, names in by_value.items())


def _choices(name: str):
    def choices(form, field) -> list[SelectChoice]:
        offered = tokens(name)
        if field.data and field.data not in offered and _engine_takes(name, field.data):
            offered.append(field.data)  # a value set elsewhere (the API), beyond what the select lists
        blank = SelectChoice("", _("As the preset says: %(value)s", value=preset_says(name)))
        return [blank, *(SelectChoice(t, choice_text(name, t)) for t in offered)]

    return choices


def choice_text(name: str, token: str) -> str:
    label = HOUSE_RULES[name].values.get(token)
    return str(label) if label is not None else value_text(name, from_token(name, token))


def _engine_takes(name: str, token: str) -> bool:
    if not re.fullmatch(r"-?\d{1,6}", token):
        return False
    try:
        get_rules("classic", **{name: int(token)})
    except ChinchonError:
        return False
    return True


# -- the fields ------------------------------------------------------------------------------
class BoundedInteger(IntegerField):
    """A whole number of at most 9 digits: longer input is refused before
    Python builds a huge integer from it."""

    def process_formdata(self, valuelist):
        if valuelist and len(valuelist[0].strip().lstrip("+-−")) > 9:
            self.data = None
            raise ValueError(self.gettext("Not a valid integer value."))
        if valuelist:
            valuelist = [valuelist[0].replace("−", "-")]
        super().process_formdata(valuelist)


class Between(NumberRange):
    """A number from ``low`` to ``high``, refused with the bounds written as
    the page's language writes numbers ("from 0 to 1,000,000", "de 0 a
    1.000.000"; WTForms' own message prints 1000000)."""

    def __init__(self, low, high, message=None) -> None:
        super().__init__(min=low, max=high)
        self.words = _l("Type a whole number from %(low)s to %(high)s.") if message is None else message

    def __call__(self, form, field) -> None:
        try:
            super().__call__(form, field)
        except ValidationError:
            bounds = {"low": number(self.min), "high": number(self.max)}
            raise ValidationError(self.words % bounds) from None


class WholeNumbers(StringField):
    """Whole numbers typed with spaces or commas between them ("−50 −25")."""

    def process_formdata(self, valuelist):
        text = (valuelist[0] if valuelist else "").replace("−", "-")
        parts = [p for p in re.split(r"[\s,;/]+", text) if p]
        self.data = None
        if parts and (len(parts) > 9 or not all(re.fullmatch(r"[+-]?\d{1,9}", p) for p in parts)):
            raise ValueError(_("Type whole numbers with a space between them, such as −50 −25."))
        if parts:
            self.data = [int(p) for p in parts]

    def _value(self):
        if self.raw_data:
            return self.raw_data[0]
        return " ".join(signed(v) for v in self.data) if self.data else ""


def _points_needed(name: str):
    """The points beside a select: needed when the select says "these points"."""

    def check(form, field) -> None:
        if form[name].data == AS_POINTS and not (field.raw_data and field.raw_data[0].strip()):
            raise StopValidation(_("Type the points."))  # before Optional, which would clear it

    return check


def _in_range(name: str):
    option = OPTIONS[name]

    def check(form, field) -> None:
        low, high = option.length
        values = field.data or []
        if not low <= len(values) <= high or not all(option.low <= v <= option.high for v in values):
            raise ValidationError(
                _(
                    "Type %(low)s to %(high)s whole numbers, each from %(min)s to %(max)s.",
                    low=low,
                    high=high,
                    min=number(option.low),
                    max=number(option.high),
                )
            )

    return check


class FiniteDecimal(DecimalField):
    """A decimal number; "NaN" and "Infinity" are not one (WTForms takes them)."""

    data: Decimal | None

    def process_formdata(self, valuelist):
        super().process_formdata(valuelist)
        if self.data is not None and not self.data.is_finite():
            self.data = None
            raise ValueError(self.gettext("Not a valid decimal value."))


def _cents(form, field) -> None:
    if field.data is not None and field.data.as_tuple().exponent < -OPTIONS["stake"].places:
        raise ValidationError(_("The stake is counted in cents: at most two decimals."))


def _deck_of(form) -> str:
    chosen = form["deck"].data if "deck" in form else None
    if chosen in DECKS:
        return chosen
    preset = form["preset"].data if "preset" in form else None
    return PRESETS.get(preset or "classic", PRESETS["classic"]).deck


def _real_cards(form, field) -> None:
    """Every wild card typed is a real card of the pack (jokers have their own field)."""
    deck = DECKS[_deck_of(form)]
    for token in split_cards(field.data):
        try:
            card = parse_card(token, deck, "wild_cards")
        except ChinchonError as error:
            raise ValidationError(error_text(error)) from None
        if card.is_joker:
            raise ValidationError(_("Jokers are counted in their own field, not among the wild cards."))


def split_cards(text: str | None) -> list[str]:
    return [t for t in re.split(r"[\s,;]+", text or "") if t]


def house_field(name: str, **kwargs):
    """The unbound form field of one option (``kwargs``: another label or description)."""
    option, rule = OPTIONS[name], HOUSE_RULES[name]
    kwargs = {"label": rule.label, "description": rule.description, **kwargs}
    match rule.kind:
        case "select" | "points":
            return SelectField(choices=_choices(name), default="", **kwargs)
        case "number":
            return BoundedInteger(validators=[Optional(), Between(option.low, option.high)], **kwargs)
        case "money":
            return FiniteDecimal(
                places=option.places,
                validators=[
                    Optional(),
                    Between(option.low, option.high, _l("Type an amount from %(low)s to %(high)s.")),
                    _cents,
                ],
                **kwargs,
            )
        case "cards":
            return StringField(validators=[Optional(), Length(max=200), _real_cards], **kwargs)
    raise ValueError(f"no field kind {rule.kind!r}")


def points_field(name: str):
    """The points typed beside a ``points`` select."""
    option = OPTIONS[name]
    label = _l("Points")
    if option.kind == "ints":
        return WholeNumbers(label, validators=[_points_needed(name), Optional(), _in_range(name)])
    return BoundedInteger(label, validators=[_points_needed(name), Optional(), Between(option.low, option.high)])


@dataclass(frozen=True, slots=True)
class Shown:
    """One option as a template draws it."""

    name: str
    kind: str
    field: Any
    points: Any = None

    @property
    def option(self):
        return OPTIONS[self.name]

    @property
    def placeholder(self) -> str:
        return preset_says(self.name)


class HouseRules:
    """Every house rule as a field (mix in before ``FlaskForm``): the field of
    option ``x`` is called ``x``; a ``points`` option has ``x_points`` beside it;
    ``wild_ace`` ticks the ace of oros among the wild cards."""

    wild_ace = BooleanField(
        _l("The ace of oros (A♦) is wild"), description=_l("It can stand for any card, or count as itself.")
    )

    if TYPE_CHECKING:  # the form's, at run time (this class is mixed in before FlaskForm)

        def __getitem__(self, name: str) -> Any: ...

        def __contains__(self, name: str) -> bool: ...

    def house_names(self, skip=()) -> list[str]:
        """The options on this form, in the engine's order, but those in ``skip``."""
        return [n for n in HOUSE_RULES if n in self and n not in skip]

    def house(self, name: str) -> Shown:
        kind = HOUSE_RULES[name].kind
        return Shown(name, kind, self[name], self[f"{name}_points"] if kind == POINTS else None)

    def house_open(self, names, when_set: bool = True) -> bool:
        """Whether any of these options has an error (or, ``when_set``, a value): its section opens."""
        fields = [f for n in names for f in (self.house(n).field, self.house(n).points) if f is not None]
        if "wild_cards" in names and "wild_ace" in self:
            fields.append(self["wild_ace"])
        return any(f.errors or (when_set and f.data not in (None, "") and f.data is not False) for f in fields)

    def house_values(self) -> dict[str, Any]:
        """The options given on the form, as the engine's (JSON) values."""
        values: dict[str, Any] = {}
        for name in self.house_names():
            shown = self.house(name)
            data = shown.field.data
            match shown.kind:
                case "points" if data == AS_POINTS:
                    values[name] = shown.points.data
                case "select" | "points":
                    if data:
                        values[name] = from_token(name, data)
                case "number":
                    if data is not None:
                        values[name] = data
                case "money":
                    if data is not None:
                        values[name] = str(data)
                case "cards":
                    cards = (["1o"] if self["wild_ace"].data else []) + split_cards(data)
                    if cards:
                        deck = DECKS[_deck_of(self)]
                        values[name] = list(dict.fromkeys(str(parse_card(c, deck)) for c in cards))
        return values

    def overrides(self) -> dict[str, Any]:
        """The house rules as engine overrides: what differs from the preset
        (the engine judges; a refusal names its option's field)."""
        return minimal(self["preset"].data, self.house_values())

    def fill(self, options: Mapping[str, Any]) -> None:
        """Show these options (engine values by name) on the form."""
        for name, value in options.items():
            if name not in HOUSE_RULES or name not in self:
                continue
            shown = self.house(name)
            match shown.kind:
                case "points" if isinstance(value, int | list) and not isinstance(value, bool):
                    shown.field.data = AS_POINTS
                    shown.points.data = value
                case "select" | "points":
                    shown.field.data = to_token(name, value)
                case "number":
                    shown.field.data = value
                case "money":
                    shown.field.data = Decimal(str(value)) if value else None
                    shown.field.raw_data = [str(value)] if value else []  # as it was typed: "0.5" stays "0.5"
                case "cards":
                    cards = list(value)
                    self["wild_ace"].data = "1o" in cards
                    shown.field.data = " ".join(c for c in cards if c != "1o")


for _name in HOUSE_RULES:
    setattr(HouseRules, _name, house_field(_name))
    if HOUSE_RULES[_name].kind == POINTS:
        setattr(HouseRules, f"{_name}_points", points_field(_name))


def minimal(preset: str, given: Mapping[str, Any], keep=()) -> dict[str, Any]:
    """``given`` without the values the preset has anyway (but those in
    ``keep``), as long as that gives the same rules: the engine reads
    ``close_max`` beside ``close_rule``, so a limit equal to the preset's
    stays when the rule changes.  Refused options raise the engine's error."""
    rules: Rules = get_rules(preset, **given)
    base = PRESETS[preset]
    kept = {k: v for k, v in given.items() if k in keep or getattr(rules, k) != getattr(base, k)}
    without = get_rules(preset, **kept)
    kept |= {k: v for k, v in given.items() if getattr(without, k) != getattr(rules, k)}
    return kept if get_rules(preset, **kept) == rules else dict(given)
