"""The CLI's consoles print a text board's ``:A:`` (unit A standing in a zone) as it is,
never as rich's emoji code: every command (battle, replay, play, WarEngine, Collision)
prints through them."""

from __future__ import annotations

import pytest

from warbench.cli.app import LazyConsole


@pytest.mark.parametrize("row", [":A: .. :B:", "|:a::x:|"])
def test_board_row_is_printed_verbatim(row: str, capsys: pytest.CaptureFixture[str]) -> None:
    LazyConsole().print(row, highlight=False, markup=False)
    assert capsys.readouterr().out.strip() == row
