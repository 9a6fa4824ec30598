"""WarEngine 2.1 forces in the database (issue 13): stored like rosters, by name, versioned.

A force is kept whole as the JSON document of ``warbench warengine`` force files, figures
inline (:func:`warbench.rulesets.warengine.io.to_data`), so it round-trips exactly and loads back
through the ruleset's own reader (:func:`~warbench.rulesets.warengine.io.parse_force`): a stored
force is always one the Force Builder can read. A force that breaks a limit (over its Points of
Force, too many Hero Points …) is stored as it is, as a roster with violations is: the limits
are reported by the ruleset when it is costed, never refused here.

Names unique ignoring case, the save counter and its check (409 on a stale save), one
transaction per operation: :class:`~warbench.storage.documents.DocumentStore`, shared with the
Collision cards and battle groups (``storage/collision_documents.py``).

The table lives in its own module (migration ``0004a``) beside ``models.py``'s, on the same
declarative ``Base``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, Integer, String
from sqlalchemy.orm import Mapped, Session, mapped_column

from warbench.storage.documents import DocumentStore
from warbench.storage.models import Base, Timestamps
from warbench.storage.store import Versioned

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


class ForceStore(DocumentStore["Force", WarEngineForceRow]):
    """WarEngine forces in a :class:`~warbench.storage.store.Store`'s database (the storing
    rules are :class:`~warbench.storage.documents.DocumentStore`'s)."""

    row_type = WarEngineForceRow
    label = "WarEngine force"
    lock_prefix = "warengine-force"

    def load(self, row: WarEngineForceRow) -> Force:
        """The stored document read by the Force Builder's reader."""
        from warbench.rulesets.warengine.io import parse_force

        return parse_force(row.document, f"stored force {row.name!r}")

    def fill(self, row: WarEngineForceRow, value: Force) -> None:
        """The force file's document, figures inline, and the list's columns."""
        from warbench.rulesets.warengine import RULESET_VERSION
        from warbench.rulesets.warengine.io import to_data

        row.ruleset = RULESET_VERSION
        row.renown = value.renown
        row.force = value.force
        row.figures = len(value.figures)
        row.document = to_data(value)

    def forces(self) -> list[ForceSummary]:
        """A summary of every stored force, by name."""

        def work(s: Session) -> list[ForceSummary]:
            return [
                ForceSummary(r.name, r.renown, r.force, r.figures, r.ruleset, r.version)
                for r in self.rows(s)
            ]

        return self.store._run("WarEngine forces", work, write=False)

    def versioned_force(self, name: str) -> Versioned[Force]:
        """The force ``name`` (any case) and its version, read in one snapshot."""
        return self.versioned(name)

    def force(self, name: str) -> Force:
        """The force ``name`` (any case)."""
        return self.versioned(name).value

    def save_force(
        self,
        force: Force,
        *,
        replace: bool = True,
        expected_version: int | None = None,
        name: str | None = None,
    ) -> int:
        """Store ``force`` under its own name and return its new version
        (:meth:`DocumentStore.save`: ``replace``, ``expected_version``, a rename from ``name``)."""
        return self.save(force, replace=replace, expected_version=expected_version, name=name)

    def delete_force(self, name: str, *, expected_version: int | None = None) -> None:
        """Delete the force ``name``; with ``expected_version``, only if no other save came
        after that version (else :class:`ChangedElsewhereError`)."""
        self.delete(name, expected_version=expected_version)
