"""What every part of the Collision game shares: the parsed set-up (cards, starting board),
the working context of one step (:class:`Game`: state, dice, events) and small rules helpers
(finding characters, the board as it stands, paying Endurance and Mana, statuses, defeat).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from warbench.kernel.errors import RulesError
from warbench.play.core import Event
from warbench.rulesets.collision.dice import Roll
from warbench.rulesets.collision.game.board import Board, Piece, Square, Terrain, spaces
from warbench.rulesets.collision.game.state import CollisionState, Marker, Unit
from warbench.rulesets.collision.models import Card

BOOK = "003_fc239e71486306e1.txt"


def rule(lines: str) -> str:
    """A rule reference: ``rule("L1073-1082")`` -> ``003_fc239e71486306e1.txt L1073-1082``."""
    return f"{BOOK} {lines}"


#: The maximum Endurance (L301-302).
MAX_ENDURANCE = 9


@dataclass(frozen=True)
class Tables:
    """The parsed set-up: each player's cards and names, points, and the starting board."""

    cards: tuple[tuple[Card, ...], tuple[Card, ...]]
    groups: tuple[str, str]
    points_limit: int
    board: Board
    options: dict[str, Any]


_TABLES: dict[str, Tables] = {}


def tables(state: CollisionState) -> Tables:
    """The set-up of ``state``, parsed once per process."""
    t = _TABLES.get(state.setup_key)
    if t is None:
        from warbench.rulesets.collision.game.setup import parse_setup

        data = json.loads(state.setup_json)
        t = parse_setup(data["rosters"], data["board"], data["options"])
        _TABLES[state.setup_key] = t
    return t


def remember(key: str, t: Tables) -> None:
    """Keep a parsed set-up (setup() parses it anyway)."""
    _TABLES[key] = t


#: A terrain entry of this kind is an elevation piece (Upheaval, L2256-2257): it raises its
#: square by its height and is not a terrain piece of the board's kinds.
ELEVATION = "elevation"


@lru_cache(maxsize=256)
def _board(base: Board, terrain: tuple[tuple[int, int, str, int], ...]) -> Board:
    pieces = tuple(
        sorted(((x, y), Piece(Terrain(k), h)) for x, y, k, h in terrain if k != ELEVATION)
    )
    elevation = base.elevation
    raised = [(x, y, h) for x, y, k, h in terrain if k == ELEVATION]
    if raised:
        rows = [list(r) for r in elevation]
        for x, y, h in raised:
            rows[y][x] = min(5, rows[y][x] + h)  # levels 1-5 (L391)
        elevation = tuple(tuple(r) for r in rows)
    return Board(base.cols, base.rows, elevation, pieces, base.name)


def board_of(state: CollisionState) -> Board:
    """The board as it stands (terrain changes by objectives, Upheaval and Wreck)."""
    return _board(tables(state).board, tuple(tuple(t) for t in state.terrain))


def card_of(state: CollisionState, u: Unit) -> Card:
    """A character's card (statues have a card made from L1203-1206)."""
    if u.statue:
        from warbench.rulesets.collision.game.objectives import statue_card

        return statue_card(tables(state).points_limit)
    return tables(state).cards[u.owner][u.card]


class Ask(Exception):
    """A D10 a player may decide about (Plan Ahead before it, Luck after it): the action
    stops here and the question becomes the pending decision (protocol ``apply``)."""

    def __init__(
        self, index: int, kind: str, unit: Unit, label: str, face: int | None, good: bool
    ) -> None:
        super().__init__(f"{kind} for {label}")
        self.index, self.kind, self.unit, self.label, self.face = index, kind, unit, label, face
        self.good = good  # a high face is good for the character asked


class Game:
    """One step's working context: the (copied) state, its D10s and the events produced.

    With ``asking`` (the protocol's ``apply``), a D10 of a character whose player has a Plan
    Ahead die set aside, or a D10 rolled by or against a character with a luck token, stops
    the step with :class:`Ask` unless ``answers`` holds the decision already; ``replay``
    gives the D10s drawn before the stop, in order (docs/collision-game.md, "Dice
    decisions")."""

    def __init__(
        self,
        state: CollisionState,
        roll: Roll,
        *,
        readonly: bool = False,
        asking: bool = False,
        answers: dict[str, bool] | None = None,
        replay: list[int] | None = None,
    ) -> None:
        self.s = state
        self.t = tables(state)
        self._roll = roll
        self.events: list[Event] = []
        self.rolls: list[tuple[str, int]] = []
        self.readonly = readonly
        self.asking = asking
        self.answers = answers or {}
        self._replay = list(replay or [])
        self.draws: list[int] = []  # every D10 drawn (replayed ones included), in order
        self._n = 0  # D10s asked for so far

    # -- memo of read-only questions (check, legal actions, views of one state) -------------
    def memo(self, *key: object) -> object | None:
        """A remembered answer for this very state (only when nothing changes it)."""
        if not self.readonly:
            return None
        memo = self.s.__dict__.get("_memo")
        return None if memo is None else memo.get(key)

    def remember(self, *key_and_value: object) -> None:
        """Remember an answer for this state (read-only contexts only)."""
        if not self.readonly:
            return
        *key, value = key_and_value
        self.s.__dict__.setdefault("_memo", {})[tuple(key)] = value

    # -- dice and events -------------------------------------------------------------------
    def _draw(self, label: str, who: int | None) -> int:
        """One D10 from the replayed draws, then from the dice; a 10 counts for God's Favor
        when that minor objective is in play (L1380)."""
        i = len(self.draws)
        face = self._replay[i] if i < len(self._replay) else self._roll(label)
        self.draws.append(face)
        self.rolls.append((label, face))
        if face == 10 and who is not None and "God's Favor" in self.s.minors:
            self.s.favor[who] += 1
        return face

    def roll(
        self,
        label: str,
        who: int | None = None,
        *,
        by: Unit | None = None,
        against: Unit | None = None,
        plan: bool = True,
        high_good: bool = True,
    ) -> int:
        """A D10 rolled by the character ``by`` (its player is ``who`` when not given) and
        against the character ``against``.

        Plan Ahead (L2062-2065): a character of a player with a die set aside may use it
        instead of rolling. Luck (L1977-1980): then the roller may spend a luck token to
        re-roll its die, and the character it is rolled against may force a re-roll; each of
        the two at most once for a die (docs/rulings.md, Collision 48). ``high_good``: a high
        face is good for the roller (the decisions' defaults)."""
        if who is None and by is not None:
            who = by.owner
        i = self._n
        self._n += 1
        face: int | None = None
        s = self.s
        if by is not None and plan and self.asking and s.planned[by.owner] is not None:
            use = self.answers.get(f"{i}:plan")
            if use is None:
                raise Ask(i, "plan", by, label, None, high_good)
            planned = s.planned[by.owner]
            if use and planned is not None:
                face, s.planned[by.owner] = planned, None
                self.rolls.append((label, planned))
                self.event(
                    "plan", f"{by.name} uses the Plan Ahead die ({face}): {label}", "L2062-2065"
                )
        if face is None:
            face = self._draw(label, who)
        if self.asking:
            for u in (by, against):
                if u is None or u.luck <= 0 or u.where == "defeated":
                    continue
                spend = self.answers.get(f"{i}:luck:{u.uid}")
                if spend is None:
                    raise Ask(i, "luck", u, label, face, high_good == (u is by))
                if spend:
                    u.luck -= 1
                    old, face = face, self._draw(f"{label} (luck)", who)
                    self.event(
                        "luck",
                        f"{u.name} spends a luck token: {label}: the {old} is re-rolled: {face}",
                        "L1977-1980",
                        unit=u.uid,
                        face=face,
                    )
        return face

    def event(self, kind: str, text: str, lines: str = "", **data: Any) -> None:
        """Record an event (and its text for the views' log)."""
        self.events.append(Event(kind, text, rule(lines) if lines else "", data))

    # -- lookups ---------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        """The board as it stands."""
        return board_of(self.s)

    def unit(self, uid: int) -> Unit:
        """The character with id ``uid``."""
        return self.s.units[uid]

    def card(self, u: Unit) -> Card:
        """A character's card."""
        return card_of(self.s, u)

    def on_board(self, owner: int | None = None) -> Iterator[Unit]:
        """Characters on the board (of one player)."""
        for u in self.s.units:
            if u.where == "board" and (owner is None or u.owner == owner):
                yield u

    def at(self, sq: Square) -> Unit | None:
        """The character on a square."""
        for u in self.s.units:
            if u.where == "board" and u.pos == sq:
                return u
        return None

    def has(self, u: Unit, name: str) -> bool:
        """Whether a character has an ability or effect (by glossary name)."""
        c = self.card(u)
        return name in c.abilities or name in c.effects

    def within(self, u: Unit, n: int, *, enemies: bool | None = None) -> list[Unit]:
        """Characters within ``n`` spaces of ``u`` (not ``u``): enemies, allies or both."""
        assert u.pos is not None
        out = []
        for v in self.on_board():
            if v.uid == u.uid or v.pos is None:
                continue
            if enemies is True and v.owner == u.owner:
                continue
            if enemies is False and v.owner != u.owner:
                continue
            if spaces(u.pos, v.pos) <= n:
                out.append(v)
        return out

    def marker(self, kind: str) -> list[Marker]:
        """Objective markers of a kind still in play."""
        return [m for m in self.s.markers if m.kind == kind and not m.gone]

    # -- endurance and mana ----------------------------------------------------------------
    def pay(self, u: Unit, endurance: int, mana: int, why: str) -> None:
        """Spend Endurance and Mana (L800-804); raises when the character cannot."""
        if u.endurance < endurance or u.mana < mana:
            raise RulesError(
                f"{u.name} has {u.endurance}E {u.mana}M, not enough for {why} "
                f"({endurance}E {mana}M)",
                rule("L800-804"),
            )
        u.endurance -= endurance
        u.mana -= mana
        u.spent += endurance

    def gain_endurance(self, u: Unit, n: int) -> int:
        """Recover Endurance up to 9 (L301-302); returns how much."""
        before = u.endurance
        u.endurance = min(MAX_ENDURANCE, u.endurance + n)
        return u.endurance - before

    def gain_mana(self, u: Unit, n: int) -> int:
        """Recover Mana up to the Mana stat ("up to its maximum", L2009, L2098)."""
        before = u.mana
        u.mana = min(max(self.card(u).stats.mana, u.mana), u.mana + n)
        return u.mana - before

    # -- statuses --------------------------------------------------------------------------
    def immune_status(self, u: Unit, status: str) -> bool:
        """Statues are immune to status effects (L1205); Dauntless and Inspire Bravery to flee
        (L1700-1701, L1897-1900)."""
        if u.statue:
            return True
        if status == "flee":
            return self.brave(u)
        # Poison is Acid type (L2067-2068)
        return status == "poison" and self.has(u, "Immune to Acid")

    def brave(self, u: Unit) -> bool:
        """Not affected by Fear and Flee: Dauntless, Inspire Bravery or an ally's aura."""
        if self.has(u, "Dauntless") or self.has(u, "Inspire Bravery"):
            return True
        if u.pos is None:
            return False
        for v in self.on_board(u.owner):
            if (
                v.uid != u.uid
                and self.has(v, "Inspire Bravery")
                and v.pos is not None
                and spaces(v.pos, u.pos) <= self.card(v).stats.command
            ):
                return True
        return False

    def add_status(self, u: Unit, status: str, n: int, source: int | None = None) -> None:
        """Place ``n`` status tokens (Hex X, Poison X, Stun, Flee; L1834-1837, L2067-2071,
        L2195-2197, L1781-1786)."""
        if n <= 0 or u.where != "board":
            return
        if self.immune_status(u, status):
            self.event("immune", f"{u.name} is not affected by {status}", "L1847-1900")
            return
        u.statuses[status] = u.statuses.get(status, 0) + n
        if status == "flee":
            u.flee_from = source
        if status == "poison":
            u.poisoned_by = source
        self.event(
            "status",
            f"{u.name} gains {status} {n} ({u.statuses[status]})",
            "L908-910",
            unit=u.uid,
            status=status,
            n=n,
        )

    def hexed(self, u: Unit) -> bool:
        """At least one Hex token (L1834-1837)."""
        return u.statuses.get("hex", 0) > 0

    def injuries_for_penalty(self, u: Unit) -> int:
        """Injuries counted for penalties (L1035-1042): none under Persevere (L2056-2060);
        Pain Warp's caster's injuries (L2045-2051)."""
        if u.persevere:
            return 0
        if u.pain_warp is not None:
            caster = self.unit(u.pain_warp)
            return max(u.injuries, caster.injuries)
        return u.injuries

    # -- defeat ----------------------------------------------------------------------------
    def set_injuries(self, u: Unit, level: int, by: Unit | None, lines: str) -> None:
        """Set a character's injury level and defeat it at Tuf (L1092-1099)."""
        u.injuries = max(0, level)
        if self.defeated_by_injuries(u):
            self.defeat(u, by, lines)

    def defeated_by_injuries(self, u: Unit) -> bool:
        """Injuries equal to or above Tuf defeat (L352-354); not under Persevere."""
        if u.persevere or u.clinging:
            return False  # L2056-2060, L1676-1678
        return u.injuries >= self.card(u).stats.toughness

    def defeat(self, u: Unit, by: Unit | None, lines: str, *, slay: bool = False) -> None:
        """Remove a defeated character (L790-795): drop what it carries; Glorious Combat
        (L1385-1391); Cling to Life is asked by the attack flow before this."""
        if u.where != "board":
            return
        from warbench.rulesets.collision.game.objectives import drop_all

        drop_all(self, u)
        u.where = "defeated"
        u.pos = None
        self.event(
            "defeated",
            f"{u.name} is defeated"
            + (f" by {by.name}" if by else "")
            + (" (slay)" if slay else ""),
            lines,
            unit=u.uid,
        )
        if by is not None and by.owner != u.owner and not u.statue:
            mine, theirs = self.rank(by), self.rank(u)
            if mine < theirs:
                self.s.glory[by.owner] += theirs - mine

    def suffer_hit(self, u: Unit, power: int, kind: str, by: Unit | None, lines: str) -> None:
        """A hit of a given Pow and type outside an attack roll (falling L549-551, Flame Wreath
        L1770-1772, Knockback L1937-1942, Poison L2067-2071, Dazzle's crit): an injury roll
        against Armor (L1084-1101); immune characters are not affected (L1847-1886)."""
        from warbench.rulesets.collision.attack import apply_injury, injury_level

        if u.where != "board":
            return
        if self.has(u, f"Immune to {kind}"):
            self.event("immune", f"{u.name} is not affected by the {kind} hit", "L1847-1886")
            return
        card = self.card(u)
        armor = card.stats.armor - self.injuries_for_penalty(u)
        if kind in ("Fire", "Cold", "Electric", "Light", "Dark") and self.has(
            u, "Resist Elements 2"
        ):
            armor += 2
        face = self.roll(f"{u.name}: Pow {power} {kind} hit", by=by, against=u)
        new = injury_level(face + power - armor)
        self.event(
            "hit",
            f"{u.name} suffers a Pow {power} {kind} hit: {face}+{power} against Armor "
            f"{armor}: injury {new}",
            lines,
            unit=u.uid,
            face=face,
        )
        if new:
            self.set_injuries(u, apply_injury(u.injuries, new), by, lines)

    def rank(self, u: Unit) -> int:
        """A character's rank: its tarot number (docs/rulings.md, Collision 3)."""
        return 0 if u.statue else self.card(u).tarot.rank


def ask(check: Callable[[], None]) -> str | None:
    """Run a rules check; the refusal's reason, or None."""
    try:
        check()
    except RulesError as exc:
        return exc.reason
    return None
