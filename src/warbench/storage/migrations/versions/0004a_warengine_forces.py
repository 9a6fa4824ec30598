"""WarEngine 2.1 forces: ``warengine_forces`` (issue 13, the web workbench's force builder).

Revision ID: 0004a
Revises: 0003b
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004a"
down_revision = "0003b"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "warengine_forces",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(120), nullable=False, unique=True),
        sa.Column("ruleset", sa.String(120), nullable=False),
        sa.Column("renown", sa.Integer, nullable=False),
        sa.Column("force", sa.Integer, nullable=False),
        sa.Column("figures", sa.Integer, nullable=False),
        sa.Column("document", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False, server_default="1"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("warengine_forces")
