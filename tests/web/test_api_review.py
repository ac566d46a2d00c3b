"""POST /api/v1/review: a recorded hand's review over JSON, bad records as 400 {error, field}."""

from __future__ import annotations

import copy
import random

import pytest

from companion.api.examples import REVIEW
from companion.bots import GoodBot, play_hand
from companion.bots.review import review_hand, to_json
from companion.rules import get_rules
from companion.rules.game import HandGame


def post(client, body):
    return client.post("/api/v1/review", json=body)


def recorded(seed=2, players=3):
    game = HandGame.deal(get_rules("classic"), players, dealer=0, rng=random.Random(seed))
    play_hand(game, [GoodBot()] * players, random.Random(seed))
    return game


def test_a_recorded_hand_is_judged_as_the_engine_judges_it(client):
    game = recorded()
    response = post(client, {"deal": game.to_dict(), "seats": [1], "totals": [40, 10, 75]})
    assert response.status_code == 200
    data = response.get_json()
    assert data == to_json(review_hand(game, seats=[1], totals=[40, 10, 75]))
    judged = [s for s in data["steps"] if s["judgement"] is not None]
    assert judged and all(s["move"]["seat"] == 1 for s in judged)
    assert set(data["accuracy"]) == {"1"}


def test_every_seat_is_judged_by_default(client):
    data = post(client, {"deal": recorded(4, 2).to_dict()}).get_json()
    assert {s["move"]["seat"] for s in data["steps"] if s["judgement"]} == {0, 1}


def test_the_documented_example_answers_as_documented(client):
    assert post(client, REVIEW.request).get_json() == REVIEW.response


def _unfinished():
    game = HandGame.deal(get_rules("classic"), 2, dealer=0, rng=random.Random(1))
    return game.to_dict()


def _tampered():
    data = recorded().to_dict()
    data["log"].pop(1)
    return data


def _no_cards():
    data = copy.deepcopy(recorded().to_dict())
    for move in data["log"]:
        if move["move"] == "draw":
            move["card"] = None
    return data


@pytest.mark.parametrize(
    "body,field",
    [
        ({}, "deal"),
        ({"deal": "x"}, "deal"),
        ({"deal": {"log": [], "hands": [["1o"]]}}, "deal.hands"),
        ({"deal": {"log": "x", "hands": []}}, "deal.log"),
        ({"deal": {"log": [{"move": "draw"}] * 161, "hands": [[], []]}}, "deal.log"),
        ({"deal": {"log": [], "hands": [[], []]}}, "deal.dealer"),
        ({"deal": _unfinished()}, "deal"),
        ({"deal": _tampered()}, "deal.log"),
        ({"deal": _no_cards()}, "deal.log"),
        ({"deal": recorded().to_dict(), "seats": [5]}, "seats"),
        ({"deal": recorded().to_dict(), "seats": "0"}, "seats"),
        ({"deal": recorded().to_dict(), "totals": [1, 2]}, "totals"),
        ({"deal": recorded().to_dict(), "rules": {"preset": "nope"}}, "rules.preset"),
        ({"deal": recorded().to_dict() | {"dealer": "x"}}, "deal.dealer"),  # a tryout's 500
        ({"deal": recorded().to_dict() | {"dealer": 10**30}}, "deal.dealer"),
        ({"deal": recorded().to_dict() | {"turns_taken": True}}, "deal.turns_taken"),
        ({"deal": recorded().to_dict() | {"closer": 9}}, "deal.closer"),
        ({"deal": recorded().to_dict() | {"stock": [True]}}, "deal"),
    ],
)
def test_a_bad_record_is_a_400_naming_the_field(client, body, field):
    response = post(client, body)
    assert response.status_code == 400, response.get_data(as_text=True)
    data = response.get_json()
    assert data["field"] == field and data["error"]
    assert "Error" not in data["error"]  # a sentence, never a Python exception's name
