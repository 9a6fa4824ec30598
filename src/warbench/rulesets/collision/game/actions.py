"""The action step (``003_fc239e71486306e1.txt`` L800-899): movement, weapon attacks, special
actions, hold; and the special actions that are not attacks, one handler each
(:data:`HANDLERS`, named by the effects table's ``handler`` column).

A special action is used once per turn unless repeatable (L872-876); special movement and
normal movement exclude each other (L880-881) unless the ability says otherwise (Haste,
Pounce). Before a non-attack special ability resolves, enemies within 2 may Distract or Trip
it (L1720-1725, L2248-2251).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from warbench.kernel.errors import RulesError
from warbench.rulesets.collision.attack import Cover, apply_injury
from warbench.rulesets.collision.game.abilities import EFFECTS
from warbench.rulesets.collision.game.attacks import (
    check_attack,
    cost_of,
    free_attack,
    start_attack,
)
from warbench.rulesets.collision.game.board import FACINGS, Terrain, cover_between, spaces
from warbench.rulesets.collision.game.core import Game, rule
from warbench.rulesets.collision.game.state import (
    Attack,
    AttackCtx,
    EndActivation,
    Hold,
    Move,
    Unit,
    UseAbility,
)
from warbench.rulesets.collision.glossary import Glossary


def _lines(name: str) -> str:
    e = Glossary.load().get(name)
    return f"L{e.lines[0]}-{e.lines[1]}"


def _fear_ok(g: Game, target: Unit) -> str | None:
    return "it is not affected by Fear (Dauntless, Inspire Bravery)" if g.brave(target) else None


def _enemy_within(g: Game, u: Unit, a: UseAbility, n: int, fear: bool = False) -> str | None:
    if a.target is None or not 0 <= a.target < len(g.s.units):
        return "name an enemy character"
    t = g.unit(a.target)
    if t.where != "board" or t.owner == u.owner or t.statue:
        return f"{t.name} is not an enemy character on the board"
    assert u.pos is not None and t.pos is not None
    if spaces(u.pos, t.pos) > n:
        return f"{t.name} is not within {n} spaces"
    return _fear_ok(g, t) if fear else None


def _friend_within(g: Game, u: Unit, a: UseAbility, n: int, self_ok: bool = True) -> str | None:
    if a.target is None or not 0 <= a.target < len(g.s.units):
        return "name a friendly character"
    t = g.unit(a.target)
    if t.where != "board" or t.owner != u.owner or t.statue:
        return f"{t.name} is not a friendly character on the board"
    if t.uid == u.uid:
        return None if self_ok else "another character"
    assert u.pos is not None and t.pos is not None
    return None if spaces(u.pos, t.pos) <= n else f"{t.name} is not within {n} spaces"


def _enemies(g: Game, u: Unit, n: int) -> list[UseAbility]:
    return [UseAbility("", target=v.uid) for v in g.within(u, n, enemies=True) if not v.statue]


def _friends(g: Game, u: Unit, n: int) -> list[UseAbility]:
    return [UseAbility("", target=u.uid)] + [
        UseAbility("", target=v.uid) for v in g.within(u, n, enemies=False) if not v.statue
    ]


@dataclass(frozen=True)
class Handler:
    """A non-attack special action: its choices, its extra checks and its effect."""

    options: Callable[[Game, Unit], list[UseAbility]]
    check: Callable[[Game, Unit, UseAbility], str | None]
    do: Callable[[Game, Unit, UseAbility], None]


def _none(g: Game, u: Unit, a: UseAbility) -> str | None:
    return None


def _self(g: Game, u: Unit) -> list[UseAbility]:
    return [UseAbility("")]


def _contest(g: Game, u: Unit, t: Unit, label: str, lines: str) -> bool:
    from warbench.rulesets.collision.game.setup import contest

    a, b = g.card(u).stats.command, g.card(t).stats.command
    pair = (u, t) if u.owner == 0 else (t, u)
    return contest(g, label, (a, b) if u.owner == 0 else (b, a), lines, pair) == u.owner


def _assess(g: Game, u: Unit, a: UseAbility) -> None:
    t = g.unit(a.target or 0)
    if _contest(g, u, t, "Assess the Threat: Command contest", "L1590-1596"):
        g.event("mana", f"{u.name} recovers {g.gain_mana(u, 1)} Mana", "L1590-1596")


def _berserk(g: Game, u: Unit, a: UseAbility) -> None:
    g.set_injuries(u, apply_injury(u.injuries, 1), None, "L1606-1607")
    if u.where == "board":
        got = g.gain_mana(u, u.injuries)
        g.event("mana", f"{u.name} recovers {got} Mana (Berserk)", "L1606-1607")


def _buck_shot_check(g: Game, u: Unit, a: UseAbility) -> str | None:
    if u.last_hit is None or g.unit(u.last_hit).where != "board":
        return "use only after a ranged attack that hit, while its target stands (L1621-1623)"
    if not any(w.ranged for w in g.card(u).weapons):
        return "needs a ranged weapon"
    return None


def _buck_shot(g: Game, u: Unit, a: UseAbility) -> None:
    from warbench.rulesets.collision.game.attacks import run_attack

    assert u.last_hit is not None
    w = next(w for w in g.card(u).weapons if w.ranged)
    t = g.unit(u.last_hit)
    u.last_hit = None
    g.event("buck shot", f"{u.name} shoots {t.name} again without paying EC", "L1621-1623")
    g.s.attack = AttackCtx(u.uid, t.uid, None, w.name, free=True)
    g.s.attack_stack = []
    run_attack(g)


def _check_do(g: Game, u: Unit, a: UseAbility) -> None:
    t = g.unit(a.target or 0)
    if _contest(g, u, t, "Check: Command contest", "L1654-1657"):
        g.add_status(t, "flee", 1, u.uid)


def _epic_heal(g: Game, u: Unit, a: UseAbility) -> None:
    for v in [u] + g.within(u, 8, enemies=False):
        n = 2 if v.uid == u.uid else 1
        before = v.injuries
        v.injuries = max(0, v.injuries - n)
        if before != v.injuries:
            g.event("heal", f"{v.name} recovers {before - v.injuries} injury", "L1740-1742")


def _fortune(g: Game, u: Unit, a: UseAbility) -> None:
    u.luck += 1
    g.event("luck", f"{u.name} gains a luck token ({u.luck})", "L1788-1789")


def _frighten(g: Game, u: Unit, a: UseAbility) -> None:
    g.add_status(g.unit(a.target or 0), "stun", 1, u.uid)


def _gather_check(g: Game, u: Unit, a: UseAbility) -> str | None:
    assert u.pos is not None
    occupied = [v.pos for v in g.on_board() if v.pos is not None]
    for v in g.on_board(1 - u.owner):
        if v.pos is None or v.statue:
            continue
        others = [p for p in occupied if p not in (v.pos, u.pos)]
        if cover_between(g.board, v.pos, u.pos, others) is Cover.NONE:
            return f"{v.name} can draw an attack line to {u.name} without cover (L1799)"
    return None


def _gather(g: Game, u: Unit, a: UseAbility) -> None:
    g.event("mana", f"{u.name} recovers {g.gain_mana(u, 1)} Mana", "L1795-1800")


def _haste(g: Game, u: Unit, a: UseAbility) -> None:
    """Haste (L1820-1823): the user may make one more move up to its Move in this activation;
    each ally within command moves now, one at a time as its player chooses (the ``haste``
    decision), or not. Both "in addition to normal movement actions"."""
    u.hasted = True
    g.s.haste = [v.uid for v in g.within(u, g.card(u).stats.command, enemies=False) if not v.statue]
    g.event("haste", f"{u.name} and allies within command may move", "L1820-1823")


def _heal(g: Game, u: Unit, a: UseAbility) -> None:
    t = g.unit(a.target if a.target is not None else u.uid)
    t.injuries = max(0, t.injuries - 1)
    g.event("heal", f"{t.name} recovers 1 injury ({t.injuries})", "L1825-1826")


def _heat_check(g: Game, u: Unit, a: UseAbility) -> str | None:
    from warbench.rulesets.collision.game.movement import melee_reach

    r = melee_reach(g, u)
    if not r or not g.within(u, r, enemies=True):
        return "use while an enemy is within your melee reach (L1832)"
    return None


def _heat(g: Game, u: Unit, a: UseAbility) -> None:
    g.event("mana", f"{u.name} recovers {g.gain_mana(u, 2)} Mana", "L1828-1832")


def _mana_gift(g: Game, u: Unit, a: UseAbility) -> None:
    t = g.unit(a.target if a.target is not None else u.uid)
    g.event("mana", f"{t.name} recovers {g.gain_mana(t, 1)} Mana", "L1994-1995")


def _any_friend(g: Game, u: Unit) -> list[UseAbility]:
    return [UseAbility("", target=v.uid) for v in g.on_board(u.owner) if not v.statue]


def _any_friend_check(g: Game, u: Unit, a: UseAbility) -> str | None:
    return _friend_within(g, u, a, 999)


def _meditate(g: Game, u: Unit, a: UseAbility) -> None:
    g.event("mana", f"{u.name} recovers {g.gain_mana(u, 1)} Mana", "L2008-2009")


def _persevere_check(g: Game, u: Unit, a: UseAbility) -> str | None:
    if u.injuries >= g.card(u).stats.toughness:
        return "can't be used with injuries at or above Tuf (L2058-2060)"
    return None


def _persevere(g: Game, u: Unit, a: UseAbility) -> None:
    u.persevere = True
    g.event("persevere", f"{u.name} perseveres until its next activation", "L2056-2060")


def _plan(g: Game, u: Unit, a: UseAbility) -> None:
    face = g.roll(f"{u.name}: Plan Ahead", by=u, plan=False)
    g.s.planned[u.owner] = face  # "Using Plan Ahead again replaces the D10 already set aside"
    g.event("plan", f"{u.name} sets aside a {face}", "L2062-2065", face=face)


def _pounce_options(g: Game, u: Unit) -> list[UseAbility]:
    from warbench.rulesets.collision.game.movement import reachable

    return [UseAbility("", at=sq, option="N") for sq in sorted(reachable(g, u, "pounce"))]


def _pounce_check(g: Game, u: Unit, a: UseAbility) -> str | None:
    from warbench.rulesets.collision.game.movement import reachable

    if a.option not in FACINGS:
        return "name the facing after the move (option: N, E, S or W)"
    if a.at is None or tuple(a.at) not in reachable(g, u, "pounce"):
        return "not a square a leap of your Move reaches"
    return None


def _pounce(g: Game, u: Unit, a: UseAbility) -> None:
    from warbench.rulesets.collision.game.movement import start_move

    assert a.at is not None and a.option is not None
    start_move(g, u, "pounce", a.at, a.option)


def _rally(g: Game, u: Unit, a: UseAbility) -> None:
    for v in [u] + g.within(u, g.card(u).stats.command, enemies=False):
        if v.statuses.pop("flee", 0):
            g.event("rally", f"{v.name} no longer flees", "L2091-2093")


def _regenerate(g: Game, u: Unit, a: UseAbility) -> None:
    u.injuries = max(0, u.injuries - 1)
    g.event("heal", f"{u.name} recovers 1 injury ({u.injuries})", "L2100-2101")


def _remedy_options(g: Game, u: Unit) -> list[UseAbility]:
    out = []
    for v in [u] + g.within(u, 2, enemies=False):
        for st in sorted(v.statuses):
            out.append(UseAbility("", target=v.uid, option=st))
    return out


def _remedy_check(g: Game, u: Unit, a: UseAbility) -> str | None:
    why = _friend_within(g, u, a, 2)
    if why:
        return why
    t = g.unit(a.target or 0)
    if not a.option or not t.statuses.get(a.option):
        return f"{t.name} has no {a.option} tokens"
    return None


def _remedy(g: Game, u: Unit, a: UseAbility) -> None:
    t = g.unit(a.target or 0)
    assert a.option is not None
    t.statuses.pop(a.option, None)
    g.event("remedy", f"{t.name} is rid of {a.option}", "L2103-2105")


def _tap(g: Game, u: Unit, a: UseAbility) -> None:
    face = g.roll(f"{u.name}: Tap into Gea", by=u)
    got = g.gain_mana(u, 1) if face >= 4 else 0
    g.event("mana", f"{u.name} rolls {face}: recovers {got} Mana", "L2221-2222")


#: Upheaval's pieces (L2256-2257): option -> (terrain kind, height, the second square of a
#: 2x1 piece from ``at``). ``elevation`` raises the square one level (core.board_of).
_UPHEAVAL: dict[str, tuple[str, int, tuple[int, int] | None]] = {
    "impassable": ("vertical-impassable", 2, None),
    "elevation": ("elevation", 1, None),
    "obstacle-h": ("obstacle", 0, (1, 0)),
    "obstacle-v": ("obstacle", 0, (0, 1)),
}


def _upheaval_squares(a: UseAbility) -> list[tuple[int, int]]:
    assert a.at is not None and a.option in _UPHEAVAL
    second = _UPHEAVAL[a.option][2]
    first = (a.at[0], a.at[1])
    return [first] if second is None else [first, (first[0] + second[0], first[1] + second[1])]


def _upheaval_options(g: Game, u: Unit) -> list[UseAbility]:
    assert u.pos is not None
    out = []
    for dx in (-2, -1, 0, 1):
        for dy in (-2, -1, 0, 1):
            sq = (u.pos[0] + dx, u.pos[1] + dy)
            for opt in _UPHEAVAL:
                out.append(UseAbility("", at=sq, option=opt))
    return out


def _upheaval_check(g: Game, u: Unit, a: UseAbility) -> str | None:
    """The piece is adjacent to the user (one of its squares within 1), on the board, on
    squares without terrain: no piece, no objective token, the ground level 1 (elevation
    tiles are terrain, L544-545; docs/rulings.md, Collision 49), and impassable terrain not
    on an occupied square (L2256-2259)."""
    assert u.pos is not None
    if a.option not in _UPHEAVAL:
        return "choose " + ", ".join(_UPHEAVAL) + " (L2256-2257)"
    if a.at is None:
        return "name the piece's square"
    squares = _upheaval_squares(a)
    b = g.board
    if not all(b.inside(sq) for sq in squares):
        return "the piece is off the board"
    if u.pos in squares or min(spaces(u.pos, sq) for sq in squares) != 1:
        return "a piece adjacent to you (L2257)"
    own = {(t[0], t[1]) for t in g.s.upheaval[u.owner]}  # it is removed first (L2259-2260)
    for sq in squares:
        if sq in own:
            continue
        if b.kind(sq) is not Terrain.OPEN or b.level(sq) != 1:
            return f"{sq} has terrain: it can't overlap other terrain (L2258)"
        if any(m.at == sq and not m.gone for m in g.s.markers):
            return f"{sq} has an objective token: it can't overlap other terrain (L2258)"
    if a.option == "impassable" and g.at(squares[0]) is not None:
        return "no impassable terrain in an occupied square (L2258-2259)"
    return None


def _upheaval(g: Game, u: Unit, a: UseAbility) -> None:
    assert a.at is not None and a.option is not None
    s = g.s
    prev = s.upheaval[u.owner]
    if prev:  # L2259-2260: "remove their previous terrain piece"
        s.terrain = [t for t in s.terrain if t not in prev]
    kind, height, _ = _UPHEAVAL[a.option]
    piece = [(sq[0], sq[1], kind, height) for sq in _upheaval_squares(a)]
    s.terrain = sorted(s.terrain + piece)
    s.upheaval[u.owner] = piece
    g.event(
        "upheaval",
        f"{u.name} raises {a.option} terrain at {', '.join(str(p[:2]) for p in piece)}",
        "L2254-2260",
    )


def _vigorate(g: Game, u: Unit, a: UseAbility) -> None:
    t = g.unit(a.target if a.target is not None else u.uid)
    g.event("vigorate", f"{t.name} recovers {g.gain_endurance(t, 2)} Endurance", "L2270-2273")


def _wreck_options(g: Game, u: Unit) -> list[UseAbility]:
    assert u.pos is not None
    return [UseAbility("", at=sq) for sq in sorted(g.board.terrain) if spaces(sq, u.pos) == 1]


def _wreck_check(g: Game, u: Unit, a: UseAbility) -> str | None:
    assert u.pos is not None
    if a.at is None or tuple(a.at) not in g.board.terrain or spaces(u.pos, a.at) != 1:
        return "an adjacent terrain piece"
    if any(m.at == tuple(a.at) for m in g.s.markers if not m.gone):
        return "not objective terrain (L2288)"
    if g.board.terrain[tuple(a.at)].height >= 3:  # type: ignore[index]
        return "not terrain larger than 2x1 (L2288-2289)"
    return None


def _wreck(g: Game, u: Unit, a: UseAbility) -> None:
    assert a.at is not None
    face = g.roll(f"{u.name}: Wreck", by=u)
    total = face + g.card(u).stats.toughness
    if total >= 8:
        g.s.terrain = [t for t in g.s.terrain if (t[0], t[1]) != tuple(a.at)]
        g.event(
            "wreck",
            f"{u.name} rolls {total}: the terrain at {tuple(a.at)} is destroyed",
            "L2286-2289",
        )
    else:
        g.event("wreck", f"{u.name} rolls {total}: the terrain stands", "L2286-2289")


HANDLERS: dict[str, Handler] = {
    "assess": Handler(
        lambda g, u: _enemies(g, u, g.card(u).stats.command),
        lambda g, u, a: _enemy_within(g, u, a, g.card(u).stats.command, fear=True),
        _assess,
    ),
    "berserk": Handler(_self, _none, _berserk),
    "buck_shot": Handler(_self, _buck_shot_check, _buck_shot),
    "check": Handler(
        lambda g, u: _enemies(g, u, g.card(u).stats.command),
        lambda g, u, a: _enemy_within(g, u, a, g.card(u).stats.command, fear=True),
        _check_do,
    ),
    "epic_heal": Handler(_self, _none, _epic_heal),
    "fortune": Handler(_self, _none, _fortune),
    "frighten": Handler(
        lambda g, u: _enemies(g, u, g.card(u).stats.command),
        lambda g, u, a: _enemy_within(g, u, a, g.card(u).stats.command, fear=True),
        _frighten,
    ),
    "gather_courage": Handler(_self, _gather_check, _gather),
    "haste": Handler(_self, _none, _haste),
    "heal": Handler(
        lambda g, u: _friends(g, u, 4), lambda g, u, a: _friend_within(g, u, a, 4), _heal
    ),
    "heat_of_battle": Handler(_self, _heat_check, _heat),
    "mana_gift": Handler(_any_friend, _any_friend_check, _mana_gift),
    "meditate": Handler(_self, _none, _meditate),
    "persevere": Handler(_self, _persevere_check, _persevere),
    "plan_ahead": Handler(_self, _none, _plan),
    "pounce": Handler(_pounce_options, _pounce_check, _pounce),
    "rally": Handler(_self, _none, _rally),
    "regenerate": Handler(_self, _none, _regenerate),
    "remedy": Handler(_remedy_options, _remedy_check, _remedy),
    "tap_into_gea": Handler(_self, _none, _tap),
    "upheaval": Handler(_upheaval_options, _upheaval_check, _upheaval),
    "vigorate": Handler(
        lambda g, u: _friends(g, u, 2), lambda g, u, a: _friend_within(g, u, a, 2), _vigorate
    ),
    "wreck": Handler(_wreck_options, _wreck_check, _wreck),
}


# --------------------------------------------------------------------------------------------
# The action step
# --------------------------------------------------------------------------------------------


def granted(g: Game, u: Unit) -> list[str]:
    """Special actions the character may use: its card's, and Regenerate on blessed ground
    (Hallowed Earth, L1366)."""
    from warbench.rulesets.collision.game.objectives import on_blessed

    names = [a for a in g.card(u).abilities if EFFECTS.get(a) and EFFECTS[a].how == "action"]
    if on_blessed(g, u) and "Regenerate" not in names:
        names.append("Regenerate")
    return names


def check_ability(g: Game, u: Unit, a: UseAbility) -> None:
    """Refuse a special action (or objective action) the rules forbid."""
    from warbench.rulesets.collision.game.objectives import (
        OBJECTIVE_ACTIONS,
        check_objective,
        objective_cost,
    )

    if a.ability in OBJECTIVE_ACTIONS:
        check_objective(g, u, a.ability)
        e, m = objective_cost(g, u, a.ability)
        if u.endurance < e or u.mana < m:
            raise RulesError(
                f"{a.ability} costs {e}E {m}M; {u.name} has {u.endurance}E {u.mana}M",
                rule(OBJECTIVE_ACTIONS[a.ability][2]),
            )
        return
    e_ = EFFECTS.get(a.ability)
    if e_ is None or e_.how != "action" or e_.handler is None:
        raise RulesError(
            f"{a.ability} is not a special action (attacks use Attack)", rule("L872-881")
        )
    if a.ability not in granted(g, u):
        raise RulesError(f"{u.name} does not have {a.ability}", rule("L872-876"))
    lines = rule(_lines(a.ability))
    if a.ability in u.used and not e_.repeatable:
        raise RulesError(f"{u.name} already used {a.ability} this turn", rule("L872-876"))
    if e_.special_move and a.ability == "Pounce" and u.special_moved:
        raise RulesError("one special movement a turn", rule("L880-881"))
    e, m = cost_of(a.ability)
    if u.endurance < e or u.mana < m:
        raise RulesError(
            f"{a.ability} costs {e}E {m}M; {u.name} has {u.endurance}E {u.mana}M", lines
        )
    why = HANDLERS[e_.handler].check(g, u, a)
    if why:
        raise RulesError(f"{a.ability}: {why}", lines)


def ability_options(g: Game, u: Unit) -> list[UseAbility]:
    """Listed special actions and objective actions the character may use now."""
    from warbench.rulesets.collision.game.objectives import available_objective_actions

    out: list[UseAbility] = []
    for name in granted(g, u):
        e = EFFECTS[name]
        assert e.handler is not None
        for o in HANDLERS[e.handler].options(g, u):
            out.append(UseAbility(name, o.target, o.at, o.option))
    for name in available_objective_actions(g, u):
        out.append(UseAbility(name))
    legal = []
    for a in out:
        try:
            check_ability(g, u, a)
        except RulesError:
            continue
        legal.append(a)
    return legal


def use_ability(g: Game, u: Unit, a: UseAbility) -> None:
    """Pay, let enemies within 2 Distract or Trip it, then resolve."""
    from warbench.rulesets.collision.game.objectives import (
        OBJECTIVE_ACTIONS,
        acting,
        do_objective,
        objective_cost,
    )
    from warbench.rulesets.collision.game.reactions import open_window

    u.acted = True
    if a.ability in OBJECTIVE_ACTIONS:
        e, m = objective_cost(g, u, a.ability)
        g.pay(u, e, m, a.ability)
        do_objective(g, u, a.ability)
        return
    e, m = cost_of(a.ability)
    g.pay(u, e, m, a.ability)
    u.used.append(a.ability)
    if a.ability not in ("Pounce", "Haste"):
        acting(g, u)
    g.event(
        "ability", f"{u.name} uses {a.ability}", _lines(a.ability), unit=u.uid, ability=a.ability
    )
    g.s.ability_call = (u.uid, a.ability, a.target, a.at, a.option)
    if open_window(g, "ability", u, None, a.ability):
        return
    resume_ability(g)


def resume_ability(g: Game) -> None:
    """Resolve the special action unless a reaction negated it."""
    s = g.s
    call = s.ability_call
    s.ability_call = None
    s.stage = "act"
    if call is None:
        return
    uid, name, target, at, option = call
    u = g.unit(uid)
    if u.where != "board":
        return
    handler = EFFECTS[name].handler
    assert handler is not None
    HANDLERS[handler].do(g, u, UseAbility(name, target, at, option))


def check_act(g: Game, u: Unit, action: object) -> None:
    """Refuse an action of the action step the rules forbid."""
    from warbench.rulesets.collision.game.movement import check_move

    if u.held:
        raise RulesError(f"{u.name} holds: no other action", rule("L883-889"))
    if isinstance(action, Move):
        check_move(g, u, action.mode, action.to, action.facing)
    elif isinstance(action, Attack):
        check_attack(g, u, action)
    elif isinstance(action, UseAbility):
        check_ability(g, u, action)
    elif isinstance(action, Hold):
        if action.facing not in FACINGS:
            raise RulesError(f"facing {action.facing!r}; allowed: N, E, S, W", rule("L883-889"))
        if u.acted or u.moved or u.special_moved:
            raise RulesError(
                "a character holds instead of acting; this one has acted", rule("L883-887")
            )
    elif not isinstance(action, EndActivation):
        raise RulesError(
            f"{type(action).__name__} is not an action of the action step", rule("L800-804")
        )


def do_act(g: Game, u: Unit, action: object) -> None:
    """Apply an action of the action step (checked)."""
    from warbench.rulesets.collision.game.movement import start_move
    from warbench.rulesets.collision.game.turns import finish_activation, hold

    if isinstance(action, Move):
        start_move(g, u, action.mode, action.to, action.facing)
    elif isinstance(action, Attack):
        start_attack(g, u, action)
    elif isinstance(action, UseAbility):
        use_ability(g, u, action)
    elif isinstance(action, Hold):
        hold(g, action.facing)
    else:
        finish_activation(g)


__all__ = ["HANDLERS", "free_attack"]
