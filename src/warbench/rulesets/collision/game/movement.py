"""Movement (``003_fc239e71486306e1.txt`` L806-863, L529-577): Step, Maneuver and Run, the
movement guidelines, obstacles and elevation, falling damage, Leaping and Levitating Move,
Flee's run and Knockback; and what a move sets off on its way (Challenge, Counter Attack,
Flame Wreath).

A move names its destination and final facing; the path is the cheapest legal one (ties
broken in a fixed order), walked square by square so that a reaction can stop it.
"""

from __future__ import annotations

import heapq

from warbench.kernel.errors import RulesError
from warbench.rulesets.collision.game.board import FACINGS, Square, face_towards, spaces
from warbench.rulesets.collision.game.core import Game, rule
from warbench.rulesets.collision.game.state import Unit

#: Endurance cost of each movement mode (L308-314, L825-857).
MODE_EC = {"step": 0, "maneuver": 1, "run": 3, "pounce": 0, "haste": 0, "arrive": 0}
NORMAL = ("step", "maneuver", "run")
_DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def move_value(g: Game, u: Unit) -> int:
    """Move, with Inspire Urgency (+1 within command of another friendly with it, L1920-1927)
    and the chest's Move 1 (L1190-1191)."""
    from warbench.rulesets.collision.game.objectives import move_value as carried_move

    base = g.card(u).stats.move
    if u.pos is not None:
        for v in g.on_board(u.owner):
            if (
                v.uid != u.uid
                and v.pos is not None
                and g.has(v, "Inspire Urgency")
                and spaces(v.pos, u.pos) <= g.card(v).stats.command
            ):
                base += 1
                break
    return carried_move(g, u, base)


def allowance(g: Game, u: Unit, mode: str) -> int:
    """How many spaces of movement the mode gives (L825-857)."""
    mv = move_value(g, u)
    return {"step": 1, "maneuver": mv, "run": 2 * mv, "pounce": mv, "haste": mv}.get(mode, 0)


def _leaping(g: Game, u: Unit, mode: str) -> bool:
    return mode == "pounce" or g.has(u, "Leaping Move")


def reachable(g: Game, u: Unit, mode: str) -> dict[Square, tuple[int, tuple[Square, ...]]]:
    """Every square the character may end the move on, with its cost and path (L806-863)."""
    assert u.pos is not None
    memo = g.memo("reachable", u.uid, mode)
    if memo is not None:
        return memo  # type: ignore[return-value]
    b = g.board
    cells = b.cells
    budget = allowance(g, u, mode)
    leap = _leaping(g, u, mode)
    lev = g.has(u, "Levitating Move")
    ignore_obstacles = leap or lev  # L1949, L1957
    start_level = cells[u.pos][3]
    occupant: dict[Square, Unit] = {v.pos: v for v in g.on_board() if v.pos is not None}
    best: dict[Square, tuple[int, tuple[Square, ...]]] = {u.pos: (0, ())}
    heap: list[tuple[int, tuple[Square, ...], Square]] = [(0, (), u.pos)]
    while heap:
        cost, path, sq = heapq.heappop(heap)
        if best[sq][0] < cost:
            continue
        here_level = cells[sq][3] + (1 if lev else 0)
        for dx, dy in _DIRS:  # L818-820: orthogonal steps only
            nxt = (sq[0] + dx, sq[1] + dy)
            cell = cells.get(nxt)
            if cell is None or not cell[0]:
                continue  # off the board; L807-808 impassable
            step_cost = 1 + (0 if ignore_obstacles else cell[2])  # L810, L843-845
            if cost + step_cost > budget:
                continue
            if not leap and cell[3] - here_level >= 2:
                continue  # L546-548, L859-862: up one level at a time
            other = occupant.get(nxt)
            if other is not None and other.owner != u.owner and not leap:
                levitating_over = (
                    lev and not g.has(other, "Levitating Move") and (cell[3] <= start_level)
                )
                if not levitating_over:
                    continue  # L807: not through enemy characters
            new_path = path + (nxt,)
            old = best.get(nxt)
            if old is None or (cost + step_cost, new_path) < old:
                best[nxt] = (cost + step_cost, new_path)
                heapq.heappush(heap, (cost + step_cost, new_path, nxt))
    out = {}
    for sq, (cost, path) in best.items():
        if sq == u.pos or not cells[sq][1] or sq in occupant:
            continue  # L812-813: not on a vertical obstacle or another character
        if leap and cells[sq][3] - start_level > 2:
            continue  # L1949-1951: up one or two levels, start against end
        if mode == "step" and cost > 1:
            continue  # L829-835: no diagonal step, no step onto an obstacle
        out[sq] = (cost, path)
    g.remember("reachable", u.uid, mode, out)
    return out


def check_move(g: Game, u: Unit, mode: str, to: Square, facing: str) -> None:
    """Refuse a move the rules forbid (L806-863, L880-881, L1781)."""
    if facing not in FACINGS:
        raise RulesError(f"facing {facing!r}; allowed: N, E, S, W", rule("L883-889"))
    if mode in NORMAL:
        if u.moved:
            raise RulesError(
                f"{u.name} already made a {u.moved} this round; one of Step, Maneuver or Run",
                rule("L822-823"),
            )
        if u.special_moved:
            raise RulesError(
                "special movement and normal movement are not used in the same turn",
                rule("L880-881"),
            )
        if u.statuses.get("flee", 0):
            raise RulesError(f"{u.name} flees and can't voluntarily move", rule("L1781"))
        ec = MODE_EC[mode]
        if u.endurance < ec:
            raise RulesError(
                f"a {mode} costs {ec} Endurance; {u.name} has {u.endurance}", rule("L308-314")
            )
    elif mode == "haste":
        if not (u.hasted or u.uid in g.s.haste):
            raise RulesError(f"{u.name} has no Haste move this turn", rule("L1820-1823"))
        if u.statuses.get("flee", 0):
            raise RulesError(f"{u.name} flees and can't voluntarily move", rule("L1781"))
    elif mode == "pounce":
        raise RulesError("Pounce is used as an ability (UseAbility)", rule("L2073-2075"))
    elif mode == "arrive":
        raise RulesError("arriving reinforcements move onto the board first", rule("L763-765"))
    if tuple(to) not in reachable(g, u, mode):
        raise RulesError(
            f"{u.name} can't {mode} to {tuple(to)}: out of its {allowance(g, u, mode)} spaces, "
            "blocked, or not a square it may end on",
            rule("L806-863"),
        )


def start_move(g: Game, u: Unit, mode: str, to: Square, facing: str) -> None:
    """Pay, then walk the path (Challenge first, L1650-1652)."""
    _cost, path = reachable(g, u, mode)[tuple(to)]  # type: ignore[index]
    ec = MODE_EC.get(mode, 0)
    if ec:
        g.pay(u, ec, 0, mode)
    if mode in NORMAL:
        u.moved = mode
    elif mode == "haste":  # "in addition to normal movement actions" (L1822-1823)
        if u.uid in g.s.haste:
            g.s.haste.remove(u.uid)
        else:
            u.hasted = False
    elif mode == "pounce":
        u.special_moved = True
    g.event("move", f"{u.name} {mode}s towards {tuple(to)}", "L806-863", unit=u.uid, mode=mode)
    if mode in NORMAL and _challenged(g, u, path):
        u.facing = facing
        return
    g.s.path, g.s.path_unit, g.s.path_facing = list(path), u.uid, facing
    g.s.path_from = u.pos
    g.s.after_window = "move"
    walk(g, leap=_leaping(g, u, mode) or g.has(u, "Levitating Move"))


def _challenged(g: Game, u: Unit, path: tuple[Square, ...]) -> bool:
    """Challenge (L1650-1652): leaving a Challenge character's melee reach; a Command contest
    won stops the move (the Endurance is still paid)."""
    from warbench.rulesets.collision.game.setup import contest

    assert u.pos is not None
    end = path[-1] if path else u.pos
    for v in g.on_board(1 - u.owner):
        if not g.has(v, "Challenge") or v.pos is None:
            continue
        reach = melee_reach(g, v)
        if reach and spaces(v.pos, u.pos) <= reach < spaces(v.pos, end):
            pair = (v, u) if v.owner == 0 else (u, v)  # player 0's first
            w = contest(
                g,
                f"Challenge: {v.name} against {u.name}",
                (g.card(pair[0]).stats.command, g.card(pair[1]).stats.command),
                "L1650-1652",
                pair,
            )
            if w == v.owner:
                g.event("challenge", f"{u.name} can't move ({v.name}'s Challenge)", "L1650-1652")
                return True
    return False


def melee_reach(g: Game, u: Unit) -> int:
    """The longest Reach of a character's melee (non-ranged) weapons; 0 without one."""
    return max((w.reach_spaces for w in g.card(u).weapons if not w.ranged), default=0)


def walk(g: Game, *, leap: bool = False) -> None:
    """Walk the rest of the stored path; stop for a reaction window (Counter Attack)."""
    from warbench.rulesets.collision.game.reactions import open_window

    s = g.s
    assert s.path_unit is not None
    u = g.unit(s.path_unit)
    s.path_from = u.pos  # the last square the move could have ended on
    while s.path and u.where == "board":
        nxt = s.path.pop(0)
        prev = u.pos
        assert prev is not None
        u.pos = nxt
        drop = g.board.level(prev) - g.board.level(nxt)
        if drop >= 3 and not leap:  # L549-553: falling damage
            g.suffer_hit(u, drop, "Mundane", None, "L549-553")
        _flame_wreath(g, u)
        if u.where != "board":
            break
        others = [v for v in g.on_board() if v.pos == nxt and v.uid != u.uid]
        if g.board.kind(nxt).stands and not others:
            # a move stopped by a reaction ends on a square it may end on (ruling 28)
            if open_window(g, "enter", u, None):
                return  # a Counter Attack may stop the move; walk() resumes after it
            s.path_from = nxt
    if u.where == "board" and s.path_unit == u.uid:
        u.facing = s.path_facing
        g.event("moved", f"{u.name} is at {u.pos} facing {u.facing}", "L806-863", unit=u.uid)
        from warbench.rulesets.collision.game.objectives import entered

        entered(g, u)
    s.path, s.path_unit = [], None
    s.after_window = ""


def _flame_wreath(g: Game, u: Unit) -> None:
    """L1767-1772: an enemy moving onto a tile adjacent to a Flame Wreath character."""
    assert u.pos is not None
    for v in g.on_board(1 - u.owner):
        if v.pos is not None and g.has(v, "Flame Wreath") and spaces(v.pos, u.pos) == 1:
            g.suffer_hit(u, 2, "Fire", v, "L1767-1772")
            if u.where != "board":
                return


def flame_wreath_at_start(g: Game, u: Unit) -> None:
    """L1771-1772: an enemy starting its activation adjacent suffers the hit too."""
    _flame_wreath(g, u)


def flee_run(g: Game, u: Unit) -> None:
    """Flee (L1781-1786): after Endurance is recovered, spend 3 Endurance running directly away
    from the source (to the nearest board edge if it is gone); off the board it goes to the
    reinforcements."""
    assert u.pos is not None
    b = g.board
    src = g.unit(u.flee_from) if u.flee_from is not None else None
    g.pay(u, min(3, u.endurance), 0, "Flee's run")
    budget = 2 * move_value(g, u)
    occupied = {v.pos for v in g.on_board() if v.uid != u.uid}
    pos = u.pos
    for _ in range(budget):
        if src is not None and src.where == "board" and src.pos is not None:
            away = (pos[0] - src.pos[0], pos[1] - src.pos[1])
        else:  # the nearest board edge
            dists = {
                (-1, 0): pos[0],
                (1, 0): b.cols - 1 - pos[0],
                (0, -1): pos[1],
                (0, 1): b.rows - 1 - pos[1],
            }
            away = min(dists, key=lambda k: dists[k])
        options = sorted(_DIRS, key=lambda d: (-(d[0] * away[0] + d[1] * away[1]), d))
        moved = False
        for d in options:
            if d[0] * away[0] + d[1] * away[1] <= 0 and away != (0, 0):
                break
            nxt = (pos[0] + d[0], pos[1] + d[1])
            if not b.inside(nxt):
                u.where, u.pos = "reserve", None  # L1784-1785
                g.event("fled", f"{u.name} runs off the board", "L1781-1786", unit=u.uid)
                return
            if b.kind(nxt).passable and nxt not in occupied and (b.level(nxt) - b.level(pos) < 2):
                pos = nxt
                moved = True
                break
        if not moved:
            break
    if not b.kind(pos).stands:
        pos = u.pos
    u.pos = pos
    if src is not None and src.pos is not None and src.where == "board":
        u.facing = face_towards(pos, (2 * pos[0] - src.pos[0], 2 * pos[1] - src.pos[1]))
    g.event("flee", f"{u.name} flees to {pos}", "L1781-1786", unit=u.uid)


def push_choices(pos: Square, origin: Square) -> list[Square]:
    """The first squares a diagonal Knockback may push onto (L1943-1944: "If the movement is
    diagonal and there is no clear destination, it is the attacker's choice"): along the x
    axis, then along the y axis, when the push is exactly diagonal; otherwise none (the
    push goes along the longer axis, ruling 20)."""
    dx, dy = pos[0] - origin[0], pos[1] - origin[1]
    if dx == 0 or dy == 0 or abs(dx) != abs(dy):
        return []
    return [(pos[0] + (1 if dx > 0 else -1), pos[1]), (pos[0], pos[1] + (1 if dy > 0 else -1))]


def push_direction(pos: Square, origin: Square, axis: str = "") -> Square:
    """The step of a Knockback away from ``origin``: along the longer axis (the x axis on a
    tie, ruling 20) unless the attacker chose the ``axis`` of a diagonal push."""
    dx, dy = pos[0] - origin[0], pos[1] - origin[1]
    if axis == "y" and dy != 0:
        return (0, 1 if dy > 0 else -1)
    if axis == "x" and dx != 0:
        return (1 if dx > 0 else -1, 0)
    return (1 if dx > 0 else -1, 0) if abs(dx) >= abs(dy) and dx != 0 else (0, 1 if dy > 0 else -1)


def knockback(g: Game, u: Unit, n: int, origin: Square, by: Unit, axis: str = "") -> None:
    """Knockback (L1937-1944): moved ``n`` tiles away from the origin; stopped by impassable or
    vertical terrain, a climb too high or an occupied tile (then a Pow 4 Mundane hit); off a
    board edge into reserves. A diagonal push goes along the ``axis`` the attacker chose
    (the ``knockback`` decision), by default the x axis (ruling 20)."""
    assert u.pos is not None
    b = g.board
    d = push_direction(u.pos, origin, axis)
    for _ in range(n):
        nxt = (u.pos[0] + d[0], u.pos[1] + d[1])
        if not b.inside(nxt):
            from warbench.rulesets.collision.game.objectives import drop_all

            drop_all(g, u)
            u.where, u.pos = "reserve", None
            g.event("knockback", f"{u.name} is knocked off the board", "L1942-1943")
            return
        blocked = (
            not b.kind(nxt).stands or g.at(nxt) is not None or b.level(nxt) - b.level(u.pos) >= 2
        )
        if blocked:
            g.event("knockback", f"{u.name} is knocked into an obstacle", "L1939-1942")
            g.suffer_hit(u, 4, "Mundane", by, "L1939-1942")
            return
        u.pos = nxt
    g.event("knockback", f"{u.name} is knocked back to {u.pos}", "L1937-1939", unit=u.uid)


def arrive_squares(g: Game, u: Unit) -> list[Square]:
    """Where a reinforcement may enter: free squares of its deployment zone's board edge
    (L763-767; docs/rulings.md, Collision 21); after Shadow Hop also any free square not
    within 3 of an enemy and not impassable or a vertical obstacle (L2136-2138)."""
    from warbench.rulesets.collision.game.objectives import own_edge

    b = g.board
    taken = {v.pos for v in g.on_board()}
    out = [sq for sq in own_edge(g, u.owner) if b.kind(sq).stands and sq not in taken]
    if u.hopped:  # Shadow Hop (L2136-2138): "anywhere not within 3 of an enemy"
        enemies = [v.pos for v in g.on_board(1 - u.owner) if v.pos is not None]
        edge = set(out)
        out += [
            sq
            for sq in b.squares()
            if sq not in edge
            and b.kind(sq).stands
            and sq not in taken
            and all(spaces(sq, e) > 3 for e in enemies)
        ]
        out.sort()
    return out
