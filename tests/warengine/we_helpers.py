"""Shared builders for the WarEngine tests (004_f4ea5693af0644ce.txt)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warbench.rulesets.warengine.models import Figure, Force, Weapon

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "warengine"
BOOK = Path("/work/shared/seeds/004_f4ea5693af0644ce.txt")


def weapon(**kw: Any) -> Weapon:
    kw.setdefault("name", "w")
    return Weapon.model_validate(kw)


def figure(**kw: Any) -> Figure:
    kw.setdefault("name", "f")
    kw.setdefault("type", "T")
    if kw["type"] in ("L", "M", "H"):
        kw.setdefault("tweaks", ["Vehicle"])
    return Figure.model_validate(kw)


def trooper(n_heavy: int = 0) -> dict[str, Any]:
    weapons: list[dict[str, Any]] = [{"name": "knife", "av": "1k1"}]
    if n_heavy:
        weapons.append({"name": "cannon", "range": '24"', "av": "4k4"})
    return {"name": "t", "type": "T", "mv": '6"', "df": "2k2", "weapons": weapons}


def force(units: list[dict[str, Any]], figures: dict[str, Any], **kw: Any) -> Force:
    data = {"name": "test", "renown": 1000, "force": 2500, "figures": figures, "units": units}
    data.update(kw)
    return Force.model_validate(data)


def unit(name: str, *members: tuple[str, int], tweaks: list[str] | None = None) -> dict[str, Any]:
    return {
        "name": name,
        "members": [{"figure": k, "count": n} for k, n in members],
        "tweaks": tweaks or [],
    }
