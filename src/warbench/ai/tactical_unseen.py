"""Two habits of the ``tactical`` player tried in session 35 (issue 15) against a fast,
long-ranged vehicle, both measured (docs/ai.md, session 35); the first is on by default.

**The melee unit deploys last, out of the guns' sight** (switch ``TacticalBot.reach_deploy``).

The Turn Master places a unit first, then the players alternate, one unit at a time, and a
player chooses which of its units to place (Core Rules 001_d3f5e425c5e1196d.txt §3.6
L1798-1800). The scripted side's Urban Hunter Car (Move 12", Autocannon Range 30") reaches
nearly every spot of the skirmish boards' zones from where it is deployed, and it shot the
Assault Squad in Game Turn 1 in 10 of the 12 open-field losses of session 35's records
(docs/ai.md). With the habit, a side's melee units (no weapon with a Range over 1") that an
enemy gun outruns and no gun of its own side answers (:func:`unanswered_fast_gun`) are
placed after its other units, so they see where the enemy's guns stand, and each is placed
where those guns are expected to take least off it in the coming Attack Phase: out of
their Line of Sight (§5.4-5.5), else with a Cover Bonus (§5.6), else beyond their Move plus
Range (the player's ``_exposure``, counted on the engine's state after the Deploy). Against
the scripted player it won 31 of main's 39 Red losses and lost 13 of its 61 wins (docs/ai.md,
session 35). Against slower guns the player deploys as before: with every melee unit hiding,
the +1 army of skirmish_a won 83.5% of its mirror games instead of 94%; with a Car on each
side (skirmish_b) both hid and the mirror fell to 83%, so a side with a fast gun of its own
(which contests the enemy's by shooting it, §5.3-5.5) deploys as before too, and the
mirrors are main's games (session 35, s35-ai2).

**The melee unit stays unseen until it charges** (switch ``TacticalBot.hidden_approach``).
A melee unit that no enemy gun sees and no enemy can charge where it stands moves, in the
Move and the Dash Phase, only where that stays so; with no such move it holds, until an
enemy comes within its Move or Dash and it charges (§4.3: Base Contact from a Move or a
Dash). So it is not shot on its way in, and the Car's Autocannon meets it only in a Melee.
It changed few games (a melee unit is seldom out of every enemy's sight and reach), 2 won
and 3 lost of 51, and is off.
"""

from __future__ import annotations

from collections.abc import Callable

from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Deploy, Move
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.state import GameState
from warbench.rulesets.warsurge.game.work import Work

#: Exposures closer than this (points) count as the same, so main's order of the spots (the
#: front, the unit's slot) decides between them.
EXPOSURE_STEP = 0.5


def is_melee_unit(w: Work, uid: int) -> bool:
    """No weapon of the unit has a Range over 1" (a melee unit, as the player counts it)."""
    return max((wp.range for wp in w.info(uid).unit.weapons), default=0) <= 1


def _gun_moves(w: Work, uid: int, *, enemy: bool) -> list[float]:
    """The Moves of the units of the game (on the table or in Reserve: the rosters every
    seat knows) other than ``uid`` that have a weapon with a Range over 1" (§5.3), of
    ``uid``'s enemies (``enemy``) or of its own side."""
    out: list[float] = []
    for v in w.units:
        f = v.uid
        if f == uid or w.enemies(uid, f) is not enemy:
            continue
        fi = w.info(f)
        if any(wp.range > 1 for wp in fi.unit.weapons):
            out.append(float(fi.unit.profile.move))
    return out


def fast_gun_against(w: Work, uid: int) -> bool:
    """An enemy unit of the game has a weapon with a Range over 1" and a Move over
    ``uid``'s (the Urban Hunter Car's 12" against the Assault Squad's 6"): a gun that
    outruns the unit (§4.1, §5.3)."""
    own = float(w.info(uid).unit.profile.move)
    return any(m > own for m in _gun_moves(w, uid, enemy=True))


def unanswered_fast_gun(w: Work, uid: int) -> bool:
    """An enemy gun outruns ``uid`` (:func:`fast_gun_against`) and ``uid``'s own side has no
    gun that answers it: no unit of its own with a weapon of Range over 1" and a Move at
    least that gun's (§4.1, §5.3). A side with its own fast long-ranged vehicle contests the
    enemy's by shooting it (a Shoot at a Target in Range and Line of Sight, §5.3-5.5), so it
    does not hide its melee units from it (docs/ai.md, session 35, s35-ai2: with both sides
    hiding, the +1 army's mirror on skirmish_b fell from 94% to 83%)."""
    own = float(w.info(uid).unit.profile.move)
    answer = max(_gun_moves(w, uid, enemy=False), default=-1.0)
    return any(m > own and m > answer for m in _gun_moves(w, uid, enemy=True))


def hides(w: Work, uid: int) -> bool:
    """The habit applies to ``uid``: a melee unit against a gun that outruns it and that its
    own side does not answer (:func:`unanswered_fast_gun`); against slower guns, or with a
    fast gun of its own, the player deploys as main (the mirrors of the +1 army lost their
    edge when both sides hid, docs/ai.md, session 35)."""
    return is_melee_unit(w, uid) and unanswered_fast_gun(w, uid)


def melee_last(w: Work, uid: int) -> int:
    """The deployment order's first key: 1 for a unit the habit applies to (:func:`hides`;
    placed after the side's other units, §3.6 L1798-1800), else 0."""
    return 1 if hides(w, uid) else 0


def unseen_first(
    state: GameState, uid: int, deploys: list[Deploy], exposure: Callable[[Work, int], float]
) -> list[Deploy]:
    """``deploys`` (main's order) stably sorted by ``exposure`` of ``uid`` on the engine's
    state after each (in steps of :data:`EXPOSURE_STEP`); a Deploy the engine refuses goes
    last, as it is (the caller tries the next)."""
    scored: list[tuple[float, int, Deploy]] = []
    for k, d in enumerate(deploys):
        if not engine.can(state, d):
            scored.append((float("inf"), k, d))
            continue
        after, _ = engine.apply(state, d)
        seen = exposure(Work(after, None, DEFAULT_HOOKS), uid)
        scored.append((round(seen / EXPOSURE_STEP), k, d))
    scored.sort(key=lambda s: (s[0], s[1]))
    return [d for _, _, d in scored]


def unseen_moves(
    state: GameState,
    uid: int,
    paths: list[Move],
    seen: Callable[[Move | None], float],
) -> list[Move] | None:
    """A melee unit's moves that keep it unseen (switch ``TacticalBot.hidden_approach``):
    ``None`` when the enemy is expected to take something off it where it stands (``seen``
    of ``None``: it is in a gun's sight or a charge's reach already, and main's moves
    apply); else the path moves after which it is still expected to take nothing (out of
    every gun's Line of Sight or beyond its Move plus Range, §5.4-5.5, and beyond every
    melee unit's Move, §4.3), in ``paths``' order, the best progress first; empty: it holds
    where it stands until a charge reaches (the charges are the caller's, §4.3)."""
    if seen(None) > 0.0:
        return None
    return [m for m in paths if m.unit == uid and seen(m) <= 0.0]
