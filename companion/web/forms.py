"""Forms for creating a table and changing its settings.  Every label is translatable."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DecimalField,
    FieldList,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.validators import InputRequired, Length, NumberRange, Optional
from wtforms.widgets import HiddenInput

from ..rules import DECKS, PRESETS, ChinchonError, Rules, get_rules
from ..rules.match import verify_players
from ..rules.names import normalize_name
from ..rules.variants import AUTO, OPTIONS, TWO_DECKS, CloseRule, Layoffs
from ..services.unit import ServiceError
from .i18n import preset_name
from .messages import FormError, error_text

MAX_PLAYERS = 8
MAX_TARGET = OPTIONS["target"].high
MAX_JOKERS = OPTIONS["jokers"].high

#: What sets each preset apart, in a line (the presets themselves are the engine's).
PRESET_DESCRIPTIONS = {
    "classic": _l("Classic (German rules): close with one loose card worth 4 or less"),
    "fournier": _l("Fournier (Spain): close with loose cards worth 5 or less"),
    "sweden": _l("Swedish: 48 cards, courts count 10, no laying off"),
    "italy": _l("Italian: close from the first round, unlimited re-entries"),
}
PRESET_CHOICES = [SelectChoice(name, PRESET_DESCRIPTIONS.get(name, name)) for name in PRESETS]

DECK_CHOICES = [
    SelectChoice("", _l("As the preset says")),
    SelectChoice("spanish40", _l("Spanish 40 cards (no 8 and 9)")),
    SelectChoice("spanish48", _l("Spanish 48 cards (with 8 and 9)")),
    SelectChoice("french52", _l("French 52 cards")),
]

REENTRY_CHOICES = [
    SelectChoice("", _l("As the preset says")),
    SelectChoice("0", _l("No re-entry")),
    SelectChoice("1", _l("Once per player")),
    SelectChoice("2", _l("Twice per player")),
    SelectChoice("unlimited", _l("Unlimited")),
]


#: How each option's values read on a form; the values themselves come from the engine.
VALUE_LABELS = {
    "deck": {
        "spanish40": _l("Spanish 40 cards"),
        "spanish48": _l("Spanish 48 cards"),
        "french52": _l("French 52 cards"),
    },
    "close_rule": {"one_card": _l("One loose card at most"), "points": _l("Loose cards up to a limit")},
    "layoffs": {
        "all": _l("Onto every meld on the table"),
        "closer_only": _l("Only onto the closer's melds"),
        "none": _l("No laying off"),
    },
    "layoff_onto_full_close": {"false": _l("Not allowed"), "true": _l("Allowed")},
    "run_layoff_limit": {"null": _l("No limit"), "two_decks": _l("1 with two decks")},
    "decks": {"auto": _l("By the number of players")},
}


def referee_options() -> list[tuple[str, object, list[tuple[str, object]], bool]]:
    """The rule options a referee may change: ``(name, label, [(value, text)], reloads)``,
    each value one the engine accepts (its decks, enums and ranges)."""

    def choices(name: str, values) -> list[tuple[str, object]]:
        labels = VALUE_LABELS.get(name, {})
        return [("", _l("As the preset says"))] + [(str(v), labels.get(str(v), str(v))) for v in values]

    return [
        ("deck", _l("Cards"), choices("deck", DECKS), True),
        ("jokers", _l("Jokers in the pack"), choices("jokers", range(MAX_JOKERS + 1)), True),
        ("close_rule", _l("Closing"), choices("close_rule", [r.value for r in CloseRule]), False),
        ("layoffs", _l("Laying off"), choices("layoffs", [r.value for r in Layoffs]), False),
        (
            "layoff_onto_full_close",
            _l("Laying off onto an all-combined close"),
            choices("layoff_onto_full_close", ["false", "true"]),
            False,
        ),
        (
            "run_layoff_limit",
            _l("Cards added to one run per turn"),
            choices("run_layoff_limit", ["null", 1, TWO_DECKS]),
            False,
        ),
        ("decks", _l("Decks"), choices("decks", [AUTO, 1, 2]), True),
    ]


def preset_choices() -> list[tuple[str, str]]:
    """Every preset the engine has, by its translated name."""
    return [(name, preset_name(name)) for name in PRESETS]


class BoundedInteger(IntegerField):
    """A whole number of at most 9 digits: longer input is refused before
    Python builds a huge integer from it."""

    def process_formdata(self, valuelist):
        if valuelist and len(valuelist[0].strip().lstrip("+-")) > 9:
            self.data = None
            raise ValueError(self.gettext("Not a valid integer value."))
        super().process_formdata(valuelist)


class TableForm(FlaskForm):
    #: A group link: the match counts for that group (see companion/services/groups.py).
    group = HiddenField()
    group_name: str | None = None
    name = StringField(_l("Table name (optional)"), validators=[Optional(), Length(max=80)])
    preset = RadioField(_l("Rules"), choices=PRESET_CHOICES, default="classic", validators=[InputRequired()])
    players = FieldList(
        StringField(_l("Player"), validators=[Optional(), Length(max=40)]),
        min_entries=MAX_PLAYERS,
        max_entries=MAX_PLAYERS,
    )
    first_dealer = SelectField(
        _l("Who deals first?"), choices=[SelectChoice(str(i), str(i + 1)) for i in range(MAX_PLAYERS)], default="0"
    )
    jokers = SelectField(
        _l("Jokers in the pack"),
        choices=[SelectChoice("0", _l("None")), SelectChoice("1", "1"), SelectChoice("2", "2"), SelectChoice("4", "4")],
        default="0",
        description=_l("A joker stands for any card; left in hand it counts 25."),
    )
    wild_ace = BooleanField(
        _l("The ace of oros (A♦) is wild"), description=_l("It can stand for any card, or count as itself.")
    )
    target = BoundedInteger(
        _l("A player is out over"),
        default=100,
        validators=[InputRequired(), NumberRange(min=OPTIONS["target"].low, max=OPTIONS["target"].high)],
        description=_l("Usually 100; short matches play to 70 or 50."),
    )
    deck = SelectField(_l("Cards"), choices=DECK_CHOICES, default="")
    reentries = SelectField(
        _l("Re-entry (reenganche)"),
        choices=REENTRY_CHOICES,
        default="",
        description=_l("Right after going out a player may buy back in at the highest total still in."),
    )
    stake = DecimalField(
        _l("Stake per player (optional)"),
        places=2,
        validators=[Optional(), NumberRange(min=OPTIONS["stake"].low, max=OPTIONS["stake"].high)],
        description=_l("Paid into the pot at the start and at every re-entry; the winner takes the pot."),
    )
    suit_style = SelectField(
        _l("Suit marks"),
        choices=[
            SelectChoice("spanish", _l("Spanish (oros, copas, espadas, bastos)")),
            SelectChoice("french", _l("French (♦ ♥ ♠ ♣)")),
        ],
        default="spanish",
    )

    def player_names(self) -> list[str]:
        return [name for name in (normalize_name(p.data or "") for p in self.players) if name]

    def overrides(self) -> dict[str, object]:
        """The house variants as rules-engine overrides."""
        options: dict[str, object] = {}
        if self.deck.data:
            options["deck"] = self.deck.data
        if self.jokers.data and self.jokers.data != "0":
            options["jokers"] = int(self.jokers.data)
        if self.wild_ace.data:
            options["wild_cards"] = ["1o"]
        if self.target.data is not None and self.target.data != 100:
            options["target"] = self.target.data
        if self.reentries.data:
            options["reentries"] = None if self.reentries.data == "unlimited" else int(self.reentries.data)
        if self.stake.data:
            options["stake"] = str(self.stake.data)
        return options


class SettingsForm(FlaskForm):
    """The owner's settings: what may change mid-match (bounded like :class:`TableForm`)."""

    version = BoundedInteger(validators=[InputRequired()], widget=HiddenInput())
    name = StringField(_l("Table name (optional)"), validators=[Optional(), Length(max=80)])
    target = BoundedInteger(
        _l("A player is out over"), validators=[InputRequired(), NumberRange(min=OPTIONS["target"].low, max=MAX_TARGET)]
    )
    reentries = SelectField(_l("Re-entry (reenganche)"), choices=REENTRY_CHOICES[1:])

    @classmethod
    def of(cls, table_name: str, rules: Rules, version: int) -> SettingsForm:
        reentries = "unlimited" if rules.reentries is None else str(rules.reentries)
        if reentries not in {c.value for c in REENTRY_CHOICES}:
            reentries = "unlimited"
        return cls(formdata=None, version=version, name=table_name, target=rules.target, reentries=reentries)

    def overrides(self) -> dict[str, object]:
        value = self.reentries.data
        return {"target": self.target.data, "reentries": None if value == "unlimited" else int(value)}


def table_problem(form: TableForm, names: list[str]) -> FormError | None:
    """What is wrong with a new table's players and rules (the engine decides)."""
    try:
        rules = get_rules(form.preset.data, **form.overrides())
    except ChinchonError as error:
        return FormError(error.field.removeprefix("rules."), error_text(error))
    try:
        verify_players(names, rules)
    except ChinchonError as error:
        return FormError.of(error)
    if int(form.first_dealer.data) >= len(names):
        return FormError("first_dealer", error_text(ServiceError("first_dealer")))
    return None
