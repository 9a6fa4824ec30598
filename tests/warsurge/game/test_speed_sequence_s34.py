"""One trial of an Attack's sequence in plain Python ints (``odds._run_one``, issue 10,
session 34): the very batches of the dice (counts, labels, faces, in order) and the very
results of the vectorised sequence (``odds._run_sequence`` through its arrays), on random
plans whose weapons' compiled uses switch every option of ``WeaponUse`` and ``DieProgram`` on
and off (Gravity, Deathblow, Retaliate, Darkside's self Saves, a weapon turned on its User,
the Emergency Save spent or not, Bodyguard's die-by-die follow-on)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import pytest

from tests.warsurge.conftest import plan as make_plan
from tests.warsurge.conftest import unit, weapon
from tests.warsurge.game.test_speed_dice_s33 import _program, _save
from warbench.kernel.dice import SeededDice
from warbench.rulesets.warsurge import odds
from warbench.rulesets.warsurge.attack import DieProgram, Retaliation, SaveSpec, WeaponUse
from warbench.rulesets.warsurge.chart import AttackRequirement
from warbench.rulesets.warsurge.odds import AttackPlan, _Run, _run_sequence


def _use(rng: random.Random, name: str) -> WeaponUse:
    prog = _program(rng)
    return WeaponUse(
        weapon=name,
        dice=rng.choice([0, 1, 2, 3, 5, 8, 13, 30, 70]),
        die=prog,
        against_self=rng.random() < 0.1,
        gravity=rng.random() < 0.3,
        deathblow=rng.random() < 0.3,
        retaliation=Retaliation(_save(rng), _save(rng)) if rng.random() < 0.3 else None,
        self_loss=rng.choice([0, 0, 1, 2]),
        self_save_dice=rng.choice([0, 0, 1, 2]),
        self_saves=(_save(rng), _save(rng)),
    )


def _plan(rng: random.Random) -> tuple[AttackPlan, dict[str, WeaponUse]]:
    names = [f"W{i}" for i in range(rng.randint(1, 3))]
    attacker = unit("A", models=rng.randint(1, 4), hp=rng.randint(1, 4),
                    weapons=[weapon(n) for n in names])  # fmt: skip
    target = unit("T", models=rng.randint(1, 6), hp=rng.randint(1, 5))
    for m in target.models:
        m.hp = rng.randint(1, m.hp)  # some models already wounded
    target.emergency_save_used = rng.random() < 0.3
    uses = {n: _use(rng, n) for n in names}
    return make_plan(attacker, target), uses


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, WeaponUse]]:
    """Both paths compile through ``odds._compile_one``: it returns the random uses here."""
    uses: dict[str, WeaponUse] = {}
    monkeypatch.setattr(odds, "_compile_one", lambda plan, w, dice: uses[w])
    yield uses


def _vectorised(plan: AttackPlan, dice: SeededDice, follow_on: bool) -> _Run:
    odds._SCALAR_SEQUENCE = False
    try:
        return _run_sequence(plan, 1, dice, follow_on)
    finally:
        odds._SCALAR_SEQUENCE = True


def _log(dice: SeededDice) -> list[tuple[str, int, list[int]]]:
    return [(e.label, e.count, np.asarray(e.faces).tolist()) for e in dice.log]


def _same(a: _Run, b: _Run) -> None:
    for x, y in ((a.tally, b.tally), (a.self_loss, b.self_loss),
                 (a.emergency_used, b.emergency_used)):  # fmt: skip
        assert x.dtype == y.dtype and x.tolist() == y.tolist()
    assert a.weapons == b.weapons
    assert a.per_weapon_mean == b.per_weapon_mean
    assert a.follow_on == b.follow_on


@pytest.mark.parametrize("seed", range(6))
def test_one_trial_in_ints_rolls_the_same_dice_to_the_same_results(
    seed: int, compiled: dict[str, WeaponUse]
) -> None:
    rng = random.Random(seed)
    labels: set[str] = set()
    lefts = 0
    for k in range(200):
        plan, uses = _plan(rng)
        compiled.clear()
        compiled.update(uses)
        follow_on = rng.random() < 0.3
        a, b = SeededDice(1000 * seed + k), SeededDice(1000 * seed + k)
        one = _run_sequence(plan, 1, a, follow_on)
        many = _vectorised(plan, b, follow_on)
        _same(one, many)
        assert _log(a) == _log(b), (plan, uses)
        assert a.rng.integers(1, 7, size=4).tolist() == b.rng.integers(1, 7, size=4).tolist()
        labels.update(e.label for e in a.log)
        lefts += one.follow_on > 0
    # the random plans reach every roll of the sequence, and Bodyguard's follow-on
    for label in ("Gravity", "Deathblow", "Retaliate", "Retaliate Save", "Emergency Save",
                  "Darkside Armour Save", "Darkside AEGIS Save", "Attack Dice"):  # fmt: skip
        assert label in labels
    assert lefts > 0


def test_the_comparison_can_fail(compiled: dict[str, WeaponUse]) -> None:
    """A use that differs in Gravity alone gives other results from the same dice (the test
    above compares sequences that can differ)."""
    rng = random.Random(7)
    seen = set()
    for seed in range(30):
        plan, _ = _plan(rng)
        use = WeaponUse("W0", 8, DieProgram(AttackRequirement(2), armour=SaveSpec(6)))
        compiled.clear()
        compiled.update({w: use for w in plan.weapon_order()})
        x = _run_sequence(plan, 1, SeededDice(seed))
        compiled.update({w: replace(use, gravity=True) for w in plan.weapon_order()})
        y = _vectorised(plan, SeededDice(seed), False)
        seen.add(x.tally.tolist() == y.tally.tolist())
    assert False in seen


def test_the_game_attack_takes_the_ints_and_many_trials_the_arrays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    real = odds._run_one

    def spy(plan: AttackPlan, dice: SeededDice, follow_on: bool) -> _Run:
        calls.append(1)
        return real(plan, dice, follow_on)

    monkeypatch.setattr(odds, "_run_one", spy)
    p = make_plan(unit("A", weapons=[weapon(attacks=3)]), unit("T", models=3))
    odds.roll_attack(p, SeededDice(1))
    odds.sample_attack(p, 50, SeededDice(1))
    assert calls == [1]
