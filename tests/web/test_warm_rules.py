"""The rules' compiled kernels warmed as ``warbench serve`` and ``warbench play`` start (issue
10, session 38, s38-speedr; docs/game.md "A twentieth pass: the Move's routes"): numba's import
and the kernels of sight and of the Move's routes load in a background thread, not in the
player's first Move or Attack."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from warbench.cli.app import main
from warbench.web import app as web_app

ROSTERS = Path(__file__).parents[2] / "examples" / "warsurge" / "rosters"


@pytest.fixture
def warmed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``route_jit.warm`` recorded (by the thread that called it), the once-a-process memo fresh."""
    calls: list[str] = []

    def record() -> None:
        calls.append(threading.current_thread().name)

    from warbench.rulesets.warsurge.game import route_jit

    monkeypatch.setattr(route_jit, "warm", record)
    monkeypatch.setattr(web_app, "_WARMING", [])
    return calls


def test_warm_loads_the_kernels_in_a_fresh_interpreter() -> None:
    """Before ``route_jit.warm`` numba is not imported (importing the rules does not load it);
    after it, sight's and the routes' kernels are loaded."""
    code = (
        "import sys\n"
        "from warbench.rulesets.warsurge.game import engine, route_jit\n"
        "from warbench.rulesets.warsurge.battlefield import sight_jit\n"
        "print('numba' in sys.modules, bool(route_jit._KERNELS), bool(sight_jit._KERNELS))\n"
        "route_jit.warm()\n"
        "print('numba' in sys.modules, bool(route_jit._KERNELS), bool(sight_jit._KERNELS))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=True
    ).stdout.split("\n")
    assert out[:2] == ["False False False", "True True True"]


def test_opening_the_play_pages_warms_the_rules(db_url: str, warmed: list[str]) -> None:
    with TestClient(web_app.create_app(db_url)) as client:
        assert not warmed  # the workbench's first page does not start it
        assert client.get("/api/play/rulesets").status_code == 200
        web_app._WARMING[0][0].join(60)
    assert warmed == ["warbench-warm-rules"]


def test_warm_rules_waits_for_the_first_cost_then_runs_once(warmed: list[str]) -> None:
    first_cost = threading.Event()
    thread = web_app.warm_rules(first_cost)
    thread.join(1.0)
    assert thread.is_alive() and not warmed  # waiting for the Design page's first cost
    first_cost.set()
    thread.join(60)
    assert warmed == ["warbench-warm-rules"]
    assert web_app.warm_rules() is thread  # once a process
    assert warmed == ["warbench-warm-rules"]


def test_the_play_pages_start_a_waiting_warm_up(warmed: list[str]) -> None:
    """A player who opens the play pages before any cost is asked: the waiting thread starts."""
    thread = web_app.warm_rules(threading.Event())
    thread.join(0.5)
    assert thread.is_alive() and not warmed
    assert web_app.warm_rules() is thread
    thread.join(60)
    assert warmed == ["warbench-warm-rules"]


def test_serve_starts_the_warm_up(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``warbench serve`` asks for the warm-up, once the first cost is answered, as it starts."""
    import uvicorn

    asked: list[Any] = []
    monkeypatch.setattr(web_app, "warm_rules", lambda *a: asked.append(a))
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'w.db'}"])
    assert not exit_info.value.code
    assert len(asked) == 1
    (event,) = asked[0]
    assert isinstance(event, threading.Event)


def test_play_starts_the_warm_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """``warbench play`` starts it before the game's first question."""
    from warbench.cli import play_cmds
    from warbench.kernel.errors import WarbenchError
    from warbench.play import runner

    order: list[str] = []
    monkeypatch.setattr(play_cmds, "warm_in_background", lambda: order.append("warm"))

    def no_game(*_a: Any, **_k: Any) -> Any:
        order.append("game")
        raise WarbenchError("stop here")

    monkeypatch.setattr(runner, "run_game", no_game)
    a, b = (str(ROSTERS / f) for f in ("skirmish_a.yaml", "skirmish_b.yaml"))
    with pytest.raises(SystemExit):
        main(["play", a, b, "--seed", "1"])
    assert order == ["warm", "game"]
