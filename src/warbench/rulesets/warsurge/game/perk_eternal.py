"""Eternal in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Defensive, L1511-L1517).

    "Eternal — Casualty, Limited Use (1). The Unit is not immediately a casualty, able to make
    actions as normal. The Unit must keep a tally of the HP it has lost, even into the negative.
    If the Unit has recovered enough HP to have at least 1 HP by the end of the Game Turn, it
    will not be a casualty."

* **Kept** (:func:`keep`, asked by ``perk_turn.on_casualty`` as Reservoir and Last Stand are,
  after them): when the unit's last models fall (no model of it with HP left), once per game,
  the models that have just fallen stand again. The tally is kept in the HP the state already
  has: the unit's maximum HP is doubled for the Game Turn (``state.HP_DOUBLED``) and each kept
  model stands at its own maximum, which is 0 HP of the tally; a model's HP below that is the
  tally below 0, above it HP recovered. HP Loss and restoration act on the models as ever, so
  the unit acts, is Targeted, loses HP and is healed as normal.
* **The end of the Game Turn** (:func:`eternal_at_turn_end`, after every other end-of-turn
  effect): the maximum is the profile's again and each kept model keeps the HP its tally is
  above 0; a model at 0 or below is a casualty, and a unit with none above 0 is destroyed.
* Its limit: a model whose tally reaches its full HP below 0 (its HP in the state at 0) is a
  casualty at once, as any model at 0 HP (docs/rulings.md s25-transform 6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.casualties import remove_models, restore_coherency
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.state import ETERNAL_TURN, HP_DOUBLED, Location, model_max_hp

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["ETERNAL", "TURN", "eternal_at_turn_end", "keep", "register_hooks", "tally"]

ETERNAL = "Eternal"
#: The unit's counter: the Game Turn its Eternal was used in (0: not under Eternal).
TURN = ETERNAL_TURN
RULE = "Perks §12.4 Eternal (000_94ecc6a4c74d351b.txt L1511)"


def _held(work: Work, uid: int) -> bool:
    from warbench.rulesets.warsurge.effects.table import load_table

    info = work.info(uid)
    return any(
        (r := load_table().find(n)) is not None and r.name == ETERNAL
        for n in (*info.unit.profile.perks, *info.traits)
    )


def keep(work: Work, uid: int) -> bool:
    """The unit has no model with HP left: Eternal (once per game) keeps the models that have
    just fallen standing at 0 HP of the tally. Returns whether the unit stands."""
    u = work.units[uid]
    if u.living() or u.used(ETERNAL) or not _held(work, uid):
        return False
    if u.location not in (Location.TABLE, Location.EMBARKED, Location.TERRAIN):
        return False
    fallen = [i for i in u.present() if u.hp[i] <= 0]
    if not fallen:
        return False
    zero = model_max_hp(work.info(uid), u)  # 0 HP of the tally, once the maximum is doubled
    hp = list(u.hp)
    for i in fallen:
        hp[i] = zero
    u = u.with_use(ETERNAL).with_counter(TURN, work.flow.turn)
    work.units[uid] = u.with_counter(HP_DOUBLED, u.counter(HP_DOUBLED) + 1)
    work.dirty = True
    work.set_unit(uid, hp=tuple(hp))
    work.emit(
        "perk",
        f"{work.label(uid)} is not a casualty yet (Eternal): it acts at 0 HP, keeping a tally "
        "of the HP it loses, until the end of the Game Turn",
        RULE,
        unit=uid,
        perk=ETERNAL,
        models=fallen,
    )
    return True


def tally(work: Work, uid: int) -> int | None:
    """The unit's HP on Eternal's tally (0 or below: a casualty at the end of the Game Turn
    unless it recovers), or ``None`` when it is not under Eternal."""
    u = work.units[uid]
    if not u.counters or not u.counter(TURN):
        return None
    half = model_max_hp(work.info(uid), u) // 2
    return sum(u.hp[i] - half for i in u.present())


def eternal_at_turn_end(work: Work, turn: int) -> None:
    """L1511: "If the Unit has recovered enough HP to have at least 1 HP by the end of the Game
    Turn, it will not be a casualty": each model keeps the HP its tally is above 0; the rest
    are casualties."""
    for uid, u in enumerate(work.units):
        if not u.counters or not u.counter(TURN):
            continue
        left = tally(work, uid)
        u = u.with_counter(TURN, 0)
        u = u.with_counter(HP_DOUBLED, max(0, u.counter(HP_DOUBLED) - 1))
        work.units[uid] = u
        work.dirty = True
        zero = model_max_hp(work.info(uid), u)
        present = u.present()
        hp = list(u.hp)
        for i in present:
            hp[i] = max(0, hp[i] - zero)
        work.set_unit(uid, hp=tuple(hp))
        dead = [i for i in present if hp[i] <= 0]
        kept = len(present) - len(dead)
        verdict = (
            f"recovered to {sum(hp[i] for i in present)} HP: not a casualty"
            if kept
            else "not back to 1 HP: a casualty"
        )
        work.emit(
            "perk",
            f"{work.label(uid)}: Eternal ends, tally {left} HP, {verdict}",
            RULE,
            unit=uid,
            perk=ETERNAL,
            tally=left,
        )
        if dead and u.location is not Location.DESTROYED:
            remove_models(work, uid, dead, "Eternal ends")
            if work.units[uid].living():
                restore_coherency(work, uid)


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``):
    after every other end-of-turn effect (Burn, Regenerate …), before the next Game Turn."""
    reg.register(Hook.TURN_END, eternal_at_turn_end, "Eternal ends")
