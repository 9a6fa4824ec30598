"""The preview of a charge (issue 10, session 32): a Move naming the enemy unit it engages (no
point) is previewed where ``apply`` puts the models, in Base Contact with the target (Core Rules
001_d3f5e425c5e1196d.txt §4.3 L1985-1991), so the play page and ``warbench play`` can show it
and ask before it is made; and a Deploy of oval or rectangular bases is previewed with the
facing ``apply`` gives them (§1.3 L248), so the page draws their real shape."""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

from warbench.play import preview
from warbench.rulesets.warsurge.game.actions import Deploy, Move
from warbench.rulesets.warsurge.game.geom import CONTACT
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset, WarsurgeState
from warbench.web.play.scenes import presenter

WS = WarsurgeRuleset()
ROSTERS = Path(__file__).parents[2] / "examples" / "warsurge" / "rosters"


@cache
def _charge() -> tuple[WarsurgeState, int, Move]:
    """The Skirmish preset, seed 1: defaults taken until a charge (a Move with ``engage``) is
    listed (Game Turn 3, Red's unit 4 on Blue's unit 1)."""
    setup = presenter("warsurge").presets()[0]["setup"]
    st = WS.setup(setup["rosters"], setup["board"], setup["options"], 1)
    for _ in range(200):
        d = WS.pending(st)[0]
        ch = [
            a
            for a in WS.legal_actions(st, d.player)
            if isinstance(a, Move) and a.engage is not None
        ]
        if ch:
            return st, d.player, ch[0]
        st, _ = WS.apply(st, d.default, d.player)
    raise AssertionError("no charge listed in 200 steps")


def test_a_charge_is_previewed_in_base_contact_where_apply_puts_it_L1985() -> None:
    st, player, charge = _charge()
    assert charge.engage is not None and charge.to is None
    pv = preview(WS, st, charge, player)
    assert pv is not None and pv.placements
    u = st.game.units[charge.unit]
    assert [p.model for p in pv.placements] == list(u.present())
    assert pv.why_short == ()  # a charge is not sent toward a point
    after, _ = WS.apply(st, charge, player)
    pos = after.game.units[charge.unit].pos
    assert [p.end for p in pv.placements] == [pos[p.model] for p in pv.placements]
    # the previewed ends touch the target: some model's base in contact with one of its models
    foe = after.game.units[charge.engage]
    r, fr = st.game.info(charge.unit).radius, st.game.info(charge.engage).radius
    gaps = [math.dist(p.end, foe.pos[j]) - r - fr for p in pv.placements for j in foe.present()]
    assert min(gaps) <= CONTACT + 1e-9
    # before the charge no model was in contact (the preview shows a change)
    assert all(
        math.dist(p.start, foe.pos[j]) - r - fr > CONTACT
        for p in pv.placements
        if p.start is not None
        for j in foe.present()
    )


def test_a_deploy_of_shaped_bases_is_previewed_with_their_facing_L248() -> None:
    rosters = [
        roster_to_data(load_game_roster(ROSTERS / f))
        for f in ("armoured_column.yaml", "skirmish_b.yaml")
    ]
    st = WS.setup(rosters, None, {}, 1)
    for _ in range(60):
        d = WS.pending(st)[0]
        deploys = [
            a
            for a in WS.legal_actions(st, d.player)
            if isinstance(a, Deploy) and st.game.setup.units[a.unit].base is not None
        ]
        if deploys:
            break
        st, _ = WS.apply(st, d.default, d.player)
    else:
        raise AssertionError("no Deploy of a shaped unit listed")
    a = deploys[0]
    pv = preview(WS, st, a, d.player)
    assert pv is not None and pv.placements
    assert all(p.start is None and p.facing is not None for p in pv.placements)
    after, _ = WS.apply(st, a, d.player)
    u = after.game.units[a.unit]
    assert [p.end for p in pv.placements] == [u.pos[p.model] for p in pv.placements]
    assert [p.facing for p in pv.placements] == [u.facing[p.model] for p in pv.placements]
    # a round unit's Deploy names no facing
    round_units = [
        b
        for b in WS.legal_actions(st, d.player)
        if isinstance(b, Deploy) and st.game.setup.units[b.unit].base is None
    ]
    if round_units:
        other = preview(WS, st, round_units[0], d.player)
        assert other is not None and all(p.facing is None for p in other.placements)


def test_a_disembark_the_engine_places_is_previewed_where_apply_puts_it_L3339() -> None:
    """A Disembark naming no point (the engine places the unit within its Move of the
    Transport, §6.3 L3339-3342) is previewed from off the table, where ``apply`` puts the models."""
    from dataclasses import replace

    from tests.warsurge.game.helpers import entry, scenario, unit
    from warbench.rulesets.warsurge.game import preview as game_preview
    from warbench.rulesets.warsurge.game.actions import Disembark
    from warbench.rulesets.warsurge.game.engine import apply
    from warbench.rulesets.warsurge.game.state import Location

    apc = unit("Ursus APC", move=10, dash=10, hp=8, transport=150)
    sides = [[entry(apc, 180, base_mm=76.2), entry(unit("Troopers", models=3), 120)]]
    sides.append([entry(unit("Foe"))])
    state = scenario(sides, {0: [(10.0, 10.0)], 2: [(40.0, 40.0)]})
    units = list(state.units)
    units[1] = replace(units[1], location=Location.EMBARKED, embarked_in=0)
    state = replace(state, units=tuple(units))
    action = Disembark(1)
    pv = game_preview.preview(state, action)
    assert pv is not None and len(pv.placements) == 3
    assert all(p.start is None for p in pv.placements)
    new, _ = apply(state, action)
    assert [p.end for p in pv.placements] == [new.units[1].pos[p.model] for p in pv.placements]


def test_asks_first_names_the_actions_placed_at_no_point_chosen() -> None:
    """``warbench play`` confirms a listed charge or a Disembark the engine places."""
    from warbench.rulesets.warsurge.game.actions import Disembark

    st, player, charge = _charge()
    legal = WS.legal_actions(st, player)
    assert legal.asks_first(charge)
    assert not legal.asks_first(Move(charge.unit, to=(1.0, 1.0)))
    assert legal.asks_first(Disembark(1))
    assert not legal.asks_first(Disembark(1, to=(1.0, 1.0)))
    assert not legal.asks_first(Disembark(1, reserve=True))


def test_a_charge_and_a_disembark_are_listed_in_words_L1985() -> None:
    """The page and the terminal list a charge by the unit it engages, not "engage 1"."""
    from warbench.rulesets.warsurge.game.words import describe

    st, player, charge = _charge()
    view = WS.view(st, player)
    said = describe(view, WS.actions.dump(charge))
    assert said == "Blue: Gut-Hackers: charge Red: Assault Squad (move into Base Contact)"
    dash = describe(view, {"kind": "move", "unit": 4, "engage": 1, "dash": True})
    assert dash == "Blue: Gut-Hackers: charge Red: Assault Squad (Dash into Base Contact)"
    assert describe(view, {"kind": "disembark", "unit": 1}) == (
        "Red: Assault Squad: disembark where the engine places it (Move)"
    )
    assert describe(view, {"kind": "disembark", "unit": 1, "to": [2, 3]}) == (
        'Red: Assault Squad: disembark toward (2", 3") (Move)'
    )
    # Rift Gate's disembark into Reserve has words too since session 38 (it had none)
    assert describe(view, {"kind": "disembark", "unit": 1, "reserve": True}) == (
        "Red: Assault Squad: disembark into Reserve (Rift Gate, Perks L1384)"
    )
