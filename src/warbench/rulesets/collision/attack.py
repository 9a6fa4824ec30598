"""A Collision weapon attack: rolling to hit and rolling for injuries
(``003_fc239e71486306e1.txt`` L1014-1106), with the combat bonuses and penalties (L1014-1065).

The attack is one function of the dice (:func:`resolve`), so the same rules code is sampled
(:class:`SeededD10`) and enumerated exactly (:func:`enumerate_attack`, in
:mod:`warbench.rulesets.collision.odds`). Each roll is a D10 with a label.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from warbench.kernel.errors import RulesError
from warbench.rulesets.collision.dice import Roll, ScriptedD10, SeededD10
from warbench.rulesets.collision.models import Card, Weapon, crit_pow_bonus, crit_slays

__all__ = ["Roll", "ScriptedD10", "SeededD10"]  # the dice, re-exported for callers

BOOK = "003_fc239e71486306e1.txt"
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
class SpecialAttack:
    """A glossary ability that is a special weapon attack (L872-881), as numbers.

    ``w_att``/``w_pow`` add to the weapon's, ``crit_pow`` to a critical hit's Pow; the other
    fields are the entry's own rules. Only abilities whose effect on one attack is numbers are
    listed; the rest (Barrage, Checkmate, Scissor Strike ...) need the game.
    """

    name: str
    rule: str
    w_att: int = 0
    w_pow: int = 0
    crit_pow: int = 0
    ignores_partial_cover: bool = False
    crit_on_back_hit: bool = False
    slay_on_hit: bool = False
    needs_injuries_to_defeat: int | None = None


SPECIAL_ATTACKS: dict[str, SpecialAttack] = {
    a.name: a
    for a in (
        # L1598-1600: "If it hits the target in its rear facing, it will automatically score a
        # Critical Hit instead."
        SpecialAttack("Backstab", f"{BOOK} L1598-1600", crit_on_back_hit=True),
        SpecialAttack("Butcher", f"{BOOK} L1629-1630", w_att=-2, w_pow=4),  # Att-2, Pow+4
        SpecialAttack(
            "Finishing Blow",  # L1750-1757: On Hit: Slay; 2 injuries away from defeat; Att+1
            f"{BOOK} L1750-1757",
            w_att=1,
            slay_on_hit=True,
            needs_injuries_to_defeat=2,
        ),
        SpecialAttack("Gouge", f"{BOOK} L1809-1812", w_pow=2),  # Pow+2 (Hex is a status)
        SpecialAttack("Guided Strike", f"{BOOK} L1814-1818", w_att=2),  # W-Att+2
        SpecialAttack("Power Attack", f"{BOOK} L2077-2081", w_att=-1, w_pow=2),
        SpecialAttack("Rip Around", f"{BOOK} L2120-2122", w_att=1),  # Att+1
        # L2182-2184: "ignoring penalties for partial cover, adding crit Pow+2"
        SpecialAttack("Snipe", f"{BOOK} L2182-2184", crit_pow=2, ignores_partial_cover=True),
        SpecialAttack("Sudden Strike", f"{BOOK} L2199-2204", w_att=1, crit_pow=2),
        SpecialAttack("Thunderstrike", f"{BOOK} L2228-2235", w_att=1, w_pow=2),  # one target
    )
}


@dataclass(frozen=True)
class DefenceReaction:
    """A target's reaction (RE) that changes one attack's numbers (L891-899)."""

    name: str
    rule: str
    defense: int = 0
    armor: int = 0
    armor_set_to: int | None = None  # Mage Armor: Armor 8, injury penalties included
    total_cover: bool = False
    injury_step_at_most_1: bool = False
    elemental_only: bool = False


DEFENCE_REACTIONS: dict[str, DefenceReaction] = {
    r.name: r
    for r in (
        # L1583-1588: "The attack now can't increase your injury level by more than 1."
        DefenceReaction("Adamant Form", f"{BOOK} L1583-1588", injury_step_at_most_1=True),
        DefenceReaction("Block 2", f"{BOOK} L1615-1616", armor=2),
        DefenceReaction("Block 4", f"{BOOK} L1618-1619", armor=4),
        DefenceReaction("Decoy", f"{BOOK} L1711-1713", total_cover=True),
        DefenceReaction("Dodge", f"{BOOK} L1727-1729", defense=2),
        DefenceReaction("Mage Armor", f"{BOOK} L1982-1987", armor_set_to=8),
        # L2083-2089: "React to an elemental or magic attack that hits you. You get Armor+4"
        DefenceReaction("Power Channel", f"{BOOK} L2083-2089", armor=4, elemental_only=True),
    )
}


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
    slay_on_hit: bool
    injury_step_at_most_1: bool
    defender_immune_to_slay: bool
    immune: bool  # the defender is immune to the weapon's type (L1847-1886)
    cover: Cover
    toughness: int
    current_injury: int
    modifiers: tuple[Modifier, ...] = field(default_factory=tuple)


def _special(attacker: Card, name: str | None) -> SpecialAttack | None:
    if name is None:
        return None
    from warbench.rulesets.collision.glossary import Glossary

    entry = Glossary.load().get(name)
    if entry.name not in attacker.abilities:
        raise RulesError(
            f"{attacker.name} does not have {entry.name}; its abilities: "
            + (", ".join(attacker.abilities) or "none"),
            f"{BOOK} L872-881",
        )
    if entry.name not in SPECIAL_ATTACKS:
        raise RulesError(
            f"{entry.name} is not a special weapon attack warbench computes odds for; "
            "allowed: " + ", ".join(SPECIAL_ATTACKS),
            entry.source,
        )
    return SPECIAL_ATTACKS[entry.name]


def _reaction(defender: Card, name: str | None) -> DefenceReaction | None:
    if name is None:
        return None
    from warbench.rulesets.collision.glossary import Glossary

    entry = Glossary.load().get(name)
    if entry.name not in defender.abilities:
        raise RulesError(
            f"{defender.name} does not have {entry.name}; its abilities: "
            + (", ".join(defender.abilities) or "none"),
            f"{BOOK} L891-899",
        )
    if entry.name not in DEFENCE_REACTIONS:
        raise RulesError(
            f"{entry.name} is not a reaction that changes an attack's odds; allowed: "
            + ", ".join(DEFENCE_REACTIONS),
            entry.source,
        )
    return DEFENCE_REACTIONS[entry.name]


def attack_profile(
    attacker: Card,
    defender: Card,
    weapon: Weapon | None = None,
    situation: Situation | None = None,
    *,
    special: str | None = None,
    reaction: str | None = None,
) -> AttackProfile:
    """Every number of the attack, with the modifiers that made it.

    ``special`` names a special weapon attack of the attacker (:data:`SPECIAL_ATTACKS`),
    ``reaction`` a reaction the target uses against it (:data:`DEFENCE_REACTIONS`); both must be
    on the card. Reactions are used whenever they apply (Block on every hit).
    """
    s = situation or Situation()
    w = weapon or attacker.weapon()
    sa = _special(attacker, special)
    re_ = _reaction(defender, reaction)
    mods: list[Modifier] = []
    if s.defender_hexed and re_ is not None:
        raise RulesError(
            f"{defender.name} is hexed and cannot use reactions such as {re_.name}",
            f"{BOOK} L898-899, L1044-1048",
        )
    if sa is not None and sa.needs_injuries_to_defeat is not None:
        away = defender.stats.toughness - s.defender_injuries
        if away != sa.needs_injuries_to_defeat:
            raise RulesError(
                f"{sa.name} is made against a character {sa.needs_injuries_to_defeat} injuries "
                f"away from defeat; {defender.name} is {away} away",
                sa.rule,
            )
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
    cover = s.cover
    if sa is not None:
        if sa.w_att:
            mods.append(Modifier("W-Att", sa.w_att, sa.name, sa.rule))
        if sa.w_pow:
            mods.append(Modifier("W-Pow", sa.w_pow, sa.name, sa.rule))
        if sa.ignores_partial_cover and cover is Cover.PARTIAL:
            cover = Cover.NONE
    elemental = w.type.value != "Mundane"
    if re_ is not None:
        if re_.defense:
            mods.append(Modifier("Def", re_.defense, re_.name, re_.rule))
        if re_.armor and (elemental or not re_.elemental_only):
            mods.append(Modifier("Armor", re_.armor, re_.name, re_.rule))
        if re_.total_cover:
            cover = Cover.TOTAL

    def total(quantity: str) -> int:
        return sum(m.amount for m in mods if m.quantity == quantity)

    immune = f"Immune to {w.type.value}" in defender.effects
    armor = defender.stats.armor + total("Armor")
    if re_ is not None and re_.armor_set_to is not None:
        # L1986: "Your armor is 8 for that attack (include any penalties from injuries)."
        armor = re_.armor_set_to - s.defender_injuries
    crit_from = 9 if w.sharp else 10
    if sa is not None and sa.crit_on_back_hit and s.back:
        crit_from = 1  # every hit in the rear facing is a critical hit (L1599-1600)
    return AttackProfile(
        w_att=w.w_att + total("W-Att"),
        defense=defender.stats.defense + total("Def"),
        w_pow=w.w_pow + total("W-Pow"),
        armor=armor,
        crit_from=crit_from,
        crit_pow=crit_pow_bonus(w.crit) + (sa.crit_pow if sa else 0),
        crit_slay=crit_slays(w.crit),
        slay_on_hit=bool(sa and sa.slay_on_hit),
        injury_step_at_most_1=bool(re_ and re_.injury_step_at_most_1),
        defender_immune_to_slay="Immune to Slay" in defender.effects,
        immune=immune,
        cover=cover,
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


def cover_misses(p: AttackProfile, face: int) -> bool:
    """L925-931: the cover roll ``face`` makes the attack miss (partial 1-3, total 1-6)."""
    return p.cover is not Cover.NONE and face <= p.cover.misses_up_to


def to_hit(p: AttackProfile, face: int) -> tuple[bool, bool]:
    """L1073-1078: (hit, critical hit) for the to-hit face. Hit if D10 + W-Att >= Def (no
    automatic hit on a 10, docs/rulings.md); a 10 that hits crits, a 9 too with Sharp (L2140)."""
    hit = face + p.w_att >= p.defense
    return hit, hit and face >= p.crit_from


def slays(p: AttackProfile, crit: bool) -> bool:
    """L2173-2174: Slay on a hit (or Crit: Slay) defeats the target unless Immune to Slay."""
    return (p.slay_on_hit or (crit and p.crit_slay)) and not p.defender_immune_to_slay


def injury_from(p: AttackProfile, crit: bool, face: int) -> AttackResult:
    """L1084-1101: the injury roll ``face`` of a hit (crit adds the crit Pow)."""
    power = p.w_pow + (p.crit_pow if crit else 0)
    new = injury_level(face + power - p.armor)
    after = apply_injury(p.current_injury, new)
    if p.injury_step_at_most_1:
        after = min(after, p.current_injury + 1)  # Adamant Form (L1587-1588)
    defeated = after >= p.toughness  # L352-354, L1098-1099
    return AttackResult("injury" if new else "no injury", True, crit, new, after, defeated)


def resolve(p: AttackProfile, roll: Roll) -> AttackResult:
    """One attack. Cover roll (L925-931), to-hit roll (L1073-1082), injury roll (L1084-1101).

    The game (``collision.game.attacks``) calls the same stages with reactions between them.
    """
    if p.immune:
        return AttackResult("immune", False, False, 0, p.current_injury, False)
    if p.cover is not Cover.NONE and cover_misses(p, roll("cover")):
        return AttackResult("cover", False, False, 0, p.current_injury, False)
    hit, crit = to_hit(p, roll("to hit"))
    if not hit:
        return AttackResult("miss", False, False, 0, p.current_injury, False)
    if slays(p, crit):
        return AttackResult("slay", True, crit, 0, p.toughness, True)
    return injury_from(p, crit, roll("injury"))
