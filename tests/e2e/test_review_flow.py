"""The review of a finished hot-seat hand in Chromium at 390×844: a
deliberately bad discard is found and marked, with the expert's figures."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.bots import ExpertBot, seat_view
from companion.bots.review import MISTAKE
from companion.extensions import db
from companion.models import Deal, GameTable

from .conftest import LIVE_APPS
from .test_play_flow import create, server_game, take_turn
from .test_play_match import shot


def worst_discard(base: str):
    """The throw the expert values least from Ana's own view, and its loss."""
    game, _seats = server_game(base)
    values = {
        card: v for (card, close), v in ExpertBot().judge_end(seat_view(game, game.turn, [0, 0])).items() if not close
    }
    worst = min(values, key=values.get)
    return worst, max(values.values()) - values[worst]


def stored_review(base: str):
    app = LIVE_APPS[base]
    with app.app_context():
        table = db.session.query(GameTable).order_by(GameTable.id.desc()).first()
        deal = db.session.query(Deal).filter_by(table_id=table.id).order_by(Deal.id.desc()).first()
        return table.owner_token, deal.review


@pytest.mark.play_seed("e2e-23")  # Ana's worst first throw costs her 17.6 points by the expert's figures
def test_a_bad_discard_is_marked_in_the_review(browser: Browser, browser_context_args, page: Page, live_server: str):
    create(page, live_server, [("Ana", "human"), ("Robo", "good")], "hotseat")
    with page.expect_navigation():  # alone against the computer: no pass screen
        page.get_by_role("button", name="Draw from the stock").click()
    bad, loss = worst_discard(live_server)
    assert loss >= MISTAKE  # breaking up what she holds costs her a mistake at least
    page.locator(f"input[name=card][value='{bad}']").first.check(force=True)
    with page.expect_navigation():
        page.get_by_role("button", name="Throw", exact=True).click()
    for _ in range(150):
        if page.get_by_role("link", name="Review this hand").count():
            break
        take_turn(page)
    page.get_by_role("link", name="Review this hand").click()
    page.wait_for_url(re.compile(r"/review/1$"))
    expect(page.locator("h1")).to_have_text("Review of hand 1")
    token, review = stored_review(live_server)
    # Ana's first throw is the bad one, with the expert's loss.
    n, step = next(
        (i + 1, s) for i, s in enumerate(review["steps"]) if s["move"]["move"] == "discard" and s["move"]["seat"] == 0
    )
    assert step["move"] == {"move": "discard", "seat": 0, "card": str(bad)}
    assert step["judgement"]["mark"] in ("mistake", "blunder")
    # The position rebuilt from the record is judged as the live one was (the same cards, the same view).
    assert step["judgement"]["loss"] == pytest.approx(loss, abs=0.011)
    row = page.locator(f"#move-{n}")
    expect(row.locator(".badge")).to_have_text(step["judgement"]["mark"])
    # One convention throughout: what the move cost against the best, in points.
    expect(row.locator(".verdict")).to_contain_text(f"This move cost {step['judgement']['loss']:.1f} points.")
    # Robo's moves are shown, not judged; every move has its row.
    assert page.locator(".review-moves > li[id^=move-]").count() == len(review["steps"])
    judged = [i for i, s in enumerate(review["steps"]) if s["judgement"]]
    assert all(review["steps"][i]["move"]["seat"] == 0 for i in judged)
    # The board of that moment on a tap: every hand face up.
    row.locator("summary").click()
    expect(row.locator(".moment .list li")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "review-light")
    # Without JavaScript the same page, the same mark, the board on a tap.
    plain = browser.new_context(**browser_context_args, java_script_enabled=False).new_page()
    plain.goto(f"{live_server}/t/{token}/review/1")
    expect(plain.locator(f"#move-{n} .badge")).to_have_text(step["judgement"]["mark"])
    plain.locator(f"#move-{n} summary").click()
    expect(plain.locator(f"#move-{n} .moment .list li")).to_have_count(2)
    plain.context.close()
