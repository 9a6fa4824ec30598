"""What kind of WARSURGE data file a document is, told by its top-level keys, so that a file of
the wrong kind is one line naming what it is and which command reads it (session 32, s32-user),
instead of a schema complaint about the first key the reader did not expect
(``models = [...] is not allowed; allowed: player, team, units``).

The kinds (``docs/formats.md``, ``docs/game.md``, ``docs/rosters.md``):

* a **unit file**: ``unit: {...}`` with ``weapons`` and ``models``, or ``units: [{unit: ...}]``;
* a **weapon file**: ``weapon: {...}``;
* a **game roster**: ``player`` (or ``team``) and ``units`` whose entries carry ``points`` or a
  ``file`` (``examples/warsurge/rosters/``), read by ``battle``, ``play`` and ``simulate``;
* a **WARSURGE roster**: ``roster: {name, point_limit, ...}`` as ``warbench roster export``
  writes it, read by ``roster show|validate|import`` and by the games.
"""

from __future__ import annotations

from typing import Any, Literal

from warbench.kernel.errors import DataFileError

Kind = Literal["unit file", "weapon file", "game roster", "WARSURGE roster"]

#: what each kind is for: the commands that read it
READ_BY: dict[Kind, str] = {
    "unit file": (
        "price it with: warbench points FILE; add it to a roster with: warbench roster add "
        "ROSTER FILE"
    ),
    "weapon file": "add it to the Armoury with: warbench armoury add FILE",
    "game roster": (
        "play it with: warbench battle FILE OTHER_ROSTER (or play, simulate; docs/game.md)"
    ),
    "WARSURGE roster": (
        "see its priced lines with: warbench roster show FILE; play it with: warbench battle "
        "FILE OTHER_ROSTER"
    ),
}


def _name(value: Any) -> str:
    """A profile's or roster's name, cut to 60 characters for a one-line message."""
    name = str(value.get("name", "")) if isinstance(value, dict) else ""
    return name if len(name) <= 60 else name[:59] + "…"


def file_kind(data: Any) -> tuple[Kind, str] | None:
    """The kind of ``data`` (a parsed YAML/JSON document) and a short summary of it (its name
    and how many units), or ``None`` when it is none of the kinds above."""
    if not isinstance(data, dict):
        return None
    units = data.get("units")
    entries = [u for u in units if isinstance(u, dict)] if isinstance(units, list) else []
    if "roster" in data:
        roster = data["roster"]
        held = roster.get("units") if isinstance(roster, dict) else None
        count = f", {len(held)} units" if isinstance(held, list) else ""
        return "WARSURGE roster", f"{_name(roster) or 'no name'}{count}"
    if "player" in data or "team" in data or any("points" in u or "file" in u for u in entries):
        player = _name({"name": data.get("player") or data.get("team") or "no player"})
        return "game roster", f"{player}, {len(entries)} units"
    if "weapon" in data:
        return "weapon file", _name(data["weapon"]) or "no name"
    if "unit" in data:
        return "unit file", _name(data["unit"]) or "no name"
    if entries and all("unit" in u for u in entries):
        names = [_name(u["unit"]) or "no name" for u in entries[:3]]
        return "unit file", ", ".join(names) + (
            f" and {len(entries) - 3} more" if len(entries) > 3 else ""
        )
    return None


def expect_kind(
    data: Any, source: str, wanted: tuple[Kind, ...], command: str, *, ignore: tuple[Kind, ...] = ()
) -> None:
    """Raise one :class:`DataFileError` line when ``data`` is recognisably another kind of file
    than ``wanted``: what it is, what ``command`` reads, and what reads this file. A document of
    no recognisable kind, or of a kind in ``ignore`` (one the caller words itself), is left to
    the reader's own errors; a file of another ruleset (a WarEngine figure, a Collision card) is
    named as such (:mod:`warbench.rulesets.file_kinds`, session 34)."""
    from warbench.rulesets.file_kinds import other_ruleset_error

    found = file_kind(data)
    if found is None:  # another ruleset's file (session 34)? else the reader's own error
        error = other_ruleset_error(data, source, "warsurge", " or ".join(wanted), command)
        if error is not None:
            raise error
        return
    if found[0] in wanted or found[0] in ignore:
        return
    kind, summary = found
    expected = " or ".join(wanted)
    raise DataFileError(
        source,
        f"is a {kind} ({summary}), not a {expected}; {command} reads a {expected}; "
        f"{READ_BY[kind].replace('FILE', source)}",
    )
