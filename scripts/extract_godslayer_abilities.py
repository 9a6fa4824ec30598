"""Extract the Godslayer special abilities catalogue from ``002_bb37dae35014233a.txt``.

Output: ``src/warbench/rulesets/godslayer/data/abilities.json``, read by
:mod:`warbench.rulesets.godslayer.catalog`. Re-run after changing the names or links below::

    .venv/bin/python scripts/extract_godslayer_abilities.py [BOOK]

The book is a table per category (``General Abilities`` ...) of one line per ability: the name,
then the description. Names are not marked off from the description in the text, so they are
listed below by hand (checked against every line of the book); the script checks that each
listed name starts its line, in book order, and that every line of a section is one ability
(the one ``Example:`` line belongs to the ability above it). The parameters are read from the
text: ``/#`` and ``(X)`` in the name, distances in inches, 10+ rolls and stat modifiers.

Links (checked by hand against the WARSURGE perk texts and the Collision glossary): an ability
is linked to a perk or a Collision entry only when the effect is the same idea; ``relation``
says how close (``same`` or ``similar``) and ``note`` what differs.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BOOK = Path("/work/shared/seeds/002_bb37dae35014233a.txt")
OUT = ROOT / "src/warbench/rulesets/godslayer/data/abilities.json"
BOOK_FILE = "002_bb37dae35014233a.txt"

#: Section heading in the book -> category key.
SECTIONS = {
    "General Abilities": "general",
    "Magic Abilities": "magic",
    "Melee Abilities": "melee",
    "Ranged Abilities": "ranged",
    "Special Movement Abilities": "movement",
}

#: The names, in book order per category, exactly as the book spells them.
NAMES: dict[str, list[str]] = {
    "general": [
        "Band",
        "Blink",
        "Construct",
        "Damage Reduction/#",
        "Deflect/#",
        "Displaced",
        "Dodge/#",
        "Doppleganger",
        "Fearless",
        "Fearsome",
        "Hover",
        "Immunity (X)",
        "Leader (X)",
        "Leap",
        "Lock Shields",
        "Mindless",
        "Mob",
        "Mob Leader",
        "Mounted",
        "Musician",
        "Nauseating",
        "Non-Corporeal",
        "Overwhelm",
        "Raider",
        "Ranger/#",
        "Regeneration/#",
        "Resilient/#",
        "Roar",
        "Short",
        "Spy",
        "Stealth",
        "Summoned (X)",
        "Swarm",
        "Tactician",
        "Tough/#",
        "Undead",
        "Vampire",
    ],
    "magic": ["Innate Spell (X)", "Ranked", "Siphon Soul", "Warcaster"],
    "melee": [
        "Assassin",
        "Bloodlust",
        "Bludgeon",
        "Cleave",
        "Critical",
        "Curse",
        "Demoralize",
        "Disable",
        "First Strike",
        "Flame Attack",
        "Frenzy",
        "Life Seize",
        "Martyr",
        "Mighty",
        "Parry",
        "Pike",
        "Poison",
        "Provoke",
        "Quick Strike",
        "Rage",
        "Rampage",
        "Reach",
        "Runeweapon",
        "Rush Attack",
        "Savage",
        "Shock",
        "Smite (X)",
        "Spiked",
        "Swift Attack",
        "Swing-Through",
        "Trample",
        "Vengeful",
        "Vicious",
        "Weaponmaster",
    ],
    "ranged": [
        "AoE/#",
        "Blowthrough",
        "Critical",
        "Disable",
        "Flame Attack",
        "Indirect Shot",
        "Magic Attack (X)",
        "Mighty",
        "Pierce",
        "Poison",
        "Ranked",
        "Rapid Shot",
        "Sharpshooter",
        "Slow Fire",
        "Sniper",
        "Spray",
        "Unhindered",
        "Warshooter",
        "Weaponmaster",
        "web",
    ],
    "movement": ["Burrow", "Flyer"],
}

#: Hand-checked links: (category or "*", name) -> list of links.
#: kind "warsurge-perk" names a base perk of 000_94ecc6a4c74d351b.txt (data/perks.json);
#: kind "collision" names an entry of the Collision abilities glossary (003_fc239e71486306e1.txt).
LINKS: dict[tuple[str, str], list[dict[str, str]]] = {
    ("general", "Blink"): [
        {
            "kind": "warsurge-perk",
            "target": "Blink",
            "relation": "similar",
            "note": 'both relocate without a path; WARSURGE Blink is once per game and 6"',
        },
        {
            "kind": "collision",
            "target": "Leaping Move",
            "relation": "similar",
            "note": "moves past models and obstacles",
        },
    ],
    ("general", "Construct"): [
        {
            "kind": "warsurge-perk",
            "target": "Artificial",
            "relation": "similar",
            "note": "a made, not living, model",
        },
    ],
    ("general", "Deflect/#"): [
        {
            "kind": "collision",
            "target": "Deflect",
            "relation": "similar",
            "note": "Collision Deflect is a reaction that negates a ranged attack on a won contest",
        },
    ],
    ("general", "Dodge/#"): [
        {
            "kind": "warsurge-perk",
            "target": "Dodge",
            "relation": "similar",
            "note": "harder to hit; the amounts and triggers differ",
        },
        {
            "kind": "collision",
            "target": "Dodge",
            "relation": "similar",
            "note": "Collision Dodge is a reaction for Def+2 against one attack",
        },
    ],
    ("general", "Doppleganger"): [
        {
            "kind": "warsurge-perk",
            "target": "Doppelganger",
            "relation": "similar",
            "note": "same name and idea (copying a model); the mechanics differ",
        },
    ],
    ("general", "Fearless"): [
        {
            "kind": "warsurge-perk",
            "target": "Fearless",
            "relation": "similar",
            "note": "immune to fear/morale effects",
        },
        {
            "kind": "collision",
            "target": "Dauntless",
            "relation": "similar",
            "note": "not affected by Fear abilities and Flee",
        },
    ],
    ("general", "Fearsome"): [
        {
            "kind": "collision",
            "target": "Frighten",
            "relation": "similar",
            "note": "a Fear effect; Shaken there, Stun or Flee in Collision",
        },
    ],
    ("general", "Hover"): [
        {
            "kind": "collision",
            "target": "Levitating Move",
            "relation": "similar",
            "note": "ignores ground obstacles",
        },
    ],
    ("general", "Immunity (X)"): [
        {
            "kind": "warsurge-perk",
            "target": "Immunity",
            "relation": "similar",
            "note": "WARSURGE Immunity is immunity to Plague, Poison and Virus only",
        },
        {
            "kind": "collision",
            "target": "Immune",
            "relation": "similar",
            "note": "Collision Immune names a damage or status type",
        },
    ],
    ("general", "Leap"): [
        {
            "kind": "warsurge-perk",
            "target": "Jumper",
            "relation": "similar",
            "note": "moves over obstacles",
        },
        {
            "kind": "collision",
            "target": "Leaping Move",
            "relation": "similar",
            "note": "moves over obstacles and enemy characters",
        },
    ],
    ("general", "Non-Corporeal"): [
        {
            "kind": "warsurge-perk",
            "target": "Incorporeal",
            "relation": "similar",
            "note": "passes through terrain; WARSURGE Incorporeal is once a game, untargetable",
        },
    ],
    ("general", "Regeneration/#"): [
        {
            "kind": "warsurge-perk",
            "target": "Regenerate",
            "relation": "similar",
            "note": "heals itself each activation on a roll",
        },
        {
            "kind": "collision",
            "target": "Regenerate",
            "relation": "similar",
            "note": "Collision Regenerate costs 1M and always recovers 1 injury",
        },
    ],
    ("general", "Resilient/#"): [
        {
            "kind": "warsurge-perk",
            "target": "Resilient",
            "relation": "similar",
            "note": "a second chance against damage; WARSURGE rerolls failed AEGIS Saves",
        },
        {
            "kind": "collision",
            "target": "Shrug",
            "relation": "similar",
            "note": "ignores one injury",
        },
    ],
    ("general", "Stealth"): [
        {
            "kind": "warsurge-perk",
            "target": "Stealth",
            "relation": "similar",
            "note": "hard to target at range",
        },
        {
            "kind": "collision",
            "target": "Camouflage",
            "relation": "similar",
            "note": "total cover when attacked from 4 or more spaces",
        },
    ],
    ("general", "Summoned (X)"): [
        {
            "kind": "warsurge-perk",
            "target": "Summon",
            "relation": "similar",
            "note": "models brought into play during the game",
        },
    ],
    ("general", "Tough/#"): [
        {
            "kind": "warsurge-perk",
            "target": "Tough",
            "relation": "similar",
            "note": "keeps the model alive against damage; WARSURGE halves the HP lost, no roll",
        },
        {
            "kind": "collision",
            "target": "Cling to Life",
            "relation": "similar",
            "note": "delays defeat (costs 1M, no roll)",
        },
    ],
    ("general", "Vampire"): [
        {
            "kind": "warsurge-perk",
            "target": "HP Steal",
            "relation": "similar",
            "note": "heals by harming enemies",
        },
    ],
    ("general", "Spy"): [
        {
            "kind": "collision",
            "target": "Out-Maneuver",
            "relation": "similar",
            "note": "delays an enemy activation",
        },
    ],
    ("general", "Roar"): [
        {
            "kind": "collision",
            "target": "Check",
            "relation": "similar",
            "note": "a fear check against enemies nearby",
        },
    ],
    ("melee", "Critical"): [
        {
            "kind": "warsurge-perk",
            "target": "Critical Hit",
            "relation": "similar",
            "note": "extra damage on the best die face",
        },
        {
            "kind": "collision",
            "target": "Sharp",
            "relation": "similar",
            "note": "crit on 9 or 10 (like Critical after focusing)",
        },
    ],
    ("ranged", "Critical"): [
        {
            "kind": "warsurge-perk",
            "target": "Critical Hit",
            "relation": "similar",
            "note": "extra damage on the best die face",
        },
        {
            "kind": "collision",
            "target": "Sharp",
            "relation": "similar",
            "note": "crit on 9 or 10 (like Critical after focusing)",
        },
    ],
    ("melee", "Curse"): [
        {
            "kind": "collision",
            "target": "Hex X",
            "relation": "similar",
            "note": "a hit leaves a lasting penalty status",
        },
    ],
    ("melee", "Life Seize"): [
        {
            "kind": "warsurge-perk",
            "target": "HP Steal",
            "relation": "similar",
            "note": "heals by killing",
        },
    ],
    ("melee", "Parry"): [
        {
            "kind": "collision",
            "target": "Parry",
            "relation": "similar",
            "note": "Collision Parry is a reaction: ignore a melee attack on a won Att contest",
        },
    ],
    ("melee", "Poison"): [
        {
            "kind": "warsurge-perk",
            "target": "Poison",
            "relation": "similar",
            "note": "same name; damage leaves a poison effect",
        },
        {
            "kind": "collision",
            "target": "Poison X",
            "relation": "similar",
            "note": "the Collision Poison status effect",
        },
    ],
    ("ranged", "Poison"): [
        {
            "kind": "warsurge-perk",
            "target": "Poison",
            "relation": "similar",
            "note": "same name; damage leaves a poison effect",
        },
        {
            "kind": "collision",
            "target": "Poison X",
            "relation": "similar",
            "note": "the Collision Poison status effect",
        },
    ],
    ("melee", "Provoke"): [
        {
            "kind": "warsurge-perk",
            "target": "Provoke",
            "relation": "similar",
            "note": "same name; forces the target to respond to this model",
        },
    ],
    ("melee", "Vicious"): [
        {
            "kind": "collision",
            "target": "Vicious",
            "relation": "similar",
            "note": "same name; Collision Vicious recovers Mana on an injury instead",
        },
    ],
    ("melee", "Weaponmaster"): [
        {
            "kind": "warsurge-perk",
            "target": "Reroll Attack",
            "relation": "similar",
            "note": "re-roll a missed attack",
        },
    ],
    ("ranged", "Weaponmaster"): [
        {
            "kind": "warsurge-perk",
            "target": "Reroll Attack",
            "relation": "similar",
            "note": "re-roll a missed attack",
        },
    ],
    ("melee", "Disable"): [
        {
            "kind": "collision",
            "target": "Stun",
            "relation": "similar",
            "note": "a hit that hampers the target until its next activation",
        },
    ],
    ("melee", "Smite (X)"): [
        {
            "kind": "collision",
            "target": "Smite",
            "relation": "similar",
            "note": "same name; Collision Smite adds Command to W-Pow",
        },
    ],
    ("ranged", "AoE/#"): [
        {
            "kind": "warsurge-perk",
            "target": "Blast",
            "relation": "similar",
            "note": "an area attack around the target",
        },
        {
            "kind": "collision",
            "target": "Blast attack",
            "relation": "similar",
            "note": "an area attack around a target square",
        },
    ],
    ("ranged", "Blowthrough"): [
        {"kind": "warsurge-perk", "target": "Beam", "relation": "similar", "note": "a line attack"},
        {
            "kind": "collision",
            "target": "Line Attack",
            "relation": "similar",
            "note": "attacks every model on a line",
        },
    ],
    ("ranged", "Spray"): [
        {
            "kind": "warsurge-perk",
            "target": "Cone",
            "relation": "similar",
            "note": "a cone template",
        },
    ],
    ("ranged", "Rapid Shot"): [
        {"kind": "warsurge-perk", "target": "Rapid", "relation": "similar", "note": "more shots"},
    ],
    ("ranged", "Indirect Shot"): [
        {
            "kind": "warsurge-perk",
            "target": "No Line of Sight",
            "relation": "similar",
            "note": "attacks without line of sight",
        },
    ],
    ("ranged", "Sharpshooter"): [
        {
            "kind": "warsurge-perk",
            "target": "Ignore Cover",
            "relation": "similar",
            "note": "ignores protections against shooting: cover there, Deflect and Stealth here",
        },
        {
            "kind": "collision",
            "target": "Snipe",
            "relation": "similar",
            "note": "ignores partial cover penalties",
        },
    ],
    ("movement", "Flyer"): [
        {
            "kind": "warsurge-perk",
            "target": "Airborne",
            "relation": "similar",
            "note": "flies over the battlefield",
        },
        {
            "kind": "collision",
            "target": "Levitating Move",
            "relation": "similar",
            "note": "above the ground",
        },
    ],
}

_INCH = re.compile(r"(\d+\s*½|\d+/\d+|\d+|½)\s*[″”\"]")
_ROLL = re.compile(r"\b(\d+)\+\s*Roll", re.IGNORECASE)
_MOD = re.compile(
    r"([+-]\s?\(?[\d#]+\)?)\s+(?:non-cumulative\s+|cumulative\s+)?"
    r"(?:(?:bonus|penalty|modifier)\s+)?(?:to\s+(?:their\s+|its\s+|any\s+|the\s+|all\s+)?)?"
    r"(#MA|MAV|RAV|DV and MD|DV|MD|CP|MOV|Discipline Check|Attack Check|the roll)\b"
)


def _inches(raw: str) -> float:
    raw = raw.replace(" ", "")
    if "/" in raw:
        a, b = raw.split("/")
        return int(a) / int(b)
    if raw.endswith("½"):
        return (int(raw[:-1]) if raw[:-1] else 0) + 0.5
    return float(raw)


def parameters(name: str, text: str) -> dict[str, Any]:
    """The numbers an ability's name and text carry."""
    out: dict[str, Any] = {}
    if name.endswith("/#"):
        out["value"] = "# (a number on the data card)"
    if "(X)" in name:
        out["subject"] = "X (named on the data card)"
    inches = []
    for m in _INCH.finditer(text):
        value = _inches(m.group(1))
        inches.append(int(value) if value == int(value) else value)
    if inches:
        out["inches"] = sorted(set(inches))
    rolls = sorted({int(m.group(1)) for m in _ROLL.finditer(text)})
    if rolls:
        out["roll_target"] = [f"{r}+" for r in rolls]
    mods = []
    for m in _MOD.finditer(text):
        item = f"{m.group(1).replace(' ', '')} {m.group(2)}"
        if item not in mods:
            mods.append(item)
    if mods:
        out["modifiers"] = mods
    counts = re.search(r"(\d+)\s*[–-]\s*(\d+)\s+of this model", text)
    if counts:
        out["models"] = [int(counts.group(1)), int(counts.group(2))]
    return out


def key(name: str) -> str:
    """The catalogue key: the name without its ``/#`` or ``(X)`` marker."""
    base = name.replace("/#", "").replace("(X)", "").strip()
    return base[:1].upper() + base[1:]


def extract(book: Path) -> list[dict[str, Any]]:
    lines = book.read_text(encoding="utf-8").splitlines()
    entries: list[dict[str, Any]] = []
    category = None
    pending: list[str] = []
    for no, raw in enumerate(lines, start=1):
        text = raw.strip()
        if text in SECTIONS:
            if pending:
                raise SystemExit(f"{category}: names not found: {pending}")
            category = SECTIONS[text]
            pending = list(NAMES[category])
            continue
        if category is None or not text or text == "Name: Description:":
            continue
        if text.startswith("Example:"):
            entries[-1]["lines"][1] = no
            entries[-1]["text"] += "\n" + text
            continue
        if not pending:
            raise SystemExit(f"line {no}: an ability line beyond the listed names: {text[:40]}")
        name = pending.pop(0)
        if not text.startswith(name + " "):
            raise SystemExit(f"line {no}: expected {name!r}, found {text[:40]!r}")
        description = text[len(name) + 1 :].strip()
        entries.append(
            {
                "name": key(name),
                "book_name": name,
                "category": category,
                "text": description,
                "lines": [no, no],
            }
        )
    if pending:
        raise SystemExit(f"{category}: names not found: {pending}")
    for e in entries:
        e["parameters"] = parameters(e["book_name"], e["text"])
        e["links"] = LINKS.get((e["category"], e["book_name"]), [])
        e["source"] = f"{BOOK_FILE} L{e['lines'][0]}" + (
            f"-{e['lines'][1]}" if e["lines"][1] != e["lines"][0] else ""
        )
    missing = set(LINKS) - {(e["category"], e["book_name"]) for e in entries}
    if missing:
        raise SystemExit(f"links to unknown abilities: {sorted(missing)}")
    return entries


def main(argv: list[str]) -> None:
    book = Path(argv[1]) if len(argv) > 1 else BOOK
    entries = extract(book)
    data = {
        "source": BOOK_FILE,
        "title": "Godslayer special abilities (SA)",
        "categories": {v: k for k, v in SECTIONS.items()},
        "abilities": entries,
    }
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    counts = {c: sum(e["category"] == c for e in entries) for c in SECTIONS.values()}
    print(f"wrote {OUT.relative_to(ROOT)}: {len(entries)} abilities {counts}")


if __name__ == "__main__":
    main(sys.argv)
