"""Blood Rage (004_f4ea5693af0644ce.txt L1363-L1367): a figure whose moves and attacks are
compelled.

"The figure must always use its full movement to move directly towards the nearest enemy and
must use as many of its close combat attacks as possible. If the figure still has movement
remaining and its first target is destroyed, it will continue to do this until it is out of
movement and attacks. It may ignore vehicles and figures with the cybernetic edge in favor of
'juicier' targets. When activated, roll a single die for the figure. On a roll of 1, the
figure will move toward and attack the closest figure, friendly or otherwise."

The compulsions are refusals of the protocol (:func:`refusal`), which the listed actions and
the engine's default always meet:

* its **quarry** is the nearest enemy on the table, or, when that is a vehicle or a Cybernetic
  figure, also the nearest enemy that is neither (the player's choice); after a 1 at
  activation (``Fig.bonus["rage_any"]``), the closest figure of either side;
* a Move must go straight at a quarry as far as the allowance goes, stopping at base contact
  (a Charge when it ends in contact), or as far as the way is clear (:func:`compelled_moves`);
  no Fast Move;
* it attacks only with close combat weapons, only a quarry; it may not reserve;
* Deactivate is refused while it can still make a compelled move or a close combat attack on
  a quarry (:func:`obligation`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from warbench.kernel.dice import Dice
from warbench.play.core import Event
from warbench.rulesets.warengine.game.measure import gap, on_table
from warbench.rulesets.warengine.game.setup import Context, WeaponProfile
from warbench.rulesets.warengine.game.state import (
    Attack,
    Deactivate,
    Fig,
    GameState,
    Move,
    Reserve,
    WarEngineAction,
    rule,
)

#: How close a proposed move must end to the compelled point (inches).
SLACK = 0.1
#: How much shorter each try is when the straight way is blocked (inches).
STEP_BACK = 0.5


def raging(ctx: Context, fid: int) -> bool:
    """Whether the figure has Blood Rage."""
    return ctx.profiles[fid].has("blood_rage")


def roll_rage(
    state: GameState, ctx: Context, ids: Sequence[int], dice: Dice, events: list[Event]
) -> None:
    """At activation, a die for each Blood Rage figure: on a 1 it goes for the closest figure,
    friend or foe, this activation (L1367)."""
    for i in ids:
        if not raging(ctx, i):
            continue
        f = state.figs[i]
        face = dice.d6(f"{ctx.profiles[i].name}: Blood Rage")
        f.bonus.pop("rage_any", None)
        if face == 1:
            f.bonus["rage_any"] = 1
        events.append(
            Event(
                "blood rage",
                f"{ctx.profiles[i].name} #{i} rolls {face}: "
                + (
                    "it goes for the closest figure, friend or foe"
                    if face == 1
                    else "it goes for the nearest enemy"
                ),
                rule(1367),
            )
        )


def _machine(ctx: Context, fid: int) -> bool:
    prof = ctx.profiles[fid]
    return "Vehicle" in prof.tweaks or prof.has("cybernetic")


def quarries(state: GameState, ctx: Context, f: Fig) -> list[int]:
    """The figures ``f`` may go for (ties all count)."""
    others = [g for g in state.figs if g.id != f.id and on_table(g)]
    if "rage_any" not in f.bonus:
        others = [g for g in others if g.side != f.side]
    if not others:
        return []
    d = {g.id: gap(ctx, f, g) for g in others}
    near = min(d.values())
    out = [i for i in d if d[i] - near < 1e-6]
    if "rage_any" not in f.bonus and all(_machine(ctx, i) for i in out):
        juicy = [i for i in d if not _machine(ctx, i)]
        if juicy:
            best = min(d[i] for i in juicy)
            out += [i for i in juicy if d[i] - best < 1e-6]
    return sorted(out)


def compelled_moves(state: GameState, ctx: Context, f: Fig, player: int) -> list[Move]:
    """The moves the figure must choose among: straight at each quarry not in contact, as far
    as its allowance goes (a Charge when it reaches base contact), or as far as the way is
    clear; none when it cannot move at all."""
    from warbench.rulesets.warengine.game import movement as mov

    if f.done or f.mode == "fast":
        return []
    out: list[Move] = []
    for q in quarries(state, ctx, f):
        g = state.figs[q]
        if gap(ctx, f, g) <= 0.01:
            continue
        modes: tuple[Literal["charge", "move"], ...] = ("charge", "move")
        for mode in modes:
            left = mov.allowance(state, ctx, f, mode) - f.used
            reach = float(left) - 0.001
            while reach > 0:
                x, y = mov.toward(state, ctx, f, g, reach)
                m = Move(f.id, x, y, mode)
                if mov.move_refusal(state, ctx, m, player) is None:
                    out.append(m)
                    break
                if mode == "charge":
                    break  # a Charge must reach contact in one go
                reach -= STEP_BACK
    return out


def cc_attacks(state: GameState, ctx: Context, f: Fig) -> list[Attack]:
    """The close combat attacks ``f`` may make now on a quarry."""
    from warbench.rulesets.warengine.game import attacks as atk

    out: list[Attack] = []
    qs = quarries(state, ctx, f)
    for wi, w in enumerate(ctx.profiles[f.id].weapons):
        if not w.cc or w.power is not None or atk.weapon_refusal(state, ctx, f, wi) is not None:
            continue
        for q in qs:
            if gap(ctx, f, state.figs[q]) <= atk.reach(w) + 0.01 and _attack_ok(
                state, ctx, f, w, q
            ):
                out.append(Attack(f.id, wi, q))
    return out


def _attack_ok(state: GameState, ctx: Context, f: Fig, w: WeaponProfile, q: int) -> bool:
    from warbench.rulesets.warengine.game import attacks as atk

    return atk.target_refusal(state, ctx, f, w, q) is None


def obligation(state: GameState, ctx: Context, player: int) -> Attack | Move | None:
    """The first compelled action a Blood Rage figure of the active units still owes (an
    attack before a move), or ``None``."""
    from warbench.rulesets.warengine.game.control import group_figs

    for fid in group_figs(state, state.active_units):
        f = state.figs[fid]
        if f.side != player or f.done or not raging(ctx, fid) or "halted" in f.bonus:
            continue
        attacks = cc_attacks(state, ctx, f)
        if attacks:
            return attacks[0]
        moves = compelled_moves(state, ctx, f, player)
        if moves:
            return moves[0]
    return None


def refusal(
    state: GameState, ctx: Context, a: WarEngineAction, player: int
) -> tuple[str, str] | None:
    """Why ``a`` breaks a Blood Rage compulsion (sentence, rule), or ``None``."""
    if isinstance(a, Deactivate):
        owed = obligation(state, ctx, player)
        if owed is not None:
            who = ctx.profiles[owed.fig].name
            what = "attack" if isinstance(owed, Attack) else "move at its quarry"
            return (f"{who} is in a Blood Rage: it must {what} first", rule(1367))
        return None
    fid = getattr(a, "fig", None)
    if fid is None or not 0 <= fid < len(state.figs) or not raging(ctx, fid):
        return None
    f = state.figs[fid]
    name = f"{ctx.profiles[fid].name} #{fid}"
    if isinstance(a, Reserve):
        return (f"{name} is in a Blood Rage: it may not reserve", rule(1367))
    if isinstance(a, Move):
        if a.mode == "fast":
            return (f"{name} is in a Blood Rage: no Fast Move", rule(1367))
        ok = compelled_moves(state, ctx, f, player)
        if not any(
            abs(m.x - a.x) <= SLACK and abs(m.y - a.y) <= SLACK and m.mode == a.mode for m in ok
        ):
            where = ", ".join(f"({m.x:g}, {m.y:g}) as {m.mode}" for m in ok) or "nowhere"
            return (
                f"{name} is in a Blood Rage: it must move its full movement straight at the "
                f"nearest {'figure' if 'rage_any' in f.bonus else 'enemy'}; allowed: {where}",
                rule(1367),
            )
        return None
    if isinstance(a, Attack):
        w = (
            ctx.profiles[fid].weapons[a.weapon]
            if 0 <= a.weapon < len(ctx.profiles[fid].weapons)
            else None
        )
        if w is None or not w.cc or w.power is not None:
            return (f"{name} is in a Blood Rage: close combat attacks only", rule(1367))
        if a.target not in quarries(state, ctx, f):
            return (
                f"{name} is in a Blood Rage: it attacks the nearest "
                f"{'figure' if 'rage_any' in f.bonus else 'enemy'} ({quarries(state, ctx, f)})",
                rule(1367),
            )
    return None
