"""Playing games: one game (:func:`run_game`) and seeded batches (:func:`run_batch`).

The loop knows only the protocol: it asks ``pending`` who decides, resolves chance
decisions with the game's chance dice, answers decisions named in ``automate`` with their
default (PokerKit's ``Automation``), asks the seat's player otherwise (with that player's view
only), applies the answer (which checks it) and writes each step to the record.

A batch plays one game per seed, in this process, on all local cores (``processes``), or on a
Ray cluster (``ray``: ``ray.init()`` locally or at an address); the results are the same rows
in the same order whatever the backend, because each game depends only on its seed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from warbench.play.core import (
    JSON,
    Event,
    ProtocolError,
    Result,
    Ruleset,
    SetupArgs,
    chance_dice,
    pick_outcome,
)
from warbench.play.players import Budget, Lineup, Player
from warbench.play.record import GameRecord, replay

S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V")
J = TypeVar("J")
R = TypeVar("R")

PlayerFactory = Callable[[int, int], Player[Any]]  # (game seed, seat) -> a fresh player
Progress = Callable[[int, int], None]  # (games done, games in all)
Backend = Literal["inline", "processes", "ray"]

#: In ``automate``: every decision that has a default takes it (a simulation).
EVERY = "*"


@dataclass
class GameRun(Generic[S]):
    """A played (or stopped) game: the final state, its record and every event."""

    state: S
    record: GameRecord
    events: list[Event] = field(default_factory=list)
    result: Result | None = None

    @property
    def finished(self) -> bool:
        """Whether the game ended (not stopped at ``max_steps``)."""
        return self.result is not None


def run_game(
    ruleset: Ruleset[S, A, V],
    setup: SetupArgs,
    players: Sequence[Player[A]],
    seed: int,
    *,
    budget: Budget | None = None,
    automate: Iterable[str] = (),
    max_steps: int = 100_000,
    record: GameRecord | None = None,
    on_step: Callable[[S, list[Event]], None] | None = None,
) -> GameRun[S]:
    """Play until the game is over (or ``max_steps`` steps are in the record).

    ``players[p]`` answers the decisions of player ``p``; decisions whose kind is in
    ``automate`` (or every decision with a default, with :data:`EVERY`) take their default
    without asking (PokerKit's ``Automation``). With ``record`` (an unfinished
    game), the record is replayed and verified first and play resumes where it stopped;
    ``setup`` and ``seed`` are then taken from its header.
    """
    budget = budget or Budget()
    auto = frozenset(automate)
    events: list[Event] = []
    if record is None:
        state = ruleset.setup(setup.rosters, setup.board, setup.options, seed)
        record = GameRecord.start(ruleset, setup, seed, ruleset.digest(state))
    else:
        rep = replay(record, ruleset)
        state, events, seed = rep.state, rep.events, record.header.seed
    while not ruleset.is_over(state) and len(record.steps) < max_steps:
        decisions = ruleset.pending(state)
        if not decisions:
            raise ProtocolError(
                f"{ruleset.id}: no decision is pending but the game is not over",
                "protocol: pending",
            )
        d = decisions[0]
        if d.is_chance:
            action = pick_outcome(d, chance_dice(seed, len(record.steps)))
        elif (d.kind in auto or EVERY in auto) and d.default is not None:
            action = d.default
        else:
            if not 0 <= d.player < len(players):
                raise ProtocolError(
                    f"player {d.player} must decide but only {len(players)} players sit",
                    "protocol: players",
                )
            view = ruleset.view(state, d.player)
            legal = ruleset.legal_actions(state, d.player)
            action = players[d.player].choose(view, legal, d, budget)
        state, evs = ruleset.apply(state, action, d.player)
        events.extend(evs)
        record.add(d.player, ruleset.actions.dump(action), ruleset.digest(state))
        if on_step is not None:
            on_step(state, evs)
    result = ruleset.result(state) if ruleset.is_over(state) else None
    if result is not None:
        record.finish(result, ruleset.digest(state))
    return GameRun(state, record, events, result)


# --------------------------------------------------------------------------------------------
# Batches
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BatchRow:
    """One game of a batch: its seed, the result, how many steps, the final digest."""

    seed: int
    winner: int | None
    scores: tuple[float, ...]
    steps: int
    finished: bool
    digest: str
    reason: str = ""

    def to_json(self) -> dict[str, JSON]:
        """The row as JSON (a table row for the CLI or a file)."""
        return {
            "seed": self.seed,
            "winner": self.winner,
            "scores": list(self.scores),
            "steps": self.steps,
            "finished": self.finished,
            "digest": self.digest,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class BatchJob:
    """Everything a worker needs to play one game (picklable: ids and data, no objects)."""

    ruleset_id: str
    setup: SetupArgs
    players: PlayerFactory
    seats: int
    automate: tuple[str, ...] = ()
    max_steps: int = 100_000


def play_one(job: BatchJob, seed: int) -> BatchRow:
    """Play the game of one seed (a worker's whole task)."""
    from warbench.play.registry import get_ruleset

    ruleset = get_ruleset(job.ruleset_id)
    players = [job.players(seed, seat) for seat in range(job.seats)]
    run = run_game(
        ruleset,
        job.setup,
        players,
        seed,
        automate=job.automate,
        max_steps=job.max_steps,
    )
    r = run.result
    return BatchRow(
        seed=seed,
        winner=None if r is None else r.winner,
        scores=() if r is None else r.scores,
        steps=len(run.record.steps),
        finished=r is not None,
        digest=ruleset.digest(run.state),
        reason="" if r is None else r.reason,
    )


def run_batch(
    ruleset_id: str,
    setup: SetupArgs,
    seeds: Iterable[int],
    *,
    players: PlayerFactory | Sequence[str] = ("random", "random"),
    seats: int | None = None,
    automate: Iterable[str] = (),
    max_steps: int = 100_000,
    backend: Backend = "processes",
    workers: int | None = None,
    ray_address: str | None = None,
    progress: Progress | None = None,
) -> list[BatchRow]:
    """Play one game per seed and return one row per game, in the order of ``seeds``.

    ``players`` is a picklable factory ``(seed, seat) -> Player`` or a list of player kinds
    (any of ``play.players.PLAYER_KINDS``: ``"random"``, ``"scripted"``, ``"tactical"``,
    ``"search"``, ``"search:N"``…), one per seat. ``backend``: ``"inline"`` (this process),
    ``"processes"`` (all local cores, or ``workers``) or ``"ray"`` (``ray.init()`` locally,
    or ``ray_address`` of a cluster; Ray is the optional extra ``warbench[ray]``).
    ``progress(done, total)`` is called after each game.
    """
    seed_list = list(seeds)
    factory: PlayerFactory
    if callable(players):
        factory = players
        n_seats = seats if seats is not None else len(setup.rosters)
    else:
        factory = Lineup(tuple(players), ruleset_id, setup)
        n_seats = seats if seats is not None else len(tuple(players))
    job = BatchJob(ruleset_id, setup, factory, n_seats, tuple(automate), max_steps)
    total = len(seed_list)
    if backend == "inline":
        rows = []
        for k, s in enumerate(seed_list, 1):
            rows.append(play_one(job, s))
            if progress is not None:
                progress(k, total)
        return rows
    if backend == "processes":
        return _run_processes(job, seed_list, workers, progress)
    if backend == "ray":
        return _run_ray(job, seed_list, ray_address, workers, progress)
    raise ProtocolError(
        f"batch backend {backend!r} is not known; allowed: inline, processes, ray", "runner"
    )


def _run_processes(
    job: BatchJob, seeds: list[int], workers: int | None, progress: Progress | None
) -> list[BatchRow]:
    n = max(1, min(workers or os.cpu_count() or 1, len(seeds) or 1))
    out: dict[int, BatchRow] = {}
    with ProcessPoolExecutor(max_workers=n) as pool:
        futures = {pool.submit(play_one, job, s): k for k, s in enumerate(seeds)}
        for done, fut in enumerate(as_completed(futures), 1):
            out[futures[fut]] = fut.result()
            if progress is not None:
                progress(done, len(seeds))
    return [out[k] for k in range(len(seeds))]


def _run_ray(
    job: BatchJob,
    seeds: list[int],
    address: str | None,
    workers: int | None,
    progress: Progress | None,
) -> list[BatchRow]:
    return ray_map(play_one, job, seeds, address, workers, progress, "runner")


def ray_map(
    fn: Callable[[J, int], R],
    job: J,
    items: Sequence[int],
    address: str | None,
    workers: int | None,
    progress: Progress | None,
    rule: str,
) -> list[R]:
    """``[fn(job, i) for i in items]`` as Ray tasks, in the order of ``items``: on the cluster
    at ``address``, else a local Ray with ``workers`` CPUs (started here and stopped after;
    a Ray the caller started stays up). ``progress(done, total)`` after each result. The one
    Ray driver of warbench (the batch runner and the simulation lab)."""
    try:
        import ray
    except ImportError:
        raise ProtocolError(
            "the ray backend needs Ray: pip install 'warbench[ray]'", rule
        ) from None
    started = not ray.is_initialized()
    if started:
        if address is not None:
            ray.init(address=address)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(fn)
        refs = [remote.remote(job, i) for i in items]
        index = {ref: k for k, ref in enumerate(refs)}
        out: dict[int, R] = {}
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                out[index[ref]] = ray.get(ref)
            if progress is not None:
                progress(len(out), len(items))
        return [out[k] for k in range(len(items))]
    finally:
        if started:  # a Ray the caller started stays up for its next batch
            ray.shutdown()
