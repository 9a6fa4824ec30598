"""Combat Damage in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Aeonian, L1154-L1166).

The attack kernel rolls the table for each HP Loss of an Attack at the User (it is part of
``odds.roll_attack``, so every share of an Attack, Furious, Mode templates and Heal read it;
:mod:`warbench.rulesets.warsurge.combat_damage`) and returns the results that took effect.
This module puts them on the unit (:func:`after_share`, called by ``attacks._attack_steps``):

* **1** "User's Movement reduced by 50% next Game Turn (lasts one Game Turn)": the status
  ``Combat Damage (Movement)``, Move and Dash halved, waiting for the next Game Turn.
* **2** "User's Weapons suffer -3 Dice Modifier to Attack Dice next time User attacks": the
  status ``Combat Damage (Attack Dice)``, -3 to its Attack Dice until the end of its next
  Attack (:func:`attack_done`).
* **3** "Next Game Turn, User is Immobile and can't use Weapons (lasts one Game Turn)": the
  status ``Combat Damage (Immobile)`` (Move and Dash 0, no Weapons: :func:`refusal`).
* **4** "One of the Unit's Weapon is immediately broken for the rest of the game, chosen by
  Attacker": the status ``Broken@<Weapon>`` (no model uses it again, :func:`refusal`); the
  engine's choice for the attacker is the unbroken Weapon carried by the most models, the first
  listed on a tie.

While a status of 1-3 waits or lasts, the same result is a duplicate (-1 HP); the attack at the
unit reads them back from its statuses (``perk_effects.status_dice`` →
``AttackContext.combat_damage``). Rulings: docs/rulings.md "session 25, w2-kernel".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from warbench.rulesets.warsurge.attack import AttackContext
from warbench.rulesets.warsurge.combat_damage import (
    BROKEN,
    BROKEN_PREFIX,
    STATUS_NAMES,
    applies,
    carried_weapons,
    results_in_effect,
    roll_losses,
    state_of,
)
from warbench.rulesets.warsurge.effects.statuses import Marker, add_marker
from warbench.rulesets.warsurge.game.perk_effects import markers_of, statuses_of
from warbench.rulesets.warsurge.game.work import to_unit_state

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import Status
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["after_share", "attack_done", "in_effect", "refusal", "table_loss"]

RULE = "Perks §12.4 Combat Damage (000_94ecc6a4c74d351b.txt L1154)"
_TEXT = {
    1: "Movement halved next Game Turn",
    2: "-3 Dice Modifier to its Attack Dice the next time it attacks",
    3: "Immobile and no Weapons next Game Turn",
}


def after_share(w: Work, target: int, attacker: int | None, results: Sequence[int]) -> None:
    """Put the effective table results of one share of an Attack on ``target`` (``attacker``
    ``None``: HP lost outside an Attack, :func:`table_loss`)."""
    if not results:
        return
    markers = list(markers_of(w.units[target].statuses))
    source = f"u{target}/Combat Damage"
    said: list[str] = []
    for r in results:
        if r == BROKEN:
            weapon = _weapon_to_break(w, target, markers)
            if weapon is None:  # the kernel only lets a 4 take effect with a Weapon left
                continue
            markers = list(add_marker(markers, Marker(BROKEN_PREFIX + weapon, source, None)))
            said.append(f"4: {weapon} is broken for the rest of the game")
            continue
        name = STATUS_NAMES[r]
        # 2 lasts until it attacks; 1 and 3 wait for the next Game Turn and last one
        marker = Marker(name, source, None) if r == 2 else Marker(name, source, 1, delay=1)
        markers = list(add_marker(markers, marker))
        said.append(f"{r}: {_TEXT[r]}")
    w.set_unit(target, statuses=statuses_of(markers))
    w.emit(
        "perk",
        f"{w.label(target)}: Combat Damage rolls " + "; ".join(said),
        RULE,
        unit=target,
        perk="Combat Damage",
        attacker=attacker,
        results=list(results),
    )


def _weapon_to_break(w: Work, target: int, markers: Sequence[Marker]) -> str | None:
    """The attacker's choice (the engine's): the unbroken Weapon carried by the most of the
    Target's models on the table, the first listed on a tie."""
    st = to_unit_state(w, target)
    broken = {m.name[len(BROKEN_PREFIX) :] for m in markers if m.name.startswith(BROKEN_PREFIX)}
    best: tuple[int, str] | None = None
    for weapon in carried_weapons(st):
        if weapon in broken:
            continue
        n = sum(1 for i in st.on_table if weapon in st.models[i].weapons)
        if best is None or n > best[0]:
            best = (n, weapon)
    return None if best is None else best[1]


def refusal(statuses: Sequence[Status], label: str, weapon: str) -> str | None:
    """Why a unit with ``statuses`` may not use ``weapon`` (a 3 lasting, or ``weapon``
    broken by a 4), or ``None``."""
    for s in statuses:
        if s.name == STATUS_NAMES[3]:
            return (
                f"{label} is Immobile and can't use Weapons this Game Turn "
                f"(Combat Damage 3, {RULE})"
            )
        if s.name == BROKEN_PREFIX + weapon:
            return f"{weapon} is broken for the rest of the game (Combat Damage 4, {RULE})"
    return None


def attack_done(w: Work, uid: int) -> None:
    """The end of an Attack by ``uid``: a 2 lasting on it is spent ("next time User attacks")."""
    statuses = w.units[uid].statuses
    if not statuses or not any(s.name == STATUS_NAMES[2] for s in statuses):
        return
    w.set_unit(uid, statuses=tuple(s for s in statuses if s.name != STATUS_NAMES[2]))


def table_loss(w: Work, uid: int, amount: int) -> int:
    """HP lost without Saves outside an Attack (Bleed, Burn, Poison, Plague, an Aether
    backlash: ``perk_turn.lose_hp``): "For each HP Loss the User receives" the table is rolled
    (its statuses put on the unit); the HP the unit loses. ``amount`` unchanged without it."""
    if amount <= 0:
        return amount
    st = to_unit_state(w, uid)
    if not applies(st):
        return amount
    done = results_in_effect(s.name for s in w.units[uid].statuses)
    state = state_of(st, AttackContext(combat_damage=done))
    hp, results = roll_losses(np.array([amount], dtype=np.int64), state, st.current_hp, w.dice)
    after_share(w, uid, None, results)
    return int(hp[0])


def in_effect(w: Work, target: int, ctx: AttackContext) -> AttackContext:
    """``ctx`` of an Attack Sequence at ``target`` with the table's results in effect on it
    (for the sequences that do not read the statuses' Dice Modifiers: Furious, Bodyguard's
    followed-on dice, Decoy III, Kamikaze, Ignite, Nightmare Anomaly, Dangerous Ground)."""
    statuses = w.units[target].statuses
    if not statuses:
        return ctx
    done = results_in_effect(s.name for s in statuses)
    return replace(ctx, combat_damage=done) if done else ctx
