"""The scoreboard people look at (issue 12): last hand, bar to the target,
undo taken back in one tap, a live read-only link, the QR code, the chart."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from companion.extensions import db
from companion.models import GameTable

from .helpers import GERMAN, create_table, decide_reentry, enter_cards, enter_points, hand_count, table_of, totals


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def version_of(html: str) -> str:
    return re.search(r'name="version" value="(\d+)"', html).group(1)


def test_each_player_shows_the_last_hand_next_to_the_total_and_a_bar(client):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    enter_points(client, token, 0, {0: -10, 1: 12, 2: 0})
    html = client.get(f"/t/{token}").get_data(as_text=True)
    last = re.findall(r'<span class="last"[^>]*><span class="sr">[^<]*</span>([^<]+)</span>', html)
    assert last == ["-10", "+12", "0"]
    assert html.count('<meter class="to-target"') == 3


def test_exactly_at_the_target_reads_as_still_in(client):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    enter_points(client, token, 1, {0: 50, 1: 1, 2: 10})
    enter_points(client, token, 1, {0: 50, 1: 1, 2: 10})
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert totals(client, token) == [100, 2, 20]
    assert "on the limit, still in" in html and "0 to go" not in html


def test_undo_asks_nothing_and_one_tap_restores_the_hand(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    enter_points(client, token, 0, {0: 3, 1: 10, 2: 20})
    enter_points(client, token, 1, {0: 30, 1: -10, 2: 20})
    html = client.get(f"/t/{token}").get_data(as_text=True)
    client.post(f"/t/{token}/undo", data={"csrf_token": csrf_of(html), "version": version_of(html)})
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert totals(client, token) == [3, 10, 20]
    assert "Hand 2 undone" in html and ">Restore<" in html
    restore = html[html.index('action="/t/' + token + '/restore"') :]
    response = client.post(
        f"/t/{token}/restore", data={"csrf_token": csrf_of(html), "version": version_of(restore), "number": "2"}
    )
    assert response.status_code == 303
    assert totals(client, token) == [33, 0, 40] and hand_count(app) == 2
    assert "Hand 2 undone" not in client.get(f"/t/{token}").get_data(as_text=True)


def test_restore_is_version_checked_and_not_after_a_new_hand(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    enter_points(client, token, 0, {0: 3, 1: 10, 2: 20})
    html = client.get(f"/t/{token}").get_data(as_text=True)
    client.post(f"/t/{token}/undo", data={"csrf_token": csrf_of(html), "version": version_of(html)})
    stale = table_of(app, token).version - 1
    client.post(f"/t/{token}/restore", data={"csrf_token": csrf_of(html), "version": str(stale), "number": "1"})
    assert totals(client, token) == [0, 0, 0]
    enter_points(client, token, 1, {0: 5, 1: 1, 2: 5})
    fresh = str(table_of(app, token).version)
    client.post(f"/t/{token}/restore", data={"csrf_token": csrf_of(html), "version": fresh, "number": "1"})
    assert totals(client, token) == [5, 1, 5]  # the new hand 1 stays; the old one cannot come back


def undo(client, token):
    html = client.get(f"/t/{token}").get_data(as_text=True)
    client.post(f"/t/{token}/undo", data={"csrf_token": csrf_of(html), "version": version_of(html)})


def test_undo_hand_9_correct_hand_8_and_restore_is_no_longer_offered_but_explained(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    for _ in range(7):
        enter_points(client, token, 1, {0: 5, 1: 1, 2: 3})
    enter_points(client, token, 1, {0: 40, 1: 1, 2: 3})  # hand 8: Ana 75
    enter_points(client, token, 1, {0: 20, 1: 1, 2: 3})  # hand 9: Ana 95
    undo(client, token)
    enter_points(client, token, 1, {0: 70, 1: 1, 2: 3}, number=8)  # Ana 105: out, only two left
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert ">Restore<" not in html
    assert "Hand 9 can no longer be restored: hand 8 was corrected since." in html
    version = table_of(app, token).version
    response = client.post(f"/t/{token}/restore", data={"csrf_token": csrf_of(html), "version": version, "number": 9})
    assert "Hand 9 can no longer be restored: hand 8 was corrected since." in client.get(
        response.headers["Location"]
    ).get_data(as_text=True)
    assert hand_count(app) == 10 and totals(client, token) == [105, 8, 24]
    client.set_cookie("lang", "es")
    assert "La mano 9 ya no se puede recuperar: la mano 8 se corrigió después." in client.get(f"/t/{token}").get_data(
        as_text=True
    )


def test_restore_waits_for_a_pending_reentry_decision_and_says_so(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla", "Dani"])
    enter_points(client, token, 1, {0: 60, 1: 3, 2: 20, 3: 50})
    enter_points(client, token, 1, {0: 41, 1: 3, 2: 20, 3: 0})  # Ana out
    decide_reentry(client, token, 0, buy=False)
    enter_points(client, token, 1, {1: 3, 2: 20, 3: 0})
    undo(client, token)  # hand 3
    undo(client, token)  # Ana's "no": the question is open again
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert ">Restore<" not in html and "To restore hand 3, first decide whether Ana buys back in." in html
    decide_reentry(client, token, 0, buy=False)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "Hand 3 undone" in html and ">Restore<" in html


def test_the_read_only_link_polls_and_gets_204_until_a_save(client, app):
    token = create_table(client, ["Ana", "Ben"])
    snap = table_of(app, token)
    watch = client.get(f"/t/{snap.watch_token}").get_data(as_text=True)
    assert f'hx-get="/t/{snap.watch_token}?since={snap.version}"' in watch and 'hx-trigger="every 2s"' in watch
    assert client.get(f"/t/{snap.watch_token}?since={snap.version}").status_code == 204
    enter_points(client, token, 0, {0: 3, 1: 10})
    response = client.get(f"/t/{snap.watch_token}?since={snap.version}")
    assert response.status_code == 200 and 'id="board"' in response.get_data(as_text=True)


def test_qr_code_is_a_standalone_svg_with_its_namespace(client):
    token = create_table(client, ["Ana", "Ben"])
    body = client.get(f"/t/{token}/qr.svg").get_data(as_text=True)
    assert body.startswith('<svg xmlns="http://www.w3.org/2000/svg"')


def test_chart_draws_the_total_over_the_target_before_a_reentry(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla", "Dani"])
    enter_points(client, token, 0, {0: 2, 1: 10, 2: 20, 3: 50})
    enter_points(client, token, 0, {0: 2, 1: 10, 2: 20, 3: 40})
    enter_points(client, token, 0, {0: 2, 1: 10, 2: 20, 3: 13})  # Dani at 103: out
    html = client.get(f"/t/{token}").get_data(as_text=True)
    client.post(
        f"/t/{token}/reentry",
        data={"csrf_token": csrf_of(html), "version": version_of(html), "seat": "3", "submission": "1" * 32},
    )
    assert totals(client, token) == [6, 30, 60, 60]
    with app.app_context():
        from companion.services.standing import standing
        from companion.tables.charts import totals_chart

        table = db.session.query(GameTable).filter_by(owner_token=token).one()
        chart = totals_chart(table, standing(table))
    dani = next(line for line in chart.lines if line.name == "Dani")
    ys = [float(p.split(",")[1]) for p in dani.points.split()]
    # Above the dashed target line at hand 2 (103), then the jump down to 40.
    assert min(ys) < chart.target_y and len(ys) == 5


def test_a_table_without_variants_says_so_and_plurals_are_right(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    snap = table_of(app, token)
    html = client.get("/referee/close?" + urlencode({"table": snap.watch_token})).get_data(as_text=True)
    summary = re.search(r"<summary>(.*?)</summary>", html, re.S).group(1)
    assert "variant" not in summary
    html = client.get("/referee/close?" + urlencode({"jokers": "2"})).get_data(as_text=True)
    assert "+ 1 variant<" in html


def test_one_point_over_the_limit_is_singular(client):
    # Fournier: loose cards up to 5; 6 loose points is one over.
    html = client.get("/referee/close?" + urlencode({"preset": "fournier", "cards": "1o 2o 3o 4c 5c 6c 6e"})).get_data(
        as_text=True
    )
    assert "1 point over the limit." in html and "1 points" not in html


def test_the_closer_picked_on_the_scoreboard_opens_their_cards(client):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert f'href="/t/{token}/hands/new?closer=1"' in html
    entry = client.get(f"/t/{token}/hands/new?closer=1").get_data(as_text=True)
    assert re.search(r'name="closer" value="1" checked', entry)
    assert re.search(r'name="active" value="1" checked', entry)
    enter_cards(client, token, 0, GERMAN)
    assert totals(client, token) == [3, 13, 46]


@pytest.mark.parametrize(
    "overrides,shown,not_shown",
    [
        ({}, ["10 counts 8", "11 counts 9", "12 counts 10"], []),
        ({"court_values": "ten"}, ["11 counts 10", "12 counts 10"], ["10 counts"]),
    ],
)
def test_the_hand_page_says_what_a_loose_court_card_counts(app, client, overrides, shown, not_shown):
    """Classic rules (SPEC §2): a loose 10, 11, 12 count 8, 9, 10; figures counting 10 where the table says so."""
    token = create_table(client, ["Ana", "Ben"], **overrides)
    assert table_of(app, token).rules.court_values.value == overrides.get("court_values", "sequence")
    html = client.get(f"/t/{token}/hands/new?closer=0").get_data(as_text=True)
    assert "Loose cards count their number, except:" in html
    assert all(text in html for text in shown) and not any(text in html for text in not_shown)
