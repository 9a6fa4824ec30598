"""Random-legal games with perk-heavy rosters keep every invariant and replay identically
(issue 11, "Done means"). Every unit carries five or six perks that act in a game (immunities,
attack-math, Psychological, Defensive by HP and by Game Turn, activated) and every weapon five
or six (afflictions, attack-math, Enhancements, Limitations), from every family in play.

Default: a few games. ``WARBENCH_PERK_GAMES=1000`` plays a thousand (docs/perks.md gives the
figures of the last long run).
"""

from __future__ import annotations

import os
import random
from dataclasses import replace

import pytest

from tests.warsurge.game.helpers import ROSTERS, check_invariants
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import RandomLegalPlayer, ScriptedPlayer
from warbench.rulesets.warsurge.game.record import GameRecord, replay
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameSetup,
    PlayerSetup,
    build_setup,
)

GAMES = int(os.environ.get("WARBENCH_PERK_GAMES", "3"))
BOARDS = ["ruins_48x48", "open_field_42x32", "city_72x48"]

WEAPON_SETS = [
    ["Burn", "Pulverise", "Cripple I", "Destroy I", "Skill", "Escalate"],
    ["Poison", "Corrode", "Freeze", "+Power I (D3)", "Wane", "Recharge I"],
    ["Bleed", "Weaken", "Leech", "Rend", "Bloody", "Use II"],
    ["Virus", "Scourge", "Mitigate", "Critical Hit I", "Blind I", "Hearty"],
    ["Concussive", "Cripple II", "Burn", "Penetrate I", "Blind II", "Pain Locked"],
    ["Poison", "Weaken", "Countdown I", "Critical Hit I", "Skill"],
    ["Warp", "Trajectory I", "Burn", "Penetrate I", "Use III"],
    ["Ignite II", "Paralysis", "Fugue", "Bloodlust", "Twin"],
    ["Dread", "Trajectory II", "Poison", "Triune", "Ignite I"],
    # Mode: templates and Chain (issue 11, lane a)
    ["Blast II", "Poison", "Critical Hit I", "Skill", "Wane"],
    ["Chain II", "Burn", "Corrode", "Use II"],
    ["Wall I", "Weaken", "Rend", "Escalate"],
    ["Nova II", "Bleed", "Penetrate I", "Hearty"],
    ["Beam I", "Concussive", "Destroy I", "Recharge I"],
    ["Cone I", "Pulverise", "Blind I", "Bloody"],
    ["Explode I", "Freeze", "Chain I", "Skill"],
    ["Diffuse", "Burn", "Cripple I", "Countdown I"],
    ["Beam II", "Poison", "Blast III", "Mitigate"],
    # Stun, Plague, Spread (issue 11, lane c)
    ["Stun", "Plague", "Spread", "Burn", "Critical Hit I"],
    ["Plague", "Spread", "Poison", "Stun", "Skill"],
    ["Implant", "Burn", "Critical Hit I", "Stun"],
    ["Confuse", "Spread", "Pulverise", "Penetrate I"],
    # Malfunction, HP Steal, Counter, Self-Destruct (s11-perks-b, session 4)
    ["Malfunction I", "HP Steal", "Burn", "Critical Hit I"],
    ["Malfunction II", "Poison", "HP Steal", "Penetrate I"],
    ["Counter", "Bleed", "Skill", "Hearty"],
    ["Self-Destruct", "Corrode", "Blind I", "Rend"],
    ["Upheaval", "Burn", "Malfunction I", "Skill"],
    # Tactical: No Line of Sight, Momentum, Disarm, Fast, Pre-Emptive (lane a, session 4)
    ["No Line of Sight I", "Momentum", "Disarm", "Burn"],
    ["No Line of Sight II", "Fast", "Poison", "Skill"],
    ["No Line of Sight III", "Pre-Emptive", "Disarm", "Weaken"],
    # Velocity (session 13, lead)
    ["Velocity", "Burn", "Momentum", "Skill"],
    ["Heal", "Freeze", "Skill", "Hearty"],
    ["Delirium", "Burn", "Velocity", "Skill"],
    ["Corrupted", "Heal", "Skill", "Burn"],
    # Residue, Vortex (session 25, s25-lead)
    ["Blast II", "Residue II", "Burn", "Skill"],
    ["Explode I", "Vortex I", "Poison"],
    ["Nova II", "Vortex III", "Penetrate I"],
    ["Cone I", "Residue III", "Weaken"],
    # Force, Knockback (session 25, s25-tactical)
    ["Force I", "Knockback II", "Burn", "Skill"],
    ["Knockback I", "Force II", "Poison", "Momentum"],
    ["Preliminary", "Burn", "Skill", "Knockback I"],
    ["Postliminary", "Poison", "Force I", "Hearty"],
    ["Shared", "Burn", "Knockback II", "Skill"],
    ["Grapple", "Poison", "Force I", "Skill"],
    ["Grapple", "No Line of Sight II", "Knockback I", "Burn"],
    ["Trap", "Burn", "Skill", "Hearty"],
    ["Multi-Strike", "Poison", "Clash", "Knockback I"],
    ["Precision 4+", "Burn", "Skill", "Critical Hit I"],
    ["Precision 6+", "Force II", "Poison", "Penetrate I"],
]
UNIT_SETS = [
    ["Fire Resist I", "Tough", "Dodge", "Recover", "Morale I", "Deteriorate", "Reservoir"],
    ["Immunity I", "Resilient", "Evasive", "Adrenaline", "Frenzy", "Powered by Pain"],
    [
        "Artificial",
        "Indomitable",
        "Reinforced",
        "Smokescreen",
        "Conviction",
        "Resist I",
        "Resurrection II",
    ],
    ["Fire Resist II", "Immunity II", "Regenerate", "Stalwart", "Panic", "+Armour I"],
    ["Unstoppable", "Mastery", "Execution", "Diminish", "Limit Break II", "Rush"],
    ["Pusillanimous", "Morale II", "+Armour II", "Resist II", "Limit Break I", "Last Stand"],
    ["Resurrection I", "Frenzy", "Diminish", "Rush", "Mastery", "Cure I", "Purge II"],
    # a Presence unit with the Roster Perks it switches on (their Roster: its side's units)
    ["Presence", "Swift", "Inspiring", "Protective", "Demoralising", "Fleeting", "Shielding"],
    # targeting, forms, relocation, revival and Reserve (s11-perks-b)
    ["Taunt II", "Magic Armour II", "Transform II", "Blink II", "Revive II", "Unstable"],
    ["Provoke I", "Wild Armour", "Teleport I", "Reanimate I", "Vanish", "Unyielding"],
    ["Courage", "Uncover", "Magic Armour I", "Transform III", "Blink III", "Revive I"],
    ["Terrify", "Fall Back", "Defend", "Pacifist", "Fearless", "Teleport II"],
    ["Murderer", "Taunt I", "Provoke II", "Reanimate III", "Transform I", "Magic Armour III"],
    # Leadership, Movement and the Roster Perks that act when their unit falls (lane a)
    ["Leader", "Orders", "Egotistical", "Nonstop I", "Tough", "Avenge"],
    ["Despair", "Nonstop II", "Regenerate", "Dodge", "Frenzy"],
    ["Leader", "Orders", "Nonstop III", "Despair", "Resilient"],
    ["Charge I", "Traverse II", "Thrust", "Implacable I", "Invade I", "Tough"],
    ["Charge II", "Traverse I", "Implacable II", "Invade III", "Egotistical", "Dodge"],
    ["Airborne", "Thrust", "Charge I", "Nonstop I", "Reinforced", "Recon II"],
    ["Jumper", "Traverse II", "Implacable I", "Avenge", "Evasive", "Recon I"],
    # Psychological, Deployment and Roster Perks of lane c
    ["Berserk", "Ambush II", "Tough", "Dodge", "Conviction"],
    ["Wild Instinct", "Ambush I", "Resilient", "Frenzy"],
    ["Presence", "Bloodthirsty", "Nexus", "Ambush III", "Evasive"],
    ["Leader", "Wild Instinct", "Berserk", "Reinforced"],
    ["Phoenix", "Extension", "Master Strategist", "Tough"],
    ["Seed I", "Extension", "Dodge", "Resilient"],
    # Formation, Keen Eye, Crew (s11-perks-b, session 4)
    ["Formation", "Keen Eye", "Tough", "Recover", "Dodge"],
    ["Crew I", "Formation", "Resilient", "Frenzy"],
    ["Crew II", "Keen Eye", "Reinforced", "Mastery", "Controlled"],
    ["Kamikaze", "Formation", "Dodge", "Escape Transport", "Disengage"],
    # Defensive: Immortal, Reflect (lane a, session 4)
    ["Immortal", "Reflect II", "Tough", "Recover"],
    ["Immortal", "Reflect I", "Dodge", "Thrust"],
    # Stealth, Juggernaut (session 13, lead)
    ["Stealth", "Juggernaut I", "Tough", "Keen Eye"],
    ["Juggernaut II", "Stealth", "Charge I", "Recover"],
    ["Sentinel", "Ambush II", "Invade II", "Dodge"],
    ["Psychotic", "Tough", "Recover", "Stealth"],
    ["Horrific", "Sentinel", "Juggernaut I", "Dodge"],
    ["Offering", "Frenzy", "Resilient", "Terrify"],
    ["Sacrifice", "Courage", "Tough", "Frenzy"],
    ["Espionage", "Keen Eye", "Dodge", "Stealth"],
    ["Ascension III", "Recover", "Deteriorate", "Last Stand"],  # session 25, s25-transform
    ["Descend II", "Regenerate", "Reservoir", "Resurrection I"],
    ["Eternal", "Recover", "Dodge", "Tough"],
    ["Fusion", "Ascension I", "Descend I", "Dodge"],
    # session 25, s25-aeon: into enemy units (the Transport perks need Transports)
    ["Breach", "Seed II", "Dodge", "Tough"],
    # Leadership, Trait (session 25, s25-lead)
    ["Leader", "Furious", "Tough", "Dodge"],
    ["Leader", "Challenger", "Taunt I", "Recover"],
    ["War Master", "Challenger", "Tough", "Dodge"],
    ["Combat Damage", "Tough", "Dodge", "Recover"],  # session 25 wave 2, w2-kernel
    ["Bodyguard", "Leader", "Dodge", "Recover"],  # session 25 wave 2, w2-kernel
    ["Gateway", "Tough", "Dodge", "Recover"],  # session 25 wave 2, w3-gateway
]


#: Traits given to some units (session 25, s25-lead: Respawn, Decoy, Summon, Concealed).
TRAIT_SETS: list[tuple[str, ...]] = [
    (),
    ("Respawn",),
    ("Decoy II",),
    (),
    ("Decoy III",),
    ("Summon",),
    ("Concealed", "Decoy I"),
    ["Obscured", "Tough", "Dodge", "Recover"],  # session 25, s25-tactical
    # Lucky, Jinx, Architect of Destiny, Deny (session 25, s25-ability)
    ["Lucky", "Jinx", "Frenzy", "Provoke I"],
    ["Architect of Destiny", "Deny", "Magic Armour I", "Terrify"],
    ["Nightmare Anomaly", "Lucky", "Tough", "Reinforced"],
    ["Traitorous", "Tough", "Dodge", "Jinx"],
    ["Enslaved", "Recover", "Resilient", "Lucky"],
    ["Dominate", "Tough", "Dodge", "Deny"],
    ["Undead Legion", "Resilient", "Recover", "Jinx"],
]


def perk_heavy(player: PlayerSetup, offset: int, opportunist: bool = True) -> PlayerSetup:
    """Every unit with 3 Unit Perks and every weapon with 4 Weapon Perks (acting in a game);
    with ``opportunist``, each side's first unit also has Opportunist (L1340)."""
    entries = []
    for k, e in enumerate(player.roster):
        u = e.unit
        weapons = [
            w.model_copy(update={"perks": WEAPON_SETS[(offset + k + j) % len(WEAPON_SETS)]})
            for j, w in enumerate(u.weapons)
        ]
        perks = UNIT_SETS[(offset + k) % len(UNIT_SETS)]
        if (
            k == 0 and opportunist
        ):  # Opportunist (L1340, session 26): each side's first unit may delay
            perks = [*perks, "Opportunist"]
        profile = u.profile.model_copy(update={"perks": perks})
        traits = TRAIT_SETS[(offset + k) % len(TRAIT_SETS)]
        entries.append(
            replace(
                e,
                unit=u.model_copy(update={"profile": profile, "weapons": weapons}),
                traits=(*e.traits, *traits),
            )
        )
    return replace(player, roster=tuple(entries))


def setup_for(k: int, opportunist: bool = True) -> GameSetup:
    """Game ``k``'s set-up; every other game leaves the "use perk" decision to the players
    (no ``perk use`` automation), so random players use Limit Break, Rush … by choice.
    ``opportunist=False`` gives the rosters of session 25 (before Opportunist was in play),
    with which the regression games below replay the faults they were found with."""
    names = ("skirmish_a.yaml", "skirmish_b.yaml")
    players = [
        perk_heavy(load_game_roster(ROSTERS / n), i + k, opportunist) for i, n in enumerate(names)
    ]
    automation = ALL_AUTOMATIONS - ({Automation.PERK_USE} if k % 2 else set())
    board = Field(sample_board(BOARDS[k % len(BOARDS)]))
    return build_setup(players, board, max_turns=6, automation=automation)


def play_checked(setup: GameSetup, seed: int, scripted: bool = False) -> tuple[int, set[str]]:
    """Play to the end checking invariants; replay the record; the perk events seen."""
    state, _ = engine.new_game(setup, seed)
    rec = GameRecord(setup, seed)
    players = (
        [ScriptedPlayer(), ScriptedPlayer()]
        if scripted
        else [RandomLegalPlayer(seed * 7 + 1), RandomLegalPlayer(seed * 7 + 2)]
    )
    kinds: set[str] = set()
    steps = 0
    while not state.over:
        side = engine.acting_side(state)
        assert side is not None
        action = players[side].choose(state)
        state, events = engine.apply(state, action)
        kinds.update(e.text.split(": ", 1)[-1].split(" ")[0] for e in events if e.kind == "perk")
        rec.add(action, state)
        check_invariants(state)
        steps += 1
        assert steps < 5000, "the game does not end"
    assert replay(rec).state.digest() == state.digest()
    return steps, kinds


@pytest.mark.parametrize("k", range(GAMES))
def test_perk_heavy_random_legal_games_keep_invariants_and_replay(k: int) -> None:
    rng = random.Random(1000 + k)
    play_checked(setup_for(k), seed=rng.randrange(2**31))


def test_perk_heavy_scripted_game_plays_afflictions() -> None:
    _, kinds = play_checked(setup_for(0), seed=5, scripted=True)
    assert kinds, "no perk event in a perk-heavy game"


def test_p4386_a_seized_unit_uses_its_perks_for_its_controller_game_13() -> None:
    """Regression (the 1000-game run of session 25, game 13): a unit raised by Undead Legion
    (L4386) under the other side's control was offered its perks for its controller, whose
    ``UsePerks`` the engine then refused as "not your unit", so the random player had no legal
    action left. The controller uses them (``verify_use_perks``)."""
    rng = random.Random(1000 + 13)
    steps, _ = play_checked(setup_for(13, opportunist=False), seed=rng.randrange(2**31))
    assert steps > 0


@pytest.mark.parametrize("k", [32, 116, 247, 504, 915, 969])
def test_session_25_long_run_regressions(k: int) -> None:
    """The 1000-game run of session 25 on the merged lanes: game 32, a unit with no Weapon left
    (Loot, Combat Damage) crashed Stealth's and Smokescreen's reach (``max`` of no Range);
    game 116, a Dominate (L745) that made two engaged units allies left them in a Melee, and
    the seized unit touching its new enemies was in none (§4.3); game 915, Corrupted's offers
    (L3793) were listed for a unit that may not use perks now; game 969, a model revived by
    Resurrection next to an enemy unit (a defected one) locked no Melee (§4.3); game 247, a
    unit back in Reserve that had acted was still counted as placeable by the 50% rule of the
    first Game Turn (§3.6), so no Pass was legal; game 504, a Traitorous unit
    (L2313) stepping out of its Melees broke its own Coherency (§4.2)."""
    rng = random.Random(1000 + k)
    steps, _ = play_checked(setup_for(k, opportunist=False), seed=rng.randrange(2**31))
    assert steps > 0
