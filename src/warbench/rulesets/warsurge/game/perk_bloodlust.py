"""Bloodlust (Perks 000_94ecc6a4c74d351b.txt L2919): a Weapon that "contributed any HP Loss"
to a Target gains +1 Attack when that Target Unit is removed as a casualty. Moved out of
:mod:`.perk_hooks`, which registers these hooks."""

from __future__ import annotations

from warbench.rulesets.warsurge.effects.statuses import Marker, add_marker
from warbench.rulesets.warsurge.effects.table import load_table
from warbench.rulesets.warsurge.game import perk_index
from warbench.rulesets.warsurge.game.perk_effects import markers_of, statuses_of
from warbench.rulesets.warsurge.game.work import Work


def _bloodlust_key(attacker: int, weapon: str) -> str:
    return f"bloodlust u{attacker}/{weapon}"


def on_hp(work: Work, unit: int, amount: int, source: str, attacker: int | None) -> None:
    """Bloodlust (L2919): remember on the Target that this weapon "contributed any HP Loss"."""
    if attacker is None or amount <= 0:
        return
    if "Bloodlust" not in perk_index.weapon_perks(work, attacker, source):
        return
    key = _bloodlust_key(attacker, source)
    if not work.units[unit].counter(key):
        work.units[unit] = work.units[unit].with_counter(key, 1)
        work.dirty = True


def on_casualty(work: Work, unit: int, model: int, source: str) -> None:
    """Bloodlust (L2919): "the User gains +1 Attack to this Weapon when the Target Unit is
    removed as a casualty" (once per Target unit, for the rest of the game; a status
    ``Bloodlust@Weapon`` from that Target, so kills stack)."""
    u = work.units[unit]
    if u.living() or not u.counters:
        return
    for name, value in u.counters:
        if not value or not name.startswith("bloodlust u"):
            continue
        uid_text, _, weapon = name.removeprefix("bloodlust u").partition("/")
        killer = int(uid_text)
        if not work.units[killer].living():
            continue
        marker = Marker(f"Bloodlust@{weapon}", f"u{unit}", None)
        statuses = add_marker(markers_of(work.units[killer].statuses), marker)
        work.set_unit(killer, statuses=statuses_of(statuses))
        work.units[unit] = work.units[unit].with_counter(name, 0)
        work.emit("perk", f"{work.label(killer)}: Bloodlust, {weapon} +1 Attack "
                  f"({work.label(unit)} slain)", load_table().get("Bloodlust").source, unit=killer,
                  perk="Bloodlust")  # fmt: skip
