"""Custom cover's additional Cover Save (001_d3f5e425c5e1196d.txt §10.4 L4475-4483: "improving
Armour or AEGIS Stats, adding an additional Armour Save as a form of 'Cover' Save among
others"; docs/rulings.md "WARSURGE terrain in play" 6) in the game and in the exact odds: the
game's context carries it, the exact odds (``odds --cover-save``) and the game agree on the
same attack."""

from __future__ import annotations

import math
from dataclasses import replace

from typer.testing import CliRunner

from warbench.cli import app
from warbench.kernel.dice import SeededDice
from warbench.rulesets.warsurge.attack import AttackContext, compile_weapon_use
from warbench.rulesets.warsurge.battlefield import CustomCover, Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.attacks import verify_attack
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work, to_unit_state
from warbench.rulesets.warsurge.odds import AttackPlan, exact_attack

from .helpers import board, entry, scenario, unit, weapon


def _behind_sandbags(save: str | None = "5+", **kw: object) -> GameState:
    bags = Terrain(
        name="Sandbags",
        rect=[5, 17, 20, 18],
        cover=1,
        custom_cover=CustomCover(armour=1, save=save, text="sandbags"),
    )
    gun = weapon(attacks=3, power=6, **kw)
    return scenario(
        [
            [entry(unit("Shooter", models=2, weapons=[gun]))],
            [entry(unit("Troopers", models=3, hp=2, armour="5+"))],
        ],
        {0: [(9.0, 10.0), (11.0, 10.0)], 1: [(8.0, 20.0), (10.0, 20.0), (12.0, 20.0)]},
        phase=Phase.ATTACK,
        b=board(terrain=[bags]),
    )


def _plan(state: GameState) -> AttackPlan:
    w = Work(state, None, engine.DEFAULT_HOOKS)
    plan = verify_attack(w, Attack(0, (("Gun", 1),)))
    wp = plan.weapons[0]
    return AttackPlan(
        to_unit_state(w, 0),
        to_unit_state(w, 1),
        wp.context,
        weapons=("Gun",),
        users=(("Gun", wp.users),),
    )


def test_s10_4_the_cover_save_comes_with_the_cover_bonus_in_the_game() -> None:
    plan = _plan(_behind_sandbags())
    ctx = plan.context
    assert ctx.cover and ctx.cover_armour == 1 and ctx.cover_save == 5
    gun = plan.attacker.weapons["Gun"]
    use = compile_weapon_use(plan.attacker, gun, 2, plan.target, ctx, SeededDice(1))
    assert use.die.cover_save == 5 and use.die.armour.needed == 4
    assert any("5+ Cover Save (§10.4)" in n for n in use.notes)
    # not in a Melee, not against Ignore Cover, not without the Cover Bonus
    assert (
        compile_weapon_use(
            plan.attacker, gun, 2, plan.target, replace(ctx, melee=True), SeededDice(1)
        ).die.cover_save
        is None
    )
    assert (
        compile_weapon_use(
            plan.attacker, gun, 2, plan.target, replace(ctx, cover=False), SeededDice(1)
        ).die.cover_save
        is None
    )
    ignore = _plan(_behind_sandbags(perks=["Ignore Cover"]))
    gun2 = ignore.attacker.weapons["Gun"]
    use2 = compile_weapon_use(
        ignore.attacker, gun2, 2, ignore.target, ignore.context, SeededDice(1)
    )
    assert use2.die.cover_save is None


def test_s10_4_a_cover_save_multiplies_the_unsaved_chance_exactly() -> None:
    with_save = exact_attack(_plan(_behind_sandbags()))
    without = exact_attack(_plan(_behind_sandbags(save=None)))
    # every hit that fails Armour 4+ gets a 5+: each unsaved hit is kept with chance 2/3, and
    # each model has 2 HP, so the expected HP lost scales by exactly 2/3
    assert math.isclose(with_save.expected_hp_lost, without.expected_hp_lost * 2 / 3, rel_tol=1e-9)


def test_s10_4_exact_odds_and_the_game_agree_on_the_same_attack_with_a_cover_save() -> None:
    state = _behind_sandbags()
    plan = _plan(state)
    # what `odds --cover --cover-armour 1 --cover-save 5` asks: the same answer as the game's
    ctx = AttackContext(
        cover=True,
        cover_bonus=1,
        cover_armour=1,
        cover_save=5,
        distance=plan.context.distance,
        within_half_range=plan.context.within_half_range,
    )
    by_hand = exact_attack(replace(plan, context=ctx))
    odds = exact_attack(plan)
    assert by_hand.hp_lost == odds.hp_lost
    mean = odds.expected_hp_lost
    var = sum((k - mean) ** 2 * p for k, p in odds.hp_lost.items())
    n = 300
    seen: dict[int, int] = {}
    for seed in range(n):
        _, events = engine.apply(replace(state, seed=seed), Attack(0, (("Gun", 1),)))
        lost = sum(e.data["hp_lost"] for e in events if e.kind == "attack")
        seen[lost] = seen.get(lost, 0) + 1
    got = sum(k * c for k, c in seen.items()) / n
    assert abs(got - mean) < 4 * math.sqrt(var / n) + 1e-9, (got, mean)
    assert set(seen) <= set(odds.hp_lost)


def test_odds_cli_takes_a_cover_save(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from warbench.rulesets.warsurge.io import dump_unit

    a, t = tmp_path / "a.yaml", tmp_path / "t.yaml"
    dump_unit(unit("Shooter", models=2, weapons=[weapon(attacks=3, power=6)]), a)
    dump_unit(unit("Troopers", models=3, hp=2, armour="5+"), t)
    runner = CliRunner()
    base = ["odds", str(a), str(t), "--cover", "--cover-armour", "1"]
    plain = runner.invoke(app, base)
    saved = runner.invoke(app, [*base, "--cover-save", "5"])
    assert plain.exit_code == 0 and saved.exit_code == 0, saved.output
    assert plain.output != saved.output
    bad = runner.invoke(app, [*base, "--cover-save", "7"])
    assert bad.exit_code != 0
