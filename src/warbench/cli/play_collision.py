"""A person (or the scripted player) plays Collision through the game protocol at the terminal
(``warbench collision play`` and ``warbench play --ruleset collision``)."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from warbench.cli.app import console, fail

#: the stages whose questions are asked under the grid (your activation; your deployment)
_DRAWN_BEFORE = frozenset({"activate", "diagonal", "zone", "deploy"})


def play_collision(
    groups: list[Path],
    seed: int | None,
    side: int,
    auto: bool,
    major: str | None,
    minors: str | None,
    turns: int | None,
    record: Path | None,
    svg: Path | None,
    quiet: bool,
) -> None:
    """Set up and play one battle; print the events, the board and the result."""
    from warbench.play import AutomaticPlayer, RandomLegalPlayer, SetupArgs
    from warbench.play.runner import run_game
    from warbench.play.terminal import book_names, distinct_names, prompt_seat
    from warbench.rulesets.collision.game.protocol import CollisionRuleset, make_view
    from warbench.rulesets.collision.game.render import render_svg, render_text
    from warbench.rulesets.collision.game.state import CollisionState
    from warbench.rulesets.collision.game.words import describe, said
    from warbench.rulesets.collision.io import load, to_data
    from warbench.rulesets.collision.models import BattleGroup

    if len(groups) != 2:
        raise fail(
            f"play needs exactly two battle groups (yours, then the AI's), not {len(groups)}"
        )
    if side not in (0, 1):
        raise fail(f"--side {side}: allowed: 0, 1")
    rosters = []
    for path in groups:
        obj = load(path)
        if not isinstance(obj, BattleGroup):
            raise fail(f"{path}: a battle group file (name, points_limit, characters), not a card")
        rosters.append(to_data(obj))
    options: dict[str, Any] = {}
    if major is not None or minors is not None:
        parts = [m.strip() for m in (minors or "").split(",") if m.strip()]
        if major is None or len(parts) != 2:
            raise fail("--major and --minors (two, comma separated) go together")
        options.update(major=major, minors=parts)
    if turns is not None:
        options["turn_limit"] = turns
    rs = CollisionRuleset()
    auto_player: AutomaticPlayer[Any] = AutomaticPlayer(RandomLegalPlayer(0))

    def write(line: str) -> None:
        # rules cited by book ("[Collision L557-565]"), not by source file name (session 33)
        if not quiet:
            console.print(book_names(line), highlight=False, markup=False)

    players: list[Any] = [auto_player, auto_player]
    if not auto:
        prompt_seat(
            players,
            side,
            rs.actions,
            auto_player,
            write=write,
            ended_note="input ended: the scripted player plays on for you",
            # the questions name your battle group, not "player 0" (session 33)
            seat_names=tuple(distinct_names([str(r["name"]) for r in rosters])),
            # each numbered choice in words ("phase 1: Virgil, …"), its JSON under it
            describe=lambda view, a: describe(rs.views.dump(view), rs.actions.dump(a)),
        )
    me = side
    seat_names = tuple(distinct_names([str(r["name"]) for r in rosters]))

    def on_step(state: CollisionState, events: list[Any]) -> None:
        for e in events:  # in a player's words: whose contest total is whose (session 35)
            write(f"  {said(e.text, seat_names, e.data)}")
        # the grid before each of your activations, and before your deployment questions
        # (the diagonal, the zone, each character's square: session 35's walk was asked
        # where to deploy among 148 squares with no board drawn, L664-724)
        if state.stage in _DRAWN_BEFORE and state.player == me and not auto:
            write(render_text(make_view(state, me)))

    game_seed = secrets.randbits(31) if seed is None else seed
    run = run_game(
        rs, SetupArgs(tuple(rosters), None, options), players, game_seed, on_step=on_step
    )
    if record is not None:
        run.record.save(record)
    final = make_view(run.state, me)
    write(render_text(final))
    if svg is not None:
        svg.write_text(render_svg(final), encoding="utf-8")
    result = run.result
    assert result is not None
    names = distinct_names([str(n) for n in final["groups"]])
    head = "Draw" if result.winner is None else f"Winner: {names[result.winner]}"
    console.print(
        f"{head} (seed {game_seed}, {len(run.record.steps)} steps)", highlight=False, markup=False
    )
    for n, v in zip(names, result.scores, strict=True):
        console.print(f"  {n}: {v:g} Victory Points", highlight=False, markup=False)
