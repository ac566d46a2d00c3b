"""Every text answer goes compressed, as the phone's Accept-Encoding asks."""

from __future__ import annotations

import gzip
from pathlib import Path

import brotli
import pytest

from companion.api.examples import HAND

from .helpers import create_table, enter_points, hand_form

PHONE = "br, gzip, deflate"


def decoded(response) -> bytes:
    encoding = response.headers.get("Content-Encoding")
    if encoding == "br":
        return brotli.decompress(response.data)
    if encoding == "gzip":
        return gzip.decompress(response.data)
    assert encoding is None
    return response.data


@pytest.fixture
def token(client):
    return create_table(client, ["Ana", "Ben", "Carla", "Dani"])


def paths(token: str) -> list[str]:
    return [
        "/",
        f"/t/{token}",
        f"/t/{token}/hands/new",
        f"/t/{token}/history",
        f"/t/{token}/qr.svg",
        "/referee/close",
        "/tables/new",
        "/api/v1/openapi.json",
        "/sw.js",
        "/manifest.webmanifest",
    ]


def test_pages_json_and_svg_are_compressed_with_brotli_for_a_phone(client, token):
    for path in paths(token):
        plain = client.get(path)
        packed = client.get(path, headers={"Accept-Encoding": PHONE})
        assert packed.status_code == plain.status_code == 200, path
        assert packed.headers["Content-Encoding"] == "br", path
        assert "Accept-Encoding" in packed.headers["Vary"], path
        assert int(packed.headers["Content-Length"]) == len(packed.data) < len(plain.data), path
        # The same page, token for token (the forms' one-time ids aside).
        assert len(decoded(packed)) == pytest.approx(len(plain.data), abs=64), path


def test_gzip_when_brotli_is_not_accepted_and_nothing_when_nothing_is(client, token):
    page = f"/t/{token}/hands/new"
    assert client.get(page, headers={"Accept-Encoding": "gzip"}).headers["Content-Encoding"] == "gzip"
    assert client.get(page, headers={"Accept-Encoding": "br;q=0, gzip"}).headers["Content-Encoding"] == "gzip"
    assert "Content-Encoding" not in client.get(page).headers
    assert "Content-Encoding" not in client.get(page, headers={"Accept-Encoding": "identity"}).headers


def test_htmx_fragments_and_api_answers_are_compressed(client, token):
    data = {**hand_form(client, token), "closer": "0", "mode": "cards", "h0": "11c 11e 11b 5o 6o 7o 3c 12e"}
    verdict = client.post(
        f"/t/{token}/hands/new",
        data=data,
        headers={"HX-Request": "true", "HX-Target": "verdict", "Accept-Encoding": PHONE},
    )
    assert verdict.status_code == 200
    assert verdict.headers["Content-Encoding"] == "br"
    assert b"<html" not in decoded(verdict)
    answer = client.post("/api/v1/hand", json=HAND.request, headers={"Accept-Encoding": PHONE})
    assert answer.status_code == 200
    assert answer.headers["Content-Encoding"] == "br"
    assert b'"results"' in decoded(answer)


@pytest.mark.parametrize("name", ["htmx.min.js", "app.css", "app.js", "offline.js", "icon.svg", "suits.svg"])
def test_static_files_are_sent_precompressed_at_the_best_level(app, client, name):
    raw = Path(app.static_folder, name).read_bytes()
    for encoding, unpack in (("br", brotli.decompress), ("gzip", gzip.decompress)):
        response = client.get(f"/static/{name}", headers={"Accept-Encoding": encoding})
        assert response.status_code == 200
        assert response.headers["Content-Encoding"] == encoding
        assert unpack(response.data) == raw
        assert int(response.headers["Content-Length"]) == len(response.data)
    best = brotli.compress(raw, quality=11)
    assert len(client.get(f"/static/{name}", headers={"Accept-Encoding": "br"}).data) == len(best)


def test_images_already_compressed_go_as_they_are(client):
    with client.get("/static/icon-192.png", headers={"Accept-Encoding": PHONE}) as response:
        assert response.status_code == 200
        assert "Content-Encoding" not in response.headers


def test_a_range_request_for_a_static_file_gets_the_plain_bytes(app, client):
    with client.get("/static/htmx.min.js", headers={"Accept-Encoding": PHONE, "Range": "bytes=0-99"}) as response:
        assert response.status_code == 206
        assert "Content-Encoding" not in response.headers
        assert len(response.data) == 100


def test_an_unchanged_poll_stays_an_empty_204(client, token):
    version = client.get(f"/t/{token}").get_data(as_text=True).split("since=", 1)[1].split('"', 1)[0]
    response = client.get(f"/t/{token}?since={version}", headers={"Accept-Encoding": PHONE})
    assert response.status_code == 204
    assert response.data == b""
    assert "Content-Encoding" not in response.headers


def test_a_refused_form_comes_back_compressed_too(client, token):
    """The 409 page holds the whole form again (about 40 KB): it went out plain."""
    stale = hand_form(client, token)
    enter_points(client, token, 0, {0: 3, 1: 10, 2: 20, 3: 5})
    stale.update({"closer": "0", "mode": "points", "p0": "3", "p1": "9", "p2": "1", "p3": "2", "action": "save"})
    response = client.post(f"/t/{token}/hands/new", data=stale, headers={"Accept-Encoding": PHONE})
    assert response.status_code == 409
    assert response.headers["Content-Encoding"] == "br"
    assert b"<form" in decoded(response)
    missing = client.get("/t/NoSuchLinkHere123", headers={"Accept-Encoding": "gzip"})
    assert missing.status_code == 404 and missing.headers["Content-Encoding"] == "gzip"
    assert b"<html" in decoded(missing)


def test_the_unchanged_service_worker_is_a_304(client):
    """The browser checks /sw.js on every page load; without a validator each
    check downloaded the whole worker again."""
    first = client.get("/sw.js", headers={"Accept-Encoding": PHONE})
    assert first.status_code == 200 and first.headers["ETag"]
    again = client.get("/sw.js", headers={"Accept-Encoding": PHONE, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["Cache-Control"] == "no-cache"
    other = client.get("/sw.js", headers={"Accept-Encoding": PHONE, "If-None-Match": '"older-release"'})
    assert other.status_code == 200
