"""What the table says for one unit at one moment: its Stats, immunities, what it inflicts.

Game-agnostic: a unit is described by the names of its perks (profile, Traits, a weapon's)
and its :class:`~.statuses.Marker` list; the game adapter (``game/perk_effects.py``) turns its
own state into these and back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from warbench.kernel.dice import Dice
from warbench.rulesets.warsurge.effects.algebra import Combined, armour_save, combine
from warbench.rulesets.warsurge.effects.model import (
    Effect,
    EffectKind,
    Modifier,
    Op,
    PerkEffects,
    PerkTest,
    Quantity,
    TargetKind,
    TestSpec,
    Trigger,
)
from warbench.rulesets.warsurge.effects.rolls import Outcome, run_test
from warbench.rulesets.warsurge.effects.statuses import Marker, active, add_marker
from warbench.rulesets.warsurge.effects.table import EffectTable, load_table
from warbench.rulesets.warsurge.profiles import Unit, UnitProfile, WeaponProfile

__all__ = [
    "Infliction",
    "adjusted_profiles",
    "converts",
    "immunities",
    "inflict_on_hp_loss",
    "marker_modifiers",
    "restore_amount",
    "split_scope",
    "stat",
    "turn_end_loss",
    "unit_under",
]

#: (the tests of one perk, a roll of one again by its label, what they are) -> as they stand
Settle = Callable[[list[Outcome], Callable[[str], Outcome], str], list[Outcome]]


def _rows(names: Iterable[str], table: EffectTable) -> list[PerkEffects]:
    out = []
    for n in names:
        row = table.find(n)
        if row is not None:
            out.append(row)
    return out


def immunities(perks: Iterable[str], table: EffectTable | None = None) -> frozenset[str]:
    """Statuses and perks the unit with these perks ignores (Fire Resist I: Burn, Ignite)."""
    t = table or load_table()
    out: set[str] = set()
    for row in _rows(perks, t):
        for e in row.effects:
            if e.kind is EffectKind.IMMUNE:
                out.update(e.names)
    return frozenset(out)


#: A status that changes one weapon only is named ``Status@Weapon`` (Bloody, Escalate, Wane:
#: "the Weapon gains …"); every other status changes the whole unit.
WEAPON_SCOPE = "@"


def split_scope(name: str) -> tuple[str, str]:
    """``("Bloody", "Gun")`` for ``"Bloody@Gun"``; ``(name, "")`` for a unit-wide status."""
    base, _, weapon = name.partition(WEAPON_SCOPE)
    return base, weapon


def marker_modifiers(
    markers: Iterable[Marker], table: EffectTable | None = None, *, weapon: str | None = None
) -> list[Modifier]:
    """The modifiers of the active markers, each with its marker's source (so different
    sources stack and the same source counts once). A weapon-scoped marker (``Wane@Gun``)
    counts only for ``weapon``; with ``weapon=None`` only unit-wide markers count."""
    t = table or load_table()
    out: list[Modifier] = []
    for m in active(markers):
        base, scope = split_scope(m.name)
        if scope and scope != weapon:
            continue
        out.extend(_sourced(t, base, m.source))
    return out


_SOURCED: dict[tuple[int, str, str], tuple[Modifier, ...]] = {}


def _sourced(table: EffectTable, status: str, source: str) -> tuple[Modifier, ...]:
    """The modifiers of ``status`` with ``source`` set (memoised: the game reads them at every
    Stat of every unit under a status)."""
    key = (id(table), status, source)
    hit = _SOURCED.get(key) if table is load_table() else None
    if hit is None:
        from dataclasses import replace

        e = table.statuses().get(status)
        hit = () if e is None else tuple(replace(mod, source=source) for mod in e.modifiers)
        if table is load_table():  # only the packaged table lives for the whole process
            if len(_SOURCED) > 50_000:
                _SOURCED.clear()
            _SOURCED[key] = hit
    return hit


def stat(
    quantity: Quantity,
    base: int,
    markers: Iterable[Marker] = (),
    extra: Iterable[Modifier] = (),
    table: EffectTable | None = None,
) -> Combined:
    """``base`` of ``quantity`` under the unit's active markers and any ``extra`` modifiers,
    combined by the one algebra (:func:`~.algebra.combine`)."""
    mods = [*marker_modifiers(markers, table), *extra]
    return combine(quantity, base, mods)


@dataclass(frozen=True, slots=True)
class Infliction:
    """One HP-Loss affliction tried on a target: the rank, its status effect, the test rolled
    (if any) and whether the status took hold (``blocked``: the target is immune)."""

    perk: str
    effect: Effect
    test: Outcome | None
    landed: bool
    blocked: bool = False


def inflict_on_hp_loss(
    weapon_perks: Sequence[str],
    hp_lost: int,
    target_markers: Sequence[Marker],
    target_immune: frozenset[str],
    source: str,
    dice: Dice,
    *,
    test_modifier: int = 0,
    table: EffectTable | None = None,
    trigger: Trigger = Trigger.HP_LOSS,
    auto_fail: bool = False,
    rescue: Callable[[str], bool] | None = None,
    settle: Settle | None = None,
) -> tuple[tuple[Marker, ...], list[Infliction]]:
    """The statuses a weapon's HP-Loss perks put on a target that lost ``hp_lost`` HP.

    A perk with a Skill Test (or D6) tests once per HP lost and takes hold if any passes
    (§12.1 L119-L121, Example 3: "3 HP Loss with an affliction … that requires a Skill Test
    will test three times. The successful effects will stack if applicable (some Perk effects
    do not stack, but the tests will)"); a marker from the same source is refreshed, not
    doubled (:func:`~.statuses.add_marker`). An immune target gains nothing and rolls nothing.
    With ``trigger=Trigger.ATTACK_DICE`` (Blind II, Concussive, Cripple II: "successful Attack
    Dice … trigger the Skill Test") ``hp_lost`` is the number of successful Attack Dice, one
    test each (docs/rulings.md, perks in play 11). ``auto_fail``: the attacker is under Fugue
    (L2716), its Skill Tests fail unrolled. ``rescue(test)``: asked when every Skill Test of a
    perk failed (rolled), whether the attacker pays to pass it (Offering, Sacrifice: L871,
    L1017). ``settle(tests, roll, what)``: the tests of one perk as they stand after the
    players' rerolls and denials (Lucky, Jinx, Architect of Destiny, Deny: ``game.perk_reroll``;
    ``roll(label)`` rolls one again). Returns the new markers and what happened, in perk order.
    """
    t = table or load_table()
    markers = tuple(target_markers)
    log: list[Infliction] = []
    if hp_lost <= 0:
        return markers, log
    for row in _rows(weapon_perks, t):
        if trigger not in row.triggers:
            continue
        for e in row.effects:
            if e.kind is not EffectKind.STATUS or e.target.kind is TargetKind.SELF:
                continue  # a status on the weapon's own User (Bloodlust) is not inflicted
            if e.status in target_immune or row.name in target_immune:
                log.append(Infliction(row.name, e, None, False, blocked=True))
                continue
            outcome: Outcome | None = None
            landed = True
            test = next((s for s in row.tests if s.kind in (PerkTest.SKILL, PerkTest.D6)), None)
            if test is not None:
                fails = auto_fail and test.kind is PerkTest.SKILL

                def roll(label: str, test: TestSpec = test, fails: bool = fails) -> Outcome:
                    return run_test(dice, test, test_modifier, auto_fail=fails, label=label)

                tests = [roll(f"{row.name} test") for _ in range(hp_lost)]
                if settle is not None:
                    tests = settle(tests, roll, f"{row.name} test")
                outcome = tests[-1]
                landed = any(o.passed for o in tests)
                if not landed and rescue is not None and test.kind is PerkTest.SKILL:
                    landed = not auto_fail and rescue(f"{row.name} test")
            if landed:
                stacks = all(m.stacks for m in e.modifiers)
                markers = add_marker(
                    markers, Marker(e.status, source, e.turns, e.delay), stacks=stacks
                )
            log.append(Infliction(row.name, e, outcome, landed))
    return markers, log


def turn_end_loss(marker: Marker, dice: Dice, table: EffectTable | None = None) -> int:
    """The HP a marker costs its unit at the end of a Game Turn (Burn 1, Poison D3), rolled on
    ``dice``; 0 for a marker with no end-of-turn effect."""
    t = table or load_table()
    e = t.statuses().get(marker.name)
    if e is None or not e.each_turn_end:
        return 0
    return dice.roll(e.each_turn_end, f"{marker.name} (end of Game Turn)")


def acts_at_turn_end(table: EffectTable | None = None) -> frozenset[str]:
    """The statuses with an end-of-turn effect."""
    t = table or load_table()
    return frozenset(n for n, e in t.statuses().items() if e.each_turn_end)


def clear_markers(markers: Sequence[Marker], effect: Effect) -> tuple[Marker, ...]:
    """``markers`` without those a CLEAR effect names (Cure I: the Affliction family, delayed
    ones too, L717)."""
    gone = set(effect.names)
    return tuple(m for m in markers if m.name not in gone)


def use_refusal(
    row: PerkEffects, *, used_in_game: int, used_this_turn: int, advanced: bool = False
) -> str | None:
    """Why the User may not use the perk now, or ``None``.

    Limited Use (x) is x per game (L283; a failed activation does not count, so callers count
    only uses that took effect). In the Standard playstyle an activated perk is used once per
    Game Turn (§12.2 L227); in the Advanced one it may be used again for more CP (L229).
    """
    limit = row.uses.per_game
    if limit is not None and used_in_game >= limit:
        times = "once" if limit == 1 else f"{limit} times"
        return f"{row.name} may be used {times} per game ({row.source}, Limited Use)"
    per_turn = row.uses.per_turn
    if not advanced and per_turn is not None and used_this_turn >= per_turn:
        return (
            f"{row.name} was already used this Game Turn (Standard: a perk once per Game Turn, "
            "000_94ecc6a4c74d351b.txt §12.2 L227)"
        )
    return None


def _save(value: int | None, delta: int) -> int | None:
    return armour_save(value, stat_changes=delta).stat


def _armour(value: int | None, mods: Sequence[Modifier]) -> int | None:
    """The Armour Save under its modifiers: a set (Wild Armour L1803: "The result is the User's
    Armour Stat") replaces the Stat first (the last set wins, §12.1's order), then the Stat
    changes apply (Magic Armour +1 on a Wild Armour 4+: 3+)."""
    mine = [m for m in mods if m.quantity is Quantity.ARMOUR]
    sets = [m for m in mine if m.op is Op.SET]
    if sets:
        value = int(sets[-1].value)
        mine = [m for m in mine if m.op is not Op.SET]
    return _save(value, combine(Quantity.ARMOUR, 0, mine, floor=None).value)


def granted_perks(markers: Iterable[Marker], table: EffectTable | None = None) -> tuple[str, ...]:
    """Perks a unit has while a status lasts (a status effect's ``names``: Wild Armour's 1 gives
    Reinforced, "failed Armour Saves can be rerolled", L1803), in marker order."""
    t = table or load_table()
    out: list[str] = []
    for m in active(markers):
        e = t.statuses().get(split_scope(m.name)[0])
        if e is not None and e.names:
            out.extend(n for n in e.names if n not in out)
    return tuple(out)


def adjusted_profiles(
    profile: UnitProfile,
    weapons: Mapping[str, WeaponProfile],
    markers: Iterable[Marker],
    table: EffectTable | None = None,
) -> tuple[UnitProfile, dict[str, WeaponProfile]] | None:
    """A unit's profile and weapon profiles under its markers, or ``None`` when nothing changes.

    Defence, Armour and AEGIS of the profile, Power, AP and Attacks of every weapon, each by
    :func:`~.algebra.combine` (§12.1 order). Armour, AEGIS and AP changes are Stat changes
    (§12.1 L205: seen by AP): a save worsened past 6+ is lost, one improved stops at 2+. The
    game (``work.to_unit_state``) and exact odds (:func:`unit_under`) both read a unit's
    statuses through this one function, so a Pulverised target has the same odds in both.
    """
    markers = list(markers)
    mods = marker_modifiers(markers, table)
    scoped = {split_scope(m.name)[1] for m in markers} - {""}
    granted = granted_perks(markers, table)
    if not mods and not scoped and not granted:
        return None

    def delta(q: Quantity, ms: list[Modifier] = mods) -> int:
        return combine(q, 0, ms, floor=None).value

    def of(name: str) -> list[Modifier]:
        return [*mods, *marker_modifiers(markers, table, weapon=name)] if name in scoped else mods

    update: dict[str, object] = {
        "defence": min(10, combine(Quantity.DEFENCE, profile.defence, mods).value),
        "armour": _armour(profile.armour, mods),
        "aegis": _save(profile.aegis, delta(Quantity.AEGIS)),
    }
    if granted:
        update["perks"] = [*profile.perks, *(p for p in granted if p not in profile.perks)]
    new_profile = profile.model_copy(update=update)
    new_weapons = {
        name: wp.model_copy(
            update={
                "power": min(10, combine(Quantity.POWER, wp.power, of(name)).value),
                "attacks": max(1, combine(Quantity.ATTACKS, wp.attacks, of(name)).value),
                "ap": _save(wp.ap, delta(Quantity.AP, of(name))),
            }
        )
        for name, wp in weapons.items()
    }
    return new_profile, new_weapons


def unit_under(
    unit: Unit, statuses: Iterable[str | Marker], table: EffectTable | None = None
) -> Unit:
    """``unit`` as the attack kernel sees it under perk statuses (``"Pulverise"``, or
    :class:`~.statuses.Marker` values), for exact odds (``odds.exact_attack``).

    >>> from warbench.rulesets.warsurge.profiles import ModelGroup, UnitProfile
    >>> u = Unit(profile=UnitProfile(name="Foe", move=6, dash=6, defence=4, hp=1, armour=3),
    ...          models=[ModelGroup(count=1)])
    >>> w = unit_under(u, ["Pulverise", "Corrode"])
    >>> w.profile.defence, w.profile.armour
    (3, 4)
    """
    markers = [
        m if isinstance(m, Marker) else Marker(m, f"status {k}") for k, m in enumerate(statuses)
    ]
    adjusted = adjusted_profiles(unit.profile, {w.name: w for w in unit.weapons}, markers, table)
    if adjusted is None:
        return unit
    profile, weapons = adjusted
    return unit.model_copy(
        update={"profile": profile, "weapons": [weapons[w.name] for w in unit.weapons]}
    )


def restore_amount(amount: str, max_hp: int, dice: Dice) -> int:
    """The HP a RESTORE effect gives back: a dice expression (``"D3"``, Recover L1611) or a
    share of the unit's full HP (``"max/10"``, Regenerate L1645: rounded up).

    >>> from warbench.kernel.dice import ScriptedDice
    >>> restore_amount("max/10", 12, ScriptedDice([])), restore_amount("D3", 12, ScriptedDice([5]))
    (2, 3)
    """
    if amount.startswith("max/"):
        return -(-max_hp // int(amount[4:]))
    return dice.roll(amount, "restored HP")


def converts(perks: Iterable[str], table: EffectTable | None = None) -> frozenset[str]:
    """Statuses whose HP Loss, caused by an enemy, restores HP to a unit with these perks
    instead (Fire Resist II: Burn, Ignite; Immunity II: Plague, Poison)."""
    t = table or load_table()
    out: set[str] = set()
    for row in _rows(perks, t):
        for e in row.effects:
            if e.kind is EffectKind.CONVERT:
                out.update(e.names)
    return frozenset(out)
