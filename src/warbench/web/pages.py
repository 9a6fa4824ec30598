"""Server-rendered pages (Jinja2); the compiled TypeScript in ``static/js`` calls the API."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=Path(__file__).with_name("templates"))

PAGES = (
    ("design", "Design"),
    ("odds", "Odds"),
    ("dice", "Dice"),
    ("rules", "Rules"),
    ("rosters", "Rosters"),
    ("factions", "Factions"),
    ("warengine", "WarEngine"),
    ("collision", "Collision"),
    ("play", "Play"),  # the play pages (web/play/routes.py): one tab for the workbench's nav
)


@cache
def stat_fields(model_name: str) -> tuple[dict[str, Any], ...]:
    """The numeric stats of a profile model with their ranges and descriptions, read from the
    rules' own pydantic models (so the form's hints cannot drift from the validation)."""
    from annotated_types import Ge, Le
    from pydantic import BaseModel

    from warbench.rulesets.warsurge.profiles import UnitProfile, WeaponProfile

    model: type[BaseModel] = UnitProfile if model_name == "unit" else WeaponProfile
    out = []
    for name, info in model.model_fields.items():
        if info.annotation is not int:
            continue
        lo = next((m.ge for m in info.metadata if isinstance(m, Ge)), None)
        hi = next((m.le for m in info.metadata if isinstance(m, Le)), None)
        out.append(
            {
                "name": name,
                "min": lo,
                "max": hi,
                "default": info.default if isinstance(info.default, int) else None,
                "hint": info.description or "",
            }
        )
    return tuple(out)


@cache
def profile_guidelines() -> dict[str, Any]:
    """The §3.5 Profile Guidelines (recommended values of each stat, with their book lines),
    shown beside the designer's inputs as hints; the §1.5-1.6 ranges stay the only limits."""
    import json
    from importlib import resources

    text = resources.files("warbench.web").joinpath("data", "profile_guidelines.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data


def _page(request: Request, page: str, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(
        request, f"{page}.html", {"page": page, "pages": PAGES, **context}
    )


@router.get("/")
def home() -> RedirectResponse:
    return RedirectResponse("/design")


@router.get("/design", response_class=HTMLResponse)
def design(request: Request) -> HTMLResponse:
    from warbench.rulesets.warsurge.profiles import SAVE_ALLOWED, WeaponType

    return _page(
        request,
        "design",
        unit_stats=stat_fields("unit"),
        weapon_stats=stat_fields("weapon"),
        saves=["-", "2+", "3+", "4+", "5+", "6+"],
        save_allowed=SAVE_ALLOWED,
        weapon_types=[t.value for t in WeaponType],
        guidelines=profile_guidelines(),
    )


@router.get("/odds", response_class=HTMLResponse)
def odds(request: Request) -> HTMLResponse:
    return _page(request, "odds")


@router.get("/dice", response_class=HTMLResponse)
def dice(request: Request) -> HTMLResponse:
    return _page(request, "dice")


@router.get("/rules", response_class=HTMLResponse)
def rules(request: Request) -> HTMLResponse:
    return _page(request, "rules")


@router.get("/rosters", response_class=HTMLResponse)
def rosters(request: Request) -> HTMLResponse:
    return _page(request, "rosters")


@router.get("/factions", response_class=HTMLResponse)
def factions(request: Request) -> HTMLResponse:
    return _page(request, "factions")


@router.get("/warengine", response_class=HTMLResponse)
def warengine(request: Request) -> HTMLResponse:
    return _page(request, "warengine")


@router.get("/collision", response_class=HTMLResponse)
def collision(request: Request) -> HTMLResponse:
    return _page(request, "collision")
