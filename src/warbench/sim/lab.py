"""The simulation lab: many seeded games of roster A against roster B, on every core or on Ray.

Fair conditions (issue 15): games come in **pairs** that share a seed and a board; in the first
game of a pair roster A sits in seat 0, in the second in seat 1. The same seed rolls the same
Turn Master roll-off for the same seat, so whichever seat takes the first Deployment Zone, each
roster gets it once in the pair (the zone is alternated, not left to a lucky roll-off), and the
pair plays on the same dice stream (common random numbers). Pairs rotate over the boards.

A game's result (:class:`GameRow`) holds its seed, board, seats, winner, the point values left,
Game Turns, steps, the value of each roster at the end of every Game Turn and, per unit, the
point value it took off enemy units and the value it lost (:class:`UnitRow`). A game depends
only on the spec and its index, so a batch gives the same rows on one core, all local cores
(``processes``) or a Ray cluster, in game order.

Other rulesets (issue 17): ``ruleset_id`` ``"collision"`` (battle groups) or ``"warengine"``
(force files) plays through the same protocol; their rows hold the winner, the result's scores
(Victory Points) in ``points_a``/``points_b``, the turns played (the view's ``turn``), steps
and digest. Only WARSURGE reports units, so their ``units`` and ``values`` stay empty.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from warbench.kernel.errors import DataFileError, UnknownNameError
from warbench.play.core import JSON, Event, ProtocolError, SetupArgs

Backend = Literal["inline", "processes", "ray"]
Progress = Callable[[int, int], None]

ROSTERS = ("A", "B")

#: The rulesets the lab plays, and the files each reads (:func:`load_rosters`).
LAB_RULESETS: dict[str, str] = {
    "warsurge": "game roster files",
    "collision": "battle-group files (name, points_limit, characters)",
    "warengine": "force files (name, renown, force, units)",
}

#: The set-up option that limits the number of turns, by ruleset (``--turns``).
TURN_OPTIONS: dict[str, str] = {
    "warsurge": "game_length",
    "collision": "turn_limit",
    "warengine": "turns",
}


def check_ruleset(ruleset_id: str) -> str:
    """``ruleset_id`` if the lab plays it, else an ``UnknownNameError`` naming the ones it does."""
    if ruleset_id not in LAB_RULESETS:
        raise UnknownNameError("simulate ruleset", ruleset_id, tuple(LAB_RULESETS))
    return ruleset_id


@dataclass(frozen=True)
class LabSpec:
    """What a batch plays: two rosters (game-roster JSON), the player kind of each roster,
    the boards to rotate over, set-up options and the base seed."""

    rosters: tuple[JSON, JSON]
    players: tuple[str, str] = ("scripted", "scripted")
    boards: tuple[JSON, ...] = ()
    options: Mapping[str, JSON] = field(default_factory=dict)
    seed: int = 0
    ruleset_id: str = "warsurge"

    def __post_init__(self) -> None:
        from warbench.ai.players import parse_kind

        check_ruleset(self.ruleset_id)
        for kind in self.players:
            parse_kind(kind)
        if self.seed < 0:
            raise ProtocolError(f"seed {self.seed}: a whole number from 0", "simulate")

    @property
    def board_list(self) -> tuple[JSON, ...]:
        """The boards in rotation (when none is given, every sample board but those that
        field terrain in an army, §10.2 L4424-4430: such a board gives each side units its
        roster does not have, so it is played only when named; Collision: its sample board
        for the point limit, ``None``)."""
        if self.boards:
            return self.boards
        if self.ruleset_id == "collision":
            return (None,)
        from warbench.rulesets.warsurge.battlefield import sample_board, sample_boards

        return tuple(
            name
            for name in sample_boards()
            if all(t.army is None for t in sample_board(name).terrain)
        )

    def plan(self, game: int) -> tuple[int, JSON, int]:
        """Game ``game``'s seed, board and the seat of roster A (module docstring)."""
        pair = game // 2
        boards = self.board_list
        return self.seed + pair, boards[pair % len(boards)], game % 2


@dataclass(frozen=True)
class UnitRow:
    """One unit of one game: its roster (``"A"``/``"B"``), id, label, points, the point value
    it took off enemy units (``dealt``), the value it lost (``taken``) and what was left."""

    roster: str
    uid: int
    label: str
    points: float
    dealt: float
    taken: float
    left: float


@dataclass(frozen=True)
class GameRow:
    """One game of a batch (module docstring); ``values`` is ``[(turn, A, B), …]``."""

    game: int
    seed: int
    board: str
    a_seat: int
    players: tuple[str, str]
    winner: str | None
    points_a: float
    points_b: float
    turns: int
    steps: int
    seconds: float
    digest: str
    values: tuple[tuple[int, float, float], ...] = ()
    units: tuple[UnitRow, ...] = ()

    def key(self) -> tuple[Any, ...]:
        """Everything but the time taken (what repeats exactly for the same seeds)."""
        return (
            self.game,
            self.seed,
            self.board,
            self.a_seat,
            self.players,
            self.winner,
            self.points_a,
            self.points_b,
            self.turns,
            self.steps,
            self.digest,
            self.values,
            self.units,
        )


def board_name(board: JSON) -> str:
    """A board's name for the tables (a sample board's name, or the file's ``name``)."""
    if isinstance(board, str):
        return board
    if isinstance(board, Mapping):
        return str(board.get("name", "custom"))
    return "default"


class _Tally:
    """Collects a game's per-unit damage and per-turn values from its steps (``on_step``)."""

    def __init__(self, ruleset: Any, a_seat: int) -> None:
        self.ruleset = ruleset
        self.a_seat = a_seat
        self.units: dict[int, dict[str, Any]] = {}
        self.values: list[tuple[int, float, float]] = []
        self.turn = 1

    def _sides(self, state: Any) -> tuple[float, float]:
        view = self.ruleset.view(state, 0)
        if not self.units:
            for u in view["units"]:
                self.units[int(u["uid"])] = {
                    "side": int(u["side"]),
                    "label": str(u["label"]),
                    "points": float(u.get("points", 0.0)),
                    "per_hp": float(u.get("points", 0.0))
                    / max(1, int(u["models"]) * int(u["hp_per_model"])),
                    "dealt": 0.0,
                    "taken": 0.0,
                    "left": 0.0,
                }
        for u in view["units"]:
            self.units[int(u["uid"])]["left"] = float(u.get("value", 0.0))
        vals = [float(s.get("value", 0.0)) for s in view["sides"]]
        a, b = vals[self.a_seat], vals[1 - self.a_seat]
        return a, b

    def on_step(self, state: Any, events: list[Event]) -> None:
        """Record attacks (``unit``, ``target``, ``hp_lost``) and the values at each turn end."""
        if not self.units:
            self._sides(state)
        for e in events:
            d = e.data
            if e.kind == "attack" and "target" in d and "unit" in d:
                target = self.units.get(int(d["target"]))
                attacker = self.units.get(int(d["unit"]))
                if target is None or attacker is None:
                    continue
                lost = float(d.get("hp_lost", 0)) * target["per_hp"]
                attacker["dealt"] += lost
                target["taken"] += lost
            elif e.kind in ("turn", "end"):
                a, b = self._sides(state)
                self.values.append((self.turn, round(a, 4), round(b, 4)))
                self.turn += 1

    def rows(self, state: Any) -> tuple[UnitRow, ...]:
        self._sides(state)
        out = []
        for uid, u in sorted(self.units.items()):
            roster = "A" if u["side"] == self.a_seat else "B"
            out.append(
                UnitRow(
                    roster,
                    uid,
                    u["label"],
                    u["points"],
                    round(u["dealt"], 4),
                    round(u["taken"], 4),
                    round(u["left"], 4),
                )
            )
        return tuple(out)


def play_game(spec: LabSpec, game: int) -> GameRow:
    """Play game ``game`` of ``spec`` (a worker's whole task)."""
    from warbench.ai.players import Seats
    from warbench.play.registry import get_ruleset
    from warbench.play.runner import run_game

    seed, board, a_seat = spec.plan(game)
    rosters = spec.rosters if a_seat == 0 else (spec.rosters[1], spec.rosters[0])
    kinds = spec.players if a_seat == 0 else (spec.players[1], spec.players[0])
    setup = SetupArgs(tuple(rosters), board, dict(spec.options))
    ruleset = get_ruleset(spec.ruleset_id)
    seats = Seats(tuple(kinds), spec.ruleset_id, setup)
    tally = _Tally(ruleset, a_seat) if spec.ruleset_id == "warsurge" else None
    started = time.perf_counter()
    run = run_game(
        ruleset,
        setup,
        [seats(seed, 0), seats(seed, 1)],
        seed,
        on_step=None if tally is None else tally.on_step,
    )
    seconds = time.perf_counter() - started
    result = run.result
    assert result is not None
    scores = result.scores
    winner = None
    if result.winner is not None:
        winner = "A" if result.winner == a_seat else "B"
    if tally is not None:
        units = tally.rows(run.state)
        values = tuple(tally.values)
        last_turn = tally.values[-1][0] if tally.values else 0
    else:  # rulesets that do not report units: the turns from the final view
        units, values = (), ()
        last_turn = int(ruleset.view(run.state, 0).get("turn", 0) or 0)
    return GameRow(
        game=game,
        seed=seed,
        board=board_name(board),
        a_seat=a_seat,
        players=spec.players,
        winner=winner,
        points_a=float(scores[a_seat]),
        points_b=float(scores[1 - a_seat]),
        turns=last_turn,
        steps=len(run.record.steps),
        seconds=round(seconds, 4),
        digest=ruleset.digest(run.state),
        values=values,
        units=units,
    )


def run_lab(
    spec: LabSpec,
    games: int | Sequence[int],
    *,
    backend: Backend = "processes",
    workers: int | None = None,
    ray_address: str | None = None,
    progress: Progress | None = None,
) -> list[GameRow]:
    """Play ``games`` (a count, or the game indices) of ``spec``; rows in game order."""
    indices = list(range(games)) if isinstance(games, int) else list(games)
    if backend == "inline" or (backend == "processes" and (workers or 0) == 1):
        rows = []
        for k, g in enumerate(indices, 1):
            rows.append(play_game(spec, g))
            if progress is not None:
                progress(k, len(indices))
        return rows
    if backend == "processes":
        n = max(1, min(workers or os.cpu_count() or 1, len(indices) or 1))
        out: dict[int, GameRow] = {}
        with ProcessPoolExecutor(max_workers=n) as pool:
            futures = {pool.submit(play_game, spec, g): k for k, g in enumerate(indices)}
            for done, fut in enumerate(as_completed(futures), 1):
                out[futures[fut]] = fut.result()
                if progress is not None:
                    progress(done, len(indices))
        return [out[k] for k in range(len(indices))]
    if backend == "ray":
        return _run_ray(spec, indices, ray_address, workers, progress)
    raise UnknownNameError("backend", backend, ("inline", "processes", "ray"))


def _run_ray(
    spec: LabSpec,
    indices: list[int],
    address: str | None,
    workers: int | None,
    progress: Progress | None,
) -> list[GameRow]:
    from warbench.play.runner import ray_map

    return ray_map(play_game, spec, indices, address, workers, progress, "simulate")


def load_rosters(
    paths: Sequence[str | os.PathLike[str]], ruleset_id: str = "warsurge"
) -> tuple[JSON, JSON]:
    """Two roster files of ``ruleset_id`` as the set-up JSON its protocol takes: WARSURGE game
    roster files (or roster exports), Collision battle groups, WarEngine force files. A file
    of the wrong kind (a card, a figure) is a :class:`DataFileError` naming what is expected."""
    check_ruleset(ruleset_id)
    if len(paths) != 2:
        raise ProtocolError(f"the lab needs exactly two rosters, not {len(paths)}", "simulate")
    a, b = (_load_roster(Path(p), ruleset_id) for p in paths)
    return a, b


def _load_roster(path: Path, ruleset_id: str) -> JSON:
    expects = f"{ruleset_id} expects {LAB_RULESETS[ruleset_id]}"
    if path.is_dir():
        raise DataFileError(str(path), f"is a directory; {expects}")
    if ruleset_id == "collision":
        from warbench.rulesets.collision.io import is_group_data, parse_group, read_data, to_data

        data = read_data(path)
        if not is_group_data(data):
            kind = (
                "a character card, not a" if isinstance(data, dict) and "stats" in data else "not a"
            )
            raise DataFileError(str(path), f"is {kind} battle group; {expects}")
        return to_data(parse_group(data, str(path), path.parent))
    if ruleset_id == "warengine":
        from warbench.rulesets.warengine.io import is_force_data, parse_force
        from warbench.rulesets.warengine.io import read_data as we_read
        from warbench.rulesets.warengine.io import to_data as we_data

        data = we_read(path)
        if not is_force_data(data):
            kind = "a figure, not a" if isinstance(data, dict) and "type" in data else "not a"
            raise DataFileError(str(path), f"is {kind} force; {expects}")
        return we_data(parse_force(data, str(path), path.parent))
    from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data

    return roster_to_data(load_game_roster(path))
