"""Hypothesis strategies for random (not necessarily legal) rosters."""

from __future__ import annotations

from hypothesis import strategies as st

from warbench.rulesets.warsurge.perks import PerkCatalog, PerkKind
from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile
from warbench.rulesets.warsurge.roster import Roster, RosterEntry, RosterPerk

_CAT = PerkCatalog.load()
UNIT_PERKS = [p.name for p in _CAT if p.kind in (PerkKind.UNIT_PERK, PerkKind.TRAIT)]
WEAPON_PERKS = [p.name for p in _CAT.of_kind(PerkKind.WEAPON_PERK)]
TRAITS = [p.name for p in _CAT.of_kind(PerkKind.TRAIT)]
ROSTER_PERKS = [p.name for p in _CAT.of_kind(PerkKind.ROSTER_PERK)]

names = st.text(alphabet=st.sampled_from("abcXYZ éß'-:#0 "), min_size=1, max_size=12).filter(
    lambda s: s == s.strip() and s != ""
)
saves = st.none() | st.integers(2, 6)


@st.composite
def weapons(draw: st.DrawFn, name: str) -> WeaponProfile:
    return WeaponProfile(
        name=name,
        range=draw(st.integers(0, 300)),
        attacks=draw(st.integers(1, 30)),
        power=draw(st.integers(0, 10)),
        ap=draw(saves),
        type=draw(st.sampled_from(["Heavy", "Battle", "Assault"])),
        deflect=draw(st.integers(0, 5)),
        ward=draw(st.integers(0, 5)),
        parry=draw(st.integers(0, 5)),
        perks=draw(st.lists(st.sampled_from(WEAPON_PERKS), max_size=3, unique=True)),
        lore=draw(st.sampled_from(["", "Forged in: the deep"])),
    )


@st.composite
def units(draw: st.DrawFn) -> Unit:
    transport = draw(st.sampled_from([0, 0, 150, 9999]))
    profile = UnitProfile(
        name=draw(names),
        move=draw(st.integers(0, 50)),
        dash=draw(st.integers(0, 50)),
        defence=draw(st.integers(0, 10)),
        hp=draw(st.integers(1, 99)),
        armour=draw(saves),
        aegis=draw(saves),
        transport=transport,
        fire_points=draw(st.integers(0, 99)) if transport else 0,
        perks=draw(st.lists(st.sampled_from(UNIT_PERKS), max_size=3, unique=True)),
        symbol=draw(st.sampled_from(["", "skull"])),
    )
    wnames = draw(st.lists(names, max_size=3, unique=True))
    ws = [draw(weapons(n)) for n in wnames]
    groups = draw(
        st.lists(
            st.builds(
                ModelGroup,
                count=st.integers(1, 500),
                weapons=st.lists(st.sampled_from(wnames), unique=True) if wnames else st.just([]),
            ),
            min_size=1,
            max_size=3,
        )
    )
    return Unit(profile=profile, weapons=ws, models=groups)


@st.composite
def rosters(draw: st.DrawFn, max_units: int = 4) -> Roster:
    entry_names = draw(st.lists(names, max_size=max_units))
    other = st.none() | st.sampled_from(entry_names) if entry_names else st.none()
    entries = [
        RosterEntry(
            name=n,
            unit=draw(units()),
            traits=draw(st.lists(st.sampled_from(TRAITS), max_size=2, unique=True)),
            embarked_in=draw(other),
            link=draw(st.none() | st.just("pair")),
            designations=draw(
                st.dictionaries(
                    st.sampled_from(["Controlled", "Transport Link"]), names, max_size=1
                )
            ),
        )
        for n in entry_names
    ]
    perks = draw(
        st.lists(st.builds(RosterPerk, perk=st.sampled_from(ROSTER_PERKS), unit=other), max_size=3)
    )
    return Roster(
        name=draw(names),
        point_limit=draw(st.integers(1, 1_000_000)),
        points_model=draw(st.sampled_from(["", "ws-points-1"])),
        roster_perks=perks,
        units=entries,
        notes=draw(st.sampled_from(["", "line one\nline two: yes"])),
    )
