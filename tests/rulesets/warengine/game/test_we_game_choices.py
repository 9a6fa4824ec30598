"""The WarEngine choices that were the engine's alone, now the players' (issue 16): the
rerolls' ``reroll`` decisions (L493, Lucky Bastard L1585, Charmed L1489, Hard Luck L1391,
Fickle Finger of Fate L1519), Telepathic Command's selected character (L1297, ``Attack.via``)
and Induce Drug Frenzy's lower Attack Value (L1123, ``Attack.av``) of
004_f4ea5693af0644ce.txt."""

from __future__ import annotations

from typing import Any

from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warengine.dice import XkY
from warbench.rulesets.warengine.game.attacks import frenzy_flat
from warbench.rulesets.warengine.game.control import mental_of
from warbench.rulesets.warengine.game.followup import follow_up
from warbench.rulesets.warengine.game.movement import allowance
from warbench.rulesets.warengine.game.state import Attack, GameState, Reroll

from .helpers import WS, act, activate, ctx_of, force, table, trooper


def C(name: str = "Hero", **kw: Any) -> dict[str, Any]:
    return trooper(name, type="C", **kw)


def duel(a: dict[str, Any], d: dict[str, Any]) -> GameState:
    s = table(force(("A", [(a, 1)])), force(("D", [(d, 1)])), [(10, 5), (10, 20)])
    s = activate(s, 0)
    s.figs[0].moved = s.figs[1].moved = True
    return s


def test_L493_rerolls_come_after_both_rolls_and_before_hero_points() -> None:
    """A Lucky Bastard attacker with Hero Points: the reroll is asked first (both rolls are
    made, L493), then the Hero Points; the decision lists both answers."""
    s = duel(C("A", tweaks=["Lucky Bastard"], hero_points=6), C("B"))
    s.figs[0].hero = 6  # 2 + 6 could beat 6: the Hero Points matter
    s, ev = act(s, Attack(0, 0, 1), 0, [1, 1, 3, 3])
    assert [e.kind for e in ev].count("defense roll") == 1  # both rolled
    d = WS.pending(s)[0]
    assert d.kind == "reroll" and d.player == 0
    assert set(WS.legal_actions(s, 0)) == {Reroll(False), Reroll(True)}
    s, _ = act(s, Reroll(False), 0, [])
    assert WS.pending(s)[0].kind == "hero"  # then the Hero Points (L493)


def test_L1387_hard_luck_is_the_opponents_decision_and_may_be_declined() -> None:
    s = duel(C("A", tweaks=["Hard Luck"]), C("B"))
    s, _ = act(s, Attack(0, 0, 1), 0, [6, 6, 1, 1])
    d = WS.pending(s)[0]
    assert (d.kind, d.player, d.default) == ("reroll", 1, Reroll(True))
    assert WS.check(s, Reroll(True), 0) is not None  # not the attacker's to decide
    s, _ = act(s, Reroll(False), 1, [])
    assert not s.figs[1].alive and s.figs[0].marks == []  # it stands; not spent


def test_L1485_charmed_once_a_game_is_not_asked_again() -> None:
    s = duel(C("A", tweaks=["Charmed"]), C("B"))
    s, _ = act(s, Attack(0, 0, 1), 0, [1, 1, 3, 3])
    s, _ = act(s, Reroll(True), 0, [2, 2])  # still loses: the new roll stands
    assert s.figs[1].alive and s.figs[0].marks == ["Charmed"]


def test_a_reroll_decision_replays_identically() -> None:
    s = duel(C("A", tweaks=["Lucky Bastard"]), C("B", tweaks=["Charmed"]))
    a, _ = WS.apply(s, Attack(0, 0, 1), 0)
    b, _ = WS.apply(s, Attack(0, 0, 1), 0)
    while WS.pending(a) and WS.pending(a)[0].kind == "reroll":
        d = WS.pending(a)[0]
        assert d.default is not None
        a, _ = WS.apply(a, d.default, d.player)
        b, _ = WS.apply(b, d.default, d.player)
        assert WS.digest(a) == WS.digest(b)


# ------------------------------------------------------------ Telepathic Command (L1297)


def _telepathy() -> GameState:
    seer = C(
        "Mystic",
        mn="5k4",
        cr='8"',
        weapons=[{"name": "TC", "range": '24"', "av": "4k4", "power": "Telepathic Command"}],
    )
    sage = C("Sage", mn="4k4", cr='8"')
    s = table(
        force(("Seer", [(seer, 1)]), ("Squad", [(trooper(), 2)]), ("Sage", [(sage, 1)])),
        force(("B", [(C(), 1)])),
        [(10, 5), (12, 5), (13, 5), (11, 6), (10, 40)],
    )
    return activate(s, 0)


def test_L1297_telepathic_command_the_user_selects_the_character() -> None:
    s = _telepathy()
    listed = [a for a in WS.legal_actions(s, 0) if isinstance(a, Attack) and a.target == 1]
    assert Attack(0, 0, 1, via=0) in listed and Attack(0, 0, 1, via=3) in listed
    s2, _ = act(s, Attack(0, 0, 1, via=3), 0, [6, 6, 6, 6])  # the Sage's Mental, not the best
    assert mental_of(s2, ctx_of(s2), 2) == XkY(4, 4) and s2.figs[2].controlled
    s3, _ = act(s, Attack(0, 0, 1), 0, [6, 6, 6, 6])  # the default: the best Mental
    assert mental_of(s3, ctx_of(s3), 2) == XkY(5, 4)


def test_L1297_a_character_whose_control_radius_misses_the_user_is_refused() -> None:
    s = _telepathy()
    s.figs[3].x, s.figs[3].y = 30.0, 30.0  # the Sage is 8" from nobody
    why = WS.check(s, Attack(0, 0, 1, via=3), 0)
    assert why is not None and "Control Radius" in why.reason and "L1297" in why.rule
    assert WS.check(s, Attack(0, 0, 1, via=2), 0) is not None  # a trooper is no character


# ------------------------------------------------------------- Induce Drug Frenzy (L1123)


def _frenzy(av: str | None, faces: list[int]) -> GameState:
    user = C(
        "Mystic",
        mn="4k3",
        weapons=[{"name": "F", "range": '24"', "av": "4k4", "power": "Induce Drug Frenzy"}],
    )
    s = table(
        force(("A", [(user, 1)]), ("Pal", [(C("Pal"), 1)])),
        force(("B", [(C(), 1)])),
        [(10, 5), (12, 5), (10, 40)],
    )
    s = activate(s, 0)
    s, _ = act(s, Attack(0, 0, 1, av=av), 0, faces)
    return s


def test_L1119_a_lower_attack_value_gives_fewer_bonuses_and_a_lighter_follow_up() -> None:
    s = _frenzy("3k2", [6, 5, 4])  # 6+5 = 11: 10 or more succeeds on a friend (L830)
    pal = s.figs[1]
    ctx = ctx_of(s)
    assert allowance(s, ctx, pal, "move") == 6 + 2  # 1" a kept die: 2
    assert frenzy_flat(pal, ctx.profiles[1].weapons[1]) == 3  # +1 a rolled die: 3
    assert pal.bonus["def_hero"] == 2
    # the Follow Up defense is against the same Attack Value as used: 3k2, not 4k4
    ev: list[Any] = []
    assert follow_up(s, ctx, ScriptedDice([1, 1, 1, 6, 6]), ev)
    assert pal.alive and any("L1123" in e.rule and "2 against 12" in e.text for e in ev)


def test_L1119_the_choices_are_listed_and_a_higher_one_is_refused() -> None:
    user = C(
        "Mystic",
        mn="4k3",
        weapons=[{"name": "F", "range": '24"', "av": "3k2", "power": "Induce Drug Frenzy"}],
    )
    s = table(
        force(("A", [(user, 1)]), ("Pal", [(C("Pal"), 1)])),
        force(("B", [(C(), 1)])),
        [(10, 5), (12, 5), (10, 40)],
    )
    s = activate(s, 0)
    avs = {a.av for a in WS.legal_actions(s, 0) if isinstance(a, Attack) and a.target == 1}
    assert avs == {None, "1k1", "2k1", "2k2", "3k1"}
    for bad in ("4k2", "3k3", "2x2"):
        why = WS.check(s, Attack(0, 0, 1, av=bad), 0)
        assert why is not None and "L1123" in why.rule, bad
    assert WS.check(s, Attack(0, 0, 1, via=1), 0) is not None  # not Telepathic Command
