"""Objectives in play: tokens, their actions and scoring (``003_fc239e71486306e1.txt``
L426-448, L1179-1391), over the tables of :mod:`warbench.rulesets.collision.objectives`.

Tokens are placed by the players (a ``marker`` decision with a default), carried, dropped,
activated and destroyed; at the end of the turn limit each objective is scored: the major
5 Victory Points, each minor 3 (L439-441).
"""

from __future__ import annotations

from functools import lru_cache

from warbench.kernel.errors import RulesError
from warbench.rulesets.collision import objectives as tables_mod
from warbench.rulesets.collision.game.board import Square, Terrain, spaces
from warbench.rulesets.collision.game.core import Game, rule
from warbench.rulesets.collision.game.state import Marker, Placement, Unit
from warbench.rulesets.collision.models import Card

#: Tokens a character carries (L1190-1196, L1253-1255, L1298-1300, L1376-1377, L1328-1330).
CARRIED = ("chest", "flag", "relic", "shard", "trinket")
#: Carrying these makes a reaction or non-movement action drop them.
DROPPED_BY_ACTING = ("chest", "flag", "relic")

_RULES = {o.name: f"L{o.lines[0]}-{o.lines[1]}" for o in tables_mod.MAJOR + tables_mod.MINOR}


@lru_cache(maxsize=16)
def statue_card(points_limit: int) -> Card:
    """L1203-1206: Def 3, Arm 8, Tuf 4 + 1 per 250 points; it can't activate."""
    return Card.model_validate(
        {
            "name": "Statue",
            "points": 0,
            "race": "Statue",
            "tarot": {"arcana": "minor", "suit": "coins", "number": 1},
            "stats": {
                "def": 3,
                "arm": 8,
                "tuf": 4 + points_limit // 250,
                "end": 0,
                "move": 0,
            },
            "effects": ["Immune to Slay"],
        }
    )


def _edge_line(g: Game, player: int, index: int) -> list[Square]:
    """The squares ``index`` lines in from the board edge of a player's side zone."""
    b = g.board
    key = g.s.zone_of[player]
    if key == "left":
        return [(index, y) for y in range(b.rows)]
    if key == "right":
        return [(b.cols - 1 - index, y) for y in range(b.rows)]
    if key == "bottom":
        return [(x, index) for x in range(b.cols)]
    if key == "top":
        return [(x, b.rows - 1 - index) for x in range(b.cols)]
    return []


def own_edge(g: Game, player: int) -> list[Square]:
    """The board edge of a player's deployment zone (L1195, L1256-1257); in centre games every
    board edge (L766-767); in diagonal games the zone's squares on the board edge."""
    line = _edge_line(g, player, 0)
    if line:
        return line
    from warbench.rulesets.collision.game.setup import zone_of

    b = g.board
    if g.s.zone_of[player] in ("attacker", "defender"):  # L766-767: every board edge
        return [sq for sq in b.squares() if sq[0] in (0, b.cols - 1) or sq[1] in (0, b.rows - 1)]
    return [
        sq
        for sq in sorted(zone_of(g, player))
        if sq[0] in (0, b.cols - 1) or sq[1] in (0, b.rows - 1)
    ]


def centre_squares(g: Game) -> list[Square]:
    """The squares touching the centre of the board."""
    b = g.board
    xs = {(b.cols - 1) // 2, b.cols // 2}
    ys = {(b.rows - 1) // 2, b.rows // 2}
    return sorted((x, y) for x in xs for y in ys)


def near_centre(g: Game, n: int) -> list[Square]:
    """Squares within ``n`` of the centre squares."""
    c = centre_squares(g)
    x0, x1 = min(q[0] for q in c) - n, max(q[0] for q in c) + n
    y0, y1 = min(q[1] for q in c) - n, max(q[1] for q in c) + n
    return [sq for sq in g.board.squares() if x0 <= sq[0] <= x1 and y0 <= sq[1] <= y1]


def before_terrain(g: Game) -> None:
    """Rushed Study (L1312-1313): the 2x2 height-3 tower in the centre, before terrain."""
    if g.s.major != "Rushed Study":
        return
    for x, y in centre_squares(g):
        g.s.terrain = [t for t in g.s.terrain if (t[0], t[1]) != (x, y)]
        g.s.terrain.append((x, y, Terrain.VERTICAL_IMPASSABLE.value, 3))
    g.s.terrain.sort()
    g.s.markers.append(Marker(len(g.s.markers), "tower", centre_squares(g)[0]))


def queue_placements(g: Game) -> None:
    """The tokens the objectives ask the players to place, in order (L1179-1391)."""
    s = g.s
    a, d = s.attacker, 1 - s.attacker
    pts = g.t.points_limit
    q: list[Placement] = []
    major = s.major
    if major == "Capture the Chest":
        q.append(Placement(d, "chest", "L1186-1188"))
    elif major == "Statues of Good & Evil":
        q += [Placement(a, "statue", "L1206-1211", a), Placement(d, "statue", "L1206-1211", d)]
    elif major == "Mystic Obelisk":
        q.append(Placement(a, "obelisk", "L1235-1238"))
    elif major == "Capture the Standard":
        q.append(Placement(a, "flag", "L1250-1253"))
    elif major == "Lights in the Darkness":
        for i in range(1 + pts // 250):
            q.append(Placement(a if i % 2 == 0 else d, "orb", "L1267-1270"))
    elif major == "Supply Raid":
        q += [Placement(d, "crate", "L1282-1285") for _ in range(2 + pts // 250)]
    elif major == "Relic Theft":
        q.append(Placement(d, "relic", "L1296-1298"))
    minors = s.minors
    if "The Dark Gods" in minors:
        q.append(Placement(d, "cursed", "L1357-1358"))
    if "Hallowed Earth" in minors:
        q.append(Placement(d, "blessed", "L1365"))
    if "Shards of the Old World" in minors:
        q += [Placement(p, "shard", "L1371-1373", p) for p in (a, a, d, d)]
        q.append(Placement(d, "shard", "L1373-1374"))
    s.placements = q


def placement_squares(g: Game, p: Placement) -> list[Square]:
    """Where a token may go (each objective's text)."""
    from warbench.rulesets.collision.game.setup import zone_of, zones

    b = g.board
    s = g.s
    taken = {m.at for m in s.markers if not m.gone and m.at is not None}
    ok = [sq for sq in b.squares() if b.kind(sq).passable and sq not in taken]
    ok = [sq for sq in ok if g.at(sq) is None or p.kind == "trinket"]
    if p.kind == "chest":  # no man's land (L1186-1187)
        zs = zones(g)
        return [sq for sq in ok if not any(sq in z for z in zs.values())]
    if p.kind == "statue":  # 2nd row from the edge of their zone (L1206-1209)
        assert p.owner is not None
        return [sq for sq in _edge_line(g, p.owner, 1) if sq not in taken]
    if p.kind == "obelisk":  # adjacent to the centre (L1237)
        return [sq for sq in ok if sq in near_centre(g, 1)]
    if p.kind == "flag":  # 2nd row of the defender's zone (L1251-1253)
        return [sq for sq in ok if sq in _edge_line(g, 1 - s.attacker, 1)]
    if p.kind == "orb":  # within 2 of the centre line, not within 2 of other orbs (L1268-1270)
        zs = zones(g)
        line = [sq for sq in b.squares() if not any(sq in z for z in zs.values())]
        orbs = [m.at for m in g.marker("orb") if m.at is not None]
        return [
            sq
            for sq in ok
            if line
            and min(spaces(sq, q) for q in line) <= 2
            and all(spaces(sq, o) > 2 for o in orbs)
        ]
    if p.kind in ("crate", "relic"):  # the defender's zone (L1283-1284, L1297-1298)
        z = zone_of(g, 1 - s.attacker)
        return [sq for sq in ok if sq in z]
    if p.kind == "cursed":  # within 4 of the centre (L1357-1358)
        return [sq for sq in ok if sq in near_centre(g, 4)]
    if p.kind == "blessed":  # not within 2 of a board edge (L1365)
        return [sq for sq in ok if 2 <= sq[0] < b.cols - 2 and 2 <= sq[1] < b.rows - 2] or ok
    if p.kind == "shard":
        if p.owner is None:
            return [sq for sq in ok if sq in near_centre(g, 4)]
        z = zone_of(g, p.owner)
        return [sq for sq in ok if sq in z]
    if p.kind == "trinket":  # within 2 of the spotter (L1326-1328)
        spotter = g.unit(p.owner) if p.owner is not None else None
        if spotter is None or spotter.pos is None:
            return ok
        return [sq for sq in ok if spaces(sq, spotter.pos) <= 2]
    return ok


def default_square(g: Game, p: Placement) -> Square | None:
    """The automatic placement: the allowed square nearest the centre (the placer's own
    tokens: nearest its own edge), first in order on ties."""
    squares = placement_squares(g, p)
    if not squares:
        return None
    b = g.board
    cx, cy = (b.cols - 1) / 2, (b.rows - 1) / 2
    return min(squares, key=lambda q: (abs(q[0] - cx) + abs(q[1] - cy), q))


def place(g: Game, at: Square | None) -> None:
    """Place the first queued token (``None``: nowhere is allowed; the token is lost)."""
    s = g.s
    p = s.placements.pop(0)
    if at is not None:
        m = Marker(len(s.markers), p.kind, at, owner=p.owner)
        s.markers.append(m)
        if p.kind == "statue":
            assert p.owner is not None
            u = Unit(len(s.units), p.owner, -1, f"Statue ({g.t.groups[p.owner]})")
            u.statue, u.where, u.pos = True, "board", at
            s.units.append(u)
            _set_terrain(g, at, Terrain.VERTICAL_IMPASSABLE.value, 2)
        elif p.kind == "obelisk":
            _set_terrain(g, at, Terrain.VERTICAL_IMPASSABLE.value, 2)
        elif p.kind == "crate":
            _set_terrain(g, at, Terrain.OBSTACLE.value, 0)  # L1282: treated as obstacles
        elif p.kind in ("cursed", "blessed"):
            _set_terrain(g, at, None, 0)  # replacing non-objective terrain (L1357-1358)
        g.event("marker", f"{g.t.groups[p.player]} places the {p.kind} at {at}", p.rule)
    else:
        g.event("marker", f"the {p.kind} has nowhere to go", p.rule)
    if s.turn > 0:  # the Lost Trinket, placed during play
        s.stage = "act"
        active = g.unit(s.active) if s.active is not None else None
        s.player = active.owner if active is not None else s.player
        return
    from warbench.rulesets.collision.game.setup import next_setup_stage

    next_setup_stage(g)


def _set_terrain(g: Game, at: Square, kind: str | None, height: int) -> None:
    g.s.terrain = [t for t in g.s.terrain if (t[0], t[1]) != at]
    if kind is not None:
        g.s.terrain.append((at[0], at[1], kind, height))
    g.s.terrain.sort()


def nominate(g: Game, uid: int) -> None:
    """Headhunter (L1222-1225): the nominated character receives a luck token. Map Carriers
    (L1343-1346): each player's secret nomination."""
    s = g.s
    u = g.unit(uid)
    if (
        s.stage == "nominate"
        and s.turn == 0
        and "headhunter" not in s.nominated
        and (s.major == "Headhunter")
    ):
        s.nominated["headhunter"] = uid
        u.luck += 1
        g.event("nominate", f"{u.name} is the Headhunter's quarry (a luck token)", "L1222-1225")
        from warbench.rulesets.collision.game.setup import next_setup_stage

        next_setup_stage(g)
        return
    s.nominated[f"map{u.owner}"] = uid
    g.event(
        "nominate",
        f"{g.t.groups[u.owner]} nominates {u.name} as its map carrier (in secret)",
        "L1344",
        visible_to=[u.owner],
        public_text=f"{g.t.groups[u.owner]} nominates a map carrier in secret",
    )
    _next_map_carrier(g)


def nominees(g: Game) -> list[Unit]:
    """Who the pending nomination may name."""
    s = g.s
    if s.major == "Headhunter" and "headhunter" not in s.nominated and s.turn == 0:
        mine = [u for u in s.units if u.owner == s.player and not u.statue]
        top = max(g.rank(u) for u in mine)
        return [u for u in mine if g.rank(u) == top]  # highest rank or tied (L1223-1224)
    return [u for u in g.on_board(s.player) if not u.statue]


def _next_map_carrier(g: Game) -> None:
    s = g.s
    for p in (s.attacker, 1 - s.attacker):
        if f"map{p}" not in s.nominated and any(not u.statue for u in g.on_board(p)):
            s.stage, s.player = "nominate", p
            return
    from warbench.rulesets.collision.game.turns import start_turn

    start_turn(g)


def after_deployment(g: Game) -> None:
    """Map Carriers' secret nominations of deployed units (L1344-1345), then turn 1."""
    if "Map Carriers" in g.s.minors:
        _next_map_carrier(g)
        return
    from warbench.rulesets.collision.game.turns import start_turn

    start_turn(g)


# --------------------------------------------------------------------------------------------
# Carrying and dropping
# --------------------------------------------------------------------------------------------


def carried(g: Game, u: Unit) -> list[Marker]:
    """The tokens a character holds."""
    return [m for m in g.s.markers if m.holder == u.uid and not m.gone]


def drop(g: Game, u: Unit, kinds: tuple[str, ...], why: str, lines: str) -> None:
    """Drop tokens of these kinds on the character's square."""
    for m in carried(g, u):
        if m.kind in kinds:
            m.holder, m.at = None, u.pos
            g.event("drop", f"{u.name} drops the {m.kind} ({why})", lines)


def drop_all(g: Game, u: Unit) -> None:
    """A defeated character drops its tokens (L1376, and the carried objectives)."""
    drop(g, u, CARRIED, "defeated", "L1376")
    if u.statue:
        for m in g.s.markers:
            if m.kind == "statue" and m.at == u.pos:
                m.gone = True
        if u.pos is not None:
            _set_terrain(g, u.pos, None, 0)


def acting(g: Game, u: Unit) -> None:
    """A reaction or non-movement action drops the chest, flag or relic (L1191-1193,
    L1254-1255, L1299-1300)."""
    drop(g, u, DROPPED_BY_ACTING, "it acted", "L1191-1193")


def entered(g: Game, u: Unit) -> None:
    """After a character's move or placement: a chest holder 1 injury from defeat drops it."""
    if u.where == "board" and g.card(u).stats.toughness - u.injuries <= 1:
        drop(g, u, ("chest",), "1 injury away from defeat", "L1193-1194")


def move_value(g: Game, u: Unit, base: int) -> int:
    """A character holding the chest has Move 1 (L1190-1191)."""
    if any(m.kind == "chest" for m in carried(g, u)):
        return 1
    return base


# --------------------------------------------------------------------------------------------
# Objective actions (UseAbility names)
# --------------------------------------------------------------------------------------------

#: name -> (Endurance, Mana, lines)
OBJECTIVE_ACTIONS: dict[str, tuple[int, int, str]] = {
    "Pick Up": (2, 0, "L1189-1191"),  # shards 1E (L1376), see cost()
    "Carry Off": (0, 0, "L1195-1196"),
    "Channel the Obelisk": (0, 1, "L1238-1240"),
    "Activate Orb": (0, 1, "L1270-1273"),
    "Raid": (2, 0, "L1285-1287"),
    "Search": (2, 0, "L1323-1326"),
    "Tribute": (0, 1, "L1358-1362"),
}


def objective_cost(g: Game, u: Unit, name: str) -> tuple[int, int]:
    """The cost of an objective action for this character now."""
    e, m, _ = OBJECTIVE_ACTIONS[name]
    if name == "Pick Up" and _pickable(g, u) and _pickable(g, u)[0].kind == "shard":
        return (1, 0)  # L1376: a shard for 1E
    return (e, m)


def _pickable(g: Game, u: Unit) -> list[Marker]:
    s = g.s
    out = []
    for m in s.markers:
        if m.gone or m.holder is not None or m.at != u.pos or m.kind not in CARRIED:
            continue
        if m.kind == "chest" and g.card(u).stats.toughness - u.injuries <= 1:
            continue  # L1193-1194
        if m.kind == "trinket" and not s.spotted[u.owner]:
            continue  # L1328-1330
        out.append(m)
    return out


def objective_refusal(g: Game, u: Unit, name: str) -> str | None:
    """Why the character cannot take this objective action now (None: it can)."""
    s = g.s
    assert u.pos is not None
    if name == "Pick Up":
        return None if _pickable(g, u) else "there is no token here you may pick up"
    if name == "Carry Off":
        held = [m for m in carried(g, u) if m.kind in ("chest", "flag", "relic")]
        if not held:
            return "you carry no chest, flag or relic"
        if held[0].kind == "flag" and u.owner != s.attacker:
            return "only the Attacker carries the flag off (L1256)"
        if held[0].kind == "relic" and u.owner != s.attacker:
            return "only the Attacker carries the relic off (L1300-1301)"
        b = g.board
        if held[0].kind == "relic":
            edge = u.pos[0] in (0, b.cols - 1) or u.pos[1] in (0, b.rows - 1)
        else:
            edge = u.pos in own_edge(g, u.owner)
        return None if edge else "carry it off from a square on your board edge"
    if name == "Channel the Obelisk":
        ob = g.marker("obelisk")
        if not ob or ob[0].at is None or spaces(ob[0].at, u.pos) > 2:
            return "not within 2 of the mystic obelisk (L1238)"
        return None
    if name == "Activate Orb":
        orb = [m for m in g.marker("orb") if m.at == u.pos]
        if not orb:
            return "not standing on an orb (L1270-1271)"
        return "your side already benefits from this orb" if orb[0].owner == u.owner else None
    if name == "Raid":
        crate = [m for m in g.marker("crate") if m.at == u.pos]
        if not crate:
            return "not standing on a crate (L1285-1287)"
        return None if u.owner == s.attacker else "only enemies of the crates raid them"
    if name == "Search":
        return None  # L1323-1329: any character may search, again and again
    if name == "Tribute":
        return (
            None
            if [m for m in g.marker("cursed") if m.at == u.pos]
            else ("not standing on the cursed ground (L1358-1360)")
        )
    return f"{name} is not an objective action"


def available_objective_actions(g: Game, u: Unit) -> list[str]:
    """The objective actions the objectives give this game (L1179-1391)."""
    s = g.s
    names = []
    if any(m.kind in CARRIED for m in s.markers) or s.major == "Lost Trinket":
        names.append("Pick Up")
    if s.major in ("Capture the Chest", "Capture the Standard", "Relic Theft"):
        names.append("Carry Off")
    if s.major == "Mystic Obelisk":
        names.append("Channel the Obelisk")
    if s.major == "Lights in the Darkness":
        names.append("Activate Orb")
    if s.major == "Supply Raid":
        names.append("Raid")
    if s.major == "Lost Trinket":
        names.append("Search")
    if "The Dark Gods" in s.minors:
        names.append("Tribute")
    return names


def do_objective(g: Game, u: Unit, name: str) -> None:
    """Resolve an objective action (cost already paid)."""
    s = g.s
    lines = OBJECTIVE_ACTIONS[name][2]
    if name == "Pick Up":
        m = _pickable(g, u)[0]
        if m.kind not in DROPPED_BY_ACTING:
            acting(g, u)
        m.holder, m.at = u.uid, None
        g.event("pickup", f"{u.name} picks up the {m.kind}", lines)
    elif name == "Carry Off":
        held = [m for m in carried(g, u) if m.kind in ("chest", "flag", "relic")]
        for m in held:
            m.gone, m.by, m.holder = True, u.owner, None
        u.where, u.pos = "escaped", None
        g.event("carry", f"{u.name} carries the {held[0].kind} off the board", lines)
    elif name == "Channel the Obelisk":
        acting(g, u)
        face = g.roll(f"{u.name}: Channel the Obelisk", by=u)
        total = face + g.card(u).stats.s_pow
        if total >= 7:
            s.channel[u.owner] += 1
        g.event(
            "channel", f"{u.name} channels: {total} ({'a token' if total >= 7 else 'no'})", lines
        )
    elif name == "Activate Orb":
        acting(g, u)
        orb = next(m for m in g.marker("orb") if m.at == u.pos)
        orb.owner = u.owner
        g.event("orb", f"{u.name} activates an orb for {g.t.groups[u.owner]}", lines)
    elif name == "Raid":
        acting(g, u)
        crate = next(m for m in g.marker("crate") if m.at == u.pos)
        crate.gone = True
        _set_terrain(g, crate.at or (0, 0), None, 0)
        g.event("raid", f"{u.name} destroys a crate", lines)
    elif name == "Search":
        acting(g, u)
        face = g.roll(f"{u.name}: Search", by=u)
        total = face + g.card(u).stats.att + s.turn + (2 if s.spotted[u.owner] else 0)
        g.event("search", f"{u.name} searches: {total}", lines)
        if total >= 10 and not s.spotted[u.owner]:
            s.spotted[u.owner] = True
            g.event("spotted", f"{g.t.groups[u.owner]} spots the trinket", "L1325-1328")
            if not g.marker("trinket"):
                s.placements.insert(0, Placement(1 - u.owner, "trinket", "L1326-1328", u.uid))
                s.stage, s.player = "marker", 1 - u.owner
    elif name == "Tribute":
        acting(g, u)
        u.tributes += 1
        u.luck += 1
        g.event("tribute", f"{u.name} pays tribute (a luck token)", lines)
        total = sum(v.tributes for v in s.units)
        if total >= 4:  # L1360-1362: the 4th tribute
            g.defeat(u, None, lines)
            s.vp[u.owner] += tables_mod.MINOR_VP
            for m in g.marker("cursed"):
                m.gone = True
            g.event("dark gods", f"{g.t.groups[u.owner]} scores 3 VP (The Dark Gods)", lines)


def on_cursed(g: Game, u: Unit) -> bool:
    """Standing on the cursed ground: hexed (L1358-1359)."""
    return u.pos is not None and any(m.at == u.pos for m in g.marker("cursed"))


def on_blessed(g: Game, u: Unit) -> bool:
    """Standing on blessed ground: Recovery 1 and 1M Regenerate (L1366)."""
    return u.pos is not None and any(m.at == u.pos for m in g.marker("blessed"))


def near_obelisk(g: Game, u: Unit) -> bool:
    """Within 2 of the mystic obelisk: Recovery (L1238-1239)."""
    ob = g.marker("obelisk")
    return (
        bool(ob) and u.pos is not None and ob[0].at is not None and (spaces(ob[0].at, u.pos) <= 2)
    )


# --------------------------------------------------------------------------------------------
# Scoring at the end of the turn limit
# --------------------------------------------------------------------------------------------


def _more(a: float, b: float) -> int | None:
    return None if a == b else (0 if a > b else 1)


def score(g: Game) -> tuple[list[int], list[str]]:
    """Victory Points of each player (L439-446, L1108-1114) and why."""
    from warbench.rulesets.collision.game.setup import command_total, contest, zone_of

    s = g.s
    vp = list(s.vp)
    why: list[str] = []
    a, d = s.attacker, 1 - s.attacker
    alive = [[u for u in g.on_board(p) if not u.statue] for p in (0, 1)]

    def give(p: int | None, n: int, name: str) -> None:
        if p is not None:
            vp[p] += n
            why.append(f"{g.t.groups[p]} scores {n} VP: {name} ({_RULES.get(name, '')})")

    M, m3 = tables_mod.MAJOR_VP, tables_mod.MINOR_VP
    major = s.major
    if major in ("Capture the Chest",):
        chest = [x for x in s.markers if x.kind == "chest"]
        if chest and chest[0].gone and chest[0].by is not None:
            give(chest[0].by, M, major)
    elif major == "Statues of Good & Evil":
        standing = [
            any(u.statue and u.owner == p and u.where == "board" for u in s.units) for p in (0, 1)
        ]
        for p in (0, 1):
            if standing[p] and not standing[1 - p]:
                give(p, M, major)
    elif major == "Headhunter":
        uid = s.nominated.get("headhunter")
        if uid is not None:
            u = g.unit(uid)
            if u.where == "defeated":
                give(a, M, major)
            elif u.where == "board" and g.card(u).stats.toughness - u.injuries >= 2:
                give(d, M, major)
    elif major == "Mystic Obelisk":
        if abs(s.channel[0] - s.channel[1]) >= 2:
            give(_more(s.channel[0], s.channel[1]), M, major)
    elif major in ("Capture the Standard", "Relic Theft"):
        kind = "flag" if major == "Capture the Standard" else "relic"
        tok = [x for x in s.markers if x.kind == kind]
        if tok and tok[0].gone and tok[0].by == a:
            give(a, M, major)
        elif tok:
            t = tok[0]
            where = t.at if t.holder is None else g.unit(t.holder).pos
            if where is None or (kind == "flag" and where not in zone_of(g, a)):
                give(d, M, major)
            elif kind == "relic":
                b = g.board
                if min(where[0], where[1], b.cols - 1 - where[0], b.rows - 1 - where[1]) >= 2:
                    give(d, M, major)
    elif major == "Lights in the Darkness":
        n = [sum(1 for o in g.marker("orb") if o.owner == p) for p in (0, 1)]
        give(_more(n[0], n[1]), M, major)
    elif major == "Supply Raid":
        left = len(g.marker("crate"))
        if left == 0:
            give(a, M, major)
        elif left >= 2:
            give(d, M, major)
    elif major == "Rushed Study":
        towers = centre_squares(g)
        worth = [
            sum(
                g.card(u).stats.command
                for u in alive[p]
                if u.pos is not None and min(spaces(u.pos, q) for q in towers) <= 2
            )
            for p in (0, 1)
        ]
        give(_more(worth[0], worth[1]), M, major)
    elif major == "Lost Trinket":
        for t in g.marker("trinket"):
            if t.holder is not None:
                give(g.unit(t.holder).owner, M, major)
    for minor in s.minors:
        if minor == "Tactical Victory":
            w = contest(
                g, "Tactical Victory", (command_total(g, 0), command_total(g, 1)), "L1335-1337"
            )
            give(w, m3, minor)
        elif minor == "High Ground":
            b = g.board
            levels = sorted({b.level(sq) for sq in b.squares()}, reverse=True)[:2]
            n = [sum(1 for u in alive[p] if u.pos and b.level(u.pos) in levels) for p in (0, 1)]
            give(_more(n[0], n[1]), m3, minor)
        elif minor == "Map Carriers":
            carriers = [s.nominated.get(f"map{p}") for p in (0, 1)]
            ok = [c is not None and g.unit(c).where == "board" for c in carriers]
            for p in (0, 1):
                if ok[p] and carriers[1 - p] is not None and not ok[1 - p]:
                    give(p, m3, minor)
        elif minor == "Past Enemy Lines":
            n = [sum(1 for u in alive[p] if u.pos in zone_of(g, 1 - p)) for p in (0, 1)]
            give(_more(n[0], n[1]), m3, minor)
        elif minor == "Survival is Key":
            pts = [sum(g.card(u).points for u in alive[p]) for p in (0, 1)]
            give(_more(pts[0], pts[1]), m3, minor)
        elif minor == "Hallowed Earth":
            for p in (0, 1):
                if any(on_blessed(g, u) for u in alive[p]):
                    give(p, m3, minor)
        elif minor == "Shards of the Old World":
            for p in (0, 1):
                held = sum(
                    1
                    for x in g.marker("shard")
                    if x.holder is not None and g.unit(x.holder).owner == p
                )
                if held >= 3:
                    give(p, m3, minor)
        elif minor == "God's Favor":
            if abs(s.favor[0] - s.favor[1]) >= 2:
                give(_more(s.favor[0], s.favor[1]), m3, minor)
        elif minor == "Glorious Combat":
            give(_more(s.glory[0], s.glory[1]), m3, minor)
    # L1110-1112, L1744-1748: characters that give VP for surviving
    for p in (0, 1):
        for u in alive[p]:
            if g.has(u, "Few Stood Against Many"):
                give(p, 1, "Few Stood Against Many")
    return vp, why


def check_objective(g: Game, u: Unit, name: str) -> None:
    """Raise when the objective action is not allowed now."""
    if name not in available_objective_actions(g, u):
        raise RulesError(f"{name} is not an action of this game's objectives", rule("L1179-1391"))
    why = objective_refusal(g, u, name)
    if why is not None:
        raise RulesError(f"{u.name}: {why}", rule(OBJECTIVE_ACTIONS[name][2]))
