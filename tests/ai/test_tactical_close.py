"""The tactical player's habit of session 36 (issue 15, ``ai.tactical_close``, switch
``TacticalBot.even_dash``) on a constructed state: the test fails with the switch off. The
Behemoths of the big mirror (``sim.points_study``: Move 8", Dash 6", Claws and an 18" Bile
Spit); Core Rules 001_d3f5e425c5e1196d.txt §4.3 (a charge), §5.5-5.6 (sight and Cover)."""

from __future__ import annotations

from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactical_close import crosses_danger, threat_from
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Move, Pass
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work

CLAWS = weapon("Claws", range=0, attacks=5, power=8, ap="3+")
BILE = weapon("Bile Spit", range=18, attacks=2, power=6, ap="4+")


def _behemoth() -> object:
    return unit(
        "Behemoth", move=8, dash=6, defence=8, hp=18, armour="3+", aegis="6+", weapons=[CLAWS, BILE]
    )


def _work(state: GameState) -> Work:
    return engine.legal_actions(state)._work


def _state(claws_only: bool = False) -> GameState:
    """Dash Phase, side 0 to act: its Behemoth (uid 0, a 100 mm base) at (6, 24) on an open
    48" board, the enemy's (uid 1) at (40, 24): 30" apart edge to edge, out of each other's
    Bile Spit plus Move (26"). A Dash of 6" ends 24" off, within it, and far beyond a charge
    (8"). ``claws_only``: side 0's Behemoth has no Bile Spit."""
    ours = _behemoth()
    if claws_only:
        ours = unit("Behemoth", move=8, dash=6, defence=8, hp=18, armour="3+", weapons=[CLAWS])
    return scenario(
        [[entry(ours, points=400, base_mm=100)], [entry(_behemoth(), points=400, base_mm=100)]],  # type: ignore[arg-type]
        {0: [(6.0, 24.0)], 1: [(40.0, 24.0)]},
        phase=Phase.DASH,
    )


def test_threat_counts_the_guns_within_range_plus_move_and_the_claws_within_move() -> None:
    """What a Behemoth threatens next Game Turn: nothing from 30" (beyond 18" + 8"), its
    Bile Spit from 24", its Claws too from within its Move (8")."""
    bot = TacticalBot()
    w = _work(_state())
    radius = w.info(0).radius

    def at(x: float) -> float:
        return threat_from(w, 0, (x, 24.0), radius, bot._worth)

    spit = bot._worth(w, 0, 1, None, False)
    claws = bot._worth(w, 0, 1, None, True)
    assert at(6.0) == 0.0
    assert at(12.0) == spit > 0.0
    assert at(32.0) == max(spit, claws) == claws


def test_a_behemoth_dashes_into_the_reach_of_a_bile_spit_it_answers() -> None:
    """The Dashes that end within the enemy Behemoth's Bile Spit plus Move (its expected
    damage on ours next Game Turn grows) but not within a charge are refused by the sixth
    session's rule; ours threatens the enemy as much from there, so with ``even_dash`` it
    Dashes straight into that reach, and switched off it Dashes only where it stays out of it
    (aslant, closing less; the big mirror's Behemoths closed at 8" a Game Turn when no such
    Dash was left, docs/ai.md, session 36)."""
    state = _state()
    probe = TacticalBot()
    on = TacticalBot(even_dash=True).choose(state)
    assert isinstance(on, Move) and on.unit == 0 and on.dash
    assert probe._exposure_after(state, 0, on) > 0.0
    off = TacticalBot(even_dash=False).choose(state)
    assert isinstance(off, Pass) or probe._exposure_after(state, 0, off) == 0.0


def test_a_behemoth_without_a_gun_still_does_not_run_into_the_bile_spit() -> None:
    """With Claws only it threatens nothing from 24" (no charge), so the Dash that only adds
    to the enemy's expected damage on it is refused with the switch on too."""
    state = _state(claws_only=True)
    act = TacticalBot(even_dash=True).choose(state)
    assert isinstance(act, Pass) or TacticalBot()._exposure_after(state, 0, act) == 0.0


def _depot_state() -> GameState:
    """Move Phase, side 0 to act: seven Troopers (uid 0, Laser Rifles 18") in a row 1.5"
    apart at y 10, x 17-26, walking north toward enemy Troopers (uid 1) at (21.5, 44), out of
    Range; a round Fuel depot of Dangerous Ground (§4.6), 4" across, stands at (25, 16): the
    row's centre passes west of it, its eastern models through it."""
    import math

    from tests.warsurge.game.helpers import board
    from warbench.rulesets.warsurge.battlefield import DangerousSpec, Terrain

    circle = [
        (25.0 + 2.0 * math.cos(2 * math.pi * k / 16), 16.0 + 2.0 * math.sin(2 * math.pi * k / 16))
        for k in range(16)
    ]
    depot = Terrain(name="Fuel depot", polygon=circle, dangerous=DangerousSpec())
    rifle = weapon("Laser Rifle", range=18, attacks=2, power=3, type="Battle")
    ours = unit("Troopers", models=7, armour="4+", weapons=[rifle])
    theirs = unit("Troopers", models=7, armour="4+", weapons=[rifle])
    return scenario(
        [[entry(ours)], [entry(theirs)]],
        {
            0: [(17.0 + 1.5 * k, 10.0) for k in range(7)],
            1: [(17.0 + 1.5 * k, 44.0) for k in range(7)],
        },
        phase=Phase.MOVE,
        b=board(terrain=[depot]),
    )


def test_a_wide_formation_goes_round_a_small_dangerous_ground_L2100() -> None:
    """§4.6: each model that moves through, into or out of Dangerous Ground rolls for it. The
    path planned for the row's centre leaves the depot beside it, and the first path move
    sweeps the eastern Troopers through it; with ``shun_danger`` the Move is one in which no
    model crosses it, switched off it is the one that does."""
    state = _depot_state()
    w = _work(state)
    on = TacticalBot(shun_danger=True).choose(state)
    off = TacticalBot(shun_danger=False).choose(state)
    assert isinstance(on, Move) and isinstance(off, Move) and on.unit == off.unit == 0
    allowance = 6.0
    assert not crosses_danger(w, 0, on, allowance)
    assert crosses_danger(w, 0, off, allowance)
    _, events = engine.apply(state, on)
    assert not [e for e in events if e.kind == "danger"]
    _, events = engine.apply(state, off)
    assert [e for e in events if e.kind == "danger"]
