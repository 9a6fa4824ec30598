"""The arithmetic behind the tactical player's focus fire (issue 15, fifth session).

Pure functions over the exact odds engine's distributions (``warbench.api.odds``), so the
focus fire of :mod:`warbench.ai.tactical` can be checked on its own:

* :func:`expected_take`: what one attack is expected to take off a unit as it is now, the HP
  loss going to wounded models first (Core Rules 001_d3f5e425c5e1196d.txt §5.12) and never
  more than the HP the unit has left (overkill is worth nothing), and how many models it is
  expected to slay (each slain model stops attacking once removed, §5.11);
* :func:`target_score`: the point value taken plus the enemy output removed, the measure by
  which several units *focus* their fire on one enemy unit instead of spreading it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def wounded_first(hp: Sequence[int], removed: Sequence[bool]) -> list[int]:
    """The HP of the models still standing (a casualty at 0 HP is not), fewest first: the
    order in which HP loss reaches them (wounded models first, §5.12)."""
    return sorted(h for h, gone in zip(hp, removed, strict=False) if not gone and h > 0)


def expected_take(
    dist: Mapping[int, float], scale: float, hps: Sequence[int]
) -> tuple[float, float]:
    """``(expected HP taken, expected models slain)`` when an attack whose HP loss against the
    whole unit is distributed as ``dist`` (HP -> probability), scaled by ``scale`` (the share
    of the attacker's models still standing), hits a unit whose models have ``hps`` left
    (:func:`wounded_first` order). The HP taken is capped at what the unit has: damage beyond
    it is overkill and worth nothing."""
    total = sum(hps)
    cumulative: list[int] = []
    run = 0
    for h in hps:
        run += h
        cumulative.append(run)
    taken = 0.0
    slain = 0.0
    for k, p in dist.items():
        if p <= 0.0 or k <= 0:
            continue
        lost = min(total, int(k * scale + 0.5))
        taken += p * lost
        slain += p * sum(1 for c in cumulative if c <= lost)
    return taken, slain


def target_score(
    taken: float, slain: float, per_hp: float, output_per_model: float, weight: float
) -> float:
    """The worth of an attack: the point value it takes (``taken`` HP at ``per_hp`` points)
    plus ``weight`` times the enemy output it removes (``slain`` models, each expected to
    take ``output_per_model`` points off the player's units in an attack of its own)."""
    return taken * per_hp + weight * slain * output_per_model
