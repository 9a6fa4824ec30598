"""The perk hooks declared with their perks in session 34 (issue 10, s34-speeda): each fires in
a game whose set-up names one of its perks and in no game without them, and a game without
perks fires no hook at an HP loss, on a weapon's Attack Dice or after a weapon's use.

Each declaration is its hook's own reading (docs/game.md, the sixteenth pass): the hook acts
only through the set-up's index of that perk. ``test_hook_perks_differential.py`` plays
perk-heavy games with every hook fired and with the declared ones, and compares them. Residue
and Vortex's hooks stay undeclared: their tests lay a template as a status on a unit whose Weapon
has neither perk (``test_s25_lead_trait_perks.py``)."""

from __future__ import annotations

import pytest

from tests.warsurge.game.test_hook_perks import _setup
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS, Hook

#: (hook, its name) -> a set-up naming one of its perks: (where the perk is written, the perk)
GATED: dict[tuple[Hook, str], tuple[str, str]] = {
    (Hook.HP_LOST, "Traitorous (Advanced, no Saves)"): ("unit", "Traitorous"),
    (Hook.HP_LOST, "Implant: a Seed unit is in the host"): ("unit", "Seed I"),
    (Hook.HP_LOST, "Implant: a Seed II unit is in the host"): ("unit", "Seed II"),
    (Hook.HP_LOST, "Bloodlust: HP Loss"): ("weapon", "Bloodlust"),
    (Hook.CASUALTY, "Bloodlust: slain"): ("weapon", "Bloodlust"),
    (Hook.HP_LOST, "Ignite: its Power grows"): ("weapon", "Ignite II"),
    (Hook.HP_LOST, "Counter"): ("weapon", "Counter"),
    (Hook.CASUALTY, "Self-Destruct"): ("weapon", "Self-Destruct"),
    (Hook.CASUALTY, "Kamikaze"): ("unit", "Kamikaze"),
    (Hook.HP_LOST, "Avenge, Despair"): ("unit", "Despair"),
    (Hook.HP_LOST, "HP Steal"): ("weapon", "HP Steal"),
    (Hook.HP_LOST, "Imprison: a Target costing more disembarks"): ("unit", "Imprison"),
    (Hook.PHASE_END, "Imprison: who stays inside"): ("unit", "Imprison"),
    (Hook.PHASE_START, "Imprison: the engine's use"): ("unit", "Imprison"),
    (Hook.PHASE_START, "activated perks (auto)"): ("unit", "Regenerate"),
    (Hook.HP_LOST, "perk afflictions"): ("weapon", "Concussive"),
    (Hook.ATTACK_DICE, "perk afflictions, Attack Dice"): ("weapon", "Concussive"),
    (Hook.HP_LOST, "HP Loss noted (by HP, Pain Locked)"): ("unit", "Deteriorate"),
    (Hook.WEAPON_USED, "uses, by HP"): ("weapon", "Recharge I"),
}


def _names(setup: object, hook: Hook) -> list[str]:
    return [name for name, _ in DEFAULT_HOOKS.fired(setup).get(hook, ())]


@pytest.mark.parametrize(("key", "where"), list(GATED.items()), ids=lambda x: str(x))
def test_each_hook_fires_where_its_perk_is_named_and_not_without(
    key: tuple[Hook, str], where: tuple[str, str]
) -> None:
    hook, name = key
    declared = {(h, n) for h, n, _ in DEFAULT_HOOKS.needs}
    assert (hook, name) in declared, f"{name} is not declared with its perks"
    kind, perk = where
    named = _setup(unit_perks=(perk,)) if kind == "unit" else _setup(weapon_perks=(perk,))
    assert name in _names(named, hook)
    assert name not in _names(_setup(), hook)


def test_a_game_without_perks_fires_nothing_at_an_hp_loss_or_a_weapon_s_use() -> None:
    plain = _setup()
    for hook in (Hook.HP_LOST, Hook.ATTACK_DICE, Hook.WEAPON_USED):
        assert _names(plain, hook) == [], hook
