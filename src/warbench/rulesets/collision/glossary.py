"""The Collision abilities glossary (``003_fc239e71486306e1.txt`` lines 1583-2289) as data.

Package data ``data/abilities.json`` is written by ``scripts/extract_collision_glossary.py``.
Each entry keeps its name, kind (action, reaction, effect, status, term), listed cost
(Endurance ``E``, Mana ``M``, ``+Weapon EC``), text, parameters (Type, Reach, Range, Radius,
On Hit, On Crit, stat modifiers) and source lines. Names on character cards are resolved here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

from warbench.kernel.errors import UnknownNameError

BOOK_FILE = "003_fc239e71486306e1.txt"


class EntryKind(StrEnum):
    """What a glossary entry is."""

    ACTION = "action"  # a special action with a listed cost (L872-881)
    REACTION = "reaction"  # marked (RE) (L891-899)
    EFFECT = "effect"  # always in effect, no cost (L295-296)
    STATUS = "status"  # a status effect token (Hex, Poison, Stun, Flee; L908-909)
    TERM = "term"  # defines a word other entries use (Blast attack, On Hit, Slay ...)


@dataclass(frozen=True)
class Cost:
    """A listed cost: Endurance, Mana, and whether the weapon's EC is paid too (L1068-1071)."""

    endurance: int
    mana: int
    weapon_ec: bool
    as_printed: str

    def __str__(self) -> str:
        parts = []
        if self.endurance:
            parts.append(f"{self.endurance}E")
        if self.mana:
            parts.append(f"{self.mana}M")
        text = "".join(parts) or "0"
        return text + ("+Weapon EC" if self.weapon_ec else "")


@dataclass(frozen=True)
class GlossaryEntry:
    """One entry of the abilities glossary."""

    name: str
    kind: EntryKind
    fear: bool
    cost: Cost | None
    text: str
    lines: tuple[int, int]
    parameters: dict[str, Any]

    @property
    def source(self) -> str:
        """``003_fc239e71486306e1.txt L1615-1616``."""
        return f"{BOOK_FILE} L{self.lines[0]}-{self.lines[1]}"

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for ``--json``)."""
        return {
            "name": self.name,
            "kind": self.kind.value,
            "fear": self.fear,
            "cost": None if self.cost is None else vars(self.cost),
            "text": self.text,
            "lines": list(self.lines),
            "source": self.source,
            "parameters": self.parameters,
        }


def key(name: str) -> str:
    """Comparison key: lower case, letters and digits only."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


class Glossary:
    """Every glossary entry, searchable; resolves ability names written on cards."""

    def __init__(self, entries: list[GlossaryEntry]) -> None:
        self.entries = entries
        self._by_key = {key(e.name): e for e in entries}

    @classmethod
    @cache
    def load(cls) -> Glossary:
        """The glossary from the package data."""
        text = (
            resources.files("warbench.rulesets.collision")
            .joinpath("data/abilities.json")
            .read_text(encoding="utf-8")
        )
        out = []
        for a in json.loads(text)["abilities"]:
            cost = a.get("cost")
            out.append(
                GlossaryEntry(
                    name=a["name"],
                    kind=EntryKind(a["kind"]),
                    fear=bool(a["fear"]),
                    cost=None if cost is None else Cost(**cost),
                    text=a["text"],
                    lines=(int(a["lines"][0]), int(a["lines"][1])),
                    parameters=a["parameters"],
                )
            )
        return cls(out)

    def names(self) -> list[str]:
        """Entry names in book order."""
        return [e.name for e in self.entries]

    def search(self, text: str = "", kind: EntryKind | str | None = None) -> list[GlossaryEntry]:
        """Entries whose name or text contains ``text`` (case-insensitive), of one kind."""
        needle = text.lower()
        want = None if kind is None else EntryKind(str(kind).lower())
        return [
            e
            for e in self.entries
            if (want is None or e.kind is want)
            and (needle in e.name.lower() or needle in e.text.lower())
        ]

    def resolve(self, name: str) -> tuple[GlossaryEntry, int | None]:
        """The entry a card's ability name refers to, and its number if it carries one.

        ``"Block 2"`` is its own entry; ``"Poison 2"`` is ``Poison X`` with X = 2; ``"Luck 2"``
        is Luck with 2 tokens (L1979-1980). Raises :class:`UnknownNameError` (closest names).
        """
        k = key(name)
        if k in self._by_key:
            return self._by_key[k], None
        m = re.fullmatch(r"(.*?)\s*(\d+)", name.strip())
        if m:
            base = key(m.group(1))
            for candidate in (base + "x", base):
                if candidate in self._by_key:
                    return self._by_key[candidate], int(m.group(2))
        raise UnknownNameError("Collision ability", name, self.names(), where=BOOK_FILE)

    def get(self, name: str) -> GlossaryEntry:
        """The entry named ``name`` (see :meth:`resolve`)."""
        return self.resolve(name)[0]
