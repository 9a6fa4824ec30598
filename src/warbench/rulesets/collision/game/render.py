"""The grid as text (the terminal) and as SVG, from a player's view (what that player may
see). Rows are drawn from the top edge down so that ``y`` grows upwards as on the board.

Text legend: ``a``-``z`` player 0's characters, ``A``-``Z`` player 1's (lower case first);
``^ > v <`` are shown in the character list for facing; terrain: ``.`` open, ``~`` obstacle,
``|`` vertical obstacle, ``#`` impassable, ``X`` vertical impassable; elevation levels above 1
are digits in the square's second column; objective tokens: ``$`` chest, ``F`` flag,
``R`` relic, ``o`` orb, ``c`` crate, ``*`` shard, ``t`` trinket, ``+`` blessed, ``-`` cursed.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

_TERRAIN = {
    "open": ".",
    "obstacle": "~",
    "vertical": "|",
    "impassable": "#",
    "vertical-impassable": "X",
}
_MARKER = {
    "chest": "$",
    "flag": "F",
    "relic": "R",
    "orb": "o",
    "crate": "c",
    "shard": "*",
    "trinket": "t",
    "blessed": "+",
    "cursed": "-",
    "obelisk": "O",
    "statue": "S",
    "tower": "T",
}
_FACE = {"N": "^", "E": ">", "S": "v", "W": "<"}


def letters(view: dict[str, Any]) -> dict[int, str]:
    """A letter per character: lower case for player 0, upper case for player 1."""
    out: dict[int, str] = {}
    counts = [0, 0]
    for u in view["units"]:
        p = u["owner"]
        ch = chr(ord("a") + counts[p] % 26)
        out[u["id"]] = ch if p == 0 else ch.upper()
        counts[p] += 1
    return out


def render_text(view: dict[str, Any]) -> str:
    """The board and the characters on it as text."""
    b = view["board"]
    cols, rows = b["cols"], b["rows"]
    terrain = {(t[0], t[1]): t[2] for t in b["terrain"]}
    markers = {
        tuple(m["at"]): m["kind"] for m in view["markers"] if m["at"] is not None and not m["gone"]
    }
    names = letters(view)
    at = {tuple(u["pos"]): u for u in view["units"] if u["pos"] is not None}
    lines = ["    " + "".join(f"{x % 10:<2}" for x in range(cols))]
    for y in range(rows - 1, -1, -1):
        row = []
        for x in range(cols):
            sq = (x, y)
            if sq in at:
                ch = names[at[sq]["id"]]
            elif sq in markers:
                ch = _MARKER.get(markers[sq], "?")
            else:
                ch = _TERRAIN.get(terrain.get(sq, "open"), "?")
            lvl = b["elevation"][y][x]
            row.append(ch + (str(lvl) if lvl > 1 else " "))
        lines.append(f"{y:>3} " + "".join(row))
    lines.append("")
    for u in view["units"]:
        if u["where"] not in ("board", "reserve", "hand"):
            continue
        pos = "" if u["pos"] is None else f"({u['pos'][0]},{u['pos'][1]})"
        st = " ".join(f"{k} {v}" for k, v in sorted(u["statuses"].items()))
        pile = "?" if u["pile"] is None else u["pile"]
        lines.append(
            f"  {names[u['id']]} {u['name']:<22} {u['where']:<7} {pos:<8} "
            f"{_FACE.get(u['facing'], '?')} E{u['endurance']} M{u['mana']} "
            f"inj {u['injuries']}/{u['toughness']} pile {pile} {st}".rstrip()
        )
    ob = view["objectives"]
    lines.append(
        f"  turn {view['turn']}/{view['turn_limit']}, phase {view['phase']}; "
        f"{ob['major']}; {ob['minors'][0]}, {ob['minors'][1]}"
    )
    return "\n".join(lines)


def render_svg(view: dict[str, Any], cell: int = 30) -> str:
    """The board as an SVG picture (30 px per square, as the book's 30 mm squares)."""
    b = view["board"]
    cols, rows = b["cols"], b["rows"]
    w, h = cols * cell, rows * cell
    terrain = {(t[0], t[1]): t[2] for t in b["terrain"]}
    fill = {
        "open": None,
        "obstacle": "#b9a86b",
        "vertical": "#5f8a4a",
        "impassable": "#3a5f8a",
        "vertical-impassable": "#555555",
    }
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="{cell // 2}">'
    ]
    for y in range(rows):
        for x in range(cols):
            lvl = b["elevation"][y][x]
            shade = 245 - 25 * (lvl - 1)
            px, py = x * cell, (rows - 1 - y) * cell
            out.append(
                f'<rect x="{px}" y="{py}" width="{cell}" height="{cell}" '
                f'fill="rgb({shade},{shade},{shade})" stroke="#999"/>'
            )
            colour = fill.get(terrain.get((x, y), "open"))
            if colour:
                out.append(
                    f'<rect x="{px + 3}" y="{py + 3}" width="{cell - 6}" height="{cell - 6}" '
                    f'fill="{colour}"/>'
                )
    for m in view["markers"]:
        if m["at"] is None or m["gone"]:
            continue
        px, py = m["at"][0] * cell, (rows - 1 - m["at"][1]) * cell
        out.append(
            f'<text x="{px + cell // 2}" y="{py + cell - 4}" text-anchor="middle" '
            f'fill="#a0522d">{escape(_MARKER.get(m["kind"], "?"))}</text>'
        )
    names = letters(view)
    for u in view["units"]:
        if u["pos"] is None:
            continue
        px, py = u["pos"][0] * cell, (rows - 1 - u["pos"][1]) * cell
        colour = "#c0392b" if u["owner"] == 0 else "#2e86c1"
        r = cell // 2 - 3
        cx, cy = px + cell // 2, py + cell // 2
        dx, dy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[u["facing"]]
        out.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{colour}"/>')
        out.append(
            f'<line x1="{cx}" y1="{cy}" x2="{cx + dx * r}" y2="{cy + dy * r}" '
            'stroke="white" stroke-width="2"/>'
        )
        out.append(
            f'<text x="{cx}" y="{cy + 5}" text-anchor="middle" fill="white">'
            f"{escape(names[u['id']])}<title>{escape(u['name'])}</title></text>"
        )
    out.append("</svg>")
    return "\n".join(out)
