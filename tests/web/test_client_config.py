"""The client config (web/client.py): the one JSON the scripts and the
service worker read, true to the app's routes, forms and queue answers."""

from __future__ import annotations

import hashlib
import json
import re
from html import unescape
from pathlib import Path

import pytest
from flask import url_for

from companion.web.client import (
    HAND_FIELDS,
    QUEUE_HEADER,
    QUEUED,
    STATIC_ASSETS,
    QueueStatus,
    client_config,
    is_queued,
    route_shape,
)
from companion.web.templating import links_for

from .helpers import GERMAN, create_table, hand_form

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "companion" / "static"
#: Each shape's route, and the values its placeholders are tried with.
ENDPOINTS = {
    "home": "main.home",
    "scoreboard": "tables.scoreboard",
    "newHand": "tables.new_hand",
    "editHand": "tables.edit_hand",
    "history": "tables.history",
    "qr": "tables.qr",
    "offline": "main.offline",
    "serviceWorker": "main.service_worker",
    "config": "main.client_json",
    "static": "static",
}
VALUES = {"token": "Ab3dEf6hIj9kLm2nOp5qRs", "number": "7", "filename": "js/queue.js"}


@pytest.fixture
def config(app):
    with app.test_request_context():
        return client_config()


def page_config(html: str) -> dict:
    found = re.search(r"<meta name=\"client-config\" content='([^']*)'>", html)
    assert found, "the page carries no client config"
    return json.loads(unescape(found.group(1)))


def test_every_route_shape_is_the_route_it_names(app, config):
    assert set(config["routes"]) == set(ENDPOINTS)
    adapter = app.url_map.bind("localhost")
    for name, shape in config["routes"].items():
        path = re.sub(r"\{(\w+)\}", lambda m: VALUES[m.group(1)], shape)
        endpoint, args = adapter.match(path, method="GET")
        assert endpoint == ENDPOINTS[name], (name, shape)
        assert {k: str(v) for k, v in args.items()} == {k: VALUES[k] for k in re.findall(r"\{(\w+)\}", shape)}


def test_shapes_read_as_addresses(app):
    with app.test_request_context():
        assert route_shape("tables.scoreboard", "token") == "/t/{token}"
        assert route_shape("tables.edit_hand", "token", "number") == "/t/{token}/hands/{number}/edit"
        assert route_shape("main.home") == "/"


@pytest.mark.parametrize(
    ("endpoint", "key", "fixed", "rows"),
    [
        ("tables.scoreboard", "token", {}, ["Ab3dEf6hIj9kLm2nOp5qRs", "x-_9"]),
        ("tournaments.correct", "table_id", {"token": "Ab3dEf6hIj9kLm2nOp5qRs"}, [1, 64, 2**31 - 1]),
        ("tournaments.table_qr", "table_id", {"token": "Zz_-09"}, [7]),
    ],
)
def test_a_link_built_once_for_many_rows_is_each_rows_own_url_for(app, endpoint, key, fixed, rows):
    """The dashboard builds its 64 tables' links from one shape (web.templating.links_for)."""
    with app.test_request_context():
        link = links_for(endpoint, key, **fixed)
        assert [link(row) for row in rows] == [url_for(endpoint, **fixed, **{key: row}) for row in rows]


def test_the_queue_header_and_statuses_are_the_servers_constants(config):
    assert config["queue"] == {
        "header": QUEUE_HEADER,
        "value": QUEUED,
        "statuses": {"stored": QueueStatus.STORED, "stale": QueueStatus.STALE, "refused": QueueStatus.REFUSED},
    }
    assert is_queued({QUEUE_HEADER: QUEUED}) and not is_queued({}) and not is_queued({QUEUE_HEADER: "0"})


def test_the_node_tests_read_the_servers_contract(config):
    """tests/js/ runs without the server: its copy of the config must be this one."""
    copy = json.loads((ROOT / "tests" / "js" / "client-config.json").read_text())
    assert copy == {key: config[key] for key in ("routes", "fields", "queue")}


def test_the_hand_form_has_the_fields_the_scripts_use(client, config):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    html = client.get(f"/t/{token}/hands/new").get_data(as_text=True)
    fields = config["fields"]
    assert fields == HAND_FIELDS
    for key in ("csrf", "version", "submission", "closer", "closerScore"):
        assert f'name="{fields[key]}"' in html, key
    assert f'name="{fields["action"]}" value="{fields["save"]}"' in html
    for key in ("cards", "points"):
        assert f'name="{fields[key]}0"' in html, key
    assert f'name="{fields["discard"]}"' in html


def test_a_queued_hand_is_answered_with_a_status_of_the_contract(client):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    data = {**hand_form(client, token), "closer": "0", "mode": "cards", "action": "save", "discard": ""}
    data.update({f"h{seat}": cards for seat, cards in GERMAN.items()})
    answer = client.post(f"/t/{token}/hands/new", data=data, headers={QUEUE_HEADER: QUEUED}).get_json()
    assert answer["status"] == QueueStatus.STORED
    assert set(answer) >= {"status", "version", "next_number", "last"}


def sha12(name: str) -> str:
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]


def test_the_worker_precaches_every_script_and_file_a_page_loads_at_its_hash(client, config):
    assert config["assets"] == [f"/static/{name}?v={sha12(name)}" for name in STATIC_ASSETS]
    html = client.get("/").get_data(as_text=True)
    loaded = re.findall(r'<(?:script|link rel="stylesheet")[^>]* (?:src|href)="(/static/[^"]+)"', html)
    assert loaded and set(loaded) <= set(config["assets"])
    # Every module of the client is among them.
    modules = {f"js/{p.name}" for p in (STATIC / "js").glob("*.js")}
    assert modules <= set(STATIC_ASSETS)


def test_pages_carry_the_config_the_worker_reads(client, config):
    html = client.get("/").get_data(as_text=True)
    # Pages carry all of it but the files only the worker precaches.
    assert page_config(html) == {k: v for k, v in config.items() if k != "assets"}
    response = client.get("/client.json")
    assert response.mimetype == "application/json" and response.headers["Cache-Control"] == "no-cache"
    assert response.get_json() == config
    again = client.get("/client.json", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


def test_the_config_is_data_not_an_inline_script(client):
    """Carried as htmx's is (a meta element): no inline script needs allowing."""
    response = client.get("/")
    assert "unsafe-inline" not in response.headers["Content-Security-Policy"]
    assert not re.search(r"<script(?![^>]*\bsrc=)", response.get_data(as_text=True))


def test_a_new_release_is_a_new_version(app, config):
    assert re.fullmatch(r"[0-9a-f]{12}", config["version"])
    hashes = app.extensions["static_hashes"]
    for name in ("sw.js", "js/queue.js"):
        saved = hashes[name]
        hashes[name] = "0" * 12
        app.extensions.pop("client_config", None)  # made once per app: a release is a new start
        try:
            with app.test_request_context():
                assert client_config()["version"] != config["version"], name
        finally:
            hashes[name] = saved
            app.extensions.pop("client_config", None)


def test_the_service_worker_is_the_static_file_at_the_root(client):
    response = client.get("/sw.js?v=0123456789ab")
    assert response.mimetype == "text/javascript" and response.headers["Cache-Control"] == "no-cache"
    body = response.get_data()
    assert body == (STATIC / "sw.js").read_bytes()
    # It knows no release, file or route of its own: it reads them from the config.
    text = body.decode()
    assert "{{" not in text and "/t/" not in text and "/static/app" not in text
    assert "importScripts(" in text and 'request.method !== "GET"' in text


def test_the_service_worker_and_the_scripts_spell_no_route(client):
    """Route shapes, field names, the queue header and the statuses come from
    the config: no script spells them."""
    for path in [STATIC / "sw.js", STATIC / "offline.js", *(STATIC / "js").glob("*.js")]:
        text = re.sub(r"(^|\s)//\s.*$", "", path.read_text(), flags=re.M)  # examples in comments are fine
        for spelled in ("/t/", "/hands/", "/history", "/offline", "X-Chinchon-Queue", 'status === "', "csrf_token"):
            assert spelled not in text, (path.name, spelled)
