"""The simulation lab's tables (``warbench simulate``, docs/simulate.md): one row per batch
(``sim_runs``), per game (``sim_games``) and per unit of a game (``sim_units``).

Kept in their own module beside :mod:`warbench.storage.models` (same declarative ``Base``, so
Alembic sees them); migration ``0003b_sim_results``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from warbench.storage.models import Base, _now


class SimRunRow(Base):
    """One batch: the rosters (names and game-roster JSON), players, boards, options, seed."""

    __tablename__ = "sim_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    ruleset: Mapped[str] = mapped_column(String(40))
    roster_a: Mapped[str] = mapped_column(String(120))
    roster_b: Mapped[str] = mapped_column(String(120))
    player_a: Mapped[str] = mapped_column(String(40))
    player_b: Mapped[str] = mapped_column(String(40))
    seed: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    spec: Mapped[dict[str, Any]] = mapped_column(JSON)
    rows: Mapped[list[SimGameRow]] = relationship(
        back_populates="run", cascade="all, delete-orphan", order_by="SimGameRow.game"
    )


class SimGameRow(Base):
    """One game of a batch: seed, board, roster A's seat, winner, values left, turns, steps,
    the values at each Game Turn's end (JSON ``[[turn, A, B], …]``) and the final digest."""

    __tablename__ = "sim_games"
    __table_args__ = (Index("ix_sim_games_run_game", "run_id", "game", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("sim_runs.id", ondelete="CASCADE"))
    game: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(Integer)
    board: Mapped[str] = mapped_column(String(120))
    a_seat: Mapped[int] = mapped_column(Integer)
    winner: Mapped[str | None] = mapped_column(String(1), nullable=True)
    points_a: Mapped[float] = mapped_column(Float)
    points_b: Mapped[float] = mapped_column(Float)
    turns: Mapped[int] = mapped_column(Integer)
    steps: Mapped[int] = mapped_column(Integer)
    seconds: Mapped[float] = mapped_column(Float)
    digest: Mapped[str] = mapped_column(String(32))
    values: Mapped[list[Any]] = mapped_column(JSON)
    run: Mapped[SimRunRow] = relationship(back_populates="rows")
    units: Mapped[list[SimUnitRow]] = relationship(
        back_populates="game_row", cascade="all, delete-orphan", order_by="SimUnitRow.uid"
    )


class SimUnitRow(Base):
    """One unit of one game: roster (A/B), id, label, points, value dealt, taken and left."""

    __tablename__ = "sim_units"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("sim_games.id", ondelete="CASCADE"), index=True)
    roster: Mapped[str] = mapped_column(String(1))
    uid: Mapped[int] = mapped_column(Integer)
    label: Mapped[str] = mapped_column(String(200))
    points: Mapped[float] = mapped_column(Float)
    dealt: Mapped[float] = mapped_column(Float)
    taken: Mapped[float] = mapped_column(Float)
    left: Mapped[float] = mapped_column(Float)
    game_row: Mapped[SimGameRow] = relationship(back_populates="units")
