"""Scorekeeping costs: taps to enter a 4-player hand with cards, bytes of the
hand-entry page, and server time to settle and store a hand.

    python bench/bench_tables.py [--hands 200]
"""

from __future__ import annotations

import argparse
import gzip
import re
import statistics
import tempfile
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.sqlite", "WTF_CSRF_ENABLED": False}
        )
        with app.app_context():
            db.create_all()
        client = app.test_client()
        client.set_cookie("lang", "en")

        # Taps with the card grid: open the page, pick the closer (their tab
        # opens by itself), tap 8 cards; for each other player one tab and 7
        # cards; save.
        taps = 1 + 1 + 8 + 3 * (1 + 7) + 1
        print(
            f"taps to enter a 4-player hand with cards: {taps} (points only: 1 + 1 + 1 + 4 fields + 1 = 8 taps, plus typing)"
        )

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
