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


def test_random_games_keep_invariants_and_replay_identically() -> None:
    """The long run (issue 17): seeded games between random legal players and the scripted
    player keep the invariants at every state, finish, and replay to the same digests.
    ``WARBENCH_CONFORMANCE_GAMES=1000`` for the long run; 2 games otherwise."""
    from warbench.play import AutomaticPlayer, RandomLegalPlayer, run_game
    from warbench.play.record import GameRecord, replay

    setup = sample_setup()
    finished = 0
    winners = [0, 0, 0]
    steps = 0
    for seed in range(GAMES):
        kinds = seed % 3  # random vs random, random vs scripted, scripted vs scripted
        players = [
            RandomLegalPlayer(seed * 10 + 1)
            if kinds < 2
            else AutomaticPlayer(RandomLegalPlayer(1)),
            RandomLegalPlayer(seed * 10 + 2)
            if kinds < 1
            else AutomaticPlayer(RandomLegalPlayer(2)),
        ]
        run = run_game(RS, setup, players, seed, on_step=lambda s, e: invariants(s))
        assert run.finished, f"seed {seed} did not finish"
        finished += 1
        steps += len(run.record.steps)
        result = run.result
        assert result is not None
        winners[2 if result.winner is None else result.winner] += 1
        again = replay(GameRecord.loads(run.record.dumps()), RS)
        assert again.digests == [s.digest for s in run.record.steps], f"seed {seed} replays"
    assert finished == GAMES
    print(f"{GAMES} games, {steps} steps, wins {winners[0]}/{winners[1]}, draws {winners[2]}")
