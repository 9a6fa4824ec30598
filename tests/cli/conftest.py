"""CLI tests keep the dice generator's roll history in a temporary file, never the user's."""

from __future__ import annotations

from pathlib import Path

import pytest

from warbench.cli.roll_history import HISTORY_ENV


@pytest.fixture(autouse=True)
def _roll_history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "roll_history.jsonl"
    monkeypatch.setenv(HISTORY_ENV, str(path))
    return path
