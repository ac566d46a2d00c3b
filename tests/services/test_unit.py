"""The unit of work (services/unit.py): a write is committed whole or rolled
back whole, a version is claimed once, a submission id is stored once."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from companion.extensions import db
from companion.models import Deal, GameTable, Hand, Reentry
from companion.services import hands as hand_service
from companion.services import reentries as reentry_service
from companion.services import tables as table_service
from companion.services.unit import (
    AlreadySaved,
    ServiceError,
    StaleError,
    check_new_submission,
    claim,
    new_token,
    transaction,
)


def make_table(names=("Ana", "Ben", "Carla")) -> GameTable:
    with transaction():
        table = table_service.create_table(
            name="Friday", preset="classic", overrides={}, players=list(names), first_dealer=0, suit_style="spanish"
        )
    return table


def points_hand(table: GameTable, submission: str, points: dict[int, int] | None = None) -> Hand:
    data = hand_service.HandInput(closer=0, mode="points", points=points or {0: -10, 1: 12, 2: 7})
    with transaction():
        return hand_service.store_hand(table, table.version, submission, data)


def count(model) -> int:
    return db.session.scalar(select(func.count()).select_from(model))


def committed(statement):
    """What another connection sees: only committed rows."""
    with Session(db.engine) as other:
        return other.scalar(statement)


# -- transaction() -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "error", [ServiceError("score"), StaleError(), AlreadySaved(), ValueError("bug"), KeyboardInterrupt()]
)
def test_any_exception_rolls_back_every_row_of_the_write(app, error):
    table = make_table()
    points_hand(table, "h1")
    version = table.version
    with pytest.raises(type(error)), transaction():
        table.name = "Changed"
        claim(table, version)
        table.hands[0].entries[0].points = 99
        table_service.create_table(
            name="Other", preset="classic", overrides={}, players=["X", "Y"], first_dealer=0, suit_style="spanish"
        )
        db.session.flush()  # written to the database, not yet committed
        raise error
    assert count(GameTable) == 1
    assert (table.name, table.version, table.hands[0].entries[0].points) == ("Friday", version, -10)
    assert committed(select(GameTable.version)) == version


def test_a_write_without_error_is_committed_whole(app):
    table = make_table()
    points_hand(table, "h1")
    assert committed(select(func.count()).select_from(Hand)) == 1
    assert committed(select(GameTable.version)) == 2


# -- claim() -------------------------------------------------------------------------------------
def test_claim_takes_the_next_version_and_touches_the_table(app):
    table = make_table()
    before = table.updated_at
    with transaction():
        claim(table, 1)
    assert table.version == 2 and table.updated_at >= before
    assert committed(select(GameTable.version)) == 2


@pytest.mark.parametrize("seen", [None, 0, -1, 2**31, 2**63, 3])
def test_claim_refuses_a_forged_or_future_version(app, seen):
    table = make_table()
    with pytest.raises(StaleError), transaction():
        claim(table, seen)
    assert committed(select(GameTable.version)) == 1


def test_claim_refuses_a_stale_version(app):
    table = make_table()
    points_hand(table, "h1")
    with pytest.raises(StaleError), transaction():
        claim(table, 1)
    assert committed(select(GameTable.version)) == 2


def test_the_same_version_is_claimed_once_in_one_write(app):
    table = make_table()
    with pytest.raises(StaleError), transaction():
        claim(table, 1)
        claim(table, 1)
    assert committed(select(GameTable.version)) == 1  # the first claim went with the rollback


def test_a_form_shown_before_another_write_is_stale(app):
    """Two phones show version 1; the second to save loses, nothing half-stored."""
    table = make_table()
    points_hand(table, "first")
    data = hand_service.HandInput(closer=1, mode="points", points={0: 3, 1: -10, 2: 20})
    with pytest.raises(StaleError), transaction():
        hand_service.store_hand(table, 1, "second", data)
    assert count(Hand) == 1 and table.version == 2


@pytest.mark.postgres
def test_two_writers_racing_for_one_version_one_wins(app):
    """Threads, each with its own session and connection, claim version 1 at
    once: exactly one commits (a row lock on PostgreSQL, the write lock on SQLite)."""
    table = make_table()
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def write(n: int) -> None:
        with app.app_context():
            mine = db.session.get(GameTable, table.id)
            barrier.wait()
            try:
                with transaction():
                    claim(mine, 1)
                    mine.name = f"writer {n}"
            except StaleError:
                outcomes.append("stale")
            else:
                outcomes.append("won")
            finally:
                db.session.remove()

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(outcomes) == ["stale", "stale", "stale", "won"]
    db.session.expire_all()
    assert table.version == 2 and table.name.startswith("writer ")


def test_a_deal_is_claimed_like_a_table(app):
    table = make_table(["Ana", "Ben"])
    deal = Deal(table_id=table.id, number=1, seats=[0, 1], state={})
    with transaction():
        db.session.add(deal)
    with transaction():
        claim(deal, 1)
    assert deal.version == 2
    with pytest.raises(StaleError), transaction():
        claim(deal, 1)
    assert committed(select(Deal.version)) == 2 and committed(select(GameTable.version)) == 1


# -- check_new_submission() --------------------------------------------------------------------------
def test_a_submission_id_is_stored_once_per_table(app):
    table = make_table()
    points_hand(table, "h1")
    with pytest.raises(AlreadySaved):
        check_new_submission(Hand, table, "h1")
    check_new_submission(Hand, table, "h2")
    check_new_submission(Reentry, table, "h1")  # hands and re-entries keep their own ids


def test_another_tables_submission_id_does_not_count(app):
    first, second = make_table(), make_table(["Dani", "Eva"])
    points_hand(first, "shared")
    check_new_submission(Hand, second, "shared")
    points_hand(second, "shared", {0: -10, 1: 5})
    assert count(Hand) == 2


def test_a_table_not_yet_written_has_seen_no_submission(app):
    points_hand(make_table(), "h1")
    fresh = GameTable(preset="classic")
    assert fresh.id is None
    check_new_submission(Hand, fresh, "h1")


def test_a_replayed_hand_or_reentry_stores_nothing(app):
    table = make_table(["Ana", "Ben", "Carla", "Dani"])
    points_hand(table, "h1", {0: -10, 1: 70, 2: 7, 3: 9})
    points_hand(table, "h2", {0: -10, 1: 50, 2: 7, 3: 9})  # Ben goes out and may buy back in
    with pytest.raises(AlreadySaved), transaction():
        hand_service.store_hand(
            table, table.version, "h1", hand_service.HandInput(closer=0, mode="points", points={0: 1, 1: 2, 2: 3, 3: 4})
        )
    with transaction():
        reentry_service.reenter(table, table.version, "r1", 1)
    with pytest.raises(AlreadySaved), transaction():
        reentry_service.reenter(table, table.version, "r1", 1)
    assert count(Hand) == 2 and count(Reentry) == 1 and table.version == 4


# -- the rest ------------------------------------------------------------------------------------------
def test_tokens_are_128_random_bits(app):
    tokens = {new_token() for _ in range(200)}
    assert len(tokens) == 200
    assert all(len(t) == 22 and t.replace("-", "").replace("_", "").isalnum() for t in tokens)


def test_a_service_error_moved_to_another_field_keeps_its_key_and_parameters():
    error = ServiceError("closer_points", "points[0]", value=7, possible=[1, 2])
    moved = error.at("points[2]")
    assert moved.field == "points[2]"
    assert moved.params == {"key": "closer_points", "value": 7, "possible": [1, 2]}
