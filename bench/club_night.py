"""Club night: an evening at a club on one server, played by locust phones.

    .venv/bin/pip install -e '.[bench]'                  # locust
    .venv/bin/python bench/club_night.py                 # 64 tables for 10 minutes
    .venv/bin/python bench/club_night.py --quick         # 16 tables for 2 minutes: to try it
    .venv/bin/python bench/club_night.py --minutes 1 --tables 8 --digital 1 --screens 1 --out /tmp/night

The bench starts the server as the README's "Running for real" does, on this
machine: PostgreSQL (scripts/postgres.sh, a fresh database ``companion_club``;
``--sqlite`` for SQLite in WAL mode), Redis on a private port for the rate
limits, which stay on at their defaults as in production, and gunicorn with 8
gthread workers.  The tables are set up before the evening through the
services; then every phone, all from 127.0.0.1, does what its page does:

- a physical table has 4 phones on its scoreboard, polling
  ``/t/<link>?since=<version>`` every 2 s (204 while nothing changed; the page
  when it did, after which the poll carries the new version).  About every
  ``--hand-every`` seconds one of them enters a hand at a person's pace: it
  opens the hand form, taps the closer's 8 cards at 0.8 s a tap, types the
  three others' points and saves (a real deal whose closer can close, the
  points the engine's), sending the previews the page sends (:class:`Previews`),
  then follows the redirect.  A scoreboard loaded whole also loads its images
  and has the service worker keep its hand-entry links (offline.js).  At every
  5th table a second phone saves the same hand a moment later and must get the
  409 page that keeps its entry; at every 7th the phone's offline queue sends an
  acknowledged save again, which must be stored once.
- a digital table (``--digital``) has one person and three computer players,
  one of each level; the person's phone polls its seat page every 1 s and, on
  its turn, draws, throws or closes after a person's thinking time, and deals
  the next hand.
- TV screens (``--screens``) show a table's read-only link, the next table
  every 30 s.

``--tournament``: the physical tables are round 1 of a club tournament
(rounds on points, the whole match at each table), seated by the app: every
phone of a table has its player link, as the organizer hands it out; the
screens show the tournament's wall instead, polling it every 2 s as the page
does (``?since=``: 204 while no table changed); and one more phone, the
organizer's, follows the dashboard every 5 s.  Wall and dashboard polls are
in the poll target; each full wall and dashboard must answer within 100 ms at
p95 as well.

The phones' arrival (first pages, static files, the service worker's copies)
is summed up on one line; then, for the evening, n, requests/s, p50/p95/p99
and the bytes of each kind of request; the targets (no error; no 429, since
every phone keeps a person's pace: any 429 is unearned; save p95 < 150 ms;
scoreboard poll p95 < 50 ms); and the integrity of what was stored, read from
the app's JSON export (``flask export``): every table's hands numbered 1..n
once, every acknowledged save stored exactly once and no refused one, each
hand's points the engine's for the deal sent, and the totals every scoreboard
shows equal to the engine's replay of the stored hands (``replay_match``).
One more phone follows a scoreboard from a process of its own
(``bench/probe.py``, the standard library, nothing else to do): its times,
printed last, are the server's share; the gap to locust's figure is what
the load generator's own process adds.  Exits 1 when a target is missed.
"""

from __future__ import annotations

# locust patches the standard library for gevent when imported: first.
from locust import FastHttpUser, constant_pacing, task  # isort: skip
from locust.contrib.fasthttp import FastHttpSession  # isort: skip

import argparse
import html
import itertools
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import gevent
import psutil
from locust.env import Environment
from locust.runners import STATE_RUNNING
from locust.stats import StatsEntry, StatsError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.rules import JOKER, get_rules, settle_hand  # noqa: E402
from companion.rules.match import replay_match  # noqa: E402

PLAYERS = ["Ana", "Ben", "Carla", "Dani"]
COMPUTERS = ["simple", "good", "expert"]
RULES = get_rules("classic", decks=1, target=10000)  # nobody goes out in one evening: steady play
TAP = 0.8  # seconds between two taps on the card grid
KEY = 0.25  # between two digits typed
NEXT_FIELD = 2.0  # from one player's points to the next (counting their cards)
SCREEN_SWITCH = 30.0  # a TV moves on to the next table
ARRIVAL = 5.0  # seconds after the last phone's first page before the evening's figures start
HEADERS = {"Accept-Language": "en", "User-Agent": "Mozilla/5.0 (Linux; Android 14) club-night bench"}
FIELD = re.compile(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)"')
BOARD_POLL = re.compile(r'id="board" hx-get="([^"]+)"')
WALL_POLL = re.compile(r'id="wall"[^>]* hx-get="([^"]+)"')
SEAT_POLL = re.compile(r'<section id="board"[^>]* hx-get="([^"]+)"')
TOTALS = re.compile(r'<span class="total">(-?\d+)</span>')
DELAY = re.compile(r"delay:(\d+)(ms|s)")
#: How long app.js waits after the last tap or keystroke before it asks for the verdict.
_PAUSE = re.search(r"PAUSE_MS = (\d+)", (ROOT / "companion/static/app.js").read_text())
PAUSE = int(_PAUSE[1]) / 1000 if _PAUSE else 0.0


def deals(count: int, rng: random.Random) -> list[tuple[list[list[str]], list[int]]]:
    """Random 4-player deals (closer first) whose closer may close, with the engine's points."""
    pack = RULES.pack.cards() + [JOKER] * RULES.jokers
    out = []
    while len(out) < count:
        rng.shuffle(pack)
        hands = [pack[i * 7 : i * 7 + 7] for i in range(4)]
        hands[0] = [*hands[0], pack[28]]
        result = settle_hand(hands, RULES, 0)
        if result.legal and not result.wins_match:
            out.append(([[str(c) for c in h] for h in hands], result.points))
    return out


def fields(page: str) -> dict[str, str]:
    """The hidden fields of a page's forms (the first of each name)."""
    found: dict[str, str] = {}
    for name, value in FIELD.findall(page):
        found.setdefault(name, html.unescape(value))
    return found


# -- the evening's shared state -----------------------------------------------------
@dataclass
class Table:
    index: int
    kind: str  # "physical" or "digital"
    owner: str
    player: str
    watch: str
    seat: str = ""  # digital: the person's seat link
    #: physical: every hand the scoring phone sent (submission -> the engine's points by seat for its deal)
    sent: dict[str, dict[int, int]] = field(default_factory=dict)
    acked: list[str] = field(default_factory=list)  # of those, the ones the server acknowledged
    refused: list[str] = field(default_factory=list)  # the second phone's saves, answered 409


@dataclass
class Night:
    tables: list[Table]
    pool: list
    hand_every: float
    closing: bool = False  # time is up: no new hand is begun
    entering: int = 0  # hands being entered right now
    limited: Counter = field(default_factory=Counter)  # 429s by kind of request
    wire: Counter = field(default_factory=Counter)  # bytes on the wire by row (compressed or not)
    ready: int = 0  # phones whose first page is in
    ids: dict[str, itertools.count] = field(default_factory=dict)
    #: --tournament: the organizer's link and the read-only one (the wall)
    organizer: str = ""
    watch: str = ""

    def physical(self) -> list[Table]:
        return [t for t in self.tables if t.kind == "physical"]

    def digital(self) -> list[Table]:
        return [t for t in self.tables if t.kind == "digital"]

    def next_id(self, role: str) -> int:
        return next(self.ids.setdefault(role, itertools.count()))


NIGHT: Night  # set by run() before the first phone starts


# -- the phones ---------------------------------------------------------------------
class Phone(FastHttpUser):
    abstract = True
    default_headers = HEADERS
    network_timeout = 30.0
    connection_timeout = 10.0
    poll_url = ""

    def __init__(self, environment) -> None:
        super().__init__(environment)
        self.installed: set[int] = set()  # the sessions (this phone's, a second phone's) that loaded the app
        self.copies: dict[int, dict[str, str]] = {}  # by session: the pages its service worker keeps, by path

    def call(self, kind: str, method: str, url: str, *, ok=(200,), split=False, client=None, form=None, **kw):
        """One request, named ``kind`` (``kind · status`` with ``split``); a
        429 is counted apart, under its own name, and never as an error."""
        if form is not None:
            kw["data"] = urlencode(form)
            kw.setdefault("headers", {})["Content-Type"] = "application/x-www-form-urlencoded"
        client = client or self.client
        with client.request(method, url, name=kind, catch_response=True, allow_redirects=False, **kw) as r:
            length = r.headers.get("Content-Length") if r.headers else None
            if r.status_code == 429:
                NIGHT.limited[kind] += 1
                r.request_meta["name"] = f"{kind} · 429"
                r.success()
            elif r.status_code in ok:
                if split:
                    r.request_meta["name"] = f"{kind} · {r.status_code}"
                r.success()
            else:
                r.failure(f"{kind}: HTTP {r.status_code}")
            NIGHT.wire[r.request_meta["name"]] += int(length) if length else len(r.content or b"")
        return r

    def problem(self, kind: str, text: str) -> None:
        """Something a person would notice on the page: an error of ``kind``."""
        self.environment.stats.log_error("CHECK", kind, text)

    def send_again(self, kind: str, method: str, url: str, **kw):
        """A refused (429) request is sent again after Retry-After, as the 429 page offers."""
        for _attempt in range(4):
            r = self.call(kind, method, url, **kw)
            if r.status_code != 429:
                return r
            gevent.sleep(min(60, int(r.headers.get("Retry-After") or 5)))
        return r

    def install(self, page: str, client=None) -> None:
        """A phone's first page: its static files, the service worker and the offline page."""
        if id(client) in self.installed:
            return
        self.installed.add(id(client))
        assets = dict.fromkeys(re.findall(r'(?:href|src)="(/static/[^"]+|/manifest\.webmanifest)"', page))
        for extra in re.findall(r'data-(?:sw|offline)="([^"]+)"', page):
            assets[extra] = None
        for url in assets:
            self.call("first visit: static files, service worker", "GET", html.unescape(url), client=client)


class Board(Phone):
    """A phone (or a TV) on a scoreboard, polling it as the page does."""

    abstract = True
    wait_time = constant_pacing(2)  # hx-trigger="every 2s"
    board = ""

    def show(self, page: str, url: str) -> None:
        """A scoreboard page arrived: poll from its version on."""
        self.board = url
        found = BOARD_POLL.search(page)
        self.poll_url = html.unescape(found[1]) if found else url
        self.loaded(page)

    def loaded(self, page: str, client=None) -> None:
        """What a scoreboard loaded whole asks for: its images (those not lazy)
        and a copy of its hand-entry page for the service worker, unless the
        copy it keeps is current (offline.js ``handEntryPaths()``: one copy a
        path, fetched when missing, of another version or language, or kept as
        opened for one closer)."""
        for tag in re.findall(r"<img [^>]*>", page):
            image = re.search(r'src="([^"]+)"', tag)
            if image and 'loading="lazy"' not in tag and not image[1].startswith("/static/"):
                self.call("images on the page", "GET", html.unescape(image[1]), client=client)
        since = re.search(r'id="board" hx-get="[^"]*since=(\d+)', page)
        if since is None or '<ul class="scores"' not in page:
            return
        lang = re.search(r'<html lang="[^"]*"', page)
        tags = [tag for tag in re.findall(r"<a [^>]*>", page) if "data-change" not in tag]
        links = [re.search(r'href="(/t/[^"?]+/hands/new)', tag) for tag in tags]
        for path in dict.fromkeys(link[1] for link in links if link):
            copy = self.kept(client).get(path, "")
            current = lang is not None and lang[0] in copy and f'name="version" value="{since[1]}"' in copy
            if not current or re.search(r'name="closer" value="\d+" checked', copy):
                r = self.call("service worker keeps hand form", "GET", path, client=client)
                self.kept(client)[path] = r.text

    def kept(self, client=None) -> dict[str, str]:
        return self.copies.setdefault(id(client), {})

    def open(self, url: str) -> None:
        r = self.call("open scoreboard", "GET", url)
        self.install(r.text)
        self.show(r.text, url)

    def poll(self) -> None:
        headers = {"HX-Request": "true", "HX-Trigger": "board", "HX-Target": "board", "HX-Current-URL": self.board}
        r = self.call("poll scoreboard", "GET", self.poll_url, ok=(200, 204), split=True, headers=headers)
        if r.status_code == 200:
            found = BOARD_POLL.search(r.text)
            if found:
                self.poll_url = html.unescape(found[1])
            else:
                self.problem("poll scoreboard", "a changed poll without the board")


class Previews:
    """When the hand form asks for the verdict, as app.js does: once taps and
    keystrokes pause for ``PAUSE_MS`` (or the ``delay:`` of the form's
    ``hx-trigger``, where it has one), and at once when a tab's count is
    reached (its ``data-advance`` or ``data-limit``)."""

    def __init__(self, page: str, seat: int) -> None:
        trigger = re.search(r'<form id="hand-form"[^>]* hx-trigger="([^"]*)"', page)
        delay = DELAY.search(trigger[1]) if trigger else None
        self.pause = int(delay[1]) / (1000 if delay[2] == "ms" else 1) if delay else PAUSE
        panel = re.search(rf'data-panel="{seat}"([^>]*)>', page)
        counts = re.findall(r'data-(?:advance|limit)="(\d+)"', panel[1]) if panel and not delay else []
        self.full = {int(n) for n in counts}

    def after(self, cards: int | None, pause: float) -> float | None:
        """How long after a change (a tab now holding ``cards``, or a keystroke) a
        preview goes, with ``pause`` seconds to the next change; None: none does."""
        if cards in self.full:
            return 0.0
        return self.pause if pause >= self.pause else None


class Scorer(Board):
    """The phone that enters the table's hands (its owner link)."""

    fixed_count = 0

    def on_start(self) -> None:
        self.table = NIGHT.physical()[NIGHT.next_id("scorer")]
        self.rng = random.Random(self.table.index)
        self.open(f"/t/{self.table.owner}")
        self.next_hand = time.monotonic() + self.rng.uniform(5, NIGHT.hand_every)
        NIGHT.ready += 1
        self.across: FastHttpSession | None = None
        if self.table.index % 5 == 0:  # the phone across the table enters the same hand
            self.across = FastHttpSession(self.host, self.environment.events.request, self, headers=HEADERS)

    @task
    def evening(self) -> None:
        if time.monotonic() < self.next_hand or NIGHT.closing:
            self.poll()
            return
        self.next_hand = max(time.monotonic(), self.next_hand + self.rng.uniform(0.8, 1.2) * NIGHT.hand_every)
        NIGHT.entering += 1
        try:
            self.enter_hand()
        finally:
            NIGHT.entering -= 1

    def enter_hand(self) -> None:
        table = self.table
        cards, points = NIGHT.pool[self.rng.randrange(len(NIGHT.pool))]
        closer = self.rng.randrange(4)
        seats = [(closer + i) % 4 for i in range(4)]  # play order from the closer
        expected = {seat: points[i] for i, seat in enumerate(seats)}
        url = f"/t/{table.owner}/hands/new"
        page = self.kept()[url] = self.call("open hand form", "GET", f"{url}?closer={closer}").text
        other = None
        if self.across is not None:
            path = f"/t/{table.player}/hands/new"
            other = self.call("open hand form", "GET", f"{path}?closer={closer}", client=self.across)
            self.kept(self.across)[path] = other.text
            self.install(other.text, self.across)
        state = fields(page)
        number = re.search(r'data-draft="[^"]*:new:(\d+):', page)
        if not {"csrf_token", "version", "submission"} <= state.keys() or number is None:
            self.problem("open hand form", "no hand form")
            return
        previews = Previews(page, closer)
        base = [(k, state[k]) for k in ("csrf_token", "version", "submission")]
        base += [("closer", str(closer)), ("active", str(closer))]
        tapped: list[tuple[str, str]] = []
        typed = {seat: "" for seat in range(4)}

        def form() -> list[tuple[str, str]]:
            return base + tapped + [(f"p{seat}", typed[seat]) for seat in range(4)]

        # What the person does, at what time from the page's arrival.
        steps: list[tuple[float, object]] = []
        at = 1.5
        for card in cards[0]:
            steps.append((at, ("h", card)))
            at += TAP
        at += NEXT_FIELD - TAP
        for seat in seats[1:]:
            digits = str(expected[seat])
            for k in range(1, len(digits) + 1):
                steps.append((at, ("p", seat, digits[:k])))
                at += KEY
            at += NEXT_FIELD - KEY
        save_at = at + 1.5
        began = time.monotonic()
        headers = {"HX-Request": "true", "HX-Trigger": "hand-form", "HX-Target": "verdict", "HX-Current-URL": url}
        for i, (when, step) in enumerate(steps):
            gevent.sleep(max(0.0, began + when - time.monotonic()))
            if step[0] == "h":
                tapped.append((f"h{closer}", step[1]))
            else:
                typed[step[1]] = step[2]
            following = steps[i + 1][0] if i + 1 < len(steps) else save_at
            wait = previews.after(len(tapped) if step[0] == "h" else None, following - when)
            if wait is not None:
                gevent.sleep(wait)
                verdict = self.call("preview", "POST", url, form=form(), headers=headers)
                last_card = step[0] == "h" and len(tapped) == len(cards[0])
                if last_card and verdict.status_code == 200 and "Legal close." not in verdict.text:
                    self.problem("preview", "the closer's 8 cards are not shown as a legal close")
        gevent.sleep(max(0.0, began + save_at - time.monotonic()))
        submission = state["submission"]
        table.sent[submission] = expected
        body = [*form(), ("action", "save")]
        saved = self.send_again("save hand", "POST", url, form=body, ok=(303,))
        if saved.status_code != 303:
            return
        board = self.call("scoreboard after save", "GET", saved.headers["Location"])
        if f"Hand {number[1]} saved." not in board.text:
            self.problem("save hand", f"no 'Hand {number[1]} saved.' after the save")
            return
        table.acked.append(submission)
        self.show(board.text, f"/t/{table.owner}")
        if table.index % 7 == 0:  # the answer was lost: the offline queue sends the hand again
            again = self.send_again("offline queue resend", "POST", url, form=body, headers={"X-Chinchon-Queue": "1"})
            if again.status_code == 200 and again.json().get("status") != "stored":
                self.problem("offline queue resend", f"answered {again.text[:80]}")
        if other is not None:
            self.second_phone(other.text, closer, cards, expected)

    def second_phone(self, page: str, closer: int, cards, expected: dict[int, int]) -> None:
        """The phone across the table saves the same hand a moment later: the
        409 page shows both and keeps its entry; the person drops it."""
        state = fields(page)
        url = f"/t/{self.table.player}/hands/new"
        body = [(k, state.get(k, "")) for k in ("csrf_token", "version", "submission")]
        body += [("closer", str(closer)), ("active", str(closer))]
        body += [(f"h{closer}", c) for c in cards[0]]
        body += [(f"p{seat}", str(expected[seat]) if seat != closer else "") for seat in range(4)]
        late = self.send_again(
            "second phone saves the same hand",
            "POST",
            url,
            form=[*body, ("action", "save")],
            ok=(409,),
            client=self.across,
        )
        if late.status_code != 409:
            return
        self.table.refused.append(state["submission"])
        if "Your entry is the same hand" not in late.text:
            self.problem("second phone saves the same hand", "the 409 page does not say it is the same hand")
        board = self.call("open scoreboard", "GET", f"/t/{self.table.player}", client=self.across)
        self.loaded(board.text, self.across)


class Watcher(Board):
    """One of the other three phones of a physical table (its player link)."""

    fixed_count = 0

    def on_start(self) -> None:
        self.table = NIGHT.physical()[NIGHT.next_id("watcher") // 3]
        self.open(f"/t/{self.table.player}")
        NIGHT.ready += 1

    @task
    def evening(self) -> None:
        self.poll()


class Screen(Board):
    """A TV on the wall: a table's read-only link, the next table every 30 s."""

    fixed_count = 0

    def on_start(self) -> None:
        self.at = NIGHT.next_id("screen")
        self.follow()
        NIGHT.ready += 1

    def follow(self) -> None:
        table = NIGHT.tables[self.at % len(NIGHT.tables)]
        self.open(f"/t/{table.watch}")
        self.switch = time.monotonic() + SCREEN_SWITCH

    @task
    def evening(self) -> None:
        if time.monotonic() >= self.switch:
            self.at += Screen.fixed_count
            self.follow()
        else:
            self.poll()


class Wall(Board):
    """A TV on the wall showing the tournament (--tournament): all its tables and the standings."""

    fixed_count = 0

    def on_start(self) -> None:
        self.open(f"/c/{NIGHT.watch}/wall")
        NIGHT.ready += 1

    def show(self, page: str, url: str) -> None:
        self.board = url
        found = WALL_POLL.search(page)
        self.poll_url = html.unescape(found[1]) if found else url

    def poll(self) -> None:
        r = self.call("poll wall", "GET", self.poll_url, ok=(200, 204), split=True)
        if r.status_code == 200:
            self.show(r.text, self.board)

    @task
    def evening(self) -> None:
        self.poll()


class Organizer(Board):
    """The organizer's phone on the tournament's dashboard (--tournament), polled every 5 s."""

    fixed_count = 0
    wait_time = constant_pacing(5)  # hx-trigger="every 5s"

    def on_start(self) -> None:
        self.open(f"/c/{NIGHT.organizer}")
        NIGHT.ready += 1

    def poll(self) -> None:
        r = self.call("poll dashboard", "GET", self.poll_url, ok=(200, 204), split=True)
        if r.status_code == 200:
            found = BOARD_POLL.search(r.text)
            self.poll_url = html.unescape(found[1]) if found else self.poll_url

    @task
    def evening(self) -> None:
        self.poll()


class Person(Phone):
    """The person at a digital table, on their seat link, against three computers."""

    fixed_count = 0
    wait_time = constant_pacing(1)  # the board's hx-trigger="every 1s"

    def on_start(self) -> None:
        self.table = NIGHT.digital()[NIGHT.next_id("person")]
        self.rng = random.Random(1000 + self.table.index)
        self.url = self.poll_url = f"/s/{self.table.seat}"
        self.move: dict | None = None
        self.due = 0.0
        r = self.call("open seat page", "GET", self.url)
        self.install(r.text)
        self.read(r.text)
        NIGHT.ready += 1

    @task
    def evening(self) -> None:
        if self.move is not None and time.monotonic() >= self.due:
            self.play()
        else:
            self.poll()

    def poll(self) -> None:
        headers = {"HX-Request": "true", "HX-Trigger": "board", "HX-Target": "board", "HX-Current-URL": self.url}
        r = self.call("poll seat", "GET", self.poll_url, ok=(200, 204), split=True, headers=headers)
        if r.status_code == 200:
            self.read(r.text)

    def read(self, page: str) -> None:
        """What the board asks of this person, and when they will have thought it over."""
        found = SEAT_POLL.search(page)
        if found is None:
            self.problem("poll seat", "a seat page without its board")
            return
        self.poll_url = html.unescape(found[1])
        state = fields(page)
        move: dict | None = None
        think = 0.0
        if (rematch := re.search(r'action="(/s/[^"]+/rematch)"', page)) and "table_version" in state:
            move, think = {"url": rematch[1], "table_version": state["table_version"]}, 5.0  # a Chinchón ended it
        elif 'name="action" value="next"' in page:
            move, think = {"action": "next", "deal": state.get("deal", "")}, self.rng.uniform(4, 8)
        elif 'name="action" value="stock"' in page:
            pile = 'value="discard_pile"' in page and self.rng.random() < 0.3
            move, think = {"action": "discard_pile" if pile else "stock"}, self.rng.uniform(2, 4)
        elif 'name="card"' in page:
            closes = re.findall(r'name="close" value="([^"]+)"', page)
            if closes:
                move = {"close": closes[0]}
            else:
                loose = re.findall(r'<div class="group loose">(.*?)</div>', page, re.S)
                cards = re.findall(r'name="card" value="([^"]+)"', "".join(loose) or page)
                move = {"action": "discard", "card": max(cards, key=lambda c: int(c[:-1]) if c[:-1].isdigit() else 0)}
            think = self.rng.uniform(3, 6)
        if move is not None:
            move |= {k: state[k] for k in ("csrf_token", "version") if k in state}
        if move != self.move:
            self.move, self.due = move, time.monotonic() + think

    def play(self) -> None:
        move, self.move = self.move or {}, None
        url = move.pop("url", self.url)
        r = self.send_again("play move", "POST", url, form=list(move.items()), ok=(303,))
        if r.status_code != 303:
            return
        self.url = r.headers["Location"].split("?")[0].split("#")[0]
        page = self.call("seat page after move", "GET", r.headers["Location"])
        self.read(page.text)


# -- the server ----------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def flask(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "flask", "--app", "companion", *args], cwd=ROOT, env=env, check=True, capture_output=True
    )


def postgres(url: str) -> str:
    """Start the local cluster (as the tests do) and make a fresh database for the night."""
    subprocess.run(["bash", "-c", "source scripts/postgres.sh && start_postgres"], cwd=ROOT, check=True)
    sql = "DROP DATABASE IF EXISTS companion_club WITH (FORCE);"
    subprocess.run(
        ["su", "postgres", "-c", f'psql -qc "{sql}" -c "CREATE DATABASE companion_club OWNER companion;"'], check=True
    )
    return url.rsplit("/", 1)[0] + "/companion_club"


def set_tables(env: dict[str, str], physical: int, digital: int, tournament: bool = False) -> list[Table]:
    """The club's tables, made before the evening through the services (as
    the forms would); with ``tournament``, the physical ones as round 1 of a
    tournament (its links go into NIGHT once it exists)."""
    os.environ.update(env)
    from companion import create_app
    from companion.extensions import db
    from companion.services import tournaments
    from companion.services.play import Pace, create_digital_table
    from companion.services.tables import create_table
    from companion.services.unit import transaction

    app = create_app()
    options = {"preset": "classic", "overrides": {"decks": 1, "target": RULES.target}, "first_dealer": 0}
    made = []
    with app.app_context():
        if tournament and physical:
            with transaction():
                cup = tournaments.create_tournament(
                    name="Club night",
                    players=[f"{name} {i + 1}" for i in range(physical) for name in PLAYERS],
                    preset="classic",
                    overrides=options["overrides"],
                    settings=tournaments.Settings(format="points", rounds=1),
                    seed=1,
                )
            with transaction():
                seated = tournaments.start_round(cup, cup.version)
            assert [len(t.players) for t in seated.tables] == [4] * physical
            made += [(i, "physical", t) for i, t in enumerate(seated.tables)]
            TOURNAMENT_LINKS[:] = [cup.owner_token, cup.watch_token]
        with transaction():
            for i in range(0 if tournament else physical):
                t = create_table(name=f"Table {i + 1}", players=PLAYERS, suit_style="spanish", **options)
                made.append((i, "physical", t))
            for i in range(physical, physical + digital):
                players = [(PLAYERS[0], "human"), *zip(PLAYERS[1:], COMPUTERS, strict=True)]
                t = create_digital_table(
                    name=f"Table {i + 1}",
                    players=players,
                    mode="devices",
                    suit_style="spanish",
                    hints=False,
                    pace=Pace(),
                    **options,
                )
                made.append((i, "digital", t))
        # A tournament table's phones all have its player link (the organizer keeps the owner's).
        tables = [
            Table(
                i,
                kind,
                t.player_token if t.round_id else t.owner_token,
                t.player_token,
                t.watch_token,
                t.players[0].seat_token or "",
            )
            for i, kind, t in made
        ]
        db.engine.dispose()
    return tables


#: --tournament: the organizer's link and the wall's, once set_tables has made them.
TOURNAMENT_LINKS: list[str] = []
#: The README's recipe for 2 cores; CLUB_GUNICORN="-w 4 -k gthread --threads 4 --keep-alive 30" tries another.
GUNICORN = "-w 8 -k gthread --threads 2 --keep-alive 30"


class Server:
    """PostgreSQL, Redis on a private port and gunicorn (GUNICORN), on 127.0.0.1."""

    def __init__(self, out: Path, postgres_url: str | None) -> None:
        self.out = out
        self.redis_port, self.port = free_port(), free_port()
        self.env = dict(
            os.environ,
            DATABASE_URL=postgres(postgres_url) if postgres_url else f"sqlite:///{out}/club.sqlite",
            SECRET_KEY="club-night",
            RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{self.redis_port}",
        )
        self.base = f"http://127.0.0.1:{self.port}"
        self.processes: list[subprocess.Popen] = []

    def start_redis(self) -> None:
        log = open(self.out / "redis.log", "w")  # noqa: SIM115 - kept open for the process
        args = [*f"redis-server --port {self.redis_port} --bind 127.0.0.1 --appendonly no".split(), "--save", ""]
        self.processes.append(subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT))

    def start_gunicorn(self) -> None:
        log = open(self.out / "gunicorn.log", "w")  # noqa: SIM115 - kept open for the process
        args = [sys.executable, "-m", "gunicorn", *os.environ.get("CLUB_GUNICORN", GUNICORN).split()]
        args += ["-b", f"127.0.0.1:{self.port}", "--logger-class", "companion.web.gunicorn_logger.RedactingLogger"]
        self.processes.append(
            subprocess.Popen(
                [*args, "companion:create_app()"], cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )
        )
        for _ in range(150):
            try:
                urllib.request.urlopen(self.base + "/healthz", timeout=1).read()
                return
            except OSError:
                time.sleep(0.2)
        raise SystemExit(f"gunicorn did not start: see {self.out / 'gunicorn.log'}")

    def cpu(self) -> dict[str, float]:
        """CPU seconds used so far: gunicorn, the database's backends for the night, Redis, the phones."""
        gunicorn, redis = (psutil.Process(p.pid) for p in reversed(self.processes))
        backends = [
            p for p in psutil.process_iter(["cmdline"]) if "companion_club" in " ".join(p.info["cmdline"] or [])
        ]
        return {
            "gunicorn": used([gunicorn, *gunicorn.children(recursive=True)]),
            "PostgreSQL": used(backends),
            "Redis": used([redis]),
            "the phones (locust)": used([psutil.Process()]),
        }

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.terminate()
            process.wait(timeout=30)


def used(processes) -> float:
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.Error:  # gone meanwhile
            continue
        total += times.user + times.system
    return total


# -- the figures and the integrity check --------------------------------------------
def ms(entry: StatsEntry, q: float) -> int:
    return entry.get_response_time_percentile(q) if entry.num_requests else 0


def combined(env: Environment, name: str, prefix: str | tuple[str, ...]) -> StatsEntry:
    total = StatsEntry(env.stats, name, "")
    for entry in env.stats.entries.values():
        if entry.name.startswith(prefix) and not entry.name.endswith("· 429"):
            total.extend(entry)
    return total


def integrity(server: Server, tables: list[Table]) -> tuple[list[str], dict[str, int]]:
    """Compare what was stored (the app's export) with what the phones were told, and
    the totals each scoreboard shows with the engine's replay of the stored hands."""
    export = server.out / "tables.json"
    flask(server.env, "export", "-o", str(export))
    stored = {t["player_token"]: t for t in json.loads(export.read_text())["tables"]}
    problems: list[str] = []
    counts = Counter()
    by_link = {t.player: t for t in tables}
    for token, data in stored.items():
        hands = [h for h in data["hands"] if h["undone_at"] is None and h["replaced_by"] is None]
        hands.sort(key=lambda h: h["number"])
        numbers = [h["number"] for h in hands]
        name = data["name"]
        counts[f"{data['kind']} hands"] += len(hands)
        if numbers != list(range(1, len(hands) + 1)) or len(data["hands"]) != len(hands):
            problems.append(f"{name}: hand numbers {numbers} ({len(data['hands'])} rows)")
        names = [p["name"] for p in sorted(data["players"], key=lambda p: p["seat"])]
        points = [{e["seat"]: e["points"] for e in h["entries"]} for h in hands]
        table = by_link.get(token)
        if table is not None and table.kind == "physical":
            submissions = [h["submission"] for h in hands]
            counts["acknowledged"] += len(table.acked)
            counts["refused"] += len(table.refused)
            for s in table.acked:
                if submissions.count(s) != 1:
                    problems.append(f"{name}: an acknowledged save is stored {submissions.count(s)} times")
            for s in submissions:
                if s in table.refused:
                    problems.append(f"{name}: a save answered 409 was stored")
                elif s not in table.sent:
                    problems.append(f"{name}: a hand stored that no phone sent")
            counts["in flight at the end"] += len(set(table.sent) - set(table.acked))
            for number, (s, got) in enumerate(zip(submissions, points, strict=True), 1):
                if s in table.sent and got != table.sent[s]:
                    problems.append(f"{name}: hand {number} stored {got}, the engine gives {table.sent[s]}")
        events: list[dict] = []
        for h, p in zip(hands, points, strict=True):
            events.append({"hand": {names[seat]: v for seat, v in p.items()}})
            if h["wins_match"]:
                events.append({"chinchon": names[h["closer_seat"]]})
        rules = get_rules(data["preset"], **data["overrides"])
        replayed = replay_match(names, events, rules).totals
        page = urllib.request.urlopen(f"{server.base}/t/{data['watch_token']}").read().decode()
        shown = [int(x) for x in TOTALS.findall(page)]
        if shown != [replayed[n] for n in names]:
            problems.append(f"{name}: the scoreboard shows {shown}, the replay of its hands {replayed}")
        counts["tables"] += 1
    return problems, counts


@dataclass
class Arrival:
    """The phones switching on and loading their first pages, kept apart from the evening's figures."""

    seconds: float
    total: StatsEntry
    errors: list[StatsError]


@dataclass
class Evening:
    seconds: float
    cpu: dict[str, float]  # CPU seconds used by each part
    load: tuple[float, float]  # the machine's load average when it began and ended
    probed: dict[str, list[float]]  # bench/probe.py's times, by status: one phone's polls from its own process


def report(env: Environment, args, arrival: Arrival, evening: Evening, problems: list[str], counts) -> bool:
    stats, elapsed = env.stats, evening.seconds
    rows = sorted(stats.entries.values(), key=lambda e: e.name)
    polls = combined(env, "all scoreboard polls", ("poll scoreboard", "poll wall", "poll dashboard"))
    seat_polls = combined(env, "all seat polls", "poll seat")
    saves = stats.entries.get(("save hand", "POST"))
    errors = stats.total.num_failures + arrival.total.num_failures
    limited = sum(NIGHT.limited.values())
    physical, digital = len(NIGHT.physical()), len(NIGHT.digital())
    screens = (
        f"{args.screens} TV screens on the tournament's wall + the organizer's dashboard"
        if NIGHT.watch
        else (f"{args.screens} TV screens")
    )
    print(
        f"\n== Club night: {physical} {'tournament ' if NIGHT.watch else ''}tables × 4 phones, {digital} digital "
        f"(1 person + 3 computers), {screens}; a hand every ~{args.hand_every:g} s per table =="
    )
    database = "SQLite (WAL)" if args.sqlite else "PostgreSQL"
    print(
        f"gunicorn {os.environ.get('CLUB_GUNICORN', GUNICORN)}, {database}, Redis for the rate limits (on), all from 127.0.0.1"
    )
    a = arrival.total
    print(
        f"arrival ({arrival.seconds:.0f} s: first pages, static files, the service worker's copies): "
        f"{a.num_requests} requests, p50 {ms(a, 0.5)} ms, p95 {ms(a, 0.95)} ms, p99 {ms(a, 0.99)} ms, "
        f"{a.num_failures} errors; then the evening ({elapsed / 60:.1f} min):"
    )
    print(
        f"{'request':<44} {'n':>7} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} "
        f"{'KB':>7} {'wire KB':>7} {'errors':>6}"
    )
    wire = {e.name: NIGHT.wire[e.name] for e in rows}
    wire[polls.name] = sum(
        v for k, v in wire.items() if k.startswith(("poll scoreboard", "poll wall", "poll dashboard"))
    )
    wire[seat_polls.name] = sum(v for k, v in wire.items() if k.startswith("poll seat"))
    wire[stats.total.name] = sum(NIGHT.wire.values())
    for e in [*rows, polls, seat_polls, stats.total]:
        if e is polls or e is stats.total:
            print("-" * 108)
        if not e.num_requests and not e.num_failures:
            continue
        rps = e.num_requests / elapsed if elapsed else 0
        on_wire = wire.get(e.name, 0) / max(1, e.num_requests) / 1024
        print(
            f"{e.name or 'all requests':<44} {e.num_requests:>7} {rps:>7.1f} {ms(e, 0.5):>7} {ms(e, 0.95):>7} "
            f"{ms(e, 0.99):>7} {e.avg_content_length / 1024:>7.1f} {on_wire:>7.1f} {e.num_failures:>6}"
        )
    print("KB: the average answer as read; wire KB: as sent (compressed, where the server compresses)")
    if stats.errors or arrival.errors:
        print("errors:")
        for error in sorted([*arrival.errors, *stats.errors.values()], key=lambda e: -e.occurrences)[:10]:
            print(f"  {error.occurrences:>5} × {error.name}: {error.error}")
    save_p95 = ms(saves, 0.95) if saves else None
    targets = [
        ("errors", "0", str(errors), errors == 0),
        ("429s (every phone keeps a person's pace: all unearned)", "0", str(limited), limited == 0),
        ("save hand p95", "< 150 ms", f"{save_p95} ms", save_p95 is not None and save_p95 < 150),
        ("scoreboard poll p95", "< 50 ms", f"{ms(polls, 0.95)} ms", polls.num_requests > 0 and ms(polls, 0.95) < 50),
        ("integrity", "0 problems", str(len(problems)), not problems),
    ]
    for kind in ("wall", "dashboard"):
        drawn = stats.entries.get((f"poll {kind} · 200", "GET"))
        if NIGHT.watch and drawn is not None and drawn.num_requests:
            p95 = ms(drawn, 0.95)
            targets.append((f"{kind} redrawn (a table changed) p95", "≤ 100 ms", f"{p95} ms", p95 <= 100))
    print(f"\n{'target':<56} {'wanted':>10} {'got':>10}")
    for name, wanted, got, met in targets:
        print(f"{name:<56} {wanted:>10} {got:>10}  {'ok' if met else 'MISSED'}")
    if limited:
        print("429s by request: " + ", ".join(f"{k} {v}" for k, v in NIGHT.limited.most_common()))
    print(
        f"integrity: {counts['tables']} tables; physical: {counts['physical hands']} hands stored, "
        f"{counts['acknowledged']} saves acknowledged, {counts['refused']} second-phone saves refused (409), "
        f"{counts['in flight at the end']} unanswered at the end; digital: {counts['digital hands']} hands played"
    )
    for p in problems[:10]:
        print(f"  {p}")
    print(
        "CPU over the evening (share of one core): "
        + ", ".join(f"{k} {v:.0f} s ({v / elapsed:.0%})" for k, v in evening.cpu.items())
        + f"; the machine's load average {evening.load[0]:.1f} → {evening.load[1]:.1f} ({os.cpu_count()} cores)"
    )
    unchanged = sorted(evening.probed.get("204", []))
    if unchanged:
        print(
            f"one more phone polling from a process of its own (bench/probe.py): {len(unchanged)} unchanged polls, "
            f"p50 {unchanged[len(unchanged) // 2]:.0f} ms, p95 {unchanged[int(len(unchanged) * 0.95)]:.0f} ms "
            "(against the load generator's figure above: the time its own process adds)"
        )
    if env.runner is not None and env.runner.cpu_warning_emitted:
        print("note: locust's own process went over 90% CPU: the client, not only the server, was short of time")
    return all(met for *_x, met in targets)


def run(args: argparse.Namespace) -> bool:
    global NIGHT
    out = Path(args.out or tempfile.mkdtemp(prefix="club-night-"))
    out.mkdir(parents=True, exist_ok=True)
    server = Server(out, None if args.sqlite else args.postgres_url)
    try:
        server.start_redis()
        flask(server.env, "init-db")
        physical = args.tables - args.digital
        tables = set_tables(server.env, physical, args.digital, args.tournament)
        NIGHT = Night(tables, deals(120, random.Random(1)), args.hand_every)
        if args.tournament and TOURNAMENT_LINKS:
            NIGHT.organizer, NIGHT.watch = TOURNAMENT_LINKS
        server.start_gunicorn()
        Scorer.fixed_count, Watcher.fixed_count = physical, 3 * physical
        Person.fixed_count = args.digital
        walls = args.screens if NIGHT.watch else 0
        Screen.fixed_count, Wall.fixed_count, Organizer.fixed_count = (
            args.screens - walls,
            walls,
            int(bool(NIGHT.watch)),
        )
        classes = [c for c in (Scorer, Watcher, Person, Screen, Wall, Organizer) if c.fixed_count]
        users = sum(c.fixed_count for c in classes)
        env = Environment(user_classes=classes, host=server.base)
        env.events.user_error.add_listener(  # a phone's script that broke is an error too
            lambda user_instance, exception, tb: env.stats.log_error("SCRIPT", type(user_instance).__name__, exception)
        )
        runner = env.create_local_runner()
        print(f"{users} phones and screens on {server.base}; logs in {out}", flush=True)
        began = time.monotonic()
        runner.start(users, spawn_rate=args.spawn_rate)
        while (runner.state != STATE_RUNNING or NIGHT.ready < users) and time.monotonic() < began + 300:
            gevent.sleep(0.2)  # until every phone is on, its first page in
        gevent.sleep(ARRIVAL)  # the evening proper begins
        arrival = Arrival(time.monotonic() - began, StatsEntry(env.stats, "", ""), list(env.stats.errors.values()))
        arrival.total.extend(env.stats.total)
        env.stats.reset_all()
        NIGHT.wire.clear()
        began_evening, cpu, load = time.monotonic(), server.cpu(), os.getloadavg()[0]
        probe = subprocess.Popen(  # the same poll, timed outside the load generator (bench/probe.py)
            [
                sys.executable,
                str(ROOT / "bench/probe.py"),
                f"{server.base}/t/{(NIGHT.physical() or NIGHT.tables)[0].watch}",
                str(args.minutes * 60),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        gevent.sleep(args.minutes * 60)
        NIGHT.closing = True  # the hands being entered are finished, no new one begun
        deadline = time.monotonic() + 60
        while NIGHT.entering and time.monotonic() < deadline:
            gevent.sleep(0.2)
        runner.quit()
        cpu = {k: v - cpu.get(k, 0.0) for k, v in server.cpu().items()}
        probed = json.loads(probe.communicate(timeout=60)[0] or "{}")
        evening = Evening(time.monotonic() - began_evening, cpu, (load, os.getloadavg()[0]), probed)
        problems, counts = integrity(server, tables)
        return report(env, args, arrival, evening, problems, counts)
    finally:
        server.stop()
        if not args.out:
            shutil.rmtree(out, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="the evening, once every phone is on (default 10)")
    parser.add_argument("--tables", type=int, default=64, help="tables in all (default 64)")
    parser.add_argument("--digital", type=int, default=8, help="of them digital, 1 person + 3 computers (default 8)")
    parser.add_argument("--screens", type=int, default=2, help="TV screens showing read-only links (default 2)")
    parser.add_argument("--hand-every", type=float, default=120.0, help="seconds between a table's hands (default 120)")
    parser.add_argument("--spawn-rate", type=float, default=20.0, help="phones switched on per second (default 20)")
    parser.add_argument("--quick", action="store_true", help="to try it: 2 minutes, 16 tables (2 digital), 1 screen")
    parser.add_argument("--out", help="keep the logs and the export in this folder (default: a temporary one)")
    parser.add_argument("--sqlite", action="store_true", help="on SQLite (WAL mode) instead of PostgreSQL")
    parser.add_argument(
        "--tournament", action="store_true", help="the physical tables are round 1 of a tournament; walls on the TVs"
    )
    parser.add_argument(
        "--postgres-url",
        default=os.environ.get("PG_URL", "postgresql+psycopg://companion:companion@127.0.0.1:5432/companion"),
    )
    args = parser.parse_args()
    if args.quick:
        args.minutes, args.tables, args.digital, args.screens = 2.0, 16, 2, 1
    if not 0 <= args.digital <= args.tables:
        parser.error("--digital must be between 0 and --tables")
    sys.exit(0 if run(args) else 1)


if __name__ == "__main__":
    main()
