"""Named, versioned documents in the database: what WarEngine forces and Collision cards and
battle groups share (issue 13; issue 10, session 35).

A document is kept whole as the JSON its ruleset's reader reads, beside the few columns a list
shows, so it round-trips exactly and always loads back through the ruleset's own reader. A
subclass names its table (:attr:`DocumentStore.row_type`), what a document is called
(:attr:`DocumentStore.label`), how it is read back (:meth:`DocumentStore.load`) and how its row
is filled (:meth:`DocumentStore.fill`); the rules of storing live here once:

* Names are unique ignoring case (``StormReavers`` and ``stormreavers`` are one document).
* ``version`` counts the saves (1 for a new document). An editor that saves with the version it
  loaded (``expected_version``) gets :class:`~warbench.kernel.errors.ChangedElsewhereError`
  when another save came in between, instead of overwriting it.
* Every operation is one transaction of :meth:`Store._run` (retries, one ``StorageError``,
  advisory locks on PostgreSQL: one per kind, so a rename and a save under the new name queue).
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, Protocol, TypeVar

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from warbench.kernel.errors import (
    ChangedElsewhereError,
    ProfileError,
    StorageError,
    UnknownNameError,
)
from warbench.storage.store import Store, Versioned

__all__ = ["NAME_CHARS", "DocumentRow", "DocumentStore"]

T = TypeVar("T")

NAME_CHARS = 120
"""The longest name a document table holds (its ``name`` column is ``String(120)``)."""


class DocumentRow(Protocol):
    """The columns every document table has (its list columns are the subclass's)."""

    id: Any
    name: Any
    version: Any
    document: Any


R = TypeVar("R", bound=DocumentRow)


class DocumentStore(Generic[T, R]):
    """Documents of one kind in a :class:`~warbench.storage.store.Store`'s database."""

    #: the table's row class
    row_type: ClassVar[type[Any]]
    #: what one document is called in messages ("WarEngine force")
    label: ClassVar[str]
    #: the advisory lock's prefix ("warengine-force")
    lock_prefix: ClassVar[str]

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ what a kind says

    def query(self) -> Select[Any]:
        """The rows of this kind (a table shared by several kinds narrows it)."""
        return select(self.row_type)

    def new_row(self) -> R:
        """An empty row of this kind (version 0: the first save makes it 1)."""
        row: R = self.row_type(version=0)
        return row

    def load(self, row: R) -> T:
        """The document of ``row`` read by its ruleset's reader."""
        raise NotImplementedError

    def name_of(self, value: T) -> str:
        """The name a document is stored under."""
        name: str = getattr(value, "name")  # noqa: B009 (every document has a name)
        return name

    def fill(self, row: R, value: T) -> None:
        """Write ``value``'s document and list columns into ``row`` (not name nor version)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ shared rules

    def _lock(self, name: str) -> str:
        # One lock for every write of this kind, not one per name: a rename (locking the old
        # name) and a new document under the new name in another case (locking that name)
        # would both pass the "already exists" check on PostgreSQL, and the table's unique
        # constraint is case-sensitive (s35-review). Documents are saved by hand, rarely.
        del name
        return self.lock_prefix

    def _row(self, s: Session, name: str) -> R | None:
        q = self.query().where(func.lower(self.row_type.name) == name.strip().lower())
        row: R | None = s.scalars(q).first()
        return row

    def _unknown(self, s: Session, name: str) -> UnknownNameError:
        names = sorted((r.name for r in s.scalars(self.query())), key=str.lower)
        return UnknownNameError(self.label, name, names)

    def rows(self, s: Session) -> list[R]:
        """Every row of this kind, by name (any case)."""
        rows: list[R] = list(s.scalars(self.query()))
        return sorted(rows, key=lambda r: str(r.name).lower())

    def versioned(self, name: str) -> Versioned[T]:
        """The document ``name`` (any case) and its version, read in one snapshot."""

        def work(s: Session) -> Versioned[T]:
            row = self._row(s, name)
            if row is None:
                raise self._unknown(s, name)
            return Versioned(self.load(row), int(row.version))

        return self.store._run(f"{self.label} {name!r}", work, write=False)

    def save(
        self,
        value: T,
        *,
        replace: bool = True,
        expected_version: int | None = None,
        name: str | None = None,
    ) -> int:
        """Store ``value`` under its own name and return its new version, in one transaction.

        ``name`` is the document as it was stored before (a renamed document: the row of
        ``name`` is updated and takes the new name); by default the document's own name. A new
        document gets version 1; one of that name that exists is replaced only with ``replace``
        (else a :class:`StorageError`), and with ``expected_version`` only if no save came after
        that version (else :class:`ChangedElsewhereError`). Another document already called
        the new name (any case) is refused; a name of more than :data:`NAME_CHARS` characters
        (or none) is bad input, :class:`~warbench.kernel.errors.ProfileError` naming ``name``.
        """
        new_name = self.name_of(value).strip()
        old_name = (name or new_name).strip()
        subject = f"{self.label} {old_name!r}"
        if not 1 <= len(new_name) <= NAME_CHARS:
            # bad input (422 naming the field), not a conflict with what is stored (409)
            raise ProfileError("name", new_name, f"1 to {NAME_CHARS} characters", source=self.label)

        def work(s: Session) -> int:
            row = self._row(s, old_name)
            if row is None and expected_version is not None:
                raise ChangedElsewhereError(subject, expected_version, None)
            if row is not None and expected_version is not None and row.version != expected_version:
                raise ChangedElsewhereError(subject, expected_version, row.version)
            if row is not None and not replace and expected_version is None:
                raise StorageError(f"a {self.label} called {row.name!r} already exists")
            if row is None and name is not None and name.strip().lower() != new_name.lower():
                raise self._unknown(s, name)
            if new_name.lower() != old_name.lower():
                taken = self._row(s, new_name)
                if taken is not None and (row is None or taken.id != row.id):
                    raise StorageError(f"a {self.label} called {taken.name!r} already exists")
            if row is None:
                row = self.new_row()
                s.add(row)
            row.name = new_name
            self.fill(row, value)
            row.version = (row.version or 0) + 1
            s.flush()
            return int(row.version)

        return self.store._run(subject, work, write=True, lock=self._lock(old_name))

    def delete(self, name: str, *, expected_version: int | None = None) -> None:
        """Delete the document ``name``; with ``expected_version``, only if no other save came
        after that version (else :class:`ChangedElsewhereError`)."""
        subject = f"{self.label} {name!r}"

        def work(s: Session) -> None:
            row = self._row(s, name)
            if row is None:
                if expected_version is not None:
                    raise ChangedElsewhereError(subject, expected_version, None)
                raise self._unknown(s, name)
            if expected_version is not None and row.version != expected_version:
                raise ChangedElsewhereError(subject, expected_version, row.version)
            s.delete(row)

        self.store._run(subject, work, write=True, lock=self._lock(name))
