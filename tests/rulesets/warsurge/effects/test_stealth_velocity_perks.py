"""Stealth (Defensive, L1769), Juggernaut I-II (Movement, L2112-2124) … played in a game (Perks
000_94ecc6a4c74d351b.txt). Test names carry the rank's source line (``p1769`` …), which
``warbench perks --coverage`` reads (``scripts/build_perk_coverage.py``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.warsurge.game.helpers import board, check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice, SeededDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import DangerousSpec, Terrain
from warbench.rulesets.warsurge.battlefield.model import Objective
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Deploy, Move, Pass
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameState,
    Phase,
    Status,
)
from warbench.rulesets.warsurge.game.terrain_control import control

# -- Stealth (L1769) ------------------------------------------------------------------------------

GUN = weapon("Gun", range=36, attacks=2, power=5)
BLAST = weapon("Launcher", range=36, attacks=1, power=5, perks=["Blast I"])


def _hidden(
    gap: float, *, perks: tuple[str, ...] = (), automated: bool = False, **kw: object
) -> GameState:
    """Shooters (unit 0, a Gun and a Blast Launcher) and a Stealth Scout (unit 1) ``gap``
    inches apart edge to edge (1" bases), in side 0's Attack Phase."""
    shooters = entry(unit("Shooters", perks=list(perks), weapons=[GUN, BLAST]))
    scout = entry(unit("Scout", hp=3, perks=["Stealth"]))
    auto = {} if automated else {"automation": ALL_AUTOMATIONS - {Automation.PERK_USE}}
    return scenario(
        [[shooters], [scout]],
        {0: [(24.0, 10.0)], 1: [(24.0, 11.0 + gap)]},
        phase=Phase.ATTACK,
        **auto,  # type: ignore[arg-type]
        **kw,  # type: ignore[arg-type]
    )


def _stealthed(state: GameState) -> GameState:
    """The Scout's player has used Stealth this Game Turn (the status ``UsePerks`` gives)."""
    scout = replace(state.units[1], statuses=(Status("Stealth", 1, "u1/Stealth"),))
    return replace(state, units=(state.units[0], scout))


def test_p1769_stealth_unit_cannot_be_targeted_from_beyond_12_inches() -> None:
    state = _stealthed(_hidden(20.0))
    with pytest.raises(RulesError, match=r'Stealth: only enemy units with a model within 12"'):
        engine.apply(state, Attack(0, (("Gun", 1),)), dice=SeededDice(1))
    # without Stealth the same Attack stands
    after, _ = engine.apply(_hidden(20.0), Attack(0, (("Gun", 1),)), dice=SeededDice(1))
    check_invariants(after)


def test_p1769_stealth_unit_can_be_targeted_from_within_12_inches() -> None:
    state = _stealthed(_hidden(11.5))
    after, events = engine.apply(state, Attack(0, (("Gun", 1),)), dice=SeededDice(1))
    check_invariants(after)
    assert any(e.kind == "attack" and "Gun" in e.text for e in events)


def test_p1769_stealth_listed_targets_leave_it_out_beyond_12_inches() -> None:
    """The players' legal actions (the scripted player's targets) obey Stealth too."""
    from warbench.rulesets.warsurge.game.engine import weapon_targets
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.work import Work

    far = Work(_stealthed(_hidden(20.0)), None, DEFAULT_HOOKS)
    assert weapon_targets(far, 0) == {}
    near = Work(_stealthed(_hidden(11.0)), None, DEFAULT_HOOKS)
    assert weapon_targets(near, 0).get("Gun") == [1]


def test_p1769_stealth_mode_weapon_cannot_target_it_even_close() -> None:
    # L1773 "Weapons with a Mode Perk or Template can only Target the Stealth Unit if it
    # Scatters onto them or is a by-product of attacking another Target"
    state = _stealthed(_hidden(3.0))
    with pytest.raises(RulesError, match=r"Launcher \(Blast I, a Mode Perk\)"):
        engine.apply(state, Attack(0, (("Launcher", 1),)), dice=SeededDice(1))


def test_p1769_stealth_in_cover_reduces_the_reach_to_6_inches() -> None:
    # a forest (area terrain, a Cover Bonus) around the Scout
    wood = Terrain(name="Wood", polygon=[(20, 17), (28, 17), (28, 23), (20, 23)], cover=1,
                   cover_area=True)  # fmt: skip
    b = board(terrain=[wood])
    state = _stealthed(_hidden(8.5, b=b))  # the Scout stands at (24, 19.5), in the Wood
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.targeting import view_target
    from warbench.rulesets.warsurge.game.work import Work

    assert view_target(Work(state, None, DEFAULT_HOOKS), 0, 1).cover > 0
    with pytest.raises(RulesError, match=r'within 6" \(it has a Cover Bonus\)'):
        engine.apply(state, Attack(0, (("Gun", 1),)), dice=SeededDice(1))
    plain = _stealthed(_hidden(8.5))  # the same 8.5" in the open: within 12"
    engine.apply(plain, Attack(0, (("Gun", 1),)), dice=SeededDice(1))


def test_p1324_keen_eye_is_unaffected_by_stealth() -> None:
    state = _stealthed(_hidden(20.0, perks=("Keen Eye",)))
    after, _ = engine.apply(state, Attack(0, (("Gun", 1),)), dice=SeededDice(1))
    check_invariants(after)


def test_p1769_stealth_unit_neither_holds_nor_contests_objectives() -> None:
    crate = Objective(name="Crate", at=(24.0, 30.0))
    b = board().model_copy(update={"objectives": [crate]})
    shooters = entry(unit("Shooters", weapons=[GUN]))
    scout = entry(unit("Scout", hp=3, perks=["Stealth"]))
    state = scenario(
        [[shooters], [scout]], {0: [(24.0, 31.5)], 1: [(24.0, 28.5)]}, phase=Phase.ATTACK, b=b
    )
    assert control(state)[0].contested  # both within 2" of the Crate
    assert control(_stealthed(state))[0].controller == 0  # the hidden Scout does not contest it


WALL = Terrain(name="Wall", polygon=[(16, 14), (32, 14), (32, 15), (16, 15)], blocks_los=True)


def test_p1785_stealth_is_activated_only_out_of_every_enemy_sight() -> None:
    """L1785: "The User may Activate Stealth if there is no Line of Sight to all enemy Units";
    the engine activates it as the Attack Phase starts (session 25 revision of ruling 1)."""
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks

    seen = _hidden(20.0)  # in the open, in the Shooters' sight
    seen = replace(seen, flow=replace(seen.flow, active=1))  # the Scout's player acts
    with pytest.raises(RulesError, match="line of sight"):
        engine.apply(seen, UsePerks(1, ("Stealth",)))
    behind = _hidden(20.0, b=board(terrain=[WALL]), automated=True)
    state = replace(behind, flow=replace(behind.flow, phase=Phase.MOVE))
    events: list[Event] = []
    turn = state.flow.turn
    dash = None
    while state.flow.turn == turn and not state.over:
        state, ev = engine.apply(state, Pass())
        events.extend(ev)
        check_invariants(state)
        if state.flow.phase is Phase.DASH:
            dash = state
    assert any(e.kind == "perk" and "uses Stealth" in e.text for e in events)
    # L1781: it lasts until deactivated (after the Attack Phase it is still active), and the
    # engine deactivates it as the next Move Phase starts, to attack (ruling "Stealth" 2)
    assert dash is not None and any(s.name == "Stealth" for s in dash.units[1].statuses)
    assert any("Stealth ends" in e.text for e in events)


def test_p1779_stealth_no_weapons_and_lost_with_hp() -> None:
    """L1779: "The User may not use Weapons with Stealth active, and loses Stealth immediately
    if it loses HP"."""
    gunner = entry(unit("Gunner", hp=3, perks=["Stealth"], weapons=[GUN]))
    target = entry(unit("Target", hp=3, weapons=[GUN]))
    state = scenario(
        [[gunner], [target]], {0: [(24.0, 10.0)], 1: [(24.0, 30.0)]}, phase=Phase.ATTACK
    )
    hidden = replace(state.units[0], statuses=(Status("Stealth", None, "u0/Stealth"),))
    state = replace(state, units=(hidden, state.units[1]))
    with pytest.raises(RulesError, match="Stealth active: it may not use Weapons"):
        engine.apply(state, Attack(0, (("Gun", 1),)), dice=SeededDice(1))
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.perk_stealth import lose_on_hp
    from warbench.rulesets.warsurge.game.work import Work

    w = Work(state, None, DEFAULT_HOOKS)
    lose_on_hp(w, 0, 1, "Gun", 1)
    assert not any(s.name == "Stealth" for s in w.units[0].statuses)


def test_p1781_stealth_is_deactivated_in_the_move_or_dash_phases() -> None:
    """L1781: "The User can only deactivate Stealth after Movement, or during the Move or Dash
    Phases": ``UsePerks(unit, ("Stealth: off",))``."""
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks

    attack = _stealthed(_hidden(20.0))
    attack = replace(attack, flow=replace(attack.flow, active=1))  # the Scout's player acts
    with pytest.raises(RulesError, match="Move or Dash Phases"):
        engine.apply(attack, UsePerks(1, ("Stealth: off",)))
    move = replace(attack, flow=replace(attack.flow, phase=Phase.MOVE, active=1))
    after, events = engine.apply(move, UsePerks(1, ("Stealth: off",)))
    assert not any(s.name == "Stealth" for s in after.units[1].statuses)
    assert any("Stealth ends" in e.text for e in events)


# -- Juggernaut I-II (L2112, L2124) ---------------------------------------------------------------

ROCK = Terrain(name="Rock", polygon=[(12, 5), (14, 5), (14, 15), (12, 15)], impassable=True)
MIRE = Terrain(name="Mire", polygon=[(12, 25), (16, 25), (16, 35), (12, 35)], difficult=True)
MINES = Terrain(
    name="Mines", polygon=[(5, 40), (30, 40), (30, 42), (5, 42)], dangerous=DangerousSpec()
)
TOWER = Terrain(name="Tower", polygon=[(30, 20), (34, 20), (34, 24), (30, 24)], level=3.0)


def _brute(perks: list[str], at: tuple[float, float]) -> GameState:
    me = entry(unit("Brute", perks=perks, move=9, armour=4))
    block = entry(unit("Wall of Shields"))
    them = entry(unit("Foe"))
    return scenario(
        [[me, block], [them]], {0: [at], 1: [(13.5, 20.0)], 2: [(44.0, 4.0)]},
        phase=Phase.MOVE, turn=2, b=board(terrain=[ROCK, MIRE, MINES, TOWER]),
    )  # fmt: skip


def _moves(perks: list[str], at: tuple[float, float], to: tuple[float, float]) -> bool:
    try:
        engine.check(_brute(perks, at), Move(0, positions=(to,)))
    except RulesError:
        return False
    return True


JUGGERNAUT = [
    pytest.param("Juggernaut I", id="p2112-Juggernaut I"),
    pytest.param("Juggernaut II", id="p2124-Juggernaut II"),
]


@pytest.mark.parametrize("rank", JUGGERNAUT)
def test_juggernaut_moves_through_units_and_terrain_but_not_onto_impassable(rank: str) -> None:
    through_unit = ((10.0, 20.0), (17.0, 20.0))  # through the Wall of Shields
    through_mire = ((10.0, 30.0), (18.0, 30.0))  # 8" across Difficult Ground, not halved
    through_rock = ((10.0, 10.0), (17.0, 10.0))  # across Impassable Ground
    onto_rock = ((10.0, 10.0), (13.0, 10.0))
    for path in (through_unit, through_mire, through_rock):
        assert not _moves([], *path) and _moves([rank], *path)
    assert not _moves([rank], *onto_rock)  # "not on Impassable Ground" (ruling)


def test_p2124_juggernaut_ii_destroys_every_piece_it_passes_through() -> None:
    state = _brute(["Juggernaut II"], (10.0, 10.0))
    after, events = engine.apply(state, Move(0, positions=((17.0, 10.0),)), dice=ScriptedDice([]))
    check_invariants(after)
    assert dict(after.terrain_hp) == {"Rock": 0}
    assert any(e.kind == "terrain_destroyed" and "Rock" in e.text for e in events)
    # the Rock's footprint is now open ground: a model may stand on it
    from warbench.rulesets.warsurge.game.terrain_field import field_of

    assert not field_of(state).spot_ok((13.0, 12.0), 0.5)
    assert field_of(after).spot_ok((13.0, 12.0), 0.5)


def test_p2112_juggernaut_i_destroys_a_piece_on_a_4_plus() -> None:
    state = _brute(["Juggernaut I"], (10.0, 10.0))
    kept, events = engine.apply(state, Move(0, positions=((17.0, 10.0),)), dice=ScriptedDice([3]))
    assert not kept.terrain_hp and any("D6 3, it stands" in e.text for e in events)
    gone, events = engine.apply(state, Move(0, positions=((17.0, 10.0),)), dice=ScriptedDice([4]))
    assert dict(gone.terrain_hp) == {"Rock": 0}
    assert any("D6 4, it destroyed" in e.text for e in events)
    check_invariants(gone)


def test_p2112_juggernaut_ignores_dangerous_ground_and_rolls_for_it() -> None:
    state = _brute(["Juggernaut I"], (10.0, 37.0))
    after, events = engine.apply(state, Move(0, positions=((10.0, 45.0),)), dice=ScriptedDice([5]))
    assert not any(e.kind == "danger" for e in events)  # not struck by the Mines
    assert dict(after.terrain_hp) == {"Mines": 0}


def test_p2112_juggernaut_models_on_top_are_placed_below() -> None:
    """L2116 "Any Units on top or inside of the Terrain Piece are placed below": the Wall of
    Shields stands on the Tower's floor (level 3"); the Brute smashes the Tower."""
    state = _brute(["Juggernaut II"], (27.0, 22.0))
    wall = replace(state.units[1], pos=((32.0, 22.0),))
    state = replace(state, units=(state.units[0], wall, state.units[2]))
    after, events = engine.apply(state, Move(0, positions=((27.0, 17.0),)), dice=ScriptedDice([]))
    assert not after.terrain_hp  # not passed through: 5" south of it, clear
    after, events = engine.apply(state, Move(0, positions=((36.0, 22.0),)), dice=ScriptedDice([]))
    check_invariants(after)
    text = next(e.text for e in events if e.kind == "terrain_destroyed")
    assert "Tower is destroyed" in text and "Wall of Shields now on the board" in text


# -- Velocity (L4103) -----------------------------------------------------------------------------


def _rider(perks: list[str], foes: dict[int, list[tuple[float, float]]] | None = None) -> GameState:
    """Riders (unit 0, one model at (10, 4), Move 12, a Lance with ``perks`` and a Knife) and
    two Foes: unit 1 ahead on the line x = 10, unit 2 off to the side."""
    lance = weapon("Lance", attacks=2, power=4, range=30, perks=perks)
    knife = weapon("Knife", attacks=1, power=3, range=30)
    me = entry(unit("Riders", weapons=[lance, knife], move=12))
    ahead, aside = entry(unit("Ahead", hp=5)), entry(unit("Aside", hp=5))
    pos = {0: [(10.0, 4.0)], 1: [(10.4, 30.0)], 2: [(30.0, 20.0)], **(foes or {})}
    return scenario([[me], [ahead, aside]], pos, phase=Phase.MOVE)


def _power(state: GameState, name: str) -> int:
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.work import Work, to_unit_state

    return to_unit_state(Work(state, None, DEFAULT_HOOKS), 0).weapons[name].power


def _to_attack(state: GameState) -> GameState:
    while not (state.flow.phase is Phase.ATTACK and state.flow.active == 0):
        state, _ = engine.apply(state, Pass())
        check_invariants(state)
    return state


def test_p4103_velocity_adds_power_for_each_6_inches_in_a_straight_line() -> None:
    moved, events = engine.apply(_rider(["Velocity"]), Move(0, to=(10.0, 16.0)))  # 12"
    assert _power(moved, "Lance") == 6 and _power(moved, "Knife") == 3  # that Weapon only
    assert any("Velocity, Lance +2 Power" in e.text for e in events)
    short, _ = engine.apply(_rider(["Velocity"]), Move(0, to=(10.0, 9.9)))  # 5.9": nothing
    assert _power(short, "Lance") == 4
    plain, _ = engine.apply(_rider([]), Move(0, to=(10.0, 16.0)))
    assert _power(plain, "Lance") == 4


def test_p4103_velocity_weapon_must_be_directed_along_the_line_of_travel() -> None:
    state = _to_attack(engine.apply(_rider(["Velocity"]), Move(0, to=(10.0, 16.0)))[0])
    assert _power(state, "Lance") == 6
    with pytest.raises(RulesError, match=r"in front of or behind P0: Riders.*heading 90°"):
        engine.apply(state, Attack(0, (("Lance", 2),)), dice=SeededDice(1))
    after, _ = engine.apply(state, Attack(0, (("Lance", 1),)), dice=SeededDice(1))  # ahead
    check_invariants(after)
    # the Knife has no Velocity: any Target
    engine.apply(state, Attack(0, (("Knife", 2),)), dice=SeededDice(1))
    # behind the Wielder is in the path too
    back = _rider(["Velocity"], {1: [(9.6, 2.0)]})
    back = _to_attack(engine.apply(back, Move(0, to=(10.0, 16.0)))[0])
    engine.apply(back, Attack(0, (("Lance", 1),)), dice=SeededDice(1))


def test_p4103_velocity_power_in_a_game_agrees_with_exact_odds() -> None:
    state = _to_attack(engine.apply(_rider(["Velocity"]), Move(0, to=(10.0, 16.0)))[0])
    n, total = 600, 0
    for seed in range(n):
        after, _ = engine.apply(state, Attack(0, (("Lance", 1),)), dice=SeededDice(seed))
        total += 5 - sum(after.units[1].hp)
    from warbench.rulesets.warsurge.attack import AttackContext, UnitState
    from warbench.rulesets.warsurge.odds import AttackPlan, exact_attack

    foe = UnitState.of(unit("Ahead", hp=5))
    fast = UnitState.of(unit("R", weapons=[weapon("Lance", attacks=2, power=6, range=30)]))
    slow = UnitState.of(unit("R", weapons=[weapon("Lance", attacks=2, power=4, range=30)]))
    ctx = AttackContext(distance=13.0)
    exact6 = exact_attack(AttackPlan(fast, foe, ctx)).expected_hp_lost
    exact4 = exact_attack(AttackPlan(slow, foe, ctx)).expected_hp_lost
    assert exact6 > exact4 + 0.2
    assert abs(total / n - exact6) < 0.12, (total / n, exact6)


def test_p4103_velocity_resets_without_movement_and_keeps_with_it() -> None:
    events: list[Event] = []
    moved, _ = engine.apply(_rider(["Velocity"]), Move(0, to=(10.0, 16.0)))
    state = moved
    while state.flow.turn < 3:
        state, ev = engine.apply(state, Pass())
        events.extend(ev)
    assert _power(state, "Lance") == 6 and not any("Velocity resets" in e.text for e in events)
    # Game Turn 3: no Movement, so the Power resets at its end
    while state.flow.turn < 4 and not state.over:
        state, ev = engine.apply(state, Pass())
        events.extend(ev)
        check_invariants(state)
    assert _power(state, "Lance") == 4 and any("Velocity resets" in e.text for e in events)
    # and the Lance may Target anything again
    assert not any(k == "velocity heading" for k, _ in state.units[0].counters)


# -- Sentinel (L1749) -----------------------------------------------------------------------------


def _watch(
    perks: list[str], turn: int, foe_perks: list[str], foe_at: tuple[float, float]
) -> GameState:
    """Side 0's Scouts (two models, ``perks``) in Reserve in the Deploy Phase of ``turn``; side
    1's Watch (``foe_perks``) at ``foe_at`` (48" board, zones y 0-12 and 36-48)."""
    scouts = entry(unit("Scouts", models=2, perks=perks))
    watch = entry(unit("Watch", perks=foe_perks))
    return scenario([[scouts], [watch]], {1: [foe_at]}, phase=Phase.DEPLOY, turn=turn)


MIDDLE = ((24.0, 24.0), (25.5, 24.0))


@pytest.mark.parametrize("rank", ["Ambush III", "Invade III"])
def test_p1749_sentinel_refuses_deployment_perks_within_12_inches(rank: str) -> None:
    near = _watch([rank], 2, ["Sentinel"], (24.0, 34.0))  # 9" from the Scouts' edge
    with pytest.raises(RulesError, match=rf"within 12\" of P1: Watch, a Sentinel: .*{rank}"):
        engine.check(near, Deploy(0, positions=MIDDLE))
    # the same Deploy without Sentinel, or with the Sentinel 13" away, stands
    engine.check(_watch([rank], 2, [], (24.0, 34.0)), Deploy(0, positions=MIDDLE))
    far = _watch([rank], 2, ["Sentinel"], (38.0, 34.0))  # 12.2" from the Scouts' edge
    engine.check(far, Deploy(0, positions=MIDDLE))


def test_p1749_sentinel_ambush_scattering_into_its_area_deploys_normally() -> None:
    state = _watch(["Ambush I"], 2, ["Sentinel"], (24.0, 42.0))  # 17" from MIDDLE
    # Mastery 4; Scatter Arrow 3, distance 3 + 3, direction (1, 1): N, 6" towards the Watch
    dice = ScriptedDice([4, 3, 3, 3, 1, 1])
    new, events = engine.apply(state, Deploy(0, positions=MIDDLE), dice=dice)
    check_invariants(new)
    texts = [e.text for e in events]
    assert any("a Sentinel" in t for t in texts)
    assert any("deploys normally in its Deployment Zone" in t for t in texts)
    assert all(y <= 12.0 for _, y in new.units[0].pos)  # in its own zone
    plain = _watch(["Ambush I"], 2, [], (24.0, 42.0))
    moved, _ = engine.apply(
        plain, Deploy(0, positions=MIDDLE), dice=ScriptedDice([4, 3, 3, 3, 1, 1])
    )
    assert moved.units[0].pos == ((24.0, 30.0), (25.5, 30.0))


def test_p1749_sentinel_stops_recon_relocating_into_its_area() -> None:
    def recon(foe_perks: list[str]) -> GameState:
        state = _watch(["Recon II"], 1, foe_perks, (24.0, 28.0))
        state, _ = engine.apply(state, Deploy(0, positions=((24.0, 6.0), (25.5, 6.0))))
        while state.flow.phase is Phase.DEPLOY:
            state, _ = engine.apply(state, Pass())
        check_invariants(state)
        return state

    free = recon([])
    assert free.units[0].pos[0][1] > 6.0 + 11.9  # 12" towards the Watch
    watched = recon(["Sentinel"])
    # the relocations that end within 12" of the Watch are refused; a shorter one is taken
    assert 6.0 < watched.units[0].pos[0][1] < free.units[0].pos[0][1]
    d = 28.0 - watched.units[0].pos[0][1] - 1.0
    assert d > 12.0 - 1e-6


# -- Heal (L3433) ---------------------------------------------------------------------------------

MEDIKIT = weapon("Medikit", range=12, attacks=3, power=6, perks=["Heal"])


def _ward(hurt: tuple[int, ...] = (1, 2, 0), statuses: tuple[Status, ...] = ()) -> GameState:
    """Side 0: a Medic (unit 0, a Heal Medikit and a Pistol) and Troopers (unit 1, three models,
    2 HP each, with ``hurt`` HP left: 0 is a casualty removed); side 1: a Foe (unit 2)."""
    medic = entry(unit("Medic", weapons=[MEDIKIT, weapon("Pistol", range=12)]))
    troop = entry(unit("Troopers", models=3, hp=2, defence=3))
    foe = entry(unit("Foe", hp=4))
    state = scenario(
        [[medic, troop], [foe]],
        {0: [(24.0, 10.0)], 1: [(22.0, 16.0), (23.5, 16.0), (25.0, 16.0)], 2: [(24.0, 20.0)]},
        phase=Phase.ATTACK,
    )
    t = state.units[1]
    removed = tuple(h <= 0 for h in hurt)
    t = replace(t, hp=hurt, removed=removed, statuses=statuses)
    return replace(state, units=(state.units[0], t, state.units[2]))


def test_p3433_heal_restores_the_hp_its_attack_would_have_caused() -> None:
    state = _ward(hurt=(1, 0, 0))  # 1 HP left, 5 missing: the roll is not capped at 1
    restored = []
    for seed in range(40):
        after, events = engine.apply(state, Attack(0, (("Medikit", 1),)), dice=SeededDice(seed))
        check_invariants(after)
        heal = next(e for e in events if e.kind == "heal")
        got = sum(max(0, h) for h in after.units[1].hp) - 1
        assert got == heal.data["restored"] == min(heal.data["rolled"], 5)
        assert not any(e.kind == "attack" for e in events)  # no HP Loss, no damage
        restored.append(got)
        if got >= 3:  # a casualty model is back, in Coherency
            assert sum(after.units[1].removed) <= 1
    assert max(restored) >= 3 and min(restored) < 3


def test_p3433_heal_in_a_game_agrees_with_exact_odds_of_the_same_attack() -> None:
    from warbench.rulesets.warsurge.attack import AttackContext, UnitState
    from warbench.rulesets.warsurge.odds import AttackPlan, exact_attack

    state = _ward(hurt=(1, 1, 1))  # 3 HP missing: nothing is capped below 3
    n, total = 500, 0
    for seed in range(n):
        after, _ = engine.apply(state, Attack(0, (("Medikit", 1),)), dice=SeededDice(seed))
        total += sum(after.units[1].hp) - 3
    troop = UnitState.of(unit("Troopers", models=3, hp=2, defence=3))
    kit = UnitState.of(unit("M", weapons=[weapon("Medikit", range=12, attacks=3, power=6)]))
    dist = exact_attack(AttackPlan(kit, troop, AttackContext(distance=5.0))).hp_lost
    expect = sum(p * min(k, 3) for k, p in dist.items())
    assert abs(total / n - expect) < 0.12, (total / n, expect)


def test_p3433_heal_targets_friends_only_and_not_its_own_unit() -> None:
    state = _ward()
    with pytest.raises(RulesError, match=r"restores HP rather than inflicting damage"):
        engine.check(state, Attack(0, (("Medikit", 2),)))
    with pytest.raises(RulesError, match=r"not its own"):
        engine.check(state, Attack(0, (("Medikit", 0),)))
    with pytest.raises(RulesError, match=r"not an enemy unit"):
        engine.check(state, Attack(0, (("Pistol", 1),)))  # only Heal Weapons Target friends
    # one Attack may heal a friend and shoot an enemy
    _, events = engine.apply(state, Attack(0, (("Medikit", 1), ("Pistol", 2))), dice=SeededDice(3))
    assert {e.kind for e in events} >= {"heal", "attack"}


def test_p3433_heal_is_offered_and_the_scripted_player_uses_it() -> None:
    from warbench.rulesets.warsurge.game.engine import attack_candidates
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.work import Work

    state = _ward()
    cands = list(attack_candidates(Work(state, None, DEFAULT_HOOKS), 0))
    assert Attack(0, (("Medikit", 1),)) in cands
    assert all(("Medikit", 2) not in a.targets for a in cands if isinstance(a, Attack))
    whole = _ward(hurt=(2, 2, 2))  # nobody hurt: nothing to heal
    cands = list(attack_candidates(Work(whole, None, DEFAULT_HOOKS), 0))
    assert all(s[0] != "Medikit" for a in cands if isinstance(a, Attack) for s in a.targets)


def test_p3433_heal_weapon_perks_remove_their_negative_effects() -> None:
    # "Heal Weapons that also equip Perks which cause negative non-damaging effects, such as
    # Pulverise or Freeze, remove that Perk effect from the Target if 1 or more HP is restored"
    global MEDIKIT
    kit = MEDIKIT
    try:
        MEDIKIT = weapon("Medikit", range=12, attacks=3, power=6, perks=["Heal", "Freeze"])
        state = _ward(statuses=(Status("Freeze", 1, "u2/Freeze"),))
        for seed in range(20):
            after, events = engine.apply(state, Attack(0, (("Medikit", 1),)), dice=SeededDice(seed))
            heal = next(e for e in events if e.kind == "heal")
            frozen = any(s.name == "Freeze" for s in after.units[1].statuses)
            assert frozen == (heal.data["rolled"] == 0)
    finally:
        MEDIKIT = kit


# -- Delirium (L2678) -----------------------------------------------------------------------------


def _madness(acted: bool = False) -> GameState:
    """Side 0's Hexers (unit 0, a Delirium Hexgun) shoot side 1's Brutes (unit 1, 6 HP, an Axe
    and a Gun); the Brutes' friend, the Mates (unit 2), stands 3" from them, the Hexers 10"."""
    hexgun = weapon("Hexgun", range=24, attacks=4, power=5, perks=["Delirium"])
    hexers = entry(unit("Hexers", weapons=[hexgun]))
    brutes = entry(
        unit("Brutes", hp=6, weapons=[weapon("Axe", range=1, power=6), weapon("Gun", range=12)])
    )
    mates = entry(unit("Mates", hp=6, defence=2))
    state = scenario(
        [[hexers], [brutes, mates]],
        {0: [(24.0, 10.0)], 1: [(24.0, 21.0)], 2: [(28.0, 21.0)]},
        phase=Phase.ATTACK,
    )
    if acted:
        state = replace(
            state, units=(state.units[0], replace(state.units[1], acted=True), state.units[2])
        )
    return state


def _first_delirious(acted: bool) -> tuple[GameState, list[Event]]:
    for seed in range(60):
        after, events = engine.apply(
            _madness(acted), Attack(0, (("Hexgun", 1),)), dice=SeededDice(seed)
        )
        if any(e.kind == "perk" and e.data.get("landed") for e in events):
            check_invariants(after)
            return after, events
    raise AssertionError("no Delirium Skill Test passed in 60 seeds")


def test_p2678_delirium_target_attacks_the_closest_unit_friend_or_foe() -> None:
    after, events = _first_delirious(acted=False)
    texts = [e.text for e in events]
    assert any("Delirious: it attacks the closest unit, P1: Mates" in t for t in texts)
    strikes = [e for e in events if e.kind == "attack" and "(Delirium) strikes" in e.text]
    assert strikes and all(e.data["target"] == 2 for e in strikes)
    assert {e.data["weapon"] for e in strikes} == {"Gun"}  # the Axe cannot reach 3"
    assert after.units[1].acted  # that was its Attack this Game Turn
    # a failed test: nothing happens
    for seed in range(60):
        _, ev = engine.apply(_madness(), Attack(0, (("Hexgun", 1),)), dice=SeededDice(seed))
        if any(e.kind == "perk" and e.data.get("landed") is False for e in ev):
            assert not any("(Delirium) strikes" in e.text for e in ev)
            break
    else:
        raise AssertionError("no failed Delirium test in 60 seeds")


def test_p2678_delirium_after_the_unit_attacked_applies_next_game_turn() -> None:
    after, events = _first_delirious(acted=True)
    assert not any("(Delirium) strikes" in e.text for e in events)
    assert any(s.name.startswith("Delirium") for s in after.units[1].statuses)
    state, seen = after, []
    while not (state.flow.turn == after.flow.turn + 1 and state.flow.phase is Phase.ATTACK):
        state, ev = engine.apply(state, Pass())
        seen.extend(ev)
        check_invariants(state)
    assert any("(Delirium) strikes" in e.text and e.data["target"] == 2 for e in seen)
    assert not any(s.name.startswith("Delirium") for s in state.units[1].statuses)


# -- Psychotic (L2277) ----------------------------------------------------------------------------


def _psycho(turn: int = 2, perks: tuple[str, ...] = ("Psychotic",)) -> GameState:
    """Side 0's Maniacs (unit 0, Psychotic, a Gun) with a friend, the Pals (unit 1), 4" away;
    side 1's Foe (unit 2) 8" away."""
    maniacs = entry(unit("Maniacs", perks=list(perks), weapons=[weapon("Gun", range=24)]))
    pals = entry(unit("Pals", hp=3))
    foe = entry(unit("Foe", hp=3))
    return scenario(
        [[maniacs, pals], [foe]],
        {0: [(24.0, 10.0)], 1: [(24.0, 15.0)], 2: [(16.0, 10.0)]},
        phase=Phase.ATTACK,
        turn=turn,
    )


def test_p2277_psychotic_weapons_must_target_the_closest_unit_friend_or_foe() -> None:
    state = _psycho()
    with pytest.raises(
        RulesError, match=r"must Target the closest unit, friend or foe \(P0: Pals\)"
    ):
        engine.check(state, Attack(0, (("Gun", 2),)))
    after, events = engine.apply(state, Attack(0, (("Gun", 1),)), dice=SeededDice(2))
    check_invariants(after)
    assert any(e.kind == "attack" and e.data["target"] == 1 for e in events)
    # the game's candidates name the friend, not the Foe
    from warbench.rulesets.warsurge.game.engine import weapon_targets
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.work import Work

    assert weapon_targets(Work(state, None, DEFAULT_HOOKS), 0) == {"Gun": [1]}
    # Game Turn 1, or without the perk: the friend may not be Targeted, the Foe may
    for free in (_psycho(turn=1), _psycho(perks=())):
        with pytest.raises(RulesError, match="not an enemy unit"):
            engine.check(free, Attack(0, (("Gun", 1),)))
        engine.check(free, Attack(0, (("Gun", 2),)))


def test_p2277_psychotic_moves_toward_the_closest_unit_until_in_range() -> None:
    maniacs = entry(unit("Maniacs", perks=["Psychotic"], weapons=[weapon("Axe", range=1)]))
    pals, foe = entry(unit("Pals")), entry(unit("Foe"))
    state = scenario(
        [[maniacs, pals], [foe]], {0: [(24.0, 10.0)], 1: [(24.0, 15.0)], 2: [(10.0, 10.0)]},
        phase=Phase.MOVE,
    )  # fmt: skip
    with pytest.raises(RulesError, match=r"toward the closest unit, friend or foe \(P0: Pals\)"):
        engine.check(state, Move(0, to=(20.0, 10.0)))  # away from the Pals, toward the Foe
    engine.check(state, Move(0, to=(24.0, 13.0)))  # toward the Pals


# -- Horrific (L767) ------------------------------------------------------------------------------


def _horror(perks: list[str], foe_perks: tuple[str, ...] = ()) -> GameState:
    """Side 0's Horror (unit 0, ``perks``) at (24, 30); side 1's Walkers (unit 1, Move 8) at
    (24, 10), 19" away, in the Move Phase with side 1 to act."""
    horror = entry(unit("Horror", perks=perks))
    walkers = entry(unit("Walkers", move=8, perks=list(foe_perks)))
    state = scenario(
        [[horror], [walkers]], {0: [(24.0, 30.0)], 1: [(24.0, 10.0)]}, phase=Phase.DEPLOY
    )
    return state


def _to_move(state: GameState, faces: list[int]) -> tuple[GameState, list[Event]]:
    dice = ScriptedDice(faces)
    events: list[Event] = []
    while not (state.flow.phase is Phase.MOVE and state.flow.active == 1):
        state, ev = engine.apply(state, Pass(), dice=dice)
        events.extend(ev)
    return state, events


def test_p767_horrific_halves_movement_within_12_inches_on_a_passed_test() -> None:
    state, events = _to_move(_horror(["Horrific"]), [6])  # the Mastery Test passes
    assert any("horrified by P0: Horror" in e.text for e in events)
    toward = Move(1, positions=((24.0, 17.0),))  # 7": it ends 12" from the Horror's centre
    with pytest.raises(RulesError, match=r'allows 4" \(halved by Horrific within 12"\)'):
        engine.check(state, toward)
    engine.check(state, Move(1, positions=((24.0, 14.0),)))  # 4": the halved Move
    engine.check(state, Move(1, positions=((17.0, 10.0),)))  # 7" sideways, never within 12"
    # the Move toward a point stops outside 12", or goes at most the halved 4" within it
    after, _ = engine.apply(state, Move(1, to=(24.0, 17.0)))
    y = after.units[1].pos[0][1]
    assert 30.0 - y - 1.0 > 12.0 or y - 10.0 <= 4.0 + 1e-6
    # a failed test, or no Horrific: the whole Move
    failed, events = _to_move(_horror(["Horrific"]), [1])
    assert not any("horrified" in e.text for e in events)
    engine.check(failed, toward)
    engine.check(_to_move(_horror([]), [])[0], toward)


def test_p767_horrific_spares_the_fearless_and_the_far() -> None:
    fearless, events = _to_move(_horror(["Horrific"], ("Fearless",)), [])
    assert not any("horrified" in e.text for e in events)
    engine.check(fearless, Move(1, positions=((24.0, 17.0),)))


# -- Corrupted (L3793) ----------------------------------------------------------------------------


def _cultist(
    defence: int = 4, armour: int | None = 4, power: int = 3, ap: int | None = 5
) -> GameState:
    """Side 0's Cultists (unit 0, 3 HP, a Corrupted Blade) in the Deploy Phase of Game Turn 2
    (every unit on the table); side 1's Foe."""
    blade = weapon("Blade", range=12, attacks=2, power=power, ap=ap, perks=["Corrupted"])
    cult = entry(unit("Cultists", hp=3, defence=defence, armour=armour, weapons=[blade]))
    foe = entry(unit("Foe", hp=5))
    return scenario([[cult], [foe]], {0: [(24.0, 10.0)], 1: [(24.0, 20.0)]}, phase=Phase.DEPLOY)


def _seen(state: GameState) -> tuple[int, int | None, int, int | None, int]:
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.work import Work, to_unit_state

    st = to_unit_state(Work(state, None, DEFAULT_HOOKS), 0)
    b = st.weapons["Blade"]
    return st.profile.defence, st.profile.armour, b.power, b.ap, b.attacks


def test_p3793_corrupted_offers_defence_and_armour_for_power_and_ap_this_game_turn() -> None:
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks

    state = _cultist()
    assert _seen(state) == (4, 4, 3, 5, 2)
    after, events = engine.apply(state, UsePerks(0, ("Corrupted: Blade D2 A1 H0",)))
    check_invariants(after)
    assert _seen(after) == (2, 5, 5, 4, 2)  # Defence -2, Armour 4+ → 5+; Power +2, AP 5+ → 4+
    assert any("offers 2 Defence, 1 Armour and 0 HP" in e.text for e in events)
    # "At the end of the Game Turn, Defence, Armour and the Weapon's Stats are returned"
    nxt = after
    while nxt.flow.turn == after.flow.turn and not nxt.over:
        nxt, _ = engine.apply(nxt, Pass())
    assert _seen(nxt) == (4, 4, 3, 5, 2)


def test_p3793_corrupted_hp_only_when_power_matches_defence_and_ap_matches_armour() -> None:
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks

    # Defence 4 - 1 = 3 = Power 2 + 1; Armour 4+ → 5+ = AP 6+ → 5+: HP may be offered
    state = _cultist(defence=4, armour=4, power=2, ap=6)
    after, _ = engine.apply(state, UsePerks(0, ("Corrupted: Blade D1 A1 H2",)))
    assert _seen(after) == (3, 5, 3, 5, 4) and sum(after.units[0].hp) == 1  # HP not returned
    with pytest.raises(RulesError, match="HP may be offered only when"):
        engine.check(_cultist(), UsePerks(0, ("Corrupted: Blade D0 A0 H1",)))


def test_p3793_corrupted_limits_and_timing() -> None:
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.perk_hooks import usable_perks
    from warbench.rulesets.warsurge.game.work import Work

    state = _cultist()
    with pytest.raises(RulesError, match="at most 4 Defence"):
        engine.check(state, UsePerks(0, ("Corrupted: Blade D5 A0 H0",)))
    with pytest.raises(RulesError, match="at most 3 Armour"):  # AP 5+ → 2+: three steps
        engine.check(state, UsePerks(0, ("Corrupted: Blade D0 A4 H0",)))
    with pytest.raises(RulesError, match="name the Corrupted Weapon"):
        engine.check(state, UsePerks(0, ("Corrupted: Sword D1 A0 H0",)))
    shown = usable_perks(Work(state, None, DEFAULT_HOOKS), 0)
    assert "Corrupted: Blade D1 A0 H0" in shown and "Corrupted: Blade D1 A1 H0" in shown
    # once per Game Turn, and only at its start (not in the Attack Phase)
    after, _ = engine.apply(state, UsePerks(0, ("Corrupted: Blade D1 A0 H0",)))
    with pytest.raises(RulesError, match="at the start of the Game Turn, once"):
        engine.check(after, UsePerks(0, ("Corrupted: Blade D1 A0 H0",)))
    late = replace(state, flow=replace(state.flow, phase=Phase.ATTACK))
    with pytest.raises(RulesError, match="at the start of the Game Turn"):
        engine.check(late, UsePerks(0, ("Corrupted: Blade D1 A0 H0",)))


# -- Offering (L871) and Sacrifice (L1017) --------------------------------------------------------


def _payer(perks: list[str], models: int = 1, hp: int = 3, automated: bool = True) -> GameState:
    """Side 0's Zealots (unit 0, ``perks``); side 1's Foe, in the Move Phase."""
    zealots = entry(unit("Zealots", models=models, hp=hp, perks=perks))
    foe = entry(unit("Foe"))
    auto = {} if automated else {"automation": ALL_AUTOMATIONS - {Automation.PERK_USE}}
    pos = {0: [(10.0 + 1.5 * k, 10.0) for k in range(models)], 1: [(30.0, 30.0)]}
    return scenario([[zealots], [foe]], pos, phase=Phase.MOVE, **auto)  # type: ignore[arg-type]


def _mastery(state: GameState, faces: list[int]) -> tuple[bool, GameState, list[Event]]:
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.perk_turn import mastery_test
    from warbench.rulesets.warsurge.game.work import Work

    w = Work(state, ScriptedDice(faces), DEFAULT_HOOKS)
    passed = mastery_test(w, 0, "Terrify")
    after = w.state()
    return passed, after, w.events


def test_p871_offering_passes_a_failed_test_for_1_hp() -> None:
    passed, after, events = _mastery(_payer(["Offering"]), [1])  # a 1: failed
    assert passed and sum(after.units[0].hp) == 2
    assert any("suffers 1 HP to pass its Terrify test (Offering)" in e.text for e in events)
    # without the perk, or at 1 HP (it would fall), or without the automation: failed
    assert not _mastery(_payer([]), [1])[0]
    assert not _mastery(_payer(["Offering"], hp=1), [1])[0]
    assert not _mastery(_payer(["Offering"], automated=False), [1])[0]
    # a passed test costs nothing
    ok, after, _ = _mastery(_payer(["Offering"]), [6])
    assert ok and sum(after.units[0].hp) == 3


def test_p1017_sacrifice_passes_a_failed_test_for_a_model() -> None:
    passed, after, events = _mastery(_payer(["Sacrifice"], models=3, hp=1), [1])
    assert passed and sum(1 for h in after.units[0].hp if h > 0) == 2
    assert any("sacrifices a model to pass its Terrify test" in e.text for e in events)
    assert not _mastery(_payer(["Sacrifice"], models=1, hp=3), [1])[0]  # its last model: no


def test_p871_offering_passes_a_weapon_affliction_skill_test() -> None:
    # the Wielder's Skill Test for Freeze (an affliction, one test per HP lost) failed: Offering
    burner = weapon("Torch", range=12, attacks=1, power=8, perks=["Freeze"])
    me = entry(unit("Zealots", hp=3, perks=["Offering"], weapons=[burner]))
    foe = entry(unit("Foe", hp=5))
    state = scenario([[me], [foe]], {0: [(24.0, 10.0)], 1: [(24.0, 14.0)]}, phase=Phase.ATTACK)
    for seed in range(40):
        after, events = engine.apply(state, Attack(0, (("Torch", 1),)), dice=SeededDice(seed))
        if any("pass its Freeze test (Offering)" in e.text for e in events):
            assert any(s.name.startswith("Freeze") for s in after.units[1].statuses)
            assert sum(after.units[0].hp) == 2
            check_invariants(after)
            return
    raise AssertionError("no failed Freeze test in 40 seeds")


# -- Espionage (L1840) ----------------------------------------------------------------------------


def _spies(others_in_reserve: bool = False, keen: bool = False) -> GameState:
    """Side 0's Spies (unit 0, Espionage, in Reserve) and Mates (unit 1: deployed, or in
    Reserve); side 1's Guards (unit 2, ``Keen Eye`` with ``keen``) at (14, 40), in the Deploy
    Phase of Game Turn 1 (48" board: side 1's zone is y 36-48)."""
    spies = entry(unit("Spies", models=2, perks=["Espionage"], weapons=[weapon("Gun", range=12)]))
    mates = entry(unit("Mates"))
    guards = entry(unit("Guards", perks=["Keen Eye"] if keen else [], weapons=[weapon("Gun")]))
    pos = {2: [(14.0, 40.0)]} if others_in_reserve else {1: [(24.0, 6.0)], 2: [(14.0, 40.0)]}
    return scenario([[spies, mates], [guards]], pos, phase=Phase.DEPLOY, turn=1)


IN_ZONE = ((10.0, 44.0), (11.5, 44.0))


def test_p1840_espionage_deploys_in_an_enemy_zone_at_the_end_of_deployment() -> None:
    state = _spies()
    after, events = engine.apply(state, Deploy(0, positions=IN_ZONE))
    check_invariants(after)
    assert any("deploys by Espionage in P1's Deployment Zone" in e.text for e in events)
    assert any(s.name == "Espionage@1" for s in after.units[0].statuses)
    with pytest.raises(RulesError, match=r"Mates is still in Reserve"):
        engine.check(_spies(others_in_reserve=True), Deploy(0, positions=IN_ZONE))
    with pytest.raises(RulesError, match="wholly inside an enemy Deployment Zone"):
        engine.check(state, Deploy(0, positions=((10.0, 30.0), (11.5, 30.0))))


def _covered(keen: bool = False) -> GameState:
    state = engine.apply(_spies(keen=keen), Deploy(0, positions=IN_ZONE))[0]
    return replace(state, flow=replace(state.flow, turn=2, phase=Phase.ATTACK, active=1))


def test_p1840_espionage_the_zone_owner_may_not_target_it_for_two_game_turns() -> None:
    state = _covered()
    with pytest.raises(RulesError, match=r"under Espionage: P1 may not Target it"):
        engine.check(state, Attack(2, (("Gun", 0),)))
    # Keen Eye can, and the Espionage is lost when it is attacked so
    keen = _covered(keen=True)
    after, events = engine.apply(keen, Attack(2, (("Gun", 0),)), dice=SeededDice(1))
    assert any("loses its Espionage" in e.text for e in events)
    assert not any(s.name.startswith("Espionage") for s in after.units[0].statuses)


def test_p1840_espionage_minus_1_to_attack_dice_of_enemies_within_6_inches() -> None:
    from warbench.rulesets.warsurge.attack import AttackContext
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.perk_espionage import dice_modifier
    from warbench.rulesets.warsurge.game.work import Work

    state = _covered()
    near = Work(state, None, DEFAULT_HOOKS)
    assert dice_modifier(near, 2, AttackContext()).status_modifiers == ((-1, "Espionage"),)
    far = replace(state, units=(*state.units[:2], replace(state.units[2], pos=((40.0, 40.0),))))
    assert dice_modifier(Work(far, None, DEFAULT_HOOKS), 2, AttackContext()).status_modifiers == ()


def test_p1840_espionage_enemies_near_it_contest_but_do_not_claim_objectives() -> None:
    from warbench.rulesets.warsurge.battlefield.model import Objective

    state = _covered()
    b = state.setup.field.board.model_copy(
        update={"objectives": [Objective(name="Relay", at=(16.0, 40.0))]}
    )
    from warbench.rulesets.warsurge.game.geom import Field

    setup = replace(state.setup, field=Field(b))
    held = replace(state, setup=setup)
    (relay,) = control(held)
    assert relay.controller is None and not relay.contested  # the Guards, 3.7" from a spy
    gone = replace(held, units=(replace(held.units[0], statuses=()), *held.units[1:]))
    assert control(gone)[0].controller == 1


def test_p1840_espionage_lost_when_it_attacks() -> None:
    state = _covered()
    mine = replace(state, flow=replace(state.flow, active=0))
    after, events = engine.apply(mine, Attack(0, (("Gun", 2),)), dice=SeededDice(1))
    check_invariants(after)
    assert any("loses its Espionage: it attacks with Gun" in e.text for e in events)
