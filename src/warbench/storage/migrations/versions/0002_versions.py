"""Save counters for optimistic versioning: ``rosters.version``, ``saved_games.version``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("rosters", "saved_games"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("version", sa.Integer, nullable=False, server_default="1"))


def downgrade() -> None:
    for table in ("rosters", "saved_games"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("version")
