"""Lab results in the database (``sim_runs``, ``sim_games``, ``sim_units``) and as files.

:func:`save_run` stores a batch in one transaction and returns its id; :func:`load_run` reads
it back as the same :class:`~warbench.sim.lab.GameRow` objects; :func:`write_csv` writes a
games table and a units table; :func:`write_parquet` the same as Parquet when pyarrow is
installed (it is not a dependency of warbench).
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warbench.kernel.errors import DataFileError, WarbenchError
from warbench.sim.lab import GameRow, LabSpec, UnitRow

if TYPE_CHECKING:
    from warbench.storage import Store

GAME_COLUMNS = (
    "game",
    "seed",
    "board",
    "a_seat",
    "player_a",
    "player_b",
    "winner",
    "points_a",
    "points_b",
    "turns",
    "steps",
    "seconds",
    "digest",
)
UNIT_COLUMNS = ("game", "roster", "uid", "label", "points", "dealt", "taken", "left")


class SimNotFoundError(WarbenchError):
    """No stored simulation run has that id."""


@dataclass(frozen=True)
class RunInfo:
    """A stored batch: its id, rosters, players, seed and number of games."""

    id: int
    roster_a: str
    roster_b: str
    player_a: str
    player_b: str
    seed: int
    games: int
    spec: dict[str, Any]


def roster_name(roster: Any, fallback: str) -> str:
    """A roster's name for the tables (its ``player``; a battle group's or force's ``name``)."""
    if isinstance(roster, dict):
        for key in ("player", "name"):
            if isinstance(roster.get(key), str):
                return str(roster[key])
    return fallback


def save_run(store: Store, spec: LabSpec, rows: Sequence[GameRow]) -> int:
    """Store a batch (one transaction); its id."""
    from sqlalchemy.orm import Session

    from warbench.storage.sim_models import SimGameRow, SimRunRow, SimUnitRow

    run = SimRunRow(
        ruleset=spec.ruleset_id,
        roster_a=roster_name(spec.rosters[0], "A"),
        roster_b=roster_name(spec.rosters[1], "B"),
        player_a=spec.players[0],
        player_b=spec.players[1],
        seed=spec.seed,
        games=len(rows),
        spec={
            "rosters": list(spec.rosters),
            "players": list(spec.players),
            "boards": list(spec.board_list),
            "options": dict(spec.options),
            "seed": spec.seed,
            "ruleset": spec.ruleset_id,
        },
    )
    for r in rows:
        g = SimGameRow(
            game=r.game,
            seed=r.seed,
            board=r.board,
            a_seat=r.a_seat,
            winner=r.winner,
            points_a=r.points_a,
            points_b=r.points_b,
            turns=r.turns,
            steps=r.steps,
            seconds=r.seconds,
            digest=r.digest,
            values=[list(v) for v in r.values],
        )
        g.units = [SimUnitRow(**asdict(u)) for u in r.units]
        run.rows.append(g)
    with Session(store.engine, expire_on_commit=False) as s, s.begin():
        s.add(run)
        s.flush()
        return int(run.id)


def runs(store: Store) -> list[RunInfo]:
    """Every stored batch, newest first."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from warbench.storage.sim_models import SimRunRow

    with Session(store.engine) as s:
        return [_info(r) for r in s.scalars(select(SimRunRow).order_by(SimRunRow.id.desc()))]


def _info(r: Any) -> RunInfo:
    return RunInfo(
        r.id, r.roster_a, r.roster_b, r.player_a, r.player_b, r.seed, r.games, dict(r.spec)
    )


def load_run(store: Store, run_id: int) -> tuple[RunInfo, list[GameRow]]:
    """A stored batch and its games (as :func:`~warbench.sim.lab.run_lab` returned them)."""
    from sqlalchemy.orm import Session, selectinload

    from warbench.storage.sim_models import SimGameRow, SimRunRow

    with Session(store.engine) as s:
        run = s.get(
            SimRunRow,
            run_id,
            options=[selectinload(SimRunRow.rows).selectinload(SimGameRow.units)],
        )
        if run is None:
            known = [str(i.id) for i in runs(store)][:20]
            raise SimNotFoundError(
                f"no simulation run {run_id}; stored: {', '.join(known) or 'none'}"
            )
        players = (run.player_a, run.player_b)
        out = [
            GameRow(
                game=g.game,
                seed=g.seed,
                board=g.board,
                a_seat=g.a_seat,
                players=players,
                winner=g.winner,
                points_a=g.points_a,
                points_b=g.points_b,
                turns=g.turns,
                steps=g.steps,
                seconds=g.seconds,
                digest=g.digest,
                values=tuple((int(t), float(a), float(b)) for t, a, b in g.values),
                units=tuple(
                    UnitRow(u.roster, u.uid, u.label, u.points, u.dealt, u.taken, u.left)
                    for u in g.units
                ),
            )
            for g in run.rows
        ]
        return _info(run), out


def game_records(rows: Sequence[GameRow]) -> list[dict[str, Any]]:
    """The games table as dicts (:data:`GAME_COLUMNS`)."""
    return [
        {
            "game": r.game,
            "seed": r.seed,
            "board": r.board,
            "a_seat": r.a_seat,
            "player_a": r.players[0],
            "player_b": r.players[1],
            "winner": r.winner or "",
            "points_a": r.points_a,
            "points_b": r.points_b,
            "turns": r.turns,
            "steps": r.steps,
            "seconds": r.seconds,
            "digest": r.digest,
        }
        for r in rows
    ]


def unit_records(rows: Sequence[GameRow]) -> list[dict[str, Any]]:
    """The units table as dicts (:data:`UNIT_COLUMNS`)."""
    return [{"game": r.game, **asdict(u)} for r in rows for u in r.units]


def units_path(path: Path) -> Path:
    """Where the units table goes beside the games table: ``games.csv`` → ``games.units.csv``."""
    return path.with_name(f"{path.stem}.units{path.suffix}")


def write_csv(rows: Sequence[GameRow], path: str | Path) -> tuple[Path, Path]:
    """The games table at ``path`` and the units table beside it (:func:`units_path`)."""
    games = Path(path)
    units = units_path(games)
    try:
        for target, cols, recs in (
            (games, GAME_COLUMNS, game_records(rows)),
            (units, UNIT_COLUMNS, unit_records(rows)),
        ):
            with target.open("w", newline="", encoding="utf-8") as fh:
                w = csv.DictWriter(fh, fieldnames=cols)
                w.writeheader()
                w.writerows(recs)
    except OSError as exc:
        raise DataFileError(str(path), f"cannot write ({exc.strerror or exc})") from None
    return games, units


def write_parquet(rows: Sequence[GameRow], path: str | Path) -> tuple[Path, Path]:
    """As :func:`write_csv`, as Parquet files (needs pyarrow, not a warbench dependency)."""
    try:
        import pyarrow as pa  # type: ignore[import-not-found,unused-ignore]
        import pyarrow.parquet as pq  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise DataFileError(
            str(path), "Parquet needs pyarrow (pip install pyarrow); use --csv instead"
        ) from None
    games = Path(path)
    units = units_path(games)
    for target, cols, recs in (
        (games, GAME_COLUMNS, game_records(rows)),
        (units, UNIT_COLUMNS, unit_records(rows)),
    ):
        table = pa.table({c: [r[c] for r in recs] for c in cols})
        pq.write_table(table, target)
    return games, units
