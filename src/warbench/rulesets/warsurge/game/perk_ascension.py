"""Ascension I-III and Descend I-III in a game (Perks 000_94ecc6a4c74d351b.txt §12.4
Transformation, L2368-L2384).

    "Ascension I — Specific. After three Game Turns have been spent on the Battlefield (not in
    Reserve), the User doubles its Defence, Move, Dash, current and max HP and can reroll failed
    Saves for the rest of the Game." (II: two Game Turns, L2372; III: one, L2374)
    "Descend I — Specific. After being Deployed for the first time, for one Game Turn the User
    doubles its Defence, Move, Dash, current and max HP and can reroll failed Saves. When the
    Game Turn has ended, these Stats are returned to normal, but current HP is halved, rounding
    up." (II: two Game Turns, L2382; III: three, L2384)

* **Stats**: the status ``Ascension`` (for the rest of the game) or ``Descend`` (for its Game
  Turns) doubles Defence, Move and Dash through the one stacking algebra (§12.1 L205: after
  every addition) and gives the unit Reinforced and Resilient while it lasts: failed Armour and
  AEGIS Saves are rerolled (``effects.runtime.granted_perks``), so exact odds read the same
  profile the game does.
* **HP** (:func:`double_hp`, :func:`halve_hp`): every model's current HP doubles and so does
  its maximum (the unit's counter ``state.HP_DOUBLED``, read by ``state.model_max_hp``:
  restoration, Current Point Cost, thresholds); when Descend ends each model's HP is halved,
  rounding up, and the maximum is the profile's again.
* **When**: Ascension counts the Game Turns that end with the unit on the Battlefield (on the
  table, in a Transport or a terrain piece there; not in Reserve) and ascends at the end of the
  one that completes its count (:func:`ascension_at_turn_end`). Descend starts when the unit is
  Deployed for the first time (``Hook.DEPLOY``, its passengers with it) and its Game Turns are
  that one and the next (:func:`descend_at_turn_end`, before the durations tick).

docs/rulings.md "WARSURGE perks in play: session 25, s25-transform".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.state import HP_DOUBLED, INCORPOREAL_TURN, Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "ASCENSION",
    "DESCEND",
    "ascension_at_turn_end",
    "descend_at_turn_end",
    "descend_on_deploy",
    "double_hp",
    "halve_hp",
    "register_hooks",
]

#: Game Turns on the Battlefield before the User ascends (L2368-L2374).
ASCENSION = {"Ascension I": 3, "Ascension II": 2, "Ascension III": 1}
#: Game Turns Descend lasts (L2376-L2384).
DESCEND = {"Descend I": 1, "Descend II": 2, "Descend III": 3}
_LINE = {
    "Ascension I": 2368,
    "Ascension II": 2372,
    "Ascension III": 2374,
    "Descend I": 2376,
    "Descend II": 2382,
    "Descend III": 2384,
}
#: The unit's counter: Game Turns ended on the Battlefield (Ascension).
TURNS = "ascension turns"


def _rule(rank: str) -> str:
    return f"Perks §12.4 {rank} (000_94ecc6a4c74d351b.txt L{_LINE[rank]})"


def _rank(work: Work, uid: int, ranks: dict[str, int]) -> str | None:
    from warbench.rulesets.warsurge.game.perk_turn import index

    held = [r for r in ranks if r in index(work.setup).units[uid].unit]
    return held[-1] if held else None  # the best rank held


def _holders(work: Work, ranks: dict[str, int]) -> list[int]:
    from warbench.rulesets.warsurge.game.perk_turn import index

    return [uid for uid, p in enumerate(index(work.setup).units) if p.unit & ranks.keys()]


def _on_battlefield(work: Work, uid: int) -> bool:
    u = work.units[uid]
    if u.location is Location.EMBARKED:
        return work.units[work.outermost(uid)].location is Location.TABLE and bool(u.living())
    return u.location in (Location.TABLE, Location.TERRAIN) and bool(u.living())


def double_hp(work: Work, uid: int) -> None:
    """Every model's current and maximum HP doubled (L2368 "doubles its … current and max HP")."""
    u = work.units[uid]
    u = u.with_counter(HP_DOUBLED, u.counter(HP_DOUBLED) + 1)
    work.units[uid] = u
    work.dirty = True
    work.set_unit(uid, hp=tuple(2 * h for h in u.hp))


def halve_hp(work: Work, uid: int) -> None:
    """L2376: "these Stats are returned to normal, but current HP is halved, rounding up" — each
    model's HP (HP are kept per model), its maximum the profile's again."""
    u = work.units[uid]
    u = u.with_counter(HP_DOUBLED, max(0, u.counter(HP_DOUBLED) - 1))
    work.units[uid] = u
    work.dirty = True
    work.set_unit(uid, hp=tuple(-(-h // 2) if h > 0 else h for h in u.hp))


def _transform(work: Work, uid: int, rank: str, status: str, turns: int | None, text: str) -> None:
    double_hp(work, uid)
    statuses = work.units[uid].statuses
    work.set_unit(uid, statuses=(*statuses, Status(status, turns, rank)))
    work.emit("perk", f"{work.label(uid)}: {rank}, {text}", _rule(rank), unit=uid, perk=rank)
    _refresh(work, uid)


def _refresh(work: Work, uid: int) -> None:
    from warbench.rulesets.warsurge.game.perk_turn import refresh_thresholds

    refresh_thresholds(work, uid)  # Deteriorate, Hearty … read the HP against the new maximum


def ascension_at_turn_end(work: Work, turn: int) -> None:
    """The end of a Game Turn: each unit with Ascension on the Battlefield counts it; the one
    that completes its count (3, 2, 1 Game Turns) ascends for the rest of the game."""
    for uid in _holders(work, ASCENSION):
        u = work.units[uid]
        if u.used("Ascension") or not _on_battlefield(work, uid):
            continue
        if u.counter(INCORPOREAL_TURN) == turn:
            continue  # Incorporeal (L2480): its Game Turns do not count for improving perks
        rank = _rank(work, uid, ASCENSION)
        assert rank is not None
        n = u.counter(TURNS) + 1
        work.units[uid] = u.with_counter(TURNS, n)
        work.dirty = True
        if n < ASCENSION[rank]:
            continue
        work.units[uid] = work.units[uid].with_use("Ascension")
        text = (
            f"after {n} Game Turns on the Battlefield: Defence, Move, Dash, current and max HP "
            "doubled and failed Saves rerolled for the rest of the game"
        )
        _transform(work, uid, rank, "Ascension", None, text)


def descend_on_deploy(work: Work, unit: int) -> None:
    """Deployed for the first time: Descend doubles the unit for its Game Turns (this one
    first); passengers deployed inside a Transport are Deployed with it."""
    for uid in (unit, *work.passengers(unit)):
        rank = _rank(work, uid, DESCEND)
        u = work.units[uid]
        if rank is None or u.used("Descend") or not u.living():
            continue
        work.units[uid] = u.with_use("Descend")
        n = DESCEND[rank]
        text = (
            f"Deployed: Defence, Move, Dash, current and max HP doubled and failed Saves "
            f"rerolled for {n} Game Turn{'s' if n > 1 else ''}"
        )
        _transform(work, uid, rank, "Descend", n, text)


def descend_at_turn_end(work: Work, turn: int) -> None:
    """The end of Descend's last Game Turn (before the durations tick): the Stats return to
    normal and each model's HP is halved, rounding up."""
    for uid in _holders(work, DESCEND):
        u = work.units[uid]
        if not any(s.name == "Descend" and s.turns == 1 for s in u.statuses):
            continue
        rank = _rank(work, uid, DESCEND)
        assert rank is not None
        before = u.current_hp
        halve_hp(work, uid)
        after = work.units[uid].current_hp
        work.emit(
            "perk",
            f"{work.label(uid)}: {rank} ends, Stats returned to normal and current HP halved "
            f"({before} to {after} HP)",
            _rule(rank),
            unit=uid,
            perk=rank,
            hp_before=before,
            hp_after=after,
        )
        _refresh(work, uid)


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``)."""
    reg.register(Hook.DEPLOY, descend_on_deploy, "Descend", perks=DESCEND)
    reg.register(Hook.TURN_END, descend_at_turn_end, "Descend ends", first=True, perks=DESCEND)
    reg.register(Hook.TURN_END, ascension_at_turn_end, "Ascension", first=True, perks=ASCENSION)
