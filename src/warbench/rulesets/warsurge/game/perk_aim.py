"""The points an Attack names for its Weapons (``Attack.aim``, issue 11 session 25): where a
Force Weapon pushes its Target (Perks 000_94ecc6a4c74d351b.txt L3837 "in any direction") and
where a Trap Weapon places its marker (L4085 "inside the Weapon's maximum Range"), where a
Mode template goes (L3321-L3563, :mod:`.perk_placement`, session 26). The Attack
being resolved sets them (:func:`aimed`); the perks read them (:func:`aim_of`). Weapons left out
get the engine's choice (docs/rulings.md "WARSURGE perks in play: session 25, s25-tactical"
3, 11). This module imports nothing of the game package but the perk index and
:mod:`.perk_placement`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["AIMED", "aim_of", "aim_refusal", "aimed", "picks_of", "picks_refusal"]

Aim = tuple[str, float, float]
#: The Weapon Perks whose Weapon may name a point.
AIMED = ("Force I", "Force II", "Trap")
Pick = tuple[str, tuple[int, ...]]
_NOW: ContextVar[tuple[Aim, ...]] = ContextVar("warsurge_attack_aim", default=())
_PICKS: ContextVar[tuple[Pick, ...]] = ContextVar("warsurge_attack_picks", default=())


@contextmanager
def aimed(aims: Sequence[Aim], picks: Sequence[Pick] = ()) -> Iterator[None]:
    """The points (``Attack.aim``) and Precision picks (``Attack.single_out``) of the Attack
    being resolved."""
    token = _NOW.set(tuple(aims))
    token2 = _PICKS.set(tuple(picks))
    try:
        yield
    finally:
        _PICKS.reset(token2)
        _NOW.reset(token)


def picks_of(weapon: str) -> tuple[int, ...]:
    """The models the Attack being resolved singles out first with ``weapon`` (Precision)."""
    return next((ms for name, ms in _PICKS.get() if name == weapon), ())


def picks_refusal(
    work: Work, uid: int, picks: Sequence[Pick], targets: Sequence[tuple[str, int]]
) -> str | None:
    """Why the Attack's Precision picks may not stand: a Weapon not used in it, without
    Precision, named twice, or a model its Targets do not have."""
    from warbench.rulesets.warsurge.game.perk_index import perks_now

    perks = perks_now(work, uid)
    seen: set[str] = set()
    for weapon, models in picks:
        aims = [t for w, t in targets if w == weapon]
        if not aims:
            return f"{weapon} singles out models but is not used in this Attack"
        if weapon in seen:
            return f"{weapon} names the models it singles out twice"
        seen.add(weapon)
        if not any(p.startswith("Precision ") for p in perks.weapon_perks(weapon)):
            return f"{weapon} has no Precision: it does not single out models"
        for t in aims:
            n = len(work.units[t].hp) if t < len(work.units) else 0
            if any(not 0 <= m < n for m in models):
                who = work.label(t) if t < len(work.units) else f"terrain {t}"
                return f"{who} has no such model for {weapon}"
    return None


def aim_of(weapon: str) -> tuple[float, float] | None:
    """The point the Attack being resolved names for ``weapon``, if any."""
    for name, x, y in _NOW.get():
        if name == weapon:
            return (x, y)
    return None


def aim_refusal(
    work: Work, uid: int, aims: Sequence[Aim], shares: Sequence[tuple[str, int, tuple[int, ...]]]
) -> str | None:
    """Why the Attack's points may not stand: a Weapon not used in it, without Force or Trap,
    named twice, a point off the battlefield, or (Trap) beyond the Weapon's Range of every model
    of its shares. ``shares``: (Weapon, Target, the models using it)."""
    from warbench.rulesets.warsurge.game import bases, geom
    from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges
    from warbench.rulesets.warsurge.game.perk_index import perks_now
    from warbench.rulesets.warsurge.game.perk_placement import refusal, template

    perks = perks_now(work, uid)
    seen: set[str] = set()
    for weapon, x, y in aims:
        mine = [s for s in shares if s[0] == weapon]
        if not mine:
            return f"{weapon} is aimed at ({x:g}, {y:g}) but not used in this Attack"
        if weapon in seen:
            return f"{weapon} is aimed twice"
        seen.add(weapon)
        held = perks.weapon_perks(weapon) & set(AIMED)
        if not held and template(work, uid, weapon) is None:
            return f"{weapon} has neither Force nor Trap nor a Mode template: it names no point"
        if not work.field.on_board((x, y), 0.0):
            return f"({x:g}, {y:g}) is off the battlefield"
        if not held:  # a Mode template's placement (session 26, s26b-choices)
            models = sorted({m for s in mine for m in s[2]})
            if (why := refusal(work, uid, weapon, x, y, models)) is not None:
                return why
        if "Trap" in held:
            info = work.info(uid)
            rng = weapon_ranges(info, work.units[uid].statuses)[weapon]
            holder = work.outermost(uid)
            models = sorted({m for s in mine for m in s[2]})
            pts = work.xy(holder) if holder != uid else work.xy(uid, models or None)
            d = bases.distances(work, holder, pts, info.radius, None, geom.as_array([(x, y)]), 0.0)
            if float(d.min()) > rng + 1e-6:
                return (
                    f"a Trap marker goes inside {weapon}'s Range ({rng}\"); ({x:g}, {y:g}) is "
                    f'{float(d.min()):.1f}" from its models'
                )
    return None
