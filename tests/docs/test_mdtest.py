"""The doc-test collector itself (docs/doc-tests.md): a failing command, a wrong output line or
a raising example fails with the document, line and command; markers skip or set the exit."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs.mdtest import DocRunner, DocTestError, match_lines, parse, unmarked_commands


def doc(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "guide.md"
    path.write_text(text, encoding="utf-8")
    return path


class FakeCli:
    """Stands in for ``warbench.cli.main``: answers by the first argument."""

    def __init__(self, answers: dict[str, tuple[int, str]]) -> None:
        self.answers = answers
        self.calls: list[list[str]] = []

    def __call__(self, argv: list[str]) -> tuple[int, str]:
        self.calls.append(argv)
        return self.answers.get(argv[0], (0, ""))


def run(path: Path, cli: FakeCli) -> DocRunner:
    runner = DocRunner(cli)
    runner.run(parse(path))
    return runner


def test_a_failing_command_names_the_document_line_command_and_output(tmp_path: Path) -> None:
    path = doc(tmp_path, "# Guide\n\n```sh\nwarbench roll 2D6\nwarbench odds a.yaml b.yaml\n```\n")
    cli = FakeCli({"odds": (2, "error: a.yaml: file not found")})
    with pytest.raises(DocTestError) as exc:
        run(path, cli)
    message = str(exc.value)
    assert message.startswith("guide.md:5: `warbench odds a.yaml b.yaml` exited with status 2")
    assert "a.yaml: file not found" in message
    assert cli.calls == [["roll", "2D6"], ["odds", "a.yaml", "b.yaml"]]


def test_a_crashing_command_names_the_document_and_line(tmp_path: Path) -> None:
    def crash(argv: list[str]) -> tuple[int, str]:
        raise KeyError("boom")

    path = doc(tmp_path, "```sh\nwarbench points x.yaml\n```\n")
    with pytest.raises(
        DocTestError, match=r"guide.md:2: `warbench points x.yaml` crashed with Key"
    ):
        DocRunner(crash).run(parse(path))


def test_continuations_quotes_and_comments_make_one_argv(tmp_path: Path) -> None:
    path = doc(
        tmp_path,
        '```sh\nwarbench roster add "Strike Force" Troopers \\\n    --models 8  # eight\n```\n',
    )
    cli = FakeCli({})
    assert run(path, cli).ran == 1
    assert cli.calls == [["roster", "add", "Strike Force", "Troopers", "--models", "8"]]


def test_skip_marker_needs_a_reason_and_skips_the_block(tmp_path: Path) -> None:
    path = doc(tmp_path, "<!-- doc-test: skip needs make -->\n```sh\nmake demo\n```\n")
    cli = FakeCli({})
    assert run(path, cli).ran == 0 and cli.calls == []
    with pytest.raises(DocTestError, match="needs a reason"):
        parse(doc(tmp_path, "<!-- doc-test: skip -->\n```sh\nmake demo\n```\n"))


def test_a_non_warbench_command_must_be_skipped_explicitly(tmp_path: Path) -> None:
    with pytest.raises(DocTestError, match=r"guide.md:2: `make demo` is not a warbench command"):
        run(doc(tmp_path, "```sh\nmake demo\n```\n"), FakeCli({}))


def test_exit_marker_expects_that_status(tmp_path: Path) -> None:
    path = doc(tmp_path, "<!-- doc-test: exit 1 -->\n```sh\nwarbench roster validate X\n```\n")
    run(path, FakeCli({"roster": (1, "over-limit")}))
    with pytest.raises(DocTestError, match="exited with status 0 \\(expected 1\\)"):
        run(path, FakeCli({}))


def test_console_blocks_check_the_documented_lines_in_order(tmp_path: Path) -> None:
    path = doc(tmp_path, "```console\n$ warbench roll 2D6\n2D6: 3 4, total 7\n...\nseed 1\n```\n")
    run(path, FakeCli({"roll": (0, "2D6:  3 4,   total 7\nseed 1\n")}))
    with pytest.raises(DocTestError) as exc:
        run(path, FakeCli({"roll": (0, "2D6: 5 5, total 10\nseed 1\n")}))
    assert "guide.md:2: `warbench roll 2D6` did not print the documented line" in str(exc.value)
    assert "'2D6: 3 4, total 7'" in str(exc.value)


def test_match_lines_keeps_order() -> None:
    assert match_lines(["a", "b"], "a\nb\n") is None
    assert match_lines(["b", "a"], "a\nb\n") == "a"


def test_python_blocks_share_a_namespace_and_report_the_line(tmp_path: Path) -> None:
    path = doc(tmp_path, "```python\nx = 2\n```\n\n```python\nassert x == 3, x\n```\n")
    with pytest.raises(DocTestError, match=r"guide.md:6: the Python example raised Assertion"):
        run(path, FakeCli({}))


def test_pycon_sessions_are_checked(tmp_path: Path) -> None:
    good = doc(tmp_path, "```pycon\n>>> y = 20\n>>> y + 1\n21\n```\n\n```pycon\n>>> y\n20\n```\n")
    assert run(good, FakeCli({})).ran == 2
    bad = doc(tmp_path, "```pycon\n>>> 1 + 1\n3\n```\n")
    with pytest.raises(DocTestError, match="the Python session differs"):
        run(bad, FakeCli({}))


def test_an_unmarked_block_of_commands_is_reported(tmp_path: Path) -> None:
    blocks = parse(doc(tmp_path, "```\nwarbench battle a.yaml b.yaml\n```\n\n```yaml\nx: 1\n```\n"))
    assert unmarked_commands(blocks) == [
        "guide.md:2: a block with warbench commands must be ```sh / ```console (tested) or "
        "carry <!-- doc-test: skip REASON -->"
    ]
