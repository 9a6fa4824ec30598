"""Every limit of the Troop Builder V2.1 and Force Builder V2.1, reported all at once.

:func:`check_figure` and :func:`check_force` never stop at the first problem: they return a
list of :class:`Violation` objects, each with a plain explanation, the fix it implies and the
book reference (004_f4ea5693af0644ce.txt). :func:`require_legal` raises the first one as a
typed :class:`~warbench.kernel.errors.ProfileError` for callers that want an exception.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

from warbench.kernel.errors import ProfileError
from warbench.rulesets.warengine.costs import (
    figure_cost,
    force_cost,
    is_character,
    weapon_cost,
)
from warbench.rulesets.warengine.models import Figure, Force, Weapon
from warbench.rulesets.warengine.tables import BOOK, VEHICLE_MONSTER_TYPES, Catalogue, catalogue


@dataclass(frozen=True)
class Violation:
    """One broken limit: where, which field and value, what is allowed, why, and the fix."""

    where: str
    field: str
    value: object
    allowed: str
    explanation: str
    fix: str
    rule: str

    def __str__(self) -> str:
        return f"{self.where}: {self.explanation} Fix: {self.fix} [{self.rule}]"

    def to_error(self, source: str | None = None) -> ProfileError:
        """The violation as a kernel :class:`ProfileError` naming file, field and value."""
        return ProfileError(
            f"{self.where}.{self.field}" if self.field else self.where,
            self.value,
            self.allowed,
            source=source,
            reason=self.explanation,
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON output."""
        out = asdict(self)
        out["value"] = self.value if isinstance(self.value, int | str | None) else str(self.value)
        return out


def _ref(lines: str, what: str) -> str:
    return f"{BOOK} {what} (lines {lines})"


class _Checker:
    def __init__(self, cat: Catalogue) -> None:
        self.cat = cat
        self.out: list[Violation] = []

    def add(
        self, where: str, field: str, value: object, allowed: str, why: str, fix: str, rule: str
    ) -> None:
        self.out.append(Violation(where, field, value, allowed, why, fix, rule))

    # -- figures -----------------------------------------------------------------------------
    def figure(self, fig: Figure, where: str, *, nested: bool = False) -> None:
        cat = self.cat
        forms = fig.all_forms()
        for i, form in enumerate(forms):
            w = where if i == 0 else f"{where}.forms[{i - 1}]"
            self.form(form, w)
            if i > 0 and form.forms:
                self.add(
                    w,
                    "forms",
                    len(form.forms),
                    "none",
                    "a form cannot have forms itself.",
                    "list every form on the first form",
                    _ref("1615", "Shapechanger"),
                )
            if i > 0 and form.hero_points:
                self.add(
                    w,
                    "hero_points",
                    form.hero_points,
                    "0 (declare them on the first form)",
                    "Hero Points belong to the combined Shapechanger figure.",
                    "move the Hero Points to the first form",
                    _ref("1615", "Shapechanger"),
                )
        # 004 Troop Builder: Hero Points per type; Shapechanger: "may not have more Hero Points
        # than is allowed by each troop type" (line 1615).
        hp_max = min(cat.figure_types[f.type].max_hero_points for f in forms)
        if fig.hero_points > hp_max:
            types = "/".join(dict.fromkeys(f.type for f in forms))
            self.add(
                where,
                "hero_points",
                fig.hero_points,
                f"0 to {hp_max} for type {types}",
                f"type {types} may have at most {hp_max} Hero Points.",
                f"reduce Hero Points to {hp_max}",
                _ref("651-660", "Figure Type Table: Max Hero Points"),
            )
        has_shape = "Shapechanger" in fig.tweaks
        if fig.forms and not has_shape and not nested:
            self.add(
                where,
                "forms",
                len(fig.forms),
                "forms only with the Shapechanger edge",
                "only a Shapechanger has more than one form.",
                "add the Shapechanger edge or remove the forms",
                _ref("1613-1615", "Shapechanger"),
            )
        if has_shape and not fig.forms:
            self.add(
                where,
                "tweaks",
                "Shapechanger",
                "Shapechanger with at least one other form",
                "a Shapechanger is built as two or more figures.",
                "add the other form under 'forms' or drop Shapechanger",
                _ref("1613-1615", "Shapechanger"),
            )

    def form(self, fig: Figure, where: str) -> None:
        cat = self.cat
        ft = cat.figure_types[fig.type]
        # 004 Troop Builder: Movement, Defense, Mental, Control Radius tables: per-type maxima.
        for field, label, table, value in (
            ("mv", "Mv", cat.movement, fig.mv),
            ("df", "Df", cat.defense, fig.df),
            ("mn", "Mn", cat.mental, fig.mn),
            ("cr", "CR", cat.control_radius, fig.cr),
        ):
            if table.over_max(value, fig.type):
                top = table.max_for(fig.type)
                self.add(
                    where,
                    field,
                    value,
                    table.allowed_for(fig.type),
                    f"{label} {value} is over the maximum {top} for type {fig.type} ({ft.name}).",
                    f"lower {label} to {top} or less",
                    _ref(table.lines, table.name),
                )
        cost = figure_cost(fig.model_copy(update={"forms": []}), cat)
        # 004 Troop Builder: Max Tweak Points per type; weapon tweaks count (lines 733, 822).
        if cost.tweak_points > ft.max_tweak_points:
            self.add(
                where,
                "tweaks",
                cost.tweak_points,
                f"at most {ft.max_tweak_points}",
                f"{cost.tweak_points} tweak points used ({cost.personal_tweak_points} "
                f"personal + {cost.weapon_tweak_points} weapon), over the {ft.max_tweak_points} "
                f"of type {fig.type}.",
                f"drop tweaks worth {cost.tweak_points - ft.max_tweak_points} tweak points",
                _ref("651-660, 731-735", "Figure Type Table: Max Tweak Points"),
            )
        self.personal_tweaks(fig, where)
        self.weapons(fig, where)

    def personal_tweaks(self, fig: Figure, where: str) -> None:
        cat = self.cat
        for name, n in Counter(fig.tweaks).items():
            if n > 1:
                self.add(
                    where,
                    "tweaks",
                    name,
                    "each tweak once per figure",
                    f"{name} is taken {n} times.",
                    f"take {name} once",
                    _ref("1359", "Personal Tweaks overview"),
                )
        ranged = any(w.ranged and not w.power for w in fig.weapons)
        conditions = {
            "control_radius": fig.cr != '0"',
            "hero_points": fig.hero_points > 0,
            "ranged_weapon": ranged,
            "auto_mental": fig.mn == "A",
            "vehicle": "Vehicle" in fig.tweaks,
            "movement": fig.mv != '0"',
        }
        words = {
            "control_radius": "a Control Radius",
            "hero_points": "Hero Points",
            "ranged_weapon": "a ranged weapon",
            "auto_mental": "Automatic Mental",
            "vehicle": "the Vehicle tweak",
            "movement": "a Movement value",
        }
        for name in dict.fromkeys(fig.tweaks):
            pt = cat.personal_tweaks[name]
            ref = f"{BOOK} Personal Tweaks: {name} (line {pt.line})"
            if pt.types is not None and fig.type not in pt.types:
                allowed = ", ".join(t for t in cat.figure_types if t in pt.types)
                self.add(
                    where,
                    "tweaks",
                    name,
                    f"types {allowed}",
                    f"{name} is for types {allowed} only, not {fig.type}.",
                    f"remove {name}",
                    ref,
                )
            for cond in pt.requires:
                if not conditions[cond]:
                    self.add(
                        where,
                        "tweaks",
                        name,
                        f"figures with {words[cond]}",
                        f"{name} needs {words[cond]}.",
                        f"give the figure {words[cond]} or remove {name}",
                        ref,
                    )
            for cond in pt.forbids:
                if conditions[cond]:
                    self.add(
                        where,
                        "tweaks",
                        name,
                        f"figures without {words[cond]}",
                        f"{name} may not be combined with {words[cond]}.",
                        f"remove {words[cond]} or remove {name}",
                        ref,
                    )
        # 004 Personal Tweaks: Monster / Vehicle: "Every figure of types L, M and H must take
        # this tweak or Vehicle" (lines 1597, 1675); both at once makes no sense (rulings).
        if fig.type in VEHICLE_MONSTER_TYPES:
            kinds = [t for t in ("Monster", "Vehicle") if t in fig.tweaks]
            if len(kinds) != 1:
                self.add(
                    where,
                    "tweaks",
                    ", ".join(kinds) or "(none)",
                    "exactly one of Monster, Vehicle",
                    f"type {fig.type} must be either a Monster or a Vehicle.",
                    "take exactly one of the Monster and Vehicle tweaks",
                    _ref("1595-1597, 1673-1675", "Monster / Vehicle"),
                )

    def weapons(self, fig: Figure, where: str) -> None:
        cat = self.cat
        ft = cat.figure_types[fig.type]
        # 004 Troop Builder: Weapon Slot Allowance (lines 751-762); Weapon Master +1 (line 1669).
        slots = ft.slots + (1 if "Weapon Master" in fig.tweaks else 0)
        if len(fig.weapons) > slots:
            self.add(
                where,
                "weapons",
                len(fig.weapons),
                f"at most {slots} weapon slots",
                f"{len(fig.weapons)} weapons for {slots} slots of type {fig.type}.",
                f"remove {len(fig.weapons) - slots} weapon(s)",
                _ref("749-762", "Weapon Slot Allowance"),
            )
        ranged = [w for w in fig.weapons if w.ranged]
        if ranged and len(ranged) > slots - 1:
            # 004 Troop Builder: "The first weapon slot may only be used for close combat
            # weapons" (line 749).
            self.add(
                where,
                "weapons",
                len(ranged),
                f"at most {slots - 1} ranged weapons",
                "the first weapon slot may only hold a close combat weapon, so only "
                f"{slots - 1} slots can hold ranged weapons.",
                "drop a ranged weapon (or make it a close combat weapon)",
                _ref("749", "Weapon Slots"),
            )
        classes = Counter(weapon_cost(w, cat).weapon_class for w in fig.weapons)
        heavy, support = classes["heavy"], classes["support"]
        if support > ft.support:
            self.add(
                where,
                "weapons",
                f"{support} support",
                f"at most {ft.support} support",
                f"type {fig.type} may carry {ft.support} support weapon(s) (AV 5k5 or 6k5).",
                "lower the Attack Value of a support weapon to 5k4 or less",
                _ref("751-762, 783-794", "Weapon Slot Allowance / AV Table"),
            )
        if heavy + support > ft.heavy_or_support:
            self.add(
                where,
                "weapons",
                f"{heavy} heavy, {support} support",
                f"at most {ft.heavy_or_support} heavy or support",
                f"type {fig.type} may carry {ft.heavy_or_support} heavy or support weapon(s), "
                "the rest basic (AV 4k3 or less).",
                "lower the Attack Value of a weapon to 4k3 or less",
                _ref("751-762, 783-794", "Weapon Slot Allowance / AV Table"),
            )
        for i, w in enumerate(fig.weapons):
            self.weapon(w, f"{where}.weapons[{i}]", fig)

    def weapon(self, w: Weapon, where: str, fig: Figure, *, profile: bool = False) -> None:
        cat = self.cat
        multi = "Multiprofile" in w.tweaks
        mref = _ref("1807-1813", "Multiprofile")
        if w.profiles:
            if not multi:
                self.add(
                    where,
                    "profiles",
                    len(w.profiles),
                    "profiles only with Multiprofile",
                    "only a Multiprofile weapon has profiles.",
                    "add the Multiprofile tweak",
                    mref,
                )
            if len(w.profiles) < 2:
                self.add(
                    where,
                    "profiles",
                    len(w.profiles),
                    "two or more profiles",
                    "a Multiprofile weapon has more than one profile.",
                    "add a profile",
                    mref,
                )
            if profile:
                self.add(
                    where,
                    "profiles",
                    len(w.profiles),
                    "no nested profiles",
                    "a profile cannot have profiles itself.",
                    "flatten the profiles",
                    mref,
                )
            extra = [t for t in w.tweaks if t != "Multiprofile"]
            if extra or w.av or w.power or w.ae or w.range != "-":
                self.add(
                    where,
                    "tweaks",
                    ", ".join(extra) or w.av or w.power,
                    "Multiprofile only",
                    "a Multiprofile weapon's characteristics and tweaks go in its profiles.",
                    "move them into a profile",
                    mref,
                )
            for i, p in enumerate(w.profiles):
                self.weapon(p, f"{where}.profiles[{i}]", fig, profile=True)
            self.tweak_list(w, where, fig)
            return
        if multi:
            self.add(
                where,
                "tweaks",
                "Multiprofile",
                "Multiprofile with two or more profiles",
                "Multiprofile needs the weapon's profiles.",
                "list the profiles under 'profiles'",
                mref,
            )
        if w.av is None:
            self.add(
                where,
                "av",
                None,
                cat.attack_value.allowed(),
                "every weapon and Special Power needs an Attack Value.",
                "choose an AV",
                _ref("781-794", "Attack Value Table"),
            )
        if (w.ae is None) != (w.aet is None):
            self.add(
                where,
                "aet" if w.ae else "ae",
                w.aet or w.ae,
                "AE and AET together",
                "an Area Effect weapon needs both its multiplier and its type.",
                "give both AE and AET, or neither",
                _ref("798-818", "Area Effect"),
            )
        if w.aet:
            aet = cat.area_effect_types[w.aet]
            if w.ranged and not aet.ranged:
                self.add(
                    where,
                    "aet",
                    w.aet,
                    "Ex, Bu, Li for ranged weapons",
                    f"{aet.name} is for close combat weapons only.",
                    "use Ex, Bu or Li, or remove the Range",
                    _ref("813-818, 511", "AET"),
                )
            if not w.ranged and not aet.close_combat:
                self.add(
                    where,
                    "aet",
                    w.aet,
                    "CC, Ex for close combat weapons",
                    f"{aet.name} is for ranged weapons only.",
                    "use CC or Ex, or give the weapon a Range",
                    _ref("813-818", "AET"),
                )
        if w.power:
            sp = cat.special_powers[w.power]
            sref = f"{BOOK} Special Powers: {sp.name} (line {sp.line}); Special Powers (line 842)"
            if w.ae:
                self.add(
                    where,
                    "ae",
                    w.ae,
                    "no Area Effect on Special Powers",
                    "Special Powers may not be Area Effect weapons.",
                    "remove AE and AET",
                    _ref("843", "Special Powers"),
                )
            if w.tweaks:
                self.add(
                    where,
                    "tweaks",
                    ", ".join(w.tweaks),
                    "no weapon tweaks (Multiprofile aside)",
                    "a slot used for a Special Power may not take other weapon tweaks.",
                    "remove the weapon tweaks or put the power in a Multiprofile weapon",
                    sref,
                )
            if sp.close_combat_only and w.ranged:
                self.add(
                    where,
                    "range",
                    w.range,
                    "-",
                    f"{sp.name} is close combat only.",
                    "remove the Range",
                    sref,
                )
            if sp.no_range and w.ranged:
                self.add(
                    where,
                    "range",
                    w.range,
                    "-",
                    f"{sp.name} may never be taken with a Range.",
                    "remove the Range",
                    sref,
                )
            if sp.monsters_only and "Monster" not in fig.tweaks:
                self.add(
                    where,
                    "power",
                    sp.name,
                    "figures with the Monster tweak",
                    f"{sp.name} is for monsters only.",
                    f"remove {sp.name}",
                    sref,
                )
        self.tweak_list(w, where, fig)

    def tweak_list(self, w: Weapon, where: str, fig: Figure) -> None:
        cat = self.cat
        for name, n in Counter(w.tweaks).items():
            if n > 1:
                self.add(
                    where,
                    "tweaks",
                    name,
                    "each tweak once per weapon",
                    f"{name} is taken {n} times on one weapon.",
                    f"take {name} once",
                    _ref("1689", "Weapon Tweaks overview"),
                )
        for name in dict.fromkeys(w.tweaks):
            wt = cat.weapon_tweaks[name]
            ref = f"{BOOK} Weapon Tweaks: {name} (line {wt.line})"
            if w.profiles:
                continue  # characteristics are in the profiles
            if wt.close_combat_only and w.ranged:
                self.add(
                    where,
                    "tweaks",
                    name,
                    "close combat weapons only",
                    f"{name} is for close combat weapons only.",
                    f"remove {name} or the Range",
                    ref,
                )
            if wt.ranged_only and not w.ranged:
                self.add(
                    where,
                    "tweaks",
                    name,
                    "ranged weapons only",
                    f"{name} is for ranged weapons only.",
                    f"remove {name}",
                    ref,
                )
            if wt.no_area_effect and w.ae:
                self.add(
                    where,
                    "tweaks",
                    name,
                    "weapons without Area Effect",
                    f"{name} may not be taken by Area Effect weapons.",
                    f"remove {name} or the Area Effect",
                    ref,
                )
            if wt.area_effect_types is not None and w.aet not in wt.area_effect_types:
                allowed = ", ".join(sorted(wt.area_effect_types))
                self.add(
                    where,
                    "tweaks",
                    name,
                    f"AET {allowed} weapons only",
                    f"{name} is for {allowed} area effect weapons only.",
                    f"remove {name} or make the weapon AE {allowed}",
                    ref,
                )
            for other in wt.not_with:
                if other in w.tweaks:
                    self.add(
                        where,
                        "tweaks",
                        name,
                        f"not with {other}",
                        f"{name} may not be combined with {other}.",
                        f"remove {name} or {other}",
                        ref,
                    )
            # 004 Weapon Tweaks: One Shot "may not be applied to any weapon that already
            # generates the same effect (such as a close combat weapon carried by a Kamikaze
            # figure)" (line 1723).
            if name == "One Shot" and "Kamikaze" in fig.tweaks and not w.ranged:
                self.add(
                    where,
                    "tweaks",
                    name,
                    "not on a Kamikaze figure's close combat weapon",
                    "a Kamikaze figure's close combat weapon is already used once only.",
                    "remove One Shot",
                    ref,
                )

    # -- forces ------------------------------------------------------------------------------
    def force(self, force: Force) -> None:
        cat = self.cat
        for key, fig in force.figures.items():
            self.figure(fig, f"figures.{key}")
        cost = force_cost(force, cat)
        fb = "Force Builder V2.1"
        if cost.renown_spent > force.renown:
            self.add(
                "force",
                "renown",
                cost.renown_spent,
                f"at most {force.renown}",
                f"characters cost {cost.renown_spent} Points of Renown of {force.renown}.",
                f"remove {cost.renown_spent - force.renown} points of characters",
                _ref("971-973", f"{fb}: Points of Renown"),
            )
        if cost.force_spent > cost.force_available:
            self.add(
                "force",
                "force",
                cost.force_spent,
                f"at most {cost.force_available}",
                f"troopers, elites, monsters and vehicles cost {cost.force_spent} Points of "
                f"Force of {cost.force_available} ({force.force} + {cost.renown_unused} "
                "unused renown).",
                f"remove {cost.force_spent - cost.force_available} points of units",
                _ref("971-979", f"{fb}: Points of Force"),
            )
        if cost.vehicles_monsters_spent > cost.vehicles_monsters_cap:
            self.add(
                "force",
                "force",
                cost.vehicles_monsters_spent,
                f"at most {cost.vehicles_monsters_cap} on monsters and vehicles",
                f"monsters and vehicles cost {cost.vehicles_monsters_spent}, over half the "
                f"Points of Force ({cost.vehicles_monsters_cap}).",
                f"remove {cost.vehicles_monsters_spent - cost.vehicles_monsters_cap} points "
                "of monsters or vehicles",
                _ref("979, 990", f"{fb}: Points of Force"),
            )
        if cost.hero_points > cost.hero_point_budget:
            self.add(
                "force",
                "hero_points",
                cost.hero_points,
                f"at most {cost.hero_point_budget}",
                f"{cost.hero_points} Hero Points in the force; one per full 150 points of "
                f"{force.renown + force.force} allows {cost.hero_point_budget}.",
                f"remove {cost.hero_points - cost.hero_point_budget} Hero Points",
                _ref("660, 987", f"{fb}: Hero Points"),
            )
        counts: Counter[str] = Counter()
        leaders = 0
        summoned = summoners = 0
        for unit in force.units:
            for m in unit.members:
                fig = force.figures[m.figure]
                counts[fig.type] += m.count
                leaders += m.count * fig.tweaks.count("Force Leader")
                summoned += m.count * ("Summoned" in fig.tweaks)
                summoners += m.count * any(
                    w.power == "Summoning" or any(p.power == "Summoning" for p in w.profiles)
                    for f in fig.all_forms()
                    for w in f.weapons
                )
        if counts["E"] and counts["T"] < 3 * counts["E"]:
            self.add(
                "force",
                "units",
                f"{counts['E']} elites, {counts['T']} troopers",
                f"at least {3 * counts['E']} troopers",
                "every elite needs at least three troopers in the force.",
                f"add {3 * counts['E'] - counts['T']} troopers or remove elites",
                _ref("980", f"{fb}: Points of Force"),
            )
        if leaders > 1:
            self.add(
                "force",
                "figures",
                leaders,
                "one Force Leader",
                f"{leaders} figures have Force Leader; one per force only.",
                "keep Force Leader on one character",
                _ref("1535", "Force Leader"),
            )
        if summoned and not summoners:
            self.add(
                "force",
                "figures",
                f"{summoned} Summoned",
                "a figure with Summoning",
                "Summoned figures only come into play through the Summoning power.",
                "add a figure with the Summoning Special Power or drop the Summoned figures",
                _ref("1277-1279, 1431-1433", "Summoning / Summoned"),
            )
        for i in range(len(force.units)):
            self.unit(force, i)

    def unit(self, force: Force, index: int) -> None:
        unit = force.units[index]
        where = f"units[{index}] {unit.name}"
        fb = "Force Builder V2.1"
        for name, n in Counter(unit.tweaks).items():
            if n > 1:
                self.add(
                    where,
                    "tweaks",
                    name,
                    "each unit tweak once per unit",
                    f"{name} is taken {n} times.",
                    f"take {name} once",
                    _ref("1859", "Unit Tweaks overview"),
                )
        by_type: Counter[str] = Counter()
        chars = 0
        heavy_troopers = 0
        for m in unit.members:
            fig = force.figures[m.figure]
            if is_character(fig):
                chars += m.count
            else:
                by_type[fig.type] += m.count
            if fig.type == "T" and any(
                weapon_cost(w, self.cat).weapon_class != "basic" for w in fig.weapons
            ):
                heavy_troopers += m.count
        total = chars + sum(by_type.values())
        if chars:
            if total != 1:
                self.add(
                    where,
                    "members",
                    total,
                    "a character alone",
                    "characters bought with Points of Renown are units of one figure "
                    "(they join troopers during play).",
                    "put each character in its own unit",
                    _ref("315, 323, 623, 973", "Characters / Points of Renown"),
                )
            return
        kinds = set(by_type)
        t, e = by_type["T"], by_type["E"]
        if kinds <= {"T", "E"} and t:
            if t < 3:
                self.add(
                    where,
                    "members",
                    t,
                    "at least 3 troopers",
                    f"a trooper unit has {t} troopers; at least three are needed.",
                    f"add {3 - t} troopers",
                    _ref("981", fb),
                )
            if e > 2:
                self.add(
                    where,
                    "members",
                    e,
                    "up to 2 elites leading troopers",
                    f"{e} elites lead the trooper unit; up to two may.",
                    f"move {e - 2} elites to an elite unit",
                    _ref("983", fb),
                )
            # 004 Troop Builder: Weapon Slot Allowance, Trooper: "one of every three troopers
            # in a unit (rounded down) may carry one heavy weapon" (line 753).
            if heavy_troopers > t // 3:
                self.add(
                    where,
                    "members",
                    heavy_troopers,
                    f"at most {t // 3} troopers with a heavy weapon",
                    f"{heavy_troopers} troopers carry a heavy weapon; one of every three "
                    f"({t // 3} for {t}) may.",
                    "give the extra troopers basic weapons or add troopers",
                    _ref("753", "Weapon Slot Allowance"),
                )
        elif kinds == {"E"}:
            if e < 2:
                self.add(
                    where,
                    "members",
                    e,
                    "at least 2 elites",
                    "elites are grouped in units of at least two figures.",
                    "add an elite or let it lead a trooper unit",
                    _ref("982-983", fb),
                )
        elif len(kinds) == 1:
            kind = next(iter(kinds))
            n = by_type[kind]
            lo, hi = {"L": (1, 3), "M": (1, 2), "H": (1, 1)}[kind]
            if not lo <= n <= hi:
                self.add(
                    where,
                    "members",
                    n,
                    f"{lo} to {hi} type {kind} figures",
                    f"type {kind} units hold {lo} to {hi} figures.",
                    f"split the unit into units of at most {hi}",
                    _ref("984-986", fb),
                )
        else:
            self.add(
                where,
                "members",
                ", ".join(sorted(kinds)),
                "one kind of figure per unit",
                "troopers (with up to two elite leaders), elites, and each size of monster "
                "or vehicle form separate units.",
                "split the unit by figure type",
                _ref("323, 980-986", fb),
            )


def check_figure(figure: Figure, cat: Catalogue | None = None) -> list[Violation]:
    """Every Troop Builder limit the figure breaks (empty when it is legal)."""
    c = _Checker(cat or catalogue())
    c.figure(figure, figure.name)
    return c.out


def check_force(force: Force, cat: Catalogue | None = None) -> list[Violation]:
    """Every Troop Builder and Force Builder limit the force breaks (empty when legal)."""
    c = _Checker(cat or catalogue())
    c.force(force)
    return c.out


def require_legal(obj: Figure | Force, source: str | None = None) -> None:
    """Raise the first violation as a :class:`ProfileError` (file, field, value, allowed)."""
    found = check_force(obj) if isinstance(obj, Force) else check_figure(obj)
    if found:
        raise found[0].to_error(source)
