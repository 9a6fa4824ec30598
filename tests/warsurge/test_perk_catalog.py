"""The perk catalog (Book 2 000_94ecc6a4c74d351b.txt §12.4 Unit Perks, §12.5 Weapon Perks,
§12.6 Traits and Roster Perks)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from warbench.kernel.errors import ProfileError, UnknownNameError
from warbench.rulesets.warsurge import perks as perks_mod
from warbench.rulesets.warsurge.perks import (
    PerkCatalog,
    PerkKind,
    register_implemented,
    unimplemented_report,
)

BOOK = Path("/work/shared/seeds/000_94ecc6a4c74d351b.txt")


@pytest.fixture
def catalog() -> PerkCatalog:
    return PerkCatalog.load()


@pytest.fixture
def no_implementations(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(perks_mod, "_IMPLEMENTED", {})
    yield


def test_s12_catalog_holds_every_perk_rank_of_book_2(catalog: PerkCatalog) -> None:
    assert len(catalog) == 386
    counts = Counter(p.kind for p in catalog)
    assert counts == {
        PerkKind.UNIT_PERK: 188,
        PerkKind.WEAPON_PERK: 175,
        PerkKind.TRAIT: 6,
        PerkKind.ROSTER_PERK: 17,
    }
    assert len(set(catalog.names)) == 386
    assert len(catalog.of_kind("Trait")) == 6


def test_s12_load_is_cached() -> None:
    assert PerkCatalog.load() is PerkCatalog.load()


@pytest.mark.parametrize(
    ("kind", "section"),
    [
        (PerkKind.UNIT_PERK, "12.4"),
        (PerkKind.WEAPON_PERK, "12.5"),
        (PerkKind.TRAIT, "12.6"),
        (PerkKind.ROSTER_PERK, "12.6"),
    ],
)
def test_s12_every_perk_cites_its_section_and_line(
    catalog: PerkCatalog, kind: PerkKind, section: str
) -> None:
    for p in catalog.of_kind(kind):
        assert p.section == section
        assert p.rule.startswith(f"Book 2 §{section} ")
        assert "000_94ecc6a4c74d351b.txt line " in p.rule
        assert p.impl_class in "ABCDEF"
        assert p.activation


@pytest.mark.skipif(not BOOK.exists(), reason="rulebook text not available")
def test_s12_every_rule_line_starts_with_the_perk_name(catalog: PerkCatalog) -> None:
    lines = BOOK.read_text(encoding="utf-8").split("\n")
    for p in catalog:
        n = int(p.rule.rsplit(" ", 1)[1])
        assert lines[n - 1].startswith(p.name.split()[0]), p.name


def test_s12_5_destroy_i_entry_matches_the_book(catalog: PerkCatalog) -> None:
    p = catalog.get("Destroy I")
    assert p.kind is PerkKind.WEAPON_PERK
    assert (p.base_name, p.rank, p.family) == ("Destroy", "I", "Offensive")
    assert p.activation == ("HP Loss",)
    assert p.rule == "Book 2 §12.5 Weapon Perks, 000_94ecc6a4c74d351b.txt line 3646"
    assert p.impl_class == "A"


def test_s12_4_evasive_entry_matches_the_book(catalog: PerkCatalog) -> None:
    p = catalog.get("Evasive")
    assert p.kind is PerkKind.UNIT_PERK
    assert p.is_passive
    assert p.family == "Defensive"
    assert p.rule.endswith("line 1521")


def test_s12_6_presence_roster_perks_need_no_designation(catalog: PerkCatalog) -> None:
    # Override in scripts/build_perk_catalog.py: the book does not designate a Presence unit.
    for name in ("Fleeting", "Protective", "Shielding", "Swift"):
        p = catalog.get(name)
        assert p.kind is PerkKind.ROSTER_PERK
        assert not any("designated" in r for r in p.requires)


@pytest.mark.parametrize(
    ("written", "name"),
    [
        ("destroy 1", "Destroy I"),
        ("Destroy I", "Destroy I"),
        ("DESTROY iii", "Destroy III"),
        ("+Power I", "+Power I (D3)"),
        ("+Power I (D3)", "+Power I (D3)"),
        ("+ power 2", "+Power II (D6)"),
        ("Aim 4", "Aim 4+"),
        ("aim 4+", "Aim 4+"),
        ("  Evasive ", "Evasive"),
        ("no line of sight 2", "No Line of Sight II"),
    ],
)
def test_s12_2_perk_names_are_read_tolerantly(
    catalog: PerkCatalog, written: str, name: str
) -> None:
    assert catalog.get(written).name == name
    assert written in catalog


def test_s12_2_unknown_perk_suggests_the_closest_name(catalog: PerkCatalog) -> None:
    with pytest.raises(UnknownNameError) as err:
        catalog.get("Destory I")
    assert err.value.suggestions[0] == "Destroy I"
    assert "did you mean 'Destroy I'" in str(err.value)
    assert catalog.find("Destory I") is None


def test_s12_by_class_splits_the_catalog(catalog: PerkCatalog) -> None:
    sizes = {c: len(catalog.by_class(c)) for c in "ABCDEF"}
    assert sum(sizes.values()) == 386
    assert catalog.get("Destroy I") in catalog.by_class("a")


def test_s12_4_unit_profile_takes_unit_perks_and_traits(catalog: PerkCatalog) -> None:
    got = catalog.check_profile_perks(["evasive", "Concealed"], PerkKind.UNIT_PERK, "u.yaml")
    assert [p.name for p in got] == ["Evasive", "Concealed"]


def test_s12_5_weapon_perk_on_a_unit_is_rejected(catalog: PerkCatalog) -> None:
    with pytest.raises(ProfileError) as err:
        catalog.check_profile_perks(
            ["Evasive", "Destroy I"], PerkKind.UNIT_PERK, "u.yaml", field="unit.perks"
        )
    e = err.value
    assert (e.source, e.field, e.value) == ("u.yaml", "unit.perks[1]", "Destroy I")
    assert "is a Weapon Perk (Book 2 §12.5)" in str(e)
    assert "weapon profile" in str(e)


def test_s12_4_unit_perk_on_a_weapon_is_rejected(catalog: PerkCatalog) -> None:
    with pytest.raises(ProfileError, match=r"Evasive is a Unit Perk \(Book 2 §12\.4\)"):
        catalog.check_profile_perks(["Evasive"], PerkKind.WEAPON_PERK, "w.yaml")


def test_s12_6_roster_perk_on_a_unit_is_rejected(catalog: PerkCatalog) -> None:
    with pytest.raises(ProfileError, match="Roster"):
        catalog.check_profile_perks(["Avenge"], PerkKind.UNIT_PERK)


def test_s12_2_same_perk_twice_is_rejected(catalog: PerkCatalog) -> None:
    with pytest.raises(ProfileError, match="already listed"):
        catalog.check_profile_perks(["Destroy I", "destroy 1"], PerkKind.WEAPON_PERK)


def test_s12_2_unknown_perk_on_a_profile_names_where(catalog: PerkCatalog) -> None:
    with pytest.raises(UnknownNameError, match=r"^u\.yaml, perks\[0\]: unknown perk"):
        catalog.check_profile_perks(["Destory I"], PerkKind.WEAPON_PERK, "u.yaml")


@pytest.mark.usefixtures("no_implementations")
def test_s12_unimplemented_perks_are_reported_not_raised(catalog: PerkCatalog) -> None:
    warnings = unimplemented_report(["Destroy I", "Evasive", "Nonsense"], "u.yaml")
    assert len(warnings) == 3
    assert warnings[0].startswith("u.yaml: Weapon Perk 'Destroy I' (Book 2 §12.5")
    register_implemented(["destroy 1", "Evasive"], "attack")
    assert catalog.implemented == {"Destroy I", "Evasive"}
    assert catalog.implementation_of("Destroy I") == "attack"
    assert unimplemented_report(["Destroy I", "Evasive"]) == []


@pytest.mark.usefixtures("no_implementations")
def test_s12_registration_checks_names_and_owners() -> None:
    with pytest.raises(UnknownNameError):
        register_implemented(["Destory I"], "attack")
    register_implemented(["Destroy I"], "attack")
    register_implemented(["Destroy I"], "attack")
    with pytest.raises(ValueError, match="already implemented by 'attack'"):
        register_implemented(["Destroy I"], "geometry")


@pytest.mark.parametrize(
    ("bracket", "user", "target", "met"),
    [
        ("Greater", 100, 100, True),  # "equal or higher"
        ("Greater", 100, 100.5, True),
        ("Greater", 100, 99.5, False),
        ("Lesser", 100, 100, True),  # "equal or less"
        ("Lesser", 100, 99.5, True),
        ("Lesser", 100, 100.5, False),
        ("Greater", None, 100, False),  # an unknown cost never meets the term
        ("Lesser", 100, None, False),
    ],
)
def test_s12_2_point_cost_greater_is_equal_or_higher_lesser_equal_or_less(
    bracket: str, user: float | None, target: float | None, met: bool
) -> None:
    # 000_94ecc6a4c74d351b.txt L321-323 (docs/rulings.md 27).
    assert perks_mod.point_cost_met(bracket, user, target) is met


def test_get_of_kind_suggests_perks_of_that_kind_and_names_the_right_section() -> None:
    cat = perks_mod.PerkCatalog.load()
    assert cat.get_of_kind("respawn", "Trait").name == "Respawn"
    with pytest.raises(UnknownNameError, match="unknown Trait 'Respwan'; did you mean 'Respawn'"):
        cat.get_of_kind("Respwan", "Trait")
    with pytest.raises(ProfileError, match=r"Tough is a Unit Perk \(Book 2 §12.4\)"):
        cat.get_of_kind("Tough", "Trait")
    with pytest.raises(UnknownNameError, match="did you mean 'Inspiring'"):
        cat.get_of_kind("Inspirng", "Roster Perk")


def test_find_by_the_book_name_is_the_tolerant_lookup_s12() -> None:
    """The fast path of ``find`` (a book name's lower case) answers as the tolerant lookup."""
    from warbench.rulesets.warsurge.perks import _key_variants

    catalog = PerkCatalog.load()
    for perk in catalog:
        for written in (perk.name, perk.name.upper(), perk.name.lower()):
            tolerant = next(
                (catalog._by_key[k] for k in _key_variants(written) if k in catalog._by_key), None
            )
            assert catalog.find(written) is tolerant is perk
