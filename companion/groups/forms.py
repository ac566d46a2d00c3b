"""The group forms: name, members and the group's usual rules; in the
settings, one field per member (renaming keeps the member) and a box for new ones."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    FieldList,
    Form,
    FormField,
    HiddenField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, Optional

from ..models import Group
from ..rules import ChinchonError, get_rules
from ..rules.names import normalize_name
from ..services.groups import CURRENCIES, MAX_MEMBERS, verify_members
from ..web.forms import PRESET_CHOICES, SubmissionField, split_names
from ..web.house_rules import HouseRules, house_field
from ..web.messages import error_text


class GroupForm(HouseRules, FlaskForm):
    """A new group: its name, members, currency and usual rules (every house rule)."""

    submission = SubmissionField()
    name = StringField(_l("Group name"), validators=[InputRequired(), Length(max=80)])
    members = TextAreaField(
        _l("Members"),
        validators=[InputRequired(), Length(max=2000)],
        description=_l("One name per line (or separated by commas), as they appear at the table."),
    )
    preset = RadioField(_l("Usual rules"), choices=PRESET_CHOICES, default="classic", validators=[InputRequired()])
    stake = house_field("stake", label=_l("Usual stake per player (optional)"))
    currency = SelectField(_l("Currency"), choices=[SelectChoice(c, c) for c in CURRENCIES], default="EUR")

    def member_names(self) -> list[str]:
        return split_names(self.members.data or "")

    def all_names(self) -> list[str]:
        """Every member the form would leave, in order."""
        return self.member_names()

    def problem(self) -> tuple[str, str] | None:
        """What is wrong beyond each field on its own: ``(field, message)``,
        in the same words as a table's players (the same checks)."""
        try:
            verify_members(self.all_names())
        except ChinchonError as error:
            return "members", error_text(error)
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
        self.add_error(*found)
        return False

    def add_error(self, field: str, message: str) -> None:
        target = getattr(self, field, None) or self.members
        target.errors = [*list(target.errors), message]


class MemberRow(Form):
    """One member in the settings: the row's id and the name as typed."""

    id = HiddenField()
    name = StringField(validators=[Length(max=200)])


class GroupSettingsForm(GroupForm):
    """The settings: each member keeps a field of their own (change it to
    rename, clear it to remove); new members go in the box."""

    current = FieldList(FormField(MemberRow), max_entries=MAX_MEMBERS)
    members = TextAreaField(
        _l("New members"),
        validators=[Optional(), Length(max=2000)],
        description=_l("One name per line (or separated by commas)."),
    )

    @classmethod
    def for_group(cls, group: Group, *, submitted: bool) -> GroupSettingsForm:
        """The form as posted, or (``submitted`` false) filled from the group."""
        if submitted:
            form = cls()
        else:
            form = cls(
                data={
                    "name": group.name,
                    "current": [{"id": str(m.id), "name": m.name} for m in group.members],
                    "preset": group.preset,
                    "currency": group.currency,
                }
            )
            form.fill(group.overrides)
        del form["submission"]  # the settings change a group: they create nothing
        form.group = group
        return form

    def rows(self) -> list[tuple[object, str]]:
        """Each member field with the name it had (its label)."""
        names = {str(m.id): m.name for m in self.group.members}
        return [(row.form, names.get(row.form.id.data or "", "")) for row in self.current]

    def changes(self) -> list[tuple[int | None, str]]:
        """The members as the service takes them: ``(id, name)`` for each kept
        (maybe renamed) member, ``(None, name)`` for each new one."""
        kept = []
        for row in self.current:
            name = normalize_name(row.form.name.data or "")
            if name:
                member_id = row.form.id.data or ""
                kept.append((int(member_id) if member_id.isdecimal() else -1, name))
        return [*kept, *((None, n) for n in self.member_names())]

    def all_names(self) -> list[str]:
        return [name for _id, name in self.changes()]
