"""An Attack's Cover Bonus without the report nobody reads (issue 10, session 39, s39-speedg;
docs/game.md "A twenty-first pass: the game beyond the Move").

001_d3f5e425c5e1196d.txt §5.6: "If a Unit is Targeted and 50% or more of the Unit's models are
50% or more obscured, the entire Unit gains a Cover Bonus"; models in a Cover Area count as
obscured. An Attack reads the bonus alone (``targeting``'s view on a board without heights or
custom cover: ``Field.cover``), where ``sight.cover_report`` also works out each model's
obscured fraction, the pieces that give the cover (a second culling of every pair) and the
words. ``sight.cover_bonus`` now works out the levels only; these tests hold it to the
report's bonus on random scenes (walls, obscuring ruins with agreed bonuses, Cover Areas,
round and rectangular bases, other units' bases in the way), and show the report's extra work
is skipped.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from warbench.rulesets.warsurge.battlefield import sight
from warbench.rulesets.warsurge.battlefield.model import Board, Terrain
from warbench.rulesets.warsurge.battlefield.sight import Bases
from warbench.rulesets.warsurge.game.geom import Field


def _board(rng: random.Random) -> Board:
    pieces = []
    for k in range(6):
        x, y = rng.uniform(4, 36), rng.uniform(4, 28)
        w, h = rng.uniform(0.5, 3), rng.uniform(0.5, 3)
        rect = [x - w, y - h, x + w, y + h]
        kind = k % 3
        if kind == 0:
            pieces.append(Terrain(name=f"wall{k}", rect=rect, blocks_los=True))
        elif kind == 1:
            pieces.append(Terrain(name=f"ruin{k}", rect=rect, cover=rng.choice([1, 2, 3])))
        else:
            cover = rng.choice([0, 2])
            pieces.append(Terrain(name=f"area{k}", rect=rect, cover_area=True, cover=cover))
    return Board(width=40, height=32, terrain=pieces)


def _bases(rng: random.Random, n: int, shaped: bool, near: list[Terrain]) -> Bases:
    """``n`` bases, some in or beside a piece (so Cover Areas hold models), rectangles too."""
    xy, r, poly = [], [], []
    for _ in range(n):
        if near and rng.random() < 0.4:
            t = rng.choice(near)
            (x0, y0), (x1, y1) = t.polygon[0], t.polygon[2]
            x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
        else:
            x, y = rng.uniform(1, 39), rng.uniform(1, 31)
        w, h = rng.uniform(0.4, 1.2), rng.uniform(0.4, 1.2)
        if shaped and rng.random() < 0.5:
            poly.append([[x - w, y - h], [x + w, y - h], [x + w, y + h], [x - w, y + h]] * 1)
            poly[-1].append(poly[-1][0])
            r.append(float(np.hypot(w, h)))
        else:
            poly.append([[x, y]] * 5)
            r.append(w)
        xy.append((x, y))
    return Bases(
        np.asarray(xy, dtype=np.float64),
        np.asarray(r),
        np.asarray(poly, dtype=np.float64).reshape(-1, 5, 2) if shaped else None,
    )


def _scenes(seed: int, shaped: bool) -> list[tuple[Board, Bases, Bases, Bases]]:
    rng = random.Random(39_000 + seed)
    out = []
    for _ in range(8):
        board = _board(rng)
        areas = [t for t in board.terrain if t.cover_area]
        att = _bases(rng, rng.randint(1, 6), shaped, [])
        tgt = _bases(rng, rng.randint(1, 7), shaped, areas)
        blk = _bases(rng, rng.randint(0, 30), shaped, [])
        out.append((board, att, tgt, blk))
    return out


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("shaped", [False, True])
def test_the_bonus_is_the_reports(seed: int, shaped: bool) -> None:
    bonuses = []
    for board, att, tgt, blk in _scenes(seed, shaped):
        board.geometry().cache.clear()
        bonus = sight.cover_bonus(board, att, tgt, blk)
        board.geometry().cache.clear()
        report = sight.cover_report(board, att, tgt, blk)
        assert bonus == report.bonus
        assert sight.cover_bonus(board, att, tgt, blk) == report.bonus  # the report kept
        assert sight.cover_bonus(board, att, tgt, blk, melee=True) == 0  # §5.9
        bonuses.append(bonus)
    assert len(set(bonuses)) > 1 or seed % 2  # the cases give bonuses and none


def test_cover_areas_and_agreed_bonuses_count() -> None:
    """The bonus alone applies the Cover Areas (a model inside counts as obscured) and a
    piece's agreed bonus, as the report does."""
    area = Terrain(name="crater", rect=[10, 10, 14, 14], cover_area=True, cover=2)
    wall = Terrain(name="ruin", rect=[20, 0, 21, 30], cover=3)
    board = Board(width=40, height=30, terrain=[area, wall])
    att = [((2.0, 12.0), 0.5)]
    in_area = [((12.0, 12.0), 0.5), ((12.5, 11.0), 0.5), ((30.0, 25.0), 0.5)]
    behind = [((25.0, 5.0), 0.5), ((25.0, 7.0), 0.5)]
    assert sight.cover_bonus(board, att, in_area) == sight.cover_report(board, att, in_area).bonus
    assert sight.cover_bonus(board, att, in_area) == 2
    assert sight.cover_bonus(board, att, behind) == sight.cover_report(board, att, behind).bonus
    assert sight.cover_bonus(board, att, behind) == 3


def test_the_field_asks_the_bonus_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Field.cover`` (an Attack's question) gives the report's bonus without its second
    culling of the pairs (``_Scene.candidates``, for the sources) or its words."""
    calls: list[int] = []
    real = sight._Scene.candidates
    monkeypatch.setattr(
        sight._Scene, "candidates", lambda self, *a, **k: calls.append(1) or real(self, *a, **k)
    )
    made = 0
    for board, att, tgt, blk in _scenes(1, False) + _scenes(2, False):
        field = Field(board)
        args = (att.xy, 0.5, tgt.xy, 0.6, blk.xy, blk.r)
        board.geometry().cache.clear()
        before = len(calls)
        bonus = field.cover(*args)
        assert len(calls) == before  # round bases: no culling of the pairs for the sources
        report = Field(board).cover_report(*args)
        made += len(calls) - before
        assert bonus == report.bonus
    assert made  # the report did cull the pairs for its sources


def test_a_question_with_no_elevated_form_refuses_heights() -> None:
    """``Field.cover`` asks no heights, so its question has no elevated form (s39-fixwe: the
    dead ``_elevated_bonus`` removed); a question with heights but no form is a typed error
    naming it, never the plain answer."""
    from warbench.rulesets.warsurge.game.geom import Heights

    board, att, tgt, blk = _scenes(1, False)[0]
    args = (att.xy, 0.5, tgt.xy, 0.6, blk.xy, blk.r)
    z = Heights(np.zeros(len(att.xy)), np.zeros(len(tgt.xy)), np.zeros(len(blk.xy)))
    with pytest.raises(TypeError, match=r"cover bonus: this question takes no heights \(L2360\)"):
        Field(board)._ask(b"cover bonus", sight.cover_bonus, None, args, z, None)
    assert Field(board).cover(*args) == sight.cover_report(board, att, tgt).bonus
