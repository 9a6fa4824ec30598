"""WARSURGE on the game protocol (``warbench.play``, docs/protocol.md): an adapter, not a rewrite.

The engine (``engine.new_game``, ``check``, ``apply``, ``legal_actions``) plays the game; this
module only translates (STYLE.md principle 13):

* **setup**: rosters are game-roster JSON (``io.roster_to_data``), the board is
  ``board_to_data`` JSON or a sample board's name (``None``: ``ruins_48x48``), options are
  ``game_length``, ``max_turns``, ``automation`` (list of ``Automation`` values, default all),
  ``unit_points`` (the costs a record used), ``hide_roster_value`` and ``hide_reserves``.
  The engine's ``GameSetup`` is built once per distinct set-up and memoised.
* **players** are sides (§3.3: a team acts as one player): player ``k`` is side ``k``.
* **decisions**: ``"turn master"`` (§2.1, default: the roll-off winner takes it),
  ``"zone"`` (§3.6 step 2, default: the first free zone) and ``"activation"`` (§2.2: choose a
  unit's action, or Pass), whose ``default`` is the scripted AI's choice
  (``players.ScriptedPlayer``), so ``AutomaticPlayer`` or ``run_game(automate={"activation"})``
  plays the engine's own game. Casualties, coherency moves, model placement inside an
  action and the random game end stay inside the engine (docs/protocol.md lists them).
* **dice** are rolled inside ``apply`` from ``step_seed(seed, step)`` exactly as
  ``warbench battle`` rolls them, so a seeded game is the same game.
* **views** are JSON: everything on the table, with other sides' point values hidden under
  ``hide_roster_value`` and other sides' Reserve profiles hidden under ``hide_reserves``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from warbench.kernel.dice import Dice, SeededChoices
from warbench.kernel.errors import DataFileError, ProfileError, RulesError
from warbench.play.core import JSON, Decision, Event, Refusal, Result, canonical
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import (
    Action,
    ChooseTurnMaster,
    ChooseZone,
    action_from_dict,
    action_to_dict,
)
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    Flow,
    GameResult,
    GameSetup,
    GameState,
    Location,
    Phase,
    Status,
    UnitGS,
    unit_state_fields,
)

CORE = "001_d3f5e425c5e1196d.txt"

#: Options a set-up may give (anything else is refused with this list).
OPTIONS = (
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


@dataclass(frozen=True)
class WarsurgeState:
    """A protocol state: the engine's :class:`GameState` and the canonical JSON text of the
    set-up arguments (rosters, board, options), so a state can be written and read back."""

    args: str
    game: GameState
    #: the scripted AI's memory per side, as ``warbench battle``'s ``ScriptedPlayer`` keeps it:
    #: ``(turn, phase, units it found nothing for in that phase)``. It changes no rule (the
    #: digest is the engine's); it makes each ``default`` the battle command's own choice.
    scripted: tuple[tuple[int, str, tuple[int, ...]], ...] = ()

    @property
    def options(self) -> Mapping[str, JSON]:
        """The set-up options (parsed once per set-up)."""
        return _parsed(self.args)["options"]  # type: ignore[no-any-return]


@lru_cache(maxsize=64)
def _parsed(args: str) -> dict[str, JSON]:
    return json.loads(args)  # type: ignore[no-any-return]


def _args_text(rosters: Sequence[JSON], board: JSON, options: Mapping[str, JSON]) -> str:
    return canonical({"rosters": list(rosters), "board": board, "options": dict(options)})


@lru_cache(maxsize=32)
def _game_setup(args: str) -> GameSetup:
    """Build (once per distinct set-up) the engine's GameSetup from the set-up JSON."""
    from warbench.rulesets.warsurge.battlefield import board_from_data, sample_board
    from warbench.rulesets.warsurge.game.geom import Field
    from warbench.rulesets.warsurge.game.io import roster_from_data
    from warbench.rulesets.warsurge.game.state import build_setup

    data = _parsed(args)
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
    return build_setup(
        players,
        Field(board),
        game_length=length,
        max_turns=int(options.get("max_turns", 12)),
        automation=automation,
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
    },
    "move": {
        "unit": _UID,
        "to": _POINT,
        "positions": {"type": "array", "items": _POINT},
        "engage": _UID,
        "dash": {"type": "boolean"},
    },
    "embark": {"unit": _UID, "transport": _UID, "dash": {"type": "boolean"}},
    "disembark": {
        "unit": _UID,
        "to": _POINT,
        "positions": {"type": "array", "items": _POINT},
        "dash": {"type": "boolean"},
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
    "pass": {},
}
_REQUIRED_FIELDS = {
    "turn_master": ["side"],
    "zone": ["zone"],
    "embark": ["transport"],
    "attack": ["targets"],
}


def _kind_schema(kind: str, props: dict[str, JSON]) -> dict[str, JSON]:
    required = ["kind"] + (["unit"] if "unit" in props else []) + _REQUIRED_FIELDS.get(kind, [])
    return {
        "type": "object",
        "properties": {"kind": {"const": kind}, **props},
        "required": sorted(set(required)),
        "additionalProperties": False,
    }


def _unit_to_json(u: UnitGS) -> dict[str, JSON]:
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
    }


_UNIT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "uid": {"type": "integer", "minimum": 0},
        "loc": {"enum": [loc.value for loc in Location]},
        "pos": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
        "hp": {"type": "array", "items": {"type": "integer", "minimum": 0}},
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
            "setup": _parsed(value.args),
            "seed": g.seed,
            "step": g.step,
            "flow": _flow_to_json(g.flow),
            "engaged": sorted(list(p) for p in g.engaged),
            "zones": list(g.zones),
            "units": [_unit_to_json(u) for u in g.units],
            "result": None
            if r is None
            else {"values": list(r.values), "winner": r.winner, "turns": r.turns},
            "scripted": [[t, p, list(skip)] for t, p, skip in value.scripted],
        }

    def load(self, data: JSON) -> WarsurgeState:
        """The state written by :meth:`dump`."""
        try:
            s = data["setup"]
            args = _args_text(s["rosters"], s["board"], s["options"])
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
            )
            r = data["result"]
            game = GameState(
                setup=_game_setup(args),
                seed=int(data["seed"]),
                flow=flow,
                units=tuple(_unit_from_json(u) for u in data["units"]),
                engaged=frozenset((int(a), int(b)) for a, b in data["engaged"]),
                zones=tuple(data["zones"]),
                step=int(data["step"]),
                result=None
                if r is None
                else GameResult(tuple(float(v) for v in r["values"]), r["winner"], r["turns"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise DataFileError("<state>", f"not a WARSURGE state: {exc!r}") from exc
        memo = tuple(
            (int(t), str(p), tuple(int(u) for u in skip)) for t, p, skip in data.get("scripted", ())
        )
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
                "scripted": {"type": "array"},
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
            },
            "required": ["player", "turn", "phase", "active", "sides", "units", "over"],
        }


# --------------------------------------------------------------------------------------------
# Legal actions
# --------------------------------------------------------------------------------------------


class WarsurgeLegal:
    """What one player may do now: the engine's :class:`~.engine.LegalActions` for the acting
    side (empty for anyone else). Movement is continuous, so ``finite`` is false: iteration
    lists the engine's checked candidates, ``in`` checks any proposal."""

    def __init__(self, ruleset: WarsurgeRuleset, state: WarsurgeState, player: int) -> None:
        self._ruleset = ruleset
        self._state = state
        self._player = player
        side = engine.acting_side(state.game)
        self._active = not state.game.over and side == player
        self._legal = engine.legal_actions(state.game) if self._active else None

    @property
    def player(self) -> int:
        """The player these actions belong to."""
        return self._player

    @property
    def finite(self) -> bool:
        """False: a Move or a Deploy may go to any point (iteration lists candidates)."""
        return False

    def __contains__(self, action: object) -> bool:
        return self._ruleset.check(self._state, action, self._player) is None  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[Action]:
        if self._legal is None:
            return
        seen: set[Action] = set()
        for a in self._legal:
            a = engine.normalize(a)
            if a not in seen:  # the engine proposes some attacks twice
                seen.add(a)
                yield a

    def check(self, action: Action) -> Refusal | None:
        """Why ``action`` is refused (``None`` if legal): what a prompt explains."""
        return self._ruleset.check(self._state, action, self._player)

    def sample(self, rng: SeededChoices, n: int = 1) -> list[Action]:
        """``n`` random legal actions (the engine's sampler: a random unit and candidate,
        Pass one time in ten)."""
        if self._legal is None:
            return []
        return [engine.normalize(self._legal.sample(rng, 0.1)) for _ in range(n)]


# --------------------------------------------------------------------------------------------
# The ruleset
# --------------------------------------------------------------------------------------------


class WarsurgeRuleset:
    """WARSURGE (Core Rules 001_d3f5e425c5e1196d.txt) on the game protocol."""

    id = "warsurge"

    def __init__(self) -> None:
        from warbench.rulesets.warsurge import RULESET_VERSION
        from warbench.rulesets.warsurge.game import ENGINE_VERSION

        #: the behaviour version: the rules' and the engine's (a seeded game is the same game
        #: exactly when both are the same).
        self.version = f"{RULESET_VERSION}+{ENGINE_VERSION}"
        self._actions = ActionCodec()
        self._states = StateCodec()
        self._views = ViewCodec()

    @property
    def actions(self) -> ActionCodec:
        """JSON for actions."""
        return self._actions

    @property
    def states(self) -> StateCodec:
        """JSON for states."""
        return self._states

    @property
    def views(self) -> ViewCodec:
        """JSON for views."""
        return self._views

    # -- setup and flow -----------------------------------------------------------------
    def setup(
        self, rosters: Sequence[JSON], board: JSON, options: Mapping[str, JSON], seed: int
    ) -> WarsurgeState:
        """Every unit in Reserve, then the first Turn Master roll-off (§2.2 step 1)."""
        args = _args_text(rosters, board, options)
        game, _ = engine.new_game(_game_setup(args), seed)
        return WarsurgeState(args, game)

    def pending(self, state: WarsurgeState) -> tuple[Decision[Action], ...]:
        """The acting side's decision (WARSURGE is one decision at a time, §2.2)."""
        g = state.game
        if g.over:
            return ()
        side = engine.acting_side(g)
        assert side is not None
        phase = g.flow.phase
        if phase is Phase.TURN_MASTER:
            return (
                Decision(
                    side,
                    "turn master",
                    f"{CORE} §2.1",
                    "you won the roll-off: name the Turn Master",
                    ChooseTurnMaster(side),
                ),
            )
        if phase is Phase.ZONES:
            free = [z for z in range(len(g.setup.field.zones)) if z not in g.zones]
            return (
                Decision(
                    side,
                    "zone",
                    f"{CORE} §3.6",
                    "choose a Deployment Zone",
                    ChooseZone(free[0]),
                ),
            )
        return (
            Decision(
                side,
                "activation",
                f"{CORE} §2.2",
                f"Game Turn {g.flow.turn}, {phase.value} Phase: a unit's action, or pass",
                scripted_choice(state)[0],
            ),
        )

    def legal_actions(self, state: WarsurgeState, player: int) -> WarsurgeLegal:
        """The acting side's legal actions (nothing for the other sides)."""
        return WarsurgeLegal(self, state, player)

    def check(self, state: WarsurgeState, action: Action, player: int) -> Refusal | None:
        """The engine's check, and the acting side must be ``player``."""
        g = state.game
        if g.over:
            return Refusal("the game is over", f"{CORE} §2.2 step 8")
        side = engine.acting_side(g)
        if side != player:
            name = g.setup.sides[side] if side is not None else "nobody"
            return Refusal(f"it is {name}'s decision, not player {player}'s", f"{CORE} §2.2")
        try:
            engine.check(g, action)
        except RulesError as exc:
            return Refusal(exc.reason, exc.rule)
        return None

    def apply(
        self, state: WarsurgeState, action: Action, player: int, dice: Dice | None = None
    ) -> tuple[WarsurgeState, list[Event]]:
        """Check and apply with the engine; its events become protocol events."""
        refusal = self.check(state, action, player)
        if refusal is not None:
            raise refusal.error()
        memo = state.scripted
        if state.game.flow.phase not in (Phase.TURN_MASTER, Phase.ZONES):
            side = engine.acting_side(state.game)
            assert side is not None
            memo = _remember(memo, side, scripted_choice(state)[1], len(state.game.setup.sides))
        game, evs = engine.apply(state.game, action, dice=dice)
        out = [
            Event(
                e.kind,
                e.text,
                e.rule,
                {**_jsonable(e.data), "turn": e.turn, "phase": str(e.phase)},
            )
            for e in evs
        ]
        return WarsurgeState(state.args, game, memo), out

    def is_over(self, state: WarsurgeState) -> bool:
        """Whether the game has ended (§2.2 step 7)."""
        return state.game.over

    def result(self, state: WarsurgeState) -> Result | None:
        """Point values left on the battlefield decide (§2.2 step 8)."""
        r = state.game.result
        if not state.game.over or r is None:
            return None
        return Result(
            r.winner,
            tuple(round(v, 4) for v in r.values),
            f"values on the battlefield after Game Turn {r.turns} ({CORE} §2.2 step 8)",
        )

    def digest(self, state: WarsurgeState) -> str:
        """The engine's digest (the one its own records keep)."""
        return state.game.digest()

    # -- views -----------------------------------------------------------------------------
    def view(self, state: WarsurgeState, player: int) -> dict[str, JSON]:
        """What ``player`` sees: the table, the flow, every unit's position and HP; with
        ``hide_roster_value`` no point value of another side; with ``hide_reserves`` nothing
        but the count of another side's units in Reserve."""
        g = state.game
        opts = state.options
        hide_value = bool(opts.get("hide_roster_value"))
        hide_reserves = bool(opts.get("hide_reserves"))
        units: list[dict[str, JSON]] = []
        hidden_reserve = [0] * len(g.setup.sides)
        for u in g.units:
            info = g.info(u.uid)
            mine = info.side == player
            if hide_reserves and not mine and u.location is Location.RESERVE:
                hidden_reserve[info.side] += 1
                continue
            d = _unit_to_json(u)
            d.update(
                side=info.side,
                label=info.label,
                profile=info.unit.name,
                models=info.models,
                hp_per_model=info.hp_per_model,
                radius=info.radius,
                weapons={
                    w: [info.weapon_types[w], info.weapon_range[w]] for w in info.weapon_types
                },
            )
            if mine or not hide_value:
                d["points"] = info.points
                d["value"] = round(g.current_value(u.uid), 4)
            units.append(d)
        values = g.side_values()
        sides = [
            {
                "name": name,
                "zone": g.zones[s],
                "hidden_reserve": hidden_reserve[s],
                **(
                    {"roster_points": g.setup.roster_points(s), "value": round(values[s], 4)}
                    if s == player or not hide_value
                    else {}
                ),
            }
            for s, name in enumerate(g.setup.sides)
        ]
        return {
            "player": player,
            "turn": g.flow.turn,
            "phase": g.flow.phase.value,
            "active": engine.acting_side(g),
            "turn_master": g.flow.turn_master,
            "passed": sorted(g.flow.passed),
            "engaged": sorted(list(p) for p in g.engaged),
            "sides": sides,
            "units": units,
            "over": g.over,
        }


def scripted_choice(state: WarsurgeState) -> tuple[Action, tuple[int, str, tuple[int, ...]]]:
    """The engine's automatic choice for the acting side: what ``warbench battle``'s
    :class:`~.players.ScriptedPlayer` for that side chooses here, given its memory of this
    phase (``state.scripted``); and its memory afterwards. Points are rounded as a record
    keeps them (so the default survives JSON exactly). Memoised on the engine state."""
    from warbench.rulesets.warsurge.game.players import ScriptedPlayer

    game = state.game
    side = engine.acting_side(game)
    assert side is not None
    turn, phase, skip = state.scripted[side] if side < len(state.scripted) else (0, "", ())
    key = f"protocol default {turn} {phase} {skip}"
    hit = game.cache.get(key)
    if hit is None:
        player = ScriptedPlayer(_skip=set(skip), _phase_key=(turn, phase))
        action = engine.normalize(player.choose(game))
        t, p = player._phase_key
        hit = game.cache[key] = (action, (t, p, tuple(sorted(player._skip))))
    return hit  # type: ignore[return-value]


def _remember(
    memo: tuple[tuple[int, str, tuple[int, ...]], ...],
    side: int,
    mine: tuple[int, str, tuple[int, ...]],
    sides: int,
) -> tuple[tuple[int, str, tuple[int, ...]], ...]:
    full = list(memo) + [(0, "", ())] * (sides - len(memo))
    full[side] = mine
    return tuple(full)


def _jsonable(data: Mapping[str, object]) -> dict[str, JSON]:
    out: dict[str, JSON] = {}
    for k, v in data.items():
        try:
            json.dumps(v, allow_nan=False)
            out[str(k)] = v
        except (TypeError, ValueError):
            out[str(k)] = repr(v)
    return out


def setup_digest(rosters: Sequence[JSON], board: JSON, options: Mapping[str, JSON]) -> str:
    """A short hash of a set-up (rosters, board, options)."""
    return hashlib.sha256(_args_text(rosters, board, options).encode()).hexdigest()[:16]
