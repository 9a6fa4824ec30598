"""The D10s of Collision ("10 sided dice (D10s)", ``003_fc239e71486306e1.txt`` L41-43).

A roller is any callable ``label -> face``; the rules functions take one, so the same code is
sampled (:class:`SeededD10`), scripted in tests (:class:`ScriptedD10`) or enumerated exactly
(:mod:`warbench.rulesets.collision.odds`). Each roller logs ``(label, face)`` pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from warbench.kernel.errors import DiceError
from warbench.kernel.pcg64 import Pcg64Stream

#: A D10 roller: label -> face 1..10.
Roll = Callable[[str], int]


class SeededD10:
    """Seeded D10s from the kernel's dice generator (PCG64, the stream of
    :class:`~warbench.kernel.dice.SeededDice`: ``Generator.integers(1, 11)``, bit for bit); the
    seed is kept and every roll is logged, so a seed replays the same faces anywhere."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._stream = Pcg64Stream(seed)
        self.log: list[tuple[str, int]] = []

    def __call__(self, label: str) -> int:
        face = self._stream.bounded(1, 11)
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
