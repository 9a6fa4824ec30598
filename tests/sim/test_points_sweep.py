"""A handicap sweep in the points study (issue 15, session 37, docs/points.md §9 "Round 11"):
``--scale ARMY=FACTOR`` plays a matchup with one army holding another share of the points, on
the seeds the matchup has in the whole round, and :func:`crossing` fits the logistic through
the ratios played to say at what ratio of points a matchup stuck at 0% or 100% would be even.

The games are faked (``run_lab`` replaced, as in ``test_points_study_parts.py``): what is
tested is which armies and seeds are asked for and how the records are read; the game
itself is decided by the point value left, Core Rules 001_d3f5e425c5e1196d.txt §2.2 step 8."""

from __future__ import annotations

import json
import math
from types import SimpleNamespace
from typing import Any

import pytest

from warbench.kernel.errors import UnknownNameError
from warbench.sim import points_study
from warbench.sim.points_study import Matchup, Round, crossing, merge, pairs, sweep_table
from warbench.sim.stats import WinRate

NAMES = ("horde", "line", "big", "fast")


class FakeLab:
    """Plays nothing: records each batch's armies, the points each holds and its seed; army A
    wins every game."""

    def __init__(self) -> None:
        self.batches: list[tuple[str, int, str, int, int]] = []

    def __call__(self, spec: Any, games: int, **kw: Any) -> list[Any]:
        (a, b) = spec.rosters
        held = [sum(int(u["points"]) for u in r["units"]) for r in (a, b)]
        self.batches.append((a["player"], held[0], b["player"], held[1], spec.seed))
        hit = SimpleNamespace(roster="A", dealt=1.0), SimpleNamespace(roster="B", dealt=1.0)
        return [SimpleNamespace(winner="A", units=hit) for _ in range(games)]


@pytest.fixture
def lab(monkeypatch: pytest.MonkeyPatch) -> FakeLab:
    fake = FakeLab()
    monkeypatch.setattr(points_study, "run_lab", fake)
    return fake


def test_a_scaled_army_holds_its_share_on_the_matchups_seeds(lab: FakeLab) -> None:
    plain = points_study.play_round("ws-points-6", 2, names=NAMES, seed=4, handicap=0)
    seeds = {(a, b): s for a, _, b, _, s in lab.batches}
    assert seeds == {pair: 4 + 1000 * k for k, pair in enumerate(pairs(NAMES))}
    assert all(pa == pb == 400 for _, pa, _, pb, _ in lab.batches)
    lab.batches.clear()
    cut = points_study.play_round(
        "ws-points-6", 2, names=NAMES, seed=4, handicap=0, scale={"line": 0.75}
    )
    for a, pa, b, pb, seed in lab.batches:
        assert seed == seeds[(a, b)]  # the same games' seeds, only the points moved
        assert (pa, pb) == (300 if a == "line" else 400, 300 if b == "line" else 400)
    assert cut.held("line") == 300 and cut.held("big") == 400 == plain.held("line")
    assert cut.raw["line"] < plain.raw["line"] and cut.raw["big"] == plain.raw["big"]
    back = Round.from_json(json.loads(json.dumps(cut.to_json())))
    assert back.scale == {"line": 0.75} and "scale" not in plain.to_json()


def test_scaled_and_plain_rounds_do_not_merge_or_fit(lab: FakeLab) -> None:
    plain = points_study.play_round("ws-points-6", 2, names=NAMES, seed=0, handicap=0)
    cut = points_study.play_round(
        "ws-points-6", 2, names=NAMES, seed=1, handicap=0, scale={"line": 0.75}
    )
    with pytest.raises(ValueError, match=r"scaled by nothing and .*'line': 0\.75"):
        merge([plain, cut])
    again = points_study.play_round(
        "ws-points-6", 2, names=NAMES, seed=2, handicap=0, scale={"line": 0.75}
    )
    assert merge([cut, again]).scale == {"line": 0.75}
    with pytest.raises(ValueError, match="handicap sweep"):
        points_study.fit(cut)


def test_a_bad_scale_names_the_army_and_what_is_allowed() -> None:
    with pytest.raises(UnknownNameError, match="gunlin"):
        points_study.check_scale({"gunlin": 0.8}, NAMES, 0)
    with pytest.raises(ValueError, match=r"line=0: .*above 0 and at most 4"):
        points_study.check_scale({"line": 0.0}, NAMES, 0)
    with pytest.raises(ValueError, match="give --handicap 0"):
        points_study.check_scale({"line": 0.8}, NAMES, 0.1)


def test_scale_option_needs_an_army_and_a_factor(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        points_study.main(["--scale", "line:0.8", "--handicap", "0"])
    assert "joined by '='" in capsys.readouterr().err


def _round(scale: dict[str, float], a: str, b: str, rate: WinRate) -> Round:
    rnd = Round("ws-points-6", "tactical", rate.games, handicap=0, points=1000)
    rnd.scale = scale
    rnd.matchups = [Matchup(a, b, rate)]
    return rnd


def test_a_symmetric_sweep_is_even_halfway_in_log_points() -> None:
    """All won at equal points and all lost at half: by symmetry the fitted 50% lies at the
    geometric mean of the two ratios (√0.5), whichever seat the army had in the files."""
    rounds = [
        _round({}, "gunline", "melee", WinRate(10, 0, 0)),
        _round({"gunline": 0.5}, "gunline", "melee", WinRate(0, 0, 10)),
    ]
    c = crossing(rounds, "gunline", "melee")
    assert c.even == pytest.approx(math.sqrt(0.5))
    assert c.k > 0 and [r for r, _ in c.levels] == [0.5, 1.0]
    flipped = crossing(rounds, "melee", "gunline")  # the other army's view: ratios inverted
    assert flipped.even == pytest.approx(1 / math.sqrt(0.5))
    assert flipped.levels[0] == (1.0, WinRate(0, 0, 10))


def test_the_sweep_recovers_a_known_logistic() -> None:
    """Records drawn exactly from log-odds 1 + 4 × log ratio (many games, so the prior's half
    a win is negligible): the fit returns k 4 and 50% at exp(−1/4)."""
    rounds = []
    for f in (0.5, 0.75, 1.0, 1.5):
        p = 1 / (1 + math.exp(-(1 + 4 * math.log(f))))
        wins = round(100_000 * p)
        rounds.append(_round({"line": f}, "line", "big", WinRate(wins, 0, 100_000 - wins)))
    c = crossing(rounds, "line", "big")
    assert c.k == pytest.approx(4, abs=0.01) and c.alpha == pytest.approx(1, abs=0.01)
    assert c.even == pytest.approx(math.exp(-0.25), abs=0.003)
    table = sweep_table(rounds)
    assert "| line vs big | 0.50: " in table and f"| {c.even:.2f} |" in table


def test_a_sweep_needs_two_ratios_of_one_version() -> None:
    one = _round({}, "line", "big", WinRate(1, 0, 1))
    with pytest.raises(ValueError, match="1 points ratio"):
        crossing([one], "line", "big")
    other = _round({"line": 0.5}, "line", "big", WinRate(1, 0, 1))
    other.version = "ws-points-5"
    with pytest.raises(ValueError, match="holds a round of ws-points-5"):
        crossing([one, other], "line", "big")


def test_no_slope_says_so() -> None:
    """Games that get better for the army with fewer points show no slope: no 50% point."""
    rounds = [
        _round({}, "line", "big", WinRate(0, 0, 8)),
        _round({"line": 0.5}, "line", "big", WinRate(8, 0, 0)),
    ]
    assert crossing(rounds, "line", "big").even is None
    assert "none (no slope)" in sweep_table(rounds)


def test_an_elasticity_run_alone_prints_its_k() -> None:
    """A round of the elasticity run only (``matchups=[]``, round 11's merged file) printed
    with ``--markdown``: no matchups to average, the run's record and k."""
    run = Round("ws-points-6", "tactical", 24, handicap=0.1, points=1100)
    run.handicap_rate = WinRate(19, 0, 5)
    text = points_study.markdown(run)
    assert "No matchups" in text and "elasticity k = 14.01" in text
