"""Game rosters as YAML files: a player, an optional team and a list of units with points.

The game's own roster format (``docs/game.md``); WARSURGE rosters exported by ``warbench roster
export`` are read too (:func:`load_game_roster`)::

    player: Sci-Fi Humans
    team: Coalition            # optional (§3.3 team games)
    units:
      - file: ../troopers_10.yaml   # a unit file, relative to this roster
        points: 120
        base_mm: 32                 # optional, default 32 mm
      - file: ../tank.yaml
        base: {shape: rect, length_mm: 100, width_mm: 60, hull: true}  # §1.3, not with base_mm
      - unit: {name: Shadow Hounds, move: 7, dash: 6, defence: 3, hp: 1, armour: 4+}
        weapons: [{name: Hound Rifle, range: 24, type: Battle, attacks: 2, power: 3}]
        models: [{count: 5, weapons: [Hound Rifle]}]
        points: 80
        traits: [Respawn]           # optional: Traits (Fusion, Respawn, Summon adjust value)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warbench.kernel.errors import DataFileError, ProfileError
from warbench.rulesets.warsurge.game.state import DEFAULT_BASE_MM, PlayerSetup, RosterEntry
from warbench.rulesets.warsurge.io import _read, load_unit, unit_from_data

_ENTRY_KEYS = {
    "file",
    "unit",
    "weapons",
    "models",
    "points",
    "base_mm",
    "base",
    "name",
    "count",
    "traits",
}


def roster_from_data(
    data: Any, source: str = "<data>", base_dir: Path | None = None
) -> PlayerSetup:
    """Validate a game roster mapping (see the module docstring)."""
    if not isinstance(data, dict):
        raise DataFileError(source, "a game roster is a mapping with player and units")
    unknown = set(data) - {"player", "team", "units", "$schema"}
    if unknown:
        raise ProfileError(
            sorted(unknown)[0], data[sorted(unknown)[0]], "player, team, units", source=source
        )
    player = data.get("player")
    if not isinstance(player, str) or not player.strip():
        raise ProfileError("player", player, "a player name", source=source)
    team = data.get("team")
    if team is not None and not isinstance(team, str):
        raise ProfileError("team", team, "a team name", source=source)
    units = data.get("units")
    if not isinstance(units, list) or not units:
        raise ProfileError("units", units, "a non-empty list of units", source=source)
    entries: list[RosterEntry] = []
    for i, e in enumerate(units):
        where = f"units[{i}]"
        if not isinstance(e, dict):
            raise ProfileError(where, e, "a mapping with file or unit", source=source)
        bad = set(e) - _ENTRY_KEYS
        if bad:
            raise ProfileError(
                f"{where}.{sorted(bad)[0]}",
                e[sorted(bad)[0]],
                ", ".join(sorted(_ENTRY_KEYS)),
                source=source,
            )
        if "file" in e:
            path = Path(str(e["file"]))
            if not path.is_absolute() and base_dir is not None:
                path = base_dir / path
            unit = load_unit(path)
        elif "unit" in e:
            unit = unit_from_data(
                {k: e[k] for k in ("unit", "weapons", "models") if k in e}, source, where
            )
        else:
            raise ProfileError(where, e, "a 'file' or an inline 'unit'", source=source)
        points = e.get("points")
        if points is not None and (not isinstance(points, int) or points < 0):
            raise ProfileError(f"{where}.points", points, "a whole number of points", source=source)
        base = e.get("base_mm", DEFAULT_BASE_MM)
        if not isinstance(base, int | float) or not 5 <= base <= 400:
            raise ProfileError(f"{where}.base_mm", base, "5 to 400 mm", source=source)
        shape = None
        if "base" in e:
            if "base_mm" in e:
                raise ProfileError(
                    f"{where}.base",
                    e["base"],
                    "base_mm (round) or base (oval, rect), not both",
                    source=source,
                )
            shape = base_from_data(e["base"], f"{where}.base", source)
        count = e.get("count", 1)
        if not isinstance(count, int) or not 1 <= count <= 20:
            raise ProfileError(f"{where}.count", count, "1 to 20 copies", source=source)
        traits = e.get("traits", [])
        if not isinstance(traits, list) or not all(isinstance(t, str) for t in traits):
            raise ProfileError(
                f"{where}.traits", traits, "a list of Trait names (Perks §12.6)", source=source
            )
        for _ in range(count):
            entries.append(
                RosterEntry(unit, points, float(base), e.get("name"), tuple(traits), shape)
            )
    return PlayerSetup(player.strip(), tuple(entries), team)


def load_game_roster(path: str | Path) -> PlayerSetup:
    """Read a game roster file (``.yaml``/``.yml``/``.json``): this module's format, or a
    WARSURGE roster exported by ``warbench roster export`` (``docs/rosters.md``)."""
    from warbench.rulesets.warsurge.file_kinds import expect_kind

    data, source = _read(path)
    # a unit or weapon file given for a roster is one line saying so (session 32, s32-user)
    expect_kind(data, source, ("game roster", "WARSURGE roster"), "a game")
    if isinstance(data, dict) and ("roster" in data or "point_limit" in data):
        return player_from_roster(data, source)
    return roster_from_data(data, source, Path(path).parent)


def player_from_roster(data: Any, source: str = "<roster>") -> PlayerSetup:
    """A player from a WARSURGE roster: each entry at the price the roster pays for it."""
    from warbench.rulesets.warsurge.roster import validate_roster
    from warbench.rulesets.warsurge.roster_io import roster_from_data as warsurge_roster

    roster = warsurge_roster(data, source)
    report = validate_roster(roster)
    # a Roster Perk designated to an entry (the Presence unit, Perks L1372) goes into play
    # with that entry, as one of its traits (kept by game records, docs/rulings.md)
    carried: dict[str, list[str]] = {}
    for rp in roster.roster_perks:
        if rp.unit:
            carried.setdefault(rp.unit, []).append(rp.perk)
    entries = tuple(
        RosterEntry(
            e.unit,
            cost.points,
            float(DEFAULT_BASE_MM),
            e.name,
            (*e.traits, *carried.get(e.name or e.unit.profile.name, ())),
        )
        for e, cost in zip(roster.units, report.entries, strict=True)
    )
    if not entries:
        raise ProfileError("units", [], "a roster with at least one unit", source=source)
    return PlayerSetup(roster.name, entries, None)


def roster_to_data(player: PlayerSetup) -> dict[str, Any]:
    """Inline form (every unit written out), used in game records."""
    from warbench.rulesets.warsurge.io import unit_to_data

    units = []
    for e in player.roster:
        d: dict[str, Any] = dict(unit_to_data(e.unit))
        d.pop("$schema", None)
        if e.points is not None:
            d["points"] = e.points
        if e.base is None:
            d["base_mm"] = e.base_mm
        else:
            d["base"] = base_to_data(e.base)
        if e.name:
            d["name"] = e.name
        if e.traits:
            d["traits"] = list(e.traits)
        units.append(d)
    out: dict[str, Any] = {"player": player.name, "units": units}
    if player.team:
        out["team"] = player.team
    return out


#: What a roster entry's ``base`` mapping may hold (§1.3).
_BASE_KEYS = ("shape", "length_mm", "width_mm", "hull")


def base_from_data(data: Any, where: str, source: str) -> Any:
    """An oval or rectangular base or hull (Core Rules 001 §1.3, L249-255) from a roster
    entry's ``base`` mapping: ``shape`` (``oval`` or ``rect``), ``length_mm`` along the model's
    facing and ``width_mm`` across it (10 to 2000 mm each), ``hull`` (``true``: the model has
    no base and is measured from its body or hull). Round bases are given with ``base_mm``."""
    from warbench.rulesets.warsurge.battlefield.model import Base

    if not isinstance(data, dict):
        raise ProfileError(where, data, "a mapping with shape, length_mm, width_mm", source=source)
    bad = sorted(set(data) - set(_BASE_KEYS))
    if bad:
        raise ProfileError(f"{where}.{bad[0]}", data[bad[0]], ", ".join(_BASE_KEYS), source=source)
    shape = data.get("shape")
    if shape not in ("oval", "rect"):
        raise ProfileError(
            f"{where}.shape", shape, "oval or rect (a round base: base_mm)", source=source
        )
    size: dict[str, float] = {}
    for key in ("length_mm", "width_mm"):
        v = data.get(key)
        if isinstance(v, bool) or not isinstance(v, int | float) or not 10 <= v <= 2000:
            raise ProfileError(f"{where}.{key}", v, "10 to 2000 mm", source=source)
        size[key] = float(v)
    hull = data.get("hull", False)
    if not isinstance(hull, bool):
        raise ProfileError(f"{where}.hull", hull, "true or false", source=source)
    return Base(shape=shape, hull=hull, **size)


def base_to_data(base: Any) -> dict[str, Any]:
    """A roster entry's ``base`` mapping (see :func:`base_from_data`)."""
    out: dict[str, Any] = {
        "shape": base.shape,
        "length_mm": base.length_mm,
        "width_mm": base.width_mm,
    }
    if base.hull:
        out["hull"] = True
    return out
