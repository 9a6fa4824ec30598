"""The Game Turn: Turn Master, Deployment Zones, phases, who acts, the end of the game.

Core Rules 001_d3f5e425c5e1196d.txt §2.2 (playing a game: the Game Turn's steps, roll-offs, the
Turn Master, the phases and the end of the game after the last turn, scored by value on the
battlefield), §3.3 (more than two players or teams: clockwise order) and §3.6 (choosing Deployment
Zones).
"""

from __future__ import annotations

from collections.abc import Sequence

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import (
    advanced,
    bases,
    bases_ground,
    perk_incorporeal,
    perk_opportunist,
    terrain_army,
)
from warbench.rulesets.warsurge.game.actions import (
    Deploy,
)
from warbench.rulesets.warsurge.game.advstate import Playstyle
from warbench.rulesets.warsurge.game.casualties import end_attack_phase
from warbench.rulesets.warsurge.game.deployment import verify_deploy
from warbench.rulesets.warsurge.game.hooks import Hook
from warbench.rulesets.warsurge.game.movement import (
    dangerous_bounds,
    dangerous_ground,
    near_bounds,
    unit_allowance,
)
from warbench.rulesets.warsurge.game.perk_seed import stays_inside
from warbench.rulesets.warsurge.game.state import (
    Automation,
    Flow,
    GameResult,
    Location,
    Phase,
)
from warbench.rulesets.warsurge.game.terrain_army_value import army_points
from warbench.rulesets.warsurge.game.terrain_fire import fires_from_terrain
from warbench.rulesets.warsurge.game.transports import fires_from_transport
from warbench.rulesets.warsurge.game.work import Work, err, flow_with


def acting_side(state_flow: Flow) -> int | None:
    if state_flow.phase is Phase.TURN_MASTER:
        return state_flow.rolloff_winner
    if state_flow.adv is not None and state_flow.adv.counter is not None:
        return state_flow.adv.counter.sides[0]  # a Counter Action is asked (§9.3)
    return state_flow.active


def eligible(w: Work, uid: int, phase: Phase) -> bool:
    """Cheap test: could this unit still act in this phase (before geometry)?"""
    if phase is Phase.OPPORTUNIST:  # the delayed actions (Perks L1340)
        return perk_opportunist.can_act(w, uid)
    u = w.units[uid]
    info = w.info(uid)
    if u.acted or (u.statuses and u.wrecked):  # Wreckage (Perks L1442) acts no more
        return False
    if phase is Phase.DEPLOY:
        return u.location is Location.RESERVE
    if phase in (Phase.MOVE, Phase.DASH):
        if info.immobile or unit_allowance(w, uid, phase is Phase.DASH) <= 0:
            return False
        if u.location is Location.TABLE:
            # in a Dash, not when every model used a Battle or Heavy weapon (§5.1)
            return not (phase is Phase.DASH and all(u.heavy[i] or u.battle[i] for i in u.present()))
        if u.location is Location.TERRAIN:  # it may disembark (§10.2) unless in a Melee
            return not w.engaged_with(uid)
        if u.location is Location.EMBARKED and u.embarked_in is not None:
            if stays_inside(w, uid) is not None:  # Seed II (Perks L1904)
                return False
            holder = w.units[u.embarked_in]
            return holder.location is Location.TABLE or (
                holder.location is Location.EMBARKED  # into the outer Transport (§6.5)
            )
        return False
    if phase is Phase.ACTIONS:
        return advanced.unit_can_act(w, uid)
    if phase is Phase.ATTACK:
        if not info.unit.weapons:
            return False
        if u.location is Location.TABLE:
            return True
        if u.location is Location.EMBARKED:
            return fires_from_transport(w, uid) is None
        if u.location is Location.TERRAIN:  # the Melee inside, or out by Fire Points (§6.7)
            return bool(w.engaged_with(uid)) or fires_from_terrain(w, uid)
        return False
    return False


def side_can_act(w: Work, side: int, phase: Phase) -> bool:
    for uid in w.acting_units(side):
        if eligible(w, uid, phase):
            return True
    return terrain_army.in_play(w.setup) and terrain_army.pieces_can_act(w, side, phase)  # §10.2


def verify_pass(w: Work, side: int) -> None:
    """§3.6: at least 50% of the roster (in points) deployed on the first Game Turn, unless
    the rest cannot be placed."""
    if w.flow.phase is not Phase.DEPLOY or w.flow.turn != 1:
        return
    share = w.setup.deploy_share
    total = w.setup.roster_points(side)
    deployed = sum(
        w.info(uid).points
        for uid in w.side_units(side)
        if w.units[uid].location in (Location.TABLE, Location.EMBARKED)
    ) + army_points(w.setup.field.board, side)  # its army's terrain stands there (§10.2)
    if total <= 0 or deployed >= share * total - 1e-9:
        return
    for uid in w.side_units(side):
        # a unit that has acted this phase (back in Reserve, or its perk use forfeited its
        # action, Perks L229-L231) cannot be placed now either
        if w.units[uid].location is Location.RESERVE and not w.units[uid].acted:
            try:
                verify_deploy(w, Deploy(uid))
            except RulesError:
                continue
            raise err(
                f"{w.side_name(side)} has deployed {deployed:.0f} of {total:.0f} points; at "
                f"least {share:.0%} of the roster must be deployed on the first Game Turn "
                f"({w.info(uid).label} can still be placed)",
                "§3.6",
            )


PHASES = (Phase.DEPLOY, Phase.MOVE, Phase.ATTACK, Phase.DASH)


def flow_phases(w: Work) -> tuple[Phase, ...]:
    """The phases of this Game Turn: the playstyle's flow definition (§8, §9.1)."""
    if w.setup.playstyle is Playstyle.ADVANCED:
        return advanced.ADVANCED_PHASES if w.flow.turn == 1 else advanced.ADVANCED_PHASES[1:]
    return PHASES


def ranked_rolloff(w: Work, sides: Sequence[int], label: str) -> list[int]:
    """Each side rolls a D6, highest first; tied sides roll again among themselves (§1.4)."""
    rolls = {s: w.dice.d6(f"{label}: {w.side_name(s)}") for s in sides}
    w.emit(
        "rolloff",
        f"{label}: " + ", ".join(f"{w.side_name(s)} {v}" for s, v in rolls.items()),
        "§2.2 step 1",
        rolls={w.side_name(s): v for s, v in rolls.items()},
    )
    out: list[int] = []
    for value in sorted(set(rolls.values()), reverse=True):
        tied = [s for s in sides if rolls[s] == value]
        out.extend(tied if len(tied) == 1 else ranked_rolloff(w, tied, f"{label} (reroll)"))
    return out


def start_turn(w: Work) -> None:
    """§2.2 step 1: a new Game Turn; reset per-turn flags, roll off for the Turn Master."""
    turn = w.flow.turn
    w.flow = flow_with(w.flow, phase=Phase.TURN_MASTER, active=None)
    reset_turn_flags(w)
    w.emit("turn", f"Game Turn {turn}", "§2.2")
    if w.hooks.active(Hook.TURN_START):
        w.hooks.fire(Hook.TURN_START, w, turn=turn)
    sides = list(range(len(w.setup.sides)))
    ranking = ranked_rolloff(w, sides, "Turn Master Roll-Off")
    from warbench.rulesets.warsurge.game.perk_roster import strategist_first  # Perks L4336

    ranking = strategist_first(w, ranking)
    w.flow = flow_with(
        w.flow, phase=Phase.TURN_MASTER, rolloff_winner=ranking[0], roll_order=tuple(ranking)
    )
    if Automation.TURN_MASTER in w.setup.automation:
        set_turn_master(w, ranking[0])


def reset_turn_flags(w: Work) -> None:
    """A new Game Turn: no unit has moved, used a Heavy or Battle weapon or acted. A unit with
    nothing to reset keeps its very state (issue 10, session 33)."""
    for u in list(w.units):
        n = len(u.hp)
        fresh = (False,) * n
        busy = u.acted or u.unit_moved or u.unit_dashed
        if not busy and u.moved == u.heavy == u.battle == fresh:
            continue
        w.set_unit(
            u.uid,
            moved=fresh,
            heavy=fresh,
            battle=fresh,
            unit_moved=False,
            unit_dashed=False,
            acted=False,
        )


def set_turn_master(w: Work, side: int) -> None:
    w.emit(
        "turn_master",
        f"{w.side_name(w.flow.rolloff_winner or 0)} wins the Roll-Off; "
        f"{w.side_name(side)} is Turn Master",
        "§2.1 Turn Master",
        side=side,
    )
    # §3.6 step 2: zones are chosen by the Turn Master, then by the roll-off order
    rest = [s for s in w.flow.roll_order if s != side]
    w.flow = flow_with(w.flow, turn_master=side, roll_order=(side, *rest))
    if w.flow.turn == 1 and any(z is None for z in w.zones):
        w.flow = flow_with(w.flow, phase=Phase.ZONES, active=side)
        _auto_zones(w)
    else:
        _start_phase(w, flow_phases(w)[0])


def _auto_zones(w: Work) -> None:
    while w.flow.phase is Phase.ZONES and Automation.ZONE_CHOICE in w.setup.automation:
        side = w.flow.active
        assert side is not None
        free = [z for z in range(len(w.field.zones)) if z not in w.zones]
        take_zone(w, side, free[0])


def take_zone(w: Work, side: int, zone: int) -> None:
    w.zones[side] = zone
    w.emit(
        "zone",
        f"{w.side_name(side)} takes Deployment Zone {w.field.zones[zone].name}",
        "§3.6 step 2",
        side=side,
        zone=zone,
    )
    waiting = [s for s in w.flow.roll_order if w.zones[s] is None]
    if waiting:
        w.flow = flow_with(w.flow, active=waiting[0])
    else:
        _start_phase(w, flow_phases(w)[0])


def clockwise_order(w: Work, first: int) -> tuple[int, ...]:
    """Sides clockwise from ``first`` by Deployment Zone order (§2.1, §3.3)."""
    nz = len(w.field.zones)
    start = w.zones[first] or 0
    sides = list(range(len(w.setup.sides)))
    return tuple(sorted(sides, key=lambda s: ((w.zones[s] or 0) - start) % nz))


def _start_phase(w: Work, phase: Phase) -> None:
    for u in list(w.units):
        if u.acted:
            w.set_unit(u.uid, acted=False)
    w.pieces_acted = ()  # terrain that attacked (§10.2, game/terrain_army.py)
    tm = w.flow.turn_master
    assert tm is not None
    order = clockwise_order(w, tm)
    if phase is Phase.ACTIONS:
        advanced.start_actions(w, order)
    else:
        w.flow = flow_with(w.flow, phase=phase, order=order, active=None, passed=frozenset())
    if phase is not Phase.OPPORTUNIST and w.hooks.active(Hook.PHASE_START):
        w.hooks.fire(Hook.PHASE_START, w, phase=phase.value)
    first = [s for s in order if side_can_act(w, s, phase)]
    if not first:
        _end_phase(w)
        return
    w.flow = flow_with(w.flow, active=first[0])


def advance(w: Work) -> None:
    """Alternate clockwise to the next side that can still act; end the phase when none can."""
    if w.flow.phase is Phase.ACTIONS:  # an Action Step has ended: Knockback (Perks L3917)
        from warbench.rulesets.warsurge.game.perk_displace import knockbacks_due

        knockbacks_due(w)
    flow = w.flow
    order = flow.order
    cur = flow.active
    n = len(order)
    start = order.index(cur) if cur in order else -1
    for k in range(1, n + 1):
        s = order[(start + k) % n]
        if s in flow.passed:
            continue
        if side_can_act(w, s, flow.phase):
            w.flow = flow_with(flow, active=s)
            return
    _end_phase(w)


def _end_phase(w: Work) -> None:
    phase = w.flow.phase
    if phase is Phase.ATTACK and not end_attack_phase(w, may_wait=True):
        return  # units wait to restore their Coherency (§4.2 IV): finish_phase follows
    finish_phase(w, phase)


def finish_phase(w: Work, phase: Phase) -> None:
    """The end of ``phase`` after its own end steps: the hooks, then the next phase or the
    end of the Game Turn."""
    window = phase is Phase.OPPORTUNIST  # Opportunist's window is no Phase of its own
    if not window and w.hooks.active(Hook.PHASE_END):
        w.hooks.fire(Hook.PHASE_END, w, phase=phase.value)
    phases = flow_phases(w)
    if phase is phases[-1] or window:
        if not window and perk_opportunist.any_delayed(w):  # Perks L1340
            perk_opportunist.announce(w)
            _start_phase(w, Phase.OPPORTUNIST)
            return
        perk_opportunist.close(w)
        end_turn(w)
        return
    nxt = phases[phases.index(phase) + 1]
    _start_phase(w, nxt)


def end_turn(w: Work) -> None:
    """§2.2 steps 6-7: stationary units on Dangerous Ground, statuses, then the game end."""
    turn = w.flow.turn
    if w.field.dangerous_names:
        # the stationary units' models as they stand now; the round bases that may touch a
        # Dangerous piece (their square meets its bounds) are asked of the terrain at once, the
        # rest stand on none (issue 10, session 36: every base was asked)
        still = [
            (u, u.living())
            for u in list(w.units)
            if u.location is Location.TABLE and not u.unit_moved and not u.unit_dashed
        ]
        boxes = dangerous_bounds(w.field)
        near = [
            (u.uid, i, w.info(u.uid).radius)
            for u, living in still
            if w.info(u.uid).base is None
            for i in living
            if near_bounds(boxes, u.pos[i], w.info(u.uid).radius)
        ]
        asked = w.field.dangerous_at_many(
            [w.units[uid].pos[i] for uid, i, _ in near], [r for _, _, r in near]
        )
        answers = {(uid, i): names for (uid, i, _), names in zip(near, asked, strict=True)}
        for u, living in still:
            inside: dict[str, list[int]] = {}
            shaped = w.info(u.uid).base is not None  # its outline on the ground (§1.3)
            for i in living:
                if shaped:
                    fac = bases.facing_of(w, u.uid, i)
                    names = bases_ground.dangerous_at(w, u.uid, u.pos[i], fac)
                else:
                    names = answers.get((u.uid, i), [])
                for name in names:
                    inside.setdefault(name, []).append(i)
            for name, models in inside.items():
                if w.units[u.uid].location is Location.TABLE:
                    dangerous_ground(w, u.uid, models, name)
    if w.hooks.active(Hook.TURN_END):
        w.hooks.fire(Hook.TURN_END, w, turn=turn)
    alive = [
        s
        for s in range(len(w.setup.sides))
        if any(
            w.units[uid].location is not Location.DESTROYED and not w.units[uid].wrecked
            for uid in w.acting_units(s)
        )
    ]
    ended = ""
    if len(alive) <= 1:
        ended = "only one side has units left"
    elif w.setup.game_length is not None:
        if turn >= w.setup.game_length:
            ended = f"the agreed Game Length of {w.setup.game_length} Game Turns is reached"
    elif turn >= w.setup.max_turns:
        ended = f"the safety cap of {w.setup.max_turns} Game Turns is reached"
    elif turn >= 4:
        roll = w.dice.d6("Game Length")
        if roll <= 3:
            ended = f"the Game Length roll is {roll} (3 or lower ends the game)"
        else:
            w.emit("length", f"Game Length roll {roll}: the game continues", "§2.2 step 7")
    if ended:  # Extension (Perks L4308, issue 11 lane c)
        from warbench.rulesets.warsurge.game.perk_roster import extends

        ended = "" if extends(w, ended) else ended
    if ended:
        finish(w, ended)
        return
    w.flow = flow_with(w.flow, turn=turn + 1)
    start_turn(w)


def finish(w: Work, why: str) -> None:
    """§2.2 step 8: most Current Point Value on the battlefield wins; equal values draw."""
    st = w.state()
    values = tuple(round(v, 6) for v in perk_incorporeal.final_values(st, st.side_values()))
    best = max(values)
    leaders = [s for s, v in enumerate(values) if abs(v - best) < 1e-6]
    winner = leaders[0] if len(leaders) == 1 else None
    w.result = GameResult(values, winner, w.flow.turn)
    w.flow = flow_with(w.flow, phase=Phase.OVER, active=None)
    summary = ", ".join(f"{w.side_name(s)} {v:.1f}" for s, v in enumerate(values))
    outcome = f"{w.side_name(winner)} wins" if winner is not None else "a draw"
    w.emit("end", f"The game ends ({why}): {summary} points remaining; {outcome}", "§2.2 step 8")
