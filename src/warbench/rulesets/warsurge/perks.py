"""The WARSURGE perk catalog (Book 2 ``000_94ecc6a4c74d351b.txt`` §12.4-§12.6) as data.

Every perk rank of the book (Unit Perks §12.4, Weapon Perks §12.5, Traits and Roster Perks
§12.6) is a :class:`PerkDef` read from the package data file ``data/perks.json``, which
``scripts/build_perk_catalog.py`` builds from the reference index. :class:`PerkCatalog` looks
perks up by name the way players write them ("Destroy 1", "+Power I", "aim 4"), checks that a
perk sits on the right kind of profile, and reports which perks have no implementation yet.

The attack engine and the other rules machinery declare what they implement with
:func:`register_implemented`; :func:`unimplemented_report` lists the perks of a profile that
nothing implements, when the profile is loaded rather than in the middle of a battle.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

from warbench.kernel.errors import DataFileError, ProfileError, UnknownNameError

__all__ = [
    "PerkCatalog",
    "PerkDef",
    "PerkKind",
    "point_cost_met",
    "register_implemented",
    "unimplemented_report",
]


def point_cost_met(bracket: str, user_cost: float | None, target_cost: float | None) -> bool:
    """Whether a Target meets a perk's ``Point Cost (Greater)`` or ``(Lesser)`` activation term.

    000_94ecc6a4c74d351b.txt L321-323: "Lesser means that a Target must be equal or less Point
    Cost than the User, while Greater means it must be equal or higher" (docs/rulings.md 27).
    An unknown cost on either side never meets the term.

    >>> point_cost_met("Greater", 100, 100), point_cost_met("Lesser", 100, 100)
    (True, True)
    >>> point_cost_met("Greater", 100, 99), point_cost_met("Lesser", 100, 101)
    (False, False)
    """
    if user_cost is None or target_cost is None:
        return False
    if bracket == "Greater":
        return target_cost >= user_cost
    if bracket == "Lesser":
        return target_cost <= user_cost
    raise ValueError(f"Point Cost bracket {bracket!r}: write Greater or Lesser")


class PerkKind(StrEnum):
    """What a perk upgrades (Book 2 §12.4-§12.6)."""

    UNIT_PERK = "Unit Perk"
    WEAPON_PERK = "Weapon Perk"
    TRAIT = "Trait"
    ROSTER_PERK = "Roster Perk"

    @property
    def section(self) -> str:
        """The Book 2 section that lists perks of this kind."""
        return _SECTION[self]


_SECTION = {
    PerkKind.UNIT_PERK: "§12.4",
    PerkKind.WEAPON_PERK: "§12.5",
    PerkKind.TRAIT: "§12.6",
    PerkKind.ROSTER_PERK: "§12.6",
}

#: For a profile slot (named by the perk kind it holds), the perk kinds it accepts. Traits are
#: upgrades to Units (§12.6), so a unit profile takes Unit Perks and Traits.
ALLOWED_ON: dict[PerkKind, frozenset[PerkKind]] = {
    PerkKind.UNIT_PERK: frozenset({PerkKind.UNIT_PERK, PerkKind.TRAIT}),
    PerkKind.WEAPON_PERK: frozenset({PerkKind.WEAPON_PERK}),
    PerkKind.TRAIT: frozenset({PerkKind.TRAIT}),
    PerkKind.ROSTER_PERK: frozenset({PerkKind.ROSTER_PERK}),
}

_WHERE_ALLOWED = {
    PerkKind.UNIT_PERK: "on a unit profile's perks",
    PerkKind.WEAPON_PERK: "on a weapon profile's perks",
    PerkKind.TRAIT: "on a unit profile's perks, chosen when building the Roster",
    PerkKind.ROSTER_PERK: "on the Roster, not on a unit or weapon profile",
}

_SLOT_NAME = {
    PerkKind.UNIT_PERK: "unit profile",
    PerkKind.WEAPON_PERK: "weapon profile",
    PerkKind.TRAIT: "unit's Traits",
    PerkKind.ROSTER_PERK: "Roster",
}


@dataclass(frozen=True, slots=True)
class PerkDef:
    """One perk rank as printed in Book 2 (``Destroy II`` and ``Destroy I`` are two entries).

    ``activation`` holds the activation tags as printed (``Passive``, ``HP Loss``,
    ``Radius (6")`` ...), ``rule`` the section and the line where the entry starts, and
    ``impl_class`` the machinery it needs: A attack math, B unit state over turns, C geometry,
    D deployment/transports, E control and psychology, F roster and game flow.
    """

    name: str
    base_name: str
    rank: str | None
    kind: PerkKind
    family: str
    activation: tuple[str, ...]
    summary: str
    section: str
    rule: str
    impl_class: str
    requires: tuple[str, ...]

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> PerkDef:
        """Build from one entry of ``data/perks.json``."""
        return cls(
            name=data["name"],
            base_name=data["base_name"],
            rank=data["rank"],
            kind=PerkKind(data["kind"]),
            family=data["family"],
            activation=tuple(data["activation"]),
            summary=data["summary"],
            section=data["section"],
            rule=data["rule"],
            impl_class=data["impl_class"],
            requires=tuple(data["requires"]),
        )

    @property
    def is_passive(self) -> bool:
        """True when the perk is always on (activation tag ``Passive``)."""
        return "Passive" in self.activation


_ROMAN = {"1": "i", "2": "ii", "3": "iii", "4": "iv", "5": "v"}


def _key(name: str) -> str:
    """Lower case, single spaces, no space after a leading ``+``/``-``, no ``(D3)`` tail."""
    text = " ".join(name.replace("’", "'").split()).lower()
    text = re.sub(r"\s*\([^)]*\)$", "", text)
    return re.sub(r"^([+-]) ", r"\1", text)


def _key_variants(name: str) -> list[str]:
    """Keys to try for a written name: as is, then a digit rank read as Roman or as ``N+``."""
    key = _key(name)
    out = [key]
    m = re.fullmatch(r"(.+) (\d)(\+?)", key)
    if m and not m[3]:
        if m[2] in _ROMAN:
            out.append(f"{m[1]} {_ROMAN[m[2]]}")
        out.append(f"{m[1]} {m[2]}+")
    return out


_IMPLEMENTED: dict[str, str] = {}


class PerkCatalog:
    """Every perk rank of Book 2, looked up by tolerant, case-insensitive name."""

    def __init__(self, perks: Iterable[PerkDef]) -> None:
        self._perks: tuple[PerkDef, ...] = tuple(perks)
        self._by_key: dict[str, PerkDef] = {}
        for p in self._perks:
            for key in (p.name.lower(), _key(p.name)):
                other = self._by_key.get(key)
                if other is not None and other is not p:
                    raise DataFileError("perks.json", f"two perks share the name {p.name!r}")
                self._by_key[key] = p

    @classmethod
    def load(cls) -> PerkCatalog:
        """The catalog shipped with warbench (``data/perks.json``), read once and cached."""
        return _load_packaged()

    @classmethod
    def from_json(cls, text: str, source: str = "perks.json") -> PerkCatalog:
        """Build from the text of a catalog file (``{"perks": [...]}``)."""
        try:
            doc = json.loads(text)
            return cls(PerkDef.from_data(p) for p in doc["perks"])
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise DataFileError(source, f"not a perk catalog: {exc}") from exc

    def __len__(self) -> int:
        return len(self._perks)

    def __iter__(self) -> Iterator[PerkDef]:
        return iter(self._perks)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.find(name) is not None

    @property
    def names(self) -> list[str]:
        """Every perk name, in book order."""
        return [p.name for p in self._perks]

    def find(self, name: str) -> PerkDef | None:
        """The perk called ``name`` (tolerant, see :meth:`get`), or ``None``."""
        # Speed (issue 13, a roster re-validated after each change asks for every perk of every
        # entry): a name as the book writes it is a key as it is, without the normalising
        # regular expressions; same answer, as every book name's lower case is a key.
        exact = self._by_key.get(name.lower())
        if exact is not None:
            return exact
        for key in _key_variants(name):
            perk = self._by_key.get(key)
            if perk is not None:
                return perk
        return None

    def get(self, name: str) -> PerkDef:
        """The perk called ``name``.

        Case and spacing do not matter, a rank may be written in digits (``Destroy 1``,
        ``Aim 4``), and a dice tail may be left out (``+Power I`` for ``+Power I (D3)``).
        Raises :class:`UnknownNameError` suggesting the closest names.
        """
        perk = self.find(name)
        if perk is None:
            raise UnknownNameError("perk", name, self.names)
        return perk

    def get_of_kind(self, name: str, kind: PerkKind | str, where: str = "") -> PerkDef:
        """The perk called ``name``, which must be of ``kind`` (a Trait, a Roster Perk …).

        Raises :class:`UnknownNameError` suggesting the closest perks *of that kind* when the
        name is unknown, and :class:`ProfileError` naming the right section when it is a perk
        of another kind (``Tough`` is a Unit Perk, not a Trait).
        """
        k = PerkKind(kind)
        perk = self.find(name)
        names = [p.name for p in self.of_kind(k)]
        if perk is None:
            raise UnknownNameError(k.value, name, names, where=where)
        if perk.kind is not k:
            raise ProfileError(
                k.value,
                name,
                f"the {k.value}s of Book 2 {k.section} ({', '.join(names)})",
                source=where or None,
                reason=f"{perk.name} is a {perk.kind.value} (Book 2 {perk.kind.section})",
            )
        return perk

    def of_kind(self, kind: PerkKind | str) -> list[PerkDef]:
        """The perks of one kind, in book order."""
        k = PerkKind(kind)
        return [p for p in self._perks if p.kind is k]

    def by_class(self, impl_class: str) -> list[PerkDef]:
        """The perks of one implementation class (``"A"`` .. ``"F"``)."""
        return [p for p in self._perks if p.impl_class == impl_class.upper()]

    def check_profile_perks(
        self,
        perks: Iterable[str],
        kind: PerkKind | str,
        where: str = "",
        *,
        field: str = "perks",
    ) -> list[PerkDef]:
        """Resolve the perks written on a profile that holds perks of ``kind``.

        ``kind`` is the slot: ``PerkKind.UNIT_PERK`` for a unit profile (which also takes
        Traits), ``PerkKind.WEAPON_PERK`` for a weapon profile. ``where`` names the origin (a
        file) and ``field`` the dotted path of the list, for the error messages. Raises
        :class:`UnknownNameError` for an unknown name and :class:`ProfileError` for a perk of
        the wrong kind or a perk listed twice.
        """
        slot = PerkKind(kind)
        allowed = ALLOWED_ON[slot]
        out: list[PerkDef] = []
        for i, name in enumerate(perks):
            spot = f"{field}[{i}]"
            perk = self.find(name)
            if perk is None:
                at = f"{where}, {spot}" if where else spot
                raise UnknownNameError("perk", name, self.names, where=at)
            if perk.kind not in allowed:
                kinds = " or ".join(
                    f"{k.value}s (Book 2 {k.section})" for k in PerkKind if k in allowed
                )
                raise ProfileError(
                    spot,
                    name,
                    kinds,
                    source=where or None,
                    reason=(
                        f"{perk.name} is a {perk.kind.value} (Book 2 {perk.kind.section}), "
                        f"allowed {_WHERE_ALLOWED[perk.kind]}, not on a {_SLOT_NAME[slot]}"
                    ),
                )
            if perk in out:
                raise ProfileError(
                    spot,
                    name,
                    "each perk once",
                    source=where or None,
                    reason=f"{perk.name} is already listed",
                )
            out.append(perk)
        return out

    @property
    def implemented(self) -> frozenset[str]:
        """Names of the perks some rules machinery has registered as implemented."""
        return frozenset(_IMPLEMENTED)

    def implementation_of(self, name: str) -> str | None:
        """The machinery that registered ``name`` (``None`` if nothing implements it)."""
        return _IMPLEMENTED.get(self.get(name).name)


@cache
def _load_packaged() -> PerkCatalog:
    source = "warbench/rulesets/warsurge/data/perks.json"
    try:
        text = resources.files(__package__).joinpath("data/perks.json").read_text("utf-8")
    except OSError as exc:
        raise DataFileError(source, f"cannot read the perk catalog: {exc}") from exc
    return PerkCatalog.from_json(text, source)


def register_implemented(names: Iterable[str], machinery: str) -> frozenset[str]:
    """Declare that ``machinery`` (e.g. ``"attack"``) implements the perks ``names``.

    Names are checked against the catalog now (pluggy style), so a typo fails when the engine
    registers, not when a perk first fires. Registering a perk again from the same machinery is
    harmless; from a different machinery it is an error (one perk, one implementation).
    Returns the canonical names registered.
    """
    catalog = PerkCatalog.load()
    resolved = [catalog.get(n).name for n in names]
    for name in resolved:
        owner = _IMPLEMENTED.get(name)
        if owner is not None and owner != machinery:
            raise ValueError(f"perk {name!r} is already implemented by {owner!r}")
    for name in resolved:
        _IMPLEMENTED[name] = machinery
    return frozenset(resolved)


def unimplemented_report(perks: Iterable[str], where: str = "") -> list[str]:
    """One warning per perk in ``perks`` that no machinery implements yet (never raises).

    Unknown names are reported too, as warnings; use :meth:`PerkCatalog.check_profile_perks`
    to reject them.
    """
    catalog = PerkCatalog.load()
    prefix = f"{where}: " if where else ""
    out: list[str] = []
    for name in perks:
        perk = catalog.find(name)
        if perk is None:
            out.append(f"{prefix}unknown perk {name!r} has no implementation")
        elif perk.name not in _IMPLEMENTED:
            out.append(
                f"{prefix}{perk.kind.value} {perk.name!r} ({perk.rule}) is not implemented yet "
                f"(class {perk.impl_class}); it has no effect in play yet"
            )
    return out
