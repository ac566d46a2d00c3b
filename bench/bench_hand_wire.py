"""Light on the wire: one 4-player hand entered on a phone at a person's pace.

    .venv/bin/python bench/bench_hand_wire.py [-v]

The app runs on a free local port (SQLite in a temporary folder) behind a
meter of every exchange that reaches it: the page's requests and the service
worker's alike, each with its request (line, headers, form) and its answer
(status line, headers and body as sent, after any compression), and the body
once decoded.  Chromium (Debian's, at 390×844) opens the scoreboard first (its
files and the service worker settle in), then, counted from the tap on "who
closed?" until the scoreboard after saving has loaded and its worker has kept
what it keeps (its 2 s polls left out), enters a 4-player hand at 0.8 s a tap:

  (a) the closer's 7 cards, the discard (its tab, then the card) and the
      three other players' points typed;
  (b) every player's 7 cards.

Prints, for each: the requests, the bytes on the wire (sent both ways) and
the raw bytes (bodies decoded), against the targets (≤ 12 and ≤ 20 requests,
≤ 30 KB on the wire); then the raw and on-the-wire size of the hand page and
of the close checker as this browser gets them.  ``-v`` lists each exchange.
Not part of the test run.
"""

from __future__ import annotations

import argparse
import gzip
import logging
import sys
import tempfile
import threading
import time
import zlib
from dataclasses import dataclass
from email.utils import formatdate
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright
from werkzeug.serving import WSGIRequestHandler, make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion import create_app  # noqa: E402
from companion.extensions import db  # noqa: E402
from companion.services.tables import create_table  # noqa: E402
from companion.services.unit import transaction  # noqa: E402

TAP_S = 0.8  # a person's pace
KEY_S = 0.2  # between digits on the keypad
NAMES = ["Ana", "Ben", "Carla", "Dani"]
#: The German seed plus Dani (tests/e2e/test_entry_taps.py): Ana closes, 12e face down.
SHOWN = {
    0: "11c 11e 11b 5o 6o 7o 3c",
    1: "5b 5c 5e 4o 12o 2c 1c",
    2: "2e 3b 6c 7b 10e 12c 12b",
    3: "1o 2o 3o 1e 4b 7c 10o",
}
DISCARD = "12e"
POINTS = [3, 13, 46, 12]
#: Headers werkzeug's server adds outside the WSGI app.
SERVER_HEADERS = len(f"Server: {WSGIRequestHandler.server_version} {WSGIRequestHandler.sys_version}\r\n") + len(
    f"Date: {formatdate(usegmt=True)}\r\n"
)


@dataclass(frozen=True)
class Exchange:
    method: str
    path: str
    status: int
    up: int  # request line, headers and body
    down: int  # status line, headers and body as sent
    raw: int  # the body decoded
    encoding: str
    worker: bool  # the service worker's: its script checked, a page kept


def decoded(body: bytes, encoding: str) -> int:
    if encoding == "gzip":
        return len(gzip.decompress(body))
    if encoding == "deflate":
        return len(zlib.decompress(body))
    if encoding == "br":
        import brotli  # Flask-Compress's own dependency

        return len(brotli.decompress(body))
    return len(body)


class Meter:
    """WSGI middleware: every exchange with its bytes both ways."""

    def __init__(self, app) -> None:
        self.app = app
        self.log: list[Exchange] = []
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        seen = {}

        def metered_start(status, headers, exc_info=None):
            seen["status"], seen["headers"] = status, headers
            return start_response(status, headers, exc_info)

        result = self.app(environ, metered_start)
        try:
            body = b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        path = environ["PATH_INFO"] + ("?" + environ["QUERY_STRING"] if environ.get("QUERY_STRING") else "")
        length = int(environ.get("CONTENT_LENGTH") or 0)
        asked = sum(len(k[5:]) + len(v) + 4 for k, v in environ.items() if k.startswith("HTTP_"))
        asked += sum(len(k) + len(v) + 4 for k, v in environ.items() if k in ("CONTENT_TYPE", "CONTENT_LENGTH") and v)
        headers = seen["headers"]
        encoding = next((v for k, v in headers if k.lower() == "content-encoding"), "")
        head = len(f"HTTP/1.1 {seen['status']}\r\n") + sum(len(k) + len(v) + 4 for k, v in headers) + SERVER_HEADERS + 2
        exchange = Exchange(
            environ["REQUEST_METHOD"],
            path,
            int(seen["status"][:3]),
            len(f"{environ['REQUEST_METHOD']} {path} HTTP/1.1\r\n") + asked + 2 + length,
            head + len(body),
            decoded(body, encoding),
            encoding,
            "HTTP_SERVICE_WORKER" in environ
            or (environ.get("HTTP_SEC_FETCH_MODE") == "cors" and "HTTP_HX_REQUEST" not in environ),
        )
        with self.lock:
            self.log.append(exchange)
        return [body]

    def since(self, mark: int) -> list[Exchange]:
        with self.lock:
            return self.log[mark:]


def new_table(app) -> str:
    with app.app_context(), transaction():
        return create_table(
            name="", preset="classic", overrides={}, players=NAMES, first_dealer=0, suit_style="spanish"
        ).owner_token


def settled(page: Page) -> None:
    """The worker has kept what this page asked it to keep."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_load_state("networkidle")
    time.sleep(1.5)


def tap(page: Page, selector: str) -> None:
    page.locator(selector).first.click()
    time.sleep(TAP_S)


def closers_cards_and_points(page: Page) -> None:
    for token in SHOWN[0].split():
        tap(page, f"[data-card='{token}']:visible")
    tap(page, "[data-tab='d']")
    tap(page, f"[data-card='{DISCARD}']:visible")
    for seat in (1, 2, 3):
        tap(page, f"input[name=p{seat}]")
        for digit in str(POINTS[seat]):
            page.keyboard.type(digit)
            time.sleep(KEY_S)


def every_players_cards(page: Page) -> None:
    for seat, cards in SHOWN.items():
        expect(page.locator(f"[data-tab='{seat}'] input")).to_be_checked()  # moved on by itself
        for token in cards.split():
            tap(page, f"[data-card='{token}']:visible")


def hand(page: Page, meter: Meter, base: str, token: str, enter) -> list[Exchange]:
    page.goto(f"{base}/t/{token}")
    settled(page)
    mark = len(meter.log)
    page.locator(".pick-closer a").first.click()  # "who closed?": Ana
    expect(page.locator("h1")).to_contain_text("Hand 1")
    enter(page)
    # Saved once the verdict is current, as a person reads it first.
    page.wait_for_function("() => !document.querySelector('form[data-waiting], .htmx-request')")
    expect(page.locator("#summary")).to_contain_text("✓")
    expect(page.locator("#summary")).to_contain_text("Dani 12")
    page.locator("button[name=action][value=save]").click()
    expect(page.locator(".flash")).to_contain_text("Hand 1 saved")
    assert [int(t) for t in page.locator(".score .total").all_inner_texts()] == POINTS
    settled(page)
    return [e for e in meter.since(mark) if "since=" not in e.path]  # the scoreboard's polls wait for the next hand


def kb(n: int) -> str:
    return f"{n / 1024:.1f} KB"


def report(name: str, exchanges: list[Exchange], target_requests: int, verbose: bool, token: str) -> None:
    wire = sum(e.up + e.down for e in exchanges)
    raw = sum(e.raw for e in exchanges)
    ok = len(exchanges) <= target_requests and wire <= 30 * 1024
    print(
        f"{name:<42} {len(exchanges):>4} {kb(wire):>10} {kb(raw):>10}   "
        f"≤ {target_requests} requests, ≤ 30 KB on the wire  {'ok' if ok else 'OVER'}"
    )
    worker = [e for e in exchanges if e.worker]
    print(f"{'':<4} of which the service worker's: {len(worker)} requests, {kb(sum(e.up + e.down for e in worker))}")
    if verbose:
        for e in exchanges:
            shown = e.path.replace(token, "<link>") + (" (worker)" if e.worker else "")
            print(
                f"    {e.method:4} {e.status} up {kb(e.up):>8} down {kb(e.down):>8} raw {kb(e.raw):>8}"
                f" {e.encoding or '-':>4}  {shown[:70]}"
            )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-v", "--verbose", action="store_true", help="list each exchange")
    verbose = parser.parse_args().verbose
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    tmp = Path(tempfile.mkdtemp(prefix="bench-hand-wire-"))
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'hand.sqlite'}", "SECRET_KEY": "hand-wire"})
    with app.app_context():
        db.create_all()
    meter = Meter(app.wsgi_app)
    app.wsgi_app = meter
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US", device_scale_factor=1)
        page = context.new_page()
        print(f"A 4-player hand at {TAP_S} s a tap, Chromium 390×844, English; from the tap on the closer to the")
        print("scoreboard after saving (and what its worker keeps).  Wire: both ways, as sent; raw: bodies decoded.")
        print(f"{'':<42} {'req':>4} {'wire':>10} {'raw':>10}   target")
        for name, enter, target in (
            ("(a) closer's 7 + discard, 3 points typed", closers_cards_and_points, 12),
            ("(b) every player's 7 cards", every_players_cards, 20),
        ):
            token = new_table(app)
            report(name, hand(page, meter, base, token, enter), target, verbose, token)
        print("\nThe pages themselves, as this browser gets them:")
        token = new_table(app)
        for name, path in (("hand page (4 players)", f"/t/{token}/hands/new"), ("close checker", "/referee/close")):
            mark = len(meter.log)
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            got = next(e for e in meter.since(mark) if e.method == "GET" and e.path == path)
            encoding = got.encoding or "uncompressed"
            print(f"  {name:<24} raw {kb(got.raw):>9}  on the wire {kb(got.down):>9} ({encoding})  raw target ≤ 40 KB")
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
