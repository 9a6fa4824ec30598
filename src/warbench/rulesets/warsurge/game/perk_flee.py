"""Perks that drive a unit back to its own board edge (the ``flee`` machinery): Fall Back
(Perks 000_94ecc6a4c74d351b.txt L2221, a failed start-of-turn test), Terrify (L1049, used: a
Mastery Test on an enemy unit within 18" and in sight) and Dread (L2690, a weapon's Skill Test).

"The Target must dedicate all Movement toward their closest friendly Deployment Zone board edge
for the current Game Turn. If the Target touches the board edge, it goes into Reserve. If
Immobile, the Target goes immediately into Reserve. The Target must remain in Reserve until the
next Game Turn. If engaged in a Melee while affected by Terrify, the Target suffers a -1 Dice
Modifier to Attack Dice instead of being forced to direct Movement to their Deployment Zone."

The player has no choice of its Movement, so the engine makes it: as a Move Phase and a Dash
Phase start (Advanced: as the Actions Phase starts, "A single Move and Dash occurs immediately"),
each such unit not in a Melee moves straight toward the nearest board edge its Deployment Zone
touches, by its whole Move (Dash), and has acted; a unit that touches the edge, or is Immobile,
goes into Reserve (``perk_reserve``) until the next Game Turn. In a Melee its Attack Dice suffer
-1 (``perk_effects.status_dice``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game.perk_reserve import to_reserve
from warbench.rulesets.warsurge.game.perk_turn import _rule
from warbench.rulesets.warsurge.game.state import Location, Phase

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

#: The statuses that drive their unit to its board edge.
FLEE = ("Fall Back", "Terrify", "Dread")

Point = tuple[float, float]


def fleeing(work: Work, uid: int) -> str | None:
    """The status driving ``uid`` back, or ``None``."""
    for s in work.units[uid].statuses:
        if s.name in FLEE:
            return s.name
    return None


def edge_point(work: Work, uid: int) -> Point:
    """Where the unit heads: the nearest point of the nearest board edge its Deployment Zone
    touches (any edge when the zone touches none), a base's radius inside the board."""
    f = work.field
    r = work.info(uid).radius
    cx, cy = (float(v) for v in work.xy(uid).mean(axis=0))
    zone = work.zones[work.info(uid).side]
    xs: list[float] = []
    ys: list[float] = []
    if zone is not None:
        poly = f.zones[zone].polygon
        xs = [float(p[0]) for p in poly]
        ys = [float(p[1]) for p in poly]
    eps = 1e-6
    edges: list[tuple[float, Point]] = []
    if not xs or min(xs) <= eps:
        edges.append((cx, (r, cy)))
    if not xs or max(xs) >= f.width - eps:
        edges.append((f.width - cx, (f.width - r, cy)))
    if not ys or min(ys) <= eps:
        edges.append((cy, (cx, r)))
    if not ys or max(ys) >= f.height - eps:
        edges.append((f.height - cy, (cx, f.height - r)))
    if not edges:
        edges = [(cx, (r, cy)), (f.width - cx, (f.width - r, cy)),
                 (cy, (cx, r)), (f.height - cy, (cx, f.height - r))]  # fmt: skip
    return min(edges)[1]


def _touches_edge(work: Work, uid: int) -> bool:
    f = work.field
    r = work.info(uid).radius
    return any(min(x, y, f.width - x, f.height - y) <= r + 0.05 for x, y in work.xy(uid))


def at_phase_start(work: Work, phase: str) -> None:
    """A Move or Dash Phase starts (Advanced: the Actions Phase, a Move then a Dash): every
    fleeing unit not in a Melee makes its Movement toward its board edge."""
    steps: tuple[bool, ...]
    if phase == Phase.ACTIONS.value:
        steps = (False, True)
    elif phase in (Phase.MOVE.value, Phase.DASH.value):
        steps = (phase == Phase.DASH.value,)
    else:
        return
    for u in list(work.units):
        if not u.statuses or u.location is not Location.TABLE or not u.living():
            continue
        name = fleeing(work, u.uid)
        if name is None or work.engaged_with(u.uid):
            continue
        for dash in steps:
            if work.units[u.uid].location is not Location.TABLE:
                break
            _flee(work, u.uid, name, dash)
        if phase != Phase.ACTIONS.value and work.units[u.uid].location is Location.TABLE:
            work.set_unit(u.uid, acted=True)


def _flee(work: Work, uid: int, name: str, dash: bool) -> None:
    from warbench.rulesets.warsurge.game.movement import apply_move, plan_towards, unit_allowance
    from warbench.rulesets.warsurge.game.plans import MovePlan

    allowance = unit_allowance(work, uid, dash)
    if work.info(uid).immobile or allowance <= 0:
        to_reserve(work, uid, name)  # "If Immobile, the Target goes immediately into Reserve"
        return
    u = work.units[uid]
    models = tuple(u.present())
    starts = tuple(u.pos[i] for i in models)
    try:
        new = plan_towards(work, uid, edge_point(work, uid), allowance, dash)
    except RulesError:
        return  # no clear path: it stays (docs/rulings.md)
    if new != starts:
        work.emit("perk", f"{work.label(uid)} falls back toward its board edge ({name})",
                  _rule(name), unit=uid, perk=name)  # fmt: skip
        apply_move(work, MovePlan(uid, models, new, starts, dash))
    if _touches_edge(work, uid):
        to_reserve(work, uid, name)
