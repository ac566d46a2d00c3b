"""Digital tables: deals stored in the database, actions checked by the engine,
computer players moving on the server, finished hands written to the same
scoreboard as physical tables (``scoreboard.store_hand``).

Computer players move in short bursts: one request plays at most
``PLAY_BOT_TURNS`` bot turns and ``PLAY_BOT_SECONDS`` of bot thinking, and the
next request (a move, or a phone's poll) carries on.  A deal where only
computer players are left therefore never ties up a worker, whatever they do.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import func, select, update

from .bots import BOTS, bot_turn
from .bots.advice import Hint, hint
from .bots.view import seat_view as bot_view
from .extensions import db
from .models import Deal, GameTable, Hand, now
from .rules import Card, ChinchonError, best_melds, parse_card
from .rules.close import check_close
from .rules.game import Close, Discard, Draw, HandGame, Move, Phase, PlayError, Reshuffle, Source, Void
from .scoreboard import (
    AlreadySaved,
    HandInput,
    StaleError,
    Standing,
    create_table,
    next_seat,
    standing,
    store_hand,
)

BOT_TURNS = 12  # per request; the next request carries on
BOT_SECONDS = 1.0


def rng(*salt: object):
    """The shuffler: the operating system's randomness; tests may set
    ``PLAY_SEED`` to replay the same deals (seeded per deal, never a
    process-wide generator)."""
    seed = current_app.config.get("PLAY_SEED")
    if seed is None:
        return secrets.SystemRandom()
    return random.Random(":".join(str(x) for x in (seed, *salt)))


def create_digital_table(
    *,
    name: str,
    preset: str,
    overrides: dict,
    players: Sequence[tuple[str, str]],
    mode: str,
    first_dealer: int,
    suit_style: str,
    rematch_of: GameTable | None = None,
    hints: bool = True,
) -> GameTable:
    if not any(kind == "human" for _, kind in players):
        raise ChinchonError(_("At least one player must be a person."), "players")
    table = create_table(
        name=name,
        preset=preset,
        overrides=overrides,
        players=[n for n, _ in players],
        first_dealer=first_dealer,
        suit_style=suit_style,
        rematch_of=rematch_of,
    )
    table.kind = "digital"
    table.play_mode = mode
    table.hints_allowed = hints
    for player, (_name, kind) in zip(table.players, players, strict=True):
        player.kind = kind
        if mode == "devices" and kind == "human":
            player.seat_token = secrets.token_urlsafe(16)
    db.session.commit()
    start_deal(table)
    return table


def rematch_of(table: GameTable) -> GameTable:
    """A new digital match with the same seats (people and computer players),
    the same mode and rules; the first dealer moves on by one."""
    return create_digital_table(
        name=table.name,
        preset=table.preset,
        overrides=dict(table.overrides),
        players=[(p.name, p.kind) for p in table.players],
        mode=table.play_mode or "hotseat",
        first_dealer=(table.first_dealer + 1) % len(table.players),
        suit_style=table.suit_style,
        rematch_of=table,
        hints=table.hints_allowed,
    )


def the_rematch(table: GameTable) -> GameTable | None:
    return db.session.scalar(select(GameTable).where(GameTable.rematch_of_id == table.id).order_by(GameTable.id))


def current_deal(table: GameTable) -> Deal | None:
    return db.session.scalar(select(Deal).where(Deal.table_id == table.id).order_by(Deal.id.desc()).limit(1))


def game_of(table: GameTable, deal: Deal) -> HandGame:
    return HandGame.from_dict(deal.state, table.rules)


def void_deals(table: GameTable) -> list[Deal]:
    return [d for d in table.deals if d.state.get("void")]


def start_deal(table: GameTable) -> Deal:
    """Deal the next hand among the players still in, then let bots move.

    After a void hand the next dealer in play order deals again; the hand
    keeps its scoreboard number (nothing was scored)."""
    current = standing(table)
    if current.state.finished:
        raise ChinchonError(_("The match is over."), "deal")
    seats = current.seats_in
    last = current_deal(table)
    dealer_seat = current.next_dealer
    if last is not None and last.state.get("void"):
        dealer_seat = next_seat(last.seats[last.state["dealer"]], seats)
    dealer = seats.index(dealer_seat) if dealer_seat in seats else 0
    number = current.next_number
    redeals = db.session.scalar(select(func.count(Deal.id)).where(Deal.table_id == table.id, Deal.number == number))
    salt = (table.id, number, redeals) if redeals else (table.id, number)
    game = HandGame.deal(table.rules, len(seats), dealer, rng(*salt), table_players=len(table.players))
    deal = Deal(table_id=table.id, number=number, seats=seats, state=game.to_dict())
    db.session.add(deal)
    db.session.flush()
    run_bots(table, deal, game)
    deal.state = game.to_dict()
    db.session.commit()
    return deal


def deal_next(table: GameTable, deal: Deal, version: int) -> Deal:
    """ "Deal the next hand": claims the finished deal's version like every
    other action, so several phones pressing at once deal once."""
    game = game_of(table, deal)
    if game.phase != Phase.OVER:
        raise PlayError(_("This hand is still being played."), "deal", key="playing")
    if standing(table).state.finished:
        raise PlayError(_("The match is over."), "deal", key="finished")
    claim(deal, version)
    return start_deal(table)


def is_bot(table: GameTable, deal: Deal, engine_seat: int) -> bool:
    return table.players[deal.seats[engine_seat]].kind != "human"


def bots_to_move(table: GameTable, deal: Deal, game: HandGame) -> bool:
    return game.phase != Phase.OVER and is_bot(table, deal, game.turn)


def run_bots(
    table: GameTable, deal: Deal, game: HandGame, *, turns: int | None = None, seconds: float | None = None
) -> int:
    """Computer players move until a person is to move, the hand ends, or
    this request's share is used up (``turns`` bot turns, ``seconds`` of
    thinking); returns the turns played.  The rest waits for the next request."""
    config = current_app.config
    turns = config.get("PLAY_BOT_TURNS", BOT_TURNS) if turns is None else turns
    seconds = config.get("PLAY_BOT_SECONDS", BOT_SECONDS) if seconds is None else seconds
    deadline = time.monotonic() + seconds
    played = 0
    totals: list[int] | None = None
    while bots_to_move(table, deal, game) and played < turns and (played == 0 or time.monotonic() < deadline):
        if totals is None:  # the match score, which the expert plays (in the deal's seat order)
            current = standing(table)
            totals = [current.total(seat) for seat in deal.seats]
        bot = BOTS[table.players[deal.seats[game.turn]].kind]()
        bot_turn(game, bot, rng(deal.table_id, deal.number, deal.id, game.turns_taken), totals=totals)
        played += 1
    if game.phase == Phase.OVER:
        finish(table, deal, game)
    return played


def advance(table: GameTable, deal: Deal) -> bool:
    """Let computer players carry on (a poll's share of the work); True when
    something moved.  Two phones polling at once move the bots once."""
    if deal.state.get("phase") == "over":
        return False
    game = game_of(table, deal)
    if not bots_to_move(table, deal, game):
        return False
    try:
        claim(deal, deal.version)
    except StaleError:
        return False
    run_bots(table, deal, game)
    deal.state = game.to_dict()
    deal.updated_at = now()
    db.session.commit()
    return True


def finish(table: GameTable, deal: Deal, game: HandGame, choices: dict[int, int] | None = None) -> None:
    """A closed hand goes into the scoreboard exactly like a hand entered by
    hand (the engine's best showing and lay-offs for everybody).  A void hand
    stores nothing: nobody scores and no event enters the match."""
    if game.closer is None or deal.hand_id is not None:
        return
    db.session.flush()
    try:
        hand = store_hand(table, table.version, f"deal-{deal.id}", hand_input(deal, game, choices))
    except AlreadySaved:
        return
    hand.dealer_seat = deal.seats[game.dealer]  # after a void hand the dealer moved on
    deal.hand_id = hand.id


def hand_input(deal: Deal, game: HandGame, choices: dict[int, int] | None = None) -> HandInput:
    cards = {deal.seats[i]: list(h) for i, h in enumerate(game.hands)}
    data = HandInput(closer=deal.seats[game.closer], mode="cards", cards=cards, first_round=game.first_round)  # type: ignore[index]
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
    game = game_of(table, deal)
    if game.closer is None or deal.hand_id is None:
        raise PlayError(_("Nobody has closed yet."), "close", key="not_closed")
    if engine_seat not in allowed or not 0 <= engine_seat < game.players or is_bot(table, deal, engine_seat):
        raise PlayError(_("That seat is not yours to play."), "seat", key="seat")
    choices = choices_of(deal)
    result = game.settle(choices)
    if not 0 <= pick < result.results[engine_seat].alternatives:  # type: ignore[index]
        raise PlayError(_("There is no such arrangement."), "pick", key="pick")
    choices[engine_seat] = pick
    by_table_seat = {deal.seats[i]: k for i, k in choices.items()}
    claim(deal, version)
    old = db.session.get(Hand, deal.hand_id)
    data = hand_input(deal, game)
    data.choices = by_table_seat
    hand = store_hand(table, table.version, f"deal-{deal.id}-v{deal.version}", data, replaces=old)
    deal.hand_id = hand.id
    db.session.commit()


def act(table: GameTable, deal: Deal, engine_seat: int, version: int, action: str, card: str | None = None) -> HandGame:
    """One person's action, checked against the game's version and the rules.

    The action is tried on the game first (a refused one changes nothing),
    then the deal's version is claimed, then computer players move."""
    game = game_of(table, deal)
    if not 0 <= engine_seat < game.players or is_bot(table, deal, engine_seat):
        raise PlayError(_("That seat is not yours to play."), "seat", key="seat")
    if action in ("stock", "discard_pile"):
        source = Source.STOCK if action == "stock" else Source.DISCARD
        game.draw(engine_seat, source, rng(deal.table_id, deal.number, deal.id, game.turns_taken))
    elif action in ("discard", "close"):
        try:
            chosen = parse_card(card or "", table.rules.pack, "card")
        except ChinchonError:
            raise PlayError(_("Choose a card from your hand."), "card", key="no_card") from None
        if action == "discard":
            game.discard(engine_seat, chosen)
        else:
            game.close(engine_seat, chosen)
    else:
        raise PlayError(_("Unknown action."), "action", key="action")
    claim(deal, version)
    if game.phase == Phase.OVER:
        finish(table, deal, game)
    else:
        run_bots(table, deal, game)
    deal.state = game.to_dict()
    deal.updated_at = now()
    db.session.commit()
    return game


def ask_hint(table: GameTable, deal: Deal, engine_seat: int, version: int) -> None:
    """A person asks for a hint at their turn: written into the deal (every
    phone's moves show it) before anything is shown.  Asking again at the
    same point of the hand writes nothing more."""
    if not table.hints_allowed:
        raise PlayError(_("Hints are turned off at this table."), "hint", key="hints_off")
    game = game_of(table, deal)
    if not 0 <= engine_seat < game.players or is_bot(table, deal, engine_seat):
        raise PlayError(_("That seat is not yours to play."), "seat", key="seat")
    if game.phase == Phase.OVER:
        raise PlayError(_("This hand is over."), "phase", key="over")
    if game.turn != engine_seat:
        raise PlayError(_("It is not your turn."), "turn", key="turn")
    if _hint_asked(deal, game, engine_seat):
        return
    claim(deal, version)
    deal.hints = [*(deal.hints or []), _hint_mark(game, engine_seat)]
    deal.updated_at = now()
    db.session.commit()


def _hint_asked(deal: Deal, game: HandGame, engine_seat: int) -> bool:
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
    if not _hint_asked(deal, game, engine_seat):
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


def claim(deal: Deal, seen_version: int) -> None:
    """Take the deal's next version, or refuse a stale or doubled action."""
    if not 0 < seen_version < 2**31:
        raise StaleError
    result = db.session.execute(
        update(Deal)
        .where(Deal.id == deal.id, Deal.version == seen_version)
        .values(version=Deal.version + 1)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        db.session.rollback()
        raise StaleError
    deal.version = seen_version + 1


# -- what one seat sees ------------------------------------------------------------------
@dataclass(frozen=True)
class Group:
    """Cards shown together in a hand: a meld, or one loose card with its points."""

    cards: list[Card]
    points: int | None  # None for a meld


@dataclass(frozen=True)
class CloseOption:
    card: Card
    score: int
    wins_match: bool


@dataclass(frozen=True)
class Turn:
    """One player's turn as a sentence: what they drew and how they ended it.
    ``card`` is None for a card drawn from the stock unseen."""

    who: str
    source: str | None = None
    drawn: Card | None = None  # for a reshuffle: the card kept on the pile
    thrown: Card | None = None
    closed: bool = False
    kind: str = "turn"  # or "reshuffle" / "void" / "hint" (asked, not drawn yet)
    reason: str | None = None
    hint: bool = False  # the player asked for a hint during this turn


def turns_of(moves: Sequence[Move], names: Sequence[str], hints: Sequence[dict] = ()) -> list[Turn]:
    """The log grouped into turns (draw + discard or close), reshuffles and
    voids; a turn in which the player asked for a hint says so (a hint is
    marked with the number of moves logged when it was asked)."""
    out: list[Turn] = []
    pending: Turn | None = None
    start = 0  # where the turn being played began in the log

    def asked(seat: int, upto: int) -> bool:
        return any(h["seat"] == seat and start <= h["at"] <= upto for h in hints)

    for i, move in enumerate(moves):
        match move:
            case Draw():
                hinted = asked(move.seat, i + 1)
                pending = Turn(names[move.seat], source=move.source.value, drawn=move.card, hint=hinted)
                out.append(pending)
            case Discard() | Close():
                base = pending if pending is not None and pending.who == names[move.seat] else Turn(names[move.seat])
                done = Turn(
                    base.who,
                    base.source,
                    base.drawn,
                    move.card if isinstance(move, Discard) else None,
                    isinstance(move, Close),
                    hint=base.hint,
                )
                if pending is not None and out and out[-1] is pending:
                    out[-1] = done
                else:
                    out.append(done)
                pending = None
                start = i + 1
            case Reshuffle():
                out.append(Turn("", kind="reshuffle", drawn=move.kept))
            case Void():
                out.append(
                    Turn(names[move.seat] if move.seat is not None else "", kind="void", reason=move.reason.value)
                )
    if pending is None:  # asked before drawing, and not drawn yet
        seats = dict.fromkeys(h["seat"] for h in hints if h["at"] >= start)
        out += [Turn(names[seat], kind="hint") for seat in seats]
    return out


def seat_view(
    table: GameTable, deal: Deal, game: HandGame, engine_seat: int | None, current: Standing | None = None
) -> dict:
    """What one seat may see: its own cards (grouped into melds, loose cards
    with their points), everybody's card counts and totals, the top discard,
    the stock's size and the moves so far (a card drawn from the stock only
    for its drawer).  Never another hand or the stock's order."""
    names = table.names
    seat_names = [names[s] for s in deal.seats]
    current = current or standing(table)
    rules = table.rules
    view: dict = {
        "seat": engine_seat,
        "hand": [],
        "groups": [],
        "drawn": None,
        "closes": [],
        "players": [
            {
                "name": seat_names[i],
                "cards": len(h) - (1 if i == game.closer else 0),
                "face_down": i == game.closer,
                "kind": table.players[deal.seats[i]].kind,
                "total": current.total(deal.seats[i]),
                "turn": i == game.turn and game.phase != Phase.OVER,
                "dealer": i == game.dealer,
            }
            for i, h in enumerate(game.hands)
        ],
        "top": game.top_discard,
        "stock": len(game.stock),
        "turn": game.turn,
        "turn_name": seat_names[game.turn],
        "phase": game.phase.value,
        "first_round": game.first_round,
        "void": game.void.reason.value if game.void else None,
        "next_dealer": None,
        "turns": turns_of(game.seen_by(engine_seat), seat_names, deal.hints or ()),
        "reshuffles": game.reshuffles,
        "max_reshuffles": rules.max_reshuffles,
    }
    if game.void is not None:
        seats_in = current.seats_in
        if seats_in:
            view["next_dealer"] = names[next_seat(deal.seats[game.dealer], seats_in)]
    if engine_seat is None:
        return view
    hand = list(game.hands[engine_seat])
    if engine_seat == game.closer and game.closing_discard is not None:
        hand.remove(game.closing_discard)
    last = game.log[-1] if game.log else None
    if isinstance(last, Draw) and last.seat == engine_seat and game.phase == Phase.DISCARD:
        view["drawn"] = last.card
    view["hand"] = sorted(hand)
    arranged = best_melds(hand, rules, copies=rules.copies(len(table.players)))
    key = rules.card_keys.get
    view["groups"] = [Group(sorted(m), None) for m in arranged.melds] + [
        Group([c], rules.value(c)) for c in sorted(arranged.deadwood, key=lambda c: key(c, 0))
    ]
    if game.phase == Phase.DISCARD and game.turn == engine_seat:
        for card in dict.fromkeys(sorted(hand)):
            verdict = check_close(hand, rules, game.first_round, card, players=game.players)
            if verdict.legal:
                view["closes"].append(CloseOption(card, verdict.score, verdict.wins_match))  # type: ignore[arg-type]
    return view
