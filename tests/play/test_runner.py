"""run_game and the batch runner: automation by defaults, identical rows on every backend."""

from __future__ import annotations

import pytest

from warbench.play import (
    EVERY,
    AutomaticPlayer,
    BatchRow,
    ProtocolError,
    RandomLegalPlayer,
    SetupArgs,
    run_batch,
    run_game,
)
from warbench.play.toy import DiceDuel, Move, Shield

SEEDS = [1, 2, 3, 5, 8]


def test_automatic_players_take_every_default(duel: DiceDuel, setup: SetupArgs) -> None:
    players = [AutomaticPlayer(RandomLegalPlayer(1)), AutomaticPlayer(RandomLegalPlayer(2))]
    run = run_game(duel, setup, players, seed=4)
    moves = [s for s in run.record.steps if s.action["kind"] == "move"]
    assert moves
    # every move was the engine's automatic choice: full distance toward the foe (toy §4)
    replayed = duel.setup(setup.rosters, setup.board, setup.options, 4)
    for step in run.record.steps:
        (d,) = [d for d in duel.pending(replayed) if d.player == step.actor]
        if d.kind in ("positions", "may"):
            assert duel.actions.load(step.action) == d.default
        replayed, _ = duel.apply(replayed, duel.actions.load(step.action), step.actor)


def test_automate_answers_named_kinds_without_asking(duel: DiceDuel, setup: SetupArgs) -> None:
    asked: list[str] = []

    class Asking(RandomLegalPlayer[object]):
        def choose(self, view, legal, decision, budget):  # type: ignore[no-untyped-def]
            asked.append(decision.kind)
            return super().choose(view, legal, decision, budget)

    run_game(duel, setup, [Asking(1), Asking(2)], seed=4, automate={"positions", "may"})
    assert asked and set(asked) == {"stance"}
    asked.clear()
    run_game(duel, setup, [Asking(1), Asking(2)], seed=4, automate={EVERY})
    assert asked and set(asked) == {"stance"}  # stances have no default: still asked
    asked.clear()
    run_game(duel, setup, [Asking(1), Asking(2)], seed=4, automate={"may"})
    assert set(asked) == {"stance", "positions"}


def test_a_player_cannot_cheat(duel: DiceDuel, setup: SetupArgs) -> None:
    class Cheat(RandomLegalPlayer[object]):
        def choose(self, view, legal, decision, budget):  # type: ignore[no-untyped-def]
            return Move(100.0) if decision.kind == "positions" else Shield(True)

    with pytest.raises(Exception, match=r"toy §") as exc:
        run_game(duel, setup, [Cheat(1), Cheat(2)], seed=4)
    assert "may end between" in str(exc.value) or "pending" in str(exc.value)


def test_max_steps_stops_an_unfinished_game(duel: DiceDuel, setup: SetupArgs) -> None:
    run = run_game(duel, setup, [RandomLegalPlayer(1), RandomLegalPlayer(2)], 4, max_steps=5)
    assert not run.finished and len(run.record.steps) == 5 and run.record.result is None


def test_batch_rows_are_the_same_inline_and_on_processes(setup: SetupArgs) -> None:
    seen: list[tuple[int, int]] = []
    inline = run_batch(
        "toy-duel", setup, SEEDS, backend="inline", progress=lambda d, t: seen.append((d, t))
    )
    procs = run_batch("toy-duel", setup, SEEDS, backend="processes", workers=2)
    assert inline == procs
    assert [r.seed for r in inline] == SEEDS and all(r.finished for r in inline)
    assert seen == [(k, 5) for k in range(1, 6)]
    assert len({r.digest for r in inline}) == len(SEEDS)  # different seeds, different games


def test_batch_row_matches_run_game(setup: SetupArgs) -> None:
    (row,) = run_batch("toy-duel", setup, [7], players=("automatic", "random"), backend="inline")
    from warbench.play.players import Lineup

    lineup = Lineup(("automatic", "random"))
    duel = DiceDuel()
    run = run_game(duel, setup, [lineup(7, 0), lineup(7, 1)], 7)
    assert run.result is not None
    assert row == BatchRow(
        7,
        run.result.winner,
        run.result.scores,
        len(run.record.steps),
        True,
        duel.digest(run.state),
        run.result.reason,
    )


def test_unknown_backend_and_player_kind_are_refused(setup: SetupArgs) -> None:
    with pytest.raises(ProtocolError, match="allowed: inline, processes, ray"):
        run_batch("toy-duel", setup, [1], backend="cluster")  # type: ignore[arg-type]
    with pytest.raises(Exception, match="unknown player kind 'randon'; did you mean 'random'"):
        run_batch("toy-duel", setup, [1], players=("randon", "random"))


def test_batch_on_a_local_ray_instance_gives_the_same_rows(setup: SetupArgs) -> None:
    """Ray starts locally with one CPU (no Ray running), plays the batch and stops."""
    ray = pytest.importorskip("ray")
    inline = run_batch("toy-duel", setup, SEEDS[:3], backend="inline")
    done: list[int] = []
    rows = run_batch(
        "toy-duel", setup, SEEDS[:3], backend="ray", workers=1, progress=lambda d, t: done.append(d)
    )
    procs = run_batch("toy-duel", setup, SEEDS[:3], backend="processes", workers=2)
    assert rows == inline == procs and done == [1, 2, 3]
    assert not ray.is_initialized()
