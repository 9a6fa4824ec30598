"""The roster-editing commands save only over the version they loaded (issue 19): a change
made elsewhere in between is reported in one line, exit status 2, and kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.warsurge.roster.fakes import entry, roster
from warbench.cli.app import main
from warbench.rulesets.warsurge.roster import Roster
from warbench.storage import Store, Versioned
from warbench.storage.store import RosterSummary


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    "command",
    [
        ("roster", "remove", "Test", "A"),
        ("roster", "perk", "Test", "Inspiring", "--unit", "A"),
        ("roster", "copy-entry", "Test", "A"),
        ("roster", "rename", "Test", "TEST"),
        ("roster", "rename", "Test", "Other"),
        ("roster", "delete", "Test", "--yes"),
    ],
)
def test_an_edit_over_a_change_made_elsewhere_is_refused_in_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: tuple[str, ...],
) -> None:
    url = f"sqlite:///{tmp_path / 'wb.db'}"
    store = Store.open(url)
    store.save_roster(
        roster(entry("A", perks=["Presence"]), entry("B"))
    )  # Presence: the Inspiring case designates A
    real = Store.versioned_roster

    def load_then_someone_else_saves(self: Store, name: str) -> Versioned[Roster]:
        loaded = real(self, name)
        Store.open(url).save_roster(roster(entry("A", perks=["Presence"]), entry("B"), entry("C")))
        return loaded

    real_summary = Store.roster_summary

    def summary_then_someone_else_saves(self: Store, name: str) -> RosterSummary:
        loaded = real_summary(self, name)
        Store.open(url).save_roster(roster(entry("A", perks=["Presence"]), entry("B"), entry("C")))
        return loaded

    monkeypatch.setattr(Store, "versioned_roster", load_then_someone_else_saves)
    # roster delete reads the stored line only (it can delete a roster this version refuses)
    monkeypatch.setattr(Store, "roster_summary", summary_then_someone_else_saves)
    code, err = run(capsys, *command, "--db", url)
    assert code == 2
    assert "roster 'test' was changed elsewhere" in err.lower() and err.count("\n") == 1, err
    assert [e.name for e in store.roster("Test").units] == ["A", "B", "C"]  # theirs kept
