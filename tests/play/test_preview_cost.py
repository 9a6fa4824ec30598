"""Nobody pays for a preview who does not look at it (issue 10, session 32, s32-review): the
preview (its ``why_short`` asks the engine about each longer straight move, ~0.7 ms a check,
and its Dangerous Ground note walks every model's path) is worked out only for a person's
``check`` on the play page and a terminal's confirmation, never by a batch game, the scripted
or tactical AI, or the play service making AI seats' moves. The preview is made to fail
loudly; those paths must play on regardless, and the page's ``check`` must meet it (so the
test watches the right place)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from warbench.play import SetupArgs
from warbench.play.runner import run_batch
from warbench.rulesets.warsurge.game import preview as game_preview
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data

ROSTERS = Path(__file__).parents[2] / "examples" / "warsurge" / "rosters"


class Asked(AssertionError):
    """A preview was worked out."""


@pytest.fixture
def no_preview(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    calls: list[object] = []

    def refuse(*args: Any, **kw: Any) -> Any:
        calls.append(args[1] if len(args) > 1 else None)
        raise Asked("a preview was worked out")

    monkeypatch.setattr(game_preview, "preview", refuse)
    return calls


@pytest.mark.parametrize("players", [("scripted", "scripted"), ("tactical", "random")])
def test_a_batch_game_works_out_no_preview(
    no_preview: list[object], players: tuple[str, str]
) -> None:
    rosters = [roster_to_data(load_game_roster(ROSTERS / f"skirmish_{x}.yaml")) for x in "ab"]
    rows = run_batch(
        "warsurge",
        SetupArgs(tuple(rosters), None, {}),
        [2],
        players=players,
        backend="inline",
        max_steps=120,
    )
    assert rows[0].steps == 120 or rows[0].finished
    assert no_preview == []


def test_the_watched_place_is_where_a_preview_is_worked_out(no_preview: list[object]) -> None:
    """The control: the ruleset's own preview (a person's check, a terminal's question) meets
    the failing preview, so the tests above would see one worked out."""
    from tests.play.test_preview_why import ASSAULT, WS, _seen
    from warbench.play import preview
    from warbench.rulesets.warsurge.game.actions import Move

    st, player = _seen()
    with pytest.raises(Asked):
        preview(WS, st, Move(ASSAULT, to=(40.0, 40.0)), player)
    assert len(no_preview) == 1
