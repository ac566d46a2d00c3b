"""duplicate deals for a tournament's tables in the app: the option, and each round's secret

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-10 21:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("tournaments") as batch_op:
        batch_op.add_column(sa.Column("duplicate", sa.Boolean(), server_default=sa.false(), nullable=False))
    with op.batch_alter_table("tournament_rounds") as batch_op:
        batch_op.add_column(sa.Column("deal_secret", sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table("tournament_rounds") as batch_op:
        batch_op.drop_column("deal_secret")
    with op.batch_alter_table("tournaments") as batch_op:
        batch_op.drop_column("duplicate")
