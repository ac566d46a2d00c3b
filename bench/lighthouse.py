"""Lighthouse scores (mobile profile) for the scoreboard, hand entry and referee pages.

    python bench/lighthouse.py

Installs Lighthouse 12 from npm into .cache/lighthouse on first use (Node 20
runs it), serves the app with gunicorn on a free local port over a throwaway
SQLite database holding one table with a hand, and runs Debian's Chromium.
Targets: performance >= 95, accessibility 100, best practices >= 95.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "lighthouse"
LIGHTHOUSE = CACHE / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def ensure_lighthouse() -> Path:
    if not LIGHTHOUSE.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--prefix", str(CACHE), "--no-audit", "--no-fund", "lighthouse@12.8.2"], check=True
        )
    return LIGHTHOUSE


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def seed(database: str) -> tuple[str, str]:
    """One table with one hand entered; returns (player token, referee query)."""
    os.environ["DATABASE_URL"] = database
    from companion import create_app
    from companion.extensions import db
    from companion.rules import parse_cards
    from companion.services.hands import HandInput, store_hand
    from companion.services.tables import create_table
    from companion.services.unit import transaction

    app = create_app()
    with app.app_context(), transaction():
        db.create_all()
        table = create_table(
            name="",
            preset="classic",
            overrides={},
            players=["Ana", "Ben", "Carla"],
            first_dealer=0,
            suit_style="spanish",
        )
        hands = ["11c 11e 11b 5o 6o 7o 3c 12e", "5b 5c 5e 4o 12o 2c 1c", "2e 3b 6c 7b 10e 12c 12b"]
        data = HandInput(closer=0, mode="cards", cards={i: parse_cards(h) for i, h in enumerate(hands)})
        db.session.flush()
        store_hand(table, table.version, "0" * 32, data)
        return table.player_token, "cards=2o+3o+4o+5o+6o+1c+2e+12b"


def main() -> None:
    lighthouse = ensure_lighthouse()
    with tempfile.TemporaryDirectory() as tmp:
        database = f"sqlite:///{tmp}/lh.sqlite"
        token, referee = seed(database)
        port = free_port()
        env = dict(os.environ, DATABASE_URL=database, SECRET_KEY="lighthouse")
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-w", "2", "-b", f"127.0.0.1:{port}", "companion:create_app()"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(50):
                try:
                    urllib.request.urlopen(base + "/healthz", timeout=1)
                    break
                except OSError:
                    time.sleep(0.2)
            pages = {
                "scoreboard": f"{base}/t/{token}",
                "hand entry": f"{base}/t/{token}/hands/new",
                "referee": f"{base}/referee/close?{referee}",
            }
            flags = "--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --no-first-run"
            print(f"{'page':<12} {'performance':>12} {'accessibility':>14} {'best practices':>15}")
            for name, url in pages.items():
                out = Path(tmp) / "report.json"
                subprocess.run(
                    [
                        str(lighthouse),
                        url,
                        f"--chrome-path={CHROMIUM}",
                        f"--chrome-flags={flags}",
                        "--output=json",
                        f"--output-path={out}",
                        "--only-categories=performance,accessibility,best-practices",
                        "--quiet",
                    ],
                    check=True,
                )
                report = json.loads(out.read_text())
                scores = {k: round(v["score"] * 100) for k, v in report["categories"].items()}
                print(
                    f"{name:<12} {scores['performance']:>12} {scores['accessibility']:>14} {scores['best-practices']:>15}"
                )
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
