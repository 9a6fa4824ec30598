"""The state of a Collision game and the actions players take (JSON via pydantic).

The state is plain dataclasses; :meth:`CollisionRuleset.apply` deep-copies the state before it
changes anything, so ``apply`` stays pure (docs/protocol.md). Flow (stage, turn, phase, whose
decision) is kept apart from the characters and markers (boardgame.io). The cards and the
starting board are not repeated in every state: ``setup_json`` holds the set-up once, and
:func:`warbench.rulesets.collision.game.setup.tables` parses it once per process.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import Field

Square = tuple[int, int]


@dataclass
class Unit:
    """One character (or a statue objective, L1203-1206) and its tokens.

    ``where``: ``hand`` (not yet deployed), ``board``, ``reserve`` (reinforcements, L756-769),
    ``defeated``, ``escaped`` (carried an objective off the board).
    """

    uid: int
    owner: int
    card: int  # index into the owner's cards (setup.tables().cards[owner])
    name: str
    where: str = "hand"
    pos: Square | None = None
    facing: str = "N"
    endurance: int = 0
    mana: int = 0
    injuries: int = 0
    statuses: dict[str, int] = field(default_factory=dict)  # hex, poison, stun, flee
    luck: int = 0
    pile: int = 1  # the phase pile (L682-686, L774-776)
    statue: bool = False
    # sources kept for Flee (L1781-1786) and Glorious Combat's poison (L1386-1389)
    flee_from: int | None = None
    poisoned_by: int | None = None
    # this turn (reset in maintenance) and this activation
    activated: bool = False
    moved: str = ""  # "", "step", "maneuver", "run": one per round (L822-823)
    special_moved: bool = False  # L880-881: special movement and normal movement exclude
    weapons_used: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)  # special actions used this turn (L872-876)
    held: bool = False
    acted: bool = False  # took an action this activation (Hold is the only action, L883)
    spent: int = 0  # Endurance spent this turn (Poison, L2067-2071)
    hasted: bool = False  # the Haste user's own extra move this turn (L1820-1823)
    hopped: bool = False  # Shadow Hop: placed anywhere not within 3 of an enemy (L2136-2138)
    persevere: bool = False  # L2056-2060
    clinging: bool = False  # Cling to Life: defeated at the end of its recovery (L1673-1678)
    kissed: bool = False  # Kiss of Death: slain in recovery (L1929-1935)
    pain_warp: int | None = None  # Pain Warp's caster: injuries treated as the caster's
    last_hit: int | None = None  # the target of this activation's last ranged hit (Buck Shot)
    tributes: int = 0  # The Dark Gods (L1356-1362)


@dataclass
class Marker:
    """An objective token (L557-565): chest, statue, obelisk, flag, orb, crate, relic, tower,
    trinket, cursed/blessed ground, shard, meteor."""

    mid: int
    kind: str
    at: Square | None = None
    holder: int | None = None  # the uid carrying it
    owner: int | None = None  # who placed it / activated it (orbs) / whose it is
    gone: bool = False  # destroyed or carried off
    by: int | None = None  # the player who carried it off


@dataclass
class AttackCtx:
    """An attack in progress, kept in the state while reactions are asked (L1067-1082).

    ``stage``: ``declared`` (reactions before the roll), ``hit`` (reactions to a hit),
    ``injury`` (reactions to an injury), ``defeat`` (Cling to Life), ``done``.
    """

    attacker: int
    target: int
    ability: str | None  # the special attack, or None for a weapon attack
    weapon: str | None  # the weapon used, if any
    targets: list[int] = field(default_factory=list)  # more targets (line, blast, burst)
    centre: Square | None = None  # blast centre
    stage: str = "declared"
    reacted: list[str] = field(default_factory=list)  # reactions already used on this attack
    mods: list[tuple[str, int, str]] = field(default_factory=list)  # (quantity, amount, why)
    total_cover: bool = False
    negated: bool = False
    armor_set: int | None = None
    adamant: bool = False
    reroll: bool = False  # Majesty: the attacker must re-roll the attack
    face: int = 0
    crit: bool = False
    cover: str = "none"
    injury: int = 0
    after: int = 0
    free: bool = False  # no EC paid (Counter Attack, Retaliate, Buck Shot, Barrage)
    chain: int = 0  # Barrage's successive hits
    vicious: str = ""  # the stage after Vicious's "may" (L2269)
    fx: list[tuple[str, int]] = field(default_factory=list)  # On Hit/Crit/Injury effects left
    injured: bool = False  # the attack injured its target (the effects of being hit follow)
    push: str = ""  # Knockback's diagonal, as the attacker chose it: "x" or "y" (L1943-1944)


@dataclass
class Window:
    """A reaction window (L891-899): the condition, the players still to answer in order."""

    trigger: str  # "attack", "hit", "injury", "defeat", "no injury", "ranged hit", "enter",
    # "activation", "ability"
    players: list[int]
    unit: int | None = None  # the character the condition is about
    source: int | None = None  # the enemy causing it
    ability: str | None = None  # the ability being used (Distract, Trip)


@dataclass
class Suspended:
    """An action stopped at a D10 to ask a player about Plan Ahead (before the roll,
    L2062-2065) or Luck (after it, L1977-1980). The state around it is the state before the
    action; answering re-runs the action with the same dice and the answers so far
    (docs/collision-game.md, "Dice decisions").

    ``ask``: (roll number, ``plan`` or ``luck``, the character, its player, the roll's label,
    the face rolled or ``None`` before the roll, whether a high face is good for that
    character).
    """

    action: Annotated[CollisionAction, Field(discriminator="kind")]
    player: int  # who took the action
    stage: str  # the stage it was taken in
    draws: list[int] = field(default_factory=list)  # every D10 drawn so far, in order
    answers: dict[str, bool] = field(default_factory=dict)  # "3:plan", "5:luck:2"
    emitted: int = 0  # events already given out
    ask: tuple[int, str, int, int, str, int | None, bool] = (0, "luck", 0, 0, "", None, True)


@dataclass
class Placement:
    """An objective token a player must place (L557-565)."""

    player: int
    kind: str
    rule: str
    owner: int | None = None


@dataclass
class CollisionState:
    """A whole Collision game at one moment."""

    seed: int
    setup_key: str
    setup_json: str
    step: int = 0
    stage: str = "role"  # role, zone, diagonal, marker, nominate, deploy, piles, activate,
    # act, react, knockback, checkmate, over
    turn: int = 0
    turn_limit: int = 5
    major: str = ""
    minors: tuple[str, str] = ("", "")
    contest_winner: int = 0  # won the Command contest for sides (L620-627)
    attacker: int = 0
    zone_of: tuple[str, str] = ("", "")  # each player's deployment zone key
    rising: bool = True  # the diagonal (L664-674)
    first: int = 0  # activates first this turn (L771-773)
    phase: int = 1
    player: int = 0  # whose activation or deployment it is
    active: int | None = None  # the activating character
    units: list[Unit] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    terrain: list[tuple[int, int, str, int]] = field(default_factory=list)  # x, y, kind, height
    placements: list[Placement] = field(default_factory=list)
    nominated: dict[str, int] = field(default_factory=dict)  # "headhunter", "map0", "map1"
    attack: AttackCtx | None = None
    attack_stack: list[AttackCtx] = field(default_factory=list)  # a reaction's own attack
    checkmate: tuple[int, Attack] | None = None  # a Checkmate waiting for its allies' EC
    window: Window | None = None
    path: list[Square] = field(default_factory=list)  # the rest of a move (Counter Attack)
    path_unit: int | None = None
    path_from: Square | None = None  # the square the mover just left
    path_facing: str = "N"
    ability_call: tuple[int, str, int | None, Square | None, str | None] | None = None
    after_window: str = ""  # what resumes after a reaction window: "attack", "move", "act",
    # "activation"
    vp: list[int] = field(default_factory=lambda: [0, 0])  # VP scored during play
    favor: list[int] = field(default_factory=lambda: [0, 0])  # God's Favor (L1380-1383)
    glory: list[int] = field(default_factory=lambda: [0, 0])  # Glorious Combat (L1385-1391)
    channel: list[int] = field(default_factory=lambda: [0, 0])  # Mystic Obelisk (L1239-1242)
    spotted: list[bool] = field(default_factory=lambda: [False, False])  # Lost Trinket
    # each player's Upheaval piece, its terrain entries (L2259-2260)
    upheaval: list[list[tuple[int, int, str, int]]] = field(default_factory=lambda: [[], []])
    planned: list[int | None] = field(default_factory=lambda: [None, None])  # Plan Ahead
    haste: list[int] = field(default_factory=list)  # allies still to make their Haste move
    suspended: Suspended | None = None  # an action waiting for a dice decision
    winner: int | None = None
    scores: list[float] = field(default_factory=lambda: [0.0, 0.0])
    reason: str = ""
    log: list[str] = field(default_factory=list)  # the last step's event texts (for views)


def clone(s: CollisionState) -> CollisionState:
    """A deep copy of the state, field by field (faster than ``copy.deepcopy``)."""
    from copy import deepcopy
    from dataclasses import replace

    out = replace(
        s,
        units=[
            replace(
                u, statuses=dict(u.statuses), weapons_used=list(u.weapons_used), used=list(u.used)
            )
            for u in s.units
        ],
        markers=[replace(m) for m in s.markers],
        terrain=list(s.terrain),
        placements=[replace(p) for p in s.placements],
        nominated=dict(s.nominated),
        attack=deepcopy(s.attack),
        attack_stack=deepcopy(s.attack_stack),
        window=deepcopy(s.window),
        path=list(s.path),
        vp=list(s.vp),
        favor=list(s.favor),
        glory=list(s.glory),
        channel=list(s.channel),
        spotted=list(s.spotted),
        upheaval=[list(x) for x in s.upheaval],
        planned=list(s.planned),
        haste=list(s.haste),
        suspended=deepcopy(s.suspended),
        scores=list(s.scores),
        log=list(s.log),
    )
    out.__dict__.pop("_memo", None)
    return out


# --------------------------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChooseRole:
    """The Command contest winner chooses Attacker or Defender (L620-627)."""

    role: Literal["attacker", "defender"]
    kind: Literal["role"] = "role"


@dataclass(frozen=True)
class ChooseZone:
    """The defender chooses a deployment zone (L626-628, L632-674)."""

    zone: str
    kind: Literal["zone"] = "zone"


@dataclass(frozen=True)
class ChooseDiagonal:
    """The attacker divides the board diagonally (L664-674): rising from the bottom-left."""

    rising: bool
    kind: Literal["diagonal"] = "diagonal"


@dataclass(frozen=True)
class PlaceMarker:
    """Place an objective token on a square (L557-565); ``None`` only when no square is
    allowed."""

    at: Square | None
    kind: Literal["marker"] = "marker"


@dataclass(frozen=True)
class Nominate:
    """Nominate a character (Headhunter L1222-1225, Map Carriers L1343-1346)."""

    unit: int
    kind: Literal["nominate"] = "nominate"


@dataclass(frozen=True)
class Deploy:
    """Deploy a character on a square facing a direction, or set it aside for reinforcements
    when it cannot be deployed (L688-724)."""

    unit: int
    at: Square | None
    facing: str = "N"
    kind: Literal["deploy"] = "deploy"


@dataclass(frozen=True)
class Piles:
    """Sort the hand into the three phase piles (L774-776, L682-686): unit ids per phase."""

    piles: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    kind: Literal["piles"] = "piles"


@dataclass(frozen=True)
class Activate:
    """Activate a character of the current phase pile (L778-784)."""

    unit: int
    kind: Literal["activate"] = "activate"


@dataclass(frozen=True)
class Move:
    """A movement action (L806-863): Step, Maneuver or Run to a square, then a facing;
    ``special`` names a special movement action (Pounce, Haste's move)."""

    mode: Literal["step", "maneuver", "run", "pounce", "haste", "arrive"]
    to: Square
    facing: str
    kind: Literal["move"] = "move"


@dataclass(frozen=True)
class Attack:
    """A weapon attack or a special attack (L865-881): the weapon, the ability (if any), the
    target character, or a square (blast centre) and the line's squares."""

    target: int | None
    weapon: str | None = None
    ability: str | None = None
    at: Square | None = None
    line: tuple[Square, ...] = ()
    kind: Literal["attack"] = "attack"


@dataclass(frozen=True)
class UseAbility:
    """A special action that is not an attack (L872-876), or an objective action (pick up,
    Raid, Search, Channel, Tribute ...), with its target character, square or option."""

    ability: str
    target: int | None = None
    at: Square | None = None
    option: str | None = None
    kind: Literal["ability"] = "ability"


@dataclass(frozen=True)
class Hold:
    """Hold (L883-889): no other action this activation; may change facing."""

    facing: str
    kind: Literal["hold"] = "hold"


@dataclass(frozen=True)
class EndActivation:
    """End the action step; the recovery step follows (L786-788, L901-910)."""

    kind: Literal["end"] = "end"


@dataclass(frozen=True)
class React:
    """Use a reaction (L891-899) with a character, or pass (``unit`` None). ``at`` is a
    square when the reaction moves (Sidestep) or swaps (Castle)."""

    unit: int | None = None
    ability: str | None = None
    target: int | None = None
    at: Square | None = None
    kind: Literal["react"] = "react"


@dataclass(frozen=True)
class Push:
    """Knockback's diagonal (L1943-1944 "If the movement is diagonal and there is no clear
    destination, it is the attacker's choice"): the first square the knocked back character
    is pushed onto, along one of the two axes."""

    to: Square
    kind: Literal["knockback"] = "knockback"


@dataclass(frozen=True)
class PayCheckmate:
    """Checkmate (L1659-1663 "If two or more friendly units are also within melee reach they
    may pay EC for their weapon"): the two allies who pay, or none (no Slay on a hit)."""

    helpers: tuple[int, ...]
    kind: Literal["checkmate"] = "checkmate"


@dataclass(frozen=True)
class HasteMove:
    """Haste (L1820-1823): an ally within command moves up to its Move now, in addition to
    its normal movement; ``to`` None: that ally does not move."""

    unit: int
    to: Square | None
    facing: str = "N"
    kind: Literal["haste"] = "haste"


@dataclass(frozen=True)
class UsePlan:
    """Plan Ahead (L2062-2065): use the D10 set aside instead of rolling this one, or roll."""

    use: bool
    kind: Literal["plan"] = "plan"


@dataclass(frozen=True)
class SpendLuck:
    """Luck (L1977-1980): spend a luck token to re-roll the D10 just rolled, or keep it."""

    spend: bool
    kind: Literal["luck"] = "luck"


CollisionAction = (
    ChooseRole
    | ChooseZone
    | ChooseDiagonal
    | PlaceMarker
    | Nominate
    | Deploy
    | Piles
    | Activate
    | Move
    | Attack
    | UseAbility
    | Hold
    | EndActivation
    | React
    | Push
    | PayCheckmate
    | HasteMove
    | UsePlan
    | SpendLuck
)
ACTION_TYPE = Annotated[CollisionAction, Field(discriminator="kind")]
