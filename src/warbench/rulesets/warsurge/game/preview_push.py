"""What an Attack may move after it, in words, before the player makes it (issue 10, session 34,
s34-ui): the preview's ``note`` of an Attack (it places no model, so it has no placements).

The perks that relocate a unit by a rule after an Attack (Perks 000_94ecc6a4c74d351b.txt §12.5,
§12.4; their code in ``perk_displace``, ``perk_grapple``, ``perk_counter``) need dice first (HP
Loss, a Skill Test, a scatter), so the places are not known; the note names, for each Weapon of
the Attack that has one: the unit that would move, the perk and its Perks line, how far and along
which line, and when. Each perk's own reading decides what is said (Knockback's and Force's
immunities, Grapple's choice of the unit pulled, the Force point the Attack names), so the note
says what ``apply`` would do:

* **Knockback I-II** (L3917, L3933): the Target 6" (12") directly away from the User, at the end
  of the Attack Phase (Advanced: of the Action Step), 1" short of Impassable Ground and units;
* **Force I-II** (L3837, L3859): the Target at once up to 6" (12") toward the Attack's point
  for the Weapon, else directly away from the User; a collision strikes both;
* **Grapple** (L3869): the cheaper unit (full Point Cost) pulled in a straight line to the other;
* **Upheaval** (L3216): the User itself, 2D6" by the Scatter Arrow on a failed Skill Test;
* **Kamikaze** (L1302), the Target's: its last model scatters 2D6" if it falls.
"""

from __future__ import annotations

from warbench.rulesets.warsurge.game import perk_limitation
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.advstate import Playstyle
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.perk_displace import FORCE, KNOCKBACK, unaffected
from warbench.rulesets.warsurge.game.perk_grapple import GRAPPLE, grapple_mover
from warbench.rulesets.warsurge.game.perk_index import weapon_perks
from warbench.rulesets.warsurge.game.plans import AttackPlanG
from warbench.rulesets.warsurge.game.state import GameState
from warbench.rulesets.warsurge.game.work import Work

__all__ = ["attack_push_note"]

#: The Perks lines of the relocating perks (000_94ecc6a4c74d351b.txt).
LINES = {
    "Knockback I": 3917,
    "Knockback II": 3933,
    "Force I": 3837,
    "Force II": 3859,
    GRAPPLE: 3869,
    "Upheaval": 3216,
    "Kamikaze": 1302,
}


def _perk(name: str) -> str:
    return f"{name} (Perks L{LINES[name]})"


def attack_push_note(game: GameState, action: Attack, plan: AttackPlanG) -> str | None:
    """The relocations ``action`` (planned as ``plan``) may cause after it, one sentence per
    Weapon and perk (none with a "; " of its own), joined by "; "; ``None`` when none of its
    Weapons or Targets has such a perk."""
    w = Work(game, None, DEFAULT_HOOKS)
    user = plan.uid
    end = "the Action Step" if game.setup.playstyle is Playstyle.ADVANCED else "the Attack Phase"
    upheaval = perk_limitation.index(game.setup).upheaval.get(user, ())
    kamikaze = perk_limitation.index(game.setup).kamikaze
    aims = {name: (x, y) for name, x, y in action.aim}
    out: list[str] = []
    seen: set[tuple[str, int]] = set()
    for wp in plan.weapons:
        if (wp.weapon, wp.target) in seen:
            continue  # a Weapon split among models of one Target is one note
        seen.add((wp.weapon, wp.target))
        own = weapon_perks(w, user, wp.weapon)  # a picked-up Weapon's too (Loot L3090)
        tgt, usr = w.label(wp.target), w.label(user)
        hit = f"if {wp.weapon} causes {tgt} HP Loss and a Skill Test passes"
        rank = next((r for r in reversed(tuple(KNOCKBACK)) if r in own), None)
        if rank is not None and wp.target != user:
            out.append(
                f"{_perk(rank)}: {tgt} is unaffected (Unstoppable or Courage)"
                if unaffected(w, wp.target, "Knockback")
                else f'{_perk(rank)}: {hit}, {tgt} is moved {KNOCKBACK[rank]:g}" directly away '
                f'from {usr} at the end of {end}, stopping 1" short of Impassable Ground and '
                "other units (not Movement, and it may end a Melee)"
            )
        rank = next((r for r in reversed(tuple(FORCE)) if r in own), None)
        if rank is not None and wp.target != user:
            dist, dice = FORCE[rank]
            aim = aims.get(wp.weapon)
            line = (
                f"toward ({aim[0]:.1f}, {aim[1]:.1f})"
                if aim is not None
                else f"directly away from {usr}"
            )
            out.append(
                f"{_perk(rank)}: {tgt} is unaffected (Unstoppable or Courage)"
                if unaffected(w, wp.target, "Force")
                else f'{_perk(rank)}: {hit}, {tgt} is pushed at once up to {dist:g}" {line}, '
                f"stopping short of Impassable Ground and other units, and if it makes contact, it "
                f"and each unit it touches take {'2D6' if dice == 2 else 'D6'} Attack Dice (4+) "
                "per Force Weapon (not Movement)"
            )
        if GRAPPLE in own and wp.target != user:
            mover, why = grapple_mover(w, user, wp.target)
            if mover is None:
                out.append(f"{_perk(GRAPPLE)}: nothing moves ({why})")
            else:
                other = w.label(wp.target if mover == user else user)
                out.append(
                    f"{_perk(GRAPPLE)}: {hit}, {w.label(mover)} is pulled at once in a straight "
                    f"line to {other} ({why}), and Base Contact with an enemy begins a Melee "
                    "(not Movement)"
                )
        if wp.weapon in upheaval:
            out.append(
                f"{_perk('Upheaval')}: at the end of {end} {usr} takes a Skill Test for "
                f'{wp.weapon}: on a failure it relocates 2D6" by the Scatter Arrow, and '
                f"{wp.weapon} strikes what it runs into (itself on a Hit, terrain or the edge)"
            )
        if wp.target in kamikaze and ("Kamikaze", wp.target) not in seen:
            seen.add(("Kamikaze", wp.target))
            out.append(
                f"{_perk('Kamikaze')}: if {tgt}'s last model falls, it scatters 2D6\" and "
                "strikes every unit it passes through or touches"
            )
    return "; ".join(out) or None
