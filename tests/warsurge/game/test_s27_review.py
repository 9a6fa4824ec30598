"""Session 27's review: regressions found in what landed (Core Rules 001_d3f5e425c5e1196d.txt
§10.2 L4424-4430 terrain "fielded in a player's army"; board field ``army``)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from warbench.cli.app import _register, app
from warbench.kernel.errors import ProfileError
from warbench.rulesets.warsurge.battlefield.io import board_from_data

ROOT = Path(__file__).resolve().parents[3]
BOARD = ROOT / "src/warbench/rulesets/warsurge/data/boards/hive_city_armed_72x48.yaml"
ROSTERS = ROOT / "examples/warsurge/rosters"
_register()


def _turret(army: object) -> dict[str, object]:
    profile = {
        "unit": {"name": "Turret", "move": 0, "dash": 0, "defence": 6, "hp": 10, "armour": "4+"},
        "weapons": [{"name": "Gun", "range": 24, "type": "Heavy", "attacks": 4, "power": 6}],
        "models": [{"count": 1, "weapons": ["Gun"]}],
    }
    return {"name": "T", "rect": [0, 0, 2, 2], "profile": profile, "army": army}


@pytest.mark.parametrize("bad", [True, False, "1"])
def test_s10_2_L4424_army_true_or_false_is_no_sides_number(bad: object) -> None:
    # `army: true` once fielded the piece in side 1's army and `army: false` in side 0's
    # (a bool read as a whole number): a side's number is asked for, and nothing else
    with pytest.raises(ProfileError) as exc:
        board_from_data({"width": 10, "height": 10, "terrain": [_turret(bad)]})
    assert "terrain[0].army" in str(exc.value) and "L4424" in str(exc.value)
    good = board_from_data({"width": 10, "height": 10, "terrain": [_turret(1)]})
    assert good.terrain[0].army == 1


def test_s10_2_L4424_battle_on_a_board_with_army_true_fails_in_one_line(tmp_path: Path) -> None:
    data = yaml.safe_load(BOARD.read_text())
    pieces = [t for t in data["terrain"] if "army" in t]
    pieces[0]["army"] = True
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    args = ["battle", str(ROSTERS / "skirmish_a.yaml"), str(ROSTERS / "skirmish_b.yaml")]
    r = CliRunner().invoke(app, [*args, "-b", str(path), "--seed", "1", "-q", "--turns", "4"])
    assert r.exit_code != 0
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "army" in lines[0] and "Traceback" not in r.output


def test_s10_2_L4424_an_army_piece_without_weapons_is_no_attacker() -> None:
    # a bunker fielded in an army without weapons (a unit that never attacks, §10.2 L4424-4430)
    # was offered as a unit that can act, so its side was made to act every Attack Phase
    piece = _turret(1)
    profile = dict(piece["profile"])  # type: ignore[call-overload]
    del profile["weapons"]
    profile["models"] = [{"count": 1}]
    board = board_from_data(
        {
            "width": 10,
            "height": 10,
            "terrain": [
                {**piece, "name": "B", "profile": profile},
                {**_turret(0), "rect": [5, 5, 7, 7]},
            ],
        }
    )
    bunker, turret = board.terrain
    assert bunker.army == 1 and not bunker.in_play_weapons
    assert turret.in_play_weapons
