"""Faults survived (issue #37): whatever fails around a write, a stored hand
is never answered as an error, and no log line holds a secret link."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from companion.extensions import db
from companion.models import GameTable, Hand
from companion.web.client import QUEUE_HEADER, QUEUED
from tests.faults import DatabaseGone

from .helpers import create_table, hand_form


@pytest.fixture
def gone(app):
    fault = DatabaseGone(app)
    yield fault
    fault.close()


def save(client, token: str, **headers):
    data = hand_form(client, token)
    data.update({"closer": "1", "mode": "points", "p0": "10", "p1": "-10", "action": "save"})
    return client.post(f"/t/{token}/hands/new", data=data, headers=headers)


@pytest.mark.parametrize("queued", [False, True])
def test_a_hand_stored_is_never_answered_as_a_failure(client, app, gone, queued):
    """Found under faults (#37): the save committed, then reading what to say
    ("Hand N saved.", or the queue's answer) went to a database that had
    just gone, and the phone got a 500 for a hand that was stored: typed
    again in a fresh form, it would be stored twice."""
    token = create_table(client, ["Ana", "Ben"])
    gone.after_the_next_commit()
    response = save(client, token, **({QUEUE_HEADER: QUEUED} if queued else {}))
    gone.armed = False
    assert response.status_code == (200 if queued else 303)
    if queued:
        assert response.get_json() == {
            "status": "stored",
            "version": 2,
            "next_number": 2,
            "last": {"number": 1, "closer": "Ben", "points": [["Ana", 10], ["Ben", -10]]},
        }
    else:
        assert "Hand 1 saved." in client.get(response.headers["Location"]).get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Hand).count() == 1


def test_a_database_gone_at_the_end_of_a_request_fails_nothing_already_answered(client, app):
    """Found under faults (#37): with PostgreSQL stopping, the rollback that
    closes a request's session raised after the answer was made, and the
    phone got the server's bare error page instead."""
    token = create_table(client, ["Ana", "Ben"])
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as in production
    with app.app_context():
        engine = db.engine
    failed = []

    def gone(_connection) -> None:
        failed.append(True)
        raise OperationalError("ROLLBACK", {}, Exception("terminating connection due to administrator command"))

    event.listen(engine, "rollback", gone, once=True)
    try:
        response = client.get(f"/t/{token}")
    finally:
        if event.contains(engine, "rollback", gone):
            event.remove(engine, "rollback", gone)
    assert failed  # the session's last rollback, at the end of the request, failed
    assert response.status_code == 200 and "Ana" in response.get_data(as_text=True)


def test_no_log_line_holds_a_secret_link(client, app, caplog):
    """Found under faults (#37): a database error logged its statement's
    parameters, ``player_token_1`` and ``owner_token_1`` in clear."""
    token = create_table(client, ["Ana", "Ben"])
    with app.app_context():
        table = db.session.query(GameTable).one()
        secrets = [table.owner_token, table.player_token, table.watch_token]
        with (
            db.engine.begin() as connection
        ):  # the database answers, but not as the app expects: an error with the link
            connection.exec_driver_sql("ALTER TABLE game_tables RENAME TO gone_tables")
    app.config["PROPAGATE_EXCEPTIONS"] = False  # answered and logged, as in production
    with caplog.at_level(logging.DEBUG):
        response = client.get(f"/t/{token}/history")
    assert response.status_code == 503  # the database answered as if away
    written = app.logger.handlers[0].formatter  # what the app's log writes of each record
    logged = "\n".join(written.format(record) for record in caplog.records)
    assert "no such table: game_tables" in logged  # the error was logged...
    assert not [s for s in secrets if s in logged], logged  # ...without a link


def test_gunicorns_error_log_holds_a_hash_of_a_link_never_the_link(tmp_path):
    """Found under faults (#37): with PostgreSQL stopping, gunicorn logged
    "Error handling request GET /t/<the whole link>" and its traceback."""
    from gunicorn.config import Config

    from companion.web.gunicorn_logger import RedactingLogger
    from companion.web.redaction import link_hash

    config = Config()
    config.set("errorlog", str(tmp_path / "error.log"))
    config.set("accesslog", str(tmp_path / "access.log"))
    logger = RedactingLogger(config)
    token = "SecretLinkAbc123def456"
    try:
        raise RuntimeError(f"while answering /t/{token}/hands/new")
    except RuntimeError:
        logger.exception("Error handling request %s %s", "POST", f"/t/{token}/hands/new")
    logger.setup(config)  # as at a reload (SIGHUP): still redacted
    logger.error("again: /s/%s", token)
    for log in (logger.error_log, logger.access_log):
        for handler in list(log.handlers):
            handler.close()
            log.removeHandler(handler)
    text = (tmp_path / "error.log").read_text()
    assert "Error handling request POST" in text and "Traceback" in text and "again:" in text
    assert token not in text and text.count(link_hash(token)) == 3


def test_while_the_database_is_away_a_save_says_the_hand_is_kept_on_the_phone(client, app, gone):
    """During a database restart (#37) a phone got a bare error; now the app
    says in its own words that nothing was stored, marks the page for the
    phone's queue to keep the hand (offline.js), and gives a reference."""
    token = create_table(client, ["Ana", "Ben"])
    form = hand_form(client, token)
    form.update({"closer": "1", "mode": "points", "p0": "10", "p1": "-10", "action": "save"})
    gone.armed = True
    response = client.post(f"/t/{token}/hands/new", data=form)
    page = client.get(f"/t/{token}/history")
    gone.armed = False
    html = response.get_data(as_text=True)
    assert response.status_code == 503 and response.headers["Retry-After"] == "5"
    assert "The hand could not be saved: the server cannot reach its records right now. Nothing was stored." in html
    assert "data-unsaved-hand" in html
    assert f"Reference for the organizer: {response.headers['X-Request-ID']}" in html
    assert page.status_code == 503 and "data-unsaved-hand" not in page.get_data(as_text=True)
    assert "Nothing was changed; try again in a moment." in page.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Hand).count() == 0
    client.set_cookie("lang", "es_AR")
    gone.armed = True
    html = client.get(f"/t/{token}").get_data(as_text=True)
    gone.armed = False
    assert (
        "El servidor no llega a sus registros en este momento. No se cambió nada; volvé a intentarlo en un rato."
        in html
    )
    assert "Referencia para el organizador:" in html


def test_gunicorns_master_loads_nothing_of_the_app():
    """Found under faults (#37): the logger class pulled the app's models into
    gunicorn's master, so a worker forked at a reload (a new release) ran the
    old models beside the new code.  The master holds the libraries
    (gunicorn.conf.py) and the redaction, no other module of the app."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    probe = (
        "import runpy, sys; runpy.run_path('gunicorn.conf.py'); import companion.web.gunicorn_logger; "
        "print(' '.join(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=root)
    loaded = set(done.stdout.split())
    ours = {m for m in loaded if m == "companion" or m.startswith("companion.")}
    assert ours == {"companion", "companion.web", "companion.web.gunicorn_logger", "companion.web.redaction"}
    assert {"flask", "sqlalchemy", "psycopg"} <= loaded  # a worker forked at a reload starts with them


def test_gunicorns_workers_collect_garbage_less_often_than_python_by_default():
    """The club night (#41): with Python's thresholds a worker walked its
    whole heap every few seconds (100-300 ms with both threads stopped).  The
    master sets higher ones before it forks, so every worker has them; and
    no gc.freeze() (#37)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    probe = (
        "import gc, os, runpy; runpy.run_path('gunicorn.conf.py'); pid = os.fork()\n"
        "if pid == 0: print(*gc.get_threshold(), gc.get_freeze_count()); os._exit(0)\n"
        "os.waitpid(pid, 0)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=root)
    young, middle, old, frozen = map(int, done.stdout.split())
    assert young >= 10_000 and (middle, old) >= (10, 10) and frozen == 0
