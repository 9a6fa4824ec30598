"""Templates left on the Battlefield: Residue I-III and Vortex I-III (Perks
000_94ecc6a4c74d351b.txt §12.5 Mode, L3481-L3545).

    "Residue I — Passive, End of Turn. Attacking with any Beam, Blast, Cone, Explode, Nova or
    Wall leaves the Template on the Battlefield in the shape and size of the Mode Perk,
    starting on the next Game Turn and lasting for one Game Turn. For each model that makes
    Movement (entering, leaving or passing) through or stationary in the area, the Unit
    receives Attacks, Power, AP and Perks from the Residue Weapon's profile as it was used in
    the previous Game Turn." Residue II and III: "the Dangerous Ground effect remains for two
    [three] Game Turns". Vortex I-III (Blast, Explode or Nova; Scatter Arrow 2D6): the same,
    lasting one, two or three Game Turns, and "When Vortex becomes active (at the start of the
    following Game Turn), it travels 2D6 inches with a Scatter Arrow. If a Hit is rolled, it
    remains stationary, staying where the Weapon last took effect."

* **Left** (:func:`leave`, called by ``perk_mode.resolve_template`` for each template a model
  lays, after its Scatter): a Weapon with a Residue (or Vortex) rank and a Mode rank it may
  leave leaves that template where it fell, as a status of its Wielder's unit
  (``Residue:<weapon>|<mode>|<rank>|x|y|hx|hy|length|moved``) waiting for the next Game Turn
  (``perk_effects.DELAYED``) and lasting one, two or three Game Turns. A template laid through
  a Fire Point is not left (docs/rulings.md "session 25, s25-lead" 9).
* **Vortex travels** (:func:`vortex_at_turn_start`): as the Game Turn it becomes active
  starts, by the Scatter Arrow and 2D6 (a Hit: it stays); once.
* **Strikes**: a unit's models whose Move or Dash path (the straight line from where each
  model stood to where it stands) touches the area (:func:`on_after_move`), and, at the end
  of the Game Turn, before the template's turns run out, its models under the area that have
  not moved this Game Turn (:func:`residue_at_turn_end`): one Attack Sequence of the Weapon
  at that unit with Attack Dice equal to those models times the Weapon's Attacks (the Weapon's
  profile and perks as the Wielder's unit has it then; no Cover, as a template's strike). As
  the template itself: friend and foe, Nova enemies only, never the Wielder's own unit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from warbench.rulesets.warsurge.attack import AttackContext
from warbench.rulesets.warsurge.effects.mode import Template, TemplateAt, under
from warbench.rulesets.warsurge.effects.table import load_table
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_effects import DELAYED
from warbench.rulesets.warsurge.game.plans import WeaponPlan
from warbench.rulesets.warsurge.game.state import Location, Status
from warbench.rulesets.warsurge.game.work import current_value, perks_of

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "PREFIX",
    "RESIDUE",
    "VORTEX",
    "active",
    "leave",
    "lingering",
    "on_after_move",
    "register_hooks",
    "residue_at_turn_end",
    "vortex_at_turn_start",
]

BOOK = "000_94ecc6a4c74d351b.txt"
#: rank → (Game Turns it lasts, source line)
RESIDUE = {"Residue I": (1, 3481), "Residue II": (2, 3497), "Residue III": (3, 3503)}
VORTEX = {"Vortex I": (1, 3509), "Vortex II": (2, 3533), "Vortex III": (3, 3541)}
#: The Mode perks whose template each may leave (L3483, L3511).
RESIDUE_MODES = frozenset({"Beam", "Blast", "Cone", "Explode", "Nova", "Wall"})
VORTEX_MODES = frozenset({"Blast", "Explode", "Nova"})
PREFIX = "Residue:"
_STEP = 0.25  # inches between the points tested along a model's path


def _rule(rank: str) -> str:
    line = (RESIDUE | VORTEX)[rank][1]
    return f"Perks §12.5 {rank} ({BOOK} L{line})"


def lingering(work: Work, uid: int, weapon: str, mode: str) -> str | None:
    """The Residue or Vortex rank with which ``weapon`` leaves its ``mode`` template (Vortex
    first, then the highest rank), or ``None``."""
    names = perks_of(work.info(uid).unit.weapon(weapon).perks).names
    base = mode.split(" ")[0]
    for table, modes in ((VORTEX, VORTEX_MODES), (RESIDUE, RESIDUE_MODES)):
        if base not in modes:
            continue
        for rank in sorted(table, key=lambda r: -table[r][0]):
            if rank.lower() in names:
                return rank
    return None


def _encode(weapon: str, mode: str, rank: str, at: TemplateAt, moved: bool) -> str:
    x, y = at.origin
    hx, hy = at.heading
    parts = (weapon, mode, rank, repr(x), repr(y), repr(hx), repr(hy), repr(at.length))
    return PREFIX + "|".join(parts) + ("|1" if moved else "|0")


@cache
def _templates() -> dict[str, Template]:
    """Mode rank → its template (the effects table's, as ``perk_mode`` reads them)."""
    out: dict[str, Template] = {}
    for row in load_table():
        for e in row.effects:
            if e.template is not None:
                out.setdefault(row.name, e.template)
    return out


def _decode(name: str) -> tuple[str, str, str, TemplateAt, bool] | None:
    if not name.startswith(PREFIX) or name.endswith(DELAYED):
        return None
    weapon, mode, rank, x, y, hx, hy, length, moved = name[len(PREFIX) :].split("|")
    found = _templates().get(mode)
    if found is None:
        return None
    at = TemplateAt(found, (float(x), float(y)), (float(hx), float(hy)), float(length))
    return weapon, mode, rank, at, moved == "1"


def active(work: Work) -> list[tuple[int, Status, str, str, str, TemplateAt]]:
    """Every template on the Battlefield now: (Wielder's unit, its status, weapon, mode rank,
    Residue/Vortex rank, where it lies)."""
    out = []
    for u in work.units:
        for s in u.statuses:
            if s.name.startswith(PREFIX):
                got = _decode(s.name)
                if got is not None:
                    out.append((u.uid, s, got[0], got[1], got[2], got[3]))
    return out


def leave(work: Work, uid: int, weapon: str, mode: str, at: TemplateAt) -> None:
    """A template of ``weapon`` (``mode``) laid at ``at``: left on the Battlefield from the
    next Game Turn when the Weapon has Residue or Vortex."""
    rank = lingering(work, uid, weapon, mode)
    if rank is None:
        return
    turns = (RESIDUE | VORTEX)[rank][0]
    u = work.units[uid]
    name = _encode(weapon, mode, rank, at, False) + DELAYED
    work.set_unit(uid, statuses=(*u.statuses, Status(name, turns, f"u{uid}/{rank}")))
    work.emit("perk", f"{work.label(uid)}'s {weapon} leaves its {mode} template on the "
              f"Battlefield ({rank}, from the next Game Turn for {turns} Game Turn"
              f"{'s' if turns > 1 else ''})", _rule(rank), unit=uid, perk=rank,
              origin=list(at.origin))  # fmt: skip


def _replace(work: Work, uid: int, old: Status, new: Status) -> None:
    u = work.units[uid]
    work.set_unit(uid, statuses=tuple(new if s is old else s for s in u.statuses))


def vortex_at_turn_start(work: Work, turn: int) -> None:
    """L3513: a Vortex that has just become active travels 2D6" by the Scatter Arrow."""
    for uid, status, weapon, mode, rank, at in active(work):
        got = _decode(status.name)
        if rank not in VORTEX or got is None or got[4]:
            continue
        label = f"{work.label(uid)}'s {weapon} ({rank})"
        res = work.dice.scatter(2, label)  # L3509 "Scatter Arrow 2D6"
        if res.hit or res.direction is None:
            moved = at
            work.emit("perk", f"{label}: a Hit, the Vortex stays", _rule(rank), unit=uid,
                      perk=rank, scatter="hit")  # fmt: skip
        else:
            rad = math.radians(res.direction.degrees)  # N is +y, clockwise
            moved = at.moved(math.sin(rad) * res.distance, math.cos(rad) * res.distance)
            work.emit("perk", f'{label} travels {res.distance}" {res.direction.value}',
                      _rule(rank), unit=uid, perk=rank, scatter=res.direction.value,
                      distance=res.distance)  # fmt: skip
        name = _encode(weapon, mode, rank, moved, True)
        _replace(work, uid, status, Status(name, status.turns, status.source))


def _strikes(work: Work, owner: int, mode: str, target: int) -> bool:
    """Whether a template of ``owner`` strikes models of ``target`` (friend and foe; Nova:
    enemies only; never the Wielder's own unit)."""
    if target == owner:
        return False
    return not (mode.startswith("Nova") and not work.enemies(owner, target))


#: ``perk_mode._strike`` (one Attack Sequence of a template's Weapon), given by
#: :func:`register_hooks` (``perk_mode`` imports this module).
Strike = Callable[["Work", int, int, int, WeaponPlan, str, bool], int]


def _strike(
    work: Work, strike: Strike, owner: int, weapon: str, rank: str, target: int, models: int
) -> None:
    ctx = AttackContext(
        attacker_point_cost=current_value(work, owner),
        target_point_cost=current_value(work, target),
    )
    strike(work, owner, target, models, WeaponPlan(weapon, target, models, ctx), rank, True)


def on_after_move(work: Work, strike: Strike, unit: int) -> None:
    """L3487: each model whose Movement enters, leaves or passes through a template's area."""
    templates = active(work)
    if not templates or work.units[unit].location is not Location.TABLE:
        return
    before = work.before.units[unit]
    now = work.units[unit]
    if before.location is not Location.TABLE:
        return
    r = work.info(unit).radius
    for owner, _, weapon, mode, rank, at in templates:
        if not _strikes(work, owner, mode, unit) or not work.units[unit].living():
            continue
        n = 0
        for i in now.present():
            a = np.asarray(before.pos[i], dtype=np.float64)
            b = np.asarray(now.pos[i], dtype=np.float64)
            length = float(np.hypot(*(b - a)))
            if length <= 1e-9:
                continue
            k = max(2, math.ceil(length / _STEP) + 1)
            path = a + np.linspace(0.0, 1.0, k)[:, None] * (b - a)
            if bool(under(at, path, r).any()):
                n += 1
        if n:
            _strike(work, strike, owner, weapon, rank, unit, n)


def residue_at_turn_end(work: Work, strike: Strike) -> None:
    """L3487: at the end of the Game Turn, the models of each unit stationary in a template's
    area (under it and not moved this Game Turn)."""
    templates = active(work)
    struck: set[int] = set()
    for owner, _, weapon, mode, rank, at in templates:
        for u in list(work.units):
            t = u.uid
            if u.location is not Location.TABLE or not _strikes(work, owner, mode, t):
                continue
            live = [i for i in u.present() if u.hp[i] > 0 and not u.moved[i]]
            if not live:
                continue
            mask = under(at, work.xy(t, live), work.info(t).radius)
            n = int(mask.sum())
            if n:
                _strike(work, strike, owner, weapon, rank, t, n)
                struck.add(t)
    for t in sorted(struck):
        _remove_fallen(work, t)


def _remove_fallen(work: Work, uid: int) -> None:
    """The casualties of the end-of-turn strikes are removed at once, and the unit restores
    its Coherency (§4.2 IV): at the end of a Game Turn nothing else would remove them (as for
    Bleed and Burn, ``perk_turn``; the Advanced run of session 26, game 523, left two fallen
    models standing out of Coherency)."""
    from warbench.rulesets.warsurge.game.casualties import remove_models, restore_coherency

    u = work.units[uid]
    dead = [i for i in u.present() if u.hp[i] <= 0]
    if u.location is not Location.TABLE or not dead:
        return
    remove_models(work, uid, dead, "a template left on the battlefield")
    if work.units[uid].living():
        restore_coherency(work, uid)


def register_hooks(reg: HookRegistry, strike: Strike) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``,
    which passes ``perk_mode._strike``); the end-of-turn strikes come first, before the
    statuses' turns run out."""

    def moved(work: Work, unit: int, dash: bool, distance: float) -> None:
        on_after_move(work, strike, unit)

    def turn_end(work: Work, turn: int) -> None:
        residue_at_turn_end(work, strike)

    reg.register(Hook.TURN_START, vortex_at_turn_start, "Vortex (travels as it becomes active)")
    reg.register(Hook.AFTER_MOVE, moved, "Residue, Vortex (Movement through the area)")
    reg.register(Hook.TURN_END, turn_end, "Residue, Vortex (stationary models)", first=True)
