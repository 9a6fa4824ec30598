"""The FastAPI application of the web workbench (``warbench serve``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from warbench.storage.store import Store
from warbench.web import api, errors, pages

STATIC = Path(__file__).with_name("static")


def create_app(db_url: str | None = None) -> FastAPI:
    """The app over the database at ``db_url`` (else ``$WARBENCH_DB``, else the CLI's default).

    The database is opened (and migrated) here, so a bad URL fails before the server starts.
    """
    store = Store.open(db_url)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
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
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app
