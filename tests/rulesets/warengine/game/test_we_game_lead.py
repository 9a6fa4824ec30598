"""The WarEngine 2.1 tweaks and powers of session 25's lead lane, each played in a game with
its source line (004_f4ea5693af0644ce.txt): Summoning (L1277) and Summoned (L1431)."""

from __future__ import annotations

from typing import Any

from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warengine.game.followup import follow_up
from warbench.rulesets.warengine.game.measure import gap
from warbench.rulesets.warengine.game.resolution import destroy
from warbench.rulesets.warengine.game.state import Attack, GameState, Roll
from warbench.rulesets.warengine.game.victory import last_standing

from .helpers import WS, act, activate, ctx_of, force, table, trooper


def C(name: str = "Hero", **kw: Any) -> dict[str, Any]:
    """A character (always controlled)."""
    return trooper(name, type="C", **kw)


def summoner(cr: str = '6"') -> dict[str, Any]:
    return C(
        "Conjurer",
        mn="4k3",
        cr=cr,
        weapons=[{"name": "Summoning", "range": '12"', "av": "4k4", "power": "Summoning"}],
    )


def _imp(name: str = "Imp", **kw: Any) -> dict[str, Any]:
    return trooper(name, tweaks=["Summoned"], **kw)


def _summoning_table(cr: str = '6"', imps: int = 2) -> GameState:
    """Player 0: the Conjurer (fig 0) and ``imps`` Summoned Imps (figs 1..); player 1: a
    character far away. The Imps wait off the table, as the set-up leaves them."""
    s = table(
        force(("Conjurer", [(summoner(cr), 1)]), ("Imps", [(_imp(), imps)])),
        force(("B", [(C(), 1)])),
        [(20, 10)] + [(0, 0)] * imps + [(20, 40)],
    )
    for i in range(1, imps + 1):
        s.figs[i].placed = False
        s.figs[i].x = s.figs[i].y = -1.0
    return activate(s, 0)


def test_summoned_L1431_figures_are_bought_but_not_deployed() -> None:
    imp = _imp()
    s = WS.setup(
        (force(("Conjurer", [(summoner(), 1)]), ("Imps", [(imp, 2)])), force(("B", [(C(), 1)]))),
        {"name": "open", "width": 48, "height": 48, "terrain": []},
        {"builder_limits": False},
        0,
    )
    ctx = ctx_of(s)
    # Imps (Mv 6") and the Conjurer (Mv 6") share a Movement: only the Conjurer is placed
    from warbench.rulesets.warengine.game.setup import group_figs

    while s.phase == "placement":
        d = WS.pending(s)[0]
        action = d.default if d.default is not None else Roll(0)  # chance: a roll-off
        s, _ = WS.apply(s, action, d.player, ScriptedDice([3, 4] * 20))
        if s.phase == "placement":
            assert not {1, 2} & set(group_figs(s, ctx))
    assert s.figs[0].placed and s.figs[3].placed
    assert not s.figs[1].placed and not s.figs[2].placed and s.figs[1].alive


def test_summoning_L1277_deploys_the_pick_in_the_follow_up_step() -> None:
    s = _summoning_table()
    ctx = ctx_of(s)
    # the user is the target; the pick is the Attack's via (the engine's: the first Imp)
    assert WS.check(s, Attack(0, 0, 3), 0) is not None  # not on an enemy
    assert WS.check(s, Attack(0, 0, 0, via=2), 0) is None
    assert WS.check(s, Attack(0, 0, 0, via=3), 0) is not None  # not a Summoned figure
    legal = WS.legal_actions(s, 0)
    assert Attack(0, 0, 0, via=1) in legal and Attack(0, 0, 0, via=2) in legal
    s, ev = act(s, Attack(0, 0, 0, via=2), 0, [6, 6, 6, 6])
    assert "summons Imp #2" in " ".join(e.text for e in ev)
    assert not s.figs[2].placed  # not until the Follow Up step (L1279)
    events: list[Any] = []
    follow_up(s, ctx, ScriptedDice([]), events)
    imp = s.figs[2]
    assert imp.placed and not s.figs[1].placed
    assert gap(ctx, s.figs[0], imp) <= 6.0 + 1e-9  # within the Control Radius
    assert any(e.rule.endswith("L1279") for e in events)


def test_summoning_L1279_named_point_and_base_contact_without_control_radius() -> None:
    s = _summoning_table()
    assert WS.check(s, Attack(0, 0, 0, via=1, at=(20.0, 30.0)), 0) is not None  # beyond CR
    s, _ = act(s, Attack(0, 0, 0, via=1, at=(24.0, 13.0)), 0, [6, 6, 6, 6])
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    assert (s.figs[1].x, s.figs[1].y) == (24.0, 13.0)
    # a user without a Control Radius: the figure arrives in base-to-base contact
    s = _summoning_table(cr='0"', imps=1)
    s, _ = act(s, Attack(0, 0, 0), 0, [6, 6, 6, 6])
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    assert s.figs[1].placed and abs(gap(ctx_of(s), s.figs[0], s.figs[1])) <= 0.01


def test_summoning_L1279_fails_below_ten_and_needs_the_user_in_play() -> None:
    s = _summoning_table()
    failed, ev = act(s, Attack(0, 0, 0), 0, [1, 1, 1, 1])
    assert "failure" in ev[-1].text and not any("summon" in f.bonus for f in failed.figs)
    s, _ = act(s, Attack(0, 0, 0), 0, [6, 6, 6, 6])
    destroy(s, ctx_of(s), s.figs[0], s.figs[3], [], "destroyed")
    events: list[Any] = []
    follow_up(s, ctx_of(s), ScriptedDice([]), events)
    assert not s.figs[1].placed and "summoner is gone" in " ".join(e.text for e in events)


def test_summoning_L1277_refused_with_no_summoned_figure_left() -> None:
    s = _summoning_table(imps=1)
    s, _ = act(s, Attack(0, 0, 0), 0, [6, 6, 6, 6])
    s.figs[0].fired = []  # a second use this activation would be refused anyway: look past it
    why = WS.check(s, Attack(0, 0, 0), 0)
    assert why is not None and "Summoned figure" in why.reason


def test_summoned_L1279_figures_waiting_are_not_in_play_for_last_force_standing() -> None:
    s = _summoning_table(imps=1)
    destroy(s, ctx_of(s), s.figs[0], s.figs[2], [], "destroyed")
    assert last_standing(s, []) and s.winner == 1  # the waiting Imp does not keep it alive


#: The tweaks and powers this file plays (test_we_game_effects checks the whole book is covered).
LANE_EFFECT_TESTS = {
    ("personal", "Summoned"): test_summoned_L1431_figures_are_bought_but_not_deployed,
    ("power", "Summoning"): test_summoning_L1277_deploys_the_pick_in_the_follow_up_step,
}
