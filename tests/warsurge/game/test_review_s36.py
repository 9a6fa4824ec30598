"""Review of the eighteenth pass (issue 10, session 36, s36-review): what s36-speeda's caches
may keep or forget.

* ``movement.dangerous_bounds`` (the Dangerous pieces' bounds, §4.6) is kept per Field only
  while that Field lives, as every other answer kept by Field (``terrain_field._FIELDS``,
  session 31 review): an ``lru_cache`` kept the last 64 Fields alive, each with its geometry
  and its kept sight, cover and path answers, in a process that plays game after game.
* a unit's cached part of the digest (``digest.unit_json``) never outlives its fields: a unit
  state pickled, copied, deep-copied, ``dataclasses.replace``-d or written to the state JSON
  and read back digests as a fresh one, and the part is in no equality, hash or JSON.
* the Dangerous Ground filters (``near_bounds``, ``path_near_bounds``) on pieces the sample
  boards lack: a rotated rectangle, a round piece (``circle``), a concave one, a sliver, and a
  piece destroyed (§10.3).
"""

from __future__ import annotations

import copy
import dataclasses
import gc
import json
import math
import pickle
import random
import weakref

from warbench.rulesets.warsurge.battlefield.io import sample_board
from warbench.rulesets.warsurge.battlefield.model import Board
from warbench.rulesets.warsurge.game.codecs import _unit_from_json, unit_to_json
from warbench.rulesets.warsurge.game.digest import unit_json, unit_state_fields
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.movement import (
    dangerous_bounds,
    near_bounds,
    path_near_bounds,
)
from warbench.rulesets.warsurge.game.state import GameState, UnitGS
from warbench.rulesets.warsurge.game.terrain_field import field_with_destroyed

from .test_battle_size import _states
from .test_speed_apply_s32 import _setup


def test_dangerous_bounds_keep_no_field_alive() -> None:
    """§4.6's bounds are kept with their Field, and go with it."""
    field = Field(sample_board("ruins_48x48"))
    boxes = dangerous_bounds(field)
    assert boxes and dangerous_bounds(field) is boxes  # kept
    gone = weakref.ref(field)
    del field
    gc.collect()
    assert gone() is None


def _fresh(u: UnitGS) -> str:
    return json.dumps(unit_state_fields(u, 4), sort_keys=True, separators=(",", ":"))


def test_a_unit_s_digest_part_travels_with_its_fields_only() -> None:
    """Every way a unit state is made other than ``evolve`` either carries a part written for
    the very same fields or none; the part is in no equality, hash or JSON."""
    states = _states(_setup(), 0, 3)
    state: GameState = states[-1]
    digest = state.digest()  # every unit's part written and kept
    units = state.units
    assert all("_digest_json" in u.__dict__ for u in units)
    for u in units:
        made = {
            "pickle": pickle.loads(pickle.dumps(u)),
            "copy": copy.copy(u),
            "deepcopy": copy.deepcopy(u),
            "replace": dataclasses.replace(u),
            "json": _unit_from_json(json.loads(json.dumps(unit_to_json(u)))),
        }
        for how, v in made.items():
            assert v == u and hash(v) == hash(u), how
            assert unit_json(v) == _fresh(v) == unit_json(u), how
        # a field changed by replace (its __init__) starts with no part
        moved = dataclasses.replace(u, acted=not u.acted)
        assert "_digest_json" not in moved.__dict__
        assert unit_json(moved) == _fresh(moved) != unit_json(u)
        # nor is the part in equality, the hash or the state JSON
        bare = UnitGS(**{f.name: getattr(u, f.name) for f in dataclasses.fields(UnitGS)})
        assert "_digest_json" not in bare.__dict__ and bare == u and hash(bare) == hash(u)
        assert "_digest_json" not in json.dumps(unit_to_json(u))
    assert pickle.loads(pickle.dumps(state)).digest() == digest
    assert copy.deepcopy(state).digest() == digest


def _turned(cx: float, cy: float, w: float, h: float, deg: float) -> list[tuple[float, float]]:
    a = math.radians(deg)
    corners = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    return [
        (cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a))
        for x, y in corners
    ]


def _shapes_board() -> Board:
    roll = {"kind": "roll"}
    return Board.model_validate(
        {
            "name": "shapes",
            "width": 48,
            "height": 48,
            "terrain": [
                {"name": "turned", "polygon": _turned(12, 12, 8, 2, 37), "dangerous": roll},
                {"name": "pool", "circle": {"center": [36, 12], "radius": 4}, "dangerous": roll},
                {
                    "name": "ell",
                    "polygon": [(6, 30), (18, 30), (18, 33), (9, 33), (9, 42), (6, 42)],
                    "dangerous": roll,
                },
                {"name": "sliver", "polygon": [(30, 30), (42, 42.2), (42, 42)], "dangerous": roll},
                {"name": "pit", "rect": [20, 20, 26, 26], "dangerous": roll, "hp": 5},
                {"name": "wall", "rect": [24, 34, 26, 40], "difficult": True},
            ],
        }
    )


def test_the_dangerous_filters_on_turned_round_concave_and_destroyed_pieces() -> None:
    """§4.6: a round base or way the bounds leave out stands on or crosses no Dangerous piece,
    for pieces of every shape a board file may give; a destroyed piece (§10.3) is left out of
    its Field's bounds, and bases on it are answered as the Field answers them."""
    whole = Field(_shapes_board())
    broken = field_with_destroyed(whole, frozenset({"pit"}))
    assert len(dangerous_bounds(whole)) == 5 and len(dangerous_bounds(broken)) == 4
    rng = random.Random("s36-review")
    on, left_out = 0, 0
    for field in (whole, broken):
        boxes = dangerous_bounds(whole)  # the widest: spots around the destroyed piece too
        own = dangerous_bounds(field)
        for _ in range(4_000):
            r = rng.choice([0.5, 0.63, 1.0, 1.26, 2.0, rng.uniform(0.1, 3.0)])
            x0, y0, x1, y1 = rng.choice(boxes)
            m = r * rng.choice([0.0, 0.5, 1.0, 1.0 - 1e-9, 1.0 + 1e-9, 1.01, 1.5, 3.0])
            p = (
                rng.choice([x0 - m, x1 + m, rng.uniform(x0 - m, x1 + m)]),
                rng.choice([y0 - m, y1 + m, rng.uniform(y0 - m, y1 + m)]),
            )
            q = (p[0] + rng.uniform(-8, 8), p[1] + rng.uniform(-8, 8))
            standing = field.dangerous_at(p, r)
            on += bool(standing)
            if not near_bounds(own, p, r):
                left_out += 1
                assert standing == [], (p, r)
            if not path_near_bounds(own, p, q, r):
                assert field.path(p, q, r).dangerous == (), (p, q, r)
    assert on > 500 and left_out > 500
