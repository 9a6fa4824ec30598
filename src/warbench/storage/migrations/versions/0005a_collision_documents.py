"""Collision cards and battle groups: ``collision_documents`` (issue 10, session 35, the web
workbench's Collision page).

Revision ID: 0005a
Revises: 0004a
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005a"
down_revision = "0004a"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "collision_documents",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("points_limit", sa.Integer, nullable=True),
        sa.Column("cards", sa.Integer, nullable=False),
        sa.Column("document", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False, server_default="1"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("kind", "name"),
    )


def downgrade() -> None:
    op.drop_table("collision_documents")
