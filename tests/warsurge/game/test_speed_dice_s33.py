"""One trial of an Attack's dice die by die (``attack._sample_one``, issue 10, session 33):
the very batches of the dice (counts, labels, faces, in order) and the very totals of the
vectorised path, on random programs that switch every option of ``DieProgram`` on and off;
and the compile memo's key of a context (``attack.compile_key``) without a ``replace``."""

from __future__ import annotations

import random
from dataclasses import fields, replace

import numpy as np
import pytest

from tests.warsurge.conftest import unit, weapon
from warbench.kernel.dice import D3, DiceExpr, SeededDice
from warbench.rulesets.warsurge import attack
from warbench.rulesets.warsurge.attack import (
    AttackContext,
    DieProgram,
    SaveSpec,
    compile_key,
    sample_dice,
)
from warbench.rulesets.warsurge.chart import WORST_STEP, AttackRequirement


def _save(rng: random.Random) -> SaveSpec:
    if rng.random() < 0.2:
        return SaveSpec()
    return SaveSpec(rng.randint(2, 6), rng.random() < 0.3, rng.random() < 0.3)


def _program(rng: random.Random, depth: int = 0) -> DieProgram:
    step = rng.choice([0, rng.randint(1, WORST_STEP)])
    return DieProgram(
        requirement=None if rng.random() < 0.05 else AttackRequirement(step),
        pre_rolls=tuple(rng.randint(2, 6) for _ in range(rng.choice([0, 0, 1, 2]))),
        reroll_failed=rng.random() < 0.3,
        accursed=rng.random() < 0.3,
        hits_per_success=rng.choice([1, 1, 2, 3]),
        auto_test=rng.random() < 0.5,
        six_loss_multiplier=rng.choice([1, 1, 2]),
        six_dire=rng.random() < 0.3,
        six_ignores_armour=rng.random() < 0.3,
        six_ignores_aegis=rng.random() < 0.3,
        armour=_save(rng),
        aegis=_save(rng),
        loss_constant=rng.choice([0, 0, 1, 2]),
        loss_dice=rng.choice([None, None, D3, DiceExpr.parse("2D6")]),
        loss_multiplier=rng.choice([1, 1, 2]),
        volatile=_program(rng, depth + 1) if depth == 0 and rng.random() < 0.3 else None,
        emergency_save=rng.random() < 0.3,
        cover_save=rng.choice([None, None, rng.randint(2, 6)]),
        precision=rng.choice([None, rng.randint(2, 6)]),
    )


def _vectorised(prog: DieProgram, n: int, dice: SeededDice) -> attack.DiceOutcome:
    limit = attack._SCALAR_DICE
    attack._SCALAR_DICE = -1  # every trial through the arrays
    try:
        return sample_dice(prog, n, dice)
    finally:
        attack._SCALAR_DICE = limit


def _log(dice: SeededDice) -> list[tuple[str, int, list[int]]]:
    return [(e.label, e.count, np.asarray(e.faces).tolist()) for e in dice.log]


@pytest.mark.parametrize("seed", range(6))
def test_one_trial_die_by_die_rolls_the_same_dice_to_the_same_totals(seed: int) -> None:
    rng = random.Random(seed)
    options: set[str] = set()
    for k in range(300):
        prog = _program(rng)
        n = rng.choice([0, 1, 2, 3, 5, 8, 13, 30, attack._SCALAR_DICE])
        a, b = SeededDice(1000 * seed + k), SeededDice(1000 * seed + k)
        one, many = sample_dice(prog, n, a), _vectorised(prog, n, b)
        for f in fields(one):
            x, y = getattr(one, f.name), getattr(many, f.name)
            assert x.dtype == y.dtype and x.tolist() == y.tolist(), (f.name, prog, n)
        assert _log(a) == _log(b)
        assert a.rng.integers(1, 7, size=4).tolist() == b.rng.integers(1, 7, size=4).tolist()
        options.update(e.label for e in a.log)
    # the random programs reach every roll of the path
    for label in ("Attack Dice", "Armour Save", "AEGIS Save", "Accursed reroll", "Cover Save"):
        assert label in options


def test_the_comparison_can_fail() -> None:
    """A program that differs in one Save gives other totals from the same dice (the test
    above compares outcomes that can differ)."""
    prog = DieProgram(AttackRequirement(3), armour=SaveSpec(4))
    seen = set()
    for seed in range(20):
        x = sample_dice(prog, 30, SeededDice(seed)).target_loss.tolist()
        y = _vectorised(replace(prog, armour=SaveSpec(2)), 30, SeededDice(seed)).target_loss
        seen.add(x == y.tolist())
    assert False in seen


def test_many_dice_and_many_trials_keep_the_arrays() -> None:
    prog = DieProgram(AttackRequirement(3), armour=SaveSpec(4))
    calls: list[int] = []
    real = attack._sample_one

    def spy(p: DieProgram, n: int, dice: SeededDice) -> attack.DiceOutcome:
        calls.append(n)
        return real(p, n, dice)

    attack._sample_one = spy  # type: ignore[assignment]
    try:
        sample_dice(prog, attack._SCALAR_DICE + 1, SeededDice(1))
        sample_dice(prog, 3, SeededDice(1), trials=2)
        sample_dice(prog, 3, SeededDice(1))
    finally:
        attack._sample_one = real  # type: ignore[assignment]
    assert calls == [3]


def _norm(ctx: AttackContext) -> AttackContext:
    """The context as ``compile_key`` kept it before (a ``replace``): the distance by
    Barrier's bands, no models in sight, the Point Costs by which is greater."""
    d = ctx.distance
    band = None if d is None else 36.0 if d >= 36 else 24.0 if d >= 24 else 12.0 if d >= 12 else 0.0
    u, t = ctx.attacker_point_cost, ctx.target_point_cost
    cu = ct = None
    if u is not None and t is not None:
        cu, ct = 0.0, (1.0 if t > u else -1.0 if t < u else 0.0)
    return replace(
        ctx, distance=band, los_models=None, attacker_point_cost=cu, target_point_cost=ct
    )


def test_the_compile_key_tells_contexts_apart_as_their_equality_did() -> None:
    """``compile_key`` keeps the context as the tuple of the fields its equality compares (not
    a ``replace`` of it): two contexts share a key exactly when their rewritten contexts are
    equal, over contexts that differ in each rewritten field and in others."""
    gun = weapon()
    a, t = unit("A", weapons=[gun]), unit("T")
    contexts = [
        AttackContext(),
        AttackContext(distance=13.0, los_models=frozenset({0})),
        AttackContext(distance=20.0),
        AttackContext(distance=30.0),
        AttackContext(distance=30.0, melee=True),
        AttackContext(distance=30.0, cover=True),
        AttackContext(distance=30.0, cover=True, cover_bonus=2),
        AttackContext(attacker_point_cost=100.0, target_point_cost=120.0),
        AttackContext(attacker_point_cost=50.0, target_point_cost=60.0),
        AttackContext(attacker_point_cost=100.0, target_point_cost=80.0),
        AttackContext(stationary=True, status_modifiers=((1, "Aim"),)),
    ]
    keys = [compile_key(a, gun, 1, t, c) for c in contexts]
    pairs = 0
    for i, ci in enumerate(contexts):
        for j, cj in enumerate(contexts):
            assert (keys[i] == keys[j]) == (_norm(ci) == _norm(cj)), (ci, cj)
            if keys[i] == keys[j]:
                assert hash(keys[i]) == hash(keys[j])
            pairs += i != j and keys[i] == keys[j]
    assert pairs >= 4  # some contexts do share a key (13" and 20", 100/120 and 50/60)
