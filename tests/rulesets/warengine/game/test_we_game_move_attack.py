"""Movement, line of sight, cover, attacks and Hero Points (004_f4ea5693af0644ce.txt
L403-L497), each worked example a test."""

from __future__ import annotations

from warbench.rulesets.warengine.game.attacks import defense_pool
from warbench.rulesets.warengine.game.state import Attack, Hero, Move

from .helpers import WS, act, activate, ctx_of, force, table, trooper

FOE = force(("Foe", [(trooper("Foe"), 1)]))


def test_L405_part_inches_count_as_whole_inches() -> None:
    """Mv 9": a 4.25" move uses 5", leaving 4" (L405)."""
    s = table(force(("A", [(trooper("Runner", mv='9"'), 1)])), FOE, [(10, 5), (10, 40)])
    s = activate(s, 0)
    s, _ = act(s, Move(0, 14.25, 5), 0)
    assert s.figs[0].used == 5
    refusal = WS.check(s, Move(0, 18.75, 5), 0)  # 4.5" more would use 5"
    assert refusal is not None and refusal.rule.endswith("L405")
    assert WS.check(s, Move(0, 18.25, 5), 0) is None


def test_L415_fast_move_adds_a_third_but_forbids_attacks_and_ending_near_enemies() -> None:
    s = table(force(("A", [(trooper("Runner", mv='9"'), 1)])), FOE, [(10, 5), (10, 40)])
    s = activate(s, 0)
    assert WS.check(s, Move(0, 10, 17), 0) is not None  # 12" is more than 9"
    assert WS.check(s, Move(0, 10, 17, "fast"), 0) is None
    s, _ = act(s, Move(0, 10, 17, "fast"), 0)  # 12" = 9" + 3"
    refusal = WS.check(s, Attack(0, 0, 1), 0)
    assert refusal is not None and refusal.rule.endswith("L415")
    near = table(force(("A", [(trooper("Runner", mv='9"'), 1)])), FOE, [(10, 5), (10, 23)])
    near = activate(near, 0)
    refusal = WS.check(near, Move(0, 10, 17, "fast"), 0)
    assert refusal is not None and refusal.rule.endswith("L419")


def test_L425_charge_adds_a_third_and_gives_the_first_close_combat_attack_a_bonus() -> None:
    s = table(force(("A", [(trooper("Runner", mv='9"'), 1)])), FOE, [(10, 5), (10, 17)])
    s = activate(s, 0)
    # 11" to contact: more than Mv 9", within the charge's 12"
    assert WS.check(s, Move(0, 10, 16), 0) is not None
    s, _ = act(s, Move(0, 10, 16, "charge"), 0)
    s.figs[1].moved = True
    s2, ev = act(s, Attack(0, 1, 1), 0, [1, 1, 1, 1])  # Knife 1k1 + Charge +1k1 = 2k2
    assert "Charge +1k1" in ev[0].text and "2k2" in ev[0].text
    assert not s2.figs[0].charged  # the bonus is for the first attack only (L425)
    refusal = WS.check(
        activate(table(force(("A", [(trooper("Runner"), 1)])), FOE, [(10, 5), (10, 30)]), 0),
        Move(0, 10, 10, "charge"),
        0,
    )
    assert refusal is not None and refusal.rule.endswith("L425")


def test_L425_charge_bonus_is_1k0_against_vehicles_and_monsters() -> None:
    beast = trooper("Beast", type="L", tweaks=["Monster"])
    s = table(
        force(("A", [(trooper("Runner", mv='9"'), 1)])),
        force(("B", [(beast, 1)])),
        [(10, 5), (10, 15)],
    )
    s = activate(s, 0)
    s, _ = act(s, Move(0, 10, 13.5, "charge"), 0)
    _, ev = act(s, Attack(0, 1, 1), 0, [1] * 6)
    assert "Charge +1k0" in ev[0].text


def test_L433_friendly_troopers_do_not_block_sight_vehicles_do() -> None:
    tank = trooper("Tank", type="L", tweaks=["Vehicle"])
    f0 = force(("A", [(trooper("Shooter"), 1)]), ("B", [(trooper("Pal"), 1)]), ("T", [(tank, 1)]))
    s = table(f0, FOE, [(10, 5), (10, 15), (30, 30), (10, 30)])
    s = activate(s, 0)
    assert WS.check(s, Attack(0, 0, 3), 0) is None  # a friendly trooper in the way
    s2 = table(f0, FOE, [(10, 5), (30, 15), (10, 15), (10, 30)])
    s2 = activate(s2, 0)
    refusal = WS.check(s2, Attack(0, 0, 3), 0)
    assert refusal is not None and refusal.rule.endswith("L429")


def _cover_case(piece: dict[str, object], target: tuple[float, float]) -> str:
    s = table(force(("A", [(trooper("Shooter"), 1)])), FOE, [(10, 5), target], terrain=(piece,))
    s.figs[1].moved = False
    ctx = ctx_of(s)
    w = ctx.profiles[0].weapons[0]
    return ", ".join(defense_pool(s, ctx, s.figs[0], w, s.figs[1])[2])


def test_L437_to_L483_cover_levels_from_the_board() -> None:
    hedge = {"name": "Hedge", "rect": [5, 19, 15, 20], "cover": 1}
    wall = {"name": "Wall", "rect": [5, 19, 15, 20], "cover": 2}
    foxhole = {"name": "Foxhole", "rect": [8, 20, 12, 24], "cover": 3}
    light = _cover_case(hedge, (10, 22))
    assert "light cover +1k1" in light and "Did Not Move +1k0" in light
    heavy = _cover_case(wall, (10, 22))
    assert "heavy cover +2k2" in heavy and "Did Not Move" not in heavy  # L482
    dug = _cover_case(foxhole, (10, 22))
    # entrenching cover "is heavy cover" (L453), so no Did Not Move either (docs/rulings.md)
    assert "entrenching cover +2k2" in dug and "Did Not Move" not in dug
    assert "cover" not in _cover_case(foxhole, (10, 30))  # only a figure inside is dug in


def test_L465_no_ranged_attacks_in_base_contact() -> None:
    f1 = force(("Foe", [(trooper("Foe"), 2)]))
    s = table(force(("A", [(trooper("Shooter"), 1)])), f1, [(10, 5), (10, 6), (20, 20)])
    s = activate(s, 0)
    refusal = WS.check(s, Attack(0, 0, 2), 0)
    assert refusal is not None and refusal.rule.endswith("L465")
    assert WS.check(s, Attack(0, 1, 1), 0) is None  # the knife, in contact


def test_L469_target_the_closest_figure_or_the_closest_in_the_open() -> None:
    f1 = force(("Foe", [(trooper("Foe"), 3)]))
    s = table(force(("A", [(trooper("Shooter"), 1)])), f1, [(10, 5), (10, 15), (14, 18), (6, 25)])
    s = activate(s, 0)
    assert WS.check(s, Attack(0, 0, 1), 0) is None
    refusal = WS.check(s, Attack(0, 0, 2), 0)
    assert refusal is not None and refusal.rule.endswith("L469")
    hedge = {"name": "Hedge", "rect": [8, 13, 12, 14], "cover": 1}
    s = table(
        force(("A", [(trooper("Shooter"), 1)])),
        f1,
        [(10, 5), (10, 15), (14, 18), (6, 25)],
        terrain=(hedge,),
    )
    s = activate(s, 0)
    assert WS.check(s, Attack(0, 0, 2), 0) is None  # the closest in the open
    assert WS.check(s, Attack(0, 0, 3), 0) is not None


def _duel(attacker: dict[str, object], defender: dict[str, object], rng: str = '24"') -> object:
    s = table(force(("A", [(attacker, 1)])), force(("B", [(defender, 1)])), [(10, 5), (10, 20)])
    s = activate(s, 0)
    s.figs[0].moved = True
    s.figs[1].moved = True
    return s


def test_L495_example_lt_wright_spends_7_hero_points_and_survives() -> None:
    alien = trooper(
        "Green Alien Warrior",
        type="C",
        weapons=[{"name": "Earthshaker Cannon", "range": '24"', "av": "5k4"}],
    )
    wright = trooper("Lt. Wright", type="C", df="4k4", hero_points=10)
    s = _duel(alien, wright)
    s, ev = act(s, Attack(0, 0, 1), 0, [6, 6, 5, 3, 2, 6, 4, 2, 1])  # type: ignore[arg-type]
    assert "= 20" in ev[0].text and "= 13" in ev[1].text
    d = WS.pending(s)[0]
    assert (d.player, d.kind, d.default) == (1, "hero", Hero(7))
    s, ev = act(s, Hero(7), 1)
    assert s.figs[1].alive and s.figs[1].hero == 3


def test_L497_example_di_git_spends_6_and_lt_wright_cannot_answer() -> None:
    digit = trooper(
        "Commander Di'Git",
        type="C",
        hero_points=8,
        weapons=[{"name": "Assault Blade", "av": "4k4"}],
    )
    wright = trooper("Lt. Wright", type="C", df="4k4", hero_points=3)
    s = table(force(("A", [(digit, 1)])), force(("B", [(wright, 1)])), [(10, 5), (10, 6)])
    s = activate(s, 0)
    s, ev = act(s, Attack(0, 0, 1), 0, [4, 3, 3, 3, 6, 4, 3, 2])
    assert "= 13" in ev[0].text and "= 15" in ev[1].text
    d = WS.pending(s)[0]
    assert (d.player, d.kind, d.default) == (0, "hero", Hero(6))  # 13 + 6 = 19 > 15 + 3
    s, _ = act(s, Hero(6), 0)
    d = WS.pending(s)[0]
    assert (d.player, d.kind, d.default) == (1, "hero", Hero(0))  # 3 cannot reach 19
    s, ev = act(s, Hero(3), 1)
    assert not s.figs[1].alive and s.figs[0].hero == 2
