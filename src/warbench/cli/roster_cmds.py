"""WARSURGE Units, Armoury and Rosters (Core Rules §3.4): ``faction``, ``armoury``, ``roster``.

Every command takes ``--db URL`` (else ``$WARBENCH_DB``, else a SQLite file in the user data
directory). Errors are one line on stderr with exit status 2; ``roster validate`` exits 1 when
the roster breaks a rule, listing every violation.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from warbench.cli.app import app, console, err_console, fail
from warbench.cli.file_kinds import units_in, weapon_in
from warbench.cli.progress import progress_bar, tick
from warbench.cli.ruleset_cmds import roster
from warbench.kernel.errors import UnknownNameError, WarbenchError

# Start-up (issue 18): the rules, the points model and the database are imported inside the
# commands that use them, so that ``warbench --help`` and ``warbench roll`` stay light.
if TYPE_CHECKING:
    from rich.table import Table

    from warbench.rulesets.warsurge import costing
    from warbench.rulesets.warsurge.perks import PerkCatalog
    from warbench.rulesets.warsurge.profiles import Unit, WeaponProfile
    from warbench.rulesets.warsurge.roster import Roster, RosterReport
    from warbench.storage import Store

faction = typer.Typer(name="faction", help="Factions: your unit profiles.", no_args_is_help=True)
armoury = typer.Typer(
    name="armoury", help="The Armoury: your weapon profiles.", no_args_is_help=True
)
app.add_typer(faction, name="faction")
app.add_typer(armoury, name="armoury")

DB = typer.Option(None, "--db", help="Database URL (default: $WARBENCH_DB or the user data dir).")


@contextmanager
def guarded() -> Iterator[None]:
    """Turn any warbench error, a file that cannot be written or read (a missing directory, a
    directory given as a file) and a value a model refuses into one line and exit status 2."""
    from pydantic import ValidationError

    try:
        yield
    except WarbenchError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        where = exc.filename if exc.filename is not None else "file"
        raise fail(f"{where}: cannot write or read it ({exc.strerror or exc})") from None
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or exc.title} = {e.get('input')!r}: {e['msg']}"
            for e in exc.errors()
        )
        raise fail(f"{exc.title}: {problems}") from None


#: The longest faction or roster name (``Roster.name``, Core Rules §3.1).
MAX_NAME = 120


def _new_name(text: str, what: str) -> str:
    """A new faction or roster name, trimmed; a blank or overlong one is refused in one line."""
    name = text.strip()
    if not name or len(name) > MAX_NAME:
        raise fail(f"{what} name {text!r} is not allowed; allowed: 1 to {MAX_NAME} characters")
    return name


def _store(db: str | None) -> Store:
    from warbench.storage import Store

    return Store.open(db)


def _coster() -> costing.RosterCoster:
    from warbench.rulesets.warsurge import costing

    return costing.default_coster()


def _report(r: Roster, as_json: bool = False) -> RosterReport:
    """Cost and validate ``r``. On a terminal each entry is costed first under a progress bar
    (the coster caches it, so validation then reads the cache)."""
    from warbench.rulesets.warsurge.roster import validate_roster

    coster = _coster()
    with progress_bar(f"costing {r.name}", as_json=as_json) as bar:
        for i, e in enumerate(r.units if bar is not None else ()):
            coster.cost_unit(e.unit)
            tick(bar, i + 1, len(r.units))
    return validate_roster(r, coster)


def _stamp(r: Roster) -> Roster:
    """The roster stamped with the points-model and ruleset versions of this warbench."""
    return r.stamped(_coster().version)


def _is_file(arg: str) -> bool:
    from warbench.rulesets.warsurge.io import JSON_SUFFIXES, YAML_SUFFIXES

    p = Path(arg)
    return p.suffix.lower() in YAML_SUFFIXES + JSON_SUFFIXES and p.exists()


def _faction_unit(store: Store, unit: str, faction: str | None) -> Unit:
    """``roster add``'s UNIT when it is not an existing unit file: a faction's unit. A missing
    file, or a name no faction has, says what UNIT may be (session 34: ``nope.yaml`` was
    "unknown unit 'nope.yaml'; there is no unit yet")."""
    from warbench.rulesets.warsurge.io import JSON_SUFFIXES, YAML_SUFFIXES

    if Path(unit).suffix.lower() in YAML_SUFFIXES + JSON_SUFFIXES:
        raise fail(
            f"{unit}: file not found; UNIT is a unit file or the name of a faction's unit "
            "(warbench faction show FACTION lists them)"
        )
    try:
        return store.find_unit(unit, faction)
    except UnknownNameError as exc:
        raise fail(
            f"{exc} (UNIT is a faction's unit, saved with: warbench faction add-unit FACTION "
            "FILE; or a unit file)"
        ) from None


# ---------------------------------------------------------------------------------- factions


@faction.command("new")
def faction_new(name: str = typer.Argument(..., help="Faction name."), db: str | None = DB) -> None:
    """Create an empty faction."""
    name = _new_name(name, "faction")
    with guarded():
        _store(db).create_faction(name)
    console.print(f"faction {name!r} created")


@faction.command("list")
def faction_list(db: str | None = DB) -> None:
    """List the factions and how many units each holds."""
    with guarded():
        for f in _store(db).factions():
            console.print(f"{f.name}  ({len(f.units)} units)", highlight=False)


@faction.command("show")
def faction_show(name: str = typer.Argument(...), db: str | None = DB) -> None:
    """Show a faction's unit profiles."""
    with guarded():
        units = _store(db).faction_units(name)
    console.print(_units_table(units, title=f"Faction {name}"))


@faction.command("add-unit")
def faction_add_unit(
    name: str = typer.Argument(..., help="Faction name."),
    files: list[Path] = typer.Argument(..., help="Unit files (YAML or JSON, docs/formats.md)."),
    replace: bool = typer.Option(False, "--replace", help="Overwrite units of the same name."),
    db: str | None = DB,
) -> None:
    """Add the units of one or more unit files to a faction (all or none)."""
    with guarded():
        units = [u for f in files for u in units_in(f, "faction add-unit")]
        _store(db).add_units(name, units, replace=replace)
    console.print(f"added {', '.join(u.name for u in units)} to {name}", highlight=False)


@faction.command("remove-unit")
def faction_remove_unit(
    name: str = typer.Argument(...), unit: str = typer.Argument(...), db: str | None = DB
) -> None:
    """Remove a unit profile from a faction."""
    with guarded():
        _store(db).remove_unit(name, unit)
    console.print(f"removed {unit} from {name}", highlight=False)


def _units_table(units: list[Unit], title: str) -> Table:
    from rich.table import Table

    from warbench.rulesets.warsurge.profiles import format_save

    t = Table(title=title, show_edge=False)
    for col in ("Unit", "Mv", "Da", "Def", "HP", "Arm", "AEG", "Trn", "Models", "Weapons", "Perks"):
        t.add_column(col)
    for u in units:
        p = u.profile
        t.add_row(
            p.name,
            str(p.move),
            str(p.dash),
            str(p.defence),
            str(p.hp),
            format_save(p.armour),
            format_save(p.aegis),
            str(p.transport),
            str(u.model_count),
            ", ".join(w.name for w in u.weapons),
            ", ".join(p.perks),
        )
    return t


# ---------------------------------------------------------------------------------- armoury


@armoury.command("add")
def armoury_add(
    files: list[Path] = typer.Argument(..., help="Weapon files (weapon: {...})."),
    replace: bool = typer.Option(False, "--replace", help="Overwrite weapons of the same name."),
    db: str | None = DB,
) -> None:
    """Add weapon profiles to the Armoury (all or none)."""
    with guarded():
        weapons = [weapon_in(f, "armoury add") for f in files]
        _store(db).add_weapons(weapons, replace=replace)
    console.print(f"added {', '.join(w.name for w in weapons)} to the Armoury", highlight=False)


@armoury.command("list")
def armoury_list(db: str | None = DB) -> None:
    """List the Armoury's weapon profiles."""
    with guarded():
        weapons = _store(db).weapons()
    console.print(_weapons_table(weapons, "Armoury"))


@armoury.command("show")
def armoury_show(name: str = typer.Argument(...), db: str | None = DB) -> None:
    """Show one weapon profile as JSON."""
    with guarded():
        w = _store(db).weapon(name)
    console.print_json(json.dumps(w.model_dump(mode="json")))


@armoury.command("remove")
def armoury_remove(name: str = typer.Argument(...), db: str | None = DB) -> None:
    """Remove a weapon profile from the Armoury."""
    with guarded():
        _store(db).remove_weapon(name)
    console.print(f"removed {name} from the Armoury", highlight=False)


def _weapons_table(weapons: list[WeaponProfile], title: str) -> Table:
    from rich.table import Table

    from warbench.rulesets.warsurge.profiles import format_save

    t = Table(title=title, show_edge=False)
    for col in ("Weapon", "Rng", "Type", "Att", "Pwr", "AP", "Perks"):
        t.add_column(col)
    for w in weapons:
        t.add_row(
            w.name,
            str(w.range),
            w.type.value,
            str(w.attacks),
            str(w.power),
            format_save(w.ap),
            ", ".join(w.perks),
        )
    return t


# ---------------------------------------------------------------------------------- rosters


@roster.command("new")
def roster_new(
    name: str = typer.Argument(..., help="Roster name."),
    limit: int = typer.Option(
        ..., "--limit", "-l", min=1, max=1_000_000, help="Point Limit (Core Rules §3.1)."
    ),
    notes: str = typer.Option("", "--notes"),
    db: str | None = DB,
) -> None:
    """Create an empty roster with a Point Limit."""
    from warbench.rulesets.warsurge.roster import Roster

    with guarded():
        r = _stamp(Roster(name=name, point_limit=limit, notes=notes))
        _store(db).save_roster(r, replace=False)
    console.print(f"roster {name!r} created (Point Limit {limit} pts)", highlight=False)


def _parse_group(text: str) -> tuple[int, list[str]]:
    m = re.fullmatch(r"\s*(\d+)\s*(?::\s*(.*))?", text)
    if m is None:
        raise fail(f"--group {text!r}: write COUNT:WEAPON,WEAPON (e.g. 3:Gladius,Shield)")
    return int(m[1]), [w.strip() for w in (m[2] or "").split(",") if w.strip()]


def _designations(values: list[str]) -> dict[str, str]:
    out = {}
    for v in values:
        perk, sep, target = v.partition("=")
        if not sep or not perk.strip() or not target.strip():
            raise fail(f"--designate {v!r}: write PERK=ENTRY (e.g. Controlled=Warlock)")
        out[perk.strip()] = target.strip()
    return out


def build_unit(
    base: Unit, groups: list[tuple[int, list[str]]], armoury: list[WeaponProfile]
) -> Unit:
    """``base`` with the given model groups; weapons come from the unit, else the Armoury.

    The snapshot keeps only the weapon profiles some model carries, in first-use order.
    """
    from warbench.rulesets.warsurge.profiles import ModelGroup, Unit

    if not groups:
        return base
    own = {w.name.lower(): w for w in base.weapons}
    store = {w.name.lower(): w for w in armoury}
    used: dict[str, WeaponProfile] = {}
    models = []
    for count, names in groups:
        carried = []
        for n in names:
            w = own.get(n.lower()) or store.get(n.lower())
            if w is None:
                known = list(dict.fromkeys([w.name for w in base.weapons + armoury]))
                raise UnknownNameError(
                    "weapon", n, known, where=f"{base.name} (unit weapons and Armoury)"
                )
            used.setdefault(w.name, w)
            carried.append(w.name)
        models.append(ModelGroup(count=count, weapons=carried))
    return Unit(profile=base.profile, weapons=list(used.values()), models=models)


def _catalog() -> PerkCatalog:
    from warbench.rulesets.warsurge.perks import PerkCatalog

    return PerkCatalog.load()


def _traits(names: list[str], where: str) -> list[str]:
    """Trait names as the book prints them; unknown or misplaced names fail with suggestions."""
    return [_catalog().get_of_kind(t, "Trait", where).name for t in names]


def _entry_ref(r: Roster, name: str | None, field: str) -> str | None:
    """The name of an existing entry (``--embark-in``, a designation …), with suggestions."""
    if name is None:
        return None
    found = r.find(name)
    if found is None:
        raise UnknownNameError("roster entry", name, [e.name for e in r.units], where=field)
    if field == "--embark-in" and not found.unit.profile.transport:
        transports = [e.name for e in r.units if e.unit.profile.transport] or ["none yet"]
        raise fail(
            f"--embark-in {name!r}: {found.name} is not a Transport (its Transport is 0; Core "
            f"Rules §6, lines 3287-3291); allowed: {', '.join(transports)}"
        )
    return found.name


def _checked_designations(r: Roster, values: list[str]) -> dict[str, str]:
    out = {}
    for perk, target in _designations(values).items():
        p = _catalog().find(perk)
        if p is None:
            raise UnknownNameError("perk", perk, _catalog().names, where="--designate")
        out[p.name] = _entry_ref(r, target, f"--designate {p.name}") or target
    return out


def _groups(
    base: Unit, models: int | None, weapons: str | None, group: list[str]
) -> list[tuple[int, list[str]]]:
    """Model groups from ``--models``/``--weapons`` or ``--group`` (none: keep ``base``'s)."""
    groups = [_parse_group(g) for g in group]
    if models is None and weapons is None:
        return groups
    if group:
        raise fail("give either --models/--weapons or --group, not both")
    if weapons is None and len(base.models) > 1:
        raise fail(
            f"{base.name} has {len(base.models)} model groups; give --weapons for all models "
            "or --group COUNT:W1,W2 for each group"
        )
    names = (
        [w.strip() for w in weapons.split(",") if w.strip()]
        if weapons is not None
        else list(base.models[0].weapons)
    )
    return [(models or base.model_count, names)]


def _refuse_what_validate_would(old: Roster, new: Roster) -> None:
    """Refuse an edit that gives an entry something ``roster validate`` would reject at once:
    a model worth under 1 pt (a group without weapons, Core Rules L1431), a perk that needs
    weapons no model carries, a Presence Roster Perk designated to a unit without Presence
    (Perks L1372-1380). One line: the violation with its fix and its rule and lines.

    Only violations the edit brings in count, and only those about what was given: a roster
    that is still being built (over its limit, a Controlled unit whose controller comes next)
    is not refused; ``validate`` reports those."""
    from warbench.rulesets.warsurge.roster import ViolationCode, validate_roster

    refused = {
        ViolationCode.MODEL_UNDER_1,
        ViolationCode.NEEDS_WEAPONS,
        ViolationCode.WEAPON_REQUIREMENT,
        ViolationCode.NEEDS_PRESENCE,
    }

    def key(v: object) -> tuple[object, ...]:
        return (v.code, v.entry, v.field, repr(v.value))  # type: ignore[attr-defined]

    coster = _coster()
    before = {key(v) for v in validate_roster(old, coster).violations}
    for v in validate_roster(new, coster).violations:
        if v.code in refused and key(v) not in before:
            if v.code is ViolationCode.NEEDS_PRESENCE and v.value is None:
                continue  # no Presence unit designated yet: validate says so
            raise fail(f"refused, {v}")


def _weapon_sources(store: Store, unit: Unit) -> list[WeaponProfile]:
    """Weapons an entry may take: its faction unit's profiles (if stored), then the Armoury."""
    own: list[WeaponProfile] = []
    # A unit from a file or a roster import is in no faction: its own weapons and the Armoury.
    with suppress(WarbenchError):
        own = store.find_unit(unit.name).weapons
    return own + store.weapons()


@roster.command("add")
def roster_add(
    name: str = typer.Argument(..., help="Roster name."),
    unit: str = typer.Argument(..., help="A faction's unit, or a unit file."),
    faction_name: str | None = typer.Option(None, "--faction", "-f", help="Faction of UNIT."),
    entry: str | None = typer.Option(None, "--name", help="Entry name (default: unit name)."),
    models: int | None = typer.Option(None, "--models", "-m", help="Number of models.", min=1),
    weapons: str | None = typer.Option(None, "--weapons", "-w", help="Weapons each model carries."),
    group: list[str] = typer.Option([], "--group", "-g", help="COUNT:W1,W2 (repeat to mix)."),
    trait: list[str] = typer.Option([], "--trait", "-t", help="A Trait (Perks §12.6)."),
    embark_in: str | None = typer.Option(None, "--embark-in", help="Transport entry."),
    link: str | None = typer.Option(None, "--link", help="Linked Profile set name."),
    designate: list[str] = typer.Option([], "--designate", help="PERK=ENTRY (Controlled …)."),
    db: str | None = DB,
) -> None:
    """Add a unit to a roster with its models, weapons, traits and transport."""
    from warbench.rulesets.warsurge.io import load_units
    from warbench.rulesets.warsurge.roster import RosterEntry

    with guarded():
        store = _store(db)
        loaded = store.versioned_roster(name)  # saved only over this version
        r = loaded.value
        base = load_units(unit)[0] if _is_file(unit) else _faction_unit(store, unit, faction_name)
        groups = _groups(base, models, weapons, group)
        armoury_weapons = store.weapons() if groups else []
        built = build_unit(base, groups, armoury_weapons)
        e = RosterEntry(
            name=entry or built.name,
            unit=built,
            traits=_traits(trait, "--trait"),
            embarked_in=_entry_ref(r, embark_in, "--embark-in"),
            link=link,
            designations=_checked_designations(r, designate),
        )
        if r.find(e.name) is not None:
            raise fail(f"roster {r.name!r} already has an entry {e.name!r}; choose --name")
        added = _stamp(r.with_entry(e))
        _refuse_what_validate_would(r, added)
        store.save_roster(added, expected_version=loaded.version)
    n = built.model_count
    console.print(f"added {e.name} ({n} model{'s' * (n != 1)}) to {r.name}", highlight=False)


@roster.command("edit")
def roster_edit(
    name: str = typer.Argument(..., help="Roster name."),
    entry: str = typer.Argument(..., help="The entry to change."),
    rename: str | None = typer.Option(None, "--name", help="New entry name (references follow)."),
    models: int | None = typer.Option(None, "--models", "-m", help="Number of models.", min=1),
    weapons: str | None = typer.Option(None, "--weapons", "-w", help="Weapons each model carries."),
    group: list[str] = typer.Option([], "--group", "-g", help="COUNT:W1,W2 (repeat to mix)."),
    trait: list[str] = typer.Option([], "--trait", "-t", help="Add a Trait (Perks §12.6)."),
    no_trait: list[str] = typer.Option([], "--no-trait", help="Remove a Trait."),
    embark_in: str | None = typer.Option(None, "--embark-in", help="Transport entry."),
    disembark: bool = typer.Option(False, "--disembark", help="Deploy outside any Transport."),
    link: str | None = typer.Option(None, "--link", help="Linked Profile set name."),
    unlink: bool = typer.Option(False, "--unlink", help="Leave the Linked Profile set."),
    designate: list[str] = typer.Option([], "--designate", help="PERK=ENTRY (Controlled …)."),
    undesignate: list[str] = typer.Option([], "--undesignate", help="PERK: drop a designation."),
    db: str | None = DB,
) -> None:
    """Change an entry: model count, weapons, Traits, Transport, link, designations, name."""
    from warbench.rulesets.warsurge.roster import RosterEntry

    if embark_in is not None and disembark:
        raise fail("give --embark-in or --disembark, not both")
    if link is not None and unlink:
        raise fail("give --link or --unlink, not both")
    with guarded():
        store = _store(db)
        loaded = store.versioned_roster(name)  # saved only over this version
        r = loaded.value
        old = r.entry(entry)
        update: dict[str, object] = {}
        groups = _groups(old.unit, models, weapons, group)
        if groups:
            update["unit"] = build_unit(old.unit, groups, _weapon_sources(store, old.unit))
        where = f"{r.name}, {old.name}"
        traits = list(old.traits)
        for t in _traits(trait, "--trait"):
            if t in traits:
                raise fail(f"{where} already has the Trait {t}")
            traits.append(t)
        for t in no_trait:
            held = next((x for x in traits if x.lower() == t.strip().lower()), None)
            if held is None:
                raise UnknownNameError("Trait", t, traits, where=f"{where} (its Traits)")
            traits.remove(held)
        update["traits"] = traits
        if embark_in is not None:
            update["embarked_in"] = _entry_ref(r, embark_in, "--embark-in")
            if update["embarked_in"] == old.name:
                raise fail(f"--embark-in {embark_in!r}: {old.name} cannot embark in itself")
        if disembark:
            update["embarked_in"] = None
        if link is not None or unlink:
            update["link"] = link
        designations = dict(old.designations)
        for perk in undesignate:
            held = next((k for k in designations if k.lower() == perk.strip().lower()), None)
            if held is None:
                raise UnknownNameError(
                    "designation", perk, list(designations), where=f"{where} (its designations)"
                )
            del designations[held]
        designations.update(_checked_designations(r, designate))
        update["designations"] = designations
        if rename is not None:
            update["name"] = rename.strip()
        new = RosterEntry.model_validate({**old.model_dump(), **update})
        edited = _stamp(r.replace_entry(old.name, new))
        _refuse_what_validate_would(r, edited)
        store.save_roster(edited, expected_version=loaded.version)
    console.print(f"changed {new.name} in {r.name}", highlight=False)


@roster.command("copy-entry")
def roster_copy_entry(
    name: str = typer.Argument(..., help="Roster name."),
    entry: str = typer.Argument(..., help="The entry to copy."),
    new: str | None = typer.Option(None, "--name", help="Name of the copy (default: ENTRY 2)."),
    db: str | None = DB,
) -> None:
    """Copy an entry (unit, models, weapons, Traits, Transport …) under a new name."""
    with guarded():
        store = _store(db)
        loaded = store.versioned_roster(name)  # saved only over this version
        r = loaded.value
        copied = r.copy_entry(entry, new)
        store.save_roster(_stamp(copied), expected_version=loaded.version)
    added = next(e for e in copied.units if r.find(e.name) is None)
    console.print(f"copied {r.entry(entry).name} to {added.name} in {r.name}", highlight=False)


@roster.command("remove")
def roster_remove(
    name: str = typer.Argument(...), entry: str = typer.Argument(...), db: str | None = DB
) -> None:
    """Remove an entry from a roster."""
    with guarded():
        store = _store(db)
        loaded = store.versioned_roster(name)  # saved only over this version
        r = loaded.value
        gone = r.entry(entry).name
        store.save_roster(r.without_entry(entry), expected_version=loaded.version)
    console.print(f"removed {gone} from {r.name}", highlight=False)


@roster.command("rename")
def roster_rename(
    name: str = typer.Argument(..., help="Roster name, or #ID (roster list)."),
    new: str = typer.Argument(..., help="New roster name."),
    db: str | None = DB,
) -> None:
    """Rename a roster (one save: renamed, or unchanged)."""
    new = _new_name(new, "roster")
    with guarded():
        store = _store(db)
        # The stored line, not the roster: a blank name saved by an older version can be fixed.
        r = store.roster_summary(name)  # renamed only at this version
        store.rename_roster(r.handle, new, expected_version=r.version, roster_id=r.id)
    console.print(f"renamed roster {r.handle!r} to {new!r}", highlight=False)


@roster.command("limit")
def roster_limit(
    name: str = typer.Argument(..., help="Roster name."),
    points: int = typer.Argument(
        ..., min=1, max=1_000_000, help="The new Point Limit (Core Rules §3.1)."
    ),
    db: str | None = DB,
) -> None:
    """Change a roster's Point Limit, then validate it again (every violation is listed).

    The new limit is saved even when the roster no longer fits: the violations say what to
    change, as `roster validate` does (exit status 0; `validate` exits 1)."""
    with guarded():
        store = _store(db)
        loaded = store.versioned_roster(name)  # saved only over this version
        r = loaded.value
        changed = _stamp(r.model_copy(update={"point_limit": points}))
        store.save_roster(changed, expected_version=loaded.version)
        report = _report(changed)
    console.print(
        f"Point Limit of {r.name!r}: {r.point_limit} → {points} pts; "
        f"total {report.total} pts, " + ("legal" if report.ok else "NOT legal:"),
        highlight=False,
    )
    for v in report.violations:
        console.print(f"- {v}", highlight=False, soft_wrap=True)


@roster.command("copy")
def roster_copy(
    name: str = typer.Argument(..., help="Roster name."),
    new: str = typer.Argument(..., help="Name of the copy."),
    db: str | None = DB,
) -> None:
    """Copy a roster under a new name."""
    new = _new_name(new, "roster")
    with guarded():
        store = _store(db)
        r = store.roster(name)
        store.save_roster(r.model_copy(update={"name": new.strip()}), replace=False)
    console.print(f"copied roster {r.name!r} to {new.strip()!r}", highlight=False)


@roster.command("delete")
def roster_delete(
    name: str = typer.Argument(..., help="Roster name, or #ID (roster list)."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
    db: str | None = DB,
) -> None:
    """Delete a roster (asks first unless --yes)."""
    with guarded():
        store = _store(db)
        # The stored line, not the roster: a roster this version would refuse (a blank name
        # saved by an older one) can be deleted too, by ``#ID`` (``roster list``).
        r = store.roster_summary(name)  # deleted only at this version
        if not yes and not typer.confirm(
            f"Delete roster {r.handle!r} ({r.units} units)?", default=False, err=True
        ):
            raise fail(f"roster {r.handle!r} not deleted", code=1)
        store.delete_roster(r.handle, expected_version=r.version, roster_id=r.id)
    console.print(f"deleted roster {r.handle!r}", highlight=False)


@roster.command("perk")
def roster_perk(
    name: str = typer.Argument(...),
    perk: str = typer.Argument(..., help="A Roster Perk (Perks §12.6)."),
    unit: str | None = typer.Option(
        None, "--unit", "--presence", "-u", help="Designated entry (Presence unit, Avenge …)."
    ),
    remove: bool = typer.Option(False, "--remove", help="Remove the perk instead."),
    db: str | None = DB,
) -> None:
    """Add (or remove) a Roster Perk, with its designated unit."""
    from warbench.rulesets.warsurge.roster import RosterPerk

    with guarded():
        store = _store(db)
        loaded = store.versioned_roster(name)  # saved only over this version
        r = loaded.value
        perks = list(r.roster_perks)
        if remove:
            keep = [p for p in perks if p.perk.lower() != perk.lower()]
            if len(keep) == len(perks):
                raise UnknownNameError("roster perk", perk, [p.perk for p in perks], where=r.name)
            perks = keep
        else:
            known = _catalog().get_of_kind(perk, "Roster Perk", "roster perk")
            perk = known.name
            perks.append(RosterPerk(perk=perk, unit=_entry_ref(r, unit, "--unit")))
        from warbench.rulesets.warsurge.roster_io import canonical_roster

        changed = canonical_roster(r.model_copy(update={"roster_perks": perks}))
        if not remove:
            _refuse_what_validate_would(r, changed)
        store.save_roster(changed, expected_version=loaded.version)
    console.print(f"{'removed' if remove else 'added'} {perk} on {r.name}", highlight=False)


@roster.command("list")
def roster_list(db: str | None = DB) -> None:
    """List the rosters."""
    with guarded():
        for s in _store(db).rosters():
            name = (
                s.name if s.name.strip() else f"#{s.id} (no name; rename or delete it by #{s.id})"
            )
            console.print(f"{name}  {s.units} units, limit {s.point_limit} pts", highlight=False)


def _load(name_or_file: str, db: str | None) -> Roster:
    from warbench.rulesets.warsurge.roster_io import load_roster

    if _is_file(name_or_file):
        return load_roster(name_or_file)
    return _store(db).roster(name_or_file)


def report_table(report: RosterReport, r: Roster) -> Table:
    """Every line the roster pays for (unit, its table-priced perks, Traits, Roster Perks);
    the Pts column adds up to the total in the title and the footer."""
    from rich.table import Table

    t = Table(
        title=f"{r.name}: {report.total} / {r.point_limit} pts", show_edge=False, show_footer=True
    )
    t.add_column("Entry", footer="Total")
    t.add_column("Line")
    t.add_column("How priced")
    t.add_column("Pts", justify="right", footer=str(report.total))
    t.add_column("Embarked in")
    for e, c in zip(r.units, report.entries, strict=True):
        for i, line in enumerate(c.lines):
            label = line.label
            if line.kind == "perk":
                label = f"  {line.label} (on {line.on})"
            elif line.kind == "trait":
                label = f"  {line.label} (Trait)"
            t.add_row(
                e.name if i == 0 else "",
                label,
                line.method,
                str(line.points) if i == 0 else f"{line.points:+d}",
                (e.embarked_in or "") if i == 0 else "",
            )
        t.add_section()
    for line in report.perk_lines:
        on = f" (designated: {line.on})" if line.on else ""
        t.add_row("Roster Perk", f"{line.label}{on}", line.method, f"{line.points:+d}", "")
    return t


@roster.command("show")
def roster_show(
    name: str = typer.Argument(..., help="Roster name or roster file."),
    as_json: bool = typer.Option(
        False, "--json", help="Print the roster as JSON, with its priced lines and total."
    ),
    db: str | None = DB,
) -> None:
    """Show a roster's entries and costs."""
    with guarded():
        r = _load(name, db)
        report = _report(r, as_json)
    if as_json:  # the roster as stored, then what it pays: every priced line and the total
        data = r.model_dump(mode="json")
        data["lines"] = [line.to_dict() for line in report.lines]
        data["total"] = report.total
        console.print_json(json.dumps(data))
        return
    console.print(report_table(report, r))


def validate_command(target: str, as_json: bool, db: str | None) -> None:
    """``roster validate`` for WARSURGE: every violation; exit 1 when there are any."""
    with guarded():
        r = _load(target, db)
        report = _report(r, as_json)
    if as_json:
        console.print_json(json.dumps(report.to_dict()))
    else:
        console.print(report_table(report, r))
        if report.ok:
            console.print(f"{r.name}: legal ({report.total} / {r.point_limit} pts)")
        for v in report.violations:
            console.print(f"- {v}", highlight=False, soft_wrap=True)
    if not report.ok:
        raise typer.Exit(1)


@roster.command("export")
def roster_export(
    name: str = typer.Argument(...),
    out: Path = typer.Option(..., "--output", "-o", help="File to write (.yaml, .yml or .json)."),
    db: str | None = DB,
) -> None:
    """Export a roster (with every unit in full) to YAML or JSON."""
    from warbench.rulesets.warsurge.roster_io import dump_roster

    with guarded():
        r = _stamp(_store(db).roster(name))
        dump_roster(r, out)
    err_console.print(f"wrote {out}", highlight=False)


@roster.command("import")
def roster_import(
    file: Path | None = typer.Argument(
        None, help="Roster file (YAML or JSON), or a share code (WBR1:…)."
    ),
    code: str | None = typer.Option(None, "--code", "-c", help="A share code (WBR1:…)."),
    rename: str | None = typer.Option(None, "--name", help="Save under another name."),
    replace: bool = typer.Option(False, "--replace", help="Overwrite a roster of the same name."),
    db: str | None = DB,
) -> None:
    """Import a roster from a file or a share code, exactly as it was exported."""
    from warbench.rulesets.warsurge.share import PREFIX

    if file is not None and code is None and str(file).upper().startswith(PREFIX):
        # a share code given as the argument (as the first line of the help reads): the code,
        # not a file of that name (session 33: "unknown file type ''")
        file, code = None, str(file)
    if (file is None) == (code is None):
        raise fail("give a roster FILE or --code CODE (one of them)")
    with guarded():
        if code is not None:
            from warbench.rulesets.warsurge.share import decode

            r = decode(code)
        else:
            from warbench.rulesets.warsurge.roster_io import load_roster

            assert file is not None
            r = load_roster(file)
        if rename:
            r = r.model_copy(update={"name": rename})
        _store(db).save_roster(r, replace=replace)
    console.print(f"imported roster {r.name!r} ({len(r.units)} units)", highlight=False)


@roster.command("share")
def roster_share(
    name: str = typer.Argument(..., help="Roster name or roster file."),
    png: Path | None = typer.Option(None, "--png", help="Also write the QR code as PNG."),
    svg: Path | None = typer.Option(None, "--svg", help="Also write the QR code as SVG."),
    db: str | None = DB,
) -> None:
    """Print the roster's share code (and write it as a QR image)."""
    from warbench.rulesets.warsurge.share import encode, qr_png, qr_svg

    with guarded():
        # a roster file too, as ``roster print`` takes it (session 33: "unknown roster")
        code = encode(_stamp(_load(name, db)))
        if png is not None:
            qr_png(code, png)
        if svg is not None:
            qr_svg(code, svg)
    typer.echo(code)
    for p in (png, svg):
        if p is not None:
            err_console.print(f"wrote {p}", highlight=False)


@roster.command("print")
def roster_print(
    name: str = typer.Argument(..., help="Roster name or roster file."),
    out: Path | None = typer.Option(None, "--output", "-o", help="HTML file to write."),
    pdf: Path | None = typer.Option(None, "--pdf", help="PDF file to write (A4)."),
    db: str | None = DB,
) -> None:
    """Write a printable roster sheet (HTML and/or PDF): profiles, HP boxes, perks, points, QR."""
    from warbench.rulesets.warsurge.sheet import render_sheet, render_sheet_pdf

    if out is None and pdf is None:
        raise fail("give --output FILE.html and/or --pdf FILE.pdf")
    with guarded():
        r = _stamp(_load(name, db))
        report = _report(r)
        if out is not None:
            out.write_text(render_sheet(r, report), encoding="utf-8")
        if pdf is not None:
            pdf.write_bytes(render_sheet_pdf(r, report))
    for path in (out, pdf):
        if path is not None:
            err_console.print(f"wrote {path}", highlight=False)
