"""The dice service: the only source of randomness in warbench.

Three variants share one interface (:class:`Dice`):

* :class:`SeededDice` draws from a seeded NumPy ``PCG64`` generator. The seed is always
  recorded (generated from the OS when not given), so any game can be replayed.
* :class:`ScriptedDice` returns D6 faces from a script, for tests of worked examples.
* :class:`EnumeratingDice` (driven by :func:`enumerate_outcomes`) does not pick an outcome:
  it makes a program that rolls dice run once per combination of outcomes and reports each
  result with its exact probability, so the same rules code can be sampled or enumerated.

Every roll becomes a :class:`RollEvent` in :attr:`Dice.log`.

NumPy is imported only when a roll needs it (a batch of Attack Dice, ``SeededDice.rng``), so
``warbench roll`` starts quickly: a ``SeededDice(seed, light=True)`` draws the very same faces in
plain Python (:mod:`warbench.kernel.pcg64`) until then.

Dice terms follow WARSURGE Core Rules (001_d3f5e425c5e1196d.txt §1.4): a D3 is a D6 divided by 2
rounded up, a D2 is a D6 divided by 3 rounded up, 2D6 is two D6 added, rerolls pick up either
failed or successful dice (never both), roll-offs reroll ties among the top players. The
Scatter Arrow follows Perks 000_94ecc6a4c74d351b.txt §12.3 (manual method) and the tests
follow §12.2.
"""

from __future__ import annotations

import re
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Generic, TypeVar

from warbench.kernel.errors import DiceError, EnumerationTooLarge
from warbench.kernel.pcg64 import Pcg64Stream, uint32_words

if TYPE_CHECKING:
    from types import ModuleType

    import numpy as np
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]

T = TypeVar("T")

#: NumPy, once a roll has needed it (:func:`_numpy`); None until then, so a command that rolls
#: a few dice in plain Python never imports it
_NP: ModuleType | None = None


def _numpy() -> ModuleType:
    """NumPy, imported on first use and kept in :data:`_NP`: the rolls read the module
    global (``_NP or _numpy()``, a few instructions) instead of running ``import numpy`` in
    the function each time (~2,060 instructions; 157 a 1000-point game, issue 10, session 36)."""
    global _NP
    if _NP is None:
        import numpy

        _NP = numpy
    return _NP


# --------------------------------------------------------------------------------------------
# Dice expressions
# --------------------------------------------------------------------------------------------

_EXPR = re.compile(
    r"^\s*(?:(?P<count>\d+)?\s*D(?P<sides>[236])|(?P<const>\d+))"
    r"(?:\s*(?P<sign>[+-])\s*(?P<bonus>\d+))?(?:\s*[x×*]\s*(?P<mult>\d+))?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, order=True)
class DiceExpr:
    """A dice expression such as ``D3``, ``2D6``, ``D6+1``, ``2D6x3`` or a constant ``4``.

    ``sides`` is 6, 3 or 2 (a D3 and a D2 are a D6 read through §1.4's division), ``count`` is
    how many such dice are added, then ``bonus`` is added and the total multiplied by
    ``multiplier``. ``count == 0`` is a constant ``bonus``.
    """

    count: int
    sides: int = 6
    bonus: int = 0
    multiplier: int = 1

    @classmethod
    def parse(cls, text: str | int, *, max_count: int = 50) -> DiceExpr:
        """Parse ``"2D6"``, ``"D3"``, ``"D6+1"``, ``"2D6x3"`` or ``"4"``.

        Profiles and perks roll at most 50 dice in one expression; the dice generator
        (``warbench roll``) allows bigger pools with ``max_count``.
        """
        if isinstance(text, int):
            if text < 0:
                raise DiceError(f"dice expression {text!r}: a constant must be 0 or more")
            return cls(count=0, bonus=text)
        m = _EXPR.match(text)
        if not m:
            raise DiceError(
                f"dice expression {text!r} is not understood; allowed: D2, D3, D6, nD6, "
                "a constant, optionally +N and xN (e.g. 2D6x3)"
            )
        mult = int(m["mult"]) if m["mult"] else 1
        bonus = int(m["bonus"]) if m["bonus"] else 0
        if m["sign"] == "-":
            bonus = -bonus
        if m["const"] is not None:
            return cls(count=0, bonus=int(m["const"]) + bonus, multiplier=mult)
        count = int(m["count"]) if m["count"] else 1
        if count < 1 or count > max_count:
            raise DiceError(f"dice expression {text!r}: dice count must be 1 to {max_count:,}")
        return cls(count=count, sides=int(m["sides"]), bonus=bonus, multiplier=mult)

    def __str__(self) -> str:
        if self.count == 0:
            core = str(self.bonus)
            return core if self.multiplier == 1 else f"{core}x{self.multiplier}"
        core = f"{self.count if self.count > 1 else ''}D{self.sides}"
        if self.bonus:
            core += f"{'+' if self.bonus > 0 else '-'}{abs(self.bonus)}"
        if self.multiplier != 1:
            core += f"x{self.multiplier}"
        return core

    @property
    def d6_needed(self) -> int:
        """How many physical D6 the expression rolls."""
        return self.count

    def value_of(self, faces: Sequence[int]) -> int:
        """The expression's value for the given physical D6 faces."""
        if len(faces) != self.count:
            raise DiceError(f"{self} needs {self.count} D6, got {len(faces)}")
        return (sum(read_face(f, self.sides) for f in faces) + self.bonus) * self.multiplier

    def distribution(self) -> dict[int, Fraction]:
        """The exact distribution of the expression's value."""
        return dict(_distribution(self))

    @property
    def minimum(self) -> int:
        return min(self.distribution())

    @property
    def maximum(self) -> int:
        return max(self.distribution())

    def mean(self) -> float:
        return float(sum(v * p for v, p in self.distribution().items()))


def read_face(face: int, sides: int) -> int:
    """Read a D6 face as a D6, D3 (divide by 2, round up) or D2 (divide by 3, round up). §1.4."""
    if sides == 6:
        return face
    if sides == 3:
        return (face + 1) // 2
    if sides == 2:
        return (face + 2) // 3
    raise DiceError(f"dice with {sides} sides are not used; allowed: D2, D3, D6")


@lru_cache(maxsize=512)
def _distribution(expr: DiceExpr) -> tuple[tuple[int, Fraction], ...]:
    if expr.count == 0:
        return ((expr.bonus * expr.multiplier, Fraction(1)),)
    single: dict[int, Fraction] = {}
    for f in range(1, 7):
        v = read_face(f, expr.sides)
        single[v] = single.get(v, Fraction(0)) + Fraction(1, 6)
    total: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(expr.count):
        nxt: dict[int, Fraction] = {}
        for a, pa in total.items():
            for b, pb in single.items():
                nxt[a + b] = nxt.get(a + b, Fraction(0)) + pa * pb
        total = nxt
    out: dict[int, Fraction] = {}
    for v, p in total.items():
        key = (v + expr.bonus) * expr.multiplier
        out[key] = out.get(key, Fraction(0)) + p
    return tuple(sorted(out.items()))


D2 = DiceExpr(1, 2)
D3 = DiceExpr(1, 3)
D6 = DiceExpr(1, 6)
TWO_D6 = DiceExpr(2, 6)

# --------------------------------------------------------------------------------------------
# Events and results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollEvent:
    """One roll in the log: what was rolled, why, the physical faces and the result."""

    label: str
    expr: str
    faces: tuple[int, ...]
    result: int
    probability: float | None = None  # set by EnumeratingDice: the chance of this outcome


@dataclass(frozen=True)
class BatchRollEvent:
    """A vectorised batch of D6 (attack or save dice) in the log; faces kept as an array."""

    label: str
    count: int
    faces: IntArray


class TestKind(StrEnum):
    """The activation tests of Perks §12.2."""

    __test__ = False  # not a pytest test class

    MASTERY = "Mastery"
    SKILL = "Skill"
    AETHER = "Aether"


@dataclass(frozen=True)
class TestResult:
    """The outcome of a Mastery, Skill or Aether test (Perks 000_94ecc6a4c74d351b.txt §12.2).

    ``roll`` is the natural roll. For an Aether test ``counts_as`` is the result after the Dice
    Modifier (Resist L1687-1689: "a result of 2 counts as 3, and a result of 11 counts as 12";
    Fugue L2724-2725), kept within 2 to 12; ``doubled`` is a result that counts as 2 (the effect
    or Stat bonus is doubled) and ``backlash`` one that counts as 12 (the User suffers D6 HP Loss,
    no Saves). For Mastery and Skill tests ``counts_as`` is the roll.
    """

    kind: TestKind
    roll: int
    needed: int
    passed: bool
    doubled: bool = False
    backlash: bool = False
    counts_as: int = 0


class ScatterDirection(StrEnum):
    """Eight compass directions, as on the app's Scatter Arrow (§12.3)."""

    N = "N"
    NE = "NE"
    E = "E"
    SE = "SE"
    S = "S"
    SW = "SW"
    W = "W"
    NW = "NW"

    @property
    def degrees(self) -> int:
        return list(ScatterDirection).index(self) * 45


@dataclass(frozen=True)
class ScatterResult:
    """A Scatter Arrow roll: a Hit, or a direction and a distance in inches (§12.3)."""

    hit: bool
    direction: ScatterDirection | None
    distance: int


# --------------------------------------------------------------------------------------------
# The service
# --------------------------------------------------------------------------------------------


class Dice(ABC):
    """The dice service. Subclasses only decide where D6 faces come from."""

    def __init__(self) -> None:
        self.log: list[RollEvent | BatchRollEvent] = []

    # -- the primitive -------------------------------------------------------------------
    @abstractmethod
    def _faces(self, n: int, label: str) -> list[int]:
        """Return ``n`` D6 faces (1..6)."""

    def _direction(self, label: str) -> ScatterDirection:
        """A uniformly random direction; drawn from two D6 faces by default (see ScriptedDice)."""
        # 8 directions from a D6 reroll loop would bias nothing but cost rolls; subclasses with a
        # generator override this. The default reads one D6 then a D2: 6 x 2 = 12 cells, first 8.
        while True:
            a, b = self._faces(2, label)
            cell = (a - 1) * 2 + read_face(b, 2) - 1
            if cell < 8:
                return list(ScatterDirection)[cell]

    def d6_array(self, n: int, label: str) -> IntArray:
        """``n`` D6 as an array (for vectorised attack resolution); logged as one batch."""
        np = _NP or _numpy()
        faces: IntArray = np.asarray(self._faces(n, label), dtype=np.int64)
        self.log.append(BatchRollEvent(label, n, faces))
        return faces

    # -- derived rolls -------------------------------------------------------------------
    def roll(self, expr: DiceExpr | str | int, label: str = "roll") -> int:
        """Roll a dice expression (``D3``, ``2D6`` ...) and return its value."""
        e = expr if isinstance(expr, DiceExpr) else DiceExpr.parse(expr)
        faces = self._faces(e.d6_needed, label) if e.count else []
        value = e.value_of(faces)
        self.log.append(RollEvent(label, str(e), tuple(faces), value))
        return value

    def d6(self, label: str = "D6") -> int:
        return self.roll(D6, label)

    def d3(self, label: str = "D3") -> int:
        return self.roll(D3, label)

    def d2(self, label: str = "D2") -> int:
        return self.roll(D2, label)

    def two_d6(self, label: str = "2D6") -> int:
        return self.roll(TWO_D6, label)

    def roll_dice(self, n: int, label: str = "dice") -> list[int]:
        """Roll ``n`` D6 and return their faces (the dice generator's plain roll; §1.4)."""
        faces = self._faces(n, label)
        self.log.append(RollEvent(label, f"{n}D6", tuple(faces), sum(faces)))
        return faces

    def reroll_faces(
        self, faces: Sequence[int], reroll: Collection[int], label: str = "reroll"
    ) -> list[int]:
        """Pick up the dice showing a face in ``reroll`` and roll them again, once; the new
        results must be accepted (Core Rules 001_d3f5e425c5e1196d.txt §1.4, L327-329)."""
        picked = [i for i, f in enumerate(faces) if f in reroll]
        out = list(faces)
        if picked:
            new = self._faces(len(picked), label)
            self.log.append(RollEvent(label, f"{len(picked)}D6", tuple(new), sum(new)))
            for i, f in zip(picked, new, strict=True):
                out[i] = f
        return out

    def roll_target(
        self,
        n: int,
        target: int,
        *,
        reroll: str | None = None,
        label: str = "dice",
    ) -> tuple[int, list[int]]:
        """Roll ``n`` D6 needing ``target``+; optionally reroll ``"failed"`` or ``"successful"``.

        Returns the number of successes and the final faces. §1.4: a reroll must be accepted.
        """
        if reroll not in (None, "failed", "successful"):
            raise DiceError(f"reroll {reroll!r}: allowed: 'failed', 'successful' or none")
        faces = self._faces(n, label)
        self.log.append(RollEvent(label, f"{n}D6 {target}+", tuple(faces), 0))
        if reroll is not None:
            want_success = reroll == "successful"
            idx = [i for i, f in enumerate(faces) if (f >= target) == want_success]
            if idx:
                new = self._faces(len(idx), f"{label} reroll {reroll}")
                self.log.append(RollEvent(f"{label} reroll", f"{len(idx)}D6", tuple(new), 0))
                for i, f in zip(idx, new, strict=True):
                    faces[i] = f
        return sum(1 for f in faces if f >= target), faces

    def roll_off(self, players: Sequence[str], label: str = "roll-off") -> str:
        """Each player rolls a D6; ties among the top players are rerolled (§1.4 Roll-Off)."""
        if len(players) < 2:
            raise DiceError("a roll-off needs at least two players")
        contenders = list(players)
        while True:
            faces = self._faces(len(contenders), label)
            self.log.append(RollEvent(label, f"{len(contenders)}D6", tuple(faces), max(faces)))
            top = max(faces)
            contenders = [p for p, f in zip(contenders, faces, strict=True) if f == top]
            if len(contenders) == 1:
                return contenders[0]

    def scatter(self, distance_dice: int = 2, label: str = "scatter") -> ScatterResult:
        """Scatter Arrow, manual method (§12.3): 1 or 6 is a Hit; otherwise a direction, and the
        distance is the total of the ``distance_dice`` D6 rolled with it."""
        if distance_dice not in (1, 2):
            raise DiceError("a Scatter Arrow is rolled with 1 or 2 D6 for distance")
        arrow = self._faces(1, label)[0]
        dist_faces = self._faces(distance_dice, f"{label} distance")
        if arrow in (1, 6):
            self.log.append(RollEvent(label, "Scatter", (arrow, *dist_faces), 0))
            return ScatterResult(True, None, 0)
        direction = self._direction(f"{label} direction")
        distance = sum(dist_faces)
        self.log.append(RollEvent(label, "Scatter", (arrow, *dist_faces), distance))
        return ScatterResult(False, direction, distance)

    def test(self, kind: TestKind, modifier: int = 0, label: str | None = None) -> TestResult:
        """A Mastery or Skill test (D6, 4+ before modifiers) or an Aether test (2D6). §12.2.

        An Aether test passes on a result of 9 or lower (000_94ecc6a4c74d351b.txt L251-259). A
        Dice Modifier makes the roll *count as* another number: with -1 (Resist I, L1687-1689)
        a 2 counts as 3 and an 11 as 12, so it passes on 8 or lower; with -3 (Fugue,
        L2724-2725) a 2 counts as 5 and 9-11 count as 12. Doubling and backlash follow the
        result the roll counts as (a +1 modifier: a 3 counts as 2, passes on 10 or lower;
        docs/rulings.md 34).
        """
        name = label or f"{kind.value} Test"
        if kind is TestKind.AETHER:
            value = self.roll(TWO_D6, name)
            counts_as = aether_counts_as(value, modifier)
            return TestResult(
                kind,
                value,
                9 + modifier,
                passed=counts_as <= 9,
                doubled=counts_as == 2,
                backlash=counts_as == 12,
                counts_as=counts_as,
            )
        value = self.roll(D6, name)
        needed = min(6, max(2, 4 - modifier))
        return TestResult(kind, value, needed, value >= needed, counts_as=value)


def aether_counts_as(roll: int, modifier: int) -> int:
    """The number a natural 2D6 Aether roll counts as under a Dice Modifier, within 2 to 12.

    Perks 000_94ecc6a4c74d351b.txt L1687-1689 (Resist, -1: 2 counts as 3, 11 counts as 12) and
    L2724-2725 (Fugue, -3: 2 counts as 5, 9, 10 and 11 count as 12).
    """
    return min(12, max(2, roll - modifier))


class SeededDice(Dice):
    """Dice from a seeded PCG64 generator; the seed is recorded in :attr:`seed`.

    The faces are those of ``numpy.random.Generator(numpy.random.PCG64(seed))``. With
    ``light=True`` they are drawn in plain Python (:class:`~warbench.kernel.pcg64.Pcg64Stream`,
    the same faces) until something needs NumPy (:attr:`rng`, :meth:`d6_array`), which then
    continues the same stream; a command that rolls a few dice never imports NumPy.
    """

    def __init__(self, seed: int | None = None, *, light: bool = False) -> None:
        super().__init__()
        self.seed: int = secrets.randbits(63) if seed is None else int(seed)
        self._stream: Pcg64Stream | None = Pcg64Stream(self.seed) if light else None
        self._rng: np.random.Generator | None = None
        if not light:
            np = _NP or _numpy()
            self._rng = np.random.Generator(np.random.PCG64(self.seed))

    @property
    def rng(self) -> np.random.Generator:
        """The NumPy generator of this stream (created from the plain-Python state if light)."""
        if self._rng is None:
            np = _NP or _numpy()
            assert self._stream is not None
            bits = np.random.PCG64()
            bits.state = self._stream.numpy_state()
            self._rng = np.random.Generator(bits)
            self._stream = None
        return self._rng

    def _faces(self, n: int, label: str) -> list[int]:
        if self._stream is not None:
            return self._stream.integers(1, 7, n)
        return [int(x) for x in self.rng.integers(1, 7, size=n)]

    def d6_array(self, n: int, label: str) -> IntArray:
        np = _NP or _numpy()
        faces: IntArray = self.rng.integers(1, 7, size=n, dtype=np.int64)
        self.log.append(BatchRollEvent(label, n, faces))
        return faces

    def _direction(self, label: str) -> ScatterDirection:
        if self._stream is not None:
            return list(ScatterDirection)[self._stream.bounded(0, 8)]
        return list(ScatterDirection)[int(self.rng.integers(0, 8))]


def sequence_seed(*entropy: int) -> int:
    """A 63-bit seed from non-negative ints: the two 32-bit words of
    ``numpy.random.SeedSequence(list(entropy)).generate_state(2)`` joined, the first high. The
    entropy is handed to NumPy as the words its coercion makes of that list (each int's
    little-endian 32-bit words, :func:`~warbench.kernel.pcg64.uint32_words`, joined), so the
    very same hash without the coercion of a list (a quarter of the cost; issue 10, session 36:
    each step that rolls dice derives its seed so)."""
    np = _NP or _numpy()
    words = [w for v in entropy for w in uint32_words(v)]
    a, b = np.random.SeedSequence(np.array(words, dtype=np.uint32)).generate_state(2).tolist()
    out: int = ((a << 32) | b) & (2**63 - 1)
    return out


class SeededChoices:
    """Seeded choices for automated *players* (not game chance): a random-legal player picks
    with it. Its choices become recorded actions, so replay never needs it again; the seed is
    recorded in :attr:`seed` so a whole self-play run can be repeated."""

    def __init__(self, seed: int | None = None) -> None:
        np = _NP or _numpy()
        self.seed: int = secrets.randbits(63) if seed is None else int(seed)
        self.rng = np.random.Generator(np.random.PCG64(self.seed))

    def random(self) -> float:
        """A float in [0, 1)."""
        return float(self.rng.random())

    def choice(self, items: Sequence[T]) -> T:
        """One of ``items`` (not empty), uniformly."""
        if not items:
            raise DiceError("cannot choose from an empty list")
        return items[int(self.rng.integers(0, len(items)))]

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place."""
        order = self.rng.permutation(len(items))
        items[:] = [items[int(i)] for i in order]


class ScriptedDice(Dice):
    """Dice that return scripted D6 faces in order, for tests of the rulebook's examples."""

    def __init__(self, faces: Sequence[int]) -> None:
        super().__init__()
        bad = [f for f in faces if not 1 <= f <= 6]
        if bad:
            raise DiceError(f"scripted faces {bad} are not D6 faces; allowed: 1 to 6")
        self.faces = list(faces)
        self.position = 0

    def _faces(self, n: int, label: str) -> list[int]:
        if self.position + n > len(self.faces):
            raise DiceError(
                f"scripted dice exhausted at {label!r}: needed {n} more, "
                f"{len(self.faces) - self.position} left"
            )
        out = self.faces[self.position : self.position + n]
        self.position += n
        return out

    @property
    def remaining(self) -> int:
        return len(self.faces) - self.position


# --------------------------------------------------------------------------------------------
# Exact enumeration
# --------------------------------------------------------------------------------------------


class EnumeratingDice(Dice):
    """Dice that follow a fixed path of choices and record where the program branches.

    Used by :func:`enumerate_outcomes`; every roll is grouped by value (a 2D6 roll has 11
    outcomes, not 36), so a program with a few weapon-level rolls enumerates quickly.
    """

    def __init__(self, path: Sequence[int]) -> None:
        super().__init__()
        self.path = list(path)
        self.depth = 0
        self.probability = 1.0
        self.new_branches: list[int] = []  # branching factor at each roll beyond the path

    def _choose(self, outcomes: Sequence[tuple[T, float]]) -> T:
        if self.depth < len(self.path):
            i = self.path[self.depth]
        else:
            i = 0
            self.new_branches.append(len(outcomes))
        self.depth += 1
        value, p = outcomes[i]
        self.probability *= p
        return value

    def _faces(self, n: int, label: str) -> list[int]:
        if n > 6:
            raise EnumerationTooLarge(f"enumerating {n} individual D6 for {label!r}")
        combos = list(product(range(1, 7), repeat=n))
        p = 1.0 / len(combos)
        return list(self._choose([(list(c), p) for c in combos]))

    def roll(self, expr: DiceExpr | str | int, label: str = "roll") -> int:
        e = expr if isinstance(expr, DiceExpr) else DiceExpr.parse(expr)
        outcomes = [(v, float(p)) for v, p in _distribution(e)]
        value = self._choose(outcomes)
        self.log.append(RollEvent(label, str(e), (), value, self.probability))
        return value

    def _direction(self, label: str) -> ScatterDirection:
        return self._choose([(d, 1 / 8) for d in ScatterDirection])


@dataclass
class Enumeration(Generic[T]):
    """The outcomes of an enumerated program: ``(result, probability)`` pairs."""

    outcomes: list[tuple[T, float]] = field(default_factory=list)

    @property
    def total_probability(self) -> float:
        return sum(p for _, p in self.outcomes)


def enumerate_outcomes(program: Callable[[Dice], T], *, max_paths: int = 200_000) -> Enumeration[T]:
    """Run ``program`` once per combination of dice outcomes, with exact probabilities.

    The program must be deterministic apart from the dice it rolls. Raises
    :class:`EnumerationTooLarge` past ``max_paths`` paths, so callers can fall back to sampling.
    """
    result: Enumeration[T] = Enumeration()
    stack: list[list[int]] = [[]]
    while stack:
        path = stack.pop()
        dice = EnumeratingDice(path)
        value = program(dice)
        result.outcomes.append((value, dice.probability))
        # Each new branching point beyond the given path has alternatives 1..k-1 to explore.
        base = list(path)
        for k in dice.new_branches:
            for alt in range(1, k):
                stack.append([*base, alt])
            base.append(0)
        if len(result.outcomes) + len(stack) > max_paths:
            raise EnumerationTooLarge(f"more than {max_paths} dice paths to enumerate")
    return result
