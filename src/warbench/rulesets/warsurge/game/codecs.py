"""WARSURGE's protocol state and its JSON: the set-up arguments, the engine's state, and the
codecs for actions, states and views (with their JSON Schemas in ``docs/schemas/warsurge``).

:mod:`.protocol` is the ruleset that uses them (docs/protocol.md "WARSURGE on the protocol").
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from warbench.kernel.dice import SeededDice
from warbench.kernel.errors import DataFileError, ProfileError, RulesError
from warbench.play.core import JSON, canonical
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import (
    Action,
    Casualties,
    action_from_dict,
    action_to_dict,
)
from warbench.rulesets.warsurge.game.advstate import AdvancedFlow
from warbench.rulesets.warsurge.game.digest import unit_state_fields
from warbench.rulesets.warsurge.game.pauses import CoherencyPause, Wreck
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    CasualtyPause,
    Flow,
    GameResult,
    GameSetup,
    GameState,
    Location,
    Phase,
    Status,
    UnitGS,
)

CORE = "001_d3f5e425c5e1196d.txt"

#: Options a set-up may give (anything else is refused with this list).
OPTIONS = (
    "playstyle",  # "standard" (default) or "advanced" (§8, §9)
    "point_limit",  # Advanced: the Point Limit for the Turn Master's CP dice (§9.1 step 2)
    "game_length",
    "max_turns",
    "automation",
    "unit_points",
    "hide_roster_value",
    "hide_reserves",
)

#: The sample board used when the set-up names none (as ``warbench battle``).
DEFAULT_BOARD = "ruins_48x48"


# --------------------------------------------------------------------------------------------
# State: the engine's state plus the set-up it was built from (for JSON)
# --------------------------------------------------------------------------------------------


#: One side's memory of the scripted AI: ``(turn, phase, units it found nothing for, (unit,
#: Game Turn) of the units that found no target in that turn's Attack Phase)``.
Mine = tuple[int, str, tuple[int, ...], tuple[tuple[int, int], ...]]
#: Every side's memory.
Memory = tuple[Mine, ...]
NO_MEMORY: Mine = (0, "", (), ())


class LaterMemory:
    """The scripted AI's memory after an action: the memory before it, with the acting side's
    part replaced by what the AI's choice in the state before left it (``choose``, the
    protocol's :func:`~.protocol.scripted_choice`). Worked out only when asked (issue 10): a
    search applies actions whose defaults nobody asks, and a side's memory needs the choices
    of that side's own states alone (another side's memory passes through unchanged), so the
    AI runs only for the states whose choice the answer depends on. Equal (and hashed) as the
    memory it stands for."""

    __slots__ = ("_before", "_choose", "_depth", "_mine", "_side", "_sides")
    _before: WarsurgeState
    _choose: Callable[[WarsurgeState], Mine]
    _depth: int
    _mine: Mine | None
    _side: int
    _sides: int

    #: a chain longer than this is worked out at once (it keeps every state on it alive)
    DEPTH = 32

    def __init__(
        self,
        before: WarsurgeState,
        side: int,
        sides: int,
        choose: Callable[[WarsurgeState], Mine],
    ) -> None:
        up = before.memory
        if isinstance(up, LaterMemory) and up._depth >= self.DEPTH:
            before = WarsurgeState(before.args, before.game, up.full())
            up = before.memory
        self._before = before
        self._side = side
        self._sides = sides
        self._choose = choose
        self._mine = None
        self._depth = up._depth + 1 if isinstance(up, LaterMemory) else 1

    def of(self, side: int) -> Mine:
        """Side ``side``'s memory (iteratively up the chain: no recursion)."""
        node = self
        while side != node._side:
            up = node._before.memory
            if not isinstance(up, LaterMemory):
                return up[side] if side < len(up) else NO_MEMORY
            node = up
        if node._mine is None:
            node._mine = node._choose(node._before)
        return node._mine

    def full(self) -> Memory:
        """Every side's memory."""
        return tuple(self.of(s) for s in range(self._sides))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LaterMemory):
            return self.full() == other.full()
        if isinstance(other, tuple):
            return self.full() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.full())


@dataclass(frozen=True)
class WarsurgeState:
    """A protocol state: the engine's :class:`GameState` and the canonical JSON text of the
    set-up arguments (rosters, board, options), so a state can be written and read back."""

    args: str
    game: GameState
    #: the scripted AI's memory per side, as ``warbench battle``'s ``ScriptedPlayer`` keeps it
    #: (:data:`Mine`): ``(turn, phase, units it found nothing for in that phase, (unit, Game
    #: Turn) of the units that found no target in an Attack Phase, from the last Game Turn
    #: on)``. Its memory of Deployment spots with no room (``_roomless``) only spares
    #: questions and is not kept. It changes no rule (the digest is the engine's); it makes
    #: each ``default`` the battle command's own choice.
    #: After an action it is a :class:`LaterMemory`, worked out when asked (:attr:`scripted`).
    memory: Memory | LaterMemory = ()

    @property
    def scripted(self) -> Memory:
        """Every side's memory of the scripted AI (see :attr:`memory`)."""
        m = self.memory
        return m.full() if isinstance(m, LaterMemory) else m

    def scripted_of(self, side: int) -> Mine:
        """Side ``side``'s memory of the scripted AI (only what that side's answer needs)."""
        m = self.memory
        if isinstance(m, LaterMemory):
            return m.of(side)
        return m[side] if side < len(m) else NO_MEMORY

    @property
    def options(self) -> Mapping[str, JSON]:
        """The set-up options (parsed once per set-up)."""
        return parsed_args(self.args)["options"]  # type: ignore[no-any-return]


def _mine(data: Sequence[Any]) -> Mine:
    """One side's memory from its JSON (a state written before session 30 has no blind
    units: ``[turn, phase, skip]``)."""
    t, p, skip, *rest = data
    blind = tuple((int(u), int(n)) for u, n in (rest[0] if rest else ()))
    return (int(t), str(p), tuple(int(u) for u in skip), blind)


@lru_cache(maxsize=64)
def parsed_args(args: str) -> dict[str, JSON]:
    return json.loads(args)  # type: ignore[no-any-return]


def args_text(rosters: Sequence[JSON], board: JSON, options: Mapping[str, JSON]) -> str:
    return canonical({"rosters": list(rosters), "board": board, "options": dict(options)})


@lru_cache(maxsize=32)
def game_setup(args: str) -> GameSetup:
    """Build (once per distinct set-up) the engine's GameSetup from the set-up JSON."""
    from warbench.rulesets.warsurge.battlefield import board_from_data, sample_board
    from warbench.rulesets.warsurge.game.geom import Field
    from warbench.rulesets.warsurge.game.io import roster_from_data
    from warbench.rulesets.warsurge.game.state import build_setup

    data = parsed_args(args)
    rosters, board_data, options = data["rosters"], data["board"], data["options"]
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ProfileError(f"options.{unknown[0]}", options[unknown[0]], ", ".join(OPTIONS))
    players = [roster_from_data(r, f"rosters[{i}]") for i, r in enumerate(rosters)]
    if board_data is None or isinstance(board_data, str):
        from warbench.rulesets.warsurge.battlefield import sample_boards

        name = board_data or DEFAULT_BOARD
        if name not in sample_boards():
            raise ProfileError("board", name, ", ".join(sample_boards()))
        board = sample_board(name)
    else:
        board = board_from_data(board_data, "board")
    names = options.get("automation")
    try:
        automation = ALL_AUTOMATIONS if names is None else frozenset(Automation(a) for a in names)
    except (ValueError, TypeError):
        raise ProfileError(
            "options.automation", names, ", ".join(a.value for a in Automation)
        ) from None
    costs = options.get("unit_points")
    kw: dict[str, Any] = {}
    if costs is not None:
        it = iter(list(costs))

        def coster(unit: Any, listed: int | None) -> float:
            try:
                return float(next(it))
            except StopIteration:
                return float(listed or 0)

        kw["coster"] = coster
    length = options.get("game_length")
    if length is not None and not isinstance(length, int):
        raise ProfileError("options.game_length", length, "a whole number of Game Turns (4+)")
    style = options.get("playstyle", "standard")
    if style not in ("standard", "advanced"):
        raise ProfileError("options.playstyle", style, "standard, advanced")
    limit = options.get("point_limit")
    if limit is not None and (not isinstance(limit, int) or limit <= 0):
        raise ProfileError("options.point_limit", limit, "a positive whole number of points")
    return build_setup(
        players,
        Field(board),
        game_length=length,
        max_turns=int(options.get("max_turns", 12)),
        automation=automation,
        playstyle=str(style),
        point_limit=limit,
        **kw,
    )


# --------------------------------------------------------------------------------------------
# Codecs
# --------------------------------------------------------------------------------------------


class ActionCodec:
    """Actions as the engine's record writes them (``action_to_dict``)."""

    def dump(self, value: Action) -> JSON:
        """JSON for an action."""
        return action_to_dict(engine.normalize(value))

    def load(self, data: JSON) -> Action:
        """The action written by :meth:`dump` (a ``DataFileError`` names what is wrong)."""
        if not isinstance(data, dict):
            raise DataFileError("<action>", f"an action is a JSON object, not {data!r}")
        kind = str(data.get("kind"))
        props = _ACTION_FIELDS.get(kind, {})
        needed = {"unit", *_REQUIRED_FIELDS.get(kind, ())}
        for name, value in data.items():  # each field's type, as the schema says (a 4xx, not
            # a TypeError in the engine); null stands for an optional field left out, as before
            if value is None and name not in needed:
                continue
            if name in props and not _fits(value, props[name]):
                raise DataFileError("<action>", f"{name}: {value!r} is not {_said(props[name])}")
        return engine.normalize(action_from_dict(data, "<action>"))

    def schema(self) -> dict[str, JSON]:
        """The JSON Schema of an action: one object per kind (``actions.action_to_dict``)."""
        return {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "WARSURGE action",
            "oneOf": [_kind_schema(kind, props) for kind, props in _ACTION_FIELDS.items()],
        }


_POINT: dict[str, JSON] = {
    "type": "array",
    "items": {"type": "number"},
    "minItems": 2,
    "maxItems": 2,
}
_UID: dict[str, JSON] = {"type": "integer", "minimum": 0}
_ACTION_FIELDS: dict[str, dict[str, JSON]] = {
    "turn_master": {"side": _UID},
    "zone": {"zone": _UID},
    "deploy": {
        "unit": _UID,
        "at": _POINT,
        "positions": {"type": "array", "items": _POINT},
        "passengers": {"type": "array", "items": _UID},
        "into": _UID,  # Rift Gate (Perks L1384)
    },
    "move": {
        "unit": _UID,
        "to": _POINT,
        "positions": {"type": "array", "items": _POINT},
        "engage": _UID,
        "dash": {"type": "boolean"},
        "facing": {"type": "number"},  # oval and rectangular bases (§1.3)
    },
    "embark": {"unit": _UID, "transport": _UID, "dash": {"type": "boolean"}},
    "embark_terrain": {
        "unit": _UID,
        "terrain": {"type": "string"},
        "dash": {"type": "boolean"},
        "models": {"type": "array", "items": _UID},  # a partial fit (L4459-4464)
        "positions": {"type": "array", "items": _POINT},
    },
    "disembark": {
        "unit": _UID,
        "to": _POINT,
        "positions": {"type": "array", "items": _POINT},
        "dash": {"type": "boolean"},
        "reserve": {"type": "boolean"},  # Rift Gate (Perks L1384)
    },
    "attack": {
        "unit": _UID,
        "targets": {
            "type": "array",
            "items": {
                "type": "array",
                "prefixItems": [{"type": "string"}, _UID],
                "minItems": 2,
                "maxItems": 2,
            },
        },
    },
    "casualties": {"unit": _UID, "models": {"type": "array", "items": _UID}},
    "restore": {"unit": _UID, "positions": {"type": "array", "items": _POINT}},
    "survivors": {
        "unit": _UID,
        "positions": {"type": "array", "items": _POINT},
        "lost": {"type": "array", "items": _UID},
    },
    "contact": {"unit": _UID, "foe": _UID, "positions": {"type": "array", "items": _POINT}},
    "pass": {},
    "delay": {"unit": _UID, "perk_use": {"type": "boolean"}},  # Opportunist (Perks L1340)
}
_REQUIRED_FIELDS = {
    "turn_master": ["side"],
    "zone": ["zone"],
    "embark": ["transport"],
    "embark_terrain": ["terrain"],
    "attack": ["targets"],
    "restore": ["positions"],
    "contact": ["foe", "positions"],
}


def _fits(value: JSON, schema: JSON) -> bool:
    """Whether ``value`` has the type ``schema`` (one of :data:`_ACTION_FIELDS`) describes:
    an integer (not a boolean) at least its minimum, a number, a boolean, a string, or an
    array of such items of the length given."""
    assert isinstance(schema, dict)
    kind = schema["type"]
    if kind == "integer":
        low = schema.get("minimum")
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and (not isinstance(low, int) or value >= low)
        )
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "string":
        return isinstance(value, str)
    if not isinstance(value, list | tuple):
        return False
    lo, hi = schema.get("minItems", 0), schema.get("maxItems", len(value))
    assert isinstance(lo, int) and isinstance(hi, int)
    if not lo <= len(value) <= hi:
        return False
    first = schema.get("prefixItems")
    if isinstance(first, list):
        return all(_fits(v, s) for v, s in zip(value, first, strict=True))
    return all(_fits(v, schema["items"]) for v in value)


def _said(schema: JSON) -> str:
    """``schema``'s type in words, for a refusal."""
    assert isinstance(schema, dict)
    words = {"integer": "a whole number of 0 or more", "number": "a number"}
    if schema["type"] == "array":
        return "an array of the right items" if schema is not _POINT else "a point [x, y]"
    return words.get(str(schema["type"]), f"a {schema['type']}")


def _kind_schema(kind: str, props: dict[str, JSON]) -> dict[str, JSON]:
    required = ["kind"] + (["unit"] if "unit" in props else []) + _REQUIRED_FIELDS.get(kind, [])
    return {
        "type": "object",
        "properties": {"kind": {"const": kind}, **props},
        "required": sorted(set(required)),
        "additionalProperties": False,
    }


def _pause_to_json(p: CasualtyPause) -> dict[str, JSON]:
    return {
        **p.to_json(),
        "origin": [unit_to_json(u) for u in p.origin],
        "action": action_to_dict(p.action),
        "choices": [list(c) for c in p.choices],
    }


def _restore_to_json(p: CoherencyPause) -> dict[str, JSON]:
    """The waiting end of the Attack Phase, with the step's dice as they stand (the PCG64
    state, its 128-bit integers as decimal strings, so a JSON reader loses nothing)."""
    dice = p.dice
    if not isinstance(dice, SeededDice):
        raise DataFileError("<state>", "only seeded dice can be written in a state")
    bits = dice.rng.bit_generator.state
    return {
        **p.to_json(),
        "dice": {
            "seed": str(dice.seed),
            "state": str(bits["state"]["state"]),
            "inc": str(bits["state"]["inc"]),
            "has_uint32": int(bits["has_uint32"]),
            "uinteger": int(bits["uinteger"]),
        },
    }


def _restore_from_json(data: Mapping[str, Any]) -> CoherencyPause:
    try:
        d = data["dice"]
        dice = SeededDice(int(d["seed"]))
        dice.rng.bit_generator.state = {
            "bit_generator": "PCG64",
            "state": {"state": int(d["state"]), "inc": int(d["inc"])},
            "has_uint32": int(d["has_uint32"]),
            "uinteger": int(d["uinteger"]),
        }
        return CoherencyPause(
            tuple(int(u) for u in data["units"]),
            tuple((int(u), int(n)) for u, n in data["counts"]),
            dice,
            stage=str(data.get("stage", "coherency")),
            removals=tuple(int(u) for u in data.get("removals", ())),
            wrecks=tuple(
                Wreck(
                    int(row[0]),
                    tuple((float(x), float(y)) for x, y in row[1]),
                    float(row[2]),
                    str(row[3]) if len(row) > 3 else "",
                )
                for row in data.get("wrecks", ())
            ),
            pairs=tuple((int(a), int(b)) for a, b in data.get("pairs", ())),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise DataFileError("<state>", f"not a waiting Coherency restoration: {exc!r}") from exc


def _paused_again(game: GameState, data: Mapping[str, Any]) -> GameState:
    """The waiting Attack made again: its action and the casualties chosen before, applied to
    the units before it (on the step's own dice), must wait exactly as written."""
    try:
        origin = tuple(_unit_from_json(u) for u in data["origin"])
        action = action_from_dict(data["action"], "<state>")
        choices = [tuple(int(m) for m in c) for c in data["choices"]]
        terms = {k: data[k] for k in ("attacker", "target", "weapon", "loss", "candidates")}
        if data.get("own"):
            terms["own"] = True
    except (KeyError, TypeError, ValueError) as exc:
        raise DataFileError("<state>", f"not a waiting Attack: {exc!r}") from exc
    state = replace(game, units=origin, pause=None, step=game.step - 1)
    try:
        state, _ = engine.apply(state, action)
        for models in choices:  # each to the Attack's pause of the moment (target or own)
            unit = state.pause.target if state.pause is not None else terms["target"]
            state, _ = engine.apply(state, Casualties(unit, models))
    except RulesError as exc:
        raise DataFileError("<state>", f"the waiting Attack does not replay: {exc}") from exc
    if state.pause is None or state.pause.to_json() != terms or state.units != game.units:
        raise DataFileError("<state>", "the waiting Attack does not replay to this state")
    return state


def unit_to_json(u: UnitGS) -> dict[str, JSON]:
    fields: dict[str, JSON] = unit_state_fields(u)
    return fields


def _unit_from_json(d: Mapping[str, Any]) -> UnitGS:
    return UnitGS(
        uid=int(d["uid"]),
        location=Location(d["loc"]),
        pos=tuple((float(x), float(y)) for x, y in d["pos"]),
        hp=tuple(int(h) for h in d["hp"]),
        removed=tuple(bool(r) for r in d["removed"]),
        embarked_in=d["in"],
        acted=bool(d["acted"]),
        moved=tuple(bool(m) for m in d["moved"]),
        heavy=tuple(bool(m) for m in d["heavy"]),
        battle=tuple(bool(m) for m in d["battle"]),
        unit_moved=bool(d["um"]),
        unit_dashed=bool(d["ud"]),
        statuses=tuple(Status(str(n), t, str(s)) for n, t, s in d["st"]),
        counters=tuple((str(k), int(v)) for k, v in d["ct"]),
        uses=tuple((str(k), int(v)) for k, v in d["uses"]),
        terrain=None if d.get("terrain") is None else str(d["terrain"]),
        facing=tuple(float(f) for f in d.get("facing", ())),  # oval/rect bases (§1.3)
        inside=tuple(int(i) for i in d.get("inside", ())),
    )


def _flow_to_json(f: Flow) -> dict[str, JSON]:
    return {
        "turn": f.turn,
        "phase": f.phase.value,
        "turn_master": f.turn_master,
        "rolloff_winner": f.rolloff_winner,
        "roll_order": list(f.roll_order),
        "order": list(f.order),
        "active": f.active,
        "passed": sorted(f.passed),
        **({"advanced": f.adv.to_json()} if f.adv is not None else {}),
    }


_UNIT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "uid": {"type": "integer", "minimum": 0},
        "loc": {"enum": [loc.value for loc in Location]},
        "pos": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
        "hp": {"type": "array", "items": {"type": "integer", "minimum": 0}},
        "facing": {"type": "array", "items": {"type": "number"}},  # oval/rect bases (§1.3)
    },
    "required": ["uid", "loc", "pos", "hp", "removed", "in", "acted"],
}


class StateCodec:
    """Whole states at full precision (positions unrounded), with their set-up arguments."""

    def dump(self, value: WarsurgeState) -> JSON:
        """JSON for a state."""
        g = value.game
        r = g.result
        return {
            "setup": parsed_args(value.args),
            "seed": g.seed,
            "step": g.step,
            "flow": _flow_to_json(g.flow),
            "engaged": sorted(list(p) for p in g.engaged),
            "zones": list(g.zones),
            "units": [unit_to_json(u) for u in g.units],
            "result": None
            if r is None
            else {"values": list(r.values), "winner": r.winner, "turns": r.turns},
            "scripted": [
                [t, p, list(skip), [list(b) for b in blind]] for t, p, skip, blind in value.scripted
            ],
            **({"pause": _pause_to_json(g.pause)} if g.pause is not None else {}),
            **({"restore": _restore_to_json(g.restore)} if g.restore is not None else {}),
            **({"terrain_hp": [list(t) for t in g.terrain_hp]} if g.terrain_hp else {}),
            **({"pieces_acted": list(g.pieces_acted)} if g.pieces_acted else {}),
            **({"rewind": self._rewind(value)} if g.rewind is not None else {}),
        }

    def _rewind(self, value: WarsurgeState) -> JSON:
        """A Time Jump's rewind point (``perk_timejump``): the state before the action, whole."""
        r = value.game.rewind
        before = WarsurgeState(value.args, r.before)
        return {"unit": r.unit, "perk": r.perk, "kind": r.kind,
                "action": action_to_dict(r.action), "before": self.dump(before)}  # fmt: skip

    def load(self, data: JSON) -> WarsurgeState:
        """The state written by :meth:`dump`. A state in which an Attack waits for its
        casualties (``pause``) is made again from the units before the Attack, the Attack and
        the casualties chosen earlier in it (the same step's dice roll the same)."""
        try:
            s = data["setup"]
            args = args_text(s["rosters"], s["board"], s["options"])
            f = data["flow"]
            flow = Flow(
                turn=int(f["turn"]),
                phase=Phase(f["phase"]),
                turn_master=f["turn_master"],
                rolloff_winner=f["rolloff_winner"],
                roll_order=tuple(f["roll_order"]),
                order=tuple(f["order"]),
                active=f["active"],
                passed=frozenset(f["passed"]),
                adv=AdvancedFlow.from_json(f["advanced"]) if "advanced" in f else None,
            )
            r = data["result"]
            game = GameState(
                setup=game_setup(args),
                seed=int(data["seed"]),
                flow=flow,
                units=tuple(_unit_from_json(u) for u in data["units"]),
                engaged=frozenset((int(a), int(b)) for a, b in data["engaged"]),
                zones=tuple(data["zones"]),
                step=int(data["step"]),
                result=None
                if r is None
                else GameResult(tuple(float(v) for v in r["values"]), r["winner"], r["turns"]),
                terrain_hp=tuple((str(n), int(hp)) for n, hp in data.get("terrain_hp", ())),
                pieces_acted=tuple(str(n) for n in data.get("pieces_acted", ())),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise DataFileError("<state>", f"not a WARSURGE state: {exc!r}") from exc
        memo = tuple(_mine(m) for m in data.get("scripted", ()))
        if data.get("pause") is not None:
            game = _paused_again(game, data["pause"])
        if data.get("restore") is not None:
            game = replace(game, restore=_restore_from_json(data["restore"]))
        if (rw := data.get("rewind")) is not None:  # a Time Jump's rewind point (L1067)
            from warbench.rulesets.warsurge.game.perk_timejump import Rewind

            action = action_from_dict(rw["action"], "<state>")
            before = self.load(rw["before"]).game
            game = replace(game, rewind=Rewind(rw["unit"], rw["perk"], rw["kind"], action, before))
        return WarsurgeState(args, game, memo)

    def schema(self) -> dict[str, JSON]:
        """The JSON Schema of a state."""
        return {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "WARSURGE state",
            "type": "object",
            "properties": {
                "setup": {
                    "type": "object",
                    "required": ["rosters", "board", "options"],
                    "properties": {
                        "rosters": {"type": "array", "items": {"type": "object"}},
                        "options": {"type": "object"},
                    },
                },
                "seed": {"type": "integer"},
                "step": {"type": "integer", "minimum": 0},
                "flow": {
                    "type": "object",
                    "required": ["turn", "phase", "active", "passed"],
                    "properties": {"phase": {"enum": [p.value for p in Phase]}},
                },
                "engaged": {"type": "array", "items": {"type": "array", "items": _UID}},
                "zones": {"type": "array", "items": {"type": ["integer", "null"]}},
                "units": {"type": "array", "items": _UNIT_SCHEMA},
                "result": {"type": ["object", "null"]},
                # per side, ``Mine``: [turn, phase, skipped units, [[unit, Game Turn], ...] of
                # the units that found no target] (a state written before session 30: 3 items)
                "scripted": {
                    "type": "array",
                    "items": {
                        "type": "array",
                        "minItems": 3,
                        "maxItems": 4,
                        "prefixItems": [
                            {"type": "integer"},
                            {"type": "string"},
                            {"type": "array", "items": _UID},
                            {
                                "type": "array",
                                "items": {
                                    "type": "array",
                                    "prefixItems": [_UID, {"type": "integer"}],
                                    "minItems": 2,
                                    "maxItems": 2,
                                },
                            },
                        ],
                    },
                },
                "pause": {"type": "object"},
                "restore": {"type": "object", "required": ["units", "counts", "dice"]},
                "terrain_hp": {
                    "type": "array",
                    "items": {"type": "array", "prefixItems": [{"type": "string"}, _UID]},
                },
                # §10.2: terrain pieces that attacked in this Attack Phase (terrain_army)
                "pieces_acted": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["setup", "seed", "step", "flow", "engaged", "zones", "units", "result"],
        }


class ViewCodec:
    """Views are plain JSON objects already (see :meth:`WarsurgeRuleset.view`)."""

    def dump(self, value: dict[str, JSON]) -> JSON:
        """The view itself."""
        return value

    def load(self, data: JSON) -> dict[str, JSON]:
        """The view itself (it must be an object)."""
        if not isinstance(data, dict):
            raise DataFileError("<view>", "a view is a JSON object")
        return data

    def schema(self) -> dict[str, JSON]:
        """The JSON Schema of a view."""
        return {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "WARSURGE view",
            "type": "object",
            "properties": {
                "player": {"type": "integer", "minimum": 0},
                "turn": {"type": "integer", "minimum": 1},
                "phase": {"enum": [p.value for p in Phase]},
                "active": {"type": ["integer", "null"]},
                "sides": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["name", "zone", "hidden_reserve"],
                        "properties": {
                            "roster_points": {"type": "number"},
                            "value": {"type": "number"},
                        },
                    },
                },
                "units": {
                    "type": "array",
                    "items": {
                        **_UNIT_SCHEMA,
                        "required": [*_UNIT_SCHEMA["required"], "side", "label"],
                    },
                },
                "over": {"type": "boolean"},
                "casualties": {
                    "type": "object",
                    "required": ["attacker", "target", "weapon", "loss", "candidates"],
                },
                "coherency": {"type": "object", "required": ["units", "counts"]},
                # §10.3: destructible terrain's HP left, once any lost HP (0: destroyed)
                "terrain_hp": {
                    "type": "object",
                    "additionalProperties": {"type": "integer", "minimum": 0},
                },
                # §10.2: terrain that attacks, by the number its Attack names it with
                "armed_terrain": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["number", "name", "weapons", "army", "held_by", "attacked"],
                    },
                },
                # §10.2 L4404-4407, Perks L95: who holds terrain with a profile and Objectives
                "control": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["name", "kind", "sides", "controller", "contested"],
                    },
                },
                # §10.2: the pieces that attacked this phase (game/terrain_army.py)
                "pieces_acted": {"type": "array", "items": {"type": "string"}},
                # §9.1-9.3: the Advanced playstyle's Command Points and Action Step (public)
                "advanced": {"type": "object"},
            },
            "required": ["player", "turn", "phase", "active", "sides", "units", "over"],
        }
