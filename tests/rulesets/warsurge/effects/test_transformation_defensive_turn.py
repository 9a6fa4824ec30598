"""Forms, rolls and Aether perks played in games (Perks 000_94ecc6a4c74d351b.txt: Transform
I-III L2530-L2560, Wild Armour L1803, Magic Armour I-III L1579-L1583 and Resist's Aether part
L1677). Test names carry the rank's source line (``p2530``), which ``warbench perks
--coverage`` reads."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Deploy, Move, Pass
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.movement import unit_allowance
from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameState,
    Location,
    Phase,
)
from warbench.rulesets.warsurge.game.work import Work, to_unit_state

_CHOOSING = ALL_AUTOMATIONS - {Automation.PERK_USE}


def _duel(
    perks: list[str],
    *,
    phase: Phase = Phase.MOVE,
    automation: frozenset[Automation] = ALL_AUTOMATIONS,
    foe_perks: list[str] | None = None,
    gap: float = 30.0,
    **stats: Any,
) -> GameState:
    """Side 0's User (``perks``, a 24" Gun Power 4 AP 5+, Defence 4, Armour 4+) and side 1's
    Foe ``gap`` inches away (centres)."""
    kw: dict[str, Any] = {"hp": 4, "armour": 4, "defence": 4, **stats}
    me = unit("User", perks=perks, weapons=[weapon("Gun", range=24, power=4, ap=5)], **kw)
    foe = unit("Foe", perks=foe_perks or [], hp=4)
    return scenario([[entry(me)], [entry(foe)]], {0: [(20, 5)], 1: [(20, 5 + gap)]},
                    phase=phase, automation=automation)  # fmt: skip


def _next_turn(state: GameState, faces: list[int]) -> tuple[GameState, list[Event]]:
    """Pass to the next Game Turn; its start rolls ``faces`` first (then the Roll-Off)."""
    turn = state.flow.turn
    while True:
        new, _ = engine.apply(state, Pass())
        if new.flow.turn != turn or new.over:
            out = engine.apply(state, Pass(), dice=ScriptedDice([*faces, 6, 1, 6, 1]))
            check_invariants(out[0])
            return out
        state = new


def _work(state: GameState) -> Work:
    return Work(state, None, DEFAULT_HOOKS)


def _stats(state: GameState, uid: int = 0) -> tuple[int, int | None, int | None, int, int]:
    """Defence, Armour, AEGIS, the Gun's Power and Range as the game reads them."""
    w = _work(state)
    st = to_unit_state(w, uid)
    rng = weapon_ranges(w.info(uid), state.units[uid].statuses)["Gun"]
    return st.profile.defence, st.profile.armour, st.profile.aegis, st.weapons["Gun"].power, rng


def _gun(state: GameState, uid: int = 0) -> Any:
    return to_unit_state(_work(state), uid).weapons["Gun"]


# -- Transform I-III: a form each Game Turn, the engine's by default, the player's by choice ---


@pytest.mark.parametrize(
    ("rank", "ranged_range", "ranged_power"),
    [
        pytest.param("Transform I", 36, 4, id="p2530-Transform I"),
        pytest.param("Transform II", 48, 5, id="p2544-Transform II"),
        pytest.param("Transform III", 48, 6, id="p2560-Transform III"),
    ],
)
def test_transform_takes_the_engines_form_at_the_start_of_the_game_turn(
    rank: str, ranged_range: int, ranged_power: int
) -> None:
    # L2530 "User can choose one of the following at the start of each Game Turn … Ranged: All
    # Weapons have their Range increased by 50%" (II and III: "Range doubled, +1 [+2] Power")
    st, events = _next_turn(_duel([rank]), [])
    assert any(f"takes the Ranged form ({rank}" in e.text for e in events)
    _, _, _, power, rng = _stats(st)
    assert (rng, power) == (ranged_range, ranged_power)
    # the Foe 30" away (29" between bases) is now in Range of the Gun
    st = replace(st, flow=replace(st.flow, phase=Phase.ATTACK, active=0))
    engine.check(st, Attack(0, (("Gun", 1),)))
    # the form lasts the Game Turn: the next one takes it again
    st2, _ = _next_turn(st, [])
    assert sum(1 for s in st2.units[0].statuses if s.name.startswith(rank)) == 1


@pytest.mark.parametrize(
    ("rank", "tank"),
    [
        pytest.param("Transform I", (5, 4, None), id="p2530-Transform I"),
        pytest.param("Transform II", (6, 3, None), id="p2544-Transform II"),
        pytest.param("Transform III", (7, 3, 6), id="p2560-Transform III"),
    ],
)
def test_transform_the_player_chooses_the_tank_form_before_the_unit_acts(
    rank: str, tank: tuple[int, int | None, int | None]
) -> None:
    # L2530-L2560 Tank: "+1 Defence" / "+2 Defence Stat, increase Armour Save by +1" / "+3
    # Defence Stat, increase Armour and AEGIS Saves by +1" (no AEGIS: 6+, as Magic Armour)
    st, _ = _next_turn(_duel([rank], automation=_CHOOSING), [])
    assert st.flow.phase is Phase.MOVE  # no unit in Reserve: no Deploy Phase
    listed = [a for a in engine.legal_actions(st) if isinstance(a, UsePerks)]
    assert UsePerks(0, (f"{rank}: Tank",)) in listed
    assert UsePerks(0, (f"{rank}: Ranged",)) not in listed  # the form it has
    st = replace(st, flow=replace(st.flow, active=0))
    st, events = engine.apply(st, UsePerks(0, (f"{rank}: Tank",)))
    check_invariants(st)
    assert any(f"takes the Tank form ({rank}, the player's choice)" in e.text for e in events)
    defence, armour, aegis, power, rng = _stats(st)
    assert (defence, armour, aegis) == tank
    assert (power, rng) == (4, 24)
    with pytest.raises(RulesError, match="once, before the unit acts"):
        engine.check(st, UsePerks(0, (f"{rank}: Melee",)))


@pytest.mark.parametrize(
    ("rank", "power", "attacks", "move"),
    [
        pytest.param("Transform I", 5, 1, 6, id="p2530-Transform I"),
        pytest.param("Transform II", 5, 2, 6, id="p2544-Transform II"),
        pytest.param("Transform III", 6, 3, 12, id="p2560-Transform III"),
    ],
)
def test_transform_melee_form_is_0_range_and_more_power(
    rank: str, power: int, attacks: int, move: int
) -> None:
    # L2530 "Melee: All Weapons become 0\" Range but receive +1 Power" (III: "+2 Power, +1 AP
    # and +2 Attacks. +6\" to Move")
    st, _ = _next_turn(_duel([rank], automation=_CHOOSING), [])
    st = replace(st, flow=replace(st.flow, active=0))
    st, _ = engine.apply(st, UsePerks(0, (f"{rank}: Melee",)))
    _, _, _, p, rng = _stats(st)
    assert (p, rng, _gun(st).attacks) == (power, 0, attacks)
    assert unit_allowance(_work(st), 0, False) == move


def test_p2544_transform_ii_movement_form_is_half_again_move_and_dash() -> None:
    st, _ = _next_turn(_duel(["Transform II"], automation=_CHOOSING), [])
    st = replace(st, flow=replace(st.flow, active=0))
    st, _ = engine.apply(st, UsePerks(0, ("Transform II: Movement",)))
    w = _work(st)
    assert (unit_allowance(w, 0, False), unit_allowance(w, 0, True)) == (9, 9)


def test_p2530_transform_names_a_form() -> None:
    st, _ = _next_turn(_duel(["Transform I"], automation=_CHOOSING), [])
    st = replace(st, flow=replace(st.flow, active=0))
    with pytest.raises(RulesError, match="name a form for Transform I: Tank, Melee"):
        engine.check(st, UsePerks(0, ("Transform I: Flying",)))
    with pytest.raises(RulesError, match="gives no choice"):
        engine.check(
            _duel(["Magic Armour I"], automation=_CHOOSING), UsePerks(0, ("Magic Armour I: Tank",))
        )


# -- Wild Armour: a D6 at the start of each Game Turn is the Armour Stat -----------------------


def test_p1803_wild_armour_rolls_the_armour_stat_at_the_start_of_the_game_turn() -> None:
    # L1803 "roll a D6. The result is the User's Armour Stat for this Game Turn"
    st, events = _next_turn(_duel(["Wild Armour"]), [5])
    assert any("Wild Armour rolls 5: Armour 5+" in e.text for e in events)
    assert _stats(st)[1] == 5
    st, _ = _next_turn(st, [3])
    assert _stats(st)[1] == 3


def test_p1803_wild_armour_a_1_is_2_plus_with_failed_armour_saves_rerolled() -> None:
    # L1803 "If a '1' is rolled, the Armour Save is 2+ and failed Armour Saves can be rerolled"
    def shot_at(roll: int) -> tuple[GameState, GameState]:
        st, _ = _next_turn(_duel(["Wild Armour"]), [roll])
        foe_turn = replace(st, flow=replace(st.flow, phase=Phase.ATTACK, active=1))
        foe = replace(foe_turn.units[1], pos=((20.0, 20.0),))
        foe_turn = replace(foe_turn, units=(foe_turn.units[0], foe))
        # the Foe's Gun: a 6 succeeds; the Armour Save rolls 1 (failed), then 2
        after, _ = engine.apply(foe_turn, Attack(1, (("Gun", 0),)), dice=ScriptedDice([6, 1, 2]))
        check_invariants(after)
        return st, after

    st, after = shot_at(1)
    unit_state = to_unit_state(_work(st), 0)
    assert unit_state.profile.armour == 2 and "Reinforced" in unit_state.profile.perks
    assert after.units[0].hp == (4,)  # saved on the reroll
    st, after = shot_at(2)  # a 2: 2+ as well, but no reroll
    assert _stats(st)[1] == 2 and after.units[0].hp == (3,)


# -- Magic Armour I-III: an Aether Test, then the Armour Save improved for the Game Turn -------


@pytest.mark.parametrize(
    ("rank", "armour", "doubled"),
    [
        pytest.param("Magic Armour I", 3, 2, id="p1579-Magic Armour I"),
        pytest.param("Magic Armour II", 2, 2, id="p1581-Magic Armour II"),
        pytest.param("Magic Armour III", 2, 2, id="p1583-Magic Armour III"),
    ],
)
def test_magic_armour_a_passed_aether_test_improves_the_armour_save(
    rank: str, armour: int, doubled: int
) -> None:
    # L1579 "If successful, the User increases its Armour Save by +1. Maximum of 2+"; L249 an
    # Aether Test passes on 9 or lower, a 2 doubles the bonus
    st = _duel([rank], automation=_CHOOSING)
    assert UsePerks(0, (rank,)) in list(engine.legal_actions(st))
    after, events = engine.apply(st, UsePerks(0, (rank,)), dice=ScriptedDice([4, 5]))
    assert any(f"passes its {rank} Aether Test" in e.text for e in events)
    assert _stats(after)[1] == armour
    twice, _ = engine.apply(st, UsePerks(0, (rank,)), dice=ScriptedDice([1, 1]))
    assert _stats(twice)[1] == doubled
    failed, events = engine.apply(st, UsePerks(0, (rank,)), dice=ScriptedDice([5, 5]))
    assert _stats(failed)[1] == 4 and any("fails" in e.text for e in events)
    # for the Game Turn (once per Game Turn in the Standard playstyle)
    with pytest.raises(RulesError, match="already used this Game Turn"):
        engine.check(after, UsePerks(0, (rank,)))
    nxt, _ = _next_turn(after, [])
    assert _stats(nxt)[1] == 4


def test_p1579_magic_armour_gives_a_6_plus_save_to_a_unit_without_one() -> None:
    st = _duel(["Magic Armour I"], automation=_CHOOSING, armour=None)
    after, _ = engine.apply(st, UsePerks(0, ("Magic Armour I",)), dice=ScriptedDice([3, 3]))
    assert _stats(after)[1] == 6


def test_p1579_magic_armour_an_aether_12_costs_d6_hp() -> None:
    # L249 "If the result is 12, the User suffers D6 HP Loss (no Saves allowed)"
    st = _duel(["Magic Armour I"], automation=_CHOOSING)
    after, events = engine.apply(st, UsePerks(0, ("Magic Armour I",)), dice=ScriptedDice([6, 6, 2]))
    check_invariants(after)
    assert after.units[0].hp == (2,) and _stats(after)[1] == 4
    assert any("2 HP lost (no Saves)" in e.text for e in events)


def test_p1677_resist_i_moves_an_enemys_aether_test_within_12() -> None:
    # L1677 "Resist I also causes a -1 Dice Modifier to Perks with 'Aether' Activation within
    # 12\" … Aether will instead require 8 or less to succeed"
    near = _duel(["Magic Armour I"], automation=_CHOOSING, foe_perks=["Resist I"], gap=10)
    after, events = engine.apply(near, UsePerks(0, ("Magic Armour I",)), dice=ScriptedDice([4, 5]))
    assert _stats(after)[1] == 4 and any("fails" in e.text for e in events)
    far = _duel(["Magic Armour I"], automation=_CHOOSING, foe_perks=["Resist I"], gap=20)
    after, _ = engine.apply(far, UsePerks(0, ("Magic Armour I",)), dice=ScriptedDice([4, 5]))
    assert _stats(after)[1] == 3


# -- into Reserve: Warp, Vanish, Unstable -------------------------------------------------------


def _end_phase(state: GameState) -> GameState:
    phase = state.flow.phase
    while state.flow.phase is phase and not state.over:
        state, _ = engine.apply(state, Pass())
        check_invariants(state)
    return state


def test_p4115_warp_a_6_sends_the_target_into_reserve_until_the_next_game_turn() -> None:
    # L4115 "For each HP Loss caused by a Warp Weapon, roll a D6. If any D6 result in a 6, the
    # Target will be sent into Reserve … Standard: The Target will be able to Deploy in the
    # following Game Turn"
    def shot(face: int) -> GameState:
        me = unit("Warper", weapons=[weapon("Gun", range=24, power=6, perks=["Warp"])])
        foe = unit("Foe", hp=3)
        st = scenario([[entry(me)], [entry(foe)]], {0: [(20, 5)], 1: [(20, 15)]},
                      phase=Phase.ATTACK)  # fmt: skip
        st, events = engine.apply(st, Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, face]))
        assert any("Warp" in e.text for e in events)
        return st

    st = shot(6)
    assert st.units[1].location is Location.TABLE  # at the end of the Phase
    st = _end_phase(st)
    assert st.units[1].location is Location.RESERVE and st.units[1].hp == (2,)
    with pytest.raises(RulesError, match="may deploy from the next Game Turn"):
        engine.check(replace(st, flow=replace(st.flow, phase=Phase.DEPLOY, active=1)),
                     Deploy(1))  # fmt: skip
    nxt, _ = _next_turn(st, [])
    assert nxt.flow.phase is Phase.DEPLOY
    nxt = replace(nxt, flow=replace(nxt.flow, active=1))
    nxt, _ = engine.apply(nxt, Deploy(1))
    assert nxt.units[1].location is Location.TABLE
    missed = _end_phase(shot(5))
    assert missed.units[1].location is Location.TABLE


def test_p1081_vanish_a_passed_mastery_test_enters_reserve_at_the_end_of_the_phase() -> None:
    # L1081 "The User enters Reserve at the end of the Phase … regardless of whether they are
    # engaged in a Melee"
    me = unit("Ghost", perks=["Vanish"], hp=3)
    foe = unit("Foe", hp=3)
    st = scenario([[entry(me)], [entry(foe)]], {0: [(20, 5)], 1: [(20, 6.05)]},
                  phase=Phase.MOVE, automation=_CHOOSING, engaged=[(0, 1)])  # fmt: skip
    assert UsePerks(0, ("Vanish",)) in list(engine.legal_actions(st))
    st, _ = engine.apply(st, UsePerks(0, ("Vanish",)), dice=ScriptedDice([4]))
    assert st.units[0].location is Location.TABLE
    st = _end_phase(st)
    assert st.units[0].location is Location.RESERVE and not st.engaged
    assert not any(s.name == "Vanish" for s in st.units[0].statuses)


def test_p2329_unstable_a_failed_mastery_test_after_hp_loss_goes_into_reserve() -> None:
    # L2329 "If failed, the User will go into Reserve and must stay there for the current Game
    # Turn and can be Deployed next Game Turn"
    def start(face: int) -> tuple[GameState, list[Event]]:
        st = _duel(["Unstable"])
        u = st.units[0].with_counter("hp lost turn", st.flow.turn)
        return _next_turn(replace(st, units=(u, st.units[1])), [face])

    st, events = start(1)
    assert st.units[0].location is Location.RESERVE
    assert any("Unstable: into Reserve" in e.text for e in events)
    with pytest.raises(RulesError, match=r"went into Reserve this Game Turn \(Unstable"):
        engine.check(replace(st, flow=replace(st.flow, phase=Phase.DEPLOY, active=0)), Deploy(0))
    calm, _ = start(4)
    assert calm.units[0].location is Location.TABLE


# -- the engine's own choices read the Ranges perks give (the scripted player, perk use) ------


def test_p2530_the_scripted_player_holds_its_ground_within_its_transformed_range() -> None:
    # the scripted player stays put with a target within 3/4 of its reach: the reach is the
    # Range the game checks (Transform I's Ranged form: 12" x 3/2 = 18"), not the printed 12"
    from warbench.rulesets.warsurge.game.players import ScriptedPlayer

    def choice(perks: list[str]) -> object:
        me = unit("Gunner", perks=perks, weapons=[weapon("Gun", range=12)])
        foe = unit("Foe", hp=3)
        st = scenario([[entry(me)], [entry(foe)]], {0: [(20, 5)], 1: [(20, 18)]},
                      phase=Phase.ATTACK)  # fmt: skip
        st, _ = _next_turn(st, [])
        assert st.flow.phase is Phase.MOVE
        st = replace(st, flow=replace(st.flow, active=0))
        return ScriptedPlayer().choose(st)

    assert isinstance(choice([]), Move)  # 12" away, printed reach 12": closes in
    assert isinstance(choice(["Transform I"]), Pass)  # Ranged form, 18": holds its ground


def test_p1759_smokescreen_is_used_when_the_unit_is_within_an_enemys_reach() -> None:
    # the engine's choice (the ``perk use`` automation): Smokescreen the first time an enemy
    # could reach the unit with its Move, Dash and weapon Range (a 30" Gun, 40" away: 42")
    hidden = unit("Hidden", perks=["Smokescreen"], hp=3)
    far_gun = unit("Far", weapons=[weapon("Gun", range=30)])
    st = scenario([[entry(hidden)], [entry(far_gun)]], {0: [(10, 3)], 1: [(10, 44)]},
                  phase=Phase.ATTACK)  # fmt: skip
    _, events = _next_turn(st, [])
    assert any("uses Smokescreen" in e.text for e in events)
    short_gun = unit("Near", weapons=[weapon("Gun", range=12)])  # 24": out of its reach
    st = scenario([[entry(hidden)], [entry(short_gun)]], {0: [(10, 3)], 1: [(10, 44)]},
                  phase=Phase.ATTACK)  # fmt: skip
    _, events = _next_turn(st, [])
    assert not any("uses Smokescreen" in e.text for e in events)


# -- Bloodlust (L2919), Fugue (L2716) -----------------------------------------------------------


def _killers(models: int = 2) -> GameState:
    """Side 0's Berserker (a Bloodlust Axe, 1 Attack, Power 8) and Ally (a Gun); side 1's Foe."""
    axe = weapon("Axe", range=24, power=8, attacks=1, perks=["Bloodlust"])
    me = unit("Berserker", weapons=[axe], hp=3)
    ally = unit("Ally", weapons=[weapon("Gun", range=24, power=8)], hp=3)
    foe = unit("Foe", hp=1, models=models)
    return scenario([[entry(me), entry(ally)], [entry(foe)]],
                    {0: [(20, 5)], 1: [(24, 5)], 2: [(20, 15), (21.5, 15)][:models]},
                    phase=Phase.ATTACK)  # fmt: skip


def test_p2919_bloodlust_a_target_it_hurt_slain_gives_the_weapon_an_attack() -> None:
    # L2919 "If the User has contributed any HP Loss to the Target … the User gains +1 Attack
    # to this Weapon when the Target Unit is removed as a casualty"
    st = _killers()
    st, _ = engine.apply(st, Attack(0, (("Axe", 2),)), dice=ScriptedDice([6]))  # 1 of 2 falls
    assert _work(st).units[2].living() and to_unit_state(_work(st), 0).weapons["Axe"].attacks == 1
    st = replace(st, flow=replace(st.flow, active=0))
    st, events = engine.apply(st, Attack(1, (("Gun", 2),)), dice=ScriptedDice([6]))  # the Ally
    check_invariants(st)
    assert not st.units[2].living()
    assert any("Bloodlust, Axe +1 Attack" in e.text for e in events)
    assert to_unit_state(_work(st), 0).weapons["Axe"].attacks == 2
    # a Target the Axe never hurt: nothing
    st = _killers(models=1)
    st, _ = engine.apply(st, Attack(1, (("Gun", 2),)), dice=ScriptedDice([6]))
    assert not st.units[2].living()
    assert to_unit_state(_work(st), 0).weapons["Axe"].attacks == 1


def test_p2716_fugue_fails_every_mastery_and_skill_test_the_next_game_turn() -> None:
    # L2716 "the Target will automatically fail all Mastery and Skill Tests on the following
    # Game Turn"
    def hit(perks: list[str]) -> GameState:
        gun = weapon("Gun", range=24, power=8, perks=perks)
        me = unit("Caster", weapons=[gun], hp=5)
        foe = unit("Foe", perks=["Morale I"], hp=5,
                   weapons=[weapon("Torch", range=24, power=8, perks=["Cripple I"])])  # fmt: skip
        st = scenario([[entry(me)], [entry(foe)]], {0: [(20, 5)], 1: [(20, 15)]},
                      phase=Phase.ATTACK)  # fmt: skip
        st, _ = engine.apply(st, Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 4]))
        return st

    st = hit(["Fugue"])
    assert any(s.name.startswith("Fugue") for s in st.units[1].statuses)
    st, events = _next_turn(st, [6])  # Morale I's Mastery Test: a 6, failed all the same
    assert any(s.name == "Morale I" for s in st.units[1].statuses)
    assert any("fails its Morale I test" in e.text and "no roll" in e.text for e in events)
    st = replace(st, flow=replace(st.flow, phase=Phase.ATTACK, active=1))
    st, events = engine.apply(st, Attack(1, (("Torch", 0),)), dice=ScriptedDice([6, 6]))
    assert not any("Cripple" in s.name for s in st.units[0].statuses)  # its Skill Test failed
    calm, _ = _next_turn(hit([]), [6])
    assert not any(s.name == "Morale I" for s in calm.units[1].statuses)
    calm = replace(calm, flow=replace(calm.flow, phase=Phase.ATTACK, active=1))
    calm, _ = engine.apply(calm, Attack(1, (("Torch", 0),)), dice=ScriptedDice([6, 6]))
    assert any("Cripple" in s.name for s in calm.units[0].statuses)  # passed on the 6


@pytest.mark.parametrize(
    "rank",
    [
        pytest.param("Morale I", id="p2249-Morale I"),
        pytest.param("Morale II", id="p2261-Morale II"),
    ],
)
def test_morale_failed_treats_the_battlefield_as_difficult_ground(rank: str) -> None:
    # L2249 "If failed, … the Unit treats the Battlefield as Difficult Ground" (§4.5: Movement
    # halved, rounded down, at least 1" less): Move 6 becomes 3" on open ground
    st = _duel([rank])
    u = st.units[0].with_counter("hp lost turn", st.flow.turn)
    st, _ = _next_turn(replace(st, units=(u, st.units[1])), [1])  # the test fails
    assert any(s.name == rank for s in st.units[0].statuses)
    st = replace(st, flow=replace(st.flow, active=0))
    with pytest.raises(RulesError, match="halved by Difficult Ground"):
        engine.check(st, Move(0, positions=((20.0, 10.0),)))
    after, _ = engine.apply(st, Move(0, positions=((20.0, 8.0),)))
    check_invariants(after)
    calm, _ = _next_turn(replace(_duel([rank]), units=(u, st.units[1])), [6])
    calm = replace(calm, flow=replace(calm.flow, active=0))
    engine.check(calm, Move(0, positions=((20.0, 10.0),)))


# -- Paralysis (L2790), Courage (L707) ----------------------------------------------------------


def test_p2790_paralysis_a_6_stops_the_target_moving_attacking_and_using_perks_next_turn() -> None:
    # L2790 "During the following Game Turn the Target will be unable to Move, Dash, Attack or
    # use any Perks until the end of the Game Turn"
    def hit(face: int) -> GameState:
        gun = weapon("Gun", range=24, power=8, perks=["Paralysis"])
        me = unit("Stinger", weapons=[gun], hp=5)
        foe = unit("Foe", perks=["Limit Break I"], hp=5)
        st = scenario([[entry(me)], [entry(foe)]], {0: [(20, 5)], 1: [(20, 15)]},
                      phase=Phase.ATTACK, automation=_CHOOSING)  # fmt: skip
        st, _ = engine.apply(st, Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, face]))
        st, _ = _next_turn(st, [])
        return replace(st, flow=replace(st.flow, active=1))

    st = hit(6)
    assert any(s.name == "Paralysis" for s in st.units[1].statuses)
    assert unit_allowance(_work(st), 1, False) == 0
    with pytest.raises(RulesError, match="Paralysed"):
        engine.check(st, UsePerks(1, ("Limit Break I",)))
    attack = replace(st, flow=replace(st.flow, phase=Phase.ATTACK))
    with pytest.raises(RulesError, match="Paralysed"):
        engine.check(attack, Attack(1, (("Gun", 0),)))
    free = hit(5)
    assert unit_allowance(_work(free), 1, False) == 6
    engine.check(free, UsePerks(1, ("Limit Break I",)))


def test_p707_courage_removes_and_ignores_morale_and_cripple_and_difficult_ground() -> None:
    # L707 "For the duration of one Game Turn, the Unit ignores the effects of Difficult and
    # Dangerous Ground. Courage also ignores and removes the effects of Cripple … Morale …"
    def shaken() -> GameState:
        me = unit("Brave", perks=["Morale I", "Courage"], hp=4, armour=None,
                  weapons=[weapon("Gun", range=24)])  # fmt: skip
        foe = unit("Foe", hp=4, weapons=[weapon("Claw", range=24, power=8, perks=["Cripple I"])])
        st = scenario([[entry(me)], [entry(foe)]], {0: [(20, 5)], 1: [(20, 20)]},
                      automation=_CHOOSING)  # fmt: skip
        u = st.units[0].with_counter("hp lost turn", st.flow.turn)
        st, _ = _next_turn(replace(st, units=(u, st.units[1])), [1])  # Morale I failed
        return replace(st, flow=replace(st.flow, active=0))

    def crippled(st: GameState) -> bool:
        at = replace(st, flow=replace(st.flow, phase=Phase.ATTACK, active=1))
        at, _ = engine.apply(at, Attack(1, (("Claw", 0),)), dice=ScriptedDice([6, 6]))
        return any("Cripple" in s.name for s in at.units[0].statuses)

    st = shaken()
    with pytest.raises(RulesError, match="halved by Difficult Ground"):
        engine.check(st, Move(0, positions=((20.0, 10.0),)))
    assert crippled(st)
    st, events = engine.apply(st, UsePerks(0, ("Courage",)))
    assert any("Morale I removed" in e.text for e in events)
    assert not any(s.name == "Morale I" for s in st.units[0].statuses)
    engine.check(st, Move(0, positions=((20.0, 10.0),)))
    assert not crippled(st)  # a Cripple inflicted this Game Turn is ignored


# -- Ignite I/II (L2740-L2758): an Attack at the end of each Game Turn while it burns ----------


def _lit(rank: str, **foe: Any) -> GameState:
    """Side 0's Torch (``rank``, Power 8) took 1 HP from side 1's Foe (5 HP) this Game Turn."""
    torch = weapon("Torch", range=24, power=8, perks=[rank])
    me = unit("Pyro", weapons=[torch], hp=5)
    them = unit("Foe", **{"hp": 5, "defence": 4, **foe})
    st = scenario([[entry(me)], [entry(them)]], {0: [(20, 5)], 1: [(20, 15)]},
                  phase=Phase.ATTACK)  # fmt: skip
    saves = [1] if foe.get("armour") else []
    st, _ = engine.apply(st, Attack(0, (("Torch", 1),)), dice=ScriptedDice([6, *saves]))
    check_invariants(st)
    return st


@pytest.mark.parametrize(
    "rank",
    [
        pytest.param("Ignite I", id="p2740-Ignite I"),
        pytest.param("Ignite II", id="p2758-Ignite II"),
    ],
)
def test_ignite_attacks_at_the_end_of_each_turn_until_it_causes_no_hp_loss(rank: str) -> None:
    # L2740 "the Target suffers a single Attack with Power equal to the HP Loss caused by all
    # Ignite Weapons multiplied by four … If no HP Loss occurs … Ignite is removed"
    st = _lit(rank)
    assert st.units[1].hp == (4,) and st.units[1].counter("ignite power") == 4
    st, events = _next_turn(st, [6])  # Power 4 against Defence 4: a 6 succeeds
    assert any("Ignite, one Attack at Power 4" in e.text and "1 HP lost" in e.text for e in events)
    assert st.units[1].hp == (3,) and any(s.name == "Ignite" for s in st.units[1].statuses)
    st, events = _next_turn(st, [1])  # it fails: the fire goes out
    assert st.units[1].hp == (3,) and not any(s.name == "Ignite" for s in st.units[1].statuses)
    assert any("Ignite goes out" in e.text for e in events)


def test_p2758_ignite_ii_is_ap_2_and_fire_resist_is_immune() -> None:
    # L2758 "the Attack is AP 2": a 3+ Armour Save is ignored (Ignite I's is rolled: a 6 saves)
    st, _ = _next_turn(_lit("Ignite I", armour=3), [6, 6])
    assert st.units[1].hp == (4,)
    st, _ = _next_turn(_lit("Ignite II", armour=3), [6, 6])
    assert st.units[1].hp == (3,)
    # Fire Resist I (L1527): "unaffected by Burn and Ignite Perks"
    immune = _lit("Ignite I", perks=["Fire Resist I"])
    assert not immune.units[1].statuses


def test_p4115_a_unit_back_from_reserve_with_casualties_deploys_in_coherency() -> None:
    me = unit("Warper", weapons=[weapon("Gun", range=24, power=6, perks=["Warp"])])
    foe = unit("Line", hp=1, models=10)
    st = scenario([[entry(me)], [entry(foe)]],
                  {0: [(20, 5)], 1: [(10 + 1.5 * k, 15) for k in range(10)]},
                  phase=Phase.ATTACK)  # fmt: skip
    # six models in the middle fell earlier; a 6 sends the rest into Reserve
    keep = (0, 1, 8, 9)
    gone = replace(st.units[1], hp=tuple(1 if k in keep else 0 for k in range(10)),
                   removed=tuple(k not in keep for k in range(10)))  # fmt: skip
    st = replace(st, units=(st.units[0], gone))
    st, _ = engine.apply(st, Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 6]))
    st = _end_phase(st)
    assert st.units[1].location is Location.RESERVE
    st, _ = _next_turn(st, [])
    st, _ = engine.apply(replace(st, flow=replace(st.flow, active=1)), Deploy(1))
    check_invariants(st)
    assert st.units[1].location is Location.TABLE and len(st.units[1].living()) == 3


def test_p1489_defend_rerolls_failed_armour_saves_and_stops_movement_and_weapons() -> None:
    # L1489 "If the Unit has not used Weapons or made Movement in this Game Turn, they can
    # reroll failed Armour Saves … Using this Perk prevents future Movement and the use of
    # Weapons for the current Game Turn"
    def shot(defend: bool) -> tuple[GameState, GameState]:
        st = _duel(["Defend"], automation=_CHOOSING, gap=10)
        if defend:
            assert UsePerks(0, ("Defend",)) in list(engine.legal_actions(st))
            st, _ = engine.apply(st, UsePerks(0, ("Defend",)))
        at = replace(st, flow=replace(st.flow, phase=Phase.ATTACK, active=1))
        # the Foe's Gun: a 6 succeeds; the 4+ Armour Save rolls 1 (failed), then 5
        after, _ = engine.apply(at, Attack(1, (("Gun", 0),)), dice=ScriptedDice([6, 1, 5]))
        return st, after

    st, after = shot(True)
    assert after.units[0].hp == (4,)  # saved on the reroll
    assert unit_allowance(_work(st), 0, False) == 0
    attack = replace(st, flow=replace(st.flow, phase=Phase.ATTACK, active=0))
    with pytest.raises(RulesError, match="used Defend: no Weapons"):
        engine.check(attack, Attack(0, (("Gun", 1),)))
    _, plain = shot(False)
    assert plain.units[0].hp == (3,)
    moved = _duel(["Defend"], automation=_CHOOSING, gap=10)
    moved, _ = engine.apply(moved, Move(0, to=(20.0, 7.0)))
    moved = replace(moved, flow=replace(moved.flow, active=0))
    with pytest.raises(RulesError, match="has moved or used Weapons"):
        engine.check(moved, UsePerks(0, ("Defend",)))
