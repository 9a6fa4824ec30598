"""Collision character cards and battle groups in the database (issue 10, session 35): the
web workbench's Collision page keeps them like WarEngine forces.

One table, ``collision_documents`` (migration ``0005a``), holds both kinds, told apart by
``kind`` (``card`` or ``group``); a name is unique within its kind, ignoring case. A document is
the card or battle-group file's data, cards inline (:func:`warbench.rulesets.collision.io.
to_data`), read back through the ruleset's own readers
(:func:`~warbench.rulesets.collision.io.parse_card` / ``parse_group``), so a stored card is
always one ``warbench collision validate`` reads. A battle group over its limits (points,
attributes, different cards, a Major Arcana twice; L580-617) is stored as it is, with its
violations reported when it is checked; a card that is not a card (a field out of range,
three weapons) cannot be read, so it is refused before it is stored.

The storing rules (versions, 409 on a stale save, renames) are
:class:`~warbench.storage.documents.DocumentStore`'s, shared with the WarEngine forces.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, Integer, Select, String, UniqueConstraint
from sqlalchemy.orm import Mapped, Session, mapped_column

from warbench.storage.documents import DocumentStore
from warbench.storage.models import Base, Timestamps
from warbench.storage.store import Versioned

if TYPE_CHECKING:
    from warbench.rulesets.collision.models import BattleGroup, Card

__all__ = ["CardStore", "CollisionDocumentRow", "CollisionSummary", "GroupStore"]


class CollisionDocumentRow(Timestamps, Base):
    """A Collision character card (L227-373) or battle group (L580-617): the file's data and
    the columns the lists show."""

    __tablename__ = "collision_documents"
    __table_args__ = (UniqueConstraint("kind", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    name: Mapped[str] = mapped_column(String(120))
    points: Mapped[int] = mapped_column(Integer)
    points_limit: Mapped[int | None] = mapped_column(Integer, nullable=True)
    cards: Mapped[int] = mapped_column(Integer)
    document: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")


@dataclass(frozen=True)
class CollisionSummary:
    """One line of a list: name, points (a group's: every copy), its limit, cards, version."""

    name: str
    points: int
    points_limit: int | None
    cards: int
    version: int


class _CollisionStore(DocumentStore[Any, CollisionDocumentRow]):
    row_type = CollisionDocumentRow
    kind: str = ""

    def query(self) -> Select[Any]:
        return super().query().where(CollisionDocumentRow.kind == self.kind)

    def new_row(self) -> CollisionDocumentRow:
        return CollisionDocumentRow(version=0, kind=self.kind)

    def summaries(self) -> list[CollisionSummary]:
        """A summary of every stored document of this kind, by name."""

        def work(s: Session) -> list[CollisionSummary]:
            return [
                CollisionSummary(r.name, r.points, r.points_limit, r.cards, r.version)
                for r in self.rows(s)
            ]

        return self.store._run(f"{self.label}s", work, write=False)

    def document(self, name: str) -> Versioned[tuple[str, dict[str, Any]]]:
        """The stored document ``name`` (any case) as it is in the database, not read by the
        rules' reader: its stored name and data, and its version (a card stored before a
        glossary entry was renamed no longer reads, and is opened from this to be fixed;
        session 36). Unknown: :class:`~warbench.kernel.errors.UnknownNameError`."""

        def work(s: Session) -> Versioned[tuple[str, dict[str, Any]]]:
            row = self._row(s, name)
            if row is None:
                raise self._unknown(s, name)
            return Versioned((str(row.name), dict(row.document)), int(row.version))

        return self.store._run(f"{self.label} {name!r}", work, write=False)


class CardStore(_CollisionStore):
    """Collision character cards, stored by name."""

    label = "Collision card"
    lock_prefix = "collision-card"
    kind = "card"

    def load(self, row: CollisionDocumentRow) -> Card:
        """The stored card read by the card reader."""
        from warbench.rulesets.collision.io import parse_card

        return parse_card(row.document, f"stored card {row.name!r}")

    def fill(self, row: CollisionDocumentRow, value: Card) -> None:
        """The card file's data and the list's columns."""
        from warbench.rulesets.collision.io import to_data

        row.points = value.points
        row.points_limit = None
        row.cards = 1
        row.document = to_data(value)


class GroupStore(_CollisionStore):
    """Collision battle groups (cards inline), stored by name."""

    label = "Collision battle group"
    lock_prefix = "collision-group"
    kind = "group"

    def load(self, row: CollisionDocumentRow) -> BattleGroup:
        """The stored group read by the battle-group reader."""
        from warbench.rulesets.collision.io import parse_group

        return parse_group(row.document, f"stored battle group {row.name!r}")

    def fill(self, row: CollisionDocumentRow, value: BattleGroup) -> None:
        """The battle-group file's data, cards inline, and the list's columns."""
        from warbench.rulesets.collision.io import to_data
        from warbench.rulesets.collision.validation import group_points

        row.points = group_points(value)
        row.points_limit = value.points_limit
        row.cards = sum(n for _, n in value.cards())
        row.document = to_data(value)
