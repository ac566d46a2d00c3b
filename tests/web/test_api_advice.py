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
    assert post(client, body).get_json()["samples"] == 400
