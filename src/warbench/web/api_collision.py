"""The Collision routes of the JSON API (``/api/collision/...``, issue 10, session 35).

The card designer and battle-group builder of the Collision page call the ruleset's own code,
as ``warbench collision validate|card|abilities`` do: a card is read by
:func:`~warbench.rulesets.collision.io.parse_card` (its limits listed all at once by
:func:`~warbench.rulesets.collision.io.card_problems`), a battle group by ``parse_group`` and
checked by :func:`~warbench.rulesets.collision.validation.group_report` (points, different
cards, attributes, Major Arcana; L580-617), the printable card is
:func:`~warbench.rulesets.collision.card.render_cards`' HTML and the abilities offered are the
glossary's (L1583-2289) with their listed cost and text. The browser decides no rule.

Cards and battle groups are stored like WarEngine forces
(:mod:`warbench.storage.collision_documents`): by name, with a save counter; a save or delete
sent with ``?version=N`` is refused (409) when it was saved elsewhere since.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from warbench.web.deps import StoreDep

if TYPE_CHECKING:
    from warbench.rulesets.collision.models import BattleGroup, Card
    from warbench.storage.collision_documents import CardStore, GroupStore
    from warbench.storage.store import Store

router = APIRouter(prefix="/collision", tags=["collision"])

CARD_DOC = (
    "A Collision character card in the card file format (name, points, race, tarot, "
    "restrictions, attributes, stats, weapons, effects, abilities; docs/collision.md)."
)
GROUP_DOC = (
    "A Collision battle group in the battle-group file format (name, points_limit, characters "
    "with each card inline and its count); no file paths."
)
#: a pasted card or group file is at most this long (a battle group of 40 cards is ~20 kB)
MAX_TEXT = 200_000


def _yaml(data: Any) -> str:
    import yaml

    return str(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


def _stat_fields(model: type[BaseModel]) -> list[dict[str, Any]]:
    from annotated_types import Ge, Le

    out = []
    for name, info in model.model_fields.items():
        if info.annotation is not int:
            continue
        out.append(
            {
                "name": info.alias or name,
                "min": next((m.ge for m in info.metadata if isinstance(m, Ge)), None),
                "max": next((m.le for m in info.metadata if isinstance(m, Le)), None),
                "default": info.default if isinstance(info.default, int) else None,
                "hint": info.description or "",
            }
        )
    return out


def _tarot_numbers() -> list[dict[str, Any]]:
    from annotated_types import Ge, Le

    from warbench.rulesets.collision.card import number_name
    from warbench.rulesets.collision.models import Tarot

    meta = Tarot.model_fields["number"].metadata
    lo: Any = next(m.ge for m in meta if isinstance(m, Ge))
    hi: Any = next(m.le for m in meta if isinstance(m, Le))
    return [
        {"value": n, "label": str(n) if number_name(n) == str(n) else f"{n} ({number_name(n)})"}
        for n in range(int(lo), int(hi) + 1)
    ]


@cache
def _tables() -> dict[str, Any]:
    from warbench.rulesets.collision.glossary import Glossary
    from warbench.rulesets.collision.models import (
        MAX_ATTRIBUTES,
        MAX_WEAPONS,
        Arcana,
        Stats,
        Suit,
        Weapon,
        WeaponType,
    )

    return {
        "stats": _stat_fields(Stats),
        "weapon_stats": _stat_fields(Weapon),
        "weapon_types": [t.value for t in WeaponType],
        "suits": [s.value for s in Suit],
        "arcana": [a.value for a in Arcana],
        "tarot_numbers": _tarot_numbers(),
        # the reach a weapon has when its card gives none (the model's; the page shows it
        # and sends nothing for an empty field, session 36)
        "weapon_reach_default": str(Weapon.model_fields["reach"].default),
        "max_weapons": MAX_WEAPONS,
        "max_attributes": MAX_ATTRIBUTES,
        "glossary": [
            {
                "name": e.name,
                "kind": e.kind.value,
                "cost": "" if e.cost is None else str(e.cost),
                "text": e.text,
                "source": e.source,
            }
            for e in Glossary.load().entries
        ],
    }


@router.get("/tables")
def tables() -> dict[str, Any]:
    """What the card designer offers: the core stats and weapon values with their ranges and
    book lines (L236-373), the weapon types (L356-359), the tarot suits, numbers and arcana
    (L342-350),
    the card's limits, and every glossary entry (L1583-2289) with its kind, listed cost, text
    and lines (abilities are the actions and reactions; effects, weapon specials and Crit
    effects the effects, statuses and terms)."""
    return _tables()


@cache
def example_data() -> dict[str, Any]:
    """The example cards (Rhona, Virgil, the Skeleton Archer) and battle group (Deadholm
    scouts) of ``examples/collision/``, cards inline (shipped with the web package)."""
    import yaml

    text = resources.files("warbench.web").joinpath("data", "collision_examples.yaml")
    data: dict[str, Any] = yaml.safe_load(text.read_text("utf-8"))
    return data


@router.get("/examples")
def examples() -> dict[str, Any]:
    """Example cards and a battle group to start from (``cards``, ``groups``)."""
    return example_data()


# ------------------------------------------------------------------------ checking


class Problem(BaseModel):
    """A limit broken: the field, the sentence the CLI prints and the rule's lines."""

    field: str
    message: str
    rule: str


class CardCheck(BaseModel):
    """A card as read: whether it is one, every limit it breaks, the printable card and the
    card file (YAML) to copy."""

    valid: bool
    card: dict[str, Any] | None = Field(
        description="The card in canonical spelling; null if it is not a card yet."
    )
    violations: list[Problem]
    html: str | None = Field(description="The printable card (`warbench collision card`).")
    yaml: str = Field(description="The card file as YAML (the canonical card when valid).")


@router.post("/cards/check")
def check_card(body: Annotated[dict[str, Any], Field(description=CARD_DOC)]) -> CardCheck:
    """Read a card and list every limit it breaks at once (each field's range, at most two
    weapons and three attributes, a tarot card's suit and number, abilities and effects of the
    glossary, Sharp without Slay ...), each with its rule lines; a card with none comes back in
    canonical spelling with its printable card (``warbench collision validate|card``)."""
    from warbench.rulesets.collision.card import render_cards
    from warbench.rulesets.collision.io import card_problems, parse_card, to_data

    problems = card_problems(body)
    if problems:
        return CardCheck(
            valid=False,
            card=None,
            violations=[Problem(**vars(p)) for p in problems],
            html=None,
            yaml=_yaml(body),
        )
    card = parse_card(body, "card")
    data = to_data(card)
    return CardCheck(
        valid=True, card=data, violations=[], html=render_cards([card]), yaml=_yaml(data)
    )


class MemberProblem(Problem):
    """A limit one of a battle group's cards breaks: the member (its index in
    ``characters``) and the card's name, the field from the group
    (``characters[1].card.abilities``), the reader's sentence and the rule's lines."""

    member: int
    card: str


class GroupCheck(BaseModel):
    """A battle group as read: its report (points, cards, board, deployment phases, every
    violation), its cards' points, the printable cards and the group file (YAML). When one
    of its cards does not read (``valid`` false) there is no report yet: ``card_problems``
    lists every limit its cards break, card by card."""

    valid: bool = True
    group: dict[str, Any]
    report: dict[str, Any] | None
    html: str | None
    yaml: str
    card_problems: list[MemberProblem] = Field(
        default_factory=list,
        description="Every limit the group's cards break (a card of a group must read before "
        "the group is reported; a stored card no longer reads when a glossary entry it names "
        "was renamed since).",
    )


def _refuse_paths(data: dict[str, Any]) -> None:
    """A card given as a file path would read the server's files: refused (422)."""
    from warbench.kernel.errors import DataFileError

    members = data.get("characters")
    if isinstance(members, list) and any(
        isinstance(m, dict) and isinstance(m.get("card"), str) for m in members
    ):
        raise DataFileError("battle group", "cards must be inline here (no file paths)")


def _read_inline_group(data: dict[str, Any]) -> BattleGroup:
    """A battle group whose cards are all inline (a path would read the server's files)."""
    from warbench.rulesets.collision.io import parse_group

    _refuse_paths(data)
    return parse_group(data, "battle group")


def _check_group(group: BattleGroup) -> GroupCheck:
    from warbench.rulesets.collision.card import render_cards
    from warbench.rulesets.collision.io import to_data
    from warbench.rulesets.collision.validation import group_report

    data = to_data(group)
    return GroupCheck(
        group=data,
        report=group_report(group),
        html=render_cards([c for c, _ in group.cards()], title=group.name),
        yaml=_yaml(data),
    )


def _check_group_data(data: dict[str, Any]) -> GroupCheck:
    """The group's report; or, when any of its cards does not read, every limit its cards
    break (``valid`` false) instead of the reader's first one as a 422 (session 37)."""
    from warbench.rulesets.collision.io import member_card_problems

    _refuse_paths(data)
    problems = member_card_problems(data)
    if problems:
        return GroupCheck(
            valid=False,
            group=data,
            report=None,
            html=None,
            yaml=_yaml(data),
            card_problems=[
                MemberProblem(member=p.member, card=p.card, **vars(p.problem)) for p in problems
            ],
        )
    return _check_group(_read_inline_group(data))


@router.post("/groups/check")
def check_group(body: Annotated[dict[str, Any], Field(description=GROUP_DOC)]) -> GroupCheck:
    """Read a battle group (cards inline) and report its points against the limit, its
    different cards against 1 per 250 points + 4, its attributes, its Major Arcana, the board
    and the deployment phases, with every violation and its rule lines (``warbench collision
    validate``, L580-617). A group whose cards do not all read comes back ``valid: false``
    with every limit its cards break (``card_problems``, card by card); a group that is not one
    (no cards, a count of 0, a file path) is refused (422) naming its field."""
    return _check_group_data(body)


class Text(BaseModel):
    """A card or battle-group file as text (YAML or JSON)."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(max_length=MAX_TEXT, description="A card or battle-group file.")


class ReadText(BaseModel):
    """What a pasted file is (``card`` or ``group``) and its data, to open in the page."""

    kind: str
    data: dict[str, Any]


@router.post("/read")
def read_text(body: Text) -> ReadText:
    """Read a pasted card or battle-group file (YAML or JSON; JSON is YAML) into data for the
    designer; a file that is neither is refused (422)."""
    import yaml

    from warbench.kernel.errors import DataFileError
    from warbench.rulesets.collision.io import is_group_data

    try:
        data = yaml.safe_load(body.text)
    except yaml.YAMLError as exc:
        reason = str(exc).replace("\n", " ")
        raise DataFileError("text", f"malformed YAML or JSON: {reason}") from None
    if not isinstance(data, dict):
        raise DataFileError("text", "a card or battle-group file holds a mapping (name, ...)")
    return ReadText(kind="group" if is_group_data(data) else "card", data=data)


# ------------------------------------------------------------------------ stored documents


class Summary(BaseModel):
    """One stored card or battle group in a list."""

    name: str
    points: int
    points_limit: int | None
    cards: int
    version: int


class StoredCard(CardCheck):
    """A stored card, checked, with its name and save counter (send the ``version`` back with
    the next save to be told when it changed elsewhere)."""

    name: str
    version: int
    draft: dict[str, Any] | None = Field(
        None,
        description="The stored data as it is, when it no longer reads as a card (a glossary "
        "entry renamed since it was saved): open it, fix what ``violations`` lists, save it.",
    )


class StoredGroup(GroupCheck):
    """A stored battle group, checked, with its name and save counter."""

    name: str
    version: int
    draft: dict[str, Any] | None = Field(
        None,
        description="The stored data as it is, when one of its cards no longer reads (a "
        "glossary entry renamed since it was saved): open it, fix the cards "
        "``card_problems`` lists, save it.",
    )


class SaveCard(BaseModel):
    """A card to store; ``replace`` overwrites a card of that name."""

    model_config = ConfigDict(extra="forbid")

    card: dict[str, Any] = Field(description=CARD_DOC)
    replace: bool = False


class ChangeCard(BaseModel):
    """A stored card's new content; its ``name`` may differ (a rename)."""

    model_config = ConfigDict(extra="forbid")

    card: dict[str, Any] = Field(description=CARD_DOC)


class SaveGroup(BaseModel):
    """A battle group to store (cards inline); ``replace`` overwrites a group of that name."""

    model_config = ConfigDict(extra="forbid")

    group: dict[str, Any] = Field(description=GROUP_DOC)
    replace: bool = False


class ChangeGroup(BaseModel):
    """A stored battle group's new content (cards inline); its ``name`` may differ."""

    model_config = ConfigDict(extra="forbid")

    group: dict[str, Any] = Field(description=GROUP_DOC)


Version = Annotated[
    int | None,
    Query(ge=1, description="The version the edit was made on (refused if it changed)."),
]


def _cards(store: Store) -> CardStore:
    from warbench.storage.collision_documents import CardStore

    return CardStore(store)


def _groups(store: Store) -> GroupStore:
    from warbench.storage.collision_documents import GroupStore

    return GroupStore(store)


def _read_card(data: dict[str, Any]) -> Card:
    from warbench.rulesets.collision.io import parse_card

    return parse_card(data, "card")


def _stored_card(card: Card, version: int) -> StoredCard:
    return StoredCard(name=card.name, version=version, **check_card(_data(card)).model_dump())


def _data(obj: Card | BattleGroup) -> dict[str, Any]:
    from warbench.rulesets.collision.io import to_data

    return to_data(obj)


def _stored_group(group: BattleGroup, version: int) -> StoredGroup:
    return StoredGroup(name=group.name, version=version, **_check_group(group).model_dump())


@router.get("/cards")
def list_cards(store: StoreDep) -> list[Summary]:
    """The Collision cards stored in the database, by name."""
    return [Summary(**vars(s)) for s in _cards(store).summaries()]


@router.post("/cards", status_code=201)
def save_card(body: SaveCard, store: StoreDep) -> StoredCard:
    """Store a card under its name (a card that is not one is refused, 422, naming its first
    broken field). A card of that name (any case) is refused (409) unless ``replace``."""
    card = _read_card(body.card)
    return _stored_card(card, _cards(store).save(card, replace=body.replace))


@router.get("/cards/{name}")
def get_card(name: str, store: StoreDep) -> StoredCard:
    """A stored card (404 when unknown), checked, with its printable card and version. One
    that no longer reads as a card (a glossary entry renamed since it was saved) comes back
    as its stored data (``draft``) with every problem listed, to be fixed and saved (it was a
    422: the card could not be opened; session 36)."""
    loaded = _cards(store).document(name)
    stored_name, data = loaded.value
    checked = check_card(data)
    if checked.valid:
        return StoredCard(name=stored_name, version=loaded.version, **checked.model_dump())
    return StoredCard(name=stored_name, version=loaded.version, draft=data, **checked.model_dump())


@router.put("/cards/{name}")
def change_card(
    name: str, body: ChangeCard, store: StoreDep, version: Version = None
) -> StoredCard:
    """Replace the stored card ``name`` with the body's (a new ``name`` renames it); with
    ``?version=N``, refused (409) if it was saved elsewhere since version N."""
    card = _read_card(body.card)
    return _stored_card(card, _cards(store).save(card, name=name, expected_version=version))


@router.delete("/cards/{name}", status_code=204)
def delete_card(name: str, store: StoreDep, version: Version = None) -> Response:
    """Delete a stored card; with ``?version=N``, only if it is still at version N."""
    _cards(store).delete(name, expected_version=version)
    return Response(status_code=204)


@router.get("/groups")
def list_groups(store: StoreDep) -> list[Summary]:
    """The Collision battle groups stored in the database, by name."""
    return [Summary(**vars(s)) for s in _groups(store).summaries()]


@router.post("/groups", status_code=201)
def save_group(body: SaveGroup, store: StoreDep) -> StoredGroup:
    """Store a battle group (cards inline) under its name; a group over its limits is stored
    with its violations. A group of that name (any case) is refused (409) unless
    ``replace``."""
    group = _read_inline_group(body.group)
    return _stored_group(group, _groups(store).save(group, replace=body.replace))


@router.get("/groups/{name}")
def get_group(name: str, store: StoreDep) -> StoredGroup:
    """A stored battle group (404 when unknown), with its report and version. One holding a
    card that no longer reads (a glossary entry renamed since it was saved) comes back as its
    stored data (``draft``) with every limit its cards break (``card_problems``), to be fixed
    and saved (it was a 404, the unknown ability taken for an unknown group, or a 422: the group
    could not be opened; session 37)."""
    loaded = _groups(store).document(name)
    stored_name, data = loaded.value
    checked = _check_group_data(data)
    draft = None if checked.valid else data
    return StoredGroup(
        name=stored_name, version=loaded.version, draft=draft, **checked.model_dump()
    )


@router.put("/groups/{name}")
def change_group(
    name: str, body: ChangeGroup, store: StoreDep, version: Version = None
) -> StoredGroup:
    """Replace the stored group ``name`` with the body's (a new ``name`` renames it); with
    ``?version=N``, refused (409) if it was saved elsewhere since version N."""
    group = _read_inline_group(body.group)
    return _stored_group(group, _groups(store).save(group, name=name, expected_version=version))


@router.delete("/groups/{name}", status_code=204)
def delete_group(name: str, store: StoreDep, version: Version = None) -> Response:
    """Delete a stored battle group; with ``?version=N``, only if it is still at version N."""
    _groups(store).delete(name, expected_version=version)
    return Response(status_code=204)
