"""Upheaval's shared Scatter and a User with no models left (issue 10, session 39,
s39-upheaval; Perks 000_94ecc6a4c74d351b.txt Upheaval L3216-L3244; docs/rulings.md
"WARSURGE perks in play: session 25, w2-state", ruling 15). Test names carry the rank's source
line (``p3234`` …), which ``scripts/build_perk_coverage.py`` reads.

The constructed game: the User (one model, 5 HP, Defence 4) with two Upheaval Weapons, a Quake
(2 Attacks, Power 4) and a Tremor (1 Attack, Power 4), at (10, 10); a Foe (one model, 9 HP)
6" north, in the User's Attack Phase. Both Weapons fire at the Foe and miss (1s).
"""

from __future__ import annotations

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Pass
from warbench.rulesets.warsurge.game.casualties import remove_models
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase
from warbench.rulesets.warsurge.game.work import Work

USER, FOE = 0, 1


def _fired(weapons: tuple[str, ...] = ("Quake", "Tremor")) -> GameState:
    """The User has fired ``weapons`` at the Foe (every Attack Dice a 1: no hits)."""
    quake = weapon("Quake", attacks=2, power=4, perks=["Upheaval"])
    tremor = weapon("Tremor", attacks=1, power=4, perks=["Upheaval"])
    me = entry(unit("User", weapons=[quake, tremor], hp=5))
    them = entry(unit("Foe", hp=9))
    state = scenario([[me], [them]], {USER: [(10.0, 10.0)], FOE: [(10.0, 16.0)]},
                     phase=Phase.ATTACK)  # fmt: skip
    dice = ScriptedDice([1] * 3)
    state, _ = engine.apply(state, Attack(USER, tuple((w, FOE) for w in weapons)), dice=dice)
    assert state.units[FOE].hp == (9,)
    return state


def _phase_end(state: GameState, faces: list[int]) -> tuple[GameState, list[Event]]:
    dice = ScriptedDice(faces)
    state, events = engine.apply(state, Pass(), dice=dice)
    assert dice.remaining == 0
    check_invariants(state)
    return state, events


def _texts(events: list[Event]) -> list[str]:
    return [e.text for e in events if "Upheaval" in e.text]


def test_p3234_two_failed_upheaval_weapons_share_one_scatter_and_2d6() -> None:
    # "If the User has multiple Weapons with this Perk and more than one fails the Skill Test,
    # the Scatter and 2D6 used for one Weapon applies to all the Upheaval Weapons." Skill Tests
    # 1 (Quake) and 2 (Tremor) fail; one Scatter: arrow 2, 2D6 = 8, direction N (1, 1); the User
    # runs into the Foe 5" away (one relocation), then both Weapons are used on the Foe: the
    # Quake's two 6s and the Tremor's one 6, 3 HP. (On main each failed Weapon rolled a Scatter
    # and 2D6 of its own: these faces ran out.)
    state, events = _phase_end(_fired(), [1, 2, 2, 4, 4, 1, 1, 6, 6, 6])
    texts = _texts(events)
    assert (
        "P0: User's Quake, Tremor: Upheaval Skill Tests failed (1, 2) (one Scatter for all, "
        'L3234): relocated, 5.0" N into P1: Foe'
    ) in texts
    assert sum("relocated" in t for t in texts) == 1
    assert abs(state.units[USER].pos[0][1] - 15.0) < 0.05
    assert state.units[FOE].hp == (6,)
    assert (USER, FOE) in state.engaged


def test_p3234_one_scatter_on_a_hit_both_weapons_strike_the_user() -> None:
    # both fail; the Scatter is a Hit (1; 2D6 3, 3): "the Weapon is used on the User", each of
    # them: the Quake's two 6s and the Tremor's one, 3 of the User's 5 HP; it does not move
    state, events = _phase_end(_fired(), [3, 1, 1, 3, 3, 6, 6, 6])
    assert state.units[USER].hp == (2,) and state.units[USER].pos == ((10.0, 10.0),)
    assert any("(3, 1) (one Scatter for all, L3234): relocated, a Hit" in t for t in _texts(events))


def test_p3234_one_fails_one_passes_the_failed_one_alone_relocates() -> None:
    # the Quake passes (4), the Tremor fails (1): one Weapon failed, it is the plain rule
    state, events = _phase_end(_fired(), [4, 1, 1, 3, 3, 6])
    texts = _texts(events)
    assert "P0: User's Quake: Upheaval Skill Test passed (4)" in texts
    assert "P0: User's Tremor: Upheaval Skill Test failed (1): relocated, a Hit" in texts
    assert state.units[USER].hp == (4,)


def test_p3238_a_user_with_no_models_left_still_rolls_the_test() -> None:
    # "If the User is a casualty before applying this Perk, still roll the test and apply the
    # results": the User fires the Quake, then its last model falls before the Phase ends; the
    # Skill Test is rolled (on main it was not: no die read); failed, nothing of the User is
    # left to relocate or to strike
    state = _fired(("Quake",))
    w = Work(state, None, DEFAULT_HOOKS)
    remove_models(w, USER, [0], "test")
    gone = w.state()
    assert gone.units[USER].location is Location.DESTROYED
    _, events = _phase_end(gone, [2])
    assert _texts(events) == [
        "P0: User's Quake: Upheaval Skill Test failed (2); no models left, nothing relocates"
    ]
    _, events = _phase_end(gone, [5])
    assert _texts(events) == ["P0: User's Quake: Upheaval Skill Test passed (5)"]
