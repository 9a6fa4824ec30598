"""docs/architecture.md names every module of every ruleset's game package (`game/*.py`) in that
game's section, so a module added to a game without a line in the architecture fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
GAMES = sorted((ROOT / "src" / "warbench" / "rulesets").glob("*/game"))
#: the heading of each ruleset's game section
SECTIONS = {
    "warsurge": "### The WARSURGE game (`rulesets/warsurge/game/`)",
    "warengine": "### The WarEngine game (`rulesets/warengine/game/`)",
    "collision": "## Collision (`warbench.rulesets.collision`)",
}


def _section(text: str, heading: str) -> str:
    """The text under ``heading`` up to the next heading of any level."""
    start = text.index(heading) + len(heading)
    nxt = re.search(r"^#", text[start:], re.M)
    return text[start : start + nxt.start()] if nxt else text[start:]


def _modules() -> list[str]:
    return [f"{g.parent.name}/{p.stem}" for g in GAMES for p in sorted(g.glob("*.py"))
            if p.stem != "__init__"]  # fmt: skip


def _named(text: str, stem: str) -> bool:
    """``stem`` in backticks, as ``stem.py``, ``stem`` or ``stem.something``."""
    return re.search(rf"`{re.escape(stem)}(\.py)?(\.\w+)*`", text) is not None


def test_the_game_packages_are_found() -> None:
    assert {g.parent.name for g in GAMES} >= {"warsurge", "warengine", "collision"}
    assert len(_modules()) > 150


@pytest.mark.parametrize("module", _modules())
def test_architecture_names_every_game_module(module: str) -> None:
    ruleset, stem = module.split("/")
    text = _section(DOC.read_text(encoding="utf-8"), SECTIONS[ruleset])
    assert _named(text, stem), f"docs/architecture.md does not name {module}.py in its section"


def test_an_unnamed_module_is_caught() -> None:
    assert not _named("`perk_formless.py` and `perk_form_x`", "perk_form")
    assert _named("see `perk_form.take_place`", "perk_form")
