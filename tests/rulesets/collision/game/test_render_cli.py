"""The text and SVG boards, and ``warbench collision play`` / ``warbench play --ruleset
collision`` (docs/collision-game.md)."""

from __future__ import annotations

import io
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.rulesets.collision.game.helpers import EXAMPLES, card, duel_setup, placed
from warbench.cli.app import main
from warbench.play import GameRecord, replay
from warbench.rulesets.collision.game.protocol import make_view
from warbench.rulesets.collision.game.render import render_svg, render_text

GROUPS = [str(EXAMPLES / "deadholm_scouts.yaml"), str(EXAMPLES / "guelivere_band.yaml")]


def test_text_board_shows_characters_terrain_and_elevation() -> None:
    s = placed(duel_setup(card("A"), card("B")), {0: ((0, 0), "E"), 1: ((7, 5), "W")})
    s.terrain = [(3, 3, "vertical", 1)]
    text = render_text(make_view(s, 0))
    rows = text.splitlines()
    assert rows[1].startswith("  5") and rows[1].rstrip().endswith("A")  # the top row first
    assert rows[6].startswith("  0 a")
    assert "|" in rows[3]
    assert "turn 1/" in text and "Headhunter" in text


def test_svg_board_is_well_formed() -> None:
    s = placed(duel_setup(card("A"), card("B")), {0: ((0, 0), "E"), 1: ((7, 5), "W")})
    root = ElementTree.fromstring(render_svg(make_view(s, 1)))
    assert root.tag.endswith("svg") and root.get("width") == "240"
    assert len([e for e in root.iter() if e.tag.endswith("circle")]) == 2


def test_views_hide_the_opponents_piles_L774_776() -> None:
    s = placed(duel_setup(card("A"), card("B")), {0: ((0, 0), "E"), 1: ((7, 5), "W")})
    s.units[1].activated = False
    view = make_view(s, 0)
    assert view["units"][1]["pile"] is None and view["units"][0]["pile"] == 1
    assert make_view(s, 1)["units"][1]["pile"] == 1


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    out = capsys.readouterr()
    return int(exit_info.value.code or 0), out.out + out.err


def test_cli_plays_a_battle_with_the_scripted_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg, rec = tmp_path / "b.svg", tmp_path / "b.jsonl"
    args = [
        "collision",
        "play",
        *GROUPS,
        "--auto",
        "--seed",
        "2",
        "--turns",
        "1",
        "--quiet",
        "--svg",
        str(svg),
        "--record",
        str(rec),
    ]
    code, out = _run(args, capsys)
    assert code == 0, out
    assert "Victory Points" in out and svg.read_text().startswith("<svg")
    record = GameRecord.load(rec)
    assert replay(record).digests == [x.digest for x in record.steps]


def test_play_with_ruleset_collision_plays_on_when_the_input_ends(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('nonsense\n{"kind": "role", "role": "x"}\n\n'))
    code, out = _run(
        ["play", "--ruleset", "collision", *GROUPS, "--seed", "1", "--turns", "1"], capsys
    )
    assert code == 0, out
    assert "not understood" in out
    assert "the scripted player plays on for you" in out


@pytest.mark.parametrize(
    "args,message",
    [
        (["collision", "play", GROUPS[0]], "exactly two battle groups"),
        (["collision", "play", *GROUPS, "--side", "2"], "--side 2"),
        (["collision", "play", *GROUPS, "--major", "Headhunter"], "go together"),
        (["play", "--ruleset", "chess", *GROUPS], "allowed: warsurge, warengine, collision"),
    ],
)
def test_cli_refuses_bad_input_in_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _run(args, capsys)
    assert code != 0 and message in out


def test_the_grid_is_drawn_before_the_deployment_questions_L688_724(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Session 35's walk: the terminal asked "deploy a phase 1 character" (148 squares listed)
    with no board drawn; the first grid came at the first activation. Now the grid is drawn
    before the player's deployment questions."""
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 12))
    code, out = _run(
        ["play", "--ruleset", "collision", *GROUPS, "--seed", "3", "--turns", "1"], capsys
    )
    assert code == 0, out
    first_deploy = out.index("deploy a phase 1 character")
    first_activation = out.index("activate a character")
    grid = "    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7"
    assert grid in out[:first_deploy]
    assert first_deploy < first_activation
