"""The Hero Points and reserved-attack questions in a player's words (issue 10, session 39,
s39-we; 004_f4ea5693af0644ce.txt L471, L489-L497, L569-L585).

Session 38 asked "spend Hero Points (0 to 8) for WarpEyes #0" (whose roll? the attack or the
defense? how many change the result?) and "use a reserved attack now?" under L577 for both
windows, each reserved-attack choice citing L575 and not naming its weapon. The prompts now
say whose roll it is, the two rolls, the points that change the result (the book's worked
examples, L495 and L497), what the enemy did that opened the reserve window and the rule of
that window. The engine's choices (the defaults) are unchanged."""

from __future__ import annotations

from typing import Any

from warbench.rulesets.warengine.game.state import (
    Attack,
    Deactivate,
    Hero,
    Move,
    Reserve,
    ReserveFire,
    Surge,
)
from warbench.rulesets.warengine.game.words import describe

from .helpers import WS, act, activate, ctx_of, force, table, trooper


def _wright_shot() -> Any:
    """L495: the Green Alien Warrior's Earthshaker Cannon (5k4) rolls 20 at Lt. Wright
    (Df 4k4, 10 Hero Points), who rolls 13."""
    alien = trooper(
        "Green Alien Warrior",
        type="C",
        weapons=[{"name": "Earthshaker Cannon", "range": '24"', "av": "5k4"}],
    )
    wright = trooper("Lt. Wright", type="C", df="4k4", hero_points=10)
    s = table(force(("A", [(alien, 1)])), force(("B", [(wright, 1)])), [(10, 5), (10, 20)])
    s = activate(s, 0)
    s.figs[0].moved = s.figs[1].moved = True
    s, _ = act(s, Attack(0, 0, 1), 0, [6, 6, 5, 3, 2, 6, 4, 2, 1])
    return s


def test_L495_the_defender_is_told_the_rolls_and_that_7_points_save_it() -> None:
    (d,) = WS.pending(_wright_shot())
    assert (d.player, d.kind, d.default, d.rule[-4:]) == (1, "hero", Hero(7), "L493")
    assert d.prompt == (
        "Spend Hero Points on your Lt. Wright #1's defense roll? (0 to 10)\n"
        "The enemy's Green Alien Warrior #0 attacks it with its Earthshaker Cannon: 20 beats "
        "its defense roll of 13 (L493). 7 Hero Points raise it to 20, a tie, and it survives "
        "(L471); fewer and it is destroyed."
    )


def _digit_strikes() -> Any:
    """L497: Commander Di'Git (8 Hero Points, Assault Blade 4k4) rolls 13 at Lt. Wright
    (3 Hero Points left), who rolls 15."""
    digit = trooper(
        "Commander Di'Git",
        type="C",
        hero_points=8,
        weapons=[{"name": "Assault Blade", "av": "4k4"}],
    )
    wright = trooper("Lt. Wright", type="C", df="4k4", hero_points=3)
    s = table(force(("A", [(digit, 1)])), force(("B", [(wright, 1)])), [(10, 5), (10, 6)])
    s = activate(s, 0)
    s, _ = act(s, Attack(0, 0, 1), 0, [4, 3, 3, 3, 6, 4, 3, 2])
    return s


def test_L497_the_attacker_is_told_6_points_make_the_kill_certain() -> None:
    (d,) = WS.pending(_digit_strikes())
    assert (d.player, d.kind, d.default) == (0, "hero", Hero(6))
    assert d.prompt == (
        "Spend Hero Points on your Commander Di'Git #0's attack roll? (0 to 8)\n"
        "It rolled 13 with its Assault Blade against the enemy's Lt. Wright #1's defense roll "
        "of 15; you spend first, then the defender (L493). 3 Hero Points make it 16, more "
        "than 15; Lt. Wright #1 can raise its roll by 3 with its Hero Points, so 6 Hero "
        "Points make the kill certain."
    )


def test_L497_lt_wright_is_told_3_points_cannot_reach_19() -> None:
    s, _ = act(_digit_strikes(), Hero(6), 0)
    (d,) = WS.pending(s)
    assert (d.player, d.kind, d.default) == (1, "hero", Hero(0))
    assert d.prompt == (
        "Spend Hero Points on your Lt. Wright #1's defense roll? (0 to 3)\n"
        "The enemy's Commander Di'Git #0 attacks it with its Assault Blade: 19 (13 rolled + 6 "
        "Hero Points) beats its defense roll of 15 (L493). It needs 4 to survive and can "
        "raise its roll by only 3: it is destroyed whatever it spends."
    )


def test_L1015_adrenal_overload_halves_the_raises_in_words() -> None:
    s = _wright_shot()
    s.figs[1].bonus["adrenal"] = 1  # 10 Hero Points buy 5 raises (L1015)
    (d,) = WS.pending(s)
    assert d.prompt.startswith(
        "Spend Hero Points on your Lt. Wright #1's defense roll? (raise it by 0 to 5, two Hero "
        "Points a raise, L1015)\n"
    )
    assert d.prompt.endswith(
        "It needs 7 to survive and can raise its roll by only 5 (each raise costs two Hero "
        "Points under Adrenal Overload, L1015): it is destroyed whatever it spends."
    )


def test_L1015_adrenal_overload_counts_raises_and_their_points_for_the_defender() -> None:
    """The review's probe (s39-fixwe): with 20 Hero Points under Adrenal Overload Lt. Wright
    may raise its roll by 0 to 10, and surviving the 20 takes 7 raises, 14 points (L1015).
    Session 39's s39-we words said "(0 to 10)" and "7 Hero Points raise it to 20"."""
    s = _wright_shot()
    s.figs[1].bonus["adrenal"] = 1
    s.figs[1].hero = 20
    (d,) = WS.pending(s)
    assert d.prompt == (
        "Spend Hero Points on your Lt. Wright #1's defense roll? (raise it by 0 to 10, two "
        "Hero Points a raise, L1015)\n"
        "The enemy's Green Alien Warrior #0 attacks it with its Earthshaker Cannon: 20 beats "
        "its defense roll of 13 (L493). 7 raises (14 Hero Points) make it 20, a tie, and it "
        "survives (L471); fewer and it is destroyed."
    )
    s, _ = act(s, Hero(7), 1)
    assert s.figs[1].hero == 6  # the words' 14 points are what the raises cost


def test_L1015_the_attacker_counts_its_own_points_and_the_adrenal_defenders_raises() -> None:
    """The attacker's side under an Adrenal Overload defender (L1015 halves only a Defense
    roll's raises): Di'Git's points are one a raise, Lt. Wright's 3 points buy 1 raise, so 3 + 1
    = 4 points make the kill certain."""
    s = _digit_strikes()
    s.figs[1].bonus["adrenal"] = 1
    (d,) = WS.pending(s)
    assert d.prompt == (
        "Spend Hero Points on your Commander Di'Git #0's attack roll? (0 to 8)\n"
        "It rolled 13 with its Assault Blade against the enemy's Lt. Wright #1's defense roll "
        "of 15; you spend first, then the defender (L493). 3 Hero Points make it 16, more "
        "than 15; Lt. Wright #1 can raise its roll by 1 with its Hero Points (two a raise "
        "under Adrenal Overload, L1015), so 4 Hero Points make the kill certain."
    )


CHAR = trooper("Gunslinger", type="C")


def test_L575_the_counter_window_says_what_attacks_whom_and_cites_L575() -> None:
    s = table(
        force(("A", [(CHAR, 1)])),
        force(("B", [(trooper("Foe", type="C"), 1)])),
        [(10, 5), (10, 20)],
    )
    s.figs[1].reserved = 0
    s = activate(s, 0)
    s.figs[0].moved = s.figs[1].moved = True
    s, _ = act(s, Attack(0, 0, 1), 0)
    (d,) = WS.pending(s)
    assert (d.player, d.kind, d.rule[-4:]) == (1, "reserve", "L575")
    assert d.prompt == (
        "Answer with your Foe #1's reserved Rifle?\n"
        "The enemy's Gunslinger #0 attacks it with its Rifle. The two attacks are "
        "simultaneous, so both may be destroyed; it is now or never (L575)."
    )
    view = WS.views.dump(WS.view(s, 1))
    said = describe(ctx_of(s), view, WS.actions.dump(ReserveFire(1, 0)))
    assert said == "Foe #1 uses its reserved Rifle on Gunslinger #0"


def test_L577_the_move_window_names_the_mover_and_its_place() -> None:
    fast = trooper("Foe", type="C", mv='15"')
    happy = trooper("Happy", type="C", tweaks=["Trigger Happy"])
    s = table(force(("A", [(CHAR, 1)])), force(("B", [(fast, 1)])), [(10, 5), (10, 40)])
    s.figs[0].reserved = 0
    s = activate(s, 1)
    s, _ = act(s, Move(1, 10, 28), 1)
    (d,) = WS.pending(s)
    assert (d.player, d.kind, d.default, d.rule[-4:]) == (0, "reserve", ReserveFire(0, 1), "L577")
    assert d.prompt == (
        "Use a reserved attack on the enemy's Foe #1 or its unit?\n"
        'It moved to (10", 28"). A reserved attack may hit it or another figure of its unit, '
        "the unit that is activating, in sight and range (L577)."
    )
    view = WS.views.dump(WS.view(s, 0))
    said = describe(ctx_of(s), view, WS.actions.dump(d.default))
    assert said == "Gunslinger #0 uses its reserved Rifle on Foe #1"  # not "(L575)"
    # a Trigger Happy figure is told it must fire (L1439)
    s = table(force(("A", [(happy, 1)])), force(("B", [(fast, 1)])), [(10, 5), (10, 40)])
    s.figs[0].reserved = 0
    s = activate(s, 1)
    s, _ = act(s, Move(1, 10, 28), 1)
    assert WS.pending(s)[0].prompt.endswith("must fire at the first figure in its range and "
                                            "sight (L1439).")  # fmt: skip


def _reserved_then_other() -> Any:
    """L579: Gunslinger #0 reserved its Rifle; Gunslinger #1 of the same unit acts next."""
    gun = trooper("Gunslinger", type="T")
    s = table(
        force(("A", [(gun, 2)])),
        force(("B", [(trooper("Foe", type="C"), 1)])),
        [(10, 5), (12, 5), (10, 20)],
    )
    s = activate(s, 0)
    s.figs[0].moved = s.figs[1].moved = s.figs[2].moved = True
    s, _ = act(s, Reserve(0, 0), 0)
    return s


def test_L579_a_figure_uses_its_reserve_in_its_own_units_activation() -> None:
    """ "You can move a figure up and put it on reserve, move and attack with another figure
    ... then use the first figure's reserve fire" (L579): the reserved Rifle is a listed
    choice in words, allowed, and spends the marker; the figure's other weapon stays refused
    (L573), the refusal saying what it may still do. The engine's choice is unchanged."""
    s = _reserved_then_other()
    own = Attack(0, 0, 2)
    assert own in list(WS.legal_actions(s, 0)) and WS.check(s, own, 0) is None
    assert WS.pending(s)[0].default == Attack(1, 0, 2, (0,))  # a Massed Attack, as before
    view = WS.views.dump(WS.view(s, 0))
    assert describe(ctx_of(s), view, WS.actions.dump(own)) == (
        "Gunslinger #0 uses its reserved Rifle now on Foe #2 (its own unit's activation, L579)"
    )
    knife = WS.check(s, Attack(0, 1, 2), 0)
    assert knife is not None and knife.rule.endswith("L573")
    assert knife.reason.endswith("it may still use its reserved Rifle (L579)")
    s, ev = act(s, own, 0, [1, 1, 6, 6])  # 2 against 12: the Foe survives
    assert any(e.kind == "attack roll" for e in ev) and s.figs[2].alive
    assert s.figs[0].reserved is None  # the marker is used (L573)
    again = WS.check(s, own, 0)
    assert again is not None and again.rule.endswith("L573")
    assert own not in list(WS.legal_actions(s, 0))


def test_L577_a_reserve_is_not_an_action_in_an_enemy_activation() -> None:
    """Outside its own unit's activation a reserve answers only through the ``reserve``
    decision (L577): an Attack by it is refused."""
    s = _reserved_then_other()
    s, _ = act(s, Deactivate(), 0)
    assert WS.check(s, Attack(0, 0, 2), 0) is not None


def test_a_move_choice_says_its_point_to_a_tenth_as_the_log_does() -> None:
    """The terminal listed "WarpEyes #0 moves to (17", 20.501")" and the log then said
    "(17", 20.5")" (session 39's walk): the choice reads as the log does."""
    s = _reserved_then_other()
    view = WS.views.dump(WS.view(s, 0))
    said = describe(ctx_of(s), view, WS.actions.dump(Move(1, 17.0, 20.501)))
    assert said == 'Gunslinger #1 moves to (17", 20.5")'


def test_L1135_invigorates_hero_points_buy_movement_an_inch_each() -> None:
    """Invigorate: "These Hero Points may also be used to increase the figure's movement by
    1" per Hero Point expended" (L1135). Session 38 did not offer it (docs/rulings.md ruling
    26): a ``Surge`` is now a listed choice of the Invigorated figure's own activation, checked
    (only the six points Invigorate gave, L1135) and worded; the engine's choice never takes
    it."""
    from warbench.kernel.dice import ScriptedDice
    from warbench.rulesets.warengine.game import movement as mov
    from warbench.rulesets.warengine.game.followup import follow_up

    from .test_we_game_effects import _power

    s = _power("Invigorate", True, [6, 6, 1, 1])
    assert s.figs[1].hero == 7  # its own 1 and Invigorate's 6
    assert not [a for a in WS.legal_actions(s, 0) if isinstance(a, Surge)]  # not its activation
    s = activate(s, 1)
    ctx = ctx_of(s)
    pal = s.figs[1]
    assert [a for a in WS.legal_actions(s, 0) if isinstance(a, Surge)] == [
        Surge(1, k) for k in range(1, 7)
    ]
    assert not isinstance(WS.pending(s)[0].default, Surge)
    too_many = WS.check(s, Surge(1, 7), 0)
    assert too_many is not None and too_many.rule.endswith("L1135")
    assert "1 to 6" in too_many.reason
    base = mov.allowance(s, ctx, pal, "move")
    far = Move(1, pal.x, pal.y + base + 2)
    assert WS.check(s, far, 0) is not None  # 2" beyond its Movement
    view = WS.views.dump(WS.view(s, 0))
    assert describe(ctx, view, WS.actions.dump(Surge(1, 2))) == (
        "Pal #1 spends 2 of Invigorate's Hero Points on 2\" more movement (L1135)"
    )
    s, ev = act(s, Surge(1, 2), 0)
    assert s.figs[1].hero == 5 and [e.rule[-5:] for e in ev] == ["L1135"]
    assert mov.allowance(s, ctx, s.figs[1], "move") == base + 2
    assert WS.check(s, far, 0) is None
    assert [a for a in WS.legal_actions(s, 0) if isinstance(a, Surge)][-1] == Surge(1, 4)
    follow_up(s, ctx, ScriptedDice([]), [])  # the rest is lost, the inches end (L1135)
    assert s.figs[1].hero == 1 and "surge" not in s.figs[1].bonus


def test_L1015_a_hero_choice_says_the_raise_not_a_cost_adrenal_overload_doubles() -> None:
    """``Hero(3)`` raises the roll by 3; under Adrenal Overload it costs six points (L1015).
    Its label said "Spend 3 Hero Points on this roll" (six spent); it now says the raise."""
    s = _wright_shot()
    s.figs[1].bonus["adrenal"] = 1
    view = WS.views.dump(WS.view(s, 1))
    said = describe(ctx_of(s), view, WS.actions.dump(Hero(3)))
    assert said == "Spend Hero Points to raise this roll by 3"
    s, _ = act(s, Hero(3), 1)
    assert s.figs[1].hero == 10 - 6  # the raise of 3 cost six
