"""A group's statistics and ratings on a 390×844 phone, in English and in
es-AR, with JavaScript on and off, two members with 40-letter names: every
figure shown is the services' own answer in the page's number format, no
name is cut, nothing scrolls sideways, and the chances form works without
JavaScript.  Screenshots go to $SCREENSHOTS."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from babel.numbers import format_decimal
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select

from companion.extensions import db
from companion.models import Group
from companion.services.groups import matches
from companion.services.ratings import ranked
from companion.services.statistics import Period, statistics
from tests.web.helpers import enter_points
from tests.web.test_groups import create_group, table_in_group

from .conftest import LIVE_APPS

LONG = "María de los Ángeles Fernández Castillo"  # 40 characters
OTHER = "Juan Bautista de la Santísima Trinidad R"  # 40 characters
MEMBERS = [LONG, "Ana", OTHER, "Ben"]
SHOTS = Path(os.environ.get("SCREENSHOTS", "/tmp/screenshots"))
#: Each match: its players, then the finishing order of one hand (the first closes with 1, the others go out).
SEASON = [
    ([LONG, "Ana", OTHER, "Ben"], [LONG, "Ben", "Ana", OTHER]),
    ([LONG, "Ana", OTHER, "Ben"], ["Ana", LONG, OTHER, "Ben"]),
    ([LONG, "Ana", OTHER], [LONG, OTHER, "Ana"]),
    ([LONG, "Ben"], [LONG, "Ben"]),
]


def one_place(value, locale: str) -> str:
    text = format_decimal(abs(value), format="#,##0.0", locale=locale)
    return ("\u2212" + text) if round(value, 1) < 0 else text


def season(app) -> str:
    client = app.test_client()
    client.set_cookie("lang", "en")
    token = create_group(client, members="\n".join(MEMBERS))
    for names, order in SEASON:
        table = table_in_group(client, token, names, target="50")
        points = {names.index(order[0]): 1} | {names.index(n): 51 + i for i, n in enumerate(order[1:])}
        enter_points(client, table, names.index(order[0]), points)
    return token


def check_stats(page: Page, figures, locale: str) -> None:
    for line in figures.players:
        if not line.matches:
            continue
        item = page.locator(f'li.group-line[data-name="{line.name}"]')
        expect(item.locator('[data-figure="matches"]')).to_have_text(str(line.matches))
        expect(item.locator('[data-figure="wins"]')).to_have_text(str(line.wins))
        expect(item.locator('[data-figure="per_hand"]')).to_have_text(one_place(line.points_per_hand, locale))
        heading = item.locator("h3")
        expect(heading).to_contain_text(line.name)  # the whole name, never cut
        assert heading.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), line.name


def check_ratings(page: Page, figures, locale: str) -> None:
    shown = page.locator("ol.ratings > li")
    expected = ranked(figures.ratings)
    expect(shown).to_have_count(len(expected))
    for i, rating in enumerate(expected):
        row = shown.nth(i)
        expect(row.locator(".rating-name")).to_have_text(rating.name)
        expect(row.locator(".rating-number")).to_have_text(one_place(rating.ordinal, locale))
        expect(row.locator(".level")).to_have_attribute("data-level", str(rating.level))
        box = row.locator(".rating-name").bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_statistics_and_ratings_on_a_phone_in_two_languages(browser: Browser, live_server: str, javascript: bool):
    app = LIVE_APPS[live_server]
    token = season(app)
    with app.app_context():
        group = db.session.scalar(select(Group).where(Group.owner_token == token))
        figures = statistics(group, matches(group), Period("all"))
        watch = group.watch_token
    SHOTS.mkdir(parents=True, exist_ok=True)
    for lang, locale, words in (
        ("en", "en", ("Statistics", "Show the chances")),
        ("es_AR", "es_AR", ("Estadísticas", "Ver las probabilidades")),
    ):
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, locale=locale.replace("_", "-"), java_script_enabled=javascript
        )
        context.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
        page = context.new_page()
        page.goto(f"{live_server}/g/{watch}/stats?period=all")
        expect(page.locator("h1")).to_have_text(words[0])
        check_stats(page, figures, locale)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        suffix = "" if javascript else "-nojs"
        page.screenshot(path=str(SHOTS / f"group-stats-{lang}{suffix}.png"), full_page=True)

        page.goto(f"{live_server}/g/{watch}/ratings")
        check_ratings(page, figures, locale)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # The chances of two players picked on the form (a GET: the same without JavaScript).
        for box in page.locator('input[name="p"]').all():
            box.set_checked(box.get_attribute("value") in (LONG, "Ben"))
        page.get_by_role("button", name=words[1]).click()
        chances = page.locator("ul.chances > li")
        expect(chances).to_have_count(2)
        expect(chances.first).to_have_attribute("data-name", LONG)  # four wins of four
        shares = [float(s) for s in chances.locator("[data-share]").evaluate_all("l => l.map(e => e.dataset.share)")]
        assert abs(sum(shares) - 1) < 0.001 and shares[0] > shares[1]
        text = chances.first.locator(".chance-share").inner_text()
        assert re.fullmatch(r"\d+\s?%", text.replace("\u00a0", " ")), text
        page.screenshot(path=str(SHOTS / f"group-ratings-{lang}{suffix}.png"), full_page=True)
        context.close()
