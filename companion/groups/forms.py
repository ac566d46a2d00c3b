"""The group form: name, members and the group's usual rules."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import DecimalField, IntegerField, RadioField, SelectChoice, SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from ..rules import ChinchonError, get_rules
from ..services.groups import MAX_MEMBERS, clean_members
from ..web.forms import PRESET_CHOICES
from ..web.messages import error_text

CURRENCIES = ("EUR", "USD", "GBP", "SEK", "CHF", "ARS", "MXN", "UYU")


class GroupForm(FlaskForm):
    name = StringField(_l("Group name"), validators=[InputRequired(), Length(max=80)])
    members = TextAreaField(
        _l("Members"),
        validators=[InputRequired(), Length(max=2000)],
        description=_l("One name per line, as they appear at the table."),
    )
    preset = RadioField(_l("Usual rules"), choices=PRESET_CHOICES, default="classic", validators=[InputRequired()])
    target = IntegerField(
        _l("A player is out over"), default=100, validators=[InputRequired(), NumberRange(min=1, max=10000)]
    )
    stake = DecimalField(
        _l("Usual stake per player (optional)"),
        places=2,
        validators=[Optional(), NumberRange(min=0, max=1000000)],
        description=_l("Paid into the pot at the start and at every re-entry; the winner takes the pot."),
    )
    currency = SelectField(_l("Currency"), choices=[SelectChoice(c, c) for c in CURRENCIES], default="EUR")

    def member_names(self) -> list[str]:
        return clean_members((self.members.data or "").splitlines())

    def overrides(self) -> dict[str, object]:
        options: dict[str, object] = {}
        if self.target.data is not None and self.target.data != 100:
            options["target"] = self.target.data
        if self.stake.data:
            options["stake"] = str(self.stake.data)
        return options

    def problem(self) -> tuple[str, str] | None:
        """What is wrong beyond each field on its own: ``(field, message)``."""
        names = self.member_names()
        if len(names) < 2:
            return "members", _("Add at least two members.")
        if len(names) > MAX_MEMBERS:
            return "members", _("A group has at most %(count)s members.", count=MAX_MEMBERS)
        if any(len(n) > 40 for n in names):
            return "members", _("A name has at most 40 characters.")
        if self.stake.data is not None and self.stake.data.as_tuple().exponent < -2:
            return "stake", _("The stake is counted in cents: at most two decimals.")
        try:
            get_rules(self.preset.data, **self.overrides())
        except ChinchonError as error:
            return error.field.removeprefix("rules."), error_text(error)
        return None

    def check(self) -> bool:
        if not self.validate():
            return False
        found = self.problem()
        if found is None:
            return True
        field, message = found
        target = getattr(self, field, None) or self.members
        target.errors = [*list(target.errors), message]
        return False
