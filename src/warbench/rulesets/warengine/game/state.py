"""The state of a WarEngine 2.1 game and its actions (004_f4ea5693af0644ce.txt L285-633).

Flow (phase, turn, whose activation, open reserve windows, attacks awaiting Hero Points) is
kept apart from the board (figures and units), as boardgame.io does. States are plain
dataclasses; the rules copy a state (:meth:`GameState.clone`) before changing it, so every
``apply`` is pure. Actions are small frozen dataclasses tagged by ``kind``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import Field

BOOK = "004_f4ea5693af0644ce.txt"


def rule(line: int | str) -> str:
    """A rule reference into the book: ``rule(409)`` -> ``"004_f4ea5693af0644ce.txt L409"``."""
    return f"{BOOK} L{line}"


# --------------------------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    """Chance's outcome of a roll-off: ``winner`` is the player who rolled highest (L305,
    L362: the lowest roll places first; the highest chooses who goes first)."""

    winner: int
    kind: Literal["roll"] = "roll"


@dataclass(frozen=True)
class Place:
    """Place figure ``fig`` with its centre at ``(x, y)`` (L301-L309)."""

    fig: int
    x: float
    y: float
    form: int = 0  # Shapechanger: the form it is deployed in (L1615)
    kind: Literal["place"] = "place"


@dataclass(frozen=True)
class First:
    """The initiative winner decides which player activates first this turn (L342, L362)."""

    player: int
    kind: Literal["first"] = "first"


@dataclass(frozen=True)
class Activate:
    """Activate unit ``unit``; with ``join`` a character activates together with the trooper
    unit ``join`` as a single unit (L375)."""

    unit: int
    join: int | None = None
    kind: Literal["activate"] = "activate"


@dataclass(frozen=True)
class Move:
    """Move figure ``fig`` to ``(x, y)`` in a straight line (L403-L409). ``mode``: ``move``,
    ``fast`` (Fast Move, +1/3, L415) or ``charge`` (Charging, +1/3 into close combat, L425);
    ``continue`` is internal: the rest of a move paused for a lunge (L407, L583)."""

    fig: int
    x: float
    y: float
    mode: Literal["move", "fast", "charge", "continue"] = "move"
    kind: Literal["move"] = "move"


@dataclass(frozen=True)
class Attack:
    """Figure ``fig`` attacks ``target`` with its weapon ``weapon`` (index into its weapons;
    Multiprofile weapons are split into one entry per profile). ``helpers`` are figures of the
    same unit using their reserved attacks for a Massed Attack (L553); ``secondary`` the
    figures a Close Combat area effect weapon also affects (L513)."""

    fig: int
    weapon: int
    target: int
    helpers: tuple[int, ...] = ()
    secondary: tuple[int, ...] = ()
    via: int | None = None  # Telepathic Command: the character whose Mental is lent (L1297)
    av: str | None = None  # Induce Drug Frenzy: a lower Attack Value, "XkY" (L1123)
    at: tuple[float, float] | None = None  # Teleport's destination, Shove's landing point
    # Scrounger: [the victim's weapon slot, the own slot given for it] if the attack kills in
    # close combat, [-1, -1] to keep its weapons (L1609); Drain Power: what the target loses,
    # a Special Power, a personal edge or "active:<tag>" (L1069); None: the engine's choice
    take: tuple[int, int] | None = None
    lose: str | None = None
    kind: Literal["attack"] = "attack"


@dataclass(frozen=True)
class Reserve:
    """Figure ``fig`` puts its unused weapon ``weapon`` on reserve; its last action (L573)."""

    fig: int
    weapon: int
    every: bool = False  # Bushwhacker: all its weapons of that kind, ranged or CC (L1471)
    kind: Literal["reserve"] = "reserve"


@dataclass(frozen=True)
class Deactivate:
    """Tell the opponent you are done with the unit (L595)."""

    kind: Literal["deactivate"] = "deactivate"


@dataclass(frozen=True)
class ReserveFire:
    """Use figure ``fig``'s reserved attack on ``target`` out of sequence (L575-L579); with
    ``lunge`` the figure first lunges into base contact (L583)."""

    fig: int
    target: int
    lunge: bool = False
    kind: Literal["reserve fire"] = "reserve fire"


@dataclass(frozen=True)
class Pass:
    """Use no (more) reserved attacks now."""

    kind: Literal["pass"] = "pass"


@dataclass(frozen=True)
class Hero:
    """Spend ``points`` Hero Points on the roll awaiting them (L491-L497)."""

    points: int
    kind: Literal["hero"] = "hero"


@dataclass(frozen=True)
class Reroll:
    """Reroll the roll the pending ``reroll`` decision names (Lucky Bastard L1585, Charmed
    L1489: its owner's; Hard Luck L1391, Fickle Finger of Fate L1519: the opponent's), or
    let it stand."""

    use: bool
    kind: Literal["reroll"] = "reroll"


@dataclass(frozen=True)
class Leader:
    """Pick ``fig`` as the unit's leader among tied candidates ("You Pick", L334)."""

    fig: int
    kind: Literal["leader"] = "leader"


@dataclass(frozen=True)
class Shape:
    """A Shapechanger changes to (or stays in) form ``form`` in the Follow Up step (L1615)."""

    fig: int
    form: int
    kind: Literal["shape"] = "shape"


@dataclass(frozen=True)
class Transfer:
    """Pass (or keep) the Transferable weapon of figure ``fig``, removed from the table, to
    the nearest figure of its unit within 3" (L1845-L1847)."""

    fig: int
    use: bool
    kind: Literal["transfer"] = "transfer"


@dataclass(frozen=True)
class Push:
    """Figure ``fig``, in base contact with the friendly Monstrously Huge vehicle ``vehicle``,
    gives up the movement it has left to push it toward ``(x, y)`` in the Follow Up step
    (L1403)."""

    fig: int
    vehicle: int
    x: float
    y: float
    kind: Literal["push"] = "push"


@dataclass(frozen=True)
class Surge:
    """Figure ``fig`` of the active unit spends ``points`` of the Hero Points Invigorate gave
    it for as many inches more Movement until the Follow Up step (L1135: "These Hero Points
    may also be used to increase the figure's movement by 1\" per Hero Point expended")."""

    fig: int
    points: int
    kind: Literal["surge"] = "surge"


WarEngineAction = (
    Roll
    | Place
    | First
    | Activate
    | Move
    | Attack
    | Reserve
    | Deactivate
    | ReserveFire
    | Pass
    | Hero
    | Leader
    | Reroll
    | Shape
    | Transfer
    | Push
    | Surge
)
ACTION_TYPE = Annotated[WarEngineAction, Field(discriminator="kind")]


# --------------------------------------------------------------------------------------------
# Board state
# --------------------------------------------------------------------------------------------


@dataclass
class Fig:
    """One figure on (or off) the board, with what it has done since its unit activated."""

    id: int
    side: int
    unit: int
    name: str  # key into the force's figures
    x: float = -1.0
    y: float = -1.0
    placed: bool = False
    alive: bool = True
    routed: bool = False
    hero: int = 0
    moved: bool = False  # moved since its unit's last activation (Did Not Move, L475, L480)
    used: int = 0  # inches of movement allowance used this activation (part inches, L405)
    mode: str = ""  # "", "move", "fast", "charge"
    attacked: bool = False  # made or reserved an attack this activation (Fast Moves, L415)
    charged: bool = False  # its next close combat attack has the Charge bonus (L425)
    charge_from: float = 0.0  # how far it was from the foe when the charge began (L1759)
    done: bool = False  # reserved: its actions are over (L573)
    fired: list[int] = field(default_factory=list)  # weapons used this activation
    reserved: int | None = None  # weapon on reserve (L573)
    reserve_more: list[int] = field(default_factory=list)  # Bushwhacker's other reserves (L1471)
    controlled: bool = True  # L393: uncontrolled figures read sixes as fives
    one_shot: list[int] = field(default_factory=list)  # weapons spent for the game
    reloaded: dict[int, int] = field(default_factory=dict)  # Slow Reload: turn last fired
    entangled_by: int | None = None  # Entangling (L1763)
    burning: list[list[int]] = field(
        default_factory=list
    )  # follow-up attacks [fig, weapon, x10, y10]
    bonus: dict[str, int] = field(default_factory=dict)  # timed effects of powers
    vendetta: int | None = None  # Vindictive: the figure it must keep attacking (L1457)
    marks: list[str] = field(default_factory=list)  # once-per-game uses spent (Charmed L1489)


@dataclass
class Kit:
    """What a figure carries when it differs from its set-up profile (weapons and tweaks as
    state): its Shapechanger form (L1615), its weapon slots as ``[figure, form, slot]`` of
    the force's weapons (Scrounger L1609, Transferable L1845; empty: its own), the Special
    Powers and edges it lost through Drain Power (L1069), the slots received that it may not
    use before its next activation (L1845), the turn its form was last asked, and Restore
    Vehicle Spirit's wreck and combined figure (L1199)."""

    form: int = 0
    arms: list[list[int]] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    fresh: list[int] = field(default_factory=list)
    asked: int = 0
    # Restore Vehicle Spirit (L1199): a destroyed vehicle left in place disabled (``wreck``);
    # the vehicle a user is combined with (``ride``) and the weapon set it used this turn,
    # ``[turn, 0 own / 1 the vehicle's]``
    offers: list[list[int]] = field(default_factory=list)  # Transferable: [slot, receiver]
    wreck: bool = False
    ride: int | None = None
    ridden: list[int] = field(default_factory=list)


@dataclass
class UnitState:
    """A unit as the game sees it: its figures, leader and turn bookkeeping."""

    id: int
    side: int
    name: str
    figs: list[int]
    tweaks: list[str]
    character: bool  # a character acting alone (L371)
    solo: bool  # a character, vehicle or monster acting alone: never checks control (L395)
    points: int
    leader: int | None = None
    start_size: int = 0
    activated: bool = False
    lost_this_turn: int = 0
    lost_leader: bool = False
    attacked_this_turn: bool = False
    must_test: bool = False  # Terror, Terrifying (L1313, L1649)
    tests_taken: int = 0  # Well Trained (L1887)
    skip_next: bool = False  # Chittering Hordes: loses its next activation (L1047)
    joined: int | None = None  # the trooper unit a character activated with (L375)
    gone: bool = False  # destroyed or routed
    routed: bool = False


@dataclass
class Resolution:
    """An attack already rolled, awaiting Hero Point decisions (L491-L497) before it is
    resolved. ``targets`` are ``[fig, defense total]``; the attacker decides first."""

    attacker: int
    weapon: int
    label: str
    attack: int
    targets: list[list[int]]
    power: str | None = None
    spent: int | None = None  # attacker's Hero Points (None: not decided yet)
    decided: int = 0  # how many defenders have decided
    cc: bool = False
    mental: bool = False  # defended with Mental (Special Powers, Mental Attack)
    effects: list[str] = field(default_factory=list)  # after-effects by tag
    # the rolls' pools for rerolls (L493): [fig, rolled, kept, floor, cap], the attacker's
    # first; ``flat`` is added to the attack's total (Induce Drug Frenzy); ``asked`` counts
    # the reroll questions already answered (attack own, attack forced, then each target's)
    pools: list[list[int]] = field(default_factory=list)
    flat: int = 0
    asked: int = 0


@dataclass
class Window:
    """An open chance for the other player to use reserved attacks (L407, L575-L583).

    ``kind``: ``move`` (the enemy figure ``mover`` moved from ``start``) or ``counter`` (the
    attack ``declared`` is about to hit a figure with a reserved attack: simultaneous, L575).
    """

    kind: str
    player: int
    mover: int
    start: tuple[float, float] = (0.0, 0.0)
    declared: Attack | None = None
    used: list[int] = field(default_factory=list)


@dataclass
class GameState:
    """A whole WarEngine game at one moment."""

    seed: int
    setup_key: str  # which set-up (forces, board, options) this state belongs to
    figs: list[Fig]
    units: list[UnitState]
    step: int = 0
    turn: int = 1
    phase: str = "placement"  # placement, initiative, conflict, follow up, over
    # placement: groups of figure ids by movement, the player placing now
    place_order: list[list[int]] = field(default_factory=list)  # [[side, mv], ...]
    place_roll: bool = False  # a roll-off is pending for the current group (L305)
    placing: int | None = None
    initiative: int | None = None  # the roll-off winner, deciding who goes first
    first: int | None = None
    to_act: int = 0  # whose activation comes next
    active_unit: int | None = None
    active_units: list[int] = field(default_factory=list)  # the unit and a joined unit
    resume: list[int] = field(default_factory=list)  # an activation waiting for Fervor's (L1089)
    window: Window | None = None
    queue: list[Resolution] = field(default_factory=list)
    then: Move | None = None  # a move waiting for free attacks (Leaving Close Combat, L567)
    leader_choice: list[int] = field(default_factory=list)  # [unit, candidates...]
    vp: list[int] = field(default_factory=lambda: [0, 0])
    winner: int | None = None
    reason: str = ""
    log_kills: list[list[int]] = field(default_factory=list)  # [killer, victim]
    # figures whose weapons, tweaks or form differ from the set-up (game/kit.py); written to
    # JSON only when not empty, so games without them keep their digests
    kit: dict[int, Kit] = field(default_factory=dict)

    def clone(self) -> GameState:
        """A copy to change (the input of ``apply`` is never modified): figures and units are
        copied one by one (much faster than ``copy.deepcopy``); flow objects are deep-copied."""
        new = copy.copy(self)
        new.figs = [_copy_fig(f) for f in self.figs]
        new.units = [_copy_unit(u) for u in self.units]
        new.place_order = [list(g) for g in self.place_order]
        new.active_units = list(self.active_units)
        new.resume = list(self.resume)
        new.window = None if self.window is None else copy.deepcopy(self.window)
        new.queue = copy.deepcopy(self.queue) if self.queue else []
        new.leader_choice = list(self.leader_choice)
        new.vp = list(self.vp)
        new.log_kills = [list(k) for k in self.log_kills]
        new.kit = copy.deepcopy(self.kit) if self.kit else {}
        return new


def _copy_fig(f: Fig, new: Any = object.__new__) -> Fig:
    """A copy of ``f``: its attribute dict copied once and given as a whole, the containers
    copied by slicing (twice as fast as setting each attribute, issue 16 speed)."""
    g: Fig = new(Fig)
    d = f.__dict__.copy()
    d["fired"] = d["fired"][:]
    d["reserve_more"] = d["reserve_more"][:]
    d["one_shot"] = d["one_shot"][:]
    d["reloaded"] = d["reloaded"].copy()
    burning = d["burning"]
    d["burning"] = [b[:] for b in burning] if burning else []
    d["bonus"] = d["bonus"].copy()
    d["marks"] = d["marks"][:]
    g.__dict__ = d
    return g


def _copy_unit(u: UnitState, new: Any = object.__new__) -> UnitState:
    v: UnitState = new(UnitState)
    d = u.__dict__.copy()
    d["figs"] = d["figs"][:]
    d["tweaks"] = d["tweaks"][:]
    v.__dict__ = d
    return v
