"""hand reviews: the expert's judgement of a finished digital hand, kept with its deal

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02 02:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("deals") as batch_op:
        batch_op.add_column(sa.Column("review", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("deals") as batch_op:
        batch_op.drop_column("review")
