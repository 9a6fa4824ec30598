"""A WARSURGE action in a player's words, read against a player's view (both as JSON): units
by their names, not their numbers, points in inches. The terminal (``warbench play``) and the
web page (``web/play/scenes.py``) list a decision's choices with them; the action's JSON stays
what is sent. A kind it does not word returns ``None`` (the caller keeps its generic label).

The Counter Actions of the Advanced game (001_d3f5e425c5e1196d.txt §9.3, L3825-L3850) say what
each one is: no Counter Action, a Counter Attack on the attacking unit, a Counter Guard, a
Counter Use Perks; each costs the Command Points of its parent Action (L3836).

A casualty choice (§5.11, §5.12, §5.13) says which models become casualties (removed at the
end of the Attack Phase, §5.11), numbered from 1 as the board's previews and the Play Manager
number them ("Blue: Dead Dogs: models 1 to 3, the 3 nearest Red: Sniper Troopers, become
casualties (§5.11)"; §5.13 cited too when models out of the attacker's sight are left
out): :func:`casualty_outcome` asks the engine which models lose how many HP (the choice is
an order of preference inside the rules' order, §5.12, §5.16, so only the engine knows),
:func:`describe` words it; without a game to ask, the choice is worded as the order it is
(session 38: it was "casualties: unit 3, models [0, 1, ...]")."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameState

#: (model, HP it loses) for each model a casualty choice takes HP from, models from 0
Outcome = Sequence[tuple[int, int]]

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


def models_said(models: Sequence[int]) -> str:
    """Model indices (from 0) as a player counts them (from 1), runs of three or more
    joined: "model 1", "models 1 and 2", "models 1 to 10", "models 1 to 3, 5 and 7".

    >>> models_said([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    'models 1 to 10'
    >>> models_said([9, 8, 7])
    'models 10, 9 and 8'
    >>> models_said([0, 1, 2, 4, 6])
    'models 1 to 3, 5 and 7'
    """
    parts: list[str] = []
    k = 0
    ms = [int(m) + 1 for m in models]
    while k < len(ms):
        j = k
        while j + 1 < len(ms) and ms[j + 1] == ms[j] + 1:
            j += 1
        if j - k >= 2:
            parts.append(f"{ms[k]} to {ms[j]}")
        else:
            parts.extend(str(m) for m in ms[k : j + 1])
        k = j + 1
    if len(parts) == 1:
        one = len(ms) == 1
        return f"model{'' if one else 's'} {parts[0]}"
    return f"models {', '.join(parts[:-1])} and {parts[-1]}"


def casualty_prompt(target: str, loss: int, cause: str, candidates: Sequence[int]) -> str:
    """The casualty decision's question (§5.11, §5.13), its models numbered from 1 and in
    their order (the engine lists the candidates wounded first, §5.12: "among models 2, 5, 1, 3
    and 4" read as a puzzle, session 39's walk).

    >>> casualty_prompt("Dead Dogs", 3, "Troopers", range(10))
    'Dead Dogs loses 3 HP to Troopers: choose the casualties among models 1 to 10'
    >>> casualty_prompt("Gut-Hackers", 6, "Assault Squad", [1, 4, 0, 2, 3])[-30:]
    'casualties among models 1 to 5'
    """
    return f"{target} loses {loss} HP to {cause}: choose the casualties among " + models_said(
        sorted(candidates)
    )


def casualty_outcome(game: GameState, models: Sequence[int]) -> list[tuple[int, int]] | None:
    """Which models of the unit waiting for its casualties (``game.pause``, §5.11) lose how
    many HP if its controller names ``models`` first: the engine's own allocation (the rules'
    order, §5.12 wounded models first, §5.16 upgraded saves first, then the player's order),
    read off a copy of the game in which the waiting Attack ends with the weapon that waits
    (the later weapons are not rolled). ``None``: no casualty choice waits, or the engine
    refuses ``models``. In model order.

    Kept in the game's own cache (``game.cache``, the state is immutable; session 39: a page's
    listing, its distinct choices (:func:`distinct_casualties`) and a player's own order asked
    again each applied the engine once more, 0.3-0.7 ms a choice)."""
    from dataclasses import replace

    from warbench.kernel.errors import WarbenchError
    from warbench.rulesets.warsurge.game import engine
    from warbench.rulesets.warsurge.game.actions import Casualties

    p = game.pause
    if p is None:
        return None
    key = f"casualty outcome {tuple(int(m) for m in models)}"
    if key in game.cache:
        hit: list[tuple[int, int]] | None = game.cache[key]  # type: ignore[assignment]
        return None if hit is None else list(hit)
    cut = replace(p, plan=replace(p.plan, weapons=p.plan.weapons[: p.weapon + 1]))
    try:
        after, _ = engine.apply(replace(game, pause=cut), Casualties(p.target, tuple(models)))
    except WarbenchError:
        game.cache[key] = None
        return None
    was, now = game.units[p.target].hp, after.units[p.target].hp
    out = [(m, was[m] - now[m]) for m in sorted(p.candidates) if now[m] < was[m]]
    game.cache[key] = tuple(out)
    return out


def distinct_casualties(game: GameState, choices: Sequence[Sequence[int]]) -> list[int]:
    """The indices of ``choices`` (casualty orders, models from 0) to list: each outcome once
    (:func:`casualty_outcome`), the first order giving it kept (the engine's own comes first);
    an order the engine refuses or cannot word is kept. Two orders may remove the same models
    (a wounded model goes first whatever the order, §5.12; one model loses HP): a player was
    offered the same choice twice (session 38's walk)."""
    seen: set[tuple[tuple[int, int], ...]] = set()
    keep: list[int] = []
    for k, models in enumerate(choices):
        lost = casualty_outcome(game, models)
        if lost is not None:
            said = tuple(lost)
            if said in seen:
                continue
            seen.add(said)
        keep.append(k)
    return keep


def _casualties(view: Any, a: dict[str, Any], who: str, lost: Outcome | None) -> str | None:
    """A casualty choice in words (see the module's docstring)."""
    models = a.get("models")
    if not isinstance(models, list) or not all(isinstance(m, int) for m in models):
        return None
    if lost is None:
        if not models:
            return f"{who}: casualties in the rules' order (§5.11, §5.12)"
        return (f"{who}: casualties from {models_said(models)} first, in that order, wounded "
                "models first (§5.11, §5.12)")  # fmt: skip
    units = {u.get("uid"): u for u in (view.get("units") or []) if isinstance(u, dict)}
    u = units.get(a.get("unit")) or {}
    hp, full = list(u.get("hp") or []), u.get("hp_per_model")
    dead = [m for m, n in lost if m < len(hp) and n >= hp[m]]
    said: list[str] = []
    if dead:
        # they become casualties now and are removed at the end of the Attack Phase (§5.11
        # L2872; the Advanced game's Attack Action, rulings), so the words do not say "remove"
        where = _where(view, a.get("unit"), dead)
        become = "becomes a casualty" if len(dead) == 1 else "become casualties"
        said.append(f"{models_said(dead)}{f', {where},' if where else ''} {become}")
    for m, n in lost:
        if m not in dead:
            left = f", {hp[m] - n} left" if m < len(hp) else ""
            said.append(f"{models_said([m])} loses {n} HP{left}")
    if not said:
        return f"{who}: no model loses HP (§5.11)"
    # a wounded model goes first whatever the order (§5.12): said, as two choices may then
    # remove the same model
    wounded = [m for m, _ in lost if m < len(hp) and isinstance(full, int) and hp[m] < full]
    if wounded:
        was = "was" if len(wounded) == 1 else "were"
        said.append(f"{models_said(wounded)} {was} wounded already, so first whatever the order")
    rule = "§5.11, §5.12" if len(dead) < len(lost) or wounded else "§5.11"
    if _out_of_sight(view, hp):
        rule += ", §5.13"  # some models cannot be chosen: not in the attacker's sight
    return f"{who}: {'; '.join(said)} ({rule})"


def _out_of_sight(view: Any, hp: Sequence[Any]) -> bool:
    """Whether the waiting casualty choice leaves out models of the unit still standing (not
    in the attacker's line of sight, §5.13 L2953)."""
    pause = view.get("casualties") if isinstance(view, dict) else None
    if not isinstance(pause, dict):
        return False
    cands = [m for m in pause.get("candidates") or [] if isinstance(m, int)]
    standing = [m for m, h in enumerate(hp) if isinstance(h, int) and h > 0]
    return bool(cands) and len(cands) < len(standing)


def _where(view: Any, uid: Any, dead: Sequence[int]) -> str | None:
    """ "the 3 nearest Red: Sniper Troopers" (or "the farthest from"): where the removed
    models stand among the candidates, seen from the attacking unit (``view.casualties``;
    none for a unit's own casualties, or when they are neither)."""
    pause = view.get("casualties") if isinstance(view, dict) else None
    if not isinstance(pause, dict) or pause.get("attacker") == pause.get("target"):
        return None
    units = {u.get("uid"): u for u in view.get("units") or [] if isinstance(u, dict)}
    mine, foe = units.get(uid), units.get(pause.get("attacker"))
    if mine is None or foe is None or mine.get("loc") != "table" or foe.get("loc") != "table":
        return None
    cands = [m for m in pause.get("candidates") or [] if isinstance(m, int)]
    pos, at = list(mine.get("pos") or []), list(foe.get("pos") or [])
    gone = list(foe.get("removed") or [])
    at = [p for k, p in enumerate(at) if not (k < len(gone) and gone[k])]
    if not at or len(dead) >= len(cands) or any(m >= len(pos) for m in cands):
        return None

    def far(m: int) -> float:
        return min(math.dist(pos[m], p) for p in at)

    inside = [far(m) for m in dead]
    outside = [far(m) for m in cands if m not in dead]
    n = "" if len(dead) == 1 else f" {len(dead)}"
    name = str(foe.get("label"))
    if max(inside) < min(outside) - 1e-9:
        return f"the{n} nearest {name}"
    if min(inside) > max(outside) + 1e-9:
        return f"the{n} farthest from {name}"
    return None


def describe(view: Any, action: Any, lost: Outcome | None = None) -> str | None:
    """``action`` (its JSON) in words, or ``None`` for a kind not worded here. ``lost``: for
    a casualty choice, the models it takes HP from (:func:`casualty_outcome`); without it the
    choice is said as the order it names."""
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
    if kind == "casualties":
        return _casualties(view if isinstance(view, dict) else {}, a, who, lost)
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
    return _placing(view if isinstance(view, dict) else {}, a, who, unit)


def _placing(view: dict[str, Any], a: dict[str, Any], who: str, unit: Any) -> str | None:
    """The kinds that name every model's place, a Transport, a terrain piece or a perk's
    choice (session 38: each had only its generic label, "restore: unit 3, positions [[...]]")."""
    kind = a.get("kind")
    how = "Dash" if a.get("dash") else "Move"
    if kind == "deploy":
        if a.get("into") is not None:
            return f"{who}: deploy inside {unit(a['into'])} (Rift Gate, Perks L1384)"
        said = f"{who}: deploy at the places given (§3.6)"
        if a.get("passengers"):
            said += ", with " + ", ".join(unit(p) for p in a["passengers"]) + " embarked (§6.1)"
        return said
    if kind == "move":
        if a.get("engage") is not None:
            return f"{who}: charge {unit(a['engage'])} ({how} into Base Contact, models placed)"
        return f"{who}: {'Dash' if a.get('dash') else 'move'} to the places given (§4.1)"
    if kind == "embark":
        return f"{who}: embark {unit(a.get('transport'))} ({how}, §6.2)"
    if kind == "embark_terrain":
        part = f" ({models_said(a['models'])} inside)" if a.get("models") else ""
        return f"{who}: embark {a.get('terrain')}{part} ({how}, §10.2)"
    if kind == "disembark":
        if a.get("reserve"):
            return f"{who}: disembark into Reserve (Rift Gate, Perks L1384)"
        return f"{who}: disembark to the places given ({how}, §6.3)"
    if kind == "restore":
        moved = _moved(view, a)
        what = f"move {models_said(moved)}" if moved else "move its models"
        return f"{who}: {what} back into Coherency (§4.2 IV)"
    if kind == "contact":
        moved = _moved(view, a)
        what = f"move {models_said(moved)}" if moved else "move its models"
        return f"{who}: {what} back into Base Contact with {unit(a.get('foe'))} (§4.4 III)"
    if kind == "survivors":
        lost = f"; {models_said(a['lost'])} cannot be placed and are lost" if a.get("lost") else ""
        return f"{who}: place the survivors where its Transport stood (§6.6){lost}"
    if kind == "delay":
        what = "its perk use" if a.get("perk_use") else "its action"
        return f"{who}: delay {what} to the end of the Game Turn (Opportunist, Perks L1340)"
    if kind == "use_perks" and a.get("perks"):
        return f"{who}: Use Perks: {', '.join(map(str, a['perks']))}"
    return None


def _moved(view: dict[str, Any], a: dict[str, Any]) -> list[int]:
    """The models (from 0) a placement (``positions``: every model on the battlefield, in
    model order) moves from where the view has them; empty when it cannot tell."""
    units = {u.get("uid"): u for u in view.get("units") or [] if isinstance(u, dict)}
    u = units.get(a.get("unit"))
    new = a.get("positions")
    if u is None or not isinstance(new, list):
        return []
    pos, gone, hp = list(u.get("pos") or []), list(u.get("removed") or []), list(u.get("hp") or [])
    on = [
        k
        for k in range(len(pos))
        if not (k < len(gone) and gone[k]) and (k >= len(hp) or hp[k] > 0)
    ]
    if len(on) != len(new):
        return []
    try:
        return [k for k, p in zip(on, new, strict=True) if math.dist(pos[k], p) > 1e-6]
    except (TypeError, ValueError):
        return []


#: a casualty order typed in a player's words: "models 3 5 1", "model 2", "m 3, 5, 1"
_TYPED_ORDER = re.compile(r"^\s*(?:models?|m)\s*[: ]\s*([\d ,]+?)\s*$", re.IGNORECASE)


def typed_casualties(line: str, candidates: Sequence[int]) -> list[int] | None:
    """A casualty order typed by a player, models numbered from 1 as the board and the choices
    number them ("models 3 5 1": model 3 first, then 5, then 1), as model indices from 0 for
    the engine's ``Casualties`` (§5.11: the controlling player chooses which models are the
    casualties; the rules' order still goes first, §5.12, §5.16). ``None``: the line is not
    such an order. A model that may not be chosen (not in the unit, already a casualty, out of
    the attacker's sight, §5.13) or named twice raises :class:`RulesError` naming it and the
    models that may be, from 1.

    >>> typed_casualties("models 3 5 1", range(10))
    [2, 4, 0]
    >>> typed_casualties("m 2,4", range(10))
    [1, 3]
    >>> typed_casualties("3", range(10)) is None
    True
    """
    from warbench.kernel.errors import RulesError

    m = _TYPED_ORDER.match(line)
    if m is None:
        return None
    said = [int(x) for x in re.split(r"[ ,]+", m.group(1).strip()) if x]
    allowed = sorted(int(c) for c in candidates)
    may = models_said(allowed)
    for n in said:
        if n - 1 not in allowed:
            why = f"model {n} may not be chosen; the choice is among {may}"
            raise RulesError(why, "§5.11, §5.13")
    if len(set(said)) != len(said):
        raise RulesError("a model is named twice; name each once", "§5.11")
    if not said:
        raise RulesError(f"name at least one model, among {may}", "§5.11")
    return [n - 1 for n in said]


def typed_casualties_hint(candidates: Sequence[int]) -> str:
    """How to type a casualty order of one's own (:func:`typed_casualties`).

    >>> typed_casualties_hint(range(10))[:61]
    'or your own order, e.g. "models 10 9 1" (among models 1 to 10'
    """
    ms = sorted(int(c) + 1 for c in candidates)
    e = " ".join(map(str, (ms[::-1][:2] + ms[:1]) if len(ms) > 2 else ms[::-1]))
    return (
        f'or your own order, e.g. "models {e}" (among {models_said([m - 1 for m in ms])}; '
        "a wounded model still goes first, §5.12)"
    )
