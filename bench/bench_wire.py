"""Bytes on the wire: each page as a phone receives it, and a cold first visit.

    python bench/bench_wire.py

The app runs on a local port behind a counter of the bytes it sends (status
line, headers and body, after compression), so every request counts: the
page's, the service worker's and its precache.  Chromium (Debian's, at
390×844) opens a 4-player table's scoreboard with an empty cache and waits
until the service worker has installed and kept what it keeps; then each
page is asked for again as the phone asks (``Accept-Encoding: br, gzip``).
Prints each request of the cold visit, the totals, and the targets (page
≤ 12 KB on the wire, cold scoreboard ≤ 60 KB).
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion import create_app  # noqa: E402
from companion.extensions import db  # noqa: E402

PHONE = {"Accept-Encoding": "br, gzip", "Accept-Language": "es-ES,es;q=0.9"}


class Counter:
    """WSGI middleware: the bytes of every answer, by request."""

    def __init__(self, app) -> None:
        self.app = app
        self.sent: list[tuple[str, int, int, str]] = []  # path, status, bytes, encoding
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        seen = {}

        def counting_start(status, headers, exc_info=None):
            seen["status"], seen["head"] = (
                status,
                len(f"HTTP/1.1 {status}\r\n") + sum(len(k) + len(v) + 4 for k, v in headers),
            )
            seen["encoding"] = dict((k.lower(), v) for k, v in headers).get("content-encoding", "")
            return start_response(status, headers, exc_info)

        body = 0
        for chunk in self.app(environ, counting_start):
            body += len(chunk)
            yield chunk
        path = environ["PATH_INFO"] + ("?" + environ["QUERY_STRING"] if environ.get("QUERY_STRING") else "")
        with self.lock:
            self.sent.append((path, int(seen["status"][:3]), seen["head"] + body + 2, seen["encoding"]))


def table(base: str, client) -> str:
    from tests.web.helpers import create_table, enter_points

    token = create_table(client, ["Ana", "Ben", "Carla", "Dani"])
    enter_points(client, token, 0, {0: 3, 1: 12, 2: 25, 3: 7})
    enter_points(client, token, 1, {0: 14, 1: -10, 2: 9, 3: 30})
    return token


def main() -> None:
    import logging

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    tmp = Path(tempfile.mkdtemp(prefix="bench-wire-"))
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'wire.sqlite'}", "SECRET_KEY": "wire"})
    with app.app_context():
        db.create_all()
    token = table("", app.test_client())
    counter = Counter(app.wsgi_app)
    app.wsgi_app = counter
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES")
        page = context.new_page()
        page.goto(f"{base}/t/{token}")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        time.sleep(3)  # whatever the worker fetches once it is active
        cold = list(counter.sent)
        browser.close()
    print("cold first visit of a scoreboard (page, its files, the service worker and what it keeps):")
    for path, status, size, encoding in cold:
        shown = path.replace(token, "<link>")
        print(f"  {status} {size / 1024:6.1f} KB {encoding or '-':>4}  {shown[:80]}")
    total = sum(size for *_x, size, _e in cold)
    print(f"  total {total / 1024:.1f} KB in {len(cold)} requests (target ≤ 60 KB)")

    client = app.test_client()
    print("\neach page as a phone gets it (Accept-Encoding: br, gzip):")
    print(f"  {'page':<34} {'raw':>9} {'on the wire':>12}   target")
    for name, path in (
        ("scoreboard", f"/t/{token}"),
        ("hand entry (4 players)", f"/t/{token}/hands/new"),
        ("close checker", "/referee/close"),
        ("lay-off referee", "/referee/layoffs"),
        ("history", f"/t/{token}/history"),
        ("new table", "/tables/new"),
    ):
        raw = len(client.get(path, headers={"Accept-Language": "es"}).data)
        before = len(counter.sent)
        request = urllib.request.Request(base + path, headers=PHONE)
        with urllib.request.urlopen(request) as response:
            response.read()
        while len(counter.sent) == before:  # counted once the server has sent the last byte
            time.sleep(0.01)
        wire = counter.sent[before][2]
        target = "≤ 12 KB" if name in ("scoreboard", "hand entry (4 players)", "close checker") else ""
        print(f"  {name:<34} {raw / 1024:7.1f} KB {wire / 1024:9.1f} KB   {target}")
    server.shutdown()


if __name__ == "__main__":
    main()
