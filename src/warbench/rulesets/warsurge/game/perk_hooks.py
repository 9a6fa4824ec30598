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

from collections.abc import Iterator
from dataclasses import replace

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.effects.model import (
    Effect,
    EffectKind,
    PerkEffects,
    PerkTest,
    TargetKind,
    TestSpec,
    Trigger,
)
from warbench.rulesets.warsurge.effects.rolls import run_test
from warbench.rulesets.warsurge.effects.runtime import (
    acts_at_turn_end,
    converts,
    immunities,
    inflict_on_hp_loss,
    restore_amount,
    turn_end_loss,
    use_refusal,
)
from warbench.rulesets.warsurge.effects.statuses import Marker, add_marker, end_of_turn
from warbench.rulesets.warsurge.effects.table import load_table
from warbench.rulesets.warsurge.game import (
    perk_bloodlust,
    perk_challenger,
    perk_choice,
    perk_corrupted,
    perk_flee,
    perk_ignite,
    perk_limits,
    perk_offering,
    perk_psych,
    perk_relocation,
    perk_reroll,
    perk_reserve,
    perk_revive,
    perk_roster,
    perk_simulacrum,
    perk_stealth,
    perk_transformation,
    perk_turn,
    state,
)
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.advstate import Playstyle
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS, Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_effects import (
    AUTOMATIC_USES,
    markers_of,
    status_immunities,
    statuses_of,
    weapon_ranges,
)
from warbench.rulesets.warsurge.game.perk_turn import lose_hp, restore_hp
from warbench.rulesets.warsurge.game.state import Automation, Location, Phase
from warbench.rulesets.warsurge.game.work import Work


def unit_perk_names(w: Work, uid: int) -> list[str]:
    """A unit's profile perks and Traits (and Corrupted, the one Weapon Perk a unit uses,
    L3793)."""
    info = w.info(uid)
    names = [*info.unit.profile.perks, *info.traits]
    if perk_simulacrum.wields(w, uid):  # a Weapon Perk the unit uses (L4059), a looted one too
        names.append(perk_simulacrum.SIMULACRUM)
    return [*names, perk_corrupted.CORRUPTED] if perk_corrupted.wields(w, uid) else names


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
        immunities(unit_perk_names(work, unit)) | status_immunities(target.statuses),
        key,
        work.dice,
        trigger=trigger,
        test_modifier=perk_limits.skill_modifier(work, attacker, source, unit),
        auto_fail=perk_turn.fugued(work, attacker),
        rescue=lambda test: perk_offering.rescue(work, attacker, test, lose_hp),  # L871, L1017
        settle=lambda outs, roll, what: perk_reroll.settle(work, attacker, outs, roll, what, unit),
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
_WEAPON_STATUSES = frozenset({"Weaken", "Mitigate", "Concussive", "Blind"})


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
        if m.name in converts(unit_perk_names(work, uid)):
            _convert(work, uid, m, n)
            continue
        lost = lose_hp(
            work, uid, n, f"{m.name} ({_source_label(work, m.source)})", _rule_of(m.name)
        )
        if m.name == "Leech" and lost:
            _leech_back(work, m.source, lost)


def _convert(work: Work, uid: int, m: Marker, n: int) -> None:
    """Fire Resist II (L1529), Immunity II (L1555): an enemy's status restores the HP it would
    have cost; a friendly unit's has no effect."""
    src = m.source.partition("/")[0]
    friendly = src[1:].isdigit() and not work.enemies(uid, int(src[1:]))
    if friendly:
        return
    got = restore_hp(work, uid, n)
    text = f"{work.label(uid)} regains {got} HP from {m.name} ({_source_label(work, m.source)})"
    work.emit("perk", text, _rule_of(m.name), unit=uid, restored=got)


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
    per = state.model_max_hp(w.info(uid), u)
    for i in u.living():
        while n and hp[i] < per:
            hp[i] += 1
            n -= 1
    if tuple(hp) != u.hp:
        w.set_unit(uid, hp=tuple(hp))
        w.emit("perk", f"{w.label(uid)} regains HP by Leech", _rule_of("Leech"), unit=uid)


# -- activated perks: the engine's automatic choice (the "use perk" hook) ----------------------


def automatic_perk_uses(work: Work, phase: str) -> None:
    """The Standard playstyle's "use perk" moment (§12.2 L225-L231: once per Game Turn, before
    or after any action) for the activated perks the engine uses by itself
    (``perk_effects.AUTOMATIC_USES``) under the ``perk use`` automation, at the start of each
    Move Phase, before any action:

    * Recover (L1611, D3 HP) and Regenerate (L1645, a tenth of full HP, rounded up) when the
      unit has lost HP and is not under Virus (L2876);
    * Adrenaline (L666), once per game, the first time an enemy unit is within the unit's reach
      (its Move, Dash and longest weapon Range as the game reads them, :func:`_reach`), and
      Smokescreen (L1759) the first time the unit is within an enemy unit's reach: it is about
      to matter (at least 18", the engine's former choice).

    This is the hook a player's decision replaces: without the automation nothing is used here
    (as Burst and Darkside, ``attacks.choose_perk_use``), and a ``UsePerk`` decision of the
    protocol would call :func:`use_perk` with the player's choice.
    """
    if phase != Phase.MOVE.value or Automation.PERK_USE not in work.setup.automation:
        return
    for uid in range(len(work.units)):
        u = work.units[uid]
        if u.location is not Location.TABLE or not u.living():
            continue
        for name in unit_perk_names(work, uid):
            row = load_table().find(name)
            if row is None or row.name not in AUTOMATIC_USES:
                continue
            if use_refused(work, uid, row.name) is None and _wants(work, uid, row.name):
                use_perk(work, uid, row.name)


def _wants(work: Work, uid: int, name: str) -> bool:
    u = work.units[uid]
    if name in ("Recover", "Regenerate"):
        hurt = u.current_hp < state.unit_max_hp(work.info(uid), u)
        return hurt and not any(s.name == "Virus" for s in u.statuses)
    if name in ("Adrenaline", "Smokescreen") or name.startswith("Illusion"):
        return any(
            work.gap(uid, other.uid) <= _reach(work, uid if name == "Adrenaline" else other.uid)
            for other in work.units
            if other.location is Location.TABLE and work.enemies(uid, other.uid)
        )
    return False


def _reach(work: Work, uid: int) -> float:
    """How far ``uid`` threatens this Game Turn: its Move and Dash and its longest weapon Range
    as the game reads them (perk statuses: Limit Break, Transform, Blind …), at least 18"."""
    from warbench.rulesets.warsurge.game.movement import unit_allowance

    ranges = weapon_ranges(work.info(uid), work.units[uid].statuses)
    move = unit_allowance(work, uid, False) + unit_allowance(work, uid, True)
    return max(18.0, float(move + max(ranges.values(), default=0)))


def split_option(name: str) -> tuple[str, str]:
    """``("Transform I", "Tank")`` for ``"Transform I: Tank"`` (a perk that gives its player a
    choice names it after a colon); ``(name, "")`` otherwise."""
    rank, _, option = name.partition(": ")
    return rank, option


def use_refused(work: Work, uid: int, name: str, option: str = "") -> str | None:
    """Why ``uid`` may not use the activated perk ``name`` now (a perk the engine cannot
    play, Limited Use, once per Game Turn in the Standard playstyle, §12.2), or ``None``.
    ``option`` is the choice the perk gives (Transform's form)."""
    row = load_table().get(name)
    if row.name not in activated_ranks() and row.name not in perk_choice.CHOICES:  # Orders
        return f"{row.name} is not an activated perk the game plays yet ({row.source})"
    if work.setup.playstyle is Playstyle.ADVANCED and work.flow.phase not in _BY_ACTION:
        return _ADVANCED_ONLY_BY_ACTION
    u = work.units[uid]
    if row.name == perk_stealth.STEALTH:  # L1777-L1787: activation, deactivation, Reserve
        why = perk_stealth.use_refusal(work, uid, option)
        if why is not None or option:
            return why  # deactivating is not a use
        if u.statuses and any(s.name == "Paralysis" for s in u.statuses):
            return (
                f"{work.label(uid)} is Paralysed: it may not use any Perks this Game Turn (L2790)"
            )
        return perk_psych.perk_refusal(work, uid, row.name) or _once(work, uid, row)
    if row.name in perk_transformation.RANKS:  # Form, Fusion (L2418-L2442; s25-transform)
        return perk_transformation.refused(work, uid, row.name, option)
    inside = row.name == "Vanish" and u.location is Location.EMBARKED  # Imprison's escape, L823
    if (u.location is not Location.TABLE and not inside) or not u.living():
        return f"{work.label(uid)} is not on the battlefield (§12.2: the User uses its perks)"
    if row.name in perk_limits.TRANSFORM:
        return _form_refused(work, uid, row, option)
    if row.name == perk_corrupted.CORRUPTED:  # L3793: an offer of Stats (perk_corrupted)
        return perk_corrupted.refused(work, uid, option, _turn_start(work, uid))
    if (pick := perk_choice.CHOICES.get(row.name)) is not None:  # a unit named (s25-ability)
        why = pick[0](work, uid, option, _turn_start(work, uid))
        return why or perk_psych.perk_refusal(work, uid, row.name)
    if row.name in perk_relocation.RELOCATE:
        why = _once(work, uid, row)
        return why if why is not None else perk_relocation.refused(work, uid, row.name, option)
    if option:
        return f"{row.name} gives no choice to name ({option!r}, {row.source})"
    if (duel := perk_challenger.use_refusal(work, uid, row.name)) is not None:  # L1957
        return duel
    if row.name == "Terrify" and terrify_target(work, uid) is None:
        return f'no enemy unit within 18" and in sight to Terrify ({row.source})'
    if row.name in perk_limits.PROVOKE and perk_limits.provoke_target(work, uid, row.name) is None:
        radius = perk_limits.PROVOKE[row.name]
        return f'no enemy unit within {radius:g}" or in a Melee to Provoke ({row.source})'
    if u.statuses and any(s.name == "Paralysis" for s in u.statuses):
        return f"{work.label(uid)} is Paralysed: it may not use any Perks this Game Turn (L2790)"
    if row.name == "Defend" and (
        u.unit_moved or u.unit_dashed or u.counter(perk_turn.WEAPONS_TURN) == work.flow.turn
    ):
        return f"{work.label(uid)} has moved or used Weapons this Game Turn (Defend, {row.source})"
    if row.name == "Rush" and u.counter(perk_turn.WEAPONS_TURN) == work.flow.turn:
        return f"{work.label(uid)} has used Weapons this Game Turn (Rush, {row.source})"
    if (
        any(e.kind is EffectKind.CLEAR for e in row.effects)
        and not any(e.kind is EffectKind.STATUS for e in row.effects)  # Courage: still acts
        and clear_target(work, uid, row) is None
    ):
        return f"no unit within {row.name}'s Radius has an effect it removes ({row.source})"
    return perk_psych.perk_refusal(work, uid, row.name) or _once(work, uid, row)


#: Advanced (rulings.md, s25-advfix 1): every use of a perk costs CP (P L234-L236), paid by the
#: Use Perks Action of an Action Step (C L3779-L3790) or a Counter Perk (C L3865); the first
#: Game Turn's deployment, before CP exist (C L3641-L3647, L3777), uses none.
_BY_ACTION = (Phase.ACTIONS, Phase.OPPORTUNIST)  # and Opportunist's window (L1340; s26)
_ADVANCED_ONLY_BY_ACTION = (
    "in the Advanced playstyle perks are used by the Use Perks Action of the Action Steps, "
    "for its CP (000_94ecc6a4c74d351b.txt L234-L236; 001_d3f5e425c5e1196d.txt §9.2 L3779)"
)


def _once(work: Work, uid: int, row: PerkEffects) -> str | None:
    """Limited Use, and once per Game Turn in the Standard playstyle (§12.2 L227)."""
    u = work.units[uid]
    this_turn = 1 if u.counter(f"used {row.name}") == work.flow.turn else 0
    advanced = work.setup.playstyle is Playstyle.ADVANCED
    return use_refusal(
        row, used_in_game=u.used(row.name), used_this_turn=this_turn, advanced=advanced
    )


def usable_perks(work: Work, uid: int) -> list[str]:
    """The activated perks of ``uid`` that it may use now (book names, in its order)."""
    out: list[str] = []
    for name in unit_perk_names(work, uid):
        row = load_table().find(name)
        if row is None or row.name in out:
            continue
        if row.name in perk_limits.TRANSFORM:
            out.extend(
                f"{row.name}: {form}"
                for form in perk_limits.FORMS
                if use_refused(work, uid, row.name, form) is None
            )
        elif row.name in perk_transformation.RANKS:
            out.extend(f"{row.name}: {o}" for o in perk_transformation.options(work, uid, row.name))
        elif row.name == perk_corrupted.CORRUPTED:  # the offers it may make now (L3793)
            offers = perk_corrupted.options(work, uid, _turn_start(work, uid))
            out.extend(
                f"{row.name}: {o}" for o in offers if not use_refused(work, uid, row.name, o)
            )
        elif (pick := perk_choice.CHOICES.get(row.name)) is not None:  # Nightmare, Dominate
            offers = pick[1](work, uid, _turn_start(work, uid))
            out.extend(
                f"{row.name}: {o}" for o in offers if not use_refused(work, uid, row.name, o)
            )
        elif row.name == perk_stealth.STEALTH:  # on, or off (L1781)
            offered = perk_stealth.options(work, uid)
            out.extend(o for o in offered if use_refused(work, uid, *split_option(o)) is None)
        elif use_refused(work, uid, row.name) is None:
            out.append(row.name)
    return out


def use_perks_action(work: Work, unit: int, perks: tuple[str, ...]) -> None:
    """§9.2 Use Perks (Advanced, 001 §9.2; Perks §12.2 L229: "in Advanced Games a Perk may be
    used again for more CP"): the unit uses the activated perks named, or every one it may use
    now when none is named. A named perk it may not use is refused with the reason."""
    names = list(perks) if perks else usable_perks(work, unit)
    own = {r.name for n in unit_perk_names(work, unit) if (r := load_table().find(n))}
    for name in names:
        rank, option = split_option(name)
        row = load_table().find(rank)
        why = (
            f"it has no perk {name!r}"
            if row is None or row.name not in own
            else use_refused(work, unit, row.name, option)
        )
        if why is not None or row is None:
            # the CP is spent (the action was legal); the perk does nothing (§9.2)
            work.emit("use_perks", f"{work.label(unit)} cannot use {name}: {why}",
                      "§9.2 Use Perks", unit=unit)  # fmt: skip
            continue
        use_perk(work, unit, row.name, option)
    if work.flow.phase is not Phase.ACTIONS and not perk_choice.at_turn_start(names):
        work.units[unit] = work.units[unit].with_counter(PERKS_AT_STEP, work.step + 1)
    if not names:
        work.emit("use_perks", f"{work.label(unit)} has no activated perk to use now",
                  "§9.2 Use Perks", unit=unit)  # fmt: skip


#: The counter that remembers the step after a unit used perks in the Standard playstyle.
PERKS_AT_STEP = "perks at step"


def verify_use_perks(work: Work, action: UsePerks, side: int) -> None:
    """Standard playstyle (Perks §12.2 L225-L231: "Perks are used by a Unit once per Game
    Turn … Any number of Perks can be used by a Unit before and/or after any action"): the
    acting side's unit, on the battlefield, uses the activated perks named (or every one it may
    use now); each must be its own and usable now (:func:`use_refused`). Raises the reason."""
    uid = action.unit
    if not 0 <= uid < len(work.units):
        raise RulesError(f"there is no unit {uid}", "§2.1 Unit")
    info = work.info(uid)
    if work.units[uid].controller(info.side) != side:  # a seized unit: its controller's
        raise RulesError(
            f"{info.label} belongs to {work.side_name(info.side)}; it is "
            f"{work.side_name(side)}'s turn to act",
            "§2.1 Alternating Actions",
        )
    names = list(action.perks) if action.perks else usable_perks(work, uid)
    if not names:
        raise RulesError(f"{info.label} has no activated perk it may use now", _WHEN)
    own = {r.name for n in unit_perk_names(work, uid) if (r := load_table().find(n))}
    for name in names:
        rank, option = split_option(name)
        row = load_table().find(rank)
        if row is None or row.name not in own:
            raise RulesError(f"{info.label} has no perk {name!r}; it has {sorted(own)}", _WHEN)
        why = use_refused(work, uid, row.name, option)
        if why is not None:
            raise RulesError(why, row.source)
    if action.perks and len(set(names)) != len(names):
        raise RulesError(f"{info.label} names a perk twice", _WHEN)


_WHEN = "000_94ecc6a4c74d351b.txt §12.2 L225"

#: The Standard Phases in which a unit may use its perks around its action.
_PERK_PHASES = frozenset({Phase.DEPLOY, Phase.MOVE, Phase.ATTACK, Phase.DASH})


def perk_use_candidates(work: Work, side: int | None) -> Iterator[UsePerks]:
    """The player's "use perk" decision (§12.2 L225-L231) without the ``perk use``
    automation: each activated perk a unit of the acting side may use now, as a
    :class:`~.actions_advanced.UsePerks` action. With the automation the engine makes the
    choice (:func:`automatic_perk_uses`) and none is listed, so automated games are
    unchanged."""
    if (
        side is None
        or Automation.PERK_USE in work.setup.automation
        or work.flow.phase not in _PERK_PHASES
    ):
        return
    for uid in work.acting_units(side):  # Dominate: the seized unit's perks too
        if work.units[uid].location is Location.TABLE:
            for name in usable_perks(work, uid):
                yield UsePerks(uid, (name,))
        elif (
            work.units[uid].location is Location.RESERVE
            and perk_stealth.has_stealth(work, uid)
            and use_refused(work, uid, perk_stealth.STEALTH) is None
        ):
            yield UsePerks(uid, (perk_stealth.STEALTH,))  # L1785: Stealth in Reserve


def forfeit_after_perks(work: Work, action: object) -> None:
    """L229-L231: "If a Unit wants to use a Perk but does not wish to make an action, they may
    still use the Perk but it forfeits their opportunity to make an action later in the Phase":
    a unit that used perks at the side's last decision and is not the one acting now (a pass,
    another unit's action) has acted."""
    for u in work.units:  # a plain loop: asked at every action (issue 10, session 33)
        if u.counters:
            break
    else:
        return
    acting = getattr(action, "unit", None)
    for u in work.units:
        if u.counter(PERKS_AT_STEP) == work.step and u.uid != acting and not u.acted:
            work.set_unit(u.uid, acted=True)
            work.emit("perk", f"{work.label(u.uid)} used its perks and made no action: it has "
                      "acted", _WHEN, unit=u.uid)  # fmt: skip


def activated_ranks() -> frozenset[str]:
    """The activated ranks :func:`use_perk` plays (``perk_effects.activated_ranks``)."""
    from warbench.rulesets.warsurge.game.perk_effects import activated_ranks as ranks

    return ranks()


def use_perk(work: Work, uid: int, name: str, option: str = "") -> None:
    """``uid`` uses the activated perk ``name`` (checked: :func:`use_refused`). A perk with a
    Mastery Test (Cure, Purge, Provoke) or an Aether Test (Magic Armour) tests first; a failed
    test uses the perk's Game Turn but not its Limited Use (L283: only uses that took effect
    count). ``option``: the choice the perk gives (Transform's form)."""
    row = load_table().get(name)
    refused = use_refused(work, uid, row.name, option)
    if refused is not None:
        raise RulesError(refused, row.source)
    if row.name == perk_stealth.STEALTH and option:  # L1781: deactivated, not used
        return perk_stealth.deactivate(work, uid, "its player's choice")
    work.units[uid] = work.units[uid].with_counter(f"used {row.name}", work.flow.turn)
    work.dirty = True
    if perk_reroll.denied(work, uid, row.name):  # Deny L4300: no Limited Use spent
        return
    if row.name in perk_limits.TRANSFORM:
        perk_limits.take_form(work, uid, row.name, option, "the player's choice")
        return
    if row.name == perk_corrupted.CORRUPTED:
        perk_corrupted.offer(work, uid, option)
        return
    if row.name in perk_transformation.RANKS:
        return perk_transformation.use(work, uid, row.name, option)
    if (pick := perk_choice.CHOICES.get(row.name)) is not None:  # Nightmare, Dominate
        pick[2](work, uid, option)
        return
    if row.name == perk_challenger.CHALLENGER:  # L1957 (session 25, s25-lead)
        perk_challenger.declare(work, uid)
        return
    if any(t.kind is PerkTest.MASTERY for t in row.tests) and not perk_turn.mastery_test(
        work, uid, row.name
    ):
        return
    doubled = False
    if any(t.kind is PerkTest.AETHER for t in row.tests):
        passed, doubled = _aether_test(work, uid, row)
        if not passed:
            return
    work.units[uid] = work.units[uid].with_use(row.name)
    if row.name in perk_relocation.RELOCATE:
        perk_relocation.relocate(work, uid, row.name, option)
        return
    for e in row.effects:
        if e.kind is EffectKind.STATUS and e.target.kind is TargetKind.TARGET:
            _status_on_target(work, uid, row, e)
            continue
        if e.kind is EffectKind.STATUS and doubled:
            # L249 "If the result is 2, the Perk effect or Stat bonus is doubled": the status
            # twice, from two sources, so its modifiers stack (§12.1 L113)
            marker = Marker(e.status, f"u{uid}/{row.name} (doubled)", e.turns, e.delay)
            statuses = add_marker(markers_of(work.units[uid].statuses), marker)
            work.set_unit(uid, statuses=statuses_of(statuses))
        if e.kind is EffectKind.RESTORE:
            full = state.unit_max_hp(work.info(uid), work.units[uid])
            n = restore_amount(e.amount, full, work.dice)
            got = restore_hp(work, uid, n)
            work.emit("perk", f"{work.label(uid)} uses {row.name}: {got} HP restored", row.source,
                      unit=uid, perk=row.name, restored=got)  # fmt: skip
        elif e.kind is EffectKind.STATUS:
            marker = Marker(e.status, f"u{uid}/{row.name}", e.turns, e.delay)
            statuses = add_marker(markers_of(work.units[uid].statuses), marker)
            work.set_unit(uid, statuses=statuses_of(statuses))
            work.emit("perk", f"{work.label(uid)} uses {row.name}", row.source, unit=uid,
                      perk=row.name)  # fmt: skip
        elif e.kind is EffectKind.CLEAR:
            target = clear_target(work, uid, row)
            if target is None:
                continue
            gone = set(e.names)
            before = work.units[target].statuses
            kept = tuple(s for s in before if _base(s.name) not in gone)
            work.set_unit(target, statuses=kept)
            removed = sorted({_base(s.name) for s in before} - {_base(s.name) for s in kept})
            work.emit("perk", f"{work.label(uid)} uses {row.name} on {work.label(target)}: "
                      f"{', '.join(removed)} removed", row.source, unit=target, perk=row.name,
                      removed=removed)  # fmt: skip


def _aether_test(work: Work, uid: int, row: PerkEffects) -> tuple[bool, bool]:
    """The User's Aether Test for ``row`` (§12.2 L249: 2D6, 9 or lower passes, a 2 doubles the
    effect, a 12 costs the User D6 HP with no Saves), moved by the strongest enemy Resist within
    its Radius (L1677, :func:`.perk_limits.aether_modifier`). Returns (passed, doubled)."""
    spec, mod = TestSpec(PerkTest.AETHER), perk_limits.aether_modifier(work, uid)
    out = perk_reroll.tested(work, uid, f"{row.name} Aether Test",  # Architect, Deny (L4250)
                             lambda label: run_test(work.dice, spec, mod, label=label),
                             row.source, row.name)  # fmt: skip
    # Offering, Sacrifice (L871, L1017): a failed test paid for; a 12's HP Loss still comes
    passed = out.passed or perk_offering.rescue(work, uid, f"{row.name} Aether Test", lose_hp)
    if out.backlash:
        n = work.dice.roll("D6", f"{row.name} Aether backlash")
        lose_hp(work, uid, n, f"{row.name}'s Aether Test rolls 12", row.source)
    return passed and bool(work.units[uid].living()), out.doubled


def _status_on_target(work: Work, uid: int, row: PerkEffects, e: Effect) -> None:
    """A used perk's status on its Target (Provoke L879: the enemy unit it names)."""
    target = (
        terrify_target(work, uid)
        if row.name == "Terrify"
        else perk_limits.provoke_target(work, uid, row.name)
    )
    if target is None:
        return
    if e.status in immunities(unit_perk_names(work, target)):
        work.emit("perk", f"{work.label(target)} is immune to {row.name}", row.source,
                  unit=target, perk=row.name)  # fmt: skip
        return
    marker = Marker(e.status, f"u{uid}/{row.name}", e.turns, e.delay)
    statuses = add_marker(markers_of(work.units[target].statuses), marker)
    work.set_unit(target, statuses=statuses_of(statuses))
    what = "falls back" if row.name == "Terrify" else "must Target it"
    work.emit("perk", f"{work.label(uid)} uses {row.name}: {work.label(target)} {what}",
              row.source, unit=target, perk=row.name)  # fmt: skip


def terrify_target(work: Work, uid: int) -> int | None:
    """Whom Terrify (L1049) is used on: "The Target must be within 18\" and in line of sight":
    the nearest such enemy unit not immune to it (Fearless), the engine's choice."""
    best: tuple[float, int] | None = None
    for other in work.units:
        t = other.uid
        if other.location is not Location.TABLE or not other.living() or not work.enemies(uid, t):
            continue
        if "Terrify" in immunities(unit_perk_names(work, t)):
            continue
        d = work.gap(uid, t)
        if d <= 18.0 + 1e-9 and (best is None or (d, t) < best) and _sees(work, uid, t):
            best = (d, t)
    return None if best is None else best[1]


def _form_refused(work: Work, uid: int, row: PerkEffects, form: str) -> str | None:
    """Transform I-III (L2530: "User can choose one of the following at the start of each Game
    Turn"): a form named, once per Game Turn, before the unit acts — in the Standard Deploy
    Phase or its Move Phase before the unit moves (a Deploy Phase is skipped when no unit is
    in Reserve), or in the Advanced Action Steps before its first action."""
    if form not in perk_limits.FORMS:
        return f"name a form for {row.name}: {', '.join(perk_limits.FORMS)} ({row.source})"
    u = work.units[uid]
    if not _turn_start(work, uid) or u.counter(f"used {row.name}") == work.flow.turn:
        return (
            f"{row.name}'s form is chosen at the start of the Game Turn, once, before the unit "
            f"acts ({row.source})"
        )
    if perk_limits.current_form(work, uid, row.name) == form:
        return f"{work.label(uid)} has the {form} form already ({row.name}, {row.source})"
    return None


def _turn_start(work: Work, uid: int) -> bool:
    """Whether it is "the start of the Game Turn" for ``uid`` (Transform, Corrupted): the
    Standard Deploy Phase or its Move Phase before the unit moves, or the Advanced Action
    Steps before its first action."""
    u = work.units[uid]
    if work.setup.playstyle is Playstyle.ADVANCED:
        return work.flow.phase is Phase.ACTIONS and not u.acted
    return work.flow.phase is Phase.DEPLOY or (
        work.flow.phase is Phase.MOVE and not u.acted and not u.unit_moved
    )


def _base(status: str) -> str:
    """A status's name without a delay or a weapon scope (``Cripple (next Game Turn)``)."""
    from warbench.rulesets.warsurge.effects.runtime import split_scope
    from warbench.rulesets.warsurge.game.perk_effects import DELAYED

    return split_scope(status.removesuffix(DELAYED))[0]


def clear_target(work: Work, uid: int, row: PerkEffects) -> int | None:
    """Whom a clearing perk (Cure I/II L717, Purge I/II L899) is used on: the unit within its
    Radius (line of sight for the ranks I) with the most statuses it removes — a friendly unit
    for Cure, an enemy for Purge — the User first, then the nearest; ``None`` when no unit
    has one (the perk is then not usable, :func:`use_refused`)."""
    effect = next((e for e in row.effects if e.kind is EffectKind.CLEAR), None)
    if effect is None:
        return None
    names = set(effect.names)
    enemy = row.name.startswith("Purge")
    radius = row.target.radius or 0.0
    sight = row.name.endswith(" I")
    best: tuple[int, float, int] | None = None
    for other in work.units:
        t = other.uid
        if other.location is not Location.TABLE or not other.living():
            continue
        if work.enemies(uid, t) != enemy:
            continue
        n = sum(1 for s in other.statuses if _base(s.name) in names)
        if not n:
            continue
        d = 0.0 if t == uid else work.gap(uid, t)
        if d > radius + 1e-9 or (sight and t != uid and not _sees(work, uid, t)):
            continue
        key = (-n, d, t)
        if best is None or key < best:
            best = key
    return None if best is None else best[2]


def _sees(work: Work, uid: int, target: int) -> bool:
    """Some model of ``uid`` sees some model of ``target`` (§5.4 line of sight)."""
    from warbench.rulesets.warsurge.game.bases import sees

    return sees(work, uid, target)  # oval and rectangular bases with their outline (§1.3)


def on_hp_noted(work: Work, unit: int, amount: int, source: str, attacker: int | None) -> None:
    """HP Loss, whatever its cause, for the perks that count it (:mod:`.perk_turn`)."""
    perk_turn.note_hp_lost(work, unit, attacker)


def _ignite_turn_end(work: Work, turn: int) -> None:
    perk_ignite.at_turn_end(work, turn, restore_hp)


def register_perk_hooks(reg: HookRegistry) -> None:
    """Add the perk hooks to ``reg``; the end-of-turn effects go before the durations tick."""
    every = frozenset(r.name for r in load_table())  # _inflict: the Weapon's perks (s34)
    reg.register(Hook.HP_LOST, on_hp_lost, "perk afflictions", perks=every)
    reg.register(Hook.ATTACK_DICE, on_attack_dice, "perk afflictions, Attack Dice", perks=every)
    reg.register(Hook.AFTER_MOVE, on_after_move, "Bleed")
    uses = AUTOMATIC_USES  # its units' own perks, Traits (issue 10, s34: docs/game.md)
    reg.register(Hook.PHASE_START, automatic_perk_uses, "activated perks (auto)", perks=uses)
    reg.register(Hook.TURN_END, on_turn_end, "perk effects at the end of the turn", first=True)
    reg.register(Hook.TURN_START, perk_turn.on_turn_start, "perks at the start of the turn")
    reg.register(Hook.DEPLOY, perk_turn.on_deploy, "Game Turns on the Battlefield")
    noted, used = perk_limits.HP_NOTED_PERKS, perk_limits.WEAPON_USED_PERKS  # issue 10, s34
    reg.register(Hook.HP_LOST, on_hp_noted, "HP Loss noted (by HP, Pain Locked)", perks=noted)
    reg.register(Hook.WEAPON_USED, perk_limits.on_weapon_used, "uses, by HP", perks=used)
    reg.register(Hook.USE_PERKS, use_perks_action, "Use Perks (Advanced)")
    reg.register(Hook.CASUALTY, perk_turn.on_casualty, "Reservoir, Last Stand, Resurrection")
    perk_roster.register_hooks(reg)  # Presence Roster Perks, in this place of each list
    reg.register(Hook.TURN_START, perk_turn.resurrection, "Resurrection")
    reg.register(Hook.TURN_END, perk_turn.last_stand_ends, "Last Stand ends", first=True)
    reg.register(Hook.TURN_START, perk_limits.forms_at_turn_start, "Transform, Wild Armour")
    reg.register(Hook.DEPLOY, perk_limits.forms_on_deploy, "Transform on arrival")
    reg.register(Hook.CASUALTY, perk_revive.on_casualty, "Revive, Reanimate")
    lust, ign = ["Bloodlust"], perk_ignite.IGNITE  # the attacker's Weapons (issue 10, s34)
    reg.register(Hook.HP_LOST, perk_bloodlust.on_hp, "Bloodlust: HP Loss", perks=lust)
    reg.register(Hook.CASUALTY, perk_bloodlust.on_casualty, "Bloodlust: slain", perks=lust)
    reg.register(Hook.HP_LOST, perk_ignite.on_hp_lost, "Ignite: its Power grows", perks=ign)
    reg.register(Hook.TURN_END, _ignite_turn_end, "Ignite: the end-of-turn Attack")
    reg.register(Hook.PHASE_END, perk_reserve.at_phase_end, "Warp, Vanish: into Reserve")
    reg.register(Hook.TURN_START, perk_reserve.at_turn_start, "Unstable: into Reserve")
    reg.register(Hook.DEPLOY, perk_reserve.after_deploy, "back from Reserve with casualties")
    reg.register(Hook.PHASE_START, perk_flee.at_phase_start, "Fall Back, Terrify, Dread")

    from warbench.rulesets.warsurge.game import perk_families

    perk_families.register_family_hooks(reg, restore_hp)  # the families' own modules


register_perk_hooks(DEFAULT_HOOKS)
