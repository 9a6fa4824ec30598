"""Builders for game tests: boards, units and states with explicit positions and phases."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from warbench.rulesets.warsurge.battlefield import Board, Terrain, Zone
from warbench.rulesets.warsurge.battlefield.measure import coherency_groups
from warbench.rulesets.warsurge.game import bases, engine
from warbench.rulesets.warsurge.game.geom import Field, as_array, coherent, edge_distances
from warbench.rulesets.warsurge.game.record import GameRecord, replay
from warbench.rulesets.warsurge.game.state import (
    Flow,
    GameState,
    Location,
    Phase,
    PlayerSetup,
    RosterEntry,
    build_setup,
    initial_state,
    model_max_hp,
    unit_value,
)
from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile

ROOT = Path(__file__).resolve().parents[3]
ROSTERS = ROOT / "examples" / "warsurge" / "rosters"


def board(
    width: float = 48, height: float = 48, terrain: Sequence[Terrain] = (), depth: float = 12
) -> Board:
    zones = [
        Zone(name="south", polygon=[(0, 0), (width, 0), (width, depth), (0, depth)]),
        Zone(
            name="north",
            polygon=[(0, height - depth), (width, height - depth), (width, height), (0, height)],
        ),
    ]
    return Board(name="test", width=width, height=height, terrain=list(terrain), zones=zones)


def weapon(name: str = "Gun", **kw: Any) -> WeaponProfile:
    data: dict[str, Any] = {"range": 24, "attacks": 1, "power": 4, "type": "Assault"}
    data.update(kw)
    return WeaponProfile(name=name, **data)


def unit(
    name: str = "Unit",
    *,
    models: int = 1,
    weapons: Sequence[WeaponProfile] = (),
    **stats: Any,
) -> Unit:
    data: dict[str, Any] = {"move": 6, "dash": 6, "defence": 4, "hp": 1}
    data.update(stats)
    ws = list(weapons) or [weapon()]
    return Unit(
        profile=UnitProfile(name=name, **data),
        weapons=ws,
        models=[ModelGroup(count=models, weapons=[w.name for w in ws])],
    )


def entry(u: Unit, points: int = 100, base_mm: float = 25.4) -> RosterEntry:
    """A roster entry; 25.4 mm bases are 1" across (radius 0.5") to keep the arithmetic easy."""
    return RosterEntry(u, points, base_mm)


def setup_of(sides: Sequence[Sequence[RosterEntry]], b: Board | None = None, **kw: Any) -> Any:
    players = [PlayerSetup(f"P{k}", tuple(es)) for k, es in enumerate(sides)]
    return build_setup(players, Field(b or board()), **kw)


def scenario(
    sides: Sequence[Sequence[RosterEntry]],
    positions: dict[int, Sequence[tuple[float, float]]],
    *,
    phase: Phase = Phase.MOVE,
    active: int = 0,
    turn: int = 2,
    b: Board | None = None,
    engaged: Sequence[tuple[int, int]] = (),
    seed: int = 1,
    **kw: Any,
) -> GameState:
    """A state in ``phase`` of ``turn`` with units placed at ``positions`` (by unit id)."""
    setup = setup_of(sides, b, **kw)
    st = initial_state(setup, seed)
    units = list(st.units)
    for uid, pos in positions.items():
        units[uid] = replace(units[uid], location=Location.TABLE, pos=tuple(pos))
    nsides = len(setup.sides)
    flow = Flow(
        turn=turn,
        phase=phase,
        turn_master=active,
        roll_order=tuple(range(nsides)),
        order=tuple((active + k) % nsides for k in range(nsides)),
        active=active,
    )
    return replace(
        st,
        flow=flow,
        units=tuple(units),
        zones=tuple(range(nsides)),
        engaged=frozenset((min(a, b_), max(a, b_)) for a, b_ in engaged),
        step=1,
    )


def line(x0: float, y: float, n: int, gap: float = 1.5) -> list[tuple[float, float]]:
    return [(x0 + k * gap, y) for k in range(n)]


# --------------------------------------------------------------------------- invariants


def _check_linked(state: GameState, piece: str, pts: Any, r: float, label: str) -> None:
    """A split unit's models outside keep Coherency with the piece (001 L4460-4462): every
    group of them linked by 2" has a model within 2" of the piece's footprint."""
    import shapely

    from warbench.rulesets.warsurge.game.terrain_field import field_of

    poly = shapely.Polygon(field_of(state).board.terrain_named(piece).polygon)
    groups = coherency_groups([(float(x), float(y)) for x, y in pts], [r] * len(pts))
    for g in groups:
        gaps = [float(poly.distance(shapely.Point(pts[k]))) - r for k in g]
        assert min(gaps) <= 2.0 + 1e-6, f"{label}: a group outside {piece} out of Coherency"


def check_invariants(state: GameState) -> None:
    """Invariants that hold after every action (conformance test)."""
    setup = state.setup
    xy: list[tuple[float, float]] = []
    rad: list[float] = []
    owner: list[int] = []
    for u in state.units:
        info = setup.units[u.uid]
        per = model_max_hp(info, u)  # doubled by Ascension, Descend (Perks L2368, L2376)
        assert all(0 <= h <= per for h in u.hp), f"HP out of range: {u}"
        if u.location is Location.EMBARKED:
            assert u.embarked_in is not None
            holder = state.units[u.embarked_in]
            assert holder.location in (Location.TABLE, Location.EMBARKED), "orphan passenger"
        if u.location is not Location.TABLE:
            continue
        present = u.present()
        assert present, f"{info.label} on the table with no models"
        pts = as_array([u.pos[i] for i in present])
        if u.inside:  # split by a piece's Transport Capacity (001 L4459-4464)
            assert u.terrain is not None and not set(u.inside) & set(present)
            assert [i for i in u.inside if not u.removed[i]], f"{info.label}: none inside"
            _check_linked(state, u.terrain, pts, info.radius, info.label)
        elif info.base is not None:  # an oval or rectangular base (§1.3, game/bases.py)
            assert bases.coherent(state, u.uid), f"{info.label} out of coherency"
        else:
            assert coherent(pts, info.radius), f"{info.label} out of coherency"
        for p in pts:
            xy.append((float(p[0]), float(p[1])))
            rad.append(info.radius)
            owner.append(u.uid)
    if xy and bases.shaped(setup):
        _footprint_invariants(state)
    elif xy:
        arr = as_array(xy)
        import numpy as np

        r = np.asarray(rad)
        d = edge_distances(arr, r, arr, r)
        np.fill_diagonal(d, np.inf)
        o = np.asarray(owner)
        # models stand on a unit with the Terrain perk (Perks L1410) as on terrain
        scenery = [k for k, x in enumerate(setup.units) if "Terrain" in x.unit.profile.perks]
        scenery += [u.uid for u in state.units if u.wrecked]  # Wreckage (Perks L1448)
        on = np.isin(o, scenery)
        d[on[:, None] | on[None, :]] = np.inf
        assert (d > -2e-3).all(), "overlapping bases"
        d = edge_distances(arr, r, arr, r)
        np.fill_diagonal(d, np.inf)
        contact = d <= 0.05
        for i, j in zip(*np.nonzero(contact), strict=True):
            a, b = int(o[i]), int(o[j])
            if state.units[a].wrecked or state.units[b].wrecked:
                continue  # Wreckage (Perks L1442) is terrain: in no Melee
            if a != b and state.enemies(a, b):  # a defected unit too (Traitorous)
                assert (min(a, b), max(a, b)) in state.engaged, (
                    f"{setup.units[a].label} and {setup.units[b].label} touch but are not "
                    "in a Melee"
                )
    for a, b in state.engaged:
        assert state.enemies(a, b)
        ua, ub = state.units[a], state.units[b]
        if ua.location is Location.TERRAIN or ub.location is Location.TERRAIN:
            # units inside one terrain piece are engaged (§10.2 L4450-4457), nobody else; a
            # split unit's models inside too (L4466-4468)
            assert ua.terrain is not None and ua.terrain == ub.terrain
            assert {ua.location, ub.location} <= {Location.TERRAIN, Location.TABLE}
            assert all(u.location is Location.TERRAIN or u.inside for u in (ua, ub))
            continue
        assert ua.location is Location.TABLE
        assert ub.location is Location.TABLE
    for u in state.units:  # a terrain piece holds no more than its Transport Capacity (§10.2)
        split = u.location is Location.TABLE and bool(u.inside)
        assert (u.location is Location.TERRAIN or split) == (u.terrain is not None)
        assert not u.inside or split
    for t in setup.field.board.terrain:
        used = 0.0
        for u in state.units:
            if u.terrain != t.name:
                continue
            x = setup.units[u.uid]  # its models inside, a share of its points each
            inside = u.inside or range(x.real_models)
            used += x.points / x.real_models * sum(not u.removed[i] for i in inside)
        assert used <= t.capacity + 1e-9
    # current values from scratch
    totals = [0.0] * len(setup.sides)
    grouped = {x for pair in setup.summons for x in pair[:2]}  # Summon (P L4229)
    for u in state.units:
        info = setup.units[u.uid]
        on = u.location in (Location.TABLE, Location.TERRAIN) or (
            u.location is Location.EMBARKED
            and state.units[state.outermost(u.uid)].location is Location.TABLE
        )
        if on and not u.counter("respawns") and u.uid not in grouped:  # Respawn (P L4211)
            totals[u.controller(info.side)] += unit_value(info, u)  # Ascension…; Undead Legion
    if grouped:
        from warbench.rulesets.warsurge.game.perk_summon_value import summon_values

        for side, value in summon_values(state):
            totals[side] += value
    left = dict(state.terrain_hp)
    for t in setup.field.board.terrain:  # a piece in an army (§10.2 L4424-4430), HP left
        if t.army is not None:
            from warbench.rulesets.warsurge.game.terrain_army_value import piece_points

            share = 1.0 if t.hp is None else left.get(t.name, t.hp) / t.hp
            totals[t.army] += piece_points(t) * share
    for a, b in zip(totals, state.side_values(), strict=True):
        assert abs(a - b) < 1e-6


def play_checked(
    setup: Any,
    seed: int,
    players: Sequence[Any],
    limit: int = 5000,
    on_events: Callable[[Sequence[Any]], None] | None = None,
) -> tuple[GameState, GameRecord]:
    """Play a whole game of ``setup`` (seed ``seed``) by ``players`` (one per side, each with
    ``choose(state)``), checking every invariant after each action and that the game ends
    within ``limit`` actions; then check that its record replays to the identical state.
    ``on_events`` sees each action's events. Returns the final state and the record."""
    state, _ = engine.new_game(setup, seed)
    rec = GameRecord(setup, seed)
    steps = 0
    while not state.over:
        side = engine.acting_side(state)
        assert side is not None
        action = players[side].choose(state)
        state, events = engine.apply(state, action)
        if on_events is not None:
            on_events(events)
        rec.add(action, state)
        check_invariants(state)
        steps += 1
        assert steps < limit, "the game does not end"
    assert replay(rec).state.digest() == state.digest(), seed
    return state, rec


def new(setup: Any, seed: int = 1) -> GameState:
    return engine.new_game(setup, seed)[0]


def games_with_and_without(
    automation: frozenset[Any],
    kinds: tuple[type, ...],
    *,
    pair: tuple[str, str] = ("sci_fi_humans.yaml", "scavengers.yaml"),
    board_name: str = "open_field_42x32",
    seed: int = 1,
    playstyle: str = "standard",
) -> tuple[tuple[str, int], tuple[str, int], int]:
    """The scripted game with every automation and with ``automation`` (the players answering
    each decision with its default): each game's final digest and count of actions other than
    ``kinds`` (the decisions that take no step), and how many ``kinds`` actions the second had.
    Equal pairs: taking every default plays the automated game, digest for digest."""
    from warbench.rulesets.warsurge.battlefield import sample_board
    from warbench.rulesets.warsurge.game.io import load_game_roster
    from warbench.rulesets.warsurge.game.players import ScriptedPlayer, play
    from warbench.rulesets.warsurge.game.state import ALL_AUTOMATIONS

    out: list[tuple[str, int]] = []
    asked = 0
    for auto in (ALL_AUTOMATIONS, automation):
        setup = build_setup(
            [load_game_roster(ROSTERS / n) for n in pair],
            Field(sample_board(board_name)),
            automation=auto,
            playstyle=playstyle,
        )
        state, events = engine.new_game(setup, seed)
        run = play(state, [ScriptedPlayer(), ScriptedPlayer()], events=events)
        asked = sum(isinstance(a, kinds) for a in run.actions)
        out.append((run.state.digest(), len(run.actions) - asked))
    return out[0], out[1], asked


def _footprint_invariants(state: GameState) -> None:
    """No two bases overlap and enemies in Base Contact are in a Melee, measured with the true
    shapes of oval and rectangular bases and hulls (§1.3, ``game/bases.py``)."""
    import numpy as np

    setup = state.setup
    solids: list[Any] = []
    exact: list[Any] = []
    extra: list[float] = []
    owner: list[int] = []
    groups = []
    for u in state.units:
        if u.location is not Location.TABLE:
            continue
        info = setup.units[u.uid]
        group = bases.unit_group(state, u.uid)
        groups.append((u.uid, group))
        geoms, more = bases._shapes(*group)
        exact.extend(geoms)
        extra.extend(float(x) for x in more)
        for p, f in zip(group[2], group[3], strict=True):
            solids.append(bases._solid(info.base, info.radius, p, f))
            owner.append(u.uid)
    scenery = {k for k, x in enumerate(setup.units) if "Terrain" in x.unit.profile.perks}
    scenery |= {u.uid for u in state.units if u.wrecked}
    shapes = np.asarray(exact, dtype=object)
    for i, one in enumerate(solids):
        if owner[i] in scenery:
            continue
        hit = bases._overlapping(one, shapes, np.asarray(extra))
        hit[i] = False
        for j in np.flatnonzero(hit):
            assert owner[int(j)] in scenery, "overlapping bases"
    for k, (a, ga) in enumerate(groups):
        for b, gb in groups[k + 1 :]:
            if not state.enemies(a, b) or state.units[a].wrecked or state.units[b].wrecked:
                continue
            if (bases.gaps(ga, gb) <= 0.05).any():
                assert (min(a, b), max(a, b)) in state.engaged, (
                    f"{setup.units[a].label} and {setup.units[b].label} touch but are not "
                    "in a Melee"
                )
