"""Every tweak and power with an in-game effect, tested in a game (its source line in the
test's id). ``EFFECT_TESTS`` must cover :func:`effects.implemented` exactly."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warengine.dice import XkY
from warbench.rulesets.warengine.game import effects
from warbench.rulesets.warengine.game.activation import can_activate, start_turn
from warbench.rulesets.warengine.game.attacks import (
    allowed_targets,
    attack_pool,
    can_reach,
    defense_pool,
    detected,
    frenzy_flat,
    reroll_use,
    target_refusal,
)
from warbench.rulesets.warengine.game.control import cr_of, mental_of
from warbench.rulesets.warengine.game.followup import follow_up
from warbench.rulesets.warengine.game.measure import sees
from warbench.rulesets.warengine.game.movement import allowance, do_move
from warbench.rulesets.warengine.game.reserve import options as reserve_options
from warbench.rulesets.warengine.game.resolution import destroy, hero_question, spend
from warbench.rulesets.warengine.game.rout import rout_step
from warbench.rulesets.warengine.game.state import (
    Activate,
    Attack,
    Deactivate,
    GameState,
    Move,
    Place,
    Reroll,
    Reserve,
    Resolution,
    Roll,
    Window,
)

from . import test_we_game_s25_we_state as s25
from .helpers import WS, act, activate, ctx_of, force, table, trooper
from .test_we_game_s25_we_terrain import TERRAIN_EFFECT_TESTS

HEDGE = {"name": "Hedge", "rect": [5, 14, 15, 15], "cover": 1}
WALL = {"name": "Wall", "rect": [5, 14, 15, 15], "cover": 2}
PIT = {"name": "Foxhole", "rect": [8, 18, 12, 22], "cover": 3}


def C(name: str = "Hero", **kw: Any) -> dict[str, Any]:
    """A character (always controlled)."""
    return trooper(name, type="C", **kw)


def duel(
    a: dict[str, Any],
    d: dict[str, Any],
    pos: Any = ((10, 5), (10, 20)),
    terrain: tuple[dict[str, Any], ...] = (),
    moved: bool = True,
) -> GameState:
    s = table(force(("A", [(a, 1)])), force(("D", [(d, 1)])), list(pos), terrain=terrain)
    s = activate(s, 0)
    s.figs[0].moved = s.figs[1].moved = moved
    return s


def apool(s: GameState, wi: int = 0, a: int = 0, t: int = 1) -> str:
    ctx = ctx_of(s)
    pool, faces, why = attack_pool(s, ctx, s.figs[a], ctx.profiles[a].weapons[wi], s.figs[t])
    return f"{pool} {faces.floor}-{faces.cap} " + ", ".join(why)


def dpool(s: GameState, wi: int = 0, a: int = 0, t: int = 1) -> str:
    ctx = ctx_of(s)
    pool, faces, why = defense_pool(s, ctx, s.figs[a], ctx.profiles[a].weapons[wi], s.figs[t])
    return f"{pool} {faces.floor}-{faces.cap} " + ", ".join(why)


def rout(s: GameState, faces: list[int]) -> str:
    ev: list[Any] = []
    rout_step(s, ctx_of(s), ScriptedDice(faces), ev)
    return "\n".join(e.text for e in ev)


def squad(
    extra: dict[str, Any] | None = None,
    lead: dict[str, Any] | None = None,
    n: int = 3,
    tweaks: list[str] | None = None,
) -> GameState:
    sarge = lead or trooper("Sarge", type="E", cr='6"', mn="3k2")
    members = [(sarge, 1), (extra or trooper(), n)]
    f0 = force(("Squad", members), tweaks={0: tweaks} if tweaks else None)
    pos = [(10 + i, 5) for i in range(n + 1)] + [(10, 40)]
    return table(f0, force(("Foe", [(C("Foe"), 1)])), pos)


def W(name: str, tweaks: list[str], **kw: Any) -> dict[str, Any]:
    return {"name": name, "range": '24"', "av": "2k2", "tweaks": tweaks, **kw}


def CCW(name: str, tweaks: list[str], **kw: Any) -> dict[str, Any]:
    return {"name": name, "av": "2k2", "tweaks": tweaks, **kw}


# ------------------------------------------------------------------------- personal tweaks


def t_ballsy() -> None:
    assert "Ballsy +1k0" in dpool(duel(C(), C("B", tweaks=["Ballsy"])))
    assert "Ballsy" not in dpool(duel(C(), C("B", tweaks=["Ballsy"]), terrain=(HEDGE,)))


def t_dodge() -> None:
    s = duel(C(), C("B", tweaks=["Dodge"]), pos=((10, 5), (10, 6)))
    assert "Dodge +1k0" in dpool(s, wi=1)
    assert "Dodge" not in dpool(duel(C(), C("B", tweaks=["Dodge"])))


def t_tough() -> None:
    assert "Tough +1k0" in dpool(duel(C(), C("B", tweaks=["Tough"])))


def t_lurker() -> None:
    assert "Lurker +1k1" in dpool(duel(C(), C("B", tweaks=["Lurker"]), terrain=(HEDGE,)))
    assert "Lurker" not in dpool(duel(C(), C("B", tweaks=["Lurker"])))


def t_frenzied() -> None:
    s = duel(C("A", tweaks=["Frenzied"]), C(), pos=((10, 5), (10, 6)))
    assert "Frenzied +1k0" in apool(s, wi=1) and "Frenzied" not in apool(s, wi=0)


def t_sharpshooter() -> None:
    s = duel(C("A", tweaks=["Sharpshooter"]), C())
    assert "always" not in apool(s) and "Sharpshooter +1k0" in apool(s)


def t_hardcase() -> None:
    s = squad(lead=trooper("Sarge", type="E", cr='6"', mn="3k2", tweaks=["Hardcase"]))
    s.units[0].must_test = True
    assert "4k2" in rout(s, [1, 1, 1, 1])


def t_poorly_trained() -> None:
    assert "Did Not Move" not in dpool(duel(C(), C("B", tweaks=["Poorly Trained"]), moved=False))
    assert "Did Not Move" in dpool(duel(C(), C("B"), moved=False))


def t_obvious() -> None:
    assert "cover" not in dpool(duel(C(), C("B", tweaks=["Obvious"]), terrain=(HEDGE,)))
    assert "heavy cover +1k1" in dpool(duel(C(), C("B", tweaks=["Obvious"]), terrain=(WALL,)))


def t_flight() -> None:
    assert "cover" not in dpool(duel(C(), C("B", tweaks=["Flight"]), terrain=(WALL,)))


def t_slippery() -> None:
    s = duel(C("A", tweaks=["Slippery"]), C(), pos=((10, 10), (10, 11)))
    _, ev = act(s, Move(0, 10, 6), 0)
    assert not any(e.kind == "leave combat" for e in ev)


def t_kamikaze() -> None:
    s = duel(C(), C("B", tweaks=["Kamikaze"]), pos=((10, 10), (10, 11)))
    s, _ = act(s, Attack(0, 1, 1), 0, [1])
    assert not s.figs[1].alive  # attacked in close combat: destroyed automatically
    s = duel(C("A", tweaks=["Kamikaze"]), C(), pos=((10, 10), (10, 11)))
    s, _ev = act(s, Attack(0, 1, 1), 0, [1, 6, 6])
    assert not s.figs[0].alive  # destroyed after its own close combat attack


def t_regeneration() -> None:
    s = duel(C("A", hero_points=6, tweaks=["Regeneration"]), C())
    s.figs[0].hero = 1
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    assert s.figs[0].hero == 3
    s.figs[0].hero = 5
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    assert s.figs[0].hero == 6


def _burn(tweak: str, defender_tweaks: list[str]) -> GameState:
    s = duel(C("A", weapons=[W("Spitter", [tweak])]), C("B", df="6k5", tweaks=defender_tweaks))
    s, _ = act(s, Attack(0, 0, 1), 0, [1, 1, 6, 6, 6, 6, 6, 6])
    return s


def t_flame_retardant() -> None:
    assert _burn("Immolation", []).figs[1].burning
    assert not _burn("Immolation", ["Flame Retardant"]).figs[1].burning


def t_hyperactive_metabolism() -> None:
    assert _burn("Poisoned", []).figs[1].burning
    assert not _burn("Poisoned", ["Hyperactive Metabolism"]).figs[1].burning


def t_sole_survivor() -> None:
    s = squad(extra=trooper("Last", tweaks=["Sole Survivor"]), n=2)
    s.figs[0].alive = s.figs[1].alive = False
    s.units[0].lost_this_turn = 2
    rout(s, [6, 6, 6])
    assert s.figs[2].alive


def t_inspiring_example() -> None:
    s = squad(lead=trooper("Sarge", type="E", cr='6"', mn="3k2", tweaks=["Inspiring Example"]))
    s.units[0].must_test = True
    text = rout(s, [1, 1, 1, 6, 6, 1])
    assert "rerolls" in text and all(f.alive for f in s.figs)


def t_butthole_sergeant() -> None:
    s = squad(lead=trooper("Sarge", type="E", cr='6"', mn="3k2", tweaks=["Butthole Sergeant"]))
    s.units[0].must_test = True
    rout(s, [1, 1, 1])
    assert [f.alive for f in s.figs[:4]] == [True, False, True, True]


def t_stupid() -> None:
    s = table(
        force(("A", [(C("Dim", tweaks=["Stupid"]), 1)])),
        force(("B", [(C(), 1)])),
        [(10, 5), (10, 20)],
    )
    s = activate(s, 0, faces=[1, 1, 1])
    assert s.figs[0].done
    s = table(
        force(("A", [(C("Dim", tweaks=["Stupid"]), 1)])),
        force(("B", [(C(), 1)])),
        [(10, 5), (10, 20)],
    )
    assert not activate(s, 0, faces=[6, 6, 1]).figs[0].done


def t_guiltridden() -> None:
    s = duel(C("A", tweaks=["Guiltridden"]), trooper("Trooper"))
    _, ev = act(s, Attack(0, 0, 1), 0, [1, 1, 1])
    assert any(e.kind == "guilt" for e in ev) and not any(e.kind == "attack roll" for e in ev)


def t_ponderous() -> None:
    s = table(
        force(("A", [(C("Slow", tweaks=["Ponderous"]), 1)])),
        force(("B", [(C(), 1)])),
        [(10, 5), (10, 20)],
    )
    assert can_activate(s, ctx_of(s), 0, 0)
    s.turn = 2
    assert not can_activate(s, ctx_of(s), 0, 0)


def t_easily_controlled() -> None:
    s = table(
        force(
            (
                "S",
                [
                    (trooper("Sarge", type="E", cr='4"', mn="3k2"), 1),
                    (trooper("Easy", tweaks=["Easily Controlled"]), 2),
                ],
            )
        ),
        force(("B", [(C(), 1)])),
        [(10, 5), (17, 5), (18.5, 5), (10, 40)],
    )
    s = activate(s, 0)
    assert s.figs[1].controlled and not s.figs[2].controlled  # one figure only


def t_chain_of_command() -> None:
    corp = trooper("Corporal", cr='4"', tweaks=["Chain of Command"])
    s = table(
        force(
            ("S", [(trooper("Sarge", type="E", cr='4"', mn="3k2"), 1), (corp, 1), (trooper(), 1)])
        ),
        force(("B", [(C(), 1)])),
        [(10, 5), (14, 5), (18, 5), (10, 40)],
    )
    s = activate(s, 0)
    assert s.figs[2].controlled


def t_frother_command() -> None:
    s = squad(lead=trooper("Boss", type="E", cr='6"', mn="4k3", tweaks=["Frother Command"]))
    s = activate(s, 0)
    assert allowance(s, ctx_of(s), s.figs[1], "move") == 9
    s.figs[1].x, s.figs[1].y = 10, 39
    assert "Frother" in apool(s, wi=1, a=1, t=4)


def t_terrifying() -> None:
    s = duel(C("A", tweaks=["Terrifying"]), C())
    s, _ = act(s, Attack(0, 0, 1), 0, [1] * 4)
    assert s.units[1].must_test
    # no unit tests because of this figure more than once a game
    s.units[1].must_test = False
    s.figs[0].fired = []
    s, _ = act(s, Attack(0, 0, 1), 0, [1] * 4)
    assert not s.units[1].must_test
    # a unit that comes within 6" tests at once, and routs at once when it fails
    s = table(
        force(("A", [(C("A", tweaks=["Terrifying"]), 1)])),
        force(("B", [(trooper("T"), 1)]), ("C", [(trooper("U"), 1)])),
        [(10, 5), (10, 17), (30, 40)],
    )
    s = activate(s, 1)
    s2, ev = act(s, Move(1, 10, 12), 1, [1, 1, 1])
    assert s2.figs[1].routed and any("within 6" in e.text and "L613" in e.rule for e in ev)
    s2, ev = act(s, Move(1, 10, 12), 1, [6, 6, 6])
    assert s2.figs[1].alive and s2.figs[0].marks == ["terrified 1"]
    _, ev = act(s2, Move(1, 10, 11.5), 1, [])  # tested once already: no second test
    assert not any(e.kind == "rout test" for e in ev)


def t_trigger_happy() -> None:
    s = table(
        force(("A", [(C("Happy", tweaks=["Trigger Happy"]), 1)])),
        force(("B", [(C("Foe", mv='15"'), 1)])),
        [(10, 5), (10, 40)],
    )
    s.figs[0].reserved = 0
    s = activate(s, 1)
    s, _ = act(s, Move(1, 10, 28), 1)
    from warbench.rulesets.warengine.game.state import Pass

    assert WS.check(s, Pass(), 0) is not None


def t_glory_hound() -> None:
    f1 = force(
        ("Weak", [(trooper("Weak", type="C"), 1)]),
        ("Strong", [(trooper("Strong", type="C", df="5k4"), 1)]),
    )
    s = table(
        force(("A", [(C("Glory", tweaks=["Glory Hound"]), 1)])), f1, [(10, 5), (10, 15), (12, 20)]
    )
    s = activate(s, 0)
    assert WS.check(s, Attack(0, 0, 1), 0) is not None
    assert WS.check(s, Attack(0, 0, 2), 0) is None


def t_sniper() -> None:
    f1 = force(("Foes", [(trooper("Foe"), 2)]))
    s = table(
        force(("A", [(C("Sniper", tweaks=["Sniper"]), 1)])), f1, [(10, 5), (10, 15), (10, 25)]
    )
    s = activate(s, 0)
    assert WS.check(s, Attack(0, 0, 2), 0) is None
    s, _ = act(s, Attack(0, 0, 2), 0, [1] * 6)
    assert WS.check(s, Move(0, 10, 6), 0) is not None  # forgoes all movement


def t_cybernetic() -> None:
    s = duel(
        C("A", weapons=[{"name": "Terror", "range": '12"', "av": "3k3", "power": "Terror"}]),
        C("B", tweaks=["Cybernetic"]),
    )
    assert "Cybernetic +1k0" in dpool(s)


def t_coup_counter() -> None:
    s = duel(C("A", tweaks=["Coup Counter"]), C(), pos=((10, 10), (10, 11)))
    s, _ = act(s, Attack(0, 1, 1), 0, [6, 1, 1])
    assert not s.figs[1].alive
    assert WS.check(s, Move(0, 10, 6), 0) is not None


def t_very_unwieldy() -> None:
    s = duel(
        C("A", mv='12"', tweaks=["Very Unwieldy"]),
        C("B"),
        pos=((10, 5), (30, 40)),
        terrain=(HEDGE,),
    )
    assert WS.check(s, Move(0, 10, 16), 0) is not None


def t_unwieldy() -> None:
    s = duel(
        C("A", mv='12"', tweaks=["Unwieldy"]), C("B"), pos=((10, 5), (30, 40)), terrain=(HEDGE,)
    )
    assert WS.check(s, Move(0, 10, 16), 0) is None
    s = duel(
        C("A", mv='12"', tweaks=["Unwieldy"]), C("B"), pos=((10, 5), (30, 40)), terrain=(WALL,)
    )
    assert WS.check(s, Move(0, 10, 16), 0) is not None


def t_infiltration() -> None:
    f0 = force(("A", [(C("Ninja", tweaks=["Infiltration"]), 1)]))
    s = WS.setup((f0, force(("B", [(C(), 1)]))), None, {"builder_limits": False}, 1)
    from warbench.rulesets.warengine.game.state import Roll

    while WS.pending(s)[0].kind == "roll":
        s, _ = WS.apply(s, Roll(1), -1)
    d = WS.pending(s)[0]
    if d.player == 0:
        assert WS.check(s, Place(0, 24, 24), 0) is None
    else:
        s, _ = WS.apply(s, d.default, 1)  # type: ignore[arg-type]
        assert WS.check(s, Place(0, 24, 24), 0) is None


def _stealth(attacker: dict[str, Any], faces: list[int], extra: Any = None) -> list[str]:
    f0 = force(("A", [(attacker, 1)]), *([("T", [(extra, 1)])] if extra else []))
    pos = [(10, 5), (10, 20)] if not extra else [(10, 5), (14, 12), (10, 20)]
    s = table(f0, force(("D", [(C("Ghost", tweaks=["Stealthy"]), 1)])), pos, terrain=(HEDGE,))
    s = activate(s, 0)
    target = len(s.figs) - 1
    s.figs[target].moved = True
    s.figs[0].moved = True
    _, ev = act(s, Attack(0, 0, target), 0, faces)
    return [e.kind for e in ev]


def t_stealthy() -> None:
    kinds = _stealth(C("Seeker", mn="3k2"), [1, 1, 1])
    assert kinds == ["detect"]  # not detected: the attack is lost
    kinds = _stealth(C("Seeker", mn="3k2"), [6, 6, 1, 1, 1, 1, 1, 1, 1])
    assert kinds[0] == "detect" and "attack roll" in kinds


def t_eagle_eye() -> None:
    assert "detect" not in _stealth(C("Hawk", tweaks=["Eagle Eye"]), [1] * 6)


def t_tracker() -> None:
    hound = trooper("Hound", type="C", tweaks=["Tracker"])
    s = table(
        force(("A", [(trooper("Seeker", type="E", cr='6"', mn="3k2"), 1), (hound, 1)])),
        force(("D", [(C("Ghost", tweaks=["Stealthy"]), 1)])),
        [(10, 5), (12, 5), (10, 20)],
        terrain=(HEDGE,),
    )
    s = activate(s, 0)
    s.figs[2].moved = s.figs[0].moved = True
    _, ev = act(s, Attack(0, 0, 2), 0, [1] * 6)
    assert not any(e.kind == "detect" for e in ev)


def t_vindictive() -> None:
    f1 = force(("D", [(C("B", df="6k5"), 1)]), ("E", [(C("E"), 1)]))
    grudge = C("Grudge", tweaks=["Vindictive"], weapons=[W("Gun", []), W("Gun 2", [])])
    s = table(force(("A", [(grudge, 1)])), f1, [(10, 5), (10, 20), (14, 20)])
    s = activate(s, 0)
    s, _ = act(s, Attack(0, 0, 1), 0, [1] * 10)
    assert s.figs[1].alive
    refusal = WS.check(s, Attack(0, 1, 2), 0)
    assert refusal is not None and refusal.rule.endswith("L1457")
    assert WS.check(s, Attack(0, 1, 1), 0) is None


# ----------------------------------------------------------------------------- weapon tweaks


def t_piercing_attack() -> None:
    assert "Piercing Attack +1k0" in apool(duel(C(weapons=[W("Gun", ["Piercing Attack"])]), C()))


def t_highly_accurate() -> None:
    assert "Highly Accurate +2k0" in apool(duel(C(weapons=[W("Gun", ["Highly Accurate"])]), C()))


def t_parry_weapon() -> None:
    s = duel(C(), C("B", weapons=[CCW("Sword", ["Parry Weapon"])]), pos=((10, 5), (10, 6)))
    assert "Parry Weapon +1k0" in dpool(s, wi=1)


def t_extra_bite() -> None:
    assert " 2-6 " in apool(duel(C(weapons=[W("Gun", ["Extra Bite"])]), C()))


def t_charging_weapon() -> None:
    s = duel(C(mv='9"', weapons=[CCW("Lance", ["Charging Weapon"])]), C(), pos=((10, 5), (10, 16)))
    s, _ = act(s, Move(0, 10, 15, "charge"), 0)
    assert " 3-6 " in apool(s)


def t_armor_piercing() -> None:
    beast = trooper("Beast", type="M", tweaks=["Monster"])
    assert " 2-6 " in dpool(duel(C(), beast))
    assert " 1-6 " in dpool(duel(C(weapons=[W("Gun", ["Armor Piercing"])]), beast))


def t_thermal_scope() -> None:
    assert "cover" not in dpool(
        duel(C(weapons=[W("Gun", ["Thermal Scope"])]), C(), terrain=(HEDGE,))
    )
    assert "heavy cover" in dpool(
        duel(C(weapons=[W("Gun", ["Thermal Scope"])]), C(), terrain=(WALL,))
    )


def t_ignores_cover() -> None:
    gun = C(weapons=[W("Gun", ["Ignores Cover"])])
    text = dpool(duel(gun, C(), terrain=(WALL,), moved=False))
    assert "cover" not in text and "Did Not Move" in text
    assert "entrenching cover +1k1" in dpool(duel(gun, C(), terrain=(PIT,)))


def t_long() -> None:
    s = duel(C(weapons=[CCW("Spear", ["Long"])]), C(), pos=((10, 5), (10, 7.5)))
    assert WS.check(s, Attack(0, 0, 1), 0) is None
    s = duel(C(weapons=[CCW("Spear", [])]), C(), pos=((10, 5), (10, 7.5)))
    assert WS.check(s, Attack(0, 0, 1), 0) is not None


def t_very_long() -> None:
    s = duel(C(weapons=[CCW("Whip", ["Very Long"])]), C(), pos=((10, 5), (10, 8.5)))
    assert WS.check(s, Attack(0, 0, 1), 0) is None


def t_sniper_scope() -> None:
    s = duel(C(weapons=[W("Rifle", ["Sniper Scope"])]), C(), pos=((10, 5), (10, 36)))
    assert WS.check(s, Attack(0, 0, 1), 0) is None
    s = duel(C(weapons=[W("Rifle", [])]), C(), pos=((10, 5), (10, 36)))
    assert WS.check(s, Attack(0, 0, 1), 0) is not None


def t_high_explosive() -> None:
    gun = {
        "name": "Shell",
        "range": '24"',
        "av": "2k2",
        "ae": "2x",
        "aet": "Ex",
        "tweaks": ["High Explosive"],
    }
    s = table(
        force(("A", [(C(weapons=[gun]), 1)])),
        force(("B", [(C("B"), 1)]), ("C", [(C("C"), 1)])),
        [(10, 5), (10, 20), (14.5, 20)],
    )
    s = activate(s, 0)
    for f in s.figs:
        f.moved = True
    _, ev = act(s, Attack(0, 0, 1), 0, [1] * 6)
    assert sum(e.kind == "defense roll" for e in ev) == 2  # 3.5" apart: inside 5"


def t_mental_attack() -> None:
    s = duel(C(weapons=[W("Mind Blast", ["Mental Attack"])]), C("B", mn="5k5"))
    assert dpool(s).startswith("5k5") and "Mental" in dpool(s)


def t_slow_attack() -> None:
    s = duel(C(weapons=[W("Cannon", ["Slow Attack"])]), C())
    assert WS.check(s, Reserve(0, 0), 0) is not None


def t_move_or_fire() -> None:
    s = duel(C(weapons=[W("Mortar", ["Move or Fire"])]), C(), pos=((10, 5), (10, 20)))
    s, _ = act(s, Move(0, 10, 6), 0)
    assert WS.check(s, Attack(0, 0, 1), 0) is not None


def t_one_shot() -> None:
    s = duel(C(weapons=[W("Rocket", ["One Shot"])]), C("B", df="6k5"))
    s, _ = act(s, Attack(0, 0, 1), 0, [1] * 8)
    assert 0 in s.figs[0].one_shot


def t_slow_reload() -> None:
    s = duel(C(weapons=[W("Musket", ["Slow Reload"])]), C("B", df="6k5"))
    s, _ = act(s, Attack(0, 0, 1), 0, [1] * 8)
    s.turn = 2
    s.figs[0].fired = []
    assert WS.check(s, Attack(0, 0, 1), 0) is not None


def t_fragile() -> None:
    s = duel(C(weapons=[W("Junk", ["Fragile"])]), C())
    s2, ev = act(s, Attack(0, 0, 1), 0, [5])
    assert any(e.kind == "jam" for e in ev) and 0 not in s2.figs[0].one_shot
    s2, ev = act(s, Attack(0, 0, 1), 0, [6])
    assert 0 in s2.figs[0].one_shot


def t_volatile() -> None:
    s = duel(C(weapons=[W("Bomb", ["Volatile"])]), C())
    s2, _ev = act(s, Attack(0, 0, 1), 0, [6, 6, 6, 1, 1])
    assert not s2.figs[0].alive  # the failure blows up in the user's hands


def t_heavy_recoil() -> None:
    s = duel(C(weapons=[W("Kicker", ["Heavy Recoil"])]), C("B", df="6k5"))
    s, _ = act(s, Attack(0, 0, 1), 0, [1] * 8)
    assert (s.figs[0].x, s.figs[0].y) == (10, 4)


def t_entangling() -> None:
    s = duel(C(weapons=[CCW("Net", ["Entangling"])]), C("B"), pos=((10, 5), (10, 6)))
    s, _ = act(s, Attack(0, 0, 1), 0, [1, 1, 6, 6])
    assert s.figs[1].entangled_by == 0
    assert "entangled -1k1" in dpool(s, wi=0)


def t_poisoned() -> None:
    s = _burn("Poisoned", [])
    ev: list[Any] = []
    follow_up(s, ctx_of(s), ScriptedDice([6, 1, 1, 1, 1, 1, 1]), ev)
    assert "L1831" in ev[0].rule and not s.figs[1].alive


def t_immolation() -> None:
    s = _burn("Immolation", [])
    ev: list[Any] = []
    follow_up(s, ctx_of(s), ScriptedDice([6, 6, 1, 1, 1, 1, 1, 1]), ev)
    assert "L1793" in ev[0].rule and not s.figs[1].alive
    s = _burn("Immolation", [])
    s.figs[1].y += 3
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    assert s.figs[1].alive  # moved 3" away: the fire is out


def t_time_delay() -> None:
    s = duel(C(weapons=[W("Bomb", ["Time Delay"])]), C())
    s, ev = act(s, Attack(0, 0, 1), 0)
    assert not any(e.kind == "attack roll" for e in ev)
    ev = []
    follow_up(s, ctx_of(s), ScriptedDice([6, 6, 1, 1]), ev)
    assert not s.figs[1].alive


def t_cybernetic_only() -> None:
    s = duel(C(weapons=[W("EMP", ["Cybernetic Only"])]), C())
    assert WS.check(s, Attack(0, 0, 1), 0) is not None
    s = duel(C(weapons=[W("EMP", ["Cybernetic Only"])]), C("B", tweaks=["Cybernetic"]))
    assert WS.check(s, Attack(0, 0, 1), 0) is None


# ------------------------------------------------------------------------------- unit tweaks


def t_conscript() -> None:
    s = squad(tweaks=["Conscript"])
    assert "Conscript" in rout(s, [6, 6, 6])


def t_raw() -> None:
    s = squad(tweaks=["Raw"])
    assert rout(s, []) == ""
    s.units[0].attacked_this_turn = True
    assert "Raw" in rout(s, [6, 6, 6])


def t_green() -> None:
    s = squad(tweaks=["Green"])
    s.units[0].lost_this_turn = 1
    assert "Green" in rout(s, [6, 6, 6])


def t_well_trained() -> None:
    s = squad(tweaks=["Well Trained"])
    s.units[0].must_test = True
    assert "Well Trained" in rout(s, [])
    assert "rolls" in rout(s, [6, 6, 6])  # only the first test


def t_fighters_to_the_end() -> None:
    s = squad(n=7, tweaks=["Fighters to the End"])
    for i in (1, 2, 3, 4):
        s.figs[i].alive = False
    s.units[0].lost_this_turn = 4
    assert rout(s, []) == ""  # half lost, but not 75%
    s.figs[5].alive = s.figs[6].alive = False
    assert "lost" in rout(s, [6, 6, 6])


# ---------------------------------------------------------------------------- special powers


def P(power: str, rng: str = '24"') -> dict[str, Any]:
    return C(
        "Mystic", mn="4k3", weapons=[{"name": power, "range": rng, "av": "4k4", "power": power}]
    )


def _power(
    power: str, target_friend: bool, faces: list[int], terrain: tuple[dict[str, Any], ...] = ()
) -> GameState:
    if target_friend:
        s = table(
            force(("A", [(P(power), 1)]), ("Pal", [(C("Pal", hero_points=6), 1)])),
            force(("B", [(C(), 1)])),
            [(10, 5), (12, 5), (10, 40)],
            terrain=terrain,
        )
        s = activate(s, 0)
        s.figs[1].hero = 1
        s, _ = act(s, Attack(0, 0, 1), 0, faces)
        return s
    s = duel(P(power), C("Foe", mn="2k2"))
    s, _ = act(s, Attack(0, 0, 1), 0, faces)
    return s


def t_terror() -> None:
    assert _power("Terror", False, [6, 6, 6, 6, 1, 1]).units[1].must_test


def t_banish_spirit() -> None:
    assert not _power("Banish Spirit", False, [6, 6, 6, 6, 1, 1]).figs[1].alive


def t_rally() -> None:
    s = _power("Rally", True, [6, 6, 1, 1])
    assert "rally" in s.figs[1].bonus


def t_protection() -> None:
    s = _power("Protection", True, [6, 6, 1, 1])
    assert "defense" in s.figs[1].bonus and "null" in s.figs[1].bonus


def t_strength_of_tortoise() -> None:
    s = _power("Strength of Tortoise", True, [6, 6, 1, 1])
    s.figs[2].x, s.figs[2].y = 12, 20
    assert "power +1k0" in dpool(s, wi=0, a=2, t=1)


def t_stone_skin() -> None:
    s = _power("Stone Skin", True, [6, 6, 1, 1])
    assert "next_defense" in s.figs[1].bonus


def t_guide_attack() -> None:
    s = _power("Guide Attack", True, [6, 6, 1, 1])
    s.figs[2].y = 20
    assert "Guide Attack +1k1" in apool(s, a=1, t=2)
    s.figs[2].y = 40  # 35" away: the rifle's 24" and the 12" range bonus (L1095)
    ctx = ctx_of(s)
    assert can_reach(s, ctx, s.figs[1], ctx.profiles[1].weapons[0], s.figs[2]) is None
    s.figs[1].bonus.pop("range")
    assert can_reach(s, ctx, s.figs[1], ctx.profiles[1].weapons[0], s.figs[2]) is not None


def t_brute_strength() -> None:
    s = _power("Brute Strength", True, [6, 6, 1, 1])
    s.figs[2].x, s.figs[2].y = 12, 6
    assert "Brute Strength +2k2" in apool(s, wi=1, a=1, t=2)


def t_restore() -> None:
    s = _power("Restore", True, [6, 6, 1, 1, 2, 2])
    assert s.figs[1].hero == 5


# ----------------------------------------------------- special powers (L999-L1351), more


def P2(power: str, rng: str = '24"') -> dict[str, Any]:
    """A mystic with the power and a rifle."""
    return C(
        "Mystic",
        mn="4k3",
        weapons=[
            {"name": power, "range": rng, "av": "4k4", "power": power},
            {"name": "Rifle", "range": '24"', "av": "2k2"},
        ],
    )


def _vs_unit(power: str, foes: list[tuple[float, float]], faces: list[int], **kw: Any) -> GameState:
    """The mystic (figure 0) uses ``power`` on the first of a unit of foes."""
    foe = trooper("Foe", mn="2k2", **kw)
    s = table(
        force(("A", [(P2(power), 1)])),
        force(("D", [(foe, len(foes))])),
        [(10, 5), *foes],
    )
    s = activate(s, 0)
    s, _ = act(s, Attack(0, 0, 1), 0, faces)
    return s


def _refusal(s: GameState, action: Any, player: int) -> str:
    bad = WS.check(s, action, player)
    return "" if bad is None else str(bad)


def t_soul_suck() -> None:
    s = duel(P("Soul Suck"), C("Foe", mn="2k2", hero_points=6))
    s.figs[1].hero = 6
    s, _ = act(s, Attack(0, 0, 1), 0, [6, 6, 6, 6, 1, 1, 3, 2])
    assert s.figs[1].alive and s.figs[1].hero == 1
    s = duel(P("Soul Suck"), C("Foe", mn="2k2", hero_points=6))
    s.figs[1].hero = 4
    s, _ = act(s, Attack(0, 0, 1), 0, [6, 6, 6, 6, 1, 1, 3, 2])
    assert not s.figs[1].alive  # fewer Hero Points than the roll: destroyed


def t_incontrovertible_truth() -> None:
    s = _power("Incontrovertible Truth", False, [6, 6, 6, 6, 1, 1])
    assert "halted" in s.figs[1].bonus
    s = activate(s, 1)
    assert "may not act" in _refusal(s, Move(1, 10, 22), 1)
    assert "may not act" in _refusal(s, Attack(1, 0, 0), 1)


def t_jinx_mechanism() -> None:
    s = duel(P("Jinx Mechanism"), C("Foe", mn="2k2"))
    assert "Cybernetic" in _refusal(s, Attack(0, 0, 1), 0)
    s = duel(P("Jinx Mechanism"), C("Foe", mn="2k2", tweaks=["Cybernetic"]))
    assert "Cybernetic +1k0" in dpool(s)
    s, _ = act(s, Attack(0, 0, 1), 0, [6, 6, 6, 6, 1, 1, 1])
    assert "halted" in s.figs[1].bonus


def t_electronic_feedback() -> None:
    s = duel(P("Electronic Feedback"), C("Foe", mn="2k2"))
    assert "Cybernetic" in _refusal(s, Attack(0, 0, 1), 0)
    s = duel(P("Electronic Feedback"), C("Foe", mn="2k2", tweaks=["Cybernetic"]))
    assert "Cybernetic" not in dpool(s)  # the usual bonus does not apply (L1077)
    s, _ = act(s, Attack(0, 0, 1), 0, [6, 6, 6, 6, 1, 1])
    assert "halted" in s.figs[1].bonus


def t_instill_overwhelming_greed() -> None:
    s = duel(P("Instill Overwhelming Greed"), C("Foe", mn="2k2"))
    assert "two figures" in _refusal(s, Attack(0, 0, 1), 0)
    s = _vs_unit("Instill Overwhelming Greed", [(10, 20), (12, 20)], [6, 6, 6, 6, 1, 1])
    assert s.units[1].activated and not can_activate(s, ctx_of(s), 1, 1)


def t_chittering_hordes() -> None:
    s = _vs_unit("Chittering Hordes", [(10, 20)], [6, 6, 6, 6, 1, 1])
    assert s.units[1].activated and not s.units[1].skip_next
    s = duel(P("Chittering Hordes"), C("Foe", mn="2k2"))
    s.units[1].activated = True  # it has activated already: it loses next turn's
    s, _ = act(s, Attack(0, 0, 1), 0, [6, 6, 6, 6, 1, 1])
    assert s.units[1].skip_next
    start_turn(s, ctx_of(s))
    assert s.units[1].activated and not can_activate(s, ctx_of(s), 1, 1)


def t_televangelism() -> None:
    s = _vs_unit("Televangelism", [(10, 20), (10, 47)], [6, 6, 6, 6, 1, 1])
    assert "halted" in s.figs[1].bonus
    assert "halted" not in s.figs[2].bonus  # out of the power's range: unaffected


def t_suspend() -> None:
    s = _power("Suspend", False, [6, 6, 6, 6, 1, 1])
    assert {"halted", "suspended"} <= set(s.figs[1].bonus)
    ev: list[Any] = []
    destroy(s, ctx_of(s), s.figs[1], s.figs[0], ev, "destroyed")
    assert s.figs[1].alive and "suspended" in ev[0].text
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    destroy(s, ctx_of(s), s.figs[1], s.figs[0], ev, "destroyed")
    assert not s.figs[1].alive


def t_illuminate_enemy() -> None:
    s = _vs_unit("Illuminate Enemy", [(10, 20), (12, 20)], [6, 6, 6, 6, 1, 1])
    assert "Illuminate Enemy +1k0" in apool(s, wi=1, t=2)  # the whole unit
    assert "Illuminate Enemy +1k0" not in apool(s, wi=0, t=2)  # not Special Powers


def t_pounding_rage() -> None:
    s = _power("Pounding Rage", True, [6, 6, 1, 1])
    assert "Pounding Rage +1k0" in apool(s, a=1, t=2)
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    assert "Pounding Rage" not in apool(s, a=1, t=2)  # until the end of the turn


def t_shield_of_god() -> None:
    s = _power("Shield of God", True, [6, 6, 1, 1], terrain=(WALL,))
    s.figs[2].x, s.figs[2].y = 30, 5
    assert "Shield of God, light cover +1k1" in dpool(s, a=2, t=1)
    s.figs[1].x, s.figs[1].y = 10, 14.5  # behind the wall: heavy cover, no Shield of God
    s.figs[2].x, s.figs[2].y = 10, 30
    assert "Shield of God" not in dpool(s, a=2, t=1) and "heavy cover" in dpool(s, a=2, t=1)


def t_bless_weapon() -> None:
    s = _power("Bless Weapon", True, [6, 6, 1, 1])
    s.figs[1].charged, s.figs[1].charge_from = True, 6.0
    s.figs[2].x, s.figs[2].y = 12, 6
    assert apool(s, wi=1, a=1, t=2).split()[1] == "3-6"  # Charging Weapon: 1s and 2s read 3
    s.figs[1].bonus.pop("blessed")
    assert apool(s, wi=1, a=1, t=2).split()[1] == "1-6"


def t_null_field() -> None:
    s = _power("Null Field", True, [6, 6, 1, 1])
    ctx = ctx_of(s)
    bad = target_refusal(s, ctx, s.figs[0], ctx.profiles[0].weapons[0], 1)
    assert bad is not None and "may not be affected" in bad.reason


def t_psychic_shield() -> None:
    s = _power("Psychic Shield", True, [6, 6, 1, 1, 4])
    assert s.figs[1].bonus["def_hero"] == 4 and s.figs[1].hero == 1
    s.queue = [Resolution(attacker=2, weapon=0, label="Rifle", attack=10, targets=[[1, 7]])]
    s.queue[0].spent = 0
    assert hero_question(s, ctx_of(s)) == (0, 1, 5, 3)
    spend(s, 3)
    assert s.figs[1].bonus["def_hero"] == 1 and s.figs[1].hero == 1  # shield points first


def t_invigorate() -> None:
    s = _power("Invigorate", True, [6, 6, 1, 1])
    assert s.figs[1].hero == 7
    s.figs[1].hero = 5  # two spent
    again = s.clone()
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    assert s.figs[1].hero == 1  # the unused points are lost in the Follow Up step
    # a second Invigorate the same turn (an extra activation) tops up, never stacks: the long
    # run's seed 726 reached 16 Hero Points from 4
    again.figs[0].fired = []
    again, _ = act(again, Attack(0, 0, 1), 0, [6, 6, 1, 1])
    assert again.figs[1].hero == 7


def t_skulk_in_shadows() -> None:
    s = _power("Skulk in Shadows", True, [6, 6, 1, 1], terrain=(PIT,))
    s.figs[1].x, s.figs[1].y = 10, 20  # in the foxhole
    s.figs[1].moved = True
    s2 = s.clone()
    s2.figs[1].bonus.pop("stealthy")
    ev: list[Any] = []
    assert detected(s2, ctx_of(s2), s2.figs[2], s2.figs[1], ScriptedDice([]), ev)
    assert not detected(s, ctx_of(s), s.figs[2], s.figs[1], ScriptedDice([1, 1, 1]), ev)


def _self_power(power: str, foe_tweaks: list[str]) -> GameState:
    s = table(
        force(("A", [(P(power), 1)]), ("Pal", [(C("Pal"), 1)])),
        force(("B", [(C("Foe", tweaks=foe_tweaks), 1)])),
        [(10, 5), (12, 5), (10, 20)],
        terrain=(PIT,),
    )
    s = activate(s, 0)
    s, _ = act(s, Attack(0, 0, 0), 0, [6, 6, 1, 1])
    return s


def t_earth_sense() -> None:
    s = _self_power("Earth Sense", ["Stealthy"])
    assert "exposed" in s.figs[2].bonus
    ev: list[Any] = []
    assert detected(s, ctx_of(s), s.figs[1], s.figs[2], ScriptedDice([]), ev)


def t_war_chant() -> None:
    s = _self_power("War Chant", [])
    assert apool(s, wi=0, a=1, t=2).split()[1] == "2-6"  # ones read as twos
    assert dpool(s, wi=0, a=2, t=1).split()[1] == "2-6"
    s.figs[1].x, s.figs[1].y = 40, 40  # out of range
    assert apool(s, wi=0, a=1, t=2).split()[1] == "1-6"
    s.figs[1].x, s.figs[1].y = 12, 5
    do_move(s, ctx_of(s), s.figs[0], Move(0, 10, 6))  # the chanter moves: it ends
    assert apool(s, wi=0, a=1, t=2).split()[1] == "1-6"


def t_invisibility() -> None:
    s = _power("Invisibility", True, [6, 6, 1, 1])
    s.figs[2].y = 20
    ctx = ctx_of(s)
    rifle = ctx.profiles[2].weapons[0]
    assert allowed_targets(s, ctx, s.figs[2], rifle, 1) == []  # may not be targeted
    assert allowed_targets(s, ctx, s.figs[0], ctx.profiles[0].weapons[0], 1) == [1]  # friends
    ev: list[Any] = []
    assert not detected(s, ctx, s.figs[2], s.figs[1], ScriptedDice([1, 1, 1]), ev)
    assert "does not see" in ev[0].text  # Eagle Eye still needs a Mental check (L1141)


def t_speaking_in_tongues() -> None:
    foe = trooper("Foe", mn="2k2")
    s = table(
        force(("A", [(P2("Speaking in Tongues"), 1)])),
        force(("D", [(foe, 1)]), ("E", [(trooper("Other"), 1)])),
        [(10, 5), (10, 20), (30, 40)],
    )
    s = activate(s, 0)
    assert can_activate(s, ctx_of(s), 2, 1)
    s, _ = act(s, Attack(0, 0, 1), 0, [6, 6, 6, 6, 1, 1])
    ctx = ctx_of(s)
    assert can_activate(s, ctx, 1, 1) and not can_activate(s, ctx, 2, 1)  # it goes first
    s.units[1].activated = True
    assert can_activate(s, ctx, 2, 1)
    s2 = s.clone()
    s2.units[1].activated = True  # a unit already activated may not be targeted (L1233)
    bad = target_refusal(s2, ctx, s2.figs[0], ctx.profiles[0].weapons[0], 1)
    assert bad is not None and "not activated" in bad.reason


def t_mob_mentality() -> None:
    # L1149 on the Gang Leader example (L557): 3k2 with three helpers is 6k4 plainly; with Mob
    # Mentality each helper adds +2k1: 9k5
    ganger = trooper("Street Ganger", weapons=[{"name": "Blade", "av": "2k2"}])
    boss = trooper(
        "Gang Leader", type="E", cr='6"', mn="4k3", weapons=[{"name": "Bat", "av": "3k2"}]
    )
    seer = P("Mob Mentality")
    s = table(
        force(("Gang", [(ganger, 3), (boss, 1)]), ("Seer", [(seer, 1)])),
        force(("V", [(trooper("Vertucci", type="C", df="5k4"), 1)])),
        [(9, 10), (11, 10), (10, 9), (10, 11), (14, 10), (10, 10)],
    )
    s = activate(s, 1)
    s, _ = act(s, Attack(4, 0, 3), 0, [6, 6, 6, 6])
    assert all("mob" in s.figs[i].bonus for i in range(4))
    s.units[1].activated = True
    s = activate(s, 0)
    for g in (0, 1, 2):
        s.figs[g].reserved = 0
        s.figs[g].moved = True
    s.figs[3].moved = True
    s2, ev = act(s, Attack(3, 0, 5, helpers=(0, 1, 2)), 0, [1] * 14)
    assert ev[0].data["pool"] == "9k5" and "Mob Mentality" in ev[0].text
    assert not any("mob" in f.bonus for f in s2.figs)  # spent on that attack


def t_adrenal_overload() -> None:
    s = _power("Adrenal Overload", True, [6, 6, 1, 1])
    assert "adrenal" in s.figs[1].bonus
    ev: list[Any] = []
    destroy(s, ctx_of(s), s.figs[1], s.figs[2], ev, "destroyed")
    assert s.figs[1].alive and "doomed" in s.figs[1].bonus and "L1015" in ev[0].rule
    # two Hero Points raise a Defense roll by one
    s.figs[1].hero = 5
    s.queue = [Resolution(2, 0, "Rifle", 12, [[1, 9]], spent=0)]
    assert hero_question(s, ctx_of(s)) == (0, 1, 2, 0)
    spend(s, 2)
    assert s.figs[1].hero == 1 and s.queue[0].targets[0][1] == 11
    assert WS.check(s, Reserve(1, 0), 0) is not None  # no reserve this turn
    s.queue = []
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    assert not s.figs[1].alive  # removed in the Follow Up step


def t_see_the_future() -> None:
    seer = P("See the Future")
    s = table(force(("Seer", [(seer, 1)])), force(("B", [(C(), 1)])), [(10, 5), (10, 40)])
    s = activate(s, 0)
    assert WS.check(s, Attack(0, 0, 1), 0) is not None  # only on its user
    s, _ = act(s, Attack(0, 0, 0), 0, [6, 6, 6, 6])
    assert "future" in s.figs[0].bonus
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    assert "future" in s.figs[0].bonus  # kept to the next Initiative step
    start_turn(s, ctx_of(s))
    lost, ev = act(s, Roll(1), -1)
    assert lost.initiative == 0 and any("L1207" in e.rule for e in ev)
    won, _ = act(s, Roll(0), -1)
    assert won.initiative == 0 and "future2" in won.figs[0].bonus


def t_telepathic_command() -> None:
    seer = C(
        "Mystic",
        mn="5k4",
        cr='8"',
        weapons=[{"name": "TC", "range": '24"', "av": "4k4", "power": "Telepathic Command"}],
    )
    s = table(
        force(("Seer", [(seer, 1)]), ("Squad", [(trooper(), 2)])),
        force(("B", [(C(), 1)])),
        [(10, 5), (12, 5), (13, 5), (10, 40)],
    )
    s = activate(s, 0)
    assert not s.figs[1].controlled and mental_of(s, ctx_of(s), 1) == XkY(3, 2)
    s, _ = act(s, Attack(0, 0, 1), 0, [6, 6, 6, 6])
    assert s.figs[1].controlled and s.figs[2].controlled  # automatically controlled
    assert mental_of(s, ctx_of(s), 2) == XkY(5, 4)  # the character's Mental
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    assert mental_of(s, ctx_of(s), 2) == XkY(3, 2)  # until the end of the turn
    # the user must be within a friendly character's Control Radius
    far = table(
        force(("Seer", [(dict(seer, cr='0"'), 1)]), ("Squad", [(trooper(), 1)])),
        force(("B", [(C(), 1)])),
        [(10, 5), (12, 5), (10, 40)],
    )
    far = activate(far, 0)
    assert WS.check(far, Attack(0, 0, 1), 0) is not None


def t_you_da_man() -> None:
    seer = P("You Da Man")
    s = table(
        force(("Seer", [(seer, 1)]), ("Squad", [(trooper(), 2)])),
        force(("B", [(C(), 1)])),
        [(10, 5), (12, 5), (13, 5), (10, 40)],
    )
    s = activate(s, 0)
    assert s.units[1].leader is None
    s, _ = act(s, Attack(0, 0, 1), 0, [6, 6, 6, 6])
    assert cr_of(s, ctx_of(s), 1) == 6.0 and s.figs[1].marks == ["You Da Man"]
    s.units[0].activated = True
    s = activate(s, 1)
    assert s.units[1].leader == 1 and s.figs[2].controlled  # it leads, 6" of control
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    assert cr_of(s, ctx_of(s), 1) == 6.0  # for the rest of the game
    # not on a figure whose unit still has a trooper or elite with a Control Radius
    sarge = trooper("Sarge", type="E", cr='6"')
    t = table(
        force(("Seer", [(seer, 1)]), ("Squad", [(sarge, 1), (trooper(), 1)])),
        force(("B", [(C(), 1)])),
        [(10, 5), (12, 5), (13, 5), (10, 40)],
    )
    t = activate(t, 0)
    assert WS.check(t, Attack(0, 0, 2), 0) is not None


def t_force_leader() -> None:
    sarge = trooper("Sarge", type="E", cr='6"', mn="3k2")
    boss = C("Boss", mn="5k4", cr='8"', tweaks=["Force Leader"])

    def game(boss_x: float) -> GameState:
        return table(
            force(("Squad", [(sarge, 1), (trooper(), 2)]), ("Boss", [(boss, 1)])),
            force(("Foe", [(C("Foe"), 1)])),
            [(10, 5), (11, 5), (12, 5), (boss_x, 5), (10, 40)],
        )

    s = game(14)
    s.units[0].must_test = True
    text = rout(s, [4, 3, 3, 1, 1])  # 5k4: 4 + 3 + 3 + 1 = 11 holds (the sergeant's 3k2: 7)
    assert "5k4" in text and "Force Leader" in text and "holds" in text
    s = game(30)  # out of the Force Leader's Control Radius: the sergeant's own Mental
    s.units[0].must_test = True
    assert "3k2" in rout(s, [4, 3, 3])
    s = game(14)
    destroy(s, ctx_of(s), s.figs[3], s.figs[4], [], "destroyed")
    assert s.units[0].must_test  # its fall makes them test in the Rout step


def t_speedster() -> None:
    rifle = {"name": "Rifle", "range": '36"', "av": "2k2"}
    s = table(
        force(("Seer", [(P("Speedster"), 1)])),
        force(("B", [(C("B", weapons=[rifle]), 1)])),
        [(10, 5), (10, 40)],
    )
    s.figs[1].reserved = 0
    s = activate(s, 0)
    assert WS.check(s, Move(0, 10, 17), 0) is not None  # 12": beyond its 6"
    s, _ = act(s, Attack(0, 0, 0), 0, [6, 6, 6, 6])
    s, _ = act(s, Move(0, 10, 17), 0)  # 6" more, and too fast for reserve fire
    assert (s.figs[0].x, s.figs[0].y) == (10, 17) and s.window is None
    s.figs[0].bonus.pop("speedster")  # a plain mover there could be fired on
    assert reserve_options(s, ctx_of(s), Window("move", 1, 0, (10, 5)))


def t_static_charge() -> None:
    s = table(
        force(("Seer", [(P("Static Charge"), 1)])),
        force(("B", [(C("B"), 1)])),
        [(10, 5), (10, 9)],
    )
    s = activate(s, 0)
    s, _ = act(s, Attack(0, 0, 0), 0, [6, 6, 6, 6])
    assert "static" in s.figs[0].bonus
    s.units[0].activated = True
    s = activate(s, 1)
    s, ev = act(s, Move(1, 10, 6, "charge"), 1, [6, 6, 1, 1])
    assert any(e.kind == "static charge" and "L1249" in e.rule for e in ev)
    assert not s.figs[1].alive and "static" not in s.figs[0].bonus


def t_illusionary_swarm() -> None:
    s = table(
        force(("Seer", [(P("Illusionary Swarm"), 1)])),
        force(("B", [(trooper("B"), 1)]), ("Pals", [(trooper("Pal"), 1)])),
        [(10, 5), (10, 20), (13, 20)],
    )
    s = activate(s, 0)
    s, _ = act(s, Attack(0, 0, 1), 0, [6, 6, 6, 6, 1, 1, 1])
    assert s.figs[1].marks == ["swarm"]
    s.units[0].activated = True
    s = activate(s, 1)
    assert "swarm" in s.figs[1].bonus
    refused = WS.check(s, Attack(1, 0, 0), 1)  # the enemy is not the closest unit
    assert refused is not None and "L1111" in refused.rule
    assert WS.check(s, Attack(1, 0, 2), 1) is None  # it fires on its friends
    assert "Did Not Move" not in apool(s, a=1, t=2)
    assert Attack(1, 0, 2) in list(WS.legal_actions(s, 1))


def t_lightning_reflexes() -> None:
    for tweaks, window in (([], True), (["Lightning Reflexes"], False)):
        s = duel(C("A", tweaks=tweaks), C("B"))
        s.figs[1].reserved = 0
        s, ev = act(s, Attack(0, 0, 1), 0, [1] * 4)
        assert (s.window is not None) is window  # no simultaneous reserved answer (L575)
        assert any(e.kind == "attack roll" for e in ev) is not window


def t_devour() -> None:
    jaws = {"name": "Jaws", "av": "4k4", "power": "Devour"}
    beast = trooper("Beast", type="L", tweaks=["Monster"], weapons=[jaws])

    def game(prey: dict[str, Any], y: float = 6.5) -> GameState:
        s = table(force(("Beast", [(beast, 1)])), force(("B", [(prey, 1)])), [(10, 5), (10, y)])
        s = activate(s, 0)
        s.figs[0].moved = s.figs[1].moved = True
        return s

    s, ev = act(game(C("B")), Attack(0, 0, 1), 0, [6, 6, 6, 6, 1, 1, 1])
    assert not s.figs[1].alive  # devoured
    # a failure is a standard close combat attack against Defense
    s, ev = act(game(C("B")), Attack(0, 0, 1), 0, [1, 1, 1, 1, 6, 6, 6, 6, 6, 6, 6, 1, 1])
    assert not s.figs[1].alive and any("L1063" in e.rule for e in ev)
    assert WS.check(game(C("B"), y=9), Attack(0, 0, 1), 0) is not None  # close combat only
    big = trooper("Big", type="H", tweaks=["Monster"])
    assert WS.check(game(big, y=8.5), Attack(0, 0, 1), 0) is not None  # bigger: immune
    s = duel(C("A", weapons=[jaws]), C("B"), pos=((10, 5), (10, 6)))
    assert WS.check(s, Attack(0, 0, 1), 0) is not None  # monsters only


def t_induce_drug_frenzy() -> None:
    s = _power("Induce Drug Frenzy", True, [6, 6, 6, 6])  # AV 4k4 on the Pal
    pal = s.figs[1]
    ctx = ctx_of(s)
    assert allowance(s, ctx, pal, "move") == 6 + 4  # 1" a kept die
    rifle, knife = ctx.profiles[1].weapons
    assert frenzy_flat(pal, knife) == 4 and frenzy_flat(pal, rifle) == -4  # a rolled die
    assert pal.bonus["def_hero"] == 4  # Hero Points for Defense rolls only
    s.active_units = [1]
    assert WS.check(s, Reserve(1, 0), 0) is not None  # no reserve
    pal.hero = 0
    ev: list[Any] = []
    # the Follow Up: basic Defense 2k2 (1, 1) against 4k4 (6, 6, 6, 6); the frenzy's points
    # may not be spent on it
    assert follow_up(s, ctx, ScriptedDice([6, 6, 6, 6, 1, 1]), ev)
    assert not pal.alive and any("L1123" in e.rule for e in ev)


def t_wave() -> None:
    walker = _vehicle([])
    s = table(
        force(("Seer", [(P("Wave"), 1)]), ("Pal", [(C("Pal"), 1)])),
        force(("B", [(C("B"), 1)]), ("Off", [(C("Off"), 1)]), ("W", [(walker, 1)])),
        [(10, 5), (10, 10), (10, 15), (20, 10), (10, 30)],
    )
    s = activate(s, 0)
    assert WS.check(s, Attack(0, 0, 2), 0) is None  # aimed at an enemy: no one resists
    s, ev = act(s, Attack(0, 0, 2), 0, [6, 6, 6, 6])
    at = [(f.x, f.y) for f in s.figs]
    assert at[1] == (10, 13) and at[2] == (10, 18)  # thrown 3" directly away from the user
    assert at[3] == (20, 10) and at[4] == (10, 30)  # off the line; a vehicle stands
    assert any("L1345" in e.rule for e in ev)


def t_summon_rain_storm() -> None:
    s = table(
        force(("Seer", [(P("Summon Rain Storm"), 1)])),
        force(("B", [(C("B"), 1)]), ("C", [(C("C"), 1)]), ("D", [(C("D"), 1)])),
        [(10, 5), (10, 20), (14, 20), (21, 20)],
    )
    s = activate(s, 0)
    assert apool(s, a=1, t=0).split()[1] == "1-6"
    s, _ = act(s, Attack(0, 0, 1), 0, [6, 6, 6, 6])  # a 6" storm around B
    assert "rained" in s.figs[1].bonus and "rained" in s.figs[2].bonus
    assert "rained" not in s.figs[3].bonus
    assert apool(s, a=1, t=0).split()[1] == "1-5"  # sixes read as fives
    s.units[0].activated = True
    s = activate(s, 3)
    s, _ = act(s, Move(3, 16, 20), 1)  # walks into the storm this turn
    assert "rained" in s.figs[3].bonus
    follow_up(s, ctx_of(s), ScriptedDice([]), [])
    assert not any("rained" in f.bonus for f in s.figs)  # the rest of the turn only


def t_fervor_of_the_righteous() -> None:
    s = table(
        force(("Seer", [(P("Fervor of the Righteous"), 1)]), ("Squad", [(trooper(), 1)])),
        force(("B", [(C("B"), 1)])),
        [(10, 5), (14, 5), (10, 40)],
    )
    s.units[1].activated = True  # even a unit that has activated already
    s = activate(s, 0)
    assert WS.check(s, Attack(0, 0, 0), 0) is not None  # not its own unit
    s, _ = act(s, Attack(0, 0, 1), 0, [6, 6, 6, 6])
    assert s.active_units == [1] and s.resume == [0]
    assert WS.check(s, Move(0, 10, 8), 0) is not None  # the user waits
    s, _ = act(s, Move(1, 14, 9), 0)  # the Squad's extra activation
    s, ev = act(s, Deactivate(), 0)
    assert s.active_units == [0] and not s.resume and s.to_act == 0
    assert any("L1093" in e.rule for e in ev)
    s, _ = act(s, Move(0, 10, 8), 0)  # then the user completes its own activation
    assert s.figs[0].y == 8


# ---------------------------------------------------------------------- rerolls (L1387-L1581)


def _shoot(
    a_tweaks: list[str], b_tweaks: list[str], faces: list[int], answers: tuple[bool, ...] = ()
) -> tuple[GameState, str]:
    """A shot with scripted dice; each ``reroll`` decision (L493: after both rolls, before
    Hero Points) is answered from ``answers`` in turn, or by its default. The decision's
    player and default are checked against the engine's choice (docs/rulings.md 33)."""
    s = duel(C("A", tweaks=a_tweaks), C("B", tweaks=b_tweaks))
    dice = ScriptedDice(faces)
    s, ev = WS.apply(s, Attack(0, 0, 1), 0, dice)
    left = list(answers)
    while WS.pending(s) and WS.pending(s)[0].kind == "reroll":
        d = WS.pending(s)[0]
        choice = Reroll(left.pop(0)) if left else d.default
        assert choice is not None
        s, more = WS.apply(s, choice, d.player, dice)
        ev += more
    return s, "\n".join(f"{e.text} [{e.rule}]" for e in ev if e.kind == "reroll")


def t_lucky_bastard() -> None:
    # the attack (1, 1) loses to the defense (3, 3): its owner is asked, the default rerolls
    # (6, 6) and it kills
    s = duel(C("A", tweaks=["Lucky Bastard"]), C("B"))
    s, _ = act(s, Attack(0, 0, 1), 0, [1, 1, 3, 3])
    d = WS.pending(s)[0]
    assert (d.kind, d.player, d.default, d.rule.endswith("L1585")) == (
        "reroll",
        0,
        Reroll(True),
        True,
    )
    s, why = _shoot(["Lucky Bastard"], [], [1, 1, 3, 3, 6, 6])
    assert not s.figs[1].alive and "Lucky Bastard" in why and "L1585" in why
    # once a turn: the next losing roll stands
    assert reroll_use(s, ctx_of(s), s.figs[0], goes_its_way=False) is None
    # a defender's losing defense (1, 1 against 6, 6) is rerolled (6, 6): it survives
    s, why = _shoot([], ["Lucky Bastard"], [6, 6, 1, 1, 6, 6])
    assert s.figs[1].alive and "rerolls its defense" in why
    # the owner may let a losing roll stand: the tweak is not spent
    s, why = _shoot(["Lucky Bastard"], [], [1, 1, 3, 3], answers=(False,))
    assert s.figs[1].alive and "lets the roll stand" in why and "lucky_used" not in s.figs[0].bonus


def t_charmed() -> None:
    s, why = _shoot(["Charmed"], [], [1, 1, 3, 3, 6, 6])
    assert not s.figs[1].alive and "Charmed" in why and "L1489" in why
    s.figs[0].bonus = {}  # a later turn: once a game
    assert reroll_use(s, ctx_of(s), s.figs[0], goes_its_way=False) is None
    # "you may reroll": even a winning roll, if the owner wants; the new roll stands (L1489)
    s, why = _shoot(["Charmed"], [], [6, 6, 1, 1, 1, 1], answers=(True,))
    assert s.figs[1].alive and "Charmed" in why


def t_hard_luck() -> None:
    # the attack (6, 6) would kill; the opponent (player 1) is asked, the default has it
    # rerolled (1, 1): the target survives
    s = duel(C("A", tweaks=["Hard Luck"]), C("B"))
    s, _ = act(s, Attack(0, 0, 1), 0, [6, 6, 1, 1])
    d = WS.pending(s)[0]
    assert (d.kind, d.player, d.default) == ("reroll", 1, Reroll(True))
    s, why = _shoot(["Hard Luck"], [], [6, 6, 1, 1, 1, 1])
    assert s.figs[1].alive and "Hard Luck" in why and "L1391" in why
    assert "at the opponent's request" in why
    assert s.figs[0].marks == ["Hard Luck"]
    s.figs[0].bonus = {}
    assert reroll_use(s, ctx_of(s), s.figs[0], goes_its_way=True) is None


def t_fickle_finger_of_fate() -> None:
    a, b = C("A", tweaks=["Fickle Finger of Fate"]), C("B")
    for face, luck in ((5, "Lucky Bastard"), (2, "Hard Luck")):
        s = table(force(("A", [(a, 1)])), force(("D", [(b, 1)])), [(10, 5), (10, 20)])
        s = activate(s, 0, faces=[face])
        s.figs[0].moved = s.figs[1].moved = True
        assert s.figs[0].bonus["fickle"] == (2 if face > 3 else 1)
        dice = ScriptedDice([1, 1, 3, 3, 6, 6] if face > 3 else [6, 6, 1, 1, 1, 1])
        s, ev = WS.apply(s, Attack(0, 0, 1), 0, dice)
        d = WS.pending(s)[0]
        assert d.kind == "reroll" and d.player == (0 if face > 3 else 1)
        assert d.default is not None
        s, more = WS.apply(s, d.default, d.player, dice)
        ev += more
        # Lucky Bastard: the losing attack is rerolled and kills; Hard Luck: the winning
        # attack is rerolled and fails
        assert s.figs[1].alive == (face <= 3)
        assert any(e.kind == "reroll" and "L1519" in e.rule for e in ev), luck


def _mover(power: str) -> GameState:
    user = C(
        "Mystic",
        mn="4k3",
        cr='8"',
        weapons=[{"name": power, "range": '12"', "av": "4k4", "power": power}],
    )
    s = table(
        force(("A", [(user, 1)]), ("Pal", [(C("Pal"), 1)])),
        force(("B", [(C("Foe", mn="2k2"), 1)])),
        [(10, 5), (12, 5), (10, 7.5)],
    )
    return activate(s, 0)


def t_teleport() -> None:
    s = _mover("Teleport")
    # the Pal (within the user's 8" Control Radius) to a point within the 12" Range (L1303)
    s2, ev = act(s, Attack(0, 0, 1, at=(10.0, 16.0)), 0, [6, 6, 6, 6])
    assert (s2.figs[1].x, s2.figs[1].y) == (10.0, 16.0) and any("L1303" in e.rule for e in ev)
    assert WS.check(s, Attack(0, 0, 1, at=(10.0, 30.0)), 0) is not None  # beyond the Range
    assert WS.check(s, Attack(0, 0, 1, at=(10.0, 7.5)), 0) is not None  # onto a base
    # an enemy resists with its Mental: 4k4 (1, 1, 1, 1) against 2k2 (6, 6) fails, it stays
    s3, _ = act(s, Attack(0, 0, 2, at=(14.0, 12.0)), 0, [1, 1, 1, 1, 6, 6])
    assert (s3.figs[2].x, s3.figs[2].y) == (10.0, 7.5)
    # without a Control Radius the user may only teleport itself
    s.figs[1].x = 30.0
    assert WS.check(s, Attack(0, 0, 1, at=(10.0, 16.0)), 0) is not None


def t_shove() -> None:
    s = _mover("Shove")
    # the Foe (unwilling, within 3") is flung to a named point and takes a 2k2 attack there:
    # the power 4k4 (6, 6, 6, 6) beats its Mental 2k2 (1, 1); landing 2k2 (6, 6) = 12 against
    # its Defense (1, 1): destroyed
    s2, ev = act(s, Attack(0, 0, 2, at=(20.0, 30.0)), 0, [6, 6, 6, 6, 1, 1, 6, 6, 1, 1])
    assert any("L1219" in e.rule and "flung to (20, 30)" in e.text for e in ev)
    assert not s2.figs[2].alive
    # a willing Pal takes only 1k1 (6) against its Defense (6, 6): it survives
    s3, ev = act(s, Attack(0, 0, 1, at=(30.0, 30.0)), 0, [6, 6, 6, 6, 6, 6, 6])
    assert s3.figs[1].alive and (s3.figs[1].x, s3.figs[1].y) == (30.0, 30.0)
    assert any("1k1 attack" in e.text for e in ev)
    assert WS.check(s, Attack(0, 0, 1, at=(10.0, 5.0)), 0) is not None  # onto a friend
    s.figs[2].y = 20.0  # more than 3" away
    assert WS.check(s, Attack(0, 0, 2), 0) is not None


def t_bushwhacker() -> None:
    pistols = [
        {"name": "Pistol", "range": '12"', "av": "2k2"},
        {"name": "Carbine", "range": '18"', "av": "2k2"},
        {"name": "Knife", "av": "1k1"},
    ]
    s = duel(C("A", tweaks=["Bushwhacker"], weapons=pistols), C("B"))
    listed = list(WS.legal_actions(s, 0))
    assert Reserve(0, 0, every=True) in listed and Reserve(0, 0) in listed  # "may" (L1471)
    s2, ev = act(s, Reserve(0, 0, every=True), 0)
    f = s2.figs[0]
    assert f.reserved == 0 and f.reserve_more == [1]  # all its ranged attacks, not the Knife
    assert any("L1471" in e.rule for e in ev)
    # a reserved attack used, the next one is still on reserve (L575-L579)
    ctx = ctx_of(s2)
    from warbench.rulesets.warengine.game.attacks import declare

    declare(s2, ctx, f, 0, 1, (), (), ScriptedDice([1, 1, 6, 6]), [], reserve_use=True)
    assert f.reserved == 1 and f.reserve_more == []
    # a figure that has attacked this activation reserves one weapon only
    s3 = s.clone()
    s3.figs[0].fired = [1]
    assert WS.check(s3, Reserve(0, 0, every=True), 0) is not None
    # without the edge, no Bushwhacking
    plain = duel(C("A", weapons=pistols), C("B"))
    assert WS.check(plain, Reserve(0, 0, every=True), 0) is not None


EFFECT_TESTS: dict[tuple[str, str], Callable[[], None]] = {
    ("personal", "Bushwhacker"): t_bushwhacker,
    ("power", "Teleport"): t_teleport,
    ("power", "Shove"): t_shove,
    ("personal", "Ballsy"): t_ballsy,
    ("personal", "Dodge"): t_dodge,
    ("personal", "Tough"): t_tough,
    ("personal", "Lurker"): t_lurker,
    ("personal", "Frenzied"): t_frenzied,
    ("personal", "Sharpshooter"): t_sharpshooter,
    ("personal", "Hardcase"): t_hardcase,
    ("personal", "Poorly Trained"): t_poorly_trained,
    ("personal", "Obvious"): t_obvious,
    ("personal", "Flight"): t_flight,
    ("personal", "Slippery"): t_slippery,
    ("personal", "Kamikaze"): t_kamikaze,
    ("personal", "Regeneration"): t_regeneration,
    ("personal", "Flame Retardant"): t_flame_retardant,
    ("personal", "Hyperactive Metabolism"): t_hyperactive_metabolism,
    ("personal", "Sole Survivor"): t_sole_survivor,
    ("personal", "Inspiring Example"): t_inspiring_example,
    ("personal", "Butthole Sergeant"): t_butthole_sergeant,
    ("personal", "Stupid"): t_stupid,
    ("personal", "Guiltridden"): t_guiltridden,
    ("personal", "Ponderous"): t_ponderous,
    ("personal", "Easily Controlled"): t_easily_controlled,
    ("personal", "Chain of Command"): t_chain_of_command,
    ("personal", "Frother Command"): t_frother_command,
    ("personal", "Terrifying"): t_terrifying,
    ("personal", "Trigger Happy"): t_trigger_happy,
    ("personal", "Glory Hound"): t_glory_hound,
    ("personal", "Sniper"): t_sniper,
    ("personal", "Cybernetic"): t_cybernetic,
    ("personal", "Coup Counter"): t_coup_counter,
    ("personal", "Very Unwieldy"): t_very_unwieldy,
    ("personal", "Unwieldy"): t_unwieldy,
    ("personal", "Infiltration"): t_infiltration,
    ("personal", "Stealthy"): t_stealthy,
    ("personal", "Eagle Eye"): t_eagle_eye,
    ("personal", "Tracker"): t_tracker,
    ("personal", "Vindictive"): t_vindictive,
    ("weapon", "Piercing Attack"): t_piercing_attack,
    ("weapon", "Highly Accurate"): t_highly_accurate,
    ("weapon", "Parry Weapon"): t_parry_weapon,
    ("weapon", "Extra Bite"): t_extra_bite,
    ("weapon", "Charging Weapon"): t_charging_weapon,
    ("weapon", "Armor Piercing"): t_armor_piercing,
    ("weapon", "Thermal Scope"): t_thermal_scope,
    ("weapon", "Ignores Cover"): t_ignores_cover,
    ("weapon", "Long"): t_long,
    ("weapon", "Very Long"): t_very_long,
    ("weapon", "Sniper Scope"): t_sniper_scope,
    ("weapon", "High Explosive"): t_high_explosive,
    ("weapon", "Mental Attack"): t_mental_attack,
    ("weapon", "Slow Attack"): t_slow_attack,
    ("weapon", "Move or Fire"): t_move_or_fire,
    ("weapon", "One Shot"): t_one_shot,
    ("weapon", "Slow Reload"): t_slow_reload,
    ("weapon", "Fragile"): t_fragile,
    ("weapon", "Volatile"): t_volatile,
    ("weapon", "Heavy Recoil"): t_heavy_recoil,
    ("weapon", "Entangling"): t_entangling,
    ("weapon", "Poisoned"): t_poisoned,
    ("weapon", "Immolation"): t_immolation,
    ("weapon", "Time Delay"): t_time_delay,
    ("weapon", "Cybernetic Only"): t_cybernetic_only,
    ("unit", "Conscript"): t_conscript,
    ("unit", "Raw"): t_raw,
    ("unit", "Green"): t_green,
    ("unit", "Well Trained"): t_well_trained,
    ("unit", "Fighters to the End"): t_fighters_to_the_end,
    ("power", "Terror"): t_terror,
    ("power", "Banish Spirit"): t_banish_spirit,
    ("power", "Rally"): t_rally,
    ("power", "Protection"): t_protection,
    ("power", "Strength of Tortoise"): t_strength_of_tortoise,
    ("power", "Stone Skin"): t_stone_skin,
    ("power", "Guide Attack"): t_guide_attack,
    ("power", "Brute Strength"): t_brute_strength,
    ("power", "Restore"): t_restore,
    ("power", "Soul Suck"): t_soul_suck,
    ("power", "Incontrovertible Truth"): t_incontrovertible_truth,
    ("power", "Jinx Mechanism"): t_jinx_mechanism,
    ("power", "Electronic Feedback"): t_electronic_feedback,
    ("power", "Instill Overwhelming Greed"): t_instill_overwhelming_greed,
    ("power", "Chittering Hordes"): t_chittering_hordes,
    ("power", "Televangelism"): t_televangelism,
    ("power", "Suspend"): t_suspend,
    ("power", "Illuminate Enemy"): t_illuminate_enemy,
    ("power", "Pounding Rage"): t_pounding_rage,
    ("power", "Shield of God"): t_shield_of_god,
    ("power", "Bless Weapon"): t_bless_weapon,
    ("power", "Null Field"): t_null_field,
    ("power", "Psychic Shield"): t_psychic_shield,
    ("power", "Invigorate"): t_invigorate,
    ("power", "Skulk in Shadows"): t_skulk_in_shadows,
    ("power", "Earth Sense"): t_earth_sense,
    ("power", "War Chant"): t_war_chant,
    ("power", "Invisibility"): t_invisibility,
    ("power", "Speaking in Tongues"): t_speaking_in_tongues,
    ("power", "Mob Mentality"): t_mob_mentality,
    ("power", "Adrenal Overload"): t_adrenal_overload,
    ("power", "See the Future"): t_see_the_future,
    ("power", "Telepathic Command"): t_telepathic_command,
    ("power", "You Da Man"): t_you_da_man,
    ("personal", "Force Leader"): t_force_leader,
    ("power", "Speedster"): t_speedster,
    ("power", "Static Charge"): t_static_charge,
    ("power", "Illusionary Swarm"): t_illusionary_swarm,
    ("personal", "Lightning Reflexes"): t_lightning_reflexes,
    ("power", "Devour"): t_devour,
    ("power", "Induce Drug Frenzy"): t_induce_drug_frenzy,
    ("power", "Wave"): t_wave,
    ("power", "Summon Rain Storm"): t_summon_rain_storm,
    ("power", "Fervor of the Righteous"): t_fervor_of_the_righteous,
    ("personal", "Lucky Bastard"): t_lucky_bastard,
    ("personal", "Charmed"): t_charmed,
    ("personal", "Hard Luck"): t_hard_luck,
    ("personal", "Fickle Finger of Fate"): t_fickle_finger_of_fate,
    # weapons, tweaks and form as state (session 25): played in test_we_game_s25_we_state.py
    ("personal", "Scrounger"): s25.test_scrounger_L1607_takes_the_killed_figures_weapon,
    ("personal", "Shapechanger"): s25.test_shapechanger_L1613_changes_form_in_the_follow_up_step,
    ("weapon", "Transferable"): s25.test_transferable_L1845_passes_to_the_nearest_unit_mate,
    ("power", "Drain Power"): (
        s25.test_drain_power_L1067_takes_an_edge_and_restore_L1193_gives_it_back
    ),
    ("power", "Restore Vehicle Spirit"): (
        s25.test_restore_vehicle_spirit_L1199_the_user_and_the_vehicle_become_one
    ),
}
EFFECT_TESTS.update(TERRAIN_EFFECT_TESTS)  # the board-changing powers (session 25)


def _ids() -> list[str]:
    return [f"{k}-{n}-L{effects.source_line(k, n)}" for k, n in EFFECT_TESTS]


@pytest.mark.parametrize("key", list(EFFECT_TESTS), ids=_ids())
def test_effect_in_a_game(key: tuple[str, str]) -> None:
    EFFECT_TESTS[key]()


def _lane_tests() -> dict[tuple[str, str], Callable[[], None]]:
    """``EFFECT_TESTS`` and the ``LANE_EFFECT_TESTS`` of the other test modules here (each
    names the tests of its own file that play a tweak or power; pytest runs them there)."""
    import importlib
    import pkgutil
    from pathlib import Path

    out = dict(EFFECT_TESTS)
    for mod in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if mod.name.startswith("test_we_game_") and mod.name != "test_we_game_effects":
            m = importlib.import_module(f"{__package__}.{mod.name}")
            out.update(getattr(m, "LANE_EFFECT_TESTS", {}))
    return out


def test_every_implemented_effect_has_a_test() -> None:
    have = {(k, n) for k, names in effects.implemented().items() for n in names}
    assert have == set(_lane_tests())


# ------------------------------------------------------- tweaks played through the figure itself


def _vehicle(tweaks: list[str]) -> dict[str, Any]:
    return trooper("Walker", type="L", cr='6"', mn="3k2", tweaks=["Vehicle", *tweaks])


def b_monster() -> None:
    beast = trooper("Beast", type="L", tweaks=["Monster"])
    s = table(
        force(("A", [(C(), 1)])),
        force(("B", [(C("B"), 1)]), ("Beast", [(beast, 1)])),
        [(10, 5), (10, 30), (10, 18)],
    )
    assert not sees(s, ctx_of(s), s.figs[0], s.figs[1])  # a monster blocks sight (L433)


def b_vehicle() -> None:
    s = table(
        force(("A", [(C(), 1)])),
        force(("B", [(C("B"), 1)]), ("Walker", [(_vehicle([]), 1)])),
        [(10, 5), (10, 30), (10, 18)],
    )
    assert not sees(s, ctx_of(s), s.figs[0], s.figs[1])


def b_weapon_master() -> None:
    extra = {"name": "Second Gun", "range": '18"', "av": "3k3"}
    fig = trooper("Master", tweaks=["Weapon Master"])
    fig["weapons"] = [*fig["weapons"], extra]
    s = duel(fig, C("B"))
    assert WS.check(s, Attack(0, 2, 1), 0) is None  # the extra slot's weapon attacks
    _, ev = act(s, Attack(0, 2, 1), 0, [1] * 5)
    assert "Second Gun 3k3" in ev[0].text


def b_vehicular_commander() -> None:
    troops = trooper("Trooper")
    for tweaks, ok in (([], False), (["Vehicular Commander"], True)):
        s = table(
            force(("Walker", [(_vehicle(tweaks), 1)]), ("Troops", [(troops, 2)])),
            force(("B", [(C("B"), 1)])),
            [(10, 5), (12, 8), (13, 8), (10, 40)],
        )
        s.to_act = 0
        s.active_unit = None
        assert (WS.check(s, Activate(0, join=1), 0) is None) is ok  # joins troopers (L375)


def b_multiprofile() -> None:
    gun = {
        "name": "Combi",
        "tweaks": ["Multiprofile"],
        "profiles": [
            {"name": "Bolt", "range": '24"', "av": "2k2"},
            {"name": "Flame", "range": '6"', "av": "3k3"},
        ],
    }
    fig = C("A", weapons=[gun])
    s = duel(fig, C("B"))
    names = [w.name for w in ctx_of(s).profiles[0].weapons]
    assert len(names) == 2 and WS.check(s, Attack(0, 0, 1), 0) is None


BUILT_IN_TESTS: dict[tuple[str, str], Callable[[], None]] = {
    ("personal", "Monster"): b_monster,
    ("personal", "Vehicle"): b_vehicle,
    ("personal", "Weapon Master"): b_weapon_master,
    ("personal", "Vehicular Commander"): b_vehicular_commander,
    ("weapon", "Multiprofile"): b_multiprofile,
}


@pytest.mark.parametrize(
    "key",
    list(BUILT_IN_TESTS),
    ids=[f"{k}-{n}-L{effects.source_line(k, n)}" for k, n in BUILT_IN_TESTS],
)
def test_built_in_tweak_in_a_game(key: tuple[str, str]) -> None:
    BUILT_IN_TESTS[key]()


def test_every_built_in_tweak_has_a_test() -> None:
    assert set(effects.BUILT_IN) == set(BUILT_IN_TESTS)


def test_every_tweak_and_power_is_in_play_or_says_why_not() -> None:
    """The book's 53 Personal, 27 Weapon, 5 Unit Tweaks and 58 Special Powers: each is in
    play (an effect or built in, with a test above) or listed in NOT_IN_PLAY with its line
    and what the engine lacks; never both."""
    from warbench.rulesets.warengine.tables import catalogue

    cat = catalogue()
    book = {
        "personal": dict(cat.personal_tweaks),
        "weapon": dict(cat.weapon_tweaks),
        "unit": dict(cat.unit_tweaks),
        "power": dict(cat.special_powers),
    }
    assert {k: len(v) for k, v in book.items()} == {
        "personal": 53,
        "weapon": 27,
        "unit": 5,
        "power": 58,
    }
    played = {(k, n) for k, names in effects.in_play().items() for n in names}
    missing = set(effects.NOT_IN_PLAY)
    assert not played & missing
    assert played | missing == {(k, n) for k, b in book.items() for n in b}
    for (k, n), why in effects.NOT_IN_PLAY.items():
        assert why.startswith(f"L{effects.source_line(k, n)}:"), n
