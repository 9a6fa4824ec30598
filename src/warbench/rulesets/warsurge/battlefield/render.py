"""Pictures of a battlefield: a text map for terminals and logs, SVG and PNG with matplotlib.

``units`` is what the game engine knows: a list of ``(name, player_index, [(point, radius),
...])``; a model may also be a :class:`~.model.Footprint` (an oval or rectangular base or hull,
§1.3). Terrain is styled by property (impassable dark, LoS-blocking grey, difficult hatched,
dangerous red-edged, cover green), Deployment Zones are shaded, each player has a colour.
Heights, HP, profiles, Transport Capacity, custom cover, gates and connections (§10) are
written on the pieces (and listed under the text map); Objectives are drawn as markers.
"""

from __future__ import annotations

import string
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import shapely

from warbench.kernel.colours import PALETTE, named_side_colours
from warbench.rulesets.warsurge.battlefield.model import Board, Disc, Footprint, Point, Terrain

__all__ = [
    "PLAYER_COLOURS",
    "UnitDrawing",
    "render_png",
    "render_svg",
    "render_text",
    "side_colours",
    "terrain_notes",
]

#: A unit to draw: its name, its player's index and its models (discs or footprints).
UnitDrawing = tuple[str, int, Sequence[Disc | Footprint]]

#: The text map's character for an Objective marker (drawn over terrain and zones).
OBJECTIVE_CHAR = "*"
#: The mark of a terrain piece whose weapons are in play (§10.2, ``game/terrain_army.py``).
ARMED_CHAR = "@"
#: the outline of a piece whose weapons its controller fires (no side's colour)
ARMED_COLOUR = "#d4ac0d"

PLAYER_COLOURS = list(PALETTE)


def side_colours(names: Sequence[str]) -> list[str]:
    """Each side's colour (:func:`~warbench.kernel.colours.named_side_colours`), else the
    colours by seat."""
    named = named_side_colours(names)
    if named is not None:
        return named
    return [PLAYER_COLOURS[k % len(PLAYER_COLOURS)] for k in range(len(names))]


_ZONE_COLOURS = ["#9ec5fe", "#f5b7b1", "#abebc6", "#d7bde2"]
_UNIT_LETTERS = string.ascii_uppercase + string.ascii_lowercase


#: what each character of :func:`render_text`'s map means (its ``key`` line; session 32)
MAP_KEY = {
    ".": "open ground",
    ":": "Deployment Zone",
    "~": "difficult",
    "!": "dangerous",
    "%": "cover",
    "X": "blocks line of sight",
    "#": "impassable",
    "+": "other terrain",
    OBJECTIVE_CHAR: "Objective",
    ARMED_CHAR: "armed terrain",
}


#: The key's compass: the board's edges as the Deployment Zones' names say them ("south edge",
#: "north-east corner"; ``model.py``), north at the top of the text map.
COMPASS = ("north at the top", "south at the bottom", "west at the left", "east at the right")


def _key_lines(entries: Sequence[str], width: int | None) -> list[str]:
    """The text map's key: the characters' ``entries``, then the compass; wrapped at
    ``width`` columns (``None`` or 0: one line) between entries, none split inside unless it
    alone is wider than the line, and then at its spaces, never inside a word (session 36:
    the WarEngine's placing-strips entry, 70 characters, was cut wherever the line ended).

    >>> for row in _key_lines(["# impassable", "X blocks line of sight"], 36):
    ...     print(row)
    Key: # impassable,
         X blocks line of sight;
         compass: north at the top,
         south at the bottom,
         west at the left,
         east at the right
    >>> for row in _key_lines([": placing strips (Red south, Blue north; L301-309)"], 30):
    ...     print(row)
    Key: : placing strips (Red
         south, Blue north;
         L301-309); compass: north
         at the top,
         south at the bottom,
         west at the left,
         east at the right
    """
    line = "Key: " + ", ".join(entries) + "; compass: " + ", ".join(COMPASS)
    if not width:
        return [line]
    indent = "     "
    # each entry with the mark that follows it; "compass:" leads the first compass point
    pieces = [f"{e}," for e in entries[:-1]] + [f"{e};" for e in entries[-1:]]
    pieces += [f"compass: {COMPASS[0]},"] + [f"{c}," for c in COMPASS[1:-1]] + [COMPASS[-1]]
    rows: list[str] = []
    row = "Key:"
    for piece in pieces:
        if len(row) + 1 + len(piece) <= width:
            row += " " + piece
            continue
        if row != "Key:" and len(indent) + len(piece) <= width:
            rows.append(row)  # the entry whole on the next line
            row = indent + piece
            continue
        # wider than a line: at its spaces, never inside a word
        for word in piece.split(" "):
            if len(row) + 1 + len(word) <= width or not row.strip():
                row += (" " if row.strip() else "") + word
            else:
                rows.append(row)
                row = indent + word
    rows.append(row)
    return rows


def _terrain_char(t: Terrain) -> str:
    if t.impassable:
        return "#"
    if t.blocks_los:
        return "X"
    if t.dangerous is not None:
        return "!"
    if t.difficult:
        return "~"
    if t.cover or t.cover_area:
        return "%"
    return "+"


def terrain_notes(t: Terrain) -> list[str]:
    """What a piece has beyond the flat-board properties (§10): height and floor, HP, a
    profile, Transport Capacity and Fire Points, custom cover, connections, gates."""
    notes: list[str] = []
    if t.height is not None:
        notes.append(f'height {t.height:g}"' + (f' (floor at {t.level:g}")' if t.level else ""))
    elif t.level:
        notes.append(f'floor at {t.level:g}"')
    if t.hp is not None:
        notes.append(f"HP {t.hp}")
    if t.profile is not None:
        unit = t.profile.get("unit") or t.profile.get("profile") or {}
        notes.append(f"profile {unit.get('name', '?')}" if isinstance(unit, dict) else "profile")
    if t.in_play_weapons:  # terrain that attacks (§10.2 L4388-4392, L4424-4430)
        weapons = ", ".join(str(w.get("name", "?")) for w in (t.profile or {}).get("weapons", []))
        who = f"army of side {t.army}" if t.army is not None else "its controller's"
        notes.append(f"{ARMED_CHAR} armed ({who}): {weapons}")
    if t.transport_unlimited:
        notes.append("Transport unlimited")
    elif t.transport:
        notes.append(f"Transport {t.transport}")
    if t.fire_points:
        notes.append(f"Fire Points {t.fire_points}")
    if t.custom_cover is not None:
        c = t.custom_cover
        parts = [
            f"{label} {v:+d}"
            for label, v in (("Defence", c.defence), ("Armour", c.armour), ("AEGIS", c.aegis))
            if v
        ]
        if c.save:
            parts.append(f"Cover Save {c.save}")
        if c.text:
            parts.append(c.text)
        notes.append("custom cover: " + ", ".join(parts))
    if t.connected_to:
        notes.append("connected to " + ", ".join(t.connected_to))
    if t.exits_to:
        notes.append("exits to " + ", ".join(t.exits_to) + " (one way)")
    if not t.embark:
        notes.append("no embarking from the battlefield")
    for g in t.gates:
        way = "in/out" if g.embark and g.disembark else "in only" if g.embark else "out only"
        notes.append(f"gate {g.name} at ({g.at[0]:g}, {g.at[1]:g}) {way}")
    return notes


def _armed_colour(t: Terrain, colours: Sequence[str] = PLAYER_COLOURS) -> str:
    """An armed piece's outline: its army's colour, or amber for a piece whose controller uses
    its weapons (§10.2; not red, which is a side's colour and dangerous terrain's edge)."""
    return colours[t.army % len(colours)] if t.army is not None else ARMED_COLOUR


def _new_features(t: Terrain) -> bool:
    """Whether ``t`` has a §10 feature beyond what older boards described (their text maps
    stay as they were)."""
    notes = terrain_notes(t)
    return bool(notes) and notes != [f"Transport {t.transport}"]


def _model_disc(m: Disc | Footprint) -> Disc:
    return m.disc if isinstance(m, Footprint) else m


def _side_words(name: str, player: int, sides: Sequence[str]) -> str:
    """The legend's side before the model count: "player 1, ", "Red, ", or nothing when the
    unit's name already says it (session 32, s32-polish)."""
    if not 0 <= player < len(sides):
        return f"player {player + 1}, "
    side = sides[player]
    return "" if name.startswith(f"{side}: ") else f"{side}, "


def render_text(
    board: Board,
    units: Sequence[UnitDrawing] = (),
    cell: float = 1.0,
    status: Mapping[str, str] | None = None,
    sides: Sequence[str] = (),
    key: bool = False,
    width: int | None = None,
    key_words: Mapping[str, str] | None = None,
) -> str:
    """A character map of the board, one character per ``cell`` inches, north at the top.

    ``.`` open ground, ``:`` a Deployment Zone, ``#`` impassable, ``X`` blocks line of sight,
    ``!`` dangerous, ``~`` difficult, ``%`` cover, ``*`` an Objective marker, ``@`` a piece
    whose weapons are in play (§10.2: armed, or in an army); each unit's
    models are drawn with its letter (listed in the legend below the map). Pieces with §10
    features (heights, HP, profiles, gates ...) and the Objectives are listed under the map.
    ``status`` adds a game's word on a piece (its HP left, "destroyed", §10.3).
    ``sides``: the sides' names ("Red", "Blue"); the legend names a unit's side by them, not
    as "player 1", and not again when the unit's name already starts with it ("Red: ...").
    ``key``: a line under the map says what each terrain character drawn on it means, and
    where the compass points lie (the Deployment Zones are named "south edge" ..., south at
    the bottom: y = 0; west at the left: x = 0; session 34, s34-play2). ``width``: the key
    wrapped at word boundaries to that many columns (``None`` or 0: one line), so a terminal
    narrower than the key does not break a word (s34-play2: "impassabl / e" at 100 columns).
    ``key_words``: the key's words for some characters in place of :data:`MAP_KEY`'s (the
    WarEngine calls its ``:`` "placing strips", and says whose is which; session 36).
    """
    status = status or {}
    nx = max(1, int(np.ceil(board.width / cell)))
    ny = max(1, int(np.ceil(board.height / cell)))
    xs = (np.arange(nx) + 0.5) * cell
    ys = (np.arange(ny) + 0.5) * cell
    gx, gy = np.meshgrid(xs, ys)
    grid = np.full((ny, nx), ".", dtype="<U1")
    for z in board.zones:
        grid[shapely.contains_xy(shapely.Polygon(z.polygon), gx, gy)] = ":"
    for t in board.terrain:
        grid[shapely.contains_xy(shapely.Polygon(t.polygon), gx, gy)] = _terrain_char(t)
    for t in board.terrain:  # an armed piece: its mark in its middle (§10.2)
        if t.in_play_weapons:
            cx, cy = shapely.Polygon(t.polygon).representative_point().coords[0]
            i = min(max(int(cy / cell), 0), ny - 1)
            j = min(max(int(cx / cell), 0), nx - 1)
            grid[i, j] = ARMED_CHAR
    for o in board.objectives:
        if o.at is not None:
            ox, oy = o.at
            grid[np.hypot(gx - ox, gy - oy) <= o.radius] = OBJECTIVE_CHAR
            i = min(max(int(oy / cell), 0), ny - 1)
            j = min(max(int(ox / cell), 0), nx - 1)
            grid[i, j] = OBJECTIVE_CHAR
    legend = []
    for k, (name, player, models) in enumerate(units):
        letter = _UNIT_LETTERS[k % len(_UNIT_LETTERS)]
        n = len(models)
        count = f"{n} model{'' if n == 1 else 's'}"
        legend.append(f"{letter}: {name} ({_side_words(name, player, sides)}{count})")
        for m in models:
            (x, y), r = _model_disc(m)
            if isinstance(m, Footprint) and not m.base.round:
                inside = shapely.contains_xy(shapely.Polygon(m.outline()), gx, gy)
            else:
                inside = np.hypot(gx - x, gy - y) <= r
            grid[inside] = letter
            i = min(max(int(y / cell), 0), ny - 1)
            j = min(max(int(x / cell), 0), nx - 1)
            grid[i, j] = letter
    lines = ["".join(row) for row in grid[::-1]]
    if key:
        drawn = set(grid.flat)
        said = {**MAP_KEY, **(key_words or {})}
        lines.extend(_key_lines([f"{c} {w}" for c, w in said.items() if c in drawn], width))
    title = f'{board.name or "Battlefield"} ({board.width:g}" x {board.height:g}")'
    for t in board.terrain:
        if _new_features(t) or t.name in status:
            notes = [*terrain_notes(t), *([status[t.name]] if t.name in status else [])]
            legend.append(f"{t.name}: {'; '.join(notes)}")
    for o in board.objectives:
        where = f"at ({o.at[0]:g}, {o.at[1]:g})" if o.at is not None else f"terrain {o.terrain}"
        legend.append(f"{OBJECTIVE_CHAR} Objective {o.name}: {where}")
    return "\n".join([title, *lines, *legend]) + "\n"


def _figure(
    board: Board,
    units: Sequence[UnitDrawing],
    title: str | None,
    status: Mapping[str, str] | None = None,
    colours: Sequence[str] = PLAYER_COLOURS,
    zone_colours: Sequence[str | None] | None = None,
) -> object:
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle, Polygon, Rectangle

    status = status or {}
    scale = 10 / max(board.width, board.height)
    fig = Figure(figsize=(board.width * scale + 0.5, board.height * scale + 0.8))
    ax = fig.add_subplot()
    ax.add_patch(Rectangle((0, 0), board.width, board.height, fc="#f4f1e8", ec="black"))
    for i, z in enumerate(board.zones):
        taken = zone_colours[i] if zone_colours is not None and i < len(zone_colours) else None
        fill, alpha = (taken, 0.2) if taken is not None else (_ZONE_COLOURS[i % 4], 0.45)
        ax.add_patch(Polygon(z.polygon, closed=True, fc=fill, alpha=alpha, ec="none"))
        cx, cy = shapely.Polygon(z.polygon).centroid.coords[0]
        ax.text(cx, cy, z.name, ha="center", va="center", fontsize=7, color="#555555")
    for t in board.terrain:
        fc = "#a9a9a9"
        if t.impassable:
            fc = "#3b3b3b"
        elif t.blocks_los:
            fc = "#8c8c8c"
        elif t.cover or t.cover_area:
            fc = "#7fb77e"
        elif t.difficult:
            fc = "#c8b68e"
        ec = "#d62728" if t.dangerous is not None else "black"
        hatch = "//" if t.difficult else None
        if status.get(t.name, "").startswith("destroyed"):  # rubble (§10.3)
            fc, hatch = "#e6dccb", "xx"
        ax.add_patch(
            Polygon(
                t.polygon,
                closed=True,
                fc=fc,
                ec=ec,
                lw=1.5 if t.dangerous else 0.8,
                hatch=hatch,
                alpha=0.9,
            )
        )
        for g in t.gates:
            ax.plot(*g.at, marker="s", ms=4, mfc="#ffd54f" if g.embark else "white", mec="black")
            ax.text(g.at[0], g.at[1] - 0.6, g.name, ha="center", va="top", fontsize=4.5)
    # one label per footprint: pieces on one footprint (a tower's floors, §10.5) share it
    labels: dict[tuple[Point, ...], list[str]] = {}
    for t in board.terrain:
        text = t.name
        if _new_features(t) or t.name in status:
            notes = [*terrain_notes(t), *([status[t.name]] if t.name in status else [])]
            text += "\n" + textwrap.fill("; ".join(notes), 30)
        labels.setdefault(tuple(t.polygon), []).append(text)
    for t in board.terrain:  # an armed piece (§10.2): a crosshair, its army's colour
        if t.in_play_weapons:
            ax.add_patch(
                Polygon(t.polygon, closed=True, fc="none", ec=_armed_colour(t, colours), lw=2.2)
            )
            x0, y0 = np.min(np.asarray(t.polygon), axis=0)
            ax.plot(
                x0 + 0.6, y0 + 0.6, marker="P", ms=7, mfc=_armed_colour(t, colours), mec="black"
            )
    for poly, texts in labels.items():
        cx, cy = shapely.Polygon(poly).representative_point().coords[0]
        plain = all("\n" not in x for x in texts)
        ax.text(cx, cy, "\n".join(texts), ha="center", va="center", fontsize=6 if plain else 4.5)
    centres = {t.name: shapely.Polygon(t.polygon).centroid.coords[0] for t in board.terrain}
    for t in board.terrain:
        for other, style in [(o, "--") for o in t.connected_to] + [(o, ":") for o in t.exits_to]:
            (x0, y0), (x1, y1) = centres[t.name], centres[other]
            if (x0, y0) == (x1, y1):
                continue  # floors of one building: the shared label says it
            ax.annotate(
                "",
                xy=(x1, y1),
                xytext=(x0, y0),
                arrowprops={"arrowstyle": "->" if style == ":" else "<->", "ls": style, "lw": 0.8},
            )
    for o in board.objectives:
        if o.at is not None:
            ax.add_patch(Circle(o.at, max(o.radius, 0.3), fc="#ffd54f", ec="black", lw=0.8))
            ax.plot(*o.at, marker="*", ms=6, color="black")
            where = o.at
        else:
            where = centres[o.terrain or ""]
            ax.plot(*where, marker="*", ms=9, color="#ffb300", mec="black")
        ax.text(where[0], where[1] + 0.8, o.name, ha="center", va="bottom", fontsize=6)
    for name, player, models in units:
        colour = colours[player % len(colours)]
        for m in models:
            if isinstance(m, Footprint) and not m.base.round:
                ax.add_patch(Polygon(m.outline(), closed=True, fc=colour, ec="black", lw=0.5))
            else:
                (x, y), r = _model_disc(m)
                ax.add_patch(Circle((x, y), r, fc=colour, ec="black", lw=0.5))
        if models:
            discs = [_model_disc(m) for m in models]
            mx = float(np.mean([p[0] for p, _ in discs]))
            my = float(np.max([p[1] + r for p, r in discs]))
            ax.text(mx, my + 0.3, name, ha="center", va="bottom", fontsize=6, color=colour)
    ax.set_xlim(-0.5, board.width + 0.5)
    ax.set_ylim(-0.5, board.height + 0.5)
    ax.set_aspect("equal")
    ax.set_title(title or board.name or "Battlefield", fontsize=9)
    ax.tick_params(labelsize=6)
    fig.tight_layout()
    return fig


def render_svg(
    board: Board,
    units: Sequence[UnitDrawing],
    path: str | Path,
    title: str | None = None,
    status: Mapping[str, str] | None = None,
    colours: Sequence[str] | None = None,
    zone_colours: Sequence[str | None] | None = None,
) -> Path:
    """Draw the board and units to an SVG file; returns its path (``status``: a game's word
    on a piece, as for :func:`render_text`; ``colours``: each player's, as
    :func:`side_colours` gives them; default :data:`PLAYER_COLOURS`; ``zone_colours``: each
    Deployment Zone's, its side's colour once taken, None: the board's shade)."""
    fig = _figure(board, units, title, status, colours or PLAYER_COLOURS, zone_colours)
    fig.savefig(str(path), format="svg")  # type: ignore[attr-defined]
    return Path(path)


def render_png(
    board: Board,
    units: Sequence[UnitDrawing],
    path: str | Path,
    title: str | None = None,
    dpi: int = 120,
    status: Mapping[str, str] | None = None,
    colours: Sequence[str] | None = None,
    zone_colours: Sequence[str | None] | None = None,
) -> Path:
    """Draw the board and units to a PNG file; returns its path (``colours`` and
    ``zone_colours`` as for :func:`render_svg`)."""
    fig = _figure(board, units, title, status, colours or PLAYER_COLOURS, zone_colours)
    fig.savefig(str(path), format="png", dpi=dpi)  # type: ignore[attr-defined]
    return Path(path)
