"""Reserve, Lunge, Deactivate, Follow Up, Rout and Victory (004_f4ea5693af0644ce.txt
L381-L387, L569-L633)."""

from __future__ import annotations

from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warengine.game.rout import rout_step
from warbench.rulesets.warengine.game.state import (
    Attack,
    Deactivate,
    Move,
    Pass,
    Reserve,
    ReserveFire,
)
from warbench.rulesets.warengine.game.victory import end_of_turn, scores

from .helpers import WS, act, activate, ctx_of, force, table, trooper

CHAR = trooper("Gunslinger", type="C")


def test_L573_reserve_is_the_last_action_and_L383_it_is_removed_on_activation() -> None:
    s = table(
        force(("A", [(CHAR, 1)])),
        force(("B", [(trooper("Foe", type="C"), 1)])),
        [(10, 5), (10, 40)],
    )
    s = activate(s, 0)
    s, _ = act(s, Reserve(0, 0), 0)
    refusal = WS.check(s, Move(0, 10, 7), 0)
    assert refusal is not None and refusal.rule.endswith("L573")
    assert s.figs[0].reserved == 0
    s, _ = act(s, Deactivate(), 0)
    s.units[0].activated = False  # as on the next turn
    s = activate(s, 0)
    assert s.figs[0].reserved is None  # Remove Reserve (L383)


def test_L407_reserved_attacks_interrupt_an_enemy_move() -> None:
    fast = trooper("Foe", type="C", mv='15"')
    s = table(force(("A", [(CHAR, 1)])), force(("B", [(fast, 1)])), [(10, 5), (10, 40)])
    s.figs[0].reserved = 0
    s = activate(s, 1)
    s, _ = act(s, Move(1, 10, 36), 1)
    assert WS.pending(s)[0].kind == "action"  # still out of range (24")
    s, _ = act(s, Move(1, 10, 28), 1)
    d = WS.pending(s)[0]
    assert (d.player, d.kind, d.default) == (0, "reserve", ReserveFire(0, 1))
    s, ev = act(s, ReserveFire(0, 1), 0, [1] * 5)
    assert s.figs[0].reserved is None and any(e.kind == "attack roll" for e in ev)
    assert WS.pending(s)[0].kind == "action" and s.active_unit == 1


def test_L575_a_reserved_attack_answers_simultaneously() -> None:
    s = table(
        force(("A", [(CHAR, 1)])),
        force(("B", [(trooper("Foe", type="C"), 1)])),
        [(10, 5), (10, 20)],
    )
    s.figs[1].reserved = 0
    s = activate(s, 0)
    s.figs[0].moved = s.figs[1].moved = True
    s, _ = act(s, Attack(0, 0, 1), 0)
    d = WS.pending(s)[0]
    assert (d.player, d.kind) == (1, "reserve")
    # both roll 6+6 = 12 against 1+1: both die (L575)
    s, _ = act(s, ReserveFire(1, 0), 1, [6, 6, 1, 1, 6, 6, 1, 1])
    assert not s.figs[0].alive and not s.figs[1].alive
    assert s.phase == "over" and s.winner is None


def test_L585_example_arizona_lunges_one_inch() -> None:
    """Arizona (Mv 9") has his Very Long, Entangling bullwhip on reserve; Werner slips past:
    the move pauses where it passes, Arizona lunges 1" and lashes out; if Werner survives he
    is entangled and may not move on (L583, L1763)."""
    arizona = trooper(
        "Arizona Smith",
        type="C",
        mv='9"',
        weapons=[{"name": "Bullwhip", "av": "2k2", "tweaks": ["Very Long", "Entangling"]}],
    )
    werner = trooper("Werner", type="C", mv='18"')
    s = table(force(("A", [(arizona, 1)])), force(("W", [(werner, 1)])), [(10, 10), (14.5, 2)])
    s.figs[0].reserved = 0
    s = activate(s, 1)
    s, ev = act(s, Move(1, 14.5, 20), 1)  # passes 3.5" from Arizona's base: whip 3" + lunge 1"
    assert any(e.kind == "pause" for e in ev)
    assert (s.figs[1].x, s.figs[1].y) == (14.5, 10)
    d = WS.pending(s)[0]
    assert d.kind == "reserve" and d.default == ReserveFire(0, 1, lunge=True)
    s, ev = act(s, ReserveFire(0, 1, lunge=True), 0, [1, 1, 1, 1])  # the whip fails...
    assert any(e.kind == "lunge" for e in ev) and s.figs[0].x == 11
    assert s.figs[1].entangled_by is None or (s.figs[1].x, s.figs[1].y) == (14.5, 10)
    short = trooper("Smith", type="C", mv='9"', weapons=[{"name": "Whip", "av": "2k2"}])
    s = table(force(("A", [(short, 1)])), force(("W", [(werner, 1)])), [(10, 10), (12.5, 2)])
    s.figs[0].reserved = 0
    s = activate(s, 1)
    s, _ = act(s, Move(1, 12.5, 20), 1)  # 1.5" between bases: out of a 1" lunge
    assert WS.pending(s)[0].kind == "action" and (s.figs[1].x, s.figs[1].y) == (12.5, 20)


def test_L1439_no_pass_for_a_trigger_happy_figure() -> None:
    happy = trooper("Happy", type="C", tweaks=["Trigger Happy"])
    fast = trooper("Foe", type="C", mv='15"')
    s = table(force(("A", [(happy, 1)])), force(("B", [(fast, 1)])), [(10, 5), (10, 40)])
    s.figs[0].reserved = 0
    s = activate(s, 1)
    s, _ = act(s, Move(1, 10, 28), 1)
    refusal = WS.check(s, Pass(), 0)
    assert refusal is not None and refusal.rule.endswith("L1439")


def _squad(n: int, tweaks: list[str] | None = None) -> dict[str, object]:
    sarge = trooper("Sarge", type="E", cr='6"', mn="3k2")
    return force(
        ("Squad", [(sarge, 1), (trooper(), n - 1)]), tweaks={0: tweaks} if tweaks else None
    )


def _rout(s: object, faces: list[int]) -> list[str]:
    ev: list[object] = []
    rout_step(s, ctx_of(s), ScriptedDice(faces), ev)  # type: ignore[arg-type]
    return [e.text for e in ev]  # type: ignore[attr-defined]


def test_L609_half_lost_and_a_loss_this_turn_forces_a_rout_test() -> None:
    s = table(
        _squad(4), force(("Foe", [(CHAR, 1)])), [(10, 5), (11, 5), (12, 5), (13, 5), (10, 40)]
    )
    for i in (2, 3):
        s.figs[i].alive = False
    s.units[0].lost_this_turn = 1
    texts = _rout(s, [6, 4, 1])  # Mental 3k2: 10 holds
    assert any("holds" in t for t in texts)
    texts = _rout(s, [6, 3, 1])  # 9 routs
    assert any("routs" in t for t in texts) and not s.figs[0].alive and s.vp[1] > 0


def test_L611_a_lone_trooper_routs_automatically_unless_sole_survivor() -> None:
    s = table(_squad(3), force(("Foe", [(CHAR, 1)])), [(10, 5), (11, 5), (12, 5), (10, 40)])
    s.figs[0].alive = s.figs[1].alive = False
    _rout(s, [])
    assert s.figs[2].routed and s.units[0].gone
    lone = trooper("Last Man", tweaks=["Sole Survivor"])
    s = table(
        force(("Squad", [(lone, 3)])),
        force(("Foe", [(CHAR, 1)])),
        [(10, 5), (11, 5), (12, 5), (10, 40)],
    )
    s.figs[0].alive = s.figs[1].alive = False
    s.units[0].lost_this_turn = 2
    _rout(s, [6, 6, 1])
    assert s.figs[2].alive  # tests normally and holds with 12


def test_L615_uncontrolled_figures_may_rout_while_controlled_ones_hold() -> None:
    s = table(
        _squad(4), force(("Foe", [(CHAR, 1)])), [(10, 5), (11, 5), (40, 5), (13, 5), (10, 40)]
    )
    s.figs[3].alive = False
    s.figs[2].controlled = False
    s.units[0].lost_this_turn = 2
    s.units[0].start_size = 6
    _rout(s, [6, 4, 1])  # 10 for the controlled, 9 for the uncontrolled
    assert s.figs[0].alive and s.figs[1].alive and s.figs[2].routed


def test_L615_characters_alone_are_never_tested_for_casualties() -> None:
    s = table(force(("Hero", [(CHAR, 1)])), force(("Foe", [(CHAR, 1)])), [(10, 5), (10, 40)])
    s.units[0].lost_this_turn = 1
    assert _rout(s, []) == []


def test_L619_last_force_standing_wins() -> None:
    s = table(
        force(("A", [(CHAR, 1)])), force(("B", [(trooper("Foe", type="C"), 1)])), [(10, 5), (10, 6)]
    )
    s = activate(s, 0)
    s.figs[0].moved = s.figs[1].moved = True
    s, _ = act(s, Attack(0, 1, 1), 0, [6, 1, 1])
    assert s.phase == "over" and s.winner == 0 and "last force" in s.reason


def test_L623_victory_points_and_the_250_point_margin() -> None:
    f = force(("A", [(CHAR, 1)]), ("B", [(CHAR, 1)]))
    s = table(f, f, [(10, 5), (20, 5), (10, 40), (20, 40)], options={"turns": 1})
    ctx = ctx_of(s)
    assert scores(s, ctx) == [250, 250]  # 250 each for playing at all (L631)
    from warbench.rulesets.warengine.game.resolution import destroy

    destroy(s, ctx, s.figs[2], s.figs[0], [], "destroyed")
    pts = ctx.profiles[2].points
    assert scores(s, ctx) == [250 + pts + 100, 250]  # its value + 100 for the unit (L623)
    over = end_of_turn(s, ctx, [])
    assert over and (s.winner == 0) == (pts + 100 > 250)


def test_L629_table_quarters_need_250_more_points() -> None:
    big = trooper("Titan", type="C", df="6k5", mn="5k5", hero_points=10)
    s = table(
        force(("A", [(big, 1)])),
        force(("B", [(CHAR, 1)])),
        [(5, 5), (40, 40)],
        options={"quarters": True},
    )
    ctx = ctx_of(s)
    from warbench.rulesets.warengine.game.victory import objective_points

    gap = ctx.profiles[0].points
    assert objective_points(s, ctx)[0] == (250 if gap >= 250 else 0)
    assert objective_points(s, ctx)[1] == (250 if ctx.profiles[1].points >= 250 else 0)


def test_L627_terrain_objectives_held_by_only_your_figures() -> None:
    hill = {"name": "Hill", "rect": [0, 0, 20, 20]}
    s = table(
        force(("A", [(CHAR, 1)])),
        force(("B", [(CHAR, 1)])),
        [(5, 5), (40, 40)],
        terrain=(hill,),
        options={"objectives": ["Hill"]},
    )
    from warbench.rulesets.warengine.game.victory import objective_points

    assert objective_points(s, ctx_of(s)) == [250, 0]
    s.figs[1].x, s.figs[1].y = 15, 15
    assert objective_points(s, ctx_of(s)) == [0, 0]
