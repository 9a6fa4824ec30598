"""Exact point costs of the Troop Builder V2.1 and Force Builder V2.1, itemised.

004_f4ea5693af0644ce.txt: a figure costs its type, Movement, Defense, Mental and Control
Radius (its "basic characteristics", line 937), plus personal tweaks, plus its weapons, plus
4 points per Hero Point (line 743). A weapon costs Range + Attack Value, times the Area Effect
multiplier, "applied before you add tweaks" (lines 807-809), plus weapon tweaks and the
Special Power built in its slot (line 828). Tweak points count flaws and edges alike
(line 735), weapon tweaks included (line 733), Summoned excluded (line 1433).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any

from warbench.rulesets.warengine.models import Figure, Force, Unit, Weapon
from warbench.rulesets.warengine.tables import BOOK, CLASS_ORDER, Catalogue, catalogue


@dataclass(frozen=True)
class CostItem:
    """One line of an itemised cost: what, points, tweak points used, and the book table."""

    label: str
    points: int
    tweak_points: int = 0
    source: str = ""


@dataclass(frozen=True)
class WeaponCost:
    """The cost of one weapon slot; ``profiles`` holds the profiles of a Multiprofile weapon."""

    name: str
    items: tuple[CostItem, ...]
    points: int
    tweak_points: int
    weapon_class: str
    ranged: bool
    profiles: tuple[WeaponCost, ...] = ()


@dataclass(frozen=True)
class FigureCost:
    """The itemised cost of a figure; ``forms`` holds each Shapechanger form's own cost."""

    name: str
    type: str
    items: tuple[CostItem, ...]
    basic: int
    weapons: tuple[WeaponCost, ...]
    points: int
    tweak_points: int
    personal_tweak_points: int
    weapon_tweak_points: int
    forms: tuple[FigureCost, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``--json``."""
        return asdict(self)


@dataclass(frozen=True)
class UnitCost:
    """A unit: its figures, unit tweaks once per unit, and the floor of line 994-995."""

    name: str
    figures: tuple[tuple[str, int, int], ...]  # (figure key, count, points each)
    figures_points: int
    tweaks: tuple[CostItem, ...]
    floor: int
    points: int


@dataclass(frozen=True)
class ForceCost:
    """Spending of a force against its Points of Renown and Points of Force (lines 971-990)."""

    name: str
    units: tuple[UnitCost, ...]
    renown: int
    force: int
    renown_spent: int
    renown_unused: int
    force_available: int
    force_spent: int
    vehicles_monsters_spent: int
    vehicles_monsters_cap: int
    troopers_elites_spent: int
    hero_points: int
    hero_point_budget: int
    points: int
    extra: dict[str, Any] = field(default_factory=dict)


def _ceil(x: Fraction) -> int:
    # The Range and AV tables only hold even points, so 1.5x is always a whole number; a
    # fraction could only come from custom tables and is rounded up (docs/rulings.md).
    return math.ceil(x)


def weapon_cost(weapon: Weapon, cat: Catalogue | None = None) -> WeaponCost:
    """Cost of a weapon slot (004 Troop Builder: Range, Attack Value, Area Effect tables)."""
    cat = cat or catalogue()
    if weapon.profiles:
        # 004 Weapon Tweaks: Multiprofile (line 1811): cost of the dearest profile + 5; tweak
        # points of the largest profile tweak total + 5.
        profiles = tuple(weapon_cost(p, cat) for p in weapon.profiles)
        dearest = max(profiles, key=lambda c: c.points)
        most_tweaked = max(profiles, key=lambda c: c.tweak_points)
        items = [
            CostItem(f"dearest profile: {dearest.name}", dearest.points, 0, f"{BOOK} line 1811"),
            CostItem(
                f"tweak points of largest profile: {most_tweaked.name}",
                0,
                most_tweaked.tweak_points,
                f"{BOOK} line 1811",
            ),
        ]
        for t in weapon.tweaks:
            wt = cat.weapon_tweaks[t]
            items.append(CostItem(t, wt.cost, abs(wt.cost), f"{BOOK} line {wt.line}"))
        klass = max((p.weapon_class for p in profiles), key=CLASS_ORDER.__getitem__)
        return WeaponCost(
            weapon.name,
            tuple(items),
            sum(i.points for i in items),
            sum(i.tweak_points for i in items),
            klass,
            weapon.ranged,
            profiles,
        )
    items = []
    r_points = cat.range.points(weapon.range)
    items.append(CostItem(f"R {weapon.range}", r_points, 0, f"{BOOK} Range Table (R)"))
    av = weapon.av or "1k1"
    av_row = cat.attack_value.row(av)
    items.append(CostItem(f"AV {av} ({av_row.weapon_class})", av_row.points, 0, f"{BOOK} AV"))
    base = r_points + av_row.points
    if weapon.ae:
        mult = cat.area_effect[weapon.ae]
        # 004 Troop Builder: Area Effect Table: "the Area Effect multiplier is applied before
        # you add tweaks" (line 809); the item is the increase over R + AV.
        ae_total = _ceil(base * mult)
        items.append(
            CostItem(
                f"AE {weapon.ae} {weapon.aet or ''} (x{float(mult):g})".replace("  ", " "),
                ae_total - base,
                0,
                f"{BOOK} Area Effect Table (AE) lines 800-809",
            )
        )
    if weapon.power:
        sp = cat.special_powers[weapon.power]
        # 004 Special Powers (line 828, example line 949): the power is a tweak of the slot.
        items.append(CostItem(f"SP: {sp.name}", sp.cost, abs(sp.cost), f"{BOOK} line {sp.line}"))
    for t in weapon.tweaks:
        wt = cat.weapon_tweaks[t]
        items.append(CostItem(t, wt.cost, abs(wt.cost), f"{BOOK} line {wt.line}"))
    return WeaponCost(
        weapon.name,
        tuple(items),
        sum(i.points for i in items),
        sum(i.tweak_points for i in items),
        av_row.weapon_class or "basic",
        weapon.ranged,
    )


def basic_cost(figure: Figure, cat: Catalogue | None = None) -> int:
    """Type + Mv + Df + Mn + CR: the "basic characteristics" of line 937."""
    cat = cat or catalogue()
    return (
        cat.figure_types[figure.type].points
        + cat.movement.points(figure.mv)
        + cat.defense.points(figure.df)
        + cat.mental.points(figure.mn)
        + cat.control_radius.points(figure.cr)
    )


def _single_form(figure: Figure, hero_points: int, cat: Catalogue) -> FigureCost:
    ft = cat.figure_types[figure.type]
    items = [
        CostItem(f"Type {figure.type} ({ft.name})", ft.points, 0, f"{BOOK} Figure Type Table"),
        CostItem(f"Mv {figure.mv}", cat.movement.points(figure.mv), 0, f"{BOOK} Movement Table"),
        CostItem(f"Df {figure.df}", cat.defense.points(figure.df), 0, f"{BOOK} Defense Table"),
        CostItem(f"Mn {figure.mn}", cat.mental.points(figure.mn), 0, f"{BOOK} Mental Table"),
        CostItem(
            f"CR {figure.cr}", cat.control_radius.points(figure.cr), 0, f"{BOOK} Control Radius"
        ),
    ]
    basic = sum(i.points for i in items)
    personal_tp = 0
    for t in figure.tweaks:
        pt = cat.personal_tweaks[t]
        # 004 Personal Tweaks: Summoned "does not count toward the maximum number of tweaks
        # points allowed by troop type" (line 1433).
        tp = abs(pt.cost) if pt.counts else 0
        personal_tp += tp
        items.append(CostItem(t, pt.cost, tp, f"{BOOK} line {pt.line}"))
    weapons = tuple(weapon_cost(w, cat) for w in figure.weapons)
    for w in weapons:
        items.append(CostItem(f"weapon: {w.name}", w.points, w.tweak_points, "Arming Them"))
    if hero_points:
        # 004 Troop Builder: Hero Points "cost four points apiece" (line 743).
        items.append(
            CostItem(
                f"Hero Points {hero_points} x {cat.hero_point_cost}",
                hero_points * cat.hero_point_cost,
                0,
                f"{BOOK} line 743",
            )
        )
    weapon_tp = sum(w.tweak_points for w in weapons)
    return FigureCost(
        name=figure.name,
        type=figure.type,
        items=tuple(items),
        basic=basic,
        weapons=weapons,
        points=sum(i.points for i in items),
        tweak_points=personal_tp + weapon_tp,
        personal_tweak_points=personal_tp,
        weapon_tweak_points=weapon_tp,
    )


def figure_cost(figure: Figure, cat: Catalogue | None = None) -> FigureCost:
    """Itemised cost of a figure; a Shapechanger costs its dearest form (line 1615)."""
    cat = cat or catalogue()
    first = _single_form(figure, figure.hero_points, cat)
    if not figure.forms:
        return first
    forms = (first, *(_single_form(f, figure.hero_points, cat) for f in figure.forms))
    dearest = max(forms, key=lambda c: c.points)
    return FigureCost(
        name=figure.name,
        type=figure.type,
        items=(
            CostItem(
                f"Shapechanger: dearest form {dearest.name}",
                dearest.points,
                dearest.tweak_points,
                f"{BOOK} line 1615",
            ),
        ),
        basic=first.basic,
        weapons=first.weapons,
        points=dearest.points,
        tweak_points=max(f.tweak_points for f in forms),
        personal_tweak_points=first.personal_tweak_points,
        weapon_tweak_points=first.weapon_tweak_points,
        forms=forms,
    )


def unit_cost(unit: Unit, figures: dict[str, Figure], cat: Catalogue | None = None) -> UnitCost:
    """Unit cost: figures plus unit tweaks once per unit, never below the basic cost.

    004 Force Builder: Unit Tweaks (lines 994-995); "basic cost" is read as the figures' basic
    characteristics (Type, Mv, Df, Mn, CR; line 937) - see docs/rulings.md.
    """
    cat = cat or catalogue()
    rows = []
    floor = 0
    for m in unit.members:
        fig = figures[m.figure]
        rows.append((m.figure, m.count, figure_cost(fig, cat).points))
        floor += m.count * basic_cost(fig, cat)
    figures_points = sum(n * each for _, n, each in rows)
    tweaks = tuple(
        CostItem(t, cat.unit_tweaks[t].cost, 0, f"{BOOK} line {cat.unit_tweaks[t].line}")
        for t in dict.fromkeys(unit.tweaks)  # once per unit (line 1859)
    )
    raw = figures_points + sum(t.points for t in tweaks)
    return UnitCost(unit.name, tuple(rows), figures_points, tweaks, floor, max(raw, floor))


def is_character(figure: Figure) -> bool:
    """Bought with Points of Renown: characters and Vehicular Commanders (line 1681)."""
    return figure.type == "C" or "Vehicular Commander" in figure.tweaks


def is_vehicle_or_monster(figure: Figure) -> bool:
    """Types L, M and H (counted against the half of the Points of Force, line 979)."""
    return figure.type in ("L", "M", "H")


def force_cost(force: Force, cat: Catalogue | None = None) -> ForceCost:
    """Spending of a force (004 Force Builder V2.1, lines 971-990).

    Characters spend Points of Renown; unused renown becomes Points of Force; up to half the
    Points of Force may go on monsters and vehicles; a Hero Point per full 150 points.
    """
    cat = cat or catalogue()
    units = tuple(unit_cost(u, force.figures, cat) for u in force.units)
    renown_spent = force_spent = vm_spent = te_spent = 0
    hero = 0
    for unit, uc in zip(force.units, units, strict=True):
        figs = [force.figures[m.figure] for m in unit.members]
        hero += sum(force.figures[m.figure].hero_points * m.count for m in unit.members)
        if any(is_character(f) for f in figs):
            renown_spent += uc.points
        else:
            force_spent += uc.points
            if all(is_vehicle_or_monster(f) for f in figs):
                vm_spent += uc.points
            else:
                te_spent += uc.points
        if any(is_character(f) and is_vehicle_or_monster(f) for f in figs):
            vm_spent += uc.points  # Vehicular Commander: counts toward the cap (line 1681)
    unused = max(0, force.renown - renown_spent)
    available = force.force + unused
    return ForceCost(
        name=force.name,
        units=units,
        renown=force.renown,
        force=force.force,
        renown_spent=renown_spent,
        renown_unused=unused,
        force_available=available,
        force_spent=force_spent,
        vehicles_monsters_spent=vm_spent,
        vehicles_monsters_cap=available // 2,
        troopers_elites_spent=te_spent,
        hero_points=hero,
        hero_point_budget=(force.renown + force.force) // cat.hero_points_per_force_points,
        points=renown_spent + force_spent,
    )


def force_budget(renown: int, force: int, renown_spent: int) -> dict[str, int]:
    """The Force Builder example's arithmetic (lines 990): pools after buying characters."""
    unused = max(0, renown - renown_spent)
    available = force + unused
    return {
        "renown_unused": unused,
        "force_available": available,
        "vehicles_monsters_cap": available // 2,
        "hero_point_budget": (renown + force) // catalogue().hero_points_per_force_points,
    }
