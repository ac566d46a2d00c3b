"""The card grid in Chromium at 390×844: each card's boxes lie over its face,
so a tap checks one natively, with or without JavaScript; two decks cycle a
card 0, 1, 2, 1, 0; the keyboard reaches every box, named by its card."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from companion.rules import get_rules
from companion.web.i18n import card_name

from .conftest import LIVE_APPS
from .test_hand_page import new_table


def held(page: Page, panel: str, token: str) -> int:
    return page.locator(f".grid[data-panel='{panel}'] input.pick[value='{token}']:checked").count()


def tap(page: Page, token: str) -> None:
    page.locator(f"[data-card='{token}']:visible").first.click()


def face(page: Page, panel: str, token: str, pseudo: str = "") -> dict:
    return page.evaluate(
        """([panel, token, pseudo]) => { const el = document.querySelector(
             `.grid[data-panel='${panel}'] [data-card='${token}'] > span`);
           const s = getComputedStyle(el, pseudo || null);
           return {content: s.content, outline: s.outlineStyle, opacity: s.opacity, background: s.backgroundColor}; }""",
        [panel, token, pseudo],
    )


@pytest.mark.parametrize("js", [True, False])
def test_with_two_decks_a_card_cycles_through_both_copies(browser, browser_context_args, live_server: str, js: bool):
    context = browser.new_context(**browser_context_args, java_script_enabled=js)
    page = context.new_page()
    page.goto(live_server + "/referee/close")
    counts = []
    for _ in range(4):
        tap(page, "5o")
        counts.append(held(page, "h", "5o"))
        if counts[-1] == 2:
            assert "×2" in face(page, "h", "5o", "::before")["content"]
    assert counts == [1, 2, 1, 0]
    assert "×2" not in face(page, "h", "5o", "::before")["content"]
    context.close()


@pytest.mark.parametrize("js", [True, False])
def test_a_copy_held_here_can_be_put_back_while_the_other_is_another_tabs(
    browser, browser_context_args, live_server: str, js: bool
):
    """Two decks, one 5o seen thrown and one in the hand: the hand's tap puts
    its copy back (it used to fall on the other copy's box, disabled: stuck)."""
    context = browser.new_context(**browser_context_args, java_script_enabled=js)
    page = context.new_page()
    page.goto(live_server + "/referee/close?seen=5o&cards=5o")
    assert held(page, "h", "5o") == 1
    assert face(page, "h", "5o")["opacity"] == "1"  # shown as held here, not as taken
    tap(page, "5o")
    assert held(page, "h", "5o") == 0
    context.close()


def test_the_keyboard_reaches_every_box_named_by_its_card(page: Page, live_server: str):
    app = LIVE_APPS[live_server]
    with app.test_request_context(headers={"Cookie": "lang=en"}):
        names = [card_name(c, "spanish40", "spanish") for c in get_rules("classic").pack.cards()]
    page.goto(f"{live_server}/t/{new_table(live_server)}/hands/new?closer=1")
    for name in names:  # the shown grid's boxes, each named by its card alone
        expect(page.get_by_role("checkbox", name=name, exact=True)).to_have_count(1)
    page.get_by_role("checkbox", name=names[0], exact=True).focus()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    expect(page.get_by_role("checkbox", name=names[1], exact=True)).to_be_focused()
    assert face(page, "1", "1c")["outline"] == "solid"  # the focus ring is on the face
    page.keyboard.press("Space")
    assert held(page, "1", "1o") == 1 and held(page, "1", "1c") == 1
    expect(page.locator("[data-tab='1'] [data-count]")).to_have_text("2")
    # Ben's cards are out of reach on Ana's grid: marked, their boxes disabled.
    page.locator("[data-tab='0']").click()
    expect(page.locator(".grid[data-panel='0'] input.pick[value='1o']")).to_be_disabled()
    assert page.locator(".grid[data-panel='0'] [data-card='1o'] > span").get_attribute("data-owner") == "B"
