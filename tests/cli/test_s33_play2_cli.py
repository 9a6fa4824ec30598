"""The rest of a new player's walk at the terminal (session 33, lane s33-play2).

* ``warbench play --ruleset warengine`` drew no board at all, where WARSURGE and Collision draw
  theirs: the table is now drawn before the person's questions (once while it stands
  unchanged) and at the end, the placing strips of L301-309 marked and each unit's figures
  named by the numbers the questions use ("Reaver #1").
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from warbench.cli.app import main

EX = Path(__file__).resolve().parents[2] / "examples"
FORCE = str(EX / "warengine" / "stormreavers.yaml")


def _play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str, answers: str
) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    try:
        main(["play", *args])
    except SystemExit as exc:
        assert not exc.code, capsys.readouterr().out
    out = capsys.readouterr()
    return out.out + out.err


def _warengine(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, answers: str
) -> str:
    """A game of the StormReavers against themselves at the terminal, seed 4, one turn."""
    args = ("--ruleset", "warengine", FORCE, FORCE, "--seed", "4", "--turns", "1")
    return _play(capsys, monkeypatch, *args, answers=answers)


def test_warengine_board_is_drawn_before_each_question_L301_309(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _warengine(capsys, monkeypatch, answers="\n\n")
    first = text.index("StormReavers (1): place Reaver #1 [The WarEngine 2.1 L303]")
    before = text[:first]
    # the table, its key and the other force's figures already placed, before the question
    assert 'Ruins (48" x 48")' in before
    # whose strip is whose (session 35)
    assert (
        "Key: . open ground, : placing strips (StormReavers (1) south, StormReavers (2) north;"
        in before
    )
    assert re.search(r"A: Reaver Squad \(#13, .*\) \(StormReavers \(2\), \d+ models?\)", before)
    # the second question has the first figure on the table, drawn again before it
    second = text.index("StormReavers (1): place Reaver #2")
    between = text[first:second]
    assert re.search(r"Reaver Squad \(#1\) \(StormReavers \(1\), 1 model\)", between), between
    # and the table at the end, after the input ended
    assert text.rindex("Key: . open ground") > text.index("input ended")


ROSTERS = EX / "warsurge" / "rosters"


def test_warsurge_deploy_question_and_board_fit_a_40_line_terminal_S3_6(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Deploy question listed 45 two-line choices and the board drew 48 rows, both taller than
    a 40-line terminal: the question scrolled off. Now as many choices as fit are listed, a few
    of each unit, the rest typed as JSON (an unlisted point still deploys), and the board is
    drawn two inches a character."""
    monkeypatch.setenv("LINES", "40")
    monkeypatch.setenv("COLUMNS", "100")
    unlisted = '{"kind": "deploy", "unit": 0, "at": [38.4, 45.6]}'
    text = _play(
        capsys,
        monkeypatch,
        str(ROSTERS / "skirmish_a.yaml"),
        str(ROSTERS / "skirmish_b.yaml"),
        "--seed",
        "4",
        "--turns",
        "4",
        answers=f"1\n{unlisted}\n\n",
    )
    lines = text.splitlines()
    ask = next(i for i, s in enumerate(lines) if "Deploy Phase: a unit's action" in s)
    prompt = next(i for i in range(ask, len(lines)) if lines[i].startswith("> "))
    assert prompt - ask < 40, "\n".join(lines[ask:prompt])
    listed = [s for s in lines[ask:prompt] if re.match(r"  \d+\. Red: ", s)]
    assert len(listed) == 15
    # every unit keeps a few choices
    for unit in ("Troopers", "Assault Squad", "Sniper Troopers"):
        assert sum(f"Red: {unit}: deploy" in s for s in listed) >= 4, listed
    assert re.search(r"\(\d+ more not listed: type any as JSON, e\.g\. \{", text)
    assert '(38.4", 45.6")' not in "\n".join(listed)
    # the board above the question: 24 rows of 2 inches
    top = max(i for i in range(ask) if lines[i].startswith('Ruins (48" x 48")'))
    key = next(i for i in range(top, ask) if lines[i].startswith("Key: "))
    assert key - top - 1 == 24
    # the typed, unlisted point is previewed and made
    assert "preview: Red: Troopers (10 models) placed, centre" in text
    shown = next(i for i, s in enumerate(lines) if "preview: Red: Troopers" in s)
    # the preview's board is two inches a character too: 24 columns, none of 48
    assert re.fullmatch(r"[.:~!X#%@*A-Za-z]{24}", lines[shown + 12]), lines[shown + 12]
    assert not any(re.fullmatch(r"[.:~!X#%@*A-Za-z]{48}", s) for s in lines)
    assert "Red: Troopers deploys (10 models)" in text


def test_end_values_are_said_without_a_trailing_point_zero_S2_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """§2.2 step 8: the end event read "Red 180.0, Blue 270.0 points remaining" at the terminal
    and on the play page; a whole value is now said as one ("Red 180"), a fraction kept. The
    engine's own text (hashed by the seeded fingerprints) is unchanged."""
    from warbench.web.play.scenes import presenter

    text = _play(
        capsys,
        monkeypatch,
        str(ROSTERS / "skirmish_a.yaml"),
        str(ROSTERS / "skirmish_b.yaml"),
        "--seed",
        "4",
        "--turns",
        "4",
        answers="",
    )
    end = next(s for s in text.splitlines() if "The game ends" in s)
    assert re.search(r": Red \d+, Blue \d+ points remaining; ", end), end
    assert re.search(r"\n  Red: \d+ points remaining\n  Blue: \d+ points remaining", text)
    engine = "The game ends (x): Red 180.0, Blue 811.7 points remaining; Blue wins"
    shown = presenter("warsurge").event_words({"kind": "end", "text": engine})
    assert shown["text"] == "The game ends (x): Red 180, Blue 811.7 points remaining; Blue wins"


def test_warengine_events_and_result_name_the_force_not_player_0_L305_L633(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The terminal said "player 0 rolls higher: player 1 places first" (L305) and "...: player
    0 wins" (L631), numbering the seats from 0; each is now the force's name."""
    text = _warengine(capsys, monkeypatch, answers="")
    rolled = r"StormReavers \([12]\) rolls higher: StormReavers \([12]\) places first"
    assert re.search(rolled, text)
    assert re.search(r"victory points: (StormReavers \([12]\) wins|a draw)", text)
    assert not re.search(r"\bplayer \d", text), re.search(r".*\bplayer \d.*", text)
