"""The decisions of a WARSURGE game as typed, serialisable values.

A game record is a list of these (OpenSpiel: a game is its actions; chance comes from the
recorded seed). Each action is made by the side whose turn it is (``GameState.flow.active``),
or, for :class:`ChooseTurnMaster`, by the roll-off winner.

Positions are optional wherever the engine can place models itself
(:attr:`~.state.Automation.MODEL_PLACEMENT`): ``Deploy(unit, at=(x, y))`` places the unit in a
compact formation around a point; ``Move(unit, to=(x, y))`` moves it toward a point;
``Move(unit, engage=target)`` moves it into Base Contact with an enemy unit (§4.3).
Explicit ``positions`` (one point per model still on the table, in model order) are always
accepted and checked model by model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from warbench.kernel.errors import DataFileError
from warbench.rulesets.warsurge.game.actions_advanced import (
    Counter,
    EndStep,
    Guard,
    Prepare,
    Support,
    UsePerks,
)

Point = tuple[float, float]


@dataclass(frozen=True)
class ChooseTurnMaster:
    """The roll-off winner names the Turn Master, themselves or another side (§2.1)."""

    side: int


@dataclass(frozen=True)
class ChooseZone:
    """Choose a Deployment Zone on the first Game Turn, in roll-off order (§3.6 step 2)."""

    zone: int


@dataclass(frozen=True)
class Deploy:
    """Place a unit from Reserve in the side's Deployment Zone (§3.6, §2.2 step 2), with
    passengers already embarked if it is a Transport (§6.1); or, with ``into``, deploy it inside
    that friendly Transport with Rift Gate wherever it stands (Perks L1384)."""

    unit: int
    at: Point | None = None
    positions: tuple[Point, ...] | None = None
    passengers: tuple[int, ...] = ()
    into: int | None = None

    def __repr__(self) -> str:  # ``into`` only when set: seeded games' records hash as before
        into = f", into={self.into!r}" if self.into is not None else ""
        return (
            f"Deploy(unit={self.unit!r}, at={self.at!r}, positions={self.positions!r}, "
            f"passengers={self.passengers!r}{into})"
        )


@dataclass(frozen=True)
class Move:
    """A Move (Move Phase) or a Dash (Dash Phase) of one unit (§4.1, §2.2 steps 3 and 5)."""

    unit: int
    to: Point | None = None
    positions: tuple[Point, ...] | None = None
    engage: int | None = None  # move into Base Contact with this enemy unit (§4.3)
    dash: bool = False
    #: the facing (degrees from +x) the moving models of an oval or rectangular base end with
    #: (§1.3, game/bases.py); None: they keep theirs
    facing: float | None = None

    def __repr__(self) -> str:  # as before ``facing`` was added, unless one is given
        turn = "" if self.facing is None else f", facing={self.facing!r}"
        return (
            f"Move(unit={self.unit!r}, to={self.to!r}, positions={self.positions!r}, "
            f"engage={self.engage!r}, dash={self.dash!r}{turn})"
        )


@dataclass(frozen=True)
class Embark:
    """Move or Dash into contact with a friendly Transport and embark it (§6.2)."""

    unit: int
    transport: int
    dash: bool = False


@dataclass(frozen=True)
class Disembark:
    """Leave a Transport: place the unit within its Move or Dash of the Transport (§6.3); with
    ``reserve``, leave a Transport with Rift Gate into Reserve instead (Perks L1384)."""

    unit: int
    to: Point | None = None
    positions: tuple[Point, ...] | None = None
    dash: bool = False
    reserve: bool = False

    def __repr__(self) -> str:  # ``reserve`` only when set: seeded games' records hash as before
        reserve = ", reserve=True" if self.reserve else ""
        return (
            f"Disembark(unit={self.unit!r}, to={self.to!r}, positions={self.positions!r}, "
            f"dash={self.dash!r}{reserve})"
        )


#: One share of an Attack: ``(weapon, target)`` for every model that can use the weapon
#: against the target, or ``(weapon, target, models)`` for those models only (0-based model
#: indices, as in the unit's state). A weapon may be split among targets (§5.3, 001
#: L2311-2319): each share names its models, and a model's Attacks with one weapon go at one
#: unit.
Share = tuple[str, int] | tuple[str, int, tuple[int, ...]]


@dataclass(frozen=True)
class Attack:
    """One unit's attacks: each weapon profile against one target unit, or split among
    targets model by model (§5.3, §2.2 step 4).

    ``burst`` and ``darkside`` are the player's choices for weapons with those perks (Perks
    §12.5): ``(weapon, True/False)`` uses (or keeps) the weapon's once-per-game Burst;
    ``(weapon, power, attacks)`` buys Darkside's +0..+3 Power and Attacks. Weapons left out
    are decided by the engine when :attr:`~.state.Automation.PERK_USE` is on, else unused."""

    unit: int
    targets: tuple[Share, ...]  # (weapon profile name, target unit id[, models])
    burst: tuple[tuple[str, bool], ...] = ()
    darkside: tuple[tuple[str, int, int], ...] = ()
    #: (weapon, x, y): where a Force Weapon pushes its Target, where a Trap Weapon places its
    #: marker (Perks L3837, L4085; ``perk_aim``); weapons left out: the engine's choice. Left
    #: out of the repr (the seeded games' fingerprints hash the actions' reprs).
    aim: tuple[tuple[str, float, float], ...] = field(default=(), repr=False)
    #: (weapon, models): the Target's models a Precision Weapon singles out first, in order
    #: (Perks L3993; ``perk_precision``); weapons left out: the engine's choice. Not in the repr.
    single_out: tuple[tuple[str, tuple[int, ...]], ...] = field(default=(), repr=False)


@dataclass(frozen=True)
class Casualties:
    """The controlling player chooses which models of ``unit`` lose the HP of the attack that
    waits (§5.11 "The player who controls the Unit will choose which models are the
    casualties", §5.13: only models in line of sight of the attacker, any model in a Melee).

    ``models`` is an order of preference: HP loss goes to whole models, wounded models first
    (§5.12) and models with upgraded saves first (§5.16), and within that to the models listed
    first; models not listed follow in roster order. Asked only when
    :attr:`~.state.Automation.CASUALTY_SELECTION` is off.
    """

    unit: int
    models: tuple[int, ...] = ()


@dataclass(frozen=True)
class Restore:
    """The controlling player moves models of ``unit`` back into Coherency at the end of the
    Attack Phase, after its casualties were removed (§4.2 IV: "not a Move or Dash"; §5.11).

    ``positions`` gives every model still on the battlefield (in model order) its place; asked
    only when :attr:`~.state.Automation.COHERENCY` is off, the engine's own (the fewest models
    moved the least distance) being the default."""

    unit: int
    positions: tuple[Point, ...] = ()


@dataclass(frozen=True)
class EmbarkTerrain:
    """Embark a terrain piece with a Transport Stat (§10.2 B/C, L4383-4391: "Units could treat
    these terrain features as a Transport"), with a Move (or a Dash): at least one model
    reaches the piece (or one of its gates, §10.5) and the whole unit goes inside. Leaving is a
    :class:`Disembark` of the unit.

    When the unit does not fit the Transport Capacity left, ``models`` names the models that
    go in (L4459-4464) and ``positions`` where the others end their Move outside, in Coherency
    with the piece (in model order; empty: the engine's choices, with
    ``Automation.MODEL_PLACEMENT``). A unit split so embarks more of its outside models into
    the same piece when space becomes available (L4462-4464)."""

    unit: int
    terrain: str
    dash: bool = False
    models: tuple[int, ...] = ()
    positions: tuple[Point, ...] = ()


@dataclass(frozen=True)
class Survivors:
    """The controlling player places the surviving models of ``unit``, a passenger of a
    Transport destroyed as a casualty (§6.6: "place surviving models where the Transport model
    once was ... then in a circular fashion around the other models"; models that cannot be
    placed are removed with no Saves).

    ``positions`` gives each living model not in ``lost`` its place (in model order); asked
    only when :attr:`~.state.Automation.MODEL_PLACEMENT` is off, the engine's placement (then
    its Coherency moves) being the default."""

    unit: int
    positions: tuple[Point, ...] = ()
    lost: tuple[int, ...] = ()


@dataclass(frozen=True)
class BaseContact:
    """The controlling player moves models of ``unit`` back into Base Contact with the Melee
    ``foe`` after casualties broke it (§4.4 III "place the minimum number of models into base
    contact with the closest enemy model ... while maintaining Coherency", §5.11).

    ``positions`` gives every model on the battlefield (in model order) its place; asked only
    when :attr:`~.state.Automation.COHERENCY` is off, the engine's move being the default."""

    unit: int
    foe: int
    positions: tuple[Point, ...] = ()


@dataclass(frozen=True)
class Delay:
    """Opportunist (Perks L1340): the unit delays to the end of the Game Turn its Move (Move
    Phase), its Dash (Dash Phase) or its Attack with Heal Weapons (Attack Phase); with
    ``perk_use``, its perk use instead (its action stays). Advanced: all its remaining Actions
    (``game/perk_opportunist.py``)."""

    unit: int
    perk_use: bool = False


@dataclass(frozen=True)
class Pass:
    """The side is finished with this phase (§2.2 step 3: "declared they were finished")."""


Action = (
    ChooseTurnMaster
    | ChooseZone
    | Deploy
    | Move
    | Embark
    | EmbarkTerrain
    | Disembark
    | Attack
    | Casualties
    | Restore
    | Survivors
    | BaseContact
    | Pass
    | Delay
    | UsePerks
    | Prepare
    | Guard
    | Support
    | EndStep
    | Counter
)

_KINDS: dict[str, type[Any]] = {
    "turn_master": ChooseTurnMaster,
    "zone": ChooseZone,
    "deploy": Deploy,
    "move": Move,
    "embark": Embark,
    "embark_terrain": EmbarkTerrain,
    "disembark": Disembark,
    "attack": Attack,
    "casualties": Casualties,
    "restore": Restore,
    "survivors": Survivors,
    "contact": BaseContact,
    "pass": Pass,
    "delay": Delay,  # Opportunist (Perks L1340)
    # the Advanced playstyle's own Actions (§9.2)
    "use_perks": UsePerks,
    "prepare": Prepare,
    "guard": Guard,
    "support": Support,
    "end_step": EndStep,
    "counter": Counter,
}
_NAMES = {v: k for k, v in _KINDS.items()}


def _pt(p: Any) -> Point:
    """A point read from JSON: ``[x, y]`` in inches, both finite (a ``ValueError`` says what
    is wrong; a Move toward a point off the board is legal, one toward infinity is no Move)."""
    try:
        x, y = (float(v) for v in p)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"a point is [x, y] in inches, not {p!r}") from exc
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ValueError(f"a point needs finite x and y, not {p!r}")
    return (x, y)


def action_to_dict(action: Action) -> dict[str, Any]:
    """A JSON-ready mapping (``kind`` plus the fields that are set)."""
    out: dict[str, Any] = {"kind": _NAMES[type(action)]}
    for name, value in vars(action).items():
        if value is None or value == () or value is False:
            continue
        if name in ("at", "to"):
            out[name] = [round(value[0], 6), round(value[1], 6)]
        elif name == "positions":  # exact (JSON keeps every double): the engine's placement
            out[name] = [[float(x), float(y)] for x, y in value]
        elif name == "targets":
            out[name] = [[s[0], s[1]] if len(s) == 2 else [s[0], s[1], list(s[2])] for s in value]
        elif name in ("burst", "darkside", "aim"):
            out[name] = [list(v) for v in value]
        elif name == "single_out":
            out[name] = [[w, list(ms)] for w, ms in value]
        elif name in ("passengers", "models", "perks", "lost"):
            out[name] = list(value)
        else:
            out[name] = value
    return out


def action_from_dict(data: dict[str, Any], source: str = "<record>") -> Action:
    """Read an action written by :func:`action_to_dict`."""
    kind = data.get("kind")
    cls = _KINDS.get(str(kind))
    if cls is None:
        raise DataFileError(source, f"unknown action kind {kind!r}; allowed: {sorted(_KINDS)}")
    try:
        kw = _fields(data, source)
    except (TypeError, ValueError, IndexError) as exc:  # a field of the wrong shape (issue 10)
        raise DataFileError(source, f"action {data!r}: {exc}") from exc
    try:
        action: Action = cls(**kw)
    except TypeError as exc:
        raise DataFileError(source, f"action {data!r}: {exc}") from exc
    return action


def _fields(data: dict[str, Any], source: str) -> dict[str, Any]:
    """The action's fields as its class takes them (points finite, numbers as numbers)."""
    kw: dict[str, Any] = {}
    for name, value in data.items():
        if name == "kind":
            continue
        if name in ("at", "to"):
            kw[name] = _pt(value)
        elif name == "positions":
            kw[name] = tuple(_pt(p) for p in value)
        elif name == "targets":
            kw[name] = tuple(_share(v, source) for v in value)
        elif name == "burst":
            kw[name] = tuple((str(w), bool(on)) for w, on in value)
        elif name == "darkside":
            kw[name] = tuple((str(w), int(p), int(a)) for w, p, a in value)
        elif name == "aim":
            kw[name] = tuple((str(w), float(x), float(y)) for w, x, y in value)
        elif name == "single_out":
            kw[name] = tuple((str(w), tuple(int(m) for m in ms)) for w, ms in value)
        elif name in ("passengers", "models", "lost"):
            kw[name] = tuple(int(v) for v in value)
        elif name == "perks":
            kw[name] = tuple(str(v) for v in value)
        else:
            kw[name] = value
    return kw


def _share(value: Any, source: str) -> Share:
    if not isinstance(value, list | tuple) or len(value) not in (2, 3):
        raise DataFileError(
            source, f"attack target {value!r}: [weapon, target] or [weapon, target, [models]]"
        )
    if len(value) == 2:
        return (str(value[0]), int(value[1]))
    return (str(value[0]), int(value[1]), tuple(int(m) for m in value[2]))


def round_point(p: Point) -> Point:
    """Points are recorded to 1e-6 inch; rounding first keeps replays bit-identical."""
    return (round(float(p[0]), 6), round(float(p[1]), 6))
