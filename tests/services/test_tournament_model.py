"""Club tournaments as a state machine: random sequences of every tournament
write through the services (no HTTP), each one inside ``transaction()`` as a
view makes it, checked after every step against a model kept here.

Steps: tournaments created (knockout or rounds on points, some refused for
a bad setting or bad players), and a creation form sent again (Back, then
Create: it stores nothing and answers the tournament it made); late sign-ups and withdrawals (some refused:
a round in play, a knockout under way, a name twice); rounds started and
their start undone (refused while a round plays or once it has a hand);
hands typed at a table of the round (refused past the round's hands or at
a table the organizer closed) and undone; results confirmed or disputed at
a table, closed or corrected by the organizer (some refused: still playing,
already final, no reason, a wrong order, a table of another round); forms
now and then stale.  Some tournaments allow a re-entry: a player who goes
out is asked to buy back in at the table's phone before its next hand
(``services.nextstep``: never at a table with nothing left to play), and
says yes or no (some answers refused: nobody is asked, asked already).  Some tournaments play in the app: their tables are
dealt, computer players fill them to four when allowed, and people's turns
are played through ``services.play.act`` (refused once the organizer closed
the table); such a table's result needs nobody's confirmation.

After every step, for every tournament:

- a refused step left every row exactly as it was, and a step is refused
  exactly when the model says so;
- every round seats exactly the players the model says go on (all players
  still in; in a knockout those the model's places send on), once each, at
  tables of 3 to 5 (a later knockout round may end at a table of two); in a
  round on points seated by standing, table 1 holds the model's leaders;
- every table's status and counted places are the model's, recomputed from
  the raw rows: the engine's replay of its hands, ranked as the rulebooks
  rank a match (winners, then players in by lower total, then players out,
  the latest out first) among the tournament's players (never a computer
  player), and the latest result row said about it;
- the standings (tournament points shared on ties, hand points, places), the
  pot and the prizes (adding up to the pot) are the model's.
"""

from __future__ import annotations

import os
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test
from sqlalchemy import select

from companion.extensions import db
from companion.models import Deal, GameTable, Hand, Reentry, TableResult, Tournament, TournamentPlayer, TournamentRound
from companion.rules import ChinchonError, get_rules, replay_match
from companion.rules.names import name_key
from companion.services import tournaments as service
from companion.services.hands import HandInput, store_hand
from companion.services.nextstep import TABLE_PHONE, next_step
from companion.services.play import act, current_deal, deal_next, game_of
from companion.services.reentries import reenter
from companion.services.standing import standing
from companion.services.summary import Summary
from companion.services.undo import undo_last
from companion.services.unit import AlreadySaved, StaleError, transaction

from .test_tournament_digital import PACE, person_turn

#: Why the engine refuses a buy-back nobody was asked for (``rules.match``).
ENGINE_REFUSALS = frozenset({"still_in", "too_late", "no_reentry", "reentries_used", "min_players"})
NAMES = ["Ana", "Ben", "Carla", "Dani", "Eva", "Fede", "Gus", "Hugo", "Iris", "Juan", "Kim", "Lola", "Mar", "Nico"]
MAX_TOURNAMENTS = 3
#: How often the runs reached each situation (printed with ``-s``: the machine must get there).
SEEN: Counter[str] = Counter()


@dataclass
class MTable:
    id: int
    names: list[str]
    target: int
    limit: int | None
    hands: list[dict[str, int]] = field(default_factory=list)
    results: list[tuple[str, list[tuple[int, int]], int]] = field(default_factory=list)  # kind, places, version
    closed: bool = False
    version: int = 1
    #: A hand was ever stored here (an undone one stays in the history).
    played: bool = False
    #: Dealt by the app; its first ``people`` seats are the tournament's
    #: players, the rest computer players.
    digital: bool = False
    people: int = 0
    #: Re-entries the rules allow each player, and the answers given: (after hand, seat, declined).
    reentries_allowed: int = 0
    reentries: list[tuple[int, int, bool]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.people = self.people or len(self.names)


@dataclass
class MTournament:
    id: int
    format: str
    advance: int
    rounds_limit: int
    round_hands: int
    scale: tuple[int, ...]
    reseat: str
    entry_cents: int
    prizes: tuple[int, ...]
    target: int
    players: dict[str, int | None]
    play: str = "cards"
    bots: str = ""  # name → withdrawn after (None: still in)
    reentries: int = 0
    rounds: list[list[MTable]] = field(default_factory=list)
    version: int = 1
    #: The one-time id of the form that created it (None: made without a form).
    form: str | None = None


# -- the model's own reckoning, from raw values --------------------------------------
def events_of(t: MTable) -> list[tuple[int, dict]]:
    """The match as SPEC §8 events, each with the hand it comes with: a hand's
    points, then the re-entries bought right after it."""
    events: list[tuple[int, dict]] = []
    for number, hand in enumerate(t.hands, start=1):
        events.append((number, {"hand": hand}))
        events += [
            (number, {"reentry": t.names[seat]}) for after, seat, no in t.reentries if after == number and not no
        ]
    return events


def match_of(t: MTable):
    rules = get_rules("classic", target=t.target, reentries=t.reentries_allowed, reentry_min_players=2)
    events = events_of(t)
    state = replay_match(t.names, [e for _n, e in events], rules)
    out_in: dict[str, int] = {}
    running = replay_match(t.names, [], rules)
    for number, event in events:
        before = set(running.out)
        running.apply(event)
        for name in running.out:
            if name not in before:
                out_in[name] = number
    return state, out_in


def pending(t: MTable) -> list[int]:
    """The seats asked to buy back in before the next hand: out in the last
    hand with a re-entry left and no answer yet, at a table with more to play."""
    if closed_to_writes(t) or played_out(t):
        return []
    state, _ = match_of(t)
    answered = {seat for after, seat, _no in t.reentries if after == len(t.hands)}
    return [t.names.index(n) for n in state.can_reenter if t.names.index(n) not in answered]


def live_places(t: MTable) -> list[tuple[int, int]]:
    """The rulebooks' ranking of a match, written here: winners; players in,
    lower total first; players out, the latest out first (lower total first
    among those out in the same hand); equal keys share the place."""
    state, out_in = match_of(t)

    def key(seat: int) -> tuple:
        name = t.names[seat]
        if name in state.winners:
            return (0, 0, 0)
        if name not in state.out:
            return (1, 0, state.totals[name])
        return (2, -out_in[name], state.totals[name])

    keys = {s: key(s) for s in range(t.people)}
    order = sorted(keys, key=lambda s: (keys[s], s))
    return [(s, 1 + sum(k < keys[s] for k in keys.values())) for s in order]


def played_out(t: MTable) -> bool:
    state, _out = match_of(t)
    return state.finished or (t.limit is not None and len(t.hands) >= t.limit)


def status_of(t: MTable) -> tuple[str, list[tuple[int, int]]]:
    live = live_places(t)
    if t.results:
        kind, places, version = t.results[-1]
        if kind in ("closed", "corrected"):
            return "finished", places
        if version == t.version and kind == "confirmed" and played_out(t):
            return "finished", live
        if version == t.version and kind == "disputed" and not t.digital:
            return "disputed", live
    if t.digital:
        return ("finished" if played_out(t) else "playing"), live
    return ("waiting" if played_out(t) else "playing"), live


def closed_to_writes(t: MTable) -> str | None:
    """A tournament table takes no write once the organizer closed it or its result is final."""
    if t.closed:
        return "table_closed"
    if t.results and t.results[-1][0] in ("confirmed", "closed", "corrected"):
        return "result_final"
    return None


def shared(places: list[int], scale) -> list[Fraction]:
    worth = [Fraction(scale[i]) if i < len(scale) else Fraction(0) for i in range(len(places))]
    return [sum(worth[p - 1 : p - 1 + places.count(p)], Fraction(0)) / places.count(p) for p in places]


def in_play(m: MTournament) -> bool:
    return bool(m.rounds) and any(status_of(t)[0] != "finished" for t in m.rounds[-1])


def over(m: MTournament) -> bool:
    if not m.rounds or in_play(m):
        return False
    return len(m.rounds) >= m.rounds_limit if m.format == "points" else len(m.rounds[-1]) == 1


def going_on(m: MTournament) -> list[str]:
    active = [n for n, w in m.players.items() if w is None]
    if m.format == "points" or not m.rounds:
        return active
    names = []
    for t in m.rounds[-1]:
        for seat, place in status_of(t)[1]:
            if place <= m.advance:
                names.append(t.names[seat])
    return [n for n in names if n in active]


def standings(m: MTournament) -> list[tuple[int, str, Fraction, int]]:
    """(place, name, tournament points, hand points), best first."""
    tally = {
        n: {"points": Fraction(0), "hand": 0, "rounds": 0, "alive": True, "reached": 0, "place": 0} for n in m.players
    }
    done = over(m)
    for number, tables in enumerate(m.rounds, start=1):
        for t in tables:
            status, places = status_of(t)
            state, _ = match_of(t)
            worth = shared([p for _s, p in places], m.scale)
            placed = status == "finished" or bool(t.hands)  # a table in play with no hand yet places nobody
            for i, (seat, place) in enumerate(places):
                line = tally[t.names[seat]]
                line["points"] += worth[i]
                line["hand"] += state.totals[t.names[seat]]
                line["rounds"] += 1
                line["reached"], line["place"] = number, place if placed else None
                if m.format == "knockout" and status == "finished":
                    line["alive"] = place <= m.advance and not (done and place > 1)
    for name, withdrawn in m.players.items():
        if withdrawn is not None and not tally[name]["rounds"]:
            del tally[name]
    for line in tally.values():
        if m.format == "knockout" and line["reached"] < len(m.rounds):
            line["alive"] = False

    def key(name):
        line = tally[name]
        if m.format == "knockout":
            place = line["place"]
            return (not line["alive"], -line["reached"], place is None, place or 0, line["hand"])
        return (-line["points"], line["hand"])

    keys = {n: key(n) for n in tally}
    order = sorted(tally, key=lambda n: (keys[n], name_key(n)))
    return [(1 + sum(keys[o] < keys[n] for o in order), n, tally[n]["points"], tally[n]["hand"]) for n in order]


# -- the machine ----------------------------------------------------------------------------
def raw_rows() -> dict:
    db.session.expire_all()
    return {
        "tournaments": [(t.id, t.version, t.updated_at) for t in db.session.scalars(select(Tournament))],
        "players": [(p.id, p.name, p.withdrawn_after) for p in db.session.scalars(select(TournamentPlayer))],
        "rounds": [(r.id, r.number, r.undone_at) for r in db.session.scalars(select(TournamentRound))],
        "tables": [(t.id, t.version, t.round_id, t.closed_at) for t in db.session.scalars(select(GameTable))],
        "hands": [(h.id, h.undone_at) for h in db.session.scalars(select(Hand))],
        "results": [(r.id, r.kind, r.version) for r in db.session.scalars(select(TableResult))],
        "deals": [(d.id, d.version, d.hand_id) for d in db.session.scalars(select(Deal))],
    }


class TournamentMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.tournaments: list[MTournament] = []
        self.modelled: set[int] = set()  # the hands of the app's deals the model has counted
        for model in (TableResult, Deal, Hand, GameTable, TournamentRound, TournamentPlayer, Tournament):
            db.session.query(model).delete()
        db.session.commit()

    def row(self, m: MTournament) -> Tournament:
        return db.session.get(Tournament, m.id)

    def table_row(self, t: MTable) -> GameTable:
        return db.session.get(GameTable, t.id)

    def attempt(self, call, refusal: str | None, *, stale: bool = False):
        """Run one write; it is refused exactly when the model says, and a refused write changes nothing."""
        before = raw_rows()
        try:
            with transaction():
                result = call()
        except StaleError:
            assert stale, "refused as stale, the model expected it to go through"
            assert raw_rows() == before
            return None
        except ChinchonError as error:
            assert not stale, f"stale form went through to a {error.params.get('key')} refusal"
            key = error.params.get("key")
            assert key in refusal if isinstance(refusal, frozenset) else key == refusal, (error.params, refusal)
            assert raw_rows() == before
            return None
        assert not stale and refusal is None, f"expected {'stale' if stale else refusal}"
        return result

    def version(self, data, current: int) -> tuple[int, bool]:
        if data.draw(st.integers(0, 9)) == 0:
            return current - 1, True
        return current, False

    # -- tournaments --------------------------------------------------------------------
    @precondition(lambda self: len(self.tournaments) < MAX_TOURNAMENTS)
    @rule(
        data=st.data(),
        format=st.sampled_from(["knockout", "points"]),
        count=st.integers(2, 13),
        advance=st.sampled_from([1, 2, 3]),
        rounds=st.integers(1, 3),
        round_hands=st.integers(0, 3),
        scale=st.sampled_from([(4, 2, 1, 0), (3, 1), (5, 3, 2, 1, 0), (1, 2), (0, 0)]),
        reseat=st.sampled_from(["standing", "random"]),
        entry=st.sampled_from(["0", "5", "2.50"]),
        prizes=st.sampled_from([(100,), (60, 30, 10), (70, 30), (50, 40)]),
        goal=st.sampled_from([30, 50]),
        play=st.sampled_from(["cards", "cards", "hotseat"]),
        bots=st.sampled_from(["", "", "simple"]),
        reentries=st.sampled_from([0, 1, 1]),
    )
    def create(
        self,
        data,
        format,
        count,
        advance,
        rounds,
        round_hands,
        scale,
        reseat,
        entry,
        prizes,
        goal,
        play,
        bots,
        reentries,
    ):
        names = data.draw(st.permutations(NAMES))[:count]
        if data.draw(st.booleans()) and names:
            names = [*names, names[0].upper()]  # the same player twice
        form = uuid.uuid4().hex if data.draw(st.booleans()) else None  # the organizer's form, or the API
        settings_ = service.Settings(
            format=format,
            advance=advance,
            rounds=rounds,
            round_hands=round_hands,
            scale=scale,
            reseat=reseat,
            entry=Decimal(entry),
            prizes=prizes,
            play=play,
            bots=bots,
        )
        refusal = None
        if len(names) < 3:
            refusal = "players_few"
        elif len({name_key(n) for n in names}) < len(names):
            refusal = "name_twice"
        elif bots and play == "cards":
            refusal = "bots_cards"
        elif advance == 3:
            refusal = "advance"
        elif scale in ((1, 2), (0, 0)):
            refusal = "scale"
        elif sum(prizes) != 100:
            refusal = "prizes"

        def call():
            return service.create_tournament(
                name="Copa",
                players=names,
                preset="classic",
                # In the app a Chinchón scores -50 here, so that every hand is points (the model's events).
                overrides={
                    "target": goal,
                    "reentries": reentries,
                    "reentry_min_players": 2,  # a table of three still asks after one goes out
                    **({"chinchon": -50} if play != "cards" else {}),
                },
                settings=settings_,
                seed=data.draw(st.integers(1, 10_000)),
                submission=form,
            )

        row = self.attempt(call, refusal)
        if row is not None:
            self.tournaments.append(
                MTournament(
                    id=row.id,
                    format=format,
                    advance=advance,
                    rounds_limit=rounds,
                    round_hands=round_hands,
                    scale=scale,
                    reseat=reseat,
                    entry_cents=int(Decimal(entry) * 100),
                    prizes=prizes,
                    target=goal,
                    players=dict.fromkeys(names),
                    play=play,
                    bots=bots,
                    reentries=reentries,
                    form=form,
                )
            )

    @precondition(lambda self: any(m.form for m in self.tournaments))
    @rule(data=st.data(), edited=st.booleans())
    def send_the_creation_form_again(self, data, edited):
        """Back, then Create (maybe after changing a name): nothing is stored,
        and the answer is the organizer's link of the tournament it made."""
        m = data.draw(st.sampled_from([m for m in self.tournaments if m.form]))
        names = list(m.players)
        owner = self.row(m).owner_token
        before = raw_rows()
        with pytest.raises(AlreadySaved) as replayed, transaction():
            service.create_tournament(
                name="Copa",
                players=["Zoe", *names[1:]] if edited else names,
                preset="classic",
                overrides={"target": m.target},
                settings=service.Settings(format=m.format),
                submission=m.form,
            )
        assert raw_rows() == before
        assert replayed.value.made_link() == owner

    def between_rounds_refusal(self, m: MTournament) -> str | None:
        if in_play(m):
            return "round_in_play"
        if over(m):
            return "tournament_over"
        return None

    @precondition(lambda self: self.tournaments)
    @rule(data=st.data(), name=st.sampled_from([*NAMES, "Olga", "Pau", "x" * 41]))
    def sign_up(self, data, name):
        m = data.draw(st.sampled_from(self.tournaments))
        version, stale = self.version(data, m.version)
        refusal = self.between_rounds_refusal(m)
        known = next((n for n in m.players if name_key(n) == name_key(name)), None)
        if refusal is None and m.format == "knockout" and m.rounds:
            refusal = "signup_closed"
        elif refusal is None and len(name) > 40:
            refusal = "name_long"
        if refusal is None and not stale and known is not None and m.players[known] is None:
            refusal = "name_twice"
        if self.attempt(lambda: service.sign_up(self.row(m), version, name), refusal, stale=stale and refusal is None):
            m.players[known or name] = None
            m.version += 1

    @precondition(lambda self: self.tournaments)
    @rule(data=st.data())
    def withdraw(self, data):
        m = data.draw(st.sampled_from(self.tournaments))
        name = data.draw(st.sampled_from(sorted(m.players)))
        version, stale = self.version(data, m.version)
        refusal = self.between_rounds_refusal(m)
        if refusal is None and m.players[name] is not None:
            refusal = "unknown_player"
        player = next(p for p in self.row(m).players if p.name == name)
        if self.attempt(
            lambda: service.withdraw(self.row(m), version, player.id), refusal, stale=stale and refusal is None
        ):
            m.players[name] = len(m.rounds)
            m.version += 1

    @precondition(lambda self: self.tournaments)
    @rule(data=st.data())
    def start_round(self, data):
        m = data.draw(st.sampled_from(self.tournaments))
        version, stale = self.version(data, m.version)
        refusal = self.between_rounds_refusal(m)
        seated = going_on(m)
        if refusal is None and len(seated) < (3 if not m.rounds else 2):
            refusal = "players_few"
        expected_top = None
        if m.format == "points" and m.rounds and m.reseat == "standing":
            expected_top = [n for _p, n, _pts, _h in standings(m) if n in set(seated)]
        round_ = self.attempt(
            lambda: service.start_round(self.row(m), version, PACE), refusal, stale=stale and refusal is None
        )
        if round_ is None:
            return
        m.version += 1
        limit = m.round_hands if m.format == "points" and m.round_hands else None
        tables = []
        for t in round_.tables:
            people = sum(p.kind == "human" for p in t.players)
            digital = m.play != "cards"
            tables.append(
                MTable(
                    t.id, list(t.names), m.target, limit, digital=digital, people=people, reentries_allowed=m.reentries
                )
            )
            assert [p.kind for p in t.players] == ["human"] * people + [m.bots] * (len(t.players) - people)
            assert len(t.players) == (max(people, 4) if m.bots else people)
            assert t.kind == ("digital" if m.play != "cards" else "physical"), t.kind
        assert sorted(n for t in tables for n in t.names[: t.people]) == sorted(seated)
        sizes = [t.people for t in tables]
        assert all(3 <= s <= 5 for s in sizes) or (m.rounds and sizes == [2]), sizes
        if expected_top is not None:
            assert tables[0].names[: tables[0].people] == expected_top[: tables[0].people]
        m.rounds.append(tables)
        SEEN[f"{m.format}: round {len(m.rounds)} seated"] += 1

    @precondition(lambda self: any(m.rounds for m in self.tournaments))
    @rule(data=st.data())
    def undo_round(self, data):
        m = data.draw(st.sampled_from([m for m in self.tournaments if m.rounds]))
        version, stale = self.version(data, m.version)
        played = any(t.played or t.results for t in m.rounds[-1])
        undone = self.attempt(
            lambda: service.undo_round(self.row(m), version),
            "round_played" if played else None,
            stale=stale and not played,
        )
        if undone is not None:
            m.rounds.pop()
            m.version += 1

    # -- at the tables ----------------------------------------------------------------------
    def current_table(self, data) -> tuple[MTournament, MTable]:
        m = data.draw(st.sampled_from([m for m in self.tournaments if m.rounds]))
        return m, data.draw(st.sampled_from(m.rounds[-1]))

    def physical_tables(self) -> list[MTable]:
        return [t for m in self.tournaments if m.rounds for t in m.rounds[-1] if not t.digital]

    @precondition(lambda self: self.physical_tables())
    @rule(data=st.data())
    def hand(self, data):
        t = data.draw(st.sampled_from(self.physical_tables()))
        state, _ = match_of(t)
        still = [n for n in t.names if n not in state.out]
        closer = data.draw(st.sampled_from(still or t.names))
        points = {n: data.draw(st.integers(0, 25)) for n in still}
        points[closer] = data.draw(st.integers(1, 4))
        refusal = closed_to_writes(t)
        if refusal:
            pass
        elif state.finished:
            refusal = "match_over"
        elif t.limit is not None and len(t.hands) >= t.limit:
            refusal = "hand_limit"
        elif pending(t):
            refusal = "reentry_pending"
        table = self.table_row(t)
        names = t.names
        typed = HandInput(
            closer=names.index(closer), mode="points", points={names.index(n): p for n, p in points.items()}
        )
        if self.attempt(lambda: store_hand(table, t.version, uuid.uuid4().hex, typed), refusal):
            t.hands.append(points)
            t.version += 1
            t.played = True

    @precondition(lambda self: any(m.rounds for m in self.tournaments))
    @rule(data=st.data())
    def a_round_plays_out_and_confirms(self, data):
        """Every table of a round: hands until nothing is left to play (heavy
        points: players go out fast), then a confirmation where one is due."""
        m = data.draw(st.sampled_from([m for m in self.tournaments if m.rounds]))
        for t in m.rounds[-1]:
            while t.digital and not played_out(t) and not closed_to_writes(t):
                self.play_digital_hand(t)
            while not played_out(t) and not closed_to_writes(t):
                self.answer_every_buy_back(data, t)
                state, _ = match_of(t)
                still = [n for n in t.names if n not in state.out]
                closer = data.draw(st.sampled_from(still))
                points = {n: 1 if n == closer else data.draw(st.integers(10, 40)) for n in still}
                typed = HandInput(
                    closer=t.names.index(closer), mode="points", points={t.names.index(n): p for n, p in points.items()}
                )
                self.attempt(
                    lambda t=t, typed=typed: store_hand(self.table_row(t), t.version, uuid.uuid4().hex, typed), None
                )
                t.hands.append(points)
                t.version += 1
                t.played = True
            status, places = status_of(t)
            if status == "waiting":
                losers = [s for s, p in places if p > 1] or [0]
                self.attempt(lambda t=t, by=losers[0]: service.confirm_result(self.table_row(t), t.version, by), None)
                t.version += 1
                t.results.append(("confirmed", places, t.version))

    # -- at the app's tables ------------------------------------------------------------------
    def digital_tables(self, *, open_: bool = True) -> list[MTable]:
        """The round's tables dealt by the app: still to play (or closed by the organizer mid-hand)."""
        tables = [t for m in self.tournaments if m.rounds for t in m.rounds[-1] if t.digital]
        if open_:
            return [t for t in tables if not played_out(t) and not closed_to_writes(t)]
        return [t for t in tables if t.closed and current_deal(self.table_row(t)).state["phase"] != "over"]

    def play_digital_hand(self, t: MTable) -> None:
        """People's turns through ``act`` (computer players move by
        themselves) until the next hand is stored; a void one is dealt again.
        The model takes the hand's points from the engine's settlement of the
        deal's own cards, not from the scoreboard."""
        table = self.table_row(t)
        for _ in range(500):
            deal = current_deal(table)
            if deal.state["phase"] == "over":
                if deal.hand_id is not None and deal.hand_id not in self.modelled:
                    game = game_of(table, deal)
                    result = game.settle({})
                    t.hands.append({t.names[deal.seats[i]]: r.points for i, r in enumerate(result.results)})
                    t.version += 1
                    t.played = True
                    self.modelled.add(deal.hand_id)
                    SEEN["hands played in the app"] += 1
                    return
                self.answer_every_buy_back(None, t)
                self.attempt(lambda deal=deal: deal_next(table, deal.id, deal.version, PACE), None)
                continue
            person_turn(table)
        raise AssertionError("a hand in the app never ended")

    # -- buying back in -------------------------------------------------------------------------
    def answer_every_buy_back(self, data, t: MTable) -> None:
        """The table's phone answers every question the next hand waits for (yes, mostly)."""
        self.server_answers(t)
        for seat in pending(t):
            yes = data.draw(st.integers(0, 3)) > 0 if data is not None else True
            self.buy_back(t, seat, declined=not yes, refusal=None)

    def server_answers(self, t: MTable) -> None:
        """At a table dealt by the app the server answers for the computer
        players itself (``seats``): the model takes those answers, each for a
        computer's seat, as written."""
        if not t.digital:
            return
        known = {(after, seat) for after, seat, _no in t.reentries}
        rows = db.session.scalars(
            select(Reentry).where(Reentry.table_id == t.id, Reentry.undone_at.is_(None)).order_by(Reentry.id)
        )
        for row in rows:
            if (row.after_hand, row.seat) not in known:
                assert row.seat >= t.people, "the server answered for a person"
                t.reentries.append((row.after_hand, row.seat, row.declined))
                t.version += 1

    def buy_back(self, t: MTable, seat: int, *, declined: bool, refusal, stale: bool = False, version=None) -> bool:
        table = self.table_row(t)
        version = t.version if version is None else version
        call = lambda: reenter(table, version, uuid.uuid4().hex, seat, declined=declined, asker=TABLE_PHONE)  # noqa: E731
        if self.attempt(call, refusal, stale=stale) is None:
            return False
        t.reentries.append((len(t.hands), seat, declined))
        t.version += 1
        SEEN["said no to buying back in" if declined else "bought back in"] += 1
        return True

    def asking_tables(self) -> list[MTable]:
        return [t for m in self.tournaments if m.rounds for t in m.rounds[-1] if t.reentries_allowed]

    @precondition(lambda self: self.asking_tables())
    @rule(data=st.data(), declined=st.booleans(), seat=st.integers(-1, 4))
    def a_buy_back_at_a_table(self, data, declined, seat):
        """A player who went out answers "buy back in?" at the table's phone;
        an answer nobody asked for, or asked twice, or at a table with nothing
        left to play, is refused saying why."""
        t = data.draw(st.sampled_from(self.asking_tables()))
        asked = pending(t)
        if asked and data.draw(st.integers(0, 4)) > 0:
            seat = data.draw(st.sampled_from(asked))
        version, stale = self.version(data, t.version)
        state, _ = match_of(t)
        answered = {s for after, s, _no in t.reentries if after == len(t.hands)}
        if seat in asked:
            refusal = None
        elif closed_to_writes(t):
            refusal = closed_to_writes(t)
        elif not 0 <= seat < len(t.names):
            refusal = "unknown_player"
        elif seat in answered:
            refusal = "reentry_decided"
        elif played_out(t):
            refusal = "match_over" if state.finished else "hand_limit"
        else:
            refusal = ENGINE_REFUSALS  # not out in the last hand, or none left: the engine says which
        if closed_to_writes(t) is None and refusal is None and t.digital:
            deal = current_deal(self.table_row(t))
            assert deal.state["phase"] == "over"  # asked between hands only
        if self.buy_back(t, seat, declined=declined, refusal=refusal, stale=stale and refusal is None, version=version):
            SEEN["a buy-back answered at a tournament table"] += 1

    @precondition(lambda self: self.digital_tables())
    @rule(data=st.data())
    def a_hand_in_the_app(self, data):
        self.play_digital_hand(data.draw(st.sampled_from(self.digital_tables())))

    @precondition(lambda self: self.digital_tables(open_=False))
    @rule(data=st.data())
    def a_move_at_a_closed_table_in_the_app(self, data):
        t = data.draw(st.sampled_from(self.digital_tables(open_=False)))
        table = self.table_row(t)
        deal = current_deal(table)
        seat = game_of(table, deal).turn
        self.attempt(lambda: act(table, deal, seat, deal.version, "stock", pace=PACE), "table_closed")
        SEEN["moves refused at a closed table"] += 1

    def confirmed_tables(self) -> list[MTable]:
        return [
            t
            for m in self.tournaments
            if m.rounds
            for t in m.rounds[-1]
            if t.results and t.results[-1][0] == "confirmed" and t.hands and not t.closed
        ]

    @precondition(lambda self: self.confirmed_tables())
    @rule(data=st.data())
    def a_confirmed_table_tries_to_take_its_last_hand_back(self, data):
        """Found at a real table: after the confirmation somebody tapped
        "Undo last", and a finished tournament was open again.  A confirmed
        result is final: only the organizer changes it."""
        t = data.draw(st.sampled_from(self.confirmed_tables()))
        self.attempt(lambda: undo_last(self.table_row(t), t.version), "result_final")
        last = t.hands[-1]
        typed = HandInput(closer=0, mode="points", points={t.names.index(n): p for n, p in last.items()})
        self.attempt(lambda: store_hand(self.table_row(t), t.version, uuid.uuid4().hex, typed), "result_final")

    @precondition(lambda self: any(t.hands for m in self.tournaments for r in m.rounds for t in r))
    @rule(data=st.data())
    def undo_hand(self, data):
        tables = [(m, t) for m in self.tournaments if m.rounds for t in m.rounds[-1] if t.hands and not t.digital]
        if not tables:
            return
        _tournament, t = data.draw(st.sampled_from(tables))
        if self.attempt(lambda: undo_last(self.table_row(t), t.version), closed_to_writes(t)):
            t.hands.pop()
            t.version += 1

    @precondition(lambda self: any(m.rounds for m in self.tournaments))
    @rule(data=st.data(), confirm=st.booleans(), seat=st.integers(-1, 4))
    def say(self, data, confirm, seat):
        _tournament, t = self.current_table(data)
        version, stale = self.version(data, t.version)
        status, places = status_of(t)
        winners = [t.names[s] for s, p in places if p == 1]
        refusal = None
        if t.digital:
            refusal = "result_digital"
        elif status == "finished":
            refusal = "result_final"
        elif confirm and status == "disputed":
            refusal = "result_disputed"
        elif confirm and not played_out(t):
            refusal = "table_playing"
        elif not 0 <= seat < t.people:
            refusal = "unknown_player"
        elif confirm and t.names[seat] in winners and len(winners) < len(t.names):
            refusal = "confirm_by_winner"
        table = self.table_row(t)
        if confirm:
            call = lambda: service.confirm_result(table, version, seat)  # noqa: E731
        else:
            call = lambda: service.dispute_result(table, version, seat, "the last hand")  # noqa: E731
        if self.attempt(call, refusal, stale=stale and refusal is None):
            t.version += 1
            t.results.append(("confirmed" if confirm else "disputed", places, t.version))

    @precondition(lambda self: any(m.rounds for m in self.tournaments))
    @rule(data=st.data(), close=st.booleans(), reason=st.sampled_from(["", "Ben left early", " "]))
    def organizer(self, data, close, reason):
        m, t = self.current_table(data)
        version, stale = self.version(data, m.version)
        status, places = status_of(t)
        order = data.draw(st.permutations(range(t.people)))
        if data.draw(st.integers(0, 5)) == 0:
            order = order[:-1]
        if close:
            refusal = "result_final" if status == "finished" else None
            call = lambda: service.close_table(self.row(m), version, t.id)  # noqa: E731
        else:
            refusal = "order" if len(order) < t.people else None if reason.strip() else "reason_missing"
            call = lambda: service.correct_result(self.row(m), version, t.id, order, reason)  # noqa: E731
        if self.attempt(call, refusal, stale=stale and refusal is None):
            m.version += 1
            t.version += 1
            if close:
                t.closed = True
                t.results.append(("closed", places, t.version))
            else:
                t.results.append(("corrected", [(s, i) for i, s in enumerate(order, start=1)], t.version))

    @precondition(lambda self: sum(len(m.rounds) for m in self.tournaments) >= 2)
    @rule(data=st.data())
    def correct_an_earlier_round(self, data):
        m = data.draw(st.sampled_from([m for m in self.tournaments if len(m.rounds) >= 2] or self.tournaments))
        if len(m.rounds) < 2:
            return
        t = data.draw(st.sampled_from(m.rounds[0]))
        self.attempt(
            lambda: service.correct_result(self.row(m), m.version, t.id, list(range(t.people)), "late"),
            "unknown_table",
        )

    # -- what everybody sees ----------------------------------------------------------------
    @invariant()
    def the_record_is_the_models(self):
        for m in self.tournaments:
            row = self.row(m)
            assert row.version == m.version
            view = service.overview(row)
            assert [[s.table.id for s in tables] for _r, tables in view.rounds] == [[t.id for t in r] for r in m.rounds]
            for (_round, statuses), tables in zip(view.rounds, m.rounds, strict=True):
                for s, t in zip(statuses, tables, strict=True):
                    table = db.session.get_one(GameTable, s.table.id)
                    assert s.table.version == t.version == table.version
                    assert table.summary_version == t.version  # written with the table, never replayed here
                    assert s.summary == Summary.of(standing(table))
                    assert s.table == service.TableRow.of(table)
                    assert (s.status, [tuple(p) for p in s.places]) == status_of(t), t.id
                    step = next_step(table)
                    assert step.pending_seats == pending(t), (t.id, step.refusal)
                    assert step.played_out == (played_out(t) and not closed_to_writes(t)), t.id
            assert view.in_play == in_play(m) and view.over == over(m)
            SEEN[f"{m.format}: over"] += view.over
            SEEN["finished tables"] += sum(s.final for s in view.current)
            if not view.in_play and not view.over:
                assert view.going_on == going_on(m)
            lines = view.standings
            assert [(line.place, line.name, line.points, line.hand_points) for line in lines] == standings(m)
            seated = {n for r in m.rounds for t in r for n in t.names[: t.people]}
            assert view.pot_cents == m.entry_cents * len(seated)
            if view.over and m.entry_cents:
                assert sum(view.prizes.values()) == view.pot_cents
                by_place = defaultdict(set)
                for line in lines:
                    by_place[line.place].add(view.prizes.get(line.name, 0))
                assert all(max(v) - min(v) <= 1 for v in by_place.values())  # tied places share, to the cent
            else:
                assert view.prizes == {}


def test_tournaments_match_their_model(app):
    # Fewer on PostgreSQL (scripts/run-tests.sh, step 3): every step is a few round trips there.
    examples = int(os.environ.get("TOURNAMENT_MODEL_EXAMPLES") or (6 if os.environ.get("TEST_DATABASE_URL") else 15))
    run_state_machine_as_test(
        TournamentMachine,
        settings=settings(
            max_examples=examples,
            stateful_step_count=40,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
    print(dict(SEEN))
