"""Perks that act by the Game Turn, by the User's HP, and limits on a weapon's use (issue 11).

The effects engine's rows name three machineries (``effects/table.py`` ``MACHINERIES``) that
this module plays at the game's hook points (registered with :mod:`.perk_hooks`):

* ``start of turn`` (``Hook.TURN_START``, before the Turn Master Roll-Off): the Psychological
  perks that test "at the start of the Game Turn, if the User has lost HP in the previous Game
  Turn, or only has 1 HP" (Conviction L2197, Execution L2209, Frenzy L2239, Morale I/II
  L2249-L2261, Panic L2267, Pusillanimous L2299), the rolls of +Armour I/II (L1465), the
  bonuses by Game Turns on the Battlefield (Powered by Pain L1595, Escalate L2963) and Bloody
  (L3777);
* ``hp threshold``: Stats by the User's HP, refreshed whenever its HP changes (Deteriorate
  L1208, Diminish L1226, Wane L3264, Hearty L3915);
* ``weapon limit``: when a weapon may be used (Use I-III L3246, Countdown I-III L3046,
  Recharge I-III L3142, Pain Locked L3134), and Panic's "may not use any Weapons".

Every effect is a status on the unit (``effects.statuses.Marker``, read by the one stacking
algebra where the game reads Stats); a status on one weapon only is ``Name@Weapon``
(``effects.runtime.split_scope``). A unit's counters keep what the rules count: ``arrived``
(the first Game Turn it counts as on the Battlefield), ``hp lost turn``, ``pain`` (the Game
Turn of its first HP Loss from an enemy), and per weapon the Game Turn of its last use.
Units without these perks are never touched: the seeded games without perks are unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from warbench.rulesets.warsurge.attack import AttackContext
from warbench.rulesets.warsurge.effects.model import PerkTest, TestSpec
from warbench.rulesets.warsurge.effects.rolls import Outcome, run_test
from warbench.rulesets.warsurge.effects.runtime import split_scope
from warbench.rulesets.warsurge.effects.table import load_table
from warbench.rulesets.warsurge.game import bases, geom, perk_eternal, perk_offering, perk_reroll
from warbench.rulesets.warsurge.game.advstate import Playstyle
from warbench.rulesets.warsurge.game.casualties import remove_models, restore_coherency
from warbench.rulesets.warsurge.game.perk_arms import carried_weapons, rearmed, rearmed_units
from warbench.rulesets.warsurge.game.perk_combat_damage import table_loss as combat_damage_loss
from warbench.rulesets.warsurge.game.perk_index import ARRIVED as ARRIVED
from warbench.rulesets.warsurge.game.perk_index import HP_LOST_TURN as HP_LOST_TURN
from warbench.rulesets.warsurge.game.perk_index import PAIN as PAIN
from warbench.rulesets.warsurge.game.perk_index import PRESENCE_PERKS as PRESENCE_PERKS
from warbench.rulesets.warsurge.game.perk_index import (
    SHAKEN,
    THRESHOLD_UNIT,
    THRESHOLD_WEAPON,
    UnitPerks,
    _canonical,
    looted_perks,
    perks_now,
)
from warbench.rulesets.warsurge.game.perk_index import WEAPONS_TURN as WEAPONS_TURN
from warbench.rulesets.warsurge.game.perk_index import index as index
from warbench.rulesets.warsurge.game.state import Location, Phase, Status, model_max_hp, unit_max_hp
from warbench.rulesets.warsurge.game.work import store_unit_state, to_unit_state
from warbench.rulesets.warsurge.odds import AttackPlan, allocate_loss

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work


_Play = Callable[["Work", int, str], None]


def _weapon_turn(weapon: str) -> str:
    return f"weapon turn {weapon}"


def _weapon_step(weapon: str) -> str:
    return f"weapon step {weapon}"


def _weapon_uses(weapon: str) -> str:
    return f"weapon uses {weapon}"


# -- statuses of this module -----------------------------------------------------------------


def _replace_statuses(w: Work, uid: int, bases: Iterable[str], new: Sequence[Status]) -> None:
    """The unit's statuses whose base name is in ``bases`` replaced by ``new``."""
    gone = set(bases)
    u = w.units[uid]
    kept = tuple(s for s in u.statuses if split_scope(s.name)[0] not in gone)
    statuses = (*kept, *new)
    if statuses != u.statuses:
        w.set_unit(uid, statuses=statuses)


def _rule(perk: str) -> str:
    """The source line of a perk, or of the perk whose status this is (Orders' "Take Cover!")."""
    row = load_table().find(perk)
    return row.source if row is not None else _status_sources().get(perk, perk)


@cache
def _status_sources() -> dict[str, str]:
    """Each status name → the source line of the first perk that puts it."""
    return {e.status: r.source for r in load_table() for e in r.effects if e.status}


# -- counters: arrival, HP lost --------------------------------------------------------------


def on_deploy(work: Work, unit: int) -> None:
    """The Game Turn from which the unit counts as on the Battlefield (its 1st Game Turn
    there): the Game Turn it deploys in, or the next when it deploys by an Advanced Deploy
    Action (Countdown L3046, Escalate L2963, Powered by Pain L1595: "Deploying via the Deploy
    Action during an Advanced Game Turn does not count"). Its passengers arrive with it."""
    idx = index(work.setup)
    if not (idx.at_turn_start or idx.limited or idx.by_threshold):
        return
    turn = work.flow.turn
    late = work.setup.playstyle is Playstyle.ADVANCED and work.flow.phase is Phase.ACTIONS
    for uid in (unit, *work.passengers(unit)):
        if work.units[uid].counter(ARRIVED) == 0:
            work.units[uid] = work.units[uid].with_counter(ARRIVED, turn + (1 if late else 0))
            work.dirty = True
        refresh_thresholds(work, uid)  # Hearty: at full HP from the start


def turns_on_battlefield(work: Work, uid: int) -> int:
    """Which Game Turn on the Battlefield this is for the unit (1: the turn it arrived; 0: not
    arrived)."""
    arrived = work.units[uid].counter(ARRIVED)
    return 0 if arrived == 0 or work.flow.turn < arrived else work.flow.turn - arrived + 1


def note_hp_lost(work: Work, unit: int, attacker: int | None) -> None:
    """Remember the Game Turn a unit with these perks lost HP (the Psychological tests' "lost HP
    in the previous Game Turn") and its first HP Loss from an enemy (Pain Locked L3134); refresh
    its Stats by HP."""
    idx = index(work.setup)
    u = work.units[unit]
    turn = work.flow.turn
    if unit in idx.at_turn_start and u.counter(HP_LOST_TURN) != turn:
        work.units[unit] = u = u.with_counter(HP_LOST_TURN, turn)
        work.dirty = True
    if (
        (unit in idx.limited or "Pain Locked" in looted_perks(work.setup))  # (s38-loot)
        and attacker is not None
        and work.enemies(unit, attacker)
        and not u.counter(PAIN)
    ):
        work.units[unit] = u.with_counter(PAIN, turn)
        work.dirty = True
    refresh_thresholds(work, unit)


def lose_hp(w: Work, uid: int, amount: int, why: str, rule: str, table: bool = True) -> int:
    """``amount`` HP lost with no Saves, in casualty order; casualties are removed at once
    (Bleed "causing casualties immediately" L2584; at the end of a Game Turn nothing else
    would remove them). Returns the HP lost. ``table``: Combat Damage (L1154) rolls for it."""
    u = w.units[uid]
    if amount <= 0 or not u.living():
        return 0
    if table:
        amount = combat_damage_loss(w, uid, amount)  # Combat Damage (L1154): w2-kernel
    st = to_unit_state(w, uid)
    lost = sum(n for _, n in allocate_loss(AttackPlan(st, st, AttackContext()), amount))
    store_unit_state(w, uid, st)
    w.emit(
        "perk", f"{w.label(uid)}: {why}, {lost} HP lost (no Saves)", rule, unit=uid, hp_lost=lost
    )
    if lost:
        note_hp_lost(w, uid, None)
    u = w.units[uid]
    dead = [i for i in u.present() if u.hp[i] <= 0]
    if dead and _casualty_perks(w, uid):
        for i in dead:
            on_casualty(w, uid, i, why)
        u = w.units[uid]
        dead = [i for i in u.present() if u.hp[i] <= 0]
    if dead:
        remove_models(w, uid, dead, why)
        if w.units[uid].living():
            restore_coherency(w, uid)
    return lost


# -- Stats by HP (Deteriorate, Diminish, Wane) -----------------------------------------------


def _level(hp: int, max_hp: int) -> str:
    """``"25%"``, ``"50%"`` or ``""``: "At 50% or less HP (rounding up) … At 25% or less HP
    (rounding up)" (L1208: "divide the User's maximum HP by 2 and round up")."""
    if hp <= math.ceil(max_hp / 4):
        return "25%"
    if hp <= math.ceil(max_hp / 2):
        return "50%"
    return ""


def refresh_thresholds(work: Work, uid: int) -> None:
    """Deteriorate (L1208: Armour -1 at 50%, -2 at 25%), Diminish (L1226: Move and Dash -50%
    and +1 to Attack Dice against it at 50%; -25% and +2 at 25%) and Wane (L3264: the weapon's
    Attack Dice -1 at 50%, -2 at 25%) and Hearty (L3915) as statuses, by the unit's HP now;
    a picked-up Loot Weapon's by its carrier's (:func:`perks_now`; issue 10, session 38)."""
    idx = index(work.setup)
    if uid not in idx.by_threshold and not (
        work.units[uid].statuses and THRESHOLD_WEAPON & looted_perks(work.setup)
    ):
        return
    perks = perks_now(work, uid)
    u = work.units[uid]
    level = _level(u.current_hp, unit_max_hp(work.info(uid), u)) if u.living() else ""
    new: list[Status] = []
    for name in sorted(perks.unit & THRESHOLD_UNIT):
        if level:
            new.append(Status(f"{name} ({level})", None, name))
    full = bool(u.living()) and u.current_hp >= unit_max_hp(work.info(uid), u)
    for weapon, names in perks.weapons_with(THRESHOLD_WEAPON):
        if "Wane" in names and level:
            new.append(Status(f"Wane ({level})@{weapon}", None, "Wane"))
        if "Hearty" in names and full:  # L3915 "If the User is at full HP"
            new.append(Status(f"Hearty@{weapon}", None, "Hearty"))
    before = {s.name for s in u.statuses}
    _replace_statuses(work, uid, _THRESHOLD_STATUSES, new)
    for s in new:
        if s.name not in before:
            work.emit(
                "perk",
                f"{work.label(uid)}: {s.source} at {level or 'full'} HP",
                _rule(s.source),
                unit=uid,
                perk=s.source,
            )


_THRESH = THRESHOLD_UNIT | THRESHOLD_WEAPON
_THRESHOLD_STATUSES = frozenset(
    {"Hearty", *(f"{n} ({lv})" for n in _THRESH for lv in ("50%", "25%"))}
)


# -- the start of a Game Turn ----------------------------------------------------------------


def mastery_modifier(work: Work, uid: int) -> int:
    """Dice Modifiers on the unit's Mastery Tests: Mastery +1 (L1334), the strongest enemy
    Resist within its Radius -1/-2 (L1677-L1699)."""
    idx = index(work.setup)
    mod = 1 if "Mastery" in idx.units[uid].unit else 0
    worst = 0
    for other, radius, m in idx.resist:
        if not work.enemies(uid, other) or work.units[other].location is not Location.TABLE:
            continue
        if not work.units[uid].living() or work.units[uid].location is not Location.TABLE:
            continue
        d = bases.distances(
            work,
            uid,
            work.xy(uid),
            work.info(uid).radius,
            other,
            work.xy(other),
            work.info(other).radius,
        )
        if d.size and float(d.min()) <= radius + 1e-9:
            worst = min(worst, m)
    return mod + worst


def on_turn_start(work: Work, turn: int) -> None:
    """The start of a Game Turn: the perks of :data:`TURN_UNIT` and :data:`TURN_WEAPON`, in the
    unit's order, for every unit on the Battlefield (a Transport's passengers too)."""
    idx = index(work.setup)
    for uid in rearmed_units(work.setup, work.units, idx.at_turn_start):  # (s37-loot)
        u = work.units[uid]
        if u.location not in (Location.TABLE, Location.EMBARKED) or not u.living():
            continue
        perks = idx.units[uid]
        if rearmed(u.statuses):  # the Weapons it carries now: a looted one's Perks (L3090)
            now = carried_weapons(work.setup, uid, u.statuses)
            perks = UnitPerks(perks.unit, tuple((w.name, _canonical(w.perks)) for w in now))
        _by_turns_on_battlefield(work, uid, perks)
        _bloody(work, uid, perks)
        _armour_roll(work, uid, perks)
        shaken = [p for p in SHAKEN if p in perks.unit]
        if shaken and _shaken(work, uid, turn):
            for name in shaken:
                if work.units[uid].living():
                    _SHAKEN_PLAY[name](work, uid, name)


def _shaken(work: Work, uid: int, turn: int) -> bool:
    """ "If the User has lost HP in the previous Game Turn, or if the User only has 1 HP"."""
    u = work.units[uid]
    return u.counter(HP_LOST_TURN) == turn - 1 or u.current_hp == 1


def _status(work: Work, uid: int, name: str, perk: str, text: str, turns: int | None = 1) -> None:
    _replace_statuses(work, uid, (name,), (Status(name, turns, perk),))
    work.emit("perk", f"{work.label(uid)}: {text}", _rule(perk), unit=uid, perk=perk)


def mastery_test(work: Work, uid: int, perk: str) -> bool:
    """The unit's Mastery Test for ``perk`` (its modifiers: :func:`mastery_modifier`), as an
    event, rerolled or denied by Lucky, Jinx, Architect, Deny (:mod:`.perk_reroll`)."""
    return _mastery(work, uid, perk)


def _mastery(work: Work, uid: int, perk: str) -> bool:
    spec, mod, fail = TestSpec(PerkTest.MASTERY), mastery_modifier(work, uid), fugued(work, uid)

    def roll(label: str) -> Outcome:  # Fugue L2716: "automatically fail all Mastery … Tests"
        return run_test(work.dice, spec, mod, auto_fail=fail, label=label)

    out = perk_reroll.tested(work, uid, f"{perk} test", roll, _rule(perk), perk)
    return out.passed or perk_offering.rescue(work, uid, f"{perk} test", lose_hp)  # L871


def fugued(work: Work, uid: int) -> bool:
    """Whether the unit is under Fugue now (L2716: it "will automatically fail all Mastery and
    Skill Tests on the following Game Turn")."""
    statuses = work.units[uid].statuses
    return bool(statuses) and any(s.name == "Fugue" for s in statuses)


def _conviction(work: Work, uid: int, perk: str) -> None:
    """L2197: "roll a D3 … 1) +50% to Move and Dash. 2) +2 Defence. 3) +1 AEGIS", for the
    current Game Turn."""
    r = work.dice.roll("D3", "Conviction")
    name = ("Conviction (Move)", "Conviction (Defence)", "Conviction (AEGIS)")[r - 1]
    _status(work, uid, name, perk, f"{perk} rolls {r}: {name}")


def _frenzy(work: Work, uid: int, perk: str) -> None:
    """L2239: a passed Mastery Test: Move and Dash +50%, +1 Power on all Weapons."""
    if _mastery(work, uid, perk):
        _status(work, uid, "Frenzy", perk, "Frenzy: Move and Dash +50%, +1 Power")


def _on_failure(status: str, text: str) -> _Play:
    def play(work: Work, uid: int, perk: str) -> None:
        if not _mastery(work, uid, perk):
            _status(work, uid, status, perk, f"{perk}: {text}")

    return play


def _execution(work: Work, uid: int, perk: str) -> None:
    """L2209: each failed Mastery Test, one model (the controlling player's choice; the
    engine's default: the model with the fewest HP, then the last) loses all its HP and is
    removed; test again until one passes or every model is gone."""
    while work.units[uid].living() and not _mastery(work, uid, perk):
        u = work.units[uid]
        victim = min(u.living(), key=lambda i: (u.hp[i], -i))
        hp = list(u.hp)
        hp[victim] = 0
        work.set_unit(uid, hp=tuple(hp))
        remove_models(work, uid, [victim], perk)
    if work.units[uid].living():
        restore_coherency(work, uid)  # as after any casualties removed at once (§4.2 IV)


def _pusillanimous(work: Work, uid: int, perk: str) -> None:
    """L2299: 2D6; 8 or more loses (total - 7) HP with no Saves ("A 2D6 result of 11 will cause
    a Unit to lose 4 HP")."""
    total = work.dice.roll("2D6", "Pusillanimous")
    if total <= 7:
        work.emit("perk", f"{work.label(uid)}: {perk} rolls {total}, passed", _rule(perk),
                  unit=uid, perk=perk)  # fmt: skip
        return
    lose_hp(work, uid, total - 7, f"{perk} rolls {total}", _rule(perk))


_SHAKEN_PLAY = {
    "Conviction": _conviction,
    "Execution": _execution,
    "Frenzy": _frenzy,
    "Morale I": _on_failure("Morale I", "-1 to all Attack Dice this Game Turn"),
    "Morale II": _on_failure("Morale II", "-2 to all Attack Dice this Game Turn"),
    "Panic": _on_failure("Panic", "Immobile and no Weapons this Game Turn"),
    "Pusillanimous": _pusillanimous,
    "Unstable": _on_failure("Unstable", "into Reserve for this Game Turn"),
    "Fall Back": _on_failure("Fall Back", "all Movement toward its board edge this Game Turn"),
}

_ORDINAL = {2: "2nd", 3: "3rd", 4: "4th"}


def _by_turns_on_battlefield(work: Work, uid: int, perks: UnitPerks) -> None:
    """Powered by Pain (L1595: 2nd Game Turn on the Battlefield +50% Move and Dash, 3rd +1
    Defence, 4th +1 AEGIS) and Escalate (L2963: 2nd +1 Power, 3rd +1 Attack, 4th +1 AP), each
    bonus kept from then on (docs/rulings.md: cumulative)."""
    nth = turns_on_battlefield(work, uid)
    reached = [k for k in (2, 3, 4) if nth >= k]
    if "Powered by Pain" in perks.unit:
        names = [f"Powered by Pain ({_ORDINAL[k]})" for k in reached]
        _grant(
            work,
            uid,
            "Powered by Pain",
            names,
            [f"Powered by Pain ({o})" for o in _ORDINAL.values()],
        )
    for weapon, _ in perks.weapons_with(("Escalate",)):
        names = [f"Escalate ({_ORDINAL[k]})@{weapon}" for k in reached]
        _grant(work, uid, "Escalate", names, [f"Escalate ({o})" for o in _ORDINAL.values()], weapon)


def _grant(
    work: Work, uid: int, perk: str, names: list[str], family: list[str], weapon: str = ""
) -> None:
    u = work.units[uid]
    have = {s.name for s in u.statuses}
    if set(names) <= have:
        return
    mine = [
        s
        for s in u.statuses
        if split_scope(s.name)[0] in family and split_scope(s.name)[1] == weapon
    ]
    others = tuple(s for s in u.statuses if s not in mine)
    work.set_unit(uid, statuses=(*others, *(Status(n, None, perk) for n in names)))
    latest = names[-1]
    work.emit("perk", f"{work.label(uid)}: {latest}", _rule(perk), unit=uid, perk=perk)


def _bloody(work: Work, uid: int, perks: UnitPerks) -> None:
    """Bloody (L3777): "If the User is at 50% or less HP (rounding down) at the start of the
    Game Turn, the Weapon gains +2 Power and +2 Attacks" for that Game Turn."""
    armed = perks.weapons_with(("Bloody",))
    if not armed:
        return
    u = work.units[uid]
    if u.current_hp > unit_max_hp(work.info(uid), u) // 2:
        return
    for weapon, _ in armed:
        name = f"Bloody@{weapon}"
        statuses = tuple(s for s in work.units[uid].statuses if s.name != name)
        work.set_unit(uid, statuses=(*statuses, Status(name, 1, "Bloody")))
        work.emit("perk", f"{work.label(uid)}: Bloody {weapon} (+2 Power, +2 Attacks)",
                  _rule("Bloody"), unit=uid, perk="Bloody")  # fmt: skip


def _armour_roll(work: Work, uid: int, perks: UnitPerks) -> None:
    """+Armour I/II (L1465): "roll a D3 [II: a D6] and add the result to the User's Armour
    Stat for this Game Turn. Cannot exceed 2+" (the algebra's Armour Stat change)."""
    for perk, die in (("+Armour I", "D3"), ("+Armour II", "D6")):
        if perk in perks.unit:
            r = work.dice.roll(die, perk)
            _status(work, uid, f"+Armour +{r}", perk, f"{perk} rolls {r}: Armour +{r}")


def free_spot(
    work: Work,
    uid: int,
    anchors: list[tuple[float, float]],
    *,
    ring: bool = True,
    taken: Sequence[tuple[float, float]] = (),
) -> tuple[float, float] | None:
    """A free spot for a model of ``uid`` within Coherency of one of ``anchors`` (a ring
    around each; ``ring=False``: the anchors themselves), on the battlefield, not on a model
    (nor on a spot ``taken`` already) and not within 1" of an enemy."""
    r = work.info(uid).radius
    t = work.table()
    for a in anchors:
        for s in geom.ring_points(a, 2 * r + 0.2, 16) if ring else [a]:
            if not work.field.spot_ok(s, r):
                continue
            if len(t.xy):
                gap = np.sqrt(((t.xy - np.asarray(s)) ** 2).sum(axis=1)) - t.r - r
                enemy = t.side != work.info(uid).side
                if (gap < 0.01).any() or (enemy & (gap < 1.0)).any():
                    continue
            if ring and any(math.dist(s, p) < 2 * r for p in anchors):
                continue
            if any(math.dist(s, p) < 2 * r + 0.01 for p in taken):
                continue
            return (float(s[0]), float(s[1]))
    return None


# -- instead of a casualty: Reservoir, Last Stand; Resurrection --------------------------------

RESURRECTION = ("Resurrection I", "Resurrection II")  # and below: perks on Casualty (L259)
CASUALTY_UNIT = frozenset({"Reservoir", "Last Stand", "Eternal", *RESURRECTION})
FALLEN = "fallen"  # per model: the Game Turn it became a casualty (Resurrection)


def _casualty_perks(work: Work, uid: int) -> frozenset[str]:
    return index(work.setup).units[uid].unit & CASUALTY_UNIT


def on_casualty(work: Work, unit: int, model: int, source: str) -> None:
    """A model of ``unit`` reached 0 HP (§12.2 L259 Casualty): marked for Resurrection, and
    when no model is left, Reservoir or Last Stand keeps the unit (:func:`survive_zero`)."""
    perks = _casualty_perks(work, unit)
    if not perks:
        return
    if perks & {"Resurrection I", "Resurrection II"} and model < work.info(unit).real_models:
        mark_fallen(work, unit, [model])  # (an Illusion is no model to resurrect, L779)
    survive_zero(work, unit) or perk_eternal.keep(work, unit)  # Eternal L1511: after them


def mark_fallen(work: Work, uid: int, models: Sequence[int]) -> None:
    """Resurrection (L1707): "Each model in the Unit that is a casualty is placed on its side or
    receives a marker" — the Game Turn it fell, per model."""
    u = work.units[uid]
    for i in models:
        u = u.with_counter(f"{FALLEN} {i}", work.flow.turn)
    work.units[uid] = u
    work.dirty = True


def survive_zero(work: Work, uid: int) -> bool:
    """The unit has no model with HP left: Reservoir (L1661, once per game: "recovers 25% (1/4)
    of its maximum HP (rounding up), with a minimum of 1 HP restored") or else Last Stand
    (L1567, once per game: "removes all negative Perk effects and restores all HP … until the
    User becomes a casualty again or until the end of the next Game Turn, where the User is
    removed as a casualty"). Returns whether the unit stands."""
    perks = _casualty_perks(work, uid)
    u = work.units[uid]
    if u.living() or not perks & {"Reservoir", "Last Stand"}:
        return False
    max_hp = unit_max_hp(work.info(uid), u)
    if "Reservoir" in perks and not u.used("Reservoir"):
        work.units[uid] = u.with_use("Reservoir")
        _stand(work, uid, max(1, math.ceil(max_hp / 4)), "Reservoir")
        return True
    if "Last Stand" in perks and not u.used("Last Stand"):
        work.units[uid] = u.with_use("Last Stand")
        negative = _negative_statuses()
        kept = tuple(s for s in work.units[uid].statuses if split_scope(s.name)[0] not in negative)
        work.set_unit(uid, statuses=(*kept, Status("Last Stand", 2, "Last Stand")))
        _stand(work, uid, max_hp, "Last Stand")
        return True
    return False


def _stand(work: Work, uid: int, n: int, perk: str) -> None:
    """``n`` HP back to a unit whose models are all at 0 HP: the models that just fell (still
    where they fell) first, then models removed earlier, placed in Coherency (L1661)."""
    u = work.units[uid]
    per = model_max_hp(work.info(uid), u)
    hp, removed, pos = list(u.hp), list(u.removed), list(u.pos)
    left = n
    order = [i for i in range(work.info(uid).real_models) if not removed[i]] + [
        i
        for i in range(work.info(uid).real_models)
        if removed[i]  # not Illusions (L779)
    ]
    for i in order:
        if left <= 0:
            break
        if removed[i]:
            anchors = [pos[k] for k in range(len(hp)) if not removed[k] and hp[k] > 0]
            spot = free_spot(work, uid, anchors, taken=anchors) if anchors else None
            if spot is None:
                continue
            pos[i] = spot
        give = min(per, left)
        hp[i], removed[i] = give, False
        left -= give
    work.set_unit(uid, hp=tuple(hp), removed=tuple(removed), pos=tuple(pos))
    if len(work.units[uid].living()) > 1:
        restore_coherency(work, uid)
    got = n - max(0, left)
    work.emit("perk", f"{work.label(uid)} is not a casualty: {perk} restores {got} HP",
              _rule(perk), unit=uid, perk=perk, restored=got)  # fmt: skip
    refresh_thresholds(work, uid)


def _negative_statuses() -> frozenset[str]:
    """Statuses an enemy's perk puts on a unit (Affliction-family weapon perks)."""
    table = load_table()
    return frozenset(
        e.status
        for r in table
        if r.family == "Affliction"
        for e in r.effects
        if e.kind.value == "status"
    )


def last_stand_ends(work: Work, turn: int) -> None:
    """End of a Game Turn: a unit whose Last Stand ends now is removed as a casualty (L1567)."""
    for u in list(work.units):
        if not u.statuses or not u.living():
            continue
        if any(s.name == "Last Stand" and s.turns == 1 for s in u.statuses):
            hp = tuple(0 for _ in u.hp)
            work.set_unit(u.uid, hp=hp)
            remove_models(work, u.uid, u.present(), "Last Stand ends")


def resurrection(work: Work, turn: int) -> None:
    """Start of a Game Turn (L1707): each model that fell in the previous Game Turn (Resurrection
    II: in any earlier Game Turn, testing again) revives on a D6 of 4+ at full HP within
    Coherency of its unit; Resurrection I is used once (Limited Use (1)), Resurrection II each
    Game Turn. A unit destroyed meanwhile rises where its models fell."""
    idx = index(work.setup)
    for uid, perks in enumerate(idx.units):
        ranks = perks.unit & {"Resurrection I", "Resurrection II"}
        if not ranks:
            continue
        u = work.units[uid]
        again = "Resurrection II" in ranks
        if not again and u.used("Resurrection I"):
            continue
        due = [
            i
            for i in range(len(u.hp))
            if (t := u.counter(f"{FALLEN} {i}")) and (t == turn - 1 or (again and t < turn))
        ]
        if not due or u.location not in (Location.TABLE, Location.DESTROYED) or not u.pos:
            continue
        if not again:
            work.units[uid] = work.units[uid].with_use("Resurrection I")
        rank = "Resurrection II" if again else "Resurrection I"
        back: list[int] = []
        for i in due:
            face = work.dice.d6(f"{rank} (model {i + 1})")
            if face >= 4:
                back.append(i)
            work.units[uid] = work.units[uid].with_counter(
                f"{FALLEN} {i}", work.units[uid].counter(f"{FALLEN} {i}") if again else 0
            )
        _revive(work, uid, back, rank)
        for i in back:
            work.units[uid] = work.units[uid].with_counter(f"{FALLEN} {i}", 0)


def _revive(work: Work, uid: int, models: list[int], rank: str) -> None:
    """The models back at full HP: where they fell when that spot is free, else within
    Coherency of a model of the unit; a model with no free spot stays a casualty."""
    u = work.units[uid]
    per = model_max_hp(work.info(uid), u)
    hp, removed, pos = list(u.hp), list(u.removed), list(u.pos)
    back: list[int] = []
    for i in models:
        anchors = [pos[k] for k in range(len(hp)) if not removed[k] and hp[k] > 0]
        placed = [pos[k] for k in back]
        spot = (
            free_spot(work, uid, anchors, taken=placed)
            if anchors
            else free_spot(work, uid, [pos[i]], ring=False, taken=placed)
        )
        if spot is None:
            continue
        hp[i], removed[i], pos[i] = per, False, spot
        back.append(i)
    if not back:
        work.emit("perk", f"{work.label(uid)}: no model revives ({rank})", _rule(rank), unit=uid)
        return
    if u.location is Location.DESTROYED:
        work.set_unit(uid, location=Location.TABLE)
    work.set_unit(uid, hp=tuple(hp), removed=tuple(removed), pos=tuple(pos))
    if len(work.units[uid].living()) > 1:
        restore_coherency(work, uid)
    from warbench.rulesets.warsurge.game.melee import engage_new_contacts

    engage_new_contacts(work, uid)  # §4.3: a model back in Base Contact with an enemy
    work.emit("perk", f"{work.label(uid)}: {len(back)} models revive at full HP ({rank})",
              _rule(rank), unit=uid, perk=rank, models=back)  # fmt: skip
    refresh_thresholds(work, uid)


def restore_hp(work: Work, uid: int, n: int) -> int:
    """Restore up to ``n`` HP (Recover L1611: "returning casualty models in Coherency"):
    damaged models first, then removed models, each placed within Coherency of a model of the
    unit on a free spot out of Base Contact with enemies; never above full HP. Returns the HP
    restored."""
    u = work.units[uid]
    if any(s.name == "Virus" for s in u.statuses):
        return 0  # L2876: "unable to restore lost HP"
    info = work.info(uid)
    per = model_max_hp(info, u)
    hp, removed, pos = list(u.hp), list(u.removed), list(u.pos)
    got = 0
    for i in (k for k in u.living() if k < info.real_models):  # not Illusions (L779)
        add = min(n - got, per - hp[i])
        hp[i] += max(0, add)
        got += max(0, add)
    for i, gone in enumerate(u.removed[: info.real_models]):
        if got >= n:
            break
        if not gone:
            continue
        spot = free_spot(work, uid, [pos[k] for k, r in enumerate(removed) if not r])
        if spot is None:
            break
        removed[i], pos[i] = False, spot
        hp[i] = min(per, n - got)
        got += hp[i]
    if got:
        work.set_unit(uid, hp=tuple(hp), removed=tuple(removed), pos=tuple(pos))
        refresh_thresholds(work, uid)
    return got
