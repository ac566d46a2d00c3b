"""presence of a seat's phone, the computer playing a seat for a person who left, and a "no" for one away

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03 18:40:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("players") as batch_op:
        batch_op.add_column(sa.Column("seen_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("stand_in_since", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("stand_in_by", sa.String(length=40), server_default="", nullable=False))
    with op.batch_alter_table("deals") as batch_op:
        batch_op.add_column(sa.Column("covered", sa.JSON(), nullable=True))
    with op.batch_alter_table("reentries") as batch_op:
        batch_op.add_column(sa.Column("away", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade():
    with op.batch_alter_table("reentries") as batch_op:
        batch_op.drop_column("away")
    with op.batch_alter_table("deals") as batch_op:
        batch_op.drop_column("covered")
    with op.batch_alter_table("players") as batch_op:
        batch_op.drop_column("stand_in_by")
        batch_op.drop_column("stand_in_since")
        batch_op.drop_column("seen_at")
