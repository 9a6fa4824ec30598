"""The play API (``/api/play/...``), its live stream and the play pages (issue 14).

A player's requests carry the game's secret token in the ``X-Play-Token`` header (the live
stream and download links, which a browser opens without headers, in ``?token=``); the page
keeps it in the URL's fragment, which browsers never send to a server. A missing, foreign or
spectator token acting, or a token acting for a seat it does not play, is answered 403.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Header, Query, Request
from fastapi import Path as PathParam
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field

from warbench.play.core import JSON
from warbench.web.play.service import (
    MODES,
    AccessDenied,
    GameNotFound,
    PlayService,
    action_label,
    public_view,
    seat_kinds,
)

router = APIRouter(prefix="/api/play", tags=["play"])
pages = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=Path(__file__).parents[1] / "templates")

_FORBID = ConfigDict(extra="forbid")
#: Seconds a live stream stays open before the browser reconnects (EventSource does so itself).
STREAM_SECONDS = 55.0


_SERVICE_LOCK = threading.Lock()


def get_service(request: Request) -> PlayService:
    """The app's play service (made once, on first use, over the app's store).

    A sync dependency runs in the thread pool, so two first requests could each make one; a
    game's live stream would then wait on one service while its actions notify the other."""
    svc: PlayService | None = getattr(request.app.state, "play", None)
    if svc is None:
        with _SERVICE_LOCK:
            svc = getattr(request.app.state, "play", None)
            if svc is None:
                svc = request.app.state.play = PlayService(request.app.state.store)
    return svc


ServiceDep = Annotated[PlayService, Depends(get_service)]
TokenHeader = Annotated[
    str | None,
    Header(alias="X-Play-Token", max_length=200, description="The game's secret token."),
]
GameId = Annotated[str, PathParam(max_length=40)]


# --------------------------------------------------------------------------------------------
# Rulesets and games
# --------------------------------------------------------------------------------------------


@router.get("/rulesets")
def rulesets(svc: ServiceDep) -> list[dict[str, Any]]:
    """Every registered ruleset with its version, sample set-ups, who may sit in a seat and
    the decisions its set-up's rules options may hand to the engine (``engine_choices``)."""
    from warbench.play.registry import ruleset_ids

    out: list[dict[str, Any]] = []
    for rid in ruleset_ids():
        try:
            rs = svc.ruleset(rid)
            presets = _presets(rid)
        except Exception as exc:  # a ruleset that cannot load is listed with the reason
            out.append({"id": rid, "error": str(exc), "presets": []})
            continue
        out.append(
            {"id": rid, "version": rs.version, "presets": presets, "engine_choices": _engine(rid)}
        )
    return [
        {**r, "seat_kinds": list(seat_kinds(str(r["id"])) if "error" not in r else ["human"]),
         "modes": list(MODES)}
        for r in out
    ]  # fmt: skip


@lru_cache(maxsize=32)
def _engine(ruleset_id: str) -> list[dict[str, JSON]]:
    """The decisions a ruleset's set-up may hand to the engine (the presenter's words)."""
    from warbench.web.play.scenes import presenter

    return presenter(ruleset_id).engine_choices()


@lru_cache(maxsize=32)
def _presets(ruleset_id: str) -> list[dict[str, JSON]]:
    """A ruleset's sample set-ups (read from the shipped examples once per process: the lobby
    asks for them on every visit)."""
    from warbench.web.play.scenes import presenter

    return presenter(ruleset_id).presets()


class NewGameBody(BaseModel):
    """A new game: ruleset, set-up (rosters, board, options), how it is played."""

    model_config = _FORBID

    ruleset: str = Field(max_length=80)
    setup: dict[str, Any]
    mode: Literal["hotseat", "ai", "network"] = "hotseat"
    seats: list[Annotated[str, Field(max_length=40)]] | None = Field(None, max_length=16)
    seed: int | None = Field(None, ge=0, le=2**62)
    automate: list[Annotated[str, Field(max_length=40)]] = Field(
        default_factory=list, max_length=20, description="Decision kinds that take the default."
    )
    title: str = Field("", max_length=120)


@router.post("/games", status_code=201)
def create_game(body: NewGameBody, request: Request, svc: ServiceDep) -> dict[str, Any]:
    """Start a game; answers its id and its secret links (shown once: keep them)."""
    made = svc.create(
        body.ruleset,
        body.setup,
        mode=body.mode,
        seats=body.seats,
        seed=body.seed,
        automate=body.automate,
        title=body.title,
    )
    from warbench.web.play.scenes import presenter

    base = str(request.base_url).rstrip("/")
    return {
        "id": made.id,
        "seats": list(made.seats),
        # each seat's name, so the lobby can say whose link is whose ("Red (seat 1)")
        "names": presenter(body.ruleset).seat_names(body.setup, len(made.seats)),
        "tokens": made.tokens,
        "links": {label: f"{base}/play/g/{made.id}#t={tok}" for label, tok in made.tokens.items()},
    }


@router.get("/games")
def list_games(svc: ServiceDep) -> list[dict[str, Any]]:
    """The newest games (ids, rulesets, modes, results; no tokens)."""
    return [
        {
            "id": g.id,
            "title": g.title,
            "ruleset": g.ruleset,
            "mode": g.mode,
            "seats": list(g.seats),
            "result": g.result,
            "created_at": g.created_at.isoformat() if g.created_at else None,
        }
        for g in svc.games.games()
    ]


@router.get("/games/{game_id}")
def game(
    game_id: GameId,
    svc: ServiceDep,
    token: TokenHeader = None,
    since: Annotated[int, Query(ge=0, le=10**7)] = 0,
) -> Response:
    """What this token may see: the view, its pending decision and legal actions, the
    events since step ``since``, the result and the board."""
    return _json(svc.snapshot(game_id, token, since))


def _json(content: Any) -> Response:
    """Plain JSON data as a response, without FastAPI's ``jsonable_encoder`` walk (the most
    read answer of a game is already JSON: walking it cost 3-28 ms a request, encoding it
    0.1-5 ms); anything ``json`` cannot write goes through the encoder as before."""
    from fastapi.encoders import jsonable_encoder

    try:
        body = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return JSONResponse(jsonable_encoder(content))
    return Response(body, media_type="application/json")


class ActionBody(BaseModel):
    """An action of the ruleset, as its codec writes it (a record step's ``action``)."""

    model_config = _FORBID

    action: Any


@router.post("/games/{game_id}/check")
def check(game_id: GameId, body: ActionBody, svc: ServiceDep, token: TokenHeader = None) -> Any:
    """Would the ruleset accept this action from the token's seat now? The refusal's reason
    and rule when not (nothing changes)."""
    return svc.check(game_id, token, body.action)


@router.post("/games/{game_id}/actions")
def act(
    game_id: GameId,
    body: ActionBody,
    response: Response,
    svc: ServiceDep,
    token: TokenHeader = None,
) -> Any:
    """Make the action for the token's seat (checked by the ruleset, stored as one
    transaction); chance, automated decisions and AI seats then play until a person decides.
    The ``Server-Timing`` header gives the milliseconds the server worked on it."""
    t0 = time.perf_counter()
    out = svc.act(game_id, token, body.action)
    response.headers["Server-Timing"] = f"act;dur={1000 * (time.perf_counter() - t0):.1f}"
    return out


class RestBody(BaseModel):
    """A decision kind whose suggested choice is taken for the rest of its run."""

    model_config = _FORBID

    kind: str = Field(max_length=40)


@router.post("/games/{game_id}/rest")
def rest(game_id: GameId, body: RestBody, svc: ServiceDep, token: TokenHeader = None) -> Any:
    """Take the suggested choice for the token's seat's next decisions of ``kind`` while
    they come one after another (The WarEngine's placement, L303-309: "Place the rest of
    your figures as suggested"); each is a step of its own, checked as any action."""
    return svc.rest(game_id, token, body.kind)


class ReachBody(BaseModel):
    """An action whose point parameter is tried over a box."""

    model_config = _FORBID

    action: dict[str, Any]
    param: str = Field("to", max_length=40)
    box: list[float] = Field(min_length=4, max_length=4)


@router.post("/games/{game_id}/reach")
def reach(game_id: GameId, body: ReachBody, svc: ServiceDep, token: TokenHeader = None) -> Any:
    """Where the action's point may go: the points of a grid over ``box`` the ruleset's
    ``check`` accepts (the reachable area a page shades)."""
    return svc.reach(game_id, token, body.action, body.param, body.box)


@router.post("/games/{game_id}/odds")
def odds(game_id: GameId, body: ActionBody, svc: ServiceDep, token: TokenHeader = None) -> Any:
    """The exact odds of an attack action as the game would resolve it now (cover, half
    range, Melee: the engine's own situation), where the ruleset offers odds
    (``{"targets": [...]}``), else ``null``. Only the seat deciding now may ask."""
    return svc.odds(game_id, token, body.action)


@router.post("/games/{game_id}/undo")
def undo(game_id: GameId, svc: ServiceDep, token: TokenHeader = None) -> Any:
    """Take back the last person's step and the automatic steps after it (hot-seat and
    against the AI: the token must play every human seat)."""
    return svc.undo(game_id, token)


@router.get("/games/{game_id}/history")
def history(game_id: GameId, svc: ServiceDep, token: TokenHeader = None) -> Any:
    """Every step ever played, undone ones marked."""
    return svc.history(game_id, token)


@router.get("/games/{game_id}/record")
def record(
    game_id: GameId,
    svc: ServiceDep,
    token: TokenHeader = None,
    t: Annotated[str | None, Query(max_length=200, description="The token (links)")] = None,
) -> Response:
    """The game's record: the JSON lines ``warbench play --record`` writes and
    ``play.replay`` verifies."""
    rec = svc.record(game_id, token or t)
    return Response(
        rec.dumps(),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{game_id}.jsonl"'},
    )


@router.get("/games/{game_id}/replay")
def replay_game(
    game_id: GameId, svc: ServiceDep, token: TokenHeader = None, t: str | None = None
) -> Any:
    """The stored game step by step (the replay viewer's data)."""
    return replay_steps(svc.record(game_id, token or t).dumps())


class RecordBody(BaseModel):
    """A record's text (JSON lines)."""

    model_config = _FORBID

    record: str = Field(max_length=32 * 1024 * 1024)


@router.post("/replay")
def replay_upload(body: RecordBody) -> Any:
    """Replay an uploaded record (verifying every digest) step by step, with each step's
    events and the public view and board after it."""
    return replay_steps(body.record)


def replay_steps(text: str) -> dict[str, JSON]:
    """A record replayed one step at a time (digests verified): for each step the actor,
    action, the events as a spectator sees them, and the public view and scene after it."""
    from warbench.play.record import GameRecord
    from warbench.play.registry import get_ruleset
    from warbench.web.play.scenes import presenter

    rec = GameRecord.loads(text, "uploaded record")
    h = rec.header
    rs = get_ruleset(h.ruleset)
    from warbench.play.record import replay

    replay(rec, rs)  # verifies the whole record first (digests, result)
    state = rs.setup(h.rosters, h.board, h.options, h.seed)
    setup = {"rosters": h.rosters, "board": h.board, "options": h.options}
    pres = presenter(h.ruleset)
    seats = len(h.rosters)
    names = pres.seat_names(setup, seats)

    def frame(st: Any) -> dict[str, JSON]:
        view = public_view([rs.views.dump(rs.view(st, p)) for p in range(seats)])
        return {"view": view, "scene": pres.scene(setup, view)}

    frames = [{"step": 0, "actor": None, "label": "set-up", "events": [], **frame(state)}]
    for row in rec.steps:
        # the action in the words the game page lists it with (the presenter's labels over
        # the view before it: "Red: Sniper Troopers: attack with Sniper Rifle at Blue: Urban
        # Hunter Car"), else the generic label (session 33: it was "attack: targets [[...]]")
        said = pres.labels(setup, frames[-1]["view"], [row.action])[0]
        state, evs = rs.apply(state, rs.actions.load(row.action), row.actor)
        after = frame(state)
        shown = (pres.event_view(setup, after["view"], e.to_json(), frozenset()) for e in evs)
        frames.append(
            {
                "step": row.step,
                "actor": row.actor,
                "action": row.action,
                "label": said or action_label(row.action),
                "events": [pres.event_words(e, names) for e in shown if e is not None],
                **after,
            }
        )
    result = rs.result(state) if rs.is_over(state) else None
    return {
        "ruleset": h.ruleset,
        "ruleset_version": h.ruleset_version,
        "seed": h.seed,
        "names": names,
        "verified": True,
        "steps": frames,
        "result": None if result is None else pres.result_words(result.to_json(), names),
    }


# --------------------------------------------------------------------------------------------
# Live updates (server-sent events)
# --------------------------------------------------------------------------------------------


@router.get("/games/{game_id}/stream")
async def stream(
    game_id: GameId,
    request: Request,
    svc: ServiceDep,
    token: Annotated[str | None, Query(max_length=200)] = None,
    limit: Annotated[int, Query(ge=1, le=10**6)] = 10**6,
) -> StreamingResponse:
    """Server-sent events: ``change`` with the game's revision whenever it changes (first
    at once), and ``stopping`` as the stream ends because the server is stopping (Ctrl+C).
    The browser's ``EventSource`` reconnects by itself after a drop, a refresh or a
    restart."""
    await run_in_threadpool(svc.load, game_id)
    await run_in_threadpool(svc.require, game_id, token)

    async def events() -> AsyncIterator[str]:
        # Woken by this process's changes at once; the database is read every 2 s as well,
        # for changes made by another server process on the same database.
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()
        svc.watch(game_id, loop, changed)
        sent, last = 0, -1
        opened = time.monotonic()
        try:
            yield "retry: 1000\n\n"
            # ends when the server stops (Ctrl+C waited for every open stream, up to 55 s)
            while sent < limit and time.monotonic() - opened < STREAM_SECONDS and not svc.stopping:
                rev = await run_in_threadpool(svc.games.revision, game_id)
                if rev != last:
                    last = rev
                    sent += 1
                    yield f"event: change\ndata: {json.dumps({'revision': rev})}\n\n"
                    continue
                try:
                    await asyncio.wait_for(changed.wait(), 2.0)
                except TimeoutError:
                    if await request.is_disconnected():
                        return
                changed.clear()
            if svc.stopping:
                # the page says so and its EventSource reconnects once a server is back
                yield "event: stopping\ndata: {}\n\n"
        finally:
            svc.unwatch(game_id, loop, changed)

    return StreamingResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


# --------------------------------------------------------------------------------------------
# Pages
# --------------------------------------------------------------------------------------------


def _page(request: Request, page: str, **context: Any) -> HTMLResponse:
    from warbench.web.pages import PAGES

    return templates.TemplateResponse(
        request,
        f"{page}.html",
        {"page": page, "pages": PAGES, **context},
    )


@pages.get("/play", response_class=HTMLResponse)
def play_page(request: Request) -> HTMLResponse:
    return _page(request, "play")


@pages.get("/play/g/{game_id}", response_class=HTMLResponse)
def game_page(request: Request, game_id: str) -> HTMLResponse:
    return _page(request, "play_game", game_id=game_id[:40])


@pages.get("/play/replay", response_class=HTMLResponse)
def replay_page(request: Request) -> HTMLResponse:
    return _page(request, "play_replay")


@pages.get("/play/manager", response_class=HTMLResponse)
def manager_page(request: Request) -> HTMLResponse:
    return _page(request, "play_manager")


def install(app: FastAPI) -> None:
    """Add the play API, stream, pages and the 403/404 handlers to ``app``."""

    async def denied(_request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse(
            status_code=403,
            content={"detail": str(exc), "field": "X-Play-Token", "error": "AccessDenied"},
        )

    async def missing(_request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse(
            status_code=404,
            content={"detail": f"no game with id {exc}", "field": "game_id", "error": "NotFound"},
        )

    app.add_exception_handler(AccessDenied, denied)
    app.add_exception_handler(GameNotFound, missing)
    app.include_router(router)
    app.include_router(pages)


# --------------------------------------------------------------------------------------------
# The Play Manager (a physical table)
# --------------------------------------------------------------------------------------------


def get_manager(svc: ServiceDep) -> Any:
    """The Play Manager over the play service."""
    from warbench.web.play.manager import PlayManager

    return PlayManager(svc)


class RosterRef(BaseModel):
    """A game roster: an example shipped with warbench, a roster saved in the database, or
    the game-roster JSON itself."""

    model_config = _FORBID

    source: Literal["example", "saved", "inline"]
    name: str | None = Field(None, max_length=120)
    data: dict[str, Any] | None = None
    team: str | None = Field(
        None,
        max_length=40,
        description="The team this roster plays in (Core Rules §3.3: a team counts as one "
        "player); empty: the roster's own team, else none.",
    )


class NewTableBody(BaseModel):
    """A new Play Manager table."""

    model_config = _FORBID

    rosters: list[RosterRef] = Field(min_length=2, max_length=8)
    hide_value: bool = False
    title: str = Field("", max_length=120)


def _example_rosters() -> dict[str, Path]:
    from warbench.web.play.scenes import _examples

    root = _examples()
    return {p.stem: p for p in sorted(root.glob("*.yaml"))} if root.exists() else {}


@router.get("/tables/rosters")
def table_rosters(request: Request) -> dict[str, list[str]]:
    """The rosters a table can start from: the shipped examples and the saved rosters."""
    store = request.app.state.store
    return {
        "example": list(_example_rosters()),
        "saved": [r.name for r in store.rosters()],
    }


def _roster_data(ref: RosterRef, request: Request, where: str) -> dict[str, Any]:
    from warbench.kernel.errors import ProfileError, UnknownNameError
    from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data

    if ref.source == "inline":
        if ref.data is None:
            raise ProfileError(f"{where}.data", None, "a game roster (player, units)")
        return dict(ref.data)
    if ref.source == "example":
        examples = _example_rosters()
        if ref.name not in examples:
            raise UnknownNameError("example roster", str(ref.name), list(examples))
        return roster_to_data(load_game_roster(examples[ref.name]))
    from warbench.rulesets.warsurge.io import unit_to_data
    from warbench.rulesets.warsurge.roster import validate_roster

    roster = request.app.state.store.roster(str(ref.name))
    report = validate_roster(roster)
    units = []
    for e, cost in zip(roster.units, report.entries, strict=True):
        d = dict(unit_to_data(e.unit))
        d.pop("$schema", None)
        d["points"] = round(cost.points)
        if e.name:
            d["name"] = e.name
        units.append(d)
    return {"player": roster.name, "units": units}


@router.post("/tables", status_code=201)
def create_table(body: NewTableBody, request: Request, svc: ServiceDep) -> dict[str, Any]:
    """Start a Play Manager table from two or more rosters; answers its secret link."""
    rosters = [_roster_data(r, request, f"rosters[{i}]") for i, r in enumerate(body.rosters)]
    for ref, data in zip(body.rosters, rosters, strict=True):
        if ref.team and ref.team.strip():
            data["team"] = ref.team.strip()
    table_id, token = get_manager(svc).create(rosters, body.hide_value, body.title)
    base = str(request.base_url).rstrip("/")
    return {"id": table_id, "token": token, "link": f"{base}/play/manager#id={table_id}&t={token}"}


@router.get("/tables/{table_id}")
def table(table_id: GameId, svc: ServiceDep, token: TokenHeader = None) -> Any:
    """The table, the standings (§2.2 step 8) and the history."""
    return get_manager(svc).state(table_id, token)


class OpBody(BaseModel):
    """One change to the table (``op`` and its fields; see docs/web-play.md)."""

    model_config = _FORBID

    op: dict[str, Any]


@router.post("/tables/{table_id}/ops")
def table_op(table_id: GameId, body: OpBody, svc: ServiceDep, token: TokenHeader = None) -> Any:
    """Apply one change (one transaction); answers the new table."""
    return get_manager(svc).apply(table_id, token, body.op)


@router.post("/tables/{table_id}/undo")
def table_undo(table_id: GameId, svc: ServiceDep, token: TokenHeader = None) -> Any:
    """Take back the last change."""
    return get_manager(svc).undo(table_id, token)
