"""Review of session 33's speed passes (issue 10, s33-review): the shortcuts that copy a frozen
dataclass without its ``__init__`` give what ``dataclasses.replace`` gives, also for classes
and instances the benchmark's games never make (a field ``__init__`` does not set, a value
kept in the instance's dict, slots), and the classes they copy keep nothing but their fields."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from tests.warsurge.game.helpers import ROSTERS
from tests.warsurge.game.sight_oracles import across_both
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.battlefield.model import Board
from warbench.rulesets.warsurge.battlefield.sight import (
    _LOS_ACROSS,
    LOS_SAMPLES,
    Bases,
    _Scene,
)
from warbench.rulesets.warsurge.game import actions, engine
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import ScriptedPlayer
from warbench.rulesets.warsurge.game.state import Flow, build_setup


@dataclasses.dataclass(frozen=True)
class _Memo:
    """An action keeping a memo in a field ``__init__`` does not set (none of the engine's)."""

    unit: int
    to: tuple[float, float] | None = None
    memo: dict[str, object] = dataclasses.field(default_factory=dict, init=False, compare=False)


@dataclasses.dataclass(frozen=True, slots=True)
class _Slotted:
    unit: int
    to: tuple[float, float] | None = None


def test_normalize_gives_a_fresh_init_only_field_as_replace_does() -> None:
    action = _Memo(1, (1.0000004, 2.0))
    action.memo["worked out"] = action.to  # a value worked out from the unrounded point
    got = engine.normalize(action)  # type: ignore[arg-type]
    want = dataclasses.replace(action, to=(1.0, 2.0))
    assert got == want and got.to == (1.0, 2.0)  # type: ignore[union-attr]
    assert got.memo == want.memo == {}  # type: ignore[union-attr]  # not the unrounded memo
    assert got.memo is not action.memo  # type: ignore[union-attr]


def test_normalize_drops_a_value_kept_in_the_instance_dict_as_replace_does() -> None:
    action = actions.Move(3, to=(1.0000004, 2.0))
    object.__setattr__(action, "_worked_out", "of (1.0000004, 2.0)")  # as UnitGS keeps _present
    got = engine.normalize(action)
    assert got == actions.Move(3, to=(1.0, 2.0))
    assert "_worked_out" not in vars(got)
    assert vars(got) == vars(dataclasses.replace(action, to=(1.0, 2.0)))


def test_normalize_copies_a_slotted_action() -> None:
    got = engine.normalize(_Slotted(2, (1.0000004, 2.0)))  # type: ignore[arg-type]
    assert got == _Slotted(2, (1.0, 2.0))


@pytest.mark.parametrize("cls", [c for c in vars(actions).values() if isinstance(c, type)])
def test_every_engine_action_copies_by_its_fields(cls: type) -> None:
    """The shortcut is taken for the engine's own actions (the speed pass stays)."""
    if not dataclasses.is_dataclass(cls) or cls.__module__ != actions.__name__:
        return
    assert engine._plain_fields(cls) == {f.name for f in dataclasses.fields(cls)}


def test_flow_keeps_nothing_but_its_fields() -> None:
    """``work.flow_with`` copies a Flow's dict whole: a Flow must keep nothing worked out there
    (no ``__post_init__``, every field set by ``__init__``), in every state of a game."""
    assert not hasattr(Flow, "__post_init__") and not hasattr(Flow, "__slots__")
    assert all(f.init for f in dataclasses.fields(Flow))
    names = [f.name for f in dataclasses.fields(Flow)]
    players = [load_game_roster(ROSTERS / n) for n in ("skirmish_a.yaml", "skirmish_b.yaml")]
    setup = build_setup(players, Field(sample_board("ruins_48x48")), max_turns=2)
    state, _ = engine.new_game(setup, 3)
    seen = 0
    while not state.over:
        side = engine.acting_side(state)
        assert side is not None
        state, _ = engine.apply(state, ScriptedPlayer().choose(state))
        assert list(vars(state.flow)) == names
        seen += 1
    assert seen > 10


# -- sight's lines by one index (s33-sight) on the bases the benchmark never has ----------------


def _rect(x: float, y: float, w: float, h: float) -> list[list[float]]:
    return [[x - w, y - h], [x + w, y - h], [x + w, y + h], [x - w, y + h], [x - w, y - h]]


def _shaped(rng: random.Random, n: int, near: list[tuple[float, float]]) -> Bases:
    """Rectangular and round bases (a round row: its centre repeated), some on the centres of
    ``near`` (centres that meet), some touching or overlapping them."""
    xy, r, poly = [], [], []
    for k in range(n):
        if near and k % 3 == 0:
            x, y = near[k % len(near)]  # the very centre of another base
        elif near and k % 3 == 1:
            px, py = near[k % len(near)]
            x, y = px + rng.choice([0.0, 1.0, 2.0]), py  # touching or overlapping
        else:
            x, y = rng.uniform(2, 28), rng.uniform(2, 28)
        w, h = rng.uniform(0.3, 1.5), rng.uniform(0.3, 1.5)
        if rng.random() < 0.6:
            poly.append(_rect(x, y, w, h))
            r.append(float(np.hypot(w, h)))
        else:
            poly.append([[x, y]] * 5)
            r.append(w)
        xy.append((x, y))
    return Bases(np.asarray(xy, dtype=np.float64), np.asarray(r), np.asarray(poly))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("shaped", [False, True])
def test_lines_by_index_on_shaped_touching_and_one_model_bases(seed: int, shaped: bool) -> None:
    """``_Scene._samples`` by one index is the broadcast of the points across each base, for
    oval/rectangular bases (``Scene.across`` per end), centres that meet (the fallback
    direction), touching and overlapping bases, and a single pair (a one-model unit)."""
    rng = random.Random(400 + seed)
    board = Board(width=30, height=30, terrain=[])
    attackers = _shaped(rng, rng.randint(1, 5), [])
    centres = [(float(x), float(y)) for x, y in attackers.xy]
    targets = _shaped(rng, rng.randint(1, 6), centres)
    if not shaped:
        attackers, targets = Bases(attackers.xy, attackers.r), Bases(targets.xy, targets.r)
    scene = _Scene(board, attackers, targets, Bases(np.zeros((0, 2)), np.zeros(0)))
    n, m = len(scene.axy), len(scene.txy)
    k = LOS_SAMPLES
    for ia, it in [np.divmod(np.arange(n * m), m), (np.array([0]), np.array([0]))]:
        r = len(ia)
        if scene.ap is None and scene.tp is None:
            pa, pt = across_both(
                scene.axy[ia], scene.txy[it], scene.ar[ia], scene.tr[it], _LOS_ACROSS
            )
        else:
            pa = scene.across(False, ia, scene.txy[it], _LOS_ACROSS)
            pt = scene.across(True, it, scene.axy[ia], _LOS_ACROSS)
        p0 = np.broadcast_to(pa[:, :, None, :], (r, k, k, 2)).reshape(-1, k * k, 2)
        p1 = np.broadcast_to(pt[:, None, :, :], (r, k, k, 2)).reshape(-1, k * k, 2)
        q0, q1 = scene._samples(ia, it)
        assert np.array_equal(q0, p0, equal_nan=True) and np.array_equal(q1, p1, equal_nan=True)
        c0, c1 = scene._samples(ia, it, centre=True)
        a, b = scene.axy[ia][:, None, :], scene.txy[it][:, None, :]
        assert np.array_equal(c0, np.concatenate([a, p0], axis=1), equal_nan=True)
        assert np.array_equal(c1, np.concatenate([b, p1], axis=1), equal_nan=True)
    assert (scene.ap is not None) == shaped


def _across_both_before(
    a: np.ndarray, b: np.ndarray, ra: np.ndarray, rb: np.ndarray, s: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``sight._across_both`` as it was before session 33 (every pair through ``np.where``)."""
    d = b - a
    length = np.hypot(d[:, 0], d[:, 1])
    safe = np.where(length > 0, length, 1.0)
    u = np.where(length[:, None] > 0, d / safe[:, None], np.array([1.0, 0.0]))
    n = np.stack([-u[:, 1], u[:, 0]], axis=1)
    nb = np.where(length[:, None] > 0, -n, n)
    pa = a[:, None, :] + (ra[:, None] * s[None, :])[:, :, None] * n[:, None, :]
    pb = b[:, None, :] + (rb[:, None] * s[None, :])[:, :, None] * nb[:, None, :]
    return pa, pb


def test_across_both_as_before_with_a_centre_not_a_number() -> None:
    """A centre that is not a number: the distance is NaN (true for ``all``, not ``> 0``), so
    the other end takes the fallback direction as before, not NaN points."""
    a = np.array([[1.0, 2.0], [np.nan, 3.0]])  # no centres meet
    b = np.array([[5.0, 2.0], [6.0, 3.0]])
    ra, rb = np.array([0.5, 0.5]), np.array([1.0, 0.75])
    got, want = (
        across_both(a, b, ra, rb, _LOS_ACROSS),
        _across_both_before(a, b, ra, rb, _LOS_ACROSS),
    )
    for g, w in zip(got, want, strict=True):
        assert np.array_equal(g, w, equal_nan=True)
    assert np.isfinite(got[1][1]).all()  # the target's points across stand where they did
    a[1, 0] = 2.0  # no NaN, no meeting centre: the shorter path, the same floats
    got, want = (
        across_both(a[:2], b[:2], ra[:2], rb[:2], _LOS_ACROSS),
        _across_both_before(a[:2], b[:2], ra[:2], rb[:2], _LOS_ACROSS),
    )
    for g, w in zip(got, want, strict=True):
        assert np.array_equal(g, w)
