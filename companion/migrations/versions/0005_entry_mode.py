"""hand entry: the table remembers how hands were entered last

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 17:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("entry_mode", sa.String(length=10), nullable=False, server_default="cards"))


def downgrade():
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.drop_column("entry_mode")
