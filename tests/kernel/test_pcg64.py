"""The plain-Python PCG64 stream draws exactly NumPy's faces (warbench.kernel.pcg64).

``warbench roll`` must not import NumPy (issue 18, start-up) yet a seed must give the faces
``SeededDice`` has always given; these tests compare every step with NumPy itself.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from warbench.kernel.dice import SeededDice, TestKind
from warbench.kernel.pcg64 import Pcg64Stream, seed_sequence_state

SEEDS = st.integers(min_value=0, max_value=2**130)


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_seed_sequence_matches_numpy(seed: int) -> None:
    expected = np.random.SeedSequence(seed).generate_state(4, np.uint64)
    assert seed_sequence_state(seed, 4) == [int(x) for x in expected]


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.lists(st.tuples(st.integers(1, 40), st.sampled_from([2, 6, 8, 7, 100]))))
def test_stream_matches_numpy_generator_integers(seed: int, draws: list[tuple[int, int]]) -> None:
    mine = Pcg64Stream(seed)
    ref = np.random.Generator(np.random.PCG64(seed))
    assert mine.numpy_state() == ref.bit_generator.state
    for n, high in draws:
        assert mine.integers(0, high, n) == [int(x) for x in ref.integers(0, high, size=n)]
        assert mine.bounded(1, 7) == int(ref.integers(1, 7))
        assert mine.numpy_state() == ref.bit_generator.state


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**63 - 1), st.lists(st.sampled_from(["d6", "2d6", "scatter", "aether"])))
def test_light_seeded_dice_give_the_same_faces_and_hand_over_to_numpy(
    seed: int, ops: list[str]
) -> None:
    light, heavy = SeededDice(seed, light=True), SeededDice(seed)
    for op in ops:
        for dice in (light, heavy):
            if op == "d6":
                dice.d6()
            elif op == "2d6":
                dice.two_d6()
            elif op == "scatter":
                dice.scatter()
            else:
                dice.test(TestKind.AETHER)
    # then a batch of Attack Dice: the light dice continue the same stream in NumPy
    assert list(light.d6_array(50, "batch")) == list(heavy.d6_array(50, "batch"))
    assert light.d6() == heavy.d6()
    assert [(e.label, e.faces, e.result) for e in light.log if hasattr(e, "result")] == [
        (e.label, e.faces, e.result) for e in heavy.log if hasattr(e, "result")
    ]


def test_a_light_roll_of_ten_thousand_dice_matches_numpy() -> None:
    faces = SeededDice(2026, light=True)._faces(10_000, "many")
    ref = np.random.Generator(np.random.PCG64(2026)).integers(1, 7, size=10_000)
    assert faces == [int(x) for x in ref]
