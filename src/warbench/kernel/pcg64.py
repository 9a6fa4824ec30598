"""NumPy's seeded PCG64 dice stream in plain Python, for commands that must start quickly.

:class:`~warbench.kernel.dice.SeededDice` draws D6 faces as
``numpy.random.Generator(numpy.random.PCG64(seed)).integers(1, 7, size=n)``. Importing NumPy
costs more than the rest of ``warbench roll`` together, so :class:`Pcg64Stream` reproduces that
stream bit for bit without NumPy: the same ``SeedSequence`` hashing of the seed, the same
PCG64 (XSL-RR 128/64) generator with the same 32-bit half-word buffer, and the same Lemire
bounded-integer draws. :meth:`Pcg64Stream.numpy_state` hands the exact state to a NumPy
``PCG64`` when NumPy is needed after all, so one seed gives one sequence of faces whichever
path drew them. tests/kernel/test_pcg64.py checks every step against NumPy.

References: O'Neill, "PCG: A Family of Simple Fast Space-Efficient Statistically Good
Algorithms for Random Number Generation" (2014); Lemire, "Fast Random Integer Generation in an
Interval" (2019); NumPy ``bit_generator.pyx`` (SeedSequence), ``pcg64.h`` and
``distributions.c`` (``buffered_bounded_lemire_uint32``).
"""

from __future__ import annotations

from typing import TypedDict

_MASK32 = (1 << 32) - 1
_MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1

# SeedSequence (NumPy bit_generator.pyx).
_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_MULT_L = 0xCA01F9DD
_MIX_MULT_R = 0x4973F715
_XSHIFT = 16
_POOL_SIZE = 4

# PCG64 (pcg64.h): the default 128-bit multiplier.
_PCG_MULT = 0x2360ED051FC65DA44385DF649FCCF645


def uint32_words(n: int) -> list[int]:
    """An entropy integer as little-endian 32-bit words (SeedSequence's coercion of an int:
    NumPy's ``_int_to_uint32_array``, one word ``0`` for zero)."""
    if n < 0:
        raise ValueError("a seed must be a non-negative integer")
    words = []
    while True:
        words.append(n & _MASK32)
        n >>= 32
        if n == 0:
            return words


def seed_sequence_state(seed: int, n_words64: int) -> list[int]:
    """``numpy.random.SeedSequence(seed).generate_state(n_words64, numpy.uint64)``."""
    entropy = uint32_words(seed)
    hash_a = _INIT_A

    def hashmix(value: int) -> int:
        nonlocal hash_a
        value ^= hash_a
        hash_a = (hash_a * _MULT_A) & _MASK32
        value = (value * hash_a) & _MASK32
        return value ^ (value >> _XSHIFT)

    def mix(x: int, y: int) -> int:
        result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _MASK32
        return result ^ (result >> _XSHIFT)

    pool = [hashmix(entropy[i] if i < len(entropy) else 0) for i in range(_POOL_SIZE)]
    for src in range(_POOL_SIZE):
        for dst in range(_POOL_SIZE):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for src in range(_POOL_SIZE, len(entropy)):
        for dst in range(_POOL_SIZE):
            pool[dst] = mix(pool[dst], hashmix(entropy[src]))

    hash_b = _INIT_B
    words32 = []
    for i in range(2 * n_words64):
        value = pool[i % _POOL_SIZE] ^ hash_b
        hash_b = (hash_b * _MULT_B) & _MASK32
        value = (value * hash_b) & _MASK32
        words32.append(value ^ (value >> _XSHIFT))
    return [words32[2 * i] | (words32[2 * i + 1] << 32) for i in range(n_words64)]


class Pcg64Internal(TypedDict):
    """The 128-bit state and increment (``numpy.random.PCG64().state["state"]``)."""

    state: int
    inc: int


class Pcg64State(TypedDict):
    """The whole state, in the shape ``numpy.random.PCG64().state`` reads and writes."""

    bit_generator: str
    state: Pcg64Internal
    has_uint32: int
    uinteger: int


class Pcg64Stream:
    """The PCG64 stream that ``numpy.random.PCG64(seed)`` produces, without NumPy."""

    __slots__ = ("_has_uint32", "_inc", "_state", "_uinteger")

    def __init__(self, seed: int) -> None:
        s0, s1, i0, i1 = seed_sequence_state(seed, 4)
        init_state = (s0 << 64) | s1
        init_seq = (i0 << 64) | i1
        # pcg_setseq_128_srandom_r
        self._inc = ((init_seq << 1) | 1) & _MASK128
        self._state = 0
        self._step()
        self._state = (self._state + init_state) & _MASK128
        self._step()
        self._has_uint32 = False
        self._uinteger = 0

    def _step(self) -> None:
        self._state = (self._state * _PCG_MULT + self._inc) & _MASK128

    def next_uint64(self) -> int:
        """The next 64-bit output (XSL-RR of the advanced state)."""
        self._step()
        s = self._state
        x = ((s >> 64) ^ s) & _MASK64
        rot = s >> 122
        return ((x >> rot) | (x << ((64 - rot) & 63))) & _MASK64

    def next_uint32(self) -> int:
        """The next 32-bit output: the low half of a 64-bit output, then its high half."""
        if self._has_uint32:
            self._has_uint32 = False
            return self._uinteger
        out = self.next_uint64()
        self._has_uint32 = True
        self._uinteger = out >> 32
        return out & _MASK32

    def bounded(self, low: int, high: int) -> int:
        """One integer in ``[low, high)``, as ``Generator.integers(low, high)`` draws it
        (Lemire's method on 32-bit outputs; ranges up to 2**32 only)."""
        span = high - low  # rng + 1 in NumPy's terms
        if not 1 <= span <= _MASK32:
            raise ValueError(f"range [{low}, {high}) is not supported; width 1 to 2**32-1")
        if span == 1:
            return low
        m = self.next_uint32() * span
        leftover = m & _MASK32
        if leftover < span:
            threshold = (_MASK32 - (span - 1)) % span
            while leftover < threshold:
                m = self.next_uint32() * span
                leftover = m & _MASK32
        return low + (m >> 32)

    def integers(self, low: int, high: int, n: int) -> list[int]:
        """``n`` integers in ``[low, high)``: ``Generator.integers(low, high, size=n)``."""
        return [self.bounded(low, high) for _ in range(n)]

    def numpy_state(self) -> Pcg64State:
        """The state as ``numpy.random.PCG64().state`` expects it, to continue with NumPy."""
        return {
            "bit_generator": "PCG64",
            "state": {"state": self._state, "inc": self._inc},
            "has_uint32": int(self._has_uint32),
            "uinteger": self._uinteger,
        }
