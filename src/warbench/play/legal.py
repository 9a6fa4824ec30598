"""Legal actions as a queryable object: a finite part you can list and parameterised families.

A ruleset may return its own object satisfying :class:`~warbench.play.core.LegalActions`, or
build a :class:`LegalSet` from

* the finite, already-checked actions (``finite``), and
* :class:`Family` entries for continuous choices: a name, the parameter domains
  (:class:`Interval`, :class:`Box`, :class:`Choice`) and a ``build`` function from parameter
  values to an action. A family is not enumerable; ``sample`` draws parameters, builds the
  action and keeps it only if ``check`` accepts it (rejection sampling).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from warbench.kernel.dice import SeededChoices
from warbench.play.core import JSON, Refusal

A = TypeVar("A")


@dataclass(frozen=True)
class Interval:
    """A real parameter in ``[low, high]``."""

    name: str
    low: float
    high: float

    def draw(self, rng: SeededChoices) -> float:
        """A uniform value in the interval."""
        return self.low + (self.high - self.low) * rng.random()

    def to_json(self) -> dict[str, JSON]:
        """The domain as JSON (for a client to offer)."""
        return {"type": "interval", "name": self.name, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class Box:
    """A point parameter in the rectangle ``[x0, x1] x [y0, y1]`` (a position on a board)."""

    name: str
    x0: float
    y0: float
    x1: float
    y1: float

    def draw(self, rng: SeededChoices) -> tuple[float, float]:
        """A uniform point in the rectangle."""
        return (
            self.x0 + (self.x1 - self.x0) * rng.random(),
            self.y0 + (self.y1 - self.y0) * rng.random(),
        )

    def to_json(self) -> dict[str, JSON]:
        """The domain as JSON (for a client to offer)."""
        return {
            "type": "box",
            "name": self.name,
            "x0": self.x0,
            "y0": self.y0,
            "x1": self.x1,
            "y1": self.y1,
        }


@dataclass(frozen=True)
class Choice:
    """A parameter taking one of a few values (a unit id, a weapon name)."""

    name: str
    values: tuple[JSON, ...]

    def draw(self, rng: SeededChoices) -> JSON:
        """One of the values, uniformly."""
        return rng.choice(self.values)

    def to_json(self) -> dict[str, JSON]:
        """The domain as JSON (for a client to offer)."""
        return {"type": "choice", "name": self.name, "values": list(self.values)}


Domain = Interval | Box | Choice


@dataclass(frozen=True)
class Family(Generic[A]):
    """A parameterised set of actions: ``build(values)`` for values drawn from ``params``.

    The domains bound the parameters; the ruleset's ``check`` decides which built actions are
    legal (a move "to any point within 6 inches" is a :class:`Box` around the unit plus the
    distance rule in ``check``).
    """

    name: str
    params: tuple[Domain, ...]
    build: Callable[[tuple[JSON, ...]], A]

    def draw(self, rng: SeededChoices) -> A:
        """An action built from parameters drawn from each domain (not yet checked)."""
        return self.build(tuple(p.draw(rng) for p in self.params))

    def to_json(self) -> dict[str, JSON]:
        """The family's name and parameter domains as JSON."""
        return {"name": self.name, "params": [p.to_json() for p in self.params]}


@dataclass
class LegalSet(Generic[A]):
    """Legal actions of one player: ``finite`` (checked) plus parameterised ``families``.

    ``check`` is the ruleset's check for this state and player (``None`` means legal).
    ``tries`` bounds rejection sampling in a family before it is skipped for that draw.
    """

    player: int
    check: Callable[[A], Refusal | None]
    finite_actions: Sequence[A] = ()
    families: Sequence[Family[A]] = ()
    tries: int = 64
    _dead: set[int] = field(default_factory=set, init=False, repr=False)

    @property
    def finite(self) -> bool:
        """Whether the set is only its listed actions (no families)."""
        return not self.families

    def __contains__(self, action: object) -> bool:
        try:
            return self.check(action) is None  # type: ignore[arg-type]
        except (TypeError, AttributeError, ValueError):
            return False  # not an action of this ruleset

    def __iter__(self) -> Iterator[A]:
        return iter(self.finite_actions)

    def __len__(self) -> int:
        """How many actions, only when the set is finite."""
        if not self.finite:
            raise TypeError("a set with parameterised families has no length; use sample()")
        return len(self.finite_actions)

    def __bool__(self) -> bool:
        return bool(self.finite_actions) or bool(self.families)

    def sample(self, rng: SeededChoices, n: int = 1) -> list[A]:
        """``n`` legal actions drawn with replacement: each draw picks one of the finite actions
        or one family (uniformly over those slots), and a family draws parameters until
        ``check`` accepts (up to ``tries`` times). Empty if there is nothing legal."""
        out: list[A] = []
        attempts = 0
        while len(out) < n and attempts < n * 4 + 4:
            attempts += 1
            live = [k for k in range(len(self.families)) if k not in self._dead]
            slots = len(self.finite_actions) + len(live)
            if slots == 0:
                break
            k = int(rng.random() * slots)
            if k < len(self.finite_actions):
                out.append(self.finite_actions[k])
                continue
            fam_index = live[k - len(self.finite_actions)]
            action = self._draw(self.families[fam_index], rng)
            if action is None:
                self._dead.add(fam_index)
            else:
                out.append(action)
        return out

    def _draw(self, family: Family[A], rng: SeededChoices) -> A | None:
        for _ in range(self.tries):
            action = family.draw(rng)
            if self.check(action) is None:
                return action
        return None

    def to_json(self, dump: Callable[[A], JSON]) -> dict[str, JSON]:
        """The set as JSON: the finite actions and the families' parameter domains (what a
        web client shows as buttons and as a region to click)."""
        return {
            "player": self.player,
            "finite": self.finite,
            "actions": [dump(a) for a in self.finite_actions],
            "families": [f.to_json() for f in self.families],
        }


#: where in a range :func:`family_example` looks, in order: the middle, then outwards
_STEPS = (0.5, 0.3, 0.7, 0.1, 0.9)


def family_example(
    family: Family[A], check: Callable[[A], object] | None = None, *, tries: int = 60
) -> tuple[A, bool] | None:
    """An action of ``family`` to show a person as an example, and whether ``check`` (the
    ruleset's check for the question; ``None``: every action) accepts it.

    Values are tried from the middle of each range outwards (a box's points to a tenth of an
    inch, an interval's values, a choice's first few), at most ``tries`` checks; the first
    accepted is the example, else the first built with ``False`` (session 36: the middle of a
    WarEngine move's box is where the figure stands, which the rules refuse). ``None`` when
    no action can be built (a domain without values, or ``build`` refusing the values).

    >>> fam = Family("move", (Box("to", 0, 0, 10, 10),), lambda v: v[0])
    >>> family_example(fam)
    ((5.0, 5.0), True)
    >>> family_example(fam, lambda a: None if a[0] < 2 else "too far")
    ((1.0, 5.0), True)
    >>> family_example(fam, lambda a: "never")
    ((5.0, 5.0), False)
    """
    from itertools import islice, product

    options: list[list[JSON]] = []
    for p in family.params:
        if isinstance(p, Box):
            grid = [
                (round(p.x0 + fx * (p.x1 - p.x0), 1), round(p.y0 + fy * (p.y1 - p.y0), 1))
                for fx, fy in product(_STEPS, _STEPS)
            ]
            mx, my = grid[0]
            options.append(sorted(grid, key=lambda v: abs(v[0] - mx) + abs(v[1] - my)))
        elif isinstance(p, Interval):
            options.append([round(p.low + f * (p.high - p.low), 1) for f in _STEPS])
        elif isinstance(p, Choice) and p.values:
            options.append(list(p.values[:5]))
        else:
            return None
    first: A | None = None
    for values in islice(product(*options), tries):
        try:
            action = family.build(tuple(values))
        except Exception:  # a family whose build wants other values
            return None
        if first is None:
            first = action
        try:
            accepted = check is None or check(action) is None
        except (TypeError, AttributeError, ValueError):
            accepted = False
        if accepted:
            return action, True
    return None if first is None else (first, False)
