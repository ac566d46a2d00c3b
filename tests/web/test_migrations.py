"""Upgrading a database that holds matches keeps every row.

On SQLite, Alembic's batch mode rebuilds a table to add a foreign key or a
constraint (copy, drop the old one, rename).  The app's connections turn
foreign keys on, and dropping a table with them on deletes every row that
refers to it (``ON DELETE CASCADE``): the 0004 upgrade rebuilt
``game_tables`` and took every table's players, hands and their cards with
it.  Migrations run with foreign keys off and check them once done."""

from __future__ import annotations

from sqlalchemy import MetaData, Table, func, insert, inspect, select, text

from companion.extensions import db

from .helpers import forget_migrations, migrated_to

#: The tables of the first schema, parents first.
FIRST = ("game_tables", "players", "hands", "entries", "reentries")


def counts() -> dict[str, int]:
    with db.engine.connect() as connection:
        return {t: connection.scalar(text(f"SELECT count(*) FROM {t}")) for t in FIRST}


def test_upgrading_a_database_of_the_first_schema_keeps_every_table_player_hand_and_card(app):
    from flask_migrate import upgrade

    with app.app_context():
        migrated_to("0001")
        with db.engine.begin() as connection:
            t = {name: Table(name, MetaData(), autoload_with=connection) for name in FIRST}
            when = func.now()
            for n in range(2):
                connection.execute(
                    insert(t["game_tables"]).values(
                        player_token=f"p{n}",
                        owner_token=f"o{n}",
                        watch_token=f"w{n}",
                        name=f"T{n}",
                        kind="physical",
                        preset="classic",
                        overrides={},
                        suit_style="spanish",
                        first_dealer=0,
                        version=3,
                        created_at=when,
                        updated_at=when,
                    )
                )
            tables = connection.scalars(select(t["game_tables"].c.id)).all()
            for table_id in tables:
                connection.execute(
                    insert(t["players"]), [{"table_id": table_id, "seat": s, "name": n} for s, n in enumerate("AB")]
                )
                connection.execute(
                    insert(t["hands"]).values(
                        table_id=table_id,
                        number=1,
                        mode="cards",
                        closer_seat=0,
                        dealer_seat=1,
                        first_round=False,
                        chinchon=False,
                        wins_match=False,
                        submission=f"s{table_id}",
                        created_at=when,
                    )
                )
                hand_id = connection.scalar(select(func.max(t["hands"].c.id)))
                connection.execute(
                    insert(t["entries"]),
                    [
                        {
                            "hand_id": hand_id,
                            "seat": s,
                            "cards": "1o 2o 3o",
                            "melds": [],
                            "layoffs": [],
                            "deadwood": "",
                            "points": s * 6,
                            "choice": 0,
                        }
                        for s in range(2)
                    ],
                )
                connection.execute(
                    insert(t["reentries"]).values(
                        table_id=table_id, after_hand=1, seat=1, submission=f"r{table_id}", created_at=when
                    )
                )
        before = counts()
        assert before == {"game_tables": 2, "players": 4, "hands": 2, "entries": 4, "reentries": 2}
        upgrade()
        assert counts() == before
        assert "submission" in {c["name"] for c in inspect(db.engine).get_columns("game_tables")}  # at the head
        with db.engine.connect() as connection:
            assert connection.scalar(text("SELECT owner_token FROM game_tables ORDER BY id LIMIT 1")) == "o0"
            if connection.dialect.name == "sqlite":  # foreign keys are on again for the app's connection
                assert connection.scalar(text("PRAGMA foreign_keys")) == 1
        db.drop_all()
        forget_migrations()
