"""The JSON referee (SPEC §8): every endpoint and every kind of bad input."""

from __future__ import annotations

import pytest

GERMAN = [
    ["11c", "11e", "11b", "5o", "6o", "7o", "3c", "12e"],
    ["5b", "5c", "5e", "4o", "12o", "2c", "1c"],
    ["2e", "3b", "6c", "7b", "10e", "12c", "12b"],
]


def post(client, path, body):
    return client.post(f"/api/v1/{path}", json=body)


def test_presets_are_fully_resolved(client):
    data = client.get("/api/v1/presets").get_json()
    assert set(data) == {"classic", "fournier", "sweden", "italy"}
    assert data["italy"]["run_layoff_limit"] == "two_decks"
    assert all(len(options) == 27 for options in data.values())  # SPEC §7, max_reshuffles included


def test_melds_answers_canonical_cards(client):
    data = post(
        client, "melds", {"rules": {"preset": "classic"}, "cards": ["5♣", "5♥", "5♠", "4♦", "R♦", "2♥", "A♥"]}
    ).get_json()
    assert data == {"melds": [["5c", "5e", "5b"]], "deadwood": ["1c", "2c", "4o", "12o"], "points": 17}


def test_close_with_named_discard_and_first_round(client):
    data = post(client, "close", {"rules": None, "cards": GERMAN[0], "first_round": None, "discard": None}).get_json()
    assert data["legal"] and data["discard"] == "12e" and data["score"] == 3 and data["reason"] is None
    data = post(client, "close", {"cards": GERMAN[0], "first_round": True}).get_json()
    assert not data["legal"] and data["score"] is None and "turn" in data["reason"]


def test_hand_lists_layoffs_by_player_and_meld(client):
    data = post(client, "hand", {"rules": {"preset": "classic"}, "hands": GERMAN}).get_json()
    assert [r["points"] for r in data["results"]] == [3, 13, 46]
    layoff = data["results"][1]["layoffs"][0]
    assert layoff["card"] == "4o" and layoff["player"] == 0
    assert data["results"][0]["melds"][layoff["meld"]] == ["5o", "6o", "7o"]
    assert data["discard"] == "12e" and data["legal"] and data["reason"] is None


def test_match_replays_events(client):
    body = {"rules": {"preset": "classic", "stake": 1}, "players": ["Ana", "Ben"], "events": None}
    data = post(client, "match", body).get_json()
    assert data == {
        "totals": {"Ana": 0, "Ben": 0},
        "in": ["Ana", "Ben"],
        "out": [],
        "reentries": {"Ana": 0, "Ben": 0},
        "can_reenter": [],
        "pot": 2,
        "finished": False,
        "winners": [],
    }


@pytest.mark.parametrize(
    "path,body,field",
    [
        ("melds", {"cards": ["1o", "2o", "13o"]}, "cards[2]"),
        ("melds", {"cards": ["8o", "2o", "3o"]}, "cards[0]"),
        ("melds", {"cards": "1o 2o 3o"}, "cards"),
        ("melds", {"cards": []}, "cards"),
        ("melds", {"cards": ["1o", 2, "3o"]}, "cards[1]"),
        ("melds", {"cards": ["1o"] * 9}, "cards"),
        ("melds", {"rules": "classic", "cards": ["1o"]}, "rules"),
        ("melds", {"rules": {"preset": "argentina"}, "cards": ["1o"]}, "rules.preset"),
        ("melds", {"rules": {"jokerz": 2}, "cards": ["1o"]}, "rules.jokerz"),
        ("melds", {"rules": {"jokers": "two"}, "cards": ["1o"]}, "rules.jokers"),
        ("close", {"cards": ["11c", "11e", "11b", "5o", "6o", "7o"]}, "cards"),
        ("close", {"cards": GERMAN[0], "discard": "1b"}, "discard"),
        ("close", {"cards": GERMAN[0], "discard": "zz"}, "discard"),
        ("close", {"cards": GERMAN[0][:7], "discard": "3c"}, "discard"),
        ("close", {"cards": GERMAN[0], "first_round": "yes"}, "first_round"),
        ("close", {"rules": {"jokers": 2}, "cards": ["*", "*", "*", "1o", "2o", "3o", "5c", "6c"]}, "cards[2]"),
        ("close", {"cards": ["*", "1o", "2o", "3o", "5c", "6c", "7c"]}, "cards[0]"),
        ("hand", {"hands": [GERMAN[0][:6], GERMAN[1], GERMAN[2]]}, "hands[0]"),
        ("hand", {"hands": [GERMAN[0], GERMAN[1], GERMAN[2][:5]]}, "hands[2]"),
        ("hand", {"hands": [GERMAN[0], [*GERMAN[1][:6], "5o"], GERMAN[2]]}, "hands[1][6]"),
        ("hand", {"hands": GERMAN, "closer": 3}, "closer"),
        ("hand", {"hands": GERMAN, "closer": "0"}, "closer"),
        ("hand", {"hands": [GERMAN[0]]}, "hands"),
        ("hand", {"hands": [GERMAN[0], GERMAN[1]] * 5}, "hands"),
        ("hand", {"hands": "nope"}, "hands"),
        ("hand", {"hands": [GERMAN[0], "5b 5c"]}, "hands[1]"),
        ("hand", {"hands": [GERMAN[0], ["5b", "xx", "5e", "4o", "12o", "2c", "1c"]]}, "hands[1][1]"),
        ("match", {"players": ["Ana"], "events": []}, "players"),
        ("match", {"players": "Ana, Ben"}, "players"),
        ("match", {"players": ["Ana", "Ben"], "events": {"hand": {}}}, "events"),
        (
            "match",
            {"players": ["Ana", "Ben"], "events": [{"hand": {"Ana": 101, "Ben": 0}}, {"hand": {"Ben": 5}}]},
            "events[1]",
        ),
        (
            "match",
            {"players": ["Ana", "Ben"], "events": [{"chinchon": "Ana"}], "rules": {"preset": "italy"}},
            "events[0]",
        ),
    ],
)
def test_bad_input_answers_400_with_a_sentence_and_the_field(client, path, body, field):
    response = post(client, path, body)
    assert response.status_code == 400
    data = response.get_json()
    assert data["field"] == field
    assert isinstance(data["error"], str) and len(data["error"]) > 10


@pytest.mark.parametrize("path", ["melds", "close", "hand", "match"])
def test_malformed_bodies_are_400_not_500(client, path):
    for raw, ctype in [
        (b"{not json", "application/json"),
        (b"[1,2]", "application/json"),
        (b"cards=1o", "application/x-www-form-urlencoded"),
    ]:
        response = client.post(f"/api/v1/{path}", data=raw, content_type=ctype)
        assert response.status_code == 400
        assert response.get_json()["error"]


def test_unknown_api_paths_and_methods_answer_json(client):
    response = client.get("/api/v1/nothing")
    assert response.status_code == 404 and response.get_json()["error"]
    response = client.get("/api/v1/close")
    assert response.status_code == 405 and response.get_json()["error"]


def test_api_needs_no_csrf_token(client, app):
    assert app.config["WTF_CSRF_ENABLED"]
    assert post(client, "melds", {"cards": ["1o"]}).status_code == 200
