"""Build ``src/warbench/web/data/rule_sections.json``: the numbered rule sections of WARSURGE
Book 1 (Core Rules, ``001_d3f5e425c5e1196d.txt``) and the general sections of Book 2 (Perks,
``000_94ecc6a4c74d351b.txt`` §12.1-§12.3), for the Rules page's section search (issue 13).

Each entry: ``book`` (the file), ``number`` (``5.10``; a chapter's own text is ``5``),
``title`` (as the book prints it), ``lines`` (first and last line, 1-based, as the docs cite
them) and ``text`` (the section's lines joined into paragraphs; the book text double-spaces
its lines and breaks paragraphs at blank-line pairs). The perk entries of Book 2 (§12.4-§12.6)
are not repeated here: the perk catalog (``perks.json``) is searched for them.

Headings are lines ``N.M TITLE`` (upper case) and chapter lines ``N. TITLE`` whose chapter
number follows the previous one (so a numbered list inside a section, ``1. UNITS`` in §3.4,
is not taken for a chapter, nor is ``4. SETTINGS`` there, followed by §3.5). Re-run after a
new book text::

    .venv/bin/python scripts/build_core_sections.py [SEEDS_FOLDER]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SEEDS = Path("/work/shared/seeds")
OUT = ROOT / "src/warbench/web/data/rule_sections.json"
BOOKS = (
    ("001_d3f5e425c5e1196d.txt", "Core Rules", None),
    ("000_94ecc6a4c74d351b.txt", "Perks", "12.4"),  # stop before the perk lists
)
SECTION = re.compile(r"^(\d{1,2})\.(\d{1,2}) ([A-Z][A-Z0-9 ,&+:'’()/-]+)$")
CHAPTER = re.compile(r"^(\d{1,2})\. ([A-Z][A-Z0-9 ,&+:'’()/-]+)$")


def _paragraphs(lines: list[str]) -> str:
    paras: list[list[str]] = [[]]
    blanks = 0
    for raw in lines:
        line = raw.strip()
        if not line:
            blanks += 1
            continue
        if blanks >= 2 and paras[-1]:
            paras.append([])
        blanks = 0
        paras[-1].append(line)
    return "\n".join(" ".join(p) for p in paras if p)


def _next_section(lines: list[str], start: int) -> int:
    """The chapter number of the first ``N.M`` heading after line ``start`` (99: none)."""
    for line in lines[start + 1 :]:
        m = SECTION.match(line.strip())
        if m:
            return int(m[1])
    return 99


def sections(book: str, name: str, stop: str | None, text: str) -> list[dict[str, Any]]:
    """The headed sections of one book's text, in book order."""
    lines = text.splitlines()
    heads: list[tuple[int, str, str]] = []  # (0-based line, number, title)
    chapter = 0
    for i, line in enumerate(lines):
        line = line.strip()
        m = SECTION.match(line)
        if m and int(m[1]) >= chapter and int(m[1]) <= chapter + 1:
            chapter = int(m[1])
            heads.append((i, f"{m[1]}.{m[2]}", m[3].strip()))
            continue
        c = CHAPTER.match(line)
        if (
            c
            and (int(c[1]) == chapter + 1 or chapter == 0)
            and _next_section(lines, i) >= int(c[1])
        ):
            chapter = int(c[1])
            heads.append((i, c[1], c[2].strip()))
    out = []
    for k, (i, number, title) in enumerate(heads):
        if stop is not None and number == stop:
            break
        end = heads[k + 1][0] if k + 1 < len(heads) else len(lines)
        body = _paragraphs(lines[i + 1 : end])
        if not body:
            continue
        out.append(
            {
                "book": book,
                "book_name": name,
                "number": number,
                "title": title.title(),
                "lines": [i + 1, end],
                "text": body,
            }
        )
    return out


def main(argv: list[str]) -> None:
    seeds = Path(argv[1]) if len(argv) > 1 else SEEDS
    rows = []
    for book, name, stop in BOOKS:
        rows += sections(book, name, stop, (seeds / book).read_text("utf-8"))
    OUT.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(rows)} sections")


if __name__ == "__main__":
    main(sys.argv)
