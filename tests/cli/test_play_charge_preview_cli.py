"""``warbench play`` previews a charge chosen by its number (issue 10, session 32): a listed
Move naming the enemy unit it engages (no point typed) shows where the engine puts each model,
in Base Contact with the target (Core Rules 001_d3f5e425c5e1196d.txt §4.3 L1985-1991), and asks
``make it? [Y/n]``; ``n`` asks the question again, ``y`` makes it, and the models stand where the
preview said. Other listed choices are made at once, as before; ``--no-confirm`` makes the
charge at once too."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from warbench.cli.app import main
from warbench.play import GameRecord, replay

ROOT = Path(__file__).parents[2]
ROSTERS = ROOT / "examples" / "warsurge" / "rosters"


class Person:
    """Enter until a question lists a charge, then its number; the confirmations are
    ``confirms`` in turn (the number again after each "n"); then the input ends."""

    def __init__(self, capsys: pytest.CaptureFixture[str], confirms: list[str]) -> None:
        self.capsys, self.confirms = capsys, list(confirms)
        self.out = ""
        self.number: str | None = None
        self.charge: dict[str, object] | None = None
        self.asked = 0

    def __call__(self, prompt: str) -> str:
        self.out += self.capsys.readouterr().out
        if prompt.startswith("make it?"):
            self.asked += 1
            return self.confirms.pop(0)
        if self.number is not None:
            if not self.confirms:
                raise EOFError
            return self.number
        question = self.out.rsplit("player 1:", 1)[-1]
        k = None
        for line in question.splitlines():
            # "  11. {json}  (default)", or "  11. words" with the JSON on the next line
            m = re.match(r"\s+(\d+)\. (.*?)(\s+\(default\))?$", line)
            if m:
                k = m.group(1)
            raw = m.group(2) if m else line.strip()
            if raw.startswith("{") and k is not None:
                a = json.loads(raw)
                if a.get("kind") == "move" and a.get("engage") is not None:
                    self.number, self.charge = k, a
                    return k
        return ""


def _play(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    confirms: list[str],
    *flags: str,
) -> tuple[Person, GameRecord]:
    person = Person(capsys, confirms)
    monkeypatch.setattr("builtins.input", person)
    out = tmp_path / "game.jsonl"
    a, b = (str(ROSTERS / f) for f in ("skirmish_a.yaml", "skirmish_b.yaml"))
    args = ["play", a, b, "--side", "1", "--seed", "1", "--turns", "4", "--record", str(out)]
    with pytest.raises(SystemExit) as exit_info:
        main([*args, *flags])
    person.out += capsys.readouterr().out
    assert not exit_info.value.code, person.out
    return person, GameRecord.load(out)


def _charge_step(record: GameRecord, charge: dict[str, object]) -> int:
    steps = [k for k, s in enumerate(record.steps) if s.action == charge]
    assert len(steps) == 1, steps
    return steps[0]


def test_a_listed_charge_is_previewed_refused_once_then_made_where_it_showed_L1985(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    person, record = _play(capsys, monkeypatch, tmp_path, ["n", "y"])
    assert person.charge is not None and person.asked == 2, person.out[-3000:]
    text = person.out
    assert "not made: your choice again" in text
    n = len(re.findall(r"preview: .+ \((\d+) models\): centre", text))
    assert n == 2  # shown for each choice
    moves = re.findall(r"model (\d+): \(([\d.]+), ([\d.]+)\) -> \(([\d.]+), ([\d.]+)\)", text)
    k = _charge_step(record, person.charge)
    unit = int(str(person.charge["unit"]))
    pos = replay(record, upto=k + 1).state.game.units[unit].pos
    shown = {int(m[0]) - 1: (float(m[3]), float(m[4])) for m in moves}
    assert shown
    for i, end in shown.items():
        assert abs(pos[i][0] - end[0]) < 0.006 and abs(pos[i][1] - end[1]) < 0.006


def test_no_confirm_makes_a_listed_charge_at_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    person, record = _play(capsys, monkeypatch, tmp_path, [], "--no-confirm")
    assert person.charge is not None and person.asked == 0
    assert "preview:" not in person.out
    _charge_step(record, person.charge)
