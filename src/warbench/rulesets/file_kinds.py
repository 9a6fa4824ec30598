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

import shlex
from dataclasses import dataclass
from pathlib import Path
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
    ``None`` (the caller's own error stands).

    The commands that read ``command``'s file and this one are said only when ``source`` is a
    file (its path quoted for a shell): a web request's body (``figure``) or a game set-up's
    entry (``rosters[0]``) is named with what it is, without commands to run on a path that is
    none (s34-review: the API answered "check it with: warbench collision validate figure")."""
    kind = ruleset_file(data)
    if kind is None or kind.ruleset == ruleset:
        return None
    name = data.get("name") if isinstance(data, dict) else None
    if name is None and isinstance(data, dict):
        inner = data.get("roster") or data.get("unit") or data.get("weapon")
        name = inner.get("name") if isinstance(inner, dict) else data.get("player")
    label = str(name)[:60] if name else "no name"
    said = f"is a {kind.name} ({label}), not a {expected}"
    if not _is_file(source):
        return DataFileError(source, said)
    read_by = kind.read_by.replace("FILE", shlex.quote(source))
    return DataFileError(source, f"{said}; {command} reads a {expected}; {read_by}")


def _is_file(source: str) -> bool:
    """Whether ``source`` (a reader's label for its document) is the path of a file."""
    try:
        return Path(source).is_file()
    except (OSError, ValueError):  # a label too long for a path, or with a NUL in it
        return False
