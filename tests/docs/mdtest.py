"""Run the commands and Python examples of a Markdown document (docs/doc-tests.md).

A small collector of our own rather than Sybil or pytest's doctest: the blocks are mostly
``warbench …`` command lines, which must run in-process through :func:`warbench.cli.main`
(a subprocess costs about a second each) in a scratch directory with a scratch database, and
a failure must name the document, the line, the command and its output. Sybil would need a
custom parser for exactly that, so it would add a dependency without removing this code.

Fenced blocks that run:

* ``sh``: every line is a ``warbench`` command (``\\`` continues a line, ``#`` starts a
  comment); it must exit with status 0;
* ``console``: ``$ warbench …`` lines, each followed by the output it must print; every
  expected line must appear in the output, in order, with runs of spaces compared as one
  space; a line ``...`` stands for any lines;
* ``python``: executed; all Python blocks of a document share one namespace;
* ``pycon``: ``>>>`` examples checked with :mod:`doctest` (same namespace; ``+ELLIPSIS`` and
  ``+NORMALIZE_WHITESPACE`` are on).

An HTML comment on the line just before the fence changes that:
``<!-- doc-test: skip REASON -->`` does not run the block (the comment is visible in the
source, and the reason is required); ``<!-- doc-test: exit N -->`` expects exit status N from
every command of the block. Other fences (``yaml``, ``text`` or none) are not run, but a
fence without language whose lines start with ``warbench`` is an error: mark it ``sh`` or
skip it, so that no command escapes the tests.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RUN_LANGS = ("sh", "console", "python", "pycon")
MARKER = re.compile(r"^\s*<!--\s*doc-test:\s*(?P<what>skip|exit)\b\s*(?P<arg>.*?)\s*-->\s*$")
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>```+)\s*(?P<lang>[\w+-]*)")


@dataclass
class Block:
    """One fenced block: its language, the line of its first content line, its text."""

    doc: str
    lang: str
    line: int
    lines: list[str]
    skip: str | None = None
    exit_code: int = 0

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


class DocTestError(AssertionError):
    """A documented command or example that does not do what the document says."""


def parse(path: Path, name: str | None = None) -> list[Block]:
    """Every fenced block of a Markdown file, with its doc-test marker."""
    name = name or path.name
    text = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(text):
        m = FENCE.match(text[i])
        if not m:
            i += 1
            continue
        fence, indent, lang = m["fence"], len(m["indent"]), m["lang"].lower()
        marker = MARKER.match(text[i - 1]) if i > 0 else None
        body: list[str] = []
        j = i + 1
        while j < len(text) and not text[j].strip().startswith(fence):
            line = text[j]
            body.append(line[indent:] if line[:indent].strip() == "" else line.lstrip())
            j += 1
        block = Block(name, lang, i + 2, body)
        if marker is not None:
            if marker["what"] == "skip":
                if not marker["arg"]:
                    raise DocTestError(f"{name}:{i}: `doc-test: skip` needs a reason")
                block.skip = marker["arg"]
            else:
                block.exit_code = int(marker["arg"])
        blocks.append(block)
        i = j + 1
    return blocks


def unmarked_commands(blocks: list[Block]) -> list[str]:
    """Blocks that hold ``warbench`` commands but would not run (no ``sh`` language)."""
    bad = []
    for b in blocks:
        if b.lang in RUN_LANGS or b.skip is not None:
            continue
        if b.lang in ("", "text", "bash", "shell") and any(
            ln.lstrip().startswith(("warbench ", "$ warbench ")) for ln in b.lines
        ):
            bad.append(
                f"{b.where}: a block with warbench commands must be ```sh / ```console "
                "(tested) or carry <!-- doc-test: skip REASON -->"
            )
    return bad


def _logical_lines(lines: list[str]) -> list[tuple[int, str]]:
    """Join ``\\`` continuations; return (offset of the first line, text)."""
    out: list[tuple[int, str]] = []
    buf, start = "", 0
    for k, ln in enumerate(lines):
        if not buf:
            start = k
        if ln.rstrip().endswith("\\"):
            buf += ln.rstrip()[:-1] + " "
            continue
        buf += ln
        out.append((start, buf))
        buf = ""
    if buf:
        out.append((start, buf))
    return out


CliRunner = Callable[[list[str]], tuple[int, str]]


@dataclass
class DocRunner:
    """Runs one document's blocks in order: one scratch directory, database and namespace."""

    cli: CliRunner
    namespace: dict[str, Any] = field(default_factory=dict)
    ran: int = 0

    def run(self, blocks: list[Block]) -> None:
        for b in blocks:
            if b.skip is not None or b.lang not in RUN_LANGS:
                continue
            getattr(self, f"_{b.lang}")(b)
            self.ran += 1

    def _command(self, b: Block, offset: int, text: str) -> str:
        try:
            argv = shlex.split(text, comments=True)
        except ValueError as exc:
            raise DocTestError(f"{b.doc}:{b.line + offset}: cannot parse `{text}`: {exc}") from None
        if not argv:
            return ""
        if argv[0] != "warbench":
            raise DocTestError(
                f"{b.doc}:{b.line + offset}: `{text.strip()}` is not a warbench command; "
                "mark the block <!-- doc-test: skip REASON --> if it must not run"
            )
        try:
            code, out = self.cli(argv[1:])
        except Exception as exc:
            trace = "".join(traceback.format_exception(exc))
            raise DocTestError(
                f"{b.doc}:{b.line + offset}: `{shlex.join(argv)}` crashed with "
                f"{type(exc).__name__}: {exc}\n{trace}"
            ) from exc
        if code != b.exit_code:
            raise DocTestError(
                f"{b.doc}:{b.line + offset}: `{shlex.join(argv)}` exited with status {code} "
                f"(expected {b.exit_code}); output:\n{out}"
            )
        return out

    def _sh(self, b: Block) -> None:
        for offset, text in _logical_lines(b.lines):
            self._command(b, offset, text)

    def _console(self, b: Block) -> None:
        steps: list[tuple[int, str, list[str]]] = []
        for k, ln in enumerate(b.lines):
            if ln.startswith("$ "):
                steps.append((k, ln[2:], []))
            elif steps:
                if steps[-1][1].rstrip().endswith("\\") and not steps[-1][2]:
                    k0, cmd, _ = steps[-1]
                    steps[-1] = (k0, cmd.rstrip()[:-1] + " " + ln, [])
                else:
                    steps[-1][2].append(ln)
            elif ln.strip():
                raise DocTestError(f"{b.doc}:{b.line + k}: a console block starts with `$ `")
        for offset, cmd, expected in steps:
            out = self._command(b, offset, cmd)
            missing = match_lines(expected, out)
            if missing is not None:
                raise DocTestError(
                    f"{b.doc}:{b.line + offset}: `{cmd.strip()}` did not print the documented "
                    f"line\n    {missing!r}\noutput:\n{out}"
                )

    def _python(self, b: Block) -> None:
        source = "\n" * (b.line - 1) + "\n".join(b.lines)
        try:
            exec(compile(source, b.doc, "exec"), self.namespace)
        except Exception as exc:
            raise DocTestError(
                f"{b.where}: the Python example raised {type(exc).__name__}: {exc}"
            ) from exc

    def _pycon(self, b: Block) -> None:
        parser = doctest.DocTestParser()
        test = parser.get_doctest("\n".join(b.lines), self.namespace, b.doc, b.doc, b.line - 1)
        flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | doctest.REPORT_ONLY_FIRST_FAILURE
        runner = doctest.DocTestRunner(optionflags=flags)
        report: list[str] = []
        runner.run(test, out=report.append, clear_globs=False)
        self.namespace.update(test.globs)  # DocTest works on a copy of the namespace
        if runner.failures:
            raise DocTestError(f"{b.where}: the Python session differs:\n" + "".join(report))


def _norm(s: str) -> str:
    return " ".join(s.split())


def match_lines(expected: list[str], output: str) -> str | None:
    """The first expected line not found (in order) in ``output``, or None when all are."""
    got = [_norm(ln) for ln in output.splitlines()]
    pos = 0
    for want in expected:
        w = _norm(want)
        if not w or w == "...":
            continue
        while pos < len(got) and w not in got[pos]:
            pos += 1
        if pos == len(got):
            return want
        pos += 1
    return None


def scratch_dir(root: Path, repo: Path) -> None:
    """A working directory in which the documents' relative paths (``examples/…``) resolve."""
    os.symlink(repo / "examples", root / "examples", target_is_directory=True)
