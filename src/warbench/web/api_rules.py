"""Core-rule section search of the JSON API (``/api/rules/sections``, issue 13).

The Rules page searches the perks (``/api/perks``) and the rule sections: every numbered
section of WARSURGE Book 1 (Core Rules, ``001_d3f5e425c5e1196d.txt``) and the general sections
of Book 2 (Perks, ``000_94ecc6a4c74d351b.txt`` §12.1-§12.3), read from the book text by
``scripts/build_core_sections.py`` into ``web/data/rule_sections.json``.

It also searches the Godslayer special abilities (``/api/rules/godslayer``, issue 17): the
catalogue of ``002_bb37dae35014233a.txt`` L1-119 with each ability's text, category, parameters,
source lines and its links to WARSURGE perks and Collision entries.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from warbench.kernel.errors import UnknownNameError

router = APIRouter(tags=["rules"])


class RuleSection(BaseModel):
    """One section of a rulebook: its number, title, book and lines, and its text."""

    book: str = Field(description="The book's file, e.g. 001_d3f5e425c5e1196d.txt.")
    book_name: str
    number: str = Field(description="Section number (5.10); a chapter's own text is its number.")
    title: str
    lines: list[int] = Field(description="First and last line in the book file (1-based).")
    text: str


class SectionHit(BaseModel):
    """A section that matches a search, with the passage around the first match."""

    book: str
    book_name: str
    number: str
    title: str
    lines: list[int]
    snippet: str
    matches: int = Field(description="How often the words occur in the section.")


@cache
def rule_sections() -> tuple[RuleSection, ...]:
    """Every rule section shipped with the web package, in book order."""
    text = resources.files("warbench.web").joinpath("data", "rule_sections.json").read_text()
    return tuple(RuleSection.model_validate(row) for row in json.loads(text))


def _snippet(text: str, word: str, width: int = 220) -> str:
    at = text.lower().find(word)
    if at < 0:
        return text[:width] + ("…" if len(text) > width else "")
    start = max(0, at - width // 3)
    end = min(len(text), start + width)
    cut = text[start:end].replace("\n", " ")
    return ("…" if start else "") + cut + ("…" if end < len(text) else "")


@router.get("/rules/sections")
def sections(
    q: Annotated[str, Query(max_length=80, description="Words in the title or text.")] = "",
    book: Annotated[str | None, Query(max_length=40, description="Core Rules or Perks.")] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 30,
) -> list[SectionHit]:
    """Search the rule sections by number, title or text: a number (``5.10``) finds that
    section, title matches come first, then text matches by how often the words occur."""
    words = q.lower().split()
    rows = [s for s in rule_sections() if book is None or s.book_name.lower() == book.lower()]
    if book is not None and not rows:
        raise UnknownNameError("book", book, sorted({s.book_name for s in rule_sections()}))
    scored: list[tuple[int, int, RuleSection]] = []
    for order, s in enumerate(rows):
        if not words:
            scored.append((0, order, s))
            continue
        if len(words) == 1 and re.fullmatch(r"§?\d+(\.\d+)?", words[0]):
            if s.number == words[0].lstrip("§"):
                scored.append((-(10**6), order, s))
            continue
        title = s.title.lower()
        body = s.text.lower()
        if not all(w in title or w in body for w in words):
            continue
        in_title = sum(w in title for w in words)
        count = sum(body.count(w) for w in words)
        scored.append((-(1000 * in_title + count), order, s))
    scored.sort(key=lambda t: (t[0], t[1]))
    out = []
    for _score, _, s in scored[:limit]:
        body = s.text.lower()
        out.append(
            SectionHit(
                book=s.book,
                book_name=s.book_name,
                number=s.number,
                title=s.title,
                lines=s.lines,
                snippet=_snippet(s.text, words[0] if words else ""),
                matches=sum(body.count(w) for w in words),
            )
        )
    return out


@router.get("/rules/sections/{number}")
def section(
    number: str,
    book: Annotated[str, Query(max_length=40, description="Core Rules or Perks.")] = "Core Rules",
) -> RuleSection:
    """One section's full text, by its number (``5.10``; ``12.2`` with ``book=Perks``)."""
    rows = [s for s in rule_sections() if s.book_name.lower() == book.lower()]
    if not rows:
        raise UnknownNameError("book", book, sorted({s.book_name for s in rule_sections()}))
    for s in rows:
        if s.number == number.strip().lstrip("§"):
            return s
    raise UnknownNameError("section", number, [s.number for s in rows], where=book)


class GodslayerLink(BaseModel):
    """A related effect elsewhere in warbench (a WARSURGE perk or a Collision glossary entry)."""

    kind: str = Field(description="warsurge-perk or collision.")
    target: str
    relation: str = Field(description="same or similar.")
    note: str


class GodslayerAbility(BaseModel):
    """One Godslayer special ability as the book gives it (002_bb37dae35014233a.txt)."""

    name: str
    book_name: str
    category: str = Field(description="general, magic, melee, ranged or movement.")
    text: str
    lines: list[int] = Field(description="First and last line in the book file (1-based).")
    source: str
    parameters: dict[str, Any]
    links: list[GodslayerLink]


@router.get("/rules/godslayer")
def godslayer(
    q: Annotated[str, Query(max_length=80, description="Words in the name or text.")] = "",
    category: Annotated[
        str | None, Query(max_length=20, description="general, magic, melee, ranged, movement.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 200,
) -> list[GodslayerAbility]:
    """Search the Godslayer special abilities (002_bb37dae35014233a.txt L1-119) by name or
    text, every word required; name matches come first, then book order. An unknown category
    is a 422 naming the allowed ones."""
    from warbench.rulesets.godslayer.catalog import AbilityCatalog

    catalog = AbilityCatalog.load()
    pool = catalog.abilities if not category else catalog.by_category(category)
    words = q.lower().split()
    scored = []
    for order, a in enumerate(pool):
        name, text = a.name.lower(), a.text.lower()
        if not all(w in name or w in text for w in words):
            continue
        scored.append((-sum(w in name for w in words), order, a))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [GodslayerAbility.model_validate(a.to_dict()) for _, _, a in scored[:limit]]
