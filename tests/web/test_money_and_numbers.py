"""Numbers and money as the reader's language writes them: a shared pot split
to the cent, and the bounds of a refused number with the locale's separators."""

from __future__ import annotations

from decimal import Decimal

import pytest
from flask_babel import force_locale

from companion.web.i18n import pot_text

from .helpers import create_table, csrf, enter_points

#: Both players reach 102 in hand 5 (closers score one loose card): the
#: lowest total wins, and equal totals share the win (SPEC §6).
BOTH_OUT = [
    (0, {0: 1, 1: 49}),
    (1, {0: 49, 1: 1}),
    (0, {0: 4, 1: 44}),
    (1, {0: 44, 1: 4}),
    (0, {0: 4, 1: 4}),
]


@pytest.mark.parametrize(
    "lang,shares",
    [
        ("en", "Shared pot of €7.66: Ana €3.83 and Ben €3.83"),
        ("es", "Bote compartido de 7,66\xa0€: Ana 3,83\xa0€ y Ben 3,83\xa0€"),
        ("es_AR", "Premio compartido de $7,66: Ana $3,83 y Ben $3,83"),
    ],
)
def test_a_shared_win_says_what_each_winner_takes(client, lang, shares):
    token = create_table(client, ["Ana", "Ben"], stake="3.83")
    for closer, points in BOTH_OUT:
        enter_points(client, token, closer, points)
    client.set_cookie("lang", lang)
    html = client.get(f"/t/{token}").get_data(as_text=True).replace("&nbsp;", "\xa0")
    if lang == "en":  # no country, no currency: the amount is a plain number
        shares = shares.replace("€", "")
    assert shares in html


def test_the_odd_cent_of_a_shared_pot_goes_to_the_first_winner(app):
    with app.test_request_context(), force_locale("en"):
        assert pot_text(Decimal("7.65"), ["Ana", "Ben"], "EUR") == "Shared pot of €7.65: Ana €3.83 and Ben €3.82"
        assert pot_text(Decimal("4"), ["Ana", "Ben", "Carla"], "EUR") == (
            "Shared pot of €4.00: Ana €1.34, Ben €1.33, and Carla €1.33"
        )
        assert pot_text(Decimal("7.65"), ["Ana"], "EUR") == "Takes the pot: €7.65"


@pytest.mark.parametrize(
    "lang,target,stake",
    [
        ("en", "Type a whole number from 1 to 10,000.", "Type an amount from 0 to 1,000,000."),
        ("es_AR", "Escribí un número entero de 1 a 10.000.", "Escribí un importe de 0 a 1.000.000."),
        ("de", "Gib eine ganze Zahl von 1 bis 10.000 ein.", "Gib einen Betrag von 0 bis 1.000.000 ein."),
        ("sv", "Skriv ett heltal från 1 till 10\xa0000.", "Skriv ett belopp från 0 till 1\xa0000\xa0000."),
    ],
)
def test_a_number_out_of_range_is_refused_with_the_bounds_in_the_pages_language(client, lang, target, stake):
    client.set_cookie("lang", lang)
    data = {"csrf_token": csrf(client), "preset": "classic", "first_dealer": "0", "suit_style": "spanish"}
    data |= {"players-0": "Ana", "players-1": "Ben", "target": "99999", "stake": "99999999"}
    response = client.post("/tables/new", data=data)
    html = response.get_data(as_text=True).replace("&nbsp;", "\xa0")
    assert response.status_code == 400 and target in html and stake in html
