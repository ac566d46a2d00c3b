"""Digital tables: deals stored in the database, actions checked by the engine,
computer players moving on the server, finished hands written to the same
scoreboard as physical tables (``hands.store_hand``).

Computer players move in short bursts: one request plays at most
``pace.turns`` bot turns and ``pace.seconds`` of bot thinking, and the next
request (a move, or a phone's poll) carries on.  A deal where only computer
players are left therefore never ties up a worker, whatever they do.

Every write here runs inside the unit of work (:mod:`.unit`) and claims the
deal's version (or, for a rematch, the table's); nothing here commits.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select

from ..bots import BOTS, Bot, ExpertBot, bot_turn
from ..bots import review as reviews
from ..bots.advice import Hint, hint
from ..bots.apart import Apart
from ..bots.view import seat_view as bot_view
from ..extensions import db
from ..models import (
    Deal,
    EntryMode,
    GameTable,
    Hand,
    Player,
    PlayerKind,
    PlayMode,
    TableKind,
    TournamentRound,
    TurnClock,
    now,
)
from ..rules import ChinchonError, parse_card
from ..rules.deal_proof import SEED_BYTES, Reshuffles, SeededShuffle, commitment, hand_seed
from ..rules.game import HandGame, Phase, PlayError, Shuffler, Source
from . import clock, seats
from .hands import HandInput, store_hand
from .nextstep import TABLE_PHONE, Asker, Refusal, can_write, latest_deal, next_step, verify_open
from .standing import standing
from .tables import create_table
from .unit import AlreadyDone, AlreadySaved, ServiceError, StaleError, claim, new_token, touch

BOT_TURNS = 12  # per request; the next request carries on
BOT_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class Pace:
    """How the server deals and how long computer players think per request:
    ``seed`` replays the same deals (tests: each deal's seed is made from it),
    else every deal's seed comes from the operating system's secure source."""

    seed: object = None
    turns: int = BOT_TURNS
    seconds: float = BOT_SECONDS
    #: The expert's thinking budget per decision, in milliseconds (None: its
    #: own, ``bots.expert.THINK_MS``; bench/bench_expert.py times it).
    think_ms: float | None = None
    #: The expert thinks in a helper process at low priority
    #: (``bots.apart``), not in the request: the web app's default.
    apart: bool = False


DEFAULT_PACE = Pace()


def rng(pace: Pace, *salt: object) -> random.Random:
    """The shuffler of a deal stored before deals had seeds (its reshuffles)."""
    if pace.seed is None:
        return random.SystemRandom()
    return random.Random(":".join(str(x) for x in (pace.seed, *salt)))


def deal_seed(table: GameTable, pace: Pace, number: int, redeals: int, players: int) -> bytes:
    """The secret every shuffle of a new deal comes from (``rules.deal_proof``):
    32 bytes of the operating system's secure randomness, or made from the
    pace's seed in tests, so a replay deals the same cards.  At a table of a
    duplicate round, the round's secret makes it (``deal_proof.hand_seed``):
    hand n is dealt alike at every table of the round with as many players."""
    secret = round_secret(table)
    if secret is not None:
        return hand_seed(secret, len(table.players), players, number, redeals)
    if pace.seed is None:
        return secrets.token_bytes(SEED_BYTES)
    return hashlib.sha256(":".join(str(x) for x in (pace.seed, table.id, number, redeals)).encode()).digest()


def round_secret(table: GameTable) -> bytes | None:
    """The secret of the duplicate round the table plays in, if it does."""
    round_ = db.session.get(TournamentRound, table.round_id) if table.round_id is not None else None
    return bytes.fromhex(round_.deal_secret) if round_ is not None and round_.deal_secret else None


def new_round_secret(pace: Pace, *salt: object) -> str:
    """A duplicate round's secret, in hex (made from the pace's seed in tests)."""
    if pace.seed is None:
        return secrets.token_bytes(SEED_BYTES).hex()
    return hashlib.sha256(":".join(str(x) for x in ("round", pace.seed, *salt)).encode()).hexdigest()


def shuffler(deal: Deal, game: HandGame, pace: Pace = DEFAULT_PACE) -> Shuffler:
    """What reshuffles the pile of this deal if its stock runs out: the
    deal's seed, counting on from the reshuffles so far."""
    if deal.seed is None:  # dealt before deals had seeds
        return rng(pace, deal.table_id, deal.number, deal.id, game.turns_taken)
    return Reshuffles(bytes.fromhex(deal.seed), game.reshuffles)


def create_digital_table(
    *,
    name: str,
    preset: str,
    overrides: dict,
    players: Sequence[tuple[str, str]],
    mode: PlayMode | str,
    first_dealer: int,
    suit_style: str,
    rematch_of: GameTable | None = None,
    hints: bool = True,
    clock: TurnClock | str = TurnClock.OFF,
    pace: Pace = DEFAULT_PACE,
    round_: TournamentRound | None = None,
    round_table: int | None = None,
    submission: str | None = None,
) -> GameTable:
    """A digital table and its first deal (computer players move at once);
    a turn ``clock`` only where each person plays on their own phone.  A
    tournament's table is seated in its round (``round_``, ``round_table``)
    before the deal: a duplicate round deals from the round's secret.
    ``submission``: the new-game form's one-time id (as :func:`create_table`'s:
    the form sent again stores nothing and raises ``AlreadySaved`` with the
    table it made)."""
    kinds = [_kind(kind) for _, kind in players]
    if PlayerKind.HUMAN not in kinds:
        raise ServiceError("no_person", "players")
    if TurnClock(clock) is not TurnClock.OFF and PlayMode(mode) is not PlayMode.DEVICES:
        raise ServiceError("clock_one_phone", "clock")
    table = create_table(
        name=name,
        preset=preset,
        overrides=overrides,
        players=[n for n, _ in players],
        first_dealer=first_dealer,
        suit_style=suit_style,
        rematch_of=rematch_of,
        submission=submission,
    )
    table.kind = TableKind.DIGITAL
    table.play_mode = PlayMode(mode)
    table.hints_allowed = hints
    table.turn_clock = TurnClock(clock)
    for player, kind in zip(table.players, kinds, strict=True):
        player.kind = kind
        if table.play_mode is PlayMode.DEVICES and kind is PlayerKind.HUMAN:
            player.seat_token = new_token()
    if round_ is not None:
        table.round_id, table.round_table = round_.id, round_table
    db.session.flush()
    start_deal(table, pace)
    return table


def _kind(kind: str) -> PlayerKind:
    try:
        return PlayerKind(kind)
    except ValueError:
        raise ServiceError("unknown_player", "players") from None


current_deal = latest_deal


def game_of(table: GameTable, deal: Deal) -> HandGame:
    return HandGame.from_dict(deal.state, table.rules)


def start_deal(table: GameTable, pace: Pace = DEFAULT_PACE, by: str = "") -> Deal:
    """Deal the next hand among the players still in, then let bots move,
    when the table may take it (``nextstep``: not while the match is over or
    a player who went out has not said whether they buy back in).  After a
    void hand the next dealer in play order deals the same hand again (its
    scoreboard number stays: nothing was scored)."""
    current = standing(table)
    step = next_step(table, current)
    step.verify_hand("deal")
    seats = current.seats_in
    dealer = seats.index(step.dealer) if step.dealer in seats else 0
    number = step.number
    redeals = db.session.scalar(select(func.count(Deal.id)).where(Deal.table_id == table.id, Deal.number == number))
    seed = deal_seed(table, pace, number, redeals or 0, len(seats))
    game = HandGame.deal(table.rules, len(seats), dealer, SeededShuffle(seed), table_players=len(table.players))
    deal = Deal(
        table_id=table.id,
        number=number,
        seats=seats,
        state=game.to_dict(),
        dealt_by=by,
        seed=seed.hex(),
        commitment=commitment(seed),
    )
    clock.start(deal, clock.clock_for(table), len(seats))
    db.session.add(deal)
    db.session.flush()
    run_bots(table, deal, game, pace=pace)
    keep(table, deal, game)
    return deal


def deal_next(
    table: GameTable, deal_id: int | None, version: int | None, pace: Pace = DEFAULT_PACE, asker: Asker = TABLE_PHONE
) -> Deal:
    """ "Deal the next hand" after the deal ``deal_id`` the page showed: claims
    that deal's version like every other action, so several phones pressing
    at once deal once; the others are told who dealt (:class:`AlreadyDone`)."""
    deal = current_deal(table)
    seen = db.session.get(Deal, deal_id) if deal_id is not None else None
    if deal is None or seen is None or seen.table_id != table.id:
        raise StaleError
    if deal.id != seen.id:
        raise _dealt(deal)
    next_step(table, deal=deal).verify_hand("deal")
    try:
        claim(deal, version)
    except StaleError:
        newer = current_deal(table)  # another phone's deal, committed meanwhile
        if newer is not None and newer.id != seen.id:
            raise _dealt(newer) from None
        raise
    return start_deal(table, pace, by=asker.name)


def _dealt(deal: Deal) -> AlreadyDone:
    return AlreadyDone("already_dealt", "deal", number=deal.number, by=deal.dealt_by)


def void_hand(table: GameTable, deal_id: int | None, version: int | None) -> Deal:
    """The table agrees to stop the hand in play (one that goes round and
    round with nobody closing): it ends void, the engine's path for a stock
    run out past the house rule.  Nobody scores, the deal stays in the record
    as void, and the next dealer deals the hand again (:func:`start_deal`).

    ``deal_id`` and ``version`` are those of the page that confirmed: a
    confirmation of an earlier deal, or of this one before it moved on, is
    refused (:class:`StaleError`), and so is one for a hand already over.

    Before anybody has moved (a phone that never came) the hand is *called
    off* instead: no record of it is shown, and the same dealer deals it
    again when the table asks (``nextstep.dealer``)."""
    verify_open(table, "action")
    deal = current_deal(table)
    if deal is None or deal.id != deal_id:
        raise StaleError
    game = game_of(table, deal)
    untouched = untouched_deal(deal, game)
    game.abandon()
    claim(deal, version)
    deal.called_off = untouched
    keep(table, deal, game)
    return deal


def untouched_deal(deal: Deal, game: HandGame) -> bool:
    """Nobody has moved in the hand yet (nor asked for a hint)."""
    return not game.log and not deal.hints


def keep(table: GameTable, deal: Deal, game: HandGame, at: datetime | None = None) -> None:
    """The deal's new state, stored, and the turn clock moved on; a hand that
    just ended void moves who deals next, which every page of the table
    shows: the table's version too."""
    was_void = bool(deal.state.get("void"))
    at = at or now()
    clock.turn_passed(deal, deal.state, game, at)
    deal.state = game.to_dict()
    deal.updated_at = at
    if game.void is not None and not was_void:
        touch(table)


def is_bot(table: GameTable, deal: Deal, engine_seat: int) -> bool:
    """The computer plays this seat: a computer player, or a person's seat handed over (``seats``)."""
    return table.players[deal.seats[engine_seat]].played_by_computer


def bot_for(player: Player, pace: Pace = DEFAULT_PACE) -> Bot:
    """The computer player that plays ``player``'s seat (the expert thinks
    the pace's budget, apart from the request when the pace says so)."""
    cls = BOTS[player.kind if player.kind.computer else seats.STAND_IN]
    if cls is not ExpertBot:
        return cls()
    expert = ExpertBot(think_ms=pace.think_ms)
    return Apart(expert) if pace.apart and expert.think_ms > 0 else expert


def bots_to_move(table: GameTable, deal: Deal, game: HandGame) -> bool:
    return game.phase != Phase.OVER and is_bot(table, deal, game.turn)


def run_bots(
    table: GameTable,
    deal: Deal,
    game: HandGame,
    *,
    pace: Pace = DEFAULT_PACE,
    turns: int | None = None,
    seconds: float | None = None,
) -> int:
    """Computer players move until a person is to move, the hand ends, or
    this request's share is used up (``turns`` bot turns, ``seconds`` of
    thinking; the pace's by default); returns the turns played.  The rest
    waits for the next request."""
    turns = pace.turns if turns is None else turns
    seconds = pace.seconds if seconds is None else seconds
    deadline = time.monotonic() + seconds
    played = 0
    totals: list[int] | None = None
    while bots_to_move(table, deal, game) and played < turns and (played == 0 or time.monotonic() < deadline):
        if totals is None:  # the match score, which the expert plays (in the deal's seat order)
            current = standing(table)
            totals = [current.total(seat) for seat in deal.seats]
        _computer_turn(table, deal, game, pace, totals)
        played += 1
    if game.phase == Phase.OVER:
        finish(table, deal, game)
    return played


def _computer_turn(
    table: GameTable, deal: Deal, game: HandGame, pace: Pace, totals: Sequence[int] | None = None
) -> None:
    """The computer plays the turn in play: a computer player's, or a person's
    (their seat handed over, or their time run out), marked as played for them."""
    if totals is None:  # the match score, which the expert plays (in the deal's seat order)
        current = standing(table)
        totals = [current.total(seat) for seat in deal.seats]
    player = table.players[deal.seats[game.turn]]
    if not player.kind.computer:
        deal.covered = [*(deal.covered or []), len(game.log)]
    bot_turn(game, bot_for(player, pace), shuffler(deal, game, pace), totals=totals)


def advance(table: GameTable, deal: Deal, pace: Pace = DEFAULT_PACE, at: datetime | None = None) -> bool:
    """Let computer players carry on, and play a turn whose time ran out (a
    poll's share of the work); True when something moved.  Two phones
    polling at once move once (the deal's version is claimed)."""
    if not can_write(table):
        return False
    if deal.state.get("phase") == "over":  # a buy-back question of a phone away past the grace period
        return seats.may_have_left(table, deal, at) and bool(seats.decide_for_absent(table, at=at))
    game = game_of(table, deal)
    late = not bots_to_move(table, deal, game) and turn_ran_out(table, deal, game, at)
    if not late and not bots_to_move(table, deal, game):
        return False
    try:
        claim(deal, deal.version)
    except StaleError:
        return False
    if late:
        play_for_late(table, deal, game, pace, at)
    run_bots(table, deal, game, pace=pace)  # the computer seats after it; a hand it closed is stored
    keep(table, deal, game, at)
    return True


def turn_time(table: GameTable, deal: Deal, game: HandGame, at: datetime | None = None) -> clock.TurnTime | None:
    """The time of the person to move, as every phone shows it (None: no clock running)."""
    mover = table.players[deal.seats[game.turn]]
    if game.phase == Phase.OVER or mover.played_by_computer:
        return None
    return clock.time_left(deal, game, at, seen=mover.seen_at is not None, away=seats.is_away(mover, at))


def turn_ran_out(table: GameTable, deal: Deal, game: HandGame, at: datetime | None = None) -> bool:
    shown = turn_time(table, deal, game, at)
    return shown is not None and (at or now()) >= shown.deadline


def phone_seen(table: GameTable, player: Player, phone: str = "", at: datetime | None = None) -> bool:
    """A seat's own phone asked (``seats.note_seen``); the first time, if the
    game waits on its turn, the turn's time begins now (a clock never runs
    for a phone that has not opened the game yet)."""
    at = at or now()
    first = player.seen_at is None
    written = seats.note_seen(player, at, phone)
    deal = current_deal(table) if first and written else None
    if deal is not None and deal.state.get("phase") != "over" and deal.seats[deal.state["turn"]] == player.seat:
        clock.first_seen(deal, game_of(table, deal), at)
    return written


def play_for_late(table: GameTable, deal: Deal, game: HandGame, pace: Pace, at: datetime | None = None) -> None:
    """The turn in play ran out of time and reserve: the computer plays it for
    the seat; a seat whose phone is away is handed to the computer for the
    turns after it too (``seats.hand_to_clock``), until its person is back."""
    player = table.players[deal.seats[game.turn]]
    seats.hand_to_clock(table, player, at)
    _computer_turn(table, deal, game, pace)


def hand_seat_over(
    table: GameTable,
    seat: int,
    version: int | None,
    asker: Asker,
    *,
    owner: bool,
    pace: Pace = DEFAULT_PACE,
    at: datetime | None = None,
) -> Player:
    """A person's seat handed to the computer (``seats.hand_over`` says who
    may, when): if the hand in play waits on that seat, the computer plays
    its turn now, in the same write."""
    player = seats.hand_over(table, seat, version, asker, owner=owner, at=at)
    deal = current_deal(table)
    if deal is not None:
        advance(table, deal, pace)
    return player


def finish(table: GameTable, deal: Deal, game: HandGame, choices: dict[int, int] | None = None) -> None:
    """A closed hand goes into the scoreboard exactly like a hand entered by
    hand (the engine's best showing and lay-offs for everybody).  A void hand
    stores nothing: nobody scores and no event enters the match."""
    if game.closer is None or deal.hand_id is not None:
        return
    deal.state = game.to_dict()  # the deal is over: the scoreboard takes its hand now
    db.session.flush()
    try:
        hand = _store(table, deal, game, f"deal-{deal.id}", choices)
    except AlreadySaved:
        return
    hand.dealer_seat = deal.seats[game.dealer]  # after a void hand the dealer moved on
    deal.hand_id = hand.id
    seats.decide_for_computers(table)  # computer players answer "buy back in?" themselves


def _store(
    table: GameTable,
    deal: Deal,
    game: HandGame,
    submission: str,
    choices: dict[int, int] | None = None,
    replaces: Hand | None = None,
) -> Hand:
    """The deal's hand on the scoreboard as it was played: the closer shows
    the seven cards kept, so the card put face down is the one the player
    chose (not the engine's best discard); the entry keeps all eight."""
    hand = store_hand(table, table.version, submission, hand_input(deal, game, choices), replaces=replaces)
    closer_seat = deal.seats[game.closer]  # type: ignore[index]
    hand.discard = str(game.closing_discard)
    for entry in hand.entries:
        if entry.seat == closer_seat:
            entry.cards = f"{entry.cards} {game.closing_discard}".strip()
    return hand


def hand_input(deal: Deal, game: HandGame, choices: dict[int, int] | None = None) -> HandInput:
    cards = {deal.seats[i]: list(h) for i, h in enumerate(game.shown_hands())}
    closer = deal.seats[game.closer]  # type: ignore[index]
    data = HandInput(closer=closer, mode=EntryMode.CARDS, cards=cards, first_round=game.first_round)
    data.choices = dict(choices or {})
    return data


def choices_of(deal: Deal) -> dict[int, int]:
    """The arrangements picked so far, by engine seat (from the stored hand)."""
    hand = db.session.get(Hand, deal.hand_id) if deal.hand_id else None
    if hand is None:
        return {}
    return {deal.seats.index(e.seat): e.choice for e in hand.entries if e.choice and e.seat in deal.seats}


def choose_arrangement(
    table: GameTable, deal: Deal, engine_seat: int, version: int, pick: int, *, allowed: Sequence[int]
) -> None:
    """After a close a player may show another arrangement with the same points
    (the engine's best is pre-selected); the stored hand is replaced, history
    kept.  ``allowed``: the engine seats this link plays."""
    verify_open(table, "action")
    game = game_of(table, deal)
    if game.closer is None or deal.hand_id is None:
        raise PlayError("Nobody has closed yet.", "close", key="not_closed")
    if engine_seat not in allowed or not 0 <= engine_seat < game.players or is_bot(table, deal, engine_seat):
        raise PlayError("That seat is not yours to play.", "seat", key="seat")
    choices = choices_of(deal)
    result = game.settle(choices)
    if not 0 <= pick < result.results[engine_seat].alternatives:  # type: ignore[index]
        raise PlayError("There is no such arrangement.", "pick", key="pick")
    choices[engine_seat] = pick
    by_table_seat = {deal.seats[i]: k for i, k in choices.items()}
    claim(deal, version)
    old = db.session.get(Hand, deal.hand_id)
    hand = _store(table, deal, game, f"deal-{deal.id}-v{deal.version}", by_table_seat, replaces=old)
    deal.hand_id = hand.id


def act(
    table: GameTable,
    deal: Deal,
    engine_seat: int,
    version: int,
    action: str,
    card: str | None = None,
    pace: Pace = DEFAULT_PACE,
) -> HandGame:
    """One person's action, checked against the game's version and the rules.

    The action is tried on the game first (a refused one changes nothing),
    then the deal's version is claimed, then computer players move."""
    verify_open(table, "action")
    game = game_of(table, deal)
    if not 0 <= engine_seat < game.players or is_bot(table, deal, engine_seat):
        raise PlayError("That seat is not yours to play.", "seat", key="seat")
    if action in ("stock", "discard_pile"):
        source = Source.STOCK if action == "stock" else Source.DISCARD
        game.draw(engine_seat, source, shuffler(deal, game, pace))
    elif action in ("discard", "close"):
        try:
            chosen = parse_card(card or "", table.rules.pack, "card")
        except ChinchonError:
            raise PlayError("Choose a card from your hand.", "card", key="no_card") from None
        if action == "discard":
            game.discard(engine_seat, chosen)
        else:
            game.close(engine_seat, chosen)
    else:
        raise PlayError("Unknown action.", "action", key="action")
    claim(deal, version)
    if game.phase == Phase.OVER:
        finish(table, deal, game)
    else:
        run_bots(table, deal, game, pace=pace)
    keep(table, deal, game)
    return game


def ask_hint(table: GameTable, deal: Deal, engine_seat: int, version: int) -> None:
    """A person asks for a hint at their turn: written into the deal (every
    phone's moves show it) before anything is shown.  Asking again at the
    same point of the hand writes nothing more."""
    if not table.hints_allowed:
        raise PlayError("Hints are turned off at this table.", "hint", key="hints_off")
    game = game_of(table, deal)
    if not 0 <= engine_seat < game.players or is_bot(table, deal, engine_seat):
        raise PlayError("That seat is not yours to play.", "seat", key="seat")
    if game.phase == Phase.OVER:
        raise PlayError("This hand is over.", "phase", key="over")
    if game.turn != engine_seat:
        raise PlayError("It is not your turn.", "turn", key="turn")
    if hint_asked(deal, game, engine_seat):
        return
    claim(deal, version)
    deal.hints = [*(deal.hints or []), _hint_mark(game, engine_seat)]
    deal.updated_at = now()


def hint_asked(deal: Deal, game: HandGame, engine_seat: int) -> bool:
    return _hint_mark(game, engine_seat) in (deal.hints or [])


def _hint_mark(game: HandGame, engine_seat: int) -> dict:
    """Who asked, and when: the number of moves in the hand's log so far."""
    return {"seat": engine_seat, "at": len(game.log), "phase": game.phase.value}


def hint_for(table: GameTable, deal: Deal, game: HandGame, engine_seat: int | None) -> Hint | None:
    """The hint asked by ``engine_seat`` at this very point of the hand, if
    any: the advisor's odds from that seat's view alone (never the game),
    with a seed fixed per position so every reload shows the same figures."""
    if engine_seat is None or game.phase == Phase.OVER or game.turn != engine_seat:
        return None
    if not hint_asked(deal, game, engine_seat):
        return None
    view = bot_view(game, engine_seat)
    return hint(view, seed=deal.id * 1000 + len(game.log))


def hints_by_number(table: GameTable) -> dict[int, list[tuple[str, int]]]:
    """Per hand number: who asked for hints, and how many (for the history)."""
    out: dict[int, dict[str, int]] = {}
    for deal in table.deals:
        for asked in deal.hints or []:
            name = table.names[deal.seats[asked["seat"]]]
            per = out.setdefault(deal.number, {})
            per[name] = per.get(name, 0) + 1
    return {n: list(per.items()) for n, per in out.items()}


def reviewed(table: GameTable, number: int) -> Deal | None:
    """The deal of hand ``number`` to review: its last deal (a void hand is dealt again)."""
    return db.session.scalar(
        select(Deal)
        .where(Deal.table_id == table.id, Deal.number == number, Deal.called_off.is_(False))
        .order_by(Deal.id.desc())
        .limit(1)
    )


def review_of(table: GameTable, deal: Deal) -> reviews.Review:
    """The review of a finished hand (:mod:`companion.bots.review`): the
    people's decisions judged from their own views, with the match score as
    it stood before the hand.  Made the first time somebody asks and kept
    with the deal, so the next visit only reads it; the deal's version does
    not move (nothing of the game changed).  Refused while the hand is played."""
    game = game_of(table, deal)
    if game.phase != Phase.OVER:
        raise ServiceError(Refusal.HAND_IN_PLAY, "review")
    stored = deal.review
    if stored is not None and stored.get("version") == reviews.VERSION:
        return reviews.from_json(stored, table.rules)
    before = standing(table, before=deal.number)
    totals = [before.total(seat) for seat in deal.seats]
    # the people at the table (a seat the computer plays for now is still its person's)
    people = [s for s in range(game.players) if not table.players[deal.seats[s]].kind.computer]
    review = reviews.review_hand(game, seats=people, totals=totals, seed=deal.id)
    deal.review = reviews.to_json(review)
    return review
