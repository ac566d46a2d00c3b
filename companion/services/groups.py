"""What a group knows, all replayed from its tables with the rules engine:
the season's standings, the last matches, the ledger and the charts' data.

Shared by the group pages and by the table pages that start a match "in" a
group (``prefill`` and ``join``): a module, not a view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from sqlalchemy import or_, select

from ..extensions import db
from ..models import GameTable, Group, GroupMember, Payment, Season, now
from ..rules.names import name_key, normalize_name
from .ledger import fewest_payments, from_cents, split_pot, to_cents
from .scoreboard import Standing, standing
from .unit import new_token

#: Roles from least to most: each link allows what the ones before it do.
ROLES = ("watch", "member", "owner")
MAX_MEMBERS = 24


def rank(role: str | None) -> int:
    return ROLES.index(role) + 1 if role in ROLES else 0


# -- links ------------------------------------------------------------------------------
def find(token: str) -> tuple[Group, str] | None:
    """The group behind a link and what the link allows, or None."""
    if not token or len(token) > 40:
        return None
    group = db.session.scalar(
        select(Group).where(or_(Group.owner_token == token, Group.member_token == token, Group.watch_token == token))
    )
    if group is None:
        return None
    role = "owner" if token == group.owner_token else "member" if token == group.member_token else "watch"
    return group, role


def link_for(group: Group, role: str) -> str:
    return {"owner": group.owner_token, "member": group.member_token, "watch": group.watch_token}[role]


# -- creating and changing ---------------------------------------------------------------
def clean_members(raw: Sequence[str]) -> list[str]:
    """Member names normalised like table players, duplicates (same key) dropped."""
    seen: dict[str, str] = {}
    for item in raw:
        name = normalize_name(item)
        if name and name_key(name) not in seen:
            seen[name_key(name)] = name
    return list(seen.values())


def set_members(group: Group, names: Sequence[str]) -> None:
    """New members list; a member kept (same key) keeps its row, one left out is removed."""
    kept = {m.key: m for m in group.members}
    members = []
    for position, name in enumerate(names):
        member = kept.get(name_key(name)) or GroupMember(key=name_key(name))
        member.name, member.position = name[:40], position
        members.append(member)
    group.members = members


def create_group(*, name: str, members: Sequence[str], preset: str, overrides: dict, currency: str) -> Group:
    group = Group(
        owner_token=new_token(),
        member_token=new_token(),
        watch_token=new_token(),
        name=normalize_name(name)[:80],
        preset=preset,
        overrides=dict(overrides),
        currency=currency,
    )
    group.members = [
        GroupMember(position=i, name=n[:40], key=name_key(n)) for i, n in enumerate(clean_members(members))
    ]
    group.seasons = [Season(number=1, started_at=group.created_at or now())]
    db.session.add(group)
    db.session.flush()
    return group


def touch(group: Group) -> None:
    group.updated_at = now()


def start_season(group: Group) -> Season:
    season = Season(number=group.current_season.number + 1, started_at=now())
    group.seasons.append(season)
    touch(group)
    return season


def add_table(group: Group, table: GameTable) -> None:
    """A match belongs to at most one group: joining another is refused by the caller."""
    table.group_id = group.id
    touch(group)


# -- a match as the group sees it ---------------------------------------------------------
@dataclass
class Match:
    """One table of the group, replayed: who played, who won, what each did."""

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


def season_of(group: Group, when: datetime) -> int:
    """The season a match created at ``when`` belongs to (the first one for older tables)."""
    number = group.seasons[0].number
    for season in group.seasons:
        if season.started_at <= when:
            number = season.number
    return number


def replay(group: Group, table: GameTable) -> Match:
    current = standing(table)
    state = current.state
    rules = state.rules
    names = table.names
    hand_points: dict[str, list[tuple[int, bool]]] = {n: [] for n in names}
    minus_tens = dict.fromkeys(names, 0)
    chinchones = dict.fromkeys(names, 0)
    for row in current.rows:
        hand = row.hand
        closer = names[hand.closer_seat]
        for seat, points in row.points.items():
            hand_points[names[seat]].append((points, seat == hand.closer_seat))
        if hand.chinchon:
            chinchones[closer] += 1
        elif row.points.get(hand.closer_seat) == rules.all_combined_bonus:
            minus_tens[closer] += 1
    return Match(
        table=table,
        standing=current,
        season=season_of(group, table.created_at),
        players=list(names),
        computers={p.name for p in table.players if p.kind != "human"},
        winners=list(state.winners),
        totals=dict(state.totals),
        reentries=dict(state.reentries),
        hand_points=hand_points,
        minus_tens=minus_tens,
        chinchones=chinchones,
        stake_cents=to_cents(rules.stake),
    )


def matches(group: Group) -> list[Match]:
    """Every table of the group, oldest first."""
    return [replay(group, t) for t in group.tables]


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
    minus the payments already made."""
    balances: dict[str, int] = {}
    shown: dict[str, str] = {m.key: m.name for m in group.members}
    for m in group.members:
        balances[m.name] = 0
    for match in all_matches:
        if not match.for_money:
            continue
        for name, cents in match.net_cents().items():
            who = shown.setdefault(name_key(name), name)
            balances[who] = balances.get(who, 0) + cents
    for payment in group.payments:
        payer = shown.setdefault(name_key(payment.payer), payment.payer)
        payee = shown.setdefault(name_key(payment.payee), payment.payee)
        balances[payer] = balances.get(payer, 0) + payment.cents
        balances[payee] = balances.get(payee, 0) - payment.cents
    return Ledger(balances, fewest_payments(balances))


def record_payment(group: Group, payer: str, payee: str, cents: int, submission: str) -> Payment | None:
    """Store one payment; a replayed form (same submission id) stores nothing
    and answers None."""
    if db.session.scalar(select(Payment.id).where(Payment.submission == submission)) is not None:
        return None
    payment = Payment(payer=payer, payee=payee, cents=cents, submission=submission)
    group.payments.append(payment)
    touch(group)
    return payment


# -- tables started in a group -----------------------------------------------------------------
def join(table: GameTable, group: Group | None) -> None:
    if group is not None:
        add_table(group, table)


def usual_overrides(table: GameTable) -> dict:
    """A table's rules to play again: ``decks`` was fixed from the number of
    players when the table was made and is chosen afresh."""
    return {k: v for k, v in table.overrides.items() if k != "decks"}
