"""The suite's own fixtures (tests/conftest.py): a fresh database and the
same pages for every test, however little each one costs."""

from __future__ import annotations

import os
import re
import sqlite3
from contextlib import closing

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import func, select

from companion import create_app
from companion.extensions import db
from companion.services.tables import create_table
from companion.services.unit import transaction


@pytest.mark.skipif(bool(os.environ.get("TEST_DATABASE_URL")), reason="the SQLite copy of the schema")
def test_each_test_gets_its_own_copy_of_the_empty_schema(app, sqlite_schema):
    with app.app_context():
        assert db.engine.url.database != str(sqlite_schema)
        with db.engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []
        assert all(db.session.scalar(select(func.count()).select_from(t)) == 0 for t in db.metadata.sorted_tables)
        with transaction():
            create_table(
                name="", preset="classic", overrides={}, players=["Ana", "Ben"], first_dealer=0, suit_style="spanish"
            )
    with closing(sqlite3.connect(sqlite_schema)) as schema:
        assert schema.execute("SELECT count(*) FROM game_tables").fetchone() == (0,)


def test_a_second_app_renders_the_same_pages_without_compiling_a_template(app, client, compiled_templates):
    pages = ["/", "/tables/new", "/referee/close?cards=11c+11e+11b+5o+6o+7o+3c+12e", "/offline"]
    first = [client.get(page) for page in pages]
    other = create_app(dict(app.config))
    other.jinja_env.bytecode_cache = compiled_templates

    def compile_again(*args, **kwargs):
        raise AssertionError("a template was compiled again")

    other.jinja_env.compile = compile_again
    again = other.test_client()
    again.set_cookie("lang", "en")
    second = [again.get(page) for page in pages]
    with other.app_context():
        db.engine.dispose()
    assert [r.status_code for r in first] == [r.status_code for r in second] == [200] * len(pages)
    assert [without_secrets(r.text) for r in second] == [without_secrets(r.text) for r in first]


def without_secrets(html: str) -> str:
    """The page less its CSRF token (each session has its own), wherever it
    appears, and its forms' one-time submission ids (each drawing has its own)."""
    token = re.search(r'"X-CSRFToken": "([^"]+)"', html)
    html = html.replace(token.group(1), "") if token else html
    return re.sub(r'(name="submission" type="hidden" value=")[0-9a-f]{32}"', r'\1"', html)
