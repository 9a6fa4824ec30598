"""The abilities glossary in play: one effects table (``003_fc239e71486306e1.txt`` L1583-2289).

Every one of the 129 glossary entries has a row in :data:`EFFECTS` saying how it acts in the
game (Wesnoth's weapon specials: data over a handful of effect kinds):

* ``attack``: a special attack, an :class:`AttackSpec` (to-hit and power modifiers, reach,
  shape, type, On Hit / On Crit / On Injury effects as data, "no reactions", "no injuries");
* ``action``: a special action that is not an attack, resolved by a handler of
  :mod:`warbench.rulesets.collision.game.actions` named in the row;
* ``reaction``: an (RE) ability, with the window it reacts in (L891-899);
* ``passive``: an effect that is always on, consulted where the rules look it up (auras,
  immunities, movement kinds, recovery);
* ``status``: a status effect token (Hex, Poison, Stun, Flee), with its upkeep;
* ``term``: a word other entries use (Blast attack, Knockback, Slay ...), implemented where
  those entries use it.

A row with ``in_play=False`` says why the game does not apply it. :func:`check_table`
verifies, when the module loads, that the table covers the glossary exactly and that every
handler and window named exists (pluggy: checked when registered, not when first fired).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warbench.rulesets.collision.glossary import Glossary

#: On Hit / On Crit / On Injury effects as data: (effect, amount). Effects: stun, hex, poison,
#: drain (Endurance), drain_all, drain_spow, steal_mana, knockback, slay, injury, face
#: (turn the target), fire3 (a Pow 3 Fire hit), touch (S-Pow contest: slay or 1 injury back),
#: pain_warp.
OnEffect = tuple[str, int]


@dataclass(frozen=True)
class AttackSpec:
    """A special attack's numbers and effects (L872-881, L1067-1106)."""

    weapon: bool  # a special weapon attack: pays the weapon's EC and uses the weapon
    att: int = 0  # to W-Att (weapon) or Att
    pow: int = 0  # to the power
    power: str = "weapon"  # "weapon" (W-Pow), "S-Pow", or a fixed number as text ("4")
    reach: int | None = None  # None: the weapon's Reach
    ranged: bool | None = None  # None: the weapon's
    melee_only: bool = False
    ranged_only: bool = False
    reach_plus: int = 0  # Throw: reach +3
    shape: str = "single"  # single, line, blast, burst
    size: int = 0  # line length or radius
    type: str | None = None  # None: the weapon's type (Mundane for non-weapon attacks)
    on_hit: tuple[OnEffect, ...] = ()
    on_crit: tuple[OnEffect, ...] = ()
    on_injury: tuple[OnEffect, ...] = ()
    crit_pow: int = 0
    no_injury: bool = False  # "doesn't roll for injuries" / "deals no injuries"
    crit_only_injury: bool = False  # Dazzle: no damage unless a critical hit
    no_reactions: bool = False  # L2026-2030
    auto_hit: bool = False  # Shockwave (L2146)
    slay_on_hit: bool = False
    crit_on_back: bool = False  # Backstab (L1599-1600)
    needs_away: int | None = None  # Finishing Blow: target 2 injuries away from defeat
    cannot_defeat: bool = False  # Smite (L2179-2180)
    ignores_partial: bool = False  # Snipe (L2183)
    injury_direct: bool = False  # Embloody: 1 injury without rolling against armor
    add_command_pow: bool = False  # Smite: add Command to W-Pow
    scissor: bool = False  # Scissor Strike: two melee weapons combined
    chain: bool = False  # Barrage: free attacks at Att-1 per successive hit
    delayed: bool = False  # Meteor: resolves next turn
    not_self: bool = True


@dataclass(frozen=True)
class Effect:
    """One glossary entry in play."""

    name: str
    how: str  # attack, action, reaction, passive, status, term
    in_play: bool = True
    attack: AttackSpec | None = None
    window: str | None = None  # reactions: attack, hit, injury, defeat, miss, enter,
    # activation, ability, ranged
    handler: str | None = None  # actions: a function name in actions.HANDLERS
    repeatable: bool = False
    special_move: bool = False  # L880-881
    note: str = ""
    partial: str = ""  # what of the entry the game does not apply (docs/rulings.md)
    tags: tuple[str, ...] = field(default_factory=tuple)


def _a(name: str, spec: AttackSpec, note: str = "") -> Effect:
    return Effect(name, "attack", attack=spec, note=note)


def _act(name: str, handler: str, **kw: object) -> Effect:
    return Effect(name, "action", handler=handler, **kw)  # type: ignore[arg-type]


def _re(name: str, window: str, note: str = "") -> Effect:
    return Effect(name, "reaction", window=window, note=note)


def _p(name: str, note: str = "") -> Effect:
    return Effect(name, "passive", note=note)


def _t(name: str, note: str = "", partial: str = "") -> Effect:
    return Effect(name, "term", note=note, partial=partial)


W = AttackSpec
_ROWS: tuple[Effect, ...] = (
    _re("Adamant Form", "hit", "the injury level rises by at most 1 (L1583-1588)"),
    _act("Assess the Threat", "assess", tags=("fear",)),
    _a("Backstab", W(True, crit_on_back=True)),
    _a("Barrage", W(True, ranged_only=True, chain=True)),
    _act("Berserk", "berserk"),
    _t(
        "Blast attack",
        "Meteor and Thunderstrike: every character within the radius of the "
        "centre; cover from the centre, the centre ignores cover (L1609-1613)",
    ),
    _re("Block 2", "hit"),
    _re("Block 4", "hit"),
    _act("Buck Shot", "buck_shot"),
    _t(
        "Burst Attack",
        "Caustic Burst: every character within the radius of the attacker (L1625-1627)",
    ),
    _a("Butcher", W(True, att=-2, pow=4)),
    _p("Camouflage", "total cover when attacked from 4 spaces or more (L1632-1633)"),
    _re("Castle", "attack", "swap with an ally within command; it becomes the target"),
    _a(
        "Caustic Burst",
        W(
            False,
            att=2,
            pow=2,
            power="S-Pow",
            shape="burst",
            size=2,
            type="Acid",
            on_crit=(("poison", 2),),
            reach=0,
        ),
    ),
    _p("Challenge", "an enemy leaving melee reach: Command contest, it can't move (L1650-1652)"),
    _act("Check", "check", tags=("fear",)),
    _a(
        "Checkmate",
        W(True, att=2, melee_only=True, slay_on_hit=True),
        "the Slay needs two more friendly characters within melee reach paying their EC",
    ),
    _a("Chilling Strike", W(True, melee_only=True, type="Cold", on_hit=(("drain_spow", 0),))),
    _re("Cling to Life", "defeat"),
    _a(
        "Clobber",
        W(False, reach=1, on_hit=(("stun", 1),), on_crit=(("slay", 0),), no_injury=True, power="0"),
    ),
    _re("Contort", "hit"),
    _re("Counter Attack", "enter"),
    _p("Dauntless", "not affected by Fear and Flee (L1700-1701)"),
    _a(
        "Dazzle",
        W(
            False,
            att=1,
            reach=1,
            type="Fire",
            on_hit=(("stun", 1),),
            on_crit=(("fire3", 3),),
            no_injury=True,
            power="0",
        ),
    ),
    _re("Decoy", "attack"),
    _re("Deflect", "ranged"),
    _re("Distract", "ability"),
    _re("Dodge", "attack"),
    _t(
        "Drain",
        "On Hit drains of Chilling Strike, Flash Freeze, Rip Around, Shove, Thunderstrike (L1731)",
    ),
    _a(
        "Embloody",
        W(
            False,
            att=1,
            reach=4,
            ranged=True,
            type="Dark",
            on_hit=(("injury", 1),),
            no_injury=True,
            power="0",
        ),
    ),
    _act("Epic Heal", "epic_heal"),
    _p("Few Stood Against Many", "1 VP if it survives on the table (L1744-1748)"),
    _a(
        "Finishing Blow",
        W(True, att=1, melee_only=True, slay_on_hit=True, needs_away=2, no_reactions=True),
    ),
    _a(
        "Fire Breathing",
        W(False, att=1, power="4", shape="line", size=3, type="Fire", crit_pow=2, reach=3),
    ),
    _p("Flame Wreath", "enemies moving or starting activation adjacent suffer a Pow 2 Fire hit"),
    _a(
        "Flash Freeze",
        W(
            False,
            att=3,
            pow=2,
            power="S-Pow",
            reach=2,
            type="Cold",
            on_injury=(("drain_all", 0), ("stun", 1)),
            on_crit=(("slay", 0),),
        ),
    ),
    Effect("Flee", "status"),
    _act("Fortune", "fortune"),
    _act("Frighten", "frighten", tags=("fear",)),
    _act("Gather Courage", "gather_courage"),
    _re("Got your Back", "attack"),
    _a("Gouge", W(True, pow=2, on_hit=(("hex", 1),), on_crit=(("hex", 2),))),
    _a("Guided Strike", W(True, att=2)),
    _act("Haste", "haste", note="the user moves in its activation, allies at once (L1820-1823)"),
    _act("Heal", "heal"),
    _act("Heat of Battle", "heat_of_battle"),
    Effect("Hex X", "status"),
    _a("Hyper Cutter", W(True, att=1, shape="line", size=3, type="Magic", melee_only=True)),
    _t("Immune", "Immune to a type: not affected by attacks of that type (L1847)"),
    _p("Immune to Mundane"),
    _p("Immune to Acid"),
    _p("Immune to Cold"),
    _p("Immune to Dark"),
    _p("Immune to Electric"),
    _p("Immune to Fire"),
    _p("Immune to Light"),
    _p("Immune to Magic"),
    _p("Immune to Slay"),
    _p("Inspire Bravery", "aura: immune to Fear and Flee"),
    _p("Inspire Fortitude", "aura: Armor+1"),
    _p("Inspire Hatred", "aura: Att/W-Att+1"),
    _p("Inspire Urgency", "aura: Move+1"),
    _re("Kiss of Death", "activation"),
    _t("Knockback", "Shove: moved away, stopped by terrain or characters with a Pow 4 hit"),
    _p("Leaping Move", "ignores obstacles, climbs two levels, moves through enemies"),
    _p("Levitating Move", "ignores obstacles, a level higher, no falling damage"),
    _t("Line Attack", "Fire Breathing, Hyper Cutter, Whirling Gale (L1964-1968)"),
    _re("Look Out", "attack"),
    _t("Luck", "a luck token re-rolls a D10 rolled by or against the character (L1977-1980)"),
    _re("Mage Armor", "hit"),
    Effect("Majesty", "reaction", window="hit", tags=("fear",)),
    _act("Mana Gift", "mana_gift"),
    _a(
        "Mana Theft",
        W(False, att=1, reach=1, on_hit=(("steal_mana", 1),), no_injury=True, power="0"),
    ),
    _p("Mark of the Titans", "deployed with twice its End, at most 9 (L2002-2006)"),
    _act("Meditate", "meditate"),
    _a(
        "Meteor",
        W(
            False,
            att=3,
            pow=3,
            power="S-Pow",
            reach=99,
            ranged=True,
            shape="blast",
            size=3,
            type="Fire",
            crit_pow=4,
            delayed=True,
        ),
    ),
    _p("Multiattack", "a weapon that attacks as often as it is paid for (L2023-2024)"),
    _t("No Reactions", "Finishing Blow, Snipe, Sudden Strike"),
    _t("On Hit", "the On Hit effects of the attacks, after injuries (L2032-2033)"),
    _t("On Injury", "Flash Freeze's On Injury (L2035)"),
    _re("Out-Maneuver", "activation"),
    _a(
        "Pain Warp",
        W(False, att=1, reach=-1, on_hit=(("pain_warp", 0),), no_injury=True, power="0"),
        "reach equal to your Command",
    ),
    _re("Parry", "attack"),
    _act("Persevere", "persevere"),
    _act("Plan Ahead", "plan_ahead", note="a player's die used instead of any D10 this turn"),
    Effect("Poison X", "status"),
    _act("Pounce", "pounce", special_move=True),
    _a("Power Attack", W(True, att=-1, pow=2)),
    _re("Power Channel", "hit"),
    _act("Rally", "rally"),
    _p("Ranged", "attacks beyond Reach at Att-1 per space (L2095-2096)"),
    _p("Recovery", "1 Mana in recovery (L2098)"),
    _act("Regenerate", "regenerate"),
    _act("Remedy", "remedy"),
    _p("Resist Elements 2", "Armor+2 against elemental hits (L2107-2111)"),
    _re("Retaliate", "miss"),
    _a("Rip Around", W(True, att=1, melee_only=True, on_hit=(("face", 0), ("drain", 2)))),
    _a("Scissor Strike", W(True, melee_only=True, scissor=True)),
    _p("Serenity", "uninjured: 1 Mana in recovery (L2131)"),
    Effect(
        "Shadow Hop",
        "reaction",
        window="hit",
        note="back from the reserves anywhere not within 3 of an enemy (L2136-2138)",
    ),
    _p("Sharp", "crits on a 9 that hits (L2140-2141)"),
    _a("Shockwave", W(False, reach=3, power="2", type="Magic", auto_hit=True)),
    _a(
        "Shove",
        W(
            False,
            reach=1,
            on_hit=(("knockback", 2), ("drain", 2)),
            on_crit=(("stun", 1),),
            no_injury=True,
            power="0",
        ),
    ),
    Effect(
        "Shrieking Armor",
        "passive",
        tags=("fear",),
        note="a melee attacker that hits flees unless it rolls 5+",
    ),
    _re("Shrug", "injury"),
    _re("Sidestep", "attack"),
    _p("Skittish", "injured: flees on a 4+ (L2171)"),
    _t("Slay", "defeats unless Immune to Slay (L2173-2174)"),
    _a("Smite", W(True, melee_only=True, type="Light", add_command_pow=True, cannot_defeat=True)),
    _a("Snipe", W(True, ranged_only=True, ignores_partial=True, crit_pow=2, no_reactions=True)),
    _a(
        "Static Jolt",
        W(
            False,
            att=2,
            power="S-Pow",
            reach=4,
            ranged=True,
            type="Electric",
            on_crit=(("stun", 1),),
        ),
    ),
    _t("Steal X", "Mana Theft (L2192-2193)"),
    Effect("Stun", "status"),
    _a("Sudden Strike", W(True, att=1, melee_only=True, crit_pow=2, no_reactions=True)),
    _p("Swift Assault", "more Swift Assault characters choose the side (L2206-2211)"),
    _re("Tactical Strike", "attack"),
    _act("Tap into Gea", "tap_into_gea", repeatable=True),
    _a("Throw", W(True, ranged=True, reach_plus=3)),
    _a(
        "Thunderstrike",
        W(True, att=1, pow=2, shape="blast", size=1, type="Electric", on_hit=(("drain", 1),)),
    ),
    _a(
        "Touch of Death",
        W(False, att=1, reach=1, on_hit=(("touch", 0),), no_injury=True, power="0"),
    ),
    Effect(
        "Trip",
        "reaction",
        window="ability",
        note="against special actions and special attacks (L2248-2251)",
    ),
    _p("Unstable", "a 1 to hit hits the attacker itself (L2253)"),
    _act("Upheaval", "upheaval", note="a 1x1 impassable, 1x1 elevation or 2x1 obstacle piece"),
    _a(
        "Venom",
        W(
            False,
            att=3,
            reach=1,
            power="1",
            type="Acid",
            on_hit=(("poison", 1),),
            on_crit=(("poison", 3),),
        ),
        "On Crit: Poison 3 instead of Poison 1",
    ),
    _p("Vicious", "may recover 1 Mana on an injury or slay (L2269)"),
    _act("Vigorate", "vigorate"),
    _p("Voodoo", "injured: on a 7+ the attacker receives 1 injury (L2275)"),
    _a(
        "Whirling Gale",
        W(
            False,
            att=2,
            power="S-Pow",
            shape="line",
            size=4,
            type="Mundane",
            on_hit=(("stun", 1),),
            crit_pow=3,
            reach=4,
        ),
    ),
    _act("Wreck", "wreck"),
)

EFFECTS: dict[str, Effect] = {e.name: e for e in _ROWS}

#: Reaction windows (L891-899) and what opens them.
WINDOWS = {
    "attack": "an attack is declared against a character (before the roll, L1068-1070)",
    "ranged": "a ranged attack is declared against a character or an ally within command",
    "hit": "an attack hits (L1079-1080)",
    "injury": "an attack deals an injury",
    "defeat": "a character would be defeated",
    "miss": "an attack deals no injury",
    "enter": "an enemy enters melee reach",
    "activation": "a character activates",
    "ability": "an enemy within 2 uses a special ability",
}


def check_table() -> list[str]:
    """Problems with the table: glossary entries missing or extra, unknown handlers or
    windows (empty when the table is sound)."""
    from warbench.rulesets.collision.game.actions import HANDLERS

    problems = []
    names = Glossary.load().names()
    for n in names:
        if n not in EFFECTS:
            problems.append(f"glossary entry {n!r} has no row in the effects table")
    for n, e in EFFECTS.items():
        if n not in names:
            problems.append(f"{n!r} is not a glossary entry")
        if e.how == "action" and e.handler not in HANDLERS:
            problems.append(f"{n}: handler {e.handler!r} is not in actions.HANDLERS")
        if e.how == "reaction" and e.window not in WINDOWS:
            problems.append(f"{n}: window {e.window!r} is unknown")
        if e.how == "attack" and e.attack is None:
            problems.append(f"{n}: an attack without an AttackSpec")
    return problems


def partial() -> dict[str, str]:
    """Entries the game applies only in part, and what is left out."""
    return {n: e.partial for n, e in EFFECTS.items() if e.partial}


def in_play() -> list[str]:
    """The glossary entries that act in the game."""
    return [n for n, e in EFFECTS.items() if e.in_play]


def reactions_in(window: str) -> list[str]:
    """The reactions of a window, in glossary order."""
    return [n for n, e in EFFECTS.items() if e.how == "reaction" and e.window == window]
