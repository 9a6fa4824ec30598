"""Perk effects in a game: the effects engine at the game's hook points, and which perks are
inert (printed by ``warbench battle``).

A perk acts in a game when a machinery the game runs has registered it
(:func:`warbench.rulesets.warsurge.perks.register_implemented`): the registry is the one place
that knows. The game runs the attack sequence (every Attack resolves through it, with the
situational inputs the game sets: cover, range, Melee, Airborne/Jumper and Leader targets,
Outflank, Clash, Burst, Darkside …) and the effects engine (:mod:`warbench.rulesets.warsurge.
effects`): the ranks whose rows the hooks below can play register as ``"effects engine"``
(:data:`GAME_RANKS`). Every other perk on a unit does nothing in play yet;
``inert_perks`` lists them so a player knows before the game starts (STYLE.md §5: "A perk
with no implementation is reported when the catalog loads, never in the middle of a
battle").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.combat_damage import results_in_effect
from warbench.rulesets.warsurge.effects.algebra import combine
from warbench.rulesets.warsurge.effects.model import EffectKind, PerkEffects, PerkTest, Quantity
from warbench.rulesets.warsurge.effects.runtime import (
    adjusted_profiles,
    marker_modifiers,
    split_scope,
    stat,
)
from warbench.rulesets.warsurge.effects.statuses import Marker
from warbench.rulesets.warsurge.effects.table import load_table
from warbench.rulesets.warsurge.profiles import Unit

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.attack import AttackContext, UnitState
    from warbench.rulesets.warsurge.game.state import GameSetup, Status, UnitInfo

#: The perk machineries a Standard game runs (names as they registered themselves).
GAME_MACHINERY: frozenset[str] = frozenset({"attack sequence", "effects engine"})


def inert_perks(unit: Unit, traits: Sequence[str] = ()) -> list[str]:
    """The perks of ``unit`` (profile, carried weapons and Traits) that do nothing in a game,
    in the order they appear, by their book names (unknown names as written)."""
    import warbench.rulesets.warsurge.attack  # noqa: F401  (registers its perks)

    register_game_ranks()
    from warbench.rulesets.warsurge.perks import PerkCatalog

    catalog = PerkCatalog.load()
    carried = {w for group in unit.models for w in group.weapons}
    names = [*unit.profile.perks, *traits]
    for weapon in unit.weapons:
        if weapon.name in carried:
            names.extend(weapon.perks)
    out: list[str] = []
    for name in names:
        perk = catalog.find(name)
        label = perk.name if perk is not None else name
        acts = perk is not None and catalog.implementation_of(perk.name) in GAME_MACHINERY
        if not acts and label not in out:
            out.append(label)
    return out


def inert_report(setup: GameSetup) -> dict[str, list[str]]:
    """Per unit label (``Player: Unit``), the inert perks of every unit of a game that has
    any (see :func:`inert_perks`)."""
    out: dict[str, list[str]] = {}
    for info in setup.units:
        inert = inert_perks(info.unit, info.traits)
        if inert:
            out[info.label] = inert
    return out


# --------------------------------------------------------------------------------------------
# Perk statuses as the game reads them (the hooks that put them there: perk_hooks.py)
# --------------------------------------------------------------------------------------------
#
# A perk's lingering effect on a unit is a game ``Status`` (name, Game Turns left, source): the
# source is ``u<uid>/<weapon>`` (the inflicting unit and weapon, so identical weapons of one
# unit refresh one marker and different sources stack, Poison L2826), and a status that
# starts with the next Game Turn (Cripple, Freeze) carries the suffix ``DELAYED`` until then.

#: The suffix of a status waiting for the next Game Turn ("on the following Game Turn").
DELAYED = " (next Game Turn)"

#: The quantities the game reads through :func:`adjust_unit_state` and :func:`allowance`.
GAME_QUANTITIES = frozenset(
    {"Move", "Dash", "Defence", "Armour", "AEGIS", "Power", "AP", "Attacks", "Attack Dice",
     "Attack Dice against", "Range"}
)  # fmt: skip

#: Triggers the hooks below play for an HP-Loss status (weapon perks) or a Passive immunity.
_GAME_TRIGGERS = frozenset({"HP Loss", "Attack Dice", "Passive", "Immediate", "End of Turn"})


#: Activated perks the engine uses by itself under the ``perk use`` automation (its automatic
#: choice, ``perk_hooks.automatic_perk_uses``); without it they are not used (as Burst).
AUTOMATIC_USES = frozenset(
    {"Adrenaline", "Recover", "Regenerate", "Smokescreen"}
    | {"Illusion I", "Illusion II", "Illusion III"}  # w2-illusion: as Smokescreen (L779)
)


#: The code machineries the game's hooks run besides the attack sequence (``perk_hooks``,
#: ``perk_turn``): a row naming only these (and statuses the game reads) is played whatever
#: its triggers and tests, since that code plays them.
PLAYED_MACHINERIES = frozenset(
    {
        "leech",
        "start of turn",
        "hp threshold",
        "weapon limit",
        "test modifiers",
        "template",
        "chain",
        "movement perks",
        "leadership",
        "deployment",
        "casualty",
        "presence",
        "targeting",
        "transform",
        "relocation",
        "revive",
        "reserve",
        "ignite",
        "flee",
        "affliction",  # lane c: Plague, Spread (perk_affliction)
        "psychology",  # lane c: Berserk, Wild Instinct (perk_psych)
        # issue 11, lane b (session 4): perk_aeonian, perk_limitation
        "crew",
        "formation",
        "hp steal",
        "weapon faults",
        "reaction",
        "transport perks",
        "melee lock",
        "controller",
        "tactical",  # issue 11 lane a, session 4: game/perk_tactical.py
        "defensive",  # issue 11 lane a, session 4: game/perk_defensive.py
        "heal",  # issue 11, session 13: game/perk_heal.py
        "transformation",  # session 25, s25-transform: game/perk_ascension.py
        # issue 11, session 25, lane s25-aeon
        "transport access",  # game/perk_transport.py
        "seed",  # game/perk_seed.py
        "terrain unit",  # game/perk_terrain_unit.py
        "leaders",  # issue 11, session 25 (s25-lead): perk_furious, perk_challenger …
        "respawn",  # issue 11, session 25 (s25-lead): perk_respawn
        "residue",  # issue 11, session 25 (s25-lead): perk_residue
        "decoy",  # issue 11, session 25 (s25-lead): perk_decoy
        "summon",  # issue 11, session 25 (s25-lead): perk_summon
        "concealed",  # issue 11, session 25 (s25-lead): perk_concealed
        "displacement",  # issue 11, session 25, s25-tactical: game/perk_displace.py
        "attack windows",  # issue 11, session 25, s25-tactical: game/perk_windows.py
        "shared weapons",  # issue 11, session 25, s25-tactical: game/perk_shared.py
        "markers",  # issue 11, session 25, s25-tactical: game/perk_trap.py
        "precision",  # issue 11, session 25, s25-tactical: game/perk_precision.py
        # session 25, lane s25-ability (issue 11)
        "rerolls",  # game/perk_reroll.py: Lucky, Jinx, Architect of Destiny, Deny
        "nightmare",  # game/perk_nightmare.py: Nightmare Anomaly
        "defection",  # game/perk_defect.py: Traitorous, Enslaved
        "time jump",  # session 25 wave 2, w2-timejump: game/perk_timejump.py
        "imprison",  # session 25 wave 2, w2-timejump: game/perk_imprison.py
        "weapon state",  # session 25, w2-state: game/perk_arms.py (Simulacrum, Loot)
        "transport control",  # session 25 wave 2, w2-transport: game/perk_crew.py
        "wreckage",  # session 25 wave 2, w2-transport: game/perk_wreckage.py
        "incorporeal",  # session 25 wave 2, w2-transform: game/perk_incorporeal*.py
        "illusions",  # session 25 wave 2, w2-illusion: game/perk_illusion.py
        # session 25 wave 2, lane w2-kernel (issue 11)
        "combat damage",  # combat_damage.py and game/perk_combat_damage.py: Combat Damage
        "bodyguard",  # game/perk_bodyguard.py: Bodyguard (odds.follow_on_dice)
        "gateway",  # session 25 wave 2, w3-gateway: game/perk_gateway.py (Gateway)
        "opportunist",  # session 26, s26-opportunist: game/perk_opportunist.py
    }
)


_TESTS = frozenset({Quantity.MASTERY, Quantity.SKILL})


def _statuses_read(row: PerkEffects) -> bool:
    return all(
        m.quantity.value in GAME_QUANTITIES
        for e in row.effects
        if e.kind is EffectKind.STATUS
        for m in e.modifiers
    )


#: Activate perks used in answer to an opponent's roll, never by ``UsePerks`` (session 25,
#: s25-ability: Deny L4300, game/perk_reroll.py)
#: and Time Jump I-II, used in the decision after the unit's own action (w2-timejump,
#: game/perk_timejump.py)
ANSWERING = frozenset({"Deny", "Time Jump I", "Time Jump II"})


def _activated(row: PerkEffects) -> bool:
    """An activated rank :func:`~.perk_hooks.use_perk` plays: no test, every effect a status
    on the User the game reads, or HP restored."""
    if row.name in USED_PERKS:  # used by the player though not tagged Activate (Cure, Purge)
        return True
    if row.name in ANSWERING:
        return False
    if "Activate" not in {t.value for t in row.triggers} or row.tests or not row.effects:
        return False
    for e in row.effects:
        if e.kind is EffectKind.RESTORE or e.machinery in PLAYED_MACHINERIES:
            continue
        if e.kind is not EffectKind.STATUS or e.target.kind.value != "self":
            return False
    return _statuses_read(row)


#: Perks a player uses (once per Game Turn, §12.2 L227) though not tagged Activate: a Mastery
#: Test, then statuses removed from a unit within the Radius (``perk_hooks.use_perk``).
USED_PERKS = frozenset(
    {
        "Cure I",
        "Cure II",
        "Purge I",
        "Purge II",
        # a Mastery Test, then the status Provoke on an enemy unit in its Radius (L879)
        "Provoke I",
        "Provoke II",
        # an Aether Test, then a status on the User (L1579)
        "Magic Armour I",
        "Magic Armour II",
        "Magic Armour III",
        # used, then a D6 of 4+ when an enemy Weapon Targets it (perk_defensive, L1617)
        "Reflect I",
        "Reflect II",
        # the player's choice of a form, the engine's one the default (L2530)
        "Transform I",
        "Transform II",
        "Transform III",
        # relocated as Movement, neither a Move nor a Dash (L673, L1025; ``perk_relocation``)
        "Blink I",
        "Blink II",
        "Blink III",
        "Teleport I",
        "Teleport II",
        "Teleport III",
        # a Mastery Test, then into Reserve at the end of the Phase (L1081; ``perk_reserve``)
        "Vanish",
        # its status and the statuses it removes from the User (L707)
        "Courage",
        # a Mastery Test, then an enemy unit in sight within 18" falls back (L1049)
        "Terrify",
        # the player's declaration that the game goes on one Game Turn when it ends (L4308,
        # a Roster Perk designated to the unit; perk_roster.extends)
        "Extension",
        # a Mastery Test, then Movement out of its Melee this Game Turn (L735; perk_aeonian)
        "Disengage",
        # an offer of Stats at the start of the Game Turn (L3793; perk_corrupted)
        "Corrupted",
        # session 25, s25-ability: the unit the player picks at the start of the Game Turn
        # (L4354, a Roster Perk designated to the unit; perk_nightmare)
        "Nightmare Anomaly",
        # the Target the player names, a Mastery Test, the unit seized (L745; perk_dominate)
        "Dominate",
        # session 25 wave 2, w2-timejump: the Target in its Melee, a Mastery Test, the unit
        # Imprisoned inside the User (L821; perk_imprison)
        "Imprison",
        # session 25, w2-state: the Weapon a Simulacrum Weapon copies (L4059; perk_simulacrum)
        "Simulacrum",
        # session 25 wave 2, w2-illusion: Illusions per model, the player's (L779; perk_illusion)
        "Illusion I",
        "Illusion II",
        "Illusion III",
    }
)


@cache
def activated_ranks() -> frozenset[str]:
    """The activated ranks the game plays (the automatic choice, the Advanced Use Perks
    action)."""
    return frozenset(r.name for r in load_table() if _activated(r))


def _playable(row: PerkEffects) -> bool:
    """Whether the hooks below play every effect of a row (and it needs no test they skip)."""
    machineries = set(row.machineries) - {"leech"}
    if machineries:
        if not machineries <= PLAYED_MACHINERIES:
            return False
        return all(
            e.kind in (EffectKind.STATUS, EffectKind.RESTORE, EffectKind.CLEAR)
            or e.machinery in PLAYED_MACHINERIES
            or (e.kind is EffectKind.MODIFY and all(m.quantity in _TESTS for m in e.modifiers))
            for e in row.effects
        ) and _statuses_read(row)
    triggers = {t.value for t in row.triggers}
    if row.name in USED_PERKS:
        return True
    if "Activate" in triggers:
        if not _activated(row):
            return False
        triggers.discard("Activate")
    if not row.effects or any(t.kind not in (PerkTest.SKILL, PerkTest.D6) for t in row.tests):
        return False
    if not triggers <= _GAME_TRIGGERS:
        return False
    for e in row.effects:
        if e.kind is EffectKind.STATUS:
            if any(m.quantity.value not in GAME_QUANTITIES for m in e.modifiers):
                return False
        elif e.kind in (EffectKind.IMMUNE, EffectKind.RESTORE, EffectKind.CONVERT) or (
            e.kind is EffectKind.MACHINERY and e.machinery in ("attack sequence", "leech")
        ):
            continue
        else:
            return False
    return True


def game_ranks() -> frozenset[str]:
    """The ranks whose every effect the game's hooks play (besides the attack sequence's)."""
    rows = [r for r in load_table() if _playable(r) and "attack sequence" not in r.machineries]
    inflicted = {e.status for r in rows for e in r.effects if e.kind is EffectKind.STATUS}

    def acts(r: PerkEffects) -> bool:
        # an immunity acts only against something the game can inflict (Fearless's Terrify
        # is not in play yet, so Fearless does nothing yet either)
        return all(
            set(e.names) & inflicted
            for e in r.effects
            if e.kind in (EffectKind.IMMUNE, EffectKind.CONVERT)
        )

    return frozenset(r.name for r in rows if acts(r))


_REGISTERED: list[bool] = []


def register_game_ranks() -> None:
    """Register :func:`game_ranks` as implemented by the ``"effects engine"`` (once)."""
    if not _REGISTERED:
        from warbench.rulesets.warsurge.perks import register_implemented

        register_implemented(sorted(game_ranks()), "effects engine")
        _REGISTERED.append(True)


def markers_of(statuses: Sequence[Status]) -> list[Marker]:
    out = []
    for s in statuses:
        if s.name.endswith(DELAYED):
            out.append(Marker(s.name[: -len(DELAYED)], s.source, s.turns, delay=1))
        else:
            out.append(Marker(s.name, s.source, s.turns))
    return out


def statuses_of(markers: Sequence[Marker]) -> tuple[Status, ...]:
    from warbench.rulesets.warsurge.game.state import Status as GameStatus

    return tuple(
        GameStatus(m.name + (DELAYED if m.delay else ""), m.turns, m.source) for m in markers
    )


def adjust_unit_state(statuses: Sequence[Status], st: UnitState) -> UnitState:
    """The attack kernel's view of a unit under its perk statuses
    (:func:`~warbench.rulesets.warsurge.effects.runtime.adjusted_profiles`, the same function
    ``odds`` uses for a unit under statuses). Unchanged (the same object) without statuses."""
    if not statuses:
        return st
    adjusted = adjusted_profiles(st.profile, st.weapons, markers_of(statuses))
    if adjusted is None:
        return st
    profile, weapons = adjusted
    return replace(st, profile=profile, weapons=dict(weapons))


def status_dice(
    ctx: AttackContext,
    attacker: Sequence[Status],
    target: Sequence[Status],
    weapon: str | None = None,
) -> AttackContext:
    """``ctx`` with the Dice Modifiers perk statuses put on these Attack Dice: the attacker's
    own (Concussive -1; with ``weapon``, also those on that weapon only, Wane ``Wane@Gun``)
    and those against the target (Smokescreen -2). Each quantity's modifiers are combined by
    the one algebra; unchanged (the same object) when there are none.
    """
    if not attacker and not target:
        return ctx
    ctx = attack_flags(ctx, attacker)  # Stun, Bloodthirsty (issue 11, lane c)
    if target and (done := results_in_effect(s.name for s in target)):
        ctx = replace(ctx, combat_damage=done)  # Combat Damage (L1154): w2-kernel
    out: list[tuple[int, str]] = []
    for statuses, q in ((attacker, Quantity.ATTACK_DICE), (target, Quantity.ATTACK_DICE_AGAINST)):
        if not statuses:
            continue
        markers = markers_of(statuses)
        mods = marker_modifiers(markers)
        if weapon is not None and statuses is attacker:
            mods += marker_modifiers(markers, weapon=weapon)
        r = combine(q, 0, mods, floor=None)
        if r.value:
            out.append((r.value, " + ".join(r.contributors)))
    if ctx.attacker_engaged and attacker:
        # Fall Back, Terrify, Dread (L2221, L1049, L2690): "If engaged in a Melee … a -1 Dice
        # Modifier to Attack Dice instead of being forced to direct Movement"
        names = sorted({s.name for s in attacker if s.name in FLEEING})
        if names:
            out.append((-1, names[0]))
    if not out:
        return ctx
    return replace(ctx, status_modifiers=(*ctx.status_modifiers, *out))


#: Statuses that drive their unit to its board edge (``perk_flee``).
FLEEING = frozenset({"Fall Back", "Terrify", "Dread"})


def weapon_ranges(info: UnitInfo, statuses: Sequence[Status]) -> Mapping[str, int]:
    """The unit's weapon Ranges under its perk statuses (Limit Break +6", Hearty +12" on its
    weapon, Blind halves: §12.1's order, additions before the halving); ``info.weapon_range``
    itself (the same object) when no status changes a Range. A 0" (Melee) weapon stays 0"
    (docs/rulings.md)."""
    if not statuses:
        return info.weapon_range
    markers = markers_of(statuses)
    mods = [m for m in marker_modifiers(markers) if m.quantity is Quantity.RANGE]
    scoped = {n for s in statuses if (n := split_scope(s.name)[1])}
    if not mods and not scoped:
        return info.weapon_range
    out: dict[str, int] = {}
    for name, rng in info.weapon_range.items():
        ms = mods
        if name in scoped:
            extra = marker_modifiers(markers, weapon=name)
            ms = [*mods, *(m for m in extra if m.quantity is Quantity.RANGE)]
        out[name] = rng if rng <= 0 or not ms else combine(Quantity.RANGE, rng, ms).value
    return out


def range_key(statuses: Sequence[Status]) -> tuple[str, ...]:
    """What of a unit's statuses may change its Ranges (a cache key; empty for most units)."""
    if not statuses:
        return ()
    return tuple(s.name for s in statuses if s.name in _range_statuses() or "@" in s.name)


@cache
def _range_statuses() -> frozenset[str]:
    return frozenset(
        name
        for name, e in load_table().statuses().items()
        if any(m.quantity is Quantity.RANGE for m in e.modifiers)
    )


def allowance(statuses: Sequence[Status], dash: bool, base: int) -> int:
    """Move or Dash under the unit's perk statuses (Cripple halves, Freeze is Immobile)."""
    if not statuses:
        return base
    q = Quantity.DASH if dash else Quantity.MOVE
    return stat(q, base, markers_of(statuses)).value


# Checked against the catalog and the effects table when the game loads (pluggy: declared up
# front), so a rank the hooks cannot play is never reported as acting.
register_game_ranks()


#: Statuses under which a unit "treats the Battlefield as Difficult Ground even with Movement
#: Perks" (Morale I/II L2249-L2261, failed).
DIFFICULT_EVERYWHERE = frozenset({"Morale I", "Morale II"})


def difficult_everywhere(statuses: Sequence[Status]) -> bool:
    """Whether every path of the unit is Difficult Ground (§4.5: Movement halved, rounded down,
    at least 1" less), once, however much real Difficult Ground it crosses."""
    return any(s.name in DIFFICULT_EVERYWHERE for s in statuses)


def ignores_ground(statuses: Sequence[Status]) -> bool:
    """Courage (L707): "For the duration of one Game Turn, the Unit ignores the effects of
    Difficult and Dangerous Ground"."""
    return bool(statuses) and any(s.name == "Courage" for s in statuses)


@cache
def _ignored_while() -> dict[str, frozenset[str]]:
    """Statuses that make their unit ignore others while they last: a used perk that removes
    statuses from its own User and puts one on it (Courage L707: "ignores and removes")."""
    out: dict[str, frozenset[str]] = {}
    for row in load_table():
        own = [e.status for e in row.effects if e.kind is EffectKind.STATUS and e.status]
        cleared = {
            n
            for e in row.effects
            if e.kind is EffectKind.CLEAR and e.target.kind.value == "self"
            for n in e.names
        }
        for name in own if cleared else ():
            out[name] = frozenset(cleared)
    return out


def status_immunities(statuses: Sequence[Status]) -> frozenset[str]:
    """What a unit ignores because of its statuses now (Courage: Cripple, Stun, Fugue …)."""
    if not statuses:
        return frozenset()
    table = _ignored_while()
    out: set[str] = set()
    for s in statuses:
        out |= table.get(s.name, frozenset())
    return frozenset(out)


def attack_flags(ctx: AttackContext, attacker: Sequence[Status]) -> AttackContext:
    """``ctx`` with the attacker's statuses that change the attack kernel's own steps: Stun
    (L2862, ``stunned``: Attack Dice need a 6, no positive Dice Modifiers) and Bloodthirsty
    (L4272, ``melee_bonus_attacks``: +1 Attack in a Melee after all other perks)."""
    names = {s.name for s in attacker}
    if "Stun" in names:  # a Stun waiting for the next Game Turn is named "Stun (next …)"
        ctx = replace(ctx, stunned=True)
    if "Bloodthirsty" in names and ctx.melee:
        ctx = replace(ctx, melee_bonus_attacks=1)
    return ctx
