"""The dice generator's history of rolls (Core Rules 001_d3f5e425c5e1196d.txt §1.1: the app's
Dice Generator can "keep a history of dice rolls made during a session").

One JSON object a line in ``roll_history.jsonl`` in the user data directory (platformdirs), or
the file named by ``$WARBENCH_ROLL_HISTORY``. It is a small file, not the database, so that
``warbench roll`` stays light; it keeps the last :data:`KEEP` rolls. Every entry records its
seed, so ``warbench roll WHAT --seed SEED`` (same options) rolls it again.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HISTORY_ENV = "WARBENCH_ROLL_HISTORY"
KEEP = 500


@dataclass(frozen=True)
class HistoryEntry:
    """One ``warbench roll`` command: when, what with which options, the seed and the results."""

    at: str
    what: str
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    results: list[str] = field(default_factory=list)

    def line(self) -> str:
        """One line for ``warbench roll --history``."""
        opts = " ".join(
            f"--{k} {v}" if v is not True else f"--{k}" for k, v in self.options.items()
        )
        head = f"{self.at[:19].replace('T', ' ')}  {self.what}{' ' + opts if opts else ''}"
        return f"{head}  (seed {self.seed}): {'; '.join(self.results)}"


def history_path() -> Path:
    """``$WARBENCH_ROLL_HISTORY``, else ``roll_history.jsonl`` in the user data directory."""
    env = os.environ.get(HISTORY_ENV)
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("warbench")) / "roll_history.jsonl"


def now() -> str:
    """The current UTC time, ISO 8601 to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def append(entry: HistoryEntry, path: Path | None = None) -> None:
    """Add ``entry``; when the file holds twice :data:`KEEP` rolls, keep only the last KEEP."""
    p = path or history_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    with p.open("a", encoding="utf-8") as f:
        f.write(json.dumps(asdict(entry), separators=(",", ":")) + "\n")
    lines = p.read_text(encoding="utf-8", errors="replace").splitlines()
    if len(lines) > 2 * KEEP:
        p.write_text("\n".join(lines[-KEEP:]) + "\n", encoding="utf-8")


def read(limit: int | None = None, path: Path | None = None) -> list[HistoryEntry]:
    """The last ``limit`` entries (all if None), oldest first; unreadable lines are skipped
    (each line is read by the bounded JSON reader: a damaged file cannot crash or hang)."""
    from warbench.kernel.errors import DataFileError
    from warbench.kernel.readers import ROLL_HISTORY, parse_json

    p = path or history_path()
    if not p.exists():
        return []
    out = []
    for text in p.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            data = parse_json(text, str(p), ROLL_HISTORY)
            out.append(HistoryEntry(**data))
        except (DataFileError, ValueError, TypeError):
            continue
    return out if limit is None else out[-limit:]


def clear(path: Path | None = None) -> None:
    """Forget every roll."""
    p = path or history_path()
    if p.exists():
        p.unlink()
