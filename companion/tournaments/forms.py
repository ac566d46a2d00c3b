"""The organizer's forms: a new tournament (players, rules, format, money)
and the few writes of the dashboard."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, RadioField, SelectChoice, SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, NumberRange, Optional
from wtforms.widgets import HiddenInput

from ..rules.tournament import DEFAULT_SCALE, Format, Play, Reseat
from ..services.groups import CURRENCIES
from ..services.tournaments import MAX_ROUND_HANDS, MAX_ROUND_MINUTES, MAX_ROUNDS, Settings
from ..web.forms import KIND_CHOICES, PRESET_CHOICES, SubmissionField, split_names
from ..web.house_rules import BoundedInteger, HouseRules

#: What separates the numbers of a scale or a split: dashes, spaces, commas, slashes.
_NUMBERS = re.compile(r"[\s,;/\-–—]+")


class NumberList(StringField):
    """Whole numbers typed as "4-2-1-0" (or with spaces, commas, slashes)."""

    def process_formdata(self, valuelist):
        text = (valuelist[0] if valuelist else "").strip()
        parts = [p for p in _NUMBERS.split(text) if p]
        self.data = None
        if parts and (len(parts) > 9 or not all(re.fullmatch(r"\d{1,3}", p) for p in parts)):
            raise ValueError(_l("Type whole numbers with a dash between them, such as 4-2-1-0."))
        if parts:
            self.data = tuple(int(p) for p in parts)

    def _value(self):
        return "-".join(str(n) for n in self.data) if isinstance(self.data, tuple) else (self.raw_data or [""])[0]


class Money(StringField):
    """An amount as people type it: "5", "2,50", "2.50"."""

    data: Decimal | None

    def process_formdata(self, valuelist):
        text = (valuelist[0] if valuelist else "").strip().replace(",", ".")
        self.data = Decimal(0)
        if not text:
            return
        try:
            if len(text) > 12:
                raise InvalidOperation
            self.data = Decimal(text)
        except InvalidOperation:
            self.data = None
            raise ValueError(_l("Type an amount such as 5 or 2.50.")) from None
        if not self.data.is_finite():
            self.data = None
            raise ValueError(_l("Type an amount such as 5 or 2.50."))

    def _value(self):
        if self.raw_data:
            return self.raw_data[0]
        return "" if not self.data else str(self.data)


class TournamentForm(HouseRules, FlaskForm):
    """A new tournament: its players, the rules every table plays (a preset
    and every house rule), the format and the money."""

    #: A group link: the tournament's tables count for that group's season.
    group = HiddenField()
    group_name: str | None = None
    submission = SubmissionField()
    name = StringField(_l("Tournament name"), validators=[InputRequired(), Length(max=80)])
    players = TextAreaField(
        _l("Players"),
        validators=[InputRequired(), Length(max=8000)],
        description=_l("One name per line (or separated by commas); paste a list if you have one."),
    )
    preset = RadioField(_l("Rules"), choices=PRESET_CHOICES, default="classic", validators=[InputRequired()])
    format = RadioField(
        _l("Format"),
        choices=[
            SelectChoice(Format.KNOCKOUT, _l("Knockout: the best of each table go on, down to a final table")),
            SelectChoice(Format.POINTS, _l("Rounds on points: every place at a table scores tournament points")),
        ],
        default=Format.KNOCKOUT,
        validators=[InputRequired()],
    )
    advance = SelectField(
        _l("Who goes on from each table (knockout)"),
        choices=[SelectChoice("1", _l("The winner")), SelectChoice("2", _l("The first two"))],
        default="1",
    )
    rounds = BoundedInteger(
        _l("Rounds (on points)"), default=3, validators=[InputRequired(), NumberRange(1, MAX_ROUNDS)]
    )
    round_hands = BoundedInteger(
        _l("Hands a round (on points; 0: the whole match)"),
        default=0,
        validators=[InputRequired(), NumberRange(0, MAX_ROUND_HANDS)],
    )
    round_minutes = BoundedInteger(
        _l("Minutes a round (0: no time limit)"),
        default=0,
        validators=[InputRequired(), NumberRange(0, MAX_ROUND_MINUTES)],
    )
    scale = NumberList(
        _l("Tournament points by place at a table"),
        default=DEFAULT_SCALE,
        description=_l("First place first; tied players share the points of the places they fill."),
    )
    reseat = RadioField(
        _l("Seating after the first round (on points)"),
        choices=[
            SelectChoice(Reseat.STANDING, _l("By standing: the leaders meet")),
            SelectChoice(Reseat.RANDOM, _l("At random, keeping apart who just met")),
        ],
        default=Reseat.STANDING,
    )
    play = RadioField(
        _l("Where the tables play"),
        choices=[
            SelectChoice(Play.CARDS, _l("With cards: a phone at each table enters the hands")),
            SelectChoice(Play.DEVICES, _l("In the app, each player on their own phone (a link each)")),
            SelectChoice(Play.HOTSEAT, _l("In the app, one phone passed round each table")),
        ],
        default=Play.CARDS,
        validators=[Optional()],
    )
    bots = SelectField(
        _l("Computer players (in the app)"),
        choices=[SelectChoice("", _l("None: only the players signed up")), *KIND_CHOICES[1:]],
        default="",
        description=_l("A computer player fills each table to four; it takes no place in the tournament."),
    )
    duplicate = BooleanField(
        _l("Duplicate deals: every table of a round gets the same cards"),
        default=False,
        description=_l(
            "In the app only. Tables with the same number of players get the same hands, seat by seat, "
            "and each seat is compared with the same seat at the other tables."
        ),
    )
    entry = Money(_l("Entry fee per player (optional)"), validators=[Optional()])
    currency = SelectField(_l("Currency"), choices=[SelectChoice(c, c) for c in CURRENCIES], default="EUR")
    prizes = NumberList(
        _l("The pot's split in percent, by final place"),
        default=(100,),
        description=_l("For example 60-30-10; tied players share."),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        del self["stake"]  # the entry fee is the tournament's money: its tables keep no pot of their own

    def player_names(self) -> list[str]:
        return split_names(self.players.data or "")

    def settings(self) -> Settings:
        return Settings(
            format=self.format.data,
            advance=int(self.advance.data),
            rounds=self.rounds.data or 0,
            round_hands=self.round_hands.data or 0,
            round_minutes=self.round_minutes.data or 0,
            scale=self.scale.data or DEFAULT_SCALE,
            reseat=self.reseat.data,
            currency=self.currency.data,
            entry=self.entry.data or Decimal(0),
            prizes=self.prizes.data or (100,),
            play=self.play.data,
            bots=self.bots.data or "",
            duplicate=bool(self.duplicate.data),
        )

    def add_error(self, field: str, message: str) -> None:
        target = getattr(self, field, None) or self.players
        target.errors = [*list(target.errors), message]


class CorrectForm(FlaskForm):
    """The organizer's correction of a table: each player's place, and why."""

    version = BoundedInteger(validators=[InputRequired()], widget=HiddenInput())
    reason = StringField(_l("Why (kept with the result)"), validators=[Length(max=400)])
