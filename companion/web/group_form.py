"""A new-table form started "in" a group: the group's link, its members and usual rules."""

from __future__ import annotations

from flask import abort, request

from ..models import Group
from .access import OWNER, PLAYER, group_link


def group_for_form(form) -> Group | None:
    """The group a new-table form starts its match in (``?group=<link>`` or
    the form's hidden ``group`` field); on a first GET the form is filled with
    the members and the group's usual rules.  A read-only link may not start
    matches (403); an unknown one is a 404."""
    token = form.group.data if request.method == "POST" else request.args.get("group")
    if not token:
        return None
    link = group_link(token)
    if link is None:
        abort(404)
    if link.role not in (OWNER, PLAYER):  # the member link and above
        abort(403)
    group = link.group
    form.group_name = group.name
    if request.method == "GET":
        form.group.data = token
        prefill(form, group)
    return group


def prefill(form, group: Group) -> None:
    """The members as players and the group's usual rules and stake."""
    for entry, name in zip(form.players, group.names, strict=False):
        entry.data = name
    rules = group.rules
    form.preset.data = group.preset
    form.target.data = rules.target
    options = group.overrides
    if "stake" in options and rules.stake:
        form.stake.data = rules.stake
        form.stake.raw_data = [str(rules.stake)]
    if options.get("jokers"):
        form.jokers.data = str(options["jokers"])
    if "reentries" in options:
        value = options["reentries"]
        form.reentries.data = "unlimited" if value is None else str(value)
    if options.get("deck"):
        form.deck.data = options["deck"]
    if options.get("wild_cards") == ["1o"]:
        form.wild_ace.data = True
