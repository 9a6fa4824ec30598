"""Oval and rectangular bases and hulls in play (Core Rules 001_d3f5e425c5e1196d.txt §1.3,
L249-255: bases "are used as a reference for measuring distances"; a model without one is
measured from "the model's actual body or hull (exterior of a vehicle)"). ``game/bases.py``.

The tank of these tests stands on a 100 x 60 mm hull (3.94" x 2.36"), facing +y (the
scenario's south zone faces the north one: ruling 1), so its long sides face east and west.
"""

from __future__ import annotations

import math
import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from warbench.kernel.errors import ProfileError, RulesError
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.battlefield.model import Base, Footprint
from warbench.rulesets.warsurge.effects.mode import Shape, Template, TemplateAt, under
from warbench.rulesets.warsurge.game import bases, engine
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.codecs import _unit_from_json, unit_to_json
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_from_data, roster_to_data
from warbench.rulesets.warsurge.game.players import RandomLegalPlayer, ScriptedPlayer
from warbench.rulesets.warsurge.game.render import drawings, render_state_svg, render_state_text
from warbench.rulesets.warsurge.game.state import (
    GameState,
    Location,
    Phase,
    RosterEntry,
    build_setup,
)
from warbench.rulesets.warsurge.game.targeting import view_target
from warbench.rulesets.warsurge.game.work import Work

from .helpers import ROSTERS, check_invariants, entry, play_checked, scenario, unit, weapon

HULL = Base(shape="rect", length_mm=100, width_mm=60, hull=True)
HALF_L, HALF_W = 100 / 25.4 / 2, 60 / 25.4 / 2  # 1.9685", 1.1811"
TANK_AT = (20.0, 20.0)


def tank(base: Base | None = HULL, base_mm: float = 25.4, gun: int = 10) -> RosterEntry:
    u = unit("Tank", hp=8, move=8, dash=8, weapons=[weapon("Cannon", range=gun)])
    return RosterEntry(u, 200, base_mm, base=base)


def troop(models: int = 1) -> RosterEntry:
    return entry(unit("Troop", models=models))  # 25.4 mm: radius 0.5"


def game(tank_entry: RosterEntry, foe: list[tuple[float, float]], **kw: object) -> GameState:
    return scenario([[tank_entry], [troop(len(foe))]], {0: [TANK_AT], 1: foe}, **kw)  # type: ignore[arg-type]


def work(state: GameState) -> Work:
    return Work(state, None, engine.DEFAULT_HOOKS)


# ---------------------------------------------------------------------------------- rosters


def test_s1_3_L253_a_roster_entry_gives_an_oval_or_rect_base_or_hull() -> None:
    data = {
        "player": "P",
        "units": [
            {
                "file": "../troopers_10.yaml",
                "base": {"shape": "rect", "length_mm": 100, "width_mm": 60, "hull": True},
            },
            {
                "file": "../troopers_10.yaml",
                "base": {"shape": "oval", "length_mm": 60, "width_mm": 35},
            },
        ],
    }
    p = roster_from_data(data, "<t>", ROSTERS)
    assert p.roster[0].base == HULL
    assert p.roster[1].base.shape == "oval" and not p.roster[1].base.hull
    again = roster_from_data(roster_to_data(p), "<t>")  # records write the base back
    assert [e.base for e in again.roster] == [e.base for e in p.roster]
    setup = build_setup(
        [p, load_game_roster(ROSTERS / "skirmish_b.yaml")], Field(sample_board("open_field_42x32"))
    )
    assert setup.units[0].radius == pytest.approx(math.hypot(HALF_L, HALF_W))
    assert setup.units[0].base == HULL and setup.units[2].base is None


@pytest.mark.parametrize(
    ("base", "field", "allowed"),
    [
        (
            {"shape": "hexagon", "length_mm": 60, "width_mm": 35},
            "units[0].base.shape",
            "oval or rect",
        ),
        (
            {"shape": "oval", "length_mm": 5, "width_mm": 35},
            "units[0].base.length_mm",
            "10 to 2000",
        ),
        ({"shape": "rect", "length_mm": 60}, "units[0].base.width_mm", "10 to 2000"),
        (
            {"shape": "rect", "length_mm": 60, "width_mm": 40, "hull": "yes"},
            "units[0].base.hull",
            "true or false",
        ),
        (
            {"shape": "rect", "length_mm": 60, "width_mm": 40, "colour": 1},
            "units[0].base.colour",
            "shape, length_mm, width_mm, hull",
        ),
        ("oval", "units[0].base", "a mapping"),
    ],
)
def test_s1_3_a_bad_base_is_refused_naming_the_field_and_the_allowed_values(
    base: object, field: str, allowed: str
) -> None:
    data = {"player": "P", "units": [{"file": "../troopers_10.yaml", "base": base}]}
    with pytest.raises(ProfileError) as exc:
        roster_from_data(data, "<t>", ROSTERS)
    assert field in str(exc.value) and allowed in str(exc.value)


def test_s1_3_base_and_base_mm_together_are_refused() -> None:
    data = {
        "player": "P",
        "units": [
            {
                "file": "../troopers_10.yaml",
                "base_mm": 32,
                "base": {"shape": "oval", "length_mm": 60, "width_mm": 35},
            }
        ],
    }
    with pytest.raises(ProfileError, match="not both"):
        roster_from_data(data, "<t>", ROSTERS)


# ---------------------------------------------------------------------------------- range


def test_s1_3_L253_range_is_measured_from_the_hull_not_a_circle_of_its_length() -> None:
    # a Troop 11.9" east of the tank's centre: 10.22" from its long side (Cannon 10": out of
    # range), 9.43" from a round base 100 mm across (in range)
    foe = [(TANK_AT[0] + 11.9, TANK_AT[1])]
    hull = view_target(work(game(tank(), foe, phase=Phase.ATTACK)), 0, 1)
    disc = view_target(work(game(tank(None, 100.0), foe, phase=Phase.ATTACK)), 0, 1)
    assert hull.distance == pytest.approx(11.9 - HALF_W - 0.5, abs=1e-6)
    assert disc.distance == pytest.approx(11.9 - HALF_L - 0.5, abs=1e-6)
    assert not hull.users_in_range and disc.users_in_range
    # the same distance ahead of the tank (its short side): in range, as for the circle
    ahead = view_target(
        work(game(tank(), [(TANK_AT[0], TANK_AT[1] + 11.9)], phase=Phase.ATTACK)), 0, 1
    )
    assert ahead.distance == pytest.approx(11.9 - HALF_L - 0.5, abs=1e-6)
    assert ahead.users_in_range


def test_s1_4_within_X_perk_distances_measure_the_hull() -> None:
    w = work(game(tank(), [(TANK_AT[0] + 3.0, TANK_AT[1] + 3.0)]))
    # the corner of the hull (21.18, 21.97) to the Troop's centre (23, 23), less its radius
    corner = math.hypot(3.0 - HALF_W, 3.0 - HALF_L) - 0.5
    assert w.gap(0, 1) == pytest.approx(corner, abs=1e-6)


# ---------------------------------------------------------------------------------- contact


def test_s2_1_base_contact_with_the_long_side_and_with_the_short_side() -> None:
    touch_long = (TANK_AT[0] + HALF_W + 0.5 + 0.02, TANK_AT[1])
    touch_short = (TANK_AT[0], TANK_AT[1] + HALF_L + 0.5 + 0.02)
    far_side = (TANK_AT[0] + HALF_L + 0.5 + 0.02, TANK_AT[1])  # as far as the short side
    assert work(game(tank(), [touch_long])).contacts(0) == {1}
    assert work(game(tank(), [touch_short])).contacts(0) == {1}
    assert work(game(tank(), [far_side])).contacts(0) == set()  # 0.81" from the long side
    # a round base 100 mm across touches at that distance in every direction
    assert work(game(tank(None, 100.0), [far_side])).contacts(0) == {1}


def test_s4_3_a_move_to_engage_ends_in_base_contact_with_the_hull_and_locks_a_melee() -> None:
    state = game(tank(), [(TANK_AT[0] + 6.0, TANK_AT[1] + 0.7)], active=1)
    after, _events = engine.apply(state, Move(1, engage=0))
    assert (0, 1) in after.engaged
    gap = float(bases.unit_gaps(after, 1, 0).min())
    assert gap <= 0.05 and gap > 0.0  # in Base Contact, not overlapping
    check_invariants(after)


# ---------------------------------------------------------------------------------- overlap


def test_s4_7_a_move_onto_the_hull_is_refused_a_move_beside_it_is_not() -> None:
    state = game(tank(), [(TANK_AT[0] + 6.0, TANK_AT[1])], active=1)
    # 0.1" from the long side: inside the circle that covers the hull (radius 2.30")
    beside = (TANK_AT[0] + HALF_W + 0.5 + 0.1, TANK_AT[1] - 1.0)
    after, _ = engine.apply(state, Move(1, positions=(beside,)))
    assert after.units[1].pos[0] == beside
    onto = (TANK_AT[0] + HALF_W + 0.3, TANK_AT[1])  # 0.2" into the hull
    with pytest.raises(RulesError) as exc:
        engine.apply(state, Move(1, positions=(onto,)))
    assert exc.value.rule == "§4.7" and "overlap" in str(exc.value)


def test_s4_7_a_move_through_the_hull_is_refused() -> None:
    state = game(tank(), [(TANK_AT[0] + 3.0, TANK_AT[1])], active=1)
    through = (TANK_AT[0] - 3.0, TANK_AT[1])
    with pytest.raises(RulesError) as exc:
        engine.apply(state, Move(1, positions=(through,)))
    assert exc.value.rule == "§4.7" and "cannot move through" in str(exc.value)


# ---------------------------------------------------------------------------------- coherency


def _bikes(gap_x: float, facing: float) -> GameState:
    oval = Base(shape="rect", length_mm=100, width_mm=60)
    squad = RosterEntry(unit("Bikes", models=2, move=8, dash=8), 100, 25.4, base=oval)
    pts = [(10.0, 30.0), (10.0 + 2 * HALF_W + gap_x, 30.0)]
    st = scenario([[squad], [troop()]], {0: pts, 1: [(40.0, 40.0)]})
    return replace(st, units=(st.units[0].evolve(facing=(facing,) * 2), *st.units[1:]))


def test_s4_2_coherency_is_measured_between_the_true_bases() -> None:
    # side by side (facing +y): 1.9" and 2.2" between the long sides
    assert bases.coherent(_bikes(1.9, 90.0), 0)
    assert not bases.coherent(_bikes(2.2, 90.0), 0)
    # the same centres facing +x: the short sides are 0.62" apart
    assert bases.coherent(_bikes(2.2, 0.0), 0)
    # a circle 100 mm across would call 2.2" between the long sides coherent (0.62" apart)
    assert 2 * HALF_W + 2.2 - 2 * HALF_L <= 2.0


def test_s4_2_a_move_that_breaks_coherency_between_hulls_is_refused() -> None:
    st = _bikes(1.9, 90.0)
    u = st.units[0]
    away = ((u.pos[0][0] - 0.4, u.pos[0][1]), u.pos[1])  # 2.3" apart now
    with pytest.raises(RulesError) as exc:
        engine.apply(st, Move(0, positions=away))
    assert exc.value.rule == "§4.2"


# ---------------------------------------------------------------------------------- facing


def test_s1_3_ruling_1_deployment_faces_the_enemy_zone() -> None:
    setup = _column_setup("open_field_42x32")
    state, _ = engine.new_game(setup, 3)  # type: ignore[arg-type]
    players = [RandomLegalPlayer(1), RandomLegalPlayer(2)]
    while state.units[0].location is not Location.TABLE and not state.over:
        side = engine.acting_side(state)
        assert side is not None
        state, _ = engine.apply(state, players[side].choose(state))
    tank_now = state.units[0]
    assert tank_now.location is Location.TABLE
    facing = bases.default_facing(state, 0)
    assert tank_now.facing == (facing,)
    # from the centre of its zone toward the centre of the enemy's
    field = setup.field  # type: ignore[attr-defined]
    here = field.zone_centre(state.zones[0])
    there = field.zone_centre(state.zones[1])
    assert facing == pytest.approx(
        math.degrees(math.atan2(there[1] - here[1], there[0] - here[0])), abs=1e-6
    )
    assert all(u.facing == () for u in state.units if setup.units[u.uid].base is None)  # type: ignore[attr-defined]


def test_s1_3_ruling_2_3_a_move_may_turn_the_hull_and_the_turn_costs_movement() -> None:
    state = game(tank(), [(40.0, 40.0)])
    after, _ = engine.apply(state, Move(0, positions=(TANK_AT,), facing=0.0))
    assert after.units[0].facing == (0.0,)
    assert bases.facing_of(after, 0, 0) == 0.0
    assert after.units[0].moved == (True,)
    # ruling 3: a corner travels hypot(...) turning 90 degrees in place, 2.25" here
    corner = bases.travelled(HULL, TANK_AT, TANK_AT, 90.0, 0.0)
    assert corner == pytest.approx(math.dist((HALF_W, HALF_L), (HALF_L, -HALF_W)), abs=1e-6)
    slow = RosterEntry(unit("Tank", hp=8, move=2, dash=2), 200, 25.4, base=HULL)
    with pytest.raises(RulesError, match="would travel"):
        engine.apply(game(slow, [(40.0, 40.0)]), Move(0, positions=(TANK_AT,), facing=0.0))


def test_s1_3_round_bases_have_no_facing_to_give() -> None:
    state = game(tank(None, 60.0), [(40.0, 40.0)])
    with pytest.raises(RulesError) as exc:
        engine.apply(state, Move(0, to=(20.0, 22.0), facing=0.0))
    assert exc.value.rule == "§1.3"


def test_s1_3_facings_are_in_the_state_json_and_its_digest() -> None:
    state = game(tank(), [(40.0, 40.0)])
    after, _ = engine.apply(state, Move(0, positions=(TANK_AT,), facing=45.0))
    data = unit_to_json(after.units[0])
    assert data["facing"] == [45.0] and "facing" not in unit_to_json(after.units[1])
    assert _unit_from_json(data) == after.units[0]
    other, _ = engine.apply(state, Move(0, positions=(TANK_AT,), facing=30.0))
    assert other.digest() != after.digest()


# ---------------------------------------------------------------------------------- templates


def test_perks_mode_a_template_strikes_the_hull_where_it_touches_it() -> None:
    blast = Template(Shape.CIRCLE, size=3.0)
    xy = np.asarray([TANK_AT])
    beside = TemplateAt(blast, (TANK_AT[0] + HALF_W + 1.4, TANK_AT[1]))  # 1.4" off the side
    corner = TemplateAt(blast, (TANK_AT[0] + HALF_W + 2.0, TANK_AT[1]))  # 2" off the side
    assert bases.under_template(beside, HULL, HULL.radius, xy, [90.0]).tolist() == [True]
    assert bases.under_template(corner, HULL, HULL.radius, xy, [90.0]).tolist() == [False]
    # the covering circle would be struck by both
    assert under(corner, xy, HULL.radius).tolist() == [True]


# ---------------------------------------------------------------------------------- renders


def test_s1_3_renders_draw_the_hull(tmp_path: Path) -> None:
    state = game(tank(), [(40.0, 40.0)])
    (_name, _side, models), _troop = drawings(state)
    assert isinstance(models[0], Footprint) and models[0].base == HULL
    assert models[0].facing == 90.0 and models[0].centre == TANK_AT
    disc = game(tank(None, 2 * HULL.radius * 25.4), [(40.0, 40.0)])
    assert drawings(disc)[0][2] == [(TANK_AT, pytest.approx(HULL.radius))]
    # the text map fills the hull's cells, fewer than its covering circle's
    hull_cells = render_state_text(state).split("\n")[1:50]
    disc_cells = render_state_text(disc).split("\n")[1:50]
    assert sum(r.count("A") for r in hull_cells) < sum(r.count("A") for r in disc_cells)
    assert (
        render_state_svg(state, tmp_path / "s.svg").read_text()
        != render_state_svg(disc, tmp_path / "d.svg").read_text()
    )


# ---------------------------------------------------------------------------------- games


class TurningPlayer(RandomLegalPlayer):
    """A random-legal player whose Moves of oval and rectangular bases also turn them, half the
    time, to a random facing (ruling 2), or turn them where they stand when the turn would take
    the Move past its allowance (ruling 3); the plain Move when the engine allows neither."""

    def choose(self, state: GameState) -> Move:  # type: ignore[override]
        action = super().choose(state)
        if (
            isinstance(action, Move)
            and state.setup.units[action.unit].base is not None
            and self.rng.random() < 0.5
        ):
            facing = round(self.rng.random() * 360.0, 1)
            u = state.units[action.unit]
            here = tuple(u.pos[i] for i in u.present())
            for turned in (  # the Move with a turn, else a turn where it stands
                replace(action, facing=facing),
                Move(action.unit, positions=here, dash=action.dash, facing=facing),
            ):
                if engine.can(state, turned):
                    return turned
        return action  # type: ignore[return-value]


def _column_setup(board: str = "ruins_48x48") -> object:
    return build_setup(
        [
            load_game_roster(ROSTERS / "armoured_column.yaml"),
            load_game_roster(ROSTERS / "skirmish_b.yaml"),
        ],
        Field(sample_board(board)),
        max_turns=6,
    )


@pytest.mark.parametrize(("board", "seed"), [("ruins_48x48", 4), ("open_field_42x32", 3)])
def test_s1_3_random_legal_games_on_oval_and_rect_bases_keep_every_invariant_and_replay(
    board: str, seed: int
) -> None:
    setup = _column_setup(board)
    state, rec = play_checked(setup, seed, [TurningPlayer(seed), TurningPlayer(seed + 1)], 3000)
    assert any(u.facing for u in state.units)
    assert any(isinstance(a, Move) and a.facing is not None for a in rec.actions)


# ---------------------------------------------------------------------------------- schema


def test_s1_3_the_game_roster_schema_is_current_and_checks_bases() -> None:
    import json

    import jsonschema
    import yaml

    from warbench.rulesets.warsurge.game.roster_schema import SCHEMA_FILE, game_roster_schema

    committed = ROSTERS.parents[2] / "docs" / "schemas" / SCHEMA_FILE
    schema = game_roster_schema()
    assert json.loads(committed.read_text(encoding="utf-8")) == schema
    v = jsonschema.Draft202012Validator(schema)
    for path in sorted(ROSTERS.glob("*.yaml")):
        assert not list(v.iter_errors(yaml.safe_load(path.read_text()))), path.name
    good = {
        "player": "P",
        "units": [{"file": "t.yaml", "base": {"shape": "oval", "length_mm": 60, "width_mm": 35}}],
    }
    assert v.is_valid(good)
    for bad_base in (
        {"shape": "hexagon", "length_mm": 60, "width_mm": 35},
        {"shape": "rect", "length_mm": 60},
        {"shape": "rect", "length_mm": 5, "width_mm": 35},
    ):
        assert not v.is_valid({"player": "P", "units": [{"file": "t.yaml", "base": bad_base}]})
    both = {"file": "t.yaml", "base_mm": 32, **good["units"][0]}  # type: ignore[dict-item]
    assert not v.is_valid({"player": "P", "units": [both]})


# ---------------------------------------------------------------------------------- transports


def test_s6_2_embarking_measures_from_the_transports_hull() -> None:
    apc = RosterEntry(
        unit("APC", hp=8, move=8, dash=8, transport=100, fire_points=1), 100, 25.4, base=HULL
    )
    squad = entry(unit("Squad", models=1, move=1, dash=1))
    # the Squad's base 1.1" from the hull's long side, beyond its Move of 1" (the circle that
    # covers the hull reaches the Squad's base); 0.9" away it embarks
    st = scenario(
        [[apc, squad], [troop()]],
        {0: [TANK_AT], 1: [(TANK_AT[0] + HALF_W + 1.6, TANK_AT[1])], 2: [(40.0, 40.0)]},
    )
    from warbench.rulesets.warsurge.game.actions import Embark

    with pytest.raises(RulesError, match="away") as exc:
        engine.apply(st, Embark(1, 0))
    assert exc.value.rule == "§6.2"
    near = scenario(
        [[apc, squad], [troop()]],
        {0: [TANK_AT], 1: [(TANK_AT[0] + HALF_W + 1.4, TANK_AT[1])], 2: [(40.0, 40.0)]},
    )
    after, _ = engine.apply(near, Embark(1, 0))
    assert after.units[1].location is Location.EMBARKED


# ---------------------------------------------------------------------------------- restores


def test_s4_2_iv_coherency_is_restored_between_the_true_bases() -> None:
    from warbench.rulesets.warsurge.game.casualties import coherency_restored

    # three bikes abreast (facing +y), 2.4" apart; the middle one gone, the outer two are
    # 7.16" apart: the engine moves one back within 2" of the other, overlapping nothing
    squad = RosterEntry(
        unit("Bikes", models=3, move=8, dash=8),
        100,
        25.4,
        base=Base(shape="rect", length_mm=100, width_mm=60),
    )
    step = 2 * HALF_W + 2.4
    pts = [(10.0, 30.0), (10.0 + step, 30.0), (10.0 + 2 * step, 30.0)]
    st = scenario([[squad], [troop()]], {0: pts, 1: [(40.0, 40.0)]}, phase=Phase.ATTACK)
    st = replace(
        st,
        units=(st.units[0].evolve(facing=(90.0,) * 3, removed=(False, True, False)), *st.units[1:]),
    )
    assert not bases.coherent(st, 0)
    restored = coherency_restored(work(st), 0)
    assert restored is not None
    pos, moved = restored
    assert moved == 1
    after = replace(st, units=(st.units[0].evolve(pos=pos), *st.units[1:]))
    assert bases.coherent(after, 0)
    check_invariants(after)


def test_s4_4_iii_base_contact_is_restored_against_the_hull() -> None:
    from warbench.rulesets.warsurge.game.melee import contact_placement

    # the Troop 1" off the hull's long side, still in the Melee (its contact was lost)
    st = game(
        tank(), [(TANK_AT[0] + HALF_W + 1.5, TANK_AT[1])], engaged=[(0, 1)], phase=Phase.ATTACK
    )
    placed = contact_placement(work(st), 1, 0)
    assert placed is not None
    pos, moved, _shifted = placed
    assert moved == 1
    after = replace(st, units=(st.units[0], st.units[1].evolve(pos=pos)))
    gap = float(bases.unit_gaps(after, 1, 0).min())
    assert 0.0 < gap <= 0.05
    check_invariants(after)


# ---------------------------------------------------------------------------------- long run

LONG_GAMES = int(os.environ.get("WARBENCH_BASES_GAMES", "0"))
_BOARDS = ("open_field_42x32", "ruins_48x48", "city_72x48", "hive_city_72x48")
_FOES = ("skirmish_b.yaml", "scavengers.yaml", "skirmish_a.yaml", "armoured_column.yaml")


def _play_long_run_game(k: int) -> None:
    """Game ``k`` of the long run: the sample roster against each sample roster in turn (itself
    too, as a second player), both playstyles, the four sample boards, random-legal players
    (every fifth game scripted); every invariant on every state, and the record replays to the
    identical state."""
    foe = load_game_roster(ROSTERS / _FOES[k % len(_FOES)])
    foe = replace(foe, name=f"{foe.name} (foe)")
    setup = build_setup(
        [load_game_roster(ROSTERS / "armoured_column.yaml"), foe],
        Field(sample_board(_BOARDS[k % len(_BOARDS)])),
        max_turns=6,
        playstyle="advanced" if k % 2 else "standard",
    )
    players = (
        [ScriptedPlayer(), ScriptedPlayer()]
        if k % 5 == 0
        else [TurningPlayer(k), TurningPlayer(k + 1)]
    )
    play_checked(setup, k, players)


@pytest.mark.skipif(not LONG_GAMES, reason="long run: WARBENCH_BASES_GAMES=N")
def test_s1_3_long_run_games_on_oval_and_rect_bases() -> None:
    """``WARBENCH_BASES_GAMES=N``: N games of :func:`_play_long_run_game`."""
    for k in range(LONG_GAMES):
        _play_long_run_game(k)


def test_s10_2_L4460_a_split_unit_in_a_game_on_true_bases_keeps_coherency_with_its_piece() -> None:
    """Regression (the long run after the merge of session 26, game 7): on the hive city, a
    unit split by a guard post's capacity (L4459-4464) made a Dash whose models outside went
    beyond 2" of the piece, because the true-bases check of the move (``bases.problems``)
    returned before the split unit's link to its piece was checked."""
    _play_long_run_game(7)


def test_s6_3_the_engine_disembarks_within_the_move_of_the_true_hull() -> None:
    from warbench.rulesets.warsurge.game.actions import Disembark

    apc = RosterEntry(
        unit("APC", hp=8, move=8, dash=8, transport=100, fire_points=1), 100, 25.4, base=HULL
    )
    bikes = RosterEntry(
        unit("Bikes", models=3, move=3, dash=3), 60, 25.4,
        base=Base(shape="oval", length_mm=60, width_mm=35),
    )  # fmt: skip
    st = scenario([[apc, bikes], [troop()]], {0: [TANK_AT], 2: [(40.0, 40.0)]})
    inside = st.units[1].evolve(location=Location.EMBARKED, embarked_in=0, pos=())
    st = replace(st, units=(st.units[0], inside, st.units[2]))
    after, _ = engine.apply(st, Disembark(1, to=(TANK_AT[0] + 6.0, TANK_AT[1])))
    assert after.units[1].location is Location.TABLE
    assert float(bases.unit_gaps(after, 1, 0).min(axis=1).max()) <= 3.0 + 1e-9  # within its Move
    check_invariants(after)
