"""The tactical player's habit of session 37 (issue 15, ``ai.tactical_lead``, switch
``TacticalBot.play_for_lead``) on constructed states: the habit's tests compare the switch on
and off (each fails with it off); the level, behind and three-unit cases play as before.
The Behemoths of the big mirror (``sim.points_study``: Move 8", Dash 6", Claws 5 attacks at
Power 8 and an 18" Bile Spit, 18 HP, 400 points); Core Rules 001_d3f5e425c5e1196d.txt §2.2
steps 7-8 (the game's end, decided on the value left), §4.3 (a charge), §4.4 (a Melee is
locked)."""

from __future__ import annotations

import math
from dataclasses import replace

from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactical_lead import ahead, even, keeps_lead, lead_charges, must_fight
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Move, Pass
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work

CLAWS = weapon("Claws", range=0, attacks=5, power=8, ap="3+")
BILE = weapon("Bile Spit", range=18, attacks=2, power=6, ap="4+")


def _behemoth(gun: bool = True) -> object:
    weapons = [CLAWS, BILE] if gun else [CLAWS]
    return unit(
        "Behemoth", move=8, dash=6, defence=8, hp=18, armour="3+", aegis="6+", weapons=weapons
    )


def _work(state: GameState) -> Work:
    return engine.legal_actions(state)._work


def _state(
    gap: float, hp: tuple[int, int], phase: Phase, turn: int = 2, gun: bool = True
) -> GameState:
    """Side 0 to act: its Behemoth (uid 0, a 100 mm base) at (10, 24) on an open 48" board,
    the enemy's (uid 1) ``gap`` inches east of it edge to edge; ``hp`` the HP each has left.
    ``gun``: side 0's Behemoth has its Bile Spit."""
    radius = 100 / 25.4 / 2
    state = scenario(
        [
            [entry(_behemoth(gun), points=400, base_mm=100)],  # type: ignore[arg-type]
            [entry(_behemoth(), points=400, base_mm=100)],  # type: ignore[arg-type]
        ],
        {0: [(10.0, 24.0)], 1: [(10.0 + gap + 2 * radius, 24.0)]},
        phase=phase,
        turn=turn,
    )
    units = list(state.units)
    for uid in (0, 1):
        units[uid] = replace(units[uid], hp=(hp[uid],))
    return replace(state, units=tuple(units))


def _centres(state: GameState) -> float:
    """The Behemoths' centres' distance."""
    (a,), (b,) = state.units[0].pos, state.units[1].pos
    return float(math.hypot(a[0] - b[0], a[1] - b[1]))


def _gap(state: GameState, action: Move) -> float:
    """The centres' distance after ``action`` (the engine's placement)."""
    after, _ = engine.apply(state, action)
    return _centres(after)


def test_ahead_and_even_p2_2_step_8() -> None:
    """1 HP of 18 taken is a lead (17/18 of 400 points against 400); a Melee of two equal
    Behemoths is even."""
    level = _state(6.0, (18, 18), Phase.MOVE)
    lead = _state(6.0, (18, 17), Phase.MOVE)
    assert not ahead(level, 0) and not ahead(level, 1)
    assert ahead(lead, 0) and not ahead(lead, 1)
    bot = TacticalBot()
    w = _work(lead)
    gain, loss = bot._worth(w, 0, 1, None, True), bot._worth(w, 1, 0, None, True)
    assert gain > 0.0 and even(gain, loss)
    assert not even(2.0 * loss, loss)
    assert lead_charges([(gain, loss, 1)], lead, w, 0) == []
    assert lead_charges([(gain, loss, 1)], level, _work(level), 0) == [(gain, loss, 1)]
    assert keeps_lead(lead, w, 0, [(6.0, 1)], bot._worth)
    assert not keeps_lead(level, _work(level), 0, [(6.0, 1)], bot._worth)


def test_ahead_a_behemoth_does_not_charge_into_an_even_melee_p4_3() -> None:
    """6" apart in the Move Phase, the enemy Behemoth 1 HP down: switched off, ours charges
    (the coin toss of a locked Melee, §4.4); with ``play_for_lead`` it steps away instead."""
    state = _state(6.0, (18, 17), Phase.MOVE)
    off = TacticalBot(play_for_lead=False).choose(state)
    assert isinstance(off, Move) and off.engage == 1
    on = TacticalBot(play_for_lead=True).choose(state)
    assert isinstance(on, Move) and on.unit == 0 and on.engage is None
    before = _centres(state)
    assert _gap(state, on) > before + 4.0


def test_level_or_behind_it_still_charges_p4_3() -> None:
    """The same place level (18 HP each) or behind (17 against 18): the switch changes
    nothing, ours charges."""
    for hp in ((18, 18), (17, 18)):
        state = _state(6.0, hp, Phase.MOVE)
        on = TacticalBot(play_for_lead=True).choose(state)
        assert isinstance(on, Move) and on.engage == 1, hp


def test_behind_in_a_game_turn_that_may_be_the_last_it_runs_at_the_enemy_p2_2_step_7() -> None:
    """Dash Phase of Game Turn 4 (the game may end after it, §2.2 step 7), ours (Claws only)
    1 HP down and 30" from the enemy, beyond its Bile Spit plus Move (26"): a Dash toward it
    ends within that reach, where the sixth session's rule refuses it (more exposed, no
    charge next Game Turn). With ``play_for_lead`` it Dashes straight at the enemy; switched
    off, or in Game Turn 2, it Dashes only where it stays out of it (aslant, closing less)."""
    state = _state(30.0, (17, 18), Phase.DASH, turn=4, gun=False)
    assert must_fight(state, _work(state), 0)
    before = _centres(state)
    probe = TacticalBot()
    off = TacticalBot(play_for_lead=False).choose(state)
    assert isinstance(off, Pass) or probe._exposure_after(state, 0, off) == 0.0
    on = TacticalBot(play_for_lead=True).choose(state)
    assert isinstance(on, Move) and on.dash and _gap(state, on) < before - 5.5
    assert probe._exposure_after(state, 0, on) > 0.0
    early = _state(30.0, (17, 18), Phase.DASH, turn=2, gun=False)
    assert not must_fight(early, _work(early), 0)
    act = TacticalBot(play_for_lead=True).choose(early)
    assert isinstance(act, Pass) or probe._exposure_after(early, 0, act) == 0.0


def test_an_army_of_three_units_plays_as_before() -> None:
    """The habit is a small army's (``tactical_kinds.small_army``, one or two units): with
    two more units on side 0 (far off in a corner) the Behemoth ahead charges as it does
    with the switch off (in the skirmish ladder, three units a side, one unit kept out of a
    Melee did not keep the side's lead: docs/ai.md, session 37)."""
    state = _state(6.0, (18, 17), Phase.MOVE)
    extra = unit("Scouts", move=6, dash=6, defence=3, hp=1, weapons=[weapon("Rifle", range=12)])
    big = scenario(
        [
            [
                entry(_behemoth(), points=400, base_mm=100),  # type: ignore[arg-type]
                entry(extra, points=20),
                entry(extra, points=20),
            ],
            [entry(_behemoth(), points=400, base_mm=100)],  # type: ignore[arg-type]
        ],
        {
            0: [state.units[0].pos[0]],
            1: [(2.0, 46.0)],
            2: [(4.0, 46.0)],
            3: [state.units[1].pos[0]],
        },
        phase=Phase.MOVE,
    )
    units = list(big.units)
    units[3] = replace(units[3], hp=(15,))
    big = replace(big, units=tuple(units))
    on = TacticalBot(play_for_lead=True).choose(big)
    assert isinstance(on, Move) and on.unit == 0 and on.engage == 3
