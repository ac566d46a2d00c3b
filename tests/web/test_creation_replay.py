"""A creation form sent again (a phone's Back, then Create) leads to what it
made instead of making a second one: the table, tournament and group forms
each carry a one-time submission id, drawn with the form and kept when it is
drawn again with an error.  Also: the refusal of two players of one name
names the name."""

from __future__ import annotations

import pytest
from sqlalchemy import MetaData, Table, insert, inspect, select, text

from companion.extensions import db
from companion.models import GameTable, Group, Tournament

from .helpers import field, forget_migrations, migrated_to

#: Each creation form: its address, what a person types in it, a mistake the
#: form sends back, the page its owner link opens, its row.
FORMS = {
    "table": (
        "/tables/new",
        {"preset": "classic", "first_dealer": "0", "jokers": "0", "target": "100", "suit_style": "spanish"}
        | {"players-0": "Ana", "players-1": "Ben", "players-2": "Carla"},
        {"players-1": "", "players-2": ""},
        "/t/",
        GameTable,
    ),
    "tournament": (
        "/tournaments/new",
        {"name": "Copa del Bar", "players": "Ana\nBen\nCarla\nDani", "preset": "classic", "format": "knockout"}
        | {"advance": "1", "rounds": "3", "round_hands": "0", "round_minutes": "0", "scale": "4-2-1-0"}
        | {"reseat": "standing", "entry": "", "currency": "EUR", "prizes": "100", "target": "50", "jokers": "0"},
        {"players": "Ana"},
        "/c/",
        Tournament,
    ),
    "digital": (
        "/play/new",
        {"mode": "hotseat", "preset": "classic", "first_dealer": "0", "jokers": "0", "target": "100"}
        | {"suit_style": "spanish", "players-0": "Ana", "kinds-0": "human", "players-1": "Robot", "kinds-1": "good"}
        | {"players-2": "Carla", "kinds-2": "human"},
        {"players-1": "", "players-2": ""},
        "/t/",
        GameTable,
    ),
    "group": (
        "/groups/new",
        {"name": "Friday", "members": "Ana\nBen", "preset": "classic", "target": "100", "currency": "EUR"},
        {"members": "Ana"},
        "/g/",
        Group,
    ),
}
KINDS = pytest.mark.parametrize("kind", list(FORMS))

#: What a form sent again says, by language (the page's language cookie).
ALREADY = {
    ("en", "table"): "This table was already created: here it is.",
    ("en", "tournament"): "This tournament was already created: here it is.",
    ("en", "group"): "This group was already created: here it is.",
    ("en", "digital"): "This table was already created: here it is.",
    ("es_AR", "digital"): "Esta mesa ya estaba creada: acá la tenés.",
    ("es_AR", "table"): "Esta mesa ya estaba creada: acá la tenés.",
    ("es_AR", "tournament"): "Este torneo ya estaba creado: acá lo tenés.",
    ("es_AR", "group"): "Este grupo ya estaba creado: acá lo tenés.",
}


def drawn(client, kind: str) -> dict[str, str]:
    """The form as a phone gets it, filled in: its hidden fields and what is typed."""
    path, typed, *_rest = FORMS[kind]
    html = client.get(path).get_data(as_text=True)
    return {"csrf_token": field(html, "csrf_token"), "submission": field(html, "submission"), **typed}


def rows(app, kind: str) -> list:
    model = FORMS[kind][4]
    with app.app_context():
        return list(db.session.execute(select(model.owner_token, model.submission).order_by(model.id)))


def owner_page(kind: str, response) -> str:
    """The owner link a creation's answer leads to (a digital table's: its play page)."""
    prefix = FORMS[kind][3]
    location = response.headers["Location"]
    assert location.startswith(prefix), location
    if kind == "digital":
        assert location.endswith("/play"), location
    return location.removeprefix(prefix).removesuffix("/play")


def flashed(client) -> list[tuple[str, str]]:
    with client.session_transaction() as session:
        return list(session.get("_flashes", []))


@KINDS
@pytest.mark.parametrize("lang", ["en", "es_AR"])
def test_a_creation_form_sent_again_leads_to_what_it_made(client, app, kind, lang):
    client.set_cookie("lang", lang)
    form = drawn(client, kind)
    assert len(form["submission"]) == 32 and int(form["submission"], 16) >= 0
    first = client.post(FORMS[kind][0], data=form)
    assert first.status_code in (302, 303), first.get_data(as_text=True)[:2000]
    token = owner_page(kind, first)
    client.get(first.headers["Location"])  # the new page shows (and takes) the "created" news
    again = client.post(FORMS[kind][0], data=form)  # Back, then Create: the very same body
    assert again.status_code == 303 and owner_page(kind, again) == token
    assert flashed(client) == [("ok", ALREADY[lang, kind])]
    page = client.get(again.headers["Location"]).get_data(as_text=True)
    assert ALREADY[lang, kind] in page
    assert rows(app, kind) == [(token, form["submission"])]


@KINDS
def test_a_form_drawn_again_with_a_mistake_keeps_its_id_and_creates_once(client, app, kind):
    form = drawn(client, kind)
    wrong = client.post(FORMS[kind][0], data={**form, **FORMS[kind][2]})
    assert wrong.status_code == 400 and rows(app, kind) == []
    assert field(wrong.get_data(as_text=True), "submission") == form["submission"]
    made = client.post(FORMS[kind][0], data=form)  # put right and sent
    again = client.post(FORMS[kind][0], data=form)
    assert owner_page(kind, made) == owner_page(kind, again) and len(rows(app, kind)) == 1


@KINDS
def test_two_forms_make_two(client, app, kind):
    tokens = {owner_page(kind, client.post(FORMS[kind][0], data=drawn(client, kind))) for _ in range(2)}
    assert len(tokens) == 2 and len(rows(app, kind)) == 2


@KINDS
@pytest.mark.parametrize("sent", [None, ""], ids=["missing", "empty"])
def test_a_form_without_an_id_is_a_fresh_creation(client, app, kind, sent):
    """An older page or a client of its own: each sending creates, under an id of its own."""
    form = drawn(client, kind)
    del form["submission"]
    if sent is not None:
        form["submission"] = sent
    answers = [client.post(FORMS[kind][0], data=form) for _ in range(2)]
    assert all(a.status_code in (302, 303) for a in answers)
    made = rows(app, kind)
    assert [r.owner_token for r in made] == [owner_page(kind, a) for a in answers]
    assert len({r.submission for r in made}) == 2 and all(len(r.submission) == 32 for r in made)


@KINDS
@pytest.mark.parametrize("garbled", ["0" * 33, "g" * 32, "A" * 32, "x' OR 1=1 --"])
def test_a_garbled_id_is_refused_and_matches_nothing(client, app, kind, garbled):
    """An id no page of the app makes is refused before any view (app.py
    ``_input_guards``): it never reaches the record, so it can lead to no
    owner link, not even one it would match."""
    form = drawn(client, kind)
    client.post(FORMS[kind][0], data=form)
    made = rows(app, kind)
    for forged in (garbled, form["submission"] + "0"):
        response = client.post(FORMS[kind][0], data={**form, "submission": forged})
        assert response.status_code == 400 and "Location" not in response.headers
        assert "This form is not one this app made." in response.get_data(as_text=True)
    assert rows(app, kind) == made


def test_a_table_started_in_a_group_and_sent_again_counts_once(client, app):
    group = client.post("/groups/new", data=drawn(client, "group")).headers["Location"].removeprefix("/g/")
    html = client.get(f"/tables/new?group={group}").get_data(as_text=True)
    form = {name: field(html, name) for name in ("csrf_token", "submission", "group")} | FORMS["table"][1]
    first, again = (client.post("/tables/new", data=form) for _ in range(2))
    assert owner_page("table", first) == owner_page("table", again)
    with app.app_context():
        group_id = db.session.scalar(select(Group.id).where(Group.owner_token == group))
        assert db.session.scalars(select(GameTable.group_id)).all() == [group_id]


# -- two players of one name ------------------------------------------------------------------
NAMED = {
    "en": "Two players are called Ana; give each a different name.",
    "es_AR": "Hay dos jugadores que se llaman Ana; ponele a cada uno un nombre distinto.",
}
#: A group's form says members, as its field does.
MEMBERS = {
    "en": "Two members are called Ana; give each a different name.",
    "es_AR": "Hay dos miembros que se llaman Ana; ponele a cada uno un nombre distinto.",
}


@KINDS
@pytest.mark.parametrize("lang", ["en", "es_AR"])
def test_two_players_of_one_name_are_told_which_name(client, app, kind, lang):
    """The first of the two as typed (spaces put right), in the page's language."""
    client.set_cookie("lang", lang)
    twice = {
        "table": {"players-1": " Ana ", "players-2": "ANA"},
        "digital": {"players-2": " ANA"},
        "tournament": {"players": "Ana\nBen\n ana\nDani"},
        "group": {"members": "Ana\nBen\n ana"},
    }[kind]
    response = client.post(FORMS[kind][0], data={**drawn(client, kind), **twice})
    html = response.get_data(as_text=True)
    said = (MEMBERS if kind == "group" else NAMED)[lang]
    assert response.status_code == 400 and said in html
    assert rows(app, kind) == []


def test_the_api_names_the_name_at_the_same_field(client):
    response = client.post("/api/v1/match", json={"players": ["Ana", "Ben", "ana"], "events": []})
    assert response.status_code == 400
    assert response.get_json() == {
        "error": "Two players are called Ana; give each a different name.",
        "field": "players",
    }


# -- the migration ----------------------------------------------------------------------------------
def test_the_creation_ids_migration_keeps_every_row(app):
    """0016 → 0017 → 0016 with rows in place: the column and its unique index
    come and go without rebuilding a table (SQLite's rebuild, with foreign
    keys on, would delete every row that refers to it)."""
    from flask_migrate import downgrade, upgrade

    children = ("players", "group_members", "seasons", "tournament_players")

    def counts() -> dict[str, int]:
        with db.engine.connect() as connection:
            return {
                t: connection.scalar(text(f"SELECT count(*) FROM {t}"))
                for t in ("game_tables", "groups", "tournaments", *children)
            }

    with app.app_context():
        migrated_to("0016")
        with db.engine.begin() as connection:
            schema = MetaData()
            t = {
                name: Table(name, schema, autoload_with=connection)
                for name in ("game_tables", "groups", "tournaments", *children)
            }
            when = {"created_at": db.func.now(), "updated_at": db.func.now()}
            connection.execute(
                insert(t["groups"]).values(
                    owner_token="go",
                    member_token="gm",
                    watch_token="gw",
                    name="G",
                    preset="classic",
                    overrides={},
                    currency="EUR",
                    **when,
                )
            )
            group_id = connection.scalar(select(t["groups"].c.id))
            connection.execute(
                insert(t["group_members"]).values(group_id=group_id, position=0, name="Ana", key="ana", aliases=[])
            )
            connection.execute(insert(t["seasons"]).values(group_id=group_id, number=1, started_at=db.func.now()))
            connection.execute(
                insert(t["game_tables"]).values(
                    player_token="p",
                    owner_token="o",
                    watch_token="w",
                    name="T",
                    kind="physical",
                    preset="classic",
                    overrides={},
                    suit_style="spanish",
                    first_dealer=0,
                    version=1,
                    entry_mode="cards",
                    hints_allowed=True,
                    turn_clock="off",
                    group_id=group_id,
                    **when,
                )
            )
            table_id = connection.scalar(select(t["game_tables"].c.id))
            connection.execute(
                insert(t["players"]).values(
                    [{"table_id": table_id, "seat": s, "name": n} for s, n in enumerate(["Ana", "Ben"])]
                )
            )
            connection.execute(
                insert(t["tournaments"]).values(
                    owner_token="to",
                    player_token="tp",
                    watch_token="tw",
                    name="Copa",
                    preset="classic",
                    overrides={},
                    format="knockout",
                    advance=1,
                    rounds=3,
                    round_hands=0,
                    round_minutes=0,
                    scale=[4, 2, 1, 0],
                    reseat="standing",
                    currency="EUR",
                    entry_cents=0,
                    prizes=[100],
                    play="cards",
                    bots="",
                    duplicate=False,
                    seed=7,
                    version=1,
                    **when,
                )
            )
            tournament_id = connection.scalar(select(t["tournaments"].c.id))
            connection.execute(
                insert(t["tournament_players"]).values(tournament_id=tournament_id, position=0, name="Ana", key="ana")
            )
        before = counts()
        assert all(before.values())
        upgrade()
        assert counts() == before
        with db.engine.connect() as connection:
            assert connection.scalar(text("SELECT group_id FROM game_tables")) == group_id
        for name in ("game_tables", "groups", "tournaments"):
            indexes = {i["name"]: i for i in inspect(db.engine).get_indexes(name)}
            assert indexes[f"ix_{name}_submission"]["unique"], name
        downgrade(revision="0016")
        assert counts() == before
        assert "submission" not in {c["name"] for c in inspect(db.engine).get_columns("groups")}
        upgrade()
        forget_migrations()
