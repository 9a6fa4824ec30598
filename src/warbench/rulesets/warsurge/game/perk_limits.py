"""When a weapon may be used (Perks 000_94ecc6a4c74d351b.txt Limitation Weapon Perks: Use I-III
L3246, Countdown I-III L3046, Recharge I-III L3142, Pain Locked L3134; Panic L2267 and Rush
L2160 "may not use any Weapons"), and the Dice Modifiers on a weapon's Skill Tests (Skill L2999,
Resist I/II L1677). The ``weapon limit`` and ``test modifiers`` machineries of the effects table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.perk_turn import (
    ARRIVED,
    COUNTDOWN,
    LIMIT_WEAPON,
    NO_WEAPONS,
    PAIN,
    RECHARGE,
    USES,
    WEAPONS_TURN,
    _rule,
    _weapon_step,
    _weapon_turn,
    _weapon_uses,
    index,
    refresh_thresholds,
)

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work


# -- when a weapon may be used ---------------------------------------------------------------


def weapon_refusal(work: Work, uid: int, weapon: str) -> str | None:
    """Why the unit may not use ``weapon`` now (its Limitation perks, Panic), or ``None``."""
    u = work.units[uid]
    if u.statuses:
        for s in u.statuses:
            if s.name in NO_WEAPONS:
                return (
                    f"{work.label(uid)} may not use any Weapons this Game Turn "
                    f"({s.name}, {_rule(s.name)})"
                )
    idx = index(work.setup)
    if uid not in idx.limited:
        return None
    perks = idx.units[uid].weapon_perks(weapon)
    turn = work.flow.turn
    for name in sorted(perks & LIMIT_WEAPON):
        rule = _rule(name)
        if name in USES and u.used(_weapon_uses(weapon)) >= USES[name]:
            n = USES[name]
            times = "once" if n == 1 else f"{n} times"
            return f"{weapon} can be used {times} per game ({name}, {rule})"
        if name in COUNTDOWN:
            arrived = u.counter(ARRIVED)
            if not arrived or turn - arrived < COUNTDOWN[name]:
                return (
                    f"{weapon} is unusable until its Wielder has waited {COUNTDOWN[name]} full "
                    f"Game Turn(s) on the Battlefield ({name}, {rule})"
                )
        if name in RECHARGE:
            last = u.counter(_weapon_turn(weapon))
            if last and turn <= last + RECHARGE[name]:
                return (
                    f"{weapon} was used on Game Turn {last}: it recharges until Game Turn "
                    f"{last + RECHARGE[name] + 1} ({name}, {rule})"
                )
        if name == "Pain Locked":
            pain = u.counter(PAIN)
            if not pain or turn <= pain:
                return (
                    f"{weapon} is locked until the Game Turn after its User suffers HP Loss "
                    f"from an enemy ({name}, {rule})"
                )
    return None


def on_weapon_used(work: Work, unit: int, weapon: str, target: int) -> None:
    """After a weapon's share of an Attack: its uses and last Game Turn (Use, Recharge), and
    both units' Stats by HP (Wane is checked before rolling, so for the next Attack)."""
    idx = index(work.setup)
    if unit in idx.limited and idx.units[unit].weapon_perks(weapon) & LIMIT_WEAPON:
        # one use per Attack (a weapon split among targets is used once, L3246)
        u = work.units[unit]
        if u.counter(_weapon_step(weapon)) != work.step + 1:
            u = u.with_use(_weapon_uses(weapon)).with_counter(_weapon_step(weapon), work.step + 1)
        work.units[unit] = u.with_counter(_weapon_turn(weapon), work.flow.turn)
        work.dirty = True
    if "Rush" in idx.units[unit].unit and work.units[unit].counter(WEAPONS_TURN) != work.flow.turn:
        work.units[unit] = work.units[unit].with_counter(WEAPONS_TURN, work.flow.turn)
        work.dirty = True
    refresh_thresholds(work, unit)
    if target != unit:
        refresh_thresholds(work, target)


def skill_modifier(work: Work, attacker: int, weapon: str, target: int) -> int:
    """Dice Modifiers on the Skill Tests of ``attacker``'s ``weapon`` against ``target``: Skill
    +1 (L2999), the target's Resist I/II -1/-2 (L1677: "Enemy Weapons that Target the User also
    suffer a -1 Dice Modifier to Skill Tests"; the strongest rank)."""
    idx = index(work.setup)
    mod = 1 if "Skill" in idx.units[attacker].weapon_perks(weapon) else 0
    resist = [m for uid, _, m in idx.resist if uid == target]
    return mod + min(resist, default=0)
