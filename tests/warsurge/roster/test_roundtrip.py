"""Roster files, share codes and QR images round-trip exactly (issue 3, Done when)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.warsurge.roster.fakes import entry, roster
from tests.warsurge.roster.strategies import rosters
from warbench.rulesets.warsurge.roster import Roster, RosterPerk
from warbench.rulesets.warsurge.roster_io import (
    SCHEMA_FILE,
    dump_roster,
    dumps_roster,
    load_roster,
    loads_roster,
    roster_file_schema,
)
from warbench.rulesets.warsurge.share import ShareCodeError, decode, encode, qr_code

ROOT = Path(__file__).resolve().parents[3]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(rosters())
def test_yaml_and_json_round_trip_exactly(r: Roster) -> None:
    for fmt in ("yaml", "json"):
        assert loads_roster(dumps_roster(r, fmt), fmt) == r


@FAST
@given(rosters())
def test_share_code_round_trips_exactly(r: Roster) -> None:
    code = encode(r)
    assert decode(code) == r
    assert encode(decode(code)) == code  # deterministic
    assert code.startswith("WBR1:") and set(code[5:]) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")


def _sample() -> Roster:
    return roster(
        entry("Troopers", models=10, traits=["Respawn"]),
        entry("Herald", models=1, perks=["Presence"], hp=10),
        roster_perks=[RosterPerk(perk="Inspiring", unit="Herald")],
    )


def test_files_round_trip(tmp_path: Path) -> None:
    r = _sample()
    for name in ("r.yaml", "r.json"):
        dump_roster(r, tmp_path / name)
        assert load_roster(tmp_path / name) == r


def test_loading_canonicalises_perk_names() -> None:
    text = dumps_roster(_sample()).replace("Respawn", "respawn").replace("Inspiring", "inspiring")
    assert loads_roster(text) == _sample()


def test_committed_schema_equals_the_generated_one() -> None:
    committed = json.loads((ROOT / "docs" / "schemas" / SCHEMA_FILE).read_text("utf-8"))
    assert committed == roster_file_schema()


def test_roster_files_validate_against_the_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    data = json.loads(dumps_roster(_sample(), "json"))
    jsonschema.validate(data, roster_file_schema())
    data["roster"]["units"][0]["unit"]["profile"]["move"] = 99
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, roster_file_schema())


def test_bad_roster_file_names_the_field() -> None:
    from warbench.kernel.errors import ProfileError

    text = dumps_roster(_sample(), "json").replace('"point_limit": 1000', '"point_limit": -5')
    with pytest.raises(ProfileError, match=r"roster\.point_limit = -5"):
        loads_roster(text, "json")


# ------------------------------------------------------------------------------ share codes


def test_share_code_prefix_and_version() -> None:
    code = encode(_sample())
    assert code.startswith("WBR1:")
    with pytest.raises(ShareCodeError, match="not a warbench roster share code"):
        decode("XYZ1:" + code[5:])
    with pytest.raises(ShareCodeError, match="version 2 is not supported"):
        decode("WBR2:" + code[5:])


def test_share_code_tolerates_whitespace_and_case() -> None:
    code = encode(_sample())
    wrapped = "\n".join(code[i : i + 40] for i in range(0, len(code), 40)).lower()
    assert decode(wrapped) == _sample()


def test_truncated_share_code_is_rejected() -> None:
    code = encode(_sample())
    for cut in (8, 16, len(code) // 2, len(code) - 8):
        with pytest.raises(ShareCodeError, match="truncated"):
            decode(code[:cut])


def test_corrupted_share_code_is_rejected() -> None:
    code = encode(_sample())
    i = len(code) // 2
    bad = code[:i] + ("A" if code[i] != "A" else "B") + code[i + 1 :]
    with pytest.raises(ShareCodeError, match="checksum does not match"):
        decode(bad)
    with pytest.raises(ShareCodeError, match="character '1' at position"):
        decode(code[:i] + "1" + code[i + 1 :])
    with pytest.raises(ShareCodeError, match="too many"):
        decode(code + "AAAAAAAA")


def test_qr_code_carries_the_share_code(tmp_path: Path) -> None:
    from warbench.rulesets.warsurge.share import qr_png, qr_svg

    code = encode(_sample())
    qr = qr_code(code)
    assert qr.mode == "alphanumeric"
    # segno cannot read QR codes; the image is fully determined by the code it was made from.
    assert qr.matrix == qr_code(encode(decode(code))).matrix
    png = qr_png(code, tmp_path / "r.png").read_bytes()
    assert png.startswith(b"\x89PNG") and png == qr_png(code, tmp_path / "s.png").read_bytes()
    assert qr_svg(code, tmp_path / "r.svg").read_text().startswith("<svg")
