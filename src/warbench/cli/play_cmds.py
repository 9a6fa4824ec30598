"""``warbench play``: a person plays WARSURGE against the scripted AI at the terminal, through
the game protocol (``warbench.play``; docs/protocol.md)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import typer

from warbench.cli.app import app, console, fail
from warbench.kernel.errors import WarbenchError


@app.command()
def play(
    rosters: list[Path] = typer.Argument(..., help="Two game roster files: yours, then the AI's."),
    board: str | None = typer.Option(
        None, "--board", "-b", help="Board file or sample board name (default ruins_48x48)."
    ),
    seed: int | None = typer.Option(
        None, "--seed", "-s", min=0, help="Seed, a whole number from 0 (recorded; random if unset)."
    ),
    side: int = typer.Option(0, "--side", help="Which roster you play: 0 (first) or 1."),
    turns: int | None = typer.Option(
        None,
        "--turns",
        help="Agreed Game Length, 4 Game Turns or more (§2.1); default: a random end from "
        "Game Turn 4.",
    ),
    record: Path | None = typer.Option(
        None, "--record", help="Write the protocol record (JSON lines)."
    ),
    ruleset: str = typer.Option(
        "warsurge",
        "--ruleset",
        help="warsurge (game rosters), warengine (force files) or collision (battle groups).",
    ),
    ai: str = typer.Option(
        "scripted",
        "--ai",
        help="Your opponent: scripted, random, tactical, search or search:1..4 (WARSURGE; "
        "The WarEngine and Collision: scripted).",
    ),
    playstyle: str = typer.Option(
        "standard",
        "--playstyle",
        help="WARSURGE: standard, or advanced (Command Points, Action Steps and Counter "
        "Actions, §9).",
    ),
    no_confirm: bool = typer.Option(
        False,
        "--no-confirm",
        help="WARSURGE: make a Move, Dash, Deploy or Disembark typed as JSON at once, without "
        "showing where the models would end and asking to confirm (for scripts).",
    ),
    choose_casualties: bool = typer.Option(
        False,
        "--choose-casualties",
        help="WARSURGE: choose which of your models are the casualties of each Attack "
        "(§5.11; each choice says which models it removes); default: the engine's choice.",
    ),
) -> None:
    """Play a Standard game (`--playstyle advanced`: the Advanced game of §9, your Counter
    Actions asked too) against the scripted AI: each decision is asked at the prompt
    (a number, nothing for the AI's suggestion, or an action as JSON); the board is drawn as
    text before each of your questions and at the end. When the input ends, the scripted AI
    plays on for you. A Move (Dash, Deploy, Disembark) typed as JSON is previewed first: where
    the engine would put each model, the unit's centre before and after, and the board with
    its new places; Enter or `y` makes it, `n` asks again (`--no-confirm`: made at once)."""
    if ruleset in ("warengine", "collision") and ai != "scripted":
        # the terminal games of these two seat the scripted player opposite you
        raise fail(
            f"--ai {ai}: a {ruleset} game at the terminal has the scripted AI; allowed: scripted"
        )
    if playstyle not in ("standard", "advanced"):
        raise fail(f"--playstyle {playstyle}: allowed: standard, advanced")
    if ruleset != "warsurge" and choose_casualties:
        raise fail(
            f"--choose-casualties: a {ruleset} game has no casualty choice; allowed: warsurge"
        )
    if ruleset != "warsurge" and playstyle != "standard":
        raise fail(f"--playstyle {playstyle}: a {ruleset} game has no playstyle; allowed: standard")
    if ruleset == "warengine":
        from warbench.cli.play_warengine import play_warengine

        return play_warengine(rosters, board, seed, side, turns, record)
    import secrets

    if ruleset == "collision":
        from warbench.cli.play_collision import play_collision

        try:
            play_collision(rosters, seed, side, False, None, None, turns, record, None, False)
        except WarbenchError as exc:
            raise fail(str(exc)) from exc
        return
    if ruleset != "warsurge":
        raise fail(f"--ruleset {ruleset}: allowed: warsurge, warengine, collision")
    from warbench.play import AutomaticPlayer, RandomLegalPlayer, SetupArgs
    from warbench.play.runner import run_game
    from warbench.play.terminal import board_cell, choices_fit, columns, prompt_seat
    from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
    from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset, WarsurgeState
    from warbench.rulesets.warsurge.game.render import render_state_text, summary

    if len(rosters) != 2:
        raise fail(f"play needs exactly two rosters (yours, then the AI's), not {len(rosters)}")
    if side not in (0, 1):
        raise fail(f"--side {side}: allowed: 0, 1")
    ws = WarsurgeRuleset()
    # the rules' compiled kernels (numba) load in the background while you read the first
    # question, not in the first Move or Attack (issue 10, session 38)
    warm_in_background()
    auto: AutomaticPlayer[Any] = AutomaticPlayer(RandomLegalPlayer(0))

    def write(line: str) -> None:
        from warbench.play.terminal import book_names

        # no emoji codes: a board row's ":A:" is unit A on a Deployment Zone, not "🅰"; rules
        # cited by book ("[Core Rules §3.6]"), not by source file name (session 32)
        console.print(book_names(line), highlight=False, markup=False, emoji=False)

    players: list[Any] = [auto, auto]

    #: the battlefield's Deployment Zones by name, from the first step on (the view numbers
    #: them only; the Turn Master's choice is always a step before the first zone question)
    zones: list[str] = []
    #: the game now (set after each step): a casualty choice asks it which models it removes
    now: list[WarsurgeState] = []

    def describe(view: Any, action: Any) -> str | None:
        """The choice in words (units by name, Counter Actions in full, §9.3; a Deployment
        Zone by its name, §3.6; a casualty choice by the models it removes, §5.11)."""
        from warbench.rulesets.warsurge.game.words import casualty_outcome
        from warbench.rulesets.warsurge.game.words import describe as say

        data = ws.actions.dump(action)
        if isinstance(data, dict) and data.get("kind") == "zone":
            z = data.get("zone")
            return f"Deployment Zone {zones[z]}" if isinstance(z, int) and z < len(zones) else None
        lost = None
        if isinstance(data, dict) and data.get("kind") == "casualties" and now:
            lost = casualty_outcome(now[0].game, [int(m) for m in data.get("models") or []])
        return say(ws.views.dump(view), data, lost)

    def distinct(view: Any, listed: list[Any]) -> list[Any]:
        """Each casualty choice that removes other models than one before it, once (§5.11;
        session 39: the engine's order and its reverse may remove the same models)."""
        from warbench.rulesets.warsurge.game.actions import Casualties
        from warbench.rulesets.warsurge.game.words import distinct_casualties

        orders = [a for a in listed if isinstance(a, Casualties)]
        if len(orders) < 2 or not now or now[0].game.pause is None:
            return listed
        kept = [orders[k] for k in distinct_casualties(now[0].game, [a.models for a in orders])]
        return [a for a in listed if not isinstance(a, Casualties) or a in kept]

    def typed(view: Any, decision: Any, line: str) -> Any:
        """A casualty order of your own, "models 3 5 1" (models from 1, §5.11)."""
        from warbench.rulesets.warsurge.game.actions import Casualties
        from warbench.rulesets.warsurge.game.words import typed_casualties

        p = now[0].game.pause if now and decision.kind == "casualties" else None
        if p is None:
            return None
        models = typed_casualties(line, p.candidates)
        return None if models is None else Casualties(p.target, tuple(models))

    def typed_hint(view: Any, decision: Any) -> str | None:
        from warbench.rulesets.warsurge.game.words import typed_casualties_hint

        p = now[0].game.pause if now and decision.kind == "casualties" else None
        return None if p is None or len(p.candidates) < 2 else typed_casualties_hint(p.candidates)

    # this question takes the default when the input ends, the next go to the AI
    person = prompt_seat(
        players,
        side,
        ws.actions,
        auto,
        write=write,
        ended_note="input ended: the scripted AI plays on for you",
        describe=describe,
        confirm=not no_confirm,
    )
    # as many numbered choices as fit under the question, the rest typed as JSON (session 33)
    person.limit = choices_fit()
    # a casualty choice: each outcome once, and your own order by model numbers (session 39)
    person.distinct, person.typed, person.typed_hint = distinct, typed, typed_hint

    def on_step(state: WarsurgeState, events: list[Any]) -> None:
        zones[:] = [z.name for z in state.game.setup.field.zones]
        now[:] = [state]
        for line in summary([_engine_event(e) for e in events]):
            write(line)
        # the board once before each of your questions and at the end, not after every step
        # too (it was drawn twice between two questions; session 32, s32-polish)
        if _board_due(ws, state, players, side, person):
            # scaled to the terminal's height (session 33: 48 rows in a 40-line terminal)
            height = state.game.setup.field.board.height
            # the key wrapped at words to the terminal's width (s34-play2)
            write(render_state_text(state.game, cell=board_cell(height), width=columns()))

    try:
        setup = SetupArgs(
            tuple(roster_to_data(load_game_roster(r)) for r in rosters),
            _board_json(board),
            {
                "game_length": turns,
                # the Turn Master and the zone are your decisions too (§2.1, §3.6)
                # the casualties too with --choose-casualties (§5.11)
                "automation": [
                    a
                    for a in ("model placement", "casualty selection", "coherency")
                    if not (choose_casualties and a == "casualty selection")
                ],
                **({} if playstyle == "standard" else {"playstyle": playstyle}),
            },
        )
        # the questions name your side as the board and the events do ("Red: ...")
        person.seat_names = tuple(str(r["player"]) for r in setup.rosters)
        game_seed = secrets.randbits(31) if seed is None else seed
        if ai != "scripted":
            from warbench.ai.players import make_player

            players[1 - side] = make_player(ai, ws.id, setup, game_seed, 1 - side)
        run = run_game(ws, setup, players, game_seed, on_step=on_step)
        if record is not None:
            run.record.save(record)
    except WarbenchError as exc:
        raise fail(str(exc)) from exc
    result = run.result
    assert result is not None
    names = [r["player"] for r in setup.rosters]
    winner = "Draw" if result.winner is None else f"Winner: {names[result.winner]}"
    console.print(f"[bold]{winner}[/] (seed {game_seed}, {len(run.record.steps)} steps)")
    for n, v in zip(names, result.scores, strict=True):
        # a whole value without ".0" ("Red: 180 points remaining"), a fraction to 0.1
        console.print(f"  {n}: {f'{v:.1f}'.removesuffix('.0')} points remaining", highlight=False)
    if record is not None:
        console.print(f"record: {record}", highlight=False)


def warm_in_background() -> threading.Thread:
    """Start ``route_jit.warm`` (the rules' compiled kernels) in a daemon thread."""
    from warbench.rulesets.warsurge.game import route_jit

    thread = threading.Thread(target=route_jit.warm, name="warbench-warm-rules", daemon=True)
    thread.start()
    return thread


def _board_due(ws: Any, state: Any, players: list[Any], side: int, person: Any) -> bool:
    """Whether to draw the board after a step: the game is over, or the next question is the
    person's while they are still at the prompt (once the input ends: only at the end)."""
    if ws.is_over(state):
        return True
    if players[side] is not person:
        return False
    return any(d.player == side for d in ws.pending(state))


def _board_json(spec: str | None) -> Any:
    """A sample board's name stays a name; a board file becomes its JSON (the record's)."""
    if spec is None or not Path(spec).exists():
        return spec
    from warbench.rulesets.warsurge.battlefield import board_to_data, load_board

    return board_to_data(load_board(spec))


def _engine_event(e: Any) -> Any:
    """A protocol event back as the engine's, for the turn-by-turn summary."""
    from warbench.rulesets.warsurge.game.events import Event

    data = dict(e.data)
    return Event(e.kind, e.text, int(data.get("turn", 0)), str(data.get("phase", "")), e.rule)
