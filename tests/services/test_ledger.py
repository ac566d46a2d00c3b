"""The group's ledger, pure: cents, split pots and the fewest payments (no database)."""

from __future__ import annotations

import itertools
import random
from decimal import Decimal

import pytest

from companion.services.ledger import EXACT_LIMIT, fewest_payments, from_cents, split_pot, to_cents


def test_cents_are_whole_and_exact():
    assert to_cents(Decimal("2.50")) == 250
    assert to_cents(Decimal("0.005")) == 1  # half a cent rounds up, never to a float
    assert to_cents(Decimal("1000000")) == 100_000_000
    assert from_cents(250) == Decimal("2.50") and str(from_cents(-5)) == "-0.05"
    assert all(to_cents(from_cents(c)) == c for c in (-12345, -1, 0, 1, 99, 100, 123456789))


def test_split_pots_and_fewest_payments():
    assert split_pot(100, ["Ana", "Ben", "Carla"]) == {"Ana": 34, "Ben": 33, "Carla": 33}
    assert split_pot(250, ["Ana", "Ben"]) == {"Ana": 125, "Ben": 125}
    assert split_pot(250, []) == {}
    # Two independent pairs need two payments, not three (greedy on the totals would chain them).
    assert fewest_payments({"A": 300, "B": -300, "C": 500, "D": -200, "E": -300}) == [
        ("B", "A", 300),
        ("D", "C", 200),
        ("E", "C", 300),
    ]
    assert fewest_payments({"A": 0, "B": 0}) == []


def test_balances_that_do_not_add_up_are_refused():
    with pytest.raises(ValueError, match="add up"):
        fewest_payments({"A": 100, "B": -99})


def test_beyond_the_exact_limit_every_balance_still_settles():
    people = EXACT_LIMIT + 3
    balances = {f"P{i:02d}": (i + 1) * 10 for i in range(people - 1)}
    balances["Z"] = -sum(balances.values())
    left = dict(balances)
    for payer, payee, cents in fewest_payments(balances):
        left[payer] += cents
        left[payee] -= cents
    assert not any(left.values())


def test_fewest_payments_is_minimal_against_brute_force():
    def brute(values):
        """n minus the most zero-sum parts of a partition, by trying every partition."""
        best = 0

        def parts(items, count):
            nonlocal best
            if not items:
                best = max(best, count)
                return
            first, rest = items[0], items[1:]
            for r in range(len(rest) + 1):
                for combo in itertools.combinations(rest, r):
                    if values[first] + sum(values[i] for i in combo) == 0:
                        parts([i for i in rest if i not in combo], count + 1)

        parts(list(range(len(values))), 0)
        return len(values) - best

    rng = random.Random(15)
    for _ in range(60):
        n = rng.randint(2, 7)
        values = [rng.choice([-300, -200, -100, -50, 50, 100, 200, 300]) for _ in range(n - 1)]
        values.append(-sum(values))
        if values[-1] == 0 or values.count(0):
            continue
        balances = {f"P{i}": v for i, v in enumerate(values)}
        result = fewest_payments(balances)
        left = dict(balances)
        for payer, payee, cents in result:
            assert cents > 0
            left[payer] += cents
            left[payee] -= cents
        assert not any(left.values())
        assert len(result) == brute(values)
