"""A WARSURGE action in a player's words, read against a player's view (both as JSON): units
by their names, not their numbers, points in inches. The terminal (``warbench play``) and the
web page (``web/play/scenes.py``) list a decision's choices with them; the action's JSON stays
what is sent. A kind it does not word returns ``None`` (the caller keeps its generic label).

The Counter Actions of the Advanced game (001_d3f5e425c5e1196d.txt §9.3, L3825-L3850) say what
each one is: no Counter Action, a Counter Attack on the attacking unit, a Counter Guard, a
Counter Use Perks; each costs the Command Points of its parent Action (L3836)."""

from __future__ import annotations

import re
from typing import Any

#: the Counter Actions (§9.3) in words
COUNTER_WORDS = {
    "none": "no Counter Action",
    "attack": "Counter Attack the attacking unit (costs as an Attack Action, §9.3)",
    "guard": "Counter Guard (costs as a Guard Action, §9.3)",
    "perk": "Counter Use Perks (costs as a Use Perks Action, §9.3)",
}


# "1 models" as the engine writes a count it does not inflect (not "11 models", "0.1 models");
# likewise an attack's "1 successes, ... 1 casualties" (session 34)
_ONE_MODELS = re.compile(r"(?<![\d.])1 models\b")
_ONE = {"successes": "success", "casualties": "casualty"}
_ONE_OTHER = re.compile(r"(?<![\d.])1 (successes|casualties)\b")
# a removal's reason written with its own parentheses inside the line's: "3 models removed
# (Dangerous Ground (removed at once, §4.6))" reads "(Dangerous Ground, removed at once, §4.6)"
_NESTED = re.compile(r"\(([^()]+) \(([^()]+)\)\)")
# a roll-off tied again: the engine's label grows by " (reroll)" each time (its dice draw's key)
_REROLLS = re.compile(r"(?: \(reroll\))+")
# the end event's values (§2.2 step 8): "The game ends (...): Red 120.0, Blue 230.0 points
# remaining"; a whole number's ".0" goes, a fraction stays ("811.7")
_REMAINING = re.compile(r"(?<=: )[^:;]*(?= points remaining)")
_WHOLE = re.compile(r"(?<![\d.])(\d+)\.0(?![\d])")


def said(text: str) -> str:
    """An engine event's text as a person reads it: "1 model", not "1 models" (and "1
    success", "1 casualty"; one pair of parentheses, not one inside another); a roll-off
    rolled again after a second tie "(reroll 2)", not "(reroll) (reroll)" (§1.4). The event's
    own text is unchanged (the seeded games' fingerprints hash it, and a roll-off's label is
    the key of its dice draw); the log, the page and the terminal show this.

    >>> said("The game ends (Game Length): Red 120.0, Blue 811.7 points remaining; Blue wins")
    'The game ends (Game Length): Red 120, Blue 811.7 points remaining; Blue wins'
    """

    def rerolls(m: re.Match[str]) -> str:
        n = m.group(0).count("(reroll)")
        return " (reroll)" if n == 1 else f" (reroll {n})"

    text = _REROLLS.sub(rerolls, _ONE_MODELS.sub("1 model", text))
    text = _ONE_OTHER.sub(lambda m: "1 " + _ONE[m.group(1)], text)
    text = _NESTED.sub(r"(\1, \2)", text)
    # the end's values: "Red 120, Blue 230 points remaining", not "120.0" (session 33)
    return _REMAINING.sub(lambda m: _WHOLE.sub(r"\1", m.group(0)), text)


def _inches(p: Any) -> str:
    try:
        return f'({float(p[0]):.3g}", {float(p[1]):.3g}")'
    except (TypeError, ValueError, IndexError):
        return str(p)


def describe(view: Any, action: Any) -> str | None:
    """``action`` (its JSON) in words, or ``None`` for a kind not worded here."""
    if not isinstance(action, dict):
        return None
    units = view.get("units") if isinstance(view, dict) else None
    labels = {
        u.get("uid"): str(u.get("label"))
        for u in units or []
        if isinstance(u, dict) and u.get("label") is not None
    }
    # terrain with a profile (a Target, §10.2-10.3) and terrain that attacks, by its number
    for key in ("control", "armed_terrain"):
        pieces = view.get(key) if isinstance(view, dict) else None
        for p in pieces or []:
            if isinstance(p, dict) and p.get("name") is not None and "number" in p:
                labels[p.get("number")] = f"{p['name']} (terrain)"
    sides = view.get("sides") if isinstance(view, dict) else None
    names = [str(s.get("name")) for s in sides or [] if isinstance(s, dict)]

    def unit(uid: Any) -> str:
        return labels.get(uid, f"unit {uid}")

    a = action
    kind = a.get("kind")
    who = unit(a.get("unit"))
    if kind == "pass":
        return "Pass (no action)"
    if kind == "end_step":
        return "End this Action Step"
    if kind == "turn_master":
        side = a.get("side")
        if isinstance(side, int) and 0 <= side < len(names):
            return f"{names[side]} is the Turn Master"
        return f"side {side} is the Turn Master"
    if kind == "counter":
        what = COUNTER_WORDS.get(str(a.get("choice")))
        return None if what is None else f"{who}: {what}"
    if kind == "deploy" and a.get("at") is not None:
        return f"{who}: deploy at {_inches(a['at'])}"
    if kind == "move" and a.get("to") is not None and "positions" not in a:
        # toward: the unit goes up to its Move (Dash) toward the point, not always onto it
        return f"{who}: {'Dash' if a.get('dash') else 'move'} toward {_inches(a['to'])}"
    if kind == "move" and a.get("engage") is not None and "positions" not in a:
        # a charge (§4.3 L1985-1991): into Base Contact with the unit it names
        how = "Dash" if a.get("dash") else "move"
        return f"{who}: charge {unit(a['engage'])} ({how} into Base Contact)"
    if kind == "disembark" and "positions" not in a and not a.get("reserve"):
        how = "Dash" if a.get("dash") else "Move"
        to = a.get("to")
        where = f"toward {_inches(to)}" if to is not None else "where the engine places it"
        return f"{who}: disembark {where} ({how})"
    if kind == "attack" and isinstance(a.get("targets"), list):
        aims = []
        for t in a["targets"]:
            if isinstance(t, list | tuple) and len(t) == 2:
                aims.append(f"{t[0]} at {unit(t[1])}")
        return f"{who}: attack with " + "; ".join(aims) if aims else None
    words = {"guard": "Guard", "prepare": "Prepare", "support": "Support", "use_perks": "Use Perks"}
    if kind in words and set(a) == {"kind", "unit"}:
        return f"{who}: {words[str(kind)]}"
    return None
