"""Deals anyone can check (``rules.deal_proof``): every digital deal's seal
is shown from the deal on; its seed, and the record of the hand that the
seed is checked against, only once the hand is over (closed, void or called
off).  Nothing here writes: the seed and the seal are stored when the hand
is dealt (``play.start_deal``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..models import Deal, GameTable, TournamentRound
from ..rules.deal_proof import HandRecord, Verdict, record_of, short, verify
from ..rules.game import HandGame
from .nextstep import latest_deal, next_step
from .unit import ServiceError

#: The most moves a record sent to the verification page may hold (a real hand has well under 400).
MAX_MOVES = 2000


@dataclass(frozen=True, slots=True)
class Seal:
    """What a page shows of a deal's proof: the seal (``short`` and whole),
    and the seed once the hand is over (None before, and for deals made
    before deals had seeds: ``checkable`` False)."""

    checkable: bool
    commitment: str
    short: str
    seed: str | None
    ordinal: int
    #: Over here, but the same cards may still be dealt or played at another
    #: table of a duplicate round: the key waits for them.
    held: bool = False

    @property
    def revealed(self) -> bool:
        return self.seed is not None


def hand_over(deal: Deal) -> bool:
    return deal.called_off or deal.state.get("phase") == "over"


def ordinal_of(deal: Deal) -> int:
    """The deal's number at its table, from 1: a void hand dealt again is a new deal."""
    earlier = select(Deal.id).where(Deal.table_id == deal.table_id, Deal.id <= deal.id)
    return len(db.session.scalars(earlier).all())


def deal_at(table: GameTable, ordinal: int) -> Deal | None:
    """The ``ordinal``-th deal at the table (from 1), or None."""
    if ordinal < 1:
        return None
    query = select(Deal).where(Deal.table_id == table.id).order_by(Deal.id).offset(ordinal - 1).limit(1)
    return db.session.scalar(query)


def seal_of(deal: Deal) -> Seal:
    """The seal every phone shows, and the seed once the hand is over (never
    before; at a duplicate round, once every table has played it)."""
    seal = deal.commitment or ""
    over = deal.seed is not None and hand_over(deal)
    held = over and held_back(deal)
    seed = deal.seed if over and not held else None
    return Seal(bool(deal.commitment), seal, short(seal), seed, ordinal_of(deal), held)


def held_back(deal: Deal) -> bool:
    """A duplicate round's deal whose cards another table of the round may
    still be dealt or be playing (``play.deal_seed``: tables of the same size
    are dealt alike): its key would show them their hands."""
    table = deal.table
    round_ = db.session.get(TournamentRound, table.round_id) if table.round_id is not None else None
    if round_ is None or not round_.deal_secret:
        return False
    mine = (deal.number, _redeals(deal))
    for other in round_.tables:
        if other.id == table.id or len(other.players) != len(table.players) or not next_step(other).more_to_play:
            continue
        latest = latest_deal(other)
        if latest is None:
            return True
        theirs = (latest.number, _redeals(latest))
        if theirs < mine or (theirs == mine and not hand_over(latest)):
            return True
    return False


def _redeals(deal: Deal) -> int:
    """How often hand ``deal.number`` was dealt at its table before this deal."""
    earlier = select(Deal.id).where(Deal.table_id == deal.table_id, Deal.number == deal.number, Deal.id < deal.id)
    return len(db.session.scalars(earlier).all())


def record(table: GameTable, deal: Deal) -> HandRecord:
    """The record of a finished hand with its seed: what ``chinchon verify``
    and the verification page check.  Refused while the hand is played (the
    seed would show every hand and the stock) and for deals without a seed."""
    if deal.seed is None:
        raise ServiceError("proof_none", "deal")
    if not hand_over(deal):
        raise ServiceError("proof_in_play", "deal")
    if held_back(deal):
        raise ServiceError("proof_held", "deal")
    game = HandGame.from_dict(deal.state, table.rules)
    return record_of(
        game,
        bytes.fromhex(deal.seed),
        players=[table.names[s] for s in deal.seats],
        table_players=len(table.players),
        number=deal.number,
        extra={"table": table.name, "deal": ordinal_of(deal)},
    )


def record_json(table: GameTable, deal: Deal) -> dict[str, Any]:
    return record(table, deal).to_json()


def check(table: GameTable, deal: Deal) -> tuple[HandRecord, Verdict]:
    """The finished hand's record, checked against its seed as anybody else would."""
    made = record(table, deal)
    return made, verify(made)


def check_record(data: object, seal: str | None = None) -> tuple[HandRecord, Verdict]:
    """A record somebody brings (``HandRecord.from_json``; a ``ProofError``
    names what cannot be read), checked against its seed and ``seal``."""
    if isinstance(data, dict) and isinstance(data.get("moves"), list) and len(data["moves"]) > MAX_MOVES:
        raise ServiceError("proof_too_long", "record", count=MAX_MOVES)
    read = HandRecord.from_json(data)
    return read, verify(read, seal or None)
