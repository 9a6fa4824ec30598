"""The :class:`Store`: factions, Armoury, rosters and saved games in one database.

``Store.open(url)`` connects (``url`` > ``$WARBENCH_DB`` > a SQLite file in the user data
directory), brings the schema to the newest Alembic revision, and returns a store whose every
write runs in one transaction (``with session.begin():``): it all happens or nothing does.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import Session, selectinload, sessionmaker

from warbench.kernel.errors import UnknownNameError, WarbenchError
from warbench.rulesets.warsurge.profiles import Unit, WeaponProfile
from warbench.rulesets.warsurge.roster import Roster, RosterEntry, RosterPerk
from warbench.storage.models import (
    FactionRow,
    RosterEntryRow,
    RosterRow,
    SavedGameRow,
    UnitProfileRow,
    WeaponRow,
)

__all__ = ["DB_ENV", "FactionSummary", "RosterSummary", "StorageError", "Store"]

DB_ENV = "WARBENCH_DB"
MIGRATIONS = Path(__file__).with_name("migrations")


class StorageError(WarbenchError):
    """The database cannot be opened or refuses a change (names the database and why)."""


def default_url() -> str:
    """``sqlite:///<user data dir>/warbench.db`` (platformdirs)."""
    from platformdirs import user_data_dir

    return f"sqlite:///{Path(user_data_dir('warbench')) / 'warbench.db'}"


def database_url(url: str | None = None) -> str:
    """The URL to use: ``url``, else ``$WARBENCH_DB``, else :func:`default_url`."""
    return url or os.environ.get(DB_ENV) or default_url()


@dataclass(frozen=True)
class FactionSummary:
    name: str
    units: tuple[str, ...]


@dataclass(frozen=True)
class RosterSummary:
    name: str
    point_limit: int
    units: int
    points_model: str


def _sqlite_fk(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _find(rows: list[Any], name: str, kind: str, where: str = "") -> Any:
    key = name.strip().lower()
    for r in rows:
        if r.name.lower() == key:
            return r
    raise UnknownNameError(kind, name, [r.name for r in rows], where=where)


class Store:
    """Factions, the Armoury, rosters and saved games in one SQLAlchemy database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.url = engine.url.render_as_string(hide_password=True)
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    # -- opening ----------------------------------------------------------------------------
    @classmethod
    def open(cls, url: str | None = None) -> Store:
        """Connect to ``url`` (see :func:`database_url`) and migrate the schema to the newest."""
        raw = database_url(url)
        try:
            parsed = make_url(raw)
        except ArgumentError as exc:
            raise StorageError(f"{raw}: not a database URL ({exc})") from None
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        try:
            engine = create_engine(parsed)
            if parsed.get_backend_name() == "sqlite":
                event.listen(engine, "connect", _sqlite_fk)
            store = cls(engine)
            store.migrate()
        except SQLAlchemyError as exc:
            shown = parsed.render_as_string(hide_password=True)
            raise StorageError(
                f"{shown}: cannot open the database ({exc.__class__.__name__}: "
                f"{str(exc).splitlines()[0]})"
            ) from None
        return store

    def migrate(self) -> None:
        """Bring the schema to the newest revision (a fresh database just works)."""
        from alembic import command
        from alembic.config import Config
        from alembic.runtime.migration import MigrationContext
        from alembic.script import ScriptDirectory

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        head = ScriptDirectory.from_config(cfg).get_current_head()
        with self.engine.begin() as conn:
            if MigrationContext.configure(conn).get_current_revision() == head:
                return
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One session in one transaction: committed at the end, rolled back on any error."""
        with self._sessions() as session, session.begin():
            yield session

    # -- factions ---------------------------------------------------------------------------
    def _faction(self, s: Session, name: str) -> FactionRow:
        rows = list(s.scalars(select(FactionRow).options(selectinload(FactionRow.units))))
        found: FactionRow = _find(rows, name, "faction")
        return found

    def create_faction(self, name: str, notes: str = "") -> None:
        with self.transaction() as s:
            if s.scalar(select(FactionRow).where(FactionRow.name == name)) is not None:
                raise StorageError(f"a faction called {name!r} already exists")
            s.add(FactionRow(name=name, notes=notes))

    def factions(self) -> list[FactionSummary]:
        with self.transaction() as s:
            rows = s.scalars(
                select(FactionRow).options(selectinload(FactionRow.units)).order_by(FactionRow.name)
            )
            return [FactionSummary(f.name, tuple(u.name for u in f.units)) for f in rows]

    def faction_units(self, faction: str) -> list[Unit]:
        with self.transaction() as s:
            return [Unit.model_validate(u.data) for u in self._faction(s, faction).units]

    def add_units(self, faction: str, units: list[Unit], *, replace: bool = False) -> None:
        """Add units to a faction (all or none); ``replace`` overwrites units of the same name."""
        with self.transaction() as s:
            f = self._faction(s, faction)
            existing = {u.name.lower(): u for u in f.units}
            for unit in units:
                row = existing.get(unit.name.lower())
                if row is not None and not replace:
                    raise StorageError(
                        f"faction {f.name!r} already has a unit called {unit.name!r} "
                        "(use --replace to overwrite it)"
                    )
                data = unit.model_dump(mode="json")
                if row is None:
                    row = UnitProfileRow(name=unit.name, data=data)
                    f.units.append(row)
                    existing[unit.name.lower()] = row
                else:
                    row.data = data

    def remove_unit(self, faction: str, unit: str) -> None:
        with self.transaction() as s:
            f = self._faction(s, faction)
            row = _find(f.units, unit, "unit", where=f"faction {f.name}")
            f.units.remove(row)

    def find_unit(self, name: str, faction: str | None = None) -> Unit:
        """A faction's unit by name; without ``faction`` the name must be unique across them."""
        with self.transaction() as s:
            if faction is not None:
                rows = list(self._faction(s, faction).units)
            else:
                rows = list(
                    s.scalars(select(UnitProfileRow).options(selectinload(UnitProfileRow.faction)))
                )
            key = name.strip().lower()
            hits = [r for r in rows if r.name.lower() == key]
            if len(hits) > 1:
                where = ", ".join(sorted(r.faction.name for r in hits))
                raise StorageError(
                    f"several factions have a unit called {name!r} ({where}); choose one with "
                    "--faction"
                )
            row = hits[0] if hits else _find(rows, name, "unit")
            return Unit.model_validate(row.data)

    # -- the Armoury ------------------------------------------------------------------------
    def add_weapons(self, weapons: list[WeaponProfile], *, replace: bool = False) -> None:
        with self.transaction() as s:
            existing = {w.name.lower(): w for w in s.scalars(select(WeaponRow))}
            for weapon in weapons:
                row = existing.get(weapon.name.lower())
                data = weapon.model_dump(mode="json")
                if row is not None and not replace:
                    raise StorageError(
                        f"the Armoury already has a weapon called {weapon.name!r} "
                        "(use --replace to overwrite it)"
                    )
                if row is None:
                    row = WeaponRow(name=weapon.name, data=data)
                    s.add(row)
                    existing[weapon.name.lower()] = row
                else:
                    row.data = data

    def weapons(self) -> list[WeaponProfile]:
        with self.transaction() as s:
            rows = s.scalars(select(WeaponRow).order_by(WeaponRow.name))
            return [WeaponProfile.model_validate(r.data) for r in rows]

    def weapon(self, name: str) -> WeaponProfile:
        with self.transaction() as s:
            row = _find(list(s.scalars(select(WeaponRow))), name, "weapon", where="Armoury")
            return WeaponProfile.model_validate(row.data)

    def remove_weapon(self, name: str) -> None:
        with self.transaction() as s:
            s.delete(_find(list(s.scalars(select(WeaponRow))), name, "weapon", where="Armoury"))

    # -- rosters ----------------------------------------------------------------------------
    def _rosters(self, s: Session) -> list[RosterRow]:
        return list(s.scalars(select(RosterRow).options(selectinload(RosterRow.entries))))

    def save_roster(self, roster: Roster, *, replace: bool = True, create: bool = True) -> None:
        """Write the whole roster in one transaction (a failure leaves the old one intact)."""
        with self.transaction() as s:
            row = next((r for r in self._rosters(s) if r.name.lower() == roster.name.lower()), None)
            if row is None:
                if not create:
                    raise UnknownNameError(
                        "roster", roster.name, [r.name for r in self._rosters(s)]
                    )
                row = RosterRow(name=roster.name)
                s.add(row)
            elif not replace:
                raise StorageError(f"a roster called {row.name!r} already exists")
            row.name = roster.name
            row.point_limit = roster.point_limit
            row.ruleset = roster.ruleset
            row.points_model = roster.points_model
            row.notes = roster.notes
            row.roster_perks = [p.model_dump(mode="json") for p in roster.roster_perks]
            row.entries.clear()
            s.flush()
            for i, e in enumerate(roster.units):
                row.entries.append(self._entry_row(i, e))

    @staticmethod
    def _entry_row(position: int, e: RosterEntry) -> RosterEntryRow:
        return RosterEntryRow(
            position=position,
            name=e.name,
            unit=e.unit.model_dump(mode="json"),
            traits=list(e.traits),
            embarked_in=e.embarked_in,
            link=e.link,
            designations=dict(e.designations),
        )

    def roster(self, name: str) -> Roster:
        with self.transaction() as s:
            row: RosterRow = _find(self._rosters(s), name, "roster")
            return Roster(
                name=row.name,
                point_limit=row.point_limit,
                ruleset=row.ruleset,
                points_model=row.points_model,
                notes=row.notes,
                roster_perks=[RosterPerk.model_validate(p) for p in row.roster_perks],
                units=[
                    RosterEntry(
                        name=e.name,
                        unit=Unit.model_validate(e.unit),
                        traits=e.traits,
                        embarked_in=e.embarked_in,
                        link=e.link,
                        designations=e.designations,
                    )
                    for e in row.entries
                ],
            )

    def rosters(self) -> list[RosterSummary]:
        with self.transaction() as s:
            return [
                RosterSummary(r.name, r.point_limit, len(r.entries), r.points_model)
                for r in sorted(self._rosters(s), key=lambda r: r.name.lower())
            ]

    def delete_roster(self, name: str) -> None:
        with self.transaction() as s:
            s.delete(_find(self._rosters(s), name, "roster"))

    # -- saved games ------------------------------------------------------------------------
    def save_game(self, record: str, name: str = "", game_id: int | None = None) -> int:
        """Store a game record (JSON lines); returns its id. ``game_id`` updates that game."""
        with self.transaction() as s:
            row = s.get(SavedGameRow, game_id) if game_id is not None else None
            if game_id is not None and row is None:
                raise StorageError(f"no saved game with id {game_id}")
            if row is None:
                row = SavedGameRow(name=name, record=record)
                s.add(row)
            else:
                row.record = record
                row.name = name or row.name
            s.flush()
            return row.id

    def game(self, game_id: int) -> str:
        with self.transaction() as s:
            row = s.get(SavedGameRow, game_id)
            if row is None:
                raise StorageError(f"no saved game with id {game_id}")
            return row.record
