"""Deployment Unit Perks in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Deployment,
L1805-L1928).

* **Invade I-III** (L1864-L1874): "The User can be Deployed outside their Deployment Zone, but
  cannot Deploy inside an enemy Deployment Zone. The User cannot be Deployed within 12" of an
  enemy Deployment Zone" (II: 6", III: no minimum distance). A Deploy action that names every
  model's position may place an Invade unit anywhere on the battlefield that keeps that distance
  from every enemy Deployment Zone (measured from the edge of each base); the engine's own
  placement (a Deploy without positions) still deploys in the zone.
* **Recon I-II** (L1882-L1888): "When this Unit is Deployed on the first Game Turn, it can
  relocate up to 6" in any direction (at the end of the Deploy Phase in Standard …), which does
  not count as Movement and cannot engage a Melee" (II: 12"). At the end of the first Deploy
  Phase the engine relocates each Recon unit on the Battlefield straight towards the closest
  enemy model, as far as the rank allows and a legal placement is found (the whole distance,
  then 3/4, 1/2, 1/4 of it), never into Base Contact (docs/rulings.md, "Recon"), unless its
  player declared the relocation (:mod:`.perk_recon`).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import shapely

from warbench.rulesets.warsurge.game import bases_ground, perk_recon
from warbench.rulesets.warsurge.game.perk_turn import index

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.actions import Point
    from warbench.rulesets.warsurge.game.hooks import HookRegistry
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["INVADE", "RECON", "deploy_outside_zone", "recon_at_phase_end", "register_hooks"]

#: Recon rank → (how far the unit may relocate, its line) (L1882, L1888).
RECON = {"Recon II": (12.0, 1888), "Recon I": (6.0, 1882)}

#: Invade rank → how far from an enemy Deployment Zone the User must stay (L1864-L1874).
INVADE = {"Invade I": 12.0, "Invade II": 6.0, "Invade III": 0.0}
INVADE_LINES = {"Invade I": 1864, "Invade II": 1870, "Invade III": 1874}


def _invade(w: Work, uid: int) -> tuple[str, float] | None:
    perks = index(w.setup).units[uid].unit
    held = [(gap, n) for n, gap in INVADE.items() if n in perks]
    if not held:
        return None
    gap, name = min(held)  # the highest rank held: the smallest distance
    return name, gap


@cache
def _polygon(points: tuple[tuple[float, float], ...]) -> shapely.Polygon:
    return shapely.Polygon(points)


def deploy_outside_zone(w: Work, uid: int, model: int, p: Point) -> str | None:
    """Whether a model of ``uid`` outside its Deployment Zone may deploy at ``p``: ``None``
    when Invade allows it, else why not (the refusal names the rule)."""
    from warbench.rulesets.warsurge.game import perk_espionage

    spy = perk_espionage.spy(w, uid)
    if spy and perk_espionage.enemy_zone_of(w, uid, p) is not None:
        return perk_espionage.deploy_refusal(w, uid, model, p)  # Espionage (L1840)
    found = _invade(w, uid)
    info = w.info(uid)
    if found is None:  # Ambush, Nexus (issue 11 lane c): perk_deploy.py
        from warbench.rulesets.warsurge.game.perk_deploy import outside_zone

        why = outside_zone(w, uid, model, p)
        return why if why is None or not spy else perk_espionage.deploy_refusal(w, uid, model, p)
    rank, gap = found
    if not bases_ground.model_on_board(w, uid, model, p):  # its outline (§1.3)
        return f"model {model + 1} of {info.label} is off the battlefield"
    for side, zone in enumerate(w.zones):
        if zone is None or side == info.side:
            continue
        poly = _polygon(tuple(tuple(q) for q in w.field.zones[zone].polygon))
        d = bases_ground.gap_to_area(w, uid, model, p, poly)
        if d < gap - 1e-6:
            where = "inside" if d < 0 else f'{max(d, 0):.1f}" from'
            return (
                f"model {model + 1} of {info.label} would be {where} an enemy Deployment Zone; "
                f'{rank} keeps it {gap:g}" away (Perks L{INVADE_LINES[rank]})'
            )
    from warbench.rulesets.warsurge.game.perk_sentinel import refusal

    return refusal(w, uid, model, p, rank)  # Sentinel (L1749)


def recon_at_phase_end(work: Work, phase: str) -> None:
    """L1882: the Recon relocations at the end of the first Game Turn's Deploy Phase."""
    if phase != "Deploy" or work.flow.turn != 1:
        return
    import numpy as np

    from warbench.rulesets.warsurge.game import geom
    from warbench.rulesets.warsurge.game.coherency import problem_positions
    from warbench.rulesets.warsurge.game.perk_sentinel import watcher
    from warbench.rulesets.warsurge.game.state import Location

    perks = index(work.setup).units
    for uid, p in enumerate(perks):
        rank = next((r for r in RECON if r in p.unit), None)
        u = work.units[uid]
        if rank is None or u.location is not Location.TABLE or not u.present():
            continue
        reach, line = RECON[rank]
        xy = work.xy(uid)
        if watcher(work, uid, [(float(x), float(y)) for x, y in xy]) is not None:
            continue  # Sentinel (L1749): no Deployment Perk within 12" of it
        chosen = perk_recon.declared(work, uid)  # the player's (session 26, s26b-choices)
        if chosen is not None:
            if not isinstance(chosen, bool):
                _relocate(work, uid, chosen, rank, line, "as its player declared")
            else:
                work.emit("perk", f"{work.label(uid)}: {rank}, stays where it is (its player's "
                          "declaration)", f"Perks §12.4 {rank} (000_94ecc6a4c74d351b.txt "
                          f"L{line})", unit=uid)  # fmt: skip
            continue
        foes = [t for t in range(len(work.units)) if work.enemies(uid, t)]
        foe_xy = [work.xy(t) for t in foes if work.units[t].location is Location.TABLE]
        if not foe_xy:
            continue
        them = np.concatenate(foe_xy)
        d = np.hypot(*(xy[:, None, :] - them[None, :, :]).transpose(2, 0, 1))
        i, j = divmod(int(np.argmin(d)), d.shape[1])
        vec = them[j] - xy[i]
        norm = float(np.hypot(*vec))
        if norm < 1e-9:
            continue
        models = u.present()
        for frac in (1.0, 0.75, 0.5, 0.25):
            step = vec / norm * reach * frac
            new = tuple((float(x + step[0]), float(y + step[1])) for x, y in xy)
            if problem_positions(work, uid, new, models, None, None, False):
                continue
            if work.contacts(uid, geom.as_array(new)):
                continue  # "cannot engage a Melee"
            if watcher(work, uid, new) is not None:
                continue  # Sentinel (L1749): not into the area either
            full = list(u.pos)
            for k, m in enumerate(models):
                full[m] = new[k]
            work.set_unit(uid, pos=tuple(full))
            work.emit("perk", f'{work.label(uid)}: {rank}, relocates {reach * frac:g}" towards '
                      "the enemy", f"Perks §12.4 {rank} (000_94ecc6a4c74d351b.txt L{line})",
                      unit=uid, distance=reach * frac)  # fmt: skip
            break


def _relocate(
    work: Work, uid: int, new: tuple[tuple[float, float], ...], rank: str, line: int, how: str
) -> None:
    """The player's declared Recon relocation of ``uid``'s present models to ``new``."""
    u = work.units[uid]
    full = list(u.pos)
    for k, m in enumerate(u.present()):
        full[m] = new[k]
    work.set_unit(uid, pos=tuple(full))
    work.emit("perk", f"{work.label(uid)}: {rank}, relocates {how}",
              f"Perks §12.4 {rank} (000_94ecc6a4c74d351b.txt L{line})", unit=uid)  # fmt: skip


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from :func:`.perk_hooks.register_perk_hooks`)."""
    from warbench.rulesets.warsurge.game.hooks import Hook

    reg.register(Hook.PHASE_END, recon_at_phase_end, "Recon", perks=RECON)
