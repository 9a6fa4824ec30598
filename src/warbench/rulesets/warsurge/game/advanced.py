"""The Advanced playstyle's flow: Command Points and Action Steps (Core Rules
001_d3f5e425c5e1196d.txt §8, §9.1-9.2).

The flow is data (STYLE principle 6): :mod:`.turn` runs ``ADVANCED_PHASES`` instead of the
Standard phases, and during :attr:`~.state.Phase.ACTIONS` this module verifies and applies the
Actions. Move, Dash, Attack and Deploy are the Standard actions, checked and applied by the
Standard rules; an Action Step adds the unit, the CP cost (§9.2, doubling on reuse), Heavy and
Battle weapon limits across the Game Turn (§9.2 Move, Dash, Prepare) and the immediate removal
of casualties after each Attack (§9.1 IV), whose Coherency, Base Contact and survivors' moves
wait for their players as in the Standard Attack Phase when not automated.
"""

from __future__ import annotations

import math
from dataclasses import replace

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game.actions import (
    Action,
    Attack,
    Deploy,
    Disembark,
    Embark,
    EmbarkTerrain,
    Move,
    Pass,
    Share,
)
from warbench.rulesets.warsurge.game.actions_advanced import (
    Counter,
    EndStep,
    Guard,
    Prepare,
    Support,
    UsePerks,
)
from warbench.rulesets.warsurge.game.advstate import (
    COUNTER_KINDS,
    AdvancedFlow,
    CounterAsk,
    weapon_type_bar,
)
from warbench.rulesets.warsurge.game.attacks import apply_attack, verify_attack
from warbench.rulesets.warsurge.game.casualties import end_attack_phase
from warbench.rulesets.warsurge.game.deployment import apply_deploy, verify_deploy
from warbench.rulesets.warsurge.game.hooks import Hook
from warbench.rulesets.warsurge.game.movement import apply_move, verify_move
from warbench.rulesets.warsurge.game.perk_opportunist import ACTIONS as DELAYED_ACTIONS
from warbench.rulesets.warsurge.game.perk_opportunist import delayed
from warbench.rulesets.warsurge.game.plans import (
    AttackPlanG,
    DeployPlan,
    MovePlan,
    PieceAttackPlan,
    Plan,
    TerrainPlan,
)
from warbench.rulesets.warsurge.game.state import Location, Phase
from warbench.rulesets.warsurge.game.targeting import view_target
from warbench.rulesets.warsurge.game.terrain_army import (
    actor_label,
    pay_piece_attack,
    resolve_piece_attack,
    verify_piece_attack,
)
from warbench.rulesets.warsurge.game.terrain_attacks import terrain_attack_targets
from warbench.rulesets.warsurge.game.terrain_transport import apply_terrain, verify_embark_terrain
from warbench.rulesets.warsurge.game.transports import verify_disembark, verify_embark
from warbench.rulesets.warsurge.game.work import Work, err

#: the phases of an Advanced Game Turn: the first turn's alternate deployment, then the
#: Action Steps (§9.1 step 1); later turns have the Action Steps only
ADVANCED_PHASES = (Phase.DEPLOY, Phase.ACTIONS)

ADVANCED_ACTIONS = (
    Deploy,
    Move,
    Embark,
    EmbarkTerrain,
    Disembark,
    Attack,
    UsePerks,
    Prepare,
    Guard,
    Support,
)


def action_name(action: object) -> str | None:
    """The §9.2 Action an action is (Embark and Disembark are a Move or a Dash)."""
    if isinstance(action, Move | Embark | EmbarkTerrain | Disembark):
        return "Dash" if action.dash else "Move"
    return {
        Attack: "Attack",
        Deploy: "Deploy",
        UsePerks: "Use Perks",
        Prepare: "Prepare",
        Guard: "Guard",
        Support: "Support",
    }.get(type(action))


def adv(w: Work) -> AdvancedFlow:
    a = w.flow.adv
    assert a is not None, "not an Advanced game"
    return a


def dice_for_cp(w: Work) -> int:
    """§9.1 step 2: a D6 per 500 points of the Point Limit (rounded up; at least one)."""
    limit = w.setup.point_limit
    if limit is None:
        limit = int(max(w.setup.roster_points(s) for s in range(len(w.setup.sides))))
    return max(1, math.ceil(limit / 500))


def start_actions(w: Work, order: tuple[int, ...]) -> None:
    """§9.1 steps 2-3: Command Points (2 per unit on the battlefield, the Turn Master's D6 per
    500 points for every side, plus the CP left from the last Game Turn), then the Turn
    Master's first Action Step."""
    tm = w.flow.turn_master
    assert tm is not None
    n = len(w.setup.sides)
    old = w.flow.adv.cp if w.flow.adv is not None else (0,) * n
    k = dice_for_cp(w)
    bonus = sum(w.dice.d6(f"Command Points die {i + 1}") for i in range(k))
    cp = []
    for s in range(n):
        units = sum(
            1
            for uid in w.side_units(s)
            if w.units[uid].location in (Location.TABLE, Location.EMBARKED, Location.TERRAIN)
        )
        cp.append(old[s] + 2 * units + bonus)
        w.emit(
            "command_points",
            f"{w.side_name(s)}: {old[s]} CP left + {2 * units} for {units} units + {bonus} "
            f"from the Turn Master's {k}D6 = {cp[s]} CP",
            "§9.1 step 2",
            side=s,
            cp=cp[s],
        )
    for u in list(w.units):
        if u.acted:
            w.set_unit(u.uid, acted=False)
    w.flow = replace(
        w.flow,
        phase=Phase.ACTIONS,
        order=order,
        active=None,
        passed=frozenset(),
        adv=AdvancedFlow(cp=tuple(cp)),
    )


def unit_can_act(w: Work, uid: int) -> bool:
    """Cheap test: could this unit start an Action now (before geometry)?"""
    a = adv(w)
    u = w.units[uid]
    if uid in a.supported or u.location is Location.DESTROYED:
        return False
    if u.counters and delayed(w, uid) & DELAYED_ACTIONS:  # Opportunist: at the end (P L1340)
        return False
    if a.step_unit is not None and a.step_unit != uid:
        return False
    if u.location is Location.RESERVE:
        return True  # Deploy is free
    side = u.controller(w.info(uid).side)  # Dominate: the seizing side's CP
    return a.cp[side] >= 1 or uid not in a.actors  # Support needs no CP


def side_can_act(w: Work, side: int) -> bool:
    return any(unit_can_act(w, uid) for uid in w.acting_units(side))


def verify_advanced(w: Work, action: Action, side: int) -> Plan:
    """§9.1 step 3, §9.2: is ``action`` a legal Action (or the end of the step) now?"""
    a = adv(w)
    if a.counter is not None:
        return verify_counter(w, action, a.counter)
    if isinstance(action, Counter):
        raise err("no Attack Action waits for a Counter Action", "§9.3")
    if isinstance(action, Pass):  # finished for the Game Turn (ends a step under way too)
        return None
    if isinstance(action, EndStep):
        if not a.step_done:
            raise err("no Action Step is under way; choose a Unit and an Action", "§9.1 I")
        return None
    name = action_name(action)
    if name is None:
        raise err(
            f"{type(action).__name__} is not an Action of an Advanced game; allowed: "
            "Move, Dash, Attack, Deploy, Use Perks, Prepare, Guard, Support, end step, pass",
            "§9.2",
        )
    uid = action.unit  # type: ignore[union-attr]
    if not 0 <= uid < len(w.units):
        raise err(f"there is no unit {uid}", "§2.1 Unit")
    info = w.info(uid)
    if (owner := w.units[uid].controller(info.side)) != side:  # Dominate: the seizing side
        raise err(
            f"{info.label} belongs to {w.side_name(owner)}; it is {w.side_name(side)}'s "
            "Action Step",
            "§9.1 step 3",
        )
    if a.step_unit is not None and a.step_unit != uid:
        raise err(
            f"this Action Step directs {w.label(a.step_unit)}; one Unit per Action Step",
            "§9.1 I",
        )
    if uid in a.supported:
        raise err(f"{info.label} used Support and makes no more Actions this Game Turn", "§9.2")
    if delayed(w, uid) & DELAYED_ACTIONS:
        raise err(
            f"{info.label} delayed its Actions to the end of the Game Turn (Opportunist)",
            "Perks §12.3 Opportunist (000_94ecc6a4c74d351b.txt L1340)",
        )
    unpaid = a.cp_refusal(uid, name, side, info.label, w.side_name(side))
    if unpaid is not None:
        raise err(unpaid, "§9.2")
    u = w.units[uid]
    if u.location is Location.RESERVE and name != "Deploy":
        raise err(f"{info.label} is in Reserve; its only Action is Deploy", "§9.2 Deploy")
    present = u.present()
    fired = weapon_type_bar(name, u.heavy, u.battle, present)
    if fired is not None:
        raise err(
            f"{info.label} used {fired} this Game Turn; Prepare before a {name}",
            f"§9.2 {name}, §5.1",
        )
    if isinstance(action, Deploy):
        return verify_deploy(w, action)
    if isinstance(action, Attack):
        if any(u.moved[i] and u.unit_dashed for i in present) and _uses_battle_or_heavy(w, action):
            raise err(
                f"{info.label} made a Dash this Game Turn; Prepare before firing Battle or "
                "Heavy Weapons",
                "§9.2 Dash, §5.1",
            )
        return verify_attack(w, action)
    if isinstance(action, Embark):
        return verify_embark(w, action)
    if isinstance(action, EmbarkTerrain):  # terrain as a Transport (§10.2)
        return verify_embark_terrain(w, action)
    if isinstance(action, Disembark):
        return verify_disembark(w, action)
    if isinstance(action, Move):
        return verify_move(w, action)
    if isinstance(action, Support):
        if uid in a.actors:
            raise err(
                f"{info.label} has made an Action or Counter Action this Game Turn; only a "
                "Unit that has not may Support",
                "§9.2 Support",
            )
        return None
    if u.location not in (Location.TABLE, Location.EMBARKED):
        raise err(f"{info.label} is not on the battlefield", "§9.2")
    return None


def _uses_battle_or_heavy(w: Work, action: Attack) -> bool:
    types = w.info(action.unit).weapon_types
    return any(types.get(s[0]) in ("Battle", "Heavy") for s in action.targets)


def apply_advanced(w: Work, action: Action, plan: Plan) -> bool:
    """Apply an Action (paying its CP); True when the Action Step is over (the next side's
    step follows), False while the step (or an Attack waiting for casualties) goes on."""
    a = adv(w)
    side = w.flow.active
    assert side is not None
    if a.counter is not None:
        assert isinstance(action, Counter)
        return apply_counter(w, action, a.counter)
    if isinstance(action, Pass):
        w.emit("pass", f"{w.side_name(side)} makes no more Actions this Game Turn", "§9.1 V")
        w.flow = replace(
            w.flow, passed=w.flow.passed | {side}, adv=replace(a, step_unit=None, step_done=0)
        )
        return True
    if isinstance(action, EndStep):
        w.emit("end_step", f"{w.side_name(side)} ends the Action Step", "§9.1 V")
        w.flow = replace(w.flow, adv=replace(a, step_unit=None, step_done=0))
        return True
    name = action_name(action)
    assert name is not None
    uid = action.unit  # type: ignore[union-attr]
    cost = a.cost(uid, name)
    a = a.with_cp(side, -cost).with_use(uid, name)
    if name != "Guard" and a.guard_of(uid):  # Guard lasts until a different Action (§9.2)
        a = a.with_guard(uid, 0)
    a = replace(a, step_unit=uid, step_done=a.step_done + 1)
    w.flow = replace(w.flow, adv=a)
    w.emit(
        "action",
        f"{w.label(uid)}: {name} ({'+1' if cost < 0 else cost} CP; {w.side_name(side)} has "
        f"{a.cp[side]} CP)",
        "§9.2",
        unit=uid,
        action=name,
        cost=cost,
        cp=a.cp[side],
    )
    if isinstance(plan, DeployPlan):
        apply_deploy(w, plan)
    elif isinstance(plan, AttackPlanG):
        assert isinstance(action, Attack)
        if ask_counters(w, action):  # the targets may answer first (§9.3)
            return False
        if not apply_attack(w, plan, action):
            return False  # waiting for the casualties to be chosen (§5.11)
        return after_attack(w)
    elif isinstance(plan, MovePlan):
        apply_move(w, plan)
    elif isinstance(plan, TerrainPlan):
        apply_terrain(w, plan)
    elif isinstance(action, Guard):
        bonus = a.guard_of(uid) + 1
        w.flow = replace(w.flow, adv=a.with_guard(uid, bonus))
        w.emit("guard", f"{w.label(uid)} is on Guard: Defence +{bonus}", "§9.2 Guard")
    elif isinstance(action, Prepare):
        n = len(w.units[uid].hp)
        w.set_unit(uid, heavy=(False,) * n, battle=(False,) * n, moved=(False,) * n)
        w.set_unit(uid, unit_dashed=False)
        w.emit("prepare", f"{w.label(uid)} prepares its weapons", "§9.2 Prepare")
    elif isinstance(action, UsePerks):
        use_perks(w, action)
    elif isinstance(action, Support):
        w.flow = replace(
            w.flow, adv=replace(a, supported=a.supported | {uid}, step_unit=None, step_done=0)
        )
        return True
    return step_over(w)


def apply_piece_action(w: Work, action: Attack, plan: PieceAttackPlan) -> bool:
    """A terrain piece's Attack Action (§9.2, §10.2; ``terrain_army``): paid, answered by the
    attacked units' Counter Actions (§9.3), made, its casualties removed at once (§9.1 IV).
    The piece's Action Step is this one Action. True when the step is over."""
    pay_piece_attack(w, plan)
    w.flow = replace(w.flow, adv=replace(adv(w), step_unit=None, step_done=0))
    if ask_counters(w, action):  # the targets may answer first (§9.3)
        return False
    resolve_piece_attack(w, plan)
    return after_attack(w)


def use_perks(w: Work, action: UsePerks) -> None:
    """§9.2 Use Perks: the hook into the perk effects engine (:mod:`.hooks`); with no
    activated perk effect registered, the CP is spent and the event says so."""
    hook = getattr(Hook, "USE_PERKS", None)
    if hook is not None and w.hooks.active(hook):
        w.hooks.fire(hook, w, unit=action.unit, perks=action.perks)
        return
    w.emit(
        "use_perks",
        f"{w.label(action.unit)} uses its Perks"
        + (f" ({', '.join(action.perks)})" if action.perks else "")
        + ": no activated perk effect is modelled yet",
        "§9.2 Use Perks",
        unit=action.unit,
    )


def after_attack(w: Work) -> bool:
    """§9.1 IV, §9.3: the Counter Attacks waiting are made (simultaneous with the Attack: the
    casualties stay until every Attack Sequence has ended), then casualties are removed."""
    while adv(w).pending:
        a = adv(w)
        attack = a.pending[0]
        w.flow = replace(w.flow, adv=replace(a, pending=a.pending[1:]))
        try:
            plan = verify_attack(w, attack)
        except RulesError as exc:  # its target or its weapons are gone meanwhile
            w.emit("counter_lost", f"{w.label(attack.unit)} cannot Counter Attack: {exc}", "§9.3")
            continue
        assert isinstance(plan, AttackPlanG)
        if not apply_attack(w, plan, attack):
            return False  # waiting for the casualties to be chosen (§5.11)
    if not end_attack_phase(w, may_wait=True):
        return False  # a placement waits for its player (§6.6, §4.2 IV, §4.4 III)
    return step_over(w)


def ask_counters(w: Work, attack: Attack) -> bool:
    """Ask the units ``attack`` targets for their Counter Actions when any may make one
    (§9.3; the attacker a unit or a terrain piece): True when the game now waits for them."""
    ask = counter_ask(w, attack)
    if ask is None:
        return False
    w.flow = replace(w.flow, adv=replace(adv(w), counter=ask))
    w.emit(
        "counter_ask",
        f"{actor_label(w.setup, attack.unit)} attacks "
        f"{', '.join(w.label(t) for t in ask.asked)}: each may make a Counter Action",
        "§9.3",
        units=list(ask.asked),
    )
    return True


def counter_ask(w: Work, attack: Attack) -> CounterAsk | None:
    """The target units that may make a Counter Action (§9.3): controlled by a side that is
    not finished for the Game Turn, with CP for at least one Counter Action, not supporting."""
    a = adv(w)
    asked: list[int] = []
    for share in attack.targets:
        t = share[1]
        if t >= len(w.units):  # a terrain piece makes no Counter Action (§10.3)
            continue
        side = w.units[t].controller(w.info(t).side)  # Dominate: the seizing side answers
        if t in asked or side in w.flow.passed or t in a.supported:
            continue
        if any(k for k in COUNTER_KINDS if k != "none" and counter_option(w, t, k, attack.unit)):
            asked.append(t)
    if not asked:
        return None
    sides = tuple(w.units[t].controller(w.info(t).side) for t in asked)
    return CounterAsk(attack.unit, attack, tuple(asked), sides)


def counter_attack_for(w: Work, uid: int, attacker: int) -> Attack | None:
    """The Counter Attack of ``uid``: every weapon that can attack the attacking unit (or the
    attacking terrain piece, when it can be attacked: §10.3, ``terrain_attacks``)."""
    if attacker >= len(w.units):
        at = tuple(n for n, ts in terrain_attack_targets(w, uid).items() if attacker in ts)
        if not at:
            return None
        piece = Attack(uid, tuple((n, attacker) for n in at))
        try:
            verify_attack(w, piece)
        except RulesError:
            return None
        return piece
    view = view_target(w, uid, attacker)
    if view.reason:
        return None
    shares = tuple((name, attacker) for name, users in view.users_in_range.items() if users)
    if not shares:
        return None
    attack = Attack(uid, shares)
    try:
        verify_attack(w, attack)
    except RulesError:
        return None
    return attack


def counter_option(w: Work, uid: int, kind: str, attacker: int | None) -> bool:
    """Can ``uid`` make this Counter Action now (CP and, for a Counter Attack, a weapon)?"""
    a = adv(w)
    if kind == "none":
        return True
    parent = COUNTER_KINDS.get(kind)
    if not parent:
        return False
    side = w.units[uid].controller(w.info(uid).side)
    if a.cost(uid, parent) > a.cp[side]:
        return False
    if w.units[uid].location not in (Location.TABLE, Location.EMBARKED):
        return False
    if kind == "attack":
        return attacker is not None and counter_attack_for(w, uid, attacker) is not None
    return True


def verify_counter(w: Work, action: Action, ask: CounterAsk) -> Plan:
    unit = ask.asked[0]
    if not isinstance(action, Counter) or action.unit != unit:
        raise err(
            f"{w.side_name(ask.sides[0])} first chooses the Counter Action of {w.label(unit)} "
            f"against {actor_label(w.setup, ask.attacker)}'s Attack (none, attack, guard or "
            "perk)",
            "§9.3",
        )
    if action.choice not in COUNTER_KINDS:
        raise err(
            f"there is no Counter Action {action.choice!r}; allowed: {', '.join(COUNTER_KINDS)}",
            "§9.3",
        )
    if not counter_option(w, unit, action.choice, ask.attacker):
        parent = COUNTER_KINDS[action.choice]
        raise err(
            f"{w.label(unit)} cannot make a Counter {parent}: it costs "
            f"{adv(w).cost(unit, parent)} CP and {w.side_name(ask.sides[0])} has "
            f"{adv(w).cp[ask.sides[0]]} CP"
            + (
                " (or no weapon of it can attack the attacker)" if action.choice == "attack" else ""
            ),
            "§9.3",
        )
    return None


def apply_counter(w: Work, action: Counter, ask: CounterAsk) -> bool:
    """Record one Counter Action; when every target has decided, pay, apply Counter Guard
    and Counter Perk (before the Saves), make the Attack and the Counter Attacks."""
    a = adv(w)
    uid = action.unit
    ask = replace(
        ask, asked=ask.asked[1:], sides=ask.sides[1:], chosen=(*ask.chosen, (uid, action.choice))
    )
    if action.choice != "none":
        parent = COUNTER_KINDS[action.choice]
        side = w.units[uid].controller(w.info(uid).side)
        cost = a.cost(uid, parent)
        a = a.with_cp(side, -cost).with_use(uid, parent)
        if parent != "Guard" and a.guard_of(uid):
            a = a.with_guard(uid, 0)
        w.emit(
            "counter",
            f"{w.label(uid)}: Counter {parent} ({cost} CP; {w.side_name(side)} has "
            f"{a.cp[side]} CP)",
            "§9.3",
            unit=uid,
            action=f"Counter {parent}",
            cost=cost,
            cp=a.cp[side],
        )
        if action.choice == "guard":
            a = a.with_guard(uid, a.guard_of(uid) + 1)
            w.emit("guard", f"{w.label(uid)} is on Guard: Defence +{a.guard_of(uid)}", "§9.3")
        elif action.choice == "attack":
            attack = counter_attack_for(w, uid, ask.attacker)
            assert attack is not None
            a = replace(a, pending=(*a.pending, attack))
    w.flow = replace(w.flow, adv=replace(a, counter=ask if ask.asked else None))
    if action.choice == "perk":
        use_perks(w, UsePerks(uid))
    if ask.asked:
        return False
    kept = attack_after_counters(w, ask.attack)
    if kept is None:
        return after_attack(w)
    if kept.unit >= len(w.units):  # a terrain piece's Attack (§10.2)
        mine = w.flow.active
        assert mine is not None
        resolve_piece_attack(w, verify_piece_attack(w, kept, mine, paid=True))
        return after_attack(w)
    plan = verify_attack(w, kept)
    assert isinstance(plan, AttackPlanG)
    if not apply_attack(w, plan, kept):
        return False
    return after_attack(w)


def attack_after_counters(w: Work, attack: Attack) -> Attack | None:
    """The Attack as it is made after the Counter Actions (rulings.md, s25-advfix 2): a Counter
    Perk (§9.3, C L3865) may leave a target no longer one the Attack may Target (Stealth out
    of reach, a Teleport out of Range or sight); the shares at it are lost, in order, the
    others are made. ``None``: nothing is left of the Attack (its CP stays spent)."""
    try:
        _verify_made(w, attack)
        return attack
    except RulesError as exc:
        why = str(exc)
    kept: tuple[Share, ...] = ()
    for share in attack.targets:
        try:
            _verify_made(w, replace(attack, targets=(*kept, share)))
        except RulesError:
            continue
        kept = (*kept, share)
    lost = [s for s in attack.targets if s not in kept]
    w.emit(
        "attack_lost",
        f"{actor_label(w.setup, attack.unit)}'s Attack "
        + (f"loses its {', '.join(str(s[0]) for s in lost)} share" if kept else "is lost")
        + f" after the Counter Actions: {why}",
        "§9.3 Counter Perk",
        unit=attack.unit,
    )
    return replace(attack, targets=kept) if kept else None


def _verify_made(w: Work, attack: Attack) -> AttackPlanG | PieceAttackPlan:
    """The check of an Attack about to be made after its Counter Actions: a unit's, or a
    terrain piece's with its Action paid (§10.2, ``terrain_army``)."""
    if attack.unit < len(w.units):
        return verify_attack(w, attack)
    side = w.flow.active
    assert side is not None
    return verify_piece_attack(w, attack, side, paid=True)


def step_over(w: Work) -> bool:
    a = adv(w)
    if a.step_done >= 2 or a.step_unit is None:
        w.flow = replace(w.flow, adv=replace(a, step_unit=None, step_done=0))
        return True
    uid = a.step_unit
    if not unit_can_act(w, uid) or w.units[uid].location is Location.DESTROYED:
        w.flow = replace(w.flow, adv=replace(a, step_unit=None, step_done=0))
        return True
    return False
