"""Session 35's walk (s35-user): a whole WarEngine 2.1 game (StormReavers against
StormReavers) and a whole Collision battle (Deadholm scouts against Guelivere band), played as
a new player on the page and at the terminal. What read wrong, each checked here on the words
a player sees (the engine's text, kept in the record, is unchanged where only the words were):

* WarEngine: "WarpEyes activates", "Reaver Squad tests ...: routs", "Reaver Squad is
  destroyed" without the force, in a game of two forces with the same units (L364, L613,
  L623); "spends 1 Hero Points" (L493); "placed at (24.5, 36.5)", "moves to (17, 21.501)"
  (inches, a tenth, as the choices say them); a defence roll's "vs_cc +1k0" and an attack's
  "cc +1k0" (the when-codes of Dodge and Frenzied, L1353-L1681); the key's "player 1's placing
  strip" (L309) while the sides are called by their forces;
* Collision: "Command contest to activate first: 16 against 15" (whose 16? L771-773), "you
  won the Command contest" with no totals anywhere (L620-627: it is rolled in the set-up,
  before any step's events), "the board is divided rising", "deploys in the above zone"
  (L664-674), "recovers 4 Endurance (4)" (L901-906) and the result line "Deadholm scouts wins,
  11 – 0: Deadholm scouts wins on Victory Points";
* the terminal's line for a family of actions was its schema (``{"name": "move #0", "params":
  [{"type": "box", ..., "x0": 2.8979999999999997 ...``), not an action one can type.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warbench.play import AutomaticPlayer, RandomLegalPlayer, SetupArgs, get_ruleset, run_game
from warbench.play.core import Event
from warbench.web.play.collision_scene import CollisionPresenter
from warbench.web.play.warengine_scene import WarEnginePresenter

ROOT = Path(__file__).resolve().parents[3]


def _warengine_game(turns: int = 1, seed: int = 3) -> tuple[dict[str, Any], list[Event]]:
    setup = WarEnginePresenter().presets()[0]["setup"]
    assert isinstance(setup, dict)
    events: list[Event] = []
    auto = AutomaticPlayer(RandomLegalPlayer(0))
    run_game(
        get_ruleset("warengine"),
        SetupArgs(tuple(setup["rosters"]), setup["board"], {"turns": turns}),
        [auto, auto],
        seed,
        automate={"*"},
        on_step=lambda _s, evs: events.extend(evs),
    )
    return setup, events


def test_a_units_events_name_its_force_in_a_game_of_two_forces_of_one_name_L364_L621() -> None:
    setup, events = _warengine_game()
    pres = WarEnginePresenter()
    names = pres.seat_names(setup, 2)
    assert names == ["StormReavers (1)", "StormReavers (2)"]
    about_units = [e for e in events if e.kind in ("activate", "deactivate", "unit destroyed")]
    assert about_units, "a game with no activation"
    for e in about_units:
        side = e.data.get("side")
        assert side in (0, 1), e
        said = pres.event_words(e.to_json(), names)["text"]
        assert said == f"{names[side]}: {e.text}"  # "StormReavers (2): WarpEyes activates"
    # both forces activate their own WarpEyes: the two lines now differ
    warpeyes = {pres.event_words(e.to_json(), names)["text"] for e in about_units
                if e.text == "WarpEyes activates"}  # fmt: skip
    assert warpeyes == {f"{n}: WarpEyes activates" for n in names}


def test_a_rout_test_names_its_force_L613() -> None:
    _setup, events = _warengine_game(turns=2)
    tests = [e for e in events if e.kind in ("rout test", "rout")]
    assert tests, "no rout test in two turns of seed 3"
    assert all(e.data.get("side") in (0, 1) for e in tests)


def test_hero_points_and_points_on_the_table_read_as_a_player_says_them_L491() -> None:
    pres = WarEnginePresenter()
    names = ["StormReavers (1)", "StormReavers (2)"]

    def said(text: str) -> str:
        return str(pres.event_words({"kind": "x", "text": text}, names)["text"])

    assert said("player 0 spends 1 Hero Points") == "StormReavers (1) spends 1 Hero Point"
    assert said("player 1 spends 0 Hero Points") == "StormReavers (2) spends no Hero Points"
    assert said("player 1 spends 10 Hero Points") == "StormReavers (2) spends 10 Hero Points"
    assert said("Reaver #13 placed at (24.5, 36.5)") == 'Reaver #13 placed at (24.5", 36.5")'
    assert said("WarpEyes #12 moves to (17, 21.501)") == 'WarpEyes #12 moves to (17", 21.5")'
    # a roll's dice and its adjustments are not points
    roll = "Reaver #13 attacks with Rifle 3k2 (Rifle 2k2, Did Not Move +1k0): rolls [4, 2, 5] = 9"
    assert said(roll) == roll


def test_the_key_names_each_placing_strip_by_its_force_L309() -> None:
    setup, _ = _warengine_game(turns=1)
    pres = WarEnginePresenter()
    from warbench.rulesets.warengine.game.protocol import WarEngineRuleset

    rs = get_ruleset("warengine")
    assert isinstance(rs, WarEngineRuleset)
    state = rs.setup(setup["rosters"], setup["board"], {"turns": 1}, 3)
    scene = pres.scene(setup, rs.views.dump(rs.view(state, 0))) or {}
    strips = [a["name"] for a in scene["areas"] if a["kind"] == "zone"]
    assert sorted(strips) == sorted(
        f"StormReavers ({k})'s placing strip (12\" from the edge, L309)" for k in (1, 2)
    )


# ------------------------------------------------------------------------------ Collision


def _collision_setup() -> dict[str, Any]:
    setup = CollisionPresenter().presets()[1]["setup"]
    assert isinstance(setup, dict)
    return setup


def test_a_command_contest_says_whose_total_is_whose_L771_773() -> None:
    setup = _collision_setup()
    events: list[Event] = []
    auto = AutomaticPlayer(RandomLegalPlayer(0))
    run_game(
        get_ruleset("collision"),
        SetupArgs(tuple(setup["rosters"]), None, {"turn_limit": 1}),
        [auto, auto],
        3,
        automate={"*"},
        on_step=lambda _s, evs: events.extend(evs),
    )
    pres = CollisionPresenter()
    names = pres.seat_names(setup, 2)
    assert names == ["Deadholm scouts", "Guelivere band"]
    contest = next(e for e in events if e.text.startswith("Command contest to activate first"))
    a, b = contest.data["totals"]
    said = pres.event_words(contest.to_json(), names)["text"]
    winner = names[0] if a > b else names[1]
    assert said == (
        f"Command contest to activate first: Deadholm scouts {a}, Guelivere band {b}: {winner} wins"
    )
    # a contest of two characters (a reaction's) is left as the engine says it
    duel = {"kind": "contest", "text": "Counter Attack: Command contest: 13 against 11",
            "data": {"totals": [13, 11]}}  # fmt: skip
    assert pres.event_words(duel, names)["text"] == duel["text"]


def test_the_deployment_and_recovery_lines_say_what_they_mean_L664_674_L901_906() -> None:
    pres = CollisionPresenter()
    names = ["Deadholm scouts", "Guelivere band"]

    def said(text: str) -> str:
        return str(pres.event_words({"kind": "x", "text": text}, names)["text"])

    assert said("the board is divided rising") == (
        "the board is divided along the rising diagonal (bottom-left to top-right)"
    )
    assert said("Guelivere band deploys in the above zone") == (
        "Guelivere band deploys in the zone above the diagonal"
    )
    assert said("Virgil recovers 4 Endurance (4)") == "Virgil recovers 4 Endurance (now 4)"


def test_the_result_line_says_the_winner_once_L1108_1114() -> None:
    pres = CollisionPresenter()
    out = pres.result_words(
        {"winner": 0, "scores": [11, 0], "reason": "Deadholm scouts wins on Victory Points"},
        ["Deadholm scouts", "Guelivere band"],
    )
    assert "Deadholm scouts" not in str(out["reason"])
    assert out["reason"] == "Victory Points at the end of the turn limit (Collision L1108-1114)"


def test_the_attacker_or_defender_question_gives_the_contest_totals_L620_627() -> None:
    setup = _collision_setup()
    rs = get_ruleset("collision")
    for seed in range(6):
        state = rs.setup(setup["rosters"], None, {}, seed)
        (decision,) = rs.pending(state)
        if decision.kind != "role":
            continue
        # a tie is rolled again (ruling 19): the last contest decides
        line = [x for x in state.log if x.startswith("Command contest for sides: ")][-1]
        a, b = (int(n) for n in line.split(": ")[1].split(" against "))
        mine, theirs = (a, b) if decision.player == 0 else (b, a)
        assert mine > theirs
        assert decision.prompt == (
            f"you won the Command contest, {mine} against {theirs}: "
            "be the Attacker or the Defender?"
        )


# ------------------------------------------------------------------------------ terminal


def test_the_terminal_offers_a_family_as_an_action_one_can_type() -> None:
    """At the prompt, the family line gives the ranges in words and an action of the family
    as JSON (not the family's schema, nor every square of the board)."""
    from warbench.play.players import PromptPlayer

    setup = _collision_setup()
    rs = get_ruleset("collision")
    lines: list[str] = []
    person = PromptPlayer(rs.actions, read=lambda _p: "", write=lines.append)
    auto = AutomaticPlayer(RandomLegalPlayer(0))
    run_game(
        rs,
        SetupArgs(tuple(setup["rosters"]), None, {"turn_limit": 1}),
        [person, auto],
        3,
        max_steps=40,
    )
    family_lines = [x.strip() for x in lines if x.strip().startswith("or ")]
    assert family_lines, lines
    for x in family_lines:
        assert x.startswith("or any "), x  # not "or an action as JSON: {schema}"
        assert '"params"' not in x and len(x) < 400
        assert " as JSON, e.g. {" in x


def test_the_key_names_whose_deployment_zone_is_whose_L626_628() -> None:
    """Once the zones are taken the key says whose each is ("above deployment zone of
    Guelivere band"), not only "Above deployment zone"."""
    setup = _collision_setup()
    rs = get_ruleset("collision")
    state = rs.setup(setup["rosters"], None, {}, 3)
    auto = AutomaticPlayer(RandomLegalPlayer(0))
    pres = CollisionPresenter()
    for _ in range(12):  # the role, the zones: then the hands
        (decision,) = rs.pending(state)
        if decision.kind in ("piles", "deploy"):
            break
        action = auto.choose(
            rs.view(state, decision.player),
            rs.legal_actions(state, decision.player),
            decision,
            None,  # type: ignore[arg-type]
        )
        state, _ = rs.apply(state, action, decision.player)
    view = rs.views.dump(rs.view(state, 0))
    scene = pres.scene(setup, view) or {}
    zones = {str(a["name"]).split(") ", 1)[1] for a in scene["areas"] if a["kind"] == "zone"}
    assert len(zones) == 2
    assert {z.rsplit(" of ", 1)[1] for z in zones} == {"Deadholm scouts", "Guelivere band"}


def test_two_weapons_of_one_name_are_told_apart_in_the_choices_L953() -> None:
    """WarpEyes carries two DemonBlades (L953): its choices read "reserves its DemonBlade"
    twice; now "(1 of 2)" and "(2 of 2)"."""
    setup, _ = _warengine_game(turns=1)
    rs = get_ruleset("warengine")
    state = rs.setup(setup["rosters"], setup["board"], {"turns": 1}, 3)
    view = rs.views.dump(rs.view(state, 0))
    warpeyes = next(f["id"] for f in view["figures"] if f["name"] == "WarpEyes" and f["side"] == 0)
    actions = [{"kind": "reserve", "fig": warpeyes, "weapon": w, "every": False} for w in (0, 1)]
    labels = WarEnginePresenter().labels(setup, view, actions)
    assert labels == [
        f"WarpEyes #{warpeyes} reserves its DemonBlade (1 of 2)",
        f"WarpEyes #{warpeyes} reserves its DemonBlade (2 of 2)",
    ]
