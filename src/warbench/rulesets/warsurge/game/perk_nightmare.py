"""Nightmare Anomaly in a game (Perks 000_94ecc6a4c74d351b.txt §12.6 Roster Perks, L4354-L4368).

    "At the start of the Game Turn, the player may choose any Unit on the Battlefield to receive
    the effects of Nightmare Anomaly. Select any Unit, then roll a D6 to determine the effect,
    applied immediately: 1) Unit teleports with a Scatter Arrow and 2D6 inches, going into
    Reserve if it can't be placed. 2) +1 Defence, reroll failed Saves. 3) -1 Defence, reroll
    successful Saves. 4) Restore D6 HP. Any revived casualties are placed within Coherency of the
    Unit. 5) Receives D6 Attack Dice at Power 10, ignoring all Armour and AEGIS Saves. 6) Unit is
    immune to HP Loss."

* **Who holds it**: a player whose roster carries it (on the entry it is designated to, as
  every Roster Perk here), once per Game Turn, at the TURN_START hook.
* **The choice** ("may choose any Unit") is the player's: ``UsePerks(holder, ("Nightmare
  Anomaly: <unit>",))`` at the start of the Game Turn (:func:`refused`, :func:`options`,
  :func:`use`), once per Game Turn for its player; under the ``perk use`` automation the
  engine's, as the Game Turn starts (:func:`choose`): an enemy unit on the Battlefield, the
  one with the highest Current Point Value among those at full HP (where 4 restores nothing),
  else among all (docs/rulings.md, session 25 s25-ability, 5).
* **1**: the Scatter Arrow (``Dice.scatter``, 2D6): a Hit and it stays; else every model moves
  that far that way, and if a model would leave the board, stand where it may not, overlap or
  touch another unit's base, the unit goes into Reserve (``perk_reserve.to_reserve``); it is
  out of any Melee it was in.
* **2, 3, 6**: statuses for the Game Turn (rulings 6): ``Nightmare Anomaly (2)`` +1 Defence
  and Reinforced and Resilient (failed Saves rerolled); ``Nightmare Anomaly (3)`` -1 Defence
  and successful Saves rerolled (the attack kernel's Rupture step, :data:`REROLL_SUCCESSFUL`
  a perk the status grants); ``Nightmare Anomaly (6)``: the unit loses no HP (the kernel's HP
  cap at 0, ``work.to_unit_state``), so every Attack, template and HP Loss with no Saves.
* **4**: D6 HP restored (``perk_turn.restore_hp``: wounded models, then casualties in
  Coherency). **5**: one Attack of D6 Attack Dice at Power 10 with no Armour or AEGIS Save
  (the attack kernel, as Ignite's Attack), casualties removed at once.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from warbench.rulesets.warsurge.attack import SUCCESSFUL_SAVES_REROLLED
from warbench.rulesets.warsurge.game import bases_ground, perk_reroll
from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.perk_immortal import HP_LOSS_IMMUNE
from warbench.rulesets.warsurge.game.state import Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.hooks import HookRegistry
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "IMMUNE",
    "NIGHTMARE",
    "REROLL_SUCCESSFUL",
    "USED",
    "at_turn_start",
    "choose",
    "immune",
    "options",
    "refused",
    "register_hooks",
    "strike",
    "use",
]

NIGHTMARE = "Nightmare Anomaly"
#: the holder's counter: the Game Turn its player used it (``used <perk>``, as ``UsePerks``)
USED = "used Nightmare Anomaly"
RULE = "Perks §12.6 Nightmare Anomaly (000_94ecc6a4c74d351b.txt L4354)"
#: the statuses of results 2, 3 and 6 (their modifiers: the effects table's row)
STATUS = {2: f"{NIGHTMARE} (2)", 3: f"{NIGHTMARE} (3)", 6: HP_LOSS_IMMUNE}
IMMUNE = HP_LOSS_IMMUNE
#: the perk result 3's status grants: the attack kernel rerolls the unit's successful Saves
REROLL_SUCCESSFUL = SUCCESSFUL_SAVES_REROLLED
_TEXT = {
    2: "+1 Defence, failed Saves rerolled this Game Turn",
    3: "-1 Defence, successful Saves rerolled this Game Turn",
    6: "immune to HP Loss this Game Turn",
}


@per_setup
def holders(setup: GameSetup) -> dict[int, int]:
    """Side -> the first unit of that side carrying Nightmare Anomaly (once per set-up)."""
    from warbench.rulesets.warsurge.effects.table import load_table

    table = load_table()
    out: dict[int, int] = {}
    for info in setup.units:
        names = (*info.unit.profile.perks, *info.traits)
        if any((r := table.find(n)) is not None and r.name == NIGHTMARE for n in names):
            out.setdefault(info.side, info.uid)
    return out


def immune(statuses: tuple[Status, ...]) -> bool:
    """Result 6: whether the unit is immune to HP Loss now."""
    return bool(statuses) and any(s.name == IMMUNE for s in statuses)


def choose(work: Work, side: int) -> int | None:
    """The engine's unit for ``side``'s Nightmare Anomaly: an enemy unit on the Battlefield,
    the highest Current Point Value at full HP first (ties: the first in roster order)."""
    from warbench.rulesets.warsurge.game.work import current_value

    best: tuple[bool, float, int] | None = None
    for u in work.units:
        if u.location is not Location.TABLE or not u.living():
            continue
        info = work.info(u.uid)
        if info.side == side:
            continue
        full = sum(max(0, h) for h in u.hp) >= info.max_hp
        key = (full, current_value(work, u.uid), -u.uid)
        if best is None or key > best:
            best = key
    return None if best is None else -best[2]


def at_turn_start(work: Work, turn: int) -> None:
    """Each holder's Nightmare Anomaly, side by side: the engine's choice of unit under the
    ``perk use`` automation (without it, the player's ``UsePerks``: :func:`use`)."""
    sides = holders(work.setup)
    if not sides:
        return
    from warbench.rulesets.warsurge.game.state import Automation

    if Automation.PERK_USE not in work.setup.automation:
        return
    for side in sorted(sides):
        target = choose(work, side)
        if target is not None:
            holder = sides[side]
            work.units[holder] = work.units[holder].with_counter(USED, work.flow.turn)
            work.dirty = True
            if not perk_reroll.denied(work, holder, NIGHTMARE):  # Deny (L4300), as UsePerks
                apply(work, side, target)


def _used(work: Work, side: int) -> bool:
    return any(
        work.units[t].counter(USED) == work.flow.turn
        for t in work.side_units(side)
        if work.units[t].counters
    )


def _on_battlefield(work: Work) -> list[int]:
    return [u.uid for u in work.units if u.location is Location.TABLE and u.living()]


def refused(work: Work, uid: int, option: str, start: bool) -> str | None:
    """Why ``uid`` (carrying the Roster Perk) may not use it on the unit ``option`` names now:
    once per Game Turn for its player, at the start of the Game Turn (Transform's window: the
    Standard Deploy Phase, or the Move Phase before it moves; the Advanced Action Steps before
    its first action); or ``None``."""
    side = work.info(uid).side
    if not start or _used(work, side):
        return f"Nightmare Anomaly is used at the start of the Game Turn, once ({RULE})"
    if not option:
        return None  # the engine's choice (:func:`choose`)
    try:
        target = int(option.strip())
    except ValueError:
        target = -1
    if target not in _on_battlefield(work):
        return (f"name a unit on the Battlefield by its number, as 'Nightmare Anomaly: 3' "
                f"({RULE})")  # fmt: skip
    return None


def options(work: Work, uid: int, start: bool) -> list[str]:
    """The units a player is shown: every unit on the Battlefield, the engine's choice first."""
    if refused(work, uid, "", start) is not None:
        return []
    units = _on_battlefield(work)
    best = choose(work, work.info(uid).side)
    if best is not None:
        units = [best, *(t for t in units if t != best)]
    return [str(t) for t in units]


def use(work: Work, uid: int, option: str) -> None:
    """``UsePerks(uid, ("Nightmare Anomaly: <unit>",))``: the player's unit (no unit named:
    the engine's choice) and its D6."""
    side = work.info(uid).side
    work.units[uid] = work.units[uid].with_counter(USED, work.flow.turn)
    work.dirty = True
    target = int(option) if option.strip() else choose(work, side)
    if target is not None:
        apply(work, side, target)


def apply(work: Work, side: int, uid: int) -> int:
    """``side``'s Nightmare Anomaly on ``uid``: the D6 and its effect; returns the D6."""
    face = work.dice.d6(NIGHTMARE)
    who = f"{work.side_name(side)}'s Nightmare Anomaly on {work.label(uid)}"
    work.emit("perk", f"{who}: rolled {face}", RULE, unit=uid, perk=NIGHTMARE, roll=face)
    if face == 1:
        _teleport(work, uid)
    elif face == 4:
        from warbench.rulesets.warsurge.game.perk_turn import restore_hp

        n = work.dice.d6(f"{NIGHTMARE} HP")
        got = restore_hp(work, uid, n)
        work.emit("perk", f"{work.label(uid)}: {got} HP restored (Nightmare Anomaly, D6 {n})",
                  RULE, unit=uid, perk=NIGHTMARE, restored=got)  # fmt: skip
    elif face == 5:
        strike(work, uid, work.dice.d6(f"{NIGHTMARE} Attack Dice"))
    else:
        name = STATUS[face]
        kept = tuple(s for s in work.units[uid].statuses if s.name != name)
        work.set_unit(uid, statuses=(*kept, Status(name, 1, NIGHTMARE)))
        work.emit("perk", f"{work.label(uid)}: {_TEXT[face]} (Nightmare Anomaly)", RULE,
                  unit=uid, perk=NIGHTMARE)  # fmt: skip
    return face


def _fits(work: Work, uid: int, models: list[int], new: list[tuple[float, float]]) -> bool:
    from warbench.rulesets.warsurge.game import geom
    from warbench.rulesets.warsurge.game.coherency import problem_positions

    if not all(
        bases_ground.model_on_board(work, uid, m, p) for m, p in zip(models, new, strict=True)
    ):
        return False
    if problem_positions(work, uid, new, models, None, None, False):
        return False
    return not work.contacts(uid, geom.as_array(new))


def _teleport(work: Work, uid: int) -> None:
    """Result 1: the Scatter Arrow and 2D6"; Reserve when the unit cannot be placed."""
    from warbench.rulesets.warsurge.game.coherency import full_positions
    from warbench.rulesets.warsurge.game.perk_reserve import to_reserve

    res = work.dice.scatter(2, NIGHTMARE)
    if res.hit or res.direction is None:
        work.emit("perk", f"{work.label(uid)}: the Scatter Arrow shows a Hit, it stays "
                  "(Nightmare Anomaly)", RULE, unit=uid, perk=NIGHTMARE)  # fmt: skip
        return
    rad = math.radians(res.direction.degrees)  # N is +y, clockwise (as Upheaval)
    dx, dy = math.sin(rad) * res.distance, math.cos(rad) * res.distance
    u = work.units[uid]
    models = u.present()
    new = [(float(u.pos[i][0] + dx), float(u.pos[i][1] + dy)) for i in models]
    work.engaged = {pair for pair in work.engaged if uid not in pair}
    if not _fits(work, uid, models, new):
        work.emit("perk", f'{work.label(uid)} cannot be placed {res.distance}" '
                  f"{res.direction.value} (Nightmare Anomaly)", RULE, unit=uid,
                  perk=NIGHTMARE)  # fmt: skip
        to_reserve(work, uid, NIGHTMARE)
        return
    work.set_unit(uid, pos=full_positions(u, models, new))
    work.emit("perk", f'{work.label(uid)} teleports {res.distance}" {res.direction.value} '
              "(Nightmare Anomaly)", RULE, unit=uid, perk=NIGHTMARE,
              distance=res.distance)  # fmt: skip


_WEAPONS: dict[int, Any] = {}


def _anomaly(n: int) -> Any:
    from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile

    hit = _WEAPONS.get(n)
    if hit is None:
        dice = WeaponProfile(name=NIGHTMARE, range=0, attacks=n, power=10)
        hit = Unit(
            profile=UnitProfile(name=NIGHTMARE, move=0, dash=0, defence=0, hp=1),
            weapons=[dice],
            models=[ModelGroup(count=1, weapons=[NIGHTMARE])],
        )
        _WEAPONS[n] = hit
    return hit


def strike(work: Work, uid: int, n: int) -> int:
    """Result 5: ``n`` Attack Dice at Power 10 against ``uid`` with no Armour or AEGIS Save;
    returns the HP lost (casualties removed at once, Coherency restored)."""
    from warbench.rulesets.warsurge.attack import AttackContext, UnitState
    from warbench.rulesets.warsurge.game.casualties import remove_models, restore_coherency
    from warbench.rulesets.warsurge.game.hooks import Hook
    from warbench.rulesets.warsurge.game.work import to_unit_state
    from warbench.rulesets.warsurge.odds import AttackPlan, resolve_attack

    st = to_unit_state(work, uid)
    bare = replace(st, profile=st.profile.model_copy(update={"armour": None, "aegis": None}))
    from warbench.rulesets.warsurge.game import perk_combat_damage

    ctx = perk_combat_damage.in_effect(work, uid, AttackContext())  # Combat Damage (L1154)
    plan = AttackPlan(UnitState.of(_anomaly(n)), bare, ctx,
                      weapons=(NIGHTMARE,), users=((NIGHTMARE, 1),))  # fmt: skip
    res = resolve_attack(plan, work.dice)
    lost = res.hp_lost
    perk_combat_damage.after_share(work, uid, None, res.combat_damage)
    if lost:
        work.set_unit(uid, hp=tuple(max(0, m.hp) for m in bare.models))
    work.emit("perk", f"{work.label(uid)}: {n} Attack Dice at Power 10, no Armour or AEGIS "
              f"Save: {lost} HP lost (Nightmare Anomaly)", RULE, unit=uid, perk=NIGHTMARE,
              hp_lost=lost)  # fmt: skip
    if not lost:
        return 0
    if work.hooks.active(Hook.HP_LOST):
        work.hooks.fire(Hook.HP_LOST, work, unit=uid, amount=lost, source=NIGHTMARE,
                        attacker=None)  # fmt: skip
    dead = [i for i in work.units[uid].present() if work.units[uid].hp[i] <= 0]
    if dead:
        remove_models(work, uid, dead, NIGHTMARE)
        if work.units[uid].living():
            restore_coherency(work, uid)
    return lost


def register_hooks(reg: HookRegistry) -> None:
    from warbench.rulesets.warsurge.game.hooks import Hook

    reg.register(Hook.TURN_START, at_turn_start, NIGHTMARE, when=holders)  # its first test
