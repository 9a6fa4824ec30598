"""The JSON API of the web workbench (``/api/...``, issue 13).

Every route calls the rules code the CLI calls; none decides a rule itself (STYLE.md principle
15: the web is a client). Profiles are read by :func:`~warbench.rulesets.warsurge.io.
unit_from_data` (the unit file format of the CLI), costs come from the points model
(:mod:`~warbench.rulesets.warsurge.points` through :func:`~warbench.rulesets.warsurge.costing.
default_coster`), odds from :mod:`~warbench.rulesets.warsurge.odds`, rosters from
:mod:`~warbench.rulesets.warsurge.roster`, share codes from :mod:`~warbench.rulesets.warsurge.
share` and dice from :mod:`warbench.kernel.dice`. Refusals are typed errors, answered as 4xx by
:mod:`warbench.web.errors`.

Routes are plain ``def`` functions: FastAPI runs them in its thread pool, so a long exact-odds
enumeration does not block the other requests.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from warbench.kernel.errors import ProfileError
from warbench.web.deps import (
    UNIT_BODY_DOC,
    StoreDep,
    UnitRef,
    example_units,
    get_store,
    read_unit,
    resolve_unit,
)

__all__ = [
    "UNIT_BODY_DOC",
    "StoreDep",
    "UnitRef",
    "example_units",
    "get_store",
    "read_unit",
    "resolve_unit",
    "router",
]

router = APIRouter(prefix="/api")

_FORBID = ConfigDict(extra="forbid")

# ------------------------------------------------------------------------------------ meta


@router.get("/version", tags=["meta"])
def version() -> dict[str, str]:
    """The ruleset and points-model versions the API answers with."""
    from warbench.rulesets.warsurge import RULESET_VERSION
    from warbench.rulesets.warsurge.costing import default_coster

    return {"ruleset": RULESET_VERSION, "points_model": default_coster().version}


# ------------------------------------------------------------------------------------ perks


class PerkOut(BaseModel):
    """One perk rank of Book 2 §12.4-§12.6 as the perk picker and the Rules tab show it."""

    name: str
    kind: str
    family: str
    activation: list[str]
    summary: str
    section: str
    rule: str
    price: str = Field(description="How the points model prices it, in one line.")


def _price_text(name: str, impl_class: str) -> str:
    from warbench.rulesets.warsurge.points import load_price_table

    entry = load_price_table().perks.get(name)
    if entry is None:
        if impl_class == "A":
            return "priced by the exact odds of what it does (see the itemised cost)"
        return "no price entry"
    value = {
        "multiplier": f"x{entry.value:g}",
        "per_model": f"{entry.value:+g} pts per model",
        "per_unit": f"{entry.value:+g} pts per unit",
        "per_roster": f"{entry.value:+g} pts per roster",
    }[entry.price]
    return f"{value}: {entry.reason}"


@cache
def perk_rows() -> tuple[PerkOut, ...]:
    from warbench.rulesets.warsurge.perks import PerkCatalog

    return tuple(
        PerkOut(
            name=p.name,
            kind=p.kind.value,
            family=p.family,
            activation=list(p.activation),
            summary=p.summary,
            section=p.section,
            rule=p.rule,
            price=_price_text(p.name, p.impl_class),
        )
        for p in PerkCatalog.load()
    )


PerkKindName = Literal["Unit Perk", "Weapon Perk", "Trait", "Roster Perk"]


@router.get("/perks", tags=["rules"])
def perks(
    q: Annotated[str, Query(max_length=80, description="Words in the name or text.")] = "",
    kind: PerkKindName | None = None,
    limit: Annotated[int, Query(ge=1, le=400)] = 50,
) -> list[PerkOut]:
    """Search the perk catalog (Book 2 §12.4-§12.6) by name or text; names match first."""
    words = q.lower().split()
    rows = [r for r in perk_rows() if kind is None or r.kind == kind]
    if words:
        in_name = [r for r in rows if all(w in r.name.lower() for w in words)]
        in_text = [
            r
            for r in rows
            if r not in in_name
            and all(w in f"{r.name} {r.summary} {' '.join(r.activation)}".lower() for w in words)
        ]
        rows = in_name + in_text
    return rows[:limit]


@router.get("/perks/{name}", tags=["rules"])
def perk(name: str) -> PerkOut:
    """One perk by name, written as players write it (``Destroy 1``, ``aim 4``)."""
    from warbench.rulesets.warsurge.perks import PerkCatalog

    found = PerkCatalog.load().get(name)
    return next(r for r in perk_rows() if r.name == found.name)


# ------------------------------------------------------------------------------------ units


class UnitCheck(BaseModel):
    """A validated unit, its itemised cost and the perks nothing implements yet."""

    unit: dict[str, Any]
    cost: dict[str, Any]
    warnings: list[str]


@router.post("/units/cost", tags=["units"])
def cost_unit(
    body: Annotated[dict[str, Any], Field(description=UNIT_BODY_DOC)],
    request: Request,
) -> UnitCheck:
    """Validate a unit (§1.5-1.6 ranges) and cost it item by item (points model, versioned)."""
    from warbench.rulesets.warsurge.costing import default_coster
    from warbench.rulesets.warsurge.io import perk_warnings, unit_to_data

    try:
        unit = read_unit(body)
        cost = default_coster().cost_unit(unit)
        to_dict = getattr(cost, "to_dict", None)
        data = to_dict() if to_dict is not None else {"unit": cost.unit, "points": cost.total}
        return UnitCheck(unit=unit_to_data(unit), cost=data, warnings=perk_warnings(unit))
    finally:
        # the Design page has its first answer: ``warbench serve`` opens the database now
        first_cost = getattr(request.app.state, "first_cost", None)
        if first_cost is not None:
            first_cost.set()


class UnitListing(BaseModel):
    """A unit the Odds page can pick."""

    source: Literal["example", "saved", "roster"]
    name: str
    faction: str | None = None
    roster: str | None = Field(None, description="The roster of a roster entry.")
    models: int
    weapons: list[str]


@router.get("/units", tags=["units"])
def list_units(store: StoreDep) -> list[UnitListing]:
    """Every unit to pick from: the shipped examples, each faction's saved units, then each
    roster's entries (as fielded: their model groups and weapons)."""
    out = [
        UnitListing(
            source="example", name=u.name, models=u.model_count, weapons=[w.name for w in u.weapons]
        )
        for u in example_units()
    ]
    for f in store.factions():
        for u in store.faction_units(f.name):
            out.append(
                UnitListing(
                    source="saved",
                    name=u.name,
                    faction=f.name,
                    models=u.model_count,
                    weapons=[w.name for w in u.weapons],
                )
            )
    for summary in store.rosters():
        if not summary.name.strip():
            continue  # a blank name an older version saved: no handle to pick it by
        for e in store.roster(summary.name).units:
            out.append(
                UnitListing(
                    source="roster",
                    name=e.name,
                    roster=summary.name,
                    models=e.unit.model_count,
                    weapons=[w.name for w in e.unit.weapons],
                )
            )
    return out


class SaveUnit(BaseModel):
    """Save a designed unit into a faction (created when missing)."""

    model_config = _FORBID

    faction: str = Field(min_length=1, max_length=120)
    unit: dict[str, Any] = Field(description=UNIT_BODY_DOC)
    replace: bool = False


@router.post("/units", tags=["units"], status_code=201)
def save_unit(body: SaveUnit, store: StoreDep) -> UnitListing:
    """Validate a unit and keep it in a faction of the database (``warbench faction``)."""
    unit = read_unit(body.unit)
    if not any(f.name.lower() == body.faction.strip().lower() for f in store.factions()):
        store.create_faction(body.faction.strip())
    store.add_units(body.faction.strip(), [unit], replace=body.replace)
    return UnitListing(
        source="saved",
        name=unit.name,
        faction=body.faction.strip(),
        models=unit.model_count,
        weapons=[w.name for w in unit.weapons],
    )


# ------------------------------------------------------------------------------------ odds


class OddsRequest(BaseModel):
    """One unit attacking another, and the situation (Core Rules §5)."""

    model_config = _FORBID

    attacker: UnitRef
    target: UnitRef
    weapons: list[Annotated[str, Field(max_length=80)]] = Field(
        default_factory=list, max_length=20, description="Weapons to use, in order (default all)."
    )
    melee: bool = Field(False, description="Attacker and target in the same Melee (§5.9).")
    cover: bool = Field(False, description="The target has a Cover Bonus (§5.6).")
    cover_bonus: int = Field(1, ge=0, le=5)
    advanced: bool = Field(False, description="Advanced playstyle (§9).")
    stationary: bool = Field(False, description="The attacker did not move.")
    within_half_range: bool = False
    target_airborne: bool = False
    in_sight: int | None = Field(None, ge=0, le=500, description="Target models in sight.")
    monte_carlo: int = Field(0, ge=0, le=200_000, description="Also sample N trials.")
    seed: int | None = Field(None, ge=0, le=2**63 - 1, description="Monte Carlo seed.")


def _odds_dict(odds: Any) -> dict[str, Any]:
    return {
        "exact": odds.exact,
        "trials": odds.trials,
        "confidence_95": odds.confidence_halfwidth(),
        "weapons": list(odds.weapons),
        "weapons_not_used": [{"weapon": w, "reason": why} for w, why in odds.unused_weapons],
        "expected_hp_lost": odds.expected_hp_lost,
        "expected_models_slain": odds.expected_models_slain,
        "wipe_chance": odds.wipe_chance,
        "eligible_models": odds.eligible_models,
        "expected_attacker_hp_lost": odds.expected_attacker_hp_lost,
        "hp_lost": {str(k): v for k, v in sorted(odds.hp_lost.items())},
        "models_slain": {str(k): v for k, v in sorted(odds.models_slain.items())},
        "per_weapon_expected_hp_lost": dict(odds.per_weapon_mean),
        "explanations": list(odds.notes),
    }


@router.post("/odds", tags=["odds"])
def odds(body: OddsRequest, store: StoreDep) -> dict[str, Any]:
    """Exact odds (Monte Carlo only when enumeration is too large), and an optional check."""
    from warbench.kernel.dice import SeededDice
    from warbench.rulesets.warsurge import RULESET_VERSION
    from warbench.rulesets.warsurge.attack import AttackContext, Playstyle, UnitState
    from warbench.rulesets.warsurge.odds import AttackPlan, attack_odds, sample_attack

    attacker = resolve_unit(body.attacker, store, "attacker")
    target = resolve_unit(body.target, store, "target")
    ctx = AttackContext(
        melee=body.melee,
        cover=body.cover,
        cover_bonus=body.cover_bonus,
        stationary=body.stationary,
        within_half_range=body.within_half_range,
        target_airborne=body.target_airborne,
        playstyle=Playstyle.ADVANCED if body.advanced else Playstyle.STANDARD,
        los_models=frozenset(range(body.in_sight)) if body.in_sight is not None else None,
    )
    plan = AttackPlan(
        UnitState.of(attacker), UnitState.of(target), ctx, weapons=tuple(body.weapons)
    )
    plan.verify_weapons()
    seed = SeededDice(_seed(body.seed), light=True).seed
    result = attack_odds(plan, seed=seed)
    out = {
        "attacker": attacker.name,
        "target": target.name,
        "ruleset": RULESET_VERSION,
        "seed": seed,
        **_odds_dict(result),
    }
    if body.monte_carlo:
        out["monte_carlo"] = _odds_dict(sample_attack(plan, body.monte_carlo, SeededDice(seed)))
    return out


# ------------------------------------------------------------------------------------ dice


class DiceRequest(BaseModel):
    """The Dice Generator (Core Rules §1.1, §1.4): a pool, a target and rerolls, seeded."""

    model_config = _FORBID

    expr: str = Field("D6", max_length=20, description="D2, D3, D6, 2D6 or nD6 (n ≤ 1000).")
    need: int | None = Field(None, ge=1, le=6, description="Successes on this value or more.")
    reroll: str | None = Field(
        None, max_length=20, description="Faces to reroll once (1,2), failed or successful."
    )
    seed: int | None = Field(None, ge=0, le=2**63 - 1)


def _reroll_values(text: str | None, sides: int, need: int | None) -> set[int] | None:
    """The values to reroll (§1.4, 001 L327-329: failed or successful dice, never both)."""
    if text is None or not text.strip():
        return None
    key = text.strip().lower()
    if key in ("failed", "successful"):
        if need is None:
            raise ProfileError("reroll", text, "faces such as 1,2; failed/successful need `need`")
        return {v for v in range(1, sides + 1) if (v >= need) == (key == "successful")}
    try:
        values = {int(v) for v in key.split(",") if v.strip()}
    except ValueError:
        values = set()
    if not values or not values <= set(range(1, sides + 1)):
        raise ProfileError("reroll", text, f"faces 1 to {sides} (e.g. 1,2), failed or successful")
    if need is not None and len({v >= need for v in values}) > 1:
        raise ProfileError(
            "reroll",
            text,
            "failed faces or successful faces, never both (Core Rules §1.4)",
        )
    return values


@router.post("/dice/roll", tags=["dice"])
def roll(body: DiceRequest) -> dict[str, Any]:
    """Roll a pool: every face, rerolls once each (§1.4), total and successes; seed shown."""
    from warbench.kernel.dice import DiceExpr, SeededDice, read_face
    from warbench.kernel.errors import DiceError

    try:
        expr = DiceExpr.parse(body.expr.strip().upper(), max_count=1000)
    except DiceError as exc:
        raise ProfileError("expr", body.expr, "D2, D3, D6, 2D6 or nD6 up to 1000D6") from exc
    if expr.count == 0:
        raise ProfileError("expr", body.expr, "dice to roll: D2, D3, D6, 2D6 or nD6")
    if body.need is not None and body.need > expr.sides:
        raise ProfileError("need", body.need, f"1 to {expr.sides} for a D{expr.sides}")
    reroll = _reroll_values(body.reroll, expr.sides, body.need)
    dice = SeededDice(_seed(body.seed), light=True)
    faces = dice.roll_dice(expr.count, "roll")
    before = None
    if reroll:
        physical = {f for f in range(1, 7) if read_face(f, expr.sides) in reroll}
        before = [read_face(f, expr.sides) for f in faces]
        faces = dice.reroll_faces(faces, physical, "roll reroll")
    values = [read_face(f, expr.sides) for f in faces]
    out: dict[str, Any] = {
        "expr": str(expr),
        "seed": dice.seed,
        "sides": expr.sides,
        "faces": values,
        "before_reroll": before,
        "total": expr.value_of(faces),
        "counts": {str(v): values.count(v) for v in range(1, expr.sides + 1)},
    }
    if body.need is not None:
        out["need"] = body.need
        out["successes"] = sum(1 for v in values if v >= body.need)
    return out


#: A seed the server draws is below 2**53: a page reads JSON numbers as doubles, and the Play
#: Manager's and the Dice page's "seed 8869547101974078000" was not the seed drawn (session 37).
SAFE_SEED = 2**53


def _seed(given: int | None) -> int:
    """The request's seed, else one drawn below :data:`SAFE_SEED` (shown exactly in a page)."""
    import secrets

    return secrets.randbelow(SAFE_SEED) if given is None else given


class ScatterRequest(BaseModel):
    """The Scatter Arrow (Perks §12.3), manual method."""

    model_config = _FORBID

    distance_dice: int = Field(2, ge=1, le=2)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)


@router.post("/dice/scatter", tags=["dice"])
def scatter(body: ScatterRequest) -> dict[str, Any]:
    """A Hit (1 or 6 on the arrow die) or a direction and a distance in inches (§12.3)."""
    from warbench.kernel.dice import SeededDice

    dice = SeededDice(_seed(body.seed), light=True)
    s = dice.scatter(body.distance_dice)
    return {
        "seed": dice.seed,
        "hit": s.hit,
        "direction": s.direction.value if s.direction else None,
        "degrees": s.direction.degrees if s.direction else None,
        "distance": s.distance,
    }


# ------------------------------------------------------------------------------------ factions


class FactionOut(BaseModel):
    """A faction and its units (``warbench faction show``)."""

    name: str
    units: list[UnitListing]


@router.get("/factions", tags=["factions"])
def factions(store: StoreDep) -> list[FactionOut]:
    """Every faction with its units."""
    out = []
    for f in store.factions():
        units = [
            UnitListing(
                source="saved",
                name=u.name,
                faction=f.name,
                models=u.model_count,
                weapons=[w.name for w in u.weapons],
            )
            for u in store.faction_units(f.name)
        ]
        out.append(FactionOut(name=f.name, units=units))
    return out


class NewFaction(BaseModel):
    """A new, empty faction."""

    model_config = _FORBID

    name: str = Field(min_length=1, max_length=120)


@router.post("/factions", tags=["factions"], status_code=201)
def create_faction(body: NewFaction, store: StoreDep) -> FactionOut:
    """Create a faction (409 when one of that name exists)."""
    store.create_faction(body.name.strip())
    return FactionOut(name=body.name.strip(), units=[])


@router.get("/factions/{faction}/units/{unit}", tags=["factions"])
def faction_unit(faction: str, unit: str, store: StoreDep) -> dict[str, Any]:
    """One saved unit in the unit file format (to load it into the designer)."""
    from warbench.rulesets.warsurge.io import unit_to_data

    return unit_to_data(store.find_unit(unit, faction))


@router.delete("/factions/{faction}/units/{unit}", tags=["factions"], status_code=204)
def remove_faction_unit(faction: str, unit: str, store: StoreDep) -> Response:
    """Remove a unit from a faction."""
    store.remove_unit(faction, unit)
    return Response(status_code=204)


FileFormat = Literal["yaml", "json"]


@router.get("/factions/{faction}/export", tags=["factions"], response_class=Response)
def export_faction(faction: str, store: StoreDep, format: FileFormat = "yaml") -> Response:
    """The faction's units as a unit file (``units: [...]``) the CLI reads."""
    import json

    import yaml

    from warbench.rulesets.warsurge.io import units_to_data

    data = units_to_data(store.faction_units(faction))
    if format == "json":
        return Response(json.dumps(data, indent=2), media_type="application/json")
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    return Response(text, media_type="application/yaml")


class ImportUnits(BaseModel):
    """A unit file's text (YAML or JSON, one unit or ``units: [...]``) to add to a faction."""

    model_config = _FORBID

    text: str = Field(min_length=1, max_length=500_000)
    format: FileFormat = "yaml"
    filename: str = Field("upload", max_length=200, description="Named in error messages.")
    replace: bool = False


def parse_text(text: str, fmt: str, source: str) -> Any:
    """Parse YAML or JSON text; malformed text is a :class:`DataFileError` naming the line."""
    import json

    import yaml

    from warbench.kernel.errors import DataFileError

    try:
        data = json.loads(text) if fmt == "json" else yaml.safe_load(text)
    except json.JSONDecodeError as exc:
        raise DataFileError(source, f"malformed JSON at line {exc.lineno}: {exc.msg}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise DataFileError(source, f"malformed YAML{where}") from None
    if data is None:
        raise DataFileError(source, "the file is empty")
    return data


@router.post("/factions/{faction}/import", tags=["factions"])
def import_units(faction: str, body: ImportUnits, store: StoreDep) -> FactionOut:
    """Validate every unit of a unit file and add them all (or none) to the faction."""
    from warbench.rulesets.warsurge.io import units_from_data

    units = units_from_data(parse_text(body.text, body.format, body.filename), body.filename)
    store.add_units(faction, units, replace=body.replace)
    return next(f for f in factions(store) if f.name.lower() == faction.strip().lower())


# ------------------------------------------------------------------------------------ armoury


@router.get("/armoury", tags=["armoury"])
def armoury(store: StoreDep) -> list[dict[str, Any]]:
    """The Armoury's weapon profiles (reusable across units), in the weapon file format."""
    from warbench.rulesets.warsurge.io import weapon_to_data

    return [weapon_to_data(w) for w in store.weapons()]


class SaveWeapon(BaseModel):
    """A weapon profile (§1.6) to keep in the Armoury."""

    model_config = _FORBID

    weapon: dict[str, Any] = Field(description="A weapon profile (§1.6), as under `weapon:`.")
    replace: bool = False


@router.post("/armoury", tags=["armoury"], status_code=201)
def save_weapon(body: SaveWeapon, store: StoreDep) -> dict[str, Any]:
    """Validate a weapon profile and keep it in the Armoury (409 when the name is taken)."""
    from warbench.rulesets.warsurge.io import weapon_from_data, weapon_to_data

    weapon = weapon_from_data(body.weapon, source="request", prefix="weapon")
    store.add_weapons([weapon], replace=body.replace)
    return weapon_to_data(weapon)


@router.delete("/armoury/{name}", tags=["armoury"], status_code=204)
def remove_weapon(name: str, store: StoreDep) -> Response:
    """Remove a weapon profile from the Armoury."""
    store.remove_weapon(name)
    return Response(status_code=204)


# The roster, rules-section and WarEngine routes live in their own modules (they share
# web/deps.py with this one); the app includes them on first use (web/app.py, web/lazy.py).
