"""WarEngine 2.1 forces in the database (issue 13): stored like rosters, by name, versioned.

A force is kept whole as the JSON document of ``warbench warengine`` force files, figures
inline (:func:`warbench.rulesets.warengine.io.to_data`), so it round-trips exactly and loads back
through the ruleset's own reader (:func:`~warbench.rulesets.warengine.io.parse_force`): a stored
force is always one the Force Builder can read. A force that breaks a limit (over its Points of
Force, too many Hero Points …) is stored as it is, as a roster with violations is: the limits
are reported by the ruleset when it is costed, never refused here.

* Names are unique ignoring case (``StormReavers`` and ``stormreavers`` are one force).
* ``version`` counts the saves (1 for a new force). An editor that saves with the version it
  loaded (``expected_version``) gets :class:`~warbench.kernel.errors.ChangedElsewhereError`
  when another save came in between, instead of overwriting it.
* Every operation is one transaction of :meth:`Store._run` (retries, one ``StorageError``,
  advisory locks on PostgreSQL).

The table lives in its own module (migration ``0004a``) beside ``models.py``'s, on the same
declarative ``Base``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, Integer, String, func, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from warbench.kernel.errors import ChangedElsewhereError, StorageError, UnknownNameError
from warbench.storage.models import Base, Timestamps
from warbench.storage.store import Store, Versioned

if TYPE_CHECKING:
    from warbench.rulesets.warengine.models import Force

__all__ = ["ForceStore", "ForceSummary", "WarEngineForceRow"]


class WarEngineForceRow(Timestamps, Base):
    """A WarEngine 2.1 force (Force Builder, 004 lines 965-997): the force file's document,
    figures inline, and the columns the force list shows."""

    __tablename__ = "warengine_forces"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    ruleset: Mapped[str] = mapped_column(String(120))
    renown: Mapped[int] = mapped_column(Integer)
    force: Mapped[int] = mapped_column(Integer)
    figures: Mapped[int] = mapped_column(Integer)
    document: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")


@dataclass(frozen=True)
class ForceSummary:
    """One line of the force list: name, Points of Renown and of Force, figures, version."""

    name: str
    renown: int
    force: int
    figures: int
    ruleset: str
    version: int


def _key(name: str) -> str:
    return f"warengine-force:{name.strip().lower()}"


class ForceStore:
    """WarEngine forces in a :class:`~warbench.storage.store.Store`'s database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @staticmethod
    def _row(s: Session, name: str) -> WarEngineForceRow | None:
        key = name.strip().lower()
        q = select(WarEngineForceRow).where(func.lower(WarEngineForceRow.name) == key)
        return s.scalars(q).first()

    @staticmethod
    def _unknown(s: Session, name: str) -> UnknownNameError:
        names = list(s.scalars(select(WarEngineForceRow.name).order_by(WarEngineForceRow.name)))
        return UnknownNameError("WarEngine force", name, names)

    @staticmethod
    def _to_force(row: WarEngineForceRow) -> Force:
        from warbench.rulesets.warengine.io import parse_force

        return parse_force(row.document, f"stored force {row.name!r}")

    def forces(self) -> list[ForceSummary]:
        """A summary of every stored force, by name."""

        def work(s: Session) -> list[ForceSummary]:
            rows = s.scalars(select(WarEngineForceRow))
            return [
                ForceSummary(r.name, r.renown, r.force, r.figures, r.ruleset, r.version)
                for r in sorted(rows, key=lambda r: r.name.lower())
            ]

        return self.store._run("WarEngine forces", work, write=False)

    def versioned_force(self, name: str) -> Versioned[Force]:
        """The force ``name`` (any case) and its version, read in one snapshot."""

        def work(s: Session) -> Versioned[Force]:
            row = self._row(s, name)
            if row is None:
                raise self._unknown(s, name)
            return Versioned(self._to_force(row), row.version)

        return self.store._run(f"WarEngine force {name!r}", work, write=False)

    def force(self, name: str) -> Force:
        """The force ``name`` (any case)."""
        return self.versioned_force(name).value

    def save_force(
        self,
        force: Force,
        *,
        replace: bool = True,
        expected_version: int | None = None,
        name: str | None = None,
    ) -> int:
        """Store ``force`` under its own name and return its new version, in one transaction.

        ``name`` is the force as it was stored before (a renamed force: the row of ``name`` is
        updated and takes the new name); by default the force's own name. A new force gets
        version 1; a force of that name that exists is replaced only with ``replace`` (else a
        :class:`StorageError`), and with ``expected_version`` only if no save came after that
        version (else :class:`ChangedElsewhereError`). Another force already called the new
        name (any case) is refused.
        """
        from warbench.rulesets.warengine import RULESET_VERSION
        from warbench.rulesets.warengine.io import to_data

        new_name = force.name.strip()
        old_name = (name or new_name).strip()
        subject = f"WarEngine force {old_name!r}"
        if not 1 <= len(new_name) <= 120:
            raise StorageError(f"{subject}: a force name has 1 to 120 characters")
        document = to_data(force)

        def work(s: Session) -> int:
            row = self._row(s, old_name)
            if row is None and expected_version is not None:
                raise ChangedElsewhereError(subject, expected_version, None)
            if row is not None and expected_version is not None and row.version != expected_version:
                raise ChangedElsewhereError(subject, expected_version, row.version)
            if row is not None and not replace and expected_version is None:
                raise StorageError(f"a WarEngine force called {row.name!r} already exists")
            if row is None and name is not None and name.strip().lower() != new_name.lower():
                raise self._unknown(s, name)
            if new_name.lower() != old_name.lower():
                taken = self._row(s, new_name)
                if taken is not None and (row is None or taken.id != row.id):
                    raise StorageError(f"a WarEngine force called {taken.name!r} already exists")
            if row is None:
                row = WarEngineForceRow(version=0)
                s.add(row)
            row.name = new_name
            row.ruleset = RULESET_VERSION
            row.renown = force.renown
            row.force = force.force
            row.figures = len(force.figures)
            row.document = document
            row.version = (row.version or 0) + 1
            s.flush()
            return row.version

        return self.store._run(subject, work, write=True, lock=_key(old_name))

    def delete_force(self, name: str, *, expected_version: int | None = None) -> None:
        """Delete the force ``name``; with ``expected_version``, only if no other save came
        after that version (else :class:`ChangedElsewhereError`)."""
        subject = f"WarEngine force {name!r}"

        def work(s: Session) -> None:
            row = self._row(s, name)
            if row is None:
                if expected_version is not None:
                    raise ChangedElsewhereError(subject, expected_version, None)
                raise self._unknown(s, name)
            if expected_version is not None and row.version != expected_version:
                raise ChangedElsewhereError(subject, expected_version, row.version)
            s.delete(row)

        self.store._run(subject, work, write=True, lock=_key(name))
