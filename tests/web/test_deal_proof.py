"""Deals anyone can check, through the pages: every phone shows the deal's
seal while the hand is played and never its shuffle key; the key, the
check and the record come once the hand is over; the check page and
``chinchon verify`` say what a tampered record breaks."""

from __future__ import annotations

import io
import json
import re

import pytest

from companion.cli import main as cli
from companion.extensions import db
from companion.models import Deal, GameTable
from companion.rules.deal_proof import short

from .helpers import csrf, field
from .test_play import links_of, new_game, play_like_a_bot, snapshot, void_form

PLAYERS = [("Dani", "human"), ("Eva", "human"), ("Robo", "good")]


def the_deal(app, token) -> tuple[str, str]:
    """The deal in play's seal and seed, as stored."""
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=token).one()
        deal = db.session.query(Deal).filter_by(table_id=table.id).order_by(Deal.id.desc()).first()
        return deal.commitment, deal.seed


def pages(app, token) -> dict[str, str]:
    """Every page of the table: the table's phone, the player and read-only links, each seat's phone."""
    links, seats = links_of(app, token)
    urls = {role: f"/t/{t}/play" for role, t in links.items()}
    return urls | {name: f"/s/{t}" for name, t in seats.items()}


def play_to_the_end(client, app, token) -> None:
    for _ in range(400):
        if play_like_a_bot(client, app, f"/t/{token}/play", token).phase == "over":
            return
    raise AssertionError("the hand never ended")


def record_of_page(client, url: str) -> dict:
    response = client.get(url)
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    return json.loads(response.get_data(as_text=True))


def check_page(client, record: dict | str, **fields) -> str:
    text = record if isinstance(record, str) else json.dumps(record)
    data = {"csrf_token": csrf(client, "/verify"), "record": text, **fields}
    return client.post("/verify", data=data).get_data(as_text=True)


@pytest.mark.parametrize("mode", ["devices", "hotseat"])
def test_every_phone_shows_the_seal_and_never_the_key_while_the_hand_is_played(client, app, mode):
    token = new_game(client, PLAYERS, mode=mode).headers["Location"].split("/")[2]
    seal, seed = the_deal(app, token)
    assert len(seal) == 64 and len(seed) == 64
    for who, url in pages(app, token).items():
        html = client.get(url).get_data(as_text=True)
        assert "Deal seal" in html and short(seal) in html and f'title="{seal}"' in html, who
        assert seed not in html, who
        assert "Check this deal" not in html, who


def test_the_proof_waits_for_the_end_of_the_hand(client, app):
    token = new_game(client, PLAYERS, mode="devices").headers["Location"].split("/")[2]
    links, seats = links_of(app, token)
    _seal, seed = the_deal(app, token)
    assert client.get(f"/t/{links['watch']}/deal/1/proof").status_code == 403
    assert client.get(f"/t/{links['watch']}/deal/1/proof.json").status_code == 403
    for url in (f"/t/{token}/deal/1/proof", f"/t/{links['player']}/deal/1/proof", f"/s/{seats['Dani']}/deal/1/proof"):
        response = client.get(url)
        html = response.get_data(as_text=True)
        assert response.status_code == 200 and "The shuffle key is shown when the hand ends." in html, url
        assert seed not in html, url
    for url in (f"/t/{token}/deal/1/proof.json", f"/s/{seats['Dani']}/deal/1/proof.json"):
        response = client.get(url)
        assert response.status_code == 409 and seed not in response.get_data(as_text=True)
    assert client.get(f"/t/{token}/deal/2/proof").status_code == 404


def test_a_played_hand_shows_its_key_everywhere_and_checks_out(client, app, tmp_path):
    token = new_game(client, [("Ana", "human"), ("Ben", "human")]).headers["Location"].split("/")[2]
    seal, seed = the_deal(app, token)
    play_to_the_end(client, app, token)
    links, _seats = links_of(app, token)
    for who, url in pages(app, token).items():
        html = client.get(url).get_data(as_text=True)
        assert seed in html and short(seal) in html and "Check this deal" in html, who
    proof = client.get(f"/t/{links['watch']}/deal/1/proof").get_data(as_text=True)
    assert "This deal checks out." in proof and seed in proof and "does not check out" not in proof
    assert f"/t/{token}" not in proof  # a read-only link's page leads to read-only links only
    record = record_of_page(client, f"/t/{links['watch']}/deal/1/proof.json")
    assert record["seed"] == seed and record["commitment"] == seal and record["players"] == ["Ana", "Ben"]
    assert "This deal checks out." in check_page(client, record, seal=short(seal))
    review = client.get(f"/t/{token}/review/1").get_data(as_text=True)
    assert seed in review and f"/t/{token}/deal/1/proof" in review
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record))
    assert cli(["verify", str(path)]) == 0


def test_a_tampered_record_is_refused_with_what_failed(client, app, tmp_path, capsys):
    token = new_game(client, [("Ana", "human"), ("Ben", "human")]).headers["Location"].split("/")[2]
    play_to_the_end(client, app, token)
    record = record_of_page(client, f"/t/{token}/deal/1/proof.json")
    draws = [i for i, m in enumerate(record["moves"]) if m["move"] == "draw" and m["source"] == "stock"]
    forged = json.loads(json.dumps(record))
    move = forged["moves"][draws[0]]
    move["card"] = "1o" if move["card"] != "1o" else "2o"
    html = check_page(client, forged)
    assert "This deal does not check out." in html
    assert re.search(rf"Move {draws[0] + 1}: \w+ drew .+, but the key put .+ there\.", html)
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    assert cli(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "MISMATCH" in out and f"Move {draws[0] + 1}" in out
    html = check_page(client, record, seal="0123456789abcdef")
    assert "The shuffle key does not match the seal" in html
    html = check_page(client, record, seed="00" * 32)
    assert "The shuffle key does not match the seal" in html and "Ana was dealt" in html


def test_the_check_page_takes_the_record_as_a_file_and_words_what_it_cannot_read(client, app):
    token = new_game(client, [("Ana", "human"), ("Ben", "human")]).headers["Location"].split("/")[2]
    play_to_the_end(client, app, token)
    record = record_of_page(client, f"/t/{token}/deal/1/proof.json")
    data = {"csrf_token": csrf(client, "/verify"), "file": (io.BytesIO(json.dumps(record).encode()), "hand.json")}
    html = client.post("/verify", data=data, content_type="multipart/form-data").get_data(as_text=True)
    assert "This deal checks out." in html
    response = client.post("/verify", data={"csrf_token": csrf(client, "/verify"), "record": "{not json"})
    assert response.status_code == 400 and "This is not the record of a hand." in response.get_data(as_text=True)
    response = client.post(
        "/verify", data={"csrf_token": csrf(client, "/verify"), "record": json.dumps(record), "seal": "xyz"}
    )
    assert response.status_code == 400 and "The seal is 16 to 64 hex digits" in response.get_data(as_text=True)


def test_a_hand_called_off_shows_its_key(client, app):
    token = new_game(client, [("Ana", "human"), ("Ben", "human")], mode="hotseat").headers["Location"].split("/")[2]
    _seal, seed = the_deal(app, token)
    assert client.post(f"/t/{token}/play", data=void_form(client, token)).status_code == 303
    html = client.get(f"/t/{token}/play").get_data(as_text=True)
    assert "was called off" in html and seed in html
    assert "This deal checks out." in client.get(f"/t/{token}/deal/1/proof").get_data(as_text=True)


def test_a_deal_from_before_seals_says_so_and_plays_on(client, app):
    token = new_game(client, [("Ana", "human"), ("Ben", "human")]).headers["Location"].split("/")[2]
    with app.app_context():
        deal = db.session.query(Deal).one()
        deal.seed = deal.commitment = None
        db.session.commit()
    html = client.get(f"/t/{token}/play").get_data(as_text=True)
    assert "This hand was dealt before deals could be checked." in html and "Deal seal" not in html
    assert "before deals could be checked" in client.get(f"/t/{token}/deal/1/proof").get_data(as_text=True)
    assert client.get(f"/t/{token}/deal/1/proof.json").status_code == 409
    game = play_like_a_bot(client, app, f"/t/{token}/play", token)
    assert game.log  # the hand goes on (its reshuffles come from the old shuffler)
    assert snapshot(app, token)[3].turns_taken == 1
    assert field(client.get("/verify").get_data(as_text=True), "csrf_token")
