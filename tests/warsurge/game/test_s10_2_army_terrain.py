"""Terrain that attacks: terrain weapons and terrain fielded in an army (Core Rules
001_d3f5e425c5e1196d.txt §10.2 L4386-4392 "have Weapons equipped", L4404-4408 control and
contested terrain, L4424-4430 "given a profile and fielded in a player's army"; §4.1 L1861-1881
Immobile Units; §9.2 the Attack Action's CP; rulings "WARSURGE terrain in play: session 27,
s27-armyterrain"). Code: ``game/terrain_army.py``, ``game/terrain_army_value.py``.
"""

from __future__ import annotations

import statistics
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from tests.warsurge.game.helpers import (
    ROSTERS,
    board,
    check_invariants,
    entry,
    line,
    play_checked,
    scenario,
    setup_of,
    unit,
)
from warbench.kernel.errors import ProfileError, RulesError
from warbench.rulesets.warsurge.battlefield import Terrain, render_text, sample_board
from warbench.rulesets.warsurge.battlefield.io import board_file_schema, board_from_data
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Pass, action_to_dict
from warbench.rulesets.warsurge.game.actions_advanced import Counter
from warbench.rulesets.warsurge.game.advstate import AdvancedFlow
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import RandomLegalPlayer, ScriptedPlayer
from warbench.rulesets.warsurge.game.record import GameRecord, loads_record, replay
from warbench.rulesets.warsurge.game.render import render_state_svg, render_state_text
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase, build_setup
from warbench.rulesets.warsurge.game.terrain_army import piece_attack_plan, verify_piece_attack
from warbench.rulesets.warsurge.game.terrain_army_value import piece_points, piece_unit
from warbench.rulesets.warsurge.game.work import Work
from warbench.rulesets.warsurge.odds import exact_attack
from warbench.rulesets.warsurge.points import cost_unit

ARMED_BOARD = "hive_city_armed_72x48"


def _profile(name: str, wname: str, **w: Any) -> dict[str, Any]:
    wp = {"name": wname, "range": 24, "type": "Heavy", "attacks": 4, "power": 6, "ap": "5+"}
    wp.update(w)
    return {
        "unit": {"name": name, "move": 0, "dash": 0, "defence": 6, "hp": 10, "armour": "4+"},
        "weapons": [wp],
        "models": [{"count": 1, "weapons": [wname]}],
    }


TURRET = Terrain(
    name="Turret", rect=[22, 22, 26, 26], hp=10, army=0, profile=_profile("Turret", "Stubber")
)
BUNKER = Terrain(
    name="Bunker",
    rect=[22, 34, 26, 38],
    hp=20,
    armed=True,
    transport=400,
    profile=_profile("Bunker", "Autocannon", power=7),
)
B = board(terrain=[TURRET, BUNKER])
SIDES = [[entry(unit("Red", models=3, hp=2))], [entry(unit("Blue", models=3, hp=2))]]
TURRET_N, BUNKER_N = 2, 3  # 2 units, then the pieces in board order


def state_at(
    red: list[tuple[float, float]], blue: list[tuple[float, float]], **kw: Any
) -> GameState:
    kw.setdefault("phase", Phase.ATTACK)
    return scenario(SIDES, {0: red, 1: blue}, b=B, **kw)


def refusal(state: GameState, action: Attack | Pass) -> RulesError:
    with pytest.raises(RulesError) as exc:
        engine.check(state, action)
    return exc.value


# -- board files --------------------------------------------------------------------------


def test_s10_2_L4388_board_fields_armed_and_army_are_checked() -> None:
    with pytest.raises(ValidationError, match="armed piece needs a profile with weapons"):
        Terrain(name="X", rect=[0, 0, 1, 1], armed=True)
    with pytest.raises(ProfileError) as exc:
        board_from_data(
            {"width": 10, "height": 10, "terrain": [{"name": "X", "rect": [0, 0, 1, 1], "army": 0}]}
        )
    assert "terrain[0]" in str(exc.value) and "L4424" in str(exc.value)
    too_far = board(terrain=[TURRET.model_copy(update={"army": 2})])
    with pytest.raises(RulesError, match="side 2") as refused:
        engine.new_game(setup_of(SIDES, too_far), 1)
    assert "L4424" in refused.value.rule
    props = board_file_schema()["$defs"]["Terrain"]["properties"]
    assert {"armed", "army"} <= set(props)


def test_s10_2_L4400_a_profile_weapon_without_armed_or_army_stays_data() -> None:
    # the hive city's command bunker has a Twin Autocannon in its profile, as before: data
    plain = Terrain(name="Bunker", rect=[22, 34, 26, 38], hp=20, profile=BUNKER.profile)
    b = board(terrain=[plain])
    st = scenario(SIDES, {0: line(23, 39.5, 3), 1: line(10, 36, 3)}, b=b, phase=Phase.ATTACK)
    why = refusal(st, Attack(2, (("Autocannon", 1),)))
    assert "no weapons in play" in why.reason and "L4388" in why.rule
    assert 2 not in engine.legal_actions(st).units()


# -- terrain fielded in an army (L4424-4430) -------------------------------------------------


def test_s10_2_L4424_a_piece_in_an_army_is_priced_by_the_points_model_and_scores() -> None:
    setup = setup_of(SIDES, B)
    price = float(cost_unit(piece_unit(TURRET)).total)
    assert price > 0 and piece_points(TURRET) == price
    assert setup.roster_points(0) == pytest.approx(setup.roster_points(1) + price)
    st = state_at(line(10, 5, 3), line(10, 44, 3))
    base = [st.current_value(0), st.current_value(1)]
    assert st.side_values() == pytest.approx([base[0] + price, base[1]])
    hurt = replace(st, terrain_hp=(("Turret", 4),))  # 4 of its 10 HP left: 40% of its price
    assert hurt.side_values()[0] == pytest.approx(base[0] + price * 0.4)
    gone = replace(st, terrain_hp=(("Turret", 0),))  # §10.3: destroyed, worth nothing
    assert gone.side_values()[0] == pytest.approx(base[0])


def test_s10_2_L4424_a_piece_in_an_army_attacks_in_its_sides_attack_phase_once() -> None:
    st = state_at(line(10, 5, 3), line(22, 30, 3))
    action = Attack(TURRET_N, (("Stubber", 1),))
    assert action in engine.legal_actions(st)
    assert TURRET_N in engine.legal_actions(st).units()
    hp_before = st.units[1].current_hp
    after, events = engine.apply(st, action)
    shot = [e for e in events if e.kind == "attack" and e.data.get("terrain") == "Turret"]
    assert len(shot) == 1 and shot[0].data["target"] == 1
    assert after.units[1].current_hp == hp_before - shot[0].data["hp_lost"]
    assert after.pieces_acted == ("Turret",)
    assert after.flow.active == 1  # one of side 0's alternating actions (§2.2 step 4)
    check_invariants(after)
    # the enemy's turn: not theirs to use (L4424-4430)
    why = refusal(after, Attack(TURRET_N, (("Stubber", 0),)))
    assert "Red's army" in why.reason or "P0's army" in why.reason
    assert "L4424" in why.rule
    # back to side 0: the turret has attacked in this Attack Phase
    back = replace(after, flow=replace(after.flow, active=0))
    why = refusal(back, action)
    assert "already attacked" in why.reason and why.rule == "§2.2 step 4"


def test_s10_2_a_piece_attack_is_refused_out_of_range_at_a_friend_or_with_no_such_weapon() -> None:
    st = state_at(line(10, 5, 3), line(22, 30, 3))
    assert "Stubber" in refusal(st, Attack(TURRET_N, (("Lascannon", 1),))).reason
    friend = refusal(st, Attack(TURRET_N, (("Stubber", 0),)))
    assert "not an enemy" in friend.reason
    far = state_at(line(10, 5, 3), line(40, 47, 3))  # > 24" from the turret's footprint
    why = refusal(far, Attack(TURRET_N, (("Stubber", 1),)))
    assert "range and line of sight" in why.reason and "§5.3-5.4" in why.rule
    moving = replace(st, flow=replace(st.flow, phase=Phase.MOVE))
    assert (
        "not an action of the Move step"
        in refusal(moving, Attack(TURRET_N, (("Stubber", 1),))).reason
    )


def test_s10_3_a_destroyed_piece_attacks_no_more() -> None:
    st = replace(state_at(line(10, 5, 3), line(22, 30, 3)), terrain_hp=(("Turret", 0),))
    why = refusal(st, Attack(TURRET_N, (("Stubber", 1),)))
    assert "destroyed" in why.reason and why.rule == "§10.3"


# -- terrain weapons: control and contest (L4404-4408) ----------------------------------------

AUTOCANNON = Attack(BUNKER_N, (("Autocannon", 1),))
NEAR_BUNKER = line(23, 39.5, 3)  # within 2" (Coherency) of the bunker's footprint
FAR = line(40, 5, 3)


def test_s10_2_L4404_the_side_in_control_uses_the_terrain_weapons() -> None:
    st = state_at(NEAR_BUNKER, line(8, 30, 3))
    assert AUTOCANNON in engine.legal_actions(st)
    _, events = engine.apply(st, AUTOCANNON)
    assert any(e.data.get("terrain") == "Bunker" and e.kind == "attack" for e in events)


def test_s10_2_L4404_nobody_in_control_means_no_terrain_weapons() -> None:
    why = refusal(state_at(FAR, line(8, 30, 3)), AUTOCANNON)
    assert "nobody controls Bunker" in why.reason and why.rule == "§10.2 L4404"


def test_s10_2_L4406_contested_terrain_weapons_are_unavailable() -> None:
    st = state_at(NEAR_BUNKER, [(21, 36), (21, 37.5), (19.6, 36.5)])
    why = refusal(st, AUTOCANNON)
    assert "contested" in why.reason and why.rule == "§10.2 L4406-4408"
    assert BUNKER_N not in engine.legal_actions(st).units()


def test_s10_2_L4404_a_piece_under_the_enemys_control_is_theirs() -> None:
    st = state_at(FAR, [(21, 36), (21, 37.5), (19.6, 36.5)])
    why = refusal(st, Attack(BUNKER_N, (("Autocannon", 0),)))
    assert "under" in why.reason and "control" in why.reason


def test_s10_2_L4404_a_unit_embarked_inside_controls_the_piece() -> None:
    st = state_at(FAR, line(8, 30, 3))
    inside = replace(st.units[0], location=Location.TERRAIN, terrain="Bunker", pos=())
    st = replace(st, units=(inside, st.units[1]))
    assert engine.can(st, AUTOCANNON)


# -- the Advanced playstyle (§9.1-9.2) -----------------------------------------------------


def _advanced(blue_models: int = 6) -> GameState:
    sides = [[entry(unit("Red", models=3, hp=2))], [entry(unit("Blue", models=blue_models, hp=1))]]
    pos = {0: line(10, 5, 3), 1: line(18, 30, blue_models)}
    st = scenario(sides, pos, b=B, phase=Phase.ACTIONS, playstyle="advanced")
    return replace(st, flow=replace(st.flow, adv=AdvancedFlow(cp=(3, 3))))


def _answered(st: GameState, action: Attack, choice: str = "none") -> tuple[GameState, list[Any]]:
    """Apply ``action``, then the attacked unit's Counter Action ``choice`` (§9.3)."""
    after, events = engine.apply(st, action)
    if after.flow.adv is not None and after.flow.adv.counter is not None:
        assert after.flow.adv.counter.attacker == action.unit
        after, more = engine.apply(after, Counter(1, choice))
        events = [*events, *more]
    return after, events


def test_s9_2_a_piece_attack_action_costs_cp_doubling_and_removes_casualties_at_once() -> None:
    st = _advanced()
    action = Attack(TURRET_N, (("Stubber", 1),))
    costs = []
    for _ in range(2):
        after, events = _answered(st, action)
        costs += [e.data["cost"] for e in events if e.kind == "action"]
        blue = after.units[1]
        # §9.1 IV: no casualty is left standing after the Attack Action
        assert not any(h <= 0 and not r for h, r in zip(blue.hp, blue.removed, strict=True))
        assert blue.location is Location.TABLE, "six 1-HP models outlast 2 x 4 Attacks here"
        assert any(e.kind == "attack" and e.data.get("terrain") == "Turret" for e in events)
        st = replace(after, flow=replace(after.flow, active=0))
    assert costs == [1, 2]  # 1 CP, doubling on reuse (§9.2)
    assert st.flow.adv is not None and st.flow.adv.cp[0] == 0
    assert "CP" in refusal(st, action).reason


def test_s9_3_L3826_the_attacked_unit_answers_a_piece_attack_with_a_counter_action() -> None:
    action = Attack(TURRET_N, (("Stubber", 1),))
    asked, _ = engine.apply(_advanced(), action)
    adv = asked.flow.adv
    assert adv is not None and adv.counter is not None and adv.counter.asked == (1,)
    assert engine.acting_side(asked) == 1
    # Counter Guard: +1 Defence before the Saves, 1 CP of Blue's (§9.2 Guard, §9.3)
    guarded, events = engine.apply(asked, Counter(1, "guard"))
    assert guarded.flow.adv is not None and guarded.flow.adv.cp[1] == 2
    assert any(e.kind == "guard" for e in events)
    assert any(e.kind == "attack" and e.data.get("terrain") == "Turret" for e in events)
    # Counter Attack: Blue's Guns answer at the turret, a destructible piece (§10.3)
    hit, events = engine.apply(asked, Counter(1, "attack"))
    back = [e for e in events if e.kind == "attack" and e.data.get("unit") == 1]
    assert back and back[0].data["terrain"] == "Turret"
    left = dict(hit.terrain_hp).get("Turret", 10)
    assert left == 10 - back[0].data["hp_lost"]
    check_invariants(hit)


# -- odds agree with the game ----------------------------------------------------------------


def test_odds_agree_with_the_game_for_a_terrain_weapons_attack() -> None:
    st = state_at(line(10, 5, 3), line(22, 30, 3))
    action = Attack(TURRET_N, (("Stubber", 1),))
    w = Work(st, None, DEFAULT_HOOKS)
    plan = verify_piece_attack(w, action, 0)
    odds = exact_attack(piece_attack_plan(w, plan, 0))
    lost = []
    for seed in range(300):
        s = replace(st, seed=seed)
        after, _ = engine.apply(s, action)
        lost.append(st.units[1].current_hp - after.units[1].current_hp)
    mean = statistics.fmean(lost)
    se = statistics.pstdev(lost) / len(lost) ** 0.5
    assert abs(mean - odds.expected_hp_lost) < 4 * se + 1e-9
    assert set(lost) <= set(odds.hp_lost)


# -- whole games, both playstyles, and their records ----------------------------------------


def _armed_setup(playstyle: str) -> Any:
    players = [load_game_roster(ROSTERS / n) for n in ("skirmish_a.yaml", "skirmish_b.yaml")]
    return build_setup(players, Field(sample_board(ARMED_BOARD)), max_turns=6, playstyle=playstyle)


def _play(playstyle: str, seed: int, players: list[Any]) -> tuple[GameState, GameRecord, int]:
    """A checked game on the armed board (every invariant, the record replayed) and how many
    of its attacks were made by terrain pieces."""
    fired: list[int] = []

    def count(events: Any) -> None:
        fired.append(
            sum(
                1
                for e in events
                if e.kind == "attack" and "target" in e.data and "terrain" in e.data
            )
        )

    state, rec = play_checked(_armed_setup(playstyle), seed, players, on_events=count)
    return state, rec, sum(fired)


@pytest.mark.parametrize(("playstyle", "seed"), [("standard", 0), ("advanced", 1)])
def test_s10_2_random_legal_games_fire_terrain_and_replay_from_json(
    playstyle: str, seed: int
) -> None:
    state, rec, fired = _play(
        playstyle, seed, [RandomLegalPlayer(seed * 7 + 1), RandomLegalPlayer(seed * 7 + 2)]
    )
    assert fired > 0
    again = replay(loads_record("\n".join(rec.lines())))
    assert again.state.digest() == state.digest()


@pytest.mark.parametrize("playstyle", ["standard", "advanced"])
def test_s10_2_the_scripted_player_fires_terrain(playstyle: str) -> None:
    state, rec, fired = _play(playstyle, 2, [ScriptedPlayer(), ScriptedPlayer()])
    assert fired > 0
    assert replay(rec).state.digest() == state.digest()


# -- renders ----------------------------------------------------------------------------


def test_s10_2_renders_mark_the_armed_pieces(tmp_path: Path) -> None:
    b = sample_board(ARMED_BOARD)
    text = render_text(b)
    assert "@" in text
    assert "West gun turret" in text and "armed (army of side 0): Heavy Stubber" in text
    assert "armed (its controller's): Twin Autocannon" in text
    assert "@" not in render_text(sample_board("hive_city_72x48"))
    state, _ = engine.new_game(_armed_setup("standard"), 3)
    assert "armed (army of side 1)" in render_state_text(state)
    svg = render_state_svg(state, tmp_path / "armed.svg").read_text()
    assert "armed" in svg


def test_a_finished_games_picture_names_no_side_to_act(tmp_path: Path) -> None:
    # the final picture of `battle --svg` was titled "Game Turn 4, Game Over Phase, - to act"
    from warbench.rulesets.warsurge.game.render import title

    state, _, _ = _play("standard", 2, [ScriptedPlayer(), ScriptedPlayer()])
    assert state.over and title(state).endswith("Phase") and "to act" not in title(state)


# -- the protocol ---------------------------------------------------------------------------


@pytest.mark.parametrize("playstyle", ["standard", "advanced"])
def test_s10_2_the_protocol_lists_terrain_attacks_and_words_them(playstyle: str) -> None:
    from warbench.play import SetupArgs
    from warbench.play.conformance import check_conformance
    from warbench.rulesets.warsurge.game.io import roster_to_data
    from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset
    from warbench.rulesets.warsurge.game.words import describe

    rosters = tuple(
        roster_to_data(load_game_roster(ROSTERS / f))
        for f in ("skirmish_a.yaml", "skirmish_b.yaml")
    )
    args = SetupArgs(rosters, ARMED_BOARD, {"playstyle": playstyle, "max_turns": 5})
    ws = WarsurgeRuleset()
    report = check_conformance(ws, args, seeds=range(1), samples=2)
    assert report.finished == 1
    # a state where side 0's turret may fire: its Attack is among the legal actions, worded
    state = ws.setup(args.rosters, args.board, args.options, 4)
    game = state.game
    n = len(game.units)
    seen = False
    for _ in range(400):
        if ws.is_over(state):
            break
        player = engine.acting_side(state.game)
        assert player is not None
        legal = list(ws.legal_actions(state, player))
        mine = [a for a in legal if isinstance(a, Attack) and a.unit >= n]
        if mine:
            view = ws.view(state, player)
            armed = {p["number"]: p for p in view["armed_terrain"]}
            assert mine[0].unit in armed
            words = describe(view, action_to_dict(mine[0]))
            assert words is not None and "(terrain): attack with" in words
            seen = True
            break
        state = ws.apply(state, legal[0] if legal else Pass(), player)[0]
    assert seen, "no terrain Attack was offered"


def test_s10_2_L4404_the_control_view_counts_units_inside_and_army_pieces() -> None:
    from warbench.rulesets.warsurge.game.terrain_control import control

    st = state_at(FAR, [(23, 20.8), (24, 20.8), (25, 20.8)])  # Blue within 2" of the turret
    held = {h.name: h for h in control(st)}
    assert held["Turret"].controller == 0 and not held["Turret"].contested  # its army's
    assert held["Bunker"].controller is None and not held["Bunker"].sides
    inside = replace(st.units[0], location=Location.TERRAIN, terrain="Bunker", pos=())
    st = replace(st, units=(inside, st.units[1]))
    assert {h.name: h for h in control(st)}["Bunker"].controller == 0  # "embarked inside it"


def test_s3_6_an_army_piece_counts_as_deployed_in_the_first_turns_share() -> None:
    # three 40-point units and the turret (priced over 40): one unit on the battlefield with
    # the turret is at least half the roster (§3.6), so side 0 may pass; without the turret
    # (40 of 120 points) it may not
    assert piece_points(TURRET) >= 40
    sides = [[entry(unit(f"Red {k}"), points=40) for k in range(3)], [entry(unit("Blue"))]]
    st = scenario(sides, {0: [(10, 5)]}, b=B, phase=Phase.DEPLOY, turn=1)
    assert engine.can(st, Pass())
    plain = scenario(sides, {0: [(10, 5)]}, b=board(terrain=[BUNKER]), phase=Phase.DEPLOY, turn=1)
    why = refusal(plain, Pass())
    assert "at least 50%" in why.reason and why.rule == "§3.6"
