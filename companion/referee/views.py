"""The referee: a close checker and a lay-off referee, both plain GET forms
whose URL is the verdict's permalink (htmx swaps the verdict in place)."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from ..grid import GridView, Tab, read_tokens
from ..rules import Card, ChinchonError, HandResult, Layoff, parse_card, parse_cards, settle_hand
from ..rules.close import CloseVerdict, check_close, drawing_outs, legal_discards
from ..rules.melds import display_order, meld_context
from ..rules.settle import RefusedLayoff, refused_layoffs
from ..templating import render_page
from . import bp
from .query import RulesChoice, rules_from_args


def _flag(name: str) -> bool:
    return request.args.get(name) in ("1", "y", "on", "true")


def _apply_taps(view: GridView) -> bool:
    """No-JavaScript controls: a tab or a card is a submit button of the GET form."""
    touched = False
    if "tab" in request.args:
        view.active = request.args["tab"]
        touched = True
    if "tap" in request.args:
        view.tap(request.args["tap"])
        touched = True
    return touched


@bp.get("/")
def index():
    return render_template("referee/index.html")


# -- can I close with this? -------------------------------------------------------------------
@dataclass
class CloseCheck:
    verdict: CloseVerdict | None = None
    problem: str | None = None
    others: list = field(default_factory=list)
    outs: list[tuple[Card, int]] = field(default_factory=list)
    shortfall: str | None = None


def check(choice: RulesChoice, cards: list[str], discard: list[str], first_round: bool) -> CloseCheck:
    rules = choice.rules
    total = len(cards) + len(discard)
    if not cards:
        return CloseCheck(problem=_("Tap the 8 cards held after drawing (or the 7 kept and the discard)."))
    if total != 8 and not (total == 7 and not discard):
        return CloseCheck(problem=_("Tap 8 cards (or 7 and the discard); %(count)s so far.", count=total))
    try:
        held = parse_cards(cards, rules.pack)
        named = parse_card(discard[0], rules.pack, "discard") if discard else None
        verdict = check_close([*held, named] if named else held, rules, first_round, named)
    except ChinchonError as error:
        return CloseCheck(problem=error.message)
    result = CloseCheck(verdict=verdict)
    if verdict.legal and total == 8 and not named:
        result.others = [d for d in legal_discards(held, rules, first_round) if d.discard != verdict.discard]
    if not verdict.legal:
        result.outs = drawing_outs(
            [c for c in held if c != verdict.discard] if total == 8 and not named else held, rules, first_round
        )
        loose = len(verdict.deadwood)
        if rules.close_rule == "one_card" and loose > 1:
            result.shortfall = ngettext("%(num)s loose card too many.", "%(num)s loose cards too many.", loose - 1)
        elif verdict.dead_points > rules.close_max:
            result.shortfall = _("%(points)s points over the limit.", points=verdict.dead_points - rules.close_max)
    return result


@bp.get("/close")
def close():
    choice = rules_from_args(request.args)
    rules = choice.rules
    cards = read_tokens(request.args.get("cards", ""), rules)[:8]
    discard = read_tokens(request.args.get("discard", ""), rules)[:1]
    view = GridView(
        rules,
        [Tab("h", "cards", _("Hand"), cards, 8, ""), Tab("d", "discard", _("Discard"), discard, 1, "↓")],
        request.args.get("active") or "h",
        choice.style,
    )
    first_round = _flag("first_round")
    if _apply_taps(view):
        return redirect(close_url(choice, cards, discard, first_round, view.active), 303)
    result = check(choice, cards, discard, first_round)
    permalink = close_url(choice, cards, discard, first_round, None, external=True)
    return render_page(
        "referee/close.html",
        "referee/partials/close_verdict.html",
        "verdict",
        choice=choice,
        rules=rules,
        grid_view=view,
        result=result,
        first_round=first_round,
        permalink=permalink,
    )


def close_url(choice: RulesChoice, cards, discard, first_round, active=None, external=False) -> str:
    params = choice.query() | {"cards": " ".join(cards)}
    if discard:
        params["discard"] = discard[0]
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
    for i, cards in enumerate(hands):
        need = (7, 8) if i == 0 else (6, 7, 8)
        if len(cards) not in need:
            if i == 0:
                return LayoffCheck(
                    problem=_("Tap the closer's 8 cards (or the 7 shown); %(count)s so far.", count=len(cards))
                )
            return LayoffCheck(
                problem=_(
                    "Tap the 7 cards of %(name)s (6 or 8 after a mis-draw); %(count)s so far.",
                    name=names[i],
                    count=len(cards),
                )
            )
    try:
        parsed = [parse_cards(h, rules.pack, f"hands[{i}]") for i, h in enumerate(hands)]
        result = settle_hand(parsed, rules, 0, first_round, choices=choices)
    except ChinchonError as error:
        return LayoffCheck(problem=error.message)
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


@bp.get("/layoffs")
def layoffs():
    choice = rules_from_args(request.args)
    rules = choice.rules
    names, hands = _hands_from_table(choice) if choice.table is not None and request.args.get("hand") else (None, None)
    if hands is None:
        n = min(max(request.args.get("n", 3, type=int) or 3, 2), rules.max_players)
        hands = [read_tokens(request.args.get(f"h{i}", ""), rules)[:8] for i in range(n)]
        names = [_("Closer")] + [_("Player %(n)s", n=i + 1) for i in range(1, n)]
    n = len(hands)
    tabs = [Tab(str(i), f"h{i}", names[i], hands[i], 8, str(i + 1) if i else "C") for i in range(n)]
    view = GridView(rules, tabs, request.args.get("active") or "0", choice.style, players=n)
    first_round = _flag("first_round")
    choices = {i: request.args.get(f"c{i}", 0, type=int) or 0 for i in range(n) if request.args.get(f"c{i}")}
    if _apply_taps(view):
        return redirect(layoffs_url(choice, hands, first_round, choices, view.active), 303)
    result = referee_hand(choice, hands, names, first_round, choices)
    return render_page(
        "referee/layoffs.html",
        "referee/partials/layoff_steps.html",
        "verdict",
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


def _hands_from_table(choice: RulesChoice) -> tuple[list[str] | None, list[list[str]] | None]:
    """The hands of a stored hand, closer first and then in play order."""
    table = choice.table
    number = request.args.get("hand", type=int)
    hand = next((h for h in table.active_hands() if h.number == number and h.mode == "cards"), None)
    if hand is None:
        return None, None
    seats = [e.seat for e in hand.entries]
    start = seats.index(hand.closer_seat)
    order = seats[start:] + seats[:start]
    by_seat = {e.seat: e.cards.split() for e in hand.entries}
    return [table.names[s] for s in order], [by_seat[s] for s in order]
