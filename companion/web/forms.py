"""Forms for creating a table and changing its settings.  Every label is translatable."""

from __future__ import annotations

import unicodedata
import uuid

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import FieldList, HiddenField, RadioField, SelectChoice, SelectField, StringField
from wtforms.validators import InputRequired, Length, Optional
from wtforms.widgets import HiddenInput

from ..models import GameTable, PlayerKind, PlayMode, TurnClock
from ..rules import DECKS, PRESETS, ChinchonError, get_rules
from ..rules.match import verify_players
from ..rules.names import normalize_name
from ..rules.variants import AUTO, OPTIONS, TWO_DECKS, CloseRule, Layoffs
from ..services.clock import PACES
from ..services.tables import changeable
from ..services.unit import SUBMISSION_ID, ServiceError
from .house_rules import HOUSE_RULES, POINTS, BoundedInteger, HouseRules, minimal
from .i18n import preset_title
from .messages import FormError, error_text

MAX_PLAYERS = 8
MAX_JOKERS: int = OPTIONS["jokers"].high or 0

#: What sets each preset apart, in a line (the presets themselves are the engine's).
PRESET_DESCRIPTIONS = {
    "classic": _l("Classic: close with one loose card worth 4 or less"),
    "fournier": _l("Fournier: close with loose cards worth 5 or less in all"),
    "sweden": _l("Swedish: 48 cards, courts count 10, no laying off"),
    "italy": _l("Italian: close from the first round, unlimited re-entries"),
}
PRESET_CHOICES = [SelectChoice(name, PRESET_DESCRIPTIONS.get(name, name)) for name in PRESETS]

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
    return [(name, preset_title(name)) for name in PRESETS]


def _clock_label(clock: TurnClock) -> object:
    pace = PACES[clock]
    turn, reserve = int(pace.turn.total_seconds()), int(pace.reserve.total_seconds() // 60)
    if clock is TurnClock.QUICK:
        return _l("Quick: %(turn)s s a turn, plus %(reserve)s min in reserve each hand", turn=turn, reserve=reserve)
    return _l("Relaxed: %(turn)s s a turn, plus %(reserve)s min in reserve each hand", turn=turn, reserve=reserve)


#: A digital table's turn clock (``services.clock`` holds the seconds).
CLOCK_CHOICES = [
    SelectChoice(TurnClock.OFF, _l("No clock: the table waits for each player")),
    *(SelectChoice(clock, _clock_label(clock)) for clock in (TurnClock.RELAXED, TurnClock.QUICK)),
]
CLOCK_LABEL = _l("Turn clock (each on their own phone)")
CLOCK_HELP = _l(
    "When a turn's time and its player's reserve run out, the computer plays that turn for them; "
    "if their phone has gone, it goes on playing for them until they tap “I'm back”."
)


class ClockField(RadioField):
    """The turn clock, as the new-game form and the settings show it."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(
            CLOCK_LABEL, choices=CLOCK_CHOICES, default=TurnClock.OFF.value, description=CLOCK_HELP, **kwargs
        )


def new_submission() -> str:
    """A form's one-time submission id: 128 random bits (as the hand form's)."""
    return uuid.uuid4().hex


class SubmissionField(HiddenField):
    """A creation form's one-time submission id: made when the form is first
    drawn, kept when it is drawn again with an error (fixed and sent, it
    creates once).  A form sent without one (an older page, a client of its
    own) is a fresh creation: it gets a new id here."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(default=new_submission, **kwargs)

    def process_formdata(self, valuelist: list) -> None:
        sent = valuelist[0] if valuelist else ""
        self.data = sent if isinstance(sent, str) and SUBMISSION_ID.fullmatch(sent) else new_submission()


class TableForm(HouseRules, FlaskForm):
    """A new table: its players, the preset and every house rule (:mod:`.house_rules`)."""

    #: A group link: the match counts for that group (see companion/services/groups.py).
    group = HiddenField()
    group_name: str | None = None
    submission = SubmissionField()
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


class SettingsForm(HouseRules, FlaskForm):
    """The owner's settings: the name, and the rules this table may change now
    (``services.tables.changeable``); the other options' fields are taken off."""

    version = BoundedInteger(validators=[InputRequired()], widget=HiddenInput())
    name = StringField(_l("Table name (optional)"), validators=[Optional(), Length(max=80)])
    clock = ClockField()

    @classmethod
    def for_table(cls, table: GameTable, *, submitted: bool) -> SettingsForm:
        """The form as posted, or (``submitted`` false) showing the table's rules now."""
        form = (
            cls()
            if submitted
            else cls(formdata=None, version=table.version, name=table.name, clock=table.turn_clock.value)
        )
        form.table = table
        if table.play_mode is not PlayMode.DEVICES:
            del form["clock"]
        allowed = changeable(table)
        for name, rule in HOUSE_RULES.items():
            if name not in allowed:
                del form[name]
                if rule.kind == POINTS:
                    del form[f"{name}_points"]
        if "wild_cards" not in allowed:
            del form["wild_ace"]
        if not submitted:
            shown = table.rules.to_dict() | table.overrides  # a stake as it was typed
            form.fill({k: v for k, v in shown.items() if k in allowed})
        return form

    def overrides(self) -> dict[str, object]:
        """Every option on the form as it is to be, for ``change_settings``
        (which keeps the others): one left blank as the preset gives it."""
        table, allowed = self.table, self.house_names()
        fixed = {k: v for k, v in table.overrides.items() if k not in allowed}
        given = self.house_values()
        rules = get_rules(table.preset, **fixed, **given)
        wanted = {k: given.get(k, v) for k, v in rules.to_dict().items() if k in allowed}
        kept = minimal(table.preset, fixed | wanted, keep=table.overrides)
        return {k: v for k, v in kept.items() if k in allowed}


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


# -- names typed in a box, one per line -------------------------------------------------
#: What separates two names in the members box: a line break (any that
#: ``str.splitlines`` knows) or a comma (ASCII, full-width, ideographic, Arabic).
LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")
COMMAS = frozenset(",\uff0c\u3001\u060c")


def _extends(ch: str) -> bool:
    """Whether ``ch`` joins the character before it into one grapheme cluster
    (a combining mark, a joiner, a variation selector, a skin tone)."""
    return unicodedata.category(ch) in ("Mn", "Me", "Mc") or ch in "\u200c\u200d" or 0x1F3FB <= ord(ch) <= 0x1F3FF


def split_names(text: str) -> list[str]:
    """The names typed in a members box, normalised like a table's players:
    one per line or between commas, never cut inside a grapheme cluster (a
    comma carrying a combining mark is part of a name), empty ones dropped.

    >>> split_names("Ana, Ben\\nCarla\\n\\n")
    ['Ana', 'Ben', 'Carla']
    """
    names: list[str] = []
    current: list[str] = []
    for i, ch in enumerate(text or ""):
        after = text[i + 1 : i + 2]
        if ch in LINE_BREAKS or (ch in COMMAS and not (after and _extends(after))):
            names.append("".join(current))
            current = []
        else:
            current.append(ch)
    names.append("".join(current))
    return [name for name in (normalize_name(n) for n in names) if name]


#: Who sits in a digital table's seat: a person, or a computer player of ``bots.BOTS``.
KIND_CHOICES = [
    SelectChoice(PlayerKind.HUMAN, _l("Person")),
    SelectChoice(PlayerKind.SIMPLE, _l("Computer (easy): keeps its loose points low, closes as soon as it can")),
    SelectChoice(PlayerKind.GOOD, _l("Computer (hard): remembers the discards, looks one draw ahead")),
    SelectChoice(PlayerKind.EXPERT, _l("Computer (expert): weighs the odds of every unseen card and the match score")),
]
#: The same, short enough for a row of the new-game form on a phone (the
#: long labels are listed below the rows).
KIND_SHORT = [
    SelectChoice(PlayerKind.HUMAN, _l("Person")),
    SelectChoice(PlayerKind.SIMPLE, _l("Computer: easy")),
    SelectChoice(PlayerKind.GOOD, _l("Computer: hard")),
    SelectChoice(PlayerKind.EXPERT, _l("Computer: expert")),
]
#: How a digital table's people play (``GameTable.play_mode``).
MODE_CHOICES = [
    SelectChoice(PlayMode.HOTSEAT, _l("On this phone, passing it round")),
    SelectChoice(PlayMode.DEVICES, _l("Each person on their own phone (a link each)")),
]
