"""The tactical player (``ai.tactical``, issue 15): the scripted AI made sensible, as its own
kind, so the engine's defaults (and the seeded fingerprint games) stay as they are."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from warbench.ai.tactical import TacticalBot, TacticalPlayer
from warbench.play import AutomaticPlayer, RandomLegalPlayer, SetupArgs, get_ruleset, run_game
from warbench.play.players import Lineup
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Deploy, Disembark, Embark, Move
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data

from .test_search import skirmish

ROSTERS = Path(__file__).parents[2] / "examples" / "warsurge" / "rosters"


def _big(**options: Any) -> SetupArgs:
    files = ("sci_fi_humans.yaml", "scavengers.yaml")
    rosters = tuple(roster_to_data(load_game_roster(ROSTERS / f)) for f in files)
    return SetupArgs(rosters, "ruins_48x48", {"game_length": 4, **options})


def _game(setup: SetupArgs, seed: int, kinds: tuple[str, str] = ("tactical", "scripted")) -> Any:
    ws = get_ruleset("warsurge")
    lineup = Lineup(kinds, "warsurge", setup)
    return run_game(ws, setup, [lineup(seed, 0), lineup(seed, 1)], seed)


def test_its_deployment_is_spread_over_the_front_of_the_zone() -> None:
    """Core Rules 001_d3f5e425c5e1196d.txt §3.6: units deploy within the zone; the tactical
    player puts them at different front spots instead of all toward one point."""
    ws = get_ruleset("warsurge")
    run = _game(_big(), 4)
    spots = [
        ws.actions.load(s.action)
        for s in run.record.steps
        if s.actor == 0 and s.action.get("kind") == "deploy"
    ]
    places = {a.at for a in spots if isinstance(a, Deploy)}
    assert len(places) >= 3, places


def test_its_transport_deploys_with_passengers_and_they_disembark_near_the_enemy() -> None:
    """§6.2-6.3: the Ursus APC deploys carrying close-range infantry, who disembark."""
    ws = get_ruleset("warsurge")
    run = _game(_big(), 4)
    mine = [ws.actions.load(s.action) for s in run.record.steps if s.actor == 0]
    assert any(isinstance(a, Deploy) and a.passengers for a in mine)
    assert any(isinstance(a, Disembark) for a in mine)


def test_each_weapon_attacks_the_target_it_is_expected_to_hurt_most() -> None:
    """§5.2: the target of each weapon maximises the expected point value taken (exact odds,
    overkill excluded, the Cover Bonus counted) plus the output removed, among the targets the
    weapon may attack, after what the unit's earlier weapons are expected to take."""
    ws = get_ruleset("warsurge")
    setup = _big()
    seen = 0
    for seed in (4, 5):
        player = TacticalPlayer(ws, setup, 0, seed)
        states: list[Any] = []
        run_game(
            ws,
            setup,
            [player, AutomaticPlayer(RandomLegalPlayer(seed))],
            seed,
            on_step=lambda s, e, out=states: out.append(s),
        )
        bot = TacticalBot()
        for state in states:
            g = state.game
            if g.over or engine.acting_side(g) != 0 or g.pause is not None:
                continue
            if g.flow.phase.value != "Attack":
                continue
            w = engine.legal_actions(g)._work
            for uid in engine.legal_actions(g).units():
                wt = engine.weapon_targets(w, uid, limit=4)
                opts = bot._attack(w, uid)
                if not opts or not any(len(ts) > 1 for ts in wt.values()):
                    continue
                first = opts[0]
                assert isinstance(first, Attack)
                engaged = set(w.engaged_with(w.outermost(uid)))
                planned: dict[int, float] = {}
                for wn, target, *_ in first.targets:
                    worth = {
                        t: bot._fire_value(w, uid, t, wn, t in engaged, planned.get(t, 0.0))
                        for t in wt[wn]
                    }
                    assert worth[target] == max(worth.values())
                    cover = bot._covered(w, uid, target)
                    dist = bot._dist(w, uid, target, wn, target in engaged, cover)
                    planned[target] = planned.get(target, 0.0) + sum(k * p for k, p in dist.items())
                    seen += 1
    assert seen > 0


def test_units_with_nothing_in_sight_advance() -> None:
    """§4.1, §5.2: a unit of the tactical side either attacks (it has a target in sight) or
    moves; none stays where it deployed with nothing to shoot (the scripted player left half
    of its units standing, issue 15)."""
    ws = get_ruleset("warsurge")
    for seed in (3, 4):
        run = _game(skirmish(game_length=4), seed)
        mine = [ws.actions.load(s.action) for s in run.record.steps if s.actor == 0]
        deployed = {a.unit for a in mine if isinstance(a, Deploy)}
        busy = {a.unit for a in mine if isinstance(a, (Move, Attack, Disembark, Embark))}
        assert deployed and deployed <= busy, deployed - busy


def test_the_tactical_player_is_deterministic_and_leaves_the_defaults_alone() -> None:
    """The same seed gives the same game; the scripted kind still plays the engine's default
    (so the fingerprint games are unchanged)."""
    setup = skirmish(game_length=4)
    a, b = _game(setup, 7), _game(setup, 7)
    assert a.record.steps == b.record.steps
    ws = get_ruleset("warsurge")
    auto = _game(setup, 7, ("scripted", "scripted"))
    again = run_game(ws, setup, [AutomaticPlayer(), AutomaticPlayer()], 7, automate={"*"})
    assert [s.action for s in auto.record.steps] == [s.action for s in again.record.steps]


def test_it_beats_the_scripted_player_more_often_than_not() -> None:
    """A small sample (the ladder in docs/ai.md has 200 games): over 8 games, 4 seeds in both
    seat orders, the tactical player scores more than half."""
    score = 0.0
    for seed, seat in itertools.product(range(20, 24), (0, 1)):
        kinds = ("tactical", "scripted") if seat == 0 else ("scripted", "tactical")
        r = _game(skirmish(game_length=4), seed, kinds).result
        assert r is not None
        score += 0.5 if r.winner is None else float(r.winner == seat)
    assert score > 4, score


def test_on_a_diagonal_layout_its_units_deploy_spread_along_the_front() -> None:
    """§3.6 on the city board's triangular zones: the three units take three spots along the
    front, at least 6" apart (they used to share one spot and block one another)."""
    import math

    from warbench.sim.lab import LabSpec, load_rosters

    rosters = load_rosters([ROSTERS / "skirmish_a.yaml", ROSTERS / "skirmish_b.yaml"])
    spec = LabSpec(rosters, ("tactical", "random"), boards=("city_72x48",), seed=0)
    seed, board, _ = spec.plan(0)
    setup = SetupArgs(rosters, board, {})
    ws = get_ruleset("warsurge")
    lineup = Lineup(("tactical", "random"), "warsurge", setup)
    run = run_game(ws, setup, [lineup(seed, 0), lineup(seed, 1)], seed)
    spots = [
        ws.actions.load(s.action).at
        for s in run.record.steps
        if s.actor == 0 and s.action.get("kind") == "deploy"
    ]
    assert len(spots) == 3
    for a, b in itertools.combinations(spots, 2):
        assert math.dist(a, b) >= 6.0, spots
