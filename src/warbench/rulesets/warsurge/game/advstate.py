"""The Advanced playstyle's bookkeeping (Core Rules 001_d3f5e425c5e1196d.txt §8, §9.1-9.3).

Kept apart from :mod:`.state` (which only holds an optional :class:`AdvancedFlow` in its
``Flow``) so a Standard game's states, digests and records are unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from warbench.rulesets.warsurge.game.actions import action_from_dict, action_to_dict

#: §9.2: the Actions whose CP cost doubles with each reuse by the same unit on a Game Turn
DOUBLING = ("Move", "Dash", "Attack", "Use Perks", "Prepare", "Guard")


class Playstyle(StrEnum):
    """§8: the two playstyles, two flow definitions over the same actions."""

    STANDARD = "standard"
    ADVANCED = "advanced"


#: §9.3 Counter Actions and their parent Actions (whose CP cost they share)
COUNTER_KINDS = {"none": "", "attack": "Attack", "guard": "Guard", "perk": "Use Perks"}


@dataclass(frozen=True)
class CounterAsk:
    """An Attack Action waiting for its targets' Counter Actions (§9.3): ``asked`` are the
    target units still to decide (``sides`` their controllers), ``chosen`` the decisions."""

    attacker: int
    attack: Any  # the Attack action (resolved once every target has decided)
    asked: tuple[int, ...]
    sides: tuple[int, ...]
    chosen: tuple[tuple[int, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker,
            "attack": action_to_dict(self.attack),
            "asked": list(self.asked),
            "sides": list(self.sides),
            "chosen": [list(c) for c in self.chosen],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CounterAsk:
        return cls(
            attacker=int(data["attacker"]),
            attack=action_from_dict(data["attack"]),
            asked=tuple(int(v) for v in data["asked"]),
            sides=tuple(int(v) for v in data["sides"]),
            chosen=tuple((int(u), str(k)) for u, k in data.get("chosen", [])),
        )


@dataclass(frozen=True)
class AdvancedFlow:
    """Command Points and the current Action Step (§9.1 steps 2-3, §9.2).

    ``uses`` counts each unit's uses of each Action on this Game Turn (Counter Actions count
    for their parent Action, §9.3); ``guard`` the Defence bonus of Guard; ``supported`` the
    units that used Support; ``actors`` the units that made an Action or Counter Action.
    """

    cp: tuple[int, ...]
    uses: tuple[tuple[int, str, int], ...] = ()
    guard: tuple[tuple[int, int], ...] = ()
    supported: frozenset[int] = frozenset()
    actors: frozenset[int] = frozenset()
    step_unit: int | None = None  # the unit of the Action Step under way
    step_done: int = 0  # Actions made in it (0 or 1; the second ends it)
    counter: CounterAsk | None = None  # an Attack waiting for Counter Actions (§9.3)
    pending: tuple[Any, ...] = ()  # Counter Attacks to resolve after the Attack (§9.3)

    def used(self, uid: int, name: str) -> int:
        for u, n, k in self.uses:
            if u == uid and n == name:
                return k
        return 0

    def cost(self, uid: int, name: str) -> int:
        """§9.2: 1 CP, doubling with each reuse; Deploy is free, Support generates 1 CP."""
        if name == "Deploy":
            return 0
        if name == "Support":
            return -1
        return int(2 ** self.used(uid, name))

    def cp_refusal(self, uid: int, name: str, side: int, label: str, side_name: str) -> str | None:
        """§9.2: why ``label`` cannot pay for ``name`` now (its doubling cost over the side's
        CP), or None; the Action Steps and the Opportunist window (Perks L1345) both ask."""
        cost = self.cost(uid, name)
        if cost <= self.cp[side]:
            return None
        return (
            f"{name} costs {label} {cost} CP (used {self.used(uid, name)} times this Game "
            f"Turn); {side_name} has {self.cp[side]} CP"
        )

    def guard_of(self, uid: int) -> int:
        return dict(self.guard).get(uid, 0)

    def with_use(self, uid: int, name: str) -> AdvancedFlow:
        rest = [(u, n, k) for u, n, k in self.uses if not (u == uid and n == name)]
        uses = tuple(sorted((*rest, (uid, name, self.used(uid, name) + 1))))
        return replace(self, uses=uses, actors=self.actors | {uid})

    def with_cp(self, side: int, delta: int) -> AdvancedFlow:
        cp = list(self.cp)
        cp[side] += delta
        return replace(self, cp=tuple(cp))

    def with_guard(self, uid: int, bonus: int) -> AdvancedFlow:
        rest = [(u, b) for u, b in self.guard if u != uid]
        if bonus:
            rest.append((uid, bonus))
        return replace(self, guard=tuple(sorted(rest)))

    def to_json(self) -> dict[str, Any]:
        return {
            "cp": list(self.cp),
            "uses": [list(x) for x in self.uses],
            "guard": [list(x) for x in self.guard],
            "supported": sorted(self.supported),
            "actors": sorted(self.actors),
            "step_unit": self.step_unit,
            "step_done": self.step_done,
            "counter": None if self.counter is None else self.counter.to_json(),
            "pending": [action_to_dict(p) for p in self.pending],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AdvancedFlow:
        return cls(
            cp=tuple(int(v) for v in data["cp"]),
            uses=tuple((int(u), str(n), int(k)) for u, n, k in data.get("uses", [])),
            guard=tuple((int(u), int(b)) for u, b in data.get("guard", [])),
            supported=frozenset(int(v) for v in data.get("supported", [])),
            actors=frozenset(int(v) for v in data.get("actors", [])),
            step_unit=data.get("step_unit"),
            step_done=int(data.get("step_done", 0)),
            counter=None if data.get("counter") is None else CounterAsk.from_json(data["counter"]),
            pending=tuple(action_from_dict(p) for p in data.get("pending", [])),
        )


def weapon_type_bar(
    name: str, heavy: Sequence[bool], battle: Sequence[bool], present: Sequence[int]
) -> str | None:
    """§5.1 Weapon Types (001 L2234-L2240): the weapons fired this Game Turn that bar a Move
    (a Heavy Weapon) or a Dash (a Battle or Heavy Weapon) of the unit, worded for a refusal
    ("a Heavy Weapon", "a Battle or Heavy Weapon"), or None."""
    if name == "Move" and any(heavy[i] for i in present):
        return "a Heavy Weapon"
    if name == "Dash" and any(heavy[i] or battle[i] for i in present):
        return "a Battle or Heavy Weapon"
    return None
