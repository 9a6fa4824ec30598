"""``roster limit ROSTER POINTS``: the Point Limit (Core Rules §3.1) can be changed after
``roster new``, and the roster is validated again (issue 18 follow-up)."""

from __future__ import annotations

import pytest

from tests.cli.test_roster_cli import run
from tests.cli.test_roster_edit_cli import SF, db, ok, refused, roster

__all__ = ["db"]  # the fixture


def test_raise_the_limit_s3_1(capsys: pytest.CaptureFixture[str], db: str) -> None:
    assert roster(db).point_limit == 1000
    out = ok(capsys, db, "roster", "limit", SF, "1500")
    assert roster(db).point_limit == 1500
    assert "1000 → 1500 pts" in out and "legal" in out and "NOT" not in out


def test_lower_the_limit_below_the_total_lists_the_violation(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    out = ok(capsys, db, "roster", "limit", SF, "10")
    assert roster(db).point_limit == 10
    assert "NOT legal" in out
    assert "over" in out.lower() and "10 pts" in out
    # and roster validate agrees
    code, vout, _ = run(capsys, "roster", "validate", SF, "--db", db)
    assert code == 1 and "10" in vout


@pytest.mark.parametrize("bad", ["0", "-5", "1000001", "lots"])
def test_a_limit_out_of_range_is_one_line(
    capsys: pytest.CaptureFixture[str], db: str, bad: str
) -> None:
    refused(capsys, db, "roster", "limit", SF, bad)
    assert roster(db).point_limit == 1000


def test_unknown_roster_is_one_line(capsys: pytest.CaptureFixture[str], db: str) -> None:
    assert "Strike Force" in refused(capsys, db, "roster", "limit", "Strike Farce", "500")
