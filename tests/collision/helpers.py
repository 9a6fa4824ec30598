"""Shared helpers for the Collision tests (003_fc239e71486306e1.txt)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warbench.rulesets.collision.io import parse_card
from warbench.rulesets.collision.models import Card

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "collision"
BOOK = Path("/work/shared/seeds/003_fc239e71486306e1.txt")


def card_data(**changes: Any) -> dict[str, Any]:
    """A plain, valid card; ``changes`` replace top-level fields, ``stats``/``weapon`` merge."""
    data: dict[str, Any] = {
        "name": "Tester",
        "points": 50,
        "race": "Human",
        "tarot": {"arcana": "minor", "suit": "swords", "number": 3},
        "stats": {"def": 5, "arm": 3, "tuf": 4, "end": 5, "move": 3},
        "weapons": [{"name": "Sword", "ec": 1, "w-att": 3, "w-pow": 3, "reach": 1}],
    }
    stats = changes.pop("stats", None)
    weapon = changes.pop("weapon", None)
    data.update(changes)
    if stats:
        data["stats"] = {**data["stats"], **stats}
    if weapon:
        data["weapons"] = [{**data["weapons"][0], **weapon}]
    return data


def card(**changes: Any) -> Card:
    """A parsed :func:`card_data` card."""
    return parse_card(card_data(**changes), "test.yaml")
