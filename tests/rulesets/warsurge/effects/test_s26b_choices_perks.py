"""Choices the rules leave to a player, made protocol decisions with the engine's choice as the
default (issue 11, session 26, lane s26b-choices; ``game/perk_orders.py``).

* Orders (Perks 000_94ecc6a4c74d351b.txt L2033-L2041): "the User can direct any friendly Units
  within 18" (including itself) to choose one of" three Orders: ``UsePerks(leader, ("Orders:
  <n> <Order>",))``.
* Mode templates (L3321-L3563): where the template goes, ``Attack.aim`` ``(weapon, x, y)``.
* Recon I-II (L1882-L1888): "it can relocate up to 6" in any direction (at the end of the
  Deploy Phase in Standard …)": ``UsePerks(unit, ("Recon I: <dir> <inches>",))`` or ``stay``.

Test names carry the rank's source line (``L2033``), which ``warbench perks --coverage`` reads."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.warsurge.game.helpers import ROSTERS, check_invariants, entry, scenario, unit
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Action, Attack, Move, Pass
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.movement import unit_allowance
from warbench.rulesets.warsurge.game.players import RandomLegalPlayer
from warbench.rulesets.warsurge.game.record import GameRecord, replay
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameSetup,
    GameState,
    Phase,
    PlayerSetup,
    build_setup,
)
from warbench.rulesets.warsurge.game.work import Work, to_unit_state

NO_AUTO_PERKS = ALL_AUTOMATIONS - {Automation.PERK_USE}


def _names(state: GameState, uid: int) -> list[str]:
    return [s.name for s in state.units[uid].statuses]


def _allowance(state: GameState, uid: int) -> int:
    return unit_allowance(Work(state, None, DEFAULT_HOOKS), uid, False)


def _orders_game(automation: frozenset[Automation] = NO_AUTO_PERKS, **kw: object) -> GameState:
    """Side 0: a Captain (Leader, Orders) at (10, 10), Squad A at (10, 14), Squad B at (10, 40)
    (beyond 18"); side 1: a Foe far off at (46, 46). Played from Game Turn 2's Attack Phase to
    the start of Game Turn 3 (its Move Phase, side 0 to act): the engine's Orders are given."""
    captain = entry(unit("Captain", perks=["Leader", "Orders"]))
    sides = [[captain, entry(unit("Squad A")), entry(unit("Squad B"))], [entry(unit("Foe"))]]
    st = scenario(
        sides,
        {0: [(10.0, 10.0)], 1: [(10.0, 14.0)], 2: [(10.0, 40.0)], 3: [(46.0, 46.0)]},
        phase=Phase.ATTACK,
        turn=2,
        automation=automation,
        **kw,
    )
    while st.flow.turn == 2:
        st, _ = engine.apply(st, Pass())
        check_invariants(st)
    assert st.flow.phase is Phase.MOVE and st.flow.active == 0
    return st


def _do(state: GameState, action: Action) -> GameState:
    state, _ = engine.apply(state, action)
    check_invariants(state)
    return state


def test_orders_L2033_the_engines_order_is_the_default_and_the_player_may_give_another() -> None:
    st = _orders_game()
    # the default: the engine's Order (Move, Move, Move!: no enemy within reach), given already
    assert "Move, Move, Move!" in _names(st, 1) and _allowance(st, 1) == 12
    offered = [a for a in engine.legal_actions(st) if isinstance(a, UsePerks)]
    assert UsePerks(0, ("Orders: 1 Take Cover!",)) in offered
    assert UsePerks(0, ("Orders: 1 Bring it Down!",)) in offered
    assert UsePerks(0, ("Orders: 1 Move, Move, Move!",)) not in offered  # the one it holds
    assert not any("Orders: 2 " in a.perks[0] for a in offered)  # Squad B: beyond 18"
    chosen = _do(st, UsePerks(0, ("Orders: 1 Take Cover!",)))
    assert _names(chosen, 1) == ["Take Cover!"]  # in place of the engine's (one Order a unit)
    assert _allowance(chosen, 1) == 0  # Immobile
    assert to_unit_state(Work(chosen, None, DEFAULT_HOOKS), 1).profile.defence == 5
    # the outcome changes: the Squad that could move 12" cannot move at all now
    with pytest.raises(RulesError):
        engine.check(chosen, Move(1, (10.0, 24.0)))
    engine.check(st, Move(1, (10.0, 24.0)))
    # a unit's Order is chosen once a Game Turn; the Leader keeps its own action
    assert not any(
        "Orders: 1 " in a.perks[0] for a in engine.legal_actions(chosen) if isinstance(a, UsePerks)
    )
    assert not chosen.units[0].acted
    moved = _do(chosen, Move(2, (10.0, 46.0)))
    assert not moved.units[0].acted  # no forfeit (L229-L231) for an Order (rulings 2)


def test_orders_L2033_bring_it_down_for_a_unit_the_engine_sends_running() -> None:
    st = _do(_orders_game(), UsePerks(0, ("Orders: 1 Bring it Down!",)))
    squad = to_unit_state(Work(st, None, DEFAULT_HOOKS), 1)
    assert squad.profile.defence == 3 and squad.weapons["Gun"].power == 5
    assert _allowance(st, 1) == 6  # not doubled any more
    # Move, Move, Move! forbade its Weapons; Bring it Down! does not: the Attack is checked on
    # (the Foe is out of Range: the refusal is the Range's, not the Order's)
    at = st
    while not (at.flow.phase is Phase.ATTACK and at.flow.active == 0):
        at = _do(at, Pass())
    with pytest.raises(RulesError) as refusal:
        engine.check(at, Attack(1, (("Gun", 3),)))
    assert "Move, Move, Move!" not in str(refusal.value)


def test_orders_L2033_a_bad_choice_is_refused_naming_the_rule_and_the_allowed_options() -> None:
    st = _orders_game()
    with pytest.raises(RulesError, match=r"one of: 0 Move, Move, Move!; .*L2033"):
        engine.check(st, UsePerks(0, ("Orders: 2 Take Cover!",)))  # beyond 18"
    with pytest.raises(RulesError, match="one of:"):
        engine.check(st, UsePerks(0, ("Orders: 1 Charge!",)))
    with pytest.raises(RulesError, match="has no perk"):
        engine.check(st, UsePerks(1, ("Orders: 1 Take Cover!",)))  # Squad A has no Orders
    # the start of the Game Turn only: not once the Leader has moved
    after = _do(st, Move(0, (10.0, 6.0)))
    after = _do(after, Pass()) if engine.acting_side(after) == 1 else after
    with pytest.raises(RulesError, match="start of the Game Turn"):
        engine.check(after, UsePerks(0, ("Orders: 1 Take Cover!",)))
    # the player may confirm the engine's Order (the default taken explicitly)
    same = _do(st, UsePerks(0, ("Orders: 1 Move, Move, Move!",)))
    assert _names(same, 1) == ["Move, Move, Move!"]


def test_orders_L2033_with_the_perk_use_automation_nothing_is_listed() -> None:
    st = _orders_game(ALL_AUTOMATIONS)
    assert "Move, Move, Move!" in _names(st, 1)  # the engine's Order, as before
    assert not any(isinstance(a, UsePerks) for a in engine.legal_actions(st))


def test_orders_L2033_advanced_keeps_the_engines_order() -> None:
    from warbench.rulesets.warsurge.game import perk_orders
    from warbench.rulesets.warsurge.game.advstate import Playstyle

    st = _orders_game()
    adv = replace(st, setup=replace(st.setup, playstyle=Playstyle.ADVANCED))
    why = perk_orders.refused(Work(adv, None, DEFAULT_HOOKS), 0, "1 Take Cover!", True)
    assert why is not None and "Advanced" in why and "L2033" in why
    assert perk_orders.options(Work(adv, None, DEFAULT_HOOKS), 0, True) == []
    assert perk_orders.refused(Work(st, None, DEFAULT_HOOKS), 0, "1 Take Cover!", True) is None


# -- Recon (L1882, L1888) ----------------------------------------------------------------------


def _deployed(rank: str | None, automation: frozenset[Automation] = NO_AUTO_PERKS) -> GameState:
    """Side 0's Scouts (``rank``) deployed at (24, 6) in Game Turn 1's Deploy Phase, side 0 to
    act again (its Rearguard still in Reserve); side 1's Foe at (24, 44)."""
    from warbench.rulesets.warsurge.game.actions import Deploy

    scouts = entry(unit("Scouts", perks=[rank] if rank else []))
    sides = [[scouts, entry(unit("Rearguard"))], [entry(unit("Foe"))]]
    st = scenario(sides, {2: [(24.0, 44.0)]}, phase=Phase.DEPLOY, turn=1,
                  automation=automation)  # fmt: skip
    st = _do(st, Deploy(0, positions=((24.0, 6.0),)))
    while engine.acting_side(st) != 0 and st.flow.phase is Phase.DEPLOY:
        st = _do(st, Pass())
    return st


def _end_deploy(st: GameState) -> GameState:
    while st.flow.phase is Phase.DEPLOY:
        st = _do(st, Pass())
    return st


@pytest.mark.parametrize(
    ("rank", "option", "at"),
    [
        pytest.param("Recon I", "E 6", (30.0, 6.0), id="L1882-Recon I east"),
        pytest.param("Recon I", "W 3", (21.0, 6.0), id="L1882-Recon I west half"),
        pytest.param("Recon II", "NE 12", (24 + 12 / 2**0.5, 6 + 12 / 2**0.5), id="L1888-NE"),
        pytest.param("Recon II", "stay", (24.0, 6.0), id="L1888-Recon II stays"),
    ],
)
def test_recon_L1882_the_player_declares_the_relocation_made_at_the_deploy_phase_end(
    rank: str, option: str, at: tuple[float, float]
) -> None:
    st = _deployed(rank)
    offered = [a for a in engine.legal_actions(st) if isinstance(a, UsePerks)]
    assert UsePerks(0, (f"{rank}: E 6",)) in offered and UsePerks(0, (f"{rank}: stay",)) in offered
    st = _do(st, UsePerks(0, (f"{rank}: {option}",)))
    assert st.units[0].pos == ((24.0, 6.0),)  # made at the end of the Deploy Phase
    assert not any(isinstance(a, UsePerks) for a in engine.legal_actions(st))  # declared once
    ((x, y),) = _end_deploy(st).units[0].pos
    assert (round(x, 6), round(y, 6)) == (round(at[0], 6), round(at[1], 6))
    # the default (no declaration): the engine's, towards the enemy
    ((x0, y0),) = _end_deploy(_deployed(rank)).units[0].pos
    assert (x0, y0) == (24.0, 6.0 + (6 if rank == "Recon I" else 12))


def test_recon_L1882_a_bad_declaration_is_refused_naming_the_rule_and_the_options() -> None:
    st = _deployed("Recon I")
    with pytest.raises(RulesError, match=r"up to 6, or stay; legal now: N 6; .*L1882"):
        engine.check(st, UsePerks(0, ("Recon I: N 7",)))
    with pytest.raises(RulesError, match="legal now"):
        engine.check(st, UsePerks(0, ("Recon I: S 6",)))  # off the battlefield
    with pytest.raises(RulesError, match="direction"):
        engine.check(st, UsePerks(0, ("Recon I: up 3",)))
    with pytest.raises(RulesError, match="Deploy Phase"):
        engine.check(_end_deploy(st), UsePerks(0, ("Recon I: N 3",)))
    with pytest.raises(RulesError, match="has no perk"):
        engine.check(_deployed(None), UsePerks(0, ("Recon I: N 3",)))
    # with the perk use automation nothing is listed; the engine relocates as before
    auto = _deployed("Recon I", ALL_AUTOMATIONS)
    assert not any(isinstance(a, UsePerks) for a in engine.legal_actions(auto))


# -- Mode templates (L3321-L3563) --------------------------------------------------------------

FOE_ROW = [(13.0 + 1.5 * k, 20.0) for k in range(5)]  # x = 13, 14.5, 16, 17.5, 19
FRIEND_NEAR = [(13.0, 21.5)]


def _template_state(rank: str, automation: frozenset[Automation] = NO_AUTO_PERKS) -> GameState:
    """The User (unit 0: a Gun, 24", one Attack, ``rank``) at (13, 10); a Friend (unit 1) at
    (13, 21.5); a Foe of five models in a row (unit 2) at y = 20. Attack Phase, side 0."""
    from tests.warsurge.game.helpers import weapon

    gun = weapon("Gun", power=4, attacks=1, range=24, perks=[rank])
    sides = [
        [entry(unit("User", weapons=[gun], hp=5)), entry(unit("Friend", hp=5, defence=3))],
        [entry(unit("Foe", models=5, hp=5, defence=3))],
    ]
    return scenario(sides, {0: [(13.0, 10.0)], 1: FRIEND_NEAR, 2: FOE_ROW}, phase=Phase.ATTACK,
                    turn=2, automation=automation)  # fmt: skip


def _struck(state: GameState, aim: tuple[tuple[str, float, float], ...]) -> dict[int, int]:
    from warbench.kernel.dice import ScriptedDice

    new, _ = engine.apply(state, Attack(0, (("Gun", 2),), aim=aim), dice=ScriptedDice([6] * 99))
    check_invariants(new)
    return {
        t: state.units[t].current_hp - new.units[t].current_hp
        for t in (1, 2)
        if new.units[t].current_hp != state.units[t].current_hp
    }


def test_mode_L3413_explode_aimed_by_the_player_spares_the_friend_the_default_strikes() -> None:
    st = _template_state("Explode I")
    # the default: over the Foe's closest model (13, 20): two Foe models and the Friend
    assert _struck(st, ()) == {2: 2, 1: 1}
    # the player's point, the Foe's far end (19, 20): two Foe models, the Friend spared
    assert _struck(st, (("Gun", 19.0, 20.0),)) == {2: 2}
    # between the Friend and the row's middle (16, 20): three Foe models
    assert _struck(st, (("Gun", 16.0, 20.0),)) == {2: 3}


def test_mode_L3377_a_cone_points_where_the_player_aims_it() -> None:
    st = _template_state("Cone I")
    default = _struck(st, ())
    aimed = _struck(st, (("Gun", 2.0, 10.0),))  # due West, away from everyone
    assert default and aimed == {}


def test_mode_L3321_a_bad_point_is_refused_naming_the_rule_and_the_range() -> None:
    st = _template_state("Explode I")
    with pytest.raises(RulesError, match=r'within its Range \(24"\).*L3321'):
        engine.check(st, Attack(0, (("Gun", 2),), aim=(("Gun", 13.0, 40.0),)))
    with pytest.raises(RulesError, match="off the battlefield"):
        engine.check(st, Attack(0, (("Gun", 2),), aim=(("Gun", -5.0, 10.0),)))
    with pytest.raises(RulesError, match="centred over its Wielder"):
        engine.check(_template_state("Nova I"), Attack(0, (("Gun", 2),), aim=(("Gun", 13, 12),)))
    plain = _template_state("Rapid Fire")
    with pytest.raises(RulesError, match="nor a Mode template"):
        engine.check(plain, Attack(0, (("Gun", 2),), aim=(("Gun", 13.0, 20.0),)))


def test_mode_L3321_placements_are_listed_without_the_perk_use_automation() -> None:
    aimed = [
        a
        for a in engine.legal_actions(_template_state("Explode I"))
        if isinstance(a, Attack) and a.aim
    ]
    assert {a.aim for a in aimed} == {(("Gun", 16.0, 20.0),), (("Gun", 19.0, 20.0),)}
    auto = _template_state("Explode I", ALL_AUTOMATIONS)
    assert not any(isinstance(a, Attack) and a.aim for a in engine.legal_actions(auto))


# -- games, records, the protocol --------------------------------------------------------------


def _with_orders() -> GameSetup:
    """The skirmish rosters, each unit a Leader with Orders and Recon I, each Weapon with
    Explode I, without the ``perk use`` automation."""
    players = []
    for name in ("skirmish_a.yaml", "skirmish_b.yaml"):
        p = load_game_roster(ROSTERS / name)
        roster = tuple(
            replace(
                e,
                unit=e.unit.model_copy(
                    update={
                        "profile": e.unit.profile.model_copy(
                            update={"perks": [*e.unit.profile.perks, "Leader", "Orders", "Recon I"]}
                        ),
                        "weapons": [
                            w.model_copy(update={"perks": [*w.perks, "Explode I"]})
                            for w in e.unit.weapons
                        ],
                    }
                ),
            )
            for e in p.roster
        )
        players.append(PlayerSetup(p.name, roster, p.team))
    return build_setup(
        players, Field(sample_board("open_field_42x32")), max_turns=4, automation=NO_AUTO_PERKS
    )


def test_orders_L2033_random_players_choose_orders_and_the_record_replays() -> None:
    setup = _with_orders()
    state, _ = engine.new_game(setup, 0)
    rec = GameRecord(setup, 0)
    players = [RandomLegalPlayer(1), RandomLegalPlayer(2)]
    chosen: list[str] = []
    recon: list[str] = []
    aims: list[object] = []
    steps = 0
    while not state.over:
        side = engine.acting_side(state)
        assert side is not None
        action = players[side].choose(state)
        if isinstance(action, UsePerks) and action.perks[0].startswith("Orders: "):
            chosen.append(action.perks[0])
        if isinstance(action, UsePerks):
            recon.append(action.perks[0])
        if isinstance(action, Attack) and action.aim:
            aims.append(action.aim)
        state, _ = engine.apply(state, action)
        rec.add(action, state)
        check_invariants(state)
        steps += 1
        assert steps < 5000
    assert len({c.split(" ", 2)[2] for c in chosen}) >= 2  # the random player samples Orders
    assert any(e.startswith("Recon I: ") for e in recon)  # and Recon relocations
    assert aims  # and template placements
    assert replay(rec).state.digest() == state.digest()


def test_orders_L2033_protocol_record_replays_from_json_and_the_prompt_names_it(
    tmp_path: Path,
) -> None:
    from warbench.play import GameRecord as ProtocolRecord
    from warbench.play import RandomLegalPlayer as ProtocolRandom
    from warbench.play import SetupArgs
    from warbench.play import replay as protocol_replay
    from warbench.play.runner import run_game
    from warbench.rulesets.warsurge.game.io import roster_to_data
    from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset

    setup = _with_orders()
    rosters = tuple(roster_to_data(p) for p in setup.players)
    automation = [a.value for a in NO_AUTO_PERKS]
    options = {"max_turns": 4, "automation": automation}
    args = SetupArgs(rosters, "open_field_42x32", options)  # type: ignore[arg-type]
    ws = WarsurgeRuleset()
    run = run_game(ws, args, [ProtocolRandom(1), ProtocolRandom(2)], 0)
    perks = [s.action.get("perks") for s in run.record.steps]  # type: ignore[union-attr]
    assert any(p and str(p[0]).startswith("Orders: ") for p in perks)
    assert any(p and str(p[0]).startswith("Recon I: ") for p in perks)
    assert any(s.action.get("aim") for s in run.record.steps)  # type: ignore[union-attr]
    path = tmp_path / "game.jsonl"
    run.record.save(path)
    rep = protocol_replay(ProtocolRecord.load(path), ws)
    assert rep.digests == [s.digest for s in run.record.steps]
    # the question at the start of a Game Turn names the choice in words
    state = ws.setup(rosters, "open_field_42x32", options, 0)  # type: ignore[arg-type]
    prompts: list[str] = []
    for step in run.record.steps:
        prompts += [d.prompt for d in ws.pending(state)]
        state = ws.apply(state, ws.actions.load(step.action), step.actor)[0]  # type: ignore[union-attr]
    assert any("give a unit another Order (Orders, Perks L2033)" in p for p in prompts)
    assert any("declare where a Recon unit relocates" in p for p in prompts)
    assert any("may say where its template goes" in p for p in prompts)
