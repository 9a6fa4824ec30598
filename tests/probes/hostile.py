"""Hostile inputs for every reader, run through the CLI in-process (issue 19).

Files (unit, weapon, roster, board, game roster, WarEngine), share codes and game records are
built from valid examples and then damaged the way an attacker or an unlucky user would:
a value replaced by something hostile (a deep nest, an alias bomb, a 5,000-digit number,
``NaN``, a name with a line break or rich markup), a key written twice, bytes that are not
UTF-8, a flipped character, a truncation, a tampered result line. Each case is run through the
``warbench`` command that reads it (typer's CliRunner, in-process) and judged:

* **traceback**: the command ended with an exception other than its exit;
* **wrong success**: the input must be refused (``must_fail``) but the command exited 0;
* **bad message**: the error is not exactly one line, or echoes more than a short line.

``tests/probes/test_hostile_inputs.py`` fuzzes these with hypothesis; ``report.py`` counts
the problems (and measures the alias and share-code bombs in a subprocess) for the
before/after table of issue 19. Only the CLI is imported, so the same probes run against any
version of warbench.
"""

from __future__ import annotations

import atexit
import base64
import copy
import hashlib
import json
import os
import shutil
import tempfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st
from typer.testing import CliRunner

from warbench.cli.app import _register, app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
BOARDS = ROOT / "src" / "warbench" / "rulesets" / "warsurge" / "data" / "boards"
ROSTER_A = EXAMPLES / "warsurge" / "rosters" / "skirmish_a.yaml"
ROSTER_B = EXAMPLES / "warsurge" / "rosters" / "skirmish_b.yaml"

#: Examples per hypothesis test; raise with WARBENCH_PROBE_EXAMPLES for a long probe run.
EXAMPLES_PER_TEST = int(os.environ.get("WARBENCH_PROBE_EXAMPLES", "8"))
#: The longest error line a command may print (values are echoed as short previews).
MAX_ERROR_CHARS = 2100

_register()
runner = CliRunner()
WORK = Path(tempfile.mkdtemp(prefix="warbench-probes-"))
atexit.register(shutil.rmtree, WORK, ignore_errors=True)
DB = f"sqlite:///{WORK / 'probes.db'}"


# --------------------------------------------------------------------------- outcomes


@dataclass
class Outcome:
    """What one command did with one input."""

    args: list[str]
    exit_code: int
    stdout: str
    stderr: str
    exception: BaseException | None

    @property
    def traceback(self) -> bool:
        return self.exception is not None and not isinstance(self.exception, SystemExit)

    def problems(self, must_fail: bool) -> list[str]:
        """What is wrong with this outcome (empty when the command behaved)."""
        if self.traceback:
            exc = self.exception
            return [f"traceback: {type(exc).__name__}: {str(exc)[:160]!r}"]
        if self.exit_code == 0:
            return ["wrong success"] if must_fail else []
        if self.exit_code == 2:
            lines = [ln for ln in self.stderr.splitlines() if ln.strip()]
            if len(lines) != 1:
                return [f"bad message: the error is {len(lines)} lines: {self.stderr[:200]!r}"]
            if len(lines[0]) > MAX_ERROR_CHARS:
                return [f"bad message: the error line has {len(lines[0]):,} characters"]
        return []


def invoke(args: list[str]) -> Outcome:
    """Run ``warbench ARGS`` in-process."""
    r = runner.invoke(app, args)
    return Outcome(args, r.exit_code, _text(r.stdout_bytes), _text(r.stderr_bytes), r.exception)


def _text(data: bytes, keep: int = 100_000) -> str:
    """Output as text; a huge output (an error echoing a bomb) is cut, keeping its length."""
    if len(data) <= keep:
        return data.decode("utf-8", "replace")
    return data[:keep].decode("utf-8", "replace") + f"... ({len(data):,} bytes in all)"


@dataclass
class Case:
    """One hostile input: the bytes (or code), how it was made, and whether it must fail."""

    what: str
    data: bytes
    must_fail: bool = False
    suffix: str = ".yaml"
    notes: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- hostile values

NASTY_TEXT = [
    "",
    " ",
    "\n",
    "Troop\ners",
    "line one\r\nline two",
    "[/]",
    "[bold red]x[/]",
    ":warning:",
    "\x00",
    "\x1b[31mred",
    "\u2028",
    "\ufeff",
    "-",
    "7+",
    "3+",
    "Destroy I",
    "destroy 99",
    "💥" * 3,
    "\\",
    "'\"",
    "&a",
    "*a",
    "!!python/object:os.system",
    "NaN",
    "1e999",
    "WBR1:",
    "/dev/zero",
    "/etc",
    "../../../../../etc/passwd",
    "warpeyes.yaml",
    "stormreavers.yaml",
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**15, max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(NASTY_TEXT),
    st.builds(lambda c, n: c * n, st.sampled_from(["x", "ab\n", "[/]"]), st.integers(100, 20_000)),
)
KEYS = st.sampled_from(["name", "unit", "weapons", "models", "count", "type", "units", "x", ""])
#: YAML keys that are not text (JSON writes them as text)
NON_TEXT_KEYS = st.integers(-2, 2) | st.none() | st.booleans()
values = st.recursive(
    scalars,
    lambda ch: (
        st.lists(ch, max_size=4)
        | st.dictionaries(KEYS | st.text(max_size=6) | NON_TEXT_KEYS, ch, max_size=4)
    ),
    max_leaves=10,
)

HOLE = "__warbench_probe_hole__"


@dataclass(frozen=True)
class Raw:
    """Text put in place of a value after the document is written (things no dumper writes)."""

    text: str
    what: str
    must_fail: bool
    yaml_only: bool = False
    #: must fail in JSON only (in YAML, ``NaN`` or ``-Infinity`` is a plain string)
    json_word: bool = False


def _bomb(levels: int, width: int) -> str:
    parts = ["&a0 [" + ", ".join(['"lol"'] * width) + "]"]
    for i in range(1, levels):
        parts.append(f"&a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "[" + ", ".join(parts) + "]"


raws = st.one_of(
    st.integers(33, 3000).map(lambda n: Raw("[" * n + "]" * n, f"list nested {n} deep", True)),
    st.integers(33, 3000).map(
        lambda n: Raw('{"a": ' * n + "1" + "}" * n, f"mapping nested {n} deep", True)
    ),
    st.integers(4400, 6000).map(lambda n: Raw("9" * n, f"{n}-digit number", True)),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999"]).map(
        lambda w: Raw(w, f"JSON {w}", True, json_word=True)
    ),
    st.tuples(st.integers(6, 9), st.integers(6, 9)).map(
        lambda lw: Raw(_bomb(*lw), f"alias bomb {lw[1]}^{lw[0]}", True, yaml_only=True)
    ),
    st.just(Raw("&r [*r]", "recursive alias", True, yaml_only=True)),
    st.just(Raw("*nowhere", "undefined alias", True, yaml_only=True)),
    st.just(Raw('{"k": 1, "k": 2}', "nested key twice", True)),
)


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*prefix, i))


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    out = copy.deepcopy(doc)
    here = out
    for p in path[:-1]:
        here = here[p]
    here[path[-1]] = value
    return out


def _dump(doc: Any, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(doc, ensure_ascii=False, allow_nan=True)
    return yaml.safe_dump(doc, allow_unicode=True, default_flow_style=False, sort_keys=False)


def _dup_first_key(doc: dict[str, Any], fmt: str) -> str:
    key = next(iter(doc))
    if fmt == "json":
        text = _dump(doc, fmt)
        return "{" + json.dumps(key) + ": " + json.dumps(doc[key]) + ", " + text[1:]
    return _dump({key: doc[key]}, fmt) + _dump(doc, fmt)


_BAD_BYTES = [b"\xff", b"\xfe\xfe", b"\xc3\x28", b"\xe2\x82", b"\xed\xa0\x80", b"\x80abc"]


@st.composite
def hostile_documents(draw: st.DrawFn, base: dict[str, Any], kind: str) -> Case:
    """A damaged copy of the document ``base`` (YAML or JSON) for a file of ``kind``."""
    fmt = draw(st.sampled_from(["yaml", "json"]))
    suffix = ".json" if fmt == "json" else ".yaml"
    paths = list(_paths(base))
    how = draw(
        st.sampled_from(
            ["value", "value", "raw", "raw", "duplicate key", "bytes", "flip", "truncate"]
        )
    )
    if how == "value":
        path = draw(st.sampled_from(paths))
        v = draw(values)
        text = _dump(_set(base, path, v), fmt)
        return Case(f"{kind}: {fmt} {_show(path)} = {v!r:.60}", text.encode(), False, suffix)
    if how == "raw":
        raw = draw(raws)
        if raw.yaml_only:
            fmt, suffix = "yaml", ".yaml"
        path = draw(st.sampled_from(paths[1:]))
        text = _dump(_set(base, path, HOLE), fmt)
        text = text.replace(json.dumps(HOLE), raw.text).replace(HOLE, raw.text)
        must_fail = raw.must_fail and (fmt == "json" or not raw.json_word)
        return Case(f"{kind}: {fmt} {_show(path)} = {raw.what}", text.encode(), must_fail, suffix)
    if how == "duplicate key":
        text = _dup_first_key(base, fmt)
        return Case(f"{kind}: {fmt} first key twice", text.encode(), True, suffix)
    data = _dump(base, fmt).encode()
    if how == "bytes":
        at = draw(st.integers(0, len(data)))
        bad = draw(st.sampled_from(_BAD_BYTES))
        return Case(
            f"{kind}: {fmt} bytes {bad!r} at {at}", data[:at] + bad + data[at:], True, suffix
        )
    if how == "flip":
        at = draw(st.integers(0, len(data) - 1))
        ch = draw(st.sampled_from(list(b"{}[]:,-&*!'\"\n #|>0aZ")))
        return Case(
            f"{kind}: {fmt} byte {at} -> {chr(ch)!r}",
            data[:at] + bytes([ch]) + data[at + 1 :],
            False,
            suffix,
        )
    at = draw(st.integers(0, len(data)))
    return Case(f"{kind}: {fmt} truncated at {at}", data[:at], False, suffix)


def _show(path: tuple[Any, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path) or "(document)"


# --------------------------------------------------------------------------- files


def _yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _inline_game_roster(path: Path) -> dict[str, Any]:
    doc = _yaml(path)
    for e in doc["units"]:
        if "file" in e:
            e["file"] = str((path.parent / e["file"]).resolve())
    return dict(doc)


def _roster_doc() -> dict[str, Any]:
    unit = _yaml(EXAMPLES / "warsurge" / "troopers_10.yaml")
    return {
        "roster": {
            "name": "Probe Force",
            "point_limit": 1000,
            "units": [
                {
                    "name": "Troopers",
                    "unit": {
                        "profile": unit["unit"],
                        "weapons": unit["weapons"],
                        "models": unit["models"],
                    },
                }
            ],
        }
    }


#: kind -> (valid document, the command that reads FILE)
FILE_KINDS: dict[str, tuple[Callable[[], Any], Callable[[str], list[str]]]] = {
    "unit file": (
        lambda: _yaml(EXAMPLES / "warsurge" / "troopers_10.yaml"),
        lambda f: ["points", f],
    ),
    "weapon file": (
        lambda: _yaml(EXAMPLES / "warsurge" / "plasma_beam.yaml"),
        lambda f: ["armoury", "add", f, "--replace", "--db", DB],
    ),
    "roster file": (_roster_doc, lambda f: ["roster", "validate", f]),
    "board file": (
        lambda: _yaml(BOARDS / "open_field_42x32.yaml"),
        lambda f: [
            "battle",
            str(ROSTER_A),
            str(ROSTER_B),
            "--board",
            f,
            "--turns",
            "1",
            "-q",
            "--seed",
            "1",
        ],
    ),
    "game roster": (
        lambda: _inline_game_roster(ROSTER_A),
        lambda f: [
            "battle",
            f,
            str(ROSTER_B),
            "--board",
            "open_field_42x32",
            "--turns",
            "1",
            "-q",
            "--seed",
            "1",
        ],
    ),
    "WarEngine figure": (
        lambda: _yaml(EXAMPLES / "warengine" / "warpeyes.yaml"),
        lambda f: ["warengine", "validate", f],
    ),
    "WarEngine force": (
        lambda: _yaml(EXAMPLES / "warengine" / "stormreavers.yaml"),
        lambda f: ["warengine", "points", f],
    ),
}

_counter = iter(range(10**9))


def write_case(case: Case) -> Path:
    """Write ``case`` where WarEngine forces find their figure files."""
    folder = WORK / "files"
    if not folder.exists():
        folder.mkdir()
        for p in (EXAMPLES / "warengine").glob("*.yaml"):
            (folder / p.name).write_bytes(p.read_bytes())
    path = folder / f"case{next(_counter)}{case.suffix}"
    path.write_bytes(case.data)
    return path


def run_file_case(kind: str, case: Case) -> Outcome:
    path = write_case(case)
    try:
        return invoke(FILE_KINDS[kind][1](str(path)))
    finally:
        path.unlink(missing_ok=True)


# --------------------------------------------------------------------------- share codes

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def envelope(payload: bytes, prefix: str = "WBR1:") -> str:
    """A share code around ``payload`` (raw DEFLATE, length, checksum: docs/rosters.md)."""
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    stream = comp.compress(payload) + comp.flush()
    body = len(stream).to_bytes(3, "big") + stream
    check = hashlib.sha256(body).digest()[:4]
    return prefix + base64.b32encode(body + check).decode().rstrip("=")


def base_roster_json() -> dict[str, Any]:
    return dict(_roster_doc()["roster"])


def _canonical(doc: Any) -> bytes:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


@st.composite
def hostile_codes(draw: st.DrawFn) -> Case:
    """A damaged or crafted share code."""
    base = base_roster_json()
    good = envelope(_canonical(base))
    how = draw(
        st.sampled_from(
            ["flip", "cut", "prefix", "content", "content", "crafted", "whitespace", "repeat"]
        )
    )
    if how == "flip":
        at = draw(st.integers(5, len(good) - 1))
        ch = draw(st.sampled_from(_ALPHABET + "018!é:= "))
        code = good[:at] + ch + good[at + 1 :]
        return Case(f"code char {at} -> {ch!r}", code.encode(), False)
    if how == "cut":
        at = draw(st.integers(0, len(good) - 1))
        return Case(f"code cut at {at}", good[:at].encode(), True)
    if how == "prefix":
        p = draw(
            st.sampled_from(
                [
                    "WBR01:",
                    "WBR001:",
                    "WBR2:",
                    "WBR0:",
                    "WBR:",
                    "WBR1",
                    "WBR-1:",
                    "WBR１:",
                    "WBR٣:",
                    "WBR" + "9" * 5000 + ":",
                    "XBR1:",
                ]
            )
        )
        return Case(f"code prefix {p[:12]!r}", (p + good[5:]).encode(), True)
    if how == "whitespace":
        code = " \n".join(good[i : i + 7] for i in range(0, len(good), 7)).lower()
        return Case("code wrapped and lower-case", code.encode(), False)
    if how == "repeat":
        n = draw(st.sampled_from([2, 60_000, 300_000]))
        return Case(f"code {n} times 'A'", ("WBR1:" + "A" * n).encode(), True)
    if how == "content":
        path = draw(st.sampled_from(list(_paths(base))[1:]))
        v = draw(values)
        doc = _set(base, path, v)
        try:
            payload = json.dumps(doc, sort_keys=True, ensure_ascii=False, allow_nan=True).encode()
        except (TypeError, ValueError):
            payload = b"{}"
        return Case(f"code content {_show(path)} = {v!r:.60}", envelope(payload).encode(), False)
    kind = draw(
        st.sampled_from(["deep", "list", "duplicate", "latin-1", "nan", "bomb", "huge int"])
    )
    payloads: dict[str, Callable[[], bytes]] = {
        "deep": lambda: ('{"name": ' + "[" * 2000 + "]" * 2000 + "}").encode(),
        "list": lambda: b"[1, 2, 3]",
        "duplicate": lambda: b'{"name": "A", ' + _canonical(base)[1:],
        "latin-1": lambda: json.dumps({**base, "name": "Ærø"}, ensure_ascii=False).encode(
            "latin-1"
        ),
        "nan": lambda: _canonical(base).replace(b'"point_limit":1000', b'"point_limit":NaN'),
        "bomb": lambda: b'{"name": "' + b"A" * (16 * 1024 * 1024) + b'"}',
        "huge int": lambda: _canonical(base).replace(
            b'"point_limit":1000', b'"point_limit":' + b"9" * 5000
        ),
    }
    return Case(f"code crafted: {kind}", envelope(payloads[kind]()).encode(), True)


def run_code_case(case: Case) -> Outcome:
    return invoke(["roster", "import", "--code", case.data.decode(), "--replace", "--db", DB])


# --------------------------------------------------------------------------- game records

_RECORD: list[str] = []


def record_lines() -> list[str]:
    """The lines of a real WARSURGE game record (``game/record.py``, the format ``battle
    --record`` wrote before it wrote the protocol's record, and ``replay`` still reads): two
    skirmish rosters, seed 5, made once."""
    if not _RECORD:
        from warbench.rulesets.warsurge.battlefield import sample_board
        from warbench.rulesets.warsurge.game import engine
        from warbench.rulesets.warsurge.game.geom import Field
        from warbench.rulesets.warsurge.game.io import load_game_roster
        from warbench.rulesets.warsurge.game.players import ScriptedPlayer
        from warbench.rulesets.warsurge.game.record import GameRecord
        from warbench.rulesets.warsurge.game.state import build_setup

        players = [load_game_roster(ROSTER_A), load_game_roster(ROSTER_B)]
        setup = build_setup(players, Field(sample_board("open_field_42x32")))
        state, _ = engine.new_game(setup, 5)
        rec = GameRecord(setup, 5)
        scripted = [ScriptedPlayer(), ScriptedPlayer()]
        while not state.over:
            side = engine.acting_side(state)
            assert side is not None
            action = scripted[side].choose(state)
            state, _ = engine.apply(state, action)
            rec.add(action, state)
        path = WORK / "game.jsonl"
        rec.save(path)
        _RECORD.extend(path.read_text(encoding="utf-8").splitlines())
    return list(_RECORD)


def _join(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode()


@st.composite
def hostile_records(draw: st.DrawFn) -> Case:
    """A damaged or tampered game record."""
    lines = record_lines()
    rows = [json.loads(ln) for ln in lines]
    how = draw(
        st.sampled_from(
            [
                "result",
                "result",
                "semantic",
                "semantic",
                "not object",
                "field",
                "field",
                "type",
                "drop key",
                "drop line",
                "swap",
                "bytes",
                "duplicate key",
                "deep",
                "truncate",
            ]
        )
    )
    if how == "result":
        result = dict(rows[-1])
        sides = sorted(result["values"])
        which = draw(st.sampled_from(["winner", "values", "turns"]))
        if which == "winner":
            choices = [s for s in [*sides, None] if s != result["winner"]]
            result["winner"] = draw(st.sampled_from(choices))
        elif which == "values":
            side = draw(st.sampled_from(sides))
            result["values"] = {
                **result["values"],
                side: result["values"][side] + draw(st.sampled_from([1, -1, 0.5])),
            }
        else:
            result["turns"] = result["turns"] + draw(st.sampled_from([1, -1]))
        return Case(
            f"record result {which} changed",
            _join([*lines[:-1], json.dumps(result)]),
            True,
            ".jsonl",
        )
    if how == "semantic":
        # well-typed but wrong: another unit, a point off the board, a side that is not there
        steps = [k for k, r in enumerate(rows) if r.get("type") == "action"]
        k = draw(st.sampled_from(steps))
        action = dict(rows[k]["action"])
        keys = [key for key in action if key != "kind"] or ["unit"]
        key = draw(st.sampled_from(keys))
        number = st.integers(-3, 10**6) | st.floats(-1e300, 1e300, allow_nan=False)
        if key in ("at", "to"):
            action[key] = [draw(number), draw(number)]
        elif key == "positions":
            action[key] = draw(st.lists(st.lists(number, min_size=2, max_size=2), max_size=30))
        elif key == "targets":
            action[key] = [[draw(st.sampled_from(["Knife", "Rifle", "x"])), draw(number)]]
        else:
            action[key] = draw(number)
        text = json.dumps({**rows[k], "action": action})
        return Case(
            f"record line {k + 1} action.{key} = {action[key]!r:.40}",
            _join([*lines[:k], text, *lines[k + 1 :]]),
            False,
            ".jsonl",
        )
    i = draw(st.integers(0, len(lines) - 1))
    if how == "not object":
        v = draw(st.sampled_from(["[1, 2]", "1", '"x"', "null", "true", "[]"]))
        return Case(
            f"record line {i + 1} = {v}", _join([*lines[:i], v, *lines[i + 1 :]]), True, ".jsonl"
        )
    if how in ("field", "type", "drop key"):
        row = rows[i]
        paths = list(_paths(row))[1:]
        if how == "type":
            paths = [p for p in paths if p and p[0] == "action"][1:] or paths
        path = draw(st.sampled_from(paths))
        if how == "drop key":
            parent = path[:-1]
            here = copy.deepcopy(row)
            node = here
            for p in parent:
                node = node[p]
            del node[path[-1]]
            text = json.dumps(here)
            return Case(
                f"record line {i + 1} without {_show(path)}",
                _join([*lines[:i], text, *lines[i + 1 :]]),
                False,
                ".jsonl",
            )
        v = draw(
            values
            if how == "field"
            else st.sampled_from(["x", 1.5, [], {}, None, True, -1, 10**30, "1"])
        )
        try:
            text = json.dumps(_set(row, path, v), allow_nan=True)
        except (TypeError, ValueError):
            text = "{}"
        return Case(
            f"record line {i + 1} {_show(path)} = {v!r:.60}",
            _join([*lines[:i], text, *lines[i + 1 :]]),
            False,
            ".jsonl",
        )
    if how == "drop line":
        return Case(
            f"record without line {i + 1}", _join([*lines[:i], *lines[i + 1 :]]), False, ".jsonl"
        )
    if how == "swap":
        j = draw(st.integers(0, len(lines) - 1))
        ls = list(lines)
        ls[i], ls[j] = ls[j], ls[i]
        return Case(f"record lines {i + 1} and {j + 1} swapped", _join(ls), False, ".jsonl")
    if how == "bytes":
        data = _join(lines)
        at = draw(st.integers(0, len(data)))
        bad = draw(st.sampled_from(_BAD_BYTES))
        return Case(f"record bytes {bad!r} at {at}", data[:at] + bad + data[at:], True, ".jsonl")
    if how == "duplicate key":
        key = next(iter(rows[i]))
        text = "{" + json.dumps(key) + ": " + json.dumps(rows[i][key]) + ", " + lines[i][1:]
        return Case(
            f"record line {i + 1} key {key!r} twice",
            _join([*lines[:i], text, *lines[i + 1 :]]),
            True,
            ".jsonl",
        )
    if how == "deep":
        n = draw(st.integers(40, 3000))
        text = lines[i][:-1] + ', "deep": ' + "[" * n + "]" * n + "}"
        return Case(
            f"record line {i + 1} nested {n} deep",
            _join([*lines[:i], text, *lines[i + 1 :]]),
            True,
            ".jsonl",
        )
    data = _join(lines)
    at = draw(st.integers(0, len(data)))
    return Case(f"record truncated at byte {at}", data[:at], False, ".jsonl")


def run_record_case(case: Case) -> Outcome:
    path = write_case(case)
    try:
        return invoke(["replay", str(path)])
    finally:
        path.unlink(missing_ok=True)
