"""Where a Mode template goes, as the player's choice (Perks 000_94ecc6a4c74d351b.txt §12.5 Mode,
L3321-L3563; issue 11, session 26, s26b-choices).

The Attack names a point for a template Weapon in ``Attack.aim`` (``(weapon, x, y)``, as Force's
and Trap's, :mod:`.perk_aim`): each firing model lays its template towards that point instead of
the Target's model closest to it (:func:`.perk_mode.lay_template`), the engine's placement
rules unchanged otherwise: a Blast, Explode or Wall over the point, drawn back until it is
wholly inside Weapon Range; a Cone's droplet reaching it; a Beam or Diffuse pointing at it
(docs/rulings.md "Mode templates" 1, "session 26, s26b-choices" 5). A Weapon left out: the
engine's placement, the default. The point must be on the battlefield and within the Weapon's
Range of a model firing it (:func:`refusal`); a template centred over the Wielder (Nova, a 0"
Weapon) is not aimed. Without the ``perk use`` automation the legal actions list each Attack
with a template Weapon aimed at its Target's centre and at the Target's model farthest from
the unit (:func:`aimed_candidates`), so the random-legal player samples placements.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.effects.mode import Placement, Template

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.actions import Attack
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["RULE", "aimed_candidates", "prompt", "refusal", "template"]

RULE = "Perks §12.5 Mode (000_94ecc6a4c74d351b.txt L3321-L3563)"


def template(work: Work, uid: int, weapon: str) -> Template | None:
    """The Mode template ``uid``'s ``weapon`` lays, if any."""
    from warbench.rulesets.warsurge.effects.table import load_table
    from warbench.rulesets.warsurge.game.perk_index import weapon_perks

    table = load_table()
    for name in sorted(weapon_perks(work, uid, weapon)):
        row = table.find(name)
        if row is None:
            continue
        for e in row.effects:
            if e.template is not None:
                return e.template
    return None


def _aimable(work: Work, uid: int, weapon: str, tpl: Template) -> bool:
    from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges

    rng = weapon_ranges(work.info(uid), work.units[uid].statuses)[weapon]
    return not (tpl.placement is Placement.WIELDER or rng == 0)


def refusal(
    work: Work, uid: int, weapon: str, x: float, y: float, models: Sequence[int]
) -> str | None:
    """Why ``uid``'s template Weapon ``weapon`` (fired by ``models``) may not be aimed at
    ``(x, y)``, or ``None``."""
    from warbench.rulesets.warsurge.game import geom
    from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges

    tpl = template(work, uid, weapon)
    assert tpl is not None
    if not _aimable(work, uid, weapon, tpl):
        return (f"{weapon}'s template is centred over its Wielder (Nova, a 0\" Weapon): it is not "
                f"aimed ({RULE})")  # fmt: skip
    info = work.info(uid)
    rng = weapon_ranges(info, work.units[uid].statuses)[weapon]
    holder = work.outermost(uid)
    pts = work.xy(holder) if holder != uid else work.xy(uid, list(models) or None)
    d = float(geom.edge_distances(pts, info.radius, geom.as_array([(x, y)]), 0.0).min())
    if d > rng + 1e-6:
        return (
            f"{weapon}'s template is aimed at a point on the battlefield within its Range "
            f'({rng}") of a model firing it; ({x:g}, {y:g}) is {d:.1f}" away ({RULE})'
        )
    return None


def aimed_candidates(work: Work, uid: int, combo: Sequence[tuple[str, int]]) -> Iterator[Attack]:
    """The Attack ``combo`` with its template Weapons aimed at each Target's centre, and at its
    model farthest from the unit (without the ``perk use`` automation; else nothing)."""
    import numpy as np

    from warbench.rulesets.warsurge.game.actions import Attack as Attack_
    from warbench.rulesets.warsurge.game.state import Automation

    if Automation.PERK_USE in work.setup.automation:
        return
    weapons = []
    for wn, t in combo:
        tpl = template(work, uid, wn)
        if tpl is not None and _aimable(work, uid, wn, tpl):
            weapons.append((wn, t))
    if not weapons:
        return
    own = work.xy(uid).mean(axis=0) if len(work.xy(uid)) else np.zeros(2)
    for pick in ("centre", "far"):
        aims: list[tuple[str, float, float]] = []
        for wn, t in weapons:
            txy = work.xy(work.outermost(t))
            if not len(txy):
                continue
            if pick == "centre":
                p = txy.mean(axis=0)
            else:
                p = txy[int(np.argmax(np.hypot(*(txy - own).T)))]
            aims.append((wn, round(float(p[0]), 3), round(float(p[1]), 3)))
        if aims:
            yield Attack_(uid, tuple(combo), aim=tuple(aims))


def prompt(work: Work, side: int) -> str:
    """The Attack Phase prompt's words for the template Weapons ``side``'s units may aim, or
    ``""``."""
    names = sorted(
        {
            wp.name
            for uid in work.acting_units(side)
            if work.standing(uid)
            for wp in work.info(uid).unit.weapons
            if (tpl := template(work, uid, wp.name)) is not None
            and _aimable(work, uid, wp.name, tpl)
        }
    )
    if not names:
        return ""
    return (
        f"; an Attack with a template Weapon ({', '.join(names)}) may say where its template "
        'goes: "aim": [[weapon, x, y]], a point within the Weapon\'s Range (Perks L3321; '
        "left out: over the Target's closest model)"
    )
