"""Weapons, tweaks and form as game state (game/kit.py): Scrounger L1609, Transferable L1845,
Shapechanger L1613, Drain Power L1067 and Restore L1193, each played in a game."""

from __future__ import annotations

from typing import Any

from warbench.rulesets.warengine.game import kit
from warbench.rulesets.warengine.game import setup as stp
from warbench.rulesets.warengine.game.attacks import defense_pool
from warbench.rulesets.warengine.game.state import (
    Activate,
    Attack,
    Deactivate,
    GameState,
    Move,
    Place,
    Roll,
    Shape,
    Transfer,
)

from .helpers import WS, act, activate, board, force, table, trooper


def C(name: str = "Hero", **kw: Any) -> dict[str, Any]:
    return trooper(name, type="C", **kw)


def names(s: GameState, fid: int) -> list[str]:
    return [w.name for w in kit.context_of(s).profiles[fid].weapons]


def refusal(s: GameState, action: Any, player: int) -> str:
    bad = WS.check(s, action, player)
    return "" if bad is None else str(bad)


# ----------------------------------------------------------------------------- Scrounger


AXE = {"name": "Axe", "av": "3k3"}


def _duel(tweaks: list[str]) -> GameState:
    foe = C("Foe", weapons=[AXE, {"name": "Club", "av": "1k1"}])
    s = table(
        force(("A", [(C("A", tweaks=tweaks), 1)])),
        force(("D", [(foe, 1)])),
        [(10, 10), (10, 11)],
    )
    return activate(s, 0)


def test_scrounger_L1607_takes_the_killed_figures_weapon() -> None:
    s, ev = act(_duel(["Scrounger"]), Attack(0, 1, 1), 0, [6, 1, 1])
    assert not s.figs[1].alive
    assert names(s, 0) == ["Rifle", "Axe"]  # the Axe for its Knife (the cheapest)
    assert s.figs[0].fired == [1]  # the slot stays used this activation (L399)
    assert any(e.kind == "scrounge" for e in ev)
    assert "kit" in WS.states.dump(s)
    # the state's JSON round trip keeps the kit and the digest
    back = WS.states.load(WS.states.dump(s))
    assert WS.digest(back) == WS.digest(s) and names(back, 0) == ["Rifle", "Axe"]
    # the player's choice: the Axe for the Rifle, or keep its own weapons
    s2, _ = act(_duel(["Scrounger"]), Attack(0, 1, 1, take=(0, 0)), 0, [6, 1, 1])
    assert names(s2, 0) == ["Axe", "Knife"]
    s3, _ = act(_duel(["Scrounger"]), Attack(0, 1, 1, take=(-1, -1)), 0, [6, 1, 1])
    assert names(s3, 0) == ["Rifle", "Knife"] and not s3.kit
    listed = WS.legal_actions(_duel(["Scrounger"]), 0).finite_actions
    assert Attack(0, 1, 1, take=(-1, -1)) in listed and Attack(0, 1, 1, take=(1, 0)) in listed


def test_scrounger_L1607_absent_without_the_tweak_or_a_close_combat_kill() -> None:
    s, _ = act(_duel([]), Attack(0, 1, 1), 0, [6, 1, 1])
    assert not s.figs[1].alive and names(s, 0) == ["Rifle", "Knife"] and not s.kit
    assert "kit" not in WS.states.dump(s)
    assert "Scrounger" in refusal(_duel([]), Attack(0, 1, 1, take=(1, 1)), 0)
    s, _ = act(_duel(["Scrounger"]), Attack(0, 1, 1), 0, [1, 6, 6])  # no kill
    assert s.figs[1].alive and names(s, 0) == ["Rifle", "Knife"]


# --------------------------------------------------------------------------- Transferable


def _squad(gap: float) -> GameState:
    plasma = {"name": "Plasma", "range": '24"', "av": "3k3", "tweaks": ["Transferable"]}
    carrier = trooper("Carrier", weapons=[{"name": "Knife", "av": "1k1"}, plasma])
    mate = trooper("Mate")
    s = table(
        force(("A", [(C("Gunner"), 1)])),
        force(("D", [(carrier, 1), (mate, 1)])),
        [(10, 5), (10, 15), (10 + 1 + gap, 15)],
    )
    return activate(s, 0)


def test_transferable_L1845_passes_to_the_nearest_unit_mate() -> None:
    s, _ = act(_squad(2.0), Attack(0, 0, 1), 0, [6, 6, 6, 1, 1, 1])
    assert not s.figs[1].alive
    # its owner decides ("may be passed"); the engine passes it (dearer than the Rifle)
    (d,) = WS.pending(s)
    assert d.kind == "transfer" and d.player == 1 and d.default == Transfer(1, True)
    assert set(WS.legal_actions(s, 1).finite_actions) == {Transfer(1, True), Transfer(1, False)}
    kept, _ = WS.apply(s, Transfer(1, False), 1)
    assert names(kept, 2) == ["Rifle", "Knife"] and WS.pending(kept)[0].kind == "action"
    s, ev = WS.apply(s, d.default, 1)
    assert any(e.kind == "transfer" for e in ev)
    # the Rifle (its dearest) is given up; the Plasma waits for the next activation
    assert names(s, 2) == ["Knife"]
    s, _ = act(s, Deactivate(), 0)
    s, _ = act(s, Activate(1), 1)
    assert names(s, 2) == ["Plasma", "Knife"]


def test_transferable_L1845_not_beyond_3_inches() -> None:
    s, _ = act(_squad(4.0), Attack(0, 0, 1), 0, [6, 6, 6, 1, 1, 1])
    assert not s.figs[1].alive and WS.pending(s)[0].kind == "action"
    assert names(s, 2) == ["Rifle", "Knife"] and not s.kit


# ------------------------------------------------------------------ Drain Power and Restore


def _mystic(power: str) -> dict[str, Any]:
    return C(
        "Mystic",
        mn="4k3",
        weapons=[
            {"name": power, "range": '24"', "av": "4k4", "power": power},
            {"name": "Rifle", "range": '24"', "av": "2k2"},
        ],
    )


def _drained(lose: str | None = None) -> GameState:
    foe = trooper("Foe", type="C", mn="2k2", tweaks=["Tough"], hero_points=2)
    s = table(
        force(("A", [(_mystic("Drain Power"), 1)])),
        force(("D", [(foe, 1)]), ("R", [(_mystic("Restore"), 1)])),
        [(10, 5), (10, 20), (14, 22)],
    )
    s = activate(s, 0)
    s, _ = act(s, Attack(0, 0, 1, lose=lose), 0, [6, 6, 6, 6, 1, 1])
    return s


def _tough(s: GameState) -> bool:
    ctx = kit.context_of(s)
    _, _, why = defense_pool(s, ctx, s.figs[0], ctx.profiles[0].weapons[1], s.figs[1])
    return any("+1k0" in w and "Tough" in w for w in why)


def test_drain_power_L1067_takes_an_edge_and_restore_L1193_gives_it_back() -> None:
    plain = table(
        force(("A", [(_mystic("Drain Power"), 1)])),
        force(("D", [(trooper("Foe", type="C", tweaks=["Tough"]), 1)])),
        [(10, 5), (10, 20)],
    )
    assert _tough(plain)
    s = _drained()
    assert s.kit[1].lost == ["Tough"] and not _tough(s)
    # Restore (a friendly power: 10 or more), then 2D6 Hero Points
    s, _ = act(s, Deactivate(), 0)
    s, _ = act(s, Activate(2), 1)
    s, ev = act(s, Attack(2, 0, 1), 1, [6, 6, 1, 1, 1, 1])
    assert any(e.kind == "restore" for e in ev)
    assert not s.kit and _tough(s)


def test_drain_power_L1067_the_users_choice_and_its_absence() -> None:
    s = _drained("Tough")
    assert s.kit[1].lost == ["Tough"]
    foe = trooper("Foe", type="C", mn="2k2", tweaks=["Tough"])
    s = table(
        force(("A", [(_mystic("Drain Power"), 1)])), force(("D", [(foe, 1)])), [(10, 5), (10, 20)]
    )
    s = activate(s, 0)
    assert "lose" in refusal(s, Attack(0, 0, 1, lose="Flight"), 0)
    assert Attack(0, 0, 1, lose="Tough") in WS.legal_actions(s, 0).finite_actions
    s, _ = act(s, Attack(0, 0, 1), 0, [1, 1, 1, 1, 6, 6])  # resisted: nothing lost
    assert not s.kit and _tough(s)


# --------------------------------------------------------------------------- Shapechanger


def _wolfman(shape: bool = True) -> dict[str, Any]:
    wolf = {
        "name": "Wolf",
        "type": "L",
        "mv": '9"',
        "df": "3k3",
        "mn": "2k2",
        "tweaks": ["Shapechanger"],
        "weapons": [{"name": "Claws", "av": "3k3"}],
    }
    tweaks = ["Shapechanger"] if shape else []
    return C("Wolfman", tweaks=tweaks, forms=[wolf] if shape else [])


def _to_follow_up(s: GameState) -> GameState:
    s = activate(s, 0)
    s, _ = act(s, Deactivate(), 0)
    s, _ = act(s, Activate(1), 1)
    s, _ = act(s, Deactivate(), 1)
    return s


def test_shapechanger_L1613_changes_form_in_the_follow_up_step() -> None:
    s = table(force(("A", [(_wolfman(), 1)])), force(("D", [(C("Foe"), 1)])), [(10, 5), (10, 40)])
    s = _to_follow_up(s)
    (d,) = WS.pending(s)
    assert d.kind == "shape" and d.player == 0 and d.default == Shape(0, 0)
    assert set(WS.legal_actions(s, 0).finite_actions) == {Shape(0, 0), Shape(0, 1)}
    s2, ev = WS.apply(s, Shape(0, 1), 0)
    p = kit.context_of(s2).profiles[0]
    assert (p.type, p.mv, [w.name for w in p.weapons]) == ("L", 9, ["Claws"])
    assert s2.turn == 2 and any(e.kind == "shape" for e in ev)
    assert 0 in kit.context_of(s2).big  # a light monster blocks sight
    s3, _ = WS.apply(s, Shape(0, 0), 0)  # the default: it stays
    assert kit.context_of(s3).profiles[0].type == "C" and s3.turn == 2


def test_shapechanger_L1613_absent_without_the_tweak() -> None:
    s = table(
        force(("A", [(_wolfman(False), 1)])), force(("D", [(C("Foe"), 1)])), [(10, 5), (10, 40)]
    )
    s = _to_follow_up(s)
    assert s.turn == 2 and WS.pending(s)[0].kind != "shape"
    assert kit.context_of(s) is stp.context(s.setup_key)


def test_shapechanger_L1613_deployed_in_either_form() -> None:
    foe = C("Foe", mv='3"')
    s = WS.setup(
        (force(("A", [(_wolfman(), 1)])), force(("D", [(foe, 1)]))),
        board(),
        {"builder_limits": False},
        0,
    )
    (d,) = WS.pending(s)
    assert d.kind == "place" and d.player == 1
    s, _ = WS.apply(s, d.default, 1)
    (d,) = WS.pending(s)
    if d.kind == "roll":  # pragma: no cover - different Movements: no roll-off
        s, _ = WS.apply(s, Roll(0), d.player)
        (d,) = WS.pending(s)
    assert d.kind == "place" and d.player == 0
    assert "form" in refusal(s, Place(0, 10, 5, form=2), 0)
    s, _ = WS.apply(s, Place(0, 10, 5, form=1), 0)
    assert kit.form_of(s, 0) == 1 and kit.context_of(s).profiles[0].name == "Wolf"


def test_games_without_these_keep_their_digests() -> None:
    from .helpers import sample_forces

    s = WS.setup(sample_forces(), "ruins_48x48", {"turns": 1}, 3)
    assert kit.context_of(s) is stp.context(s.setup_key)
    assert "kit" not in WS.states.dump(s)


# ------------------------------------------------------------------ Restore Vehicle Spirit


def _wrecked(power: bool = True) -> GameState:
    rvs = {"name": "Revive", "av": "4k4", "power": "Restore Vehicle Spirit"}
    weapons = [rvs, {"name": "Knife", "av": "1k1"}] if power else [{"name": "Knife", "av": "1k1"}]
    mechanic = C("Mechanic", mn="4k3", cr='6"', weapons=weapons)
    walker = trooper(
        "Walker",
        type="L",
        mv='9"',
        df="2k2",
        tweaks=["Vehicle"],
        weapons=[{"name": "Cannon", "range": '24"', "av": "3k3"}],
    )
    s = table(
        force(("A", [(C("Gunner"), 1)]), ("M", [(mechanic, 1)])),
        force(("V", [(walker, 1)]), ("F", [(C("Foe"), 1)])),
        [(10, 5), (14, 16), (14, 20), (30, 30)],
    )
    s = activate(s, 0)
    s, ev = act(s, Attack(0, 0, 2), 0, [6, 6, 6, 1, 1, 1])
    assert not s.figs[2].alive
    assert any(e.kind == "disabled" for e in ev) == power
    return s


def test_restore_vehicle_spirit_L1199_the_user_and_the_vehicle_become_one() -> None:
    s = _wrecked()
    assert kit.wrecks(s) == [2]
    s = activate(s, 1)
    far = Attack(1, 0, 2)
    assert "base-to-base" in refusal(s, far, 0)
    s, _ = act(s, Move(1, 14, 18.5), 0)
    assert far in WS.legal_actions(s, 0).finite_actions
    s, ev = act(s, far, 0, [6, 6, 1, 1, 5])
    assert any(e.kind == "revive" for e in ev)
    ctx = kit.context_of(s)
    p = ctx.profiles[1]
    assert (p.type, p.mv, str(p.df), str(p.mn), p.cr) == ("L", 9, "2k2", "4k3", 6.0)
    assert [w.name for w in p.weapons] == ["Revive", "Knife", "Cannon"]
    assert (s.figs[1].x, s.figs[1].y) == (14, 20) and not s.figs[2].placed and 1 in ctx.big
    assert not kit.wrecks(s)
    # its own attacks or the vehicle's in a turn, not both (L1201)
    s, _ = act(s, Attack(1, 2, 3), 0, [1, 1, 1, 6, 6, 6])
    f = s.figs[1]
    assert kit.set_refusal(s, ctx, f, 1) is not None and kit.set_refusal(s, ctx, f, 2) is None


def test_restore_vehicle_spirit_L1199_unusable_or_absent() -> None:
    s = _wrecked()
    s = activate(s, 1)
    s, _ = act(s, Move(1, 14, 18.5), 0)
    s, ev = act(s, Attack(1, 0, 2), 0, [6, 6, 1, 1, 1])  # a light vehicle needs 2
    assert any(e.kind == "wreck" for e in ev) and not kit.wrecks(s) and not s.kit
    s = _wrecked(power=False)
    assert not kit.wrecks(s) and not s.kit


def test_conformance_with_kits_in_play() -> None:
    """Random legal play of the Coven (a Shapechanger with Drain Power, Restore and Restore
    Vehicle Spirit, a vehicle, a Scrounger, a Transferable gun): the protocol's contract
    (purity, JSON round trips of states with kits, replay) and the invariants hold."""
    from warbench.play import SetupArgs
    from warbench.play.conformance import check_conformance
    from warbench.rulesets.warengine.io import load_force, to_data

    from .helpers import DATA, sample_forces
    from .test_we_game_protocol import invariants

    coven = to_data(load_force(DATA / "coven.yaml"))
    setup = SetupArgs(
        (coven, sample_forces()[0]), "ruins_48x48", {"turns": 3, "builder_limits": False}
    )
    report = check_conformance(WS, setup, seeds=range(1), invariants=invariants)
    assert report.finished == 1 and "shape" in report.decisions


def test_the_view_carries_the_kits_and_the_determinizer_puts_them_back() -> None:
    from warbench.play import SetupArgs
    from warbench.rulesets.warengine.determinize import known_state

    s, _ = act(_duel(["Scrounger"]), Attack(0, 1, 1), 0, [6, 1, 1])
    view = WS.view(s, 1)
    assert "kit" in view and "kit" not in WS.view(_duel(["Scrounger"]), 1)
    args = stp.context(s.setup_key).args
    knowledge = SetupArgs(tuple(args["rosters"]), args["board"], args["options"])
    back = known_state(WS.views.load(WS.views.dump(view)), knowledge, 0)
    assert back.kit == s.kit and names(back, 0) == ["Rifle", "Axe"]


def test_the_web_scene_draws_a_figure_in_its_form() -> None:
    from warbench.web.play.warengine_scene import WarEnginePresenter

    s = table(force(("A", [(_wolfman(), 1)])), force(("D", [(C("Foe"), 1)])), [(10, 5), (10, 40)])
    s = _to_follow_up(s)
    wolf, _ = WS.apply(s, Shape(0, 1), 0)
    setup = stp.context(s.setup_key).args

    def radius(state: GameState) -> object:
        view = WS.views.dump(WS.view(state, 0))
        scene = WarEnginePresenter().scene(setup, view)
        assert scene is not None
        pieces = scene["pieces"]
        assert isinstance(pieces, list)
        return next(p["r"] for p in pieces if isinstance(p, dict) and p["unit"] == 0)

    assert radius(s) == 0.5 and radius(wolf) == 1.0
