"""A creation form sent again (Back, then Create) makes nothing new: the
table, tournament or group stores the form's one-time submission id, and
the same id answers the row it made (services/unit.py ``check_new_creation``,
``add_created``)."""

from __future__ import annotations

import threading
import uuid

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from companion.extensions import db
from companion.models import GameTable, Group, Tournament
from companion.rules import ChinchonError
from companion.services import groups as group_service
from companion.services import tables as table_service
from companion.services import tournaments as tournament_service
from companion.services import unit
from companion.services.unit import AlreadySaved, transaction


def new_table(submission=None, names=("Ana", "Ben")) -> GameTable:
    return table_service.create_table(
        name="Friday",
        preset="classic",
        overrides={},
        players=list(names),
        first_dealer=0,
        suit_style="spanish",
        submission=submission,
    )


def new_tournament(submission=None, names=("Ana", "Ben", "Carla", "Dani")) -> Tournament:
    return tournament_service.create_tournament(
        name="Copa",
        players=list(names),
        preset="classic",
        overrides={},
        settings=tournament_service.Settings(),
        submission=submission,
    )


def new_group(submission=None, names=("Ana", "Ben")) -> Group:
    return group_service.create_group(
        name="Thursday", members=list(names), preset="classic", overrides={}, currency="EUR", submission=submission
    )


MAKERS = {GameTable: new_table, Tournament: new_tournament, Group: new_group}
KINDS = pytest.mark.parametrize("model", list(MAKERS), ids=lambda m: m.__tablename__)


def make(model, submission=None, **kwargs) -> str:
    with transaction():
        return MAKERS[model](submission, **kwargs).owner_token


def count(model) -> int:
    return db.session.scalar(select(func.count()).select_from(model))


def stored(model) -> list[str | None]:
    """The submission ids stored, as another connection sees them (committed)."""
    with Session(db.engine) as other:
        return list(other.scalars(select(model.submission).order_by(model.id)))


@KINDS
def test_the_same_form_sent_twice_makes_one_row_and_answers_it(app, model):
    submission = uuid.uuid4().hex
    first = make(model, submission)
    with pytest.raises(AlreadySaved) as replayed, transaction():
        MAKERS[model](submission)
    assert replayed.value.made == replayed.value.made_link() == first
    assert count(model) == 1 and stored(model) == [submission]


@KINDS
def test_two_forms_make_two_rows(app, model):
    ids = [uuid.uuid4().hex, uuid.uuid4().hex]
    tokens = [make(model, s) for s in ids]
    assert len(set(tokens)) == 2 and count(model) == 2 and stored(model) == ids


@KINDS
def test_rows_made_without_a_form_never_collide(app, model):
    """The API, the CLI, a rematch, a tournament's own tables: no id, NULL, any number of them."""
    tokens = {make(model) for _ in range(5)}
    assert len(tokens) == 5 and stored(model) == [None] * 5


@KINDS
@pytest.mark.parametrize(
    "garbled",
    ["", "0" * 31, "0" * 33, "a" * 40, "A" * 32, "deal-7", "g" * 32, "0123456789abcdef0123456789abcde\n"],
    ids=["empty", "short", "long", "too-long", "upper", "server-made", "not-hex", "newline"],
)
def test_an_id_the_pages_never_make_matches_nothing(app, model, garbled):
    """Empty, too long or not hex: no id at all, a fresh creation each time, stored as NULL."""
    tokens = {make(model, garbled) for _ in range(2)}
    assert len(tokens) == 2 and stored(model) == [None, None]


@KINDS
def test_a_refused_creation_stores_nothing_and_keeps_the_id_free(app, model):
    submission = uuid.uuid4().hex
    with pytest.raises(ChinchonError) as refused, transaction():
        MAKERS[model](submission, names=("Ana", "Ben", "Carla", "ana"))
    assert refused.value.params["key"] == "name_twice"
    assert count(model) == 0
    token = make(model, submission)  # the form put right and sent: made once
    assert stored(model) == [submission] and token


@KINDS
def test_a_twin_sent_at_the_same_moment_is_answered_with_the_row_that_won(app, model, monkeypatch):
    """The twin commits between this write's look-up and its insert: the unique
    index refuses the insert, nothing of this write is stored, and the
    twin's row is read once this write is rolled back."""
    submission = uuid.uuid4().hex
    check = unit.check_new_creation
    twin: list[str] = []

    def check_then_lose_the_race(kind, sent):
        check(kind, sent)  # nothing stored yet
        monkeypatch.undo()
        with app.app_context():  # another request: its own session and connection
            twin.append(make(model, sent))
            db.session.remove()

    module = {GameTable: table_service, Tournament: tournament_service, Group: group_service}[model]
    monkeypatch.setattr(module, "check_new_creation", check_then_lose_the_race)
    with pytest.raises(AlreadySaved) as lost, transaction():
        MAKERS[model](submission)
    assert lost.value.made is None  # unseen before the rollback
    assert lost.value.made_link() == twin[0]
    assert count(model) == 1 and stored(model) == [submission]


def test_an_insert_refused_for_another_reason_is_not_taken_for_a_twin(app):
    """Only a row holding the same id answers a refused insert; anything else is the error it was."""
    taken = make(GameTable)
    clash = GameTable(
        player_token="p", owner_token=taken, watch_token="w", preset="classic", submission=uuid.uuid4().hex
    )
    with pytest.raises(AlreadySaved) as refused, transaction():
        unit.add_created(clash)
    with pytest.raises(IntegrityError):
        refused.value.made_link()
    assert count(GameTable) == 1


@pytest.mark.parametrize("model", [Group, Tournament], ids=["groups", "tournaments"])
def test_four_twins_racing_make_one_row_and_all_answer_it(app, model):
    """Threads, each with its own session and connection, send one form at once."""
    submission = uuid.uuid4().hex
    barrier = threading.Barrier(4)
    answers: list[tuple[str, str | None]] = []

    def send() -> None:
        with app.app_context():
            barrier.wait()
            try:
                answers.append(("made", make(model, submission)))
            except AlreadySaved as saved:
                answers.append(("replayed", saved.made_link()))
            finally:
                db.session.remove()

    threads = [threading.Thread(target=send) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(kind for kind, _token in answers) == ["made", "replayed", "replayed", "replayed"]
    assert len({token for _kind, token in answers}) == 1
    assert count(model) == 1 and stored(model) == [submission]
