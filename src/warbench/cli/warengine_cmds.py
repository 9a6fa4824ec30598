"""``warbench warengine``: points, validate, odds and export for The WarEngine 2.1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from warbench.cli.app import app, console, fail
from warbench.kernel.errors import WarbenchError

# Start-up (issue 18): the WarEngine rules are imported inside the commands that use them.
if TYPE_CHECKING:
    from warbench.rulesets.warengine.models import Force

warengine = typer.Typer(
    name="warengine",
    help="The WarEngine 2.1: figure and force points, limits, and exact XkY odds.",
    no_args_is_help=True,
)
app.add_typer(warengine, name="warengine")
_SCHEMAS = Path("docs/schemas")


def _force_report(force: Force) -> dict[str, object]:
    from warbench.rulesets.warengine.costs import force_cost

    cost = force_cost(force)
    return {
        "name": cost.name,
        "points": cost.points,
        "renown": {"budget": cost.renown, "spent": cost.renown_spent, "unused": cost.renown_unused},
        "force": {
            "budget": cost.force,
            "available": cost.force_available,
            "spent": cost.force_spent,
            "monsters_vehicles": cost.vehicles_monsters_spent,
            "monsters_vehicles_cap": cost.vehicles_monsters_cap,
            "troopers_elites": cost.troopers_elites_spent,
        },
        "hero_points": {"used": cost.hero_points, "budget": cost.hero_point_budget},
        "units": [
            {
                "name": u.name,
                "points": u.points,
                "figures": [{"figure": k, "count": n, "each": e} for k, n, e in u.figures],
                "tweaks": [{"name": t.label, "points": t.points} for t in u.tweaks],
                "floor": u.floor,
            }
            for u in cost.units
        ],
    }


@warengine.command()
def points(
    file: Annotated[Path, typer.Argument(help="Figure or force file (YAML or JSON).")],
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of text."),
) -> None:
    """Itemised cost and profile card of a figure, or the spending of a force.

    The figure must be legal (004_f4ea5693af0644ce.txt Troop Builder V2.1); the first broken
    limit is reported as one error line (`validate` lists them all).
    """
    from rich.table import Table

    from warbench.rulesets.warengine.card import itemised, profile_card
    from warbench.rulesets.warengine.costs import figure_cost, force_cost
    from warbench.rulesets.warengine.io import load
    from warbench.rulesets.warengine.models import Figure, Force
    from warbench.rulesets.warengine.validation import check_figure, check_force

    try:
        obj = load(file)
        found = check_force(obj) if isinstance(obj, Force) else check_figure(obj)
        if found:
            raise found[0].to_error(str(file))
        if isinstance(obj, Figure):
            cost = figure_cost(obj)
            if as_json:
                data = cost.to_dict()
                data["card"] = profile_card(obj, cost)
                console.print_json(json.dumps(data))
                return
            console.print(itemised(cost), highlight=False, markup=False)
            console.print()
            console.print(profile_card(obj, cost), highlight=False, markup=False)
            return
        report = _force_report(obj)
        if as_json:
            console.print_json(json.dumps(report))
            return
        table = Table(title=f"{obj.name}: {report['points']} points", show_edge=False)
        for col in ("Unit", "Figures", "Tweaks", "Points"):
            table.add_column(col, justify="right" if col == "Points" else "left")
        for u in force_cost(obj).units:
            figs = ", ".join(f"{n} x {k} ({e})" for k, n, e in u.figures)
            tweaks = ", ".join(f"{t.label} {t.points:+d}" for t in u.tweaks)
            table.add_row(u.name, figs, tweaks, str(u.points))
        console.print(table)
        for key in ("renown", "force", "hero_points"):
            console.print(f"{key}: {report[key]}", highlight=False)
    except WarbenchError as exc:
        raise fail(str(exc)) from None


@warengine.command()
def validate(
    file: Annotated[Path, typer.Argument(help="Figure or force file (YAML or JSON).")],
    as_json: bool = typer.Option(False, "--json", help="Print violations as JSON."),
) -> None:
    """List every Troop Builder / Force Builder limit the file breaks; exit 1 if any."""
    from warbench.rulesets.warengine.io import load
    from warbench.rulesets.warengine.models import Force
    from warbench.rulesets.warengine.validation import check_figure, check_force

    try:
        obj = load(file)
    except WarbenchError as exc:
        raise fail(str(exc)) from None
    found = check_force(obj) if isinstance(obj, Force) else check_figure(obj)
    if as_json:
        console.print_json(json.dumps([v.to_dict() for v in found]))
    elif not found:
        console.print(f"{file}: legal", highlight=False)
    else:
        console.print(f"{file}: {len(found)} violation(s)", highlight=False)
        for v in found:
            console.print(f"- {v}", highlight=False, markup=False)
    if found:
        raise typer.Exit(1)


@warengine.command()
def export(
    file: Annotated[Path, typer.Argument(help="Figure or force file to re-write canonically.")],
    fmt: str = typer.Option("yaml", "--format", "-f", help="yaml or json."),
) -> None:
    """Print a figure or force in canonical YAML or JSON (round-trips exactly)."""
    from warbench.rulesets.warengine.io import dumps, load

    try:
        console.print(dumps(load(file), fmt), highlight=False, markup=False, end="")
    except WarbenchError as exc:
        raise fail(str(exc)) from None


@warengine.command()
def schema(
    folder: Annotated[Path, typer.Option(help="Where to write the JSON Schemas.")] = _SCHEMAS,
) -> None:
    """Write the JSON Schemas of figure and force files (from the pydantic models)."""
    from warbench.rulesets.warengine.io import write_schemas

    for path in write_schemas(folder):
        console.print(f"wrote {path}", highlight=False)


def _pct(p: float) -> str:
    return f"{100 * p:6.2f}%"


@warengine.command()
def odds(
    attack: str | None = typer.Option(None, "--attack", "-a", help="Attack Value, e.g. 4k3."),
    defense: str | None = typer.Option(None, "--defense", "-d", help="Defense, e.g. 3k2."),
    attack_adjust: list[str] = typer.Option(
        [], "--attack-adjust", help="Attack adjustment such as +1k0 (repeatable)."
    ),
    defense_adjust: list[str] = typer.Option(
        [], "--defense-adjust", help="Defense adjustment such as +1k1 (repeatable)."
    ),
    helpers: int = typer.Option(0, "--helpers", help="Massed attack: secondary attackers."),
    mob_mentality: bool = typer.Option(False, help="Massed attack under Mob Mentality."),
    uncontrolled: bool = typer.Option(False, help="Attacker uncontrolled: sixes count as fives."),
    defender_uncontrolled: bool = typer.Option(False, help="Defender uncontrolled."),
    defender_type: str | None = typer.Option(None, help="Defender type (M: 1s as 2s; H)."),
    extra_bite: bool = typer.Option(False, help="Extra Bite: attack 1s become 2s."),
    charging_weapon: bool = typer.Option(False, help="Charging Weapon: 1s and 2s become 3s."),
    armor_piercing: bool = typer.Option(False, help="Armor Piercing: no type M/H bonus."),
    rout: str | None = typer.Option(None, "--rout", help="Rout test: leader's Mental, e.g. 4k3."),
    max_hero: int = typer.Option(12, help="Hero Points shown in the table."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Exact odds of an attack roll beating a defense roll, or of a rout test holding."""
    from rich.table import Table

    from warbench.rulesets.warengine.dice import (
        Adjustment,
        XkY,
        attack_faces,
        attack_odds,
        defense_faces,
        massed,
        rout_odds,
    )

    try:
        if rout is not None:
            rule = attack_faces(uncontrolled=uncontrolled)
            p = rout_odds(rout, rule, *(Adjustment.parse(a) for a in attack_adjust))
            if as_json:
                console.print_json(
                    json.dumps({"mental": rout, "p_hold": float(p), "exact": str(p)})
                )
            else:
                console.print(f"Rout test on {rout}: holds (10 or more) {_pct(float(p))}")
            if attack is None:
                return
        if attack is None or defense is None:
            raise fail("give --attack and --defense (e.g. --attack 4k3 --defense 3k2) or --rout")
        a_pool = XkY.parse(attack, "--attack").adjusted(
            *(Adjustment.parse(a, "--attack-adjust") for a in attack_adjust)
        )
        a_pool = massed(a_pool, helpers, mob_mentality=mob_mentality)
        d_pool = XkY.parse(defense, "--defense").adjusted(
            *(Adjustment.parse(a, "--defense-adjust") for a in defense_adjust)
        )
        result = attack_odds(
            a_pool,
            d_pool,
            attack_faces=attack_faces(
                uncontrolled=uncontrolled, extra_bite=extra_bite, charging_weapon=charging_weapon
            ),
            defense_faces=defense_faces(
                defender_type=defender_type,
                uncontrolled=defender_uncontrolled,
                armor_piercing=armor_piercing,
            ),
        )
    except WarbenchError as exc:
        raise fail(str(exc)) from None
    if as_json:
        console.print_json(json.dumps(result.to_dict(max_hero)))
        return
    console.print(
        f"Attack {result.attack} vs Defense {result.defense}: "
        f"P(attack > defense) = {_pct(float(result.p_kill))}",
        highlight=False,
    )
    diff = Table(title="Attack minus defense", show_edge=False)
    diff.add_column("Difference", justify="right")
    diff.add_column("P", justify="right")
    diff.add_column("P(>=)", justify="right")
    tail = 1.0
    for d, pr in result.difference.items():
        diff.add_row(str(d), _pct(float(pr)), _pct(tail))
        tail -= float(pr)
    console.print(diff)
    hero = Table(title="Hero Points (line 493)", show_edge=False)
    hero.add_column("Hero Points", justify="right")
    hero.add_column("P(defender survives) spending up to h", justify="right")
    hero.add_column("P(attacker kills) spending up to h", justify="right")
    for h in range(max_hero + 1):
        hero.add_row(
            str(h),
            _pct(1 - float(result.p_kill_with(0, h))),
            _pct(float(result.p_kill_with(h, 0))),
        )
    console.print(hero)
