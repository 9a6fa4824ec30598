"""A player's view of a WarEngine game written back as a whole state, for search players.

A search player (``warbench.ai.search``, docs/ai.md) receives views only, never the state; to
look ahead it needs states. Everything on the table is open in The WarEngine (reserved weapons
are announced, 004_f4ea5693af0644ce.txt L573), so the only thing a player cannot know is the
dice still to come, which the state's ``seed`` decides: :func:`known_state` rebuilds the state
from the set-up every seat knows (the two forces, the board and the options) and the view, with
a fresh seed per sample, so a playout samples the dice and never peeks at the game's own.

What the view does not carry is taken as it stands at the start of a unit's activation: each
figure's bookkeeping of the activation under way (inches used, weapons fired, a charge begun;
L405, L415, L425), spent one-shot weapons, timed power effects and burning, and the flow of an
attack being resolved (Hero Points and rerolls, L491-L493) or of a reserve window (L577). The
victory points kept as casualties happen are the view's scores less the objectives held now and
the 250 for playing (L623-L631). So the states are exact where a search decides — choosing the
unit to activate (L366) and a figure's action at the start of its unit's activation (L399) —
and an approximation inside an activation; ``tests/ai/test_search_rulesets.py`` checks that the
state shows the player exactly its view.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from warbench.play.core import SetupArgs
from warbench.rulesets.warengine.game import setup as stp
from warbench.rulesets.warengine.game.state import GameState, Kit
from warbench.rulesets.warengine.game.victory import PLAYING, objective_points

#: The view fields each figure and unit entry writes back (the rest is the set-up's).
_FIG_FIELDS = ("x", "y", "placed", "alive", "hero", "reserved", "controlled")
_UNIT_FIELDS = ("leader", "activated", "gone")


def known_state(view: Mapping[str, Any], knowledge: SetupArgs, seed: int) -> GameState:
    """The state ``view`` shows, from the set-up ``knowledge``, with dice from ``seed``."""
    state = _fresh(knowledge).clone()
    state.seed = seed
    ctx = stp.context(state.setup_key)
    for entry in view["figures"]:
        fig = state.figs[int(entry["id"])]
        for name in _FIG_FIELDS:
            setattr(fig, name, entry[name])
    for entry in view["units"]:
        unit = state.units[int(entry["id"])]
        for name in _UNIT_FIELDS:
            setattr(unit, name, entry[name])
    state.kit = {
        int(i): Kit(**k) if isinstance(k, Mapping) else copy.deepcopy(k)
        for i, k in (view.get("kit") or {}).items()
    }
    state.turn = int(view["turn"])
    state.phase = str(view["phase"])
    state.to_act = int(view["to_act"])
    state.active_units = [int(u) for u in view["active_units"]]
    state.active_unit = state.active_units[0] if state.active_units else None
    if state.phase != "placement":
        state.place_order, state.placing, state.place_roll = [], None, False
    objectives = objective_points(state, ctx)
    state.vp = [int(view["scores"][s]) - objectives[s] - PLAYING for s in (0, 1)]
    return state


#: The state before placement of each set-up seen lately (building one parses both forces and
#: the board: ~0.1 s, more than a search decision's playouts).
_FRESH: dict[str, GameState] = {}
_FRESH_MAX = 8


def _fresh(knowledge: SetupArgs) -> GameState:
    """The game of ``knowledge`` before placement (L303), parsed once per set-up."""
    key = json.dumps([knowledge.rosters, knowledge.board, dict(knowledge.options)], sort_keys=True)
    state = _FRESH.get(key)
    if state is None:
        state = stp.new_game(knowledge.rosters, knowledge.board, dict(knowledge.options), 0)
        if len(_FRESH) >= _FRESH_MAX:
            _FRESH.pop(next(iter(_FRESH)))
        _FRESH[key] = state
    return state


def determinizer(view: Mapping[str, Any], player: int, knowledge: SetupArgs) -> Any:
    """``seed -> state``: the states ``player``'s view shows (the search hooks' determinizer)."""
    del player  # every player sees the whole table (L573)
    made = known_state(view, knowledge, 0)  # the set-up is parsed once per view

    def sample(seed: int) -> GameState:
        state = made.clone()
        state.seed = seed
        return state

    return sample
