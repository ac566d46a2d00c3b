"""Forms for creating a table.  Every label and explanation is translatable."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DecimalField,
    FieldList,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from .i18n import error_text
from .rules import ChinchonError, get_rules
from .rules.variants import OPTIONS

MAX_PLAYERS = 8

PRESET_CHOICES = [
    SelectChoice("classic", _l("Classic (German rules): close with one loose card worth 4 or less")),
    SelectChoice("fournier", _l("Fournier (Spain): close with loose cards worth 5 or less")),
    SelectChoice("sweden", _l("Swedish: 48 cards, courts count 10, no laying off")),
    SelectChoice("italy", _l("Italian: close from the first round, unlimited re-entries")),
]

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


class TableForm(FlaskForm):
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
    target = IntegerField(
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
        return [p.data.strip() for p in self.players if p.data and p.data.strip()]

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


def table_problem(form: TableForm, names: list[str]) -> tuple[str, str] | None:
    """What is wrong with a new table's players and rules: ``(field, message)``."""
    if len(names) < 2:
        return "players", _("Add at least two players.")
    if len({n.casefold() for n in names}) != len(names):
        return "players", _("Two players have the same name; give each a different one.")
    if int(form.first_dealer.data) >= len(names):
        return "first_dealer", _("The first dealer must be one of the players.")
    try:
        rules = get_rules(form.preset.data, **form.overrides())
    except ChinchonError as error:
        return error.field.removeprefix("rules."), error_text(error)
    if not rules.min_players <= len(names) <= rules.max_players:
        return "players", _(
            "These rules are for %(low)s to %(high)s players.", low=rules.min_players, high=rules.max_players
        )
    return None
