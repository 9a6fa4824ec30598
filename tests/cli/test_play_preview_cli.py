"""``warbench play`` previews a Move typed as JSON (issue 10, session 31): before it is made,
the terminal shows where the engine would put each model (the unit's centre before and after,
how far it moves, each model's start and end, the board as text with the new places as one
more unit) and asks to confirm; ``n`` asks the question again, Enter or ``y`` makes it, and
the models then stand where the preview said. ``--no-confirm`` keeps the old behaviour for
scripts: the typed Move is made at once. Core Rules 001_d3f5e425c5e1196d.txt §4.1
L1833-1851 (the engine's placement, docs/rulings.md "WARSURGE movement: session 30")."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from warbench.cli.app import main
from warbench.play import GameRecord, replay

ROOT = Path(__file__).parents[2]
ROSTERS = ROOT / "examples" / "warsurge" / "rosters"
#: a point across the table from Red's zone: the unit goes as far as its Move takes it
POINT = [24.0, 30.0]


class Person:
    """Answers ``input``: Enter until a question lists a Move toward a point, then that unit's
    Move typed toward :data:`POINT`; the confirmations are ``confirms`` in turn (a Move typed
    again after each refusal); once they are used up the input ends (the AI plays on)."""

    def __init__(self, capsys: pytest.CaptureFixture[str], confirms: list[str | None]) -> None:
        self.capsys, self.confirms = capsys, list(confirms)
        self.out = ""
        self.typed: str | None = None
        self.asked = 0

    def __call__(self, prompt: str) -> str:
        self.out += self.capsys.readouterr().out
        if prompt.startswith("make it?"):
            self.asked += 1
            answer = self.confirms.pop(0)
            if answer is None:  # the input ends at the question
                raise EOFError
            return answer
        if self.typed is not None:  # the Move again after an "n"; else the input ends
            if not self.confirms:
                raise EOFError
            return self.typed
        question = self.out.rsplit("player 0:", 1)[-1]
        for line in question.splitlines():
            line = line.strip()
            if not line.startswith("{"):
                continue
            a = json.loads(line)
            if a.get("kind") == "move" and a.get("to") is not None:
                self.typed = json.dumps({"kind": "move", "unit": a["unit"], "to": POINT})
                return self.typed
        return ""


def _play(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    confirms: list[str | None],
    *flags: str,
) -> tuple[Person, GameRecord]:
    person = Person(capsys, confirms)
    monkeypatch.setattr("builtins.input", person)
    out = tmp_path / "game.jsonl"
    a, b = (str(ROSTERS / f) for f in ("skirmish_a.yaml", "skirmish_b.yaml"))
    with pytest.raises(SystemExit) as exit_info:
        main(["play", a, b, "--seed", "1", "--turns", "4", "--record", str(out), *flags])
    person.out += capsys.readouterr().out
    assert not exit_info.value.code, person.out
    return person, GameRecord.load(out)


def _typed_step(record: GameRecord, typed: str) -> int:
    want = json.loads(typed)
    steps = [
        k
        for k, s in enumerate(record.steps)
        if s.action.get("kind") == "move" and s.action.get("to") == want["to"]
    ]
    assert len(steps) == 1, steps
    return steps[0]


def test_a_typed_move_is_previewed_refused_once_then_made_where_it_showed_L1845(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    person, record = _play(capsys, monkeypatch, tmp_path, ["n", "y"])
    assert person.typed is not None and person.asked == 2, person.out
    text = person.out
    assert "not made: your choice again" in text
    head = re.findall(
        r"preview: (.+?) \((\d+) models\): centre \(([\d.]+), ([\d.]+)\) -> "
        r'\(([\d.]+), ([\d.]+)\), ([\d.]+)" moved \(the farthest model ([\d.]+)"\)',
        text,
    )
    assert len(head) == 2 and head[0] == head[1], head  # shown again for the second try
    label, n = head[0][0], int(head[0][1])
    before, after = [float(v) for v in head[0][2:4]], [float(v) for v in head[0][4:6]]
    assert math.dist(before, after) == pytest.approx(float(head[0][6]), abs=0.06)
    assert math.dist(after, POINT) < math.dist(before, POINT)  # toward the point
    assert f"{label}, after (preview) ({n} models)" in text  # the legend: no "player 1"
    # the board is characters as drawn: ":A:" (unit A on a Deployment Zone) is no emoji code
    assert not re.search("[\U0001f100-\U0001f1ff]", text)
    moves = re.findall(r"model (\d+): \(([\d.]+), ([\d.]+)\) -> \(([\d.]+), ([\d.]+)\)", text)
    shown = {int(m[0]) - 1: (float(m[3]), float(m[4])) for m in moves[:n]}
    # made once, after the "y": the models stand where the preview said
    k = _typed_step(record, person.typed)
    rep = replay(record, upto=k + 1)
    unit = json.loads(person.typed)["unit"]
    pos = rep.state.game.units[unit].pos
    assert len(shown) == n
    for i, end in shown.items():
        assert math.dist(pos[i], end) < 0.006, (i, pos[i], end)


def test_no_confirm_makes_the_typed_move_at_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    person, record = _play(capsys, monkeypatch, tmp_path, [], "--no-confirm")
    assert person.typed is not None and person.asked == 0
    assert "preview:" not in person.out
    _typed_step(record, person.typed)


def test_input_ending_at_the_confirmation_makes_the_typed_move_and_the_ai_plays_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The input ends at "make it?" (a script's last line was the Move): the question takes
    its default as every question does once the input ended (Enter: made), the game goes on
    with the AI in the seat, and nothing is read again (session 31 review)."""
    person, record = _play(capsys, monkeypatch, tmp_path, [None])
    assert person.typed is not None and person.asked == 1
    assert "input ended: the scripted AI plays on for you" in person.out
    assert "not made" not in person.out
    _typed_step(record, person.typed)
    assert record.steps[-1] is not record.steps[_typed_step(record, person.typed)]
