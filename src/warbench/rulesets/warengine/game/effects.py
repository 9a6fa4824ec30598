"""The in-game effects of Personal, Weapon and Unit Tweaks and Special Powers, as data.

One table (Wesnoth's weapon specials): each tweak or power is a few effect entries, each an
effect *kind* the rules consult at one hook point, and a parameter. The rules never test a
tweak's name; they ask for a kind (``adjust(fig, "attack", when)``, ``has(fig, "slippery")``),
so the table is the one place that says what a tweak does. Adjustments of the same kind add
(each tweak is taken at most once per figure or weapon, L1359, L1689).

Kinds and where they act:

* ``attack`` / ``defense`` / ``rout`` ``(adjustment, when)``: dice adjustments (L473-L485);
  ``when`` is ``always``, ``cc``, ``ranged``, ``vs_cc``, ``in_cover``, ``no_cover``.
* ``attack_floor`` n: attack faces below n read as n (Extra Bite, Charging Weapon);
  ``armor_piercing``: type M/H defenders lose their face bonus.
* cover: ``ignore_light``, ``ignore_cover``, ``obvious``, ``no_cover_bonus``; ``lurker``.
* ``reach`` inches: close combat up to that far (Long, Very Long).
* ``range_vs_open`` inches: extra range against targets in no cover (Sniper Scope).
* flags: see :data:`EFFECTS` (each entry cites its line).

Special Powers work as a weapon whose success roll is the power's Attack Value against the
target's Mental (enemies) or 10 or more (friends), L830; :data:`POWER_EFFECTS` lists what
success does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from warbench.rulesets.warengine.dice import Adjustment


@dataclass(frozen=True)
class Effect:
    """One effect of a tweak or power: its ``kind``, a parameter and the book line."""

    kind: str
    param: object = None
    when: str = "always"
    #: the tweak or power that gives it, for the words of a roll ("Dodge +1k0", not the
    #: ``when`` code "vs_cc +1k0"); set from its table's key by :func:`_named`
    source: str = field(default="", compare=False)


def _a(text: str) -> Adjustment:
    return Adjustment.parse(text)


#: Personal Tweaks: name -> (line, effects). L1353-L1681.
PERSONAL: Mapping[str, tuple[Effect, ...]] = {
    "Ballsy": (Effect("defense", _a("+1k0"), "no_cover"),),
    "Dodge": (Effect("defense", _a("+1k0"), "vs_cc"),),
    "Tough": (Effect("defense", _a("+1k0")),),
    "Lurker": (Effect("defense", _a("+1k1"), "in_cover"),),
    "Frenzied": (Effect("attack", _a("+1k0"), "cc"),),
    "Sharpshooter": (Effect("attack", _a("+1k0"), "ranged"),),
    "Hardcase": (Effect("rout", _a("+1k0")),),
    "Poorly Trained": (Effect("no_dnm_defense"),),
    "Obvious": (Effect("obvious"),),
    "Flight": (Effect("no_cover_bonus"),),
    "Slippery": (Effect("slippery"),),
    "Kamikaze": (Effect("kamikaze"),),
    "Regeneration": (Effect("regeneration", 2),),
    "Flame Retardant": (Effect("immune", "Immolation"),),
    "Hyperactive Metabolism": (Effect("immune", "Poisoned"),),
    "Sole Survivor": (Effect("sole_survivor"),),
    "Inspiring Example": (Effect("inspiring"),),
    "Butthole Sergeant": (Effect("butthole"),),
    "Stupid": (Effect("stupid"),),
    "Bushwhacker": (Effect("bushwhacker"),),
    "Guiltridden": (Effect("guiltridden"),),
    "Ponderous": (Effect("ponderous"),),
    "Easily Controlled": (Effect("easily_controlled"),),
    "Chain of Command": (Effect("chain_of_command"),),
    "Frother Command": (Effect("frother"),),
    "Terrifying": (Effect("terrifying"),),
    "Trigger Happy": (Effect("trigger_happy"),),
    "Glory Hound": (Effect("glory_hound"),),
    "Sniper": (Effect("sniper"),),
    "Cybernetic": (Effect("cybernetic"),),
    "Coup Counter": (Effect("coup_counter"),),
    "Very Unwieldy": (Effect("avoid_cover", 1),),
    "Unwieldy": (Effect("avoid_cover", 2),),
    "Infiltration": (Effect("infiltration"),),
    "Stealthy": (Effect("stealthy"),),
    "Eagle Eye": (Effect("eagle_eye"),),
    "Tracker": (Effect("tracker"),),
    "Vindictive": (Effect("vindictive"),),
    "Force Leader": (Effect("force_leader"),),
    "Lightning Reflexes": (Effect("lightning_reflexes"),),
    "Lucky Bastard": (Effect("reroll_own", "turn"),),
    "Charmed": (Effect("reroll_own", "game"),),
    "Hard Luck": (Effect("reroll_forced", "game"),),
    "Fickle Finger of Fate": (Effect("fickle"),),
    "Scrounger": (Effect("scrounger"),),
    "Shapechanger": (Effect("shapechanger"),),
    "Summoned": (Effect("summoned"),),
    "Blood Rage": (Effect("blood_rage"),),
    "Monstrously Huge": (Effect("monstrously_huge"),),
    "Monster": (),
    "Vehicle": (),
}

#: Weapon Tweaks: name -> (line, effects). L1683-L1853.
WEAPON: Mapping[str, tuple[Effect, ...]] = {
    "Piercing Attack": (Effect("attack", _a("+1k0")),),
    "Highly Accurate": (Effect("attack", _a("+2k0")),),
    "Parry Weapon": (Effect("parry", _a("+1k0")),),
    "Extra Bite": (Effect("attack_floor", 2),),
    "Charging Weapon": (Effect("charging_weapon", 3),),
    "Armor Piercing": (Effect("armor_piercing"),),
    "Thermal Scope": (Effect("ignore_light"),),
    "Ignores Cover": (Effect("ignore_cover"),),
    "Long": (Effect("reach", 2.0),),
    "Very Long": (Effect("reach", 3.0),),
    "Sniper Scope": (Effect("range_vs_open", 12.0),),
    "High Explosive": (Effect("blast", 5.0),),
    "Mental Attack": (Effect("mental_attack"),),
    "Slow Attack": (Effect("no_reserve"),),
    "Move or Fire": (Effect("move_or_fire"),),
    "One Shot": (Effect("one_shot"),),
    "Slow Reload": (Effect("slow_reload"),),
    "Fragile": (Effect("jam", False),),
    "Volatile": (Effect("jam", True),),
    "Heavy Recoil": (Effect("recoil", 1.0),),
    "Entangling": (Effect("entangling"),),
    "Poisoned": (Effect("follow_up", "Poisoned"),),
    "Immolation": (Effect("follow_up", "Immolation"),),
    "Time Delay": (Effect("time_delay"),),
    "Cybernetic Only": (Effect("cybernetic_only"),),
    "Transferable": (Effect("transferable"),),
    "Multiprofile": (),
}

#: Unit Tweaks: name -> (line, effects). L1855-L1893.
UNIT: Mapping[str, tuple[Effect, ...]] = {
    "Conscript": (Effect("rout_every_turn"),),
    "Raw": (Effect("rout_if_attacked"),),
    "Green": (Effect("rout_if_lost"),),
    "Well Trained": (Effect("pass_first_rout"),),
    "Fighters to the End": (Effect("casualty_threshold", 0.75),),
}

#: Special Powers: name -> effects on success. L999-L1351.
POWERS: Mapping[str, tuple[Effect, ...]] = {
    "Terror": (Effect("power_rout_test"),),
    "Banish Spirit": (Effect("power_destroy"),),
    "Rally": (Effect("power_rally"),),
    "Protection": (Effect("power_bonus", ("defense", 1, 0)), Effect("power_bonus", ("null", 1))),
    "Strength of Tortoise": (Effect("power_bonus", ("defense", 1, 0)),),
    "Stone Skin": (Effect("power_bonus", ("next_defense", 1, 1)),),
    "Guide Attack": (
        Effect("power_bonus", ("next_attack", 1, 1)),
        Effect("power_bonus", ("range", 12)),
    ),
    "Brute Strength": (Effect("power_bonus", ("cc_attack", 2, 2)),),
    "Restore": (Effect("power_heal", "2D6"), Effect("power_restore")),
    "Drain Power": (Effect("power_drain"),),
    "Restore Vehicle Spirit": (Effect("power_only", "wreck"), Effect("power_revive")),
    "Soul Suck": (Effect("power_drain_hero", "2D6"),),
    "Incontrovertible Truth": (Effect("power_halt", "figure"),),
    "Jinx Mechanism": (Effect("power_only", "machine"), Effect("power_halt", "figure")),
    "Electronic Feedback": (
        Effect("power_only", "machine"),
        Effect("power_no_cybernetic_bonus"),
        Effect("power_halt", "figure"),
    ),
    "Instill Overwhelming Greed": (Effect("power_only", "group"), Effect("power_halt", "unit")),
    "Chittering Hordes": (Effect("power_halt", "next"),),
    "Televangelism": (Effect("power_halt", "seen"),),
    "Suspend": (Effect("power_suspend"),),
    "Illuminate Enemy": (Effect("power_unit_tag_enemy", "illuminated"),),
    "Pounding Rage": (Effect("power_bonus", ("attack", 1)),),
    "Shield of God": (Effect("power_unit_tag", "shield"),),
    "Bless Weapon": (Effect("power_bonus", ("blessed", 1)),),
    "Null Field": (Effect("power_bonus", ("null", 1)),),
    "Skulk in Shadows": (Effect("power_bonus", ("stealthy", 1)),),
    "Psychic Shield": (Effect("power_hero", ("def_hero", "1D6")),),
    "Invigorate": (Effect("power_hero", ("hero", 6)),),
    "Earth Sense": (Effect("power_expose"),),
    "War Chant": (Effect("power_war_chant"),),
    "Invisibility": (Effect("power_bonus", ("invisible", 1)),),
    "Mob Mentality": (Effect("power_unit_tag", "mob"),),
    "Adrenal Overload": (Effect("power_only", "not_vehicle"), Effect("power_adrenal")),
    "See the Future": (Effect("power_only", "user"), Effect("power_future")),
    "Telepathic Command": (Effect("power_only", "near_character"), Effect("power_telepathy")),
    "You Da Man": (Effect("power_only", "you_da_man"), Effect("power_you_da_man")),
    "Speedster": (Effect("power_only", "user"), Effect("power_bonus", ("speedster", 6))),
    "Static Charge": (Effect("power_only", "user"), Effect("power_bonus", ("static", 1))),
    "Illusionary Swarm": (Effect("power_unit_mark_enemy", "swarm"),),
    "Devour": (
        Effect("power_only", "monster_cc"),
        Effect("power_destroy"),
        Effect("power_failing_cc_attack"),
    ),
    "Induce Drug Frenzy": (Effect("power_frenzy"),),
    "Wave": (Effect("power_aimed"), Effect("power_wave", 3.0)),
    "Summon Rain Storm": (Effect("power_aimed"), Effect("power_rain_storm", 6.0)),
    "Fervor of the Righteous": (Effect("power_only", "other_unit"), Effect("power_fervor")),
    "Speaking in Tongues": (
        Effect("power_only", "not_activated"),
        Effect("power_unit_tag_enemy", "first"),
    ),
    "Summoning": (Effect("power_only", "summoner"), Effect("power_summon")),
    "Astral Projection": (Effect("power_only", "projector"), Effect("power_project")),
    "Control": (Effect("power_control"),),
    "Actuate Casualty": (Effect("power_corpse"), Effect("power_actuate")),
    "Expunge Nanites": (Effect("power_only", "nanites"), Effect("power_expunge")),
    "Sudden Conversion": (Effect("power_only", "convert"), Effect("power_convert")),
    "System Reset": (Effect("power_only", "reset"), Effect("power_reset")),
    # on a friend or an enemy (which resists with its Mental, L830): L1303, L1219
    "Teleport": (
        Effect("power_only", "teleport"),
        Effect("power_either_side"),
        Effect("power_teleport"),
    ),
    "Shove": (
        Effect("power_only", "shove"),
        Effect("power_either_side"),
        Effect("power_shove", 6.0),
    ),
    # the board changes (game/terrain.py): used by the user on itself, at a point (Attack.at)
    "Battering Waves": (Effect("power_only", "user"), Effect("power_terrain", "B")),
    "Remove Earthen Barrier": (Effect("power_only", "user"), Effect("power_terrain", "R")),
    "Wall of Air": (Effect("power_only", "user"), Effect("power_terrain", "A")),
    "Wall of Fire": (Effect("power_only", "user"), Effect("power_terrain", "F")),
    "Wall of Spewing Filth": (Effect("power_only", "user"), Effect("power_terrain", "S")),
}


def _named(table: Mapping[str, tuple[Effect, ...]]) -> dict[str, tuple[Effect, ...]]:
    """Each entry's effects told the tweak or power they come from (:attr:`Effect.source`)."""
    return {n: tuple(replace(e, source=n) for e in es) for n, es in table.items()}


PERSONAL = _named(PERSONAL)
WEAPON = _named(WEAPON)
UNIT = _named(UNIT)
POWERS = _named(POWERS)
TABLES = {"personal": PERSONAL, "weapon": WEAPON, "unit": UNIT, "power": POWERS}


#: Tweaks that act in the game with no effect entry of their own: what they change is the
#: figure or weapon the Troop Builder made, which the game plays as it is.
BUILT_IN: Mapping[tuple[str, str], str] = {
    ("personal", "Monster"): "a type L, M or H figure: it blocks sight and takes the vehicle "
    "and monster rules (L433, L1593)",
    ("personal", "Vehicle"): "as Monster (L1671)",
    ("personal", "Weapon Master"): "the extra weapon slot's weapon is carried and used like "
    "any other (L1665)",
    ("personal", "Vehicular Commander"): "the vehicle or monster is also a character "
    "(costs.is_character, L1677): it acts alone, leads and joins trooper units (L375)",
    ("weapon", "Multiprofile"): "each profile is a weapon of its own in the game (L1807)",
}


#: The tweaks and powers not in play, and why: what the engine lacks.
NOT_IN_PLAY: Mapping[tuple[str, str], str] = {}


def effects_of(table: str, names: list[str] | tuple[str, ...]) -> tuple[Effect, ...]:
    """The effects of the named tweaks or powers (names without an entry have none yet)."""
    t = TABLES[table]
    out: list[Effect] = []
    for n in names:
        out.extend(t.get(n, ()))
    return tuple(out)


def implemented() -> dict[str, list[str]]:
    """The tweaks and powers with in-game effects, by category (for the report and tests)."""
    return {k: sorted(n for n, e in t.items() if e) for k, t in TABLES.items()}


def in_play() -> dict[str, list[str]]:
    """Every tweak and power that acts in the game: an effect entry, or :data:`BUILT_IN`."""
    out = implemented()
    for table, name in BUILT_IN:
        out[table] = sorted({*out[table], name})
    return out


def source_line(table: str, name: str) -> int:
    """The book line of a tweak or power (from the builder's catalogue)."""
    from warbench.rulesets.warengine.tables import catalogue

    cat = catalogue()
    books: dict[str, dict[str, Any]] = {
        "personal": dict(cat.personal_tweaks),
        "weapon": dict(cat.weapon_tweaks),
        "unit": dict(cat.unit_tweaks),
        "power": dict(cat.special_powers),
    }
    return int(books[table][name].line)
