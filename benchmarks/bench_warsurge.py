"""WARSURGE attack speed (issue targets in the docstrings of each benchmark).

Run with ``make bench`` (pytest-benchmark). Targets: exact distribution of a 20-model unit with a
2-Attack weapon against 10 one-HP models with Armour and AEGIS under 5 ms median, with xD6 Attacks
or Destroy I under 50 ms; sampled resolution at least 1,000,000 Attack Dice per second per core.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warbench.kernel.dice import SeededDice
from warbench.rulesets.warsurge.attack import (
    AttackContext,
    UnitState,
    compile_weapon_use,
    sample_dice,
)
from warbench.rulesets.warsurge.odds import AttackPlan, _power_capped, die_transitions, exact_attack
from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile


def _plan(perks: list[str]) -> AttackPlan:
    rifle = WeaponProfile(name="Rifle", range=24, attacks=2, power=4, ap=5, perks=perks)
    attacker = Unit(
        profile=UnitProfile(name="Twenty", move=6, dash=6, defence=4, hp=1, armour=4),
        weapons=[rifle],
        models=[ModelGroup(count=20, weapons=["Rifle"])],
    )
    target = Unit(
        profile=UnitProfile(name="Ten", move=6, dash=6, defence=4, hp=1, armour=4, aegis=5),
        weapons=[rifle],
        models=[ModelGroup(count=10, weapons=["Rifle"])],
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
