"""Pauses of the WARSURGE game that wait for a player to place models (001 §4.2 IV, §5.11,
§6.6): a destroyed Transport's survivors (:class:`Wreck`) and the Coherency and Base Contact
steps (:class:`CoherencyPause`). Kept apart from :mod:`.state`, which imports them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Point = tuple[float, float]

__all__ = ["CoherencyPause", "Wreck"]


@dataclass(frozen=True)
class Wreck:
    """A unit to place out of a destroyed Transport (§6.6): ``site`` the Transport's model
    positions and ``site_r`` its base radius (where it stood). ``piece`` names a destroyed
    terrain piece the unit was inside (§10.3 L4470-4472, "treat it as per the Transport rules
    listed in Section 6.6"): then ``site`` is a grid of points over its footprint, each
    covering the disc ``site_r`` around it."""

    unit: int
    site: tuple[Point, ...]
    site_r: float
    piece: str = ""

    def to_json(self) -> list[Any]:
        out: list[Any] = [self.unit, [list(p) for p in self.site], self.site_r]
        if self.piece:
            out.append(self.piece)
        return out


@dataclass(frozen=True)
class CoherencyPause:
    """The removal of casualties (the end of the Standard Attack Phase, or of an Advanced
    Attack Action, §9.1 IV) waiting for a player to place models, one unit at a time in the
    engine's order; the unit deciding is ``units[0]``. Its ``stage``:

    * ``"survivors"`` (without ``Automation.MODEL_PLACEMENT``): a destroyed Transport's passengers
      (§6.6), ``wrecks[0]`` waiting; ``wrecks[1:]`` follow, then the casualties of the units in
      ``removals`` are removed (passengers first, as the engine does);
    * ``"coherency"`` (without ``Automation.COHERENCY``): the units in ``units`` are out of
      Coherency after their casualties (§4.2 IV);
    * ``"contact"`` (without ``Automation.COHERENCY``): the Melee ``pairs[0]`` lost its Base
      Contact and ``units[0]`` (the engine's choice of the unit that moves, §4.4 III) moves
      back; ``pairs[1:]`` are checked after it (§5.11).

    ``counts`` are the casualties removed per unit (the Base Contact step moves the units with
    most casualties first); ``dice`` the step's dice as they stood (copied on every resume),
    so the rest of the phase rolls as the automated game does."""

    units: tuple[int, ...]
    counts: tuple[tuple[int, int], ...]
    dice: Any = field(compare=False, repr=False)
    stage: str = "coherency"
    removals: tuple[int, ...] = ()
    wrecks: tuple[Wreck, ...] = ()
    pairs: tuple[tuple[int, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """What the digest and a view show of the pause (a Coherency pause as it always was:
        the other stages add their fields)."""
        out: dict[str, Any] = {"units": list(self.units), "counts": [list(c) for c in self.counts]}
        if self.stage != "coherency":
            out["stage"] = self.stage
        if self.removals:
            out["removals"] = list(self.removals)
        if self.wrecks:
            out["wrecks"] = [w.to_json() for w in self.wrecks]
        if self.pairs:
            out["pairs"] = [list(p) for p in self.pairs]
        return out
