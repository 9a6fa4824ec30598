"""The conformance suite every ruleset passes (OpenSpiel's random-play test, and more).

One call, :func:`check_conformance`, plays seeded games with random legal players and at
every state checks the protocol's contract (docs/protocol.md):

* **flow**: ``is_over`` ⇔ no decision pending ⇔ ``result`` is not ``None``; a chance
  decision's outcomes have probabilities that add to 1 and each passes ``check``;
* **legality**: every sampled (and, when finite, every listed) legal action and every
  decision's ``default`` passes ``check``; the same action is refused for a player who has no
  decision pending;
* **check and apply agree**: for actions seen earlier in the game, ``check`` refuses exactly
  when ``apply`` raises :class:`~warbench.play.core.IllegalAction`, with the same rule;
* **purity**: ``apply`` never changes its input (same digest before and after) and gives the
  same state twice for the same action;
* **JSON**: states, actions, views, events, decisions and results round-trip through JSON;
* **views**: with ``perturb(state, player)`` (a state differing only in what ``player`` may
  not see) the player's view is unchanged, and so is the default of each of the player's
  decisions (the engine's own player chooses from the view);
* **records**: the game's record replays with every digest, survives a text round trip, is
  refused when tampered with, and a record cut in half resumes to the very same game;
  ``run_game`` with the same seeds writes the identical record;
* ``invariants(state)``: the ruleset's own invariants (raise ``AssertionError``).

A failure raises :class:`ConformanceError` naming the seed, the step and the broken rule.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from warbench.kernel.dice import SeededChoices
from warbench.play.core import (
    CHANCE,
    Decision,
    IllegalAction,
    LegalActions,
    ProtocolError,
    Ruleset,
    SetupArgs,
    canonical,
    chance_dice,
    pick_outcome,
)
from warbench.play.players import Budget, Player, RandomLegalPlayer
from warbench.play.record import GameRecord, RecordStep, replay
from warbench.play.runner import run_game

S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V")


class ConformanceError(AssertionError):
    """A ruleset broke the protocol's contract (the message names seed, step and rule)."""


@dataclass
class ConformanceReport:
    """What the suite exercised (so a test can insist the games reached every feature)."""

    games: int = 0
    steps: int = 0
    finished: int = 0
    decisions: dict[str, int] = field(default_factory=dict)
    chance_steps: int = 0
    simultaneous: int = 0
    refusals: int = 0
    defaults: int = 0
    hidden_checks: int = 0


@dataclass
class _Recorded:
    """A player that answers with recorded actions (resuming a cut record)."""

    actions: list[Any]

    def choose(
        self, view: Any, legal: LegalActions[Any], decision: Decision[Any], b: Budget
    ) -> Any:
        return self.actions.pop(0)


def check_conformance(
    ruleset: Ruleset[S, A, V],
    setup: SetupArgs,
    *,
    seeds: Iterable[int] = range(6),
    max_steps: int = 2_000,
    samples: int = 4,
    perturb: Callable[[S, int], S] | None = None,
    invariants: Callable[[S], None] | None = None,
    seats: int | None = None,
) -> ConformanceReport:
    """Play one random-legal game per seed and check the contract at every state."""
    report = ConformanceReport()
    n_seats = seats if seats is not None else len(setup.rosters)
    for seed in seeds:
        _game(ruleset, setup, seed, n_seats, max_steps, samples, perturb, invariants, report)
    return report


def _players(seed: int, seats: int) -> list[Player[Any]]:
    return [RandomLegalPlayer(seed * 1_000 + seat) for seat in range(seats)]


def _game(
    ruleset: Ruleset[S, A, V],
    setup: SetupArgs,
    seed: int,
    seats: int,
    max_steps: int,
    samples: int,
    perturb: Callable[[S, int], S] | None,
    invariants: Callable[[S], None] | None,
    report: ConformanceReport,
) -> None:
    where = {"seed": seed, "step": 0}

    def fail(msg: str, rule: str) -> ConformanceError:
        return ConformanceError(
            f"{ruleset.id} seed {where['seed']} step {where['step']}: {msg} [{rule}]"
        )

    rng = SeededChoices(seed)
    players = _players(seed, seats)
    state = ruleset.setup(setup.rosters, setup.board, setup.options, seed)
    record = GameRecord.start(ruleset, setup, seed, ruleset.digest(state))
    pool: list[tuple[A, int]] = []
    report.games += 1
    while True:
        _check_state(ruleset, state, invariants, fail)
        decisions = ruleset.pending(state)
        if ruleset.is_over(state) or len(record.steps) >= max_steps:
            break
        if len(decisions) > 1:
            report.simultaneous += 1
        deciders = {d.player for d in decisions}
        for d in decisions:
            report.decisions[d.kind] = report.decisions.get(d.kind, 0) + 1
            _check_decision(ruleset, state, d, deciders, seats, samples, rng, pool, fail, report)
            if perturb is not None and not d.is_chance:
                seen = canonical(ruleset.views.dump(ruleset.view(state, d.player)))
                other = canonical(
                    ruleset.views.dump(ruleset.view(perturb(state, d.player), d.player))
                )
                if seen != other:
                    raise fail(
                        f"player {d.player}'s view changes with information hidden from them",
                        "protocol: view",
                    )
                report.hidden_checks += 1
                if d.default is not None:
                    # the engine's own player chooses from the view: what the view hides
                    # cannot change the default it offers
                    offered = [
                        e.default
                        for e in ruleset.pending(perturb(state, d.player))
                        if e.player == d.player and e.kind == d.kind
                    ]
                    if offered != [d.default]:
                        raise fail(
                            f"the default of player {d.player}'s {d.kind!r} decision changes "
                            "with information hidden from them",
                            "protocol: view",
                        )
        _check_agreement(ruleset, state, pool, rng, samples, fail, report)
        # the move itself, exactly as run_game makes it
        d = decisions[0]
        if d.is_chance:
            action = pick_outcome(d, chance_dice(seed, len(record.steps)))
            report.chance_steps += 1
        else:
            view = ruleset.view(state, d.player)
            legal = ruleset.legal_actions(state, d.player)
            action = players[d.player].choose(view, legal, d, Budget())
        before = ruleset.digest(state)
        new, events = ruleset.apply(state, action, d.player)
        again, _ = ruleset.apply(state, action, d.player)
        if ruleset.digest(state) != before:
            raise fail("apply changed the state it was given", "protocol: apply is pure")
        if ruleset.digest(again) != ruleset.digest(new):
            raise fail("apply gave two different states for one action", "protocol: apply is pure")
        for e in events:
            json.dumps(e.to_json(), allow_nan=False)
        pool.append((action, d.player))
        if len(pool) > 64:
            pool.pop(0)
        state = new
        record.add(d.player, ruleset.actions.dump(action), ruleset.digest(state))
        where["step"] = len(record.steps)
        report.steps += 1
    result = ruleset.result(state)
    if result is not None:
        report.finished += 1
        record.finish(result, ruleset.digest(state))
        json.dumps(result.to_json(), allow_nan=False)
    _check_record(ruleset, setup, seed, seats, max_steps, record, fail)


def _check_state(
    ruleset: Ruleset[S, A, V],
    state: S,
    invariants: Callable[[S], None] | None,
    fail: Callable[[str, str], ConformanceError],
) -> None:
    over = ruleset.is_over(state)
    if over != (not ruleset.pending(state)):
        raise fail(
            f"is_over is {over} but pending is {ruleset.pending(state)}", "protocol: pending"
        )
    if over != (ruleset.result(state) is not None):
        raise fail("result must be given exactly when the game is over", "protocol: result")
    data = ruleset.states.dump(state)
    back = ruleset.states.load(json.loads(json.dumps(data, allow_nan=False)))
    if canonical(ruleset.states.dump(back)) != canonical(data):
        raise fail("the state does not survive a JSON round trip", "protocol: JSON")
    if ruleset.digest(back) != ruleset.digest(state):
        raise fail("the state's digest changes through JSON", "protocol: JSON")
    if invariants is not None:
        try:
            invariants(state)
        except AssertionError as exc:
            raise fail(f"invariant broken: {exc}", "ruleset invariants") from None


def _roundtrip_action(
    ruleset: Ruleset[S, A, V], action: A, fail: Callable[[str, str], ConformanceError]
) -> None:
    data = ruleset.actions.dump(action)
    back = ruleset.actions.load(json.loads(json.dumps(data, allow_nan=False)))
    if back != action:
        raise fail(f"action {data} does not survive a JSON round trip", "protocol: JSON")


def _check_decision(
    ruleset: Ruleset[S, A, V],
    state: S,
    d: Decision[A],
    deciders: set[int],
    seats: int,
    samples: int,
    rng: SeededChoices,
    pool: list[tuple[A, int]],
    fail: Callable[[str, str], ConformanceError],
    report: ConformanceReport,
) -> None:
    json.dumps(d.to_json(ruleset.actions), allow_nan=False)
    if d.is_chance:
        total = sum(p for _, p in d.outcomes)
        if not d.outcomes or abs(total - 1.0) > 1e-9 or any(p < 0 for _, p in d.outcomes):
            raise fail(f"chance outcomes add to {total}, not 1", "protocol: chance")
        for a, _ in d.outcomes:
            refusal = ruleset.check(state, a, CHANCE)
            if refusal is not None:
                raise fail(f"a chance outcome is refused: {refusal.reason}", refusal.rule)
            _roundtrip_action(ruleset, a, fail)
        return
    legal = ruleset.legal_actions(state, d.player)
    candidates: list[A] = list(legal.sample(rng, samples))
    if legal.finite:
        candidates += list(legal)
    if not candidates and d.default is None:
        raise fail(f"player {d.player} must decide {d.kind!r} but has no legal action", d.rule)
    if d.default is not None:
        candidates.append(d.default)
        report.defaults += 1
    for a in candidates:
        refusal = ruleset.check(state, a, d.player)
        if refusal is not None:
            raise fail(
                f"legal action {ruleset.actions.dump(a)} is refused: {refusal.reason}",
                refusal.rule,
            )
        if a not in legal:
            raise fail(f"{ruleset.actions.dump(a)} passes check but is not `in` legal", "protocol")
        _roundtrip_action(ruleset, a, fail)
        for q in range(seats):
            if q not in deciders and ruleset.check(state, a, q) is None:
                raise fail(
                    f"player {q} has no decision pending but may play {ruleset.actions.dump(a)}",
                    "protocol: check names the player",
                )
    for q in range(seats):
        if q not in deciders:
            idle = ruleset.legal_actions(state, q)
            if list(idle) or idle.sample(rng, 1):
                raise fail(
                    f"player {q} has no decision pending but has legal actions",
                    "protocol: legal_actions",
                )
    view = ruleset.view(state, d.player)
    data = ruleset.views.dump(view)
    back = ruleset.views.load(json.loads(json.dumps(data, allow_nan=False)))
    if canonical(ruleset.views.dump(back)) != canonical(data):
        raise fail("the view does not survive a JSON round trip", "protocol: JSON")
    pool.extend((a, d.player) for a in candidates[:2])


def _check_agreement(
    ruleset: Ruleset[S, A, V],
    state: S,
    pool: Sequence[tuple[A, int]],
    rng: SeededChoices,
    samples: int,
    fail: Callable[[str, str], ConformanceError],
    report: ConformanceReport,
) -> None:
    if not pool:
        return
    for _ in range(samples):
        action, actor = rng.choice(pool)
        refusal = ruleset.check(state, action, actor)
        try:
            ruleset.apply(state, action, actor)
        except IllegalAction as exc:
            if refusal is None:
                raise fail(
                    f"check accepts {ruleset.actions.dump(action)} but apply refuses it: "
                    f"{exc.reason}",
                    exc.rule,
                ) from None
            if exc.rule != refusal.rule:
                raise fail(
                    f"check and apply cite different rules ({refusal.rule} / {exc.rule})",
                    "protocol: check/apply",
                ) from None
            report.refusals += 1
            continue
        if refusal is not None:
            raise fail(
                f"check refuses {ruleset.actions.dump(action)} ({refusal.reason}) but apply "
                "accepts it",
                refusal.rule,
            )


def _check_record(
    ruleset: Ruleset[S, A, V],
    setup: SetupArgs,
    seed: int,
    seats: int,
    max_steps: int,
    record: GameRecord,
    fail: Callable[[str, str], ConformanceError],
) -> None:
    text = record.dumps()
    loaded = GameRecord.loads(text)
    if loaded.dumps() != text:
        raise fail("the record does not survive a text round trip", "protocol: record")
    rep = replay(loaded, ruleset)
    if rep.digests != [s.digest for s in record.steps]:
        raise fail("replay does not reproduce the recorded digests", "protocol: replay")
    # the runner plays the very same game
    run = run_game(ruleset, setup, _players(seed, seats), seed, max_steps=max_steps)
    if run.record.dumps() != text:
        raise fail("run_game does not write the same record for the same seeds", "runner")
    # a record cut in half resumes to the same game
    if len(record.steps) >= 2 and record.finished:
        half = len(record.steps) // 2
        cut = GameRecord(record.header, list(record.steps[:half]))
        rest = [ruleset.actions.load(s.action) for s in record.steps[half:] if s.actor != CHANCE]
        resumed = run_game(
            ruleset, setup, [_Recorded(rest)] * seats, seed, record=cut, max_steps=max_steps
        )
        if resumed.record.dumps() != text:
            raise fail("a resumed record does not finish as the original", "protocol: resume")
        # a tampered digest is refused
        bad = GameRecord(record.header, list(record.steps), record.result)
        s = bad.steps[half]
        bad.steps[half] = RecordStep(s.step, s.actor, s.action, "0" * len(s.digest))
        try:
            replay(bad, ruleset)
        except ProtocolError:
            pass
        else:
            raise fail("replay accepts a record with a wrong digest", "protocol: replay")
