"""One stacking algebra for every perk modifier, in the book's order (§12.1).

* Stacking Perk Effects (000_94ecc6a4c74d351b.txt L111-L125): effects from several sources
  accumulate ("Defence 4 reduced by -1 from four different sources would have Defence 0"); a
  source counts once, and a perk marked as not stacking counts once whatever its sources.
* Perks and Stat Changes (L195-L203): set, then additions and subtractions, then
  multiplications and divisions, then floors and caps. "Power 5, +3 from two perks, doubled:
  16."
* Armour: Stat Changes and Dice Modifiers (L205-L209): an outright change of the Armour Save
  (Corrode) is seen by AP; a Dice Modifier (Penetrate, Puncture) only changes the roll needed.
* Damage Increasers (L211-L219): bonus Attacks, then multiplied Attacks, then multiplied
  successful Attack Dice, then HP Loss increasers, then multiplied HP Loss.

:func:`combine` returns the value *and* the steps that made it (Wesnoth's specials record
which effects contributed), so every figure can be explained.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from warbench.rulesets.warsurge.effects.model import OP_ORDER, Modifier, Op, Quantity, Rounding

__all__ = [
    "DAMAGE_ORDER",
    "ArmourSave",
    "Combined",
    "Step",
    "armour_save",
    "combine",
]


@dataclass(frozen=True, slots=True)
class Step:
    """One modifier applied: the value before and after it."""

    modifier: Modifier
    before: int
    after: int

    def __str__(self) -> str:
        m = self.modifier
        sign = {Op.SET: "=", Op.ADD: "+" if m.value >= 0 else "", Op.MUL: "x"}.get(m.op, "")
        if m.op is Op.MIN:
            sign = "at least "
        elif m.op is Op.MAX:
            sign = "at most "
        value = str(m.value) if m.value.denominator != 1 else str(m.value.numerator)
        return f"{m.perk} {sign}{value} ({self.before}->{self.after})"


@dataclass(frozen=True, slots=True)
class Combined:
    """A quantity after its modifiers: the base, the result and the steps in order."""

    quantity: Quantity
    base: int
    value: int
    steps: tuple[Step, ...]

    @property
    def contributors(self) -> tuple[str, ...]:
        """The perks that changed the value, in the order they were applied."""
        return tuple(dict.fromkeys(s.modifier.perk for s in self.steps if s.before != s.after))

    def explain(self) -> str:
        """``Move 6: Augment Armour +6 (6->12), Adrenaline x4/3 (12->16) = 16``."""
        if not self.steps:
            return f"{self.quantity.value} {self.base}"
        inner = ", ".join(str(s) for s in self.steps)
        return f"{self.quantity.value} {self.base}: {inner} = {self.value}"


def _round(x: Fraction, rounding: Rounding) -> int:
    return math.ceil(x) if rounding is Rounding.UP else math.floor(x)


def dedupe(modifiers: Iterable[Modifier]) -> list[Modifier]:
    """Each (perk, source) once; a non-stacking perk once whatever its sources (the first)."""
    seen: set[tuple[str, str, str, str]] = set()
    out: list[Modifier] = []
    for m in modifiers:
        if m.key in seen:
            continue
        seen.add(m.key)
        out.append(m)
    return out


def combine(
    quantity: Quantity, base: int, modifiers: Iterable[Modifier], *, floor: int | None = 0
) -> Combined:
    """``base`` after the ``modifiers`` of ``quantity`` (others are ignored), in §12.1's order.

    Within one operation modifiers apply in the order given. A SET replaces the value (the
    last set wins), additions add, multipliers multiply one by one (each rounded as it says,
    a 0 stays 0 unless the modifier says otherwise), then floors and caps. ``floor`` (default
    0) is the Stat's own lower bound ("Defence 0", §12.1 L115), ``None`` for none.

    >>> from fractions import Fraction as F
    >>> from warbench.rulesets.warsurge.effects.model import Modifier as M
    >>> r = combine(Quantity.POWER, 5, [M(Quantity.POWER, Op.MUL, F(2), "Double"),
    ...     M(Quantity.POWER, Op.ADD, F(2), "A"), M(Quantity.POWER, Op.ADD, F(1), "B")])
    >>> r.value, r.contributors
    (16, ('A', 'B', 'Double'))
    """
    mine = [m for m in dedupe(modifiers) if m.quantity is quantity]
    value = base
    steps: list[Step] = []
    for op in OP_ORDER:
        for m in (m for m in mine if m.op is op):
            before = value
            if op is Op.SET:
                value = _round(m.value, m.rounding)
            elif op is Op.ADD:
                value = _round(value + m.value, m.rounding)
            elif op is Op.MUL:
                if not (value == 0 and m.keep_zero):
                    value = _round(value * m.value, m.rounding)
            elif op is Op.MIN:
                value = max(value, _round(m.value, m.rounding))
            elif op is Op.MAX:
                value = min(value, _round(m.value, m.rounding))
            steps.append(Step(m, before, value))
    if floor is not None and value < floor:
        value = floor
    return Combined(quantity, base, value, tuple(steps))


@dataclass(frozen=True, slots=True)
class ArmourSave:
    """An Armour Save after Stat changes and Dice Modifiers (§12.1 L205-L209).

    ``stat`` is the save as a Stat (``None``: no save), which AP is compared with; ``needed``
    the score a die needs after Dice Modifiers (7: cannot pass); ``ignored`` whether the
    weapon's AP ignores it.
    """

    stat: int | None
    needed: int | None
    ignored: bool

    @property
    def rollable(self) -> bool:
        """Whether the target rolls this save at all."""
        return self.stat is not None and not self.ignored and (self.needed or 7) <= 6


def armour_save(
    base: int | None,
    stat_changes: int = 0,
    dice_modifier: int = 0,
    ap: int | None = None,
    *,
    best: int = 2,
) -> ArmourSave:
    """The Armour Save of a target (the D6 score needed, ``3`` for 3+).

    ``stat_changes`` improve (positive) or worsen (negative) the Stat itself (Corrode -1,
    +Armour +D3); the Stat stays ``best``+ at most, and a save worsened past 6+ is lost (§12.1
    L117, Example 2: "a 5+ Armour Save reduced by -2 or more will not have an Armour Save").
    A unit with no save that gains some starts from 7 (``+Armour``: "can gain one").
    AP N+ ignores a save of N+ or worse, compared with the changed Stat (L205: "-1 to a 3+ …
    AP 4+ Weapons ignore it"). ``dice_modifier`` (Penetrate -1) changes only the roll needed.

    >>> armour_save(3, stat_changes=-1, ap=4)
    ArmourSave(stat=4, needed=4, ignored=True)
    >>> armour_save(3, dice_modifier=-1, ap=4)
    ArmourSave(stat=3, needed=4, ignored=False)
    >>> armour_save(5, stat_changes=-2).stat is None
    True
    """
    if base is None and stat_changes <= 0:
        return ArmourSave(None, None, False)
    start = 7 if base is None else base
    stat: int | None = max(best, start - stat_changes)
    if stat is not None and stat > 6:
        stat = None
    if stat is None:
        return ArmourSave(None, None, False)
    ignored = ap is not None and stat >= ap
    needed = stat - dice_modifier
    return ArmourSave(stat, max(2, needed), ignored)


#: §12.1 L211-L219: the order of damage increasers in one Attack Sequence, with the book's
#: example perks ("Clash (+) +Attacks II (+) Arc I (x) xD6 Attacks. Obliterate I. Destroy I (+)
#: Devastate I (x) Annihilate I"). The attack kernel (``attack.compile_weapon_use``) applies
#: them in this order; ``tests/rulesets/warsurge/effects`` checks it against the kernel.
DAMAGE_ORDER: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("add Attacks", ("Clash", "+Attacks II (D6)")),
    ("multiply Attacks", ("Arc I", "xD6 Attacks")),
    ("multiply successful Attack Dice", ("Obliterate I",)),
    ("add HP Loss", ("Destroy I",)),
    ("multiply HP Loss", ("Devastate I", "Annihilate I")),
)
