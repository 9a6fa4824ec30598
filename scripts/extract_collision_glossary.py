"""Extract the Collision abilities glossary from ``003_fc239e71486306e1.txt`` (lines 1583-2289).

Output: ``src/warbench/rulesets/collision/data/abilities.json``, read by
:mod:`warbench.rulesets.collision.glossary`. Re-run after changing the names below::

    .venv/bin/python scripts/extract_collision_glossary.py [BOOK]

The glossary lost its layout in the text: a name may be split over lines ("Caustic" /
"Burst", "Hyper Cut-" / "ter") and may share its line with the cost or the text. The names are
therefore listed below by hand, in book order (checked against the book); the script finds
each one at the start of a line (ignoring case, spaces and hyphens), takes the entry's text up
to the next name, and reads from it: the reaction mark ``(RE)``, the Effect / Fear effect /
Status effect labels, ``Cost:`` (Endurance E, Mana M, ``+Weapon EC``), ``Type:``, ``Reach:``,
``Range:``, ``Radius:``, ``On Hit:``, ``On Crit:``, ``On an injury:`` and the stat modifiers
(``Att+2``, ``S-Pow+2``, ``Pow 4`` ...). Page furniture inside the glossary ("Abilities
Glossary", the page number "76") is dropped.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BOOK = Path("/work/shared/seeds/003_fc239e71486306e1.txt")
OUT = ROOT / "src/warbench/rulesets/collision/data/abilities.json"
BOOK_FILE = "003_fc239e71486306e1.txt"
FIRST, LAST = 1583, 2289
FURNITURE = {"Abilities Glossary", "76"}

NAMES = [
    "Adamant Form",
    "Assess the Threat",
    "Backstab",
    "Barrage",
    "Berserk",
    "Blast attack",
    "Block 2",
    "Block 4",
    "Buck Shot",
    "Burst Attack",
    "Butcher",
    "Camouflage",
    "Castle",
    "Caustic Burst",
    "Challenge",
    "Check",
    "Checkmate",
    "Chilling Strike",
    "Cling to Life",
    "Clobber",
    "Contort",
    "Counter Attack",
    "Dauntless",
    "Dazzle",
    "Decoy",
    "Deflect",
    "Distract",
    "Dodge",
    "Drain",
    "Embloody",
    "Epic Heal",
    "Few Stood Against Many",
    "Finishing Blow",
    "Fire Breathing",
    "Flame Wreath",
    "Flash Freeze",
    "Flee",
    "Fortune",
    "Frighten",
    "Gather Courage",
    "Got your Back",
    "Gouge",
    "Guided Strike",
    "Haste",
    "Heal",
    "Heat of Battle",
    "Hex X",
    "Hyper Cutter",
    "Immune",
    "Immune to Mundane",
    "Immune to Acid",
    "Immune to Cold",
    "Immune to Dark",
    "Immune to Electric",
    "Immune to Fire",
    "Immune to Light",
    "Immune to Magic",
    "Immune to Slay",
    "Inspire Bravery",
    "Inspire Fortitude",
    "Inspire Hatred",
    "Inspire Urgency",
    "Kiss of Death",
    "Knockback",
    "Leaping Move",
    "Levitating Move",
    "Line Attack",
    "Look Out",
    "Luck",
    "Mage Armor",
    "Majesty",
    "Mana Gift",
    "Mana Theft",
    "Mark of the Titans",
    "Meditate",
    "Meteor",
    "Multiattack",
    "No Reactions",
    "On Hit",
    "On Injury",
    "Out-Maneuver",
    "Pain Warp",
    "Parry",
    "Persevere",
    "Plan Ahead",
    "Poison X",
    "Pounce",
    "Power Attack",
    "Power Channel",
    "Rally",
    "Ranged",
    "Recovery",
    "Regenerate",
    "Remedy",
    "Resist Elements 2",
    "Retaliate",
    "Rip Around",
    "Scissor Strike",
    "Serenity",
    "Shadow Hop",
    "Sharp",
    "Shockwave",
    "Shove",
    "Shrieking Armor",
    "Shrug",
    "Sidestep",
    "Skittish",
    "Slay",
    "Smite",
    "Snipe",
    "Static Jolt",
    "Steal X",
    "Stun",
    "Sudden Strike",
    "Swift Assault",
    "Tactical Strike",
    "Tap into Gea",
    "Throw",
    "Thunderstrike",
    "Touch of Death",
    "Trip",
    "Unstable",
    "Upheaval",
    "Venom",
    "Vicious",
    "Vigorate",
    "Voodoo",
    "Whirling Gale",
    "Wreck",
]

#: Entries that define a term other entries use (no cost, not a character's own ability).
TERMS = {
    "Blast attack",
    "Burst Attack",
    "Drain",
    "Immune",
    "Knockback",
    "Line Attack",
    "Luck",
    "No Reactions",
    "On Hit",
    "On Injury",
    "Slay",
    "Steal X",
}
#: Status effects: labelled "Status effect" in the book, and Flee, which the recovery step
#: lists with them (L908-909 "recoverable status effect tokens (Stun, Poison, Hex, and Flee)").
STATUSES = {"Flee", "Hex X", "Poison X", "Stun"}

_COST = re.compile(r"Cost:\s*((?:\d+\s*[EM])+)\s*(\+\s*Weapon EC)?")
_FIELD = {
    "type": re.compile(r"Type:\s*([A-Za-z]+)"),
    "reach": re.compile(r"Reach:\s*([^\n]+)"),
    "range": re.compile(r"Range:\s*([^\n]+)"),
    "radius": re.compile(r"Radius:\s*(\d+)"),
    "on_hit": re.compile(
        r"On Hit:\s*(.+?)(?=\s(?:On Crit:|On an injury:|Special|A special|Make a|No reactions)|$)",
        re.DOTALL,
    ),
    "on_crit": re.compile(r"(?:On )?Crit:\s*([^\n]+)"),
    "on_injury": re.compile(r"On an injury:\s*([^\n]+)"),
}
_MOD = re.compile(r"\b(W-Att|W-Pow|S-Pow|Att|Pow|Def|Armor)\s?([+-]\s?\d+)")
_POW = re.compile(r"\bPow(?:er)?\s(\d+)\b")


def norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def strip_name(text: str, name: str) -> str:
    """``text`` without its leading ``name`` (spread over lines, hyphenated or not)."""
    want = norm(name)
    got = ""
    for i, ch in enumerate(text):
        if got == want:
            return text[i:]
        got += norm(ch)
    if got == want:
        return ""
    raise ValueError(f"{name!r} does not start {text[:40]!r}")


def find_entries(lines: list[str]) -> list[tuple[str, int, int]]:
    """``(name, first line, last line)`` per listed name (1-based line numbers)."""
    body = [(no, lines[no - 1].strip()) for no in range(FIRST, LAST + 1)]
    body = [(no, t) for no, t in body if t and t not in FURNITURE]
    starts: list[int] = []
    pos = 0
    for name in NAMES:
        want = norm(name)
        while pos < len(body):
            joined = norm("".join(t for _, t in body[pos : pos + 4]))
            first = norm(body[pos][1])
            # the name starts this line (and, when split, continues on the next ones)
            if joined.startswith(want) and (
                want.startswith(first)
                or first.startswith(want)
                or first.startswith(norm(name.split()[0]))
            ):
                break
            pos += 1
        else:
            raise SystemExit(f"{name!r} not found after line {body[starts[-1]][0]}")
        starts.append(pos)
        pos += 1
    out = []
    for i, name in enumerate(NAMES):
        end = starts[i + 1] - 1 if i + 1 < len(NAMES) else len(body) - 1
        out.append((name, body[starts[i]][0], body[end][0]))
    return out


def parse_entry(name: str, first: int, last: int, lines: list[str]) -> dict[str, Any]:
    raw = [lines[no - 1].strip() for no in range(first, last + 1)]
    raw = [t for t in raw if t and t not in FURNITURE]
    rest = strip_name("\n".join(raw), name).strip()
    reaction = False
    if rest.startswith("(RE)"):
        reaction, rest = True, rest[4:].strip()
    labels = []
    for label in ("Fear effect", "Status effect", "Effect"):
        if rest.startswith(label):
            labels.append(label)
            rest = rest[len(label) :].strip()
            break
    entry: dict[str, Any] = {"name": name, "lines": [first, last]}
    cost = _COST.search(rest)
    if cost:
        parts = re.findall(r"(\d+)\s*([EM])", cost.group(1))
        entry["cost"] = {
            "endurance": sum(int(n) for n, k in parts if k == "E"),
            "mana": sum(int(n) for n, k in parts if k == "M"),
            "weapon_ec": bool(cost.group(2)),
            "as_printed": cost.group(0).replace("Cost:", "").strip(),
        }
    if name in STATUSES:
        kind = "status"
    elif reaction:
        kind = "reaction"
    elif name in TERMS:
        kind = "term"
    elif cost:
        kind = "action"
    else:
        kind = "effect"
    entry["kind"] = kind
    entry["fear"] = "Fear effect" in labels
    text = re.sub(r"-\n(?=[a-z])", "", rest)
    entry["text"] = " ".join(text.split())
    fields: dict[str, Any] = {}
    for key, rx in _FIELD.items():
        m = rx.search(text if key == "on_hit" else rest)
        if m:
            fields[key] = " ".join(m.group(1).split()).rstrip(".")
    mods = []
    for m in _MOD.finditer(text):
        item = f"{m.group(1)}{m.group(2).replace(' ', '')}"
        if item not in mods:
            mods.append(item)
    if mods:
        fields["modifiers"] = mods
    pow_fixed = _POW.findall(text)
    if pow_fixed:
        fields["power"] = sorted({int(p) for p in pow_fixed})
    special = re.search(r"special (?:\w+ ){0,3}attack", text, re.IGNORECASE)
    if special or (kind == "action" and any(m.startswith(("Att", "W-Att")) for m in mods)):
        fields["attack"] = True
    entry["parameters"] = fields
    entry["source"] = f"{BOOK_FILE} L{first}-{last}"
    return entry


def main(argv: list[str]) -> None:
    book = Path(argv[1]) if len(argv) > 1 else BOOK
    lines = book.read_text(encoding="utf-8").splitlines()
    entries = [parse_entry(n, a, b, lines) for n, a, b in find_entries(lines)]
    data = {
        "source": BOOK_FILE,
        "title": "Collision abilities glossary",
        "lines": [FIRST, LAST],
        "abilities": entries,
    }
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    kinds: dict[str, int] = {}
    for e in entries:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    print(f"wrote {OUT.relative_to(ROOT)}: {len(entries)} entries {kinds}")


if __name__ == "__main__":
    main(sys.argv)
