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
    """The members as players and the group's usual rules (every house rule it sets)."""
    for entry, name in zip(form.players, group.names, strict=False):
        entry.data = name
    form.preset.data = group.preset
    form.fill(group.overrides)
