"""The ORM tables (SQLAlchemy 2 typed declarative mapping).

Profiles are stored as JSON documents of the pydantic models (``Unit.model_dump(mode="json")``)
so they round-trip exactly; the columns beside them (names, Point Limit, versions) are what the
commands list and search by. Any change here needs an Alembic revision in ``migrations/``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def _now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of every warbench table."""


class Timestamps:
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, onupdate=_now
    )


class FactionRow(Timestamps, Base):
    """A Faction: a named collection of unit profiles (Core Rules §3.4, Units area)."""

    __tablename__ = "factions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    notes: Mapped[str] = mapped_column(Text, default="")
    units: Mapped[list[UnitProfileRow]] = relationship(
        back_populates="faction",
        cascade="all, delete-orphan",
        order_by="UnitProfileRow.name",
    )


class UnitProfileRow(Timestamps, Base):
    """A unit of a Faction: its profile, weapon profiles and default model groups."""

    __tablename__ = "unit_profiles"
    __table_args__ = (UniqueConstraint("faction_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    faction_id: Mapped[int] = mapped_column(ForeignKey("factions.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(80))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    faction: Mapped[FactionRow] = relationship(back_populates="units")


class WeaponRow(Timestamps, Base):
    """A weapon profile of the Armoury (Core Rules §3.4)."""

    __tablename__ = "armoury_weapons"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


class RosterRow(Timestamps, Base):
    """A Roster (Core Rules §3.1, §3.4); its entries are :class:`RosterEntryRow`.

    ``version`` counts the saves (1 for a new roster): an editor that saves with the version it
    loaded is refused if another save came in between (optimistic versioning).
    """

    __tablename__ = "rosters"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    point_limit: Mapped[int] = mapped_column(Integer)
    ruleset: Mapped[str] = mapped_column(String(120))
    points_model: Mapped[str] = mapped_column(String(120), default="")
    roster_perks: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    notes: Mapped[str] = mapped_column(Text, default="")
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    entries: Mapped[list[RosterEntryRow]] = relationship(
        back_populates="roster",
        cascade="all, delete-orphan",
        order_by="RosterEntryRow.position",
    )


class RosterEntryRow(Base):
    """One unit of a Roster, in roster order, with the full unit snapshot."""

    __tablename__ = "roster_entries"
    __table_args__ = (Index("ix_roster_entries_roster", "roster_id", "position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    roster_id: Mapped[int] = mapped_column(ForeignKey("rosters.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))
    unit: Mapped[dict[str, Any]] = mapped_column(JSON)
    traits: Mapped[list[str]] = mapped_column(JSON, default=list)
    embarked_in: Mapped[str | None] = mapped_column(String(80), nullable=True)
    link: Mapped[str | None] = mapped_column(String(80), nullable=True)
    designations: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    roster: Mapped[RosterRow] = relationship(back_populates="entries")


class SavedGameRow(Timestamps, Base):
    """A saved game: its record as JSON lines (the game engine writes and replays it).

    ``version`` counts the saves, as for rosters.
    """

    __tablename__ = "saved_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(120), default="")
    record: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
