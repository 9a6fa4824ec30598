"""Points-model versions by name: ``ws-points-1`` (the default), ``ws-points-2``,
``ws-points-3``, ``ws-points-4``, ``ws-points-5`` and ``ws-points-6``.

Each version is a data file of constants and reference pools read by the same
:class:`~warbench.rulesets.warsurge.points.PointsModel` (``data/points_model.yaml`` is
``ws-points-1``; ``data/points_model_2.yaml`` is ``ws-points-2``, recalibrated from simulation,
docs/points.md §7; ``data/points_model_3.yaml`` is ``ws-points-3``, which adds reach, §8;
``data/points_model_4.yaml`` is ``ws-points-4``, which corrects reach's reading of Battle
weapons, §9; ``data/points_model_5.yaml`` is ``ws-points-5``, whose fit weighed mobility,
§9 "Round 8"; ``data/points_model_6.yaml`` is ``ws-points-6``, round 9's refit, checked in
§9 "Round 10"). A roster records the version it was priced with (``Roster.points_model``);
:func:`price_roster` prices with a chosen version and stamps it, :func:`coster_for` re-prices
a roster with the version it records.
"""

from __future__ import annotations

from functools import cache

from pydantic import ValidationError

from warbench.kernel.errors import DataFileError, UnknownNameError
from warbench.rulesets.warsurge.costing import CachingCoster, FunctionCoster
from warbench.rulesets.warsurge.points import (
    ModelData,
    PointsModel,
    _read_yaml,
    load_model_data,
    trait_adjusted,
)
from warbench.rulesets.warsurge.roster import Roster, RosterReport, validate_roster

#: Version name → the data file of its constants and pools.
POINTS_MODELS: dict[str, str] = {
    "ws-points-1": "points_model.yaml",
    "ws-points-2": "points_model_2.yaml",
    "ws-points-3": "points_model_3.yaml",
    "ws-points-4": "points_model_4.yaml",
    "ws-points-5": "points_model_5.yaml",
    "ws-points-6": "points_model_6.yaml",
}
#: The version a roster is priced with when none is chosen (the packaged default).
DEFAULT_POINTS_MODEL = "ws-points-1"


@cache
def model_data(version: str) -> ModelData:
    """The constants and pools of ``version`` (an :class:`UnknownNameError` for others)."""
    name = POINTS_MODELS.get(version)
    if name is None:
        raise UnknownNameError("points model", version, POINTS_MODELS)
    if name == "points_model.yaml":
        return load_model_data()
    try:
        data = ModelData.model_validate(_read_yaml(name))
    except ValidationError as exc:  # pragma: no cover - packaged data is tested
        raise DataFileError(name, str(exc)) from exc
    if data.version != version:  # pragma: no cover - packaged data is tested
        raise DataFileError(name, f"version {data.version!r}, expected {version!r}")
    return data


@cache
def points_model(version: str = DEFAULT_POINTS_MODEL) -> PointsModel:
    """The shared :class:`PointsModel` of ``version`` (its caches live as long as the process)."""
    if version == DEFAULT_POINTS_MODEL:
        from warbench.rulesets.warsurge.points import default_model

        return default_model()
    return PointsModel(model_data(version))


@cache
def coster(version: str = DEFAULT_POINTS_MODEL) -> CachingCoster:
    """A roster coster pricing with ``version`` (the default one is ``default_coster()``)."""
    if version == DEFAULT_POINTS_MODEL:
        from warbench.rulesets.warsurge.costing import default_coster

        return default_coster()
    model = points_model(version)
    return CachingCoster(
        FunctionCoster(
            version=version,
            cost_fn=model.cost_unit,
            trait_fn=trait_adjusted,
            price_fn=lambda cost, traits: model.trait_price(cost, traits)[0],
            perk_fn=lambda perk: model.roster_perk_price(perk).points,
            method_fn=model.price_method,
        )
    )


def coster_for(roster: Roster) -> CachingCoster:
    """The coster of the version ``roster`` records (the default when it records none)."""
    return coster(roster.points_model or DEFAULT_POINTS_MODEL)


def price_roster(
    roster: Roster, version: str = DEFAULT_POINTS_MODEL
) -> tuple[Roster, RosterReport]:
    """``roster`` priced with ``version``: the report, and the roster stamped with it."""
    c = coster(version)
    report = validate_roster(roster, c)
    return roster.stamped(c.version), report
