"""A Collision action in words, for a player choosing it (``003_fc239e71486306e1.txt``): the
play page's listed actions and ``warbench play --ruleset collision``'s numbered choices name
characters by their names and squares as ``(x, y)`` (session 33: the piles of L682-686 were
listed as ``piles: piles [[0, 1], [2, 3], [4, 5]]``, and the terminal showed bare JSON).

:func:`describe` reads the action's JSON against the view of the player choosing it (its
``units``: ``id`` and ``name``); a kind it does not know is ``None`` (the caller's generic
label).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["describe", "result_reason", "said"]

# "Command contest to activate first: 16 against 15" (L771-773), "... for sides" (L620-627)
_SIDES_CONTEST = re.compile(r"^(Command contest[^:]*): (\d+) against (\d+)$")
# "Virgil recovers 4 Endurance (4)": the Endurance it now has (L901-906)
_RECOVERS = re.compile(r"(recovers \d+ Endurance) \((\d+)\)$")
_DIAGONAL = {
    "the board is divided rising": "the board is divided along the rising diagonal "
    "(bottom-left to top-right)",
    "the board is divided falling": "the board is divided along the falling diagonal "
    "(top-left to bottom-right)",
}
_ZONE = re.compile(r" deploys in the (above|below) zone$")


def said(text: str, names: Sequence[str], data: Mapping[str, Any] | None = None) -> str:
    """An engine event's text as a person reads it (session 35's walk; the record keeps the
    engine's text): a Command contest between the players says whose total is whose
    (``data``'s ``totals``, player 0's first), the diagonal and a zone above or below it say
    so, and a recovery says the Endurance the character now has.

    >>> said("Command contest to activate first: 16 against 15", ["Scouts", "Band"],
    ...      {"totals": [16, 15]})
    'Command contest to activate first: Scouts 16, Band 15: Scouts wins'
    >>> said("Virgil recovers 4 Endurance (4)", ["Scouts", "Band"])
    'Virgil recovers 4 Endurance (now 4)'
    >>> said("Band deploys in the above zone", ["Scouts", "Band"])
    'Band deploys in the zone above the diagonal'
    """
    totals = (data or {}).get("totals")
    m = _SIDES_CONTEST.match(text)
    if m and len(names) >= 2 and isinstance(totals, list) and len(totals) == 2:
        a, b = int(m.group(2)), int(m.group(3))
        won = "" if a == b else f": {names[0] if a > b else names[1]} wins"
        return f"{m.group(1)}: {names[0]} {a}, {names[1]} {b}{won}"
    if text in _DIAGONAL:
        return _DIAGONAL[text]
    text = _ZONE.sub(r" deploys in the zone \1 the diagonal", text)
    return _RECOVERS.sub(r"\1 (now \2)", text)


def result_reason(reason: str) -> str:
    """The result's reason without the winner's name the result line already says ("X wins,
    11 – 0: X wins on Victory Points" read it twice): how the battle was decided (L1108-1114).

    >>> result_reason("Deadholm scouts wins on Victory Points")
    'Victory Points at the end of the turn limit (Collision L1108-1114)'
    """
    if reason.endswith(" on Victory Points"):
        return "Victory Points at the end of the turn limit (Collision L1108-1114)"
    return reason


_MODES = {"step": "step", "maneuver": "maneuver", "run": "run", "pounce": "pounce"}


def _sq(at: Any) -> str:
    if isinstance(at, list | tuple) and len(at) == 2:
        return f"({at[0]}, {at[1]})"
    return "off the board"


def describe(view: Any, action: Any) -> str | None:
    """``action`` (its JSON) in words, characters named from ``view``; ``None`` when unknown.

    >>> v = {"units": [{"id": 0, "name": "Virgil"}, {"id": 1, "name": "Rhona"}]}
    >>> describe(v, {"kind": "piles", "piles": [[0], [1], []]})
    'phase 1: Virgil; phase 2: Rhona; phase 3: none'
    >>> describe(v, {"kind": "move", "mode": "run", "to": [4, 5], "facing": "E"})
    'run to (4, 5), facing E'
    >>> describe(v, {"kind": "attack", "target": 1, "weapon": "Skull Staff"})
    'attack Rhona with Skull Staff'
    """
    if not isinstance(action, dict):
        return None
    names = {
        u.get("id"): str(u.get("name"))
        for u in (view.get("units") or [] if isinstance(view, dict) else [])
        if isinstance(u, dict)
    }

    def who(uid: Any) -> str:
        return names.get(uid, f"character {uid}")

    kind = action.get("kind")
    if kind == "role":  # L620-627
        return f"be the {str(action.get('role')).capitalize()}"
    if kind == "zone":  # L626-674
        return f"deploy in the {action.get('zone')} zone"
    if kind == "diagonal":
        return "the rising diagonal" if action.get("rising") else "the falling diagonal"
    if kind == "marker":  # L557-565
        return f"place the token at {_sq(action.get('at'))}"
    if kind == "nominate":
        return f"nominate {who(action.get('unit'))}"
    if kind == "deploy":  # L688-724
        at = action.get("at")
        if at is None:
            return f"set {who(action.get('unit'))} aside"
        return f"deploy {who(action.get('unit'))} at {_sq(at)}, facing {action.get('facing')}"
    if kind == "piles":  # L682-686
        piles = action.get("piles") or []
        return "; ".join(
            f"phase {k}: " + (", ".join(who(u) for u in p) or "none")
            for k, p in enumerate(piles, start=1)
        )
    if kind == "activate":  # L778-784
        return f"activate {who(action.get('unit'))}"
    if kind == "move":  # L800-899
        mode = _MODES.get(str(action.get("mode")), str(action.get("mode")))
        return f"{mode} to {_sq(action.get('to'))}, facing {action.get('facing')}"
    if kind == "attack":
        what = action.get("weapon") or action.get("ability") or "an attack"
        target = action.get("target")
        at = action.get("at")
        aim = who(target) if target is not None else _sq(at) if at is not None else "the line"
        return f"attack {aim} with {what}"
    if kind == "ability":
        target, at = action.get("target"), action.get("at")
        on = f" on {who(target)}" if target is not None else f" at {_sq(at)}" if at else ""
        option = f" ({action.get('option')})" if action.get("option") else ""
        return f"use {action.get('ability')}{on}{option}"
    if kind == "hold":
        return f"hold, facing {action.get('facing')}"
    if kind == "end":
        return "end the activation"
    if kind == "react":
        if action.get("ability") is None:
            return "no reaction"
        target = action.get("target")
        on = f" on {who(target)}" if target is not None else ""
        return f"{who(action.get('unit'))} reacts with {action.get('ability')}{on}"
    if kind == "knockback":
        return f"push to {_sq(action.get('to'))}"
    if kind == "haste":
        return f"{who(action.get('unit'))}: Haste to {_sq(action.get('to'))}"
    if kind == "plan":
        return "use the plan" if action.get("use") else "do not use the plan"
    return None
