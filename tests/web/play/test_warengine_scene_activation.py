"""The WarEngine page names a unit to activate by one of its figures (issue 16, session 26
review): the chips of an activation decision are keyed by the figure the scene gives as the
action's actor, whose label is ``<name> #<figure id>``. A unit's id is not a figure's id once a
unit has more than one figure, so an activation keyed by its unit id named another figure
("Imp #3" for the Hulk's unit 3)."""

from __future__ import annotations

from tests.rulesets.warengine.game.helpers import WS, ctx_of, force, table, trooper
from warbench.web.play.warengine_scene import WarEnginePresenter


def _hulk() -> dict[str, object]:
    return trooper("Hulk", type="L", mv='0"', tweaks=["Vehicle", "Monstrously Huge"])


def test_an_activation_names_its_unit_by_its_own_figure_L366() -> None:
    # units 0 (two Crew: figures 0, 1), 1 (the Hulk: figure 2), 2 (a Raider: figure 3)
    s = table(
        force(("Crew", [(trooper("Crew"), 2)]), ("Hulk", [(_hulk(), 1)])),
        force(("Raiders", [(trooper("Raider"), 1)])),
        [(10, 5), (12, 5), (20, 5), (20, 40)],
    )
    view = WS.views.dump(WS.view(s, 0))
    setup = ctx_of(s).args
    presenter = WarEnginePresenter()
    scene = presenter.scene(setup, view) or {}
    labels = scene["labels"]
    actions = [{"kind": "activate", "unit": u, "join": None} for u in (0, 1)]
    spots = presenter.spots(setup, view, actions)
    named = [labels[str(sp["actor"])] for sp in spots if sp is not None]
    assert named[1] == "Hulk #2"  # unit 1 is the Hulk's, not figure 1 (a Crew)
    assert named[0].startswith("Crew #")
    assert all(sp is not None and sp["mark"] == "select" for sp in spots)


def test_a_power_that_names_a_point_is_shown_at_that_point_L1325() -> None:
    """Wall of Fire's places (``Attack.at``) are highlights at the wall's centre, each its own,
    not all on the Mage it targets."""
    mage = trooper(
        "Mage",
        weapons=[{"name": "Wall of Fire", "range": '12"', "av": "4k4", "power": "Wall of Fire"}],
    )
    s = table(force(("A", [(mage, 1)])), force(("B", [(trooper("Foe"), 1)])), [(10, 5), (10, 30)])
    view = WS.views.dump(WS.view(s, 0))
    at = [{"kind": "attack", "fig": 0, "weapon": 0, "target": 0, "at": [10.0, 12.5 + k]}
          for k in range(3)]  # fmt: skip
    plain = {"kind": "attack", "fig": 0, "weapon": 0, "target": 1}
    spots = WarEnginePresenter().spots(ctx_of(s).args, view, [*at, plain])
    assert [(sp["x"], sp["y"]) for sp in spots[:3] if sp] == [
        (10.0, 12.5),
        (10.0, 13.5),
        (10.0, 14.5),
    ]
    assert spots[3] is not None and (spots[3]["x"], spots[3]["y"]) == (10.0, 30.0)
    assert all(sp is not None and sp["actor"] == 0 for sp in spots)


def test_listed_actions_are_worded_with_names_not_numbers_L1401_L1279() -> None:
    """A push names the pusher, the vehicle and the figure it heads for; Summoning names the
    Summoned figure it brings (``via``); a wall its place (``at``)."""
    conj = trooper(
        "Conjurer",
        weapons=[{"name": "Summoning", "range": '12"', "av": "4k4", "power": "Summoning"}],
    )
    s = table(
        force(("Hulk", [(_hulk(), 1)]), ("Crew", [(trooper("Crew"), 1)]), ("C", [(conj, 1)])),
        force(("Raiders", [(trooper("Raider"), 1)])),
        [(20, 10), (20, 8.5), (10, 5), (20, 40)],
    )
    view = WS.views.dump(WS.view(s, 0))
    acts = [
        {"kind": "push", "fig": 1, "vehicle": 0, "x": 20.0, "y": 40.0},
        {"kind": "push", "fig": 1, "vehicle": 0, "x": 20.0, "y": 22.0},
        {"kind": "attack", "fig": 2, "weapon": 0, "target": 2, "via": 3, "at": [11.0, 6.0],
         "helpers": [], "secondary": []},
        {"kind": "activate", "unit": 1, "join": None},
        {"kind": "deactivate"},
        {"kind": "first", "player": 0},
        {"kind": "attack", "fig": 2, "weapon": 0, "target": 2, "via": None, "at": None,
         "helpers": [], "secondary": []},
        {"kind": "attack", "fig": 3, "weapon": 0, "target": 0, "via": None, "at": None,
         "helpers": [], "secondary": []},
        {"kind": "deactivate"},
        {"kind": "first", "player": 0},
    ]  # fmt: skip
    words = WarEnginePresenter().labels(ctx_of(s).args, view, acts)
    assert words[0] == "Crew #1 gives its movement left to push Hulk #0 toward Raider #3"
    assert words[1] == 'Crew #1 gives its movement left to push Hulk #0 toward (20", 22")'
    assert words[2] == 'Conjurer #2: Summoning, choosing Raider #3, placed at (11", 6")'
    assert words[3] == "Activate Crew #1"
    assert words[4] is not None and words[4].startswith("Deactivate")
    # who activates first (L362) by the force's name, not "first: player 0" (session 33)
    first = WarEnginePresenter().seat_names(ctx_of(s).args, 2)[0]
    assert words[5] == f"{first} activates first"
    # Summoning with no figure named: the words say the engine picks it (L1279); a weapon
    # attack has no such note
    assert words[6] == (
        "Conjurer #2: Summoning, the engine choosing which Summoned figure"
        " (the most expensive waiting)"
    )
    assert words[7] is not None and "engine" not in words[7]
