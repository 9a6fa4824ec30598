"""The Attack Dice Chart (Core Rules 001_d3f5e425c5e1196d.txt §5.7).

Every entry of the chart is a point on one ladder of requirements, from best to worst::

    Ax8 … Ax2, A | 2+ 3+ 4+ 5+ 6+ | 6/2 … 6/6 | 6/6/2 … 6/6/6

An :class:`AttackRequirement` stores the ``step`` on that ladder (0 = automatic, 1 = 2+ …
5 = 6+, 6 = 6/2 … 10 = 6/6, 11 = 6/6/2 … 15 = 6/6/6) and the multiplier of successful
Attack Dice (``Ax2`` is step 0 with multiplier 2). Dice Modifiers move along the rolled part
of the ladder: they improve a roll to at most 2+ (an ``A`` stays ``A``) and worsen it to at
most 6/6/6; a negative modifier turns ``A`` into 2+ and so on, and the multiplier still
applies (§5.7 "Dice Modifiers to Attack Dice").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from warbench.kernel.errors import ProfileError

MAX_POWER = 20  # §5.7 "Maximum Power and Defence"
MAX_DEFENCE = 15
WORST_STEP = 15  # 6/6/6
BEST_ROLLED_STEP = 1  # 2+


@dataclass(frozen=True, order=True)
class AttackRequirement:
    """What an Attack Dice needs: a ladder step and a multiplier of successful dice."""

    step: int
    multiplier: int = 1

    def __post_init__(self) -> None:
        if not 0 <= self.step <= WORST_STEP:
            raise ValueError(f"attack requirement step {self.step} outside 0..{WORST_STEP}")
        if self.multiplier < 1:
            raise ValueError("attack requirement multiplier must be 1 or more")

    @property
    def automatic(self) -> bool:
        """``A``: no dice roll is needed, every Attack is successful."""
        return self.step == 0

    @property
    def thresholds(self) -> tuple[int, ...]:
        """The successive rolls needed: ``(4,)`` for 4+, ``(6, 5)`` for 6/5, ``()`` for A."""
        s = self.step
        if s == 0:
            return ()
        if s <= 5:
            return (s + 1,)
        if s <= 10:
            return (6, s - 4)
        return (6, 6, s - 9)

    @property
    def probability(self) -> Fraction:
        """Chance that one Attack Dice succeeds (before any reroll)."""
        p = Fraction(1)
        for t in self.thresholds:
            p *= Fraction(7 - t, 6)
        return p

    def modified(self, modifier: int) -> AttackRequirement:
        """Apply a total Dice Modifier (§5.7): ``+`` is better, ``-`` is worse."""
        if modifier == 0:
            return self
        if self.step == 0:
            if modifier > 0:
                return self
            return AttackRequirement(min(WORST_STEP, -modifier), self.multiplier)
        step = self.step - modifier
        step = max(BEST_ROLLED_STEP, min(WORST_STEP, step))
        return AttackRequirement(step, self.multiplier)

    def __str__(self) -> str:
        if self.step == 0:
            return "A" if self.multiplier == 1 else f"Ax{self.multiplier}"
        t = self.thresholds
        text = f"{t[0]}+" if len(t) == 1 else "/".join(str(x) for x in t)
        return text if self.multiplier == 1 else f"{text} x{self.multiplier}"

    @classmethod
    def parse(cls, text: str) -> AttackRequirement:
        """Parse a chart cell: ``A``, ``Ax3``, ``4+``, ``6/2``, ``6/6/6`` (optionally `` x2``)."""
        t = text.strip()
        m = re.fullmatch(r"A(?:x(\d))?", t)
        if m:
            return cls(0, int(m[1]) if m[1] else 1)
        m = re.fullmatch(r"([2-6])\+(?:\s*x(\d))?", t)
        if m:
            return cls(int(m[1]) - 1, int(m[2]) if m[2] else 1)
        m = re.fullmatch(r"6/([2-6])(?:\s*x(\d))?", t)
        if m:
            return cls(int(m[1]) + 4, int(m[2]) if m[2] else 1)
        m = re.fullmatch(r"6/6/([2-6])(?:\s*x(\d))?", t)
        if m:
            return cls(int(m[1]) + 9, int(m[2]) if m[2] else 1)
        raise ValueError(f"{text!r} is not an Attack Dice Chart entry")


def attack_requirement(power: int, defence: int) -> AttackRequirement | None:
    """The chart entry for ``power`` against ``defence`` (§5.7).

    Power above 20 reads as 20 and Defence above 15 as 15. Power 0 (or less) cannot damage
    anything (§1.6: "0 being unable to damage anything"), so it returns ``None``; Defence
    below 0 reads as 0 (Perks §12.1 Example 1 reduces Defence to 0 at most).
    """
    if power <= 0:
        return None
    p = min(power, MAX_POWER)
    d = max(0, min(defence, MAX_DEFENCE))
    diff = p - d
    if d == 0 and diff < 6:
        return AttackRequirement(0, 1)  # Defence 0 is always at least A
    if diff >= 6:
        # 6 or 7 better: A; every further 2 adds a multiplier (20 vs 0 = Ax8).
        return AttackRequirement(0, (diff - 6) // 2 + 1)
    if diff >= 2:
        return AttackRequirement(1, 1)  # 2+
    return AttackRequirement(min(WORST_STEP, 3 - diff), 1)


def chart_row(power: int) -> list[AttackRequirement | None]:
    """One printed row: ``power`` against Defence 0 … 15+."""
    if power < 0:
        raise ProfileError("power", power, "0 to 20 (higher reads as 20)")
    return [attack_requirement(power, d) for d in range(MAX_DEFENCE + 1)]
