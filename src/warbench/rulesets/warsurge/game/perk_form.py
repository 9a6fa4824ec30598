"""Form I-III in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Transformation, L2418-L2440;
Linked Profile, §12.2 L299-L311).

    "Form I — Activate, Linked Profiles (2). User can be exchanged for another linked Unit that
    has Form I. Two Units are linked at the start of the game." (Form II: three, L2426; Form
    III: four, L2434)
    "Linked Profile (x): … linked … from the start of the game … their full point cost must be
    within 10% of the other linked profiles … Units that are linked must all have the same
    maximum HP, and will share current HP … Lingering negative Perk effects will remain between
    profiles. Any Unit Perk effects will deactivate when exchanging for another Unit. Perks that
    require a Unit to be on the battlefield for a Game Turn do not count if the User changes
    into a different form. When the User is a casualty, all Linked Profiles associated with that
    Unit are casualties."

* **Links** (:func:`links`): a roster lists every linked profile as a unit; its units with the
  same Form rank are linked in roster order, two by two (Form I), three by three (Form II),
  four by four (Form III). A group is linked when it is complete, every full Point Cost is
  within 10% of every other and every maximum HP is the same; otherwise its units are plain
  units (Form cannot be used, :func:`refused` says why).
* **Held** (:func:`hold_linked`, as the first Game Turn starts): the first unit of a group is
  the one in play; the others are held out of the game (the state's ``destroyed`` location and
  the counter :data:`HELD`): never deployed, worth no points, and casualties with the User (a
  held profile never comes back by itself).
* **The exchange** (:func:`exchange`, ``UsePerks(unit, ("Form I: <label>",))``, once per Game
  Turn for the group as any perk in the Standard playstyle): the linked unit takes the User's
  place: its models stand where the User's models stand (more models: next to them, in
  Coherency; a base that does not fit refuses the exchange), it has the User's current HP
  (shared; filled model by model, a model left with none is a casualty), its Melees, its
  Movement and actions this Game Turn and the User's negative statuses (the Affliction family);
  the User's other statuses end and it is held. The Game Turns it has spent on the Battlefield
  count again from this one (Powered by Pain, Escalate, Ascension). The engine never exchanges
  by itself (a player's decision; docs/rulings.md s25-transform).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.state import HP_DOUBLED, Location, model_max_hp

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["FORM", "HELD", "exchange", "hold_linked", "links", "options", "refused", "take_place"]

#: Linked Profiles (x) of each rank (L2418-L2440).
FORM = {"Form I": 2, "Form II": 3, "Form III": 4}
_LINE = {"Form I": 2418, "Form II": 2426, "Form III": 2434}
#: The counter of a linked profile held out of the game.
HELD = "form held"


def _rule(rank: str) -> str:
    return f"Perks §12.4 {rank} (000_94ecc6a4c74d351b.txt L{_LINE[rank]}; §12.2 L299)"


def _rank_of(setup: GameSetup, uid: int) -> str | None:
    from warbench.rulesets.warsurge.effects.table import load_table

    info = setup.units[uid]
    for name in (*info.unit.profile.perks, *info.traits):
        row = load_table().find(name)
        if row is not None and row.name in FORM:
            return row.name
    return None


def _linkable(setup: GameSetup, group: tuple[int, ...]) -> bool:
    """L299: "their full point cost must be within 10% of the other linked profiles … Units
    that are linked must all have the same maximum HP"."""
    infos = [setup.units[u] for u in group]
    if len({i.max_hp for i in infos}) != 1:
        return False
    return all(abs(a.points - b.points) <= 0.1 * a.points + 1e-9 for a in infos for b in infos)


@per_setup
def _links(setup: GameSetup) -> dict[int, tuple[int, ...]]:
    out: dict[int, tuple[int, ...]] = {}
    for player in range(len(setup.players)):
        mine = [u.uid for u in setup.units if u.player == player]
        for rank, n in FORM.items():
            holders = [u for u in mine if _rank_of(setup, u) == rank]
            for k in range(0, len(holders) - n + 1, n):
                group = tuple(holders[k : k + n])
                if _linkable(setup, group):
                    out.update(dict.fromkeys(group, group))
    return out


def links(setup: GameSetup) -> dict[int, tuple[int, ...]]:
    """Each linked unit → its group of linked profiles, in roster order (empty without Form)."""
    return _links(setup)


def hold_linked(work: Work, turn: int) -> None:
    """As the first Game Turn starts: every linked profile but the first of its group is held
    out of the game (L299: "linked … from the start of the game")."""
    if turn != 1:
        return
    groups = {g for g in links(work.setup).values()}
    for group in sorted(groups):
        for uid in group[1:]:
            u = work.units[uid]
            if u.counter(HELD) or u.location is not Location.RESERVE:
                continue
            work.units[uid] = u.with_counter(HELD, 1)
            work.dirty = True
            work.set_unit(uid, location=Location.DESTROYED)
        rank = _rank_of(work.setup, group[0])
        assert rank is not None
        held = ", ".join(work.label(u) for u in group[1:])
        work.emit("perk", f"{work.label(group[0])} is linked with {held} ({rank}): held",
                  _rule(rank), unit=group[0], perk=rank, linked=list(group))  # fmt: skip


def _named(work: Work, uid: int, option: str) -> int | None:
    group = links(work.setup).get(uid, ())
    for other in group:
        label = work.label(other)
        if other != uid and option.strip() in (label, label.partition(": ")[2]):
            return other
    return None


def options(work: Work, uid: int, rank: str) -> list[str]:
    """The held linked profiles ``uid`` may be exchanged for now (their roster labels)."""
    group = links(work.setup).get(uid, ())
    out = []
    for other in group:
        if other == uid:
            continue
        name = work.label(other).partition(": ")[2]
        if refused(work, uid, rank, name) is None:
            out.append(name)
    return out


def _taken(work: Work, uid: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The other bases on the table: positions, radii, and whether each is an enemy the User
    is not in a Melee with (the new profile may not come into Base Contact with it)."""
    t = work.table()
    keep = t.uid != uid
    foes = (t.side != work.info(uid).side) & ~np.isin(t.uid, work.engaged_with(uid))
    return t.xy[keep], t.r[keep], foes[keep]


def _fits(work: Work, spot: tuple[float, float], r: float, taken: tuple[np.ndarray, ...]) -> bool:
    if not work.field.spot_ok(spot, r):
        return False
    xy, rr, foes = taken
    if not len(xy):
        return True
    gap = np.sqrt(((xy - np.asarray(spot)) ** 2).sum(axis=1)) - rr - r
    return bool((gap > -2e-3).all() and (gap[foes] > 0.06).all())


def _placement(work: Work, uid: int, new: int, models: int) -> list[tuple[float, float]] | None:
    """Where the ``models`` standing models of ``new`` go: the User's standing models' spots,
    then spots next to them in Coherency; ``None`` when a base does not fit."""
    from warbench.rulesets.warsurge.game import geom

    u = work.units[uid]
    r = work.info(new).radius
    taken = _taken(work, uid)
    spots = [u.pos[i] for i in u.living()][:models]
    placed: list[tuple[float, float]] = []
    for s in spots:
        if not _fits(work, s, r, taken) or any(math.dist(s, p) < 2 * r - 2e-3 for p in placed):
            return None
        placed.append((float(s[0]), float(s[1])))
    while len(placed) < models:
        found = None
        for a in placed:
            for s in geom.ring_points(a, 2 * r + 0.2, 16):
                spot = (float(s[0]), float(s[1]))
                if _fits(work, spot, r, taken) and all(
                    math.dist(spot, p) >= 2 * r + 0.01 for p in placed
                ):
                    found = spot
                    break
            if found is not None:
                break
        if found is None:
            return None
        placed.append(found)
    return placed


def _shared_hp(work: Work, uid: int, new: int) -> list[int]:
    """L299 "will share current HP": the User's current HP, model by model into ``new``."""
    total = work.units[uid].current_hp
    per = model_max_hp(work.info(new), work.units[new].with_counter(HP_DOUBLED, 0))
    hp = []
    for _ in range(work.info(new).models):
        give = min(per, total)
        hp.append(give)
        total -= give
    return hp


def refused(work: Work, uid: int, rank: str, option: str) -> str | None:
    """Why ``uid`` may not be exchanged for the linked profile ``option`` now, or ``None``."""
    group = links(work.setup).get(uid)
    if group is None:
        n = FORM[rank]
        return (
            f"{work.label(uid)} is not linked: {rank} needs {n} units with {rank} in its roster, "
            f"full Point Costs within 10% and the same maximum HP ({_rule(rank)})"
        )
    if not option:
        names = ", ".join(work.label(o).partition(": ")[2] for o in group if o != uid)
        return f"{rank} names the linked profile to exchange for ({names}; {_rule(rank)})"
    new = _named(work, uid, option)
    if new is None:
        return f"{option!r} is not a profile linked with {work.label(uid)} ({_rule(rank)})"
    if not work.units[new].counter(HELD):
        return f"{work.label(new)} is not held ({_rule(rank)})"
    if any(s.name == "Paralysis" for s in work.units[uid].statuses):
        return f"{work.label(uid)} is Paralysed: it may not use any Perks (L2790)"
    if any(work.units[o].counter(f"used {rank}") == work.flow.turn for o in group):
        return f"{rank} was already used this Game Turn (§12.2 L227)"
    if work.passengers(uid) or work.units[uid].terrain is not None:
        return f"{work.label(uid)} carries passengers or is inside a terrain piece ({rank})"
    hp = _shared_hp(work, uid, new)
    if _placement(work, uid, new, sum(1 for h in hp if h > 0)) is None:
        return f"{work.label(new)}'s models do not fit where {work.label(uid)} stands ({rank})"
    return None


def exchange(work: Work, uid: int, rank: str, option: str) -> None:
    """The exchange (:func:`refused` checked first by the caller): ``option``'s profile takes
    the User's place and the User is held."""
    from warbench.rulesets.warsurge.game import perk_ascension, perk_turn

    new = _named(work, uid, option)
    assert new is not None
    hp = _shared_hp(work, uid, new)
    standing = sum(1 for h in hp if h > 0)
    spots = _placement(work, uid, new, standing)
    assert spots is not None
    n = work.info(new).models
    pos = [*spots, *([spots[0]] * (n - standing))]
    turn = work.flow.turn
    u = work.units[new]
    u = u.with_counter(HELD, 0).with_counter(HP_DOUBLED, 0).with_counter(f"used {rank}", turn)
    work.units[new] = u.with_counter(perk_turn.ARRIVED, 0).with_counter(perk_ascension.TURNS, 0)
    take_place(work, uid, new, pos, hp)
    work.emit(
        "perk",
        f"{work.label(uid)} is exchanged for {work.label(new)} ({rank}): "
        f"{sum(hp)} HP shared, {standing} models",
        _rule(rank),
        unit=uid,
        target=new,
        perk=rank,
    )


def take_place(
    work: Work, uid: int, new: int, pos: list[tuple[float, float]], hp: list[int]
) -> None:
    """``new`` (a held profile whose counters the caller has set) takes the User ``uid``'s
    place on the Battlefield with the models at ``pos`` and their ``hp`` (a model with none is
    a casualty): it keeps the User's Melees, its Movement and actions this Game Turn and its
    negative statuses (L299-L311); the User is held (:data:`HELD`) out of the game. Shared by
    Form's exchange and Doppelganger's copy (perk_doppelganger.py)."""
    from warbench.rulesets.warsurge.game import perk_turn

    old = work.units[uid]
    n = work.info(new).models
    negative = perk_turn._negative_statuses()
    lingering = tuple(s for s in old.statuses if s.name.partition("@")[0] in negative)
    work.units[uid] = old.with_counter(HELD, 1).with_counter(HP_DOUBLED, 0)
    work.dirty = True
    work.set_unit(uid, location=Location.DESTROYED, statuses=())
    work.set_unit(
        new,
        location=Location.TABLE,
        pos=tuple(pos),
        hp=tuple(hp),
        removed=tuple(h <= 0 for h in hp),
        moved=(any(old.moved),) * n,
        heavy=(False,) * n,
        battle=(False,) * n,
        acted=old.acted,
        unit_moved=old.unit_moved,
        unit_dashed=old.unit_dashed,
        statuses=lingering,
        embarked_in=None,
    )

    def swap(x: int) -> int:
        return new if x == uid else x

    work.engaged = {(min(swap(a), swap(b)), max(swap(a), swap(b))) for a, b in work.engaged}
    perk_turn.on_deploy(work, new)  # its Game Turns on the Battlefield count from this one
