"""Dice Duel: a tiny complete ruleset that proves the protocol ruleset-neutral.

It has every feature a wargame needs from the protocol, in a hundred lines of rules: an
explicit chance step, simultaneous secret decisions, a continuous move with a default, dice
rolled inside ``apply``, a "may" with the engine's automatic choice, hidden information and a
result with scores. The conformance suite (:mod:`warbench.play.conformance`) runs on it.

The rules ("toy §n" in refusals and events):

* §1 Two duellists face each other on a line of ``length`` inches: duellist 0 at 0, duellist
  1 at ``length``. Each roster gives a ``name``, ``hp`` (1-20) and ``shields`` (0-5, hidden
  from the opponent: a hidden reserve). Option ``rounds`` (default 5), option ``hide_hp``
  (the opponent's HP is hidden, like the app's "hide roster value").
* §2 Each round starts with a roll for initiative: each duellist has it with chance 1/2.
* §3 Both duellists choose a stance at once, in secret: ``attack`` or ``guard``. The stances
  are revealed when both have chosen.
* §4 The duellist with initiative moves first, then the other: to any point within
  ``speed`` inches (default 3) of where they stand, staying on the line and never passing
  the foe. The automatic choice: toward the foe by the full distance.
* §5 Then each attacking duellist, in initiative order, strikes if the foe is within
  ``reach`` (default 2) inches: a D6, hitting on 4+, or 5+ against a guarding foe.
* §6 A duellist who is hit **may** spend a shield to cancel the hit. The automatic choice:
  spend one only if the hit would take the last HP. Otherwise the hit costs 1 HP.
* §7 A duellist at 0 HP loses at once. After the last round the duellist with more HP wins;
  equal HP is a draw. Scores are the remaining HP.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

from pydantic import Field

from warbench.kernel.dice import Dice
from warbench.kernel.errors import ProfileError
from warbench.play.codec import TypeCodec
from warbench.play.core import (
    CHANCE,
    JSON,
    Decision,
    Event,
    Refusal,
    Result,
    digest_of,
    step_dice,
)
from warbench.play.legal import Family, Interval, LegalSet

Phase = Literal["initiative", "stance", "move", "shield", "over"]
StanceName = Literal["attack", "guard"]


# --------------------------------------------------------------------------------------------
# Actions, state, view
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Initiative:
    """Chance's outcome: which duellist has initiative this round (§2)."""

    first: int
    kind: Literal["initiative"] = "initiative"


@dataclass(frozen=True)
class Stance:
    """A duellist's secret stance for the round (§3)."""

    stance: StanceName
    kind: Literal["stance"] = "stance"


@dataclass(frozen=True)
class Move:
    """Move to the point ``to`` on the line (§4)."""

    to: float
    kind: Literal["move"] = "move"


@dataclass(frozen=True)
class Shield:
    """Spend a shield to cancel a hit, or not (§6)."""

    use: bool
    kind: Literal["shield"] = "shield"


DuelAction = Initiative | Stance | Move | Shield
_ACTION = Annotated[DuelAction, Field(discriminator="kind")]


@dataclass(frozen=True)
class DuelState:
    """The whole duel at one moment (frozen). Flow (round, phase, first, who is still to
    move, strikes left, the hit awaiting a shield) is kept apart from the duellists."""

    names: tuple[str, str]
    length: float
    speed: float
    reach: float
    rounds: int
    hide_hp: bool
    seed: int
    step: int = 0
    round: int = 1
    phase: Phase = "initiative"
    first: int | None = None
    to_move: tuple[int, ...] = ()
    strikes: tuple[int, ...] = ()
    hit_by: int | None = None
    hp: tuple[int, int] = (1, 1)
    shields: tuple[int, int] = (0, 0)
    pos: tuple[float, float] = (0.0, 0.0)
    stance: tuple[StanceName | None, StanceName | None] = (None, None)
    winner: int | None = None
    reason: str = ""


@dataclass(frozen=True)
class DuelView:
    """What one duellist may see: ``None`` where the value is hidden from them."""

    player: int
    names: tuple[str, str]
    length: float
    speed: float
    reach: float
    rounds: int
    round: int
    phase: Phase
    first: int | None
    pos: tuple[float, float]
    hp: tuple[int | None, int | None]
    shields: tuple[int | None, int | None]
    stance: tuple[StanceName | None, StanceName | None]
    winner: int | None


RULE = {n: f"toy §{n}" for n in range(1, 8)}


def _other(p: int) -> int:
    return 1 - p


# --------------------------------------------------------------------------------------------
# The ruleset
# --------------------------------------------------------------------------------------------


class DiceDuel:
    """The Dice Duel ruleset (see the module docstring for its rules)."""

    id = "toy-duel"
    version = "toy-duel-1"

    def __init__(self) -> None:
        self.actions: TypeCodec[DuelAction] = TypeCodec(_ACTION, "toy-duel action")
        self.states: TypeCodec[DuelState] = TypeCodec(DuelState, "toy-duel state")
        self.views: TypeCodec[DuelView] = TypeCodec(DuelView, "toy-duel view")

    # -- setup -----------------------------------------------------------------------------
    def setup(
        self, rosters: Sequence[JSON], board: JSON, options: Mapping[str, JSON], seed: int
    ) -> DuelState:
        """§1: two rosters ``{name, hp, shields}``; board ``{length, speed, reach}``."""
        if len(rosters) != 2:
            raise ProfileError("rosters", len(rosters), "exactly 2 duellists", reason="toy §1")
        names, hps, shields = [], [], []
        for i, r in enumerate(rosters):
            if not isinstance(r, Mapping):
                raise ProfileError(f"rosters[{i}]", r, "a mapping {name, hp, shields}")
            names.append(str(r.get("name", f"Duellist {i + 1}")))
            hp, sh = r.get("hp", 3), r.get("shields", 1)
            if not isinstance(hp, int) or not 1 <= hp <= 20:
                raise ProfileError(f"rosters[{i}].hp", hp, "a whole number 1 to 20")
            if not isinstance(sh, int) or not 0 <= sh <= 5:
                raise ProfileError(f"rosters[{i}].shields", sh, "a whole number 0 to 5")
            hps.append(hp)
            shields.append(sh)
        b: Mapping[str, JSON] = board if isinstance(board, Mapping) else {}
        length = float(b.get("length", 10.0))
        rounds = options.get("rounds", 5)
        if not isinstance(rounds, int) or not 1 <= rounds <= 50:
            raise ProfileError("options.rounds", rounds, "a whole number 1 to 50")
        return DuelState(
            names=(names[0], names[1]),
            length=length,
            speed=float(b.get("speed", 3.0)),
            reach=float(b.get("reach", 2.0)),
            rounds=rounds,
            hide_hp=bool(options.get("hide_hp", False)),
            seed=seed,
            hp=(hps[0], hps[1]),
            shields=(shields[0], shields[1]),
            pos=(0.0, length),
        )

    # -- who decides -----------------------------------------------------------------------
    def pending(self, state: DuelState) -> tuple[Decision[DuelAction], ...]:
        """§2 chance, §3 both duellists at once, §4 the mover, §6 the hit duellist."""
        ph = state.phase
        if ph == "initiative":
            return (
                Decision(
                    CHANCE,
                    "initiative",
                    RULE[2],
                    "roll for initiative",
                    outcomes=((Initiative(0), 0.5), (Initiative(1), 0.5)),
                ),
            )
        if ph == "stance":
            return tuple(
                Decision(p, "stance", RULE[3], "choose a stance in secret: attack or guard")
                for p in (0, 1)
                if state.stance[p] is None
            )
        if ph == "move":
            p = state.to_move[0]
            return (Decision(p, "positions", RULE[4], "move along the line", _auto_move(state, p)),)
        if ph == "shield":
            assert state.hit_by is not None
            p = _other(state.hit_by)
            return (
                Decision(
                    p, "may", RULE[6], "spend a shield to cancel the hit?", _auto_shield(state)
                ),
            )
        return ()

    def legal_actions(self, state: DuelState, player: int) -> LegalSet[DuelAction]:
        """Listed actions, plus a move family over the §4 interval."""

        def check(a: DuelAction) -> Refusal | None:
            return self.check(state, a, player)

        if not any(d.player == player for d in self.pending(state)):
            return LegalSet(player, check)
        ph = state.phase
        if ph == "initiative":
            return LegalSet(player, check, (Initiative(0), Initiative(1)))
        if ph == "stance":
            return LegalSet(player, check, (Stance("attack"), Stance("guard")))
        if ph == "move":
            lo, hi = _move_bounds(state, player)
            fam: Family[DuelAction] = Family(
                "move to", (Interval("to", lo, hi),), lambda v: Move(float(v[0]))
            )
            return LegalSet(player, check, (_auto_move(state, player),), (fam,))
        options = [Shield(False)] + ([Shield(True)] if state.shields[player] else [])
        return LegalSet(player, check, tuple(options))

    # -- check and apply -------------------------------------------------------------------
    def check(self, state: DuelState, action: DuelAction, player: int) -> Refusal | None:
        """The refusal (with its section) or ``None``."""
        if state.phase == "over":
            return Refusal("the duel is over", RULE[7])
        deciders = [d for d in self.pending(state) if d.player == player]
        if not deciders:
            who = "chance" if player == CHANCE else f"duellist {player}"
            return Refusal(f"no decision of {who} is pending now", deciders_rule(state))
        d = deciders[0]
        want = {"initiative": Initiative, "stance": Stance, "positions": Move, "may": Shield}
        if not isinstance(action, want[d.kind]):
            return Refusal(f"{d.prompt} is pending, not {type(action).__name__}", d.rule)
        if isinstance(action, Initiative) and action.first not in (0, 1):
            return Refusal(f"initiative goes to duellist 0 or 1, not {action.first}", RULE[2])
        if isinstance(action, Move):
            lo, hi = _move_bounds(state, player)
            if not lo - 1e-9 <= action.to <= hi + 1e-9:
                return Refusal(
                    f"a move from {state.pos[player]:g} may end between {lo:g} and {hi:g} "
                    f"(within {state.speed:g} inches, on the line, not past the foe), "
                    f"not at {action.to:g}",
                    RULE[4],
                )
        if isinstance(action, Shield) and action.use and state.shields[player] == 0:
            return Refusal("no shield is left to spend", RULE[6])
        return None

    def apply(
        self, state: DuelState, action: DuelAction, player: int, dice: Dice | None = None
    ) -> tuple[DuelState, list[Event]]:
        """Check, then apply; dice from the step unless injected (§5)."""
        refusal = self.check(state, action, player)
        if refusal is not None:
            raise refusal.error()
        # the step's own dice, made only when a strike rolls (toy §5)
        roll = dice if dice is not None else _LazyDice(state.seed, state.step)
        events: list[Event] = []
        s = replace(state, step=state.step + 1)
        if isinstance(action, Initiative):
            s = replace(s, first=action.first, phase="stance")
            events.append(Event("initiative", f"{s.names[action.first]} has initiative", RULE[2]))
        elif isinstance(action, Stance):
            st = list(s.stance)
            st[player] = action.stance
            s = replace(s, stance=(st[0], st[1]))
            events.append(Event("stance", f"{s.names[player]} chose a stance", RULE[3]))
            if None not in s.stance:
                assert s.first is not None
                s = replace(s, phase="move", to_move=(s.first, _other(s.first)))
                events.append(
                    Event(
                        "reveal",
                        f"stances: {s.names[0]} {s.stance[0]}, {s.names[1]} {s.stance[1]}",
                        RULE[3],
                        {"stances": list(s.stance)},
                    )
                )
        elif isinstance(action, Move):
            pos = list(s.pos)
            pos[player] = action.to
            s = replace(s, pos=(pos[0], pos[1]), to_move=s.to_move[1:])
            events.append(
                Event(
                    "move", f"{s.names[player]} moves to {action.to:g}", RULE[4], {"to": action.to}
                )
            )
            if not s.to_move:
                assert s.first is not None
                order = (s.first, _other(s.first))
                s = replace(s, strikes=tuple(p for p in order if s.stance[p] == "attack"))
                s = _strikes(s, roll, events)
        else:  # Shield
            assert s.hit_by is not None
            if action.use:
                sh = list(s.shields)
                sh[player] -= 1
                s = replace(s, shields=(sh[0], sh[1]))
                events.append(Event("shield", f"{s.names[player]} spends a shield", RULE[6]))
            else:
                s = _wound(s, player, events)
            s = replace(s, hit_by=None)
            if s.phase != "over":
                s = _strikes(replace(s, phase="move"), roll, events)
        return s, events

    # -- views and the end -----------------------------------------------------------------
    def view(self, state: DuelState, player: int) -> DuelView:
        """The duel as ``player`` sees it: the foe's shields, secret stance and (with
        ``hide_hp``) HP hidden."""
        foe = _other(player)
        hp: list[int | None] = list(state.hp)
        shields: list[int | None] = list(state.shields)
        stance: list[StanceName | None] = list(state.stance)
        if player in (0, 1) and state.phase != "over":
            shields[foe] = None  # §1: shields are a hidden reserve
            if state.hide_hp:
                hp[foe] = None
            if state.phase == "stance":
                stance[foe] = None  # §3: secret until both have chosen
        return DuelView(
            player=player,
            names=state.names,
            length=state.length,
            speed=state.speed,
            reach=state.reach,
            rounds=state.rounds,
            round=state.round,
            phase=state.phase,
            first=state.first,
            pos=state.pos,
            hp=(hp[0], hp[1]),
            shields=(shields[0], shields[1]),
            stance=(stance[0], stance[1]),
            winner=state.winner,
        )

    def is_over(self, state: DuelState) -> bool:
        """Whether the duel has ended (§7)."""
        return state.phase == "over"

    def result(self, state: DuelState) -> Result | None:
        """§7: winner (or draw) and the remaining HP as scores."""
        if state.phase != "over":
            return None
        return Result(state.winner, (float(state.hp[0]), float(state.hp[1])), state.reason)

    def digest(self, state: DuelState) -> str:
        """The digest of the state's JSON."""
        return digest_of(self.states.dump(state))


def deciders_rule(state: DuelState) -> str:
    """The section of the decision pending in this phase."""
    return {
        "initiative": RULE[2],
        "stance": RULE[3],
        "move": RULE[4],
        "shield": RULE[6],
    }.get(state.phase, RULE[7])


# --------------------------------------------------------------------------------------------
# Rules helpers
# --------------------------------------------------------------------------------------------


def _move_bounds(state: DuelState, p: int) -> tuple[float, float]:
    """§4: within ``speed`` of the start, on the line, never past the foe."""
    here, foe = state.pos[p], state.pos[_other(p)]
    lo, hi = max(0.0, here - state.speed), min(state.length, here + state.speed)
    if p == 0:
        hi = min(hi, max(foe, here))
    else:
        lo = max(lo, min(foe, here))
    return lo, hi


def _auto_move(state: DuelState, p: int) -> Move:
    """§4's automatic choice: toward the foe by the full distance."""
    lo, hi = _move_bounds(state, p)
    return Move(hi if p == 0 else lo)


def _auto_shield(state: DuelState) -> Shield:
    """§6's automatic choice: spend a shield only against the last HP."""
    assert state.hit_by is not None
    p = _other(state.hit_by)
    return Shield(state.shields[p] > 0 and state.hp[p] == 1)


def _wound(s: DuelState, p: int, events: list[Event]) -> DuelState:
    hp = list(s.hp)
    hp[p] -= 1
    s = replace(s, hp=(hp[0], hp[1]))
    events.append(Event("wound", f"{s.names[p]} loses 1 HP ({hp[p]} left)", RULE[6]))
    if hp[p] == 0:
        winner = _other(p)
        events.append(Event("end", f"{s.names[winner]} wins: {s.names[p]} fell", RULE[7]))
        s = replace(s, phase="over", winner=winner, reason="fell", strikes=())
    return s


class _LazyDice:
    """``step_dice(seed, step)``, built on the first roll (most steps roll nothing)."""

    def __init__(self, seed: int, step: int) -> None:
        self.seed, self.step = seed, step
        self._dice: Dice | None = None

    def d6(self, label: str) -> int:
        if self._dice is None:
            self._dice = step_dice(self.seed, self.step)
        return self._dice.d6(label)


def _strikes(s: DuelState, dice: Dice | _LazyDice, events: list[Event]) -> DuelState:
    """§5-§7: resolve the strikes left in order; stop at a shield decision or the end."""
    while s.strikes and s.phase != "over":
        a, rest = s.strikes[0], s.strikes[1:]
        foe = _other(a)
        s = replace(s, strikes=rest)
        dist = abs(s.pos[a] - s.pos[foe])
        if dist > s.reach + 1e-9:
            events.append(Event("miss", f"{s.names[a]} is out of reach ({dist:g})", RULE[5]))
            continue
        need = 5 if s.stance[foe] == "guard" else 4
        face = dice.d6(f"{s.names[a]} strikes")
        hit = face >= need
        events.append(
            Event(
                "strike",
                f"{s.names[a]} rolls {face} needing {need}+: {'hit' if hit else 'miss'}",
                RULE[5],
                {"face": face, "need": need, "hit": hit},
            )
        )
        if not hit:
            continue
        if s.shields[foe] > 0:
            return replace(s, phase="shield", hit_by=a)
        s = _wound(s, foe, events)
    if s.phase == "over":
        return s
    return _end_round(s, events)


def _end_round(s: DuelState, events: list[Event]) -> DuelState:
    if s.round >= s.rounds:
        w = None if s.hp[0] == s.hp[1] else (0 if s.hp[0] > s.hp[1] else 1)
        text = "a draw" if w is None else f"{s.names[w]} wins on HP"
        events.append(Event("end", f"after {s.rounds} rounds: {text}", RULE[7]))
        return replace(s, phase="over", winner=w, reason="rounds")
    events.append(Event("round", f"round {s.round + 1}", RULE[2]))
    return replace(
        s,
        round=s.round + 1,
        phase="initiative",
        first=None,
        stance=(None, None),
        to_move=(),
        strikes=(),
    )


def perturb_hidden(state: DuelState, player: int) -> DuelState:
    """A state that differs from ``state`` only in what ``player`` may not see (the foe's
    shields, the foe's secret stance, the foe's HP under ``hide_hp``): the conformance suite
    checks that ``player``'s view does not change."""
    if state.phase == "over" or player not in (0, 1):
        return state
    foe = _other(player)
    sh = list(state.shields)
    sh[foe] = sh[foe] + 1 if sh[foe] < 5 else sh[foe] - 1
    s = replace(state, shields=(sh[0], sh[1]))
    if state.phase == "stance" and state.stance[foe] is not None:
        st = list(state.stance)
        st[foe] = "guard" if st[foe] == "attack" else "attack"
        s = replace(s, stance=(st[0], st[1]))
    if state.hide_hp and state.hp[foe] > 1:
        hp = list(state.hp)
        hp[foe] += 1
        s = replace(s, hp=(hp[0], hp[1]))
    return s


#: A ready set-up for tests, demos and benchmarks.
SAMPLE_SETUP: dict[str, Any] = {
    "rosters": [
        {"name": "Red", "hp": 3, "shields": 1},
        {"name": "Blue", "hp": 3, "shields": 2},
    ],
    "board": {"length": 8.0, "speed": 3.0, "reach": 2.0},
    "options": {"rounds": 6, "hide_hp": True},
}
