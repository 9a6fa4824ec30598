"""The WarEngine 2.1 game in the page (004_f4ea5693af0644ce.txt, docs/warengine-game.md).

The scene is the battlefield to scale in inches (the WARSURGE board format the game uses:
terrain drawn as :class:`~warbench.web.play.scenes.WarsurgePresenter` draws it), the two
placing strips along the players' edges (L301-309, option ``deploy_depth``), and every placed
figure as a disc of its base radius (by its type: the book gives no base sizes, only that it is
played with 28mm figures, L281; docs/rulings.md, The WarEngine 2.1 game, ruling 1), with rings
for the selected figure: its Movement allowance (L403) and each weapon's Range (L465).
``spots`` puts the listed actions on the table: a placement or a move on its point (dragged
from there, every position checked by the ruleset), an attack on its target figure (a power
that names a point, ``Attack.at``, on that point), a reserve on the figure (a reserved attack
out of sequence is a button in words: none), an activation on
the unit's leader (else its first placed figure), the figure that names the unit's chip. The
profiles come from the ruleset's own set-up tables (``setup.build_context``); everything else
from the view (WarEngine has no hidden information, L573).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from warbench.play.core import JSON
from warbench.web.play.scenes import Presenter, WarsurgePresenter, examples_root, said_event


class WarEnginePresenter(Presenter):
    """Figures on the table, their ranges, and where each listed action points."""

    def rest_as_suggested(self) -> dict[str, str]:
        """A player places all the figures of a Movement group in a row (L303-309: "Aaron
        places all his Mv 9" figures, then Dave places all his Mv 9" figures"): the rest of
        the player's placements at the engine's suggested places, in the rules' order (24
        taps before turn 1 in session 37's walk); the terminal offers the same (``words.RUNS``)."""
        from warbench.rulesets.warengine.game.words import RUNS

        return dict(RUNS)

    def presets(self) -> list[dict[str, JSON]]:
        """StormReavers against StormReavers on the ruins board, two turns and six."""
        from warbench.rulesets.warengine.io import load_force, to_data

        path = examples_root("warengine") / "stormreavers.yaml"
        if not path.exists():
            return []
        force: JSON = to_data(load_force(path))
        return [
            {
                "name": f"StormReavers against StormReavers, ruins ({n} turns)",
                "setup": {
                    "rosters": [force, force],
                    "board": "ruins_48x48",
                    "options": {"turns": n},
                },
            }
            for n in (2, 6)
        ]

    def event_words(self, event: dict[str, JSON], names: Sequence[str] = ()) -> dict[str, JSON]:
        """The engine's "player 0" called by the force's name ("StormReavers (1) rolls
        higher", :func:`~warbench.rulesets.warengine.game.words.said`); the record keeps the
        engine's text."""
        from warbench.rulesets.warengine.game.words import said

        return said_event(event, said, names)

    def result_words(self, result: dict[str, JSON], names: Sequence[str] = ()) -> dict[str, JSON]:
        """The result's reason with each "player N" called by its force's name."""
        from warbench.rulesets.warengine.game.words import said

        reason = result.get("reason")
        return {**result, "reason": said(reason, names)} if isinstance(reason, str) else result

    def scene(self, setup: dict[str, JSON], view: JSON) -> dict[str, JSON] | None:
        """The table, the placing strips and the figures."""
        if not isinstance(view, dict) or not isinstance(view.get("figures"), list):
            return None
        try:
            ctx = _context(json.dumps(setup, sort_keys=True))
            # the board as it stands: the view's once a power has changed it (L1031-L1331)
            board = view.get("board") or setup.get("board")
            base = WarsurgePresenter._board(json.dumps(board, sort_keys=True))
        except Exception:  # a set-up the page cannot draw: show the view as data
            return None
        w, h, d = ctx.field.width, ctx.field.height, ctx.depth
        areas: list[dict[str, JSON]] = [
            _power_piece(a)
            for a in base["areas"]
            if isinstance(a, dict) and a.get("kind") != "zone"
        ]
        names = self.seat_names(setup, 2)  # whose strip, by its force's name (session 35)
        for side, (y0, y1) in enumerate(((0.0, d), (h - d, h))):
            areas.insert(
                0,
                {
                    "kind": "zone",
                    "name": f"{names[side]}'s placing strip ({d:g}\" from the edge, L309)",
                    "tags": [f"side-{side}"],
                    "points": [[0, y0], [w, y0], [w, y1], [0, y1]],
                },
            )
        active = set(view.get("active_units") or [])
        pieces: list[dict[str, JSON]] = []
        rings: list[dict[str, JSON]] = []
        off: list[dict[str, JSON]] = []
        labels: dict[str, JSON] = {}
        profiles = ctx.profiles
        if isinstance(view.get("kit"), dict):  # a form, a combined figure (game/kit.py)
            from warbench.rulesets.warengine.game.kit import view_profiles

            profiles = view_profiles(ctx, view["kit"])
        for f in view["figures"]:
            prof = profiles[f["id"]]
            label = f"{f['name']} #{f['id']}"
            labels[str(f["id"])] = label
            if not f.get("alive"):
                continue
            if not f.get("placed"):
                off.append({"unit": f["id"], "side": f["side"], "label": label, "loc": "to place"})
                continue
            tags = []
            if f["unit"] in active:
                tags.append("active")
            if f.get("reserved") is not None:
                tags.append("reserved")
            if not f.get("controlled", True):
                tags.append("uncontrolled")
            title = f'{label} · unit {f["unit"]} · Mv {prof.mv}" · Df {prof.df}'
            if f.get("hero"):
                title += f" · {f['hero']} Hero Points"
            if f.get("reserved") is not None:
                title += f" · weapon {f['reserved']} on reserve"
            pieces.append(
                {
                    "unit": f["id"],
                    "side": f["side"],
                    "label": label,
                    "x": f["x"],
                    "y": f["y"],
                    "r": prof.radius,
                    "letter": str(f["id"]),
                    "tags": tags,
                    "title": title,
                }
            )
            rings.append(
                {
                    "unit": f["id"],
                    "x": f["x"],
                    "y": f["y"],
                    "r": prof.mv,
                    "kind": "move",
                    "label": f'Move {prof.mv}"',
                }
            )
            for wp in prof.weapons:
                if wp.range is not None and math.isfinite(wp.range):
                    rings.append(
                        {
                            "unit": f["id"],
                            "x": f["x"],
                            "y": f["y"],
                            "r": wp.range,
                            "kind": "range",
                            "label": f'{wp.name} {wp.range:g}"',
                        }
                    )
        return {
            "width": base["width"],
            "height": base["height"],
            "areas": areas,
            "pieces": pieces,
            "rings": rings,
            "off_table": off,
            "labels": labels,
        }

    def spots(
        self, setup: dict[str, JSON], view: JSON, actions: list[JSON]
    ) -> list[dict[str, JSON] | None]:
        """Where each listed action points on the table, and the figure that makes it."""
        if not isinstance(view, dict):
            return [None] * len(actions)
        if any(isinstance(a, dict) and a.get("kind") == "reserve fire" for a in actions):
            # the reserve decision (L575-L583): its two or three answers as buttons in words
            # ("WarpEyes #0 uses its reserved DemonBlade on Skimmer #22"), not chips to tap
            # and then a target on the board (session 39's walk: the card showed only "Use no
            # reserved attack now" and "Units that can act")
            return [None] * len(actions)
        figs = {f["id"]: f for f in view.get("figures") or [] if f.get("alive")}
        leaders = {u["id"]: u.get("leader") for u in view.get("units") or []}

        def at(fid: Any) -> tuple[float, float] | None:
            f = figs.get(fid)
            return (float(f["x"]), float(f["y"])) if f and f.get("placed") else None

        out: list[dict[str, JSON] | None] = []
        for a in actions:
            spot: tuple[float, float] | None = None
            mark, actor = "", None
            if isinstance(a, dict):
                kind = a.get("kind")
                if kind in ("place", "move"):
                    spot = (float(a["x"]), float(a["y"]))
                    mark = "place" if kind == "place" else f"move {a.get('mode', 'move')}"
                    actor = a.get("fig")
                elif kind == "attack" and isinstance(a.get("at"), list | tuple):
                    # a point the power names (a wall's centre, Teleport's, Shove's landing,
                    # L1031-L1331): the highlight is there, not on the target (often the user)
                    spot = (float(a["at"][0]), float(a["at"][1]))
                    mark, actor = "attack", a.get("fig")
                elif kind == "attack":
                    spot, mark, actor = at(a.get("target")), "attack", a.get("fig")
                elif kind == "reserve":
                    spot, mark, actor = at(a.get("fig")), "reserve", a.get("fig")
                elif kind == "activate":
                    unit = a.get("unit")
                    lead = leaders.get(unit)
                    fids = [lead] if lead is not None else []
                    fids += [k for k, f in figs.items() if f["unit"] == unit]
                    placed = [k for k in fids if at(k) is not None]
                    if placed:  # the unit is named by its leader (else its first figure)
                        spot, actor = at(placed[0]), placed[0]
                    mark = "select"
                elif kind in ("leader", "shape"):
                    spot, mark = at(a.get("fig")), "select"
            if spot is None:
                out.append(None)
                continue
            s: dict[str, JSON] = {"x": spot[0], "y": spot[1], "mark": mark}
            if actor is not None:
                s["actor"] = actor
            out.append(s)
        return out

    def family_labels(
        self, setup: dict[str, JSON], view: JSON, families: list[JSON], examples: list[JSON]
    ) -> list[str | None]:
        """The generic words with the figure's force first ("StormReavers (1): Reaver #10
        moves to a point you choose"): both forces may field a Reaver (session 35)."""
        out = super().family_labels(setup, view, families, examples)
        figs = view.get("figures") if isinstance(view, dict) else None
        side = {f["id"]: f.get("side") for f in figs or [] if isinstance(f, dict)}
        names = self.seat_names(setup, 2)
        for k, e in enumerate(examples):
            s = side.get(e.get("fig")) if isinstance(e, dict) else None
            if out[k] is not None and isinstance(s, int) and 0 <= s < len(names):
                out[k] = f"{names[s]}: {out[k]}"
        return out

    def labels(self, setup: dict[str, JSON], view: JSON, actions: list[JSON]) -> list[str | None]:
        """Each listed action in a player's words (:func:`.words.describe`: figures and weapons
        by name, points in inches, a push toward the figure it heads for, L1403; Summoning's
        chosen Summoned figure, L1279)."""
        from warbench.rulesets.warengine.game.words import describe

        if not isinstance(view, dict) or not isinstance(view.get("figures"), list):
            return [None] * len(actions)
        try:
            ctx = _context(json.dumps(setup, sort_keys=True))
        except Exception:  # a set-up the page cannot read: the generic labels
            return [None] * len(actions)
        # the players by their forces' names: who activates first (L362), not "first: player 1"
        names = self.seat_names(setup, 2)
        return [describe(ctx, view, a, names) for a in actions]


def _power_piece(area: dict[str, JSON]) -> dict[str, JSON]:
    """A terrain piece a Special Power put on the table (``Wall of Fire #0``, L1319-L1331)
    tagged ``power``, its power's name as a class (``wall-of-fire``: drawn in its own colour) and
    ``named`` (its name written on it), so a player tells a Wall of Fire from a wall of the
    board; any other area as it is."""
    from warbench.rulesets.warengine.game.terrain import KINDS

    name = str(area.get("name") or "")
    power = next((p for p in KINDS if name.startswith(f"{p} #")), None)
    if area.get("kind") != "terrain" or power is None:
        return area
    tags = [t for t in area.get("tags") or [] if isinstance(t, str)]
    return {**area, "tags": [*tags, "power", power.lower().replace(" ", "-"), "named"]}


@lru_cache(maxsize=32)
def _context(setup_json: str) -> Any:
    from warbench.rulesets.warengine.game.setup import build_context

    s = json.loads(setup_json)
    return build_context(s["rosters"], s.get("board"), s.get("options") or {})
