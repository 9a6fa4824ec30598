"""The table index is updated in place when a unit on the table moves or loses models (issue
10, speed): the spliced index (built when next asked for, from the index before the changes
and the units changed since) must be the very index a rebuild makes (the same arrays, bit for
bit), after every change of every seeded scripted game here. ``UnitGS.evolve`` must be
``dataclasses.replace``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine, work
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import ScriptedPlayer, play
from warbench.rulesets.warsurge.game.state import build_setup

ROSTERS = Path(__file__).parents[3] / "examples" / "warsurge" / "rosters"


@pytest.mark.parametrize(
    ("seed", "board"), [(0, "ruins_48x48"), (1, "ruins_48x48"), (2, "hive_city_72x48")]
)
def test_spliced_index_equals_the_rebuilt_index(
    seed: int, board: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rosters = [load_game_roster(ROSTERS / n) for n in ("sci_fi_humans.yaml", "scavengers.yaml")]
    setup = build_setup(rosters, Field(sample_board(board)))
    spliced = 0
    set_unit = work.Work.set_unit

    def checked(self: work.Work, uid: int, **changes: object) -> None:
        nonlocal spliced
        set_unit(self, uid, **changes)
        if self._stale is None:
            return
        got = self.table()  # the stale rows spliced
        spliced += 1
        self._index = None
        additive, self._additive = self._additive, False  # a rebuild, nothing else
        dirty, self.dirty = self.dirty, True
        want = self.table()
        self._index, self._additive, self.dirty = got, additive, dirty
        for name in ("xy", "r", "uid", "model", "side"):
            a, b = getattr(got, name), getattr(want, name)
            assert a.dtype == b.dtype and a.shape == b.shape, name
            assert np.array_equal(a, b), name
        assert got.parent is None

    monkeypatch.setattr(work.Work, "set_unit", checked)
    state, events = engine.new_game(setup, seed)
    run = play(state, [ScriptedPlayer(), ScriptedPlayer()], events=events)
    assert run.state.over
    assert spliced > 20


def test_unit_evolve_equals_dataclasses_replace_and_keeps_only_valid_positions() -> None:
    import dataclasses

    from warbench.rulesets.warsurge.game.state import Location, UnitGS

    u = UnitGS(
        7,
        Location.TABLE,
        pos=((1.0, 2.0), (3.0, 4.0), (5.0, 6.0)),
        hp=(1, 1, 1),
        removed=(False, True, False),
    )
    assert u.present() == [0, 2] and u.present_xy().tolist() == [[1.0, 2.0], [5.0, 6.0]]
    cases: list[dict[str, object]] = [
        {"acted": True},
        {"pos": ((0.0, 0.0), (3.0, 4.0), (9.0, 9.0))},
        {"removed": (True, False, False)},
        {"removed": (False, False, False), "pos": ((1.0, 1.0), (2.0, 2.0), (3.0, 3.0))},
        {},
    ]
    for changes in cases:
        got = u.evolve(**changes)
        want = dataclasses.replace(u, **changes)  # type: ignore[arg-type]
        assert got == want and hash(got) == hash(want)
        assert got.present() == want.present()
        assert np.array_equal(got.present_xy(), want.present_xy())
    with pytest.raises(TypeError, match="colour"):
        u.evolve(colour="red")


def test_unit_evolve_keeps_status_marks_only_while_the_statuses_stay() -> None:
    """``evolve`` carries the status marks (``unit_marks``) over a change of another field
    (issue 10, s27-apply) and drops them with the statuses, so a new status is seen."""
    from warbench.rulesets.warsurge.game.state import SEIZED, WRECKED, Location, Status, UnitGS

    u = UnitGS(3, Location.TABLE, pos=((1.0, 2.0),), hp=(2,), removed=(False,))
    u = u.evolve(statuses=(Status(f"{SEIZED}1"),))
    assert u.controller(0) == 1 and not u.wrecked  # both marks worked out
    moved = u.evolve(pos=((4.0, 4.0),), acted=True)
    assert "_seized" in moved.__dict__ and "_status_names" in moved.__dict__
    assert moved.controller(0) == 1 and not moved.wrecked
    wrecked = moved.evolve(statuses=(Status(WRECKED),))
    assert "_seized" not in wrecked.__dict__ and "_status_names" not in wrecked.__dict__
    assert wrecked.controller(0) == 0 and wrecked.wrecked
    assert UnitGS(3).controller(1) == 1
