"""The printable roster sheet (HTML, Jinja2 template ``warbench/templates/roster_sheet.html.j2``).

A satellite of the rules (like python-chess's SVG module): it reads a :class:`Roster` and its
:class:`RosterReport` and renders every unit profile, weapon, perk with its activation terms
and rule, the traits, the per-unit and total points, the Point Limit, the points-model and
ruleset versions. The page has print CSS; use the browser's *Print to PDF* for a PDF.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any

from warbench.rulesets.warsurge.perks import PerkCatalog
from warbench.rulesets.warsurge.profiles import format_save
from warbench.rulesets.warsurge.roster import Roster, RosterReport

__all__ = ["render_sheet"]

TEMPLATE = "roster_sheet.html.j2"


@dataclass(frozen=True)
class PerkLine:
    name: str
    kind: str
    activation: str
    summary: str
    rule: str


def _perk_lines(names: list[str], catalog: PerkCatalog) -> list[PerkLine]:
    out = []
    for n in names:
        p = catalog.find(n)
        if p is None:
            out.append(PerkLine(n, "unknown", "", "not a perk of Book 2", ""))
        else:
            out.append(PerkLine(p.name, p.kind.value, ", ".join(p.activation), p.summary, p.rule))
    return out


def sheet_context(roster: Roster, report: RosterReport) -> dict[str, Any]:
    """The data the template renders (plain values, no rules logic in the template)."""
    catalog = PerkCatalog.load()
    units = []
    for e, cost in zip(roster.units, report.entries, strict=True):
        u = e.unit
        p = u.profile
        weapons = []
        for w in u.weapons:
            carried_by = sum(g.count for g in u.models if w.name in g.weapons)
            weapons.append(
                {
                    "name": w.name,
                    "range": w.range,
                    "type": w.type.value,
                    "attacks": w.attacks,
                    "power": w.power,
                    "ap": format_save(w.ap),
                    "dwp": f"{w.deflect}/{w.ward}/{w.parry}",
                    "carried_by": carried_by,
                    "perks": _perk_lines(w.perks, catalog),
                }
            )
        units.append(
            {
                "name": e.name,
                "profile": p,
                "armour": format_save(p.armour),
                "aegis": format_save(p.aegis),
                "models": u.model_count,
                "groups": [(g.count, ", ".join(g.weapons) or "no weapons") for g in u.models],
                "weapons": weapons,
                "perks": _perk_lines(p.perks, catalog),
                "traits": _perk_lines(e.traits, catalog),
                "full": cost.full,
                "points": cost.points,
                "adjusted_by": ", ".join(cost.traits),
                "value": round(cost.value, 1),
                "value_by": ", ".join(cost.adjusting_perks),
                "embarked_in": e.embarked_in,
                "link": e.link,
                "designations": e.designations,
            }
        )
    roster_perks = [
        (line, rp.unit) for rp in roster.roster_perks for line in _perk_lines([rp.perk], catalog)
    ]
    return {
        "roster": roster,
        "report": report,
        "units": units,
        "roster_perks": roster_perks,
        "violations": report.violations,
    }


def render_sheet(roster: Roster, report: RosterReport) -> str:
    """The roster sheet as a standalone HTML page."""
    import jinja2

    text = resources.files("warbench").joinpath("templates", TEMPLATE).read_text("utf-8")
    env = jinja2.Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)
    return env.from_string(text).render(**sheet_context(roster, report))
