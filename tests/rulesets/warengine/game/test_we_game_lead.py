"""The WarEngine 2.1 tweaks and powers of session 25's lead lane, each played in a game with
its source line (004_f4ea5693af0644ce.txt): Summoning (L1277) and Summoned (L1431); figures
changing sides: Control (L1055), Actuate Casualty (L1007), Sudden Conversion (L1265); the
faction powers Expunge Nanites (L1085) and System Reset (L1289); Rally (L1183) in the Rout
step."""

from __future__ import annotations

from typing import Any

from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warengine.dice import XkY
from warbench.rulesets.warengine.game.activation import can_activate
from warbench.rulesets.warengine.game.attacks import defense_pool
from warbench.rulesets.warengine.game.followup import follow_up
from warbench.rulesets.warengine.game.measure import gap
from warbench.rulesets.warengine.game.resolution import destroy
from warbench.rulesets.warengine.game.rout import rout_step
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


# ------------------------------------------------------------------------- figures changing sides


def P(power: str, rng: str = '24"', **kw: Any) -> dict[str, Any]:
    """A mystic character with one power (and a knife)."""
    return C(
        "Mystic",
        mn="4k3",
        cr='6"',
        weapons=[
            {"name": "Knife", "av": "1k1"},
            {"name": power, "range": rng, "av": "4k4", "power": power},
        ],
        **kw,
    )


def _control_table() -> GameState:
    """Player 0: the Mystic (fig 0); player 1: a squad of two (figs 1, 2) and a character."""
    s = table(
        force(("Mystic", [(P("Control"), 1)])),
        force(("Squad", [(trooper(), 2)]), ("Boss", [(C("Boss"), 1)])),
        [(10, 5), (10, 20), (12, 20), (30, 40)],
    )
    return activate(s, 0)


def test_control_L1055_the_user_controls_the_figure_for_the_rest_of_the_turn() -> None:
    s = _control_table()
    ctx = ctx_of(s)
    assert WS.check(s, Attack(0, 1, 1), 0) is None
    s, ev = act(s, Attack(0, 1, 1), 0, [6, 6, 6, 6, 1, 1, 1])  # 24 against Mental 3k2
    f = s.figs[1]
    assert f.side == 0 and f.unit == len(s.units) - 1 and s.units[f.unit].side == 0
    assert s.units[1].figs == [2]  # it left its squad for the turn
    assert can_activate(s, ctx, f.unit, 0)  # its squad has not activated: player 0 may
    assert any(e.rule.endswith("L1057") for e in ev)
    follow_up(s, ctx, ScriptedDice([]), [])
    assert f.side == 1 and f.unit == 1 and s.units[1].figs == [1, 2]


def test_control_L1057_no_extra_activation_and_its_loss_is_its_owners() -> None:
    s = _control_table()
    s.units[1].activated = True  # the squad has activated this turn
    s, _ = act(s, Attack(0, 1, 1), 0, [6, 6, 6, 6, 1, 1, 1])
    ctx = ctx_of(s)
    assert not can_activate(s, ctx, s.figs[1].unit, 0)
    before = list(s.vp)
    destroy(s, ctx, s.figs[1], s.figs[0], [], "destroyed")
    assert s.vp[0] == before[0] + ctx.profiles[1].points and s.vp[1] == before[1]
    # resisted: Mental 3k2 of 18 beats a roll of 4
    s2, ev = act(_control_table(), Attack(0, 1, 1), 0, [1, 1, 1, 1, 6, 6, 6])
    assert s2.figs[1].side == 1 and "failure" in ev[-1].text


def _actuate_table() -> GameState:
    """Player 0: the Mystic (fig 0, CR 6") beside a squad led by a Sergeant with a 6" Control
    Radius (figs 1, 2); player 1: a
    trooper in base contact with the Mystic (fig 3) and one far away (fig 4)."""
    s = table(
        force(
            ("Mystic", [(P("Actuate Casualty", rng="-"), 1)]),
            ("Squad", [(trooper("Sergeant", type="E", cr='6"'), 1), (trooper(), 1)]),
        ),
        force(("Foe", [(trooper("Foe"), 1)]), ("Far", [(trooper("Far"), 1)])),
        [(10, 10), (14, 10), (15, 10), (10, 11), (40, 40)],
    )
    return activate(s, 0)


def _kill(s: GameState, victim: int, killer: int = 0) -> None:
    destroy(s, ctx_of(s), s.figs[victim], s.figs[killer], [], "destroyed")
    s.figs[killer].attacked = True


def test_actuate_casualty_L1009_the_corpse_becomes_a_field_actuated_trooper() -> None:
    s = _actuate_table()
    ctx = ctx_of(s)
    why = WS.check(s, Attack(0, 1, 3), 0)
    assert why is not None and "just destroyed" in why.reason  # nobody destroyed yet
    _kill(s, 3)
    assert WS.check(s, Attack(0, 1, 3), 0) is None
    assert Attack(0, 1, 3) in WS.legal_actions(s, 0)
    s, ev = act(s, Attack(0, 1, 3), 0, [6, 6, 6, 6])  # 10 or more: the dead do not resist
    assert "24 (needs 10)" in ev[0].text
    fat = s.figs[3]
    assert fat.alive and fat.side == 0 and "fat" in fat.bonus
    pool, _, why = defense_pool(s, ctx, s.figs[4], ctx.profiles[4].weapons[0], fat)
    assert pool == XkY(1, 1) and "actuated corpse" in why[0]  # vulnerable to its former friends
    follow_up(s, ctx, ScriptedDice([]), [])
    # the Mystic acts alone: the F.A.T. joins the squad whose leader has it within 6"
    assert fat.alive and fat.unit == 1 and 3 in s.units[1].figs and "fat" not in fat.bonus


def test_actuate_casualty_L1009_removed_when_the_user_leaves_or_the_roll_fails() -> None:
    s = _actuate_table()
    _kill(s, 3)
    failed, _ = act(s, Attack(0, 1, 3), 0, [1, 1, 1, 1])
    assert not failed.figs[3].alive
    s, _ = act(s, Attack(0, 1, 3), 0, [6, 6, 6, 6])
    s.figs[0].x = 20.0  # the user does not stay in base contact
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    assert not s.figs[3].alive
    # a corpse out of reach, or not the user's latest kill, is refused
    s = _actuate_table()
    _kill(s, 4)
    why = WS.check(s, Attack(0, 1, 4), 0)
    assert why is not None and "base-to-base" in why.reason


def _faction_force(faction: str, unit_faction: str | None = None) -> dict[str, Any]:
    f = force(("Gang", [(trooper("Mutie"), 2)]))
    f["faction"] = faction
    if unit_faction:
        f["units"][0]["faction"] = unit_faction
    return f


def test_expunge_nanites_L1087_destroys_a_mutant_and_blasts_within_3_inches() -> None:
    s = table(
        force(("Mystic", [(P("Expunge Nanites"), 1)])),
        _faction_force("Mutant"),
        [(10, 5), (10, 20), (12, 20)],
    )
    s = activate(s, 0)
    s, ev = act(s, Attack(0, 1, 1), 0, [6, 6, 6, 6, 1, 1, 1] + [6, 6, 6, 1, 1, 1])
    assert not s.figs[1].alive
    blasts = [e for e in ev if e.kind == "nanites"]
    assert len(blasts) == 1 and "3k2" in blasts[0].text  # the neighbour 1" away; a Mutant
    assert s.figs[2].alive or s.queue == []
    # DeadTech: shrapnel, 3k3; a figure of no such faction may not be targeted
    s = table(
        force(("Mystic", [(P("Expunge Nanites"), 1)])),
        _faction_force("DeadTech"),
        [(10, 5), (10, 20), (12, 20)],
    )
    s = activate(s, 0)
    _, ev = act(s, Attack(0, 1, 1), 0, [6, 6, 6, 6, 1, 1, 1] + [6, 6, 6, 1, 1, 1])
    assert "3k3" in next(e.text for e in ev if e.kind == "nanites")
    s = table(
        force(("Mystic", [(P("Expunge Nanites"), 1)])),
        _faction_force("MegaCom"),
        [(10, 5), (10, 20), (12, 20)],
    )
    why = WS.check(activate(s, 0), Attack(0, 1, 1), 0)
    assert why is not None and "Mutant or DeadTech" in why.reason


def test_sudden_conversion_L1267_a_brethren_figure_joins_the_users_force() -> None:
    s = table(
        force(("Mystic", [(P("Sudden Conversion"), 1)]), ("Cell", [(trooper("Laity"), 2)])),
        _faction_force("Brethren"),
        [(10, 5), (20, 22), (21, 22), (10, 20), (12, 20)],
    )
    s = activate(s, 0)
    assert WS.check(s, Attack(0, 1, 3), 0) is None
    s, _ = act(s, Attack(0, 1, 3), 0, [6, 6, 6, 6, 1, 1, 1])
    t = s.figs[3]
    assert t.side == 0 and t.unit == 1 and s.units[1].figs == [1, 2, 3]  # the closest cell
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    assert t.side == 0  # for good
    s = table(
        force(("Mystic", [(P("Sudden Conversion"), 1)])),
        _faction_force("Mutant"),
        [(10, 5), (10, 20), (12, 20)],
    )
    assert WS.check(activate(s, 0), Attack(0, 1, 1), 0) is not None


def test_system_reset_L1291_reserves_lost_rout_passed_and_the_leader_upgraded() -> None:
    gunslinger = trooper("Gunslinger", type="E", cr='6"')
    gang = force(
        ("Mystic", [(P("System Reset"), 1)]), ("Outlaws", [(gunslinger, 1), (trooper("Outlaw"), 3)])
    )
    gang["faction"] = "DeadTech"
    gang["units"][1]["faction"] = "White Hat"
    s = table(
        gang, force(("B", [(C(), 1)])), [(10, 5), (14, 8), (16, 8), (17, 8), (18, 8), (30, 40)]
    )
    ctx = ctx_of(s)
    destroy(s, ctx, s.figs[1], s.figs[5], [], "destroyed")  # the Gunslinger falls
    s.figs[2].reserved = 0
    s = activate(s, 0)
    assert WS.check(s, Attack(0, 1, 2), 0) is None
    s, ev = act(s, Attack(0, 1, 2), 0, [6, 6, 1, 1])
    assert all(s.figs[i].reserved is None for i in (2, 3, 4))
    lead = s.figs[1]
    assert lead.alive and (lead.x, lead.y) == (16, 8) and s.units[1].leader == 1  # upgraded
    assert not s.figs[2].alive and not s.figs[2].placed  # the Outlaw left the table
    assert any(e.rule.endswith("L1291") for e in ev)
    s.units[1].must_test = True
    follow_up(s, ctx, ScriptedDice([]), [])
    events: list[Any] = []
    rout_step(s, ctx, ScriptedDice([1] * 9), events)  # a roll of ones would rout it
    assert all(s.figs[i].alive for i in (1, 3, 4)) and "passes" in " ".join(e.text for e in events)
    # not a DeadTech White Hat or Black Hat unit
    s2 = table(
        force(("Mystic", [(P("System Reset"), 1)]), ("Outlaws", [(trooper("Outlaw"), 2)])),
        force(("B", [(C(), 1)])),
        [(10, 5), (14, 8), (16, 8), (30, 40)],
    )
    assert WS.check(activate(s2, 0), Attack(0, 1, 1), 0) is not None


def test_rally_L1181_passes_the_rout_test_of_the_rout_step_after_the_follow_up() -> None:
    s = table(
        force(("A", [(P("Rally"), 1)]), ("Squad", [(trooper(), 2)])),
        force(("B", [(C(), 1)])),
        [(10, 5), (12, 5), (13, 5), (10, 40)],
    )
    s = activate(s, 0)
    s, _ = act(s, Attack(0, 1, 1), 0, [6, 6, 1, 1])
    s.units[1].must_test = True
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    events: list[Any] = []
    rout_step(s, ctx_of(s), ScriptedDice([1] * 9), events)
    assert s.figs[1].alive and s.figs[2].alive and "Rallied" in " ".join(e.text for e in events)


def test_summon_rain_storm_L1273_spares_vengequan_figures() -> None:
    storm = P("Summon Rain Storm")
    vq = force(("Vq", [(trooper("Vq"), 1)]))
    vq["faction"] = "Vengequan"
    s = table(
        force(("A", [(storm, 1)]), ("Them", [(trooper("Plain"), 1)])),
        vq,
        [(10, 5), (12, 20), (10, 20)],
    )
    s = activate(s, 0)
    s, _ = act(s, Attack(0, 1, 2), 0, [6, 6, 6, 6])
    assert "rained" in s.figs[1].bonus and "rained" not in s.figs[2].bonus


# ------------------------------------------------------------------- Astral Projection (L1021)


def _astral_table() -> GameState:
    """Player 0: the Astral (fig 0: Astral Projection 6", Rally; CR 4") and a pal (fig 1);
    player 1: a mystic with Terror (fig 2). Fig 3 is the Astral's projection, off the table."""
    astral = C(
        "Astral",
        mn="5k4",
        cr='4"',
        weapons=[
            {"name": "Knife", "av": "1k1"},
            {"name": "AP", "range": '6"', "av": "4k4", "power": "Astral Projection"},
            {"name": "Rally", "range": '12"', "av": "4k4", "power": "Rally"},
        ],
    )
    s = table(
        force(("Astral", [(astral, 1)]), ("Pal", [(C("Pal"), 1)])),
        force(("Foe", [(P("Terror"), 1)])),
        [(20, 10), (30, 10), (20, 30), (0, 0)],
    )
    p = s.figs[3]
    p.placed, p.alive, p.x, p.y = False, False, -1.0, -1.0
    return activate(s, 0)


def test_astral_projection_L1019_appears_within_the_control_radius_and_acts_with_the_unit() -> None:
    s = _astral_table()
    ctx = ctx_of(s)
    assert s.units[0].figs == [0, 3] and ctx.profiles[3].name == "Astral's projection"
    assert [w.name for w in ctx.profiles[3].weapons] == ["Rally"]  # powers only, not this one
    assert WS.check(s, Attack(0, 1, 1), 0) is not None  # on its user only
    s, ev = act(s, Attack(0, 1, 0), 0, [6, 6, 6, 6])
    p = s.figs[3]
    assert p.placed and p.alive and gap(ctx, s.figs[0], p) <= 4.0 + 1e-9
    assert any(e.rule.endswith("L1021") for e in ev)
    # one at a time; Special Powers may not affect it
    s.figs[0].fired = []
    why = WS.check(s, Attack(0, 1, 0), 0)
    assert why is not None and "no projection active" in why.reason
    foe = ctx.profiles[2].weapons[1]
    from warbench.rulesets.warengine.game.effects import effects_of
    from warbench.rulesets.warengine.game.powers import only_refusal

    assert only_refusal(s, ctx, effects_of("power", (foe.power or "",)), p, s.figs[2])
    # it defends with the user's Mental against any attack
    pool, _, why2 = defense_pool(s, ctx, s.figs[2], ctx.profiles[2].weapons[0], p)
    assert pool == XkY(5, 4) and "projection" in why2[0]


def test_astral_projection_L1019_a_power_is_used_once_by_user_or_projection() -> None:
    s = _astral_table()
    s, _ = act(s, Attack(0, 1, 0, at=(20.0, 13.0)), 0, [6, 6, 6, 6])
    assert (s.figs[3].x, s.figs[3].y) == (20.0, 13.0)
    assert WS.check(s, Attack(3, 0, 1), 0) is None  # the projection may Rally the pal
    s, _ = act(s, Attack(3, 0, 1), 0, [6, 6, 6, 6])
    why = WS.check(s, Attack(0, 2, 1), 0)
    assert why is not None and "already used" in why.reason  # the user's Rally is spent


def test_astral_projection_L1019_removed_beyond_range_or_when_the_user_falls() -> None:
    s = _astral_table()
    s, _ = act(s, Attack(0, 1, 0, at=(20.0, 11.5)), 0, [6, 6, 6, 6])
    from warbench.rulesets.warengine.game.state import Move

    s, ev = act(s, Move(3, 20.0, 17.5), 0)  # 6" of Move, beyond the power's 6" Range
    assert not s.figs[3].placed and "too far" in " ".join(e.text for e in ev)
    s = _astral_table()
    s, _ = act(s, Attack(0, 1, 0), 0, [6, 6, 6, 6])
    destroy(s, ctx_of(s), s.figs[0], s.figs[2], [], "destroyed")
    destroy(s, ctx_of(s), s.figs[1], s.figs[2], [], "destroyed")
    assert last_standing(s, []) and s.winner == 1  # a projection is not a figure of the force


# --------------------------------------------------------------------------- Blood Rage (L1367)


def _berserker(**kw: Any) -> dict[str, Any]:
    return trooper(
        "Berserker",
        tweaks=["Blood Rage"],
        weapons=[{"name": "Axe", "av": "2k2"}, {"name": "Pistol", "range": '12"', "av": "2k2"}],
        **kw,
    )


def _rage_table(
    friend_at: tuple[float, float] = (40, 5), faces: list[int] | None = None
) -> GameState:
    """Player 0: the Berserker (fig 0, Mv 6", at (10, 5)) and a friend (fig 1); player 1: a
    trooper 8" ahead (fig 2, a gap of 7") and one far away (fig 3)."""
    s = table(
        force(("Berserker", [(_berserker(), 1)]), ("Pal", [(C("Pal"), 1)])),
        force(("Foe", [(trooper("Foe"), 1)]), ("Far", [(trooper("Far"), 1)])),
        [(10, 5), friend_at, (10, 13), (40, 40)],
    )
    return activate(s, 0, faces=faces if faces is not None else [4])


def test_blood_rage_L1365_full_movement_straight_at_the_nearest_enemy() -> None:
    from warbench.rulesets.warengine.game.state import Deactivate, Move, Reserve

    s = _rage_table()
    why = WS.check(s, Deactivate(), 0)
    assert why is not None and "Blood Rage" in why.reason  # it must move first
    assert WS.check(s, Move(0, 14, 8), 0) is not None  # not straight at the enemy
    assert WS.check(s, Move(0, 10, 8), 0) is not None  # not its full movement
    assert WS.check(s, Reserve(0, 0), 0) is not None
    assert WS.check(s, Move(0, 10, 10.999, "fast"), 0) is not None
    legal = [a for a in WS.legal_actions(s, 0).finite_actions if isinstance(a, Move) and a.fig == 0]
    assert legal and all(WS.check(s, m, 0) is None for m in legal)
    charge = next(m for m in legal if m.mode == "charge")
    assert abs(charge.y - 12.0) < 0.01  # a Charge reaches base contact (8" of allowance)
    s, _ = act(s, charge, 0)
    why = WS.check(s, Deactivate(), 0)
    assert why is not None and "attack" in why.reason  # now it must attack
    assert WS.check(s, Attack(0, 1, 2), 0) is not None  # close combat only
    assert WS.check(s, Attack(0, 0, 2), 0) is None


def test_blood_rage_L1365_a_one_goes_for_the_closest_figure_friend_or_foe() -> None:
    s = _rage_table(friend_at=(11, 5), faces=[1])
    assert "rage_any" in s.figs[0].bonus
    from warbench.rulesets.warengine.game.bloodrage import obligation, quarries

    assert quarries(s, ctx_of(s), s.figs[0]) == [1]  # the friend beside it is the closest
    assert WS.check(s, Attack(0, 0, 1), 0) is None  # and it attacks it
    assert obligation(s, ctx_of(s), 0) == Attack(0, 0, 1)


def test_blood_rage_L1365_may_ignore_vehicles_for_juicier_targets() -> None:
    walker = trooper("Walker", type="L", tweaks=["Vehicle"], cr='6"')
    s = table(
        force(("Berserker", [(_berserker(), 1)])),
        force(("Walker", [(walker, 1)]), ("Foe", [(trooper("Foe"), 1)])),
        [(10, 5), (10, 12), (20, 12)],
    )
    s = activate(s, 0, faces=[5])
    from warbench.rulesets.warengine.game.bloodrage import quarries

    assert quarries(s, ctx_of(s), s.figs[0]) == [1, 2]


def test_blood_rage_L1365_the_engine_default_meets_every_compulsion() -> None:
    s = _rage_table()
    steps = 0
    while s.active_unit is not None and steps < 20:
        d = WS.pending(s)[0]
        assert WS.check(s, d.default, d.player) is None
        s, _ = WS.apply(s, d.default, d.player, ScriptedDice([6, 6, 1, 1] * 10))
        steps += 1
    assert steps >= 3  # charged, attacked, then deactivated


# --------------------------------------------------------------------- Monstrously Huge (L1403)


def _hulk() -> dict[str, Any]:
    return trooper("Hulk", type="L", mv='0"', tweaks=["Vehicle", "Monstrously Huge"])


def _push_table(pushers: int = 2) -> GameState:
    """Player 0: the Hulk (fig 0, radius 1", at (20, 10)) and ``pushers`` troopers in base
    contact behind it (figs 1..); player 1: a trooper far ahead."""
    spots = [(19.0, 8.5), (21.0, 8.5), (20.0, 8.0)][:pushers]
    s = table(
        force(("Hulk", [(_hulk(), 1)]), ("Crew", [(trooper("Crew"), pushers)])),
        force(("Foe", [(trooper("Foe"), 1)])),
        [(20, 10), *spots, (20, 40)],
    )
    ctx = ctx_of(s)
    for i in range(1, pushers + 1):  # put each pusher exactly in base contact
        f = s.figs[i]
        import math

        d = math.hypot(f.x - 20, f.y - 10)
        reach = ctx.profiles[0].radius + ctx.profiles[i].radius
        f.x, f.y = 20 + (f.x - 20) / d * reach, 10 + (f.y - 10) / d * reach
    return activate(s, 1)


def test_monstrously_huge_L1401_placed_on_its_own_table_edge() -> None:
    s = WS.setup(
        (force(("Hulk", [(_hulk(), 1)])), force(("Foe", [(trooper("Foe"), 1)]))),
        {"name": "open", "width": 48, "height": 48, "terrain": []},
        {"builder_limits": False},
        0,
    )
    from warbench.rulesets.warengine.game.setup import auto_place, place_refusal

    ctx = ctx_of(s)
    why = place_refusal(s, ctx, 0, 20.0, 6.0)
    assert why is not None and "Monstrously Huge" in why
    assert place_refusal(s, ctx, 0, 20.0, 1.0) is None
    assert auto_place(s, ctx, 0)[1] == 1.0


def test_monstrously_huge_L1401_nine_inches_given_make_one_inch_in_the_follow_up() -> None:
    from warbench.rulesets.warengine.game.state import Push

    s = _push_table()
    ctx = ctx_of(s)
    assert WS.check(s, Push(1, 0, 20.0, 30.0), 0) is None
    assert Push(1, 0, 20.0, 40.0) in WS.legal_actions(s, 0).finite_actions  # toward the foe
    s, _ = act(s, Push(1, 0, 20.0, 30.0), 0)
    why = WS.check(s, Push(1, 0, 20.0, 30.0), 0)
    assert why is not None and "no movement left" in why.reason  # its 6" are given
    s, _ = act(s, Push(2, 0, 20.0, 30.0), 0)
    assert s.figs[0].bonus["pushed"] == 12
    before = [(f.x, f.y) for f in s.figs]
    events: list[Any] = []
    follow_up(s, ctx, ScriptedDice([]), events)
    # 12" given: 1" for the vehicle, and the two pushers in base contact go with it
    assert s.figs[0].y == before[0][1] + 1.0
    assert all(abs(s.figs[i].y - (before[i][1] + 1.0)) < 1e-3 for i in (1, 2))
    assert s.figs[3].y == before[3][1]
    assert any(e.rule.endswith("L1403") for e in events)


def test_monstrously_huge_L1401_pushers_in_contact_only_all_or_nothing_and_at_most_nine() -> None:
    from warbench.rulesets.warengine.game.state import Push

    s = _push_table(pushers=1)
    s.figs[1].y -= 2.0  # no longer touching
    why = WS.check(s, Push(1, 0, 20.0, 30.0), 0)
    assert why is not None and "base-to-base" in why.reason
    s = _push_table(pushers=1)
    s.figs[0].bonus["pushed"] = 200  # more than the 9" a turn
    s.figs[0].bonus["push_x"], s.figs[0].bonus["push_y"] = 20000, 30000
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    assert s.figs[0].y == 19.0  # 9" at most
    s = _push_table(pushers=1)
    s.figs[0].bonus["pushed"] = 81
    s.figs[0].bonus["push_x"], s.figs[0].bonus["push_y"] = 20000, 0
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    assert s.figs[0].y == 10.0  # 9" south would leave the table: it does not move at all


#: The tweaks and powers this file plays (test_we_game_effects checks the whole book is covered).
LANE_EFFECT_TESTS = {
    ("personal", "Summoned"): test_summoned_L1431_figures_are_bought_but_not_deployed,
    ("power", "Summoning"): test_summoning_L1277_deploys_the_pick_in_the_follow_up_step,
    ("personal", "Blood Rage"): test_blood_rage_L1365_full_movement_straight_at_the_nearest_enemy,
    ("personal", "Monstrously Huge"): (
        test_monstrously_huge_L1401_nine_inches_given_make_one_inch_in_the_follow_up
    ),
    ("power", "Astral Projection"): (
        test_astral_projection_L1019_appears_within_the_control_radius_and_acts_with_the_unit
    ),
    ("power", "Control"): test_control_L1055_the_user_controls_the_figure_for_the_rest_of_the_turn,
    ("power", "Actuate Casualty"): (
        test_actuate_casualty_L1009_the_corpse_becomes_a_field_actuated_trooper
    ),
    ("power", "Expunge Nanites"): (
        test_expunge_nanites_L1087_destroys_a_mutant_and_blasts_within_3_inches
    ),
    (
        "power",
        "Sudden Conversion",
    ): test_sudden_conversion_L1267_a_brethren_figure_joins_the_users_force,
    ("power", "System Reset"): (
        test_system_reset_L1291_reserves_lost_rout_passed_and_the_leader_upgraded
    ),
}


def test_conformance_with_every_power_in_play_the_coven() -> None:
    """The protocol's conformance checks (listed actions legal, defaults legal, views, JSON,
    replay) with the Coven, which carries every power in play, against a force of the
    factions its faction powers need."""
    from warbench.play import SetupArgs
    from warbench.play.conformance import check_conformance
    from warbench.rulesets.warengine.io import load_force, to_data

    from .helpers import DATA, sample_forces
    from .test_we_game_protocol import invariants

    coven = to_data(load_force(DATA / "coven.yaml"))
    foe = {**sample_forces()[0], "faction": "Mutant Brethren"}
    for forces in ((coven, foe), (foe, coven)):
        setup = SetupArgs(forces, "ruins_48x48", {"turns": 3, "builder_limits": False})
        report = check_conformance(WS, setup, seeds=range(1), invariants=invariants)
        assert report.finished == 1
