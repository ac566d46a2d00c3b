"""An unchanged scoreboard poll is answered before Flask (web/polls.py), from
the database or from Redis, and never says "unchanged" about a changed table."""

from __future__ import annotations

import re

import pytest
import redis as redis_lib

from companion import create_app
from companion.app import HEADERS
from companion.extensions import db
from companion.web import polls

from .helpers import create_table, enter_points, field, table_of
from .test_groups import create_group


def version_on_page(client, token: str) -> int:
    html = client.get(f"/t/{token}").get_data(as_text=True)
    return int(re.search(r"since=(\d+)", html).group(1))


def flask_requests(app) -> list[str]:
    """The requests the shortcut passed on to the app."""
    seen: list[str] = []
    shortcut = app.wsgi_app
    assert isinstance(shortcut, polls.PollShortcut)
    inner = shortcut.app

    def recorder(environ, start_response):
        query = environ.get("QUERY_STRING")
        seen.append(environ["PATH_INFO"] + (f"?{query}" if query else ""))
        return inner(environ, start_response)

    shortcut.app = recorder
    return seen


@pytest.fixture
def redis_app(tmp_path, redis_server):
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'polls.sqlite'}",
            "REDIS_URL": redis_server,
            "SECRET_KEY": "test",
        }
    )
    with app.app_context():
        db.create_all()
    app.extensions["versions"].redis.flushdb()
    yield app
    with app.app_context():
        db.engine.dispose()


def test_an_unchanged_poll_never_reaches_flask_and_carries_every_header(app, client):
    token = create_table(client, ["Ana", "Ben"])
    version = version_on_page(client, token)
    seen = flask_requests(app)
    response = client.get(f"/t/{token}?since={version}", headers={"X-Request-ID": "phone-7"})
    assert response.status_code == 204 and response.data == b""
    assert seen == []
    assert response.headers["Cache-Control"] == "no-store"
    for name, value in HEADERS:
        assert response.headers[name] == value
    assert response.headers["X-Request-ID"] == "phone-7"
    assert "Strict-Transport-Security" not in response.headers
    secure = client.get(f"/t/{token}?since={version}", base_url="https://localhost")
    assert secure.status_code == 204 and "Strict-Transport-Security" in secure.headers


def test_a_poll_after_a_save_gets_the_new_scoreboard_then_204_again(app, client):
    token = create_table(client, ["Ana", "Ben"])
    watch = table_of(app, token).watch_token
    before = version_on_page(client, watch)
    enter_points(client, token, 0, {0: 3, 1: 12})
    changed = client.get(f"/t/{watch}?since={before}")
    assert changed.status_code == 200 and ">12<" in changed.get_data(as_text=True)
    after = version_on_page(client, watch)
    assert after > before
    assert client.get(f"/t/{watch}?since={after}").status_code == 204


@pytest.mark.parametrize(
    "query", ["since=1&x=1", "since=", "since=-1", "since=99999999999", "since=1%00", "x=1&since=1"]
)
def test_any_other_query_goes_to_the_app_as_before(app, client, query):
    token = create_table(client, ["Ana", "Ben"])
    seen = flask_requests(app)
    response = client.get(f"/t/{token}?{query}")
    assert seen, query  # the app answered, not the shortcut
    assert response.status_code in (200, 204, 400)


def test_unknown_links_group_links_and_writes_are_not_answered_by_the_shortcut(app, client):
    seen = flask_requests(app)
    assert client.get("/t/NoSuchLinkAtAll123?since=1").status_code == 404
    group = create_group(client)
    assert client.get(f"/t/{group}?since=1").status_code == 404
    token = create_table(client, ["Ana", "Ben"])
    version = version_on_page(client, token)
    assert client.post(f"/t/{token}?since={version}").status_code == 405
    assert [p for p in seen if "since" in p] == [
        "/t/NoSuchLinkAtAll123?since=1",
        f"/t/{group}?since=1",
        f"/t/{token}?since={version}",
    ]


def test_with_redis_a_poll_is_answered_from_the_cache(redis_app):
    client = redis_app.test_client()
    token = create_table(client, ["Ana", "Ben"])
    version = version_on_page(client, token)
    versions = redis_app.extensions["versions"]
    assert client.get(f"/t/{token}?since={version}").status_code == 204
    assert int(versions.redis.get(polls.key(token))) == version
    assert token.encode() not in b"".join(versions.redis.keys("*"))  # the secret itself is never a key
    # Answered from Redis alone: the database is not asked again.
    reads = []
    original = versions._read
    versions._read = lambda t: reads.append(t) or original(t)
    assert client.get(f"/t/{token}?since={version}").status_code == 204
    assert reads == []


def test_with_redis_every_link_of_a_table_is_raised_by_a_save(redis_app):
    client = redis_app.test_client()
    token = create_table(client, ["Ana", "Ben"])
    table = table_of(redis_app, token)
    links = [table.owner_token, table.player_token, table.watch_token]
    before = version_on_page(client, token)
    for link in links:
        assert client.get(f"/t/{link}?since={before}").status_code == 204  # all three cached
    enter_points(client, table.player_token, 0, {0: 3, 1: 7})
    for link in links:
        assert client.get(f"/t/{link}?since={before}").status_code == 200, link
        assert client.get(f"/t/{link}?since={before + 1}").status_code == 204, link


def test_with_redis_a_refused_write_changes_nothing_in_the_cache(redis_app):
    client = redis_app.test_client()
    token = create_table(client, ["Ana", "Ben"])
    version = version_on_page(client, token)
    client.get(f"/t/{token}?since={version}")
    stale = {"csrf_token": field(client.get(f"/t/{token}/hands/new").get_data(as_text=True), "csrf_token")}
    enter_points(client, token, 0, {0: 3, 1: 7})
    stale.update(
        {"version": str(version), "submission": "0" * 32, "closer": "0", "mode": "points", "p0": "3", "p1": "9"}
    )
    stale["action"] = "save"
    assert client.post(f"/t/{token}/hands/new", data=stale).status_code == 409
    redis = redis_app.extensions["versions"].redis
    assert int(redis.get(polls.key(token))) == version + 1


def test_with_redis_a_deleted_table_is_dropped_from_the_cache(redis_app):
    client = redis_app.test_client()
    token = create_table(client, ["Ana", "Ben"])
    version = version_on_page(client, token)
    assert client.get(f"/t/{token}?since={version}").status_code == 204
    html = client.get(f"/t/{token}/settings").get_data(as_text=True)
    response = client.post(f"/t/{token}/delete", data={"csrf_token": field(html, "csrf_token"), "confirm": "delete"})
    assert response.status_code in (302, 303)
    assert redis_app.extensions["versions"].redis.get(polls.key(token)) is None
    assert client.get(f"/t/{token}?since={version}").status_code == 404


def test_a_late_reader_never_lowers_a_cached_version(redis_app):
    versions = redis_app.extensions["versions"]
    versions.publish({"SomeLinkToken123": 7})
    versions.publish({"SomeLinkToken123": 5})  # a poll that read the database before the save committed
    assert int(versions.redis.get(polls.key("SomeLinkToken123"))) == 7
    assert 0 < versions.redis.ttl(polls.key("SomeLinkToken123")) <= polls.TTL


def test_with_redis_away_polls_read_the_database(tmp_path, caplog):
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'away.sqlite'}",
            "REDIS_URL": "redis://127.0.0.1:1",  # nothing listens there
            "SECRET_KEY": "test",
        }
    )
    with app.app_context():
        db.create_all()
    client = app.test_client()
    token = create_table(client, ["Ana", "Ben"])  # the commit's cache update fails quietly
    version = version_on_page(client, token)
    assert client.get(f"/t/{token}?since={version}").status_code == 204
    enter_points(client, token, 0, {0: 3, 1: 7})
    assert client.get(f"/t/{token}?since={version}").status_code == 200
    assert isinstance(app.extensions["versions"].redis, redis_lib.Redis)
    with app.app_context():
        db.engine.dispose()


def test_a_database_error_in_the_shortcut_is_the_apps_to_answer(app, client):
    token = create_table(client, ["Ana", "Ben"])
    version = version_on_page(client, token)
    seen = flask_requests(app)

    def broken(_token):
        raise RuntimeError("the database is away")

    app.extensions["versions"]._read = broken
    response = client.get(f"/t/{token}?since={version}")
    assert seen == [f"/t/{token}?since={version}"]  # passed on, not a bare 500 from the middleware
    assert response.status_code == 204  # the app read it itself


def test_a_redis_blip_is_said_once_and_serves_no_stale_version_after(redis_app, caplog, monkeypatch):
    """Found under faults (#37): while Redis was away every poll logged a
    traceback; and a save made meanwhile could not raise its version there,
    so after the blip a poll kept getting 204 from the old one for up to 30 s."""
    client = redis_app.test_client()
    token = create_table(client, ["Ana", "Ben"])
    version = version_on_page(client, token)
    assert client.get(f"/t/{token}?since={version}").status_code == 204  # cached in Redis
    versions = redis_app.extensions["versions"]
    real = versions.redis

    class Away:
        def __getattr__(self, _name):
            raise redis_lib.ConnectionError("Error 111 connecting to 127.0.0.1. Connection refused.")

    with caplog.at_level("INFO", logger="companion.web.polls"):
        monkeypatch.setattr(versions, "redis", Away())
        enter_points(client, token, 0, {0: 3, 1: 7})  # its new version cannot reach Redis
        for _ in range(3):
            assert client.get(f"/t/{token}?since={version}").status_code == 200  # read from the database
        monkeypatch.setattr(versions, "redis", real)  # back, still holding the old version
        assert int(real.get(polls.key(token))) == version
        assert client.get(f"/t/{token}?since={version}").status_code == 200  # not 204 from the stale cache
        assert client.get(f"/t/{token}?since={version + 1}").status_code == 204
    said = [r.getMessage() for r in caplog.records if r.name == "companion.web.polls"]
    assert len(said) == 2 and "unreachable" in said[0] and "reachable again" in said[1], said
