"""a seed and its commitment for every digital deal, so anybody can check the shuffle

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-10 20:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("deals") as batch_op:
        batch_op.add_column(sa.Column("seed", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("commitment", sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table("deals") as batch_op:
        batch_op.drop_column("commitment")
        batch_op.drop_column("seed")
