"""Setting up, placing, initiative, activation, leaders and control
(004_f4ea5693af0644ce.txt L301-L399)."""

from __future__ import annotations

from warbench.play.core import CHANCE
from warbench.rulesets.warengine.game.protocol import WarEngineRuleset
from warbench.rulesets.warengine.game.state import Activate, Attack, First, Leader, Place, Roll

from .helpers import WS, act, activate, captain, character, ctx_of, force, table, trooper


def test_L307_example_aaron_and_dave_place_slowest_first() -> None:
    """Aaron Mv 6, 9, 15; Dave Mv 9, 12, 15: Aaron's 6 first, a roll-off for 9 (Aaron rolls
    lower and places first), Dave's 12, a roll-off for 15 (L305-L307)."""
    aaron = force(*[(f"A{mv}", [(character(f"Aaron {mv}", mv), 1)]) for mv in (6, 9, 15)])
    dave = force(*[(f"D{mv}", [(character(f"Dave {mv}", mv), 1)]) for mv in (9, 12, 15)])
    ws = WarEngineRuleset()
    s = ws.setup((aaron, dave), None, {"builder_limits": False}, 1)
    order: list[tuple[int, str]] = []
    while s.phase == "placement":
        d = ws.pending(s)[0]
        if d.player == CHANCE:
            order.append((CHANCE, "roll"))
            s, _ = ws.apply(s, Roll(1), CHANCE)  # Dave rolls higher: Aaron places first
            continue
        assert isinstance(d.default, Place)
        order.append((d.player, ctx_of(s).profiles[d.default.fig].name))
        s, _ = ws.apply(s, d.default, d.player)
    assert order == [
        (0, "Aaron 6"),
        (CHANCE, "roll"),
        (0, "Aaron 9"),
        (1, "Dave 9"),
        (1, "Dave 12"),
        (CHANCE, "roll"),
        (0, "Aaron 15"),
        (1, "Dave 15"),
    ]
    assert s.phase == "initiative"


def test_L309_figures_are_placed_within_12_inches_of_their_edge() -> None:
    ws = WarEngineRuleset()
    f = force(("A", [(character("Solo", 6), 1)]))
    s = ws.setup((f, f), None, {"builder_limits": False}, 1)
    while ws.pending(s)[0].player == CHANCE:
        s, _ = ws.apply(s, Roll(0), CHANCE)
    d = ws.pending(s)[0]
    refusal = ws.check(s, Place(d.default.fig, 10, 20), d.player)  # type: ignore[union-attr]
    assert refusal is not None and refusal.rule.endswith("L309")
    assert ws.check(s, Place(d.default.fig, 10, 11.5 if d.player == 0 else 36.5), d.player) is None


def test_L362_initiative_winner_chooses_who_goes_first() -> None:
    f = force(("A", [(character("Solo", 6), 1)]))
    ws = WarEngineRuleset()
    s = ws.setup((f, f), None, {"builder_limits": False}, 2)
    while s.phase == "placement":
        d = ws.pending(s)[0]
        s, _ = ws.apply(s, Roll(0) if d.player == CHANCE else d.default, d.player)  # type: ignore[arg-type]
    s, _ = ws.apply(s, Roll(1), CHANCE)
    d = ws.pending(s)[0]
    assert (d.player, d.kind) == (1, "first")
    s, _ = ws.apply(s, First(0), 1)  # player 1 makes player 0 go first (L342)
    assert ws.pending(s)[0].player == 0 and ws.pending(s)[0].kind == "activation"


def _elite(name: str, mn: str, cr: str) -> dict[str, object]:
    return trooper(name, type="E", mn=mn, cr=cr)


def test_L329_leader_is_highest_mental_then_control_radius() -> None:
    unit = [
        (_elite("Sergeant", "4k3", '6"'), 1),
        (_elite("Lieutenant", "4k3", '9"'), 1),
        (_elite("Brute", "5k4", '0"'), 1),
        (trooper(), 2),
    ]
    s = table(
        force(("Squad", unit)),
        force(("Foe", [(trooper("Foe"), 1)])),
        [(10, 5), (12, 5), (14, 5), (16, 5), (18, 5), (10, 40)],
    )
    # the Brute's Mental is higher but without a Control Radius it cannot lead (L327)
    assert s.units[0].leader == 1


def test_L333_replacement_leader_is_closest_to_the_fallen_one() -> None:
    unit = [(_elite("Leader", "5k4", '6"'), 1), (_elite("Sarge", "4k3", '6"'), 2), (trooper(), 1)]
    s = table(
        force(("Squad", unit)),
        force(("Foe", [(trooper("Foe"), 1)])),
        [(10, 5), (20, 5), (12, 5), (14, 5), (10, 40)],
    )
    assert s.units[0].leader == 0
    from warbench.rulesets.warengine.game.resolution import destroy

    destroy(s, ctx_of(s), s.figs[0], None, [], "destroyed")
    assert s.units[0].leader == 2 and not s.units[0].lost_leader


def test_L334_a_tie_is_the_players_pick() -> None:
    unit = [(_elite("Leader", "5k4", '6"'), 1), (_elite("Sarge", "4k3", '6"'), 2), (trooper(), 1)]
    s = table(
        force(("Squad", unit)),
        force(("Foe", [(trooper("Foe"), 1)])),
        [(10, 5), (8, 5), (12, 5), (14, 5), (10, 40)],
    )
    from warbench.rulesets.warengine.game.resolution import destroy

    destroy(s, ctx_of(s), s.figs[0], None, [], "destroyed")
    d = WS.pending(s)[0]
    assert (d.player, d.kind) == (0, "leader") and d.default == Leader(1)
    s, _ = WS.apply(s, Leader(2), 0)
    assert s.units[0].leader == 2 and not s.leader_choice


def test_L375_a_character_activates_with_troopers_whose_leader_is_in_his_radius() -> None:
    hero = captain()
    squad = [(_elite("Sarge", "4k3", '6"'), 1), (trooper(), 3)]
    f0 = force(("Captain", [(hero, 1)]), ("Squad", squad))
    s = table(
        f0,
        force(("Foe", [(trooper("Foe"), 1)])),
        [(10, 5), (16, 5), (17, 5), (18, 5), (19, 5), (10, 40)],
    )
    assert WS.check(s, Activate(0, 1), 0) is None
    far = table(
        f0,
        force(("Foe", [(trooper("Foe"), 1)])),
        [(10, 5), (30, 5), (31, 5), (32, 5), (33, 5), (10, 40)],
    )
    refusal = WS.check(far, Activate(0, 1), 0)
    assert refusal is not None and refusal.rule.endswith("L375")
    s = activate(s, 0, 1)
    assert s.units[0].activated and s.units[1].activated
    # the Captain (Mn 5k4) leads the group: every trooper within 8" is controlled (L393)
    assert all(s.figs[i].controlled for i in range(5))


def test_L393_uncontrolled_figures_read_sixes_as_fives() -> None:
    squad = [(_elite("Sarge", "4k3", '4"'), 1), (trooper(), 3)]
    s = table(
        force(("Squad", squad)),
        force(("Foe", [(trooper("Foe"), 1)])),
        [(10, 5), (11.5, 5), (13, 5), (30, 5), (30, 20)],
    )
    s = activate(s, 0)
    assert s.figs[1].controlled and not s.figs[3].controlled
    s.figs[3].moved = True  # no Did Not Move bonus
    s.figs[4].moved = True
    _, ev = act(s, Attack(3, 0, 4), 0, [6, 6, 1, 1])
    assert "rolls [6, 6] = 10" in ev[0].text  # 5 + 5: sixes count as fives
    assert "uncontrolled: sixes read as fives (L393)" in ev[0].text  # the log says why
    assert "= 2" in ev[1].text
    # the defender's roll says it when (and only when) its own figure is uncontrolled
    assert ("sixes read as fives" in ev[1].text) is (not s.figs[4].controlled)
    s.figs[3].controlled = True
    _, ev = act(s, Attack(3, 0, 4), 0, [6, 6, 1, 1])
    assert "rolls [6, 6] = 12" in ev[0].text and "sixes read as fives" not in ev[0].text


def test_L395_characters_alone_vehicles_and_monsters_are_always_controlled() -> None:
    tank = trooper("Tank", type="L", tweaks=["Vehicle"], cr='0"')
    s = table(
        force(("Tanks", [(tank, 2)])),
        force(("Foe", [(trooper("Foe"), 1)])),
        [(10, 5), (40, 5), (10, 40)],
    )
    s = activate(s, 0)
    assert s.figs[0].controlled and s.figs[1].controlled
