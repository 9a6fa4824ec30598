"""Build ``src/warbench/rulesets/warsurge/effects/data/effects.json``: every perk rank as effects.

One row per rank of the catalog (``data/perks.json``, 386 rows), citing its source line. *When*
(triggers), *which test*, *whom* (target, radius, Point Cost) and *how often* (Limited Use,
once per Game Turn) are read mechanically from the activation tags printed in the book
(§12.2 L245-L320). *What it does* is the reviewed part below (``EFFECTS``): each entry was
written from the perk's text in ``000_94ecc6a4c74d351b.txt`` at the cited line. The attack-math
ranks (class A) name the machinery that implements them (``attack sequence``, registered by
``attack.py``). A rank with no entry has no effects yet; :mod:`warbench.rulesets.warsurge.
effects.table` reports it when the table loads.

    .venv/bin/python scripts/build_effects_table.py      # rewrite the JSON
    .venv/bin/python scripts/build_effects_table.py --check   # exit 1 if it is stale
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ROOT / "src/warbench/rulesets/warsurge/data/perks.json"
OUT = ROOT / "src/warbench/rulesets/warsurge/effects/data/effects.json"
BOOK_FILE = "000_94ecc6a4c74d351b.txt"

Json = dict[str, Any]

# -- vocabulary helpers (the JSON shape read by effects/table.py) -------------------------------


def mod(q: str, op: str, value: str | int, **kw: Any) -> Json:
    return {"quantity": q, "op": op, "value": str(value), **kw}


def modify(*mods: Json, target: str = "self") -> Json:
    return {"kind": "modify", "target": {"kind": target}, "modifiers": list(mods)}


def status(
    name: str,
    *mods: Json,
    turns: int | None = 1,
    delay: int = 0,
    each_turn_end: str = "",
    stacks: bool = True,
    target: str = "target",
) -> Json:
    out: Json = {
        "kind": "status",
        "target": {"kind": target},
        "status": name,
        "turns": turns,
        "delay": delay,
        "modifiers": [dict(m, stacks=stacks) for m in mods],
    }
    if each_turn_end:
        out["each_turn_end"] = each_turn_end
    return out


def immune(*names: str) -> Json:
    return {"kind": "immune", "target": {"kind": "self"}, "names": list(names)}


def hp_loss(amount: str, target: str = "target", saves: bool = False) -> Json:
    return {"kind": "hp_loss", "target": {"kind": target}, "amount": amount, "saves": saves}


def restore(amount: str, target: str = "self") -> Json:
    return {"kind": "restore", "target": {"kind": target}, "amount": amount}


def convert(*names: str) -> Json:
    return {"kind": "convert", "target": {"kind": "self"}, "names": list(names)}


def clear(*names: str, target: str = "target") -> Json:
    return {"kind": "clear", "target": {"kind": target}, "names": list(names)}


def machinery(name: str) -> Json:
    return {"kind": "machinery", "target": {"kind": "self"}, "machinery": name}


#: Every Affliction-family status (Cure I strips them all, L717).
AFFLICTIONS = (
    "Bleed", "Blind", "Burn", "Concussive", "Confuse", "Corrode", "Cripple", "Delirium",
    "Dread", "Freeze", "Fugue", "Ignite", "Implant", "Leech", "Mitigate", "Paralysis",
    "Plague", "Poison", "Pulverise", "Scourge", "Stun", "Virus", "Weaken",
)  # fmt: skip

#: The temporary Psychological statuses Cure strips (L717).
PSYCHOLOGICAL = ("Terrify", "Morale I", "Morale II", "Fall Back", "Panic", "Horrific")

#: Beneficial statuses of perks used with Activation or a Mastery Test (not Transformation):
#: what Purge removes (L899).
BENEFICIAL = ("Adrenaline", "Smokescreen", "Rush", "Frenzy", "Courage", "Stealth", "Defend")

#: What Courage ignores and removes (L707).
COURAGE = (
    "Cripple", "Stun", "Force", "Knockback", "Fugue", "Morale I", "Morale II", "Fall Back",
    "Panic", "Horrific", "Terrify", "Dread",
)  # fmt: skip

#: Perks a player uses once per Game Turn (§12.2 L227) whose tags do not say Activate.
USED_ONCE_PER_TURN = ("Cure I", "Cure II", "Purge I", "Purge II")

#: The reviewed effects, by rank, each from the text at the rank's source line.
EFFECTS: dict[str, list[Json]] = {
    # -- Weapon Afflictions (§12.5, L2576-L2895): statuses put on the Target ----------------
    # L2584 "Each time the Target makes any Movement, it loses 1 HP" (for the rest of the game)
    "Bleed": [status("Bleed", turns=None)],
    # L2616 "afflicted with Burn. At the end of each Game Turn, the Target loses 1 HP with no
    # Saves" (no end is given: until cured, docs/rulings.md Perks 3)
    "Burn": [status("Burn", turns=None, each_turn_end="1")],
    # L2594 "a -1 Dice Modifier to all Attack Dice and halves the current Range of their Weapons
    # … until the end of the current Game Turn"; Blind II (L2606) on successful Attack Dice
    "Blind I": [status("Blind", mod("Attack Dice", "add", -1), mod("Range", "mul", "1/2"))],
    "Blind II": [status("Blind", mod("Attack Dice", "add", -1), mod("Range", "mul", "1/2"))],
    # L2624 "a negative -1 Dice Modifier to all Weapon Attacks, lasting until the end of the
    # Game Turn" (a Dice Modifier on its Attack Dice, not its Attacks Stat)
    "Concussive": [status("Concussive", mod("Attack Dice", "add", -1))],
    # L2652 "-1 to their Armour Save Stat, lasting until the end of the Game Turn"
    "Corrode": [status("Corrode", mod("Armour", "add", -1))],
    # L2658 "Move and Dash distances reduced by 50% on the following Game Turn … do not stack"
    "Cripple I": [
        status(
            "Cripple", mod("Move", "mul", "1/2"), mod("Dash", "mul", "1/2"), delay=1, stacks=False
        )
    ],
    "Cripple II": [
        status(
            "Cripple", mod("Move", "mul", "1/2"), mod("Dash", "mul", "1/2"), delay=1, stacks=False
        )
    ],
    # L2708 "the Target will become Immobile on the following Game Turn"
    "Freeze": [
        status("Freeze", mod("Move", "set", 0), mod("Dash", "set", 0), delay=1, stacks=False)
    ],
    # L2782 "All of the Target's Weapons suffer -1 to AP, lasting until the end of the Game Turn"
    "Mitigate": [status("Mitigate", mod("AP", "add", -1))],
    # L2812 "-1 HP (no Saves) each end of Game Turn" for the rest of the game (spread: L2812)
    "Plague": [status("Plague", turns=None, each_turn_end="1")],
    # L2826 "Poisoned for the remainder of the game … loses D3 HP, no Saves allowed …
    # identical Weapons by the same Unit do not stack, otherwise different sources … can stack"
    "Poison": [status("Poison", turns=None, each_turn_end="D3")],
    # L2836 "Lowers the Target's Defence by -1 against all Attacks … until the end of the Turn"
    "Pulverise": [status("Pulverise", mod("Defence", "add", -1))],
    # L2842 "Lowers the Target's AEGIS Saves by -1 … until the end of the Game Turn"
    "Scourge": [status("Scourge", mod("AEGIS", "add", -1))],
    # L2876 "unable to restore lost HP for the duration of the game"
    "Virus": [status("Virus", turns=None)],
    # L2884 "All of the Target's Weapons suffer -1 to Power … until the end of the Game Turn"
    "Weaken": [status("Weaken", mod("Power", "add", -1))],
    # L2768 "at the end of each Game Turn the target loses 1 HP (no Saves) and the User's unit
    # regains 1 HP" (the regain is the Leech machinery: it needs the inflicting unit)
    "Leech": [status("Leech", turns=None, each_turn_end="1"), machinery("leech")],
    # -- Abilities and Transformations used with Activate (§12.4) ---------------------------
    # L666 "For the duration of one Game Turn … Move and Dash Stats by 33% (1/3) and Defence
    # is raised by +1. Stats with 0 value are not boosted and fractions are rounded up."
    "Adrenaline": [
        status(
            "Adrenaline",
            mod("Move", "mul", "4/3"),
            mod("Dash", "mul", "4/3"),
            mod("Defence", "add", 1),
            target="self",
        )
    ],
    # L717 "remove all negative Perk effects from the Affliction family (… including
    # Afflictions that manifest on a later Game Turn), Terrify and temporary effects from the
    # Psychological family … on a Target Unit within 18" and line of sight"; Cure II: no LOS
    "Cure I": [clear(*AFFLICTIONS, *PSYCHOLOGICAL)],
    "Cure II": [clear(*AFFLICTIONS, *PSYCHOLOGICAL)],
    # L899 "the Target loses any beneficial Perk effects that require Activation or a Mastery
    # Test, such as Courage … Transformation Perks are unaffected" (Purge II: no LOS)
    "Purge I": [clear(*BENEFICIAL)],
    "Purge II": [clear(*BENEFICIAL)],
    # L1611 "Restore D3 HP"; L1645 "Restore ceil(max HP / 10) HP"
    "Recover": [restore("D3")],
    "Regenerate": [restore("max/10")],
    # L1759 "for one Game Turn all Attack Dice against the User get -2"
    "Smokescreen": [status("Smokescreen", mod("Attack Dice against", "add", -2), target="self")],
    # L2510 "Move and Dash x2, all Weapons +6\" Range, +3 Power, +1 AP; reverts at the end"
    **{
        f"Limit Break {r}": [
            status(
                "Limit Break",
                mod("Move", "mul", 2),
                mod("Dash", "mul", 2),
                mod("Range", "add", 6),
                mod("Power", "add", 3),
                mod("AP", "add", 1),
                target="self",
            )
        ]
        for r in ("I", "II", "III")
    },
    # -- Defensive immunities (§12.4) ------------------------------------------------------
    "Artificial": [immune("Bleed", "Implant", "Leech")],  # L1473
    "Fearless": [immune("Horrific", "Terrify", "Dread")],  # L1525
    "Fire Resist I": [immune("Burn", "Ignite")],  # L1527
    "Immunity I": [immune("Plague", "Poison", "Virus")],  # L1553
    # L1529 "the HP Loss it would have suffered from these Perks is instead converted to
    # restoring HP … unaffected by Burn and Ignite caused by friendly Units"
    "Fire Resist II": [convert("Burn", "Ignite")],
    # L1555 "unaffected by the Virus Perk and regains HP from enemy Plague and Poison Perks"
    "Immunity II": [immune("Virus"), convert("Plague", "Poison")],
    "Impregnable": [immune("Breach", "Hijack", "Implant")],  # L1565
    # L1537 "Immune to Weapon Afflictions that change Stats or impose Dice Modifiers"
    "Indomitable": [
        immune(
            "Blind",
            "Concussive",
            "Corrode",
            "Cripple",
            "Mitigate",
            "Pulverise",
            "Scourge",
            "Stun",
            "Weaken",
        )
    ],
    "Unyielding": [immune("Taunt", "Provoke")],  # L1799 (Melee 'Locked' part: not yet)
    # L2178 "unaffected by Cripple, Freeze, Paralysis, Stun, Force, Knockback, Warp and Grapple"
    "Unstoppable": [
        immune("Cripple", "Freeze", "Paralysis", "Stun", "Force", "Knockback", "Warp", "Grapple")
    ],
    # -- Psychological: "At the start of the Game Turn, check if the User has lost HP in the
    # previous Game Turn, or if the User only has 1 HP" (L2197-L2299, game/perk_turn.py) ----
    # L2197 "roll a D3 … 1) +50% to Move and Dash. 2) +2 Defence. 3) +1 AEGIS (up to 2+)"
    "Conviction": [
        status(
            "Conviction (Move)", mod("Move", "mul", "3/2"), mod("Dash", "mul", "3/2"), target="self"
        ),
        status("Conviction (Defence)", mod("Defence", "add", 2), target="self"),
        status("Conviction (AEGIS)", mod("AEGIS", "add", 1), target="self"),
        machinery("start of turn"),
    ],
    # L2209 "If failed, one model … will lose all its HP … repeat until it passes"
    "Execution": [machinery("start of turn")],
    # L2239 "If passed, … Move and Dash increased by 50%, and +1 Power to all their Weapons"
    "Frenzy": [
        status(
            "Frenzy",
            mod("Move", "mul", "3/2"),
            mod("Dash", "mul", "3/2"),
            mod("Power", "add", 1),
            target="self",
        ),
        machinery("start of turn"),
    ],
    # L2249 "If failed, … a negative -1 Dice Modifier to all Attack Dice … until the end of the
    # Game Turn" (the Difficult Ground part waits for terrain movement costs, docs/rulings.md)
    "Morale I": [
        status("Morale I", mod("Attack Dice", "add", -1), target="self"),
        machinery("start of turn"),
    ],
    "Morale II": [
        status("Morale II", mod("Attack Dice", "add", -2), target="self"),
        machinery("start of turn"),
    ],
    # L2267 "If failed, the User becomes Immobile and may not use any Weapons" (the Game Turn)
    "Panic": [
        status("Panic", mod("Move", "set", 0), mod("Dash", "set", 0), target="self"),
        machinery("start of turn"),
        machinery("weapon limit"),
    ],
    # L2299 "roll 2D6 … 8 or higher … deduct 7. That is the amount of HP the User will lose"
    "Pusillanimous": [machinery("start of turn")],
    # -- Defensive, by Game Turn and by HP (game/perk_turn.py) ---------------------------------
    # L1465 "roll a D3 [+Armour II: a D6] and add the result to the User's Armour Stat for this
    # Game Turn. Cannot exceed 2+"
    "+Armour I": [
        *(status(f"+Armour +{k}", mod("Armour", "add", k), target="self") for k in (1, 2, 3)),
        machinery("start of turn"),
    ],
    "+Armour II": [
        *(status(f"+Armour +{k}", mod("Armour", "add", k), target="self") for k in range(1, 7)),
        machinery("start of turn"),
    ],
    # L1595 "2nd Game Turn on Battlefield: 50% boost to Move and Dash … 3rd: +1 Defence. 4th:
    # +1 AEGIS" (cumulative, docs/rulings.md)
    "Powered by Pain": [
        status(
            "Powered by Pain (2nd)",
            mod("Move", "mul", "3/2"),
            mod("Dash", "mul", "3/2"),
            turns=None,
            target="self",
        ),
        status("Powered by Pain (3rd)", mod("Defence", "add", 1), turns=None, target="self"),
        status("Powered by Pain (4th)", mod("AEGIS", "add", 1), turns=None, target="self"),
        machinery("start of turn"),
    ],
    # L1208 "At 50% or less HP (rounding up), -1 to their Armour Save. At 25% … -2"
    "Deteriorate": [
        status("Deteriorate (50%)", mod("Armour", "add", -1), turns=None, target="self"),
        status("Deteriorate (25%)", mod("Armour", "add", -2), turns=None, target="self"),
        machinery("hp threshold"),
    ],
    # L1226 "At 50% or less HP … a 50% reduction to Move and Dash, and all Weapons that Target
    # the User receive a bonus +1 … At 25% or less HP … a 25% reduction … +2" (as printed)
    "Diminish": [
        status(
            "Diminish (50%)",
            mod("Move", "mul", "1/2"),
            mod("Dash", "mul", "1/2"),
            mod("Attack Dice against", "add", 1),
            turns=None,
            target="self",
        ),
        status(
            "Diminish (25%)",
            mod("Move", "mul", "3/4"),
            mod("Dash", "mul", "3/4"),
            mod("Attack Dice against", "add", 2),
            turns=None,
            target="self",
        ),
        machinery("hp threshold"),
    ],
    # L1334 "improves the chance of passing Mastery Tests by +1"
    "Mastery": [modify(mod("Mastery Test", "add", 1)), machinery("test modifiers")],
    # L1677 "Enemy Mastery Tests within 12\" … -1. Enemy Weapons that Target the User also
    # suffer a -1 Dice Modifier to Skill Tests" (Resist II: 18", -2); the Aether part waits
    # for Aether Tests in play
    "Resist I": [
        modify(mod("Mastery Test", "add", -1), mod("Skill Test", "add", -1), target="radius"),
        machinery("test modifiers"),
    ],
    "Resist II": [
        modify(mod("Mastery Test", "add", -2), mod("Skill Test", "add", -2), target="radius"),
        machinery("test modifiers"),
    ],
    # L1661 "Instead of becoming a casualty, the Unit recovers 25% (1/4) of its maximum HP
    # (rounding up), with a minimum of 1 HP restored"; L1567 Last Stand "removes all negative
    # Perk effects and restores all HP … until … the end of the next Game Turn, where the User
    # is removed"; L1707 Resurrection "At the start of the next Game Turn, the model can revive
    # on a D6 of 4+, starting at full HP" (II: failed models test again each Game Turn)
    "Reservoir": [restore("ceil(max/4)"), machinery("casualty")],
    "Last Stand": [
        clear(*AFFLICTIONS, target="self"),
        restore("max"),
        status("Last Stand", turns=2, target="self"),
        machinery("casualty"),
    ],
    "Resurrection I": [machinery("casualty")],
    "Resurrection II": [machinery("casualty")],
    # -- Roster Perks switched on by Presence (L1372): a status on every unit of the Roster
    # while a Presence unit of it is on the Battlefield, not embarked (game/perk_turn.py)
    "Presence": [machinery("presence")],
    # L4276 "any enemy Units that Target Units from this Roster will suffer a -1 Dice Modifier
    # to all Attack Dice while attacking them"
    "Demoralising": [
        status("Demoralising", mod("Attack Dice against", "add", -1), turns=None, target="roster"),
        machinery("presence"),
    ],
    # L4310 "+50% to Dash (divide Dash Stat by 2 then multiply by 3)"; L4382 Swift: Move
    "Fleeting": [
        status("Fleeting", mod("Dash", "mul", "3/2"), turns=None, target="roster"),
        machinery("presence"),
    ],
    "Swift": [
        status("Swift", mod("Move", "mul", "3/2"), turns=None, target="roster"),
        machinery("presence"),
    ],
    # L4332 "+1 to Attack Dice with all Weapons"
    "Inspiring": [
        status("Inspiring", mod("Attack Dice", "add", 1), turns=None, target="roster"),
        machinery("presence"),
    ],
    # L4374 "+1 to Armour Saves" (the Armour Save Stat, docs/rulings.md); L4378 AEGIS
    "Protective": [
        status("Protective", mod("Armour", "add", 1), turns=None, target="roster"),
        machinery("presence"),
    ],
    "Shielding": [
        status("Shielding", mod("AEGIS", "add", 1), turns=None, target="roster"),
        machinery("presence"),
    ],
    # -- Movement ------------------------------------------------------------------------------
    # L2160 "If no Weapons have been used this Game Turn, … Move and Dash Stats by 50%. After
    # Rush is active, the Unit cannot use Weapons this Game Turn."
    "Rush": [
        status("Rush", mod("Move", "mul", "3/2"), mod("Dash", "mul", "3/2"), target="self"),
        machinery("weapon limit"),
    ],
    # -- Weapon Enhancements, Tactical and Limitations (game/perk_turn.py) ---------------------
    # L2999 "Skill Tests with this Weapon are improved by +1"
    "Skill": [modify(mod("Skill Test", "add", 1)), machinery("test modifiers")],
    # L2963 "2nd Game Turn on Battlefield: +1 Power … 3rd: +1 Attack … 4th: +1 AP" (the Weapon)
    "Escalate": [
        status("Escalate (2nd)", mod("Power", "add", 1), turns=None, target="self"),
        status("Escalate (3rd)", mod("Attacks", "add", 1), turns=None, target="self"),
        status("Escalate (4th)", mod("AP", "add", 1), turns=None, target="self"),
        machinery("start of turn"),
    ],
    # L3777 "at 50% or less HP (rounding down) at the start of the Game Turn, the Weapon gains
    # +2 Power and +2 Attacks"
    "Bloody": [
        status("Bloody", mod("Power", "add", 2), mod("Attacks", "add", 2), target="self"),
        machinery("start of turn"),
    ],
    # L3264 "At 50% or less HP (rounding up), the Weapon suffers a -1 Dice Modifier to Attack
    # Dice. At 25% or less HP (rounding up), it becomes -2 instead."
    "Wane": [
        status("Wane (50%)", mod("Attack Dice", "add", -1), turns=None, target="self"),
        status("Wane (25%)", mod("Attack Dice", "add", -2), turns=None, target="self"),
        machinery("hp threshold"),
    ],
    # L3915 "If the User is at full HP, the Weapon gains +12\" Range and +1 Power. Check when
    # using the Weapon."
    "Hearty": [
        status(
            "Hearty", mod("Range", "add", 12), mod("Power", "add", 1), turns=None, target="self"
        ),
        machinery("hp threshold"),
    ],
    # L3046 Countdown, L3142 Recharge, L3134 Pain Locked, L3246 Use: when the weapon may be used
    **{
        f"{n} {r}": [machinery("weapon limit")]
        for n in ("Countdown", "Recharge", "Use")
        for r in ("I", "II", "III")
    },
    "Pain Locked": [machinery("weapon limit")],
}

# -- Ability, Aeonian, Defensive, Limitation, Transformation (issue 11, s11-perks-b) -----------

#: The forms of Transform I-III (L2530-L2560), each a status on the User for the Game Turn.
_FORMS: dict[str, dict[str, list[Json]]] = {
    # L2530 "Tank: +1 Defence. Melee: All Weapons become 0\" Range but receive +1 Power.
    # Ranged: All Weapons have their Range increased by 50% ... Movement: Removes negative
    # Movement Perk effects ... pass through Difficult and Dangerous Ground ..."
    "Transform I": {
        "Tank": [mod("Defence", "add", 1)],
        "Melee": [mod("Range", "set", 0), mod("Power", "add", 1)],
        "Ranged": [mod("Range", "mul", "3/2")],
        "Movement": [],
    },
    # L2544 "Tank: +2 Defence Stat, increase Armour Save by +1. Melee: ... +1 Power, +1 AP and
    # +1 Attack. Ranged: ... Range doubled, +1 Power and +1 AP. Movement: 50% increase to Move
    # and Dash Stats"
    "Transform II": {
        "Tank": [mod("Defence", "add", 2), mod("Armour", "add", 1)],
        "Melee": [
            mod("Range", "set", 0),
            mod("Power", "add", 1),
            mod("AP", "add", 1),
            mod("Attacks", "add", 1),
        ],
        "Ranged": [mod("Range", "mul", 2), mod("Power", "add", 1), mod("AP", "add", 1)],
        "Movement": [mod("Move", "mul", "3/2"), mod("Dash", "mul", "3/2")],
    },
    # L2560 "Tank: +3 Defence Stat, increase Armour and AEGIS Saves by +1. Melee: ... +2 Power,
    # +1 AP and +2 Attacks. +6\" to Move. Ranged: ... doubled, +2 Power and +1 AP. Movement:
    # Double Move and Dash Stats"
    "Transform III": {
        "Tank": [mod("Defence", "add", 3), mod("Armour", "add", 1), mod("AEGIS", "add", 1)],
        "Melee": [
            mod("Range", "set", 0),
            mod("Power", "add", 2),
            mod("AP", "add", 1),
            mod("Attacks", "add", 2),
            mod("Move", "add", 6),
        ],
        "Ranged": [mod("Range", "mul", 2), mod("Power", "add", 2), mod("AP", "add", 1)],
        "Movement": [mod("Move", "mul", 2), mod("Dash", "mul", 2)],
    },
}


def _granting(effect: Json, *perks: str) -> Json:
    """A status that gives its unit ``perks`` while it lasts (its ``names``)."""
    return {**effect, "names": list(perks)}


EFFECTS.update(
    {
        # L3178-L3184 "The Weapon cannot Target a Unit with one or models within 12\" [24\",
        # 36\"] of the Wielder"
        **{f"Trajectory {r}": [machinery("targeting")] for r in ("I", "II", "III")},
        # L1394-L1404 "Any enemy Units within 6\" [12\"] or in a Melee with the User must Target
        # them with available Weapons in Range"
        **{f"Taunt {r}": [machinery("targeting")] for r in ("I", "II")},
        # L879-L893 (Mastery Test) "One enemy Unit within 12\" [24\"] or in a Melee with this
        # Unit must Target it with all available Weapons within Range"; for the Game Turn
        # (docs/rulings.md)
        **{
            f"Provoke {r}": [status("Provoke", turns=1), machinery("targeting")]
            for r in ("I", "II")
        },
        # L1579-L1583 (Aether) "the User increases its Armour Save by +1 [+2, +3]. Maximum of
        # 2+, while no Save becomes 6+"; for the Game Turn (docs/rulings.md)
        **{
            f"Magic Armour {r}": [
                status(f"Magic Armour {r}", mod("Armour", "add", k), turns=1, target="self")
            ]
            for k, r in enumerate(("I", "II", "III"), 1)
        },
        **{
            rank: [
                *(
                    status(f"{rank} ({form})", *mods, turns=1, target="self")
                    for form, mods in forms.items()
                ),
                machinery("transform"),
            ]
            for rank, forms in _FORMS.items()
        },
        # L673-L699 Blink I-III (Activate, Limited Use (1)), L1025-L1045 Teleport I-III
        # (Mastery Test): "The Unit can be relocated anywhere within 6\" [12\", no maximum],
        # functioning as Movement, but not a Move or Dash … cannot engage or leave a Melee"
        **{
            f"{p} {r}": [machinery("relocation")]
            for p in ("Blink", "Teleport")
            for r in ("I", "II", "III")
        },
        # L971-L1007 Revive I-III, L915-L957 Reanimate I-III (Casualty, Mastery Test): "all
        # models of the slain Unit are brought back into Coherency at full HP"
        **{
            f"{p} {r}": [machinery("revive")]
            for p in ("Revive", "Reanimate")
            for r in ("I", "II", "III")
        },
        # L2716 "the Target will automatically fail all Mastery and Skill Tests on the
        # following Game Turn" (its Weapons' Aether part: no Weapon uses Aether in play yet)
        "Fugue": [status("Fugue", turns=1, delay=1)],
        # L2919 "the User gains +1 Attack to this Weapon when the Target Unit is removed as a
        # casualty" (for the rest of the game, one per Target slain)
        "Bloodlust": [
            status("Bloodlust", mod("Attacks", "add", 1), turns=None, target="self"),
            machinery("casualty"),
        ],
        # L2790 "During the following Game Turn the Target will be unable to Move, Dash, Attack
        # or use any Perks until the end of the Game Turn" (a D6 of 6 per HP Loss; its
        # Objectives and Melee-lock parts: docs/rulings.md)
        "Paralysis": [
            status("Paralysis", mod("Move", "set", 0), mod("Dash", "set", 0), delay=1, stacks=False)
        ],
        # L1430 "Any Units within 12\" of the User receive no Cover Bonus from any form of
        # Cover"
        "Uncover": [machinery("targeting")],
        # L707 "For the duration of one Game Turn, the Unit ignores the effects of Difficult and
        # Dangerous Ground. Courage also ignores and removes the effects of Cripple, Stun,
        # Force, Knockback, Fugue, Morale, Fall Back, Panic, Horrific, Terrify and Dread."
        "Courage": [
            status("Courage", turns=1, target="self"),
            clear(*COURAGE, target="self"),
        ],
        # L2740 "At the end of the Game Turn, the Target suffers a single Attack with Power
        # equal to the HP Loss caused by all Ignite Weapons multiplied by four"; L2758 Ignite II
        # "the Attack is AP 2"
        **{f"Ignite {r}": [status("Ignite", turns=None), machinery("ignite")] for r in ("I", "II")},
        # L1352 Pacifist "cannot roll Attacks with any Weapon unless it has the Heal Perk. The
        # User cannot be Targeted by enemies unless all friendly (non-Pacifist) Units … are
        # casualties or in Reserve"; L1338 Murderer "can Target Pacifist Units"
        "Pacifist": [machinery("targeting")],
        "Murderer": [machinery("targeting")],
        # L1489 "If the Unit has not used Weapons or made Movement in this Game Turn, they can
        # reroll failed Armour Saves … Using this Perk prevents future Movement and the use of
        # Weapons for the current Game Turn" (Reinforced's reroll, L1659)
        "Defend": [
            _granting(
                status("Defend", mod("Move", "set", 0), mod("Dash", "set", 0), target="self"),
                "Reinforced",
            )
        ],
        # L2221 Fall Back (a failed Mastery Test after HP Loss), L1049 Terrify (Mastery Test,
        # an enemy within 18" and in sight), L2690 Dread (Skill Test): "must dedicate all
        # Movement toward their closest friendly Deployment Zone board edge … If the Target
        # touches the board edge, it goes into Reserve"; Dread's "next Move and Dash": this
        # Game Turn and the next (docs/rulings.md)
        "Fall Back": [
            status("Fall Back", turns=1, target="self"),
            machinery("start of turn"),
            machinery("flee"),
        ],
        "Terrify": [status("Terrify", turns=1), machinery("flee")],
        "Dread": [status("Dread", turns=2), machinery("flee")],
        # L3200 Twin, L3186 Triune: "The Wielder only selects one of the Twin [Triune] Weapons
        # each time it Attacks"
        "Twin": [machinery("targeting")],
        "Triune": [machinery("targeting")],
        # L4115 Warp (HP Loss, D6 (6+) per HP Loss): "the Target will be sent into Reserve"
        # at the end of the Phase; L1081 Vanish (Mastery Test): "The User enters Reserve at
        # the end of the Phase"; L2329 Unstable (Mastery Test after HP Loss): "go into Reserve
        # and must stay there for the current Game Turn"
        "Warp": [status("Warp", turns=1), machinery("reserve")],
        "Vanish": [status("Vanish", turns=1, target="self"), machinery("reserve")],
        "Unstable": [
            status("Unstable", turns=1, target="self"),
            machinery("start of turn"),
            machinery("reserve"),
        ],
        # L1803 "At the start of the Game Turn, roll a D6. The result is the User's Armour Stat
        # for this Game Turn. If a '1' is rolled, the Armour Save is 2+ and failed Armour Saves
        # can be rerolled" (Reinforced's reroll, L1659)
        "Wild Armour": [
            _granting(
                status("Wild Armour (1)", mod("Armour", "set", 2), turns=1, target="self"),
                "Reinforced",
            ),
            *(
                status(f"Wild Armour ({k}+)", mod("Armour", "set", k), turns=1, target="self")
                for k in range(2, 7)
            ),
            machinery("transform"),
        ],
    }
)

USED_ONCE_PER_TURN = (
    *USED_ONCE_PER_TURN,
    "Provoke I",
    "Provoke II",
    "Magic Armour I",
    "Magic Armour II",
    "Magic Armour III",
    "Teleport I",
    "Teleport II",
    "Teleport III",
    "Vanish",
    "Terrify",
    "Disengage",  # L735: a used perk, once per Game Turn (§12.2 L227; lane b, session 4)
)


# -- Mode, Deployment, Leadership, Trait, Roster, Movement (issue 11, lane a) -------------------


def template(shape: str, size: float = 0, **kw: Any) -> Json:
    """A Mode rank's template (effects/mode.py), played by game/perk_mode.py."""
    out: Json = {"shape": shape, **kw}
    if size:
        out["size"] = size
    return {"kind": "machinery", "target": {"kind": "battlefield"}, "machinery": "template",
            "template": out}  # fmt: skip


_FIRE_POINT = {"I": "D6", "II": "2D6", "III": "3D6"}

EFFECTS.update(
    {
        # L3353 "After a Chain Weapon causes HP Loss, roll a D6 of 4+ for each Enemy Unit within
        # 6\" and in line of sight of the Target … attacked with the Weapon using its full
        # profile"; L3365 Chain II: "Units that suffer HP Loss from the Chain Weapon can continue
        # the Chain"
        # L2138-L2158 "At the end of each Game Turn, the User must be at least 12\" away from
        # where it began at the start of the Game Turn … it becomes a casualty" (18", 24")
        **{f"Nonstop {r}": [machinery("movement perks")] for r in ("I", "II", "III")},
        # L2164 "The User ignores Difficult Ground"; L2166 "… Difficult and Dangerous Ground"
        "Traverse I": [machinery("movement perks")],
        "Traverse II": [machinery("movement perks")],
        # L2102 "The User may Move and use Heavy Weapons, but will suffer a -2 Dice Modifier to
        # Attack Dice with Heavy Weapons for the remainder of the Game Turn" (II, L2110: -1)
        # L2086 "If there are one or more enemy Units within 6\" of this Unit after making a Move
        # or Dash, roll a D6 … relocate toward an enemy within 6\" … engages them in a Melee"
        # L2168 "For each 12\" of Movement … in a straight line made by the User, they gain +1
        # to AEGIS Save … AEGIS cannot exceed 2+" (one status per 12")
        "Thrust": [
            *(
                status(f"Thrust {n}", mod("AEGIS", "add", 1), turns=None, target="self")
                for n in range(1, 5)
            ),
            machinery("movement perks"),
        ],
        # L2076 Airborne "ignores all Terrain Pieces, Units …  allows Movement onto Impassable
        # Ground … Attacks in a Melee directed at the User suffer a -2 Dice Modifier"; L2126
        # Jumper "through or over Difficult Ground and other Units" (effects/movement.py)
        # L3961 No Line of Sight I: "does not need to have line of sight to the Target unit, but
        # will suffer a -2 Dice Modifier to Attack Dice if the Target is not in line of sight";
        # L3973 II without the -2; L3979 III (game/perk_sight.py, the attack kernel's context)
        "No Line of Sight I": [machinery("tactical")],
        "No Line of Sight II": [machinery("tactical")],
        "No Line of Sight III": [machinery("tactical")],
        # L3945 Momentum: "For each Movement (Move, Dash, Blink) the Wielder makes, the Weapon
        # gains +1 Power" (one status per Movement on that Weapon, ten at most: ruling)
        # L1539 Immortal: "cannot lose more than half of its full HP (rounding up, 1 HP minimum)
        # in a single Game Turn … immune to Deathblow" (the attack sequence caps the loss; the
        # Game Turn's count is perk_defensive's)
        "Immortal": [machinery("defensive")],
        # L1617 Reflect I: "Once per game, the User can select one Weapon that is Targeting them
        # … Roll a D6, if a 4+ … the Weapon Targets the attacking Unit instead"; L1633 Reflect II
        # "once per Game Turn" (the status lasts the Game Turn it is used in)
        "Reflect I": [status("Reflect", turns=1, target="self"), machinery("defensive")],
        "Reflect II": [status("Reflect", turns=1, target="self"), machinery("defensive")],
        # L1769 Stealth: "can only be Targeted by enemy Units that have a model within 12\" of
        # them, reduced to 6\" if having a Cover Bonus … cannot contest or hold Objectives"
        # (game/perk_stealth.py; the status lasts the Game Turn it is used in: ruling)
        "Stealth": [status("Stealth", turns=None, target="self"), machinery("defensive")],
        # L3807 Disarm: "Each time the Weapon causes HP Loss and passes the Skill Test, the
        # Target will be unable to use one of their Weapons this Game Turn, selected by the User"
        "Disarm": [machinery("tactical")],
        # L3819 Fast: "When this Weapon attacks, casualties are removed immediately"; L4033
        # Pre-Emptive: "The first time the Weapon is used in any Melee, casualties are removed
        # immediately"
        "Fast": [machinery("tactical")],
        "Pre-Emptive": [machinery("tactical")],
        "Momentum": [
            *(
                status(f"Momentum {n}", mod("Power", "add", 1), turns=None, target="self")
                for n in range(1, 11)
            ),
            machinery("tactical"),
        ],
        # L4103 Velocity: "For each 6\" of Movement (Move, Dash, Blink) in a straight line made
        # by the Wielder, the Weapon gains +1 Power … must be directed at a Unit in front or
        # behind the Wielder" (one status per 6" on that Weapon, ten at most; perk_velocity)
        "Velocity": [
            *(
                status(f"Velocity {n}", mod("Power", "add", 1), turns=None, target="self")
                for n in range(1, 11)
            ),
            machinery("tactical"),
        ],
        "Airborne": [machinery("movement perks")],
        "Jumper": [machinery("movement perks")],
        # L2112 Juggernaut I: "Movement to pass through other Units, and also ignore and
        # potentially destroy Terrain Pieces … On a 4+, the Terrain Piece … is destroyed";
        # L2124 II: "terrain is automatically destroyed" (game/perk_juggernaut.py)
        "Juggernaut I": [machinery("movement perks")],
        "Juggernaut II": [machinery("movement perks")],
        "Charge I": [machinery("movement perks")],
        "Charge II": [machinery("movement perks")],
        "Implacable I": [machinery("movement perks")],
        "Implacable II": [machinery("movement perks")],
        # L2033 Orders: "Move, Move, Move! = The Unit's Move and Dash is doubled this Game Turn,
        # but cannot use Weapons. Take Cover! = … +1 Defence this Game Turn, but becomes
        # Immobile. Bring it Down! = … +1 Power to all Weapons this Game Turn, but -1 to its
        # Defence" (game/perk_leadership.py)
        "Orders": [
            status(
                "Move, Move, Move!", mod("Move", "mul", 2), mod("Dash", "mul", 2), target="radius"
            ),
            status(
                "Take Cover!",
                mod("Defence", "add", 1),
                mod("Move", "set", 0),
                mod("Dash", "set", 0),
                target="radius",
            ),
            status(
                "Bring it Down!", mod("Power", "add", 1), mod("Defence", "add", -1), target="radius"
            ),
            machinery("leadership"),
        ],
        # L1987 "Whenever the User is not within 6\" of a friendly Unit … -1 Dice Modifier to
        # all of its Attacks"; a friendly unit slaying an enemy Leader loses a model
        "Egotistical": [
            status("Egotistical (alone)", mod("Attack Dice", "add", -1), turns=None, target="self"),
            machinery("leadership"),
        ],
        # L4258 Avenge "When the Unit is casualty by an enemy Unit, all friendly Units in the
        # entire Roster receive a +1 Dice Modifier to all Attack Dice for the rest of the game";
        # L4282 Despair: "-1"
        "Avenge": [
            status("Avenge", mod("Attack Dice", "add", 1), turns=None, target="roster"),
            machinery("leadership"),
        ],
        "Despair": [
            status("Despair", mod("Attack Dice", "add", -1), turns=None, target="roster"),
            machinery("leadership"),
        ],
        # L1864-L1874 Invade: "can be Deployed outside their Deployment Zone, but cannot Deploy
        # inside an enemy Deployment Zone … not … within 12\" of an enemy Deployment Zone"
        # (II: 6", III: no minimum distance)
        **{f"Invade {r}": [machinery("deployment")] for r in ("I", "II", "III")},
        # L1882 "When this Unit is Deployed on the first Game Turn, it can relocate up to 6\"
        # in any direction … does not count as Movement and cannot engage a Melee" (II: 12")
        # L1749 Sentinel: "Enemy Units may not use Deployment Perks within 12\" of the User,
        # except for Seed and Phoenix Perks" (game/perk_sentinel.py)
        "Sentinel": [machinery("deployment")],
        # L1840 Espionage: "The User must be Deployed in an enemy Deployment Zone. For two Game
        # Turns the Espionage Unit cannot be Targeted by the player who owns the Deployment Zone
        # … Enemy Units within 6\" … -1 Dice Modifier to all Attack Dice" (perk_espionage)
        "Espionage": [machinery("deployment")],
        # L3433 Heal: "This Weapon restores HP rather than inflicting damage … as you must
        # 'Attack' the Target to restore HP" (game/perk_heal.py; the Absorb shield: not yet)
        "Heal": [machinery("heal")],
        # L871 Offering, L1017 Sacrifice: "After failing any Aether, Mastery or Skill Test, the
        # User can choose to automatically pass the failed test by suffering -1 HP" / "if it
        # removes a model in the Unit as a casualty" (game/perk_offering.py)
        "Offering": [machinery("test modifiers")],
        "Sacrifice": [machinery("test modifiers")],
        # L3793 Corrupted: "For each -1 to Defence (down to 0), the Weapon gains +1 Power. For
        # each -1 to Armour Save (down to -), the Weapon gains +1 AP (up to 2+). For each -1 HP
        # … +1 Attack … At the end of the Game Turn, Defence, Armour and the Weapon's Stats
        # are returned" (game/perk_corrupted.py: one status per point offered, for the turn)
        "Corrupted": [
            *(
                status(f"Corrupted Defence {n}", mod("Defence", "add", -1), target="self")
                for n in range(1, 11)
            ),
            *(
                status(f"Corrupted Power {n}", mod("Power", "add", 1), target="self")
                for n in range(1, 11)
            ),
            *(
                status(f"Corrupted Armour {n}", mod("Armour", "add", -1), target="self")
                for n in range(1, 11)
            ),
            *(
                status(f"Corrupted AP {n}", mod("AP", "add", 1), target="self")
                for n in range(1, 11)
            ),
            *(
                status(f"Corrupted Attacks {n}", mod("Attacks", "add", 1), target="self")
                for n in range(1, 11)
            ),
            machinery("tactical"),
        ],
        # L2678 Delirium: "If Skill Test successful, the Target will attack the closest Unit
        # (friend or foe) with all available Weapons" (game/perk_delirium.py)
        "Delirium": [machinery("affliction")],
        "Recon I": [machinery("deployment")],
        "Recon II": [machinery("deployment")],
        "Chain I": [machinery("chain")],
        "Chain II": [machinery("chain")],
        # L3295 "lay a straight 1mm line in the direction of a Target up to maximum Range …
        # Roll the number of Attack Dice on the Weapon's profile against each Unit struck"
        "Beam I": [template("beam", placement="from wielder", per_model=False, onward=True)],
        # L3309 "count each model … under the 1mm line and multiply … by the Attacks"
        "Beam II": [template("beam", placement="from wielder", onward=True)],
        # L3321-L3345 "circular 3\" diameter. Place template fully inside Weapon Range, roll 2D6
        # and Scatter Arrow" (II: 5", III: 10"; Fire Point D6, 2D6, 3D6)
        **{
            f"Blast {r}": [template("circle", d, scatter=2, fire_point=_FIRE_POINT[r])]
            for r, d in (("I", 3), ("II", 5), ("III", 10))
        },
        # L3377-L3389 "8\" long droplet. Place at least one edge of the template inside Weapon
        # Range" (II: 16")
        **{
            f"Cone {r}": [
                template("droplet", d, placement="edge in range", fire_point=_FIRE_POINT[r])
            ]
            for r, d in (("I", 8), ("II", 16))
        },
        # L3393 "V shaped. An area 90 degrees in front of the Wielder up to the Weapon's
        # maximum Range"
        "Diffuse": [template("arc", placement="from wielder")],
        # L3413-L3429 "circular 3\" diameter. Place template fully inside Weapon Range"
        **{
            f"Explode {r}": [template("circle", d, fire_point=_FIRE_POINT[r])]
            for r, d in (("I", 3), ("II", 5), ("III", 10))
        },
        # L3463-L3477 "Place template over the centre of the Wielder's model … count each
        # enemy model inside the template"
        **{
            f"Nova {r}": [
                template(
                    "circle",
                    d,
                    placement="wielder",
                    enemies_only=True,
                    centres=True,
                    fire_point=_FIRE_POINT[r],
                )
            ]
            for r, d in (("I", 3), ("II", 5), ("III", 10))
        },
        # L3549-L3563 "1mm line that is 6\" long, placed inside Weapon Range" (II: 12", III: 18")
        **{
            f"Wall {r}": [template("line", d, fire_point=_FIRE_POINT[r])]
            for r, d in (("I", 6), ("II", 12), ("III", 18))
        },
    }
)

# -- Affliction, Psychological, Roster (issue 11, lane c) ---------------------------------------

EFFECTS.update(
    {
        # L2862 "If Skill Test is successful, during the next Game Turn the Target … receives no
        # benefit from positive Dice Modifiers … and all Attack Dice from the Target's Weapons
        # require a 6 to succeed … Multiple applications of Stun do not stack" (the attack
        # kernel's ``stunned``)
        "Stun": [status("Stun", delay=1, stacks=False)],
        # L2812 "At the end of each Game Turn, the Unit loses 1 HP … For each Unit (friend or
        # foe) within 6\" of a Plagued Unit at the start of a Game Turn, roll a D6. On a 4+,
        # that Unit will also become Plagued" (game/perk_affliction.py)
        "Plague": [status("Plague", turns=None, each_turn_end="1"), machinery("affliction")],
        # L2848 "at the end of the Attack Sequence check for Units (friend or foe) within 6\" of
        # the Target … On a 4+, that Unit immediately receives all the Afflictions caused by
        # the (same) Spread Weapon(s) this Game Turn"
        "Spread": [machinery("affliction")],
        # L2187 "Weapons must be directed to the closest enemy Unit (except for those with the
        # Heal Perk)"; "must direct any and all Movement toward the closest enemy Unit until
        # all Weapons are in Range" (game/perk_psych.py)
        "Berserk": [machinery("psychology")],
        # L2277 Psychotic: "must direct any and all Movement toward the closest Unit, friend or
        # foe … Weapons must be directed to the closest Unit" (game/perk_psychotic.py)
        "Psychotic": [machinery("psychology")],
        # L767 Horrific: "The User rolls a Mastery Test for each enemy Unit that is about to
        # pass through, over or be within 12\" … the Target has all Movement halved"
        # (game/perk_horrific.py; the status Horrific@unit on the Target)
        "Horrific": [machinery("psychology")],
        # L2636 Confuse: "afflicted with Confusion at the end of the Game Turn. For the next
        # Game Turn, the Unit cannot use Weapons, or any Perks with Activate or Mastery Tests.
        # In addition, the player that caused Confuse can Move and Dash the Unit"
        "Confuse": [status("Confuse", delay=1), machinery("psychology")],
        # L2341 "If there is no friendly Leader model within 12\" … Roll a D3 at the start of
        # the Game Turn: 1) Inactive … 2) Berserk … 3) Normal"
        "Wild Instinct": [
            status(
                "Wild Instinct (Inactive)",
                mod("Move", "set", 0),
                mod("Dash", "set", 0),
                target="self",
            ),
            status("Wild Instinct (Berserk)", target="self"),
            machinery("psychology"),
        ],
        # L4272 "all Units in this Roster receive +1 to Attack to all Weapons while in a Melee,
        # which is applied after all other Perks" (the attack kernel's ``melee_bonus_attacks``)
        # L1814-L1838 Ambush I-III: "available from Game Turn 2 … Place one model of the Unit.
        # If Mastery Test is successful, roll Scatter Arrow and 2D6 [D6; none]" (perk_deploy)
        **{f"Ambush {r}": [machinery("deployment")] for r in ("I", "II", "III")},
        # L4346 Nexus: "Units can Deploy within 12\" of the Nexus Unit, the area around the
        # Nexus Unit being treated as a friendly Deployment Zone"
        "Nexus": [machinery("deployment")],
        # L1876 Phoenix: "held in Reserve, and will only arrive by replacing a friendly Unit
        # that is removed as a casualty … following Transport Casualty rules in Section 6.6";
        # L1890 Seed I: "can only Deploy via Units afflicted with the 'Implant' Perk … placed
        # immediately where the last model of the Target Unit was removed"
        "Phoenix": [machinery("deployment")],
        "Seed I": [machinery("deployment")],
        # L2764 Implant: "The Target is afflicted with Implant. One of the player's Units with
        # the Seed Perk can use the Target to Deploy onto the Battlefield"
        "Implant": [status("Implant", turns=None), machinery("deployment")],
        # L4308 Extension: "When the game has ended, the player may intervene and extend the
        # game by one Game Turn": the player's standing declaration, used like an activated
        # perk by the unit it is designated to (perk_roster.extends)
        "Extension": [status("Extension", turns=None, target="self")],
        # L4336 Master Strategist: "The player can choose who will be the Turn Master on any
        # Game Turn" (perk_roster.strategist_first)
        "Master Strategist": [machinery("start of turn")],
        "Bloodthirsty": [
            status("Bloodthirsty", turns=None, target="roster"),
            machinery("presence"),
        ],
    }
)

#: Extension is used like an activated perk (its declaration): once per Game Turn (§12.2 L227).
USED_ONCE_PER_TURN = (*USED_ONCE_PER_TURN, "Extension")


# -- Ability, Aeonian, Enhancement, Limitation (issue 11, lane b, session 4) ------------------

EFFECTS.update(
    {
        # L735 Disengage (Melee, Mastery Test) "The User removes the Locked effect of being
        # engaged in a Melee, allowing them Movement away from enemies in that Melee (causing
        # the User to no longer be engaged in that Melee)"; for the Game Turn (docs/rulings.md)
        "Disengage": [status("Disengage", turns=1, target="self"), machinery("melee lock")],
        # L1178 Controlled "If the controller becomes a casualty, then the User will become a
        # casualty also. If the controller is in Reserve, the User can only roll Saves"
        "Controlled": [
            status(
                "Controlled (controller in Reserve)",
                mod("Move", "set", 0),
                mod("Dash", "set", 0),
                turns=None,
                target="self",
            ),
            machinery("controller"),
        ],
        # L1324 "The User is immune to Blind, unaffected by the Stealth Perk and can Target Units
        # with the Espionage Perk" (Stealth: game/perk_stealth.py; Espionage, Decoy and
        # Concealed: not in play yet)
        "Keen Eye": [immune("Blind")],
        # L1186 "For the User to wield Weapons and Perks, it needs at least one Unit embarked
        # within it"; L1192 Crew II "cannot make any Movement without a Unit embarked"
        "Crew I": [machinery("crew")],
        "Crew II": [
            status(
                "Crew (empty)",
                mod("Move", "set", 0),
                mod("Dash", "set", 0),
                turns=None,
                target="self",
            ),
            machinery("crew"),
        ],
        # L1284 "When all models in the Unit maintain base contact with at least one other model
        # in the Unit, they receive either … +1 Defence [or] +1 Power to All Weapons, decided at
        # the start of the Game Turn … If at any time a model … loses base contact, the bonus is
        # lost"
        "Formation": [
            status("Formation (Defence)", mod("Defence", "add", 1), turns=None, target="self"),
            status("Formation (Power)", mod("Power", "add", 1), turns=None, target="self"),
            machinery("formation"),
        ],
        # L2977 "Each time this Weapon causes HP Loss to a Target … it restores that amount of
        # HP to the User immediately, up to 1/3 of the User's maximum HP"
        "HP Steal": [machinery("hp steal")],
        # L3110 Malfunction I "If half or more of the Weapon's Attack Dice result in 1, or if at
        # least five 1's are rolled in a single Attack Sequence … the Weapon cannot be used in
        # the next Game Turn"; L3122 Malfunction II "the Weapon will be destroyed at the end of
        # the Game Turn"
        **{f"Malfunction {r}": [machinery("weapon faults")] for r in ("I", "II")},
        # L3062 Counter "The Weapon can only be used if attacked by an enemy Unit. Once per Game
        # Turn, this Weapon will immediately Target and attack the first Unit to successfully
        # inflict HP Loss on the User"; L3156 Self-Destruct "This Weapon must Target the
        # closest Unit (friend or foe) when the Wielder is a casualty"
        # L1268 Escape Transport "Embarked Units may begin their disembark up to 12\" away from
        # the User" (game/transports.py; "even if the User was a casualty": docs/rulings.md)
        "Escape Transport": [machinery("transport perks")],
        # L1302 Kamikaze "Each Unit (friend or foe) that the User passes through or ends in
        # contact with suffers a number of Attacks equal to the User's (full) HP, Power equal to
        # the User's (unmodified) Defence, and AP equal to the User's (unmodified) Armour Save"
        "Kamikaze": [machinery("reaction")],
        "Counter": [machinery("reaction")],
        # L3216 Upheaval (Skill Test, End of Phase/Step, Scatter Arrow 2D6) "If it fails, the
        # User relocates … The User will stop when it runs into an object; if into a Unit, the
        # Weapon profile will be used against that Unit"
        "Upheaval": [machinery("reaction")],
        "Self-Destruct": [machinery("reaction")],
    }
)

# -- session 25, s25-transform: Transformation ----------------------------------------------


def _doubled(name: str, turns: int | None) -> Json:
    """Ascension's and Descend's status: Defence, Move and Dash doubled, failed Armour and AEGIS
    Saves rerolled (Reinforced L1659, Resilient L1675) while it lasts."""
    return _granting(
        status(
            name,
            mod("Defence", "mul", 2),
            mod("Move", "mul", 2),
            mod("Dash", "mul", 2),
            turns=turns,
            target="self",
        ),
        "Reinforced",
        "Resilient",
    )


EFFECTS.update(
    {
        # L2368-L2374 Ascension: "After three [two, one] Game Turns have been spent on the
        # Battlefield (not in Reserve), the User doubles its Defence, Move, Dash, current and
        # max HP and can reroll failed Saves for the rest of the Game" (game/perk_ascension.py)
        **{
            f"Ascension {r}": [_doubled("Ascension", None), machinery("transformation")]
            for r in ("I", "II", "III")
        },
        # L2376-L2384 Descend: "After being Deployed for the first time, for one [two, three]
        # Game Turn the User doubles its Defence, Move, Dash, current and max HP and can reroll
        # failed Saves. When the Game Turn has ended, these Stats are returned to normal, but
        # current HP is halved, rounding up"
        **{
            f"Descend {r}": [_doubled("Descend", n), machinery("transformation")]
            for n, r in enumerate(("I", "II", "III"), start=1)
        },
        # L1511 Eternal: "The Unit is not immediately a casualty, able to make actions as
        # normal. The Unit must keep a tally of the HP it has lost, even into the negative. If
        # the Unit has recovered enough HP to have at least 1 HP by the end of the Game Turn, it
        # will not be a casualty" (game/perk_eternal.py, asked as Reservoir and Last Stand)
        "Eternal": [machinery("casualty")],
        # L2418-L2440 Form I-III: "User can be exchanged for another linked Unit that has Form
        # I. Two [three, four] Units are linked at the start of the game. Follow the rules for
        # 'Linked Profiles' in Section 12.2" (L299; game/perk_form.py)
        **{f"Form {r}": [machinery("transformation")] for r in ("I", "II", "III")},
        # L2442 Fusion: "The User is formed by removing one or more friendly Units during
        # Deployment or with a Deploy Command … must add up to 10 times the Point Cost of the
        # User" (game/perk_fusion.py)
        "Fusion": [machinery("transformation")],
        # L2466 Incorporeal (w2-transform): "the User becomes immune to all damage, cannot be
        # Targeted by any Unit … can freely move through solid objects … counts as destroyed
        # for the purposes of Victory Conditions" (game/perk_incorporeal.py, _use.py)
        "Incorporeal": [machinery("incorporeal")],
        # L2386-L2406 Doppelganger I/II: "The User can Target and become another Unit for the
        # rest of the game, mimicking their Stats, Weapons, Perks (but retains Doppelganger),
        # current number of models and HP" (game/perk_doppelganger.py, perk_doppel_units.py)
        "Doppelganger I": [machinery("transformation")],
        "Doppelganger II": [machinery("transformation")],
    }
)

# session 25, lane s25-aeon: Aeonian Transport perks (game/perk_transport.py)
EFFECTS.update(
    {
        # L1280 Exposed "Embarked Units and the User can both be Targeted by any Unit and the
        # Embarked Units may Attack without Fire Points equipped. Set the User's Fire Points
        # Stat to N."
        "Exposed": [machinery("transport access")],
        # L1438 Unsheltered "Embarked Units do not need Fire Points to attack, but are Targeted
        # and receive casualties before the User."
        "Unsheltered": [machinery("transport access")],
        # L1248 Enclosed "If the User's passengers are Targeted by Weapons, the User's Defence,
        # Armour and AEGIS can be used instead of the passenger's stats."
        "Enclosed": [machinery("transport access")],
        # L1420 Transport Link "Any embarked Units can transfer from one Transport to the other
        # instead of disembarking."
        "Transport Link": [machinery("transport access")],
        # L1384 Rift Gate "Embarked Units inside the User can choose to enter Reserve, and Units
        # in Reserve can choose to Deploy inside the User. This can occur even if the User is
        # outside the player's Deployment Zone."
        "Rift Gate": [machinery("transport access")],
        # L1904 Seed II "The Seed II User will count as embarked and engaged in a Melee with the
        # Target, though the Target may still Move, use Perks and Attack other Units as normal"
        # (game/perk_seed.py)
        "Seed II": [machinery("seed")],
        # L1140 Breach "The User can 'embark' enemy Units even if they are not a Transport …
        # The User can attack the Target they have embarked, counted as in a Melee, though the
        # Target may move freely" (game/perk_seed.py)
        "Breach": [machinery("seed")],
        # L1410 Terrain "The User is Immobile and cannot embark a Transport, but can be moved
        # onto or over by other Units just like regular terrain … The User is immune to
        # Terrify, Dread and Juggernaut." (game/perk_terrain_unit.py)
        "Terrain": [immune("Terrify", "Dread", "Juggernaut"), machinery("terrain unit")],
    }
)

# -- session 25 wave 2, lane w2-transport (issue 11) -------------------------------------------

EFFECTS.update(
    {
        # L1298 Hijack "The User can embark enemy Transports (ignoring the Transport Stat) and
        # attack embarked passengers. If there are no passengers in the Transport, the User
        # takes control of the Transport." (game/perk_seed.py, game/perk_crew.py)
        "Hijack": [machinery("seed"), machinery("transport control")],
        # L1194 Crew III "Functions as per Crew II, except User can be embarked and controlled
        # by any Unit (friend or foe). If the User becomes unoccupied it counts as a friendly
        # Unit to all players, but can be engaged in a Melee if desired." (game/perk_aeonian.py,
        # game/perk_crew.py; the status "Crew (empty)" is Crew II's)
        "Crew III": [machinery("crew"), machinery("transport control")],
        # L1446 Wreckage "When the User becomes a casualty, the model will remain on the
        # Battlefield as terrain instead of being removed (unable to contest Objectives,
        # Immobile, no Weapons and no Perks) … can be attacked, referring to the User's Stats
        # except it has 1 HP" (game/perk_wreckage.py)
        "Wreckage": [
            status(
                "Wreckage (terrain)",
                mod("Move", "set", 0),
                mod("Dash", "set", 0),
                turns=None,
                target="self",
            ),
            machinery("wreckage"),
        ],
    }
)

# -- Leadership, Trait, Mode, Limitation (issue 11, session 25, lane s25-lead) -----------------

EFFECTS.update(
    {
        # L2003 Furious: "count up the dice that are not successful. Those failed Attack Dice
        # will instead strike the closest friendly Unit within 6\" … counting as successful
        # Attack Dice against them" (game/perk_furious.py)
        "Furious": [machinery("leaders")],
        # L1957 Challenger (Leader, Activate): "If a challenge is refused, a refusing Leader
        # suffers a -1 Dice Modifier to their Attacks for a Game Turn. If accepted, the
        # challengers … can only Target each other until one survivor remains"
        # (game/perk_challenger.py)
        "Challenger": [
            status("Challenge refused", mod("Attack Dice", "add", -1), turns=1, target="self"),
            machinery("leaders"),
        ],
        # L2057 War Master: "The User can redirect enemy Attacks onto friendly Units within 6\"
        # of the User, as long as both the attacker and User have line of sight and are in Range
        # of the redirected Unit" (game/perk_warmaster.py)
        "War Master": [machinery("leaders")],
        # L2017 Leader: "The User can attach itself to another Unit by having the User or
        # Unit's Movement end within Coherency … The User will not receive damage until the
        # attached Unit is destroyed, unless the User is the only model in line of sight. If
        # any Unit engages a Melee, all attached Units also engage in a Melee"
        # (game/perk_leader.py)
        "Leader": [machinery("leaders")],
        # L4205 Respawn: "At the start of the Game Turn, the player may choose to use Respawn on
        # the Unit … restored to full HP (with no negative Perk effects) and immediately
        # Deployed … within 6\" of the Unit's Deployment Zone board edge" (game/perk_respawn.py)
        "Respawn": [machinery("respawn")],
        # L3481 Residue I: "Attacking with any Beam, Blast, Cone, Explode, Nova or Wall leaves the
        # Template on the Battlefield … starting on the next Game Turn and lasting for one Game
        # Turn. For each model that makes Movement … through or stationary in the area, the Unit
        # receives Attacks, Power, AP and Perks from the Residue Weapon's profile" (II: two, III:
        # three Game Turns); L3509 Vortex I-III: Blast, Explode or Nova, and "When Vortex
        # becomes active … it travels 2D6 inches with a Scatter Arrow" (game/perk_residue.py)
        **{f"Residue {r}": [machinery("residue")] for r in ("I", "II", "III")},
        **{f"Vortex {r}": [machinery("residue")] for r in ("I", "II", "III")},
        # L4161 Decoy I: "Deploy an additional 'fake Unit' … If the Decoy loses HP, or has an
        # enemy Unit Deployed or performed Movement through or within 6\" of it, the Decoy Unit
        # is removed immediately"; II: Move 6, Dash 6; III: "causes an explosion, causing D6
        # Attack Dice to each Unit within 12\"" (game/perk_decoy.py, perk_decoy_units.py)
        **{f"Decoy {r}": [machinery("decoy")] for r in ("I", "II", "III")},
        # L4219 Summon: "This Unit is produced as a new Unit once at the start of every Game
        # Turn … it must be Deployed onto the Battlefield, or the Unit counts as destroyed"
        # (game/perk_summon.py, perk_summon_value.py)
        "Summon": [machinery("summon")],
        # L4147 Concealed: "Enemies cannot Target the Concealed marker, but may reveal it by
        # placing a Unit within 6\" of the marker … Concealed Units cannot claim Objectives"
        # (game/perk_concealed.py)
        "Concealed": [machinery("concealed")],
    }
)

# -- Tactical Weapon Perks (issue 11, session 25, lane s25-tactical) -------------------------

EFFECTS.update(
    {
        # L3917 Knockback I "If successful, the Target is moved 6\" directly away from the User,
        # but must stop 1\" away from Impassable Ground … This Perk can be used to move Units
        # away to end a Melee"; L3933 II: 12" (game/perk_displace.py, End of Phase/Step)
        "Knockback I": [machinery("displacement")],
        "Knockback II": [machinery("displacement")],
        # L3837 Force I "the User can reposition the Target Unit up to 6\" in any direction …
        # For each Unit, roll D6 Attack Dice and multiply by the number of (successful) Force
        # Weapons … succeed on a 4+ and allow Saves"; L3859 II: 12", 2D6 (game/perk_displace.py)
        "Force I": [machinery("displacement")],
        "Force II": [machinery("displacement")],
        # L4049 Preliminary "The Weapon Attacks before all other actions in the Game Turn, causing
        # casualties to occur immediately"; L3987 Postliminary "The Weapon Attacks after all
        # other actions have been completed in the Game Turn" (game/perk_windows.py)
        "Preliminary": [machinery("attack windows")],
        "Postliminary": [machinery("attack windows")],
        # L4055 Shared "Any model in the Unit has access to this Weapon. Measure from any model in
        # the Unit to attack" (game/perk_shared.py: every model carries it, no more users than
        # the profile's copies)
        "Shared": [machinery("shared weapons")],
        # L3869 Grapple "the User attacking with this weapon will either pull itself to the
        # Target, or the Target to the User … Compare the full Point Cost of the Target to the
        # User" (game/perk_grapple.py, with perk_displace's straight-line travel)
        "Grapple": [machinery("displacement")],
        # L4085 Trap "Place a Trap marker inside the Weapon's maximum Range … can be triggered by
        # any Unit that passes through or is within 2\" of the marker, whether friend or foe"
        # (game/perk_trap.py)
        "Trap": [machinery("markers")],
        # L3943 Multi-Strike "The Wielder can direct each of this Weapon's Attacks to different
        # Units" (game/perk_multistrike.py: a model named in several shares, one Attack each)
        "Multi-Strike": [machinery("tactical")],
        # L3993-L4027 Precision 2+-6+ "Any Attack Dice from this Weapon that results in a 2+ will
        # allow the attacking player to choose a specific model in the Unit to receive the
        # Attack Dice"; L1587 Obscured "on a D6 4+ that Weapon cannot single out models of the
        # User for this Attack Sequence" (game/perk_precision.py; the kernel's precision_loss)
        **{f"Precision {n}+": [machinery("precision")] for n in range(2, 7)},
        "Obscured": [machinery("precision")],
    }
)

# -- session 25, lane s25-ability (issue 11) -------------------------------------------------
EFFECTS.update(
    {
        # L859 Jinx "Once per Game Turn, one enemy Unit within 24\" of the User may have a dice
        # rerolled"; L867 Lucky "reroll any one dice per Game Turn related to the User … enemy
        # dice directed at this Unit"; L4250 Architect of Destiny "One dice roll per Game Turn
        # can be rerolled … whose dice it was"; L4300 Deny "on a 6 … counts as failed … does not
        # consume Limited Use" (game/perk_reroll.py: the perks' tests)
        "Jinx": [machinery("rerolls")],
        "Lucky": [machinery("rerolls")],
        "Architect of Destiny": [machinery("rerolls")],
        "Deny": [machinery("rerolls")],
        # L4354 Nightmare Anomaly "At the start of the Game Turn … choose any Unit on the
        # Battlefield … roll a D6 … 1) … teleports … 2) +1 Defence, reroll failed Saves. 3) -1
        # Defence, reroll successful Saves. 4) Restore D6 HP … 5) … D6 Attack Dice at Power 10,
        # ignoring all Armour and AEGIS Saves. 6) Unit is immune to HP Loss." (the statuses
        # last the Game Turn; game/perk_nightmare.py)
        "Nightmare Anomaly": [
            _granting(
                status("Nightmare Anomaly (2)", mod("Defence", "add", 1), target="target"),
                "Reinforced",
                "Resilient",
            ),
            _granting(
                status("Nightmare Anomaly (3)", mod("Defence", "add", -1), target="target"),
                "Nightmare Anomaly: reroll successful Saves",
            ),
            status("Nightmare Anomaly (6)", target="target"),
            machinery("nightmare"),
        ],
        # L2313 Traitorous "If the User has lost 50% or more of its total HP, it betrays the
        # player, counting as an enemy Unit … must direct Attacks at the closest friendly Unit";
        # L1254 Enslaved "If the Enslaver is a casualty or is in Reserve without the User, then
        # the User will become an enemy Unit to the player" (game/perk_defect.py)
        "Traitorous": [machinery("defection")],
        "Enslaved": [machinery("defection")],
        # L745 Dominate "roll a Mastery Test. If successful, the User seizes control of the
        # Target Unit for an entire Game Turn … the User cannot perform any other Actions"
        # (game/perk_dominate.py: the side that acts with a unit, state.SEIZED)
        "Dominate": [machinery("defection")],
        # L4386 Undead Legion "When an enemy Unit is a casualty … At the start of the next Game
        # Turn, it is raised to full HP and models … under the Undead Legion player's control"
        # (game/perk_undead.py)
        "Undead Legion": [machinery("defection")],
        # session 25 wave 2, w2-illusion: L779 Illusion I "The User creates copies of itself
        # … any number of Illusions as long as it divides their current HP equally … any
        # Illusions are removed before the User" (L803 II, L811 III: used twice, three times)
        # (game/perk_illusion.py: model slots made with the set-up)
        "Illusion I": [machinery("illusions")],
        "Illusion II": [machinery("illusions")],
        "Illusion III": [machinery("illusions")],
    }
)

# -- session 25, lane w2-state (issue 11) ------------------------------------------------------
EFFECTS.update(
    {
        # L4059 Simulacrum "At the start of the Game Turn, select a Target Unit within 18\" of the
        # Wielder. If a Target's Weapon is equal or less in Point Cost … the Wielder may use the
        # Target's Weapon profile instead for the current Game Turn" (game/perk_simulacrum.py;
        # the profile read through game/perk_arms.py)
        "Simulacrum": [machinery("weapon state")],
        # L3090 Loot "When the Wielder is removed as a casualty, the Weapon can be picked up and
        # used by models from any Unit (friend or foe) … A model that directs Movement onto,
        # past or within contact of the marker picks up the Weapon" (game/perk_loot.py)
        "Loot": [machinery("weapon state")],
    }
)

#: The attack-math ranks (class A): the attack sequence implements them (attack.py).
ATTACK_SEQUENCE = "attack sequence"


def _number(tag: str) -> int | None:
    m = re.search(r"(\d+)", tag)
    return int(m[1]) if m else None


TRIGGERS = {
    "Passive": "Passive",
    "Activate": "Activate",
    "Activated": "Activate",
    "Activation": "Activate",
    "Immediate": "Immediate",
    "End of Turn": "End of Turn",
    "End of Phase/Step": "End of Phase/Step",
    "Casualty": "Casualty",
    "HP Loss": "HP Loss",
    "Attack Dice": "Attack Dice",
    "Weapon Use": "Weapon Use",
    "Specific": "Specific",
}
CONDITIONS = ("Melee", "Leader", "Single Model", "Game Turn 2+")


def row(perk: Json, *, implemented: frozenset[str]) -> Json:
    """One table row from a catalog entry and the reviewed effects."""
    tags: list[str] = perk["activation"]
    triggers: list[str] = []
    tests: list[Json] = []
    target: Json = {"kind": "self"}
    uses: Json = {}
    conditions: list[str] = []
    for tag in tags:
        if tag in TRIGGERS:
            if TRIGGERS[tag] not in triggers:
                triggers.append(TRIGGERS[tag])
        elif tag == "Aether":
            tests.append({"kind": "Aether"})
        elif tag == "Mastery Test":
            tests.append({"kind": "Mastery"})
        elif tag == "Skill Test":
            tests.append({"kind": "Skill"})
        elif tag == "Auto Test":
            tests.append({"kind": "Auto"})
        elif tag.startswith("D6 ("):
            tests.append({"kind": "D6", "needs": _number(tag[2:])})  # "D6 (4+)": 4
        elif tag.startswith("Radius"):
            target = {**target, "kind": "radius", "radius": _number(tag)}
        elif tag == "Instruct":
            target = {**target, "kind": "instruct"}
        elif tag.startswith("Linked Profile"):
            target = {**target, "kind": "linked"}
        elif tag.startswith("Point Cost"):
            target = {**target, "point_cost": "Greater" if "Greater" in tag else "Lesser"}
        elif tag.startswith("Limited Use"):
            uses["per_game"] = _number(tag)
        elif tag.startswith("Scatter Arrow") or tag == "2D6":
            target = {**target, "kind": "battlefield"}
        elif tag in CONDITIONS:
            conditions.append(tag)
        else:
            raise SystemExit(f"{perk['name']}: activation tag {tag!r} is not in the vocabulary")
    if not triggers:
        triggers = ["Passive"] if "Passive" in tags else ["Specific"]
    if "Activate" in triggers or perk["name"] in USED_ONCE_PER_TURN:
        uses.setdefault("per_turn", 1)  # Standard: a perk once per Game Turn (§12.2 L227)
    line = int(perk["rule"].rsplit("line ", 1)[1])
    effects = list(EFFECTS.get(perk["name"], []))
    if perk["name"] in implemented:
        effects.append(machinery(ATTACK_SEQUENCE))
    out: Json = {
        "name": perk["name"],
        "family": perk["family"],
        "source": f"{BOOK_FILE} L{line}",
        "triggers": triggers,
        "tests": tests,
        "target": target,
        "uses": uses,
        "conditions": conditions,
        "effects": effects,
    }
    return out


# -- session 25 wave 2, lane w2-kernel (issue 11) ----------------------------------------------
EFFECTS.update(
    {
        # L1154 Combat Damage "For each HP Loss the User receives, instead of applying -1 HP,
        # roll a D6 … 1: User's Movement reduced by 50% next Game Turn (lasts one Game Turn) 2:
        # User's Weapons suffer -3 Dice Modifier to Attack Dice next time User attacks 3: Next
        # Game Turn, User is Immobile and can't use Weapons (lasts one Game Turn) 4: One of the
        # Unit's Weapon is immediately broken … 5: -D3 HP 6: -D6 HP" (the attack kernel rolls
        # the table, combat_damage.py; game/perk_combat_damage.py puts the statuses)
        "Combat Damage": [
            status(
                "Combat Damage (Movement)",
                mod("Move", "mul", "1/2"),
                mod("Dash", "mul", "1/2"),
                delay=1,
                stacks=False,
                target="self",
            ),
            status(
                "Combat Damage (Attack Dice)",
                mod("Attack Dice", "add", -3),
                turns=None,
                stacks=False,
                target="self",
            ),
            status(
                "Combat Damage (Immobile)",
                mod("Move", "set", 0),
                mod("Dash", "set", 0),
                delay=1,
                stacks=False,
                target="self",
            ),
            machinery("combat damage"),
        ],
        # L1935 Bodyguard "Order of damage received from Attacks is as follows: Bodyguards,
        # Attached Units then Leaders … Once a Bodyguard Unit is slain, any remaining
        # successful Attack Dice and Saves are followed on to an attached Unit or Leader"
        # (game/perk_bodyguard.py; odds.follow_on_dice)
        "Bodyguard": [machinery("bodyguard")],
    }
)


# -- session 25 wave 2, lane w2-timejump (issue 11) ---------------------------------------------
EFFECTS.update(
    {
        # L1067 Time Jump I "Once per game, the User can undo the effects of their own Move, Dash,
        # or Attack Sequence (which also undoes any HP changes to Targets) and then attempt it
        # again or decide differently"; L1079 Time Jump II "once each Game Turn"
        # (game/perk_timejump.py: a rewind point kept with the state, the player's decision)
        "Time Jump I": [machinery("time jump")],
        "Time Jump II": [machinery("time jump")],
        # L821 Imprison "The User may force the Target Unit to embark the User … Imprisoned Units
        # can only escape by destroying the User, using Vanish …" (game/perk_imprison.py: a
        # pseudo-transport on perk_seed's machinery)
        "Imprison": [machinery("imprison")],
    }
)


# -- session 25 wave 2, lane w3-gateway (issue 11) ----------------------------------------------
EFFECTS.update(
    {
        # L4314 Gateway "A Unit embarks a Gateway marker like a Transport (Section 6 in the Core
        # Rules) and may disembark the other Gateway marker like a Transport. All Units (friend
        # and foe) have access to the Gateway" (game/perk_gateway.py: a terrain piece used as a
        # Transport whose gates are the two markers, §10.2 B/C, §10.5)
        "Gateway": [machinery("gateway")],
    }
)


# -- session 26, lane s26-opportunist (issue 11) -------------------------------------------------
EFFECTS.update(
    {
        # L1340 Opportunist "The User can delay the use of Perks, Weapons with the Heal Perk and
        # Movement to the end of the Game Turn instead of their usual timing, assuming it does
        # not damage an enemy Unit … In Advanced, Actions made with Opportunist still cost CP"
        # (game/perk_opportunist.py: the Delay decision and a window at the end of the Game Turn)
        "Opportunist": [machinery("opportunist")],
    }
)


def build() -> Json:
    """The whole table (needs warbench importable, for the attack sequence's registry)."""
    from warbench.rulesets.warsurge.attack import IMPLEMENTED_PERKS

    catalog = json.loads(CATALOG.read_text("utf-8"))["perks"]
    names = {p["name"] for p in catalog}
    unknown = set(EFFECTS) - names
    if unknown:
        raise SystemExit(f"EFFECTS names unknown ranks: {sorted(unknown)}")
    rows = [row(p, implemented=IMPLEMENTED_PERKS) for p in catalog]
    return {
        "format": "warbench-perk-effects/1",
        "book": BOOK_FILE,
        "rows": rows,
    }


def render() -> str:
    return json.dumps(build(), indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if OUT.read_text("utf-8") != text:
            print(f"{OUT} is stale: run scripts/build_effects_table.py")
            return 1
        return 0
    OUT.write_text(text, "utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
