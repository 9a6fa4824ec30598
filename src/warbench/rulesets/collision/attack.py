"""A Collision weapon attack: rolling to hit and rolling for injuries
(``003_fc239e71486306e1.txt`` L1014-1106), with the combat bonuses and penalties (L1014-1065).

The attack is one function of the dice (:func:`resolve`), so the same rules code is sampled
(:class:`SeededD10`) and enumerated exactly (:func:`enumerate_attack`, in
:mod:`warbench.rulesets.collision.odds`). Each roll is a D10 with a label.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from warbench.kernel.errors import DiceError, RulesError
from warbench.rulesets.collision.models import Card, Weapon, crit_pow_bonus, crit_slays

BOOK = "003_fc239e71486306e1.txt"
#: A D10 roller: label -> face 1..10.
Roll = Callable[[str], int]
#: L2110: the element types Resist Elements 2 protects against ("Ice" is not a weapon type).
RESISTED_TYPES = frozenset({"Fire", "Cold", "Electric", "Light", "Dark"})


class Cover(StrEnum):
    """L925-931: partial cover misses on a 1-3, total cover on a 1-6 (a separate D10)."""

    NONE = "none"
    PARTIAL = "partial"
    TOTAL = "total"

    @property
    def misses_up_to(self) -> int:
        """The highest cover-roll face that makes the attack miss."""
        return {Cover.NONE: 0, Cover.PARTIAL: 3, Cover.TOTAL: 6}[self]


class Elevation(StrEnum):
    """The attacker's elevation compared with the target's (L1015-1021)."""

    HIGHER = "higher"
    SAME = "same"
    LOWER = "lower"


@dataclass(frozen=True)
class Situation:
    """What the rules of L1014-1065 need to know about the attack besides the two cards."""

    cover: Cover = Cover.NONE
    elevation: Elevation = Elevation.SAME
    back: bool = False  # attacking the target's back facing (L1058-1065)
    beyond_reach: int = 0  # spaces beyond a ranged weapon's Reach (L1050-1056, L2095-2096)
    attacker_injuries: int = 0  # L1035-1042, L1089-1090
    defender_injuries: int = 0
    attacker_hexed: bool = False  # L1044-1048, L1834-1837
    defender_hexed: bool = False


@dataclass(frozen=True)
class Modifier:
    """One contribution to a number of the attack, with its rule (for explanations)."""

    quantity: str  # "W-Att", "Def", "Armor", "W-Pow"
    amount: int
    reason: str
    rule: str


@dataclass(frozen=True)
class AttackProfile:
    """The numbers of one attack after every bonus and penalty."""

    w_att: int
    defense: int
    w_pow: int
    armor: int
    crit_from: int  # lowest natural face that crits if it hits: 10, or 9 with Sharp
    crit_pow: int
    crit_slay: bool
    defender_immune_to_slay: bool
    immune: bool  # the defender is immune to the weapon's type (L1847-1886)
    cover: Cover
    toughness: int
    current_injury: int
    modifiers: tuple[Modifier, ...] = field(default_factory=tuple)


def attack_profile(
    attacker: Card, defender: Card, weapon: Weapon | None = None, situation: Situation | None = None
) -> AttackProfile:
    """Every number of the attack, with the modifiers that made it."""
    s = situation or Situation()
    w = weapon or attacker.weapon()
    mods: list[Modifier] = []
    if s.beyond_reach < 0 or s.attacker_injuries < 0 or s.defender_injuries < 0:
        raise RulesError("spaces beyond reach and injuries are 0 or more", f"{BOOK} L1050-1056")
    if s.beyond_reach and not w.ranged:
        raise RulesError(
            f"{w.name} is not a ranged weapon (Reach {w.reach}); only ranged weapons attack "
            "beyond their Reach",
            f"{BOOK} L326-329, L915-917",
        )
    if s.elevation is Elevation.HIGHER:
        mods.append(Modifier("W-Att", 1, "attacker on higher elevation", f"{BOOK} L1015-1021"))
    if s.elevation is Elevation.LOWER:
        # docs/rulings.md Collision 2: the character on higher elevation gets the +1 Def.
        mods.append(Modifier("Def", 1, "target on higher elevation", f"{BOOK} L1015-1021"))
    if s.attacker_injuries:
        mods.append(
            Modifier("W-Att", -s.attacker_injuries, "attacker's injuries", f"{BOOK} L1035-1042")
        )
    if s.defender_injuries:
        mods.append(
            Modifier("Def", -s.defender_injuries, "target's injuries", f"{BOOK} L1035-1042")
        )
        mods.append(
            Modifier(
                "Armor", -s.defender_injuries, "target's injuries", f"{BOOK} L1035-1042, L1089-1090"
            )
        )
    if s.attacker_hexed:
        mods.append(Modifier("W-Att", -2, "attacker is hexed", f"{BOOK} L1044-1048"))
    if s.defender_hexed:
        mods.append(Modifier("Def", -2, "target is hexed", f"{BOOK} L1044-1048"))
    if s.beyond_reach:
        mods.append(
            Modifier(
                "W-Att",
                -s.beyond_reach,
                "spaces beyond the weapon's Reach",
                f"{BOOK} L1050-1056, L2095-2096",
            )
        )
    if s.back:
        mods.append(Modifier("W-Att", 1, "attacking the back facing", f"{BOOK} L1058-1065"))
        mods.append(Modifier("W-Pow", 1, "attacking the back facing", f"{BOOK} L1058-1065"))
    if w.type.value in RESISTED_TYPES and "Resist Elements 2" in defender.effects:
        mods.append(
            Modifier(
                "Armor", 2, f"Resist Elements 2 against a {w.type.value} hit", f"{BOOK} L2107-2111"
            )
        )

    def total(quantity: str) -> int:
        return sum(m.amount for m in mods if m.quantity == quantity)

    immune = f"Immune to {w.type.value}" in defender.effects
    return AttackProfile(
        w_att=w.w_att + total("W-Att"),
        defense=defender.stats.defense + total("Def"),
        w_pow=w.w_pow + total("W-Pow"),
        armor=defender.stats.armor + total("Armor"),
        crit_from=9 if w.sharp else 10,
        crit_pow=crit_pow_bonus(w.crit),
        crit_slay=crit_slays(w.crit),
        defender_immune_to_slay="Immune to Slay" in defender.effects,
        immune=immune,
        cover=s.cover,
        toughness=defender.stats.toughness,
        current_injury=s.defender_injuries,
        modifiers=tuple(mods),
    )


def injury_level(beaten_by: int) -> int:
    """L1099-1106: the amount the roll beats Armor by, halved and rounded up (1-2 -> Injury 1,
    3-4 -> 2 ... 11-12 -> 6, and +1 per further 2). 0 or less is no injury."""
    return 0 if beaten_by <= 0 else (beaten_by + 1) // 2


def apply_injury(current: int, new: int) -> int:
    """L1092-1098: a greater new injury replaces the current one; an equal or smaller one
    raises the current level by 1. ``new`` = 0 (no injury) leaves it unchanged."""
    if new <= 0:
        return current
    return new if new > current else current + 1


@dataclass(frozen=True)
class AttackResult:
    """The outcome of one attack."""

    stage: str  # "immune", "cover", "miss", "no injury", "injury", "slay"
    hit: bool
    crit: bool
    injury: int  # the injury level of the attack (0: none)
    injury_after: int  # the target's injury level afterwards
    defeated: bool


def resolve(p: AttackProfile, roll: Roll) -> AttackResult:
    """One attack. Cover roll (L925-931), to-hit roll (L1073-1082), injury roll (L1084-1101)."""
    if p.immune:
        return AttackResult("immune", False, False, 0, p.current_injury, False)
    if p.cover is not Cover.NONE and roll("cover") <= p.cover.misses_up_to:
        return AttackResult("cover", False, False, 0, p.current_injury, False)
    face = roll("to hit")
    # L1074-1075: hit if D10 + W-Att >= Def; no automatic hit on a 10 (docs/rulings.md).
    if face + p.w_att < p.defense:
        return AttackResult("miss", False, False, 0, p.current_injury, False)
    # L1076-1078: a 10 that would hit is a critical hit; Sharp: a 9 too (L2140).
    crit = face >= p.crit_from
    if crit and p.crit_slay and not p.defender_immune_to_slay:
        # L2173-2174: Slay defeats the target outright.
        return AttackResult("slay", True, True, 0, p.toughness, True)
    power = p.w_pow + (p.crit_pow if crit else 0)
    new = injury_level(roll("injury") + power - p.armor)
    after = apply_injury(p.current_injury, new)
    defeated = after >= p.toughness  # L352-354, L1098-1099
    return AttackResult("injury" if new else "no injury", True, crit, new, after, defeated)


class SeededD10:
    """Seeded D10s (Python's Mersenne Twister); the seed is kept and every roll is logged."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self.log: list[tuple[str, int]] = []

    def __call__(self, label: str) -> int:
        face = self._rng.randint(1, 10)
        self.log.append((label, face))
        return face


class ScriptedD10:
    """D10 faces given in advance (tests): raises :class:`DiceError` when they run out."""

    def __init__(self, faces: Sequence[int]) -> None:
        for f in faces:
            if not 1 <= f <= 10:
                raise DiceError(f"scripted D10 face {f} is not 1-10")
        self.faces = list(faces)
        self.log: list[tuple[str, int]] = []

    def __call__(self, label: str) -> int:
        if not self.faces:
            raise DiceError(f"scripted D10 faces ran out at {label!r}")
        face = self.faces.pop(0)
        self.log.append((label, face))
        return face
