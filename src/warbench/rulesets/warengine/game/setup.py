"""Setting up the game (004_f4ea5693af0644ce.txt L285-L309): forces, the stage, placing.

* The forces are WarEngine forces (``warengine/models.py``), validated by the Troop and
  Force Builders' limits; each unit's figures become :class:`Fig` s.
* The stage is a battlefield board (a WARSURGE sample board's name or board data).
* Placing (L301-L309): figures are placed by Movement, slowest first; when both players have
  figures of one Movement a roll-off decides (the lowest roll places first: a chance step);
  each figure is placed up to 12" from its player's edge (player 0 the south edge ``y = 0``,
  player 1 the north edge), with Infiltration anywhere not touching an enemy (L1567).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from warbench.kernel.errors import ProfileError
from warbench.rulesets.warengine.costs import figure_cost, is_character
from warbench.rulesets.warengine.dice import XkY
from warbench.rulesets.warengine.game.board import Field
from warbench.rulesets.warengine.game.effects import Effect, effects_of
from warbench.rulesets.warengine.game.state import Fig, GameState, UnitState, rule
from warbench.rulesets.warengine.models import Force, Weapon
from warbench.rulesets.warengine.tables import VEHICLE_MONSTER_TYPES

DEPLOY_DEPTH = 12.0  # L309
#: Base radii in inches by figure type: a ruling (docs/rulings.md, The WarEngine 2.1 game,
#: ruling 1: 25 mm bases for T/E/C); the book gives none, only 28mm figures (L281).
RADIUS = {"T": 0.5, "E": 0.5, "C": 0.5, "L": 1.0, "M": 1.5, "H": 2.0}
OPTIONS = ("turns", "vp_target", "objectives", "quarters", "deploy_depth", "builder_limits")


@dataclass(frozen=True)
class WeaponProfile:
    """One usable weapon profile of a figure (a Multiprofile weapon gives one per profile,
    sharing its ``slot``: only one profile of a slot per turn, L1807)."""

    slot: int
    name: str
    range: float | None  # None: close combat (no Range, L461)
    av: XkY
    ae: int  # how many figures it affects (1, or 2-4 for 2x-4x, L501)
    aet: str | None  # CC, Ex, Bu, Li
    power: str | None
    tweaks: tuple[str, ...]
    effects: tuple[Effect, ...]

    @property
    def cc(self) -> bool:
        """A close combat weapon (no Range value, L461)."""
        return self.range is None

    def has(self, kind: str) -> bool:
        """Whether a tweak of the weapon has an effect of ``kind``."""
        return any(e.kind == kind for e in self.effects)

    def param(self, kind: str, default: Any = None) -> Any:
        """The parameter of the weapon's first effect of ``kind``."""
        for e in self.effects:
            if e.kind == kind:
                return e.param
        return default


@dataclass(frozen=True)
class Profile:
    """A figure's characteristics as the game uses them."""

    name: str
    type: str
    mv: int
    df: XkY
    mn: XkY | None  # None: Automatic Mental
    cr: float
    hero: int
    points: int
    character: bool
    big: bool  # a vehicle or monster (types L, M, H)
    radius: float
    tweaks: tuple[str, ...]
    effects: tuple[Effect, ...]
    weapons: tuple[WeaponProfile, ...]
    faction: str = ""  # the force's, unit's and figure's faction keywords, lower case (L1003)

    def has(self, kind: str) -> bool:
        """Whether a personal tweak has an effect of ``kind``."""
        return any(e.kind == kind for e in self.effects)


@dataclass
class Context:
    """What a game set-up fixes (forces, board, options), shared by all its states."""

    key: str
    args: dict[str, Any]
    forces: tuple[Force, Force]
    field: Field
    profiles: Sequence[Profile]  # the set-up's; a state's own through game/kit.context_of
    turns: int
    vp_target: int | None
    objectives: tuple[str, ...]
    quarters: bool
    depth: float
    big: tuple[int, ...] = ()  # the figures that are vehicles or monsters (they block sight)
    projections: tuple[int, ...] = ()  # the users of Astral Projection (L1021), by id
    raging: tuple[int, ...] = ()  # the figures with Blood Rage (L1367)
    huge: tuple[int, ...] = ()  # the Monstrously Huge vehicles (L1403)
    homes: tuple[int, ...] = ()  # the force each figure id was bought with (sides may change)


def fig_name(ctx: Context, f: Fig) -> str:
    """How events name figure ``f``: its profile's name and its number (``Grunt #3``)."""
    return f"{ctx.profiles[f.id].name} #{f.id}"


_CONTEXTS: dict[str, Context] = {}


def _inches(text: str) -> float:
    return float(text.rstrip('"'))


def _range(text: str) -> float | None:
    if text == "-":
        return None
    if text == "LOS":
        return math.inf
    return _inches(text)


def _weapons(weapons: Sequence[Weapon]) -> tuple[WeaponProfile, ...]:
    out: list[WeaponProfile] = []
    for slot, w in enumerate(weapons):
        for p in w.profiles or [w]:
            if p.av is None:
                continue
            tweaks = tuple(p.tweaks) + (tuple(w.tweaks) if p is not w else ())
            out.append(
                WeaponProfile(
                    slot,
                    p.name,
                    _range(p.range),
                    XkY.parse(p.av),
                    int(p.ae[0]) if p.ae else 1,
                    p.aet,
                    p.power,
                    tweaks,
                    effects_of("weapon", tweaks),
                )
            )
    return tuple(out)


def _profile(fig: Any) -> Profile:
    mn = None if fig.mn == "A" else XkY.parse(fig.mn)
    return Profile(
        fig.name,
        fig.type,
        int(_inches(fig.mv)),
        XkY.parse(fig.df),
        mn,
        _inches(fig.cr),
        fig.hero_points,
        figure_cost(fig).points,
        is_character(fig),
        fig.type in VEHICLE_MONSTER_TYPES,
        RADIUS[fig.type],
        tuple(fig.tweaks),
        effects_of("personal", fig.tweaks),
        _weapons(fig.weapons),
    )


#: Public names for the builders of profiles (game/kit.py derives a figure's changed kit).
weapon_profiles = _weapons
profile_of_figure = _profile


def setup_key(rosters: Sequence[Any], board: Any, options: Mapping[str, Any]) -> str:
    """The digest naming one set-up (forces, board, options)."""
    text = json.dumps(
        {"rosters": list(rosters), "board": board, "options": dict(options)},
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def context(key: str, args: Mapping[str, Any] | None = None) -> Context:
    """The context of a set-up (built once per distinct set-up, then memoised)."""
    ctx = _CONTEXTS.get(key)
    if ctx is None and "+" in key:  # a board changed during the game (game/terrain.py)
        from warbench.rulesets.warengine.game.terrain import derive

        return derive(key, args)
    if ctx is None:
        if args is None:
            raise ProfileError("state.setup_key", key, "a set-up made by this process")
        ctx = build_context(args["rosters"], args["board"], args["options"])
    return ctx


def _board(board: Any) -> Any:
    from warbench.rulesets.warsurge.battlefield import board_from_data, sample_board

    if board is None:
        return sample_board("ruins_48x48")
    if isinstance(board, str):
        return sample_board(board)
    return board_from_data(board)


def build_context(rosters: Sequence[Any], board: Any, options: Mapping[str, Any]) -> Context:
    """Check the set-up arguments and build their context (typed errors name the field)."""
    from warbench.rulesets.warengine.io import parse_force
    from warbench.rulesets.warengine.validation import require_legal

    if len(rosters) != 2:
        raise ProfileError("rosters", len(rosters), "exactly 2 forces", reason=rule(287))
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ProfileError("options", unknown[0], ", ".join(OPTIONS))
    forces = []
    for i, r in enumerate(rosters):
        force = parse_force(r, f"rosters[{i}]")
        if options.get("builder_limits", True):
            require_legal(force, f"rosters[{i}]")
        forces.append(force)
    turns = options.get("turns", 6)
    if not isinstance(turns, int) or not 1 <= turns <= 50:
        raise ProfileError("options.turns", turns, "a whole number 1 to 50")
    vp = options.get("vp_target")
    if vp is not None and (not isinstance(vp, int) or vp < 1):
        raise ProfileError("options.vp_target", vp, "a whole number of points from 1, or null")
    field = Field(_board(board))
    objectives = options.get("objectives") or []
    names = [p.name for p in field.pieces]
    for o in objectives:
        if o not in names:
            raise ProfileError("options.objectives", o, "terrain names: " + ", ".join(names))
    depth = options.get("deploy_depth", DEPLOY_DEPTH)
    if not isinstance(depth, int | float) or not 1 <= depth <= field.height / 2:
        raise ProfileError("options.deploy_depth", depth, f"1 to {field.height / 2:g} inches")
    profiles: list[Profile] = []
    homes: tuple[int, ...] = ()
    for side, force in enumerate(forces):
        for unit in force.units:
            for m in unit.members:
                fig = force.figures[m.figure]
                prof = _profile(fig)
                words = " ".join(x for x in (force.faction, unit.faction, fig.faction) if x)
                if words:
                    prof = replace(prof, faction=words.lower())
                profiles.extend([prof] * m.count)
                homes += (side,) * m.count
    from warbench.rulesets.warengine.game.astral import projection_profile, projects

    # one projection figure per Astral Projection user, after every force's figures (L1021)
    users = tuple(i for i, p in enumerate(profiles) if projects(p))
    profiles.extend(projection_profile(i, profiles[i]) for i in users)
    key = setup_key(rosters, board, options)
    big = tuple(i for i, p in enumerate(profiles) if p.big)
    ctx = Context(
        key,
        {"rosters": list(rosters), "board": board, "options": dict(options)},
        (forces[0], forces[1]),
        field,
        profiles,
        turns,
        vp,
        tuple(objectives),
        bool(options.get("quarters", False)),
        float(depth),
        big,
        users,
        tuple(i for i, p in enumerate(profiles) if p.has("blood_rage")),
        tuple(i for i, p in enumerate(profiles) if p.has("monstrously_huge")),
        homes + tuple(homes[i] for i in users),
    )
    _CONTEXTS[key] = ctx
    return ctx


def new_game(
    rosters: Sequence[Any], board: Any, options: Mapping[str, Any], seed: int
) -> GameState:
    """The state before the first placement (L303)."""
    ctx = build_context(rosters, board, options)
    figs: list[Fig] = []
    units: list[UnitState] = []
    for side, force in enumerate(ctx.forces):
        for unit in force.units:
            ids: list[int] = []
            for m in unit.members:
                for _ in range(m.count):
                    fid = len(figs)
                    prof = ctx.profiles[fid]
                    figs.append(Fig(fid, side, len(units), m.figure, hero=prof.hero))
                    ids.append(fid)
            profs = [ctx.profiles[i] for i in ids]
            character = len(ids) == 1 and profs[0].character
            solo = len(ids) == 1 and (profs[0].character or profs[0].big)
            from warbench.rulesets.warengine.costs import unit_cost

            points = unit_cost(unit, force.figures).points
            units.append(
                UnitState(
                    len(units),
                    side,
                    unit.name,
                    ids,
                    list(unit.tweaks),
                    character,
                    solo or all(p.big for p in profs),
                    points,
                    start_size=len(ids),
                )
            )
    for user in ctx.projections:  # Astral Projection: off the table until projected (L1021)
        u = figs[user]
        figs.append(Fig(len(figs), u.side, u.unit, u.name, alive=False, marks=["projection"]))
        units[u.unit].figs.append(len(figs) - 1)
    state = GameState(seed, ctx.key, figs, units)
    # Summoned figures are not deployed: only Summoning brings them into play (L1279)
    groups = sorted({(ctx.profiles[f.id].mv, f.side) for f in figs if not waits(ctx, f.id)})
    state.place_order = [[mv, side] for mv, side in groups]
    _next_group(state, ctx)
    return state


def _next_group(state: GameState, ctx: Context) -> None:
    """L303-L305: the slowest remaining Movement places next; a roll-off when both have it."""
    if not state.place_order:
        state.placing = None
        state.phase = "initiative"
        return
    mv = state.place_order[0][0]
    sides = [s for m, s in state.place_order if m == mv]
    if len(sides) == 2:
        state.place_roll = True
        state.placing = None
    else:
        state.place_roll = False
        state.placing = sides[0]


def group_figs(state: GameState, ctx: Context) -> list[int]:
    """The figures still to place in the current group."""
    if not state.place_order or state.placing is None:
        return []
    mv = state.place_order[0][0]
    return [
        f.id
        for f in state.figs
        if f.side == state.placing
        and not f.placed
        and ctx.profiles[f.id].mv == mv
        and not waits(ctx, f.id)
    ]


def waits(ctx: Context, fid: int) -> bool:
    """A figure not placed in the placement step: a Summoned figure (L1279) or a projection
    (L1021), brought into play by a power."""
    prof = ctx.profiles[fid]
    return prof.has("summoned") or prof.has("projection")


def after_roll(state: GameState, ctx: Context, winner: int) -> None:
    """The roll-off's winner rolled highest: the other player places first (L305-L307)."""
    mv = state.place_order[0][0]
    loser = 1 - winner
    state.place_order = [[mv, loser], [mv, winner]] + [g for g in state.place_order if g[0] != mv]
    state.place_roll = False
    state.placing = loser


def after_place(state: GameState, ctx: Context) -> None:
    """Move on when the current group is placed; after a roll-off the other player places
    the same Movement next (L307)."""
    if group_figs(state, ctx):
        return
    mv = state.place_order.pop(0)[0]
    if state.place_order and state.place_order[0][0] == mv:
        state.placing = state.place_order[0][1]
        return
    _next_group(state, ctx)


def deploy_box(ctx: Context, side: int, radius: float) -> tuple[float, float, float, float]:
    """Where a figure of ``side`` may be placed: within 12" of its own edge (L309)."""
    w, h, d = ctx.field.width, ctx.field.height, ctx.depth
    if side == 0:
        return (radius, radius, w - radius, d - radius)
    return (radius, h - d + radius, w - radius, h - radius)


def place_refusal(state: GameState, ctx: Context, fid: int, x: float, y: float) -> str | None:
    """Why figure ``fid`` may not be placed at ``(x, y)``, or ``None``."""
    prof = ctx.profiles[fid]
    r = prof.radius
    if prof.has("infiltration"):
        x0, y0, x1, y1 = r, r, ctx.field.width - r, ctx.field.height - r
    else:
        x0, y0, x1, y1 = deploy_box(ctx, state.figs[fid].side, r)
    if not (x0 - 1e-9 <= x <= x1 + 1e-9 and y0 - 1e-9 <= y <= y1 + 1e-9):
        return (
            f'{prof.name} must be placed with its base within {ctx.depth:g}" of its own edge '
            f"(x {x0:g}-{x1:g}, y {y0:g}-{y1:g}), not at ({x:g}, {y:g})"
        )
    if ctx.huge and prof.has("monstrously_huge"):  # on its own table edge (L1403)
        from warbench.rulesets.warengine.game.huge import place_refusal as huge_refusal

        why = huge_refusal(ctx, state.figs[fid].side, fid, x, y)
        if why is not None:
            return why
    for p in ctx.field.pieces:
        if p.impassable and ctx.field.inside(p, x, y):
            return f"({x:g}, {y:g}) is inside impassable terrain ({p.name})"
    for g in state.figs:
        if g.placed and g.alive and g.id != fid:
            gap = math.hypot(g.x - x, g.y - y) - r - ctx.profiles[g.id].radius
            if gap < -1e-6:
                return f"the base would overlap {ctx.profiles[g.id].name} #{g.id}"
            if prof.has("infiltration") and g.side != state.figs[fid].side and gap < 1e-6:
                return "an infiltrator may not start in base contact with an enemy (L1567)"
    return None


def auto_place(state: GameState, ctx: Context, fid: int) -> tuple[float, float]:
    """The engine's placement: the first free spot of a grid along the player's edge strip,
    1" apart, starting at the middle of the edge (units stay together)."""
    prof = ctx.profiles[fid]
    side = state.figs[fid].side
    x0, y0, x1, y1 = deploy_box(ctx, side, prof.radius)
    step = 2 * prof.radius + 0.5
    mid = (x0 + x1) / 2
    ys = [y1 - k * step for k in range(int((y1 - y0) / step) + 1)]
    if side == 1:
        ys = [y0 + k * step for k in range(int((y1 - y0) / step) + 1)]
    if prof.has("monstrously_huge"):  # on its own table edge (L1403)
        ys = [y0 if side == 0 else y1]
    cols = int((x1 - x0) / step) + 1
    order = sorted(range(cols), key=lambda c: abs(x0 + c * step - mid))
    for y in ys:
        for c in order:
            x = round(x0 + c * step, 3)
            if place_refusal(state, ctx, fid, x, round(y, 3)) is None:
                return (x, round(y, 3))
    return (x0, y0)  # pragma: no cover - a full strip; the refusal explains
