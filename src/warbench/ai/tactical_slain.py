"""A habit of the ``tactical`` player added in session 32 (issue 15): **the slain do not
threaten** (switch ``TacticalBot.slain_gone``).

Casualties are removed only at the end of the Attack Phase, once every player has attacked
(Core Rules 001_d3f5e425c5e1196d.txt L2872), so in the middle of the phase a unit's slain
models (0 HP, not yet removed, §5.11) still stand on the table. They attack no more after this
phase: the threat an enemy melee unit carries into the next Attack Phases
(:func:`warbench.ai.tactical_threat.threat`) is that of its models still standing. The focus
fire used to count every model not yet removed: after the Assault Squad's Energy Swords had
taken 11 of the Gut-Hackers' 12 HP in a Melee, the Sniper Troopers still saw the threat of
six Gut-Hackers behind the last HP and shot it (at -1 into the Melee, L2678) instead of the
Urban Hunter Car with 2 of its 4 HP left (ruins, seed 15, Game Turn 2; docs/ai.md, session 32).
With the habit the threat is scaled by the share of the unit's models still standing.
"""

from __future__ import annotations

from typing import Any


def standing_share(u: Any, models: int) -> float:
    """The share of a unit's ``models`` still standing: neither removed nor slain in this
    Attack Phase (0 HP, removed at its end, L2872)."""
    return len(u.living()) / max(1, models)


def present_share(u: Any, models: int) -> float:
    """The share of a unit's ``models`` not yet removed (slain ones counted until the end of
    the Attack Phase, L2872): the models that may still attack in it."""
    return sum(1 for gone in u.removed if not gone) / max(1, models)
