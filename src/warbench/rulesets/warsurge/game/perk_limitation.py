"""Weapon Perks of lane b (issue 11): Malfunction I/II (Limitation, Perks
000_94ecc6a4c74d351b.txt L3110, L3122) and HP Steal (Enhancement, L2977). The ``weapon faults``
and ``hp steal`` machineries of the effects table.

* **Malfunction I/II** (L3110): "If half or more of the Weapon's Attack Dice result in 1, or if at
  least five 1's are rolled in a single Attack Sequence by the Malfunction Weapon, the Weapon
  cannot be used in the next Game Turn" (II: "will be destroyed at the end of the Game Turn and
  can no longer be used for the entire game"). "Requires a minimum of 3 Attacks on the Weapon".
  The 1s are read from the Attack Dice the kernel rolled for the Weapon's share of the Attack
  (the step's dice log, :class:`~warbench.kernel.dice.BatchRollEvent` ``"Attack Dice"``);
  rulings "perks in play: lane b, session 4".
* **HP Steal** (L2977): "Each time this Weapon causes HP Loss to a Target … it restores that
  amount of HP to the User immediately, up to 1/3 of the User's maximum HP" (rounded up, per
  Attack, whatever the number of HP Steal Weapons). The Absorb shield at full HP is not in play
  (docs/rulings.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from warbench.kernel.dice import BatchRollEvent, Dice
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.perk_index import looted_perks, taken_perks, weapon_perks
from warbench.rulesets.warsurge.game.state import unit_max_hp

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

#: ``perk_hooks.restore_hp`` (passed in: this module may not import ``perk_hooks``).
Restore = Callable[["Work", int, int], int]

MALFUNCTION = {"Malfunction I": "L3110", "Malfunction II": "L3122"}
HP_STEAL = "HP Steal"
BOOK = "000_94ecc6a4c74d351b.txt"

#: Counters: the Game Turn a Weapon malfunctioned (I: unusable the next Game Turn) or is
#: destroyed at the end of (II).
JAMMED = "malfunction "
DESTROYED = "destroyed "
#: Counters: the step (plus one) of the Attack whose HP Steal is counted, and the HP restored.
STEAL_STEP = "hp steal step"
STOLEN = "hp steal"


@dataclass(frozen=True)
class _Index:
    faulty: frozenset[tuple[int, str]]  # (uid, weapon) with Malfunction I or II
    stealers: frozenset[tuple[int, str]]  # (uid, weapon) with HP Steal
    units: frozenset[int]
    counters: dict[int, tuple[str, ...]]  # uid → its Counter Weapons (``perk_counter``)
    self_destruct: dict[int, tuple[str, ...]]  # uid → its Self-Destruct Weapons
    kamikaze: frozenset[int]  # units with Kamikaze (``perk_counter``)
    upheaval: dict[int, tuple[str, ...]]  # uid → its Upheaval Weapons (``perk_counter``)


@per_setup
def index(setup: GameSetup) -> _Index:
    """The weapons of ``setup`` with Malfunction or HP Steal (computed once per set-up)."""
    faulty, stealers = set(), set()
    counters: dict[int, tuple[str, ...]] = {}
    bombs: dict[int, tuple[str, ...]] = {}
    quakes: dict[int, tuple[str, ...]] = {}
    for uid, info in enumerate(setup.units):
        for wp in info.unit.weapons:
            names = set(wp.perks)
            if "Counter" in names:
                counters[uid] = (*counters.get(uid, ()), wp.name)
            if "Upheaval" in names:
                quakes[uid] = (*quakes.get(uid, ()), wp.name)
            if "Self-Destruct" in names:
                bombs[uid] = (*bombs.get(uid, ()), wp.name)
            if names & MALFUNCTION.keys() and wp.attacks >= 3:
                faulty.add((uid, wp.name))
            if HP_STEAL in names:
                stealers.add((uid, wp.name))
    units = frozenset(u for u, _ in faulty | stealers)
    crashers = frozenset(
        uid for uid, info in enumerate(setup.units) if "Kamikaze" in info.unit.profile.perks
    )
    out = _Index(frozenset(faulty), frozenset(stealers), units, counters, bombs, crashers, quakes)
    return out


def held(work: Work, uid: int, perk: str, listed: tuple[str, ...]) -> tuple[str, ...]:
    """``listed`` (``uid``'s set-up Weapons with ``perk``, from :func:`index`) and the Loot
    Weapons it picked up that have ``perk`` (s38-loot)."""
    if perk not in looted_perks(work.setup) or not work.units[uid].statuses:
        return listed
    extra = tuple(w for w, ps in taken_perks(work, uid) if perk in ps)
    return (*listed, *extra) if extra else listed


def looted(work: Work, uid: int, weapon: str, perk: str) -> bool:
    """Whether ``weapon`` is a Loot Weapon ``uid`` picked up that has ``perk`` (L3090: it keeps
    its Perks; :func:`index` lists the set-up's Weapons; issue 10, session 38, s38-loot)."""
    if perk not in looted_perks(work.setup) or not work.units[uid].statuses:
        return False
    return perk in weapon_perks(work, uid, weapon)


def _faulty(work: Work, idx: _Index, uid: int, weapon: str) -> bool:
    """Whether ``uid``'s ``weapon`` has Malfunction I or II and 3 Attacks or more: a Weapon of
    the set-up's :func:`index`, or a Loot Weapon it picked up (s38-loot)."""
    if (uid, weapon) in idx.faulty:
        return True
    if not any(looted(work, uid, weapon, rank) for rank in MALFUNCTION):
        return False
    return bool(work.info(uid).unit.weapon(weapon).attacks >= 3)


def _rank(work: Work, uid: int, weapon: str) -> str:
    perks = next(wp.perks for wp in work.info(uid).unit.weapons if wp.name == weapon)
    return "Malfunction II" if "Malfunction II" in perks else "Malfunction I"


def weapon_refusal(work: Work, uid: int, weapon: str) -> str | None:
    """Why ``weapon`` may not be used now because it malfunctioned (Malfunction I: on the Game
    Turn after; II: from the end of that Game Turn on), or because it fires only on its own
    (Counter, Self-Destruct: ``perk_counter``), or ``None``."""
    idx = index(work.setup)
    if weapon in held(work, uid, "Counter", idx.counters.get(uid, ())):
        return (
            f"{weapon} is used only against the first enemy Unit to inflict HP Loss on its "
            f"User in a Game Turn (Counter, {BOOK} L3062)"
        )
    if weapon in held(work, uid, "Self-Destruct", idx.self_destruct.get(uid, ())):
        return f"{weapon} is used only when its Wielder is a casualty (Self-Destruct, {BOOK} L3156)"
    if not _faulty(work, idx, uid, weapon):
        return None
    u = work.units[uid]
    turn = work.flow.turn
    gone = u.counter(DESTROYED + weapon)
    if gone and turn > gone:
        return (
            f"{weapon} was destroyed at the end of Game Turn {gone} (Malfunction II, {BOOK} L3122)"
        )
    jammed = u.counter(JAMMED + weapon)
    if jammed and turn == jammed + 1:
        return (
            f"{weapon} malfunctioned on Game Turn {jammed}: it cannot be used in this Game Turn "
            f"(Malfunction I, {BOOK} L3110)"
        )
    return None


#: How far each step's dice log has been read (a weapon's share is the dice after the last).
_READ: WeakKeyDictionary[Dice, int] = WeakKeyDictionary()


def _new_attack_dice(dice: Dice) -> Iterator[BatchRollEvent]:
    start = _READ.get(dice, 0)
    log = dice.log
    _READ[dice] = len(log)
    for ev in log[start:]:
        if isinstance(ev, BatchRollEvent) and ev.label.startswith("Attack Dice"):
            yield ev


def ones_rolled(dice: Dice) -> tuple[int, int, int]:
    """(Attack Dice rolled, 1s among them, 1s in every Attack Dice roll including later
    stages and rerolls) since the last call for these dice."""
    n = ones = all_ones = 0
    for ev in _new_attack_dice(dice):
        k = int((ev.faces == 1).sum())
        all_ones += k
        if ev.label == "Attack Dice":
            n += len(ev.faces)
            ones += k
    return n, ones, all_ones


def on_weapon_used(work: Work, unit: int, weapon: str, target: int) -> None:
    """After a Weapon's share of an Attack: Malfunction's Auto Test on its Attack Dice."""
    idx = index(work.setup)
    if not idx.faulty and not looted_perks(work.setup) & MALFUNCTION.keys():
        return
    if not _faulty(work, idx, unit, weapon):
        _READ[work.dice] = len(work.dice.log)
        return
    n, ones, all_ones = ones_rolled(work.dice)
    if not n or (2 * ones < n and all_ones < 5):
        return
    rank = _rank(work, unit, weapon)
    turn = work.flow.turn
    key = (DESTROYED if rank == "Malfunction II" else JAMMED) + weapon
    work.units[unit] = work.units[unit].with_counter(key, turn)
    work.dirty = True
    what = (
        "it is destroyed at the end of the Game Turn"
        if rank == "Malfunction II"
        else "it cannot be used in the next Game Turn"
    )
    work.emit(
        "perk",
        f"{work.label(unit)}'s {weapon} malfunctions ({ones} of {n} Attack Dice rolled 1, "
        f"{all_ones} 1s in all): {what}",
        f"{rank}, {BOOK} {MALFUNCTION[rank]}",
        unit=unit,
        perk=rank,
        weapon=weapon,
    )


def hp_steal(
    work: Work, amount: int, source: str, attacker: int | None, restore_hp: Restore
) -> None:
    """HP Steal: the HP Loss an HP Steal Weapon causes restored to its User (``restore_hp``:
    ``perk_hooks.restore_hp``, casualty models returning), up to a third of its maximum HP
    (rounded up) in one Attack."""
    if attacker is None:
        return
    if (attacker, source) not in index(work.setup).stealers and not looted(
        work, attacker, source, HP_STEAL
    ):
        return
    info = work.info(attacker)
    u = work.units[attacker]
    cap = -(-unit_max_hp(info, u) // 3)
    step = work.step + 1
    so_far = u.counter(STOLEN) if u.counter(STEAL_STEP) == step else 0
    want = min(amount, cap - so_far)
    if want <= 0 or not u.living():
        return
    got = restore_hp(work, attacker, want)
    work.units[attacker] = (
        work.units[attacker].with_counter(STEAL_STEP, step).with_counter(STOLEN, so_far + got)
    )
    work.dirty = True
    if got:
        work.emit(
            "perk",
            f"{work.label(attacker)} steals {got} HP with {source} (HP Steal, up to {cap})",
            f"HP Steal, {BOOK} L2977",
            unit=attacker,
            perk=HP_STEAL,
            restored=got,
        )


def register_hooks(reg: HookRegistry, restore_hp: Restore) -> None:
    """Register this module's hooks (called by :func:`.perk_aeonian.register_hooks`)."""

    def on_hp_lost(work: Work, unit: int, amount: int, source: str, attacker: int | None) -> None:
        hp_steal(work, amount, source, attacker, restore_hp)

    reg.register(Hook.WEAPON_USED, on_weapon_used, "Malfunction I/II", perks=MALFUNCTION)
    # only the set-up's HP Steal Weapons (``index``; issue 10, session 34)
    reg.register(Hook.HP_LOST, on_hp_lost, "HP Steal", perks=[HP_STEAL])
