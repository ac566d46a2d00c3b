"""tournaments: organizers, players, rounds of tables, and what was said about each table's result

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 19:18:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_token", sa.String(length=40), nullable=False),
        sa.Column("player_token", sa.String(length=40), nullable=False),
        sa.Column("watch_token", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("preset", sa.String(length=20), nullable=False),
        sa.Column("overrides", sa.JSON(), nullable=False),
        sa.Column("format", sa.String(length=10), nullable=False),
        sa.Column("advance", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("round_hands", sa.Integer(), nullable=False),
        sa.Column("round_minutes", sa.Integer(), nullable=False),
        sa.Column("scale", sa.JSON(), nullable=False),
        sa.Column("reseat", sa.String(length=10), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("entry_cents", sa.Integer(), nullable=False),
        sa.Column("prizes", sa.JSON(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"], ["groups.id"], name=op.f("fk_tournaments_group_id_groups"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournaments_owner_token"), ["owner_token"], unique=True)
        batch_op.create_index(batch_op.f("ix_tournaments_player_token"), ["player_token"], unique=True)
        batch_op.create_index(batch_op.f("ix_tournaments_watch_token"), ["watch_token"], unique=True)

    op.create_table(
        "tournament_players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("key", sa.String(length=80), nullable=False),
        sa.Column("withdrawn_after", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_players_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_players")),
        sa.UniqueConstraint("tournament_id", "key", name=op.f("uq_tournament_players_tournament_id")),
    )
    with op.batch_alter_table("tournament_players", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournament_players_tournament_id"), ["tournament_id"], unique=False)

    op.create_table(
        "tournament_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("undone_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_rounds_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_rounds")),
    )
    with op.batch_alter_table("tournament_rounds", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournament_rounds_tournament_id"), ["tournament_id"], unique=False)

    op.create_table(
        "table_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("places", sa.JSON(), nullable=False),
        sa.Column("by", sa.String(length=40), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name=op.f("fk_table_results_table_id_game_tables"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_results")),
    )
    with op.batch_alter_table("table_results", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_table_results_table_id"), ["table_id"], unique=False)

    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("round_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("round_table", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("hand_limit", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("closed_at", sa.DateTime(), nullable=True))
        batch_op.create_index(batch_op.f("ix_game_tables_round_id"), ["round_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_game_tables_round_id_tournament_rounds"),
            "tournament_rounds",
            ["round_id"],
            ["id"],
            ondelete="CASCADE",
        )


def downgrade():
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_game_tables_round_id_tournament_rounds"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_game_tables_round_id"))
        batch_op.drop_column("closed_at")
        batch_op.drop_column("hand_limit")
        batch_op.drop_column("round_table")
        batch_op.drop_column("round_id")

    with op.batch_alter_table("table_results", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_table_results_table_id"))

    op.drop_table("table_results")
    with op.batch_alter_table("tournament_rounds", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_rounds_tournament_id"))

    op.drop_table("tournament_rounds")
    with op.batch_alter_table("tournament_players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_players_tournament_id"))

    op.drop_table("tournament_players")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournaments_watch_token"))
        batch_op.drop_index(batch_op.f("ix_tournaments_player_token"))
        batch_op.drop_index(batch_op.f("ix_tournaments_owner_token"))

    op.drop_table("tournaments")
