"""``warbench roll``, the dice generator (Core Rules 001_d3f5e425c5e1196d.txt §1.1 "WARSURGE App:
Dice Generator" L270-287, §1.4 L303-351; Perks 000_94ecc6a4c74d351b.txt §12.2, §12.3 L556-611).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from warbench.cli import app, roll_history
from warbench.cli.app import _register
from warbench.kernel.dice import SeededDice, read_face

runner = CliRunner()
_register()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def rolls(*args: str) -> dict[str, Any]:
    code, out = run("roll", *args, "--json")
    assert code == 0, out
    data: dict[str, Any] = json.loads(out)
    return data


def test_s1_1_shows_every_face_and_the_total() -> None:
    code, out = run("roll", "4D6", "--seed", "11")
    assert code == 0
    faces = [int(f) for f in out.split(":")[1].split(",")[0].split()]
    assert len(faces) == 4 and all(1 <= f <= 6 for f in faces)
    assert f"total {sum(faces)}" in out and "seed 11" in out


def test_s1_1_faces_are_those_the_seeded_dice_service_draws() -> None:
    # The seed is recorded as before: the faces are SeededDice(seed)'s (NumPy's PCG64 stream)
    data = rolls("3D6", "-n", "4", "--seed", "9")
    dice = SeededDice(9)
    assert [r["faces"] for r in data["rolls"]] == [dice.roll_dice(3) for _ in range(4)]
    assert data["seed"] == 9


def test_s1_4_d3_faces_are_read_from_a_d6() -> None:
    data = rolls("5D3", "--seed", "4")
    expected = [read_face(f, 3) for f in SeededDice(4).roll_dice(5)]
    assert data["rolls"][0]["faces"] == expected
    assert data["rolls"][0]["total"] == sum(expected)


def test_s1_4_need_counts_successes_equal_or_greater() -> None:
    data = rolls("20D6", "--need", "4+", "--seed", "3")
    r = data["rolls"][0]
    assert r["need"] == "4+"
    assert r["successes"] == sum(1 for f in r["faces"] if f >= 4)


def test_s1_4_reroll_chosen_faces_once() -> None:
    r = rolls("30D6", "--reroll", "1,2", "--seed", "8")["rolls"][0]
    before, after = r["before_reroll"], r["faces"]
    picked = [i for i, f in enumerate(before) if f in (1, 2)]
    assert picked and r["rerolled"] == len(picked)
    assert all(after[i] == before[i] for i in range(30) if i not in picked)
    # rolled again once only: the new results stand, even a 1 or a 2
    dice = SeededDice(8)
    first = dice.roll_dice(30)
    assert dice.reroll_faces(first, {1, 2}) == after


def test_s1_4_reroll_failed_dice() -> None:
    r = rolls("12D6", "--need", "5+", "--reroll", "failed", "--seed", "2")["rolls"][0]
    assert r["rerolled"] == sum(1 for f in r["before_reroll"] if f < 5)
    assert r["successes"] == sum(1 for f in r["faces"] if f >= 5)


def test_s1_4_reroll_failed_and_successful_together_is_refused() -> None:
    # L327-329: "reroll dice that either failed or were successful, never both"
    code, out = run("roll", "5D6", "--need", "4+", "--reroll", "1,5")
    assert code == 2 and "never both" in out and out.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("5D6", "--reroll", "7"), "allowed: faces from 1 to 6"),
        (("5D6", "--need", "9+"), "N from 1 to 6"),
        (("5D6", "--reroll", "failed"), "needs --need"),
        (("2D6+1", "--need", "4+"), "without +N or xN"),
        (("100001D6",), "1 to 100,000"),
    ],
)
def test_bad_roll_options_are_one_line_errors(args: tuple[str, ...], words: str) -> None:
    code, out = run("roll", *args)
    assert code == 2 and words in out and out.count("\n") == 1


def test_ten_thousand_dice_print_counts_per_face() -> None:
    code, out = run("roll", "10000D6", "--need", "4+", "--seed", "1")
    assert code == 0
    assert "10,000 dice" in out and "6s: " in out
    assert len(out) < 400  # counts per face, not 10,000 faces
    r = rolls("10000D6", "--need", "4+", "--seed", "1")["rolls"][0]
    assert sum(r["counts"].values()) == 10_000 and "faces" not in r
    assert r["successes"] == r["counts"]["4"] + r["counts"]["5"] + r["counts"]["6"]


def test_s12_3_scatter_arrow_shows_an_arrow_or_a_hit() -> None:
    seen = set()
    for seed in range(12):
        s = rolls("scatter", "--seed", str(seed))["rolls"][0]
        out = run("roll", "scatter", "--seed", str(seed))[1]
        if s["hit"]:
            assert "Hit" in out and s["distance"] == 0
        else:
            arrow = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘"}.get(s["direction"], "")
            assert f'{s["direction"]} {s["distance"]}"' in out
            assert arrow in out
        seen.add(s["hit"])
    assert seen == {True, False}


def test_s12_3_scatter_with_one_distance_dice() -> None:
    for seed in range(10):
        s = rolls("scatter", "--distance-dice", "1", "--seed", str(seed))["rolls"][0]
        assert s["hit"] or 1 <= s["distance"] <= 6


def test_s12_2_aether_test_shows_what_the_roll_counts_as() -> None:
    data = rolls("aether", "--modifier", "-1", "-n", "40", "--seed", "5")
    for t in data["rolls"]:
        assert t["counts_as"] == min(12, t["roll"] + 1)
        assert t["passed"] == (t["roll"] <= 8) and not t["doubled"]
    out = run("roll", "aether", "-m", "-3", "--seed", "5")[1]
    assert "counts as" in out


def test_s1_4_roll_off_shows_each_round() -> None:
    data = rolls("rolloff", "--players", "A,B,C", "-n", "30", "--seed", "6")
    for r in data["rolls"]:
        last = r["rounds"][-1]
        assert last[r["winner"]] == max(last.values())
        assert list(last.values()).count(max(last.values())) == 1
    assert any(len(r["rounds"]) > 1 for r in data["rolls"])  # ties are rolled again


def test_s1_1_history_of_rolls_with_seeds(_roll_history: Path) -> None:
    run("roll", "3D6", "--seed", "21")
    run("roll", "10D6", "--need", "4+", "--seed", "22")
    run("roll", "scatter", "--seed", "23", "--no-keep")
    code, out = run("roll", "--history")
    assert code == 0
    lines = out.strip().splitlines()
    assert len(lines) == 2
    assert "3D6" in lines[0] and "seed 21" in lines[0]
    assert "10D6 --need 4+" in lines[1] and "seed 22" in lines[1]
    entries = json.loads(run("roll", "--history", "--json")[1])
    faces = SeededDice(21).roll_dice(3)
    assert entries[0]["results"] == [f"{' '.join(map(str, faces))} = total {sum(faces)}"]
    run("roll", "--clear-history")
    assert "no rolls yet" in run("roll", "--history")[1]


def test_history_keeps_the_last_rolls(_roll_history: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(roll_history, "KEEP", 3)
    for seed in range(8):
        run("roll", "D6", "--seed", str(seed))
    seeds = [e.seed for e in roll_history.read()]
    assert seeds[-3:] == [5, 6, 7] and len(seeds) <= 6


def test_roll_needs_what_or_history() -> None:
    code, out = run("roll")
    assert code == 2 and "--history" in out
