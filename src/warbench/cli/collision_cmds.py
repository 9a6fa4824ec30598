"""``warbench collision``: character cards, battle groups, the abilities glossary and exact
attack odds (003_fc239e71486306e1.txt)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from warbench.cli.app import app, console, fail
from warbench.kernel.errors import WarbenchError

collision = typer.Typer(
    name="collision",
    help="Collision: validate and print character cards and battle groups, the abilities "
    "glossary, exact attack odds.",
    no_args_is_help=True,
)
app.add_typer(collision, name="collision")


@collision.command()
def validate(
    file: Annotated[Path, typer.Argument(help="Card or battle-group file (YAML or JSON).")],
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Check a card or a battle group; list every broken limit and exit 1 if any."""
    from warbench.rulesets.collision.io import load
    from warbench.rulesets.collision.models import Card
    from warbench.rulesets.collision.validation import group_report

    try:
        obj = load(file)
    except WarbenchError as exc:
        raise fail(str(exc)) from None
    if isinstance(obj, Card):
        report: dict[str, object] = {
            "kind": "card",
            "name": obj.name,
            "points": obj.points,
            "violations": [],
        }
        if as_json:
            console.print_json(json.dumps(report))
        else:
            console.print(
                f"{file}: card {obj.name!r} ({obj.points} points) is valid",
                highlight=False,
                markup=False,
            )
        return
    summary = group_report(obj)  # the group checked once: its report holds every violation
    found = summary["violations"]
    if as_json:
        console.print_json(json.dumps(summary))
    else:
        console.print(
            f"{file}: battle group {obj.name!r}: {summary['points']}/{obj.points_limit} points, "
            f"{summary['cards']} cards ({summary['different_cards']} different, at most "
            f"{summary['max_different_cards']}), board {summary['board']}, deployment phases "
            f"{'/'.join(str(n) for n in summary['deployment_phases'])}",
            highlight=False,
            markup=False,
        )
        for v in found:
            console.print(
                f"  violation: {v['field']}: {v['message']} [{v['rule']}]",
                highlight=False,
                markup=False,
            )
    if found:
        raise typer.Exit(1)


@collision.command()
def card(
    file: Annotated[Path, typer.Argument(help="Card or battle-group file (YAML or JSON).")],
    html: Annotated[Path, typer.Option("--html", help="Write the printable card(s) here.")],
) -> None:
    """Write a printable HTML card (every card of a battle group on one page)."""
    from warbench.rulesets.collision.card import render_cards
    from warbench.rulesets.collision.io import load
    from warbench.rulesets.collision.models import Card

    try:
        obj = load(file)
        cards = [obj] if isinstance(obj, Card) else [c for c, _ in obj.cards()]
        page = render_cards(cards, title=obj.name)
        html.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise fail(f"{html}: cannot write ({exc.strerror or exc})") from None
    except WarbenchError as exc:
        raise fail(str(exc)) from None
    console.print(
        f"wrote {html} ({len(cards)} card{'s' if len(cards) != 1 else ''})",
        highlight=False,
        markup=False,
    )


@collision.command()
def abilities(
    search: Annotated[
        str | None, typer.Option("--search", "-s", help="Text in the name or description.")
    ] = None,
    kind: Annotated[
        str | None,
        typer.Option("--kind", "-k", help="action, reaction, effect, status or term."),
    ] = None,
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """List the abilities glossary with listed costs and source lines."""
    from rich.table import Table

    from warbench.rulesets.collision.glossary import EntryKind, Glossary

    if kind is not None and kind.lower() not in {k.value for k in EntryKind}:
        raise fail(
            f"--kind = {kind!r} is not allowed; allowed: " + ", ".join(k.value for k in EntryKind)
        )
    found = Glossary.load().search(search or "", kind)
    if as_json:
        console.print_json(json.dumps([e.to_dict() for e in found]))
        return
    table = Table(title=f"Collision abilities: {len(found)}", show_edge=False)
    for col in ("Name", "Kind", "Cost", "Lines", "Text"):
        table.add_column(col, overflow="fold")
    for e in found:
        text = e.text if len(e.text) <= 90 else e.text[:87] + "..."
        table.add_row(
            e.name + (" (RE)" if e.kind.value == "reaction" else ""),
            e.kind.value + (", fear" if e.fear else ""),
            "" if e.cost is None else str(e.cost),
            f"L{e.lines[0]}-{e.lines[1]}",
            text,
        )
    console.print(table)


@collision.command()
def odds(
    attacker: Annotated[Path, typer.Argument(help="Attacker's card file.")],
    defender: Annotated[Path, typer.Argument(help="Defender's card file.")],
    weapon: Annotated[str | None, typer.Option("--weapon", "-w", help="Weapon name.")] = None,
    special: Annotated[
        str | None,
        typer.Option("--special", help="The attacker's special weapon attack (Power Attack ...)."),
    ] = None,
    reaction: Annotated[
        str | None,
        typer.Option("--reaction", help="The target's reaction (Block 2, Dodge, Decoy ...)."),
    ] = None,
    cover: Annotated[str, typer.Option(help="none, partial (1-3 misses) or total (1-6).")] = "none",
    elevation: Annotated[
        str, typer.Option(help="Attacker's elevation against the target: higher, same, lower.")
    ] = "same",
    back: bool = typer.Option(False, "--back", help="Attacking the target's back facing."),
    beyond: int = typer.Option(0, "--beyond", help="Spaces beyond a ranged weapon's Reach."),
    attacker_injuries: int = typer.Option(0, "--attacker-injuries", help="Attacker's injuries."),
    defender_injuries: int = typer.Option(0, "--defender-injuries", help="Target's injuries."),
    attacker_hexed: bool = typer.Option(False, "--attacker-hexed", help="Attacker is hexed."),
    defender_hexed: bool = typer.Option(False, "--defender-hexed", help="Target is hexed."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Exact odds of one weapon attack: to hit, crit, injury level and defeat."""
    from warbench.rulesets.collision.attack import Cover, Elevation, Situation, attack_profile
    from warbench.rulesets.collision.io import load_card
    from warbench.rulesets.collision.odds import attack_odds

    try:
        for option, value, enum in (
            ("--cover", cover, Cover),
            ("--elevation", elevation, Elevation),
        ):
            if value.lower() not in {e.value for e in enum}:
                allowed = ", ".join(e.value for e in enum)
                raise fail(f"{option} = {value!r} is not allowed; allowed: {allowed}")
        a = load_card(attacker)
        d = load_card(defender)
        w = a.weapon(weapon)
        situation = Situation(
            cover=Cover(cover.lower()),
            elevation=Elevation(elevation.lower()),
            back=back,
            beyond_reach=beyond,
            attacker_injuries=attacker_injuries,
            defender_injuries=defender_injuries,
            attacker_hexed=attacker_hexed,
            defender_hexed=defender_hexed,
        )
        profile = attack_profile(a, d, w, situation, special=special, reaction=reaction)
        result = attack_odds(profile)
    except WarbenchError as exc:
        raise fail(str(exc)) from None
    data = {
        "attacker": a.name,
        "defender": d.name,
        "weapon": w.name,
        "special": special,
        "reaction": reaction,
        "w_att": profile.w_att,
        "defense": profile.defense,
        "w_pow": profile.w_pow,
        "armor": profile.armor,
        "toughness": profile.toughness,
        "modifiers": [vars(m) for m in profile.modifiers],
        **result.to_dict(),
    }
    if as_json:
        console.print_json(json.dumps(data))
        return
    out = console.print
    out(
        f"{a.name} ({w.name}: W-Att {profile.w_att}, W-Pow {profile.w_pow}) against {d.name} "
        f"(Def {profile.defense}, Armor {profile.armor}, Tuf {profile.toughness})",
        highlight=False,
        markup=False,
    )
    for m in profile.modifiers:
        out(f"  {m.quantity} {m.amount:+d}: {m.reason} [{m.rule}]", highlight=False, markup=False)
    if profile.immune:
        out(f"  {d.name} is immune to {w.type.value} attacks", highlight=False, markup=False)
    if profile.cover.value != "none":
        out(f"misses on cover: {float(result.cover_miss):.1%}", highlight=False, markup=False)
    out(
        f"hit: {float(result.hit):.1%}   crit: {float(result.crit):.1%}   slay: "
        f"{float(result.slay):.1%}",
        highlight=False,
        markup=False,
    )
    for k, p in sorted(result.injury.items()):
        label = "no injury" if k == 0 else f"Injury {k}"
        out(f"  {label:>10}: {float(p):6.1%}", highlight=False, markup=False)
    out(
        f"expected injury level: {float(result.expected_injury):.2f}", highlight=False, markup=False
    )
    out(
        f"target defeated (injury >= Tuf {profile.toughness}): {float(result.defeated):.1%}",
        highlight=False,
        markup=False,
    )


@collision.command()
def objectives(
    roll: bool = typer.Option(False, "--roll", help="Choose by the Random method (L451-460)."),
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the D10s.")] = None,
    points: Annotated[int, typer.Option("--points", help="Point limit, for the turn limit.")] = 500,
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """The major and minor objective tables, or a random choice of one major and two minors."""
    import secrets

    from warbench.rulesets.collision.dice import SeededD10
    from warbench.rulesets.collision.objectives import MAJOR, MINOR, Objective, random_method

    def row(o: Objective) -> dict[str, object]:
        out: dict[str, object] = {"roll": o.roll, "name": o.name, "source": o.source}
        if o.major:
            out["deployment"] = o.deployment.value if o.deployment else None
            out["turn_limit"] = o.turn_limit(points)
        return out

    if not roll:
        data = {"major": [row(o) for o in MAJOR], "minor": [row(o) for o in MINOR]}
        if as_json:
            console.print_json(json.dumps(data))
            return
        for o in MAJOR:
            console.print(
                f"major {o.roll:>2} {o.name:<24} {o.deployment.value if o.deployment else ''}"
                f", {o.turn_limit(points)} turns at {points} points  {o.source}",
                highlight=False,
                markup=False,
            )
        for o in MINOR:
            console.print(
                f"minor {o.roll:>2} {o.name:<24} {o.source}", highlight=False, markup=False
            )
        return
    dice = SeededD10(secrets.randbits(63) if seed is None else seed)
    chosen = random_method(dice)
    result = {
        "seed": dice.seed,
        "rolls": [{"label": label, "face": face} for label, face in dice.log],
        "major": row(chosen.major),
        "minors": [row(m) for m in chosen.minors],
    }
    if as_json:
        console.print_json(json.dumps(result))
        return
    m = chosen.major
    console.print(
        f"seed {dice.seed}: major {m.name} ({m.deployment.value if m.deployment else ''} "
        f"deployment, {m.turn_limit(points)} turns at {points} points); minors "
        f"{chosen.minors[0].name} and {chosen.minors[1].name}",
        highlight=False,
        markup=False,
    )


@collision.command()
def play(
    groups: Annotated[list[Path], typer.Argument(help="Two battle groups: yours, then the AI's.")],
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", min=0, help="Seed (recorded; random if unset).")
    ] = None,
    side: Annotated[int, typer.Option("--side", help="Which group you play: 0 or 1.")] = 0,
    auto: bool = typer.Option(False, "--auto", help="The scripted player plays both sides."),
    major: Annotated[str | None, typer.Option("--major", help="Major objective.")] = None,
    minors: Annotated[
        str | None, typer.Option("--minors", help="Two minor objectives, comma separated.")
    ] = None,
    turns: Annotated[
        int | None, typer.Option("--turns", help="Turn limit (default: the major objective's).")
    ] = None,
    record: Annotated[Path | None, typer.Option("--record", help="Write the record.")] = None,
    svg: Annotated[Path | None, typer.Option("--svg", help="Write the final board as SVG.")] = None,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Only the result."),
) -> None:
    """Play a Collision battle against the scripted player (docs/collision-game.md): each
    decision is asked at the prompt (a number, nothing for the suggestion, or an action as
    JSON) and the grid is drawn before each of your activations. When the input ends, the
    scripted player plays on for you."""
    from warbench.cli.play_collision import play_collision

    try:
        play_collision(groups, seed, side, auto, major, minors, turns, record, svg, quiet)
    except WarbenchError as exc:
        raise fail(str(exc)) from exc
