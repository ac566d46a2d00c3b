"""Rate limits that protect without hurting a real table (issue #11).

- previews (the live verdict while tapping) never spend the write budget;
- a refused form comes back whole with the time to wait;
- with 4 gunicorn workers and Redis the limit holds across workers, and the
  access log carries a hash of a link, never the link;
- ``TRUST_PROXY`` trusts exactly the address its proxies appended.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion import create_app
from companion.extensions import db, limiter
from companion.models import GameTable
from companion.web.access import link_hash

from .helpers import field, hand_form


def limited_app(tmp_path, **config):
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'limits.sqlite'}",
            "RATELIMIT_ENABLED": True,
            "RATELIMIT_STORAGE_URI": "memory://",
            "RATE_LIMIT_API": "3 per minute",
            "RATE_LIMIT_WRITES": "3 per minute",
            "RATE_LIMIT_PREVIEWS": "100 per minute",
            **config,
        }
    )
    with app.app_context():
        db.create_all()
        limiter.reset()
    return app


def new_table(client, app) -> str:
    html = client.get("/tables/new").get_data(as_text=True)
    form = {"csrf_token": field(html, "csrf_token"), "players-0": "Ana", "players-1": "Ben", "preset": "classic"}
    form.update({"first_dealer": "0", "target": "100", "jokers": "0", "suit_style": "spanish"})
    assert client.post("/tables/new", data=form).status_code == 302
    with app.app_context():
        return db.session.query(GameTable).one().player_token


def test_previews_never_spend_the_write_budget(tmp_path):
    """Found at a table: each tap's preview counted as a write, so the third
    hand's save answered 429."""
    app = limited_app(tmp_path)
    client = app.test_client()
    client.set_cookie("lang", "en")
    token = new_table(client, app)  # write 1
    for number in (1, 2):
        data = hand_form(client, token)
        data.update({"closer": "1", "mode": "points", "p0": "10", "p1": "-10"})
        for _tap in range(12):
            assert client.post(f"/t/{token}/hands/new", data=data).status_code == 200
        data["action"] = "save"
        assert client.post(f"/t/{token}/hands/new", data=data).status_code == 303, number  # writes 2, 3


def test_a_refused_form_comes_back_whole_with_the_time_to_wait(tmp_path):
    app = limited_app(tmp_path)
    client = app.test_client()
    client.set_cookie("lang", "en")
    token = new_table(client, app)
    for _hand in range(3):
        data = hand_form(client, token)
        data.update({"closer": "1", "mode": "points", "p0": "10", "p1": "-10", "action": "save"})
        assert client.post(f"/t/{token}/hands/new", data=data).status_code == 303
    data = hand_form(client, token)
    data.update({"closer": "1", "mode": "points", "p0": "10", "p1": "-10", "action": "save"})
    response = client.post(f"/t/{token}/hands/new", data=data)
    assert response.status_code == 429
    wait = int(response.headers["Retry-After"])
    html = response.get_data(as_text=True)
    assert 1 <= wait <= 60 and f"wait {wait} second" in html
    assert f'value="{data["submission"]}"' in html and "Send it again" in html
    assert f'action="/t/{token}/hands/new?"' in html or f'action="/t/{token}/hands/new"' in html


def test_the_api_says_when_to_retry(tmp_path):
    app = limited_app(tmp_path)
    client = app.test_client()
    codes = [client.get("/api/v1/presets").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    response = client.get("/api/v1/presets")
    assert response.get_json()["field"] == "" and int(response.headers["Retry-After"]) >= 1


def test_trust_proxy_trusts_only_what_its_proxy_appended(tmp_path):
    """With one proxy in front, the client's own X-Forwarded-For entries are
    ignored: the address the proxy appended is the one that is limited."""
    app = limited_app(tmp_path, TRUST_PROXY=1)
    client = app.test_client()
    codes = [
        client.get("/api/v1/presets", headers={"X-Forwarded-For": f"10.0.0.{i}, 203.0.113.7"}).status_code
        for i in range(5)
    ]
    assert codes == [200, 200, 200, 429, 429]
    other = client.get("/api/v1/presets", headers={"X-Forwarded-For": "203.0.113.8"})
    assert other.status_code == 200  # another real client has its own budget


def test_without_trust_proxy_forwarded_for_is_ignored(tmp_path):
    app = limited_app(tmp_path)
    client = app.test_client()
    codes = [
        client.get("/api/v1/presets", headers={"X-Forwarded-For": f"198.51.100.{i}"}).status_code for i in range(5)
    ]
    assert codes == [200, 200, 200, 429, 429]


# -- several workers -------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:  # refused, reset or timed out while the workers start
            time.sleep(0.2)
    raise TimeoutError(url)


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.fixture
def gunicorn_with_redis(tmp_path):
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (make test installs it)")
    redis_port, web_port = free_port(), free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'workers.sqlite'}",
        "SECRET_KEY": "workers",
        "RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{redis_port}",
        "RATE_LIMIT_API": "20 per minute",
    }
    bin_dir = Path(sys.executable).parent
    subprocess.run([bin_dir / "flask", "--app", "companion", "init-db"], env=env, check=True, capture_output=True)
    log = tmp_path / "access.log"
    web = subprocess.Popen(
        [
            bin_dir / "gunicorn",
            "-w",
            "4",
            "-b",
            f"127.0.0.1:{web_port}",
            "--logger-class",
            "companion.web.gunicorn_logger.RedactingLogger",
            "--access-logfile",
            str(log),
            "companion:create_app()",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(f"http://127.0.0.1:{web_port}/healthz")
        yield f"http://127.0.0.1:{web_port}", log
    finally:
        web.terminate()
        redis.terminate()
        web.wait(timeout=20)
        redis.wait(timeout=20)


def test_the_limit_holds_across_four_workers_with_redis(gunicorn_with_redis):
    """Found under load: with the memory store each worker counted alone
    (408 calls in a minute passed a limit of 120)."""
    base, _log = gunicorn_with_redis
    codes = [status_of(f"{base}/api/v1/presets") for _ in range(60)]
    assert codes.count(200) == 20 and codes.count(429) == 40


def test_the_access_log_holds_a_hash_of_a_link_never_the_link(gunicorn_with_redis):
    base, log = gunicorn_with_redis
    token = "SecretLinkAbc123def456"
    assert status_of(f"{base}/t/{token}/history") == 404
    deadline = time.monotonic() + 10
    while link_hash(token) not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.2)
    text = log.read_text()
    assert link_hash(token) in text and token not in text
