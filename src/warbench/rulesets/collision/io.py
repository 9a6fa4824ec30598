"""Reading Collision card and battle-group files (YAML or JSON), and their JSON Schemas.

Bad input raises typed kernel errors naming the file, the field, the value and what is
allowed: :class:`DataFileError` (unreadable or malformed file), :class:`UnknownNameError`
(an ability or weapon name not known, with the closest names) and :class:`ProfileError`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from warbench.kernel.errors import DataFileError, ProfileError, UnknownNameError, WarbenchError
from warbench.rulesets.collision.glossary import BOOK_FILE
from warbench.rulesets.collision.models import (
    BattleGroup,
    Card,
    InvalidEntry,
    UnknownAbility,
)
from warbench.rulesets.file_kinds import other_ruleset_error

SCHEMA_DIR = Path("docs/schemas/collision")


def _dotted(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(file)"


def _allowed(err: Any) -> str:
    ctx = err.get("ctx") or {}
    kind = err["type"]
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        bound = {
            "greater_than_equal": ">=",
            "less_than_equal": "<=",
            "greater_than": ">",
            "less_than": "<",
        }[kind]
        limit = next(iter(ctx.values()), "?")
        return f"a whole number {bound} {limit}"
    if kind == "enum":
        return f"one of {ctx.get('expected', '?')}"
    if kind in ("too_long", "too_short"):
        # "at least 1 item", not "1 items" (an empty battle group's sentence; session 36)
        n = ctx.get("max_length" if kind == "too_long" else "min_length", "?")
        return f"{'at most' if kind == 'too_long' else 'at least'} {n} item{'' if n == 1 else 's'}"
    if kind == "missing":
        return "a value (the field is required)"
    if kind == "extra_forbidden":
        return "only the documented fields (docs/collision.md)"
    if kind.startswith("int"):
        return "a whole number"
    return str(err["msg"])


def _convert_one(err: Any, source: str) -> WarbenchError:
    loc = tuple(p for p in err["loc"] if p not in ("Card",))
    field = _dotted(loc)
    cause = (err.get("ctx") or {}).get("error")
    if isinstance(cause, UnknownAbility):
        return UnknownNameError(
            "Collision ability", cause.name, cause.known, where=f"{source}: {field}"
        )
    if isinstance(cause, InvalidEntry):
        return ProfileError(field, cause.value, cause.allowed, source=source)
    value = None if err["type"] == "missing" else err.get("input")
    return ProfileError(field, value, _allowed(err), source=source)


def convert(exc: ValidationError, source: str) -> WarbenchError:
    """The most specific pydantic error as a kernel error naming file, field and value."""
    errors = exc.errors()
    # A card given inline in a group fails both as a Card and as a path string; keep the Card's.
    errors = sorted(errors, key=lambda e: "str" in e["loc"] and e["type"] == "string_type")
    return _convert_one(errors[0], source)


_LINES = re.compile(r"L\d+(?:-\d+)?(?:, L\d+(?:-\d+)?)*")


def _rule_of(loc: tuple[int | str, ...], message: str) -> str:
    """The book lines of a card field's limit: those the message cites, else those of the
    field's description in the models, else the card's section (L227-373)."""
    found = _LINES.search(message)
    if found:
        return f"{BOOK_FILE} {found.group(0)}"
    model: Any = Card
    rule = f"{BOOK_FILE} L227-373"
    for part in loc:
        if isinstance(part, int) or model is None:
            continue
        info = next(
            (f for n, f in model.model_fields.items() if part in (n, f.alias)),
            None,
        )
        if info is None:
            break
        lines = _LINES.search(info.description or "")
        if lines:
            rule = f"{BOOK_FILE} {lines.group(0)}"
        inner = info.annotation
        args = getattr(inner, "__args__", ())
        model = next(
            (a for a in (inner, *args) if isinstance(a, type) and issubclass(a, BaseModel)),
            None,
        )
    return rule


def card_problems(data: Any, source: str = "card") -> list[CardProblem]:
    """Every limit a card breaks (empty: ``data`` is a card :func:`parse_card` reads), each
    as the typed error the reader raises and its rule lines; the web designer lists them all
    at once where the reader stops at the first."""
    if not isinstance(data, dict):
        err = DataFileError(source, "a card file holds a mapping (name, points, stats, ...)")
        return [CardProblem("(file)", str(err), f"{BOOK_FILE} L227-373")]
    try:
        Card.model_validate(data)
    except ValidationError as exc:
        out = []
        for e in exc.errors():
            error = _convert_one(e, source)
            loc = tuple(p for p in e["loc"] if p not in ("Card",))
            field = _dotted(loc)
            out.append(CardProblem(field, str(error), _rule_of(loc, str(error))))
        return out
    return []


@dataclass(frozen=True)
class CardProblem:
    """One limit a card breaks: the field, the reader's sentence and the rule's lines."""

    field: str
    message: str
    rule: str


@dataclass(frozen=True)
class MemberProblem:
    """One limit a battle group's inline card breaks: the member's index in ``characters``,
    the card's name as written, and the problem with its field from the group
    (``characters[1].card.abilities``)."""

    member: int
    card: str
    problem: CardProblem


def member_card_problems(data: Any, source: str = "battle group") -> list[MemberProblem]:
    """Every limit the inline cards of a battle group's data break, card by card (empty: each
    card reads; the group itself is then :func:`parse_group`'s to read). :func:`parse_group`
    stops at the first card that does not read; a stored group holding a card that no longer
    reads (a glossary entry renamed since it was saved) is opened from this list to be fixed
    (issue 10, session 37)."""
    members = data.get("characters") if isinstance(data, dict) else None
    if not isinstance(members, list):
        return []
    out = []
    for i, m in enumerate(members):
        inline = m.get("card") if isinstance(m, dict) else None
        if not isinstance(inline, dict):
            continue
        name = str(inline.get("name", f"characters[{i}]"))
        for p in card_problems(inline, f"{source}: {name} (characters[{i}])"):
            out.append(
                MemberProblem(
                    i, name, CardProblem(f"characters[{i}].card.{p.field}", p.message, p.rule)
                )
            )
    return out


def read_data(path: str | Path) -> Any:
    """Parse a YAML or JSON file; raises :class:`DataFileError`."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataFileError(str(p), f"cannot read file ({exc.strerror or exc})") from exc
    try:
        return json.loads(text) if p.suffix.lower() == ".json" else yaml.safe_load(text)
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        reason = str(exc).replace("\n", " ")
        raise DataFileError(
            str(p), f"malformed {p.suffix.lstrip('.') or 'YAML'}: {reason}"
        ) from exc


def parse_card(data: Any, source: str = "<card>") -> Card:
    """A :class:`Card` from plain data; raises kernel errors."""
    if not isinstance(data, dict):
        raise DataFileError(source, "a card file holds a mapping (name, points, stats, ...)")
    try:
        return Card.model_validate(data)
    except ValidationError as exc:
        other = other_ruleset_error(
            data, source, "collision", "card or battle group", "warbench collision"
        )
        raise other or convert(exc, source) from None


def is_group_data(data: Any) -> bool:
    """A battle-group file has ``characters``; a card file has ``stats``."""
    return isinstance(data, dict) and "characters" in data


def parse_group(data: Any, source: str = "<group>", base: Path | None = None) -> BattleGroup:
    """A :class:`BattleGroup`; a card given as a string is a file relative to ``base``."""
    if not isinstance(data, dict):
        raise DataFileError(source, "a battle-group file holds a mapping (name, characters ...)")
    members = data.get("characters")
    if isinstance(members, list):
        data = dict(data)
        resolved = []
        for i, m in enumerate(members):
            if isinstance(m, dict) and isinstance(m.get("card"), str):
                path = (base or Path(".")) / m["card"]
                card = parse_card(read_data(path), str(path))
                resolved.append({**m, "card": card})
            elif isinstance(m, dict) and isinstance(m.get("card"), dict):
                card = parse_card(m["card"], f"{source}: characters[{i}].card")
                resolved.append({**m, "card": card})
            else:
                resolved.append(m)
        data["characters"] = resolved
    try:
        return BattleGroup.model_validate(data)
    except ValidationError as exc:
        other = other_ruleset_error(
            data, source, "collision", "card or battle group", "warbench collision"
        )
        raise other or convert(exc, source) from None


def load(path: str | Path) -> Card | BattleGroup:
    """Load a card or a battle-group file."""
    p = Path(path)
    data = read_data(p)
    if is_group_data(data):
        return parse_group(data, str(p), p.parent)
    return parse_card(data, str(p))


def load_card(path: str | Path) -> Card:
    """Load a card file; a battle group is refused with a clear error."""
    obj = load(path)
    if not isinstance(obj, Card):
        raise ProfileError("(file)", str(path), "a character card file (this is a battle group)")
    return obj


def to_data(obj: Card | BattleGroup) -> dict[str, Any]:
    """Plain data in canonical spelling (field aliases as on the card), without defaults."""
    return obj.model_dump(mode="json", by_alias=True, exclude_defaults=True)


def json_schemas() -> dict[str, dict[str, Any]]:
    """JSON Schemas of card and battle-group files, generated from the pydantic models."""
    return {
        "card.schema.json": Card.model_json_schema(by_alias=True),
        "battle-group.schema.json": BattleGroup.model_json_schema(by_alias=True),
    }


def write_schemas(folder: str | Path = SCHEMA_DIR) -> list[Path]:
    """Write :func:`json_schemas` under ``folder`` (docs/schemas/collision)."""
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    out = []
    for name, schema in json_schemas().items():
        path = target / name
        path.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        out.append(path)
    return out
