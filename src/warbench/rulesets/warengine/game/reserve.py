"""Reserve (004_f4ea5693af0644ce.txt L381-L387, L569-L585): Reserve Attack, Remove Reserve,
reserved attacks that interrupt the enemy, simultaneous reserved attacks, Lunge.

* Reserving is a figure's last action: one unused weapon goes on reserve (L573); Slow Attack
  weapons never (L1729); a figure that made a Fast Move may not (L415).
* Remove Reserve: markers are removed when the unit activates again (L383).
* A reserved attack is used against the currently active enemy unit (L577): after each of
  its figures' moves the other player may fire reserved attacks at that unit, the figure
  that moved or any other of its figures the weapon may target (``move`` window, L407;
  session 39, s39-we2; before, only the figure that moved); and when a figure with a
  reserved attack is attacked it may answer at once, the two attacks being simultaneous
  (``counter`` window, L575).
* Lunge (L581-L585): a figure with a close combat weapon on reserve and at least 9" of
  Movement may lunge 1" per 9" into contact with an enemy that passes by, then attack.
"""

from __future__ import annotations

from warbench.rulesets.warengine.game.attacks import allowed_targets, can_reach, reach
from warbench.rulesets.warengine.game.measure import free_spot, gap, on_table
from warbench.rulesets.warengine.game.movement import toward
from warbench.rulesets.warengine.game.setup import Context
from warbench.rulesets.warengine.game.state import (
    Attack,
    Fig,
    GameState,
    Pass,
    Reserve,
    ReserveFire,
    Window,
    rule,
)


def reserve_refusal(
    state: GameState, ctx: Context, r: Reserve, player: int
) -> tuple[str, str] | None:
    """Why the figure may not reserve that weapon, or None (L573)."""
    from warbench.rulesets.warengine.game.attacks import weapon_refusal

    if not 0 <= r.fig < len(state.figs):
        return (f"there is no figure {r.fig}", rule(573))
    f = state.figs[r.fig]
    if f.side != player or f.unit not in state.active_units or not on_table(f):
        return (f"figure {r.fig} is not in the unit you are activating", rule(399))
    bad = weapon_refusal(state, ctx, f, r.weapon)
    if bad:
        return (bad.reason, bad.rule)
    w = ctx.profiles[f.id].weapons[r.weapon]
    if "frenzy_k" in f.bonus:
        return (f"{ctx.profiles[f.id].name} #{f.id} is in a drug frenzy: no reserve", rule(1123))
    if "adrenal" in f.bonus:
        return (f"{ctx.profiles[f.id].name} #{f.id} is in Adrenal Overload: no reserve", rule(1015))
    if w.has("no_reserve"):
        return (f"{w.name} has Slow Attack and may never be placed on reserve", rule(1729))
    if r.every and not bushwhacked(state, ctx, f, r.weapon):
        return (
            f"{ctx.profiles[f.id].name} #{f.id} reserves one weapon: only a Bushwhacker that "
            "has not attacked this activation reserves all its ranged or close combat weapons "
            "(and it has another)",
            rule(1471),
        )
    return None


def bushwhacked(state: GameState, ctx: Context, f: Fig, wi: int) -> list[int]:
    """Bushwhacker (L1471): a figure that has not attacked this activation reserves all its
    ranged weapons or all its close combat weapons (Special Powers are neither): the others
    of the reserved weapon's kind that it may use and reserve, in weapon order."""
    from warbench.rulesets.warengine.game.attacks import weapon_refusal

    prof = ctx.profiles[f.id]
    w = prof.weapons[wi]
    if not prof.has("bushwhacker") or f.fired or w.power is not None:
        return []
    return [
        i
        for i, x in enumerate(prof.weapons)
        if i != wi
        and x.power is None
        and x.cc == w.cc
        and not x.has("no_reserve")
        and weapon_refusal(state, ctx, f, i) is None
    ]


def lunge_inches(ctx: Context, fid: int) -> int:
    """1" of lunge per 9" of Movement (L583)."""
    return ctx.profiles[fid].mv // 9


def options(state: GameState, ctx: Context, window: Window) -> list[ReserveFire]:
    """The reserved attacks the window's player may make now."""
    out: list[ReserveFire] = []
    if window.kind == "counter":
        assert window.declared is not None
        t = state.figs[window.declared.target]
        a = state.figs[window.declared.fig]
        if t.reserved is not None and t.id not in window.used and on_table(a):
            w = ctx.profiles[t.id].weapons[t.reserved]
            if w.power is None and can_reach(state, ctx, t, w, a) is None:
                out.append(ReserveFire(t.id, a.id))
        return out
    mover = state.figs[window.mover]
    if not on_table(mover) or "speedster" in mover.bonus:  # Speedster: too fast (L1239)
        return out
    others: list[ReserveFire] = []  # the rest of the active unit (L577 "attack that unit")
    for f in state.figs:
        if f.side != window.player or not on_table(f) or f.reserved is None or f.id in window.used:
            continue
        w = ctx.profiles[f.id].weapons[f.reserved]
        targets = allowed_targets(state, ctx, f, w, mover.unit)
        others += [ReserveFire(f.id, t) for t in targets if t != mover.id]
        if mover.id in targets:
            out.append(ReserveFire(f.id, mover.id))
        elif (
            w.cc
            and w.power is None
            and lunge_inches(ctx, f.id) >= 1
            and gap(ctx, f, mover) <= lunge_inches(ctx, f.id) + reach(w) + 1e-9
            and free_spot(state, ctx, f, *toward(state, ctx, f, mover, lunge_inches(ctx, f.id)))
        ):  # L583: lunge toward it, then strike with the weapon's reach
            out.append(ReserveFire(f.id, mover.id, lunge=True))
    return out + others


def default_answer(state: GameState, ctx: Context, window: Window) -> ReserveFire | Pass:
    """The engine's choice: fire the first reserved attack that can at the figure that moved
    (or answers the attack); a Trigger Happy figure with a ranged reserve fires at the first
    figure of the active unit it may target (it must, L1439); else none. The other figures of
    the active unit (L577) are choices for a player, not the engine's picks, so the seeded
    games by the defaults are those of session 38's "only the mover" ruling."""
    opts = options(state, ctx, window)
    mover = [o for o in opts if window.kind == "counter" or o.target == window.mover]
    forced = [o for o in opts if trigger_happy(state, ctx, o.fig)]
    return mover[0] if mover else forced[0] if forced else Pass()


def trigger_happy(state: GameState, ctx: Context, fid: int) -> bool:
    """A Trigger Happy figure with a ranged attack on reserve: it must fire (L1439)."""
    f = state.figs[fid]
    return (
        ctx.profiles[fid].has("trigger_happy")
        and f.reserved is not None
        and not ctx.profiles[fid].weapons[f.reserved].cc
    )


def lunge_pause(
    state: GameState, ctx: Context, mover: int, start: tuple[float, float], end: tuple[float, float]
) -> tuple[float, float] | None:
    """Where an enemy move passing a figure ready to lunge pauses (L407, L583): the point of
    the path closest to the first such figure it passes, if the move ends out of its reach."""
    m = state.figs[mover]
    best: tuple[float, tuple[float, float]] | None = None
    for f in state.figs:
        if f.side == m.side or not on_table(f) or f.reserved is None:
            continue
        w = ctx.profiles[f.id].weapons[f.reserved]
        if not w.cc or w.power is not None or lunge_inches(ctx, f.id) < 1:
            continue
        limit = (
            lunge_inches(ctx, f.id)
            + reach(w)
            + ctx.profiles[f.id].radius
            + ctx.profiles[m.id].radius
        )
        dx, dy = end[0] - start[0], end[1] - start[1]
        n = dx * dx + dy * dy
        t = (
            0.0
            if n == 0
            else max(0.0, min(1.0, ((f.x - start[0]) * dx + (f.y - start[1]) * dy) / n))
        )
        p = (round(start[0] + t * dx, 3), round(start[1] + t * dy, 3))
        near = ((p[0] - f.x) ** 2 + (p[1] - f.y) ** 2) ** 0.5
        far = ((end[0] - f.x) ** 2 + (end[1] - f.y) ** 2) ** 0.5
        if (
            near <= limit + 1e-9 < far
            and (best is None or t < best[0])
            and free_spot(state, ctx, m, p[0], p[1])
        ):
            best = (t, p)
    return None if best is None else best[1]


def open_move_window(
    state: GameState, ctx: Context, mover: int, start: tuple[float, float]
) -> None:
    """After an active figure's move: the other player may use reserved attacks (L407)."""
    w = Window("move", 1 - state.figs[mover].side, mover, start)
    if options(state, ctx, w):
        state.window = w


def counter_window(state: GameState, ctx: Context, a: Attack) -> bool:
    """Before an attack on an enemy figure with a reserved attack that can answer (L575). A
    normal attack by a figure with Lightning Reflexes supersedes reserved attacks (L1577):
    none. A friendly power on one's own figure opens no window (docs/rulings.md)."""
    if ctx.profiles[a.fig].has("lightning_reflexes"):
        return False
    t = state.figs[a.target]
    if t.side == state.figs[a.fig].side:  # a power on a friend: nobody answers it
        return False
    w = Window("counter", t.side, t.id, declared=a)
    if t.reserved is not None and options(state, ctx, w):
        state.window = w
        return True
    return False


def window_words(state: GameState, ctx: Context, window: Window) -> tuple[str, str]:
    """The ``reserve`` decision in a player's words and its rule (issue 10, session 39): a
    short question, then on a second line what the enemy did that opened it and what a
    reserved attack may do now. Session 38's prompt was "use a reserved attack now?" under
    L577 for both windows.

    * ``counter``: the enemy declared an attack on a figure of yours with a reserved attack;
      its answer is simultaneous, so both may be destroyed (L575).
    * ``move``: an enemy figure of the active unit moved (L407); reserved attacks may hit it,
      only the active unit (L577); a Trigger Happy figure's reserved ranged attack must fire
      (L1439)."""
    if window.kind == "counter":
        a = window.declared
        assert a is not None
        f, t = state.figs[a.fig], state.figs[a.target]
        w = ctx.profiles[f.id].weapons[a.weapon]
        mine = ctx.profiles[t.id].weapons[t.reserved].name if t.reserved is not None else "attack"
        return (
            f"Answer with your {ctx.profiles[t.id].name} #{t.id}'s reserved {mine}?\n"
            f"The enemy's {ctx.profiles[f.id].name} #{f.id} attacks it with its {w.name}. The "
            "two attacks are simultaneous, so both may be destroyed; it is now or never (L575).",
            rule(575),
        )
    m = state.figs[window.mover]
    at = f'({round(m.x, 1):g}", {round(m.y, 1):g}")'
    moved = f"It moved to {at}" if (m.x, m.y) != tuple(window.start) else f"It is at {at}"
    must = any(
        ctx.profiles[f.id].has("trigger_happy")
        and f.side == window.player
        and f.reserved is not None
        and not ctx.profiles[f.id].weapons[f.reserved].cc
        and on_table(f)
        for f in state.figs
    )
    return (
        f"Use a reserved attack on the enemy's {ctx.profiles[m.id].name} #{m.id} or its unit?\n"
        f"{moved}. A reserved attack may hit it or another figure of its unit, the unit that "
        "is activating, in sight and range (L577)."
        + (
            " A Trigger Happy figure with a ranged attack on reserve must fire at the first "
            "figure in its range and sight (L1439)."
            if must
            else ""
        ),
        rule(577),
    )


def own_reserve_attacks(state: GameState, ctx: Context, player: int) -> list[Attack]:
    """L579: during its own unit's activation a figure that reserved may use its reserved
    attack (after the others have moved or attacked, "Oops, I wanted to attack with this guy
    first!"): an attack with its reserved weapon at each enemy it may target now. Special
    Powers on reserve are not listed (an Attack naming one is still checked and allowed).
    The engine's automatic play never takes these (it keeps a reserve for Massed Attacks and
    the enemy's activations), so seeded games by the defaults are unchanged."""
    out: list[Attack] = []
    for uid in state.active_units:
        for fid in state.units[uid].figs:
            f = state.figs[fid]
            if f.side != player or not f.done or f.reserved is None or not on_table(f):
                continue
            w = ctx.profiles[fid].weapons[f.reserved]
            if w.power is not None:
                continue
            for u in state.units:
                if u.side != player and not u.gone:
                    out += [
                        Attack(fid, f.reserved, t) for t in allowed_targets(state, ctx, f, w, u.id)
                    ]
    return out
