"""``flask backup`` and ``flask restore`` (#37): a copy written while phones
save hands holds every hand acknowledged before it began, as one moment of
the record, and restoring it mid-evening brings exactly that back."""

from __future__ import annotations

import re
import threading
import time

from sqlalchemy import select

from companion.extensions import db
from companion.models import GameTable, Hand

from .helpers import create_table, enter_points, hand_form, table_of, totals

PLAYERS = ["Ana", "Ben", "Carla"]


def _record(app) -> dict[str, list[tuple[int, dict[int, int]]]]:
    """Each table's hands (number, seat → points), from the database."""
    with app.app_context():
        tables = {t.id: t.owner_token for t in db.session.scalars(select(GameTable))}
        record: dict[str, list[tuple[int, dict[int, int]]]] = {token: [] for token in tables.values()}
        for hand in db.session.scalars(select(Hand).order_by(Hand.table_id, Hand.number)):
            record[tables[hand.table_id]].append((hand.number, {e.seat: e.points for e in hand.entries}))
        db.session.remove()
        return record


class Phone(threading.Thread):
    """A phone saving one hand after another at its table; each hand the
    server acknowledged (303) is noted with the moment it was."""

    def __init__(self, app, token: str) -> None:
        super().__init__(daemon=True)
        self.client = app.test_client()
        self.token = token
        self.acknowledged: list[tuple[float, float, int, dict[int, int]]] = []  # sent, answered, hand
        self.stop = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            number = 1
            while not self.stop.is_set() and number <= 24:  # nobody reaches 100
                points = {seat: 1 + (number + seat) % 4 for seat in range(3)}  # a closer's 1 to 4
                data = hand_form(self.client, self.token)
                data.update({"closer": str(number % 3), "mode": "points", "action": "save"})
                data.update({f"p{seat}": str(p) for seat, p in points.items()})
                sent = time.monotonic()
                response = self.client.post(f"/t/{self.token}/hands/new", data=data)
                if response.status_code != 303:
                    html = response.get_data(as_text=True)
                    text = " ".join(re.findall(r"class=\"[^\"]*(?:error|flash)[^\"]*\"[^>]*>([^<]*)", html))
                    raise AssertionError(response.status_code, re.sub(r"\s+", " ", text)[:400])
                self.acknowledged.append((sent, time.monotonic(), number, points))
                number += 1
        except BaseException as error:
            self.error = error


def test_a_copy_taken_mid_evening_restores_every_acknowledged_hand(app, client, tmp_path):
    tokens = [create_table(client, [f"{name} {n}" for name in PLAYERS]) for n in range(3)]
    phones = [Phone(app, token) for token in tokens]
    for phone in phones:
        phone.start()
    while sum(len(p.acknowledged) for p in phones) < 9 and all(p.is_alive() for p in phones):
        time.sleep(0.01)
    assert all(p.error is None for p in phones), [p.error for p in phones]
    copy = tmp_path / "evening.backup"
    began = time.monotonic()
    result = app.test_cli_runner().invoke(args=["backup", str(copy)])
    ended = time.monotonic()
    while not all(p.acknowledged[-1][0] > ended for p in phones) and all(p.is_alive() for p in phones):
        time.sleep(0.01)  # the phones go on saving after the copy
    for phone in phones:
        phone.stop.set()
        phone.join()
        assert phone.error is None, phone.error
    assert result.exit_code == 0, result.output
    copied = _record(app)  # not yet: the record has moved on since
    written = re.fullmatch(r"wrote (.+) \((\w+), [\d.]+ [KM]B\): 3 table\(s\), (\d+) hand\(s\)\n", result.output)
    assert written and written.group(1) == str(copy), result.output

    form = hand_form(client, tokens[0])  # a phone's form from before the restore
    later = sum(len(p.acknowledged) for p in phones)
    seen = {token: table_of(app, token).version for token in tokens}
    result = app.test_cli_runner().invoke(args=["restore", str(copy), "--yes"])
    assert result.exit_code == 0, result.output
    restored = _record(app)
    assert all(table_of(app, token).version > seen[token] for token in tokens)  # no phone's view is current
    assert f"restored {copy}: 3 table(s), {written.group(3)} hand(s)" in result.output
    assert 9 <= sum(len(hands) for hands in restored.values()) == int(written.group(3)) < later
    for phone in phones:
        kept = restored[phone.token]
        before = [(n, points) for _, answered, n, points in phone.acknowledged if answered < began]
        after = [(n, points) for sent, _, n, points in phone.acknowledged if sent > ended]
        assert kept[: len(before)] == before  # every hand acknowledged before the copy began
        assert [n for n, _ in kept] == list(range(1, len(kept) + 1))  # one moment: no gap
        assert kept == copied[phone.token][: len(kept)]  # each as it was stored
        assert after and not {n for n, _ in after} & {n for n, _ in kept}  # nothing sent after it ended
        assert totals(client, phone.token) == [sum(points[s] for _, points in kept) for s in range(3)]

    # A form from before the restore is stale; a fresh one saves the next hand.
    form.update({"closer": "0", "mode": "points", "p0": "1", "p1": "4", "p2": "5", "action": "save"})
    stale = client.post(f"/t/{tokens[0]}/hands/new", data=form)
    assert stale.status_code == 409
    assert len(_record(app)[tokens[0]]) == len(restored[tokens[0]])
    enter_points(client, tokens[0], 0, {0: 1, 1: 4, 2: 5})
    assert _record(app)[tokens[0]][-1] == (len(restored[tokens[0]]) + 1, {0: 1, 1: 4, 2: 5})


def test_restore_asks_first_and_refuses_what_is_not_a_copy(app, client, tmp_path):
    token = create_table(client, PLAYERS)
    enter_points(client, token, 0, {0: 1, 1: 7, 2: 9})
    copies = tmp_path / "copies"
    copies.mkdir()
    copy = copies / "one.backup"
    assert app.test_cli_runner().invoke(args=["backup", str(copy)]).exit_code == 0
    enter_points(client, token, 1, {0: 3, 1: 2, 2: 2})

    runner = app.test_cli_runner()
    said_no = runner.invoke(args=["restore", str(copy)], input="n\n")
    assert said_no.exit_code == 1 and "Replace the whole record (1 table(s), 2 hand(s))" in said_no.output
    assert "Aborted" in said_no.output and totals(client, token) == [4, 9, 11]

    other = copies / "notes.txt"
    other.write_text("not a copy\n")
    refused = runner.invoke(args=["restore", str(other), "--yes"])
    assert refused.exit_code == 1 and "is not a copy written by `flask backup`" in refused.output
    nowhere = runner.invoke(args=["backup", str(copies / "missing" / "x.backup")])
    assert nowhere.exit_code == 1 and "no folder" in nowhere.output
    assert runner.invoke(args=["backup", str(copies)]).exit_code == 2  # a folder: click says so
    assert totals(client, token) == [4, 9, 11]  # nothing changed by any of them
    assert sorted(p.name for p in copies.iterdir()) == ["notes.txt", "one.backup"]  # no partial copy left

    assert runner.invoke(args=["restore", str(copy)], input="y\n").exit_code == 0
    assert totals(client, token) == [1, 7, 9]
