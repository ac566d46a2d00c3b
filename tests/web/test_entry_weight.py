"""Light on the wire: the card grid's pages stay small on a phone's poor mobile data.

A 4-player hand page holds five grids of 40 cards (four players and the
discard), the close checker three grids of two copies each: every byte of a
cell counts 200 or 240 times.  The sizes are of the raw HTML, before any
compression."""

from __future__ import annotations

import re

import pytest

from companion.rules import get_rules
from companion.web.i18n import LANGUAGES, card_name

from .helpers import create_table, hand_form

#: Raw bytes a grid page may weigh (it was 114 KB and 130 KB).
LIMIT = 40_000
BOX = re.compile(r'<input type="checkbox" class="pick(?: c1)?" name="(\w+)" value="([^"]+)" aria-label="([^"]+)"')


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_hand_page_and_the_close_checker_weigh_at_most_40_kb(client, lang):
    token = create_table(client, ["Ana", "Ben", "Carla", "Dani"])
    client.set_cookie("lang", lang)
    for path in (f"/t/{token}/hands/new", f"/t/{token}/hands/new?closer=2", "/referee/close"):
        size = len(client.get(path).get_data())
        assert size <= LIMIT, (path, size)


def test_each_box_is_named_by_its_card_and_the_pack_is_whole_on_every_tab(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla", "Dani"])
    pack = get_rules("classic").pack.cards()
    with app.test_request_context(headers={"Cookie": "lang=en"}):
        names = {str(c): card_name(c, "spanish40", "spanish") for c in pack}
    boxes = BOX.findall(client.get(f"/t/{token}/hands/new").get_data(as_text=True))
    by_field: dict[str, list[str]] = {}
    for field, token_, label in boxes:
        assert label == names[token_], (token_, label)
        by_field.setdefault(field, []).append(token_)
    assert sorted(by_field) == ["discard", "h0", "h1", "h2", "h3"]
    assert all(sorted(cards) == sorted(names) for cards in by_field.values())
    # Two decks (the close checker): two boxes a card, the second one told apart.
    boxes = BOX.findall(client.get("/referee/close").get_data(as_text=True))
    hand = [(token_, label) for field, token_, label in boxes if field == "cards"]
    assert sorted(hand) == sorted([(t, n) for t, n in names.items()] + [(t, f"{n} (2)") for t, n in names.items()])


def test_a_card_held_elsewhere_is_marked_and_out_of_reach_on_the_other_tabs(client):
    """What the script keeps up to date is in the page without it: the other
    tabs' marks, and the boxes of a card every copy of which is taken."""
    token = create_table(client, ["Ana", "Ben", "Carla"])
    data = hand_form(client, token) | {"closer": "0", "h0": ["11c", "11e"], "active": "1", "refresh": "1"}
    html = client.post(f"/t/{token}/hands/new", data=data).get_data(as_text=True)
    ben = html[html.index('data-panel="1"') : html.index('data-panel="2"')]
    cell = re.search(r'<span class="cell" data-card="11c">(.*?)</span></span>', ben).group(1)
    assert " disabled>" in cell and '<span data-owner="A" inert>11' in cell
    free = re.search(r'<span class="cell" data-card="12c">(.*?)</span></span>', ben).group(1)
    assert "disabled" not in free and "data-owner" not in free and "inert" not in free
