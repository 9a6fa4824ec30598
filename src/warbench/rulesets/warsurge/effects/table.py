"""The reviewed table of perk effects (``data/effects.json``), loaded and checked once.

Every rank of the catalog has exactly one row, in book order, citing the line where the rank
starts (``000_94ecc6a4c74d351b.txt L2616``) — the same line as the catalog's. Rows are read
into :class:`~.model.PerkEffects`; any unknown trigger, test, target, quantity, operation or
machinery is a :class:`~warbench.kernel.errors.DataFileError` naming the row and the allowed
values, raised when the table loads, never in the middle of a battle (STYLE.md §5, pluggy).
:meth:`EffectTable.unimplemented` lists the ranks whose row says when they act but not yet what
they do; ``warbench perks --coverage`` prints them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, TypeVar

from warbench.kernel.errors import DataFileError
from warbench.rulesets.warsurge.effects.mode import template_from
from warbench.rulesets.warsurge.effects.model import (
    Effect,
    EffectKind,
    Modifier,
    Op,
    PerkEffects,
    PerkTest,
    Quantity,
    Rounding,
    Side,
    TargetKind,
    TargetSpec,
    TestSpec,
    Trigger,
    Uses,
)

__all__ = ["MACHINERIES", "EffectTable", "load_table"]

SOURCE = "warbench/rulesets/warsurge/effects/data/effects.json"

#: The code machineries an effect may name, declared up front (pluggy): a row naming any
#: other is refused when the table loads.
MACHINERIES: Mapping[str, str] = {
    "attack sequence": "warbench.rulesets.warsurge.attack (compile_weapon_use, §5 and §12.1)",
    "leech": "warbench.rulesets.warsurge.game.perk_effects (the inflicting unit regains HP)",
    "start of turn": "warbench.rulesets.warsurge.game.perk_turn (tests and rolls as a Game "
    "Turn starts, bonuses by Game Turns on the Battlefield)",
    "hp threshold": "warbench.rulesets.warsurge.game.perk_turn (Stats by the User's HP)",
    "weapon limit": "warbench.rulesets.warsurge.game.perk_turn (when a weapon may be used)",
    "casualty": "warbench.rulesets.warsurge.game.perk_turn (instead of a casualty: Reservoir, "
    "Last Stand; Resurrection)",
    "presence": "warbench.rulesets.warsurge.game.perk_turn (Roster Perks while a Presence "
    "unit is on the Battlefield)",
    "test modifiers": "warbench.rulesets.warsurge.game.perk_turn and perk_hooks (Dice "
    "Modifiers on Mastery and Skill Tests)",
    "targeting": "warbench.rulesets.warsurge.game.perk_limits (whom a weapon may or must "
    "Target: Taunt, Provoke, Trajectory)",
    "transform": "warbench.rulesets.warsurge.game.perk_limits (a form chosen at the start of "
    "each Game Turn: Transform I-III; Wild Armour's roll)",
    "relocation": "warbench.rulesets.warsurge.game.perk_relocation (Blink, Teleport: Movement "
    "that is neither a Move nor a Dash)",
    "revive": "warbench.rulesets.warsurge.game.perk_revive (Revive, Reanimate: a fallen unit "
    "brought back at full HP)",
    "reserve": "warbench.rulesets.warsurge.game.perk_reserve (Warp, Vanish, Unstable: a unit "
    "sent into Reserve)",
    "ignite": "warbench.rulesets.warsurge.game.perk_ignite (Ignite I/II: an Attack at the end "
    "of each Game Turn while it burns)",
    "flee": "warbench.rulesets.warsurge.game.perk_flee (Fall Back, Terrify, Dread: Movement "
    "toward the unit's board edge, into Reserve there)",
    "template": "warbench.rulesets.warsurge.game.perk_mode (Mode templates: every unit under "
    "the template attacked, effects.mode's geometry)",
    "chain": "warbench.rulesets.warsurge.game.perk_mode (Chain: the Weapon attacks enemy units "
    "near a Target it damaged)",
    "movement perks": "warbench.rulesets.warsurge.game.perk_movement (Movement perks by the "
    "Game Turn: Nonstop; after a Move: Charge) and effects.movement (Traverse: the ground's "
    "cost; Implacable: Heavy Weapons after a Move)",
    "leadership": "warbench.rulesets.warsurge.game.perk_leadership (Orders, Egotistical; the "
    "Roster Perks Avenge and Despair when their unit falls)",
    "deployment": "warbench.rulesets.warsurge.game.perk_deployment (where a unit may deploy: "
    "Invade; Recon's relocation)",
    "affliction": "warbench.rulesets.warsurge.game.perk_affliction (Plague catching at the "
    "start of a Game Turn; Spread after the Attack Sequence)",
    "psychology": "warbench.rulesets.warsurge.game.perk_psych (Berserk's and Wild Instinct's "
    "forced Targets, Wild Instinct's roll)",
    "crew": "warbench.rulesets.warsurge.game.perk_aeonian (Crew I/II: a Transport's Weapons "
    "and Movement need a unit embarked)",
    "formation": "warbench.rulesets.warsurge.game.perk_aeonian (Formation: a bonus chosen at the "
    "start of the Game Turn while every model is in base contact with another)",
    "hp steal": "warbench.rulesets.warsurge.game.perk_limitation (HP Steal: the HP Loss a Weapon "
    "causes restored to its User)",
    "weapon faults": "warbench.rulesets.warsurge.game.perk_limitation (Malfunction I/II: a "
    "Weapon whose Attack Dice roll too many 1s is unusable or destroyed)",
    "reaction": "warbench.rulesets.warsurge.game.perk_counter (Counter, Self-Destruct: a Weapon "
    "that attacks on its own, when its User loses HP or its Wielder falls; Kamikaze's crash)",
    "melee lock": "warbench.rulesets.warsurge.game.perk_aeonian and melee.check_locked "
    "(Disengage: Movement out of a Melee)",
    "controller": "warbench.rulesets.warsurge.game.perk_aeonian (Controlled: the unit falls "
    "with its controller, only rolls Saves while it is in Reserve)",
    "transport perks": "warbench.rulesets.warsurge.game.transports (Escape Transport: where "
    "passengers disembark)",
    # session 25, lane s25-aeon
    "transport access": "warbench.rulesets.warsurge.game.perk_transport (Exposed, Unsheltered, "
    "Enclosed: passengers Targeted from outside, attacking without Fire Points, the "
    "Transport's stats; Transport Link, Rift Gate: ways in and out of a Transport)",
    "seed": "warbench.rulesets.warsurge.game.perk_seed (Seed II, Breach: a unit inside an enemy "
    "unit, fighting it (and, for Breach, its passengers) as in a Melee until it falls)",
    "terrain unit": "warbench.rulesets.warsurge.game.perk_terrain_unit (Terrain: an Immobile "
    "unit other units move over and stand on, deployed on the first Game Turn only, never in "
    "Reserve or a Transport)",
    "tactical": "warbench.rulesets.warsurge.game.perk_tactical (Tactical Weapon Perks: No Line "
    "of Sight's users, Momentum's Power, Disarm) and perk_multistrike (Multi-Strike's divided "
    "Attacks)",
    "defensive": "warbench.rulesets.warsurge.game.perk_defensive (Defensive Unit Perks by the "
    "Game Turn: Immortal's HP Loss per Game Turn)",
    "heal": "warbench.rulesets.warsurge.game.perk_heal (Heal Weapons: an Attack on a friendly "
    "unit that restores the HP it would have caused)",
    # session 25, s25-transform
    "transformation": "warbench.rulesets.warsurge.game.perk_ascension (Ascension, Descend: "
    "Stats, current and max HP doubled by the Game Turn), perk_form (Form: a linked profile "
    "exchanged for the User) and perk_fusion (Fusion: friendly units removed to form it)",
    # session 25 wave 2, w2-transform
    "incorporeal": "warbench.rulesets.warsurge.game.perk_incorporeal (Incorporeal: untargetable, "
    "immune to damage, through terrain and bases, out of Melees) and perk_incorporeal_use (its "
    "activation, Transports, Game Turns not counted, counts as destroyed); Doppelganger is "
    "'transformation' (perk_doppelganger, perk_doppel_units: a held copy of another unit)",
    # issue 11, session 25, lane s25-lead
    "leaders": "warbench.rulesets.warsurge.game.perk_furious (Furious: failed Attack Dice strike "
    "a friendly unit), perk_challenger (Challenger: challenges between Leaders) and perk_warmaster "
    "(War Master: enemy Attacks redirected onto a friendly unit), perk_leader (Leader: "
    "attached to a unit that takes its damage first)",
    "respawn": "warbench.rulesets.warsurge.game.perk_respawn (Respawn: a destroyed unit deployed "
    "again at full HP by its Deployment Zone's board edge at the start of a Game Turn)",
    "residue": "warbench.rulesets.warsurge.game.perk_residue (Residue, Vortex: a Mode template "
    "left on the Battlefield that strikes the models moving through it or standing in it)",
    "decoy": "warbench.rulesets.warsurge.game.perk_decoy (Decoy I-III: a fake unit made with the "
    'set-up, removed when it loses HP or an enemy comes within 6"; Decoy III explodes)',
    "summon": "warbench.rulesets.warsurge.game.perk_summon (Summon: a copy of the unit made with "
    "the set-up, deployed at the start of each Game Turn; perk_summon_value: its value)",
    "concealed": "warbench.rulesets.warsurge.game.perk_concealed (Concealed: untargetable by "
    'enemies and holding no Objective until it acts or an enemy comes within 6")',
    # issue 11, session 25, lane s25-tactical
    "displacement": "warbench.rulesets.warsurge.game.perk_displace and perk_grapple (Force, "
    "Knockback, Grapple: a unit relocated by a Weapon that caused it HP Loss, not Movement)",
    "attack windows": "warbench.rulesets.warsurge.game.perk_windows (Preliminary, Postliminary: "
    "a Weapon attacking by itself before or after everything else in the Game Turn)",
    "shared weapons": "warbench.rulesets.warsurge.game.perk_shared (Shared: any model of the unit "
    "uses the Weapon, no more at once than its copies)",
    "precision": "warbench.rulesets.warsurge.game.perk_precision (Precision: the HP Loss of "
    "Attack Dice meeting the threshold, on the models the attacker chooses; Obscured)",
    "markers": "warbench.rulesets.warsurge.game.perk_trap (Trap: a marker on the battlefield "
    'that strikes the unit passing or standing within 2" of it)',
    # session 25, lane s25-ability (issue 11)
    "rerolls": "warbench.rulesets.warsurge.game.perk_reroll (Lucky, Jinx, Architect of Destiny, "
    "Deny: a perk's test rerolled or denied, a used perk denied)",
    "nightmare": "warbench.rulesets.warsurge.game.perk_nightmare (Nightmare Anomaly: a D6 on a "
    "unit as the Game Turn starts, teleport, Saves, HP, Attack Dice, immunity to HP Loss)",
    "defection": "warbench.rulesets.warsurge.game.perk_defect, perk_dominate and perk_undead "
    "(Traitorous, Enslaved: a unit turned against its own side; Dominate, Undead Legion: a "
    "unit another side acts with)",
    # session 25 wave 2, lane w2-timejump (issue 11)
    "time jump": "warbench.rulesets.warsurge.game.perk_timejump (Time Jump I-II: the unit's "
    "Move, Dash or Attack Sequence undone, the game as before it, by its player's decision)",
    "imprison": "warbench.rulesets.warsurge.game.perk_imprison (Imprison: an enemy unit in the "
    "User's Melee held inside it, fighting it as in a Melee until it escapes)",
    # session 25, lane w2-state (issue 11)
    "weapon state": "warbench.rulesets.warsurge.game.perk_arms (a unit's Weapons as game state: "
    "perk_simulacrum copies a profile for a Game Turn; perk_loot drops a Weapon as a marker that "
    "a model picks up)",
    # session 25 wave 2, lane w2-transport (issue 11)
    "transport control": "warbench.rulesets.warsurge.game.perk_crew (Hijack, Crew III: a "
    "Transport passing to the side of the unit that embarks it)",
    "wreckage": "warbench.rulesets.warsurge.game.perk_wreckage (Wreckage: a casualty left on the "
    "Battlefield as terrain with 1 HP, of no value, holding no Objective, crossed as Difficult "
    "Ground, removed by HP Loss)",
    # session 25 wave 2, w2-illusion (issue 11)
    "illusions": "warbench.rulesets.warsurge.game.perk_illusion (Illusion I-III: models added "
    "to the unit mid-game in slots made with the set-up, removed first as casualties, "
    "dispelled by Precision)",
    # session 25 wave 2, lane w2-kernel (issue 11)
    "combat damage": "warbench.rulesets.warsurge.combat_damage and game.perk_combat_damage "
    "(Combat Damage: a D6 on the table for each HP Loss in the attack kernel, exact in odds; "
    "the statuses and broken Weapons it leaves)",
    "bodyguard": "warbench.rulesets.warsurge.game.perk_bodyguard (Bodyguard: attached to a unit, "
    "it takes the damage first; the successful Attack Dice left once it is slain follow on)",
    # session 25 wave 2, lane w3-gateway (issue 11)
    "gateway": "warbench.rulesets.warsurge.game.perk_gateway (Gateway: two markers placed at "
    "the start of Game Turns 1 and 2, one terrain piece used as a Transport whose gates they are, "
    "open to every side, a Melee inside as in §10.2)",
    # session 26, lane s26-opportunist (issue 11)
    "opportunist": "warbench.rulesets.warsurge.game.perk_opportunist (Opportunist: the Delay "
    "decision, and a window at the end of the Game Turn for the delayed Movement, Heal Weapons "
    "and perk uses; Advanced Actions there still cost CP)",
}

E = TypeVar("E", bound=StrEnum)


def _enum(cls: type[E], value: Any, where: str, field: str) -> E:
    try:
        return cls(value)
    except ValueError:
        allowed = ", ".join(repr(v.value) for v in cls)
        raise DataFileError(SOURCE, f"{where}: {field} {value!r} is not one of {allowed}") from None


def _target(data: Mapping[str, Any], where: str) -> TargetSpec:
    return TargetSpec(
        kind=_enum(TargetKind, data.get("kind", "self"), where, "target kind"),
        radius=data.get("radius"),
        side=_enum(Side, data.get("side", "any"), where, "side"),
        line_of_sight=bool(data.get("line_of_sight", False)),
        point_cost=data.get("point_cost"),
    )


def _modifier(data: Mapping[str, Any], perk: str, where: str) -> Modifier:
    try:
        value = Fraction(data["value"])
    except (KeyError, ValueError, ZeroDivisionError):
        raise DataFileError(SOURCE, f"{where}: modifier value {data.get('value')!r}") from None
    return Modifier(
        quantity=_enum(Quantity, data.get("quantity"), where, "quantity"),
        op=_enum(Op, data.get("op"), where, "op"),
        value=value,
        perk=perk,
        stacks=bool(data.get("stacks", True)),
        rounding=_enum(Rounding, data.get("rounding", "up"), where, "rounding"),
    )


def _effect(data: Mapping[str, Any], perk: str, where: str) -> Effect:
    kind = _enum(EffectKind, data.get("kind"), where, "effect kind")
    machinery = data.get("machinery", "")
    if kind is EffectKind.MACHINERY and machinery not in MACHINERIES:
        raise DataFileError(
            SOURCE,
            f"{where}: machinery {machinery!r} is not declared; declared: "
            + ", ".join(repr(m) for m in MACHINERIES),
        )
    template = None
    if "template" in data:
        try:
            template = template_from(data["template"], where)
        except (KeyError, ValueError) as exc:
            raise DataFileError(SOURCE, f"{where}: bad template: {exc}") from None
    if machinery == "template" and template is None:
        raise DataFileError(SOURCE, f"{where}: machinery 'template' needs a template")
    status = data.get("status", "")
    if kind is EffectKind.STATUS and not status:
        raise DataFileError(SOURCE, f"{where}: a status effect needs a status name")
    return Effect(
        kind=kind,
        target=_target(data.get("target", {}), where),
        modifiers=tuple(_modifier(m, perk, where) for m in data.get("modifiers", ())),
        status=status,
        turns=data.get("turns", 1),
        delay=int(data.get("delay", 0)),
        each_turn_end=data.get("each_turn_end", ""),
        amount=data.get("amount", ""),
        saves=bool(data.get("saves", False)),
        names=tuple(data.get("names", ())),
        machinery=machinery,
        template=template,
    )


def _row(data: Mapping[str, Any]) -> PerkEffects:
    name = data.get("name", "?")
    where = f"row {name!r}"
    tests = tuple(
        TestSpec(_enum(PerkTest, t.get("kind"), where, "test"), int(t.get("needs") or 4))
        for t in data.get("tests", ())
    )
    uses = data.get("uses", {})
    return PerkEffects(
        name=name,
        family=data["family"],
        source=data["source"],
        triggers=tuple(_enum(Trigger, t, where, "trigger") for t in data.get("triggers", ())),
        tests=tests,
        target=_target(data.get("target", {}), where),
        uses=Uses(per_game=uses.get("per_game"), per_turn=uses.get("per_turn")),
        effects=tuple(_effect(e, name, where) for e in data.get("effects", ())),
        requires=tuple(data.get("conditions", ())),
    )


@dataclass(frozen=True)
class EffectTable:
    """Every rank's row, by canonical name, in book order."""

    rows: tuple[PerkEffects, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {r.name: r for r in self.rows})

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[PerkEffects]:
        return iter(self.rows)

    def get(self, name: str) -> PerkEffects:
        """The row of the rank called ``name`` (catalog spelling, tolerant as the catalog)."""
        by_name: dict[str, PerkEffects] = self.__dict__["_by_name"]
        row = by_name.get(name)
        if row is None:
            from warbench.rulesets.warsurge.perks import PerkCatalog

            row = by_name[PerkCatalog.load().get(name).name]
        return row

    def find(self, name: str) -> PerkEffects | None:
        """The row of ``name``, or ``None`` for a name the catalog does not know."""
        from warbench.rulesets.warsurge.perks import PerkCatalog

        perk = PerkCatalog.load().find(name)
        return None if perk is None else self.get(perk.name)

    def unimplemented(self) -> list[PerkEffects]:
        """The ranks whose row has no effect yet (reported at load, in book order)."""
        return [r for r in self.rows if not r.implemented]

    def statuses(self) -> Mapping[str, Effect]:
        """Each status name and the effect that puts it (the first rank that names it);
        worked out once per table (the game reads it at every Stat)."""
        cached: Mapping[str, Effect] | None = self.__dict__.get("_statuses")
        if cached is not None:
            return cached
        out: dict[str, Effect] = {}
        for r in self.rows:
            for e in r.effects:
                if e.kind is EffectKind.STATUS:
                    out.setdefault(e.status, e)
        object.__setattr__(self, "_statuses", MappingProxyType(out))
        return self.__dict__["_statuses"]  # type: ignore[no-any-return]


def from_json(text: str) -> EffectTable:
    """Read and check a table against the perk catalog (one row per rank, same order and
    source lines)."""
    from warbench.rulesets.warsurge.perks import PerkCatalog

    try:
        doc = json.loads(text)
        rows = tuple(_row(r) for r in doc["rows"])
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise DataFileError(SOURCE, f"not a perk effects table: {exc}") from exc
    catalog = list(PerkCatalog.load())
    if len(rows) != len(catalog):
        raise DataFileError(SOURCE, f"{len(rows)} rows for {len(catalog)} perk ranks")
    for r, perk in zip(rows, catalog, strict=True):
        line = int(perk.rule.rsplit("line ", 1)[1])
        if r.name != perk.name or r.line != line:
            raise DataFileError(
                SOURCE,
                f"row {r.name!r} ({r.source}) should be {perk.name!r} at line {line} "
                "(one row per rank, in book order)",
            )
    return EffectTable(rows)


@cache
def load_table() -> EffectTable:
    """The packaged table, read and checked once."""
    try:
        text = resources.files(__package__).joinpath("data/effects.json").read_text("utf-8")
    except OSError as exc:
        raise DataFileError(SOURCE, f"cannot read the perk effects table: {exc}") from exc
    return from_json(text)
