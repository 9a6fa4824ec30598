"""Why a previewed Move ends short of where it was sent, and whether it crosses Dangerous
Ground (issue 10, session 32): words for the preview (``game/preview.py``) from the engine's own
reasons, nothing planned anew.

A Move or Dash toward a point (Core Rules 001_d3f5e425c5e1196d.txt §4.1 L1817-1857) goes
straight as far as the allowance or the point when that is legal; else the planner
(``movement._plan_towards``) tries shorter straight moves (:data:`STEPS` of the full length),
then a way round (``route_move``). A Move that ends short was refused at each longer length:
:func:`why_short` asks the engine's own check (``movement.move_problems``, the Melee's lock
``melee.check_locked``) about those lengths and gives its refusals (Impassable Ground and other
units' bases, §4.7 L2146-2156; Difficult Ground halving, §4.5 L2044-2059; Coherency, §4.2
L1891-1946; the board's edge, §2.1 L574; the lock of a Melee, §4.4 L2004-2012), each with its
rule and lines, and says when the unit went round (the straight way refused at every length).

:func:`dangerous_note`: the models that would cross Dangerous Ground (§4.6 L2085-2100) are known
from the plan (the same paths ``apply_move`` rolls for), their losses are not (dice): the note
says the unit may lose models there. The perks that spare a unit (Traverse II, Perks L2166;
Courage, L707; Incorporeal, L2467) are asked as ``apply_move`` asks them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import bases, perk_incorporeal
from warbench.rulesets.warsurge.game.actions import Move, Point
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.melee import check_locked
from warbench.rulesets.warsurge.game.movement import (
    STRAIGHT_SHARES,
    dangerous_crossings,
    move_problems,
    mover_models,
    unit_allowance,
)
from warbench.rulesets.warsurge.game.plans import MovePlan
from warbench.rulesets.warsurge.game.state import GameState
from warbench.rulesets.warsurge.game.work import Work

__all__ = ["RULE_LINES", "STEPS", "dangerous_note", "why_short"]

#: The shares of the full straight move the planner tries, longest first: the planner's own
#: tuple (``movement.STRAIGHT_SHARES``), imported so the two cannot drift apart.
STEPS = STRAIGHT_SHARES

#: The lines of Core Rules 001_d3f5e425c5e1196d.txt for the sections a Move's refusal cites.
RULE_LINES = {
    "§1.3": "L248",
    "§2.1": "L574",
    "§4.1": "L1817-1857",
    "§4.2": "L1891-1946",
    "§4.3": "L1985-1991",
    "§4.4": "L2004-2012",
    "§4.5": "L2044-2059",
    "§4.6": "L2085-2100",
    "§4.7": "L2146-2156",
    "§5.1 Type": "L3756",
}

#: What each section means for a Move, in a player's words.
_GLOSS = {
    "§2.1": "the board's edge",
    "§4.1": "the Move's allowance",
    "§4.2": 'Coherency: every model within 2" of another, in one group',
    "§4.4": "a unit in a Melee keeps Base Contact",
    "§4.5": 'Difficult Ground halves a Move (rounded down, at least 1" less)',
    "§4.7": "Impassable Ground and other units' bases cannot be crossed or stood on",
    "§1.3": "bases may not overlap",
    "§5.1 Type": "a model that used a Battle or Heavy weapon cannot Dash",
}


def cite(rule: str) -> str:
    """``rule`` with its lines in the Core Rules (``§4.7 L2146-2156``), as is when unknown."""
    key = next((k for k in RULE_LINES if rule.startswith(k)), None)
    return rule if key is None else f"{rule}, Core Rules {RULE_LINES[key]}"


def _why(rule: str, reason: str) -> str:
    """``reason`` followed by its rule, lines and what the rule means for a Move."""
    gloss = next((g for k, g in _GLOSS.items() if rule.startswith(k)), None)
    return f"{reason} ({cite(rule)}{': ' + gloss if gloss else ''})"


def why_short(game: GameState, action: Move, plan: MovePlan) -> tuple[str, ...]:
    """Why the planned Move toward ``action.to`` ends short of the full straight move (the
    allowance, or the point when nearer), in words with their rules; ``()`` when it does not
    (or for a Move that is not toward a point). Short is measured toward the point (how much
    nearer the unit's centre ends), so a unit that went round is short even where it moved its
    whole allowance, or farther than a near point lies."""
    if action.to is None or action.engage is not None or action.positions is not None:
        return ()
    w = Work(game, None, DEFAULT_HOOKS)
    uid = plan.uid
    u = w.units[uid]
    models = tuple(plan.models)
    starts = tuple(u.pos[i] for i in models)
    free, _stay = mover_models(w, uid, action.dash)
    if not free:
        return (
            _why(
                "§5.1 Type",
                "no model of the unit may Dash: each used a Battle or Heavy weapon this Game Turn",
            ),
        )
    allowance = unit_allowance(w, uid, action.dash)
    centre = np.asarray([u.pos[i] for i in free]).mean(axis=0)
    v = np.asarray(action.to, dtype=np.float64) - centre
    dist = float(np.hypot(*v))
    if dist < 1e-9:
        return ()
    full = min(dist, float(allowance))
    ends = dict(zip(models, plan.positions, strict=True))
    moved = np.asarray([ends[i] for i in free]).mean(axis=0) - centre
    got = float(np.hypot(*moved))
    # short is measured toward the point, not as the distance moved: a unit that went round
    # may move its full allowance (or farther than a near point) and still end short of it
    nearer = dist - float(np.hypot(*(v - moved)))
    if nearer >= full - 1e-6:
        return ()
    way = v / dist
    # the planner's straight result: every free model the same move, along the heading, one of
    # its shares (a way round that happens to run along the heading is not: route_move's own
    # shares of the allowance)
    straight = (
        abs(float(moved[0] * way[1] - moved[1] * way[0])) < 1e-6
        and float(moved @ way) > 0
        and any(abs(got - full * s) < 1e-6 for s in STEPS)
        and all(
            math.dist(
                (ends[i][0] - u.pos[i][0], ends[i][1] - u.pos[i][1]),
                (float(moved[0]), float(moved[1])),
            )
            < 1e-6
            for i in free
        )
    )
    if action.facing is not None:  # a Move that turns its bases is checked with its turn
        w.turning[uid] = bases.check_turn(w, uid, models, action.facing)
    what = "Dash" if action.dash else "Move"
    out: list[str] = []
    seen: set[str] = set()
    fs = set(free)
    for share in STEPS:
        length = full * share
        if straight and length <= got + 1e-6:
            break
        vec = way * length
        new = tuple(
            (u.pos[i][0] + float(vec[0]), u.pos[i][1] + float(vec[1])) if i in fs else u.pos[i]
            for i in models
        )
        prob = _refusal(w, uid, new, models, starts, allowance, action.dash)
        if prob is None or prob[1] in seen:
            continue
        seen.add(prob[1])
        out.append(
            f'a straight {what} of {length:.1f}" toward the point: ' + _why(prob[1], prob[0])
        )
    w.turning.pop(uid, None)
    aim = ("its allowance gives" if full < dist else "to the point") + " (the engine tries "
    aim += ", ".join(f"{s:.0%}" for s in STEPS) + " of it, straight)"
    if straight:
        head = f'moves {got:.1f}", short of the {full:.1f}" {aim}'
    else:
        near = f'only {nearer:.1f}" nearer the point' if nearer >= 0.05 else "no nearer the point"
        head = (
            f'moves {got:.1f}" but ends {near}, short of the {full:.1f}" {aim}; the straight way '
            "is refused at every length the engine tries, so the unit goes round along the "
            f"board's path, each model straight (§4.1, Core Rules {RULE_LINES['§4.1']}; §4.7, "
            f"{RULE_LINES['§4.7']})"
        )
    return (head, *out)


def _refusal(
    w: Work,
    uid: int,
    new: tuple[Point, ...],
    models: Sequence[int],
    starts: Sequence[Point],
    allowance: float,
    dash: bool,
) -> tuple[str, str] | None:
    """The engine's refusal of these positions for a Move or Dash (``movement._legal``'s
    questions: ``move_problems``, then the lock of a Melee)."""
    prob = move_problems(w, uid, new, models, starts, allowance, dash)
    if prob is not None:
        return prob
    if w.engaged_with(uid):
        try:
            check_locked(w, uid, new)
        except RulesError as exc:
            return (exc.reason, exc.rule)
    return None


def dangerous_note(game: GameState, plan: MovePlan) -> str | None:
    """The Dangerous Ground the planned Move crosses (as ``apply_move`` finds it), in words:
    the models that cross roll and may be lost (§4.6); ``None`` when it crosses none."""
    if plan.starts is None or plan.disembark or plan.embark is not None or plan.reserve:
        return None
    w = Work(game, None, DEFAULT_HOOKS)
    uid = plan.uid
    if w.units[uid].statuses and perk_incorporeal.immune(w, uid, None):
        return None  # Incorporeal (L2467)
    crossed = {
        name: len(models)
        for name, models in dangerous_crossings(
            w, uid, plan.models, plan.starts, plan.positions, plan.facing
        ).items()
    }
    if not crossed:
        return None
    where = ", ".join(f"{name} ({n} model{'s' if n > 1 else ''})" for name, n in crossed.items())
    return (
        f"crosses Dangerous Ground: {where}; each model that crosses it is struck and may be "
        f"lost (§4.6, Core Rules {RULE_LINES['§4.6']}); shown are the places, not the losses"
    )
