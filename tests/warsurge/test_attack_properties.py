"""Invariants of the attack kernel over random profiles (hypothesis).

For any legal attack: HP never goes below zero, only eligible models lose HP, whole models are
removed in casualty order (at most one wounded model remains among the eligible), the exact
distribution is a probability distribution whose support contains the sampled outcome, and
the same seed replays the same result.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warbench.kernel.dice import SeededDice
from warbench.rulesets.warsurge.odds import exact_attack, resolve_attack

from .conftest import plan, unit, weapon

SAVES = st.sampled_from([None, "2+", "3+", "4+", "5+", "6+"])
WEAPON_PERKS = st.lists(
    st.sampled_from(
        ["Reroll Attack", "Critical Hit I", "Destroy I", "Devastate I", "Obliterate I", "Rend",
         "Piercing Hit II", "Aim 4+", "+Attacks I (D3)", "Gravity", "Dire Hit", "Penetrate I"]
    ),
    max_size=2,
    unique=True,
)  # fmt: skip


@st.composite
def attacks(draw: st.DrawFn) -> tuple[object, ...]:
    w = weapon(
        "W",
        attacks=draw(st.integers(1, 4)),
        power=draw(st.integers(0, 10)),
        ap=draw(SAVES),
        type=draw(st.sampled_from(["Heavy", "Battle", "Assault"])),
        perks=draw(WEAPON_PERKS),
    )
    attacker = unit("A", models=draw(st.integers(1, 5)), weapons=[w], hp=draw(st.integers(1, 3)))
    n = draw(st.integers(1, 8))
    target = unit(
        "T",
        models=n,
        defence=draw(st.integers(0, 10)),
        hp=draw(st.integers(1, 4)),
        armour=draw(SAVES),
        aegis=draw(SAVES),
        perks=draw(st.lists(st.sampled_from(["Tough", "Evasive", "Reinforced"]), unique=True)),
    )
    for i in range(n):
        target.models[i].hp = draw(st.integers(1, target.profile.hp))
    los = draw(st.none() | st.frozensets(st.integers(0, n - 1)))
    melee = draw(st.booleans())
    return attacker, target, {"melee": melee, "los_models": los}, draw(st.integers(0, 2**32))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(attacks())
def test_random_attacks_keep_the_invariants(case: tuple[object, ...]) -> None:
    attacker, target, ctx, seed = case
    p = plan(attacker, target, **ctx)  # type: ignore[arg-type]
    eligible = set(p.eligible())
    before = [m.hp for m in p.target.models]
    odds = exact_attack(p)
    assert abs(sum(odds.hp_lost.values()) - 1) < 1e-9
    assert abs(sum(odds.models_slain.values()) - 1) < 1e-9
    assert max(odds.hp_lost) <= sum(before[i] for i in eligible)

    result = resolve_attack(p, SeededDice(int(seed)))  # type: ignore[call-overload]
    after = [m.hp for m in p.target.models]
    assert all(hp >= 0 for hp in after)
    assert all(
        a == b for i, (a, b) in enumerate(zip(after, before, strict=True)) if i not in eligible
    )
    assert sum(before) - sum(after) == result.hp_lost
    assert odds.hp_lost.get(result.hp_lost, 0.0) > 0  # the sampled outcome is possible
    wounded_originally = {i for i in eligible if 0 < before[i] < p.target.profile.hp}
    newly_wounded = [
        i for i in eligible if 0 < after[i] < p.target.profile.hp and i not in wounded_originally
    ]
    assert len(newly_wounded) <= 1  # whole models first (§5.12)


@settings(max_examples=40, deadline=None)
@given(attacks())
def test_same_seed_replays_the_same_attack(case: tuple[object, ...]) -> None:
    attacker, target, ctx, seed = case
    import copy

    t1, t2 = copy.deepcopy(target), copy.deepcopy(target)
    r1 = resolve_attack(plan(attacker, t1, **ctx), SeededDice(int(seed)))  # type: ignore[arg-type, call-overload]
    r2 = resolve_attack(plan(attacker, t2, **ctx), SeededDice(int(seed)))  # type: ignore[arg-type, call-overload]
    assert r1.hp_lost == r2.hp_lost
    assert [m.hp for m in t1.models] == [m.hp for m in t2.models]
