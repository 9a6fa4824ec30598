"""Weapons that fire on their own (issue 11, lane b): Counter (Limitation, Perks
000_94ecc6a4c74d351b.txt L3062) and Self-Destruct (L3156). The ``reaction`` machinery of the
effects table.

* **Counter** (L3062): "The Weapon can only be used if attacked by an enemy Unit. Once per Game
  Turn, this Weapon will immediately Target and attack the first Unit to successfully inflict
  HP Loss on the User. If out of Weapon Range, the Counter is not used and can be used if
  attacked at a later time." The Weapon is refused in the unit's own Attacks
  (``perk_limitation.weapon_refusal``); when an enemy unit's Attack costs its unit HP, the
  models with it that have that unit in Range and sight attack it at once (one Attack
  Sequence, as a template's strike: ``perk_mode``), before the rest of that Attack.
* **Self-Destruct** (L3156): "This Weapon must Target the closest Unit (friend or foe) when the
  Wielder is a casualty … If the Weapon would be restricted from use due to Movement and Weapon
  Type (such as Heavy or Battle), then it cannot be used. This will still count as using the
  Weapon." Limited Use (1): the first Wielder model to fall attacks the closest other unit
  (base edge to edge from where it stood) within the Weapon's Range, with that model's
  Attacks. The Wielder's own choice to drop to 0 HP is not offered (docs/rulings.md).
* **Kamikaze** (Aeonian, L1302): "When the User is to be removed as a casualty (0 HP), roll for
  Scatter and 2D6. Relocate the User (the last surviving model of the Unit) by 2D6 in the
  direction indicated. If a Hit, the player may choose where to relocate it … Each Unit (friend
  or foe) that the User passes through or ends in contact with suffers a number of Attacks equal
  to the User's (full) HP, Power equal to the User's (unmodified) Defence, and AP equal to the
  User's (unmodified) Armour Save." On a Hit the engine aims at the closest enemy unit.
* **Upheaval** (Limitation, L3216): "At the end of the Phase or Action Step after the Weapon is
  used, roll a Skill Test. If it fails, the User relocates (which does not count as Movement)
  with the Scatter Arrow and 2D6. The User will stop when it runs into an object; if into a
  Unit, the Weapon profile will be used against that Unit. If into terrain, the edge of the
  Battlefield or rolls a 'Hit' on the Scatter, the Weapon is used on the User." A User's
  failed Weapons share one Scatter and 2D6 (L3234) and a User with no models left still rolls
  (L3238; session 39, s39-upheaval; docs/rulings.md w2-state ruling 15).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from warbench.kernel.dice import RollEvent
from warbench.rulesets.warsurge.attack import AttackContext, Playstyle, UnitState
from warbench.rulesets.warsurge.game import (
    bases,
    bases_ground,
    geom,
    perk_combat_damage,
    perk_limitation,
)
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges
from warbench.rulesets.warsurge.game.perk_index import looted_perks
from warbench.rulesets.warsurge.game.plans import WeaponPlan
from warbench.rulesets.warsurge.game.state import Location
from warbench.rulesets.warsurge.game.terrain_split import split_side
from warbench.rulesets.warsurge.game.work import current_value, to_unit_state
from warbench.rulesets.warsurge.odds import AttackPlan, resolve_attack
from warbench.rulesets.warsurge.profiles import (
    ModelGroup,
    Unit,
    UnitProfile,
    WeaponProfile,
    WeaponType,
)

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

BOOK = "000_94ecc6a4c74d351b.txt"
#: Counter: the Game Turn a Counter Weapon last struck back.
COUNTERED = "counter "
SELF_DESTRUCT = "Self-Destruct"


def _strike(work: Work, uid: int, weapon: str, target: int, users: int, ctx: AttackContext,
            rank: str) -> None:  # fmt: skip
    from warbench.rulesets.warsurge.game import perk_mode

    wp = WeaponPlan(weapon, target, users, ctx)
    perk_mode._strike(work, uid, target, users, wp, rank, own=True)
    if work.hooks.active(Hook.WEAPON_USED):
        work.hooks.fire(Hook.WEAPON_USED, work, unit=uid, weapon=weapon, target=target)


def on_hp_lost(work: Work, unit: int, amount: int, source: str, attacker: int | None) -> None:
    """Counter: the unit's Counter Weapons strike back at the enemy unit that cost it HP."""
    if attacker is None:
        return
    listed = perk_limitation.index(work.setup).counters.get(unit, ())
    weapons = perk_limitation.held(work, unit, "Counter", listed)  # a looted one (s38-loot)
    if not weapons or not work.enemies(unit, attacker):
        return
    u = work.units[unit]
    if u.location is not Location.TABLE or not u.living():
        return
    if work.units[attacker].location is not Location.TABLE or not work.units[attacker].living():
        return
    from warbench.rulesets.warsurge.game.targeting import view_target

    turn = work.flow.turn
    for weapon in weapons:
        if work.units[unit].counter(COUNTERED + weapon) == turn or not work.units[unit].living():
            continue
        view = view_target(work, unit, attacker)
        users = [m for m in view.users_in_range.get(weapon, []) if m in u.living()]
        if view.reason or not users or not (view.melee or view.visible):
            continue  # "If out of Weapon Range, the Counter is not used"
        work.units[unit] = work.units[unit].with_counter(COUNTERED + weapon, turn)
        work.dirty = True
        rng = weapon_ranges(work.info(unit), u.statuses)[weapon]
        ctx = AttackContext(
            melee=view.melee,
            attacker_engaged=view.attacker_engaged,
            target_engaged_elsewhere=view.target_engaged_elsewhere,
            cover=view.cover > 0 and not view.melee,
            cover_bonus=max(1, view.cover),
            within_half_range=view.distance <= rng / 2,
            distance=view.distance,
            attacker_point_cost=current_value(work, unit),
            target_point_cost=current_value(work, attacker),
            emergency_save=True,
            playstyle=Playstyle.STANDARD,
            los_models=None if view.melee else view.visible,
        )
        work.emit(
            "perk",
            f"{work.label(unit)} strikes back at {work.label(attacker)} with {weapon} (Counter)",
            f"Counter, {BOOK} L3062",
            unit=unit,
            target=attacker,
            perk="Counter",
            weapon=weapon,
        )
        _strike(work, unit, weapon, attacker, len(users), ctx, "Counter")


def on_casualty(work: Work, unit: int, model: int, source: str) -> None:
    """Self-Destruct: the fallen Wielder's Weapon attacks the closest unit in its Range."""
    listed = perk_limitation.index(work.setup).self_destruct.get(unit, ())
    weapons = perk_limitation.held(work, unit, "Self-Destruct", listed)  # (s38-loot)
    if not weapons:
        return
    info = work.info(unit)
    u = work.units[unit]
    for weapon in weapons:
        if weapon not in info.model_weapons[model] or u.used(SELF_DESTRUCT + " " + weapon):
            continue
        work.units[unit] = work.units[unit].with_use(SELF_DESTRUCT + " " + weapon)
        work.dirty = True
        wtype = info.weapon_types[weapon]
        if (wtype == WeaponType.HEAVY.value and u.moved[model]) or (
            wtype == WeaponType.BATTLE.value and u.unit_dashed
        ):
            work.emit("perk", f"{info.label}'s {weapon} cannot Self-Destruct after its Movement",
                      f"Self-Destruct, {BOOK} L3156", unit=unit, perk=SELF_DESTRUCT)  # fmt: skip
            continue
        here = np.asarray([u.pos[model]], dtype=np.float64)
        rng = weapon_ranges(info, u.statuses)[weapon]
        best: tuple[float, int] | None = None
        for other in work.units:
            t = other.uid
            if t == unit or other.location is not Location.TABLE or not other.living():
                continue
            d = float(
                bases.distances(
                    work, unit, here, info.radius, t, work.xy(t), work.info(t).radius
                ).min()
            )
            if best is None or (d, t) < best:
                best = (d, t)
        if best is None or best[0] > rng:
            work.emit("perk", f"{info.label}'s {weapon} self-destructs with no unit in Range",
                      f"Self-Destruct, {BOOK} L3156", unit=unit, perk=SELF_DESTRUCT)  # fmt: skip
            continue
        dist, target = best
        ctx = AttackContext(
            melee=bool(work.engaged_with(unit)) and target in work.engaged_with(unit),
            distance=dist,
            within_half_range=dist <= rng / 2,
            attacker_point_cost=current_value(work, unit),
            target_point_cost=current_value(work, target),
            emergency_save=True,
            playstyle=Playstyle.STANDARD,
        )
        work.emit(
            "perk",
            f"{info.label}'s model {model + 1} falls: its {weapon} self-destructs at the closest "
            f"unit, {work.label(target)}",
            f"Self-Destruct, {BOOK} L3156",
            unit=unit,
            target=target,
            perk=SELF_DESTRUCT,
            weapon=weapon,
        )
        _strike(work, unit, weapon, target, 1, ctx, SELF_DESTRUCT)


# -- Kamikaze (L1302) --------------------------------------------------------------------------

KAMIKAZE = "Kamikaze"


def _crash(hp: int, defence: int, armour: int | None) -> Unit:
    """The Kamikaze strike as an attacker: ``hp`` models of one Attack each (Attacks = the
    User's full HP), Power = its Defence, AP = its Armour Save."""
    blow = WeaponProfile(name=KAMIKAZE, range=0, attacks=1, power=defence, ap=armour)
    return Unit(
        profile=UnitProfile(name=KAMIKAZE, move=0, dash=0, defence=0, hp=1),
        weapons=[blow],
        models=[ModelGroup(count=hp, weapons=[KAMIKAZE])],
    )


def _path(work: Work, unit: int, start: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], str]:
    """Where the Scatter Arrow sends the last model: the end point and how it was decided."""
    label = f"{work.label(unit)} Kamikaze"
    res = work.dice.scatter(2, label)
    if not res.hit and res.direction is not None:
        rad = math.radians(res.direction.degrees)  # N is +y, clockwise
        step = np.asarray([math.sin(rad), math.cos(rad)]) * res.distance
        return start + step, f'{res.distance}" {res.direction.value}'
    # a Hit: "the player may choose where to relocate it by the inches indicated on the 2D6";
    # the engine aims at the closest enemy unit (none: it stays)
    ev = work.dice.log[-1]
    faces = ev.faces if isinstance(ev, RollEvent) else ()
    distance = float(sum(faces[1:]))
    best: tuple[float, np.ndarray[Any, Any]] | None = None
    for other in work.units:
        if other.location is not Location.TABLE or not other.living():
            continue
        if not work.enemies(unit, other.uid):
            continue
        xy = work.xy(other.uid)
        d = np.sqrt(((xy - start) ** 2).sum(axis=1))
        k = int(d.argmin())
        if best is None or float(d[k]) < best[0]:
            best = (float(d[k]), xy[k])
    if best is None or best[0] <= 1e-9:
        return start, "a Hit, no enemy to aim at"
    v = (best[1] - start) / best[0]
    return start + v * distance, f'a Hit, {distance:g}" toward the closest enemy'


def _kamikaze(work: Work, unit: int, model: int) -> None:
    info = work.info(unit)
    u = work.units[unit]
    work.units[unit] = u.with_use(KAMIKAZE)
    work.dirty = True
    start = np.asarray(u.pos[model], dtype=np.float64)
    end, how = _path(work, unit, start)
    prof = info.unit.profile
    crash = UnitState.of(_crash(prof.hp, min(10, prof.defence), prof.armour))
    work.emit("perk", f"{info.label}'s last model falls: Kamikaze, {how}",
              f"Kamikaze, {BOOK} L1302", unit=unit, perk=KAMIKAZE)  # fmt: skip
    for other in list(work.units):
        t = other.uid
        if t == unit or other.location is not Location.TABLE or not other.living():
            continue
        reach = info.radius + work.info(t).radius + geom.CONTACT
        if float(geom.segment_distances(start, end, work.xy(t)).min()) > reach:
            continue
        target = split_side(work, t, unit, to_unit_state(work, t))  # L4466 (ruling 11)
        before = [m.hp for m in target.models]
        ctx = perk_combat_damage.in_effect(work, t, AttackContext())  # Combat Damage (L1154)
        plan = AttackPlan(crash, target, ctx, weapons=(KAMIKAZE,), users=((KAMIKAZE, prof.hp),))
        res = resolve_attack(plan, work.dice)
        lost = res.hp_lost
        perk_combat_damage.after_share(work, t, unit, res.combat_damage)
        if lost:
            work.set_unit(t, hp=tuple(max(0, m.hp) for m in target.models))
        work.emit(
            "perk",
            f"{work.label(t)} is struck by Kamikaze: {prof.hp} Attacks at Power {prof.defence}, "
            f"AP {prof.armour or '-'}: {lost} HP lost",
            f"Kamikaze, {BOOK} L1302",
            unit=unit,
            target=t,
            perk=KAMIKAZE,
            hp_lost=lost,
        )
        if lost and work.hooks.active(Hook.HP_LOST):
            work.hooks.fire(Hook.HP_LOST, work, unit=t, amount=lost, source=KAMIKAZE,
                            attacker=unit)  # fmt: skip
        if work.hooks.active(Hook.CASUALTY):
            for i, m in enumerate(work.units[t].hp):
                if m <= 0 < before[i]:
                    work.hooks.fire(Hook.CASUALTY, work, unit=t, model=i, source=KAMIKAZE)


def on_casualty_kamikaze(work: Work, unit: int, model: int, source: str) -> None:
    """Kamikaze: when the unit's last model falls, its crash strikes every unit on its path."""
    if unit not in perk_limitation.index(work.setup).kamikaze:
        return
    u = work.units[unit]
    if u.living() or u.used(KAMIKAZE) or u.location is not Location.TABLE:
        return
    _kamikaze(work, unit, model)


# -- Upheaval (L3216) --------------------------------------------------------------------------

UPHEAVAL = "upheaval "
#: a picked-up copy's pending test: ``upheaval@<model>@<unit>@<name>`` (never ``UPHEAVAL``-prefixed)
UPHEAVAL_TAKEN = "upheaval@"
UPHEAVAL_PERK = "Upheaval"
_STEP = 0.04  # inches: the relocation advances by this much, within the contact tolerance


def upheaval_used(work: Work, unit: int, weapon: str, target: int) -> None:
    """Note an Upheaval Weapon's use: its Skill Test comes at the end of the Phase. A Loot
    Weapon picked up keeps its Perk (L3090; ``perk_limitation.held``): the unit that used it is
    its User (issue 10, session 39, s39-loot2; docs/rulings.md w2-state ruling 11). A set-up
    Weapon's test is noted under its name (``upheaval <name>``), a picked-up copy's under the
    model that carries it and where it came from (``upheaval@<model>@<unit>@<name>``, as its
    ``Arms@take@`` status), not under the name it is carried by: that name changes when
    another copy's carrier falls (``perk_arms.labels``; session 39, s39-upheaval)."""
    listed = perk_limitation.index(work.setup).upheaval.get(unit, ())
    if weapon in listed:
        work.units[unit] = work.units[unit].with_counter(UPHEAVAL + weapon, 1)
        work.dirty = True
    elif weapon in perk_limitation.held(work, unit, UPHEAVAL_PERK, listed):
        for model, (name, src, other) in _labels(work, unit).items():
            if name == weapon:
                key = f"{UPHEAVAL_TAKEN}{model}@{src}@{other}"
                work.units[unit] = work.units[unit].with_counter(key, 1)
                work.dirty = True


def _run(work: Work, unit: int, v: np.ndarray[Any, Any], distance: float) -> tuple[float, int]:
    """How far the unit goes along ``v`` before it runs into something: (inches, the unit run
    into, or -1 for terrain or the board edge, -2 for nothing)."""
    u = work.units[unit]
    models = u.present()
    r = work.info(unit).radius
    xy = np.asarray([u.pos[i] for i in models], dtype=np.float64)
    others = [
        o.uid for o in work.units if o.uid != unit and o.location is Location.TABLE and o.present()
    ]
    shape = work.info(unit).base is not None
    fac = bases.facings(work, unit, models) if shape else []
    gone = 0.0
    while gone < distance:
        step = min(distance, gone + _STEP)
        moved = xy + v * step
        if shape:  # an oval or rectangle meets the edge and Impassable Ground by its outline
            if not all(
                bases_ground.spot_ok(work, unit, (float(p[0]), float(p[1])), f)
                for p, f in zip(moved, fac, strict=True)
            ):
                return gone, -1
        elif not all(work.field.spot_ok((float(p[0]), float(p[1])), r) for p in moved):
            return gone, -1
        for t in others:
            if (
                bases.distances(work, unit, moved, r, t, work.xy(t), work.info(t).radius) < 0
            ).any():
                return gone, t
        gone = step
    return gone, -2


class _Test(NamedTuple):
    passed: bool
    roll: int


def _upheaval_test(work: Work, unit: int, label: str) -> _Test:
    """The Upheaval Skill Test (a D6, 4+), rerolled or denied as any perk's test (Lucky, Jinx,
    Architect of Destiny, Deny: ``perk_reroll``, session 25)."""
    from warbench.rulesets.warsurge.effects.model import PerkTest, TestSpec
    from warbench.rulesets.warsurge.effects.rolls import Outcome, run_test
    from warbench.rulesets.warsurge.game.perk_reroll import settle

    def roll(name: str) -> Outcome:
        return run_test(work.dice, TestSpec(PerkTest.SKILL), 0, label=name)

    out = settle(work, unit, [roll(label)], roll, "Upheaval Skill Test")[0]
    return _Test(out.passed, out.rolls[0] if out.rolls else 0)


class _Due(NamedTuple):
    """One Upheaval Weapon's pending Skill Test: the counter it is noted under, the name it is
    reported by, and the name it strikes with (``None``: no model carries it any longer)."""

    key: str
    name: str
    weapon: str | None


def _upheaval(work: Work, unit: int, due: list[_Due]) -> None:
    """The Skill Tests of the User's Upheaval Weapons used in the Phase, then one relocation
    for all that failed. "If the User has multiple Weapons with this Perk and more than one
    fails the Skill Test, the Scatter and 2D6 used for one Weapon applies to all the Upheaval
    Weapons" (L3234): one Scatter and 2D6, one relocation, then each failed Weapon is used on
    the unit run into or on the User (docs/rulings.md w2-state ruling 15). "If the User is a
    casualty before applying this Perk, still roll the test and apply the results" (L3238): a
    User with no models left rolls; nothing of it is left to relocate or to strike."""
    from warbench.rulesets.warsurge.game.casualties import remove_models, restore_coherency
    from warbench.rulesets.warsurge.game.melee import engage_new_contacts

    rule = f"Upheaval, {BOOK} L3216"
    failed: list[tuple[_Due, _Test]] = []
    for d in due:
        label = f"{work.label(unit)}'s {d.name}"
        test = _upheaval_test(work, unit, f"{label} Upheaval Skill Test")
        if test.passed:
            work.emit("perk", f"{label}: Upheaval Skill Test passed ({test.roll})", rule,
                      unit=unit, perk="Upheaval")  # fmt: skip
        else:
            failed.append((d, test))
    if not failed:
        return
    label = f"{work.label(unit)}'s {', '.join(d.name for d, _ in failed)}"
    rolls = ", ".join(str(t.roll) for _, t in failed)
    what = "Upheaval Skill Test failed" if len(failed) == 1 else "Upheaval Skill Tests failed"
    if len(failed) > 1:
        rule = f"{rule}, L3234"
    if not work.units[unit].living():  # L3238: tested; nothing left to relocate
        work.emit("perk", f"{label}: {what} ({rolls}); no models left, nothing relocates",
                  f"{rule}, L3238", unit=unit, perk="Upheaval")  # fmt: skip
        return
    if work.engaged_with(unit):  # Locked in a Melee (§4.4): it stays (docs/rulings.md)
        work.emit("perk", f"{label}: {what} ({rolls}); locked in a Melee, it stays", rule,
                  unit=unit, perk="Upheaval")  # fmt: skip
        return
    res = work.dice.scatter(2, f"{label} Upheaval")  # one for all (L3234)
    struck = unit
    how = "a Hit"
    if not res.hit and res.direction is not None:
        rad = math.radians(res.direction.degrees)  # N is +y, clockwise
        v = np.asarray([math.sin(rad), math.cos(rad)])
        gone, into = _run(work, unit, v, float(res.distance))
        u = work.units[unit]
        pos = list(u.pos)
        for i in u.present():
            pos[i] = (float(pos[i][0] + v[0] * gone), float(pos[i][1] + v[1] * gone))
        work.set_unit(unit, pos=tuple(pos))
        if work.units[unit].inside:  # a split unit rejoins its piece (L4460, §4.2 IV)
            restore_coherency(work, unit)
        into_what = {-1: "terrain or the board edge", -2: "nothing"}.get(into, "")
        how = f'{gone:.1f}" {res.direction.value} into {into_what or work.label(into)}'
        struck = into if into >= 0 else (unit if into == -1 else -2)
    shared = "" if len(failed) == 1 else " (one Scatter for all, L3234)"
    work.emit("perk", f"{label}: {what} ({rolls}){shared}: relocated, {how}",
              rule, unit=unit, perk="Upheaval")  # fmt: skip
    if struck == -2:
        return
    if struck != unit and work.enemies(unit, struck):
        engage_new_contacts(work, unit)
    for d, _ in failed:
        if d.weapon is None or not work.units[struck].living():
            continue
        info = work.info(unit)
        users = [i for i in work.units[unit].living() if d.weapon in info.model_weapons[i]]
        if not users:
            continue
        melee = struck != unit and work.enemies(unit, struck)
        ctx = AttackContext(
            melee=melee,
            distance=0.0,
            within_half_range=True,
            attacker_point_cost=current_value(work, unit),
            target_point_cost=current_value(work, struck),
            emergency_save=True,
            playstyle=Playstyle.STANDARD,
        )
        _strike(work, unit, d.weapon, struck, len(users), ctx, "Upheaval")
        for t in {unit, struck}:
            dead = [i for i in work.units[t].present() if work.units[t].hp[i] <= 0]
            if dead:
                remove_models(work, t, dead, "Upheaval")
                if work.units[t].living():
                    restore_coherency(work, t)


def _labels(work: Work, unit: int) -> dict[int, tuple[str, int, str]]:
    from warbench.rulesets.warsurge.game.perk_arms import labels

    return labels(work.setup, unit, work.units[unit].statuses)


def upheaval_at_phase_end(work: Work, phase: str) -> None:
    """Upheaval: the Skill Tests of the Upheaval Weapons used in the Phase, unit by unit (one
    Scatter for a unit's failed ones, L3234): the set-up's, then (in a set-up with a Loot
    Upheaval Weapon) those picked up, read from the units' counters, so a test is rolled for
    the unit that used the Weapon even when it dropped it since (L3238). A picked-up copy
    strikes under the name its carrier carries it by now, or not at all once dropped."""
    upheaval = perk_limitation.index(work.setup).upheaval
    due: dict[int, list[_Due]] = {}
    for unit, weapons in sorted(upheaval.items()):
        for weapon in weapons:
            if work.units[unit].counter(UPHEAVAL + weapon):
                due.setdefault(unit, []).append(_Due(UPHEAVAL + weapon, weapon, weapon))
    if UPHEAVAL_PERK in looted_perks(work.setup):
        for u in work.units:
            for key, value in u.counters:
                if value and key.startswith(UPHEAVAL_TAKEN):
                    model, src, other = key[len(UPHEAVAL_TAKEN) :].split("@", 2)
                    now = _labels(work, u.uid).get(int(model))
                    carried = now is not None and now[1:] == (int(src), other)
                    name = now[0] if now is not None and carried else other
                    due.setdefault(u.uid, []).append(_Due(key, name, name if carried else None))
    for unit in sorted(due):
        _test_upheaval(work, unit, due[unit])


def _test_upheaval(work: Work, unit: int, due: list[_Due]) -> None:
    for d in due:
        work.units[unit] = work.units[unit].with_counter(d.key, 0)
    work.dirty = True
    u = work.units[unit]
    if u.location is Location.TABLE or u.location is Location.DESTROYED:  # L3238
        _upheaval(work, unit, due)


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (called by :func:`.perk_aeonian.register_hooks`)."""
    reg.register(Hook.WEAPON_USED, upheaval_used, "Upheaval", perks=["Upheaval"])
    reg.register(Hook.PHASE_END, upheaval_at_phase_end, "Upheaval", perks=["Upheaval"])
    # each acts only for the set-up's Weapons or units with its perk (``perk_limitation.index``;
    # issue 10, session 34)
    reg.register(Hook.HP_LOST, on_hp_lost, "Counter", perks=["Counter"])
    reg.register(Hook.CASUALTY, on_casualty, "Self-Destruct", perks=["Self-Destruct"])
    reg.register(Hook.CASUALTY, on_casualty_kamikaze, "Kamikaze", perks=["Kamikaze"])
