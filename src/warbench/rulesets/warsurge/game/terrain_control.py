"""Control of terrain and Objectives in a game (Core Rules 001_d3f5e425c5e1196d.txt §10.2
L4404-4407; Perks 000_94ecc6a4c74d351b.txt L95-96). The geometry is the battlefield's
(``terrain_control``, ``objective_control``); this asks it with the game's models."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from warbench.rulesets.warsurge.battlefield.measure import objective_control, terrain_control
from warbench.rulesets.warsurge.game.state import GameState, Location, UnitGS
from warbench.rulesets.warsurge.game.terrain_field import field_of


@dataclass(frozen=True)
class Held:
    """Who holds one terrain piece with a profile or one Objective in a game: the sides in
    control (a team acts as one player, §3.3), the controller when there is exactly one, and
    whether it is contested (§10.2 L4404-4407: the piece's Weapons and Perks are then
    unavailable until one player asserts full control)."""

    name: str
    kind: str  # "terrain" or "objective"
    sides: frozenset[int]

    @property
    def controller(self) -> int | None:
        return next(iter(self.sides)) if len(self.sides) == 1 else None

    @property
    def contested(self) -> bool:
        return len(self.sides) > 1


def control(state: GameState, may_hold: Callable[[int], bool] | None = None) -> tuple[Held, ...]:
    """Control of every terrain piece with a profile (§10.2 L4404-4407: "under control by any
    player that has a Unit either within Coherency or embarked inside it") and of every
    Objective (Perks L95-96; ruling 20) in ``state``, by side, from the models on the
    battlefield. ``may_hold(uid)`` leaves out units that may not hold or contest (Stealth
    active P L1775, Paralysis P L2800, Concealed P L4151 ...: the perks engine knows them);
    by default every unit on the battlefield holds terrain, and every unit not under Stealth or
    Paralysis (:func:`.perk_stealth.may_hold`) holds and contests Objectives, except that a unit
    near an enemy Espionage unit contests but does not hold one
    (:func:`.perk_espionage.may_claim`). The books give
    no score for it (Book 3 is not among the sources); perks and views ask."""
    board = field_of(state).board  # a destroyed piece has no profile left (§10.3)
    r_of = {info.uid: info.radius for info in state.setup.units}
    units = [
        (
            u.controller(state.setup.units[u.uid].side),
            [(p, r_of[u.uid]) for p in (u.pos[i] for i in u.present())],
        )
        for u in state.units
        if u.location is Location.TABLE and (may_hold is None or may_hold(u.uid))
    ]
    inside: dict[str, set[int]] = {}  # "or embarked inside it" (L4404), split units too
    for u in state.units:
        if u.terrain is not None and (may_hold is None or may_hold(u.uid)):
            inside.setdefault(u.terrain, set()).add(u.controller(state.setup.units[u.uid].side))
    out = [
        Held(
            t.name,
            "terrain",
            frozenset({t.army})  # a piece in an army is its side's (L4424-4430)
            if t.army is not None
            else terrain_control(board, t.name, units, inside.get(t.name, ())).players,
        )
        for t in board.terrain
        if t.profile is not None
    ]
    if not board.objectives:
        return tuple(out)
    claimers = units
    if may_hold is None:  # Stealth (P L1775) and Paralysis (P L2800) hold no Objective
        from warbench.rulesets.warsurge.game.perk_espionage import may_claim
        from warbench.rulesets.warsurge.game.perk_stealth import may_hold as perk_may_hold

        def bases(u: UnitGS) -> tuple[int, list[tuple[tuple[float, float], float]]]:
            side = u.controller(state.setup.units[u.uid].side)  # Dominate, Undead Legion
            return side, [(u.pos[i], r_of[u.uid]) for i in u.present()]

        from warbench.rulesets.warsurge.game.perk_decoy import may_hold as decoy_may_hold
        from warbench.rulesets.warsurge.game.perk_respawn import may_hold as respawn_may_hold

        # Respawn (P L4213): a unit that respawned twice neither seizes nor contests one;
        # "Decoys cannot claim objectives" (P L4169)
        on = [
            u
            for u in state.units
            if u.location is Location.TABLE
            and (not u.counters or respawn_may_hold(state, u.uid))
            and (not state.setup.decoys or decoy_may_hold(state, u.uid))
            and not (u.statuses and u.wrecked)  # Wreckage (P L1446)
        ]
        units = [bases(u) for u in on if perk_may_hold(state, u.uid)]
        # near an enemy Espionage unit: contests, does not claim (P L1848)
        claimers = [bases(u) for u in on if perk_may_hold(state, u.uid) and may_claim(state, u.uid)]
    for o in board.objectives:
        sides = objective_control(board, o.name, units).players
        if len(sides) == 1 and claimers is not units:
            sides = objective_control(board, o.name, claimers).players & sides
        out.append(Held(o.name, "objective", sides))
    return tuple(out)


def control_json(state: GameState) -> list[dict[str, object]]:
    """:func:`control` for views: each piece with a profile and each Objective, the sides
    holding it, its controller (None: nobody or contested) and whether it is contested; a
    piece also has the ``number`` an Attack names it by as a Target (the number of units plus
    its place on the board, :func:`.terrain.terrain_target`), so a player's words can name
    it (``words.describe``)."""
    places = {t.name: k for k, t in enumerate(state.setup.field.board.terrain)}
    first = len(state.setup.units)
    return [
        {
            "name": h.name,
            "kind": h.kind,
            **(
                {"number": first + places[h.name]}
                if h.kind == "terrain" and h.name in places
                else {}
            ),
            "sides": sorted(h.sides),
            "controller": h.controller,
            "contested": h.contested,
        }
        for h in control(state)
    ]
