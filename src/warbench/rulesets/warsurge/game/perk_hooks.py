"""The effects engine at the game's hook points (issue 11): what perks do as a game is played.

Registered into :data:`~.hooks.DEFAULT_HOOKS` when the game package loads (``game/__init__``),
before the status durations tick:

* ``HP_LOST``: the attacking weapon's HP-Loss afflictions land on the target (§12.2 L275);
* ``AFTER_MOVE``: Bleed (L2584);
* ``TURN_END``: every ongoing end-of-turn effect (Burn, Poison, Plague, Leech) on the
  statuses as they stand, before any duration ticks (§12.1 L94-L96).

Stat changes are read where the game reads Stats: :func:`~.perk_effects.adjust_unit_state`
(the attack kernel's view of a unit, ``work.to_unit_state``) and
:func:`~.perk_effects.allowance` (Move and Dash, ``movement.unit_allowance``).
"""

from __future__ import annotations

from dataclasses import replace

from warbench.rulesets.warsurge.attack import AttackContext
from warbench.rulesets.warsurge.effects.model import Trigger
from warbench.rulesets.warsurge.effects.runtime import (
    acts_at_turn_end,
    immunities,
    inflict_on_hp_loss,
    turn_end_loss,
)
from warbench.rulesets.warsurge.effects.statuses import Marker, end_of_turn
from warbench.rulesets.warsurge.effects.table import load_table
from warbench.rulesets.warsurge.game.casualties import remove_models, restore_coherency
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS, Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_effects import markers_of, statuses_of
from warbench.rulesets.warsurge.game.state import Location, Phase
from warbench.rulesets.warsurge.game.work import Work, store_unit_state, to_unit_state
from warbench.rulesets.warsurge.odds import AttackPlan, allocate_loss


def unit_perk_names(w: Work, uid: int) -> list[str]:
    """A unit's profile perks and Traits."""
    info = w.info(uid)
    return [*info.unit.profile.perks, *info.traits]


def lose_hp(w: Work, uid: int, amount: int, why: str, rule: str) -> int:
    """``amount`` HP lost with no Saves, in casualty order; casualties are removed at once
    (Bleed "causing casualties immediately" L2584; at the end of a Game Turn nothing else
    would remove them). Returns the HP lost."""
    u = w.units[uid]
    if amount <= 0 or not u.living():
        return 0
    st = to_unit_state(w, uid)
    lost = sum(n for _, n in allocate_loss(AttackPlan(st, st, AttackContext()), amount))
    store_unit_state(w, uid, st)
    w.emit(
        "perk", f"{w.label(uid)}: {why}, {lost} HP lost (no Saves)", rule, unit=uid, hp_lost=lost
    )
    u = w.units[uid]
    dead = [i for i in u.present() if u.hp[i] <= 0]
    if dead:
        remove_models(w, uid, dead, why)
        if w.units[uid].living():
            restore_coherency(w, uid)
    return lost


def _source_label(w: Work, source: str) -> str:
    uid, _, weapon = source.partition("/")
    if uid.startswith("u") and uid[1:].isdigit():
        return f"{w.label(int(uid[1:]))}, {weapon}"
    return source


def on_hp_lost(work: Work, unit: int, amount: int, source: str, attacker: int | None) -> None:
    """HP Loss (§12.2 L275): the attacking weapon's HP-Loss afflictions land on the target
    (Skill Tests once per HP lost, §12.1 L119), unless the target is immune. A status that
    changes the target's own weapons (Weaken, Mitigate) waits for the next Game Turn if the
    target has already attacked this turn (L2884: "If the Unit has already made Attacks, the
    Perk applies next Game Turn instead")."""
    _inflict(work, unit, amount, source, attacker, Trigger.HP_LOSS)


def on_attack_dice(work: Work, unit: int, successes: int, source: str, attacker: int) -> None:
    """Attack Dice (§12.2 L255): "if any of the Weapon's Attack Dice have been successful,
    before rolling Saves": Concussive, Cripple II (a Skill Test per successful die)."""
    _inflict(work, unit, successes, source, attacker, Trigger.ATTACK_DICE)


def _inflict(
    work: Work, unit: int, count: int, source: str, attacker: int | None, trigger: Trigger
) -> None:
    if attacker is None:
        return
    info = work.info(attacker)
    try:
        perks = list(info.unit.weapon(source).perks)
    except Exception:  # a source that is not a weapon of the attacker (terrain …)
        return
    if not perks:
        return
    target = work.units[unit]
    key = f"u{attacker}/{source}"
    before = markers_of(target.statuses)
    markers, log = inflict_on_hp_loss(
        perks,
        count,
        before,
        immunities(unit_perk_names(work, unit)),
        key,
        work.dice,
        trigger=trigger,
    )
    if not log:
        return
    attacked = target.acted and work.flow.phase is Phase.ATTACK
    fixed = []
    for m in markers:
        weapon_status = m.name in _WEAPON_STATUSES
        if m not in before and attacked and weapon_status and not m.delay:
            m = replace(m, delay=1)
        fixed.append(m)
    for item in log:
        row_src = f"{item.perk} from {_source_label(work, key)}"
        test = f" ({item.test.explain()})" if item.test else ""
        if item.blocked:
            text = f"{work.label(unit)} is immune to {item.perk}"
        elif item.landed:
            text = f"{work.label(unit)} suffers {item.effect.status}: {row_src}{test}"
        else:
            text = f"{work.label(unit)} resists {row_src}{test}"
        work.emit("perk", text, _rule_of(item.perk), unit=unit, perk=item.perk, landed=item.landed)
    work.set_unit(unit, statuses=statuses_of(fixed))


def _rule_of(perk: str) -> str:
    return load_table().get(perk).source


#: Statuses that change the afflicted unit's own weapons (Standard: next Game Turn if it
#: already attacked).
_WEAPON_STATUSES = frozenset({"Weaken", "Mitigate", "Concussive"})


def on_after_move(work: Work, unit: int, dash: bool, distance: float) -> None:
    """Bleed (L2584): "Each time the Target makes any Movement, it loses 1 HP"."""
    u = work.units[unit]
    if not u.statuses or distance <= 0:
        return
    for m in markers_of(u.statuses):
        if m.name == "Bleed" and m.is_active:
            lose_hp(work, unit, 1, f"Bleed ({_source_label(work, m.source)})", _rule_of("Bleed"))


def on_turn_end(work: Work, turn: int) -> None:
    """End of a Game Turn (§12.1 L94-L96): every ongoing end-of-turn effect applies (Burn 1,
    Poison D3, Plague 1, Leech 1 to the afflicted and 1 back to the Leech's unit), on the
    statuses as they stand, before any duration ticks; then durations tick
    (:func:`~.hooks.tick_statuses`)."""
    at_end = acts_at_turn_end()
    due: list[tuple[int, Marker]] = []
    for u in list(work.units):
        if not u.statuses or u.location not in (Location.TABLE, Location.EMBARKED):
            continue
        due.extend((u.uid, m) for m in end_of_turn(markers_of(u.statuses), at_end).applied)
    for uid, m in due:
        if not work.units[uid].living():
            continue
        if m.name == "Leech" and not _source_alive(work, m.source):
            # L2768: "ends if the User's unit dies"
            kept = tuple(
                s for s in work.units[uid].statuses if (s.name, s.source) != (m.name, m.source)
            )
            work.set_unit(uid, statuses=kept)
            continue
        n = turn_end_loss(m, work.dice)
        lost = lose_hp(
            work, uid, n, f"{m.name} ({_source_label(work, m.source)})", _rule_of(m.name)
        )
        if m.name == "Leech" and lost:
            _leech_back(work, m.source, lost)


def _source_alive(w: Work, source: str) -> bool:
    uid_text = source.partition("/")[0]
    if not (uid_text.startswith("u") and uid_text[1:].isdigit()):
        return False
    return bool(w.units[int(uid_text[1:])].living())


def _leech_back(w: Work, source: str, n: int) -> None:
    """Leech (L2768): the User's unit regains the HP ("ends if the User's unit dies")."""
    uid_text = source.partition("/")[0]
    if not (uid_text.startswith("u") and uid_text[1:].isdigit()):
        return
    uid = int(uid_text[1:])
    u = w.units[uid]
    if not u.living() or any(s.name == "Virus" for s in u.statuses):
        return
    hp = list(u.hp)
    per = w.info(uid).hp_per_model
    for i in u.living():
        while n and hp[i] < per:
            hp[i] += 1
            n -= 1
    if tuple(hp) != u.hp:
        w.set_unit(uid, hp=tuple(hp))
        w.emit("perk", f"{w.label(uid)} regains HP by Leech", _rule_of("Leech"), unit=uid)


def register_perk_hooks(reg: HookRegistry) -> None:
    """Add the perk hooks to ``reg``; the end-of-turn effects go before the durations tick."""
    reg.register(Hook.HP_LOST, on_hp_lost, "perk afflictions")
    reg.register(Hook.ATTACK_DICE, on_attack_dice, "perk afflictions on Attack Dice")
    reg.register(Hook.AFTER_MOVE, on_after_move, "Bleed")
    reg.register(Hook.TURN_END, on_turn_end, "perk effects at the end of the turn", first=True)


register_perk_hooks(DEFAULT_HOOKS)
