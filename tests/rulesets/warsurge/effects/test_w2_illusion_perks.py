"""Illusion I-III (Perks 000_94ecc6a4c74d351b.txt §12.4 Ability, L779-L817), session 25 wave 2,
lane w2-illusion, played in a game; and Precision's Illusion clause (L4007). Test names carry
the rank's source line (``p779`` …), which ``warbench perks --coverage`` reads."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.perk_illusion_slots import pad_positions
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameState,
    Phase,
    unit_value,
)

GUN = weapon("Gun", range=24, attacks=1, power=4)


def _mirage(
    perks: list[str],
    *,
    hp: int = 7,
    models: int = 1,
    rifle: list[str] = (),
    **kw: object,  # type: ignore[assignment]
) -> GameState:
    """Side 0's Mirage (unit 0: ``perks``, ``models`` models of ``hp`` HP, at (24, 10) on);
    side 1's Snipers (unit 1: a Rifle, 1 Attack of Power 4, with ``rifle`` perks) 10" away;
    side 0's Move Phase of Game Turn 2."""
    mirage = entry(unit("Mirage", hp=hp, models=models, perks=perks, weapons=[GUN]))
    snipers = entry(unit("Snipers", hp=3, weapons=[weapon("Rifle", range=24, perks=list(rifle))]))
    state = scenario([[mirage], [snipers]], {0: [(24.0 + 2 * k, 10.0) for k in range(models)],
                     1: [(24.0, 21.0)]}, **kw)  # type: ignore[arg-type]  # fmt: skip
    u = state.units[0]
    units = (replace(u, pos=pad_positions(u.pos, len(u.hp))), *state.units[1:])
    return replace(state, units=units)


def _use(state: GameState, name: str) -> tuple[GameState, list[str]]:
    after, events = engine.apply(state, UsePerks(0, (name,)), dice=ScriptedDice([]))
    check_invariants(after)
    return after, [e.text for e in events]


def _illusion_hp(state: GameState) -> list[int]:
    info = state.setup.units[0]
    u = state.units[0]
    return [u.hp[i] for i in range(info.real_models, info.models) if not u.removed[i]]


@pytest.mark.parametrize(("n", "made"), [("7", [1] * 7), ("3", [2] * 3), ("2", [3] * 2),
                                         ("1", [7])])  # fmt: skip
def test_p779_illusion_I_a_7_hp_user_splits_its_current_hp(n: str, made: list[int]) -> None:
    # L790-L792: "a User with 7 HP can create seven 1 HP models, three 2 HP models, two 3 HP
    # models or one 7 HP model"; the User loses no HP
    state = _mirage(["Illusion I"])
    after, texts = _use(state, f"Illusion I: {n}")
    assert _illusion_hp(after) == made
    assert after.units[0].hp[0] == 7 and after.units[0].present()[0] == 0
    assert any(f"P0: Mirage creates {len(made)} Illusion(s)" in t for t in texts)
    # the Illusions stand on the Battlefield in Coherency (check_invariants) and are models
    assert len(after.units[0].present()) == 1 + len(made)
    # the unit's value is the User's: the Illusions add none (ruling 4)
    info = after.setup.units[0]
    assert unit_value(info, after.units[0]) == unit_value(info, state.units[0])


def test_p779_illusion_I_the_engine_makes_one_illusion_of_the_whole_current_hp() -> None:
    state = _mirage(["Illusion I"])
    wounded = replace(state.units[0], hp=(5, *state.units[0].hp[1:]))
    after, _ = _use(replace(state, units=(wounded, *state.units[1:])), "Illusion I")
    assert _illusion_hp(after) == [5]  # current HP, not the profile's 7


def test_p779_illusion_I_once_per_game_and_only_with_the_perk() -> None:
    after, _ = _use(_mirage(["Illusion I"]), "Illusion I: 1")
    later = replace(after, flow=replace(after.flow, turn=after.flow.turn + 1))
    with pytest.raises(RulesError, match="may be used once per game"):
        engine.check(later, UsePerks(0, ("Illusion I: 1",)))
    with pytest.raises(RulesError, match="name how many Illusions each model makes, 1 to 7"):
        engine.check(_mirage(["Illusion I"]), UsePerks(0, ("Illusion I: 8",)))
    with pytest.raises(RulesError, match="has no perk"):
        engine.check(_mirage([]), UsePerks(0, ("Illusion I: 1",)))
    assert _mirage([]).setup.units[0].illusions == 0


def test_p779_illusion_I_illusions_are_removed_before_the_user() -> None:
    # L794: "When resolving casualties, any Illusions are removed before the User"
    state, _ = _use(_mirage(["Illusion I"], hp=3), "Illusion I: 3")  # three 1 HP Illusions
    atk = replace(state, flow=replace(state.flow, phase=Phase.ATTACK, active=1))
    after, _ = engine.apply(atk, Attack(1, (("Rifle", 0),)), dice=ScriptedDice([6]))
    check_invariants(after)
    assert after.units[0].hp[0] == 3 and sorted(_illusion_hp(after)) == [1, 1]
    # without Illusions the User takes the HP Loss
    plain = _mirage(["Illusion I"], hp=3)
    plain = replace(plain, flow=replace(plain.flow, phase=Phase.ATTACK, active=1))
    hit, _ = engine.apply(plain, Attack(1, (("Rifle", 0),)), dice=ScriptedDice([6]))
    assert hit.units[0].hp[0] == 2


def test_p779_illusion_I_every_model_of_the_unit_makes_its_own() -> None:
    # §12.2 L245 "Unit Perks are used simultaneously by all models": each model divides its HP
    state = _mirage(["Illusion I"], hp=2, models=2)
    wounded = replace(state.units[0], hp=(2, 1, *state.units[0].hp[2:]))
    after, _ = _use(replace(state, units=(wounded, *state.units[1:])), "Illusion I: 2")
    assert _illusion_hp(after) == [1, 1, 1]  # two of 1 HP (2 HP), one of 1 HP (1 HP)
    assert after.setup.units[0].max_hp == 4  # the unit's own models


def test_p779_illusion_I_excess_illusions_without_room_are_destroyed() -> None:
    # L795: "If there is insufficient space to place Illusion models, excess Illusions are
    # destroyed": the Mirage hemmed in by a ring of enemy models
    from warbench.rulesets.warsurge.game import geom

    ring = list(geom.ring_points((24.0, 10.0), 2.1, 12))
    walls = entry(unit("Walls", hp=1, models=len(ring), weapons=[GUN]))
    mirage = entry(unit("Mirage", hp=3, perks=["Illusion I"], weapons=[GUN]))
    state = scenario([[mirage], [walls]], {0: [(24.0, 10.0)], 1: ring})
    u = state.units[0]
    state = replace(state, units=(replace(u, pos=pad_positions(u.pos, len(u.hp))), state.units[1]))
    after, events = engine.apply(state, UsePerks(0, ("Illusion I: 3",)), dice=ScriptedDice([]))
    check_invariants(after)
    assert _illusion_hp(after) == []
    assert any("3 find no room and are destroyed" in e.text for e in events)
    # used all the same (Limited Use spent)
    assert after.units[0].used("Illusion I") == 1


def test_p803_illusion_II_twice_referring_to_the_users_current_hp() -> None:
    # L803-L806: "can be used twice. Using Illusion II when Illusions are already present will
    # create additional Illusions, referring to the User's current HP"
    state, _ = _use(_mirage(["Illusion II"], hp=4), "Illusion II: 2")
    assert _illusion_hp(state) == [2, 2]
    hurt = replace(state.units[0], hp=(3, *state.units[0].hp[1:]))
    state = replace(state, units=(hurt, *state.units[1:]))
    with pytest.raises(RulesError, match="already used this Game Turn"):
        engine.check(state, UsePerks(0, ("Illusion II: 1",)))  # Standard: once a Game Turn
    nxt = replace(state, flow=replace(state.flow, turn=state.flow.turn + 1))
    after, _ = _use(nxt, "Illusion II: 3")
    assert sorted(_illusion_hp(after)) == [1, 1, 1, 2, 2]  # three more of the User's 3 HP
    later = replace(after, flow=replace(after.flow, turn=after.flow.turn + 1))
    with pytest.raises(RulesError, match="may be used 2 times per game"):
        engine.check(later, UsePerks(0, ("Illusion II: 1",)))


def test_p811_illusion_III_three_times() -> None:
    state = _mirage(["Illusion III"], hp=2)
    for k in range(3):
        state, _ = _use(state, "Illusion III: 2")
        assert len(_illusion_hp(state)) == 2 * (k + 1)
        state = replace(state, flow=replace(state.flow, turn=state.flow.turn + 1))
    with pytest.raises(RulesError, match="may be used 3 times per game"):
        engine.check(state, UsePerks(0, ("Illusion III: 1",)))


def test_p779_illusion_the_players_choices_are_listed_without_the_automation() -> None:
    auto = ALL_AUTOMATIONS - {Automation.PERK_USE}
    state = _mirage(["Illusion I"], hp=3, automation=auto)
    listed = [a for a in engine.legal_actions(state) if isinstance(a, UsePerks)]
    assert [a.perks for a in listed if a.unit == 0] == [
        ("Illusion I: 1",),
        ("Illusion I: 2",),
        ("Illusion I: 3",),
    ]


def test_p4007_precision_hp_loss_dispels_all_illusions() -> None:
    # L4007: "HP Loss caused by Precision dispels Illusion, removing all Illusion models from
    # the Target Unit"; the Precision HP Loss then falls on the User (ruling 6)
    state, _ = _use(_mirage(["Illusion I"], hp=3, rifle=["Precision 2+"]), "Illusion I: 3")
    atk = replace(state, flow=replace(state.flow, phase=Phase.ATTACK, active=1))
    after, events = engine.apply(atk, Attack(1, (("Rifle", 0),)), dice=ScriptedDice([6]))
    check_invariants(after)
    assert _illusion_hp(after) == [] and after.units[0].hp[0] == 2
    assert any("3 Illusion(s) are dispelled: HP Loss caused by Precision" in e.text
               for e in events)  # fmt: skip
    # a roll below no Precision threshold … a Rifle without Precision: an Illusion falls
    plain, _ = _use(_mirage(["Illusion I"], hp=3), "Illusion I: 3")
    plain = replace(plain, flow=replace(plain.flow, phase=Phase.ATTACK, active=1))
    hit, _ = engine.apply(plain, Attack(1, (("Rifle", 0),)), dice=ScriptedDice([6]))
    assert len(_illusion_hp(hit)) == 2 and hit.units[0].hp[0] == 3


def _to_move_phase(state: GameState) -> GameState:
    from warbench.rulesets.warsurge.game.actions import Pass

    dice = ScriptedDice([])
    while state.flow.phase is Phase.DEPLOY:
        state, _ = engine.apply(state, Pass(), dice=dice)
        check_invariants(state)
    return state


def test_p779_illusion_I_the_engine_uses_it_once_an_enemy_can_reach_the_unit() -> None:
    # the ``perk use`` automation: at the start of the Move Phase, as Smokescreen (ruling 2)
    after = _to_move_phase(_mirage(["Illusion I"], phase=Phase.DEPLOY))
    assert after.flow.phase is Phase.MOVE and _illusion_hp(after) == [7]
    auto = ALL_AUTOMATIONS - {Automation.PERK_USE}
    assert _illusion_hp(_to_move_phase(_mirage(["Illusion I"], phase=Phase.DEPLOY,
                                               automation=auto))) == []  # fmt: skip


def test_p779_illusion_advanced_by_the_use_perks_action_only() -> None:
    # Advanced (P L234-L236): by the Use Perks Action of an Action Step, not in the Deploy Phase
    auto = ALL_AUTOMATIONS - {Automation.PERK_USE}
    state = _mirage(["Illusion I"], phase=Phase.DEPLOY, playstyle="advanced", automation=auto)
    assert not [a for a in engine.legal_actions(state) if isinstance(a, UsePerks)]
    with pytest.raises(RulesError, match="by the Use Perks Action"):
        engine.check(state, UsePerks(0, ("Illusion I: 1",)))


def test_p779_illusion_I_the_users_weapons_are_measured_from_its_illusions() -> None:
    # L782: "existing Weapons on the User can be measured and used from the Illusions": the
    # Mirage's 6" Gun reaches the Target 6.7" away from its Illusion, placed 1.2" toward it
    short = weapon("Gun", range=6, attacks=1, power=4)
    mirage = entry(unit("Mirage", hp=2, perks=["Illusion I"], weapons=[short]))
    target = entry(unit("Target", hp=3, weapons=[GUN]))
    state = scenario([[mirage], [target]], {0: [(24.0, 10.0)], 1: [(31.7, 10.0)]})
    u = state.units[0]
    state = replace(state, units=(replace(u, pos=pad_positions(u.pos, len(u.hp))), state.units[1]))
    atk = replace(state, flow=replace(state.flow, phase=Phase.ATTACK))
    with pytest.raises(RulesError):
        engine.check(atk, Attack(0, (("Gun", 1),)))  # out of Range from the User itself
    made, _ = _use(state, "Illusion I: 1")
    assert made.units[0].pos[1] == pytest.approx((25.2, 10.0))
    atk = replace(made, flow=replace(made.flow, phase=Phase.ATTACK))
    after, events = engine.apply(atk, Attack(0, (("Gun", 1),)), dice=ScriptedDice([6]))
    check_invariants(after)
    assert after.units[1].hp == (2,)  # one Attack: the User's Gun, not one more for the copy
    assert any("1 Attack Dice" in e.text for e in events)


def test_p779_illusions_leave_with_the_user_and_end_with_it() -> None:
    # ruling 7: the User off the Battlefield (Reserve, a Transport) or slain: no Illusions
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.state import Location
    from warbench.rulesets.warsurge.game.work import Work

    made, _ = _use(_mirage(["Illusion I"], hp=3), "Illusion I: 3")
    w = Work(made, None, DEFAULT_HOOKS)
    w.set_unit(0, location=Location.RESERVE)
    assert w.units[0].removed[1:] == (True,) * (len(made.units[0].hp) - 1)
    assert w.units[0].current_hp == 3
    # Precision singles out the User itself: the User slain, its Illusions go with it
    state = _mirage(["Illusion I"], hp=1, rifle=["Precision 2+"])
    state, _ = _use(state, "Illusion I: 1")
    assert _illusion_hp(state) == [1]
    atk = replace(state, flow=replace(state.flow, phase=Phase.ATTACK, active=1))
    after, _ = engine.apply(atk, Attack(1, (("Rifle", 0),)), dice=ScriptedDice([6]))
    check_invariants(after)
    assert after.units[0].location is Location.DESTROYED and _illusion_hp(after) == []


def test_p779_hp_restored_goes_to_the_users_own_models_not_to_illusion_slots() -> None:
    # ruling 4: Recover, Regenerate … restore the unit's own models; an Illusion slot is not a
    # casualty model to return (L1611)
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.perk_turn import restore_hp
    from warbench.rulesets.warsurge.game.work import Work

    made, _ = _use(_mirage(["Illusion I"], hp=3), "Illusion I: 3")
    hurt = replace(made.units[0], hp=(1, *made.units[0].hp[1:]))
    w = Work(replace(made, units=(hurt, *made.units[1:])), None, DEFAULT_HOOKS)
    assert restore_hp(w, 0, 6) == 2
    assert w.units[0].hp[0] == 3 and sum(1 for r in w.units[0].removed if not r) == 4


@pytest.mark.parametrize(("rank", "style", "k"), [("Illusion II", "standard", 0),
                                                  ("Illusion III", "advanced", 1)])  # fmt: skip
def test_p803_p811_random_legal_games_with_illusions_keep_invariants_and_replay(
    rank: str, style: str, k: int
) -> None:
    # every unit of both skirmish rosters with ``rank``; odd k: the players' own perk use
    from tests.rulesets.warsurge.effects.test_perk_heavy_games import BOARDS, ROSTERS, play_checked
    from warbench.rulesets.warsurge.battlefield import sample_board
    from warbench.rulesets.warsurge.game.geom import Field
    from warbench.rulesets.warsurge.game.io import load_game_roster
    from warbench.rulesets.warsurge.game.state import build_setup

    players = []
    for name in ("skirmish_a.yaml", "skirmish_b.yaml"):
        p = load_game_roster(ROSTERS / name)
        roster = []
        for e in p.roster:
            prof = e.unit.profile.model_copy(update={"perks": [*e.unit.profile.perks, rank]})
            roster.append(replace(e, unit=e.unit.model_copy(update={"profile": prof})))
        players.append(replace(p, roster=tuple(roster)))
    auto = ALL_AUTOMATIONS - ({Automation.PERK_USE} if k % 2 else set())
    setup = build_setup(players, Field(sample_board(BOARDS[k])), max_turns=6, automation=auto,
                        playstyle=style)  # fmt: skip
    assert all(info.illusions for info in setup.units)
    play_checked(setup, seed=200 + k)
