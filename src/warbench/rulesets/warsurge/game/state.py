"""The state of a WARSURGE game: frozen values, flow apart from the battlefield.

Core Rules (001_d3f5e425c5e1196d.txt) §2 (the game), §3.3 (players and teams), §3.6
(deployment), §6 (transports). The state is immutable: :func:`~.engine.apply` returns a new
state. What never changes (rosters, profiles, point costs, bases, the battlefield) lives in
:class:`GameSetup`; what changes (flow, positions, facings and HP, Melees, statuses) in
:class:`GameState`. Chance lives in the state too: the dice for a step derive from ``(seed,
step)``, so ``apply`` is a pure function of the state and the action, and a record replays.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

from warbench.kernel.dice import SeededDice, sequence_seed
from warbench.rulesets.warsurge.game import perk_arms
from warbench.rulesets.warsurge.game.advstate import AdvancedFlow, Playstyle
from warbench.rulesets.warsurge.game.digest import canonical_json
from warbench.rulesets.warsurge.game.digest import unit_state_fields as unit_state_fields
from warbench.rulesets.warsurge.game.pauses import CoherencyPause
from warbench.rulesets.warsurge.game.perk_decoy_units import trait_units
from warbench.rulesets.warsurge.game.perk_illusion_slots import with_illusion_slots
from warbench.rulesets.warsurge.game.perk_shared import model_weapons as shared_model_weapons
from warbench.rulesets.warsurge.game.terrain_army_value import army_points, army_values
from warbench.rulesets.warsurge.game.unit_marks import seized_side, status_names
from warbench.rulesets.warsurge.profiles import Unit

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.geom import Field

Point = tuple[float, float]

#: Base diameter used when a roster entry gives none (32 mm, a common infantry base; §1.3).
DEFAULT_BASE_MM = 32.0
MM_PER_INCH = 25.4


class Phase(StrEnum):
    """Where the game is in its flow (§2.2 steps 1-8)."""

    TURN_MASTER = "Turn Master"  # step 1: the roll-off winner picks the Turn Master
    ZONES = "Deployment Zones"  # step 1 (first Game Turn): zones chosen in roll order
    DEPLOY = "Deploy"
    MOVE = "Move"
    ATTACK = "Attack"
    DASH = "Dash"
    ACTIONS = "Action Steps"  # Advanced playstyle (§9.1 step 3)
    OPPORTUNIST = "Opportunist"  # the end of the Game Turn's delayed actions (Perks L1340)
    OVER = "Game Over"


class Location(StrEnum):
    """Where a unit is: in Reserve, on the Battlefield, embarked in a Transport, inside a
    terrain piece used as a Transport (§10.2 B/C; ``UnitGS.terrain`` names it), or destroyed."""

    RESERVE = "reserve"
    TABLE = "table"
    EMBARKED = "embarked"
    DESTROYED = "destroyed"
    TERRAIN = "terrain"


class Automation(StrEnum):
    """Mechanical decisions the engine makes by itself (PokerKit's Automation).

    A simulation automates everything. Without an automation, the decision is an action the
    player makes (``ChooseTurnMaster``, explicit model ``positions`` in Deploy/Move).
    """

    TURN_MASTER = "turn master"  # the roll-off winner picks themselves
    ZONE_CHOICE = "zone choice"  # each side takes the first free zone in its turn
    #: Deploy/Move to a point: the engine places the models; off: the players give positions,
    #: also for a destroyed Transport's survivors (§6.6, ``Survivors``)
    MODEL_PLACEMENT = "model placement"
    CASUALTY_SELECTION = "casualty selection"  # rules' order, then roster order (§5.11)
    #: restore Coherency after the Attack Phase's casualties by minimum moves (§4.2 IV), and
    #: Base Contact likewise (§4.4 III, §5.11), in both playstyles; off: each unit out of
    #: Coherency waits for its controller's ``Restore``, a Melee that lost its Base Contact for
    #: the ``BaseContact`` of the unit that moves (the defaults are the engine's moves)
    COHERENCY = "coherency"
    #: Burst and Darkside ("may", Perks §12.5) for the weapons an Attack leaves undecided:
    #: Burst when it raises the expected HP lost, Darkside's bonus with the best expected
    #: points (rules.choose_perk_use). Records without it (older games) never use them.
    PERK_USE = "perk use"


ALL_AUTOMATIONS: frozenset[Automation] = frozenset(Automation)


class UnitCoster(Protocol):
    """The full point cost of a unit (Book 2 §12.1). Injected: the points model lives apart."""

    def __call__(self, unit: Unit, listed: int | None) -> float: ...


def listed_points(unit: Unit, listed: int | None) -> float:
    """The default coster: the ``points`` written in the roster entry (the App's or a group's
    agreed price), else the warbench points model's price (``docs/points.md``)."""
    if listed is None:
        from warbench.rulesets.warsurge.points import cost_unit

        return float(cost_unit(unit).total)
    return float(listed)


#: Respawn (Perks L4205): a unit's respawns; it "counts as destroyed" (GameState.side_values).
RESPAWNS = "respawns"
#: Incorporeal (Perks L2502): the last Game Turn the unit was Incorporeal, active or deactivated.
INCORPOREAL_TURN = "incorporeal turn"


def current_point_cost(full_cost: float, total_hp: int, remaining_hp: int) -> float:
    """Current Point Cost (Perks 000_94ecc6a4c74d351b.txt line 98; Core §2.2 step 8):
    the unit's cost divided by its full HP, times its remaining HP."""
    if total_hp <= 0:
        return 0.0
    return full_cost * max(0, remaining_hp) / total_hp


# --------------------------------------------------------------------------------------------
# What does not change during a game
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RosterEntry:
    """One unit of a game roster: the unit, its listed points and its base size."""

    unit: Unit
    points: int | None = None
    base_mm: float = DEFAULT_BASE_MM
    name: str | None = None  # a label for this copy ("Troopers 2"), default the profile name
    traits: tuple[str, ...] = ()  # Traits chosen in the roster (Respawn, Summon …, §12.6)
    base: Any = None  # an oval or rectangular base or hull (§1.3, game/bases.py), else None


@dataclass(frozen=True)
class PlayerSetup:
    """A player: a name, a team (§3.3: a team acts as one player) and a roster."""

    name: str
    roster: tuple[RosterEntry, ...]
    team: str | None = None


@dataclass(frozen=True)
class UnitInfo:
    """The fixed facts of one unit in the game (its id is its index)."""

    uid: int
    player: int
    side: int
    label: str
    unit: Unit
    points: float
    radius: float  # base radius in inches (an oval's or rectangle's covering circle)
    model_weapons: tuple[tuple[str, ...], ...]
    hp_per_model: int
    immobile: bool  # Move 0 and Dash 0 (§4.1 Immobile Units)
    transport: int  # Transport Stat: points each model can carry (§6)
    fire_points: bool  # §1.5 Fire Point ("Yes"/"No" in the app; any value above 0 is Yes)
    weapon_types: Mapping[str, str]
    weapon_range: Mapping[str, int]
    #: value ``points * value_factor``: Fusion x10, Respawn /2, Summon /4 (Perks 000 L333-335)
    value_factor: float = 1.0
    traits: tuple[str, ...] = ()
    illusions: int = 0  # Illusion slots after the unit's own models (``perk_illusion_slots``)
    base: Any = None  # a battlefield ``Base`` that is oval or rect (§1.3, game/bases.py)

    @property
    def value(self) -> float:
        """The unit's value at full HP (its cost adjusted by Fusion, Respawn, Summon)."""
        return self.points * self.value_factor

    @property
    def models(self) -> int:
        return len(self.model_weapons)

    @property
    def real_models(self) -> int:
        """The unit's own models (not its Illusion slots, Perks L779)."""
        return len(self.model_weapons) - self.illusions

    @property
    def max_hp(self) -> int:
        return self.hp_per_model * self.real_models


@dataclass(frozen=True)
class GameSetup:
    """Everything agreed before the game starts (§2.1 Game Length, §4.8 terrain, §3.3 teams)."""

    players: tuple[PlayerSetup, ...]
    field: Field
    units: tuple[UnitInfo, ...]
    sides: tuple[str, ...]  # side names: a team, or a player without a team
    game_length: int | None = None  # None: random end from Game Turn 4 (§2.2 step 7)
    max_turns: int = 12  # safety cap for the random end (a d6 of 4+ continues)
    automation: frozenset[Automation] = ALL_AUTOMATIONS
    deploy_share: float = 0.5  # §3.6: at least 50% of the roster (in points) on Game Turn 1
    playstyle: Playstyle = Playstyle.STANDARD  # §8
    point_limit: int | None = None  # §9.1 step 2 (None: the largest roster's points)
    #: Decoy I-III (Perks L4161): (fake unit, its real unit, rank), the fake units last
    decoys: tuple[tuple[int, int, str], ...] = ()
    #: Summon (Perks L4219): (copy, its original, the Game Turn it is produced), copies last
    summons: tuple[tuple[int, int, int], ...] = ()

    def units_of_side(self, side: int) -> list[int]:
        return [u.uid for u in self.units if u.side == side]

    def roster_points(self, side: int) -> float:  # and the army's terrain (§10.2 L4424)
        own = army_points(self.field.board, side)
        return sum(u.points for u in self.units if u.side == side) + own


def value_factor(unit: Unit, traits: Sequence[str] = ()) -> float:
    """The factor of Perks 000 L333-335 for a unit with these profile perks and Traits:
    Fusion x10, Respawn /2, Summon /4 (the points model's table, by the catalog's names)."""
    from warbench.rulesets.warsurge.perks import PerkCatalog
    from warbench.rulesets.warsurge.points import trait_adjusted

    catalog = PerkCatalog.load()
    names = []
    for name in (*unit.profile.perks, *traits):
        found = catalog.find(name)
        names.append(found.name if found is not None else name)
    return trait_adjusted(1.0, names)


def build_setup(
    players: Sequence[PlayerSetup],
    field: Field,
    *,
    coster: UnitCoster = listed_points,
    game_length: int | None = None,
    max_turns: int = 12,
    automation: frozenset[Automation] = ALL_AUTOMATIONS,
    playstyle: Playstyle | str = Playstyle.STANDARD,
    point_limit: int | None = None,
) -> GameSetup:
    """Number the units, cost them with ``coster`` and group players into sides (§3.3)."""
    from warbench.kernel.errors import RulesError

    sides: list[str] = []
    infos: list[UnitInfo] = []
    for p_index, player in enumerate(players):
        side_name = player.team or player.name
        if side_name not in sides:
            sides.append(side_name)
        side = sides.index(side_name)
        seen: dict[str, int] = {}
        for entry in player.roster:
            unit = entry.unit
            base = entry.name or unit.name
            seen[base] = seen.get(base, 0) + 1
            label = base if seen[base] == 1 else f"{base} {seen[base]}"
            infos.append(
                UnitInfo(
                    uid=len(infos),
                    player=p_index,
                    side=side,
                    label=f"{player.name}: {label}",
                    unit=unit,
                    points=coster(unit, entry.points),
                    radius=entry.base.radius if entry.base else entry.base_mm / MM_PER_INCH / 2,
                    base=entry.base,
                    model_weapons=tuple(shared_model_weapons(unit)),  # Shared L4055
                    hp_per_model=unit.profile.hp,
                    immobile=(unit.profile.move == 0 and unit.profile.dash == 0)
                    or "Terrain" in unit.profile.perks,  # Perks L1410: "The User is Immobile"
                    transport=unit.profile.transport,
                    # Exposed (Perks L1280): "Set the User's Fire Points Stat to N"
                    fire_points=(
                        unit.profile.fire_points > 0 and "Exposed" not in unit.profile.perks
                    ),
                    weapon_types={w.name: w.type.value for w in unit.weapons},
                    weapon_range={w.name: w.range for w in unit.weapons},
                    value_factor=value_factor(unit, entry.traits),
                    traits=tuple(entry.traits),
                )
            )
            infos[-1] = with_illusion_slots(infos[-1])  # Illusion I-III (Perks L779)
    # Decoy I-III (Perks L4161), Summon (L4219): the units they add, after all others
    decoys, summons = trait_units(infos, max_turns)
    if len(sides) < 2:
        raise RulesError("a game needs at least two players or teams", "§2.2, §3.3")
    if len(field.zones) < len(sides):
        raise RulesError(
            f"the battlefield has {len(field.zones)} deployment zones for {len(sides)} sides",
            "§3.6",
        )
    if game_length is not None and game_length < 4:
        raise RulesError(f"a Game Length of {game_length} is too short; at least 4", "§2.1")
    return GameSetup(
        players=tuple(players),
        field=field,
        units=tuple(infos),
        sides=tuple(sides),
        game_length=game_length,
        max_turns=max_turns,
        automation=automation,
        playstyle=Playstyle(playstyle),
        point_limit=point_limit,
        decoys=decoys,
        summons=summons,
    )


# --------------------------------------------------------------------------------------------
# What changes
# --------------------------------------------------------------------------------------------


#: The status of a unit turned against its own side for the rest of the game (Traitorous,
#: Perks L2313; Enslaved, L1254; ``game/perk_defect.py``): an enemy of every other unit.
DEFECTED = "Defected"
#: The status of a unit another side controls, ``Seized by side <n>`` (Dominate, Perks L745;
#: ``game/perk_dominate.py``): that side acts with it and it is that side's for enemies.
SEIZED = "Seized by side "
#: The status of a casualty left on the Battlefield as terrain (Wreckage, Perks L1442;
#: ``game/perk_wreckage.py``): no value, no actions, no Objectives, 1 HP.
WRECKED = "Wreckage (terrain)"


@dataclass(frozen=True)
class Status:
    """A status on a unit with an optional duration in Game Turns (perk machinery)."""

    name: str
    turns: int | None = None  # None: until removed
    source: str = ""


@dataclass(frozen=True)
class UnitGS:
    """One unit's changing state. Per-model tuples are indexed like ``UnitInfo.model_weapons``.

    ``hp`` may be 0 for a casualty that is not yet removed (§5.11: removed at the end of the
    Attack Phase; it still attacks and still blocks line of sight, §5.15).
    """

    uid: int
    location: Location = Location.RESERVE
    pos: tuple[Point, ...] = ()
    hp: tuple[int, ...] = ()
    removed: tuple[bool, ...] = ()
    embarked_in: int | None = None
    acted: bool = False  # has made its action in the current phase
    moved: tuple[bool, ...] = ()  # per model: moved (Move or Dash, or embarked) this Game Turn
    heavy: tuple[bool, ...] = ()  # per model: used a Heavy weapon this Game Turn (§5.1)
    battle: tuple[bool, ...] = ()  # per model: used a Battle weapon this Game Turn (§5.1)
    unit_moved: bool = False  # made a Move this Game Turn (§6.8 for passengers)
    unit_dashed: bool = False
    statuses: tuple[Status, ...] = ()
    counters: tuple[tuple[str, int], ...] = ()
    uses: tuple[tuple[str, int], ...] = ()  # limited uses spent (Emergency Save, Burst …)
    terrain: str | None = None  # the terrain piece the unit is inside (Location.TERRAIN, §10.2)
    facing: tuple[float, ...] = ()  # per model, degrees from +x: oval/rect bases (game/bases.py)
    inside: tuple[int, ...] = ()  # on the table, these models inside ``terrain`` (L4459-4464)

    def evolve(self, **changes: Any) -> UnitGS:
        """``dataclasses.replace(self, **changes)`` without ``__init__``, keeping what was
        worked out from the fields not changed: :meth:`present`, :meth:`present_xy` and the
        status marks (``unit_marks``)."""
        if not changes.keys() <= _UNIT_FIELD_SET:
            raise TypeError(f"UnitGS has no field {sorted(changes.keys() - _UNIT_FIELD_SET)[0]!r}")
        out = object.__new__(UnitGS)
        d = out.__dict__
        d.update(self.__dict__)
        d.update(changes)
        if "removed" in changes or "inside" in changes:
            d.pop("_present", None)
        if "removed" in changes or "inside" in changes or "pos" in changes:
            d.pop("_present_xy", None)
        if "statuses" in changes:
            d.pop("_status_names", None)
            d.pop("_seized", None)
        d.pop("_digest_json", None)  # every field is in the digest (:func:`unit_json`)
        return out

    @property
    def on_table(self) -> bool:
        return self.location is Location.TABLE

    def present(self) -> list[int]:
        """Models on the battlefield (casualties included until removed), those of a unit
        split by a terrain piece's Transport Capacity that are inside it left out (L4460)."""
        cached: tuple[int, ...] | None = self.__dict__.get("_present")
        if cached is None:
            cached = tuple(i for i, r in enumerate(self.removed) if not r and i not in self.inside)
            object.__setattr__(self, "_present", cached)
        return list(cached)

    def present_xy(self) -> npt.NDArray[np.float64]:
        """The positions of :meth:`present` as an ``(n, 2)`` array, worked out once per
        (immutable) unit state; read-only (copy it to change it)."""
        cached: npt.NDArray[np.float64] | None = self.__dict__.get("_present_xy")
        if cached is None:
            pos = self.pos
            cached = np.asarray([pos[i] for i in self.present()], dtype=np.float64).reshape(-1, 2)
            cached.flags.writeable = False
            object.__setattr__(self, "_present_xy", cached)
        return cached

    def living(self) -> list[int]:
        return [i for i, r in enumerate(self.removed) if not r and self.hp[i] > 0]

    @property
    def current_hp(self) -> int:
        return sum(h for h, r in zip(self.hp, self.removed, strict=True) if not r and h > 0)

    def counter(self, name: str) -> int:
        return dict(self.counters).get(name, 0)

    def used(self, name: str) -> int:
        return dict(self.uses).get(name, 0)

    def has_status(self, name: str) -> bool:
        return bool(self.statuses) and name in status_names(self)

    @property
    def defected(self) -> bool:
        """Whether the unit has turned against its side (:data:`DEFECTED`)."""
        return bool(self.statuses) and DEFECTED in status_names(self)

    @property
    def wrecked(self) -> bool:
        """Whether the unit is Wreckage left on the Battlefield (:data:`WRECKED`)."""
        return bool(self.statuses) and WRECKED in status_names(self)

    @property
    def seized_by(self) -> int | None:
        """The side that has seized control of the unit (:data:`SEIZED`), or ``None``."""
        return seized_side(self, SEIZED) if self.statuses else None

    def table_side(self, side: int) -> int:
        """The side the battlefield index files the unit under: its own (``side``), the side
        that seized it, or one of its own (``-1 - uid``) once it has defected, an enemy to
        every other unit."""
        if not self.statuses:
            return side
        if self.defected:
            return -1 - self.uid
        seized = self.seized_by
        return side if seized is None else seized

    def controller(self, side: int) -> int:
        """The side that acts with the unit (``side``, its own, unless another seized it)."""
        if not self.statuses:
            return side
        seized = seized_side(self, SEIZED)
        return side if seized is None else seized

    def with_counter(self, name: str, value: int) -> UnitGS:
        d = dict(self.counters)
        d[name] = value
        return replace(self, counters=tuple(sorted(d.items())))

    def with_use(self, name: str, n: int = 1) -> UnitGS:
        d = dict(self.uses)
        d[name] = d.get(name, 0) + n
        return replace(self, uses=tuple(sorted(d.items())))


#: A unit's counter: how many times its current and max HP are doubled (Ascension, Descend).
HP_DOUBLED = "hp doubled"
#: A unit's counter: the Game Turn its Eternal was used in (0: not under Eternal; Perks L1511).
ETERNAL_TURN = "eternal turn"

#: the fields of :class:`UnitGS` (:meth:`UnitGS.evolve`)
_UNIT_FIELD_SET = frozenset(f.name for f in fields(UnitGS))


@dataclass(frozen=True)
class Flow:
    """Flow state (boardgame.io's ctx): Game Turn, Phase, Turn Master and whose action it is."""

    turn: int = 1
    phase: Phase = Phase.TURN_MASTER
    turn_master: int | None = None
    rolloff_winner: int | None = None
    roll_order: tuple[int, ...] = ()  # sides by roll-off score, highest first (§3.6 step 2)
    order: tuple[int, ...] = ()  # sides clockwise from the Turn Master (§2.1, §3.3)
    active: int | None = None  # side to act
    passed: frozenset[int] = frozenset()  # sides finished with this phase
    adv: AdvancedFlow | None = None  # Advanced playstyle only (§9.1)


@dataclass(frozen=True)
class CasualtyPause:
    """An Attack waiting, between its dice and its HP loss, for the target's controller to
    choose the casualties (§5.11, §5.13); only without ``Automation.CASUALTY_SELECTION``.

    ``candidates`` are the models that may lose HP (alive, in line of sight of the attacker
    unless in a Melee), in the engine's own order (the default choice). ``plan``, ``rolled``
    and ``dice`` carry the rest of the Attack: its later weapons, this weapon's rolled
    sequence, and the step's dice as they stood after the roll (copied on every resume, so a
    state can be resumed twice, by a search, with the same rolls).
    """

    attacker: int
    target: int
    weapon: int  # index in the Attack's plan of the weapon whose HP loss waits
    loss: int
    candidates: tuple[int, ...]
    heavy: tuple[bool, ...]
    battle: tuple[bool, ...]
    plan: Any = field(compare=False, repr=False)
    rolled: Any = field(compare=False, repr=False)
    dice: Any = field(compare=False, repr=False)
    #: how to make this state again (JSON keeps no rolled dice): the units before the Attack,
    #: the Attack, and the casualties chosen earlier in it; applying them again rolls the same
    origin: tuple[UnitGS, ...] = field(default=(), compare=False, repr=False)
    action: Any = field(default=None, compare=False, repr=False)
    choices: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)
    #: the attacker's own HP loss waits (Volatile, an Incantation's backlash: the attacking
    #: unit is ``target`` too, its controller chooses, §5.11); the weapon's HP loss on its
    #: target is applied already, ``target_state`` is that target as the attack left it
    own: bool = False
    target_state: Any = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """What the digest and a view show of the pause (the choice's terms)."""
        out: dict[str, Any] = {
            "attacker": self.attacker,
            "target": self.target,
            "weapon": self.weapon,
            "loss": self.loss,
            "candidates": list(self.candidates),
        }
        if self.own:
            out["own"] = True
        return out


@dataclass(frozen=True)
class GameState:
    """The whole game at one moment. Immutable; ``apply`` returns a new one."""

    setup: GameSetup = field(repr=False, compare=False)
    seed: int
    flow: Flow
    units: tuple[UnitGS, ...]
    engaged: frozenset[tuple[int, int]] = frozenset()  # Melee pairs (lower uid first)
    zones: tuple[int | None, ...] = ()  # deployment zone index of each side
    step: int = 0  # number of actions applied (the dice of step k derive from seed and k)
    result: GameResult | None = None
    #: an Attack waiting for the casualties to be chosen (§5.11), else None
    pause: CasualtyPause | None = None
    #: the end of the Attack Phase waiting for Coherency to be restored (§4.2 IV), else None
    restore: CoherencyPause | None = None
    #: terrain that lost HP (§10.3, ``game/terrain.py``): ``(piece, HP left)``, 0 destroyed
    terrain_hp: tuple[tuple[str, int], ...] = ()
    #: terrain pieces that attacked in this Attack Phase (Standard, ``game/terrain_army.py``)
    pieces_acted: tuple[str, ...] = ()
    #: a Time Jump's rewind point (``perk_timejump.Rewind``, L1067), else None
    rewind: Any = field(default=None, compare=False, repr=False)
    cache: dict[str, object] = field(default_factory=dict, init=False, compare=False, repr=False)

    def info(self, uid: int) -> UnitInfo:
        if perk_arms.in_play(self.setup):  # Weapons as state (Simulacrum, Loot): perk_arms
            armed: UnitInfo = perk_arms.armed(self.setup, uid, self.units[uid].statuses)
            return armed
        return self.setup.units[uid]

    def unit(self, uid: int) -> UnitGS:
        return self.units[uid]

    def side_of(self, uid: int) -> int:
        return self.setup.units[uid].side

    def enemies(self, a: int, b: int) -> bool:
        ua, ub = self.units[a], self.units[b]
        sa, sb = self.setup.units[a].side, self.setup.units[b].side
        if not ua.statuses and not ub.statuses:
            return sa != sb
        return a != b and ua.table_side(sa) != ub.table_side(sb)  # DEFECTED, SEIZED

    def engaged_with(self, uid: int) -> list[int]:
        out = []
        for a, b in self.engaged:
            if a == uid:
                out.append(b)
            elif b == uid:
                out.append(a)
        return sorted(out)

    def in_melee(self, uid: int) -> bool:
        return any(uid in pair for pair in self.engaged)

    def passengers(self, transport: int) -> list[int]:
        return [
            u.uid
            for u in self.units
            if u.location is Location.EMBARKED and u.embarked_in == transport
        ]

    def outermost(self, uid: int) -> int:
        """The Transport on the battlefield that holds ``uid`` (itself when on the table)."""
        u = self.units[uid]
        while u.location is Location.EMBARKED and u.embarked_in is not None:
            u = self.units[u.embarked_in]
        return u.uid

    @property
    def over(self) -> bool:
        return self.flow.phase is Phase.OVER

    def dice(self) -> SeededDice:
        """The dice of this step: derived from the seed and the step number (pure apply)."""
        return SeededDice(step_seed(self.seed, self.step))

    def current_value(self, uid: int) -> float:
        """Current Point Value of a unit still on the battlefield (§2.2 step 8), with Fusion,
        Respawn and Summon applied (Perks 000 L333-335)."""
        u = self.units[uid]
        if u.location not in (Location.TABLE, Location.EMBARKED, Location.TERRAIN):
            return 0.0
        if u.location is Location.EMBARKED:
            holder = self.units[self.outermost(uid)]
            if holder.location is not Location.TABLE:
                return 0.0
        return unit_value(self.setup.units[uid], u)

    def side_values(self) -> list[float]:
        totals = [0.0] * len(self.setup.sides)
        grouped = {u for pair in self.setup.summons for u in pair[:2]}
        for u in self.units:
            if (u.counters and u.counter(RESPAWNS)) or u.uid in grouped:
                continue  # Respawn (Perks L4211): "counts as destroyed for Victory Conditions"
            # a raised unit (Undead Legion): its controller's (SEIZED)
            totals[u.controller(self.setup.units[u.uid].side)] += self.current_value(u.uid)
        if grouped:  # Summon (Perks L4219-L4239): the produced units' HP left, a Game Turn each
            from warbench.rulesets.warsurge.game.perk_summon_value import summon_values

            for side, value in summon_values(self):
                totals[side] += value
        for side, value in army_values(self.setup.field.board, self.terrain_hp):  # §10.2
            totals[side] += value
        return totals

    def digest(self) -> str:
        """A hash of everything that changes (for replay identity)."""
        return hashlib.sha256(canonical_json(self).encode()).hexdigest()[:16]


def model_max_hp(info: UnitInfo, u: UnitGS) -> int:
    """One model's maximum HP now: the profile's, doubled by each doubling of Ascension and
    Descend (Perks 000 L2368, L2376; the counter :data:`HP_DOUBLED`, set by those perks)."""
    if u.counters:
        k = u.counter(HP_DOUBLED)
        if k:
            return info.hp_per_model << k
    return info.hp_per_model


def unit_max_hp(info: UnitInfo, u: UnitGS) -> int:
    """The unit's maximum HP now (:func:`model_max_hp` times its models)."""
    return model_max_hp(info, u) * info.real_models


def unit_value(info: UnitInfo, u: UnitGS) -> float:
    """The unit's Current Point Cost wherever it is (Perks 000 L98-L100, Fusion, Respawn and
    Summon, L333-L335). Under Eternal (L1511, the counter :data:`ETERNAL_TURN`) its HP are its
    tally, each model's HP above half its doubled maximum (``game/perk_eternal.py``)."""
    if u.statuses and u.wrecked:  # Wreckage (Perks L1442): terrain, of no value
        return 0.0
    full = unit_max_hp(info, u)
    hp = u.current_hp
    if info.illusions:  # Illusions are not the User's HP (Perks L779; perk_illusion)
        own = zip(u.hp[: info.real_models], u.removed, strict=False)
        hp = sum(max(0, h) for h, r in own if not r)
    if u.counters and u.counter(ETERNAL_TURN):
        zero = model_max_hp(info, u) // 2
        full //= 2
        hp = sum(max(0, h - zero) for h, r in zip(u.hp, u.removed, strict=True) if not r)
    return current_point_cost(info.value, full, hp)


@dataclass(frozen=True)
class GameResult:
    """The end of the game (§2.2 step 8): values on the battlefield, winner or draw."""

    values: tuple[float, ...]
    winner: int | None  # side index, None for a draw
    turns: int

    @property
    def draw(self) -> bool:
        return self.winner is None


@lru_cache(maxsize=4096)
def step_seed(seed: int, step: int) -> int:
    """The seed of the dice of one step, from the game's seed (independent streams): the
    ``SeedSequence([seed & (2**63 - 1), step])`` of :func:`~warbench.kernel.dice.sequence_seed`."""
    return sequence_seed(seed & (2**63 - 1), step)


def initial_state(setup: GameSetup, seed: int) -> GameState:
    """Every unit in Reserve (§2.1 Reserve) before the first Turn Master roll-off; a Summon
    copy not produced yet counts as destroyed (``perk_summon``)."""
    unmade = {copy for copy, _, _ in setup.summons}
    units = tuple(
        UnitGS(
            uid=info.uid,
            location=Location.DESTROYED if info.uid in unmade else Location.RESERVE,
            hp=(info.hp_per_model,) * info.real_models + (0,) * info.illusions,
            removed=(False,) * info.real_models + (True,) * info.illusions,
            moved=(False,) * info.models,
            heavy=(False,) * info.models,
            battle=(False,) * info.models,
        )
        for info in setup.units
    )
    return GameState(
        setup=setup,
        seed=seed,
        flow=Flow(),
        units=units,
        zones=(None,) * len(setup.sides),
    )


EventData = Mapping[str, object]
HookFn = Callable[..., object]
