"""The WarEngine 2.1 routes of the JSON API (``/api/warengine/...``, issue 13).

The figure designer and force builder of the WarEngine page call the ruleset's own code, as
``warbench warengine points/validate`` do: figures and forces are read by
:func:`~warbench.rulesets.warengine.io.parse_figure` / ``parse_force`` (every field checked
against the Troop Builder V2.1 tables), costed item by item by
:mod:`~warbench.rulesets.warengine.costs` (exact: WarpEyes is 244 points, 004 lines 925-963)
and checked against every limit by :mod:`~warbench.rulesets.warengine.validation`. The tables
the form offers (types, Mv, Df, Mn, CR, Range, AV, Area Effects, tweaks, powers, each with its
points) come from the ruleset's catalogue, so the page cannot drift from the costing.
"""

from __future__ import annotations

from dataclasses import asdict
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from warbench.web.deps import StoreDep

if TYPE_CHECKING:
    from warbench.rulesets.warengine.models import Force
    from warbench.storage.store import Store
    from warbench.storage.warengine_forces import ForceStore

router = APIRouter(prefix="/warengine", tags=["warengine"])

FIGURE_DOC = (
    "A figure in the WarEngine figure file format (name, type, mv, df, mn, cr, hero_points, "
    "tweaks, weapons, forms; docs/warengine.md)."
)
FORCE_DOC = (
    "A force in the WarEngine force file format (name, renown, force, figures by key, units "
    "with members and tweaks); figures are inline (no file paths)."
)


def _table(t: Any) -> dict[str, Any]:
    return {
        "name": t.name,
        "lines": t.lines,
        "rows": [{"value": r.value, "points": r.points, "class": r.weapon_class} for r in t.rows],
        "max_by_type": dict(t.max_by_type),
    }


@cache
def _tables() -> dict[str, Any]:
    from warbench.rulesets.warengine.tables import catalogue

    cat = catalogue()
    return {
        "types": [asdict(t) for t in cat.figure_types.values()],
        "movement": _table(cat.movement),
        "defense": _table(cat.defense),
        "mental": _table(cat.mental),
        "control_radius": _table(cat.control_radius),
        "range": _table(cat.range),
        "attack_value": _table(cat.attack_value),
        "area_effect": {k: str(v) for k, v in cat.area_effect.items()},
        "area_effect_types": [asdict(t) for t in cat.area_effect_types.values()],
        "personal_tweaks": [
            {"name": t.name, "cost": t.cost, "line": t.line} for t in cat.personal_tweaks.values()
        ],
        "weapon_tweaks": [
            {"name": t.name, "cost": t.cost, "line": t.line} for t in cat.weapon_tweaks.values()
        ],
        "unit_tweaks": [
            {"name": t.name, "cost": t.cost, "line": t.line} for t in cat.unit_tweaks.values()
        ],
        "special_powers": [
            {"name": p.name, "cost": p.cost, "line": p.line} for p in cat.special_powers.values()
        ],
        "hero_point_cost": cat.hero_point_cost,
        "hero_points_per_force_points": cat.hero_points_per_force_points,
    }


@router.get("/tables")
def tables() -> dict[str, Any]:
    """The Troop Builder V2.1 tables (004 lines 635-923) and the tweak and power lists with
    their points and book lines: what the figure designer offers."""
    from warbench.rulesets.warengine import RULESET_VERSION

    return {"ruleset": RULESET_VERSION, **_tables()}


@cache
def example_force_data() -> dict[str, Any]:
    """The StormReavers force with WarpEyes (shipped with the web package)."""
    import yaml

    text = resources.files("warbench.web").joinpath("data", "warengine_force.yaml").read_text()
    data: dict[str, Any] = yaml.safe_load(text)
    return data


@router.get("/example")
def example() -> dict[str, Any]:
    """An example force (StormReavers: WarpEyes, a Reaver squad, two Skimmers) to start from."""
    return example_force_data()


def _violations(found: list[Any]) -> list[dict[str, Any]]:
    return [
        {
            "where": v.where,
            "field": v.field,
            "value": v.value if isinstance(v.value, int | float | str | None) else str(v.value),
            "allowed": v.allowed,
            "explanation": v.explanation,
            "fix": v.fix,
            "rule": v.rule,
        }
        for v in found
    ]


class FigureCheck(BaseModel):
    """A figure as read, its itemised cost, its profile card and every limit it breaks."""

    figure: dict[str, Any]
    cost: dict[str, Any]
    card: str
    itemised: str
    violations: list[dict[str, Any]]


@router.post("/figures/cost")
def cost_figure(body: Annotated[dict[str, Any], Field(description=FIGURE_DOC)]) -> FigureCheck:
    """Read a figure (every field checked against its table), cost it item by item (Troop
    Builder V2.1) and list every limit it breaks (``warbench warengine points/validate``)."""
    from warbench.rulesets.warengine.card import itemised, profile_card
    from warbench.rulesets.warengine.costs import figure_cost
    from warbench.rulesets.warengine.io import parse_figure, to_data
    from warbench.rulesets.warengine.validation import check_figure

    fig = parse_figure(body, "figure")
    cost = figure_cost(fig)
    return FigureCheck(
        figure=to_data(fig),
        cost=cost.to_dict(),
        card=profile_card(fig, cost),
        itemised=itemised(cost),
        violations=_violations(check_figure(fig)),
    )


class ForceCheck(BaseModel):
    """A force's spending against its Points of Renown and Force, and every violation."""

    force: dict[str, Any]
    cost: dict[str, Any]
    figures: dict[str, int] = Field(description="Points of each figure, by key.")
    violations: list[dict[str, Any]]


@router.post("/forces/cost")
def cost_force(body: Annotated[dict[str, Any], Field(description=FORCE_DOC)]) -> ForceCheck:
    """Read a force (figures inline), cost every unit and the force's spending (Force Builder
    V2.1, 004 lines 965-997) and list every limit it breaks."""
    return _check(_read_inline_force(body))


# ------------------------------------------------------------------------ stored forces


class ForceSummaryOut(BaseModel):
    """One stored force in the list."""

    name: str
    renown: int
    force: int
    figures: int
    ruleset: str
    version: int


class StoredForce(ForceCheck):
    """A stored force: as costed by ``/forces/cost``, with its name and save counter (send
    the ``version`` back with the next save to be told when it changed elsewhere)."""

    name: str
    version: int


class SaveForce(BaseModel):
    """A force to store (figures inline); ``replace`` overwrites a force of that name."""

    model_config = ConfigDict(extra="forbid")

    force: dict[str, Any] = Field(description=FORCE_DOC)
    replace: bool = False


class ChangeForce(BaseModel):
    """A stored force's new content (figures inline); its ``name`` may differ (a rename)."""

    model_config = ConfigDict(extra="forbid")

    force: dict[str, Any] = Field(description=FORCE_DOC)


ForceVersion = Annotated[
    int | None,
    Query(ge=1, description="The force version the edit was made on (refused if it changed)."),
]


def _read_inline_force(data: dict[str, Any]) -> Force:
    """A force whose figures are all inline (a path would read the server's files)."""
    from warbench.kernel.errors import DataFileError
    from warbench.rulesets.warengine.io import parse_force

    figures = data.get("figures")
    if isinstance(figures, dict) and any(isinstance(v, str) for v in figures.values()):
        raise DataFileError("force", "figures must be inline here (no file paths)")
    return parse_force(data, "force")


def _check(force: Force) -> ForceCheck:
    from warbench.rulesets.warengine.costs import figure_cost, force_cost
    from warbench.rulesets.warengine.io import to_data
    from warbench.rulesets.warengine.validation import check_force

    return ForceCheck(
        force=to_data(force),
        cost=asdict(force_cost(force)),
        figures={k: figure_cost(f).points for k, f in force.figures.items()},
        violations=_violations(check_force(force)),
    )


def _stored(force: Force, version: int) -> StoredForce:
    return StoredForce(name=force.name, version=version, **_check(force).model_dump())


def _forces(store: Store) -> ForceStore:
    from warbench.storage.warengine_forces import ForceStore

    return ForceStore(store)


@router.get("/forces")
def list_forces(store: StoreDep) -> list[ForceSummaryOut]:
    """The WarEngine forces stored in the database, by name."""
    return [ForceSummaryOut(**vars(f)) for f in _forces(store).forces()]


@router.post("/forces", status_code=201)
def save_force(body: SaveForce, store: StoreDep) -> StoredForce:
    """Store a force (figures inline) under its name: every field is read as the Force
    Builder reads it; a force that breaks a limit is stored with its violations. A force of
    that name (any case) is refused (409) unless ``replace``."""
    force = _read_inline_force(body.force)
    version = _forces(store).save_force(force, replace=body.replace)
    return _stored(force, version)


@router.get("/forces/{name}")
def get_force(name: str, store: StoreDep) -> StoredForce:
    """A stored force (404 when unknown), costed, with every violation and its version."""
    loaded = _forces(store).versioned_force(name)
    return _stored(loaded.value, loaded.version)


@router.put("/forces/{name}")
def change_force(
    name: str, body: ChangeForce, store: StoreDep, version: ForceVersion = None
) -> StoredForce:
    """Replace the stored force ``name`` with the body's (a new ``name`` in the body renames
    it); with ``?version=N``, refused (409) if it was saved elsewhere since version N."""
    force = _read_inline_force(body.force)
    saved = _forces(store).save_force(force, name=name, expected_version=version)
    return _stored(force, saved)


@router.delete("/forces/{name}", status_code=204)
def delete_force(name: str, store: StoreDep, version: ForceVersion = None) -> Response:
    """Delete a stored force; with ``?version=N``, only if it is still at version N."""
    _forces(store).delete_force(name, expected_version=version)
    return Response(status_code=204)
