"""The scripted player's questions (issue 10, session 29, s29-scale): fewer, with the same intent.

* A unit in Reserve whose twin (the same ``players.placement_shape``) found no room at any of
  its Deployment spots (Core Rules 001_d3f5e425c5e1196d.txt §3.6) is not asked again while the
  table has only gained bases (``players.grown_only``): it truly has no room either.
* ``players.seek_sight`` looks for a target from its first ``looks`` trial moves (the scripted
  player: ``SEEK_LOOKS``, straight and 45 degrees either way); the moves after are still
  offered, unlooked, and a spot found among the first ones comes first as before.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine, players
from warbench.rulesets.warsurge.game.actions import Deploy, Move
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import (
    SEEK_LOOKS,
    ScriptedPlayer,
    grown_only,
    placement_shape,
    seek_sight,
    sees_a_target,
)
from warbench.rulesets.warsurge.game.state import GameSetup, GameState, Location, Phase, build_setup
from warbench.rulesets.warsurge.game.work import Work

from .helpers import ROSTERS


def _setup(times: int) -> GameSetup:
    """The sample pair repeated ``times`` over on the Ruins board (``bench_game_scale``)."""
    pair = [load_game_roster(ROSTERS / n) for n in ("sci_fi_humans.yaml", "scavengers.yaml")]
    pair = [replace(p, roster=p.roster * times) for p in pair]
    return build_setup(pair, Field(sample_board("ruins_48x48")))


def _play(setup: GameSetup, seed: int, turns: int, on_choose: Any = None) -> None:
    state, _ = engine.new_game(setup, seed)
    sides = [ScriptedPlayer(), ScriptedPlayer()]
    while not state.over and state.flow.turn <= turns:
        side = engine.acting_side(state)
        assert side is not None
        action = sides[side].choose(state)
        if on_choose is not None:
            on_choose(state, sides[side])
        state, _ = engine.apply(state, action)


def test_a_unit_skipped_for_its_twins_lack_of_room_has_no_room_at_any_spot_S3_6() -> None:
    """4000-point games (the sample pair four times over) fill the Deployment Zones: every
    unit the memory skips is refused at every spot it would have tried, on the very table."""
    checked = 0

    def check(state: GameState, player: ScriptedPlayer) -> None:
        nonlocal checked
        w = Work(state, None, DEFAULT_HOOKS)
        for uid in sorted(player._skip):
            shape = placement_shape(w, uid)
            if shape is None or not grown_only(player._roomless.get(shape), state):
                continue
            zone = w.zones[w.info(uid).side]
            assert zone is not None
            spots = engine.zone_points(w, zone)
            assert not any(engine.can(state, Deploy(uid, at=p)) for p in spots)
            checked += 1

    _play(_setup(4), 0, 3, check)
    assert checked >= 5  # the memory answers (else this test shows nothing)


def test_the_memory_of_no_room_is_forgotten_once_a_unit_on_the_table_changed() -> None:
    setup = _setup(1)
    state, _ = engine.new_game(setup, 0)
    side = [ScriptedPlayer(), ScriptedPlayer()]
    while not any(u.location is Location.TABLE for u in state.units):
        s = engine.acting_side(state)
        assert s is not None
        state, _ = engine.apply(state, side[s].choose(state))
    then = state.units
    assert grown_only(state, state)
    on = next(i for i, u in enumerate(then) if u.location is Location.TABLE)
    moved = list(then)
    moved[on] = replace(then[on])  # the same facts, another unit state: it may have moved
    assert not grown_only(state, replace(state, units=tuple(moved)))
    # a unit that was in Reserve then and stands on the table now only adds bases
    reserve = next(i for i, u in enumerate(then) if u.location is Location.RESERVE)
    grown = list(then)
    grown[reserve] = replace(then[reserve])
    assert grown_only(state, replace(state, units=tuple(grown)))
    # a terrain piece damaged or destroyed (§10.3) may open room
    assert not grown_only(state, replace(state, terrain_hp=(*state.terrain_hp, ("a piece", 0))))
    assert not grown_only(None, state)


def test_twins_share_side_models_and_base_size_only_S3_6() -> None:
    """``placement_shape`` tells apart what ``coherency.place_unit`` places differently: the
    side (its Deployment Zone), the number of models and the base's size (§1.3); two units
    alike in these are twins whatever their names, and a unit on the table has no shape."""
    from .helpers import entry, scenario, unit

    five, four = unit("Five", models=5), unit("Four", models=4)
    sides = [
        [entry(five), entry(unit("Other", models=5)), entry(five, base_mm=32.0), entry(four)],
        [entry(five), entry(five)],
    ]
    state = scenario(sides, {5: [(10.0 + 1.5 * k, 40.0) for k in range(5)]})
    w = Work(state, None, DEFAULT_HOOKS)
    shapes = [placement_shape(w, uid) for uid in range(6)]
    assert shapes[0] == shapes[1] is not None
    assert len({shapes[0], shapes[2], shapes[3], shapes[4]}) == 4
    assert shapes[5] is None


def test_no_room_reads_the_engines_refusal_for_room_only_S3_6() -> None:
    """A Deploy refused because no formation fits (§3.6) is "no room"; a Deploy refused for
    another reason (the unit is not in Reserve) or a legal one is not."""
    setup = _setup(4)
    state, _ = engine.new_game(setup, 0)
    sides = [ScriptedPlayer(), ScriptedPlayer()]
    refused: list[tuple[GameState, Deploy, bool]] = []  # (state, Deploy, by the side to act)
    while state.flow.turn <= 2:
        side = engine.acting_side(state)
        assert side is not None
        w = Work(state, None, DEFAULT_HOOKS)
        for uid, u in enumerate(state.units):
            zone = w.zones[w.info(uid).side]
            if u.location is Location.RESERVE and zone is not None:
                for p in engine.zone_points(w, zone)[:3]:
                    d = Deploy(uid, at=p)
                    if not engine.can(state, d):
                        refused.append((state, d, w.info(uid).side == side))
        state, _ = engine.apply(state, sides[side].choose(state))
    room = [(at, d) for at, d, own in refused if own and players.no_room(at, d)]
    assert room  # full zones: Deploys refused for room
    for at, d in room:
        with pytest.raises(RulesError, match="not enough room"):
            engine.check(at, d)
    others = [(at, d) for at, d, own in refused if not own]
    assert others and not any(players.no_room(at, d) for at, d in others)
    on_table = next(i for i, u in enumerate(state.units) if u.location is Location.TABLE)
    assert not players.no_room(state, Move(on_table, to=(1.0, 1.0)))


def _seek_calls(setup: GameSetup, seed: int, turns: int) -> list[tuple[GameState, Any]]:
    """The scripted player's ``seek_sight`` questions in a game, with their arguments."""
    calls: list[tuple[GameState, Any]] = []
    real = players.seek_sight

    def watched(
        state: GameState, w: Work, uid: int, toward: Move, allowance: float, looks: int = 5
    ) -> Any:
        calls.append((state, (w, uid, toward, allowance)))
        return real(state, w, uid, toward, allowance, looks)

    mp = pytest.MonkeyPatch()
    mp.setattr(players, "seek_sight", watched)
    try:
        _play(setup, seed, turns)
    finally:
        mp.undo()
    return calls


def test_three_looks_choose_what_five_chose_unless_a_90_degree_move_found_a_target() -> None:
    """The pruned search still finds the spot: wherever the five looks chose a move among the
    first three (a target seen from it, or the first legal one when none saw), the three looks
    choose the same; they differ only where a 90-degree move was the first to see a target."""
    calls = _seek_calls(_setup(4), 0, 7)
    assert len(calls) >= 10
    seen_early = 0
    for state, (w, uid, toward, allowance) in calls:
        full = seek_sight(state, w, uid, toward, allowance)
        pruned = seek_sight(state, w, uid, toward, allowance, SEEK_LOOKS)
        every = seek_sight(state, w, uid, toward, allowance, 0)  # the trial moves, unlooked
        assert set(full) <= set(pruned) <= set(every) and len(every) == 5
        assert pruned[len(pruned) - 2 :] == every[SEEK_LOOKS:]  # last resorts, still offered
        chosen = next((m for m in full if engine.can(state, m)), None)
        mine = next((m for m in pruned if engine.can(state, m)), None)
        if chosen is None or every.index(chosen) < SEEK_LOOKS:
            assert mine == chosen
            after, _ = engine.apply(state, chosen) if chosen is not None else (state, [])
            seen_early += chosen is not None and sees_a_target(
                Work(after, None, DEFAULT_HOOKS), uid
            )
        else:  # a 90-degree move was chosen: it saw a target, or nothing before it was legal
            after, _ = engine.apply(state, chosen)
            sees = sees_a_target(Work(after, None, DEFAULT_HOOKS), uid)
            assert sees or mine == chosen
    assert seen_early > 0  # a spot found among the first three trial moves


def _first_targets(states: list[GameState]) -> list[dict[str, int]]:
    """The scripted player's first target of each weapon (``weapon_targets(first=True)``) for
    each unit on the table of the side to act, in ``states``."""
    out: list[dict[str, int]] = []
    for st in states:
        w = Work(st, None, DEFAULT_HOOKS)
        for uid, u in enumerate(st.units):
            if u.location is Location.TABLE and w.info(uid).side == engine.acting_side(st):
                out.append({wn: ts[0] for wn, ts in engine.weapon_targets(w, uid, 3, True).items()})
    return out


def test_the_target_search_skips_foes_no_weapon_still_wanting_a_target_reaches_S5_3(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``weapon_targets(first=True)`` (the scripted player's Attack) looks at a further enemy
    unit only if a weapon still without a target reaches it (§5.3, the edge distance): the
    same weapons find the same first targets as the search that looks at every one, with
    fewer views."""
    setup = _setup(4)
    states: list[GameState] = []
    state, _ = engine.new_game(setup, 1)
    sides = [ScriptedPlayer(), ScriptedPlayer()]
    while not state.over and state.flow.turn <= 4:
        if state.flow.phase.value == "Attack":
            states.append(state)
        side = engine.acting_side(state)
        assert side is not None
        state, _ = engine.apply(state, sides[side].choose(state))
    views = {"n": 0}
    real_view = engine.view_target

    def counted(*args: Any) -> Any:
        views["n"] += 1
        return real_view(*args)

    monkeypatch.setattr(engine, "view_target", counted)
    pruned = _first_targets(states[::3])
    fewer = views["n"]
    monkeypatch.setattr(engine, "_wanting", lambda w, uid, found: float("inf"))
    views["n"] = 0
    every = _first_targets(states[::3])
    assert pruned == every
    assert sum(map(len, every)) > 20  # targets found: the comparison shows something
    assert fewer < views["n"]  # and the skipped views were real


def test_the_protocols_memory_needs_no_memory_of_no_room_S3_6() -> None:
    """The protocol's memory of the scripted AI (``codecs.Mine``: phase, skipped units, units
    that found no target) leaves out ``ScriptedPlayer._roomless``: it only spares questions.
    A player holding the protocol's memory alone (a fresh one each step, as
    ``protocol.scripted_choice`` makes) chooses what ``warbench battle``'s player chooses and
    is left with the same memory, in the Deployment Phases of 4000-point games where the
    memory of no room does skip units (session 30 review)."""
    answered = compared = 0

    def compare(state: GameState, player: ScriptedPlayer, before: ScriptedPlayer) -> None:
        nonlocal answered, compared
        if state.flow.phase is not Phase.DEPLOY:
            return
        w = Work(state, None, DEFAULT_HOOKS)
        fresh = ScriptedPlayer(
            _skip=set(before._skip), _phase_key=before._phase_key, _blind=dict(before._blind)
        )
        assert fresh.choose(state) == player.last
        assert fresh._skip == player._skip and fresh._phase_key == player._phase_key
        assert fresh._blind == player._blind
        compared += 1
        answered += sum(
            1
            for uid in player._skip
            if (shape := placement_shape(w, uid)) is not None
            and grown_only(player._roomless.get(shape), state)
        )

    class Remembering(ScriptedPlayer):
        last: Any = None

        def choose(self, state: GameState) -> Any:
            before = ScriptedPlayer(
                _skip=set(self._skip), _phase_key=self._phase_key, _blind=dict(self._blind)
            )
            before._step = self._step
            self.last = super().choose(state)
            compare(state, self, before)
            return self.last

    state, _ = engine.new_game(_setup(4), 0)
    sides = [Remembering(), Remembering()]
    while not state.over and state.flow.turn <= 2:
        side = engine.acting_side(state)
        assert side is not None
        state, _ = engine.apply(state, sides[side].choose(state))
    assert compared >= 20 and answered >= 5  # the memory of no room did skip units here
