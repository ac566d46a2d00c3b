"""Deals anyone can check: a secret seed, committed before the deal, revealed after.

Before a digital hand is dealt the server draws a secret 32-byte *seed* and
shows its *commitment* (the *seal*), ``sha256(seed)`` in hex, on every phone.
All the hand's randomness comes from the seed: the deal's shuffle and every
reshuffle of the discard pile.  When the hand ends the seed is revealed, and
anybody can shuffle again from it and compare with what was played
(:func:`verify`).

The derivation, simple enough to write again in any language:

- **Numbers.** Block ``k`` of a label is ``HMAC-SHA256(key=seed,
  message=f"{label}:{k}")`` (ASCII), ``k`` = 0, 1, 2… counting every block
  computed for that label; its first 8 bytes, big-endian, are ``u``
  (0 ≤ u < 2⁶⁴).  A number below ``n`` is ``u mod n``, unless
  ``u ≥ 2⁶⁴ − (2⁶⁴ mod n)``: then that block is skipped and the next one tried
  (rejection sampling: every number equally likely).
- **Shuffle** (Fisher–Yates): for ``i`` from ``len − 1`` down to 1, draw
  ``j`` below ``i + 1`` and swap the items at ``i`` and ``j``.
- **Labels.** ``deal`` for the deal; ``reshuffle:1``, ``reshuffle:2``… for the
  hand's first, second… reshuffle.
- **The pack** before the deal: every card of the deck, rank by rank from the
  lowest, each rank in the suit order ``o c e b``; that list again for each
  copy of the deck (two decks: two copies); then the jokers.
- **The deal** takes cards from the *end* of the shuffled list: one each in
  play order from the player after the dealer, seven times round, then one
  face up to start the pile; the rest is the stock, drawn from its end.
- **A reshuffle** (the stock ran out) takes the pile, bottom first, without
  the top card when the rules keep it (``reshuffle: keep_top``), shuffles it
  with the next reshuffle label, and that is the new stock.

>>> seed = bytes(range(32))
>>> commitment(seed)[:16], short(commitment(seed))
('630dcd2966c43366', '630d cd29 66c4 3366')
>>> cards = list(range(10))
>>> shuffle(cards, seed, "deal")
>>> cards
[3, 8, 0, 5, 7, 2, 4, 9, 1, 6]
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import JOKER, Card, parse_card
from .errors import ChinchonError
from .game import HAND_SIZE, Close, Discard, Draw, HandGame, Move, PlayError, Reshuffle, Source, Void, VoidReason
from .game import move_from_json as _move_from_json
from .game import move_to_json as _move_to_json
from .variants import Rules, rules_from_json

SEED_BYTES = 32
DEAL = "deal"
#: The name and version of the JSON record of one hand (:meth:`HandRecord.to_json`).
FORMAT = "chinchon-hand-proof/1"
#: The fewest hex digits of a seal a person may give to check (the short form's).
SHORT_DIGITS = 16
_TWO_64 = 1 << 64
_HEX = re.compile(r"[0-9a-f]*")


class ProofError(ChinchonError):
    """A hand's record, seed or seal that cannot be read (``field`` names the part)."""

    code = "proof"


# -- the derivation ----------------------------------------------------------------------------
def commitment(seed: bytes) -> str:
    """The seal shown during the hand: SHA-256 of the seed, in hex."""
    return hashlib.sha256(seed).hexdigest()


def short(seal: str) -> str:
    """The seal's first 16 hex digits in groups of four, as the phones show it."""
    head = seal[:SHORT_DIGITS]
    return " ".join(head[i : i + 4] for i in range(0, len(head), 4))


def derive_seed(secret: bytes, label: str) -> bytes:
    """A seed made from another secret: ``HMAC-SHA256(secret, label)`` (a
    tournament's duplicate round deals every table from one secret).

    >>> derive_seed(bytes(32), "hand:1:0").hex()[:16]
    '7928e0acafff186a'
    """
    return hmac.digest(secret, label.encode("ascii"), "sha256")


def hand_seed(secret: bytes, table_players: int, players: int, number: int, redeals: int) -> bytes:
    """A duplicate round's seed of hand ``number`` (dealt again ``redeals``
    times after void hands) at a table of ``table_players`` with ``players``
    still in: tables of the same size get the same seed, so with the same
    dealer each seat gets the same cards.  Each deal still has its own seal.

    >>> hand_seed(bytes(32), 4, 4, 1, 0) == hand_seed(bytes(32), 4, 4, 1, 0) != hand_seed(bytes(32), 3, 3, 1, 0)
    True
    """
    return derive_seed(secret, f"hand:{table_players}:{players}:{number}:{redeals}")


class Stream:
    """The numbers of one label, block by block (see the module's text)."""

    def __init__(self, seed: bytes, label: str) -> None:
        self.seed = seed
        self.label = label
        self.blocks = 0

    def block(self) -> int:
        mac = hmac.digest(self.seed, f"{self.label}:{self.blocks}".encode("ascii"), "sha256")
        self.blocks += 1
        return int.from_bytes(mac[:8], "big")

    def below(self, n: int) -> int:
        """A number from 0 to ``n - 1``, each equally likely.

        >>> stream = Stream(bytes(32), "deal")
        >>> [stream.below(6) for _ in range(5)]
        [2, 4, 5, 0, 0]
        """
        if n < 1:
            raise ValueError("n must be at least 1")
        limit = _TWO_64 - _TWO_64 % n
        while True:
            u = self.block()
            if u < limit:
                return u % n


def shuffle(items: list[Any], seed: bytes, label: str) -> None:
    """Fisher–Yates over ``items`` in place, with the numbers of ``label``."""
    stream = Stream(seed, label)
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]


def reshuffle_label(n: int) -> str:
    return f"reshuffle:{n}"


@dataclass(slots=True)
class SeededShuffle:
    """The deal's shuffler (``HandGame.deal`` takes it as its ``rng``)."""

    seed: bytes
    label: str = DEAL

    def shuffle(self, x: list[Any]) -> None:
        shuffle(x, self.seed, self.label)


@dataclass(slots=True)
class Reshuffles:
    """The shuffler of a hand's reshuffles (``HandGame.draw`` takes it):
    ``done`` reshuffles so far, so the next one is ``reshuffle:{done + 1}``."""

    seed: bytes
    done: int = 0

    def shuffle(self, x: list[Any]) -> None:
        self.done += 1
        shuffle(x, self.seed, reshuffle_label(self.done))


def pack_of(rules: Rules, table_players: int) -> list[Card]:
    """The pack in its order before the deal's shuffle."""
    return [*rules.pack.cards() * rules.copies(table_players), *[JOKER] * rules.jokers]


def deal_from(seed: bytes, rules: Rules, players: int, dealer: int, table_players: int | None = None) -> HandGame:
    """The hand the seed deals: the same as the server's ``HandGame.deal`` with :class:`SeededShuffle`."""
    return HandGame.deal(rules, players, dealer, SeededShuffle(seed), table_players=table_players)


# -- the record of a hand ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HandRecord:
    """What the server says happened in one hand, with its seed: what
    :func:`verify` checks.  ``hands``: each seat's seven cards as dealt
    (any order); ``discard``: the card turned up to start the pile;
    ``moves``: the hand's log; ``stock_left``: the stock when the record was
    made, bottom first (None: not given)."""

    seed: bytes
    commitment: str
    rules: Rules
    players: tuple[str, ...]
    table_players: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    discard: Card
    moves: tuple[Move, ...]
    stock_left: tuple[Card, ...] | None = None
    number: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The record as the JSON file ``chinchon verify`` reads."""
        return {
            "format": FORMAT,
            **dict(self.extra),
            "hand": self.number,
            "seed": self.seed.hex(),
            "commitment": self.commitment,
            "rules": {"preset": self.rules.preset, **self.rules.overrides()},
            "players": list(self.players),
            "table_players": self.table_players,
            "dealer": self.dealer,
            "dealt": {"hands": [[str(c) for c in h] for h in self.hands], "discard": str(self.discard)},
            "moves": [_move_to_json(m) for m in self.moves],
            "stock_left": [str(c) for c in self.stock_left] if self.stock_left is not None else None,
        }

    @classmethod
    def from_json(cls, data: object) -> HandRecord:
        """Read :meth:`to_json`; anything missing or malformed is a :class:`ProofError` at its field."""
        if not isinstance(data, Mapping):
            raise ProofError("The record must be a JSON object.", "record")
        seed = _hex_bytes(data.get("seed"), "seed")
        seal = _seal(data.get("commitment"), "commitment", full=True)
        try:
            rules = rules_from_json(data.get("rules"))
        except ChinchonError as error:
            raise ProofError(f"The rules cannot be read: {error.message}", "rules") from None
        players = data.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 8 or not all(isinstance(p, str) for p in players):
            raise ProofError("players must list the names of 2 to 8 players, in play order.", "players")
        table_players = _int(data.get("table_players", len(players)), "table_players", len(players), 8)
        dealer = _int(data.get("dealer"), "dealer", 0, len(players) - 1)
        dealt = data.get("dealt")
        if not isinstance(dealt, Mapping):
            raise ProofError("dealt must hold the hands dealt and the first card of the pile.", "dealt")
        hands = dealt.get("hands")
        if not isinstance(hands, list) or len(hands) != len(players):
            raise ProofError("dealt.hands must hold one hand per player.", "dealt.hands")
        dealt_hands = tuple(tuple(_cards(h, rules, f"dealt.hands[{i}]")) for i, h in enumerate(hands))
        discard = _card(dealt.get("discard"), rules, "dealt.discard")
        moves = data.get("moves")
        if not isinstance(moves, list):
            raise ProofError("moves must list the hand's moves.", "moves")
        parsed: list[Move] = []
        for i, m in enumerate(moves):
            try:
                parsed.append(_move_from_json(m, rules.pack))
            except (ChinchonError, KeyError, TypeError, ValueError):
                raise ProofError(f"Move {i + 1} cannot be read.", f"moves[{i}]") from None
        left = data.get("stock_left")
        number = data.get("hand")
        return cls(
            seed=seed,
            commitment=seal,
            rules=rules,
            players=tuple(players),
            table_players=table_players,
            dealer=dealer,
            hands=dealt_hands,
            discard=discard,
            moves=tuple(parsed),
            stock_left=tuple(_cards(left, rules, "stock_left")) if left is not None else None,
            number=number if isinstance(number, int) and not isinstance(number, bool) else None,
        )


def record_of(
    game: HandGame,
    seed: bytes,
    *,
    players: Sequence[str],
    table_players: int,
    number: int | None = None,
    extra: Mapping[str, Any] | None = None,
) -> HandRecord:
    """The record of a hand as it stands (the server's side).  The hands as
    dealt are worked back from the position and the log (each seat's cards,
    plus what it threw, less what it drew); the first card of the pile is
    what the pack holds beyond them and the first stock (the cards drawn
    from it, and what is left of it if it never ran out)."""
    drawn = [Counter[Card]() for _ in game.hands]
    thrown = [Counter[Card]() for _ in game.hands]
    first_stock: list[Card] = []
    reshuffled = False
    for move in game.log:
        if isinstance(move, Draw) and move.card is not None:
            drawn[move.seat][move.card] += 1
            if move.source == Source.STOCK and not reshuffled:
                first_stock.append(move.card)
        elif isinstance(move, Discard):
            thrown[move.seat][move.card] += 1
        elif isinstance(move, Reshuffle):
            reshuffled = True
    if not reshuffled:
        first_stock += game.stock
    hands = []
    for seat, held in enumerate(game.hands):
        dealt = Counter(held) + thrown[seat]
        dealt.subtract(drawn[seat])
        if any(n < 0 for n in dealt.values()) or dealt.total() != HAND_SIZE:
            raise ProofError("The hand's record does not add up to a deal.", "record")
        hands.append(tuple(sorted(dealt.elements())))
    rest = Counter(game.cards_in_play())
    rest.subtract(Counter(c for h in hands for c in h))
    rest.subtract(Counter(first_stock))
    if any(n < 0 for n in rest.values()) or rest.total() != 1:
        raise ProofError("The hand's record does not add up to a deal.", "record")
    return HandRecord(
        seed=seed,
        commitment=commitment(seed),
        rules=game.rules,
        players=tuple(players),
        table_players=table_players,
        dealer=game.dealer,
        hands=tuple(hands),
        discard=next(rest.elements()),
        moves=tuple(game.log),
        stock_left=tuple(game.stock),
        number=number,
        extra=dict(extra or {}),
    )


# -- checking --------------------------------------------------------------------------------------
class Check(enum.StrEnum):
    """What :func:`verify` confirms, in order."""

    COMMITMENT = "commitment"  # the seed is the one sealed before the deal
    DEAL = "deal"  # the hands dealt and the first card of the pile are the seed's
    DRAWS = "draws"  # every card drawn from the dealt stock is the seed's
    RESHUFFLES = "reshuffles"  # every reshuffle, and every card drawn from a reshuffled stock
    MOVES = "moves"  # the moves follow the rules (a card thrown is held, the pile's top is taken)


@dataclass(frozen=True, slots=True)
class Mismatch:
    """What failed: ``text`` says it in English (the web words it from the
    rest); ``move`` counts from 1 in the record's moves."""

    check: Check
    key: str
    text: str
    move: int | None = None
    seat: int | None = None
    found: str | None = None
    expected: str | None = None
    reshuffle: int | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    """The checks of one record: what failed, what could not be reached
    (the moves after the first mismatch are not followed), and how much was
    confirmed."""

    mismatches: tuple[Mismatch, ...]
    unchecked: frozenset[Check]
    draws: int
    reshuffles: int

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def status(self, check: Check) -> str:
        """``ok``, ``failed`` or ``unchecked``."""
        if any(m.check is check for m in self.mismatches):
            return "failed"
        return "unchecked" if check in self.unchecked else "ok"

    def mismatch(self, check: Check) -> Mismatch | None:
        return next((m for m in self.mismatches if m.check is check), None)


def parse_seal(text: str) -> str:
    """A seal as a person types it (spaces and case ignored): at least the
    short form's 16 hex digits, at most the full 64."""
    return _seal(text, "commitment", full=False)


def verify(record: HandRecord, seal: str | None = None) -> Verdict:
    """Shuffle again from the record's seed and follow its moves.

    ``seal``: the commitment to check the seed against, when it comes from
    elsewhere (noted from a phone during the hand; its first 16 digits are
    enough), else the record's own.

    >>> from companion.rules import get_rules
    >>> seed = bytes(32)
    >>> game = deal_from(seed, get_rules("classic"), 2, dealer=0)
    >>> _ = game.draw(1, "stock", Reshuffles(seed))
    >>> record = record_of(game, seed, players=["Ana", "Ben"], table_players=2)
    >>> verify(record).ok
    True
    >>> verify(record, seal="0000 0000 0000 0000").mismatches[0].text
    'The seed does not match the seal: its SHA-256 begins 66687aadf862bd77.'
    """
    mismatches: list[Mismatch] = []
    sealed = record.commitment if seal is None else parse_seal(seal)
    made = commitment(record.seed)
    if not made.startswith(sealed):
        mismatches.append(
            Mismatch(
                Check.COMMITMENT,
                "seal",
                f"The seed does not match the seal: its SHA-256 begins {made[:SHORT_DIGITS]}.",
                found=made,
                expected=sealed,
            )
        )
    players = len(record.players)
    try:
        game = deal_from(record.seed, record.rules, players, record.dealer, record.table_players)
    except PlayError as error:
        raise ProofError(error.message, "players") from None
    dealt = _dealt_mismatches(record, game)
    mismatches += dealt
    if dealt:
        # Not the key's deal: the moves cannot be followed from it, so nothing
        # after it is judged (a wrong key is not a player breaking the rules).
        return Verdict(tuple(mismatches), frozenset({Check.DRAWS, Check.RESHUFFLES, Check.MOVES}), 0, 0)
    walk = _Walk(record, game)
    mismatches += walk.run()
    return Verdict(tuple(mismatches), frozenset(walk.unchecked), walk.draws, walk.reshuffles)


def _dealt_mismatches(record: HandRecord, game: HandGame) -> list[Mismatch]:
    out = []
    for seat, (said, dealt) in enumerate(zip(record.hands, game.hands, strict=True)):
        if Counter(said) != Counter(dealt):
            extra = sorted((Counter(said) - Counter(dealt)).elements())
            missing = sorted((Counter(dealt) - Counter(said)).elements())
            out.append(
                Mismatch(
                    Check.DEAL,
                    "hand",
                    f"{record.players[seat]} was dealt {_tokens(extra) or 'too few cards'}, "
                    f"but the seed deals {_tokens(missing) or 'fewer cards'} there.",
                    seat=seat,
                    found=_tokens(extra),
                    expected=_tokens(missing),
                )
            )
    if record.discard != game.discards[0]:
        out.append(
            Mismatch(
                Check.DEAL,
                "discard",
                f"The pile started with {record.discard}, but the seed turns up {game.discards[0]}.",
                found=str(record.discard),
                expected=str(game.discards[0]),
            )
        )
    return out


class _Walk:
    """The record's moves played again on the seed's deal, stopping at the first mismatch.

    A reshuffle in the log is written by the stock draw that needed it (or
    by the void hand it ended), so it is checked with that move."""

    def __init__(self, record: HandRecord, game: HandGame) -> None:
        self.record = record
        self.game = game
        self.shuffler = Reshuffles(record.seed)
        self.draws = 0
        self.reshuffles = 0
        self.unchecked: set[Check] = set()

    def run(self) -> list[Mismatch]:
        moves = self.record.moves
        i = 0
        while i < len(moves):
            first = moves[i]
            announced = first if isinstance(first, Reshuffle) else None
            if announced is not None:
                i += 1
                if i == len(moves) or not _from_stock(moves[i]):
                    return [self._stop(self._bad(i, "The record shows a reshuffle that no draw caused."), moves[i:])]
            problem = self._play(i + 1, moves[i], announced)
            if problem is not None:
                return [self._stop(problem, moves[i + 1 :])]
            i += 1
        return self._end()

    def _play(self, n: int, move: Move, announced: Reshuffle | None) -> Mismatch | None:
        game = self.game
        if isinstance(move, Draw) or (isinstance(move, Void) and move.reason is not VoidReason.ABANDONED):
            return self._draw(n, move, announced)
        try:
            if isinstance(move, Discard):
                game.discard(move.seat, move.card)
            elif isinstance(move, Close):
                game.close(move.seat, move.card)
            else:
                game.abandon()
        except PlayError as error:
            return self._bad(n, f"Move {n} is not allowed: {error.message}")
        return None

    def _draw(self, n: int, move: Draw | Void, announced: Reshuffle | None) -> Mismatch | None:
        """A draw, or the void hand an empty stock ended: the engine draws
        with the seed's reshuffles, and what it logs must be the record's."""
        game = self.game
        source = move.source if isinstance(move, Draw) else Source.STOCK
        log = len(game.log)
        if move.seat is None:
            return self._bad(n, f"Move {n} names nobody.")
        try:
            card = game.draw(move.seat, source, self.shuffler)
        except PlayError as error:
            return self._bad(n, f"Move {n} is not allowed: {error.message}")
        made = next((m for m in game.log[log:] if isinstance(m, Reshuffle)), None)
        problem = self._reshuffled(n, announced, made)
        if problem is not None:
            return problem
        self.reshuffles += made is not None
        if isinstance(move, Void):
            if card is not None or game.void != move:
                return self._bad(n, f"Move {n}: the record ends the hand void, but the stock still held a card.")
            return None
        if card is None:
            return self._bad(n, f"Move {n}: the stock ran out and the hand is void, but the record plays on.")
        if card == move.card:
            self.draws += source == Source.STOCK
            return None
        name = self._name(move.seat)
        if source == Source.DISCARD:
            return self._bad(n, f"Move {n}: {name} took {move.card} from the pile, whose top was {card}.")
        if game.reshuffles:
            return Mismatch(
                Check.RESHUFFLES,
                "draw",
                f"Move {n}: {name} drew {move.card} from the stock of reshuffle {game.reshuffles}, "
                f"but the seed puts {card} there.",
                move=n,
                seat=move.seat,
                found=str(move.card),
                expected=str(card),
                reshuffle=game.reshuffles,
            )
        return Mismatch(
            Check.DRAWS,
            "draw",
            f"Move {n}: {name} drew {move.card} from the stock, but the seed puts {card} there.",
            move=n,
            seat=move.seat,
            found=str(move.card),
            expected=str(card),
        )

    def _reshuffled(self, n: int, announced: Reshuffle | None, made: Reshuffle | None) -> Mismatch | None:
        """The record reshuffles exactly where the engine does, keeping the same card on the pile."""
        count = self.game.reshuffles
        if made is not None and announced is None:
            text = f"Before move {n} the stock was empty: the seed reshuffles there, the record does not."
            return Mismatch(Check.RESHUFFLES, "missing", text, move=n, reshuffle=count)
        if announced is not None and made is None:
            text = f"The record reshuffles before move {n}, while the stock still held cards."
            return Mismatch(Check.RESHUFFLES, "extra", text, move=n)
        if made is not None and made != announced:
            assert announced is not None
            text = (
                f"Reshuffle {count} of the record keeps {announced.kept} on the pile and makes a stock of "
                f"{announced.stock}; the rules keep {made.kept} and make {made.stock}."
            )
            return Mismatch(Check.RESHUFFLES, "shape", text, move=n, reshuffle=count)
        return None

    def _end(self) -> list[Mismatch]:
        """After the last move: a hand the engine ended void must end so in the record too; the stock left must be the seed's."""
        game, left = self.game, self.record.stock_left
        if left is None or tuple(game.stock) == left:
            return []
        check = Check.RESHUFFLES if game.reshuffles else Check.DRAWS
        return [
            Mismatch(
                check,
                "stock_left",
                "The cards left in the stock are not the seed's.",
                found=_tokens(left),
                expected=_tokens(game.stock),
            )
        ]

    def _bad(self, n: int, text: str) -> Mismatch:
        return Mismatch(Check.MOVES, "rules", text, move=n)

    def _stop(self, problem: Mismatch, rest: Sequence[Move]) -> Mismatch:
        """Nothing after the first mismatch is followed: what the rest of the
        record would have confirmed stays unchecked (the stock left at the end too)."""
        stock = self.record.stock_left is not None or any(_from_stock(m) for m in rest)
        later = {Check.MOVES} if rest else set()
        if stock and not self.game.reshuffles:
            later.add(Check.DRAWS)
        if any(isinstance(m, Reshuffle) for m in rest) or (stock and self.game.reshuffles):
            later.add(Check.RESHUFFLES)
        self.unchecked |= later - {problem.check}
        return problem

    def _name(self, seat: int) -> str:
        players = self.record.players
        return players[seat] if 0 <= seat < len(players) else f"seat {seat}"


def _from_stock(move: Move) -> bool:
    """A move the engine makes by drawing from the stock: a draw, or the void an empty stock ends the hand with."""
    return (isinstance(move, Draw) and move.source == Source.STOCK) or (
        isinstance(move, Void) and move.reason is not VoidReason.ABANDONED
    )


# -- reading -------------------------------------------------------------------------------------
def _tokens(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _hex_bytes(value: object, name: str) -> bytes:
    text = value.strip().lower() if isinstance(value, str) else ""
    if len(text) != 2 * SEED_BYTES or not _HEX.fullmatch(text):
        raise ProofError(f"The {name} must be {2 * SEED_BYTES} hex digits.", name)
    return bytes.fromhex(text)


def _seal(value: object, name: str, *, full: bool) -> str:
    text = re.sub(r"\s+", "", value).lower() if isinstance(value, str) else ""
    lowest = 2 * SEED_BYTES if full else SHORT_DIGITS
    if not lowest <= len(text) <= 2 * SEED_BYTES or not _HEX.fullmatch(text):
        if full:
            raise ProofError(f"The {name} must be {2 * SEED_BYTES} hex digits.", name)
        raise ProofError(f"A seal is {SHORT_DIGITS} to {2 * SEED_BYTES} hex digits.", name)
    return text


def _int(value: object, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ProofError(f"{name} must be a whole number from {low} to {high}.", name)
    return value


def _card(value: object, rules: Rules, name: str) -> Card:
    try:
        return parse_card(value, rules.pack, name)
    except ChinchonError as error:
        raise ProofError(error.message, name) from None


def _cards(value: object, rules: Rules, name: str) -> list[Card]:
    if not isinstance(value, list):
        raise ProofError(f"{name} must list cards.", name)
    return [_card(v, rules, f"{name}[{i}]") for i, v in enumerate(value)]


__all__ = [
    "DEAL",
    "FORMAT",
    "Check",
    "HandRecord",
    "Mismatch",
    "ProofError",
    "Reshuffles",
    "SeededShuffle",
    "Stream",
    "Verdict",
    "commitment",
    "deal_from",
    "derive_seed",
    "hand_seed",
    "parse_seal",
    "record_of",
    "short",
    "shuffle",
    "verify",
]
