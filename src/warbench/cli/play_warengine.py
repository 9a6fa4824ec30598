"""``warbench play --ruleset warengine``: a person plays The WarEngine 2.1 against the engine's
automatic play at the terminal, through the game protocol (docs/warengine-game.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warbench.cli.app import console, fail
from warbench.kernel.errors import WarbenchError


def play_warengine(
    rosters: list[Path],
    board: str | None,
    seed: int | None,
    side: int,
    turns: int | None,
    record: Path | None,
) -> None:
    """Two WarEngine force files (yours, then the AI's); every decision of yours is asked
    at the prompt (placement, who goes first, activations, each figure's actions, reserved
    attacks, Hero Points, leaders); the engine's choice is the default. When the input ends
    the engine plays on for you."""
    import secrets

    from warbench.play import AutomaticPlayer, RandomLegalPlayer, SetupArgs
    from warbench.play.runner import run_game
    from warbench.play.terminal import (
        board_cell,
        book_names,
        choices_fit,
        columns,
        distinct_names,
        prompt_seat,
    )
    from warbench.rulesets.warengine.game.protocol import WarEngineRuleset
    from warbench.rulesets.warengine.game.words import RUNS, said
    from warbench.rulesets.warengine.io import load_force, to_data

    if len(rosters) != 2:
        raise fail(f"play needs exactly two force files (yours, then the AI's), not {len(rosters)}")
    ws = WarEngineRuleset()
    auto: AutomaticPlayer[Any] = AutomaticPlayer(RandomLegalPlayer(0))

    def write(line: str) -> None:
        # rules cited by book ("[The WarEngine 2.1 L303]"), not by file name (session 33)
        console.print(book_names(line), highlight=False, markup=False)

    players: list[Any] = [auto, auto]
    words: dict[str, Any] = {}

    def describe(view: Any, action: Any) -> str | None:
        """The choice in words (``game/words.py``), read against the set-up's context."""
        from warbench.rulesets.warengine.game.words import describe as say

        ctx = words.get("ctx")
        if ctx is None:
            return None
        # the players by their forces' names (who activates first, L362)
        return say(ctx, ws.views.dump(view), ws.actions.dump(action), person.seat_names)

    person = prompt_seat(
        players,
        side,
        ws.actions,
        auto,
        write=write,
        ended_note="input ended: the engine plays on for you",
        describe=describe,
        runs=RUNS,  # "r": the rest of your placements as suggested (L303-309), as the page
    )

    # the board before each of your questions (once while it stands unchanged), as WARSURGE
    # and Collision draw theirs (session 33: the terminal drew none)
    drawn: dict[str, str] = {}

    def draw(view: Any) -> None:
        from warbench.cli.warengine_board import board_text

        ctx = words.get("ctx")
        if ctx is None:
            return
        cell = board_cell(ctx.field.height)  # scaled to the terminal's height
        names = person.seat_names or ("1", "2")
        # the key wrapped at words to the terminal's width, as WARSURGE's (session 36)
        text = board_text(ctx, ws.views.dump(view), names, cell=cell, width=columns())
        if drawn.get("last") != text:
            drawn["last"] = text
            write(text)

    players[side] = _Drawing(person, draw)
    person.limit = choices_fit()  # as many as fit under the question, the rest as JSON

    def on_step(state: Any, events: list[Any]) -> None:
        from warbench.rulesets.warengine.game.words import said

        for e in events:
            if e.kind not in ("place",):
                # "StormReavers (1) rolls higher", not "player 0" (session 33)
                write(f"  {said(e.text, person.seat_names, e.data)}")

    try:
        options: dict[str, Any] = {} if turns is None else {"turns": turns}
        forces = tuple(to_data(load_force(r)) for r in rosters)
        # the questions name your force, not "player 0"; a force against a copy of itself is
        # told apart by seat number ("StormReavers (1)") (session 33)
        names = distinct_names([str(f["name"]) for f in forces])
        person.seat_names = tuple(names)
        setup = SetupArgs(forces, board, options)
        from warbench.rulesets.warengine.game.setup import build_context

        words["ctx"] = build_context(list(forces), board, options)
        game_seed = secrets.randbits(31) if seed is None else seed
        run = run_game(ws, setup, players, game_seed, on_step=on_step)
        if record is not None:
            run.record.save(record)
    except WarbenchError as exc:
        raise fail(str(exc)) from exc
    result = run.result
    assert result is not None
    drawn.clear()
    draw(ws.view(run.state, side))  # the table at the end
    winner = "Draw" if result.winner is None else f"Winner: {names[result.winner]}"
    console.print(f"[bold]{winner}[/] (seed {game_seed}, {len(run.record.steps)} steps)")
    console.print(said(result.reason, names), highlight=False, markup=False)
    for n, v in zip(names, result.scores, strict=True):
        console.print(f"  {n}: {v:.0f} victory points", highlight=False)
    if record is not None:
        console.print(f"record: {record}", highlight=False)


@dataclass
class _Drawing:
    """The person's seat, drawing the board from the view before each question."""

    person: Any
    draw: Callable[[Any], None]

    def choose(self, view: Any, legal: Any, decision: Any, budget: Any) -> Any:
        """Draw, then ask the person; a placement made by ``r`` (the rest as suggested) is
        one line, no board (the board is drawn at the next question)."""
        if not self.person.in_run(decision):
            self.draw(view)
        return self.person.choose(view, legal, decision, budget)
