"""WARSURGE commands: ``chart``, ``odds`` and ``demo``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from warbench.cli.app import app, console, fail
from warbench.cli.progress import progress_bar
from warbench.cli.ruleset_cmds import RULESET_OPTION, Ruleset, forward
from warbench.kernel.errors import UnknownNameError, WarbenchError

# Start-up (issue 18): the rules are imported inside the commands that use them.
if TYPE_CHECKING:
    from rich.table import Table

    from warbench.rulesets.warsurge.odds import AttackOdds
    from warbench.rulesets.warsurge.profiles import Unit


def chart_table(power: int | None = None, defence: int | None = None) -> Table:
    """The Attack Dice Chart (or one row / column / cell of it) as a rich table."""
    from rich.table import Table

    from warbench.rulesets.warsurge.chart import MAX_DEFENCE, MAX_POWER, attack_requirement

    powers = [power] if power is not None else list(range(1, MAX_POWER + 1))
    defences = [defence] if defence is not None else list(range(MAX_DEFENCE + 1))
    table = Table(title="Attack Dice Chart (Core Rules §5.7)", padding=(0, 1), show_edge=False)
    table.add_column("Pwr\\Def", justify="right", style="bold")
    for d in defences:
        table.add_column(f"{d}+" if d == MAX_DEFENCE else str(d), justify="center")
    for p in powers:
        cells = [str(attack_requirement(p, d) or "-") for d in defences]
        table.add_row(f"{p}+" if p == MAX_POWER else str(p), *cells)
    return table


@app.command()
def chart(
    power: int | None = typer.Option(None, "--power", "-p", help="Weapon Power (1-20+)."),
    defence: int | None = typer.Option(None, "--defence", "-d", help="Target Defence (0-15+)."),
) -> None:
    """Show the Attack Dice Chart, a row of it, or one cell."""
    if power is not None and power < 1:
        raise fail(f"--power {power} is not on the chart; allowed: 1 to 20 (higher reads as 20)")
    if defence is not None and defence < 0:
        raise fail(
            f"--defence {defence} is not on the chart; allowed: 0 to 15 (higher reads as 15)"
        )
    console.print(chart_table(power, defence))


# ------------------------------------------------------------------------------------- odds


def _load(path: Path, name: str | None, role: str = "ATTACKER") -> Unit:
    from warbench.cli.file_kinds import units_in

    if path.is_dir():
        raise fail(
            f"{path}: is a directory; warbench odds expects the {role} unit file (YAML or JSON), "
            "for example examples/warsurge/troopers_10.yaml"
        )
    units = units_in(path, f"warbench odds ({role})")
    if name is None:
        if len(units) > 1:
            names = ", ".join(u.name for u in units)
            raise fail(
                f"{path}: holds {len(units)} units ({names}); choose one with --unit/--target-unit"
            )
        return units[0]
    for u in units:
        if u.name.lower() == name.lower():
            return u
    raise UnknownNameError("unit", name, [u.name for u in units], where=str(path))


def _combat_damage(text: str) -> tuple[int, ...]:
    """``--combat-damage 1,4``: Combat Damage results in effect (Perks L1154): 1-3 at most
    once each, 4 once per broken Weapon."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not all(p in {"1", "2", "3", "4"} for p in parts) or any(
        parts.count(r) > 1 for r in ("1", "2", "3")
    ):
        raise fail(
            f"--combat-damage {text!r}: write results 1-4 separated by commas, 1-3 at most once "
            "(e.g. 1,4,4; Perks L1154)"
        )
    return tuple(int(p) for p in parts)


def _dice_modifier(text: str) -> tuple[int, str]:
    """``-1:Concussive`` → ``(-1, "Concussive")``; a bad value is one line naming the form."""
    value, sep, source = text.partition(":")
    try:
        number = int(value)
    except ValueError:
        number = None
    if not sep or number is None or not source.strip() or not -6 <= number <= 6:
        raise fail(
            f"--dice-modifier {text!r}: write VALUE:SOURCE, VALUE a whole number from -6 to 6 "
            "(e.g. -1:Concussive)"
        )
    return number, source.strip()


def odds_report(
    attacker: Unit,
    target: Unit,
    odds: AttackOdds,
    weapons: list[str],
) -> dict[str, Any]:
    """The odds as a JSON-ready dictionary."""
    from warbench.rulesets.warsurge import RULESET_VERSION

    return {
        "attacker": attacker.name,
        "target": target.name,
        "weapons": weapons,
        "weapons_not_used": [{"weapon": w, "reason": why} for w, why in odds.unused_weapons],
        "exact": odds.exact,
        "trials": odds.trials,
        "confidence_95": odds.confidence_halfwidth(),
        "expected_hp_lost": odds.expected_hp_lost,
        "expected_models_slain": odds.expected_models_slain,
        "wipe_chance": odds.wipe_chance,
        "expected_attacker_hp_lost": odds.expected_attacker_hp_lost,
        "hp_lost": {str(k): v for k, v in odds.hp_lost.items()},
        "models_slain": {str(k): v for k, v in odds.models_slain.items()},
        "attacker_hp_lost": {str(k): v for k, v in odds.attacker_hp_lost.items()},
        "per_weapon_expected_hp_lost": odds.per_weapon_mean,
        "explanations": odds.notes,
        "ruleset": RULESET_VERSION,
    }


def odds_tables(attacker: Unit, target: Unit, odds: AttackOdds) -> list[Table]:
    """Rich tables: summary, then distributions of HP lost and models slain."""
    from rich.table import Table

    method = (
        "exact"
        if odds.exact
        else f"Monte Carlo, {odds.trials} trials, ±{odds.confidence_halfwidth():.3f} (95%)"
    )
    summary = Table(title=f"{attacker.name} attack {target.name} ({method})", show_header=False)
    summary.add_column("", style="bold")
    summary.add_column("")
    if odds.weapons:
        summary.add_row("weapons used", ", ".join(odds.weapons))
    for w, why in odds.unused_weapons:
        summary.add_row(f"  not used: {w}", why)
    summary.add_row("expected HP lost", f"{odds.expected_hp_lost:.3f}")
    summary.add_row("expected models slain", f"{odds.expected_models_slain:.3f}")
    summary.add_row(
        f"chance to wipe ({odds.eligible_models} models in sight)", f"{odds.wipe_chance:.2%}"
    )
    if odds.expected_attacker_hp_lost:
        summary.add_row("attacker HP lost (expected)", f"{odds.expected_attacker_hp_lost:.3f}")
    for w, m in odds.per_weapon_mean.items():
        summary.add_row(f"  {w}", f"{m:.3f} HP tallied (expected)")
    for note in odds.notes[:12]:
        summary.add_row("  why", note)
    dist = Table(title="Distribution")
    dist.add_column("k", justify="right")
    dist.add_column("P(HP lost = k)", justify="right")
    dist.add_column("P(HP lost ≥ k)", justify="right")
    dist.add_column("P(models slain = k)", justify="right")
    top = max([*odds.hp_lost, *odds.models_slain, 0])
    for k in range(top + 1):
        p = odds.hp_lost.get(k, 0.0)
        at_least = sum(v for j, v in odds.hp_lost.items() if j >= k)
        s = odds.models_slain.get(k, 0.0)
        if p or s or k == 0:
            dist.add_row(str(k), f"{p:.4f}", f"{at_least:.4f}", f"{s:.4f}")
    return [summary, dist]


#: The image types ``odds --plot`` writes (matplotlib's, by the file's extension).
PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def plot_odds(odds: AttackOdds, title: str, path: Path) -> None:
    """A bar chart of the HP lost and models slain distributions (PNG or SVG by extension)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, dist, label in (
        (axes[0], odds.hp_lost, "HP lost"),
        (axes[1], odds.models_slain, "models slain"),
    ):
        ks = sorted(dist)
        ax.bar(ks, [dist[k] for k in ks], color="#8a2c2c")
        ax.set_xlabel(label)
        ax.set_ylabel("probability")
        ax.set_xticks(ks)
    fig.suptitle(title)
    fig.tight_layout()
    try:
        fig.savefig(path)
    except (OSError, ValueError) as exc:
        raise fail(f"{path}: cannot write the plot ({exc})") from None
    finally:
        plt.close(fig)


#: ``odds --situation`` names: each sets one circumstance of the attack model
#: (:class:`~warbench.rulesets.warsurge.attack.AttackContext`) to the value given, with what it
#: wakes. ``tests/cli/test_odds_situations.py`` checks that every yes/no circumstance the model
#: reads is here, so a new one cannot be left unreachable from the command line.
SITUATIONS: dict[str, tuple[str, object, str]] = {
    "melee": ("melee", True, "attacker and target in the same Melee (§5.9; same as --melee)"),
    "cover": ("cover", True, "the target has a Cover Bonus (§5.6; same as --cover)"),
    "half-range": (
        "within_half_range",
        True,
        "a target model within half the weapons' Range (Rapid, Impact; same as --half-range)",
    ),
    "attacker-engaged": (
        "attacker_engaged",
        True,
        "the attacker is engaged in another Melee, attacking out of it (§5.8)",
    ),
    "target-engaged": (
        "target_engaged_elsewhere",
        True,
        "the target is in a Melee with a friendly unit, attacking into it (§5.8)",
    ),
    "fire-points": (
        "through_fire_points",
        True,
        "the attacker fires from a Transport engaged in a Melee: no Weapon Type modifiers (§6.9)",
    ),
    "leader": ("target_is_leader", True, "the target is a Leader or War Master (Assassin)"),
    "airborne": ("target_airborne", True, "the target is Airborne or a Jumper (Anti-Air)"),
    "stationary": ("stationary", True, "the attacker has not moved this turn (Focus)"),
    "engaging": (
        "first_use_after_engaging",
        True,
        "the weapon's first use after the unit engaged (Clash)",
    ),
    "outflank": (
        "outflank",
        True,
        "first use in a Melee whose target another unit already engages (Outflank)",
    ),
    "burst": ("burst", True, "the attacker uses Burst this turn (Burst doubles Attacks)"),
    "out-of-sight": (
        "target_out_of_sight",
        True,
        "no target model in line of sight: No Line of Sight weapons only, I at -2 (Perks L3961)",
    ),
    "no-emergency-save": (
        "emergency_save",
        False,
        "the target's Emergency Save is already spent (Emergency Save)",
    ),
    "target-costs-more": (
        "point_cost_greater",
        True,
        "the target's Point Cost is equal or higher than the attacker's (Defiance, Might)",
    ),
    "stunned": ("stunned", True, "the attacker is Stunned: Attack Dice need a 6 (Stun)"),
    "bloodthirsty": (
        "melee_bonus_attacks",
        1,
        "the attacker's Roster has Bloodthirsty: +1 Attack in a Melee, after other perks",
    ),
}


def situation_context(names: list[str]) -> dict[str, object]:
    """``AttackContext`` fields for ``--situation`` names (comma-separated or repeated); an
    unknown name is one line listing the allowed ones."""
    out: dict[str, object] = {}
    for item in names:
        for raw in item.split(","):
            name = raw.strip().lower().replace("_", "-")
            if not name:
                continue
            if name not in SITUATIONS:
                raise fail(
                    f"--situation {raw.strip()!r} is not a situation; allowed: "
                    + ", ".join(SITUATIONS)
                )
            field, value, _ = SITUATIONS[name]
            if field == "point_cost_greater":
                # Point Cost (Greater) is "equal or higher" (000 L321-323): the target costs
                # what the attacker does, which meets Greater (and Lesser) exactly.
                out["attacker_point_cost"] = out["target_point_cost"] = 1.0
            else:
                out[field] = value
    return out


_SITUATION_HELP = "Situations, comma-separated: " + ", ".join(SITUATIONS) + " (docs/cli.md)."


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def odds(
    context: typer.Context,
    attacker_file: Path | None = typer.Argument(None, help="Attacking unit file (YAML/JSON)."),
    target_file: Path | None = typer.Argument(None, help="Target unit file (YAML/JSON)."),
    ruleset: Ruleset = RULESET_OPTION,
    weapon: list[str] = typer.Option(None, "--weapon", "-w", help="Weapon(s) to use, in order."),
    unit_name: str | None = typer.Option(None, "--unit", help="Attacker, if the file has several."),
    target_name: str | None = typer.Option(None, "--target-unit", help="Target, if several."),
    melee: bool = typer.Option(False, "--melee", help="Attacker and target in the same Melee."),
    cover: bool = typer.Option(False, "--cover", help="Target has a Cover Bonus (§5.6)."),
    cover_bonus: int = typer.Option(
        1, "--cover-bonus", min=0, max=5, help="Agreed Cover Bonus, +0 to +5 Defence (§5.6)."
    ),
    cover_armour: int = typer.Option(
        0, "--cover-armour", min=-5, max=5, help="Custom cover: Armour Save steps (§10.4)."
    ),
    cover_aegis: int = typer.Option(
        0, "--cover-aegis", min=-5, max=5, help="Custom cover: AEGIS Save steps (§10.4)."
    ),
    cover_save: int | None = typer.Option(
        None, "--cover-save", min=2, max=6, help="Custom cover: an extra Cover Save, 2-6 (§10.4)."
    ),
    advanced: bool = typer.Option(False, "--advanced", help="Advanced playstyle (§9)."),
    half_range: bool = typer.Option(
        False, "--half-range", help="A target model is within half the weapons' Range (Rapid)."
    ),
    in_sight: int | None = typer.Option(
        None,
        "--in-sight",
        min=1,
        help="Only the first N target models are in line of sight (at least 1, §5.3).",
    ),
    situation: list[str] = typer.Option([], "--situation", "-s", help=_SITUATION_HELP),
    distance: float | None = typer.Option(
        None, "--distance", min=0, max=1000, help="Inches between the units (Barrier, Wildcard)."
    ),
    darkside: str | None = typer.Option(
        None, "--darkside", help="POWER,ATTACKS bought with Darkside (each 0-3, Perks §12.5)."
    ),
    aether_modifier: int = typer.Option(
        0, "--aether-modifier", min=-12, max=12, help="Modifier to Aether Tests (Incantation)."
    ),
    struck_dice: int | None = typer.Option(
        None,
        "--struck-dice",
        min=0,
        max=1000,
        help="N Attack Dice that count as successful, not rolled (Furious, Perks L2003).",
    ),
    combat_damage: str | None = typer.Option(
        None,
        "--combat-damage",
        help="Combat Damage results already in effect on the target, e.g. 1,4 (1-3 waiting or "
        "lasting, one 4 per broken Weapon; Perks L1154).",
    ),
    dice_modifier: list[str] = typer.Option(
        [],
        "--dice-modifier",
        help="VALUE:SOURCE, a Dice Modifier from a status on the units (e.g. -1:Concussive; "
        "enemy-caused, so Stalwart ignores negative ones). Repeatable.",
    ),
    monte_carlo: int = typer.Option(0, "--monte-carlo", min=0, help="Also sample N trials."),
    seed: int | None = typer.Option(
        None, min=0, help="Seed for Monte Carlo, a whole number from 0 (recorded)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    plot: Path | None = typer.Option(None, "--plot", help="Write a bar chart (PNG or SVG)."),
) -> None:
    """Exact odds of one unit attacking another (Core Rules §5; Perks class A).

    With `--ruleset warengine` the remaining options are those of `warbench warengine odds`
    (`--attack 4k3 --defense 3k2 …`).
    """
    if ruleset is Ruleset.WARENGINE:
        forward(ruleset, ["odds", *context.args, *(["--json"] if as_json else [])])
        return
    from warbench.kernel.dice import SeededDice
    from warbench.rulesets.warsurge.attack import AttackContext, PerkSet, Playstyle, UnitState
    from warbench.rulesets.warsurge.io import perk_warnings
    from warbench.rulesets.warsurge.odds import (
        AttackPlan,
        attack_odds,
        follow_on_dice,
        sample_attack,
    )

    if context.args:
        raise fail(f"unexpected arguments {' '.join(context.args)}; see warbench odds --help")
    if attacker_file is None or target_file is None:
        raise fail("warbench odds needs ATTACKER and TARGET unit files (YAML or JSON)")
    if plot is not None and plot.suffix.lower() not in PLOT_SUFFIXES:
        raise fail(
            f"--plot {plot}: unknown image type {plot.suffix!r}; allowed: "
            + ", ".join(PLOT_SUFFIXES)
        )
    flags = situation_context(situation)
    if darkside is not None:
        parts = darkside.split(",")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise fail(f"--darkside {darkside!r}: write POWER,ATTACKS, each 0 to 3 (e.g. 2,1)")
        flags["darkside_power"], flags["darkside_attacks"] = (int(p) for p in parts)
    if aether_modifier:
        flags["aether_modifier"] = aether_modifier
    if struck_dice is not None:
        flags["struck_dice"] = struck_dice
    if combat_damage is not None:
        flags["combat_damage"] = _combat_damage(combat_damage)
    if dice_modifier:
        flags["status_modifiers"] = tuple(_dice_modifier(m) for m in dice_modifier)
    melee = bool(flags.pop("melee", melee))
    cover = bool(flags.pop("cover", cover))
    half_range = bool(flags.pop("within_half_range", half_range))
    try:
        attacker = _load(attacker_file, unit_name)
        target = _load(target_file, target_name, "TARGET")
        ctx = AttackContext(
            melee=melee,
            cover=cover,
            cover_bonus=cover_bonus,
            cover_armour=cover_armour,
            cover_aegis=cover_aegis,
            cover_save=cover_save,
            within_half_range=half_range,
            distance=distance,
            playstyle=Playstyle.ADVANCED if advanced else Playstyle.STANDARD,
            los_models=frozenset(range(in_sight)) if in_sight is not None else None,
            **flags,  # type: ignore[arg-type]
        )
        plan = AttackPlan(
            UnitState.of(attacker), UnitState.of(target), ctx, weapons=tuple(weapon or ())
        )
        names = plan.verify_weapons()
        if darkside is not None and not any(
            PerkSet(attacker.weapon(w).perks).has("Darkside") for w in names
        ):  # session 34: it was accepted and did nothing, even out of its 0-3 range
            raise fail(
                f"--darkside {darkside}: no weapon used ({', '.join(names)}) has Darkside, so "
                "nothing can be bought (Perks §12.5 Darkside); leave --darkside out"
            )
        with progress_bar("sampling (exact odds too large)", as_json=as_json) as bar:
            result = attack_odds(plan, seed=seed, progress=bar)
        if not half_range and not melee:  # say why Rapid / Impact did not fire
            for w in names:
                held = [p for p in attacker.weapon(w).perks if p.split()[0] in ("Rapid", "Impact")]
                if held:
                    result.notes.append(
                        f"{w}: {', '.join(held)} not applied: no target model within half "
                        "Range (give --half-range if one is)"
                    )
        warnings = perk_warnings(attacker) + perk_warnings(target)
        follow = None  # Bodyguard (Perks L1935): the dice that follow on once it is slain
        if len(names) == 1 and PerkSet(target.profile.perks).has("Bodyguard"):
            follow = follow_on_dice(plan)
        sampled = None
        if monte_carlo:
            with progress_bar("Monte Carlo trials", as_json=as_json) as bar:
                sampled = sample_attack(plan, monte_carlo, SeededDice(seed), bar)
    except WarbenchError as exc:
        raise fail(str(exc)) from None
    chosen = sorted(
        {n for item in situation for n in (x.strip().lower() for x in item.split(",")) if n}
        | {n for n, on in (("melee", melee), ("cover", cover), ("half-range", half_range)) if on}
    )
    if as_json:
        report = odds_report(attacker, target, result, names)
        report["situations"] = chosen
        report["distance"] = distance
        report["warnings"] = warnings
        if follow is not None:
            report["follow_on_dice"] = {str(k): p for k, p in follow.items()}
        if sampled is not None:
            report["monte_carlo"] = odds_report(attacker, target, sampled, names)
        console.print_json(json.dumps(report))
    else:
        if chosen or distance is not None:
            said = ", ".join(chosen + ([f'{distance:g}" apart'] if distance is not None else []))
            console.print(f"situation: {said}", highlight=False)
        for table in odds_tables(attacker, target, result):
            console.print(table)
        if follow is not None:
            dist = ", ".join(f"{k}: {p:.4f}" for k, p in follow.items())
            console.print(
                f"Bodyguard (Perks L1935): successful Attack Dice left over once {target.name} "
                f"is slain, which follow on to the unit it guards ({dist}; odds of them: "
                "--struck-dice N at that unit)",
                highlight=False,
            )
        if sampled is not None:
            console.print(
                f"Monte Carlo ({sampled.trials} trials): expected HP lost "
                f"{sampled.expected_hp_lost:.3f} ± {sampled.confidence_halfwidth():.3f}"
            )
        for w in warnings:
            console.print(f"[yellow]warning:[/] {w}")
    if plot is not None:
        plot_odds(result, f"{attacker.name} → {target.name}", plot)


# ------------------------------------------------------------------------------------- demo


def demo_units() -> tuple[Unit, Unit]:
    """The §2.3 Ranged Example (001_d3f5e425c5e1196d.txt): Troopers against Kataton Servitors."""
    from warbench.rulesets.warsurge.profiles import (
        ModelGroup,
        Unit,
        UnitProfile,
        WeaponProfile,
        WeaponType,
    )

    rifle = WeaponProfile(
        name="Laser Rifle", range=18, type=WeaponType.BATTLE, attacks=2, power=3, ap=6
    )
    troopers = Unit(
        profile=UnitProfile(name="Troopers", move=6, dash=6, defence=3, hp=1, armour=4, aegis=5),
        weapons=[rifle],
        models=[ModelGroup(count=6, weapons=["Laser Rifle"])],
    )
    claws = WeaponProfile(name="Servo Claws", range=0, attacks=2, power=5, ap=4)
    kataton = Unit(
        profile=UnitProfile(
            name="Kataton Battle Servitors", move=5, dash=5, defence=5, hp=2, armour=3
        ),
        weapons=[claws],
        models=[ModelGroup(count=2, weapons=["Servo Claws"])],
    )
    return troopers, kataton


@app.command()
def demo() -> None:
    """Show a profile, its Attack Dice Chart row and the exact odds of the §2.3 example attack."""
    from rich.table import Table

    from warbench.kernel.dice import SeededDice
    from warbench.rulesets.warsurge.attack import UnitState
    from warbench.rulesets.warsurge.odds import AttackPlan, exact_attack, sample_attack
    from warbench.rulesets.warsurge.profiles import format_save

    troopers, kataton = demo_units()
    rifle = troopers.weapons[0]
    profile = Table(title="Unit and weapon profiles (Core Rules §1.5-1.6)")
    for col in ("Unit", "Move", "Dash", "Def", "HP", "Armour", "AEGIS", "Models"):
        profile.add_column(col)
    for u in (troopers, kataton):
        p = u.profile
        profile.add_row(
            p.name, f'{p.move}"', f'{p.dash}"', str(p.defence), str(p.hp),
            format_save(p.armour), format_save(p.aegis), str(u.model_count),
        )  # fmt: skip
    console.print(profile)
    console.print(
        f'Weapon: {rifle.name}  Range {rifle.range}"  {rifle.type.value}  Attacks {rifle.attacks}'
        f"  Power {rifle.power}  AP {format_save(rifle.ap)}"
    )
    console.print(chart_table(power=rifle.power))
    plan = AttackPlan(UnitState.of(troopers), UnitState.of(kataton))
    for table in odds_tables(troopers, kataton, exact_attack(plan)):
        console.print(table)
    with progress_bar("Monte Carlo trials") as bar:
        mc = sample_attack(plan, 100_000, SeededDice(2026), bar)
    console.print(
        f"Monte Carlo cross-check (100,000 trials, seed 2026): expected HP lost "
        f"{mc.expected_hp_lost:.3f} ± {mc.confidence_halfwidth():.3f}"
    )
