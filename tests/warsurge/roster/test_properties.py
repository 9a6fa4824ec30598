"""Monotonicity of roster costs and violations (issue 3, Done when), over random rosters.

With any coster whose unit cost does not fall when a model is added (the points model's own
monotonicity property), the roster layer keeps these properties; the transparent FakeCoster
is such a coster.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.warsurge.roster.fakes import FakeCoster
from tests.warsurge.roster.strategies import rosters, units
from warbench.rulesets.warsurge.costing import CachingCoster
from warbench.rulesets.warsurge.roster import (
    Roster,
    RosterEntry,
    ViolationCode,
    validate_roster,
)

FAST = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _codes(r: Roster) -> set[ViolationCode]:
    return {v.code for v in validate_roster(r, FakeCoster()).violations}


@FAST
@given(rosters(), units())
def test_adding_a_unit_never_lowers_the_total_nor_clears_over_limit(r: Roster, u) -> None:  # type: ignore[no-untyped-def]
    before = validate_roster(r, FakeCoster())
    after = validate_roster(r.with_entry(RosterEntry(name="Extra unit zz", unit=u)), FakeCoster())
    assert after.total >= before.total
    assert before.total == sum(e.points for e in before.entries) + before.perk_points
    if ViolationCode.OVER_LIMIT in {v.code for v in before.violations}:
        assert ViolationCode.OVER_LIMIT in {v.code for v in after.violations}


@FAST
@given(rosters(), st.integers(1, 1_000_000))
def test_a_lower_point_limit_never_clears_over_limit(r: Roster, lower: int) -> None:
    lower = min(lower, r.point_limit)
    if ViolationCode.OVER_LIMIT in _codes(r):
        assert ViolationCode.OVER_LIMIT in _codes(r.model_copy(update={"point_limit": lower}))


@FAST
@given(rosters(), st.data())
def test_more_models_never_lower_an_entry_cost(r: Roster, data: st.DataObject) -> None:
    if not r.units:
        return
    i = data.draw(st.integers(0, len(r.units) - 1))
    e = r.units[i]
    g = e.unit.models[0]
    bigger = e.unit.model_copy(
        update={"models": [g.model_copy(update={"count": g.count + 1}), *e.unit.models[1:]]}
    )
    r2 = r.model_copy(
        update={"units": [*r.units[:i], e.model_copy(update={"unit": bigger}), *r.units[i + 1 :]]}
    )
    a = validate_roster(r, FakeCoster()).entries[i]
    b = validate_roster(r2, FakeCoster()).entries[i]
    assert b.full >= a.full and b.points >= a.points


@FAST
@given(rosters())
def test_caching_never_changes_the_report(r: Roster) -> None:
    coster = CachingCoster(FakeCoster())
    plain = validate_roster(r, FakeCoster())
    assert validate_roster(r, coster).violations == plain.violations
    assert validate_roster(r, coster).total == plain.total  # from the cache
