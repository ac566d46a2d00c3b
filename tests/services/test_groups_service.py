"""Every group write through ``companion.services.groups``, without HTTP: each
one inside the unit of work, each refusal leaving every row as it was."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from sqlalchemy import select

from companion.extensions import db
from companion.models import GameTable, Group, GroupMember, Payment, Season
from companion.rules import ChinchonError
from companion.services import groups as service
from companion.services.hands import HandInput, store_hand
from companion.services.play import Pace, create_digital_table
from companion.services.rematch import rematch
from companion.services.tables import create_table
from companion.services.unit import ServiceError, transaction

MEMBERS = ["Ana", "Ben", "Carla", "Dani"]


def new_group(members=MEMBERS, stake="0.50", currency="EUR") -> Group:
    with transaction():
        return service.create_group(
            name="Friday", members=members, preset="classic", overrides={"stake": stake}, currency=currency
        )


def new_table(group: Group | None, names, **overrides) -> GameTable:
    with transaction():
        table = create_table(
            name="",
            preset="classic",
            overrides={"stake": "0.50", **overrides},
            players=names,
            first_dealer=0,
            suit_style="spanish",
        )
        db.session.flush()
        service.join(table, group)
    return table


def hand(table: GameTable, closer: int, points: dict[int, int]) -> None:
    with transaction():
        store_hand(table, table.version, uuid.uuid4().hex, HandInput(closer=closer, mode="points", points=points))


def finished_pair(group: Group, first: str, second: str) -> GameTable:
    """A two-player match the first player wins: the second goes out over 100."""
    table = new_table(group, [first, second])
    hand(table, 0, {0: 1, 1: 60})
    hand(table, 0, {0: 1, 1: 50})
    return table


def record(group: Group) -> dict:
    """Every row a group write may touch, as plain values."""
    db.session.expire_all()
    return {
        "groups": [(g.id, g.name, g.preset, g.overrides, g.currency) for g in db.session.scalars(select(Group))],
        "members": [
            (m.id, m.group_id, m.position, m.name, m.key, list(m.aliases))
            for m in db.session.scalars(select(GroupMember).order_by(GroupMember.id))
        ],
        "seasons": [(s.group_id, s.number) for s in db.session.scalars(select(Season).order_by(Season.id))],
        "payments": [
            (p.id, p.payer, p.payee, p.cents, p.recorded_by, p.undone_at)
            for p in db.session.scalars(select(Payment).order_by(Payment.id))
        ],
        "tables": [
            (t.id, t.group_id, t.version, t.names) for t in db.session.scalars(select(GameTable).order_by(GameTable.id))
        ],
    }


def refused(call, key: str, group: Group) -> ServiceError:
    """``call`` inside the unit of work is refused with ``key`` and stores nothing."""
    before = record(group)
    with pytest.raises(ServiceError) as caught, transaction():
        call()
    assert caught.value.params["key"] == key
    assert record(group) == before
    return caught.value


def update(group: Group, members, **changes) -> None:
    settings = dict(name=group.name, preset=group.preset, overrides=dict(group.overrides), currency=group.currency)
    with transaction():
        service.update_group(group, members=members, **(settings | changes))


def rows(group: Group) -> list[tuple[int, str]]:
    return [(m.id, m.name) for m in group.members]


def line(group: Group, name: str):
    lines = service.standings(group, service.matches(group))
    return next(ln for ln in lines if ln.name == name)


# -- members: the same names as a table's players ---------------------------------------------------
@pytest.mark.parametrize(
    "members,key",
    [
        (["Ana", "ana"], "name_twice"),
        (["\u00c1NA", "Ben", "a\u0301na"], "name_twice"),
        (["Ana"], "members_few"),
        (["Ana", "B" * 41], "name_long"),
        (["Ana", "\u200b"], "name_missing"),
        ([f"P{i}" for i in range(25)], "members_many"),
    ],
)
def test_a_group_refuses_member_lists_a_table_refuses(app, members, key):
    with pytest.raises(ServiceError) as caught, transaction():
        service.create_group(name="Friday", members=members, preset="classic", overrides={}, currency="EUR")
    assert caught.value.params["key"] == key
    assert db.session.scalar(select(Group.id)) is None


def test_a_group_refuses_an_unknown_currency_and_bad_rules(app):
    with pytest.raises(ServiceError, match="currency"), transaction():
        service.create_group(name="F", members=MEMBERS, preset="classic", overrides={}, currency="XXX")
    with pytest.raises(ChinchonError, match="target"), transaction():
        service.create_group(name="F", members=MEMBERS, preset="classic", overrides={"target": 0}, currency="EUR")
    assert db.session.scalar(select(Group.id)) is None


def test_members_are_stored_normalised_like_table_players(app):
    group = new_group(["  Jose\u0301\u200b  María ", "Ben"])
    table = new_table(group, ["  Jose\u0301\u200b  María ", "Ben"])
    assert group.names == table.names == ["José María", "Ben"]


# -- renaming: one person, every name they had ----------------------------------------------------------
def test_renaming_a_member_keeps_the_row_and_counts_old_tables_under_the_new_name(app):
    group = new_group(["Guillermo", "Ana"])
    finished_pair(group, "Guillermo", "Ana")
    with transaction():
        service.record_payment(group, "Ana", "Guillermo", 30, "p1")
    member_id = group.members[0].id
    update(group, [(member_id, "Guille"), (group.members[1].id, "Ana")])
    assert rows(group) == [(member_id, "Guille"), (group.members[1].id, "Ana")]
    assert group.members[0].aliases == ["Guillermo"]
    lines = service.standings(group, service.matches(group))
    assert [(ln.name, ln.member, ln.played, ln.won) for ln in lines] == [("Guille", True, 1, 1), ("Ana", True, 1, 0)]
    book = service.ledger(group, service.matches(group))
    assert book.balances == {"Guille": 50 - 30, "Ana": -50 + 30}  # the pot of 1.00, minus the payment
    # A new table under the new name is the same person.
    finished_pair(group, "Guille", "Ana")
    assert (line(group, "Guille").played, line(group, "Guille").won) == (2, 2)
    assert service.matches(group)[0].players == ["Guille", "Ana"]


def test_renaming_back_keeps_every_earlier_name_once(app):
    group = new_group(["Guillermo", "Ana"])
    finished_pair(group, "Guillermo", "Ana")
    ids = [m.id for m in group.members]
    update(group, [(ids[0], "Guille"), (ids[1], "Ana")])
    finished_pair(group, "Guille", "Ana")
    update(group, [(ids[0], "guillermo"), (ids[1], "Ana")])
    assert rows(group)[0] == (ids[0], "guillermo") and group.members[0].aliases == ["Guille"]
    assert line(group, "guillermo").played == 2
    update(group, [(ids[0], "Guillermo"), (ids[1], "Ana")])  # the same key: no alias for a change of case
    assert group.members[0].aliases == ["Guille"]


def test_a_new_member_under_another_members_earlier_name_is_refused(app):
    group = new_group(["Guillermo", "Ana"])
    ids = [m.id for m in group.members]
    update(group, [(ids[0], "Guille"), (ids[1], "Ana")])
    error = refused(
        lambda: service.update_group(
            group,
            name="Friday",
            members=[(ids[0], "Guille"), (ids[1], "Ana"), (None, "GUILLERMO")],
            preset="classic",
            overrides={},
            currency="EUR",
        ),
        "name_alias",
        group,
    )
    assert error.params["member"] == "Guille"
    # Nor may another member take the name somebody is leaving in the same change.
    refused(
        lambda: service.update_group(
            group,
            name="Friday",
            members=[(ids[0], "Guillo"), (ids[1], "Guille")],
            preset="classic",
            overrides={},
            currency="EUR",
        ),
        "name_alias",
        group,
    )


def test_settings_refusals_change_nothing(app):
    group = new_group()
    ids = [m.id for m in group.members]
    settings = dict(name="Other", preset="fournier", overrides={}, currency="SEK")
    kept = [(i, n) for i, n in zip(ids, MEMBERS, strict=True)]
    refused(lambda: service.update_group(group, members=[*kept, (None, "ana")], **settings), "name_twice", group)
    refused(
        lambda: service.update_group(group, members=[(ids[0], "Carla"), *kept[1:]], **settings), "name_twice", group
    )
    refused(lambda: service.update_group(group, members=[*kept, (999, "Eva")], **settings), "unknown_member", group)
    twice = [kept[0], (ids[0], "Zed"), *kept[1:]]
    refused(lambda: service.update_group(group, members=twice, **settings), "unknown_member", group)
    refused(lambda: service.update_group(group, members=kept[:1], **settings), "members_few", group)


def test_members_removed_added_reordered_and_one_coming_back_in_the_same_change(app):
    group = new_group()
    ana, ben, carla, dani = (m.id for m in group.members)
    # Carla is renamed, Dani removed, Ben's field cleared but "ben" typed among the new names: Ben's row.
    update(group, [(carla, "Carlita"), (ana, "Ana"), (None, "Eva"), (None, "ben")])
    assert [n for _i, n in rows(group)] == ["Carlita", "Ana", "Eva", "ben"]
    assert [i for i, _n in rows(group)][:2] == [carla, ana] and rows(group)[3][0] == ben
    assert dani not in [i for i, _n in rows(group)]
    # Eva removed and Ben renamed "Eva" in one change: the keys make way (one unique key per group).
    update(group, [(ana, "Ana"), (ben, "Eva"), (carla, "Carlita")])
    assert rows(group) == [(ana, "Ana"), (ben, "Eva"), (carla, "Carlita")]
    assert [m.key for m in group.members] == ["ana", "eva", "carlita"]


def test_two_seats_never_become_one_person():
    known = {"guille": "Guille", "guillermo": "Guille", "ana": "Ana"}
    assert service.counted_names(known, ["Guillermo", "Ana", "Zoe"]) == ["Guille", "Ana", "Zoe"]
    # Both names of one member at one table: the current name is the member.
    assert service.counted_names(known, ["Guillermo", "Guille"]) == ["Guillermo", "Guille"]
    assert service.counted_names(known, ["guille", "Guillermo"]) == ["Guille", "Guillermo"]


# -- seasons ------------------------------------------------------------------------------------------
def test_a_season_without_matches_is_never_left_behind(app):
    group = new_group()
    refused(lambda: service.start_season(group, 1), "season_empty", group)
    new_table(group, ["Ana", "Ben"])
    with transaction():
        season = service.start_season(group, 1)
    assert season.number == 2 and [s.number for s in group.seasons] == [1, 2]
    # The same form again: one season only, and the new one is empty anyway.
    refused(lambda: service.start_season(group, 1), "season_started", group)
    refused(lambda: service.start_season(group, 2), "season_empty", group)
    assert [len(service.season_tables(group, n)) for n in (1, 2)] == [1, 0]


# -- tables in the group ------------------------------------------------------------------------------
def test_a_table_joins_by_its_owner_link_only_and_once(app):
    group = new_group()
    other = new_group()
    table = new_table(None, ["Ana", "Ben"])
    refused(lambda: service.add_table_by_link(group, f"https://x/t/{table.player_token}"), "not_owner_link", group)
    refused(lambda: service.add_table_by_link(group, "no link at all"), "not_owner_link", group)
    with transaction():
        assert service.add_table_by_link(group, f" https://example.org/t/{table.owner_token}/settings?x=1 ") is True
    assert table.group_id == group.id
    with transaction():
        assert service.add_table_by_link(group, table.owner_token) is False
    refused(lambda: service.add_table_by_link(other, table.owner_token), "other_group", group)
    assert table.group_id == group.id


def test_play_again_keeps_group_rules_stake_and_players_and_moves_the_dealer_once(app):
    group = new_group()
    last = new_table(group, ["Ana", "Ben", "Carla"], target=70)
    hand(last, 1, {0: 10, 1: 1, 2: 20})  # still going on: play again works all the same
    before = last.version
    with transaction():
        again = service.play_again(group, last.id)
    with transaction():
        twice = service.play_again(group, last.id)  # a double tap, a second phone: the same table
    assert twice.id == again.id and db.session.scalar(select(GameTable.id).order_by(GameTable.id.desc())) == again.id
    assert again.names == last.names and again.overrides == last.overrides and again.rules.stake == Decimal("0.50")
    assert (again.group_id, again.first_dealer, again.rules.target) == (group.id, 1, 70)
    assert last.version == before  # a match still going on is not touched
    # From the new table (not played yet): the dealer moves on from it, once.
    with transaction():
        third = service.play_again(group, again.id)
    assert third.first_dealer == 2


def test_play_again_after_a_finished_match_is_the_same_table_as_its_rematch(app):
    group = new_group()
    last = finished_pair(group, "Ana", "Ben")
    with transaction():
        again = service.play_again(group, None)  # no table named: the group's last
    with transaction():
        assert rematch(last, last.version).id == again.id  # the table's own rematch answers the same table
    assert again.group_id == group.id and again.first_dealer == 1


def test_play_again_uses_a_renamed_members_current_name(app):
    group = new_group(["Guillermo", "Ana"])
    last = new_table(group, ["Guillermo", "Ana", "Zoe"])
    update(group, [(group.members[0].id, "Guille"), (group.members[1].id, "Ana")])
    with transaction():
        again = service.play_again(group, last.id)
    assert again.names == ["Guille", "Ana", "Zoe"]


def test_play_again_keeps_a_digital_tables_computer_players(app):
    group = new_group()
    pace = Pace(seed=7, turns=12, seconds=600.0)
    with transaction():
        last = create_digital_table(
            name="Online",
            preset="classic",
            overrides={"target": 30},
            players=[("Ana", "human"), ("Robo", "good")],
            mode="hotseat",
            first_dealer=1,
            suit_style="french",
            hints=False,
            pace=pace,
        )
        service.join(last, group)
    with transaction():
        again = service.play_again(group, last.id, pace=pace)
    assert (again.kind, again.play_mode, again.suit_style, again.hints_allowed) == (
        "digital",
        "hotseat",
        "french",
        False,
    )
    assert [(p.name, p.kind) for p in again.players] == [("Ana", "human"), ("Robo", "good")]
    assert again.first_dealer == 0 and again.group_id == group.id and again.deals


def test_play_again_refuses_without_a_match_or_with_anothers(app):
    group = new_group()
    refused(lambda: service.play_again(group, None), "no_match", group)
    elsewhere = new_table(new_group(), ["Ana", "Ben"])
    refused(lambda: service.play_again(group, elsewhere.id), "no_match", group)


# -- payments -----------------------------------------------------------------------------------------
def test_a_payment_says_who_recorded_it_and_is_stored_once(app):
    group = new_group()
    with transaction():
        payment = service.record_payment(group, "ben", "Ana", 250, "s1", recorded_by="player")
    assert (payment.payer, payment.payee, payment.cents, payment.recorded_by) == ("Ben", "Ana", 250, "player")
    assert payment.created_at is not None and payment.undone_at is None
    before = record(group)
    with transaction():
        assert service.record_payment(group, "Ben", "Ana", 250, "s1") is None
    assert record(group) == before


@pytest.mark.parametrize(
    "payer,payee,cents,submission,key",
    [
        ("Zoe", "Ana", 100, "s", "payer_unknown"),
        ("Ana", "Zoe", 100, "s", "payee_unknown"),
        ("Ana", "ANA", 100, "s", "same_person"),
        ("Ana", "Ben", 0, "s", "amount_low"),
        ("Ana", "Ben", 100_000_001, "s", "amount_high"),
        ("Ana", "Ben", 100, "", "incomplete"),
    ],
)
def test_a_refused_payment_stores_nothing(app, payer, payee, cents, submission, key):
    group = new_group()
    refused(lambda: service.record_payment(group, payer, payee, cents, submission), key, group)


def test_an_amount_names_the_limit_it_breaks(app):
    group = new_group(currency="UYU")
    assert service.payment_cents(group, Decimal("1000000")) == 100_000_000
    for amount, key in [("0", "amount_low"), ("-1", "amount_low"), ("1.005", "amount_cents"), ("1e400", "amount_high")]:
        with pytest.raises(ServiceError) as caught:
            service.payment_cents(group, Decimal(amount))
        assert caught.value.params["key"] == key
    assert caught.value.params["high"] == Decimal(1_000_000) and caught.value.params["currency"] == "UYU"


def test_a_guest_who_played_may_pay_and_be_paid(app):
    group = new_group()
    new_table(group, ["Ana", "Zoe"])
    with transaction():
        assert service.record_payment(group, "zoe", "Ana", 100, "s2").payer == "Zoe"


def test_undoing_a_payment_twice_undoes_it_once_and_keeps_it_in_the_history(app):
    group = new_group()
    finished_pair(group, "Ana", "Ben")
    with transaction():
        payment = service.record_payment(group, "Ben", "Ana", 50, "s3")
    assert service.ledger(group, service.matches(group)).balances["Ana"] == 0
    with transaction():
        assert service.undo_payment(group, payment.id) is True
    undone_at = payment.undone_at
    with transaction():
        assert service.undo_payment(group, payment.id) is False
    assert payment.undone_at == undone_at is not None
    assert db.session.scalar(select(Payment.id).where(Payment.id == payment.id)) == payment.id
    assert service.ledger(group, service.matches(group)).balances == {"Ana": 50, "Ben": -50, "Carla": 0, "Dani": 0}
    other = new_group()
    refused(lambda: service.undo_payment(other, payment.id), "no_payment", other)
    refused(lambda: service.undo_payment(group, None), "no_payment", group)


def test_a_payment_under_an_old_name_counts_for_the_renamed_member(app):
    group = new_group(["Guillermo", "Ana"])
    finished_pair(group, "Ana", "Guillermo")
    with transaction():
        payment = service.record_payment(group, "Guillermo", "Ana", 50, "s4")
    update(group, [(group.members[0].id, "Guille"), (group.members[1].id, "Ana")])
    assert service.ledger(group, service.matches(group)).balances == {"Guille": 0, "Ana": 0}
    assert service.payment_names(group, payment) == ("Guille", "Ana")
    with transaction():
        assert service.record_payment(group, "guillermo", "Ana", 10, "s5").payer == "Guille"


def test_the_docstring_examples_hold():
    import doctest

    from companion.services import ledger

    for module in (service, ledger):
        failures, tried = doctest.testmod(module)
        assert tried and not failures, module.__name__
