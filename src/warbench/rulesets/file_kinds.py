"""Which ruleset's data file a document is, told by its top-level keys, so that a file of one
ruleset given to another ruleset's command is one line naming what it is and what reads it
(session 34, s34-user), instead of a complaint about the first field the reader did not expect
(``warbench points warpeyes.yaml`` said ``name = 'name' is not allowed``;
``warbench warengine points virgil.yaml`` said ``type = None is not allowed``).

Only the keys are read, never a rule: each ruleset's reader still decides whether its own file is
valid. A ruleset's reader calls :func:`other_ruleset_error` when its own validation fails;
WARSURGE's finer kinds (unit, weapon, game roster, roster) are told apart by
``rulesets/warsurge/file_kinds.py``, which asks this module about the other rulesets' files.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warbench.kernel.errors import DataFileError


@dataclass(frozen=True)
class FileKind:
    """A kind of data file: its ruleset, its name, the keys that tell it, and what reads it."""

    ruleset: str
    name: str
    keys: tuple[str, ...]
    read_by: str


#: the kinds, most distinctive keys first (docs/formats.md, docs/warengine.md, docs/collision.md)
KINDS: tuple[FileKind, ...] = (
    FileKind(
        "warengine",
        "WarEngine force",
        ("renown",),
        "check it with: warbench warengine validate FILE; play it with: warbench play "
        "--ruleset warengine FILE OTHER_FORCE",
    ),
    FileKind(
        "warengine",
        "WarEngine figure",
        ("mv", "df"),
        "price it with: warbench warengine points FILE",
    ),
    FileKind(
        "collision",
        "Collision battle group",
        ("characters",),
        "check it with: warbench collision validate FILE; play it with: warbench simulate "
        "--ruleset collision FILE OTHER_GROUP",
    ),
    FileKind(
        "collision",
        "Collision character card",
        ("tarot",),
        "check it with: warbench collision validate FILE; print it with: warbench collision "
        "card FILE --html CARD.html",
    ),
    FileKind("warsurge", "WARSURGE roster", ("roster",), "see it with: warbench roster show FILE"),
    FileKind(
        "warsurge",
        "WARSURGE game roster",
        ("player", "units"),
        "play it with: warbench battle FILE OTHER_ROSTER",
    ),
    FileKind(
        "warsurge", "WARSURGE weapon file", ("weapon",), "add it with: warbench armoury add FILE"
    ),
    FileKind("warsurge", "WARSURGE unit file", ("unit",), "price it with: warbench points FILE"),
)


def ruleset_file(data: Any) -> FileKind | None:
    """The first kind whose keys ``data`` (a parsed document) has at its top level, or ``None``."""
    if not isinstance(data, dict):
        return None
    return next((k for k in KINDS if all(key in data for key in k.keys)), None)


def other_ruleset_error(
    data: Any, source: str, ruleset: str, expected: str, command: str
) -> DataFileError | None:
    """The one-line error for ``data`` when it is recognisably another ruleset's file than
    ``ruleset``'s (``expected`` names the kind the caller reads, ``command`` the command), else
    ``None`` (the caller's own error stands)."""
    kind = ruleset_file(data)
    if kind is None or kind.ruleset == ruleset:
        return None
    name = data.get("name") if isinstance(data, dict) else None
    if name is None and isinstance(data, dict):
        inner = data.get("roster") or data.get("unit") or data.get("weapon")
        name = inner.get("name") if isinstance(inner, dict) else data.get("player")
    label = str(name)[:60] if name else "no name"
    return DataFileError(
        source,
        f"is a {kind.name} ({label}), not a {expected}; {command} reads a {expected}; "
        f"{kind.read_by.replace('FILE', source)}",
    )
