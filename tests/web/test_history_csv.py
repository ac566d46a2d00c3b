"""The record people read: the history page marks each hand (the total that
put a player out, a re-entry and what it paid into the pot, a Chinchón or
all seven combined), and the CSV opens in a spreadsheet as it should."""

from __future__ import annotations

import csv
import io
import re

import pytest

from companion.extensions import db
from companion.models import GameTable
from companion.services.standing import standing

from .helpers import create_table, decide_reentry, enter_points

NAMES = ["Peña", "Ramón", "=1+1", "@x"]
HEADER = ["Hand", "Player", "Points", "Total", "Out", "Re-entry", "Pot", "Mark", "Closer"]


def played(client) -> str:
    """Peña closes with all seven combined (−10); Ramón goes out at 109 and
    buys back in at 15, paying 2.50 into the pot; Peña's Chinchón ends it."""
    token = create_table(client, NAMES, stake="2.5")
    enter_points(client, token, 0, {0: -10, 1: 60, 2: 5, 3: 3})
    enter_points(client, token, 0, {0: 1, 1: 49, 2: 10, 3: 4})
    decide_reentry(client, token, 1)
    enter_points(client, token, 0, {0: -10, 1: 20, 2: 3, 3: 2}, chinchon=True)
    return token


def open_as_excel(response, delimiter: str = ",") -> list[list[str]]:
    """Read the file as a spreadsheet would: the BOM says UTF-8, then CSV
    split as the language's Excel splits it ("," in English, ";" where a
    decimal has a comma)."""
    body = response.get_data()
    assert body.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline=""), delimiter=delimiter))


def test_the_csv_has_a_row_per_hand_and_player_matching_the_scoreboard(client, app):
    token = played(client)
    response = client.get(f"/t/{token}/history.csv")
    assert response.mimetype == "text/csv" and response.mimetype_params["charset"] == "utf-8"
    header, *rows = open_as_excel(response)
    assert header == HEADER
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=token).one()
        record = standing(table)
        expected_totals = [(r.hand.number, seat, r.totals[seat]) for r in record.rows for seat in sorted(r.points)]
        assert record.state.winners == ["Peña"]
    names = ["Peña", "Ramón", "'=1+1", "'@x"]
    hand_rows = [r for r in rows if r[5] == "no"]
    assert [(int(r[0]), names.index(r[1])) for r in hand_rows] == [(n, seat) for n, seat, _t in expected_totals]
    assert rows[:5] == [
        ["1", "Peña", "-10", "-10", "no", "no", "10", "all seven combined", "Peña"],
        ["1", "Ramón", "60", "60", "no", "no", "10", "", "Peña"],
        ["1", "'=1+1", "5", "5", "no", "no", "10", "", "Peña"],
        ["1", "'@x", "3", "3", "no", "no", "10", "", "Peña"],
        ["2", "Peña", "1", "-9", "no", "no", "10", "", "Peña"],
    ]
    # Ramón's 109 put him out (the total his points made); buying back in at 15
    # (the highest total still in) is a row of its own, paying 2.50 into the pot.
    assert rows[5] == ["2", "Ramón", "49", "109", "yes", "no", "10", "", "Peña"]
    assert rows[8] == ["2", "Ramón", "-94", "15", "no", "yes", "12.5", "", ""]
    assert rows[9] == ["3", "Peña", "-10", "-19", "no", "no", "12.5", "Chinchón", "Peña"]
    assert [r[7] for r in rows[10:]] == ["", "", ""]
    assert len(rows) == 13
    # Every player's points add up to the total the record ends with.
    for seat, name in enumerate(names):
        assert sum(int(r[2]) for r in rows if r[1] == name) == record.total(seat)


def test_no_csv_cell_starts_a_formula(client):
    token = create_table(client, ["=1+1", "@x", "+Ben", "-Dani"])
    enter_points(client, token, 1, {0: 10, 1: -10, 2: 5, 3: 7})
    header, *rows = open_as_excel(client.get(f"/t/{token}/history.csv"))
    cells = [cell for row in [header, *rows] for cell in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r") or (c[:1] == "-" and not c[1:].isdigit())]
    assert [r[1] for r in rows] == ["'=1+1", "'@x", "'+Ben", "'-Dani"] and {r[8] for r in rows} == {"'@x"}


def test_a_table_without_stake_leaves_the_pot_blank(client):
    token = create_table(client, ["Ana", "Ben"])
    enter_points(client, token, 1, {0: 10, 1: 3})
    _header, *rows = open_as_excel(client.get(f"/t/{token}/history.csv"))
    assert rows == [
        ["1", "Ana", "10", "10", "no", "no", "", "", "Ben"],
        ["1", "Ben", "3", "3", "no", "no", "", "", "Ben"],
    ]


@pytest.mark.parametrize(
    ("lang", "header", "yes"),
    [
        ("es", "Mano;Jugador;Puntos;Total;Eliminado;Reenganche;Bote;Marca;Quien cierra", "sí"),
        ("es_AR", "Mano;Jugador;Puntos;Total;Eliminado;Reenganche;Premio;Marca;Quien corta", "sí"),
    ],
)
def test_a_spanish_spreadsheet_reads_the_header_the_accents_and_the_decimal_comma(
    client_without_language, lang, header, yes
):
    """A Spanish or Argentine Excel splits a CSV at ";" and reads "12,5" as a number."""
    c = client_without_language
    c.set_cookie("lang", lang)
    token = played(c)
    raw = c.get(f"/t/{token}/history.csv").get_data(as_text=True)
    assert raw.splitlines()[0].lstrip("\ufeff") == header
    _first, *rows = open_as_excel(c.get(f"/t/{token}/history.csv"), delimiter=";")
    assert rows[5][1] == "Ramón" and rows[5][4] == yes and rows[8][5] == yes and rows[9][7] == "Chinchón"
    assert rows[8][6] == "12,5" and rows[0][2] == "-10" and "−" not in raw


# -- the history page ---------------------------------------------------------------------------
def row_of(html: str, number: int) -> str:
    return re.search(rf'<tr>\s*<th scope="row">{number}</th>.*?</tr>', html, re.S).group(0)


def test_the_history_shows_the_total_that_put_a_player_out_and_the_reentry_on_its_hand(client):
    token = played(client)
    html = client.get(f"/t/{token}/history").get_data(as_text=True)
    second = row_of(html, 2)
    assert "109 out" in second and '<span aria-hidden="true">↺ 15</span>' in second
    assert '<span class="sr">bought back in at 15</span>' in second
    note = re.search(r'<tr class="note">.*?</tr>', html, re.S).group(0)
    assert html.index(note) > html.index(second) and html.index(note) < html.index(row_of(html, 3))
    assert "Ramón bought back in at 15. Paid into the pot: 2.5; pot: 12.5." in note
    assert "Pot at the start: 10" in html


def test_the_history_marks_a_chinchon_and_all_seven_combined_with_words_for_screen_readers(client):
    token = played(client)
    html = client.get(f"/t/{token}/history").get_data(as_text=True)
    minus_ten = '<span class="badge mark" aria-hidden="true">−10</span><span class="sr"> (all seven combined)</span>'
    chinchon = '<span class="badge mark win" aria-hidden="true">★</span><span class="sr"> (Chinchón)</span>'
    assert minus_ten in row_of(html, 1) and chinchon in row_of(html, 3)
    assert "mark" not in row_of(html, 2)
    assert row_of(html, 1).count('<span class="sr"> (closed the hand)</span>') == 1
    assert "★ Chinchón · −10 all seven combined" in html


def test_the_history_says_out_in_the_hand_that_ends_the_match(client):
    token = create_table(client, ["Ana", "Ben"])
    enter_points(client, token, 0, {0: 1, 1: 60})
    enter_points(client, token, 0, {0: 1, 1: 45})
    assert "105 out" in row_of(client.get(f"/t/{token}/history").get_data(as_text=True), 2)
