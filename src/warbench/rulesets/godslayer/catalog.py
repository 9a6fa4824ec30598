"""The Godslayer special abilities catalogue (``002_bb37dae35014233a.txt``, lines 1-119).

Package data ``data/abilities.json`` is written by ``scripts/extract_godslayer_abilities.py``
from the book. The same name can appear in two categories with different texts (Critical,
Disable, Flame Attack, Mighty, Poison, Ranked, Weaponmaster are both melee and ranged, or
magic and ranged); :meth:`AbilityCatalog.find` returns every entry of a name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

from warbench.kernel.errors import ProfileError, UnknownNameError

BOOK_FILE = "002_bb37dae35014233a.txt"


class Category(StrEnum):
    """The five tables of the book, in book order."""

    GENERAL = "general"
    MAGIC = "magic"
    MELEE = "melee"
    RANGED = "ranged"
    MOVEMENT = "movement"


@dataclass(frozen=True)
class Link:
    """A related effect elsewhere in warbench: a WARSURGE perk or a Collision glossary entry."""

    kind: str  # "warsurge-perk" or "collision"
    target: str
    relation: str  # "same" or "similar"
    note: str


@dataclass(frozen=True)
class Ability:
    """One special ability (SA) as the book gives it."""

    name: str
    book_name: str
    category: Category
    text: str
    lines: tuple[int, int]
    parameters: dict[str, Any]
    links: tuple[Link, ...]

    @property
    def source(self) -> str:
        """``002_bb37dae35014233a.txt L13`` (or ``L28-29``)."""
        a, b = self.lines
        return f"{BOOK_FILE} L{a}" + (f"-{b}" if b != a else "")

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for ``--json``)."""
        return {
            "name": self.name,
            "book_name": self.book_name,
            "category": self.category.value,
            "text": self.text,
            "lines": list(self.lines),
            "source": self.source,
            "parameters": self.parameters,
            "links": [vars(link) for link in self.links],
        }


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower().replace("/#", "").replace("(x)", "") if ch.isalnum())


class AbilityCatalog:
    """Every Godslayer special ability, searchable by category, name and text."""

    def __init__(self, abilities: list[Ability]) -> None:
        self.abilities = abilities

    @classmethod
    @cache
    def load(cls) -> AbilityCatalog:
        """The catalogue from the package data."""
        text = (
            resources.files("warbench.rulesets.godslayer")
            .joinpath("data/abilities.json")
            .read_text(encoding="utf-8")
        )
        raw = json.loads(text)
        out = [
            Ability(
                name=a["name"],
                book_name=a["book_name"],
                category=Category(a["category"]),
                text=a["text"],
                lines=(int(a["lines"][0]), int(a["lines"][1])),
                parameters=a["parameters"],
                links=tuple(Link(**link) for link in a["links"]),
            )
            for a in raw["abilities"]
        ]
        return cls(out)

    def names(self) -> list[str]:
        """Distinct names in book order."""
        return list(dict.fromkeys(a.name for a in self.abilities))

    def by_category(self, category: Category | str) -> list[Ability]:
        """The abilities of one table; raises :class:`ProfileError` for an unknown category."""
        try:
            cat = Category(str(category).lower())
        except ValueError:
            allowed = ", ".join(c.value for c in Category)
            raise ProfileError("category", category, allowed) from None
        return [a for a in self.abilities if a.category is cat]

    def search(self, text: str, category: Category | str | None = None) -> list[Ability]:
        """Abilities whose name or text contains ``text`` (case-insensitive)."""
        pool = self.abilities if category is None else self.by_category(category)
        needle = text.lower()
        return [a for a in pool if needle in a.name.lower() or needle in a.text.lower()]

    def find(self, name: str) -> list[Ability]:
        """Every entry named ``name`` (ignoring case, spaces, hyphens, ``/#`` and ``(X)``).

        Raises :class:`UnknownNameError` with the closest names when there is none.
        """
        want = _key(name)
        found = [a for a in self.abilities if _key(a.name) == want]
        if not found:
            raise UnknownNameError("Godslayer ability", name, self.names(), where=BOOK_FILE)
        return found
