"""``warbench battle`` names the perks that do nothing in play yet, per unit, before the game
starts (and in ``--json``), derived from the perk implementation registry (docs/game.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from warbench.cli.app import main
from warbench.rulesets.warsurge.game.perk_effects import GAME_MACHINERY, inert_perks
from warbench.rulesets.warsurge.perks import PerkCatalog, PerkKind
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


def _inert_examples() -> tuple[str | None, str | None]:
    """A Unit Perk and a Weapon Perk not in play yet (the coverage of the perk registry), taken
    dynamically so that ranks entering play never break these tests; ``None`` when every rank
    of that kind acts (prefer ranks with no requirement on the rest of the profile)."""
    catalog = PerkCatalog.load()
    gun = WeaponProfile(name="Gun", range=12, attacks=1, power=3)
    out: list[str | None] = []
    for kind in (PerkKind.UNIT_PERK, PerkKind.WEAPON_PERK):
        perks = catalog.of_kind(kind)
        probe = Unit(
            profile=UnitProfile(name="U", move=6, dash=6, defence=4, hp=1),
            weapons=[gun],
            models=[ModelGroup(count=1, weapons=["Gun"])],
        )
        inert = []
        for p in perks:
            if kind is PerkKind.UNIT_PERK:
                u = probe.model_copy(update={"profile": probe.profile.model_copy(
                    update={"perks": [p.name]})})  # fmt: skip
            else:
                u = probe.model_copy(
                    update={"weapons": [gun.model_copy(update={"perks": [p.name]})]}
                )
            if inert_perks(u):
                inert.append(p)
        plain = [p for p in inert if not p.requires]
        out.append((plain or inert)[0].name if inert else None)
    return out[0], out[1]


UNIT_EXAMPLE, WEAPON_EXAMPLE = _inert_examples()


def _roster(tmp_path: Path) -> Path:
    unit_perks = [p for p in (UNIT_EXAMPLE, "Assassin") if p]
    weapon_perks = [p for p in ("Anti-Air I", WEAPON_EXAMPLE) if p]
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
                    "perks": unit_perks,
                },
                "weapons": [
                    {
                        "name": "Flak",
                        "range": 24,
                        "attacks": 2,
                        "power": 4,
                        "perks": weapon_perks,
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
    examples = [p for p in (UNIT_EXAMPLE, WEAPON_EXAMPLE) if p]
    if not examples:  # every rank is in play: nothing to report
        assert "Perks with no effect in play yet" not in out
        return
    first = out.index("Perks with no effect in play yet")
    assert first < out.index("Game Turn 1")
    line = next(x for x in out.splitlines() if x.strip().startswith("Flyers: Sky Riders:"))
    assert all(p in line for p in examples)
    assert "Assassin" not in line and "Anti-Air" not in line  # they act in a game


def test_battle_json_has_the_inert_perks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out = run(capsys, "battle", str(_roster(tmp_path)), str(RIVAL), "--seed", "3", "--json")
    assert code == 0, out
    data = json.loads(out)
    examples = [p for p in (UNIT_EXAMPLE, WEAPON_EXAMPLE) if p]
    assert data["inert_perks"] == ({"Flyers: Sky Riders": examples} if examples else {})


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
