"""``warbench battle`` names the perks that do nothing in play yet, per unit, before the game
starts (and in ``--json``), derived from the perk implementation registry (docs/game.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from warbench.cli.app import main
from warbench.rulesets.warsurge.game.perk_effects import GAME_MACHINERY, inert_perks
from warbench.rulesets.warsurge.perks import PerkCatalog
from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile

ROOT = Path(__file__).parents[2]
RIVAL = ROOT / "examples" / "warsurge" / "rosters" / "skirmish_b.yaml"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out + out.err


def _inert_weapon_perk() -> str | None:
    """The example Weapon Perk: the first (in book order) with no effect in play yet, taken from
    the implementation registry so that putting a rank in play never breaks this test (issue
    11, session 25); ``None`` once every Weapon Perk acts."""
    catalog = PerkCatalog.load()
    names = [p.name for p in catalog if p.kind == "Weapon Perk"]
    gun = WeaponProfile(name="Gun", range=12, attacks=1, power=3, perks=names)
    unit = Unit(
        profile=UnitProfile(name="U", move=6, dash=6, defence=4, hp=1),
        weapons=[gun],
        models=[ModelGroup(count=1, weapons=["Gun"])],
    )
    inert = set(inert_perks(unit))
    return next((n for n in names if n in inert), None)


def _roster(tmp_path: Path) -> Path:
    data = {
        "player": "Flyers",
        "units": [
            {
                "unit": {
                    "name": "Sky Riders",
                    "move": 8,
                    "dash": 8,
                    "defence": 4,
                    "hp": 2,
                    "perks": ["Challenger", "Bodyguard", "Assassin"],
                },
                "weapons": [
                    {
                        "name": "Flak",
                        "range": 24,
                        "attacks": 2,
                        "power": 4,
                        "perks": ["Anti-Air I", *filter(None, [_inert_weapon_perk()])],
                    }
                ],
                "models": [{"count": 3, "weapons": ["Flak"]}],
                "points": 150,
            }
        ],
    }
    path = tmp_path / "flyers.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_battle_lists_inert_perks_per_unit_before_the_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out = run(capsys, "battle", str(_roster(tmp_path)), str(RIVAL), "--seed", "3")
    assert code == 0, out
    first = out.index("Perks with no effect in play yet")
    assert first < out.index("Game Turn 1")
    line = next(x for x in out.splitlines() if x.strip().startswith("Flyers: Sky Riders:"))
    example = _inert_weapon_perk()
    assert "Challenger" in line and "Bodyguard" in line and (example is None or example in line)
    assert "Assassin" not in line and "Anti-Air" not in line  # they act in a game


def test_battle_json_has_the_inert_perks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out = run(capsys, "battle", str(_roster(tmp_path)), str(RIVAL), "--seed", "3", "--json")
    assert code == 0, out
    data = json.loads(out)
    example = [n] if (n := _inert_weapon_perk()) else []
    assert data["inert_perks"] == {"Flyers: Sky Riders": ["Challenger", "Bodyguard", *example]}


def test_inert_perks_follow_the_implementation_registry() -> None:
    # every perk some game machinery registered acts; all others are inert
    catalog = PerkCatalog.load()
    acting = {n for n in catalog.implemented if catalog.implementation_of(n) in GAME_MACHINERY}
    names = sorted(p.name for p in catalog)
    gun = WeaponProfile(name="Gun", range=12, attacks=1, power=3)
    unit = Unit(
        profile=UnitProfile(name="U", move=6, dash=6, defence=4, hp=1, perks=names),
        weapons=[gun],
        models=[ModelGroup(count=1, weapons=["Gun"])],
    )
    assert set(inert_perks(unit)) == set(names) - acting
    assert acting  # the attack sequence's perks
