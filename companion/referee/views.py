"""The referee: a close checker and a lay-off referee, both plain GET forms
whose URL is the verdict's permalink (htmx swaps the verdict in place)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from flask import make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..bots.advice import DiscardOdds, next_draw, unseen_cards
from ..rules import Card, ChinchonError, HandResult, Layoff, parse_card, parse_cards, settle_hand
from ..rules.close import CloseVerdict, check_close, legal_discards
from ..rules.errors import CountError
from ..rules.melds import display_order, meld_context
from ..rules.settle import RefusedLayoff, refused_layoffs
from ..rules.variants import AUTO
from ..web.grid import GridView, Tab, read_tokens
from ..web.messages import error_text, over_limit_text
from ..web.templating import render_page
from . import bp
from .query import RulesChoice, rules_from_args


def _flag(name: str) -> bool:
    return request.args.get(name) in ("1", "y", "on", "true")


def _cards(name: str, rules) -> list[str]:
    """A field's cards: its checked boxes, or the space-separated list of a permalink."""
    return read_tokens(request.args.getlist(name), rules)


def _last(name: str) -> str | None:
    """The last value sent for ``name`` (a button's value comes after the hidden field's)."""
    values = request.args.getlist(name)
    return values[-1] if values else None


def _answer(page: str, fragment: str, push_url: str, **context):
    """The page (or its verdict for htmx); htmx pushes the canonical permalink,
    and a plain form submit of checked boxes is redirected to it."""
    if not request.headers.get("HX-Request") and any(len(request.args.getlist(k)) > 1 for k in request.args):
        return redirect(push_url, 303)
    response = make_response(render_page(page, fragment, "verdict", **context))
    if request.headers.get("HX-Request"):
        response.headers["HX-Push-Url"] = push_url
    return response


@bp.get("/")
def index():
    return render_template("referee/index.html")


# -- can I close with this? -------------------------------------------------------------------
@dataclass
class CloseCheck:
    verdict: CloseVerdict | None = None
    problem: str | None = None
    others: list = field(default_factory=list)
    #: When the hand cannot close: each discard's odds of closing on the next
    #: draw (the advisor's exact figures), the best first.
    odds: list[DiscardOdds] = field(default_factory=list)
    unseen: int = 0
    copies: int = 1  # copies of each card the odds count
    decks: str = ""  # why: "assumed" (one deck for 2–4 players) or "tapped twice"
    shortfall: str | None = None


def check(
    choice: RulesChoice, cards: list[str], discard: list[str], first_round: bool, seen: Sequence[str] = ()
) -> CloseCheck:
    """The engine's verdict on the tapped cards; a wrong count is the engine's
    refusal, worded as what is still to tap."""
    rules = choice.rules
    try:
        held = parse_cards(cards, rules.pack)
        if len(discard) > 1:
            raise CountError("One discard only.", "discard", count=len(held) + len(discard))
        named = parse_card(discard[0], rules.pack, "discard") if discard else None
        verdict = check_close([*held, named] if named else held, rules, first_round, named)
    except CountError:
        count = len(cards) + len(discard)
        if not count:
            return CloseCheck(problem=_("Tap the 8 cards held after drawing (or the 7 kept and the discard)."))
        return CloseCheck(problem=_("Tap 8 cards (or 7 and the discard); %(count)s so far.", count=count))
    except ChinchonError as error:
        return CloseCheck(problem=error_text(error))
    result = CloseCheck(verdict=verdict)
    if verdict.legal and len(held) == 8 and not named:
        result.others = [d for d in legal_discards(held, rules, first_round) if d.discard != verdict.discard]
    if not verdict.legal:
        result.shortfall = over_limit_text(verdict.why)
        try:
            out = [*parse_cards(list(seen), rules.pack, "seen"), *([named] if named else [])]
            players = odds_players(choice, [*held, *out])
            rows = [replace(r, discard=r.discard or named) for r in next_draw(rules, held, out, players=players)]
        except ChinchonError as error:
            result.problem = error_text(error)
            return result
        result.odds = sorted(
            rows,
            key=lambda r: (
                -r.close_next,
                r.expected_points,
                0 if r.discard is None else rules.card_keys.get(r.discard, 0),
            ),
        )
        result.unseen = len(unseen_cards(rules, held, out, players))
        result.copies = rules.copies(players)
        if choice.table is None and rules.decks == AUTO:
            result.decks = "assumed" if players is not None else "tapped twice"
    return result


def odds_players(choice: RulesChoice, cards: list[Card]) -> int | None:
    """The players the odds assume, for the number of decks: a table's own;
    else, with ``decks: "auto"``, four (one deck, the usual table) unless a
    card was tapped twice (two decks)."""
    rules = choice.rules
    if choice.table is not None:
        return len(choice.table.players)
    if rules.decks != AUTO or len(set(cards)) < len(cards) or not rules.min_players <= 4 <= rules.max_players:
        return None
    return 4


@bp.get("/close")
def close():
    choice = rules_from_args(request.args)
    rules = choice.rules
    cards = _cards("cards", rules)
    discard = _cards("discard", rules)
    seen = _cards("seen", rules)
    view = GridView(
        rules,
        [
            Tab("h", "cards", _("Hand"), cards, 8, ""),
            Tab("d", "discard", _("Discard"), discard, 1, "↓"),
            Tab("s", "seen", _("Seen"), seen, MAX_SEEN, "·"),
        ],
        request.args.get("active") or "h",
        choice.style,
    )
    first_round = _flag("first_round")
    result = check(choice, cards, discard, first_round, seen)
    return _answer(
        "referee/close.html",
        "referee/partials/close_verdict.html",
        close_url(choice, cards, discard, first_round, view.active if view.active != "h" else None, seen=seen),
        choice=choice,
        rules=rules,
        grid_view=view,
        result=result,
        first_round=first_round,
        permalink=close_url(choice, cards, discard, first_round, None, external=True, seen=seen),
    )


#: The "seen thrown" tab holds at most this many cards (two decks and jokers: 84).
MAX_SEEN = 84


def close_url(choice: RulesChoice, cards, discard, first_round, active=None, external=False, seen=()) -> str:
    params = choice.query() | {"cards": " ".join(cards)}
    if discard:
        params["discard"] = " ".join(discard)
    if seen:
        params["seen"] = " ".join(seen)
    if first_round:
        params["first_round"] = "1"
    if active:
        params["active"] = active
    if choice.style == "french" and choice.table is None:
        params["suits"] = "french"
    return url_for("referee.close", _external=external, **params)


# -- may that card be laid off there? -------------------------------------------------------
@dataclass
class Step:
    """One player's turn after the close, as the referee explains it."""

    index: int
    name: str
    result: object
    layoffs: list[tuple[Layoff, str, list[Card]]] = field(default_factory=list)  # lay-off, owner's name, meld after it
    refused: list[RefusedLayoff] = field(default_factory=list)


@dataclass
class LayoffCheck:
    result: HandResult | None = None
    steps: list[Step] = field(default_factory=list)
    problem: str | None = None


def referee_hand(
    choice: RulesChoice, hands: list[list[str]], names: list[str], first_round: bool, choices: dict[int, int]
) -> LayoffCheck:
    rules = choice.rules
    try:
        parsed = [parse_cards(h, rules.pack, f"hands[{i}]") for i, h in enumerate(hands)]
        result = settle_hand(parsed, rules, 0, first_round, choices=choices)
    except CountError as error:
        return LayoffCheck(problem=_count_problem(error, hands, names))
    except ChinchonError as error:
        return LayoffCheck(problem=error_text(error))
    check_ = LayoffCheck(result=result)
    if result.results is None:
        return check_
    refused = refused_layoffs(parsed, rules, result)
    ctx = meld_context(rules)
    table = {(0, j): list(m) for j, m in enumerate(result.results[0].melds)}
    for i, r in enumerate(result.results):
        step = Step(i, names[i], r, refused=[x for x in refused if x.player == i])
        for x in r.layoffs:
            table[(x.player, x.meld)].append(x.card)
            step.layoffs.append((x, names[x.player], list(display_order(table[(x.player, x.meld)], ctx))))
        for j, m in enumerate(r.melds):
            if i:
                table[(i, j)] = list(m)
        check_.steps.append(step)
    return check_


def _count_problem(error: CountError, hands: list[list[str]], names: list[str]) -> str:
    """The engine's card-count refusal for ``hands[i]``, as what is still to tap."""
    index = error.field[len("hands[") : -1] if error.field.startswith("hands[") else ""
    if not index.isdecimal():
        return error_text(error)
    i = int(index)
    if i == 0:
        return _("Tap the closer's 8 cards (or the 7 shown); %(count)s so far.", count=len(hands[0]))
    return _(
        "Tap the 7 cards of %(name)s (6 or 8 after a mis-draw); %(count)s so far.", name=names[i], count=len(hands[i])
    )


@bp.get("/layoffs")
def layoffs():
    choice = rules_from_args(request.args)
    rules = choice.rules
    stored = _hands_from_table(choice) if request.args.get("hand") else None
    if stored is not None:
        names, hands = stored
    else:
        wanted = _last("n") or "3"
        n = min(max(int(wanted) if wanted.isdecimal() else 3, 2), rules.max_players)
        hands = [_cards(f"h{i}", rules) for i in range(n)]
        names = [_("Closer")] + [_("Player %(n)s", n=i + 1) for i in range(1, n)]
    n = len(hands)
    marks = ["C", *(str(i + 1) for i in range(1, n))]
    tabs = [Tab(str(i), f"h{i}", names[i], hands[i], 8, marks[i], advance=7 if i else 8) for i in range(n)]
    view = GridView(rules, tabs, request.args.get("active") or "0", choice.style, players=n)
    first_round = _flag("first_round")
    choices = {i: int(_last(f"c{i}") or 0) for i in range(n) if (_last(f"c{i}") or "").isdecimal()}
    result = referee_hand(choice, hands, names, first_round, choices)
    return _answer(
        "referee/layoffs.html",
        "referee/partials/layoff_steps.html",
        layoffs_url(choice, hands, first_round, choices, view.active if view.active != "0" else None),
        choice=choice,
        rules=rules,
        grid_view=view,
        check=result,
        names=names,
        n=n,
        first_round=first_round,
        choices=choices,
        permalink=layoffs_url(choice, hands, first_round, choices, None, external=True),
    )


def layoffs_url(choice: RulesChoice, hands, first_round, choices, active=None, external=False, n=None) -> str:
    params = choice.query()
    if choice.style == "french":
        params["suits"] = "french"
    params["n"] = str(n or len(hands))
    params |= {f"h{i}": " ".join(h) for i, h in enumerate(hands)}
    params |= {f"c{i}": str(k) for i, k in choices.items() if k}
    if first_round:
        params["first_round"] = "1"
    if active:
        params["active"] = active
    return url_for("referee.layoffs", _external=external, **params)


def _hands_from_table(choice: RulesChoice) -> tuple[list[str], list[list[str]]] | None:
    """The names and hands of the stored hand the query names, closer first
    and then in play order (None: no table, or no such hand)."""
    table = choice.table
    if table is None:
        return None
    number = request.args.get("hand", type=int)
    hand = next((h for h in table.active_hands() if h.number == number and h.mode == "cards"), None)
    if hand is None:
        return None
    seats = [e.seat for e in hand.entries]
    start = seats.index(hand.closer_seat)
    order = seats[start:] + seats[:start]
    by_seat = {e.seat: e.cards.split() for e in hand.entries}
    return [table.names[s] for s in order], [by_seat[s] for s in order]
