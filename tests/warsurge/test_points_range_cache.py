"""The points model re-uses a weapon's odds across Range edits (issue 13, re-cost speed).

The attack math reads a weapon's Range only as ``range <= 0`` and ``range >= 18``
(``attack.py``: §1.6 melee weapons; Impact and Rapid at half range), so the model measures the
odds of a Range *class* and prices the exact Range with ``range_factor``. These tests check that
the prices are identical, float for float, to a model that measures the odds with each weapon's
own Range and shares no cache: every unit of every example roster and example unit file, with
its weapons' Ranges moved across the class boundaries.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from warbench.kernel.errors import WarbenchError
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.io import load_unit
from warbench.rulesets.warsurge.points import PointsModel, _odds_range
from warbench.rulesets.warsurge.profiles import Unit, WeaponProfile
from warbench.rulesets.warsurge.roster_io import load_roster

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "warsurge"

#: Ranges either side of each class boundary the attack math reads (0 | 1..17 | 18..).
RANGES = (0, 1, 12, 17, 18, 24, 30)


class _ExactRangeModel(PointsModel):
    """The model before the Range-class view: the odds are measured with the exact Range."""

    def _weapon_view(self, weapon: WeaponProfile, name: str) -> WeaponProfile:
        return super()._weapon_view(weapon, name).model_copy(update={"range": weapon.range})


def _example_units() -> list[tuple[str, Unit]]:
    units: list[tuple[str, Unit]] = []
    for path in sorted((EXAMPLES / "roster_files").glob("*.yaml")):
        roster = load_roster(path)
        units += [(f"{path.stem}/{e.name}", e.unit) for e in roster.units]
    for path in sorted((EXAMPLES / "rosters").glob("*.yaml")):  # game rosters (docs/game.md)
        player = load_game_roster(path)
        units += [(f"{path.stem}/{e.unit.profile.name}", e.unit) for e in player.roster]
    for path in sorted(EXAMPLES.glob("*.yaml")):
        try:
            unit = load_unit(path)
        except WarbenchError:  # weapon files and attack-example files are not units
            continue
        units.append((path.stem, unit))
    seen: dict[str, tuple[str, Unit]] = {}
    for label, unit in units:
        seen.setdefault(unit.model_dump_json(), (label, unit))
    return list(seen.values())


def _with_range(unit: Unit, weapon_range: int) -> Unit:
    weapons = [w.model_copy(update={"range": weapon_range}) for w in unit.weapons[:1]]
    return unit.model_copy(update={"weapons": weapons + unit.weapons[1:]})


def test_odds_range_keeps_the_two_comparisons_the_attack_math_makes() -> None:
    for r in range(0, 301):
        c = _odds_range(r)
        assert (c <= 0, c >= 18, c > 0) == (r <= 0, r >= 18, r > 0), r


def test_example_units_are_found() -> None:
    assert len(_example_units()) >= 8


@pytest.mark.parametrize(("label", "unit"), _example_units(), ids=lambda x: str(x)[:40])
def test_example_unit_costs_equal_the_exact_range_model_across_ranges(
    label: str, unit: Unit
) -> None:
    shared = PointsModel()  # warm: each Range after the first re-uses the class's odds
    for r in (None, *RANGES):
        u = unit if r is None or not unit.weapons else _with_range(unit, r)
        got = shared.cost_unit(u)
        want = _ExactRangeModel().cost_unit(u)  # fresh: nothing cached
        assert got == want, (label, r)


def test_a_range_edit_within_a_class_measures_no_new_odds() -> None:
    model = PointsModel()
    unit = next(
        e.unit
        for e in load_game_roster(EXAMPLES / "rosters" / "sci_fi_humans.yaml").roster
        if any(w.range >= 18 for w in e.unit.weapons)
    )
    ranged = next(w for w in unit.weapons if w.range >= 18)
    model.cost_unit(unit)
    measured = len(model._offence_odds)
    longer = ranged.model_copy(update={"range": ranged.range + 7})
    model.cost_unit(
        unit.model_copy(update={"weapons": [longer if w is ranged else w for w in unit.weapons]})
    )
    assert len(model._offence_odds) == measured
    assert len(model._offence) > 0
