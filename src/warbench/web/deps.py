"""What the API's route modules share: the app's database, and units named by requests.

Kept apart from :mod:`warbench.web.api` so that the route modules (``api_rosters`` …) import it
without importing each other.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from warbench.kernel.errors import ProfileError, UnknownNameError
from warbench.rulesets.warsurge.profiles import Unit

if TYPE_CHECKING:
    from warbench.storage.store import Store

_FORBID = ConfigDict(extra="forbid")


UNIT_BODY_DOC = (
    "A unit in the CLI's unit file format: `unit` (the §1.5 profile), `weapons` (§1.6 "
    "profiles) and `models` (groups of models and the weapons each carries)."
)


def get_store(request: Request) -> Store:
    """The app's database (the same one as the CLI's: ``--db``, ``$WARBENCH_DB`` or default)."""
    store: Store = request.app.state.store
    return store


if TYPE_CHECKING:
    StoreDep = Annotated[Store, Depends(get_store)]
else:  # the storage layer (SQLAlchemy) loads when a route first needs the database
    StoreDep = Annotated[Any, Depends(get_store)]


def read_unit(data: dict[str, Any], where: str = "unit") -> Unit:
    """Validate a unit mapping of the unit file format; errors name ``where.field``."""
    from warbench.rulesets.warsurge.io import unit_from_data

    return unit_from_data(data, source="request", prefix=where)


@cache
def example_units() -> tuple[Unit, ...]:
    """The §2.3 Attack Examples' units shipped with the web package."""
    from warbench.rulesets.warsurge.io import units_from_data

    text = resources.files("warbench.web").joinpath("data", "examples.yaml").read_text("utf-8")
    import yaml

    units = units_from_data(yaml.safe_load(text), source="examples.yaml")
    # Two "Troopers" units: the 10-model one of the Melee Example gets its own name.
    out: list[Unit] = []
    for u in units:
        if any(o.name == u.name for o in out):
            u = u.model_copy(
                update={"profile": u.profile.model_copy(update={"name": f"{u.name} x10"})}
            )
        out.append(u)
    return tuple(out)


class UnitRef(BaseModel):
    """Where a unit comes from: a shipped example, a faction or a roster in the database, or
    inline."""

    model_config = _FORBID

    source: Literal["example", "saved", "roster", "inline"] = "example"
    name: str | None = Field(
        None, max_length=80, description="Unit name (example or saved), or roster entry name."
    )
    faction: str | None = Field(None, max_length=120, description="Faction of a saved unit.")
    roster: str | None = Field(None, max_length=120, description="Roster of a roster entry.")
    data: dict[str, Any] | None = Field(None, description=UNIT_BODY_DOC)


def resolve_unit(ref: UnitRef, store: Store, where: str) -> Unit:
    """The unit a :class:`UnitRef` names; errors name ``where``."""
    if ref.source == "inline":
        if ref.data is None:
            raise ProfileError(f"{where}.data", None, "a unit mapping (unit, weapons, models)")
        return read_unit(ref.data, f"{where}.data")
    if not ref.name:
        raise ProfileError(f"{where}.name", ref.name, "the name of a unit")
    if ref.source == "example":
        for u in example_units():
            if u.name.lower() == ref.name.strip().lower():
                return u
        raise UnknownNameError("example unit", ref.name, [u.name for u in example_units()])
    if ref.source == "roster":
        if not ref.roster:
            raise ProfileError(f"{where}.roster", ref.roster, "the name of a roster")
        # the entry as the roster fields it (its model groups, weapons and Traits' unit)
        return store.roster(ref.roster).entry(ref.name).unit
    return store.find_unit(ref.name, ref.faction)
