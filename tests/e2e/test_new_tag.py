"""The card just drawn is tagged "new" above its top edge, on one line in
every language, never over the card's rank (issue 39: in Spanish "nueva"
wrapped and hid the rank)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect


@pytest.fixture(scope="session")
def browser_context_args():
    return {
        "viewport": {"width": 390, "height": 844},
        "locale": "es-ES",
        "device_scale_factor": 1,
        "reduced_motion": "reduce",
    }


def test_the_new_tag_sits_above_the_card_on_one_line_in_spanish(page: Page, live_server: str):
    page.goto(live_server + "/play/new")
    page.locator("input[name=preset][value=classic]").check()
    for i, (name, kind) in enumerate([("Ana", "human"), ("Robo", "good")]):
        page.fill(f"#players-{i}", name)
        page.select_option(f"#kinds-{i}", kind)
    page.locator("input[name=mode][value=hotseat]").check()
    page.get_by_role("button", name="Repartir").click()
    page.wait_for_url(re.compile(r"/play$"))
    if page.get_by_role("button", name="Robar del mazo").count():
        page.get_by_role("button", name="Robar del mazo").click()
    tag = page.locator(".pcard .tag")
    expect(tag).to_have_text("nueva")
    card = tag.locator("xpath=..")
    tag_box, card_box = tag.bounding_box(), card.bounding_box()
    assert tag_box and card_box
    assert tag_box["height"] < 16  # one line
    assert tag_box["y"] + tag_box["height"] <= card_box["y"] + 6  # above the card's top edge, not over its rank
    centre = lambda box: box["x"] + box["width"] / 2  # noqa: E731
    assert abs(centre(tag_box) - centre(card_box)) < 2  # centred over its card
