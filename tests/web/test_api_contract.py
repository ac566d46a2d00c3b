"""The API as a published contract (issue #18): the OpenAPI document, its
examples, the headers every answer carries, CORS and the size limit."""

from __future__ import annotations

import json
import re

import pytest
from openapi_spec_validator import validate

from companion import create_app
from companion.api.openapi import CARD_OUT_PATTERN, CARD_PATTERN, ENDPOINTS
from companion.extensions import db
from companion.rules import OPTION_NAMES, PRESETS, get_rules
from companion.rules.cards import _SUIT_ALIASES, DECKS, JOKER
from companion.rules.variants import OPTIONS


@pytest.fixture
def spec(client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    return response.get_json()


def test_the_document_is_valid_openapi_3_1(spec):
    assert spec["openapi"].startswith("3.1")
    validate(spec)


def test_every_endpoint_is_in_the_document(spec):
    operations = {(method, path) for path, item in spec["paths"].items() for method in item}
    assert operations == {
        ("get", "/presets"),
        ("post", "/melds"),
        ("post", "/close"),
        ("post", "/hand"),
        ("post", "/match"),
    } | {(e.method, e.path) for e in ENDPOINTS}
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            assert "429" in operation["responses"], (method, path)
            if method == "post":
                assert {"200", "400", "413"} <= set(operation["responses"])


def test_every_option_the_engine_accepts_is_documented_and_nothing_else(spec):
    documented = spec["components"]["schemas"]["Rules"]["anyOf"][0]["properties"]
    assert set(documented) - {"preset"} == set(OPTION_NAMES) == set(OPTIONS)
    resolved = spec["components"]["schemas"]["ResolvedRules"]
    assert set(resolved["properties"]) == set(resolved["required"]) == set(OPTION_NAMES)
    for name in OPTION_NAMES:
        get_rules("classic", **{name: PRESETS["classic"].to_dict()[name]})  # the engine takes each one


def _integer_range(schema):
    for variant in schema.get("anyOf", [schema]):
        if variant.get("type") == "integer":
            return variant["minimum"], variant["maximum"]
    return None


@pytest.mark.parametrize("name", [n for n, o in OPTIONS.items() if o.kind == "int"])
def test_each_integer_option_takes_its_documented_range_and_nothing_outside(spec, name):
    low, high = _integer_range(spec["components"]["schemas"]["Rules"]["anyOf"][0]["properties"][name])
    options = {"min_players": 2} if name == "max_players" else {"max_players": 8} if name == "min_players" else {}
    assert get_rules("classic", **options, **{name: low})
    assert get_rules("classic", **options, **{name: high})
    for outside in (low - 1, high + 1):
        with pytest.raises(ValueError):
            get_rules("classic", **options, **{name: outside})


def test_form_and_engine_share_the_bounds():
    from companion.web.forms import TableForm

    form_target = next(v for v in TableForm.target.kwargs["validators"] if hasattr(v, "max"))
    assert (form_target.min, form_target.max) == (OPTIONS["target"].low, OPTIONS["target"].high)
    form_stake = next(v for v in TableForm.stake.kwargs["validators"] if hasattr(v, "max"))
    assert (form_stake.min, form_stake.max) == (OPTIONS["stake"].low, OPTIONS["stake"].high)


def test_the_card_patterns_match_what_the_parser_reads():
    accepted = re.compile(CARD_PATTERN)
    canonical = re.compile(CARD_OUT_PATTERN)
    for deck in DECKS.values():
        for card in [*deck.cards(), JOKER]:
            assert canonical.match(str(card)) and accepted.match(str(card))
            assert accepted.match(f" {str(card).upper()} ")
    for alias in _SUIT_ALIASES:
        assert accepted.match(f"5{alias}") and accepted.match(f"R{alias}")
    for token in ["*", "joker", "JK", "Comodín", "Ac", "Jo", "Bb", "Se", "Qo", "Dc", "Cc", "Kb", "Re"]:
        assert accepted.match(token), token
    for token in ["", "5", "o5", "5x", "100o", "5 o", "5o5", "**"]:
        assert not accepted.match(token), token


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.operation_id)
def test_each_documented_example_is_the_real_answer(client, spec, endpoint):
    example = endpoint.example
    path = "/api/v1" + endpoint.path
    if example.request is None:
        response = client.open(path, method=endpoint.method.upper())
    else:
        response = client.open(path, method=endpoint.method.upper(), json=example.request)
    assert response.status_code == 200
    assert response.get_json() == example.response
    operation = spec["paths"][endpoint.path][endpoint.method]
    assert (
        operation["responses"]["200"]["content"]["application/json"]["examples"]["example"]["value"] == example.response
    )
    if example.request is not None:
        assert (
            operation["requestBody"]["content"]["application/json"]["examples"]["example"]["value"] == example.request
        )


@pytest.mark.parametrize("path", ["presets", "openapi.json"])
def test_presets_and_the_document_carry_an_etag_and_answer_304(client, path):
    first = client.get(f"/api/v1/{path}")
    etag = first.headers["ETag"]
    assert etag.startswith('"') and first.status_code == 200
    again = client.get(f"/api/v1/{path}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["X-API-Version"] == first.headers["X-API-Version"]
    assert client.get(f"/api/v1/{path}", headers={"If-None-Match": '"other"'}).status_code == 200


def test_answers_carry_json_with_charset_and_the_api_version(client, spec):
    answers = [
        client.get("/api/v1/presets"),
        client.post("/api/v1/melds", json={"cards": ["1o"]}),
        client.post("/api/v1/melds", json={"cards": ["xx"]}),
        client.get("/api/v1/nothing"),
        client.get("/api/v1/melds"),
    ]
    for response in answers:
        assert response.headers["Content-Type"] == "application/json; charset=utf-8"
        assert response.headers["X-API-Version"] == spec["info"]["version"]
    assert "POST" in answers[-1].headers["Allow"]


def test_cors_is_closed_by_default(client):
    response = client.post("/api/v1/melds", json={"cards": ["1o"]}, headers={"Origin": "https://bot.example"})
    assert response.status_code == 200
    assert "Access-Control-Allow-Origin" not in response.headers
    preflight = client.options(
        "/api/v1/melds", headers={"Origin": "https://bot.example", "Access-Control-Request-Method": "POST"}
    )
    assert "Access-Control-Allow-Origin" not in preflight.headers


def test_cors_opens_for_the_origins_the_setting_names(app, client):
    app.config["API_CORS_ORIGINS"] = "https://bot.example, https://scores.example/"
    response = client.post("/api/v1/melds", json={"cards": ["1o"]}, headers={"Origin": "https://scores.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "https://scores.example"
    assert "Origin" in response.headers["Vary"] and "ETag" in response.headers["Access-Control-Expose-Headers"]
    preflight = client.options(
        "/api/v1/melds",
        headers={
            "Origin": "https://bot.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == "https://bot.example"
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    assert "Content-Type" in preflight.headers["Access-Control-Allow-Headers"]
    other = client.post("/api/v1/melds", json={"cards": ["1o"]}, headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
    assert "Access-Control-Allow-Origin" not in client.get("/", headers={"Origin": "https://bot.example"}).headers


def test_cors_origins_come_from_the_environment(monkeypatch, tmp_path):
    from companion import config

    monkeypatch.setenv("API_CORS_ORIGINS", "https://bot.example")
    monkeypatch.setenv("MAX_CONTENT_LENGTH", "2048")
    settings = config.from_environment(str(tmp_path))
    assert settings["API_CORS_ORIGINS"] == "https://bot.example" and settings["MAX_CONTENT_LENGTH"] == 2048
    monkeypatch.delenv("MAX_CONTENT_LENGTH")
    assert config.from_environment(str(tmp_path))["MAX_CONTENT_LENGTH"] == 64 * 1024


# -- the size limit ------------------------------------------------------------------------
def test_an_oversize_api_body_answers_413_in_the_api_shape(client, app):
    assert app.config["MAX_CONTENT_LENGTH"] == 64 * 1024
    body = json.dumps({"cards": ["1o"], "padding": "x" * 70_000})
    response = client.post("/api/v1/melds", data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.headers["Content-Type"] == "application/json; charset=utf-8"
    assert response.get_json() == {"error": "The request body is too large; the limit is 64 KiB.", "field": "body"}


def test_a_body_just_under_the_limit_is_read(client):
    body = json.dumps({"cards": ["1o"], "padding": "x" * 60_000})
    assert client.post("/api/v1/melds", data=body, content_type="application/json").status_code == 200


def test_an_oversize_form_answers_413_with_the_error_page(client):
    response = client.post("/tables/new", data={"players-0": "x" * 70_000})
    assert response.status_code == 413
    html = response.get_data(as_text=True)
    assert "too large" in html and "64 KB" in html and 'href="/"' in html


def test_the_oversize_page_is_translated(client_without_language):
    client_without_language.set_cookie("lang", "es")
    response = client_without_language.post("/tables/new", data={"players-0": "x" * 70_000})
    assert response.status_code == 413 and "too large" not in response.get_data(as_text=True)


def test_the_size_limit_is_configurable(tmp_path):
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "MAX_CONTENT_LENGTH": 1024})
    with app.app_context():
        db.create_all()
    response = app.test_client().post("/api/v1/melds", json={"cards": ["1o"], "padding": "x" * 2000})
    assert response.status_code == 413 and "1 KiB" in response.get_json()["error"]
