"""WARSURGE game commands: ``battle`` (play a full game between scripted players) and
``replay`` (replay and verify a game record)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import typer

from warbench.cli.app import app, console, fail
from warbench.kernel.errors import WarbenchError


def _board(spec: str | None) -> object:
    from warbench.rulesets.warsurge.battlefield import load_board, sample_board, sample_boards

    if spec is None:
        return sample_board("ruins_48x48")
    if Path(spec).exists():
        return load_board(spec)
    if spec in sample_boards():
        return sample_board(spec)
    raise fail(
        f"--board {spec}: no such file or sample board; samples: {', '.join(sample_boards())}"
    )


def board_json(spec: str | None) -> object:
    """A board as a protocol record keeps it: a sample board by name (``None``: the default),
    a board file as its JSON."""
    if spec is None or not Path(spec).exists():
        return spec
    from warbench.rulesets.warsurge.battlefield import board_to_data, load_board

    return board_to_data(load_board(spec))


@app.command()
def battle(
    rosters: list[Path] = typer.Argument(..., help="Two or more game roster files."),
    board: str | None = typer.Option(
        None, "--board", "-b", help="Board file or sample board name (default ruins_48x48)."
    ),
    seed: int | None = typer.Option(
        None, "--seed", "-s", min=0, help="Seed, a whole number from 0 (recorded; random if unset)."
    ),
    record: Path | None = typer.Option(
        None, "--record", help="Write the game's protocol record (JSON lines; replay verifies it)."
    ),
    svg: Path | None = typer.Option(None, "--svg", help="Draw the final battlefield as SVG."),
    players: str = typer.Option(
        "scripted",
        "--players",
        help="Player kinds, one for all or one per roster (comma-separated): scripted, random, "
        "tactical, search, search:1..4 (docs/ai.md).",
    ),
    turns: int | None = typer.Option(
        None,
        "--turns",
        help="Agreed Game Length, 4 Game Turns or more (§2.1); default: a random end from "
        "Game Turn 4.",
    ),
    playstyle: str = typer.Option(
        "standard", "--playstyle", help="standard or advanced (Command Points, §9)."
    ),
    point_limit: int | None = typer.Option(
        None, "--point-limit", min=1, help="Advanced: the Point Limit (default: largest roster)."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Only the result."),
    as_json: bool = typer.Option(False, "--json", help="The result as JSON."),
    save: str | None = typer.Option(
        None, "--save", help="Store the game record in the database under this name."
    ),
    db: str | None = typer.Option(
        None, "--db", help="Database URL (default: WARBENCH_DB or user data dir)."
    ),
) -> None:
    """Play a full game (Standard, or Advanced with `--playstyle advanced`) and print the result.

    ROSTER files are game rosters (docs/game.md) or WARSURGE rosters from `roster export`.
    """
    import secrets

    from warbench.play import SetupArgs
    from warbench.play.record import GameRecord
    from warbench.rulesets.warsurge.game import engine
    from warbench.rulesets.warsurge.game.codecs import WarsurgeState, args_text, game_setup
    from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
    from warbench.rulesets.warsurge.game.perk_effects import inert_report
    from warbench.rulesets.warsurge.game.players import Player, RandomLegalPlayer, ScriptedPlayer
    from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset
    from warbench.rulesets.warsurge.game.render import render_state_svg, summary

    if len(rosters) < 2:
        raise fail("a battle needs at least two rosters")
    kinds = [k.strip() for k in players.split(",")]
    if len(kinds) not in (1, len(rosters)):
        raise fail(f"--players {players}: one kind for all or one per roster ({len(rosters)})")
    engine_players = all(k in ("scripted", "random") for k in kinds)
    if not engine_players:
        from warbench.play.players import check_kind

        try:
            for k in kinds:
                check_kind(k)
        except WarbenchError as exc:
            raise fail(f"--players {players}: {exc}") from exc
    if playstyle not in ("standard", "advanced"):
        raise fail(f"--playstyle {playstyle}: allowed: standard, advanced")
    try:
        _board(board)  # a one-line error for an unknown board, before anything is read
        # the game is set up as the protocol sets it up (docs/protocol.md), so the record
        # written is the protocol's: rosters written out, the board by name or in full
        args = SetupArgs(
            tuple(roster_to_data(load_game_roster(r)) for r in rosters),
            board_json(board),
            {
                **({} if turns is None else {"game_length": turns}),
                **({} if playstyle == "standard" else {"playstyle": playstyle}),
                **({} if point_limit is None else {"point_limit": point_limit}),
            },
        )
        text = args_text(args.rosters, args.board, args.options)
        setup = game_setup(text)
        inert = inert_report(setup)
        if inert and not as_json and not quiet:
            console.print("Perks with no effect in play yet (they are ignored in this game):")
            for label, perks in inert.items():
                console.print(f"  {label}: {', '.join(perks)}", highlight=False, markup=False)
        game_seed = secrets.randbits(31) if seed is None else seed
        ws = WarsurgeRuleset()
        t0 = time.perf_counter()
        state, events = engine.new_game(setup, game_seed)
        rec = GameRecord.start(ws, args, game_seed, state.digest())
        sides = len(setup.sides)
        if engine_players:  # the engine's own players, as the fingerprint games play
            who: list[Player] = [
                ScriptedPlayer()
                if kinds[k % len(kinds)] == "scripted"
                else RandomLegalPlayer(game_seed + k)
                for k in range(sides)
            ]
            while not state.over:
                side = engine.acting_side(state)
                assert side is not None
                action = who[side].choose(state)
                state, evs = engine.apply(state, action)
                events.extend(evs)
                rec.add(side, ws.actions.dump(action), state.digest())
        else:  # protocol players from the registry (play.players.PLAYER_KINDS)
            from warbench.play import run_game
            from warbench.play.players import Lineup

            lineup = Lineup(tuple(kinds), ws.id, args)
            run = run_game(ws, args, [lineup(game_seed, k) for k in range(sides)], game_seed)
            state, rec = run.state.game, run.record
            events.extend(_engine_event(e) for e in run.events)
        final = ws.result(WarsurgeState(text, state))
        assert final is not None
        rec.finish(final, state.digest())
        elapsed = time.perf_counter() - t0
        if record is not None:
            rec.save(record)
        saved_id = None
        if save is not None:
            from warbench.storage import Store

            saved_id = Store.open(db).save_game("\n".join(rec.lines()) + "\n", name=save)
        if svg is not None:
            render_state_svg(state, svg)
    except WarbenchError as exc:
        raise fail(str(exc)) from exc
    result = state.result
    assert result is not None
    names = setup.sides
    if as_json:
        out = {
            "seed": game_seed,
            "winner": None if result.winner is None else names[result.winner],
            "values": {n: round(v, 2) for n, v in zip(names, result.values, strict=True)},
            "turns": result.turns,
            "actions": len(rec.steps),
            "seconds": round(elapsed, 3),
            "inert_perks": inert,
        }
        console.print_json(json.dumps(out))
        return
    if not quiet:
        for line in summary(events):
            console.print(line, highlight=False, markup=False)
    winner = "Draw" if result.winner is None else f"Winner: {names[result.winner]}"
    console.print(f"[bold]{winner}[/] (seed {game_seed}, {result.turns} Game Turns)")
    for n, v in zip(names, result.values, strict=True):
        console.print(f"  {n}: {v:.1f} points remaining", highlight=False)
    if record is not None:
        console.print(f"record: {record}", highlight=False)
    if svg is not None:
        console.print(f"svg: {svg}", highlight=False)
    if saved_id is not None:
        console.print(f"saved game {saved_id}: {save}", highlight=False)


@app.command()
def replay(
    record: Path | None = typer.Argument(
        None, help="A game record (JSON lines) from battle --record."
    ),
    svg: Path | None = typer.Option(None, "--svg", help="Draw the final battlefield as SVG."),
    show: bool = typer.Option(False, "--show", help="Print the turn-by-turn summary."),
    game: int | None = typer.Option(None, "--game", help="Replay saved game ID from the database."),
    db: str | None = typer.Option(None, "--db", help="Database URL (with --game)."),
) -> None:
    """Replay a game record and verify that it reproduces the recorded game exactly (a
    `battle --record` file, or a protocol record of any ruleset, as `warbench play` and
    `run_game` write)."""
    from warbench.kernel import readers
    from warbench.rulesets.warsurge.game.record import loads_record
    from warbench.rulesets.warsurge.game.record import replay as do_replay
    from warbench.rulesets.warsurge.game.render import render_state_svg, summary

    if (record is None) == (game is None):
        raise fail("give either a RECORD file or --game ID (a game saved with battle --save)")
    try:
        if game is not None:
            from warbench.storage import Store

            text, source = Store.open(db).game(game), f"saved game {game}"
        else:
            assert record is not None
            text, source = readers.read_text(record, readers.GAME_RECORD), str(record)
        if _is_protocol_record(text):
            _replay_protocol(text, source, svg, show)
            return
        rec = loads_record(text, source)
        rp = do_replay(rec)
        if svg is not None:
            render_state_svg(rp.state, svg)
            console.print(f"svg: {svg}", highlight=False)
    except WarbenchError as exc:
        raise fail(str(exc)) from exc
    if show:
        for line in summary(rp.events):
            console.print(line, highlight=False, markup=False)
    st = rp.state
    status = "finished" if st.over else f"in progress (Game Turn {st.flow.turn})"
    console.print(
        f"verified: {rp.steps} actions replay identically; game {status}; state {st.digest()}",
        highlight=False,
    )
    if st.result is not None:
        names = st.setup.sides
        r = st.result
        winner = "draw" if r.winner is None else f"winner {names[r.winner]}"
        console.print(
            f"{winner}: " + ", ".join(f"{n} {v:.1f}" for n, v in zip(names, r.values, strict=True)),
            highlight=False,
        )


def _is_protocol_record(text: str) -> bool:
    """Whether a record's header is the protocol's (``warbench-play-record/N``)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return '"warbench-play-record/' in first


def _replay_protocol(text: str, source: str, svg: Path | None, show: bool) -> None:
    """Replay and verify a protocol record (``play.record``) with its registered ruleset."""

    from warbench.play.record import GameRecord, Replay
    from warbench.play.record import replay as play_replay

    rec = GameRecord.loads(text, source)
    rp: Replay[Any] = play_replay(rec)
    game = getattr(rp.state, "game", None)  # WARSURGE: the engine's state inside
    if svg is not None:
        if game is None:
            raise WarbenchError(f"--svg draws WARSURGE games; this record is {rec.header.ruleset}")
        from warbench.rulesets.warsurge.game.render import render_state_svg

        render_state_svg(game, svg)
        console.print(f"svg: {svg}", highlight=False)
    if show:
        for e in rp.events:
            console.print(e.text, highlight=False, markup=False)
    status = "finished" if rp.finished else "in progress"
    final = rp.digests[-1] if rp.digests else rec.header.digest
    console.print(
        f"verified: {rp.steps} actions replay identically ({rec.header.ruleset} protocol "
        f"record); game {status}; state {final}",
        highlight=False,
    )
    if rp.result is not None:
        r = rp.result
        names = list(game.setup.sides) if game is not None else []
        label = (lambda k: names[k]) if names else (lambda k: f"player {k}")
        winner = "draw" if r.winner is None else f"winner {label(r.winner)}"
        console.print(
            f"{winner}: " + ", ".join(f"{label(k)} {s:.1f}" for k, s in enumerate(r.scores)),
            highlight=False,
        )


def _engine_event(e: Any) -> Any:
    """A protocol event back as the engine's, for the turn-by-turn summary."""
    from warbench.rulesets.warsurge.game.events import Event

    data = dict(e.data)
    return Event(e.kind, e.text, int(data.get("turn", 0)), str(data.get("phase", "")), e.rule)
