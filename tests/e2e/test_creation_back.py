"""Back, then Create again: a phone that goes back to a creation form it
sent, finds what it typed put back and sends it again gets what it made,
not a second one.  The pages are no-store, so Back asks the server for the
form again (a new one-time id) and the browser puts the typed fields back;
the tab remembers the id it sent with those fields (js/creations.js).  A
form opened afresh and sent with the same fields makes a new one."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import func, select

from companion.extensions import db
from companion.models import Group, Tournament

from .conftest import LIVE_APPS

#: What each form gets typed, its button and the "created" and "already created" notes (English).
FORMS = {
    "tournament": (
        "/tournaments/new",
        {"#name": "Copa del Bar", "#players": "Ana\nBen\nCarla\nDani"},
        "Create the tournament",
        Tournament,
        "This tournament was already created: here it is.",
    ),
    "group": (
        "/groups/new",
        {"#name": "Los viernes", "#members": "Ana\nBen\nCarla"},
        "Create the group",
        Group,
        "This group was already created: here it is.",
    ),
}


def made(live_server: str, model) -> int:
    with LIVE_APPS[live_server].app_context():
        try:
            return db.session.scalar(select(func.count()).select_from(model))
        finally:
            db.session.remove()


@pytest.mark.parametrize("kind", list(FORMS))
def test_back_then_create_again_leads_to_what_it_made(page: Page, live_server: str, kind: str):
    path, typed, button, model, already = FORMS[kind]
    page.goto(live_server + path)
    for selector, value in typed.items():
        page.fill(selector, value)
    page.get_by_role("button", name=button).click()
    page.wait_for_url(lambda url: path not in url)
    first = page.url
    assert made(live_server, model) == 1
    page.go_back()
    page.wait_for_url(f"**{path}")
    # The browser put back what was typed (else there is nothing to send again).
    for selector, value in typed.items():
        expect(page.locator(selector)).to_have_value(value)
    page.get_by_role("button", name=button).click()
    page.wait_for_url(first)
    expect(page.locator(".flash")).to_contain_text(already)
    assert made(live_server, model) == 1
    # A form opened afresh is a new creation, even with the same fields.
    page.goto(live_server + path)
    for selector, value in typed.items():
        page.fill(selector, value)
    page.get_by_role("button", name=button).click()
    page.wait_for_url(lambda url: path not in url and url != first)
    assert made(live_server, model) == 2
