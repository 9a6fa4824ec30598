"""Precise rules without a worked example (004_f4ea5693af0644ce.txt), one test each."""

from __future__ import annotations

from warbench.rulesets.warengine.game.state import Attack, Deactivate, Move, Reserve

from .helpers import WS, act, activate, force, table, trooper

GUN = trooper("Gunner", type="C")
FOE = force(("B", [(trooper("Foe", type="C", df="6k5"), 1)]))


def test_L399_each_weapon_once_per_activation() -> None:
    s = table(force(("A", [(GUN, 1)])), FOE, [(10, 5), (10, 20)])
    s = activate(s, 0)
    s, _ = act(s, Attack(0, 0, 1), 0, [1] * 10)
    refusal = WS.check(s, Attack(0, 0, 1), 0)
    assert refusal is not None and refusal.rule.endswith("L399")


def test_L573_only_an_unused_weapon_may_be_reserved() -> None:
    s = table(force(("A", [(GUN, 1)])), FOE, [(10, 5), (10, 20)])
    s = activate(s, 0)
    s, _ = act(s, Attack(0, 0, 1), 0, [1] * 10)
    assert WS.check(s, Reserve(0, 0), 0) is not None
    assert WS.check(s, Reserve(0, 1), 0) is None


def test_L465_in_range_when_the_distance_equals_the_range() -> None:
    s = table(force(("A", [(GUN, 1)])), FOE, [(10, 5), (10, 30)])  # 24" between bases
    s = activate(s, 0)
    assert WS.check(s, Attack(0, 0, 1), 0) is None
    s = table(force(("A", [(GUN, 1)])), FOE, [(10, 5), (10, 30.1)])
    s = activate(s, 0)
    assert WS.check(s, Attack(0, 0, 1), 0) is not None


def test_L1807_one_profile_of_a_multiprofile_weapon_per_activation() -> None:
    combi = trooper(
        "Combi",
        type="C",
        weapons=[
            {
                "name": "Combi",
                "tweaks": ["Multiprofile"],
                "profiles": [
                    {"name": "Rifle", "range": '24"', "av": "2k2"},
                    {"name": "Launcher", "range": '18"', "av": "3k3"},
                ],
            }
        ],
    )
    s = table(force(("A", [(combi, 1)])), FOE, [(10, 5), (10, 20)])
    s = activate(s, 0)
    s, _ = act(s, Attack(0, 0, 1), 0, [1] * 10)
    assert WS.check(s, Attack(0, 1, 1), 0) is not None


def test_L346_players_alternate_and_a_player_without_units_passes() -> None:
    f0 = force(("A1", [(GUN, 1)]), ("A2", [(trooper("G2", type="C"), 1)]))
    s = table(f0, force(("B", [(trooper("Foe", type="C"), 1)])), [(10, 5), (20, 5), (10, 40)])
    s = activate(s, 0)
    s, _ = act(s, Deactivate(), 0)
    assert s.to_act == 1
    s = activate(s, 2)
    s, _ = act(s, Deactivate(), 1)
    assert s.to_act == 0  # player 1 has no unit left this turn: player 0 goes on


def test_L597_the_turn_ends_with_follow_up_and_rout_and_a_new_initiative() -> None:
    s = table(
        force(("A", [(GUN, 1)])), force(("B", [(trooper("Foe", type="C"), 1)])), [(10, 5), (10, 40)]
    )
    s = activate(s, 0)
    s, _ = act(s, Deactivate(), 0)
    s = activate(s, 1)
    s, ev = act(s, Deactivate(), 1)
    kinds = [e.kind for e in ev]
    assert "follow up" in kinds and kinds[-1] == "turn"
    assert s.turn == 2 and s.phase == "initiative" and WS.pending(s)[0].kind == "roll"


def test_L411_a_fast_move_stays_fast() -> None:
    s = table(force(("A", [(trooper("Runner", type="C", mv='9"'), 1)])), FOE, [(10, 5), (10, 40)])
    s = activate(s, 0)
    s, _ = act(s, Move(0, 10, 8, "fast"), 0)
    assert WS.check(s, Move(0, 10, 10), 0) is not None
    assert WS.check(s, Move(0, 10, 10, "fast"), 0) is None
