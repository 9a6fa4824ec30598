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
from warbench.rulesets.warsurge.attack import (
    AttackContext,
    DieProgram,
    Playstyle,
    SaveSpec,
    UnitState,
    WeaponUse,
    casualty_order,
    compile_weapon_use,
    deathblow_after,
    gravity_after,
    sample_dice,
    sample_self_saves,
    save_upgrades,
    tough_total,
)

FloatArray = npt.NDArray[np.float64]
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
        if self.weapons:
            for w in self.weapons:
                if w not in self.attacker.weapons:
                    from warbench.kernel.errors import UnknownNameError

                    raise UnknownNameError(
                        "weapon", w, list(self.attacker.weapons), where=self.attacker.profile.name
                    )
            return list(self.weapons)
        carried = {w for i in self.attacker.on_table for w in self.attacker.models[i].weapons}
        return [w for w in self.attacker.weapons if w in carried]

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
        """Largest raw tally that still matters (twice the HP against Tough)."""
        return self.eligible_hp * (2 if self.tough else 1)

    def final_loss(self, raw: int) -> int:
        """HP actually lost for a raw tally: Tough halves it (§12.4), excess is discarded (§5.5)."""
        loss = tough_total(raw) if self.tough else raw
        return min(loss, self.eligible_hp)

    def slain_for_loss(self, loss: int) -> int:
        """Models made casualties by ``loss`` HP, applied in casualty order (§5.12)."""
        return slain_counter(self)(loss)


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
    """Apply ``loss`` HP to the target's models in casualty order; return (model, HP lost)."""
    out = []
    for i in plan.casualty_order():
        if loss <= 0:
            break
        m = plan.target.models[i]
        lost = min(loss, m.hp)
        m.hp -= lost
        loss -= lost
        out.append((i, lost))
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


def dice_distribution(prog: DieProgram, n: int, cap_t: int, cap_s: int) -> FloatArray:
    """Exact joint distribution over (state in, state out, target loss, self loss) for ``n`` dice.

    Returns an array of shape (2, 2, cap_t + 1, cap_s + 1); values at the caps mean "at least".
    """
    trans = die_transitions(prog)
    result = np.zeros((2, 2, cap_t + 1, cap_s + 1))
    if not prog.emergency_save and all(ds == 0 for *_, ds, _p in trans):
        q = np.zeros(cap_t + 1)
        for _a, _b, dt, _ds, p in trans:
            q[min(dt, cap_t)] += p
        block = _power_capped(q, n, cap_t)
        result[0, 0, :, 0] = block
        result[1, 1, :, 0] = block
        return result
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


def _conv_capped(a: FloatArray, b: FloatArray, cap: int) -> FloatArray:
    full = np.convolve(a, b)
    out = full[: cap + 1].copy()
    out[cap] += full[cap + 1 :].sum()
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
    if use.against_self:
        moved = np.zeros_like(d)
        for t in range(cap_t + 1):
            for s in range(cap_s + 1):
                moved[:, :, 0, min(cap_s, s + t)] += d[:, :, t, s]
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
    cap_s = max(0, plan.attacker.current_hp)
    # state: emergency save (0 available, 1 not), raw tally, attacker HP lost
    seq = np.zeros((2, cap_t + 1, cap_s + 1))
    seq[0 if not plan.target.emergency_save_used else 1, 0, 0] = 1.0
    notes: list[str] = []
    per_weapon: dict[str, float] = {}
    for weapon in plan.weapon_order():
        uses = _weapon_uses(plan, weapon, max_paths)
        work = sum(u.dice for u, _ in uses) * (cap_t + 1) * (cap_s + 1)
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
    for t in range(cap_t + 1):
        p = float(raw[t].sum())
        if p <= 0:
            continue
        loss = plan.final_loss(t)
        hp_lost[loss] += p
        slain[slain_of(loss)] += p
    attacker = {s: float(raw[:, s].sum()) for s in range(cap_s + 1) if raw[:, s].sum() > 0}
    return AttackOdds(
        hp_lost=_clean(hp_lost),
        models_slain=_clean(slain),
        attacker_hp_lost=_clean(attacker),
        eligible_hp=h_e,
        eligible_models=len(plan.eligible()),
        notes=notes,
        per_weapon_mean=per_weapon,
    )


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
                block = w[e_in, e_out]
                for l_, u in zip(*np.nonzero(block), strict=True):
                    out[e_out] += block[l_, u] * _shift(seq[e_in], int(l_), int(u))
        return out
    p_ret = 0.0
    if retaliation is not None:
        from warbench.rulesets.warsurge.attack import Retaliation

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


@dataclass
class _Run:
    tally: npt.NDArray[np.int64]
    self_loss: npt.NDArray[np.int64]
    weapons: list[WeaponResult]
    per_weapon_mean: dict[str, float]
    emergency_used: npt.NDArray[np.bool_]


def _compile_groups(
    plan: AttackPlan, weapon: str, trials: int, dice: Dice
) -> dict[WeaponUse, list[int]]:
    profile = plan.attacker.weapons[weapon]
    users = plan.users_of(weapon)

    def program(d: Dice) -> WeaponUse:
        return compile_weapon_use(plan.attacker, profile, users, plan.target, plan.context, d)

    groups: dict[WeaponUse, list[int]] = defaultdict(list)
    try:  # no weapon-level roll: compile once
        ((fixed, _p),) = enumerate_outcomes(program, max_paths=1).outcomes
        groups[fixed] = list(range(trials))
    except EnumerationTooLarge:
        for t in range(trials):
            groups[program(dice)].append(t)
    return groups


def _run_sequence(plan: AttackPlan, trials: int, dice: Dice) -> _Run:
    """Resolve the sequence ``trials`` times with physical dice (the simulator's path)."""
    h_e = plan.eligible_hp
    cap_t = plan.cap
    cap_s = max(0, plan.attacker.current_hp)
    tally = np.zeros(trials, dtype=np.int64)
    self_loss = np.zeros(trials, dtype=np.int64)
    emergency_used = np.full(trials, plan.target.emergency_save_used)
    per_weapon: dict[str, float] = {}
    results: list[WeaponResult] = []
    for weapon in plan.weapon_order():
        weapon_loss = np.zeros(trials, dtype=np.int64)
        for use, idx_list in _compile_groups(plan, weapon, trials, dice).items():
            idx = np.asarray(idx_list, dtype=np.int64)
            used_before = emergency_used[idx].copy()  # split once, before this weapon spends it
            for em_used in (False, True):
                sub = idx[used_before == em_used]
                if not sub.size:
                    continue
                die = replace(use.die, emergency_save=False) if em_used else use.die
                out = sample_dice(die, use.dice, dice, trials=sub.size)
                emergency_used[sub] = emergency_used[sub] | out.emergency_spent
                tl = out.target_loss
                sl = out.self_loss + use.self_loss
                if use.self_save_dice:
                    sl = sl + np.array([sample_self_saves(use, dice) for _ in range(sub.size)])
                if use.against_self:
                    sl = sl + tl
                    tl = np.zeros_like(tl)
                before = tally[sub]
                after = np.minimum(cap_t, before + tl)
                actual = after - before
                for j in range(sub.size) if (use.gravity or use.deathblow) else ():
                    if not actual[j]:
                        continue
                    if use.gravity:
                        k = int((dice.d6_array(int(actual[j]), "Gravity") == 6).sum())
                        cur = max(0, h_e - int(after[j]))
                        after[j] = min(cap_t, after[j] + cur - gravity_after(cur, k))
                    cur = max(0, h_e - int(after[j]))
                    if use.deathblow and cur:
                        r = dice.roll(DiceExpr(2, 6), "Deathblow")
                        after[j] = min(cap_t, after[j] + cur - deathblow_after(cur, r))
                if use.retaliation is not None:
                    ret = use.retaliation
                    for j in range(sub.size):
                        if actual[j]:
                            hits = int((dice.d6_array(int(actual[j]), "Retaliate") >= 4).sum())
                            rest = hits - _sample_saves(ret.armour, hits, dice)
                            sl[j] += rest - _sample_saves(ret.aegis, rest, dice)
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
                        )
                    )
        per_weapon[weapon] = float(weapon_loss.mean())
    return _Run(tally, self_loss, results, per_weapon, emergency_used)


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
    values, counts = np.unique(run.tally, return_counts=True)
    for v, c in zip(values, counts, strict=True):
        loss = plan.final_loss(int(v))
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
        per_weapon_mean=run.per_weapon_mean,
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


def resolve_attack(plan: AttackPlan, dice: Dice) -> AttackResult:
    """Resolve one attack sequence with real dice and apply it to the target's models.

    HP Loss goes to whole models in casualty order (§5.12, §5.16); casualties are marked and,
    in Advanced games, removed at once (Standard: at the end of the Attack Phase, §5.11, by
    :meth:`UnitState.remove_casualties`). Limited-use state (Emergency Save) is updated.
    """
    run = _run_sequence(plan, 1, dice)
    loss = plan.final_loss(int(run.tally[0]))
    plan.target.emergency_save_used = bool(run.emergency_used[0])
    allocation = allocate_loss(plan, loss)
    casualties = [i for i, _ in allocation if plan.target.models[i].hp <= 0]
    removed: list[int] = []
    if plan.context.playstyle is Playstyle.ADVANCED:
        removed = plan.target.remove_casualties()
    return AttackResult(run.weapons, loss, int(run.self_loss[0]), allocation, casualties, removed)


def _sample_saves(spec: SaveSpec, n: int, dice: Dice) -> int:
    if n <= 0 or spec.needed is None:
        return 0
    from warbench.rulesets.warsurge.attack import _save_rolls

    return int(_save_rolls(spec, n, dice, "Retaliate Save").sum())


def attack_odds(
    plan: AttackPlan,
    *,
    fallback_trials: int = 50_000,
    seed: int | None = None,
    max_paths: int = 20_000,
    progress: Callable[[int, int], None] | None = None,
) -> AttackOdds:
    """Exact odds when enumeration is tractable, otherwise Monte Carlo with a stated interval
    (``progress`` as in :func:`sample_attack`, called only when it samples)."""
    try:
        return exact_attack(plan, max_paths=max_paths)
    except EnumerationTooLarge as exc:
        odds = sample_attack(plan, fallback_trials, SeededDice(seed), progress)
        odds.notes.insert(0, f"exact enumeration too large ({exc}); Monte Carlo used")
        return odds
