"""The WarEngine 2.1 game's actions in a player's words (004_f4ea5693af0644ce.txt), for the
page's buttons (``web/play/warengine_scene.py``) and the terminal's numbered choices
(``warbench play --ruleset warengine``): figures and weapons by name, points in inches, a push
toward the figure it heads for (Monstrously Huge, L1403), a power's chosen figure (Summoning's
Summoned figure, ``Attack.via``, L1279) and its place (``Attack.at``, L1031-L1331). The action
itself (its JSON) is unchanged: these are its labels."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from warbench.rulesets.warengine.game.setup import Context

__all__ = ["RUNS", "describe", "said"]

#: Decision kinds a player may answer for the rest of a run of them at the suggested choices,
#: kind -> the answer's words: a player places all the figures of a Movement group in a row
#: (L303-309: "Aaron places all his Mv 9" figures, then Dave places all his Mv 9" figures"),
#: so the rest of a player's placements may go to the engine's suggested places. The page's
#: button (``WarEnginePresenter.rest_as_suggested``) and the terminal's ``r`` answer
#: (``PromptPlayer.runs``, session 39, s39-we2) both read it.
RUNS: dict[str, str] = {"place": "Place the rest of your figures as suggested"}

# the engine's "player 0" (a seat, numbered from 0) in an event's or a result's text
_PLAYER = re.compile(r"\bplayer (\d+)\b")
# "spends 1 Hero Points", "spends 0 Hero Points" (L493)
_HERO = re.compile(r"\b([01]) Hero Points\b")
# a point on the table as the engine writes it: "(17, 21.501)"
_POINT = re.compile(r"\((-?\d+(?:\.\d+)?), (-?\d+(?:\.\d+)?)\)")


def said(text: str, names: Sequence[str], data: Mapping[str, Any] | None = None) -> str:
    """An engine event's (or result's) text as a person reads it: each "player N" (the seat,
    from 0) called by its force's name (session 33: "player 0 rolls higher", "player 0
    wins"); an event about a unit (``data``'s ``side``: its activation, its rout test, its
    end) begins with its force's name, as two forces may field units of one name (session
    35: "WarpEyes activates" in StormReavers against StormReavers); "1 Hero Point", "no Hero
    Points"; a point on the table in inches to a tenth (``(17", 21.5")`` for the engine's
    ``(17, 21.501)``, as the choices say them). The engine's text is unchanged (the record
    keeps it); the log, the page, the replay viewer and the terminal show this. A seat
    ``names`` does not cover stays as it is.

    >>> said("player 0 rolls higher: player 1 places first", ["Reavers (1)", "Reavers (2)"])
    'Reavers (1) rolls higher: Reavers (2) places first'
    >>> said("after 6 turns 40 to 10 victory points: player 1 wins", ["A", "B"])
    'after 6 turns 40 to 10 victory points: B wins'
    >>> said("WarpEyes activates", ["Reavers (1)", "Reavers (2)"], {"side": 1})
    'Reavers (2): WarpEyes activates'
    >>> said("player 0 spends 1 Hero Points", ["A", "B"])
    'A spends 1 Hero Point'
    >>> said("Reaver #13 moves to (21.201, 31.489)", ["A", "B"])
    'Reaver #13 moves to (21.2", 31.5")'
    """

    def name(m: re.Match[str]) -> str:
        k = int(m.group(1))
        return names[k] if k < len(names) else m.group(0)

    out = _PLAYER.sub(name, text)
    out = _HERO.sub(lambda m: "no Hero Points" if m.group(1) == "0" else "1 Hero Point", out)
    out = _POINT.sub(lambda m: f'({_inches(m.group(1))}", {_inches(m.group(2))}")', out)
    side = (data or {}).get("side")
    if isinstance(side, int) and not isinstance(side, bool) and 0 <= side < len(names):
        out = f"{names[side]}: {out}"
    return out


def _inches(number: str) -> str:
    """A coordinate to a tenth of an inch, without trailing zeros ("21.5", "17")."""
    return f"{round(float(number), 1):g}"


def describe(
    ctx: Context, view: dict[str, Any], action: Any, names: Sequence[str] = ()
) -> str | None:
    """``action`` (its JSON) in words, read against ``view`` (the protocol view's JSON: the
    figures' names, units and places), ``ctx`` (the weapons' names) and ``names`` (the
    players' names, by seat; none: "Player 1", "Player 2"); ``None`` for a kind it does not
    word (the caller keeps its generic label)."""
    if not isinstance(action, dict):
        return None
    figs = {f["id"]: f for f in view.get("figures") or [] if isinstance(f, dict)}
    leaders = {u["id"]: u.get("leader") for u in view.get("units") or [] if isinstance(u, dict)}

    def name(fid: Any) -> str:
        f = figs.get(fid)
        return f"{f['name']} #{fid}" if f else f"figure {fid}"

    def unit(uid: Any) -> str:
        members = [k for k, f in figs.items() if f.get("unit") == uid and f.get("alive")]
        lead = leaders.get(uid)
        first = lead if lead is not None else (members[0] if members else None)
        more = f" and {len(members) - 1} more" if len(members) > 1 else ""
        return f"{name(first)}{more}" if first is not None else f"unit {uid}"

    def point(x: Any, y: Any) -> str:
        # to a tenth of an inch, as the log says it (session 39: the terminal listed "moves to
        # (17", 20.501")" above the event "moves to (17", 20.5")"); the JSON keeps the point
        return f'({_inches(str(x))}", {_inches(str(y))}")'

    def weapon(fid: Any, w: Any) -> str:
        try:
            weapons = ctx.profiles[fid].weapons
            name = str(weapons[w].name)
        except (IndexError, KeyError, TypeError):
            return f"weapon {w}"
        # two weapons of one name (WarpEyes' two DemonBlades, L953) are told apart
        same = [k for k, x in enumerate(weapons) if str(x.name) == name]
        return name if len(same) < 2 else f"{name} ({same.index(w) + 1} of {len(same)})"

    def figure_at(x: Any, y: Any) -> str | None:
        for k, f in figs.items():
            on = f.get("placed") and f.get("alive")
            if on and abs(float(f["x"]) - float(x)) + abs(float(f["y"]) - float(y)) < 1e-3:
                return name(k)
        return None

    a = action
    kind = a.get("kind")
    if kind == "push":
        toward = figure_at(a["x"], a["y"]) or point(a["x"], a["y"])
        return (f"{name(a['fig'])} gives its movement left to push {name(a['vehicle'])} "
                f"toward {toward}")  # fmt: skip
    if kind == "activate":
        said = f"Activate {unit(a['unit'])}"
        return said + (f" together with {unit(a['join'])}" if a.get("join") is not None else "")
    if kind == "move":
        how = {"move": "moves", "fast": "makes a Fast Move", "charge": "charges"}
        verb = how.get(str(a.get("mode")), "moves")
        return f"{name(a['fig'])} {verb} to {point(a['x'], a['y'])}"
    if kind == "attack":
        f = figs.get(a["fig"]) or {}
        if f.get("reserved") == a["weapon"] and f.get("unit") in (view.get("active_units") or []):
            # L579: a figure that reserved uses its reserve in its own unit's activation
            said = f"{name(a['fig'])} uses its reserved {weapon(a['fig'], a['weapon'])} now"
            said += f" on {name(a['target'])}" if a.get("target") != a.get("fig") else ""
            if a.get("helpers"):
                said += ", helped by " + ", ".join(name(h) for h in a["helpers"])
            return f"{said} (its own unit's activation, L579)"
        said = f"{name(a['fig'])}: {weapon(a['fig'], a['weapon'])}"
        if a.get("target") != a.get("fig"):
            said += f" at {name(a['target'])}"
        if a.get("via") is not None:
            said += f", choosing {name(a['via'])}"
        elif _power(ctx, a["fig"], a["weapon"]) == "Summoning":
            # no figure named: the engine picks (the most expensive waiting, L1279)
            said += ", the engine choosing which Summoned figure (the most expensive waiting)"
        if a.get("at"):
            said += f", placed at {point(*a['at'])}"
        if a.get("helpers"):
            said += ", helped by " + ", ".join(name(h) for h in a["helpers"])
        return said
    if kind == "reserve":
        every = " (every figure of its unit)" if a.get("every") else ""
        return f"{name(a['fig'])} reserves its {weapon(a['fig'], a['weapon'])}{every}"
    if kind == "place":
        form = f" in form {a['form']} (Shapechanger, L1615)" if a.get("form") else ""
        return f"place {name(a['fig'])} at {point(a['x'], a['y'])}{form}"
    if kind == "shape":
        forms = _forms(ctx, figs.get(a["fig"]))
        what = forms[a["form"]] if 0 <= a["form"] < len(forms) else f"form {a['form']}"
        kit = (view.get("kit") or {}).get(str(a["fig"]))
        now = kit.get("form", 0) if isinstance(kit, dict) else 0
        verb = "stays in" if a["form"] == now else "changes to"
        return f"{name(a['fig'])} {verb} its {what} form (form {a['form']}, Shapechanger L1615)"
    if kind == "transfer":
        if a.get("use"):
            return (f"pass {name(a['fig'])}'s Transferable weapon to the nearest figure of its "
                    f'unit within 3" (L1847)')  # fmt: skip
        return f"keep {name(a['fig'])}'s Transferable weapon (it leaves the table with it)"
    if kind == "surge":
        n = a.get("points")
        return (f"{name(a['fig'])} spends {n} of Invigorate's Hero Points on {n}\" more "
                "movement (L1135)")  # fmt: skip
    if kind == "deactivate":
        return "Deactivate (end this unit's activation)"

    def reserved(fid: Any) -> str:
        w = (figs.get(fid) or {}).get("reserved")
        return "reserved attack" if w is None else f"reserved {weapon(fid, w)}"

    return _answers(a, name, list(names) or ["Player 1", "Player 2"], reserved)


def _answers(
    a: Mapping[str, Any], name: Any, names: Sequence[str], reserved: Any = None
) -> str | None:
    """The answers to the questions outside an activation (session 38: "first: player 1",
    "hero: points 1", "reroll: use True" were their generic labels): who activates first
    (L362), a reserved attack out of sequence (L575-L583), Hero Points (L491-L497), a reroll
    (L1391, L1489, L1519, L1585), the leader among tied figures (L334), a roll-off's winner
    (L305, L362: chance's outcome)."""
    kind = a.get("kind")

    def seat(k: Any) -> str:
        return names[k] if isinstance(k, int) and 0 <= k < len(names) else f"player {k}"

    if kind == "first":
        return f"{seat(a.get('player'))} activates first"
    if kind == "reserve fire":
        # the weapon on reserve by name; the rule (L575 answering an attack, L577 at the
        # active unit) is the decision's, not the choice's (session 38 cited L575 for both)
        lunge = ", lunging into base contact first (L583)" if a.get("lunge") else ""
        fig, target = a.get("fig"), a.get("target")
        return f"{name(fig)} uses its {reserved(fig)} on {name(target)}{lunge}"
    if kind == "pass":
        return "Use no reserved attack now"
    if kind == "hero":
        n = a.get("points")
        if n == 0:
            return "Spend no Hero Points"
        # ``Hero(n)`` raises the roll by n; it costs n points, or 2n under Adrenal Overload
        # (L1015, ``resolution.spend``): session 38's "Spend 3 Hero Points on this roll" spent
        # six there. The card's detail says what a raise costs and what it changes.
        return f"Spend Hero Points to raise this roll by {n}"
    if kind == "reroll":
        return "Reroll it" if a.get("use") else "Let the roll stand"
    if kind == "leader":
        return f"{name(a.get('fig'))} leads the unit (You Pick, L334)"
    if kind == "roll":
        return f"{seat(a.get('winner'))} wins the roll-off"
    return None


def _power(ctx: Context, fid: Any, w: Any) -> str | None:
    """The Special Power of figure ``fid``'s weapon ``w`` (None: a weapon, or none found)."""
    try:
        power = ctx.profiles[fid].weapons[w].power
        return None if power is None else str(power)
    except (IndexError, KeyError, TypeError):
        return None


def _forms(ctx: Context, fig: dict[str, Any] | None) -> list[str]:
    """The names of a Shapechanger's forms, its first form first (L1615), read from the
    force its figure was bought with; empty when it cannot be found."""
    if fig is None:
        return []
    home = ctx.homes[fig["id"]] if fig["id"] < len(ctx.homes) else fig.get("side", 0)
    for model in ctx.forces[home].figures.values():
        names = [f.name for f in model.all_forms()]
        if fig.get("name") in names:
            return names
    return []
