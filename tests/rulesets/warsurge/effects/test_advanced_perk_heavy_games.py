"""The perk-heavy games of ``test_perk_heavy_games`` in the Advanced playstyle (001 §9): random
legal players play them to the end, keeping every invariant, and the records replay identically
(issue 11/12, s25-advfix).

Found by these games: in the first Game Turn's deployment (001 L3641-L3647, L3777), before any
CP exist, a unit could use an activated perk (Rush, L2160) again and again for nothing — the
Standard "once per Game Turn" (Perks L226) does not hold in Advanced games and the Advanced cost
(Perks L234-L236, "will cost additional CP with each use"; the Use Perks Action, 001 L3779) was
not paid, so a random player repeated ``UsePerks(... "Rush" ...)`` forever (docs/rulings.md,
"s25-advfix" 1).

Default: a few games. ``WARBENCH_PERK_GAMES=1000`` plays a thousand.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace

import pytest

from tests.rulesets.warsurge.effects.test_perk_heavy_games import play_checked, setup_for
from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Pass
from warbench.rulesets.warsurge.game.actions_advanced import Counter, UsePerks
from warbench.rulesets.warsurge.game.advstate import AdvancedFlow, Playstyle
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.perk_hooks import activated_ranks
from warbench.rulesets.warsurge.game.perk_illusion_slots import pad_positions
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameSetup,
    GameState,
    Location,
    Phase,
)

GAMES = int(os.environ.get("WARBENCH_PERK_GAMES", "3"))
#: The reported games (setup_for(1) and setup_for(3)): played by their own regression test.
LOOPED = (1, 3)


def advanced_setup_for(k: int, opportunist: bool = True) -> GameSetup:
    """Game ``k`` of the perk-heavy set, in the Advanced playstyle (``opportunist=False``:
    the rosters of session 25, with which the reported games were found)."""
    return replace(setup_for(k, opportunist), playstyle=Playstyle.ADVANCED)


def _seed(k: int) -> int:
    return random.Random(1000 + k).randrange(2**31)


@pytest.mark.parametrize("k", [k for k in range(GAMES) if k not in LOOPED])
def test_advanced_perk_heavy_random_legal_games_end_keep_invariants_and_replay(k: int) -> None:
    steps, _ = play_checked(advanced_setup_for(k), seed=_seed(k))
    assert steps > 0


@pytest.mark.parametrize("k", LOOPED)
def test_advanced_perk_heavy_games_1_and_3_end_no_free_rush_loop(k: int) -> None:
    # the reported games: Turn 1's deployment repeated UsePerks(... "Rush" ...) forever
    steps, _ = play_checked(advanced_setup_for(k, opportunist=False), seed=_seed(k))
    assert steps < 1000


def _deploying(playstyle: str, perks: list[str]) -> GameState:
    """The first Game Turn's deployment: unit 0 (``perks``) deployed, unit 1 still in Reserve;
    players decide the use of perks (no ``perk use`` automation)."""
    a = unit("A", perks=perks, weapons=[weapon("Gun", range=24, power=4)])
    b = unit("B", weapons=[weapon("Gun", range=24, power=4)])
    c = unit("C", weapons=[weapon("Axe", range=1, power=4)])
    st = scenario(
        [[entry(a), entry(b)], [entry(c)]],
        {0: [(24, 6)], 2: [(24, 40)]},
        phase=Phase.DEPLOY,
        turn=1,
        playstyle=playstyle,
        automation=ALL_AUTOMATIONS - {Automation.PERK_USE},
    )
    assert st.units[1].location is Location.RESERVE
    return st


def _offered(state: GameState) -> list[UsePerks]:
    return [a for a in engine.legal_actions(state) if isinstance(a, UsePerks)]


def test_p2160_advanced_rush_is_not_used_in_turn_1_deployment_without_cp() -> None:
    # Perks L234-L236: every Advanced use costs CP, by the Use Perks Action (001 L3779); the
    # deployment before the Action Steps (001 L3641-L3647) has no CP and no Use Perks Action
    state = _deploying("advanced", ["Rush"])
    assert _offered(state) == []
    with pytest.raises(RulesError, match="Use Perks Action"):
        engine.check(state, UsePerks(0, ("Rush",)))
    with pytest.raises(RulesError):
        engine.check(state, UsePerks(0))


def test_p2160_standard_rush_in_deployment_is_offered_once_per_game_turn() -> None:
    # the Standard playstyle keeps its use-perk moment (Perks L226-L231), once per Game Turn
    state = _deploying("standard", ["Rush"])
    assert _offered(state) == [UsePerks(0, ("Rush",))]
    state, events = engine.apply(state, UsePerks(0, ("Rush",)))
    assert any("uses Rush" in e.text for e in events)
    assert _offered(state) == []
    with pytest.raises(RulesError, match="already used this Game Turn"):
        engine.check(state, UsePerks(0, ("Rush",)))


def _attacked(perks: list[str]) -> GameState:
    """Advanced Action Steps, 20 CP each: unit 0 (a Gun) and unit 1 (``perks``) 22" apart."""
    a = unit("A", weapons=[weapon("Gun", range=30, power=4)])
    b = unit("B", perks=perks, weapons=[weapon("Axe", range=1, power=4)])
    st = scenario(
        [[entry(a)], [entry(b)]],
        {0: [(24, 6)], 1: [(24, 29)]},
        playstyle="advanced",
        automation=ALL_AUTOMATIONS - {Automation.PERK_USE},
    )
    return replace(st, flow=replace(st.flow, phase=Phase.ACTIONS, adv=AdvancedFlow(cp=(20, 20))))


def test_p1785_counter_perk_stealth_in_the_attackers_sight_is_not_usable() -> None:
    # C L3865 Counter Perk; Stealth L1785: activated only with no enemy unit's line of sight
    # to the User, and the attacker sees its Target, so a Counter Perk cannot raise Stealth
    # (the 1000-game Advanced run's games 33 and 34 raised here before s25-advfix 2, when
    # Stealth could be raised against the declared Attack; rulings.md "Stealth" 1 revised).
    state, _ = engine.apply(_attacked(["Stealth"]), Attack(0, (("Gun", 1),)))
    assert state.flow.adv is not None and state.flow.adv.counter is not None
    state, events = engine.apply(state, Counter(1, "perk"))
    check_invariants(state)
    texts = [e.text for e in events]
    assert not any("uses Stealth" in t for t in texts)
    assert any(e.kind == "attack" for e in events)  # the Attack is made
    assert state.flow.adv is not None and state.flow.adv.cp[1] == 19  # the Counter Perk's CP
    assert not any(e.kind == "attack_lost" for e in _counter_events(["Recover"], "perk"))


def _counter_events(perks: list[str], choice: str) -> list[Event]:
    state, _ = engine.apply(_attacked(perks), Attack(0, (("Gun", 1),)))
    _, events = engine.apply(state, Counter(1, choice), dice=ScriptedDice([4] * 40))
    return events


def test_counter_without_perk_makes_the_attack() -> None:
    # the same Attack with no Counter Perk: made, and it kills B (its dice scripted)
    events = _counter_events(["Stealth"], "none")
    assert any(e.kind == "attack" and "1 HP lost" in e.text for e in events)
    assert any(e.kind == "destroyed" for e in events)
    assert not any(e.kind == "attack_lost" for e in events)


def _perk_user(rank: str, style: str, phase: Phase, turn: int) -> GameState:
    """Unit 0 (``rank``, 3 models, one hurt) 8" from an enemy unit, a friend in Reserve."""
    a = unit("A", perks=[rank], hp=6, models=3, weapons=[weapon("Gun", range=24, power=4)])
    b = unit("B", weapons=[weapon("Gun", range=24, power=4)])
    c = unit("C", hp=3, weapons=[weapon("Axe", range=1, power=4)])
    st = scenario(
        [[entry(a), entry(b)], [entry(c)]],
        {0: [(22, 6), (23.5, 6), (25, 6)], 2: [(24, 14)]},
        phase=phase,
        turn=turn,
        playstyle=style,
        automation=ALL_AUTOMATIONS - {Automation.PERK_USE},
    )
    u = st.units[0]  # (Illusion I-III: its slots off the table, Perks L779)
    u = replace(u, hp=(1, 6, 6, *u.hp[3:]), pos=pad_positions(u.pos, len(u.hp)))
    return replace(st, units=(u, *st.units[1:]))


_CONTEXTS = [
    ("standard", Phase.DEPLOY, 1),
    ("standard", Phase.MOVE, 2),
    ("standard", Phase.ATTACK, 2),
    ("standard", Phase.DASH, 2),
    ("advanced", Phase.DEPLOY, 1),
]


@pytest.mark.parametrize("rank", sorted(activated_ranks()))
def test_every_use_perks_option_outside_the_action_steps_is_taken_once_per_game_turn(
    rank: str,
) -> None:
    # Perks L226 (Standard: once per Game Turn) and L234-L236 (Advanced: each use for CP, so
    # none in the first Game Turn's deployment): taking every UsePerks option offered, again and
    # again, ends; no rank (any of its options: Transform's forms, Corrupted's offers) is used
    # twice in a Game Turn, none in the Advanced deployment
    for style, phase, turn in _CONTEXTS:
        state = _perk_user(rank, style, phase, turn)
        uses: dict[str, int] = {}
        for _ in range(30):
            offered = _offered(state)
            if not offered:
                break
            state, _events = engine.apply(state, offered[0])
            name, _, option = offered[0].perks[0].partition(": ")
            if option != "off":  # switching Stealth or Incorporeal off is not a use (L1781)
                uses[name] = uses.get(name, 0) + 1
        else:
            pytest.fail(f"{rank} ({style}, {phase.value}): UsePerks offered without end")
        limit = 0 if style == "advanced" else 1
        assert all(n <= limit for n in uses.values()), (style, phase.value, uses)


@pytest.mark.parametrize("rank", sorted(activated_ranks()))
def test_every_advanced_use_perks_action_costs_cp_doubling_with_each_use(rank: str) -> None:
    # C L3779-L3781 Use Perks: "1 CP - Doubles with each reuse by the same Unit on the same
    # Game Turn"; Perks L234: "will cost additional CP with each use"
    state = _perk_user(rank, "advanced", Phase.ACTIONS, 2)
    state = replace(state, flow=replace(state.flow, adv=AdvancedFlow(cp=(20, 20))))
    costs: list[int] = []
    for _ in range(10):
        if engine.acting_side(state) == 1:
            state, _events = engine.apply(state, Pass())  # side 1 is finished for the turn
            continue
        action = UsePerks(0, (rank,))
        if not engine.can(state, action):
            break
        assert state.flow.adv is not None
        before = state.flow.adv.cp[0]
        state, _events = engine.apply(state, action)
        assert state.flow.adv is not None
        costs.append(before - state.flow.adv.cp[0])
    assert costs == [1, 2, 4, 8][: len(costs)] and len(costs) == 4, costs


def test_game_337_a_model_moved_to_restore_coherency_into_contact_locks_a_melee() -> None:
    """Regression (the 1000-game Advanced run of session 25, game 337): an end-of-turn Burn
    casualty's Coherency restoration (§4.2 IV) moved a model into Base Contact with an enemy
    unit and no Melee followed; moving into Base Contact locks both (§4.3)."""
    steps, _ = play_checked(advanced_setup_for(337, opportunist=False), seed=_seed(337))
    assert steps > 0


def test_p3487_game_523_residue_casualties_at_the_end_of_the_game_turn_are_removed() -> None:
    """Regression (the 1000-game Advanced run of session 26, game 523): a Residue II template
    (Perks L3487) struck stationary models at the end of the Game Turn and its casualties were
    never removed: two fallen models stood on, out of Coherency. They are removed at once and
    the unit restores its Coherency (§4.2 IV), as after Burn and Bleed."""
    steps, _ = play_checked(advanced_setup_for(523), seed=_seed(523))
    assert steps > 0
