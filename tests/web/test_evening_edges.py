"""What an evening at a real table tripped on (issue 39): a refused save says
every mistake at once, at the top and at its field; a player with 6 cards is
asked about; the numbers read right ("le faltan 2" at 99 when out is over
100, a buy-back beside the total that put a player out); a name typed wrong
is put right; sums typed as on a score pad; presets named by their close;
dates as the language writes them."""

from __future__ import annotations

import re
from html import unescape

from companion.extensions import db
from companion.models import Entry, GameTable
from companion.services import tables as table_service
from companion.services.proofs import Seal
from companion.services.unit import ServiceError, transaction

from .helpers import (
    GERMAN,
    create_table,
    decide_reentry,
    enter_points,
    field,
    hand_count,
    table_of,
    totals,
)
from .helpers import (
    post_hand as send_hand,
)

FOUR = ["Ana", "Ben", "Carla", "Dani"]


def post_hand(client, token, fields, *, expect=303, save=True) -> str:
    """The page the new-hand form answers (``helpers.post_hand``)."""
    return send_hand(client, token, fields, expect=expect, save=save).get_data(as_text=True)


def html_text(fragment: str) -> str:
    return unescape(re.sub(r"<.*?>", "", fragment)).strip()


def refused_box(html: str) -> str:
    match = re.search(r'<section class="panel refusals".*?</section>', html, re.S)
    assert match, "no refusal at the top of the page"
    return match.group(0)


# -- refusals where the eye is ----------------------------------------------------------------------
def test_a_refused_save_names_every_mistake_at_once_at_the_top_and_at_its_field(client, app):
    """Ana closed with −10; Ben typed "1o", Carla "-5", Dani nothing: three
    mistakes, all named at the top of the page (before the card grid), each
    again at its field, and nothing stored."""
    token = create_table(client, FOUR)
    html = post_hand(client, token, {"closer": "0", "closer_score": "-10", "p1": "1o", "p2": "-5"}, expect=400)
    box = refused_box(html)
    assert "Not saved yet: 3 things to put right" in box
    messages = [
        "1o is not a whole number.",
        "-5 points is not possible for a player who did not close.",
        "Enter Dani's points.",
    ]
    # The list names whose field each is about, where the words do not say it.
    listed = [
        "Ben: 1o is not a whole number.",
        "Carla: -5 points is not possible for a player who did not close.",
        "Enter Dani's points.",
    ]
    assert [html_text(li) for li in re.findall(r"<li.*?</li>", box, re.S)] == listed
    assert html.index(box) < html.index('class="tabs"')  # above the grid, where the page opens
    for seat, message in zip((1, 2, 3), messages, strict=True):
        assert f'href="#p{seat}"' in box
        at_field = re.search(
            rf'<input id="p{seat}"[^>]*>\s*<span class="field-error" id="e-p{seat}">([^<]*)</span>', html
        )
        assert at_field and html_text(at_field.group(1)) == message
        assert re.search(rf'<input id="p{seat}"[^>]*aria-invalid="true" aria-describedby="e-p{seat}"', html)
    assert 'role="alert"' in box and hand_count(app) == 0
    # Put right all at once, the same form saves.
    post_hand(client, token, {"closer": "0", "closer_score": "-10", "p1": "10", "p2": "5", "p3": "12+11+7"})
    assert totals(client, token) == [-10, 10, 5, 30]


def test_a_refused_save_in_es_ar_speaks_voseo_at_the_top(client, app):
    client.set_cookie("lang", "es_AR")
    token = create_table(client, FOUR)
    html = post_hand(client, token, {"closer": "0", "closer_score": "-10", "p1": "1o"}, expect=400)
    box = refused_box(html)
    assert "Todavía no se guardó: hay 3 cosas para corregir" in box
    assert "Ben: 1o no es un número entero." in html_text(box) and "Escribí los puntos de Carla." in html_text(box)
    assert hand_count(app) == 0


def test_a_buy_back_to_decide_first_is_said_at_the_top(client, app):
    """Dani went out at 105: the next hand waits for her buy-back, said where the page opens."""
    client.set_cookie("lang", "es_AR")
    token = create_table(client, FOUR)
    enter_points(client, token, 0, {0: 2, 1: 10, 2: 20, 3: 60})
    enter_points(client, token, 1, {0: 5, 1: 1, 2: 7, 3: 45})
    html = post_hand(client, token, {"closer": "2", "p0": "5", "p1": "3", "p2": "1"}, expect=400)
    box = refused_box(html)
    assert "Antes decidan si Dani se reengancha." in box and 'href="#e-closer"' in box
    assert '<p class="field-error" id="e-closer">Antes decidan si Dani se reengancha.</p>' in html
    assert hand_count(app) == 2


def test_a_card_count_problem_opens_that_players_cards(client):
    """Anna closed with 6 cards tapped: said at the top and above her grid, her grid shown."""
    token = create_table(client, ["Anna", "Ben", "Carla"])
    six = GERMAN[0].split()[:6]
    html = post_hand(client, token, {"closer": "0", "h0": six, "p1": "x"}, expect=400)
    box = refused_box(html)
    assert 'href="#e-h0"' in box and 'href="#p1"' in box
    assert re.search(r'<p class="field-error" id="e-h0">Anna closed: tap the 8 cards', html)
    assert re.search(r'<input type="radio" name="active" value="0" checked>', html)


# -- six cards ----------------------------------------------------------------------------------------
def test_a_player_with_six_cards_is_asked_then_scored_as_a_misdraw_spec_4(client, app):
    """SPEC §4: a player holding 6 cards (a mis-draw) scores normally.  Ben's
    six (the German example without his 1c: he lays 4o off on Anna's run,
    12o and 2c loose) count 12 once the table says that is right."""
    token = create_table(client, ["Anna", "Ben", "Carla"])
    six = GERMAN[1].split()[:6]
    fields = {"closer": "0", "h0": GERMAN[0].split(), "h1": six, "p2": "40"}
    preview = post_hand(client, token, fields, save=False, expect=200)
    assert "Ben has 6 cards, not 7. Right: a mis-draw, count the 6 cards." in preview
    assert "✓" not in re.search(r'<p id="summary".*?</p>', preview, re.S).group(0)  # not savable yet
    confirmed = post_hand(client, token, {**fields, "m1": "y"}, save=False, expect=200)
    assert "✓" in re.search(r'<p id="summary".*?</p>', confirmed, re.S).group(0)
    html = post_hand(client, token, fields, expect=400)
    assert "Ben has 6 cards, not 7: is that right?" in refused_box(html) and hand_count(app) == 0
    post_hand(client, token, {**fields, "m1": "y"})
    assert totals(client, token) == [3, 12, 40]
    with app.app_context():
        ben = db.session.query(Entry).filter_by(seat=1).one()
        assert ben.cards.split() == six and ben.points == 12
    # Correcting the hand keeps the answer already given.
    edit = client.get(f"/t/{token}/hands/1/edit").get_data(as_text=True)
    assert re.search(r'name="m1" value="y"\s+checked', edit)


def test_six_cards_in_es_ar(client, app):
    client.set_cookie("lang", "es_AR")
    token = create_table(client, ["Anna", "Ben", "Carla"])
    html = post_hand(
        client, token, {"closer": "0", "h0": GERMAN[0].split(), "h1": GERMAN[1].split()[:6], "p2": "40"}, expect=400
    )
    assert "Ben tiene 6 cartas, no 7: ¿está bien? Si es así, marcá la casilla que lo dice." in html_text(
        refused_box(html)
    )


# -- the sticky summary ---------------------------------------------------------------------------
def test_the_summary_claims_no_tick_until_every_player_is_in_and_lists_table_order(client):
    """Only Ben's (the closer's) cards in: no ✓, the others "–", players in
    table order (Ana first) though play starts after Ben; the rows say no
    points were typed yet."""
    token = create_table(client, ["Ana", "Ben", "Carla"])
    html = post_hand(client, token, {"closer": "1", "h1": GERMAN[0].split()}, save=False, expect=200)
    summary = re.search(r'<p id="summary".*?</p>', html, re.S).group(0)
    assert "✓" not in summary and "is-ok" not in summary
    assert re.findall(r'data-seat="(\d)"', summary) == ["0", "1", "2"]
    assert "no cards or points yet" in html and "points typed" not in html
    html = post_hand(
        client, token, {"closer": "1", "h1": GERMAN[0].split(), "p0": "5", "p2": "7"}, save=False, expect=200
    )
    summary = re.search(r'<p id="summary".*?</p>', html, re.S).group(0)
    assert "✓" in summary and "is-ok" in summary


# -- points typed as a sum ------------------------------------------------------------------------
def test_points_typed_as_a_sum_are_added_up(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"])
    enter_points(client, token, 0, {0: 2, 1: "12+11+7", 2: "4 + 5"})
    assert totals(client, token) == [2, 30, 9]
    html = post_hand(client, token, {"closer": "0", "closer_score": "0", "p1": "12+x", "p2": "5"}, expect=400)
    assert "12+x is not a whole number." in refused_box(html)


# -- numbers that read right --------------------------------------------------------------------------
def badge_of(html: str, name: str) -> str:
    card = re.search(rf'<span class="name">{name}.*?</li>', html, re.S).group(0)
    warn = re.search(r'<span class="badge warn">([^<]*)</span>', card)
    return warn.group(1) if warn else ""


def test_at_99_out_over_100_takes_2_and_the_badge_leaves_with_the_match(client):
    """Out is "over 100": at 99 a player needs 2 points to go out, not 1;
    once the match is over nobody, the winner least, is in danger."""
    token = create_table(client, ["Ana", "Ben"])
    enter_points(client, token, 0, {0: 1, 1: 60})
    enter_points(client, token, 0, {0: 1, 1: 39})
    assert badge_of(client.get(f"/t/{token}").get_data(as_text=True), "Ben") == "2 points to go out"
    client.set_cookie("lang", "es_AR")
    assert badge_of(client.get(f"/t/{token}").get_data(as_text=True), "Ben") == "le faltan 2 para quedar afuera"
    enter_points(client, token, 1, {0: 50, 1: 1})  # Ana 52; Ben 100: on the limit, still in
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert badge_of(html, "Ana") == "" and badge_of(html, "Ben") == "en el límite, sigue"
    enter_points(client, token, 1, {0: 40, 1: -10})  # Ana 92: 9 to go; Ben 90
    assert badge_of(client.get(f"/t/{token}").get_data(as_text=True), "Ana") == "le faltan 9 para quedar afuera"
    enter_points(client, token, 0, {0: 1, 1: 20})  # Ben 110: out, Ana wins at 93
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "ganador" in html or "ganadora" in html or "gana" in html
    assert badge_of(html, "Ana") == "" and badge_of(html, "Ben") == ""


def test_reaching_100_puts_out_at_99_with_1(client):
    token = create_table(client, ["Ana", "Ben"], eliminate="reach")
    enter_points(client, token, 0, {0: 1, 1: 60})
    enter_points(client, token, 0, {0: 1, 1: 39})
    assert badge_of(client.get(f"/t/{token}").get_data(as_text=True), "Ben") == "1 point to go out"


def test_after_a_buy_back_the_card_says_the_total_that_put_her_out(client):
    """Dani's +45 made 105 and put her out; she bought back in at 27: both on
    her card, in words any gender reads ("se reenganchó"), and no "+45"
    beside the 27."""
    token = create_table(client, FOUR)
    enter_points(client, token, 0, {0: 2, 1: 10, 2: 20, 3: 60})
    enter_points(client, token, 1, {0: 5, 1: 1, 2: 7, 3: 45})
    decide_reentry(client, token, 3)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    card = re.search(r'<span class="name">Dani.*?</li>', html, re.S).group(0)
    assert '<span class="back-in">out at 105, back in at 27</span>' in card
    assert "+45" not in card  # "+45" beside 27 read as a sum that does not add up
    client.set_cookie("lang", "es_AR")
    assert "afuera con 105, se reenganchó con 27" in client.get(f"/t/{token}").get_data(as_text=True)


# -- mistakes a table makes, put right ----------------------------------------------------------
def settings_post(client, token, names, **extra):
    html = client.get(f"/t/{token}/settings").get_data(as_text=True)
    data = {"csrf_token": field(html, "csrf_token"), "version": field(html, "version"), "name": "", "target": "100"}
    data.update({f"players-{i}": n for i, n in enumerate(names)})
    data.update(extra)
    return client.post(f"/t/{token}/settings", data=data)


def test_a_name_typed_wrong_is_put_right_keeping_every_hand(client, app):
    token = create_table(client, ["Ana", "Ben", "Calra"])
    enter_points(client, token, 0, {0: 2, 1: 10, 2: 20})
    assert 'name="players-2" value="Calra"' in client.get(f"/t/{token}/settings").get_data(as_text=True)
    response = settings_post(client, token, ["Ana", "Ben", "Carla"])
    assert response.status_code == 303
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "Carla" in html and "Calra" not in html and totals(client, token) == [2, 10, 20]
    assert table_of(app, token).names == ["Ana", "Ben", "Carla"]
    # Two players with one name: refused at the names, nothing changed.
    response = settings_post(client, token, ["Ana", "Ben", "ana"])
    assert response.status_code == 400
    assert '<p class="field-error" id="names-error" role="alert">Two players are called Ana;' in response.get_data(
        as_text=True
    )
    assert table_of(app, token).names == ["Ana", "Ben", "Carla"]


def test_a_name_put_right_in_es_ar(client, app):
    client.set_cookie("lang", "es_AR")
    token = create_table(client, ["Ana", "Ben", "Calra"])
    html = client.get(f"/t/{token}/settings").get_data(as_text=True)
    assert "Corregí un nombre mal escrito" in html
    assert settings_post(client, token, ["Ana", "Ben", "Carla"]).status_code == 303
    assert "Ajustes guardados" in client.get(f"/t/{token}").get_data(as_text=True)


def test_a_tournament_table_keeps_its_names(app):
    with app.app_context():
        with transaction():
            table = table_service.create_table(
                name="", preset="classic", overrides={}, players=["Ana", "Ben"], first_dealer=0, suit_style="spanish"
            )
        try:
            with db.session.no_autoflush:
                table.round_id = 1  # as a tournament seats it (the check needs no round row)
                table_service.change_settings(table, table.version, "", {}, None, ["Ana", "Benito"])
        except ServiceError as error:
            assert error.params["key"] == "rename_tournament"
        else:
            raise AssertionError("a tournament table was renamed")
        finally:
            db.session.rollback()


def test_the_stake_can_be_set_until_the_first_hand_is_in(client, app):
    token = create_table(client, ["Ana", "Ben"])
    assert settings_post(client, token, ["Ana", "Ben"], stake="2.5").status_code == 303
    with app.app_context():
        assert str(db.session.query(GameTable).one().rules.stake) == "2.5"
    enter_points(client, token, 0, {0: 2, 1: 10})
    assert 'name="stake"' not in client.get(f"/t/{token}/settings").get_data(as_text=True)


def test_presets_are_named_by_their_close(client):
    html = client.get("/tables/new").get_data(as_text=True)
    assert "Classic: close with one loose card worth 4 or less" in html and "German rules" not in html
    client.set_cookie("lang", "es_AR")
    html = client.get("/tables/new").get_data(as_text=True)
    assert "Clásico: se corta con una carta suelta de 4 o menos" in html and "reglas alemanas" not in html
    token = create_table(client, ["Ana", "Ben"], preset="fournier")
    assert "Fournier: se corta con ≤ 5" in client.get(f"/t/{token}").get_data(as_text=True)


def test_the_home_page_writes_dates_as_the_language_does(client, app):
    client.set_cookie("lang", "es_AR")
    create_table(client, ["Ana", "Ben"])
    with app.app_context():
        moment = db.session.query(GameTable).one().updated_at
    html = client.get("/").get_data(as_text=True)
    shown = re.search(r'<time datetime="([^"]+)" data-local>([^<]+)</time>', html)
    assert shown and shown.group(1).startswith(moment.strftime("%Y-%m-%dT%H:%M"))
    assert shown.group(2) == f"{moment.day}/{moment.month}/{moment.strftime('%y')}, {moment.strftime('%H:%M')}"
    assert moment.strftime("%Y-%m-%d") not in re.sub(r'datetime="[^"]+"', "", html)


# -- lay-offs in showing order ------------------------------------------------------------------
SHOWING = {0: "1o 2o 3o 4o 10c 11c 12c 2e", 1: "6e 2c 3c 5c 12b 11b 10b", 2: "6o 6c 6b 1b 2b 3b 7e"}


def test_a_six_not_laid_on_sixes_shown_later_is_explained_german_rules(client):
    """German rules: each player shows in turn after the closer.  Carla
    closed; Dani shows before Ana, so Dani's 6 of espadas could not go on
    Ana's three 6s (not on the table yet): Dani scores 16, and her row says why."""
    token = create_table(client, ["Carla", "Dani", "Ana"])
    fields = {"closer": "0", **{f"h{seat}": cards.split() for seat, cards in SHOWING.items()}}
    html = post_hand(client, token, fields, save=False, expect=200)
    row = re.search(r'<tr data-seat="1">.*?</tr>', html, re.S).group(0)
    assert "Ana showed after Dani: that meld was not on the table yet." in html_text(row)
    assert re.search(r"<strong>16</strong>", row)
    client.set_cookie("lang", "es_AR")
    html = post_hand(client, token, fields, save=False, expect=200)
    assert "Ana mostró después de Dani: ese juego todavía no estaba en la mesa." in html_text(html)
    post_hand(client, token, fields)
    assert totals(client, token) == [-10, 16, 7]


# -- a correction that costs later hands ---------------------------------------------------------
def test_a_correction_says_what_it_does_to_later_hands_and_keeps_them_to_enter_again(client, app):
    """Carla went out in hand 2 and bought back in; hand 3 followed.  Hand 2
    corrected so that Ben goes out instead: before saving, the page says hand
    3 is worked out again; hand 3 no longer fits (Ben has points in it), so
    the refusal offers to undo it with the correction; then hand 3 is one
    tap from being entered again, with its values."""
    token = create_table(client, FOUR)
    enter_points(client, token, 0, {0: 1, 1: 50, 2: 60, 3: 5})
    enter_points(client, token, 0, {0: 1, 1: 10, 2: 45, 3: 5})  # Carla 105: out
    decide_reentry(client, token, 2)  # back in at 60 (Ben's)
    enter_points(client, token, 0, {0: 1, 1: 10, 2: 5, 3: 5})
    assert totals(client, token) == [3, 70, 65, 15]
    edit = client.get(f"/t/{token}/hands/2/edit").get_data(as_text=True)
    assert "Hand 3 was played after this one. Saving works its total" in html_text(edit)
    response = enter_points(client, token, 0, {0: 1, 1: 60, 2: 10, 3: 5}, number=2, expect=400)
    html = response.get_data(as_text=True)
    assert "hand 3" in html_text(refused_box(html)).lower()
    assert 'value="save_drop"' in refused_box(html) and totals(client, token) == [3, 70, 65, 15]  # nothing changed
    data = {
        "csrf_token": field(html, "csrf_token"),
        "version": field(html, "version"),
        "submission": field(html, "submission"),
        "closer": "0",
        "mode": "points",
        **{f"p{seat}": str(p) for seat, p in {0: 1, 1: 60, 2: 10, 3: 5}.items()},
        "action": "save_drop",
    }
    assert client.post(f"/t/{token}/hands/2/edit", data=data).status_code == 303
    board = client.get(f"/t/{token}").get_data(as_text=True)
    assert "Hand 2 corrected; hand 3 was undone and kept: restore it or enter it again." in html_text(board)
    assert totals(client, token) == [2, 110, 70, 10]
    decide_reentry(client, token, 1, buy=False)  # Ben stays out: hand 3 cannot come back as it was
    board = client.get(f"/t/{token}").get_data(as_text=True)
    assert "Enter hand 3 again" in board
    again = client.get(f"/t/{token}/hands/new?again=3").get_data(as_text=True)
    assert re.search(r'id="p2"[^>]*value="5"', again) and re.search(r'id="p3"[^>]*value="5"', again)
    assert 'id="p1"' not in again and re.search(r'name="closer" value="0" checked', again)
    enter_points(client, token, 0, {0: 1, 2: 5, 3: 5})
    assert totals(client, token) == [3, 110, 75, 15]


# -- the review in a player's words ---------------------------------------------------------------
def review_html(app, lang: str) -> str:
    """The review page for a short hand: Ana draws, the stock runs out and is
    reshuffled, Ben draws from the new stock; the hand was lost at Ana's throw."""
    from types import SimpleNamespace

    from flask import render_template

    from companion.bots.review import Judgement, Option
    from companion.play.presenters import GaveUp
    from companion.rules import get_rules, parse_card

    def step(n, who, kind, card, stock, source=None):
        return {
            "n": n,
            "who": who,
            "kind": kind,
            "source": source,
            "card": parse_card(card),
            "reason": None,
            "judgement": None,
            "board": [],
            "top": None,
            "stock": stock,
            "chance": None,
        }

    steps = [
        step(1, "Ana", "draw", "3o", 1, "stock"),
        step(2, "Ana", "discard", "7c", 0),
        step(3, "Ben", "draw", "5e", 9, "stock"),
    ]
    made, best = Option("throw", parse_card("7c"), -9.0), Option("throw", parse_card("12e"), 3.5)
    steps[1]["judgement"] = Judgement(made, best, (best, made))
    steps[1]["gave_up"] = GaveUp(broke=(parse_card("5c"), parse_card("6c"), parse_card("7c")), loose=(19, 2), fed="Ben")
    context = {
        "table": SimpleNamespace(rules=get_rules("classic"), suit_style="spanish", name="", names=["Ana", "Ben"]),
        "deal": SimpleNamespace(number=4),
        "steps": steps,
        "players": [],
        "lost": {"n": 2, "name": "Ben", "chance": 0.6, "won": False, "by": "Ana"},
        "closer": "Ben",
        "closer_judged": False,
        "thresholds": (3.0, 7.0, 15.0),
        "back": "/",
        "seal": Seal(checkable=False, commitment="", short="", seed=None, ordinal=4),  # dealt before seals
        "proof_url": None,
    }
    with app.test_request_context(headers={"Cookie": f"lang={lang}"}):
        return render_template("play/review.html", **context)


def test_the_review_shows_a_reshuffle_and_who_made_the_move_that_lost_the_hand(app):
    html = review_html(app, "en")
    text = html_text(html)
    assert "The stock ran out: the pile was shuffled into a new stock of 9 cards." in text
    assert html.index('class="reshuffle"') > html.index('id="move-2"') and html.index('class="reshuffle"') < html.index(
        'id="move-3"'
    )
    assert "The hand was lost at move 2, played by Ana:" in text and 'href="#move-2"' in html
    move = html_text(re.search(r'<li id="move-2".*?</summary>', html, re.S).group(0))
    assert "Best: throw King of espadas. This move cost 12.5 points." in move
    assert "It broke a meld:" in move and "It left 19 loose points; the best move left 2." in move
    assert "Ben took it from the pile next." in move
    text = html_text(review_html(app, "es_AR"))
    assert "El mazo se terminó: el pozo se mezcló en un mazo nuevo de 9 cartas." in text
    assert "La mano se perdió en la jugada 2, de Ana:" in text
    assert "Rompió un juego:" in text and "Ben la levantó del pozo justo después." in text


def test_a_marked_throw_says_the_meld_it_broke_the_loose_points_and_who_took_it(app):
    """Ana holds 4-5-6 of oros, three aces, the 12 of copas and the 2 of
    espadas and throws the 5 of oros: it broke her run, left 22 loose points
    (4 + 6 of oros, 12 of copas counting 10, 2 of espadas) where throwing
    the 12 of copas left 2, and Ben took it from the pile."""
    from companion.bots.review import Judgement, Option, Step
    from companion.play.presenters import gave_up
    from companion.rules import get_rules, parse_card, parse_cards
    from companion.rules.game import Discard, Draw, Source

    rules = get_rules("classic")
    hand = tuple(parse_cards("4o 5o 6o 1c 1e 1b 12c 2e"))
    made, best = Option("throw", parse_card("5o"), -20.0), Option("throw", parse_card("12c"), 1.0)
    step = Step(
        Discard(0, parse_card("5o")),
        (hand, tuple(parse_cards("3c 3e 7b 7c 10b 11b 2b"))),
        None,
        20,
        Judgement(made, best, (best, made)),
        None,
    )
    said = gave_up(step, Draw(1, Source.DISCARD, parse_card("5o")), rules, ["Ana", "Ben"])
    assert said is not None
    assert [str(c) for c in said.broke] == ["4o", "5o", "6o"]
    assert said.loose == (22, 2) and said.fed == "Ben"
    # A move without a mark gives nothing up worth saying.
    fine = Step(Discard(0, parse_card("12c")), step.hands, None, 20, Judgement(best, best, (best, made)), None)
    assert gave_up(fine, None, rules, ["Ana", "Ben"]) is None


def test_a_correction_that_undoes_a_paid_buy_back_says_so_before_and_after(client, app):
    """Carla went out in hand 2 and bought back in (2 into the pot); hand 2
    corrected so that she stays in: the page warns before saving, and after
    it says her buy-back was undone, the pot back to what it was."""
    token = create_table(client, FOUR, stake="2")
    enter_points(client, token, 0, {0: 1, 1: 10, 2: 60, 3: 5})
    enter_points(client, token, 0, {0: 1, 1: 10, 2: 45, 3: 5})  # Carla 105: out
    decide_reentry(client, token, 2)  # back in at 20, 2 into the pot
    assert "Pot: 10" in html_text(client.get(f"/t/{token}").get_data(as_text=True))
    edit = html_text(client.get(f"/t/{token}/hands/2/edit").get_data(as_text=True))
    assert "Carla bought back in after this hand or a later one: if the correction no longer puts them out" in edit
    enter_points(client, token, 0, {0: 1, 1: 10, 2: 30, 3: 5}, number=2)
    board = html_text(client.get(f"/t/{token}").get_data(as_text=True))
    assert "Carla's buy-back was undone: the corrected hands no longer put them out." in board
    assert totals(client, token) == [2, 20, 90, 10] and "Pot: 8" in board


def test_the_keep_awake_button_says_its_purpose_and_its_name_holds_its_words(client_without_language):
    """ "☀" read as a light/dark switch: the button shows words, and in every
    language its accessible name contains them (a voice command says what it sees)."""
    c = client_without_language
    c.set_cookie("lang", "en")
    token = create_table(c, ["Ana", "Ben"])
    for lang in ("en", "es", "es_AR", "de", "it", "sv"):
        c.set_cookie("lang", lang)
        html = c.get(f"/t/{token}/hands/new").get_data(as_text=True)
        button = re.search(
            r'<button type="button" class="wake"[^>]*aria-label="([^"]+)"[^>]*><span aria-hidden="true">([^<]+)</span>',
            html,
        )
        assert button, lang
        label, shown = unescape(button.group(1)), unescape(button.group(2))
        assert "☀" not in shown and shown.lower() in label.lower(), (lang, shown, label)


def test_while_a_buy_back_waits_the_scoreboard_asks_it_before_offering_the_next_hand(client):
    """The tryout typed a whole hand while Dani's buy-back waited, to be told
    "Antes decidan si Dani se reengancha." only at Save: the scoreboard now
    asks the question and offers no "who closed?" until it is answered."""
    client.set_cookie("lang", "es_AR")
    token = create_table(client, FOUR)
    enter_points(client, token, 0, {0: 2, 1: 10, 2: 20, 3: 60})
    enter_points(client, token, 1, {0: 5, 1: 1, 2: 7, 3: 45})  # Dani 105
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert 'class="panel closer-pick"' not in html and "Dani" in html
    decide_reentry(client, token, 3, buy=False)
    assert 'class="panel closer-pick"' in client.get(f"/t/{token}").get_data(as_text=True)


def test_garbage_in_the_new_fields_gets_words_and_stores_nothing(client, app):
    """A 41-letter name, a hand number that is no number, a mis-draw box for
    nobody: clear words in es-AR where there is something to say, nothing stored."""
    client.set_cookie("lang", "es_AR")
    token = create_table(client, ["Ana", "Ben", "Calra"])
    response = settings_post(client, token, ["Ana", "Ben", "C" * 41])
    assert response.status_code == 400
    assert "El nombre de un jugador tiene como mucho 40 caracteres." in html_text(response.get_data(as_text=True))
    assert table_of(app, token).names == ["Ana", "Ben", "Calra"]
    assert client.get(f"/t/{token}/hands/new?again=x").status_code == 200  # no such hand: a fresh form
    assert client.get(f"/t/{token}/hands/new?again=99").status_code == 200
    html = post_hand(
        client, token, {"closer": "0", "closer_score": "-10", "p1": "5", "p2": "7", "m9": "y", "m1": "<b>"}
    )
    assert "Redirecting" in html and hand_count(app) == 1 and totals(client, token) == [-10, 5, 7]
