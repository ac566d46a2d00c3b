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
#: The longest browser tests (20–60 s each on two cores), longest first: they
#: start first, so that no worker is left running one of them alone at the end
#: (scripts/run-tests.sh hands out one test at a time: ``--dist load
#: --maxschedchunk 1``).  The other tests follow in their usual order.
LONGEST_FIRST = (
    "test_tapped_hand.py::test_hand_entry_saves_the_tapped_cards",
    "test_play_match.py::test_a_whole_match_on_three_phones",
    "test_tapped_hand.py::test_layoff_referee_judges_the_tapped_cards",
    "test_tournament_flow.py::test_a_tournament_in_the_app_on_one_phone_per_table",
    "test_tournament_full.py::test_a_10_player_tournament_of_three_rounds_on_points",
    "test_tournament_full.py::test_a_12_player_knockout_from_the_form_to_the_final_table",
    "test_groups_flow.py::test_a_group_evening",
    "test_table_flow.py::test_a_four_player_evening",
    "test_tapped_hand.py::test_close_checker_judges_the_tapped_cards",
    "test_offline.py::test_an_evening_without_signal",
    "test_play_flow.py::test_a_hand_on_two_devices_never_shows_the_other_hand",
    "test_accessibility.py::test_main_pages_have_no_serious_violations",
    "test_tapped_hand.py::test_hand_entry_and_layoff_referee_without_javascript",
    "test_groups_accessibility.py::test_group_pages_have_no_serious_violations",
    "test_offline.py::test_the_worker_fetches_hand_entry_once_per_version_of_the_table",
)


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)
            if not os.path.exists(CHROMIUM):
                item.add_marker(pytest.mark.skip(reason="Debian's chromium is not installed (make test installs it)"))
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(f"{item.path.name}::{item.originalname}", len(rank)))


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
    """A phone set to reduce motion: the pages are the same without their
    entrances (a move's highlight, a card drawn rising into the hand), which
    a browser without a GPU paints frame by frame, and a tap on a moving card
    waits until it stands still."""
    return {
        "viewport": {"width": 390, "height": 844},
        "locale": "en-US",
        "device_scale_factor": 1,
        "reduced_motion": "reduce",
    }


def read_whole(app):
    """Each answer read whole, and closed, before the server writes it.
    Werkzeug's development server closes an answer (a static file's) only
    after reading what is left on the socket, and when the browser has
    dropped the connection (a page left while its icon loads) that read
    fails first: the file stays open, and its ResourceWarning fails
    whichever test runs next.  No answer of the app streams."""

    def wsgi(environ, start_response):
        body = app(environ, start_response)
        try:
            return [b"".join(body)]
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()

    return wsgi


@pytest.fixture
def live_server(request, sqlite_schema, compiled_templates, tmp_path):
    """The app on a free local port with its own SQLite database (a copy of
    the empty schema) and the worker's compiled templates (tests/conftest.py).
    Digital deals are replayable: seeded by the test's ``play_seed`` marker,
    else ``CHINCHON_PLAY_SEED``, else "e2e"."""
    marker = request.node.get_closest_marker("play_seed")
    seed = marker.args[0] if marker else os.environ.get("CHINCHON_PLAY_SEED", "e2e")
    database = tmp_path / "e2e.sqlite"
    shutil.copyfile(sqlite_schema, database)
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "SECRET_KEY": "e2e",
            "PLAY_SEED": seed,
        }
    )
    app.jinja_env.bytecode_cache = compiled_templates
    server = make_server("127.0.0.1", 0, read_whole(app), threaded=True)
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
