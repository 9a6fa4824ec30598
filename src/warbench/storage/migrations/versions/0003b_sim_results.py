"""The simulation lab's results: ``sim_runs``, ``sim_games``, ``sim_units`` (issue 15).

Revision ID: 0003b
Revises: 0003a (0002 until issue 14's games tables landed on main)
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003b"
down_revision = "0003a"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sim_runs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ruleset", sa.String(40), nullable=False),
        sa.Column("roster_a", sa.String(120), nullable=False),
        sa.Column("roster_b", sa.String(120), nullable=False),
        sa.Column("player_a", sa.String(40), nullable=False),
        sa.Column("player_b", sa.String(40), nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("spec", sa.JSON, nullable=False),
    )
    op.create_table(
        "sim_games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "run_id",
            sa.Integer,
            sa.ForeignKey("sim_runs.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("game", sa.Integer, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("board", sa.String(120), nullable=False),
        sa.Column("a_seat", sa.Integer, nullable=False),
        sa.Column("winner", sa.String(1), nullable=True),
        sa.Column("points_a", sa.Float, nullable=False),
        sa.Column("points_b", sa.Float, nullable=False),
        sa.Column("turns", sa.Integer, nullable=False),
        sa.Column("steps", sa.Integer, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("digest", sa.String(32), nullable=False),
        sa.Column("values", sa.JSON, nullable=False),
    )
    op.create_index("ix_sim_games_run_game", "sim_games", ["run_id", "game"], unique=True)
    op.create_table(
        "sim_units",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "game_id",
            sa.Integer,
            sa.ForeignKey("sim_games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("roster", sa.String(1), nullable=False),
        sa.Column("uid", sa.Integer, nullable=False),
        sa.Column("label", sa.String(200), nullable=False),
        sa.Column("points", sa.Float, nullable=False),
        sa.Column("dealt", sa.Float, nullable=False),
        sa.Column("taken", sa.Float, nullable=False),
        sa.Column("left", sa.Float, nullable=False),
    )
    op.create_index("ix_sim_units_game_id", "sim_units", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_sim_units_game_id", table_name="sim_units")
    op.drop_table("sim_units")
    op.drop_index("ix_sim_games_run_game", table_name="sim_games")
    op.drop_table("sim_games")
    op.drop_table("sim_runs")
