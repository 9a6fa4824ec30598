"""Small WarEngine game set-ups for the tests: forces built from figure dicts, figures placed
by hand, scripted dice (004_f4ea5693af0644ce.txt)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warbench.kernel.dice import ScriptedDice
from warbench.play.core import Event
from warbench.rulesets.warengine.game import setup as stp
from warbench.rulesets.warengine.game.control import check_control, choose_leader
from warbench.rulesets.warengine.game.protocol import WarEngineRuleset
from warbench.rulesets.warengine.game.state import Activate, GameState, WarEngineAction
from warbench.rulesets.warengine.io import load_force, to_data

DATA = Path(__file__).parent / "data"
WS = WarEngineRuleset()


def trooper(name: str = "Trooper", **kw: Any) -> dict[str, Any]:
    """A plain trooper (T, Mv 6", Df 2k2, Mn 3k2) with a rifle and a knife."""
    fig: dict[str, Any] = {
        "name": name,
        "type": "T",
        "mv": '6"',
        "df": "2k2",
        "mn": "3k2",
        "weapons": [
            {"name": "Rifle", "range": '24"', "av": "2k2"},
            {"name": "Knife", "av": "1k1"},
        ],
    }
    fig.update(kw)
    return fig


def character(name: str, mv: int) -> dict[str, object]:
    """A character figure of Move ``mv`` with a Pistol (the placing order's examples)."""
    return {
        "name": name,
        "type": "C",
        "mv": f'{mv}"',
        "df": "3k3",
        "mn": "4k3",
        "cr": '6"',
        "weapons": [{"name": "Pistol", "range": '12"', "av": "2k2"}],
    }


def captain() -> dict[str, object]:
    """A character with a Sword and Command Range 8" (the L375 activation's leader)."""
    return {
        "name": "Captain",
        "type": "C",
        "mv": '9"',
        "df": "4k3",
        "mn": "5k4",
        "cr": '8"',
        "weapons": [{"name": "Sword", "av": "3k3"}],
    }


def force(
    *units: tuple[str, list[tuple[dict[str, Any], int]]], tweaks: Any = None
) -> dict[str, Any]:
    """A force of the given units ``(name, [(figure, count), ...])`` with ample budgets."""
    figures: dict[str, Any] = {}
    out_units = []
    for k, (uname, members) in enumerate(units):
        ms = []
        for fig, count in members:
            key = f"{fig['name']}".lower().replace(" ", "_")
            figures[key] = fig
            ms.append({"figure": key, "count": count})
        unit: dict[str, Any] = {"name": uname, "members": ms}
        if tweaks and k in tweaks:
            unit["tweaks"] = tweaks[k]
        out_units.append(unit)
    return {"name": "Test", "renown": 4000, "force": 8000, "figures": figures, "units": out_units}


def board(*terrain: dict[str, Any], size: float = 48) -> dict[str, Any]:
    """An open board with the given terrain pieces."""
    return {"name": "test", "width": size, "height": size, "terrain": list(terrain)}


def sample_forces() -> tuple[dict[str, Any], dict[str, Any]]:
    """The two 500-point test forces."""
    return (
        to_data(load_force(DATA / "strike_team.yaml")),
        to_data(load_force(DATA / "thug_gang.yaml")),
    )


def table(
    f0: dict[str, Any],
    f1: dict[str, Any],
    positions: list[tuple[float, float]],
    *,
    terrain: tuple[dict[str, Any], ...] = (),
    options: dict[str, Any] | None = None,
    seed: int = 0,
) -> GameState:
    """A game in the Conflict step, turn 1, player 0 to act, figures at ``positions``."""
    opts = {"builder_limits": False, **(options or {})}
    s = WS.setup((f0, f1), board(*terrain), opts, seed)
    ctx = stp.context(s.setup_key)
    assert len(positions) == len(s.figs), f"{len(s.figs)} figures need positions"
    for f, (x, y) in zip(s.figs, positions, strict=True):
        f.x, f.y, f.placed = float(x), float(y), True
    s.place_order = []
    s.placing = None
    s.phase = "conflict"
    s.initiative = 0
    s.first = 0
    s.to_act = 0
    for u in s.units:
        choose_leader(s, ctx, u.id)
        check_control(s, ctx, [u.id])
    s.leader_choice = []
    return s


def act(
    s: GameState, action: WarEngineAction, player: int, faces: list[int] | None = None
) -> tuple[GameState, list[Event]]:
    """Apply an action (with scripted dice when ``faces`` is given)."""
    dice = ScriptedDice(faces) if faces is not None else ScriptedDice([])
    return WS.apply(s, action, player, dice)


def activate(
    s: GameState, unit: int, join: int | None = None, faces: list[int] | None = None
) -> GameState:
    """Activate ``unit`` (its owner becomes the player to act)."""
    s = s.clone()
    s.to_act = s.units[unit].side
    s.active_unit = None
    s.window = None
    out, _ = act(s, Activate(unit, join), s.to_act, faces)
    return out


def texts(events: list[Event]) -> str:
    """All event texts, one per line."""
    return "\n".join(e.text for e in events)


def ctx_of(s: GameState) -> stp.Context:
    """The set-up context of a state."""
    return stp.context(s.setup_key)
