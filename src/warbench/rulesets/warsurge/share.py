"""Offline roster sharing: a compact, versioned, checksummed share code, and its QR image.

A share code carries the whole roster (every unit profile, weapon profile, model group, trait
and roster perk), so importing it restores the roster exactly without a database or network::

    WBR1:<base32 text>

The text after the prefix is RFC 4648 base32 (``A-Z``, ``2-7``, no ``=`` padding) of::

    bytes 0-2     L, the length of the DEFLATE stream (unsigned, big-endian)
    bytes 3..3+L  raw DEFLATE (RFC 1951, zlib level 9) of the roster's canonical JSON:
                  UTF-8, keys sorted, no spaces, fields at their default value left out
                  (except ``ruleset`` and ``points_model``, always written)
    last 4 bytes  the first 4 bytes of SHA-256 over bytes 0..3+L

Every character of a code is in the QR alphanumeric set, so the QR image is compact; base32 was
preferred to base45 (RFC 9285) because a base32 code has no spaces or shell characters
(``$``, ``*``, ``%``) and survives copy, paste, shells, URLs and line wrapping; it costs
about 7% more QR modules. Decoding ignores whitespace and letter case.

:func:`decode` rejects a wrong prefix, an unknown version, a foreign character, a truncated or
over-long code and a checksum mismatch with a :class:`ShareCodeError` saying which. A code is at
most :data:`MAX_CODE_CHARS` characters, its content inflates to at most the size of a roster file
(``kernel.readers.SHARE_CODE``) and is read by the bounded JSON reader (depth, duplicate keys).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import zlib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from warbench.kernel import readers
from warbench.kernel.errors import DataFileError, WarbenchError, preview
from warbench.rulesets.warsurge.roster import Roster

__all__ = ["PREFIX", "VERSION", "ShareCodeError", "decode", "encode", "qr_png", "qr_svg"]

MAGIC = "WBR"
VERSION = 1
PREFIX = f"{MAGIC}{VERSION}:"
_LEN_BYTES = 3
_SUM_BYTES = 4
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
#: Largest QR code (version 40, error correction L) in alphanumeric mode.
QR_MAX_CHARS = 4296
#: Longest share code read (about 62 KB of DEFLATE: a roster of several hundred units).
MAX_CODE_CHARS = 100_000


class ShareCodeError(WarbenchError):
    """A share code cannot be read: says what is wrong (prefix, version, damage, truncation)."""


def canonical_json(roster: Roster) -> bytes:
    """The roster as compact canonical JSON (sorted keys, defaults except versions left out)."""
    data = roster.model_dump(mode="json", exclude_defaults=True)
    # The versions are always written: a default here is this warbench's, not the sharer's.
    data["ruleset"] = roster.ruleset
    data["points_model"] = roster.points_model
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _checksum(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()[:_SUM_BYTES]


def encode(roster: Roster) -> str:
    """The share code of ``roster`` (deterministic: equal rosters give equal codes)."""
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    stream = comp.compress(canonical_json(roster)) + comp.flush()
    if len(stream) >= 1 << (8 * _LEN_BYTES):
        raise ShareCodeError(f"the roster is too large for a share code ({len(stream)} bytes)")
    body = len(stream).to_bytes(_LEN_BYTES, "big") + stream
    text = base64.b32encode(body + _checksum(body)).decode("ascii").rstrip("=")
    return PREFIX + text


def decode(code: str) -> Roster:
    """The roster in a share code; :class:`ShareCodeError` says what is wrong with a bad one."""
    if len(code) > 2 * MAX_CODE_CHARS:  # before any work; whitespace may double a code
        raise ShareCodeError(_too_long(len(code)))
    text = re.sub(r"\s+", "", code).upper()
    if len(text) > MAX_CODE_CHARS:
        raise ShareCodeError(_too_long(len(text)))
    if not text.startswith(MAGIC):
        raise ShareCodeError(
            f"not a warbench roster share code: it starts with {preview(text[:8], 12)}, "
            f"expected {PREFIX!r}"
        )
    m = re.match(rf"{MAGIC}([0-9]{{1,6}}):", text)
    if m is None or not re.fullmatch(r"[1-9][0-9]*", m[1]):
        raise ShareCodeError(
            f"malformed share code prefix {preview(text[: text.find(':') + 1 or 8], 16)}; "
            f"expected {PREFIX!r}"
        )
    if int(m[1]) != VERSION:
        raise ShareCodeError(
            f"share code version {m[1]} is not supported by this warbench "
            f"(it reads version {VERSION}); update warbench or re-share the roster"
        )
    payload = text[m.end() :]
    for i, ch in enumerate(payload):
        if ch not in _ALPHABET:
            raise ShareCodeError(
                f"character {preview(ch)} at position {m.end() + i + 1} cannot be in a share "
                "code (allowed: A-Z and 2-7); the code was mistyped or damaged"
            )
    raw = _b32decode(payload)
    if len(raw) < _LEN_BYTES + _SUM_BYTES:
        raise ShareCodeError("the share code is truncated: it is too short to hold a roster")
    length = int.from_bytes(raw[:_LEN_BYTES], "big")
    expected = _LEN_BYTES + length + _SUM_BYTES
    if len(raw) < expected:
        raise ShareCodeError(
            f"the share code is truncated: it holds {len(raw)} of {expected} bytes "
            f"(about {_chars(expected) - _chars(len(raw))} characters are missing)"
        )
    if len(raw) > expected:
        raise ShareCodeError(
            f"the share code has {len(raw) - expected} bytes too many after its end; "
            "two codes may have been pasted together"
        )
    body, check = raw[: _LEN_BYTES + length], raw[_LEN_BYTES + length :]
    if _checksum(body) != check:
        raise ShareCodeError(
            "the share code is damaged: its checksum does not match (a character was changed)"
        )
    source = "share code"
    try:
        stream = readers.inflate(body[_LEN_BYTES:], readers.SHARE_CODE, source)
        text = readers.decode_text(stream, source)
        data: Any = readers.parse_json(text, source, readers.SHARE_CODE)
    except DataFileError as exc:
        raise ShareCodeError(
            f"the share code's checksum matches but its content cannot be read: {exc.reason}"
        ) from None
    try:
        return Roster.model_validate(data)
    except ValidationError as exc:
        raise ShareCodeError(
            "the share code's checksum matches but its content is not a roster: "
            + readers.validation_sentence(exc)
        ) from None


def _too_long(n: int) -> str:
    return (
        f"the share code has {n:,} characters, more than the {MAX_CODE_CHARS:,} a roster needs; "
        "share the roster as a file"
    )


def _chars(n_bytes: int) -> int:
    return (n_bytes * 8 + 4) // 5


def _b32decode(payload: str) -> bytes:
    if len(payload) % 8 in (1, 3, 6):
        raise ShareCodeError(
            "the share code is truncated or has extra characters (its length is impossible)"
        )
    try:
        return base64.b32decode(payload + "=" * (-len(payload) % 8))
    except binascii.Error as exc:
        raise ShareCodeError(f"the share code is damaged: {exc}") from None


# ------------------------------------------------------------------------------ QR images


def qr_code(code: str) -> Any:
    """The segno QR code of a share code (alphanumeric mode, error correction M or better)."""
    import segno

    if len(code) > QR_MAX_CHARS:
        raise ShareCodeError(
            f"the share code has {len(code)} characters, more than one QR code holds "
            f"({QR_MAX_CHARS}); share the code as text or the roster as a file"
        )
    try:
        return segno.make(code, error="l", mode="alphanumeric", micro=False, boost_error=True)
    except segno.DataOverflowError as exc:  # pragma: no cover - guarded by QR_MAX_CHARS
        raise ShareCodeError(f"the share code does not fit in a QR code: {exc}") from None


def qr_png(code: str, path: str | Path, scale: int = 4) -> Path:
    """Write the QR image of ``code`` as PNG; returns the path."""
    qr_code(code).save(str(path), kind="png", scale=scale, border=4)
    return Path(path)


def qr_svg(code: str, path: str | Path, scale: int = 4) -> Path:
    """Write the QR image of ``code`` as SVG; returns the path."""
    qr_code(code).save(str(path), kind="svg", scale=scale, border=4, xmldecl=False)
    return Path(path)
