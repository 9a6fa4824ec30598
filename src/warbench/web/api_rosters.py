"""The roster routes of the JSON API (``/api/rosters/...``, issue 13).

A player builds a Roster (Core Rules §3) to a Point Limit: entries are added, changed in place
(model count, each model group's weapons, Traits, the Transport it deploys in, its Linked
Profile set, perk designations, its name) and removed; Roster Perks are added and removed; the
Point Limit and notes can be changed after creation. Every change answers with the re-costed,
re-validated roster (``validate_roster``: the total, every priced line and every violation).

Every edit is one write transaction of :meth:`~warbench.storage.store.Store.edit_roster`, which
writes only the rows that changed (one ``UPDATE`` for one changed entry). An editor may send the
``version`` it loaded (``?version=N``); a roster saved elsewhere since then is refused with 409
instead of being overwritten.

Share codes, the QR (shown, downloaded, and read back from an uploaded picture) and the roster
sheet (HTML to print, or a PDF typeset on the server) are here too.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from contextlib import suppress
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from warbench.kernel.errors import ProfileError, UnknownNameError, WarbenchError
from warbench.web.deps import StoreDep, UnitRef, resolve_unit

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.profiles import Unit, WeaponProfile
    from warbench.rulesets.warsurge.roster import Roster
    from warbench.storage.store import Store

router = APIRouter(tags=["rosters"])

_FORBID = ConfigDict(extra="forbid")

Name80 = Annotated[str, Field(min_length=1, max_length=80)]
Version = Annotated[
    int | None,
    Query(ge=1, description="The roster version the edit was made on (refused if it changed)."),
]


class RosterSummaryOut(BaseModel):
    name: str
    point_limit: int
    units: int
    points_model: str


@router.get("/rosters")
def rosters(store: StoreDep) -> list[RosterSummaryOut]:
    """The rosters in the database (``warbench roster list``)."""
    return [
        RosterSummaryOut(
            name=r.name, point_limit=r.point_limit, units=r.units, points_model=r.points_model
        )
        for r in store.rosters()
    ]


class NewRoster(BaseModel):
    """A new, empty Roster with a Point Limit (Core Rules §3.1)."""

    model_config = _FORBID

    name: str = Field(min_length=1, max_length=120)
    point_limit: int = Field(ge=1, le=1_000_000)


def report_of(roster: Roster, version: int | None = None) -> dict[str, Any]:
    """The roster's costs, total and violations (``validate_roster``), its document and the
    version it was saved as (for the next edit)."""
    from warbench.rulesets.warsurge.roster import validate_roster
    from warbench.rulesets.warsurge.roster_io import roster_to_data

    report = validate_roster(roster).to_dict()
    report["document"] = roster_to_data(roster)
    report["version"] = version
    return report


def _report(store: Store, name: str) -> dict[str, Any]:
    loaded = store.versioned_roster(name)
    return report_of(loaded.value, loaded.version)


def _edit(
    store: Store, name: str, change: Callable[[Roster], Roster], version: int | None
) -> dict[str, Any]:
    """Apply ``change`` in one transaction (only changed rows written) and answer the report."""
    saved = store.edit_roster(name, change, expected_version=version)
    # Speed (issue 13, benchmarks/bench_web.py): the saved roster is the one in hand, so it is
    # validated without reading it back.
    return report_of(saved.value, saved.version)


@router.post("/rosters", status_code=201)
def create_roster(body: NewRoster, store: StoreDep) -> dict[str, Any]:
    """Create an empty roster (409 when one of that name exists)."""
    from warbench.rulesets.warsurge.roster import Roster

    roster = Roster(name=body.name.strip(), point_limit=body.point_limit)
    version = store.save_roster(roster, replace=False)
    return report_of(roster, version)


@router.get("/rosters/{name}")
def roster(name: str, store: StoreDep) -> dict[str, Any]:
    """A roster's costs, total against its Point Limit, and every violation (§3, §12)."""
    return _report(store, name)


class RosterChange(BaseModel):
    """Change a roster's Point Limit (Core Rules §3.1) or notes after it was created."""

    model_config = _FORBID

    point_limit: int | None = Field(None, ge=1, le=1_000_000)
    notes: str | None = Field(None, max_length=10_000)


@router.patch("/rosters/{name}")
def change_roster(
    name: str, body: RosterChange, store: StoreDep, version: Version = None
) -> dict[str, Any]:
    """Set the Point Limit and/or the notes; answers with the re-validated roster."""
    update = body.model_dump(exclude_none=True)
    return _edit(store, name, lambda r: r.model_copy(update=update), version)


@router.delete("/rosters/{name}", status_code=204)
def delete_roster(name: str, store: StoreDep, version: Version = None) -> Response:
    """Delete a roster."""
    store.delete_roster(name, expected_version=version)
    return Response(status_code=204)


# ------------------------------------------------------------------------------------ entries


class ModelGroupIn(BaseModel):
    """``count`` models of the entry, each carrying the named weapons (Core Rules §1.2)."""

    model_config = _FORBID

    count: int = Field(ge=1, le=500)
    weapons: list[Annotated[str, Field(min_length=1, max_length=80)]] = Field(
        default_factory=list, max_length=20
    )


class NewEntry(BaseModel):
    """Add (or replace, by name) an entry: a unit from a source, and its Traits (§12.6)."""

    model_config = _FORBID

    unit: UnitRef
    name: str | None = Field(None, min_length=1, max_length=80, description="Entry name.")
    traits: list[Annotated[str, Field(max_length=80)]] = Field(default_factory=list, max_length=10)
    embarked_in: str | None = Field(None, max_length=80)
    link: str | None = Field(
        None, min_length=1, max_length=80, description="Linked Profile set (Perks §12.2)."
    )
    groups: list[ModelGroupIn] | None = Field(
        None, max_length=20, description="Model groups and their weapons (default: the unit's)."
    )


def _weapon_sources(store: Store, unit: Unit) -> list[WeaponProfile]:
    """Weapons an entry may take: its own, its faction unit's (when saved), the Armoury's."""
    own = list(unit.weapons)
    # A unit from an example, a file or a share code is in no faction: its own weapons and
    # the Armoury's.
    with suppress(WarbenchError):
        own += store.find_unit(unit.name).weapons
    return own + store.weapons()


def build_unit(base: Unit, groups: list[ModelGroupIn], sources: list[WeaponProfile]) -> Unit:
    """``base`` with the given model groups; each weapon named is the unit's own, else the
    first of ``sources`` of that name. The unit keeps only the weapons some model carries.

    The same rule as ``warbench roster add/edit --group`` (cli/roster_cmds.py: build_unit)."""
    from warbench.rulesets.warsurge.profiles import ModelGroup, Unit

    known: dict[str, WeaponProfile] = {}
    for w in [*base.weapons, *sources]:
        known.setdefault(w.name.lower(), w)
    used: dict[str, WeaponProfile] = {}
    models = []
    for i, g in enumerate(groups):
        carried = []
        for n in g.weapons:
            found = known.get(n.strip().lower())
            if found is None:
                raise UnknownNameError(
                    "weapon",
                    n,
                    list(dict.fromkeys(k.name for k in known.values())),
                    where=f"groups[{i}].weapons",
                )
            used.setdefault(found.name, found)
            if found.name not in carried:
                carried.append(found.name)
        models.append(ModelGroup(count=g.count, weapons=carried))
    return Unit(profile=base.profile, weapons=list(used.values()), models=models)


def _traits(names: list[str], field: str) -> list[str]:
    """Trait names as the book prints them; unknown or misplaced names are refused."""
    from warbench.rulesets.warsurge.perks import PerkCatalog

    out: list[str] = []
    for t in names:
        name = PerkCatalog.load().get_of_kind(t, "Trait", field).name
        if name in out:
            raise ProfileError(field, t, "each Trait once")
        out.append(name)
    return out


def _transport(r: Roster, name: str | None, entry: str) -> str | None:
    """The Transport entry a unit deploys in (Core Rules §6, lines 3287-3291), checked."""
    if name is None or not name.strip():
        return None
    found = r.find(name)
    transports = [e.name for e in r.units if e.unit.profile.transport]
    if found is None:
        raise UnknownNameError("roster entry", name, [e.name for e in r.units], where="embarked_in")
    if found.name.lower() == entry.strip().lower():
        raise ProfileError("embarked_in", name, "another entry: a unit cannot embark in itself")
    if not found.unit.profile.transport:
        raise ProfileError(
            "embarked_in",
            name,
            f"a Transport entry (Transport > 0, Core Rules §6 lines 3287-3291): "
            f"{', '.join(transports) or 'none in this roster'}",
        )
    return found.name


def _designations(r: Roster, values: dict[str, str]) -> dict[str, str]:
    """Perk name -> designated entry (Controlled, Enslaved, Transport Link), both checked."""
    from warbench.rulesets.warsurge.perks import PerkCatalog

    out = {}
    for perk, target in values.items():
        p = PerkCatalog.load().get(perk).name
        found = r.find(target)
        if found is None:
            raise UnknownNameError(
                "roster entry", target, [e.name for e in r.units], where=f"designations.{p}"
            )
        out[p] = found.name
    return out


@router.post("/rosters/{name}/entries")
def add_entry(
    name: str, body: NewEntry, store: StoreDep, version: Version = None
) -> dict[str, Any]:
    """Add an entry (or replace the entry of that name) and answer with the re-costed,
    re-validated roster."""
    from warbench.rulesets.warsurge.roster import RosterEntry

    unit = resolve_unit(body.unit, store, "unit")
    if body.groups is not None:
        unit = build_unit(unit, body.groups, _weapon_sources(store, unit))
    traits = _traits(body.traits, "traits")

    def change(r: Roster) -> Roster:
        entry = RosterEntry.of(
            unit,
            body.name,
            traits=traits,
            embarked_in=_transport(r, body.embarked_in, body.name or unit.name),
            link=body.link.strip() if body.link else None,
        )
        return r.with_entry(entry)

    return _edit(store, name, change, version)


class EntryChange(BaseModel):
    """Change an entry in place; only the fields given change (``null`` clears
    ``embarked_in`` and ``link``)."""

    model_config = _FORBID

    name: str | None = Field(
        None, min_length=1, max_length=80, description="New name (references follow)."
    )
    models: int | None = Field(
        None, ge=1, le=500, description="Model count (one model group, its weapons kept)."
    )
    groups: list[ModelGroupIn] | None = Field(
        None, min_length=1, max_length=20, description="Model groups and the weapons of each."
    )
    traits: list[Annotated[str, Field(max_length=80)]] | None = Field(None, max_length=10)
    embarked_in: str | None = Field(None, max_length=80)
    link: str | None = Field(None, max_length=80, description="Linked Profile set (§12.2).")
    designations: dict[Name80, Name80] | None = Field(
        None, max_length=10, description="Perk -> designated entry (Controlled, Enslaved …)."
    )


@router.patch("/rosters/{name}/entries/{entry}")
def change_entry(
    name: str, entry: str, body: EntryChange, store: StoreDep, version: Version = None
) -> dict[str, Any]:
    """Change an entry in place (its count, weapons, Traits, Transport, link, designations,
    name) and answer with the re-costed, re-validated roster. As ``warbench roster edit``."""
    from warbench.rulesets.warsurge.roster import RosterEntry

    given = body.model_fields_set
    if "models" in given and "groups" in given and body.models and body.groups:
        raise ProfileError("models", body.models, "either models or groups, not both")
    current = store.roster(name).entry(entry)  # unknown entry: 404 before any write
    unit = current.unit
    if body.groups is not None:
        unit = build_unit(unit, body.groups, _weapon_sources(store, unit))
    elif body.models is not None:
        if len(unit.models) > 1:
            raise ProfileError(
                "models",
                body.models,
                f"groups for each of {current.name}'s {len(unit.models)} model groups",
            )
        unit = unit.model_copy(
            update={"models": [unit.models[0].model_copy(update={"count": body.models})]}
        )
    traits = _traits(body.traits, "traits") if body.traits is not None else None

    def change(r: Roster) -> Roster:
        old = r.entry(entry)
        update: dict[str, Any] = {}
        if unit is not current.unit:
            update["unit"] = unit
        if traits is not None:
            update["traits"] = traits
        if "embarked_in" in given:
            update["embarked_in"] = _transport(r, body.embarked_in, old.name)
        if "link" in given:
            update["link"] = body.link.strip() if body.link and body.link.strip() else None
        if body.designations is not None:
            update["designations"] = _designations(r, body.designations)
        if body.name is not None:
            update["name"] = body.name.strip()
        new = RosterEntry.model_validate({**old.model_dump(), **update})
        return r.replace_entry(old.name, new)

    return _edit(store, name, change, version)


@router.post("/rosters/{name}/entries/{entry}/copy")
def copy_entry(name: str, entry: str, store: StoreDep, version: Version = None) -> dict[str, Any]:
    """Copy an entry (unit, models, Traits, Transport, link) under the next free name."""
    return _edit(store, name, lambda r: r.copy_entry(entry), version)


@router.delete("/rosters/{name}/entries/{entry}")
def remove_entry(name: str, entry: str, store: StoreDep, version: Version = None) -> dict[str, Any]:
    """Remove an entry and answer with the re-costed, re-validated roster."""
    store.roster(name).entry(entry)  # unknown: 404
    return _edit(store, name, lambda r: r.without_entry(entry), version)


@router.get("/rosters/{name}/entries/{entry}/weapons")
def entry_weapons(name: str, entry: str, store: StoreDep) -> list[str]:
    """The weapons an entry's models may carry: its own, its faction unit's, the Armoury's."""
    e = store.roster(name).entry(entry)
    return list(dict.fromkeys(w.name for w in _weapon_sources(store, e.unit)))


# ------------------------------------------------------------------------------ roster perks


class NewRosterPerk(BaseModel):
    """A Roster Perk (Perks §12.6) and, where it needs one, its designated entry."""

    model_config = _FORBID

    perk: str = Field(min_length=1, max_length=80)
    unit: str | None = Field(None, min_length=1, max_length=80, description="Designated entry.")


@router.post("/rosters/{name}/perks")
def add_roster_perk(
    name: str, body: NewRosterPerk, store: StoreDep, version: Version = None
) -> dict[str, Any]:
    """Add a Roster Perk (its name as players write it) and answer with the re-validated roster.

    An unknown perk is refused (422, suggesting names); a perk of the wrong kind or a missing
    designation is a violation in the answer, as in ``warbench roster validate``.
    """
    from warbench.rulesets.warsurge.perks import PerkCatalog
    from warbench.rulesets.warsurge.roster import RosterPerk

    perk = PerkCatalog.load().get(body.perk).name
    added = RosterPerk(perk=perk, unit=body.unit)
    return _edit(
        store,
        name,
        lambda r: r.model_copy(update={"roster_perks": [*r.roster_perks, added]}),
        version,
    )


@router.delete("/rosters/{name}/perks/{index}")
def remove_roster_perk(
    name: str, index: int, store: StoreDep, version: Version = None
) -> dict[str, Any]:
    """Remove the Roster Perk at ``index`` (0-based, in the roster's order)."""

    def change(r: Roster) -> Roster:
        if not 0 <= index < len(r.roster_perks):
            raise ProfileError(
                "index", index, f"0 to {len(r.roster_perks) - 1}" if r.roster_perks else "none"
            )
        perks = [p for i, p in enumerate(r.roster_perks) if i != index]
        return r.model_copy(update={"roster_perks": perks})

    return _edit(store, name, change, version)


# ------------------------------------------------------------------------ share code, QR, sheet


@router.get("/rosters/{name}/share")
def share_code(name: str, store: StoreDep) -> dict[str, str]:
    """The roster's share code (``WBR1:…``, checksummed)."""
    from warbench.rulesets.warsurge.share import encode

    return {"code": encode(store.roster(name))}


@router.get("/rosters/{name}/qr.svg", response_class=Response)
def share_qr(name: str, store: StoreDep) -> Response:
    """The share code as a QR code (SVG, segno)."""
    import io

    from warbench.rulesets.warsurge.share import encode, qr_code

    buf = io.BytesIO()
    qr_code(encode(store.roster(name))).save(buf, kind="svg", scale=4, border=2)
    return Response(buf.getvalue(), media_type="image/svg+xml")


@router.get("/rosters/{name}/qr.png", response_class=Response)
def share_qr_png(name: str, store: StoreDep) -> Response:
    """The share code as a QR code (PNG, segno), to save to a phone's photos."""
    import io

    from warbench.rulesets.warsurge.share import encode, qr_code

    buf = io.BytesIO()
    qr_code(encode(store.roster(name))).save(buf, kind="png", scale=6, border=4)
    return Response(buf.getvalue(), media_type="image/png")


def _sheet_parts(store: Store, name: str) -> tuple[Roster, Any]:
    from warbench.rulesets.warsurge.roster import validate_roster

    roster = store.roster(name)
    report = validate_roster(roster)
    return roster.stamped(report.points_model), report


@router.get("/rosters/{name}/sheet.html", response_class=Response)
def roster_sheet(name: str, store: StoreDep) -> Response:
    """The printable roster sheet (``warbench roster print``): profiles, perks, activation and
    points, as a standalone HTML page the browser prints (or saves as PDF)."""
    from warbench.rulesets.warsurge.sheet import render_sheet

    return Response(render_sheet(*_sheet_parts(store, name)), media_type="text/html")


@router.get("/rosters/{name}/sheet.pdf", response_class=Response)
def roster_sheet_pdf(name: str, store: StoreDep, download: bool = False) -> Response:
    """The roster sheet as a PDF typeset on the server (``warbench roster print --pdf``: Typst
    with its embedded fonts); ``download=true`` asks the browser to save it."""
    from urllib.parse import quote

    from warbench.rulesets.warsurge.sheet import render_sheet_pdf

    roster, report = _sheet_parts(store, name)
    how = "attachment" if download else "inline"
    filename = quote(f"{roster.name}.pdf")
    return Response(
        render_sheet_pdf(roster, report),
        media_type="application/pdf",
        headers={"Content-Disposition": f"{how}; filename*=UTF-8''{filename}"},
    )


class ImportCode(BaseModel):
    """A pasted share code; ``name`` renames the imported roster."""

    model_config = _FORBID

    code: str = Field(min_length=1, max_length=20_000)
    name: str | None = Field(None, min_length=1, max_length=120)
    replace: bool = False


def _import(store: Store, code: str, name: str | None, replace: bool) -> dict[str, Any]:
    from warbench.rulesets.warsurge.share import decode

    roster = decode(code)
    if name:
        roster = roster.model_copy(update={"name": name.strip()})
    version = store.save_roster(roster, replace=replace)
    return report_of(roster, version)


@router.post("/rosters/import", status_code=201)
def import_code(body: ImportCode, store: StoreDep) -> dict[str, Any]:
    """Decode a share code (checksum checked) and save the roster."""
    return _import(store, body.code, body.name, body.replace)


MAX_IMAGE_BYTES = 8 * 1024 * 1024
MAX_IMAGE_PIXELS = 40_000_000


class ImportImage(BaseModel):
    """A picture of a roster's share QR (PNG, JPEG, WebP, GIF or BMP; a photo or a screenshot)
    as base64, or as a ``data:`` URL; ``name`` renames the imported roster."""

    model_config = _FORBID

    image: str = Field(min_length=1, max_length=12_000_000, description="Base64 or data: URL.")
    name: str | None = Field(None, min_length=1, max_length=120)
    replace: bool = False


def read_qr(data: bytes) -> str:
    """The text of the QR code in an image (zxing-cpp); a picture without one, or not a
    picture, is a :class:`ProfileError` on ``image``."""
    import io

    import zxingcpp
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as img:
            if img.width * img.height > MAX_IMAGE_PIXELS:
                raise ProfileError(
                    "image", f"{img.width}x{img.height}", "a picture of at most 40 megapixels"
                )
            found = zxingcpp.read_barcodes(
                img.convert("L"), formats=zxingcpp.barcode_formats_from_str("QRCode")
            )
    except UnidentifiedImageError:
        raise ProfileError(
            "image", f"{len(data)} bytes that are no picture", "a PNG, JPEG, WebP, GIF or BMP"
        ) from None
    except (OSError, ValueError) as exc:
        raise ProfileError(
            "image", f"a damaged picture ({exc})", "a PNG, JPEG, WebP, GIF or BMP"
        ) from None
    texts = [b.text for b in found if b.valid and b.text]
    if not texts:
        raise ProfileError(
            "image", "a picture without a readable QR code", "a picture of a roster's share QR"
        )
    codes = [t for t in texts if t.strip().upper().startswith("WBR")]
    return (codes or texts)[0].strip()


@router.post("/rosters/import-image", status_code=201)
def import_image(body: ImportImage, store: StoreDep) -> dict[str, Any]:
    """Read the share QR in an uploaded picture, decode the code and save the roster."""
    raw = body.image.strip()
    if raw.startswith("data:"):
        raw = raw.partition(",")[2]
    try:
        data = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        raise ProfileError("image", "not base64", "the picture's bytes as base64") from None
    if len(data) > MAX_IMAGE_BYTES:
        raise ProfileError("image", f"{len(data)} bytes", "a picture of at most 8 MiB")
    return _import(store, read_qr(data), body.name, body.replace)
