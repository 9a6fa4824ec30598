"""Melee habits of the ``tactical`` player added in session 29 (issue 15: mirrors that are
not even).

In the Standard playstyle a Melee is simultaneous: every Attack is made before any casualty
is removed (Core Rules 001_d3f5e425c5e1196d.txt L2872: "Casualties are removed at the end of
the Attack Phase, once all players have finished their Attacks"), and the charger gets
nothing for charging (§4.3 L1990-1994: Units that Move or Dash into contact "engage in close
combat"; §5.8-5.9 L2661-2706 give modifiers for the weapon type and for attacking into or out
of a Melee, none for the charge). So two melee units that meet both strike in full, and in
the melee mirror (Berserkers: 3 Attacks a model, each expected to slay a model) each takes
the other's whole unit: 10 against 10 and 6 against 6 end 0-0 (session 28, docs/ai.md).

What the rules do leave uneven is **which** units meet. Units may engage more than one
enemy unit, and more than one unit may engage the same one (§4.3 L1992-1994; §4.4 II
L2014: "engage other Units"), but what a unit takes off its foe is capped by what the
foe has, while what it loses is set by the foe's attacks: six Berserkers charging ten are
expected to slay 9.8 of them (245 points) and lose their 150; ten charging six slay the 150
and lose 245. The player used to charge whenever its melee was expected to take at least half
what came back (``CHARGE_RISK``), so the ten charged the six as readily as the six the ten.

**Does not spend itself** (:func:`fair_charges`, switch ``TacticalBot.trade_up``): while its
side is not behind on points, a unit does not charge into a Melee in which it is expected to
lose most of its value left (:data:`WHOLE`) unless it is expected to take more than it loses
(by :data:`TRADE_EDGE`); behind, it keeps the old rule (it must gain ground somewhere). A
long Melee of two Behemoths is not such a trade (each attack takes a few HP of 18), so
single big models still close.

**Keeps a reserve** (:func:`held_back`, the same switch): while its side is not behind, a
melee unit for which every Melee on the table would be such a trade does not walk into the
enemy's reach next Game Turn (each enemy's Move added), and one already in it steps away
where it is less exposed: the game is decided on the value left (§2.2 step 8), so a unit
that is not traded away keeps its side level or ahead, and a draw 0-0 becomes a win when it
is the one unit left. (Measured in the melee mirror, docs/ai.md, session 29: 57-60% before,
79-82% with both habits.)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.movement import unit_allowance
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work

#: A charge trades up when it is expected to take this share more than it loses.
TRADE_EDGE = 0.1
#: A Melee costs the unit itself when it is expected to lose this share of its value left.
WHOLE = 0.75
#: A side is behind when another side's value beats its own by this share (as ``AHEAD_MARGIN``).
BEHIND_MARGIN = 0.02

#: ``worth(w, a, b, weapon, melee)``: the point value ``a`` is expected to take off ``b``.
Worth = Callable[[Work, int, int, "str | None", bool], float]
#: ``incoming(w, uid, at, next_turn)``: the point value the enemy is expected to take off
#: ``uid`` with its centre at ``at`` (``TacticalBot._incoming``).
Incoming = Callable[[Work, int, tuple[float, float], bool], float]


def behind(state: GameState, side: int) -> bool:
    """Whether ``side``'s value on the battlefield trails another side's (§2.2 step 8)."""
    values = state.side_values()
    mine = values[side]
    others = max((v for k, v in enumerate(values) if k != side), default=0.0)
    return others > mine * (1.0 + BEHIND_MARGIN)


def value_left(w: Work, uid: int) -> float:
    """The point value ``uid`` has left (its points per HP times its HP left)."""
    info = w.info(uid)
    per_hp = info.value / info.max_hp if info.max_hp else 0.0
    return per_hp * float(w.units[uid].current_hp)


def spends_itself(gain: float, loss: float, own: float) -> bool:
    """A Melee expected to take ``gain`` and lose ``loss`` (point values) from a unit worth
    ``own``: it costs the unit (nearly) itself and does not take more than it gives."""
    return loss >= WHOLE * own and gain <= loss * (1.0 + TRADE_EDGE)


def fair_charges(
    charges: Sequence[tuple[float, float, int]], state: GameState, w: Work, uid: int
) -> list[tuple[float, float, int]]:
    """The charges ``(gain, loss, foe)`` melee unit ``uid`` makes: all of them while its side
    is behind, else those that do not spend the unit on an even or losing trade."""
    if behind(state, w.info(uid).side):
        return list(charges)
    own = value_left(w, uid)
    return [c for c in charges if not spends_itself(c[0], c[1], own)]


def keeps_reserve(
    state: GameState, w: Work, uid: int, foes: Sequence[tuple[float, int]], worth: Worth
) -> bool:
    """Whether melee unit ``uid`` keeps out of the enemy's charge reach: its side is not
    behind and every Melee on the table (the four nearest enemy units) would spend it."""
    if behind(state, w.info(uid).side) or not foes:
        return False
    own = value_left(w, uid)
    return all(
        spends_itself(worth(w, uid, f, None, True), worth(w, f, uid, None, True), own)
        for _, f in foes[:4]
    )


def reserve_moves(
    moves: Sequence[Move],
    landing: Mapping[Move, tuple[float, float]],
    here: tuple[float, float],
    exposure: Callable[[tuple[float, float]], float],
) -> list[Move]:
    """The moves after which the enemy is expected to take no more off the unit next Game
    Turn (``exposure`` at a centre: each enemy's Move added, a charge counted) than where it
    stands: it may still shift, but not into a Melee that spends it."""
    now = exposure(here)
    return [m for m in moves if m in landing and exposure(landing[m]) <= now + 1e-9]


def held_back(
    state: GameState,
    w: Work,
    uid: int,
    foes: Sequence[tuple[float, int]],
    moves: Sequence[Move],
    landing: Mapping[Move, tuple[float, float]],
    worth: Worth,
    incoming: Incoming,
    seen: Callable[[Move | None], float],
) -> list[Move] | None:
    """The moves melee unit ``uid`` keeps to when it keeps a reserve (:func:`keeps_reserve`),
    else ``None``: when the enemy already reaches it, first the moves straight away from the
    nearest enemy (and 45 degrees to either side) that end less exposed, least exposed first
    (exposure next Game Turn by ``incoming``, which does not look at sight); then those of
    :func:`reserve_moves`; of these, only those after which it is no more in the enemy's
    sight than where it stands (``seen(move)``, ``seen(None)`` where it stands: what the
    enemy is expected to take off it by sight and Cover, §5.5-5.6), so it does not step out
    from behind a wall."""
    if not keeps_reserve(state, w, uid, foes, worth):
        return None
    centre = w.xy(uid).mean(axis=0)
    here = (float(centre[0]), float(centre[1]))

    def exposure(at: tuple[float, float]) -> float:
        return incoming(w, uid, at, True)

    now = exposure(here)
    out: list[Move] = []
    if now > 0.0 and foes:
        dash = w.flow.phase is Phase.DASH
        step = float(unit_allowance(w, uid, dash))
        foe = w.xy(foes[0][1]).mean(axis=0)
        away = math.atan2(here[1] - float(foe[1]), here[0] - float(foe[0]))
        ranked: list[tuple[float, Move]] = []
        for turn in (0.0, math.pi / 4, -math.pi / 4):
            to = (here[0] + step * math.cos(away + turn), here[1] + step * math.sin(away + turn))
            risk = exposure(to)
            if risk < now:
                ranked.append((risk, Move(uid, to=to, dash=dash)))
        out = [m for _, m in sorted(ranked, key=lambda rm: rm[0])]
    out += reserve_moves(moves, landing, here, exposure)
    if not out:
        return out
    hidden = seen(None)
    return [m for m in out if seen(m) <= hidden + 1e-9]
