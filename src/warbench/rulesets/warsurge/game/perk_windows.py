"""Preliminary and Postliminary Weapons attack in windows of their own (Perks
000_94ecc6a4c74d351b.txt §12.5 Tactical; docs/rulings.md "WARSURGE perks in play: session 25,
s25-tactical" 5-6).

* **Preliminary** (L4049, Passive): "The Weapon Attacks before all other actions in the Game
  Turn, causing casualties to occur immediately. Standard: The Weapon is used after all players
  have finished Deploying in the Deploy Phase. Advanced: The Weapon is used before all players
  begin making Actions, and costs no CP."
* **Postliminary** (L3987, Passive): "The Weapon Attacks after all other actions have been
  completed in the Game Turn. Standard: The Weapon is used after all players have finished
  Dashing in the Dash Phase. Advanced: The Weapon is used after all players have finished making
  Actions, and costs no CP."

The window opens as the Deploy Phase ends (Advanced: as the Action Steps start) and as the Dash
Phase ends (Advanced: as the Action Steps end). In it, side by side in the Phase's order (the
Turn Master first) and unit by unit, each unit on the battlefield attacks with each of its
Weapons of that perk that can Target an enemy unit, checked as any Attack
(``attacks.verify_attack``: Range, sight, Melee, Heavy, the Weapon's other perks); the Target
is the engine's choice, the closest such enemy unit (ruling 6). Casualties are removed at once.
Outside its window the Weapon may not attack (``perk_timing.timing_refusal``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_timing import POSTLIMINARY, PRELIMINARY, opened
from warbench.rulesets.warsurge.game.state import Location

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.plans import AttackPlanG
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["register_hooks", "timed_window", "windows_at_phase_end", "windows_at_phase_start"]

BOOK = "000_94ecc6a4c74d351b.txt"
_LINE = {PRELIMINARY: 4049, POSTLIMINARY: 3987}


def _rule(perk: str) -> str:
    return f"Perks §12.5 {perk} ({BOOK} L{_LINE[perk]})"


def _weapons(work: Work, uid: int, perk: str) -> list[str]:
    """The unit's Weapons with ``perk`` that a living model carries, in profile order."""
    from warbench.rulesets.warsurge.game.perk_index import perks_now

    perks = perks_now(work, uid)
    info = work.info(uid)
    u = work.units[uid]
    carried = {wn for i in u.living() for wn in info.model_weapons[i]}
    return [
        wp.name
        for wp in info.unit.weapons
        if wp.name in carried and perk in perks.weapon_perks(wp.name)
    ]


def _plan(work: Work, uid: int, weapon: str) -> AttackPlanG | None:
    """The Attack of ``weapon`` at the closest enemy unit it may Target (base edges from the
    unit, or from its Transport; the lowest unit number on a tie), or ``None``."""
    from warbench.rulesets.warsurge.game.actions import Attack
    from warbench.rulesets.warsurge.game.attacks import verify_attack

    holder = work.outermost(uid)
    foes = sorted(
        (work.gap(holder, t.uid), t.uid)
        for t in work.units
        if work.enemies(uid, t.uid)
        and t.location in (Location.TABLE, Location.EMBARKED, Location.TERRAIN)
        and t.living()
    )
    for _, t in foes:
        try:
            return verify_attack(work, Attack(uid, ((weapon, t),)))
        except RulesError:
            continue
    return None


def _strike(work: Work, plan: AttackPlanG, perk: str) -> None:
    """Resolve the window's share (a template, a Chain or one Attack Sequence), then remove the
    casualties at once ("causing casualties to occur immediately")."""
    from warbench.rulesets.warsurge.game import perk_mode
    from warbench.rulesets.warsurge.game.casualties import remove_models, restore_coherency

    uid = plan.uid
    info = work.info(uid)
    u = work.units[uid]
    heavy, battle = list(u.heavy), list(u.battle)
    for wp in plan.weapons:
        if mode := perk_mode.template_of(info, wp.weapon):
            perk_mode.resolve_template(work, uid, wp, *mode, heavy, battle)
        elif chain := perk_mode.chain_of(info, wp.weapon):
            perk_mode.resolve_chain(work, uid, wp, *chain, heavy, battle)
        else:
            perk_mode._strike(work, uid, wp.target, wp.users, wp, perk, own=True)
            wtype = info.weapon_types[wp.weapon]
            for i in wp.models:
                if wtype == "Heavy":
                    heavy[i] = True
                elif wtype == "Battle":
                    battle[i] = True
            if work.hooks.active(Hook.WEAPON_USED):
                work.hooks.fire(
                    Hook.WEAPON_USED, work, unit=uid, weapon=wp.weapon, target=wp.target
                )
    if work.units[uid].location is not Location.DESTROYED:
        work.set_unit(uid, heavy=tuple(heavy), battle=tuple(battle))
    for t in sorted({uid, *(wp.target for wp in plan.weapons)}):
        if t >= len(work.units):
            continue
        v = work.units[t]
        dead = [i for i in v.present() if v.hp[i] <= 0]
        if not dead or v.location is Location.DESTROYED:
            continue
        remove_models(work, t, dead, f"{perk} (casualties removed at once)")
        if work.units[t].living():
            restore_coherency(work, t)


def timed_window(work: Work, perk: str) -> None:
    """Every unit with a ``perk`` Weapon attacks with it (see the module docstring)."""
    order = work.flow.order or tuple(range(len(work.setup.sides)))
    units = [uid for side in order for uid in work.side_units(side) if _weapons(work, uid, perk)]
    if not units:
        return
    with opened(perk):
        for uid in units:
            for weapon in _weapons(work, uid, perk):
                if work.units[uid].location not in (Location.TABLE, Location.EMBARKED):
                    break
                plan = _plan(work, uid, weapon)
                if plan is None:
                    work.emit("perk", f"{work.label(uid)}: {weapon} ({perk}) has no enemy unit "
                              "to Target", _rule(perk), unit=uid, perk=perk)  # fmt: skip
                    continue
                target = plan.weapons[0].target
                work.emit("perk", f"{work.label(uid)}: {weapon} ({perk}) attacks "
                          f"{work.label(target)}", _rule(perk), unit=uid, perk=perk,
                          target=target)  # fmt: skip
                _strike(work, plan, perk)


def windows_at_phase_end(work: Work, phase: str) -> None:
    """Standard: Preliminary as the Deploy Phase ends, Postliminary as the Dash Phase ends;
    Advanced: Postliminary as the Action Steps end."""
    from warbench.rulesets.warsurge.game.advstate import Playstyle
    from warbench.rulesets.warsurge.game.state import Phase

    standard = work.setup.playstyle is Playstyle.STANDARD
    if standard and phase == Phase.DEPLOY.value:
        timed_window(work, PRELIMINARY)
    elif (standard and phase == Phase.DASH.value) or (
        not standard and phase == Phase.ACTIONS.value
    ):
        timed_window(work, POSTLIMINARY)


def windows_at_phase_start(work: Work, phase: str) -> None:
    """Advanced: Preliminary as the Action Steps start."""
    from warbench.rulesets.warsurge.game.advstate import Playstyle
    from warbench.rulesets.warsurge.game.state import Phase

    if work.setup.playstyle is not Playstyle.STANDARD and phase == Phase.ACTIONS.value:
        timed_window(work, PRELIMINARY)


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from :func:`.perk_families.register_family_hooks`)."""
    reg.register(Hook.PHASE_END, windows_at_phase_end, "Preliminary, Postliminary", perks=_LINE)
    reg.register(
        Hook.PHASE_START, windows_at_phase_start, "Preliminary (Advanced)", perks=[PRELIMINARY]
    )
