"""Weapons, tweaks and form as game state (004_f4ea5693af0644ce.txt L1067, L1193, L1199,
L1609, L1613, L1845).

A figure's set-up profile (:class:`.setup.Profile`) is fixed for a game; what may change is
kept in the state as a :class:`.state.Kit` (``GameState.kit``, only for the figures it
changed): its Shapechanger form, its weapon slots as ``[figure, form, slot]`` references to
the forces' weapons, the Special Powers and edges Drain Power took and the weapons received
that wait for the next activation. Every rule reads a figure's profile through one reader:
:func:`context_of` gives the state's context, whose ``profiles[i]`` is the set-up profile of
a figure without a kit and the profile its kit derives otherwise. A set-up in which nothing
can change (no Scrounger, Shapechanger, Transferable, Drain Power or Restore Vehicle Spirit)
gets the set-up's context itself, so those games play and digest exactly as before.

* Scrounger (L1609): a close combat kill lets the killer exchange one of its weapons for one
  of the victim's (``Attack.take``: ``[victim's slot, own slot]``, ``[-1, -1]`` to keep its
  own; the engine's choice: the victim's dearest weapon for its own cheapest when dearer).
* Transferable (L1845): when its carrier is removed from the table, the weapon may pass to
  the nearest figure of the same unit within 3" (``Kit.offers``; the owner's ``transfer``
  decision, the engine's default: pass when dearer), which gives up its dearest weapon and
  may not use the new one before its next activation.
* Shapechanger (L1613): deployed in either form (``Place.form``); in each Follow Up step the
  ``shape`` decision (``Shape``, the default: stay) for each Shapechanger on the table.
* Drain Power (L1067): the target loses a Special Power or personal edge, or an active
  power's effect ends (``Attack.lose``; the engine's choice: its first power, else its dearest
  edge, else the first active effect); Restore (L1193) gives back the last one lost.
* Restore Vehicle Spirit (L1199): a vehicle destroyed while a user is on the table is left
  disabled (``Kit.wreck``); the user in base contact uses the power on it (an ``Attack`` on
  the wreck), then a die says whether it is usable; usable, the user becomes the combined
  figure (``Kit.ride``: the vehicle's type, base, Movement and Defense, the user's Mental,
  Control Radius and Hero Points, both weapon sets but one set a turn, ``Kit.ridden``).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any, overload

from warbench.kernel.dice import Dice
from warbench.play.core import Event
from warbench.rulesets.warengine.costs import weapon_cost
from warbench.rulesets.warengine.dice import roll_xky
from warbench.rulesets.warengine.game import setup as stp
from warbench.rulesets.warengine.game.effects import PERSONAL, POWERS, effects_of
from warbench.rulesets.warengine.game.measure import gap, gap_at, on_table
from warbench.rulesets.warengine.game.setup import Context, Profile, WeaponProfile
from warbench.rulesets.warengine.game.setup import fig_name as _n
from warbench.rulesets.warengine.game.state import (
    Attack,
    Fig,
    GameState,
    Kit,
    Move,
    Shape,
    Transfer,
    rule,
)
from warbench.rulesets.warengine.models import Figure, Weapon

_STATEFUL: dict[str, bool] = {}
#: The powers that change kits.
STATE_POWERS = ("Drain Power", "Restore Vehicle Spirit")
#: Restore Vehicle Spirit: the die a Light, Medium or Heavy vehicle needs to be usable (L1201).
USABLE = {"L": 2, "M": 3, "H": 4}
_DERIVED: dict[tuple[object, ...], Profile] = {}

#: The timed effects of Special Powers that Drain Power may end ("active:<tag>", L1069).
ACTIVE = tuple(
    sorted(
        {
            str(e.param[0]) if isinstance(e.param, tuple) else str(e.param)
            for effs in POWERS.values()
            for e in effs
            if e.kind in ("power_bonus", "power_unit_tag", "power_unit_tag_enemy")
        }
        | {"halted", "suspended", "exposed", "adrenal", "telepathy", "def_hero"}
    )
)


def stateful(ctx: Context) -> bool:
    """Whether anything in the set-up's forces can change a figure's kit."""
    v = _STATEFUL.get(ctx.key)
    if v is None:
        v = False
        for force in ctx.forces:
            for fig in force.figures.values():
                for form in fig.all_forms():
                    if {"Scrounger", "Shapechanger"} & set(form.tweaks):
                        v = True
                    for w in form.weapons:
                        for p in [w, *w.profiles]:
                            if "Transferable" in p.tweaks or p.power in STATE_POWERS:
                                v = True
        _STATEFUL[ctx.key] = v
    return v


class LiveProfiles(Sequence[Profile]):
    """The figures' profiles as one state has them (the set-up's, or a kit's)."""

    __slots__ = ("base", "ctx", "state")

    def __init__(self, ctx: Context, state: GameState) -> None:
        self.base = ctx.profiles
        self.ctx = ctx
        self.state = state

    @overload
    def __getitem__(self, i: int) -> Profile: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Profile]: ...

    def __getitem__(self, i: int | slice) -> Profile | Sequence[Profile]:
        if isinstance(i, slice):
            return [self[j] for j in range(len(self.base))[i]]
        k = self.state.kit.get(i)
        if k is None:
            return self.base[i]
        return profile_of(self.ctx, self.state, i, k)

    def __len__(self) -> int:
        return len(self.base)

    def __iter__(self) -> Iterator[Profile]:
        return (self[i] for i in range(len(self.base)))


def view_profiles(ctx: Context, kits: Mapping[str, Any]) -> Sequence[Profile]:
    """The profiles a view's ``kit`` entries give (for drawing a view without its state)."""
    figs: list[Fig] = []
    for side, force in enumerate(ctx.forces):
        for unit in force.units:
            for m in unit.members:
                figs += [Fig(len(figs) + n, side, 0, m.figure) for n in range(m.count)]
    state = GameState(0, ctx.key, figs, [])
    state.kit = {
        int(i): Kit(**k) if isinstance(k, Mapping) else copy.deepcopy(k) for i, k in kits.items()
    }
    return LiveProfiles(ctx, state)


def context_of(state: GameState) -> Context:
    """The context the rules read for ``state``: the set-up's own when no kit can change,
    else a copy whose profiles follow the state's kits."""
    ctx = stp.context(state.setup_key)
    if not stateful(ctx):
        return ctx
    live = copy.copy(ctx)
    live.profiles = LiveProfiles(ctx, state)
    _refresh_big(live)
    return live


def _refresh_big(ctx: Context) -> None:
    ctx.big = tuple(i for i, p in enumerate(ctx.profiles) if p.big)


def model(ctx: Context, fig: Fig) -> Figure:
    """The figure's Troop Builder figure (its first form)."""
    home = ctx.homes[fig.id] if fig.id < len(ctx.homes) else fig.side  # Control, Conversion
    return ctx.forces[home].figures[fig.name]


def forms(ctx: Context, fig: Fig) -> list[Figure]:
    """The figure's forms (one unless a Shapechanger, L1615)."""
    return model(ctx, fig).all_forms()


def arms(ctx: Context, state: GameState, fid: int) -> list[list[int]]:
    """The figure's weapon slots as ``[figure, form, slot]``."""
    k = state.kit.get(fid)
    form = k.form if k is not None else 0
    if k is not None and k.arms:
        return [list(a) for a in k.arms]
    n = len(forms(ctx, state.figs[fid])[form].weapons)
    return [[fid, form, s] for s in range(n)]


def weapon(ctx: Context, state: GameState, arm: list[int]) -> Weapon:
    """The force's weapon an arm refers to."""
    return forms(ctx, state.figs[arm[0]])[arm[1]].weapons[arm[2]]


def _is_power(w: Weapon) -> bool:
    return w.power is not None or any(p.power is not None for p in w.profiles)


def _powers(w: Weapon) -> set[str]:
    return {p.power for p in [w, *w.profiles] if p.power is not None}


def profile_of(ctx: Context, state: GameState, fid: int, k: Kit) -> Profile:
    """The profile a kit derives (memoised): the form's characteristics (Hero Points, cost
    and character of the combined figure stay the set-up's), its arms' weapons, without the
    slots received this activation and what Drain Power took."""
    key = (
        ctx.key,
        fid,
        k.form,
        tuple(tuple(a) for a in k.arms),
        tuple(k.lost),
        tuple(k.fresh),
        k.ride,
        () if k.ride is None else tuple(tuple(a) for a in arms(ctx, state, k.ride)),
    )
    got = _DERIVED.get(key)
    if got is not None:
        return got
    profs = ctx.profiles
    base = profs.base[fid] if isinstance(profs, LiveProfiles) else profs[fid]
    fig = state.figs[fid]
    form = forms(ctx, fig)[k.form]
    prof = base
    if k.form:
        prof = replace(
            stp.profile_of_figure(form),
            hero=base.hero,
            points=base.points,
            character=base.character,
            faction=base.faction,
        )
    tweaks = tuple(t for t in form.tweaks if t not in k.lost)
    held = k.arms or [[fid, k.form, s] for s in range(len(form.weapons))]
    if k.ride is not None:  # the combined figure also has the vehicle's weapons (L1201)
        held = held + arms(ctx, state, k.ride)
    ws: list[WeaponProfile] = []
    for slot, arm in enumerate(held):
        w = weapon(ctx, state, arm)
        if slot in k.fresh or _powers(w) & set(k.lost):
            continue
        ws.extend(replace(p, slot=slot) for p in stp.weapon_profiles([w]))
    if k.ride is not None:  # the vehicle's Movement, Defense and base; the user's Mental,
        # Control Radius and Hero Points (L1201)
        veh = profs.base[k.ride] if isinstance(profs, LiveProfiles) else profs[k.ride]
        extra = tuple(t for t in veh.tweaks if t not in tweaks and t not in k.lost)
        tweaks = tweaks + extra
        prof = replace(prof, type=veh.type, mv=veh.mv, df=veh.df, big=veh.big, radius=veh.radius)
    prof = replace(prof, tweaks=tweaks, effects=effects_of("personal", tweaks), weapons=tuple(ws))
    _DERIVED[key] = prof
    return prof


def rekit(state: GameState, ctx: Context, fid: int, change: Callable[[Kit], None]) -> None:
    """Change figure ``fid``'s kit; its weapon bookkeeping (used, reserved, spent, burning
    attacks it made, its queued attacks) follows each weapon to its new index."""
    f = state.figs[fid]
    old = ctx.profiles[fid].weapons
    old_arms = arms(ctx, state, fid)
    k = copy.deepcopy(state.kit.get(fid)) or Kit()
    change(k)
    if k == Kit():
        state.kit.pop(fid, None)
    else:
        state.kit[fid] = k
    new = ctx.profiles[fid].weapons
    new_arms = arms(ctx, state, fid)

    def tag(ws: Sequence[WeaponProfile], am: list[list[int]]) -> list[tuple[object, ...]]:
        seen: dict[int, int] = {}
        out: list[tuple[object, ...]] = []
        for w in ws:
            n = seen.get(w.slot, 0)
            seen[w.slot] = n + 1
            out.append((w.slot, tuple(am[w.slot]) if w.slot < len(am) else (), n))
        return out

    now = {t: i for i, t in enumerate(tag(new, new_arms))}
    where = {i: now.get(t) for i, t in enumerate(tag(old, old_arms))}

    def m(i: int | None) -> int | None:
        return None if i is None else where.get(i)

    f.fired = [j for i in f.fired if (j := m(i)) is not None]
    f.one_shot = [j for i in f.one_shot if (j := m(i)) is not None]
    f.reserve_more = [j for i in f.reserve_more if (j := m(i)) is not None]
    f.reloaded = {j: t for i, t in f.reloaded.items() if (j := m(i)) is not None}
    f.reserved = m(f.reserved)
    if f.reserved is None and f.reserve_more:
        f.reserved = f.reserve_more.pop(0)
    for g in state.figs:
        kept: list[list[int]] = []
        for b in g.burning:
            j = m(b[1]) if b[0] == fid else b[1]
            if j is not None:
                kept.append([b[0], j, *b[2:]])
        g.burning = kept
    for r in state.queue:
        if r.attacker == fid and r.weapon >= 0:
            j = m(r.weapon)
            r.weapon = -1 if j is None else j
            if j is None:  # the weapon is gone: no follow-up attack can name it
                r.effects = [e for e in r.effects if not e.startswith("follow_up")]
    if isinstance(ctx.profiles, LiveProfiles):
        _refresh_big(ctx)


def _cost(w: Weapon) -> int:
    return weapon_cost(w).points


def power_event(
    ctx: Context, f: Fig, name: str, t: Fig, detail: str, ok: bool, power: str | None
) -> Event:
    """The event of ``f``'s Special Power roll with ``name`` on ``t`` (L830): ``detail`` tells
    the roll, ``ok`` its success."""
    return Event(
        "power",
        f"{_n(ctx, f)} uses {name} on {_n(ctx, t)}: {detail}: " + ("success" if ok else "failure"),
        rule(830),
        {"power": power, "success": ok},
    )


# -- Scrounger (L1609) ------------------------------------------------------------------------


def scrounge_default(ctx: Context, state: GameState, a: Fig, t: Fig) -> tuple[int, int]:
    """The engine's exchange: the victim's dearest weapon for the killer's cheapest, when
    dearer; else ``(-1, -1)``."""
    mine = [(i, _cost(weapon(ctx, state, x))) for i, x in enumerate(arms(ctx, state, a.id))]
    theirs = [(j, _cost(weapon(ctx, state, x))) for j, x in enumerate(arms(ctx, state, t.id))]
    mine = [(i, c) for i, c in mine if not _is_power(weapon(ctx, state, arms(ctx, state, a.id)[i]))]
    theirs = [
        (j, c) for j, c in theirs if not _is_power(weapon(ctx, state, arms(ctx, state, t.id)[j]))
    ]
    if not mine or not theirs:
        return (-1, -1)
    i, ci = min(mine, key=lambda x: (x[1], x[0]))
    j, cj = max(theirs, key=lambda x: (x[1], -x[0]))
    return (j, i) if cj > ci else (-1, -1)


def take_refusal(ctx: Context, state: GameState, a: Attack) -> str | None:
    """Why ``Attack.take`` is not allowed (only a Scrounger's close combat attack, L1609)."""
    if a.take is None:
        return None
    w = ctx.profiles[a.fig].weapons[a.weapon]
    if not ctx.profiles[a.fig].has("scrounger") or not w.cc or w.power is not None:
        return "only a Scrounger's close combat attack may scrounge a weapon (take)"
    j, i = a.take
    if (j, i) == (-1, -1):
        return None
    mine, theirs = arms(ctx, state, a.fig), arms(ctx, state, a.target)
    if not (0 <= i < len(mine) and 0 <= j < len(theirs)):
        return (
            f"take {[j, i]}: the target has slots 0 to {len(theirs) - 1}, "
            f"the user 0 to {len(mine) - 1}"
        )
    if _is_power(weapon(ctx, state, mine[i])) or _is_power(weapon(ctx, state, theirs[j])):
        return "a Special Power is not a weapon to scrounge or give"
    return None


def take_choices(ctx: Context, state: GameState, a: Attack) -> list[Attack]:
    """A Scrounger's close combat attack: keep its own weapons, or each exchange of one of
    its weapons for one of the target's (the listed attack, ``take`` empty, is the
    engine's choice)."""
    w = ctx.profiles[a.fig].weapons[a.weapon]
    if not (ctx.profiles[a.fig].has("scrounger") and w.cc and w.power is None):
        return []
    mine, theirs = arms(ctx, state, a.fig), arms(ctx, state, a.target)
    own = [i for i, x in enumerate(mine) if not _is_power(weapon(ctx, state, x))]
    got = [j for j, x in enumerate(theirs) if not _is_power(weapon(ctx, state, x))]
    return [replace(a, take=(-1, -1))] + [replace(a, take=(j, i)) for j in got for i in own]


def note_take(state: GameState, a: Attack) -> None:
    """Carry the attack's ``take`` choice on its queued resolution."""
    if a.take is None:
        return
    for r in state.queue:
        if r.attacker == a.fig and r.cc and not any(e.startswith("take:") for e in r.effects):
            r.effects.append(f"take:{a.take[0]}:{a.take[1]}:{a.target}")


def scrounge(
    state: GameState, ctx: Context, a: Fig, t: Fig, effects: list[str], events: list[Event]
) -> None:
    """After a close combat kill: a Scrounger may exchange a weapon with the victim (L1609)."""
    if not isinstance(ctx.profiles, LiveProfiles) or not ctx.profiles[a.id].has("scrounger"):
        return
    if not a.alive:
        return
    chosen = next((e for e in effects if e.startswith("take:")), None)
    if chosen is not None and int(chosen.split(":")[3]) == t.id:  # the declared target's
        j, i = (int(x) for x in chosen.split(":")[1:3])
    else:
        j, i = scrounge_default(ctx, state, a, t)
    theirs, mine = arms(ctx, state, t.id), arms(ctx, state, a.id)
    if not (0 <= i < len(mine) and 0 <= j < len(theirs)):
        return
    if _is_power(weapon(ctx, state, mine[i])) or _is_power(weapon(ctx, state, theirs[j])):
        return
    got = theirs[j]
    gave = weapon(ctx, state, mine[i]).name

    def swap(k: Kit) -> None:
        k.arms = mine[:i] + [got] + mine[i + 1 :]
        k.fresh = [x for x in k.fresh if x != i]

    used = any(ctx.profiles[a.id].weapons[x].slot == i for x in a.fired)
    rekit(state, ctx, a.id, swap)
    if used:  # the slot stays used this activation (L399)
        a.fired += [x for x, w in enumerate(ctx.profiles[a.id].weapons) if w.slot == i]
    events.append(
        Event(
            "scrounge",
            f"{_n(ctx, a)} scrounges {weapon(ctx, state, got).name} from {_n(ctx, t)} for {gave}",
            rule(1609),
            {"fig": a.id, "from": t.id},
        )
    )


# -- Transferable (L1845) ---------------------------------------------------------------------


def removed(
    state: GameState, ctx: Context, t: Fig, events: list[Event], *, destroyed: bool = True
) -> None:
    """A figure leaves the table: each Transferable weapon it carries may pass to the nearest
    figure of its unit within 3" (the engine passes it when dearer than the weapon the
    receiver gives up, its dearest); a destroyed vehicle is left disabled while a Restore
    Vehicle Spirit user is on the table (L1201)."""
    if not isinstance(ctx.profiles, LiveProfiles):
        return
    if destroyed:
        _disable(state, ctx, t, events)
    offers: list[list[int]] = []
    for slot, arm in enumerate(arms(ctx, state, t.id)):
        w = weapon(ctx, state, arm)
        if "Transferable" not in {x for p in [w, *w.profiles] for x in p.tweaks}:
            continue
        near = [
            g
            for g in state.figs
            if g.id != t.id and g.unit == t.unit and on_table(g) and gap(ctx, t, g) <= 3.0 + 1e-9
        ]
        if near:
            r = min(near, key=lambda g: (gap(ctx, t, g), g.id))
            offers.append([slot, r.id])
    if offers:

        def offer(k: Kit) -> None:
            k.offers = offers

        rekit(state, ctx, t.id, offer)


def _given_up(ctx: Context, state: GameState, r: int) -> tuple[int, int | None]:
    """The receiver's slot that takes the weapon (its dearest weapon's, else a new one) and
    that weapon's cost (None: no weapon given up)."""
    mine = arms(ctx, state, r)
    guns = [
        (i, _cost(weapon(ctx, state, x)))
        for i, x in enumerate(mine)
        if not _is_power(weapon(ctx, state, x))
    ]
    if not guns:
        return len(mine), None
    return max(guns, key=lambda x: (x[1], -x[0]))


def transfer_question(state: GameState, ctx: Context) -> tuple[int, int, bool] | None:
    """``(player, carrier, engine's answer)`` while a Transferable weapon of a figure removed
    from the table waits for its owner's choice ("may be passed", L1847); the engine passes it
    when it costs more than the weapon the receiver would give up."""
    for i in sorted(state.kit):
        k = state.kit[i]
        if k.offers:
            slot, r = k.offers[0]
            w = weapon(ctx, state, arms(ctx, state, i)[slot])
            _, dear = _given_up(ctx, state, r)
            return (
                state.figs[i].side,
                i,
                on_table(state.figs[r]) and (dear is None or _cost(w) > dear),
            )
    return None


def apply_transfer(state: GameState, ctx: Context, a: Transfer, events: list[Event]) -> None:
    """Pass the weapon (or not): the receiver gives up its dearest weapon and may not use the
    new one before its next activation (L1847)."""
    t = state.figs[a.fig]
    k0 = state.kit[a.fig]
    slot, r = k0.offers[0]
    arm = arms(ctx, state, a.fig)[slot]

    def done(k: Kit) -> None:
        k.offers = k.offers[1:]

    rekit(state, ctx, a.fig, done)
    if not a.use or not on_table(state.figs[r]):
        return
    mine = arms(ctx, state, r)
    i, _ = _given_up(ctx, state, r)

    def give(k: Kit) -> None:
        k.arms = [*mine[:i], list(arm), *mine[i + 1 :]]
        k.fresh = sorted({*k.fresh, i})

    rekit(state, ctx, r, give)
    events.append(
        Event(
            "transfer",
            f"{weapon(ctx, state, arm).name} passes from {_n(ctx, t)} to {_n(ctx, state.figs[r])}",
            rule(1847),
            {"fig": r, "from": t.id},
        )
    )


def on_activate(state: GameState, ctx: Context, figs: list[int]) -> None:
    """A received weapon may be used from the figure's next activation (L1845)."""
    for i in figs:
        k = state.kit.get(i)
        if k is not None and k.fresh:
            rekit(state, ctx, i, lambda k: setattr(k, "fresh", []))


# -- Drain Power (L1067) and Restore (L1193) -------------------------------------------------


def _edge_cost(name: str) -> int:
    from warbench.rulesets.warengine.tables import catalogue

    t = dict(catalogue().personal_tweaks).get(name)
    return int(t.cost) if t is not None and isinstance(t.cost, int) else 0


def drain_options(state: GameState, ctx: Context, t: Fig) -> list[str]:
    """What Drain Power may take from ``t``: its Special Powers, its personal edges (tweaks
    that cost points and act in the game), then the active effects of powers on it."""
    prof = ctx.profiles[t.id]
    powers = list(dict.fromkeys(w.power for w in prof.weapons if w.power is not None))
    edges = sorted(
        (n for n in prof.tweaks if PERSONAL.get(n) and _edge_cost(n) > 0),
        key=lambda n: (-_edge_cost(n), n),
    )
    active = [f"active:{tag}" for tag in ACTIVE if tag in t.bonus]
    return powers + edges + active


def drain(
    state: GameState, ctx: Context, f: Fig, t: Fig, choice: str | None, events: list[Event]
) -> None:
    """Drain Power succeeded on ``t`` (L1069)."""
    opts = drain_options(state, ctx, t)
    pick = choice if choice is not None else (opts[0] if opts else None)
    if pick is None or pick not in opts:
        return
    if pick.startswith("active:"):
        tag = pick.split(":", 1)[1]
        t.bonus.pop(tag, None)
        if tag == "suspended":
            t.bonus.pop("halted", None)
    else:
        rekit(state, ctx, t.id, lambda k: k.lost.append(pick))
    events.append(Event("drain", f"{_n(ctx, t)} loses {pick}", rule(1069), {"fig": t.id}))


def drain_refusal(state: GameState, ctx: Context, a: Attack) -> str | None:
    """``Attack.lose`` names something Drain Power may take from the target."""
    if a.lose is None:
        return None
    if ctx.profiles[a.fig].weapons[a.weapon].power != "Drain Power":
        return "only Drain Power takes a power or edge (lose)"
    opts = drain_options(state, ctx, state.figs[a.target])
    if a.lose not in opts:
        return f"lose {a.lose!r}: the target may lose one of {opts}"
    return None


def drain_choices(state: GameState, ctx: Context, a: Attack) -> list[Attack]:
    """Each thing Drain Power may take (the listed attack, ``lose`` empty, is the default)."""
    if ctx.profiles[a.fig].weapons[a.weapon].power != "Drain Power":
        return []
    return [replace(a, lose=o) for o in drain_options(state, ctx, state.figs[a.target])]


def restore(state: GameState, ctx: Context, t: Fig, events: list[Event]) -> None:
    """Restore gives back the last Special Power or edge lost through Drain Power (L1195)."""
    k = state.kit.get(t.id)
    if k is None or not k.lost or not isinstance(ctx.profiles, LiveProfiles):
        return
    back = k.lost[-1]

    def give_back(k: Kit) -> None:
        k.lost.pop()

    rekit(state, ctx, t.id, give_back)
    events.append(Event("restore", f"{_n(ctx, t)} regains {back}", rule(1195), {"fig": t.id}))


# -- Shapechanger (L1613) ---------------------------------------------------------------------


def form_of(state: GameState, fid: int) -> int:
    """The figure's current form."""
    k = state.kit.get(fid)
    return k.form if k is not None else 0


def _fits(state: GameState, ctx: Context, f: Fig, form: int) -> bool:
    """Whether the figure's base in ``form`` overlaps no other base where it stands."""
    probe = state.clone()
    k = probe.kit.setdefault(f.id, Kit())
    k.form, k.arms, k.fresh = form, [], []
    live = context_of(probe)
    g = probe.figs[f.id]
    r = live.profiles[f.id].radius
    if not (r <= g.x <= live.field.width - r and r <= g.y <= live.field.height - r):
        return False  # the base would leave the table
    return all(
        h.id == f.id or not on_table(h) or gap_at(live, g, g.x, g.y, h) >= -1e-6 for h in probe.figs
    )


def shape_options(state: GameState, ctx: Context, fid: int) -> list[int]:
    """The forms figure ``fid`` may take now (its own first)."""
    f = state.figs[fid]
    cur = form_of(state, fid)
    return [cur] + [k for k in range(len(forms(ctx, f))) if k != cur and _fits(state, ctx, f, k)]


def shape_question(state: GameState, ctx: Context) -> tuple[int, int] | None:
    """``(player, figure)`` whose Follow Up form change is asked now, in initiative order;
    a figure in a form without Shapechanger stays in it (L1615)."""
    if state.phase != "follow up" or state.queue or not isinstance(ctx.profiles, LiveProfiles):
        return None
    first = state.first if state.first is not None else 0
    for side in (first, 1 - first):
        for f in state.figs:
            if f.side != side or not on_table(f) or not ctx.profiles[f.id].has("shapechanger"):
                continue
            k = state.kit.get(f.id)
            if k is not None and (k.asked >= state.turn or k.ride is not None):
                continue
            if len(forms(ctx, f)) > 1 and len(shape_options(state, ctx, f.id)) > 1:
                return (side, f.id)
    return None


def shape_refusal(state: GameState, ctx: Context, a: Shape) -> str | None:
    """Why the form change is not allowed."""
    q = shape_question(state, ctx)
    if q is None or q[1] != a.fig:
        return f"the form of figure {q[1] if q else None} is asked now, not {a.fig}"
    opts = shape_options(state, ctx, a.fig)
    if a.form not in opts:
        return f"form {a.form}: the figure may take forms {opts} (its base must fit)"
    return None


def apply_shape(state: GameState, ctx: Context, a: Shape, events: list[Event]) -> None:
    """Mark the figure asked this turn and take the chosen form (its new form's own weapons:
    what it scrounged or received stays with the form it leaves)."""
    cur = form_of(state, a.fig)

    def take(k: Kit) -> None:
        k.asked = state.turn
        if a.form != cur:
            k.form, k.arms, k.fresh = a.form, [], []

    rekit(state, ctx, a.fig, take)
    f = state.figs[a.fig]
    if a.form != cur:
        events.append(
            Event(
                "shape",
                f"{_n(ctx, f)} changes to form {a.form} ({forms(ctx, f)[a.form].name})",
                rule(1615),
                {"fig": a.fig, "form": a.form},
            )
        )


def place_form_refusal(state: GameState, ctx: Context, fid: int, form: int) -> str | None:
    """A figure is deployed in any of its forms (L1615)."""
    n = len(forms(ctx, state.figs[fid]))
    if not 0 <= form < n:
        return f"form {form}: figure {fid} has forms 0 to {n - 1}"
    return None


def place_in_form(state: GameState, ctx: Context, fid: int, form: int) -> None:
    """Deploy figure ``fid`` in ``form``."""
    if form:
        rekit(state, ctx, fid, lambda k: setattr(k, "form", form))


def placed_refusal(state: GameState, fid: int, form: int, x: float, y: float) -> str | None:
    """:func:`.setup.place_refusal` for the figure in ``form``."""
    if not form:
        return stp.place_refusal(state, context_of(state), fid, x, y)
    probe = state.clone()
    probe.kit.setdefault(fid, Kit()).form = form
    return stp.place_refusal(probe, context_of(probe), fid, x, y)


# -- Restore Vehicle Spirit (L1199) -----------------------------------------------------------


def _revive_power(w: WeaponProfile) -> bool:
    return w.power == "Restore Vehicle Spirit"


def _disable(state: GameState, ctx: Context, t: Fig, events: list[Event]) -> None:
    """A vehicle destroyed while a user of the power is present is left in place, disabled
    (a combined figure is not: the user is destroyed with it)."""
    k = state.kit.get(t.id)
    if "Vehicle" not in ctx.profiles[t.id].tweaks or (k is not None and k.ride is not None):
        return
    if not any(
        on_table(g) and any(_revive_power(w) for w in ctx.profiles[g.id].weapons)
        for g in state.figs
    ):
        return
    rekit(state, ctx, t.id, lambda k: setattr(k, "wreck", True))
    events.append(Event("disabled", f"{_n(ctx, t)} is left disabled", rule(1201)))


def wrecks(state: GameState) -> list[int]:
    """The disabled vehicles on the board."""
    return [i for i, k in state.kit.items() if k.wreck]


def is_revive(ctx: Context, a: Attack) -> bool:
    """Whether the attack is a use of Restore Vehicle Spirit (a wreck is its target)."""
    ws = ctx.profiles[a.fig].weapons if 0 <= a.fig < len(ctx.profiles) else ()
    return 0 <= a.weapon < len(ws) and _revive_power(ws[a.weapon])


def revive_refusal(state: GameState, ctx: Context, a: Attack, player: int) -> str | None:
    """Why the user may not use the power on ``a.target``: a disabled vehicle in base
    contact with it, whose base fits where it lies (L1201); whether the power may be
    used now at all is :func:`.attacks.weapon_refusal`'s."""
    f = state.figs[a.fig]
    if f.side != player or f.unit not in state.active_units or not on_table(f):
        return f"figure {a.fig} is not in the unit you are activating"
    if a.target not in wrecks(state):
        return f"the target must be a disabled vehicle on the board: {wrecks(state)}"
    k = state.kit.get(f.id)
    if k is not None and k.ride is not None:
        return "the user is already combined with a vehicle"
    t = state.figs[a.target]
    if gap(ctx, f, t) > 0.01:
        return "the user must first move into base-to-base contact with the vehicle"
    if not all(
        g.id in (f.id, t.id) or not on_table(g) or gap(ctx, t, g) >= -1e-6 for g in state.figs
    ):
        return "another figure stands on the vehicle's base"
    return None


def revive_actions(state: GameState, ctx: Context, player: int) -> list[Attack]:
    """The uses of Restore Vehicle Spirit on the wrecks (``protocol`` keeps those allowed)."""
    out: list[Attack] = []
    for u in state.active_units:
        for fid in state.units[u].figs:
            for wi, w in enumerate(ctx.profiles[fid].weapons):
                if _revive_power(w):
                    for t in wrecks(state):
                        out.append(Attack(fid, wi, t))
    return out


def revive_moves(state: GameState, ctx: Context) -> list[Move]:
    """Moves of the active unit's users of the power into base contact with a wreck (listed
    so that random play reaches them; ``protocol`` keeps those allowed)."""
    out: list[Move] = []
    for u in state.active_units:
        for fid in state.units[u].figs:
            f = state.figs[fid]
            if not on_table(f) or not any(_revive_power(w) for w in ctx.profiles[fid].weapons):
                continue
            for t in wrecks(state):
                w = state.figs[t]
                d = math.hypot(f.x - w.x, f.y - w.y)
                reach = ctx.profiles[fid].radius + ctx.profiles[t].radius
                if d - reach > 1e-6:
                    x = round(w.x + (f.x - w.x) * reach / d, 3)
                    y = round(w.y + (f.y - w.y) * reach / d, 3)
                    out.append(Move(fid, x, y, "fast" if f.mode == "fast" else "move"))
    return out


def revive(state: GameState, ctx: Context, a: Attack, dice: Dice, events: list[Event]) -> None:
    """Use the power on a disabled vehicle: 10 or more succeeds (L830, no one resists); then
    a die for whether it is usable (L1201); usable, the user and the vehicle become one
    figure standing where the vehicle lies; not usable, the vehicle is removed."""
    f, t = state.figs[a.fig], state.figs[a.target]
    w = ctx.profiles[f.id].weapons[a.weapon]
    f.fired.append(a.weapon)
    f.attacked = True
    roll = roll_xky(dice, w.av, None, w.name)
    ok = roll.total >= 10
    events.append(power_event(ctx, f, w.name, t, f"{roll.total} (needs 10)", ok, w.power))
    if not ok:
        return
    vtype = ctx.profiles[t.id].type
    face = dice.d6(f"{w.name}: is the vehicle usable?")
    need = USABLE.get(vtype, 2)

    def clear(k: Kit) -> None:
        k.wreck = False

    rekit(state, ctx, t.id, clear)
    if face < need:
        events.append(
            Event(
                "wreck",
                f"{_n(ctx, t)} rolls {face} (needs {need}): too badly damaged, removed",
                rule(1201),
            )
        )
        return

    def combine(k: Kit) -> None:
        k.ride = t.id
        k.ridden = []

    rekit(state, ctx, f.id, combine)
    f.x, f.y = t.x, t.y
    t.placed = False
    events.append(
        Event(
            "revive",
            f"{_n(ctx, t)} rolls {face} (needs {need}): {_n(ctx, f)} and the vehicle are one "
            "figure now",
            rule(1201),
            {"fig": f.id, "vehicle": t.id},
        )
    )


def _set_of(state: GameState, ctx: Context, fid: int, wi: int) -> int:
    """0: one of the user's own weapons or powers, 1: one of the vehicle's."""
    return 1 if ctx.profiles[fid].weapons[wi].slot >= len(arms(ctx, state, fid)) else 0


def set_refusal(state: GameState, ctx: Context, f: Fig, wi: int) -> str | None:
    """A combined figure uses its own attacks or powers or the vehicle's in a turn, not both
    (L1201)."""
    k = state.kit.get(f.id)
    if k is None or k.ride is None or not k.ridden or k.ridden[0] != state.turn:
        return None
    if _set_of(state, ctx, f.id, wi) != k.ridden[1]:
        which = "the vehicle's" if k.ridden[1] else "its own"
        return f"{_n(ctx, f)} has used {which} attacks this turn: not both (L1201)"
    return None


def note_set(state: GameState, ctx: Context, f: Fig, wi: int) -> None:
    """Remember which weapon set a combined figure uses this turn."""
    k = state.kit.get(f.id)
    if k is None or k.ride is None or (k.ridden and k.ridden[0] == state.turn):
        return
    which = _set_of(state, ctx, f.id, wi)
    k.ridden = [state.turn, which]
