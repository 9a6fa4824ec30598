"""A new player's whole games at the terminal (session 33, lane s33-user).

``warbench play --ruleset collision`` and ``--ruleset warengine`` asked every question of
"player 0" and cited its rule by the source file's hash name ("player 0: place the relic token
[003_fc239e71486306e1.txt L557-565]"), where WARSURGE at the same prompt says "Red: …
[Core Rules §3.6]" (session 32). Now both name the player's side and the book; a force
against a copy of itself is told apart by seat number ("StormReavers (1)"), in the questions
and in the result.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from warbench.cli.app import main

EX = Path(__file__).resolve().parents[2] / "examples"
GROUPS = [
    str(EX / "collision" / "deadholm_scouts.yaml"),
    str(EX / "collision" / "guelivere_band.yaml"),
]
FORCE = str(EX / "warengine" / "stormreavers.yaml")
SOURCE_FILE = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")


def _play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    # two questions answered with Enter (the suggestion), then the input ends
    from tests.cli.test_s33_play2_cli import _play as play

    return play(capsys, monkeypatch, *args, answers="\n\n")


def test_collision_questions_name_the_battle_group_and_the_book_L557_565(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _play(
        capsys, monkeypatch, "--ruleset", "collision", *GROUPS, "--seed", "4", "--turns", "1"
    )
    assert "Deadholm scouts: place the relic token [Collision L557-565]" in text
    assert "player 0" not in text
    assert not SOURCE_FILE.search(text), SOURCE_FILE.search(text)
    assert "Winner: " in text or "Draw" in text


def test_warengine_questions_name_the_force_and_tell_two_copies_apart_L303(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _play(
        capsys, monkeypatch, "--ruleset", "warengine", FORCE, FORCE, "--seed", "4", "--turns", "1"
    )
    assert "StormReavers (1): place Reaver #1 [The WarEngine 2.1 L303]" in text
    assert "\nplayer 0:" not in text
    assert not SOURCE_FILE.search(text), SOURCE_FILE.search(text)
    # the result says which StormReavers won
    assert re.search(r"Winner: StormReavers \([12]\)|Draw", text)
    assert "  StormReavers (1): " in text and "  StormReavers (2): " in text


def test_roster_share_takes_a_file_and_import_takes_the_code_as_its_argument(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A new player's first try: ``roster share FILE`` (as ``roster print FILE``) said
    "unknown roster '…/strike_force.yaml'; there is no roster yet", and ``roster import
    WBR1:…`` (the help: "Import a roster from a file or a share code") said "unknown file type
    ''". Both now do what they were asked."""
    from warbench.rulesets.warsurge.roster_io import load_roster
    from warbench.rulesets.warsurge.share import decode

    db = f"sqlite:///{tmp_path / 'r.db'}"
    sf = EX / "warsurge" / "roster_files" / "strike_force.yaml"
    png = tmp_path / "qr.png"
    try:
        main(["roster", "share", str(sf), "--png", str(png), "--db", db])
    except SystemExit as exc:
        assert not exc.code, capsys.readouterr().err
    out = capsys.readouterr()
    code = out.out.strip()
    assert code.startswith("WBR1:") and png.read_bytes().startswith(b"\x89PNG"), out.err
    assert decode(code).name == load_roster(sf).name
    try:
        main(["roster", "import", code, "--name", "From the code", "--db", db])
    except SystemExit as exc:
        assert not exc.code, capsys.readouterr().err
    assert "imported roster 'From the code' (3 units)" in capsys.readouterr().out
    try:
        main(["roster", "list", "--db", db])
    except SystemExit as exc:
        assert not exc.code
    assert "From the code  3 units" in capsys.readouterr().out


def test_roster_share_of_a_unit_file_says_what_the_file_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``roster share`` takes a roster file now; given a unit file it says in one line what
    the file is and what the roster commands read (it named only show, validate and import)."""
    with pytest.raises(SystemExit) as exc:
        main(
            [
                "roster",
                "share",
                str(EX / "warsurge" / "troopers_10.yaml"),
                "--db",
                f"sqlite:///{tmp_path / 'r.db'}",
            ]
        )
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "is a unit file (Troopers), not a WARSURGE roster" in err and "\n" not in err
    assert "each warbench roster command reads a WARSURGE roster" in err


def test_collision_choices_are_said_in_words_L682_686(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each numbered choice was bare JSON (``1. {"kind": "piles", "piles": [[0, 1], …]}``):
    the piles (L682-686) now name the characters in each, a token's square is said, the JSON
    still under each choice."""
    text = _play(
        capsys, monkeypatch, "--ruleset", "collision", *GROUPS, "--seed", "4", "--turns", "1"
    )
    assert "  1. place the token at (2, 2)\n" in text
    assert (
        "  1. phase 1: Virgil, Skeleton Archer (1); phase 2: Skeleton Archer (2), "
        "Skeleton Archer (3); phase 3: Skeleton Archer (4), Halai  (default)\n"
        '       {"kind": "piles", "piles": [[0, 1], [2, 3], [4, 5]]}'
    ) in text
