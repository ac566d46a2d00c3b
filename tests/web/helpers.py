"""Drive the app like a phone would: read the page, send its form back."""

from __future__ import annotations

import re
import uuid
from types import SimpleNamespace

from sqlalchemy import or_, select, text

from companion.extensions import db
from companion.models import GameTable, Hand


def field(html: str, name: str) -> str:
    """The value of the input called ``name`` (attributes in any order)."""
    for tag in re.findall(r"<input\b[^>]*>", html):
        if re.search(rf'\bname="{re.escape(name)}"', tag):
            match = re.search(r'\bvalue="([^"]*)"', tag)
            return match.group(1) if match else ""
    raise AssertionError(f"no field {name}")


def csrf(client, path: str = "/tables/new") -> str:
    return field(client.get(path).get_data(as_text=True), "csrf_token")


def create_table(client, names, preset="classic", **variants) -> str:
    """Create a table through the form; returns the owner token."""
    data = {
        "csrf_token": csrf(client),
        "preset": preset,
        "first_dealer": "0",
        "jokers": "0",
        "target": "100",
        "suit_style": "spanish",
    }
    data.update({f"players-{i}": n for i, n in enumerate(names)})
    data.update({k: str(v) for k, v in variants.items()})
    response = client.post("/tables/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    return response.headers["Location"].rsplit("/", 1)[1]


def decide_reentry(client, token: str, seat: int, *, buy: bool = True, expect: int = 303):
    """Answer "buy back in?" for ``seat`` with the scoreboard's own form."""
    html = client.get(f"/t/{token}").get_data(as_text=True)
    response = client.post(
        f"/t/{token}/reentry",
        data={
            "csrf_token": field(html, "csrf_token"),
            "version": field(html, "version"),
            "seat": str(seat),
            "submission": uuid.uuid4().hex,
            "decision": "yes" if buy else "no",
        },
    )
    assert response.status_code == expect
    return response


def rematch(client, token: str):
    """Press "Rematch" on the finished scoreboard (its form, with the table's version)."""
    html = client.get(f"/t/{token}").get_data(as_text=True)
    version = re.search(
        r'action="/t/[^"]+/rematch">\s*<input[^>]*>\s*<input type="hidden" name="version" value="(\d+)"', html
    )
    data = {"csrf_token": field(html, "csrf_token"), "version": version.group(1) if version else ""}
    return client.post(f"/t/{token}/rematch", data=data)


def hand_form(client, token: str, number: int | None = None) -> dict[str, str]:
    path = f"/t/{token}/hands/{number}/edit" if number else f"/t/{token}/hands/new"
    html = client.get(path).get_data(as_text=True)
    return {
        "csrf_token": field(html, "csrf_token"),
        "version": field(html, "version"),
        "submission": field(html, "submission"),
    }


def enter_cards(client, token, closer, hands, *, discard="", number=None, extra=None, expect=303):
    """Enter a hand with cards (``hands``: seat → "tokens"); returns the response."""
    data = hand_form(client, token, number)
    data.update({"closer": str(closer), "mode": "cards", "action": "save", "discard": discard})
    data.update({f"h{seat}": cards for seat, cards in hands.items()})
    data.update(extra or {})
    path = f"/t/{token}/hands/{number}/edit" if number else f"/t/{token}/hands/new"
    response = client.post(path, data=data)
    assert response.status_code == expect, response.get_data(as_text=True)[:3000]
    return response


def post_hand(client, token, fields, *, save=True, expect=303):
    """The new-hand form sent with ``fields`` (saved, or only checked)."""
    data = hand_form(client, token)
    data.update(fields)
    if save:
        data["action"] = "save"
    response = client.post(f"/t/{token}/hands/new", data=data)
    assert response.status_code == expect, response.get_data(as_text=True)[-3000:]
    return response


def enter_points(client, token, closer, points, *, chinchon=False, expect=303, number=None):
    data = hand_form(client, token, number)
    data.update({"closer": str(closer), "mode": "points", "action": "save"})
    data.update({f"p{seat}": str(p) for seat, p in points.items()})
    if chinchon:
        data["chinchon"] = "y"
    path = f"/t/{token}/hands/{number}/edit" if number else f"/t/{token}/hands/new"
    response = client.post(path, data=data)
    assert response.status_code == expect, response.get_data(as_text=True)[:3000]
    return response


def totals(client, token) -> list[int]:
    html = client.get(f"/t/{token}").get_data(as_text=True)
    return [int(t) for t in re.findall(r'class="total">(-?\d+)<', html)]


def table_of(app, token) -> SimpleNamespace:
    """A detached snapshot of the table behind ``token``."""
    with app.app_context():
        table = db.session.scalar(
            select(GameTable).where(or_(GameTable.owner_token == token, GameTable.player_token == token))
        )
        return SimpleNamespace(
            names=table.names,
            preset=table.preset,
            overrides=dict(table.overrides),
            rules=table.rules,
            version=table.version,
            first_dealer=table.first_dealer,
            owner_token=table.owner_token,
            player_token=table.player_token,
            watch_token=table.watch_token,
            group_id=table.group_id,
        )


def hand_count(app) -> int:
    with app.app_context():
        return db.session.query(Hand).count()


def table_count(app) -> int:
    with app.app_context():
        return db.session.query(GameTable).count()


GERMAN = {0: "11c 11e 11b 5o 6o 7o 3c 12e", 1: "5b 5c 5e 4o 12o 2c 1c", 2: "2e 3b 6c 7b 10e 12c 12b"}


def forget_migrations() -> None:
    """Drop the migrations' own record (inside an app context)."""
    with db.engine.begin() as connection:
        connection.execute(text("DROP TABLE IF EXISTS alembic_version"))


def migrated_to(revision: str = "head") -> None:
    """An empty database built by the migrations up to ``revision``, not by
    the models (inside an app context)."""
    from flask_migrate import upgrade

    db.drop_all()
    forget_migrations()
    upgrade(revision=revision)
