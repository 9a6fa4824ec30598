"""Every attack-math rank (class A, the attack sequence) changes an Attack played in a game.

For each rank: one Attack action applied by the game engine (``engine.apply``) with seeded
dice, in a scenario where the perk's condition holds (a Melee, Cover, a target of 5+ models,
…), once with the perk on its profile and once without. The test finds a seed among the first
60 where the two games differ (HP of either unit, or the action refused), so the rank is shown
to act in a game, not only in the attack kernel. The test ids carry the rank's source line
(``p3771``); ``warbench perks --coverage`` reads them (``effects/data/coverage.json``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.warsurge.game.helpers import board, entry, scenario, unit, weapon
from warbench.kernel.dice import SeededDice
from warbench.kernel.errors import WarbenchError
from warbench.rulesets.warsurge.attack import IMPLEMENTED_PERKS
from warbench.rulesets.warsurge.battlefield import Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.perks import PerkCatalog, PerkKind


@dataclass(frozen=True)
class Scene:
    """Where a rank is put and the situation its text asks for."""

    place: str = "weapon"  # weapon | attacker | target
    melee: bool = False
    cover: bool = False
    distance: float = 10.0
    target_models: int = 3
    weapon: dict[str, Any] = field(default_factory=dict)
    target: dict[str, Any] = field(default_factory=dict)
    weapon_perks: tuple[str, ...] = ()
    target_perks: tuple[str, ...] = ()


_TARGET_SIDE = (
    "Barrier Camouflage Cover I Cover II Dodge Emergency Save Evasive Reinforced Resilient "
    "Retaliate I Retaliate II Shroud Tough Swarm Gravity"
)

#: Situations from the perks' texts (000_94ecc6a4c74d351b.txt, the rank's line).
SCENES: dict[str, Scene] = {
    "Assassin": Scene(place="attacker", target_perks=("Leader",)),
    "Anti-Air II": Scene(target_perks=("Airborne",)),
    "Cumbersome": Scene(melee=True),
    "Might I": Scene(melee=True),
    "Might II": Scene(melee=True),
    "Unwieldy": Scene(melee=True),
    "Dodge": Scene(place="target", melee=True),
    "Retaliate I": Scene(place="target", melee=True),
    "Retaliate II": Scene(place="target", melee=True),
    # Arc: "If the target unit has 5 or more models"
    "Arc I": Scene(target_models=6),
    "Arc II": Scene(target_models=10),  # "10 or more models" (L3578)
    "Arc III": Scene(target_models=20),  # "20 or more models" (L3580)
    # Barrier: +1 Defence against an attacker 12" or more away
    "Barrier": Scene(place="target", distance=14.0),
    # Cover perks: the target obscured by Bushes (Cover +1)
    "Camouflage": Scene(place="target", cover=True),
    "Cover I": Scene(place="target", cover=True),
    "Cover II": Scene(place="target", cover=True),
    "Ignore Cover": Scene(cover=True),
    # Damage x+: a fixed roll better than Power 2 against Defence 8 gives
    "Damage 4+": Scene(weapon={"power": 2}, target={"defence": 8}),
    "Damage 5+": Scene(weapon={"power": 2}, target={"defence": 8}),
    "Damage 6+": Scene(weapon={"power": 1}, target={"defence": 10}),
    # Negate AEGIS: the weapon's AP 5+ against an AEGIS-only 5+ target
    "Negate AEGIS": Scene(weapon={"ap": 5}, target={"armour": None, "aegis": 5}),
    # Rend: an Armour Save better than 4+ is treated as 4+
    "Rend": Scene(target={"armour": 2}),
    # Stalwart: ignores enemy negative Dice Modifiers (the target's Evasive)
    "Stalwart": Scene(place="attacker", target_perks=("Evasive",)),
    # Swarm: double HP Loss from an Arc weapon (a 6-model target, for Arc's condition)
    "Swarm": Scene(place="target", target_models=6, weapon_perks=("Arc I",)),
}


def _scene(name: str) -> Scene:
    if name in SCENES:
        return SCENES[name]
    perk = PerkCatalog.load().get(name)
    if perk.kind is PerkKind.WEAPON_PERK:
        return Scene()
    return Scene(place="target" if name in _TARGET_SIDE else "attacker")


def _state(name: str | None, sc: Scene) -> GameState:
    wperks = [*sc.weapon_perks, *([name] if name and sc.place == "weapon" else [])]
    gun_kw: dict[str, Any] = {"range": 0 if sc.melee else 24, "attacks": 2, "power": 4}
    gun_kw.update(sc.weapon)
    gun = weapon("Gun", perks=wperks, **gun_kw)
    a_perks = [name] if name and sc.place == "attacker" else []
    t_perks = [*sc.target_perks, *([name] if name and sc.place == "target" else [])]
    t_kw: dict[str, Any] = {"hp": 2, "defence": 4, "armour": 4, "aegis": 5}
    t_kw.update(sc.target)
    attackers = unit("Attackers", models=3, weapons=[gun], perks=a_perks, hp=2, armour=4)
    targets = unit("Targets", models=sc.target_models, perks=t_perks, **t_kw)
    n = sc.target_models
    if sc.melee:
        pos = {
            0: [(10.0 + 1.2 * k, 10.0) for k in range(3)],
            1: [(10.0 + 1.2 * k, 11.05) for k in range(n)],
        }
        sides = [[entry(attackers)], [entry(targets)]]
        return scenario(sides, pos, phase=Phase.ATTACK, engaged=[(0, 1)])
    y = 10.0 + sc.distance
    pos = {
        0: [(10.0 + 1.5 * k, 10.0) for k in range(3)],
        1: [(2.0 + 1.2 * (k % 10), y + 1.2 * (k // 10)) for k in range(n)],
    }
    terrain = []
    if sc.cover:
        bushes = [(5.0, y - 3), (20.0, y - 3), (20.0, y - 2), (5.0, y - 2)]
        terrain = [Terrain(name="Bushes", polygon=bushes, cover=1)]
    sides = [[entry(attackers)], [entry(targets)]]
    return scenario(sides, pos, phase=Phase.ATTACK, b=board(terrain=terrain))


def _play(state: GameState, seed: int) -> tuple[Any, ...]:
    try:
        new, _ = engine.apply(state, Attack(0, (("Gun", 1),)), dice=SeededDice(seed))
    except WarbenchError as exc:
        return ("refused", re.sub(r"\s+", " ", str(exc)))
    return (new.units[0].hp, new.units[1].hp)


def _rank_id(name: str) -> str:
    perk = PerkCatalog.load().get(name)
    line = perk.rule.rsplit("line ", 1)[1]
    return f"p{line}-{name}"


#: Played in a game by ``tests/warsurge/game/test_perks_in_play.py`` (their situations need
#: more than one Attack: a second friendly unit in the Melee, an engaging Move first).
ELSEWHERE = ("Outflank", "Clash")

#: Every class-A rank the attack sequence implements, in book order.
RANKS: list[str] = [
    p.name for p in PerkCatalog.load() if p.name in IMPLEMENTED_PERKS and p.name not in ELSEWHERE
]


@pytest.mark.parametrize("name", RANKS, ids=[_rank_id(n) for n in RANKS])
def test_attack_perk_changes_an_attack_played_in_a_game(name: str) -> None:
    sc = _scene(name)
    with_perk, without = _state(name, sc), _state(None, sc)
    differs = [s for s in range(60) if _play(with_perk, s) != _play(without, s)]
    assert differs, f"{name} changed no Attack in {sc}"


def test_the_scenes_name_catalogued_attack_ranks() -> None:
    assert set(SCENES) <= set(RANKS)
    assert len(RANKS) + len(ELSEWHERE) == len(IMPLEMENTED_PERKS)
