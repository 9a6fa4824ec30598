"""When a weapon may be used (Perks 000_94ecc6a4c74d351b.txt Limitation Weapon Perks: Use I-III
L3246, Countdown I-III L3046, Recharge I-III L3142, Pain Locked L3134; Panic L2267 and Rush
L2160 "may not use any Weapons"), and the Dice Modifiers on a weapon's Skill Tests (Skill L2999,
Resist I/II L1677). The ``weapon limit`` and ``test modifiers`` machineries of the effects table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game import (
    perk_aeonian,
    perk_challenger,
    perk_combat_damage,
    perk_concealed,
    perk_crew,
    perk_espionage,
    perk_incorporeal,
    perk_limitation,
    perk_psych,
    perk_stealth,
    perk_transport,
    perk_velocity,
    perk_wreckage,
)
from warbench.rulesets.warsurge.game.advstate import Playstyle
from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.perk_index import (
    ARRIVED,
    COUNTDOWN,
    LIMIT_WEAPON,
    NO_WEAPONS,
    PAIN,
    RECHARGE,
    THRESHOLD_UNIT,
    THRESHOLD_WEAPON,
    TURN_UNIT,
    TURN_WEAPON,
    USES,
    WEAPONS_TURN,
    index,
    looted_perks,
    weapon_perks,
)
from warbench.rulesets.warsurge.game.perk_timing import timing_refusal
from warbench.rulesets.warsurge.game.perk_turn import (
    _rule,
    _weapon_step,
    _weapon_turn,
    _weapon_uses,
    refresh_thresholds,
)
from warbench.rulesets.warsurge.game.state import Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.hooks import HookRegistry
    from warbench.rulesets.warsurge.game.perk_limitation import Restore
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work


# -- when a weapon may be used ---------------------------------------------------------------


def weapon_refusal(work: Work, uid: int, weapon: str) -> str | None:
    """Why the unit may not use ``weapon`` now (its Limitation perks, Panic), or ``None``."""
    u = work.units[uid]
    if u.statuses and u.wrecked:
        return perk_wreckage.weapon_refusal(work, uid, weapon)
    if u.statuses:
        for s in u.statuses:
            if s.name == "Defend":  # L1489 "prevents future Movement and the use of Weapons"
                return (
                    f"{work.label(uid)} used Defend: no Weapons this Game Turn "
                    f"(Defend, {_rule('Defend')})"
                )
            if s.name == "Paralysis":  # L2790 "unable to Move, Dash, Attack or use any Perks"
                return (
                    f"{work.label(uid)} is Paralysed this Game Turn: it may not Attack "
                    f"(Paralysis, {_rule('Paralysis')})"
                )
            if s.name == f"Disarm@{weapon}":  # Disarm (L3807): perk_tactical
                return (
                    f"{weapon} was Disarmed: not usable this Game Turn (Disarm, {_rule('Disarm')})"
                )
            if s.name == perk_stealth.STEALTH and work.setup.playstyle is not Playstyle.ADVANCED:
                return perk_stealth.weapons_refusal(work, uid)  # L1779 (Advanced: lifted)
            if s.name in NO_WEAPONS:
                return (
                    f"{work.label(uid)} may not use any Weapons this Game Turn "
                    f"({s.name}, {_rule(s.name)})"
                )
        if (broken := perk_combat_damage.refusal(u.statuses, work.label(uid), weapon)) is not None:
            return broken  # Combat Damage 3 and 4 (L1154): w2-kernel
    if (calm := pacifist_refusal(work, uid, weapon)) is not None:
        return calm
    if (wild := perk_psych.weapon_refusal(work, uid, weapon)) is not None:  # lane c
        return wild

    if (crew := _lane_b_refusal(work, uid, weapon)) is not None:  # Crew, Malfunction
        return crew
    if (when := timing_refusal(work, uid, weapon)) is not None:  # Preliminary, Postliminary
        return when
    idx = index(work.setup)
    if uid not in idx.limited and not LIMIT_WEAPON & looted_perks(work.setup):
        return None
    perks = weapon_perks(work, uid, weapon)  # a picked-up Loot Weapon's too (s38-loot)
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


#: Every perk :func:`on_weapon_used` reads in the set-up's index (limited Weapons, the Game Turn
#: of Rush, Defend and Doppelganger's Weapons, Stats by HP): a game naming none of them does not
#: fire it (``HookRegistry.register(..., perks=...)``; issue 10, session 34).
WEAPON_USED_PERKS = (
    LIMIT_WEAPON
    | {"Rush", "Defend", "Doppelganger I", "Doppelganger II"}
    | THRESHOLD_UNIT
    | THRESHOLD_WEAPON
)
#: Every perk ``perk_turn.note_hp_lost`` (the HP_LOST hook "HP Loss noted") reads in the index:
#: the turn's HP Loss (``at_turn_start``), Pain Locked (``limited``), Stats by HP.
HP_NOTED_PERKS = TURN_UNIT | TURN_WEAPON | LIMIT_WEAPON | THRESHOLD_UNIT | THRESHOLD_WEAPON


def on_weapon_used(work: Work, unit: int, weapon: str, target: int) -> None:
    """After a weapon's share of an Attack: its uses and last Game Turn (Use, Recharge), and
    both units' Stats by HP (Wane is checked before rolling, so for the next Attack)."""
    idx = index(work.setup)
    if (unit in idx.limited or LIMIT_WEAPON & looted_perks(work.setup)) and weapon_perks(
        work, unit, weapon
    ) & LIMIT_WEAPON:
        # one use per Attack (a weapon split among targets is used once, L3246)
        u = work.units[unit]
        if u.counter(_weapon_step(weapon)) != work.step + 1:
            u = u.with_use(_weapon_uses(weapon)).with_counter(_weapon_step(weapon), work.step + 1)
        work.units[unit] = u.with_counter(_weapon_turn(weapon), work.flow.turn)
        work.dirty = True
    if (
        idx.units[unit].unit & {"Rush", "Defend", "Doppelganger I", "Doppelganger II"}
        and work.units[unit].counter(WEAPONS_TURN) != work.flow.turn
    ):
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
    mod = 1 if "Skill" in weapon_perks(work, attacker, weapon) else 0
    resist = [m for uid, _, m in idx.resist if uid == target]
    return mod + min(resist, default=0)


# -- whom a weapon may or must Target (the ``targeting`` machinery) ---------------------------

#: Trajectory I-III (L3178-L3184): the weapon cannot Target a unit with a model this close.
TRAJECTORY = {"Trajectory I": 12.0, "Trajectory II": 24.0, "Trajectory III": 36.0}
#: Taunt I/II (L1394-L1404): enemy units within this Radius (or in a Melee with the User) must
#: Target it with their weapons in Range.
TAUNT = {"Taunt I": 6.0, "Taunt II": 12.0}
#: Provoke I/II (L879-L893): a Mastery Test, then one enemy unit within the Radius (or in a
#: Melee with the User) must Target it (the status ``Provoke`` on that unit, sourced by the User).
PROVOKE = {"Provoke I": 12.0, "Provoke II": 24.0}
PROVOKED = "Provoke"
#: Twin (L3200) and Triune (L3186): "the Weapon is part of a two [three] Weapon set … The
#: Wielder only selects one of the Twin Weapons each time it Attacks"; a unit's weapons with
#: the perk form sets in profile order (docs/rulings.md).
LINKED = {"Twin": 2, "Triune": 3}


@dataclass(frozen=True)
class _TargetIndex:
    trajectory: dict[int, dict[str, float]]  # uid -> weapon -> the closest it may Target
    taunters: tuple[tuple[int, float, str], ...]  # (uid, radius, rank)
    unyielding: frozenset[int]
    heal: dict[int, frozenset[str]]  # uid -> its weapons with Heal
    linked: dict[int, tuple[tuple[str, tuple[str, ...]], ...]]  # uid -> (perk, weapon set)
    uncover: tuple[int, ...] = ()  # units with Uncover
    pacifists: frozenset[int] = frozenset()
    murderers: frozenset[int] = frozenset()


@per_setup
def _target_index(setup: GameSetup) -> _TargetIndex:
    idx = index(setup)
    trajectory: dict[int, dict[str, float]] = {}
    heal: dict[int, frozenset[str]] = {}
    for uid, p in enumerate(idx.units):
        for weapon, names in p.weapons:
            near = max((TRAJECTORY[n] for n in names & TRAJECTORY.keys()), default=0.0)
            if near:
                trajectory.setdefault(uid, {})[weapon] = near
        heal[uid] = frozenset(w for w, names in p.weapons if "Heal" in names)
    taunters = tuple(
        (uid, TAUNT[n], n) for uid, p in enumerate(idx.units) for n in sorted(p.unit & TAUNT.keys())
    )
    unyielding = frozenset(uid for uid, p in enumerate(idx.units) if "Unyielding" in p.unit)
    linked: dict[int, tuple[tuple[str, tuple[str, ...]], ...]] = {}
    for uid, p in enumerate(idx.units):
        sets: list[tuple[str, tuple[str, ...]]] = []
        for perk, size in LINKED.items():
            members = [w for w, names in p.weapons if perk in names]
            sets.extend((perk, tuple(members[k : k + size])) for k in range(0, len(members), size))
        if sets:
            linked[uid] = tuple(sets)
    uncover = tuple(uid for uid, p in enumerate(idx.units) if "Uncover" in p.unit)
    pacifists = frozenset(uid for uid, p in enumerate(idx.units) if "Pacifist" in p.unit)
    murderers = frozenset(uid for uid, p in enumerate(idx.units) if "Murderer" in p.unit)
    out = _TargetIndex(
        trajectory, taunters, unyielding, heal, linked, uncover, pacifists, murderers
    )
    return out


def _looted(work: Work, uid: int, weapon: str, names: Iterable[str]) -> frozenset[str]:
    """Which of ``names`` a Loot Weapon ``uid`` picked up as ``weapon`` has (L3090: it keeps
    its Perks; the set-up's Weapons are :func:`_target_index`'s): none in a set-up whose Loot
    Weapons have none of them (issue 10, session 38, s38-loot)."""
    want = looted_perks(work.setup) & frozenset(names)
    if not want or not work.units[uid].statuses:
        return frozenset()
    return weapon_perks(work, uid, weapon) & want


def compelled_by(work: Work, uid: int) -> list[tuple[int, str]]:
    """The enemy units ``uid`` must Target (Taunt I/II within their Radius or in a Melee with
    it, L1394; the units whose Provoke it suffers, L879), with the rank; none for a unit with
    Unyielding (L1799: "immune to the Taunt and Provoke Perks")."""
    tidx = _target_index(work.setup)
    u = work.units[uid]
    provoked = [s for s in u.statuses if s.name == PROVOKED] if u.statuses else []
    if not tidx.taunters and not provoked:
        return []
    if uid in tidx.unyielding:
        return []
    engaged = set(work.engaged_with(work.outermost(uid)))
    out: list[tuple[int, str]] = []
    for other, radius, rank in tidx.taunters:
        if other == uid or not work.enemies(uid, other) or not work.standing(other):
            continue
        if other in engaged or (work.standing(uid) and work.gap(uid, other) <= radius + 1e-9):
            out.append((other, rank))
    for s in provoked:
        src, _, rank = s.source.partition("/")
        if src[1:].isdigit() and work.standing(int(src[1:])):
            out.append((int(src[1:]), rank))
    return out


def target_refusal(work: Work, uid: int, weapon: str, target: int) -> str | None:
    """Why ``uid`` may not aim ``weapon`` at ``target`` (its perks and the enemies'), or
    ``None``:

    * Trajectory I-III (L3178): "cannot Target a Unit with one or [more] models within 12"
      [24", 36"] of the Wielder";
    * Taunt I/II (L1394) and Provoke I/II (L879): a weapon that has a Taunting or Provoking
      unit in Range (and line of sight) must Target one of them ("Any Weapons that are out of
      Range can be used normally"; Heal weapons are unaffected).
    """
    tidx = _target_index(work.setup)
    near = tidx.trajectory.get(uid, {}).get(weapon)
    if near is None and (ranks := _looted(work, uid, weapon, TRAJECTORY.keys())):
        near = max(TRAJECTORY[n] for n in ranks)  # a picked-up Loot Weapon's (s38-loot)
    if near and work.gap(uid, target) < near - 1e-9:
        rank = next(n for n, d in TRAJECTORY.items() if d == near)
        return (
            f'{weapon} cannot Target a unit within {near:g}" of its Wielder ({rank}, '
            f'{_rule(rank)}); {work.label(target)} is {work.gap(uid, target):.1f}" away'
        )
    if target in tidx.pacifists and uid not in tidx.murderers:
        why = _pacifist_shielded(work, uid, target)
        if why is not None:
            return why
    heal = weapon in tidx.heal.get(uid, frozenset()) or bool(_looted(work, uid, weapon, {"Heal"}))
    if perk_incorporeal.ghosts(work) and (  # Incorporeal (L2466): before Heal weapons, too
        ghost := perk_incorporeal.target_refusal(work, uid, target, heal)
    ):
        return ghost
    if heal:
        return None
    if (mad := perk_psych.target_refusal(work, uid, weapon, target)) is not None:  # lane c
        return mad
    if (hidden := perk_stealth.target_refusal(work, uid, weapon, target)) is not None:
        return hidden
    if (line := perk_velocity.target_refusal(work, uid, weapon, target)) is not None:
        return line
    if (spy := perk_espionage.target_refusal(work, uid, weapon, target)) is not None:
        return spy
    if (shelter := perk_transport.target_refusal(work, uid, weapon, target)) is not None:
        return shelter  # Unsheltered (Perks L1438)
    if (empty := perk_crew.target_refusal(work, uid, weapon, target)) is not None:
        return empty  # Crew III (Perks L1194): unoccupied, friendly to all
    if (hidden := perk_concealed.target_refusal(work, uid, weapon, target)) is not None:
        return hidden  # Concealed (L4153)
    if (duel := perk_challenger.target_refusal(work, uid, weapon, target)) is not None:
        return duel
    if perk_challenger.opponents(work, uid):
        return None  # Challenger (L1973): "Challenge overrides Provoke and Taunt"
    compelled = compelled_by(work, uid)
    if not compelled or any(t == target for t, _ in compelled):
        return None
    from warbench.rulesets.warsurge.game.targeting import view_target

    for other, rank in compelled:
        view = view_target(work, uid, other)
        if not view.reason and view.users_in_range.get(weapon):
            return (
                f"{weapon} has {work.label(other)} in Range: it must Target it ({rank}, "
                f"{_rule(rank)})"
            )
    return None


def provoke_target(work: Work, uid: int, rank: str) -> int | None:
    """Whom Provoke (L879) is used on: an enemy unit in a Melee with the User, else the
    nearest enemy unit on the battlefield within its Radius (the engine's choice; L879 "One
    enemy Unit within 12\" or in a Melee with this Unit"); ``None`` when there is none."""
    engaged = [t for t in work.engaged_with(uid) if work.standing(t)]
    if engaged:
        return min(engaged)
    radius = PROVOKE[rank]
    best: tuple[float, int] | None = None
    for other in work.units:
        t = other.uid
        if not work.enemies(uid, t) or not work.standing(t):
            continue
        d = work.gap(uid, t)
        if d <= radius + 1e-9 and (best is None or (d, t) < best):
            best = (d, t)
    return None if best is None else best[1]


# -- a form chosen at the start of each Game Turn (the ``transform`` machinery) ----------------

#: Transform I-III (L2530-L2560): "User can choose one of the following at the start of each
#: Game Turn"; the forms, each a status ``Transform I (Tank)`` of the effects table.
TRANSFORM = ("Transform I", "Transform II", "Transform III")
FORMS = ("Tank", "Melee", "Ranged", "Movement")


def form_status(rank: str, form: str) -> str:
    """The status of ``rank``'s ``form`` (``Transform II (Ranged)``)."""
    return f"{rank} ({form})"


def current_form(work: Work, uid: int, rank: str) -> str | None:
    """The form ``uid`` has taken this Game Turn under ``rank``, or ``None``."""
    for s in work.units[uid].statuses:
        for form in FORMS:
            if s.name == form_status(rank, form):
                return form
    return None


def default_form(work: Work, uid: int) -> str:
    """The engine's choice of a form (the default of the player's decision): Melee for a unit
    in a Melee or with only Melee weapons (0"-1"), else Ranged."""
    info = work.info(uid)
    ranged = any(r > 1 for r in info.weapon_range.values())
    if not ranged or work.engaged_with(work.outermost(uid)):
        return "Melee"
    return "Ranged"


def take_form(work: Work, uid: int, rank: str, form: str, why: str) -> None:
    """``uid`` takes ``form`` of ``rank`` for the current Game Turn (replacing another)."""
    gone = {form_status(rank, f) for f in FORMS}
    kept = tuple(s for s in work.units[uid].statuses if s.name not in gone)
    new = Status(form_status(rank, form), 1, f"u{uid}/{rank}")
    work.set_unit(uid, statuses=(*kept, new))
    work.emit("perk", f"{work.label(uid)} takes the {form} form ({rank}, {why})", _rule(rank),
              unit=uid, perk=rank, form=form)  # fmt: skip


@per_setup  # asked at every Game Turn's start (issue 10, session 33)
def _turn_rollers(setup: GameSetup) -> tuple[tuple[int, tuple[str, ...]], ...]:
    idx = index(setup)
    out = []
    for uid, p in enumerate(idx.units):
        names = tuple(n for n in (*TRANSFORM, "Wild Armour") if n in p.unit)
        if names:
            out.append((uid, names))
    return tuple(out)


def forms_at_turn_start(work: Work, turn: int) -> None:
    """The start of a Game Turn: each unit with Transform I-III on the battlefield takes the
    engine's form (:func:`default_form`; the player may choose another by ``UsePerks(unit,
    ("Transform I: Tank",))`` before the unit acts), and Wild Armour (L1803) rolls a D6: "The
    result is the User's Armour Stat for this Game Turn. If a '1' is rolled, the Armour Save is
    2+ and failed Armour Saves can be rerolled"."""
    for uid, names in _turn_rollers(work.setup):
        u = work.units[uid]
        if u.location not in (Location.TABLE, Location.EMBARKED) or not u.living():
            continue
        for rank in names:
            if rank == "Wild Armour":
                _wild_armour(work, uid)
            else:
                take_form(work, uid, rank, default_form(work, uid), "the engine's choice")


def forms_on_deploy(work: Work, unit: int) -> None:
    """A unit with Transform that arrives during a Game Turn takes its form then."""
    for uid, names in _turn_rollers(work.setup):
        if uid != unit:
            continue
        for rank in names:
            if rank in TRANSFORM and current_form(work, uid, rank) is None:
                take_form(work, uid, rank, default_form(work, uid), "the engine's choice")


def _wild_armour(work: Work, uid: int) -> None:
    r = work.dice.d6("Wild Armour")
    save = max(2, r)
    gone = {f"Wild Armour ({k}+)" for k in range(2, 7)} | {"Wild Armour (1)"}
    kept = tuple(s for s in work.units[uid].statuses if s.name not in gone)
    name = "Wild Armour (1)" if r == 1 else f"Wild Armour ({save}+)"
    work.set_unit(uid, statuses=(*kept, Status(name, 1, f"u{uid}/Wild Armour")))
    extra = ", failed Armour Saves rerolled" if r == 1 else ""
    work.emit("perk", f"{work.label(uid)}: Wild Armour rolls {r}: Armour {save}+{extra}",
              _rule("Wild Armour"), unit=uid, perk="Wild Armour", roll=r)  # fmt: skip


def aether_modifier(work: Work, uid: int) -> int:
    """Dice Modifiers on the unit's Aether Tests for its Unit Perks: the strongest enemy Resist
    within its Radius, -1/-2 (L1677: "Resist I also causes a -1 Dice Modifier to Perks with
    'Aether' Activation within 12""; Resist II L1689 -2 within 18")."""
    idx = index(work.setup)
    worst = 0
    for other, radius, m in idx.resist:
        if not work.enemies(uid, other) or not work.standing(other):
            continue
        if work.standing(uid) and work.gap(uid, other) <= radius + 1e-9:
            worst = min(worst, m)
    return worst


def linked_refusal(work: Work, uid: int, weapons: Iterable[str]) -> str | None:
    """Why an Attack of ``uid`` may not use these ``weapons`` together (two of one Twin or
    Triune set, L3186-L3200), or ``None``."""
    sets = _target_index(work.setup).linked.get(uid)
    if not sets:
        return None
    named = set(weapons)
    for perk, members in sets:
        both = [w for w in members if w in named]
        if len(both) > 1:
            return (
                f"{work.label(uid)} selects only one of its {perk} Weapons ({', '.join(members)}) "
                f"each time it Attacks ({perk}, {_rule(perk)})"
            )
    return None


def one_of_each_set(work: Work, uid: int, targets: dict[str, list[int]]) -> dict[str, list[int]]:
    """``targets`` (weapon -> units it may attack) with one weapon of each Twin or Triune set:
    the first in profile order that has a target (the engine's choice; the player may name
    another in its Attack)."""
    sets = _target_index(work.setup).linked.get(uid)
    if not sets:
        return targets
    out = dict(targets)
    for _, members in sets:
        present = [w for w in members if w in out]
        for extra in present[1:]:
            del out[extra]
    return out


#: Uncover (L1430): "Any Units within 12\" of the User receive no Cover Bonus from any form of
#: Cover, including Perks that are associated with Cover".
UNCOVER = 12.0


def uncovered(work: Work, target: int) -> bool:
    """Whether ``target`` is within 12" of a unit with Uncover on the battlefield (its own
    included): it gets no Cover Bonus."""
    units = _target_index(work.setup).uncover
    if not units or not work.standing(target):
        return False
    return any(
        work.standing(uid) and (uid == target or work.gap(uid, target) <= UNCOVER + 1e-9)
        for uid in units
    )


def _pacifist_shielded(work: Work, uid: int, target: int) -> str | None:
    """Pacifist (L1352): "The User cannot be Targeted by enemies unless all friendly
    (non-Pacifist) Units from the same Roster are casualties or in Reserve" — or it Taunts or
    Provokes the attacker ("the Pacifist can be attacked by the target"); Murderer (L1338) "can
    Target Pacifist Units"."""
    if any(t == target for t, _ in compelled_by(work, uid)):
        return None
    if perk_transport.unshields_pacifist(work, target):  # L1362: in a Crew/Unsheltered Transport
        return None
    tidx = _target_index(work.setup)
    side = work.info(target).side
    guards = [
        o
        for o in work.side_units(side)
        if o not in tidx.pacifists
        and work.units[o].location in (Location.TABLE, Location.EMBARKED)
        and work.units[o].living()
    ]
    if not guards:
        return None
    return (
        f"{work.label(target)} is a Pacifist: it cannot be Targeted while {work.label(guards[0])} "
        f"and the rest of its Roster stand (Pacifist, {_rule('Pacifist')}; Murderer can)"
    )


def pacifist_refusal(work: Work, uid: int, weapon: str) -> str | None:
    """Pacifist (L1352): "The User cannot roll Attacks with any Weapon unless it has the Heal
    Perk"."""
    tidx = _target_index(work.setup)
    if uid not in tidx.pacifists or weapon in tidx.heal.get(uid, frozenset()):
        return None
    if _looted(work, uid, weapon, {"Heal"}):  # a picked-up Heal Weapon (s38-loot)
        return None
    return f"{work.label(uid)} is a Pacifist: only Heal Weapons ({_rule('Pacifist')})"


def _lane_b_refusal(work: Work, uid: int, weapon: str) -> str | None:
    """Crew I/II (``perk_aeonian``) and Malfunction I/II (``perk_limitation``), issue 11 lane b."""
    why = perk_aeonian.weapon_refusal(work, uid, weapon)
    return why if why is not None else perk_limitation.weapon_refusal(work, uid, weapon)


def lane_b_hooks(reg: HookRegistry, restore_hp: Restore) -> None:
    """Register the hooks of ``perk_aeonian`` and ``perk_limitation`` (issue 11, lane b): one
    dispatch line in the frozen ``perk_hooks.register_perk_hooks``, which passes its
    ``restore_hp`` (HP Steal)."""
    perk_aeonian.register_hooks(reg, restore_hp)
