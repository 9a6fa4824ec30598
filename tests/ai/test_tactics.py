"""The tactical player's fire and positions on constructed states (issue 15, fifth session):
focus fire, overkill, holding out of reach, cover (``ai.tactics``, ``ai.tactical``). Core
Rules 001_d3f5e425c5e1196d.txt."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactics import expected_take, target_score, wounded_first
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Move, Pass
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work


def _work(state: GameState) -> Work:
    return engine.legal_actions(state)._work


def test_expected_take_caps_at_the_hp_left_and_counts_the_slain_wounded_first() -> None:
    """§5.12: HP loss goes to wounded models first; what exceeds the HP left is overkill."""
    dist = {0: 0.25, 2: 0.5, 4: 0.25}
    assert wounded_first([2, 1, 0, 2], [False, False, True, False]) == [1, 2, 2]
    taken, slain = expected_take(dist, 1.0, [1, 2, 2])
    assert taken == pytest.approx(0.5 * 2 + 0.25 * 4)
    assert slain == pytest.approx(0.5 * 1 + 0.25 * 2)  # 2 HP: the wounded one; 4 HP: two
    taken, slain = expected_take(dist, 1.0, [1])  # one wounded model left
    assert taken == pytest.approx(0.75) and slain == pytest.approx(0.75)
    taken, _ = expected_take(dist, 0.5, [2, 2, 2])  # half the attackers left: half the dice
    assert taken == pytest.approx(0.5 * 1 + 0.25 * 2)
    assert target_score(2.0, 1.0, 10.0, 6.0, 0.5) == pytest.approx(23.0)


def _firing_line(hp_near: tuple[int, ...], hp_far: tuple[int, ...], attacks: int) -> GameState:
    """Side 0: a unit of two gunners (uid 0). Side 1: two identical squads of three 2-HP
    troopers, uid 1 the nearer (12") and uid 2 the farther (16"), with the HP given."""
    gun = weapon(range=30, attacks=attacks, power=5)
    squad = unit("Squad", models=3, hp=2, defence=4, weapons=[weapon(range=24, power=4)])
    state = scenario(
        [
            [entry(unit("Gunners", models=2, weapons=[gun]))],
            [entry(squad), entry(squad)],
        ],
        {
            0: [(20.0, 10.0), (22.0, 10.0)],
            1: [(19.0, 23.0), (21.0, 23.0), (23.0, 23.0)],
            2: [(35.0, 25.0), (37.0, 25.0), (39.0, 25.0)],
        },
        phase=Phase.ATTACK,
    )
    units = list(state.units)
    units[1] = replace(units[1], hp=hp_near)
    units[2] = replace(units[2], hp=hp_far)
    return replace(state, units=tuple(units))


def test_focus_fire_the_second_unit_finishes_the_wounded_target() -> None:
    """§5.2, §5.11-5.12: the farther squad already lost HP to another unit's attack; the
    gunners turn on it (their HP loss slays its wounded models: output removed) instead of
    the nearer fresh squad, which they attack when both are fresh (the tie goes to the
    nearest)."""
    bot = TacticalBot()
    fresh = _firing_line((2, 2, 2), (2, 2, 2), attacks=3)
    w = _work(fresh)
    first = bot._attack(w, 0)[0]
    assert isinstance(first, Attack) and first.targets[0][1] == 1
    wounded = _firing_line((2, 2, 2), (1, 1, 2), attacks=3)
    w = _work(wounded)
    first = bot._attack(w, 0)[0]
    assert isinstance(first, Attack) and first.targets[0][1] == 2
    assert bot._fire_value(w, 0, 2, "Gun", False) > bot._fire_value(w, 0, 1, "Gun", False)


def test_no_overkill_a_big_attack_goes_to_the_fresh_unit_not_the_last_hp() -> None:
    """What exceeds the HP a unit has left is worth nothing: a volley expected to take far
    more than the one HP the wounded squad has left goes to the fresh squad."""
    bot = TacticalBot()
    state = _firing_line((2, 2, 2), (1, 0, 0), attacks=8)
    units = list(state.units)
    units[2] = replace(units[2], removed=(False, True, True))
    state = replace(state, units=tuple(units))
    w = _work(state)
    first = bot._attack(w, 0)[0]
    assert isinstance(first, Attack) and first.targets[0][1] == 1


def _standoff(enemy_hp: tuple[int, ...]) -> GameState:
    """Move Phase, side 0 to act: its squad (uid 0: Move 6", Range 12") stands 34" from an
    enemy squad (uid 1: Move 6", Range 24"), out of its reach (24 + 6 = 30"); a full move
    toward it ends 28" away: in its reach, out of the squad's own Range."""
    ours = unit("Carbines", models=2, weapons=[weapon("Carbine", range=12, attacks=2)])
    theirs = unit("Rifles", models=2, weapons=[weapon("Rifle", range=24, attacks=2)])
    state = scenario(
        [[entry(ours)], [entry(theirs)]],
        {0: [(23.0, 5.0), (25.0, 5.0)], 1: [(23.0, 40.0), (25.0, 40.0)]},
        phase=Phase.MOVE,
    )
    units = list(state.units)
    units[1] = replace(units[1], hp=enemy_hp)
    return replace(state, units=tuple(units))


def test_a_shooter_ahead_on_points_holds_out_of_the_enemys_reach() -> None:
    """§2.2 steps 3-4 and 8: ahead on points (the enemy squad lost a model), the squad does
    not walk into the enemy's Move plus Range where it could not shoot back: it stays (the
    bot passes). Level on points it advances (a side that is not ahead seeks the exchange)."""
    ahead = _standoff((1, 0))
    units = list(ahead.units)
    units[1] = replace(units[1], removed=(False, True))
    ahead = replace(ahead, units=tuple(units))
    assert ahead.side_values()[0] > ahead.side_values()[1]
    assert isinstance(TacticalBot().choose(ahead), Pass)
    level = _standoff((1, 1))
    move = TacticalBot().choose(level)
    assert isinstance(move, Move) and move.unit == 0


def _wall_state(wall: bool) -> GameState:
    """Move Phase, side 0 to act: its unit (uid 0: Move 8") at (18, 12); an enemy gunner
    (uid 1: Range 30") at (24, 40); with ``wall``, a tall wall (blocks sight, impassable) at
    x 8-18, y 20-22 hides (13, 17) from the gunner while (24, 17) stays in its sight."""
    from tests.warsurge.game.helpers import board
    from warbench.rulesets.warsurge.battlefield import Terrain

    terrain = (
        [
            Terrain(
                name="Wall",
                polygon=[(8, 20), (18, 20), (18, 22), (8, 22)],
                blocks_los=True,
                impassable=True,
            )
        ]
        if wall
        else []
    )
    ours = unit("Scouts", move=8, weapons=[weapon(range=12)])
    gunner = unit("Gunner", weapons=[weapon("Cannon", range=30, attacks=3, power=6)])
    return scenario(
        [[entry(ours)], [entry(gunner)]],
        {0: [(18.0, 12.0)], 1: [(24.0, 40.0)]},
        phase=Phase.MOVE,
        b=board(terrain=terrain),
    )


def test_of_two_moves_making_the_same_progress_it_takes_the_one_out_of_sight() -> None:
    """§5.5-5.6: the move that ends behind the wall, out of the gunner's sight, comes before
    the move that ends as far forward in its sight; with no wall, the order is kept."""
    for wall in (True, False):
        bot = TacticalBot()
        state = _wall_state(wall)
        w = _work(state)
        open_move = Move(0, to=(24.0, 17.0))
        hidden = Move(0, to=(13.0, 17.0))
        for m in (open_move, hidden):
            bot._progress[m] = 30.0
        ranked = bot._sheltered_first(state, w, 0, [open_move, hidden], 8.0)
        assert ranked == ([hidden, open_move] if wall else [open_move, hidden])
        assert bot._exposure_after(state, 0, open_move) > 0.0
        assert (bot._exposure_after(state, 0, hidden) == 0.0) is wall


def _dash_state(second_enemy: bool) -> GameState:
    """Dash Phase, side 0 to act: its Carbines (uid 0: Move and Dash 6", Range 12") stand
    33" from an enemy Gunner (uid 1: Move 12", Range 30") that reaches them next Game Turn
    (12 + 30 = 42") whether they Dash or not. With ``second_enemy``, enemy Rifles (uid 2:
    Move 6", Range 16") stand 25" from them: out of the Rifles' reach (22") where they
    stand, in it after a 6" Dash toward the Gunner."""
    ours = unit("Carbines", models=2, weapons=[weapon("Carbine", range=12, attacks=2)])
    gunner = unit("Gunner", move=12, weapons=[weapon("Cannon", range=30, attacks=3, power=6)])
    rifles = unit("Rifles", models=2, weapons=[weapon("Rifle", range=16, attacks=2)])
    enemies = [entry(gunner)] + ([entry(rifles)] if second_enemy else [])
    positions = {0: [(23.0, 5.0), (25.0, 5.0)], 1: [(24.0, 39.0)]}
    if second_enemy:
        positions[2] = [(23.0, 31.0), (25.0, 31.0)]
    return scenario([[entry(ours)], enemies], positions, phase=Phase.DASH)


def test_a_shooter_already_in_a_fast_enemys_reach_dashes_toward_it() -> None:
    """§5.1, §2.2 (sixth session): the Carbines fired nothing this Game Turn, so they may
    Dash; the Gunner reaches them next Game Turn wherever they end, so the Dash costs
    nothing and brings them 6" nearer their own Range. The fifth session's rule (a Dash
    only out of every enemy's Move plus Range) kept them at a walk: switched off, they
    pass."""
    state = _dash_state(second_enemy=False)
    on = TacticalBot().choose(state)
    assert isinstance(on, Move) and on.unit == 0 and on.dash
    after, _ = engine.apply(state, on)
    before_gap = engine.nearest_enemies(_work(state), 0)[0][0]
    assert engine.nearest_enemies(_work(after), 0)[0][0] < before_gap - 4.0
    assert isinstance(TacticalBot(dash_in_reach=False).choose(state), Pass)


def test_a_shooter_does_not_dash_into_a_second_enemys_reach_for_nothing() -> None:
    """The Dash that would carry the Carbines into the Rifles' Move plus Range (22"), with
    no target of their own in Range from there, is not made: the expected damage on them
    next Game Turn would grow by the Rifles' attack and their guns gain nothing."""
    state = _dash_state(second_enemy=True)
    bot = TacticalBot()
    w = _work(state)
    here = w.xy(0).mean(axis=0)
    at = (float(here[0]), float(here[1]))
    assert bot._incoming(w, 0, at, next_turn=True) > 0.0  # the Gunner reaches them already
    assert isinstance(bot.choose(state), Pass)


def _hidden_melee_state() -> GameState:
    """Dash Phase, side 0 to act: its Blades (uid 0: Move and Dash 6", melee only) stand at
    (27, 17) behind a tall wall (x 8-30, y 20-22: blocks sight, impassable) from an enemy
    Gunner (uid 1: Move 12", Range 30") at (24, 40); the way to the Gunner runs round the
    wall's east end, where the Gunner sees it."""
    from tests.warsurge.game.helpers import board
    from warbench.rulesets.warsurge.battlefield import Terrain

    wall = Terrain(
        name="Wall",
        polygon=[(8, 20), (30, 20), (30, 22), (8, 22)],
        blocks_los=True,
        impassable=True,
    )
    blades = unit("Blades", models=2, weapons=[weapon("Blade", range=0, attacks=3, power=5)])
    gunner = unit("Gunner", move=12, weapons=[weapon("Cannon", range=30, attacks=3, power=6)])
    return scenario(
        [[entry(blades)], [entry(gunner)]],
        {0: [(26.0, 17.0), (28.0, 17.0)], 1: [(24.0, 40.0)]},
        phase=Phase.DASH,
        b=board(terrain=[wall]),
    )


def test_a_melee_unit_out_of_sight_does_not_dash_into_a_guns_sight() -> None:
    """§5.5, §4.3 (sixth session): hidden from the Gunner behind the wall, the Blades would
    end the Dash along their path round the wall's end in its sight, still far beyond their
    Move of it (no charge next Game Turn): they Dash no farther than the wall still hides
    them. Switched off, they Dash round the end into the Gunner's sight. (Session 29's
    reserve, ``trade_up``, is off here: a Melee with the Gunner would spend the Blades, and
    that habit keeps them hidden too, ``tests/ai/test_tactical_melee.py``.)"""
    state = _hidden_melee_state()
    bot = TacticalBot(trade_up=False)
    assert bot._exposure(_work(state), 0) == 0.0
    on = bot.choose(state)
    assert isinstance(on, Pass) or TacticalBot()._exposure_after(state, 0, on) == 0.0
    off = TacticalBot(melee_dash_hidden=False, trade_up=False).choose(state)
    assert isinstance(off, Move) and off.unit == 0 and off.dash
    assert TacticalBot()._exposure_after(state, 0, off) > 0.0
