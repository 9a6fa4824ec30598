"""Perk hooks fired per set-up (issue 10, session 28): a hook registered with ``perks`` runs
only in the games whose set-up names one of them (``setup_perks.named_perks``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.effects.table import load_table
from warbench.rulesets.warsurge.game import Field, build_setup
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS, Hook, HookRegistry
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.setup_perks import named_perks
from warbench.rulesets.warsurge.game.state import GameSetup, RosterEntry
from warbench.rulesets.warsurge.game.work import Work

ROSTERS = Path("examples/warsurge/rosters")


def _setup(*, unit_perks: tuple[str, ...] = (), weapon_perks: tuple[str, ...] = (),
           traits: tuple[str, ...] = ()) -> GameSetup:  # fmt: skip
    """The skirmish pair, the first unit of the first roster given these perks."""
    a, b = (load_game_roster(ROSTERS / n) for n in ("skirmish_a.yaml", "skirmish_b.yaml"))
    entry = a.roster[0]
    unit = entry.unit
    if unit_perks:
        profile = unit.profile.model_copy(update={"perks": [*unit.profile.perks, *unit_perks]})
        unit = unit.model_copy(update={"profile": profile})
    if weapon_perks:
        w0 = unit.weapons[0].model_copy(update={"perks": [*unit.weapons[0].perks, *weapon_perks]})
        unit = unit.model_copy(update={"weapons": [w0, *unit.weapons[1:]]})
    first: RosterEntry = replace(entry, unit=unit, traits=(*entry.traits, *traits))
    a = replace(a, roster=(first, *a.roster[1:]))
    return build_setup([a, b], Field(sample_board("ruins_48x48")))


def test_named_perks_reads_profiles_weapons_and_traits() -> None:
    plain = named_perks(_setup())
    assert "Stealth" not in plain and "Fast" not in plain and "Concealed" not in plain
    assert "Stealth" in named_perks(_setup(unit_perks=("Stealth",)))
    assert "Fast" in named_perks(_setup(weapon_perks=("Fast",)))
    assert "Concealed" in named_perks(_setup(traits=("Concealed",)))
    assert "Destroy I" in named_perks(_setup(weapon_perks=("Destroy 1",)))  # the catalog's name


def test_a_hook_with_perks_fires_only_where_the_setup_names_one() -> None:
    calls: list[str] = []

    def first(work: Work, turn: int) -> None:
        calls.append("first")

    def stealthy(work: Work, turn: int) -> None:
        calls.append("stealthy")

    def last(work: Work, turn: int) -> None:
        calls.append("last")

    reg = HookRegistry()
    reg.register(Hook.TURN_END, first)
    reg.register(Hook.TURN_END, stealthy, perks=["Stealth", "Reflect I"])
    reg.register(Hook.TURN_END, last)
    for setup, want in (
        (_setup(), ["first", "last"]),
        (_setup(unit_perks=("Stealth",)), ["first", "stealthy", "last"]),
        (_setup(unit_perks=("Reflect I",)), ["first", "stealthy", "last"]),
    ):
        calls.clear()
        assert [n for n, _ in reg.fired(setup)[Hook.TURN_END]] == want
        reg.fire(Hook.TURN_END, SimpleNamespace(setup=setup), turn=1)  # type: ignore[arg-type]
        assert calls == want


def test_registering_later_is_seen_by_a_setup_fired_before() -> None:
    reg = HookRegistry()
    setup = _setup()
    assert reg.fired(setup) == {}
    reg.register(Hook.TURN_START, lambda work, turn: None, "late")
    assert [n for n, _ in reg.fired(setup)[Hook.TURN_START]] == ["late"]


def test_every_declared_perk_is_a_perk_of_the_effects_table() -> None:
    """A misspelt name would never be named by a set-up, so its hook would never run."""
    table = load_table()
    declared = {p for need in DEFAULT_HOOKS.needs.values() for p in need}
    assert len(DEFAULT_HOOKS.needs) >= 30
    for perk in sorted(declared):
        row = table.find(perk)
        assert row is not None and row.name == perk, perk


def test_a_game_without_perks_fires_none_of_the_declared_hooks() -> None:
    fired = DEFAULT_HOOKS.fired(_setup())
    kept = {(hook, name, fn) for hook, impls in fired.items() for name, fn in impls}
    assert not kept & set(DEFAULT_HOOKS.needs)
    everything = {(h, n, f) for h, impls in DEFAULT_HOOKS.impls.items() for n, f in impls}
    # nor those whose set-up question finds no unit with the perk (session 37)
    assert kept == everything - set(DEFAULT_HOOKS.needs) - set(DEFAULT_HOOKS.whens)
