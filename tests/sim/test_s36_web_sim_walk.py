"""A new user's walk of the simulation lab (issue 15's ``warbench simulate``; issue 10, session
36, s36-web): an output that cannot be written was found only after the games were played
(``--csv nodir/games.csv``: "cannot write"; ``--parquet`` without pyarrow: "Parquet needs
pyarrow"), the summary, the stored run's number and the report left unsaid, and with
``--no-save`` the games lost. Each is now refused before a game is played."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warbench.sim import lab

ROSTERS = Path(__file__).resolve().parents[2] / "examples" / "warsurge" / "rosters"
PAIR = (ROSTERS / "skirmish_a.yaml", ROSTERS / "skirmish_b.yaml")


def _simulate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> tuple[int, str, int]:
    """The command's exit code, its words and how many games it played."""
    from warbench.cli.app import _register, app

    _register(["simulate"])
    played: list[int] = []
    real = lab.play_game

    def counted(*args: object, **kwargs: object) -> object:
        played.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(lab, "play_game", counted)
    db = f"sqlite:///{tmp_path / 'sim.db'}"
    args = ["simulate", *map(str, PAIR), "-n", "2", "--jobs", "1", "--seed", "5", "--db", db]
    res = CliRunner().invoke(app, [*args, *extra])
    return res.exit_code, " ".join(res.output.split()), len(played)


@pytest.mark.parametrize("option", ["--csv", "--report", "--parquet"])
def test_an_output_in_a_missing_folder_is_refused_before_any_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    target = tmp_path / "nowhere" / "out.file"
    code, said, played = _simulate(tmp_path, monkeypatch, option, str(target))
    assert code == 2, said
    assert f"{option} {target}: the folder {target.parent} does not exist" in said
    assert "nothing was played" in said
    assert played == 0


@pytest.mark.skipif(importlib.util.find_spec("pyarrow") is not None, reason="pyarrow is here")
def test_parquet_without_pyarrow_is_refused_before_any_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, said, played = _simulate(tmp_path, monkeypatch, "--parquet", str(tmp_path / "g.pq"))
    assert code == 2, said
    assert "Parquet needs pyarrow (pip install pyarrow)" in said and "use --csv" in said
    assert played == 0
    assert "stored as run" not in said


def test_outputs_that_can_be_written_still_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, said, played = _simulate(tmp_path, monkeypatch, "--csv", str(tmp_path / "g.csv"))
    assert code == 0, said
    assert played == 2 and "stored as run 1" in said and (tmp_path / "g.csv").exists()


def test_the_value_plot_says_how_many_games_each_game_turn_stands_for() -> None:
    """The report's "Point value over Game Turns" ran to the longest game's last Game Turn (9,
    beside "mean Game Turns 6.00" for seed 7's four games) with nothing saying that its last
    points stood for one game: each Game Turn now has the games still playing under it."""
    from warbench.sim.lab import LabSpec, load_rosters, run_lab
    from warbench.sim.report import _figures, summarise

    rows = run_lab(LabSpec(load_rosters(PAIR), ("scripted", "scripted"), seed=7), 4)
    s = summarise(rows)
    last = [max(v[0] for v in r.values) for r in rows]
    assert len(set(last)) > 1  # games of different lengths: the case that misled
    assert s.playing == [sum(e >= t for e in last) for t, _a, _b in s.values]
    assert s.playing[0] == len(rows) and s.playing[-1] >= 1
    ticks = [t.get_text() for t in _figures(s, ("Red", "Blue"))["values"].axes[0].get_xticklabels()]
    assert ticks == [f"{t}\n{k}" for (t, _a, _b), k in zip(s.values, s.playing, strict=True)]


def test_a_ladder_line_says_whose_win_rate_and_whose_side_dealt_nothing() -> None:
    """A ladder's line read "scripted vs random: 75.0% [30.1%, 95.4%] (3-0-1 of 4); one side
    dealt nothing in 1, scripted in 1", then "4.6 s": whose rate, 1 what, scripted what?"""
    from warbench.cli.app import _register, app

    _register(["simulate"])
    args = ["simulate", *map(str, PAIR), "--ladder", "scripted/random", "--games", "2"]
    res = CliRunner().invoke(app, [*args, "--jobs", "1", "--seed", "3"])
    assert res.exit_code == 0, res.output
    line = next(s for s in res.output.splitlines() if s.startswith("scripted vs random: "))
    assert line.startswith("scripted vs random: scripted's win rate "), line
    said = line.split("; ", 1)[1] if "; " in line else ""
    assert re.fullmatch(r"one side dealt no damage in \d+ games? \(scripted's side in \d+\)", said)
    assert re.search(r"^  the ladder took \d+\.\d s$", res.output, re.M), res.output


def test_the_report_pages_fit_a_phone(tmp_path: Path) -> None:
    """The report and the ladder page had no viewport: a phone drew them 980 px wide, the text
    too small to read (session 36's walk, 390 px); the ladder's table now scrolls in its box."""
    code = CliRunner()
    from warbench.cli.app import _register, app

    _register(["simulate"])
    args = ["simulate", *map(str, PAIR), "--jobs", "1", "--seed", "3", "--games", "2"]
    for extra, page in (
        (["--no-save", "--report"], tmp_path / "r.html"),
        (["--ladder", "scripted/random", "--report"], tmp_path / "l.html"),
    ):
        res = code.invoke(app, [*args, *extra, str(page)])
        assert res.exit_code == 0, res.output
        text = page.read_text(encoding="utf-8")
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in text
    assert '<div class="wide"><table>' in (tmp_path / "l.html").read_text(encoding="utf-8")
