"""A new player at the terminal (session 34, lane s34-user): a file of one ruleset given to
another ruleset's command is one line saying what the file is and which command reads it.

Before, ``warbench points examples/warengine/warpeyes.yaml`` said ``name = 'name' is not
allowed (not part of the file format)`` and ``warbench warengine points
examples/collision/virgil.yaml`` said ``type = None is not allowed``: the player was told about
a field, not that the file belongs to another game (``warbench.rulesets.file_kinds``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_roster_cli import run
from warbench.rulesets.file_kinds import ruleset_file
from warbench.rulesets.warengine.io import load as load_warengine
from warbench.rulesets.warsurge.io import _read

EXAMPLES = Path(__file__).parents[2] / "examples"
FIGURE = EXAMPLES / "warengine" / "warpeyes.yaml"
FORCE = EXAMPLES / "warengine" / "stormreavers.yaml"
CARD = EXAMPLES / "collision" / "virgil.yaml"
GROUP = EXAMPLES / "collision" / "deadholm_scouts.yaml"
UNIT = EXAMPLES / "warsurge" / "troopers_laser.yaml"
GAME_ROSTER = EXAMPLES / "warsurge" / "rosters" / "skirmish_a.yaml"


def one_line(code: int, err: str) -> str:
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert "is not allowed" not in err, err
    return err


@pytest.mark.parametrize(
    ("path", "said"),
    [
        (FIGURE, "is a WarEngine figure (WarpEyes), not a unit file"),
        (FORCE, "is a WarEngine force (StormReavers), not a unit file"),
        (CARD, "is a Collision character card (Virgil), not a unit file"),
        (GROUP, "is a Collision battle group (Deadholm scouts), not a unit file"),
    ],
)
def test_warsurge_points_of_another_rulesets_file(
    capsys: pytest.CaptureFixture[str], path: Path, said: str
) -> None:
    code, _, err = run(capsys, "points", str(path))
    err = one_line(code, err)
    assert f"{path}: {said}; warbench points reads a unit file" in err


def test_warsurge_points_of_a_figure_names_the_warengine_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "points", str(FIGURE))
    assert f"price it with: warbench warengine points {FIGURE}" in one_line(code, err)


def test_a_warsurge_game_with_a_warengine_force(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "battle", str(FORCE), str(GAME_ROSTER), "-q")
    err = one_line(code, err)
    assert "is a WarEngine force (StormReavers), not a game roster" in err
    assert "warbench play --ruleset warengine" in err


@pytest.mark.parametrize(
    ("path", "said"),
    [
        (CARD, "is a Collision character card (Virgil), not a figure or force"),
        (GROUP, "is a Collision battle group (Deadholm scouts), not a figure or force"),
        (UNIT, "is a WARSURGE unit file (Troopers), not a figure or force"),
        (GAME_ROSTER, "is a WARSURGE game roster (Red), not a figure or force"),
    ],
)
def test_warengine_points_of_another_rulesets_file(
    capsys: pytest.CaptureFixture[str], path: Path, said: str
) -> None:
    code, _, err = run(capsys, "warengine", "points", str(path))
    assert said in one_line(code, err)


@pytest.mark.parametrize(
    ("path", "said"),
    [
        (FIGURE, "is a WarEngine figure (WarpEyes), not a card or battle group"),
        (FORCE, "is a WarEngine force (StormReavers), not a card or battle group"),
        (UNIT, "is a WARSURGE unit file (Troopers), not a card or battle group"),
    ],
)
def test_collision_validate_of_another_rulesets_file(
    capsys: pytest.CaptureFixture[str], path: Path, said: str
) -> None:
    code, _, err = run(capsys, "collision", "validate", str(path))
    assert said in one_line(code, err)


def test_every_example_is_told_as_its_own_rulesets_file() -> None:
    """The key signatures never claim a file of the ruleset that reads it for another one:
    every example file of each ruleset is its own ruleset's kind (or no kind)."""
    for ruleset in ("warsurge", "warengine", "collision"):
        for path in sorted((EXAMPLES / ruleset).rglob("*.yaml")):
            if "boards" in path.parts:
                continue
            data, _ = _read(path)
            kind = ruleset_file(data)
            assert kind is None or kind.ruleset == ruleset, (path, kind)


def test_the_right_files_still_load(capsys: pytest.CaptureFixture[str]) -> None:
    assert load_warengine(FORCE).name == "StormReavers"
    code, _, err = run(capsys, "collision", "validate", str(GROUP))
    assert code == 0, err
    code, _, err = run(capsys, "warengine", "points", str(FIGURE))
    assert code == 0, err


def test_odds_darkside_without_a_darkside_weapon_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--darkside 5,1`` with a Laser Rifle was accepted (exit 0) and did nothing, although 5
    is outside Darkside's 0-3 and no weapon has the perk (Perks §12.5)."""
    target = EXAMPLES / "warsurge" / "kataton_servitors.yaml"
    code, _, err = run(capsys, "odds", str(UNIT), str(target), "--darkside", "5,1")
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert "--darkside 5,1: no weapon used (Laser Rifle) has Darkside" in err
    assert "Perks §12.5 Darkside" in err


def test_points_of_a_file_holding_text_names_the_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A YAML file holding a bare word said ``(file) = 'str' is not allowed``: Python's type
    name, not what the file holds."""
    path = tmp_path / "word.yaml"
    path.write_text("hello\n", encoding="utf-8")
    code, _, err = run(capsys, "points", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "(file) = 'hello' is not allowed (text, not a mapping)" in err
    assert "'str'" not in err


def test_roster_add_of_a_missing_file_or_unknown_unit_says_what_unit_may_be(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """On a fresh database ``roster add R nope.yaml`` said "unknown unit 'nope.yaml'; there is
    no unit yet", treating a mistyped path as a unit's name."""
    db = f"sqlite:///{tmp_path / 'wb.db'}"
    assert run(capsys, "roster", "new", "R", "--limit", "500", "--db", db)[0] == 0
    code, _, err = run(capsys, "roster", "add", "R", "nope.yaml", "--db", db)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "nope.yaml: file not found; UNIT is a unit file or the name of a faction's unit" in err
    code, _, err = run(capsys, "roster", "add", "R", "Troopers", "--db", db)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "unknown unit 'Troopers'; there is no unit yet (UNIT is a faction's unit" in err
    assert "warbench faction add-unit FACTION FILE" in err
    assert run(capsys, "roster", "add", "R", str(UNIT), "--db", db)[0] == 0


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--cover-bonus", "9"), "Input should be less than or equal to 5 [§5.6]"),
        (("--in-sight", "0"), "Input should be greater than or equal to 1 [§5.3]"),
    ],
)
def test_an_option_out_of_range_names_its_rule(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], said: str
) -> None:
    """``--cover-bonus 9`` named the option and its bound but not the rule (Core Rules §5.6)."""
    target = EXAMPLES / "warsurge" / "herald.yaml"
    code, _, err = run(capsys, "odds", str(UNIT), str(target), *args)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert said in err and err.rstrip().endswith("odds --help')")


def test_a_limit_out_of_range_names_core_rules_3_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(
        capsys, "roster", "new", "X", "--limit", "0", "--db", f"sqlite:///{tmp_path / 'w.db'}"
    )
    assert code == 2 and "greater than or equal to 1 [Core Rules §3.1]" in err


def test_an_option_whose_help_names_no_rule_adds_none(capsys: pytest.CaptureFixture[str]) -> None:
    target = EXAMPLES / "warsurge" / "herald.yaml"
    code, _, err = run(capsys, "odds", str(UNIT), str(target), "--seed", "-1")
    assert code == 2 and "Input should be greater than or equal to 0 (see" in err
