"""Where a Deploy, a Move (a Dash, a charge into Base Contact) or a Disembark would put a unit's
models, before the player commits (issue 10, session 31): the engine's own plan
(:func:`engine.planned`, the plan ``apply`` carries out), no second planner, no dice rolled,
nothing applied.

A Move toward a point is the engine's placement (docs/rulings.md "WARSURGE movement: session
30, a Move toward a point", Core Rules 001_d3f5e425c5e1196d.txt §4.1 L1833-1851, §4.7
L2147-2156): routed round terrain and units it may differ from a straight slide, so the play
page draws these positions as ghost bases and ``warbench play`` prints them before asking to
confirm. Each model's own move is straight (ruling 2 there), so a line from each start to its
end is that model's path.

What the plan does not hold is said in the preview's ``note`` (the places are still the plan's):
a unit with Charge I-II (Perks 000_94ecc6a4c74d351b.txt L2086-L2096) may be moved on into Base
Contact by a roll after its Move or Dash (``perk_movement.charge_after_move``), and one with
Ambush I-III (L1814-L1836) deployed outside its Deployment Zone takes a Mastery Test and may
scatter or be deployed normally (``perk_deploy.ambush_after_deploy``). A Move that crosses
Dangerous Ground (§4.6 L2085-2100) may lose models there: the note says so (the losses are
dice, not places; ``preview_why.dangerous_note``).

``why_short`` (session 32): why a Move toward a point ends short of its allowance or the point,
from the engine's own refusals of the longer moves (``preview_why.why_short``).

An Attack (session 34): no placements, and a ``note`` naming what a perk may move after it and
how (``preview_push.attack_push_note``), so a push after the dice does not surprise the player.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from warbench.kernel.errors import RulesError
from warbench.play.core import Placement, Preview
from warbench.rulesets.warsurge.game import bases, engine
from warbench.rulesets.warsurge.game.actions import Action, Attack, Deploy, Disembark, Move
from warbench.rulesets.warsurge.game.perk_deploy import AMBUSH
from warbench.rulesets.warsurge.game.perk_movement import CHARGE
from warbench.rulesets.warsurge.game.perk_turn import index
from warbench.rulesets.warsurge.game.plans import AttackPlanG, DeployPlan, MovePlan
from warbench.rulesets.warsurge.game.preview_push import attack_push_note
from warbench.rulesets.warsurge.game.preview_why import dangerous_note, why_short
from warbench.rulesets.warsurge.game.render import drawings, terrain_status
from warbench.rulesets.warsurge.game.state import GameState

__all__ = ["preview", "preview_lines"]


def preview(game: GameState, action: Action) -> Preview | None:
    """Every model's place before and after ``action`` as the engine plans it; ``None`` for an
    action that places no models (a pass, an embarkation, Rift Gate's ways in and out of
    Reserve) or that the engine refuses. An Attack places none, but when a perk of its Weapons
    or Targets may move a unit after it (Knockback, Force, Grapple, Upheaval, Kamikaze) its
    preview has no placements and a ``note`` saying so (``preview_push``, session 34)."""
    if not isinstance(action, Deploy | Move | Disembark | Attack):
        return None
    try:
        plan = engine.planned(game, action)
    except RulesError:
        return None
    if isinstance(action, Attack):  # no places, but what a perk may move after it (session 34)
        pushes = attack_push_note(game, action, plan) if isinstance(plan, AttackPlanG) else None
        return None if pushes is None else Preview((), pushes)
    if isinstance(plan, DeployPlan) and plan.into is None:
        # an oval or rectangular base is set up facing as apply_deploy turns it (§1.3)
        faces = bases.deployed_facings(game, plan.uid)
        return Preview(
            tuple(
                Placement(plan.uid, i, None, _pt(p), float(faces[i]) if faces else None)
                for i, p in enumerate(plan.positions)
                if not game.units[plan.uid].removed[i]
            ),
            _ambush_note(game, plan.uid),
        )
    if not isinstance(plan, MovePlan) or plan.embark is not None or plan.reserve:
        return None
    starts: Sequence[tuple[float, float] | None] = plan.starts or (None,) * len(plan.models)
    # a charge ends in a Melee: Charge I-II roll only for a unit out of any (L2086)
    charge = (
        None
        if plan.disembark or (isinstance(action, Move) and action.engage is not None)
        else _charge_note(game, plan.uid)
    )
    notes = [n for n in (charge, dangerous_note(game, plan)) if n is not None]
    return Preview(
        tuple(
            Placement(
                plan.uid,
                i,
                None if s is None else _pt(s),
                _pt(p),
                float(plan.facing[i]) if plan.facing else None,
            )
            for i, s, p in zip(plan.models, starts, plan.positions, strict=True)
        ),
        "; ".join(notes) or None,
        why_short(game, action, plan) if isinstance(action, Move) else (),
    )


def _charge_note(game: GameState, uid: int) -> str | None:
    """Charge I-II (L2086-L2096): after the Move or Dash a roll may move the unit on."""
    perks = index(game.setup).units[uid].unit
    rank = next((r for r in CHARGE if r in perks), None)
    if rank is None:
        return None
    radius, roll, line = CHARGE[rank]
    return (
        f'{rank} (Perks L{line}): with an enemy unit within {radius:g}" after this, a {roll} '
        "roll may then move the unit on into Base Contact; shown is where the Move itself ends"
    )


def _ambush_note(game: GameState, uid: int) -> str | None:
    """Ambush I-III (L1814-L1836): placed outside its Deployment Zone, a Mastery Test, then a
    scatter (none for Ambush III) or a normal deployment."""
    perks = index(game.setup).units[uid].unit
    rank = next((r for r in AMBUSH if r in perks), None)
    if rank is None:
        return None
    return (
        f"{rank} (Perks L{AMBUSH[rank][1]}): placed outside its Deployment Zone, it takes a "
        "Mastery Test and may scatter or be deployed normally; shown is where it is placed"
    )


def _pt(p: Sequence[float]) -> tuple[float, float]:
    return (float(p[0]), float(p[1]))


def preview_lines(
    game: GameState, shown: Preview, *, board: bool = True, cell: float | None = None
) -> list[str]:
    """The preview in words for the terminal: per unit, its centre (the mean of its placed
    models) before and after and how far it moves, the longest single model's move, and, with
    ``board``, the board as text with the unit's new places drawn as one more unit (its own
    letter, "after" in the legend). ``why short`` lines say why a Move ends short (session 32).
    ``cell``: inches a character; ``None``: the board fits the terminal's height (one inch a
    character when there is no terminal; session 33, ``play.terminal.board_cell``)."""
    from warbench.rulesets.warsurge.battlefield import render_text
    from warbench.rulesets.warsurge.game.terrain_field import field_of

    lines: list[str] = []
    extra: list[tuple[str, int, list[Any]]] = []
    for uid in dict.fromkeys(p.unit for p in shown.placements):
        mine = [p for p in shown.placements if p.unit == uid]
        info = game.info(uid)
        after = _centre([p.end for p in mine])
        starts = [p.start for p in mine if p.start is not None]
        if len(starts) == len(mine):
            before = _centre(starts)
            moved = math.dist(before, after)
            longest = max(math.dist(p.start, p.end) for p in mine if p.start is not None)
            lines.append(
                f"preview: {info.label} ({len(mine)} models): centre "
                f"({before[0]:.1f}, {before[1]:.1f}) -> ({after[0]:.1f}, {after[1]:.1f}), "
                f'{moved:.1f}" moved (the farthest model {longest:.1f}")'
            )
        else:
            lines.append(
                f"preview: {info.label} ({len(mine)} models) placed, centre "
                f"({after[0]:.1f}, {after[1]:.1f})"
            )
        for p in mine:
            was = "off the table" if p.start is None else f"({p.start[0]:.2f}, {p.start[1]:.2f})"
            lines.append(f"  model {p.model + 1}: {was} -> ({p.end[0]:.2f}, {p.end[1]:.2f})")
        extra.append(
            (f"{info.label}, after (preview)", info.side, [(p.end, info.radius) for p in mine])
        )
    if shown.why_short:
        lines.append(f"  why short: {shown.why_short[0]}")
        lines.extend(f"    {why}" for why in shown.why_short[1:])
    if shown.note:
        lines.append(f"  note: {shown.note}")
    if board and extra:
        from warbench.play.terminal import board_cell

        field = field_of(game).board
        picture = render_text(
            field,
            [*drawings(game), *extra],
            cell=board_cell(field.height, spare=12) if cell is None else cell,
            status=terrain_status(game),
            sides=game.setup.sides,
        )
        lines.append(picture)
    return lines


def _centre(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
