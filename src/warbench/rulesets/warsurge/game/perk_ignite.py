"""Ignite I/II (Perks 000_94ecc6a4c74d351b.txt L2740-L2758), the ``ignite`` machinery.

"Each time a Weapon with Ignite causes HP Loss, it applies Ignite to the Target. At the end of
the Game Turn, the Target suffers a single Attack with Power equal to the HP Loss caused by all
Ignite Weapons multiplied by four, with Saves allowed as normal. If HP Loss occurs, it retains
its current Ignite Power and may continue to apply more Ignite next Game Turn. If no HP Loss
occurs from Ignite at the end of a Game Turn, Ignite is removed from the Target." Ignite II:
"the Attack is AP 2".

The status ``Ignite`` (the effects engine's HP-Loss affliction; Fire Resist I is immune) and
two counters on the Target: its Ignite Power (4 per HP an Ignite weapon took, kept while it
burns) and whether an Ignite II weapon lit it. At the end of the Game Turn one Attack of that
Power (at most 10, the Stat's greatest value) is rolled against it as the attack kernel rolls
Dangerous Ground; Fire Resist II (L1529) regains that HP instead when an enemy lit it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from warbench.rulesets.warsurge.attack import AttackContext, UnitState
from warbench.rulesets.warsurge.game import perk_combat_damage
from warbench.rulesets.warsurge.game.casualties import remove_models, restore_coherency
from warbench.rulesets.warsurge.game.hooks import Hook
from warbench.rulesets.warsurge.game.perk_index import weapon_perks
from warbench.rulesets.warsurge.game.perk_turn import _rule
from warbench.rulesets.warsurge.game.state import Location
from warbench.rulesets.warsurge.game.work import to_unit_state
from warbench.rulesets.warsurge.odds import AttackPlan, resolve_attack

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

IGNITE = ("Ignite I", "Ignite II")
POWER = "ignite power"
AP2 = "ignite ap2"
SOURCE = "ignite by"  # 1 + the uid of the unit whose Ignite last lit it


def on_hp_lost(work: Work, unit: int, amount: int, source: str, attacker: int | None) -> None:
    """An Ignite weapon's HP Loss adds 4 Power per HP to the Target's Ignite (once the status
    took hold: an immune Target gains none)."""
    if attacker is None or amount <= 0:
        return
    ranks = weapon_perks(work, attacker, source) & set(IGNITE)
    if not ranks:
        return
    u = work.units[unit]
    if not any(s.name == "Ignite" for s in u.statuses):
        return
    u = u.with_counter(POWER, u.counter(POWER) + 4 * amount).with_counter(SOURCE, attacker + 1)
    if "Ignite II" in ranks:
        u = u.with_counter(AP2, 1)
    work.units[unit] = u
    work.dirty = True


def at_turn_end(work: Work, turn: int, restore: Callable[[Work, int, int], int]) -> None:
    """The end of a Game Turn: each burning unit suffers its Ignite Attack; no HP Loss puts
    the fire out. ``restore`` gives HP back (Fire Resist II; ``perk_hooks.restore_hp``)."""
    for u in list(work.units):
        if not u.counters or not u.counter(POWER):
            continue
        if u.location not in (Location.TABLE, Location.EMBARKED) or not u.living():
            continue
        if not any(s.name == "Ignite" for s in u.statuses):  # removed (Cure): put out
            work.units[u.uid] = u.with_counter(POWER, 0).with_counter(AP2, 0)
            work.dirty = True
            continue
        _burn(work, u.uid, restore)


_WEAPONS: dict[tuple[int, bool], Any] = {}


def _igniter(power: int, ap2: bool) -> Any:
    from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile

    key = (power, ap2)
    hit = _WEAPONS.get(key)
    if hit is None:
        fire = WeaponProfile(name="Ignite", range=0, attacks=1, power=power, ap=2 if ap2 else None)
        hit = Unit(
            profile=UnitProfile(name="Ignite", move=0, dash=0, defence=0, hp=1),
            weapons=[fire],
            models=[ModelGroup(count=1, weapons=["Ignite"])],
        )
        _WEAPONS[key] = hit
    return hit


def _burn(work: Work, uid: int, restore: Callable[[Work, int, int], int]) -> None:
    from warbench.rulesets.warsurge.effects.runtime import converts

    u = work.units[uid]
    power = min(10, u.counter(POWER))
    ap2 = bool(u.counter(AP2))
    rank = "Ignite II" if ap2 else "Ignite I"
    target = to_unit_state(work, uid)
    before = [m.hp for m in target.models]
    plan = AttackPlan(
        UnitState.of(_igniter(power, ap2)),
        target,
        perk_combat_damage.in_effect(work, uid, AttackContext()),  # Combat Damage (L1154)
        weapons=("Ignite",),
        users=(("Ignite", 1),),
    )
    res = resolve_attack(plan, work.dice)
    perk_combat_damage.after_share(work, uid, None, res.combat_damage)
    lost = res.hp_lost
    src = u.counter(SOURCE) - 1
    enemy = src >= 0 and work.enemies(uid, src)
    info = work.info(uid)
    if lost and enemy and "Ignite" in converts([*info.unit.profile.perks, *info.traits]):
        got = restore(work, uid, lost)  # Fire Resist II: no HP lost, HP regained
        work.emit("perk", f"{work.label(uid)}: Ignite (Power {power}) restores {got} HP "
                  "(Fire Resist II)", _rule(rank), unit=uid, perk=rank)  # fmt: skip
        return
    hp = [max(0, m.hp) for m in target.models] if lost else before
    if lost:
        work.set_unit(uid, hp=tuple(hp))
    work.emit("perk", f"{work.label(uid)}: Ignite, one Attack at Power {power}"
              f"{', AP 2' if ap2 else ''}: {lost} HP lost", _rule(rank), unit=uid, perk=rank,
              hp_lost=lost)  # fmt: skip
    if not lost:
        kept = tuple(s for s in work.units[uid].statuses if s.name != "Ignite")
        work.set_unit(uid, statuses=kept)
        u2 = work.units[uid].with_counter(POWER, 0).with_counter(AP2, 0)
        work.units[uid] = u2.with_counter(SOURCE, 0)
        work.dirty = True
        work.emit("perk", f"{work.label(uid)}: Ignite goes out", _rule(rank), unit=uid)
        return
    if work.hooks.active(Hook.HP_LOST):
        work.hooks.fire(Hook.HP_LOST, work, unit=uid, amount=lost, source="Ignite", attacker=None)
    dead = [i for i in work.units[uid].present() if work.units[uid].hp[i] <= 0]
    if dead:
        remove_models(work, uid, dead, "Ignite")
        if work.units[uid].living():
            restore_coherency(work, uid)
