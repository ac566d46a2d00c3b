"""groups: members, seasons, payments, and the group a table counts for

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 16:40:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "groups",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_token", sa.String(length=40), nullable=False),
        sa.Column("member_token", sa.String(length=40), nullable=False),
        sa.Column("watch_token", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("preset", sa.String(length=20), nullable=False),
        sa.Column("overrides", sa.JSON(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_groups")),
    )
    with op.batch_alter_table("groups", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_groups_owner_token"), ["owner_token"], unique=True)
        batch_op.create_index(batch_op.f("ix_groups_member_token"), ["member_token"], unique=True)
        batch_op.create_index(batch_op.f("ix_groups_watch_token"), ["watch_token"], unique=True)

    op.create_table(
        "group_members",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("key", sa.String(length=80), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"], ["groups.id"], name=op.f("fk_group_members_group_id_groups"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_group_members")),
        sa.UniqueConstraint("group_id", "key", name=op.f("uq_group_members_group_id")),
    )
    with op.batch_alter_table("group_members", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_group_members_group_id"), ["group_id"], unique=False)

    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"], ["groups.id"], name=op.f("fk_seasons_group_id_groups"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seasons")),
        sa.UniqueConstraint("group_id", "number", name=op.f("uq_seasons_group_id")),
    )
    with op.batch_alter_table("seasons", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seasons_group_id"), ["group_id"], unique=False)

    op.create_table(
        "payments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("payer", sa.String(length=40), nullable=False),
        sa.Column("payee", sa.String(length=40), nullable=False),
        sa.Column("cents", sa.Integer(), nullable=False),
        sa.Column("submission", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"], ["groups.id"], name=op.f("fk_payments_group_id_groups"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_payments")),
        sa.UniqueConstraint("submission", name=op.f("uq_payments_submission")),
    )
    with op.batch_alter_table("payments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_payments_group_id"), ["group_id"], unique=False)

    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("group_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_game_tables_group_id"), ["group_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_game_tables_group_id_groups"), "groups", ["group_id"], ["id"], ondelete="SET NULL"
        )


def downgrade():
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_game_tables_group_id_groups"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_game_tables_group_id"))
        batch_op.drop_column("group_id")

    with op.batch_alter_table("payments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_payments_group_id"))
    op.drop_table("payments")
    with op.batch_alter_table("seasons", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seasons_group_id"))
    op.drop_table("seasons")
    with op.batch_alter_table("group_members", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_group_members_group_id"))
    op.drop_table("group_members")
    with op.batch_alter_table("groups", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_groups_watch_token"))
        batch_op.drop_index(batch_op.f("ix_groups_member_token"))
        batch_op.drop_index(batch_op.f("ix_groups_owner_token"))
    op.drop_table("groups")
