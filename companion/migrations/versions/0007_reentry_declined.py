"""re-entries: a player who went out may say no (the next hand waits for the decision)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 09:40:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("reentries", schema=None) as batch_op:
        batch_op.add_column(sa.Column("declined", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade():
    with op.batch_alter_table("reentries", schema=None) as batch_op:
        batch_op.drop_column("declined")
