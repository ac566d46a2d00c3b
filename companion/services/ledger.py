"""The group's ledger: each match's pot, payments made, and the fewest
payments that settle everyone.  Money is counted in whole cents (``int``) and
shown as :class:`~decimal.Decimal`: exact, never a float.

>>> fewest_payments({"Ana": 250, "Ben": -250})
[('Ben', 'Ana', 250)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal

from ..rules.names import name_key

CENT = Decimal("0.01")
#: Up to this many people with a balance the fewest payments are found
#: exactly (a search over subsets); beyond, largest debtor pays largest creditor.
EXACT_LIMIT = 12


def to_cents(amount: Decimal) -> int:
    return int((amount * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def from_cents(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(CENT)


def split_pot(pot_cents: int, winners: Sequence[str]) -> dict[str, int]:
    """Winners share the pot; cents that do not divide go one each to the
    first winners in seat order (a pot of 1.00 for three: 0.34, 0.33, 0.33)."""
    if not winners:
        return {}
    base, extra = divmod(pot_cents, len(winners))
    return {name: base + (1 if i < extra else 0) for i, name in enumerate(winners)}


def fewest_payments(balances: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """Payments ``(payer, payee, cents)`` that bring every balance to zero.

    A positive balance is owed money.  n people with a balance need n - k
    payments, k being the most groups they split into whose balances add up to
    zero; within a group the largest debtor pays the largest creditor.
    """
    open_ = sorted(((n, c) for n, c in balances.items() if c), key=lambda x: (name_key(x[0]), x[0]))
    if sum(c for _n, c in open_) != 0:
        raise ValueError("balances do not add up to zero")
    groups = _zero_sum_groups(open_) if len(open_) <= EXACT_LIMIT else [open_]
    payments: list[tuple[str, str, int]] = []
    for group in groups:
        payments.extend(_greedy(group))
    return sorted(payments, key=lambda p: (name_key(p[0]), name_key(p[1])))


def _zero_sum_groups(people: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    n = len(people)
    if n == 0:
        return []
    full = (1 << n) - 1
    total = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + people[low][1]
    # best[mask]: the most zero-sum groups the people in ``mask`` split into.
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        most = 0
        m = mask
        while m:
            bit = m & -m
            most = max(most, best[mask ^ bit])
            m ^= bit
        best[mask] = most + (1 if total[mask] == 0 else 0)
    # Walk back: peel people off so that each zero prefix closes a group.
    order: list[int] = []
    mask = full
    while mask:
        want = best[mask] - (1 if total[mask] == 0 else 0)
        m = mask
        while m:
            bit = m & -m
            if best[mask ^ bit] == want:
                order.append(bit.bit_length() - 1)
                mask ^= bit
                break
            m ^= bit
    order.reverse()
    groups: list[list[tuple[str, int]]] = []
    current: list[tuple[str, int]] = []
    running = 0
    for index in order:
        current.append(people[index])
        running += people[index][1]
        if running == 0:
            groups.append(current)
            current = []
    return groups


def _greedy(group: list[tuple[str, int]]) -> list[tuple[str, str, int]]:
    left = dict(group)
    names = [n for n, _c in group]  # in name order: ties go to the first name
    payments = []
    while any(left.values()):
        debtor = min(names, key=left.__getitem__)
        creditor = max(names, key=left.__getitem__)
        amount = min(-left[debtor], left[creditor])
        payments.append((debtor, creditor, amount))
        left[debtor] += amount
        left[creditor] -= amount
    return payments
