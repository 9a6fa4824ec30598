"""The everyday verbs of warbench in one place (``import warbench``; docs/api.md).

Thin wrappers over the rules modules, so a script needs one import instead of eight:

* :func:`load_unit` / :func:`load_roster`: a WARSURGE unit or roster from a file or a mapping;
* :func:`cost`: the itemised price of a unit (``ws-points-1``, docs/points.md) or the costs
  of a roster's entries;
* :func:`odds`: exact odds of one unit attacking another (Core Rules §5), or Monte Carlo;
* :func:`validate`: every roster violation (Core Rules §3, Perks §12.6), as a list;
* :func:`battle`: a full Standard game between rosters with a seed, and its record;
* :func:`roll`: a dice expression from the seeded dice service (Core Rules §1.1, §1.4).

Each wrapper calls the same rules code as the command line; nothing here decides a rule.
Heavy modules (NumPy, pydantic models, shapely) are imported when a verb is first called.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.battlefield import Board
    from warbench.rulesets.warsurge.game.events import Event
    from warbench.rulesets.warsurge.game.record import GameRecord
    from warbench.rulesets.warsurge.game.state import GameState, PlayerSetup
    from warbench.rulesets.warsurge.odds import AttackOdds
    from warbench.rulesets.warsurge.points import UnitCost
    from warbench.rulesets.warsurge.profiles import Unit
    from warbench.rulesets.warsurge.roster import Roster, RosterReport, Violation

__all__ = [
    "BattleResult",
    "DiceRoll",
    "battle",
    "cost",
    "load_roster",
    "load_unit",
    "odds",
    "report",
    "roll",
    "validate",
]

#: A file path or an already-parsed mapping (the file's content).
Source = str | PathLike[str] | Mapping[str, Any]


def _is_data(source: object) -> bool:
    return isinstance(source, Mapping)


def load_unit(source: Source, name: str | None = None) -> Unit:
    """A WARSURGE unit from a unit file (YAML/JSON, docs/formats.md) or its mapping.

    ``name`` picks one unit from a file or mapping with several (``units:``). Raises
    :class:`~warbench.kernel.errors.ProfileError` / ``DataFileError`` naming the field.
    """
    from warbench.kernel.errors import ProfileError, UnknownNameError
    from warbench.rulesets.warsurge import io

    if _is_data(source):
        data = dict(source)  # type: ignore[arg-type]
        units = io.units_from_data(data) if "units" in data else [io.unit_from_data(data)]
    else:
        units = io.load_units(source)  # type: ignore[arg-type]
    where = "<data>" if _is_data(source) else str(source)
    if name is None:
        if len(units) == 1:
            return units[0]
        names = ", ".join(u.name for u in units)
        raise ProfileError("name", None, f"one of the file's units: {names}", source=where)
    for u in units:
        if u.name.casefold() == name.casefold():
            return u
    raise UnknownNameError("unit", name, [u.name for u in units], where=where)


def load_roster(source: Source) -> Roster:
    """A WARSURGE roster (``roster export`` files, docs/rosters.md) from a file or mapping."""
    from warbench.rulesets.warsurge import roster_io

    if _is_data(source):
        return roster_io.roster_from_data(dict(source))  # type: ignore[arg-type]
    return roster_io.load_roster(source)  # type: ignore[arg-type]


def cost(unit: Unit | Source) -> UnitCost:
    """The itemised point cost of one unit under the points model (docs/points.md).

    ``cost(u).total`` is the price, ``cost(u).items`` every priced line (body, each weapon,
    mobility, transport, each perk with its method), ``cost(u).to_dict()`` the
    ``warbench points --json`` form. For a roster, see :func:`report`.
    """
    from warbench.rulesets.warsurge import points

    return points.cost_unit(_unit(unit))


def report(roster: Roster | Source) -> RosterReport:
    """Cost and check a roster: ``entries`` (full and roster points per entry), ``total``,
    ``violations`` and ``ok`` (the report behind ``warbench roster validate``)."""
    from warbench.rulesets.warsurge.roster import validate_roster

    return validate_roster(_roster(roster))


def validate(roster: Roster | Source) -> list[Violation]:
    """Every rule the roster breaks (empty when it is legal), in roster order; each
    :class:`~warbench.rulesets.warsurge.roster.Violation` has its explanation, fix and rule."""
    return list(report(roster).violations)


def odds(
    attacker: Unit | Source,
    target: Unit | Source,
    *,
    melee: bool = False,
    cover: bool = False,
    weapons: Sequence[str] = (),
    monte_carlo: int | None = None,
    seed: int | None = None,
) -> AttackOdds:
    """The odds of ``attacker`` attacking ``target`` once (Core Rules §5, Perks class A).

    Exact by default (falling back to Monte Carlo with a stated interval when enumeration
    would explode, like ``warbench odds``); ``monte_carlo=N`` samples N trials with
    ``SeededDice(seed)`` instead. Without ``melee`` the attack is shooting: only weapons that
    can shoot attack (a 0" weapon only in a Melee, Core Rules L1287); the result's
    ``weapons`` / ``unused_weapons`` say which. ``weapons`` chooses among them, in order.
    """
    from warbench.kernel.dice import SeededDice
    from warbench.rulesets.warsurge.attack import AttackContext, UnitState
    from warbench.rulesets.warsurge.odds import AttackPlan, attack_odds, sample_attack

    plan = AttackPlan(
        UnitState.of(_unit(attacker)),
        UnitState.of(_unit(target)),
        AttackContext(melee=melee, cover=cover),
        weapons=tuple(weapons),
    )
    if monte_carlo is None:
        return attack_odds(plan, seed=seed)
    plan.verify_weapons()
    return sample_attack(plan, monte_carlo, SeededDice(seed))


@dataclass(frozen=True)
class BattleResult:
    """A finished game: who won, the remaining values, and the record that replays it."""

    seed: int
    winner: str | None
    values: dict[str, float]
    turns: int
    state: GameState
    record: GameRecord
    events: tuple[Event, ...]

    @property
    def draw(self) -> bool:
        return self.winner is None


def battle(
    *rosters: PlayerSetup | Roster | Source,
    seed: int = 0,
    board: str | PathLike[str] | Board = "ruins_48x48",
    players: Literal["scripted", "random"] = "scripted",
    turns: int | None = None,
) -> BattleResult:
    """Play a full WARSURGE Standard game (docs/game.md) between two or more rosters.

    A roster is a game roster or exported WARSURGE roster file, its mapping, a
    :class:`~warbench.rulesets.warsurge.roster.Roster` or a ``PlayerSetup``. ``board`` is a
    sample board name, a board file or a ``Board``. The same seed plays the same game
    (``warbench battle ... --seed N``); ``result.record.save(path)`` writes the record that
    ``warbench replay`` verifies.
    """
    from warbench.kernel.errors import RulesError
    from warbench.rulesets.warsurge.battlefield import Board, load_board, sample_board
    from warbench.rulesets.warsurge.game import engine
    from warbench.rulesets.warsurge.game.geom import Field
    from warbench.rulesets.warsurge.game.players import (
        Player,
        RandomLegalPlayer,
        ScriptedPlayer,
    )
    from warbench.rulesets.warsurge.game.record import GameRecord
    from warbench.rulesets.warsurge.game.state import build_setup

    if len(rosters) < 2:
        raise RulesError("a battle needs at least two rosters", "Core Rules §2.2")
    if isinstance(board, Board):
        the_board = board
    elif Path(board).suffix in (".yaml", ".yml", ".json"):
        the_board = load_board(Path(board))
    else:
        the_board = sample_board(str(board))
    setup = build_setup([_player(r) for r in rosters], Field(the_board), game_length=turns)
    state, events = engine.new_game(setup, seed)
    who: list[Player] = [
        ScriptedPlayer() if players == "scripted" else RandomLegalPlayer(seed + k)
        for k in range(len(setup.sides))
    ]
    record = GameRecord(setup, seed)
    while not state.over and len(record.actions) < 20_000:
        side = engine.acting_side(state)
        assert side is not None
        action = who[side].choose(state)
        state, new_events = engine.apply(state, action)
        events.extend(new_events)
        record.add(action, state)
    result = state.result
    if result is None:
        raise RulesError("the game did not end within 20,000 actions", "Core Rules §2.2")
    names = setup.sides
    return BattleResult(
        seed=seed,
        winner=None if result.winner is None else names[result.winner],
        values={n: v for n, v in zip(names, result.values, strict=True)},
        turns=result.turns,
        state=state,
        record=record,
        events=tuple(events),
    )


@dataclass(frozen=True)
class DiceRoll:
    """One roll of the dice service: the expression, every face, the total and the seed."""

    expr: str
    faces: tuple[int, ...]
    total: int
    seed: int


def roll(expr: str = "D6", seed: int | None = None) -> DiceRoll:
    """Roll a dice expression (``D6``, ``2D6``, ``D3``, ``3D6+1``, ``2D6x3``; Core Rules §1.1)
    with ``SeededDice(seed)`` (a fresh seed when none is given, recorded in the result).
    The faces are those ``warbench roll EXPR --seed N`` shows."""
    from warbench.kernel.dice import DiceExpr, SeededDice

    dice = SeededDice(seed, light=True)
    total = dice.roll(DiceExpr.parse(expr, max_count=100_000))
    event = dice.log[-1]
    faces = tuple(int(f) for f in event.faces)
    return DiceRoll(str(DiceExpr.parse(expr, max_count=100_000)), faces, total, dice.seed)


# ------------------------------------------------------------------------------------ helpers


def _unit(unit: Unit | Source) -> Unit:
    from warbench.rulesets.warsurge.profiles import Unit

    return unit if isinstance(unit, Unit) else load_unit(unit)


def _roster(roster: Roster | Source) -> Roster:
    from warbench.rulesets.warsurge.roster import Roster

    return roster if isinstance(roster, Roster) else load_roster(roster)


def _player(roster: PlayerSetup | Roster | Source) -> PlayerSetup:
    from warbench.rulesets.warsurge.game.io import (
        load_game_roster,
        player_from_roster,
        roster_from_data,
    )
    from warbench.rulesets.warsurge.game.state import PlayerSetup
    from warbench.rulesets.warsurge.roster import Roster
    from warbench.rulesets.warsurge.roster_io import roster_to_data

    if isinstance(roster, PlayerSetup):
        return roster
    if isinstance(roster, Roster):
        return player_from_roster(roster_to_data(roster), roster.name)
    if _is_data(roster):
        data = dict(roster)  # type: ignore[arg-type]
        if "roster" in data or "point_limit" in data:
            return player_from_roster(data)
        return roster_from_data(data)
    return load_game_roster(roster)  # type: ignore[arg-type]
