"""The referee pages: close checker and lay-off referee, with permalinks."""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

import pytest

from .helpers import GERMAN, create_table, enter_cards, table_of


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


def close(client, **params):
    return client.get("/referee/close?" + urlencode(params))


def test_referee_home(client):
    html = client.get("/referee/").get_data(as_text=True)
    assert "/referee/close" in html and "/referee/layoffs" in html


def test_german_seed_close_is_legal_with_score_3(client):
    page = text(close(client, cards=GERMAN[0]))
    assert "Yes, this closes." in page and "Score 3" in page
    assert "King of espadas" in client.get("/referee/close?" + urlencode({"cards": GERMAN[0]})).get_data(as_text=True)


def test_illegal_close_names_the_rule_and_the_cards_that_would_close(client):
    page = text(close(client, cards="2o 3o 4o 5o 6o 1c 2e 12b"))
    assert "No, this cannot close." in page and "at most one loose card worth 4" in page
    assert "1 loose card too many" in page
    assert "Your odds of closing on the next draw" in page


def engine_odds(cards, seen=""):
    """Per discard: how many unseen cards let the kept seven close, by trying each with the engine."""
    from companion.rules import check_close, get_rules, parse_cards

    rules = get_rules("classic")
    hand, seen = parse_cards(cards), parse_cards(seen)
    unseen = [c for c in rules.pack.cards() if c not in hand and c not in seen]
    out = {}
    for d in set(hand):
        kept = [c for c in hand if c != d]
        out[d] = sum(check_close([*kept, c], rules).legal for c in unseen), len(unseen)
    return out


def odds_rows(response):
    table = re.search(r'<table class="odds">.*?</table>', response.get_data(as_text=True), re.S).group(0)
    rows = []
    for row in re.findall(r"<tr[^>]*>\s*<th scope=\"row\">(.*?)</th>(.*?)</tr>", table, re.S):
        card = re.search(r'aria-label="([^"]+)"', row[0]).group(1)
        rows.append((card, html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row[1]))).strip()))
    return rows


@pytest.mark.parametrize("seen", ["", "1o 7o 7c", "2c 3c 1e 12o"])
def test_each_discard_gets_its_chance_to_close_on_the_next_draw(client, seen):
    """The close checker's odds table (issue #14): for every discard of a hand
    that cannot close, the share of the unseen cards that would let it close,
    the cards already seen thrown left out; the figures are the engine's."""
    from companion.rules import parse_cards
    from companion.web.i18n import card_name

    cards = "2o 3o 4o 5o 6o 1c 2e 12b"
    params = {"cards": cards} | ({"seen": seen} if seen else {})
    rows = odds_rows(close(client, **params))
    expected = engine_odds(cards, seen)
    assert len(rows) == len(expected) == 8
    with client.application.test_request_context(headers={"Accept-Language": "en"}):
        names = {card_name(c, "spanish40", "spanish"): c for c in parse_cards(cards)}
    shares = []
    for name, cell in rows:
        hits, unseen = expected[names[name]]
        share = round(100 * hits / unseen)
        shares.append(hits)
        assert cell.startswith(f"{share}%")
        if hits:
            assert f"{hits} card{'s' if hits > 1 else ''} of {unseen}" in cell
    assert shares == sorted(shares, reverse=True)  # the best first


def test_the_seen_tab_keeps_its_cards_in_the_permalink_and_refuses_a_held_card(client):
    response = close(client, cards="2o 3o 4o 5o 6o 1c 2e 12b", seen="1o 7o", active="s")
    page = response.get_data(as_text=True)
    assert "seen=1o+7o" in page and "On the Seen tab" in page
    refused = text(close(client, decks="1", cards="2o 3o 4o 5o 6o 1c 2e 12b", seen="2o"))
    assert "No, this cannot close." in refused and "appears twice" in refused
    # With "auto" decks a card tapped twice means two decks: counted as such.
    twice = text(close(client, cards="2o 3o 4o 5o 6o 1c 2e 12b", seen="2o"))
    assert "Counting two decks: a card was tapped twice." in twice and "of 71" in twice
    assert "Counting one deck (2 to 4 players)" in text(close(client, cards="2o 3o 4o 5o 6o 1c 2e 12b"))


def test_other_legal_discards_are_listed(client):
    page = text(close(client, preset="fournier", cards="2o 3o 4o 5o 6o 1c 2e 1b"))
    assert "Other discards that also close" in page and page.count("score 3") == 2


def test_first_round_is_respected(client):
    assert "first round" in text(close(client, cards=GERMAN[0], first_round="1"))
    assert "Yes, this closes." in text(close(client, preset="italy", cards=GERMAN[0], first_round="1"))


def test_seven_kept_and_a_discard(client):
    page = text(close(client, cards="11c 11e 11b 5o 6o 7o 3c", discard="12e"))
    assert "Yes, this closes." in page


def test_variants_in_the_url(client):
    page = text(close(client, jokers="2", cards="* 2o 3o 4o 5o 6o 7o 12b"))
    assert "Score -50" in page
    page = text(close(client, wild_cards="1o", cards="1o 2o 3o 4o 5o 6o 7o 12b"))
    assert "wins the match" in page


@pytest.mark.parametrize(
    "params,message",
    [
        ({"cards": "11c 11e 11b"}, "3 so far"),
        ({"cards": "11c 11e 11b 5o 6o 7o 3c 8o"}, "not in the spanish40 deck"),
        ({"decks": "1", "cards": "11c 11e 11b 5o 6o 7o 3c 3c"}, "appears twice"),
        ({"cards": "11c 11e 11b 5o 6o 7o 3c xx"}, "is not a card"),
        ({"cards": "11c 11e 11b 5o 6o 7o 3c 12e", "discard": "1b"}, "9 so far"),
        ({"jokers": "9", "cards": GERMAN[0]}, "Option jokers must be from 0 to 4"),
    ],
)
def test_bad_input_beside_the_grid(client, params, message):
    response = close(client, **params)
    assert response.status_code == 200
    assert message in text(response)


def test_checked_boxes_redirect_to_a_clean_permalink(client):
    """Without JavaScript the grid posts one value per checked box; the
    server answers with the permalink that lists them, and judges them all."""
    response = client.get("/referee/close?" + urlencode({"cards": ["1o", "2o"], "tap": "2o"}, doseq=True))
    assert response.status_code == 303
    assert "cards=1o+2o" in response.headers["Location"] and "tap=" not in response.headers["Location"]
    # With two decks both copies are boxes of their own.
    response = client.get("/referee/close?" + urlencode({"cards": ["1o", "2o", "2o"]}, doseq=True))
    assert "cards=1o+2o+2o&" in response.headers["Location"] or response.headers["Location"].endswith("cards=1o+2o+2o")


def test_htmx_pushes_the_permalink_of_exactly_the_tapped_cards(client):
    cards = ["1o", "2o", "3o", "5c", "5e", "5b", "7c", "4o"]
    response = client.get(
        "/referee/close?" + urlencode({"cards": cards}, doseq=True),
        headers={"HX-Request": "true", "HX-Target": "verdict"},
    )
    assert "cards=1o+2o+3o+5c+5e+5b+7c+4o" in response.headers["HX-Push-Url"]
    assert "Yes, this closes." in text(response)


def test_htmx_gets_only_the_verdict(client):
    response = client.get(
        "/referee/close?" + urlencode({"cards": GERMAN[0]}), headers={"HX-Request": "true", "HX-Target": "verdict"}
    )
    assert "<html" not in response.get_data(as_text=True) and "Yes, this closes." in text(response)


def layoffs(client, hands, **params):
    query = {"n": str(len(hands)), **{f"h{i}": h for i, h in enumerate(hands)}, **params}
    return client.get("/referee/layoffs?" + urlencode(query))


def test_layoff_steps_german_seed(client):
    page = text(layoffs(client, [GERMAN[0], GERMAN[1], GERMAN[2]]))
    assert "Closer · closes 3 points" in page
    assert "Player 2 13 points" in page and "Lays off 4 → Closer's meld 2: 4 5 6 7" in page
    assert "Player 3 46 points" in page


def test_layoff_chain_and_next_player_onto_the_extended_run(client):
    page = text(layoffs(client, ["5o 6o 7o 1c 1e 1b 2c 12e", "4o 3o 12b 11b 10c 2e", "2o 11c 11o 3e 6c 4b 7e"]))
    assert "Lays off 4 → Closer's meld 1: 4 5 6 7" in page and "Lays off 3 → Closer's meld 1: 3 4 5 6 7" in page
    assert "Lays off 2 → Closer's meld 1: 2 3 4 5 6 7" in page


@pytest.mark.parametrize(
    "hands,params,message",
    [
        (["1c 2c 3c 4c 10e 11e 12e 7o", "5c 6o 6c 6e 12b 11b 3o"], {}, "a closer who had all seven combined"),
        (["5o 6o 7o 12c 12e 12b 8b 4o", "8o 9o 3c 3e 3b 1e 2e"], {"preset": "sweden"}, "allow no laying off"),
        (
            ["1c 2c 3c 10e 11e 12e 2b 7o", "6o 6c 6e 12b 11b 5b 3o", "6b 10o 11o 1b 5e 3e 2o"],
            {"layoffs": "closer_only"},
            "only onto the closer's melds",
        ),
        (
            [
                "5o 6o 7o 1c 1e 1b 2c 12e",
                "4o 3o 12b 11b 10c 2e 7c",
                "2b 11c 11o 3e 6c 4b 7e",
                "1o 12o 10b 5c 7b 6b 4c",
                "3c 4e 5e 6e 1c 10o 12b",
            ],
            {"preset": "italy"},
            "at most 1 card may be added to one run",
        ),
    ],
)
def test_refused_layoffs_name_the_rule(client, hands, params, message):
    page = text(layoffs(client, hands, **params))
    assert "Cannot lay off" in page and message in page


def test_equal_arrangements_can_be_picked_and_nobody_elses_points_move(client):
    """Ben's 3b fits Ana's threes or her bastos run: 36 points either way."""
    hands = ["5b 3e 1e 3c 4b 6b 3o 7c", "12b 7o 11c 1b 3b 4o 5o", "12o 6c 10e 10b 11o 1o 2e"]
    page = text(layoffs(client, hands))
    assert "Player 2 36 points" in page and "Player 3 44 points" in page and "(1 of 2)" in page
    page = text(layoffs(client, hands, c1="1"))
    assert "Player 2 36 points" in page and "Player 3 44 points" in page and "(2 of 2)" in page


def test_the_tie_example_offers_no_second_arrangement(client):
    """SPEC §5 tie example: Ben's other showing would let Carla lay off 1e (38 → 37); not offered (#22)."""
    hands = ["5b 7o 2o 7c 4b 7b 3b 1c", "3o 4e 1o 3e 2e 3c 10b", "5c 4o 1e 10c 12e 11e 1b"]
    page = text(layoffs(client, hands))
    assert "Player 3 38 points" in page and "of 2)" not in page


def test_layoff_bad_input(client):
    assert "closer's 8 cards" in text(layoffs(client, ["1c 2c", "3c"]))
    assert "Player 2" in text(layoffs(client, [GERMAN[0], "5b 5c"]))
    assert "appears twice" in text(layoffs(client, [GERMAN[0], "5b 5c 5e 4o 12o 2c 12e"]))
    assert "cannot close" in text(layoffs(client, ["2o 3o 6o 7o 10o 11o 1e 12e", GERMAN[1]]))


def test_table_history_links_to_the_referee_for_a_hand(client, app):
    token = create_table(client, ["Anna", "Ben", "Carla"])
    enter_cards(client, token, 1, {0: GERMAN[1], 1: GERMAN[0], 2: GERMAN[2]})
    watch = table_of(app, token).watch_token
    html = client.get(f"/t/{token}/history").get_data(as_text=True)
    assert f"/referee/layoffs?table={watch}&amp;hand=1" in html
    page = text(client.get(f"/referee/layoffs?table={watch}&hand=1"))
    assert "Ben · closes 3 points" in page and "Carla 46 points" in page


def test_seven_kept_and_a_discard_get_one_row_of_odds(client):
    """Seven kept and the discard named on its tab: one row, for that discard
    (the named card is out of the stock's reach too)."""
    rows = odds_rows(close(client, cards="2o 3o 4o 5o 6o 1c 2e", discard="12b"))
    from companion.rules import parse_card
    from companion.web.i18n import card_name

    hits, unseen = engine_odds("2o 3o 4o 5o 6o 1c 2e 12b")[parse_card("12b")]
    with client.application.test_request_context(headers={"Accept-Language": "en"}):
        name = card_name(parse_card("12b"), "spanish40", "spanish")
    assert rows == [(name, rows[0][1])] and rows[0][1].startswith(f"{round(100 * hits / unseen)}%")


def test_seven_cards_alone_get_the_odds_of_those_seven(client):
    """Seven tapped and no discard: the engine judges them as the seven kept;
    the odds row is theirs (this once answered 500)."""
    response = close(client, cards="2e 3e 4e 7o 7c 7e 12e")
    assert response.status_code == 200
    rows = odds_rows_text(response)
    assert rows and rows[0].startswith("The seven kept")


def odds_rows_text(response):
    table = re.search(r'<table class="odds">.*?</table>', response.get_data(as_text=True), re.S).group(0)
    body = table.split("<tbody>")[1]
    return [
        html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row))).strip() for row in body.split("</tr>")[:-1]
    ]


@pytest.mark.parametrize(
    "seen,message",
    [("xx", "is not a card"), ("8o", "not in the spanish40 deck"), ("1o 1o 1o", "appears")],
)
def test_garbage_on_the_seen_tab_is_named_beside_the_verdict(client, seen, message):
    page = text(close(client, decks="1", cards="2o 3o 4o 5o 6o 1c 2e 12b", seen=seen))
    assert "No, this cannot close." in page and message in page and "Your odds" not in page


@pytest.mark.parametrize("query", ["n=%C2%B2", "n=3&c%C2%B2=1", "n=3&c1=%C2%B3", "n=%E2%91%A2"])
def test_a_digit_python_cannot_read_as_a_number_is_no_count(client, query):
    """Found by the fuzzer: "²" is a digit to ``str.isdigit`` but not to
    ``int``, and the lay-offs page answered 500.  Only decimal digits count."""
    response = client.get(f"/referee/layoffs?{query}")
    assert response.status_code == 200


def test_first_round_close_refused_but_the_odds_are_for_the_next_turn(client):
    """SPEC §3: in the first round the German hand may not close now; the
    checker says so, and each discard's odds are those of the next draw, a
    later turn where the first-round rule no longer holds: every row is the
    engine's count of closing cards."""
    page = close(client, cards=GERMAN[0], first_round="1")
    assert "first round" in text(page)
    rows = dict(odds_rows(page))
    assert len(rows) == 8
    from companion.rules import parse_card
    from companion.web.i18n import card_name

    with client.application.test_request_context(headers={"Accept-Language": "en"}):
        for card, (hits, unseen) in engine_odds(GERMAN[0]).items():
            shown = rows[card_name(parse_card(str(card)), "spanish40", "spanish")]
            assert shown.startswith(f"{round(100 * hits / unseen)}%"), (card, shown)
    assert any(not row.startswith("0%") for row in rows.values())
