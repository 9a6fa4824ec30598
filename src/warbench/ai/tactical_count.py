"""A habit of the ``tactical`` player added in session 39 (issue 15: the transport mirror's
draws, 166-166, in which both units of ten Breachers were destroyed in one Melee).

**Counts the models left in a Melee** (:func:`counted_melee_hp`, switch
``TacticalBot.melee_count``). The player prices a unit's melee (``TacticalBot._worth``) with
the exact odds of the whole unit against the whole target, scaled by the share of the
attacker's models left. The odds are capped at what the target has (§5.11: a unit loses no
more HP than it has), and a scaled cap is not the odds of the smaller unit: ten Breachers
(two Power Axe Attacks each, about 1.67 Breachers slain a model) are expected to slay all ten
of another unit, so six of them counted 6/10 of ten, 6 HP, where their own odds say 9.5 of
the ten, and 8.9 of a unit of nine. In main's transport mirror the tactical side, ahead
342-302, charged nine Breachers into six in the Dash Phase of Game Turn 4 (seed 0, copy B,
game 17): the habit that keeps a melee unit from spending itself while its side is not behind
(session 29, ``ai.tactical_melee.fair_charges``) saw a loss of 117 points against the unit's
176 and let the charge through; the Melee took both units (six slew all nine) and the game
ended 166-166.

With the habit a melee price is the exact odds of the attacker's models that may still attack
(their own weapons) against the target's models left with their HP (Core Rules
001_d3f5e425c5e1196d.txt §5.2-5.12, the odds engine ``rulesets.warsurge.odds``); at full
strength against a whole unit it is the old price.

**Counts who can join the Melee** (:func:`joiners`, switch ``TacticalBot.melee_joiners``).
A charge's expected loss was the foe's melee alone, so a charge on a Transport (no melee
weapon: nothing to lose) looked free with seven enemy Breachers within their Move of it
(seed 0, copy B, game 14: they joined and took all ten). Units may engage a unit already in
a Melee (§4.3 L1992-1994, §4.4): with the habit the loss adds the melee of every other enemy
unit that can join before the Melee is fought, no more in all than the charging unit's value
left (§5.11: a unit loses no more HP than it has; session 39, s39-draws). Uncapped, a unit
the foe alone is expected to slay held back from a charge that takes more than it gives
because others could join (six Berserkers beside ten, the melee mirror's copy A game 2 at
seed 0: 400-400 instead of 250-150; four such draws at seed 0, docs/ai.md).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from warbench.kernel.errors import WarbenchError
from warbench.rulesets.warsurge.attack import AttackContext, ModelState, UnitState
from warbench.rulesets.warsurge.game.movement import unit_allowance
from warbench.rulesets.warsurge.game.state import Location
from warbench.rulesets.warsurge.game.work import Work
from warbench.rulesets.warsurge.odds import AttackPlan, attack_odds

#: ``(attacker, target, weapon, attacking models, target models' HP)`` -> expected HP lost.
CountKey = tuple[int, int, str, tuple[int, ...], tuple[int, ...]]


def melee_key(w: Work, a: int, b: int, weapon: str | None, standing: bool) -> CountKey | None:
    """The cache key of ``a``'s Melee against ``b``: the models of ``a`` that attack (not
    removed, or with ``standing`` also not slain in this Attack Phase, L2872) and the HP of
    ``b``'s models left; ``None`` when either has none."""
    ua, ub = w.units[a], w.units[b]
    real = w.info(a).real_models
    if standing:
        attackers = tuple(i for i in ua.living() if i < real)
    else:
        attackers = tuple(i for i, gone in enumerate(ua.removed) if not gone and i < real)
    hp = tuple(ub.hp[i] for i in ub.living() if i < w.info(b).real_models)
    if not attackers or not hp:
        return None
    return (a, b, weapon or "", attackers, hp)


def counted_melee_hp(w: Work, key: CountKey) -> float | None:
    """The HP the models of ``key`` are expected to take off the target's models left in one
    Melee attack (exact odds, Monte Carlo past the enumeration limit, §5.8); ``None`` when the
    odds engine refuses (then the caller keeps its scaled price)."""
    a, b, weapon, attackers, hp = key
    ia, ib = w.info(a), w.info(b)
    att = UnitState.of(ia.unit)
    tgt = UnitState.of(ib.unit)
    if max(attackers) >= len(att.models):
        return None
    att.models = [replace(att.models[i], hp=max(1, att.models[i].hp)) for i in attackers]
    weapons = tgt.models[0].weapons if tgt.models else ()
    tgt.models = [ModelState(h, weapons) for h in hp]
    plan = AttackPlan(att, tgt, AttackContext(melee=True), weapons=(weapon,) if weapon else ())
    try:
        return float(attack_odds(plan, seed=0).expected_hp_lost)
    except WarbenchError:
        return None


def joiners(w: Work, uid: int, foe: int, dash: bool) -> list[int]:
    """The other enemy units with a melee weapon that can join a Melee ``uid`` starts with
    ``foe`` before it is fought (§4.3-4.4: units may engage a unit already in a Melee): a
    charge made in the Dash Phase is fought in the next Game Turn's Attack Phase, after every
    enemy unit's Move; one made in the Move Phase, after the Move of the enemy units that have
    not acted in it. A unit counts when ``foe``, where the Melee will be, is within its Move
    (§4.1; edge to edge, as :func:`warbench.ai.tactical_ferry.gap`)."""
    out: list[int] = []
    fxy = w.xy(foe)
    if not len(fxy):
        return out
    for v in w.units:
        f = v.uid
        if f in (foe, uid) or v.location is not Location.TABLE or not w.enemies(uid, f):
            continue
        if w.engaged_with(f) or (v.acted and not dash):
            continue
        info = w.info(f)
        if not any(wp.range <= 1 for wp in info.unit.weapons):
            continue
        vxy = w.xy(f)
        if not len(vxy):
            continue
        d = np.hypot(vxy[:, None, 0] - fxy[None, :, 0], vxy[:, None, 1] - fxy[None, :, 1])
        if float(d.min()) - info.radius - w.info(foe).radius <= unit_allowance(w, f, False):
            out.append(f)
    return out
