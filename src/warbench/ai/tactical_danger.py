"""The most dangerous first: a habit of the ``tactical`` player added in session 31 (issue 15:
the losses to random-legal).

Focus fire (:mod:`warbench.ai.tactics`) scores an attack by the point value it is expected to
take plus the enemy output removed with the models it is expected to **slay**. A model of
several HP is slain only by the attack that takes its last HP, so the output term credits
nothing to the first hits on a vehicle: in the skirmish games against random-legal
(docs/ai.md, session 30) the random side's Urban Hunter Car (one model, 4 HP, Move 12",
Autocannon 30") decided the game — destroyed in 62 of the 86 won Red games and in 1 of the
14 lost — yet the Sniper Troopers, which take about 1 of its HP an attack, shot the Dead Dogs
(1 HP a model, so each hit slays) in most of the Attack Phases in which the Car too was in
Range (Core Rules 001_d3f5e425c5e1196d.txt L859-863: any enemy Unit within Range may be
chosen).

**The most dangerous first** (:func:`danger_score`, the opt-in switch
``TacticalBot.danger_fire``, off by default: with ``threat_fire`` on it added nothing
measurable, docs/ai.md, session 31: the Car first): the output term is the enemy unit's
**threat** — the point value its best attack is expected to take off the player's units within
its reach next Game Turn (its Move plus its Range, or its Move for a melee weapon, §4.1, §4.3,
L851-860), from the exact odds engine — times the share of its HP left that the attack is
expected to take, weighed by the Attack Phases left as before. A unit of 1-HP models scores as
before (a model's HP is the model); the first hits on a many-HP model count toward removing its
threat in proportion, and a unit that reaches nothing of the player's threatens nothing yet.

Tried in session 31 and dropped (docs/ai.md, *Measured*, session 31): the threat weighed
twice (no change), a melee unit that counts the fire of its target's guns on the way when
choosing the Melee it heads for (worse: the Assault Squad no longer reached the Car), and
the melee Dash not held to where it is no more exposed (no change).
"""

from __future__ import annotations

from collections.abc import Callable

from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.state import Location
from warbench.rulesets.warsurge.game.work import Work

#: ``worth(w, a, b, weapon, melee)``: the point value ``a`` is expected to take off ``b``.
Worth = Callable[[Work, int, int, str | None, bool], float]


def danger_threat(w: Work, b: int, worth: Worth) -> float:
    """The point value enemy unit ``b``'s best attack is expected to take off one unit of its
    enemies (the player's) that it reaches next Game Turn: within its Move plus the Range of a
    shooting weapon (edge to edge), or within its Move for a melee weapon (a charge, §4.3).
    ``worth`` scales by ``b``'s models left and caps at the target's HP left."""
    info = w.info(b)
    if w.units[b].location is not Location.TABLE:
        return 0.0
    step = float(info.unit.profile.move)
    longest = max((wp.range for wp in info.unit.weapons if wp.range > 1), default=None)
    melee = any(wp.range <= 1 for wp in info.unit.weapons)
    best = 0.0
    for d, u in engine.nearest_enemies(w, b):
        if longest is not None and d <= longest + step:
            best = max(best, worth(w, b, u, None, False))
        if melee and d <= step:
            best = max(best, worth(w, b, u, None, True))
    return best


def danger_score(
    taken: float, hp_left: float, per_hp: float, danger: float, weight: float
) -> float:
    """The worth of an attack expected to take ``taken`` of the target's ``hp_left`` HP (at
    ``per_hp`` points each) from a unit whose threat is ``danger`` points an attack: the value
    taken plus ``weight`` times the share of its threat removed (its share of HP taken)."""
    if hp_left <= 0:
        return 0.0
    return taken * per_hp + weight * danger * min(1.0, taken / hp_left)
