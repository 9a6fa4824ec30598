"""The eighteenth pass (issue 10, session 36, s36-speeda): what an ``apply`` no longer works out
twice. Each change is compared with what it replaced, on random cases and on a seeded game:

* an Attack's context is made without the frozen dataclass's ``__init__``
  (``attack.attack_context``): the very fields, in the very order, equal, hashed and pickled
  as ``AttackContext(...)``;
* one trial of an Attack (``odds._run_one``, ``roll_attack``) lists the Target's eligible
  models once, where it listed them four times (the eligible HP, the cap, the loss, the final
  loss);
* the end of a Game Turn asks the terrain about the stationary round bases that may touch a
  Dangerous piece (§4.6; ``movement.near_bounds``), where it asked about every base: a base
  left out stands on no Dangerous piece; likewise a Move asks about the ways of its round
  bases whose box meets a Dangerous piece's bounds (``movement.path_near_bounds``);
* the set-up's Bodyguards and Leaders are read once per set-up, and a share of an Attack in a
  game without Bodyguards works out no group (``perk_bodyguard._protectors``);
* the digest (a record's, after every step) writes each unit's part once per unit state
  (``state.unit_json``), byte for byte the one ``json.dumps`` of the whole state wrote.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import pickle
import random
from dataclasses import fields
from typing import Any

import pytest

from warbench.rulesets.warsurge import odds
from warbench.rulesets.warsurge.attack import AttackContext, Playstyle, attack_context
from warbench.rulesets.warsurge.battlefield.io import sample_board
from warbench.rulesets.warsurge.game import engine, perk_bodyguard, perk_leader, perk_turn
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.advstate import Playstyle as Playstyle_
from warbench.rulesets.warsurge.game.digest import canonical_json, unit_json, unit_state_fields
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.movement import (
    dangerous_bounds,
    near_bounds,
    path_near_bounds,
)
from warbench.rulesets.warsurge.game.players import ScriptedPlayer
from warbench.rulesets.warsurge.game.state import (
    GameState,
    Location,
    Status,
    UnitGS,
    build_setup,
)

from .test_battle_size import _states
from .test_speed_apply_s32 import ROSTERS, _setup


def _random_context(rng: random.Random) -> dict[str, object]:
    """Some fields of an AttackContext with random values of their kinds."""
    values: dict[str, object] = {
        "melee": rng.random() < 0.5,
        "attacker_engaged": rng.choice([None, True, False]),
        "cover": rng.random() < 0.5,
        "cover_bonus": rng.randint(1, 3),
        "cover_save": rng.choice([None, 4, 5]),
        "distance": rng.choice([None, 0.0, -0.0, rng.uniform(0, 40)]),
        "attacker_point_cost": rng.choice([None, rng.uniform(10, 300), float("nan")]),
        "target_point_cost": rng.choice([None, rng.uniform(10, 300)]),
        "playstyle": rng.choice(list(Playstyle)),
        "los_models": rng.choice([None, frozenset(rng.sample(range(10), rng.randint(0, 5)))]),
        "status_modifiers": tuple((rng.randint(-2, 2), "x") for _ in range(rng.randint(0, 2))),
        "struck_dice": rng.choice([None, rng.randint(0, 6)]),
        "combat_damage": tuple(rng.randint(1, 4) for _ in range(rng.randint(0, 2))),
    }
    keep = rng.sample(sorted(values), rng.randint(0, len(values)))
    return {k: values[k] for k in keep}


def test_attack_context_is_the_dataclass_own() -> None:
    rng = random.Random(36)
    for _ in range(2_000):
        given = _random_context(rng)
        fast, slow = attack_context(**given), AttackContext(**given)  # type: ignore[arg-type]
        assert type(fast) is AttackContext
        assert list(vars(fast)) == list(vars(slow)) == [f.name for f in fields(AttackContext)]
        for name in vars(slow):  # the very objects (a NaN is not equal to itself)
            assert getattr(fast, name) is getattr(slow, name)
        if given.get("attacker_point_cost") == given.get("attacker_point_cost"):  # not NaN
            assert fast == slow
            assert hash(fast) == hash(slow)
        assert pickle.loads(pickle.dumps(fast)).__dict__.keys() == vars(slow).keys()
        assert repr(fast) == repr(slow)
    with pytest.raises(TypeError, match="no field 'range'"):
        attack_context(range=12)
    with pytest.raises(AttributeError):  # frozen as the dataclass
        attack_context().melee = True  # type: ignore[misc]


def _attacks() -> list[tuple[object, Attack]]:
    """The Attacks a scripted player makes in a seeded game, with the states they start from."""
    player = ScriptedPlayer()
    out = []
    for state in _states(_setup(), 0, 3):
        if state.over or engine.acting_side(state) is None:
            continue
        action = player.choose(state)
        if isinstance(action, Attack):
            out.append((state, action))
    assert len(out) >= 5
    return out


def test_one_trial_lists_the_eligible_models_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = [0]
    real = odds.AttackPlan.eligible

    def counted(self: odds.AttackPlan) -> list[int]:
        calls[0] += 1
        return real(self)

    monkeypatch.setattr(odds.AttackPlan, "eligible", counted)
    found: list[tuple[odds.AttackPlan, int]] = []
    real_roll = odds.roll_attack

    def rolling(plan: odds.AttackPlan, dice: object, follow_on: bool = False) -> object:
        calls[0] = 0
        out = real_roll(plan, dice, follow_on)  # type: ignore[arg-type]
        found.append((plan, calls[0]))
        return out

    from warbench.rulesets.warsurge.game import attacks

    monkeypatch.setattr(attacks, "roll_attack", rolling)
    for state, action in _attacks():
        engine.apply(state, action)  # type: ignore[arg-type]
    assert found
    assert all(n == 1 for plan, n in found if plan.combat_damage is None), found


def test_bounds_and_sequence_caps_are_the_properties() -> None:
    """``cap_of`` and ``final_loss``/``loss_counter`` given the eligible HP answer as the
    properties that list the models themselves, for every Attack of a seeded game."""
    from warbench.rulesets.warsurge.game.attacks import target_state
    from warbench.rulesets.warsurge.game.work import Work, to_unit_state

    for state, action in _attacks():
        plan = engine.planned(state, action)  # type: ignore[arg-type]
        w = Work(state, None, engine.DEFAULT_HOOKS)  # type: ignore[arg-type]
        for wp in plan.weapons:  # type: ignore[attr-defined]
            ap = odds.AttackPlan(
                to_unit_state(w, action.unit),
                target_state(w, wp.target, action.unit),
                wp.context,
                weapons=(wp.weapon,),
                users=((wp.weapon, wp.users),),
            )
            h_e = ap.eligible_hp
            assert ap.cap_of(h_e, ap.combat_damage) == ap.cap
            for raw in range(0, 2 * ap.cap + 3):
                assert ap.final_loss(raw, h_e) == ap.final_loss(raw)
                assert odds.loss_counter(ap, h_e)(raw) == odds.loss_counter(ap)(raw)


@pytest.mark.parametrize("board", ["ruins_48x48", "city_72x48", "hive_city_72x48"])
def test_a_base_left_out_stands_on_no_dangerous_piece(board: str) -> None:
    """Random round bases (all over the board and crowding each Dangerous piece's edge): where
    ``near_bounds`` leaves a base out, the Field finds no Dangerous piece under it; the bases
    it keeps get the answers they get among all of them."""
    field = Field(sample_board(board))
    boxes = dangerous_bounds(field)
    assert boxes
    rng = random.Random(board)
    pts: list[tuple[float, float]] = []
    radii: list[float] = []
    for _ in range(3_000):
        r = rng.choice([0.5, 0.63, 1.0, 1.26, 2.0, rng.uniform(0.2, 3.0)])
        if rng.random() < 0.5:
            p = (rng.uniform(0, field.width), rng.uniform(0, field.height))
        else:  # at a piece's bounds, widened by about the radius
            x0, y0, x1, y1 = rng.choice(boxes)
            m = r * rng.choice([0.0, 0.5, 1.0, 1.0 - 1e-9, 1.0 + 1e-9, 1.01, 1.5])
            p = (
                rng.choice([x0 - m, x1 + m, rng.uniform(x0 - m, x1 + m)]),
                rng.choice([y0 - m, y1 + m, rng.uniform(y0 - m, y1 + m)]),
            )
        pts.append(p)
        radii.append(r)
    every = field.dangerous_at_many(pts, radii)
    near = [k for k in range(len(pts)) if near_bounds(boxes, pts[k], radii[k])]
    some = field.dangerous_at_many([pts[k] for k in near], [radii[k] for k in near])
    kept = dict(zip(near, some, strict=True))
    assert [kept.get(k, []) for k in range(len(pts))] == every
    assert sum(bool(x) for x in every) > 100  # the bases on a piece are there to find
    assert len(near) < len(pts)  # and some were left out


@pytest.mark.parametrize("board", ["ruins_48x48", "city_72x48", "hive_city_72x48"])
def test_a_way_left_out_crosses_no_dangerous_piece(board: str) -> None:
    """Random straight ways of round bases (across the board, and from and to the edges of
    each Dangerous piece's bounds): where ``path_near_bounds`` leaves a way out, the Field's
    path crosses no Dangerous piece (§4.6)."""
    field = Field(sample_board(board))
    boxes = dangerous_bounds(field)
    rng = random.Random(board + "ways")

    def spot(r: float) -> tuple[float, float]:
        if rng.random() < 0.4:
            return (rng.uniform(0, field.width), rng.uniform(0, field.height))
        x0, y0, x1, y1 = rng.choice(boxes)
        m = r * rng.choice([0.0, 1.0, 1.0 + 1e-9, 1.1, 2.0, 4.0])
        return (
            rng.choice([x0 - m, x1 + m, rng.uniform(x0 - m, x1 + m)]),
            rng.choice([y0 - m, y1 + m, rng.uniform(y0 - m, y1 + m)]),
        )

    left, crossing = 0, 0
    for _ in range(2_000):
        r = rng.choice([0.5, 0.63, 1.0, 1.26, rng.uniform(0.2, 3.0)])
        a = spot(r)
        b = (
            spot(r)
            if rng.random() < 0.5
            else (a[0] + rng.uniform(-6, 6), a[1] + rng.uniform(-6, 6))
        )
        danger = field.path(a, b, r).dangerous
        crossing += bool(danger)
        if not path_near_bounds(boxes, a, b, r):
            left += 1
            assert danger == (), (a, b, r)
    assert left > 200 and crossing > 50


def test_the_set_up_s_bodyguards_and_leaders_are_its_index_s() -> None:
    setup = _setup()
    idx = perk_turn.index(setup)
    assert perk_bodyguard._bodyguard_units(setup)[0] == tuple(
        uid for uid, p in enumerate(idx.units) if perk_bodyguard.BODYGUARD in p.unit
    )
    assert perk_leader._leader_units(setup)[0] == tuple(
        uid for uid, p in enumerate(idx.units) if perk_leader.LEADER in p.unit
    )


# -- the digest (the record's, after every step) --------------------------------------------


def _old_canonical(state: GameState) -> str:
    """``state.canonical_json`` as it was before session 36 (one ``json.dumps`` of it all)."""
    units = [unit_state_fields(u, 4) for u in state.units]
    f = state.flow
    data: dict[str, Any] = {
        "seed": state.seed,
        "step": state.step,
        "flow": [
            f.turn,
            f.phase.value,
            f.turn_master,
            f.rolloff_winner,
            list(f.roll_order),
            list(f.order),
            f.active,
            sorted(f.passed),
        ],
        "engaged": sorted(list(p) for p in state.engaged),
        "zones": list(state.zones),
        "units": units,
        "result": None
        if state.result is None
        else [[round(v, 4) for v in state.result.values], state.result.winner],
    }
    if f.adv is not None:
        data["advanced"] = f.adv.to_json()
    for key, part in (("pause", state.pause), ("restore", state.restore), ("rewind", state.rewind)):
        if part is not None:
            data[key] = part.to_json()
    if state.terrain_hp:
        data["terrain_hp"] = [list(t) for t in state.terrain_hp]
    if state.pieces_acted:
        data["pieces_acted"] = list(state.pieces_acted)
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _check_digests(states: list[GameState]) -> None:
    for st in states:
        assert canonical_json(st) == _old_canonical(st)
        assert st.digest() == hashlib.sha256(_old_canonical(st).encode()).hexdigest()[:16]


def test_the_digest_is_the_one_json_dumps_wrote_in_a_standard_game() -> None:
    states = _states(_setup(), 0, 4)
    assert len(states) > 50
    _check_digests(states)
    # the next state shares the units an action left alone, each written once
    shared = sum(
        a is b for s, t in itertools.pairwise(states) for a, b in zip(s.units, t.units, strict=True)
    )
    assert shared > len(states)


def test_the_digest_of_advanced_games_paused_and_perk_heavy_states() -> None:
    """Advanced games (their flow's part), states waiting for casualties or Coherency (the
    pause's part) and perk-heavy games (statuses, counters, uses): byte for byte."""
    from warbench.rulesets.warsurge.game.state import Automation

    setup = _setup()
    rosters = [load_game_roster(ROSTERS / n) for n in ("sci_fi_humans.yaml", "scavengers.yaml")]
    adv = build_setup(rosters, Field(sample_board("ruins_48x48")), playstyle="advanced")
    assert adv.playstyle is Playstyle_.ADVANCED
    _check_digests(_states(adv, 1, 3))
    manual = dataclasses.replace(
        setup, automation=setup.automation - {Automation.CASUALTY_SELECTION, Automation.COHERENCY}
    )
    seen_pause = False
    for st in _states(manual, 2, 4):
        seen_pause = seen_pause or st.pause is not None or st.restore is not None
        _check_digests([st])
    assert seen_pause


def test_a_unit_s_digest_part_is_forgotten_when_a_field_changes() -> None:
    u = _states(_setup(), 0, 3)[-1].units[0]
    assert unit_json(u) is unit_json(u)  # kept
    changes: dict[str, object] = {
        "location": Location.DESTROYED,
        "pos": tuple((x + 1.0, y) for x, y in u.pos),
        "hp": tuple(h + 1 for h in u.hp),
        "removed": tuple(not r for r in u.removed),
        "embarked_in": 3,
        "acted": not u.acted,
        "moved": tuple(not m for m in u.moved),
        "heavy": tuple(not m for m in u.heavy),
        "battle": tuple(not m for m in u.battle),
        "unit_moved": not u.unit_moved,
        "unit_dashed": not u.unit_dashed,
        "statuses": (Status("Blind", 1, "x"),),
        "counters": (("c", 2),),
        "uses": (("Emergency Save", 1),),
        "terrain": "Ruin",
        "facing": tuple(0.0 for _ in u.hp),
        "inside": (0,),
    }
    assert set(changes) == {f.name for f in dataclasses.fields(UnitGS)} - {"uid"}
    for name, value in changes.items():
        v = u.evolve(**{name: value})
        fresh = json.dumps(unit_state_fields(v, 4), sort_keys=True, separators=(",", ":"))
        assert unit_json(v) == fresh != unit_json(u), name
