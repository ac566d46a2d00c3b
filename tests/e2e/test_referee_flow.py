"""The referee in the browser at 390×844: a close check and a disputed lay-off."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def tap_all(page: Page, tab: str, cards: str) -> None:
    for token in cards.split():
        if not page.locator(f"[data-tab='{tab}'] input").is_checked():
            page.locator(f"[data-tab='{tab}']").click()
        page.locator(f"[data-card='{token}']:visible").first.click()


def test_close_check_with_a_permalink(page: Page, live_server: str):
    page.goto(live_server + "/referee/close")
    tap_all(page, "h", "2o 3o 4o 5o 6o 1c 2e 12b")
    verdict = page.locator("#verdict")
    expect(verdict).to_contain_text("No, this cannot close.")
    expect(verdict).to_contain_text("Your odds of closing on the next draw")
    expect(verdict.locator("table.odds tbody tr")).to_have_count(8)
    expect(verdict).to_contain_text("of 32")
    # Cards already seen thrown leave the count (issue #14): on the Seen tab.
    tap_all(page, "s", "1o 7o")
    expect(verdict).to_contain_text("of 30")
    best = verdict.locator("table.odds tbody tr").first
    best.locator("summary").click()
    expect(best.locator("details .cards [role=listitem]").first).to_be_visible()
    # The URL is the permalink: another phone opening it sees the same verdict.
    url = page.url
    assert "cards=" in url and "seen=" in url
    other = page.context.new_page()
    other.goto(url)
    expect(other.locator("#verdict")).to_contain_text("No, this cannot close.")
    expect(other.locator("#verdict")).to_contain_text("of 30")
    figures = "table.odds summary, table.odds td:last-child"
    assert (
        other.locator(f"#verdict :is({figures})").all_inner_texts()
        == verdict.locator(f":is({figures})").all_inner_texts()
    )
    # Switching to Fournier's points rule makes it legal.
    page.locator("summary", has_text="Rules").click()
    page.select_option("#r-preset", "fournier")
    expect(page.locator("#verdict")).to_contain_text("Yes, this closes.")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_disputed_layoff_onto_a_full_close(page: Page, live_server: str):
    page.goto(live_server + "/referee/layoffs?n=2")
    tap_all(page, "0", "1c 2c 3c 4c 10e 11e 12e 7o")
    tap_all(page, "1", "5c 6o 6c 6e 12b 11b 3o")
    verdict = page.locator("#verdict")
    expect(verdict).to_contain_text("Cannot lay off")
    expect(verdict).to_contain_text("a closer who had all seven combined")
    page.locator("summary", has_text="Rules").click()
    page.select_option("#r-layoff_onto_full_close", "true")
    expect(verdict).to_contain_text("Lays off")
    expect(verdict).to_contain_text("22 points")
