"""Fusion in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Transformation, L2442-L2464).

    "Fusion — Activate, Limited Use (1), Point Cost (Greater). The User is formed by removing
    one or more friendly Units during Deployment or with a Deploy Command. These Units can be
    selected from the Battlefield or Reserve and must add up to 10 times the Point Cost of the
    User. Once the Point Cost has been met, the User is placed in Reserve and can be Deployed
    immediately. Refer to a removed Unit's Current Point Cost for creating a Fusion. Units with
    Summon or Respawn (Traits) cannot be used to activate Fusion. The User can be used to create
    a different Fusion Unit, but multiply the User's Point Cost by 10 to determine its value for
    Fusion. Example: A 20pts User Deploys, but must remove 200pts worth of friendly Units."

* **Unformed** (:func:`unformed`): a unit with Fusion that has not been formed (its Limited Use
  not spent) may not be Deployed (:func:`deploy_refusal`, from ``deployment.verify_deploy``)
  until it is formed; it is not in the game yet, so it is not material for another Fusion.
* **Material** (:func:`candidates`, :func:`material_value`): friendly units (the User's own
  Roster, L86) in Reserve or on the table (not embarked, not inside a terrain piece, carrying
  no passengers), with a model left, without Summon or Respawn; each worth its Current Point
  Cost (Fusion x10, L333: a formed Fusion unit counts ten times its cost). The total must be at
  least 10 times the User's Point Cost.
* **Forming** (:func:`form`): the units are removed from the game (not casualties: no perk
  answers them), the Limited Use is spent and the User, in Reserve, may be Deployed at once.
  The player names the units with ``UsePerks(unit, ("Fusion: <label>, <label>",))`` in the
  Deploy Phase (Advanced: the Action Steps); under the ``perk use`` automation a Deploy of an
  unformed unit forms it first with the engine's choice (:func:`default_material`: the fewest
  points over the need, greedily), after its placement is checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.state import (
    Automation,
    Location,
    Phase,
    unit_value,
)

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "FUSION",
    "candidates",
    "default_material",
    "deploy_refusal",
    "form",
    "form_on_deploy",
    "material_value",
    "named",
    "refused",
    "unformed",
]

FUSION = "Fusion"
RULE = "Perks §12.4 Fusion (000_94ecc6a4c74d351b.txt L2442)"
FACTOR = 10  # "must add up to 10 times the Point Cost of the User"
_BARRED = frozenset({"Summon", "Respawn"})


def _names(work: Work, uid: int) -> frozenset[str]:
    from warbench.rulesets.warsurge.effects.table import load_table

    info = work.info(uid)
    return frozenset(
        r.name for n in (*info.unit.profile.perks, *info.traits) if (r := load_table().find(n))
    ) | frozenset(info.traits)


_HOLDERS: dict[int, tuple[GameSetup, frozenset[int]]] = {}


def _holders(work: Work) -> frozenset[int]:
    """The units with Fusion (once per set-up)."""
    setup = work.setup
    hit = _HOLDERS.get(id(setup))
    if hit is not None and hit[0] is setup:
        return hit[1]
    if len(_HOLDERS) > 64:
        _HOLDERS.clear()
    out = frozenset(u for u in range(len(setup.units)) if FUSION in _names(work, u))
    _HOLDERS[id(setup)] = (setup, out)
    return out


def unformed(work: Work, uid: int) -> bool:
    """Whether ``uid`` has Fusion and has not been formed yet."""
    return uid in _holders(work) and not work.units[uid].used(FUSION)


def need(work: Work, uid: int) -> float:
    """The points of friendly units the User must remove: 10 times its Point Cost."""
    return FACTOR * work.info(uid).points


def material_value(work: Work, uid: int) -> float:
    """A removed unit's Current Point Cost (L98), with Fusion x10 (L333), wherever it is."""
    return unit_value(work.info(uid), work.units[uid])


def _why_not(work: Work, user: int, uid: int) -> str | None:
    info, u = work.info(uid), work.units[uid]
    if uid == user or info.player != work.info(user).player:
        return "not another unit of the User's Roster"
    if u.location not in (Location.RESERVE, Location.TABLE) or u.terrain is not None:
        return "neither on the Battlefield nor in Reserve"
    if work.passengers(uid):
        return "carrying passengers"
    if not u.living():
        return "with no model left"
    if _names(work, uid) & _BARRED:
        return "a unit with Summon or Respawn"
    if unformed(work, uid):
        return "a Fusion unit not formed yet"
    return None


def candidates(work: Work, user: int) -> list[int]:
    """The friendly units that may be removed to form ``user``, in roster order."""
    return [u for u in range(len(work.units)) if _why_not(work, user, u) is None]


def default_material(work: Work, user: int) -> list[int] | None:
    """The engine's choice: while points are still needed, the cheapest unit that covers the
    rest alone, else the most valuable one (Reserve before the Battlefield on a tie, then roster
    order); ``None`` when every candidate together is not enough."""
    left = need(work, user)
    pool = [(material_value(work, u), work.units[u].location is Location.TABLE, u)
            for u in candidates(work, user)]  # fmt: skip
    if sum(v for v, _, _ in pool) < left - 1e-9:
        return None
    chosen: list[int] = []
    while left > 1e-9:
        covering = sorted(p for p in pool if p[0] >= left - 1e-9)
        pick = covering[0] if covering else max(pool, key=lambda p: (p[0], not p[1], -p[2]))
        pool.remove(pick)
        chosen.append(pick[2])
        left -= pick[0]
    return sorted(chosen)


def named(work: Work, user: int, option: str) -> list[int] | str:
    labels = {work.label(u): u for u in range(len(work.units))}
    labels.update({work.label(u).partition(": ")[2]: u for u in range(len(work.units))
                   if work.info(u).player == work.info(user).player})  # fmt: skip
    out: list[int] = []
    for part in option.split(","):
        name = part.strip()
        if name not in labels:
            return f"{name!r} is not a unit of the game"
        uid = labels[name]
        why = _why_not(work, user, uid)
        if why is not None:
            return f"{work.label(uid)} may not be removed for Fusion: {why} ({RULE})"
        if uid in out:
            return f"{work.label(uid)} is named twice ({RULE})"
        out.append(uid)
    return out


def refused(work: Work, uid: int, option: str) -> str | None:
    """Why ``uid`` may not be formed now by removing the units ``option`` names, or ``None``."""
    if not unformed(work, uid):
        return f"{work.label(uid)} has been formed already (Fusion, Limited Use (1), {RULE})"
    if work.units[uid].location is not Location.RESERVE:
        return f"{work.label(uid)} is not waiting to be formed ({RULE})"
    if work.flow.phase not in (Phase.DEPLOY, Phase.ACTIONS):
        return f"a Fusion unit is formed during Deployment or with a Deploy Command ({RULE})"
    if not option:
        return f"Fusion names the friendly units to remove ({need(work, uid):g} points; {RULE})"
    chosen = named(work, uid, option)
    if isinstance(chosen, str):
        return chosen
    total = sum(material_value(work, u) for u in chosen)
    if total < need(work, uid) - 1e-9:
        return (
            f"the units named are worth {total:g} points; Fusion needs {need(work, uid):g} "
            f"(10 times {work.label(uid)}'s {work.info(uid).points:g}, {RULE})"
        )
    return None


def form(work: Work, uid: int, material: list[int], how: str) -> None:
    """Remove ``material`` from the game and spend the User's Limited Use: it is formed, in
    Reserve, and may be Deployed at once."""
    total = sum(material_value(work, u) for u in material)
    for m in material:
        work.set_unit(m, location=Location.DESTROYED, embarked_in=None)
        work.engaged = {p for p in work.engaged if m not in p}
    work.units[uid] = work.units[uid].with_use(FUSION)
    work.dirty = True
    names = ", ".join(work.label(m) for m in material)
    work.emit(
        "perk",
        f"{work.label(uid)} is formed by Fusion ({how}): {names} removed, {total:g} points of "
        f"the {need(work, uid):g} needed",
        RULE,
        unit=uid,
        perk=FUSION,
        removed=list(material),
    )


def deploy_refusal(work: Work, uid: int) -> str | None:
    """Why the unformed Fusion unit ``uid`` may not be Deployed now, or ``None`` (under the
    ``perk use`` automation the engine forms it as it deploys, when the points are there)."""
    if not unformed(work, uid):
        return None
    if Automation.PERK_USE not in work.setup.automation:
        return (
            f"{work.label(uid)} must be formed first: UsePerks({uid}, ('Fusion: <units>',)) "
            f"removing {need(work, uid):g} points of friendly units ({RULE})"
        )
    if default_material(work, uid) is None:
        return (
            f"{work.label(uid)} cannot be formed: its friendly units are worth less than "
            f"{need(work, uid):g} points ({RULE})"
        )
    return None


def form_on_deploy(work: Work, unit: int) -> None:
    """``Hook.DEPLOY``: an unformed Fusion unit deploying under the automation is formed with
    the engine's choice of units (checked by :func:`deploy_refusal`)."""
    if not unformed(work, unit):
        return
    material = default_material(work, unit)
    if material is not None:
        form(work, unit, material, "the engine's choice")
