"""WARSURGE's search hooks: determinise a view, evaluate a position with the exact odds engine.

* **Determinisation.** A WARSURGE view shows the whole table (every unit's models, HP,
  statuses, the flow); what a player cannot see is the dice still to come (decided by the
  state's seed), and under the set-up options ``hide_reserves`` / ``hide_roster_value`` the
  other sides' units in Reserve and their point values. The determinizer writes the view back
  as a protocol state (``ruleset.states.load``) with the set-up every seat knows (the
  rosters), the hidden Reserve units as the rosters list them, and a fresh seed per playout.
  Flow fields a view does not carry are derived: the activation order is clockwise from the
  Turn Master by Deployment Zone (Core Rules 001_d3f5e425c5e1196d.txt §2.1, §3.3).
* **Evaluation.** The share of the point value still on the battlefield (what decides the
  game, §2.2 step 8), moved by the balance of threats: for every unit on the table, the
  expected point value its best target loses to one attack (exact odds, ``warbench.api.odds``,
  cached per pair of units), scaled by the models it has left; a target counts when it is
  within the weapon's Range plus half the unit's Move (shooting) or within Move plus Dash of a
  0" weapon (a charge). Line of sight and cover are not counted. The balance is divided by the
  value on the battlefield and weighs half (:data:`THREAT_WEIGHT`).
* **Candidates.** The default (the scripted AI's choice) first, then the engine's listed
  candidates taking one unit at a time in turn, so a narrow search still sees several units;
  Pass (which ends the side's phase, not one unit's turn) only when it is the default.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from warbench.ai.hooks import Determinizer, distinct_candidates
from warbench.kernel.errors import WarbenchError
from warbench.play.core import JSON, Decision, LegalActions, Ruleset, SetupArgs

#: How much the expected damage of the next attacks weighs against points already lost.
THREAT_WEIGHT = 0.5
#: The share of its Move a unit is counted on to close before it shoots.
MOVE_SHARE = 0.5

_HIDING = ("hide_roster_value", "hide_reserves")


class WarsurgeHooks:
    """Search hooks for the ``warsurge`` ruleset (module docstring)."""

    def __init__(self, ruleset: Ruleset[Any, Any, Any]) -> None:
        self.ruleset = ruleset
        self._initial: dict[str, list[JSON]] = {}
        self._odds: dict[tuple[int, int, bool], float] = {}
        self._prior: Any = None

    # -- determinisation -----------------------------------------------------------------
    def determinizer(self, view: Any, player: int, knowledge: SetupArgs) -> Determinizer:
        """States agreeing with ``view``; the seed of each is the playout's (future dice)."""
        options = {k: v for k, v in dict(knowledge.options).items() if k not in _HIDING}
        setup = {"rosters": list(knowledge.rosters), "board": knowledge.board, "options": options}
        seen = {int(u["uid"]): u for u in view["units"]}
        units = [seen.get(int(u["uid"]), u) for u in self._initial_units(setup)]
        zones = [s["zone"] for s in view["sides"]]
        tm = view.get("turn_master")
        active = view["active"]
        base = {
            "setup": setup,
            "step": 0,
            "flow": {
                "turn": view["turn"],
                "phase": view["phase"],
                "turn_master": tm,
                "rolloff_winner": active if view["phase"] == "Turn Master" else tm,
                "roll_order": _roll_order(active, len(zones)),
                "order": _clockwise(tm, zones) if tm is not None else [],
                "active": active,
                "passed": list(view.get("passed", [])),
                # the Advanced playstyle's public flow (Command Points, the Action Step, §9)
                **({"advanced": view["advanced"]} if "advanced" in view else {}),
            },
            "engaged": view.get("engaged", []),
            "zones": zones,
            "units": units,
            "result": None,
            "scripted": [],
            # destructible terrain's HP (§10.3) and the pieces that attacked (§10.2): public
            **(
                {"terrain_hp": [list(t) for t in view["terrain_hp"].items()]}
                if "terrain_hp" in view
                else {}
            ),
            **({"pieces_acted": list(view["pieces_acted"])} if "pieces_acted" in view else {}),
        }
        load = self.ruleset.states.load

        def make(seed: int) -> Any:
            return load({**base, "seed": seed})

        return make

    def _initial_units(self, setup: Mapping[str, JSON]) -> list[JSON]:
        """Every unit as the game starts (in Reserve), for the units a view hides."""
        from warbench.play.core import canonical

        key = canonical(setup)
        hit = self._initial.get(key)
        if hit is None:
            start = self.ruleset.setup(setup["rosters"], setup["board"], setup["options"], 0)
            hit = self._initial[key] = list(self.ruleset.states.dump(start)["units"])
        return hit

    # -- evaluation ------------------------------------------------------------------------
    def evaluate(self, state: Any, player: int) -> float:
        """Share of the value on the battlefield, moved by the balance of threats (0 to 1)."""
        view = self.ruleset.view(state, player)
        values = [float(s.get("value", 0.0)) for s in view["sides"]]
        total = sum(float(s.get("roster_points", 0.0)) for s in view["sides"]) or 1.0
        alive = sum(values)
        share = values[player] / alive if alive > 0 else 0.5
        threat = self._threats(state, view)
        mine = threat[player]
        theirs = sum(threat) - mine
        score = share + THREAT_WEIGHT * (mine - theirs) / (alive or total)
        return min(1.0, max(0.0, score))

    def _threats(self, state: Any, view: Mapping[str, Any]) -> list[float]:
        """Per side: the expected value its units take off their best reachable target."""
        sides = len(view["sides"])
        out = [0.0] * sides
        table = [u for u in view["units"] if u["loc"] == "table"]
        where = {}
        for u in table:
            living = [p for p, gone in zip(u["pos"], u["removed"], strict=True) if not gone]
            if living:
                xs = sum(p[0] for p in living) / len(living)
                ys = sum(p[1] for p in living) / len(living)
                where[u["uid"]] = (xs, ys, len(living))
        game = state.game
        for u in table:
            a = u["uid"]
            if a not in where:
                continue
            ax, ay, n = where[a]
            info = game.info(a)
            move = float(info.unit.profile.move)
            reach = float(info.unit.profile.move + info.unit.profile.dash)
            frac = n / max(1, info.models)
            best = 0.0
            for t in table:
                b = t["uid"]
                if t["side"] == u["side"] or b not in where:
                    continue
                bx, by, _ = where[b]
                dist = math.hypot(ax - bx, ay - by)
                worth = float(t.get("value", 0.0))
                for melee, rng in ((False, MOVE_SHARE * move), (True, reach)):
                    longest = max(
                        (w[1] for w in u["weapons"].values() if (w[1] <= 1) == melee),
                        default=None,
                    )
                    if longest is None or dist > longest + rng + 2 * info.radius:
                        continue
                    lost = self._expected_fraction(game, a, b, melee)
                    best = max(best, frac * lost * worth)
            out[u["side"]] += best
        return out

    def _expected_fraction(self, game: Any, a: int, b: int, melee: bool) -> float:
        """The fraction of ``b``'s HP one attack by ``a`` is expected to take (full units)."""
        key = (a, b, melee)
        hit = self._odds.get(key)
        if hit is None:
            from warbench.api import odds

            ta = game.info(b)
            try:
                lost = odds(game.info(a).unit, ta.unit, melee=melee).expected_hp_lost
            except WarbenchError:
                lost = 0.0
            hit = self._odds[key] = min(1.0, float(lost) / max(1, ta.max_hp))
        return hit

    # -- prior -----------------------------------------------------------------------------
    def prior(self, state: Any, player: int, decision: Decision[Any]) -> Any:
        """The first candidate of an activation: the tactical player's choice on this
        determinised state (``ai.tactical``; it remembers, like a player, what it did this
        phase); ``None`` for other decisions (their default stays first)."""
        if decision.kind != "activation":
            return None
        if self._prior is None:
            from warbench.ai.tactical import TacticalBot

            self._prior = TacticalBot()
        from warbench.ai.tactical import bot_action

        # states of different playouts share a phase: what the bot remembered of one
        # (units with nothing to do) does not hold in another
        self._prior.forget()
        return bot_action(self._prior, state.game)

    # -- candidates ------------------------------------------------------------------------
    def candidates(
        self,
        state: Any,
        player: int,
        legal: LegalActions[Any],
        decision: Decision[Any],
        limit: int,
    ) -> list[Any]:
        """The default, then the listed candidates one unit at a time in turn. A Pass ends
        the side's whole phase (Core Rules §2.2), not one unit's activation, so it is a
        candidate only when it is the default (the scripted AI passes when no unit has
        anything left to do)."""
        dump = self.ruleset.actions.dump
        by_unit: dict[object, list[Any]] = {}
        for a in legal:
            if a != decision.default and dump(a).get("kind") == "pass":
                continue
            by_unit.setdefault(getattr(a, "unit", None), []).append(a)
        interleaved: list[Any] = []
        queues = list(by_unit.values())
        depth = 0
        while any(depth < len(q) for q in queues):
            interleaved.extend(q[depth] for q in queues if depth < len(q))
            depth += 1
        return distinct_candidates(decision.default, interleaved, limit)


def _clockwise(turn_master: int, zones: list[int | None]) -> list[int]:
    """Sides clockwise from the Turn Master by Deployment Zone (§2.1, §3.3)."""
    start = zones[turn_master] or 0
    nz = max(len(zones), max((z or 0) for z in zones) + 1)
    return sorted(range(len(zones)), key=lambda s: ((zones[s] or 0) - start) % nz)


def _roll_order(active: int | None, sides: int) -> list[int]:
    first = active if active is not None else 0
    return [first] + [s for s in range(sides) if s != first]
