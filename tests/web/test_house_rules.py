"""Every house rule the engine has, on every form that makes rules (issue #23).

The cases are generated from the engine's option table (``OPTIONS``): an
option added there without a row in ``companion.web.house_rules.HOUSE_RULES``
(or a reason in ``NOT_ON_FORMS``) fails here.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from sqlalchemy import select

from companion.extensions import db
from companion.models import GameTable, Group
from companion.rules import PRESETS, get_rules
from companion.rules.variants import OPTIONS
from companion.services.tables import HAND_OPTIONS, MATCH_OPTIONS, change_settings
from companion.services.unit import ServiceError, transaction
from companion.web.house_rules import AS_POINTS, HOUSE_RULES, NOT_ON_FORMS, POINTS, from_token, tokens
from companion.web.rules_text import option_text, rules_line

from .helpers import create_table, csrf, enter_points, table_count, table_of, totals

ON_FORMS = [name for name in OPTIONS if name not in NOT_ON_FORMS]
CLASSIC = PRESETS["classic"].to_dict()


class _Fields(HTMLParser):
    """What a browser sends back for the first form on a page with ``action``:
    every input's value, ticked boxes only, each select's chosen option."""

    def __init__(self, action: str):
        super().__init__()
        self.action, self.inside, self.select, self.fields = action, False, None, {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.inside = a.get("action") == self.action and not self.fields
        elif self.inside and tag == "input" and a.get("name"):
            if a.get("type") != "checkbox" or "checked" in a:
                self.fields[a["name"]] = a.get("value") or ""
        elif self.inside and tag == "select":
            self.select = a["name"]
            self.fields.setdefault(self.select, "")
        elif self.inside and tag == "option" and self.select and ("selected" in a):
            self.fields[self.select] = a.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        elif tag == "form":
            self.inside = False


def sent_back(client, path: str, action: str | None = None) -> dict[str, str]:
    parser = _Fields(action or path)
    parser.feed(client.get(path).get_data(as_text=True))
    assert parser.fields, f"no form for {action or path} on {path}"
    return parser.fields


def away(name: str) -> tuple[dict[str, str], Any]:
    """Form fields that set ``name`` away from the classic default, and the engine value they mean."""
    option, rule, default = OPTIONS[name], HOUSE_RULES[name], CLASSIC[name]
    match rule.kind:
        case "number":
            value = default + 1 if default + 1 <= option.high else default - 1
            return {name: str(value)}, value
        case "money":
            return {name: "0.5"}, "0.5"
        case "cards":
            return {name: "2c"}, ["2c"]
        case "points" if option.kind == "ints":
            return {name: AS_POINTS, f"{name}_points": "−40 −20"}, [-40, -20]
        case "points":
            return {name: AS_POINTS, f"{name}_points": "-77"}, -77
    token = next(t for t in tokens(name) if from_token(name, t) != default)
    return {name: token}, from_token(name, token)


def every_option() -> tuple[dict[str, str], dict[str, Any]]:
    data, expected = {}, {}
    for name in ON_FORMS:
        fields, expected[name] = away(name)
        data.update(fields)
    return data, expected


def assert_rules(rules, expected: dict[str, Any]) -> None:
    for name, value in expected.items():
        wanted = getattr(get_rules("classic", **{name: value}), name)
        assert getattr(rules, name) == wanted != getattr(PRESETS["classic"], name), name


def table_form(client, names=("Ana", "Ben", "Carla"), **fields) -> dict[str, str]:
    data = {"csrf_token": csrf(client), "preset": "classic", "first_dealer": "0", "suit_style": "spanish"}
    data.update({f"players-{i}": n for i, n in enumerate(names)})
    return {**data, **fields}


# -- the table of house rules ------------------------------------------------------------------
def test_every_engine_option_has_a_field_or_a_reason():
    """min_players and max_players follow from the players typed, so no form offers them."""
    assert set(HOUSE_RULES) | set(NOT_ON_FORMS) == set(OPTIONS)
    assert not set(HOUSE_RULES) & set(NOT_ON_FORMS)
    assert set(NOT_ON_FORMS) == {"min_players", "max_players"}


@pytest.mark.parametrize("name", ON_FORMS)
def test_each_option_has_words_for_its_values(app, name):
    """Every word, null and yes/no a select offers reads as words, not as the engine's token."""
    rule = HOUSE_RULES[name]
    assert str(rule.label) and str(rule.description)
    if rule.kind not in ("select", POINTS):
        return
    for token in tokens(name):
        if not token.isdigit():
            assert token in rule.values, (name, token)


# -- creating -------------------------------------------------------------------------------------
def test_a_table_made_with_every_option_set_has_each_in_its_rules(client, app):
    data, expected = every_option()
    response = client.post("/tables/new", data=table_form(client, **data))
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    table = table_of(app, response.headers["Location"].rsplit("/", 1)[1])
    assert_rules(table.rules, expected)
    with app.test_request_context(headers={"Cookie": "lang=en"}):  # the rules line tells every one of them
        line = rules_line(table.rules)
        for name in ON_FORMS:
            if name not in ("target", "eliminate", "close_max"):
                assert option_text(name, table.rules.to_dict()[name], table.rules) in line, name
    assert "out on reaching 101" in line and "close with loose cards up to 5" in line


def test_a_digital_game_made_with_every_option_set_has_each_in_its_rules(client, app):
    data, expected = every_option()
    form = {"csrf_token": csrf(client, "/play/new"), "mode": "hotseat", "preset": "classic", "first_dealer": "0"}
    form.update(
        {"players-0": "Ana", "kinds-0": "human", "players-1": "Robo", "kinds-1": "good", "suit_style": "spanish"}
    )
    response = client.post("/play/new", data={**form, **data})
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    with app.app_context():
        table = db.session.scalar(select(GameTable))
        assert table.kind == "digital"
        assert_rules(table.rules, expected)


def test_a_group_made_with_every_option_set_keeps_each_and_offers_them_to_its_tables(client, app):
    data, expected = every_option()
    form = {"csrf_token": csrf(client, "/groups/new"), "name": "Friday", "members": "Ana\nBen\nCarla"}
    response = client.post("/groups/new", data={**form, "preset": "classic", "currency": "EUR", **data})
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]
    token = response.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        assert_rules(db.session.scalar(select(Group)).rules, expected)
    # A new table in the group starts from the group's rules, every one of them.
    for path in ("/tables/new", "/play/new"):
        fields = sent_back(client, f"{path}?group={token}", path)
        assert {k: fields[k] for k in data} == data


def test_a_preset_and_nothing_else_gives_exactly_the_preset(client, app):
    for number, preset in enumerate(PRESETS, start=1):
        fields = sent_back(client, "/tables/new")  # every field as the page offers it
        fields.update({"preset": preset, "players-0": "Ana", "players-1": "Ben"})
        assert client.post("/tables/new", data=fields).status_code == 302
        with app.app_context():
            table = db.session.scalars(select(GameTable).order_by(GameTable.id)).all()[-1]
            assert {k: v for k, v in table.overrides.items() if k != "decks"} == {}
            assert table.rules.to_dict() | {"decks": PRESETS[preset].decks} == PRESETS[preset].to_dict()
        assert table_count(app) == number


def test_a_value_equal_to_the_presets_is_not_stored_but_a_limit_beside_a_new_close_rule_is(client, app):
    response = client.post(
        "/tables/new", data=table_form(client, jokers="0", target="100", close_rule="points", close_max="4")
    )
    table = table_of(app, response.headers["Location"].rsplit("/", 1)[1])
    assert table.overrides == {"close_rule": "points", "close_max": 4, "decks": 1}
    assert table.rules.close_max == 4  # the engine alone would reset it to the rule's 5


def test_the_joker_count_offers_exactly_what_the_engine_allows(client, app):
    html = client.get("/tables/new").get_data(as_text=True)
    select_html = re.search(r'<select id="jokers".*?</select>', html, re.S).group(0)
    assert re.findall(r'value="(\d*)"', select_html) == ["", "0", "1", "2", "3", "4"]
    assert (OPTIONS["jokers"].low, OPTIONS["jokers"].high) == (0, 4)
    token = create_table(client, ["Ana", "Ben"], jokers=3)
    assert table_of(app, token).rules.jokers == 3
    assert "3 jokers" in client.get(f"/t/{token}").get_data(as_text=True)


@pytest.mark.parametrize(
    "fields,field,message",
    [
        ({"jokers": "5"}, "jokers", "Not a valid choice"),
        ({"close_rule": "sometimes"}, "close_rule", "Not a valid choice"),
        ({"joker_points": "1001"}, "joker_points", "Type a whole number from 0 to 1,000."),
        ({"all_combined_bonus": "-1001"}, "all_combined_bonus", "Type a whole number from −1,000 to 1,000."),
        ({"all_combined_bonus": "ten"}, "all_combined_bonus", "Not a valid integer value."),
        ({"chinchon": "points"}, "chinchon_points", "Type the points."),
        ({"chinchon": "points", "chinchon_points": "5000"}, "chinchon_points", "from −1,000 to 1,000"),
        (
            {"joker_run_bonus": "points", "joker_run_bonus_points": "-50 x"},
            "joker_run_bonus_points",
            "Type whole numbers with a space between them",
        ),
        (
            {"joker_run_bonus": "points", "joker_run_bonus_points": "-50 -25 -10"},
            "joker_run_bonus_points",
            "Type 1 to 2 whole numbers, each from −1,000 to 1,000.",
        ),
        ({"wild_cards": "9z"}, "wild_cards", "&#39;9z&#39; is not a card."),
        ({"wild_cards": "8o"}, "wild_cards", "8o is not in the spanish40 deck."),
        ({"wild_cards": "*"}, "wild_cards", "Jokers are counted in their own field"),
        ({"stake": "0.505"}, "stake", "at most two decimals"),
        ({"reentry_min_players": "9"}, "reentry_min_players", "Not a valid choice"),
    ],
)
def test_bad_house_rules_say_why_on_their_field_and_store_nothing(client, app, fields, field, message):
    shown_first = {
        "/tables/new": {"jokers", "deck", "reentries", "target", "stake"},
        "/groups/new": {"target", "stake"},
    }
    for path, data in [
        ("/tables/new", table_form(client, **fields)),
        ("/groups/new", {"csrf_token": csrf(client, "/groups/new"), "name": "F", "members": "Ana\nBen", **fields}),
    ]:
        data.setdefault("preset", "classic")
        data.setdefault("currency", "EUR")
        response = client.post(path, data=data)
        html = response.get_data(as_text=True)
        assert response.status_code == 400, path
        error = re.search(rf'<p class="error" id="{field}-error" role="alert">([^<]*)</p>', html)
        assert error and message in error.group(1), (path, error and error.group(1))
        if field.removesuffix("_points") not in shown_first[path]:
            assert '<details class="panel more-rules" open>' in html  # the section opens on its error
    assert table_count(app) == 0
    with app.app_context():
        assert db.session.query(Group).count() == 0


def test_a_bad_house_rule_on_the_digital_form_is_refused_too(client, app):
    data = {"csrf_token": csrf(client, "/play/new"), "mode": "hotseat", "preset": "classic", "suit_style": "spanish"}
    data.update({"players-0": "Ana", "kinds-0": "human", "players-1": "Ben", "kinds-1": "human", "first_dealer": "0"})
    response = client.post("/play/new", data={**data, "max_wilds_per_meld": "14"})
    assert response.status_code == 400 and "Not a valid choice" in response.get_data(as_text=True)
    assert table_count(app) == 0


def test_bad_values_are_worded_in_the_pages_language(client, app):
    client.set_cookie("lang", "es")
    response = client.post("/tables/new", data=table_form(client, chinchon="points"))
    assert response.status_code == 400 and "Escribí" not in response.get_data(as_text=True)
    assert "Escribe los puntos." in response.get_data(as_text=True)
    client.set_cookie("lang", "es_AR")
    assert "Escribí los puntos." in client.post("/tables/new", data=table_form(client, chinchon="points")).get_data(
        as_text=True
    )


# -- who deals first ---------------------------------------------------------------------------------
def test_who_deals_first_names_the_members_of_a_group_and_the_rows_otherwise(client):
    html = client.get("/tables/new").get_data(as_text=True)
    dealer = re.search(r'<select id="first_dealer".*?</select>', html, re.S).group(0)
    assert "The player in row 1<" in dealer and "The player in row 8<" in dealer
    form = {"csrf_token": csrf(client, "/groups/new"), "name": "Friday", "members": "Ana\nBen\nCarla"}
    token = client.post("/groups/new", data={**form, "preset": "classic", "currency": "EUR"}).headers["Location"]
    html = client.get(f"/tables/new?group={token.rsplit('/', 1)[1]}").get_data(as_text=True)
    dealer = re.search(r'<select id="first_dealer".*?</select>', html, re.S).group(0)
    assert re.findall(r">([^<]+)</option>", dealer)[:4] == ["Ana", "Ben", "Carla", "The player in row 4"]


# -- the rules in a line -----------------------------------------------------------------------------
def test_the_rules_line_names_the_preset_the_target_and_what_differs(app):
    with app.test_request_context(headers={"Cookie": "lang=en"}):
        classic = get_rules("classic", court_values="ten", jokers=2)
        assert rules_line(classic) == "Classic: close with ≤ 4 · out over 100 · court cards count 10 · 2 jokers"
        assert rules_line(get_rules("fournier")) == "Fournier: close with ≤ 5 · out over 100"
        assert (
            rules_line(get_rules("italy", eliminate="reach", target=70))
            == "Italian: close with ≤ 5 · out on reaching 70"
        )
        # decks fixed from the players when the table was made is the preset's "auto"
        assert rules_line(get_rules("classic", decks=2), players=5) == "Classic: close with ≤ 4 · out over 100"
        assert (
            rules_line(get_rules("classic", decks=2), players=3) == "Classic: close with ≤ 4 · out over 100 · two decks"
        )
        assert (
            rules_line(get_rules("classic", close_max=3))
            == "Classic · out over 100 · close with one loose card up to 3"
        )
        assert (
            rules_line(get_rules("sweden", all_combined_bonus=-20, chinchon=-100, stake="0.5"))
            == "Swedish: close with ≤ 5 · out over 100 · −20 for all combined · a Chinchón scores −100 · stake 0.5"
        )


@pytest.mark.parametrize("name", [n for n in ON_FORMS if n not in ("target", "eliminate", "close_max")])
def test_each_option_set_away_from_the_preset_has_its_words_in_the_line(app, name):
    _fields, value = away(name)
    rules = get_rules("classic", **{name: value})
    with app.test_request_context(headers={"Cookie": "lang=en"}):
        text = option_text(name, rules.to_dict()[name], rules)
        assert not text.startswith(f"{HOUSE_RULES[name].label}:")  # not the fallback of an option without words
        # The preset is named by its close, unless the close is what changed.
        preset = "Classic" if name == "close_rule" else "Classic: close with ≤ 4"
        assert rules_line(rules) == f"{preset} · out over 100 · {text}"


def test_the_scoreboard_and_the_settings_show_the_rules_line_in_the_pages_language(client, app):
    token = create_table(client, ["Ana", "Ben"], court_values="ten", jokers="2")
    for path in (f"/t/{token}", f"/t/{token}/settings"):
        html = client.get(path).get_data(as_text=True)
        assert "Classic: close with ≤ 4 · out over 100 · court cards count 10 · 2 jokers" in html
    client.set_cookie("lang", "de")
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "Klassisch: schließen mit ≤ 4 · " in html and "2 Joker" in html and "out over" not in html


# -- changing the rules mid-match --------------------------------------------------------------------
def started_table(client, app) -> str:
    token = create_table(client, ["Ana", "Ben", "Carla"])
    enter_points(client, token, 0, {0: 3, 1: 10, 2: 20})
    return token


@pytest.mark.parametrize("name", [*MATCH_OPTIONS, *HAND_OPTIONS])
def test_the_owner_changes_each_rule_that_may_change_mid_match(client, app, name):
    """Every option of the match (target, going out, re-entries) and of how a
    hand is scored and played may change mid-match.  A hand already scored
    keeps the points it was stored with, so a scoring option such as
    ``close_max`` or ``court_values`` counts from the next hand on; the match
    options replay the hands (a change they no longer fit is refused).  That
    is how a table agrees on a house rule after the first hands ("from now on
    the figures count 10") without rewriting what was played.  The pack
    (deck, decks, jokers, wild cards) never changes: the hands entered hold
    its cards; the stake changes only before the first hand."""
    token = started_table(client, app)
    before = totals(client, token)
    fields = sent_back(client, f"/t/{token}/settings")
    assert "jokers" not in fields and "deck" not in fields and "stake" not in fields
    change, value = away(name)
    response = client.post(f"/t/{token}/settings", data={**fields, **change})
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]
    table = table_of(app, token)
    assert_rules(table.rules, {name: value})
    assert totals(client, token) == before


def test_the_settings_sent_back_unchanged_change_nothing(client, app):
    data, _expected = every_option()
    response = client.post("/tables/new", data=table_form(client, **data))
    token = response.headers["Location"].rsplit("/", 1)[1]
    before = table_of(app, token)
    response = client.post(f"/t/{token}/settings", data=sent_back(client, f"/t/{token}/settings"))
    assert response.status_code == 303
    after = table_of(app, token)
    assert after.rules == before.rules and after.overrides == before.overrides


def test_a_rule_left_as_the_preset_says_goes_back_to_the_presets(client, app):
    token = create_table(client, ["Ana", "Ben"], close_rule="points", chinchon="points", chinchon_points="-50")
    fields = sent_back(client, f"/t/{token}/settings")
    assert (fields["close_rule"], fields["close_max"], fields["chinchon_points"]) == ("points", "5", "-50")
    response = client.post(f"/t/{token}/settings", data={**fields, "close_rule": "", "close_max": "", "chinchon": ""})
    assert response.status_code == 303
    rules = table_of(app, token).rules
    assert (rules.close_rule, rules.close_max, rules.chinchon) == ("one_card", 4, "wins_match")


def test_a_change_the_hands_played_no_longer_fit_is_refused_on_its_field(client, app):
    token = started_table(client, app)
    enter_points(client, token, 1, {0: 5, 1: 3, 2: 7})
    fields = sent_back(client, f"/t/{token}/settings")  # with 10, Carla (20) would be out before hand 2
    response = client.post(f"/t/{token}/settings", data={**fields, "target": "10"})
    assert response.status_code == 400 and 'id="target-error"' in response.get_data(as_text=True)
    assert table_of(app, token).rules.target == 100


def test_the_stake_changes_only_before_the_first_hand(client, app):
    token = create_table(client, ["Ana", "Ben", "Carla"], stake="1")
    fields = sent_back(client, f"/t/{token}/settings")
    assert fields["stake"] == "1"
    assert client.post(f"/t/{token}/settings", data={**fields, "stake": "2"}).status_code == 303
    assert str(table_of(app, token).rules.stake) == "2"
    enter_points(client, token, 0, {0: 3, 1: 10, 2: 20})
    html = client.get(f"/t/{token}/settings").get_data(as_text=True)
    assert 'name="stake"' not in html and "everybody has paid it" in html
    with app.app_context():
        table = db.session.scalar(select(GameTable))
        with pytest.raises(ServiceError) as refused, transaction():
            change_settings(table, table.version, "", {"stake": "3"})
        assert (refused.value.params["key"], refused.value.field) == ("rule_fixed", "rules.stake")
        with pytest.raises(ServiceError), transaction():
            change_settings(table, table.version, "", {"jokers": 2})
    assert str(table_of(app, token).rules.stake) == "2" and table_of(app, token).rules.jokers == 0


def test_a_digital_table_changes_only_the_rules_of_the_match(client, app):
    form = {"csrf_token": csrf(client, "/play/new"), "mode": "hotseat", "preset": "classic", "first_dealer": "0"}
    form.update(
        {"players-0": "Ana", "kinds-0": "human", "players-1": "Robo", "kinds-1": "good", "suit_style": "spanish"}
    )
    token = client.post("/play/new", data=form).headers["Location"].split("/")[2]
    fields = sent_back(client, f"/t/{token}/settings")
    assert set(MATCH_OPTIONS) <= set(fields) and not set(HAND_OPTIONS) & set(fields)
    assert client.post(f"/t/{token}/settings", data={**fields, "eliminate": "reach"}).status_code == 303
    assert table_of(app, token).rules.eliminate == "reach"


def test_the_group_settings_change_every_option(client, app):
    form = {"csrf_token": csrf(client, "/groups/new"), "name": "Friday", "members": "Ana\nBen\nCarla"}
    token = client.post("/groups/new", data={**form, "preset": "classic", "currency": "EUR"}).headers["Location"]
    token = token.rsplit("/", 1)[1]
    data, expected = every_option()
    fields = sent_back(client, f"/g/{token}/settings")
    assert client.post(f"/g/{token}/settings", data={**fields, **data}).status_code == 303
    with app.app_context():
        group = db.session.scalar(select(Group))
        assert_rules(group.rules, expected)
        kept = dict(group.overrides)
        assert kept["stake"] == "0.5"  # as typed
    assert client.post(f"/g/{token}/settings", data=sent_back(client, f"/g/{token}/settings")).status_code == 303
    with app.app_context():
        assert db.session.scalar(select(Group)).overrides == kept  # sent back unchanged: nothing changes


@pytest.mark.parametrize("stake", ["NaN", "sNaN", "Infinity", "-inf"])
def test_a_stake_that_is_not_a_number_is_refused_on_its_field(client, app, stake):
    """Found by the form fuzzer: "NaN" passes WTForms' NumberRange and answered 500."""
    response = client.post("/tables/new", data=table_form(client, stake=stake))
    assert response.status_code == 400 and table_count(app) == 0
    assert "Not a valid decimal value." in response.get_data(as_text=True)
