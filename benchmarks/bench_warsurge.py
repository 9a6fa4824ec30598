"""WARSURGE attack speed (issue targets in the docstrings of each benchmark).

Run with ``make bench`` (pytest-benchmark). Targets: exact distribution of a 20-model unit with a
2-Attack weapon against 10 one-HP models with Armour and AEGIS under 5 ms median, with xD6 Attacks
or Destroy I under 50 ms; sampled resolution at least 1,000,000 Attack Dice per second per core.

Ratios (issue 18), measured within one run and kept in ``extra_info`` (``make bench`` prints
them): Monte Carlo with a weapon-level roll (Destroy I) within 1.5x of the plain weapon, and the
same 400 Attack Dice as 400x1 or 25x16 models within the same time (exact odds).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from warbench.kernel.dice import SeededDice
from warbench.rulesets.warsurge.attack import (
    AttackContext,
    UnitState,
    compile_weapon_use,
    sample_dice,
)
from warbench.rulesets.warsurge.odds import (
    AttackPlan,
    _power_capped,
    die_transitions,
    exact_attack,
    sample_attack,
)
from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile


def _plan(perks: list[str], models: int = 20, attacks: int = 2, targets: int = 10) -> AttackPlan:
    rifle = WeaponProfile(name="Rifle", range=24, attacks=attacks, power=4, ap=5, perks=perks)
    attacker = Unit(
        profile=UnitProfile(name="Twenty", move=6, dash=6, defence=4, hp=1, armour=4),
        weapons=[rifle],
        models=[ModelGroup(count=models, weapons=["Rifle"])],
    )
    target = Unit(
        profile=UnitProfile(name="Ten", move=6, dash=6, defence=4, hp=1, armour=4, aegis=5),
        weapons=[rifle],
        models=[ModelGroup(count=targets, weapons=["Rifle"])],
    )
    return AttackPlan(UnitState.of(attacker), UnitState.of(target), AttackContext())


def _fresh_caches() -> None:
    die_transitions.cache_clear()


def test_bench_exact_20x2_attacks_vs_10_models_armour_aegis(benchmark: Any) -> None:
    plan = _plan([])
    odds = benchmark(lambda: (_fresh_caches(), exact_attack(plan))[1])
    assert abs(sum(odds.hp_lost.values()) - 1) < 1e-9


def test_bench_exact_with_xd6_attacks(benchmark: Any) -> None:
    plan = _plan(["xD6 Attacks"])
    odds = benchmark(lambda: (_fresh_caches(), exact_attack(plan))[1])
    assert abs(sum(odds.hp_lost.values()) - 1) < 1e-9


def test_bench_exact_with_destroy_i(benchmark: Any) -> None:
    plan = _plan(["Destroy I"])
    odds = benchmark(lambda: (_fresh_caches(), exact_attack(plan))[1])
    assert abs(sum(odds.hp_lost.values()) - 1) < 1e-9


def test_bench_sampled_one_million_attack_dice(benchmark: Any) -> None:
    plan = _plan(["Critical Hit I"])
    use = compile_weapon_use(
        plan.attacker, plan.attacker.weapons["Rifle"], 20, plan.target, plan.context, SeededDice(1)
    )
    dice = SeededDice(1)
    trials = 25_000  # 40 Attack Dice each: 1,000,000 dice, with Armour and AEGIS Saves

    def run() -> int:
        dice.log.clear()
        out = sample_dice(use.die, use.dice, dice, trials=trials)
        return int(out.target_loss.sum())

    total = benchmark(run)
    assert total > 0
    benchmark.extra_info["attack_dice_per_call"] = use.dice * trials


def test_bench_binomial_power_building_block(benchmark: Any) -> None:
    q = np.zeros(11)
    q[:2] = [0.6, 0.4]
    out = benchmark(_power_capped, q, 240, 10)
    assert abs(out.sum() - 1) < 1e-9


def _best_of(fn: Callable[[], object], rounds: int) -> float:
    best = math.inf
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _ratio(slow: Callable[[], object], fast: Callable[[], object], rounds: int = 3) -> float:
    """Best-of-``rounds`` time of ``slow`` over ``fast``, interleaved so load hits both."""
    a = b = math.inf
    for _ in range(rounds):
        a = min(a, _best_of(slow, 1))
        b = min(b, _best_of(fast, 1))
    return a / b


def test_bench_monte_carlo_with_destroy_i_against_plain(benchmark: Any) -> None:
    """Issue 18: 100,000 trials took 7.4 s with Destroy I against 0.53 s plain (14x), the weapon
    compiled once per trial. Goal: within 1.5x. Here 20,000 trials keep one round quick."""
    trials = 20_000
    plain, destroy = _plan([]), _plan(["Destroy I"])
    odds = benchmark(lambda: sample_attack(destroy, trials, SeededDice(1)))
    assert odds.trials == trials
    ratio = _ratio(
        lambda: sample_attack(destroy, trials, SeededDice(2)),
        lambda: sample_attack(plain, trials, SeededDice(2)),
    )
    benchmark.extra_info["destroy_i_over_plain"] = round(ratio, 2)
    print(f"Monte Carlo {trials} trials, Destroy I / plain: {ratio:.2f}x")
    # Timing limits only under `make bench`: `make test` runs each benchmark once with timings
    # off, and a wall-clock ratio on a loaded shared machine must not fail the suite.
    assert benchmark.disabled or ratio < 3  # goal 1.5x; the margin absorbs a loaded machine


def test_bench_exact_400_attack_dice_as_400x1_against_25x16_models(benchmark: Any) -> None:
    """Issue 18: the same 400 Attack Dice against 400 models took 172 ms as 400x1 models and 30
    ms as 25x16. Goal: the same time (the work depends on the dice, not on the models)."""
    many, few = _plan([], 400, 1, 400), _plan([], 25, 16, 400)
    odds = benchmark(lambda: (_fresh_caches(), exact_attack(many))[1])
    assert abs(sum(odds.hp_lost.values()) - 1) < 1e-9
    ratio = _ratio(lambda: exact_attack(many), lambda: exact_attack(few), rounds=5)
    benchmark.extra_info["400x1_over_25x16"] = round(ratio, 2)
    print(f"exact 400 Attack Dice, 400x1 / 25x16 models: {ratio:.2f}x")
    assert benchmark.disabled or ratio < 3  # goal about 1x; was 5.7x (timed runs only)


def test_bench_exact_200_models_xd6_attacks_against_400_models(benchmark: Any) -> None:
    """Issue 18: raised EnumerationTooLarge and fell back to sampling; now exact."""
    plan = _plan(["xD6 Attacks"], 200, 2, 400)
    odds = benchmark(lambda: (_fresh_caches(), exact_attack(plan))[1])
    assert odds.exact and abs(sum(odds.hp_lost.values()) - 1) < 1e-9
