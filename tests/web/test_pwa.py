"""Installable on a phone: manifest, icons, service worker, offline page."""

import hashlib
import json
import re
from pathlib import Path

from companion.web.client import STATIC_ASSETS
from companion.web.templating import static_hashes

from .helpers import GERMAN, create_table, enter_cards, hand_count, hand_form


def test_manifest_is_translated_and_installable(client):
    response = client.get("/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    data = json.loads(response.get_data(as_text=True))
    assert data["display"] == "standalone" and data["start_url"] == "/" and data["theme_color"]
    sizes = {i["sizes"] for i in data["icons"] if i["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        with client.get(icon["src"]) as icon_response:
            assert icon_response.status_code == 200
    client.set_cookie("lang", "es")
    assert (
        json.loads(client.get("/manifest.webmanifest").get_data(as_text=True))["name"] == "Chinchón: anotador y árbitro"
    )


def test_service_worker_caches_static_assets_and_the_offline_page(client):
    response = client.get("/sw.js")
    assert response.mimetype == "text/javascript" and response.headers["Cache-Control"] == "no-cache"
    config = client.get("/client.json").get_json()  # what the worker reads at install
    assert {"/static/app.css", "/static/htmx.min.js"} <= {url.split("?")[0] for url in config["assets"]}
    assert config["routes"]["offline"] == "/offline"
    assert client.get("/offline").status_code == 200


def test_every_page_links_the_manifest_and_registers_the_worker(client):
    html = client.get("/").get_data(as_text=True)
    assert 'rel="manifest"' in html and 'data-sw="/sw.js"' in html


def test_healthz_answers_from_the_database(client):
    data = client.get("/healthz").get_json()
    assert data["status"] == "ok"


# -- issue 17: an evening without signal ---------------------------------------------------
STATIC = Path(__file__).resolve().parents[2] / "companion" / "static"
QUEUE = {"X-Chinchon-Queue": "1"}


def sha12(name: str) -> str:
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]


def test_manifest_has_an_id_and_a_dark_theme_colour(client):
    data = client.get("/manifest.webmanifest").get_json(force=True)
    assert data["id"] == "/"
    assert data["user_preferences"]["color_scheme_dark"]["theme_color"] == "#4ade80"
    html = client.get("/").get_data(as_text=True)
    assert '<meta name="theme-color" content="#4ade80" media="(prefers-color-scheme: dark)">' in html


def test_static_urls_carry_their_content_hash_and_are_cached_for_good(client):
    html = client.get("/").get_data(as_text=True)
    for name in ("app.css", "app.js", "offline.js", "htmx.min.js"):
        assert f"/static/{name}?v={sha12(name)}" in html
    response = client.get(f"/static/app.css?v={sha12('app.css')}")
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    response.close()
    # An old or missing hash is not promised to last.
    response = client.get("/static/app.css?v=0ld")
    assert "immutable" not in response.headers.get("Cache-Control", "")
    response.close()


def test_a_changed_file_gets_a_new_hash(tmp_path):
    (tmp_path / "app.js").write_text("one")
    before = static_hashes(str(tmp_path))
    (tmp_path / "app.js").write_text("two")
    assert static_hashes(str(tmp_path))["app.js"] != before["app.js"]


def test_service_worker_precaches_exactly_the_hashed_static_urls(client):
    config = client.get("/client.json").get_json()
    assert config["assets"] == [f"/static/{n}?v={sha12(n)}" for n in STATIC_ASSETS]
    # The cache is named after them: a release with other files gets a new cache.
    assert re.fullmatch(r"[0-9a-f]{12}", config["version"])
    # Form posts are the browser's own (Back to a posted page shows it).
    assert 'request.method !== "GET"' in client.get("/sw.js").get_data(as_text=True)


def test_offline_page_follows_the_language_and_tries_the_same_page_again(client):
    client.set_cookie("lang", "de")
    response = client.get("/offline")
    html = response.get_data(as_text=True)
    assert response.headers["Cache-Control"] == "no-cache"
    assert '<html lang="de">' in html and "Keine Verbindung" in html
    # An empty link is the address shown: the page the person was on, not home.
    assert re.search(r'<a class="button primary" href="" data-reload-page>Erneut versuchen</a>', html), html


def test_pages_carry_the_offline_texts_in_their_language(client):
    client.set_cookie("lang", "es")
    html = client.get("/").get_data(as_text=True)
    texts = json.loads(re.search(r"data-texts='([^']*)'", html).group(1))
    assert texts["asOf"] == "sin conexión · a las {time}"
    assert texts["queueOther"] == "{n} manos pendientes de enviar"
    assert texts["wakeRefused"] == "Este móvil no quiso mantener la pantalla encendida."


def queued_save(client, token, closer, hands, form=None):
    data = form or hand_form(client, token)
    data.update({"closer": str(closer), "mode": "cards", "action": "save", "discard": ""})
    data.update({f"h{seat}": cards for seat, cards in hands.items()})
    return client.post(f"/t/{token}/hands/new", data=data, headers=QUEUE)


def test_a_queued_hand_is_stored_once_however_often_it_is_sent(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    form = hand_form(client, token)
    first = queued_save(client, token, 0, GERMAN, dict(form))
    assert first.status_code == 200
    answer = first.get_json()
    assert answer["status"] == "stored" and answer["next_number"] == 2
    assert answer["last"] == {"number": 1, "closer": "Ana", "points": [["Ana", 3], ["Ben", 13], ["Carla", 46]]}
    again = queued_save(client, token, 0, GERMAN, dict(form)).get_json()
    assert again["status"] == "stored" and again["version"] == answer["version"]
    assert hand_count(app) == 1


def test_a_queued_hand_meeting_a_newer_version_gets_what_is_stored(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    stale_form = hand_form(client, token)
    enter_cards(client, token, 0, GERMAN)  # another phone saved hand 1 meanwhile
    answer = queued_save(client, token, 0, GERMAN, stale_form).get_json()
    assert answer["status"] == "stale"
    assert answer["last"]["number"] == 1 and answer["last"]["closer"] == "Ana"
    assert answer["next_number"] == 2
    assert hand_count(app) == 1


def test_a_queued_hand_the_engine_refuses_comes_back_with_the_reason(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    answer = queued_save(client, token, 2, GERMAN).get_json()  # Carla holds nothing to close with
    assert answer["status"] == "refused" and answer["field"] == "closer"
    assert answer["error"].startswith("Carla cannot close.")
    assert hand_count(app) == 0


def test_without_the_queue_header_a_save_still_answers_with_pages(client):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    response = enter_cards(client, token, 0, GERMAN)
    assert response.headers["Location"].endswith(f"/t/{token}")
