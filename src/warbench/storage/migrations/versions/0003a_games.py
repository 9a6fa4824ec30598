"""Games played in the browser: ``play_games``, ``play_steps``, ``play_tokens`` (issue 14).

Revision ID: 0003a
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003a"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "play_games",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("title", sa.String(120), nullable=False),
        sa.Column("ruleset", sa.String(80), nullable=False),
        sa.Column("ruleset_version", sa.String(120), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("setup", sa.JSON, nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("mode", sa.String(20), nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("automate", sa.JSON, nullable=False),
        sa.Column("steps", sa.Integer, nullable=False),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "play_steps",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(40),
            sa.ForeignKey("play_games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("actor", sa.Integer, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("by", sa.String(40), nullable=False),
        sa.Column("undone", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_play_steps_game", "play_steps", ["game_id", "undone", "step"])
    op.create_table(
        "play_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "game_id",
            sa.String(40),
            sa.ForeignKey("play_games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("label", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("play_tokens")
    op.drop_index("ix_play_steps_game", table_name="play_steps")
    op.drop_table("play_steps")
    op.drop_table("play_games")
