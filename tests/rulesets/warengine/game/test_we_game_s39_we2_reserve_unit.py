"""L577 "you may attack that unit" (issue 10, session 39, s39-we2; 004_f4ea5693af0644ce.txt
L575-L579, docs/rulings.md The WarEngine 2.1 game ruling 8).

"Your opponent is moving and attacking with a unit. If your figure has line of sight and has
an attack on reserve with enough range, you may attack that unit. You may not use reserve fire
to attack some other unit at that time." (L577). Until s39-we2 the move window offered only
the figure that had just moved; now every figure of the active unit the reserved weapon may
target (the closest, L467-L469) is a choice. The engine's own choice is still the figure that
moved, or no attack, so the seeded games by the defaults keep their fingerprints."""

from __future__ import annotations

from typing import Any

from warbench.rulesets.warengine.game.state import Move, Pass, ReserveFire

from .helpers import WS, act, activate, force, table, trooper

CHAR = trooper("Gunslinger", type="C")


def _far_mover_moves() -> Any:
    """Gunslinger #0 (Rifle 24" on reserve) at (10", 5"); the enemy unit: Foe #1 at (10",
    20"), 15" away and the closest, and Foe #2 at (12", 22"), which moves to (13", 22"), about
    17.3" away: in range but not the closest figure of its unit."""
    foe = trooper("Foe", type="T")
    s = table(force(("A", [(CHAR, 1)])), force(("B", [(foe, 2)])), [(10, 5), (10, 20), (12, 22)])
    s.figs[0].reserved = 0
    s = activate(s, 1)
    s, _ = act(s, Move(2, 13, 22), 1)
    return s


def test_L577_a_reserved_attack_may_hit_another_figure_of_the_moving_unit() -> None:
    s = _far_mover_moves()
    (d,) = WS.pending(s)  # before s39-we2: no window (only Foe #2 could be a target)
    assert (d.player, d.kind, d.rule[-4:]) == (0, "reserve", "L577")
    legal = list(WS.legal_actions(s, 0))
    assert ReserveFire(0, 1) in legal and ReserveFire(0, 2) not in legal  # closest (L467)
    assert d.default == Pass()  # the engine's choice: the mover only, unchanged
    assert d.prompt.startswith("Use a reserved attack on the enemy's Foe #2 or its unit?\n")
    assert WS.check(s, ReserveFire(0, 1), 0) is None
    s2, _ = act(s, ReserveFire(0, 1), 0, [6] * 20)
    assert s2.figs[0].reserved is None  # the marker is spent (L573)


def test_L577_not_some_other_unit() -> None:
    """'You may not use reserve fire to attack some other unit at that time' (L577): a figure
    of a unit that is not activating is no choice."""
    foe = trooper("Foe", type="T")
    s = table(
        force(("A", [(CHAR, 1)])),
        force(("B", [(foe, 1)]), ("C", [(foe, 1)])),
        [(10, 5), (10, 20), (30, 25)],
    )
    s.figs[0].reserved = 0
    mover_unit = s.figs[2].unit
    s = activate(s, mover_unit)
    s, _ = act(s, Move(2, 28, 25), 1)
    legal = list(WS.legal_actions(s, 0)) if WS.pending(s)[0].player == 0 else []
    assert ReserveFire(0, 1) not in legal
    assert WS.check(s, ReserveFire(0, 1), 0) is not None
