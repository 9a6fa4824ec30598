"""Time Jump I-II in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Ability, L1067-L1079).

    "Time Jump I — Activate, Limited Use (1). Once per game, the User can undo the effects of
    their own Move, Dash, or Attack Sequence (which also undoes any HP changes to Targets) and
    then attempt it again or decide differently. This must occur in the same Phase for Standard
    Games, or in Advanced Games, after the Unit has been used, but before that Unit makes another
    action again." (L1067-L1077)
    "Time Jump II — Activate. Functions as per Time Jump I, except it can be activated once each
    Game Turn." (L1079)

* **The rewind point** (:class:`Rewind`, ``GameState.rewind``): when a unit with a Time Jump it
  may still use makes a Move, a Dash or an Attack (a Standard action or an Advanced Action),
  the state before that action is kept with the action (:func:`after_action`). An Attack that
  waits for its casualties (§5.11) or for a Counter Action (§9.3) carries the point until its
  Attack Sequence is over.
* **The decision** (:func:`offered`): with the sequence over, the game waits for the unit's
  player before anything else (docs/rulings.md, session 25 w2-timejump, 1): ``UsePerks(unit,
  ("Time Jump I",))`` undoes the action (:func:`answer`): the whole game is as it was before
  it (the Targets' HP, the unit's position, the Melee, the flow), but for the Time Jump's use
  and the step count (the dice of a later step are fresh, so "attempt it again" rolls anew);
  the unit then acts again, the same action or another. ``Pass()`` keeps the outcome. An
  enemy's Deny (L4300) may answer the use: the outcome stands, no Limited Use spent. In the
  Advanced playstyle the use costs the CP of a Use Perks Action (L234, doubling on reuse),
  paid from the CP the side has once the action is undone (ruling 4).
* **The engine's choice** under the ``perk use`` automation (:func:`auto_decide`, ruling 3):
  an Attack Sequence that took no HP from any enemy unit is undone and attempted again (the
  same Attack, on the next step's dice); a Move or Dash (no dice, nothing to retry) is kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game.memo import per_setup

if TYPE_CHECKING:
    from warbench.kernel.dice import Dice
    from warbench.rulesets.warsurge.game.actions import Pass
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
    from warbench.rulesets.warsurge.game.events import Event
    from warbench.rulesets.warsurge.game.hooks import HookRegistry
    from warbench.rulesets.warsurge.game.state import GameState
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["RANKS", "Rewind", "after_action", "answer", "auto_decide", "offered", "verify_answer"]

TIME_JUMP_I, TIME_JUMP_II = "Time Jump I", "Time Jump II"
RANKS = (TIME_JUMP_II, TIME_JUMP_I)  # the rank a unit uses first when it has both
_LINE = {TIME_JUMP_I: 1067, TIME_JUMP_II: 1079}
USE_PERKS = "Use Perks"  # the §9.2 Action whose CP an Advanced use costs


def rule(perk: str) -> str:
    return f"Perks §12.4 {perk} (000_94ecc6a4c74d351b.txt L{_LINE[perk]})"


@dataclass(frozen=True)
class Rewind:
    """A stored rewind point: ``unit`` made ``action`` (its ``kind``: Move, Dash or Attack
    Sequence) from the state ``before``; ``perk`` is the Time Jump rank it may undo it with."""

    unit: int
    perk: str
    kind: str
    action: Any = None
    before: Any = None  # GameState (its own ``rewind`` is None)

    def to_json(self) -> list[Any]:
        return [self.unit, self.perk, self.kind, self.before.step]


def _rank(state: GameState, uid: int) -> str | None:
    """The Time Jump rank ``uid`` may use now (II once each Game Turn, I once a game)."""
    from warbench.rulesets.warsurge.game.perk_turn import index

    own = index(state.setup).units[uid].unit
    if TIME_JUMP_I not in own and TIME_JUMP_II not in own:
        return None
    u = state.units[uid]
    for rank in RANKS:
        if rank not in own or u.counter(f"used {rank}") == state.flow.turn:
            continue  # §12.2 L227: once per Game Turn
        if rank == TIME_JUMP_I and u.used(rank) >= 1:
            continue  # Limited Use (1)
        return rank
    return None


def _kind(action: object) -> tuple[int, str] | None:
    """The unit and kind of a Move, Dash or Attack (Sequence) ``action`` in ``state``."""
    from warbench.rulesets.warsurge.game.actions import Attack, Move

    if isinstance(action, Attack):
        return action.unit, "Attack Sequence"
    if isinstance(action, Move):  # a Dash is a Move with ``dash`` (§2.2 steps 3 and 5, §9.2)
        return action.unit, "Dash" if action.dash else "Move"
    return None


def after_action(w: Work, before: GameState, action: object) -> None:
    """Keep the rewind point of ``action`` (applied to ``before`` in ``w``) if its unit may
    Time Jump it. A point carried through a pause stays; any other action leaves none, nor
    does an action that ended the game (ruling 1)."""
    if before.rewind is None and w.rewind is None and not _holders(before):
        return  # no unit may Time Jump, none did: nothing to keep or forget (session 33)
    from warbench.rulesets.warsurge.game.state import Phase

    if w.flow.phase is Phase.OVER:
        w.rewind = None
        return
    if before.rewind is not None or not _holders(before):
        return
    made = _kind(action)
    if made is None:
        return
    uid, kind = made
    if uid not in _holders(before):
        return
    rank = _rank(before, uid)
    if rank is not None:
        w.rewind = Rewind(uid, rank, kind, action, replace(before, rewind=None))


def _holders(state: GameState) -> frozenset[int]:
    return _holders_of(state.setup)


@per_setup
def _holders_of(setup: Any) -> frozenset[int]:
    """The units of ``setup`` with a rank, once per set-up (``memo.per_setup``: the set-up
    asked last answers first, issue 10, session 33)."""
    from warbench.rulesets.warsurge.game.perk_turn import index

    units = index(setup).units
    return frozenset(
        uid for uid, p in enumerate(units) if TIME_JUMP_I in p.unit or TIME_JUMP_II in p.unit
    )


def offered(state: GameState) -> bool:
    """Whether the game waits for the player's Time Jump decision: a rewind point whose Attack
    Sequence is over (no casualties, no Counter Action waiting) in a game not over."""
    if state.rewind is None:  # no rewind point: asked at every step (issue 10, session 35)
        return False
    from warbench.rulesets.warsurge.game.state import Phase

    if state.pause is not None or state.flow.phase is Phase.OVER:
        return False
    return state.flow.adv is None or state.flow.adv.counter is None


def deciding_side(state: GameState) -> int:
    r = state.rewind
    assert r is not None
    return int(state.units[r.unit].controller(state.setup.units[r.unit].side))


def choices(state: GameState) -> tuple[UsePerks, Pass]:
    """The two answers: undo (``UsePerks``), keep (``Pass``)."""
    from warbench.rulesets.warsurge.game.actions import Pass
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks

    r = state.rewind
    assert r is not None
    return UsePerks(r.unit, (r.perk,)), Pass()


def verify_answer(state: GameState, action: object) -> None:
    """Only the two answers are legal while the decision waits."""
    r = state.rewind
    assert r is not None
    label = state.setup.units[r.unit].label
    adv = r.before.flow.adv
    if action == choices(state)[0] and adv is not None:  # Advanced: the use's CP (P L234)
        side = deciding_side(state)
        if adv.cost(r.unit, USE_PERKS) > adv.cp[side]:
            raise RulesError(
                f"{label} cannot pay the {adv.cost(r.unit, USE_PERKS)} CP of {r.perk} (its "
                f"side would have {adv.cp[side]} CP once the {r.kind} is undone)",
                "000_94ecc6a4c74d351b.txt L234",
            )
    if action not in choices(state):
        raise RulesError(
            f"{label}'s player must first decide whether to undo its {r.kind} with {r.perk}: "
            f"UsePerks({r.unit}, ({r.perk!r},)) undoes it, Pass() keeps it",
            rule(r.perk),
        )


def _spent(state: GameState, uid: int, perk: str, *, limited: bool) -> GameState:
    u = state.units[uid].with_counter(f"used {perk}", state.flow.turn)
    if limited and perk == TIME_JUMP_I:
        u = u.with_use(perk)
    units = tuple(u if k == uid else x for k, x in enumerate(state.units))
    return replace(state, units=units)


def answer(
    state: GameState, action: object, dice: Dice | None, hooks: HookRegistry
) -> tuple[GameState, list[Event]]:
    """The player's answer (verified): undo the action (the game as before it, the Time Jump
    used) or keep it. One step either way."""
    out, events, _ = _answer(state, action, dice, hooks)
    return out, events


def _answer(
    state: GameState, action: object, dice: Dice | None, hooks: HookRegistry
) -> tuple[GameState, list[Event], bool]:
    from warbench.rulesets.warsurge.game import perk_reroll
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
    from warbench.rulesets.warsurge.game.work import Work

    r = state.rewind
    assert r is not None
    label = state.setup.units[r.unit].label
    kept = Work(state, dice, hooks)
    kept.rewind = None
    kept.step = state.step + 1
    if not isinstance(action, UsePerks):
        kept.emit("perk", f"{label} keeps its {r.kind} ({r.perk} not used)", rule(r.perk),
                  unit=r.unit, perk=r.perk, used=False)  # fmt: skip
        return kept.state(), kept.events, False
    if perk_reroll.denied(kept, r.unit, r.perk):  # Deny L4300: fails, no Limited Use spent
        out = _spent(kept.state(), r.unit, r.perk, limited=False)
        return out, kept.events, False
    back = _spent(replace(r.before, step=state.step + 1), r.unit, r.perk, limited=True)
    w = Work(back, dice, hooks)
    w.events = kept.events
    adv = back.flow.adv
    if adv is not None:  # Advanced: "will cost additional CP with each use" (P L234)
        side, cost = deciding_side(state), adv.cost(r.unit, USE_PERKS)
        paid = adv.with_cp(side, -cost).with_use(r.unit, USE_PERKS)
        w.flow = replace(w.flow, adv=paid)
        w.emit("action", f"{label}: {r.perk} ({cost} CP; {w.side_name(side)} has "
               f"{paid.cp[side]} CP)", "000_94ecc6a4c74d351b.txt L234", unit=r.unit,
               action=USE_PERKS, cost=cost)  # fmt: skip
    w.emit("perk", f"{label} uses {r.perk}: its {r.kind} is undone, the game is as it was "
           "before it (the Targets' HP too); it may act again", rule(r.perk),
           unit=r.unit, perk=r.perk, used=True, undone=r.kind)  # fmt: skip
    return w.state(), w.events, True


def _enemy_hp(state: GameState, uid: int) -> int:
    return sum(
        sum(h for h, gone in zip(u.hp, u.removed, strict=False) if not gone)
        for u in state.units
        if state.enemies(uid, u.uid)
    )


def auto_decide(
    state: GameState,
    events: list[Event],
    dice: Dice | None,
    hooks: HookRegistry,
    again: Callable[[GameState, object], tuple[GameState, list[Event]]],
) -> tuple[GameState, list[Event]]:
    """The engine's decision under the ``perk use`` automation (ruling 3): an Attack Sequence
    that took no HP from any enemy is undone and attempted again (``again``: the engine's
    ``apply`` of the same Attack to the state turned back); anything else is kept."""
    r = state.rewind
    assert r is not None
    if r.kind != "Attack Sequence" or _enemy_hp(state, r.unit) < _enemy_hp(r.before, r.unit):
        return replace(state, rewind=None), events
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks

    back, more, undone = _answer(state, UsePerks(r.unit, (r.perk,)), dice, hooks)
    if not undone:  # Deny: the outcome stands
        return back, [*events, *more]
    out, last = again(back, r.action)
    return out, [*events, *more, *last]
