"""Every command's help names its arguments as a person expects (issue 10, s33-ui): the usage
line reads ``warbench play [OPTIONS] ROSTERS...`` (click's convention: upper case, ``[WHAT]``
when optional), never typer 0.29's ``{rosters}...``; the Arguments section ``ROSTERS... <Path>``,
not ``<list[Path]>``; a missing argument is named the same way."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from warbench.cli.app import _register, app, main


def _commands() -> Iterator[list[str]]:
    """Every command path of ``warbench`` (all command modules registered)."""
    _register([])
    root = typer.main.get_command(app)

    def walk(cmd: Any, path: list[str]) -> Iterator[list[str]]:
        yield path
        for name, sub in sorted(getattr(cmd, "commands", {}).items()):
            if not getattr(sub, "hidden", False):
                yield from walk(sub, [*path, name])

    yield from walk(root, [])


def test_no_usage_line_shows_typer_braces_and_arguments_are_upper_case() -> None:
    runner = CliRunner()
    seen = 0
    for path in _commands():
        out = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "200"}).output
        usage = next(line for line in out.splitlines() if line.startswith("Usage:"))
        assert "{" not in usage and "}" not in usage, (path, usage)
        # after the command's words and [OPTIONS]: NAME, [NAME], NAME... or COMMAND [ARGS]...
        tail = usage.split("[OPTIONS]", 1)[1].split()
        for word in tail:
            assert re.fullmatch(r"\[?[A-Z][A-Z0-9_]*\]?(\.\.\.)?", word), (path, usage)
        arguments = (
            out.split("\nArguments:", 1)[1].split("\nOptions:")[0] if "\nArguments:" in out else ""
        )
        assert "<list[" not in arguments, (path, arguments)
        seen += 1
    assert seen > 50, seen  # every command and group (57 in session 33), not only the root


def test_play_usage_reads_rosters_and_a_missing_one_is_named_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = CliRunner().invoke(app, ["play", "--help"], env={"COLUMNS": "200"}).output
    assert "Usage: root play [OPTIONS] ROSTERS..." in out or " play [OPTIONS] ROSTERS..." in out
    assert re.search(r"ROSTERS\.\.\. <Path>\s+Two game roster files", out), out
    with pytest.raises(SystemExit) as done:
        main(["play"])
    assert done.value.code == 2
    assert "Missing argument 'ROSTERS...'" in capsys.readouterr().err
