"""The points calibration study: archetype armies at equal points, played against each other,
and the ``ws-points-2`` constants fitted from the results (docs/points.md, issue 15).

1. **Archetypes** (:data:`ARCHETYPES`): eight armies of one idea each (a horde, line troopers,
   elites, a melee rush, a gunline, fast bikes, a big model, infantry in a Transport). Each is
   priced with a points-model version and filled to the same total (:func:`build_roster`):
   model counts are rounded to the nearest whole model and every unit's listed points are
   then scaled so that both armies hold exactly ``points`` (the game is decided by the point
   value left, Core Rules 001_d3f5e425c5e1196d.txt §2.2 step 8).
2. **Matchups**: every pair of archetypes plays ``games`` lab games (``warbench.sim.lab``:
   seeds paired so each army takes each seat on the same dice, boards rotating over every
   sample board) with one player kind on both sides.
3. **Ratings**: a Bradley-Terry fit of the results (a draw counts half for each, plus half a
   win each way as a prior) gives each archetype a log-strength ``beta`` (mean 0).
4. **Elasticity**: the line troopers play themselves with ``1 + handicap`` times the points;
   ``k = logit(win rate) / log(1 + handicap)`` says how much log-odds a point buys.
5. **Fit**: an archetype's price should move by ``exp(beta / k)``. Its ``ws-points-1`` price
   splits into body, ranged weapon, melee weapon and Transport points (by pricing it with one
   constant doubled at a time — the model is linear in each); multipliers of body, ranged and
   melee points (transport kept) are fitted by least squares on the log prices, with the line
   troopers' price held fixed, and turned into the constants of ``ws-points-2``; the grid
   also searches the body exponent and reach (``reach_gap``, ``reach_turns``), which gave
   ``ws-points-3`` (docs/points.md §8).
6. **Compare**: :func:`compare` sets rounds side by side (mean absolute residual, matchups
   within 50 ± 5% with Wilson intervals, what one price per army cannot remove, and what the
   number of games can show).

``python -m warbench.sim.points_study [--games N] [--version V] [--points P] [--out FILE.json]``
runs one round (steps 1-4 for the version, armies of ``P`` points, 400 by default; more points
hold several of the biggest models, so their armies move with their price, docs/points.md §9);
``--fit`` adds step 5 and prints the constants (``--from FILE`` fits a saved round without
games; ``--battle-dash`` fits with ``ws-points-4``'s reading of Battle weapons);
``--mobility`` fits the mobility slope as well (:data:`MOBILITY_SLOPES`, docs/points.md §9,
round 8) and ``--elasticity FILE`` fits with another round's elasticity run (a smaller
handicap, :func:`with_elasticity`; another version's run if the line is the same army
under both, round 9); ``--merge FILE ...`` adds up rounds played on other seeds
(``--seed``) into one;
``--compare [LABEL=]FILE ...`` prints step 6 for saved rounds.
``--outrange`` fits the out-ranging weight as well (:data:`OUTRANGES`) and ``--fit-sweep FILE
...`` fits to :func:`pair_targets`, the sweeps' even points in place of the swept matchups'
records (docs/points.md §9, round 12).

A round can be played in parts (issue 15, session 34): ``--only ARMY ...`` or ``--matchups A:B
...`` play some matchups, each on the seeds it has in the whole round (:func:`pairs`), so
``--merge`` adds the parts up to the round played at once; ``--handicap 0`` leaves the
elasticity run out (a part of its own). ``--out`` is rewritten after every matchup and
``--resume`` keeps the matchups it holds and plays the rest; the log has a line a game and
each matchup's CPU seconds (recorded as ``cpu_seconds``, with the round's ``seed``).

A handicap sweep (issue 15, session 37, docs/points.md §9 "Round 11"): ``--scale ARMY=FACTOR
...`` plays the round (or its ``--matchups``) with those armies holding ``round(points ×
FACTOR)``, on the same seeds (a round of its own: recorded as ``scale``, merged only with the
same scaling, never fitted); ``--sweep FILE ...`` prints, for every matchup played at two or
more ratios of points in those files, the logistic through them and the ratio at which it is
even (:func:`crossing`): how far past 50% a matchup stuck at 0% or 100% is.

``--fill POINTS ...`` (issue 15, session 39, docs/points.md §9 "Round 13") prints what each
army's whole models cost over the points it is listed at (:func:`fill`): an army of a few dear
models is a rounding (two Behemoths at 1,100 points cost 1,408), and its games move with its
price only where the rounding flips.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from warbench.play.core import JSON
from warbench.sim.lab import Backend, GameRow, LabSpec, run_lab
from warbench.sim.stats import WinRate

#: Points each army holds.
POINTS = 400

_TROOPER = {
    "unit": {"name": "Troopers", "move": 6, "dash": 6, "defence": 3, "hp": 1, "armour": "4+"},
    "weapons": [
        {"name": "Laser Rifle", "range": 18, "attacks": 2, "power": 3, "ap": "6+", "type": "Battle"}
    ],
}

#: Archetype name → its unit templates: (template, share of the points, most models a unit).
#: A template is game-roster JSON without ``models`` and ``points`` (every model carries every
#: weapon). A share of ``0`` means one model per 400 points (a Transport: exactly one at 400).
ARCHETYPES: Mapping[str, tuple[tuple[dict[str, Any], float, int], ...]] = {
    "horde": (
        (
            {
                "unit": {
                    "name": "Rabble",
                    "move": 6,
                    "dash": 6,
                    "defence": 2,
                    "hp": 1,
                    "armour": "-",
                },
                "weapons": [
                    {"name": "Autogun", "range": 18, "attacks": 1, "power": 3, "type": "Battle"},
                    {"name": "Shiv", "range": 0, "attacks": 1, "power": 3, "type": "Assault"},
                ],
            },
            1.0,
            15,
        ),
    ),
    "line": ((_TROOPER, 1.0, 10),),
    "elite": (
        (
            {
                "unit": {
                    "name": "Paladins",
                    "move": 5,
                    "dash": 5,
                    "defence": 5,
                    "hp": 3,
                    "armour": "3+",
                    "aegis": "5+",
                },
                "weapons": [
                    {
                        "name": "Plasma Gun",
                        "range": 24,
                        "attacks": 2,
                        "power": 6,
                        "ap": "3+",
                        "type": "Battle",
                    }
                ],
                "base_mm": 40,
            },
            1.0,
            5,
        ),
    ),
    "melee": (
        (
            {
                "unit": {
                    "name": "Berserkers",
                    "move": 8,
                    "dash": 6,
                    "defence": 4,
                    "hp": 1,
                    "armour": "4+",
                },
                "weapons": [
                    {
                        "name": "Chainsword",
                        "range": 0,
                        "attacks": 3,
                        "power": 5,
                        "ap": "4+",
                        "type": "Assault",
                    }
                ],
            },
            1.0,
            10,
        ),
    ),
    "gunline": (
        (
            {
                "unit": {
                    "name": "Longshots",
                    "move": 5,
                    "dash": 5,
                    "defence": 3,
                    "hp": 1,
                    "armour": "5+",
                },
                "weapons": [
                    {
                        "name": "Long Rifle",
                        "range": 36,
                        "attacks": 1,
                        "power": 6,
                        "ap": "4+",
                        "type": "Heavy",
                    }
                ],
            },
            1.0,
            8,
        ),
    ),
    "fast": (
        (
            {
                "unit": {
                    "name": "Outriders",
                    "move": 12,
                    "dash": 8,
                    "defence": 4,
                    "hp": 2,
                    "armour": "4+",
                },
                "weapons": [
                    {
                        "name": "Bike Guns",
                        "range": 18,
                        "attacks": 2,
                        "power": 4,
                        "ap": "5+",
                        "type": "Assault",
                    }
                ],
                "base_mm": 50,
            },
            1.0,
            5,
        ),
    ),
    "big": (
        (
            {
                "unit": {
                    "name": "Behemoth",
                    "move": 8,
                    "dash": 6,
                    "defence": 8,
                    "hp": 18,
                    "armour": "3+",
                    "aegis": "6+",
                },
                "weapons": [
                    {
                        "name": "Claws",
                        "range": 0,
                        "attacks": 5,
                        "power": 8,
                        "ap": "3+",
                        "type": "Assault",
                    },
                    {
                        "name": "Bile Spit",
                        "range": 18,
                        "attacks": 2,
                        "power": 6,
                        "ap": "4+",
                        "type": "Assault",
                    },
                ],
                "base_mm": 100,
            },
            1.0,
            1,
        ),
    ),
    "transport": (
        (
            {
                "unit": {
                    "name": "Rhino APC",
                    "move": 10,
                    "dash": 10,
                    "defence": 7,
                    "hp": 8,
                    "armour": "3+",
                    "transport": 150,
                    "fire_points": 1,
                },
                "weapons": [
                    {
                        "name": "Stubber",
                        "range": 24,
                        "attacks": 3,
                        "power": 4,
                        "ap": "6+",
                        "type": "Assault",
                    }
                ],
                "base_mm": 100,
            },
            0.0,
            1,
        ),
        (
            {
                "unit": {
                    "name": "Breachers",
                    "move": 6,
                    "dash": 6,
                    "defence": 4,
                    "hp": 1,
                    "armour": "4+",
                },
                "weapons": [
                    {
                        "name": "Power Axe",
                        "range": 0,
                        "attacks": 2,
                        "power": 6,
                        "ap": "4+",
                        "type": "Assault",
                    }
                ],
            },
            1.0,
            10,
        ),
    ),
}


def _unit_of(template: Mapping[str, Any], count: int) -> Any:
    from warbench.rulesets.warsurge.game.io import roster_from_data

    data = _entry(template, count, None)
    return roster_from_data({"player": "probe", "units": [data]}).roster[0].unit


def _entry(template: Mapping[str, Any], count: int, points: int | None) -> dict[str, Any]:
    names = [w["name"] for w in template["weapons"]]
    out: dict[str, Any] = {**template, "models": [{"count": count, "weapons": names}]}
    if points is not None:
        out["points"] = points
    return out


def model_price(template: Mapping[str, Any], version: str) -> float:
    """One model's price under ``version`` (a unit of ten priced, divided by ten; one model
    for single-model templates)."""
    from warbench.rulesets.warsurge.points_models import points_model

    unit = _unit_of(template, 10)
    return float(sum(points_model(version).cost_unit(unit).model_points)) / 10


def build_roster(name: str, version: str, points: int = POINTS) -> JSON:
    """Archetype ``name`` priced with ``version``, filled to ``points`` (module docstring)."""
    return _build(name, version, points)[0]


def raw_price(name: str, version: str, points: int = POINTS) -> float:
    """What the whole models of :func:`build_roster` cost under ``version`` before their
    listed points are scaled to ``points`` (whole models rarely add up exactly)."""
    return _build(name, version, points)[1]


def _build(name: str, version: str, points: int) -> tuple[JSON, float]:
    parts = ARCHETYPES[name]
    # A fixed unit (a Transport) comes once per 400 points, so a bigger army keeps its idea
    # (the Breachers still ride); at 400 points it is the one it always was.
    per = max(1, round(points / POINTS))
    fixed = [(t, 1) for t, share, _ in parts if share == 0 for _ in range(per)]
    budget = points - sum(model_price(t, version) for t, _ in fixed)
    entries: list[tuple[Mapping[str, Any], int]] = list(fixed)
    for t, share, most in parts:
        if share == 0:
            continue
        n = max(1, round(budget * share / model_price(t, version)))
        while n > 0:
            take = min(most, n) if n - most != 1 or most == 1 else most - 1
            entries.append((t, take))
            n -= take
    raw = [model_price(t, version) * n for t, n in entries]
    scale = points / sum(raw)
    listed = [max(1, round(r * scale)) for r in raw]
    listed[-1] += points - sum(listed)
    roster: JSON = {
        "player": name,
        "units": [_entry(t, n, p) for (t, n), p in zip(entries, listed, strict=True)],
    }
    return roster, sum(raw)


def composition(
    name: str, version: str, *, points: int = POINTS, **constants: float
) -> dict[str, float]:
    """Archetype ``name`` (as built for ``version`` at ``points``) priced with ``version``'s
    constants, some replaced by ``constants``, split into body, ranged, melee and transport
    points (by pricing with one constant doubled at a time: the model is linear in each)."""
    from warbench.rulesets.warsurge.points import PointsModel
    from warbench.rulesets.warsurge.points_models import model_data

    data = model_data(version)
    c = data.constants.model_copy(update=constants)

    def priced(**changes: float) -> float:
        model = PointsModel(data.model_copy(update={"constants": c.model_copy(update=changes)}))
        total = 0.0
        roster = build_roster(name, version, points)
        units: Any = roster["units"]
        for e in units:
            n = int(e["models"][0]["count"])
            unit = _unit_of(e, n)
            total += float(sum(model.cost_unit(unit).model_points))
        return total

    base = priced()
    offence = priced(offence_factor=2 * c.offence_factor) - base
    melee = priced(melee_weight=2 * c.melee_weight) - base
    transport = (
        priced(
            transport_points_per_capacity=2 * c.transport_points_per_capacity,
            fire_point_points=2 * c.fire_point_points,
        )
        - base
    )
    slope = priced(range_slope=2 * c.range_slope) - base
    return {
        "total": base,
        "body": base - offence - transport,
        "ranged": offence - melee - slope,
        "range": slope,
        "melee": melee,
        "transport": transport,
    }


@dataclass
class Matchup:
    """``a`` against ``b``: ``a``'s wins, draws and losses, and games a side dealt nothing."""

    a: str
    b: str
    rate: WinRate
    silent: int = 0


@dataclass
class Round:
    """One round of the study: a version, its matchups and the elasticity run."""

    version: str
    player: str
    games: int
    matchups: list[Matchup] = field(default_factory=list)
    handicap: float = 0.25
    handicap_rate: WinRate | None = None
    seconds: float = 0.0
    raw: dict[str, float] = field(default_factory=dict)
    points: int = POINTS
    #: The base seed the round was played on (``--seed``); ``None`` in files written before
    #: session 34, which did not record it.
    seed: int | None = None
    #: CPU seconds the round's games took (its own process and its worker processes; 0 in
    #: files written before session 34): on a shared machine a fairer cost than ``seconds``.
    cpu_seconds: float = 0.0
    #: Armies that held another share of the points (``--scale``, session 37): army → factor,
    #: the army holding ``round(points × factor)``; empty in an ordinary round.
    scale: dict[str, float] = field(default_factory=dict)

    def ratings(self) -> dict[str, float]:
        """Bradley-Terry log-strengths (mean 0), half a win each way as a prior."""
        names = sorted({m.a for m in self.matchups} | {m.b for m in self.matchups})
        if not names:
            return {}
        wins = {(m.a, m.b): m.rate.wins + m.rate.draws / 2 + 0.5 for m in self.matchups}
        wins.update({(m.b, m.a): m.rate.losses + m.rate.draws / 2 + 0.5 for m in self.matchups})
        s = dict.fromkeys(names, 1.0)
        for _ in range(500):  # the MM algorithm (Hunter 2004)
            for i in names:
                w = sum(wins.get((i, j), 0.0) for j in names if j != i)
                d = sum(
                    (wins.get((i, j), 0.0) + wins.get((j, i), 0.0)) / (s[i] + s[j])
                    for j in names
                    if j != i
                )
                s[i] = w / d if d else s[i]
        logs = {k: math.log(v) for k, v in s.items()}
        mean = sum(logs.values()) / len(logs)
        return {k: v - mean for k, v in logs.items()}

    def elasticity(self) -> float:
        """Log-odds bought by a log point ratio (module docstring, step 4); at least 0.5."""
        if self.handicap_rate is None:
            return 2.0
        p = min(0.97, max(0.53, self.handicap_rate.rate))
        return max(0.5, math.log(p / (1 - p)) / math.log(1 + self.handicap))

    def price_floor(self) -> float:
        """The mean absolute residual left if prices made every rating equal: what a price
        per army cannot remove. Each matchup's log-odds (half a win each way as a prior) minus
        the ratings' difference is its intransitive part (and its noise); at equal ratings
        the matchup would be won at the logistic of that part."""
        beta = self.ratings()
        left = []
        for m in self.matchups:
            p = (m.rate.wins + m.rate.draws / 2 + 0.5) / (m.rate.games + 1)
            eps = math.log(p / (1 - p)) - (beta[m.a] - beta[m.b])
            left.append(abs(1 / (1 + math.exp(-eps)) - 0.5))
        return sum(left) / len(left) if left else 0.0

    def residuals(self) -> list[tuple[str, str, float]]:
        """Each matchup's win rate minus one half."""
        return [(m.a, m.b, m.rate.rate - 0.5) for m in self.matchups]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Round:
        """A round written by :meth:`to_json`."""
        rnd = cls(data["version"], data["player"], int(data["games"]))
        rnd.matchups = [
            Matchup(m["a"], m["b"], WinRate(*m["record"]), int(m["silent"]))
            for m in data["matchups"]
        ]
        rnd.handicap = float(data["handicap"])
        if data.get("handicap_record"):
            rnd.handicap_rate = WinRate(*data["handicap_record"])
        rnd.seconds = float(data.get("seconds", 0.0))
        rnd.raw = {k: float(v) for k, v in data.get("raw", {}).items()}
        rnd.points = int(data.get("points", POINTS))
        rnd.seed = None if data.get("seed") is None else int(data["seed"])
        rnd.cpu_seconds = float(data.get("cpu_seconds", 0.0))
        rnd.scale = {k: float(v) for k, v in data.get("scale", {}).items()}
        return rnd

    def to_json(self) -> dict[str, Any]:
        """The round as JSON (the study's output file)."""
        return {
            "version": self.version,
            "player": self.player,
            "games": self.games,
            "seconds": round(self.seconds, 1),
            "matchups": [
                {
                    "a": m.a,
                    "b": m.b,
                    "record": [m.rate.wins, m.rate.draws, m.rate.losses],
                    "rate": round(m.rate.rate, 4),
                    "interval": [round(x, 4) for x in m.rate.interval],
                    "silent": m.silent,
                }
                for m in self.matchups
            ],
            "handicap": self.handicap,
            "handicap_record": None
            if self.handicap_rate is None
            else [self.handicap_rate.wins, self.handicap_rate.draws, self.handicap_rate.losses],
            "elasticity": round(self.elasticity(), 3),
            "ratings": {k: round(v, 4) for k, v in self.ratings().items()},
            "raw": {k: round(v, 2) for k, v in self.raw.items()},
            **({} if self.points == POINTS else {"points": self.points}),
            **({} if self.seed is None else {"seed": self.seed}),
            **({} if not self.cpu_seconds else {"cpu_seconds": round(self.cpu_seconds, 1)}),
            **({"scale": dict(self.scale)} if self.scale else {}),
        }

    def held(self, name: str) -> int:
        """The points army ``name`` held in this round (``points``, or scaled, ``--scale``)."""
        return round(self.points * self.scale.get(name, 1.0))


def _tally(rows: Sequence[GameRow]) -> tuple[WinRate, int]:
    w = d = lost = silent = 0
    for r in rows:
        if r.winner is None:
            d += 1
        elif r.winner == "A":
            w += 1
        else:
            lost += 1
        dealt = {"A": 0.0, "B": 0.0}
        for u in r.units:
            dealt[u.roster] += u.dealt
        silent += min(dealt.values()) == 0.0
    return WinRate(w, d, lost), silent


def pairs(names: Sequence[str] = tuple(ARCHETYPES)) -> list[tuple[str, str]]:
    """Every matchup of a round among ``names``, in the order it is played: matchup ``k``'s
    games are seeded from ``seed + 1000 k``, so a matchup plays the same games whether it
    is played alone (:func:`select`) or in the whole round."""
    return list(itertools.combinations(names, 2))


def select(
    only: Sequence[str] = (),
    matchups: Sequence[tuple[str, str]] = (),
    names: Sequence[str] = tuple(ARCHETYPES),
) -> list[tuple[str, str]]:
    """The matchups of a round (:func:`pairs`) that involve an army of ``only`` or are named in
    ``matchups`` (either order), in the round's order; every matchup when both are empty.
    An army not in ``names`` raises :class:`~warbench.kernel.errors.UnknownNameError`."""
    from warbench.kernel.errors import UnknownNameError

    for name in [*only, *(n for pair in matchups for n in pair)]:
        if name not in names:
            raise UnknownNameError("archetype", name, names, where="the points study's armies")
    named = {frozenset(pair) for pair in matchups}
    everything = not only and not matchups
    return [
        (a, b)
        for a, b in pairs(names)
        if everything or a in only or b in only or frozenset((a, b)) in named
    ]


def check_scale(
    scale: Mapping[str, float], names: Sequence[str], handicap: float
) -> dict[str, float]:
    """``scale`` (army → factor of the points it holds) if every army is one of ``names`` and
    every factor lies in (0, 4]; a scaled round has no elasticity run (``handicap`` 0: the
    line's run is the ordinary round's). Else an :class:`UnknownNameError` or a
    :class:`ValueError` naming the army, the factor and what is allowed."""
    from warbench.kernel.errors import UnknownNameError

    for name, factor in scale.items():
        if name not in names:
            raise UnknownNameError("archetype", name, names, where="the points study's armies")
        if not 0 < factor <= 4:
            raise ValueError(
                f"--scale {name}={factor:g}: a factor of the points the army holds, "
                "above 0 and at most 4"
            )
    if scale and handicap > 0:
        raise ValueError(
            f"--scale {' '.join(f'{n}={f:g}' for n, f in scale.items())} with --handicap "
            f"{handicap:g}: a scaled round has no elasticity run (give --handicap 0)"
        )
    return dict(scale)


def _check_resumable(done: Round, want: Round, source: str) -> None:
    """``done`` (a partial round read from ``source``) can be continued by a run of ``want``."""
    from warbench.kernel.errors import DataFileError

    def said(r: Round) -> str:
        scaled = "".join(f", {n} × {f:g}" for n, f in sorted(r.scale.items()))
        return (
            f"{r.version} by {r.player} at {r.points} points{scaled}, seed {r.seed}, "
            f"{r.games} games a matchup, handicap {r.handicap:g}"
        )

    raw = {k: round(v, 2) for k, v in want.raw.items()}  # as its file holds them
    if said(done) != said(want) or (done.raw and done.raw != raw):
        raise DataFileError(
            source,
            f"holds a round of {said(done)}; this run plays {said(want)}: --resume continues "
            "only the same round (same version, player, points, seed, games and armies)",
        )


def play_round(
    version: str,
    games: int,
    *,
    player: str = "tactical",
    names: Sequence[str] = tuple(ARCHETYPES),
    seed: int = 0,
    backend: Backend = "processes",
    workers: int | None = None,
    handicap: float = 0.25,
    log: Any = None,
    points: int = POINTS,
    matchups: Sequence[tuple[str, str]] | None = None,
    done: Round | None = None,
    save: Callable[[Round], None] | None = None,
    scale: Mapping[str, float] | None = None,
) -> Round:
    """Every pair of archetypes ``games`` games (``games`` even: both seats on each seed),
    each army holding ``points``; an army named in ``scale`` holds ``round(points × factor)``
    (``--scale``, a handicap sweep: docs/points.md §9, round 11), on the same seeds.

    ``matchups`` (:func:`select`) plays only those pairs, each on the seeds it has in the whole
    round, so parts of a round add up with :func:`merge` to the round played at once. ``done``
    is a partial round of the same settings (``--resume``): its matchups (and its elasticity
    run) are kept and not played again. ``save`` receives the round after each matchup, so an
    interrupted run loses at most the matchup it was playing; ``log`` gets one line a game."""
    rnd = Round(version, player, games, handicap=handicap, points=points, seed=seed)
    rnd.scale = check_scale(scale or {}, names, handicap)
    rosters = {n: build_roster(n, version, rnd.held(n)) for n in names}
    rnd.raw = {n: raw_price(n, version, rnd.held(n)) for n in names}
    if done is not None:
        _check_resumable(done, rnd, "the round to resume")
        rnd.matchups = list(done.matchups)
        rnd.handicap_rate = done.handicap_rate
        rnd.seconds, rnd.cpu_seconds = done.seconds, done.cpu_seconds
    order = pairs(names)
    chosen = set(order if matchups is None else matchups)
    opts: dict[str, JSON] = {"game_length": 4}

    def play(label: str, spec: LabSpec) -> tuple[WinRate, int]:
        started, cpu = time.perf_counter(), _cpu()

        def progress(k: int, total: int) -> None:
            if log is not None:
                spent = time.perf_counter() - started
                print(f"{label}: game {k} of {total} ({spent:.0f} s)", file=log, flush=True)

        rows = run_lab(spec, games, backend=backend, workers=workers, progress=progress)
        rnd.seconds += time.perf_counter() - started
        rnd.cpu_seconds += _cpu() - cpu
        rate, silent = _tally(rows)
        if log is not None:
            print(
                f"{label}: {rate} silent {silent} ({_cpu() - cpu:.1f} CPU s, "
                f"{time.perf_counter() - started:.0f} s)",
                file=log,
                flush=True,
            )
        return rate, silent

    for k, (a, b) in enumerate(order):
        if (a, b) not in chosen or any((m.a, m.b) == (a, b) for m in rnd.matchups):
            continue
        spec = LabSpec(
            (rosters[a], rosters[b]), (player, player), options=opts, seed=seed + 1000 * k
        )
        rate, silent = play(f"{a} vs {b}", spec)
        rnd.matchups.append(Matchup(a, b, rate, silent))
        rnd.matchups.sort(key=lambda m: order.index((m.a, m.b)))
        if save is not None:
            save(rnd)
    if handicap > 0 and rnd.handicap_rate is None:
        more: Any = build_roster("line", version, round(points * (1 + handicap)))
        more["player"] = f"line +{handicap:.0%}"  # two armies need two names (§3.3)
        spec = LabSpec(
            (more, rosters.get("line") or build_roster("line", version, points)),
            (player, player),
            options=opts,
            seed=seed + 999_000,
        )
        rnd.handicap_rate, _ = play(f"line +{handicap:.0%} vs line", spec)
        if save is not None:
            save(rnd)
    return rnd


def _cpu() -> float:
    """CPU seconds of this process and of its finished worker processes."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


#: The body exponents the fit tries (``ws-points-1``: 0.75).
EXPONENTS = (0.75, 0.8, 0.85, 0.9, 0.95, 1.0)
#: The reach gaps the fit tries (inches; 0 is no reach, ``ws-points-1`` and ``-2``).
GAPS = (0.0, 18.0, 24.0, 30.0)
#: The reach turns the fit tries (the Game Turns a reference game effectively lasts).
TURNS = (2.0, 3.0, 4.0)
#: The mobility slopes the fit tries with ``--mobility`` (docs/points.md §9, round 8): the
#: whole model's price is multiplied by ``mobility_base + mobility_slope × eff / 9`` (eff =
#: Move + Dash / 2), and the fit keeps the §3.5 human on foot (6"/6", eff 9) where the version
#: has it (``mobility_base`` = its mobility at eff 9 − slope), so only how much Move and Dash
#: add is fitted. 0 is a price that Move does not raise beyond reach; no slope is negative (a
#: faster profile never costs less, docs/points.md §1).
MOBILITY_SLOPES = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5)
#: The out-ranging weights the fit tries with ``--outrange`` (``reach_outrange``, docs/points.md
#: §9, round 12): 0 is reach as before; 1 adds each Attack Phase the enemy walks unanswered
#: to the weapon's reach once more.
OUTRANGES = (0.0, 0.25, 0.3, 0.35, 0.4, 0.5, 0.75, 1.0, 1.5, 2.0)
#: Weight of the prior pulling each multiplier towards 1 (squared log), against the squared
#: error of the log prices (docs/points.md §6: "with a prior pulling towards the current
#: values").
PRIOR = 0.01


def fit(
    rnd: Round,
    reference: str = "line",
    exponents: Sequence[float] = EXPONENTS,
    gaps: Sequence[float] = GAPS,
    turns: Sequence[float] = TURNS,
    prior: float = PRIOR,
    structure: Mapping[str, float] | None = None,
    slopes: Sequence[float] | None = None,
    sweep: Sequence[Round] = (),
    outranges: Sequence[float] | None = None,
) -> dict[str, float]:
    """The body exponent, the reach gap and turns and the multipliers of body, ranged (its
    flat part and its part growing with Range) and melee points that move each archetype's
    price by ``exp(beta / k)`` (:func:`fit_targets` on the round's ratings and elasticity;
    an army whose whole models cost more than the points it holds got more for them).
    ``structure``: constants of a corrected structure (e.g. ``reach_battle_dash``) the fit
    prices with, the round's prices staying the ones it was played with. ``slopes``: the
    mobility slopes to try as well (:data:`MOBILITY_SLOPES`; ``None`` keeps the version's).
    ``sweep``: handicap sweeps of the round's version and points (``--scale``): the targets are
    then :func:`pair_targets` (each swept matchup's even points in place of its record).
    ``outranges``: the out-ranging weights to try as well (:data:`OUTRANGES`, docs/points.md
    §9, round 12; ``None`` keeps the version's)."""
    if rnd.scale:
        raise ValueError(
            f"a round with the points scaled ({rnd.scale}) is a handicap sweep, not a round "
            "at equal points: fit the ordinary round"
        )
    points = rnd.points
    if sweep:
        target = pair_targets(rnd, sweep)
    else:
        beta = rnd.ratings()
        k = rnd.elasticity()
        target = {n: beta[n] / k - math.log(rnd.raw.get(n, points) / points) for n in beta}
    return fit_targets(
        target,
        rnd.version,
        reference,
        exponents,
        gaps,
        turns,
        prior,
        structure,
        points,
        slopes,
        outranges,
    )


def pair_targets(rnd: Round, sweep: Sequence[Round]) -> dict[str, float]:
    """Each army's wanted log price move from every matchup of ``rnd`` (docs/points.md §9,
    round 12): matchup ``a`` vs ``b`` asks ``t_a − t_b = logit(win rate) / k`` (half a win
    each way as a prior, ``k`` the round's elasticity), or, where ``sweep`` played it at other
    points ratios, ``−log(ratio at 50%)`` (:func:`crossing`: ``a`` needs that many times
    ``b``'s points, so its price should fall by as much against ``b``'s); the targets are the
    least-squares solution with mean 0, less the log of what each army's whole models cost
    over its points (as :func:`fit`). Without a sweep this is the ratings' ``beta / k`` up to
    the difference between Bradley-Terry and least squares on the logits. Sweeps of another
    version or points raise a :class:`ValueError` (:func:`crossing`)."""
    import numpy as np

    k = rnd.elasticity()
    names = sorted({m.a for m in rnd.matchups} | {m.b for m in rnd.matchups})
    swept = {(m.a, m.b) for r in sweep for m in r.matchups}
    rows: list[list[float]] = []
    wanted: list[float] = []
    for m in rnd.matchups:
        p = (m.rate.wins + m.rate.draws / 2 + 0.5) / (m.rate.games + 1)
        d = math.log(p / (1 - p)) / k
        if (m.a, m.b) in swept or (m.b, m.a) in swept:
            even = crossing([rnd, *sweep], m.a, m.b).even
            if even is not None:
                d = -math.log(even)
        row = [0.0] * len(names)
        row[names.index(m.a)], row[names.index(m.b)] = 1.0, -1.0
        rows.append(row)
        wanted.append(d)
    rows.append([1.0] * len(names))  # mean 0
    wanted.append(0.0)
    t, *_ = np.linalg.lstsq(np.array(rows), np.array(wanted), rcond=None)
    return {
        n: float(t[i]) - math.log(rnd.raw.get(n, rnd.points) / rnd.points)
        for i, n in enumerate(names)
    }


def fit_targets(
    target: Mapping[str, float],
    version: str,
    reference: str = "line",
    exponents: Sequence[float] = EXPONENTS,
    gaps: Sequence[float] = GAPS,
    turns: Sequence[float] = TURNS,
    prior: float = PRIOR,
    structure: Mapping[str, float] | None = None,
    points: int = POINTS,
    slopes: Sequence[float] | None = None,
    outranges: Sequence[float] | None = None,
) -> dict[str, float]:
    """The constants that move each archetype's ``version`` price by ``exp(target)`` relative
    to the ``reference`` (whose price is held fixed): least squares on log prices over a grid
    of body exponents × reach (``reach_gap`` and ``reach_turns``, docs/points.md §8; a gap of
    0 is no reach) × multipliers of body, flat ranged, Range-growing ranged and melee points
    (0.5 to 2 in steps of 0.05), plus ``prior`` × the squared logs of the multipliers.
    ``structure`` replaces constants of ``version`` that are not fitted (a corrected reading:
    ``ws-points-4``'s ``reach_battle_dash``) in every price the fit tries; the prices to move
    stay ``version``'s. The armies are those of ``points``.

    ``slopes`` adds mobility to the grid (docs/points.md §9, round 8): each mobility slope
    ``s`` of it, with ``mobility_base`` set so a model of eff 9 (6"/6") keeps its mobility
    ``m9`` (``m9 − s``), and ``prior`` × the squared log of what ``s`` does to a 12"/12"
    model's price (eff 18: ``(m9 + s) / (m9 + version's slope)``). Mobility multiplies a
    model's whole price (body, weapons and transport alike), so every part is linear in the
    base and the slope together: each part at ``s`` is ``(m9 − s) × flat + s × steep``, from
    the parts with mobility 1 for every model (``flat``) and the version's (exact, not an
    approximation); for a version whose slope is 0 (``ws-points-5``) ``steep`` is priced
    directly, as the parts at base 1 and slope 1 less ``flat`` (docs/points.md §9, round 9).
    The result then has ``mobility_slope``.

    ``outranges`` adds the out-ranging weight (``reach_outrange``, docs/points.md §9, round 12)
    to the shapes: every shape with a reach gap is tried at each weight (a shape without reach
    has no out-ranging); the result then has ``reach_outrange``."""
    import numpy as np

    names = list(target)
    fixed = dict(structure or {})
    base = {n: composition(n, version, points=points)["total"] for n in names}
    c0 = model_data_constants(version, fixed)
    m9 = c0["mobility_base"] + c0["mobility_slope"]
    if slopes is not None and any(s < 0 for s in slopes):
        raise ValueError(
            f"mobility slopes {list(slopes)} from {version}'s slope {c0['mobility_slope']}: "
            "the fit needs slopes of 0 or more"
        )
    at18 = c0["mobility_base"] + 2 * c0["mobility_slope"]
    axis = np.arange(0.5, 2.0001, 0.05)
    xb, xr, xs, xm = np.meshgrid(axis, axis, axis, axis, indexing="ij")
    penalty = prior * (np.log(xb) ** 2 + np.log(xr) ** 2 + np.log(xs) ** 2 + np.log(xm) ** 2)
    best: tuple[float, tuple[float, float, float], tuple[float, ...], dict[str, Any]] = (
        math.inf,
        (0.75, 0.0, 4.0),
        (1.0, 1.0, 1.0, 1.0),
        {},
    )
    best_slope = c0["mobility_slope"]
    parts = ("body", "ranged", "range", "melee", "transport")
    weights: Sequence[float | None] = (None,) if outranges is None else outranges
    shapes = [(e, 0.0, turns[-1], None) for e in exponents if 0.0 in gaps] + [
        (e, g, t, w) for e, g, t, w in itertools.product(exponents, gaps, turns, weights) if g > 0
    ]
    best_outrange = c0.get("reach_outrange", 0.0)  # a shape without reach has none to fit
    for e, g, t, w in shapes:
        shape: dict[str, float] = {"body_exponent": e, "reach_gap": g, "reach_turns": t}
        if w is not None:
            shape["reach_outrange"] = w
        comp = {n: composition(n, version, points=points, **fixed, **shape) for n in names}
        tries: list[tuple[float, dict[str, dict[str, float]], float]] = [
            (c0["mobility_slope"], comp, 0.0)
        ]
        if slopes is not None:
            b0, s0 = c0["mobility_base"], c0["mobility_slope"]
            # each army's parts at the slopes needed (base 1.0): 0, and 1 for a version
            # without a slope (ws-points-5), whose steep parts are then priced directly
            by_slope = {
                slope: {
                    n: composition(
                        n,
                        version,
                        points=points,
                        **fixed,
                        **shape,
                        mobility_base=1.0,
                        mobility_slope=slope,
                    )
                    for n in names
                }
                for slope in ((0.0,) if s0 > 0 else (0.0, 1.0))
            }
            flat = by_slope[0.0]
            if s0 > 0:
                steep = {n: {p: (comp[n][p] - b0 * flat[n][p]) / s0 for p in parts} for n in names}
            else:
                steep = {n: {p: by_slope[1.0][n][p] - flat[n][p] for p in parts} for n in names}
            tries = [
                (
                    s,
                    {n: {p: (m9 - s) * flat[n][p] + s * steep[n][p] for p in parts} for n in names},
                    prior * math.log((m9 + s) / at18) ** 2,
                )
                for s in slopes
            ]
        for slope, comp_s, slope_penalty in tries:

            def price(n: str, comp: dict[str, dict[str, float]] = comp_s) -> Any:
                c = comp[n]
                return (xb * c["body"] + xr * c["ranged"] + xs * c["range"] + xm * c["melee"]) + c[
                    "transport"
                ]

            ref = np.log(price(reference) / base[reference])
            err = penalty + slope_penalty
            for n in names:
                moved = np.log(price(n) / base[n]) - ref
                err += (moved - (target[n] - target[reference])) ** 2
            i = np.unravel_index(int(np.argmin(err)), err.shape)
            if float(err[i]) < best[0] - 1e-12:
                found = (float(xb[i]), float(xr[i]), float(xs[i]), float(xm[i]))
                best = (float(err[i]), (e, g, t), found, comp_s)
                best_slope = slope
                best_outrange = w if w is not None else c0.get("reach_outrange", 0.0)
    err_best, (e, g, t), x, comp = best
    c = comp[reference]
    at = x[0] * c["body"] + x[1] * c["ranged"] + x[2] * c["range"] + x[3] * c["melee"]
    norm = base[reference] / (at + c["transport"])  # the reference keeps its price
    return (
        {
            "body_exponent": e,
            "reach_gap": g,
            "reach_turns": t,
            "body": x[0] * norm,
            "ranged": x[1] * norm,
            "range": x[2] * norm,
            "melee": x[3] * norm,
            "error": err_best,
        }
        | ({"mobility_slope": best_slope} if slopes is not None else {})
        | ({"reach_outrange": best_outrange} if outranges is not None else {})
    )


def model_data_constants(
    version: str, structure: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """``version``'s constants as a dict, with ``structure``'s in their place."""
    from warbench.rulesets.warsurge.points_models import model_data

    data: dict[str, Any] = {**model_data(version).constants.model_dump(), **(structure or {})}
    return data


def constants_for(mult: Mapping[str, float], version: str = "ws-points-1") -> dict[str, float]:
    """The refitted constants (``ws-points-2``, ``ws-points-3``) from ``version``'s and the
    fitted multipliers: the body's points scale every price (weapons are priced in bodies
    destroyed), so offence and melee weights are divided back; the reach gap and turns are
    the fitted ones (``version``'s when the fit has none)."""
    from warbench.rulesets.warsurge.points_models import model_data

    c = model_data(version).constants
    return (
        {
            "body_exponent": mult.get("body_exponent", c.body_exponent),
            "body_points": round(c.body_points * mult["body"], 3),
            "offence_factor": round(c.offence_factor * mult["ranged"] / mult["body"], 3),
            "melee_weight": round(c.melee_weight * mult["melee"] / mult["ranged"], 3),
            "range_slope": round(
                c.range_slope * mult.get("range", mult["ranged"]) / mult["ranged"], 3
            ),
            "reach_gap": mult.get("reach_gap", c.reach_gap),
            "reach_turns": mult.get("reach_turns", c.reach_turns),
        }
        | (
            {
                "mobility_base": round(
                    c.mobility_base + c.mobility_slope - mult["mobility_slope"], 3
                ),
                "mobility_slope": mult["mobility_slope"],
            }
            if "mobility_slope" in mult
            else {}
        )
        | ({"reach_outrange": mult["reach_outrange"]} if "reach_outrange" in mult else {})
    )


def merge(rounds: Sequence[Round]) -> Round:
    """Rounds of the same version, player, points and armies as one round of all their games:
    rounds played on other seeds (``--seed``) and parts of a round (other matchups,
    ``--only``/``--matchups``) alike. Each matchup's and the elasticity run's records are
    added; ``games`` is the most games a matchup then has. The same games twice (a matchup
    played on overlapping seeds, in rounds that record their seed) are refused."""
    first = rounds[0]
    out = Round(first.version, first.player, 0, handicap=first.handicap, points=first.points)
    out.raw = dict(first.raw)
    out.scale = dict(first.scale)
    index: dict[tuple[str, str], Matchup] = {}
    played: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for rnd in rounds:
        if rnd.scale != first.scale:
            raise ValueError(
                f"rounds with the armies' points scaled by {first.scale or 'nothing'} and "
                f"{rnd.scale or 'nothing'}: other armies (merge only the same scaling)"
            )
        same = (rnd.version, rnd.player, rnd.points, rnd.raw)
        if same != (first.version, first.player, first.points, first.raw):
            raise ValueError(f"round of {rnd.version} at {rnd.points} points: other armies")
        if rnd.handicap_rate is not None:
            if out.handicap_rate is not None and rnd.handicap != out.handicap:
                raise ValueError(
                    f"elasticity runs with {out.handicap:g} and {rnd.handicap:g} more points"
                )
            out.handicap = rnd.handicap
        out.seconds += rnd.seconds
        out.cpu_seconds += rnd.cpu_seconds
        for m in rnd.matchups:
            if rnd.seed is not None:
                seeds = (rnd.seed, rnd.seed + (m.rate.games + 1) // 2)
                for lo, hi in played.get((m.a, m.b), []):
                    if seeds[0] < hi and lo < seeds[1]:
                        raise ValueError(
                            f"{m.a} vs {m.b}: seeds {max(lo, seeds[0])}-"
                            f"{min(hi, seeds[1]) - 1} in two rounds (the same games twice)"
                        )
                played.setdefault((m.a, m.b), []).append(seeds)
            got = index.get((m.a, m.b))
            if got is None:
                got = index[(m.a, m.b)] = Matchup(m.a, m.b, WinRate(0, 0, 0))
                out.matchups.append(got)
            r = got.rate
            got.rate = WinRate(
                r.wins + m.rate.wins, r.draws + m.rate.draws, r.losses + m.rate.losses
            )
            got.silent += m.silent
        if rnd.handicap_rate is not None:
            h = out.handicap_rate or WinRate(0, 0, 0)
            x = rnd.handicap_rate
            out.handicap_rate = WinRate(h.wins + x.wins, h.draws + x.draws, h.losses + x.losses)
    order = {pair: i for i, pair in enumerate(pairs(list(out.raw)))}
    out.matchups.sort(key=lambda m: order.get((m.a, m.b), len(order)))
    totals = [m.rate.games for m in out.matchups]
    if out.handicap_rate is not None:
        totals.append(out.handicap_rate.games)
    out.games = max(totals, default=0)
    seeds_of = {rnd.seed for rnd in rounds}
    out.seed = seeds_of.pop() if len(seeds_of) == 1 else None
    return out


def with_elasticity(rnd: Round, other: Round) -> Round:
    """``rnd`` with ``other``'s elasticity run (its handicap and record) in place of its own:
    the same version and armies (``points`` and ``raw``), or, for a round of another version
    (docs/points.md §9, round 9), the same two armies in the run itself (the line at
    ``points`` and at ``points × (1 + handicap)``, built alike under both versions: then the
    run's games are the ones ``rnd``'s version would play); else a :class:`ValueError`."""
    import dataclasses

    if other.handicap_rate is None:
        raise ValueError("the elasticity round has no elasticity run (handicap_record)")
    if other.points != rnd.points or (other.version == rnd.version and other.raw != rnd.raw):
        raise ValueError(
            f"elasticity run of {other.version} at {other.points} points for a round of "
            f"{rnd.version} at {rnd.points} points: other armies"
        )
    if other.version != rnd.version:
        sizes = (rnd.points, round(rnd.points * (1 + other.handicap)))
        for size in sizes:
            if build_roster("line", other.version, size) != build_roster("line", rnd.version, size):
                raise ValueError(
                    f"elasticity run of {other.version} for a round of {rnd.version}: the line "
                    f"at {size} points is another army under the two versions (the run's "
                    f"armies must be the same: line at {sizes[0]} and {sizes[1]} points)"
                )
    return dataclasses.replace(rnd, handicap=other.handicap, handicap_rate=other.handicap_rate)


@dataclass(frozen=True)
class Crossing:
    """A matchup played at several points ratios (a handicap sweep, ``--scale``): each
    ratio of ``a``'s points to ``b``'s with ``a``'s record there, the logistic fitted through
    them (``a``'s log-odds = ``alpha + k × log ratio``, half a win each way at each ratio as a
    prior, as :meth:`Round.ratings`), and the ratio at which ``a`` would win half its games
    (``None`` when the games show no slope: ``k`` ≤ 0)."""

    a: str
    b: str
    levels: tuple[tuple[float, WinRate], ...]
    alpha: float
    k: float

    @property
    def even(self) -> float | None:
        """The points ratio (``a``'s over ``b``'s) at which ``a``'s fitted win rate is 50%."""
        return math.exp(-self.alpha / self.k) if self.k > 0 else None


def crossing(rounds: Sequence[Round], a: str, b: str) -> Crossing:
    """The handicap sweep of ``a`` against ``b`` (:class:`Crossing`) over ``rounds`` (of one
    version and points; ordinary or scaled, ``--scale``), from every round that played it.
    Fewer than two ratios, or rounds of other versions or points, raise a :class:`ValueError`
    naming them."""
    first = rounds[0]
    levels: dict[float, WinRate] = {}
    for rnd in rounds:
        if (rnd.version, rnd.points) != (first.version, first.points):
            raise ValueError(
                f"a sweep of {first.version} at {first.points} points holds a round of "
                f"{rnd.version} at {rnd.points} points"
            )
        for m in rnd.matchups:
            if {m.a, m.b} != {a, b}:
                continue
            rate = m.rate if m.a == a else WinRate(m.rate.losses, m.rate.draws, m.rate.wins)
            ratio = round(rnd.held(a) / rnd.held(b), 6)
            got = levels.get(ratio, WinRate(0, 0, 0))
            levels[ratio] = WinRate(
                got.wins + rate.wins, got.draws + rate.draws, got.losses + rate.losses
            )
    if len(levels) < 2:
        raise ValueError(
            f"{a} vs {b}: played at {len(levels)} points ratio(s) {sorted(levels)}; a sweep "
            "needs two or more"
        )
    xs = [(math.log(r), w.wins + w.draws / 2 + 0.5, w.games + 1.0) for r, w in levels.items()]
    alpha = k = 0.0
    for _ in range(100):  # Newton's method on the binomial log-likelihood
        g0 = g1 = h00 = h01 = h11 = 0.0
        for x, won, n in xs:
            p = 1 / (1 + math.exp(-(alpha + k * x)))
            g0 += won - n * p
            g1 += (won - n * p) * x
            v = n * p * (1 - p)
            h00, h01, h11 = h00 + v, h01 + v * x, h11 + v * x * x
        det = h00 * h11 - h01 * h01
        if det <= 0:
            break
        da, dk = (h11 * g0 - h01 * g1) / det, (h00 * g1 - h01 * g0) / det
        alpha, k = alpha + da, k + dk
        if abs(da) + abs(dk) < 1e-12:
            break
    return Crossing(a, b, tuple(sorted(levels.items())), alpha, k)


def sweep_table(rounds: Sequence[Round]) -> str:
    """The handicap sweeps in ``rounds`` as a docs/points.md table: every matchup played at two
    or more points ratios, its record at each, the fitted slope ``k`` and the ratio at 50%
    (:func:`crossing`)."""
    found: dict[tuple[str, str], set[float]] = {}
    for rnd in rounds:
        for m in rnd.matchups:
            found.setdefault((m.a, m.b), set()).add(round(rnd.held(m.a) / rnd.held(m.b), 6))
    lines = [
        "| matchup | A's points ÷ B's: A's record | k | A's points ÷ B's at 50% |",
        "| --- | --- | --- | --- |",
    ]
    for a, b in [pair for pair, ratios in found.items() if len(ratios) > 1]:
        c = crossing(rounds, a, b)
        cells = ", ".join(f"{r:.2f}: {w.wins}-{w.draws}-{w.losses}" for r, w in c.levels)
        even = "none (no slope)" if c.even is None else f"{c.even:.2f}"
        lines.append(f"| {a} vs {b} | {cells} | {c.k:.2f} | {even} |")
    return "\n".join(lines)


def fill(version: str, points: int, names: Sequence[str] = tuple(ARCHETYPES)) -> dict[str, float]:
    """What each army's whole models cost under ``version`` over the ``points`` it is listed
    at (:func:`raw_price` ÷ ``points``; docs/points.md §9, round 13): 1 when the models add
    up to the listing, above 1 when rounding to whole models gives the army more than it
    pays for (two Behemoths listed at 1,100 points cost 1,408: 1.28)."""
    return {n: raw_price(n, version, points) / points for n in names}


def fill_table(version: str, levels: Sequence[int]) -> str:
    """:func:`fill` at each of ``levels`` as a docs/points.md table: a row a level, a column an
    army, and the level's widest miss (``max |log fill|`` as a ratio): where a round's armies
    are what their points say."""
    rows = {level: fill(version, level) for level in levels}
    names = list(ARCHETYPES)
    lines = [
        "| points | " + " | ".join(names) + " | widest |",
        "| --- | " + " | ".join("---" for _ in names) + " | --- |",
    ]
    for level, f in rows.items():
        widest = max(f.values(), key=lambda x: abs(math.log(x)))
        cells = " | ".join(f"{f[n]:.3f}" for n in names)
        lines.append(f"| {level} | {cells} | {widest:.3f} |")
    return "\n".join(lines)


def games_for(half_width: float = 0.05, z: float = 1.96) -> int:
    """Games a matchup needs for a 95% interval of ``± half_width`` around a 50% win rate."""
    return math.ceil(z * z * 0.25 / (half_width * half_width))


def noise_floor(games: int, within: float = 0.05) -> tuple[float, float]:
    """What perfect prices would still show with ``games`` games a matchup (no draws): the
    expected absolute residual of a fair coin's win rate, and the chance it lands within
    ``± within`` of 50%."""
    mean = hit = 0.0
    for x in range(games + 1):
        p = math.comb(games, x) / 2**games
        r = abs(x / games - 0.5)
        mean += p * r
        hit += p * (r <= within + 1e-12)
    return mean, hit


def compare(rounds: Sequence[tuple[str, Round]]) -> str:
    """Rounds side by side (docs/points.md §8): mean absolute residual, matchups within
    50 ± 5% (with the 95% Wilson interval of that share), matchups whose own 95% interval
    holds 50%, and the spread of the ratings; then what 12 games can and cannot show."""
    from warbench.sim.stats import wilson

    lines = [
        "| round | mean absolute residual | within 50 ± 5% [95%] | interval holds 50% "
        "| spread of the ratings | left at equal ratings |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for label, rnd in rounds:
        res = [abs(r) for _, _, r in rnd.residuals()]
        within = sum(r <= 0.05 + 1e-12 for r in res)
        lo, hi = wilson(within, len(res))
        holds = sum(m.rate.interval[0] <= 0.5 <= m.rate.interval[1] for m in rnd.matchups)
        beta = rnd.ratings()
        top = max(beta, key=lambda n: beta[n])
        low = min(beta, key=lambda n: beta[n])
        lines.append(
            f"| {label} | {sum(res) / len(res):.1%} | {within} of {len(res)} [{lo:.0%}, {hi:.0%}]"
            f" | {holds} of {len(res)} | {beta[top] - beta[low]:.2f} ({top} {beta[top]:+.2f} … "
            f"{low} {beta[low]:+.2f}) | {rnd.price_floor():.1%} |"
        )
    games = rounds[0][1].games if rounds else 12
    mean, hit = noise_floor(games)
    lines += [
        "",
        f"With {games} games a matchup, even exact prices would show a mean absolute residual "
        f"of about {mean:.1%} and put only {hit:.0%} of matchups within 50 ± 5% (a fair "
        f"coin's {games} tosses); a 95% interval of ± 5 points needs {games_for()} games a "
        "matchup. *Left at equal ratings* is the mean residual a price per army cannot "
        "remove (the matchups' intransitive part, plus their noise).",
    ]
    return "\n".join(lines)


def markdown(rnd: Round) -> str:
    """The round as the tables of docs/points.md: each matchup's win rate of the first army
    with its 95% interval and residual, then each archetype's rating."""
    lines = [
        f"{rnd.version}, player `{rnd.player}`, {rnd.games} games per matchup"
        + ("" if rnd.points == POINTS else f", {rnd.points} points an army")
        + ":",
        "",
        "| matchup | A's win rate [95%] | residual | silent |",
        "| --- | --- | --- | --- |",
    ]
    for m in rnd.matchups:
        lo, hi = m.rate.interval
        lines.append(
            f"| {m.a} vs {m.b} | {m.rate.rate:.1%} [{lo:.0%}, {hi:.0%}] "
            f"({m.rate.wins}-{m.rate.draws}-{m.rate.losses}) | {m.rate.rate - 0.5:+.1%} "
            f"| {m.silent} |"
        )
    res = [abs(r) for _, _, r in rnd.residuals()]
    within = sum(r <= 0.05 for r in res)
    lines += [
        "",
        f"Mean absolute residual {sum(res) / len(res):.1%}, largest {max(res):.1%}; "
        f"{within} of {len(res)} matchups within 50 ± 5%."
        if res
        else "No matchups (an elasticity run alone).",
        "",
        "| archetype | rating (log-strength) | listed/whole-model price |",
        "| --- | --- | --- |",
    ]
    for name, beta in sorted(rnd.ratings().items(), key=lambda kv: -kv[1]):
        ratio = rnd.points / rnd.raw[name] if name in rnd.raw else 1.0
        lines.append(f"| {name} | {beta:+.2f} | {ratio:.3f} |")
    if rnd.handicap_rate is not None:
        lines += [
            "",
            f"Line troopers with {1 + rnd.handicap:.2f}× the points against themselves: "
            f"{rnd.handicap_rate}; elasticity k = {rnd.elasticity():.2f} log-odds per "
            "log point ratio.",
        ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """The study's command (module docstring)."""
    ap = argparse.ArgumentParser(prog="python -m warbench.sim.points_study")
    ap.add_argument("--games", type=int, default=16, help="games per matchup (even)")
    ap.add_argument("--version", default="ws-points-1")
    ap.add_argument("--player", default="tactical")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--points",
        type=int,
        default=POINTS,
        help="points each army holds (more holds several of the biggest models)",
    )
    ap.add_argument(
        "--battle-dash",
        action="store_true",
        help="fit with ws-points-4's reading: Battle weapons Dash on the way into Range",
    )
    ap.add_argument(
        "--only",
        nargs="+",
        default=(),
        metavar="ARMY",
        help="play only the matchups of these armies (each on its seeds in the whole round)",
    )
    ap.add_argument(
        "--matchups",
        nargs="+",
        default=(),
        metavar="A:B",
        help="play only these matchups (each on its seeds in the whole round)",
    )
    ap.add_argument(
        "--handicap",
        type=float,
        default=0.25,
        help="the elasticity run's extra points for the line (0: no elasticity run)",
    )
    ap.add_argument(
        "--out",
        default=None,
        help="write the round as JSON here (after every matchup, so a run can be resumed)",
    )
    ap.add_argument(
        "--resume",
        action="store_true",
        help="keep the matchups already in --out and play the rest",
    )
    ap.add_argument("--fit", action="store_true", help="fit ws-points-2 multipliers")
    ap.add_argument(
        "--mobility",
        action="store_true",
        help="fit the mobility slope as well (docs/points.md §9, round 8)",
    )
    ap.add_argument(
        "--outrange",
        action="store_true",
        help="fit the out-ranging weight as well (docs/points.md §9, round 12)",
    )
    ap.add_argument(
        "--fit-sweep",
        nargs="+",
        default=(),
        metavar="FILE",
        help="fit to the round with these handicap sweeps' even points (docs/points.md §9, "
        "round 12)",
    )
    ap.add_argument(
        "--elasticity",
        default=None,
        metavar="FILE",
        help="fit with the elasticity run of this round file (e.g. a smaller handicap)",
    )
    ap.add_argument("--from", dest="source", default=None, help="fit a round saved by --out")
    ap.add_argument("--markdown", action="store_true", help="print the docs/points.md tables")
    ap.add_argument(
        "--merge",
        nargs="+",
        default=None,
        metavar="FILE",
        help="rounds saved by --out on other seeds: write them as one round (--out)",
    )
    ap.add_argument(
        "--scale",
        nargs="+",
        default=(),
        metavar="ARMY=FACTOR",
        help="these armies hold FACTOR times the points (a handicap sweep; with --handicap 0)",
    )
    ap.add_argument(
        "--sweep",
        nargs="+",
        default=None,
        metavar="FILE",
        help="rounds saved by --out, some with --scale: print each matchup's handicap sweep",
    )
    ap.add_argument(
        "--fill",
        nargs="+",
        type=int,
        default=None,
        metavar="POINTS",
        help="print what each army's whole models cost over its points at these levels",
    )
    ap.add_argument(
        "--compare",
        nargs="+",
        default=None,
        metavar="[LABEL=]FILE",
        help="rounds saved by --out: print them side by side",
    )
    args = ap.parse_args(argv)
    from warbench.kernel.errors import DataFileError

    if args.compare:
        rounds = []
        for arg in args.compare:
            label, _, path = arg.rpartition("=")
            rounds.append((label or path, _read_round(path)))
        print(compare(rounds))
        return
    if args.sweep:
        print(sweep_table([_read_round(path) for path in args.sweep]))
        return
    if args.fill:
        print(fill_table(args.version, args.fill))
        return
    scale: dict[str, float] = {}
    for text in args.scale:
        name, eq, factor = text.partition("=")
        try:
            scale[name] = float(factor)
        except ValueError:
            eq = ""
        if not eq or not name:
            ap.error(f"--scale {text}: an army and a factor joined by '=', e.g. gunline=0.8")
    if args.merge:
        rnd = merge([_read_round(path) for path in args.merge])
    elif args.source:
        rnd = _read_round(args.source)
    else:
        pairs_asked = []
        for text in args.matchups:
            a, colon, b = text.partition(":")
            if not colon or not a or not b:
                ap.error(f"--matchups {text}: two armies joined by ':', e.g. big:line")
            pairs_asked.append((a, b))
        chosen = select(args.only, pairs_asked) if args.only or pairs_asked else None
        done = None
        if args.resume:
            if not args.out:
                ap.error("--resume continues the round in --out FILE: give --out")
            try:
                with open(args.out, encoding="utf-8") as fh:
                    done = Round.from_json(json.load(fh))
            except FileNotFoundError:
                done = None  # nothing played yet: start the round
        out_path = args.out

        def save(part: Round) -> None:
            if out_path:
                _write(out_path, json.dumps(part.to_json(), indent=1))

        try:
            rnd = play_round(
                args.version,
                args.games,
                player=args.player,
                seed=args.seed,
                workers=args.workers,
                log=sys.stderr,
                points=args.points,
                handicap=args.handicap,
                matchups=chosen,
                done=done,
                save=save,
                scale=scale,
            )
        except DataFileError as err:  # the round to resume: name its file
            raise DataFileError(str(args.out), err.reason) from None
    if args.elasticity:
        try:
            rnd = with_elasticity(rnd, _read_round(args.elasticity))
        except ValueError as err:  # another round's armies, or no run: name the file
            raise DataFileError(args.elasticity, str(err)) from None
    out = rnd.to_json()
    if args.fit:
        structure = {"reach_battle_dash": True} if args.battle_dash else None
        extra: dict[str, Any] = {}
        if args.outrange:
            extra["outranges"] = OUTRANGES
        if args.fit_sweep:
            extra["sweep"] = [_read_round(path) for path in args.fit_sweep]
        if args.mobility:
            mult = fit(rnd, structure=structure, slopes=MOBILITY_SLOPES, **extra)
        else:  # the call of every fit before round 8 (with neither option)
            mult = fit(rnd, structure=structure, **extra)
        consts: dict[str, Any] = constants_for(mult, rnd.version)
        out["fit"] = {"multipliers": mult, "constants": {**consts, **(structure or {})}}
    text = json.dumps(out, indent=1)
    if args.out:
        _write(args.out, text)
    if args.markdown:
        print(markdown(rnd))
        if args.fit:
            print("\n" + json.dumps(out["fit"], indent=1))
        return
    print(text)


def _read_round(path: str) -> Round:
    """A round saved by ``--out``, or a :class:`DataFileError` naming the file and what is
    wrong with it (missing, not JSON, not a round)."""
    from warbench.kernel.errors import DataFileError

    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        raise DataFileError(path, "no such file (a round saved by --out)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise DataFileError(path, f"not a round saved by --out: {err}") from None
    try:
        return Round.from_json(data)
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise DataFileError(path, f"not a round saved by --out: {err!r} missing or wrong") from None


def cli(argv: Sequence[str] | None = None) -> None:
    """``python -m warbench.sim.points_study``: :func:`main`, with a bad file, name or round
    said in one line on standard error and exit status 1, not a traceback."""
    from warbench.kernel.errors import WarbenchError

    try:
        main(argv)
    except (WarbenchError, ValueError) as err:
        raise SystemExit(f"points_study: {err}") from None


def _write(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a run stopped mid-write keeps the last
    round saved)."""
    import os

    part = f"{path}.part"
    with open(part, "w", encoding="utf-8") as fh:
        fh.write(text + "\n")
    os.replace(part, path)


if __name__ == "__main__":  # pragma: no cover
    cli()
