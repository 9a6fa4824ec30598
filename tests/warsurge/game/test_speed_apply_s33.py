"""The fifteenth pass (issue 10, s33-pass): what every ``apply`` pays, made cheaper, gives the
very answers of the code it replaced (docs/game.md, "fifteenth pass (apply)").

Each test compares the new code with the old formula (kept here as the reference) on every
state of a seeded scripted game and on random inputs, and fails when the part that makes the
two agree is dropped.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import numpy as np
import pytest

from tests.warsurge.game.helpers import entry, scenario, setup_of, unit
from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine, geom, perk_revive, turn, work
from warbench.rulesets.warsurge.game.actions import Deploy, Move
from warbench.rulesets.warsurge.game.geom import COHERENCY, Field, edge_distances
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.state import (
    SEIZED,
    Flow,
    GameSetup,
    GameState,
    Location,
    Phase,
    Status,
    build_setup,
)

from .test_battle_size import _states  # every state of a scripted game up to a Game Turn

ROSTERS = Path(__file__).parents[3] / "examples" / "warsurge" / "rosters"


def _setup() -> GameSetup:
    rosters = [load_game_roster(ROSTERS / n) for n in ("sci_fi_humans.yaml", "scavengers.yaml")]
    return build_setup(rosters, Field(sample_board("ruins_48x48")))


@pytest.fixture(scope="module")
def states() -> list[GameState]:
    return list(_states(_setup(), 0, 2))


# -- Work.state: the frozen state without the dataclass's __init__ ------------------------------


def test_work_state_is_the_state_the_dataclass_builds(states: list[GameState]) -> None:
    for state in states:
        w = work.Work(state, None, DEFAULT_HOOKS)
        got = w.state()
        want = GameState(
            setup=w.setup,
            seed=w.seed,
            flow=w.flow,
            units=tuple(w.units),
            engaged=frozenset(w.engaged),
            zones=tuple(w.zones),
            step=w.step,
            result=w.result,
            pause=w.pause,
            restore=w.restore,
            terrain_hp=w._terrain_hp(),
            pieces_acted=w.pieces_acted,
            rewind=w.rewind,
        )
        assert type(got) is GameState and got == want and got.digest() == want.digest()
        for f in dataclasses.fields(GameState):
            if f.name != "cache":
                assert getattr(got, f.name) is getattr(want, f.name) or f.name in (
                    "units",
                    "engaged",
                    "zones",
                ), f.name
        assert list(vars(got)) == list(vars(want))  # the very fields, in the dataclass's order
        assert got.cache.keys() <= {"index", "index_stale", "index_parent"}
        assert w.state().cache is not w.state().cache  # each state its own cache
        with pytest.raises(dataclasses.FrozenInstanceError):
            got.step = 0  # type: ignore[misc]


# -- flow_with: dataclasses.replace of a Flow --------------------------------------------------


def test_flow_with_is_dataclasses_replace(states: list[GameState]) -> None:
    rng = random.Random(0)
    changes = [
        {"active": 1},
        {"active": None, "phase": Phase.ATTACK},
        {"passed": frozenset({0})},
        {"turn": 7, "order": (1, 0)},
        {},
    ]
    for state in states:
        change = rng.choice(changes)
        got = work.flow_with(state.flow, **change)
        want = dataclasses.replace(state.flow, **change)
        assert type(got) is Flow and got == want and hash(got) == hash(want)
        assert list(vars(got)) == list(vars(want))
        assert state.flow == dataclasses.replace(state.flow)  # the flow it came from unchanged
    with pytest.raises(TypeError, match="no field 'activ'"):
        work.flow_with(states[0].flow, activ=1)


# -- engine.normalize: an action already rounded is itself -------------------------------------


def _old_normalize(action: object) -> object:
    changes: dict[str, object] = {}
    for name in ("at", "to"):
        p = getattr(action, name, None)
        if p is not None:
            changes[name] = (round(float(p[0]), 6), round(float(p[1]), 6))
    pos = getattr(action, "positions", None)
    if pos is not None:
        changes["positions"] = tuple((float(x), float(y)) for x, y in pos)
    return dataclasses.replace(action, **changes) if changes else action  # type: ignore[type-var]


def _bits(x: object) -> object:
    """A value with each float's type and sign spelled out (``0.0 == -0.0``, ``1 == 1.0``)."""
    if isinstance(x, tuple):
        return tuple(_bits(v) for v in x)
    if isinstance(x, float):
        return (type(x).__name__, float(x).hex())
    return (type(x).__name__, x)


@pytest.mark.parametrize(
    "to",
    [
        (1.5, 2.25),
        (0.0, -0.0),
        (-0.0, 3.0),
        (1.0000004, 2.0),
        (-4e-7, 2.0),
        (1, 2),
        (np.float64(1.5), 2.0),
        [1.5, 2.0],
        (12.855796440416535, 32.62444775802567),
    ],
)
def test_normalize_gives_what_it_gave(to: object) -> None:
    for action in (Move(3, to=to), Deploy(2, at=to)):  # type: ignore[arg-type]
        got, want = engine.normalize(action), _old_normalize(action)
        assert got == want
        assert _bits(dataclasses.astuple(got)) == _bits(dataclasses.astuple(want))  # type: ignore[arg-type]
    rounded = Move(3, to=engine.round_point((1.25, 3.5)))
    assert engine.normalize(rounded) is rounded  # nothing to change: no copy
    assert engine.normalize(Move(3, to=(1, 2))) is not Move(3, to=(1, 2))


def test_normalize_positions_as_it_did() -> None:
    for pos in [((1.0, 2.0), (3.0, -0.0)), ((1, 2),), [[1.5, 2.5]], ((np.float64(1.0), 2.0),)]:
        action = Move(3, positions=pos)  # type: ignore[arg-type]
        got, want = engine.normalize(action), _old_normalize(action)
        assert _bits(dataclasses.astuple(got)) == _bits(dataclasses.astuple(want))  # type: ignore[arg-type]


# -- geom.coherent: the same groups without a NumPy call per model -----------------------------


def _old_coherent(points: geom.FloatArray, r: float) -> bool:
    n = len(points)
    if n <= 1:
        return True
    adj = edge_distances(points, r, points, r) <= COHERENCY + 1e-6
    seen = np.zeros(n, dtype=bool)
    stack = [0]
    seen[0] = True
    while stack:
        i = stack.pop()
        nxt = np.nonzero(adj[i] & ~seen)[0]
        seen[nxt] = True
        stack.extend(int(j) for j in nxt)
    return bool(seen.all())


def test_coherent_as_the_numpy_search() -> None:
    rng = random.Random(3)
    answers = set()
    for _ in range(3000):
        n = rng.randint(0, 12)
        r = rng.choice([0.5, 0.63, 1.0])
        spread = rng.choice([3.0, 6.0, 12.0])
        pts = np.asarray([(rng.uniform(0, spread), rng.uniform(0, spread)) for _ in range(n)])
        pts = pts.reshape(-1, 2)
        want = _old_coherent(pts, r)
        assert geom.coherent(pts, r) is want
        answers.add(want)
    # a chain whose links are exactly 2" + 1e-6 apart at the edge, and one just past it
    for gap in (COHERENCY + 1e-6, COHERENCY + 2e-6):
        chain = np.asarray([(k * (1.0 + gap), 0.0) for k in range(5)])
        assert geom.coherent(chain, 0.5) is _old_coherent(chain, 0.5)
    assert answers == {True, False}


# -- Work.centre: np.mean's very floats ---------------------------------------------------------


def test_centre_is_numpy_mean(states: list[GameState]) -> None:
    seen = 0
    for state in states:
        w = work.Work(state, None, DEFAULT_HOOKS)
        for u in state.units:
            if u.location is not Location.TABLE or not u.present():
                continue
            want = w.xy(u.uid).mean(axis=0)
            assert w.centre(u.uid).tolist() == want.tolist()
            half = u.present()[::2]
            assert w.centre(u.uid, half).tolist() == w.xy(u.uid, half).mean(axis=0).tolist()
            seen += 1
    assert seen > 100
    rng = random.Random(5)
    setup = _setup()
    state = states[-1]
    uid = next(u.uid for u in state.units if len(u.present()) >= 5)
    for _ in range(2000):  # random floats of every size: the sums' roundings matter
        u = state.units[uid]
        pos = tuple(
            (rng.uniform(-1, 1) * 10 ** rng.randint(-3, 3), rng.uniform(0, 48)) for _ in u.pos
        )
        w = work.Work(dataclasses.replace(state, setup=setup), None, DEFAULT_HOOKS)
        w.units[uid] = u.evolve(pos=pos)
        assert w.centre(uid).tolist() == w.xy(uid).mean(axis=0).tolist()


# -- Work.acting_units: the set-up's sides, the controller where a unit has statuses ------------


def _old_acting(w: work.Work, side: int) -> list[int]:
    return [i.uid for i in w.setup.units if w.units[i.uid].controller(i.side) == side]


def test_acting_units_as_the_controllers_say(states: list[GameState]) -> None:
    for state in states[::5]:
        w = work.Work(state, None, DEFAULT_HOOKS)
        for side in (0, 1):
            assert w.acting_units(side) == _old_acting(w, side)
    # a unit seized by the other side (Dominate) acts with it; a status that seizes nothing
    # leaves it its own side's
    w = work.Work(states[-1], None, DEFAULT_HOOKS)
    own0 = w.acting_units(0)
    w.units[own0[0]] = w.units[own0[0]].evolve(statuses=(Status(f"{SEIZED}1"),))
    w.units[own0[1]] = w.units[own0[1]].evolve(statuses=(Status("Stunned", 1),))
    for side in (0, 1):
        assert w.acting_units(side) == _old_acting(w, side)
    assert own0[0] in w.acting_units(1) and own0[0] not in w.acting_units(0)
    assert own0[1] in w.acting_units(0)


# -- start_turn: a unit with nothing to reset keeps its very state ------------------------------


def _one_flag(state: GameState, flag: str) -> GameState:
    """``state`` with every unit's per-turn flags reset but ``flag`` set on one unit."""
    units = []
    for u in state.units:
        n = len(u.hp)
        fresh = {"moved": (False,) * n, "heavy": (False,) * n, "battle": (False,) * n}
        u = u.evolve(**fresh, unit_moved=False, unit_dashed=False, acted=False)
        if u.uid == 2:
            per_model = flag in fresh
            u = u.evolve(**{flag: (True,) + (False,) * (n - 1) if per_model else True})
        units.append(u)
    return dataclasses.replace(state, units=tuple(units))


def test_turn_flags_reset_as_the_old_loop_reset_them(states: list[GameState]) -> None:
    flags = ("acted", "unit_moved", "unit_dashed", "moved", "heavy", "battle")
    kept = 0
    for state in states + [_one_flag(states[-1], f) for f in flags]:
        new = work.Work(state, None, DEFAULT_HOOKS)
        old = work.Work(state, None, DEFAULT_HOOKS)
        for u in list(old.units):  # the old loop: every unit reset
            n = len(u.hp)
            old.set_unit(
                u.uid,
                moved=(False,) * n,
                heavy=(False,) * n,
                battle=(False,) * n,
                unit_moved=False,
                unit_dashed=False,
                acted=False,
            )
        turn.reset_turn_flags(new)
        assert new.units == old.units
        kept += sum(a is b for a, b in zip(new.units, state.units, strict=True))
    assert kept > 0  # some units kept their very state


def test_start_turn_as_before(states: list[GameState]) -> None:
    """The whole step on states of a game: the flags, the roll-off and the phase begun."""
    for state in states[::7]:
        if state.flow.phase is Phase.OVER:
            continue
        w = work.Work(state, ScriptedDice([6, 1] * 8), DEFAULT_HOOKS)
        turn.start_turn(w)
        assert not any(u.acted or u.unit_moved or u.unit_dashed for u in w.units)
        assert all(not any(u.moved + u.heavy + u.battle) for u in w.units)
        assert w.events[0].text == f"Game Turn {state.flow.turn}"


# -- perk_revive: its users once per set-up -----------------------------------------------------


def test_revive_users_are_the_setups() -> None:
    medic = unit("Medic", perks=["Revive II", "Revive I"], hp=3)
    ally = unit("Ally", hp=2)
    with_medic = setup_of([[entry(medic), entry(ally)], [entry(ally)]])
    without = setup_of([[entry(ally), entry(ally)], [entry(ally)]])
    assert perk_revive._users_of(with_medic) == ((0, "Revive II"),)  # the widest rank
    assert perk_revive._users_of(without) == ()  # another set-up, its own answer
    st = scenario([[entry(medic), entry(ally)], [entry(ally)]], {0: [(10, 10)], 1: [(12, 10)]})
    w = work.Work(st, None, DEFAULT_HOOKS)
    assert perk_revive._users(w) == [(0, "Revive II")]


_MADE: list[tuple[float, float] | None] = []


@dataclasses.dataclass(frozen=True)
class _Checked:
    """An action whose ``__post_init__`` must run on every copy (none of the engine's has one)."""

    unit: int
    to: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        _MADE.append(self.to)


def test_normalize_copies_through_init_where_a_class_checks() -> None:
    action = _Checked(1, (1.0000004, 2.0))
    _MADE.clear()
    assert engine.normalize(action) == _Checked(1, (1.0, 2.0))  # type: ignore[arg-type]
    assert _MADE == [(1.0, 2.0), (1.0, 2.0)]  # the copy's __post_init__, then the one above


def test_turn_rollers_are_the_setups() -> None:
    """Transform and Wild Armour's units, once per set-up (``perk_limits._turn_rollers``)."""
    from warbench.rulesets.warsurge.game import perk_limits

    wild = unit("Wild", perks=["Wild Armour"], hp=3)
    plain = unit("Plain", hp=2)
    with_it = setup_of([[entry(plain), entry(wild)], [entry(plain)]])
    without = setup_of([[entry(plain), entry(plain)], [entry(plain)]])
    assert perk_limits._turn_rollers(with_it) == ((1, ("Wild Armour",)),)
    assert perk_limits._turn_rollers(without) == ()  # another set-up, its own answer
    assert perk_limits._turn_rollers(with_it) == ((1, ("Wild Armour",)),)
