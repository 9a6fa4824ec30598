"""Rout (004_f4ea5693af0644ce.txt L605-L615) with the Unit Tweaks (L1855-L1893).

A unit tests at most once per turn when (1) half or more of its figures are gone and it lost
one this turn, (2) it lost its leader this turn and none replaces it, (3) one trooper or elite
is left (automatic rout, unless Sole Survivor, L1639); or when a tweak or power says so
(Conscript, Raw, Green, Terror, Terrifying). The test rolls the leader's Mental: 10 or more
holds; uncontrolled figures read sixes as fives, so they may rout while the controlled figures
hold (L615). Characters alone, monsters and vehicles are never tested for casualties.
"""

from __future__ import annotations

from warbench.kernel.dice import Dice
from warbench.play.core import Event
from warbench.rulesets.warengine.dice import ROUT_TARGET, Adjustment, XkY, roll_xky
from warbench.rulesets.warengine.game import kit
from warbench.rulesets.warengine.game.control import (
    force_leader_for,
    group_figs,
    mental_of,
    mental_rank,
)
from warbench.rulesets.warengine.game.effects import effects_of
from warbench.rulesets.warengine.game.measure import gap, on_table
from warbench.rulesets.warengine.game.setup import Context
from warbench.rulesets.warengine.game.state import GameState, UnitState, rule
from warbench.rulesets.warengine.tables import catalogue


def _rank(mn: XkY) -> int:
    return catalogue().mental.index(str(mn))


def force_leader_falls(state: GameState, ctx: Context, fl: int) -> None:
    """A Force Leader destroyed or routed (L1537): every unit that could use its Mental then
    takes a rout test in the Rout step of the turn. Call while it is still on the table."""
    if not ctx.profiles[fl].has("force_leader"):
        return
    for u in state.units:
        if not u.gone and force_leader_for(state, ctx, u.id) == fl:
            u.must_test = True


def _kinds(u: UnitState) -> set[str]:
    return {e.kind for e in effects_of("unit", u.tweaks)}


def triggers(state: GameState, ctx: Context, u: UnitState) -> list[str]:
    """Why the unit must test this turn (empty: no test)."""
    alive = group_figs(state, [u.id])
    if u.gone or not alive:
        return []
    kinds = _kinds(u)
    why: list[str] = []
    if u.must_test:
        why.append("a power or a Terrifying figure")
    if not u.solo:
        lost = u.start_size - len(alive)
        share = 0.75 if "casualty_threshold" in kinds else 0.5
        if lost >= share * u.start_size and u.lost_this_turn > 0:
            why.append(f"{lost} of {u.start_size} figures lost")
        if u.lost_leader and u.leader is None:
            why.append("lost its leader")
        if "rout_every_turn" in kinds:
            why.append("Conscript")
        if "rout_if_attacked" in kinds and u.attacked_this_turn:
            why.append("Raw and attacked")
        if "rout_if_lost" in kinds and u.lost_this_turn > 0:
            why.append("Green and lost figures")
    return why


def rout_step(state: GameState, ctx: Context, dice: Dice, events: list[Event]) -> None:
    """The Rout step (L605): every unit that must, tests once."""
    for u in state.units:
        alive = group_figs(state, [u.id])
        if not alive or u.gone:
            continue
        if (
            not u.solo
            and len(alive) == 1
            and u.start_size > 1
            and ctx.profiles[alive[0]].type in ("T", "E")
            and not ctx.profiles[alive[0]].has("sole_survivor")
        ):
            events.append(
                Event(
                    "rout",
                    f"{u.name}: a lone trooper routs automatically",
                    rule(611),
                    {"side": u.side},
                )
            )
            _rout(state, ctx, u, alive, events)
            continue
        why = triggers(state, ctx, u)
        if not why:
            continue
        rout_test(state, ctx, u, why, dice, events)


def rout_test(
    state: GameState, ctx: Context, u: UnitState, why: list[str], dice: Dice, events: list[Event]
) -> None:
    """One rout test of unit ``u`` (L613-L615, with Well Trained, Rally, Inspiring Example,
    Butthole Sergeant); the figures that fail rout at once."""
    from warbench.rulesets.warengine.game.resolution import destroy

    alive = group_figs(state, [u.id])
    if not alive or u.gone:
        return
    u.tests_taken += 1
    if "pass_first_rout" in _kinds(u) and u.tests_taken == 1:
        events.append(
            Event(
                "rout",
                f"{u.name} is Well Trained: passes its first rout test",
                rule(1887),
                {"side": u.side},
            )
        )
        return
    if any("rally" in state.figs[i].bonus for i in alive):
        events.append(Event("rout", f"{u.name} is Rallied: passes", rule(1183), {"side": u.side}))
        return
    leader = u.leader if u.leader in alive else None
    tester = leader if leader is not None else max(alive, key=lambda i: (mental_rank(ctx, i), -i))
    mn = mental_of(state, ctx, tester)
    fl = force_leader_for(state, ctx, u.id)  # a Force Leader's better Mental (L1537)
    if fl is not None and mn is not None and mental_rank(ctx, fl) > _rank(mn):
        mn = ctx.profiles[fl].mn
        why = [*why, f"{ctx.profiles[fl].name}'s Mental (Force Leader)"]
    if mn is None:
        events.append(
            Event(
                "rout",
                f"{u.name} tests ({'; '.join(why)}): Automatic Mental holds",
                rule(613),
                {"side": u.side},
            )
        )
        return
    adj = [
        e.param
        for e in ctx.profiles[tester].effects
        if e.kind == "rout" and isinstance(e.param, Adjustment)
    ]
    pool: XkY = mn.adjusted(*adj) if adj else mn
    routed = _test(state, ctx, u, alive, pool, leader, dice, events, why)
    if routed and leader is not None and ctx.profiles[leader].has("inspiring"):
        events.append(
            Event("rout", f"{u.name} rerolls (Inspiring Example)", rule(1573), {"side": u.side})
        )
        routed = _test(
            state,
            ctx,
            u,
            [i for i in alive if on_table(state.figs[i])],
            pool,
            leader,
            dice,
            events,
            why,
        )
    if routed and leader is not None and ctx.profiles[leader].has("butthole"):
        lf = state.figs[leader]
        others = [i for i in alive if i != leader and on_table(state.figs[i])]
        if others:
            victim = min(others, key=lambda i: (gap(ctx, lf, state.figs[i]), i))
            events.append(
                Event(
                    "rout",
                    f"{u.name}: the sergeant makes an example of #{victim}",
                    rule(1477),
                    {"side": u.side},
                )
            )
            destroy(state, ctx, state.figs[victim], None, events, "shot by its sergeant")
            for i in alive:
                state.figs[i].bonus.pop("routing", None)
            return
    for i in list(alive):
        if state.figs[i].bonus.pop("routing", None):
            _rout(state, ctx, u, [i], events)


def terror_tests(state: GameState, ctx: Context, dice: Dice, events: list[Event]) -> None:
    """Terrifying (L1649): a unit with a figure within 6" of an enemy Terrifying figure takes
    an immediate rout test (its failed figures rout at once), once a game per unit and
    Terrifying figure (the figure's ``marks`` remember it, as for the 18" fire test)."""
    for t in state.figs:
        if not on_table(t) or not ctx.profiles[t.id].has("terrifying"):
            continue
        for u in state.units:
            if u.side == t.side or u.gone or f"terrified {u.id}" in t.marks:
                continue
            near = [i for i in group_figs(state, [u.id]) if gap(ctx, t, state.figs[i]) <= 6.0]
            if near:
                t.marks.append(f"terrified {u.id}")
                name = f"{ctx.profiles[t.id].name} #{t.id}"
                rout_test(state, ctx, u, [f'within 6" of the Terrifying {name}'], dice, events)


def _test(
    state: GameState,
    ctx: Context,
    u: UnitState,
    alive: list[int],
    pool: XkY,
    leader: int | None,
    dice: Dice,
    events: list[Event],
    why: list[str],
) -> bool:
    roll = roll_xky(dice, pool, None, f"{u.name} rout test")
    capped = sum(sorted((min(f, 5) for f in roll.faces), reverse=True)[: pool.kept])
    held_c = roll.total >= ROUT_TARGET
    held_u = capped >= ROUT_TARGET
    events.append(
        Event(
            "rout test",
            f"{u.name} tests ({'; '.join(why)}): {pool} rolls {list(roll.faces)} = {roll.total}"
            + ("" if held_c == held_u else f" ({capped} for uncontrolled figures)")
            + f": {'holds' if held_c else 'routs'}",
            rule(613),
            {"side": u.side},
        )
    )
    any_routed = False
    for i in alive:
        f = state.figs[i]
        held = held_c if (f.controlled and leader is not None) else held_u
        if not held:
            f.bonus["routing"] = 1
            any_routed = True
        else:
            f.bonus.pop("routing", None)
    return any_routed


def _rout(
    state: GameState, ctx: Context, u: UnitState, figs: list[int], events: list[Event]
) -> None:
    for i in figs:
        f = state.figs[i]
        if not f.alive:
            continue
        force_leader_falls(state, ctx, i)
        f.alive = False
        f.routed = True
        u.lost_this_turn += 1
        state.vp[1 - f.side] += ctx.profiles[i].points
        events.append(Event("routed", f"{ctx.profiles[i].name} #{i} routs", rule(613)))
        kit.removed(state, ctx, f, events, destroyed=False)  # Transferable (L1845)
    if not any(on_table(state.figs[i]) for i in u.figs) and not u.gone:
        u.gone = True
        u.routed = True
        state.vp[1 - u.side] += 100
