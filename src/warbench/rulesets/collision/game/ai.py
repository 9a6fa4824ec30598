"""The scripted player: the engine's automatic choice for each decision of the action step
(every decision's ``default``), simple but sensible:

1. attack when an attack is legal: the special or weapon attack with the best chance to
   injure, from the exact odds of the one attack kernel;
2. take an objective action that scores (pick up, carry off, raid, channel, activate ...);
3. use a self-help special action when it is worth it (heal when injured, Meditate or Tap
   into Gea when short of Mana);
4. move: towards the nearest objective token the side wants, else the nearest enemy, ending
   facing it, by Maneuver (Run when far and rested, Step when one square is enough);
5. hold when nothing else was done (Endurance and an injury back), else end the activation.
"""

from __future__ import annotations

from functools import lru_cache

from warbench.rulesets.collision.attack import (
    AttackProfile,
    cover_misses,
    injury_from,
    slays,
    to_hit,
)
from warbench.rulesets.collision.game.board import Square, face_towards, spaces, steps
from warbench.rulesets.collision.game.core import Game
from warbench.rulesets.collision.game.state import (
    Attack,
    AttackCtx,
    CollisionAction,
    EndActivation,
    Hold,
    Move,
    Unit,
    UseAbility,
)


@lru_cache(maxsize=4096)
def _value(p: AttackProfile) -> float:
    """Expected injury levels plus 3 per defeat, over every pair of D10 faces, through the
    kernel's stages (floats: the exact odds of ``collision.odds`` are slower than a move)."""
    if p.immune:
        return 0.0
    miss_cover = sum(1 for f in range(1, 11) if cover_misses(p, f)) / 10
    total = 0.0
    for face in range(1, 11):
        hit, crit = to_hit(p, face)
        if not hit:
            continue
        if slays(p, crit):
            total += 3.0 / 10
            continue
        for inj in range(1, 11):
            r = injury_from(p, crit, inj)
            total += (r.injury + (3 if r.defeated else 0)) / 100
    return (1 - miss_cover) * total


def _attack_value(g: Game, u: Unit, a: Attack) -> float:
    from warbench.rulesets.collision.game.attacks import profile, targets_of

    total = 0.0
    for t in targets_of(g, u, a):
        ctx = AttackCtx(u.uid, t.uid, a.ability, a.weapon, centre=a.at)
        try:
            v = _value(profile(g, ctx, t))
        except Exception:  # an odd synthetic profile: count the hit only
            v = 0.5
        total += v if t.owner != u.owner else -v
    return total


def best_attack(g: Game, u: Unit) -> Attack | None:
    """The legal attack with the highest expected injury (enemies) less friendly fire."""
    from warbench.rulesets.collision.game.attacks import attack_options

    best: tuple[float, int, Attack] | None = None
    for i, a in enumerate(attack_options(g, u)):
        v = _attack_value(g, u, a)
        if a.ability is not None:
            v -= 0.15  # Mana is scarce: a special attack must be clearly better
        if v > 0.05 and (best is None or v > best[0]):
            best = (v, -i, a)
    return None if best is None else best[2]


_GOOD_OBJECTIVES = ("Carry Off", "Pick Up", "Raid", "Activate Orb", "Channel the Obelisk", "Search")
_SELF_HELP = (
    "Regenerate",
    "Heal",
    "Persevere",
    "Meditate",
    "Tap into Gea",
    "Fortune",
    "Rally",
    "Remedy",
    "Vigorate",
    "Frighten",
    "Check",
)


def _targets(g: Game, u: Unit) -> list[Square]:
    """Squares worth moving towards: objective tokens, then enemies."""
    s = g.s
    out: list[Square] = []
    for m in s.markers:
        if m.gone or m.at is None:
            continue
        if m.kind in ("chest", "relic", "flag", "shard") and m.holder is None:
            out.append(m.at)
        if m.kind == "orb" and m.owner != u.owner:
            out.append(m.at)
        if m.kind == "crate" and u.owner == s.attacker:
            out.append(m.at)
        if m.kind == "trinket" and s.spotted[u.owner] and m.holder is None:
            out.append(m.at)
    if any(m.holder == u.uid for m in s.markers if m.kind in ("chest", "flag", "relic")):
        from warbench.rulesets.collision.game.objectives import own_edge

        return own_edge(g, u.owner)
    enemies = [v.pos for v in g.on_board(1 - u.owner) if v.pos is not None]
    return out + enemies if out else enemies


def best_move(g: Game, u: Unit, only: tuple[str, ...] = ()) -> Move | None:
    """A move bringing the character nearest to what it wants, ending facing an enemy
    (``only``: the movement modes to consider, such as Haste's)."""
    from warbench.rulesets.collision.game.movement import check_move, reachable

    assert u.pos is not None
    goals = _targets(g, u)
    if not goals:
        return None
    here = min(steps(u.pos, q) for q in goals)
    if here <= 1:
        return None
    enemies = [v.pos for v in g.on_board(1 - u.owner) if v.pos is not None]
    modes = ["maneuver", "step"]
    if here > 2 * g.card(u).stats.move and u.endurance >= 5:
        modes.insert(0, "run")
    if only:
        modes = list(only)
    for mode in modes:
        try:
            squares = reachable(g, u, mode)
        except Exception:
            continue
        best: tuple[int, Square] | None = None
        for sq in squares:
            d = min(steps(sq, q) for q in goals)
            if best is None or (d, sq) < best:
                best = (d, sq)
        if best is None or best[0] >= here:
            continue
        sq = best[1]
        look = min(enemies, key=lambda e: (spaces(sq, e), e)) if enemies else goals[0]
        facing = face_towards(sq, look) if look != sq else u.facing
        move = Move(mode, sq, facing)  # type: ignore[arg-type]
        try:
            check_move(g, u, mode, sq, facing)
        except Exception:
            continue
        return move
    return None


def choose_action(g: Game) -> CollisionAction:
    """The automatic choice of the action step for the active character."""
    from warbench.rulesets.collision.game.actions import ability_options

    s = g.s
    assert s.active is not None
    u = g.unit(s.active)
    a = best_attack(g, u)
    if a is not None:
        return a
    abilities = ability_options(g, u)
    for name in _GOOD_OBJECTIVES:
        for ab in abilities:
            if ab.ability == name and not (name == "Search" and s.spotted[u.owner]):
                return ab
    for name in _SELF_HELP:
        for ab in abilities:
            if ab.ability != name:
                continue
            if (
                name in ("Regenerate", "Heal", "Persevere")
                and (g.unit(ab.target).injuries if ab.target is not None else u.injuries) == 0
            ):
                continue
            if name in ("Meditate", "Tap into Gea") and u.mana >= g.card(u).stats.mana:
                continue
            if name == "Remedy" or name == "Rally":
                return ab
            if name in ("Fortune", "Vigorate"):
                continue
            return ab
    if not u.moved and not u.statuses.get("flee"):
        m = best_move(g, u)
        if m is not None:
            return m
    if u.hasted and not u.statuses.get("flee"):
        m = best_move(g, u, ("haste",))  # Haste's extra move (L1820-1823)
        if m is not None:
            return m
    if not u.acted and not u.moved and not u.special_moved:
        enemies = [v.pos for v in g.on_board(1 - u.owner) if v.pos is not None]
        assert u.pos is not None
        facing = (
            face_towards(u.pos, min(enemies, key=lambda e: spaces(u.pos or e, e)))
            if (enemies)
            else u.facing
        )
        return Hold(facing)
    return EndActivation()


def _unused(x: UseAbility) -> None:  # keep the import used for type checkers
    del x
