"""Tactical Weapon Perks in a game (Perks 000_94ecc6a4c74d351b.txt §12.5 Tactical, L3777-L4110).

* **No Line of Sight I-III** (L3961-L3984, in :mod:`.perk_sight`, which ``targeting`` and
  ``attacks`` import): "The Weapon does not need to have line of sight to
  the Target unit, but will suffer a -2 Dice Modifier to Attack Dice if the Target is not in line
  of sight" (I; II and III without the -2). A model carrying such a Weapon is one of its users
  against every Target in its Range, seen or not (:func:`.perk_sight.unseen_users`, called by
  ``targeting``); when no model of the Target is in line of sight of the attacking unit the
  share's :class:`~warbench.rulesets.warsurge.attack.AttackContext` says so
  (``target_out_of_sight``: the attack kernel refuses other Weapons and gives No Line of Sight
  I its -2, so ``odds`` is exact with ``--situation out-of-sight``), and any model of the
  Target may be a casualty, since the Weapon needs no sight of it
  (:func:`.perk_sight.sight_context`; docs/rulings.md "perks in play: Tactical, Trait,
  Movement, Leadership, Defensive" 1-2).
  The Transport clauses (a passenger without Fire Points, passengers as Targets) stay the
  game's §6 rules for now: ruling 3.
* **Momentum** (L3945): each Move, Dash or relocation (Blink) of the Wielder that leaves its
  starting position adds a ``Momentum n@Weapon`` status (+1 Power to that Weapon); at the end
  of a Game Turn they reset if the Wielder is in a Melee, made no Movement, is Immobile or is
  off the Battlefield (ruling 4).
* **Disarm** (L3807): a Skill Test per HP its Weapon causes; each pass makes one of the
  Target's Weapons unusable this Game Turn (next Game Turn if it already used its Weapons), the
  engine's choice (:func:`disarm_choice`, ruling 5): a ``Disarm@Weapon`` status that
  ``perk_limits.weapon_refusal`` reads.
* **Fast** (L3819) and **Pre-Emptive** (L4033, the first use in each Melee): the casualties of
  the Weapon's share are removed at once in the Standard playstyle (:func:`fast_after_weapon`),
  so they no longer attack that Attack Phase (ruling 8).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.state import Location

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import Status
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "DISARM",
    "MOMENTUM",
    "disarm_choice",
    "disarm_on_hp_lost",
    "disarmed",
    "fast_after_weapon",
    "momentum_after_move",
    "momentum_at_turn_end",
    "register_hooks",
]


# -- Momentum (L3945) ----------------------------------------------------------------------------

#: Momentum's statuses on one Weapon (``Momentum 3@Gun``), +1 Power each; ten at most
#: (docs/rulings.md "perks in play: Tactical, Trait, Movement, Leadership, Defensive" 4).
MOMENTUM = tuple(f"Momentum {n}" for n in range(1, 11))
_MOMENTUM_TURN = "momentum moved turn"
_MOMENTUM_RULE = "Perks §12.5 Momentum (000_94ecc6a4c74d351b.txt L3945)"


def _momentum_weapons(work: Work, uid: int) -> list[str]:
    from warbench.rulesets.warsurge.game.perk_index import perks_now

    return [name for name, ps in perks_now(work, uid).weapons if "Momentum" in ps]


def momentum_after_move(work: Work, unit: int, dash: bool, distance: float) -> None:
    """L3945: "For each Movement (Move, Dash, Blink) the Wielder makes, the Weapon gains +1
    Power … the Wielder must have relocated from their starting position" (a Move, Dash or
    relocation of more than 0")."""
    weapons = _momentum_weapons(work, unit)
    if not weapons or distance <= 1e-6:
        return
    from warbench.rulesets.warsurge.game.state import Status

    u = work.units[unit].with_counter(_MOMENTUM_TURN, work.flow.turn)
    work.units[unit] = u
    work.dirty = True
    for wname in weapons:
        have = sum(1 for s in u.statuses if s.name.endswith(f"@{wname}") and _momentum(s.name))
        now = min(len(MOMENTUM), have + 1)
        if now == have:
            continue
        kept = [s for s in work.units[unit].statuses if not s.name.endswith(f"@{wname}")
                or not _momentum(s.name)]  # fmt: skip
        new = [Status(f"{n}@{wname}", None, n) for n in MOMENTUM[:now]]
        work.set_unit(unit, statuses=(*kept, *new))
        work.emit("perk", f"{work.label(unit)}: Momentum, {wname} +{now} Power",
                  _MOMENTUM_RULE, unit=unit, weapon=wname, momentum=now)  # fmt: skip


def _momentum(name: str) -> bool:
    return name.partition("@")[0] in MOMENTUM


def momentum_at_turn_end(work: Work, turn: int) -> None:
    """L3947-3951: the Power resets at the end of a Game Turn if the Wielder is still in a
    Melee, made no Movement that Game Turn, is Immobile, or is off the Battlefield (embarked,
    in Reserve)."""
    for uid, u in enumerate(work.units):
        if not any(_momentum(s.name) for s in u.statuses):
            continue
        if (
            work.engaged_with(uid)
            or u.counter(_MOMENTUM_TURN) != turn
            or u.location is not Location.TABLE
            or work.info(uid).immobile
        ):
            kept = tuple(s for s in u.statuses if not _momentum(s.name))
            work.set_unit(uid, statuses=kept)
            work.emit("perk", f"{work.label(uid)}: Momentum resets", _MOMENTUM_RULE, unit=uid)


# -- Disarm (L3807) -------------------------------------------------------------------------------

#: A Weapon that may not be used this Game Turn (``Disarm@Gun``): ``perk_limits.weapon_refusal``.
DISARM = "Disarm"
_DISARM_RULE = "Perks §12.5 Disarm (000_94ecc6a4c74d351b.txt L3807)"


def disarm_choice(work: Work, target: int, taken: set[str]) -> str | None:
    """The engine's choice of the Target's Weapon to Disarm ("selected by the User", L3810):
    the one a living model carries with the most Attacks x Power, earliest in the profile on a
    tie, not already Disarmed (docs/rulings.md "perks in play: Tactical …" 5)."""
    info = work.info(target)
    carried = {wn for i in work.units[target].living() for wn in info.model_weapons[i]}
    best: tuple[int, int, str] | None = None
    for k, wp in enumerate(info.unit.weapons):
        if wp.name not in carried or wp.name in taken:
            continue
        key = (-(wp.attacks * wp.power), k, wp.name)
        if best is None or key < best:
            best = key
    return None if best is None else best[2]


def disarm_on_hp_lost(
    work: Work, unit: int, amount: int, source: str, attacker: int | None
) -> None:
    """L3807-3812: "Each time the Weapon causes HP Loss and passes the Skill Test, the Target
    will be unable to use one of their Weapons this Game Turn … Standard Games: If the Target
    has already used their Weapons, apply the Perk next Game Turn instead." One Skill Test per
    HP lost (§12.1 L123, Example 3), each pass one more Weapon."""
    if attacker is None or amount <= 0:
        return
    from warbench.rulesets.warsurge.effects.model import PerkTest, TestSpec
    from warbench.rulesets.warsurge.effects.rolls import Outcome, run_test
    from warbench.rulesets.warsurge.game.perk_effects import DELAYED
    from warbench.rulesets.warsurge.game.perk_index import weapon_perks
    from warbench.rulesets.warsurge.game.perk_limits import skill_modifier
    from warbench.rulesets.warsurge.game.perk_offering import rescue as offering_rescue
    from warbench.rulesets.warsurge.game.perk_turn import fugued, lose_hp
    from warbench.rulesets.warsurge.game.state import Phase, Status

    if DISARM not in weapon_perks(work, attacker, source):
        return
    mod = skill_modifier(work, attacker, source, unit)
    fail = fugued(work, attacker)
    from warbench.rulesets.warsurge.game.perk_reroll import settle

    def roll(label: str) -> Outcome:
        return run_test(work.dice, TestSpec(PerkTest.SKILL), mod, auto_fail=fail, label=label)

    tests = [roll("Disarm Skill Test") for _ in range(amount)]  # Lucky, Jinx … (L859-L867)
    passed = sum(o.passed for o in settle(work, attacker, tests, roll, "Disarm Skill Test", unit))
    if not passed and amount and not fail:  # Offering, Sacrifice (L871, L1017)
        passed = int(offering_rescue(work, attacker, "Disarm Skill Test", lose_hp))
    target = work.units[unit]
    later = target.acted and work.flow.phase is Phase.ATTACK
    taken = {
        s.name.removesuffix(DELAYED).partition("@")[2]
        for s in target.statuses
        if s.name.removesuffix(DELAYED).partition("@")[0] == DISARM
    }
    new: list[Status] = []
    for _ in range(passed):
        pick = disarm_choice(work, unit, taken)
        if pick is None:
            break
        taken.add(pick)
        new.append(
            Status(f"{DISARM}@{pick}" + (DELAYED if later else ""), 1, f"u{attacker}/{source}")
        )
    text = (
        f"{work.label(unit)}: Disarm from {work.label(attacker)}'s {source}, {passed} of "
        f"{amount} Skill Tests passed"
    )
    if new:
        names = ", ".join(s.name.removesuffix(DELAYED).partition("@")[2] for s in new)
        when = "next Game Turn" if later else "this Game Turn"
        text += f": {names} may not be used {when}"
        work.set_unit(unit, statuses=(*target.statuses, *new))
    work.emit("perk", text, _DISARM_RULE, unit=unit, perk=DISARM, landed=bool(new))


def disarmed(statuses: Sequence[Status], weapon: str) -> bool:
    """Whether ``weapon`` is Disarmed now (a waiting Disarm is not yet)."""
    return any(s.name == f"{DISARM}@{weapon}" for s in statuses)


# -- Fast (L3819) and Pre-Emptive (L4033) ---------------------------------------------------------

_FAST_RULE = "Perks §12.5 {} (000_94ecc6a4c74d351b.txt L{})"


def _strikes_first(work: Work, uid: int, weapons: frozenset[str] | set[str]) -> bool:
    """Whether models of ``uid`` carrying ``weapons`` hold a Fast Weapon, or a Pre-Emptive one
    in a Melee ("these Weapons may still attack before casualties apply", L3826)."""
    from warbench.rulesets.warsurge.game.perk_index import perks_now

    perks = perks_now(work, uid)
    melee = bool(work.engaged_with(uid))
    for wn in weapons:
        ps = perks.weapon_perks(wn)
        if "Fast" in ps or ("Pre-Emptive" in ps and melee):
            return True
    return False


def fast_after_weapon(work: Work, unit: int, weapon: str, target: int) -> None:
    """L3819 Fast: "When this Weapon attacks, casualties are removed immediately. If the Target
    has not already used their Weapons, these casualties may not use their Weapons"; L4033
    Pre-Emptive: the same "the first time the Weapon is used in any Melee". In the Standard
    playstyle (the Advanced one removes casualties at once anyway) the Target's models this
    share left at 0 HP are removed now, not at the end of the Attack Phase, unless they carry a
    Fast or Pre-Emptive Weapon of their own, or none of the Target's models is left standing
    (ruling 8)."""
    from warbench.rulesets.warsurge.game.advstate import Playstyle
    from warbench.rulesets.warsurge.game.casualties import remove_models, restore_coherency
    from warbench.rulesets.warsurge.game.perk_index import weapon_perks

    if target >= len(work.units) or work.setup.playstyle is not Playstyle.STANDARD:
        return
    ps = weapon_perks(work, unit, weapon)
    if "Fast" in ps:
        rank, line = "Fast", 3819
    elif "Pre-Emptive" in ps and target in work.engaged_with(unit):
        key = f"pre-emptive {weapon} vs {target}"
        if work.units[unit].counter(key):
            return
        work.units[unit] = work.units[unit].with_counter(key, work.flow.turn)
        work.dirty = True
        rank, line = "Pre-Emptive", 4033
    else:
        return
    t = work.units[target]
    if not t.living():
        return
    carried = work.info(target).model_weapons
    dead = [
        i for i in t.present() if t.hp[i] <= 0 and not _strikes_first(work, target, set(carried[i]))
    ]
    if not dead:
        return
    work.emit("perk", f"{work.label(target)}: {len(dead)} casualties of {work.label(unit)}'s "
              f"{weapon} removed at once ({rank})", _FAST_RULE.format(rank, line),
              unit=target, perk=rank)  # fmt: skip
    remove_models(work, target, dead, rank)
    if work.units[target].living():
        restore_coherency(work, target)  # §4.2 IV, as after any removal (the engine's)


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from :func:`.perk_hooks.register_perk_hooks`)."""
    reg.register(Hook.AFTER_MOVE, momentum_after_move, "Momentum", perks=["Momentum"])
    reg.register(
        Hook.TURN_END, momentum_at_turn_end, "Momentum resets", first=True, perks=["Momentum"]
    )
    reg.register(Hook.HP_LOST, disarm_on_hp_lost, "Disarm", perks=[DISARM])
    reg.register(
        Hook.WEAPON_USED, fast_after_weapon, "Fast, Pre-Emptive", perks=["Fast", "Pre-Emptive"]
    )
