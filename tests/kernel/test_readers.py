"""The bounded readers (``warbench.kernel.readers``): limits at their boundaries, and the same
data as PyYAML and ``json`` for every input within them."""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from warbench.kernel import readers
from warbench.kernel.errors import DataFileError, ProfileError, WarbenchError, one_line, preview
from warbench.kernel.readers import InputLimitError, Limits

SMALL = Limits("test file", 1024, max_depth=4, max_alias_nodes=10)
ROOMY = Limits("test file", 1 << 20)

plain = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda ch: st.lists(ch, max_size=4) | st.dictionaries(st.text(max_size=6), ch, max_size=4),
    max_leaves=25,
)


# --------------------------------------------------------------------------- same data


@settings(max_examples=150)
@given(data=plain)
def test_json_within_limits_reads_as_json_loads(data: Any) -> None:
    text = json.dumps(data)
    assert readers.parse_json(text, "t", ROOMY) == json.loads(text)


@settings(max_examples=150)
@given(data=plain, shared=st.booleans())
def test_yaml_within_limits_reads_as_pyyaml_safe_load(data: Any, shared: bool) -> None:
    doc = {"a": data, "b": data} if shared else data  # shared values are written as aliases
    text = yaml.safe_dump(doc, allow_unicode=True)
    assert readers.parse_yaml(text, "t", ROOMY) == yaml.safe_load(text)


# --------------------------------------------------------------------------- depth


def _nest(n: int) -> str:
    return "[" * n + "]" * n


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_depth_at_the_limit_is_read_and_one_more_is_refused(fmt: str) -> None:
    assert readers.parse_data(_nest(4), fmt, "t", SMALL) == [[[[]]]]
    with pytest.raises(InputLimitError, match="nested deeper than 4 levels, the limit for a test"):
        readers.parse_data(_nest(5), fmt, "t", SMALL)


def test_depth_reached_through_an_alias_counts() -> None:
    assert readers.parse_yaml("a: &x [[1]]\nb: *x\n", "t", SMALL)["b"] == [[1]]
    with pytest.raises(InputLimitError, match="nested deeper than 4"):
        readers.parse_yaml("a: &x [[[1]]]\nb: [*x]\n", "t", SMALL)


def test_json_nested_past_the_interpreter_recursion_is_a_limit_error() -> None:
    with pytest.raises(InputLimitError, match="nested deeper than 32"):
        readers.parse_json(_nest(200_000), "t", Limits("t", 1 << 20))


# --------------------------------------------------------------------------- aliases


def test_alias_budget_counts_expanded_values() -> None:
    # the anchored list is 4 values (the list and 3 items); two aliases add 8, three add 12
    assert readers.parse_yaml("a: &x [1, 2, 3]\nb: [*x, *x]\n", "t", SMALL)["b"][1] == [1, 2, 3]
    with pytest.raises(InputLimitError, match="aliases expand to more than 10 values"):
        readers.parse_yaml("a: &x [1, 2, 3]\nb: [*x, *x, *x]\n", "t", SMALL)


def test_recursive_alias_and_duplicate_anchor_are_refused() -> None:
    with pytest.raises(InputLimitError, match="recursive alias"):
        readers.parse_yaml("a: &r [1, *r]\n", "t", ROOMY)
    with pytest.raises(DataFileError, match="anchor &x twice"):
        readers.parse_yaml("a: &x 1\nb: &x 2\n", "t", ROOMY)


# --------------------------------------------------------------------------- keys and numbers


def test_duplicate_keys_name_the_key_and_both_lines() -> None:
    with pytest.raises(DataFileError, match=r"line 3, column 3: found the key 'k' twice.*line 2"):
        readers.parse_yaml("a:\n  k: 1\n  k: 2\n", "t", ROOMY)
    with pytest.raises(DataFileError, match=r"line 3: found the key 'k' twice.*first at line 2"):
        readers.parse_json('{"a":\n {"k": {"k": 1},\n  "k": 1,\n  "k": 2}}', "t", ROOMY)


def test_a_merge_key_may_be_overridden_but_not_a_key_twice() -> None:
    assert readers.parse_yaml("a: &b {x: 1, y: 2}\nc: {<<: *b, x: 3}\n", "t", ROOMY)["c"] == {
        "x": 3,
        "y": 2,
    }


@pytest.mark.parametrize("key", ["? [1, 2]\n:", "1:", "~:", "yes:", "2.5:"])
def test_yaml_keys_are_text_as_in_json(key: str) -> None:
    with pytest.raises(DataFileError, match=r"line 1, column \d+: a key must be text, not"):
        readers.parse_yaml(f"{key} x\n", "t", ROOMY)
    assert readers.parse_yaml(f"'{key[0]}': x\n", "t", ROOMY) == {key[0]: "x"}


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity", "1e999", "-1e400"])
def test_json_numbers_must_be_finite(word: str) -> None:
    with pytest.raises(DataFileError, match="is not a finite number"):
        readers.parse_json(f'{{"a": [1, {word}]}}', "t", ROOMY)


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_numbers_too_long_for_python_are_an_error(fmt: str) -> None:
    with pytest.raises(DataFileError, match="more digits than warbench reads"):
        readers.parse_data("[" + "9" * 5000 + "]", fmt, "t", Limits("t", 1 << 20))


# --------------------------------------------------------------------------- bytes


def test_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "f.yaml"
    p.write_bytes(b"a: 1\n" + b"#" * 1024)
    with pytest.raises(InputLimitError, match="larger than 1 KiB, the limit for a test file"):
        readers.load_data(p, SMALL)
    p.write_bytes(b"a: 1\n" + b"#" * 1000)
    assert readers.load_data(p, SMALL) == {"a": 1}


def test_bytes_that_are_not_utf8_name_the_offset_and_line() -> None:
    with pytest.raises(DataFileError, match=r"byte 0xFF at offset 8 \(line 2\)"):
        readers.decode_text(b"a: 1\nb: \xff\n", "t")
    assert readers.decode_text("\ufeffa: é".encode(), "t") == "a: é"


@pytest.mark.parametrize(
    ("name", "reason"),
    [("missing.yaml", "file not found"), (".", "is a folder"), ("a\x00b", "not a usable")],
)
def test_unreadable_paths_are_data_file_errors(tmp_path: Path, name: str, reason: str) -> None:
    with pytest.raises(DataFileError, match=reason):
        readers.read_text(tmp_path / name, ROOMY)


def _deflate(data: bytes) -> bytes:
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def test_inflate_stops_at_the_limit() -> None:
    assert readers.inflate(_deflate(b"x" * 1024), SMALL, "t") == b"x" * 1024
    with pytest.raises(InputLimitError, match="inflates to more than 1 KiB"):
        readers.inflate(_deflate(b"x" * 1025), SMALL, "t")
    with pytest.raises(DataFileError, match="truncated"):
        readers.inflate(_deflate(b"x" * 1000)[:-3], SMALL, "t")
    with pytest.raises(DataFileError, match="damaged"):
        readers.inflate(b"\xff\xff\xff", SMALL, "t")


# --------------------------------------------------------------------------- one line


@given(text=st.text())
def test_one_line_never_breaks_a_line(text: str) -> None:
    assert len(one_line("x" + text + "x").splitlines()) == 1


@given(value=plain | st.binary() | st.text(min_size=100, max_size=1000))
def test_preview_is_short_and_one_line(value: Any) -> None:
    shown = preview(value)
    assert len(shown) <= 60 and len(shown.splitlines()) <= 1


@given(text=st.text())
def test_every_warbench_error_is_one_line(text: str) -> None:
    for exc in (
        WarbenchError(text),
        DataFileError(text, text),
        ProfileError(text, text, text, source=text, reason=text),
    ):
        assert len(("x" + str(exc) + "x").splitlines()) == 1


class _Model(BaseModel):
    n: int
    items: list[int] = []


def test_validation_sentence_names_the_field_and_previews_the_value() -> None:
    with pytest.raises(ValidationError) as e:
        _Model.model_validate({"n": "many\nmany" * 100, "items": [1, "x", "y"]})
    text = readers.validation_sentence(e.value, "model")
    assert text.startswith("model.n: Input should be a valid integer")
    assert "(got 'many\\nmany" in text and text.endswith("; and 2 more problems")
    assert len(text.splitlines()) == 1 and len(text) < 250
