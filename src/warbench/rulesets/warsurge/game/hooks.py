"""Declared hook points for perks (pluggy: declared up front, checked at registration).

The Standard game fires these hooks; the remaining perk families plug into them. A hook
implementation receives the :class:`~.work.Work` of the action being applied (it may change
unit statuses, counters and limited uses, or emit events through it) plus the keyword
arguments its spec declares. Registration checks the implementation's parameters against the
spec, so a misspelled perk hook fails when it registers, never in the middle of a battle.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from warbench.kernel.errors import WarbenchError
from warbench.rulesets.warsurge.game.setup_perks import named_perks

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work


class Hook(StrEnum):
    TURN_START = "turn_start"
    TURN_END = "turn_end"
    PHASE_START = "phase_start"
    PHASE_END = "phase_end"
    BEFORE_MOVE = "before_move"
    AFTER_MOVE = "after_move"
    HP_LOST = "hp_lost"
    ATTACK_DICE = "attack_dice"  # a weapon's Attack Dice succeeded (before Saves, P L255)
    CASUALTY = "casualty"
    DEPLOY = "deploy"
    WEAPON_USED = "weapon_used"  # a weapon's share of an Attack has been resolved (P L319)
    USE_PERKS = "use_perks"  # §9.2 Use Perks (Advanced): the unit uses activated Unit Perks


#: The keyword arguments each hook passes (besides ``work``).
HOOK_SPECS: dict[Hook, tuple[str, ...]] = {
    Hook.TURN_START: ("turn",),
    Hook.TURN_END: ("turn",),
    Hook.PHASE_START: ("phase",),
    Hook.PHASE_END: ("phase",),
    Hook.BEFORE_MOVE: ("unit", "dash"),
    Hook.AFTER_MOVE: ("unit", "dash", "distance"),
    Hook.HP_LOST: ("unit", "amount", "source", "attacker"),  # attacker: None for terrain
    Hook.CASUALTY: ("unit", "model", "source"),
    Hook.ATTACK_DICE: ("unit", "successes", "source", "attacker"),
    Hook.DEPLOY: ("unit",),
    Hook.WEAPON_USED: ("unit", "weapon", "target"),
    Hook.USE_PERKS: ("unit", "perks"),
}


class HookSpecError(WarbenchError):
    """A hook implementation does not match its declared spec."""


HookImpl = Callable[..., None]


#: The implementations of each hook point that a game runs, in registration order.
Fired = dict[Hook, tuple[tuple[str, HookImpl], ...]]
#: A question of a game's set-up alone (its units with some perk), asked once per set-up.
SetupTest = Callable[[Any], object]


@dataclass
class HookRegistry:
    """Implementations per hook point, in registration order.

    An implementation registered with ``perks`` does nothing in a game whose set-up names none
    of them (``setup_perks.named_perks``), so such a game does not fire it (issue 10: the
    ~140 perk hooks each asked their own question of every game). One registered with
    ``when`` does nothing in a game whose set-up that question answers falsy: the very test
    the implementation begins with (its units with the perk, worked out once per set-up), so
    a game without them does not fire it either (issue 10, session 37)."""

    impls: dict[Hook, list[tuple[str, HookImpl]]] = field(default_factory=dict)
    #: the perks (effects table names) of the implementations registered with some, by
    #: (hook, name, implementation)
    needs: dict[tuple[Hook, str, HookImpl], frozenset[str]] = field(default_factory=dict)
    #: the set-up's question of the implementations registered with one (``when``), likewise
    whens: dict[tuple[Hook, str, HookImpl], SetupTest] = field(default_factory=dict)
    #: per set-up (by id, the set-up held) the implementations its games fire
    _fired: dict[int, tuple[object, Fired]] = field(default_factory=dict, repr=False)
    _last: tuple[object, Fired] | None = field(default=None, repr=False)

    def register(
        self,
        hook: Hook | str,
        fn: HookImpl,
        name: str | None = None,
        *,
        first: bool = False,
        perks: Iterable[str] | None = None,
        when: SetupTest | None = None,
    ) -> None:
        """Add ``fn`` to ``hook`` (checked against the spec now), last or ``first``; with
        ``perks``, only for the games whose set-up names one of them; with ``when``, only for
        the games whose set-up it answers truthy (a question of the set-up alone, which
        ``fn`` asks first and returns on when falsy; see the class)."""
        hook = Hook(hook)
        expected = ("work", *HOOK_SPECS[hook])
        params = inspect.signature(fn).parameters
        names = tuple(params)
        accepts_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
        if not accepts_any and names != expected:
            raise HookSpecError(
                f"hook {hook.value} implementation {name or fn.__name__} takes {names}; "
                f"the spec is {expected}"
            )
        impls = self.impls.setdefault(hook, [])
        impls.insert(0 if first else len(impls), (name or fn.__name__, fn))
        if perks is not None:
            self.needs[(hook, name or fn.__name__, fn)] = frozenset(perks)
        if when is not None:
            self.whens[(hook, name or fn.__name__, fn)] = when
        self._fired.clear()
        self._last = None

    def limit(self, fn: HookImpl, when: SetupTest) -> None:
        """Every registration of ``fn`` so far fired only in the games whose set-up ``when``
        answers truthy, as if registered with it (for hooks registered where the line
        cannot be changed: ``perk_families``)."""
        for hook, impls in self.impls.items():
            for name, impl in impls:
                if impl is fn:
                    self.whens[(hook, name, impl)] = when
        self._fired.clear()
        self._last = None

    def active(self, hook: Hook) -> bool:
        return bool(self.impls.get(hook))

    def fired(self, setup: object) -> Fired:
        """The implementations a game of ``setup`` fires, per hook point (once per set-up)."""
        last = self._last
        if last is not None and last[0] is setup:
            return last[1]
        hit = self._fired.get(id(setup))
        if hit is None or hit[0] is not setup:
            named = named_perks(setup)
            kept: Fired = {
                hook: tuple(
                    (name, fn)
                    for name, fn in impls
                    if ((need := self.needs.get((hook, name, fn))) is None or need & named)
                    and ((when := self.whens.get((hook, name, fn))) is None or when(setup))
                )
                for hook, impls in self.impls.items()
            }
            if len(self._fired) > 64:
                self._fired.clear()
            hit = self._fired[id(setup)] = (setup, kept)
        self._last = hit
        return hit[1]

    def fire(self, hook: Hook, work: Work, **kwargs: Any) -> None:
        for _name, fn in self.fired(work.setup).get(hook, ()):
            fn(work, **kwargs)


def tick_statuses(work: Work, turn: int) -> None:
    """End of Game Turn: statuses with a duration lose one turn and expire at zero; a status
    waiting for the next Game Turn (``perk_effects.DELAYED``) starts instead."""
    from warbench.rulesets.warsurge.game.perk_effects import DELAYED

    for uid, u in enumerate(work.units):
        if not u.statuses:
            continue
        kept = []
        for s in u.statuses:
            if s.name.endswith(DELAYED):
                from dataclasses import replace

                kept.append(replace(s, name=s.name[: -len(DELAYED)]))
            elif s.turns is None:
                kept.append(s)
            elif s.turns > 1:
                from dataclasses import replace

                kept.append(replace(s, turns=s.turns - 1))
            else:
                work.emit("status", f"{work.label(uid)}: {s.name} ends", rule="Perks §12")
        work.set_unit(uid, statuses=tuple(kept))


def standard_hooks() -> HookRegistry:
    """The hooks every Standard game has: status durations. The perk effects engine
    (``perk_hooks.py``) adds its own when the game package loads."""
    reg = HookRegistry()
    reg.register(Hook.TURN_END, tick_statuses, "status durations")
    return reg


DEFAULT_HOOKS = standard_hooks()
