"""A club night's server through its faults: what each one costs the tables.

    .venv/bin/python bench/faults.py            # 16 tables, every fault at full length
    .venv/bin/python bench/faults.py --quick    # 4 tables, each fault short (make test runs this)

The production stack of the README on this machine: PostgreSQL (the cluster
of ``scripts/postgres.sh``, a fresh database ``companion_faults``), Redis on a
private port (the rate limits' counts, on as in production, and the tables'
versions for unchanged polls) and gunicorn as the README runs it (4 gthread
workers of 2 threads here, ``gunicorn.conf.py``, the redacting logger).

Every table has a phone that saves a hand about every second and a phone
that polls the scoreboard every 2 s.  A save goes as the phone's offline
queue sends it (``X-Chinchon-Queue``, a JSON answer): the same submission id
again and again until the server answers that it is stored, so a save whose
answer was lost is sent again and must be stored once.  Meanwhile, one after
the other:

- **Redis down**: the server is killed for a while, then started again;
- **PostgreSQL restart**: ``pg_ctlcluster … restart -m fast``;
- **a worker killed**: SIGKILL to one gunicorn worker;
- **reloads**: SIGHUP to the master (a new release), several times;
- **a slow database**: another connection holds the hands table for writes.

For each fault: the requests answered while it lasted (and a few seconds
after), those sent again as a browser does when a kept-alive connection
closes under them (``DROPPED``), the errors (5xx by status, and connections
refused or dropped twice), the longest stretch saves kept failing, whether
a worker crashed, and whether anything acknowledged was lost or stored
twice: the record is read from the database at the end and compared with
every acknowledged save, in order, points included.  Exits 1 when a fault costs more than it may: any error
while Redis is down, during reloads or with the database slow; a 500 (not the
app's 503 that keeps the hand on the phone) during the restart; a worker
crashing; anything lost or doubled.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PG_ADMIN = "postgresql://companion:companion@127.0.0.1:5432/companion"
DATABASE = "companion_faults"
GUNICORN = "-w 4 -k gthread --threads 2 --keep-alive 30 --graceful-timeout 20"
NAMES = ["Ana", "Ben", "Carla", "Dani"]
CLOSER_SCORES = [-10, 1, 2, 3, 4]
#: Seconds after a fault in which its errors still count as its own.
AFTER = 3.0
#: A kept-alive connection closed under a request before any byte of the
#: answer came (a worker stopping at a reload closes its idle connections):
#: a browser sends the request again at once on a new connection, whatever
#: its method (Chromium, Firefox).  The phones here do the same, once, and the
#: table counts it apart ("resent"); a request that fails again is an error.
DROPPED = (httpx.RemoteProtocolError, httpx.ReadError)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_version() -> str:
    return sorted(os.listdir("/usr/lib/postgresql"), key=int)[-1]


# -- what happened ------------------------------------------------------------------------
@dataclass
class Answer:
    at: float
    kind: str  # "save" or "poll"
    status: int  # 0: no answer (refused, dropped, timed out)
    seconds: float


@dataclass
class Ack:
    submission: str
    number: int
    points: dict[int, int]


@dataclass
class Log:
    answers: list[Answer] = field(default_factory=list)
    acks: dict[str, list[Ack]] = field(default_factory=dict)  # by table link
    anomalies: list[str] = field(default_factory=list)
    resent: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def request(self, client: httpx.Client, method: str, url: str, **kwargs) -> httpx.Response:
        """Send as a browser does (see ``DROPPED``)."""
        try:
            return client.request(method, url, **kwargs)
        except DROPPED:
            with self.lock:
                self.resent.append(time.monotonic())
            return client.request(method, url, **kwargs)

    def add(self, kind: str, status: int, started: float, error: Exception | None = None) -> None:
        with self.lock:
            self.answers.append(Answer(started, kind, status, time.monotonic() - started))
            if error is not None:
                self.anomalies.append(f"{kind} got no answer: {type(error).__name__}: {error}")


# -- the stack ------------------------------------------------------------------------------
class Stack:
    def __init__(self, out: Path) -> None:
        self.out = out
        self.redis_port, self.port = free_port(), free_port()
        self.url = PG_ADMIN.rsplit("/", 1)[0] + "/" + DATABASE
        self.env = dict(
            os.environ,
            DATABASE_URL=self.url,
            SECRET_KEY="faults",
            REDIS_URL=f"redis://127.0.0.1:{self.redis_port}",
            LOG_LEVEL="INFO",
        )
        self.base = f"http://127.0.0.1:{self.port}"
        self.redis: subprocess.Popen | None = None
        self.gunicorn: subprocess.Popen | None = None
        self.gunicorn_log = out / "gunicorn.log"

    def database(self) -> None:
        with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
            connection.execute(f'CREATE DATABASE "{DATABASE}"')
        flask = Path(sys.executable).parent / "flask"
        subprocess.run(
            [flask, "--app", "companion", "init-db"], cwd=ROOT, env=self.env, check=True, capture_output=True
        )

    def start_redis(self) -> None:
        log = open(self.out / "redis.log", "a")  # noqa: SIM115 - kept open for the process
        args = [
            "redis-server",
            "--port",
            str(self.redis_port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ]
        self.redis = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        for _ in range(100):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.redis_port)) == 0:
                    return
            time.sleep(0.05)

    def stop_redis(self) -> None:
        if self.redis is not None:
            self.redis.kill()
            self.redis.wait(timeout=10)
            self.redis = None

    def start_gunicorn(self) -> None:
        log = open(self.gunicorn_log, "w")  # noqa: SIM115 - kept open for the process
        args = [sys.executable, "-m", "gunicorn", *GUNICORN.split(), "-b", f"127.0.0.1:{self.port}"]
        args += ["--logger-class", "companion.web.gunicorn_logger.RedactingLogger", "companion:create_app()"]
        self.gunicorn = subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise SystemExit(f"gunicorn did not start: see {self.gunicorn_log}")

    def workers(self) -> list[int]:
        assert self.gunicorn is not None
        found = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.gunicorn.pid)], capture_output=True, text=True)
        return [int(p) for p in found.stdout.split()]

    def stop(self) -> None:
        if self.gunicorn is not None:
            self.gunicorn.send_signal(signal.SIGTERM)
            try:
                self.gunicorn.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.gunicorn.kill()
        self.stop_redis()

    def crashes(self) -> list[str]:
        """Workers that died of a signal of their own (not the SIGKILL the bench sent)."""
        text = self.gunicorn_log.read_text(errors="replace")
        return re.findall(r".*(?:SIGSEGV|SIGABRT|SIGBUS|signal 11|signal 6|signal 7).*", text)


# -- the tables -----------------------------------------------------------------------------
def make_tables(stack: Stack, count: int) -> list[str]:
    """Tables of four playing to 10,000 (nobody goes out: a save is never waiting for a buy-back)."""
    from companion import create_app
    from companion.extensions import db
    from companion.services.tables import create_table
    from companion.services.unit import transaction

    app = create_app({"SQLALCHEMY_DATABASE_URI": stack.url.replace("postgresql://", "postgresql+psycopg://")})
    links = []
    with app.app_context():
        for i in range(count):
            with transaction():
                table = create_table(
                    name=f"Table {i + 1}",
                    preset="classic",
                    overrides={"target": 10000},
                    players=NAMES,
                    first_dealer=0,
                    suit_style="spanish",
                )
                links.append(table.player_token)
        db.engine.dispose()
    return links


def field_of(html: str, name: str) -> str:
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html) or re.search(
        rf'<input[^>]*value="([^"]*)"[^>]*name="{name}"', html
    )
    return found.group(1) if found else ""


class Phone(threading.Thread):
    """A table's phone saving a hand about every second, each until stored."""

    def __init__(self, base: str, link: str, log: Log, stop: threading.Event, seed: int) -> None:
        super().__init__(daemon=True)
        self.base, self.link, self.log, self.stopping = base, link, log, stop
        self.rng = random.Random(seed)
        self.client = httpx.Client(base_url=base, timeout=15, follow_redirects=False)
        self.csrf = ""
        self.version = 1

    def fresh_form(self) -> None:
        while not self.stopping.is_set():
            started = time.monotonic()
            try:
                response = self.log.request(self.client, "GET", f"/t/{self.link}/hands/new")
            except httpx.HTTPError as error:
                self.log.add("save", 0, started, error)
                time.sleep(0.3)
                continue
            if response.status_code == 200:
                self.csrf = field_of(response.text, "csrf_token")
                return
            self.log.add("save", response.status_code, started)
            time.sleep(0.3)

    def run(self) -> None:
        self.fresh_form()
        self.log.acks[self.link] = []
        while not self.stopping.is_set():
            self.save_one()
            time.sleep(self.rng.uniform(0.6, 1.4))

    def save_one(self) -> None:
        closer = self.rng.randrange(4)
        points = {s: self.rng.choice(CLOSER_SCORES) if s == closer else self.rng.randint(0, 25) for s in range(4)}
        submission = uuid.uuid4().hex
        while True:
            data = {"csrf_token": self.csrf, "version": str(self.version), "submission": submission}
            data |= {"closer": str(closer), "mode": "points", "action": "save"}
            data |= {f"p{s}": str(p) for s, p in points.items()}
            started = time.monotonic()
            try:
                response = self.log.request(
                    self.client, "POST", f"/t/{self.link}/hands/new", data=data, headers={"X-Chinchon-Queue": "1"}
                )
            except httpx.HTTPError as error:
                self.log.add("save", 0, started, error)
                if self.stopping.is_set():
                    return  # its fate is read from the record: stored or not, never twice
                time.sleep(0.3)
                continue
            self.log.add("save", response.status_code, started)
            answer = (
                response.json() if response.headers.get("content-type", "").startswith("application/json") else None
            )
            if answer is None:
                if response.status_code == 400:  # the form's token: a fresh one (never seen here so far)
                    self.fresh_form()
                elif response.status_code == 429:
                    time.sleep(float(response.headers.get("Retry-After", "1")))
                else:
                    time.sleep(0.3)
                if self.stopping.is_set():
                    return
                continue
            if answer["status"] == "stored":
                self.version = answer["version"]
                last = answer["last"]
                number = last["number"] if last else 0
                self.log.acks[self.link].append(Ack(submission, number, points))
                return
            if answer["status"] == "stale":  # sent again after its answer was lost? then it is stored: the record says
                self.log.anomalies.append(f"{self.link[:6]}: stale at version {self.version} ({answer['version']})")
                self.version = answer["version"]
                continue
            self.log.anomalies.append(f"{self.link[:6]}: refused {answer.get('error')}")
            return


class Poller(threading.Thread):
    """A phone following the scoreboard: ``?since=<version>`` every 2 s."""

    def __init__(self, base: str, link: str, log: Log, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.base, self.link, self.log, self.stopping = base, link, log, stop
        self.client = httpx.Client(base_url=base, timeout=15, follow_redirects=False)

    def run(self) -> None:
        since = 1
        while not self.stopping.is_set():
            started = time.monotonic()
            try:
                response = self.log.request(self.client, "GET", f"/t/{self.link}", params={"since": since})
                self.log.add("poll", response.status_code, started)
                found = re.search(r"since=(\d+)", response.text) if response.status_code == 200 else None
                since = int(found.group(1)) if found else since
            except httpx.HTTPError as error:
                self.log.add("poll", 0, started, error)
            self.stopping.wait(2.0)


# -- the faults ------------------------------------------------------------------------------
@dataclass
class Fault:
    name: str
    started: float = 0.0
    ended: float = 0.0
    crashes_before: int = 0
    crashes_after: int = 0


def redis_down(stack: Stack, seconds: float) -> None:
    stack.stop_redis()
    time.sleep(seconds)
    stack.start_redis()


def postgres_restart(_stack: Stack) -> None:
    subprocess.run(["pg_ctlcluster", pg_version(), "main", "restart", "-m", "fast"], check=True, capture_output=True)


def worker_killed(stack: Stack) -> None:
    os.kill(stack.workers()[0], signal.SIGKILL)
    time.sleep(2.0)


def reloads(stack: Stack, times: int) -> None:
    assert stack.gunicorn is not None
    for _ in range(times):
        stack.gunicorn.send_signal(signal.SIGHUP)
        time.sleep(2.0)


def slow_database(stack: Stack, seconds: float) -> None:
    with psycopg.connect(stack.url) as connection:
        connection.execute("LOCK TABLE hands IN EXCLUSIVE MODE")  # reads go on; every save waits
        time.sleep(seconds)


# -- the record -------------------------------------------------------------------------------
def check_record(stack: Stack, log: Log) -> tuple[int, list[str]]:
    """Every acknowledged save stored once, in order, with its points; nothing else stored."""
    problems: list[str] = []
    stored_total = 0
    with psycopg.connect(stack.url) as connection:
        for link, acks in log.acks.items():
            rows = connection.execute(
                """SELECT h.number, h.submission, e.seat, e.points FROM hands h
                   JOIN game_tables t ON t.id = h.table_id JOIN entries e ON e.hand_id = h.id
                   WHERE t.player_token = %s AND h.undone_at IS NULL AND h.replaced_by_id IS NULL
                   ORDER BY h.number, e.seat""",
                (link,),
            ).fetchall()
            hands: dict[int, tuple[str, dict[int, int]]] = {}
            for number, submission, seat, points in rows:
                hands.setdefault(number, (submission, {}))[1][seat] = points
            stored_total += len(hands)
            if sorted(hands) != list(range(1, len(hands) + 1)):
                problems.append(f"{link[:6]}: hands numbered {sorted(hands)}")
            submissions = [hands[n][0] for n in sorted(hands)]
            if len(set(submissions)) != len(submissions):
                problems.append(f"{link[:6]}: a submission stored twice")
            by_submission = {s: (n, p) for n, (s, p) in hands.items()}
            for ack in acks:
                if ack.submission not in by_submission:
                    problems.append(f"{link[:6]}: acknowledged hand {ack.number} lost")
                elif by_submission[ack.submission] != (ack.number, ack.points):
                    problems.append(f"{link[:6]}: hand {ack.number} stored as {by_submission[ack.submission]}")
            acked = {a.submission for a in acks}
            # A save in flight when the night ended may be stored unacknowledged: only the last one of a table.
            unacked = [n for n, (s, _p) in hands.items() if s not in acked]
            if unacked and unacked != [max(hands)]:
                problems.append(f"{link[:6]}: hands {unacked} stored but never acknowledged")
    return stored_total, problems


# -- the night ---------------------------------------------------------------------------------
def summary(fault: Fault, log: Log) -> dict[str, object]:
    # An answer counts for the fault under which it came back: a request sent
    # in the last moments of one fault's window and cut by the next fault (a
    # save in flight when PostgreSQL restarts) is the next fault's doing.
    window = [a for a in log.answers if fault.started <= a.at + a.seconds < fault.ended + AFTER]
    saves = [a for a in window if a.kind == "save"]
    errors = Counter(
        "no answer" if a.status == 0 else str(a.status) for a in window if a.status == 0 or a.status >= 500
    )
    failing = [a.at for a in saves if a.status == 0 or a.status >= 500]
    stretch = (max(failing) - min(failing) + max((a.seconds for a in saves), default=0.0)) if failing else 0.0
    slowest = max((a.seconds for a in saves if 0 < a.status < 500), default=0.0)
    resent = sum(1 for at in log.resent if fault.started <= at < fault.ended + AFTER)
    return {"requests": len(window), "errors": errors, "failing": stretch, "slowest": slowest, "resent": resent}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="4 tables and short faults (make test)")
    parser.add_argument("--tables", type=int)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--reloads", type=int, help="SIGHUPs in a row (default 3 quick, 8)")
    parser.add_argument("--only", help="one fault by its first word (redis, postgresql, a, reloads, slow)")
    args = parser.parse_args()
    tables = args.tables or (4 if args.quick else 16)
    short = args.quick
    out = args.out or Path(tempfile.mkdtemp(prefix="faults-"))
    out.mkdir(parents=True, exist_ok=True)
    stack = Stack(out)
    stack.database()
    stack.start_redis()
    links = make_tables(stack, tables)
    stack.start_gunicorn()
    log = Log()
    stop = threading.Event()
    threads = [Phone(stack.base, link, log, stop, i) for i, link in enumerate(links)]
    threads += [Poller(stack.base, link, log, stop) for link in links]
    for thread in threads:
        thread.start()
    plan = [
        ("Redis down", lambda: redis_down(stack, 3.0 if short else 15.0)),
        ("PostgreSQL restart", lambda: postgres_restart(stack)),
        ("a worker killed", lambda: worker_killed(stack)),
        ("reloads (SIGHUP)", lambda: reloads(stack, args.reloads or (3 if short else 8))),
        ("a slow database", lambda: slow_database(stack, 1.5 if short else 5.0)),
    ]
    if args.only:
        plan = [(name, inject) for name, inject in plan if name.lower().startswith(args.only.lower())]
    faults: list[Fault] = []
    time.sleep(2.0 if short else 8.0)  # warm
    for name, inject in plan:
        fault = Fault(name, crashes_before=len(stack.crashes()))
        fault.started = time.monotonic()
        inject()
        fault.ended = time.monotonic()
        time.sleep(AFTER if short else 8.0)
        fault.crashes_after = len(stack.crashes())
        faults.append(fault)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
        thread.client.close()  # no kept-alive connection for gunicorn's graceful stop to wait out
    crashed = stack.crashes()
    stack.stop()
    stored, problems = check_record(stack, log)

    acknowledged = sum(len(a) for a in log.acks.values())
    print(f"faults: {tables} tables on gunicorn {GUNICORN}, PostgreSQL {pg_version()}, Redis; logs in {out}")
    print(
        f"{'fault':<20} {'requests':>8} {'resent':>6}  {'errors':<22} {'saves failing for':>17} {'slowest save':>12}"
        "  crashed"
    )
    failed = []
    for fault in faults:
        s = summary(fault, log)
        errors: Counter[str] = s["errors"]  # type: ignore[assignment]
        shown = ", ".join(f"{n}× {k}" for k, n in sorted(errors.items())) or "none"
        crashed_here = fault.crashes_after - fault.crashes_before
        print(
            f"{fault.name:<20} {s['requests']:>8} {s['resent']:>6}  {shown:<22} {s['failing']:>15.1f} s"
            f" {s['slowest']:>10.2f} s  {crashed_here}"
        )
        allowed = {"PostgreSQL restart": {"503", "no answer"}, "a worker killed": {"no answer"}}.get(fault.name, set())
        if set(errors) - allowed:
            failed.append(f"{fault.name}: {dict(errors)}")
        if crashed_here:
            failed.append(f"{fault.name}: {crashed_here} worker(s) crashed")
    print(f"acknowledged saves: {acknowledged}, stored: {stored}, lost or doubled: {len(problems)}")
    for line in [*problems, *log.anomalies, *crashed]:
        print("  " + line)
    failed += problems
    if crashed:
        failed.append(f"{len(crashed)} worker crash(es) in the log")
    if failed:
        print("FAILED: " + "; ".join(failed))
        return 1
    print("every fault within what it may cost; nothing acknowledged lost or stored twice")
    return 0


if __name__ == "__main__":
    sys.exit(main())
