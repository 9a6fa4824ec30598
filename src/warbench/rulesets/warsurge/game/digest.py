"""The digest of a game state (a record keeps one after every step, ``record.py``; replay
compares them): a SHA-256 of the state's canonical JSON, sorted keys and no spaces, positions
rounded to 4 places. Each unit's part is written once per (immutable) unit state and kept with
it (issue 10, session 36: a unit an action leaves alone is the very same object in the next
state, so the digest after a step writes only the units that changed; it cost about half an
``apply`` when every unit was written at every step).

This module reads the state's fields and imports nothing of the game package at run time, so
:mod:`.state` imports it for :meth:`.state.GameState.digest`.
"""

from __future__ import annotations

import json
from typing import Any

#: a :class:`.state.UnitGS` and a :class:`.state.GameState`: named, not imported (:mod:`.state`
#: imports this module, and the game package has no import cycle, not even for types)
UnitGS = Any
GameState = Any

__all__ = ["canonical_json", "unit_json", "unit_state_fields"]


def unit_state_fields(u: UnitGS, pos_digits: int | None = None) -> dict[str, Any]:
    """A unit state as short JSON fields; positions rounded to ``pos_digits`` when given (the
    digest rounds to 4 places, the protocol's state JSON keeps full precision)."""
    pos = (
        u.pos
        if pos_digits is None
        else [(round(x, pos_digits), round(y, pos_digits)) for x, y in u.pos]
    )
    inside = {} if u.terrain is None else {"terrain": u.terrain}  # only then: digests unchanged
    turned = {"facing": list(u.facing)} if u.facing else {}  # oval/rect bases only (§1.3)
    return {
        **inside,
        **turned,
        **({"inside": list(u.inside)} if u.inside else {}),
        "uid": u.uid,
        "loc": u.location.value,
        "pos": [[x, y] for x, y in pos],
        "hp": list(u.hp),
        "removed": list(u.removed),
        "in": u.embarked_in,
        "acted": u.acted,
        "moved": list(u.moved),
        "heavy": list(u.heavy),
        "battle": list(u.battle),
        "um": u.unit_moved,
        "ud": u.unit_dashed,
        "st": [[s.name, s.turns, s.source] for s in u.statuses],
        "ct": [list(c) for c in u.counters],
        "uses": [list(c) for c in u.uses],
    }


#: the JSON the digest writes: sorted keys, no spaces
_DIGEST_JSON: dict[str, Any] = {"sort_keys": True, "separators": (",", ":")}


def unit_json(u: UnitGS) -> str:
    """``json.dumps(unit_state_fields(u, 4), sort_keys=True, separators=(",", ":"))``, the
    unit's part of the digest, written once per (immutable) unit state and kept with it
    (:meth:`UnitGS.evolve` forgets it): a unit an action leaves alone is the very same object
    in the next state, so a record's digest after every step writes only the units that changed
    (issue 10, session 36: the digest cost about half an ``apply``)."""
    cached: str | None = u.__dict__.get("_digest_json")
    if cached is None:
        cached = json.dumps(unit_state_fields(u, 4), **_DIGEST_JSON)
        object.__setattr__(u, "_digest_json", cached)
    return cached


def canonical_json(state: GameState) -> str:
    """The state as the digest hashes it: ``json.dumps(data, sort_keys=True,
    separators=(",", ":"))`` of its fields, byte for byte, with each unit's part written by
    :func:`unit_json` (the keys before and after ``"units"`` in two dumps, the units between)."""
    f = state.flow
    data: dict[str, Any] = {
        "seed": state.seed,
        "step": state.step,
        "flow": [
            f.turn,
            f.phase.value,
            f.turn_master,
            f.rolloff_winner,
            list(f.roll_order),
            list(f.order),
            f.active,
            sorted(f.passed),
        ],
        "engaged": sorted(list(p) for p in state.engaged),
        "zones": list(state.zones),
        "result": None
        if state.result is None
        else [[round(v, 4) for v in state.result.values], state.result.winner],
    }
    if f.adv is not None:  # Advanced only: Standard digests are unchanged
        data["advanced"] = f.adv.to_json()
    for key, part in (("pause", state.pause), ("restore", state.restore), ("rewind", state.rewind)):
        if part is not None:  # only then: the digests of every other state are unchanged
            data[key] = part.to_json()  # (a Time Jump's rewind point: perk_timejump)
    if state.terrain_hp:  # likewise: only once terrain has lost HP (§10.3)
        data["terrain_hp"] = [list(t) for t in state.terrain_hp]
    if state.pieces_acted:  # likewise: terrain that attacked (game/terrain_army.py)
        data["pieces_acted"] = list(state.pieces_acted)
    # json.dumps of a dict with sorted keys is "{" + '"key":value' joined by "," + "}": the
    # keys sorting before "units", then the units' list, then the keys after
    before = json.dumps({k: v for k, v in data.items() if k < "units"}, **_DIGEST_JSON)
    after = json.dumps({k: v for k, v in data.items() if k > "units"}, **_DIGEST_JSON)
    units = '"units":[' + ",".join(unit_json(u) for u in state.units) + "]"
    return "{" + ",".join(x for x in (before[1:-1], units, after[1:-1]) if x) + "}"
