"""The Follow Up step (004_f4ea5693af0644ce.txt L597-L603): timed and continued effects.

* Poisoned (L1831): the target defends again, basic Attack Value -1k1 against basic Defense,
  no adjustments; not against vehicles.
* Immolation (L1793): a target that has not moved 3" away defends again, basic Attack Value
  against Defense with the usual bonuses.
* Time Delay (L1741): the attack itself is resolved now.
* Induce Drug Frenzy (L1123): the figure defends with its basic Defense against the power's
  Attack Value; the Hero Points the frenzy gave may not be used.
* Regeneration (L1603): +2 Hero Points, never above the original.
* Timed bonuses of Special Powers end.

Each follow-up attack is rolled (attack, then defense) and queued like any attack
(:class:`.state.Resolution`, the attacker's Hero Points settled at none: they may raise these
defenses, not attacks, docs/rulings.md); the defender's Hero Points are then the defender's
``hero`` decision (L491-L497, the engine's default as for any defense: exactly enough to
survive if it has that many, else none). While one waits, :func:`follow_up` returns ``False``
and the Follow Up step resumes where it stopped once the attack is resolved.
"""

from __future__ import annotations

import math

from warbench.kernel.dice import Dice
from warbench.play.core import Event
from warbench.rulesets.warengine.dice import Adjustment, XkY, roll_xky
from warbench.rulesets.warengine.game import kit
from warbench.rulesets.warengine.game.allegiance import release_control, settle_actuated
from warbench.rulesets.warengine.game.attacks import defense_pool
from warbench.rulesets.warengine.game.measure import on_table
from warbench.rulesets.warengine.game.resolution import advance, destroy
from warbench.rulesets.warengine.game.setup import Context, WeaponProfile
from warbench.rulesets.warengine.game.state import GameState, Resolution, rule
from warbench.rulesets.warengine.game.summoning import deploy_summoned
from warbench.rulesets.warengine.game.terrain import follow_up as terrain_follow_up

POISON, BURN, DELAY, FRENZY = 0, 1, 2, 3
#: Timed effects that outlast the Follow Up step (See the Future: the next Initiative, L1207;
#: Rally and System Reset: "any rout test required this turn", L1183, L1291, taken in the Rout
#: step after the Follow Up; cleared when the next turn starts).
KEPT = ("future", "rally")


def follow_up(state: GameState, ctx: Context, dice: Dice, events: list[Event]) -> bool:
    """Resolve every timed effect, in initiative order (L601); ``False`` while a follow-up
    attack waits for the defender's Hero Points (call again once it is resolved)."""
    if kit.shape_question(state, ctx) is not None:
        return False  # a Shapechanger's form is asked first (L1615)
    first = state.first if state.first is not None else 0
    for side in (first, 1 - first):
        for t in state.figs:
            if t.side != side or not on_table(t):
                continue
            prof = ctx.profiles[t.id]
            while t.burning:
                if not t.alive:
                    break
                entry = t.burning.pop(0)
                src, wi, kind = entry[0], entry[1], entry[2]
                w = ctx.profiles[src].weapons[wi]
                if kind == POISON and prof.big:
                    continue
                if kind == BURN:
                    x0, y0 = entry[4] / 1000, entry[5] / 1000
                    if math.hypot(t.x - x0, t.y - y0) >= 3.0:
                        continue
                if kind == FRENZY:  # the frenzy's own Hero Points may not help (L1123)
                    av = XkY(entry[4], entry[5]) if len(entry) >= 6 else w.av  # as used
                    w = WeaponProfile(w.slot, w.name, None, av, 1, None, None, (), ())
                    lent = min(t.bonus.get("frenzy_k", 0), t.bonus.get("def_hero", 0))
                    t.bonus["def_hero"] = t.bonus.get("def_hero", 0) - lent
                pool = w.av.adjusted(Adjustment(-1, -1)) if kind == POISON else w.av
                att = roll_xky(dice, pool, None, f"follow up: {w.name}")
                a = state.figs[src]
                basic = kind in (POISON, FRENZY)
                dpool, dfaces, _ = defense_pool(state, ctx, a, w, t, basic=basic)
                d = roll_xky(dice, dpool, dfaces, f"follow up: {prof.name} defends")
                line = {POISON: 1831, BURN: 1793, DELAY: 1741, FRENZY: 1123}[kind]
                events.append(
                    Event(
                        "follow up",
                        f"{w.name} on {prof.name} #{t.id}: {att.total} against {d.total}",
                        rule(line),
                        {"fig": t.id, "attack": att.total, "defense": d.total},
                    )
                )
                label = f"follow up: {w.name}"
                state.queue.append(
                    Resolution(src, wi, label, att.total, [[t.id, d.total]], spent=0)
                )
                advance(state, ctx, events)
                if state.queue:
                    return False  # the defender decides its Hero Points
            t.burning = []
    deploy_summoned(state, ctx, events)  # Summoning (L1279)
    release_control(state, ctx, events)  # Control (L1057): to the end of the turn
    settle_actuated(state, ctx, events)  # Actuate Casualty (L1009)
    if ctx.huge:  # Monstrously Huge: pushed vehicles move (L1403)
        from warbench.rulesets.warengine.game.huge import move_pushed

        move_pushed(state, ctx, events)
    for f in state.figs:  # Adrenal Overload: the killing hit takes effect now (L1015)
        if on_table(f) and "doomed" in f.bonus:
            f.bonus.pop("suspended", None)
            destroy(state, ctx, f, None, events, "adrenal overload")
    for f in state.figs:
        if on_table(f):
            regen = sum(
                int(str(e.param)) for e in ctx.profiles[f.id].effects if e.kind == "regeneration"
            )
            if regen:
                f.hero = min(ctx.profiles[f.id].hero, f.hero + regen)
        if "hero_cap" in f.bonus:  # Invigorate: unused points are lost (L1131)
            f.hero = min(f.hero, f.bonus["hero_cap"])
        f.bonus = {k: v for k, v in f.bonus.items() if k in KEPT}
    terrain_follow_up(state, events)  # the Wall of Spewing Filth goes (L1333)
    return True
