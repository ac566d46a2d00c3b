from __future__ import annotations

import os

import pytest

from companion import create_app
from companion.extensions import db


@pytest.fixture
def app(tmp_path):
    url = os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'test.sqlite'}"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "WTF_CSRF_ENABLED": True, "SECRET_KEY": "test"})
    with app.app_context():
        db.drop_all()
        db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
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
