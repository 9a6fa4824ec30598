"""Typed errors shared by every ruleset.

Every error names the thing that is wrong and, where it makes sense, the values that are
allowed, so that the CLI can print one line and the web API can answer 4xx with a message.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class WarbenchError(Exception):
    """Base class of every error warbench raises on purpose."""


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
        super().__init__(f"{where}{field} = {value!r} is not allowed{why}; allowed: {allowed}")


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
            hint = f"; did you mean {' or '.join(repr(s) for s in self.suggestions)}?"
        elif known_list:  # nothing close: name what is allowed (a few of them when many)
            shown = ", ".join(known_list[:KNOWN_SHOWN])
            more = len(known_list) - KNOWN_SHOWN
            hint = f"; known: {shown}" + (f" and {more} more" if more > 0 else "")
        else:
            hint = f"; there is no {kind} yet"
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}unknown {kind} {name!r}{hint}")


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
