"""Battle-group limits of a Collision pick-up game (``003_fc239e71486306e1.txt`` L580-617)
and the hand sorted into deployment phases (L678-686).

:func:`check_group` lists every violation at once, each with its rule lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warbench.kernel.errors import RulesError
from warbench.rulesets.collision.models import Arcana, BattleGroup

BOOK = "003_fc239e71486306e1.txt"
#: L272-273, L594-595: "no battle group can include more than 3 different attributes".
MAX_GROUP_ATTRIBUTES = 3


@dataclass(frozen=True)
class Violation:
    """One broken limit: what, where and the rule's lines."""

    field: str
    message: str
    rule: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message} [{self.rule}]"

    def to_error(self, source: str) -> RulesError:
        """The violation as a typed error naming the file."""
        return RulesError(f"{source}: {self.field}: {self.message}", self.rule)


def max_distinct_cards(points_limit: int) -> int:
    """L607-609: "limited to 1 per 250 points + 4"; per full 250 points (docs/rulings.md,
    Collision 4). L612-613: a 500 point game allows 6 different cards."""
    return points_limit // 250 + 4


def board_size(points_limit: int) -> tuple[int, int]:
    """The suggested board (columns x rows) for a point limit (L597-598; guidelines, L589-590).

    Above 1000 points the book gives no size; the largest board is kept.
    """
    if points_limit < 250:
        return (6, 8)
    if points_limit < 500:
        return (12, 10)
    if points_limit < 750:
        return (18, 10)
    return (24, 12)


def turn_limit(base: int, points_limit: int) -> int:
    """A major objective's "B+1 per 500 points" turn limit (L1184), per full 500 points."""
    return base + points_limit // 500


def phase_piles(hand: int) -> tuple[int, int, int]:
    """L682-686: three equal piles, remainders in the beginning phases (7 -> 3,2,2; 8 -> 3,3,2)."""
    if hand < 0:
        raise ValueError("a hand has 0 or more cards")
    q, r = divmod(hand, 3)
    return (q + (r > 0), q + (r > 1), q)


def group_points(group: BattleGroup) -> int:
    """Total points of every character, copies included (L600-603)."""
    return sum(card.points * count for card, count in group.cards())


def check_group(group: BattleGroup) -> list[Violation]:
    """Every battle-group limit the group breaks (empty list: the group is legal)."""
    out: list[Violation] = []
    cards = group.cards()
    total = group_points(group)
    if total > group.points_limit:
        out.append(
            Violation(
                "points",
                f"the battle group costs {total} points, above the limit of {group.points_limit}",
                f"{BOOK} L601-603",
            )
        )
    attributes: list[str] = []
    for card, _ in cards:
        for a in card.attributes:
            if a.lower() not in (x.lower() for x in attributes):
                attributes.append(a)
    if len(attributes) > MAX_GROUP_ATTRIBUTES:
        out.append(
            Violation(
                "attributes",
                f"{len(attributes)} different attributes ({', '.join(attributes)}); "
                f"allowed: at most {MAX_GROUP_ATTRIBUTES}",
                f"{BOOK} L272-273, L594-595",
            )
        )
    distinct = {card.name for card, _ in cards}
    limit = max_distinct_cards(group.points_limit)
    if len(distinct) > limit:
        out.append(
            Violation(
                "characters",
                f"{len(distinct)} different character cards; allowed: at most {limit} "
                f"(1 per 250 points + 4 at {group.points_limit} points)",
                f"{BOOK} L607-610",
            )
        )
    majors: dict[str, int] = {}
    for card, count in cards:
        if card.tarot.arcana is Arcana.MAJOR:
            label = card.tarot.name or card.name
            majors[label] = majors.get(label, 0) + count
    for label, n in majors.items():
        if n > 1:
            out.append(
                Violation(
                    "characters",
                    f"Major Arcana {label!r} is in the group {n} times; allowed: once",
                    f"{BOOK} L605-606, L613-614",
                )
            )
    return out


def group_report(group: BattleGroup) -> dict[str, Any]:
    """What ``warbench collision validate`` and the web workbench report of a battle group:
    its points against the limit (L600-603), its cards and different cards against the limit
    (L607-610), the suggested board (L597-598), the deployment phases (L682-686) and every
    violation with its rule lines."""
    hand = sum(n for _, n in group.cards())
    cols, rows = board_size(group.points_limit)
    return {
        "kind": "battle group",
        "name": group.name,
        "points": group_points(group),
        "points_limit": group.points_limit,
        "cards": hand,
        "different_cards": len({c.name for c, _ in group.cards()}),
        "max_different_cards": max_distinct_cards(group.points_limit),
        "board": f"{cols} x {rows}",
        "deployment_phases": list(phase_piles(hand)),
        "violations": [
            {"field": v.field, "message": v.message, "rule": v.rule} for v in check_group(group)
        ],
    }
