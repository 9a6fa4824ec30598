"""Initial tables: factions, unit profiles, Armoury, rosters and entries, saved games.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _stamps() -> list[sa.Column[object]]:
    return [
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "factions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(120), nullable=False, unique=True),
        sa.Column("notes", sa.Text, nullable=False),
        *_stamps(),
    )
    op.create_table(
        "unit_profiles",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "faction_id",
            sa.Integer,
            sa.ForeignKey("factions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        *_stamps(),
        sa.UniqueConstraint("faction_id", "name"),
    )
    op.create_table(
        "armoury_weapons",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False, unique=True),
        sa.Column("data", sa.JSON, nullable=False),
        *_stamps(),
    )
    op.create_table(
        "rosters",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(120), nullable=False, unique=True),
        sa.Column("point_limit", sa.Integer, nullable=False),
        sa.Column("ruleset", sa.String(120), nullable=False),
        sa.Column("points_model", sa.String(120), nullable=False),
        sa.Column("roster_perks", sa.JSON, nullable=False),
        sa.Column("notes", sa.Text, nullable=False),
        *_stamps(),
    )
    op.create_table(
        "roster_entries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "roster_id",
            sa.Integer,
            sa.ForeignKey("rosters.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("unit", sa.JSON, nullable=False),
        sa.Column("traits", sa.JSON, nullable=False),
        sa.Column("embarked_in", sa.String(80), nullable=True),
        sa.Column("link", sa.String(80), nullable=True),
        sa.Column("designations", sa.JSON, nullable=False),
    )
    op.create_index("ix_roster_entries_roster", "roster_entries", ["roster_id", "position"])
    op.create_table(
        "saved_games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        *_stamps(),
    )


def downgrade() -> None:
    for table in (
        "saved_games",
        "roster_entries",
        "rosters",
        "armoury_weapons",
        "unit_profiles",
        "factions",
    ):
        op.drop_table(table)
