"""The match record as a state machine: random sequences of writes through
the services (no HTTP), checked after every step against a model kept here
and against a replay from scratch by the rules engine.

Steps (each one service call inside ``transaction()``, as a view makes it):
tables created, in a group or not (some refused: a name twice, a bad
option, a dealer out of range), and a creation form sent again (Back, then
Create: it stores nothing and answers what it made); hands entered by cards (closer hands built
to close, to just miss, or random: Chinchones, −10s, illegal closes that must
be refused), by points (some impossible) and mixed (cards for some, typed points for the others), and
several in a row; corrections of any earlier hand (``replaces=``); re-entries
bought or declined; undo and restore; settings changes; rematches (two calls,
one table); deleting a table; groups: members (renamed, keeping earlier
names), tables joining, payments (some refused or replayed) and undoing
them, new seasons, "play again"; a digital table against a computer player
with seeded deals (moves, bad moves, the next deal, a hand the owner voids).  Forms are now and then
stale, forged or replayed.

After every step:

- every table's active hands and re-entries are the model's, numbered 1..n,
  with the model's dealer and version;
- its totals, who is out, re-entries, pot, winners and who may still buy
  back in equal ``replay_match`` over SPEC §8 events built here from the raw
  rows, and equal the scoreboard's ``standing``; the summary stored with
  the table (what a tournament's pages read) is that standing's, at the
  table's version;
- every group's standings (each season) and balances equal a recomputation
  written here from the raw rows of its members, tables and payments, and
  the fewest payments settle every balance;
- a refused step (a ``ServiceError``/``ChinchonError``, ``StaleError`` or
  ``AlreadySaved``) left every row of every table exactly as it was, and a
  step is refused exactly when the model says it must be.

``bench/soak_record.py`` runs the same machine for longer.  The focused tests
at the end pin the defects it found.
"""

from __future__ import annotations

import copy
import functools
import itertools
import json
import os
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from flask import current_app
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test
from openskill.models import PlackettLuce
from sqlalchemy import delete, select, text

from companion.bots import review as reviews
from companion.bots.reentry import buys_back
from companion.extensions import db
from companion.models import EntryMode, GameTable, Group, Hand, now
from companion.rules import (
    JOKER,
    SUITS,
    Card,
    ChinchonError,
    HandResult,
    MatchError,
    MatchState,
    PlayerResult,
    Rules,
    best_melds,
    check_close,
    format_cards,
    get_rules,
    replay_match,
    settle_hand,
)
from companion.rules.close import chinchon_score, max_hand_points, possible_closer_scores
from companion.rules.game import HandGame, Phase, move_to_json
from companion.rules.names import name_key, normalize_name
from companion.rules.variants import AUTO
from companion.services import clock as clock_service
from companion.services import groups as group_service
from companion.services import hands as hand_service
from companion.services import play
from companion.services import reentries as reentry_service
from companion.services import seats as seat_service
from companion.services import statistics as statistics_service
from companion.services import summary as summary_service
from companion.services import tables as table_service
from companion.services import undo as undo_service
from companion.services.nextstep import TABLE_PHONE, Asker, Phone, next_step
from companion.services.rematch import rematch
from companion.services.standing import standing
from companion.services.unit import AlreadySaved, StaleError, transaction
from tests.positions import fixed

#: The test run's share (``make test``); bench/soak_record.py runs longer.
EXAMPLES = int(os.environ.get("RECORD_MODEL_EXAMPLES", "20"))
STEPS = int(os.environ.get("RECORD_MODEL_STEPS", "40"))

NAMES = ["Ana", "Ben", "Carla", "Dani"]
#: Rule sets the tables play: low targets so that players go out (and buy
#: back in) within a few hands; stakes so that groups count money.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {"target": 40, "stake": "1.5"}),
    ("classic", {"target": 60, "chinchon": -100, "eliminate": "reach", "stake": 1}),
    ("fournier", {"target": 50, "stake": 2, "reentries": 2}),
    ("italy", {"target": 40, "stake": "0.35"}),
    ("classic", {"target": 100}),
    ("classic", {"target": 50, "jokers": 1, "reentries": None, "stake": "0.10"}),
]
#: Overrides a settings form may send mid-match; the last two are refused outright.
SETTINGS = [
    {"target": 30},
    {"target": 70},
    {"target": 150},
    {"reentries": 0},
    {"reentries": None},
    {"reentry_min_players": 2},
    {"stake": "0.5"},
    {"eliminate": "reach"},
    {"close_rule": "points"},
    {"court_values": "ten"},  # scoring: counts from the next hand on
    {"all_combined_bonus": -15},
    {"jokers": 2},  # the pack: never changes mid-match
    {"target": 0},
    {"stake": "-1"},
]
#: Members as typed; the last two are refused (the same name twice, too few).
MEMBER_LISTS = [["Ana", "ben", "Carla"], [" Dani ", "Eva", "Ana"], ["Dani", "ana", "Ana"], ["Zoe"]]
#: Closer hands built to close (or to just miss), plus plain random ones.
PATTERNS = ["one_low", "full", "two_low", "random", "high", "one_low", "chinchon"]
MAX_TABLES = 7
REFUSED = object()
#: What the steps did, ``(step, outcome)`` → count (bench/soak_record.py prints it).
STATS: Counter[tuple[str, str]] = Counter()


# -- the model ---------------------------------------------------------------------------------
@dataclass
class MHand:
    number: int
    points: dict[int, int]
    closer: int
    chinchon: bool
    wins_match: bool
    dealer: int | None  # None: not modelled (digital tables)


@dataclass
class MReentry:
    after_hand: int
    seat: int
    declined: bool


@dataclass
class MTable:
    id: int
    names: list[str]
    kinds: list[str]
    preset: str
    overrides: dict[str, Any]
    first_dealer: int
    group: int | None = None
    version: int = 1
    hands: list[MHand] = field(default_factory=list)
    reentries: list[MReentry] = field(default_factory=list)
    #: Undone hands, the last undone last (the one "restore" brings back).
    undone: list[MHand] = field(default_factory=list)
    hand_submissions: set[str] = field(default_factory=set)
    reentry_submissions: set[str] = field(default_factory=set)
    rematch: int | None = None
    rematch_of: int | None = None
    pace: play.Pace | None = None  # digital tables
    #: Deals the owner voided (digital tables).
    voided: set[int] = field(default_factory=set)
    #: When the table was made, in the model's clock.
    made: int = 0
    #: A second phone following a digital game (its player link): the poll
    #: marker of the page it shows, and what it showed (deal, its version, the table's).
    seen_marker: str | None = None
    seen: tuple[int, int, int, str] | None = None
    #: A digital table on a phone each: the people's seats the computer plays now.
    devices: bool = False
    stand_ins: set[int] = field(default_factory=set)
    #: Its turn clock ("off", "relaxed", "quick"): a phone each only.
    clock: str = "off"
    #: The one-time id of the form that created it (None: made without a form).
    form: str | None = None

    @property
    def digital(self) -> bool:
        return self.pace is not None

    def played_by_computer(self, seat: int) -> bool:
        return self.kinds[seat] != "human" or seat in self.stand_ins

    @property
    def rules(self) -> Rules:
        return rules_of(self.preset, self.overrides)


@functools.cache
def _rules(preset: str, overrides: str) -> Rules:
    return get_rules(preset, **json.loads(overrides))


def rules_of(preset: str, overrides: dict) -> Rules:
    """``get_rules``, remembered: the model asks for the same rules at every step."""
    return _rules(preset, json.dumps(overrides, sort_keys=True))


@dataclass
class MGroup:
    id: int
    members: list[str]
    #: Each member's earlier names, by position (a rename keeps the row).
    aliases: list[list[str]] = field(default_factory=list)
    #: When each season started, in the model's clock (:attr:`RecordMachine.clock`).
    season_starts: list[int] = field(default_factory=list)
    #: ``[id, payer, payee, cents, active]`` in the order recorded.
    payments: list[list] = field(default_factory=list)
    submissions: list[str] = field(default_factory=list)
    #: The one-time id of the form that created it (None: made without a form).
    form: str | None = None

    @property
    def seasons(self) -> int:
        return len(self.season_starts)

    def season_of(self, t: MTable) -> int:
        """A match counts in the season in which its table was made (the first for older tables)."""
        number = 1
        for i, start in enumerate(self.season_starts):
            if start <= t.made:
                number = i + 1
        return number


def identities(members: list[tuple[str, list[str]]]) -> dict[str, str]:
    """Name key → the member's name now, for every member's current and
    earlier names (a current name wins over somebody else's earlier one)."""
    known = {name_key(a): name for name, aliases in members for a in aliases}
    known.update({name_key(name): name for name, _aliases in members})
    return known


def counted_names(known: dict[str, str], names: list[str]) -> list[str]:
    """A table's players as a group counts them: a member under the name they
    have now, anybody else as typed; two seats are never one person (the seat
    typed with the current name, else the first, is the member)."""
    shown = [known.get(name_key(n), n) for n in names]
    for name in set(shown):
        seats = [i for i, s in enumerate(shown) if s == name]
        if len(seats) > 1:
            keep = next((i for i in seats if name_key(names[i]) == name_key(name)), seats[0])
            for i in seats:
                if i != keep:
                    shown[i] = names[i]
    return shown


def hand_events(state: MatchState | None, points: dict[str, int], closer: str | None) -> list[dict]:
    """The SPEC §8 events one stored hand adds to the match as it stands: its
    points, then the Chinchón when it wins the match (``closer``).  A
    Chinchón ends the match at once with the closer the winner (SPEC §6):
    where the points alone already end it so, no event follows them (an event
    after the end is refused); where they cannot count (they name a player
    who is out, or end the match otherwise), the hand is the Chinchón alone."""
    scored = {"hand": points}
    if closer is None:
        return [scored]
    chinchon = {"chinchon": closer}
    if state is None:
        return [scored, chinchon]
    trial = copy.deepcopy(state, {id(state.rules): state.rules})
    try:
        trial.apply(scored)
        if trial.finished:
            return [scored] if trial.winners == [closer] else [chinchon]
        trial.apply(chinchon)
    except MatchError:
        return [chinchon]
    return [scored, chinchon]


def spec_events(names, rules: Rules, hands, reentries) -> list[dict]:
    """The events of a record: each hand ``(number, {name: points}, Chinchón
    winner or None)`` (:func:`hand_events`), then the re-entries after it
    (``{number: [name]}``)."""
    state = MatchState.start(names, rules)
    out: list[dict] = []
    live = True

    def push(event: dict) -> None:
        nonlocal live
        out.append(event)
        if live:
            try:
                state.apply(event)
            except MatchError:
                live = False  # replay_match names this event

    for number, points, chinchon in hands:
        for event in hand_events(state if live else None, points, chinchon):
            push(event)
        for name in reentries.get(number, ()):
            push({"reentry": name})
    return out


def model_events(t: MTable, hands=None, reentries=None, rules: Rules | None = None) -> list[dict]:
    names = t.names
    hands = t.hands if hands is None else hands
    reentries = t.reentries if reentries is None else reentries
    after: dict[int, list[str]] = defaultdict(list)
    for r in reentries:
        if not r.declined:
            after[r.after_hand].append(names[r.seat])
    return spec_events(names, rules or t.rules, [model_hand(t, h) for h in hands], after)


def model_hand(t: MTable, h: MHand) -> tuple[int, dict[str, int], str | None]:
    return h.number, {t.names[s]: p for s, p in h.points.items()}, t.names[h.closer] if h.wins_match else None


def replay(t: MTable, hands=None, reentries=None, rules: Rules | None = None) -> MatchState:
    """The model's match (raises MatchError where the engine refuses it)."""
    return replay_match(t.names, model_events(t, hands, reentries, rules), rules or t.rules)


def seats_in(t: MTable, state: MatchState) -> list[int]:
    return [s for s, n in enumerate(t.names) if n not in state.out]


def declined_now(t: MTable) -> set[int]:
    last = len(t.hands)
    return {r.seat for r in t.reentries if r.declined and last and r.after_hand == last}


def pending(t: MTable, state: MatchState) -> list[int]:
    """Seats that went out in the last hand, may buy back in and have not said no."""
    return [t.names.index(n) for n in state.can_reenter if t.names.index(n) not in declined_now(t)]


def next_dealer(t: MTable, state: MatchState) -> int:
    if not t.hands:
        return t.first_dealer
    seats = seats_in(t, state) or list(range(len(t.names)))
    last = t.hands[-1].dealer
    later = [s for s in seats if s > last]
    return later[0] if later else seats[0]


def after_edit(t: MTable, hands: list[MHand]) -> list[MReentry]:
    """The re-entries kept after an edit: one the rules no longer allow is
    undone, and so is a "no" from a player who could not buy back in right
    after that hand.  Raises MatchError when a later hand no longer replays."""
    names = t.names
    state = MatchState.start(names, t.rules)
    after: dict[int, list[MReentry]] = defaultdict(list)
    for r in t.reentries:
        after[r.after_hand].append(r)
    voided: set[int] = set()
    for h in hands:
        _number, points, closer = model_hand(t, h)
        for i, event in enumerate(hand_events(state, points, closer)):
            state.apply(event)
            if i == 0:
                voided.update(id(r) for r in after[h.number] if r.declined and not state.can_reentry(names[r.seat]))
        for r in after[h.number]:
            if r.declined:
                continue
            if not state.can_reentry(names[r.seat]):
                voided.add(id(r))
                continue
            state.apply({"reentry": names[r.seat]})
    kept = [r for r in t.reentries if id(r) not in voided]
    replay(t, hands, kept)
    return kept


def drop_misfits(t: MTable, hands: list[MHand]) -> tuple[list[MHand], list[MReentry], list[MHand]]:
    """A correction that undoes the later hands no longer fitting: from the
    first hand that does not replay on, those hands and the re-entries after
    them go; returns the hands kept, the re-entries kept and the hands undone."""
    for i in range(1, len(hands) + 1):
        try:
            after_edit(t, hands[:i])
        except MatchError:
            first = hands[i - 1].number
            before = MTable(**{**t.__dict__, "reentries": [r for r in t.reentries if r.after_hand < first]})
            return hands[: i - 1], after_edit(before, hands[: i - 1]), hands[i - 1 :]
    raise AssertionError("no hand misfits")


def cents(amount: Decimal) -> int:
    return int((Decimal(amount) * 100).to_integral_value(rounding=ROUND_HALF_UP))


# -- cards ---------------------------------------------------------------------------------------
class Pack:
    """What is left of a shuffled pack, to build hands from."""

    def __init__(self, rnd, rules: Rules, players: int) -> None:
        self.rnd = rnd
        self.rules = rules
        self.left = [*rules.pack.cards() * rules.copies(players), *[JOKER] * rules.jokers]
        rnd.shuffle(self.left)

    def take(self, cards: list[Card]) -> list[Card]:
        for c in cards:
            self.left.remove(c)
        return cards

    def run(self, length: int) -> list[Card] | None:
        ranks = self.rules.pack.ranks
        options = [
            [Card(ranks[i + j], s) for j in range(length)]
            for s in SUITS
            for i in range(len(ranks) - length + 1)
            if all(Card(ranks[i + j], s) in self.left for j in range(length))
        ]
        return self.take(self.rnd.choice(options)) if options else None

    def set(self, size: int) -> list[Card] | None:
        options = []
        for rank in self.rules.pack.ranks:
            suits = [s for s in SUITS if Card(rank, s) in self.left]
            if len(suits) >= size:
                options.append([Card(rank, s) for s in self.rnd.sample(suits, size)])
        return self.take(self.rnd.choice(options)) if options else None

    def valued(self, low: int, high: int) -> list[Card] | None:
        options = [c for c in self.left if not c.is_joker and low <= self.rules.card_values[c] <= high]
        return self.take([self.rnd.choice(options)]) if options else None

    def cards(self, n: int) -> list[Card]:
        return self.take(self.left[-n:]) if n else []

    def closer_hand(self, pattern: str) -> list[Card]:
        """Eight cards: melds built to close (all seven combined, one low loose
        card, a Chinchón), two high loose cards (mostly illegal), or random."""
        most = self.rules.close_max
        builds = {
            "chinchon": lambda: [self.run(7)],
            "full": lambda: self.rnd.choice(
                [
                    lambda: [self.run(4), self.set(3)],
                    lambda: [self.run(3), self.run(4)],
                    lambda: [self.set(4), self.run(3)],
                    lambda: [self.set(3), self.set(4)],
                ]
            )(),
            "one_low": lambda: [self.run(3), self.set(3), self.valued(1, max(most, 1))],
            "two_low": lambda: [self.run(3), self.set(3), self.valued(1, 2), self.valued(1, 2)],
            "high": lambda: [self.run(3), self.set(3), self.valued(6, 99), self.valued(6, 99)],
            "random": lambda: [],
        }
        hand: list[Card] = []
        for part in builds[pattern]():
            hand.extend(part or [])
        return hand + self.cards(8 - len(hand))

    def others(self, seats: list[int], sizes: list[int]) -> dict[int, list[Card]]:
        return {s: self.cards(n) for s, n in zip(seats, sizes, strict=True)}


@dataclass
class Carded:
    """A hand's cards as a form sends them, and the engine's reading of it."""

    data: hand_service.HandInput
    result: HandResult | None = None
    order: list[int] = field(default_factory=list)
    #: Players dealt 6 or 8 cards whom the table confirmed as a mis-draw.
    confirmed: set[int] = field(default_factory=set)

    def unconfirmed(self) -> bool:
        """A player entered with 6 or 8 cards the table did not confirm: refused."""
        data = self.data
        return any(len(cards) != 7 and s not in self.confirmed for s, cards in data.cards.items() if s != data.closer)

    def entry(self) -> hand_service.HandEntry:
        """The hand as the entry page hands it to the service: card tokens
        for the players entered with cards, typed points for the others."""
        data = self.data
        typed = {s: str(p) for s, p in data.points.items() if s not in data.cards}
        return hand_service.HandEntry(
            closer=data.closer,
            mode=EntryMode.POINTS if not data.cards else EntryMode.CARDS,
            cards={s: [str(c) for c in cards] for s, cards in data.cards.items()},
            discard=str(data.discard) if data.discard is not None else None,
            points=typed,
            chinchon=data.chinchon and not data.cards,
            first_round=data.first_round,
            misdraws=set(self.confirmed),
        )


# -- the raw record --------------------------------------------------------------------------------
def changes(before: dict[str, list[dict]], after: dict[str, list[dict]]) -> dict[tuple[str, int], dict]:
    """What differs between two readings of the record: ``(table, id)`` → the
    changed columns ``{column: (before, after)}``, or ``{"row": "added"}`` / ``"removed"``."""
    out: dict[tuple[str, int], dict] = {}
    for name in before:
        old = {next(iter(r.values())): r for r in before[name]}
        new = {next(iter(r.values())): r for r in after[name]}
        for key in sorted(old.keys() | new.keys()):
            if key not in new or key not in old:
                out[name, key] = {"row": "added" if key in new else "removed"}
            elif old[key] != new[key]:
                out[name, key] = {c: (v, new[key][c]) for c, v in old[key].items() if v != new[key][c]}
    return out


def raw_rows() -> dict[str, list[dict]]:
    """Every row of every table, in primary key order."""
    return {
        t.name: [dict(r._mapping) for r in db.session.execute(select(t).order_by(*t.primary_key.columns))]
        for t in db.metadata.sorted_tables
    }


class Raw:
    """The record as stored, read without the models' helpers or the services."""

    def __init__(self, rows: dict[str, list[dict]]) -> None:
        self.rows = rows
        self.tables = {r["id"]: r for r in rows["game_tables"]}
        self.players: dict[int, list[dict]] = defaultdict(list)
        for p in sorted(rows["players"], key=lambda p: (p["table_id"], p["seat"])):
            self.players[p["table_id"]].append(p)
        self.hands: dict[int, list[dict]] = defaultdict(list)
        for h in rows["hands"]:
            self.hands[h["table_id"]].append(h)
        self.entries: dict[int, list[dict]] = defaultdict(list)
        for e in rows["entries"]:
            self.entries[e["hand_id"]].append(e)
        self.reentries: dict[int, list[dict]] = defaultdict(list)
        for r in rows["reentries"]:
            self.reentries[r["table_id"]].append(r)

    def names(self, tid: int) -> list[str]:
        return [p["name"] for p in self.players[tid]]

    def rules(self, tid: int) -> Rules:
        row = self.tables[tid]
        return rules_of(row["preset"], row["overrides"])

    def active_hands(self, tid: int) -> list[dict]:
        hands = [h for h in self.hands[tid] if h["undone_at"] is None and h["replaced_by_id"] is None]
        return sorted(hands, key=lambda h: h["number"])

    def points(self, hand: dict) -> dict[int, int]:
        return {e["seat"]: e["points"] for e in self.entries[hand["id"]]}

    def active_reentries(self, tid: int) -> list[dict]:
        return [r for r in self.reentries[tid] if r["undone_at"] is None]

    def events(self, tid: int) -> list[dict]:
        names = self.names(tid)
        rows = [
            (
                h["number"],
                {names[s]: p for s, p in self.points(h).items()},
                names[h["closer_seat"]] if h["wins_match"] else None,
            )
            for h in self.active_hands(tid)
        ]
        after: dict[int, list[str]] = defaultdict(list)
        for r in self.active_reentries(tid):
            if not r["declined"]:
                after[r["after_hand"]].append(names[r["seat"]])
        return spec_events(names, self.rules(tid), rows, after)

    def match(self, tid: int) -> MatchState:
        return replay_match(self.names(tid), self.events(tid), self.rules(tid))


def finishing_places(raw: Raw, tid: int) -> dict[int, int] | None:
    """Each seat's place in a finished match between people, replayed event by
    event: the winners; the players still in, lower total first; those out,
    the last out first (lower total first among the same hand); equal keys
    share a place; a person whose seat the computer still plays (they left)
    last.  None for a match not finished or with a computer player."""
    players = raw.players[tid]
    if any(p["kind"] != "human" for p in players):
        return None
    names = raw.names(tid)
    state = MatchState.start(names, raw.rules(tid))
    out_at: dict[str, int] = {}
    for i, event in enumerate(raw.events(tid)):
        before = set(state.out)
        state.apply(event)
        out_at.update({n: i for n in state.out if n not in before})
    if not state.finished:
        return None

    def key(name: str) -> tuple[int, int, int]:
        if name in state.winners:
            return (0, 0, 0)
        if name not in state.out:
            return (1, 0, state.totals[name])
        return (2, -out_at[name], state.totals[name])

    left = {p["seat"] for p in players if p["stand_in_since"] is not None}
    keys = {seat: key(name) for seat, name in enumerate(names) if seat not in left}
    places = {seat: 1 + sum(other < k for other in keys.values()) for seat, k in keys.items()}
    return places | dict.fromkeys(left, len(keys) + 1)


def wipe() -> None:
    """An empty record, ids from 1 again (so seeded deals replay the same)."""
    db.session.rollback()
    if db.engine.dialect.name == "postgresql":
        names = ", ".join(t.name for t in db.metadata.sorted_tables)
        db.session.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    else:
        for t in reversed(db.metadata.sorted_tables):
            db.session.execute(delete(t))
    db.session.commit()
    db.session.expunge_all()


# -- the machine ---------------------------------------------------------------------------------------
def often(data, share: int = 8) -> bool:
    """True in about ``share`` cases out of ten (hypothesis draws the ends of
    a range more often than the middle: it is a weight, not a probability)."""
    return data.draw(st.integers(0, 9)) < share


def rarely(data) -> bool:
    """Now and then: a form that is stale, replayed, garbled or refused."""
    return not often(data, 9)


class RecordMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        wipe()
        self.tables: dict[int, MTable] = {}
        self.groups: dict[int, MGroup] = {}
        self.counter = 0
        self.clock = 0
        self.refusal: Exception | None = None
        self.last_rows: dict[str, list[dict]] | None = None
        # Every program starts with a group and a table playing for it.
        self.new_group(MEMBER_LISTS[0], "1")
        self.create_table("classic", {"target": 40, "stake": "1.5"}, NAMES, 0, next(iter(self.groups.values())))

    # -- helpers -------------------------------------------------------------------------------------
    def fresh(self) -> str:
        self.counter += 1
        return f"form-{self.counter}"

    def form_id(self) -> str:
        """A creation form's one-time id, as the pages make them (32 hex digits)."""
        self.counter += 1
        return f"{self.counter:032x}"

    def row(self, t: MTable) -> GameTable:
        table = db.session.get(GameTable, t.id)
        assert table is not None
        return table

    def attempt(self, call, reasons: set[str], what: str):
        """Run one service call inside the unit of work.  A refusal must leave
        every row as it was, and come exactly when the model expects one
        (``reasons``: why it must be refused, "stale", "saved" or "rule")."""
        before = self.rows()
        step = re.sub(r" (at|of)( digital)? table \d+| \d+", "", what)
        try:
            with transaction():
                result = call()
        except (StaleError, AlreadySaved, ChinchonError) as error:
            self.refusal = error
            kind = "stale" if isinstance(error, StaleError) else "saved" if isinstance(error, AlreadySaved) else "rule"
            key = getattr(error, "params", {}).get("key", "")
            STATS[step, f"refused ({kind}{' ' + key if key else ''})"] += 1
            self.last_rows = None
            assert self.rows() == before, f"{what}: refused ({error!r}) but changed {changes(before, self.rows())}"
            assert reasons, f"{what}: refused ({kind}: {error!r}) where the model accepts it"
            assert kind in reasons, f"{what}: refused as {kind} ({error!r}); the model expects {sorted(reasons)}"
            return REFUSED
        self.last_rows = None
        if reasons:
            raise AssertionError(f"{what}: accepted where the model expects a refusal ({sorted(reasons)})")
        STATS[step, "done"] += 1
        return result

    def unchanged(self, call, what: str, touching: tuple[str, int] | None = None):
        """A call that must store nothing (a replayed form answered as
        before), but for the ``updated_at`` of the row ``touching`` names."""
        before = self.rows()
        with transaction():
            result = call()
        self.last_rows = None
        changed = changes(before, self.rows())
        if touching in changed and set(changed[touching]) == {"updated_at"}:
            del changed[touching]
        assert not changed, f"{what} changed {changed}"
        return result

    def rows(self) -> dict[str, list[dict]]:
        """Every row, read again only after a write: every write goes through
        :meth:`attempt` or :meth:`unchanged`, which forget the last reading."""
        if self.last_rows is None:
            self.last_rows = raw_rows()
        return self.last_rows

    def pick(self, data, tables: list[MTable], prefer=None) -> MTable:
        """A table (drawn by id, which reads well in a failing example), the preferred ones mostly."""
        preferred = [t.id for t in tables if prefer(t)] if prefer else []
        if preferred and often(data):
            return self.tables[data.draw(st.sampled_from(preferred))]
        return self.tables[data.draw(st.sampled_from([t.id for t in tables]))]

    def physical(self) -> list[MTable]:
        return [t for t in self.tables.values() if not t.digital]

    def playing(self, t: MTable) -> bool:
        state = replay(t)
        return not state.finished and not pending(t, state)

    def pick_version(self, data, t: MTable) -> tuple[int | None, bool]:
        kind = data.draw(st.sampled_from(["stale", "forged"])) if rarely(data) else "ok"
        if kind == "ok":
            return t.version, False
        if kind == "stale" and t.version > 1:
            return t.version - 1, True
        return data.draw(st.sampled_from([None, 0, -1, 2**31, t.version + 1])), True

    def pick_submission(self, data, t: MTable, used: set[str]) -> tuple[str, bool]:
        """A new id, one this table has seen (a replayed form), or another table's (fine)."""
        kind = data.draw(st.sampled_from(["replayed", "elsewhere"])) if rarely(data) else "new"
        if kind == "replayed" and used:
            return data.draw(st.sampled_from(sorted(used))), True
        elsewhere = sorted(set().union(*(o.hand_submissions for o in self.tables.values())) - used)
        if kind == "elsewhere" and elsewhere:
            return data.draw(st.sampled_from(elsewhere)), False
        return self.fresh(), False

    def pick_closer(self, data, t: MTable, seats: list[int]) -> int:
        if seats and often(data, 9):
            return data.draw(st.sampled_from(seats))
        return data.draw(st.integers(0, len(t.names) - 1))

    def create_table(
        self, preset, overrides, names, first_dealer, group: MGroup | None, form: str | None = None
    ) -> MTable | None:
        def call():
            table = table_service.create_table(
                name="Friday",
                preset=preset,
                overrides=overrides,
                players=names,
                first_dealer=first_dealer,
                suit_style="spanish",
                submission=form,
            )
            group_service.join(table, db.session.get(Group, group.id) if group else None)
            db.session.flush()
            return table.id

        reasons = set()
        try:
            rules = get_rules(preset, **overrides)
            MatchState.start(names, rules)
        except ChinchonError:
            reasons.add("rule")
        if not 0 <= first_dealer < len(names):
            reasons.add("rule")
        tid = self.attempt(call, reasons, "create a table")
        if tid is REFUSED:
            return None
        options = dict(overrides)
        if rules.decks == AUTO:
            options["decks"] = rules.copies(len(names))
        t = MTable(tid, list(names), ["human"] * len(names), preset, options, first_dealer, group.id if group else None)
        t.made = self.tick()
        t.form = form
        self.tables[tid] = t
        return t

    # -- hands -----------------------------------------------------------------------------------------
    def deal(self, data, t: MTable, seats: list[int], closer: int) -> Carded:
        """Real cards for everybody still in: the closer's built to close (or to miss)."""
        rules = t.rules
        pack = Pack(data.draw(st.randoms(use_true_random=False)), rules, len(t.names))
        eight = pack.closer_hand(data.draw(st.sampled_from(PATTERNS)))
        others = [s for s in seats if s != closer]
        sizes = [data.draw(st.sampled_from([7] * 12 + [6, 8])) for _ in others]
        cards = pack.others(others, sizes)
        discard = None
        if often(data, 5):
            discard = eight.pop(data.draw(st.integers(0, 7)))
        cards[closer] = eight
        first_round = data.draw(st.sampled_from([False] * 6 + [True]))
        # A mis-draw is stored once the table confirms it (the page asks); mostly it does.
        confirmed = {s for s, size in zip(others, sizes, strict=True) if size != 7 and often(data, 9)}
        return Carded(
            hand_service.HandInput(closer=closer, mode="cards", cards=cards, discard=discard, first_round=first_round),
            confirmed=confirmed,
        )

    def typed_points(self, data, t: MTable, seats: list[int], closer: int, rules: Rules) -> tuple[dict, bool, set]:
        """Points as typed, sometimes impossible; returns them, the Chinchón box and why they are refused."""
        possible = sorted(possible_closer_scores(rules))
        most = max_hand_points(rules)
        chinchon = data.draw(st.sampled_from([False] * 8 + [True]))
        points: dict[int, int] = {}
        for s in seats:
            if s == closer:
                if chinchon and often(data, 9):
                    points[s] = chinchon_score(rules)
                elif often(data, 9):
                    points[s] = data.draw(st.sampled_from(possible))
                else:
                    points[s] = data.draw(st.sampled_from([0, rules.close_max + 1, -5, -101]))
            elif often(data, 9):
                points[s] = data.draw(st.integers(0, min(most, 45)))
            else:
                points[s] = data.draw(st.sampled_from([-1, most + 1, most]))
        if seats and rarely(data) and rarely(data):
            del points[data.draw(st.sampled_from(seats))]
        return points, chinchon, self.points_refusals(points, chinchon, seats, closer, rules)

    @staticmethod
    def points_refusals(points, chinchon, seats, closer, rules) -> set[str]:
        possible = possible_closer_scores(rules)
        most = max_hand_points(rules)
        bad = any(s not in points for s in seats)
        bad = bad or any(
            (points[s] not in possible) if s == closer else not 0 <= points[s] <= most for s in seats if s in points
        )
        bad = bad or (chinchon and points.get(closer) != chinchon_score(rules))
        return {"rule"} if bad else set()

    def enter(self, data, mode: str, correcting: bool) -> bool:
        """One hand (or the correction of one) by cards, points or mixed, with the model's verdict."""
        tables = self.physical()
        if correcting:
            tables = [t for t in tables if t.hands]
        t = self.pick(data, tables, prefer=self.playing)
        if not correcting and not self.playing(t) and often(data, 7):
            return False  # mostly, nobody enters a hand where the match is over or waits for a decision
        old = t.hands[data.draw(st.integers(0, len(t.hands) - 1))] if correcting else None
        if old is None:
            state = replay(t)
            before = state
        else:
            state = replay(t)
            before = replay(
                t, [h for h in t.hands if h.number < old.number], [r for r in t.reentries if r.after_hand < old.number]
            )
        rules = t.rules
        seats = seats_in(t, before)
        closer = self.pick_closer(data, t, seats)
        reasons: set[str] = set()
        if old is None and (state.finished or pending(t, state)):
            reasons.add("rule")
        if closer not in seats:
            reasons.add("rule")
        carded = self.prepare(data, mode, t, seats, closer, rules, reasons)
        if carded is None:
            return False  # a mixed hand the entry page itself refuses (the closer cannot close)
        submission, replayed = self.pick_submission(data, t, t.hand_submissions)
        if replayed:
            reasons.add("saved")
        version, stale = self.pick_version(data, t)
        if stale:
            reasons.add("stale")
        expected = None
        hands = t.hands
        kept = t.reentries
        # A correction may undo the later hands that no longer fit along with it (kept to restore).
        drop_later = old is not None and data.draw(st.sampled_from([True, False]))
        dropped: list[MHand] = []
        if "rule" not in reasons:
            expected = self.expected_hand(t, carded, rules, old, state)
            if old is not None:
                hands = [expected if h is old else h for h in t.hands]
                try:
                    kept = after_edit(t, hands)
                except MatchError:
                    if drop_later:
                        hands, kept, dropped = drop_misfits(t, hands)
                    else:
                        reasons.add("rule")
            else:
                hands = [*t.hands, expected]

        # Whose buy-back the correction undoes: no longer out after the corrected hand (not with a dropped hand).
        unbought = sorted(
            t.names[r.seat]
            for r in t.reentries
            if not r.declined and all(r is not k for k in kept) and (not dropped or r.after_hand < dropped[0].number)
        )

        def call():
            table = self.row(t)
            replaces = None
            if old is not None:
                replaces = db.session.scalar(
                    select(Hand).where(
                        Hand.table_id == t.id,
                        Hand.number == old.number,
                        Hand.undone_at.is_(None),
                        Hand.replaced_by_id.is_(None),
                    )
                )
            saved = hand_service.save_hand(
                table, version, submission, carded.entry(), replaces=replaces, drop_later=drop_later
            )
            assert saved.dropped == tuple(h.number for h in dropped)
            assert sorted(saved.unbought) == unbought, (saved.unbought, unbought)
            return db.session.scalar(
                select(Hand.id).where(
                    Hand.table_id == t.id,
                    Hand.number == saved.number,
                    Hand.undone_at.is_(None),
                    Hand.replaced_by_id.is_(None),
                )
            )

        what = f"{f'correct hand {old.number}' if old else 'a hand'} by {mode} at table {t.id}"
        hand_id = self.attempt(call, reasons, what)
        if hand_id is REFUSED:
            return False
        t.hands, t.reentries = hands, kept
        t.undone.extend(reversed(dropped))  # the first dropped is the one a restore brings back
        if dropped:
            STATS["correction", f"undid {len(dropped)} later hand(s)"] += 1
        t.version += 1
        t.hand_submissions.add(submission)
        self.check_stored(hand_id, carded, mode)
        assert expected is not None
        STATS["stored a hand with", "a Chinchón" if expected.chinchon else str(expected.points[closer])] += 1
        if replay(t).finished:
            STATS["stored a hand with", "the match over"] += 1
        return True

    def prepare(self, data, mode, t, seats, closer, rules, reasons) -> Carded | None:
        if mode == "points":
            points, chinchon, bad = self.typed_points(data, t, seats, closer, rules)
            reasons |= bad
            return Carded(hand_service.HandInput(closer=closer, mode="points", points=points, chinchon=chinchon))
        carded = self.deal(data, t, seats, closer)
        if "rule" in reasons:
            return carded if mode == "cards" else None
        order = seats[seats.index(closer) :] + seats[: seats.index(closer)]
        if mode == "cards":
            hands = [list(carded.data.cards.get(s, [])) for s in seats]
            if carded.data.discard is not None:
                hands[seats.index(closer)].append(carded.data.discard)
            carded.result = settle_hand(hands, rules, seats.index(closer), carded.data.first_round)
            carded.order = seats
            if not carded.result.legal or carded.unconfirmed():
                reasons.add("rule")
            return carded
        # Mixed: the closer and some others by cards, the rest by typed points
        # (what the entry page hands the service, tables/entry.py ``judge``).
        typed = [s for s in order[1:] if not often(data, 4)] or order[-1:]
        if len(typed) == len(order):
            typed = typed[1:]  # the closer is always entered by cards
        by_cards = [s for s in order if s not in typed]
        if not typed:
            return None
        data_in = carded.data
        hands = [list(data_in.cards[s]) for s in by_cards]
        if data_in.discard is not None:
            hands[0].append(data_in.discard)
        if len(by_cards) == 1:
            verdict = check_close(hands[0], rules, data_in.first_round, data_in.discard)
            mine = PlayerResult(verdict.melds, (), verdict.deadwood, verdict.score or 0)
            result = HandResult(verdict, 0, (mine,) if verdict.legal else None)
        else:
            result = settle_hand(hands, rules, 0, data_in.first_round)
        if not result.legal:
            return None
        points = {s: r.points for s, r in zip(by_cards, result.results or (), strict=True)}
        most = max_hand_points(rules)
        for s in typed:
            points[s] = data.draw(st.integers(0, min(most, 45))) if often(data, 9) else most + 1
        data_in.mode = "points"
        data_in.points = points
        data_in.chinchon = result.chinchon
        data_in.cards = {s: data_in.cards[s] for s in by_cards}
        reasons |= self.points_refusals(points, result.chinchon, seats, closer, rules)
        if carded.unconfirmed():
            reasons.add("rule")
        carded.result, carded.order = result, by_cards
        return carded

    def expected_hand(self, t: MTable, carded: Carded, rules: Rules, old: MHand | None, state) -> MHand:
        data = carded.data
        if data.mode == "cards":
            assert carded.result is not None
            points = {s: r.points for s, r in zip(carded.order, carded.result.results or (), strict=True)}
            chinchon, wins = carded.result.chinchon, carded.result.wins_match
        else:
            points = dict(data.points)
            chinchon, wins = data.chinchon, data.chinchon and rules.chinchon_wins_match
        dealer = old.dealer if old else next_dealer(t, state)
        number = old.number if old else len(t.hands) + 1
        return MHand(number, points, data.closer, chinchon, wins, dealer)

    def check_stored(self, hand_id: int, carded: Carded, mode: str) -> None:
        """A hand entered with cards keeps each carded player's cards and the engine's reading."""
        if mode == "points":
            return
        hand = db.session.get(Hand, hand_id)
        result = carded.result
        assert hand is not None and result is not None
        assert hand.discard == (str(result.discard) if result.discard is not None else None)
        by_seat = {e.seat: e for e in hand.entries}
        for seat, r in zip(carded.order, result.results or (), strict=True):
            entry = by_seat[seat]
            held = list(carded.data.cards.get(seat, []))
            if seat == carded.data.closer and carded.data.discard is not None:
                held.append(carded.data.discard)
            assert entry.cards == " ".join(format_cards(held))
            assert entry.melds == [format_cards(m) for m in r.melds]
            assert entry.deadwood == " ".join(format_cards(r.deadwood))
            assert entry.points == r.points

    # -- rules: tables ---------------------------------------------------------------------------------
    @precondition(lambda self: len(self.tables) < MAX_TABLES - 2)
    @rule(data=st.data())
    def new_table(self, data):
        preset, overrides = data.draw(st.sampled_from(CONFIGS))
        names = NAMES[: data.draw(st.sampled_from([4, 3, 4, 2]))]
        refused = data.draw(st.sampled_from(["twice", "target"])) if rarely(data) else None
        if refused == "twice":
            names = [*names, names[0].upper()]  # the same name twice: refused
        if refused == "target":
            overrides = {**overrides, "target": 0}  # refused
        first_dealer = data.draw(st.integers(0, len(names) - 1)) if often(data, 9) else len(names)
        group = data.draw(st.sampled_from(sorted(self.groups))) if self.groups and often(data, 5) else None
        form = self.form_id() if often(data) else None  # mostly the form; now and then the API
        self.create_table(preset, overrides, names, first_dealer, self.groups.get(group) if group else None, form)

    @rule(data=st.data())
    def hand_by_cards(self, data):
        self.enter(data, "cards", correcting=False)

    @rule(data=st.data())
    def another_hand_by_cards(self, data):
        self.enter(data, "cards", correcting=False)

    @rule(data=st.data())
    def hand_by_points(self, data):
        self.enter(data, "points", correcting=False)

    @rule(data=st.data(), modes=st.lists(st.sampled_from(["cards", "points", "mixed"]), min_size=2, max_size=5))
    def an_evening_of_hands(self, data, modes):
        """Several hands in one step: matches get far enough for players to
        go out, buy back in and win."""
        for mode in modes:
            if not self.enter(data, mode, correcting=False):
                break

    @rule(data=st.data())
    def hand_mixed(self, data):
        self.enter(data, "mixed", correcting=False)

    @precondition(lambda self: any(t.hands for t in self.physical()))
    @rule(data=st.data(), mode=st.sampled_from(["cards", "points", "mixed"]))
    def correct_hand(self, data, mode):
        self.enter(data, mode, correcting=True)

    @rule(data=st.data())
    def reentry(self, data):
        self.decide_reentry(data)

    @rule(data=st.data())
    def another_reentry(self, data):
        self.decide_reentry(data)

    def decide_reentry(self, data):
        t = self.pick(data, self.physical(), prefer=lambda t: bool(pending(t, replay(t))))
        state = replay(t)
        waiting = pending(t, state)
        if waiting and often(data, 9):
            seat = data.draw(st.sampled_from(waiting))
        else:
            seat = data.draw(st.integers(-1, len(t.names)))
        declined = data.draw(st.booleans())
        submission, replayed = self.pick_submission(data, t, t.reentry_submissions)
        version, stale = self.pick_version(data, t)
        reasons = {"saved"} if replayed else set()
        if not 0 <= seat < len(t.names) or not state.can_reentry(t.names[seat]) or seat in declined_now(t):
            reasons.add("rule")
        if stale:
            reasons.add("stale")
        got = self.attempt(
            lambda: reentry_service.reenter(self.row(t), version, submission, seat, declined=declined),
            reasons,
            f"{'decline' if declined else 'buy'} re-entry of seat {seat} at table {t.id}",
        )
        if got is REFUSED:
            return
        t.reentries.append(MReentry(len(t.hands), seat, declined))
        t.reentry_submissions.add(submission)
        t.version += 1

    @rule(data=st.data())
    def undo(self, data):
        t = self.pick(data, self.physical(), prefer=lambda t: bool(t.hands))
        version, stale = self.pick_version(data, t)
        last = [r for r in t.reentries if r.after_hand == len(t.hands)] if t.hands else []
        reasons = {"stale"} if stale else set()
        if not last and not t.hands:
            reasons.add("rule")
        what = self.attempt(lambda: undo_service.undo_last(self.row(t), version), reasons, f"undo at table {t.id}")
        if what is REFUSED:
            return
        if last:
            t.reentries.remove(last[-1])
            assert what == ("declined" if last[-1].declined else "reentry")
        else:
            t.undone.append(t.hands.pop())
            assert what == "hand"
        t.version += 1

    @rule(data=st.data())
    def restore(self, data):
        t = self.pick(
            data, self.physical(), prefer=lambda t: bool(t.undone) and t.undone[-1].number == len(t.hands) + 1
        )
        candidate = t.undone[-1] if t.undone and t.undone[-1].number == len(t.hands) + 1 else None
        if candidate and often(data, 9):
            number = candidate.number
        else:
            number = data.draw(st.sampled_from([None, 0, len(t.hands), len(t.hands) + 1]))
        version, stale = self.pick_version(data, t)
        reasons = {"stale"} if stale else set()
        if candidate is None or number != candidate.number or pending(t, replay(t)):
            reasons.add("rule")  # nothing to restore, or a re-entry decision comes first
        else:
            try:
                replay(t, [*t.hands, candidate])
            except MatchError:
                reasons.add("rule")
        got = self.attempt(
            lambda: undo_service.restore_hand(self.row(t), version, number), reasons, f"restore at table {t.id}"
        )
        if got is REFUSED:
            return
        t.undone.remove(candidate)
        t.hands.append(candidate)
        t.version += 1

    @rule(data=st.data(), change=st.sampled_from(SETTINGS), name=st.sampled_from(["", "Friday", "  Big   night "]))
    def change_settings(self, data, change, name):
        t = self.pick(data, self.physical())
        version, stale = self.pick_version(data, t)
        options = {**t.overrides, **change}
        reasons = {"stale"} if stale else set()
        if "stake" in change and t.hands:  # everybody has paid it (table_service.changeable)
            reasons.add("rule")
        if set(change) & {"deck", "decks", "jokers", "wild_cards"}:  # the hands entered hold the pack
            reasons.add("rule")
        try:
            rules = get_rules(t.preset, **options)
            replay(t, rules=rules)
        except ChinchonError:  # a bad option, or hands that no longer replay (a MatchError)
            reasons.add("rule")
        got = self.attempt(
            lambda: table_service.change_settings(self.row(t), version, name, change),
            reasons,
            f"settings {change} at table {t.id}",
        )
        if got is REFUSED:
            return
        t.overrides = options
        t.version += 1
        assert self.row(t).name == normalize_name(name)

    @rule(data=st.data(), fresh=st.sampled_from(["Carla", "Calra", "ana", "  Dani  ", ""]))
    def rename_player(self, data, fresh):
        """A name typed wrong put right on the settings page: every hand stays
        the seat's; an empty name or one another player has is refused."""
        t = self.pick(data, list(self.tables.values()))
        seat = data.draw(st.integers(0, len(t.names) - 1))
        names = [fresh if i == seat else n for i, n in enumerate(t.names)]
        version, stale = self.pick_version(data, t)
        reasons = {"stale"} if stale else set()
        wanted = [normalize_name(n) for n in names]
        if wanted != t.names and (not all(wanted) or len({name_key(n) for n in wanted}) != len(wanted)):
            reasons.add("rule")
        got = self.attempt(
            lambda: table_service.change_settings(self.row(t), version, self.row(t).name, {}, None, names),
            reasons,
            f"rename seat {seat} at table {t.id}",
        )
        if got is REFUSED:
            return
        t.names = wanted
        t.version += 1

    @rule(data=st.data(), twice=st.booleans())
    def rematch(self, data, twice):
        tables = list(self.tables.values())
        if len(self.tables) >= MAX_TABLES:
            tables = [t for t in tables if t.rematch or not replay(t).finished]
        if not tables:
            return
        t = self.pick(data, tables, prefer=lambda t: replay(t).finished)
        version, stale = self.pick_version(data, t)
        reasons: set[str] = set()
        if t.rematch is None:
            if not replay(t).finished:
                reasons.add("rule")
            elif stale:
                reasons.add("stale")
        pace = t.pace or play.DEFAULT_PACE

        def call():
            made = rematch(self.row(t), version, pace=pace)
            db.session.flush()
            return made.id

        if t.rematch is not None:
            assert self.unchanged(call, "a second rematch") == t.rematch
            return
        new_id = self.attempt(call, reasons, f"rematch of table {t.id}")
        if new_id is REFUSED:
            return
        t.version += 1
        self.made_from(t, new_id, list(t.names), t.group)
        if twice:  # the second tap, with the page's now stale version
            assert self.unchanged(call, "a second rematch") == new_id

    @precondition(lambda self: len(self.tables) > 1)
    @rule(data=st.data())
    def delete_table(self, data):
        tables = [t for t in self.tables.values() if t.digital or len(self.physical()) > 1]
        if not tables:
            return
        t = self.pick(data, tables)
        self.attempt(lambda: table_service.delete_table(self.row(t)), set(), f"delete table {t.id}")
        del self.tables[t.id]
        if t.rematch_of in self.tables:
            self.tables[t.rematch_of].rematch = None  # a rematch can be made again
        if t.rematch in self.tables:
            self.tables[t.rematch].rematch_of = None  # the rematch stays, naming no table it came from

    # -- rules: groups ---------------------------------------------------------------------------------
    def tick(self) -> int:
        """The model's clock: one tick per table made and per season started,
        so that which season a table counts in is known without the database."""
        self.clock += 1
        return self.clock

    def group_row(self, g: MGroup) -> Group:
        group = db.session.get(Group, g.id)
        assert group is not None
        return group

    def group_tables(self, g: MGroup) -> list[MTable]:
        return sorted((t for t in self.tables.values() if t.group == g.id), key=lambda t: (t.made, t.id))

    @precondition(lambda self: len(self.groups) < 3)
    @rule(members=st.sampled_from(MEMBER_LISTS), stake=st.sampled_from(["1", "0.25"]), by_form=st.booleans())
    def new_group(self, members, stake, by_form=True):
        shown = [normalize_name(m) for m in members]
        refused = len(shown) < 2 or len({name_key(n) for n in shown}) < len(shown)
        form = self.form_id() if by_form else None

        def call():
            return group_service.create_group(
                name=" Thursday  club ",
                members=members,
                preset="classic",
                overrides={"stake": stake},
                currency="EUR",
                submission=form,
            ).id

        gid = self.attempt(call, {"rule"} if refused else set(), "create a group")
        if gid is not REFUSED:
            self.groups[gid] = MGroup(gid, shown, [[] for _ in shown], [self.tick()], form=form)

    @precondition(lambda self: any(x.form for x in [*self.tables.values(), *self.groups.values()]))
    @rule(data=st.data(), edited=st.booleans())
    def send_a_creation_form_again(self, data, edited):
        """Back, then Create (maybe after changing a name): the form's id is
        stored with what it made, so nothing is stored and the answer is the
        owner link of the table or group it made."""
        made = [("table", t.id) for t in self.tables.values() if t.form]
        made += [("group", g.id) for g in self.groups.values() if g.form]
        kind, made_id = data.draw(st.sampled_from(made))
        if kind == "table":
            t = self.tables[made_id]
            names = ["Zoe", *t.names[1:]] if edited else t.names
            owner = self.row(t).owner_token

            def call():
                return table_service.create_table(
                    name="Friday",
                    preset=t.preset,
                    overrides=t.overrides,
                    players=names,
                    first_dealer=t.first_dealer,
                    suit_style="spanish",
                    submission=t.form,
                )

        else:
            g = self.groups[made_id]
            members = ["Zoe", *g.members[1:]] if edited else g.members
            owner = self.group_row(g).owner_token

            def call():
                return group_service.create_group(
                    name="Thursday", members=members, preset="classic", overrides={}, currency="EUR", submission=g.form
                )

        self.attempt(call, {"saved"}, f"send the form of {kind} {made_id} again")
        assert isinstance(self.refusal, AlreadySaved) and self.refusal.made_link() == owner

    @precondition(lambda self: self.groups and any(t.group is None for t in self.tables.values()))
    @rule(data=st.data())
    def add_to_group(self, data):
        t = self.pick(data, [t for t in self.tables.values() if t.group is None])
        g = self.groups[data.draw(st.sampled_from(sorted(self.groups)))]
        self.attempt(
            lambda: group_service.add_table(self.group_row(g), self.row(t)),
            set(),
            f"add table {t.id} to group {g.id}",
        )
        t.group = g.id

    def known(self, g: MGroup) -> dict[str, str]:
        return identities(list(zip(g.members, g.aliases, strict=True)))

    def people(self, g: MGroup) -> dict[str, str]:
        """Whom a payment may name, by key, under the name the group counts
        them by: the members, whoever played at one of the group's tables,
        whoever an earlier payment named."""
        known = self.known(g)
        found = {name_key(m): m for m in g.members}
        for name in [n for t in self.group_tables(g) for n in t.names] + [n for p in g.payments for n in p[1:3]]:
            shown = known.get(name_key(name), name)
            found.setdefault(name_key(shown), shown)
        return found

    @precondition(lambda self: self.groups)
    @rule(data=st.data(), fresh=st.sampled_from(["Anita", "Benji", "Caro", "ANA", "Zoe"]))
    def rename_member(self, data, fresh):
        """A member renamed keeps the row and the history: the old name becomes
        an alias that tables and payments under it still count for."""
        g = self.groups[data.draw(st.sampled_from(sorted(self.groups)))]
        i = data.draw(st.integers(0, len(g.members) - 1))
        others = [j for j in range(len(g.members)) if j != i]
        taken = [g.members[j] for j in others] + [a for j in others for a in g.aliases[j]]
        if rarely(data):
            fresh = data.draw(st.sampled_from(taken + g.aliases[i]))  # another's name, or an earlier one
        shown = normalize_name(fresh)
        refused = name_key(shown) in {name_key(n) for n in taken}

        def call():
            group = self.group_row(g)
            members = [(m.id, shown if k == i else m.name) for k, m in enumerate(group.members)]
            group_service.update_group(
                group,
                name=group.name,
                members=members,
                preset=group.preset,
                overrides=dict(group.overrides),
                currency=group.currency,
            )

        if self.attempt(call, {"rule"} if refused else set(), "rename a member") is REFUSED:
            return
        if name_key(shown) != name_key(g.members[i]):
            g.aliases[i] = [a for a in g.aliases[i] if name_key(a) != name_key(shown)] + [g.members[i]]
        g.members[i] = shown

    @precondition(lambda self: self.groups)
    @rule(data=st.data(), amount=st.integers(1, 5000))
    def payment(self, data, amount):
        g = self.groups[data.draw(st.sampled_from(sorted(self.groups)))]
        people = self.people(g)
        names = sorted(people.values())
        payer, payee = data.draw(st.permutations(names).map(lambda p: p[:2])) if len(names) > 1 else (names * 2)
        odd = rarely(data) and data.draw(
            st.sampled_from(["typed", "alias", "stranger", "self", "amount", "replayed", "no id"])
        )
        if odd == "typed":
            payer = payer.upper()  # the same person, typed otherwise
        elif odd == "alias" and any(g.aliases):
            payer = data.draw(st.sampled_from([a for aliases in g.aliases for a in aliases]))  # an earlier name
        elif odd in ("stranger", "self"):
            payee = "Zed" if odd == "stranger" else payer  # nobody the group knows, or the payer
        cents = data.draw(st.sampled_from([0, -5, 100_000_001])) if odd == "amount" else amount
        replayed = odd == "replayed" and bool(g.submissions)
        submission = data.draw(st.sampled_from(g.submissions)) if replayed else "" if odd == "no id" else self.fresh()

        def call():
            made = group_service.record_payment(self.group_row(g), payer, payee, cents, submission)
            db.session.flush()
            return made.id if made is not None else None

        if replayed:
            assert self.unchanged(call, "a replayed payment") is None
            return
        known = self.known(g)
        who_paid = people.get(name_key(known.get(name_key(payer), payer)))
        who_got = people.get(name_key(known.get(name_key(payee), payee)))
        refused = not submission or who_paid is None or who_got is None or who_paid == who_got
        refused = refused or not 0 < cents <= 100_000_000
        pid = self.attempt(call, {"rule"} if refused else set(), "a payment")
        if pid is REFUSED:
            return
        g.payments.append([pid, who_paid, who_got, cents, True])
        g.submissions.append(submission)

    @precondition(lambda self: any(g.payments for g in self.groups.values()))
    @rule(data=st.data())
    def undo_payment(self, data):
        g = self.groups[data.draw(st.sampled_from(sorted(k for k, g in self.groups.items() if g.payments)))]
        theirs = [p[0] for o in self.groups.values() if o is not g for p in o.payments]
        pid = data.draw(st.sampled_from([p[0] for p in g.payments] * 3 + [None, 10**6, *theirs[:1]]))
        call = lambda: group_service.undo_payment(self.group_row(g), pid)  # noqa: E731
        mine = next((p for p in g.payments if p[0] == pid), None)
        if mine is None:
            self.attempt(call, {"rule"}, "undo a payment of nobody's")
        elif not mine[4]:
            assert self.unchanged(call, "undo a payment again") is False
        else:
            assert self.attempt(call, set(), "undo a payment") is True
            mine[4] = False

    @precondition(lambda self: self.groups)
    @rule(data=st.data())
    def new_season(self, data):
        g = self.groups[data.draw(st.sampled_from(sorted(self.groups)))]
        seen = data.draw(st.sampled_from([None, g.seasons, g.seasons, g.seasons - 1]))
        empty = not any(g.season_of(t) == g.seasons for t in self.group_tables(g))
        refused = empty or (seen is not None and seen != g.seasons)
        got = self.attempt(
            lambda: group_service.start_season(self.group_row(g), seen), {"rule"} if refused else set(), "a season"
        )
        if got is not REFUSED:
            g.season_starts.append(self.tick())

    @precondition(lambda self: self.groups)
    @rule(data=st.data())
    def play_again(self, data):
        """The group's "play again": a table like the last one (or one the page
        showed), made once, as a rematch is."""
        g = self.groups[data.draw(st.sampled_from(sorted(self.groups)))]
        tables = self.group_tables(g)
        others = [t.id for t in self.tables.values() if t.group != g.id]
        source = data.draw(st.sampled_from([None, *(t.id for t in tables), *others[:1]]))
        last = (tables or [None])[-1] if source is None else self.tables.get(source)
        if last is not None and last.group != g.id:
            last = None
        pace = (last.pace if last else None) or play.DEFAULT_PACE

        def call():
            made = group_service.play_again(self.group_row(g), source, pace=pace)
            db.session.flush()
            return made.id

        if last is not None and last.rematch is not None:
            made = self.tables.get(last.rematch)
            if made is not None and made.group is None:
                # A rematch made on the table's own page before the table joined
                # the group: the group's "play again" answers it and takes it in.
                assert self.attempt(call, set(), "play again, taking the rematch in") == last.rematch
                made.group = g.id
                return
            # The table made before, as a rematch answers; only the group's
            # last activity moves (add_table touches it on every call).
            assert self.unchanged(call, "play again, again", touching=("groups", g.id)) == last.rematch
            return
        if last is None:
            self.attempt(call, {"rule"}, "play again without a match")
            return
        if len(self.tables) >= MAX_TABLES:
            return
        new_id = self.attempt(call, set(), "play again")
        if replay(last).finished:
            last.version += 1
        self.made_from(last, new_id, counted_names(self.known(g), last.names), g.id)

    def made_from(self, last: MTable, new_id: int, names: list[str], group: int | None) -> MTable:
        last.rematch = new_id
        new = MTable(
            new_id,
            names,
            list(last.kinds),
            last.preset,
            dict(last.overrides),
            (last.first_dealer + 1) % len(last.names),
            group,
            rematch_of=last.id,
            pace=last.pace,
            made=self.tick(),
        )
        self.tables[new_id] = new
        if new.digital:
            self.absorb(new)
        return new

    # -- rules: a digital table --------------------------------------------------------------------
    @precondition(lambda self: len(self.tables) < MAX_TABLES and sum(t.digital for t in self.tables.values()) < 2)
    @rule(data=st.data(), seed=st.integers(0, 10**6))
    def new_digital_table(self, data, seed):
        pace = play.Pace(seed=seed, turns=12, seconds=600.0)  # bounded by turns only: deterministic
        devices = data.draw(st.booleans())
        if devices:  # a phone each: seats handed to the computer and back, buy-backs with three still in
            kinds, names = ["human", "human", "simple", "good"], ["Ana", "Ben", "Robo", "Bea"]
        else:
            kinds, names = ["human", "simple"], ["Ana", "Robo"]
        clock = data.draw(st.sampled_from(["off", "relaxed", "quick"])) if devices else "off"
        group = data.draw(st.sampled_from(sorted(self.groups))) if self.groups and often(data, 5) else None
        overrides = {"target": 30}

        def call():
            table = play.create_digital_table(
                name="Online",
                preset="classic",
                overrides=overrides,
                players=list(zip(names, kinds, strict=True)),
                mode="devices" if devices else "hotseat",
                first_dealer=0,
                suit_style="spanish",
                clock=clock,
                pace=pace,
            )
            group_service.join(table, db.session.get(Group, group) if group else None)
            db.session.flush()
            return table.id

        tid = self.attempt(call, set(), "a digital table")
        t = MTable(tid, names, kinds, "classic", {**overrides, "decks": 1}, 0, group, pace=pace, made=self.tick())
        t.devices, t.clock = devices, clock
        self.tables[tid] = t
        self.absorb(t)

    def absorb(self, t: MTable) -> None:
        """Digital hands come from play, not from the model: take the stored
        ones (the replay checks still hold), after checking each closed deal
        became the hand the engine settles from its cards."""
        raw = Raw(self.rows())
        deals = [d for d in raw.rows["deals"] if d["table_id"] == t.id]
        by_id = {h["id"]: h for h in raw.hands[t.id]}
        hands = []
        for deal in deals:
            game = HandGame.from_dict(deal["state"], t.rules)
            if game.closer is None:
                assert deal["hand_id"] is None
                continue
            hand = by_id[deal["hand_id"]]
            assert hand["number"] == deal["number"]
            settled = game.settle()  # with the card the closer put face down
            assert raw.points(hand) == self.settled(deal, settled), f"deal {deal['id']}: stored {raw.points(hand)}"
            assert hand["discard"] == str(game.closing_discard)
        for h in raw.active_hands(t.id):
            hands.append(MHand(h["number"], raw.points(h), h["closer_seat"], h["chinchon"], h["wins_match"], None))
        t.hands = hands
        # Buy-backs: the model's own answers (for people) are in t.reentries already; the
        # computer's, for a computer player or a seat it plays, come from play: each is the
        # expert's choice from the match as it stood.
        answered = {(r.after_hand, r.seat) for r in t.reentries}
        for r in raw.active_reentries(t.id):
            if (r["after_hand"], r["seat"]) in answered:
                continue
            name = t.names[r["seat"]]
            assert r["decided_by"] == name and t.played_by_computer(r["seat"]), f"table {t.id}: {r}"
            before = replay(t, [h for h in hands if h.number <= r["after_hand"]], list(t.reentries))
            assert before.can_reentry(name) and r["declined"] == (not buys_back(before, name)), f"table {t.id}: {r}"
            t.reentries.append(MReentry(r["after_hand"], r["seat"], r["declined"]))
        t.version = raw.tables[t.id]["version"]

    @staticmethod
    def settled(deal: dict, result: HandResult) -> dict[int, int]:
        return {deal["seats"][i]: r.points for i, r in enumerate(result.results or ())}

    @precondition(lambda self: any(t.digital for t in self.tables.values()))
    @rule(data=st.data(), moves=st.integers(1, 20))
    def digital_moves(self, data, moves):
        """The person at a digital table plays a few moves (a draw or a
        discard each, closing when they can), or deals the next hand."""
        t = self.pick(data, [t for t in self.tables.values() if t.digital])
        for _ in range(moves):
            moved = self.digital_move(data, t)
            self.absorb(t)
            if not moved:
                break

    def digital_move(self, data, t: MTable) -> bool:
        table = self.row(t)
        deal = play.current_deal(table)
        game = play.game_of(table, deal)
        pace = t.pace
        version = deal.version
        if game.phase == Phase.OVER:
            state = replay(t)
            waiting = pending(t, state)
            if waiting:  # the people's answers (the computer gave its own when the hand was stored)
                assert not any(t.played_by_computer(seat) for seat in waiting), f"table {t.id}: {waiting}"
                seat, declined, submission = waiting[0], data.draw(st.booleans()), self.fresh()
                call = lambda: reentry_service.reenter(  # noqa: E731
                    self.row(t), t.version, submission, seat, declined=declined, asker=TABLE_PHONE
                )
                self.attempt(call, set(), "a person's buy-back at digital table")
                t.reentries.append(MReentry(len(t.hands), seat, declined))
                return True
            finished = state.finished
            call = lambda: play.deal_next(self.row(t), play.current_deal(self.row(t)).id, version, pace)  # noqa: E731
            return self.attempt(call, {"rule"} if finished else set(), "digital deal") is not REFUSED
        if t.played_by_computer(deal.seats[game.turn]):
            call = lambda: play.advance(self.row(t), play.current_deal(self.row(t)), pace)  # noqa: E731
            return self.attempt(call, set(), "digital advance") is not REFUSED
        seat = game.turn
        hand = game.hands[seat]
        card = None
        if game.phase == Phase.DRAW:
            action = "stock" if often(data, 7) or not game.discards else "discard_pile"
        else:
            closable = [c for c in hand if game.can_close(seat, c)]
            if closable and often(data, 9):
                action, card = "close", str(data.draw(st.sampled_from(closable)))
            else:
                loose = list(best_melds(hand, t.rules).deadwood) or hand
                if often(data, 7):
                    worst = max(loose, key=lambda c: t.rules.joker_points if c.is_joker else t.rules.card_values[c])
                else:
                    worst = data.draw(st.sampled_from(hand))
                action, card = "discard", str(worst)
        call = lambda: play.act(self.row(t), play.current_deal(self.row(t)), seat, version, action, card, pace)  # noqa: E731
        return self.attempt(call, set(), f"digital {action}") is not REFUSED

    @precondition(lambda self: any(t.digital for t in self.tables.values()))
    @rule(data=st.data(), kind=st.sampled_from(["stale", "bot", "not_held", "bad_close", "wrong_phase"]))
    def digital_bad_move(self, data, kind):
        t = self.pick(data, [t for t in self.tables.values() if t.digital])
        table = self.row(t)
        deal = play.current_deal(table)
        game = play.game_of(table, deal)
        if game.phase == Phase.OVER:
            return
        human = game.turn
        # A computer player still in the match (none once every computer player went out).
        bot = next((i for i, s in enumerate(deal.seats) if t.kinds[s] != "human"), None)
        if kind == "bot" and bot is None:
            return
        version, seat, action, card = deal.version, human, "stock", None
        if kind == "stale":
            version = deal.version - 1 if deal.version > 1 else 0
        elif kind == "bot":
            assert bot is not None
            seat = bot
        elif kind == "not_held":
            held = {str(c) for c in game.hands[human]}
            action = "discard" if game.phase == Phase.DISCARD else "stock"
            card = next(str(c) for c in game.rules.pack.cards() if str(c) not in held)
            if action == "stock":
                action = "discard"  # a discard before drawing, of a card not held
        elif kind == "bad_close":
            unclosable = [c for c in game.hands[human] if not game.can_close(human, c)]
            if game.phase != Phase.DISCARD or not unclosable:
                return
            action, card = "close", str(unclosable[0])
        else:
            action = "stock" if game.phase == Phase.DISCARD else "discard"
            card = str(game.hands[human][0])
        reasons = {"stale"} if kind == "stale" else {"rule"}
        if kind == "stale":
            reasons.add("rule")  # the move itself is checked before the version
        self.attempt(
            lambda: play.act(self.row(t), play.current_deal(self.row(t)), seat, version, action, card, t.pace),
            reasons,
            f"a bad move ({kind}) at digital table {t.id}",
        )

    @precondition(lambda self: any(t.digital for t in self.tables.values()))
    @rule(data=st.data(), kind=st.sampled_from(["ok", "ok", "stale", "forged", "earlier_deal", "replayed"]))
    def digital_void(self, data, kind):
        """The owner voids the hand in play (the table agrees): nobody scores,
        the deal stays void and the next deal goes to the next dealer.  A
        stale, forged or replayed confirmation, or one of an earlier deal, is
        refused; so is one for a hand already over."""
        t = self.pick(data, [t for t in self.tables.values() if t.digital])
        table = self.row(t)
        deal = play.current_deal(table)
        deal_id, version, over = deal.id, deal.version, deal.state["phase"] == "over"
        reasons = {"rule"} if over else set()
        if kind == "stale":
            version = max(0, version - 1)
            reasons = reasons or {"stale"}
        elif kind == "forged":
            version = data.draw(st.sampled_from([None, 0, -1, 2**31, version + 1]))
            reasons = reasons or {"stale"}
        elif kind == "earlier_deal":
            deal_id = data.draw(st.sampled_from([d.id for d in table.deals if d.id != deal_id] or [None]))
            reasons = {"stale"}
        hands = list(t.hands)
        call = lambda: play.void_hand(self.row(t), deal_id, version)  # noqa: E731
        done = self.attempt(call, reasons, f"void a hand at digital table {t.id}") is not REFUSED
        if done:
            t.voided.add(deal_id)
            if kind == "replayed":
                self.attempt(call, {"rule"}, f"the same void again at digital table {t.id}")  # the hand is over
        self.absorb(t)
        assert t.hands == hands, f"table {t.id}: a void hand scored"

    @precondition(lambda self: any(t.digital for t in self.tables.values()))
    @rule(data=st.data())
    def digital_review(self, data):
        """Somebody opens the review of a hand: refused while it is played
        (nothing stored); once it is over, the review is kept with its deal,
        every move of the log in order and only the people's decisions judged,
        and nothing else changes (not the deal's version, not a hand).  Asked
        again, it is read back as it was."""
        t = self.pick(data, [t for t in self.tables.values() if t.digital])
        table = self.row(t)
        deal = data.draw(st.sampled_from(sorted(table.deals, key=lambda d: d.id)))
        over = deal.state["phase"] == "over"
        deal_id, state, version = deal.id, copy.deepcopy(deal.state), deal.version
        before = self.rows()
        call = lambda: play.review_of(self.row(t), db.session.get(type(deal), deal_id))  # noqa: E731
        done = self.attempt(call, set() if over else {"rule"}, f"review a hand at digital table {t.id}")
        if done is REFUSED:
            return
        after = self.rows()
        changed = changes(before, after)
        assert set(changed) <= {("deals", deal_id)} and all(set(c) == {"review"} for c in changed.values()), changed
        stored = next(d for d in after["deals"] if d["id"] == deal_id)
        assert stored["state"] == state and stored["version"] == version, f"deal {deal_id}: the review moved the deal"
        game = HandGame.from_dict(state, t.rules)
        shown = [
            m for m in game.log if m.name not in ("reshuffle", "void") or getattr(m, "reason", None) == "abandoned"
        ]
        steps = stored["review"]["steps"]
        assert [s["move"] for s in steps] == [move_to_json(m) for m in shown]
        people = {k for k, seat in enumerate(stored["seats"]) if t.kinds[seat] == "human"}
        for step in steps:
            judged = step["judgement"]
            assert (judged is not None) == (step["move"].get("seat") in people and step["move"]["move"] != "void")
            if judged is not None:
                assert abs(judged["loss"] - max(0.0, judged["best"]["value"] - judged["made"]["value"])) <= 0.011
                assert judged["best"] == judged["options"][0] and judged["made"] in judged["options"]
        again = self.unchanged(call, f"the same review again at digital table {t.id}")
        assert reviews.to_json(again) == stored["review"]

    def game_now(self, t: MTable) -> tuple[int, int, int, str]:
        """What a phone following the game can see change: the deal in play, its version, the table's
        version and, on a phone each, who is here (the time since a phone left moves it too)."""
        raw = self.rows()
        deal = max((d for d in raw["deals"] if d["table_id"] == t.id), key=lambda d: d["id"])
        table = next(r for r in raw["game_tables"] if r["id"] == t.id)
        here = seat_service.presence_marker(self.row(t)) if t.devices else ""
        return deal["id"], deal["version"], table["version"], here

    @precondition(lambda self: any(t.digital for t in self.tables.values()))
    @rule(data=st.data())
    def a_second_phone_polls(self, data):
        """Another phone follows a digital game with the player link: its poll
        answers 204 exactly while nothing it shows changed (the deal, its
        version, the table's version: a move, a buy-back, new settings, a
        rematch), whatever kind of write made the change; else the new page,
        whose marker it polls with next."""
        t = self.pick(data, [t for t in self.tables.values() if t.digital])
        token = self.row(t).player_token
        app = current_app._get_current_object()
        # The poll lets computer players carry on: deterministic, bounded by turns only, as the machine's own.
        app.config.update(PLAY_SEED=f"poll-{t.id}", PLAY_BOT_TURNS=12, PLAY_BOT_SECONDS=600.0)
        client = app.test_client()
        if t.seen_marker is None:
            response = client.get(f"/t/{token}/play")
        else:
            response = client.get(f"/t/{token}/play/poll?v={t.seen_marker}")
        db.session.expire_all()
        self.last_rows = None
        self.absorb(t)
        now = self.game_now(t)
        if response.status_code == 204:
            assert t.seen_marker is not None and now == t.seen, f"table {t.id}: {now} changed since {t.seen}, yet 204"
            STATS["a second phone's poll", "nothing new"] += 1
            return
        assert response.status_code == 200
        if t.seen is not None:
            assert now != t.seen, f"table {t.id}: a new page though nothing changed ({now})"
            STATS["a second phone's poll", "a new page"] += 1
        marker = re.search(r"/play/poll\?v=([^&\"]+)", response.get_data(as_text=True))
        assert marker is not None
        t.seen_marker, t.seen = marker.group(1), now

    @precondition(lambda self: any(t.devices for t in self.tables.values()))
    @rule(data=st.data(), owner=st.booleans(), late=st.booleans())
    def hand_a_seat_to_the_computer(self, data, owner, late):
        """The owner hands a person's seat to the computer at any time; another
        seat's phone only once the seat's phone has been away for the grace
        period while the game waits on it (time moves by ``late``: nobody's
        page ever asked here, so a seat is away since the table began)."""
        t = self.pick(data, [t for t in self.tables.values() if t.devices])
        people = [i for i, kind in enumerate(t.kinds) if kind == "human"]
        seat = data.draw(st.sampled_from(people))
        other = next(i for i in people if i != seat)
        table = self.row(t)
        at = now() + (seat_service.GRACE + seat_service.SEEN_EVERY if late else seat_service.SEEN_EVERY * 0)
        deal = play.current_deal(table)
        in_play = deal.state["phase"] != "over"
        waited = {deal.seats[deal.state["turn"]]} if in_play else set(pending(t, replay(t)))
        gone_since = table.players[seat].seen_at or table.created_at  # its phone's last visit, if any
        overdue = seat in waited and at - gone_since >= seat_service.GRACE
        reasons = {"rule"} if seat in t.stand_ins or not (owner or overdue) else set()
        asker = TABLE_PHONE if owner else Asker(Phone.SEAT, other, t.names[other])

        def call():
            return play.hand_seat_over(self.row(t), seat, t.version, asker, owner=owner, pace=t.pace, at=at)

        got = self.attempt(call, reasons, f"hand seat {seat} to the computer at digital table {t.id}")
        if got is not REFUSED:
            t.stand_ins.add(seat)
        self.absorb(t)

    @precondition(lambda self: any(t.devices for t in self.tables.values()))
    @rule(data=st.data())
    def a_phone_stays_away_at_a_buy_back(self, data):
        """A minute passes with people's buy-back questions open and their
        phones away (nobody's page asks here): they stay out, marked so."""
        t = self.pick(
            data, [t for t in self.tables.values() if t.devices], prefer=lambda t: bool(pending(t, replay(t)))
        )
        over = play.current_deal(self.row(t)).state["phase"] == "over"
        at = now() + seat_service.GRACE + seat_service.SEEN_EVERY
        players = self.row(t).players
        waiting = (
            [
                s
                for s in pending(t, replay(t))
                if not t.played_by_computer(s)
                and (players[s].seen_at is None or at - players[s].seen_at >= seat_service.GRACE)
            ]
            if over
            else []
        )

        def call():
            return [(r.seat, r.declined, r.away) for r in seat_service.decide_for_absent(self.row(t), at=at)]

        got = self.attempt(call, set(), f"a minute away at a buy-back at digital table {t.id}")
        assert got == [(s, True, True) for s in waiting], f"table {t.id}: {got}, model {waiting}"
        t.reentries += [MReentry(len(t.hands), s, True) for s in waiting]
        self.absorb(t)

    @precondition(lambda self: any(t.devices for t in self.tables.values()))
    @rule(data=st.data())
    def a_turns_time_runs_out(self, data):
        """Time passes at a person's turn (a turn's time, the reserve and a
        second; nobody's page asks here, so the seat's phone is away): with
        a clock the next poll plays that turn for the seat, marked so, and
        hands the seat to the computer; without one nothing moves."""
        t = self.pick(data, [t for t in self.tables.values() if t.devices], prefer=lambda t: t.clock != "off")
        table = self.row(t)
        deal = play.current_deal(table)
        game = play.game_of(table, deal)
        if game.phase == Phase.OVER or t.played_by_computer(deal.seats[game.turn]):
            return
        seat, logged, covered = deal.seats[game.turn], len(game.log), list(deal.covered or [])
        pace = clock_service.pace_of(deal.clock)
        assert deal.clock == t.clock  # the table's clock when it was dealt (the model never changes it)
        # The seat's phone had opened the game when its turn began (a clock never runs for one that
        # has not), then left: time moves on past the turn's seconds and its reserve.
        began = max(now(), deal.turn_since)
        mover = table.players[seat]
        self.attempt(
            lambda: seat_service.note_seen(self.row(t).players[seat], min(began, mover.seen_at or began)),
            set(),
            "a phone opened its seat",
        )
        if pace is None:
            at = now() + timedelta(minutes=5)
        else:  # the model's time runs ahead of the clock's (an earlier rule's turn began "later")
            at = began + pace.turn + timedelta(seconds=deal.reserves[game.turn] + 1)

        def call():
            return play.advance(self.row(t), play.current_deal(self.row(t)), t.pace, at=at)

        got = self.attempt(call, set(), f"a turn's time runs out at digital table {t.id}")
        after = play.current_deal(self.row(t))
        if pace is None:
            assert got is False and after.version == deal.version
        else:
            assert got is True, f"table {t.id}: {got}"
            assert (after.covered or [])[: len(covered) + 1] == [*covered, logged], (after.covered, covered, logged)
            if after.state["phase"] != "over":  # the seat paid its whole reserve
                assert after.reserves is not None and after.reserves[game.turn] == 0, after.reserves
            t.stand_ins.add(seat)
        self.absorb(t)

    @precondition(lambda self: any(t.devices for t in self.tables.values()))
    @rule(data=st.data(), owner=st.booleans(), own=st.booleans())
    def take_a_seat_back(self, data, owner, own):
        """ "I'm back" from the seat's own phone, or the owner gives the seat back; nobody else."""
        t = self.pick(data, [t for t in self.tables.values() if t.devices], prefer=lambda t: bool(t.stand_ins))
        people = [i for i, kind in enumerate(t.kinds) if kind == "human"]
        seat = data.draw(st.sampled_from(sorted(t.stand_ins) if t.stand_ins and often(data) else people))
        other = next(i for i in people if i != seat)
        asker = TABLE_PHONE if owner else Asker(Phone.SEAT, seat if own else other, "")
        reasons = {"rule"} if seat not in t.stand_ins or not (owner or own) else set()

        def call():
            return seat_service.take_back(self.row(t), seat, t.version, asker, owner=owner)

        got = self.attempt(call, reasons, f"take seat {seat} back at digital table {t.id}")
        if got is not REFUSED:
            t.stand_ins.discard(seat)
        self.absorb(t)

    # -- invariants -------------------------------------------------------------------------------
    @invariant()
    def the_record_replays(self):
        raw = Raw(self.rows())
        assert set(raw.tables) == set(self.tables)
        loaded = {table.id: table for table in db.session.scalars(select(GameTable))}  # one query for all
        for t in self.tables.values():
            self.check_table(raw, t, loaded[t.id])
        for g in self.groups.values():
            self.check_group(raw, g)

    def check_table(self, raw: Raw, t: MTable, table: GameTable) -> None:
        tid = t.id
        row = raw.tables[tid]
        assert raw.names(tid) == t.names
        assert [p["kind"] for p in raw.players[tid]] == t.kinds
        assert {p["seat"] for p in raw.players[tid] if p["stand_in_since"] is not None} == t.stand_ins
        assert row["overrides"] == t.overrides and row["preset"] == t.preset
        assert row["group_id"] == t.group and row["rematch_of_id"] == t.rematch_of
        assert row["version"] == t.version, f"table {tid}: version {row['version']}, model {t.version}"
        hands = raw.active_hands(tid)
        assert [h["number"] for h in hands] == list(range(1, len(hands) + 1))
        stored = [
            (h["number"], raw.points(h), h["closer_seat"], h["chinchon"], h["wins_match"], h["dealer_seat"])
            for h in hands
        ]
        model = [(h.number, h.points, h.closer, h.chinchon, h.wins_match, h.dealer) for h in t.hands]
        if t.digital:
            stored = [s[:5] for s in stored]
            model = [m[:5] for m in model]
        assert stored == model, f"table {tid}: stored hands {stored}, model {model}"
        reentries = [(r["after_hand"], r["seat"], r["declined"]) for r in raw.active_reentries(tid)]
        assert reentries == [(r.after_hand, r.seat, r.declined) for r in t.reentries], f"table {tid}"
        rematches = [r for r in raw.tables.values() if r["rematch_of_id"] == tid]
        assert [r["id"] for r in rematches] == ([t.rematch] if t.rematch else [])

        replayed = raw.match(tid)
        state = replay(t)
        current = standing(table)
        # What pages of many tables read instead of replaying: written with every write, at its version.
        assert table.summary_version == table.version, f"table {tid}: summary of version {table.summary_version}"
        assert table.summary == summary_service.Summary.of(current).to_json(), f"table {tid}"
        for seen in (state, current.state):
            assert seen.totals == replayed.totals, f"table {tid}"
            assert seen.out == replayed.out
            assert seen.reentries == replayed.reentries
            assert seen.winners == replayed.winners
            assert seen.finished == replayed.finished
            assert seen.pot == replayed.pot
            assert seen.can_reenter == replayed.can_reenter
        rules = raw.rules(tid)
        assert replayed.pot == rules.stake * (len(t.names) + sum(replayed.reentries.values()))
        if replayed.finished:
            assert replayed.winners and set(replayed.winners) <= set(t.names)
        assert current.undecided == pending(t, state)
        assert current.seats_in == seats_in(t, state)
        step = next_step(table, current)
        if not t.digital:
            # What may happen next (services.nextstep): the model's own reading.
            assert step.pending_seats == ([] if state.finished else pending(t, state)), f"table {tid}"
            expected = "match_over" if state.finished else "reentry_pending" if pending(t, state) else None
            assert step.refusal == expected, f"table {tid}: {step.refusal}, model {expected}"
            assert step.dealer == next_dealer(t, state) and step.number == len(t.hands) + 1
        else:
            self.check_deals(raw, t)

    @staticmethod
    def check_deals(raw: Raw, t: MTable) -> None:
        """The deals the owner voided are stored void (nobody scored them);
        after any void deal the same hand number is dealt again, by the next
        seat in play order after the void deal's dealer (by the same dealer
        after a deal called off before anybody moved)."""
        deals = sorted((d for d in raw.rows["deals"] if d["table_id"] == t.id), key=lambda d: d["id"])
        abandoned = {d["id"] for d in deals if (d["state"].get("void") or {}).get("reason") == "abandoned"}
        assert abandoned == t.voided, f"table {t.id}: voided deals {sorted(abandoned)}, model {sorted(t.voided)}"
        for void, after in itertools.pairwise(deals):
            if not void["state"].get("void"):
                continue
            assert void["hand_id"] is None and after["number"] == void["number"], f"table {t.id}: deal {after['id']}"
            dealer = void["seats"][void["state"]["dealer"]]
            following = [s for s in after["seats"] if s > dealer] or after["seats"]
            expected = dealer if void["called_off"] else following[0]  # called off before any move: the same dealer
            assert after["seats"][after["state"]["dealer"]] == expected, f"table {t.id}: deal {after['id']}"

    def check_group(self, raw: Raw, g: MGroup) -> None:
        """Standings and balances recomputed here from the raw rows (groups/README.md)."""
        members = sorted((m for m in raw.rows["group_members"] if m["group_id"] == g.id), key=lambda m: m["position"])
        assert [(m["name"], m["aliases"]) for m in members] == list(zip(g.members, g.aliases, strict=True))
        known = identities([(m["name"], m["aliases"]) for m in members])
        seasons = sorted((s for s in raw.rows["seasons"] if s["group_id"] == g.id), key=lambda s: s["number"])
        assert [s["number"] for s in seasons] == list(range(1, g.seasons + 1))
        payments = [
            [p["id"], p["payer"], p["payee"], p["cents"], p["undone_at"] is None]
            for p in raw.rows["payments"]
            if p["group_id"] == g.id
        ]
        assert payments == g.payments
        tables = sorted(
            (r for r in raw.tables.values() if r["group_id"] == g.id), key=lambda r: (r["created_at"], r["id"])
        )
        assert [r["id"] for r in tables] == [t.id for t in self.group_tables(g)]

        matches = []
        for row in tables:
            tid = row["id"]
            season = seasons[0]["number"]
            for s in seasons:
                if s["started_at"] <= row["created_at"]:
                    season = s["number"]
            assert season == g.season_of(self.tables[tid]), f"table {tid}: season {season}"
            names = raw.names(tid)
            shown = counted_names(known, names)
            assert len({name_key(n) for n in shown}) == len(shown), f"table {tid}: two seats, one person: {shown}"
            matches.append(dict(table=tid, names=names, shown=shown, state=raw.match(tid), season=season))

        group = db.session.get(Group, g.id)
        everything = group_service.matches(group)
        assert [m.table.id for m in everything] == [m["table"] for m in matches]
        for number in range(1, g.seasons + 1):
            lines = self.season_lines(raw, members, [m for m in matches if m["season"] == number])
            got = group_service.standings(group, [m for m in everything if m.season == number])
            figures = [
                (ln.name, ln.member, ln.played, ln.won, ln.total_sum, ln.closed, ln.minus_tens, ln.chinchones)
                for ln in got
            ]
            shown = {name_key(f[0]): (*f, ln.reentries, ln.points) for f, ln in zip(figures, got, strict=True)}
            assert len(shown) == len(got)
            assert shown == lines, f"group {g.id}, season {number}"

        self.check_ratings(raw, matches, everything, group)

        balances: dict[str, int] = defaultdict(int)
        for m in matches:
            state, names, shown = m["state"], m["names"], m["shown"]
            stake = cents(raw.rules(m["table"]).stake)
            kinds = [p["kind"] for p in raw.players[m["table"]]]
            if not state.finished or not stake or any(k != "human" for k in kinds):
                continue
            STATS["group", "a match for money"] += 1
            paid = {n: stake * (1 + state.reentries[n]) for n in names}
            base, extra = divmod(sum(paid.values()), len(state.winners))
            for i, w in enumerate(state.winners):  # odd cents to the first winners in seat order
                balances[name_key(shown[names.index(w)])] += base + (i < extra)
            for n, s in zip(names, shown, strict=True):
                balances[name_key(s)] -= paid[n]
        for _id, payer, payee, amount, active in g.payments:
            if active:
                balances[name_key(known.get(name_key(payer), payer))] += amount
                balances[name_key(known.get(name_key(payee), payee))] -= amount
        book = group_service.ledger(group, everything)
        got_balances = {name_key(n): c for n, c in book.balances.items() if c}
        assert got_balances == {k: c for k, c in balances.items() if c}, f"group {g.id}"
        assert {name_key(m) for m in g.members} <= {name_key(n) for n in book.balances}
        left = dict(book.balances)
        for payer, payee, amount in book.payments:
            assert amount > 0
            left[payer] += amount
            left[payee] -= amount
        assert not any(left.values())
        assert len(book.payments) <= max(0, len(got_balances) - 1)

    @staticmethod
    def check_ratings(raw: Raw, matches: list[dict], everything, group: Group) -> None:
        """Every player's rating, recomputed here with openskill itself from
        the finishing order replayed event by event (services/ratings.py)."""
        model = PlackettLuce()
        expected: dict[str, Any] = {}
        rated: dict[str, int] = defaultdict(int)
        for m in matches:
            places = finishing_places(raw, m["table"])
            if places is None:
                continue
            STATS["group", "a rated match"] += 1
            keys = [name_key(m["shown"][seat]) for seat in sorted(places)]
            teams = [[expected.get(k) or model.rating()] for k in keys]
            for k, (after,) in zip(keys, model.rate(teams, ranks=[places[s] for s in sorted(places)]), strict=True):
                expected[k] = after
                rated[k] += 1
        # The statistics' own invariants over all time: one closer a hand, places seen from both sides.
        figures = statistics_service.statistics(group, everything, statistics_service.Period("all"))
        lines = {name_key(p.name): p for p in figures.players}
        finished = [m for m in everything if m.finished]
        assert sum(p.matches for p in figures.players) == sum(len(m.players) for m in finished)
        assert sum(p.closes for p in figures.players) == sum(len(m.standing.rows) for m in finished)
        for line in figures.players:
            assert line.closes <= line.hands and line.wins <= line.matches
            for other, record in line.head_to_head.items():
                back = lines[name_key(other)].head_to_head[line.name]
                assert (record.ahead, record.behind, record.even) == (back.behind, back.ahead, back.even)
        got = statistics_service.group_ratings(everything)
        assert set(got) == set(expected), f"rated players {sorted(got)}, model {sorted(expected)}"
        for key, rating in got.items():
            assert rating.matches == rated[key]
            assert abs(rating.mu - expected[key].mu) < 1e-9 and abs(rating.sigma - expected[key].sigma) < 1e-9, key

    @staticmethod
    def season_lines(raw: Raw, members: list[dict], season_matches: list[dict]) -> dict[str, tuple]:
        """Each player's finished matches of the season, members first, guests after."""

        def line(name: str, member: bool) -> dict:
            return dict(name=name, member=member, played=0, won=0, total=0, closed=0, tens=0, chin=0, re=0, pts=[])

        lines = {m["key"]: line(m["name"], True) for m in members}
        for m in season_matches:
            state = m["state"]
            if not state.finished:
                continue
            rules = raw.rules(m["table"])
            hands = raw.active_hands(m["table"])
            for seat, (name, shown) in enumerate(zip(m["names"], m["shown"], strict=True)):
                one = lines.setdefault(name_key(shown), line(shown, False))
                one["played"] += 1
                one["won"] += name in state.winners
                one["total"] += state.totals[name]
                one["re"] += state.reentries[name]
                for h in hands:
                    points = raw.points(h)
                    if seat in points:
                        one["pts"].append((points[seat], seat == h["closer_seat"]))
                    if h["closer_seat"] == seat:
                        one["closed"] += 1
                        one["chin"] += bool(h["chinchon"])
                        one["tens"] += not h["chinchon"] and points[seat] == rules.all_combined_bonus
        return {
            k: (
                v["name"],
                v["member"],
                v["played"],
                v["won"],
                v["total"],
                v["closed"],
                v["tens"],
                v["chin"],
                v["re"],
                v["pts"],
            )
            for k, v in lines.items()
        }


def machine_settings(examples: int = EXAMPLES, steps: int = STEPS, **extra) -> settings:
    return settings(
        max_examples=examples,
        stateful_step_count=steps,
        deadline=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
            HealthCheck.large_base_example,
        ],
        **extra,
    )


def test_the_record_matches_its_model_and_a_replay(app):
    run_state_machine_as_test(RecordMachine, settings=machine_settings())


# -- bugs found by the machine, each pinned by a focused test -----------------------------------------
def _finished_table():
    with transaction():
        table = table_service.create_table(
            name="", preset="classic", overrides={"target": 30}, players=["Ana", "Ben"], first_dealer=0, suit_style=""
        )
    with transaction():
        hand_service.store_hand(
            table, table.version, "h1", hand_service.HandInput(closer=0, mode="points", points={0: -10, 1: 40})
        )
    return table


def test_a_table_with_a_rematch_can_be_deleted(app):
    """Found by the machine: rematch_of_id has no ON DELETE, so the original could not be deleted."""
    table = _finished_table()
    with transaction():
        new = rematch(table, table.version)
    with transaction():
        table_service.delete_table(table)
    assert db.session.get(GameTable, new.id) is not None


def test_a_digital_close_keeps_the_card_put_face_down(app):
    """Found by the machine: Ana closes putting 1c face down (4b stays loose:
    4 points); the scoreboard stored 4b as the discard and 1 point, the
    engine's best close of all eight cards."""
    pace = play.Pace(seed=1)
    with transaction():
        table = play.create_digital_table(
            name="",
            preset="classic",
            overrides={},
            players=[("Ana", "human"), ("Ben", "human")],
            mode="hotseat",
            first_dealer=1,
            suit_style="spanish",
            pace=pace,
        )
    deal = play.current_deal(table)
    deal.seats = [0, 1]
    deal.state = fixed(["1o 2o 3o 5c 5e 5b 1c 4b", "7o 7c 7e 10b 11b 12c 2e"], "6c 6e 6b", "12o").to_dict()
    db.session.commit()
    with transaction():
        game = play.act(table, play.current_deal(table), 0, play.current_deal(table).version, "close", "1c", pace)
    assert game.settle().points == [4, 29]
    hand = db.session.scalar(select(Hand))
    assert (hand.discard, hand.points_by_seat()) == ("1c", {0: 4, 1: 29})


def test_a_chinchon_that_puts_the_others_out_is_stored(app):
    """Found by the machine: Ana's Chinchón wins the match, and Ben's 40
    points put him over the target in the same hand, which already ends the
    match; the Chinchón event after it was refused, so the hand could not be
    saved (and a digital game where a computer player did this was stuck)."""
    with transaction():
        table = table_service.create_table(
            name="", preset="classic", overrides={"target": 30}, players=["Ana", "Ben"], first_dealer=0, suit_style=""
        )
    data = hand_service.HandInput(closer=0, mode="points", points={0: -10, 1: 40}, chinchon=True)
    with transaction():
        hand_service.store_hand(table, table.version, "h1", data)
    state = standing(table).state
    assert state.finished and state.winners == ["Ana"]
