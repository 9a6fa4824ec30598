"""The CLI's error printer: whatever the message, one line on stderr (docs/cli.md)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warbench.cli.app import MAX_ERROR_CHARS, fail, main


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(message=st.text() | st.sampled_from(["[/]", "[bold]x", "a\nb", "x\r\ny", ":warning:"]))
def test_fail_prints_exactly_one_line_whatever_the_message(
    capsys: pytest.CaptureFixture[str], message: str
) -> None:
    fail(message)
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.endswith("\n")
    assert len(err.splitlines()) == 1


def test_fail_keeps_markup_and_emoji_codes_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    fail("unit [/] [bold]x :warning:\nnext")
    assert capsys.readouterr().err == "error: unit [/] [bold]x :warning: next\n"


def test_fail_cuts_a_very_long_message(capsys: pytest.CaptureFixture[str]) -> None:
    fail("x" * 100_000)
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and len(err) < MAX_ERROR_CHARS + 20


def test_main_prints_a_warbench_error_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["points", "no\nsuch [/] file.yaml"])
    assert e.value.code == 2
    assert capsys.readouterr().err == "error: no such [/] file.yaml: file not found\n"
