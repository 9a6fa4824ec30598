"""§4 movement: allowance, Immobile units, coherency, Melee engagement and locking, Difficult,
Dangerous and Impassable Ground (001_d3f5e425c5e1196d.txt §4.1-4.7)."""

from __future__ import annotations

import warnings
from dataclasses import replace

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import DangerousSpec, Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Move, Pass
from warbench.rulesets.warsurge.game.geom import as_array, coherent
from warbench.rulesets.warsurge.game.state import Phase

from .helpers import board, entry, line, scenario, unit, weapon

FOE = {1: [(40.0, 40.0)]}


def _solo(u, pos, b=None, **kw):  # type: ignore[no-untyped-def]
    return scenario([[entry(u)], [entry(unit("Foe"))]], {0: pos, **FOE}, b=b, **kw)


def test_s4_1_move_up_to_the_move_stat() -> None:
    # The Hoplite can Move up to 7" (measured from the same side of the base)
    state = _solo(unit("Hoplite", move=7, dash=5), [(10.0, 10.0)])
    engine.check(state, Move(0, positions=((17.0, 10.0),)))
    with pytest.raises(RulesError, match=r'travel 7.10" but its Move allows 7"') as exc:
        engine.check(state, Move(0, positions=((17.1, 10.0),)))
    assert exc.value.rule == "§4.1"
    # §2.2 step 3 A: a Unit may Move less than its Move Stat (11" of 12")
    car = _solo(unit("Heavy Flamer Car", move=12, dash=12), [(10.0, 10.0)])
    new, events = engine.apply(car, Move(0, positions=((21.0, 10.0),)))
    assert new.units[0].pos == ((21.0, 10.0),)
    # the log says what the farthest model travelled beside the allowance, not "up to" it
    assert events[0].text.endswith('makes a Move: its farthest model travels 11.0" (Move 12")')
    assert "up to" not in events[0].text


def test_s4_1_the_log_of_a_dash_and_of_a_move_where_every_model_stays() -> None:
    # §4.1 L1833-L1837: "leave some or all of the models in a Unit stationary"
    state = _solo(unit("Hoplite", move=7, dash=5), [(10.0, 10.0)], phase=Phase.DASH)
    _, events = engine.apply(state, Move(0, positions=((13.5, 10.0),), dash=True))
    assert events[0].text.endswith('makes a Dash: its farthest model travels 3.5" (Dash 5")')
    _, events = engine.apply(state, Move(0, positions=((10.0, 10.0),), dash=True))
    assert events[0].text.endswith('makes a Dash, and no model leaves its place (Dash 5")')


def test_s4_1_dash_uses_the_dash_stat_in_the_dash_phase() -> None:
    state = _solo(unit("Hoplite", move=7, dash=5), [(10.0, 10.0)], phase=Phase.DASH)
    with pytest.raises(RulesError, match="Dash allows 5"):
        engine.check(state, Move(0, positions=((16.0, 10.0),), dash=True))
    with pytest.raises(RulesError, match="a Dash is made in the Dash Phase"):
        engine.check(state, Move(0, positions=((14.0, 10.0),)))
    engine.check(state, Move(0, positions=((15.0, 10.0),), dash=True))


def test_s4_1_immobile_units_cannot_move() -> None:
    state = _solo(unit("Gun Turret", move=0, dash=0), [(10.0, 10.0)])
    with pytest.raises(RulesError, match="Immobile") as exc:
        engine.check(state, Move(0, to=(12.0, 10.0)))
    assert exc.value.rule == "§4.1 Immobile Units"
    assert 0 not in engine.legal_actions(state).units()


def test_s4_1_models_may_stay_stationary() -> None:
    state = _solo(unit("Squad", models=3), [(10.0, 10.0), (11.5, 10.0), (13.0, 10.0)])
    engine.check(state, Move(0, positions=((10.0, 10.0), (11.5, 10.0), (14.0, 11.0))))


def test_s4_2_coherency_every_model_within_2_inches_in_one_group() -> None:
    # §4.2 A: two groups each internally coherent break Coherency
    state = _solo(unit("Legionaries", models=4), line(10, 10, 4))
    with pytest.raises(RulesError, match="Coherency") as exc:
        engine.check(state, Move(0, positions=((10, 10), (11.5, 10), (16, 10), (17.5, 10))))
    assert exc.value.rule == "§4.2"
    engine.check(state, Move(0, positions=((10, 10), (11.5, 10), (13.5, 10), (15.0, 10))))


def test_s4_2_iv_coherency_restored_after_casualties_by_the_fewest_models() -> None:
    # §5.12 Example (Hoplites): a casualty in the middle of a line breaks Coherency; one
    # model moves the minimum to restore it at the end of the Attack Phase
    squad = unit("Hoplites", models=5)
    state = scenario(
        [[entry(squad)], [entry(unit("Runic Smith", weapons=[weapon("Hammer", attacks=3)]))]],
        {0: [(10, 10), (12, 10), (14, 10), (16.5, 10), (17.8, 10)], 1: [(30.0, 10.0)]},
        phase=Phase.ATTACK,
        active=1,
    )
    hp = list(state.units[0].hp)
    hp[2] = 0
    state = replace(state, units=(replace(state.units[0], hp=tuple(hp)), state.units[1]))
    state, _ = engine.apply(state, Pass())
    state, events = engine.apply(state, Pass())
    u = state.units[0]
    assert u.removed == (False, False, True, False, False)
    pts = as_array([u.pos[i] for i in u.present()])
    assert coherent(pts, 0.5)
    assert any("1 models moved to restore Coherency" in e.text for e in events)


def test_s4_3_moving_into_contact_starts_a_melee() -> None:
    # §2.2 step 3: the Warp Caster makes base-to-base contact with the Light Bikers
    caster = unit("Warp Caster", move=6)
    bikers = unit("Light Bikers", models=3)
    state = scenario(
        [[entry(caster)], [entry(bikers)]],
        {0: [(10.0, 10.0)], 1: [(15.0, 10.0), (16.5, 10.0), (18.0, 10.0)]},
    )
    new, events = engine.apply(state, Move(0, engage=1))
    assert (0, 1) in new.engaged
    assert any("locked in a Melee" in e.text and e.rule == "§4.3" for e in events)
    far = scenario(
        [[entry(caster)], [entry(bikers)]],
        {0: [(10.0, 10.0)], 1: [(25.0, 10.0), (26.5, 10.0), (28.0, 10.0)]},
    )
    with pytest.raises(RulesError, match="out of reach"):
        engine.check(far, Move(0, engage=1))


def test_s4_4_locked_units_keep_base_contact() -> None:
    state = scenario(
        [[entry(unit("Hoplites", models=2))], [entry(unit("Chaos Warriors"))]],
        {0: [(10.0, 10.0), (11.0, 10.0)], 1: [(10.0, 11.0)]},
        engaged=[(0, 1)],
    )
    with pytest.raises(RulesError, match="locked in a Melee") as exc:
        engine.check(state, Move(0, positions=((10.0, 5.0), (11.0, 5.0))))
    assert exc.value.rule == "§4.4"
    # moving while keeping contact is allowed (surrounding the foe, §4.4 II)
    engine.check(state, Move(0, positions=((10.0, 10.0), (11.0, 11.0))))


def test_s4_4_iii_base_contact_restored_after_casualties() -> None:
    # the only model touching the foe becomes a casualty; another model is placed back in
    # contact at the end of the Attack Phase and the Melee goes on
    state = scenario(
        [[entry(unit("Dead Dogs", models=3))], [entry(unit("Lady of Corruption", hp=6))]],
        {0: [(10.0, 10.0), (10.0, 8.5), (10.0, 7.0)], 1: [(10.0, 11.0)]},
        phase=Phase.ATTACK,
        active=1,
        engaged=[(0, 1)],
    )
    hp = list(state.units[0].hp)
    hp[0] = 0
    state = replace(state, units=(replace(state.units[0], hp=tuple(hp)), state.units[1]))
    state, _ = engine.apply(state, Pass())
    state, events = engine.apply(state, Pass())
    assert (0, 1) in state.engaged
    assert any(e.rule == "§4.4 III" for e in events)


def test_s4_5_difficult_ground_halves_movement() -> None:
    # Legionaries with Move 9 through stones and barbed wire: only 4"
    wire = Terrain(
        name="Barbed Wire", polygon=[(12, 5), (14, 5), (14, 15), (12, 15)], difficult=True
    )
    b = board(terrain=[wire])
    state = _solo(unit("Legionaries", move=9), [(10.0, 10.0)], b=b)
    with pytest.raises(RulesError, match=r"allows 4\" \(halved by Difficult Ground\)") as exc:
        engine.check(state, Move(0, positions=((15.0, 10.0),)))
    assert exc.value.rule == "§4.5"
    engine.check(state, Move(0, positions=((14.0, 10.0),)))
    # the models that avoid it still travel 9"
    engine.check(state, Move(0, positions=((10.0, 19.0),)))


def test_s4_6_dangerous_ground_weapon_strikes_each_model_that_crosses() -> None:
    # Ten models pass through a minefield: the Mine (1 Attack, Power 4, no AP) is used ten
    # times; casualties are removed at once
    mines = Terrain(
        name="Minefield",
        polygon=[(5, 12), (30, 12), (30, 14), (5, 14)],
        dangerous=DangerousSpec(kind="weapon", weapon={"attacks": 1, "power": 4}),
    )
    b = board(terrain=[mines])
    state = _solo(unit("Troopers", models=10, defence=3), line(5, 10, 10, 1.2), b=b)
    pos = tuple((x, y + 6) for x, y in line(5, 10, 10, 1.2))
    faces = [6, 6, 6, 1, 1, 1, 1, 1, 1, 1]  # Power 4 vs Defence 3: 3+ … three hits
    new, events = engine.apply(state, Move(0, positions=pos), dice=ScriptedDice(faces))
    danger = [e for e in events if e.kind == "danger"]
    assert danger and "10 models crossed Minefield; 3 HP lost" in danger[0].text
    assert sum(new.units[0].removed) == 3  # removed immediately (§4.6)


def test_s4_6_dangerous_ground_default_roll_a_one_then_saves() -> None:
    pit = Terrain(
        name="Pit", polygon=[(5, 12), (30, 12), (30, 14), (5, 14)], dangerous=DangerousSpec()
    )
    b = board(terrain=[pit])
    state = _solo(unit("Troopers", models=2, armour=4), [(10, 10), (11.5, 10)], b=b)
    pos = ((10.0, 16.0), (11.5, 16.0))
    # first model rolls 1 then fails its Armour Save (3); second rolls 2: safe
    new, events = engine.apply(state, Move(0, positions=pos), dice=ScriptedDice([1, 3, 2]))
    assert next(e for e in events if e.kind == "danger").data["hp_lost"] == 1
    assert new.units[0].removed == (True, False)


def test_s4_7_impassable_ground_and_other_units_cannot_be_crossed() -> None:
    rock = Terrain(
        name="Giant Rock", polygon=[(12, 5), (14, 5), (14, 15), (12, 15)], impassable=True
    )
    b = board(terrain=[rock])
    state = _solo(unit("Revengewing Bike", move=12), [(10.0, 10.0)], b=b)
    with pytest.raises(RulesError, match="Impassable Ground") as exc:
        engine.check(state, Move(0, positions=((17.0, 10.0),)))
    assert exc.value.rule == "§4.7"
    # other units, friendly or enemy, are Impassable Ground too
    two = scenario(
        [[entry(unit("Bike", move=12)), entry(unit("Legionaries", models=3))], [entry(unit("F"))]],
        {0: [(10.0, 10.0)], 1: [(14.0, 9.0), (14.0, 10.0), (14.0, 11.0)], 2: [(40.0, 40.0)]},
    )
    with pytest.raises(RulesError, match=r"cannot move through .*Legionaries"):
        engine.check(two, Move(0, positions=((18.0, 10.0),)))


def test_s4_8_models_may_not_overlap_or_leave_the_battlefield() -> None:
    state = _solo(unit("Squad", models=2), [(10.0, 10.0), (11.5, 10.0)])
    with pytest.raises(RulesError, match="overlap each other"):
        engine.check(state, Move(0, positions=((10.0, 10.0), (10.5, 10.0))))
    with pytest.raises(RulesError, match="off the battlefield"):
        engine.check(state, Move(0, positions=((10.0, 10.0), (11.5, 10.0 - 9.8))))


def test_s5_1_weapon_types_restrict_movement_per_model() -> None:
    # Heavy: a model that moved cannot use it; Battle: a model that used it cannot Dash
    cannon = weapon("Cannon", type="Heavy", range=36)
    rifle = weapon("Rifle", type="Battle", range=24)
    state = scenario(
        [[entry(unit("Team", models=2, weapons=[cannon, rifle]))], [entry(unit("Foe"))]],
        {0: [(10.0, 10.0), (11.5, 10.0)], 1: [(10.0, 25.0)]},
    )
    state, _ = engine.apply(state, Move(0, positions=((10.0, 10.0), (11.5, 11.0))))
    state, _ = engine.apply(state, Pass())  # P1
    assert state.flow.phase is Phase.ATTACK
    state, events = engine.apply(
        state, Attack(0, (("Cannon", 1), ("Rifle", 1))), dice=ScriptedDice([1] * 8)
    )
    assert "with Cannon (1 models" in events[0].text  # the model that moved cannot fire it
    assert state.units[0].heavy == (True, False)
    assert state.units[0].battle == (True, True)
    state, _ = engine.apply(state, Pass())
    # every model used a Battle or Heavy weapon: the Team cannot Dash, P1 acts
    assert state.flow.phase is Phase.DASH and state.flow.active == 1
    # a model that fired a Heavy weapon stays; the others may Dash (per model, §5.1)
    dash = scenario(
        [[entry(unit("Team", models=2, weapons=[cannon, rifle]))], [entry(unit("Foe"))]],
        {0: [(10.0, 10.0), (11.5, 10.0)], 1: [(10.0, 25.0)]},
        phase=Phase.DASH,
    )
    dash = replace(dash, units=(replace(dash.units[0], heavy=(True, False)), dash.units[1]))
    with pytest.raises(RulesError, match="used a Heavy weapon this Game Turn and cannot Dash"):
        engine.check(dash, Move(0, positions=((10.0, 12.0), (11.5, 12.0)), dash=True))
    engine.check(dash, Move(0, positions=((10.0, 10.0), (11.5, 12.0)), dash=True))


def test_s5_1_a_dash_toward_a_point_when_every_model_used_a_battle_weapon_warns_nothing() -> None:
    # 001 §5.1: models that used a Battle or Heavy weapon may not Dash; with none free the
    # automated Dash keeps every model in place (it used to average an empty set of models:
    # numpy's "Mean of empty slice" RuntimeWarning)
    st = scenario(
        [[entry(unit(models=3))], [entry(unit())]],
        {0: line(10, 10, 3), 1: [(30, 40)]},
        phase=Phase.DASH,
    )
    units = list(st.units)
    units[0] = replace(units[0], battle=(True, True, True))
    st = replace(st, units=tuple(units))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert engine.check(st, Move(0, to=(10, 20), dash=True)) is None


def test_s4_2_iv_a_restored_model_never_stands_on_a_stray_that_joins_where_it_is() -> None:
    """§4.2 IV with §1.3: the stray moved first (the closer one) is placed clear of the other
    stray too, which then joins the group where it stands. Found by the 1,000-game perk-heavy
    run (game 871); before the fix the two bases overlapped by 0.003"."""
    import numpy as np

    from warbench.rulesets.warsurge.game.casualties import coherency_restored
    from warbench.rulesets.warsurge.game.geom import edge_distances
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.work import Work

    pts = [(24.0, 24.0), (25.2, 24.0), (21.3272, 22.4939), (20.9792, 23.4382)]
    state = scenario(
        [[entry(unit("U", models=4))], [entry(unit("F"))]], {0: pts, 1: [(2.0, 2.0)]},
        phase=Phase.ATTACK,
    )  # fmt: skip
    restored = coherency_restored(Work(state, None, DEFAULT_HOOKS), 0)
    assert restored is not None
    new = as_array(list(restored[0]))
    d = edge_distances(new, 0.5, new, 0.5)
    np.fill_diagonal(d, np.inf)
    assert (d > -1e-3).all(), float(d.min())
    assert coherent(new, 0.5)
