"""The tactical player's price of a Melee by the models left (issue 15, session 39,
s39-ferry, switch ``TacticalBot.melee_count``, ``ai.tactical_count``) on constructed
states. Core Rules 001_d3f5e425c5e1196d.txt §5.8 (a Melee), §5.11 (no more HP lost than the
unit has), L2872 (casualties removed at the end of the Attack Phase)."""

from __future__ import annotations

from dataclasses import replace

from tests.warsurge.game.helpers import entry, line, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactical_count import joiners
from warbench.api import odds
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.state import GameState

AXE = weapon("Power Axe", range=0, attacks=2, power=6, type="Assault")
BREACHERS = unit("Breachers", models=10, weapons=[AXE], hp=1)


def _state(left: tuple[int, int], gap: float = 3.0) -> GameState:
    """Move Phase, side 0 to act: the transport mirror's army a side (an APC, ten Breachers
    and two), the APCs and the units of two far apart; of the units of ten Breachers (uid 1
    and 4, 195 points) ``left`` models stand, side 1's ``gap`` inches up the table from side
    0's (within a Move)."""
    apc = unit("APC", move=10, dash=10, hp=8, defence=7, transport=150, weapons=[weapon("Stub")])
    two = unit("Breachers", models=2, weapons=[AXE], hp=1)
    side = [entry(apc, 166, base_mm=76.2), entry(BREACHERS, 195), entry(two, 39)]
    st = scenario(
        [side, side],
        {
            0: [(4.0, 4.0)],
            1: line(10, 10, 10, 1.2),
            2: line(4, 8, 2),
            3: [(40.0, 40.0)],
            4: line(10, 10 + 1.0 + gap, 10, 1.2),
            5: line(40, 36, 2),
        },
    )
    units = list(st.units)
    for uid, n in zip((1, 4), left, strict=True):
        units[uid] = replace(units[uid], removed=(False,) * n + (True,) * (10 - n))
    return replace(st, units=tuple(units))


def test_six_breachers_are_priced_by_their_own_odds_s5_8() -> None:
    """§5.8, §5.11: the whole unit's odds against ten Breachers are capped at their 10 HP
    (about 10 slain), so the scaled price of six is 6/10 of that; their own odds say 9.5.
    With the switch the price is the exact odds of the six (Monte Carlo is not needed)."""
    state = _state((10, 6))
    w = engine.legal_actions(state)._work
    per_hp = 195 / 10
    whole = odds(w.info(4).unit, w.info(1).unit, melee=True).expected_hp_lost
    six = TacticalBot(melee_count=True)._worth(w, 4, 1, None, True)
    scaled = TacticalBot(melee_count=False)._worth(w, 4, 1, None, True)
    assert abs(scaled - 0.6 * whole * per_hp) < 1e-6
    assert six > 9.0 * per_hp > scaled
    # a full unit against a full unit: the same price either way
    full = _state((10, 10))
    wf = engine.legal_actions(full)._work
    on = TacticalBot(melee_count=True)._worth(wf, 1, 4, None, True)
    off = TacticalBot(melee_count=False)._worth(wf, 1, 4, None, True)
    assert abs(on - off) < 1e-6


def test_ahead_nine_do_not_charge_six_that_take_them_all_s5_8() -> None:
    """Nine Breachers (side 0 ahead, 175.5 points against 117) beside six: six are expected to slay
    8.9 of the nine, so the charge spends the unit on a losing trade (session 29's
    ``trade_up``). With the switch the nine do not charge; priced by 6/10 of the whole unit's
    odds (117 points lost, under 3/4 of 175.5) they do."""
    state = _state((9, 6))

    def charges(bot: TacticalBot) -> bool:
        w = engine.legal_actions(state)._work
        return any(isinstance(a, Move) and a.engage == 4 for a in bot._move(w, 1, False, state))

    assert not charges(TacticalBot(melee_count=True))
    assert charges(TacticalBot(melee_count=False))


def _rhino_state(breachers_at: float) -> GameState:
    """Move Phase, side 0 to act and ahead (400 points against 341.5): its ten Breachers
    (uid 1) in a row at y 10; side 1's APC (uid 3) at (15, 14.5), 2.5" from them (within
    their Move), and its seven Breachers left of ten (uid 4) in a row at y ``breachers_at``."""
    state = _state((10, 7))
    units = list(state.units)
    units[3] = replace(units[3], pos=((15.0, 14.5),))
    units[4] = replace(units[4], pos=tuple(line(10, breachers_at, 10, 1.2)))
    return replace(state, units=tuple(units))


def _charges_apc(bot: TacticalBot, state: GameState) -> bool:
    w = engine.legal_actions(state)._work
    return any(isinstance(a, Move) and a.engage == 3 for a in bot._move(w, 1, False, state))


def test_no_charge_on_a_transport_beside_enemy_breachers_s4_3() -> None:
    """§4.3-4.4: the APC has no melee weapon, so a charge on it alone risks nothing; but the
    seven enemy Breachers 3.5" from it have not moved and can join the Melee before it is
    fought, and are expected to slay the ten. With ``melee_joiners`` the ten do not charge;
    without it they do."""
    state = _rhino_state(20.0)
    w = engine.legal_actions(state)._work
    assert joiners(w, 1, 3, False) == [4]
    assert not _charges_apc(TacticalBot(melee_count=True, melee_joiners=True), state)
    assert _charges_apc(TacticalBot(melee_count=True, melee_joiners=False), state)


def test_a_charge_on_a_transport_with_no_enemy_to_join_s4_3() -> None:
    """§4.1, §4.3: with the enemy Breachers 25" from the APC (beyond their Move) nothing can
    join the Melee: the ten charge it with the switch on too."""
    state = _rhino_state(40.0)
    w = engine.legal_actions(state)._work
    assert joiners(w, 1, 3, False) == []
    assert _charges_apc(TacticalBot(melee_count=True, melee_joiners=True), state)


def _six_state(two_at: float) -> GameState:
    """Move Phase, side 0 to act and not behind (322 points against 296.25: side 1's APC has 3
    of its 8 HP): side 0's six Breachers left of ten (uid 1, 117 points) 3" from side 1's ten
    (uid 4, 195 points); side 1's two Breachers (uid 5) in a row at y ``two_at``."""
    state = _state((6, 10))
    units = list(state.units)
    units[3] = replace(units[3], hp=(3,))
    units[5] = replace(units[5], pos=tuple(line(10, two_at, 2)))
    return replace(state, units=tuple(units))


def test_the_loss_with_joiners_is_no_more_than_the_unit_has_s5_11() -> None:
    """§5.11: a unit loses no more HP than it has. Six Breachers against ten are expected to
    slay 9.5 of them (about 185 points) and to be slain to the last (117 points, their value
    left) by the ten alone; side 1's two Breachers beside the ten can join the Melee (§4.3),
    but can take nothing more. Counted uncapped (117 + the two's 65) the loss made the charge
    spend the unit on an even trade (session 29's ``trade_up``) and the six held back: the
    melee mirror's A2 (seed 0, hive city) ended 400-400 instead of 250-150 (docs/ai.md,
    session 39, s39-draws). Capped at the unit's 117 points the six charge, as they do with
    no one to join."""
    near = _six_state(16.0)
    w = engine.legal_actions(near)._work
    assert joiners(w, 1, 4, False) == [5]

    def charges(state: GameState) -> bool:
        wk = engine.legal_actions(state)._work
        bot = TacticalBot(melee_count=True, melee_joiners=True)
        return any(isinstance(a, Move) and a.engage == 4 for a in bot._move(wk, 1, False, state))

    assert charges(near)
    far = _six_state(40.0)
    assert joiners(engine.legal_actions(far)._work, 1, 4, False) == []
    assert charges(far)
