"""A table in Río de la Plata Spanish: a browser set to es-AR, at 390×844,
gets es_AR's own words and Spain's for the rest, never English."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

HAND_1 = {
    0: "11c 11e 11b 5o 6o 7o 3c 12e",
    1: "5b 5c 5e 4o 12o 2c 1c",
    2: "2e 3b 6c 7b 10e 12c 12b",
}


@pytest.fixture(scope="session")
def browser_context_args():
    return {"viewport": {"width": 390, "height": 844}, "locale": "es-AR", "device_scale_factor": 1}


def test_scoreboard_and_hand_entry_in_es_ar(page: Page, live_server: str):
    page.goto(live_server + "/tables/new")
    expect(page.locator("html")).to_have_attribute("lang", "es-AR")
    for i, name in enumerate(["Ana", "Lucas", "Sofía"]):
        page.fill(f"#players-{i}", name)
    page.locator("summary", has_text="Variantes de la casa").click()
    page.fill("#stake", "100")
    page.get_by_role("button", name="Empezar la partida").click()  # es's words: es_AR falls back

    # The scoreboard.
    expect(page.locator("main")).to_contain_text("Premio: $300,00")
    expect(page.locator("#who-closed")).to_contain_text("Anotar la mano 1")

    # The hand entry: voseo, "cortar", the Spanish deck's numbers.
    page.locator(".pick-closer a").first.click()
    expect(page.locator("main")).to_contain_text("Quien corta")
    expect(page.locator("[data-closer-pick] summary")).to_contain_text("Ana")  # picked already: not asked again
    expect(page.locator("main")).to_contain_text("Tocá las cartas de cada jugador")
    expect(page.locator("input.pick[value='12e']").first).to_have_attribute("aria-label", "12 de espadas")
    for seat, cards in HAND_1.items():
        for token in cards.split():
            if not page.locator(f"[data-tab='{seat}'] input").is_checked():
                page.locator(f"[data-tab='{seat}']").click()
            page.locator(f"[data-card='{token}']:visible").first.click()
    verdict = page.locator("#verdict")
    expect(verdict).to_contain_text("Corte válido")
    expect(verdict).to_contain_text("juego 2 de Ana")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_role("button", name="Guardar la mano 1").click()

    # Back on the scoreboard, in es_AR and never in English.
    expect(page.locator(".flash")).to_contain_text("Mano 1 guardada")
    assert [int(t) for t in page.locator(".score .total").all_inner_texts()] == [3, 13, 46]
    text = page.locator("main").inner_text()
    assert "Anotar la mano 2" in text and "Historial" in text and "afuera al pasar de 100" in text
    assert not re.search(r"\b(Enter hand|Scoreboard|Pot|Closer|saved)\b", text), text
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
