"""The tactical player's focus fire once a Melee has slain most of an enemy melee unit
(issue 15, session 32, ``ai.tactical_slain``) on a constructed state: it fails with the switch
``slain_gone`` off.

Core Rules 001_d3f5e425c5e1196d.txt L2872: casualties are removed at the end of the Attack
Phase, once every player has attacked; §5.8 L2678: a unit that Targets an enemy in a Melee
with a friendly unit suffers -1 ("Into a Melee")."""

from __future__ import annotations

from dataclasses import replace

from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactical_slain import present_share, standing_share
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.state import GameState, Phase

SNIPER = weapon("Sniper Rifle", range=36, attacks=1, power=5, ap="4+", type="Heavy")
SWORD = weapon("Energy Sword", range=0, attacks=3, power=5, ap="3+")
CLEAVER = weapon("Cleaver", range=0, attacks=2, power=5, ap="5+")
AUTOCANNON = weapon("Autocannon", range=30, attacks=2, power=6, ap="4+", type="Battle")


def _melee(slain: int) -> GameState:
    """Attack Phase of Game Turn 2, side 0 to act: its three Snipers (uid 0, the skirmish
    roster's Sniper Troopers) stand 20" from a Melee of its Swordsmen (uid 1, the Assault
    Squad) with six Brutes (uid 2, Cleavers only, 2 HP a model: the Gut-Hackers), whose first
    ``slain`` models were slain earlier in the phase (0 HP, not yet removed, L2872) and the
    next has 1 HP left; a Car (uid 3, one model of 4 HP with 2 left, Autocannon 30": the
    Urban Hunter Car) stands 20" off too."""
    snipers = unit("Snipers", models=3, weapons=[SNIPER], defence=3, armour="5+")
    swords = unit("Swordsmen", models=5, weapons=[SWORD], defence=4, armour="4+")
    brutes = unit(
        "Brutes", models=6, weapons=[CLEAVER], defence=5, hp=2, armour="5+", move=7, dash=7
    )
    car = unit("Car", models=1, weapons=[AUTOCANNON], defence=6, hp=4, armour="4+", move=12)
    state = scenario(
        [[entry(snipers, 90), entry(swords, 90)], [entry(brutes, 120, 40), entry(car, 110, 90)]],
        {
            0: [(20.0 + 1.5 * k, 10.0) for k in range(3)],
            1: [(8.0 + 1.5 * k, 28.0) for k in range(5)],
            2: [(8.0 + 2.0 * k, 29.7) for k in range(6)],
            3: [(36.0, 30.0)],
        },
        phase=Phase.ATTACK,
        engaged=[(1, 2)],
    )
    units = list(state.units)
    hp = tuple(0 if k < slain else 1 if k == slain else 2 for k in range(6))
    units[2] = replace(units[2], hp=hp)
    units[3] = replace(units[3], hp=(2,))
    return replace(state, units=tuple(units))


def _target(bot: TacticalBot, state: GameState) -> int:
    action = bot.choose(state)
    assert isinstance(action, Attack) and action.unit == 0, action
    ((_, target),) = action.targets
    return target


def test_standing_share_L2872_counts_the_slain_as_gone() -> None:
    """Five Brutes slain this phase stand until its end (present) but one is standing."""
    u = _melee(slain=5).units[2]
    assert present_share(u, 6) == 1.0
    assert abs(standing_share(u, 6) - 1 / 6) < 1e-9


def test_slain_gone_L2872_the_last_brute_is_not_worth_six() -> None:
    """Five Brutes slain in the Melee, one with 1 HP left: the Snipers shoot the Car (2 HP
    left). With the switch off the threat of six Brutes rides on the last HP and they shoot
    into the Melee at -1 (L2678)."""
    state = _melee(slain=5)
    assert _target(TacticalBot(), state) == 3
    assert _target(TacticalBot(slain_gone=False), state) == 2


def test_slain_gone_changes_nothing_before_anything_is_slain() -> None:
    """With no Brute slain the two rules price the shots alike (the switch only concerns
    models slain and not yet removed)."""
    state = _melee(slain=0)
    w = engine.legal_actions(state)._work
    on, off = TacticalBot(), TacticalBot(slain_gone=False)
    for b in (2, 3):
        assert on._fire_value(w, 0, b, "Sniper Rifle", False) == off._fire_value(
            w, 0, b, "Sniper Rifle", False
        )
