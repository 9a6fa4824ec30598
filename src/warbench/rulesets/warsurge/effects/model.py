"""The vocabulary of perk effects (Book 2 ``000_94ecc6a4c74d351b.txt`` §12.1-§12.2).

A perk rank is a :class:`PerkEffects` row: *when* it acts (:class:`Trigger`, from the
activation tags of §12.2 L245-L320), *what test* it needs first (:class:`TestSpec`: Aether,
Mastery, Skill, a D6 of x+, an Auto Test), *whom* it reaches (:class:`TargetSpec`: the User,
the attacked unit, every unit within a Radius, an Instructed unit, Linked profiles), how often
(:class:`Uses`: Limited Use (x) per game, once per Game Turn in the Standard playstyle) and
*what it does*: a tuple of :class:`Effect` over a handful of kinds (Wesnoth's weapon specials:
a quantity changed by set/add/multiply, a status with a duration, HP lost or restored, an
immunity), or a named ``machinery`` for the few effects that need code (the attack sequence,
a template's geometry, a transformation).

Everything here is a frozen value built from the reviewed table ``data/effects.json``
(:mod:`.table`); nothing here rolls a die or knows a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from warbench.rulesets.warsurge.effects.mode import Template


class Trigger(StrEnum):
    """When a perk acts (the activation tags of §12.2, 000 L245-L320)."""

    PASSIVE = "Passive"  # L297: continuously active the entire game
    ACTIVATE = "Activate"  # L245: the player chooses (once per Game Turn, Standard)
    IMMEDIATE = "Immediate"  # L279: at once, upon activation / HP Loss
    END_OF_TURN = "End of Turn"  # L269: at the end of the current Game Turn, into the next
    END_OF_PHASE = "End of Phase/Step"  # L271
    START_OF_TURN = "Start of Turn"  # Specific perks that act as a Game Turn starts (+Armour)
    CASUALTY = "Casualty"  # L259: when the User or a potential Target reaches 0 HP
    HP_LOSS = "HP Loss"  # L275: after Saves, when the Target has lost HP
    ATTACK_DICE = "Attack Dice"  # L255: when any Attack Dice succeeded, before Saves
    WEAPON_USE = "Weapon Use"  # L319: before Attack Dice, for an Attack Sequence
    MOVEMENT = "Movement"  # Specific: whenever the unit makes any Movement (Bleed)
    SPECIFIC = "Specific"  # L315: its own method, written in its description


class PerkTest(StrEnum):
    """The test a perk calls for before it acts (§12.2)."""

    AETHER = "Aether"  # L249: 2D6, 9 or lower passes; 2 doubles, 12 costs D6 HP
    MASTERY = "Mastery"  # L291: D6 4+ (Unit Perks)
    SKILL = "Skill"  # L313: D6 4+ (Weapon Perks)
    D6 = "D6"  # L263: D6 (x+)
    AUTO = "Auto"  # L257: one D6 per Attack Dice the Weapon would have rolled


@dataclass(frozen=True, slots=True)
class TestSpec:
    """A test before the effect: its kind and, for a D6 or Auto Test, the score needed."""

    __test__ = False  # not a pytest test class

    kind: PerkTest
    needs: int = 4


class TargetKind(StrEnum):
    """Whom an effect reaches (§12.1 User/Target L78-L84, §12.2 tags)."""

    SELF = "self"  # the User (all its models, §12.2 L241)
    TARGET = "target"  # the unit attacked or selected (a Weapon's target, a perk's Target)
    RADIUS = "radius"  # units within Radius (x) of the User (L305)
    INSTRUCT = "instruct"  # a unit whose control is seized (L281)
    LINKED = "linked"  # Linked Profiles (L285)
    ROSTER = "roster"  # every unit of the Roster (Roster Perks)
    BATTLEFIELD = "battlefield"  # an area or template on the Battlefield (Mode perks)


class Side(StrEnum):
    """Which units a Radius or Target may be (Friendly = same Roster, §12.1 L86)."""

    ANY = "any"
    FRIENDLY = "friendly"
    ENEMY = "enemy"


@dataclass(frozen=True, slots=True)
class TargetSpec:
    """Whom: a kind, a radius in inches, the side, line of sight, a Point Cost bracket."""

    kind: TargetKind = TargetKind.SELF
    radius: float | None = None
    side: Side = Side.ANY
    line_of_sight: bool = False
    point_cost: str | None = None  # "Lesser" or "Greater" (§12.2 L299-L303)


@dataclass(frozen=True, slots=True)
class Uses:
    """How often: Limited Use (x) per game (L283), once per Game Turn (Standard, L227)."""

    per_game: int | None = None
    per_turn: int | None = None


class Quantity(StrEnum):
    """The quantities a modifier may change (Core Rules §1.5-§1.6 Stats, §5 dice)."""

    MOVE = "Move"
    DASH = "Dash"
    DEFENCE = "Defence"
    HP_MAX = "HP"
    ARMOUR = "Armour"  # the Armour Save stat: an outright change, seen by AP (§12.1 L205)
    AEGIS = "AEGIS"
    RANGE = "Range"
    ATTACKS = "Attacks"
    POWER = "Power"
    AP = "AP"
    ATTACK_DICE = "Attack Dice"  # a Dice Modifier on the unit's own Attack Dice
    ATTACK_DICE_AGAINST = "Attack Dice against"  # on enemies' Attack Dice aimed at it
    ARMOUR_DICE = "Armour Dice"  # a Dice Modifier on Armour Saves (not seen by AP, L207)
    MASTERY = "Mastery Test"
    SKILL = "Skill Test"
    AETHER = "Aether Test"
    HP_LOSS = "HP Loss"  # damage increasers (§12.1 L213-L219)


class Op(StrEnum):
    """How a modifier changes its quantity, in the order they are applied (§12.1 L197-L201:
    addition and subtraction before multiplication and division; a set comes first, clamps
    last)."""

    SET = "set"
    ADD = "add"
    MUL = "mul"
    MIN = "min"  # a floor: the value is at least this
    MAX = "max"  # a cap: the value is at most this


#: The order in which :func:`.algebra.combine` applies operations.
OP_ORDER: tuple[Op, ...] = (Op.SET, Op.ADD, Op.MUL, Op.MIN, Op.MAX)


class Rounding(StrEnum):
    """How a multiplied Stat is rounded (Adrenaline "rounded up", Illusion "round down")."""

    UP = "up"
    DOWN = "down"


@dataclass(frozen=True, slots=True)
class Modifier:
    """One change of one quantity by one source.

    ``source`` names where it comes from (a perk and, for a weapon, the unit and weapon that
    inflicted it). ``stacks=False``: the same perk counts once however many sources apply it
    (Cripple "does not stack"); otherwise duplicates from several sources accumulate (§12.1
    L113, Stacking Perk Effects), while the same source never counts twice (Wesnoth).
    """

    quantity: Quantity
    op: Op
    value: Fraction
    perk: str
    source: str = ""
    stacks: bool = True
    rounding: Rounding = Rounding.UP
    keep_zero: bool = True  # "0 stays 0" (Adrenaline): a multiplier never lifts a 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", Fraction(self.value))

    @property
    def key(self) -> tuple[str, str, str, str]:
        """What counts once: this change of this quantity by (perk, source), or by the perk
        whatever its source when it does not stack."""
        return (self.perk, self.source if self.stacks else "", self.quantity, self.op)


class EffectKind(StrEnum):
    """The handful of things a perk does."""

    MODIFY = "modify"  # change a quantity while active (a Modifier)
    STATUS = "status"  # put a named status on the target for a duration
    HP_LOSS = "hp_loss"  # the target loses HP (no Saves unless ``saves``)
    RESTORE = "restore"  # the target regains HP (returning casualty models)
    IMMUNE = "immune"  # the User ignores the named perks/statuses
    CLEAR = "clear"  # remove statuses (Cure, Courage, Purge)
    CONVERT = "convert"  # HP the named enemy statuses would cost restores HP instead
    MACHINERY = "machinery"  # code: the attack sequence, templates, transformation …


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of a perk.

    * ``MODIFY``: ``modifiers`` apply while the perk (or its status) is active.
    * ``STATUS``: the target gains status ``status`` for ``turns`` Game Turns (``None``: the
      rest of the game); ``delay=1``: it starts with the next Game Turn ("next Game Turn",
      Cripple); ``modifiers`` apply while it lasts; ``each_turn_end`` is the HP the target
      loses at the end of each Game Turn while it lasts ("1", "D3").
    * ``HP_LOSS`` / ``RESTORE``: ``amount`` ("1", "D3", "ceil(max/10)", "max/4").
    * ``IMMUNE`` / ``CLEAR`` / ``CONVERT``: ``names`` lists the perks or statuses (CONVERT:
      the HP Loss an enemy's status would cause restores HP instead, Fire Resist II).
    * ``MACHINERY``: ``machinery`` names the code that implements it (registered, checked at
      load); ``template``: the template a Mode rank lays (machinery ``template``,
      :mod:`.mode`).
    """

    kind: EffectKind
    target: TargetSpec = TargetSpec()
    modifiers: tuple[Modifier, ...] = ()
    status: str = ""
    turns: int | None = 1
    delay: int = 0
    each_turn_end: str = ""
    amount: str = ""
    saves: bool = False
    names: tuple[str, ...] = ()
    machinery: str = ""
    template: Template | None = None


@dataclass(frozen=True, slots=True)
class PerkEffects:
    """One row of the reviewed table: a perk rank as effects, citing its source line."""

    name: str
    family: str
    source: str  # "000_94ecc6a4c74d351b.txt L2616"
    triggers: tuple[Trigger, ...]
    tests: tuple[TestSpec, ...] = ()
    target: TargetSpec = TargetSpec()
    uses: Uses = Uses()
    effects: tuple[Effect, ...] = ()
    note: str = ""  # what the row reads from the text, for the reviewer
    requires: tuple[str, ...] = field(default=())

    @property
    def line(self) -> int:
        """The source line number."""
        return int(self.source.rsplit("L", 1)[1])

    @property
    def implemented(self) -> bool:
        """Whether the row says what the perk does (some effect), not only when it acts."""
        return bool(self.effects)

    @property
    def machineries(self) -> tuple[str, ...]:
        """The code machineries its effects name."""
        return tuple(e.machinery for e in self.effects if e.kind is EffectKind.MACHINERY)
