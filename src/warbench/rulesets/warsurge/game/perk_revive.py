"""Perks that bring a fallen unit back (the ``revive`` machinery of the effects table): Revive
I-III (Perks 000_94ecc6a4c74d351b.txt L971-L1007) and Reanimate I-III (L915-L957).

"The User must be within 6" [12", 18"] of a friendly Unit that became a Casualty and meet the
Point Cost requirement, referring to the Target's Point Cost at full HP. With a successful
Mastery Test, all models of the slain Unit are brought back into Coherency at full HP, with at
least one model placed within 6" of the User. Negative Perk effects that were on a Unit still
remain." Reanimate reads the same, "(friend or foe)", and "If the User becomes a casualty, all
Units reanimated by the User also become casualties."

Played at ``Hook.CASUALTY`` (after the unit's own Reservoir and Last Stand): when the last
model of a unit reaches 0 HP, the nearest unit with one of these ranks whose Radius reaches a
model of it, and whose Current Point Cost is at least the fallen unit's full Point Cost
(Point Cost (Lesser), L321-L323), tests once; on a pass every model of the fallen unit returns
at full HP where it stood, the models removed earlier in Coherency (``perk_turn._stand``).
Reanimate brings back friendly units only (an enemy unit's control is not modelled;
docs/rulings.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game import bases, geom
from warbench.rulesets.warsurge.game.casualties import remove_models
from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.perk_turn import _rule, _stand, index, mastery_test
from warbench.rulesets.warsurge.game.state import GameSetup, Location, unit_max_hp
from warbench.rulesets.warsurge.game.work import current_value

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

#: The ranks and their Radius.
REVIVE: dict[str, float] = {
    "Revive I": 6.0,
    "Revive II": 12.0,
    "Revive III": 18.0,
    "Reanimate I": 6.0,
    "Reanimate II": 12.0,
    "Reanimate III": 18.0,
}
#: A reanimated unit's counter: 1 + the uid of the unit that reanimated it.
REANIMATED_BY = "reanimated by"


def _users(work: Work) -> list[tuple[int, str]]:
    return list(_users_of(work.setup))


@per_setup
def _users_of(setup: GameSetup) -> tuple[tuple[int, str], ...]:
    """Each unit with a rank and its widest rank, once per set-up (``perk_turn.index`` is
    the set-up's; issue 10, session 33: asked at every casualty of every game)."""
    idx = index(setup)
    return tuple(
        (uid, rank)
        for uid, p in enumerate(idx.units)
        for rank in sorted(p.unit & REVIVE.keys(), key=lambda r: -REVIVE[r])[:1]
    )


def turn_start_units(setup: GameSetup) -> tuple[int, ...]:
    """The set-up's units whose perks act at each Game Turn's start (``perk_turn.index``):
    ``perk_turn.on_turn_start`` goes over these alone (issue 10, session 37)."""
    return tuple(index(setup).at_turn_start)


def risers(setup: GameSetup) -> bool:
    """Whether a unit of the set-up has Resurrection I or II: ``perk_turn.resurrection`` goes
    over those alone (issue 10, session 37)."""
    return any(p.unit & {"Resurrection I", "Resurrection II"} for p in index(setup).units)


def on_casualty(work: Work, unit: int, model: int, source: str) -> None:
    """A model of ``unit`` reached 0 HP: when it was the last, a Revive or Reanimate User in
    range tests to bring the unit back; when the fallen unit reanimated others, they fall."""
    users = _users(work)
    if not users:
        return
    u = work.units[unit]
    if u.living():
        return
    _fall_with(work, unit)
    best: tuple[float, int, str] | None = None
    fallen = [i for i in u.present()]
    if not fallen or not u.pos:
        return
    pts = geom.as_array([u.pos[i] for i in fallen])
    value = work.info(unit).value
    for uid, rank in users:
        user = work.units[uid]
        if uid == unit or user.location is not Location.TABLE or not user.living():
            continue
        if work.enemies(uid, unit) or current_value(work, uid) + 1e-9 < value:
            continue
        d = bases.distances(
            work, uid, work.xy(uid), work.info(uid).radius, unit, pts, work.info(unit).radius
        )
        gap = float(d.min()) if d.size else float("inf")
        if gap <= REVIVE[rank] + 1e-9 and (best is None or (gap, uid, rank) < best):
            best = (gap, uid, rank)
    if best is None:
        return
    _, uid, rank = best
    if not mastery_test(work, uid, rank):
        return
    _stand(work, unit, unit_max_hp(work.info(unit), work.units[unit]), rank)
    if rank.startswith("Reanimate"):
        work.units[unit] = work.units[unit].with_counter(REANIMATED_BY, uid + 1)
        work.dirty = True


def _fall_with(work: Work, user: int) -> None:
    """Reanimate (L915): "If the User becomes a casualty, all Units reanimated by the User also
    become casualties"."""
    for other in work.units:
        if other.counter(REANIMATED_BY) != user + 1 or not other.living():
            continue
        hp = tuple(0 for _ in other.hp)
        work.set_unit(other.uid, hp=hp)
        remove_models(work, other.uid, other.present(), f"{work.label(user)} fell (Reanimate)")
        work.emit("perk", f"{work.label(other.uid)} falls with {work.label(user)}",
                  _rule("Reanimate I"), unit=other.uid, perk="Reanimate I")  # fmt: skip
