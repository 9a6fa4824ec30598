"""Habits of the ``tactical`` player added in session 35 (issue 15: the last losses to
random-legal).

**Takes the points that are there at the end** (switch ``TacticalBot.end_points``). The game
is decided on the value of each army left when it ends (Core Rules 001_d3f5e425c5e1196d.txt
§2.2 step 8), and it ends at an agreed length or, from the end of Game Turn 4, on a die of 3
or lower (§2.2 step 7, L1118-1126), so from Game Turn 4 each Game Turn may be the last
(:func:`may_be_last`). The focus fire (``ai.tactics``) weighs an attack by the point value it
is expected to take plus the enemy output it removes and the threat of an enemy melee unit
(session 31, ``ai.tactical_threat``), both for the Attack Phases still to come. In the Attack
Phase of a Game Turn that may be the last, each weapon goes where the point value it is
expected to take is most (its target's wounded models first, never beyond the HP left): in
main's games lost to random-legal by a few points the last Attack Phase was spent on threats
for a Game Turn that did not come (docs/ai.md, session 35).

Tried in session 35 and dropped (docs/ai.md, the patches under /work/wt/s35/logs/random/):
a unit with no charge, or no shot, that steps out of the enemy's sight in the Move Phase of a
Game Turn that may be the last.
"""

from __future__ import annotations

from warbench.rulesets.warsurge.game.work import Work

#: The first Game Turn after which a game of random length may end (§2.2 step 7, L1122).
RANDOM_END = 4


def may_be_last(w: Work) -> bool:
    """Whether the Game Turn under way may be the game's last: at or past its agreed length,
    or from Game Turn :data:`RANDOM_END` when the length is random (§2.2 step 7)."""
    length = w.setup.game_length
    return w.flow.turn >= (RANDOM_END if length is None else length)
