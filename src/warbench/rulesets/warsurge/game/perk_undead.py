"""Undead Legion in a game (Perks 000_94ecc6a4c74d351b.txt §12.6 Roster Perks, L4386-L4392).

    "Undead Legion — Specific, Instruct. When an enemy Unit is a casualty, leave the last model
    of the Unit on the Battlefield where it died. At the start of the next Game Turn, it is
    raised to full HP and models (placed like Transport survivors in Section 6.6), under the
    Undead Legion player's control. Targets that have Respawn or Resurrection (of any rank),
    are unaffected by this Perk. If more than one player has this Perk, they must Roll-Off for
    each Unit."

* **Who holds it**: a player whose roster carries it (on the entry it is designated to).
* **Which units**: a unit destroyed on the Battlefield (its models' last places known) that is
  an enemy of a holder, not already raised, without Respawn or Resurrection; one destroyed
  out of the Battlefield (in Reserve, or embarked in a Transport that was not on it) left no
  model there and is not raised. "The last model" stands where the unit's first model stood
  (the casualty order takes it last, §5.12, when its models are alike).
* **When**: the TURN_START hook of the next Game Turn: every model returns at full HP, placed
  as the survivors of a Transport destroyed where that last model stood (§6.6,
  ``casualties.place_survivors``: there, then in circles around; a model with no room is
  lost). The last model stays on the Battlefield meanwhile as a marker only (it is no unit:
  it neither blocks nor holds anything).
* **Control**: the status ``Seized by side <n>`` (:data:`~.state.SEIZED`) for the rest of the
  game, source ``Undead Legion``: the holder's side acts with it, it is that side's for
  ``enemies``, Objectives, terrain, the sides' values and the end of the game; perks that read
  the Roster still see its own (docs/rulings.md, session 25 s25-ability, 12).
* **Several holders**: the Roll-Off (``Dice.roll_off``) among the holders it is an enemy of.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.pauses import Wreck
from warbench.rulesets.warsurge.game.perk_illusion_slots import full_strength
from warbench.rulesets.warsurge.game.state import SEIZED, Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.hooks import HookRegistry
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["UNDEAD", "holders", "raise_fallen", "register_hooks"]

UNDEAD = "Undead Legion"
RULE = "Perks §12.6 Undead Legion (000_94ecc6a4c74d351b.txt L4386)"
#: a unit's counter: 1 once Undead Legion has looked at its fall (raised or not)
SEEN = "undead legion seen"
_IMMUNE = ("Respawn", "Resurrection I", "Resurrection II")


@per_setup
def holders(setup: GameSetup) -> tuple[dict[int, int], frozenset[int]]:
    """(side -> a unit carrying Undead Legion, the units immune: Respawn, Resurrection)."""
    from warbench.rulesets.warsurge.effects.table import load_table

    table = load_table()
    sides: dict[int, int] = {}
    immune: set[int] = set()
    for info in setup.units:
        names = {r.name for n in (*info.unit.profile.perks, *info.traits) if (r := table.find(n))}
        if UNDEAD in names:
            sides.setdefault(info.side, info.uid)
        if names & set(_IMMUNE):
            immune.add(info.uid)
    out = (sides, frozenset(immune))
    return out


def _claimant(work: Work, uid: int, sides: dict[int, int]) -> int | None:
    """The holder side that raises ``uid``: the only one it is an enemy of, or the Roll-Off's
    winner among several."""
    own = work.info(uid).side
    mine = sorted(s for s in sides if s != own)
    if not mine:
        return None
    if len(mine) == 1:
        return mine[0]
    names = [work.side_name(s) for s in mine]
    won = work.dice.roll_off(names, f"{UNDEAD}: {work.label(uid)}")
    return mine[names.index(won)]


def raise_fallen(work: Work, turn: int) -> None:
    """The start of a Game Turn: every enemy unit that fell since is raised (the module's
    rules)."""
    sides, immune = holders(work.setup)
    if not sides:
        return
    for u in list(work.units):
        if u.location is not Location.DESTROYED or u.counter(SEEN):
            continue
        work.units[u.uid] = u.with_counter(SEEN, 1)
        work.dirty = True
        if u.uid in immune or u.seized_by is not None or u.defected or not u.pos:
            continue
        side = _claimant(work, u.uid, sides)
        if side is not None:
            _raise(work, u.uid, side)


def _raise(work: Work, uid: int, side: int) -> None:
    from warbench.rulesets.warsurge.game.casualties import place_survivors

    info = work.info(uid)
    u = work.units[uid]
    last = u.pos[0]
    work.set_unit(
        uid,
        hp=full_strength(work.info(uid))[0],  # Illusion slots off (L779)
        removed=full_strength(work.info(uid))[1],
        statuses=(Status(f"{SEIZED}{side}", None, UNDEAD),),
        acted=False,
    )
    work.sides_changed()
    work.emit("perk", f"{work.label(uid)} rises under {work.side_name(side)}'s control at full "
              f"HP (Undead Legion)", RULE, unit=uid, perk=UNDEAD, side=side)  # fmt: skip
    place_survivors(work, Wreck(uid, (last,), info.radius))
    work.sides_changed()


def register_hooks(reg: HookRegistry) -> None:
    from warbench.rulesets.warsurge.game.hooks import Hook

    reg.register(Hook.TURN_START, raise_fallen, UNDEAD, when=lambda setup: holders(setup)[0])
