"""Scorekeeping costs: taps and requests to enter a 4-player hand (measured
in Chromium at table speed when it is installed), bytes of the hand-entry
page, and server time to settle and store a hand.

    python bench/bench_tables.py [--hands 200] [--browser-hands 5]

Targets (issue 12): a 4-player hand with every player's cards in at most 30
taps and 8 requests; the closer's cards and 3 typed points in at most 14 taps.
A tap is a click or focusing a points field; typing digits is not counted.
"""

from __future__ import annotations

import argparse
import gzip
import logging
import random
import re
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path

from companion import create_app
from companion.extensions import db

HANDS = {
    0: "11c 11e 11b 5o 6o 7o 3c 12e",
    1: "5b 5c 5e 4o 12o 2c 1c",
    2: "2e 3b 6c 7b 10e 12c 12b",
    3: "1o 2o 3o 1e 4b 7c 10o",
}


def field(html: str, name: str) -> str:
    for tag in re.findall(r"<input\b[^>]*>", html):
        if f'name="{name}"' in tag:
            match = re.search(r'value="([^"]*)"', tag)
            return match.group(1) if match else ""
    raise KeyError(name)


SHOWN = {0: "11c 11e 11b 5o 6o 7o 3c", **{s: c for s, c in HANDS.items() if s}}  # the closer shows 7
POINTS = [3, 13, 46, 12]


def browser_figures(app, hands: int) -> None:
    """Enter hands in Chromium at table speed (40–250 ms between taps, seeded)
    and count taps and requests per hand, for both ways of entering a hand."""
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        print("taps and requests per hand: skipped (Debian's chromium is not installed)")
        return
    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    from companion.services.tables import create_table
    from companion.services.unit import transaction

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    rng = random.Random(12)
    figures: dict[str, list[tuple[int, int]]] = {"cards": [], "mixed": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 390, "height": 844})
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url) if "/hands/new" in r.url else None)
        for _ in range(hands):
            for way in ("cards", "mixed"):
                with app.app_context(), transaction():
                    token = create_table(
                        name="",
                        preset="classic",
                        overrides={},
                        players=["Ana", "Ben", "Carla", "Dani"],
                        first_dealer=0,
                        suit_style="spanish",
                    ).owner_token
                page.goto(f"{base}/t/{token}")
                requests.clear()
                taps = 0

                def tap(selector: str) -> None:
                    nonlocal taps
                    page.locator(selector).first.click()
                    taps += 1
                    page.wait_for_timeout(rng.randint(40, 250))

                tap(".pick-closer a >> nth=0")
                for seat, cards in SHOWN.items():
                    if way == "mixed" and seat:
                        page.locator(f"input[name=p{seat}]").click()
                        taps += 1
                        page.keyboard.type(str(POINTS[seat]), delay=60)
                        continue
                    for card in cards.split():
                        tap(f"[data-card='{card}']:visible")
                tap("button[name=action][value=save]")
                page.wait_for_selector(".flash")
                totals = [int(t) for t in page.locator(".score .total").all_inner_texts()]
                assert totals == POINTS, totals
                figures[way].append((taps, len(requests)))
        browser.close()
    server.shutdown()
    for way, label in (("cards", "4 players, all by cards"), ("mixed", "closer's cards + 3 typed points")):
        taps = [t for t, _r in figures[way]]
        reqs = [r for _t, r in figures[way]]
        print(
            f"{label}: {max(taps)} taps, requests per hand median {statistics.median(reqs)} max {max(reqs)} "
            f"(page + previews + save; Chromium at 40–250 ms between taps, {len(reqs)} hands)"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--browser-hands", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.sqlite", "WTF_CSRF_ENABLED": False}
        )
        with app.app_context():
            db.create_all()
        client = app.test_client()
        client.set_cookie("lang", "en")

        browser_figures(app, args.browser_hands)

        samples_store, samples_preview = [], []
        page_bytes = gzip_bytes = 0
        done = 0
        while done < args.hands:
            response = client.post(
                "/tables/new",
                data={
                    "players-0": "Ana",
                    "players-1": "Ben",
                    "players-2": "Carla",
                    "players-3": "Dani",
                    "preset": "classic",
                    "first_dealer": "0",
                    "jokers": "0",
                    "target": "10000",
                    "suit_style": "spanish",
                },
            )
            token = response.headers["Location"].rsplit("/", 1)[1]
            for _ in range(10):
                html = client.get(f"/t/{token}/hands/new").get_data()
                page_bytes, gzip_bytes = len(html), len(gzip.compress(html))
                text = html.decode()
                data = {
                    "version": field(text, "version"),
                    "submission": field(text, "submission"),
                    "closer": "0",
                    "mode": "cards",
                }
                data.update({f"h{s}": c for s, c in HANDS.items()})
                t0 = time.perf_counter()
                client.post(f"/t/{token}/hands/new", data=data, headers={"HX-Request": "true", "HX-Target": "verdict"})
                samples_preview.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                response = client.post(f"/t/{token}/hands/new", data={**data, "action": "save"})
                samples_store.append(time.perf_counter() - t0)
                assert response.status_code == 303
                done += 1
        assets = [Path(app.static_folder, f).read_bytes() for f in ("app.css", "app.js", "htmx.min.js", "suits.svg")]
        static, static_gz = sum(map(len, assets)), sum(len(gzip.compress(a)) for a in assets)
        print(
            f"hand-entry page: {page_bytes:,} bytes HTML ({gzip_bytes:,} gzipped); static assets {static:,} bytes ({static_gz:,} gzipped, cached)"
        )
        print(
            f"live verdict (settle 4 players, render fragment): median {statistics.median(samples_preview) * 1000:.1f} ms; "
            f"save (settle + store + replay, SQLite): median {statistics.median(samples_store) * 1000:.1f} ms, "
            f"p95 {sorted(samples_store)[int(len(samples_store) * 0.95)] * 1000:.1f} ms over {done} hands"
        )


if __name__ == "__main__":
    main()
