"""A points-study round played in parts and resumed (issue 15, session 34, docs/points.md §9
"Round 7 (first part)"): ``--only``/``--matchups`` play some matchups, each on the seeds it has
in the whole round, so the parts merge (``--merge``) into the round played at once; ``--out``
is written after every matchup and ``--resume`` plays only what the file lacks.

The games are faked (``run_lab`` replaced): what is tested is which games are asked for, on
which seeds, and how their results are kept and added up; the real games are the lab's."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from warbench.kernel.errors import DataFileError, UnknownNameError
from warbench.sim import points_study
from warbench.sim.points_study import ARCHETYPES, Matchup, Round, merge, pairs, select
from warbench.sim.stats import WinRate

NAMES = ("horde", "line", "big", "fast")


def _row(winner: str | None) -> Any:
    hit = SimpleNamespace(roster="A", dealt=1.0), SimpleNamespace(roster="B", dealt=1.0)
    return SimpleNamespace(winner=winner, units=hit)


class FakeLab:
    """Plays nothing: records each batch's rosters, seed and games, and lets the side the seed
    names win (A on odd game seeds), so a record shows which seeds were played."""

    def __init__(self, stop_after: int | None = None) -> None:
        self.batches: list[tuple[str, str, int, int]] = []
        self.stop_after = stop_after

    def __call__(self, spec: Any, games: int, **kw: Any) -> list[Any]:
        if self.stop_after is not None and len(self.batches) == self.stop_after:
            raise KeyboardInterrupt  # the run is stopped in the middle of a matchup
        a, b = (r["player"] for r in spec.rosters)
        self.batches.append((a, b, spec.seed, games))
        seeds = [spec.plan(g)[0] for g in range(games)]
        if kw.get("progress") is not None:
            kw["progress"](games, games)
        return [_row("A" if s % 2 else "B") for s in seeds]


@pytest.fixture
def lab(monkeypatch: pytest.MonkeyPatch) -> FakeLab:
    fake = FakeLab()
    monkeypatch.setattr(points_study, "run_lab", fake)
    return fake


def test_only_selects_an_armys_matchups_in_the_rounds_order() -> None:
    assert pairs(NAMES) == [
        ("horde", "line"),
        ("horde", "big"),
        ("horde", "fast"),
        ("line", "big"),
        ("line", "fast"),
        ("big", "fast"),
    ]
    assert select(["big"], names=NAMES) == [("horde", "big"), ("line", "big"), ("big", "fast")]
    assert select(matchups=[("fast", "line")], names=NAMES) == [("line", "fast")]
    assert select(["fast"], [("horde", "line")], NAMES) == [
        ("horde", "line"),
        ("horde", "fast"),
        ("line", "fast"),
        ("big", "fast"),
    ]
    assert select(names=NAMES) == pairs(NAMES)
    big_or_fast = select(["big", "fast"])
    assert len(big_or_fast) == 13 == 2 * (len(ARCHETYPES) - 1) - 1


def test_an_unknown_army_is_named_with_the_known_ones() -> None:
    with pytest.raises(UnknownNameError, match=r"bigg.*big"):
        select(["bigg"])
    with pytest.raises(UnknownNameError, match="'tank'"):
        select(matchups=[("big", "tank")])


def test_a_part_plays_each_matchup_on_its_seeds_in_the_whole_round(lab: FakeLab) -> None:
    whole = points_study.play_round("ws-points-4", 4, names=NAMES, seed=6, handicap=0)
    seeds = {(a, b): s for a, b, s, _ in lab.batches}
    assert seeds == {pair: 6 + 1000 * k for k, pair in enumerate(pairs(NAMES))}
    lab.batches.clear()
    part = points_study.play_round(
        "ws-points-4", 4, names=NAMES, seed=6, handicap=0, matchups=select(["big"], names=NAMES)
    )
    assert [(a, b, s) for a, b, s, _ in lab.batches] == [
        (a, b, seeds[(a, b)]) for a, b in select(["big"], names=NAMES)
    ]
    rest = points_study.play_round(
        "ws-points-4",
        4,
        names=NAMES,
        seed=6,
        handicap=0,
        matchups=[p for p in pairs(NAMES) if "big" not in p],
    )
    both = merge([rest, part])
    assert [(m.a, m.b) for m in both.matchups] == pairs(NAMES)  # the round's order
    assert both.matchups == whole.matchups
    assert (both.games, both.seed, both.raw) == (4, 6, whole.raw)


def test_merge_refuses_the_same_games_twice(lab: FakeLab) -> None:
    one = points_study.play_round("ws-points-4", 4, names=NAMES, handicap=0)
    again = points_study.play_round(
        "ws-points-4", 2, names=NAMES, seed=1, handicap=0, matchups=[("horde", "big")]
    )
    with pytest.raises(ValueError, match="horde vs big: seeds 1-1 in two rounds"):
        merge([one, again])
    later = points_study.play_round("ws-points-4", 4, names=NAMES, seed=2, handicap=0)
    assert merge([one, later]).games == 8


def test_a_stopped_run_resumes_where_it_stopped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    out = tmp_path / "round.json"
    argv = ["--version", "ws-points-4", "--games", "2", "--workers", "1", "--out", str(out)]
    argv += ["--only", "big", "--handicap", "0", "--resume"]
    stopped = FakeLab(stop_after=3)
    monkeypatch.setattr(points_study, "run_lab", stopped)
    with pytest.raises(KeyboardInterrupt):
        points_study.main(argv)
    kept = Round.from_json(json.loads(out.read_text()))
    assert [(m.a, m.b) for m in kept.matchups] == select(["big"])[:3]
    assert not list(tmp_path.glob("*.part"))
    rest = FakeLab()
    monkeypatch.setattr(points_study, "run_lab", rest)
    points_study.main(argv)
    assert [(a, b) for a, b, _, _ in rest.batches] == select(["big"])[3:]
    done = Round.from_json(json.loads(out.read_text()))
    assert [(m.a, m.b) for m in done.matchups] == select(["big"])
    assert done.matchups[:3] == kept.matchups and done.seed == 0 and done.points == 400


def test_resume_refuses_a_file_of_another_round(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(points_study, "run_lab", FakeLab())
    out = tmp_path / "round.json"
    other = Round("ws-points-4", "tactical", 2, handicap=0, seed=0, points=1100)
    other.matchups = [Matchup("horde", "big", WinRate(1, 0, 1))]
    out.write_text(json.dumps(other.to_json()))
    with pytest.raises(DataFileError, match=r"1100 points.*this run plays.*400 points"):
        points_study.main(
            ["--version", "ws-points-4", "--games", "2", "--out", str(out), "--resume"]
            + ["--handicap", "0"]
        )


def test_matchups_option_needs_two_armies(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        points_study.main(["--matchups", "big"])
    assert "two armies joined by ':'" in capsys.readouterr().err


def test_a_round_records_its_seed_and_cpu_seconds(lab: FakeLab) -> None:
    rnd = points_study.play_round("ws-points-4", 2, names=NAMES, seed=3, handicap=0)
    data = rnd.to_json()
    assert data["seed"] == 3 and Round.from_json(data).seed == 3
    assert "seed" not in Round("ws-points-4", "tactical", 2).to_json()  # older files
    assert Round.from_json({**data, "cpu_seconds": 12.5}).cpu_seconds == 12.5


def test_a_bad_round_file_is_one_line_naming_it(tmp_path: Path) -> None:
    """``python -m warbench.sim.points_study`` (:func:`points_study.cli`): a missing file, a
    file that is not JSON or not a round, and an elasticity file without a run are each one
    line naming the file, not a traceback (session 35's re-read)."""
    missing = tmp_path / "nope.json"
    not_json = tmp_path / "notes.json"
    not_json.write_text("round 7, seeds 0-5\n")
    not_round = tmp_path / "other.json"
    not_round.write_text("{}")
    saved = tmp_path / "round.json"
    rnd = Round("ws-points-4", "tactical", 2, handicap=0, seed=0, points=1100)
    rnd.matchups = [Matchup("horde", "big", WinRate(1, 0, 1))]
    saved.write_text(json.dumps(rnd.to_json()))
    cases = [
        (["--from", str(missing)], missing, "no such file"),
        (["--merge", str(saved), str(not_json)], not_json, "not a round saved by --out"),
        (["--compare", str(not_round)], not_round, "not a round saved by --out"),
        (["--from", str(saved), "--elasticity", str(saved)], saved, "no elasticity run"),
    ]
    for argv, named, why in cases:
        with pytest.raises(SystemExit) as stop:
            points_study.cli(argv)
        said = str(stop.value.code)
        assert said.startswith(f"points_study: {named}: ") and why in said, said
        assert "\n" not in said
