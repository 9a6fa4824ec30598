"""Build ``src/warbench/rulesets/warsurge/data/perks.json`` from the perk reference index.

Input: ``/work/shared/reference/warsurge_perks.json`` (an index of every perk rank of WARSURGE
Book 2, ``000_94ecc6a4c74d351b.txt``) and the book text itself, used to check each entry's
source line and to read the section headings.

Output: the package data file read by :class:`warbench.rulesets.warsurge.perks.PerkCatalog`.
Each entry keeps name, base_name, rank, kind, family, activation, summary, section, rule,
impl_class and requires.  Re-run after changing the reference or the overrides below::

    .venv/bin/python scripts/build_perk_catalog.py [REFERENCE] [BOOK]

Spot-check (against the book text, v1.1.1): Destroy I/II, +Power I (D3), Aim 4+, Evasive,
Accuracy 3+/4+, Concealed, Decoy II/III, Avenge, +Armour I, Damage 3+, Crew I, Pusillanimous,
Barrier, Ignite I, Clash, Revive I, Diffuse, Defiance, Transform III, Dire Hit, Respawn,
Summon, Deny, Combat Damage, Wreckage, Reservoir, Berserk, Fleeting, Protective, Shielding,
Swift.  Also checked mechanically for all 386 entries: the name starts the source line, every
activation tag appears in the entry's header lines, the family matches the book's family
heading above the line, base_name/rank agree with the name.  Only the overrides below differ.
"""

from __future__ import annotations

import bisect
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = Path("/work/shared/reference/warsurge_perks.json")
BOOK = Path("/work/shared/seeds/000_94ecc6a4c74d351b.txt")
OUT = ROOT / "src/warbench/rulesets/warsurge/data/perks.json"

BOOK_FILE = "000_94ecc6a4c74d351b.txt"

#: Section headings of Book 2 (``12.4 UNIT PERKS`` ...) and the kinds each one may hold.
SECTION_KINDS = {
    "12.4": ("Unit Perk",),
    "12.5": ("Weapon Perk",),
    "12.6": ("Trait", "Roster Perk"),
}

# The roster Presence perks: the reference says the Presence unit must be "designated for this
# Roster Perk"; the book (12.6, Fleeting/Protective/Shielding/Swift) only asks for Units with
# the Presence Perk from this Roster on the Battlefield - nothing is designated.
_PRESENCE = ["A friendly Unit with the Presence (Aeonian Unit Perk) on the Battlefield"]

#: Explicit corrections of the reference, by perk name: field -> corrected value.
OVERRIDES: dict[str, dict[str, Any]] = {
    "Fleeting": {"requires": _PRESENCE},
    "Protective": {"requires": _PRESENCE},
    "Shielding": {"requires": _PRESENCE},
    "Swift": {"requires": _PRESENCE},
}

KEEP = (
    "name",
    "base_name",
    "rank",
    "kind",
    "family",
    "activation",
    "summary",
    "section",
    "rule",
    "impl_class",
    "requires",
)


def section_headings(lines: list[str]) -> list[tuple[int, str, str]]:
    """``(line number, "12.4", "UNIT PERKS")`` for every ``12.x`` heading of the book."""
    out = []
    for i, line in enumerate(lines, start=1):
        m = re.fullmatch(r"(12\.\d) ([A-Z ,]+)", line.strip())
        if m:
            out.append((i, m[1], m[2].strip()))
    return out


def build(reference: Path, book: Path) -> dict[str, Any]:
    """The catalog document: metadata plus one entry per perk rank, in book order."""
    entries = json.loads(reference.read_text(encoding="utf-8"))
    lines = book.read_text(encoding="utf-8").split("\n")
    heads = section_headings(lines)
    starts = [h[0] for h in heads]
    unused = set(OVERRIDES)
    out = []
    for e in entries:
        m = re.fullmatch(r"(\S+) line (\d+)", e["source"])
        if not m or m[1] != BOOK_FILE:
            raise SystemExit(f"{e['name']}: unexpected source {e['source']!r}")
        n = int(m[2])
        first_word = e["name"].split()[0]
        if not lines[n - 1].startswith(first_word):
            raise SystemExit(f"{e['name']}: line {n} reads {lines[n - 1]!r}")
        _, sec, title = heads[bisect.bisect_right(starts, n) - 1]
        if e["kind"] not in SECTION_KINDS.get(sec, ()):
            raise SystemExit(f"{e['name']}: kind {e['kind']} under §{sec} {title}")
        entry = dict(e)
        entry["section"] = sec
        heading = title.title().replace(" And ", " and ")
        entry["rule"] = f"Book 2 §{sec} {heading}, {BOOK_FILE} line {n}"
        for key, value in OVERRIDES.get(e["name"], {}).items():
            entry[key] = value
        unused.discard(e["name"])
        out.append({k: entry[k] for k in KEEP})
    if unused:
        raise SystemExit(f"overrides for unknown perks: {sorted(unused)}")
    return {
        "book": "WARSURGE Book 2. Perks v1.1.1",
        "source": BOOK_FILE,
        "generated_by": "scripts/build_perk_catalog.py",
        "perks": out,
    }


def main(argv: list[str]) -> None:
    reference = Path(argv[1]) if len(argv) > 1 else REFERENCE
    book = Path(argv[2]) if len(argv) > 2 else BOOK
    doc = build(reference, book)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(doc['perks'])} perks to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main(sys.argv)
