"""Review of session 33's speed passes (issue 10, s33-review): the shortcuts that copy a frozen
dataclass without its ``__init__`` give what ``dataclasses.replace`` gives, also for classes
and instances the benchmark's games never make (a field ``__init__`` does not set, a value
kept in the instance's dict, slots), and the classes they copy keep nothing but their fields."""

from __future__ import annotations

import dataclasses

import pytest

from tests.warsurge.game.helpers import ROSTERS
from warbench.rulesets.warsurge.battlefield import sample_board
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
