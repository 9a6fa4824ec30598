"""A destroyed Transport's survivors (Core Rules 001_d3f5e425c5e1196d.txt §6.6, L3412-3425).

"After applying damage to passengers and removing the Transport as a casualty, place surviving
models where the Transport model once was. After the Transport's original area is filled,
models are placed in a circular fashion around the other models. If models (friend or foe)
completely surround the site of the removed Transport, any models that cannot be placed are to
be removed as casualties with no Saves permitted."

:func:`survivor_spots` is the engine's placement (the site's centres, then rings around them);
:func:`verify_survivors` checks a player's :class:`~.actions.Survivors` (the decision
``"survivors"``, asked when ``Automation.MODEL_PLACEMENT`` is off). What happens once the
models stand (the unit destroyed when none could be placed, its Coherency, new Melees) is
:mod:`.casualties`'.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from warbench.rulesets.warsurge.game import geom
from warbench.rulesets.warsurge.game.actions import Point, Survivors
from warbench.rulesets.warsurge.game.coherency import problem_positions, spot_clear
from warbench.rulesets.warsurge.game.state import Wreck
from warbench.rulesets.warsurge.game.work import Work, err


def survivor_spots(w: Work, uid: int, site: Sequence[Point], site_r: float) -> dict[int, Point]:
    """The engine's placement of the unit's living models (§6.6): the centres of the site
    (the Transport's models) first, then rings inside its base and around it; a spot is taken
    when it is legal ground and overlaps no base. Models left out cannot be placed. Changes
    nothing."""
    info = w.info(uid)
    u = w.units[uid]
    r = info.radius
    living = u.living()
    taken: list[Point] = []
    t = w.table()
    oxy, orad = t.xy, t.r
    spots: list[Point] = []
    for c in site:
        spots.append(c)
        ring = 1
        while len(spots) < 6 * len(living) + 6 and ring <= 6:
            rad = (
                max(0.0, site_r - r) * ring / 2
                if ring <= 2
                else site_r + (2 * r + 0.2) * (ring - 2)
            )
            count = max(6, int(2 * math.pi * max(rad, r) / (2 * r + 0.1)))
            spots.extend(geom.ring_points(c, rad, count))
            ring += 1
    placed: dict[int, Point] = {}
    for i in living:
        for s in spots:
            if not spot_clear(w, s, r, oxy, orad, taken):
                continue
            placed[i] = s
            taken.append(s)
            break
    return placed


def on_site(points: Sequence[Point], wreck: Wreck) -> int:
    """How many of these model centres stand where the Transport stood (inside the base of
    one of its models)."""
    if not points or not wreck.site:
        return 0
    d = np.sqrt(
        ((geom.as_array(points)[:, None, :] - geom.as_array(wreck.site)[None, :, :]) ** 2).sum(
            axis=2
        )
    )
    return int((d.min(axis=1) <= wreck.site_r + 1e-9).sum())


def verify_survivors(w: Work, action: Survivors, wreck: Wreck, engine: Survivors) -> None:
    """A player's placement of the survivors (§6.6), against the engine's own (``engine``):
    the waiting unit; each model lost is a living model, named once; one position for every
    other living model, each a legal spot (on the battlefield, off Impassable Ground,
    overlapping no base), the unit one coherent group (§4.2 IV: Coherency is never broken);
    no more models lost than the engine's placement loses (only models that cannot be placed
    are removed, L3420-3422) and at least as many standing where the Transport stood (its
    original area is filled first, L3415-3417; see docs/rulings.md)."""
    uid = wreck.unit
    label = w.label(uid)
    if action.unit != uid:
        raise err(f"{label} (unit {uid}) leaves the wreck now, not unit {action.unit}", "§6.6")
    living = w.units[uid].living()
    if len(set(action.lost)) != len(action.lost):
        raise err(f"a model of {label} is named lost twice", "§6.6")
    for m in action.lost:
        if m not in living:
            raise err(
                f"{label} has no living model {m}; its living models are "
                f"{', '.join(map(str, living))}",
                "§6.6",
            )
    models = [i for i in living if i not in action.lost]
    if len(action.positions) != len(models):
        raise err(
            f"{label} has {len(models)} living models to place ({len(living)} living, "
            f"{len(action.lost)} lost); {len(action.positions)} positions given",
            "§6.6",
        )
    if len(action.lost) > len(engine.lost):
        raise err(
            f"only models that cannot be placed are removed: {len(engine.lost)} of {label} "
            f"cannot be placed, {len(action.lost)} named lost",
            "§6.6",
        )
    if models:
        prob = problem_positions(w, uid, action.positions, models, None, None, False)
        if prob:
            raise err(*prob)
    need = on_site(engine.positions, wreck)
    got = on_site(action.positions, wreck)
    if got < need:
        raise err(
            f"the survivors fill the place where the Transport stood first: {need} models of "
            f"{label} fit there (the engine's placement), {got} placed there",
            "§6.6",
        )
