"""The tactical player's habit of session 38 (issue 15, ``ai.tactical_ground``, switch
``TacticalBot.price_danger``) on constructed states: the test of the choice fails with the
switch off. Core Rules 001_d3f5e425c5e1196d.txt §4.6 (Dangerous Ground, L2085-2130)."""

from __future__ import annotations

import math

import pytest

from tests.warsurge.game.helpers import board, entry, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactical_ground import MIN_HP, danger_hp, danger_priced, hp_per_model
from warbench.rulesets.warsurge.battlefield import DangerousSpec, Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work

#: The city board's Fuel depot (data/boards/city_72x48.yaml): Dangerous Ground as a Weapon
#: profile, "Burning fuel", 1 Attack at Power 3 (§4.6 L2092-2094).
BURNING_FUEL = DangerousSpec(
    kind="weapon", weapon={"name": "Burning fuel", "attacks": 1, "power": 3}
)

#: The x of the depot's centre (its y is 16).
DEPOT_X = 26.0


def _work(state: GameState) -> Work:
    return engine.legal_actions(state)._work


def _depot_state(spec: DangerousSpec = BURNING_FUEL, **stats: object) -> GameState:
    """Move Phase, side 0 to act: a horde of seven Rabble (uid 0: Defence 2, no Save,
    Autoguns 18") in a row 1.5" apart at y 10, x 17-26, walking north toward enemy Rabble
    (uid 1) at y 44, out of Range; a round Fuel depot, 4" across, at (26, 16): the path
    planned for the row's centre passes west of it and its first path move, straight north,
    sweeps the two eastern models through it (session 36's ``shun_danger`` test, with the
    horde's profile)."""
    circle = [
        (
            DEPOT_X + 2.0 * math.cos(2 * math.pi * k / 16),
            16.0 + 2.0 * math.sin(2 * math.pi * k / 16),
        )
        for k in range(16)
    ]
    depot = Terrain(name="Fuel depot", polygon=circle, dangerous=spec)
    autogun = weapon("Autogun", range=18, attacks=1, power=3, type="Battle")
    profile = {"defence": 2, **stats}
    ours = unit("Rabble", models=7, weapons=[autogun], **profile)
    theirs = unit("Rabble", models=7, weapons=[autogun], **profile)
    return scenario(
        [[entry(ours)], [entry(theirs)]],
        {
            0: [(17.0 + 1.5 * k, 10.0) for k in range(7)],
            1: [(17.0 + 1.5 * k, 44.0) for k in range(7)],
        },
        phase=Phase.MOVE,
        b=board(terrain=[depot]),
    )


def test_the_d6_roll_costs_a_sixth_of_an_hp_less_the_saves_L2098() -> None:
    """§4.6 L2098-2100: "each model ... rolls a D6; on a '1' they must pass Saves or lose 1
    HP": 1/6 with no Save, 1/6 x 3/6 with an Armour Save of 4+, times 4/6 more with an
    AEGIS Save of 5+."""
    plain = DangerousSpec()
    assert hp_per_model(_work(_depot_state(plain)), 0, "Fuel depot") == pytest.approx(1 / 6)
    w = _work(_depot_state(plain, armour="4+"))
    assert hp_per_model(w, 0, "Fuel depot") == pytest.approx(1 / 12)
    w = _work(_depot_state(plain, armour="4+", aegis="5+"))
    assert hp_per_model(w, 0, "Fuel depot") == pytest.approx(1 / 12 * 4 / 6)


def test_a_weapon_profile_costs_what_its_attack_is_expected_to_take_L2092() -> None:
    """§4.6 L2092-2094: the piece is a Weapon profile used once per model that traversed it:
    the exact odds of one such attack, more against the Rabble (Defence 2, no Save) than
    against models with Defence 4 and a 3+ Armour Save, and never more than its one Attack."""
    soft = hp_per_model(_work(_depot_state()), 0, "Fuel depot")
    hard = hp_per_model(_work(_depot_state(defence=4, armour="3+")), 0, "Fuel depot")
    assert 0.0 < hard < soft <= 1.0


def test_a_horde_walks_round_the_fuel_depot_beside_its_path_L2100() -> None:
    """§4.6 L2100-2106: each model that moves through, into or out of Dangerous Ground
    suffers it. The best path move sweeps two Rabble through the depot (an expected loss of
    1.3 HP: a Power 3 Attack against Defence 2, no Save); with ``price_danger`` the Move is
    one that makes nearly as much progress and crosses none, switched off it is the one
    that crosses."""
    state = _depot_state()
    w = _work(state)
    on = TacticalBot(price_danger=True).choose(state)
    off = TacticalBot(price_danger=False).choose(state)
    assert isinstance(on, Move) and isinstance(off, Move) and on.unit == off.unit == 0
    cache: dict[tuple[int, str], float] = {}
    allowance = 6.0
    assert danger_hp(w, 0, on, allowance, cache) == 0.0
    assert danger_hp(w, 0, off, allowance, cache) >= MIN_HP
    _, events = engine.apply(state, on)
    assert not [e for e in events if e.kind == "danger"]
    _, events = engine.apply(state, off)
    assert [e for e in events if e.kind == "danger"]


def test_a_way_round_that_gives_up_a_third_of_the_move_is_not_taken() -> None:
    """The loss is weighed against the progress: when the move that crosses nothing ends
    farther from the enemy than a third of the allowance behind the best one, on the path
    grid's cost or in the distance its centre closes, the best move still comes first
    (session 36's ``shun_danger`` took any way round: the skirmish pair's Assault Squad
    Dashed 2.7" round the ruins' Pit instead of 6" into it, the grid pricing the Pit at five
    times its length)."""
    state = _depot_state()
    w = _work(state)
    on = TacticalBot(price_danger=True).choose(state)
    off = TacticalBot(price_danger=False).choose(state)
    assert isinstance(on, Move) and isinstance(off, Move)
    cache: dict[tuple[int, str], float] = {}
    allowance, third = 6.0, 2.0
    centre = w.xy(0).mean(axis=0)
    x, y = float(centre[0]), float(centre[1])
    goal = (x, 44.0)

    def order(grid_on: float, closed_on: float) -> Move:
        progress = {off: 10.0, on: 10.0 + grid_on}
        landing = {off: (x, y + 6.0), on: (x, y + closed_on)}
        return danger_priced(w, 0, [off, on], allowance, progress, landing, goal, cache)[0]

    assert order(third - 0.1, 6.0 - third + 0.1) == on
    assert order(third + 0.1, 6.0) == off
    assert order(0.0, 6.0 - third - 0.1) == off
