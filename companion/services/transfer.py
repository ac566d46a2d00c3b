"""Moving tables in and out: JSON export/import (lossless) and purging idle tables.

Exposed as ``flask export``, ``flask import`` and ``flask purge`` (companion/commands.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..models import (
    Deal,
    Entry,
    GameTable,
    Group,
    GroupMember,
    Hand,
    Payment,
    Player,
    PlayerKind,
    Reentry,
    Season,
    TableResult,
    Tournament,
    TournamentPlayer,
    TournamentRound,
    now,
)

FORMAT = 1
_TABLE_FIELDS = (
    "player_token",
    "owner_token",
    "watch_token",
    "name",
    "kind",
    "preset",
    "overrides",
    "suit_style",
    "first_dealer",
    "version",
)
#: Fields added later: an older export without them imports with the default.
_OPTIONAL_TABLE_FIELDS = {
    "play_mode": None,
    "entry_mode": "cards",
    "hints_allowed": True,
    "round_table": None,
    "hand_limit": None,
}
_HAND_FIELDS = (
    "number",
    "mode",
    "closer_seat",
    "dealer_seat",
    "first_round",
    "discard",
    "chinchon",
    "wins_match",
    "submission",
)
_ENTRY_FIELDS = ("seat", "cards", "melds", "layoffs", "deadwood", "points", "choice")


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _parse_time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _player_token(table_id: int | None) -> str | None:
    earlier = db.session.get(GameTable, table_id) if table_id is not None else None
    return earlier.player_token if earlier is not None else None


def export_table(table: GameTable) -> dict[str, Any]:
    by_id = {h.id: h.submission for h in table.hands}
    return {
        **{f: getattr(table, f) for f in _TABLE_FIELDS},
        **{f: getattr(table, f) for f in _OPTIONAL_TABLE_FIELDS},
        "created_at": _time(table.created_at),
        "updated_at": _time(table.updated_at),
        "closed_at": _time(table.closed_at),
        "rematch_of": _player_token(table.rematch_of_id),
        "players": [
            {"seat": p.seat, "name": p.name, "kind": p.kind, "seat_token": p.seat_token} for p in table.players
        ],
        "deals": [
            {
                "number": d.number,
                "seats": d.seats,
                "state": d.state,
                "version": d.version,
                "hand": by_id.get(d.hand_id) if d.hand_id is not None else None,
                "hints": d.hints,
                "dealt_by": d.dealt_by,
                "seed": d.seed,
                "commitment": d.commitment,
            }
            for d in db.session.scalars(select(Deal).where(Deal.table_id == table.id).order_by(Deal.id))
        ],
        "hands": [
            {
                **{f: getattr(h, f) for f in _HAND_FIELDS},
                "created_at": _time(h.created_at),
                "undone_at": _time(h.undone_at),
                "replaced_by": by_id.get(h.replaced_by_id) if h.replaced_by_id else None,
                "entries": [{f: getattr(e, f) for f in _ENTRY_FIELDS} for e in h.entries],
            }
            for h in table.hands
        ],
        "reentries": [
            {
                "after_hand": r.after_hand,
                "seat": r.seat,
                "submission": r.submission,
                "declined": r.declined,
                "decided_by": r.decided_by,
                "created_at": _time(r.created_at),
                "undone_at": _time(r.undone_at),
            }
            for r in table.reentries
        ],
    }


def import_table(data: dict[str, Any]) -> GameTable:
    table = GameTable(
        **{f: data[f] for f in _TABLE_FIELDS},
        **{f: data.get(f, default) for f, default in _OPTIONAL_TABLE_FIELDS.items()},
        created_at=_parse_time(data["created_at"]),
        updated_at=_parse_time(data["updated_at"]),
        closed_at=_parse_time(data.get("closed_at")),
    )
    if data.get("rematch_of"):
        earlier = db.session.scalar(select(GameTable).where(GameTable.player_token == data["rematch_of"]))
        table.rematch_of_id = earlier.id if earlier else None
    table.players = [
        Player(seat=p["seat"], name=p["name"], kind=p.get("kind", PlayerKind.HUMAN), seat_token=p.get("seat_token"))
        for p in data["players"]
    ]
    hands = {}
    for h in data["hands"]:
        hand = Hand(
            **{f: h[f] for f in _HAND_FIELDS},
            created_at=_parse_time(h["created_at"]),
            undone_at=_parse_time(h["undone_at"]),
        )
        hand.entries = [Entry(**{f: e[f] for f in _ENTRY_FIELDS}) for e in h["entries"]]
        table.hands.append(hand)
        hands[h["submission"]] = hand
    table.reentries = [
        Reentry(
            after_hand=r["after_hand"],
            seat=r["seat"],
            submission=r["submission"],
            declined=r.get("declined", False),
            decided_by=r.get("decided_by", ""),
            created_at=_parse_time(r["created_at"]),
            undone_at=_parse_time(r["undone_at"]),
        )
        for r in data["reentries"]
    ]
    db.session.add(table)
    db.session.flush()
    for h in data["hands"]:
        if h["replaced_by"]:
            hands[h["submission"]].replaced_by_id = hands[h["replaced_by"]].id
    for d in data.get("deals", []):
        hand_id = hands[d["hand"]].id if d.get("hand") else None
        db.session.add(
            Deal(
                table_id=table.id,
                number=d["number"],
                seats=d["seats"],
                state=d["state"],
                version=d["version"],
                hand_id=hand_id,
                hints=d.get("hints"),
                dealt_by=d.get("dealt_by", ""),
                seed=d.get("seed"),
                commitment=d.get("commitment"),
            )
        )
    return table


# -- groups ---------------------------------------------------------------------------------
_GROUP_FIELDS = ("owner_token", "member_token", "watch_token", "name", "preset", "overrides", "currency")


def export_group(group: Group) -> dict[str, Any]:
    """A group without its tables' contents: they are exported as tables and
    named here by their player link."""
    return {
        **{f: getattr(group, f) for f in _GROUP_FIELDS},
        "created_at": _time(group.created_at),
        "updated_at": _time(group.updated_at),
        "members": [
            {"position": m.position, "name": m.name, "key": m.key, "aliases": list(m.aliases or [])}
            for m in group.members
        ],
        "seasons": [{"number": s.number, "started_at": _time(s.started_at)} for s in group.seasons],
        "payments": [
            {
                "payer": p.payer,
                "payee": p.payee,
                "cents": p.cents,
                "submission": p.submission,
                "recorded_by": p.recorded_by,
                "created_at": _time(p.created_at),
                "undone_at": _time(p.undone_at),
            }
            for p in group.payments
        ],
        "tables": [t.player_token for t in group.tables],
    }


def import_group(data: dict[str, Any]) -> Group:
    """A group and the link to its tables (which must be imported first)."""
    group = Group(
        **{f: data[f] for f in _GROUP_FIELDS},
        created_at=_parse_time(data["created_at"]),
        updated_at=_parse_time(data["updated_at"]),
    )
    group.members = [
        GroupMember(position=m["position"], name=m["name"], key=m["key"], aliases=list(m.get("aliases", [])))
        for m in data["members"]
    ]
    group.seasons = [Season(number=s["number"], started_at=_parse_time(s["started_at"])) for s in data["seasons"]]
    group.payments = [
        Payment(
            payer=p["payer"],
            payee=p["payee"],
            cents=p["cents"],
            submission=p["submission"],
            recorded_by=p.get("recorded_by", "owner"),
            created_at=_parse_time(p["created_at"]),
            undone_at=_parse_time(p.get("undone_at")),
        )
        for p in data["payments"]
    ]
    db.session.add(group)
    db.session.flush()
    for token in data["tables"]:
        table = db.session.scalar(select(GameTable).where(GameTable.player_token == token))
        if table is not None and table.group_id is None:  # a match belongs to one group only
            table.group_id = group.id
    return group


# -- tournaments ----------------------------------------------------------------------------
_TOURNAMENT_FIELDS = (
    "owner_token",
    "player_token",
    "watch_token",
    "name",
    "preset",
    "overrides",
    "format",
    "advance",
    "rounds",
    "round_hands",
    "round_minutes",
    "scale",
    "reseat",
    "currency",
    "entry_cents",
    "prizes",
    "play",
    "bots",
    "duplicate",
    "seed",
    "version",
)
#: What an export made before a field existed means by its absence.
_TOURNAMENT_DEFAULTS = {"play": "cards", "bots": "", "duplicate": False}
_RESULT_FIELDS = ("kind", "places", "by", "reason", "version")


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """A tournament whole: its settings, players, every round (undone ones
    too) with its tables (as :func:`export_table` writes them) and
    everything said about each table's result."""
    group = db.session.get(Group, tournament.group_id) if tournament.group_id else None
    return {
        "format": FORMAT,
        "tournament": {
            **{f: getattr(tournament, f) for f in _TOURNAMENT_FIELDS},
            "created_at": _time(tournament.created_at),
            "updated_at": _time(tournament.updated_at),
            "group": group.owner_token if group else None,
            "players": [
                {"position": p.position, "name": p.name, "key": p.key, "withdrawn_after": p.withdrawn_after}
                for p in tournament.players
            ],
            "seated": [
                {
                    "number": r.number,
                    "seed": r.seed,
                    "deal_secret": r.deal_secret,
                    "started_at": _time(r.started_at),
                    "undone_at": _time(r.undone_at),
                    "tables": [
                        {
                            **export_table(t),
                            "results": [
                                {**{f: getattr(x, f) for f in _RESULT_FIELDS}, "created_at": _time(x.created_at)}
                                for x in t.results
                            ],
                        }
                        for t in r.tables
                    ],
                }
                for r in tournament.all_rounds
            ],
        },
    }


def import_tournament(data: dict[str, Any]) -> Tournament:
    """The tournament of :func:`export_tournament`, its tables with it."""
    source = data["tournament"]
    group = None
    if source.get("group"):
        group = db.session.scalar(select(Group).where(Group.owner_token == source["group"]))
    tournament = Tournament(
        **{f: source[f] if f in source else _TOURNAMENT_DEFAULTS[f] for f in _TOURNAMENT_FIELDS},
        created_at=_parse_time(source["created_at"]),
        updated_at=_parse_time(source["updated_at"]),
        group_id=group.id if group else None,
    )
    tournament.players = [
        TournamentPlayer(position=p["position"], name=p["name"], key=p["key"], withdrawn_after=p["withdrawn_after"])
        for p in source["players"]
    ]
    db.session.add(tournament)
    for r in source["seated"]:
        round_ = TournamentRound(
            number=r["number"],
            seed=r["seed"],
            deal_secret=r.get("deal_secret"),
            started_at=_parse_time(r["started_at"]),
            undone_at=_parse_time(r["undone_at"]),
        )
        tournament.all_rounds.append(round_)
        db.session.flush()
        for t in r["tables"]:
            table = import_table(t)
            table.round_id = round_.id
            table.group_id = tournament.group_id
            table.results = [
                TableResult(**{f: x[f] for f in _RESULT_FIELDS}, created_at=_parse_time(x["created_at"]))
                for x in t["results"]
            ]
    db.session.flush()
    return tournament


def export_bundle(groups: list[Group], tables: list[GameTable] | None = None) -> dict[str, Any]:
    """What ``flask export`` writes: the tables (the groups' own included) and the groups."""
    chosen = {t.id: t for t in tables or []}
    for group in groups:
        chosen.update({t.id: t for t in group.tables})
    ordered = [chosen[k] for k in sorted(chosen)]
    return {"format": FORMAT, "tables": [export_table(t) for t in ordered], "groups": [export_group(g) for g in groups]}


def import_bundle(data: dict[str, Any]) -> tuple[int, int, int, int]:
    """Tables then groups; those already here (by link) are skipped.
    Returns (tables added, tables skipped, groups added, groups skipped)."""
    added = skipped = groups_added = groups_skipped = 0
    for table in data["tables"]:
        if db.session.scalar(select(GameTable.id).where(GameTable.player_token == table["player_token"])):
            skipped += 1
            continue
        import_table(table)
        added += 1
    db.session.flush()
    for group in data.get("groups", []):
        if db.session.scalar(select(Group.id).where(Group.owner_token == group["owner_token"])):
            groups_skipped += 1
            continue
        import_group(group)
        groups_added += 1
    return added, skipped, groups_added, groups_skipped


def last_activity(group: Group) -> datetime:
    """The group's own changes or any of its tables', whichever is later."""
    return max([group.updated_at, *(t.updated_at for t in group.tables)])


def purge(older_than: timedelta, dry_run: bool = False) -> int:
    """Remove tables idle that long, except those of a group with recent
    activity; idle groups go too.  Returns the number of tables."""
    cutoff = now() - older_than
    kept_groups = {g.id for g in db.session.scalars(select(Group)) if last_activity(g) >= cutoff}
    idle = [
        t
        for t in db.session.scalars(select(GameTable).where(GameTable.updated_at < cutoff))
        if t.group_id is None or t.group_id not in kept_groups
    ]
    if not dry_run:
        for table in idle:
            db.session.delete(table)
        for group in db.session.scalars(select(Group).where(Group.id.not_in(kept_groups))):
            db.session.delete(group)
    return len(idle)


def idle_groups(older_than: timedelta) -> int:
    cutoff = now() - older_than
    return sum(1 for g in db.session.scalars(select(Group)) if last_activity(g) < cutoff)
