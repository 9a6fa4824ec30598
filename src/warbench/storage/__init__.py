"""Storage of factions, the Armoury, rosters and saved games (SQLAlchemy 2 + Alembic).

A layer above the rules: it imports the rules models, never the other way round. The default
database is a SQLite file in the user data directory; any SQLAlchemy URL (PostgreSQL …) can be
given instead. Every write runs in one transaction, so a failure never leaves half a roster.
"""

from warbench.storage.store import (
    DB_ENV,
    DEFAULT_TIMEOUT,
    ChangedElsewhereError,
    StorageError,
    Store,
    Versioned,
    database_url,
    default_url,
)

__all__ = [
    "DB_ENV",
    "DEFAULT_TIMEOUT",
    "ChangedElsewhereError",
    "StorageError",
    "Store",
    "Versioned",
    "database_url",
    "default_url",
]
