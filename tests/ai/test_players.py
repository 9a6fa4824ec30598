"""The player-kind registry (``play.players.PLAYER_KINDS``): every kind by name in batches,
the lab and the commands, imported on use so ``play`` never imports ``ai`` (issue 15)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from warbench.kernel.errors import UnknownNameError
from warbench.play import ProtocolError, RandomLegalPlayer, run_batch
from warbench.play.players import (
    PLAYER_KINDS,
    AutomaticPlayer,
    Lineup,
    check_kind,
    make_player,
    player_kind_names,
)

from .test_search import skirmish

SRC = Path(__file__).parents[2] / "src" / "warbench"


def test_the_registry_names_kinds_by_import_path_only() -> None:
    """Each entry is ``"module:attr"``; nothing under play/ imports warbench.ai at all (the
    registry imports a kind's module when it is first used): layers point down."""
    assert all(":" in v for v in PLAYER_KINDS.values())
    for path in (SRC / "play").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not any(n.startswith("warbench.ai") for n in names), path


def test_importing_play_does_not_import_the_ai() -> None:
    code = (
        "import sys, warbench.play, warbench.play.players, warbench.play.runner\n"
        "assert not [m for m in sys.modules if m.startswith('warbench.ai')], 'ai imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_kind_and_level_is_listed() -> None:
    names = player_kind_names()
    for kind in ("random", "scripted", "automatic", "tactical", "search", "search:1", "search:4"):
        assert kind in names
        assert check_kind(kind) == kind


@pytest.mark.parametrize(
    ("kind", "names"),
    [("serch", "search"), ("search:9", "'1', '2'"), ("random:2", "random"), ("", "scripted")],
)
def test_an_unknown_kind_or_level_names_the_allowed_ones(kind: str, names: str) -> None:
    with pytest.raises(UnknownNameError) as err:
        check_kind(kind)
    assert names in str(err.value)


def test_the_simple_kinds_need_no_setup() -> None:
    assert isinstance(make_player("random", 3, 1), RandomLegalPlayer)
    assert isinstance(make_player("scripted", 3, 1), AutomaticPlayer)
    assert isinstance(Lineup(("automatic",))(3, 0), AutomaticPlayer)


def test_a_search_kind_without_the_setup_says_what_it_needs() -> None:
    with pytest.raises(ProtocolError, match="ruleset id and set-up"):
        Lineup(("search:1",))(3, 0)


def test_run_batch_takes_every_kind_by_name() -> None:
    """``run_batch(players=[kind, kind])`` with search and tactical kinds: the lineup gets the
    batch's ruleset and set-up; the same seeds give the same rows."""
    setup = skirmish(game_length=4)
    kinds = ["search:1", "tactical"]
    rows = run_batch("warsurge", setup, [5], players=kinds, backend="inline")
    again = run_batch("warsurge", setup, [5], players=kinds, backend="inline")
    assert rows == again and rows[0].finished


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    from warbench.cli.app import main

    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out + out.err


ROSTERS = Path(__file__).parents[2] / "examples" / "warsurge" / "rosters"


def test_battle_takes_a_kind_per_roster_and_writes_a_record_that_replays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rec = tmp_path / "g.jsonl"
    a, b = str(ROSTERS / "skirmish_a.yaml"), str(ROSTERS / "skirmish_b.yaml")
    code, out = _cli(
        capsys, "battle", a, b, "--players", "search:1,tactical", "--seed", "5",
        "--turns", "4", "-q", "--record", str(rec),
    )  # fmt: skip
    assert code == 0, out
    assert "Game Turns" in out
    code, out = _cli(capsys, "replay", str(rec))
    assert code == 0, out


@pytest.mark.parametrize(
    ("players", "says"),
    [("serch", "unknown player kind"), ("search:9", "search level"), ("a,b,c", "one per roster")],
)
def test_battle_refuses_an_unknown_kind_in_one_line(
    capsys: pytest.CaptureFixture[str], players: str, says: str
) -> None:
    a, b = str(ROSTERS / "skirmish_a.yaml"), str(ROSTERS / "skirmish_b.yaml")
    code, out = _cli(capsys, "battle", a, b, "--players", players)
    assert code != 0 and says in out and len(out.strip().splitlines()) == 1
