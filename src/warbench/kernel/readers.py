"""Bounded readers: every file, share code and game record warbench reads goes through here.

Input comes from people and from other programs, so it may be damaged, hostile or simply huge.
The readers of every ruleset call these functions instead of ``open``/``yaml``/``json``, and get,
for any input, either plain data or one typed, one-line :class:`DataFileError` naming the file
(or code, or record line), what is wrong and the limit that applies. Nothing here knows a rule.

What is bounded (``docs/formats.md`` lists the figures per kind of file):

* **size**: a file larger than its kind's :attr:`Limits.max_bytes` is refused before it is read
  whole; a compressed payload is inflated at most to that size (:func:`inflate`);
* **text**: a file must be UTF-8; the error names the first bad byte and its offset;
* **nesting**: YAML and JSON nested deeper than :attr:`Limits.max_depth` are refused while they
  are parsed (the YAML composer and the JSON scanner never recurse past the limit), so a
  1,000-deep file cannot end in ``RecursionError`` or crash the C parser;
* **aliases**: YAML anchors and aliases may share values, but the values they add when expanded
  are counted while composing; past :attr:`Limits.max_alias_nodes` the file is refused (an
  "alias bomb" of a few hundred bytes otherwise expands to billions of values);
* **keys**: keys are text (as in JSON); a key written twice in one mapping is an error in YAML
  and JSON, with its line;
* **numbers**: ``NaN`` and ``Infinity`` are not JSON and are refused; an integer too long for
  Python to read is an error, not a crash;
* **messages**: every value echoed in an error is a short preview (:func:`~.errors.preview`),
  and every message is one line.

YAML is parsed by libyaml (PyYAML's C parser) where it is installed, with warbench's own
composer on top of its events, so the depth, alias and duplicate-key checks work the same with
and without it (the pure-Python parser is the fallback). The YAML machinery lives in
``kernel/_yaml_reader.py`` and is imported on first use.
"""

from __future__ import annotations

import json
import math
import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warbench.kernel.errors import DataFileError, one_line, preview

if TYPE_CHECKING:
    from pydantic import ValidationError

__all__ = [
    "BOARD_FILE",
    "GAME_RECORD",
    "PROFILE_FILE",
    "ROLL_HISTORY",
    "ROSTER_FILE",
    "SHARE_CODE",
    "WARENGINE_FILE",
    "InputLimitError",
    "Limits",
    "check_depth",
    "decode_text",
    "inflate",
    "libyaml",
    "load_data",
    "parse_data",
    "parse_json",
    "parse_yaml",
    "read_bytes",
    "read_text",
    "validation_sentence",
]

KIB = 1024
MIB = 1024 * KIB

#: Deepest nesting any warbench file needs is about 8 (a record header: players, units, unit,
#: weapons, perks ...); 32 leaves room for hand-written files and refuses the pathological.
MAX_DEPTH = 32
#: Values YAML aliases may add in total when expanded (a whole roster is a few thousand).
MAX_ALIAS_NODES = 100_000


@dataclass(frozen=True)
class Limits:
    """The bounds for one kind of input.

    ``kind`` names it in messages ("roster file"), ``max_bytes`` is the largest accepted size
    (for a compressed payload: the largest inflated size), ``max_depth`` the deepest nesting of
    mappings and lists, ``max_alias_nodes`` how many values YAML aliases may add when expanded.
    """

    kind: str
    max_bytes: int
    max_depth: int = MAX_DEPTH
    max_alias_nodes: int = MAX_ALIAS_NODES


PROFILE_FILE = Limits("unit or weapon file", 2 * MIB)
ROSTER_FILE = Limits("roster file", 4 * MIB)
BOARD_FILE = Limits("board file", 1 * MIB)
WARENGINE_FILE = Limits("WarEngine file", 2 * MIB)
GAME_RECORD = Limits("game record", 32 * MIB)
#: The roster JSON inside a share code, after inflating.
SHARE_CODE = Limits("share code", 4 * MIB)
#: One line of the dice roll history (``cli/roll_history.py``).
ROLL_HISTORY = Limits("roll history line", 64 * KIB)


class InputLimitError(DataFileError):
    """An input is larger, deeper or expands further than its kind allows."""


def _size(n: int) -> str:
    if n >= MIB and n % MIB == 0:
        return f"{n // MIB} MiB"
    if n >= MIB:
        return f"{n / MIB:.1f} MiB"
    if n >= KIB:
        return f"{n // KIB} KiB"
    return f"{n} bytes"


# --------------------------------------------------------------------------- bytes and text


def read_bytes(path: str | Path, limits: Limits, source: str | None = None) -> bytes:
    """The bytes of ``path``, refused (before reading them all) when over ``limits.max_bytes``."""
    source = str(path) if source is None else source
    try:
        with open(path, "rb") as f:
            data = f.read(limits.max_bytes + 1)
    except FileNotFoundError as exc:
        raise DataFileError(source, "file not found") from exc
    except IsADirectoryError as exc:
        raise DataFileError(source, "is a folder, not a file") from exc
    except OSError as exc:
        raise DataFileError(source, f"cannot read the file ({exc.strerror or exc})") from exc
    except ValueError as exc:  # a path with a NUL character
        raise DataFileError(source, f"not a usable file name ({exc})") from None
    if len(data) > limits.max_bytes:
        raise InputLimitError(
            source,
            f"the file is larger than {_size(limits.max_bytes)}, the limit for a {limits.kind} "
            "(see docs/formats.md)",
        )
    return data


def decode_text(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text (a leading byte-order mark is dropped); names the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DataFileError(
            source,
            f"not UTF-8 text: byte 0x{data[exc.start]:02X} at offset {exc.start} (line {line}) "
            "cannot be decoded; save the file as UTF-8",
        ) from None


def read_text(path: str | Path, limits: Limits, source: str | None = None) -> str:
    """The UTF-8 text of ``path`` within ``limits`` (:func:`read_bytes`, :func:`decode_text`)."""
    source = str(path) if source is None else source
    return decode_text(read_bytes(path, limits, source), source)


def inflate(stream: bytes, limits: Limits, source: str) -> bytes:
    """Inflate a raw DEFLATE stream (RFC 1951) to at most ``limits.max_bytes`` bytes."""
    d = zlib.decompressobj(-15)
    try:
        out = d.decompress(stream, limits.max_bytes + 1)
    except zlib.error as exc:
        raise DataFileError(source, f"the compressed content is damaged ({exc})") from None
    if len(out) > limits.max_bytes or d.unconsumed_tail:
        raise InputLimitError(
            source,
            f"the content inflates to more than {_size(limits.max_bytes)}, the limit for a "
            f"{limits.kind}",
        )
    if not d.eof:
        raise DataFileError(source, "the compressed content is truncated")
    return out


# --------------------------------------------------------------------------- YAML


def libyaml() -> bool:
    """Whether YAML is parsed by libyaml (PyYAML's C parser) in this installation."""
    from warbench.kernel import _yaml_reader

    return _yaml_reader.LIBYAML


def parse_yaml(text: str, source: str, limits: Limits) -> Any:
    """The data of one YAML document, within ``limits``; :class:`DataFileError` otherwise.

    (PyYAML is imported on first use: commands that read no YAML do not pay for it.)
    """
    if len(text) > limits.max_bytes:
        raise InputLimitError(
            source,
            f"the text is longer than {_size(limits.max_bytes)}, the limit for a {limits.kind}",
        )
    from warbench.kernel import _yaml_reader

    return _yaml_reader.parse(text, source, limits)


def _number_problem(exc: ValueError) -> str:
    if "digits" in str(exc):
        return "a number has more digits than warbench reads (4300)"
    return one_line(str(exc))


# --------------------------------------------------------------------------- JSON


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


class _NotJSON(Exception):
    def __init__(self, word: str) -> None:
        self.word = word


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(k)
        out[k] = v
    return out


def _refuse_constant(word: str) -> Any:
    raise _NotJSON(word)


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (math.inf, -math.inf):
        raise _NotJSON(text)
    return value


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+', re.DOTALL)


def _json_position(text: str, key: str | None, word: str | None) -> tuple[int, int | None]:
    """(line, first line) of the second ``key`` in one object, or the line of a bare ``word``.

    Runs only after the C scanner found the problem, over text it has already read up to it.
    """
    stack: list[dict[str, int] | None] = []
    line, pos = 1, 0
    tokens = list(_TOKEN.finditer(text))
    for i, m in enumerate(tokens):
        tok = m.group()
        line += text.count("\n", pos, m.start())
        pos = m.start()
        if tok in ("{", "["):
            stack.append({} if tok == "{" else None)
        elif tok in ("}", "]"):
            if stack:
                stack.pop()
        elif word is not None and tok == word:
            return line, None
        elif (
            key is not None
            and tok.startswith('"')
            and stack
            and i + 1 < len(tokens)
            and tokens[i + 1].group() == ":"
        ):
            seen = stack[-1]
            if seen is None:
                continue
            try:
                name = json.loads(tok)
            except ValueError:
                continue
            if name == key and name in seen:
                return line, seen[name]
            seen.setdefault(name, line)
    return 0, None


def parse_json(text: str, source: str, limits: Limits) -> Any:
    """The data of a JSON text, within ``limits``; :class:`DataFileError` otherwise."""
    if len(text) > limits.max_bytes:
        raise InputLimitError(
            source,
            f"the text is longer than {_size(limits.max_bytes)}, the limit for a {limits.kind}",
        )
    try:
        data = json.loads(
            text,
            object_pairs_hook=_unique_pairs,
            parse_constant=_refuse_constant,
            parse_float=_finite_float,
        )
    except json.JSONDecodeError as exc:
        at = f"line {exc.lineno}, column {exc.colno}" if "\n" in text else f"column {exc.colno}"
        raise DataFileError(source, f"malformed JSON at {at}: {exc.msg}") from None
    except _DuplicateKey as exc:
        line, first = _json_position(text, exc.key, None)
        lines = "\n" in text.strip()  # a record line is one line: no line numbers inside it
        where = f"at line {line}: " if line and lines else ""
        again = f" (first at line {first})" if first and lines else ""
        raise DataFileError(
            source, f"{where}found the key {preview(exc.key, 40)} twice in one object{again}"
        ) from None
    except _NotJSON as exc:
        line, _ = _json_position(text, None, exc.word)
        where = f" at line {line}" if line and "\n" in text.strip() else ""
        raise DataFileError(
            source, f"malformed JSON{where}: {preview(exc.word, 30)} is not a finite number"
        ) from None
    except RecursionError:
        raise InputLimitError(
            source,
            f"nested deeper than {limits.max_depth} levels, the limit for a {limits.kind}",
        ) from None
    except ValueError as exc:  # an integer with more digits than Python converts
        raise DataFileError(source, f"malformed JSON: {_number_problem(exc)}") from None
    check_depth(data, source, limits)
    return data


def check_depth(data: Any, source: str, limits: Limits) -> None:
    """Refuse ``data`` nested deeper than ``limits.max_depth`` (iterative: any depth is safe)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > limits.max_depth:
                raise InputLimitError(
                    source,
                    f"nested deeper than {limits.max_depth} levels, the limit for a {limits.kind}",
                )
            children: Iterable[Any] = value.values() if isinstance(value, dict) else value
            stack.extend((c, depth + 1) for c in children)


# --------------------------------------------------------------------------- both


def parse_data(text: str, fmt: str, source: str, limits: Limits) -> Any:
    """Parse ``text`` as ``fmt`` (``json`` or ``yaml``) within ``limits``."""
    if fmt == "json":
        return parse_json(text, source, limits)
    return parse_yaml(text, source, limits)


def load_data(path: str | Path, limits: Limits, *, fmt: str | None = None) -> Any:
    """Read and parse a YAML or JSON file within ``limits``.

    ``fmt`` is ``json`` or ``yaml``; by default ``.json`` files are JSON and others YAML.
    """
    p = Path(path)
    source = str(path)
    if fmt is None:
        fmt = "json" if p.suffix.lower() == ".json" else "yaml"
    return parse_data(read_text(p, limits, source), fmt, source, limits)


# --------------------------------------------------------------------------- pydantic errors


def _dotted(prefix: str, loc: Iterable[int | str]) -> str:
    out = prefix
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def validation_sentence(exc: ValidationError, prefix: str = "") -> str:
    """pydantic's errors as one readable sentence: field path, message, a preview of the value.

    ``units[0].unit.move: Input should be less than or equal to 50 (got 60); and 2 more
    problems``. Never formats pydantic's own multi-line text (which echoes whole values).
    """
    errors = exc.errors(include_url=False, include_context=False)
    if not errors:  # pragma: no cover - pydantic always reports at least one
        return "invalid content"
    first = errors[0]
    path = _dotted(prefix, first["loc"]) or "(top level)"
    if first["type"] == "missing":
        text = f"{path}: required field is missing"
    elif first["type"] == "extra_forbidden":
        text = f"{path}: unknown field"
    else:
        msg = first["msg"].removeprefix("Value error, ")
        text = f"{path}: {msg} (got {preview(first.get('input'))})"
    more = len(errors) - 1
    if more:
        text += f"; and {more} more problem{'s' if more > 1 else ''}"
    return one_line(text)
