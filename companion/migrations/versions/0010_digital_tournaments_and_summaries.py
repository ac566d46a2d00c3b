"""digital tournaments and table summaries: where a tournament's tables play, who may fill their seats, and each table's match as pages of many tables show it

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 23:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("tournaments") as batch_op:
        batch_op.add_column(sa.Column("play", sa.String(length=10), nullable=False, server_default="cards"))
        batch_op.add_column(sa.Column("bots", sa.String(length=10), nullable=False, server_default=""))
    # Empty until a table's next write: until then its pages replay its hands, as before.
    with op.batch_alter_table("game_tables") as batch_op:
        batch_op.add_column(sa.Column("summary", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("summary_version", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("game_tables") as batch_op:
        batch_op.drop_column("summary_version")
        batch_op.drop_column("summary")
    with op.batch_alter_table("tournaments") as batch_op:
        batch_op.drop_column("bots")
        batch_op.drop_column("play")
