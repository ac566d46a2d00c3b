"""Digital tables: deals stored in the database, actions checked by the engine,
computer players moving on the server, finished hands written to the same
scoreboard as physical tables (``scoreboard.store_hand``)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import select, update

from ..bots import BOTS, bot_turn
from ..extensions import db
from ..models import Deal, GameTable, Hand, now
from ..rules import ChinchonError, parse_card
from ..rules.game import HandGame, Phase, PlayError
from ..scoreboard import AlreadySaved, HandInput, StaleError, create_table, standing, store_hand


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
    )
    table.kind = "digital"
    table.play_mode = mode
    for player, (_name, kind) in zip(table.players, players, strict=True):
        player.kind = kind
        if mode == "devices" and kind == "human":
            player.seat_token = secrets.token_urlsafe(16)
    db.session.commit()
    start_deal(table)
    return table


def current_deal(table: GameTable) -> Deal | None:
    return db.session.scalar(select(Deal).where(Deal.table_id == table.id).order_by(Deal.id.desc()).limit(1))


def game_of(table: GameTable, deal: Deal) -> HandGame:
    return HandGame.from_dict(deal.state, table.rules)


def start_deal(table: GameTable) -> Deal:
    """Deal the next hand among the players still in, then let bots move."""
    current = standing(table)
    if current.state.finished:
        raise ChinchonError(_("The match is over."), "deal")
    seats = current.seats_in
    dealer = seats.index(current.next_dealer) if current.next_dealer in seats else 0
    game = HandGame.deal(
        table.rules, len(seats), dealer, rng(table.id, current.next_number), table_players=len(table.players)
    )
    deal = Deal(table_id=table.id, number=current.next_number, seats=seats, state=game.to_dict())
    db.session.add(deal)
    run_bots(table, deal, game)
    deal.state = game.to_dict()
    db.session.commit()
    return deal


def is_bot(table: GameTable, deal: Deal, engine_seat: int) -> bool:
    return table.players[deal.seats[engine_seat]].kind != "human"


def run_bots(table: GameTable, deal: Deal, game: HandGame) -> None:
    """Computer players move until a person is to move or the hand ends."""
    while game.phase != Phase.OVER and is_bot(table, deal, game.turn):
        bot = BOTS[table.players[deal.seats[game.turn]].kind]()
        bot_turn(game, bot, rng(deal.table_id, deal.number, game.turns_taken))
    if game.phase == Phase.OVER:
        finish(table, deal, game)


def finish(table: GameTable, deal: Deal, game: HandGame, choices: dict[int, int] | None = None) -> None:
    """A closed hand goes into the scoreboard exactly like a hand entered by
    hand (the engine's best showing and lay-offs for everybody)."""
    if game.closer is None or deal.hand_id is not None:
        return
    db.session.flush()
    try:
        hand = store_hand(table, table.version, f"deal-{deal.id}", hand_input(deal, game, choices))
    except AlreadySaved:
        return
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


def choose_arrangement(table: GameTable, deal: Deal, engine_seat: int, version: int, pick: int) -> None:
    """After a close a player may show another arrangement with the same points
    (the engine's best is pre-selected); the stored hand is replaced, history kept."""
    game = game_of(table, deal)
    if game.closer is None or deal.hand_id is None:
        raise PlayError(_("Nobody has closed yet."), "close", key="not_closed")
    if not 0 <= engine_seat < game.players or is_bot(table, deal, engine_seat):
        raise PlayError(_("That seat is not yours to play."), "seat")
    choices = choices_of(deal) | {engine_seat: max(0, min(pick, 50))}
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
        raise PlayError(_("That seat is not yours to play."), "seat")
    if action in ("stock", "discard_pile"):
        game.draw(
            engine_seat, "stock" if action == "stock" else "discard", rng(deal.table_id, deal.number, game.turns_taken)
        )
    elif action in ("discard", "close"):
        try:
            chosen = parse_card(card or "", table.rules.pack, "card")
        except ChinchonError:
            raise PlayError(_("Choose a card from your hand."), "card") from None
        if action == "discard":
            game.discard(engine_seat, chosen)
        else:
            game.close(engine_seat, chosen)
    else:
        raise PlayError(_("Unknown action."), "action")
    claim(deal, version)
    run_bots(table, deal, game)
    deal.state = game.to_dict()
    deal.updated_at = now()
    db.session.commit()
    return game


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


def seat_view(table: GameTable, deal: Deal, game: HandGame, engine_seat: int | None) -> dict:
    """What one seat may see: its own cards, everybody's card counts, the top
    discard and the stock's size.  Never another hand or the stock's order."""
    names = table.names
    return {
        "seat": engine_seat,
        "hand": sorted(game.hands[engine_seat]) if engine_seat is not None else [],
        "counts": [(names[deal.seats[i]], len(h), table.players[deal.seats[i]].kind) for i, h in enumerate(game.hands)],
        "top": game.top_discard,
        "stock": len(game.stock),
        "turn": game.turn,
        "turn_name": names[deal.seats[game.turn]],
        "phase": game.phase.value,
        "first_round": game.first_round,
        "log": [_public(entry, names, deal) for entry in game.log[-8:]],
    }


def _public(entry: dict, names: list[str], deal: Deal) -> dict:
    """A log line without hidden cards (a card drawn from the stock stays secret)."""
    seat = entry.get("seat")
    return {
        "who": names[deal.seats[seat]] if seat is not None else None,
        "action": entry["action"],
        "card": entry.get("card")
        if entry["action"] in ("discard", "close") or entry.get("source") == "discard"
        else None,
        "source": entry.get("source"),
    }
