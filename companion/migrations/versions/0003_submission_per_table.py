"""submission ids are unique per table, not across all tables

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 16:40:00

"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade():
    for table in ("hands", "reentries"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(f"uq_{table}_submission", type_="unique")
            batch_op.create_unique_constraint(f"uq_{table}_table_submission", ["table_id", "submission"])


def downgrade():
    for table in ("hands", "reentries"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(f"uq_{table}_table_submission", type_="unique")
            batch_op.create_unique_constraint(f"uq_{table}_submission", ["submission"])
