"""XkY dice of The WarEngine 2.1: rolls through the kernel dice service, and exact odds.

004_f4ea5693af0644ce.txt core rules:

* XkY: roll X dice and keep the best Y; adjustments such as ``+1k1`` or ``-0k1`` add to or
  subtract from the rolled and kept dice; "no matter how many you roll, the number of kept
  dice is never more than five" (line 487).
* Attack beats defense when "your attack roll is higher than your opponent's defense roll"
  (strictly; a tie survives, line 471).
* Uncontrolled figures treat every six as a five (lines 393, 589); type M defenders treat 1s
  as 2s and type H defenders 1s and 2s as 3s (lines 484-485) unless the weapon is Armor
  Piercing (line 1753); Extra Bite turns 1s into 2s (line 1769), Charging Weapon 1s and 2s
  into 3s (line 1759), War Chant 1s into 2s (line 1339).
* Massed attacks: +1k1 per helper, kept dice at most twice the primary's, or five if it
  already keeps three or more (line 555); Mob Mentality gives +2k1 per helper up to five kept
  dice (line 1153).
* Rout test: roll the leader's Mental, 10 or more holds (line 613); Automatic Mental holds.
* Hero Points: the attacker raises his roll first, then the defender (line 493); a defender
  survives by raising his defense to the attack roll (example, line 495).

Exact distributions of keep-highest pools come from icepool; tests cross-check them by brute
force and against Monte Carlo through :class:`~warbench.kernel.dice.SeededDice`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

import icepool

from warbench.kernel.dice import Dice
from warbench.kernel.errors import ProfileError

MAX_KEPT = 5
ROUT_TARGET = 10
_XKY = re.compile(r"^\s*([+-]?)\s*(\d+)\s*[kK]\s*(\d+)\s*$")


@dataclass(frozen=True, order=True)
class XkY:
    """A dice pool: roll ``rolled`` dice, keep the best ``kept``."""

    rolled: int
    kept: int

    @classmethod
    def parse(cls, text: str | XkY, field: str = "dice") -> XkY:
        """``4k3`` -> XkY(4, 3); raises :class:`ProfileError` naming what is allowed."""
        if isinstance(text, XkY):
            return text
        m = _XKY.match(str(text))
        if not m or m.group(1):
            raise ProfileError(field, text, "XkY such as 4k3 (roll X dice, keep the best Y)")
        pool = cls(int(m.group(2)), int(m.group(3)))
        if pool.rolled < 1 or pool.kept < 1 or pool.kept > pool.rolled:
            raise ProfileError(field, text, "X >= Y >= 1, such as 4k3")
        return pool

    def __str__(self) -> str:
        return f"{self.rolled}k{self.kept}"

    def adjusted(self, *adjustments: Adjustment) -> XkY:
        """Apply adjustments, then the limits: never more than five kept (line 487), never
        more kept than rolled, never fewer than 1k1 (docs/rulings.md)."""
        rolled = self.rolled + sum(a.rolled for a in adjustments)
        kept = self.kept + sum(a.kept for a in adjustments)
        rolled = max(1, rolled)
        kept = max(1, min(kept, rolled, MAX_KEPT))
        return XkY(rolled, kept)


@dataclass(frozen=True)
class Adjustment:
    """An adjustment such as ``+1k1`` (Light Cover) or ``-0k1``."""

    rolled: int
    kept: int

    @classmethod
    def parse(cls, text: str, field: str = "adjustment") -> Adjustment:
        """``+1k1`` / ``-0k1`` / ``1k0`` -> Adjustment; the sign applies to both numbers."""
        m = _XKY.match(text)
        if not m:
            raise ProfileError(field, text, "+XkY or -XkY such as +1k1, +1k0, -0k1")
        sign = -1 if m.group(1) == "-" else 1
        return cls(sign * int(m.group(2)), sign * int(m.group(3)))

    def __str__(self) -> str:
        sign = "-" if self.rolled < 0 or self.kept < 0 else "+"
        return f"{sign}{abs(self.rolled)}k{abs(self.kept)}"


@dataclass(frozen=True)
class FaceRule:
    """How rolled faces are read: ``min(max(face, floor), cap)``.

    ``floor`` 2 turns 1s into 2s, 3 turns 1s and 2s into 3s; ``cap`` 5 reads sixes as fives.
    The reading is monotone, so keeping the best dice before or after reading is the same.
    """

    floor: int = 1
    cap: int = 6

    def read(self, face: int) -> int:
        """The value of one rolled face."""
        return min(max(face, self.floor), self.cap)


def attack_faces(
    *,
    uncontrolled: bool = False,
    extra_bite: bool = False,
    charging_weapon: bool = False,
    war_chant: bool = False,
) -> FaceRule:
    """Face reading of an attack roll (lines 393, 1339, 1759, 1769)."""
    floor = 1
    if extra_bite or war_chant:
        floor = 2
    if charging_weapon:
        floor = 3
    return FaceRule(floor, 5 if uncontrolled else 6)


def defense_faces(
    *,
    defender_type: str | None = None,
    uncontrolled: bool = False,
    armor_piercing: bool = False,
    war_chant: bool = False,
) -> FaceRule:
    """Face reading of a defense roll (lines 484-485, 1339, 1753)."""
    floor = 2 if war_chant else 1
    kind = (defender_type or "").upper()
    if kind not in ("", "T", "E", "C", "L", "M", "H"):
        raise ProfileError("defender_type", defender_type, "T, E, C, L, M or H")
    if not armor_piercing:
        if kind == "M":
            floor = max(floor, 2)
        elif kind == "H":
            floor = 3
    return FaceRule(floor, 5 if uncontrolled else 6)


def massed(primary: XkY, helpers: int, *, mob_mentality: bool = False) -> XkY:
    """The pool of a massed attack with ``helpers`` secondary attackers (line 555).

    Each helper adds +1k1; the kept dice are capped at twice the primary's, or five when the
    primary already keeps three or more, and never more than five. With Mob Mentality each
    helper adds +2k1 and the attack may keep up to five dice (line 1153).
    """
    if helpers < 0:
        raise ProfileError("helpers", helpers, "0 or more")
    if mob_mentality:
        return XkY(primary.rolled + 2 * helpers, min(primary.kept + helpers, MAX_KEPT))
    cap = MAX_KEPT if primary.kept >= 3 else 2 * primary.kept
    return XkY(primary.rolled + helpers, min(primary.kept + helpers, cap, MAX_KEPT))


@dataclass(frozen=True)
class XkYRoll:
    """One XkY roll: faces rolled, their values after the face rule, kept values and total."""

    pool: XkY
    faces: tuple[int, ...]
    values: tuple[int, ...]
    kept: tuple[int, ...]
    total: int


def roll_xky(dice: Dice, pool: XkY, faces: FaceRule | None = None, label: str = "XkY") -> XkYRoll:
    """Roll ``pool`` with the kernel dice service and keep the best dice."""
    rule = faces or FaceRule()
    rolled = tuple(int(f) for f in dice.d6_array(pool.rolled, f"{label} {pool}"))
    values = tuple(rule.read(f) for f in rolled)
    kept = tuple(sorted(values, reverse=True)[: pool.kept])
    return XkYRoll(pool, rolled, values, kept, sum(kept))


# ------------------------------------------------------------------------------------------
# Exact distributions
# ------------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _quantities(rolled: int, kept: int, floor: int, cap: int) -> tuple[tuple[int, int], ...]:
    die = icepool.d6.map(lambda f: min(max(f, floor), cap))
    total = die.pool(rolled).highest(kept).sum()
    return tuple((int(v), int(q)) for v, q in total.items())


def distribution(pool: XkY, faces: FaceRule | None = None) -> dict[int, Fraction]:
    """Exact distribution of the total of an XkY roll read through ``faces``."""
    rule = faces or FaceRule()
    qs = _quantities(pool.rolled, pool.kept, rule.floor, rule.cap)
    denom = 6**pool.rolled
    return {v: Fraction(q, denom) for v, q in qs}


def rout_odds(
    mental: str | XkY, faces: FaceRule | None = None, *adjustments: Adjustment
) -> Fraction:
    """P(a rout test holds): the Mental roll is 10 or more (line 613); ``A`` always holds."""
    if isinstance(mental, str) and mental.strip().upper() == "A":
        return Fraction(1)
    pool = XkY.parse(mental, "mental").adjusted(*adjustments)
    return sum((p for v, p in distribution(pool, faces).items() if v >= ROUT_TARGET), Fraction(0))


@dataclass(frozen=True)
class AttackOdds:
    """Exact odds of an attack roll against a defense roll.

    ``difference`` is the distribution of attack total minus defense total; the target is
    destroyed when it is positive (line 471). Hero Points shift it (lines 493-497).
    """

    attack: XkY
    defense: XkY
    attack_faces: FaceRule
    defense_faces: FaceRule
    difference: dict[int, Fraction] = field(repr=False)

    @property
    def p_kill(self) -> Fraction:
        """P(attack > defense)."""
        return self.p_kill_with()

    def p_kill_with(self, attacker_hp: int = 0, defender_hp: int = 0) -> Fraction:
        """P(kill) when the attacker may spend ``attacker_hp`` and the defender ``defender_hp``.

        The attacker raises his roll first and knows the defender's Hero Points, so he kills
        exactly when attack + attacker_hp > defense + defender_hp (line 493).
        """
        edge = defender_hp - attacker_hp
        return sum((p for d, p in self.difference.items() if d > edge), Fraction(0))

    def survive_needing(self) -> dict[int, Fraction]:
        """P(the defender needs exactly h Hero Points to survive): h = max(0, difference)."""
        out: dict[int, Fraction] = {}
        for d, p in self.difference.items():
            h = max(0, d)
            out[h] = out.get(h, Fraction(0)) + p
        return dict(sorted(out.items()))

    def kill_needing(self) -> dict[int, Fraction]:
        """P(the attacker needs exactly h Hero Points to kill): h = max(0, 1 - difference)."""
        out: dict[int, Fraction] = {}
        for d, p in self.difference.items():
            h = max(0, 1 - d)
            out[h] = out.get(h, Fraction(0)) + p
        return dict(sorted(out.items()))

    def to_dict(self, max_hero: int = 12) -> dict[str, Any]:
        """Plain data for ``--json`` (probabilities as floats and exact fractions)."""
        return {
            "attack": str(self.attack),
            "defense": str(self.defense),
            "attack_faces": {"floor": self.attack_faces.floor, "cap": self.attack_faces.cap},
            "defense_faces": {"floor": self.defense_faces.floor, "cap": self.defense_faces.cap},
            "p_kill": float(self.p_kill),
            "p_kill_exact": str(self.p_kill),
            "difference": {str(d): float(p) for d, p in sorted(self.difference.items())},
            "defender_hero_points_to_survive": {
                str(h): float(self.p_kill_with(0, h)) for h in range(max_hero + 1)
            },
            "attacker_hero_points_to_kill": {
                str(h): float(self.p_kill_with(h, 0)) for h in range(max_hero + 1)
            },
        }


def attack_odds(
    attack: XkY | str,
    defense: XkY | str,
    *,
    attack_faces: FaceRule | None = None,
    defense_faces: FaceRule | None = None,
) -> AttackOdds:
    """Exact odds of ``attack`` beating ``defense`` (pools already adjusted)."""
    a_pool = XkY.parse(attack, "attack")
    d_pool = XkY.parse(defense, "defense")
    a_rule = attack_faces or FaceRule()
    d_rule = defense_faces or FaceRule()
    a_dist = _quantities(a_pool.rolled, a_pool.kept, a_rule.floor, a_rule.cap)
    d_dist = _quantities(d_pool.rolled, d_pool.kept, d_rule.floor, d_rule.cap)
    counts: dict[int, int] = {}
    for av, aq in a_dist:
        for dv, dq in d_dist:
            counts[av - dv] = counts.get(av - dv, 0) + aq * dq
    denom = 6 ** (a_pool.rolled + d_pool.rolled)
    diff = {d: Fraction(q, denom) for d, q in sorted(counts.items())}
    return AttackOdds(a_pool, d_pool, a_rule, d_rule, diff)
