"""Simulacrum (Tactical Weapon Perk, Perks 000_94ecc6a4c74d351b.txt L4059-L4079; Activate,
Point Cost (Lesser), Radius (18"); docs/rulings.md "WARSURGE perks in play: session 25,
w2-state" 1-5).

    "A Simulacrum Weapon can copy another Weapon. At the start of the Game Turn, select a Target
    Unit within 18" of the Wielder. If a Target's Weapon is equal or less in Point Cost than the
    Wielder's Simulacrum Weapon, then the Wielder may use the Target's Weapon profile instead for
    the current Game Turn. Alternatively, the Simulacrum Weapon can ignore the 18" requirement
    and copy a Weapon that Targeted the User in the previous Game Turn, if the Weapon is equal or
    lower in Point Cost. After the Game Turn ends, the profile of the Simulacrum Weapon is
    restored … Simulacrum Weapons can only copy Weapons with 'Countdown', 'Recharge' or 'Use'
    Perks if the User is Targeted by those Weapons."

* **The copy** is a status on the Wielder's unit for the Game Turn
  (``perk_arms.copy_status``): the Simulacrum Weapon keeps its name and its models and has the
  other Weapon's profile (Range, Type, Attacks, Power, AP, Deflect, Ward, Parry, Weapon Perks),
  read through ``GameState.info`` / ``Work.info`` (:mod:`.perk_arms`); it ends with the Game
  Turn (a status of one Game Turn).
* **The choice** is the player's: ``UsePerks(unit, ("Simulacrum: <weapon> = <unit>/<other
  weapon>",))`` at the start of the Game Turn (Transform's window), once per Game Turn per
  Simulacrum Weapon. Under the ``perk use`` automation the engine copies as the Game Turn
  starts: the costliest Weapon it may copy, if it costs more than the Simulacrum Weapon's own
  profile without the perk (ruling 3).
* **Point Cost** of a Weapon (ruling 1): the points it adds to one model of its own unit under
  the points model (``costing.weapon_costs``, as Linked Profiles price weapons).
* **Which Weapons** (ruling 2): any unit on the Battlefield other than the User within 18"
  (closest base edges), friend or foe; or a Weapon whose share of an Attack was at the User in
  the previous Game Turn (recorded by ``WEAPON_USED``), wherever its unit is. Use I-III and
  Recharge I-III only by that second way; their limit needs no count on a copy that lasts one
  Game Turn (a Weapon attacks once a Game Turn). Weapons with Perks the game keeps per Weapon
  of the set-up rather than reading them from the profile (Countdown, Counter, Malfunction,
  Trap, Shared, Residue, Simulacrum … anything but the attack sequence, Mode templates and
  Chain) are not copied (ruling 4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game import perk_arms
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.perk_index import looted_perks, taken_perks
from warbench.rulesets.warsurge.game.state import Automation, Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work
    from warbench.rulesets.warsurge.profiles import WeaponProfile

__all__ = [
    "SIMULACRUM",
    "at_turn_start",
    "candidates",
    "options",
    "refused",
    "register_hooks",
    "use",
    "weapon_cost",
    "wielders",
    "wielders_now",
    "wields",
]

SIMULACRUM = "Simulacrum"
RULE = "Perks §12.5 Simulacrum (000_94ecc6a4c74d351b.txt L4059)"
RADIUS = 18.0
#: on the User: a Weapon whose share was at it (``<prefix><unit>@<weapon>``), two Game Turns
SEEN = "Simulacrum seen@"
#: copied only when they Targeted the User (L4079)
TARGETED_ONLY = frozenset(
    {"Use I", "Use II", "Use III", "Recharge I", "Recharge II", "Recharge III"}
)
#: the machineries that read a Weapon's perks from its profile (the copy's profile)
_READ = frozenset({"attack sequence", "template", "chain"})
_COSTS: dict[tuple[int, str, bool], tuple[object, float]] = {}


@per_setup
def wielders(setup: GameSetup) -> dict[int, tuple[str, ...]]:
    """Unit -> its Simulacrum Weapons (memoised per set-up)."""
    from warbench.rulesets.warsurge.attack import PerkSet

    out = {
        info.uid: names
        for info in setup.units
        if (names := tuple(w.name for w in info.unit.weapons if PerkSet(w.perks).has(SIMULACRUM)))
    }
    return out


def wielders_now(work: Work) -> dict[int, tuple[str, ...]]:
    """Unit -> the Simulacrum Weapons it carries now: the set-up's (:func:`wielders`) and, in
    a set-up with a Loot Simulacrum Weapon, one a model picked up (Loot L3090: the Weapon keeps
    its Perks; its Wielder is its carrier; issue 10, session 39, s39-loot2; docs/rulings.md
    w2-state ruling 13)."""
    found = wielders(work.setup)
    if SIMULACRUM not in looted_perks(work.setup):
        return found
    out = dict(found)
    for uid in perk_arms.rearmed_units(work.setup, work.units, ()):
        extra = tuple(w for w, ps in taken_perks(work, uid) if SIMULACRUM in ps)
        if extra:
            out[uid] = (*out.get(uid, ()), *extra)
    return out


def wields(work: Work, uid: int) -> bool:
    """Whether ``uid`` carries a Simulacrum Weapon now (:func:`wielders_now`)."""
    if uid in wielders(work.setup):
        return True
    return SIMULACRUM in looted_perks(work.setup) and uid in wielders_now(work)


def _cost(work: Work, uid: int, weapon: str, bare: bool = False) -> float:
    """The Point Cost of ``uid``'s ``weapon`` (ruling 1): a picked-up Loot Weapon's is the one
    it has in its own unit (the Weapon's, wherever it goes; ruling 13)."""
    if any(wp.name == weapon for wp in work.setup.units[uid].unit.weapons):
        return weapon_cost(work.setup, uid, weapon, bare)
    for label, src, other in perk_arms.labels(work.setup, uid, work.units[uid].statuses).values():
        if label == weapon:
            return weapon_cost(work.setup, src, other, bare)
    raise KeyError(weapon)


def weapon_cost(setup: GameSetup, uid: int, weapon: str, bare: bool = False) -> float:
    """The Point Cost of the set-up's ``weapon`` of ``uid``: the points it adds to one model of
    its unit (ruling 1); ``bare``: without the Simulacrum perk."""
    from warbench.rulesets.warsurge.attack import PerkSet
    from warbench.rulesets.warsurge.costing import default_coster, weapon_costs

    info = setup.units[uid]
    key = (id(info), weapon, bare)
    hit = _COSTS.get(key)
    if hit is not None and hit[0] is info:
        return hit[1]
    wp = info.unit.weapon(weapon)
    if bare:
        kept = [p for p in wp.perks if not PerkSet([p]).has(SIMULACRUM)]
        wp = wp.model_copy(update={"perks": kept})
    cost = weapon_costs(default_coster(), info.unit, [wp])[0]
    if len(_COSTS) > 4096:
        _COSTS.clear()
    _COSTS[key] = (info, cost)
    return cost


def _uncopyable(wp: WeaponProfile, targeted: bool) -> str | None:
    """Why ``wp`` is not copied (ruling 4), or None."""
    from warbench.rulesets.warsurge.effects.table import load_table

    table = load_table()
    for p in wp.perks:
        row = table.find(p)
        if row is None:
            continue
        if row.name in TARGETED_ONLY:
            if not targeted:
                return f"{row.name}: only a Weapon that Targeted the User (L4079)"
            continue
        if set(row.machineries) - _READ:
            return f"{row.name} is kept per Weapon of the set-up, not read from a profile"
    return None


def _seen(work: Work, uid: int) -> set[tuple[int, str]]:
    out: set[tuple[int, str]] = set()
    for s in work.units[uid].statuses:
        if s.name.startswith(SEEN):
            src, _, weapon = s.name[len(SEEN) :].partition("@")
            out.add((int(src), weapon))
    return out


def candidates(work: Work, uid: int, weapon: str) -> list[tuple[int, str]]:
    """(unit, Weapon) the Simulacrum ``weapon`` of ``uid`` may copy now, the costliest first
    (ties: unit and profile order)."""
    setup = work.setup
    own = _cost(work, uid, weapon)
    seen = _seen(work, uid)
    found: list[tuple[float, int, int, str]] = []
    for v in work.units:
        if v.uid == uid or v.uid >= len(setup.units):
            continue
        near = v.location is Location.TABLE and bool(v.living()) and work.gap(uid, v.uid) <= RADIUS
        for k, wp in enumerate(setup.units[v.uid].unit.weapons):
            targeted = (v.uid, wp.name) in seen
            if not (near or targeted) or _uncopyable(wp, targeted) is not None:
                continue
            cost = weapon_cost(setup, v.uid, wp.name)
            if cost <= own + 1e-9:
                found.append((-cost, v.uid, k, wp.name))
    return [(u, n) for _, u, _, n in sorted(found)]


def _copied(work: Work, uid: int, weapon: str) -> bool:
    head = perk_arms.copy_prefix(weapon)
    return any(s.name.startswith(head) for s in work.units[uid].statuses)


def _parse(option: str) -> tuple[str, int, str] | None:
    weapon, _, rest = option.partition(" = ")
    src, _, other = rest.partition("/")
    try:
        return weapon.strip(), int(src), other.strip()
    except ValueError:
        return None


def _choice(work: Work, uid: int, weapon: str) -> tuple[int, str] | None:
    """The engine's copy (ruling 3): the costliest Weapon it may copy, if it costs more than the
    Simulacrum Weapon's own profile without the perk."""
    found = candidates(work, uid, weapon)
    if not found:
        return None
    src, other = found[0]
    if weapon_cost(work.setup, src, other) <= _cost(work, uid, weapon, bare=True):
        return None
    return found[0]


def refused(work: Work, uid: int, option: str, start: bool) -> str | None:
    """Why ``uid`` may not copy as ``option`` says now (``""``: the engine's choice), or None."""
    weapons = wielders_now(work).get(uid, ())
    if not start:
        return f"a Simulacrum Weapon copies at the start of the Game Turn ({RULE})"
    if not option:
        free = [w for w in weapons if not _copied(work, uid, w)]
        return None if free else f"every Simulacrum Weapon has copied this Game Turn ({RULE})"
    parsed = _parse(option)
    if parsed is None or parsed[0] not in weapons:
        return f"name it as 'Simulacrum: <weapon> = <unit>/<weapon>' ({RULE})"
    weapon, src, other = parsed
    if _copied(work, uid, weapon):
        return f"{weapon} has copied a Weapon this Game Turn ({RULE})"
    if (src, other) not in candidates(work, uid, weapon):
        return (
            f'{weapon} may not copy {other} of unit {src}: not within 18" (nor a Weapon that '
            f"Targeted the User last Game Turn), costlier, or not copied by the game ({RULE})"
        )
    return None


def options(work: Work, uid: int, start: bool) -> list[str]:
    """The copies a player is shown: per Simulacrum Weapon, the engine's choice first."""
    if not start:
        return []
    out: list[str] = []
    for weapon in wielders_now(work).get(uid, ()):
        if _copied(work, uid, weapon):
            continue
        found = candidates(work, uid, weapon)
        best = _choice(work, uid, weapon)
        if best is not None:
            found = [best, *(c for c in found if c != best)]
        out.extend(f"{weapon} = {src}/{other}" for src, other in found)
    return out


def copy(work: Work, uid: int, weapon: str, src: int, other: str, why: str) -> None:
    """The Simulacrum ``weapon`` of ``uid`` has ``src``'s ``other`` profile this Game Turn."""
    u = work.units[uid]
    name = perk_arms.copy_status(weapon, src, other)
    work.set_unit(uid, statuses=(*u.statuses, Status(name, 1, f"u{uid}/{weapon}")))
    work.emit("perk", f"{work.label(uid)}'s {weapon} copies {work.label(src)}'s {other} for this "
              f"Game Turn ({why})", RULE, unit=uid, perk=SIMULACRUM, weapon=weapon,
              source=src, copied=other)  # fmt: skip


def use(work: Work, uid: int, option: str) -> None:
    """``UsePerks(uid, ("Simulacrum: <weapon> = <unit>/<weapon>",))``; no option: the engine's
    copy for each Simulacrum Weapon."""
    if option.strip():
        parsed = _parse(option)
        assert parsed is not None
        copy(work, uid, *parsed, "the player's choice")
        return
    for weapon in wielders_now(work).get(uid, ()):
        if not _copied(work, uid, weapon) and (best := _choice(work, uid, weapon)) is not None:
            copy(work, uid, weapon, *best, "the engine's choice")


def at_turn_start(work: Work, turn: int) -> None:
    """Under the ``perk use`` automation, each Wielder on the Battlefield copies (ruling 3)."""
    if not wielders(work.setup) or Automation.PERK_USE not in work.setup.automation:
        return
    found = wielders_now(work)
    for uid in sorted(found):
        if work.standing(uid):
            use(work, uid, "")


def note_target(work: Work, unit: int, weapon: str, target: int) -> None:
    """A share of ``unit``'s ``weapon`` at a Wielder (one carrying a Simulacrum Weapon as it is
    Targeted): it may copy it next Game Turn (L4075)."""
    if unit == target or unit >= len(work.setup.units) or not wields(work, target):
        return
    if weapon not in {w.name for w in work.setup.units[unit].unit.weapons}:
        return
    name = f"{SEEN}{unit}@{weapon}"
    u = work.units[target]
    kept = tuple(s for s in u.statuses if s.name != name)
    work.set_unit(target, statuses=(*kept, Status(name, 2, f"u{unit}/{weapon}")))


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from :func:`.perk_families.register_family_hooks`)."""
    reg.register(Hook.TURN_START, at_turn_start, "Simulacrum (copies)", when=wielders)
    reg.register(
        Hook.WEAPON_USED, note_target, "Simulacrum (Weapons at the User)", perks=[SIMULACRUM]
    )
