"""The readable API page, /api/v1/docs (issue #18): rendered on the server
from the OpenAPI document, under the strict CSP, with every example."""

from __future__ import annotations

import json
import re

from markupsafe import escape

from companion.api.examples import ERROR
from companion.api.openapi import ENDPOINTS


def test_the_docs_page_shows_every_endpoint_with_its_example(client):
    response = client.get("/api/v1/docs")
    assert response.status_code == 200 and response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    for endpoint in ENDPOINTS:
        assert f'id="{endpoint.operation_id}"' in html and escape(endpoint.example.summary) in html
        assert escape(f"{endpoint.method.upper()} /api/v1{endpoint.path}") in html
        assert escape(json.dumps(endpoint.example.response, ensure_ascii=False, indent=2)) in html
        if endpoint.example.request is not None:
            assert escape(json.dumps(endpoint.example.request, ensure_ascii=False, indent=2)) in html
    assert escape(json.dumps(ERROR.response, ensure_ascii=False, indent=2)) in html
    assert 'href="/api/v1/openapi.json"' in html
    for option in ["jokers", "stake", "run_layoff_limit", "wild_cards"]:
        assert f"<code>{option}</code>" in html


def test_the_error_example_is_the_real_answer(client):
    response = client.post("/api/v1/melds", json=ERROR.request)
    assert response.status_code == 400 and response.get_json() == ERROR.response


def test_the_docs_page_uses_the_app_layout_and_nothing_from_outside(client):
    response = client.get("/api/v1/docs")
    html = response.get_data(as_text=True)
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert "/static/app.css" in html  # the base template and its stylesheet
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "inline script"
    assert "<style" not in html and " style=" not in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html), "a resource from another host"


def test_the_docs_page_is_translated(client_without_language):
    client_without_language.set_cookie("lang", "es")
    html = client_without_language.get("/api/v1/docs").get_data(as_text=True)
    assert 'lang="es"' in html and "Example request" not in html
