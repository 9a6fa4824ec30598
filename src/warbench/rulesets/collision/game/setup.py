"""Starting a pick-up game and deployment (``003_fc239e71486306e1.txt`` L580-747).

``setup`` parses two battle groups, chooses the objectives (L450-480; the Random method unless
the options name them), sizes the board from the point limit (L597-598) and rolls the Command
contest for sides (L620-627). Then, one decision at a time: the winner chooses Attacker or
Defender; the zones (L626-674); objective tokens placed by the players (L557-565); the
Headhunter nomination; each player sorts the hand into three phase piles (L678-686); the
players deploy pile by pile, alternately (L688-706), never within 4 spaces of an enemy
(L708-714), setting aside a character that cannot be deployed (L722-724).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from warbench.kernel.errors import ProfileError, RulesError
from warbench.play.core import canonical
from warbench.rulesets.collision import deployment as zones_mod
from warbench.rulesets.collision import objectives as obj
from warbench.rulesets.collision.dice import SeededD10
from warbench.rulesets.collision.game.board import (
    FACINGS,
    Square,
    board_from_json,
    face_towards,
    sample_board,
    spaces,
)
from warbench.rulesets.collision.game.core import Game, Tables, remember, rule
from warbench.rulesets.collision.game.state import CollisionState, Unit
from warbench.rulesets.collision.io import parse_group
from warbench.rulesets.collision.models import BattleGroup, Card
from warbench.rulesets.collision.validation import board_size, phase_piles

OPTIONS = ("major", "minors", "turn_limit", "hide_piles")


def parse_setup(rosters: Sequence[Any], board: Any, options: Mapping[str, Any]) -> Tables:
    """Two battle groups (inline cards), the board (JSON, ``None`` for the sample board of the
    point limit) and the options; typed errors name the field."""
    if len(rosters) != 2:
        raise ProfileError("rosters", len(rosters), "exactly 2 battle groups (L580-595)")
    groups: list[BattleGroup] = []
    for i, r in enumerate(rosters):
        if not isinstance(r, Mapping):
            raise ProfileError(
                f"rosters[{i}]", r, "a battle group {name, points_limit, characters}"
            )
        for j, m in enumerate(r.get("characters") or []):
            if isinstance(m, Mapping) and not isinstance(m.get("card"), Mapping):
                raise ProfileError(
                    f"rosters[{i}].characters[{j}].card", m.get("card"), "the card inline"
                )
        groups.append(parse_group(dict(r), f"rosters[{i}]"))
    for key in options:
        if key not in OPTIONS:
            raise ProfileError(f"options.{key}", options[key], "options " + ", ".join(OPTIONS))
    limit = max(g.points_limit for g in groups)
    b = sample_board(*board_size(limit)) if board is None else board_from_json(board)
    cards = tuple(tuple(card for card, count in g.cards() for _ in range(count)) for g in groups)
    return Tables((cards[0], cards[1]), (groups[0].name, groups[1].name), limit, b, dict(options))


def _names(cards: Sequence[Any]) -> list[str]:
    counts: dict[str, int] = {}
    for c in cards:
        counts[c.name] = counts.get(c.name, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for c in cards:
        if counts[c.name] > 1:
            seen[c.name] = seen.get(c.name, 0) + 1
            out.append(f"{c.name} ({seen[c.name]})")  # L316-319
        else:
            out.append(c.name)
    return out


def _objectives(options: Mapping[str, Any], roll: SeededD10) -> obj.Objectives:
    major, minors = options.get("major"), options.get("minors")
    if major is None and minors is None:
        return obj.random_method(roll)  # L451-460
    if not isinstance(major, str):
        raise ProfileError("options.major", major, "a major objective's name (L1155-1165)")
    if not isinstance(minors, list) or len(minors) != 2:
        raise ProfileError("options.minors", minors, "two minor objectives' names (L1167-1177)")
    return obj.outside_method(major, (str(minors[0]), str(minors[1])))  # L470-473


def command_total(g: Game, player: int) -> int:
    """The combined Command of a player's characters still in the battle (L621-623,
    L771-773; docs/rulings.md, Collision 19)."""
    return sum(
        g.card(u).stats.command
        for u in g.s.units
        if u.owner == player and u.where in ("hand", "board", "reserve") and not u.statue
    )


def contest(
    g: Game,
    label: str,
    value: tuple[int, int],
    lines: str,
    units: tuple[Unit, Unit] | None = None,
) -> int:
    """A total contest: D10 + value each, the higher wins; ties are rolled again (ruling 19).
    In a contest of two characters (``units``: player 0's, player 1's) each die is rolled by
    one and against the other (Plan Ahead and Luck, L2062-2065, L1977-1980)."""
    u0, u1 = units if units is not None else (None, None)
    while True:
        a = g.roll(f"{label} (player 0)", 0, by=u0, against=u1) + value[0]
        b = g.roll(f"{label} (player 1)", 1, by=u1, against=u0) + value[1]
        g.event("contest", f"{label}: {a} against {b}", lines, totals=[a, b])
        if a != b:
            return 0 if a > b else 1


def _luck(card: Card) -> int:
    """Luck tokens a card starts with: ``Luck N`` gives N, ``Luck`` one (L1977-1980: "The
    number associated with the effect can indicate the number of luck tokens a character
    receives")."""
    from warbench.rulesets.collision.glossary import Glossary

    glossary = Glossary.load()
    total = 0
    for name in card.effects:
        entry, n = glossary.resolve(name)
        if entry.name == "Luck":
            total += 1 if n is None else n
    return total


def setup_state(
    rosters: Sequence[Any], board: Any, options: Mapping[str, Any], seed: int
) -> CollisionState:
    """The state before the first decision (the Attacker/Defender choice)."""
    t = parse_setup(rosters, board, options)
    setup_json = canonical({"rosters": list(rosters), "board": board, "options": dict(options)})
    key = hashlib.sha256(setup_json.encode()).hexdigest()[:16]
    remember(key, t)
    roll = SeededD10(seed)
    chosen = _objectives(options, roll)
    turn_limit = options.get("turn_limit")
    if turn_limit is None:
        turn_limit = chosen.major.turn_limit(t.points_limit)
    if not isinstance(turn_limit, int) or not 1 <= turn_limit <= 20:
        raise ProfileError("options.turn_limit", turn_limit, "a whole number of turns 1-20")
    s = CollisionState(
        seed=seed,
        setup_key=key,
        setup_json=setup_json,
        major=chosen.major.name,
        minors=(chosen.minors[0].name, chosen.minors[1].name),
        turn_limit=turn_limit,
        terrain=[(x, y, p.kind.value, p.height) for (x, y), p in t.board.pieces],
    )
    uid = 0
    for owner in (0, 1):
        for i, name in enumerate(_names(t.cards[owner])):
            card = t.cards[owner][i]
            end = card.stats.endure
            if "Mark of the Titans" in card.effects:
                end = min(9, 2 * end)  # L2002-2006
            s.units.append(
                Unit(uid, owner, i, name, endurance=end, mana=card.stats.mana, luck=_luck(card))
            )
            uid += 1
    g = Game(s, roll)
    # L2206-2211 Swift Assault: more Swift Assault characters choose the side
    swift = [sum("Swift Assault" in c.effects for c in t.cards[p]) for p in (0, 1)]
    if swift[0] != swift[1]:
        s.contest_winner = 0 if swift[0] > swift[1] else 1
        g.event("swift", f"{t.groups[s.contest_winner]} has more Swift Assault", "L2206-2211")
    else:
        s.contest_winner = contest(
            g, "Command contest for sides", (command_total(g, 0), command_total(g, 1)), "L620-627"
        )
    s.player = s.contest_winner
    s.log = [e.text for e in g.events]
    from warbench.rulesets.collision.game.objectives import before_terrain

    before_terrain(g)
    return s


# --------------------------------------------------------------------------------------------
# Sides and zones
# --------------------------------------------------------------------------------------------


def style(s: CollisionState) -> obj.Deployment:
    """The deployment style of the major objective (L629-630)."""
    style = obj.find(s.major, major=True).deployment
    assert style is not None
    return style


def zones(g: Game) -> dict[str, frozenset[Square]]:
    """The deployment zones of the game (L632-674)."""
    b = g.board
    return _zones(style(g.s), b.cols, b.rows, g.s.rising)


@lru_cache(maxsize=64)
def _zones(st: obj.Deployment, cols: int, rows: int, rising: bool) -> dict[str, frozenset[Square]]:
    if st is obj.Deployment.DIAGONAL:
        return zones_mod.diagonal_zones(cols, rows, rising=rising)
    return zones_mod.zones(st, cols, rows)


def zone_of(g: Game, player: int) -> frozenset[Square]:
    """A player's deployment zone."""
    return zones(g)[g.s.zone_of[player]]


def defender(s: CollisionState) -> int:
    """The Defender."""
    return 1 - s.attacker


def zone_choices(g: Game) -> list[str]:
    """The zones the Defender may choose (L626, L632-674)."""
    return sorted(zones(g))


def choose_role(g: Game, role: str) -> None:
    """L623-627: the winner chooses; the other role goes to the opponent."""
    s = g.s
    w = s.contest_winner
    s.attacker = w if role == "attacker" else 1 - w
    g.event("role", f"{g.t.groups[s.attacker]} is the Attacker", "L620-627", attacker=s.attacker)
    st = style(s)
    if st is obj.Deployment.CENTER:
        s.zone_of = ("attacker", "defender") if s.attacker == 0 else ("defender", "attacker")
        after_zones(g)
    elif st is obj.Deployment.DIAGONAL:
        s.stage, s.player = "diagonal", s.attacker
    else:
        s.stage, s.player = "zone", defender(s)


def choose_diagonal(g: Game, rising: bool) -> None:
    """L664-668: the attacker divides the board diagonally."""
    g.s.rising = rising
    g.event("diagonal", "the board is divided " + ("rising" if rising else "falling"), "L664-674")
    g.s.stage, g.s.player = "zone", defender(g.s)


def choose_zone(g: Game, key: str) -> None:
    """The Defender's zone; the Attacker has the other (L626, L632-674)."""
    s = g.s
    keys = zone_choices(g)
    other = next(k for k in keys if k != key)
    d = defender(s)
    z = ["", ""]
    z[d], z[1 - d] = key, other
    s.zone_of = (z[0], z[1])
    g.event("zone", f"{g.t.groups[d]} deploys in the {key} zone", "L626-628")
    after_zones(g)


def after_zones(g: Game) -> None:
    """Objective tokens to place (L557-565), then nominations, piles and deployment."""
    from warbench.rulesets.collision.game.objectives import queue_placements

    queue_placements(g)
    next_setup_stage(g)


def next_setup_stage(g: Game) -> None:
    """The next set-up decision after tokens: placements, nominations, deployment piles."""
    s = g.s
    if s.placements:
        s.stage, s.player = "marker", s.placements[0].player
        return
    if s.major == "Headhunter" and "headhunter" not in s.nominated:
        s.stage, s.player = "nominate", defender(s)  # L1222-1225
        return
    first = deploys_first(s)
    s.stage, s.player, s.phase = "piles", first, 1
    s.turn = 0


def deploys_first(s: CollisionState) -> int:
    """Who deploys first (L626-628, L661-662)."""
    return s.attacker if zones_mod.deploys_first(style(s)) == "attacker" else defender(s)


# --------------------------------------------------------------------------------------------
# Piles and deployment
# --------------------------------------------------------------------------------------------


def hand(g: Game, player: int) -> list[Unit]:
    """The characters a player sorts into piles: in hand or on the board (L774-776)."""
    return [
        u for u in g.s.units if u.owner == player and u.where in ("hand", "board") and not u.statue
    ]


def default_piles(g: Game, player: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The automatic piles: the current piles kept, sizes as L682-686 require."""
    units = sorted(hand(g, player), key=lambda u: (u.pile, u.uid))
    sizes = phase_piles(len(units))
    out: list[tuple[int, ...]] = []
    i = 0
    for n in sizes:
        out.append(tuple(u.uid for u in units[i : i + n]))
        i += n
    return (out[0], out[1], out[2])


def check_piles(g: Game, player: int, piles: Sequence[Sequence[int]]) -> None:
    """L682-686: three equal piles, remainders in the beginning phases, every card once."""
    want = sorted(u.uid for u in hand(g, player))
    got = sorted(x for p in piles for x in p)
    if got != want:
        raise RulesError(
            f"the piles must hold each of your characters once: {want}, not {got}",
            rule("L682-686"),
        )
    sizes = phase_piles(len(want))
    if tuple(len(p) for p in piles) != sizes:
        raise RulesError(
            f"{len(want)} characters sort into piles of {sizes[0]}, {sizes[1]} and {sizes[2]}, "
            f"not {tuple(len(p) for p in piles)}",
            rule("L682-686"),
        )


def set_piles(g: Game, player: int, piles: Sequence[Sequence[int]]) -> None:
    """Sort the hand; the next player sorts, then deployment or the turn goes on."""
    for k, p in enumerate(piles, start=1):
        for uid in p:
            g.unit(uid).pile = k
    public = f"{g.t.groups[player]} sorts the hand into three piles"
    if g.s.turn > 0 and g.t.options.get("hide_piles", True):
        # the piles are secret (L774-776): the sorting player's event names them, the others
        # see the public sentence (docs/web-play.md, "Events and what each viewer sees")
        names = "; ".join(
            f"phase {k}: " + (", ".join(g.unit(uid).name for uid in p) or "none")
            for k, p in enumerate(piles, start=1)
        )
        g.event(
            "piles",
            f"{g.t.groups[player]} sorts the hand: {names}",
            "L682-686",
            visible_to=[player],
            public_text=public,
        )
    else:
        g.event("piles", public, "L682-686")
    s = g.s
    if s.turn == 0:
        first = deploys_first(s)
        if player == first:
            s.player = 1 - first
        else:
            s.stage, s.phase, s.player = "deploy", 1, first
            advance_deploy(g)
    else:
        from warbench.rulesets.collision.game.turns import after_piles

        after_piles(g, player)


def deploy_squares(g: Game, player: int) -> list[Square]:
    """Squares a character may deploy on (L694-700, L708-714)."""
    b = g.board
    enemies = [u.pos for u in g.on_board(1 - player) if u.pos is not None]
    taken = {u.pos for u in g.on_board()}
    blocked = {m.at for m in g.s.markers if not m.gone and m.kind in ("statue", "obelisk")}
    out = []
    for sq in sorted(zone_of(g, player)):
        if not b.kind(sq).stands or sq in taken or sq in blocked:
            continue
        if any(spaces(sq, e) <= 4 for e in enemies):
            continue  # L708-714: not within 4 spaces of an enemy character
        out.append(sq)
    return out


def to_deploy(g: Game) -> list[Unit]:
    """The deploying player's characters of the current pile not yet deployed."""
    s = g.s
    return [
        u
        for u in s.units
        if u.owner == s.player and u.where == "hand" and u.pile == s.phase and not u.statue
    ]


def advance_deploy(g: Game) -> None:
    """Alternate pile by pile until deployment is complete (L702-706)."""
    s = g.s
    first = deploys_first(s)
    order = [(ph, p) for ph in (1, 2, 3) for p in (first, 1 - first)]
    i = order.index((s.phase, s.player))
    while i < len(order):
        s.phase, s.player = order[i]
        if to_deploy(g):
            s.stage = "deploy"
            return
        i += 1
    from warbench.rulesets.collision.game.objectives import after_deployment

    after_deployment(g)


def default_deploy(g: Game, uid: int) -> tuple[Square | None, str]:
    """The automatic placement: the free square of the zone nearest the centre of the board,
    facing the centre (the book leaves placement to the player)."""
    b = g.board
    squares = deploy_squares(g, g.unit(uid).owner)
    if not squares:
        return None, "N"
    cx, cy = (b.cols - 1) / 2, (b.rows - 1) / 2
    best = min(squares, key=lambda q: (abs(q[0] - cx) + abs(q[1] - cy), q))
    centre = (round(cx), round(cy))
    return best, face_towards(best, centre) if best != centre else "N"


def deploy(g: Game, uid: int, at: Square | None, facing: str) -> None:
    """Place the character, or set it aside for reinforcements (L722-724)."""
    u = g.unit(uid)
    if at is None:
        u.where = "reserve"
        g.event("aside", f"{u.name} cannot be deployed: set aside for reinforcements", "L722-724")
    else:
        u.where, u.pos, u.facing = "board", at, facing
        g.event("deploy", f"{u.name} deploys at {at} facing {facing}", "L688-700", unit=uid)
        from warbench.rulesets.collision.game.objectives import entered

        entered(g, u)
    advance_deploy(g)


def check_deploy(g: Game, uid: int, at: Square | None, facing: str) -> None:
    """Refuse a deployment the rules forbid (L694-714)."""
    if facing not in FACINGS:
        raise RulesError(f"facing {facing!r}; allowed: N, E, S, W", rule("L708-710"))
    if uid not in [u.uid for u in to_deploy(g)]:
        names = ", ".join(f"{u.uid} {u.name}" for u in to_deploy(g))
        raise RulesError(
            f"character {uid} is not in the pile being deployed ({names})", rule("L688-706")
        )
    squares = deploy_squares(g, g.s.player)
    if at is None:
        if squares:
            raise RulesError(
                "a character is set aside only when it cannot be deployed", rule("L722-724")
            )
        return
    if tuple(at) not in squares:
        raise RulesError(
            f"{tuple(at)} is not a free square of your zone (no vertical obstacle or impassable "
            "terrain, not within 4 spaces of an enemy)",
            rule("L694-714"),
        )


def setup_json_of(state: CollisionState) -> dict[str, Any]:
    """The set-up arguments kept in the state."""
    out: dict[str, Any] = json.loads(state.setup_json)
    return out
