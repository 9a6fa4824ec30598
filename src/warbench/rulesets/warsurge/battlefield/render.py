"""Pictures of a battlefield: a text map for terminals and logs, SVG and PNG with matplotlib.

``units`` is what the game engine knows: a list of ``(name, player_index, [(point, radius),
...])``. Terrain is styled by property (impassable dark, LoS-blocking grey, difficult hatched,
dangerous red-edged, cover green), Deployment Zones are shaded, each player has a colour.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import shapely

from warbench.rulesets.warsurge.battlefield.model import Board, Disc, Terrain

__all__ = ["PLAYER_COLOURS", "UnitDrawing", "render_png", "render_svg", "render_text"]

#: A unit to draw: its name, its player's index and its models.
UnitDrawing = tuple[str, int, Sequence[Disc]]

PLAYER_COLOURS = ["#1f5fbf", "#c0392b", "#2e8b57", "#8e44ad", "#d68910", "#17a2b8"]
_ZONE_COLOURS = ["#9ec5fe", "#f5b7b1", "#abebc6", "#d7bde2"]
_UNIT_LETTERS = string.ascii_uppercase + string.ascii_lowercase


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


def render_text(board: Board, units: Sequence[UnitDrawing] = (), cell: float = 1.0) -> str:
    """A character map of the board, one character per ``cell`` inches, north at the top.

    ``.`` open ground, ``:`` a Deployment Zone, ``#`` impassable, ``X`` blocks line of sight,
    ``!`` dangerous, ``~`` difficult, ``%`` cover; each unit's models are drawn with its letter
    (listed in the legend below the map).
    """
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
    legend = []
    for k, (name, player, models) in enumerate(units):
        letter = _UNIT_LETTERS[k % len(_UNIT_LETTERS)]
        legend.append(f"{letter}: {name} (player {player + 1}, {len(models)} models)")
        for (x, y), r in models:
            inside = np.hypot(gx - x, gy - y) <= r
            grid[inside] = letter
            i = min(max(int(y / cell), 0), ny - 1)
            j = min(max(int(x / cell), 0), nx - 1)
            grid[i, j] = letter
    lines = ["".join(row) for row in grid[::-1]]
    title = f'{board.name or "Battlefield"} ({board.width:g}" x {board.height:g}")'
    return "\n".join([title, *lines, *legend]) + "\n"


def _figure(board: Board, units: Sequence[UnitDrawing], title: str | None) -> object:
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle, Polygon, Rectangle

    scale = 10 / max(board.width, board.height)
    fig = Figure(figsize=(board.width * scale + 0.5, board.height * scale + 0.8))
    ax = fig.add_subplot()
    ax.add_patch(Rectangle((0, 0), board.width, board.height, fc="#f4f1e8", ec="black"))
    for i, z in enumerate(board.zones):
        ax.add_patch(
            Polygon(z.polygon, closed=True, fc=_ZONE_COLOURS[i % 4], alpha=0.45, ec="none")
        )
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
        cx, cy = shapely.Polygon(t.polygon).representative_point().coords[0]
        ax.text(cx, cy, t.name, ha="center", va="center", fontsize=6)
    for name, player, models in units:
        colour = PLAYER_COLOURS[player % len(PLAYER_COLOURS)]
        for (x, y), r in models:
            ax.add_patch(Circle((x, y), r, fc=colour, ec="black", lw=0.5))
        if models:
            mx = float(np.mean([p[0] for p, _ in models]))
            my = float(np.max([p[1] + r for p, r in models]))
            ax.text(mx, my + 0.3, name, ha="center", va="bottom", fontsize=6, color=colour)
    ax.set_xlim(-0.5, board.width + 0.5)
    ax.set_ylim(-0.5, board.height + 0.5)
    ax.set_aspect("equal")
    ax.set_title(title or board.name or "Battlefield", fontsize=9)
    ax.tick_params(labelsize=6)
    fig.tight_layout()
    return fig


def render_svg(
    board: Board, units: Sequence[UnitDrawing], path: str | Path, title: str | None = None
) -> Path:
    """Draw the board and units to an SVG file; returns its path."""
    fig = _figure(board, units, title)
    fig.savefig(str(path), format="svg")  # type: ignore[attr-defined]
    return Path(path)


def render_png(
    board: Board,
    units: Sequence[UnitDrawing],
    path: str | Path,
    title: str | None = None,
    dpi: int = 120,
) -> Path:
    """Draw the board and units to a PNG file; returns its path."""
    fig = _figure(board, units, title)
    fig.savefig(str(path), format="png", dpi=dpi)  # type: ignore[attr-defined]
    return Path(path)
