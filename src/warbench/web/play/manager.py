"""The Play Manager: a WARSURGE game on a physical table, tracked in the browser (issue 14).

The WARSURGE App's Play function (001_d3f5e425c5e1196d.txt §1.1, §3.4) lets players track
their own and the enemy's army during a real game. Here a *table* starts from two or more game
rosters (teams too, §3.3) and is changed only by small operations the players make (a model
loses HP, a model is removed, a unit deploys or goes into Reserve, a status marker with a
duration is placed, the phase moves on, the Turn Master changes ...). The dice are rolled on
the table (or with the inline Dice Generator); no rule is automated beyond the bookkeeping the
book states:

* each unit's current Point Value is its full Point Cost x current HP / full HP, and only
  units on the Battlefield count (not in Reserve, not destroyed): §2.2 step 8
  (``points.current_point_cost``, whose doctest is the book's example, 100 pts 4 HP → 1 HP =
  25 pts);
* the winner is the side (a team adds its players' values, §3.3) with the most value left on
  the Battlefield, a draw when the most is shared (§2.2 step 8);
* markers with a duration in Game Turns count down when a Game Turn ends and are removed at
  zero; the phases follow §2.2 (Deploy, Move, Attack, Dash, then the next Game Turn).

A table is stored like a web game (``storage.games``, mode ``"manager"``): its set-up holds the
table at the start, each operation is one step (one transaction) with the digest of the table
after it, so undo, history and resume work as for games. Tables are plain JSON; the operations
are validated here with typed errors naming the field and the allowed values.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from warbench.kernel.errors import ProfileError
from warbench.play.core import JSON, digest_of
from warbench.storage.games import NewGame, StepData, TokenData
from warbench.web.play.service import AccessDenied, PlayService, token_hash

CORE = "001_d3f5e425c5e1196d.txt"
#: The phases of a Game Turn (§2.2 steps 2-6; Deploy only while units are in Reserve).
PHASES = ("Deploy", "Move", "Attack", "Dash")
LOCATIONS = ("reserve", "table", "embarked", "destroyed")
OPS = (
    "hp",
    "remove",
    "restore",
    "move_to",
    "status",
    "clear_status",
    "uses",
    "cp",
    "next_phase",
    "set_turn",
    "turn_master",
    "hide_value",
    "end_game",
    "note",
)


def new_table(rosters: Sequence[Mapping[str, Any]], hide_value: bool = False) -> dict[str, JSON]:
    """The table at the start: every unit of every roster in Reserve at full HP (§3.6)."""
    from warbench.rulesets.warsurge.game.io import roster_from_data

    if len(rosters) < 2:
        raise ProfileError("rosters", len(rosters), "two or more rosters (§2.1)")
    sides: list[dict[str, JSON]] = []
    units: list[dict[str, JSON]] = []
    for s, data in enumerate(rosters):
        player = roster_from_data(data, f"rosters[{s}]")
        total = 0.0
        for e in player.roster:
            models = sum(g.count for g in e.unit.models)
            points = float(e.points or 0)
            total += points
            units.append(
                {
                    "id": len(units),
                    "side": s,
                    "name": e.name or e.unit.name,
                    "points": points,
                    "hp_per_model": e.unit.profile.hp,
                    "hp": [e.unit.profile.hp] * models,
                    "removed": [False] * models,
                    "loc": "reserve",
                    "statuses": [],
                    "uses": {},
                }
            )
        sides.append({"name": player.name, "team": player.team, "roster_points": total, "cp": 0})
    return {
        "turn": 1,
        "phase": PHASES[0],
        "turn_master": None,
        "hide_value": bool(hide_value),
        "over": False,
        "sides": sides,
        "units": units,
        "notes": [],
    }


def unit_value(u: Mapping[str, Any]) -> float:
    """A unit's current Point Value: §2.2 step 8 (0 unless on the Battlefield)."""
    from warbench.rulesets.warsurge.points import current_point_cost

    if u["loc"] not in ("table", "embarked"):
        return 0.0
    full = int(u["hp_per_model"]) * len(u["hp"])
    left = sum(max(0, h) for h, gone in zip(u["hp"], u["removed"], strict=True) if not gone)
    if full <= 0:
        return 0.0
    return float(current_point_cost(float(u["points"]), full, left))


def standings(table: Mapping[str, Any]) -> dict[str, JSON]:
    """Each side's value on the Battlefield, each team's, and who wins now (§2.2 step 8):
    the most value remaining; a shared most is a draw."""
    values = [0.0] * len(table["sides"])
    for u in table["units"]:
        values[u["side"]] += unit_value(u)
    teams: dict[str, float] = {}
    for s, side in enumerate(table["sides"]):
        key = str(side.get("team") or side["name"] or s)
        teams[key] = teams.get(key, 0.0) + values[s]
    best = max(teams.values()) if teams else 0.0
    leaders = [k for k, v in teams.items() if abs(v - best) < 1e-9]
    return {
        "values": [round(v, 2) for v in values],
        "teams": {k: round(v, 2) for k, v in teams.items()},
        "winner": leaders[0] if len(leaders) == 1 else None,
        "rule": f"{CORE} §2.2 step 8",
    }


def _unit(table: dict[str, Any], op: Mapping[str, Any]) -> dict[str, Any]:
    uid = op.get("unit")
    if not isinstance(uid, int) or not 0 <= uid < len(table["units"]):
        raise ProfileError("op.unit", uid, f"a unit id 0 to {len(table['units']) - 1}")
    unit: dict[str, Any] = table["units"][uid]
    return unit


def _model(u: Mapping[str, Any], op: Mapping[str, Any]) -> int:
    k = op.get("model")
    if not isinstance(k, int) or not 0 <= k < len(u["hp"]):
        raise ProfileError("op.model", k, f"a model index 0 to {len(u['hp']) - 1}")
    return k


def _int(op: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    v = op.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ProfileError(f"op.{key}", v, f"a whole number {lo} to {hi}")
    return v


def apply_op(table: Mapping[str, Any], op: Mapping[str, Any]) -> dict[str, Any]:
    """The table after one operation (the input is unchanged); a bad operation raises a
    :class:`ProfileError` naming the field and the allowed values."""
    t: dict[str, Any] = copy.deepcopy(dict(table))
    kind = op.get("op")
    if kind not in OPS:
        raise ProfileError("op.op", kind, ", ".join(OPS))
    if kind == "hp":
        u = _unit(t, op)
        k = _model(u, op)
        u["hp"][k] = _int(op, "hp", 0, int(u["hp_per_model"]))
    elif kind in ("remove", "restore"):
        u = _unit(t, op)
        k = _model(u, op)
        u["removed"][k] = kind == "remove"
        if kind == "remove":  # a model removed has no HP left (§5.11): one operation, one line
            u["hp"][k] = 0
        if kind == "restore" and u["hp"][k] == 0:
            u["hp"][k] = int(u["hp_per_model"])
        if all(u["removed"]) and u["loc"] == "table":
            u["loc"] = "destroyed"
        elif kind == "restore" and u["loc"] == "destroyed":
            u["loc"] = "table"
    elif kind == "move_to":
        u = _unit(t, op)
        loc = op.get("loc")
        if loc not in LOCATIONS:
            raise ProfileError("op.loc", loc, ", ".join(LOCATIONS))
        u["loc"] = loc
    elif kind == "status":
        u = _unit(t, op)
        name = op.get("name")
        if not isinstance(name, str) or not 0 < len(name.strip()) <= 60:
            raise ProfileError("op.name", name, "a marker name of 1 to 60 characters")
        turns = op.get("turns")
        if turns is not None:
            turns = _int(op, "turns", 1, 99)
        u["statuses"] = [s for s in u["statuses"] if s["name"] != name.strip()]
        u["statuses"].append({"name": name.strip(), "turns": turns})
    elif kind == "clear_status":
        u = _unit(t, op)
        u["statuses"] = [s for s in u["statuses"] if s["name"] != op.get("name")]
    elif kind == "uses":
        u = _unit(t, op)
        name = op.get("name")
        if not isinstance(name, str) or not 0 < len(name) <= 60:
            raise ProfileError("op.name", name, "the name of a limited use (1 to 60 characters)")
        u["uses"][name] = _int(op, "count", 0, 99)
    elif kind == "cp":
        s = _int(op, "side", 0, len(t["sides"]) - 1)
        t["sides"][s]["cp"] = _int(op, "count", 0, 999)
    elif kind == "next_phase":
        i = PHASES.index(t["phase"]) if t["phase"] in PHASES else 0
        if i + 1 < len(PHASES):
            t["phase"] = PHASES[i + 1]
        else:
            _end_game_turn(t)
    elif kind == "set_turn":
        t["turn"] = _int(op, "turn", 1, 99)
        phase = op.get("phase", t["phase"])
        if phase not in PHASES:
            raise ProfileError("op.phase", phase, ", ".join(PHASES))
        t["phase"] = phase
    elif kind == "turn_master":
        t["turn_master"] = _int(op, "side", 0, len(t["sides"]) - 1)
    elif kind == "hide_value":
        t["hide_value"] = bool(op.get("on"))
    elif kind == "end_game":
        t["over"] = bool(op.get("on", True))
    elif kind == "note":
        text = op.get("text")
        if not isinstance(text, str) or not 0 < len(text) <= 500:
            raise ProfileError("op.text", text, "a note of 1 to 500 characters")
        t["notes"].append({"turn": t["turn"], "phase": t["phase"], "text": text})
    return t


def _end_game_turn(t: dict[str, Any]) -> None:
    """The next Game Turn starts (§2.2 step 7): markers with a duration count down; the Turn
    Master is rolled for again on the table (left for the players to set)."""
    t["turn"] += 1
    t["phase"] = PHASES[0] if any(u["loc"] == "reserve" for u in t["units"]) else PHASES[1]
    for u in t["units"]:
        kept = []
        for s in u["statuses"]:
            if s["turns"] is None:
                kept.append(s)
            elif s["turns"] > 1:
                kept.append({**s, "turns": s["turns"] - 1})
        u["statuses"] = kept


def describe(op: Mapping[str, Any], table: Mapping[str, Any]) -> str:
    """A line of history for an operation."""
    kind = op.get("op")
    units = table.get("units") or []
    uid = op.get("unit")
    name = units[uid]["name"] if isinstance(uid, int) and 0 <= uid < len(units) else ""
    model = op.get("model")
    # models numbered from 1, as each HP chip's tooltip says ("model 1"); it said "model 0"
    which = f"model {model + 1}" if isinstance(model, int) else f"model {model}"
    if kind == "hp":
        return f"{name}: {which} at {op.get('hp')} HP"
    if kind in ("remove", "restore"):
        return f"{name}: {which} {'removed' if kind == 'remove' else 'restored'}"
    if kind == "move_to":
        return f"{name}: to {op.get('loc')}"
    if kind == "status":
        turns = op.get("turns")
        return f"{name}: {op.get('name')}" + (f" for {turns} Game Turns" if turns else "")
    if kind == "clear_status":
        return f"{name}: {op.get('name')} removed"
    if kind == "next_phase":
        return "next phase"
    sides = table.get("sides") or []
    s = op.get("side")
    side = sides[s]["name"] if isinstance(s, int) and 0 <= s < len(sides) else s
    if kind == "turn_master":
        return f"Turn Master: {side}"
    # the rest in words too, not the operation's fields ("op end_game, on True", session 33)
    if kind == "cp":
        return f"{side}: {op.get('count')} CP"
    if kind == "uses":
        return f"{name}: {op.get('name')}, {op.get('count')} left"
    if kind == "set_turn":
        return f"Game Turn {op.get('turn')}" + (f", {op['phase']} Phase" if op.get("phase") else "")
    if kind == "hide_value":
        return "roster values hidden" if op.get("on") else "roster values shown"
    if kind == "end_game":
        return "the game ends (§2.2 step 8)" if op.get("on", True) else "the game goes on"
    if kind == "note":
        return f"note: {op.get('text')}"
    return ", ".join(f"{k} {v}" for k, v in op.items())


class PlayManager:
    """Tables over the play service's storage (mode ``"manager"``)."""

    def __init__(self, service: PlayService) -> None:
        self.service = service
        self.games = service.games

    def create(
        self, rosters: Sequence[Mapping[str, Any]], hide_value: bool = False, title: str = ""
    ) -> tuple[str, str]:
        """Start a table; returns its id and its secret token."""
        start = new_table(rosters, hide_value)
        table_id = secrets.token_hex(6)
        token = secrets.token_urlsafe(18)
        self.games.create(
            NewGame(
                id=table_id,
                ruleset="warsurge",
                ruleset_version="play-manager-1",
                seed=0,
                setup={"rosters": list(rosters), "board": None, "options": {}, "table": start},
                digest=digest_of(start),
                mode="manager",
                seats=("human",) * len(rosters),
                title=title[:120],
            ),
            [
                (
                    token_hash(token),
                    TokenData(table_id, "player", tuple(range(len(rosters))), "table"),
                )
            ],
        )
        return table_id, token

    def _load(self, table_id: str, token: str | None) -> tuple[Any, dict[str, Any]]:
        data = self.service.load(table_id)
        if data.mode != "manager":
            raise AccessDenied("not a Play Manager table")
        t = self.service.require(table_id, token)
        if not t.seats:
            raise AccessDenied("a spectator's link cannot change the table")
        table: dict[str, Any] = data.setup["table"]
        for st in data.steps:
            table = apply_op(table, st.action)
        return data, table

    def state(self, table_id: str, token: str | None) -> dict[str, JSON]:
        """The table, the standings (values hidden under "hide roster value" until the game
        ends) and the history."""
        data, table = self._load(table_id, token)
        stand = standings(table)
        shown = dict(table)
        if table["hide_value"] and not table["over"]:
            stand = {"hidden": True, "rule": stand["rule"]}
            shown = {
                **table,
                "units": [{**u, "points": None} for u in table["units"]],
                "sides": [{**s, "roster_points": None} for s in table["sides"]],
            }
        else:
            for u, out in zip(table["units"], shown["units"], strict=True):
                out["value"] = round(unit_value(u), 2)
        hist = self.games.history(table_id)
        return {
            "id": table_id,
            "title": data.title,
            "table": shown,
            "standings": stand,
            "phases": list(PHASES),
            "steps": len(data.steps),
            "revision": data.revision,
            "history": [
                {"step": h.step, "text": describe(h.action, table), "undone": h.undone}
                for h in hist[-200:]
            ],
            "can_undo": bool(data.steps),
        }

    def apply(self, table_id: str, token: str | None, op: Mapping[str, Any]) -> dict[str, JSON]:
        """Apply one operation as one transaction."""
        with self.service._lock(table_id):
            data, table = self._load(table_id, token)
            after = apply_op(table, op)
            step = StepData(len(data.steps) + 1, 0, dict(op), digest_of(after), "human")
            self.games.append(table_id, len(data.steps), [step], None)
        self.service._notify(table_id)
        return self.state(table_id, token)

    def undo(self, table_id: str, token: str | None) -> dict[str, JSON]:
        """Take back the last operation (the history keeps it, marked)."""
        with self.service._lock(table_id):
            data, _ = self._load(table_id, token)
            if not data.steps:
                raise ProfileError("undo", 0, "a table with at least one change")
            self.games.undo(table_id, len(data.steps), len(data.steps) - 1)
        self.service._notify(table_id)
        return self.state(table_id, token)
