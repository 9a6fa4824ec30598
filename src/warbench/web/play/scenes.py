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

import math
from collections.abc import Callable, Sequence
from functools import cache
from importlib import import_module
from typing import Any

from warbench.kernel.colours import named_side_colours
from warbench.play.core import JSON

#: ruleset id -> ``"module:attr"`` of its presenter (imported on first use).
PRESENTERS: dict[str, str] = {
    "toy-duel": "warbench.web.play.scenes:DuelPresenter",
    "warsurge": "warbench.web.play.scenes:WarsurgePresenter",
    "collision": "warbench.web.play.collision_scene:CollisionPresenter",
    "warengine": "warbench.web.play.warengine_scene:WarEnginePresenter",
}


def said_event(
    event: dict[str, JSON],
    said: Callable[[str, Sequence[str], dict[str, JSON] | None], str],
    names: Sequence[str],
) -> dict[str, JSON]:
    """``event`` with its text in a ruleset's words (``said(text, names, data)``, the event's
    ``data`` passed when it is an object); an event without text is kept as it is."""
    text, data = event.get("text"), event.get("data")
    if not isinstance(text, str):
        return event
    return {**event, "text": said(text, names, data if isinstance(data, dict) else None)}


def chosen_words(label: str | None) -> str | None:
    """An action's words with its point, square and facing said as the player's to choose:
    a family's words from one action of it (session 36: "More choices" named a WarEngine
    family ``move #10``). ``None`` when the words hold no point (the name is kept then).

    >>> chosen_words('Reaver #10 moves to (24.5", 11.5")')
    'Reaver #10 moves to a point you choose'
    >>> chosen_words("run to (4, 5), facing E")
    'run to a square you choose, facing as you choose'
    >>> chosen_words("end the activation") is None
    True
    """
    import re

    if label is None:
        return None
    point = re.compile(r'\((-?\d+(?:\.\d+)?)("?), (-?\d+(?:\.\d+)?)"?\)')
    found = point.search(label)
    if found is None:
        return None
    what = "a point you choose" if found.group(2) else "a square you choose"
    out = point.sub(what, label, count=1)
    return re.sub(r", facing [NESW]{1,2}\b", ", facing as you choose", out)


def _choices(family: JSON, name: str) -> int:
    """How many values a family's choice ``name`` offers (0: it has no such choice)."""
    params = family.get("params") if isinstance(family, dict) else None
    for p in params if isinstance(params, list) else []:
        if isinstance(p, dict) and p.get("name") == name and isinstance(p.get("values"), list):
            return len(p["values"])
    return 0


class Presenter:
    """The generic presenter: no board, no presets, seat names from the rosters."""

    def presets(self) -> list[dict[str, JSON]]:
        """Sample set-ups a player can start from (``{"name", "setup"}``)."""
        return []

    def rest_as_suggested(self) -> dict[str, str]:
        """Decision kinds a player may answer with the suggested choice for the rest of a
        run of them in one tap (kind -> the button's words), where the rules let one player
        make them one after another (The WarEngine's placement, L303-309); none here."""
        return {}

    def engine_choices(self) -> list[dict[str, JSON]]:
        """The decisions a set-up's rules options may hand to the engine for both players
        (``{"name", "text"}``, ``options.automation``); none for a ruleset without them."""
        return []

    def seat_names(self, setup: dict[str, JSON], seats: int) -> list[str]:
        """A name per seat: the roster's ``name``/``player`` when it has one; a name two seats
        share gets its seat's number ("StormReavers (1)", "StormReavers (2)": a force against a
        copy of itself), so "you play …" and "… wins" say which (session 33)."""
        from warbench.play.terminal import distinct_names

        out = []
        for i, r in enumerate(list(setup.get("rosters") or [])[:seats]):
            name = r.get("name") or r.get("player") if isinstance(r, dict) else None
            out.append(str(name) if name else f"Player {i + 1}")
        return distinct_names(out + [f"Player {i + 1}" for i in range(len(out), seats)])

    def scene(self, setup: dict[str, JSON], view: JSON) -> dict[str, JSON] | None:
        """The board to draw, or ``None`` (the page then shows the view as data)."""
        return None

    def event_view(
        self, setup: dict[str, JSON], view: JSON, event: dict[str, JSON], seats: frozenset[int]
    ) -> dict[str, JSON] | None:
        """The event as a viewer playing ``seats`` (none: a spectator) may see it, or ``None``.

        The convention (docs/web-play.md, "Events and what each viewer sees"): an event whose
        ``data`` has ``visible_to`` (a list of seats) is shown in full only to those seats;
        anyone else sees ``data.public_text`` in its place (kind, text and rule, no data), or
        nothing when it has none. Presenters may hide more from what ``view`` (the viewer's
        own view) hides."""
        return visible_event(event, seats)

    def event_words(self, event: dict[str, JSON], names: Sequence[str] = ()) -> dict[str, JSON]:
        """An event (as a viewer may see it) with its text as a person reads it, for the log
        and the replay viewer (``names``: the seats' names, :meth:`seat_names`); the generic
        one keeps the ruleset's text."""
        return event

    def result_words(self, result: dict[str, JSON], names: Sequence[str] = ()) -> dict[str, JSON]:
        """A result's JSON with its reason as a person reads it; the generic one keeps it."""
        return result

    def spots(
        self, setup: dict[str, JSON], view: JSON, actions: list[JSON]
    ) -> list[dict[str, JSON] | None]:
        """Where on the board each listed action points (``{"x", "y", "mark", "actor"?}``:
        a board point, a class for its highlight, and the piece that makes it), or ``None``.
        A page that receives spots lets a person act by tapping the board."""
        return [None] * len(actions)

    def labels(self, setup: dict[str, JSON], view: JSON, actions: list[JSON]) -> list[str | None]:
        """A person's words for each listed action (names, not numbers), or ``None`` where
        the generic label (its kind, then its fields) is kept."""
        return [None] * len(actions)

    def decision_labels(
        self, setup: dict[str, JSON], view: JSON, actions: list[JSON], state: Any = None
    ) -> list[str | None]:
        """:meth:`labels` of a decision's listed actions, where ``state`` (the game's state)
        may tell what an action would do (a WARSURGE casualty choice: which models it
        removes, which only the engine can say); the generic one ignores ``state``."""
        return self.labels(setup, view, actions)

    def checked_words(
        self, setup: dict[str, JSON], view: JSON, action: JSON, state: Any = None
    ) -> str | None:
        """What a checked action that no listed choice names would do, in words (the page's
        own choices: a WARSURGE casualty order of the player's own, session 39), or ``None``."""
        return None

    def distinct(self, actions: list[JSON], state: Any = None) -> list[int]:
        """The indices of a decision's listed actions to show, in order: the generic one shows
        all; a ruleset whose listed actions may do the same thing lists each once (a WARSURGE
        casualty choice, session 39: two orders that remove the same models)."""
        return list(range(len(actions)))

    def family_labels(
        self, setup: dict[str, JSON], view: JSON, families: list[JSON], examples: list[JSON]
    ) -> list[str | None]:
        """A person's words for each family of actions (``families``: their JSON, name and
        parameters; a move to any point: whose piece, what it does, "a point you choose"), from
        one action of each (``examples``, ``None`` where none could be built): the action's own
        words (:meth:`labels`) with its point said as chosen (:func:`chosen_words`); ``None``
        where the family's name is kept, as for a family of several units (one action names
        one of them)."""
        built = [e for e in examples if e is not None]
        said = iter(self.labels(setup, view, built) if built else [])
        out: list[str | None] = []
        for f, e in zip(families, examples, strict=True):
            words = None if e is None else chosen_words(next(said))
            out.append(None if _choices(f, "unit") > 1 else words)
        return out

    def odds(
        self,
        setup: dict[str, JSON],
        view: JSON,
        action: JSON,
        state: Any = None,
        player: int | None = None,
    ) -> dict[str, JSON] | None:
        """The exact odds of an attack action now, where the ruleset offers them. ``state``
        and ``player``: the game's state and the deciding seat, for a presenter that asks the
        ruleset for the attack's situation as that seat may know it."""
        return None


def visible_event(event: dict[str, JSON], seats: frozenset[int]) -> dict[str, JSON] | None:
    """``event`` (``Event.to_json``) as a viewer playing ``seats`` may see it: whole when it
    names no ``visible_to`` or one of the seats is in it; else its ``public_text`` (no data),
    or ``None``."""
    data = event.get("data")
    if not isinstance(data, dict) or "visible_to" not in data:
        return event
    allowed = data.get("visible_to")
    if isinstance(allowed, list) and seats & {int(p) for p in allowed if isinstance(p, int)}:
        return event
    public = data.get("public_text")
    if not isinstance(public, str):
        return None
    out: dict[str, JSON] = {"kind": event.get("kind"), "text": public}
    if event.get("rule"):
        out["rule"] = event["rule"]
    return out


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


def side_colours(view: dict[str, Any]) -> list[str] | None:
    """Each side's colour when a side is named by a colour word ("Red", "Blue Team") and no
    two by the same one (:func:`~warbench.kernel.colours.named_side_colours`: an "Armoured
    Column" against "Blue" is red, not the page's blue of seat 0); else ``None`` (the page's
    colours by seat: blue, then red)."""
    names = [str(s.get("name") or "") for s in view.get("sides") or [] if isinstance(s, dict)]
    return named_side_colours(names, spare="#555")


def _gateway_tokens(view: dict[str, Any]) -> list[dict[str, JSON]]:
    """The Gateway markers on the table (Perks 000_94ecc6a4c74d351b.txt L4314): a diamond for
    each marker its holder's ``Gateway@x,y@turn`` status names, labelled ``G1``/``G2`` and
    titled with its player and whether the Gateway is active (both markers placed, L4316)."""
    sides = [s.get("name") for s in view.get("sides") or [] if isinstance(s, dict)]
    out: list[dict[str, JSON]] = []
    for u in view.get("units") or []:
        if not isinstance(u, dict):
            continue
        spots = []
        for st in u.get("st") or []:
            name = st[0] if isinstance(st, list) and st else None
            if isinstance(name, str) and name.startswith("Gateway@"):
                try:
                    x, y = (float(v) for v in name.split("@")[1].split(","))
                except ValueError:
                    continue
                spots.append((x, y))
        side = u.get("side")
        who = sides[side] if isinstance(side, int) and 0 <= side < len(sides) else f"side {side}"
        state = (
            "active: enter at one marker, leave at the other"
            if len(spots) >= 2
            else ("inactive until its second marker is placed (start of Game Turn 2)")
        )
        for k, (x, y) in enumerate(spots[:2]):
            out.append(
                {
                    "x": x,
                    "y": y,
                    "kind": "gateway",
                    "label": f"G{k + 1}",
                    "title": f"{who}'s Gateway marker {k + 1} ({state}; Perks L4314)",
                }
            )
    return out


def _shape(u: dict[str, Any], k: int) -> dict[str, JSON]:
    """An oval or rectangular base's shape and facing for the board (Core Rules §1.3; the view
    gives ``base`` and each model's ``facing`` in degrees): ``shape`` (kind, length and width
    in inches, angle in degrees counter-clockwise from ``+x``) and ``facing`` (the unit vector
    of its front); nothing for a round base, drawn as its disc."""
    base = u.get("base")
    facings = u.get("facing") or []
    if not isinstance(base, dict) or k >= len(facings):
        return {}
    angle = float(facings[k])
    rad = math.radians(angle)
    return {
        "shape": {
            "kind": base.get("shape"),
            "length": base.get("length"),
            "width": base.get("width"),
            "angle": angle,
        },
        "facing": [round(math.cos(rad), 6), round(math.sin(rad), 6)],
    }


#: WARSURGE's families of several units in words (the unit is chosen in the form; §3.6, §4)
_WARSURGE_FAMILIES = {
    "deploy at": "deploy a unit of yours at a point you choose",
    "move to": "move a unit of yours toward a point you choose",
    "dash to": "Dash a unit of yours toward a point you choose",
    "disembark to": "disembark a unit of yours at a point you choose",
}


class WarsurgePresenter(Presenter):
    """WARSURGE: the board of the set-up (terrain, Deployment Zones) to scale, every model on
    the table as its base (a disc of its radius, or an oval or rectangle turned to its
    facing), and the exact odds of an attack."""

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

    def engine_choices(self) -> list[dict[str, JSON]]:
        """The engine's :class:`~warbench.rulesets.warsurge.game.state.Automation` names, each
        in a player's words with its rule: the lobby shows which a set-up hands to the engine,
        so a player who wants to pick the casualties (§5.11) sees that the sample set-ups do it
        for them (session 37's walk)."""
        from warbench.rulesets.warsurge.game.state import Automation

        words = {
            Automation.TURN_MASTER: "the roll-off's winner names itself Turn Master (§2.1)",
            Automation.ZONE_CHOICE: "each side takes the first free Deployment Zone (§3.6)",
            Automation.MODEL_PLACEMENT: "where each model of a unit deployed or moved stands "
            "(§3.6, §4.1)",
            Automation.CASUALTY_SELECTION: "which models are removed as casualties (§5.11)",
            Automation.COHERENCY: "the moves that restore Coherency and Base Contact after "
            "casualties (§4.2 IV, §4.4 III)",
            Automation.PERK_USE: 'whether a weapon uses Burst or Darkside, a "may" (Perks §12.5)',
        }
        return [{"name": a.value, "text": words[a]} for a in Automation]

    def event_words(self, event: dict[str, JSON], names: Sequence[str] = ()) -> dict[str, JSON]:
        """The engine's text as a person reads it ("1 model", "(reroll 2)":
        :func:`~warbench.rulesets.warsurge.game.words.said`); the record keeps the engine's."""
        from warbench.rulesets.warsurge.game.words import said

        text = event.get("text")
        return {**event, "text": said(text)} if isinstance(text, str) else event

    def event_view(
        self, setup: dict[str, JSON], view: JSON, event: dict[str, JSON], seats: frozenset[int]
    ) -> dict[str, JSON] | None:
        """As the convention says; and an event about a unit the viewer's view does not list
        (another side's unit held in Reserve under ``hide_reserves``, which the view only
        counts) is not shown."""
        out = visible_event(event, seats)
        data = out.get("data") if out is not None else None
        if out is None or not isinstance(data, dict) or not isinstance(view, dict):
            return out
        listed = {u.get("uid") for u in view.get("units") or [] if isinstance(u, dict)}
        about = [data.get(k) for k in ("unit", "target") if isinstance(data.get(k), int)]
        if any(uid not in listed for uid in about):
            return None
        return out

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
                    # terrain that attacks (§10.2 L4388, L4424): marked and named on the board
                    ("armed", t.in_play_weapons),
                    ("named", t.in_play_weapons),
                )
                if on
            ]
            if t.army is not None:
                tags.append(f"army-{t.army}")
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
        names = {
            u.get("uid"): u.get("label") for u in view.get("units") or [] if isinstance(u, dict)
        }
        # the units locked in a Melee (§4.3): each of its models tagged, the foe in its title
        melee: dict[Any, list[str]] = {}
        for pair in view.get("engaged") or []:
            if isinstance(pair, list) and len(pair) == 2:
                a, b = pair
                melee.setdefault(a, []).append(str(names.get(b, f"unit {b}")))
                melee.setdefault(b, []).append(str(names.get(a, f"unit {a}")))
        # a casualty choice waiting (§5.11): the unit's models numbered on the board as the
        # choices name them ("remove models 1 to 3"; session 38: nothing on the board said
        # which was model 1)
        pause = view.get("casualties")
        numbered = pause.get("target") if isinstance(pause, dict) else None
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
            if uid in melee:
                title += " · in a Melee with " + ", ".join(sorted(melee[uid]))
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
                        "title": f"{title} · model {k + 1}",
                        # numbered, and tapped to choose it in an order of one's own (s39)
                        **({"letter": str(k + 1), "model": k} if uid == numbered else {}),
                        **({"tags": ["melee"]} if uid in melee else {}),
                        **_shape(u, k),
                    }
                )
        tokens = _gateway_tokens(view)
        # the pieces an action names by number (a Target, terrain that attacks: §10.2-10.3)
        terrain = {
            str(p["number"]): f"{p['name']} (terrain)"
            for key in ("control", "armed_terrain")
            for p in view.get(key) or []
            if isinstance(p, dict) and "number" in p and p.get("name") is not None
        }
        sides = [s.get("name") for s in view.get("sides") or [] if isinstance(s, dict)]
        return {
            **base,
            "areas": _zones_owned([_army_named(a, sides) for a in base["areas"]], view),
            **({"labels": terrain} if terrain else {}),
            "pieces": pieces,
            "off_table": reserves,
            **({"tokens": tokens} if tokens else {}),  # only a game with Gateway gains the key
            # sides named by colours ("Red", "Blue") are drawn in them
            **({"side_colours": colours} if (colours := side_colours(view)) else {}),
        }

    def family_labels(
        self, setup: dict[str, JSON], view: JSON, families: list[JSON], examples: list[JSON]
    ) -> list[str | None]:
        """A family of one unit as its action's words ("Red: Troopers: move toward a point you
        choose"), of several units by what it does, the unit chosen in its form."""
        out = super().family_labels(setup, view, families, examples)
        for k, f in enumerate(families):
            name = f.get("name") if isinstance(f, dict) else None
            if out[k] is None and isinstance(name, str) and name in _WARSURGE_FAMILIES:
                out[k] = _WARSURGE_FAMILIES[name]
        return out

    def decision_labels(
        self, setup: dict[str, JSON], view: JSON, actions: list[JSON], state: Any = None
    ) -> list[str | None]:
        """:meth:`labels`, a casualty choice (§5.11) saying which models it removes ("Blue:
        Dead Dogs: remove models 1, 2 and 3, the 3 nearest Red: Sniper Troopers"), asked of
        the engine (:func:`~warbench.rulesets.warsurge.game.words.casualty_outcome`) on
        ``state`` (session 38: "casualties: unit 3, models [0, 1, ...]")."""
        from warbench.rulesets.warsurge.game.words import casualty_outcome, describe

        words = self.labels(setup, view, actions)
        game = getattr(state, "game", None)
        if game is None or getattr(game, "pause", None) is None:
            return words
        for k, a in enumerate(actions):
            if isinstance(a, dict) and a.get("kind") == "casualties":
                lost = casualty_outcome(game, [int(m) for m in a.get("models") or []])
                if lost is not None:
                    words[k] = describe(view, a, lost)
        return words

    def checked_words(
        self, setup: dict[str, JSON], view: JSON, action: JSON, state: Any = None
    ) -> str | None:
        """A casualty order of the player's own (§5.11, models tapped in the page) as the listed
        choices are said: which models it removes, the engine asked (:meth:`decision_labels`)."""
        if not (isinstance(action, dict) and action.get("kind") == "casualties"):
            return None
        return self.decision_labels(setup, view, [action], state)[0]

    def distinct(self, actions: list[JSON], state: Any = None) -> list[int]:
        """Each casualty choice that removes other models than one before it (§5.11): the
        engine offers its order and the reverse, which may take HP from the same models (a
        wounded model first, §5.12; a single HP lost), and the page listed the same words twice
        (session 38's walk; :func:`~warbench.rulesets.warsurge.game.words.distinct_casualties`)."""
        from warbench.rulesets.warsurge.game.words import distinct_casualties

        game = getattr(state, "game", None)
        orders = [
            (k, [int(m) for m in a.get("models") or []])
            for k, a in enumerate(actions)
            if isinstance(a, dict) and a.get("kind") == "casualties"
        ]
        if game is None or getattr(game, "pause", None) is None or len(orders) < 2:
            return list(range(len(actions)))
        kept = {orders[i][0] for i in distinct_casualties(game, [m for _, m in orders])}
        return [k for k in range(len(actions)) if k in kept or k not in dict(orders)]

    def labels(self, setup: dict[str, JSON], view: JSON, actions: list[JSON]) -> list[str | None]:
        """Each action in words (:func:`warbench.rulesets.warsurge.game.words.describe`):
        the Turn Master by the players' names (§2.1: "Red is the Turn Master"), units by their
        names, the Counter Actions said in full (§9.3), a Deployment Zone by its name on the
        board (§3.6: "Deployment Zone north edge", as ``warbench play`` and the event log say
        it; it was "zone: zone 1", session 33); other actions keep their generic labels."""
        import json

        from warbench.rulesets.warsurge.game.words import describe

        words = [describe(view, a) for a in actions]
        zones: list[str] | None = None
        for i, a in enumerate(actions):
            z = a.get("zone") if isinstance(a, dict) and a.get("kind") == "zone" else None
            if not isinstance(z, int):
                continue
            if zones is None:
                areas = self._board(json.dumps(setup.get("board"), sort_keys=True))["areas"]
                assert isinstance(areas, list)
                zones = [
                    str(r["name"]) for r in areas if isinstance(r, dict) and r["kind"] == "zone"
                ]
            if 0 <= z < len(zones):
                words[i] = f"Deployment Zone {zones[z]}"
        return words

    def odds(
        self,
        setup: dict[str, JSON],
        view: JSON,
        action: JSON,
        state: Any = None,
        player: int | None = None,
    ) -> dict[str, JSON] | None:
        """The exact odds of an ``attack`` action as the game would resolve it now, weapon by
        weapon: the engine's own attack plan (``game.attacks.verify_attack``: range, line of
        sight, the models that can attack, cover, half range, Melee, Heavy, the perks'
        situations) on the state as the deciding side may know it
        (``protocol.known_state``), each share's ``AttackPlan`` built as the engine builds it
        (with the perk statuses' dice modifiers) and read by the odds engine the Odds page and
        ``warbench odds --situation`` use. A refused attack answers the engine's reason."""
        if not (isinstance(action, dict) and action.get("kind") == "attack"):
            return None
        if state is None or player is None:
            return None
        return _engine_odds(setup, state, player, action)


def _engine_odds(
    setup: dict[str, JSON], state: Any, player: int, action: dict[str, JSON]
) -> dict[str, JSON]:
    from warbench.kernel.errors import WarbenchError
    from warbench.rulesets.warsurge.game.actions import Attack
    from warbench.rulesets.warsurge.game.attacks import verify_attack
    from warbench.rulesets.warsurge.game.codecs import ActionCodec
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.perk_effects import status_dice
    from warbench.rulesets.warsurge.game.protocol import known_state
    from warbench.rulesets.warsurge.game.terrain import terrain_of_target
    from warbench.rulesets.warsurge.game.terrain_attacks import terrain_attack_plan
    from warbench.rulesets.warsurge.game.work import Work, to_unit_state
    from warbench.rulesets.warsurge.odds import AttackPlan

    game = known_state(state.game, player, dict(setup.get("options") or {}))
    w = Work(game, None, DEFAULT_HOOKS)
    try:
        attack = ActionCodec().load(action)
        if not isinstance(attack, Attack):
            return {"targets": [], "refused": "not an Attack"}
        if attack.unit >= len(w.units):  # a piece's own Attack (terrain that attacks, §10.2)
            from warbench.rulesets.warsurge.game.terrain_army import (
                piece_attack_plan,
                verify_piece_attack,
            )

            piece_plan = verify_piece_attack(w, attack, player)
            shares = [
                (wp, piece_attack_plan(w, piece_plan, k), wp.context, w.label(wp.target))
                for k, wp in enumerate(piece_plan.weapons)
            ]
            return {"targets": [_odds_row(*share) for share in shares]}
        plan = verify_attack(w, attack)
    except WarbenchError as exc:
        return {"targets": [], "refused": str(exc)}
    out: list[dict[str, JSON]] = []
    for wp in plan.weapons:
        if wp.target >= len(w.units):  # a destructible terrain piece (§10.3)
            piece = terrain_of_target(w, wp.target)
            ap = terrain_attack_plan(w, plan.uid, wp)
            ctx, label = ap.context, piece.name if piece is not None else f"terrain {wp.target}"
        else:
            ctx = status_dice(wp.context, w.units[plan.uid].statuses, w.units[wp.target].statuses)
            ap = AttackPlan(
                to_unit_state(w, plan.uid),
                to_unit_state(w, wp.target),
                ctx,
                weapons=(wp.weapon,),
                users=((wp.weapon, wp.users),),
            )
            label = w.label(wp.target)
        out.append(_odds_row(wp, ap, ctx, label))
    return {"targets": out}


def _odds_row(wp: Any, ap: Any, ctx: Any, label: str) -> dict[str, JSON]:
    """One share's odds for the page: its target, weapon, models, situation and the exact
    distribution of HP lost (``odds.attack_odds``)."""
    from warbench.kernel.errors import EnumerationTooLarge, WarbenchError
    from warbench.rulesets.warsurge.odds import attack_odds

    row: dict[str, JSON] = {
        "target": wp.target,
        "label": label,
        "weapons": [wp.weapon],
        "models": wp.users,
        "situation": {
            "melee": ctx.melee,
            "cover": ctx.cover,
            "cover_bonus": ctx.cover_bonus if ctx.cover else 0,
            "within_half_range": ctx.within_half_range,
            "distance": None if ctx.distance is None else round(float(ctx.distance), 2),
            "attacker_engaged": ctx.attacker_engaged,
            "target_engaged_elsewhere": ctx.target_engaged_elsewhere,
            "stationary": ctx.stationary,
            # the target's models the attacker sees (only they may be casualties, §5.11)
            "models_in_sight": None if ctx.los_models is None else sorted(ctx.los_models),
        },
    }
    try:
        odds = attack_odds(ap, seed=0)
    except (EnumerationTooLarge, WarbenchError) as exc:
        row["error"] = str(exc)
    else:
        row.update(
            exact=odds.exact,
            expected_hp_lost=odds.expected_hp_lost,
            expected_models_slain=odds.expected_models_slain,
            wipe_chance=odds.wipe_chance,
            hp_lost={str(k): v for k, v in sorted(odds.hp_lost.items())},
        )
    return row


def _army_named(area: Any, sides: list[Any]) -> Any:
    """A terrain piece fielded in an army (``army-N`` tag, §10.2 L4424-4430) named with its
    side's name ("West gun turret (Red)"); any other area as it is."""
    tags = (area.get("tags") or []) if isinstance(area, dict) else []
    army = next((int(t[5:]) for t in tags if t.startswith("army-") and t[5:].isdigit()), None)
    if army is None or army >= len(sides):
        return area
    return {**area, "name": f"{area['name']} ({sides[army]})"}


def _zones_owned(areas: list[Any], view: dict[str, Any]) -> list[Any]:
    """Each Deployment Zone a side has taken (§3.6) tagged ``side-N``: the board tints it in
    that side's colour and the key says whose it is (session 33: both zones were one grey-blue
    while the log said "Red takes Deployment Zone north edge"). The zones are the board's in
    order, as the view numbers them."""
    owner = {
        s.get("zone"): k
        for k, s in enumerate(view.get("sides") or [])
        if isinstance(s, dict) and isinstance(s.get("zone"), int)
    }
    out: list[Any] = []
    zone = 0
    for a in areas:
        if isinstance(a, dict) and a.get("kind") == "zone":
            if zone in owner:
                a = {**a, "tags": [*(a.get("tags") or []), f"side-{owner[zone]}"]}
            zone += 1
        out.append(a)
    return out


def examples_root(ruleset: str) -> Any:
    """The shipped examples of a ruleset (``examples/<ruleset>``)."""
    from pathlib import Path

    return Path(__file__).resolve().parents[4] / "examples" / ruleset


def _examples() -> Any:
    return examples_root("warsurge") / "rosters"
