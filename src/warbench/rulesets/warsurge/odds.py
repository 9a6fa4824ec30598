"""Exact odds of a WARSURGE attack, and Monte Carlo with the same kernel.

``exact_attack`` answers "what happens if this unit attacks that one": the full distribution
of HP lost by the target (and by the attacker, from Volatile, Retaliate, Darkside …), models
slain, the chance of wiping the unit. It enumerates the rolls made once per weapon use with
:func:`~warbench.kernel.dice.enumerate_outcomes` around :func:`compile_weapon_use` (the very
function the game calls), and for the Attack Dice it computes the exact distribution of one
:class:`DieProgram` and adds up ``n`` independent dice by dynamic programming. Values beyond
what the target can lose are absorbed at a cap, so the work stays small.

``sample_attack`` runs the same sequence with physical dice (vectorised over trials) for the
Monte Carlo cross-check and for the cases where enumeration would explode.
"""

from __future__ import annotations

import bisect
import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from warbench.kernel.dice import D3, Dice, DiceExpr, SeededDice, enumerate_outcomes
from warbench.kernel.errors import EnumerationTooLarge, RulesError
from warbench.rulesets.warsurge import combat_damage
from warbench.rulesets.warsurge.attack import (
    AttackContext,
    DiceOutcome,
    DieProgram,
    Playstyle,
    Retaliation,
    SaveSpec,
    UnitState,
    WeaponUse,
    _attack_rolls,
    _roll_expr_array,
    _save_list,
    _save_rolls,
    can_attack_with,
    casualty_order,
    compile_key,
    compile_weapon_use,
    deathblow_after,
    gravity_after,
    sample_dice,
    sample_one_ints,
    sample_self_saves,
    save_upgrades,
    tough_total,
    weapon_refusal,
)

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Dist = dict[int, float]

# --------------------------------------------------------------------------------------------
# The attack as a whole: who shoots, which models can be hit
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackPlan:
    """One attacking unit's sequence against one target (Attack Steps 1-6, §5.2).

    ``weapons``: weapon profile names in the order they are resolved (default: every profile
    carried). ``users``: how many models use each weapon (default: every model carrying it;
    in a Standard game casualties not yet removed still attack, §5.11).
    """

    attacker: UnitState
    target: UnitState
    context: AttackContext = field(default_factory=AttackContext)
    weapons: tuple[str, ...] = ()
    users: tuple[tuple[str, int], ...] = ()
    casualty_preference: tuple[int, ...] = ()

    def weapon_order(self) -> list[str]:
        """The weapon profiles that attack, in order.

        Given ``weapons`` are used as given (the game and the caller decide); otherwise every
        profile carried by a model on the table that can make this kind of attack: in a Melee
        those that may strike there, otherwise those that can shoot (:func:`weapon_refusal`,
        §5.8-5.9). :meth:`verify_weapons` says why when none can.
        """
        if self.weapons:
            for w in self.weapons:
                if w not in self.attacker.weapons:
                    from warbench.kernel.errors import UnknownNameError

                    raise UnknownNameError(
                        "weapon", w, list(self.attacker.weapons), where=self.attacker.profile.name
                    )
            return list(self.weapons)
        return [
            w for w in self._carried() if can_attack_with(self.attacker.weapons[w], self.context)
        ]

    def _carried(self) -> list[str]:
        carried = {w for i in self.attacker.on_table for w in self.attacker.models[i].weapons}
        return [w for w in self.attacker.weapons if w in carried]

    def unused_weapons(self) -> list[tuple[str, str]]:
        """Carried weapon profiles that do not attack, each with the reason (§5.8-5.9)."""
        order = set(self.weapon_order())
        out = []
        for w in self._carried():
            if w not in order:
                why = weapon_refusal(self.attacker.weapons[w], self.context)
                out.append((w, why or "not chosen"))
        return out

    def verify_weapons(self) -> list[str]:
        """:meth:`weapon_order`, or a :class:`RulesError` naming the unit, the rule and what
        would work when no weapon can make this attack (or a chosen one cannot)."""
        order = self.weapon_order()
        unit = self.attacker.profile.name
        kind = "in a Melee" if self.context.melee else "outside a Melee"
        twice = sorted({w for w in order if order.count(w) > 1})
        if twice:  # §5.2 Steps 1 and 6 (001 L2289-2308): each profile is resolved once
            raise RulesError(
                f"{unit}: {', '.join(twice)} chosen more than once; each Weapon profile attacks "
                f"once in an Attack Sequence (choose each once: {', '.join(dict.fromkeys(order))})",
                "Core Rules §5.2",
            )
        for w in order if self.weapons else ():
            why = weapon_refusal(self.attacker.weapons[w], self.context)
            if why is not None:
                raise RulesError(f"{unit}: {w} cannot attack {kind}: {why}", "Core Rules §5.8-5.9")
        if order:
            return order
        carried = self._carried()
        if not carried:
            raise RulesError(f"{unit} carries no weapon on the table", "Core Rules §5.2")
        other = replace(self.context, melee=not self.context.melee, attacker_engaged=None)
        could = [w for w in carried if can_attack_with(self.attacker.weapons[w], other)]
        if not could:
            hint = "it has no weapon that can attack in or out of a Melee"
        elif self.context.melee:
            hint = "outside a Melee (odds without --melee) it could use " + ", ".join(could)
        else:
            hint = "in a Melee (odds --melee) it could use " + ", ".join(could)
        reasons = "; ".join(f"{w}: {why}" for w, why in self.unused_weapons())
        raise RulesError(
            f"no weapon of {unit} can attack {kind} ({reasons}); {hint}", "Core Rules §5.8-5.9"
        )

    def users_of(self, weapon: str) -> int:
        for name, n in self.users:
            if name == weapon:
                return n
        pool = (
            self.attacker.on_table
            if self.context.playstyle is Playstyle.STANDARD
            else self.attacker.alive
        )
        return sum(1 for i in pool if weapon in self.attacker.models[i].weapons)

    def eligible(self) -> list[int]:
        """Models that may become casualties: in line of sight unless in a Melee (§5.5, §5.13)."""
        living = [i for i in self.target.on_table if self.target.models[i].hp > 0]
        los = self.context.los_models
        if los is None or self.context.melee:
            return living
        return [i for i in living if i in los]

    def casualty_order(self) -> list[int]:
        ups = save_upgrades(self.target, self.context.melee)
        return casualty_order(self.target, ups, self.eligible(), self.casualty_preference)

    @property
    def eligible_hp(self) -> int:
        return sum(self.target.models[i].hp for i in self.eligible())

    @property
    def tough(self) -> bool:
        return self.target.perks.has("Tough")

    @property
    def cap(self) -> int:
        """Largest raw tally that still matters (twice the HP against Tough). Against Combat
        Damage (Perks L1154) an HP Loss may cost no HP: the rolls that may be free are added."""
        return self.cap_of(self.eligible_hp, self.combat_damage)

    def cap_of(self, eligible_hp: int, state: combat_damage.CombatDamage | None) -> int:
        """:attr:`cap` from the eligible HP and the Combat Damage state already worked out
        (one trial asks both once, issue 10, session 36)."""
        hp = eligible_hp
        if state is not None:
            hp += combat_damage.free_rolls(state)
        return hp * (2 if self.tough else 1)

    @property
    def combat_damage(self) -> combat_damage.CombatDamage | None:
        """The Target's Combat Damage table state (Perks L1154), ``None`` without the perk."""
        if not combat_damage.applies(self.target):
            return None
        return combat_damage.state_of(self.target, self.context)

    def loss_cap(self) -> int:
        """The most HP the sequence can take: the eligible HP, and Immortal's allowance for
        the Game Turn (Perks L1539)."""
        left = self.target.immortal_left
        return min(self.eligible_hp, left if left is not None else self.eligible_hp)

    def events(self, raw: int) -> int:
        """The HP Losses a raw tally is: Tough halves it, rounding up (Perks L1793)."""
        return tough_total(raw) if self.tough else raw

    def sequence_notes(self) -> list[str]:
        """What changes the whole sequence's tally into HP lost, for the explanations."""
        notes = []
        if self.combat_damage is not None:
            notes.append(
                f"{self.target.profile.name}: Combat Damage rolls a D6 for each HP Loss "
                "instead of -1 HP (1-4 statuses or a broken Weapon, 5 -D3 HP, 6 -D6 HP; a "
                "duplicate 1-3 or a result with no effect -1 HP; Perks L1154)"
            )
        if not self.tough:
            return notes
        return notes + [
            f"{self.target.profile.name}: Tough halves the HP tallied by all the weapons, "
            "rounding up (Perks L1793-1795), so the weapons' tallies add up to more than the "
            "HP lost"
        ]

    def final_loss(self, raw: int, eligible_hp: int | None = None) -> int:
        """HP actually lost for a raw tally: Tough halves it (§12.4), excess is discarded (§5.5);
        Immortal caps it at what the unit may still lose this Game Turn (Perks L1539).
        ``eligible_hp``: :attr:`eligible_hp` when already worked out (the target unchanged)."""
        loss = tough_total(raw) if self.tough else raw
        left = self.target.immortal_left
        h_e = self.eligible_hp if eligible_hp is None else eligible_hp
        return min(loss, h_e, left if left is not None else loss)

    def slain_for_loss(self, loss: int) -> int:
        """Models made casualties by ``loss`` HP, applied in casualty order (§5.12)."""
        return slain_counter(self)(loss)


def loss_counter(plan: AttackPlan, eligible_hp: int | None = None) -> Callable[[int], int]:
    """``raw tally → HP lost`` for ``plan`` (:meth:`AttackPlan.final_loss`), the eligible HP and
    Tough looked up once rather than per tally (``eligible_hp``: when already worked out)."""
    h_e = plan.eligible_hp if eligible_hp is None else eligible_hp
    if plan.target.immortal_left is not None:  # Immortal (Perks L1539)
        h_e = min(h_e, plan.target.immortal_left)
    tough = plan.tough

    def loss(raw: int) -> int:
        return min(tough_total(raw) if tough else raw, h_e)

    return loss


def slain_counter(plan: AttackPlan) -> Callable[[int], int]:
    """``loss → models slain`` for ``plan``, with the casualty order computed once."""
    thresholds: list[int] = []
    total = 0
    for i in plan.casualty_order():
        total += plan.target.models[i].hp
        thresholds.append(total)

    def slain(loss: int) -> int:
        return bisect.bisect_right(thresholds, loss)

    return slain


def allocate_loss(plan: AttackPlan, loss: int) -> list[tuple[int, int]]:
    """Apply ``loss`` HP to the target's models in casualty order; return (model, HP lost).
    Immortal's allowance for the Game Turn caps it and is spent (Perks L1539)."""
    left = plan.target.immortal_left
    if left is not None:
        loss = min(loss, left)
    out = []
    for i in plan.casualty_order():
        if loss <= 0:
            break
        m = plan.target.models[i]
        lost = min(loss, m.hp)
        m.hp -= lost
        loss -= lost
        out.append((i, lost))
    if left is not None:
        plan.target.immortal_left = left - sum(n for _, n in out)
    return out


# --------------------------------------------------------------------------------------------
# Exact distribution of one Attack Dice
# --------------------------------------------------------------------------------------------

Roll = tuple[bool, bool, bool]  # success, final six, final one


def _attempt(req_thresholds: tuple[int, ...], accursed: bool) -> dict[Roll, float]:
    out: dict[Roll, float] = defaultdict(float)
    reach = 1.0
    for stage, t in enumerate(req_thresholds):
        final = stage == len(req_thresholds) - 1
        for face in range(1, 7):
            p = reach / 6
            if final:
                if accursed and face == 6:
                    for f2 in range(1, 7):
                        out[(f2 >= t, f2 == 6, f2 == 1)] += p / 6
                else:
                    out[(face >= t, face == 6, face == 1)] += p
            elif face < t:
                out[(False, False, face == 1)] += p
        if not final:
            reach *= (7 - t) / 6
    return dict(out)


@lru_cache(maxsize=4096)
def attack_roll_distribution(prog: DieProgram) -> tuple[tuple[Roll, float], ...]:
    """Exact outcome of one Attack Dice: (success, six, one) with probabilities."""
    req = prog.requirement
    if req is None:
        return (((False, False, False), 1.0),)
    p_pre = math.prod((7 - t) / 6 for t in prog.pre_rolls)
    out: dict[Roll, float] = defaultdict(float)
    if p_pre < 1:
        out[(False, False, False)] += 1 - p_pre
    if req.automatic:
        if prog.auto_test:
            out[(True, True, False)] += p_pre / 6
            out[(True, False, True)] += p_pre / 6
            out[(True, False, False)] += p_pre * 4 / 6
        else:
            out[(True, False, False)] += p_pre
        return tuple(out.items())
    first = _attempt(req.thresholds, prog.accursed)
    for roll, p in first.items():
        if roll[0] or not prog.reroll_failed:
            out[roll] += p_pre * p
        else:
            for roll2, p2 in first.items():
                out[roll2] += p_pre * p * p2
    return tuple(out.items())


def _expr_dist(expr: DiceExpr) -> Dist:
    return {v: float(p) for v, p in expr.distribution().items()}


def _add(a: Dist, b: Dist) -> Dist:
    out: Dist = defaultdict(float)
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] += p * q
    return dict(out)


@lru_cache(maxsize=4096)
def unsaved_loss(prog: DieProgram, six: bool) -> tuple[float, tuple[tuple[int, float], ...]]:
    """For one hit: the chance it is unsaved, and its HP Loss distribution if so."""
    pa = 0.0 if (six and prog.six_ignores_armour) else prog.armour.probability()
    pg = 0.0 if (six and prog.six_ignores_aegis) else prog.aegis.probability()
    p_unsaved = (1 - pa) * (1 - pg)
    if prog.cover_save is not None and not (six and prog.six_ignores_armour):
        p_unsaved *= 1 - (7 - prog.cover_save) / 6  # §10.4 custom cover's Cover Save
    base: Dist = {prog.loss_constant: 1.0}
    if prog.loss_dice is not None:
        base = _add(base, _expr_dist(prog.loss_dice))
    if six and prog.six_dire:
        base = _add(base, _expr_dist(D3))
    mult = prog.loss_multiplier * (prog.six_loss_multiplier if six else 1)
    loss: Dist = defaultdict(float)
    for v, p in base.items():
        loss[(v if v else 1) * mult] += p
    return p_unsaved, tuple(sorted(loss.items()))


Transition = tuple[int, int, int, int, float]  # state in, state out, target loss, self loss, p


@lru_cache(maxsize=4096)
def die_transitions(prog: DieProgram) -> tuple[Transition, ...]:
    """The exact effect of one Attack Dice as transitions over the Emergency Save state.

    State 0: the target's Emergency Save (§12.4) is still available, 1: it is not.
    """
    states = (0, 1) if prog.emergency_save else (1,)
    self_dist: Dist = {0: 1.0}
    if prog.volatile is not None:
        self_dist = _single_die_loss(prog.volatile)
    out: dict[tuple[int, int, int, int], float] = defaultdict(float)
    for s_in in states:
        for (success, six, one), p in attack_roll_distribution(prog):
            if success:
                hit_dist = _hits_distribution(prog, six, prog.hits_per_success, s_in)
            else:
                hit_dist = {(s_in, 0): 1.0}
            sd = self_dist if one else {0: 1.0}
            for (s_out, dt), q in hit_dist.items():
                for ds, r in sd.items():
                    out[(s_in, s_out, dt, ds)] += p * q * r
    return tuple((a, b, c, d, p) for (a, b, c, d), p in out.items() if p > 0)


def _hits_distribution(
    prog: DieProgram, six: bool, m: int, s_in: int
) -> dict[tuple[int, int], float]:
    p_u, loss = unsaved_loss(prog, six)
    dist: dict[tuple[int, int], float] = {(s_in, 0): 1.0}
    for _ in range(m):
        nxt: dict[tuple[int, int], float] = defaultdict(float)
        for (s, t), p in dist.items():
            nxt[(s, t)] += p * (1 - p_u)
            if s == 0:  # the first unsaved hit meets the Emergency Save (2+)
                nxt[(1, t)] += p * p_u * 5 / 6
                for v, q in loss:
                    nxt[(1, t + v)] += p * p_u / 6 * q
            else:
                for v, q in loss:
                    nxt[(s, t + v)] += p * p_u * q
        dist = nxt
    return dist


def _single_die_loss(prog: DieProgram) -> Dist:
    out: Dist = defaultdict(float)
    for _s_in, _s_out, dt, _ds, p in die_transitions(prog):
        out[dt] += p
    return dict(out)


def _shift(a: FloatArray, dt: int, ds: int) -> FloatArray:
    """Shift a (target, self) array by (dt, ds), absorbing overflow in the last row/column."""
    t, s = a.shape
    out = np.zeros_like(a)
    if dt >= t:
        rows = a.sum(axis=0, keepdims=True)
        tmp = np.zeros_like(a)
        tmp[t - 1 :, :] = rows
    elif dt:
        tmp = np.zeros_like(a)
        tmp[dt:, :] = a[: t - dt, :]
        tmp[t - 1, :] += a[t - dt :, :].sum(axis=0)
    else:
        tmp = a
    if ds >= s:
        out[:, s - 1] = tmp.sum(axis=1)
    elif ds:
        out[:, ds:] = tmp[:, : s - ds]
        out[:, s - 1] += tmp[:, s - ds :].sum(axis=1)
    else:
        out = tmp.copy() if tmp is a else tmp
    return out


def _one_column(prog: DieProgram, cap_s: int) -> bool:
    """True when ``n`` dice of ``prog`` never move the self-loss column: nothing they do hurts
    the attacker (no Volatile 1s), or the attacker's HP lost is not tracked (``cap_s == 0``)."""
    return cap_s == 0 or all(ds == 0 for *_, ds, _p in die_transitions(prog))


def dice_work(prog: DieProgram, n: int, cap_t: int, cap_s: int) -> float:
    """Rough cost (array cells touched) of :func:`dice_distribution`, to refuse hopeless cases."""
    if n <= 0:
        return 0.0
    if _one_column(prog, cap_s):
        # squaring: about 2 log2(n) capped convolutions (3x that with an Emergency Save)
        per = 6 if prog.emergency_save else 2
        return float(per * n.bit_length() * (cap_t + 1) ** 2)
    return float(n * (cap_t + 1) * (cap_s + 1))


def dice_distribution(prog: DieProgram, n: int, cap_t: int, cap_s: int) -> FloatArray:
    """Exact joint distribution over (state in, state out, target loss, self loss) for ``n`` dice.

    Returns an array of shape (2, 2, cap_t + 1, cap_s + 1); values at the caps mean "at least".

    The ``n`` dice are independent, so their sum is a power of one die's distribution under
    capped (saturating) convolution, computed by squaring in O(log n) convolutions. With an
    Emergency Save the die's transitions form three blocks (available → available, available
    → spent, spent → spent) and the same squaring carries the sum over where the save is
    spent (:func:`_emergency_powers`). Only when the dice can also hurt their own unit
    (Volatile) with its HP lost tracked are the dice added one at a time
    (:func:`dice_distribution_stepwise`).
    """
    if not _one_column(prog, cap_s):
        return dice_distribution_stepwise(prog, n, cap_t, cap_s)
    blocks = np.zeros((2, 2, cap_t + 1))
    for a, b, dt, _ds, p in die_transitions(prog):
        blocks[a, b, min(dt, cap_t)] += p
    result = np.zeros((2, 2, cap_t + 1, cap_s + 1))
    if not prog.emergency_save:
        block = _power_capped(blocks[1, 1], n, cap_t)
        result[0, 0, :, 0] = block
        result[1, 1, :, 0] = block
        return result
    kept, spent_after, spent = _emergency_powers(blocks[0, 0], blocks[1, 1], n, cap_t)
    result[0, 0, :, 0] = kept
    result[0, 1, :, 0] = _conv_capped(blocks[0, 1], spent_after, cap_t)
    result[1, 1, :, 0] = spent
    return result


def _emergency_powers(
    a00: FloatArray, a11: FloatArray, n: int, cap: int
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(A00^n, S(n), A11^n)`` with ``S(m) = sum_{k<m} A00^k * A11^(m-1-k)`` (capped).

    ``n`` dice that start with the Emergency Save available either never spend it (A00^n) or
    spend it on die k+1: ``A00^k * A01 * A11^(n-1-k)``, summed over k = ``A01 * S(n)``.
    By splitting the sum at m: ``S(2m) = (A00^m + A11^m) * S(m)`` and
    ``S(m+1) = A11 * S(m) + A00^m``, so S(n) takes O(log n) convolutions.
    """
    one = np.zeros(cap + 1)
    one[0] = 1.0
    p0, p1, total = one, one.copy(), np.zeros(cap + 1)
    for bit in bin(n)[2:]:
        total = _conv_capped(p0 + p1, total, cap)
        p0 = _conv_capped(p0, p0, cap)
        p1 = _conv_capped(p1, p1, cap)
        if bit == "1":
            total = _conv_capped(a11, total, cap) + p0
            p0 = _conv_capped(p0, a00, cap)
            p1 = _conv_capped(p1, a11, cap)
    return p0, total, p1


def dice_distribution_stepwise(prog: DieProgram, n: int, cap_t: int, cap_s: int) -> FloatArray:
    """:func:`dice_distribution` by adding the ``n`` dice one at a time over (state, target
    loss, self loss): the general path, and the reference the fast paths are tested against."""
    trans = die_transitions(prog)
    result = np.zeros((2, 2, cap_t + 1, cap_s + 1))
    starts = (0, 1) if prog.emergency_save else (1,)
    for s0 in starts:
        cur = np.zeros((2, cap_t + 1, cap_s + 1))
        cur[s0, 0, 0] = 1.0
        for _ in range(n):
            nxt = np.zeros_like(cur)
            for a, b, dt, ds, p in trans:
                if cur[a].any():
                    nxt[b] += p * _shift(cur[a], dt, ds)
            cur = nxt
        result[s0] = cur
    if not prog.emergency_save:
        result[0, 0] = result[1, 1]
    return result


def _trimmed(a: FloatArray) -> FloatArray:
    """``a`` without its trailing zeros (long arrays only; short ones are cheaper as they are)."""
    if a.size <= 64:
        return a
    nz = np.flatnonzero(a)
    return a[: int(nz[-1]) + 1] if nz.size else a[:0]


def _conv_capped(a: FloatArray, b: FloatArray, cap: int) -> FloatArray:
    """Distribution of ``min(cap, x + y)`` for independent ``x ~ a`` and ``y ~ b``."""
    a, b = _trimmed(a), _trimmed(b)
    if not (a.size and b.size):
        return np.zeros(cap + 1)
    full = np.convolve(a, b)
    if full.size <= cap + 1:
        out = np.zeros(cap + 1)
        out[: full.size] = full
        return out
    out = full[: cap + 1].copy()
    out[cap] += full[cap + 1 :].sum()
    return out


def _conv2_capped(a: FloatArray, b: FloatArray) -> FloatArray:
    """:func:`_conv_capped` over (target loss, self loss) arrays of the same shape."""
    cap_t, cap_s = a.shape[0] - 1, a.shape[1] - 1
    out = np.zeros_like(a)
    cols_b = [(int(u), b[:, u]) for u in np.flatnonzero(b.any(axis=0))]
    for s in np.flatnonzero(a.any(axis=0)):
        col = a[:, s]
        for u, bcol in cols_b:
            out[:, min(cap_s, int(s) + u)] += _conv_capped(col, bcol, cap_t)
    return out


def _power_capped(q: FloatArray, n: int, cap: int) -> FloatArray:
    result = np.zeros(cap + 1)
    result[0] = 1.0
    base = q
    while n:
        if n & 1:
            result = _conv_capped(result, base, cap)
        n >>= 1
        if n:
            base = _conv_capped(base, base, cap)
    return result


# --------------------------------------------------------------------------------------------
# Exact sequence
# --------------------------------------------------------------------------------------------


@dataclass
class AttackOdds:
    """The exact (or sampled) answer for one attack sequence."""

    hp_lost: Dist
    models_slain: Dist
    attacker_hp_lost: Dist
    eligible_hp: int
    eligible_models: int
    exact: bool = True
    trials: int = 0
    notes: list[str] = field(default_factory=list)
    per_weapon_mean: dict[str, float] = field(default_factory=dict)
    #: the weapon profiles that attacked, in order, and those carried that did not (with why)
    weapons: list[str] = field(default_factory=list)
    unused_weapons: list[tuple[str, str]] = field(default_factory=list)

    @property
    def expected_hp_lost(self) -> float:
        return sum(k * p for k, p in self.hp_lost.items())

    @property
    def expected_models_slain(self) -> float:
        return sum(k * p for k, p in self.models_slain.items())

    @property
    def expected_attacker_hp_lost(self) -> float:
        return sum(k * p for k, p in self.attacker_hp_lost.items())

    @property
    def wipe_chance(self) -> float:
        """Chance that every eligible model is slain."""
        return sum(p for k, p in self.models_slain.items() if k >= self.eligible_models)

    def confidence_halfwidth(self, z: float = 1.96) -> float:
        """For sampled answers: z · standard error of the mean HP lost."""
        if self.exact or not self.trials:
            return 0.0
        mean = self.expected_hp_lost
        var = sum((k - mean) ** 2 * p for k, p in self.hp_lost.items())
        return z * math.sqrt(var / self.trials)


def _weapon_uses(plan: AttackPlan, weapon: str, max_paths: int) -> list[tuple[WeaponUse, float]]:
    profile = plan.attacker.weapons[weapon]
    users = plan.users_of(weapon)

    def program(d: Dice) -> WeaponUse:
        return compile_weapon_use(plan.attacker, profile, users, plan.target, plan.context, d)

    grouped: dict[WeaponUse, float] = defaultdict(float)
    for use, p in enumerate_outcomes(program, max_paths=max_paths).outcomes:
        grouped[use] += p
    return list(grouped.items())


def _use_distribution(use: WeaponUse, cap_t: int, cap_s: int) -> FloatArray:
    """(state in, state out, target loss, self loss) for one compiled use, self effects included."""
    d = dice_distribution(use.die, use.dice, cap_t, cap_s)
    if use.against_self:  # Chaos 1: every HP the weapon removes is the attacker's own
        column = np.minimum(cap_s, np.add.outer(np.arange(cap_t + 1), np.arange(cap_s + 1)))
        moved = np.zeros_like(d)
        for a in range(2):
            for b in range(2):
                moved[a, b, 0] = np.bincount(
                    column.ravel(), weights=d[a, b].ravel(), minlength=cap_s + 1
                )
        d = moved
    extra: Dist = {use.self_loss: 1.0}
    if use.self_save_dice:
        extra = _add(extra, _self_save_dist(use.self_save_dice, *use.self_saves))
    if extra != {0: 1.0}:
        out = np.zeros_like(d)
        for v, p in extra.items():
            for a in range(2):
                for b in range(2):
                    out[a, b] += p * _shift(d[a, b], 0, v)
        d = out
    return d


def _self_loss_bound(use: WeaponUse, cap_t: int) -> int:
    """The most HP one compiled use can cost its own unit (Volatile 1s, Chaos 1, backlash,
    Darkside's Saves, Retaliate), so the attacker's HP lost is tracked only as far as it can
    go: with nothing that hurts the attacker the exact work does not grow with its models."""
    bound = use.self_loss + use.self_save_dice
    if use.dice:
        trans = die_transitions(use.die)
        bound += use.dice * max((ds for *_, ds, _p in trans), default=0)
        if use.against_self:
            bound += use.dice * max((dt for _a, _b, dt, _ds, _p in trans), default=0)
    if use.retaliation is not None:  # a D6 for each HP the weapon removes (§12.4)
        bound += cap_t
    return bound


def _self_save_dist(n: int, armour: SaveSpec, aegis: SaveSpec) -> Dist:
    p_fail = (1 - armour.probability()) * (1 - aegis.probability())
    return {k: math.comb(n, k) * p_fail**k * (1 - p_fail) ** (n - k) for k in range(n + 1)}


def _binom(n: int, p: float) -> Dist:
    return {k: math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


_DEATHBLOW_2D6 = {
    r: p for r, p in ((r, float(q)) for r, q in DiceExpr(2, 6).distribution().items())
}


def exact_attack(plan: AttackPlan, *, max_paths: int = 20_000, max_work: float = 5e8) -> AttackOdds:
    """The exact distribution of one unit's attack sequence against one target.

    Raises :class:`EnumerationTooLarge` when the weapon-level rolls or the dice would take too
    long to enumerate; :func:`attack_odds` then falls back to Monte Carlo.
    """
    if plan.context.playstyle is Playstyle.ADVANCED and any(
        "arc" in p.lower() for w in plan.weapon_order() for p in plan.attacker.weapons[w].perks
    ):
        raise EnumerationTooLarge(
            "Arc in an Advanced game depends on casualties removed mid-sequence"
        )
    h_e = plan.eligible_hp
    cap_t = plan.cap
    weapons = [(w, _weapon_uses(plan, w, max_paths)) for w in plan.weapon_order()]
    reach = sum(
        max((_self_loss_bound(u, cap_t) for u, _p in uses), default=0) for _w, uses in weapons
    )
    cap_s = max(0, min(plan.attacker.current_hp, reach))
    # state: emergency save (0 available, 1 not), raw tally, attacker HP lost
    seq = np.zeros((2, cap_t + 1, cap_s + 1))
    seq[0 if not plan.target.emergency_save_used else 1, 0, 0] = 1.0
    notes: list[str] = plan.sequence_notes()
    per_weapon: dict[str, float] = {}
    for weapon, uses in weapons:
        work = sum(dice_work(u.die, u.dice, cap_t, cap_s) for u, _ in uses)
        if work > max_work:
            raise EnumerationTooLarge(f"{weapon}: {work:.0f} cells of dice to enumerate")
        w_dist = np.zeros((2, 2, cap_t + 1, cap_s + 1))
        by_effect: dict[tuple[bool, bool, object], FloatArray] = {}
        for use, p in uses:
            d = _use_distribution(use, cap_t, cap_s)
            key = (use.gravity, use.deathblow, use.retaliation)
            by_effect[key] = by_effect.get(key, np.zeros_like(w_dist)) + p * d
            if len(notes) < 40:  # rolled branches repeat; keep the explanation readable
                notes.extend(f"{weapon}: {n}" for n in use.notes if f"{weapon}: {n}" not in notes)
        new = np.zeros_like(seq)
        for (gravity, deathblow, retaliation), d in by_effect.items():
            new += _combine(seq, d, gravity, deathblow, retaliation, h_e, cap_t, cap_s)
        tallies = np.arange(cap_t + 1)
        per_weapon[weapon] = float(
            (new.sum(axis=(0, 2)) * tallies).sum() - (seq.sum(axis=(0, 2)) * tallies).sum()
        )
        seq = new
    raw = seq.sum(axis=0)  # (tally, attacker)
    hp_lost: Dist = defaultdict(float)
    slain: Dist = defaultdict(float)
    slain_of = slain_counter(plan)
    for t, dist in enumerate(_losses_of_tallies(plan, cap_t)):
        p = float(raw[t].sum())
        if p <= 0:
            continue
        for loss, q in dist.items():
            hp_lost[loss] += p * q
            slain[slain_of(loss)] += p * q
    attacker = {s: float(raw[:, s].sum()) for s in range(cap_s + 1) if raw[:, s].sum() > 0}
    return AttackOdds(
        hp_lost=_clean(hp_lost),
        models_slain=_clean(slain),
        attacker_hp_lost=_clean(attacker),
        eligible_hp=h_e,
        eligible_models=len(plan.eligible()),
        notes=notes,
        per_weapon_mean=per_weapon,
        weapons=plan.weapon_order(),
        unused_weapons=plan.unused_weapons(),
    )


def _losses_of_tallies(plan: AttackPlan, cap_t: int) -> list[Dist]:
    """For each raw tally 0 … ``cap_t``, the distribution of HP lost: one value (Tough, the
    eligible HP, Immortal: :func:`loss_counter`), or Combat Damage's table rolled for each HP
    Loss (Perks L1154, :func:`combat_damage.loss_distributions`)."""
    state = plan.combat_damage
    if state is None:
        loss_of = loss_counter(plan)
        return [{loss_of(t): 1.0} for t in range(cap_t + 1)]
    by_events = combat_damage.loss_distributions(plan.events(cap_t), state, plan.loss_cap())
    return [by_events[plan.events(t)] for t in range(cap_t + 1)]


def follow_on_dice(plan: AttackPlan, *, max_paths: int = 20_000) -> Dist:
    """The exact distribution of the successful Attack Dice left over once ``plan``'s Target
    is slain by a one-weapon share (Bodyguard, Perks L1935: "Once a Bodyguard Unit is slain,
    any remaining successful Attack Dice and Saves are followed on to an attached Unit or
    Leader"); they would strike the next unit as successful dice (``struck_dice``), its own
    Saves rolled.

    The Attack Dice are resolved one at a time. With ``T_m`` the raw tally of the first ``m``
    dice, the Target is slain by die ``K``, the first ``m`` whose tally slays every eligible
    model; the HP lost grows with the tally (Tough, Immortal, Combat Damage's table rolled per
    HP Loss in order), so ``P(K <= m) = sum_t P(T_m = t) P(slain | t)``. The dice after ``K``
    are fresh, so the leftover successes given ``K = m`` are Binomial(n - m, p), ``p`` one
    die's chance of success. Gravity, Deathblow and Retaliate act after the weapon's dice:
    they leave none over.
    """
    weapons = plan.weapon_order()
    if len(weapons) != 1:
        raise RulesError("follow-on dice are counted for a share of one weapon", "Perks L1935")
    if plan.combat_damage is not None:  # its table is rolled after the dice: none left over
        return {0: 1.0}
    h_e = plan.eligible_hp
    cap_t = plan.cap
    # the game's die-by-die roll stops at the same die: one predicate (:func:`_slain`)
    slain_by = _slain(loss_counter(plan), 0, cap_t, h_e)
    slain = np.array([float(slain_by(t)) for t in range(cap_t + 1)])
    start = 1 if plan.target.emergency_save_used else 0
    out: Dist = defaultdict(float)
    for use, p in _weapon_uses(plan, weapons[0], max_paths):
        n = use.dice
        if not _by_dice(use, h_e) or n == 0:
            out[0] += p
            continue
        p_success = sum(q for (ok, _six, _one), q in attack_roll_distribution(use.die) if ok)
        before = 0.0
        for m in range(1, n + 1):
            tally = dice_distribution(use.die, m, cap_t, 0)[start].sum(axis=(0, 2))
            by_m = float(tally @ slain)
            if by_m - before > 0:
                for k, q in _binom(n - m, p_success).items():
                    out[k] += p * (by_m - before) * q
            before = by_m
        out[0] += p * (1 - before)
    return _clean(out)


def _clean(d: Dist) -> Dist:
    return {k: p for k, p in sorted(d.items()) if p > 1e-15}


def _combine(
    seq: FloatArray,
    w: FloatArray,
    gravity: bool,
    deathblow: bool,
    retaliation: object,
    h_e: int,
    cap_t: int,
    cap_s: int,
) -> FloatArray:
    """Add one weapon's distribution ``w`` (e_in, e_out, l, u) to the running state ``seq``."""
    out = np.zeros_like(seq)
    if not (gravity or deathblow or retaliation):
        for e_in in range(2):
            if not seq[e_in].any():
                continue
            for e_out in range(2):
                if w[e_in, e_out].any():
                    out[e_out] += _conv2_capped(seq[e_in], w[e_in, e_out])
        return out
    p_ret = 0.0
    if retaliation is not None:
        assert isinstance(retaliation, Retaliation)
        p_ret = 0.5 * (1 - retaliation.armour.probability()) * (1 - retaliation.aegis.probability())
    for e_in in range(2):
        for c, s in zip(*np.nonzero(seq[e_in]), strict=True):
            base = seq[e_in, c, s]
            for e_out in range(2):
                block = w[e_in, e_out]
                for l_, u in zip(*np.nonzero(block), strict=True):
                    p = base * block[l_, u]
                    c1 = min(cap_t, int(c) + int(l_))
                    actual = c1 - int(c)
                    outcomes: Dist = {c1: 1.0}
                    if gravity and actual:
                        outcomes = defaultdict(float)
                        cur = max(0, h_e - c1)
                        for k, q in _binom(actual, 1 / 6).items():
                            outcomes[min(cap_t, c1 + cur - gravity_after(cur, k))] += q
                    if deathblow and actual:
                        nxt: Dist = defaultdict(float)
                        for cc, q in outcomes.items():
                            cur = max(0, h_e - cc)
                            if cur == 0:
                                nxt[cc] += q
                                continue
                            for r, pr in _DEATHBLOW_2D6.items():
                                nxt[min(cap_t, cc + cur - deathblow_after(cur, r))] += q * pr
                        outcomes = nxt
                    back: Dist = _binom(actual, p_ret) if p_ret and actual else {0: 1.0}
                    for cc, q in outcomes.items():
                        for k, pk in back.items():
                            out[e_out, cc, min(cap_s, int(s) + int(u) + k)] += p * q * pk
    return out


# --------------------------------------------------------------------------------------------
# Sampling the whole sequence (Monte Carlo and the game)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WeaponResult:
    """What one weapon did in a resolved attack (Attack Steps 3-5)."""

    weapon: str
    use: WeaponUse
    attack_dice: int
    successes: int
    hits: int
    hp_loss: int
    attacker_hp_loss: int
    #: the HP Loss from Attack Dice whose last roll met Precision (Perks L3993): the attacker
    #: chooses the models that receive it (``game.perk_precision``)
    precision_loss: int = 0


@dataclass
class _Run:
    tally: npt.NDArray[np.int64]
    self_loss: npt.NDArray[np.int64]
    weapons: list[WeaponResult]
    per_weapon_mean: dict[str, float]
    emergency_used: npt.NDArray[np.bool_]
    #: Bodyguard (Perks L1935): successful Attack Dice left over once the Target was slain
    #: (one trial resolved die by die, :func:`_die_by_die`)
    follow_on: int = 0
    #: the Target's eligible HP the run was capped by (``None``: not kept)
    eligible_hp: int | None = None


class _NeedRoll(Exception):
    """Raised by :class:`_BranchDice` at the first weapon-level roll past its replayed values."""

    def __init__(self, expr: DiceExpr, label: str) -> None:
        super().__init__(label)
        self.expr = expr
        self.label = label


class _NeedFaces(Exception):
    """Raised by :class:`_BranchDice` when the compiler asks for raw D6 faces (not expected)."""


class _BranchDice(Dice):
    """Dice that replay the values of one branch of weapon-level rolls (OpenSpiel-style chance
    nodes, found lazily). At the first roll past them the compiler is stopped and the roll is
    named, so the sampler rolls it once for every trial that reached this branch."""

    def __init__(self, values: tuple[int, ...]) -> None:
        super().__init__()
        self.values = values
        self.position = 0

    def roll(self, expr: DiceExpr | str | int, label: str = "roll") -> int:
        e = expr if isinstance(expr, DiceExpr) else DiceExpr.parse(expr)
        if self.position < len(self.values):
            self.position += 1
            return self.values[self.position - 1]
        raise _NeedRoll(e, label)

    def _faces(self, n: int, label: str) -> list[int]:
        raise _NeedFaces(label)


#: compiled uses by :func:`compile_key`: the use (or ``None`` for a use that rolls), with the
#: profiles and weapon the key names by id (held, so an id stays theirs)
_COMPILED: dict[tuple[object, ...], tuple[tuple[object, ...], WeaponUse | None]] = {}
_COMPILED_LIMIT = 4096


def _compile_one(plan: AttackPlan, weapon: str, dice: Dice) -> WeaponUse:
    """The game's compilation of one use of ``weapon`` (one trial), with ``dice``.

    A use that makes no weapon-level roll (most weapons: no +Power D3, xD6 Attacks, Destroy …)
    is memoised by :func:`compile_key`, so the same Attack compiles once; a use that rolls is
    compiled with ``dice`` every time, so every roll is made as before. Whether a compilation
    rolled is read from the dice's log (every roll of :class:`Dice` is logged); dice that roll
    their own way are first asked of dice that stop the compiler at its first roll."""
    profile = plan.attacker.weapons[weapon]
    users = plan.users_of(weapon)
    key = compile_key(plan.attacker, profile, users, plan.target, plan.context)
    hit = _COMPILED.get(key)
    if hit is not None and hit[1] is not None:
        return hit[1]
    if hit is None:
        if type(dice).roll is Dice.roll and type(dice).test is Dice.test:
            before = len(dice.log)
            use = compile_weapon_use(plan.attacker, profile, users, plan.target, plan.context, dice)
            _remember(key, plan, profile, None if len(dice.log) != before else use)
            return use
        try:
            _remember(key, plan, profile, compile_weapon_use(
                plan.attacker, profile, users, plan.target, plan.context, _BranchDice(())
            ))  # fmt: skip
        except (_NeedRoll, _NeedFaces):
            _remember(key, plan, profile, None)
        except RulesError:
            pass  # compiled below, where it raises the same
    return compile_weapon_use(plan.attacker, profile, users, plan.target, plan.context, dice)


def _remember(
    key: tuple[object, ...], plan: AttackPlan, profile: object, use: WeaponUse | None
) -> None:
    if len(_COMPILED) >= _COMPILED_LIMIT:
        _COMPILED.clear()
    _COMPILED[key] = ((plan.attacker.profile, profile, plan.target.profile), use)


def _compile_groups(
    plan: AttackPlan, weapon: str, trials: int, dice: Dice
) -> dict[WeaponUse, IntArray]:
    """The compiled uses of ``weapon`` over ``trials`` trials, each with the trials it serves.

    One trial (the game's path) compiles with ``dice`` itself, so every weapon-level roll is
    made in the compiler's order. Many trials walk the tree of weapon-level rolls: the trials
    at a branch roll its next roll together (one vectorised batch), split by the value, and
    the compiler runs once per branch reached, not once per trial (Destroy I: 7 compilations
    for any number of trials). Each trial's rolls have the same distribution as rolling them
    one trial at a time.
    """
    profile = plan.attacker.weapons[weapon]
    users = plan.users_of(weapon)

    def program(d: Dice) -> WeaponUse:
        return compile_weapon_use(plan.attacker, profile, users, plan.target, plan.context, d)

    if trials == 1:
        return {_compile_one(plan, weapon, dice): np.zeros(1, dtype=np.int64)}
    parts: dict[WeaponUse, list[IntArray]] = defaultdict(list)
    stack: list[tuple[tuple[int, ...], IntArray]] = [((), np.arange(trials, dtype=np.int64))]
    while stack:
        values, idx = stack.pop()
        try:
            use = program(_BranchDice(values))
        except _NeedRoll as need:
            rolled = _roll_expr_array(need.expr, idx.size, dice, need.label)
            for v in np.unique(rolled)[::-1]:  # popped in ascending order
                stack.append(((*values, int(v)), idx[rolled == v]))
            continue
        except _NeedFaces:  # a compiler that rolls raw faces: one compilation per trial
            return _compile_per_trial(program, trials, dice)
        parts[use].append(idx)
    return {use: np.sort(np.concatenate(p)) for use, p in parts.items()}


def _compile_per_trial(
    program: Callable[[Dice], WeaponUse], trials: int, dice: Dice
) -> dict[WeaponUse, IntArray]:
    groups: dict[WeaponUse, list[int]] = defaultdict(list)
    for t in range(trials):
        groups[program(dice)].append(t)
    return {use: np.asarray(ts, dtype=np.int64) for use, ts in groups.items()}


def _die_by_die(
    prog: DieProgram, n: int, dice: Dice, slain: Callable[[int], bool]
) -> tuple[DiceOutcome, int]:
    """One trial's ``n`` Attack Dice resolved one at a time until ``slain(raw tally)``; then
    only the Attack rolls of the dice left (their successes follow on: Bodyguard, Perks
    L1935; a Volatile 1 among them still strikes its User). See :func:`follow_on_dice`."""
    totals = [0, 0, 0, 0, 0]  # successes, hits, target loss, self loss, precision loss
    spent = False
    left = 0
    for m in range(n):
        out = sample_dice(replace(prog, emergency_save=False) if spent else prog, 1, dice)
        for j, a in enumerate(
            (out.successes, out.hits, out.target_loss, out.self_loss, out.precision_loss)
        ):
            totals[j] += int(a[0])
        spent = spent or bool(out.emergency_spent[0])
        if slain(totals[2]):
            success, _six, one, _prec = _attack_rolls(prog, n - m - 1, dice)
            left = int(success.sum())
            if prog.volatile is not None and one.any():
                totals[3] += int(sample_dice(prog.volatile, int(one.sum()), dice).target_loss[0])
            break

    def arr(v: int) -> IntArray:
        return np.array([v], dtype=np.int64)

    return (
        DiceOutcome(
            arr(totals[0]),
            arr(totals[1]),
            arr(totals[2]),
            arr(totals[3]),
            np.array([spent]),
            arr(totals[4]),
        ),
        left,
    )


def _slain(
    loss_of: Callable[[int], int], start: int, cap_t: int, h_e: int
) -> Callable[[int], bool]:
    """Whether a die-by-die tally ``t`` after ``start`` slays every eligible model."""

    def slain(t: int) -> bool:
        return loss_of(min(cap_t, start + t)) >= h_e

    return slain


def _by_dice(use: WeaponUse, h_e: int) -> bool:
    """Whether a share's Attack Dice can leave dice over once the Target is slain (Bodyguard,
    L1935): not a weapon turned on its User, and a Target with eligible HP. The exact odds
    (:func:`follow_on_dice`) and the die-by-die roll (:func:`_run_sequence`) both ask it."""
    return not use.against_self and h_e > 0


#: One trial of the sequence (the game's Attack) runs in plain Python ints (:func:`_run_one`):
#: the same dice, fewer NumPy calls (issue 10, session 34); off, it runs through the arrays
_SCALAR_SEQUENCE = True


def _run_sequence(plan: AttackPlan, trials: int, dice: Dice, follow_on: bool = False) -> _Run:
    """Resolve the sequence ``trials`` times with physical dice (the simulator's path);
    ``follow_on`` (one trial of one weapon): die by die, counting the successful Attack Dice
    left over once the Target is slain (Bodyguard, Perks L1935)."""
    if trials == 1 and _SCALAR_SEQUENCE:
        return _run_one(plan, dice, follow_on)
    h_e = plan.eligible_hp
    cap_t = plan.cap
    cap_s = max(0, plan.attacker.current_hp)
    tally = np.zeros(trials, dtype=np.int64)
    self_loss = np.zeros(trials, dtype=np.int64)
    emergency_used = np.full(trials, plan.target.emergency_save_used)
    per_weapon: dict[str, float] = {}
    results: list[WeaponResult] = []
    left = 0
    by_dice = follow_on and trials == 1 and plan.combat_damage is None
    loss_of = loss_counter(plan)
    for weapon in plan.weapon_order():
        weapon_loss = np.zeros(trials, dtype=np.int64)
        for use, idx in _compile_groups(plan, weapon, trials, dice).items():
            used_before = emergency_used[idx].copy()  # split once, before this weapon spends it
            for em_used in (False, True):
                sub = idx[used_before == em_used]
                if not sub.size:
                    continue
                die = replace(use.die, emergency_save=False) if em_used else use.die
                if by_dice and _by_dice(use, h_e):
                    start = int(tally[0])
                    out, left = _die_by_die(die, use.dice, dice, _slain(loss_of, start, cap_t, h_e))
                else:
                    out = sample_dice(die, use.dice, dice, trials=sub.size)
                emergency_used[sub] = emergency_used[sub] | out.emergency_spent
                tl = out.target_loss
                sl = out.self_loss + use.self_loss
                if use.self_save_dice:
                    sl = sl + sample_self_saves(use, dice, sub.size)
                if use.against_self:
                    sl = sl + tl
                    tl = np.zeros_like(tl)
                before = tally[sub]
                after = np.minimum(cap_t, before + tl)
                actual = after - before
                if use.gravity:  # §12.5: a D6 per HP lost; each 6 halves the current HP
                    after = _sample_gravity(actual, after, h_e, cap_t, dice)
                if use.deathblow:  # §12.5: 2D6 once the weapon has caused HP Loss
                    after = _sample_deathblow(actual, after, h_e, cap_t, dice)
                if use.retaliation is not None:
                    sl = sl + _sample_retaliation(use.retaliation, actual, dice)
                weapon_loss[sub] = after - before
                tally[sub] = after
                self_loss[sub] = np.minimum(cap_s, self_loss[sub] + sl)
                if trials == 1:
                    results.append(
                        WeaponResult(
                            weapon,
                            use,
                            use.dice,
                            int(out.successes[0]),
                            int(out.hits[0]),
                            int(after[0] - before[0]),
                            int(sl[0]),
                            int(min(out.precision_loss[0], after[0] - before[0])),
                        )
                    )
        # one trial (the game's Attack): its value, which is the mean, without NumPy's mean
        per_weapon[weapon] = float(weapon_loss[0]) if trials == 1 else float(weapon_loss.mean())
    return _Run(tally, self_loss, results, per_weapon, emergency_used, left, h_e)


def _run_one(plan: AttackPlan, dice: Dice, follow_on: bool) -> _Run:
    """:func:`_run_sequence` of one trial in plain Python ints: every batch of the dice is the
    one the arrays ask for (the same counts and labels, in the same order) and every result is
    theirs (issue 10: one Attack's sequence cost more in NumPy calls than in arithmetic)."""
    # the eligible models and the Combat Damage state asked once (issue 10, session 36: they
    # were worked out three and two times), the cap and the loss from them as before
    h_e = plan.eligible_hp
    state = plan.combat_damage
    cap_t = plan.cap_of(h_e, state)
    cap_s = max(0, plan.attacker.current_hp)
    tally = 0
    self_loss = 0
    emergency_used = bool(plan.target.emergency_save_used)
    per_weapon: dict[str, float] = {}
    results: list[WeaponResult] = []
    left = 0
    by_dice = follow_on and state is None
    loss_of = loss_counter(plan, h_e)
    for weapon in plan.weapon_order():
        use = _compile_one(plan, weapon, dice)
        die = replace(use.die, emergency_save=False) if emergency_used else use.die
        if by_dice and _by_dice(use, h_e):
            out, left = _die_by_die(die, use.dice, dice, _slain(loss_of, tally, cap_t, h_e))
            successes, hits, tl = int(out.successes[0]), int(out.hits[0]), int(out.target_loss[0])
            sl, spent = int(out.self_loss[0]), bool(out.emergency_spent[0])
            prec = int(out.precision_loss[0])
        else:
            successes, hits, tl, sl, spent, prec = sample_one_ints(die, use.dice, dice)
        emergency_used = emergency_used or spent
        sl += use.self_loss
        if use.self_save_dice:
            sl += sample_self_saves(use, dice)
        if use.against_self:
            sl += tl
            tl = 0
        before = tally
        after = min(cap_t, before + tl)
        actual = after - before
        if use.gravity and actual > 0:  # §12.5: a D6 per HP lost; each 6 halves the current HP
            sixes = dice.d6_array(actual, "Gravity").tolist().count(6)
            cur = max(0, h_e - after)
            after = min(cap_t, after + cur - gravity_after(cur, sixes))
        if use.deathblow and actual > 0:  # §12.5: 2D6 once the weapon has caused HP Loss
            cur = max(0, h_e - after)
            if cur > 0:
                roll = int(_roll_expr_array(DiceExpr(2, 6), 1, dice, "Deathblow")[0])
                after = min(cap_t, after + cur - deathblow_after(cur, roll))
        if use.retaliation is not None and actual > 0:  # §12.4: a D6 per HP lost, 4+ hits
            ret = use.retaliation
            hits_back = sum(f >= 4 for f in dice.d6_array(actual, "Retaliate").tolist())
            failed = _save_list(ret.armour, hits_back, dice, "Retaliate Save").count(False)
            sl += _save_list(ret.aegis, failed, dice, "Retaliate Save").count(False)
        tally = after
        self_loss = min(cap_s, self_loss + sl)
        results.append(
            WeaponResult(weapon, use, use.dice, successes, hits, after - before, sl,
                         min(prec, after - before))
        )  # fmt: skip
        per_weapon[weapon] = float(after - before)
    return _Run(
        np.array([tally], dtype=np.int64),
        np.array([self_loss], dtype=np.int64),
        results,
        per_weapon,
        np.array([emergency_used]),
        left,
        h_e,
    )


MC_CHUNK = 20_000  # trials sampled at once: bounded memory, and progress after each chunk


def sample_attack(
    plan: AttackPlan,
    trials: int,
    dice: Dice | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> AttackOdds:
    """Monte Carlo of the attack sequence with physical dice, vectorised over trials.

    The trials run in chunks of :data:`MC_CHUNK` (always, so a seed gives the same result with
    or without ``progress``); ``progress(done, trials)`` is called after each chunk.
    """
    if trials < 1:
        raise RulesError("Monte Carlo needs at least one trial", "warbench odds")
    dice = dice or SeededDice()
    runs: list[_Run] = []
    done = 0
    while done < trials:
        runs.append(_run_sequence(plan, min(MC_CHUNK, trials - done), dice))
        done += len(runs[-1].tally)
        if progress is not None:
            progress(done, trials)
    run = runs[0]
    if len(runs) > 1:
        weighted: dict[str, float] = defaultdict(float)
        for r in runs:
            for w, m in r.per_weapon_mean.items():
                weighted[w] += m * len(r.tally) / trials
        run = _Run(
            np.concatenate([r.tally for r in runs]),
            np.concatenate([r.self_loss for r in runs]),
            [],
            dict(weighted),
            np.concatenate([r.emergency_used for r in runs]),
        )
    hp_lost: Dist = defaultdict(float)
    slain: Dist = defaultdict(float)
    slain_of = slain_counter(plan)
    loss_of = loss_counter(plan)
    state = plan.combat_damage
    if state is not None:  # Combat Damage (Perks L1154): the table, rolled per trial
        events = np.array([plan.events(int(t)) for t in run.tally], dtype=np.int64)
        losses, _ = combat_damage.roll_losses(events, state, plan.loss_cap(), dice)
        values, counts = np.unique(losses, return_counts=True)
        loss_of = int
    else:
        values, counts = np.unique(run.tally, return_counts=True)
    for v, c in zip(values, counts, strict=True):
        loss = loss_of(int(v))
        hp_lost[loss] += c / trials
        slain[slain_of(loss)] += c / trials
    sv, sc = np.unique(run.self_loss, return_counts=True)
    return AttackOdds(
        hp_lost=_clean(hp_lost),
        models_slain=_clean(slain),
        attacker_hp_lost={int(v): c / trials for v, c in zip(sv, sc, strict=True)},
        eligible_hp=plan.eligible_hp,
        eligible_models=len(plan.eligible()),
        exact=False,
        trials=trials,
        notes=plan.sequence_notes(),
        per_weapon_mean=run.per_weapon_mean,
        weapons=plan.weapon_order(),
        unused_weapons=plan.unused_weapons(),
    )


@dataclass
class AttackResult:
    """A resolved attack sequence: per-weapon results and what happened to the models."""

    weapons: list[WeaponResult]
    hp_lost: int
    attacker_hp_lost: int
    allocation: list[tuple[int, int]]
    casualties: list[int]
    removed: list[int]
    #: Combat Damage (Perks L1154): the table's results 1-4 that took effect, in order
    combat_damage: tuple[int, ...] = ()


def resolve_attack(plan: AttackPlan, dice: Dice) -> AttackResult:
    """Resolve one attack sequence with real dice and apply it to the target's models.

    HP Loss goes to whole models in casualty order (§5.12, §5.16); casualties are marked and,
    in Advanced games, removed at once (Standard: at the end of the Attack Phase, §5.11, by
    :meth:`UnitState.remove_casualties`). Limited-use state (Emergency Save) is updated.
    The two halves, :func:`roll_attack` and :func:`apply_rolled`, let the controlling player
    choose the casualties in between (§5.11).
    """
    return apply_rolled(plan, roll_attack(plan, dice))


@dataclass(frozen=True)
class RolledAttack:
    """An attack sequence whose dice are rolled (Attack Steps 1-4) and whose HP loss is not
    yet applied to models (Step 5, where the controlling player chooses casualties, §5.11)."""

    weapons: list[WeaponResult]
    loss: int
    attacker_hp_lost: int
    emergency_used: bool
    #: Combat Damage (Perks L1154): the table's results 1-4 that took effect on the Target,
    #: in order (the game puts their statuses on it, ``game.perk_combat_damage``)
    combat_damage: tuple[int, ...] = ()
    #: Bodyguard (Perks L1935): the successful Attack Dice left over once the Target was slain
    #: (``roll_attack(…, follow_on=True)``), which strike the unit it guards
    follow_on: int = 0


def roll_attack(plan: AttackPlan, dice: Dice, follow_on: bool = False) -> RolledAttack:
    """Roll one attack sequence (no model changes): the HP the target loses, after Tough and
    the eligible HP cap (:meth:`AttackPlan.final_loss`). ``follow_on`` (a share of one
    weapon at a Bodyguard, Perks L1935): the Attack Dice are resolved one at a time and those
    left over once it is slain are counted (:func:`follow_on_dice` gives their exact odds)."""
    run = _run_sequence(plan, 1, dice, follow_on)
    state = plan.combat_damage
    if state is None:
        return RolledAttack(
            run.weapons,
            plan.final_loss(int(run.tally[0]), run.eligible_hp),
            int(run.self_loss[0]),
            bool(run.emergency_used[0]),
            follow_on=run.follow_on,
        )
    events = np.array([plan.events(int(run.tally[0]))], dtype=np.int64)  # Perks L1154
    loss, results = combat_damage.roll_losses(events, state, plan.loss_cap(), dice)
    return RolledAttack(
        run.weapons,
        int(loss[0]),
        int(run.self_loss[0]),
        bool(run.emergency_used[0]),
        results,
    )


def apply_rolled(plan: AttackPlan, rolled: RolledAttack) -> AttackResult:
    """Apply a rolled sequence's HP loss to the target's models in casualty order, with the
    controlling player's ``plan.casualty_preference`` within the rules' order (§5.11-5.12)."""
    plan.target.emergency_save_used = rolled.emergency_used
    allocation = allocate_loss(plan, rolled.loss)
    casualties = [i for i, _ in allocation if plan.target.models[i].hp <= 0]
    removed: list[int] = []
    if plan.context.playstyle is Playstyle.ADVANCED:
        removed = plan.target.remove_casualties()
    return AttackResult(
        rolled.weapons,
        rolled.loss,
        rolled.attacker_hp_lost,
        allocation,
        casualties,
        removed,
        rolled.combat_damage,
    )


def _sample_gravity(
    actual: IntArray, after: IntArray, h_e: int, cap_t: int, dice: Dice
) -> IntArray:
    """Gravity for every trial at once: a D6 per HP the weapon removed, each 6 halving the
    target's current HP (:func:`gravity_after`). One trial rolls as the rules read."""
    hit = np.flatnonzero(actual > 0)
    if not hit.size:
        return after
    faces = dice.d6_array(int(actual[hit].sum()), "Gravity")
    sixes = np.bincount(np.repeat(np.arange(hit.size), actual[hit])[faces == 6], minlength=hit.size)
    cur = np.maximum(0, h_e - after[hit])
    hp = cur.copy()
    for step in range(int(sixes.max(initial=0))):
        live = (sixes > step) & (hp > 0)
        hp[live] = np.minimum(hp[live] - 1, (hp[live] + 1) // 2)
    out = after.copy()
    out[hit] = np.minimum(cap_t, after[hit] + cur - hp)
    return out


def _sample_deathblow(
    actual: IntArray, after: IntArray, h_e: int, cap_t: int, dice: Dice
) -> IntArray:
    """Deathblow for every trial at once (:func:`deathblow_after`): 9+ on 2D6 halves the
    target's current HP, 12 slays it."""
    cur = np.maximum(0, h_e - after)
    hit = np.flatnonzero((actual > 0) & (cur > 0))
    if not hit.size:
        return after
    roll = _roll_expr_array(DiceExpr(2, 6), hit.size, dice, "Deathblow")
    c = cur[hit]
    left = np.where(roll >= 12, 0, np.where(roll >= 9, c // 2, c))
    out = after.copy()
    out[hit] = np.minimum(cap_t, after[hit] + c - left)
    return out


def _sample_retaliation(ret: Retaliation, actual: IntArray, dice: Dice) -> IntArray:
    """Retaliate for every trial at once (§12.4): a D6 per HP lost, 4+ hits the attacker, who
    rolls its Saves; returns the attacker's HP lost per trial."""
    lost = np.zeros(actual.size, dtype=np.int64)
    hit = np.flatnonzero(actual > 0)
    if not hit.size:
        return lost
    faces = dice.d6_array(int(actual[hit].sum()), "Retaliate")
    owner = np.repeat(hit, actual[hit])[faces >= 4]
    left = owner[~_save_rolls(ret.armour, owner.size, dice, "Retaliate Save")]
    left = left[~_save_rolls(ret.aegis, left.size, dice, "Retaliate Save")]
    return lost + np.bincount(left, minlength=actual.size).astype(np.int64)


def attack_odds(
    plan: AttackPlan,
    *,
    fallback_trials: int = 50_000,
    seed: int | None = None,
    max_paths: int = 20_000,
    progress: Callable[[int, int], None] | None = None,
) -> AttackOdds:
    """Exact odds when enumeration is tractable, otherwise Monte Carlo with a stated interval
    (``progress`` as in :func:`sample_attack`, called only when it samples).

    Raises :class:`RulesError` when no weapon of the attacker can make this kind of attack
    (:meth:`AttackPlan.verify_weapons`).
    """
    plan.verify_weapons()
    try:
        return exact_attack(plan, max_paths=max_paths)
    except EnumerationTooLarge as exc:
        odds = sample_attack(plan, fallback_trials, SeededDice(seed), progress)
        odds.notes.insert(0, f"exact enumeration too large ({exc}); Monte Carlo used")
        return odds
