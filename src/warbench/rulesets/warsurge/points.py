"""The warbench WARSURGE points model: what a unit is worth, item by item.

The Core Rules say the WARSURGE App prices every profile (001_d3f5e425c5e1196d.txt §3.1) but
never publish the formula, so warbench derives its own from combat value, with the same
attack kernel the game uses (:func:`~warbench.rulesets.warsurge.odds.exact_attack`):

* **Durability** of a model: how many *reference Attack Dice* it takes to remove it. Each
  weapon of a published reference pool (Profile Guidelines §3.5: a knife to a lascannon) rolls
  against a unit of this profile, the exact expected HP loss per die is averaged by pool weight
  (ranged and in a Melee), and ``HP / loss per die`` is the answer. Defence, HP, Saves, the
  model's own Deflect/Ward/Parry and every attack-math defensive perk (Tough, Dodge, Evasive,
  Emergency Save ...) count through the numbers.
* **Offence** of a weapon on this model: the exact expected HP loss of one wielder against a
  reference pool of targets (a rabble to a war machine), each divided by what one average
  reference die does to that target, i.e. measured in *reference-dice equivalents*. Ranged
  value is scaled by Range and Type, melee value by a fixed weight (every weapon may strike
  in a Melee, §5.9, with the Type modifiers of §5.8 applied by the kernel). Attack-math weapon
  and unit perks (Destroy, xD6 Attacks, Might ...) are priced by what they do to the numbers;
  self-harm (Volatile, Chaos ...) is charged at the wielder's own durability.
* **Model points** = mobility × (body + Σ weapons × staying power + transport), then the
  price table of every other perk (``data/perk_prices.yaml``: a multiplier, points per
  model, per unit or per roster, each with a one-line reason).

Everything is itemised (:class:`UnitCost`), versioned (:data:`POINTS_MODEL_VERSION`, stamped
into rosters) and cached per profile, so a re-cost only recomputes what changed. The numbers,
pools and calibration are explained in ``docs/points.md``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from warbench.kernel.dice import SeededDice
from warbench.kernel.errors import DataFileError, EnumerationTooLarge, UnknownNameError
from warbench.rulesets.warsurge.attack import AttackContext, ModelState, UnitState
from warbench.rulesets.warsurge.odds import AttackPlan, exact_attack, sample_attack
from warbench.rulesets.warsurge.perks import PerkCatalog, PerkDef, PerkKind
from warbench.rulesets.warsurge.profiles import (
    SaveStat,
    Unit,
    UnitProfile,
    WeaponProfile,
    WeaponType,
)

# --------------------------------------------------------------------------------------------
# The published model data
# --------------------------------------------------------------------------------------------

_STRICT = ConfigDict(extra="forbid", frozen=True)


class Constants(BaseModel):
    """The model's constants (``data/points_model.yaml``, explained in docs/points.md)."""

    model_config = _STRICT

    body_points: float = Field(gt=0)
    body_exponent: float = Field(gt=0, le=1)
    offence_factor: float = Field(gt=0)
    staying_power_reference: float = Field(gt=0)
    staying_power_exponent: float = Field(ge=0)
    staying_power_min: float = Field(gt=0)
    staying_power_max: float = Field(gt=0)
    range_base: float = Field(ge=0)
    range_slope: float = Field(ge=0)
    range_cap: int = Field(gt=0)
    melee_weight: float = Field(ge=0)
    type_factor: dict[WeaponType, float]
    mobility_base: float = Field(gt=0)
    mobility_slope: float = Field(ge=0)
    mobility_cap: float = Field(gt=0)
    transport_points_per_capacity: float = Field(ge=0)
    fire_point_points: float = Field(ge=0)
    half_range_share: float = Field(ge=0, le=1)
    # Reach (ws-points-3, docs/points.md §8): the share of a reference game's Attack Phases a
    # weapon can attack in. 0 turns it off (every weapon attacks every turn: ws-points-1/2).
    reach_gap: float = Field(default=0.0, ge=0)
    reach_turns: float = Field(default=4.0, gt=0)
    reach_enemy_move: float = Field(default=6.0, ge=0)
    reach_min: float = Field(default=0.25, gt=0, le=1)
    # ws-points-4 (docs/points.md §9): a Battle weapon's wielder Dashes on the turns it walks
    # into Range (L2240-2242 bar the Dash only in the Game Turn the weapon is used; L2248-2252
    # a model not using its weapons may Move and Dash). False keeps ws-points-3's reading.
    reach_battle_dash: bool = False
    # Out-ranging (docs/points.md §9, round 12): the reference enemy's weapons reach
    # ``reach_enemy_range``; the Range a weapon has beyond it (up to ``reach_gap``) the enemy
    # must walk unanswered at ``reach_enemy_move`` a Game Turn, and that share of the game's
    # ``reach_turns`` is added to the weapon's ranged reach times ``reach_outrange``. 0 turns
    # it off (every version before the round).
    reach_outrange: float = Field(default=0.0, ge=0)
    reach_enemy_range: float = Field(default=18.0, ge=0)
    # Durability's mean (docs/points.md §9, round 13): a body's reference attacks to remove
    # are the weighted power mean, with this exponent, of the attacks each pool weapon needs.
    # -1 (every version before the round) is the harmonic mean, HP / the mean loss per die,
    # which the weapons that hurt the body most decide; nearer 0 counts more of the weapons
    # that barely scratch it. Below 0, so a weapon that cannot hurt a body adds nothing.
    durability_power: float = Field(default=-1.0, ge=-4, lt=0)


class PoolTarget(BaseModel):
    """A reference target profile (ten models strong, no perks)."""

    model_config = _STRICT

    name: str
    weight: float = Field(gt=0)
    defence: int = Field(ge=0, le=10)
    hp: int = Field(ge=1)
    armour: SaveStat = None
    aegis: SaveStat = None


class PoolWeapon(BaseModel):
    """A reference weapon (one Attack Die, no perks)."""

    model_config = _STRICT

    name: str
    weight: float = Field(gt=0)
    power: int = Field(ge=0, le=10)
    ap: SaveStat = None
    perks: tuple[str, ...] = ()


class ModelData(BaseModel):
    """The whole ``points_model.yaml``."""

    model_config = _STRICT

    version: str
    constants: Constants
    target_pool: tuple[PoolTarget, ...] = Field(min_length=1)
    weapon_pool: tuple[PoolWeapon, ...] = Field(min_length=1)


PriceKind = Literal["multiplier", "per_model", "per_unit", "per_roster"]


class PerkPrice(BaseModel):
    """The documented price of a perk the odds engine does not price by itself."""

    model_config = _STRICT

    price: PriceKind
    value: float
    reason: str = Field(min_length=1)
    vulnerability: bool = False


class PriceTable(BaseModel):
    """``data/perk_prices.yaml``."""

    model_config = _STRICT

    version: str
    perks: dict[str, PerkPrice]


def _read_yaml(name: str) -> Any:
    text = resources.files("warbench.rulesets.warsurge").joinpath("data", name).read_text("utf-8")
    # libyaml's loader when PyYAML has it: the same data, 8x faster (the price table is most
    # of a cold start's first cost, issue 13)
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@cache
def load_model_data() -> ModelData:
    """The packaged constants and reference pools."""
    try:
        return ModelData.model_validate(_read_yaml("points_model.yaml"))
    except ValidationError as exc:  # pragma: no cover - packaged data is tested
        raise DataFileError("points_model.yaml", str(exc)) from exc


@cache
def load_price_table() -> PriceTable:
    """The packaged price table of perks that are not attack math."""
    try:
        return PriceTable.model_validate(_read_yaml("perk_prices.yaml"))
    except ValidationError as exc:  # pragma: no cover - packaged data is tested
        raise DataFileError("perk_prices.yaml", str(exc)) from exc


POINTS_MODEL_VERSION: str = load_model_data().version
"""Stamped into every roster and game record; bumped whenever a price can change."""

# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CostItem:
    """One line of an itemised price: ``points`` (added) or a ``factor`` (multiplied)."""

    label: str
    points: float
    reason: str
    factor: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label, "points": round(self.points, 3)}
        if self.factor is not None:
            out["factor"] = round(self.factor, 4)
        out["reason"] = self.reason
        return out


PriceMethod = Literal["multiplier", "per_model", "per_unit", "per_roster", "odds"]

_METHOD_TEXT: dict[str, str] = {
    "multiplier": "table multiplier",
    "per_model": "table, per model",
    "per_unit": "table, per unit",
    "per_roster": "table, per roster",
    "odds": "measured by odds",
}


def method_text(method: PriceMethod, value: float | None = None) -> str:
    """A price method in words, with the table's number (``table, per roster +120``)."""
    text = _METHOD_TEXT[method]
    if value is None:
        return text
    if method == "multiplier":
        return f"{text} ×{value:g}"
    return f"{text} {value:+g}"


@dataclass(frozen=True)
class PerkShare:
    """What one perk adds to a whole unit's price, and how it is priced.

    ``method`` is the ``perk_prices.yaml`` kind (``multiplier``, ``per_model``, ``per_unit``,
    ``per_roster``) or ``odds`` for an attack-math perk whose worth the exact odds engine
    measures (the unit's price with the perk minus its price without it). ``on`` names what
    carries the perk: the unit profile, or the weapon. ``value`` is the table's number
    (a factor or points; ``None`` for ``odds``).
    """

    perk: str
    on: str
    method: PriceMethod
    points: float
    reason: str
    value: float | None = None

    @property
    def method_text(self) -> str:
        """The method in words, with the table's number: ``table multiplier ×1.8``."""
        return method_text(self.method, self.value)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``warbench points --json``)."""
        out: dict[str, Any] = {
            "perk": self.perk,
            "on": self.on,
            "method": self.method,
            "points": round(self.points, 3),
        }
        if self.value is not None:
            out["value"] = self.value
        out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class GroupCost:
    """The price of one model of a group (models sharing a weapon loadout)."""

    count: int
    weapons: tuple[str, ...]
    per_model: float
    items: tuple[CostItem, ...]

    @property
    def points(self) -> float:
        return self.per_model * self.count


@dataclass(frozen=True)
class UnitCost:
    """The itemised point cost of a unit (its models and the weapons they carry)."""

    unit: str
    total: int
    exact: float
    groups: tuple[GroupCost, ...]
    unit_items: tuple[CostItem, ...]
    version: str
    notes: tuple[str, ...] = ()
    perks: tuple[PerkShare, ...] = ()
    """Each table-priced perk's share of ``exact`` (unit and weapon perks, whole unit)."""

    @property
    def model_points(self) -> tuple[float, ...]:
        """One entry per model, weapons included (§3.2: each must be worth at least 1 pt)."""
        return tuple(p for g in self.groups for p in [g.per_model] * g.count)

    @property
    def items(self) -> tuple[CostItem, ...]:
        """Every line: each group's per-model lines, then the per-unit lines."""
        return tuple(i for g in self.groups for i in g.items) + self.unit_items

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``warbench points --json``)."""
        return {
            "unit": self.unit,
            "points": self.total,
            "exact": round(self.exact, 3),
            "points_model": self.version,
            "groups": [
                {
                    "models": g.count,
                    "weapons": list(g.weapons),
                    "per_model": round(g.per_model, 3),
                    "items": [i.to_dict() for i in g.items],
                }
                for g in self.groups
            ],
            "unit_items": [i.to_dict() for i in self.unit_items],
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class Durability:
    """Reference attacks needed to remove one model, and the loss per reference die."""

    attacks: float
    loss_per_die: float


@dataclass(frozen=True)
class WeaponValue:
    """A weapon's offence on a given body: points of reference targets destroyed per Attack Phase.

    ``ranged`` and ``melee`` (already times the melee weight) are pool-weighted means of the
    expected HP loss × the target's body points per HP; ``self_harm`` is the wielder's own
    expected HP loss × its body points per HP.
    """

    ranged: float
    melee: float
    self_harm: float
    range_factor: float
    type_factor: float
    ranged_reach: float = 1.0
    melee_reach: float = 1.0

    @property
    def points(self) -> float:
        """Points of reference targets destroyed per Attack Phase, net of self-harm."""
        return max(
            0.0,
            self.ranged * self.range_factor * self.type_factor * self.ranged_reach
            + self.melee * self.melee_reach
            - self.self_harm,
        )


# --------------------------------------------------------------------------------------------
# Situations: perks that only matter in some circumstances are priced over a mixture
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Situation:
    """A circumstance left out of the neutral evaluation: its share, and the perks it wakes."""

    flag: str
    share: float
    perks: frozenset[str]
    melee: bool | None = None  # only in (True) / out of (False) a Melee; None: both


SITUATIONS: tuple[Situation, ...] = (
    Situation(
        "cover", 0.3, frozenset({"cover i", "cover ii", "camouflage", "ignore cover"}), False
    ),
    Situation("target_airborne", 0.15, frozenset({"anti-air i", "anti-air ii"})),
    Situation("target_is_leader", 0.1, frozenset({"assassin"})),
    Situation("first_use_after_engaging", 0.5, frozenset({"clash"}), True),
    Situation("outflank", 0.3, frozenset({"outflank"}), True),
    Situation("stationary", 0.5, frozenset({"focus"})),
    Situation("burst", 0.2, frozenset({"burst"})),
)
"""Shares are documented in docs/points.md; half range is a constant of the model."""

#: Attack-math perks whose worth depends on the target or the dice: priced by the numbers,
#: which may come out above or below the plain weapon (Chaos's six outcomes, Negate AEGIS
#: moving the AP from Armour to AEGIS, Wildcard's rolled profile).
ATTACK_TRADE_OFFS: frozenset[str] = frozenset(["Chaos", "Negate AEGIS", "Wildcard"])

#: Attack-math perks that make their owner worse (priced down by the numbers, tested to lower
#: the cost): Book 2 §12.4-§12.5 entries that hinder the User or Weapon.
ATTACK_VULNERABILITIES: frozenset[str] = frozenset(
    ["Accursed", "Swarm", "Cumbersome", "Unwieldy", "Volatile", "Incantation", "Anti-Air I"]
    + [f"Aim {n}+" for n in range(2, 7)]
    + [f"Accuracy {n}+" for n in range(2, 7)]
)

_HALF_RANGE_PERKS = frozenset({"rapid", "impact i", "impact ii"})
_BARRIER = frozenset({"barrier"})
#: Distances (inches, share) for perks that read the distance (Barrier).
DISTANCES: tuple[tuple[float, float], ...] = ((6.0, 0.3), (18.0, 0.35), (30.0, 0.25), (42.0, 0.1))


def _contexts(
    perks: frozenset[str], *, melee: bool, ranged_half: float, half_possible: bool
) -> list[tuple[AttackContext, float]]:
    """The weighted contexts an evaluation averages over (just one without situational perks)."""
    flags: list[tuple[str, float]] = [
        (s.flag, s.share)
        for s in SITUATIONS
        if s.perks & perks and (s.melee is None or s.melee == melee)
    ]
    if not melee and half_possible and perks & _HALF_RANGE_PERKS:
        flags.append(("within_half_range", ranged_half))
    distances: tuple[tuple[float | None, float], ...] = ((None, 1.0),)
    if not melee and perks & _BARRIER:
        distances = tuple((d, w) for d, w in DISTANCES)
    out: list[tuple[AttackContext, float]] = []
    for on in itertools.product((False, True), repeat=len(flags)):
        weight = 1.0
        kw: dict[str, Any] = {}
        for (flag, share), value in zip(flags, on, strict=True):
            weight *= share if value else 1 - share
            kw[flag] = value
        for dist, dw in distances:
            if weight * dw > 0:
                out.append((AttackContext(melee=melee, distance=dist, **kw), weight * dw))
    return out


def _names(perks: Iterable[str]) -> frozenset[str]:
    from warbench.rulesets.warsurge.attack import canonical_perk

    return frozenset(canonical_perk(p) for p in perks)


# --------------------------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------------------------

_REFERENCE_BODY = UnitProfile(name="Reference attacker", move=6, dash=6, defence=3, hp=1)
_MAX_PATHS = 2_000  # weapon-level roll paths enumerated exactly; beyond, seeded Monte Carlo
_FALLBACK_TRIALS = 1_000
_FALLBACK_SEED = 20261122
_DIE_SAMPLE = 6  # reference weapons roll 6 dice; the loss is divided back per die
_TARGET_MODELS = 10


def _odds_range(weapon_range: int) -> int:
    """The class of a Range the attack math can tell apart: 0 (melee weapon), 1 (ranged,
    under 18") or 18 (18" or more: Impact and Rapid at half range, ``attack.py``)."""
    if weapon_range <= 0:
        return 0
    return 18 if weapon_range >= 18 else 1


#: Per pool target: weight, worth per HP, ranged and melee (target HP lost, attacker HP lost).
_OddsRow = tuple[float, float, tuple[float, float] | None, tuple[float, float]]


def _round_points(x: float) -> int:
    """Round half up (never banker's rounding: prices must not drop at .5)."""
    return math.floor(x + 0.5)


class PointsModel:
    """Prices WARSURGE profiles; one instance caches every evaluation it makes.

    ``PointsModel()`` uses the packaged constants and price table; pass others to
    re-calibrate (see docs/points.md).
    """

    def __init__(
        self,
        data: ModelData | None = None,
        prices: PriceTable | None = None,
        catalog: PerkCatalog | None = None,
    ) -> None:
        self.data = data or load_model_data()
        self.prices = prices or load_price_table()
        self.catalog = catalog or PerkCatalog.load()
        self.c = self.data.constants
        self._durability: dict[str, Durability] = {}
        self._offence: dict[str, WeaponValue] = {}
        self._offence_odds: dict[str, list[_OddsRow]] = {}
        self._target_rate: dict[str, float] = {}
        self._units: dict[str, UnitCost] = {}

    @property
    def version(self) -> str:
        return self.data.version

    # ---- reference measurements ------------------------------------------------------

    def _expected_loss(
        self,
        attacker: UnitState,
        target: UnitState,
        contexts: Sequence[tuple[AttackContext, float]],
    ) -> tuple[float, float]:
        """Weighted expected (target HP lost, attacker HP lost) of one attack sequence."""
        loss = own = 0.0
        for ctx, w in contexts:
            plan = AttackPlan(attacker, target, ctx)
            try:
                odds = exact_attack(plan, max_paths=_MAX_PATHS)
            except EnumerationTooLarge:
                # Seeded, so a price never changes between runs (Wildcard's rolled profile).
                odds = sample_attack(plan, _FALLBACK_TRIALS, SeededDice(_FALLBACK_SEED))
            loss += w * odds.expected_hp_lost
            own += w * odds.expected_attacker_hp_lost
        return loss, own

    def _reference_attacker(self, pw: PoolWeapon) -> UnitState:
        gun = WeaponProfile(
            name=pw.name,
            range=24,
            attacks=_DIE_SAMPLE,
            power=pw.power,
            ap=pw.ap,
            type="Assault",
            perks=list(pw.perks),
        )
        return UnitState(_REFERENCE_BODY, {gun.name: gun}, [ModelState(1, (gun.name,))])

    def _melee_share(self) -> float:
        c = self.c
        # The same weight the offence side gives melee, as a share of all attacks.
        return c.melee_weight / (1.0 + c.melee_weight)

    def _attack_perks(self, perks: Sequence[str]) -> list[str]:
        out = []
        for name in perks:
            perk = self.catalog.find(name)
            if perk is not None and perk.impl_class == "A":
                out.append(perk.name)
        return sorted(out)

    def _profile_view(self, profile: UnitProfile) -> UnitProfile:
        """``profile`` with only what the attack math reads (cache key: renaming or adding a
        non-attack perk does not recompute the odds)."""
        return profile.model_copy(
            update={
                "name": "Unit",
                "symbol": "",
                "lore": "",
                "perks": self._attack_perks(profile.perks),
            }
        )

    def _weapon_view(self, weapon: WeaponProfile, name: str) -> WeaponProfile:
        """``weapon`` with only what the attack math reads (cache key and odds input).

        The attack math (``attack.py``) reads a weapon's Range only as ``range <= 0`` (melee
        weapon, §1.6) and ``range >= 18`` (Impact and Rapid at half range), so the view keeps
        its class (0, 1 or 18): a Range edit from 24" to 30" re-uses the odds; what depends on
        the exact Range (:meth:`range_factor`) is computed from the weapon itself.
        """
        return weapon.model_copy(
            update={
                "name": name,
                "symbol": "",
                "lore": "",
                "range": _odds_range(weapon.range),
                "perks": self._attack_perks(weapon.perks),
            }
        )

    def durability(self, profile: UnitProfile, loadout: Sequence[WeaponProfile] = ()) -> Durability:
        """Reference attacks needed to remove one model of ``profile`` carrying ``loadout``: the
        weighted power mean (``durability_power``; -1, the harmonic mean, before round 13) of
        the attacks each weapon of the weapon pool needs, partly at range and partly in a Melee."""
        profile = self._profile_view(profile)
        loadout = tuple(self._weapon_view(w, f"W{i}") for i, w in enumerate(loadout))
        key = profile.model_dump_json() + "|" + "|".join(w.model_dump_json() for w in loadout)
        hit = self._durability.get(key)
        if hit is not None:
            return hit
        target = UnitState(
            profile,
            {w.name: w for w in loadout},
            [ModelState(profile.hp, tuple(w.name for w in loadout)) for _ in range(_TARGET_MODELS)],
        )
        perks = _names(profile.perks)
        m = self._melee_share()
        power = self.c.durability_power
        rate = total_w = powered = 0.0
        for pw in self.data.weapon_pool:
            attacker = self._reference_attacker(pw)
            r, _ = self._expected_loss(
                attacker, target, _contexts(perks, melee=False, ranged_half=0, half_possible=False)
            )
            mm, _ = self._expected_loss(
                attacker, target, _contexts(perks, melee=True, ranged_half=0, half_possible=False)
            )
            loss = ((1 - m) * r + m * mm) / _DIE_SAMPLE
            rate += pw.weight * loss
            if power != -1.0:
                powered += pw.weight * (profile.hp / max(loss, 1e-6)) ** power
            total_w += pw.weight
        if power == -1.0:  # the harmonic mean, computed as every version before round 13 did
            per_die = max(rate / total_w, 1e-6)
            out = Durability(attacks=profile.hp / per_die, loss_per_die=per_die)
        else:
            attacks = float((powered / total_w) ** (1 / power))
            out = Durability(attacks=attacks, loss_per_die=profile.hp / attacks)
        self._durability[key] = out
        return out

    def body_points(self, attacks: float) -> float:
        """Points of a body that takes ``attacks`` reference attacks to remove."""
        return float(self.c.body_points * attacks**self.c.body_exponent)

    def _pool_value(self, t: PoolTarget) -> float:
        """Points per HP of pool target ``t``'s body (what destroying 1 HP of it is worth)."""
        hit = self._target_rate.get(t.name)
        if hit is None:
            hit = self.body_points(self.durability(self._pool_profile(t)).attacks) / t.hp
            self._target_rate[t.name] = hit
        return hit

    @staticmethod
    def _pool_profile(t: PoolTarget) -> UnitProfile:
        return UnitProfile(
            name=t.name, move=6, dash=6, defence=t.defence, hp=t.hp, armour=t.armour, aegis=t.aegis
        )

    def range_factor(self, weapon: WeaponProfile) -> float:
        c = self.c
        if weapon.range <= 0:
            return 0.0
        return c.range_base + c.range_slope * min(weapon.range, c.range_cap) / 24

    def reach(self, profile: UnitProfile, weapon: WeaponProfile) -> tuple[float, float, float]:
        """Reach (ws-points-3): the share of a reference game's Attack Phases ``weapon`` on a
        model of ``profile`` attacks at Range, the share it strikes in a Melee, and its Type
        factor. ``(1, 1, type_factor)`` when ``reach_gap`` is 0.

        The armies start ``reach_gap`` inches apart and the enemy closes ``reach_enemy_move``
        a Game Turn. A ranged weapon attacks once the gap left is within its Range; the wielder
        closes with its Move while attacking (Battle), Move and Dash (Assault), or Move and
        Dash on turns it does not attack (Heavy: stationary to attack, Core Rules
        001_d3f5e425c5e1196d.txt L2234-2236; Battle cannot Dash in the Game Turn it is used,
        L2240-2242, so with ``reach_battle_dash`` (ws-points-4) it walks into Range with Move
        and Dash like Heavy, L2248-2252; ws-points-3 read it as never Dashing). A Melee needs the
        whole gap closed with Move and Dash (§4.3, L1990). The share is ``1 - turns /
        reach_turns``, at least ``reach_min``. The Type's penalty applies to the share of the
        gap the wielder must walk: a Heavy weapon whose Range covers the gap never moves.
        """
        c = self.c
        tf = c.type_factor[weapon.type]
        if c.reach_gap <= 0:
            return 1.0, 1.0, tf
        gap, enemy = c.reach_gap, c.reach_enemy_move

        def share(distance: float, speed: float) -> float:
            turns = distance / speed if speed > 0 else c.reach_turns
            return max(c.reach_min, 1.0 - turns / c.reach_turns)

        melee = share(gap, profile.move + profile.dash + enemy)
        if weapon.range <= 0:
            return 0.0, melee, tf
        walk = max(0.0, gap - weapon.range)
        if weapon.type is WeaponType.BATTLE and not c.reach_battle_dash:
            speed = profile.move + enemy  # ws-points-3's reading: no Dash on the way in
        else:  # Assault moves, attacks and Dashes; Heavy and Battle walk (Move and Dash) on
            # turns they do not attack (L2234-2242, L2248-2252)
            speed = profile.move + profile.dash + enemy
        ranged = share(walk, speed) + c.reach_outrange * self.outranging(weapon)
        return ranged, melee, tf + (1.0 - tf) * (1.0 - min(1.0, walk / gap))

    def outranging(self, weapon: WeaponProfile) -> float:
        """The share of a reference game's Attack Phases ``weapon`` attacks unanswered
        (docs/points.md §9, round 12): the Range it has beyond the reference enemy's
        (``reach_enemy_range``), up to the armies' gap, is ground the enemy must walk under
        fire at ``reach_enemy_move`` a Game Turn before its own weapons reach (Core Rules
        001_d3f5e425c5e1196d.txt L2227, L2338: weapons out of Range cannot be used), as a
        share of the game's ``reach_turns`` (at most 1). 0 without reach, for a melee weapon
        and for Range no longer than the enemy's.

        >>> from warbench.rulesets.warsurge.points_models import model_data
        >>> data = model_data("ws-points-6")
        >>> model = PointsModel(data.model_copy(update={"constants": data.constants.model_copy(
        ...     update={"reach_outrange": 1.0})}))
        >>> rifle = dict(attacks=1, power=6, ap=4, type="Heavy")
        >>> [model.outranging(WeaponProfile(name="W", range=r, **rifle)) for r in (0, 18, 24, 36)]
        [0.0, 0.0, 0.5, 1.0]
        """
        c = self.c
        if c.reach_gap <= 0 or weapon.range <= 0 or c.reach_enemy_move <= 0:
            return 0.0
        ahead = min(float(weapon.range), c.reach_gap) - c.reach_enemy_range
        return min(1.0, max(0.0, ahead) / (c.reach_enemy_move * c.reach_turns))

    def weapon_value(self, profile: UnitProfile, weapon: WeaponProfile) -> WeaponValue:
        """Offence of ``weapon`` in the hands of one model of ``profile``."""
        view = self._weapon_view(weapon, "W0")
        key = self._profile_view(profile).model_dump_json() + "|" + view.model_dump_json()
        full_key = key + f"|{weapon.range}"
        hit = self._offence.get(full_key)
        if hit is not None:
            return hit
        rows = self._offence_odds.get(key)
        if rows is None:
            rows = self._weapon_odds(profile, view)
            self._offence_odds[key] = rows
        # The sums in the order the odds were measured (so a cached row gives the same float).
        rf = self.range_factor(weapon)
        ranged = melee = own_loss = total_w = 0.0
        for weight, worth, ranged_row, (mm, s_melee) in rows:
            if ranged_row is not None:
                r, s = ranged_row
                ranged += weight * r * worth
                own_loss += weight * s * rf
            melee += weight * mm * worth * self.c.melee_weight
            own_loss += weight * s_melee * self.c.melee_weight
            total_w += weight
        own = self.durability(profile, (weapon,))
        own_value = self.body_points(own.attacks) / profile.hp
        ranged_reach, melee_reach, tf = self.reach(profile, weapon)
        out = WeaponValue(
            ranged=ranged / total_w,
            melee=melee / total_w,
            self_harm=own_loss / total_w * own_value,
            range_factor=rf,
            type_factor=tf,
            ranged_reach=ranged_reach,
            melee_reach=melee_reach,
        )
        self._offence[full_key] = out
        return out

    def _weapon_odds(self, profile: UnitProfile, weapon: WeaponProfile) -> list[_OddsRow]:
        """Per pool target: its weight and worth, the ranged (if any) and melee expected
        (target HP lost, attacker HP lost) of ``weapon`` (a :meth:`_weapon_view`)."""
        profile = self._profile_view(profile)
        attacker = UnitState(
            profile, {weapon.name: weapon}, [ModelState(profile.hp, (weapon.name,))]
        )
        perks = _names(profile.perks) | _names(weapon.perks)
        rows: list[_OddsRow] = []
        for t in self.data.target_pool:
            tp = self._pool_profile(t)
            target = UnitState(tp, {}, [ModelState(t.hp, ()) for _ in range(_TARGET_MODELS)])
            worth = self._pool_value(t)
            ranged_row: tuple[float, float] | None = None
            if weapon.range > 0:
                ctxs = _contexts(
                    perks,
                    melee=False,
                    ranged_half=self.c.half_range_share,
                    half_possible=weapon.range >= 18,
                )
                ranged_row = self._expected_loss(attacker, target, ctxs)
            melee_row = self._expected_loss(
                attacker, target, _contexts(perks, melee=True, ranged_half=0, half_possible=False)
            )
            rows.append((t.weight, worth, ranged_row, melee_row))
        return rows

    def staying_power(self, attacks: float) -> float:
        c = self.c
        s = float((attacks / c.staying_power_reference) ** c.staying_power_exponent)
        return min(c.staying_power_max, max(c.staying_power_min, s))

    def mobility(self, profile: UnitProfile) -> float:
        c = self.c
        eff = min(profile.move + profile.dash / 2, c.mobility_cap)
        return c.mobility_base + c.mobility_slope * eff / 9

    # ---- perk prices -----------------------------------------------------------------

    def is_vulnerability(self, name: str) -> bool:
        """True when perk ``name`` lowers the price of what carries it."""
        perk = self.catalog.get(name)
        if perk.impl_class == "A":
            return perk.name in ATTACK_VULNERABILITIES
        price = self.prices.perks.get(perk.name)
        return bool(price and price.vulnerability)

    def priced_perk(
        self, name: str, kind: PerkKind, where: str = ""
    ) -> tuple[PerkDef, PerkPrice | None]:
        """The catalog entry and its table price (``None`` for attack-math perks)."""
        perk = self.catalog.find(name)
        if perk is None:
            raise UnknownNameError("perk", name, self.catalog.names, where=where)
        if perk.impl_class == "A":
            return perk, None
        price = self.prices.perks.get(perk.name)
        if price is None:
            raise DataFileError("perk_prices.yaml", f"no price for perk {perk.name!r}")
        return perk, price

    def price_method(self, name: str) -> str:
        """How perk ``name`` is priced, in words (``table multiplier ×1.8``, ``measured by
        odds``); ``""`` for a name that is not a perk."""
        perk = self.catalog.find(name)
        if perk is None:
            return ""
        if perk.impl_class == "A":
            return method_text("odds")
        price = self.prices.perks.get(perk.name)
        return method_text(price.price, price.value) if price is not None else ""

    # ---- units ------------------------------------------------------------------------

    def cost_unit(self, unit: Unit) -> UnitCost:
        """The itemised point cost of ``unit`` (before Traits, §12.6)."""
        key = unit.model_dump_json()
        hit = self._units.get(key)
        if hit is not None:
            return hit
        out = self._cost_unit(unit)
        self._units[key] = out
        return out

    def _cost_unit(self, unit: Unit) -> UnitCost:
        c = self.c
        p = unit.profile
        weapons = {w.name: w for w in unit.weapons}
        unit_mult: list[tuple[PerkDef, PerkPrice]] = []
        unit_adds: list[tuple[PerkDef, PerkPrice]] = []
        unit_once: list[CostItem] = []
        notes: list[str] = []
        shares: dict[tuple[str, str], list[Any]] = {}  # (perk, on) -> [points, PerkPrice]

        def share(perk: PerkDef, on: str, price: PerkPrice, points: float) -> None:
            entry = shares.setdefault((perk.name, on), [0.0, price])
            entry[0] += points

        for name in p.perks:
            perk, price = self.priced_perk(name, PerkKind.UNIT_PERK, where=p.name)
            if price is None or perk.kind is PerkKind.TRAIT:
                continue  # attack math is in the numbers; Traits are priced in the Roster
            if price.price == "multiplier":
                unit_mult.append((perk, price))
            elif price.price == "per_model":
                unit_adds.append((perk, price))
            else:
                unit_once.append(CostItem(perk.name, price.value, price.reason))
                share(perk, p.name, price, price.value)
        mob = self.mobility(p)
        groups: list[GroupCost] = []
        for g in _merge_groups(unit):
            loadout = tuple(weapons[n] for n in g[1])
            dur = self.durability(p, loadout)
            items: list[CostItem] = []
            body = self.body_points(dur.attacks)
            items.append(
                CostItem(
                    "Body",
                    body,
                    f"Defence {p.defence}, {p.hp} HP, Armour {_save(p.armour)}, AEGIS "
                    f"{_save(p.aegis)}: {dur.attacks:.3f} reference attacks to remove; "
                    f"{c.body_points:g} × {dur.attacks:.3f}^{c.body_exponent:g}",
                )
            )
            stay = self.staying_power(dur.attacks)
            subtotal = body
            weapon_perks: list[tuple[PerkDef, str, PerkPrice, float]] = []
            for w in loadout:
                pts, reason, perk_deltas = self._weapon_points(p, w, stay)
                items.append(CostItem(f"Weapon {w.name}", pts, reason))
                subtotal += pts
                weapon_perks += [(perk, w.name, price, d) for perk, price, d in perk_deltas]
            if p.transport:
                t_pts = (
                    c.transport_points_per_capacity * p.transport
                    + c.fire_point_points * p.fire_points
                )
                items.append(
                    CostItem(
                        "Transport",
                        t_pts,
                        f"capacity {p.transport} pts × {c.transport_points_per_capacity:g}"
                        + (
                            f" + {p.fire_points} Fire Points × {c.fire_point_points:g}"
                            if p.fire_points
                            else ""
                        ),
                    )
                )
                subtotal += t_pts
            per_model = subtotal * mob
            # A weapon perk's points are in the subtotal, so mobility scales them; the unit's
            # multipliers then apply to everything before them (each perk's share is what it
            # changed when it was applied, so the shares and the base add up to the price).
            for perk, on, price, d in weapon_perks:
                share(perk, on, price, d * mob * g[0])
            items.append(
                CostItem(
                    "Mobility",
                    per_model - subtotal,
                    f'Move {p.move}", Dash {p.dash}": × {mob:.3f}',
                    factor=mob,
                )
            )
            for perk, price in unit_mult:
                before = per_model
                per_model *= price.value
                items.append(
                    CostItem(perk.name, per_model - before, price.reason, factor=price.value)
                )
                share(perk, p.name, price, (per_model - before) * g[0])
            for perk, price in unit_adds:
                per_model += price.value
                items.append(CostItem(perk.name, price.value, price.reason))
                share(perk, p.name, price, price.value * g[0])
            if per_model < 0:
                notes.append(f"models carrying {list(g[1])} priced below 0 pts; counted as 0")
                per_model = 0.0
            groups.append(GroupCost(g[0], g[1], per_model, tuple(items)))
        # Shares in the order carried: the unit's perks, then each weapon's.
        carried = [(self.catalog.get(n).name, p.name) for n in p.perks] + [
            (self.catalog.get(n).name, w.name) for w in unit.weapons for n in w.perks
        ]
        order = {key: i for i, key in enumerate(carried)}
        exact = sum(g.points for g in groups) + sum(i.points for i in unit_once)
        exact = max(0.0, exact)
        cost = UnitCost(
            unit=p.name,
            total=_round_points(exact),
            exact=exact,
            groups=tuple(groups),
            unit_items=tuple(unit_once),
            version=self.version,
            notes=tuple(notes),
            perks=tuple(
                PerkShare(perk, on, price.price, pts, price.reason, price.value)
                for (perk, on), (pts, price) in sorted(
                    shares.items(), key=lambda kv: order.get(kv[0], len(order))
                )
            ),
        )
        return cost

    def _weapon_points(
        self, profile: UnitProfile, w: WeaponProfile, stay: float
    ) -> tuple[float, str, list[tuple[PerkDef, PerkPrice, float]]]:
        """One model's points for ``w``, the reason, and each table-priced perk's change."""
        c = self.c
        v = self.weapon_value(profile, w)
        pts = c.offence_factor * v.points * stay
        parts = []
        reach_on = c.reach_gap > 0
        if w.range > 0:
            parts.append(
                f"ranged {v.ranged:.3f} × range {v.range_factor:.3f} × {w.type.value} "
                f"{v.type_factor:.3g}" + (f" × reach {v.ranged_reach:.3f}" if reach_on else "")
            )
        parts.append(f"melee {v.melee:.3f}" + (f" × reach {v.melee_reach:.3f}" if reach_on else ""))
        if v.self_harm:
            parts.append(f"self-harm −{v.self_harm:.3f}")
        reason = (
            " + ".join(parts)
            + f" = {v.points:.3f} pts destroyed per Attack Phase × {c.offence_factor:g}"
            + f" × staying power {stay:.3f}"
        )
        deltas: list[tuple[PerkDef, PerkPrice, float]] = []
        for name in w.perks:
            perk, price = self.priced_perk(name, PerkKind.WEAPON_PERK, where=w.name)
            if price is None:
                continue
            before = pts
            if price.price == "multiplier":
                pts *= price.value
                reason += f"; {perk.name} × {price.value:g}"
            else:
                pts += price.value
                reason += f"; {perk.name} {price.value:+g}"
            deltas.append((perk, price, pts - before))
        return pts, reason, deltas

    # ---- weapons alone (the Armoury) ---------------------------------------------------

    def cost_weapon(self, weapon: WeaponProfile, profile: UnitProfile | None = None) -> float:
        """Points a weapon adds to one model (a reference trooper unless ``profile`` is given)."""
        body = profile or _REFERENCE_TROOPER
        stay = self.staying_power(self.durability(body, (weapon,)).attacks)
        return self._weapon_points(body, weapon, stay)[0]

    # ---- explanations ------------------------------------------------------------------

    def perk_shares(self, unit: Unit) -> tuple[PerkShare, ...]:
        """Every priced perk of ``unit`` and its share of the price, in the order carried.

        Table-priced perks come from :attr:`UnitCost.perks`. An attack-math perk has no table
        price: its share is measured by the odds engine as the unit's exact price minus the
        price of the same unit without that one perk (``method == "odds"``). Those shares do
        not add up with the rest (perks interact through the dice), so they explain the price
        rather than split it. Traits are priced in the Roster (:meth:`trait_price`).
        """
        cost = self.cost_unit(unit)
        table = {(s.perk, s.on): s for s in cost.perks}
        out: list[PerkShare] = []
        p = unit.profile

        def without(perks: Sequence[str], name: str) -> list[str]:
            return [n for n in perks if n != name]

        for name in p.perks:
            perk = self.catalog.find(name)
            if perk is None or perk.kind is PerkKind.TRAIT:
                continue
            if perk.impl_class == "A":
                other = unit.model_copy(
                    update={"profile": p.model_copy(update={"perks": without(p.perks, name)})}
                )
                out.append(self._odds_share(perk, p.name, cost, other))
            elif (perk.name, p.name) in table:
                out.append(table[(perk.name, p.name)])
        for i, w in enumerate(unit.weapons):
            for name in w.perks:
                perk = self.catalog.find(name)
                if perk is None:
                    continue
                if perk.impl_class == "A":
                    weapons = list(unit.weapons)
                    weapons[i] = w.model_copy(update={"perks": without(w.perks, name)})
                    other = unit.model_copy(update={"weapons": weapons})
                    out.append(self._odds_share(perk, w.name, cost, other))
                elif (perk.name, w.name) in table:
                    out.append(table[(perk.name, w.name)])
        return tuple(out)

    def _odds_share(self, perk: PerkDef, on: str, cost: UnitCost, other: Unit) -> PerkShare:
        without = self.cost_unit(other).exact
        return PerkShare(
            perk.name,
            on,
            "odds",
            cost.exact - without,
            f"exact odds against the reference pools: {cost.exact:.2f} pts with it, "
            f"{without:.2f} without",
        )

    # ---- roster-level prices -----------------------------------------------------------

    def trait_price(
        self, cost: float, traits: Sequence[str], where: str = ""
    ) -> tuple[float, tuple[CostItem, ...]]:
        """A unit's roster cost after its Traits (§12.6), itemised."""
        items: list[CostItem] = []
        out = cost
        for name in traits:
            perk, price = self.priced_perk(name, PerkKind.TRAIT, where=where)
            if price is None:  # pragma: no cover - no Trait is attack math
                continue
            if price.price == "multiplier":
                before = out
                out *= price.value
                items.append(CostItem(perk.name, out - before, price.reason, factor=price.value))
            else:
                out += price.value
                items.append(CostItem(perk.name, price.value, price.reason))
        return out, tuple(items)

    def roster_perk_price(self, name: str) -> CostItem:
        """The price of one Roster Perk (§12.6)."""
        perk, price = self.priced_perk(name, PerkKind.ROSTER_PERK)
        assert price is not None
        return CostItem(perk.name, price.value, price.reason)


_REFERENCE_TROOPER = UnitProfile(name="Trooper", move=6, dash=6, defence=3, hp=1, armour=5)


def _save(v: int | None) -> str:
    return "-" if v is None else f"{v}+"


def _merge_groups(unit: Unit) -> list[tuple[int, tuple[str, ...]]]:
    """Model groups with the same loadout merged, in first-seen order."""
    counts: dict[tuple[str, ...], int] = {}
    for g in unit.models:
        key = tuple(g.weapons)
        counts[key] = counts.get(key, 0) + g.count
    return [(n, k) for k, n in counts.items()]


# --------------------------------------------------------------------------------------------
# Module-level API
# --------------------------------------------------------------------------------------------


@cache
def default_model() -> PointsModel:
    """The shared model with the packaged data (its caches live as long as the process)."""
    return PointsModel()


def cost_unit(unit: Unit) -> UnitCost:
    """The itemised point cost of ``unit`` with the packaged model."""
    return default_model().cost_unit(unit)


def trait_cost(cost: float, traits: Sequence[str]) -> float:
    """What a Roster pays for a unit of ``cost`` with ``traits`` (their prices, §12.6)."""
    return default_model().trait_price(cost, traits)[0]


def price_method(perk: str) -> str:
    """How ``perk`` is priced by the packaged model, in words (:meth:`PointsModel.price_method`)."""
    return default_model().price_method(perk)


def roster_perk_cost(perk: str) -> float:
    """What a Roster pays for one Roster Perk (its ``per_roster`` price)."""
    return default_model().roster_perk_price(perk).points


def current_point_cost(full_cost: float, total_hp: int, remaining_hp: int) -> float:
    """Book 2 §12.1 Current Point Cost: ``cost / total HP × remaining HP``.

    >>> current_point_cost(120, 6, 3)
    60.0
    """
    if total_hp <= 0:
        raise ValueError("total_hp must be positive")
    remaining = min(max(remaining_hp, 0), total_hp)
    return full_cost / total_hp * remaining


#: Book 2 §12.2 (line 333): "Fusion Units multiply their current value by 10, Respawn Units
#: divide it by 2, and Summon divides the Unit's cost by four."
VALUE_FACTORS: Mapping[str, float] = {"Fusion": 10.0, "Respawn": 0.5, "Summon": 0.25}


def trait_adjusted(cost: float, perks_and_traits: Iterable[str]) -> float:
    """A unit's Current Point Cost in a Roster after Fusion ×10, Respawn ÷2, Summon ÷4."""
    out = cost
    names = {p.strip().lower() for p in perks_and_traits}
    for name, factor in VALUE_FACTORS.items():
        if name.lower() in names:
            out *= factor
    return out


def perk_shares(unit: Unit) -> tuple[PerkShare, ...]:
    """Every priced perk of ``unit`` with its share and method (:meth:`PointsModel.perk_shares`)."""
    return default_model().perk_shares(unit)
