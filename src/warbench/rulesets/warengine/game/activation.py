"""The game turn (004_f4ea5693af0644ce.txt L336-L399, L595): Initiative, Conflict (activating
units, characters joining trooper units, Remove Reserve, Check Control, Deactivate), then
Follow Up and Rout.

* Initiative (L360-L362): a roll-off (chance); the winner decides who activates first.
* Conflict (L364-L379): the players alternate activating units not yet activated; a player
  with none left passes to the other. A character not yet activated may activate with a
  trooper unit not yet activated whose leader is within his Control Radius (any figure if it
  has no leader); they are one unit until either activates again (L375).
* Activating: Remove Reserve (L381-L387), Check Control (L391-L395), Stupid (L1427); then the
  figures act; Deactivate checks control again (L589) and passes the turn (L595).
* Ponderous figures activate every other turn (L1415).
"""

from __future__ import annotations

from warbench.kernel.dice import Dice
from warbench.play.core import Event
from warbench.rulesets.warengine.game import kit
from warbench.rulesets.warengine.game.attacks import mental_test
from warbench.rulesets.warengine.game.control import check_control, choose_leader, group_figs
from warbench.rulesets.warengine.game.followup import follow_up
from warbench.rulesets.warengine.game.measure import gap, on_table
from warbench.rulesets.warengine.game.rout import rout_step
from warbench.rulesets.warengine.game.setup import Context
from warbench.rulesets.warengine.game.state import Activate, GameState, rule
from warbench.rulesets.warengine.game.victory import end_of_turn, last_standing


def can_activate(state: GameState, ctx: Context, unit: int, side: int) -> bool:
    """Whether ``side`` may activate ``unit`` now."""
    if not _may(state, ctx, unit, side):
        return False
    if _first(state, state.units[unit].figs):
        return True
    # Speaking in Tongues: a unit it hit activates before any other of its force (L1233)
    return not any(
        v.id != unit and _first(state, v.figs) and _may(state, ctx, v.id, side) for v in state.units
    )


def _may(state: GameState, ctx: Context, unit: int, side: int) -> bool:
    u = state.units[unit]
    if u.side != side or u.activated or u.gone or not group_figs(state, [unit]):
        return False
    figs = group_figs(state, [unit])
    return not (all(ctx.profiles[i].has("ponderous") for i in figs) and state.turn % 2 == 0)


def _first(state: GameState, figs: list[int]) -> bool:
    return any("first" in state.figs[i].bonus and on_table(state.figs[i]) for i in figs)


def activatable(state: GameState, ctx: Context, side: int) -> list[int]:
    """The units ``side`` may activate now."""
    return [u.id for u in state.units if can_activate(state, ctx, u.id, side)]


def join_ok(state: GameState, ctx: Context, char_unit: int, troop_unit: int) -> str | None:
    """Why the character may not activate with that trooper unit (L375), or None."""
    c, t = state.units[char_unit], state.units[troop_unit]
    if not c.character:
        return f"{c.name} is not a character acting alone"
    if t.character or t.solo or t.side != c.side or t.activated or t.gone:
        return f"{t.name} is not a trooper unit of yours that has not activated"
    cf = state.figs[c.figs[0]]
    cr = ctx.profiles[cf.id].cr
    near = (
        [t.leader]
        if t.leader is not None and on_table(state.figs[t.leader])
        else group_figs(state, [troop_unit])
    )
    if not any(gap(ctx, cf, state.figs[i]) <= cr + 1e-9 for i in near):
        return f"{t.name}'s leader is not within {ctx.profiles[cf.id].name}'s Control Radius"
    return None


def activate_refusal(state: GameState, ctx: Context, a: Activate, player: int) -> str | None:
    """Why the activation is not allowed, or None."""
    if not 0 <= a.unit < len(state.units):
        return f"there is no unit {a.unit}"
    if not can_activate(state, ctx, a.unit, player):
        return f"{state.units[a.unit].name} may not activate now (not yours, done, or gone)"
    if a.join is not None:
        if not 0 <= a.join < len(state.units) or a.join == a.unit:
            return f"there is no other unit {a.join}"
        return join_ok(state, ctx, a.unit, a.join)
    return None


def activate(state: GameState, ctx: Context, a: Activate, dice: Dice, events: list[Event]) -> None:
    """Activate: Remove Reserve, choose the leader, Check Control (L379-L395)."""
    ids = [a.unit] + ([a.join] if a.join is not None else [])
    for uid in ids:
        state.units[uid].activated = True
    for v in state.units:
        if v.joined is not None and (v.id in ids or v.joined in ids):
            v.joined = None
    state.units[a.unit].joined = a.join
    state.active_unit = a.unit
    state.active_units = ids
    for i in group_figs(state, ids):
        f = state.figs[i]
        f.reserved = None  # Remove Reserve (L383)
        f.reserve_more = []
        f.moved = False
        f.used = 0
        f.mode = ""
        f.attacked = False
        f.charged = False
        f.done = False
        f.fired = []
    kit.on_activate(state, ctx, group_figs(state, ids))  # Transferable (L1845)
    names = " with ".join(state.units[u].name for u in ids)
    whose = {"side": state.units[ids[0]].side}  # the words name the force (a mirror game)
    events.append(Event("activate", f"{names} activates", rule(366), whose))
    for uid in ids:
        u = state.units[uid]
        if u.leader is None or not on_table(state.figs[u.leader]):
            choose_leader(state, ctx, uid)
    check_control(state, ctx, ids)
    for i in group_figs(state, ids):
        f = state.figs[i]
        if "swarm" in f.marks:  # Illusionary Swarm: this activation (L1111)
            f.marks.remove("swarm")
            f.bonus["swarm"] = 1
    if ctx.raging:  # Blood Rage: a die for each raging figure (L1367)
        from warbench.rulesets.warengine.game.bloodrage import roll_rage

        roll_rage(state, ctx, group_figs(state, ids), dice, events)
    for i in group_figs(state, ids):
        if ctx.profiles[i].has("fickle"):  # Fickle Finger of Fate (L1519)
            f = state.figs[i]
            face = dice.d6(f"{ctx.profiles[i].name}: Fickle Finger of Fate")
            f.bonus["fickle"] = 1 if face <= 3 else 2
            f.bonus.pop("hard_luck_used", None)
            events.append(
                Event(
                    "fickle",
                    f"{ctx.profiles[i].name} #{i} rolls {face}: "
                    + ("Hard Luck" if face <= 3 else "Lucky Bastard")
                    + " until it next activates",
                    rule(1519),
                )
            )
    for i in group_figs(state, ids):
        f = state.figs[i]
        if ctx.profiles[i].has("stupid") and not mental_test(ctx, f, dice, "Stupid", state=state):
            f.done = True
            events.append(
                Event("stupid", f"{ctx.profiles[i].name} #{i} forgets what it is doing", rule(1427))
            )


def deactivate(state: GameState, ctx: Context, dice: Dice, events: list[Event]) -> None:
    """Check Control again, Deactivate, and pass to the next activation (L589, L595)."""
    ids = state.active_units
    check_control(state, ctx, [u for u in ids if not state.units[u].gone] or ids)
    side = state.units[ids[0]].side
    events.append(
        Event("deactivate", f"{state.units[ids[0]].name} deactivates", rule(595), {"side": side})
    )
    for i in group_figs(state, ids):  # these last to the end of the activation
        for tag in ("swarm", "speedster"):
            state.figs[i].bonus.pop(tag, None)
    if state.resume:  # Fervor of the Righteous: the user completes its own activation (L1089)
        state.active_units, state.resume = state.resume, []
        state.active_unit = state.active_units[0]
        names = " with ".join(state.units[u].name for u in state.active_units)
        on = {"side": state.units[state.active_unit].side}
        events.append(Event("activate", f"{names} goes on with its activation", rule(1093), on))
        return
    state.active_unit = None
    state.active_units = []
    nxt = 1 - side
    twice = [f for f in state.figs if f.side == side and "future2" in f.bonus]
    if twice and activatable(state, ctx, side):  # See the Future: two units in a row (L1207)
        for f in twice:
            f.bonus.pop("future2")
        nxt = side
    if activatable(state, ctx, nxt):
        state.to_act = nxt
    elif activatable(state, ctx, side):
        state.to_act = side
    else:
        end_conflict(state, ctx, dice, events)


def see_the_future(state: GameState, ctx: Context, events: list[Event]) -> None:
    """See the Future (L1207), after the initiative roll: a force that foresaw and lost wins
    instead; one that foresaw and won activates two units at its first opportunity. When
    both forces foresaw, the roll stands and neither gets more (docs/rulings.md)."""
    seers = {f.side for f in state.figs if "future" in f.bonus and on_table(f)}
    for f in state.figs:
        f.bonus.pop("future", None)
    if len(seers) != 1 or state.initiative is None:
        return
    (side,) = seers
    if state.initiative != side:
        state.initiative = side
        events.append(
            Event("future", f"player {side} saw the future: it wins the initiative", rule(1207))
        )
        return
    for f in state.figs:
        if f.side == side and on_table(f):
            f.bonus["future2"] = 1
            break
    events.append(
        Event("future", f"player {side} saw the future: two units at its first turn", rule(1207))
    )


def start_turn(state: GameState, ctx: Context) -> None:
    """Back to the Initiative step (L338)."""
    state.phase = "initiative"
    state.initiative = None
    state.first = None
    for f in state.figs:  # Rally and System Reset lasted through the Rout step (L1183)
        if "rally" in f.bonus:
            del f.bonus["rally"]
    for u in state.units:
        u.activated, u.skip_next = u.skip_next, False
        u.lost_this_turn = 0
        u.lost_leader = False
        u.attacked_this_turn = False
        u.must_test = False


def end_conflict(state: GameState, ctx: Context, dice: Dice, events: list[Event]) -> None:
    """Follow Up (L599), Rout (L605), the victory check, and the next turn. The Follow Up step
    pauses (phase ``follow up``) while a follow-up attack waits for Hero Points;
    :func:`resume_follow_up` goes on from there."""
    events.append(Event("follow up", f"turn {state.turn}: Follow Up", rule(599)))
    state.phase = "follow up"
    resume_follow_up(state, ctx, dice, events)


def resume_follow_up(state: GameState, ctx: Context, dice: Dice, events: list[Event]) -> None:
    """The Follow Up step from where it stopped, then Rout, the victory check, the next turn."""
    if not follow_up(state, ctx, dice, events):
        return
    state.phase = "conflict"
    if last_standing(state, events):
        return
    rout_step(state, ctx, dice, events)
    if last_standing(state, events):
        return
    if end_of_turn(state, ctx, events):
        return
    state.turn += 1
    start_turn(state, ctx)
    events.append(Event("turn", f"turn {state.turn}", rule(338)))


def after_first(
    state: GameState, ctx: Context, player: int, dice: Dice, events: list[Event]
) -> None:
    """The initiative winner chose: the Conflict step begins (L364)."""
    state.first = player
    state.phase = "conflict"
    if activatable(state, ctx, player):
        state.to_act = player
    elif activatable(state, ctx, 1 - player):
        state.to_act = 1 - player
    else:
        end_conflict(state, ctx, dice, events)
