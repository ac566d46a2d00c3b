"""A seat's view: the public facts and its own cards, nothing hidden."""

from __future__ import annotations

import gc
import random
import types
from collections import Counter

import pytest

from companion.bots import GoodBot, SeatView, SimpleBot, bot_turn, seat_view
from companion.rules import Card, Rules, get_rules, parse_card
from companion.rules.game import HandGame

from ..positions import fixed

classic = get_rules("classic")


def reachable(root):
    """Every object reachable from ``root``, not entering the rules (public and
    shared by all seats), modules, classes or a function's globals."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (types.ModuleType, type, Rules)):
            continue
        seen[id(obj)] = obj
        if isinstance(obj, types.FunctionType):
            todo += [c.cell_contents for c in obj.__closure__ or ()]
            todo += list(obj.__defaults__ or ()) + list((obj.__kwdefaults__ or {}).values())
            continue
        if isinstance(obj, types.CellType):
            todo.append(obj.cell_contents)
            continue
        todo += gc.get_referents(obj)
        for name in getattr(type(obj), "__slots__", ()):
            if hasattr(obj, name):
                todo.append(getattr(obj, name))
    return list(seen.values())


@pytest.mark.parametrize("players", [2, 4])
def test_a_view_reaches_no_hidden_card(players):
    game = HandGame.deal(classic, players, 0, random.Random(11))
    seat = game.turn
    bot_turn(game, SimpleBot(), random.Random(1))  # one move in the log
    seat = game.turn
    view = seat_view(game, seat, totals=[5] * players)
    found = reachable(view)
    assert any(obj is view.hand for obj in found) and any(obj is view.can_close for obj in found)
    hidden = [game, game.hands, game.stock, game.discards, game.log]
    hidden += [h for i, h in enumerate(game.hands) if i != seat]
    assert not any(obj is h for obj in found for h in hidden)
    assert not any(isinstance(obj, HandGame) for obj in found)
    # The only cards in reach are the seat's own and the public ones.
    public = set(view.hand) | set(game.discards) | {t.card for t in view.thrown}
    cards = {obj for obj in found if isinstance(obj, Card)}
    assert cards <= public
    others = {c for i, h in enumerate(game.hands) if i != seat for c in h} | set(game.stock)
    assert not cards & (others - public)


def test_the_view_is_a_frozen_copy():
    game = fixed(["11c 11e 11b 5o 6o 7o 3c", "5b 5c 5e 4o 12o 2c 1c"], "1b 12e", "4c")
    view = seat_view(game, 0)
    with pytest.raises(AttributeError):
        view.hand = ()  # type: ignore[misc]
    game.hands[0].append(parse_card("12e"))
    assert len(view.hand) == 7 and isinstance(view, SeatView)
    assert view.stock_size == 2 and view.top == parse_card("4c") and view.hand_sizes == (7, 7)
    assert view.totals == (0, 0) and view.opponents == (1,)


def test_can_close_checks_the_seats_own_cards():
    game = fixed(["11c 11e 11b 5o 6o 7o 3c", "5b 5c 5e 4o 12o 2c 1c"], "1b 12e", "4c")
    game.draw(0, "stock", random.Random(0))  # 12e
    view = seat_view(game, 0)
    assert view.can_close(parse_card("12e")) and not view.can_close(parse_card("3c"))
    assert not view.can_close(parse_card("5b"))  # not held
    game.turns_taken = 0  # the view was taken before: its answer does not change
    assert view.can_close(parse_card("12e"))
    assert not seat_view(game, 0).can_close(parse_card("12e"))  # first round, classic


def test_thrown_cards_and_who_took_them():
    game = fixed(["11c 11e 11b 5o 6o 7o 3c", "5b 5c 5e 4o 12o 2c 1c", "2e 3b 6c 7b 10e 12c 12b"], "1b 2b 10o", "4c")
    rng = random.Random(0)
    game.draw(0, "discard", rng)  # 4c, the deal's card
    game.discard(0, parse_card("3c"))
    game.draw(1, "discard", rng)  # 3c
    game.discard(1, parse_card("12o"))
    game.draw(2, "stock", rng)
    game.discard(2, parse_card("10e"))
    view = seat_view(game, 0)
    assert [(t.seat, str(t.card), t.taken_by) for t in view.thrown] == [
        (None, "4c", 0),
        (0, "3c", 1),
        (1, "12o", None),
        (2, "10e", None),
    ]
    assert view.taken_by(1) == (parse_card("3c"),) and view.thrown_by(2) == (parse_card("10e"),)
    assert [str(c) for c in view.pile] == ["12o", "10e"] and str(view.top) == "10e"


def test_reshuffles_are_public_and_the_pile_restarts():
    game = fixed(["11c 11e 11b 5o 6o 7o 3c", "5b 5c 5e 4o 12o 2c 1c"], "", "1b 2b 3o 4c")
    game.draw(0, "stock", random.Random(0))
    view = seat_view(game, 0)
    assert view.reshuffles == 1 and [str(c) for c in view.pile] == ["4c"] and view.stock_size == 2


def test_bots_get_views_not_games():
    seen = []

    class Spy(GoodBot):
        def choose_draw(self, view):
            seen.append(view)
            return super().choose_draw(view)

        def choose_end(self, view):
            seen.append(view)
            return super().choose_end(view)

    game = HandGame.deal(classic, 3, 0, random.Random(4))
    bot_turn(game, Spy(), random.Random(0))
    assert [len(v.hand) for v in seen] == [7, 8] and all(type(v) is SeatView for v in seen)
    assert Counter(seen[1].hand_sizes) == Counter([8, 7, 7])
