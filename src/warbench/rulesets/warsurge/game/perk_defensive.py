"""Defensive Unit Perks in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Defensive, L1460-L1800).

* **Immortal** (L1539-L1546): "User cannot lose more than half of its full HP (rounding up, 1 HP
  minimum) in a single Game Turn. Once the User has lost half of its full HP in a single Game
  Turn, the benefits of Immortal are lost at the end of the Game Turn. The User is also immune to
  Deathblow". The unit's HP is remembered as each Game Turn starts (and when it deploys); the
  attack kernel's :class:`~warbench.rulesets.warsurge.attack.UnitState` carries what it may
  still lose (``immortal_left``, :func:`.perk_immortal.immortal_state`), which caps every HP
  Loss the game applies through it (Attacks, templates, HP lost with no Saves) and turns
  Deathblow off; ``odds`` caps a fresh Immortal unit at half its full HP the same way. At the
  end of a Game Turn in which it lost that much, Immortal is spent for the rest of the game
  (its Limited Use; docs/rulings.md "perks in play: Tactical, Trait, Movement, Leadership,
  Defensive" 6).
* **Reflect I-II** (L1617-L1642): used (``UsePerks``, or by the engine as an Attack Phase
  starts under the ``perk use`` automation), the unit is under ``Reflect`` for the Game Turn;
  the first enemy Attack at it tries once, on its strongest share (:func:`reflect_share`): a D6
  of 4+ turns that share on the attacking unit (ruling 7).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.attack import immortal_allowance
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_immortal import (
    HP_AT_START,
    IMMORTAL,
    TURN_COUNTED,
    immortal_lost,
    immortal_units,
)
from warbench.rulesets.warsurge.game.perk_mode import chain_of, template_of
from warbench.rulesets.warsurge.game.perk_turn import index
from warbench.rulesets.warsurge.game.state import unit_max_hp

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.plans import AttackPlanG
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "REFLECT",
    "immortal_at_turn_end",
    "immortal_at_turn_start",
    "immortal_on_deploy",
    "reflect_at_phase_start",
    "reflect_share",
    "register_hooks",
]

_RULE = "Perks §12.4 Immortal (000_94ecc6a4c74d351b.txt L1539)"


def _remember(work: Work, uid: int) -> None:
    u = work.units[uid]
    hp = sum(max(0, h) for h in u.hp)
    work.units[uid] = u.with_counter(TURN_COUNTED, work.flow.turn).with_counter(HP_AT_START, hp)
    work.dirty = True


def immortal_at_turn_start(work: Work, turn: int) -> None:
    """The HP each Immortal unit starts the Game Turn with."""
    for uid in sorted(immortal_units(work.setup)):
        if work.units[uid].living() and not work.units[uid].used(IMMORTAL):
            _remember(work, uid)


def immortal_on_deploy(work: Work, unit: int) -> None:
    """A unit deployed during the Game Turn starts counting from its arrival."""
    if unit not in immortal_units(work.setup):
        return
    if work.units[unit].counter(TURN_COUNTED) != work.flow.turn:
        _remember(work, unit)


def immortal_at_turn_end(work: Work, turn: int) -> None:
    """L1541: "Once the User has lost half of its full HP in a single Game Turn, the benefits of
    Immortal are lost at the end of the Game Turn"."""
    for uid in sorted(immortal_units(work.setup)):
        u = work.units[uid]
        if u.used(IMMORTAL) or u.counter(TURN_COUNTED) != turn:
            continue
        half = immortal_allowance(unit_max_hp(work.info(uid), u))
        if immortal_lost(work.units[uid], turn) >= half:
            work.units[uid] = work.units[uid].with_use(IMMORTAL)
            work.dirty = True
            work.emit(
                "perk",
                f"{work.label(uid)} lost {half} HP this Game Turn: Immortal is lost",
                _RULE,
                unit=uid,
                perk=IMMORTAL,
            )


# -- Reflect I-II (L1617-L1642) -----------------------------------------------------------------

#: Reflect ranks; using one puts the status ``Reflect`` on the User for the Game Turn.
REFLECT = ("Reflect I", "Reflect II")
_REFLECT_RULE = "Perks §12.4 {} (000_94ecc6a4c74d351b.txt L{})"
_REFLECT_LINE = {"Reflect I": 1617, "Reflect II": 1633}


def _reflect_rank(work: Work, uid: int) -> str | None:
    perks = index(work.setup).units[uid].unit
    return next((r for r in reversed(REFLECT) if r in perks), None)


def reflect_at_phase_start(work: Work, phase: str) -> None:
    """The engine's use of Reflect under the ``perk use`` automation (a player uses it with
    ``UsePerks``): as each Attack Phase starts, for a unit within an enemy unit's longest Range
    (18" at least), Reflect II each Game Turn and Reflect I the first time (ruling 7)."""
    from warbench.rulesets.warsurge.game.state import Automation, Location, Phase, Status

    if phase != Phase.ATTACK.value or Automation.PERK_USE not in work.setup.automation:
        return
    turn = work.flow.turn
    for uid in range(len(work.units)):
        rank = _reflect_rank(work, uid)
        u = work.units[uid]
        if rank is None or u.location is not Location.TABLE or not u.living():
            continue
        if u.counter(f"used {rank}") == turn or (rank == "Reflect I" and u.used(rank)):
            continue
        if any(s.name == "Reflect" for s in u.statuses) or not _threatened(work, uid):
            continue
        u = u.with_counter(f"used {rank}", turn).with_use(rank)
        work.units[uid] = u
        work.dirty = True
        work.set_unit(uid, statuses=(*u.statuses, Status("Reflect", 1, f"u{uid}/{rank}")))
        work.emit("perk", f"{work.label(uid)} uses {rank}",
                  _REFLECT_RULE.format(rank, _REFLECT_LINE[rank]), unit=uid, perk=rank)  # fmt: skip


def _threatened(work: Work, uid: int) -> bool:
    from warbench.rulesets.warsurge.game import bases
    from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges
    from warbench.rulesets.warsurge.game.state import Location

    me = work.xy(uid)
    r = work.info(uid).radius
    for other in work.units:
        if other.location is not Location.TABLE or not work.enemies(uid, other.uid):
            continue
        reach = max([18.0, *weapon_ranges(work.info(other.uid), other.statuses).values()])
        gap = bases.distances(
            work, uid, me, r, other.uid, work.xy(other.uid), work.info(other.uid).radius
        )
        if gap.size and float(gap.min()) <= reach:
            return True
    return False


def reflect_share(work: Work, plan: AttackPlanG, k: int) -> AttackPlanG:
    """L1619-1621: "the User can select one Weapon that is Targeting them and direct it back …
    Roll a D6, if a 4+, the Reflect was successful and the Weapon Targets the attacking Unit
    instead". The Reflect of a unit under ``Reflect`` is attempted once, on the share at it with
    the most Attacks x Power x models (the engine's choice, ruling 7); a template or Chain
    Weapon is not reflected. On a 4+ the share is made against the attacking unit itself."""
    wp = plan.weapons[k]
    t = wp.target
    if t >= len(work.units) or t == plan.uid:
        return plan
    statuses = work.units[t].statuses
    armed = next((s for s in statuses if s.name == "Reflect"), None)
    if armed is None:
        return plan
    info = work.info(plan.uid)
    profiles = {w.name: w for w in info.unit.weapons}

    def weight(j: int) -> tuple[int, int]:
        p = plan.weapons[j]
        if template_of(info, p.weapon) or chain_of(info, p.weapon):
            return (-1, 0)
        return (p.users * profiles[p.weapon].attacks * profiles[p.weapon].power, -j)

    at_me = [j for j in range(len(plan.weapons)) if plan.weapons[j].target == t]
    pick = max(at_me, key=weight)
    if pick != k or weight(k)[0] < 0:
        return plan
    work.set_unit(t, statuses=tuple(s for s in statuses if s is not armed))
    rank = armed.source.partition("/")[2] or "Reflect I"
    rule = _REFLECT_RULE.format(rank, _REFLECT_LINE.get(rank, 1617))
    roll = work.dice.d6(f"{rank} D6")
    if roll < 4:
        work.emit("perk", f"{work.label(t)} fails to Reflect {info.label}'s {wp.weapon} "
                  f"(D6 {roll})", rule, unit=t, perk=rank, landed=False)  # fmt: skip
        return plan
    work.emit("perk", f"{work.label(t)} Reflects {info.label}'s {wp.weapon} back at it "
              f"(D6 {roll})", rule, unit=t, perk=rank, landed=True)  # fmt: skip
    ctx = replace(
        wp.context,
        cover=False,
        cover_armour=0,
        cover_aegis=0,
        cover_save=None,
        los_models=None,
        target_out_of_sight=False,
        target_engaged_elsewhere=False,
        target_point_cost=wp.context.attacker_point_cost,
    )
    back = replace(wp, target=plan.uid, context=ctx)
    return replace(plan, weapons=(*plan.weapons[:k], back, *plan.weapons[k + 1 :]))


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from :func:`.perk_hooks.register_perk_hooks`)."""
    # each goes over (or asks first) ``immortal_units``: only where the set-up has one (s37)
    immortal = immortal_units
    reg.register(
        Hook.TURN_START, immortal_at_turn_start, "Immortal (HP at the start)", when=immortal
    )
    reg.register(Hook.DEPLOY, immortal_on_deploy, "Immortal (HP on arrival)", when=immortal)
    reg.register(Hook.TURN_END, immortal_at_turn_end, "Immortal is lost", when=immortal)
    reg.register(Hook.PHASE_START, reflect_at_phase_start, "Reflect (automatic use)", perks=REFLECT)
