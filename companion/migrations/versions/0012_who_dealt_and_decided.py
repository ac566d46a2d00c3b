"""who dealt a digital hand and who answered a buy-back, told to a phone that asked a moment later

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03 16:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("deals") as batch_op:
        batch_op.add_column(sa.Column("dealt_by", sa.String(length=40), server_default="", nullable=False))
    with op.batch_alter_table("reentries") as batch_op:
        batch_op.add_column(sa.Column("decided_by", sa.String(length=40), server_default="", nullable=False))


def downgrade():
    with op.batch_alter_table("reentries") as batch_op:
        batch_op.drop_column("decided_by")
    with op.batch_alter_table("deals") as batch_op:
        batch_op.drop_column("dealt_by")
