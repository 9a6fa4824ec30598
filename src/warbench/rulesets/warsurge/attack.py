"""The WARSURGE attack sequence (Core Rules 001_d3f5e425c5e1196d.txt §5.2-5.16), compiled.

Resolving one weapon profile against one target happens in two halves:

1. :func:`compile_weapon_use` applies every rule and every attack-math perk in the order of
   Perks 000_94ecc6a4c74d351b.txt §12.1 ("Perks and Stat Changes", "Damage Increasers"). The
   few rolls made once per weapon use (+Power D3, xD6 Attacks, Destroy's D6, Chaos, the Aether
   test of Incantation, Puncture, Wildcard …) are rolled on the :class:`~warbench.kernel.dice.Dice`
   it is given. The result is a :class:`WeaponUse`: how many Attack Dice are rolled and a
   :class:`DieProgram` that says, for one Attack Dice, what it needs, how its successes are
   multiplied, which Saves the target rolls and how much HP each unsaved hit costs.
2. An interpreter runs the program. :func:`sample_weapon_use` rolls physical D6 (vectorised
   with NumPy; scripted dice reproduce the book's examples face by face) and the odds engine
   (:mod:`warbench.rulesets.warsurge.odds`) computes the exact distribution, with the weapon-level
   rolls enumerated by :func:`~warbench.kernel.dice.enumerate_outcomes`.

No rule is written twice: the simulator, the game and the odds engine all call the compiler.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import MISSING, dataclass, field, fields, replace
from enum import StrEnum
from functools import lru_cache
from typing import overload

import numpy as np
import numpy.typing as npt

from warbench.kernel.dice import D3, D6, TWO_D6, Dice, DiceExpr, TestKind
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.chart import AttackRequirement, attack_requirement
from warbench.rulesets.warsurge.perks import PerkCatalog, point_cost_met, register_implemented
from warbench.rulesets.warsurge.profiles import (
    Unit,
    UnitProfile,
    WeaponProfile,
    WeaponType,
    format_save,
)

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

# --------------------------------------------------------------------------------------------
# Perk names
# --------------------------------------------------------------------------------------------

_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4}


@lru_cache(maxsize=2048)
def canonical_perk(name: str) -> str:
    """Lower-case book name without a parenthesised dice note: ``+Power I (D3)`` → ``+power i``.

    Spellings the catalog accepts (``destroy 1``, ``Aim 4``) are first resolved to the book's
    name (Perks §12.4-12.6), so ``Destroy 1`` and ``Destroy I`` mean the same perk.
    """
    found = PerkCatalog.load().find(name)
    text = re.sub(r"\([^)]*\)", " ", found.name if found else name)
    return re.sub(r"\s+", " ", text).strip().lower()


#: A perk a status grants (Nightmare Anomaly's 3, Perks L4354, game/perk_nightmare.py): the
#: unit's successful Armour and AEGIS Saves are rerolled, as Rupture II's (§12.5).
SUCCESSFUL_SAVES_REROLLED = "Nightmare Anomaly: reroll successful Saves"


class PerkSet:
    """The perks of a profile, queried by base name and rank."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = frozenset(canonical_perk(n) for n in names)

    def has(self, name: str) -> bool:
        return canonical_perk(name) in self.names

    def rank(self, base: str) -> int:
        """Highest roman rank held of ``base`` (``Destroy II`` → 2), 0 if none."""
        b = canonical_perk(base)
        best = 0
        for n in self.names:
            if n.startswith(b + " "):
                r = _ROMAN.get(n[len(b) + 1 :])
                if r:
                    best = max(best, r)
        return best

    def thresholds(self, base: str) -> list[int]:
        """Every ``base X+`` held (``Aim 4+`` → [4])."""
        key = (self.names, base)
        hit = _THRESHOLDS.get(key)
        if hit is None:  # kept per (perks, base): the same few are asked at every Attack
            b = canonical_perk(base)
            out = []
            for n in self.names:
                m = re.fullmatch(re.escape(b) + r" ([2-6])\+?", n)
                if m:
                    out.append(int(m[1]))
            hit = tuple(sorted(out))
            if len(_THRESHOLDS) > 20_000:
                _THRESHOLDS.clear()
            _THRESHOLDS[key] = hit
        return list(hit)


#: PerkSet.thresholds' answers by (the perks' canonical names, base)
_THRESHOLDS: dict[tuple[frozenset[str], str], tuple[int, ...]] = {}


MODE_PERKS = frozenset(
    canonical_perk(n)
    for n in (
        "Beam I", "Beam II", "Blast I", "Blast II", "Blast III", "Chain I", "Chain II",
        "Cone I", "Cone II", "Diffuse", "Explode I", "Explode II", "Explode III", "Nova I",
        "Nova II", "Nova III", "Vortex I", "Vortex II", "Vortex III", "Wall I", "Wall II",
        "Wall III",
    )
)  # fmt: skip  # Mode family without Heal and Residue (Swarm, §12.4)

#: The attack-math perks (class A of the reference index) this module implements.
IMPLEMENTED_PERKS: frozenset[str] = frozenset(
    [f"Accuracy {n}+" for n in range(2, 7)]
    + ["Accursed", "Assassin", "Defiance", "Outflank", "Swarm", "Barrier", "Camouflage"]
    + ["Cover I", "Cover II", "Dodge", "Emergency Save", "Evasive", "Reinforced", "Resilient"]
    + ["Retaliate I", "Retaliate II", "Shroud", "Stalwart", "Tough", "Gravity"]
    + ["+AP I (D3)", "+AP II (D6)", "+Attacks I (D3)", "+Attacks II (D6)", "+Attacks III (2D6)"]
    + ["+Power I (D3)", "+Power II (D6)", "+Power III (2D6)", "Burst", "Chaos", "Darkside"]
    + ["xD3 Attacks", "xD6 Attacks"]
    + [f"Aim {n}+" for n in range(2, 7)]
    + ["Cumbersome", "Incantation", "Unwieldy", "Volatile", "Wildcard"]
    + ["Annihilate I", "Annihilate II", "Arc I", "Arc II", "Arc III"]
    + ["Critical Hit I", "Critical Hit II", "Dire Hit"]
    + [f"Damage {n}+" for n in range(2, 7)]
    + ["Deathblow", "Destroy I", "Destroy II", "Destroy III", "Devastate I", "Devastate II"]
    + ["Ignore Cover", "Impact I", "Impact II", "Might I", "Might II"]
    + ["Obliterate I", "Obliterate II", "Penetrate I", "Penetrate II", "Penetrate III"]
    + ["Penetrate IV", "Piercing Hit I", "Piercing Hit II", "Puncture I", "Puncture II"]
    + ["Rapid", "Rend", "Reroll Attack", "Rupture I", "Rupture II"]
    + ["Anti-Air I", "Anti-Air II", "Clash", "Focus", "Negate AEGIS"]
)
# No Line of Sight I-III (AttackContext.target_out_of_sight) and Immortal
# (UnitState.immortal_left) are read here too, but the game's Tactical and Defensive modules
# register them (they are not class A of the reference index: the game decides when they apply).
# Checked against the catalog when this module loads (Perks are data first, STYLE.md §5).
register_implemented(IMPLEMENTED_PERKS, "attack sequence")

# --------------------------------------------------------------------------------------------
# Situational inputs and unit state
# --------------------------------------------------------------------------------------------


class Playstyle(StrEnum):
    """Standard removes casualties at the end of the Attack Phase, Advanced at once (§5.11)."""

    STANDARD = "Standard"
    ADVANCED = "Advanced"


@dataclass(frozen=True)
class AttackContext:
    """What the battlefield says about one attack; geometry decides these in a game.

    ``melee``: attacker and target are engaged in the same Melee (§5.9: range, line of sight
    and cover are ignored; Parry applies). ``attacker_engaged``: the attacker is in some Melee
    (weapon Type modifiers §5.8); defaults to ``melee``. ``target_engaged_elsewhere``: the target
    is in a Melee with a friendly unit (attacking "into a Melee", §5.8).
    """

    melee: bool = False
    attacker_engaged: bool | None = None
    target_engaged_elsewhere: bool = False
    #: §6.9 (L3499-3503): the attacker fires through the Fire Points of a Transport engaged in
    #: a Melee: no Weapon Type modifiers, the into / out of a Melee modifiers still apply
    through_fire_points: bool = False
    cover: bool = False
    cover_bonus: int = 1
    #: custom cover (§10.4 L4475-4483): Armour / AEGIS save steps that come with the Cover
    #: Bonus (1: 4+ becomes 3+; negative worsens it), agreed per terrain piece
    cover_armour: int = 0
    cover_aegis: int = 0
    #: custom cover's additional Cover Save (§10.4 L4477-4478: "adding an additional Armour
    #: Save as a form of 'Cover' Save"), e.g. 5 for 5+: rolled for each hit that failed its
    #: Armour and AEGIS Saves, unmodified (docs/rulings.md "WARSURGE terrain in play" 6)
    cover_save: int | None = None
    within_half_range: bool = False
    distance: float | None = None
    target_is_leader: bool = False
    target_airborne: bool = False
    attacker_point_cost: float | None = None
    target_point_cost: float | None = None
    first_use_after_engaging: bool = False
    outflank: bool = False
    stationary: bool = False
    burst: bool = False
    darkside_power: int = 0
    darkside_attacks: int = 0
    aether_modifier: int = 0
    emergency_save: bool = True
    playstyle: Playstyle = Playstyle.STANDARD
    los_models: frozenset[int] | None = None
    #: Dice Modifiers on these Attack Dice from perk statuses, as (value, source): the
    #: attacker's (Concussive -1, Blind -1) and the target's (Smokescreen -2). Enemy units cause
    #: them, so Stalwart ignores the negative ones (effects engine, docs/perks.md).
    status_modifiers: tuple[tuple[int, str], ...] = ()
    #: Stun (Perks 000_94ecc6a4c74d351b.txt L2862): the attacker is Stunned this Game Turn: no
    #: positive Dice Modifiers, and its Attack Dice need a 6 unless they would need worse.
    stunned: bool = False
    #: Bloodthirsty (L4272): Attacks added to every weapon in a Melee, after all other perks.
    melee_bonus_attacks: int = 0

    #: no model of the Target is in line of sight of the attacking unit (§5.4): only a No Line
    #: of Sight Weapon attacks it, No Line of Sight I at -2 (Perks 000_94ecc6a4c74d351b.txt
    #: L3961-3979; docs/rulings.md "perks in play: Tactical, Trait, Movement …" 1)
    target_out_of_sight: bool = False
    #: Furious (Perks 000_94ecc6a4c74d351b.txt L2003): the use is this many Attack Dice that
    #: count as successful (no Attack Dice roll; Saves and HP Loss as normal). ``None``: rolled.
    struck_dice: int | None = None
    #: Combat Damage (Perks 000_94ecc6a4c74d351b.txt L1154): the table's results already in
    #: effect on the Target (1-3 waiting or lasting: a duplicate is -1 HP; one 4 per broken
    #: Weapon), :mod:`warbench.rulesets.warsurge.combat_damage`
    combat_damage: tuple[int, ...] = ()

    @property
    def engaged(self) -> bool:
        return self.melee if self.attacker_engaged is None else self.attacker_engaged


#: every field of :class:`AttackContext` with its default, in the order ``__init__`` sets them
_CONTEXT_DEFAULTS: dict[str, object] = {f.name: f.default for f in fields(AttackContext)}


def attack_context(**given: object) -> AttackContext:
    """``AttackContext(**given)`` without the frozen dataclass's ``__init__``: the defaults and
    the given fields in one dict, in the order ``__init__`` sets them (its 31 fields are each
    set through ``object.__setattr__``; the game makes one a share of every Attack, issue 10,
    session 36). Equal, hashed, copied and pickled as the dataclass's own."""
    if not given.keys() <= _CONTEXT_DEFAULTS.keys():
        unknown = sorted(given.keys() - _CONTEXT_DEFAULTS.keys())
        raise TypeError(f"AttackContext has no field {unknown[0]!r}")
    out: AttackContext = object.__new__(AttackContext)
    d = out.__dict__
    d.update(_CONTEXT_DEFAULTS)
    d.update(given)
    return out


# every field has a plain default (no factory, all set by ``__init__``) and nothing is worked
# out after it: what :func:`attack_context` relies on
if not all(f.init and f.default is not MISSING for f in fields(AttackContext)) or hasattr(
    AttackContext, "__post_init__"
):
    raise TypeError("AttackContext: attack_context needs plain defaults and no __post_init__")


@dataclass
class ModelState:
    """One model: its current HP and the weapons it carries."""

    hp: int
    weapons: tuple[str, ...]
    removed: bool = False
    illusion: bool = False  # an Illusion (Perks L779): "removed before the User"

    @property
    def casualty(self) -> bool:
        return self.hp <= 0


@dataclass
class UnitState:
    """A unit during a game: profiles plus each model's HP (§5.11-5.12)."""

    profile: UnitProfile
    weapons: dict[str, WeaponProfile]
    models: list[ModelState]
    emergency_save_used: bool = False
    burst_used: set[str] = field(default_factory=set)
    #: Immortal (Perks 000_94ecc6a4c74d351b.txt L1539): the HP the unit may still lose this Game
    #: Turn (``None``: no Immortal). A fresh unit may lose half its full HP, rounding up, 1 at
    #: least; it is also immune to Deathblow meanwhile.
    immortal_left: int | None = None

    @classmethod
    def of(cls, unit: Unit) -> UnitState:
        models = [ModelState(unit.profile.hp, ws) for ws in unit.model_weapons()]
        immortal = PerkSet(unit.profile.perks).has("Immortal")
        return cls(
            profile=unit.profile,
            weapons={w.name: w for w in unit.weapons},
            models=models,
            immortal_left=immortal_allowance(unit.profile.hp * len(models)) if immortal else None,
        )

    @property
    def perks(self) -> PerkSet:
        return PerkSet(self.profile.perks)

    @property
    def on_table(self) -> list[int]:
        """Indices of models not yet removed (casualties still count until removed, §5.15)."""
        return [i for i, m in enumerate(self.models) if not m.removed]

    @property
    def alive(self) -> list[int]:
        return [i for i, m in enumerate(self.models) if not m.removed and not m.casualty]

    @property
    def current_hp(self) -> int:
        return sum(max(0, m.hp) for m in self.models if not m.removed)

    @property
    def max_hp(self) -> int:
        return self.profile.hp * len(self.models)

    def remove_casualties(self) -> list[int]:
        """Remove casualties (end of the Attack Phase in Standard games, §5.11)."""
        gone = [i for i, m in enumerate(self.models) if m.casualty and not m.removed]
        for i in gone:
            self.models[i].removed = True
        return gone


def immortal_allowance(full_hp: int) -> int:
    """Immortal (L1539): "cannot lose more than half of its full HP (rounding up, 1 HP minimum)
    in a single Game Turn" (15 HP: 8)."""
    return max(1, -(-full_hp // 2))


# --------------------------------------------------------------------------------------------
# Which weapons may attack (Attack Step 1, §5.2-5.3, §5.8-5.9)
# --------------------------------------------------------------------------------------------


def weapon_refusal(weapon: WeaponProfile, ctx: AttackContext) -> str | None:
    """Why ``weapon`` cannot make the attack ``ctx`` describes, or ``None`` when it can.

    In a Melee every Weapon Type attacks, Range is ignored (001_d3f5e425c5e1196d.txt §5.9, "a
    model with a 0" or a low Range Weapon can strike"); Heavy and Battle Weapons only suffer
    Dice Modifiers (§5.8, applied by :func:`compile_weapon_use`). Outside a Melee a 0" Weapon
    cannot attack: it "needs the model to be engaged in a Melee to be able to attack" (L1287-
    1291). Wildcard's Range is rolled each use (2D6 x 3, Perks 000_94ecc6a4c74d351b.txt §12.5),
    so its listed 0" does not stop it. Unwieldy cannot be used while engaged (Perks §12.5).
    """
    wperks = PerkSet(weapon.perks)
    if wperks.has("Unwieldy") and ctx.engaged:
        return "Unwieldy: it cannot be used while its User is engaged in a Melee (Perks §12.5)"
    if not ctx.melee and weapon.range <= 0 and not wperks.has("Wildcard"):
        return 'a 0" Weapon attacks only in a Melee (Core Rules L1287, §5.9)'
    if ctx.target_out_of_sight and not ctx.melee and not wperks.rank("No Line of Sight"):
        return (
            "the Target is not in line of sight (§5.4); only a No Line of Sight Weapon "
            "attacks it (Perks L3961)"
        )
    return None


def can_attack_with(weapon: WeaponProfile, ctx: AttackContext) -> bool:
    """True when ``weapon`` may make the attack ``ctx`` describes (see :func:`weapon_refusal`)."""
    return weapon_refusal(weapon, ctx) is None


# --------------------------------------------------------------------------------------------
# The compiled program
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SaveSpec:
    """One Save roll: the number needed (``None``: no Save) and its rerolls (§5.10)."""

    needed: int | None = None
    reroll_failed: bool = False
    reroll_successful: bool = False

    def probability(self) -> float:
        """Chance that the Save succeeds, with Reinforced/Resilient then Rupture (§12.5)."""
        if self.needed is None:
            return 0.0
        q = (7 - self.needed) / 6
        p = q + (1 - q) * q if self.reroll_failed else q
        return p * q if self.reroll_successful else p

    def __str__(self) -> str:
        return format_save(self.needed)


@dataclass(frozen=True)
class DieProgram:
    """What one Attack Dice does, from aiming to HP Loss."""

    requirement: AttackRequirement | None
    pre_rolls: tuple[int, ...] = ()
    reroll_failed: bool = False
    accursed: bool = False
    hits_per_success: int = 1
    auto_test: bool = False
    six_loss_multiplier: int = 1
    six_dire: bool = False
    six_ignores_armour: bool = False
    six_ignores_aegis: bool = False
    armour: SaveSpec = SaveSpec()
    aegis: SaveSpec = SaveSpec()
    loss_constant: int = 0
    loss_dice: DiceExpr | None = None
    loss_multiplier: int = 1
    volatile: DieProgram | None = None
    emergency_save: bool = False
    #: §10.4 custom cover's Cover Save (2-6 for 2+ to 6+), after Armour and AEGIS; a hit that
    #: ignores Armour Saves (Piercing Hit on a 6) ignores it too
    cover_save: int | None = None
    #: Precision 2+-6+ (Perks L3993-L4027, Auto Test): the last roll of an Attack Dice at least
    #: this lets the attacker choose the model that receives it (the game's allocation)
    precision: int | None = None


@dataclass(frozen=True)
class Retaliation:
    """Retaliate I/II of the target (§12.4): each HP lost in a Melee, a D6 on 4+ hits back."""

    armour: SaveSpec
    aegis: SaveSpec


@dataclass(frozen=True)
class WeaponUse:
    """A compiled weapon use: Attack Dice and their program, plus per-use effects."""

    weapon: str
    dice: int
    die: DieProgram
    against_self: bool = False
    gravity: bool = False
    deathblow: bool = False
    retaliation: Retaliation | None = None
    self_loss: int = 0
    self_save_dice: int = 0
    self_saves: tuple[SaveSpec, SaveSpec] = (SaveSpec(), SaveSpec())
    self_heal: int = 0
    notes: tuple[str, ...] = field(default=(), compare=False, hash=False)


# --------------------------------------------------------------------------------------------
# Deflect, Ward and Parry (§5.16)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SaveUpgrades:
    """The majority weapons a unit nominates to improve its Saves (§5.16)."""

    deflect: int = 0
    deflect_weapon: str | None = None
    aegis: int = 0
    aegis_weapon: str | None = None


_NO_UPGRADES = SaveUpgrades()


def save_upgrades(unit: UnitState, melee: bool) -> SaveUpgrades:
    """Nominate the best Deflect weapon and the best Ward/Parry weapon carried by at least half
    of the unit's models, not counting casualties (§5.16 steps 1-3)."""
    if not any(
        w.deflect > 0 or w.ward + (w.parry if melee else 0) > 0 for w in unit.weapons.values()
    ):
        return _NO_UPGRADES  # no weapon of the unit improves a Save: nothing to nominate
    living = [unit.models[i] for i in unit.alive]
    if not living:
        return SaveUpgrades()
    best_d: tuple[int, str | None] = (0, None)
    best_a: tuple[int, str | None] = (0, None)
    for name, w in unit.weapons.items():
        carriers = sum(1 for m in living if name in m.weapons)
        if 2 * carriers < len(living):
            continue
        if w.deflect > best_d[0]:
            best_d = (w.deflect, name)
        aegis = w.ward + (w.parry if melee else 0)
        if aegis > best_a[0]:
            best_a = (aegis, name)
    return SaveUpgrades(best_d[0], best_d[1], best_a[0], best_a[1])


def casualty_order(
    unit: UnitState,
    upgrades: SaveUpgrades,
    eligible: Sequence[int],
    preference: Sequence[int] = (),
) -> list[int]:
    """The order in which models of ``eligible`` take HP Loss (§5.12, §5.16 "Casualties with
    Deflect, Ward or Parry"): Illusions first (Perks L779 "When resolving casualties, any
    Illusions are removed before the User"), then wounded models, then models that upgraded
    both saves, then AEGIS, then Armour, then the rest. Within a group the controlling player
    chooses (§5.11): models in ``preference`` first, in that order, then roster order."""
    pref = {m: k for k, m in enumerate(preference)}

    def rank(i: int) -> tuple[int, int, int, int, int]:
        m = unit.models[i]
        wounded = 0 if 0 < m.hp < unit.profile.hp else 1
        a = upgrades.aegis_weapon is not None and upgrades.aegis_weapon in m.weapons
        d = upgrades.deflect_weapon is not None and upgrades.deflect_weapon in m.weapons
        group = 0 if (a and d) else 1 if a else 2 if d else 3
        return (0 if m.illusion else 1, wounded, group, pref.get(i, len(pref)), i)

    return sorted((i for i in eligible if unit.models[i].hp > 0), key=rank)


# --------------------------------------------------------------------------------------------
# Compiling a weapon use
# --------------------------------------------------------------------------------------------


@dataclass
class _Mod:
    value: int
    source: str
    enemy: bool = False


#: The ladder step of a 6+ (Stun, L2862).
_SIX = 5


def _better(a: AttackRequirement | None, b: AttackRequirement | None) -> AttackRequirement | None:
    """The stronger of two requirements (an automatic multiplier beats a roll)."""
    if a is None:
        return b
    if b is None:
        return a
    ka = (a.step, -a.multiplier)
    kb = (b.step, -b.multiplier)
    return a if ka <= kb else b


def _custom_cover_saves(
    armour: int | None, aegis: int | None, ctx: AttackContext, notes: list[str]
) -> tuple[int | None, int | None]:
    """Custom cover's save steps (§10.4): within 2+ to 6+; a unit without the save gains none."""
    out = []
    for name, save, steps in (
        ("Armour", armour, ctx.cover_armour),
        ("AEGIS", aegis, ctx.cover_aegis),
    ):
        if save is not None and steps:
            new = max(2, min(6, save - steps))
            notes.append(f"{name} {save}+ → {new}+ from custom cover (§10.4)")
            save = new
        out.append(save)
    return out[0], out[1]


def _compile_saves(
    target: UnitState,
    weapon_ap: int | None,
    wperks: PerkSet,
    ctx: AttackContext,
    rolls: _PerUseRolls,
    notes: list[str],
) -> tuple[SaveSpec, SaveSpec]:
    tperks = target.perks
    up = save_upgrades(target, ctx.melee)
    armour = target.profile.armour
    aegis = target.profile.aegis
    # §5.16: Deflect, Ward and Parry apply before AP and Save modifiers; never better than 2+.
    if armour is not None and up.deflect:
        new = max(2, armour - up.deflect)
        notes.append(f"Armour {armour}+ → {new}+ from Deflect +{up.deflect} ({up.deflect_weapon})")
        armour = new
    if aegis is not None and up.aegis:
        new = max(2, aegis - up.aegis)
        notes.append(f"AEGIS {aegis}+ → {new}+ from Ward/Parry +{up.aegis} ({up.aegis_weapon})")
        aegis = new
    custom = (ctx.cover_armour or ctx.cover_aegis) and ctx.cover and not ctx.melee
    if custom and not wperks.has("Ignore Cover"):
        armour, aegis = _custom_cover_saves(armour, aegis, ctx, notes)
    negate = wperks.has("Negate AEGIS")
    armour_pierced = False
    aegis_pierced = False
    if weapon_ap is not None:
        if negate:
            if aegis is not None and weapon_ap <= aegis:
                aegis_pierced = True
                notes.append(f"AP {weapon_ap}+ ignores AEGIS {aegis}+ (Negate AEGIS)")
        elif armour is not None and weapon_ap <= armour:
            armour_pierced = True
            notes.append(f"AP {weapon_ap}+ ignores Armour {armour}+ (§5.10)")
    a_needed: int | None = None if armour_pierced else armour
    if a_needed is not None:
        if wperks.has("Rend") and a_needed < 4:
            notes.append(f"Armour {a_needed}+ → 4+ from Rend")
            a_needed = 4
        modifier = wperks.rank("Penetrate")
        if modifier:
            notes.append(f"Armour Save -{modifier} from Penetrate")
        puncture = rolls.puncture()
        if puncture:
            notes.append(f"Armour Save -{puncture} from Puncture (rolled)")
            modifier += puncture
        if modifier:
            a_needed += modifier
            if a_needed > 6:  # §5.10 Save Dice Modifiers: worse than 6+ cannot be used
                a_needed = None
    g_needed: int | None = None if aegis_pierced else aegis
    rupture = wperks.rank("Rupture")
    nightmare = tperks.has(SUCCESSFUL_SAVES_REROLLED)  # Nightmare Anomaly's 3 (Perks L4354)
    a_spec = SaveSpec(a_needed, tperks.has("Reinforced"), rupture >= 1 or nightmare)
    g_spec = SaveSpec(g_needed, tperks.has("Resilient"), rupture >= 2 or nightmare)
    return a_spec, g_spec


def _self_saves(
    unit: UnitState, melee: bool, ignore_armour: bool = False
) -> tuple[SaveSpec, SaveSpec]:
    """The Saves a unit rolls against Retaliate or Darkside; Deflect, Ward and Parry apply
    whenever the unit rolls Armour or AEGIS Saves (§5.16)."""
    p = unit.perks
    up = save_upgrades(unit, melee)
    armour = None if ignore_armour else unit.profile.armour
    aegis = unit.profile.aegis
    if armour is not None and up.deflect:
        armour = max(2, armour - up.deflect)
    if aegis is not None and up.aegis:
        aegis = max(2, aegis - up.aegis)
    return (
        SaveSpec(armour, p.has("Reinforced")),
        SaveSpec(aegis, p.has("Resilient")),
    )


class _PerUseRolls:
    """Rolls made once per weapon use, rolled when first needed and then shared, also by the
    Volatile self-attack (§12.1: "all Users share the same result")."""

    def __init__(self, dice: Dice, wperks: PerkSet) -> None:
        self._dice = dice
        self._wperks = wperks
        self._cache: dict[str, int] = {}

    def _get(self, name: str, expr: DiceExpr) -> int:
        if name not in self._cache:
            self._cache[name] = self._dice.roll(expr, name)
        return self._cache[name]

    def destroy(self) -> int:
        """Destroy I/II/III: D6/2D6/3D6 HP per unsaved hit, rolled once per use (§12.5)."""
        rank = self._wperks.rank("Destroy")
        return self._get("Destroy", DiceExpr(rank, 6)) if rank else 0

    def puncture(self) -> int:
        """Puncture I/II: -D3/-D6 to the Armour Save, rolled once per use (§12.5)."""
        rank = self._wperks.rank("Puncture")
        return self._get("Puncture", D3 if rank == 1 else D6) if rank else 0


def _victim_program(
    attacker: UnitState,
    victim: UnitState,
    *,
    power: int,
    ap: int | None,
    wtype: WeaponType,
    wperks: PerkSet,
    ctx: AttackContext,
    rolls: _PerUseRolls,
    reroll_failed: bool,
    own_unit: bool,
    volatile: DieProgram | None,
    notes: list[str],
) -> tuple[DieProgram, bool]:
    """The Attack Dice program of a weapon with final stats against ``victim``: Defence, the
    chart, Dice Modifiers, Saves and HP Loss (§5.6-5.10, §12.1). Returns the program and
    whether a Damage X+ set roll applies (which lets Power 0 weapons roll)."""
    vperks = victim.perks
    aperks = attacker.perks

    # -- Defence ----------------------------------------------------------------------------
    defence = victim.profile.defence
    ignore_cover = wperks.has("Ignore Cover")
    in_cover = ctx.cover and not ctx.melee and not own_unit
    if in_cover and ignore_cover:
        notes.append("Cover ignored (Ignore Cover)")
        in_cover = False
    if in_cover:
        notes.append(f"Defence {defence} → {defence + ctx.cover_bonus} from Cover Bonus (§5.6)")
        defence += ctx.cover_bonus
        cover_rank = vperks.rank("Cover")
        if cover_rank:
            notes.append(
                f"Defence {defence} → {defence + cover_rank} from Cover {'I' * cover_rank}"
            )
            defence += cover_rank
    if vperks.has("Barrier") and ctx.distance is not None and not own_unit:
        band = (
            3 if ctx.distance >= 36 else 2 if ctx.distance >= 24 else 1 if ctx.distance >= 12 else 0
        )
        if band:
            notes.append(f"Defence {defence} → {defence + band} from Barrier")
            defence += band

    # -- Chart, then Dice Modifiers (§5.7, §5.8) ----------------------------------------------
    chart = attack_requirement(power, defence)
    mods: list[_Mod] = []
    type_mods: list[_Mod] = []
    if ctx.engaged:
        if ctx.through_fire_points:
            notes.append("no Weapon Type modifiers from inside an engaged Transport (§6.9)")
        elif wtype is WeaponType.HEAVY:
            type_mods.append(_Mod(-2, "Heavy Weapon in a Melee (§5.8)"))
        elif wtype is WeaponType.BATTLE:
            type_mods.append(_Mod(-1, "Battle Weapon in a Melee (§5.8)"))
        if not ctx.melee:
            mods.append(_Mod(-1, "attacking out of a Melee (§5.8)"))
        if wperks.has("Cumbersome"):
            mods.append(_Mod(-1, "Cumbersome"))
    if ctx.target_engaged_elsewhere and not ctx.melee:
        mods.append(_Mod(-1, "attacking into a Melee (§5.8)"))
    aa = wperks.rank("Anti-Air")
    if aa:
        if ctx.target_airborne:
            mods.append(_Mod(+1, "Anti-Air"))
        elif aa == 1:
            mods.append(_Mod(-1, "Anti-Air I against a ground Target"))
    # Might and Defiance are Point Cost (Greater): "equal or higher" (P L321-323, ruling 27).
    greater = point_cost_met("Greater", ctx.attacker_point_cost, ctx.target_point_cost)
    might = wperks.rank("Might")
    if might and ctx.melee and greater:
        mods.append(_Mod(might, f"Might {'I' * might}"))
    if aperks.has("Defiance") and greater:
        mods.append(_Mod(+1, "Defiance"))
    # The target's defensive perks also work when a weapon turns on its own unit (Chaos 1,
    # Volatile): that unit is the Target (docs/rulings.md).
    if vperks.has("Evasive"):
        mods.append(_Mod(-1, "Evasive", enemy=not own_unit))
    if vperks.has("Shroud") and not ctx.melee:
        mods.append(_Mod(-1, "Shroud", enemy=not own_unit))
    if vperks.has("Dodge") and ctx.melee:
        mods.append(_Mod(-1, "Dodge", enemy=not own_unit))
    if vperks.has("Camouflage") and in_cover:
        mods.append(_Mod(-1, "Camouflage", enemy=not own_unit))
    mods.extend(_Mod(v, src, enemy=True) for v, src in ctx.status_modifiers)
    if ctx.target_out_of_sight and not ctx.melee and wperks.rank("No Line of Sight") == 1:
        # Perks L3961-3964: "-2 Dice Modifier to Attack Dice if the Target is not in line of
        # sight"; the Weapon's own penalty, not an enemy's (Stalwart keeps it)
        mods.append(_Mod(-2, "No Line of Sight I: Target not in line of sight"))
    all_mods = type_mods + mods
    if aperks.has("Stalwart"):
        dropped = [m for m in all_mods if m.enemy and m.value < 0]
        if dropped:
            notes.append("Stalwart ignores " + ", ".join(m.source for m in dropped))
        all_mods = [m for m in all_mods if not (m.enemy and m.value < 0)]
    if ctx.stunned:
        dropped = [m for m in all_mods if m.value > 0]
        if dropped:
            notes.append("Stun ignores " + ", ".join(m.source for m in dropped))
        all_mods = [m for m in all_mods if m.value <= 0]
    total_mod = sum(m.value for m in all_mods)
    requirement = chart.modified(total_mod) if chart is not None else None
    if chart is not None and requirement != chart:
        why = ", ".join(f"{m.source} {m.value:+d}" for m in all_mods if m.value)
        notes.append(f"Attack Dice {chart} → {requirement} from {why}")
    fixed = wperks.thresholds("Damage")
    if fixed:
        # §12.5 Damage X+: a set roll, worsened only by Weapon Type modifiers in a Melee.
        set_req = AttackRequirement(fixed[0] - 1).modified(sum(m.value for m in type_mods))
        best = _better(requirement, set_req)
        if best != requirement:
            notes.append(f"Attack Dice {requirement or '-'} → {best} from Damage {fixed[0]}+")
        requirement = best
    if ctx.stunned and requirement is not None and requirement.step < _SIX:
        # L2862: "all Attack Dice … require a 6 to succeed, unless it would be worse (such as
        # 6/4+ does not become 6)"; an automatic success (A, A x2) needs a 6 too.
        notes.append(f"Attack Dice {requirement} → 6+ from Stun")
        requirement = AttackRequirement(_SIX)

    pre_rolls = tuple(sorted(aperks.thresholds("Accuracy") + wperks.thresholds("Aim")))
    for t in aperks.thresholds("Accuracy"):
        notes.append(f"each Attack Dice first needs a {t}+ (Accuracy {t}+)")
    for t in wperks.thresholds("Aim"):
        notes.append(f"each Attack Dice first needs a {t}+ (Aim {t}+)")
    reroll_sources = [src for src, on in (
        ("Chaos 6", reroll_failed),
        ("Reroll Attack", wperks.has("Reroll Attack")),
        ("Focus", wperks.has("Focus") and ctx.stationary),
        ("Assassin", aperks.has("Assassin") and ctx.target_is_leader),
    ) if on]  # fmt: skip
    if reroll_sources:
        reroll_failed = True
        notes.append(f"failed Attack Dice are rerolled ({', '.join(reroll_sources)})")
    if aperks.has("Accursed"):
        notes.append("6s on the last Attack Dice roll are rerolled once (Accursed)")

    obliterate = {0: 1, 1: 5, 2: 10}[wperks.rank("Obliterate")]
    crit = wperks.rank("Critical Hit")
    piercing = wperks.rank("Piercing Hit")
    dire = wperks.has("Dire Hit")
    for on, text in (
        (crit, f"a 6 causes x{crit + 1} HP Loss (Critical Hit {'I' * crit})"),
        (dire, "a 6 causes D3 HP Loss (Dire Hit)"),
        (piercing == 1, "a 6 ignores Armour Saves (Piercing Hit I)"),
        (piercing >= 2, "a 6 ignores Armour and AEGIS Saves (Piercing Hit II)"),
        (volatile is not None, "each Attack Dice of 1 attacks the Wielder's unit (Volatile)"),
    ):
        if on:
            notes.append(text)
    # -- Saves -----------------------------------------------------------------------------
    armour, aegis = _compile_saves(victim, ap, wperks, ctx, rolls, notes)
    if obliterate > 1 and requirement is not None:
        notes.append(f"each successful Attack Dice x{obliterate} (Obliterate)")

    # -- HP Loss: increasers add, then multipliers (§12.1) ------------------------------------
    loss_constant = 0
    destroy = rolls.destroy()
    if destroy:
        loss_constant += destroy
        notes.append(f"each unsaved hit causes {destroy} HP Loss (Destroy, rolled)")
    multi_hp = victim.profile.hp >= 2
    loss_dice: DiceExpr | None = None
    dev = wperks.rank("Devastate")
    if dev and multi_hp:
        loss_dice = D3 if dev == 1 else D6
        notes.append(f"each unsaved hit causes {loss_dice} HP Loss (Devastate)")
    loss_mult = 1
    ann = wperks.rank("Annihilate")
    if ann and multi_hp:
        loss_mult *= ann + 1
        notes.append(f"HP Loss x{ann + 1} (Annihilate)")
    if vperks.has("Swarm"):
        mode = any(p in MODE_PERKS for p in wperks.names)
        has_arc = wperks.rank("Arc") > 0
        factor = 4 if (mode and has_arc) else 2 if (mode or has_arc) else 1
        if factor > 1:
            loss_mult *= factor
            notes.append(f"HP Loss x{factor} (Swarm)")

    precision = min(wperks.thresholds("Precision"), default=None)  # Perks L3993-L4027
    die = DieProgram(
        requirement=requirement,
        pre_rolls=pre_rolls,
        reroll_failed=reroll_failed,
        accursed=aperks.has("Accursed"),
        hits_per_success=(requirement.multiplier if requirement else 1) * obliterate,
        auto_test=bool(crit or piercing or dire or volatile is not None or precision),
        six_loss_multiplier=crit + 1 if crit else 1,
        six_dire=dire,
        six_ignores_armour=piercing >= 1,
        six_ignores_aegis=piercing >= 2,
        armour=armour,
        aegis=aegis,
        loss_constant=loss_constant,
        loss_dice=loss_dice,
        loss_multiplier=loss_mult,
        volatile=volatile,
        emergency_save=(
            ctx.emergency_save
            and not own_unit
            and vperks.has("Emergency Save")
            and not victim.emergency_save_used
        ),
        cover_save=ctx.cover_save if in_cover else None,
        precision=precision,
    )
    if die.cover_save is not None:
        notes.append(f"each hit that fails its Saves gets a {die.cover_save}+ Cover Save (§10.4)")
    if die.emergency_save:
        notes.append("the first hit that fails its Saves gets a 2+ Emergency Save")
    rerolls = [
        n
        for n, on in (("Reinforced", armour.reroll_failed), ("Resilient", aegis.reroll_failed))
        if on
    ]
    if rerolls:
        notes.append(f"failed Saves are rerolled ({', '.join(rerolls)})")
    if armour.reroll_successful:
        why = "Rupture " + ("II" if aegis.reroll_successful else "I")
        if vperks.has(SUCCESSFUL_SAVES_REROLLED):
            why = "Nightmare Anomaly"
        notes.append(f"successful Saves must be rerolled ({why})")
    return die, bool(fixed)


_RANK_DICE = {1: D3, 2: D6, 3: TWO_D6}  # +Power / +Attacks I (D3), II (D6), III (2D6), §12.5


def _ranked_roll(perks: PerkSet, base: str, dice: Dice) -> int:
    """Roll the bonus of ``base`` I/II/III once per weapon use (0 when the perk is absent)."""
    rank = perks.rank(base)
    if not rank:
        return 0
    expr = _RANK_DICE[rank]
    return dice.roll(expr, f"{base} {expr}")


def compile_weapon_use(
    attacker: UnitState,
    weapon: WeaponProfile,
    users: int,
    target: UnitState,
    ctx: AttackContext,
    dice: Dice,
) -> WeaponUse:
    """Apply every rule to one weapon profile used by ``users`` models against ``target``.

    The stat changes come first (additions before multiplications), then the Attack Dice Chart,
    then Dice Modifiers (Core §1.4, §5.7; Perks §12.1). Rolls made once per use are taken
    from ``dice`` in a fixed order so that the same seed always gives the same result.
    """
    notes: list[str] = []
    wperks = PerkSet(weapon.perks)
    aperks = attacker.perks
    tperks = target.perks

    def unused(reason: str) -> WeaponUse:
        notes.append(reason)
        return WeaponUse(weapon.name, 0, DieProgram(None), notes=tuple(notes))

    if users <= 0:
        return unused("no model can use the weapon")
    if wperks.has("Unwieldy") and ctx.engaged:
        return unused("Unwieldy: cannot be used while engaged in a Melee")

    if wperks.has("Darkside") and (ctx.darkside_power or ctx.darkside_attacks):
        # §12.5 Darkside: up to +3 Power and +3 Attacks, never risking more HP than it has.
        bought = ctx.darkside_power + ctx.darkside_attacks
        if not (0 <= ctx.darkside_power <= 3 and 0 <= ctx.darkside_attacks <= 3):
            raise RulesError(
                f"Darkside buys +0 to +3 Power and +0 to +3 Attacks, not "
                f"+{ctx.darkside_power} Power and +{ctx.darkside_attacks} Attacks",
                "Perks §12.5 Darkside",
            )
        if bought > attacker.current_hp:
            raise RulesError(
                f"Darkside risks {bought} HP but {attacker.profile.name} has "
                f"{attacker.current_hp} HP left",
                "Perks §12.5 Darkside",
            )
    power = weapon.power
    attacks = weapon.attacks
    ap = weapon.ap
    wtype = weapon.type
    self_loss = 0
    self_heal = 0
    reroll_failed = False
    attack_mult = 1
    wildcard = wperks.has("Wildcard")
    if wildcard:
        # §12.5 Wildcard: stats are rolled each use; no other Weapon Perk is usable.
        rng = dice.roll(DiceExpr(2, 6, multiplier=3), "Wildcard Range")
        power = dice.roll(TWO_D6, "Wildcard Power")
        attacks = dice.roll(TWO_D6, "Wildcard Attacks")
        ap_roll = dice.roll(D6, "Wildcard AP")
        ap = None if ap_roll == 1 else ap_roll
        wtype = WeaponType.BATTLE if dice.roll("D2", "Wildcard Type") == 1 else WeaponType.ASSAULT
        notes.append(
            f'Wildcard rolled Range {rng}", Power {power}, Attacks {attacks}, '
            f"AP {format_save(ap)}, {wtype.value}"
        )
        if not ctx.melee and ctx.distance is not None and ctx.distance > rng:
            return unused(f'Wildcard Range {rng}" does not reach {ctx.distance}"')
        wperks = PerkSet([])

    if wperks.has("Incantation"):
        test = dice.test(TestKind.AETHER, ctx.aether_modifier, "Incantation Aether Test")
        if test.backlash:
            self_loss += dice.roll(D6, "Incantation backlash")
            notes.append(f"Incantation: Aether 12, the User suffers {self_loss} HP Loss (no Saves)")
        if not test.passed:
            use = unused(f"Incantation: Aether Test failed ({test.roll})")
            return WeaponUse(use.weapon, 0, use.die, self_loss=self_loss, notes=use.notes)
        if test.doubled:
            attack_mult *= 2
            notes.append("Incantation: double 1, Attacks doubled")

    against_self = False
    if wperks.has("Chaos"):
        chaos = dice.roll(D6, "Chaos")
        if chaos == 1:
            against_self = True
            notes.append("Chaos 1: the Weapon targets the Wielder's own unit")
        elif chaos == 2:
            return unused("Chaos 2: the Weapon counts as used but does nothing")
        elif chaos == 3:
            attacks += 2
            notes.append("Chaos 3: +2 Attacks")
        elif chaos == 4:
            power += 3
            notes.append("Chaos 4: +3 Power")
        elif chaos == 5:
            self_heal = 3
            notes.append("Chaos 5: the User recovers 3 HP")
        else:
            attacks += 1
            power += 2
            reroll_failed = True
            notes.append("Chaos 6: +1 Attack, +2 Power, reroll failed Attack Dice")

    # -- Power: additions (no class-A perk multiplies Power) --------------------------------
    bonus = _ranked_roll(wperks, "+Power", dice)
    if bonus:
        notes.append(f"Power {power} → {power + bonus} from +Power (rolled {bonus})")
        power += bonus
    if ctx.darkside_power and wperks.has("Darkside"):
        notes.append(f"Power {power} → {power + ctx.darkside_power} from Darkside")
        power += ctx.darkside_power
    if aperks.has("Outflank") and ctx.melee and ctx.outflank:
        notes.append(f"Power {power} → {power + 2} from Outflank")
        power += 2
    impact = wperks.rank("Impact")
    if impact and weapon.range >= 18 and ctx.within_half_range:
        notes.append(f"Power {power} → {power + impact} from Impact")
        power += impact

    # -- Attacks: additions then multiplications (§12.1 Damage Increasers) -----------------
    if wperks.has("Clash") and ctx.first_use_after_engaging:
        attacks += 1
        notes.append("Attacks +1 from Clash")
    bonus = _ranked_roll(wperks, "+Attacks", dice)
    if bonus:
        notes.append(f"Attacks {attacks} → {attacks + bonus} from +Attacks (rolled {bonus})")
        attacks += bonus
    arc = wperks.rank("Arc")
    if arc:
        count = len(target.on_table if ctx.playstyle is Playstyle.STANDARD else target.alive)
        need, expr = {1: (5, D3), 2: (10, D6), 3: (20, TWO_D6)}[arc]
        if count >= need:
            bonus = dice.roll(expr, f"Arc {expr}")
            notes.append(f"Attacks {attacks} → {attacks + bonus} from Arc ({count} models)")
            attacks += bonus
    if ctx.darkside_attacks and wperks.has("Darkside"):
        attacks += ctx.darkside_attacks
        notes.append(f"Attacks +{ctx.darkside_attacks} from Darkside")
    if wperks.has("xD3 Attacks"):
        k = dice.roll(D3, "xD3 Attacks")
        notes.append(f"Attacks {attacks} → {attacks * k} from xD3 Attacks (rolled {k})")
        attacks *= k
    if wperks.has("xD6 Attacks"):
        k = dice.roll(D6, "xD6 Attacks")
        notes.append(f"Attacks {attacks} → {attacks * k} from xD6 Attacks (rolled {k})")
        attacks *= k
    if wperks.has("Burst") and ctx.burst:
        attack_mult *= 2
        notes.append("Attacks doubled by Burst")
    if wperks.has("Rapid") and weapon.range >= 18 and ctx.within_half_range:
        attack_mult *= 2
        notes.append("Attacks doubled by Rapid (within half Range)")
    attacks *= attack_mult
    if ctx.melee_bonus_attacks and ctx.melee:
        # Bloodthirsty (L4272): "+1 to Attack to all Weapons while in a Melee, which is applied
        # after all other Perks".
        attacks += ctx.melee_bonus_attacks
        notes.append(f"Attacks +{ctx.melee_bonus_attacks} from Bloodthirsty (in a Melee)")

    # -- AP ---------------------------------------------------------------------------------
    ap_rank = wperks.rank("+AP")
    if ap_rank:
        k = dice.roll(D3 if ap_rank == 1 else D6, "+AP")
        new_ap = max(2, (7 if ap is None else ap) - k)
        notes.append(f"AP {format_save(ap)} → {new_ap}+ from +AP (rolled {k})")
        ap = new_ap

    # Rolls made once per use are shared by the Volatile self-attack (§12.1).
    rolls = _PerUseRolls(dice, wperks)
    victim = attacker if against_self else target
    volatile_program: DieProgram | None = None
    if wperks.has("Volatile"):
        # §12.5 Volatile: a new Attack Dice against the Wielder's own unit, "referring to
        # Weapon Power, AP and Perks as normal" - this use's stats and rolls.
        volatile_program, _ = _victim_program(
            attacker,
            attacker,
            power=power,
            ap=ap,
            wtype=wtype,
            ctx=AttackContext(melee=ctx.melee, attacker_engaged=ctx.engaged, emergency_save=False),
            rolls=rolls,
            wperks=PerkSet(n for n in wperks.names if n != "volatile"),
            reroll_failed=reroll_failed,
            own_unit=True,
            volatile=None,
            notes=[],
        )
    die, fixed = _victim_program(
        attacker,
        victim,
        power=power,
        ap=ap,
        wtype=wtype,
        ctx=ctx,
        rolls=rolls,
        wperks=wperks,
        reroll_failed=reroll_failed,
        own_unit=against_self,
        volatile=volatile_program,
        notes=notes,
    )
    requirement = die.requirement
    tperks = target.perks

    retaliation = None
    ret = tperks.rank("Retaliate")
    if ret and ctx.melee and not against_self:
        a, g = _self_saves(attacker, ctx.melee, ignore_armour=ret >= 2)
        retaliation = Retaliation(a, g)
    darkside = (ctx.darkside_power + ctx.darkside_attacks) if wperks.has("Darkside") else 0
    deathblow = (
        wperks.has("Deathblow")
        and not against_self
        and target.immortal_left is None  # Immortal: "also immune to Deathblow" (L1541)
        and point_cost_met("Lesser", ctx.attacker_point_cost, ctx.target_point_cost)
    )
    n_dice = users * attacks if requirement is not None or fixed else 0
    if ctx.struck_dice is not None:  # Furious (L2003): failed dice "counting as successful"
        die = replace(
            die,
            requirement=AttackRequirement(0),
            pre_rolls=(),
            reroll_failed=False,
            accursed=False,
            hits_per_success=1,
            volatile=None,  # the Wielder's own Volatile dice were rolled with the use
            auto_test=die.six_loss_multiplier > 1
            or die.six_dire
            or die.six_ignores_armour
            or die.six_ignores_aegis,  # §12.2 Auto Test: a 6 still Critical/Piercing/Dire
        )
        n_dice = max(0, ctx.struck_dice)
        notes.append(f"{n_dice} Attack Dice count as successful (Furious)")
    return WeaponUse(
        weapon=weapon.name,
        dice=n_dice,
        die=die,
        against_self=against_self,
        gravity=wperks.has("Gravity") and not against_self,
        deathblow=deathblow,
        retaliation=retaliation,
        self_loss=self_loss,
        self_save_dice=darkside,
        self_saves=_self_saves(attacker, ctx.melee),
        self_heal=self_heal,
        notes=tuple(notes),
    )


#: the fields :class:`AttackContext`'s equality compares, in its order, and where the four
#: :func:`compile_key` rewrites are among them
_CONTEXT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(AttackContext) if f.compare)
_DISTANCE, _LOS_MODELS, _U_COST, _T_COST = (
    _CONTEXT_FIELDS.index(name)
    for name in ("distance", "los_models", "attacker_point_cost", "target_point_cost")
)


def compile_key(
    attacker: UnitState,
    weapon: WeaponProfile,
    users: int,
    target: UnitState,
    ctx: AttackContext,
) -> tuple[object, ...]:
    """Everything :func:`compile_weapon_use` reads besides its dice, as a key of its answer.

    The profiles and the weapon are kept by identity (a memo must hold them, so an id stays
    theirs); the unit states by what the compiler reads of them: the Deflect, Ward and Parry
    nominations of each (``save_upgrades``: the living models and the weapons they carry), the
    models Arc counts (§12.5), the Target's Emergency Save and Immortal (Deathblow, L1541), and
    the attacker's HP when Darkside buys Power or Attacks (the compiler refuses more than it
    has). The context is compared whole (statuses' Dice Modifiers, cover, Melee, …), but for
    what a use that rolls nothing reads of it: the distance only by Barrier's bands (12", 24",
    36"; Wildcard, which reads it whole, rolls), the Point Costs only by which is greater
    (``point_cost_met``: Might, Defiance, Deathblow), and not the models in sight; the models
    Arc counts likewise only by its bands (5, 10, 20: Arc rolls once they are reached).
    """
    counted = len(target.on_table if ctx.playstyle is Playstyle.STANDARD else target.alive)
    darkside = attacker.current_hp if (ctx.darkside_power or ctx.darkside_attacks) else -1
    d = ctx.distance
    band = None if d is None else 36.0 if d >= 36 else 24.0 if d >= 24 else 12.0 if d >= 12 else 0.0
    u, t = ctx.attacker_point_cost, ctx.target_point_cost
    cu: float | None = None
    ct: float | None = None
    if u is not None and t is not None and u == u and t == t:  # both known (not NaN)
        cu, ct = 0.0, (1.0 if t > u else -1.0 if t < u else 0.0)
    # the context's fields as its equality compares them (``replace`` cost more than the
    # rest of the key), with the distance's band, no models in sight and the costs' order
    seen = [getattr(ctx, name) for name in _CONTEXT_FIELDS]
    seen[_DISTANCE], seen[_LOS_MODELS], seen[_U_COST], seen[_T_COST] = band, None, cu, ct
    return (
        id(attacker.profile),
        save_upgrades(attacker, ctx.melee),
        id(weapon),
        users,
        id(target.profile),
        save_upgrades(target, ctx.melee),
        20 if counted >= 20 else 10 if counted >= 10 else 5 if counted >= 5 else 0,
        target.emergency_save_used,
        target.immortal_left is None,
        darkside,
        tuple(seen),
    )


# --------------------------------------------------------------------------------------------
# Sampling interpreter: physical dice, vectorised
# --------------------------------------------------------------------------------------------


@dataclass
class DiceOutcome:
    """Per-trial totals from sampling a die program over many Attack Dice."""

    successes: IntArray
    hits: IntArray
    target_loss: IntArray
    self_loss: IntArray
    emergency_spent: BoolArray
    #: the part of ``target_loss`` from Attack Dice whose last roll met Precision (L3993)
    precision_loss: IntArray


def _save_rolls(spec: SaveSpec, n: int, dice: Dice, label: str) -> BoolArray:
    """Roll ``n`` Saves with their rerolls; True where the Save succeeded."""
    if spec.needed is None or n == 0:
        return np.zeros(n, dtype=np.bool_)
    faces = dice.d6_array(n, label)
    ok = faces >= spec.needed
    if spec.reroll_failed:
        idx = np.flatnonzero(~ok)
        if idx.size:
            ok[idx] = dice.d6_array(idx.size, f"{label} reroll failed") >= spec.needed
    if spec.reroll_successful:
        idx = np.flatnonzero(ok)
        if idx.size:
            ok[idx] = dice.d6_array(idx.size, f"{label} reroll successful") >= spec.needed
    return ok


def _attack_rolls(
    prog: DieProgram, n: int, dice: Dice
) -> tuple[BoolArray, BoolArray, BoolArray, BoolArray]:
    """Roll ``n`` Attack Dice: (success, final six, final one, final roll at least the
    Precision threshold) per die."""
    req = prog.requirement
    success = np.zeros(n, dtype=np.bool_)
    six = np.zeros(n, dtype=np.bool_)
    one = np.zeros(n, dtype=np.bool_)
    prec = np.zeros(n, dtype=np.bool_)
    if req is None or n == 0:
        return success, six, one, prec
    active = np.ones(n, dtype=np.bool_)
    for t in prog.pre_rolls:  # Accuracy / Aim: a roll before the Attack Dice (§12.4, §12.5)
        idx = np.flatnonzero(active)
        if idx.size:
            active[idx] = dice.d6_array(idx.size, f"Aim {t}+") >= t
    if req.automatic:
        success[:] = active
        if prog.auto_test:  # §12.2 Auto Test: roll anyway for the Perk's effect
            idx = np.flatnonzero(active)
            if idx.size:
                faces = dice.d6_array(idx.size, "Auto Test")
                six[idx] = faces == 6
                one[idx] = faces == 1
                if prog.precision is not None:
                    prec[idx] = faces >= prog.precision
        return success, six, one, prec

    def attempt(idx: IntArray, label: str) -> None:
        alive = idx
        thresholds = req.thresholds
        for stage, t in enumerate(thresholds):
            if not alive.size:
                return
            faces = dice.d6_array(alive.size, label if stage == 0 else f"{label} {stage + 1}")
            final = stage == len(thresholds) - 1
            if final and prog.accursed:  # Accursed rerolls 6s on the final roll, once
                sixes = np.flatnonzero(faces == 6)
                if sixes.size:
                    faces[sixes] = dice.d6_array(sixes.size, "Accursed reroll")
            one[alive] = faces == 1
            if final:
                success[alive] = faces >= t
                six[alive] = faces == 6
                if prog.precision is not None:
                    prec[alive] = faces >= prog.precision
            else:
                success[alive] = False
                six[alive] = False
                prec[alive] = False
                alive = alive[faces >= t]

    first = np.flatnonzero(active)
    attempt(first, "Attack Dice")
    if prog.reroll_failed:
        failed = first[~success[first]]
        if failed.size:
            one[failed] = False
            attempt(failed, "Attack Dice reroll failed")
    return success, six, one, prec


#: Up to this many Attack Dice, one trial of :func:`sample_dice` is rolled die by die in
#: plain Python (:func:`_sample_one`): the same draws, fewer NumPy calls (issue 10)
_SCALAR_DICE = 64


def sample_dice(prog: DieProgram, n: int, dice: Dice, trials: int = 1) -> DiceOutcome:
    """Roll ``trials`` independent batches of ``n`` Attack Dice through ``prog``."""
    if trials == 1 and n <= _SCALAR_DICE:
        return _sample_one(prog, n, dice)
    total = n * trials
    trial_of = np.repeat(np.arange(trials, dtype=np.int64), n)
    success, six, one, prec = _attack_rolls(prog, total, dice)
    per_die_hits = np.where(success, prog.hits_per_success, 0).astype(np.int64)
    hit_die = np.repeat(np.arange(total, dtype=np.int64), per_die_hits)
    hit_six = six[hit_die]
    nh = hit_die.size
    # Armour, then AEGIS for those that failed (§5.10); Piercing Hit skips them on a 6.
    armour_ok = np.zeros(nh, dtype=np.bool_)
    roll_armour = np.flatnonzero(~hit_six) if prog.six_ignores_armour else np.arange(nh)
    armour_ok[roll_armour] = _save_rolls(prog.armour, roll_armour.size, dice, "Armour Save")
    failed = ~armour_ok
    if prog.six_ignores_aegis:
        failed_idx = np.flatnonzero(failed & ~hit_six)
    else:
        failed_idx = np.flatnonzero(failed)
    aegis_ok = np.zeros(nh, dtype=np.bool_)
    aegis_ok[failed_idx] = _save_rolls(prog.aegis, failed_idx.size, dice, "AEGIS Save")
    unsaved = failed & ~aegis_ok
    if prog.cover_save is not None:  # §10.4: custom cover's Cover Save, after AEGIS
        c_idx = np.flatnonzero(unsaved & ~hit_six) if prog.six_ignores_armour else None
        if c_idx is None:
            c_idx = np.flatnonzero(unsaved)
        if c_idx.size:
            covered = dice.d6_array(c_idx.size, "Cover Save") >= prog.cover_save
            unsaved[c_idx[covered]] = False
    hit_trial = trial_of[hit_die]
    spent = np.zeros(trials, dtype=np.bool_)
    if prog.emergency_save:
        idx = np.flatnonzero(unsaved)
        if idx.size:
            _, first_pos = np.unique(hit_trial[idx], return_index=True)
            firsts = idx[first_pos]
            saved = dice.d6_array(firsts.size, "Emergency Save") >= 2
            spent[hit_trial[firsts]] = True
            unsaved[firsts[saved]] = False
    u_idx = np.flatnonzero(unsaved)
    loss = np.full(u_idx.size, prog.loss_constant, dtype=np.int64)
    if prog.loss_dice is not None and u_idx.size:
        loss += _roll_expr_array(prog.loss_dice, u_idx.size, dice, "HP Loss dice")
    if prog.six_dire:
        sixes = np.flatnonzero(hit_six[u_idx])
        if sixes.size:
            loss[sixes] += _roll_expr_array(D3, sixes.size, dice, "Dire Hit")
    loss[loss == 0] = 1  # no increaser: 1 HP per unsaved hit
    loss *= prog.loss_multiplier
    if prog.six_loss_multiplier > 1:
        loss[hit_six[u_idx]] *= prog.six_loss_multiplier
    target_loss = np.bincount(hit_trial[u_idx], weights=loss, minlength=trials).astype(np.int64)
    p_idx = np.flatnonzero(prec[hit_die][u_idx]) if prog.precision is not None else u_idx[:0]
    precision_loss = np.bincount(
        hit_trial[u_idx][p_idx], weights=loss[p_idx], minlength=trials
    ).astype(np.int64)
    self_loss = np.zeros(trials, dtype=np.int64)
    if prog.volatile is not None:
        v_idx = np.flatnonzero(one)
        if v_idx.size:
            sub = sample_dice(prog.volatile, 1, dice, trials=v_idx.size)
            self_loss += np.bincount(
                trial_of[v_idx], weights=sub.target_loss, minlength=trials
            ).astype(np.int64)
    successes = np.bincount(trial_of[success], minlength=trials).astype(np.int64)
    hits = np.bincount(hit_trial, minlength=trials).astype(np.int64)
    return DiceOutcome(successes, hits, target_loss, self_loss, spent, precision_loss)


def _faces(dice: Dice, n: int, label: str) -> list[int]:
    """``dice.d6_array(n, label)`` (the very batch, logged), as Python ints."""
    out: list[int] = dice.d6_array(n, label).tolist()
    return out


def _save_list(spec: SaveSpec, n: int, dice: Dice, label: str) -> list[bool]:
    """:func:`_save_rolls` as a list: the same batches of the dice, in the same order."""
    needed = spec.needed
    if needed is None or n == 0:
        return [False] * n
    ok = [f >= needed for f in _faces(dice, n, label)]
    if spec.reroll_failed:
        idx = [k for k in range(n) if not ok[k]]
        if idx:
            for k, f in zip(idx, _faces(dice, len(idx), f"{label} reroll failed"), strict=True):
                ok[k] = f >= needed
    if spec.reroll_successful:
        idx = [k for k in range(n) if ok[k]]
        if idx:
            for k, f in zip(idx, _faces(dice, len(idx), f"{label} reroll successful"), strict=True):
                ok[k] = f >= needed
    return ok


def _attack_list(
    prog: DieProgram, n: int, dice: Dice
) -> tuple[list[bool], list[bool], list[bool], list[bool]]:
    """:func:`_attack_rolls` as lists: the same batches of the dice, in the same order."""
    req = prog.requirement
    success, six, one, prec = [False] * n, [False] * n, [False] * n, [False] * n
    if req is None or n == 0:
        return success, six, one, prec
    precision = prog.precision
    active = [True] * n
    for t in prog.pre_rolls:  # Accuracy / Aim: a roll before the Attack Dice (§12.4, §12.5)
        idx = [i for i in range(n) if active[i]]
        if idx:
            for i, f in zip(idx, _faces(dice, len(idx), f"Aim {t}+"), strict=True):
                active[i] = f >= t
    if req.automatic:
        success = list(active)
        if prog.auto_test:  # §12.2 Auto Test: roll anyway for the Perk's effect
            idx = [i for i in range(n) if active[i]]
            if idx:
                for i, f in zip(idx, _faces(dice, len(idx), "Auto Test"), strict=True):
                    six[i] = f == 6
                    one[i] = f == 1
                    if precision is not None:
                        prec[i] = f >= precision
        return success, six, one, prec
    thresholds = req.thresholds
    last = len(thresholds) - 1

    def attempt(alive: list[int], label: str) -> None:
        for stage, t in enumerate(thresholds):
            if not alive:
                return
            rolled = dice.d6_array(len(alive), label if stage == 0 else f"{label} {stage + 1}")
            faces: list[int] = rolled.tolist()
            if stage == last and prog.accursed:  # Accursed rerolls 6s on the final roll, once
                sixes = [k for k, f in enumerate(faces) if f == 6]
                if sixes:
                    # into the logged batch too, as the vectorised path writes its faces
                    rolled[sixes] = dice.d6_array(len(sixes), "Accursed reroll")
                    faces = rolled.tolist()
            for i, f in zip(alive, faces, strict=True):
                one[i] = f == 1
                if stage == last:
                    success[i] = f >= t
                    six[i] = f == 6
                    if precision is not None:
                        prec[i] = f >= precision
                else:
                    success[i] = six[i] = prec[i] = False
            if stage != last:
                alive = [i for i, f in zip(alive, faces, strict=True) if f >= t]

    first = [i for i in range(n) if active[i]]
    attempt(first, "Attack Dice")
    if prog.reroll_failed:
        failed = [i for i in first if not success[i]]
        if failed:
            for i in failed:
                one[i] = False
            attempt(failed, "Attack Dice reroll failed")
    return success, six, one, prec


def _sample_one(prog: DieProgram, n: int, dice: Dice) -> DiceOutcome:
    """:func:`sample_dice` of one trial, die by die in plain Python: every batch of the dice
    is the one the vectorised path asks for (the same counts and labels, in the same order),
    and the totals are its totals (issue 10: one Attack's handful of dice cost more in NumPy
    calls than in arithmetic)."""
    successes, hits, target_loss, self_loss, spent, precision_loss = sample_one_ints(prog, n, dice)

    def arr(v: int) -> IntArray:
        return np.array([v], dtype=np.int64)

    return DiceOutcome(
        arr(successes),
        arr(hits),
        arr(target_loss),
        arr(self_loss),
        np.array([spent], dtype=np.bool_),
        arr(precision_loss),
    )


def sample_one_ints(prog: DieProgram, n: int, dice: Dice) -> tuple[int, int, int, int, bool, int]:
    """One trial of :func:`sample_dice` as plain ints: successes, hits, target loss, self loss,
    whether the Emergency Save was spent, precision loss (the very dice of the vectorised path;
    up to :data:`_SCALAR_DICE` dice die by die, more through the arrays). The attack
    sequence's one trial (``odds._run_one``) reads them without arrays (issue 10)."""
    if n > _SCALAR_DICE:
        o = sample_dice(prog, n, dice)
        return (
            int(o.successes[0]),
            int(o.hits[0]),
            int(o.target_loss[0]),
            int(o.self_loss[0]),
            bool(o.emergency_spent[0]),
            int(o.precision_loss[0]),
        )
    success, six, one, prec = _attack_list(prog, n, dice)
    hits_per = prog.hits_per_success
    hit_die = [i for i in range(n) if success[i] for _ in range(hits_per)]
    hit_six = [six[i] for i in hit_die]
    nh = len(hit_die)
    # Armour, then AEGIS for those that failed (§5.10); Piercing Hit skips them on a 6.
    armour_ok = [False] * nh
    roll = [k for k in range(nh) if not hit_six[k]] if prog.six_ignores_armour else range(nh)
    for k, ok in zip(roll, _save_list(prog.armour, len(roll), dice, "Armour Save"), strict=True):
        armour_ok[k] = ok
    failed = [not ok for ok in armour_ok]
    if prog.six_ignores_aegis:
        failed_idx = [k for k in range(nh) if failed[k] and not hit_six[k]]
    else:
        failed_idx = [k for k in range(nh) if failed[k]]
    aegis = _save_list(prog.aegis, len(failed_idx), dice, "AEGIS Save")
    unsaved = list(failed)
    for k, ok in zip(failed_idx, aegis, strict=True):
        unsaved[k] = not ok
    if prog.cover_save is not None:  # §10.4: custom cover's Cover Save, after AEGIS
        if prog.six_ignores_armour:
            c_idx = [k for k in range(nh) if unsaved[k] and not hit_six[k]]
        else:
            c_idx = [k for k in range(nh) if unsaved[k]]
        if c_idx:
            for k, f in zip(c_idx, _faces(dice, len(c_idx), "Cover Save"), strict=True):
                if f >= prog.cover_save:
                    unsaved[k] = False
    spent = False
    if prog.emergency_save:
        idx = [k for k in range(nh) if unsaved[k]]
        if idx:  # one trial: its first unsaved hit
            saved = _faces(dice, 1, "Emergency Save")[0] >= 2
            spent = True
            if saved:
                unsaved[idx[0]] = False
    u_idx = [k for k in range(nh) if unsaved[k]]
    loss = [prog.loss_constant] * len(u_idx)
    if prog.loss_dice is not None and u_idx:
        extra = _roll_expr_array(prog.loss_dice, len(u_idx), dice, "HP Loss dice").tolist()
        loss = [a + b for a, b in zip(loss, extra, strict=True)]
    if prog.six_dire:
        sixes = [j for j, k in enumerate(u_idx) if hit_six[k]]
        if sixes:
            dire = _roll_expr_array(D3, len(sixes), dice, "Dire Hit").tolist()
            for j, v in zip(sixes, dire, strict=True):
                loss[j] += v
    mult, six_mult = prog.loss_multiplier, prog.six_loss_multiplier
    loss = [(v if v != 0 else 1) * mult for v in loss]  # no increaser: 1 HP per unsaved hit
    if six_mult > 1:
        loss = [v * six_mult if hit_six[k] else v for v, k in zip(loss, u_idx, strict=True)]
    target_loss = sum(loss)
    precision_loss = 0
    if prog.precision is not None:
        precision_loss = sum(v for v, k in zip(loss, u_idx, strict=True) if prec[hit_die[k]])
    self_loss = 0
    if prog.volatile is not None:
        ones = sum(one)
        if ones:
            sub = sample_dice(prog.volatile, 1, dice, trials=ones)
            self_loss = int(sub.target_loss.sum())
    return sum(success), nh, target_loss, self_loss, spent, precision_loss


def _roll_expr_array(expr: DiceExpr, n: int, dice: Dice, label: str) -> IntArray:
    faces = dice.d6_array(n * expr.count, label).reshape(n, expr.count)
    if expr.sides == 3:
        faces = (faces + 1) // 2
    elif expr.sides == 2:
        faces = (faces + 2) // 3
    total: IntArray = ((faces.sum(axis=1) + expr.bonus) * expr.multiplier).astype(np.int64)
    return total


@overload
def sample_self_saves(use: WeaponUse, dice: Dice) -> int: ...
@overload
def sample_self_saves(use: WeaponUse, dice: Dice, trials: int) -> IntArray: ...
def sample_self_saves(use: WeaponUse, dice: Dice, trials: int | None = None) -> int | IntArray:
    """Darkside: each +1 bought forces the User to pass Saves or lose 1 HP (§12.5).

    With ``trials``, the HP lost in each of that many independent uses (vectorised).
    """
    n = use.self_save_dice
    many = 1 if trials is None else trials
    lost = np.zeros(many, dtype=np.int64)
    if n:
        a, g = use.self_saves
        ok = _save_rolls(a, n * many, dice, "Darkside Armour Save")
        failed = np.flatnonzero(~ok)
        ok2 = _save_rolls(g, failed.size, dice, "Darkside AEGIS Save")
        lost = np.bincount(failed[~ok2] // n, minlength=many).astype(np.int64)
    return int(lost[0]) if trials is None else lost


# --------------------------------------------------------------------------------------------
# Post-weapon effects that depend on the target's current HP
# --------------------------------------------------------------------------------------------


def gravity_after(current_hp: int, sixes: int) -> int:
    """Gravity (§12.5): each 6 halves the Target's current HP, rounding up, losing at least 1."""
    hp = current_hp
    for _ in range(sixes):
        if hp <= 0:
            break
        hp = min(hp - 1, math.ceil(hp / 2))
    return hp


def deathblow_after(current_hp: int, roll: int) -> int:
    """Deathblow (§12.5): 2D6 of 9+ halves current HP (round the loss up); 12 slays."""
    if roll >= 12:
        return 0
    if roll >= 9:
        return current_hp - math.ceil(current_hp / 2)
    return current_hp


def tough_total(loss: int) -> int:
    """Tough (§12.4): the HP lost to one attacking unit is halved, rounding up."""
    return math.ceil(loss / 2)
