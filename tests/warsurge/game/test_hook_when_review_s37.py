"""Review of the nineteenth pass (issue 10, session 37, s37-review): can a perk that a
``HookRegistry.register(..., when=)`` hook asks the set-up for reach a unit mid-game, so that
the hook, left out of the game by its set-up, should have acted?

Three ways a unit could have such a perk without it being on a unit of the set-up, each
checked here:

* a status that grants perks while it lasts (``effects.runtime.granted_perks``: Ascension,
  Descend, Defend, Wild Armour's 1, Nightmare Anomaly): none grants a perk any ``when`` asks
  for (:func:`test_no_status_grants_a_perk_that_a_when_hook_asks_the_setup_for`);
* a Doppelganger's copy (Perks 000_94ecc6a4c74d351b.txt L2386: "mimicking their Stats,
  Weapons, Perks"): the copies are units of the set-up (``perk_doppel_units``), so a copy of a
  unit with the perk is in the set-up and the hook is fired; a game where the copy is taken is
  played with the filter and without it, action for action
  (:func:`test_a_doppelganger_copy_gains_the_perk_and_the_filter_changes_nothing`);
* a game rebuilt from its record (a saved game, a replay): its set-up is a new object, asked
  again, and fires the same hooks as the game it was saved from
  (:func:`test_a_saved_game_reloaded_fires_the_hooks_of_its_own_setup`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.rulesets.warsurge.effects.test_perk_heavy_games import setup_for
from tests.rulesets.warsurge.effects.test_w2_transform_perks import CANNON, GUN
from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from tests.warsurge.game.test_hook_perks import _setup
from tests.warsurge.game.test_hook_perks_differential import unfiltered
from warbench.rulesets.warsurge.effects.table import load_table
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.perk_doppel_units import copies
from warbench.rulesets.warsurge.game.players import RandomLegalPlayer, ScriptedPlayer
from warbench.rulesets.warsurge.game.record import GameRecord, loads_record, replay
from warbench.rulesets.warsurge.game.state import GameSetup, GameState, Location

MIMIC, ALLY, BRUTES, TITAN = 0, 1, 2, 3


def _on(setup: GameSetup) -> set[str]:
    """The names of the ``when`` hooks a game of ``setup`` fires."""
    return {name for (_, name, _), when in DEFAULT_HOOKS.whens.items() if when(setup)}


def _given(setup: GameSetup, uid: int, perks: tuple[str, ...]) -> GameSetup:
    """``setup`` with unit ``uid``'s profile carrying ``perks`` as well."""
    info = setup.units[uid]
    profile = info.unit.profile.model_copy(update={"perks": [*info.unit.profile.perks, *perks]})
    units = list(setup.units)
    units[uid] = replace(info, unit=info.unit.model_copy(update={"profile": profile}))
    return replace(setup, units=tuple(units))


def _granted() -> tuple[str, ...]:
    """Every perk some status grants while it lasts (the effects table's status ``names``)."""
    return tuple(sorted({n for e in load_table().statuses().values() for n in e.names}))


def test_no_status_grants_a_perk_that_a_when_hook_asks_the_setup_for() -> None:
    """A unit given every perk a status can grant it mid-game turns on no ``when`` hook of a
    perk-less game: the set-up's question misses no perk a status hands out."""
    setup = _setup()
    assert _on(setup) == set()
    granted = _granted()
    assert {"Reinforced", "Resilient"} <= set(granted)  # Ascension's, Descend's (L2368)
    assert _on(_given(setup, 0, granted)) == set(), granted


def test_the_grant_check_finds_a_status_that_would_grant_a_filtered_perk() -> None:
    """Were a status to grant Immortal (L1541) or Wild Instinct (L2341), the check above would
    fail: the unit given it turns on their hooks."""
    setup = _setup()
    for perk, hook in (
        ("Immortal", "Immortal is lost"),
        ("Wild Instinct", "Wild Instinct: its D3"),
    ):
        assert hook in _on(_given(setup, 0, (*_granted(), perk)))


def _mimicry(perks: tuple[str, ...], claw_perks: tuple[str, ...]) -> GameState:
    """Side 0: a Mimic with Doppelganger I (unit 0) and an Ally; side 1: Brutes (unit 2) with
    ``perks`` and a Claw with ``claw_perks``, and a Titan; Game Turn 2, the Move Phase, side 0
    acting (the Doppelganger scenario of ``test_w2_transform_perks``)."""
    claw = weapon("Claw", range=2, attacks=3, power=6, type="Battle", perks=list(claw_perks))
    mimic = entry(unit("Mimic", hp=2, perks=["Doppelganger I"], weapons=[GUN]), 100)
    ally = entry(unit("Ally", weapons=[GUN]), 50)
    brutes = entry(
        unit(
            "Brutes", models=2, hp=3, move=4, dash=4, defence=6, perks=list(perks), weapons=[claw]
        ),
        80,
    )
    titan = entry(unit("Titan", hp=10, weapons=[CANNON]), 500)
    return scenario(
        [[mimic, ally], [brutes, titan]],
        {
            MIMIC: [(24.0, 10.0)],
            ALLY: [(10.0, 10.0)],
            BRUTES: [(24.0, 20.0), (25.5, 20.0)],
            TITAN: [(30.0, 20.0)],
        },
    )


def _play_on(state: GameState, limit: int = 400) -> list[tuple[str, tuple[str, ...], str, int]]:
    """The game from ``state`` to its end by the engine's players: each step's action, events,
    digest and Game Turn."""
    players: list[Any] = [ScriptedPlayer(), ScriptedPlayer()]
    steps: list[tuple[str, tuple[str, ...], str, int]] = []
    while not state.over and len(steps) < limit:
        side = engine.acting_side(state)
        assert side is not None
        action = players[side].choose(state)
        state, events = engine.apply(state, action)
        steps.append((repr(action), tuple(e.text for e in events), state.digest(), state.flow.turn))
    return steps


#: a perk of the Brutes (profile or Claw) that the copy takes, and a hook that goes over it
COPIED = [
    (("Immortal",), (), "Immortal is lost"),
    (("Wild Instinct",), (), "Wild Instinct: its D3"),
    (("Respawn",), (), "Respawn (a destroyed unit returns)"),
    (("Resurrection I",), (), "Resurrection"),
    (("Incorporeal",), (), "Incorporeal: its Game Turns noted"),
    (("Wild Armour",), (), "Transform, Wild Armour"),
    (("Powered by Pain",), (), "perks at the start of the turn"),
    ((), ("Bloody",), "perks at the start of the turn"),
    ((), ("Escalate",), "perks at the start of the turn"),
]


@pytest.mark.parametrize(("perks", "claw_perks", "hook"), COPIED)
def test_a_doppelganger_copy_gains_the_perk_and_the_filter_changes_nothing(
    perks: tuple[str, ...], claw_perks: tuple[str, ...], hook: str
) -> None:
    """L2386: the Mimic becomes a copy of the Brutes and has their perk from then on, a unit
    that did not have it as the game started. Its copy is a unit of the set-up, so the hook
    that goes over the perk is fired; the game played on to its end with the filter and with
    every hook fired (``unfiltered``) agrees step for step."""
    state = _mimicry(perks, claw_perks)
    assert hook in _on(state.setup)
    state, _ = engine.apply(state, UsePerks(MIMIC, (f"Doppelganger I: {BRUTES}",)))
    form = copies(state.setup)[MIMIC][BRUTES]
    info = state.info(form)
    gained = set(info.unit.profile.perks) | {p for w in info.unit.weapons for p in w.perks}
    assert set(perks) | set(claw_perks) <= gained and info.side == 0
    assert state.units[form].location is Location.TABLE
    fast = _play_on(state)
    with unfiltered():
        slow = _play_on(state)
    # the copy stood into a later Game Turn: the turn-start hooks went over it
    assert max(t for *_, t in fast) > 2, [e for _, es, _, _ in fast for e in es][-5:]
    assert fast == slow


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_a_saved_game_reloaded_fires_the_hooks_of_its_own_setup(k: int) -> None:
    """A perk-heavy game saved after 120 steps and read back (``GameRecord.lines`` and
    ``loads_record``): a new set-up object, asked anew; it fires the same hooks, ``when`` ones
    among them, and replays to the same digests."""
    setup = setup_for(k)
    assert _on(setup)
    state, _ = engine.new_game(setup, 40 + k)
    record = GameRecord(setup, 40 + k)
    players = [RandomLegalPlayer(k), RandomLegalPlayer(k + 1)]
    while not state.over and len(record.actions) < 120:
        side = engine.acting_side(state)
        assert side is not None
        action = players[side].choose(state)
        state, _ = engine.apply(state, action)
        record.add(action, state)
    loaded = loads_record("\n".join(record.lines()))
    assert loaded.setup is not setup

    def names(s: GameSetup) -> dict[str, list[str]]:
        return {str(h): [n for n, _ in fs] for h, fs in DEFAULT_HOOKS.fired(s).items()}

    assert names(loaded.setup) == names(setup)
    assert _on(loaded.setup) == _on(setup)
    assert replay(loaded).state.digest() == state.digest()


def test_the_copy_check_finds_a_when_that_leaves_the_copy_out() -> None:
    """Were Wild Instinct's question to answer falsy in this game, the D3s of the copy and of
    the Brutes (L2341) would go unrolled and the game would part from the one with every hook
    fired: the comparison above can fail. (A question falsy for the copy alone cannot be made:
    the copy has its original's perks, and both are units of the set-up.)"""
    key = next(k for k in DEFAULT_HOOKS.whens if k[1] == "Wild Instinct: its D3")
    when = DEFAULT_HOOKS.whens[key]
    state = _mimicry(("Wild Instinct",), ())
    state, _ = engine.apply(state, UsePerks(MIMIC, (f"Doppelganger I: {BRUTES}",)))
    DEFAULT_HOOKS.whens[key] = lambda setup: False
    DEFAULT_HOOKS._fired.clear()
    DEFAULT_HOOKS._last = None
    try:
        fast = _play_on(state)
    finally:
        DEFAULT_HOOKS.whens[key] = when
        DEFAULT_HOOKS._fired.clear()
        DEFAULT_HOOKS._last = None
    with unfiltered():
        slow = _play_on(state)
    assert fast != slow
