"""One-line errors for a file of the wrong kind: a weapon file where unit files are expected,
a unit file where weapon files are, a directory where a file is (issue 18 follow-up)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from warbench.cli.app import fail
from warbench.kernel.errors import ProfileError, WarbenchError

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.profiles import Unit, WeaponProfile

UNIT_FILES = "unit files (unit: {...}, weapons: [...], models: [...])"
WEAPON_FILES = "weapon files (weapon: {name: ..., range: ..., ...})"


def units_in(path: Path, command: str) -> list[Unit]:
    """The units of a unit file for ``command``; a directory or a weapon file is one line."""
    from warbench.rulesets.warsurge.file_kinds import expect_kind
    from warbench.rulesets.warsurge.io import _read, load_units, load_weapon

    if path.is_dir():
        raise fail(f"{path}: is a directory; {command} expects {UNIT_FILES}")
    data: object = None
    source = str(path)
    try:
        return load_units(path)
    except ProfileError as exc:
        # a roster of either kind: one line saying what it is and what reads it (session 32)
        with contextlib.suppress(WarbenchError):
            data, source = _read(path)
        if data is not None:
            expect_kind(data, source, ("unit file",), command, ignore=("weapon file",))
        try:
            weapon = load_weapon(path)
        except WarbenchError:
            raise exc from None
        raise fail(
            f"{path}: is a weapon file ({weapon.name}), not a unit file; {command} expects "
            f"{UNIT_FILES}; add a weapon to the Armoury with: warbench armoury add {path}"
        ) from None


def weapon_in(path: Path, command: str) -> WeaponProfile:
    """The weapon of a weapon file for ``command``; a directory or a unit file is one line."""
    from warbench.rulesets.warsurge.io import load_units, load_weapon

    if path.is_dir():
        raise fail(f"{path}: is a directory; {command} expects {WEAPON_FILES}")
    try:
        return load_weapon(path)
    except ProfileError as exc:
        try:
            units = load_units(path)
        except WarbenchError:
            raise exc from None
        names = ", ".join(u.name for u in units)
        raise fail(
            f"{path}: is a unit file ({names}), not a weapon file; {command} expects "
            f"{WEAPON_FILES}; add a unit to a faction with: warbench faction add-unit FACTION "
            f"{path}"
        ) from None
