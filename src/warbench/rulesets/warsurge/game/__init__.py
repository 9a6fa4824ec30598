"""The WARSURGE game engine: a full Standard game on a 2D battlefield (docs/game.md).

``new_game`` → ``legal_actions`` / ``check`` / ``can`` / ``apply`` → events and a new state;
``record`` writes and replays games; ``players`` holds random-legal and scripted players.
"""

from __future__ import annotations

from warbench.rulesets.warsurge.game import perk_hooks  # noqa: F401  (registers its hooks)
from warbench.rulesets.warsurge.game.actions import (
    Action,
    Attack,
    ChooseTurnMaster,
    ChooseZone,
    Deploy,
    Disembark,
    Embark,
    Move,
    Pass,
)
from warbench.rulesets.warsurge.game.engine import (
    LegalActions,
    acting_side,
    apply,
    can,
    check,
    legal_actions,
    new_game,
)
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.state import (
    Automation,
    GameResult,
    GameSetup,
    GameState,
    Location,
    Phase,
    PlayerSetup,
    RosterEntry,
    build_setup,
)

#: Version of the game engine's behaviour (stamped into game records with RULESET_VERSION).
#: 2: perk inputs in play (Anti-Air, Assassin, Outflank, Clash, Burst, Darkside), split fire,
#: no Fire Points for a passenger of a passenger (§6.5), Fusion/Respawn/Summon in scoring.
#: 3: the perk effects engine (issue 11): afflictions, immunities, end-of-turn effects.
#: 4: terrain in play (issue 12): sight and cover with heights (L2360), climbing levels and
#: vertical Coherency, custom cover (§10.4), passengers of an engaged Transport (§6.9: out of
#: its Melee, no Weapon Type modifiers). Flat boards without custom cover play as before.
#: 5: 86 more perk ranks in play (issue 11: Mode templates, Movement, Leadership, Deployment,
#: targeting limits, forms, relocation, revival, Reserve); destructible terrain and the Cover
#: Save (§10.3, §10.4); terrain as a Transport (§10.2); a destroyed Transport's survivors
#: (§6.6), Base Contact (§4.4 III) and Advanced Coherency as decisions when their automation is
#: off. Seeded games with no perks on boards without such terrain play as before.
#: 6: a Move toward a point that no straight slide of the formation makes goes round terrain
#: and other units (issue 10, ``game/route_move.py``); a Move that was legal before ends where
#: it did, so earlier records replay the same.
ENGINE_VERSION = "warsurge-game-6"

__all__ = [
    "ENGINE_VERSION",
    "Action",
    "Attack",
    "Automation",
    "ChooseTurnMaster",
    "ChooseZone",
    "Deploy",
    "Disembark",
    "Embark",
    "Event",
    "Field",
    "GameResult",
    "GameSetup",
    "GameState",
    "LegalActions",
    "Location",
    "Move",
    "Pass",
    "Phase",
    "PlayerSetup",
    "RosterEntry",
    "acting_side",
    "apply",
    "build_setup",
    "can",
    "check",
    "legal_actions",
    "new_game",
]
