"""The printable roster sheet, as HTML (Jinja2) and as PDF (Typst).

A satellite of the rules (like python-chess's SVG module): it reads a :class:`Roster` and its
:class:`RosterReport` and lays out what a player needs at the table: every unit profile and
weapon, HP boxes per model to tick off, each perk with its activation terms and short text,
the Traits, every line the roster pays for (unit, priced perks, Traits, Roster Perks) adding up
to the total against the Point Limit, the points-model and ruleset versions, any violations,
and the roster's share code as a QR image to import it elsewhere.

Both outputs render the same :func:`sheet_context`; the templates hold layout only
(``warbench/templates/roster_sheet.html.j2`` and ``roster_sheet.typ``). The PDF is typeset by
the Typst compiler shipped inside the ``typst`` wheel with its embedded fonts, so it needs no
system library (no Pango, no browser) and the same roster gives the same PDF on any machine.
Rule references name the book and section (``Perks §12.5``), never a source file.
"""

from __future__ import annotations

import base64
import io
import json
import re
from importlib import resources
from typing import Any

from warbench.kernel.errors import WarbenchError
from warbench.play.terminal import BOOKS
from warbench.rulesets.warsurge.perks import PerkCatalog, PerkDef
from warbench.rulesets.warsurge.profiles import format_save
from warbench.rulesets.warsurge.roster import Roster, RosterReport

__all__ = [
    "SheetError",
    "for_players",
    "render_sheet",
    "render_sheet_pdf",
    "sheet_context",
]

HTML_TEMPLATE = "roster_sheet.html.j2"
TYPST_TEMPLATE = "roster_sheet.typ"


class SheetError(WarbenchError):
    """The sheet could not be typeset (a Typst error; the message says what)."""


def for_players(text: str) -> str:
    """``text`` without source-file names and line numbers, for a printed sheet.

    >>> for_players("Core Rules (001_d3f5e425c5e1196d.txt) §3.1 Point Limit, line 1420")
    'Core Rules §3.1 Point Limit'
    >>> for_players("Book 2 §12.6 Unit and Roster Upgrades, 000_94ecc6a4c74d351b.txt line 4332")
    'Perks §12.6 Unit and Roster Upgrades'
    """
    out = re.sub(r"\s*\(\d{3}_[0-9a-f]{16}\.txt\)", "", text)
    out = re.sub(r",?\s*\d{3}_[0-9a-f]{16}\.txt(?: lines? [\d\-–, ]+\d)?", "", out)
    out = re.sub(r",?\s*\blines? \d+(?:\s*[-–]\s*\d+)?", "", out)
    out = out.replace("Book 2 ", "Perks ")
    for name, book in BOOKS.items():
        out = out.replace(name, book)
    return out.strip()


def _perk(name: str, catalog: PerkCatalog) -> dict[str, str]:
    p: PerkDef | None = catalog.find(name)
    if p is None:
        return {"name": name, "kind": "unknown", "activation": "", "text": "not a perk of the book"}
    return {
        "name": p.name,
        "kind": p.kind.value,
        "activation": ", ".join(p.activation),
        "text": p.summary,
        "rule": for_players(p.rule),
    }


def _share_qr(roster: Roster) -> str:
    """The roster's share code as an SVG QR image, or ``""`` when it is too large for one."""
    from warbench.rulesets.warsurge.share import encode, qr_code

    try:
        qr = qr_code(encode(roster))
    except WarbenchError:
        return ""
    buf = io.BytesIO()
    qr.save(buf, kind="svg", scale=4, border=2, xmldecl=False)
    return buf.getvalue().decode("utf-8")


def sheet_context(roster: Roster, report: RosterReport) -> dict[str, Any]:
    """The data both templates render: plain JSON-ready values, no rules logic in a template."""
    catalog = PerkCatalog.load()
    units = []
    for e, cost in zip(roster.units, report.entries, strict=True):
        u = e.unit
        p = u.profile
        weapons = []
        for w in u.weapons:
            weapons.append(
                {
                    "name": w.name,
                    "range": w.range,
                    "type": w.type.value,
                    "attacks": str(w.attacks),
                    "power": w.power,
                    "ap": format_save(w.ap),
                    "dwp": f"{w.deflect}/{w.ward}/{w.parry}",
                    "carried_by": sum(g.count for g in u.models if w.name in g.weapons),
                    "perks": [_perk(n, catalog) for n in w.perks],
                }
            )
        models: list[dict[str, Any]] = []
        for g in u.models:
            for _ in range(g.count):
                models.append({"n": len(models) + 1, "weapons": ", ".join(g.weapons) or "—"})
        units.append(
            {
                "name": e.name,
                "unit": p.name,
                "stats": {
                    "models": u.model_count,
                    "move": p.move,
                    "dash": p.dash,
                    "defence": p.defence,
                    "hp": p.hp,
                    "armour": format_save(p.armour),
                    "aegis": format_save(p.aegis),
                    "transport": p.transport,
                    "fire_points": p.fire_points,
                },
                "hp": p.hp,
                "models": models,
                "groups": [f"{g.count} × {', '.join(g.weapons) or 'no weapons'}" for g in u.models],
                "weapons": weapons,
                "perks": [_perk(n, catalog) for n in p.perks],
                "traits": [_perk(n, catalog) for n in e.traits],
                "lines": [line.to_dict() for line in cost.lines],
                "full": cost.full,
                "points": cost.points,
                "value": round(cost.value, 1),
                "value_by": ", ".join(cost.adjusting_perks),
                "embarked_in": e.embarked_in or "",
                "link": e.link or "",
                "designations": [{"perk": k, "entry": v} for k, v in e.designations.items()],
            }
        )
    roster_perks = [
        {
            **_perk(line.label, catalog),
            "unit": line.on,
            "points": line.points,
            "method": line.method,
        }
        for line in report.perk_lines
    ]
    return {
        "name": roster.name,
        "point_limit": roster.point_limit,
        "total": report.total,
        "over": report.total > roster.point_limit,
        "points_model": report.points_model or "unknown",
        "ruleset": roster.ruleset,
        "units": units,
        "roster_perks": roster_perks,
        "violations": [
            f"{v.entry or 'roster'}: {v.explanation} Fix: {v.fix} [{for_players(v.rule)}]"
            for v in report.violations
        ],
        "qr_svg": _share_qr(roster),
    }


def _template(name: str) -> str:
    return resources.files("warbench").joinpath("templates", name).read_text("utf-8")


def render_sheet(roster: Roster, report: RosterReport) -> str:
    """The roster sheet as a standalone HTML page (print CSS for A4)."""
    import jinja2

    ctx = sheet_context(roster, report)
    svg = ctx.pop("qr_svg")
    ctx["qr_src"] = (
        "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode() if svg else ""
    )
    env = jinja2.Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)
    return env.from_string(_template(HTML_TEMPLATE)).render(**ctx)


def render_sheet_pdf(roster: Roster, report: RosterReport) -> bytes:
    """The roster sheet as a PDF (A4), typeset by Typst with its embedded fonts.

    The data goes to the template as JSON (``sys.inputs.data``), so no roster text is ever
    read as Typst markup. Raises :class:`SheetError` if Typst reports an error.
    """
    import typst

    data = json.dumps(sheet_context(roster, report), ensure_ascii=False)
    try:
        out = typst.compile(
            _template(TYPST_TEMPLATE).encode("utf-8"),
            format="pdf",
            ignore_system_fonts=True,
            sys_inputs={"data": data},
        )
    except typst.TypstError as exc:  # pragma: no cover - the template is tested
        raise SheetError(f"the PDF sheet could not be typeset: {exc.message}") from None
    assert isinstance(out, bytes)
    return out
