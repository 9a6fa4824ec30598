"""Pictures of a game state: text for debugging, SVG/PNG (the battlefield package's renderer),
and the readable turn-by-turn summary of an event log."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from warbench.rulesets.warsurge.battlefield import render_png, render_svg, render_text
from warbench.rulesets.warsurge.battlefield.render import side_colours
from warbench.rulesets.warsurge.game import bases
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.state import GameState, Location, unit_max_hp, unit_value
from warbench.rulesets.warsurge.game.terrain_control import control
from warbench.rulesets.warsurge.game.terrain_transport import terrain_notes
from warbench.rulesets.warsurge.game.words import said


def drawings(state: GameState) -> list[tuple[str, int, list[Any]]]:
    """Units on the battlefield as ``(name, side, [(centre, radius), ...])``; an oval or
    rectangular base or hull (§1.3) as a ``Footprint`` with its facing (``game/bases.py``)."""
    out: list[tuple[str, int, list[Any]]] = []
    for u in state.units:
        if u.location is not Location.TABLE:
            continue
        info = state.info(u.uid)
        if info.base is not None:
            fac = bases.facings(state, u.uid)
            out.append(
                (
                    info.label,
                    info.side,
                    bases.footprints(info.base, info.radius, u.present_xy(), fac),
                )
            )
            continue
        discs: list[Any] = [(u.pos[i], info.radius) for i in u.present()]
        out.append((info.label, info.side, discs))
    return out


def terrain_status(state: GameState) -> dict[str, str]:
    """Each destructible piece's HP left, or "destroyed" (§10.3), and a piece fielded in an
    army its side by name ("in Red's army", §10.2 L4424-4430: the board file numbers the
    side), for the renders."""
    out: dict[str, str] = {}
    sides = state.setup.sides
    for t in state.setup.field.board.terrain:
        words = []
        if t.army is not None and 0 <= t.army < len(sides):
            words.append(f"in {sides[t.army]}'s army")
        if t.hp is not None:
            left = dict(state.terrain_hp).get(t.name, t.hp)
            words.append("destroyed (§10.3)" if left <= 0 else f"HP left {left}/{t.hp}")
        if words:
            out[t.name] = "; ".join(words)
    return out


def _board(state: GameState) -> Any:
    """The battlefield as it stands: destroyed pieces destroyed (§10.3)."""
    from warbench.rulesets.warsurge.game.terrain_field import field_of

    return field_of(state).board


def _zone_colours(state: GameState) -> list[str | None]:
    """Each Deployment Zone's colour: its side's once taken (§3.6), else None."""
    colours = side_colours(state.setup.sides)
    out: list[str | None] = [None] * len(state.setup.field.board.zones)
    for side, zone in enumerate(state.zones):
        if zone is not None and 0 <= zone < len(out):
            out[zone] = colours[side]
    return out


def title(state: GameState) -> str:
    """The picture's title: the Game Turn, the phase and the side to act (none once over)."""
    f = state.flow
    acting = f", {state.setup.sides[f.active]} to act" if f.active is not None else ""
    return f"Game Turn {f.turn}, {f.phase.value} Phase{acting}"


def render_state_text(state: GameState, *, cell: float = 1.0, width: int | None = None) -> str:
    """The board as characters (``cell`` inches a character; the key wrapped at ``width``
    columns, ``None``: one line), then every unit's location, HP, Melee and value: its value
    on the battlefield (§2.2 step 8), or, for a unit in Reserve (or in a Transport there),
    which counts nothing yet, the value it brings once deployed (s34-play2: "0 pts" read as
    its price)."""
    lines = [
        title(state),
        render_text(
            _board(state),
            drawings(state),
            cell=cell,
            status=terrain_status(state),
            sides=state.setup.sides,
            key=True,
            width=width,
        ),
    ]
    for u in state.units:
        info = state.info(u.uid)
        # "on the table", "in Reserve" (session 34: a bare "table" read as a noun)
        where = {"table": "on the table", "reserve": "in Reserve"}.get(
            u.location.value, u.location.value
        )
        if u.location is Location.EMBARKED and u.embarked_in is not None:
            where = f"in {state.info(u.embarked_in).label}"
        elif u.location is Location.TERRAIN:
            where = f"inside {u.terrain}"
        elif u.inside:  # a split unit (L4459-4464)
            where = (
                f"on the table, {len([i for i in u.inside if not u.removed[i]])} inside {u.terrain}"
            )
        melee = state.engaged_with(u.uid)
        extra = f", Melee with {', '.join(str(m) for m in melee)}" if melee else ""
        value = f"{_pts(state.current_value(u.uid))} pts"
        if u.location in (Location.RESERVE, Location.EMBARKED) and not state.current_value(u.uid):
            # off the battlefield it counts nothing (§2.2 step 8): "0 pts" read like its price
            value = f"{_pts(unit_value(state.setup.units[u.uid], u))} pts once deployed"
        lines.append(
            f"[{u.uid}] {info.label}: {where}, {u.removed.count(False)}/{info.models} models, "
            f"{u.current_hp}/{unit_max_hp(info, u)} HP, {value}{extra}"
        )
    lines.extend(f"Inside {note}" for note in terrain_notes(state))  # §10.2 occupants
    for h in control(state):  # §10.2 L4404-4407, Perks L95
        who = (
            "contested by " + ", ".join(state.setup.sides[s] for s in sorted(h.sides))
            if h.contested
            else f"held by {state.setup.sides[h.controller]}"
            if h.controller is not None
            else "held by nobody"
        )
        lines.append(f"{'Objective' if h.kind == 'objective' else 'Terrain'} {h.name}: {who}")
    values = state.side_values()
    lines.append(
        "Value on the battlefield: "
        + ", ".join(f"{n} {_pts(v)}" for n, v in zip(state.setup.sides, values, strict=True))
    )
    adv = state.flow.adv
    if adv is not None:  # the Advanced game: each side's Command Points to spend (§9)
        lines.append(
            "Command Points: "
            + ", ".join(f"{n} {cp}" for n, cp in zip(state.setup.sides, adv.cp, strict=True))
        )
    return "\n".join(lines)


def render_state_svg(state: GameState, path: str | Path) -> Path:
    """The board as SVG; the title names the units inside terrain pieces (§10.2)."""
    inside = terrain_notes(state)
    head = title(state) + ("; inside " + "; ".join(inside) if inside else "")
    return render_svg(
        _board(state),
        drawings(state),
        path,
        title=head,
        status=terrain_status(state),
        colours=side_colours(state.setup.sides),  # "Red" drawn red (session 27, s27-user)
        zone_colours=_zone_colours(state),
    )


def render_state_png(state: GameState, path: str | Path) -> Path:
    out: Path = render_png(
        _board(state),
        drawings(state),
        path,
        status=terrain_status(state),
        colours=side_colours(state.setup.sides),
        zone_colours=_zone_colours(state),
    )
    return out


_SUMMARY_KINDS = {
    "turn",
    "turn_master",
    "zone",
    "deploy",
    "move",
    "melee",
    "attack",
    "danger",
    "embark",
    "disembark",
    "destroyed",
    "terrain_destroyed",
    "survivors",
    "melee_end",
    "length",
    "end",
}


def summary(events: Sequence[Event], *, verbose: bool = False) -> list[str]:
    """The readable turn-by-turn summary: one line per meaningful event (its text as a person
    reads it, :func:`~warbench.rulesets.warsurge.game.words.said`)."""
    out: list[str] = []
    for e in events:
        if not verbose and e.kind not in _SUMMARY_KINDS:
            continue
        if e.kind == "turn":
            out.append(f"== {said(e.text)} ==")
        else:
            out.append(f"  [{e.phase}] {said(e.text)}")
    return out


def event_dicts(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events]


def _pts(v: float) -> str:
    """A point value as the status says it: one decimal, "120" for 120.0 (session 34).

    >>> _pts(120.0), _pts(72.5), _pts(0.04)
    ('120', '72.5', '0')
    """
    return f"{v:.1f}".removesuffix(".0")
