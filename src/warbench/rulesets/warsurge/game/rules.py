"""The rules of a Standard WARSURGE game: verify, plan and apply each action.

This module is the entry point (``verify`` an action into a plan, ``apply_plan`` it); the rules
live in files that follow the sections of the Core Rules (001_d3f5e425c5e1196d.txt), so each can be
read beside the book:

- :mod:`.turn`: §2.2 the Game Turn, §3.3 more players, the end of the game;
- :mod:`.deployment`: §3.6 deployment, §6.1 Transport deployment;
- :mod:`.coherency`: §1.3 bases, §4.1 the battlefield's edges, §4.2 coherency, §4.7;
- :mod:`.movement`: §4.1 moving, §4.4-4.6 Melee locks, Difficult and Dangerous Ground;
- :mod:`.melee`: §4.3-4.4 engaging in a Melee;
- :mod:`.targeting`: §5.3-5.6 targeting, range, line of sight, cover, §5.9, §6.7-6.9;
- :mod:`.attacks`: §5.1-5.10 the attack sequence and the perks whose use is a choice;
- :mod:`.casualties`: §5.11-5.15 casualties and ending a Melee, §6.6;
- :mod:`.transports`: §6 embarking, disembarking, capacity, Fire Points;
- :mod:`.work` and :mod:`.plans`: the working copy of a state and the plans checks make.
"""

from __future__ import annotations

from warbench.rulesets.warsurge.game import (
    advanced,
    perk_concealed,
    perk_hooks,
    perk_opportunist,
    terrain_army,
)
from warbench.rulesets.warsurge.game.actions import (
    Action,
    Attack,
    BaseContact,
    Casualties,
    ChooseTurnMaster,
    ChooseZone,
    Delay,
    Deploy,
    Disembark,
    Embark,
    EmbarkTerrain,
    Move,
    Pass,
    Restore,
    Survivors,
)
from warbench.rulesets.warsurge.game.actions_advanced import (
    Counter,
    EndStep,
    Guard,
    Prepare,
    Support,
    UsePerks,
)
from warbench.rulesets.warsurge.game.attacks import apply_attack, resume_attack, verify_attack
from warbench.rulesets.warsurge.game.casualties import (
    refuse_unasked,
    resume_placement,
    verify_casualties,
    verify_placement,
)
from warbench.rulesets.warsurge.game.deployment import apply_deploy, verify_deploy
from warbench.rulesets.warsurge.game.movement import apply_move, verify_move
from warbench.rulesets.warsurge.game.plans import (
    AttackPlanG,
    DeployPlan,
    MovePlan,
    Plan,
    TerrainPlan,
)
from warbench.rulesets.warsurge.game.state import (
    Phase,
)
from warbench.rulesets.warsurge.game.terrain_transport import (
    apply_terrain,
    verify_embark_terrain,
)
from warbench.rulesets.warsurge.game.transports import verify_disembark, verify_embark
from warbench.rulesets.warsurge.game.turn import (
    acting_side,
    advance,
    eligible,
    finish_phase,
    set_turn_master,
    take_zone,
    verify_pass,
)
from warbench.rulesets.warsurge.game.work import Work, err, flow_with

_PHASE_ACTIONS: dict[Phase, tuple[type, ...]] = {
    Phase.TURN_MASTER: (ChooseTurnMaster,),
    Phase.ZONES: (ChooseZone,),
    Phase.DEPLOY: (Deploy, Pass, UsePerks, Delay),  # Perks §12.2 L225: perks before/after actions
    Phase.MOVE: (Move, Embark, EmbarkTerrain, Disembark, Pass, UsePerks, Delay),
    Phase.ATTACK: (Attack, Pass, UsePerks, Delay),
    Phase.DASH: (Move, Embark, EmbarkTerrain, Disembark, Pass, UsePerks, Delay),
    Phase.ACTIONS: (*advanced.ADVANCED_ACTIONS, EndStep, Counter, Pass, Delay),  # §9.2
    # Opportunist (Perks L1340): the delayed Movement, Heal Weapons and perk uses
    Phase.OPPORTUNIST: (Move, Embark, EmbarkTerrain, Disembark, Attack, UsePerks, Pass),
}


_KIND_NAMES = {
    ChooseTurnMaster: "choosing the Turn Master",
    ChooseZone: "choosing a Deployment Zone",
    Deploy: "deploying",
    Move: "moving",
    Embark: "embarking",
    EmbarkTerrain: "embarking terrain",
    Disembark: "disembarking",
    Attack: "attacking",
    Casualties: "choosing casualties",
    Restore: "restoring Coherency",
    Survivors: "placing survivors",
    BaseContact: "restoring Base Contact",
    Pass: "passing",
    Delay: "delaying (Opportunist)",
    UsePerks: "using Perks",
    Prepare: "preparing",
    Guard: "guarding",
    Support: "supporting",
    EndStep: "ending the Action Step",
    Counter: "a Counter Action",
}


def verify(w: Work, action: Action) -> Plan:
    """Raise a RulesError if ``action`` is illegal now; return what it will do."""
    flow = w.flow
    if flow.phase is Phase.OVER:
        raise err("the game is over", "§2.2 step 8")
    if w.restore is not None:  # survivors, Coherency or Base Contact to place (§6.6, §4.2, §4.4)
        verify_placement(w, action)
        return None
    refuse_unasked(action)
    if w.pause is not None:
        if not isinstance(action, Casualties):
            p = w.pause
            raise err(
                f"{w.side_name(w.info(p.target).side)} must first choose the casualties of "
                f"{w.label(p.target)} ({p.loss} HP lost to {w.label(p.attacker)})",
                "§5.11",
            )
        verify_casualties(w, action)
        return None
    if isinstance(action, Casualties):
        raise err("no Attack waits for casualties to be chosen", "§5.11")
    allowed = _PHASE_ACTIONS[flow.phase]
    if not isinstance(action, allowed):
        raise err(
            f"{_KIND_NAMES[type(action)]} is not an action of the {flow.phase.value} step; "
            f"allowed: {', '.join(_KIND_NAMES[a] for a in allowed)}",
            "§2.2",
        )
    side = acting_side(flow)
    assert side is not None
    if isinstance(action, Delay):  # Opportunist (Perks L1340)
        movable = flow.phase in (Phase.MOVE, Phase.DASH) and eligible(w, action.unit, flow.phase)
        perk_opportunist.verify_delay(w, action, side, movable)
        return None
    if isinstance(action, Attack) and action.unit >= len(w.units):  # terrain attacks (§10.2)
        return terrain_army.verify_piece_attack(w, action, side)
    if flow.phase is Phase.OPPORTUNIST and not isinstance(action, Pass):
        return perk_opportunist.verify_window(
            w,
            action,
            side,
            _unit_plan,
            perk_hooks.verify_use_perks,
            perk_hooks.usable_perks,
        )
    if flow.phase is Phase.ACTIONS:
        return advanced.verify_advanced(w, action, side)
    if isinstance(action, ChooseTurnMaster):
        if not 0 <= action.side < len(w.setup.sides):
            raise err(f"there is no side {action.side}", "§2.1 Turn Master")
        return None
    if isinstance(action, ChooseZone):
        n = len(w.field.zones)
        if not 0 <= action.zone < n:
            raise err(f"there is no Deployment Zone {action.zone}; zones are 0 to {n - 1}", "§3.6")
        if action.zone in w.zones:
            raise err(f"Deployment Zone {action.zone} is already taken", "§3.6 step 2")
        return None
    if isinstance(action, Pass):
        verify_pass(w, side)
        return None
    if isinstance(action, UsePerks):  # Standard: a unit's perks, not an action (Perks §12.2)
        perk_hooks.verify_use_perks(w, action, side)
        return None
    assert isinstance(action, Deploy | Move | Embark | EmbarkTerrain | Disembark | Attack)
    uid = action.unit
    if not 0 <= uid < len(w.units):
        raise err(f"there is no unit {uid}", "§2.1 Unit")
    info = w.info(uid)
    if (owner := w.units[uid].controller(info.side)) != side:  # Dominate: the seizing side
        raise err(
            f"{info.label} belongs to {w.side_name(owner)}; it is "
            f"{w.side_name(side)}'s turn to act",
            "§2.1 Alternating Actions",
        )
    if w.units[uid].acted:
        raise err(f"{info.label} has already acted in this {flow.phase.value} Phase", "§2.2")
    return _unit_plan(w, action)


def _unit_plan(w: Work, action: Action) -> Plan:
    """The plan of a unit's Deploy, Move, Embark, Disembark or Attack (checked)."""
    assert isinstance(action, Deploy | Move | Embark | EmbarkTerrain | Disembark | Attack)
    if isinstance(action, Deploy):
        return verify_deploy(w, action)
    if isinstance(action, Attack):
        return verify_attack(w, action)
    if isinstance(action, Embark):
        return verify_embark(w, action)
    if isinstance(action, EmbarkTerrain):  # terrain as a Transport (§10.2)
        return verify_embark_terrain(w, action)
    if isinstance(action, Disembark):
        return verify_disembark(w, action)
    return verify_move(w, action)


def apply_plan(w: Work, action: Action, plan: Plan) -> None:
    if isinstance(action, ChooseTurnMaster):
        set_turn_master(w, action.side)
        return
    if isinstance(action, ChooseZone):
        side = acting_side(w.flow)
        assert side is not None
        take_zone(w, side, action.zone)
        return
    if isinstance(plan, terrain_army.PieceAttackPlan):  # a terrain piece attacks (§10.2)
        assert isinstance(action, Attack)
        if w.flow.phase is Phase.ACTIONS:
            done = advanced.apply_piece_action(w, action, plan)
        else:
            done = terrain_army.apply_piece_attack(w, plan)
        if done:
            advance(w)
        return
    perk_concealed.before_action(w, action)  # Concealed (Perks L4149): revealed as it acts
    placing = isinstance(action, Restore | Survivors | BaseContact)
    if isinstance(action, Delay):  # Opportunist (Perks L1340)
        if w.flow.phase is not Phase.ACTIONS:
            perk_hooks.forfeit_after_perks(w, action)
        side = acting_side(w.flow)
        assert side is not None
        if perk_opportunist.apply_delay(w, action) or (
            w.flow.phase is Phase.ACTIONS and not advanced.side_can_act(w, side)
        ):
            advance(w)
        return
    window = w.flow.phase is Phase.OPPORTUNIST
    if window and not (placing or isinstance(action, Pass | Casualties)):
        if perk_opportunist.apply_window(
            w, action, plan, _apply_unit, perk_hooks.use_perks_action, perk_hooks.usable_perks
        ):
            advance(w)
        return
    if w.flow.phase is Phase.ACTIONS and not (placing or isinstance(action, Casualties)):
        if advanced.apply_advanced(w, action, plan):
            advance(w)
        return
    if isinstance(action, UsePerks):
        perk_hooks.use_perks_action(w, action.unit, action.perks)
        return
    perk_hooks.forfeit_after_perks(w, action)  # a perk user that then did not act (L231)
    if isinstance(action, Pass):
        side = acting_side(w.flow)
        assert side is not None
        w.emit(
            "pass", f"{w.side_name(side)} is finished with the {w.flow.phase.value} Phase", "§2.2"
        )
        w.flow = flow_with(w.flow, passed=w.flow.passed | {side})
        advance(w)
        return
    if placing:
        assert isinstance(action, Restore | Survivors | BaseContact)
        if resume_placement(w, action):
            if w.flow.phase is Phase.ACTIONS:  # Advanced: the Action Step goes on (§9.1 IV)
                if advanced.step_over(w):
                    advance(w)
            else:
                finish_phase(w, Phase.ATTACK)
        return
    if isinstance(action, Casualties):
        assert w.pause is not None
        attacker = w.pause.attacker
        if resume_attack(w, action.models):
            if w.flow.phase is Phase.ACTIONS:  # Advanced: casualties go at once (§9.1 IV)
                if advanced.after_attack(w):
                    advance(w)
                return
            w.set_unit(attacker, acted=True)
            advance(w)
        return
    if not _apply_unit(w, action, plan):
        return  # waiting for the casualties to be chosen (§5.11)
    assert isinstance(action, Deploy | Move | Embark | EmbarkTerrain | Disembark | Attack)
    uid = action.unit
    w.set_unit(uid, acted=True)
    advance(w)


def _apply_unit(w: Work, action: Action, plan: Plan) -> bool:
    """Apply a unit's checked Deploy, Move, Embark, Disembark or Attack; False while an Attack
    waits for its casualties to be chosen (§5.11)."""
    if isinstance(plan, DeployPlan):
        apply_deploy(w, plan)
    elif isinstance(plan, AttackPlanG):
        assert isinstance(action, Attack)
        return apply_attack(w, plan, action)
    elif isinstance(plan, MovePlan):
        apply_move(w, plan)
    elif isinstance(plan, TerrainPlan):
        apply_terrain(w, plan)
    return True
