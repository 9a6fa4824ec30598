"""Mode templates played in a game (Perks 000_94ecc6a4c74d351b.txt §12.5 Mode, L3295-L3563;
``effects/mode.py``, ``game/perk_mode.py``).

Each test applies an Attack through the game engine with scripted dice (every Attack Die a 6,
no Armour, so each die is 1 HP lost) and counts the Attack Dice each unit under the template
receives: its models under the template x the Weapon's Attacks; the same Attack without the
rank rolls the usual dice at the named Target only. Test names carry the rank's source line
(``p3321``), which ``warbench perks --coverage`` reads. Every unit's base is 1" across (radius
0.5"), so a model is under a circle of diameter d when its centre is within d/2 + 0.5".
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warsurge.effects.mode import Shape, Template, TemplateAt, under
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.state import GameState, Phase

USER = 0
SIXES = [6] * 400


def _state(
    perks: list[str],
    foes: list[list[tuple[float, float]]],
    friends: list[list[tuple[float, float]]] = (),  # type: ignore[assignment]
    *,
    user_at: tuple[float, float] = (13.0, 10.0),
    attacks: int = 1,
    rng: float = 24,
) -> GameState:
    """The User (side 0, one model with a Gun: Power 4, ``attacks``, ``rng``", ``perks``),
    its friendly units (side 0) at ``friends`` and enemy units (side 1, Defence 3, 5 HP a
    model, no Armour) at ``foes``; the Attack Phase of Game Turn 2, side 0 acting."""
    gun = weapon("Gun", power=4, attacks=attacks, range=rng, perks=perks)
    me = entry(unit("User", weapons=[gun], hp=5))
    mine = [
        entry(unit(f"Friend {k}", models=len(p), hp=5, defence=3)) for k, p in enumerate(friends)
    ]
    theirs = [entry(unit(f"Foe {k}", models=len(p), hp=5, defence=3)) for k, p in enumerate(foes)]
    positions: dict[int, Any] = {USER: [user_at]}
    for k, p in enumerate([*friends, *foes]):
        positions[1 + k] = p
    return scenario([[me, *mine], theirs], positions, phase=Phase.ATTACK, turn=2)


def _attack(
    state: GameState, target: int, faces: list[int] = SIXES
) -> tuple[GameState, list[Event]]:
    new, events = engine.apply(state, Attack(USER, (("Gun", target),)), dice=ScriptedDice(faces))
    check_invariants(new)
    return new, events


def _dice(events: list[Event]) -> dict[int, int]:
    """Attack Dice received, by unit."""
    out: dict[int, int] = {}
    for e in events:
        if e.kind == "attack":
            n = e.data.get("attack_dice")
            if n is None:  # a plain Attack: "N Attack Dice" in its text
                n = int(re.search(r"(\d+) Attack Dice", e.text)[1])  # type: ignore[index]
            out[int(e.data["target"])] = out.get(int(e.data["target"]), 0) + int(n)
    return out


def _line(x0: float, y: float, n: int, gap: float = 1.5) -> list[tuple[float, float]]:
    return [(x0 + k * gap, y) for k in range(n)]


# -- circles: Blast (scatter) and Explode, friend and foe under the template ---------------------

FOE_ROW = _line(13.0, 20.0, 5)  # x = 13, 14.5, 16, 17.5, 19
FRIEND_NEAR = [(13.0, 21.5)]  # 1.5" from the closest foe model


@pytest.mark.parametrize(
    ("rank", "foe_dice"),
    [
        pytest.param("Blast I", 2, id="p3321-Blast I"),  # reach 2": 13, 14.5
        pytest.param("Blast II", 3, id="p3337-Blast II"),  # reach 3": 13 .. 16
        pytest.param("Blast III", 4, id="p3345-Blast III"),  # reach 5.5": 13 .. 17.5
    ],
)
def test_p3321_blast_strikes_every_unit_under_the_template_after_a_hit(
    rank: str, foe_dice: int
) -> None:
    state = _state([rank], [FOE_ROW], [FRIEND_NEAR])
    foe, friend = 2, 1
    # Scatter Arrow 1 = a Hit (its 2D6 distance 3 + 4 is discarded), then the Attack Dice
    _, events = _attack(state, foe, [1, 3, 4, *SIXES])
    assert _dice(events) == {foe: foe_dice, friend: 1}
    assert any("a Hit" in e.text for e in events)
    # without the rank: the Gun's 1 Attack Die at the named Target only
    _, plain = _attack(_state([], [FOE_ROW], [FRIEND_NEAR]), foe)
    assert _dice(plain) == {foe: 1}


def test_p3321_blast_scatters_with_the_arrow_and_2d6() -> None:
    state = _state(["Blast I"], [FOE_ROW], [FRIEND_NEAR])
    # arrow 3 (no Hit), distance 2 + 2 = 4", direction faces 2, 1 -> East: the centre moves
    # from (13, 20) to (17, 20): foe models at 16, 17.5, 19 are within 2"
    _, events = _attack(state, 2, [3, 2, 2, 2, 1, *SIXES])
    assert _dice(events) == {2: 3}
    assert any('scatters 4" E' in e.text for e in events)
    # South instead (faces 3, 1): (13, 16), nothing under it
    _, events = _attack(state, 2, [3, 2, 2, 3, 1, *SIXES])
    assert _dice(events) == {}
    assert any("strikes no model" in e.text for e in events)


@pytest.mark.parametrize(
    ("rank", "foe_dice"),
    [
        pytest.param("Explode I", 2, id="p3413-Explode I"),
        pytest.param("Explode II", 3, id="p3423-Explode II"),
        pytest.param("Explode III", 4, id="p3429-Explode III"),
    ],
)
def test_p3413_explode_multiplies_the_models_under_it_by_the_attacks(
    rank: str, foe_dice: int
) -> None:
    # no Scatter; 2 Attacks: the models under the template x 2
    state = _state([rank], [FOE_ROW], [FRIEND_NEAR], attacks=2)
    new, events = _attack(state, 2)
    assert _dice(events) == {2: 2 * foe_dice, 1: 2}
    assert new.units[2].current_hp == 25 - 2 * foe_dice  # each 6 is 1 HP lost
    assert new.units[1].current_hp == 5 - 2  # the friend under it too
    _, plain = _attack(_state([], [FOE_ROW], [FRIEND_NEAR], attacks=2), 2)
    assert _dice(plain) == {2: 2}


def test_p3413_explode_is_drawn_back_fully_inside_weapon_range() -> None:
    # Range 10: the foe's closest model is 10" away, the 10" template's centre is drawn back to
    # 10 + 0.5 - 5 = 5.5" from the Wielder, (13, 15.5): the foe models within 5.5" of it
    # (13, 14.5 and 16; not 17.5)
    state = _state(["Explode III"], [FOE_ROW], rng=10)
    _, events = _attack(state, 1)
    centre = np.array([13.0, 15.5])
    expected = sum(1 for p in FOE_ROW if np.hypot(*(np.array(p) - centre)) <= 5.5)
    assert _dice(events) == {1: expected} and expected == 3


# -- Nova: over the Wielder, enemy models inside ----------------------------------------------

NOVA_FOES = [(13.0, 11.2), (13.0, 12.2), (13.0, 13.5), (13.0, 14.8)]


@pytest.mark.parametrize(
    ("rank", "foe_dice"),
    [
        pytest.param("Nova I", 1, id="p3463-Nova I"),  # centres within 1.5": 1.2
        pytest.param("Nova II", 2, id="p3473-Nova II"),  # within 2.5": 1.2, 2.2
        pytest.param("Nova III", 4, id="p3477-Nova III"),  # within 5": all four
    ],
)
def test_p3463_nova_counts_enemy_models_inside_the_template_over_the_wielder(
    rank: str, foe_dice: int
) -> None:
    friend = [(11.8, 10.0)]  # inside every Nova, not counted (enemy models only)
    state = _state([rank], [NOVA_FOES], [friend])
    _, events = _attack(state, 2)
    assert _dice(events) == {2: foe_dice}


# -- Wall: a line across the line of fire -----------------------------------------------------

WALL_FOES = _line(4.0, 20.0, 13)  # x = 4 .. 22


@pytest.mark.parametrize(
    ("rank", "foe_dice"),
    [
        pytest.param("Wall I", 5, id="p3549-Wall I"),  # x 10 .. 16
        pytest.param("Wall II", 9, id="p3559-Wall II"),  # x 7 .. 19
        pytest.param("Wall III", 13, id="p3563-Wall III"),  # x 4 .. 22
    ],
)
def test_p3549_wall_strikes_the_models_under_its_line(rank: str, foe_dice: int) -> None:
    _, events = _attack(_state([rank], [WALL_FOES]), 1)
    assert _dice(events) == {1: foe_dice}


# -- Cone: a droplet from within Range --------------------------------------------------------

CONE_FOES = [(13.0, 20.0 + 1.6 * k) for k in range(6)]  # y = 20 .. 28


@pytest.mark.parametrize(
    ("rank", "foe_dice"),
    [
        pytest.param("Cone I", 4, id="p3377-Cone I"),  # y 16 .. 24 and its 1.5" round end
        pytest.param("Cone II", 6, id="p3389-Cone II"),  # y 12 .. 28
    ],
)
def test_p3377_cone_strikes_the_models_under_the_droplet(rank: str, foe_dice: int) -> None:
    _, events = _attack(_state([rank], [CONE_FOES]), 1)
    assert _dice(events) == {1: foe_dice}


# -- Beam: unit after unit while it causes HP Loss; Diffuse: a 90 degree V --------------------

BEAM_A = [(13.0, 16.0), (13.0, 17.2)]
BEAM_B = [(13.0, 22.0)]


def test_p3295_beam_i_goes_on_to_the_next_unit_while_it_causes_hp_loss() -> None:
    state = _state(["Beam I"], [BEAM_A, BEAM_B])
    new, events = _attack(state, 1)
    # the profile's Attack Dice (1) at each unit struck, closest first
    assert [int(e.data["target"]) for e in events if e.kind == "attack"] == [1, 2]
    assert _dice(events) == {1: 1, 2: 1}
    assert new.units[2].current_hp == 4
    # the first die fails: no HP Loss, the Beam stops at the first unit
    _, events = _attack(state, 1, [1, *SIXES])
    assert _dice(events) == {1: 1}


def test_p3309_beam_ii_counts_the_models_under_the_line() -> None:
    _, events = _attack(_state(["Beam II"], [BEAM_A, BEAM_B]), 1)
    assert _dice(events) == {1: 2, 2: 1}


def test_p3393_diffuse_strikes_the_models_in_the_90_degree_v_within_range() -> None:
    # x = 13 .. 22: up to 20.5 inside the V (43 degrees off the line), 22 is 48 degrees off
    foes = _line(13.0, 18.0, 7)
    far = [(13.0, 23.0)]  # 13" away: beyond Diffuse's 12"
    wide = [(24.0, 14.0)]  # 70 degrees off the line
    _, events = _attack(_state(["Diffuse"], [foes, far, wide]), 1)
    assert _dice(events) == {1: 6}


# -- the geometry itself ---------------------------------------------------------------------


def test_p3321_a_model_partially_under_a_circle_counts() -> None:
    at = TemplateAt(Template(Shape.CIRCLE, 3.0), (0.0, 0.0))
    xy = np.array([(0.0, 1.9), (0.0, 2.1), (1.4, 1.4)])
    assert under(at, xy, 0.5).tolist() == [True, False, True]


# -- Chain: the Weapon goes on to enemy units near a Target it damaged ------------------------

CHAIN_A = [(13.0, 20.0)]
CHAIN_B = [(16.0, 20.0)]  # 2" from A
CHAIN_C = [(13.0, 30.0)]  # far from everyone
CHAIN_D = [(19.0, 25.0)]  # 4.8" from B, 6.8" from A


def _chain_targets(rank: str, faces: list[int]) -> list[int]:
    state = _state([rank], [CHAIN_A, CHAIN_B, CHAIN_C, CHAIN_D])
    _, events = _attack(state, 1, [*faces, *SIXES])
    return [int(e.data["target"]) for e in events if e.kind == "attack"]


def test_p3353_chain_i_attacks_enemy_units_within_6_of_a_damaged_target_on_a_4() -> None:
    # A loses HP (a 6); B is within 6": D6 4 -> attacked with the full profile; D is not
    # within 6" of A and Chain I does not go on from B
    assert _chain_targets("Chain I", [6, 4, 6]) == [1, 2]
    # a 3 for B: no chain
    assert _chain_targets("Chain I", [6, 3]) == [1]
    # no HP Loss on A: nothing to roll
    assert _chain_targets("Chain I", [1]) == [1]
    # without the rank: A only
    state = _state([], [CHAIN_A, CHAIN_B, CHAIN_C, CHAIN_D])
    _, events = _attack(state, 1)
    assert [int(e.data["target"]) for e in events if e.kind == "attack"] == [1]


def test_p3365_chain_ii_goes_on_from_every_unit_it_damages() -> None:
    # A (6), B chained (4, 6), then from B: D within 6" (4, 6); A is not struck again
    assert _chain_targets("Chain II", [6, 4, 6, 4, 6]) == [1, 2, 4]
    # B chained but takes no HP Loss (a 1): the chain stops there
    assert _chain_targets("Chain II", [6, 4, 1]) == [1, 2]
