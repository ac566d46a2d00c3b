"""The services run without HTTP: every test gets the suite's fresh database
(``tests/conftest.py``: SQLite, or this worker's PostgreSQL database) with an
app context pushed, as a view's request would have."""

from __future__ import annotations

import pytest


@pytest.fixture
def app(app):
    with app.app_context():
        yield app
