"""Decoy I-III in a game (Perks 000_94ecc6a4c74d351b.txt §12.6 Traits, L4161-L4203).

    "If the Decoy loses HP, or has an enemy Unit Deployed or performed Movement through or
    within 6" of it, the Decoy Unit is removed immediately. Decoys cannot claim objectives."
    Decoy II: "(or the fake Unit does so toward an enemy Unit)". Decoy III: "removed
    immediately and causes an explosion, causing D6 Attack Dice to each Unit within 12". Each
    Attack Dice succeeds on a 4+ and allow all Saves. Resolve casualties as normal."

The fake unit (``perk_decoy_units``, made with the set-up: ``GameSetup.decoys``) is deployed
and moved like any unit of its player and may be Targeted like any. It is removed (every model,
no casualty hooks: it never was a unit of the roster):

* when it loses HP (:func:`on_hp_lost`);
* when an enemy unit is deployed with a model within 6" of it (:func:`on_deploy`), or makes a
  Move or Dash whose path (each model's straight line from where it stood) comes within 6" of
  it (:func:`on_after_move`);
* Decoy II: when its own Move or Dash comes within 6" of an enemy unit.

Decoy III explodes as it is removed: one D6 for the explosion, that many Attack Dice at each
other unit (friend or foe) with a model within 12" of it, each a D6 that succeeds on 4+, the
successful ones resolved as an Attack Sequence with every Save allowed (no AP, no perks).
It neither holds nor contests an Objective (:func:`may_hold`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from warbench.rulesets.warsurge.attack import AttackContext, UnitState
from warbench.rulesets.warsurge.game import bases, geom, perk_combat_damage, perk_incorporeal
from warbench.rulesets.warsurge.game.casualties import remove_models
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_decoy_units import DECOYS
from warbench.rulesets.warsurge.game.state import Location
from warbench.rulesets.warsurge.game.terrain_split import split_side
from warbench.rulesets.warsurge.game.work import store_unit_state, to_unit_state
from warbench.rulesets.warsurge.odds import AttackPlan, apply_rolled, roll_attack
from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameState
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["may_hold", "on_after_move", "on_deploy", "on_hp_lost", "register_hooks", "reveal"]

BOOK = "000_94ecc6a4c74d351b.txt"
#: L4165: "within 6" of it"; L4191: "each Unit within 12"".
NEAR, BLAST = 6.0, 12.0
_STEP = 0.25


def _rule(rank: str) -> str:
    return f"Perks §12.6 {rank} ({BOOK} L{DECOYS[rank][1]})"


def _decoys(work: Work) -> dict[int, str]:
    return {fake: rank for fake, _, rank in work.setup.decoys}


def may_hold(state: GameState, uid: int) -> bool:
    """L4169: "Decoys cannot claim objectives" (they neither hold nor contest one)."""
    return not any(fake == uid for fake, _, _ in state.setup.decoys)


def reveal(work: Work, fake: int, why: str) -> None:
    """Remove the fake unit ``fake`` at once (Decoy III: and it explodes)."""
    u = work.units[fake]
    if u.location is not Location.TABLE:
        return
    rank = _decoys(work)[fake]
    spot = work.xy(fake)
    present = u.present()
    work.set_unit(fake, hp=tuple(0 for _ in u.hp))
    work.emit("perk", f"{work.label(fake)} is removed: {why} ({rank})", _rule(rank), unit=fake,
              perk=rank)  # fmt: skip
    remove_models(work, fake, present, rank)
    if rank == "Decoy III":
        _explode(work, fake, spot)


def _explode(work: Work, fake: int, spot: geom.FloatArray) -> None:
    """L4191: D6 Attack Dice at each unit within 12", each succeeding on a 4+, all Saves."""
    rule = _rule("Decoy III")
    n = work.dice.d6("Decoy III explosion")
    r = work.info(fake).radius
    blast = WeaponProfile(name="Decoy III", range=0, attacks=1, power=1)
    bomb = UnitState.of(
        Unit(
            profile=UnitProfile(name="Decoy III", move=0, dash=0, defence=0, hp=1),
            weapons=[blast],
            models=[ModelGroup(count=1, weapons=["Decoy III"])],
        )
    )
    work.emit("perk", f"{work.label(fake)} explodes: {n} Attack Dice at each unit within 12\"",
              rule, unit=fake, perk="Decoy III", dice=n)  # fmt: skip
    for other in list(work.units):
        t = other.uid
        if t == fake or not work.standing(t):
            continue
        if work.units[t].statuses and perk_incorporeal.immune(work, t, fake):
            continue  # Incorporeal (L2467): "immune to all damage"
        d = bases.distances(work, fake, spot, r, t, work.xy(t), work.info(t).radius)
        if not d.size or float(d.min()) > BLAST + 1e-9:
            continue
        faces = [work.dice.d6(f"Decoy III at {work.label(t)}") for _ in range(n)]
        hits = sum(1 for f in faces if f >= 4)
        target = split_side(work, t, fake, to_unit_state(work, t))  # L4466 (ruling 11)
        before = [m.hp for m in target.models]
        ctx = perk_combat_damage.in_effect(work, t, AttackContext(struck_dice=hits))  # L1154
        plan = AttackPlan(bomb, target, ctx, weapons=("Decoy III",), users=(("Decoy III", 1),))
        rolled = roll_attack(plan, work.dice)
        apply_rolled(plan, rolled)
        store_unit_state(work, t, target)
        perk_combat_damage.after_share(work, t, None, rolled.combat_damage)
        new_cas = [i for i, m in enumerate(target.models) if m.hp <= 0 < before[i]]
        work.emit("perk", f"the Decoy III explosion strikes {work.label(t)}: {hits} of {n} "
                  f"Attack Dice succeed, {rolled.loss} HP lost", rule, unit=fake, target=t,
                  perk="Decoy III", hp_lost=rolled.loss)  # fmt: skip
        if rolled.loss and work.hooks.active(Hook.HP_LOST):
            work.hooks.fire(Hook.HP_LOST, work, unit=t, amount=rolled.loss, source="Decoy III",
                            attacker=fake)  # fmt: skip
        if work.hooks.active(Hook.CASUALTY):
            for i in new_cas:
                work.hooks.fire(Hook.CASUALTY, work, unit=t, model=i, source="Decoy III")


def on_hp_lost(work: Work, unit: int, amount: int, source: str, attacker: int | None) -> None:
    """L4167: a Decoy that loses HP is removed."""
    if amount > 0 and unit in _decoys(work):
        reveal(work, unit, "it loses HP")


def _comes_near(work: Work, mover: int, other: int) -> bool:
    """Whether a model of ``mover`` passed within 6" of ``other`` on its way (its straight
    path from where it stood at the start of the action to where it stands)."""
    before = work.before.units[mover]
    now = work.units[mover]
    theirs = work.xy(other)
    if not len(theirs):
        return False
    r, ro = work.info(mover).radius, work.info(other).radius
    for i in now.present():
        b = np.asarray(now.pos[i], dtype=np.float64)
        a = np.asarray(before.pos[i], dtype=np.float64) if before.location is Location.TABLE else b
        k = max(2, math.ceil(float(np.hypot(*(b - a))) / _STEP) + 1)
        path = a + np.linspace(0.0, 1.0, k)[:, None] * (b - a)
        if float(bases.distances(work, mover, path, r, other, theirs, ro).min()) <= NEAR + 1e-9:
            return True
    return False


def on_after_move(work: Work, unit: int, dash: bool, distance: float) -> None:
    """L4165: an enemy unit's Movement through or within 6" of a Decoy removes it; L4177
    (Decoy II): so does the Decoy's own Movement within 6" of an enemy unit."""
    decoys = _decoys(work)
    if not decoys or not work.standing(unit):
        return
    if unit in decoys:
        if decoys[unit] != "Decoy II":
            return
        for t in range(len(work.units)):
            if work.enemies(unit, t) and work.standing(t) and _comes_near(work, unit, t):
                reveal(work, unit, f'it moves within 6" of {work.label(t)}')
                return
        return
    for fake in sorted(decoys):
        if work.enemies(unit, fake) and work.standing(fake) and _comes_near(work, unit, fake):
            reveal(work, fake, f'{work.label(unit)} moves within 6" of it')


def on_deploy(work: Work, unit: int) -> None:
    """L4165: an enemy unit deployed within 6" of a Decoy removes it."""
    decoys = _decoys(work)
    if not decoys or not work.standing(unit):
        return
    for fake in sorted(decoys):
        if work.enemies(unit, fake) and work.standing(fake) and work.gap(unit, fake) <= NEAR:
            reveal(work, fake, f'{work.label(unit)} is deployed within 6" of it')


#: the Traits that make the set-up's Decoys (``setup.decoys``, Perks L4161-L4203)
_RANKS = ("Decoy I", "Decoy II", "Decoy III")


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``)."""
    reg.register(Hook.HP_LOST, on_hp_lost, "Decoy (removed on losing HP)", perks=_RANKS)
    reg.register(
        Hook.AFTER_MOVE, on_after_move, 'Decoy (removed by an enemy within 6")', perks=_RANKS
    )
    reg.register(
        Hook.DEPLOY, on_deploy, 'Decoy (removed by an enemy deployed within 6")', perks=_RANKS
    )
