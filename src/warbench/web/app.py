"""The FastAPI application of the web workbench (``warbench serve``)."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from warbench.storage.store import Store
from warbench.web import api, errors, pages, play

STATIC = Path(__file__).with_name("static")


def warm_up() -> None:
    """Import and load what the first API calls need (points model, odds, perk catalog)."""
    from warbench.rulesets.warsurge.costing import default_coster

    default_coster()
    api.example_units()
    api.perk_rows()


def create_app(db_url: str | None = None) -> FastAPI:
    """The app over the database at ``db_url`` (else ``$WARBENCH_DB``, else the CLI's default).

    The database is opened (and migrated) here, so a bad URL fails before the server starts.
    """
    store = Store.open(db_url)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Speed (issue 13, "interactive from a cold start"): the rules modules, the points
        # model's data and the perk rows load in the background while the browser fetches the
        # first page, instead of inside the first API call.
        threading.Thread(target=warm_up, name="warbench-warm-up", daemon=True).start()
        yield
        store.close()

    app = FastAPI(
        title="warbench",
        summary="The warbench workbench: profiles, points, odds, dice, rules and rosters.",
        version="1",
        lifespan=lifespan,
    )
    app.state.store = store
    errors.install(app)
    app.include_router(api.router)
    app.include_router(pages.router)
    play.install(app)  # issue 14: play in the browser (web/play/)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app
