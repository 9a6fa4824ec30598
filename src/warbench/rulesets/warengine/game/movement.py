"""Movement (004_f4ea5693af0644ce.txt L403-L425, L567): Move, Fast Moves, Charging, Leaving
Close Combat.

* A figure moves in straight stages up to its Movement per activation; every part inch
  counts as a whole inch (L405: 4.25" uses 5").
* Fast Move (L415-L421): +1/3 allowance if it makes and reserves no attacks and ends every
  stage more than 6" from enemies.
* Charge (L425): +1/3 allowance to enter close combat; the stage must end in base contact
  with an enemy, and the figure's next close combat attack has the Charge bonus.
* Leaving close combat (L567): every enemy in contact first makes all its close combat
  attacks on the figure (free attacks, individually); if it survives, it moves.
"""

from __future__ import annotations

import math

from warbench.rulesets.warengine.game.control import led_by_frother
from warbench.rulesets.warengine.game.measure import (
    enemies_in_contact,
    gap,
    gap_at,
    on_table,
)
from warbench.rulesets.warengine.game.setup import Context
from warbench.rulesets.warengine.game.state import Fig, GameState, Move, Surge, rule

FAST_CLEAR = 6.0  # L419


def allowance(state: GameState, ctx: Context, f: Fig, mode: str) -> int:
    """The figure's movement allowance in inches for this activation."""
    mv = ctx.profiles[f.id].mv
    if led_by_frother(state, ctx, f.id):
        mv += 3
    if mode in ("fast", "charge"):
        mv += ctx.profiles[f.id].mv // 3
    # Speedster: up to 6" more (L1239); Induce Drug Frenzy: 1" a kept die (L1123)
    # Invigorate's Hero Points spent on movement: 1" each (L1135, ``Surge``)
    return mv + f.bonus.get("speedster", 0) + f.bonus.get("frenzy_k", 0) + f.bonus.get("surge", 0)


def cost(f: Fig, x: float, y: float) -> int:
    """Inches of allowance a stage uses: part inches count whole (L405)."""
    return math.ceil(math.hypot(x - f.x, y - f.y) - 1e-9)


def activating_refusal(
    state: GameState, ctx: Context, fig: int, player: int, missing: int
) -> tuple[str, str] | None:
    """Why figure ``fig`` may not act for ``player`` now (sentence, rule), or None: it must
    exist (a figure missing is refused under line ``missing`` of the action's own rule), be
    ``player``'s, on the table in the unit being activated (L399), and not have reserved an
    attack (its actions are over, L573)."""
    if not 0 <= fig < len(state.figs):
        return (f"there is no figure {fig}", rule(missing))
    f = state.figs[fig]
    if f.side != player or f.unit not in state.active_units or not on_table(f):
        return (f"figure {fig} is not in the unit you are activating", rule(399))
    if f.done:
        prof = ctx.profiles[f.id]
        return (f"{prof.name} #{f.id} has reserved an attack: its actions are over", rule(573))
    return None


def move_refusal(state: GameState, ctx: Context, m: Move, player: int) -> tuple[str, str] | None:
    """Why the move is not allowed (sentence, rule), or None."""
    refused = activating_refusal(state, ctx, m.fig, player, 403)
    if refused is not None:
        return refused
    f = state.figs[m.fig]
    prof = ctx.profiles[f.id]
    if "coup" in f.bonus:
        return (f"{prof.name} #{f.id} counts coup until the Follow Up step", rule(1373))
    if "halted" in f.bonus:
        return (f"{prof.name} #{f.id} may not act this turn (a Special Power)", rule(838))
    if not (math.isfinite(m.x) and math.isfinite(m.y)):
        return ("a move needs a finite point", rule(403))
    if m.mode not in ("move", "fast", "charge"):
        return (f"mode {m.mode!r}: allowed: move, fast, charge", rule(411))
    if (f.mode == "fast" and m.mode != "fast") or (f.mode == "charge" and m.mode == "fast"):
        return (f"{prof.name} #{f.id} already moves as a {f.mode} move", rule(411))
    if m.mode == "fast" and f.attacked:
        return ("a figure that attacked or reserved may not make a Fast Move", rule(415))
    used = cost(f, m.x, m.y)
    if used == 0:
        return ("a move must go somewhere", rule(403))
    allow = allowance(state, ctx, f, m.mode)
    if f.used + used > allow:
        return (
            f'{prof.name} #{f.id} has {allow - f.used}" of its {allow}" allowance left; '
            f'this move uses {used}" (part inches count whole)',
            rule(405),
        )
    bad = ctx.field.passable((f.x, f.y), (m.x, m.y), prof.radius)
    if bad:
        return (bad, rule(403))
    for e in prof.effects:
        if e.kind == "avoid_cover":
            level = int(str(e.param))
            for p in ctx.field.pieces:
                if p.level >= level and ctx.field.crosses(p, (f.x, f.y), (m.x, m.y)):
                    return (f"{prof.name} may not enter or pass through {p.name}", rule(1445))
    touching = []
    for g in state.figs:
        if g.id == f.id or not on_table(g):
            continue
        d = gap_at(ctx, f, m.x, m.y, g)
        if d < -1e-6:
            return (f"the base would overlap {ctx.profiles[g.id].name} #{g.id}", rule(403))
        if g.side != f.side:
            if d <= 0.01:
                touching.append(g)
            if m.mode == "fast" and d <= FAST_CLEAR:
                return (
                    f'a Fast Move may not end within 6" of an enemy ({d:.2f}" from '
                    f"{ctx.profiles[g.id].name} #{g.id})",
                    rule(419),
                )
    if m.mode == "charge" and not touching:
        return ("a Charge must end in base-to-base contact with an enemy", rule(425))
    if f.entangled_by is not None:
        ent = state.figs[f.entangled_by]
        if on_table(ent) and gap_at(ctx, f, m.x, m.y, ent) > max(gap(ctx, f, ent), 0.01) + 1e-9:
            return ("an entangled figure may not leave close combat with its captor", rule(1765))
    return None


def leaving_attackers(state: GameState, ctx: Context, f: Fig, m: Move) -> list[Fig]:
    """Enemies in contact that the move takes the figure away from (L567); none for a
    Slippery figure (L1627)."""
    if ctx.profiles[f.id].has("slippery"):
        return []
    return [
        g
        for g in enemies_in_contact(state, ctx, f)
        if gap_at(ctx, f, m.x, m.y, g) > 0.01
        and any(w.cc and w.power is None for w in ctx.profiles[g.id].weapons)
    ]


def do_move(state: GameState, ctx: Context, f: Fig, m: Move) -> None:
    """Carry out a checked move."""
    if m.mode == "charge" and not f.charged and f.mode != "charge":
        foe = min(
            (g for g in state.figs if g.side != f.side and on_table(g)),
            key=lambda g: gap(ctx, f, g),
            default=None,
        )
        f.charge_from = gap(ctx, f, foe) if foe is not None else 0.0
        f.charged = True
    f.used += cost(f, m.x, m.y)
    f.x, f.y = m.x, m.y
    f.moved = True
    f.bonus.pop("chanting", None)  # War Chant ends when the chanter moves (L1335)
    if f.mode in ("", "move"):
        f.mode = m.mode


def toward(state: GameState, ctx: Context, f: Fig, g: Fig, inches: float) -> tuple[float, float]:
    """The point ``inches`` toward ``g`` (stopping at base contact), rounded to 1e-3."""
    d = math.hypot(g.x - f.x, g.y - f.y)
    if d <= 1e-9:
        return (f.x, f.y)
    contact = d - ctx.profiles[f.id].radius - ctx.profiles[g.id].radius
    step = min(inches, max(contact, 0.0))
    x = f.x + (g.x - f.x) / d * step
    y = f.y + (g.y - f.y) / d * step
    # round toward the start so a contact move never overlaps
    k = math.floor(step * 1000) / 1000 / step if step > 0 else 0.0
    return (round(f.x + (x - f.x) * k, 3), round(f.y + (y - f.y) * k, 3))


def surge_left(f: Fig) -> int:
    """The Hero Points Invigorate gave figure ``f`` that it still has (L1135): the points
    above those it had before (``hero_cap``); points spent on rolls go from these first
    (docs/rulings.md, The WarEngine 2.1 game, ruling 26)."""
    return max(0, f.hero - f.bonus["hero_cap"]) if "hero_cap" in f.bonus else 0


def surge_refusal(state: GameState, ctx: Context, a: Surge, player: int) -> tuple[str, str] | None:
    """Why figure ``a.fig`` may not spend ``a.points`` of Invigorate's Hero Points on
    movement now (L1135), or None."""
    refused = activating_refusal(state, ctx, a.fig, player, 1135)
    if refused is not None:
        return refused
    f = state.figs[a.fig]
    prof = ctx.profiles[f.id]
    left = surge_left(f)
    if left == 0:
        return (
            f"{prof.name} #{f.id} has no Hero Points from Invigorate to spend on movement",
            rule(1135),
        )
    if not 1 <= a.points <= left:
        return (
            f"{prof.name} #{f.id} may spend 1 to {left} of Invigorate's Hero Points on "
            f"movement, not {a.points}",
            rule(1135),
        )
    return None
