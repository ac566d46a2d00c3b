"""groups: a renamed member keeps their earlier names; payments say who recorded them and can be undone

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 10:20:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("group_members", schema=None) as batch_op:
        batch_op.add_column(sa.Column("aliases", sa.JSON(), nullable=False, server_default="[]"))
    with op.batch_alter_table("payments", schema=None) as batch_op:
        # Until now only the owner link could record a payment.
        batch_op.add_column(sa.Column("recorded_by", sa.String(length=10), nullable=False, server_default="owner"))
        batch_op.add_column(sa.Column("undone_at", sa.DateTime(), nullable=True))


def downgrade():
    # Without the column an undone payment would count again: the older schema never had it.
    op.execute("DELETE FROM payments WHERE undone_at IS NOT NULL")
    with op.batch_alter_table("payments", schema=None) as batch_op:
        batch_op.drop_column("undone_at")
        batch_op.drop_column("recorded_by")
    with op.batch_alter_table("group_members", schema=None) as batch_op:
        batch_op.drop_column("aliases")
