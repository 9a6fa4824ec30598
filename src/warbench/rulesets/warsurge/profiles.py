"""WARSURGE unit and weapon profiles (Core Rules 001_d3f5e425c5e1196d.txt §1.5, §1.6, §5.1, §5.16).

A :class:`UnitProfile` holds the Unit Stats, a :class:`WeaponProfile` the Weapon Stats. A
:class:`Unit` puts models on the battlefield: groups of models that share the unit profile and
each carry a list of weapons, so a unit can mix weapons (5 models with shields, 3 with
halberds). Save-like stats (Armour, AEGIS, AP) are stored as the number needed on a D6
(2..6) or ``None`` for nil ("-").
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, model_validator

SAVE_ALLOWED = "-, 2+, 3+, 4+, 5+ or 6+"


def parse_save(value: Any) -> int | None:
    """Read ``"3+"``, ``3``, ``"6"``, ``"-"``, ``""`` or ``None`` as a D6 target (or ``None``)."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"must be one of {SAVE_ALLOWED}")
    if isinstance(value, int):
        n = value
    elif isinstance(value, str):
        text = value.strip()
        if text in ("", "-", "–", "—", "nil", "none"):
            return None
        m = re.fullmatch(r"(\d+)\+?", text)
        if not m:
            raise ValueError(f"must be one of {SAVE_ALLOWED}")
        n = int(m[1])
    else:
        raise ValueError(f"must be one of {SAVE_ALLOWED}")
    if not 2 <= n <= 6:
        raise ValueError(f"must be one of {SAVE_ALLOWED}")
    return n


def format_save(value: int | None) -> str:
    """``3`` → ``"3+"``, ``None`` → ``"-"``."""
    return "-" if value is None else f"{value}+"


SaveStat = Annotated[
    int | None,
    BeforeValidator(parse_save),
    PlainSerializer(format_save, return_type=str),
]


class WeaponType(StrEnum):
    """Weapon Type (§5.1): what the wielder may do in the same Game Turn, and melee modifiers."""

    HEAVY = "Heavy"
    BATTLE = "Battle"
    ASSAULT = "Assault"


def _perk_list(value: Any) -> Any:
    if value is None:
        return []
    if isinstance(value, str):
        return [p.strip() for p in value.split(",") if p.strip()]
    return value


PerkList = Annotated[list[str], BeforeValidator(_perk_list)]

_STRICT = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class WeaponProfile(BaseModel):
    """A Weapon profile (§1.6, §5.1, §5.16)."""

    model_config = _STRICT

    name: str = Field(min_length=1, max_length=80)
    range: int = Field(0, ge=0, le=300, description='Range in inches; 0" is a melee weapon.')
    attacks: int = Field(ge=1, le=30, description="Attack Dice per model (1-30).")
    power: int = Field(ge=0, le=10, description="Power (0-10) against Defence.")
    ap: SaveStat = Field(None, description="Armour Piercing: - or 2+..6+.")
    type: WeaponType = WeaponType.ASSAULT
    deflect: int = Field(0, ge=0, le=5, description="Improves Armour Saves (§5.16).")
    ward: int = Field(0, ge=0, le=5, description="Improves AEGIS Saves (§5.16).")
    parry: int = Field(0, ge=0, le=5, description="Improves AEGIS Saves in a Melee (§5.16).")
    perks: PerkList = Field(default_factory=list, description="Weapon Perks (Book 2 §12.5).")
    symbol: str = ""
    lore: str = ""


class UnitProfile(BaseModel):
    """A Unit profile (§1.5): every model of a unit shares it."""

    model_config = _STRICT

    name: str = Field(min_length=1, max_length=80)
    move: int = Field(ge=0, le=50, description='Move in inches (0-50").')
    dash: int = Field(ge=0, le=50, description='Dash in inches (0-50").')
    defence: int = Field(ge=0, le=10, description="Defence (0-10).")
    hp: int = Field(ge=1, le=99, description="Hit Points per model (1-99).")
    armour: SaveStat = Field(None, description="Armour Save: - or 2+..6+.")
    aegis: SaveStat = Field(None, description="AEGIS Save: - or 2+..6+.")
    transport: int = Field(0, ge=0, le=9999, description="Transport capacity (0 = none).")
    fire_points: int = Field(0, ge=0, le=99, description="Fire Points (Transports only).")
    perks: PerkList = Field(default_factory=list, description="Unit Perks (Book 2 §12.4).")
    symbol: str = ""
    lore: str = ""

    @model_validator(mode="after")
    def _fire_points_need_transport(self) -> UnitProfile:
        if self.fire_points and not self.transport:
            raise ValueError("fire_points need a Transport Stat above 0 (§1.5 Fire Point)")
        return self


class ModelGroup(BaseModel):
    """``count`` models that each carry the listed weapons (by weapon name)."""

    model_config = _STRICT

    count: int = Field(ge=1, le=500)
    weapons: list[str] = Field(default_factory=list)


class Unit(BaseModel):
    """A unit on the table: a unit profile, the weapon profiles it uses, and its models."""

    model_config = _STRICT

    profile: UnitProfile
    weapons: list[WeaponProfile] = Field(default_factory=list)
    models: list[ModelGroup] = Field(min_length=1)

    @property
    def name(self) -> str:
        return self.profile.name

    @property
    def model_count(self) -> int:
        return sum(g.count for g in self.models)

    def weapon(self, name: str) -> WeaponProfile:
        """The weapon profile called ``name`` (case-insensitive)."""
        for w in self.weapons:
            if w.name.lower() == name.lower():
                return w
        from warbench.kernel.errors import UnknownNameError

        raise UnknownNameError("weapon", name, [w.name for w in self.weapons], where=self.name)

    def model_weapons(self) -> list[tuple[str, ...]]:
        """One entry per model: the names of the weapons it carries."""
        out: list[tuple[str, ...]] = []
        for g in self.models:
            out.extend([tuple(g.weapons)] * g.count)
        return out

    def weapon_names_in_order(self) -> list[str]:
        """Weapon profiles carried by at least one model, in profile order (Attack Step 6)."""
        carried = {w for g in self.models for w in g.weapons}
        return [w.name for w in self.weapons if w.name in carried]

    @model_validator(mode="after")
    def _weapons_exist(self) -> Unit:
        names = [w.name for w in self.weapons]
        dupes = {n for n in names if names.count(n) > 1}
        if dupes:
            raise ValueError(f"duplicate weapon names {sorted(dupes)}")
        for i, g in enumerate(self.models):
            for w in g.weapons:
                if w not in names:
                    raise ValueError(
                        f"models[{i}] carries weapon {w!r}, which has no profile; "
                        f"known weapons: {names}"
                    )
        return self
