"""Typed errors shared by every ruleset.

Every error names the thing that is wrong and, where it makes sense, the values that are
allowed, so that the CLI can print one line and the web API can answer 4xx with a message.
"""

from __future__ import annotations

import difflib
import re
import reprlib
from collections.abc import Iterable

#: Line breaks (and the separators some editors write) inside a message.
_BREAKS = re.compile(r"\s*[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+\s*")
#: Other control characters, shown escaped.
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x1f\x7f-\x84\x86-\x9f]")

_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = 60
_REPR.maxother = 60
_REPR.maxlong = 40
for _attr in ("maxlist", "maxtuple", "maxdict", "maxset", "maxfrozenset", "maxdeque"):
    setattr(_REPR, _attr, 4)

#: The longest value shown in an error message.
PREVIEW_CHARS = 60


def one_line(text: str) -> str:
    """``text`` on one line: line breaks become spaces, other control characters are escaped."""
    text = _BREAKS.sub(" ", text)
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def preview(value: object, width: int = PREVIEW_CHARS) -> str:
    """A short one-line ``repr`` of ``value`` for messages, however large or nested it is.

    Bounded work: nested containers are cut after a few items and levels (``reprlib``), so a
    value shared a billion times by YAML aliases is never written out.
    """
    try:
        text = one_line(_REPR.repr(value))
    except Exception:  # a repr that fails must not hide the error being reported
        text = f"<{type(value).__name__}>"
    return text if len(text) <= width else text[: width - 1] + "…"


class WarbenchError(Exception):
    """Base class of every error warbench raises on purpose.

    Its text is always one line (the CLI prints it as is): line breaks in names, paths or
    parser messages become spaces.
    """

    def __str__(self) -> str:
        return one_line(super().__str__())


class ProfileError(WarbenchError):
    """A profile (unit, weapon, figure ...) has an invalid field.

    ``source`` is the file (or other origin) the profile came from, ``field`` the dotted path of
    the field, ``value`` the offending value and ``allowed`` a human description of what is
    accepted.
    """

    def __init__(
        self,
        field: str,
        value: object,
        allowed: str,
        *,
        source: str | None = None,
        reason: str | None = None,
    ) -> None:
        self.source = source
        self.field = field
        self.value = value
        self.allowed = allowed
        self.reason = reason
        where = f"{source}: " if source else ""
        why = f" ({reason})" if reason else ""
        super().__init__(
            f"{where}{field} = {preview(value)} is not allowed{why}; allowed: {allowed}"
        )


class DataFileError(WarbenchError):
    """A data file cannot be read or parsed at all (missing, malformed YAML/JSON)."""

    def __init__(self, source: str, reason: str) -> None:
        self.source = source
        self.reason = reason
        super().__init__(f"{source}: {reason}")


#: How many known names an :class:`UnknownNameError` lists when none is close to the given one.
KNOWN_SHOWN = 12


class UnknownNameError(WarbenchError):
    """A name (perk, weapon, unit ...) is not known; suggests the closest known names, or lists
    the known ones (the first :data:`KNOWN_SHOWN`) when none is close."""

    def __init__(self, kind: str, name: str, known: Iterable[str], *, where: str = "") -> None:
        known_list = list(known)
        self.kind = kind
        self.name = name
        self.suggestions = difflib.get_close_matches(name, known_list, n=3, cutoff=0.5)
        if not self.suggestions:
            lowered = {k.lower(): k for k in known_list}
            self.suggestions = [
                lowered[k]
                for k in difflib.get_close_matches(name.lower(), list(lowered), n=3, cutoff=0.4)
            ]
        if self.suggestions:
            hint = f"; did you mean {' or '.join(preview(s) for s in self.suggestions)}?"
        elif known_list:  # nothing close: name what is allowed (a few of them when many)
            shown = ", ".join(preview(k) for k in known_list[:KNOWN_SHOWN])
            more = len(known_list) - KNOWN_SHOWN
            hint = f"; known: {shown}" + (f" and {more} more" if more > 0 else "")
        else:
            hint = f"; there is no {kind} yet"
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}unknown {kind} {preview(name)}{hint}")


class DiceError(WarbenchError):
    """A dice expression or a scripted dice sequence is invalid or exhausted."""


class RulesError(WarbenchError):
    """An action or a request breaks a rule; carries the reason and the rule reference."""

    def __init__(self, reason: str, rule: str) -> None:
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} [{rule}]")


class EnumerationTooLarge(WarbenchError):
    """Exact enumeration would explode; callers fall back to Monte Carlo."""


class StorageError(WarbenchError):
    """The database cannot be opened, stays busy, or refuses a change.

    The message names the roster, game, faction or database concerned and says why, in one line.
    """


class ChangedElsewhereError(StorageError):
    """An edit was made from a version that another writer has since replaced (optimistic
    versioning): the editor must load the newest version and redo the change."""

    def __init__(self, subject: str, expected: int, actual: int | None) -> None:
        self.subject = subject
        self.expected = expected
        self.actual = actual
        now = "it was deleted" if actual is None else f"it is now at version {actual}"
        super().__init__(
            f"{subject} was changed elsewhere: this edit started from version {expected} but "
            f"{now}; load it again and redo the change"
        )
