"""creation forms' one-time submission ids: on tables, tournaments and groups, each stored once

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-12 10:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

#: The rows a creation form makes; rows made without a form keep NULL (never equal to another).
#: Unique by a named unique index, as the links are, and never by rebuilding the
#: table (``recreate="never"``): SQLite adds and drops a column and an index in
#: place, where a UNIQUE constraint or batch mode's drop_column rebuilds the table,
#: and dropping the old copy with foreign keys on (every connection of the app's)
#: deletes every row that refers to it (a table's players and hands, a group's members).
TABLES = ("game_tables", "tournaments", "groups")


def upgrade():
    for table in TABLES:
        with op.batch_alter_table(table, schema=None, recreate="never") as batch_op:
            batch_op.add_column(sa.Column("submission", sa.String(length=40), nullable=True))
            batch_op.create_index(f"ix_{table}_submission", ["submission"], unique=True)


def downgrade():
    for table in reversed(TABLES):
        with op.batch_alter_table(table, schema=None, recreate="never") as batch_op:
            batch_op.drop_index(f"ix_{table}_submission")
            batch_op.drop_column("submission")
