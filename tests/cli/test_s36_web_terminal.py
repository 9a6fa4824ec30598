"""What a player still tripped on at the terminal (session 36, lane s36-web, issue 10).

* The key under the board was cut wherever the terminal's line ended: WARSURGE's at words but
  The WarEngine's not wrapped at all (the terminal split "# / impassable" and the placing
  strips' entry). Both keys are now wrapped at the terminal's width between entries, an entry
  wider than a line at its spaces, never inside a word.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from warbench.cli.app import main
from warbench.rulesets.warsurge.battlefield.render import COMPASS, MAP_KEY

EX = Path(__file__).resolve().parents[2] / "examples"
FORCE = str(EX / "warengine" / "stormreavers.yaml")
ROSTERS = EX / "warsurge" / "rosters"


def _play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str, answers: str
) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    try:
        main(["play", *args])
    except SystemExit as exc:
        assert not exc.code, capsys.readouterr().out
    return capsys.readouterr().out


def _first_key(out: str) -> list[str]:
    """The first key's rows: its "Key:" line and the indented lines under it."""
    lines = out.splitlines()
    start = next(i for i, s in enumerate(lines) if s.startswith("Key: "))
    rows = [lines[start]]
    for s in lines[start + 1 :]:
        if not s.startswith("     "):
            break
        rows.append(s)
    return rows


@pytest.mark.parametrize("columns", [80, 100])
@pytest.mark.parametrize("ruleset", ["warsurge", "warengine"])
def test_the_key_is_wrapped_at_entries_to_the_terminal_width(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    ruleset: str,
    columns: int,
) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("LINES", "40")
    if ruleset == "warsurge":
        a, b = (str(ROSTERS / f) for f in ("skirmish_a.yaml", "skirmish_b.yaml"))
        args: tuple[str, ...] = (a, b, "--seed", "3", "--turns", "4", "--no-confirm")
    else:
        args = ("--ruleset", "warengine", FORCE, FORCE, "--seed", "4", "--turns", "1")
    rows = _first_key(_play(capsys, monkeypatch, *args, answers="\n"))
    assert len(rows) > 1, rows  # wrapped, not one long line the terminal cuts
    for row in rows:
        assert len(row) <= columns, row
    words = {w for w in MAP_KEY.values() if w != "Deployment Zone"} | set(COMPASS)
    for row in rows:
        # an entry whose words are split across two rows leaves a fragment at a row's edge
        for w in words:
            head, tail = w.split(" ", 1)[0], w.rsplit(" ", 1)[-1]
            if " " in w and row.rstrip(",;").endswith(f" {head}"):
                pytest.fail(f"{w!r} split after {head!r}: {rows}")
            if " " in w and row.strip().startswith(tail) and w not in row:
                pytest.fail(f"{w!r} split before {tail!r}: {rows}")
    joined = " ".join(r.strip() for r in rows)
    # every character drawn is explained whole, each beside its character
    for c, w in MAP_KEY.items():
        if c == ":":
            continue
        if f" {w}" in joined:
            assert any(f"{c} {w}" in r for r in rows), (c, w, rows)
    if ruleset == "warengine":
        strips = "placing strips (StormReavers (1) south, StormReavers (2) north; L301-309)"
        assert f": {strips}" in joined, joined
        assert not re.search(r"(^|\s)#$", "\n".join(rows), re.M), rows  # "# / impassable"


def test_the_example_action_of_a_family_is_one_the_rules_accept_L376(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The line under a question's choices offered the middle of a family's box as its example
    ("or any move #1 (to: x 18.5 to 30.5, y 5.5 to 17.5) as JSON, e.g. {... "x": 24.5, "y":
    11.5}"): a WarEngine move's box is centred on the figure, so the example was where it stood
    and typing it was refused ("a move must go somewhere"; 116 of 133 family lines in a game,
    session 36). Each example a person copies is now made: typed back, it is never refused."""
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("LINES", "40")
    typed: list[str] = []
    out: list[str] = []

    def answer(prompt: str) -> str:
        out.append(capsys.readouterr().out)
        said = out[-1].strip().splitlines()
        examples = [s for s in said[-4:] if " move #" in s and "e.g. " in s]
        if examples and len(typed) < 6:
            typed.append(examples[-1].split("e.g. ", 1)[1])
            return typed[-1]
        if len(out) > 400:
            raise EOFError
        return ""

    monkeypatch.setattr("builtins.input", answer)
    try:
        main(["play", "--ruleset", "warengine", FORCE, FORCE, "--seed", "4", "--turns", "1"])
    except SystemExit as exc:
        assert not exc.code
    out.append(capsys.readouterr().out)
    text = "".join(out)
    assert len(typed) == 6, typed  # six moves typed as their examples
    assert "refused:" not in text, text[text.index("refused:") - 300 :][:600]
    assert text.count("moves to (") >= 6
