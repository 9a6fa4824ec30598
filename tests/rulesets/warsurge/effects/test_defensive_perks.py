"""Defensive Unit Perks played in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Defensive).

Each test names the rank's source line (``p1539`` …): ``scripts/build_perk_coverage.py`` reads
these names for the coverage table.
"""

from __future__ import annotations

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import SeededDice
from warbench.rulesets.warsurge.attack import AttackContext, UnitState, immortal_allowance
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Pass
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.odds import AttackPlan, exact_attack, sample_attack

# -- Immortal (L1539) ---------------------------------------------------------------------------

BIG_GUN = weapon("Gun", attacks=10, power=9, ap=2)


def test_p1539_immortal_allowance_is_half_the_full_hp_rounded_up() -> None:
    # L1545 "A Unit with 15 HP can't lose more than 8 HP in a single Game Turn"
    assert immortal_allowance(15) == 8
    assert immortal_allowance(1) == 1
    assert immortal_allowance(4) == 2


def _to_turn(state: GameState, turn: int, events: list[Event]) -> GameState:
    while state.flow.turn < turn and not state.over:
        state, ev = engine.apply(state, Pass())
        events.extend(ev)
        check_invariants(state)
    return state


def _next_attack(state: GameState) -> GameState:
    """The next Game Turn's Attack Phase, side 0 to act (the Game Turn started in play)."""
    state = _to_turn(state, state.flow.turn + 1, [])
    while not (state.flow.phase is Phase.ATTACK and state.flow.active == 0):
        state, _ = engine.apply(state, Pass())
    return state


def _fight(perks: list[str], guns: int = 2) -> GameState:
    shooters = entry(unit("Shooters", models=guns, weapons=[BIG_GUN]))
    hulk = entry(unit("Hulk", hp=15, defence=3, perks=perks))
    return _next_attack(
        scenario(
            [[shooters], [hulk]],
            {0: [(10.0 + 1.5 * k, 10.0) for k in range(guns)], 1: [(10.0, 20.0)]},
            phase=Phase.MOVE,
        )
    )


def test_p1539_immortal_loses_at_most_8_of_15_hp_in_a_game_turn() -> None:
    for seed in range(10):
        after, _ = engine.apply(
            _fight(["Immortal"]), Attack(0, (("Gun", 1),)), dice=SeededDice(seed)
        )
        assert sum(after.units[1].hp) >= 7  # the Book's example: 15 HP, at most 8 lost
        plain, _ = engine.apply(_fight([]), Attack(0, (("Gun", 1),)), dice=SeededDice(seed))
        assert sum(plain.units[1].hp) < 7  # 20 dice at 2+ … without it the Hulk falls lower


def test_p1539_immortal_is_spent_at_the_end_of_the_game_turn_it_lost_half() -> None:
    state = _fight(["Immortal"])
    after, _ = engine.apply(state, Attack(0, (("Gun", 1),)), dice=SeededDice(3))
    assert sum(after.units[1].hp) == 7
    events: list[Event] = []
    nxt = _to_turn(after, after.flow.turn + 1, events)
    assert any("Immortal is lost" in e.text for e in events)
    assert nxt.units[1].uses and dict(nxt.units[1].uses).get("Immortal") == 1
    # "the Unit can be slain on a later Game Turn": no cap any more
    nxt = _next_attack(after)
    last, _ = engine.apply(nxt, Attack(0, (("Gun", 1),)), dice=SeededDice(3))
    assert sum(last.units[1].hp) == 0


def test_p1539_immortal_kept_when_it_lost_less_than_half() -> None:
    light = weapon("Gun", attacks=1, power=9, ap=2)
    state = scenario(
        [
            [entry(unit("Shooter", weapons=[light]))],
            [entry(unit("Hulk", hp=15, perks=["Immortal"]))],
        ],
        {0: [(10.0, 10.0)], 1: [(10.0, 20.0)]},
        phase=Phase.ATTACK,
    )
    after, _ = engine.apply(state, Attack(0, (("Gun", 1),)), dice=SeededDice(1))
    assert sum(after.units[1].hp) >= 14
    events: list[Event] = []
    _to_turn(after, after.flow.turn + 1, events)
    assert not any("Immortal is lost" in e.text for e in events)


def test_p1539_immortal_is_immune_to_deathblow() -> None:
    # Deathblow (L3624): a 2D6 of 9+ halves the Target's current HP; Immortal "is also immune
    # to Deathblow" (L1541): its one Attack Die takes 1 HP at most
    blow = weapon("Axe", attacks=1, power=6, perks=["Deathblow"])
    ctx = AttackContext(attacker_point_cost=100, target_point_cost=60)
    axe = UnitState.of(unit("Axeman", weapons=[blow]))
    plain = exact_attack(AttackPlan(axe, UnitState.of(unit("Hulk", hp=15)), ctx))
    kept = exact_attack(AttackPlan(axe, UnitState.of(unit("Hulk", hp=15, perks=["Immortal"])), ctx))
    assert max(plain.hp_lost) > 1 and max(kept.hp_lost) == 1


def test_p1539_immortal_caps_exact_odds_and_monte_carlo_agrees() -> None:
    shooters = UnitState.of(unit("Shooters", models=2, weapons=[BIG_GUN]))
    hulk = unit("Hulk", hp=15, defence=3, perks=["Immortal"])
    plan = AttackPlan(shooters, UnitState.of(hulk), AttackContext(distance=9.0))
    exact = exact_attack(plan)
    assert max(exact.hp_lost) == 8
    sampled = sample_attack(plan, 2000, dice=SeededDice(7))
    assert max(sampled.hp_lost) == 8
    assert abs(sampled.expected_hp_lost - exact.expected_hp_lost) < 0.1


# -- Reflect I-II (L1617-L1642) -----------------------------------------------------------------


def _mirror(rank: str, automated: bool = False) -> GameState:
    gun = weapon("Gun", attacks=4, power=8, ap=2)
    pistol = weapon("Pistol", attacks=1, power=3)
    shooters = entry(unit("Shooters", models=3, hp=2, weapons=[gun, pistol]))
    knight = entry(unit("Knight", hp=10, defence=3, perks=[rank]))
    from warbench.rulesets.warsurge.game.state import ALL_AUTOMATIONS, Automation

    kw = {} if automated else {"automation": ALL_AUTOMATIONS - {Automation.PERK_USE}}
    state = scenario(
        [[shooters], [knight]],
        {0: [(10.0 + 1.5 * k, 10.0) for k in range(3)], 1: [(10.0, 20.0)]},
        phase=Phase.MOVE,
        **kw,
    )
    return state


def _armed(state: GameState, rank: str) -> GameState:
    """The Knight's player uses Reflect (the Standard playstyle's use perk moment)."""
    from dataclasses import replace

    from warbench.rulesets.warsurge.game.state import Status

    knight = state.units[1]
    marker = Status("Reflect", 1, f"u1/{rank}")
    return replace(state, units=(state.units[0], replace(knight, statuses=(marker,))))


REFLECT = {"Reflect I": 1617, "Reflect II": 1633}


@pytest.mark.parametrize("rank", list(REFLECT), ids=[f"p{v}-{k}" for k, v in REFLECT.items()])
def test_reflect_turns_the_strongest_weapon_on_the_attacker_on_a_4_plus(rank: str) -> None:
    base = _next_attack(_mirror(rank))
    armed = _armed(base, rank)
    attack = Attack(0, (("Gun", 1), ("Pistol", 1)))
    back = 0
    for seed in range(30):
        after, events = engine.apply(armed, attack, dice=SeededDice(seed))
        texts = [e.text for e in events if e.kind == "perk" and "Reflect" in e.text]
        assert len(texts) == 1 and "Gun" in texts[0]  # one attempt, on the Gun (4 x 8 x 3)
        assert not any(s.name == "Reflect" for s in after.units[1].statuses)
        if "Reflects" in texts[0]:
            back += 1
            assert sum(after.units[0].hp) < 6  # the Shooters took their own Gun
            hits = [e for e in events if e.kind == "attack" and "Gun" in e.text]
            assert "Shooters attacks P0: Shooters" in hits[0].text
        else:
            assert sum(after.units[0].hp) == 6
    assert 5 < back < 25  # a D6 of 4+ (half of 30, give or take)
    plain = [engine.apply(base, attack, dice=SeededDice(s))[0].units[0].hp for s in range(30)]
    assert all(sum(hp) == 6 for hp in plain)


def test_p1617_reflect_i_is_used_once_per_game_by_the_engine() -> None:
    events: list[Event] = []
    state = _mirror("Reflect I", automated=True)
    state = _to_turn(state, state.flow.turn + 2, events)
    uses = [e for e in events if e.kind == "perk" and "uses Reflect I" in e.text]
    assert len(uses) == 1


def test_p1633_reflect_ii_is_used_each_game_turn_by_the_engine() -> None:
    events: list[Event] = []
    state = _mirror("Reflect II", automated=True)
    state = _to_turn(state, state.flow.turn + 2, events)
    uses = [e for e in events if e.kind == "perk" and "uses Reflect II" in e.text]
    assert len(uses) == 2
