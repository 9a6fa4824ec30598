"""A looted Weapon's last perks, its copies' own counters and the names it may carry (issue 10,
session 39, s39-loot2; Perks 000_94ecc6a4c74d351b.txt Loot L3090-L3104; docs/rulings.md
"WARSURGE perks in play: session 25, w2-state", rulings 11-14).

Loot: "A model that directs Movement onto, past or within contact of the marker picks up the
Weapon and may use it at the next opportunity"; the Weapon keeps its Perks. Test names carry
the rank's source line (``p3216`` …), which ``scripts/build_perk_coverage.py`` reads.

The constructed games: the Looters (unit 0, two models of 1 HP, each with a Loot Blaster of
Range 12", 2 Attacks, Power 6, and a Gun) have lost both models, their Blasters lie as Loot
markers at (32, 34) and (32, 35.8); a Target (unit 1, 9 HP at (40, 42)); the Raiders (unit 2,
two models of 3 HP at (24, 34) and (24, 35.8), Move 20) move to (40, 34) and (40, 35.8) in the
Move Phase of Game Turn 2 and each model picks one up.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine, perk_turn
from warbench.rulesets.warsurge.game.actions import Attack, Move, Pass
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.perk_arms import take_status
from warbench.rulesets.warsurge.game.perk_limits import weapon_refusal
from warbench.rulesets.warsurge.game.perk_loot import on_casualty
from warbench.rulesets.warsurge.game.state import Automation, GameState, Phase, Status
from warbench.rulesets.warsurge.game.work import Work
from warbench.rulesets.warsurge.profiles import WeaponProfile

GUN = weapon("Gun", range=24, attacks=1, power=10)


def _manual() -> frozenset[Automation]:
    return frozenset(a for a in Automation if a is not Automation.PERK_USE)


def _looters_fallen(
    perks: list[str], marks: tuple[str, str] = ("", ""), name: str = "Blaster", **kw: object
) -> GameState:
    """The Looters fallen, their two ``name`` Weapons (``perks``) lying as markers with the
    spent suffixes ``marks``; the Raiders about to move, Game Turn 2."""
    blaster = weapon(name, range=12, attacks=2, power=6, perks=perks, **kw)
    looters = entry(unit("Looters", models=2, weapons=[blaster, GUN]))
    target = entry(unit("Target", hp=9, weapons=[GUN]))
    raiders = entry(unit("Raiders", models=2, hp=3, move=20, weapons=[GUN]))
    pos = {0: [(32.0, 34.0), (32.0, 35.8)], 1: [(40.0, 42.0)], 2: [(24.0, 34.0), (24.0, 35.8)]}
    state = scenario([[looters, target], [raiders]], pos, active=1, automation=_manual())
    units = [u.with_counter(perk_turn.ARRIVED, 1) for u in state.units]
    statuses = tuple(
        Status(f"Loot marker@0@{name}@32.00,{y:.2f}@{k}{mark}", None, f"u0/{name}")
        for k, (y, mark) in enumerate(zip((34.0, 35.8), marks, strict=True))
    )
    units[0] = replace(units[0], hp=(0, 0), removed=(True, True), statuses=statuses)
    return replace(state, units=tuple(units))


def _at(state: GameState, turn: int, phase: Phase = Phase.ATTACK) -> GameState:
    """``state`` in ``phase`` of Game Turn ``turn``, side 1 acting, no unit acted."""
    flow = replace(state.flow, turn=turn, phase=phase, active=1)
    units = tuple(replace(u, acted=False) for u in state.units)
    return replace(state, flow=flow, units=units)


def _both_picked_up(state: GameState) -> GameState:
    to = Move(2, positions=((40.0, 34.0), (40.0, 35.8)))
    after, events = engine.apply(state, to, dice=ScriptedDice([]))
    assert sum("picks up the Loot Weapon" in e.text for e in events) == 2
    return _at(after, 2)


def _refusal(state: GameState, name: str) -> str | None:
    return weapon_refusal(Work(state, None, DEFAULT_HOOKS), 2, name)


# -- two copies of one Weapon keep their own counters --------------------------------------------


def test_p3246_two_picked_up_copies_of_one_weapon_keep_their_own_uses() -> None:
    # "The Weapon can be used once per game" (Use I, L3246): the Looters' model 1 dropped its
    # Blaster after their Blaster had been used (marker "#1"), model 0 before (no suffix). Each
    # Raider model picks one up: the fresh copy may be used, the spent one may not. (On
    # s38's code both were carried as one "Blaster" with the spent one's use: both refused.)
    state = _both_picked_up(_looters_fallen(["Loot", "Use I"], ("", "#1,2")))
    assert state.info(2).model_weapons == (("Gun", "Blaster"), ("Gun", "Blaster (u0)"))
    assert state.units[2].used(perk_turn._weapon_uses("Blaster")) == 0
    assert state.units[2].used(perk_turn._weapon_uses("Blaster (u0)")) == 1
    assert _refusal(state, "Blaster") is None
    assert str(_refusal(state, "Blaster (u0)")).startswith("Blaster (u0) can be used once per game")
    # the fresh one fired: spent too, the other's count unchanged
    after, _ = engine.apply(state, Attack(2, (("Blaster", 1),)), dice=ScriptedDice([1, 1]))
    assert after.units[2].used(perk_turn._weapon_uses("Blaster")) == 1
    assert after.units[2].used(perk_turn._weapon_uses("Blaster (u0)")) == 1


def test_p3142_two_picked_up_copies_of_one_weapon_recharge_apart() -> None:
    # Recharge I (L3142) "After using the Weapon, the Wielder must wait one Game Turn": the copy
    # used in Game Turn 2 waits, the copy used in Game Turn 1 is ready in Game Turn 3
    state = _both_picked_up(_looters_fallen(["Loot", "Recharge I"], ("#1,1", "#1,2")))
    late = _at(state, 3)
    assert _refusal(late, "Blaster") is None
    assert "recharges until Game Turn 4" in str(_refusal(late, "Blaster (u0)"))


def test_p3246_a_fresh_copys_carrier_falls_and_the_spent_copy_stays_spent() -> None:
    # model 0 carries the fresh "Blaster", model 1 the spent "Blaster (u0)"; model 0 falls, its
    # copy drops with nothing spent, and model 1's is "Blaster" from then on, still spent
    state = _both_picked_up(_looters_fallen(["Loot", "Use I"], ("", "#1")))
    r = replace(state.units[2], hp=(0, 3))
    w = Work(replace(state, units=(*state.units[:2], r)), None, DEFAULT_HOOKS)
    on_casualty(w, 2, 0, "test")
    after = w.state()
    marks = [s.name for s in after.units[2].statuses if s.name.startswith("Loot marker")]
    assert marks == ["Loot marker@0@Blaster@40.00,34.00@0"]
    r = replace(after.units[2], removed=(True, False))
    after = replace(after, units=(*after.units[:2], r))
    assert after.info(2).model_weapons[1] == ("Gun", "Blaster")
    assert str(_refusal(after, "Blaster")).startswith("Blaster can be used once per game")


def test_p3246_a_units_own_weapon_and_its_picked_up_copy_keep_their_own_uses() -> None:
    # the Looters' model 1 walks over the Blaster its fallen model 0 dropped: it carries its own
    # Blaster (used once) and the dropped copy ("Blaster (u0)", never used)
    blaster = weapon("Blaster", range=12, attacks=2, power=6, perks=["Loot", "Use I"])
    looters = entry(unit("Looters", models=2, move=20, weapons=[blaster, GUN]))
    other = entry(unit("Others", weapons=[GUN]))
    pos = {0: [(32.0, 34.0), (24.0, 34.0)], 1: [(40.0, 10.0)]}  # the Looters move
    state = scenario([[looters], [other]], pos, active=0, automation=_manual())
    units = [u.with_counter(perk_turn.ARRIVED, 1) for u in state.units]
    mark = Status("Loot marker@0@Blaster@32.00,34.00@0", None, "u0/Blaster")
    drop = Status("Arms@drop@0@Blaster", None, "u0/Blaster")
    units[0] = replace(units[0], hp=(0, 1), removed=(True, False), statuses=(drop, mark))
    units[0] = units[0].with_use(perk_turn._weapon_uses("Blaster"), 1)
    state = replace(state, units=tuple(units))
    after, events = engine.apply(state, Move(0, to=(40.0, 34.0)), dice=ScriptedDice([]))
    assert any("picks up the Loot Weapon Blaster" in e.text for e in events)
    assert after.info(0).model_weapons[1] == ("Blaster", "Gun", "Blaster (u0)")
    w = Work(after, None, DEFAULT_HOOKS)
    assert str(weapon_refusal(w, 0, "Blaster")).startswith("Blaster can be used once per game")
    assert weapon_refusal(w, 0, "Blaster (u0)") is None


def _attack_refusal(state: GameState, weapons: tuple[str, ...]) -> str | None:
    try:
        engine.check(state, Attack(2, tuple((w, 1) for w in weapons)))
    except RulesError as exc:
        return str(exc)
    return None


# -- Upheaval (L3216): the User is the carrier that used it ---------------------------------------


def _used_then_phase_end(perks: list[str], end_faces: list[int]) -> tuple[GameState, list[Event]]:
    """The Raiders (both models with a picked-up Blaster of ``perks``) Attack the Target with
    model 0's "Blaster" (two 1s: no hits); the Attack Phase ends with ``end_faces``."""
    state = _both_picked_up(_looters_fallen(perks))
    state, _ = engine.apply(state, Attack(2, (("Blaster", 1),)), dice=ScriptedDice([1, 1]))
    dice = ScriptedDice(end_faces)
    state, events = engine.apply(state, Pass(), dice=dice)
    assert dice.remaining == 0
    return state, events


def test_p3216_a_picked_up_upheaval_weapon_tests_its_new_user_at_the_phase_end() -> None:
    # "At the end of the Phase or Action Step after the Weapon is used, roll a Skill Test. If it
    # fails, the User relocates ... If into terrain, the edge of the Battlefield or rolls a 'Hit'
    # on the Scatter, the Weapon is used on the User." A Skill Test of 4 passes
    _, events = _used_then_phase_end(["Loot", "Upheaval"], [4])
    assert any("P1: Raiders's Blaster: Upheaval Skill Test passed (4)" in e.text for e in events)
    # a 1 fails, the Scatter a Hit (1; 2D6 3, 3): the Blaster's 2 Attacks, two 6s, on the Raiders
    hit, events = _used_then_phase_end(["Loot", "Upheaval"], [1, 1, 3, 3, 6, 6])
    assert any("Upheaval Skill Test failed (1): relocated, a Hit" in e.text for e in events)
    assert sum(hit.units[2].hp) < 6
    # without Upheaval: no test (no dice)
    _, events = _used_then_phase_end(["Loot"], [])
    assert not any("Upheaval" in e.text for e in events)


def test_p3238_the_upheaval_test_stays_with_the_user_that_dropped_the_weapon() -> None:
    # "If the User is a casualty before applying this Perk, still roll the test and apply the
    # results": the Raiders' model 0 fires its picked-up Upheaval Blaster, then falls (the
    # Blaster drops) before the Phase ends; the Raiders still roll the test
    state = _both_picked_up(_looters_fallen(["Loot", "Upheaval"]))
    state, _ = engine.apply(state, Attack(2, (("Blaster", 1),)), dice=ScriptedDice([1, 1]))
    r = replace(state.units[2], hp=(0, 3))
    w = Work(replace(state, units=(*state.units[:2], r)), None, DEFAULT_HOOKS)
    on_casualty(w, 2, 0, "test")
    fallen = w.state()
    fallen = replace(
        fallen, units=(*fallen.units[:2], replace(fallen.units[2], removed=(True, False)))
    )
    assert any(s.name.startswith("Loot marker@0@Blaster@") for s in fallen.units[2].statuses)
    dice = ScriptedDice([4])
    _, events = engine.apply(fallen, Pass(), dice=dice)
    assert dice.remaining == 0
    assert any("P1: Raiders's Blaster: Upheaval Skill Test passed (4)" in e.text for e in events)


def _fired_then_other_falls(weapon: str, falls: int) -> GameState:
    """Both Raiders picked up a Loot Upheaval Blaster (model 0 carries ``Blaster``, model 1
    ``Blaster (u0)``); ``weapon`` is fired (two 1s), then model ``falls`` falls and drops its
    copy, and the other's copy is carried as ``Blaster`` from then on."""
    state = _both_picked_up(_looters_fallen(["Loot", "Upheaval"]))
    state, _ = engine.apply(state, Attack(2, ((weapon, 1),)), dice=ScriptedDice([1, 1]))
    hp = tuple(0 if i == falls else h for i, h in enumerate(state.units[2].hp))
    w = Work(replace(state, units=(*state.units[:2], replace(state.units[2], hp=hp))), None,
             DEFAULT_HOOKS)  # fmt: skip
    on_casualty(w, 2, falls, "test")
    after = w.state()
    gone = tuple(i == falls for i in range(2))
    after = replace(after, units=(*after.units[:2], replace(after.units[2], removed=gone)))
    assert after.info(2).model_weapons[1 - falls] == ("Gun", "Blaster")
    return after


def test_p3216_a_dropped_upheaval_copy_does_not_strike_under_a_renamed_copy() -> None:
    # "If it fails ... If into terrain, the edge of the Battlefield or rolls a 'Hit' on the
    # Scatter, the Weapon is used on the User": model 0 fires its "Blaster" and falls; model
    # 1's "Blaster (u0)", never fired, is "Blaster" now. The test is rolled (L3238) and fails,
    # a Hit (1; 2D6 3, 3), but the Weapon that was used has dropped: nothing strikes. (On the
    # test noted under the name "Blaster", model 1's renamed copy struck the Raiders.)
    state = _fired_then_other_falls("Blaster", falls=0)
    dice = ScriptedDice([1, 1, 3, 3])
    after, events = engine.apply(state, Pass(), dice=dice)
    assert dice.remaining == 0
    assert any("Raiders's Blaster: Upheaval Skill Test failed (1): relocated, a Hit" in e.text
               for e in events)  # fmt: skip
    assert after.units[2].hp == (0, 3)


def test_p3216_a_fired_upheaval_copy_renamed_in_the_phase_still_strikes() -> None:
    # model 1 fires its "Blaster (u0)"; model 0 falls and model 1's copy is "Blaster" now: the
    # failed test (1; a Hit, 3, 3) uses it on the Raiders (two 6s). (Noted under the name
    # "Blaster (u0)", no model carried that name by the Phase's end: nothing struck.)
    state = _fired_then_other_falls("Blaster (u0)", falls=0)
    dice = ScriptedDice([1, 1, 3, 3, 6, 6])
    after, events = engine.apply(state, Pass(), dice=dice)
    assert dice.remaining == 0
    assert any("Raiders's Blaster: Upheaval Skill Test failed (1): relocated, a Hit" in e.text
               for e in events)  # fmt: skip
    assert after.units[2].hp[1] < 3


# -- Simulacrum (L4059): the carrier is the Wielder and the User --------------------------------

#: a Loot Mirror (Simulacrum; 3 Attacks, Power 6, Range 8") and a cheaper Cannon (Range 24")
MIRROR = weapon("Mirror", range=8, attacks=3, power=6, perks=["Loot", "Simulacrum"])
CANNON = weapon("Cannon", range=24, attacks=1, power=6)


def _mirror_carried(
    foe_at: float = 26.0,
    phase: Phase = Phase.MOVE,
    foe_weapons: list[WeaponProfile] | None = None,
    raider_weapons: list[WeaponProfile] | None = None,
    **kw: object,
) -> GameState:
    """The Mimics (unit 0) fell; the Raiders (unit 2, one model of 3 HP at (24, 10)) carry the
    Mirror their model picked up; the Foes (unit 1, 3 HP, a Cannon) at (24, ``foe_at``);
    Game Turn 2, ``phase``."""
    mimics = entry(unit("Mimics", weapons=[MIRROR, GUN]))
    foes = entry(unit("Foes", hp=3, weapons=foe_weapons or [CANNON]))
    raiders = entry(unit("Raiders", hp=3, weapons=raider_weapons or [GUN]))
    pos = {0: [(2.0, 2.0)], 1: [(24.0, foe_at)], 2: [(24.0, 10.0)]}
    state = scenario([[mimics, foes], [raiders]], pos, phase=phase, automation=_manual(), **kw)  # type: ignore[arg-type]
    units = [u.with_counter(perk_turn.ARRIVED, 1) for u in state.units]
    drop = Status("Arms@drop@0@Mirror", None, "u0/Mirror")
    units[0] = replace(units[0], hp=(0,), removed=(True,), statuses=(drop,))
    take = Status(take_status(0, 0, "Mirror"), None, "u0/Mirror")
    units[2] = replace(units[2], statuses=(take,))
    return replace(state, units=tuple(units))


def test_p4059_a_picked_up_simulacrum_weapon_copies_for_its_new_wielder() -> None:
    # "At the start of the Game Turn, select a Target Unit within 18" of the Wielder. If a
    # Target's Weapon is equal or less in Point Cost than the Wielder's Simulacrum Weapon, then
    # the Wielder may use the Target's Weapon profile instead for the current Game Turn."
    state = _mirror_carried(active=1)
    assert state.info(2).unit.weapon("Mirror").range == 8
    after, events = engine.apply(state, UsePerks(2, ("Simulacrum: Mirror = 1/Cannon",)))
    assert any("P1: Raiders's Mirror copies P0: Foes's Cannon" in e.text for e in events)
    assert after.info(2).unit.weapon("Mirror").range == 24
    assert after.info(2).model_weapons == (("Gun", "Mirror"),)
    # once per Game Turn; 30" off the Foes are no Target
    with pytest.raises(RulesError):
        engine.apply(after, UsePerks(2, ("Simulacrum: Mirror = 1/Cannon",)))
    far = _mirror_carried(foe_at=40.0, active=1)
    with pytest.raises(RulesError, match="may not copy Cannon"):
        engine.apply(far, UsePerks(2, ("Simulacrum: Mirror = 1/Cannon",)))


def test_p4075_a_weapon_that_targeted_the_new_wielder_may_be_copied_from_afar() -> None:
    # "Alternatively, the Simulacrum Weapon can ignore the 18" requirement and copy a Weapon
    # that Targeted the User in the previous Game Turn": the Foes, 22" off, shoot the Raiders
    # (carrying the Mirror) with the Cannon in Game Turn 2; in Game Turn 3 it may be copied
    state = _mirror_carried(foe_at=32.0, phase=Phase.ATTACK, active=0)
    shot, _ = engine.apply(state, Attack(1, (("Cannon", 2),)), dice=ScriptedDice([1]))
    assert any(s.name == "Simulacrum seen@1@Cannon" for s in shot.units[2].statuses)
    flow = replace(shot.flow, turn=3, phase=Phase.MOVE, active=1)
    start = replace(shot, flow=flow, units=tuple(replace(u, acted=False) for u in shot.units))
    after, _ = engine.apply(start, UsePerks(2, ("Simulacrum: Mirror = 1/Cannon",)))
    assert after.info(2).unit.weapon("Mirror").range == 24


def test_p4059_p3090_a_copying_looted_simulacrum_weapon_still_drops_as_loot() -> None:
    # the copy is a profile for the Game Turn; the Weapon stays a Loot Weapon: its carrier falls
    # and it drops as a marker, with its own profile ("the profile ... is restored")
    state = _mirror_carried(active=1)
    after, _ = engine.apply(state, UsePerks(2, ("Simulacrum: Mirror = 1/Cannon",)))
    w = Work(replace(after, units=(*after.units[:2], replace(after.units[2], hp=(0,)))), None,
             DEFAULT_HOOKS)  # fmt: skip
    on_casualty(w, 2, 0, "test")
    names = [s.name for s in w.state().units[2].statuses]
    assert "Loot marker@0@Mirror@24.00,10.00@0" in names
    assert not any(n.startswith("Arms@") for n in names)  # its take and its copy end


# -- Trap (L4085) and the names a player gives ------------------------------------------------


@pytest.mark.parametrize("name", ["Blaster", "Bl@st#r @2"])
def test_p4085_a_picked_up_trap_weapons_marker_is_sprung(name: str) -> None:
    # "After being placed, the Trap will arm and can be triggered by any Unit that passes through
    # or is within 2" of the marker ... When triggered, the Target will be struck with the
    # Weapon's profile": the Raiders placed a marker by the Target with the Trap Blaster they
    # picked up; as Game Turn 3 starts the Target stands within 2" and springs it. (s38's code
    # looked for markers on the set-up's Trap units only; a name with "@" failed to parse.)
    from warbench.rulesets.warsurge.game.perk_trap import trap_at_turn_start, traps

    state = _both_picked_up(_looters_fallen(["Loot", "Trap"], name=name))
    mark = Status(f"Trap@{name}@40.00,42.00@1@2", None, f"u2/{name}")
    r = replace(state.units[2], statuses=(*state.units[2].statuses, mark))
    state = _at(replace(state, units=(*state.units[:2], r)), 3, Phase.MOVE)
    w = Work(state, ScriptedDice([6, 6]), DEFAULT_HOOKS)
    assert [(t[0], t[2], t[3]) for t in traps(w)] == [(2, name, (40.0, 42.0))]
    trap_at_turn_start(w, 3)
    assert any(f"P0: Target triggers P1: Raiders's Trap ({name})" in e.text for e in w.events)
    assert sum(w.state().units[1].hp) == 7  # two 6s, Power 6 v Defence 4
    assert not any(s.name.startswith("Trap@") for s in w.state().units[2].statuses)


@pytest.mark.parametrize("mirror", ["Mirror", "Gl@ss"])
def test_p4059_a_copy_of_a_weapon_named_with_at_signs_is_read(mirror: str) -> None:
    # a Weapon's name is its player's: "C@nnon @1 #2" copied by the picked-up Mirror or by the
    # Raiders' own "Gl@ss" (the copy's status escapes "@"; unescaped, s38's code read the
    # Weapon's unit from inside the name and failed)
    cannon = CANNON.model_copy(update={"name": "C@nnon @1 #2"})
    glass = MIRROR.model_copy(update={"name": "Gl@ss", "perks": ["Simulacrum"]})
    state = _mirror_carried(active=1, foe_weapons=[cannon], raider_weapons=[GUN, glass])
    after, _ = engine.apply(state, UsePerks(2, (f"Simulacrum: {mirror} = 1/C@nnon @1 #2",)))
    escaped = mirror.replace("@", "%40")
    assert f"Arms@copy@{escaped}@1@C%40nnon %401 #2" in [s.name for s in after.units[2].statuses]
    assert after.info(2).unit.weapon(mirror).range == 24
    with pytest.raises(RulesError):  # once per Game Turn: the escaped copy is found
        engine.apply(after, UsePerks(2, (f"Simulacrum: {mirror} = 1/C@nnon @1 #2",)))


ROSTER = """
roster:
  name: "Raid @ Dawn #1"
  point_limit: 1000
  units:
  - name: "Raiders @ Dawn #1"
    unit:
      profile: {name: "Raiders @ Dawn #1", move: 6, dash: 6, defence: 4, hp: 1}
      weapons:
      - {name: "Bl@st#r", range: 12, type: Assault, attacks: 2, power: 6, perks: [Loot, Use I]}
      - {name: "Gun #2", range: 24, type: Assault, attacks: 1, power: 10}
      models: [{count: 2, weapons: ["Bl@st#r", "Gun #2"]}]
"""


def test_p3090_names_with_at_and_hash_signs_keep_through_the_roster_share_code_and_loot() -> None:
    # the names are the player's: the roster takes them, the share code carries them, and the
    # game's Loot marker (``Loot marker@<unit>@<weapon>@x,y@<n>#<spent>``) reads them back
    from warbench.rulesets.warsurge.roster import validate_roster
    from warbench.rulesets.warsurge.roster_io import loads_roster
    from warbench.rulesets.warsurge.share import decode, encode

    roster = loads_roster(ROSTER)
    report = validate_roster(roster)
    assert not [v for v in report.violations if "@" in str(v) or "#" in str(v)]
    back = decode(encode(roster))
    assert back == roster
    looters = back.units[0].unit
    assert [w.name for w in looters.weapons] == ["Bl@st#r", "Gun #2"]
    raiders = entry(unit("Raiders", hp=3, move=20, weapons=[GUN]))
    pos = {0: [(32.0, 34.4), (40.0, 24.0)], 1: [(24.0, 34.0)]}
    state = scenario([[entry(looters)], [raiders]], pos, active=1, automation=_manual())
    units = [u.with_counter(perk_turn.ARRIVED, 1) for u in state.units]
    units[0] = replace(units[0].with_use(perk_turn._weapon_uses("Bl@st#r"), 1), hp=(0, 1))
    w = Work(replace(state, units=tuple(units)), None, DEFAULT_HOOKS)
    on_casualty(w, 0, 0, "test")
    fallen = w.state()
    marks = [s.name for s in fallen.units[0].statuses if s.name.startswith("Loot marker")]
    assert marks == ["Loot marker@0@Bl@st#r@32.00,34.40@0#1"]
    fallen = replace(
        fallen, units=(replace(fallen.units[0], removed=(True, False)), fallen.units[1])
    )
    after, events = engine.apply(fallen, Move(1, to=(40.0, 34.0)), dice=ScriptedDice([]))
    assert any("picks up the Loot Weapon Bl@st#r" in e.text for e in events)
    assert after.info(1).model_weapons == (("Gun", "Bl@st#r"),)
    assert after.units[1].used(perk_turn._weapon_uses("Bl@st#r")) == 1  # spent: once per game


# -- Twin (L3200), Triune (L3186): a set is its Wielder's ----------------------------------------


@pytest.mark.parametrize(("perk", "size"), [("Twin", 2), ("Triune", 3)])
def test_p3200_p3186_a_picked_up_linked_weapon_joins_no_set_of_its_new_wielder(
    perk: str, size: int
) -> None:
    # "the Weapon is part of a two Weapon set equipped by the Wielder (both Weapons must have
    # Twin). The Wielder only selects one of the Twin Weapons each time it Attacks": the
    # Looters' Blaster and Knife were one set; picked up by two Raider models, each is a lone
    # Weapon of its Wielder, in no set with the other nor with the Raiders' own set, which
    # still allows one of its Weapons per Attack (docs/rulings.md w2-state ruling 12)
    linked = [perk, "Loot"]
    blaster = weapon("Blaster", range=12, attacks=2, power=6, perks=linked)
    knife = weapon("Knife", range=12, attacks=2, power=6, perks=linked)
    looters = entry(unit("Looters", weapons=[blaster, knife]))
    target = entry(unit("Target", hp=9, weapons=[GUN]))
    own = [
        weapon(n, range=12, attacks=1, power=4, perks=[perk]) for n in ("Pistol", "Sword", "Axe")
    ]
    raiders = entry(unit("Raiders", models=2, hp=3, move=20, weapons=own[:size]))
    pos = {0: [(2.0, 2.0)], 1: [(40.0, 42.0)], 2: [(24.0, 34.0), (24.0, 35.8)]}
    state = scenario([[looters, target], [raiders]], pos, active=1, automation=_manual())
    marks = tuple(
        Status(f"Loot marker@0@{name}@32.00,{y:.2f}@0", None, f"u0/{name}")
        for name, y in (("Blaster", 34.0), ("Knife", 35.8))
    )
    units = list(state.units)
    units[0] = replace(units[0], hp=(0,), removed=(True,), statuses=marks)
    state = _both_picked_up(replace(state, units=tuple(units)))
    mine = tuple(w.name for w in own[:size])
    assert state.info(2).model_weapons == ((*mine, "Blaster"), (*mine, "Knife"))
    assert _attack_refusal(state, ("Pistol", "Blaster", "Knife")) is None
    assert f"selects only one of its {perk} Weapons" in str(_attack_refusal(state, mine[:2]))


def test_p4059_p3090_a_units_own_copying_simulacrum_loot_weapon_drops_as_its_wielder_falls() -> (
    None
):
    # the same for a Mirror of the unit's own profile: on s38's code the copied profile (the
    # Cannon, no Loot) was read, and the fallen Wielder's Mirror left no marker
    me = entry(unit("Mimics", hp=3, weapons=[MIRROR]))
    foe = entry(unit("Foes", hp=3, weapons=[CANNON]))
    pos = {0: [(24.0, 10.0)], 1: [(24.0, 26.0)]}
    state = scenario([[me], [foe]], pos, phase=Phase.MOVE, automation=_manual())
    after, _ = engine.apply(state, UsePerks(0, ("Simulacrum: Mirror = 1/Cannon",)))
    w = Work(replace(after, units=(replace(after.units[0], hp=(0,)), after.units[1])), None,
             DEFAULT_HOOKS)  # fmt: skip
    on_casualty(w, 0, 0, "test")
    names = [s.name for s in w.state().units[0].statuses]
    assert "Loot marker@0@Mirror@24.00,10.00@0" in names


# -- what the review found (issue 10, session 39, s39-fixloot; docs/rulings.md w2-state 16) ------


def _trap_laid(marks: dict[str, tuple[float, float]], falls: int) -> Work:
    """Both Raider models carry a picked-up Loot Trap Blaster (model 0 ``Blaster``, model 1
    ``Blaster (u0)``); the Raiders laid a marker with each Weapon named in ``marks`` in Game
    Turn 2; it is Game Turn 3 and their model ``falls`` has just fallen."""
    state = _both_picked_up(_looters_fallen(["Loot", "Trap"]))
    laid = tuple(
        Status(f"Trap@{name}@{x:.2f},{y:.2f}@1@2", None, f"u2/{name}")
        for name, (x, y) in marks.items()
    )
    r = replace(state.units[2], statuses=(*state.units[2].statuses, *laid))
    state = _at(replace(state, units=(*state.units[:2], r)), 3, Phase.MOVE)
    w = Work(state, ScriptedDice([6, 6]), DEFAULT_HOOKS)
    u = w.units[2]
    w.units[2] = replace(u, hp=tuple(0 if k == falls else h for k, h in enumerate(u.hp)))
    on_casualty(w, 2, falls, "test")
    return w


def test_p4085_a_trap_marker_ends_with_its_dropped_picked_up_weapon() -> None:
    # "When triggered, the Target will be struck with the Weapon's profile ... All Mode Perks
    # are directed by the Trap Wielder" (L4085): the model carrying "Blaster (u0)" laid a
    # marker by the Target and falls; its Weapon drops as a Loot marker, no one wields it, and
    # its Trap marker ends with it (ruling w2-state 16). (s39-loot2's code kept the marker and
    # raised KeyError 'Blaster (u0)' as the Target sprang it: the review's finding 1.)
    from warbench.rulesets.warsurge.game.perk_trap import trap_at_turn_start, traps

    w = _trap_laid({"Blaster (u0)": (40.0, 42.0)}, falls=1)
    assert traps(w) == []
    trap_at_turn_start(w, 3)
    assert sum(w.state().units[1].hp) == 9
    assert not any("triggers" in e.text for e in w.events)


def test_p4085_a_trap_marker_follows_its_weapons_new_name() -> None:
    # model 0 (carrying "Blaster") falls: its marker by (10, 10) ends with it; model 1's copy
    # is now called "Blaster" and its marker by the Target goes with it, sprung as Game Turn 3
    # starts with that copy's profile. (s39-loot2's code kept "Trap@Blaster (u0)@…", a name
    # the unit no longer carries: KeyError; finding 2.)
    from warbench.rulesets.warsurge.game.perk_trap import trap_at_turn_start, traps

    w = _trap_laid({"Blaster": (10.0, 10.0), "Blaster (u0)": (40.0, 42.0)}, falls=0)
    assert w.info(2).model_weapons[1] == ("Gun", "Blaster")
    assert [(t[2], t[3]) for t in traps(w)] == [("Blaster", (40.0, 42.0))]
    trap_at_turn_start(w, 3)
    assert any("P0: Target triggers P1: Raiders's Trap (Blaster)" in e.text for e in w.events)
    assert sum(w.state().units[1].hp) == 7


def test_p4059_a_simulacrum_copy_follows_its_weapons_new_name() -> None:
    # "the Wielder may use the Target's Weapon profile instead for the current Game Turn"
    # (L4059): model 1's picked-up copy ("Blaster (u0)") copies the Gun (Range 24); model 0
    # (carrying "Blaster") falls and drops its own; the copy, now called "Blaster", keeps the
    # Gun's profile for the Game Turn. (s39-loot2's code left "Arms@copy@Blaster (u0)@…"
    # behind: the copy read as a Range 12 Blaster; finding 2.)
    from warbench.rulesets.warsurge.game.perk_arms import copy_status

    state = _both_picked_up(_looters_fallen(["Loot", "Simulacrum"]))
    copied = Status(copy_status("Blaster (u0)", 1, "Gun"), 1, "u2/Blaster (u0)")
    r = replace(state.units[2], statuses=(*state.units[2].statuses, copied))
    state = replace(state, units=(*state.units[:2], r))
    assert state.info(2).unit.weapon("Blaster (u0)").range == 24
    w = Work(state, None, DEFAULT_HOOKS)
    w.units[2] = replace(w.units[2], hp=(0, w.units[2].hp[1]))
    on_casualty(w, 2, 0, "test")
    after = w.state()
    assert after.info(2).model_weapons[1] == ("Gun", "Blaster")
    assert after.info(2).unit.weapon("Blaster").range == 24
    assert copy_status("Blaster", 1, "Gun") in [s.name for s in after.units[2].statuses]
