"""The ``tactical`` player's odds with the Melee's Dice Modifiers (issue 15, session 31).

Core Rules 001_d3f5e425c5e1196d.txt §5.8 (L2668-2682): while a unit is engaged in a Melee,
its Battle Weapons lower each Attack Dice's chance by 1 and its Heavy Weapons by 2; a unit in
a Melee that Targets an enemy **not** engaged with it suffers a further -1 ("Out of a
Melee"); a unit that Targets an enemy in a Melee with a friendly unit suffers -1 ("Into a
Melee") unless it is engaged in the same Melee. The focus fire (``ai.tactics``) priced every
shot with the exact odds of a plain attack (``warbench.api.odds``: a Melee attack or a shot
from outside any Melee), so Troopers charged by the Gut-Hackers kept shooting the Dead Dogs
out of their Melee at -2 as if at 0, instead of striking the Gut-Hackers in it at -1
(docs/ai.md, *Measured*, session 31).

:func:`situated_dist` is the same exact odds engine (``rulesets.warsurge.odds``) with the
situation the engine itself will attack in (``game.targeting.view_target``: the attacker
engaged, the target engaged elsewhere), so the choice of target counts these modifiers.

**The threat of a melee unit** (:func:`threat_bonus`, switch ``TacticalBot.threat_fire``): a
unit with no weapon that shoots does its damage only once it is in a Melee, and then in every
Attack Phase (casualties at the end of each, L2872); shooting is the one answer before it
arrives. The focus fire counted an enemy model's output only as the models a volley is
expected to slay, so a volley that wounds two-HP models (the Gut-Hackers, Defence 5) was worth
little next to one that slays one-HP shooters (the Dead Dogs). The bonus adds, for an enemy
melee unit that is engaged with one of the player's units or reaches one within two Game
Turns of its Move and Dash (§4.3 L1990-1994), what it is expected to take off that unit in a
Melee, shared over the HP it has left, times the HP the volley is expected to take, for each
Attack Phase left.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import numpy as np

from warbench.kernel.errors import WarbenchError
from warbench.rulesets.warsurge.attack import AttackContext, UnitState
from warbench.rulesets.warsurge.game.state import Location
from warbench.rulesets.warsurge.game.targeting import view_target
from warbench.rulesets.warsurge.game.work import Work
from warbench.rulesets.warsurge.odds import AttackPlan, attack_odds

#: ``(attacker engaged, target engaged elsewhere)`` of an attack with no Melee modifier.
PLAIN = (False, False)


def situation(w: Work, a: int, b: int, melee: bool) -> tuple[bool, bool]:
    """Whether ``a`` attacks ``b`` from inside a Melee (``a`` engaged: the Weapon Type and
    "Out of a Melee" modifiers, L2668-2682) and whether ``b`` is in a Melee with a unit of
    ``a``'s side that ``a`` is not in ("Into a Melee", L2678); :data:`PLAIN` for a Melee
    attack (the odds of ``melee`` already count its modifiers) or when the engine cannot
    say."""
    if melee:
        return PLAIN
    try:
        view = view_target(w, a, b)
    except WarbenchError:
        return PLAIN
    if view.melee:
        return PLAIN
    return (bool(view.attacker_engaged), bool(view.target_engaged_elsewhere))


def situated_dist(
    w: Work,
    a: int,
    b: int,
    weapon: str | None,
    cover: bool,
    where: tuple[bool, bool],
) -> Mapping[int, float]:
    """The exact distribution of the HP ``a``'s whole unit takes off ``b``'s whole unit by
    shooting ``weapon`` (``None``: every weapon that can) in situation ``where``
    (:func:`situation`), with the Cover Bonus when ``cover``; empty when it cannot attack."""
    engaged, into = where
    plan = AttackPlan(
        UnitState.of(w.info(a).unit),
        UnitState.of(w.info(b).unit),
        AttackContext(
            melee=False, attacker_engaged=engaged, target_engaged_elsewhere=into, cover=cover
        ),
        weapons=(weapon,) if weapon else (),
    )
    try:
        got = attack_odds(plan)
    except WarbenchError:
        return {}
    return {int(k): float(p) for k, p in got.hp_lost.items()}


#: ``worth(w, a, b, weapon, melee)``: the point value ``a`` is expected to take off ``b``.
Worth = Callable[[Work, int, int, "str | None", bool], float]

#: How much the threat an HP of an enemy melee unit carries counts, per Attack Phase left.
THREAT_WEIGHT = 1.0
#: Game Turns ahead within which an enemy melee unit's Move and Dash count as reaching a unit.
THREAT_TURNS = 2


def melee_unit(w: Work, b: int) -> bool:
    """``b`` carries a melee weapon and no weapon that shoots (Range above 1")."""
    weapons = w.info(b).unit.weapons
    return any(wp.range <= 1 for wp in weapons) and not any(wp.range > 1 for wp in weapons)


def threat(w: Work, b: int, worth: Worth, phases: float = 1.0) -> float:
    """The most point value enemy melee unit ``b`` (:func:`melee_unit`; 0 for any other) is
    expected to take in a Melee off one unit of its enemies (the player's) that it is engaged
    with or reaches within ``THREAT_TURNS`` Game Turns of its Move and Dash (§4.3
    L1990-1994: a unit that Moves or Dashes into contact engages), times the Attack Phases
    left once it arrives (``phases`` less the Game Turns it needs, one at least)."""
    if not melee_unit(w, b):
        return 0.0
    bi = w.info(b)
    bxy = w.xy(b)
    if not len(bxy):
        return 0.0
    step = float(bi.unit.profile.move + bi.unit.profile.dash)
    engaged = set(w.engaged_with(b))
    best = 0.0
    for v in w.units:
        m = v.uid
        if v.location is not Location.TABLE or not w.enemies(b, m):
            continue
        mxy = w.xy(m)
        if not len(mxy):
            continue
        d = np.hypot(bxy[:, None, 0] - mxy[None, :, 0], bxy[:, None, 1] - mxy[None, :, 1])
        gap = float(d.min()) - bi.radius - w.info(m).radius
        arrive = 0 if m in engaged else max(1, math.ceil(gap / step)) if step > 0 else 99
        if arrive <= THREAT_TURNS:
            best = max(best, worth(w, b, m, None, True) * max(1.0, phases - arrive))
    return best


def threat_bonus(w: Work, b: int, taken: float, worth: Worth, phases: float) -> float:
    """What taking ``taken`` HP off enemy unit ``b`` removes of its :func:`threat`: the
    threat scales with the HP it has left (a unit attacks with its models, §5.11; each HP
    brings a model nearer its removal), counted for ``phases`` Attack Phases at
    ``THREAT_WEIGHT``; 0 for a unit that is not a melee unit."""
    hp_left = float(w.units[b].current_hp)
    if hp_left <= 0 or taken <= 0:
        return 0.0
    return THREAT_WEIGHT * min(taken, hp_left) / hp_left * threat(w, b, worth, phases)
