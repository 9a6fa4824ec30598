"""A player's view of a Collision game written back as whole states, for search players.

A search player (``warbench.ai.search``, docs/ai.md) receives views only, never the state; to
look ahead it needs states consistent with what it sees. :func:`known_state` rebuilds one from
the set-up every seat knows (the two battle groups, the board, the options) and the view, and
draws from its ``seed`` what the player may not see (003_fc239e71486306e1.txt):

* the dice still to come: the state's seed decides every D10 (``step_seed``), so a fresh seed
  per sample makes chance a sample, never a peek at the game's own dice;
* under ``hide_piles`` (the default) the phase pile of each enemy character that has not
  activated this turn (L682-686, L774-776): one of the three piles, drawn from the seed;
* the enemy's secret Map Carrier (L1344): one of the enemy's characters, drawn from the seed.

What the view does not carry is taken as it stands at the start of a character's activation:
each character's bookkeeping of the turn under way (its move this round, the weapons and
special actions used, Endurance spent; L822-823, L872-876, L2067-2071), the attack or reaction
window being resolved (L1067-1082), a move's remaining path, a suspended D10 (Plan Ahead, luck)
and Upheaval's lifted pieces. Who activates first this turn (L771-773) is taken to be the
player deciding. So the states are exact where a search decides — choosing the character to
activate (L771-776) and its first action — and an approximation inside an activation;
``tests/ai/test_search_rulesets.py`` checks that each state shows the player exactly its view
apart from the hidden parts drawn.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from warbench.kernel.dice import SeededChoices
from warbench.play.core import SetupArgs
from warbench.rulesets.collision.game.core import ELEVATION
from warbench.rulesets.collision.game.setup import setup_state
from warbench.rulesets.collision.game.state import CollisionState, Marker, Unit, clone

#: The phase piles a character may be in (L682-686).
PILES = (1, 2, 3)


def known_state(view: Mapping[str, Any], knowledge: SetupArgs, seed: int) -> CollisionState:
    """A state ``view`` shows, from the set-up ``knowledge``; hidden parts and dice from
    ``seed`` (module docstring)."""
    return _drawn(_written(view, knowledge), view, seed)


def _written(view: Mapping[str, Any], knowledge: SetupArgs) -> CollisionState:
    """The set-up with everything ``view`` shows written in (the hidden piles are drawn by
    :func:`_drawn`)."""
    s = clone(_fresh(knowledge))
    s.stage = str(view["stage"])
    s.turn = int(view["turn"])
    s.turn_limit = int(view["turn_limit"])
    s.phase = int(view["phase"])
    s.player = int(view["deciding"])
    s.first = s.player
    s.active = view["active"]
    s.major = str(view["objectives"]["major"])
    s.minors = (str(view["objectives"]["minors"][0]), str(view["objectives"]["minors"][1]))
    s.attacker = int(view["attacker"])
    s.zone_of = (str(view["zones"][0]), str(view["zones"][1]))
    s.rising = bool(view["rising"])
    for entry in view["units"]:
        uid = int(entry["id"])
        if uid >= len(s.units):  # a statue objective placed during the set-up (L1203-1206)
            s.units.append(Unit(uid, int(entry["owner"]), -1, str(entry["name"]), statue=True))
        u = s.units[uid]
        u.where = str(entry["where"])
        u.pos = None if entry["pos"] is None else (int(entry["pos"][0]), int(entry["pos"][1]))
        u.facing = str(entry["facing"])
        u.endurance = int(entry["endurance"])
        u.mana = int(entry["mana"])
        u.injuries = int(entry["injuries"])
        u.statuses = {str(k): int(v) for k, v in dict(entry["statuses"]).items()}
        u.luck = int(entry["luck"])
        u.pile = int(entry["pile"]) if entry["pile"] is not None else PILES[0]
        u.activated = bool(entry["activated"])
        u.statue = bool(entry["statue"])
    s.markers = [
        Marker(
            i,
            str(m["kind"]),
            None if m["at"] is None else (int(m["at"][0]), int(m["at"][1])),
            holder=m["holder"],
            owner=m["owner"],
            gone=bool(m["gone"]),
        )
        for i, m in enumerate(view["markers"])
    ]
    s.nominated = {str(k): int(v) for k, v in dict(view["nominated"]).items()}
    elevation = [t for t in s.terrain if t[2] == ELEVATION]
    s.terrain = elevation + [
        (int(t[0]), int(t[1]), str(t[2]), int(t[3])) for t in view["board"]["terrain"]
    ]
    s.vp = [int(v) for v in view["vp"]]
    s.favor = [int(v) for v in view["favor"]]
    s.glory = [int(v) for v in view["glory"]]
    s.channel = [int(v) for v in view["channel"]]
    s.planned = [None if v is None else int(v) for v in view["planned"]]
    s.haste = [int(v) for v in view["haste"]]
    s.winner = view["winner"]
    s.scores = [float(v) for v in view["scores"]]
    s.log = [str(t) for t in view["log"]]
    s.placements = []
    return s


#: The state before the first decision of each set-up seen lately (parsed once per set-up).
_FRESH: dict[str, CollisionState] = {}
_FRESH_MAX = 8


def _fresh(knowledge: SetupArgs) -> CollisionState:
    """The game of ``knowledge`` before its first decision (L620-627), parsed once."""
    key = json.dumps([knowledge.rosters, knowledge.board, dict(knowledge.options)], sort_keys=True)
    state = _FRESH.get(key)
    if state is None:
        state = setup_state(knowledge.rosters, knowledge.board, dict(knowledge.options), 0)
        if len(_FRESH) >= _FRESH_MAX:
            _FRESH.pop(next(iter(_FRESH)))
        _FRESH[key] = state
    return state


def _drawn(written: CollisionState, view: Mapping[str, Any], seed: int) -> CollisionState:
    """A copy of ``written`` with the dice of ``seed`` and the hidden parts drawn from it."""
    s = clone(written)
    s.seed = seed
    draw = SeededChoices(seed)
    player = int(view["player"])
    for entry in view["units"]:
        if entry["pile"] is None:
            s.units[int(entry["id"])].pile = draw.choice(PILES)
    hidden_map = f"map{1 - player}"
    if player in (0, 1) and f"map{player}" in s.nominated and hidden_map not in s.nominated:
        enemies = [u.uid for u in s.units if u.owner == 1 - player and not u.statue]
        if enemies:
            s.nominated[hidden_map] = draw.choice(enemies)
    return s


def determinizer(view: Mapping[str, Any], player: int, knowledge: SetupArgs) -> Any:
    """``seed -> state``: states ``player``'s view shows (the search hooks' determinizer)."""
    del player  # the view names its player
    written = _written(view, knowledge)  # the set-up is parsed once per view

    def sample(seed: int) -> CollisionState:
        return _drawn(written, view, seed)

    return sample
