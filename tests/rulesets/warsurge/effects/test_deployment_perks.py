"""Deployment Unit Perks played in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Deployment,
L1805-L1928; ``game/perk_deployment.py``). Each test applies a Deploy action through the game
engine and checks the same action without the perk. Test names carry the rank's source line
(``p1864``), which ``warbench perks --coverage`` reads. The board is 48" square, side 0's zone
the south 12", side 1's the north 12" (y from 36)."""

from __future__ import annotations

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Deploy, Pass
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase


def _state(perks: list[str]) -> GameState:
    """Side 0's Scouts (``perks``) in Reserve, in the Deploy Phase of Game Turn 1."""
    scouts = entry(unit("Scouts", perks=perks))
    foe = entry(unit("Foe"))
    return scenario([[scouts], [foe]], {1: [(24.0, 44.0)]}, phase=Phase.DEPLOY, turn=1)


def _deploys(perks: list[str], y: float) -> bool:
    state = _state(perks)
    try:
        new, _ = engine.apply(state, Deploy(0, positions=((24.0, y),)))
    except RulesError:
        return False
    check_invariants(new)
    assert new.units[0].location is Location.TABLE and new.units[0].pos == ((24.0, y),)
    return True


# y of the model's centre → the edge of its base from the enemy zone (y = 36): 35.5 - y
@pytest.mark.parametrize(
    ("rank", "allowed", "refused"),
    [
        pytest.param("Invade I", 20.0, 25.0, id="p1864-Invade I"),  # 15.5" ok, 10.5" not
        pytest.param("Invade II", 25.0, 33.0, id="p1870-Invade II"),  # 10.5" ok, 2.5" not
        pytest.param("Invade III", 33.0, 36.0, id="p1874-Invade III"),  # 2.5" ok, inside not
    ],
)
def test_p1864_invade_deploys_outside_the_zone_away_from_enemy_zones(
    rank: str, allowed: float, refused: float
) -> None:
    assert _deploys([rank], allowed)
    assert not _deploys([rank], refused)
    # without the rank: outside its Deployment Zone
    assert not _deploys([], allowed)
    assert _deploys([], 6.0) and _deploys([rank], 6.0)  # its own zone as ever


def test_p1864_invade_refusal_names_the_distance() -> None:
    with pytest.raises(RulesError, match=r'Invade I keeps it 12" away'):
        engine.check(_state(["Invade I"]), Deploy(0, positions=((24.0, 25.0),)))
    with pytest.raises(RulesError, match="outside its Deployment Zone"):
        engine.check(_state([]), Deploy(0, positions=((24.0, 25.0),)))


# -- Recon (L1882, L1888): a relocation at the end of the first Deploy Phase ---------------------


def _after_deploy(perks: list[str]) -> tuple[GameState, list[str]]:
    state, events = engine.apply(_state(perks), Deploy(0, positions=((24.0, 6.0),)))
    texts = [e.text for e in events]
    while state.flow.phase is Phase.DEPLOY:
        state, events = engine.apply(state, Pass())
        texts.extend(e.text for e in events)
    check_invariants(state)
    return state, texts


@pytest.mark.parametrize(
    ("rank", "y"),
    [
        pytest.param("Recon I", 12.0, id="p1882-Recon I"),
        pytest.param("Recon II", 18.0, id="p1888-Recon II"),
    ],
)
def test_p1882_recon_relocates_towards_the_enemy_at_the_end_of_the_deploy_phase(
    rank: str, y: float
) -> None:
    state, texts = _after_deploy([rank])
    ((x1, y1),) = state.units[0].pos
    assert (round(x1, 6), round(y1, 6)) == (24.0, y)
    assert any(rank in t and "relocates" in t for t in texts)
    plain, _ = _after_deploy([])
    assert plain.units[0].pos == ((24.0, 6.0),)
