"""What one seat's page shows of a digital deal: a view model, never a write."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..bots.review import BLUNDER, INACCURACY, MISTAKE, Review, Step, accuracy
from ..bots.review import VERSION as REVIEW_VERSION
from ..models import Deal, GameTable
from ..rules import SUITS, Card, Rules, best_melds
from ..rules.close import Reason, check_close, legal_discards
from ..rules.game import Close, Discard, Draw, HandGame, Move, Phase, Reshuffle, Source, Void
from ..services.nextstep import NextStep


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
    computer: bool = False  # the computer played this turn for the person (their seat handed over)


def turns_of(
    moves: Sequence[Move], names: Sequence[str], hints: Sequence[dict] = (), covered: Sequence[int] = ()
) -> list[Turn]:
    """The log grouped into turns (draw + discard or close), reshuffles and
    voids; a turn in which the player asked for a hint says so (a hint is
    marked with the number of moves logged when it was asked), and so does
    one the computer played for a person (``covered``: where such turns
    began in the log, a reshuffle before the draw included)."""
    out: list[Turn] = []
    pending: Turn | None = None
    start = 0  # where the turn being played began in the log
    by_computer = set(covered)

    def asked(seat: int, upto: int) -> bool:
        return any(h["seat"] == seat and start <= h["at"] <= upto for h in hints)

    def played_for(i: int) -> bool:
        return i in by_computer or (i - 1 in by_computer and isinstance(moves[i - 1], Reshuffle))

    for i, move in enumerate(moves):
        match move:
            case Draw():
                hinted = asked(move.seat, i + 1)
                pending = Turn(
                    names[move.seat], source=move.source.value, drawn=move.card, hint=hinted, computer=played_for(i)
                )
                out.append(pending)
            case Discard() | Close():
                base = (
                    pending
                    if pending is not None and pending.who == names[move.seat]
                    else Turn(names[move.seat], computer=played_for(i))
                )
                done = Turn(
                    base.who,
                    base.source,
                    base.drawn,
                    move.card if isinstance(move, Discard) else None,
                    isinstance(move, Close),
                    hint=base.hint,
                    computer=base.computer or played_for(i),
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


def seat_page(table: GameTable, deal: Deal, game: HandGame, engine_seat: int | None, step: NextStep) -> dict:
    """What one seat may see: its own cards (grouped into melds, loose cards
    with their points), everybody's card counts and totals, the top discard,
    the stock's size and the moves so far (a card drawn from the stock only
    for its drawer).  Never another hand or the stock's order."""
    names = table.names
    seat_names = [names[s] for s in deal.seats]
    current = step.standing
    rules = table.rules
    view: dict = {
        "seat": engine_seat,
        "hand": [],
        "groups": [],
        "drawn": None,
        "closes": [],
        "why": None,  # why the player to discard cannot close
        "players": [
            {
                "name": seat_names[i],
                "cards": len(h) - (1 if i == game.closer else 0),
                "face_down": i == game.closer,
                "computer": table.players[deal.seats[i]].kind.computer,
                "stand_in": table.players[deal.seats[i]].stand_in_since is not None,
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
        "called_off": deal.called_off,
        "next_dealer": names[step.dealer] if game.void else None,
        "turns": turns_of(game.seen_by(engine_seat), seat_names, deal.hints or (), deal.covered or ()),
        "reshuffles": game.reshuffles,
        "max_reshuffles": rules.max_reshuffles,
    }
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
    view["groups"] = [Group(sorted(m), None) for m in arranged.melds] + [
        Group([c], rules.value(c)) for c in sorted(arranged.deadwood, key=by_suit)
    ]
    if game.phase == Phase.DISCARD and game.turn == engine_seat:
        view["closes"], view["why"] = closes_of(hand, game)
    return view


def by_suit(card: Card) -> tuple[int, int]:
    """Loose cards by suit, then rank, so that near-runs sit side by side (jokers last)."""
    return (card.suit.index, card.rank) if card.suit else (len(SUITS), 0)


def closes_of(hand: list[Card], game: HandGame) -> tuple[list[CloseOption], Reason | None]:
    """The legal closes, the best first (a Chinchón, then the lowest score),
    or none and the engine's reason why (the first round, or the loose cards)."""
    rules = game.rules
    closes = [
        CloseOption(d.discard, d.verdict.score, d.verdict.wins_match)  # type: ignore[arg-type]
        for d in legal_discards(hand, rules, game.first_round, players=game.players)
    ]
    if closes:
        return sorted(closes, key=lambda o: (not o.wins_match, o.score, o.card)), None
    return [], check_close(hand, rules, game.first_round, players=game.players).why


# -- the review of a finished hand -------------------------------------------------------
def review_page(table: GameTable, deal: Deal, review: Review) -> dict:
    """The review as the page shows it: a line per player reviewed (this hand
    and the match so far), the moment the hand was lost, and a row per move
    with the board of that moment."""
    names = [table.names[s] for s in deal.seats]
    rules = table.rules
    copies = rules.copies(len(table.players))
    steps = []
    for i, step in enumerate(review.steps):
        move = step.move
        after = review.steps[i + 1].move if i + 1 < len(review.steps) else None
        steps.append(
            {
                "gave_up": gave_up(step, after, rules, names),
                "n": i + 1,
                "who": names[step.seat] if step.seat is not None else None,
                "kind": move.name,
                "source": getattr(move, "source", None),
                "card": getattr(move, "card", None),
                "reason": getattr(getattr(move, "reason", None), "value", None),
                "judgement": step.judgement,
                "board": [(names[k], face_up(list(h), rules, copies)) for k, h in enumerate(step.hands)],
                "top": step.top,
                "stock": step.stock,
                "chance": step.closer_chance,
            }
        )
    match = match_accuracy(table)
    players = [
        {
            "name": names[seat],
            "accuracy": accuracy,
            "marks": review.marks.get(seat, {}),
            "match": match.get(deal.seats[seat]),
        }
        for seat, accuracy in sorted(review.accuracy.items())
    ]
    lost = None
    # The closer's own review reads as a hand won, unless other people lost it.
    closer_judged = review.closer is not None and review.closer in review.accuracy
    if review.lost_at is not None and review.closer is not None:
        lost = {
            "n": review.lost_at + 1,
            "name": names[review.closer],
            "chance": review.steps[review.lost_at].closer_chance,
            "won": closer_judged and len(review.accuracy) == 1,
            # Whose move it was (a stop or a reshuffle has nobody).
            "by": steps[review.lost_at]["who"],
        }
    return {
        "table": table,
        "deal": deal,
        "steps": steps,
        "players": players,
        "lost": lost,
        "closer": names[review.closer] if review.closer is not None else None,
        "closer_judged": closer_judged,
        "thresholds": (INACCURACY, MISTAKE, BLUNDER),
    }


@dataclass(frozen=True, slots=True)
class GaveUp:
    """What a marked move gave up, in this hand's cards and points: the meld a
    throw broke, the loose points it left against the best move's, who took
    the card from the pile next; for a draw, the meld the pile's card made."""

    broke: tuple[Card, ...] = ()
    loose: tuple[int, int] | None = None  # (left by the move, left by the best)
    fed: str | None = None
    pile_meld: tuple[Card, ...] = ()


def gave_up(step: Step, after: Move | None, rules: Rules, names: Sequence[str]) -> GaveUp | None:
    """:class:`GaveUp` for a judged move with a mark (None otherwise)."""
    judgement, move = step.judgement, step.move
    if judgement is None or judgement.mark is None or step.seat is None:
        return None
    hand = list(step.hands[step.seat])
    copies = rules.copies(len(step.hands))
    if isinstance(move, Discard | Close):
        best = judgement.best.card
        melds = best_melds(hand, rules, copies=copies).melds
        broke = next((m for m in melds if move.card in m), ())
        loose = None
        if best is not None and best != move.card:
            left = [best_melds(_without(hand, c), rules, copies=copies).points for c in (move.card, best)]
            loose = (left[0], left[1]) if left[0] != left[1] else None
        fed = None
        if isinstance(after, Draw) and after.source == Source.DISCARD and after.seat != step.seat:
            fed = names[after.seat]
        return GaveUp(broke=tuple(broke), loose=loose, fed=fed)
    if (
        isinstance(move, Draw)
        and move.source == Source.STOCK
        and judgement.best.move == "pile"
        and step.top is not None
    ):
        melds = best_melds([*hand, step.top], rules, copies=copies).melds if len(hand) < 8 else ()
        return GaveUp(pile_meld=tuple(next((m for m in melds if step.top in m), ())))
    return None


def _without(hand: list[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest


def match_accuracy(table: GameTable) -> dict[int, tuple[float, int]]:
    """Per table seat: the accuracy over every decision of the hands reviewed
    so far (their stored reviews), and how many hands that is."""
    losses: dict[int, list[float]] = {}
    hands: dict[int, set[int]] = {}
    for deal in table.deals:
        stored = deal.review
        if not stored or stored.get("version") != REVIEW_VERSION:
            continue
        for step in stored["steps"]:
            judged, seat = step["judgement"], step["move"].get("seat")
            if judged is not None and seat is not None:
                losses.setdefault(deal.seats[seat], []).append(judged["loss"])
                hands.setdefault(deal.seats[seat], set()).add(deal.id)
    return {seat: (accuracy(xs), len(hands[seat])) for seat, xs in losses.items()}


def face_up(cards: list[Card], rules, copies: int) -> list[Card]:
    """A hand face up: its melds first (the engine's best), then the loose cards by suit."""
    arranged = best_melds(cards, rules, copies=copies)
    return [*(c for meld in arranged.melds for c in sorted(meld)), *sorted(arranged.deadwood, key=by_suit)]
