"""An evening on a 390×844 phone in es-AR (issue 39's tryout): the history
shows every player's column, a long name included, nothing covering them."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

LONG = "María de los Ángeles Fernández Castillo"


@pytest.fixture(scope="session")
def browser_context_args():
    return {
        "viewport": {"width": 390, "height": 844},
        "locale": "es-AR",
        "device_scale_factor": 1,
        "reduced_motion": "reduce",
    }


def test_the_history_shows_every_players_column_uncovered(page: Page, live_server: str):
    page.goto(live_server + "/tables/new")
    for i, name in enumerate(["Ana", "Ben", LONG, "Dani"]):
        page.fill(f"#players-{i}", name)
    page.get_by_role("button", name="Empezar la partida").click()
    for hand in range(2):
        page.locator(".pick-closer a").first.click()
        page.locator("label.pill", has_text="-10").click()
        for seat, points in ((1, "25"), (2, "30"), (3, "8")):
            page.fill(f"#p{seat}", points)
        page.get_by_role("button", name=f"Guardar la mano {hand + 1}").click()
        expect(page.locator(".flash")).to_contain_text(f"Mano {hand + 1} guardada")
    page.goto(page.url + "/history")
    cells = page.locator(".history tbody tr").first.locator("td")
    for i in range(4):  # the four players' points and totals: on screen, and what a tap there reaches
        uncovered = cells.nth(i).evaluate(
            """(el) => { const r = el.getBoundingClientRect();
                 if (r.left < 0 || r.right > innerWidth) return false;
                 return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }"""
        )
        assert uncovered, f"column {i} is covered or off screen"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/screenshots/history-es-AR.png")
