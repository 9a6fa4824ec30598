"""The Collision game passes the protocol's conformance suite (docs/protocol.md), keeps its
invariants and replays identically. ``WARBENCH_CONFORMANCE_GAMES=N`` plays N seeds (the long
run: N >= 1000)."""

from __future__ import annotations

import os

import pytest

from tests.rulesets.collision.game.helpers import RS, sample_setup
from warbench.play import SetupArgs, get_ruleset
from warbench.play.conformance import check_conformance
from warbench.rulesets.collision.game.core import Game
from warbench.rulesets.collision.game.protocol import CollisionRuleset, perturb_hidden
from warbench.rulesets.collision.game.state import CollisionState

GAMES = int(os.environ.get("WARBENCH_CONFORMANCE_GAMES", "2"))


def invariants(s: CollisionState) -> None:
    """What every state of a legal game keeps (L301-302, L352-354, L812-813)."""
    g = Game(s, lambda label: 1, readonly=False)
    seen: dict[tuple[int, int], str] = {}
    for u in s.units:
        assert 0 <= u.endurance <= 9, f"{u.name} endurance {u.endurance}"
        assert u.mana >= 0, f"{u.name} mana {u.mana}"
        assert u.injuries >= 0
        assert all(n > 0 for n in u.statuses.values()), u.statuses
        if u.where == "board":
            assert u.pos is not None and g.board.inside(u.pos), f"{u.name} off the board"
            assert u.pos not in seen, f"{u.name} and {seen.get(u.pos)} share {u.pos}"
            seen[u.pos] = u.name
            if not u.statue:
                assert g.board.kind(u.pos).stands, f"{u.name} stands on {g.board.kind(u.pos)}"
            if not (u.persevere or u.clinging):
                assert u.injuries < g.card(u).stats.toughness, f"{u.name} should be defeated"
        else:
            assert u.pos is None, f"{u.name} is {u.where} but at {u.pos}"
    assert 0 <= s.turn <= s.turn_limit
    if s.stage == "over":
        assert s.winner in (None, 0, 1)


def test_registered_as_collision() -> None:
    assert isinstance(get_ruleset("collision"), CollisionRuleset)


@pytest.mark.parametrize("hide", [True, False])
def test_collision_passes_the_conformance_suite(hide: bool) -> None:
    setup = sample_setup(hide_piles=hide, turn_limit=3)
    report = check_conformance(
        RS, setup, seeds=range(GAMES), perturb=perturb_hidden, invariants=invariants
    )
    assert report.games == report.finished == GAMES
    assert {"role", "piles", "deploy", "activate", "action"} <= set(report.decisions)
    assert report.defaults and report.refusals
    if hide:
        assert report.hidden_checks


@pytest.mark.parametrize(
    "major",
    [
        "Capture the Chest",
        "Statues of Good & Evil",
        "Mystic Obelisk",
        "Capture the Standard",
        "Lights in the Darkness",
        "Supply Raid",
        "Relic Theft",
        "Rushed Study",
        "Lost Trinket",
    ],
)
def test_every_major_objective_plays_to_the_end(major: str) -> None:
    """Each major objective's tokens, deployment and scoring run in a whole game."""
    base = sample_setup()
    setup = SetupArgs(
        base.rosters,
        None,
        {"major": major, "minors": ["Shards of the Old World", "The Dark Gods"], "turn_limit": 2},
    )
    report = check_conformance(RS, setup, seeds=range(1), invariants=invariants)
    assert report.finished == 1


def long_chunk(seeds: list[int]) -> tuple[int, int, list[int]]:
    """Play and replay the games of ``seeds``: (games finished, steps, [wins 0, wins 1, draws]).
    Module-level so that worker processes can run it."""
    from warbench.play import AutomaticPlayer, RandomLegalPlayer, run_game
    from warbench.play.record import GameRecord, replay

    setup = sample_setup()
    finished = steps = 0
    tally = [0, 0, 0]
    for seed in seeds:
        kinds = seed % 3  # random vs random, random vs scripted, scripted vs scripted
        scripted = AutomaticPlayer(RandomLegalPlayer(1))
        players = [
            RandomLegalPlayer(seed * 10 + 1) if kinds < 2 else scripted,
            RandomLegalPlayer(seed * 10 + 2) if kinds < 1 else scripted,
        ]
        run = run_game(RS, setup, players, seed, on_step=lambda s, e: invariants(s))
        assert run.finished, f"seed {seed} did not finish"
        finished += 1
        steps += len(run.record.steps)
        result = run.result
        assert result is not None
        tally[2 if result.winner is None else result.winner] += 1
        again = replay(GameRecord.loads(run.record.dumps()), RS)
        assert again.digests == [s.digest for s in run.record.steps], f"seed {seed} replays"
        progress = os.environ.get("WARBENCH_LONG_LOG")
        if progress:  # one line per game, so that a long run shows how far it got
            with open(progress, "a", encoding="utf-8") as f:
                f.write(f"{seed} {len(run.record.steps)} {result.winner}\n")
    return finished, steps, tally


def test_random_games_keep_invariants_and_replay_identically() -> None:
    """The long run (issue 17): seeded games between random legal players and the scripted
    player keep the invariants at every state, finish, and replay to the same digests.
    ``WARBENCH_CONFORMANCE_GAMES=1000`` for the long run (on worker processes, as many as
    ``WARBENCH_LONG_WORKERS``, default 3; ``WARBENCH_LONG_LOG=FILE`` appends a line per game);
    2 games inline otherwise."""
    seeds = list(range(GAMES))
    workers = int(os.environ.get("WARBENCH_LONG_WORKERS", "3")) if GAMES >= 100 else 1
    if workers <= 1:
        finished, steps, tally = long_chunk(seeds)
    else:
        from concurrent.futures import ProcessPoolExecutor

        chunks = [seeds[k::workers] for k in range(workers)]
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(long_chunk, chunks))
        finished = sum(p[0] for p in parts)
        steps = sum(p[1] for p in parts)
        tally = [sum(p[2][k] for p in parts) for k in range(3)]
    assert finished == GAMES
    print(f"{GAMES} games, {steps} steps, wins {tally[0]}/{tally[1]}, draws {tally[2]}")


def test_committed_schemas_are_current_and_a_game_validates() -> None:
    """docs/schemas/collision/collision-{action,state,view}.schema.json (docs/protocol.md)."""
    import json

    import jsonschema

    from tests.rulesets.collision.game.helpers import ROOT
    from warbench.play import RandomLegalPlayer, run_game
    from warbench.play.schemas import dumps_schema, ruleset_schemas

    schemas = ruleset_schemas(RS)
    for name, schema in schemas.items():
        committed = (ROOT / "docs" / "schemas" / "collision" / name).read_text(encoding="utf-8")
        assert committed == dumps_schema(schema), f"{name} is stale"
        jsonschema.Draft202012Validator.check_schema(json.loads(committed))
    action = jsonschema.Draft202012Validator(schemas["collision-action.schema.json"])
    state_v = jsonschema.Draft202012Validator(schemas["collision-state.schema.json"])
    view_v = jsonschema.Draft202012Validator(schemas["collision-view.schema.json"])
    seen: list[CollisionState] = []
    run = run_game(
        RS,
        sample_setup(turn_limit=1),
        [RandomLegalPlayer(3), RandomLegalPlayer(4)],
        3,
        on_step=lambda s, _e: seen.append(s),
    )
    for step in run.record.steps:
        action.validate(step.action)
    for s in seen[::7]:
        state_v.validate(RS.states.dump(s))
        view_v.validate(RS.views.dump(RS.view(s, 1)))
    assert not action.is_valid({"kind": "move", "mode": "fly", "to": [1, 2], "facing": "N"})
