"""digital play: hints may be turned off per table; each deal lists the hints asked

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30 19:40:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("hints_allowed", sa.Boolean(), nullable=False, server_default=sa.true()))
    with op.batch_alter_table("deals", schema=None) as batch_op:
        batch_op.add_column(sa.Column("hints", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("deals", schema=None) as batch_op:
        batch_op.drop_column("hints")
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.drop_column("hints_allowed")
