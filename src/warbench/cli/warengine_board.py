"""The WarEngine battlefield as text for ``warbench play --ruleset warengine`` (session 33: the
terminal drew no board at all, where WARSURGE and Collision draw theirs before a question).

The table is the WARSURGE board the game is played on (``game/board.py``'s :class:`Field`),
drawn by the battlefield package's :func:`render_text`, one character an inch: terrain as
WARSURGE draws it, the two placing strips along the players' edges as ``:`` (L301-309, option
``deploy_depth``, in place of the board file's Deployment Zones, which the WarEngine does not
use), and each unit's placed, living figures by its letter, the legend naming the unit, its
figures' numbers (as the questions name them, "Reaver #1") and its force.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warbench.rulesets.warengine.game.setup import Context

__all__ = ["board_text"]


def board_text(
    ctx: Context, view: Any, names: Sequence[str], *, cell: float = 1.0, width: int | None = None
) -> str:
    """``view`` (the WarEngine view's JSON) drawn on its table, ``cell`` inches a character.

    ``names``: the forces' names by seat, as the questions say them. ``width``: the key
    wrapped at word boundaries to that many columns (``None``: one line), as WARSURGE's is
    (session 36: the terminal cut it mid-entry at 80 and 100 columns, "# / impassable").
    """
    from warbench.rulesets.warsurge.battlefield import board_from_data, render_text
    from warbench.rulesets.warsurge.battlefield.model import Zone

    board = ctx.field.board
    if isinstance(view.get("board"), dict):  # changed by a power (L1031-L1331)
        board = board_from_data(view["board"])
    w, h, d = ctx.field.width, ctx.field.height, ctx.depth
    strips = [
        Zone(name=f"{names[side]}'s placing strip", polygon=[(0, y0), (w, y0), (w, y1), (0, y1)])
        for side, (y0, y1) in enumerate(((0.0, d), (h - d, h)))
    ]
    board = board.model_copy(update={"zones": strips})
    profiles = ctx.profiles
    if isinstance(view.get("kit"), dict):  # a form, a combined figure (game/kit.py)
        from warbench.rulesets.warengine.game.kit import view_profiles

        profiles = view_profiles(ctx, view["kit"])
    unit_names = {u["id"]: str(u["name"]) for u in view.get("units") or []}
    drawn: dict[int, tuple[int, list[int], list[Any]]] = {}
    for f in view.get("figures") or []:
        if not f.get("alive") or not f.get("placed"):
            continue
        _side, ids, discs = drawn.setdefault(f["unit"], (f["side"], [], []))
        ids.append(f["id"])
        discs.append(((f["x"], f["y"]), profiles[f["id"]].radius))
    drawings = [
        (f"{unit_names.get(u, f'unit {u}')} (#{', #'.join(str(i) for i in ids)})", side, discs)
        for u, (side, ids, discs) in drawn.items()
    ]
    title = f"Turn {view.get('turn')}, {view.get('phase')}"
    # the strips are no WARSURGE Deployment Zones: the key says what they are, and whose
    # each is (session 35: a new player was asked to place a figure and not told where)
    whose = f"{names[0]} south, {names[1]} north" if len(names) > 1 else "south, north"
    said = {":": f"placing strips ({whose}; L301-309)"}
    text = render_text(
        board, drawings, cell=cell, sides=names, key=True, width=width, key_words=said
    )
    return title + "\n" + text
