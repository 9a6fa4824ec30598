"""The Actions of the Advanced playstyle that Standard has no counterpart for (Core Rules
001_d3f5e425c5e1196d.txt §9.1-9.2). Move, Dash (``Move(dash=True)``), Attack and Deploy are the
Standard actions (:mod:`.actions`), used in an Action Step."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class UsePerks:
    """§9.2 Use Perks: the unit uses its activated Unit Perks (``perks``: names; empty for all
    that apply)."""

    unit: int
    perks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Prepare:
    """§9.2 Prepare: reset Heavy and Battle Weapons for moving, or moving for them."""

    unit: int


@dataclass(frozen=True)
class Guard:
    """§9.2 Guard: +1 Defence per use until a different Action or the end of the Game Turn."""

    unit: int


@dataclass(frozen=True)
class Support:
    """§9.2 Support: +1 CP; the unit makes no more Actions this Game Turn; ends the step."""

    unit: int


@dataclass(frozen=True)
class EndStep:
    """§9.1 step 3: end the Action Step after one Action (a step is "up to two")."""


@dataclass(frozen=True)
class Counter:
    """§9.3: the attacked unit's Counter Action against the Attack Action waiting: ``choice``
    is ``"none"``, ``"attack"`` (Counter Attack on the attacking unit with every weapon that
    can), ``"guard"`` (Counter Guard) or ``"perk"`` (Counter Perk)."""

    unit: int
    choice: str = "none"
