"""A group's record: every write to a group, and what a group knows, all
replayed from its tables with the rules engine (the season's standings, the
last matches, the ledger and the charts' data).

Every write here runs inside :func:`~companion.services.unit.transaction`
and refuses with a :class:`~companion.services.unit.ServiceError` before it
changes anything.  Who may call which write is the web's business
(``companion.web.access``): a group's links have the same three levels as a
table's (owner, player, watch; the "member" link is the player level).

A member is one row with a stable id; renaming keeps the row and its
earlier names (:attr:`GroupMember.aliases`), so tables and payments under any
of the member's names count for the member under the current name.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any, cast

from sqlalchemy import CursorResult, select, update

from ..extensions import db
from ..models import GameTable, Group, GroupMember, Payment, Season, now
from ..rules import get_rules
from ..rules.match import NAME_LENGTH
from ..rules.names import name_key, normalize_name, repeated_name
from .ledger import fewest_payments, from_cents, split_pot, to_cents
from .play import DEFAULT_PACE, Pace
from .rematch import play_on
from .standing import Mark, Standing, standing
from .unit import ServiceError, add_created, check_new_creation, new_token, one_time

MIN_MEMBERS = 2
MAX_MEMBERS = 24
CURRENCIES = ("EUR", "USD", "GBP", "SEK", "CHF", "ARS", "MXN", "UYU")
#: The largest single payment: a million in the group's currency.
MAX_PAYMENT = Decimal(1_000_000)
#: A table link as pasted: the token after ``/t/``, or the bare token.
TABLE_LINK = re.compile(r"(?:/t/|^)([A-Za-z0-9_-]{16,40})(?:[/?#]|$)")


# -- members and their names ----------------------------------------------------------------
def verify_members(names: Sequence[str]) -> list[str]:
    """The member names normalised like a table's players, or the refusal a
    table's players would get (``name_missing``, ``name_long``, ``name_twice``),
    or ``members_few`` / ``members_many``.

    >>> verify_members(["Ana", " Ben "])
    ['Ana', 'Ben']
    """
    shown = [normalize_name(n) for n in names]
    if len(shown) < MIN_MEMBERS:
        raise ServiceError("members_few", "members", count=MIN_MEMBERS)
    if len(shown) > MAX_MEMBERS:
        raise ServiceError("members_many", "members", count=MAX_MEMBERS)
    if not all(shown):
        raise ServiceError("name_missing", "members")
    if any(len(n) > NAME_LENGTH for n in shown):
        raise ServiceError("name_long", "members", high=NAME_LENGTH)
    twice = repeated_name(shown)
    if twice is not None:
        raise ServiceError("name_twice", "members", name=twice)
    return shown


def member_keys(member: GroupMember) -> set[str]:
    """Every key a member is known by: the current name's and the earlier ones'."""
    return {member.key, *(name_key(a) for a in member.aliases or ())}


def identities(group: Group) -> dict[str, str]:
    """Name key → the member's name as shown now, for every member's current
    and earlier names (a current name wins over somebody else's earlier one)."""
    known = {name_key(a): m.name for m in group.members for a in m.aliases or ()}
    known.update({m.key: m.name for m in group.members})
    return known


def counted_names(known: Mapping[str, str], names: Sequence[str]) -> list[str]:
    """A table's players as the group counts them: a member under the current
    name, anybody else as typed.  Two seats never become one person: when two
    seats name the same member, the seat with the current name (else the
    first) is the member and the other keeps the name it was typed with.

    >>> counted_names({"guille": "Guille", "guillermo": "Guille"}, ["Guillermo", "Ana"])
    ['Guille', 'Ana']
    """
    shown = [known.get(name_key(n), n) for n in names]
    for name, count in Counter(shown).items():
        if count > 1:
            seats = [i for i, s in enumerate(shown) if s == name]
            keep = next((i for i in seats if name_key(names[i]) == name_key(name)), seats[0])
            for i in seats:
                if i != keep:
                    shown[i] = names[i]
    return shown


# -- creating and changing ---------------------------------------------------------------------
def _verify_settings(preset: str, overrides: Mapping[str, object], currency: str) -> None:
    get_rules(preset, **overrides)  # a ChinchonError names the rule's field
    if currency not in CURRENCIES:
        raise ServiceError("currency", "currency")


def create_group(
    *, name: str, members: Sequence[str], preset: str, overrides: dict, currency: str, submission: str | None = None
) -> Group:
    """A new group, in its first season.  ``submission``: the creation form's
    one-time id, stored with the group.  The same form sent again (Back, then
    Create) stores nothing: it raises :class:`AlreadySaved` carrying the owner
    link of the group it made."""
    check_new_creation(Group, submission)
    names = verify_members(members)
    _verify_settings(preset, overrides, currency)
    group = Group(
        owner_token=new_token(),
        member_token=new_token(),
        watch_token=new_token(),
        name=normalize_name(name)[:80],
        preset=preset,
        overrides=dict(overrides),
        currency=currency,
        submission=one_time(submission),
    )
    group.members = [GroupMember(position=i, name=n, key=name_key(n), aliases=[]) for i, n in enumerate(names)]
    group.seasons = [Season(number=1, started_at=group.created_at or now())]
    add_created(group)
    db.session.flush()
    return group


def update_group(
    group: Group,
    *,
    name: str,
    members: Sequence[tuple[int | None, str]],
    preset: str,
    overrides: dict,
    currency: str,
) -> None:
    """New settings and members.  ``members`` in order: ``(id, name)`` keeps
    (and maybe renames) that member, ``(None, name)`` adds one; a member left
    out is removed (their matches count under their names, as guests).

    A renamed member keeps the old name as an alias.  Adding somebody under
    another kept member's earlier name is refused (``name_alias``): that
    name's matches are that member's.  A new name that is a removed member's
    (current or earlier) is that member coming back, with their history."""
    names = verify_members([n for _id, n in members])
    _verify_settings(preset, overrides, currency)
    by_id = {m.id: m for m in group.members}
    ids = [i for i, _n in members if i is not None]
    if any(i not in by_id for i in ids) or len(set(ids)) != len(ids):
        raise ServiceError("unknown_member", "members")
    removed = [m for m in group.members if m.id not in ids]
    plan: list[tuple[GroupMember | None, str]] = []
    for (member_id, _typed), shown in zip(members, names, strict=True):
        member = by_id.get(member_id) if member_id is not None else None
        if member is None:
            member = next((m for m in removed if name_key(shown) in member_keys(m)), None)
            if member is not None:
                removed.remove(member)
        plan.append((member, shown))
    for member, shown in plan:
        # Another member's earlier name (or the name they are leaving now) belongs to their history.
        for other, other_shown in plan:
            if other is not None and other is not member and name_key(shown) in member_keys(other):
                taken = next((a for a in [other.name, *other.aliases] if name_key(a) == name_key(shown)), shown)
                raise ServiceError("name_alias", "members", name=taken, member=other_shown)

    rows = []
    renamed: list[tuple[GroupMember, str]] = []
    for position, (member, shown) in enumerate(plan):
        if member is None:
            member = GroupMember(name=shown, key=name_key(shown), aliases=[])
        elif name_key(shown) != member.key:
            earlier = [a for a in member.aliases or () if name_key(a) != name_key(shown)]
            member.aliases = [*earlier, member.name]
            member.key = f"\t{member.id}"  # out of the way until the removed rows are gone (no name has a tab)
            renamed.append((member, shown))
        member.name, member.position = shown, position
        rows.append(member)
    group.members = rows
    db.session.flush()
    for member, shown in renamed:
        member.key = name_key(shown)
    group.name = normalize_name(name)[:80]
    group.preset = preset
    group.overrides = dict(overrides)
    group.currency = currency
    touch(group)


def touch(group: Group) -> None:
    group.updated_at = now()


# -- seasons -----------------------------------------------------------------------------------
def season_of(group: Group, when: datetime) -> int:
    """The season a match created at ``when`` belongs to (the first one for older tables)."""
    number = group.seasons[0].number
    for season in group.seasons:
        if season.started_at <= when:
            number = season.number
    return number


def season_tables(group: Group, number: int) -> list[GameTable]:
    return [t for t in group.tables if season_of(group, t.created_at) == number]


def start_season(group: Group, seen: int | None = None) -> Season:
    """The next season.  ``seen`` is the season the form showed: a form sent
    twice starts one season (``season_started``), and a season without a
    single match is never left behind (``season_empty``)."""
    current = group.current_season
    if seen is not None and seen != current.number:
        raise ServiceError("season_started", "season", number=current.number)
    if not season_tables(group, current.number):
        raise ServiceError("season_empty", "season", number=current.number)
    season = Season(number=current.number + 1, started_at=now())
    group.seasons.append(season)
    touch(group)
    return season


# -- tables in the group -----------------------------------------------------------------------
def add_table(group: Group, table: GameTable) -> None:
    """A match belongs to at most one group: joining another is refused by the caller."""
    table.group_id = group.id
    touch(group)


def join(table: GameTable, group: Group | None) -> None:
    if group is not None:
        add_table(group, table)


def add_table_by_link(group: Group, link: str) -> bool:
    """Count a table already played for the group, by its owner link as
    pasted (a whole URL or the bare token).  True when it joins now, False
    when it already counted here; ``not_owner_link`` for anything but a
    table's owner link, ``other_group`` when another group has it."""
    match = TABLE_LINK.search((link or "").strip())
    table = None
    if match:
        table = db.session.scalar(select(GameTable).where(GameTable.owner_token == match.group(1)))
    if table is None:
        raise ServiceError("not_owner_link", "link")
    if table.group_id == group.id:
        return False
    if table.group_id is not None:
        raise ServiceError("other_group", "link")
    add_table(group, table)
    return True


def play_again(group: Group, source: int | None, *, pace: Pace = DEFAULT_PACE) -> GameTable:
    """A new table in the group from the match ``source`` (the group's last,
    as the page showed it), finished or not: the same players (members under
    their current names), rules, stake, kind and suits; the dealer moved on
    by one.  Made once: a second call (a double tap, a second phone) answers
    the table the first one made, as the table's own rematch does."""
    tables = group.tables
    last = next((t for t in tables if t.id == source), None) if source is not None else next(reversed(tables), None)
    if last is None:
        raise ServiceError("no_match", "again")
    names = counted_names(identities(group), last.names)
    table = play_on(last, last.version, names=names, pace=pace, claim_it=standing(last).state.finished)
    add_table(group, table)
    return table


# -- a match as the group sees it ---------------------------------------------------------
@dataclass
class Match:
    """One table of the group, replayed: who played (as the group counts
    them, see :func:`counted_names`), who won, what each did."""

    table: GameTable
    standing: Standing
    season: int
    players: list[str]
    computers: set[str]
    winners: list[str]
    totals: dict[str, int]
    reentries: dict[str, int]
    #: Every active hand's points per player, with whether they closed it.
    hand_points: dict[str, list[tuple[int, bool]]]
    minus_tens: dict[str, int]
    chinchones: dict[str, int]
    stake_cents: int

    @property
    def finished(self) -> bool:
        return self.standing.state.finished

    @property
    def played_at(self) -> datetime:
        return self.table.created_at

    @property
    def pot_cents(self) -> int:
        return sum(self.paid_cents().values())

    def paid_cents(self) -> dict[str, int]:
        """Each player's stake at the start and at every re-entry."""
        return {p: self.stake_cents * (1 + self.reentries[p]) for p in self.players}

    @property
    def for_money(self) -> bool:
        """Counted in the ledger: a finished match with a stake and no computer seats."""
        return self.finished and self.stake_cents > 0 and not self.computers

    def net_cents(self) -> dict[str, int]:
        """What each player won or lost in this match (sums to zero)."""
        shares = split_pot(self.pot_cents, self.winners)
        return {p: shares.get(p, 0) - paid for p, paid in self.paid_cents().items()}


def replay(group: Group, table: GameTable, known: Mapping[str, str] | None = None) -> Match:
    current = standing(table)
    state = current.state
    rules = state.rules
    raw = table.names
    names = counted_names(identities(group) if known is None else known, raw)
    as_counted = dict(zip(raw, names, strict=True))
    hand_points: dict[str, list[tuple[int, bool]]] = {n: [] for n in names}
    minus_tens = dict.fromkeys(names, 0)
    chinchones = dict.fromkeys(names, 0)
    for row in current.rows:
        hand = row.hand
        closer = names[hand.closer_seat]
        for seat, points in row.points.items():
            hand_points[names[seat]].append((points, seat == hand.closer_seat))
        if row.mark is Mark.CHINCHON:
            chinchones[closer] += 1
        elif row.mark is Mark.ALL_COMBINED:
            minus_tens[closer] += 1
    return Match(
        table=table,
        standing=current,
        season=season_of(group, table.created_at),
        players=names,
        computers={names[p.seat] for p in table.players if p.kind.computer},
        winners=[as_counted[w] for w in state.winners],
        totals={as_counted[n]: v for n, v in state.totals.items()},
        reentries={as_counted[n]: v for n, v in state.reentries.items()},
        hand_points=hand_points,
        minus_tens=minus_tens,
        chinchones=chinchones,
        stake_cents=to_cents(rules.stake),
    )


def matches(group: Group) -> list[Match]:
    """Every table of the group, oldest first."""
    known = identities(group)
    return [replay(group, t, known) for t in group.tables]


# -- standings -------------------------------------------------------------------------------
@dataclass
class Line:
    """One player's season: every figure the group page shows."""

    name: str
    member: bool
    played: int = 0
    won: int = 0
    total_sum: int = 0
    closed: int = 0
    minus_tens: int = 0
    chinchones: int = 0
    reentries: int = 0
    points: list[tuple[int, bool]] = field(default_factory=list)

    @property
    def win_share(self) -> Decimal | None:
        """Won / played, as a fraction (None before the first finished match)."""
        return Decimal(self.won) / self.played if self.played else None

    @property
    def average_total(self) -> Decimal | None:
        """The mean final total over finished matches, to one decimal."""
        if not self.played:
            return None
        return (Decimal(self.total_sum) / self.played).quantize(Decimal("0.1"))


def standings(group: Group, season_matches: Sequence[Match]) -> list[Line]:
    """The season's finished matches per player: members, then guests (anyone
    else who played); each best first by wins, win share, lower average."""
    lines: dict[str, Line] = {m.key: Line(m.name, True) for m in group.members}
    for match in season_matches:
        if not match.finished:
            continue
        for name in match.players:
            line = lines.setdefault(name_key(name), Line(name, False))
            line.played += 1
            line.won += name in match.winners
            line.total_sum += match.totals[name]
            line.closed += sum(1 for _p, closed in match.hand_points[name] if closed)
            line.minus_tens += match.minus_tens[name]
            line.chinchones += match.chinchones[name]
            line.reentries += match.reentries[name]
            line.points.extend(match.hand_points[name])
    order = list(lines.values())
    return sorted(
        order,
        key=lambda ln: (
            not ln.member,
            -ln.won,
            -(ln.win_share or 0),
            ln.average_total if ln.average_total is not None else Decimal("Infinity"),
        ),
    )


# -- money ------------------------------------------------------------------------------------
@dataclass
class Ledger:
    balances: dict[str, int]  # cents; positive = is owed money
    payments: list[tuple[str, str, int]]  # the fewest that settle everyone

    def amount(self, name: str) -> Decimal:
        return from_cents(self.balances[name])


def ledger(group: Group, all_matches: Sequence[Match]) -> Ledger:
    """Every finished match for money, in every season (debts outlive a season),
    minus the payments made and not undone."""
    known = identities(group)
    balances: dict[str, int] = {m.name: 0 for m in group.members}
    shown: dict[str, str] = {m.key: m.name for m in group.members}
    for match in all_matches:
        if not match.for_money:
            continue
        for name, cents in match.net_cents().items():
            who = shown.setdefault(name_key(name), name)
            balances[who] = balances.get(who, 0) + cents
    for payment in group.payments:
        if not payment.active:
            continue
        payer = shown.setdefault(name_key(known.get(name_key(payment.payer), payment.payer)), payment.payer)
        payee = shown.setdefault(name_key(known.get(name_key(payment.payee), payment.payee)), payment.payee)
        balances[payer] = balances.get(payer, 0) + payment.cents
        balances[payee] = balances.get(payee, 0) - payment.cents
    return Ledger(balances, fewest_payments(balances))


def payment_names(group: Group, payment: Payment) -> tuple[str, str]:
    """Who paid whom, under the names the group counts them by now."""
    known = identities(group)
    return known.get(name_key(payment.payer), payment.payer), known.get(name_key(payment.payee), payment.payee)


def people(group: Group) -> dict[str, str]:
    """Everybody a payment may name, by key, under the name the group counts
    them by: the members, whoever played at one of its tables, and whoever
    an earlier payment named."""
    known = identities(group)
    found = {m.key: m.name for m in group.members}
    raw = [n for t in group.tables for n in t.names] + [n for p in group.payments for n in (p.payer, p.payee)]
    for name in raw:
        shown = known.get(name_key(name), name)
        found.setdefault(name_key(shown), shown)
    return found


def payment_cents(group: Group, amount: Decimal) -> int:
    """An amount typed for a payment, in cents: above zero (``amount_low``),
    whole cents (``amount_cents``), at most :data:`MAX_PAYMENT` of the group's
    currency (``amount_high``)."""
    if not amount.is_finite() or amount <= 0:
        raise ServiceError("amount_low", "amount")
    if amount > MAX_PAYMENT:
        raise ServiceError("amount_high", "amount", high=MAX_PAYMENT, currency=group.currency)
    if int(amount.as_tuple().exponent) < -2:  # finite: the exponent is a number
        raise ServiceError("amount_cents", "amount")
    return to_cents(amount)


def record_payment(
    group: Group, payer: str, payee: str, cents: int, submission: str, *, recorded_by: str = "owner"
) -> Payment | None:
    """Store one payment (``payer`` handed ``cents`` to ``payee``) between two
    of the group's :func:`people`, under the names the group counts them by.
    A replayed form (same submission id) stores nothing and answers None.
    ``recorded_by`` is the link level that recorded it (owner or player).
    Refusals: ``incomplete`` (no submission id), ``payer_unknown``,
    ``payee_unknown``, ``same_person``, ``amount_low``, ``amount_high``."""
    if not submission:
        raise ServiceError("incomplete", "amount")
    if db.session.scalar(select(Payment.id).where(Payment.submission == submission)) is not None:
        return None
    everybody, known = people(group), identities(group)
    who_paid = everybody.get(name_key(known.get(name_key(payer), payer)))
    who_got = everybody.get(name_key(known.get(name_key(payee), payee)))
    if who_paid is None:
        raise ServiceError("payer_unknown", "payer")
    if who_got is None:
        raise ServiceError("payee_unknown", "payee")
    if who_got == who_paid:
        raise ServiceError("same_person", "payee")
    if cents <= 0:
        raise ServiceError("amount_low", "amount")
    if cents > to_cents(MAX_PAYMENT):
        raise ServiceError("amount_high", "amount", high=MAX_PAYMENT, currency=group.currency)
    payment = Payment(payer=who_paid, payee=who_got, cents=cents, submission=submission, recorded_by=recorded_by)
    group.payments.append(payment)
    touch(group)
    return payment


def undo_payment(group: Group, payment_id: int | None) -> bool:
    """Take a payment out of the ledger; it stays in the history with
    ``undone_at``.  True when undone now, False when it already was (a second
    tap, a second phone: one conditional UPDATE decides); ``no_payment`` when
    the group has no such payment."""
    payment = db.session.get(Payment, payment_id) if payment_id is not None else None
    if payment is None or payment.group_id != group.id:
        raise ServiceError("no_payment", "payment")
    result = db.session.execute(
        update(Payment)
        .where(Payment.id == payment.id, Payment.undone_at.is_(None))
        .values(undone_at=now())
        .execution_options(synchronize_session=False)
    )
    db.session.refresh(payment, ["undone_at"])
    if cast(CursorResult[Any], result).rowcount != 1:
        return False
    touch(group)
    return True
