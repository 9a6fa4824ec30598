"""Collision's grid battle in the page (003_fc239e71486306e1.txt, docs/collision-game.md).

The scene is the board of squares (1 unit = one square, ``y`` up, as the view gives it): the
elevation of each square (L375-395), its terrain (obstacle, vertical obstacle, impassable,
L397-577), the two deployment zones (L632-674), the objective tokens (L557-565) and each
character as a token with its facing (L917-920), Endurance, Mana, injuries and statuses in
its title. ``spots`` puts every listed action of the pending decision on a square: a move on
its destination, an attack on its target, a deployment on its square, an activation on the
character, so a person plays by tapping highlighted squares. Everything is read from the view
(what that player may see) and the ruleset's public tables; no rule is decided here.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from warbench.play.core import JSON
from warbench.web.play.scenes import Presenter, examples_root, said_event

#: A facing as a unit vector on the board (y up).
FACING = {"N": (0.0, 1.0), "E": (1.0, 0.0), "S": (0.0, -1.0), "W": (-1.0, 0.0)}
GROUPS = ("deadholm_scouts.yaml", "guelivere_band.yaml")


class CollisionPresenter(Presenter):
    """The Collision grid: squares, tokens, characters and the squares each action targets."""

    def presets(self) -> list[dict[str, JSON]]:
        """The two example battle groups on the sample board: a short game and a full one."""
        from warbench.rulesets.collision.io import load, to_data

        root = examples_root("collision")
        paths = [root / f for f in GROUPS]
        if not all(p.exists() for p in paths):
            return []
        groups: list[JSON] = [to_data(load(p)) for p in paths]
        return [
            {
                "name": f"Deadholm scouts against Guelivere band ({n} turns)",
                "setup": {"rosters": groups, "board": None, "options": {"turn_limit": n}},
            }
            for n in (2, 5)
        ]

    def event_words(self, event: dict[str, JSON], names: Sequence[str] = ()) -> dict[str, JSON]:
        """The engine's text in a player's words (whose Command contest total is whose, the
        diagonal, Endurance now: :func:`~warbench.rulesets.collision.game.words.said`); the
        record keeps the engine's text."""
        from warbench.rulesets.collision.game.words import said

        return said_event(event, said, names)

    def result_words(self, result: dict[str, JSON], names: Sequence[str] = ()) -> dict[str, JSON]:
        """The reason without the winner's name the result line says already."""
        from warbench.rulesets.collision.game.words import result_reason

        reason = result.get("reason")
        return {**result, "reason": result_reason(reason)} if isinstance(reason, str) else result

    def scene(self, setup: dict[str, JSON], view: JSON) -> dict[str, JSON] | None:
        """The squares, the zones, the tokens and the characters on the board."""
        if not isinstance(view, dict) or not isinstance(view.get("board"), dict):
            return None
        from warbench.rulesets.collision.game.render import letters

        b = view["board"]
        cols, rows = int(b["cols"]), int(b["rows"])
        areas: list[dict[str, JSON]] = []
        groups = [str(g) for g in view.get("groups") or []]
        for key, squares in _zones(view).items():
            side = _zone_side(view, key)
            # whose, once it is taken (L626-628): "above deployment zone of Guelivere band"
            taken = key in (view.get("zones") or []) and side < len(groups)
            name = f"{key} deployment zone" + (f" of {groups[side]}" if taken else "")
            for x, y in sorted(squares):
                areas.append(_cell(x, y, "zone", name, [f"side-{side}"]))
        for y, row in enumerate(b["elevation"]):
            for x, level in enumerate(row):
                if level > 1:
                    areas.append(
                        _cell(x, y, "cell", f"elevation {level}", [f"elev-{min(level, 5)}"])
                    )
        for t in b["terrain"]:
            x, y, kind, height = int(t[0]), int(t[1]), str(t[2]), int(t[3])
            name = kind.replace("-", " ") + (f", height {height}" if height else "")
            areas.append(_cell(x, y, "terrain", name, [kind]))
        names = letters(view)
        pieces: list[dict[str, JSON]] = []
        off: list[dict[str, JSON]] = []
        for u in view.get("units") or []:
            title = _title(u)
            if u.get("pos") is None:
                if u.get("where") in ("hand", "reserve"):
                    off.append(
                        {"unit": u["id"], "side": u["owner"], "label": u["name"], "loc": u["where"]}
                    )
                continue
            x, y = u["pos"]
            tags = [t for t in ("statue",) if u.get("statue")]
            if view.get("active") == u["id"]:
                tags.append("active")
            if u.get("activated"):
                tags.append("done")
            tags += sorted(str(k) for k, v in (u.get("statuses") or {}).items() if v)
            pieces.append(
                {
                    "unit": u["id"],
                    "side": u["owner"],
                    "label": u["name"],
                    "letter": names[u["id"]],
                    "x": x + 0.5,
                    "y": y + 0.5,
                    "r": 0.4,
                    "facing": list(FACING.get(str(u.get("facing")), (0.0, 1.0))),
                    "hp": u["toughness"] - u["injuries"],
                    "tags": tags,
                    "title": title,
                }
            )
        tokens = [
            {
                "x": m["at"][0] + 0.5,
                "y": m["at"][1] + 0.5,
                "kind": m["kind"],
                "label": _MARK.get(m["kind"], "?"),
                "title": f"{m['kind']} token"
                + (" (carried)" if m.get("holder") is not None else ""),
            }
            for m in view.get("markers") or []
            if m.get("at") is not None and not m.get("gone")
        ]
        labels = {str(u["id"]): f"{names[u['id']]} {u['name']}" for u in view.get("units") or []}
        return {
            "width": cols,
            "height": rows,
            "grid": {"cols": cols, "rows": rows},
            "areas": areas,
            "pieces": pieces,
            "tokens": tokens,
            "off_table": off,
            "labels": labels,
        }

    def odds(
        self,
        setup: dict[str, JSON],
        view: JSON,
        action: JSON,
        state: Any = None,
        player: int | None = None,
    ) -> dict[str, JSON] | None:
        """The exact odds of an attack against each character it affects, as the game would
        resolve it now, before any reaction: the game's own attack profile
        (``attacks.profile``: reach, cover from the board, elevation, the back facing,
        injuries, hexes, auras, the ability's bonuses; L914-1101) read by the Collision odds
        kernel (``collision.odds.attack_odds``, as ``warbench collision odds``). Nothing of
        the state is hidden from the attacker here: the board and the characters are open
        (only the piles and a Map Carrier are secret, and no attack reads them)."""
        if not (isinstance(action, dict) and action.get("kind") == "attack"):
            return None
        if state is None or player is None:
            return None
        from warbench.kernel.errors import WarbenchError
        from warbench.play.registry import get_ruleset
        from warbench.rulesets.collision.game.attacks import (
            profile,
            spec_of,
            targets_of,
            weapon_of,
        )
        from warbench.rulesets.collision.game.core import Game
        from warbench.rulesets.collision.game.state import AttackCtx
        from warbench.rulesets.collision.odds import attack_odds

        rs = get_ruleset("collision")
        try:
            a = rs.actions.load(action)
        except WarbenchError as exc:
            return {"targets": [], "refused": str(exc)}
        refusal = rs.check(state, a, player)
        if refusal is not None:
            return {"targets": [], "refused": f"{refusal.reason} [{refusal.rule}]"}

        def no_dice(label: str) -> int:
            raise WarbenchError("odds roll no dice")

        g = Game(state, no_dice, readonly=True)
        if state.active is None:
            return {"targets": []}
        u = g.unit(state.active)
        spec = spec_of(a.ability)
        w = weapon_of(g, u, a.weapon) if spec.weapon else None
        out: list[dict[str, JSON]] = []
        for t in targets_of(g, u, a):
            ctx = AttackCtx(u.uid, t.uid, a.ability, w.name if w else None, centre=a.at)
            prof = profile(g, ctx, t)
            odds = attack_odds(prof)
            out.append(
                {
                    "target": t.uid,
                    "label": t.name,
                    "weapons": [a.ability or (w.name if w else "attack")],
                    "exact": True,
                    "hit": float(odds.hit),
                    "crit": float(odds.crit),
                    "cover_miss": float(odds.cover_miss),
                    "expected_injury": float(odds.expected_injury),
                    "defeated": float(odds.defeated),
                    "situation": {
                        "cover": prof.cover.value != "none",
                        "cover_kind": prof.cover.value,
                    },
                }
            )
        return {"targets": out}

    def spots(
        self, setup: dict[str, JSON], view: JSON, actions: list[JSON]
    ) -> list[dict[str, JSON] | None]:
        """The square each listed action is about (its centre), how to mark it, and the
        character it belongs to (for the unit chips)."""
        if not isinstance(view, dict):
            return [None] * len(actions)
        where = {u["id"]: u["pos"] for u in view.get("units") or [] if u.get("pos") is not None}
        active = view.get("active")
        return [_spot(a, where, active) for a in actions]

    def family_labels(
        self, setup: dict[str, JSON], view: JSON, families: list[JSON], examples: list[JSON]
    ) -> list[str | None]:
        """As the generic words; the deployment of several characters and the sorting of
        the hand (L682-686) by what they do."""
        out = super().family_labels(setup, view, families, examples)
        for k, f in enumerate(families):
            name = f.get("name") if isinstance(f, dict) else None
            if out[k] is None and name == "deploy":
                out[k] = "deploy a character at a square you choose, facing as you choose"
            elif out[k] is None and name == "piles":
                out[k] = "sort your hand into the phase 1, 2 and 3 piles yourself (L682-686)"
        return out

    def labels(self, setup: dict[str, JSON], view: JSON, actions: list[JSON]) -> list[str | None]:
        """Each action in words (:func:`warbench.rulesets.collision.game.words.describe`):
        characters by name, the piles of L682-686 by the characters in each (they were
        ``piles: piles [[0, 1], [2, 3], [4, 5]]``, session 33)."""
        from warbench.rulesets.collision.game.words import describe

        return [describe(view, a) for a in actions]


_MARK = {
    "chest": "$",
    "flag": "F",
    "relic": "R",
    "orb": "o",
    "crate": "c",
    "shard": "*",
    "trinket": "t",
    "blessed": "+",
    "cursed": "−",
    "obelisk": "O",
    "statue": "S",
    "tower": "T",
    "meteor": "☄",
}


def _cell(x: int, y: int, kind: str, name: str, tags: list[str]) -> dict[str, JSON]:
    return {
        "kind": kind,
        "name": f"({x},{y}) {name}",
        "tags": list(tags),
        "points": [[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1]],
    }


def _title(u: dict[str, Any]) -> str:
    bits = [
        f"{u['name']} ({u['card']})",
        f"E {u['endurance']} M {u['mana']}",
        f"injuries {u['injuries']}/{u['toughness']}",
        f"facing {u['facing']}",
    ]
    st = ", ".join(f"{k} {v}" for k, v in sorted((u.get("statuses") or {}).items()) if v)
    if st:
        bits.append(st)
    if u.get("luck"):
        bits.append(f"luck {u['luck']}")
    if u.get("pile") is not None and u.get("where") != "defeated":
        bits.append(f"phase {u['pile']}")
    return " · ".join(bits)


def _zones(view: dict[str, Any]) -> dict[str, frozenset[tuple[int, int]]]:
    """The deployment zones of the view's objective (its style) on its board (L632-674)."""
    keys = [k for k in view.get("zones") or [] if k]
    if not keys:
        return {}
    try:
        every = _all_zones(
            str(view["objectives"]["major"]),
            int(view["board"]["cols"]),
            int(view["board"]["rows"]),
            bool(view.get("rising", True)),
        )
    except (KeyError, LookupError, ValueError):
        return {}
    return {k: every[k] for k in keys if k in every}


@cache
def _all_zones(
    major: str, cols: int, rows: int, rising: bool
) -> dict[str, frozenset[tuple[int, int]]]:
    from warbench.rulesets.collision import deployment as zones_mod
    from warbench.rulesets.collision import objectives as obj

    style = obj.find(major, major=True).deployment
    if style is None:
        return {}
    if style is obj.Deployment.DIAGONAL:
        return dict(zones_mod.diagonal_zones(cols, rows, rising=rising))
    return dict(zones_mod.zones(style, cols, rows))


def _zone_side(view: dict[str, Any], key: str) -> int:
    zones = list(view.get("zones") or [])
    return zones.index(key) if key in zones else 0


def _centre(sq: Any) -> list[float] | None:
    if isinstance(sq, list | tuple) and len(sq) == 2:
        return [float(sq[0]) + 0.5, float(sq[1]) + 0.5]
    return None


def _spot(a: JSON, where: dict[int, list[int]], active: int | None) -> dict[str, JSON] | None:
    if not isinstance(a, dict):
        return None
    kind = a.get("kind")
    at: list[float] | None = None
    mark = str(kind)
    actor = None
    if kind in ("marker",):
        at, mark = _centre(a.get("at")), "place"
    elif kind == "deploy":
        at, mark, actor = _centre(a.get("at")), "deploy", a.get("unit")
    elif kind in ("activate", "nominate"):
        at, mark = _centre(where.get(int(a["unit"]))), "select"
    elif kind == "move":
        at, mark = _centre(a.get("to")), f"move {a.get('mode')}"
    elif kind == "attack":
        line = a.get("line") or []
        target = a.get("target")
        at = _centre(a.get("at")) or (
            _centre(where.get(int(target))) if target is not None else None
        )
        if at is None and line:
            at = _centre(line[0])
        mark = "attack"
    elif kind == "ability":
        target = a.get("target")
        at = _centre(a.get("at")) or (
            _centre(where.get(int(target))) if target is not None else None
        )
        if at is None and active is not None:
            at = _centre(where.get(active))
        mark = "ability"
    elif kind == "hold":
        at, mark = (_centre(where.get(active)) if active is not None else None), "hold"
    elif kind == "react" and a.get("ability"):
        target = a.get("target")
        at = _centre(a.get("at")) or (
            _centre(where.get(int(target))) if target is not None else None
        )
        if at is None and a.get("unit") is not None:
            at = _centre(where.get(int(a["unit"])))
        mark = "react"
    elif kind == "knockback":
        at, mark = _centre(a.get("to")), "push"
    if at is None:
        return None
    out: dict[str, JSON] = {"x": at[0], "y": at[1], "mark": mark}
    if actor is not None:
        out["actor"] = actor
    return out
