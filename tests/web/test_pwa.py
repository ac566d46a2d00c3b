"""Installable on a phone: manifest, icons, service worker, offline page."""

import json


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
    body = response.get_data(as_text=True)
    assert response.mimetype == "text/javascript" and response.headers["Cache-Control"] == "no-cache"
    assert "/static/app.css" in body and "/static/htmx.min.js" in body and '"/offline"' in body
    assert client.get("/offline").status_code == 200


def test_every_page_links_the_manifest_and_registers_the_worker(client):
    html = client.get("/").get_data(as_text=True)
    assert 'rel="manifest"' in html and 'data-sw="/sw.js"' in html


def test_healthz_answers_from_the_database(client):
    data = client.get("/healthz").get_json()
    assert data["status"] == "ok"
