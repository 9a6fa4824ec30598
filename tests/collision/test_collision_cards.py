"""Collision character cards and battle groups: files, schema, errors, limits, printable card
(003_fc239e71486306e1.txt L227-373, L580-617, L678-686)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

from tests.collision.helpers import EXAMPLES, ROOT, card, card_data
from warbench.cli.app import _register, app
from warbench.kernel.errors import DataFileError, ProfileError, UnknownNameError
from warbench.rulesets.collision.card import render_cards
from warbench.rulesets.collision.io import json_schemas, load, parse_card, parse_group, to_data
from warbench.rulesets.collision.models import BattleGroup, Card
from warbench.rulesets.collision.validation import (
    board_size,
    check_group,
    max_distinct_cards,
    phase_piles,
    turn_limit,
)

runner = CliRunner()
_register()
CARDS = ["rhona.yaml", "skeleton_archer.yaml", "virgil.yaml"]


def test_committed_schemas_equal_the_generated_ones() -> None:
    for name, schema in json_schemas().items():
        path = ROOT / "docs" / "schemas" / "collision" / name
        assert json.loads(path.read_text(encoding="utf-8")) == schema, name


@pytest.mark.parametrize("name", CARDS)
def test_example_cards_load_and_match_the_schema(name: str) -> None:
    obj = load(EXAMPLES / name)
    assert isinstance(obj, Card)
    schema = json.loads((ROOT / "docs/schemas/collision/card.schema.json").read_text())
    jsonschema.validate(to_data(obj), schema)
    assert parse_card(to_data(obj)) == obj  # round trip


def test_example_battle_group_is_legal() -> None:
    group = load(EXAMPLES / "deadholm_scouts.yaml")
    assert isinstance(group, BattleGroup)
    assert check_group(group) == []


def test_003_L301_endure_above_9_names_file_field_value_and_range() -> None:
    with pytest.raises(ProfileError) as err:
        parse_card(card_data(stats={"end": 10}), "hero.yaml")
    e = err.value
    assert (e.source, e.field, e.value) == ("hero.yaml", "stats.end", 10)
    assert "<= 9" in e.allowed


def test_003_L356_one_weapon_type_from_the_list() -> None:
    with pytest.raises(ProfileError) as err:
        parse_card(card_data(weapon={"type": "Poison"}), "hero.yaml")
    assert err.value.field == "weapons[0].type"
    assert "Mundane, Magic, Light, Dark, Fire, Cold, Electric, Acid" in err.value.allowed
    assert card(weapon={"type": "fire"}).weapons[0].type.value == "Fire"


def test_003_L373_at_most_two_weapons() -> None:
    data = card_data()
    data["weapons"] = data["weapons"] * 3
    with pytest.raises(ProfileError, match=r"weapons = .* at most 2 items"):
        parse_card(data, "hero.yaml")


def test_003_L274_at_most_three_attributes() -> None:
    with pytest.raises(ProfileError, match="attributes"):
        parse_card(card_data(attributes=["a", "b", "c", "d"]), "hero.yaml")


def test_003_L2140_sharp_weapon_cannot_have_crit_slay() -> None:
    with pytest.raises(ProfileError, match="L2140-2141"):
        parse_card(card_data(weapon={"special": ["Sharp"], "crit": "Slay"}), "hero.yaml")
    assert card(weapon={"special": ["Sharp"], "crit": "Pow+2"}).weapons[0].sharp


def test_003_L328_reach_with_plus_is_ranged() -> None:
    w = card(weapon={"reach": "4+"}).weapons[0]
    assert (w.reach_spaces, w.ranged) == (4, True)
    assert not card(weapon={"reach": 2}).weapons[0].ranged
    with pytest.raises(ProfileError, match="reach"):
        parse_card(card_data(weapon={"reach": "four"}), "hero.yaml")


def test_unknown_ability_suggests_the_closest_glossary_name() -> None:
    with pytest.raises(UnknownNameError) as err:
        parse_card(card_data(abilities=["Power Atack"]), "hero.yaml")
    assert "Power Attack" in err.value.suggestions
    assert "hero.yaml: abilities" in str(err.value)


def test_003_L295_effects_and_L261_abilities_are_kept_apart() -> None:
    with pytest.raises(ProfileError, match="Sharp is a effect"):
        parse_card(card_data(abilities=["Sharp"]), "hero.yaml")
    assert card(effects=["Poison 2", "Luck 1"]).effects == ["Poison 2", "Luck 1"]


def test_003_L347_minor_arcana_needs_suit_and_number() -> None:
    with pytest.raises(ProfileError, match="suit"):
        parse_card(card_data(tarot={"arcana": "minor", "number": 3}), "hero.yaml")
    with pytest.raises(ProfileError, match=r"tarot\.number"):
        parse_card(card_data(tarot={"arcana": "minor", "suit": "cups", "number": 15}), "h.yaml")


def test_malformed_file_is_one_data_file_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"bad\.yaml: malformed yaml"):
        load(bad)


def group(**changes: object) -> BattleGroup:
    data: dict[str, object] = {
        "name": "G",
        "points_limit": 500,
        "characters": [{"card": card_data(), "count": 2}],
    }
    data.update(changes)
    return parse_group(data, "g.yaml")


def test_003_L601_points_over_the_limit() -> None:
    found = check_group(group(points_limit=99))
    assert [v.field for v in found] == ["points"]
    assert "100 points, above the limit of 99" in found[0].message


def test_003_L612_a_500_point_game_allows_6_different_cards() -> None:
    assert max_distinct_cards(500) == 6
    assert max_distinct_cards(650) == 6
    members = [{"card": card_data(name=f"C{i}", points=10)} for i in range(7)]
    found = check_group(group(characters=members))
    assert [v.rule for v in found] == ["003_fc239e71486306e1.txt L607-610"]
    assert check_group(group(characters=members[:6])) == []


def test_003_L272_no_more_than_three_attributes_in_a_group() -> None:
    members = [
        {"card": card_data(name="A", attributes=["Brave", "Strong"])},
        {"card": card_data(name="B", attributes=["strong", "Swift", "Wise"])},
    ]
    found = check_group(group(characters=members))
    assert [v.field for v in found] == ["attributes"]


def test_003_L605_a_major_arcana_only_once() -> None:
    major = card_data(name="Virgil", tarot={"arcana": "major", "name": "Virgil"})
    found = check_group(group(characters=[{"card": major, "count": 2}]))
    assert [v.rule for v in found] == ["003_fc239e71486306e1.txt L605-606, L613-614"]
    minor = {"card": card_data(name="Skeleton"), "count": 4}
    assert check_group(group(characters=[minor])) == []


def test_003_L684_L686_deployment_phase_piles() -> None:
    assert phase_piles(7) == (3, 2, 2)
    assert phase_piles(8) == (3, 3, 2)
    assert phase_piles(9) == (3, 3, 3)
    assert phase_piles(1) == (1, 0, 0)


def test_003_L597_L598_board_size_by_points() -> None:
    assert board_size(249) == (6, 8)
    assert board_size(250) == (12, 10)
    assert board_size(650) == (18, 10)
    assert board_size(1000) == (24, 12)


def test_003_L1184_turn_limit_5_plus_1_per_500_points() -> None:
    assert turn_limit(5, 499) == 5
    assert turn_limit(5, 1000) == 7


def test_printable_card_shows_stats_weapons_and_glossary_costs() -> None:
    c = load(EXAMPLES / "virgil.yaml")
    assert isinstance(c, Card)
    page = render_cards([c])
    assert "Virgil" in page and "Skull Staff" in page and "Major Arcana: Virgil" in page
    assert "2E1M" in page  # Static Jolt, L2186
    assert "003_fc239e71486306e1.txt L2186-2190" in page
    evil = card(name="<script>x</script>")
    assert "<script>x" not in render_cards([evil])


def test_cli_validate_checks_a_group_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``collision validate`` prints the one ``group_report`` (session 35's re-read: it checked
    the group a second time for its lines), the same violations in words and in JSON."""
    from warbench.rulesets.collision import validation

    calls = []
    real = validation.check_group

    def counted(group: BattleGroup) -> list[validation.Violation]:
        calls.append(group.name)
        return real(group)

    monkeypatch.setattr(validation, "check_group", counted)
    over = tmp_path / "over.yaml"
    over.write_text(
        yaml.safe_dump({"name": "X", "points_limit": 40, "characters": [{"card": card_data()}]})
    )
    said = runner.invoke(app, ["collision", "validate", str(over)])
    assert said.exit_code == 1 and calls == ["X"], (calls, said.output)
    shown = runner.invoke(app, ["collision", "validate", str(over), "--json"])
    found = json.loads(shown.output)["violations"]
    assert found and all(
        f"violation: {v['field']}: {v['message']} [{v['rule']}]" in said.output for v in found
    )


def test_cli_validate_card_group_and_errors(tmp_path: Path) -> None:
    ok = runner.invoke(app, ["collision", "validate", str(EXAMPLES / "rhona.yaml")])
    assert ok.exit_code == 0, ok.output
    ok = runner.invoke(
        app, ["collision", "validate", str(EXAMPLES / "deadholm_scouts.yaml"), "--json"]
    )
    assert ok.exit_code == 0, ok.output
    report = json.loads(ok.output)
    assert report["points"] == 430 and report["deployment_phases"] == [2, 2, 2]
    over = tmp_path / "over.yaml"
    over.write_text(
        yaml.safe_dump({"name": "X", "points_limit": 40, "characters": [{"card": card_data()}]})
    )
    bad = runner.invoke(app, ["collision", "validate", str(over)])
    assert bad.exit_code == 1
    assert "violation: points" in bad.output
    broken = tmp_path / "broken.yaml"
    broken.write_text(yaml.safe_dump(card_data(stats={"end": 12})))
    err = runner.invoke(app, ["collision", "validate", str(broken)])
    assert err.exit_code == 2
    assert "stats.end = 12 is not allowed" in err.output
    assert "Traceback" not in err.output


def test_cli_card_writes_html(tmp_path: Path) -> None:
    out = tmp_path / "cards.html"
    result = runner.invoke(
        app, ["collision", "card", str(EXAMPLES / "deadholm_scouts.yaml"), "--html", str(out)]
    )
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert page.count('class="card"') == 3


def test_003_L335_weapon_special_is_an_attribute_not_an_action() -> None:
    assert card(weapon={"special": ["Multiattack", "Unstable"]}).weapons[0].special == [
        "Multiattack",
        "Unstable",
    ]
    with pytest.raises(ProfileError, match="weapon special"):
        parse_card(card_data(weapon={"special": ["Power Attack"]}), "hero.yaml")


def test_errors_inside_a_battle_group_name_the_card(tmp_path: Path) -> None:
    with pytest.raises(ProfileError) as err:
        group(characters=[{"card": card_data(stats={"end": 12})}])
    assert (err.value.source, err.value.field) == ("g.yaml: characters[0].card", "stats.end")
    missing = tmp_path / "g.yaml"
    missing.write_text(
        yaml.safe_dump({"name": "G", "points_limit": 500, "characters": [{"card": "nope.yaml"}]})
    )
    with pytest.raises(DataFileError, match=r"nope\.yaml: cannot read file"):
        load(missing)
