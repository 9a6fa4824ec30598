"""Every command and Python example in docs/ and the README runs (issue 18, "Docs that run").

Each document runs in its own scratch directory (``examples/`` linked in), with a scratch
database (``WARBENCH_DB``) and roll history, so the tests never touch the user's data. The
rules of the game are in tests/docs/mdtest.py and docs/doc-tests.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs.mdtest import DocRunner, DocTestError, parse, scratch_dir, unmarked_commands
from warbench.cli.app import main
from warbench.cli.roll_history import HISTORY_ENV

ROOT = Path(__file__).parents[2]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.fixture
def cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> DocRunner:
    work = tmp_path / "work"
    work.mkdir()
    scratch_dir(work, ROOT)
    monkeypatch.chdir(work)
    monkeypatch.setenv("WARBENCH_DB", f"sqlite:///{tmp_path / 'warbench.db'}")
    monkeypatch.setenv(HISTORY_ENV, str(tmp_path / "roll_history.jsonl"))
    capsys.readouterr()

    def run(argv: list[str]) -> tuple[int, str]:
        try:
            main(argv)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        out = capsys.readouterr()
        return code, out.out + out.err

    return DocRunner(run)


@pytest.mark.parametrize("doc", DOCS, ids=_name)
def test_doc_runs(doc: Path, cli: DocRunner) -> None:
    blocks = parse(doc, _name(doc))
    problems = unmarked_commands(blocks)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
    failure = None
    try:
        cli.run(blocks)
    except DocTestError as exc:
        failure = str(exc)
    if failure is not None:
        pytest.fail(failure, pytrace=False)
