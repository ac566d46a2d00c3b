"""Unchanged scoreboard polls a second, and the server's CPU per poll.

    python bench/bench_polls.py [--database postgres|sqlite] [--seconds 10] [--tables 64]

Starts the production recipe on this machine: gunicorn (``-w 8 -k gthread
--threads 2``) on PostgreSQL (the local cluster, as the test run starts it)
with a private Redis (``REDIS_URL``), creates tables with a few hands each,
then polls them as phones do (``GET /t/<link>?since=<version>``, keep-alive)
with ApacheBench, one ``ab`` per table in turn, 16 connections in all.  Two
rounds: the poll as the pages send it (answered by ``web/polls.py`` before
Flask), and the same poll with an extra query parameter, which the shortcut
passes on to the app (what every poll cost before it).  Prints polls/s, the
latency percentiles and the CPU milliseconds per poll of gunicorn, Redis and
PostgreSQL (from /proc).  Needs ``ab`` (``apt-get install apache2-utils``).
Traffic stays on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BIN = Path(sys.executable).parent
PG_URL = "postgresql://companion:companion@127.0.0.1:5432/companion_bench"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of these processes and their children so far."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        for p in [pid, *children(pid)]:
            try:
                fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])
    return total / tick


def children(pid: int) -> list[int]:
    try:
        found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    out = [int(c) for c in found]
    for c in list(out):
        out += children(c)
    return out


def postgres_pids() -> list[int]:
    out = subprocess.run(["pgrep", "-u", "postgres"], capture_output=True, text=True).stdout.split()
    return [int(p) for p in out]


def start_postgres() -> str:
    subprocess.run(["bash", "-c", "source scripts/postgres.sh && start_postgres"], cwd=ROOT, check=True)
    subprocess.run(
        ["su", "postgres", "-c", "dropdb --if-exists companion_bench && createdb -O companion companion_bench"],
        check=True,
    )
    return PG_URL


def setup_tables(env: dict, count: int) -> list[str]:
    """Four-player tables, made through the services (not the forms,
    whose write limit would count the set-up); returns their read-only links."""
    code = f"""
import os
from companion import create_app
from companion.services.hands import store_hand
from companion.services.tables import create_table
from companion.services.unit import transaction
app = create_app()
with app.app_context():
    for i in range({count}):
        with transaction():
            t = create_table(name=f"Mesa {{i}}", preset="classic", overrides={{}},
                             players=["Ana", "Ben", "Carla", "Dani"], first_dealer=0, suit_style="spanish")
        print(t.watch_token, t.owner_token)
"""
    out = subprocess.run([BIN / "python", "-c", code], env=env, capture_output=True, text=True, check=True)
    return [line.split()[0] for line in out.stdout.split("\n") if line.strip()]


def round_of(name: str, urls: list[str], seconds: float, concurrency: int, pids: dict[str, list[int]]) -> None:
    """``len(urls)`` ab processes at once (one table each), ``concurrency`` connections in all."""
    per = max(1, concurrency // len(urls))
    before = {k: cpu_seconds(v) for k, v in pids.items()}
    t0 = time.perf_counter()
    procs = [
        subprocess.Popen(
            ["ab", "-q", "-k", "-c", str(per), "-t", str(seconds), "-n", "10000000", url],
            stdout=subprocess.PIPE,
            text=True,
        )
        for url in urls
    ]
    outs = [p.communicate()[0] for p in procs]
    elapsed = time.perf_counter() - t0
    after = {k: cpu_seconds(v) for k, v in pids.items()}
    total = failed = non2xx = 0
    p95 = []
    for out in outs:
        total += int(re.search(r"Complete requests:\s+(\d+)", out).group(1))
        failed += int(re.search(r"Failed requests:\s+(\d+)", out).group(1))
        m = re.search(r"Non-2xx responses:\s+(\d+)", out)
        non2xx += int(m.group(1)) if m else 0
        m = re.search(r"^\s+95%\s+(\d+)", out, re.M)
        p95.append(int(m.group(1)) if m else -1)
    cpu = {k: (after[k] - before[k]) * 1000 / max(total, 1) for k in pids}
    print(
        f"{name:<34} {total / elapsed:>8.0f} polls/s   p95 {max(p95):>3} ms   "
        + "   ".join(f"{k} {v:.3f} ms" for k, v in cpu.items())
        + f"   (failed {failed}, non-2xx {non2xx})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=["postgres", "sqlite"], default="postgres")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--clients", type=int, default=4, help="ab processes at once (tables polled at a time)")
    parser.add_argument("--gunicorn", default="-w 8 -k gthread --threads 2 --keep-alive 30", help="the workers")
    parser.add_argument("--no-redis", action="store_true", help="versions read from the database on every poll")
    args = parser.parse_args()
    if shutil.which("ab") is None:
        sys.exit("needs ab: apt-get install apache2-utils")
    tmp = Path(tempfile.mkdtemp(prefix="bench-polls-"))
    redis_port, web_port = free_port(), free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    url = start_postgres() if args.database == "postgres" else f"sqlite:///{tmp / 'bench.sqlite'}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SECRET_KEY": "bench",
        "REDIS_URL": "" if args.no_redis else f"redis://127.0.0.1:{redis_port}",
        "LOG_LEVEL": "WARNING",
    }
    subprocess.run([BIN / "flask", "--app", "companion", "init-db"], env=env, check=True, capture_output=True)
    links = setup_tables(env, args.tables)
    web = subprocess.Popen(
        [
            BIN / "gunicorn",
            *args.gunicorn.split(),
            *("-b", f"127.0.0.1:{web_port}", "--logger-class", "companion.web.gunicorn_logger.RedactingLogger"),
            "companion:create_app()",
        ],
        env=env,
        cwd=tmp,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{web_port}"
        wait_for(f"{base}/healthz")
        polls = []
        for link in links:
            with urllib.request.urlopen(f"{base}/t/{link}") as page:
                since = re.search(r"since=(\d+)", page.read().decode()).group(1)
            polls.append(f"{base}/t/{link}?since={since}")
        pids = {"gunicorn": [web.pid], "redis": [redis.pid]}
        if args.database == "postgres":
            pids["postgres"] = postgres_pids()
        print(
            f"{args.tables} tables, {args.database}{'' if args.no_redis else ' + Redis'}, gunicorn {args.gunicorn}, "
            f"{args.concurrency} keep-alive connections, {args.seconds:.0f} s a round, {os.cpu_count()} cores"
        )
        for _ in range(2):  # warm: every link cached once, every worker's pool open
            round_of("warm-up", polls[: args.clients], 1, args.concurrency, pids)
        chosen = [polls[i % len(polls)] for i in range(args.clients)]
        round_of("unchanged poll (shortcut)", chosen, args.seconds, args.concurrency, pids)
        round_of("unchanged poll through Flask", [p + "&via=app" for p in chosen], args.seconds, args.concurrency, pids)
    finally:
        web.terminate()
        redis.terminate()
        web.wait(timeout=20)
        redis.wait(timeout=20)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
