"""Rerolls and denials of tests in a game (Perks 000_94ecc6a4c74d351b.txt, issue 11, session 25).

    "Jinx — Once per Game Turn, one enemy Unit within 24" of the User may have a dice rerolled
    at the User's discretion. This can occur even if the dice has already been rerolled." (L859)
    "Lucky — Lucky allows you to reroll any one dice per Game Turn related to the User, even if
    it has already been rerolled. It can also reroll enemy dice directed at this Unit." (L867)
    "Architect of Destiny — One dice roll per Game Turn can be rerolled. It doesn't matter whose
    dice it was or who rolled the dice. You cannot stack unused rolls for later Game Turns."
    (L4250)
    "Deny — Once per Game Turn, the player can select a single dice rolled by an opponent, or
    any Perk with Activate, Aether, D6, Mastery Test or Skill Test. The player then rolls a D6;
    if the result is a 6, the nominated dice or Perk from the opponent counts as failed. If a
    Perk was selected, it fails but does not consume Limited Use. Scatter cannot suffer Deny."
    (L4300)

The dice the game offers to them are the tests a unit rolls for its perks (§12.2: Mastery,
Skill, D6 x+ and Aether Tests): every test ``perk_turn`` (Mastery), ``perk_hooks`` (Aether;
the Weapons' afflictions through ``effects.runtime``), Disarm and Delirium roll goes through
:func:`tested` or :func:`settle`. Attack Dice and Saves, rolled in batches by the attack kernel
(whose odds are exact), are not offered (docs/rulings.md, session 25 s25-ability, 1).

The choices are the engine's under the ``perk use`` automation (without it, as the other
automatic uses, none is used), a default any player would take (rulings 2-4):

* a unit's tests all failed: its own reroll, Lucky first (a D6 test), then its player's
  Architect of Destiny (any test, the 2D6 of an Aether Test as one roll);
* exactly one passed (a reroll could turn the outcome): the opponents' reroll, an enemy Jinx
  within 24" (a D6 test), the Lucky of the unit the test is directed at, an enemy Architect of
  Destiny; with none of them, an enemy Deny (a D6: on a 6 the test counts as failed, final);
* the loop goes on while either side has a reroll left ("even if already rerolled").

Deny also answers a perk an opponent *uses* (``UsePerks``, :func:`denied`): the first such
perk in a Game Turn; a denied perk uses its Game Turn but not its Limited Use.

The per-Game-Turn uses are unit counters (``<perk> used`` = the Game Turn): a Roster Perk's on
the unit of the roster that carries it (one per player whoever carries it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.effects.model import PerkTest
from warbench.rulesets.warsurge.effects.rolls import Outcome

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["ARCHITECT", "DENY", "JINX", "LUCKY", "Roll", "denied", "settle", "tested"]

LUCKY, JINX, ARCHITECT, DENY = "Lucky", "Jinx", "Architect of Destiny", "Deny"
_LINE = {LUCKY: 867, JINX: 859, ARCHITECT: 4250, DENY: 4300}
_NAMES = frozenset(_LINE)
JINX_RADIUS = 24.0
#: a fresh roll of the same test, given its label
Roll = Callable[[str], Outcome]


def rule(perk: str) -> str:
    section = "12.6" if perk in (ARCHITECT, DENY) else "12.4"
    return f"Perks §{section} {perk} (000_94ecc6a4c74d351b.txt L{_LINE[perk]})"


_HOLDERS: dict[int, tuple[GameSetup, dict[int, frozenset[str]]]] = {}


def holders(work: Work) -> dict[int, frozenset[str]]:
    """The units of the set-up carrying Lucky, Jinx, Architect of Destiny or Deny (a Roster
    Perk rides on the entry it is designated to), computed once per set-up."""
    setup = work.setup
    hit = _HOLDERS.get(id(setup))
    if hit is not None and hit[0] is setup:
        return hit[1]
    from warbench.rulesets.warsurge.effects.table import load_table

    table = load_table()
    out: dict[int, frozenset[str]] = {}
    for uid, info in enumerate(setup.units):
        names = (*info.unit.profile.perks, *info.traits)
        held = frozenset(r.name for n in names if (r := table.find(n))) & _NAMES
        if held:
            out[uid] = held
    _HOLDERS[id(setup)] = (setup, out)
    return out


def _automated(work: Work) -> bool:
    from warbench.rulesets.warsurge.game.state import Automation

    return Automation.PERK_USE in work.setup.automation


def _key(perk: str) -> str:
    return f"{perk} used"


def _used(work: Work, uid: int, perk: str) -> bool:
    return work.units[uid].counter(_key(perk)) == work.flow.turn


def _side(work: Work, uid: int) -> int:
    return work.setup.units[uid].side


def _roster_free(work: Work, perk: str, side: int) -> int | None:
    """A unit of ``side`` carrying the Roster Perk ``perk`` if the side has not used it this
    Game Turn (one use per player, whichever unit carries it)."""
    mine = [h for h, ps in holders(work).items() if perk in ps and _side(work, h) == side]
    if not mine or any(_used(work, h, perk) for h in mine):
        return None
    return mine[0]


def _spend(work: Work, uid: int, perk: str) -> None:
    work.units[uid] = work.units[uid].with_counter(_key(perk), work.flow.turn)
    work.dirty = True


def _lucky_free(work: Work, uid: int) -> bool:
    return LUCKY in holders(work).get(uid, frozenset()) and not _used(work, uid, LUCKY)


def _own(work: Work, uid: int, kind: PerkTest) -> tuple[int, str] | None:
    """The reroll the unit's own side takes on its failed test: Lucky, then Architect."""
    if kind is not PerkTest.AETHER and _lucky_free(work, uid):
        return uid, LUCKY
    h = _roster_free(work, ARCHITECT, _side(work, uid))
    return None if h is None else (h, ARCHITECT)


def _foes(work: Work, uid: int) -> list[int]:
    side = _side(work, uid)
    return sorted({_side(work, h) for h in holders(work)} - {side})


def _theirs(work: Work, uid: int, target: int | None, kind: PerkTest) -> tuple[int, str] | None:
    """The reroll an opponent takes on the unit's passed test: an enemy Jinx within 24", the
    Lucky of the enemy unit the test is directed at, an enemy Architect of Destiny."""
    d6 = kind is not PerkTest.AETHER
    if d6 and work.standing(uid):
        for h, held in holders(work).items():
            free = JINX in held and work.enemies(h, uid) and not _used(work, h, JINX)
            if free and work.standing(h) and work.gap(h, uid) <= JINX_RADIUS:
                return h, JINX
    if d6 and target is not None and _lucky_free(work, target) and work.enemies(uid, target):
        return target, LUCKY
    for side in _foes(work, uid):
        arch = _roster_free(work, ARCHITECT, side)
        if arch is not None:
            return arch, ARCHITECT
    return None


def _deny_roll(work: Work, uid: int, what: str) -> bool:
    """An enemy player's Deny against ``uid``'s ``what``: its D6, a 6 and it fails."""
    for side in _foes(work, uid):
        h = _roster_free(work, DENY, side)
        if h is None:
            continue
        _spend(work, h, DENY)
        face = work.dice.d6("Deny")
        ok = face == 6
        verdict = "counts as failed" if ok else "stands"
        work.emit("perk", f"{work.side_name(side)} denies {work.label(uid)}'s {what}: rolled "
                  f"{face}, it {verdict} (Deny)", rule(DENY), unit=uid, perk=DENY,
                  roll=face, denied=ok)  # fmt: skip
        return ok
    return False


def settle(
    work: Work,
    uid: int,
    outs: Sequence[Outcome],
    roll: Roll,
    what: str,
    target: int | None = None,
) -> list[Outcome]:
    """``uid`` rolled the tests ``outs`` of one perk (a perk that takes hold if any passes: one
    test, or one per HP lost, §12.1 L119-L123); ``roll`` rolls one again. The rerolls and
    denials the players take on them (the module's policy); the tests as they finally stand.
    ``target``: the unit the tests are directed at (an affliction's), for its Lucky."""
    out = list(outs)
    if not out or not holders(work) or not _automated(work):
        return out
    while True:
        passed = [i for i, o in enumerate(out) if o.passed]
        if not passed:
            rolled = [i for i, o in enumerate(out) if o.rolls]  # Fugue: nothing rolled
            if not rolled:
                return out
            i = rolled[0]
            who = _own(work, uid, out[i].kind)
        elif len(passed) == 1:
            i = passed[0]
            who = _theirs(work, uid, target, out[i].kind)
            if who is None:
                if _deny_roll(work, uid, what):
                    out[i] = replace(out[i], passed=False, doubled=False)
                return out
        else:
            return out
        if who is None:
            return out
        h, perk = who
        _spend(work, h, perk)
        new = roll(f"{what} reroll ({perk})")
        out[i] = new
        by = work.side_name(_side(work, h)) if perk == ARCHITECT else work.label(h)
        whose = "its" if h == uid else f"{work.label(uid)}'s"
        work.emit("perk", f"{by} rerolls {whose} {what} ({perk}): {new.explain()}", rule(perk),
                  unit=uid, by=h, perk=perk, passed=new.passed)  # fmt: skip


def tested(work: Work, uid: int, what: str, roll: Roll, source: str, perk: str) -> Outcome:
    """``uid`` rolls its test ``what`` for ``perk`` (``roll(what)``), reported as an event
    (``source``: the perk's line), then :func:`settle`\\ d."""
    out = roll(what)
    verdict = "passes" if out.passed else "fails"
    work.emit("perk", f"{work.label(uid)} {verdict} its {what} ({out.explain()})", source,
              unit=uid, perk=perk, passed=out.passed)  # fmt: skip
    return settle(work, uid, (out,), roll, what)[0]


def denied(work: Work, uid: int, perk: str) -> bool:
    """L4300: ``uid`` uses ``perk`` (Activate, Aether, D6, Mastery or Skill Test: every perk a
    player uses); an enemy player with Deny unused this Game Turn nominates it (the engine's
    default: the first it can) and rolls a D6: on a 6 the perk fails ("does not consume
    Limited Use"). A Scatter Arrow is no test and is never offered ("Scatter cannot suffer
    Deny")."""
    if not holders(work) or not _automated(work):
        return False
    return _deny_roll(work, uid, perk)
