"""``warbench play --choose-casualties`` (issue 10, session 39, s39-web): a casualty choice
(001_d3f5e425c5e1196d.txt §5.11 L2872, "The player who controls the Unit will choose which
models are the casualties") lists each distinct outcome once (the engine's order and its
reverse may remove the same models: "model 1 becomes a casualty" twice), and a player may name
the models in an order of their own, by the numbers the board and the choices use ("models 10
9 1"; a JSON list of model indices from 0 before)."""

from __future__ import annotations

from pathlib import Path

import pytest

from warbench.cli.app import main
from warbench.play import GameRecord

ROSTERS = Path(__file__).parents[2] / "examples" / "warsurge" / "rosters"
ARGS = ["--seed", "3", "--side", "1", "--turns", "4", "--choose-casualties"]


def _play(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    answers: list[str],
    *more: str,
) -> str:
    """The game's text; at the first casualty question of one's own the ``answers`` are typed
    one a question (Enter elsewhere: the suggested choice)."""
    said: list[str] = []
    left = list(answers)

    def answer(prompt: str) -> str:
        said.append(capsys.readouterr().out)
        asked = said[-1].rsplit("\nBlue: ", 1)[-1]
        if left and ("choose the casualties" in asked or said[-1].startswith("refused")):
            return left.pop(0)
        return ""

    monkeypatch.setattr("builtins.input", answer)
    a, b = (str(ROSTERS / f) for f in ("skirmish_a.yaml", "skirmish_b.yaml"))
    with pytest.raises(SystemExit) as exit_info:
        main(["play", a, b, *ARGS, *more])
    said.append(capsys.readouterr().out)
    text = "".join(said)
    assert not exit_info.value.code, text
    return text


def _question(text: str, head: str) -> str:
    """The question that starts with ``head``: its line and its choices' (indented) lines."""
    first, *rest = text[text.index(head) :].split("\n")
    lines = [first]
    for line in rest:
        if not line.startswith("  "):
            break
        lines.append(line)
    return "\n".join(lines)


def test_each_casualty_outcome_is_listed_once_s5_12(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _play(capsys, monkeypatch, [])
    # one wounded Gut-Hacker loses the 1 HP whatever the order (§5.12): one choice, not two
    asked = _question(
        text,
        "Blue: Gut-Hackers loses 1 HP to Red: Troopers: choose the casualties among models 1 to 6",
    )
    assert "  1. Blue: Gut-Hackers: model 1 becomes a casualty" in asked, asked
    assert "  2. " not in asked, asked
    # two orders that remove other models stay two choices
    asked = _question(text, "Blue: Dead Dogs loses 3 HP to Red: Sniper Troopers")
    assert "  2. Blue: Dead Dogs: models 8 to 10 become casualties (§5.11)" in asked


def test_a_casualty_order_of_your_own_by_model_numbers_s5_11(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    out = tmp_path / "game.jsonl"
    text = _play(capsys, monkeypatch, ["models 11", "models 10 9 1"], "--record", str(out))
    asked = _question(text, "Blue: Dead Dogs loses 3 HP to Red: Sniper Troopers")
    assert 'or your own order, e.g. "models 10 9 1" (among models 1 to 10;' in asked, asked
    # a model the unit does not have is refused in the player's numbers, then asked again
    assert (
        "refused: model 11 may not be chosen; the choice is among models 1 to 10 [§5.11, §5.13]"
    ) in text
    # the order named: models 10, 9 and 1 become the casualties, said before it is made
    assert "your choice: Blue: Dead Dogs: models 1, 9 and 10 become casualties (§5.11)" in text
    # and made as named: the record keeps the order, model indices from 0, checked by the engine
    steps = [s.action for s in GameRecord.load(out).steps if isinstance(s.action, dict)]
    dogs = [a for a in steps if a.get("kind") == "casualties" and a.get("unit") == 3]
    assert dogs[0] == {"kind": "casualties", "unit": 3, "models": [9, 8, 0]}, dogs[0]
