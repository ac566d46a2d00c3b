"""Browser tests: the real app on a local port, driven in Debian's Chromium
at a phone-sized viewport.

Nothing here is shared between processes: each test's server listens on a
free port with its own SQLite file, and each pytest-xdist worker launches its
own Chromium, so the browser tests may run in parallel (``-n``;
scripts/run-tests.sh runs two workers)."""

from __future__ import annotations

import os
import shutil
import threading

import pytest
from werkzeug.serving import make_server

from companion import create_app
from companion.extensions import db

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = pytest.mark.e2e
#: base URL → the app behind it, for tests that check what the server holds.
LIVE_APPS: dict = {}


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)
            if not os.path.exists(CHROMIUM):
                item.add_marker(pytest.mark.skip(reason="Debian's chromium is not installed (make test installs it)"))


@pytest.fixture(scope="session")
def browser_type_launch_args():
    return {
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args():
    return {"viewport": {"width": 390, "height": 844}, "locale": "en-US", "device_scale_factor": 1}


@pytest.fixture
def live_server(tmp_path):
    """The app on a free local port with its own SQLite database."""
    seed = os.environ.get("CHINCHON_PLAY_SEED", "e2e")  # digital deals replayable in browser tests
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'e2e.sqlite'}",
            "SECRET_KEY": "e2e",
            "PLAY_SEED": seed,
        }
    )
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    LIVE_APPS[f"http://127.0.0.1:{server.server_port}"] = app
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(autouse=True)
def no_console_errors(request):
    """A page that logs an error (a CSP violation, a failed script) fails its test."""
    if "page" not in request.fixturenames:
        yield
        return
    page = request.getfixturevalue("page")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield
    assert not [e for e in errors if "404" not in e], errors
