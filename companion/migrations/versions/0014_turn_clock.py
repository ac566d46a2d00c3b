"""a turn clock for digital tables, a hand called off before anybody moved, a seat open on two phones

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03 21:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game_tables") as batch_op:
        batch_op.add_column(sa.Column("turn_clock", sa.String(length=10), server_default="off", nullable=False))
    with op.batch_alter_table("deals") as batch_op:
        batch_op.add_column(sa.Column("clock", sa.String(length=10), server_default="off", nullable=False))
        batch_op.add_column(sa.Column("turn_since", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("reserves", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("called_off", sa.Boolean(), server_default=sa.false(), nullable=False))
    with op.batch_alter_table("players") as batch_op:
        batch_op.add_column(sa.Column("seen_by", sa.String(length=40), server_default="", nullable=False))
        batch_op.add_column(sa.Column("shared_at", sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table("players") as batch_op:
        batch_op.drop_column("shared_at")
        batch_op.drop_column("seen_by")
    with op.batch_alter_table("deals") as batch_op:
        batch_op.drop_column("called_off")
        batch_op.drop_column("reserves")
        batch_op.drop_column("turn_since")
        batch_op.drop_column("clock")
    with op.batch_alter_table("game_tables") as batch_op:
        batch_op.drop_column("turn_clock")
