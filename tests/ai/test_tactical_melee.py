"""The melee habits of session 29 (``ai.tactical_melee``, switch ``TacticalBot.trade_up``) on
constructed states: Berserkers as in the melee mirror (``sim.points_study``: Move 8", 3
Attacks of Power 5 a model, each expected to slay a model), so a Melee of two such units is
simultaneous mutual destruction (Core Rules 001_d3f5e425c5e1196d.txt L2872)."""

from __future__ import annotations

from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactical_melee import behind, held_back, keeps_reserve, spends_itself
from warbench.rulesets.warsurge.game.actions import Move, Pass
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work

CHAINSWORD = weapon("Chainsword", range=0, attacks=3, power=5, ap="4+")


def _berserkers(models: int) -> object:
    return unit("Berserkers", models=models, move=8, dash=6, armour="4+", weapons=[CHAINSWORD])


def _row(n: int, x: float, y: float) -> list[tuple[float, float]]:
    return [(x + 1.2 * k, y) for k in range(n)]


def _state(ours: tuple[int, int], theirs: tuple[int, int], gap: float, spare: int = 0) -> GameState:
    """Move Phase, side 0 to act: its Berserkers (uid 0: ``ours[0]`` models worth
    ``ours[1]`` points) stand ``gap``" (edge to edge) south of the enemy's (uid 1); with
    ``spare``, side 0 also holds a unit worth ``spare`` points (uid 1, the enemy uid 2) far
    in the west."""
    a = entry(_berserkers(ours[0]), points=ours[1])  # type: ignore[arg-type]
    b = entry(_berserkers(theirs[0]), points=theirs[1])  # type: ignore[arg-type]
    mine = [a]
    foe = 2 if spare else 1
    where = {0: _row(ours[0], 20.0, 10.0), foe: _row(theirs[0], 20.0, 10.0 + 1.0 + gap)}
    if spare:
        mine.append(entry(_berserkers(1), points=spare))  # type: ignore[arg-type]
        where[1] = [(2.0, 2.0)]
    return scenario([mine, [b]], where, phase=Phase.MOVE)


def _work(state: GameState) -> Work:
    from warbench.rulesets.warsurge.game import engine

    return engine.legal_actions(state)._work


def test_an_even_trade_that_destroys_the_charger_spends_it() -> None:
    """The rule in numbers: a trade that costs a unit its value without taking more spends
    it; one that takes more (six Berserkers on ten: 245 points for 150) does not."""
    assert spends_itself(150.0, 147.0, 150.0)
    assert not spends_itself(245.0, 150.0, 150.0)
    assert not spends_itself(10.0, 10.0, 400.0)  # two Behemoths: a few HP of 18 an attack


def test_level_ten_berserkers_do_not_charge_six_worth_as_much_L2872() -> None:
    """Level on points (150 each), ten Berserkers 5" from six: a charge slays all six (150)
    and loses about 9.8 of the ten (147) in the same Attack Phase (L2872): it spends the
    unit. With ``trade_up`` it does not charge; switched off it charges (``CHARGE_RISK``)."""
    state = _state((10, 150), (6, 150), 5.0)
    off = TacticalBot(trade_up=False).choose(state)
    assert isinstance(off, Move) and off.engage == 1
    on = TacticalBot(trade_up=True).choose(state)
    assert not (isinstance(on, Move) and on.engage is not None)


def test_six_berserkers_charge_ten_a_trade_up() -> None:
    """Six Berserkers (150) 5" from ten (250; side 0 holds 100 more, so level): a charge is
    expected to slay 9.8 of the ten (245) and lose the six (150): it trades up, and the
    habit charges."""
    state = _state((6, 150), (10, 250), 5.0, spare=100)
    on = TacticalBot(trade_up=True).choose(state)
    assert isinstance(on, Move) and on.engage == 2


def test_behind_on_points_it_still_makes_the_even_trade() -> None:
    """Behind (100 against 150), the unit charges (a side that holds back while behind loses
    on the value left, §2.2 step 8). Its ten Berserkers are now worth 100, so the charge
    takes 150 for about 98 and does not spend them either way; the trade that does spend the
    unit, made because its side is behind, is the next test's."""
    state = _state((10, 100), (6, 150), 5.0)
    on = TacticalBot(trade_up=True).choose(state)
    assert isinstance(on, Move) and on.engage == 1


def test_behind_on_points_it_makes_the_trade_that_spends_it_S2_2() -> None:
    """The even trade itself while behind: ten Berserkers (150) 5" from six (150) whose side
    holds 100 points more far in the west. The charge spends the ten (as level, above), but
    behind on the value left (§2.2 step 8) the unit keeps the old rule and charges."""
    a = entry(_berserkers(10), points=150)  # type: ignore[arg-type]
    b = entry(_berserkers(6), points=150)  # type: ignore[arg-type]
    spare = entry(_berserkers(1), points=100)  # type: ignore[arg-type]
    where = {0: _row(10, 20.0, 10.0), 1: _row(6, 20.0, 16.0), 2: [(2.0, 2.0)]}
    state = scenario([[a], [b, spare]], where, phase=Phase.MOVE)
    w = _work(state)
    assert behind(state, 0) and not behind(state, 1)
    assert spends_itself(
        TacticalBot()._worth(w, 0, 1, None, True), TacticalBot()._worth(w, 1, 0, None, True), 150.0
    )
    on = TacticalBot(trade_up=True).choose(state)
    assert isinstance(on, Move) and on.engage == 1


def test_level_with_only_even_trades_it_keeps_out_of_the_charge_reach() -> None:
    """Level, ten Berserkers 20" from six (their Move 8" does not reach it): a full move
    toward them ends in their charge reach next Game Turn. With ``trade_up`` the unit keeps
    a reserve (it stands, or shifts no closer to their reach); switched off it walks into
    it."""
    state = _state((10, 150), (6, 150), 20.0)
    w = _work(state)
    here = w.xy(0).mean(axis=0)
    at = (float(here[0]), float(here[1]))
    assert TacticalBot(trade_up=False)._incoming(w, 0, at, next_turn=True) == 0.0
    bot = TacticalBot(trade_up=True)
    on = bot.choose(state)
    if not isinstance(on, Pass):
        assert isinstance(on, Move) and on.engage is None
        assert bot._incoming(w, 0, bot._landing[on], next_turn=True) == 0.0
    off_bot = TacticalBot(trade_up=False)
    off = off_bot.choose(state)
    assert isinstance(off, Move) and off.unit == 0
    assert off_bot._incoming(w, 0, off_bot._landing[off], next_turn=True) > 0.0


def test_level_within_the_enemys_charge_reach_it_steps_back_out_of_it() -> None:
    """Level, ten Berserkers 7" south of six (within their Move 8"): with ``trade_up`` the
    unit neither charges nor stands in their reach: it moves away from them (north is
    toward them), out of their Move next Game Turn. Switched off it charges."""
    state = _state((10, 150), (6, 150), 7.0)
    w = _work(state)
    bot = TacticalBot(trade_up=True)
    here = w.xy(0).mean(axis=0)
    assert bot._incoming(w, 0, (float(here[0]), float(here[1])), next_turn=True) > 0.0
    on = bot.choose(state)
    assert isinstance(on, Move) and on.engage is None and on.to is not None
    assert on.to[1] < float(here[1])  # away from the six, to the south
    assert bot._incoming(w, 0, on.to, next_turn=True) == 0.0
    off = TacticalBot(trade_up=False).choose(state)
    assert isinstance(off, Move) and off.engage == 1


def test_both_levels_play_the_habit() -> None:
    """The ladder kept its records with the habit (docs/ai.md, session 29): it is on in
    ``tactical`` and ``tactical:2`` alike, since both build their bot with the default."""
    assert TacticalBot().trade_up
    assert TacticalBot(fire_position=True, fire_approach=True).trade_up


def test_keeping_a_reserve_it_does_not_step_out_from_behind_a_wall() -> None:
    """§5.5-5.6: the Blades behind a wall, within the Gunner's Move plus Range (its Cannon
    would spend them in a Melee too, §5.9): the reserve's moves are only those after which
    the Gunner sees them no more than where they stand, so they stay hidden (the path round
    the wall's end, and a step straight away from the Gunner, would both be in its sight)."""
    from tests.ai.test_tactics import _hidden_melee_state

    state = _hidden_melee_state()
    bot = TacticalBot()
    assert bot._exposure(_work(state), 0) == 0.0
    here = _work(state).xy(0).mean(axis=0)
    assert bot._incoming(_work(state), 0, (float(here[0]), float(here[1])), next_turn=True) > 0
    on = bot.choose(state)
    assert isinstance(on, Pass) or bot._exposure_after(state, 0, on) == 0.0


def _even(w: Work, a: int, b: int, weapon: str | None, melee: bool) -> float:
    """Every Melee an even trade that spends unit 0: it takes 150, loses 147 of its 150."""
    return 150.0 if a == 0 else 147.0


def test_a_trade_up_among_the_four_nearest_foes_lifts_the_reserve() -> None:
    """The reserve is kept only when every Melee among the four nearest enemy units would
    spend the unit: one trade up among them (it takes 300 for 147) lifts it; one fifth in
    line does not count."""
    state = _state((10, 150), (6, 150), 20.0)
    w = _work(state)

    def one_trade_up(w: Work, a: int, b: int, weapon: str | None, melee: bool) -> float:
        return 300.0 if (a, b) == (0, 9) else _even(w, a, b, weapon, melee)

    near = [(1.0, 1), (2.0, 5), (3.0, 6), (4.0, 7)]
    assert keeps_reserve(state, w, 0, near, _even)
    assert not keeps_reserve(state, w, 0, [*near[:3], (4.0, 9)], one_trade_up)
    assert not keeps_reserve(state, w, 0, [(4.0, 9), *near[:3]], one_trade_up)
    assert keeps_reserve(state, w, 0, [*near, (5.0, 9)], one_trade_up)


def test_stepping_away_it_takes_only_the_steps_that_are_less_exposed() -> None:
    """Within the enemy's reach (exposure 5 where it stands), the steps away (straight, 45
    degrees either way) that end less exposed are kept, least exposed first; the one that
    ends more exposed (the east, 9) is not. (Six against six, the foe due north.)"""
    state = _state((6, 150), (6, 150), 7.0)
    w = _work(state)
    here = w.xy(0).mean(axis=0)
    hx = float(here[0])

    def incoming(w: Work, uid: int, at: tuple[float, float], next_turn: bool) -> float:
        if abs(at[0] - hx) < 1e-9 and abs(at[1] - float(here[1])) < 1e-9:
            return 5.0
        return 9.0 if at[0] > hx + 1.0 else (1.0 if at[0] < hx - 1.0 else 2.0)

    out = held_back(state, w, 0, [(7.0, 1)], [], {}, _even, incoming, lambda m: 0.0)
    assert out is not None and len(out) == 2
    assert [incoming(w, 0, m.to, True) for m in out if m.to is not None] == [1.0, 2.0]
