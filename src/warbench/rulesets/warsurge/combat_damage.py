"""Combat Damage (Perks 000_94ecc6a4c74d351b.txt L1154-L1166) in the attack kernel.

"For each HP Loss the User receives, instead of applying -1 HP, roll a D6 refer to below:
1: User's Movement reduced by 50% next Game Turn (lasts one Game Turn) / 2: User's Weapons
suffer -3 Dice Modifier to Attack Dice next time User attacks / 3: Next Game Turn, User is
Immobile and can't use Weapons (lasts one Game Turn) / 4: One of the Unit's Weapon is
immediately broken for the rest of the game, chosen by Attacker / 5: -D3 HP / 6: -D6 HP.
Duplicate results of 1 to 3, or any results that will have no effect on the Unit become -1 HP
instead. The User must start the game with at least 3 HP to use this Perk."

Each HP Loss of an Attack's tally (after Tough) is one roll on the table; what a roll does
depends on what earlier rolls did (a duplicate 1-3, a 4 with no Weapon left to break), so the
HP lost for ``n`` HP Losses is a small Markov chain over (results 1-3 in effect, unbroken
Weapons, HP lost so far). :func:`loss_distributions` gives its exact distributions for the odds
engine, :func:`roll_losses` rolls it with physical dice (vectorised over trials) for Monte
Carlo and the game. docs/rulings.md "WARSURGE perks in play: session 25, w2-kernel".
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from warbench.kernel.dice import D3, D6, Dice
from warbench.rulesets.warsurge.attack import AttackContext, UnitState, _roll_expr_array

IntArray = npt.NDArray[np.int64]

RULE = "Perks L1154"
PERK = "Combat Damage"
#: the table's results that leave a status (duplicates of these become -1 HP)
STATUS_RESULTS = (1, 2, 3)
BROKEN = 4
#: the least starting HP of a User ("must start the game with at least 3 HP", L1166)
MIN_HP = 3

#: the statuses results 1-3 leave on the unit in a game (``game.perk_combat_damage``), and
#: the prefix of a Weapon broken by a 4 (``Broken@<Weapon>``, for the rest of the game)
STATUS_NAMES = {
    1: "Combat Damage (Movement)",
    2: "Combat Damage (Attack Dice)",
    3: "Combat Damage (Immobile)",
}
BROKEN_PREFIX = "Broken@"
_RESULT_OF = {name: r for r, name in STATUS_NAMES.items()}


def results_in_effect(names: Iterable[str]) -> tuple[int, ...]:
    """The table's results in effect on a unit with statuses ``names`` (a status waiting for
    the next Game Turn counts: a duplicate of it is -1 HP): 1-3 once each, a 4 per broken
    Weapon; the ``AttackContext.combat_damage`` of an attack at it."""
    out: list[int] = []
    for name in names:
        base = name.split(" (next Game Turn)")[0]
        if base in _RESULT_OF and _RESULT_OF[base] not in out:
            out.append(_RESULT_OF[base])
        elif base.startswith(BROKEN_PREFIX):
            out.append(BROKEN)
    return tuple(sorted(out))


_D3 = {v: float(p) for v, p in D3.distribution().items()}
_D6 = {v: float(p) for v, p in D6.distribution().items()}


@dataclass(frozen=True)
class CombatDamage:
    """What the table can still do to one unit.

    ``active``: results 1-3 whose status is waiting or lasting (a duplicate is -1 HP);
    ``weapons``: its Weapon profiles not yet broken; ``mobile``: it has a Move or Dash that
    result 1 or 3 can take away.
    """

    active: frozenset[int] = frozenset()
    weapons: int = 0
    mobile: bool = True

    def effective(self, result: int) -> bool:
        """Whether ``result`` (1-4) has an effect; otherwise it is -1 HP (L1164)."""
        if result in STATUS_RESULTS and result in self.active:
            return False
        if result == 1:
            return self.mobile
        if result == 2:
            return self.weapons > 0
        if result == 3:
            return self.mobile or self.weapons > 0
        return self.weapons > 0  # 4: a Weapon to break

    def after(self, result: int) -> CombatDamage:
        """The state once an effective ``result`` (1-4) has been applied."""
        if result == BROKEN:
            return CombatDamage(self.active, self.weapons - 1, self.mobile)
        return CombatDamage(self.active | {result}, self.weapons, self.mobile)


def applies(target: UnitState) -> bool:
    """The Target has Combat Damage and started the game with at least 3 HP (L1166: its full
    HP, every model at full HP)."""
    return target.perks.has(PERK) and target.max_hp >= MIN_HP


def carried_weapons(target: UnitState) -> list[str]:
    """The Target's Weapon profiles carried by a model on the table, in profile order."""
    carried = {w for i in target.on_table for w in target.models[i].weapons}
    return [w for w in target.weapons if w in carried]


def state_of(target: UnitState, ctx: AttackContext) -> CombatDamage:
    """The table's state for ``target`` before this attack: ``ctx.combat_damage`` lists the
    results already in effect on it (1-3 waiting or lasting, one 4 per broken Weapon)."""
    broken = sum(1 for r in ctx.combat_damage if r == BROKEN)
    return CombatDamage(
        frozenset(r for r in ctx.combat_damage if r in STATUS_RESULTS),
        max(0, len(carried_weapons(target)) - broken),
        target.profile.move > 0 or target.profile.dash > 0,
    )


def free_rolls(state: CombatDamage) -> int:
    """How many rolls may cost no HP at most (results 1-3 not yet in effect, and one 4 per
    unbroken Weapon): every HP Loss past these and the HP costs at least 1 HP."""
    return len(set(STATUS_RESULTS) - state.active) + state.weapons


def loss_distributions(events: int, state: CombatDamage, cap: int) -> list[dict[int, float]]:
    """For ``n`` = 0 … ``events`` HP Losses, the exact distribution of the HP lost (capped at
    ``cap``): one D6 on the table per HP Loss, in order."""
    chain: dict[tuple[CombatDamage, int], float] = {(state, 0): 1.0}
    out = [{0: 1.0}]
    for _ in range(events):
        nxt: dict[tuple[CombatDamage, int], float] = defaultdict(float)
        for (st, hp), p in chain.items():
            if hp >= cap:  # nothing more to lose: the rest of the table does not matter
                nxt[(st, hp)] += p
                continue
            for r in (1, 2, 3, 4):
                if st.effective(r):
                    nxt[(st.after(r), hp)] += p / 6
                else:
                    nxt[(st, min(cap, hp + 1))] += p / 6
            for dist in (_D3, _D6):
                for v, q in dist.items():
                    nxt[(st, min(cap, hp + v))] += p / 6 * q
        chain = nxt
        marginal: dict[int, float] = defaultdict(float)
        for (_st, hp), p in chain.items():
            marginal[hp] += p
        out.append(dict(marginal))
    return out


def roll_losses(
    events: IntArray, state: CombatDamage, cap: int, dice: Dice
) -> tuple[IntArray, tuple[int, ...]]:
    """Roll the table for every trial at once (``events[i]`` HP Losses in trial ``i``); the HP
    lost per trial (capped at ``cap``) and the effective results 1-4 of trial 0, in order (the
    game's single trial). Rolls stop once a trial has nothing more to lose."""
    n = events.size
    hp = np.zeros(n, dtype=np.int64)
    active = np.zeros((n, 4), dtype=bool)  # columns 1-3 used
    for r in state.active:
        active[:, r] = True
    weapons = np.full(n, state.weapons, dtype=np.int64)
    mobile = state.mobile
    results: list[int] = []
    for k in range(int(events.max(initial=0))):
        live = np.flatnonzero((events > k) & (hp < cap))
        if not live.size:
            break
        faces = dice.d6_array(live.size, "Combat Damage").astype(np.int64)
        loss = np.zeros(live.size, dtype=np.int64)
        w = weapons[live]
        for r in (1, 2, 3):
            hit = faces == r
            can = ~active[live, r]
            if r == 1:
                can &= mobile
            elif r == 2:
                can &= w > 0
            else:
                can &= mobile | (w > 0)
            took = hit & can
            active[live[took], r] = True
            loss[hit & ~can] = 1
        four = faces == BROKEN
        weapons[live[four & (w > 0)]] -= 1
        loss[four & (w <= 0)] = 1
        for face, expr in ((5, D3), (6, D6)):
            rolled = np.flatnonzero(faces == face)
            if rolled.size:
                loss[rolled] = _roll_expr_array(expr, rolled.size, dice, f"Combat Damage {face}")
        if live[0] == 0 and loss[0] == 0:
            results.append(int(faces[0]))
        hp[live] = np.minimum(cap, hp[live] + loss)
    return hp, tuple(results)
