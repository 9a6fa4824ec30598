"""The readers' failures found by probing (issue 19), one test each, through the public loaders
and the CLI: each failed before the bounded readers (``warbench.kernel.readers``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from warbench.kernel.errors import DataFileError, ProfileError, RulesError
from warbench.rulesets.warengine.io import load as load_warengine
from warbench.rulesets.warsurge.battlefield import load_board
from warbench.rulesets.warsurge.game.record import load_record, replay
from warbench.rulesets.warsurge.io import load_units
from warbench.rulesets.warsurge.roster_io import load_roster
from warbench.rulesets.warsurge.share import ShareCodeError, decode, encode

from .hostile import (
    BOARDS,
    EXAMPLES,
    _bomb,
    base_roster_json,
    envelope,
    invoke,
    record_lines,
)

TROOPERS = EXAMPLES / "warsurge" / "troopers_10.yaml"
WARPEYES = EXAMPLES / "warengine" / "warpeyes.yaml"


def _unit() -> dict[str, object]:
    return dict(yaml.safe_load(TROOPERS.read_text()))


def _write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


def _one_line_error(args: list[str]) -> str:
    out = invoke(args)
    assert not out.traceback, out.exception
    assert out.exit_code == 2, (out.exit_code, out.stdout)
    lines = [ln for ln in out.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, out.stderr
    assert len(lines[0]) < 400, lines[0][:500]
    return lines[0]


# --------------------------------------------------------------------------- alias bombs


def test_yaml_alias_bomb_in_a_unit_file_is_refused_with_a_short_message(tmp_path: Path) -> None:
    # 9 levels of 9 aliases: 387 million values when expanded, 600 bytes of text
    p = _write(
        tmp_path,
        "bomb.yaml",
        f"unit: {{name: {_bomb(9, 9)}, move: 6, dash: 6, defence: 3, hp: 1}}\n"
        "models: [{count: 1}]\n",
    )
    assert p.stat().st_size < 700
    with pytest.raises(DataFileError, match=r"aliases expand to more than 100,000 values") as e:
        load_units(p)
    assert str(p) in str(e.value) and "line 1" in str(e.value)
    assert "limit for a unit or weapon file" in _one_line_error(["points", str(p)])


@pytest.mark.parametrize(
    ("loader", "name", "text"),
    [
        (load_roster, "r.yaml", "roster: {name: &a [*a], point_limit: 1}\n"),
        (load_board, "b.yaml", "name: {_}\nwidth: 10\nheight: 10\n"),
        (load_warengine, "f.yaml", "name: {_}\ntype: T\n"),
    ],
)
def test_alias_bombs_and_recursive_aliases_are_refused_in_every_yaml_file(
    tmp_path: Path, loader: object, name: str, text: str
) -> None:
    p = _write(tmp_path, name, text.replace("{_}", _bomb(8, 8)))
    with pytest.raises(DataFileError, match=r"recursive alias|aliases expand") as e:
        loader(p)  # type: ignore[operator]
    assert len(str(e.value)) < 300


def test_aliases_within_the_budget_still_share_values(tmp_path: Path) -> None:
    # a fair use of anchors: one weapon profile written once, used by two files' worth of units
    text = (
        "units:\n"
        "  - unit: &u {name: A, move: 6, dash: 6, defence: 3, hp: 1}\n"
        "    weapons: &w [{name: Rifle, range: 18, type: Battle, attacks: 2, power: 3}]\n"
        "    models: [{count: 5, weapons: [Rifle]}]\n"
        "  - unit: {<<: *u, name: B}\n"
        "    weapons: *w\n"
        "    models: [{count: 5, weapons: [Rifle]}]\n"
    )
    units = load_units(_write(tmp_path, "u.yaml", text))
    assert [u.name for u in units] == ["A", "B"] and units[1].weapons == units[0].weapons


# --------------------------------------------------------------------------- nesting


@pytest.mark.parametrize(
    ("name", "text", "args"),
    [
        ("u.yaml", "unit: " + "[" * 1000 + "]" * 1000 + "\n", ["points"]),
        ("u.yaml", "unit:\n" + "  " + "- " * 1000 + "x\n", ["points"]),
        ("u.json", '{"unit": ' + "[" * 1000 + "]" * 1000 + "}", ["points"]),
        ("r.json", '{"roster": ' + '{"a": ' * 800 + "1" + "}" * 801, ["roster", "validate"]),
        ("f.yaml", "name: " + "[" * 1000 + "]" * 1000 + "\n", ["warengine", "validate"]),
        ("b.yaml", "terrain: " + "[" * 600 + "]" * 600 + "\n", ["battle", "x", "y", "--board"]),
    ],
)
def test_nesting_1000_deep_is_refused_naming_the_file_and_the_limit(
    tmp_path: Path, name: str, text: str, args: list[str]
) -> None:
    p = _write(tmp_path, name, text)
    if args[0] == "battle":
        a = EXAMPLES / "warsurge" / "rosters" / "skirmish_a.yaml"
        args = ["battle", str(a), str(a), "--board"]
    line = _one_line_error([*args, str(p)])
    assert str(p) in line and "nested deeper than 32 levels" in line


def test_a_100000_deep_yaml_file_neither_recurses_nor_crashes_the_c_parser(tmp_path: Path) -> None:
    # libyaml's composer recurses in C and overflows the stack near 100,000 levels (a 200 KB
    # file); the bounded composer stops at the limit
    p = _write(tmp_path, "u.yaml", "unit: " + "[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(DataFileError, match="nested deeper than 32"):
        load_units(p)


def test_share_code_nested_1000_deep_is_a_share_code_error() -> None:
    code = envelope(('{"name": ' + "[" * 1000 + "]" * 1000 + "}").encode())
    with pytest.raises(ShareCodeError, match="nested deeper than 32 levels"):
        decode(code)


# --------------------------------------------------------------------------- bytes


@pytest.mark.parametrize("command", ["points", "validate"])
def test_warengine_file_that_is_not_utf8_names_the_file_and_the_byte_offset(
    tmp_path: Path, command: str
) -> None:
    data = WARPEYES.read_bytes()
    p = _write(tmp_path, "w.yaml", data[:40] + b"\xff" + data[40:])
    line = _one_line_error(["warengine", command, str(p)])
    assert str(p) in line and "not UTF-8" in line and "offset 40" in line


def test_replay_of_a_record_that_is_not_utf8_names_the_byte_offset(tmp_path: Path) -> None:
    text = "\n".join(record_lines()).encode()
    p = _write(tmp_path, "g.jsonl", text[:100] + b"\xc3\x28" + text[100:])
    line = _one_line_error(["replay", str(p)])
    assert str(p) in line and "offset 100" in line


# --------------------------------------------------------------------------- records


def _record_with(tmp_path: Path, n: int, line: str) -> Path:
    lines = record_lines()
    lines[n - 1] = line
    return _write(tmp_path, "g.jsonl", "\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("line_no", "make", "expect"),
    [
        (5, lambda row: "[1, 2]", "line 5: a record line is a JSON object"),
        (5, lambda row: "null", "line 5: a record line is a JSON object"),
        (
            6,
            lambda row: json.dumps({k: v for k, v in row.items() if k != "action"}),
            "line 6: action",
        ),
        (
            7,
            lambda row: json.dumps({**row, "action": {**row["action"], "kind": 3}}),
            "line 7: action.kind",
        ),
        (8, lambda row: json.dumps({**row, "step": "eight"}), "line 8: step"),
        (1, lambda row: json.dumps({**row, "seed": "x"}), "line 1: seed"),
        (1, lambda row: json.dumps({**row, "automation": ["x"]}), "line 1: automation[0]"),
        (1, lambda row: json.dumps({**row, "players": 5}), "line 1: players"),
    ],
)
def test_replay_validates_every_record_line_and_names_line_and_field(
    tmp_path: Path, line_no: int, make: object, expect: str
) -> None:
    row = json.loads(record_lines()[line_no - 1])
    p = _record_with(tmp_path, line_no, make(row))  # type: ignore[operator]
    assert expect in _one_line_error(["replay", str(p)])


def test_replay_validates_the_fields_of_each_action_kind(tmp_path: Path) -> None:
    lines = record_lines()
    n, row = next(
        (i + 1, json.loads(ln))
        for i, ln in enumerate(lines)
        if '"kind": "deploy"' in ln and '"at"' in ln
    )
    bad = {**row, "action": {**row["action"], "at": [[], "x"]}}
    line = _one_line_error(["replay", str(_record_with(tmp_path, n, json.dumps(bad)))])
    assert f"line {n}: action.at" in line


@pytest.mark.parametrize("field", ["winner", "values", "turns"])
def test_replay_verifies_the_result_line_like_the_step_digests(tmp_path: Path, field: str) -> None:
    # A record is ruleset + rosters + battlefield + seed + actions (STYLE principle 3); the
    # result line it carries must be what those give.
    lines = record_lines()
    result = json.loads(lines[-1])
    sides = sorted(result["values"])
    if field == "winner":
        result["winner"] = next(s for s in [*sides, None] if s != result["winner"])
    elif field == "values":
        result["values"][sides[0]] += 1
    else:
        result["turns"] += 1
    p = _record_with(tmp_path, len(lines), json.dumps(result))
    with pytest.raises(RulesError, match=rf"line {len(lines)}: the recorded result gives {field}"):
        replay(load_record(p))
    assert f"gives {field}" in _one_line_error(["replay", str(p)])


# --------------------------------------------------------------------------- duplicate keys


def test_duplicate_key_in_a_json_unit_file_is_refused_with_key_and_line(tmp_path: Path) -> None:
    text = json.dumps(_unit(), indent=1)
    text = text.replace('"name": "Troopers"', '"name": "Troopers",\n "name": "Other"', 1)
    with pytest.raises(
        DataFileError, match=r"line 4: found the key 'name' twice .*first at line 3"
    ):
        load_units(_write(tmp_path, "u.json", text))


def test_duplicate_key_in_a_json_roster_file_is_refused(tmp_path: Path) -> None:
    doc = {"roster": base_roster_json()}
    text = '{"roster": {"name": "X",' + json.dumps(doc)[12:]
    with pytest.raises(DataFileError, match=r"found the key 'name' twice"):
        load_roster(_write(tmp_path, "r.json", text))


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_duplicate_key_in_a_warengine_file_is_refused(tmp_path: Path, suffix: str) -> None:
    doc = yaml.safe_load(WARPEYES.read_text())
    if suffix == ".json":
        text = '{"name": "X",\n' + json.dumps(doc)[1:]
    else:
        text = "name: X\n" + WARPEYES.read_text()
    with pytest.raises(DataFileError, match=r"line \d+.*found the key 'name' twice"):
        load_warengine(_write(tmp_path, "w" + suffix, text))


def test_duplicate_key_in_a_record_line_is_refused(tmp_path: Path) -> None:
    lines = record_lines()
    p = _record_with(tmp_path, 3, '{"type": "action", ' + lines[2][1:])
    assert "line 3: found the key 'type' twice" in _one_line_error(["replay", str(p)])


# --------------------------------------------------------------------------- share codes


@pytest.mark.parametrize("prefix", ["WBR01:", "WBR001:", "WBR１:", "WBR٣:", "wbr01:"])
def test_share_code_version_is_parsed_strictly(prefix: str) -> None:
    code = encode(load_roster_for_code())
    with pytest.raises(ShareCodeError, match="malformed share code prefix"):
        decode(prefix + code[5:])


def test_share_code_with_a_5000_digit_version_is_a_share_code_error() -> None:
    with pytest.raises(ShareCodeError, match="malformed share code prefix"):
        decode("WBR" + "9" * 5000 + ":AAAA")


def test_share_code_longer_than_the_cap_is_refused_before_decoding() -> None:
    from warbench.rulesets.warsurge.share import MAX_CODE_CHARS

    with pytest.raises(ShareCodeError, match=f"more than the {MAX_CODE_CHARS:,}"):
        decode("WBR1:" + "A" * (MAX_CODE_CHARS + 1))


def test_share_code_content_inflating_past_the_roster_limit_is_refused() -> None:
    # 8 MiB of JSON in a 13,000-character code (the 1.7 M characters made 1 GiB)
    code = envelope(b'{"name": "' + b"A" * (8 * 1024 * 1024) + b'"}')
    assert len(code) < 20_000
    with pytest.raises(ShareCodeError, match="inflates to more than 4 MiB"):
        decode(code)


def load_roster_for_code() -> object:
    from warbench.rulesets.warsurge.roster import Roster

    return Roster.model_validate(base_roster_json())


def test_share_code_with_a_wrong_roster_is_one_sentence_naming_the_field() -> None:
    doc = base_roster_json()
    doc["point_limit"] = "a lot\nof points"
    with pytest.raises(ShareCodeError) as e:
        decode(envelope(json.dumps(doc).encode()))
    text = str(e.value)
    assert "\n" not in text and "validation error for" not in text
    assert "point_limit: Input should be a valid integer" in text and "'a lot\\nof points'" in text


# --------------------------------------------------------------------------- sizes


def test_a_unit_file_over_its_size_limit_is_refused_with_a_short_message(tmp_path: Path) -> None:
    text = TROOPERS.read_text().replace("name: Troopers", "name: " + "x" * (3 * 1024 * 1024), 1)
    p = _write(tmp_path, "big.yaml", text)
    with pytest.raises(DataFileError, match=r"larger than 2 MiB, the limit for a unit or weapon"):
        load_units(p)


def test_an_invalid_long_value_is_echoed_as_a_short_preview(tmp_path: Path) -> None:
    doc = _unit()
    doc["unit"]["name"] = "x" * 500_000  # type: ignore[index]
    with pytest.raises(ProfileError) as e:
        load_units(_write(tmp_path, "long.yaml", yaml.safe_dump(doc)))
    assert "unit.name = 'xxx" in str(e.value) and len(str(e.value)) < 400


def test_the_c_accelerated_yaml_parser_is_used_when_installed() -> None:
    from warbench.kernel import readers

    assert yaml.__with_libyaml__ == readers.libyaml()


# --------------------------------------------------------------------------- one line


def test_names_with_line_breaks_and_markup_give_one_line_errors(tmp_path: Path) -> None:
    doc = _unit()
    doc["unit"]["name"] = "Troop\ners [/]"  # type: ignore[index]
    doc["unit"]["move"] = 99  # type: ignore[index]
    p = _write(tmp_path, "a\nb [bold].yaml", yaml.safe_dump(doc))
    line = _one_line_error(["points", str(p)])
    assert "unit.move = 99" in line and "a b [bold].yaml" in line


def test_yaml_parser_positions_are_one_line(tmp_path: Path) -> None:
    from warbench.rulesets.warsurge.roster_io import loads_roster

    with pytest.raises(DataFileError) as e:
        loads_roster("roster: {name: [1, 2}\n")
    assert "\n" not in str(e.value) and "line 1, column" in str(e.value)


def test_a_yaml_key_that_is_not_text_is_refused_in_a_game_roster(tmp_path: Path) -> None:
    # (the game roster reader sorted its unknown keys: an int and a str key crashed it)
    p = _write(tmp_path, "g.yaml", "player: A\n1: x\nb: y\nunits: []\n")
    line = _one_line_error(["battle", str(p), str(p)])
    assert "line 2, column 1: a key must be text" in line


def test_board_shorthand_with_wrong_types_is_a_profile_error(tmp_path: Path) -> None:
    doc = yaml.safe_load((BOARDS / "open_field_42x32.yaml").read_text())
    doc["terrain"] = [{"name": "Pit", "circle": {"center": [[1], 2], "radius": 2}}]
    with pytest.raises(ProfileError, match="circle must be"):
        load_board(_write(tmp_path, "b.yaml", yaml.safe_dump(doc)))
    doc["terrain"] = [{"name": "Pit", "circle": {"center": [1, 2], "radius": 2, "sides": 0}}]
    with pytest.raises(ProfileError, match="circle must be"):
        load_board(_write(tmp_path, "b.yaml", yaml.safe_dump(doc)))


def test_a_damaged_roll_history_is_skipped_line_by_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Core Rules §1.1 history of dice rolls: a damaged line (not UTF-8, nested 100,000 deep,
    # not an object) is skipped, the good ones are listed, and rolling still appends
    from warbench.cli.roll_history import HISTORY_ENV

    path = tmp_path / "roll_history.jsonl"
    monkeypatch.setenv(HISTORY_ENV, str(path))
    assert invoke(["roll", "D6", "--seed", "4"]).exit_code == 0
    good = path.read_bytes()
    path.write_bytes(b"\xff\xfe{\n" + b"[" * 100_000 + b"]" * 100_000 + b"\n[1]\n" + good)
    assert invoke(["roll", "D6", "--seed", "5"]).exit_code == 0
    out = invoke(["roll", "--history"])
    assert out.exit_code == 0 and not out.traceback
    assert [ln for ln in out.stdout.splitlines() if "seed" in ln][-2:] == [
        ln for ln in out.stdout.splitlines() if "(seed 4)" in ln or "(seed 5)" in ln
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"type": "header", "x": ' + "[" * 5000 + "]" * 5000 + "}", "nested deeper than 32"),
        ('{"type": "header", "type": "step"}', "found the key 'type' twice"),
        ('{"type": "header", "x": NaN}', "'NaN' is not a finite number"),
    ],
)
def test_play_protocol_records_are_read_with_the_bounded_reader(line: str, message: str) -> None:
    from warbench.play.record import GameRecord

    with pytest.raises(DataFileError, match=message):
        GameRecord.loads(line)


def test_play_protocol_record_file_that_is_not_utf8_names_the_offset(tmp_path: Path) -> None:
    from warbench.play.record import GameRecord

    with pytest.raises(DataFileError, match="byte 0xFF at offset 3"):
        GameRecord.load(_write(tmp_path, "r.jsonl", b'{"t\xff'))
