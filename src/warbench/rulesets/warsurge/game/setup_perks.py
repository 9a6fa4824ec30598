"""Every perk a game's set-up names (issue 10, session 28).

A perk hook that can act only where some perk is in the game is registered with those perks
(``HookRegistry.register(..., perks=...)``); :class:`~.hooks.HookRegistry` then fires it only in
the games whose set-up names one of them, so a game without the perk no longer asks the
hook's question at every Phase, Move and Attack. The names are the effects table's
(``EffectTable.find``: the catalog's spellings, ``Destroy 1`` is ``Destroy I``).

The set-up's players (rosters: units, their profiles, Weapons, Traits) and units are read
whole, every text of them: a string that is no perk's name finds no row and is left out, so
a perk is named wherever it is written (a profile, a Weapon, a Trait, a linked profile, a
roster entry's copy).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from warbench.rulesets.warsurge.effects.table import load_table
from warbench.rulesets.warsurge.game.memo import per_setup

__all__ = ["named_perks"]


def _texts(root: object) -> Iterator[str]:
    """Every string reachable from ``root`` through containers, dataclasses and pydantic
    models (each object once)."""
    seen: set[int] = set()
    stack: list[object] = [root]
    while stack:
        obj = stack.pop()
        if isinstance(obj, str):
            yield obj
            continue
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, tuple | list | set | frozenset):
            stack.extend(obj)
        elif isinstance(obj, Mapping):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            stack.extend(getattr(obj, f.name) for f in dataclasses.fields(obj))
        else:
            fields: Any = getattr(type(obj), "model_fields", None)  # a pydantic model
            if isinstance(fields, Mapping):
                stack.extend(getattr(obj, name, None) for name in fields)


@per_setup
def named_perks(setup: Any) -> frozenset[str]:
    """The effects table's names of every perk ``setup`` names (its players and units)."""
    table = load_table()
    out: set[str] = set()
    for text in set(_texts((setup.players, setup.units))):
        row = table.find(text)
        if row is not None:
            out.add(row.name)
    return frozenset(out)
