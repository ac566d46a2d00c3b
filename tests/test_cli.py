"""The ``chinchon`` command prints the API's verdicts."""

import json

from companion.cli import main


def test_close_prints_a_readable_verdict(capsys):
    assert main(["close", "11c", "11e", "11b", "5o", "6o", "7o", "3c", "12e", "--preset", "classic"]) == 0
    out = capsys.readouterr().out
    assert "LEGAL" in out and "score     3" in out and "12♠" in out


def test_close_json_is_the_api_answer(capsys):
    assert main(["close", "2o", "3o", "4o", "5o", "6o", "1c", "2e", "12b", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["legal"] is False and data["discard"] == "12b" and data["reason"]


def test_overrides_with_set(capsys):
    assert main(["close", "*", "2o", "3o", "4o", "5o", "6o", "7o", "12b", "--set", "jokers=2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["score"] == -50


def test_hand_and_melds(capsys):
    hands = ["11c 11e 11b 5o 6o 7o 3c 12e", "5b 5c 5e 4o 12o 2c 1c", "2e 3b 6c 7b 10e 12c 12b"]
    assert main(["hand", *hands, "--json"]) == 0
    assert [r["points"] for r in json.loads(capsys.readouterr().out)["results"]] == [3, 13, 46]
    assert main(["melds", "5b", "5c", "5e", "4o"]) == 0
    assert "points    4" in capsys.readouterr().out


def test_bad_input_exits_2_with_the_field(capsys):
    assert main(["melds", "13o", "1o"]) == 2
    assert "cards[0]" in capsys.readouterr().err
    assert main(["close", "1o", "--set", "jokers=9", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["field"] == "rules.jokers"


def test_presets_lists_every_preset(capsys):
    assert main(["presets", "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)) == {"classic", "fournier", "sweden", "italy"}


def test_verify_passes_a_hand_that_follows_from_its_key_and_fails_a_tampered_one(tmp_path, capsys):
    from tests.rules.test_deal_proof import played

    record = played()
    good = tmp_path / "hand.json"
    good.write_text(json.dumps(record))
    assert main(["verify", str(good)]) == 0
    assert "VERIFIED" in capsys.readouterr().out
    record["dealt"]["discard"] = "12b" if record["dealt"]["discard"] != "12b" else "11b"
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(record))
    assert main(["verify", str(bad), "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] is False and verdict["checks"]["deal"] == "failed" and verdict["checks"]["commitment"] == "ok"
    assert main(["verify", str(good), "--seal", "0000 0000 0000 0000"]) == 1
    assert "FAIL  The seed does not match the seal" in capsys.readouterr().out


def test_verify_of_a_file_that_is_no_record_exits_2(tmp_path, capsys):
    path = tmp_path / "nope.json"
    path.write_text("{}")
    assert main(["verify", str(path)]) == 2
    assert "seed" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "missing.json")]) == 2
