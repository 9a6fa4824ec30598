"""Doppelganger I/II in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Transformation,
L2386-L2416).

    "Doppelganger I — Activate, Point Cost (Lesser), Radius (18"), Limited Use (1). The User can
    Target and become another Unit for the rest of the game, mimicking their Stats, Weapons,
    Perks (but retains Doppelganger), current number of models and HP in the Target's current
    state. The User remains as an enemy Unit to the player it copies. The User can Target any
    Unit within 18" that is currently worth equal to or less than the User's Current Point Cost
    and in line of sight. The User cannot discard their new form once changed. The User cannot
    activate Doppelganger if they used their own Weapons in the same Game Turn."
    "Doppelganger II — … Functions as per Doppelganger I, but with the following changes:
    Standard Games: The User may copy a Unit each Game Turn. Advanced Games: The User may copy a
    Unit every time it selects the 'Use Perks' Action."

* **The forms** are units of the set-up (``perk_doppel_units``), held out of the game from the
  first Game Turn (:func:`hold_copies`; the state's ``destroyed`` location and Form's counter
  ``HELD``), worth nothing until taken.
* **The use** ``UsePerks(user, ("Doppelganger I: <n>",))``, ``<n>`` the Target's unit id, the
  player's decision (the engine never copies by itself): the Target is another roster unit on
  the Battlefield, whose closest model is within 18" of the User's, that some model of the User
  sees (§5.4), whose Current Point Cost is no more than the User's; not if the User used a
  Weapon this Game Turn. Doppelganger I: once a game; Doppelganger II: once each Game Turn
  (Advanced: at each Use Perks Action, as every perk there).
* **The copy** (:func:`become`) takes the User's place as Form's linked profile does
  (``perk_form``): its standing models (as many as the Target's now, each with the HP of the
  Target's model) stand where the User's stood, then next to them in Coherency (a base that does
  not fit refuses the use); it keeps the User's Melees, Movement and actions this Game Turn, its
  Weapons' Game Turn, its negative statuses (the Affliction family) and the uses of its
  Doppelganger; the User (or its previous form) is held and never comes back ("cannot discard
  their new form"). The copy is on the User's side ("remains as an enemy Unit to the player it
  copies") and its Game Turns on the Battlefield count from this one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game import perk_form
from warbench.rulesets.warsurge.game.advstate import Playstyle
from warbench.rulesets.warsurge.game.perk_doppel_units import RANKS, copies
from warbench.rulesets.warsurge.game.perk_form import HELD
from warbench.rulesets.warsurge.game.state import HP_DOUBLED, Location

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.hooks import HookRegistry
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "RADIUS",
    "RANKS",
    "TAKEN",
    "become",
    "hold_copies",
    "options",
    "refused",
    "register_hooks",
]

RADIUS = 18.0


def _rule(rank: str) -> str:
    return f"Perks §12.4 {rank} (000_94ecc6a4c74d351b.txt L{RANKS[rank]})"


#: The counter of a form a Doppelganger has taken (never held again by :func:`hold_copies`).
TAKEN = "doppelganger form"


def hold_copies(work: Work, turn: int) -> None:
    """As each Game Turn starts: every form a Doppelganger may take and has not taken is held
    out of the game (it is a unit of the set-up only so that its profile can be read)."""
    table = copies(work.setup)
    if not table:
        return
    for c in sorted({c for forms in table.values() for c in forms.values()}):
        u = work.units[c]
        if u.counter(HELD) or u.counter(TAKEN) or u.location is not Location.RESERVE:
            continue
        work.units[c] = u.with_counter(HELD, 1)
        work.dirty = True
        work.set_unit(c, location=Location.DESTROYED)


def _sees(work: Work, uid: int, target: int) -> bool:
    """Some model of ``uid`` sees some model of ``target`` (§5.4 line of sight)."""
    from warbench.rulesets.warsurge.game.bases import sees

    return sees(work, uid, target)  # oval and rectangular bases with their outline (§1.3)


def _target(work: Work, uid: int, option: str) -> int | None:
    text = option.strip()
    if text.isdigit():
        return int(text)
    for info in work.setup.units:
        if text in (info.label, info.label.partition(": ")[2]):
            return info.uid
    return None


def refused(work: Work, uid: int, rank: str, option: str) -> str | None:
    """Why ``uid`` may not copy the unit ``option`` (its unit id) now, or ``None``."""
    from warbench.rulesets.warsurge.game.perk_psych import perk_refusal
    from warbench.rulesets.warsurge.game.perk_turn import WEAPONS_TURN
    from warbench.rulesets.warsurge.game.work import current_value

    u = work.units[uid]
    forms = copies(work.setup).get(uid)
    if forms is None:
        return f"{work.label(uid)} has no form to take ({_rule(rank)})"
    if u.location is not Location.TABLE or not u.living():
        return f"{work.label(uid)} is not on the battlefield (§12.2: the User uses its perks)"
    if rank == "Doppelganger I" and u.used(rank):
        return f"{work.label(uid)} has used {rank} (Limited Use (1), {_rule(rank)})"
    standard = work.setup.playstyle is not Playstyle.ADVANCED  # Advanced: each Use Perks (L2414)
    if standard and u.counter(f"used {rank}") == work.flow.turn:
        return f"{rank} was already used this Game Turn (§12.2 L227; {_rule(rank)})"
    if u.counter(WEAPONS_TURN) == work.flow.turn:
        return f"{work.label(uid)} used its own Weapons this Game Turn ({_rule(rank)})"
    if u.statuses and any(s.name == "Paralysis" for s in u.statuses):
        return f"{work.label(uid)} is Paralysed: it may not use any Perks this Game Turn (L2790)"
    if (why := perk_refusal(work, uid, rank)) is not None:
        return why
    if not option:
        return f"{rank} names the Target to copy, by its unit id ({_rule(rank)})"
    target = _target(work, uid, option)
    if target is None or target not in forms:
        return f"{option!r} is not a unit {work.label(uid)} may copy ({_rule(rank)})"
    if not work.standing(target):
        return f"{work.label(target)} is not on the battlefield ({_rule(rank)})"
    if work.gap(uid, target) > RADIUS + 1e-9:
        return f'{work.label(target)} is not within {RADIUS:g}" ({_rule(rank)})'
    if current_value(work, target) > current_value(work, uid) + 1e-9:
        return (
            f"{work.label(target)} is worth more than {work.label(uid)}'s Current Point Cost "
            f"(Point Cost (Lesser), L321; {_rule(rank)})"
        )
    if not _sees(work, uid, target):
        return f"{work.label(target)} is not in line of sight ({_rule(rank)})"
    if work.passengers(uid) or u.terrain is not None:
        return f"{work.label(uid)} carries passengers or is inside a terrain piece ({rank})"
    new = forms[target]
    if new == uid:
        return f"{work.label(uid)} has {work.label(target)}'s form already ({_rule(rank)})"
    if perk_form._placement(work, uid, new, len(work.units[target].living())) is None:
        return f"{work.label(new)}'s models do not fit where {work.label(uid)} stands ({rank})"
    return None


def options(work: Work, uid: int, rank: str) -> list[str]:
    """The unit ids ``uid`` may copy now."""
    forms = copies(work.setup).get(uid, {})
    return [str(t) for t in sorted(forms) if refused(work, uid, rank, str(t)) is None]


def become(work: Work, uid: int, rank: str, option: str) -> None:
    """The copy (:func:`refused` checked by the caller): the Target's form takes the User's
    place, with the Target's standing models and their HP; the User is held for good."""
    from warbench.rulesets.warsurge.game import perk_ascension, perk_turn

    target = _target(work, uid, option)
    assert target is not None
    new = copies(work.setup)[uid][target]
    old = work.units[uid]
    model = work.units[target]
    standing = model.living()
    spots = perk_form._placement(work, uid, new, len(standing))
    assert spots is not None
    n = work.info(new).models
    pos = [spots[0]] * n
    hp = [0] * n
    for i, s in zip(standing, spots, strict=True):
        pos[i], hp[i] = s, model.hp[i]
    turn = work.flow.turn
    u = work.units[new].with_counter(HELD, 0).with_counter(HP_DOUBLED, model.counter(HP_DOUBLED))
    u = u.with_counter(f"used {rank}", turn).with_counter(perk_turn.ARRIVED, 0)
    u = u.with_counter(perk_ascension.TURNS, 0).with_counter(TAKEN, 1)
    u = u.with_counter(perk_turn.WEAPONS_TURN, old.counter(perk_turn.WEAPONS_TURN))
    for name in ("Doppelganger I", "Doppelganger II"):
        for _ in range(old.used(name) - u.used(name)):
            u = u.with_use(name)
    work.units[new] = u.with_use(rank)
    perk_form.take_place(work, uid, new, pos, hp)
    work.emit(
        "perk",
        f"{work.label(uid)} becomes a copy of {work.label(target)} ({rank}): "
        f"{sum(hp)} HP, {len(standing)} models",
        _rule(rank),
        unit=uid,
        target=target,
        form=new,
        perk=rank,
    )


def register_hooks(reg: HookRegistry) -> None:
    from warbench.rulesets.warsurge.game.hooks import Hook

    reg.register(Hook.TURN_START, hold_copies, "Doppelganger: its forms held", when=copies)
