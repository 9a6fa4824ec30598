"""Which perk ranks a game-level test plays (``warbench perks --coverage``).

A rank is *in play* when at least one test plays it in a game (an action applied by the game
engine, scripted or seeded dice) and shows its effect. Those tests carry the rank's source line
in their name (``test_p2616_burn_…`` or the id ``[p3771-Anti-Air I]``);
``scripts/build_perk_coverage.py`` collects the game-level test files with pytest and writes
``data/coverage.json`` (rank → test node ids), and ``tests/rulesets/warsurge/effects/
test_coverage_registry.py`` checks that the file is exactly what the collection gives, so a
rank is never reported in play by a test that does not exist.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

from warbench.kernel.errors import DataFileError
from warbench.rulesets.warsurge.effects.table import EffectTable, load_table

__all__ = ["GAME_TEST_FILES", "RankCoverage", "coverage_report", "load_coverage", "ranks_in"]

SOURCE = "warbench/rulesets/warsurge/effects/data/coverage.json"

#: The test files whose tests play perks in a game (paths from the repository root).
GAME_TEST_FILES: tuple[str, ...] = (
    "tests/warsurge/game/test_perks_in_play.py",
    "tests/rulesets/warsurge/effects/test_game_attack_perks.py",
    "tests/rulesets/warsurge/effects/test_game_statuses.py",
    "tests/rulesets/warsurge/effects/test_game_turn_perks.py",
    # session 38, s38-loot: a looted Weapon's limits and Perks for its new carrier
    "tests/warsurge/game/test_looted_weapon_limits.py",
    # session 39, s39-loot2: a looted Upheaval, Simulacrum, Trap, Twin/Triune Weapon; copies
    "tests/warsurge/game/test_looted_weapon_last_perks.py",
    "tests/rulesets/warsurge/effects/test_game_use_perks.py",
    # s11-perks-b: Ability, Aeonian, Defensive, Limitation, Transformation
    "tests/rulesets/warsurge/effects/test_ability_aeonian_targeting.py",
    "tests/rulesets/warsurge/effects/test_transformation_defensive_turn.py",
    "tests/rulesets/warsurge/effects/test_mode_templates.py",
    "tests/rulesets/warsurge/effects/test_movement_perks.py",
    "tests/rulesets/warsurge/effects/test_leadership_perks.py",
    "tests/rulesets/warsurge/effects/test_deployment_perks.py",
    # s11-perks-c: Affliction, Psychological, Roster, Transformation, Mode, Deployment
    "tests/rulesets/warsurge/effects/test_affliction_perks.py",
    "tests/rulesets/warsurge/effects/test_psychological_roster_perks.py",
    "tests/rulesets/warsurge/effects/test_deployment_ambush_nexus.py",
    # s11-perks-b, session 4: Crew, Formation, Keen Eye, HP Steal, Malfunction …
    "tests/rulesets/warsurge/effects/test_aeonian_limitation_perks.py",
    # s11-perks-a (session 4): Tactical, Trait, Movement, Leadership, Defensive
    "tests/rulesets/warsurge/effects/test_tactical_perks.py",
    "tests/rulesets/warsurge/effects/test_defensive_perks.py",
    # session 13 (lead): Stealth, Velocity …
    "tests/rulesets/warsurge/effects/test_stealth_velocity_perks.py",
    # session 25, s25-transform: Ascension, Descend …
    "tests/rulesets/warsurge/effects/test_s25_transform_perks.py",
    # session 25, lane s25-aeon: Aeonian Transport perks
    "tests/rulesets/warsurge/effects/test_s25_aeon_perks.py",
    # session 25 (s25-lead): Leadership, Trait, Mode, Limitation
    "tests/rulesets/warsurge/effects/test_s25_lead_trait_perks.py",
    # session 25, s25-tactical: Force, Knockback …
    "tests/rulesets/warsurge/effects/test_s25_tactical_perks.py",
    # session 25, lane s25-ability: Jinx, Lucky, Architect of Destiny, Deny …
    "tests/rulesets/warsurge/effects/test_s25_ability_perks.py",
    # session 25 wave 2, lane w2-timejump: Time Jump I-II
    "tests/rulesets/warsurge/effects/test_w2_timejump_perks.py",
    # session 25, lane w2-state: Simulacrum, Loot (Weapons as game state)
    "tests/rulesets/warsurge/effects/test_w2_state_perks.py",
    # session 25 wave 2, lane w2-transport: Hijack, Crew III
    "tests/rulesets/warsurge/effects/test_w2_transport_perks.py",
    # session 25 wave 2, w2-transform
    "tests/rulesets/warsurge/effects/test_w2_transform_perks.py",
    # session 25 wave 2, lane w2-illusion: Illusion I-III
    "tests/rulesets/warsurge/effects/test_w2_illusion_perks.py",
    # session 25 wave 2, lane w2-kernel: Combat Damage, Bodyguard (the attack kernel)
    "tests/rulesets/warsurge/effects/test_w2_kernel_perks.py",
    # session 25 wave 2, lane w3-gateway: Gateway (markers as a terrain Transport)
    "tests/rulesets/warsurge/effects/test_w3_gateway_perks.py",
    # session 26, lane s26-opportunist: Opportunist (the window at the end of the Game Turn)
    "tests/rulesets/warsurge/effects/test_s26_opportunist_perks.py",
    # session 26, lane s26b-choices: Orders' Order as a player's decision
    "tests/rulesets/warsurge/effects/test_s26b_choices_perks.py",
)

_LINE = re.compile(r"(?:::test_|\[)p(\d{2,5})(?=[_\-\]])")


def ranks_in(node_ids: Iterable[str], table: EffectTable | None = None) -> dict[str, list[str]]:
    """Rank → the node ids naming its source line (``p2616``), in book order."""
    t = table or load_table()
    by_line = {row.line: row.name for row in t}
    found: dict[str, list[str]] = {}
    for node in node_ids:
        for m in _LINE.finditer(node):
            name = by_line.get(int(m[1]))
            if name is not None:
                found.setdefault(name, []).append(node)
    return {row.name: found[row.name] for row in t if row.name in found}


@cache
def load_coverage() -> Mapping[str, tuple[str, ...]]:
    """The committed registry: rank → game-level test node ids."""
    try:
        text = resources.files(__package__).joinpath("data/coverage.json").read_text("utf-8")
        doc = json.loads(text)
        return {k: tuple(v) for k, v in doc["ranks"].items()}
    except (OSError, json.JSONDecodeError, KeyError, AttributeError) as exc:
        raise DataFileError(SOURCE, f"not a perk coverage registry: {exc}") from exc


@dataclass(frozen=True, slots=True)
class RankCoverage:
    """One rank: its family, source line, whether its row says what it does, its tests."""

    name: str
    family: str
    kind: str
    source: str
    implemented: bool
    tests: tuple[str, ...]

    @property
    def in_play(self) -> bool:
        """Whether a game-level test plays it."""
        return bool(self.tests)


def coverage_report(table: EffectTable | None = None) -> list[RankCoverage]:
    """Every rank in book order with its game-level tests."""
    from warbench.rulesets.warsurge.perks import PerkCatalog

    t = table or load_table()
    tests = load_coverage()
    catalog = PerkCatalog.load()
    return [
        RankCoverage(
            name=row.name,
            family=row.family,
            kind=catalog.get(row.name).kind.value,
            source=row.source,
            implemented=row.implemented,
            tests=tests.get(row.name, ()),
        )
        for row in t
    ]
