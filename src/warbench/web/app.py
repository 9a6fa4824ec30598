"""The FastAPI application of the web workbench (``warbench serve``)."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from warbench.storage.store import Store
from warbench.web import api, errors, pages
from warbench.web.lazy import LazyPart, install_lazy

STATIC = Path(__file__).with_name("static")


def warm_up() -> None:
    """Import and load what the Design page's first cost needs (the points model and the odds).

    Nothing else: this thread shares the interpreter with the first requests, so whatever it
    loads delays them (the perk rows and the example units load when first asked for)."""
    from warbench.rulesets.warsurge.costing import default_coster

    default_coster()


def _include(module: str, prefix: str) -> Callable[[FastAPI], None]:
    def load(app: FastAPI) -> None:
        from importlib import import_module

        app.include_router(import_module(module).router, prefix=prefix)

    return load


def _play(app: FastAPI) -> None:
    from warbench.web import play

    play.install(app)  # issue 14: play in the browser (web/play/)


def lazy_parts() -> list[LazyPart]:
    """The route modules included on first use, by the paths they serve."""
    return [
        LazyPart("rosters", ("/api/rosters",), _include("warbench.web.api_rosters", "/api")),
        LazyPart("rules", ("/api/rules",), _include("warbench.web.api_rules", "/api")),
        LazyPart("warengine", ("/api/warengine",), _include("warbench.web.api_warengine", "/api")),
        LazyPart("play", ("/api/play", "/play"), _play),
    ]


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
    # Speed (issue 13, cold start): the route modules the Design page does not call are
    # included by the first request under their paths (web/lazy.py); the schema has them all.
    install_lazy(app, lazy_parts())
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app
