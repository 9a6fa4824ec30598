"""Hero Points and resolving rolled attacks (004_f4ea5693af0644ce.txt L489-L497, L471), and
removing figures (casualties, the leader's replacement L329-L334, Victory Points L623).

An attack is rolled at once and queued (``state.queue``); the attacker, then each defender,
may spend Hero Points (a ``hero`` decision, asked only when it can change the result); then
the attack is resolved.
"""

from __future__ import annotations

from warbench.kernel.dice import Dice
from warbench.play.core import Event
from warbench.rulesets.warengine.game import kit
from warbench.rulesets.warengine.game.allegiance import owner
from warbench.rulesets.warengine.game.control import choose_leader
from warbench.rulesets.warengine.game.measure import on_table
from warbench.rulesets.warengine.game.setup import Context
from warbench.rulesets.warengine.game.setup import fig_name as _n
from warbench.rulesets.warengine.game.state import Fig, GameState, Resolution, rule


def reroll_question(state: GameState, ctx: Context) -> tuple[int, int, str, bool, int] | None:
    """The reroll decision the first queued attack waits for (L493: both rolls are made, then
    rerolls, then Hero Points): ``(player, figure, tweak, default, question)``, or None.

    The questions, in order: the attacker's own reroll, the opponent's forced reroll of the
    attack, then each target's own and forced reroll of its defense; each is asked only when
    a tweak for it is unspent (:func:`.attacks.reroll_available`). The default is the
    engine's choice (docs/rulings.md, WarEngine game 33): reroll one's own roll that loses,
    force a reroll of one that goes the figure's way."""
    from warbench.rulesets.warengine.game.attacks import reroll_available

    if not state.queue:
        return None
    res = state.queue[0]
    if res.spent is not None or not res.pools:
        return None
    a = state.figs[res.attacker]
    live = [(k, tid, d) for k, (tid, d) in enumerate(res.targets) if d >= 0]
    live = [x for x in live if state.figs[x[1]].alive]
    if not live or not a.alive:
        return None
    with_pool = {p[0] for p in res.pools[1:]}
    questions: list[tuple[int, bool, int]] = [(a.id, False, -1), (a.id, True, -1)]
    for k, tid, _d in live:
        if tid in with_pool:
            questions += [(tid, False, k), (tid, True, k)]
    for i in range(res.asked, len(questions)):
        fid, forced, k = questions[i]
        g = state.figs[fid]
        why = reroll_available(ctx, g, forced=forced)
        if why is None:
            continue
        # the attack roll goes the attacker's way if it beats the first defense
        its_way = res.attack > live[0][2] if k < 0 else res.targets[k][1] >= res.attack
        default = its_way if forced else not its_way
        return ((1 - g.side) if forced else g.side, fid, why, default, i)
    return None


def reroll(
    state: GameState, ctx: Context, use: bool, dice: Dice, events: list[Event], player: int
) -> None:
    """Answer the pending reroll decision: reroll that roll (its tweak spent; the new roll
    stands, L1391, L1489, L1585) or let it stand."""
    from warbench.rulesets.warengine.dice import FaceRule, XkY, roll_xky
    from warbench.rulesets.warengine.game.attacks import REROLL_LINES, spend_reroll

    q = reroll_question(state, ctx)
    assert q is not None
    _player, fid, why, _default, i = q
    res = state.queue[0]
    res.asked = i + 1
    forced = i % 2 == 1
    g = state.figs[fid]
    if not use:
        events.append(Event("reroll", f"player {player} lets the roll stand", rule(493)))
        return
    spend_reroll(g, why, forced=forced)
    pool = next(p for p in res.pools if p[0] == fid)
    again = roll_xky(
        dice, XkY(pool[1], pool[2]), FaceRule(pool[3], pool[4]), f"{_n(ctx, g)} rerolls"
    )
    if i < 2:
        res.attack = again.total + res.flat
        what, total = "the attack", res.attack
    else:
        k = next(k for k, (tid, _d) in enumerate(res.targets) if tid == fid)
        res.targets[k] = [fid, again.total]
        what, total = "its defense", again.total
    events.append(
        Event(
            "reroll",
            f"{_n(ctx, g)} rerolls {what} ({why}"
            + (", at the opponent's request" if forced else "")
            + f"): {list(again.faces)} = {total}",
            rule(REROLL_LINES[why]),
            {"fig": fid, "faces": list(again.faces), "total": total},
        )
    )


def reroll_line(why: str) -> int:
    """The book line of a reroll tweak."""
    from warbench.rulesets.warengine.game.attacks import REROLL_LINES

    return REROLL_LINES[why]


def hero_question(state: GameState, ctx: Context) -> tuple[int, int, int, int] | None:
    """The Hero Point decision the first queued attack waits for:
    ``(player, figure, most points, default points)``, or None when none is needed."""
    if not state.queue or reroll_question(state, ctx) is not None:
        return None
    res = state.queue[0]
    a = state.figs[res.attacker]
    live = [(tid, d) for tid, d in res.targets if d >= 0 and state.figs[tid].alive]
    if res.spent is None:
        if not a.alive or a.hero <= 0 or res.mental:
            return None
        # it matters if some target might survive and the points could make the difference
        need = [d + state.figs[tid].hero + 1 - res.attack for tid, d in live]
        useful = [n for n in need if n > 0 and res.attack + a.hero > min(d for _, d in live)]
        if not useful:
            return None
        n0 = need[0] if live and live[0][0] == res.targets[0][0] else min(useful)
        default = n0 if 0 < n0 <= a.hero else 0
        return (a.side, a.id, a.hero, default)
    total = res.attack + res.spent
    for k in range(res.decided, len(res.targets)):
        tid, d = res.targets[k]
        t = state.figs[tid]
        have = t.hero + t.bonus.get("def_hero", 0)  # Psychic Shield: defense only (L1173)
        if "adrenal" in t.bonus:
            have //= 2  # Adrenal Overload: two Hero Points raise a Defense roll by one (L1015)
        if d < 0 or not t.alive or have <= 0 or res.mental:
            continue
        if total > d and k == res.decided:
            gap_ = total - d
            return (t.side, t.id, have, gap_ if gap_ <= have else 0)
        if k == res.decided:
            return None
    return None


def spend(state: GameState, points: int) -> None:
    """Record a Hero Point decision on the first queued attack."""
    res = state.queue[0]
    if res.spent is None:
        state.figs[res.attacker].hero -= points
        res.spent = points
        return
    tid, d = res.targets[res.decided]
    t = state.figs[tid]
    cost = points * (2 if "adrenal" in t.bonus else 1)  # Adrenal Overload (L1015)
    shield = min(cost, t.bonus.get("def_hero", 0))  # defense-only points go first
    if shield:
        t.bonus["def_hero"] -= shield
    t.hero -= cost - shield
    res.targets[res.decided] = [tid, d + points]
    res.decided += 1


def advance(state: GameState, ctx: Context, events: list[Event]) -> None:
    """Settle queued attacks until one waits for a Hero Point decision."""
    while state.queue:
        if reroll_question(state, ctx) is not None:
            return
        q = hero_question(state, ctx)
        if q is not None:
            return
        res = state.queue[0]
        if res.spent is None:
            res.spent = 0
            continue
        if res.decided < len(res.targets):
            res.decided += 1
            continue
        state.queue.pop(0)
        _resolve(state, ctx, res, events)


def _resolve(state: GameState, ctx: Context, res: Resolution, events: list[Event]) -> None:
    a = state.figs[res.attacker]
    total = res.attack + (res.spent or 0)
    for tid, d in res.targets:
        t = state.figs[tid]
        if not t.alive:
            continue
        killed = d < 0 or total > d
        if killed:
            events.append(
                Event(
                    "kill",
                    f"{res.label} {total} against {max(d, 0)}: {_n(ctx, t)} is destroyed",
                    rule(471),
                    {"attacker": a.id, "target": tid},
                )
            )
            destroy(state, ctx, t, a, events, "destroyed")
            if res.cc and not t.alive:
                kit.scrounge(state, ctx, a, t, res.effects, events)  # Scrounger (L1609)
            if res.cc and ctx.profiles[a.id].has("coup_counter"):
                a.bonus["coup"] = 1  # L1373: no moving or attacking until the Follow Up
        else:
            events.append(
                Event(
                    "survive", f"{res.label} {total} against {d}: {_n(ctx, t)} survives", rule(471)
                )
            )
            if "entangling" in res.effects and res.cc:
                t.entangled_by = a.id
        for eff in res.effects:
            if eff.startswith("follow_up:") and t.alive:
                kind = eff.split(":", 1)[1]
                if not any(
                    e.kind == "immune" and e.param == kind for e in ctx.profiles[tid].effects
                ):
                    t.burning.append(
                        [
                            a.id,
                            res.weapon,
                            0 if kind == "Poisoned" else 1,
                            0,
                            int(t.x * 1000),
                            int(t.y * 1000),
                        ]
                    )
    if res.cc and ctx.profiles[a.id].has("kamikaze") and a.alive:
        events.append(Event("kamikaze", f"{_n(ctx, a)} is destroyed by its own attack", rule(1397)))
        destroy(state, ctx, a, None, events, "destroyed")


def destroy(
    state: GameState, ctx: Context, t: Fig, by: Fig | None, events: list[Event], how: str
) -> None:
    """Remove a figure: casualties, the leader's replacement (L329-L334), Victory Points
    (L623)."""
    if not t.alive:
        return
    if (
        "adrenal" in t.bonus and how == "destroyed"
    ):  # a killing hit: removed in the Follow Up (L1015)
        if "doomed" not in t.bonus:
            t.bonus["doomed"] = 1
            events.append(
                Event(
                    "adrenal",
                    f"{_n(ctx, t)} takes a killing hit and fights on until the Follow Up step",
                    rule(1015),
                )
            )
        return
    if "suspended" in t.bonus:  # Suspend: invulnerable until the Follow Up ends (L1285)
        events.append(Event("suspended", f"{_n(ctx, t)} is suspended: unharmed", rule(1285)))
        return
    from warbench.rulesets.warengine.game.rout import force_leader_falls

    force_leader_falls(state, ctx, t.id)
    t.alive = False
    u = state.units[t.unit]
    u.lost_this_turn += 1
    state.vp[1 - owner(t)] += ctx.profiles[t.id].points  # a controlled figure: its owner's loss
    if by is not None:
        state.log_kills.append([by.id, t.id])
    kit.removed(state, ctx, t, events)  # Transferable (L1845)
    for g in state.figs:
        if g.entangled_by == t.id:
            g.entangled_by = None
    if u.leader == t.id:
        u.lost_leader = True
        choose_leader(state, ctx, u.id, (t.x, t.y))
        if u.leader is not None:
            u.lost_leader = False
    if not u.gone and not any(on_table(state.figs[i]) for i in u.figs):
        u.gone = True
        state.vp[1 - t.side] += 0 if "control" in t.bonus else 100  # Control's own unit
        events.append(
            Event("unit destroyed", f"{u.name} is destroyed", rule(623), {"side": u.side})
        )


def _usable(t: Fig) -> tuple[int, bool]:
    """The raises of a Defense roll a defender's Hero Points buy, and whether Adrenal Overload
    halves them (two points a raise, L1015); Psychic Shield's defense-only points count
    (L1173)."""
    have = t.hero + t.bonus.get("def_hero", 0)
    adrenal = "adrenal" in t.bonus
    return (have // 2 if adrenal else have), adrenal


def hero_words(state: GameState, ctx: Context) -> str:
    """The pending ``hero`` decision (:func:`hero_question`) in a player's words (issue 10,
    session 39): a short question (whose roll, the attack or the defense, and how many points
    it may spend), then on a second line the two rolls, how many points change the result and
    what is left to the other side (L471: a tie survives; L493: the attacker spends first,
    then the defender). Session 38's prompt said only "spend Hero Points (0 to 8) for
    WarpEyes #0"."""
    q = hero_question(state, ctx)
    assert q is not None, "no Hero Point decision is pending"
    most = q[2]
    res = state.queue[0]
    a = state.figs[res.attacker]

    def whose(f: Fig, side: int) -> str:
        return f"your {_n(ctx, f)}" if f.side == side else f"the enemy's {_n(ctx, f)}"

    if res.spent is None:  # the attacker's decision
        live = [(tid, d) for tid, d in res.targets if d >= 0 and state.figs[tid].alive]
        ask = f"Spend Hero Points on your {_n(ctx, a)}'s attack roll? (0 to {most})"
        if len(live) == 1:
            against = f"{whose(state.figs[live[0][0]], a.side)}'s defense roll of {live[0][1]}"
        else:
            against = "the defense rolls of " + ", ".join(
                f"{whose(state.figs[tid], a.side)} ({d})" for tid, d in live
            )
        head = (
            f"It rolled {res.attack} with its {res.label} against {against}; you spend "
            "first, then the defender (L493)."
        )
        if len(live) != 1:
            return f"{ask}\n{head} The points raise the one attack roll against each of them."
        tid, d = live[0]
        shield, adrenal = _usable(state.figs[tid])
        beat = d + 1 - res.attack  # a tie survives (L471)
        sure = beat + shield
        them = _n(ctx, state.figs[tid])
        theirs = f"{them} can raise its roll by {shield} with its Hero Points" + (
            " (two a raise under Adrenal Overload, L1015)" if adrenal else ""
        )
        certain = (
            f"{_points(sure)} make{'s' if sure == 1 else ''} the kill certain"
            if sure <= most
            else f"only {_points(sure)} would make the kill certain"
        )
        made = "makes" if beat == 1 else "make"
        if beat <= 0:
            return f"{ask}\n{head} It already beats {d}; {theirs}: {certain}."
        if shield == 0:
            return (
                f"{ask}\n{head} {_points(beat)} {made} it {res.attack + beat}, more than {d}: "
                "a kill."
            )
        return (
            f"{ask}\n{head} {_points(beat)} {made} it {res.attack + beat}, more than {d}; "
            f"{theirs}, so {certain}."
        )
    # a defender's decision: the attack, with the attacker's points, beats its roll
    tid, d = res.targets[res.decided]
    t = state.figs[tid]
    total = res.attack + res.spent
    need = total - d
    _, adrenal = _usable(t)
    label = res.label.removeprefix("follow up: ")
    if label != res.label:  # Poisoned, Immolation, Time Delay (L597, L1793, L1831)
        label += " follow-up"
    spent = f" ({res.attack} rolled + {res.spent} Hero Points)" if res.spent else ""
    by = whose(a, t.side)
    # Under Adrenal Overload a raise costs two points (L1015): ``most`` and ``need`` count
    # raises, so the words say raises and what they cost, not "Hero Points" (review, s39).
    ask = f"Spend Hero Points on your {_n(ctx, t)}'s defense roll? " + (
        f"(raise it by 0 to {most}, two Hero Points a raise, L1015)"
        if adrenal
        else f"(0 to {most})"
    )
    head = (
        f"{by[0].upper()}{by[1:]} attacks it with its {label}: {total}{spent} beats its "
        f"defense roll of {d} (L493)."
    )
    cost = " (each raise costs two Hero Points under Adrenal Overload, L1015)" if adrenal else ""
    if need > most:
        return (
            f"{ask}\n{head} It needs {need} to survive and can raise its roll by only "
            f"{most}{cost}: it is destroyed whatever it spends."
        )
    if adrenal:
        raises = f"{need} raise{'' if need == 1 else 's'} ({_points(2 * need)})"
        return (
            f"{ask}\n{head} {raises} make{'s' if need == 1 else ''} it {total}, a tie, and it "
            "survives (L471); fewer and it is destroyed."
        )
    return (
        f"{ask}\n{head} {_points(need)} raise{'s' if need == 1 else ''} it to {total}, a tie, "
        "and it survives (L471); fewer and it is destroyed."
    )


def _points(n: int) -> str:
    """``n`` Hero Points in words ("1 Hero Point", "3 Hero Points")."""
    return f"{n} Hero Point{'' if n == 1 else 's'}"
