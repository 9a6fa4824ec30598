"""Consequences of actions: every roll, move, hit and removal is an event (STYLE.md §2-3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened: a kind, a sentence for the turn-by-turn summary, and data.

    ``rule`` cites the section that produced it (so a log explains itself).
    """

    kind: str
    text: str
    turn: int = 0
    phase: str = ""
    rule: str = ""
    data: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text, "turn": self.turn}
        if self.phase:
            out["phase"] = self.phase
        if self.rule:
            out["rule"] = self.rule
        if self.data:
            out["data"] = self.data
        return out
