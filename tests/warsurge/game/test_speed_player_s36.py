"""The player's side and the game's geometry, an eighteenth pass (issue 10, session 36,
s36-speedg; docs/game.md "An eighteenth pass: the player's side"). Each fast path gives the
very numbers of the form it replaced, tested here against that form (kept in this file) on
many random inputs, degenerate ones among them:

* ``kernel.dice.sequence_seed`` (the seed of a step's dice, ``state.step_seed``) hands NumPy's
  ``SeedSequence`` the 32-bit words of its entropy list instead of the list;
* the step's dice read NumPy from a module global once it is imported (no ``import numpy``
  statement per roll), and dice drawn in plain Python still never import it;
* ``geom.point_distances`` and ``coherency._overlapping`` keep x and y apart instead of
  summing ``(n, 2)`` arrays over rows of two (§4.7 overlaps, §1.3); ``_overlapping`` is
  compiled since session 38 (``coherency_jit.candidate_overlaps``), held here to the same
  every-pair form.
"""

from __future__ import annotations

import builtins
import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

from warbench.kernel.dice import SeededChoices, SeededDice, sequence_seed
from warbench.kernel.pcg64 import uint32_words
from warbench.rulesets.warsurge.game import geom
from warbench.rulesets.warsurge.game.coherency_jit import candidate_overlaps
from warbench.rulesets.warsurge.game.state import step_seed

MASK63 = 2**63 - 1


def _step_seed_before(seed: int, step: int) -> int:
    """Session 35's ``state.step_seed`` (the list handed to ``SeedSequence``), the reference."""
    ss = np.random.SeedSequence([seed & MASK63, step])
    a, b = (int(x) for x in ss.generate_state(2))
    return ((a << 32) | b) & MASK63


def test_uint32_words_are_numpys_coercion_of_an_int() -> None:
    for n in (0, 1, 2**32 - 1, 2**32, 2**63 - 1, 2**64, 3 * 2**70 + 5):
        words = np.random.SeedSequence(n).entropy  # NumPy keeps the int; coerce it as it does
        coerced = np.random.bit_generator._coerce_to_uint32_array(words)  # type: ignore[attr-defined]
        assert uint32_words(n) == coerced.tolist(), n


def test_step_seed_is_the_list_forms_seed_bit_for_bit() -> None:
    rng = random.Random(36)
    cases = [(0, 0), (0, 1), (1, 0), (2**32, 0), (2**32 - 1, 2**32), (MASK63, 5), (-1, 3)]
    cases += [(-(2**70), 7), (2**64 + 5, 2**40)]
    widths = (1, 8, 31, 32, 33, 63, 64, 80)
    cases += [
        (rng.getrandbits(rng.choice(widths)), rng.getrandbits(rng.choice((1, 10, 32, 33))))
        for _ in range(5000)
    ]
    for seed, step in cases:
        assert step_seed.__wrapped__(seed, step) == _step_seed_before(seed, step), (seed, step)
    # three ints and none: the same as NumPy's own coercion of the list
    for entropy in ((1, 2, 3), (2**40, 0, 2**33 + 1), (7,)):
        a, b = (int(x) for x in np.random.SeedSequence(list(entropy)).generate_state(2))
        assert sequence_seed(*entropy) == ((a << 32) | b) & MASK63


@contextmanager
def _imports() -> Iterator[list[str]]:
    """The names of the import statements run inside the block."""
    seen: list[str] = []
    real = builtins.__import__

    def counting(name: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(name)
        return real(name, *args, **kwargs)

    builtins.__import__ = counting
    try:
        yield seen
    finally:
        builtins.__import__ = real


def test_a_steps_dice_run_no_import_statement_once_numpy_is_loaded() -> None:
    SeededDice(1).d6_array(3, "warm")  # NumPy loaded and kept
    with _imports() as seen:
        dice = SeededDice(step_seed.__wrapped__(5, 17))
        faces = dice.d6_array(12, "Attack Dice")
        dice.roll("2D6", "a roll")
        light = SeededDice(9, light=True)
        light.roll("D6", "plain Python")
        light.d6_array(4, "then NumPy")  # continues the same stream in NumPy
        SeededChoices(3).choice([1, 2, 3])
        sequence_seed(1, 2)
    assert seen == [], seen  # session 35: an ``import numpy`` in each of these
    # the same faces as a generator made here
    assert (
        faces.tolist()
        == np.random.Generator(np.random.PCG64(dice.seed)).integers(1, 7, size=12).tolist()
    )


def test_plain_python_dice_still_never_import_numpy() -> None:
    code = (
        "import sys\n"
        "from warbench.kernel.dice import SeededDice\n"
        "d = SeededDice(5, light=True)\n"
        "print(d.roll('2D6', 'x'), d.d6('y'), 'numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[-1] == "False", out.stdout


def _points(rng: np.random.Generator, n: int, grid: bool) -> np.ndarray:
    if grid:  # an integer grid: many distances tie and many points coincide
        return rng.integers(0, 6, size=(n, 2)).astype(np.float64)
    return rng.uniform(-30.0, 30.0, size=(n, 2))


@pytest.mark.parametrize("grid", [False, True])
def test_point_distances_are_the_rows_of_two_form_bit_for_bit(grid: bool) -> None:
    rng = np.random.default_rng(36)
    for _ in range(400):
        xy = _points(rng, int(rng.integers(1, 60)), grid)
        p = tuple(_points(rng, 1, grid)[0].tolist())
        before = np.sqrt(((xy - np.asarray(p)) ** 2).sum(axis=1))
        assert geom.point_distances(xy, p).tobytes() == before.tobytes()
    # integer coordinates of a point (a Point may hold ints): the same floats
    xy = _points(rng, 20, True)
    assert (
        geom.point_distances(xy, (2, 3)).tobytes()
        == np.sqrt(((xy - np.asarray((2, 3))) ** 2).sum(axis=1)).tobytes()
    )


@pytest.mark.parametrize("grid", [False, True])
def test_overlapping_is_every_pair_measured_in_the_rows_of_two_form(grid: bool) -> None:
    rng = np.random.default_rng(7)
    tol = 1e-6
    overlaps = 0
    for _ in range(300):
        pts = _points(rng, int(rng.integers(1, 40)), grid)
        oxy = _points(rng, int(rng.integers(1, 40)), grid)
        orad = rng.choice([0.5, 0.63, 1.0, 1.26], size=len(oxy))
        r = float(rng.choice([0.5, 0.63, 1.0]))
        bad, which2 = candidate_overlaps(
            np.ascontiguousarray(pts[:, None, :]),
            np.zeros(len(pts), dtype=bool),
            None,
            r,
            oxy,
            orad,
            np.ones(len(oxy), dtype=np.int64),
            0,
            tol,
        )
        got, which = bad[:, 0], which2[:, 0]
        # every pair, in session 35's form (the band of x leaves out no pair that overlaps)
        d = np.sqrt(((pts[:, None, :] - oxy[None, :, :]) ** 2).sum(axis=2)) - orad - r
        over = d < -tol
        assert got.tolist() == over.any(axis=1).tolist()
        hit = got.nonzero()[0]
        assert over[hit, which[hit]].all()  # a base each overlapping point overlaps
        assert (which[~got] == -1).all()
        overlaps += int(got.sum())
    assert overlaps > 100  # the cases overlap often enough to test it
