"""POST /api/v1/advice: the advisor's odds over JSON, bad input as 400 {error, field}."""

from __future__ import annotations

import pytest

from companion.bots.advice import advise
from companion.rules import get_rules, parse_cards

GERMAN = ["11c", "11e", "11b", "5o", "6o", "7o", "3c", "12e"]


def post(client, body):
    return client.post("/api/v1/advice", json=body)


def test_advice_per_discard_matches_the_engine(client):
    response = post(client, {"rules": {"preset": "classic"}, "hand": GERMAN, "seen": ["4c", "1b"], "seed": 2})
    assert response.status_code == 200
    data = response.get_json()
    assert data["recommended"] == "12e" and data["samples"] == 400 and data["unseen"] == 30
    expected = advise(get_rules("classic"), parse_cards(GERMAN), parse_cards("4c 1b"), seed=2)
    assert [row["discard"] for row in data["discards"]] == [str(r.discard) for r in expected.rows]
    for row, ref in zip(data["discards"], expected.rows, strict=True):
        assert row["close_next"] == ref.close_next and row["expected_points"] == ref.expected_points
        assert row["close_within_3"] == ref.close_within_3
    closing = {row["discard"]: row for row in data["discards"]}["12e"]
    assert closing["close_next"] == 1.0 and closing["close_now"]


def test_seven_cards_symbols_and_options(client):
    body = {"hand": ["J♥", "11e", "11b", "5o", "6o", "7o", "3c"], "players": 3, "stock": 2, "samples": 50, "seed": 1}
    data = post(client, body).get_json()
    assert data["recommended"] is None and [r["discard"] for r in data["discards"]] == [None]
    assert data["samples"] == 50 and data["draws"] == 1  # two cards left: one more own draw before the reshuffle
    assert post(client, body).get_json() == data  # seeded: the same figures


@pytest.mark.parametrize(
    "body,field",
    [
        ([], "body"),
        ({"hand": "11c"}, "hand"),
        ({"hand": GERMAN[:5]}, "hand"),
        ({"hand": [*GERMAN[:7], "9o"]}, "hand[7]"),
        ({"hand": [*GERMAN[:7], "11c"]}, "hand[7]"),
        ({"hand": GERMAN, "seen": ["4c", "12e"]}, "seen[1]"),
        ({"hand": GERMAN, "seen": "4c"}, "seen"),
        ({"hand": GERMAN, "players": 1}, "players"),
        ({"hand": GERMAN, "players": "3"}, "players"),
        ({"hand": GERMAN, "stock": -1}, "stock"),
        ({"hand": GERMAN, "stock": 33}, "stock"),
        ({"hand": GERMAN, "samples": 0}, "samples"),
        ({"hand": GERMAN, "samples": 10**6}, "samples"),
        ({"hand": GERMAN, "seed": 1.5}, "seed"),
        ({"hand": GERMAN, "first_round": "yes"}, "first_round"),
        ({"hand": GERMAN, "rules": {"preset": "nope"}}, "rules.preset"),
        ({"hand": GERMAN, "rules": {"preset": "sweden"}, "players": 7}, "players"),
    ],
)
def test_bad_advice_input_is_a_400_naming_the_field(client, body, field):
    response = post(client, body)
    assert response.status_code == 400
    data = response.get_json()
    assert data["field"] == field and data["error"]


def test_optional_fields_may_be_null(client):
    body = {"rules": None, "hand": GERMAN, "seen": None, "stock": None, "players": None, "samples": None, "seed": None}
    body["first_round"] = None
    assert post(client, body).get_json()["samples"] == 400


def test_first_round_advice_closes_nothing_this_turn(client):
    """SPEC §3 (first_round_close false): before her first draw Ana's seven
    cannot close with this draw, and her eight cannot close now; the later
    draws can.  Every figure as the advisor gives it with the flag."""
    rules = get_rules("classic")
    for hand in (GERMAN[:7], GERMAN):
        body = {"hand": hand, "seed": 3, "samples": 300, "first_round": True}
        data = post(client, body).get_json()
        expected = advise(rules, parse_cards(hand), seed=3, samples=300, first_round=True)
        assert [(r["close_next"], r["close_within_3"], r["close_now"]) for r in data["discards"]] == [
            (r.close_next, r.close_within_3, r.close_now) for r in expected.rows
        ]
        assert not any(r["close_now"] for r in data["discards"])
    seven = post(client, {"hand": GERMAN[:7], "first_round": True}).get_json()["discards"][0]
    assert seven["close_next"] == 0.0 < post(client, {"hand": GERMAN[:7]}).get_json()["discards"][0]["close_next"]
    italy = post(client, {"rules": {"preset": "italy"}, "hand": GERMAN[:7], "first_round": True}).get_json()
    assert italy["discards"][0]["close_next"] > 0  # Italian rules let a player close in the first round
