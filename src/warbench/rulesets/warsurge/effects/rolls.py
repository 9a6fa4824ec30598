"""The tests a perk calls for (§12.2, 000_94ecc6a4c74d351b.txt L245-L320), on the kernel dice.

Mastery, Skill and Aether Tests are the kernel's :meth:`~warbench.kernel.dice.Dice.test` (one
rule, one place: 4+ on a D6 moved by Dice Modifiers, clamped 2+..6+; the Aether 2D6 read after
its modifier, 2 doubles, 12 costs D6 HP). This module adds what perks need around them: a
D6 (x+) (L263), the Auto Test (L257: one D6 per Attack Dice the Weapon would have rolled) and
Fugue's automatic failure (L2716), and reads a :class:`~.model.TestSpec`.
"""

from __future__ import annotations

from dataclasses import dataclass

from warbench.kernel.dice import Dice, TestKind, TestResult
from warbench.rulesets.warsurge.effects.model import PerkTest, TestSpec

__all__ = ["Outcome", "run_test"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """A perk's test: the kind, the natural roll(s), the score needed, passed or not, and for
    an Aether Test whether the effect doubles and whether the User suffers D6 HP Loss."""

    kind: PerkTest
    rolls: tuple[int, ...]
    needed: int
    passed: bool
    doubled: bool = False
    backlash: bool = False

    def explain(self) -> str:
        """``Mastery Test 5+: rolled 6, passed``."""
        shown = ", ".join(str(r) for r in self.rolls) or "no roll"
        verdict = "passed" if self.passed else "failed"
        extra = ", doubled" if self.doubled else ""
        extra += ", D6 HP Loss to the User" if self.backlash else ""
        need = f" {self.needed}+" if self.kind is not PerkTest.AETHER else ""
        return f"{self.kind.value} Test{need}: rolled {shown}, {verdict}{extra}"


_KERNEL = {
    PerkTest.MASTERY: TestKind.MASTERY,
    PerkTest.SKILL: TestKind.SKILL,
    PerkTest.AETHER: TestKind.AETHER,
}


def _from_kernel(kind: PerkTest, r: TestResult) -> Outcome:
    return Outcome(kind, (r.roll,), r.needed, r.passed, r.doubled, r.backlash)


def run_test(
    dice: Dice, spec: TestSpec, modifier: int = 0, *, auto_fail: bool = False, label: str = ""
) -> Outcome:
    """Roll the test ``spec`` names. ``modifier`` is the sum of Dice Modifiers (Resist -1 on
    an enemy's Mastery Test); ``auto_fail`` (Fugue) fails a Mastery or Skill Test unrolled.

    >>> from warbench.kernel.dice import ScriptedDice
    >>> run_test(ScriptedDice([6]), TestSpec(PerkTest.MASTERY), -1).explain()
    'Mastery Test 5+: rolled 6, passed'
    >>> run_test(ScriptedDice([4]), TestSpec(PerkTest.D6, 6)).passed
    False
    """
    if spec.kind in (PerkTest.MASTERY, PerkTest.SKILL) and auto_fail:
        return Outcome(spec.kind, (), 7, False)
    if spec.kind in _KERNEL:
        return _from_kernel(spec.kind, dice.test(_KERNEL[spec.kind], modifier, label or None))
    needed = min(6, max(2, spec.needs - modifier))
    face = dice.d6(label or f"{spec.kind.value} Test")
    return Outcome(spec.kind, (face,), needed, face >= needed)
