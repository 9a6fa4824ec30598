"""What a unit's statuses say, worked out once per (immutable) unit state (issue 11).

A perk-heavy game asks the same unit state many times an action whether it is under a status
(Defected, Seized, Wreckage, Incorporeal …). A ``UnitGS`` never changes (a change makes a new
one, :meth:`UnitGS.evolve`, which carries these answers over only while its statuses stay), so
the names of its statuses and the side that seized it are kept on the state itself, like its
present models.
"""

from __future__ import annotations

from typing import Any


def status_names(unit: Any) -> frozenset[str]:
    """The names of the unit state's statuses (a ``frozenset``, kept with the state)."""
    d = unit.__dict__
    names: frozenset[str] | None = d.get("_status_names")
    if names is None:
        names = frozenset(s.name for s in unit.statuses)
        object.__setattr__(unit, "_status_names", names)
    return names


def seized_side(unit: Any, prefix: str) -> int | None:
    """The side named by the unit's first status that starts with ``prefix`` (Dominate's
    ``"Seized by side N"``), or ``None``; kept with the state."""
    d = unit.__dict__
    if "_seized" in d:
        seized: int | None = d["_seized"]
        return seized
    seized = None
    for s in unit.statuses:
        if s.name.startswith(prefix):
            seized = int(s.name[len(prefix) :])
            break
    object.__setattr__(unit, "_seized", seized)
    return seized
