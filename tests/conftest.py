from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket

from companion import create_app
from companion.extensions import db


def _share_url_builders() -> None:
    """Every test makes its own app, and Werkzeug compiles each route's URL
    builder anew for each (Python source through ``ast``: 28 of the 34 ms an
    app took).  The builder depends only on the rule's text, its parts and
    defaults, and is bound to its rule when called, so one per rule serves
    every app of the test process."""
    from werkzeug.routing.rules import Rule

    compile_builder = Rule._compile_builder
    builders: dict[tuple, object] = {}

    def shared(self: Rule, append_unknown: bool = True):
        key = (self.rule, tuple(self._trace), repr(sorted((self.defaults or {}).items())), append_unknown)
        if key not in builders:
            builders[key] = compile_builder(self, append_unknown)
        return builders[key]

    Rule._compile_builder = shared


_share_url_builders()


def _brief_expert() -> None:
    """The expert built without a budget (tests of the bots) thinks 20 ms,
    as in the app's test configuration: its search still runs, on a few
    deals.  Its real budget is timed by bench/bench_expert.py, not by tests."""
    from companion.bots import expert

    expert.THINK_MS = 20.0


_brief_expert()

#: Tests run again on PostgreSQL (``scripts/run-tests.sh``, ``-m postgres``):
#: only those where the two databases behave differently.  Each entry is a
#: node id (a folder, a file, or a test with all its parameters) and why
#: it is here.  The rest of the suite touches the database only through
#: SQLAlchemy in ways both databases agree on, and runs on SQLite only.
POSTGRES_TESTS = {
    # The match record itself: conditional UPDATE row counts (version claims),
    # unique constraints raising on flush, JSON columns, rollbacks, cascades.
    "tests/services/": "every write of the record, incl. the stateful model test",
    # Alembic: real ALTER TABLE on PostgreSQL, batch (copy-and-move) mode on SQLite.
    "tests/web/test_groups.py::test_the_migration_matches_the_models": "migrations DDL",
    "tests/web/test_creation_replay.py::test_the_creation_ids_migration_keeps_every_row": "migrations DDL",
    "tests/web/test_migrations.py": "migrations DDL on a database holding matches",
    # JSON and datetime columns written and read back whole through export/import.
    "tests/web/test_groups.py::test_group_export_and_import_are_lossless": "JSON/datetime round trip",
    "tests/web/test_production.py::test_export_and_import_are_lossless": "JSON/datetime round trip",
    "tests/web/test_hints.py::test_export_keeps_the_hint_option_and_the_hints_asked": "JSON column round trip",
    # Datetime comparisons done in SQL (naive timestamps, no SQLite affinity).
    "tests/web/test_groups.py::test_purge_leaves_groups_with_recent_activity_alone": "datetime comparison in SQL",
    "tests/web/test_production.py::test_purge_removes_idle_tables_only": "datetime comparison in SQL",
    # Two requests racing: row locks and the conditional UPDATE on PostgreSQL,
    # the file lock on SQLite.
    "tests/web/test_play.py::test_three_next_posts_at_once_deal_exactly_once": "real concurrency",
    "tests/web/test_play.py::test_a_repeated_next_with_an_old_version_deals_nothing": "version claim",
    "tests/web/test_play.py::test_a_stale_move_from_a_second_phone_is_refused": "version claim",
    "tests/web/test_tables.py::test_a_stale_form_is_refused_with_a_fresh_view": "version claim",
    "tests/web/test_entry_scoreboard.py::test_restore_is_version_checked_and_not_after_a_new_hand": "version claim",
    "tests/web/test_entry_mixed.py::test_a_stale_save_keeps_the_second_phones_entry_to_save_as_the_next_hand": (
        "version claim"
    ),
    "tests/web/test_pwa.py::test_a_queued_hand_meeting_a_newer_version_gets_what_is_stored": "version claim",
    # An out-of-range integer: PostgreSQL's int4 overflows where SQLite stores anything.
    "tests/web/test_production.py::test_a_garbled_version_is_refused_not_a_server_error": "int4 bounds",
    # One-time submission ids: unique constraints per table.
    "tests/web/test_tables.py::test_a_replayed_submission_is_stored_once": "unique constraint",
    "tests/web/test_security.py::test_a_submission_id_seen_on_another_table_does_not_block_a_save": "unique constraint",
    "tests/web/test_security.py::test_a_replayed_form_is_stored_once_per_table": "unique constraint",
    "tests/web/test_creation_replay.py::test_a_creation_form_sent_again_leads_to_what_it_made": "unique index",
    # The whole record copied and restored: pg_dump in an exported snapshot, pg_restore --clean.
    "tests/web/test_backup.py": "pg_dump and pg_restore",
    # Text PostgreSQL refuses and SQLite stores: NUL bytes, strings longer
    # than their VARCHAR (random form values reach the database here).
    "tests/web/test_security.py::test_a_nul_byte_in_a_name_is_refused_and_nothing_is_stored": "NUL in text",
    "tests/web/test_security.py::test_names_are_stored_clean": "text stored as typed",
    "tests/web/test_production.py::test_forms_survive_fuzzing_and_store_nothing": "NUL and VARCHAR lengths",
    "tests/web/test_production.py::test_new_table_form_survives_fuzzing": "NUL and VARCHAR lengths",
}


def _worker_database_url() -> str | None:
    """``TEST_DATABASE_URL`` for this process: with pytest-xdist every worker
    gets its own PostgreSQL database (``companion`` → ``companion_gw0``),
    created here, so that no two workers drop each other's tables."""
    url = os.environ.get("TEST_DATABASE_URL")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker or not url.startswith("postgresql"):
        return url
    from sqlalchemy import create_engine, make_url, text

    base = make_url(url)
    name = f"{base.database}_{worker}"
    if os.environ.get("_TEST_DATABASE_WORKER") == name:
        return url  # already switched (a re-imported conftest)
    engine = create_engine(base, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        if connection.scalar(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}) is None:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    os.environ["_TEST_DATABASE_WORKER"] = name
    return base.set(database=name).render_as_string(hide_password=False)


def pytest_configure(config):
    url = _worker_database_url()
    if url:
        # Tests that read the variable themselves (the schemathesis app) see the worker's database too.
        os.environ["TEST_DATABASE_URL"] = url


def _names(key: str, nodeid: str) -> bool:
    """A folder or file names everything in it; a test names itself and its parameters."""
    if key.endswith(("/", ".py")):
        return nodeid.startswith(key)
    return nodeid == key or nodeid.startswith(key + "[")


def pytest_collection_modifyitems(config, items):
    matched = dict.fromkeys(POSTGRES_TESTS, 0)
    files = set()
    for item in items:
        nodeid = item.nodeid
        files.add(nodeid.split("::", 1)[0])
        for key in POSTGRES_TESTS:
            if _names(key, nodeid):
                item.add_marker(pytest.mark.postgres)
                matched[key] += 1
    # The PostgreSQL run selects by this list: a test renamed or gone must not
    # silently drop out of it.
    if "postgres" in (config.option.markexpr or ""):
        missing = [p for p, n in matched.items() if not n and p.split("::", 1)[0] in files]
        if missing:
            raise pytest.UsageError("POSTGRES_TESTS names tests that do not exist: " + ", ".join(missing))


class CompiledTemplates(BytecodeCache):
    """Templates compiled once per test process for all the apps it makes:
    each app has its own Jinja environment, which compiles every template it
    renders again (compiling took more of the suite's time than rendering).
    Jinja checks each copy against the template's source."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if (code := self.code.get(bucket.key)) is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


@pytest.fixture(scope="session")
def compiled_templates() -> CompiledTemplates:
    return CompiledTemplates()


@pytest.fixture(scope="session")
def sqlite_schema(tmp_path_factory) -> Path:
    """An empty SQLite database with every table, made once per test process:
    each test starts from a copy of it (copying the file takes well under a
    millisecond; ``create_all`` and ``drop_all`` took a fifth of a second)."""
    path = tmp_path_factory.mktemp("schema") / "schema.sqlite"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        db.create_all()
        db.engine.dispose()  # the last connection closed: the WAL is folded into the file
    assert not path.with_name(path.name + "-wal").exists()
    return path


@pytest.fixture
def app(sqlite_schema, compiled_templates, tmp_path):
    """The app on a fresh database: this test's own copy of the empty SQLite
    schema, or (``TEST_DATABASE_URL``, e.g. this worker's PostgreSQL
    database) a shared one, its tables created now and dropped after the test."""
    url = os.environ.get("TEST_DATABASE_URL")
    shared = bool(url)
    if not shared:
        path = tmp_path / "test.sqlite"
        shutil.copyfile(sqlite_schema, path)
        url = f"sqlite:///{path}"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "WTF_CSRF_ENABLED": True, "SECRET_KEY": "test"})
    app.jinja_env.bytecode_cache = compiled_templates
    if shared:
        with app.app_context():
            db.drop_all()
            db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
        if shared:
            db.drop_all()
        db.engine.dispose()


@pytest.fixture
def client(app):
    client = app.test_client()
    client.set_cookie("lang", "en")  # tests read English; i18n tests pick their own
    return client


@pytest.fixture
def client_without_language(app):
    return app.test_client()


@pytest.fixture(scope="session")
def redis_server():
    """A private Redis for this test process (no persistence), or a skip."""
    import socket
    import subprocess
    import time

    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (make test installs it)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    import redis

    client = redis.Redis(port=port)
    deadline = time.monotonic() + 20
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}"
    client.close()
    server.terminate()
    server.wait(timeout=20)
