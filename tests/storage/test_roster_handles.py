"""Rosters addressed by ``#ID``; a roster with a blank name, saved by an older version (before
names were checked, issue 18), can still be listed, renamed and deleted (issue 18 follow-up)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.cli.test_roster_cli import run
from tests.warsurge.roster.fakes import entry, roster
from warbench.kernel.errors import UnknownNameError
from warbench.storage import Store


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'wb.db'}"


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    s = Store.open(url)
    yield s
    s.close()


def blank_roster(store: Store) -> int:
    """A roster row named '' as an older warbench wrote it; returns its id."""
    store.save_roster(roster(entry("Troopers", models=5)).model_copy(update={"name": "Old"}))
    with store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE rosters SET name = '' WHERE name = 'Old'"))
        rid: int = conn.execute(sa.text("SELECT id FROM rosters WHERE name = ''")).scalar_one()
    return rid


def test_the_blank_roster_cannot_be_built_but_has_a_handle(store: Store) -> None:
    rid = blank_roster(store)
    with pytest.raises(Exception, match="at least 1 character"):
        store.roster("")  # this version refuses a blank Roster.name
    (summary,) = store.rosters()
    assert (summary.id, summary.handle, summary.units) == (rid, f"#{rid}", 1)
    assert store.roster_summary(f"#{rid}") == summary


def test_an_unknown_roster_lists_the_blank_one_by_its_handle(store: Store) -> None:
    rid = blank_roster(store)
    with pytest.raises(UnknownNameError, match=f"'#{rid}'"):
        store.roster_summary("Nope")


def test_a_roster_named_like_a_handle_wins_over_the_id(store: Store) -> None:
    rid = blank_roster(store)
    store.save_roster(roster().model_copy(update={"name": f"#{rid}"}))
    assert store.roster(f"#{rid}").name == f"#{rid}"


def test_cli_lists_and_deletes_the_blank_roster_by_id(
    capsys: pytest.CaptureFixture[str], store: Store, url: str
) -> None:
    rid = blank_roster(store)
    store.save_roster(roster().model_copy(update={"name": "Keep"}))
    code, out, err = run(capsys, "roster", "list", "--db", url)
    assert code == 0, err
    assert f"#{rid} (no name; rename or delete it by #{rid})  1 units" in out
    code, out, err = run(capsys, "roster", "delete", f"#{rid}", "--yes", "--db", url)
    assert code == 0, err
    assert f"deleted roster '#{rid}'" in out
    assert [r.name for r in store.rosters()] == ["Keep"]


def test_cli_deletes_the_blank_roster_by_its_blank_name(
    capsys: pytest.CaptureFixture[str], store: Store, url: str
) -> None:
    blank_roster(store)
    code, _, err = run(capsys, "roster", "delete", "", "--yes", "--db", url)
    assert code == 0, err
    assert store.rosters() == []
