"""Area Effect weapons, Massed Attacks, firing into and leaving close combat
(004_f4ea5693af0644ce.txt L499-L567)."""

from __future__ import annotations

from warbench.rulesets.warengine.game.state import Attack, Move

from .helpers import WS, act, activate, force, table, trooper

THUG = trooper("Thug", mn="2k2")


def _dogboy(ae: str, aet: str, **kw: object) -> dict[str, object]:
    return trooper(
        "Dogboy",
        type="C",
        weapons=[{"name": "Plasma", "range": '18"', "av": "3k3", "ae": ae, "aet": aet, **kw}],
    )


def _moved(s: object) -> object:
    for f in s.figs:  # type: ignore[attr-defined]
        f.moved = True
    return s


def test_L505_example_dogboy_plasma_gun_kills_two_of_three_thugs() -> None:
    """AV 3k3, AE 3x Ex; Dogboy rolls 9; the Thugs roll 4, 7 and 11: two die (L505)."""
    s = table(
        force(("D", [(_dogboy("3x", "Ex"), 1)])),
        force(("Thugs", [(THUG, 3)])),
        [(10, 5), (10, 20), (12, 21), (8, 21)],
    )
    s = _moved(activate(s, 0))
    s, ev = act(s, Attack(0, 0, 1), 0, [3, 3, 3, 2, 2, 4, 3, 6, 5])
    assert [f.alive for f in s.figs[1:]] == [False, False, True]
    assert "= 9" in ev[0].text


def test_L525_example_explosive_secondaries_need_the_primarys_sight() -> None:
    crate = {"name": "Crate", "rect": [11, 18, 12, 24], "blocks_los": True}
    s = table(
        force(("D", [(_dogboy("2x", "Ex"), 1)])),
        force(("Thugs", [(THUG, 2)])),
        [(10, 5), (10, 20), (13, 20)],
        terrain=(crate,),
    )
    s = _moved(activate(s, 0))
    _, ev = act(s, Attack(0, 0, 1), 0, [1, 1, 1, 1, 1])
    assert sum(e.kind == "defense roll" for e in ev) == 1  # the thug behind the crate is safe


def test_L523_explosive_secondary_out_of_the_attackers_sight_has_heavy_cover() -> None:
    wall = {"name": "Wall", "rect": [13, 14, 16, 16], "blocks_los": True}
    s = table(
        force(("D", [(_dogboy("2x", "Ex"), 1)])),
        force(("Thugs", [(THUG, 2)])),
        # (12, 20) would graze the wall's corner (13, 14): a line touching a piece is blocked
        # (the battlefield's sight query decides, docs/rulings.md)
        [(14.5, 5), (11.5, 20), (14.5, 20)],
        terrain=(wall,),
    )
    s = _moved(activate(s, 0))
    _, ev = act(s, Attack(0, 0, 1), 0, [1] * 9)
    defs = [e.text for e in ev if e.kind == "defense roll"]
    assert len(defs) == 2 and "heavy cover +2k2" in defs[1]


def test_L536_example_burst_fire_needs_the_attackers_sight() -> None:
    wall = {"name": "Wall", "rect": [13, 14, 16, 16], "blocks_los": True}
    s = table(
        force(("D", [(_dogboy("3x", "Bu"), 1)])),
        force(("Thugs", [(THUG, 3)])),
        [(14.5, 5), (11, 20), (9, 20), (14.5, 20)],
        terrain=(wall,),
    )
    s = _moved(activate(s, 0))
    _, ev = act(s, Attack(0, 0, 1), 0, [1] * 9)
    hit = [e.data["fig"] for e in ev if e.kind == "defense roll"]
    assert hit == [1, 2]  # the lurking thug behind the wall is not a target


def test_L507_area_effects_hit_friends_too() -> None:
    s = table(
        force(("D", [(_dogboy("2x", "Ex"), 1)]), ("Pal", [(trooper("Pal"), 1)])),
        force(("Thugs", [(THUG, 1)])),
        [(10, 5), (10, 21.5), (10, 20)],
    )
    s = _moved(activate(s, 0))
    _, ev = act(s, Attack(0, 0, 2), 0, [1] * 7)
    assert [e.data["fig"] for e in ev if e.kind == "defense roll"] == [2, 1]


def test_L547_example_linear_shot_passes_through_thugs_but_not_a_vehicle() -> None:
    spike = trooper(
        "Spike",
        type="C",
        weapons=[{"name": "Magneto-hurler", "range": '30"', "av": "3k3", "ae": "4x", "aet": "Li"}],
    )
    s = table(
        force(("S", [(spike, 1)])),
        force(("Thugs", [(THUG, 4)])),
        [(10, 5), (10, 10), (10, 15), (10, 20), (10, 25)],
    )
    s = _moved(activate(s, 0))
    _, ev = act(s, Attack(0, 0, 1), 0, [1] * 11)
    assert [e.data["fig"] for e in ev if e.kind == "defense roll"] == [1, 2, 3, 4]
    naught = trooper("Thugnaught", type="H", tweaks=["Vehicle"])
    s = table(
        force(("S", [(spike, 1)])),
        force(("N", [(naught, 1)]), ("Thugs", [(THUG, 2)])),
        [(10, 5), (10, 12), (10, 18), (10, 22)],
    )
    s = _moved(activate(s, 0))
    _, ev = act(s, Attack(0, 0, 1), 0, [1] * 5)
    assert [e.data["fig"] for e in ev if e.kind == "defense roll"] == [1]


def test_L514_close_combat_area_effect_chooses_its_targets() -> None:
    brute = trooper(
        "Brute", type="C", weapons=[{"name": "Great Axe", "av": "3k3", "ae": "3x", "aet": "CC"}]
    )
    s = table(
        force(("B", [(brute, 1)]), ("Pal", [(trooper("Pal"), 1)])),
        force(("Thugs", [(THUG, 2)])),
        [(10, 10), (11, 10), (10, 11), (9, 10)],
    )
    s = _moved(activate(s, 0))
    assert WS.check(s, Attack(0, 0, 2, secondary=(3,)), 0) is None  # not the friend
    assert WS.check(s, Attack(0, 0, 2, secondary=(3, 1)), 0) is None
    assert WS.check(s, Attack(0, 0, 2, secondary=(3, 1, 1)), 0) is not None


def test_L557_example_gang_leader_massed_attack_is_6k4() -> None:
    ganger = trooper("Street Ganger", weapons=[{"name": "Blade", "av": "2k2"}])
    boss = trooper(
        "Gang Leader", type="E", cr='6"', mn="4k3", weapons=[{"name": "Bat", "av": "3k2"}]
    )
    vertucci = trooper("Vertucci", type="C", df="5k4")
    s = table(
        force(("Gang", [(ganger, 3), (boss, 1)])),
        force(("V", [(vertucci, 1)])),
        [(9, 10), (11, 10), (10, 9), (10, 11), (10, 10)],
    )
    s = _moved(activate(s, 0))
    for g in (0, 1, 2):
        s.figs[g].reserved = 0
    _, ev = act(s, Attack(3, 0, 4, helpers=(0, 1, 2)), 0, [1] * 11)
    assert ev[0].data["pool"] == "6k4"


def test_L559_example_juve_shotguns_keep_at_most_five_and_a_club_cannot_help() -> None:
    juve = trooper("Juve", weapons=[{"name": "Shotgun", "range": '12"', "av": "3k3"}])
    boss = trooper(
        "Juve Leader", type="E", cr='6"', mn="4k3", weapons=[{"name": "Club", "av": "2k2"}]
    )
    vertucci = trooper("Vertucci", type="C", df="5k5")
    s = table(
        force(("Juves", [(juve, 4), (boss, 1)])),
        force(("V", [(vertucci, 1)])),
        [(8, 5), (9, 5), (10, 5), (11, 5), (12, 5), (10, 15)],
    )
    s = _moved(activate(s, 0))
    for g in (1, 2, 3, 4):
        s.figs[g].reserved = 0
    refusal = WS.check(s, Attack(0, 0, 5, helpers=(1, 2, 3, 4)), 0)
    assert refusal is not None and refusal.rule.endswith("L553")
    _, ev = act(s, Attack(0, 0, 5, helpers=(1, 2, 3)), 0, [1] * 11)
    assert ev[0].data["pool"] == "6k5"


def test_L563_firing_into_close_combat_hits_as_many_figures_as_kept_dice() -> None:
    sniper = trooper("Shooter", type="C", weapons=[{"name": "Rifle", "range": '24"', "av": "2k1"}])
    s = table(
        force(("S", [(sniper, 1)]), ("Pal", [(trooper("Pal"), 1)])),
        force(("Thugs", [(THUG, 1)])),
        [(10, 5), (10, 21), (10, 20)],
    )
    s = _moved(activate(s, 0))
    _, ev = act(s, Attack(0, 0, 2), 0, [1, 1, 2, 1, 1])
    assert any(e.kind == "combat fire" for e in ev)
    assert len([e for e in ev if e.kind == "defense roll"]) == 1


def test_L567_leaving_close_combat_gives_the_enemy_free_attacks() -> None:
    s = table(
        force(("A", [(trooper("Runner", type="C"), 1)])),
        force(("T", [(THUG, 1)])),
        [(10, 10), (10, 11)],
    )
    s = _moved(activate(s, 0))
    s, ev = act(s, Move(0, 10, 6), 0, [1, 1, 1])  # the knife rolls 1 against 2
    assert any(e.kind == "leave combat" for e in ev)
    assert s.figs[0].alive and (s.figs[0].x, s.figs[0].y) == (10, 6)
    assert s.figs[1].fired == []  # free attacks cost the thug nothing
    s = table(
        force(("A", [(trooper("Runner", type="C"), 1)])),
        force(("T", [(THUG, 1)])),
        [(10, 10), (10, 11)],
    )
    s = _moved(activate(s, 0))
    s, ev = act(s, Move(0, 10, 6), 0, [6, 1, 1])  # the knife 5 (uncontrolled) beats 2
    assert not s.figs[0].alive and s.phase == "over"
    slippery = trooper("Eel", type="C", tweaks=["Slippery"])
    s = table(force(("A", [(slippery, 1)])), force(("T", [(THUG, 1)])), [(10, 10), (10, 11)])
    s = _moved(activate(s, 0))
    s, ev = act(s, Move(0, 10, 6), 0)
    assert not any(e.kind == "leave combat" for e in ev)  # Slippery (L1627)
