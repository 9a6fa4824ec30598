"""How a ruleset's games look in the page: presenters over the protocol's views.

The play layer knows only the protocol; drawing a board needs to know what a view's fields
mean. A :class:`Presenter` turns a set-up and a view (JSON) into a *scene* (the board's size in
inches, areas such as terrain and zones, and pieces: one disc per model, grouped by unit) and
may offer sample set-ups and the odds of an attack action. Rulesets without a presenter get the
generic one: no board (the page shows the view as data), the set-up typed as JSON. Presenters
read only the view, the set-up JSON and the ruleset's public data API (boards, unit files,
the odds engine), never an engine's state.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any

from warbench.play.core import JSON

#: ruleset id -> ``"module:attr"`` of its presenter (imported on first use).
PRESENTERS: dict[str, str] = {
    "toy-duel": "warbench.web.play.scenes:DuelPresenter",
    "warsurge": "warbench.web.play.scenes:WarsurgePresenter",
}


class Presenter:
    """The generic presenter: no board, no presets, seat names from the rosters."""

    def presets(self) -> list[dict[str, JSON]]:
        """Sample set-ups a player can start from (``{"name", "setup"}``)."""
        return []

    def seat_names(self, setup: dict[str, JSON], seats: int) -> list[str]:
        """A name per seat: the roster's ``name``/``player`` when it has one."""
        out = []
        for i, r in enumerate(list(setup.get("rosters") or [])[:seats]):
            name = r.get("name") or r.get("player") if isinstance(r, dict) else None
            out.append(str(name) if name else f"Player {i + 1}")
        return out + [f"Player {i + 1}" for i in range(len(out), seats)]

    def scene(self, setup: dict[str, JSON], view: JSON) -> dict[str, JSON] | None:
        """The board to draw, or ``None`` (the page then shows the view as data)."""
        return None

    def odds(self, setup: dict[str, JSON], view: JSON, action: JSON) -> dict[str, JSON] | None:
        """The exact odds of an attack action now, where the ruleset offers them."""
        return None


@cache
def presenter(ruleset_id: str) -> Presenter:
    """The presenter of a ruleset (the generic one when it has none)."""
    entry = PRESENTERS.get(ruleset_id)
    if entry is None:
        return Presenter()
    module, _, attr = entry.partition(":")
    made: Presenter = getattr(import_module(module), attr)()
    return made


class DuelPresenter(Presenter):
    """Dice Duel (``play.toy``): a line of ``length`` inches with the two duellists on it."""

    def presets(self) -> list[dict[str, JSON]]:
        """The toy's sample set-up."""
        from warbench.play.toy import SAMPLE_SETUP

        return [{"name": "Red against Blue (6 rounds)", "setup": SAMPLE_SETUP}]

    def scene(self, setup: dict[str, JSON], view: JSON) -> dict[str, JSON] | None:
        """The line and the duellists (HP shown when the view shows it)."""
        if not isinstance(view, dict) or not isinstance(view.get("pos"), list):
            return None
        length = float(view.get("length") or 10.0)
        names = list(view.get("names") or ["0", "1"])
        hp = list(view.get("hp") or [None, None])
        pieces = []
        for p, x in enumerate(view["pos"]):
            h = hp[p] if p < len(hp) else None
            pieces.append(
                {
                    "unit": p,
                    "side": p,
                    "label": str(names[p]),
                    "x": float(x),
                    "y": 0.75 if p == 0 else 1.25,  # side by side when they meet
                    "r": 0.35,
                    "title": f"{names[p]}: HP {'?' if h is None else h}",
                }
            )
        return {
            "width": length,
            "height": 2.0,
            "areas": [
                {
                    "kind": "zone",
                    "name": "the line",
                    "points": [[0, 0.95], [length, 0.95], [length, 1.05], [0, 1.05]],
                }
            ],
            "pieces": pieces,
        }


class WarsurgePresenter(Presenter):
    """WARSURGE: the board of the set-up (terrain, Deployment Zones) to scale, every model on
    the table as a disc of its base's radius, and the exact odds of an attack."""

    ROSTERS = ("skirmish_a.yaml", "skirmish_b.yaml")

    def presets(self) -> list[dict[str, JSON]]:
        """The two 300-point skirmish rosters and the two example armies."""
        from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data

        root = _examples()
        out: list[dict[str, JSON]] = []
        for name, files in (
            ("Skirmish: 300 points each, ruins", self.ROSTERS),
            ("Sci-fi humans against scavengers", ("sci_fi_humans.yaml", "scavengers.yaml")),
        ):
            paths = [root / f for f in files]
            if not all(p.exists() for p in paths):
                continue
            rosters = [roster_to_data(load_game_roster(p)) for p in paths]
            out.append(
                {
                    "name": name,
                    "setup": {
                        "rosters": rosters,
                        "board": "ruins_48x48",
                        "options": {
                            "automation": ["model placement", "casualty selection", "coherency"],
                            "game_length": 4,
                        },
                    },
                }
            )
        return out

    def seat_names(self, setup: dict[str, JSON], seats: int) -> list[str]:
        """The rosters' player names."""
        return super().seat_names(setup, seats)

    @staticmethod
    @cache
    def _board(board_json: str) -> dict[str, JSON]:
        import json

        from warbench.rulesets.warsurge.battlefield import board_from_data, sample_board

        data = json.loads(board_json)
        board = sample_board(data or "ruins_48x48") if not isinstance(data, dict) else None
        if board is None:
            board = board_from_data(data, "board")
        areas: list[dict[str, JSON]] = []
        for z in board.zones:
            areas.append({"kind": "zone", "name": z.name, "points": [list(p) for p in z.polygon]})
        for t in board.terrain:
            tags = [
                tag
                for tag, on in (
                    ("impassable", t.impassable),
                    ("blocks-los", t.blocks_los),
                    ("difficult", t.difficult),
                    ("dangerous", t.dangerous is not None),
                    ("cover", t.cover > 0 or t.cover_area),
                )
                if on
            ]
            areas.append(
                {
                    "kind": "terrain",
                    "name": t.name,
                    "tags": tags,
                    "points": [list(p) for p in t.polygon],
                }
            )
        return {"width": board.width, "height": board.height, "areas": areas}

    def scene(self, setup: dict[str, JSON], view: JSON) -> dict[str, JSON] | None:
        """The board and every model on the table."""
        import json

        if not isinstance(view, dict):
            return None
        try:
            base = self._board(json.dumps(setup.get("board"), sort_keys=True))
        except Exception:  # a board the page cannot draw: show the view as data
            return None
        pieces: list[dict[str, JSON]] = []
        reserves: list[dict[str, JSON]] = []
        for u in view.get("units") or []:
            if not isinstance(u, dict):
                continue
            uid = u.get("uid")
            hp = list(u.get("hp") or [])
            removed = list(u.get("removed") or [])
            alive = sum(1 for k in range(len(hp)) if not (k < len(removed) and removed[k]))
            title = f"{u.get('label')} · {alive}/{u.get('models')} models"
            statuses = [s[0] for s in u.get("st") or [] if isinstance(s, list) and s]
            if statuses:
                title += " · " + ", ".join(map(str, statuses))
            if u.get("loc") != "table":
                reserves.append(
                    {
                        "unit": uid,
                        "side": u.get("side"),
                        "label": u.get("label"),
                        "loc": u.get("loc"),
                    }
                )
                continue
            for k, p in enumerate(u.get("pos") or []):
                if k < len(removed) and removed[k]:
                    continue
                pieces.append(
                    {
                        "unit": uid,
                        "side": u.get("side"),
                        "label": u.get("label"),
                        "x": p[0],
                        "y": p[1],
                        "r": u.get("radius") or 0.5,
                        "hp": hp[k] if k < len(hp) else None,
                        "title": title,
                    }
                )
        return {**base, "pieces": pieces, "off_table": reserves}

    def odds(self, setup: dict[str, JSON], view: JSON, action: JSON) -> dict[str, JSON] | None:
        """The exact odds of an ``attack`` action against each target, as the units stand
        now (models removed, HP lost): the odds engine the Odds page and the CLI use."""
        if not (isinstance(action, dict) and action.get("kind") == "attack"):
            return None
        if not isinstance(view, dict):
            return None
        units = {u.get("uid"): u for u in view.get("units") or [] if isinstance(u, dict)}
        attacker = units.get(action.get("unit"))
        if attacker is None:
            return None
        by_target: dict[int, list[str]] = {}
        for pair in action.get("targets") or []:
            if isinstance(pair, list) and len(pair) == 2:
                by_target.setdefault(int(pair[1]), []).append(str(pair[0]))
        melee = any(
            attacker.get("uid") in p and t in p
            for t in by_target
            for p in (view.get("engaged") or [])
        )
        out = []
        for tid, weapons in by_target.items():
            target = units.get(tid)
            if target is None:
                continue
            out.append({"target": tid, **_unit_odds(setup, attacker, target, weapons, melee)})
        return {"targets": out}


def _examples() -> Any:
    from pathlib import Path

    return Path(__file__).resolve().parents[4] / "examples" / "warsurge" / "rosters"


def _profile(setup: dict[str, JSON], u: dict[str, JSON]) -> Any:
    """The unit file of a view's unit: its roster's entry (uids count the rosters' units in
    order), checked against the profile name the view gives."""
    from warbench.rulesets.warsurge.io import unit_from_data

    rosters = list(setup.get("rosters") or [])
    uid = int(u["uid"])
    for r in rosters:
        entries = list(r.get("units") or [])
        if uid < len(entries):
            data = entries[uid]
            if data.get("unit", {}).get("name") != u.get("profile"):
                raise LookupError(f"unit {uid} is not {u.get('profile')!r}")
            unit_data = {k: data[k] for k in ("unit", "weapons", "models") if k in data}
            return unit_from_data(unit_data, source="setup", prefix=f"unit {uid}")
        uid -= len(entries)
    raise LookupError(f"no unit {u['uid']}")


def _unit_odds(
    setup: dict[str, JSON],
    attacker: dict[str, JSON],
    target: dict[str, JSON],
    weapons: list[str],
    melee: bool,
) -> dict[str, JSON]:
    from warbench.kernel.errors import WarbenchError
    from warbench.rulesets.warsurge.attack import AttackContext, UnitState
    from warbench.rulesets.warsurge.odds import AttackPlan, attack_odds

    try:
        a_state = _state(_profile(setup, attacker), attacker)
        t_state = _state(_profile(setup, target), target)
        plan = AttackPlan(a_state, t_state, AttackContext(melee=melee), weapons=tuple(weapons))
        plan.verify_weapons()
        odds = attack_odds(plan, seed=0)
    except (WarbenchError, LookupError, ValueError) as exc:
        return {"error": str(exc)}
    _ = UnitState
    return {
        "label": target.get("label"),
        "weapons": weapons,
        "exact": odds.exact,
        "expected_hp_lost": odds.expected_hp_lost,
        "expected_models_slain": odds.expected_models_slain,
        "wipe_chance": odds.wipe_chance,
        "hp_lost": {str(k): v for k, v in sorted(odds.hp_lost.items())},
    }


def _state(unit: Any, u: dict[str, JSON]) -> Any:
    """The attack kernel's unit state with the view's HP and removed models."""
    from warbench.rulesets.warsurge.attack import UnitState

    st = UnitState.of(unit)
    hp = list(u.get("hp") or [])
    removed = list(u.get("removed") or [])
    for k, m in enumerate(st.models):
        if k < len(hp):
            m.hp = int(hp[k])
        if k < len(removed):
            m.removed = bool(removed[k])
    return st
