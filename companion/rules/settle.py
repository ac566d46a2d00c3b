"""Showing and laying off after a close (SPEC §5).

In turn from the player after the closer, each player lays down melds from
their hand and then lays off loose cards onto the melds already on the table
(the closer's, and earlier players' as extended), each staying a valid meld.
The engine plays every player's best choice: lowest own points; among equal
points, the choice that leaves the later players the highest total, then the
most to the next player in turn, and so on.  Every player's points are
therefore unique; only the melds may differ, and a table may pick another
arrangement only where it leaves every player's points as they are.
Lay-offs are searched exactly, card by card, so chains (4♦ making room for
3♦) are found.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .cards import Card
from .close import CloseOption, CloseVerdict, ranked_closes
from .errors import ChinchonError, CountError
from .melds import BITS, SET, IndexedHand, MeldContext, meld_context, sort_cards
from .validate import check_card_groups
from .variants import Layoffs, Rules

# A meld on the table: (owner's index, index among the owner's melds, sorted card ids).
TableMeld = tuple[int, int, tuple[int, ...]]
Table = tuple[TableMeld, ...]
# Cards left (bits), the contents of the melds one may lay off onto, and the lay-offs made (card bit, table slot).
LayoffState = tuple[int, tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...]]
_Move = TypeVar("_Move")


@dataclass(frozen=True, slots=True)
class Layoff:
    """``card`` laid off onto meld number ``meld`` of player ``player``."""

    card: Card
    player: int
    meld: int


@dataclass(frozen=True, slots=True)
class PlayerResult:
    melds: tuple[tuple[Card, ...], ...]
    layoffs: tuple[Layoff, ...]
    deadwood: tuple[Card, ...]
    points: int
    #: How many different arrangements leave every player's points exactly as
    #: they are (≥ 1); ``settle_hand(..., choices={player: k})`` picks another
    #: one, ``k = 0`` being the engine's own.
    alternatives: int = 1


@dataclass(frozen=True, slots=True)
class HandResult:
    """A settled hand: the close verdict and, when legal, every player's result."""

    verdict: CloseVerdict
    closer: int
    results: tuple[PlayerResult, ...] | None

    @property
    def legal(self) -> bool:
        return self.verdict.legal

    @property
    def reason(self) -> str | None:
        return self.verdict.reason

    @property
    def chinchon(self) -> bool:
        return self.verdict.chinchon

    @property
    def wins_match(self) -> bool:
        return self.verdict.wins_match

    @property
    def discard(self) -> Card | None:
        return self.verdict.discard

    @property
    def points(self) -> list[int] | None:
        return None if self.results is None else [r.points for r in self.results]


@dataclass(frozen=True, slots=True)
class _Choice:
    """One player's move: own melds, lay-offs (card bit, table slot), cards left."""

    points: int
    melds: tuple[int, ...]
    path: tuple[tuple[int, int], ...]
    left: int
    table: Table  # the table after the move


class _Settler:
    def __init__(self, hands: list[IndexedHand], rules: Rules, closer: int, choices: Mapping[int, int]) -> None:
        self.hands = hands
        self.rules = rules
        self.closer = closer
        self.choices = choices
        n = len(hands)
        self.order = [(closer + k) % n for k in range(1, n)]
        self.run_limit = rules.run_limit(n)
        self.ctx: MeldContext = hands[closer].ctx
        self.memo: dict[tuple[int, Table], tuple[tuple[int, ...], tuple[tuple[_Choice, int], ...]]] = {}
        self.combos = {p: hands[p].combos() for p in self.order}
        self.closer_targets = False

    # -- what a player may lay off onto --------------------------------------
    def targets(self, table: Table) -> list[int]:
        layoffs = self.rules.layoffs
        if layoffs == Layoffs.NONE:
            return []
        return [
            t
            for t, (owner, _, _) in enumerate(table)
            if (owner == self.closer and self.closer_targets) or (owner != self.closer and layoffs == Layoffs.ALL)
        ]

    def visible(self, table: Table) -> tuple[tuple[int, ...], ...]:
        """What later players can use of the table (the key for tie-breaks)."""
        return tuple(table[t][2] for t in self.targets(table))

    # -- one player's options ------------------------------------------------
    def moves(self, player: int, table: Table) -> list[_Choice]:
        """The player's lowest-points moves, one per distinct effect on later players."""
        hand = self.hands[player]
        allowed = self.targets(table)
        best: dict[tuple, _Choice] = {}
        low = None
        for combo in self.combos[player]:
            covered = 0
            for m in combo:
                covered |= m
            left = hand.full ^ covered
            own = tuple((player, j, hand.ids_of(m)) for j, m in enumerate(combo))
            for remaining, contents, path in self.layoff_states(hand, left, table, allowed):
                points = hand.points_of(remaining)
                if low is not None and points > low:
                    continue
                after = list(table)
                for t, ids in zip(allowed, contents, strict=True):
                    owner, j, _ = table[t]
                    after[t] = (owner, j, ids)
                new_table = (*after, *own)
                choice = _Choice(points, combo, path, remaining, new_table)
                if low is None or points < low:
                    low = points
                    best = {}
                key = self.visible(new_table)
                if key not in best or _simpler(choice, best[key]):
                    best[key] = choice
        return list(best.values())

    def layoff_states(self, hand: IndexedHand, left: int, table: Table, allowed: list[int]) -> list[LayoffState]:
        start = tuple(table[t][2] for t in allowed)
        if not left or not allowed:
            return [(left, start, ())]
        ctx = self.ctx
        limit = self.run_limit
        sizes = [len(c) for c in start]
        seen = {(left, start)}
        states: list[LayoffState] = [(left, start, ())]
        stack: list[LayoffState] = [(left, start, ())]
        while stack:
            remaining, contents, path = stack.pop()
            for i in BITS[remaining]:
                card_id = hand.ids[i]
                for k, meld in enumerate(contents):
                    grown = tuple(sorted((*meld, card_id)))
                    info = ctx.meld_info(grown)
                    if info is None:
                        continue
                    if limit is not None and not info[0] & SET and len(grown) - sizes[k] > limit:
                        continue
                    new_contents = (*contents[:k], grown, *contents[k + 1 :])
                    state = (remaining ^ (1 << i), new_contents)
                    if state in seen:
                        continue
                    seen.add(state)
                    entry = (remaining ^ (1 << i), new_contents, (*path, (i, allowed[k])))
                    states.append(entry)
                    stack.append(entry)
        return states

    # -- the game tree of ties -------------------------------------------------
    def play(self, k: int, table: Table) -> tuple[tuple[int, ...], tuple[tuple[_Choice, int], ...]]:
        """Points of players ``order[k:]`` and their moves (with the number of
        equally good alternatives), each playing their best."""
        if k == len(self.order):
            return (), ()
        memo_key = (k, table)
        if memo_key in self.memo:
            return self.memo[memo_key]
        player = self.order[k]
        moves = self.moves(player, table)
        if len(moves) == 1:
            pick = moves[0]
            later, picks = self.play(k + 1, pick.table)
            count = 1
        else:
            same = _equals_of_best([(m, *self.play(k + 1, m.table)) for m in moves])
            pick, later, picks = same[_pick(self.choices.get(player, 0), len(same))]
            count = len(same)
        result = ((pick.points, *later), ((pick, count), *picks))
        self.memo[memo_key] = result
        return result

    def closer_table(self, option: CloseOption) -> Table:
        hand = self.hands[self.closer]
        return tuple((self.closer, j, hand.ids_of(m)) for j, m in enumerate(option.melds))

    # -- results -----------------------------------------------------------------
    def result(self, player: int, choice: _Choice, table_before: Table, alternatives: int) -> PlayerResult:
        hand = self.hands[player]
        layoffs = tuple(
            Layoff(hand.cards[i], table_before_owner[0], table_before_owner[1])
            for i, slot in choice.path
            for table_before_owner in (table_before[slot],)
        )
        return PlayerResult(
            melds=tuple(hand.meld_cards(m) for m in choice.melds),
            layoffs=layoffs,
            deadwood=sort_cards(hand.cards_of(choice.left)),
            points=choice.points,
            alternatives=alternatives,
        )


def _equals_of_best(
    scored: list[tuple[_Move, tuple[int, ...], tuple[tuple[_Choice, int], ...]]],
) -> list[tuple[_Move, tuple[int, ...], tuple[tuple[_Choice, int], ...]]]:
    """Of ``(move, later points, later moves)`` rows, the engine's pick first
    (the highest total left to the later players, then the most to the next
    in turn, and so on), then the other moves that leave every later player
    exactly the same points: the only alternatives a table may choose, since
    every player's points are unique (SPEC §5)."""
    best = max(scored, key=lambda s: (sum(s[1]), s[1]))
    return [best, *(s for s in scored if s[1] == best[1] and s is not best)]


def _pick(choice: int, count: int) -> int:
    """An alternative's index, clamped to those there are (0 is the engine's pick)."""
    return min(max(choice, 0), count - 1)


def _simpler(a: _Choice, b: _Choice) -> bool:
    """Between two moves with the same effect, show the one with fewer lay-offs."""
    return (len(a.path), a.melds) < (len(b.path), b.melds)


def settle_hand(
    hands: Sequence[Sequence[Card]],
    rules: Rules,
    closer: int = 0,
    first_round: bool = False,
    *,
    choices: Mapping[int, int] | None = None,
) -> HandResult:
    """Score a whole hand after a close.

    ``hands`` are in play order; the closer's has 8 cards (the best discard is
    chosen) or the 7 kept, the others 6–8 (a mis-draw still scores).
    ``choices`` maps a player index to one of their equally good alternatives.

    >>> from companion.rules import get_rules, parse_cards
    >>> hands = ["11c 11e 11b 5o 6o 7o 3c 12e", "5b 5c 5e 4o 12o 2c 1c", "2e 3b 6c 7b 10e 12c 12b"]
    >>> settle_hand([parse_cards(h) for h in hands], get_rules("classic")).points  # Ben lays off 4o
    [3, 13, 46]
    """
    n = len(hands)
    if not rules.min_players <= n <= rules.max_players:
        raise CountError(
            f"These rules are for {rules.min_players} to {rules.max_players} players; got {n} hands.", "hands", count=n
        )
    if isinstance(closer, bool) or not isinstance(closer, int) or not 0 <= closer < n:
        raise ChinchonError(f"The closer must be a player number from 0 to {n - 1}.", "closer")
    for i, hand in enumerate(hands):
        allowed = (7, 8) if i == closer else (6, 7, 8)
        if len(hand) not in allowed:
            who = "The closer" if i == closer else f"Player {i + 1}"
            need = "7 or 8" if i == closer else "6 to 8"
            raise CountError(f"{who} must hold {need} cards; got {len(hand)}.", f"hands[{i}]", count=len(hand))
    check_card_groups(hands, rules, rules.copies(n))
    ctx = meld_context(rules)
    indexed = [IndexedHand(h, rules, ctx) for h in hands]
    settler = _Settler(indexed, rules, closer, choices or {})
    ranked = ranked_closes(indexed[closer], rules, first_round)
    first = ranked[0]
    top = [o for o in ranked if o.key == first.key]
    if not first.legal:
        return HandResult(CloseVerdict(indexed[closer], first, rules, first_round), closer, None)
    settler.closer_targets = rules.layoffs != Layoffs.NONE and bool(first.deadwood or rules.layoff_onto_full_close)
    # Several equally good closes may leave different melds for the others.
    distinct: dict[tuple, CloseOption] = {}
    for option in top:
        distinct.setdefault(settler.visible(settler.closer_table(option)), option)
    candidates = list(distinct.values())
    if len(candidates) == 1:
        option = candidates[0]
        _, picks = settler.play(0, settler.closer_table(option))
        count = 1
    else:
        scored = [(o, *settler.play(0, settler.closer_table(o))) for o in candidates]
        best_first = _equals_of_best(scored)
        same = [s for s in best_first if s[0].chinchon == best_first[0][0].chinchon]  # a Chinchón stays one
        option, _, picks = same[_pick(settler.choices.get(closer, 0), len(same))]
        count = len(same)
    verdict = CloseVerdict(indexed[closer], option, rules, first_round)
    assert verdict.score is not None, "the close is legal (as good as the first, which is)"
    results: list[PlayerResult | None] = [None] * n
    results[closer] = PlayerResult(
        melds=verdict.melds,
        layoffs=(),
        deadwood=verdict.deadwood,
        points=verdict.score,
        alternatives=count,
    )
    table = settler.closer_table(option)
    for player, (choice, alternatives) in zip(settler.order, picks, strict=True):
        results[player] = settler.result(player, choice, table, alternatives)
        table = choice.table
    return HandResult(verdict, closer, tuple(r for r in results if r is not None))


#: Why a card that fits a meld on the table may still not be laid off there.
REFUSAL_TEXT = {
    "no_layoffs": "These rules allow no laying off.",
    "full_close": "Nobody lays off onto the melds of a closer who had all seven combined.",
    "closer_only": "These rules allow laying off only onto the closer's melds.",
    "run_limit": "At most {limit} card(s) may be added to one run in a turn (two decks).",
    "not_yet": "That meld was not on the table yet: its player shows later.",
}


@dataclass(frozen=True, slots=True)
class RefusedLayoff:
    """A loose card of ``player`` that fits ``owner``'s meld number ``meld``
    but the rules (``rule``, a key of :data:`REFUSAL_TEXT`) refuse."""

    player: int
    card: Card
    owner: int
    meld: int
    rule: str
    limit: int | None = None

    @property
    def text(self) -> str:
        return REFUSAL_TEXT[self.rule].format(limit=self.limit)


def refused_layoffs(hands: Sequence[Sequence[Card]], rules: Rules, result: HandResult) -> list[RefusedLayoff]:
    """The lay-offs a table might argue about: loose cards that would make a
    valid meld on the table, refused only by a rule, and loose cards that
    fit a meld of a player who shows later (``not_yet``: in turn, that meld
    was not on the table yet, SPEC §5).  Replays the settled hand turn by
    turn, so each player sees the table as extended before them."""
    if result.results is None:
        return []
    ctx = meld_context(rules)
    deck = rules.pack
    closer = result.closer
    n = len(hands)
    full = not result.results[closer].deadwood
    limit = rules.run_limit(n)
    table: dict[tuple[int, int], list[int]] = {
        (closer, j): [deck.card_id(c) for c in m] for j, m in enumerate(result.results[closer].melds)
    }
    refused: list[RefusedLayoff] = []
    for k in range(1, n):
        player = (closer + k) % n
        mine = result.results[player]
        added: dict[tuple[int, int], int] = {}
        for x in mine.layoffs:
            table[(x.player, x.meld)].append(deck.card_id(x.card))
            added[(x.player, x.meld)] = added.get((x.player, x.meld), 0) + 1
        for card in dict.fromkeys(mine.deadwood):
            for (owner, j), ids in table.items():
                grown = tuple(sorted((*ids, deck.card_id(card))))
                info = ctx.meld_info(grown)
                if info is None:
                    continue
                rule = None
                if rules.layoffs == Layoffs.NONE:
                    rule = "no_layoffs"
                elif owner == closer and full and not rules.layoff_onto_full_close:
                    rule = "full_close"
                elif owner != closer and rules.layoffs == Layoffs.CLOSER_ONLY:
                    rule = "closer_only"
                elif limit is not None and not info[0] & SET and added.get((owner, j), 0) + 1 > limit:
                    rule = "run_limit"
                if rule is not None:
                    refused.append(RefusedLayoff(player, card, owner, j, rule, limit))
        for j, m in enumerate(mine.melds):
            table[(player, j)] = [deck.card_id(c) for c in m]
    said = {(x.player, x.card) for x in refused}
    for k in range(1, n):
        player = (closer + k) % n
        for card in dict.fromkeys(result.results[player].deadwood):
            later = (
                (owner, j)
                for owner in ((closer + k2) % n for k2 in range(k + 1, n))
                for j, m in enumerate(result.results[owner].melds)
                if ctx.meld_info(tuple(sorted((*(deck.card_id(c) for c in m), deck.card_id(card))))) is not None
            )
            spot = next(later, None)
            # Only where laying off onto any player's melds is allowed (else the rule, not the turn, refuses it).
            if spot is not None and (player, card) not in said and rules.layoffs == Layoffs.ALL:
                refused.append(RefusedLayoff(player, card, spot[0], spot[1], "not_yet"))
    return refused
