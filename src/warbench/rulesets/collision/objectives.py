"""Game objectives: the D10 tables, the 10 major and 10 minor objectives, and the methods of
choosing them (``003_fc239e71486306e1.txt`` L426-480, L1153-1391).

Only the choosing and the fixed facts of each objective (deployment type, turn limit, Victory
Points, source lines) are here; placing markers and scoring belong to the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from warbench.kernel.errors import RulesError, UnknownNameError
from warbench.rulesets.collision.dice import Roll

BOOK = "003_fc239e71486306e1.txt"
#: L439-441: "the major objective is worth 5 Victory Points, and each minor objective is worth 3"
MAJOR_VP = 5
MINOR_VP = 3


class Deployment(StrEnum):
    """The four deployment styles (L629-674)."""

    SHORT_SIDE = "short-side"
    LONG_SIDE = "long-side"
    CENTER = "center"
    DIAGONAL = "diagonal"


@dataclass(frozen=True)
class Objective:
    """One objective: its D10 number, name and source lines; majors add deployment and turns."""

    roll: int
    name: str
    lines: tuple[int, int]
    major: bool
    deployment: Deployment | None = None
    turn_base: int | None = None  # "Turn Limit: B+1 per 500 points"

    @property
    def source(self) -> str:
        """``003_fc239e71486306e1.txt L1181-1196``."""
        return f"{BOOK} L{self.lines[0]}-{self.lines[1]}"

    def turn_limit(self, points_limit: int) -> int:
        """B + 1 per full 500 points (docs/rulings.md, Collision 4)."""
        if self.turn_base is None:
            raise RulesError(
                f"{self.name} is a minor objective; majors set the turn limit", f"{BOOK} L447-448"
            )
        return self.turn_base + points_limit // 500


_L, _S, _C, _D = Deployment.LONG_SIDE, Deployment.SHORT_SIDE, Deployment.CENTER, Deployment.DIAGONAL
#: L1155-1165 (the D10 table) and L1179-1331 (each objective).
MAJOR: tuple[Objective, ...] = (
    Objective(1, "Capture the Chest", (1181, 1196), True, _L, 5),
    Objective(2, "Statues of Good & Evil", (1198, 1215), True, _S, 4),
    Objective(3, "Headhunter", (1217, 1228), True, _S, 4),
    Objective(4, "Mystic Obelisk", (1230, 1242), True, _D, 5),
    Objective(5, "Capture the Standard", (1244, 1260), True, _L, 5),
    Objective(6, "Lights in the Darkness", (1262, 1275), True, _D, 5),
    Objective(7, "Supply Raid", (1277, 1289), True, _C, 4),
    Objective(8, "Relic Theft", (1291, 1304), True, _C, 4),
    Objective(9, "Rushed Study", (1306, 1315), True, _D, 4),
    Objective(10, "Lost Trinket", (1317, 1331), True, _L, 5),
)
#: L1167-1177 (the D10 table) and L1333-1391 (each objective).
MINOR: tuple[Objective, ...] = (
    Objective(1, "Tactical Victory", (1335, 1337), False),
    Objective(2, "High Ground", (1339, 1341), False),
    Objective(3, "Map Carriers", (1343, 1346), False),
    Objective(4, "Past Enemy Lines", (1348, 1350), False),
    Objective(5, "Survival is Key", (1352, 1354), False),
    Objective(6, "The Dark Gods", (1356, 1362), False),
    Objective(7, "Hallowed Earth", (1364, 1368), False),
    Objective(8, "Shards of the Old World", (1370, 1378), False),
    Objective(9, "God's Favor", (1380, 1383), False),
    Objective(10, "Glorious Combat", (1385, 1391), False),
)


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower().replace("’", "'") if ch.isalnum())


def find(name: str, *, major: bool) -> Objective:
    """The major (or minor) objective named ``name``; UnknownNameError with suggestions."""
    table = MAJOR if major else MINOR
    for o in table:
        if _key(o.name) == _key(name):
            return o
    kind = "major objective" if major else "minor objective"
    raise UnknownNameError(kind, name, [o.name for o in table], where=f"{BOOK} L1155-1177")


@dataclass(frozen=True)
class Objectives:
    """The objectives of one battle: a major and two different minors."""

    major: Objective
    minors: tuple[Objective, Objective]
    method: str

    def __post_init__(self) -> None:
        if self.minors[0] == self.minors[1]:
            raise RulesError("the two minor objectives must differ", f"{BOOK} L456-458")


def _two_different_minors(first: Objective, roll: Roll) -> tuple[Objective, Objective]:
    # L456-458, L477-479: re-roll one of them until the two minor objectives differ.
    second = MINOR[roll("minor objective") - 1]
    while second == first:
        second = MINOR[roll("minor objective (re-roll)") - 1]
    return first, second


def random_method(roll: Roll) -> Objectives:
    """L451-460: 1D10 on the major chart, 2D10 on the minor chart, re-rolling a repeat."""
    major = MAJOR[roll("major objective") - 1]
    first = MINOR[roll("minor objective") - 1]
    return Objectives(major, _two_different_minors(first, roll), "random")


def _pick(options: Sequence[Objective], roll: Roll, label: str) -> Objective:
    """One of ``options`` with equal chances, read from D10s: with two options 1-5 picks the
    first and 6-10 the second; faces beyond a multiple of the count are re-rolled."""
    n = len(options)
    if n == 1:
        return options[0]
    usable = 10 - 10 % n  # faces beyond a multiple of n are re-rolled
    while True:
        face = roll(label)
        if face <= usable:
            return options[(face - 1) * n // usable]


def selection_method(
    majors: tuple[str, str], minors: tuple[Sequence[str], Sequence[str]], roll: Roll
) -> Objectives:
    """L462-468: each player chooses a major and two minors; the battle's are chosen at random
    between both players' selections. docs/rulings.md Collision 13: the major is one of the two
    chosen majors; one minor comes from each player's pair; a repeat is re-selected from the
    second player's pair, and if both of that player's minors repeat the first, from the chart.
    """
    for pair in minors:
        if len(pair) != 2:
            raise RulesError("each player chooses two minor objectives", f"{BOOK} L462-463")
    chosen_major = _pick([find(m, major=True) for m in majors], roll, "major objective")
    pair_a = [find(m, major=False) for m in minors[0]]
    pair_b = [find(m, major=False) for m in minors[1]]
    first = _pick(pair_a, roll, "minor objective (player 1)")
    left = [m for m in pair_b if m != first]
    if left:
        second = _pick(left, roll, "minor objective (player 2)")
        return Objectives(chosen_major, (first, second), "selection")
    return Objectives(chosen_major, _two_different_minors(first, roll), "selection")


def hybrid_method(minors: tuple[str, str], roll: Roll) -> Objectives:
    """L475-480: each player chooses one minor, the major is rolled; if both chose the same
    minor, roll for the other on the chart until the two differ."""
    major = MAJOR[roll("major objective") - 1]
    a, b = (find(m, major=False) for m in minors)
    if a != b:
        return Objectives(major, (a, b), "hybrid")
    return Objectives(major, _two_different_minors(a, roll), "hybrid")


def outside_method(major: str, minors: tuple[str, str]) -> Objectives:
    """L470-473: someone other than the players chooses all three."""
    a, b = (find(m, major=False) for m in minors)
    return Objectives(find(major, major=True), (a, b), "outside")
