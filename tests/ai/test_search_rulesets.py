"""Search for The WarEngine and Collision (issue 15: the search player plays every ruleset that
implements the protocol): their determinizers (``rulesets/*/determinize.py``) write a view back
as states that show the player exactly that view, draw what it cannot see, and the search
player plays whole games with them, deterministic for a seed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from warbench.ai import SearchConfig, SearchPlayer, get_hooks
from warbench.kernel.dice import SeededChoices
from warbench.play import RandomLegalPlayer, SetupArgs, get_ruleset, run_game
from warbench.sim.lab import load_rosters

EXAMPLES = Path(__file__).parents[2] / "examples"
FILES = {
    "collision": ("collision/deadholm_scouts.yaml", "collision/guelivere_band.yaml"),
    "warengine": ("warengine/stormreavers.yaml", "warengine/stormreavers.yaml"),
}
#: View keys of a Collision state's flow that the determinised states leave out (module
#: docstring of rulesets/collision/determinize.py): the reaction window and a suspended D10.
FLOW_KEYS = ("window", "dice")


def _setup(ruleset_id: str) -> SetupArgs:
    rosters = load_rosters([EXAMPLES / f for f in FILES[ruleset_id]], ruleset_id)
    return SetupArgs(tuple(rosters), None, {})


def _states(ruleset_id: str, seed: int) -> list[tuple[Any, int, str]]:
    """Each state of a scripted game with a player's decision pending: (state, player, kind)."""
    rs = get_ruleset(ruleset_id)
    setup = _setup(ruleset_id)
    state = rs.setup(setup.rosters, setup.board, dict(setup.options), seed)
    rng = SeededChoices(seed)
    out = []
    while not rs.is_over(state):
        d = rs.pending(state)[0]
        if not d.is_chance:
            out.append((state, d.player, d.kind))
        action = d.default
        if action is None:
            action = rs.legal_actions(state, d.player).sample(rng, 1)[0]
        state, _ = rs.apply(state, action, d.player)
    return out


def _open(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in FLOW_KEYS}


@pytest.mark.parametrize("ruleset_id", ["warengine", "collision"])
def test_a_determinisation_shows_the_player_exactly_its_view(ruleset_id: str) -> None:
    """WarEngine L573 (the table is open), Collision L774-776, L1344 (piles and the Map Carrier
    hidden): at every decision of a game, each sampled state shows the deciding player the
    view it was made from."""
    rs = get_ruleset(ruleset_id)
    hooks = get_hooks(rs)
    setup = _setup(ruleset_id)
    states = _states(ruleset_id, 5)
    assert len(states) > 100
    for state, player, _kind in states[::3]:
        view = rs.view(state, player)
        det = hooks.determinizer(view, player, setup)
        for seed in (1, 2):
            assert _open(rs.view(det(seed), player)) == _open(view)


def test_collision_determinisation_draws_the_hidden_piles_and_never_copies_them() -> None:
    """L774-776: the enemy's piles of characters that have not activated are hidden; the
    sampled states draw them from the seed, so over seeds they differ from the true ones."""
    rs = get_ruleset("collision")
    hooks = get_hooks(rs)
    setup = _setup("collision")
    differs = hidden = 0
    for state, player, kind in _states("collision", 7):
        if kind != "activate" or state.turn < 1:
            continue
        view = rs.view(state, player)
        secret = [u for u in view["units"] if u["pile"] is None]
        hidden += len(secret)
        for seed in range(4):
            made = hooks.determinizer(view, player, setup)(seed)
            for u in secret:
                assert made.units[u["id"]].pile in (1, 2, 3)
                differs += made.units[u["id"]].pile != state.units[u["id"]].pile
    assert hidden > 0 and differs > 0


def test_only_activation_and_action_decisions_are_searched() -> None:
    """A decision whose flow the view does not carry (Hero Points L493, placement L303) is
    answered with its default; activation and action decisions get several candidates."""
    rs = get_ruleset("warengine")
    hooks = get_hooks(rs)
    setup = _setup("warengine")
    seen: dict[str, int] = {}
    for state, player, kind in _states("warengine", 3)[::5]:
        d = rs.pending(state)[0]
        root = hooks.determinizer(rs.view(state, player), player, setup)(9)
        cands = hooks.candidates(root, player, rs.legal_actions(state, player), d, 4)
        assert cands[0] == d.default
        seen[kind] = max(seen.get(kind, 0), len(cands))
    assert seen["place"] == 1
    assert seen["action"] > 1 and seen["activation"] > 1


@pytest.mark.parametrize("ruleset_id", ["collision", "warengine"])
def test_search_plays_a_whole_game_and_replays_it_for_its_seed(ruleset_id: str) -> None:
    """The search player (a small budget) plays a game against random-legal to its end, every
    answer checked by the runner, and the same seed gives the same game."""
    rs = get_ruleset(ruleset_id)
    setup = _setup(ruleset_id)
    config = SearchConfig(iterations=2, width=2, horizon=0, seconds=None)

    def play() -> Any:
        me = SearchPlayer(rs, setup, seat=0, seed=4, config=config)
        return run_game(rs, setup, [me, RandomLegalPlayer(4)], seed=4)

    first, again = play(), play()
    assert first.result is not None
    assert rs.digest(first.state) == rs.digest(again.state)
