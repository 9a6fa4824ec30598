"""Collision character cards and battle groups (``003_fc239e71486306e1.txt`` L227-373, L580-617).

A card's front holds the core stats and up to two weapons (EC, Type, W-Att, W-Pow, Reach, Crit,
Special); its back the tarot card, restrictions, race and the effects and abilities (L227-258).
Field names follow the card's labels. Parsing checks each value's type and range and resolves
ability names in the glossary; battle-group limits are checked by
:mod:`warbench.rulesets.collision.validation`, which lists every violation at once.

The printed W-Att and W-Pow are the weapon's final values: the character creation guide, which
computes them from Att and Str (L269-270, L338-340, L361-367), is not in the sources
(docs/rulings.md, Collision 1).
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from warbench.rulesets.collision.glossary import EntryKind, Glossary

#: L301-302: "A character's total endurance can exceed their Endure stat, but cannot go above
#: nine (9)." An Endure stat above 9 could never be reached.
MAX_ENDURANCE = 9
#: L373: "Most characters will have one weapon, but some can have 2 or even none."
MAX_WEAPONS = 2
#: L272-274: "A single character can have 0 - 3 attributes".
MAX_ATTRIBUTES = 3


class WeaponType(StrEnum):
    """L356-359: Mundane, Magic, or one of the elements; never more than one type."""

    MUNDANE = "Mundane"
    MAGIC = "Magic"
    LIGHT = "Light"
    DARK = "Dark"
    FIRE = "Fire"
    COLD = "Cold"
    ELECTRIC = "Electric"
    ACID = "Acid"


class Suit(StrEnum):
    """L348: "The suit (coins, swords, rods, or cups)"."""

    COINS = "coins"
    SWORDS = "swords"
    RODS = "rods"
    CUPS = "cups"


class Arcana(StrEnum):
    """L342-350: Major Arcana (specific characters) and Minor Arcana (customisable units)."""

    MAJOR = "major"
    MINOR = "minor"


class InvalidEntry(ValueError):
    """A value that is not allowed; ``allowed`` says what is (turned into ProfileError)."""

    def __init__(self, value: object, allowed: str) -> None:
        self.value = value
        self.allowed = allowed
        super().__init__(f"{value!r} is not allowed; allowed: {allowed}")


class UnknownAbility(ValueError):
    """An ability name that is not in the glossary (turned into UnknownNameError)."""

    def __init__(self, name: str, known: list[str]) -> None:
        self.name = name
        self.known = known
        super().__init__(f"unknown Collision ability {name!r}")


def _abilities_of(kinds: tuple[EntryKind, ...], label: str) -> Any:
    def check(value: object) -> object:
        if not isinstance(value, list):
            return value
        glossary = Glossary.load()
        out = []
        for item in value:
            from warbench.kernel.errors import UnknownNameError

            try:
                entry, number = glossary.resolve(str(item))
            except UnknownNameError:
                raise UnknownAbility(str(item), glossary.names()) from None
            if entry.kind not in kinds:
                names = ", ".join(k.value for k in kinds)
                raise InvalidEntry(
                    item,
                    f"{label}: glossary entries of kind {names} ({entry.name} is a "
                    f"{entry.kind.value}, {entry.source})",
                )
            out.append(
                entry.name if number is None else f"{entry.name.removesuffix(' X')} {number}"
            )
        return out

    return check


_CRIT_POW = re.compile(r"^(?:W-|S-)?Pow\s*\+\s*(\d+)$", re.IGNORECASE)


def crit_parts(crit: str | None) -> list[str]:
    """The comma-separated effects of a Crit value (``"Stun, Pow+2"``)."""
    if not crit:
        return []
    return [p.strip() for p in crit.split(",") if p.strip()]


def crit_pow_bonus(crit: str | None) -> int:
    """The Pow bonus a Crit value adds to the injury roll (``Pow+2`` -> 2)."""
    total = 0
    for part in crit_parts(crit):
        m = _CRIT_POW.match(part)
        if m:
            total += int(m.group(1))
    return total


def crit_slays(crit: str | None) -> bool:
    """True if the Crit value is Slay (L2173-2174: automatically defeated)."""
    return any(p.lower() == "slay" for p in crit_parts(crit))


def _check_crit(value: object) -> object:
    if value is None or not isinstance(value, str):
        return value
    glossary = Glossary.load()
    for part in crit_parts(value):
        if _CRIT_POW.match(part):
            continue
        from warbench.kernel.errors import UnknownNameError

        try:
            glossary.resolve(part)
        except UnknownNameError:
            raise InvalidEntry(
                part,
                "Pow+N, or effects of the glossary such as Stun, Slay, Poison 2, Hex 1, "
                "Knockback 2 (L281-286), separated by commas",
            ) from None
    return ", ".join(crit_parts(value))


def _reach(value: object) -> object:
    # L326-329: "Ranged weapons can attack enemies outside of their reach at a penalty
    # indicated by a plus (+) after its reach."
    if isinstance(value, str):
        text = value.strip()
        m = re.fullmatch(r"(\d+)\s*(\+?)", text)
        if not m:
            raise InvalidEntry(value, "a whole number of spaces, with + for a ranged weapon (4+)")
        return text
    return value


def _weapon_type(value: object) -> object:
    if isinstance(value, str):
        for t in WeaponType:
            if t.value.lower() == value.strip().lower():
                return t.value
        raise InvalidEntry(
            value, "one type of " + ", ".join(t.value for t in WeaponType) + " (L356-359)"
        )
    return value


Stat = Annotated[int, Field(ge=0, le=99)]


class Weapon(BaseModel):
    """A weapon line of the card (L238-248): name, EC, Type, W-Att, W-Pow, Reach, Crit, Special."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    name: str = Field(min_length=1)
    ec: Annotated[int, Field(ge=0, le=MAX_ENDURANCE, description="Endurance Cost (L291-293)")]
    type: Annotated[WeaponType, BeforeValidator(_weapon_type)] = WeaponType.MUNDANE
    w_att: Annotated[int, Field(ge=-20, le=99, alias="w-att", description="W-Att (L361-363)")]
    w_pow: Annotated[int, Field(ge=-20, le=99, alias="w-pow", description="W-Pow (L365-367)")]
    reach: Annotated[
        str,
        BeforeValidator(_reach),
        Field(pattern=r"^\d+\s*\+?$", description="spaces; a trailing + marks a ranged weapon"),
    ] = "1"
    crit: Annotated[str | None, BeforeValidator(_check_crit)] = None
    # L335-336: "special attributes of the weapon" (Sharp, Multiattack, Ranged, Unstable ...)
    special: Annotated[
        list[str],
        BeforeValidator(
            _abilities_of((EntryKind.EFFECT, EntryKind.STATUS, EntryKind.TERM), "weapon special")
        ),
    ] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _reach_int(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("reach"), int):
            data = dict(data)
            data["reach"] = str(data["reach"])
        return data

    @model_validator(mode="after")
    def _sharp_not_slay(self) -> Weapon:
        # L2140-2141: "Weapons with Sharp cannot have Crit: Slay."
        if "Sharp" in self.special and crit_slays(self.crit):
            raise InvalidEntry(self.crit, "a Crit other than Slay on a Sharp weapon (L2140-2141)")
        return self

    @property
    def reach_spaces(self) -> int:
        """The Reach value in spaces."""
        return int(self.reach.rstrip("+ "))

    @property
    def ranged(self) -> bool:
        """A ranged weapon: Reach with a trailing + (L328-329) or the Ranged special (L2095)."""
        return self.reach.strip().endswith("+") or "Ranged" in self.special

    @property
    def sharp(self) -> bool:
        """Crit on a 9 or 10 (L2140)."""
        return "Sharp" in self.special


class Tarot(BaseModel):
    """The tarot card (L342-350). Minor Arcana: suit and number; Major Arcana: the character."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    arcana: Arcana = Arcana.MINOR
    suit: Suit | None = None
    number: Annotated[
        int | None,
        Field(ge=1, le=14, description="1 (Ace) to 10, Page 11, Knight 12, Queen 13, King 14"),
    ] = None
    name: str | None = Field(default=None, description="the Major Arcana character")

    @model_validator(mode="after")
    def _complete(self) -> Tarot:
        if self.arcana is Arcana.MINOR and (self.suit is None or self.number is None):
            raise InvalidEntry(
                {"suit": self.suit, "number": self.number},
                "a Minor Arcana card has a suit (coins, swords, rods, cups) and a number 1-14",
            )
        if self.arcana is Arcana.MAJOR and not self.name:
            raise InvalidEntry(None, "a Major Arcana card names its character (Virgil, Rhona ...)")
        return self

    @property
    def rank(self) -> int:
        """The character's rank: the Minor Arcana number (docs/rulings.md, Collision 3)."""
        return self.number or 0


class Stats(BaseModel):
    """The core stats (L236, L250): Def, Arm, Tuf, End, Mana, Comm, Move, S-Pow, Att, Str."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    defense: Annotated[int, Field(ge=0, le=99, alias="def", description="Def (L288-289)")]
    armor: Annotated[int, Field(ge=0, le=99, alias="arm", description="Armor (L266-267)")]
    toughness: Annotated[int, Field(ge=1, le=99, alias="tuf", description="Tuf (L352-354)")]
    endure: Annotated[
        int, Field(ge=0, le=MAX_ENDURANCE, alias="end", description="End, at most 9 (L298-302)")
    ]
    mana: Annotated[int, Field(ge=0, le=99, description="Mana tokens at the start (L304-306)")] = 0
    command: Annotated[int, Field(ge=0, le=99, alias="comm", description="Comm (L277-279)")] = 0
    move: Annotated[int, Field(ge=0, le=99, description="Move (L308-314)")]
    s_pow: Annotated[int, Field(ge=0, le=99, alias="s-pow", description="S-Pow (L331-333)")] = 0
    att: Annotated[int, Field(ge=-20, le=99, description="Att (L269-270)")] = 0
    strength: Annotated[int, Field(ge=0, le=99, alias="str", description="Str (L338-340)")] = 0


class Card(BaseModel):
    """A Collision character card (L227-373)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    points: Annotated[int, Field(ge=0, le=10_000, description="points (L321-323)")]
    race: str = Field(min_length=1)
    stats: Stats
    weapons: Annotated[
        list[Weapon], Field(max_length=MAX_WEAPONS, description="at most 2 weapons (L373)")
    ] = Field(default_factory=list)
    tarot: Tarot = Field(description="the tarot card (L342-350)")
    restrictions: list[str] = Field(default_factory=list)
    attributes: Annotated[
        list[str], Field(max_length=MAX_ATTRIBUTES, description="0-3 attributes (L272-274)")
    ] = Field(default_factory=list)
    effects: Annotated[
        list[str],
        BeforeValidator(
            _abilities_of((EntryKind.EFFECT, EntryKind.STATUS, EntryKind.TERM), "effects")
        ),
    ] = Field(default_factory=list, description="glossary effects (L295-296, L1583-2289)")
    abilities: Annotated[
        list[str],
        BeforeValidator(_abilities_of((EntryKind.ACTION, EntryKind.REACTION), "abilities")),
    ] = Field(default_factory=list, description="glossary abilities (L872-899, L1583-2289)")

    def weapon(self, name: str | None = None) -> Weapon:
        """The named weapon, or the first one; raises UnknownNameError."""
        from warbench.kernel.errors import ProfileError, UnknownNameError

        if not self.weapons:
            raise ProfileError(
                "weapons", [], "at least one weapon to make a weapon attack", source=self.name
            )
        if name is None:
            return self.weapons[0]
        for w in self.weapons:
            if w.name.lower() == name.lower():
                return w
        raise UnknownNameError("weapon", name, [w.name for w in self.weapons], where=self.name)


class Member(BaseModel):
    """A card in a battle group and how many copies of it (L607-611)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    card: Card | str = Field(description="the card inline, or a card file relative to the group")
    count: Annotated[int, Field(ge=1, le=100)] = 1


class BattleGroup(BaseModel):
    """A player's battle group for a pick-up game (L580-617)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    points_limit: Annotated[int, Field(ge=1, le=100_000, description="the game's point limit")]
    characters: Annotated[list[Member], Field(min_length=1)]

    def cards(self) -> list[tuple[Card, int]]:
        """The resolved cards with their counts (file paths are resolved when loading)."""
        out = []
        for m in self.characters:
            if not isinstance(m.card, Card):
                raise TypeError("battle group loaded without resolving card files")
            out.append((m.card, m.count))
        return out
