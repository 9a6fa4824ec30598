"""The FastAPI application of the web workbench (``warbench serve``)."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import State

from warbench.web import api, errors, pages
from warbench.web.lazy import LazyPart, install_lazy

if TYPE_CHECKING:
    from warbench.storage.store import Store

STATIC = Path(__file__).with_name("static")


def warm_up() -> None:
    """Import and load what the Design page's first cost needs (the points model and the odds).

    Nothing else: this thread shares the interpreter with the first requests, so whatever it
    loads delays them (the perk rows and the example units load when first asked for)."""
    from warbench.rulesets.warsurge.costing import default_coster

    default_coster()


_WARM_LOCK = threading.Lock()
#: the warm-up's thread and the event that starts it (once a process)
_WARMING: list[tuple[threading.Thread, threading.Event]] = []


def warm_rules(first_cost: threading.Event | None = None) -> threading.Thread:
    """Load the rules' compiled kernels (``route_jit.warm``: numba, sight's and the Move's routes'
    kernels) in a background thread, once a process, so that a player's first Move or Attack
    does not wait for them (issue 10, session 38: ~0.5 s of CPU, seconds after an install).
    ``warbench serve`` starts it waiting for the Design page's first cost (``first_cost``), so
    it never delays a cold start's first page (issue 13); opening the play pages (no
    ``first_cost``) starts it at once, or the waiting one. Returns the thread."""
    with _WARM_LOCK:
        if _WARMING:
            thread, go = _WARMING[0]
            if first_cost is None:
                go.set()
            return thread
        go = threading.Event()
        if first_cost is None:
            go.set()

        def run() -> None:
            while not go.wait(0.2):
                if first_cost is not None and first_cost.is_set():
                    break
            from warbench.rulesets.warsurge.game import route_jit

            route_jit.warm()

        thread = threading.Thread(target=run, name="warbench-warm-rules", daemon=True)
        _WARMING.append((thread, go))
        thread.start()
        return thread


class LazyStore(State):
    """The app's state, whose ``store`` is opened (and migrated) on first use.

    Speed (issue 13, cold start): SQLAlchemy, the storage layer and opening the database are a
    quarter of a cold start's CPU, and the Design page's first cost needs none of it. The first
    request that needs the database opens it (one thread at a time); ``warbench serve`` opens it
    in the background once the first cost is answered (:meth:`open_after`), so a database that
    cannot be opened still stops the server with one line.
    """

    def __init__(self, db_url: str | None) -> None:
        super().__init__()
        object.__setattr__(self, "_db_url", db_url)
        object.__setattr__(self, "_lock", threading.Lock())
        object.__setattr__(self, "_opened", None)
        object.__setattr__(self, "first_cost", threading.Event())

    @property
    def store(self) -> Store:
        """The database, opened on first use."""
        opened: Store | None = object.__getattribute__(self, "_opened")
        if opened is not None:
            return opened
        with object.__getattribute__(self, "_lock"):
            opened = object.__getattribute__(self, "_opened")
            if opened is None:
                from warbench.storage.store import Store

                opened = Store.open(object.__getattribute__(self, "_db_url"))
                object.__setattr__(self, "_opened", opened)
            return opened

    @property
    def opened(self) -> Store | None:
        """The database if it is open, else ``None`` (nothing is opened)."""
        opened: Store | None = object.__getattribute__(self, "_opened")
        return opened

    def open_after(self, seconds: float, on_error: Callable[[Exception], None]) -> None:
        """Open the database once the first cost is answered, or after ``seconds``, in a
        background thread; a failure is handed to ``on_error``."""

        def run() -> None:
            self.first_cost.wait(seconds)
            try:
                _ = self.store
            except Exception as exc:  # handed on: the server stops with it
                on_error(exc)

        threading.Thread(target=run, name="warbench-open-database", daemon=True).start()


def _include(module: str, prefix: str) -> Callable[[FastAPI], None]:
    def load(app: FastAPI) -> None:
        from importlib import import_module

        app.include_router(import_module(module).router, prefix=prefix)

    return load


def _play(app: FastAPI) -> None:
    from warbench.web import play

    play.install(app)  # issue 14: play in the browser (web/play/)
    warm_rules()  # the rules' compiled kernels, before the first Move (issue 10, session 38)
    # The database is opened here, on the event loop, before any play route runs: the play
    # service is made by the first request that finds none (web/play/routes.py: get_service),
    # and several first requests waiting on the database's opening would each make one (a game
    # made by one service, its live stream listening to another).
    _ = app.state.store


def lazy_parts() -> list[LazyPart]:
    """The route modules included on first use, by the paths they serve."""
    return [
        LazyPart("rosters", ("/api/rosters",), _include("warbench.web.api_rosters", "/api")),
        LazyPart("rules", ("/api/rules",), _include("warbench.web.api_rules", "/api")),
        LazyPart("warengine", ("/api/warengine",), _include("warbench.web.api_warengine", "/api")),
        LazyPart("collision", ("/api/collision",), _include("warbench.web.api_collision", "/api")),
        LazyPart("play", ("/api/play", "/play"), _play),
    ]


def create_app(db_url: str | None = None, *, open_database: bool = True) -> FastAPI:
    """The app over the database at ``db_url`` (else ``$WARBENCH_DB``, else the CLI's default).

    The database is opened (and migrated) here, so a bad URL fails at once; with
    ``open_database=False`` it is opened by the first request that needs it (or by
    :meth:`LazyStore.open_after`), which is what ``warbench serve`` does for a quick start.
    """
    state = LazyStore(db_url)
    if open_database:
        _ = state.store

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Speed (issue 13, "interactive from a cold start"): the rules modules and the points
        # model's data load in the background while the browser fetches the first page,
        # instead of inside the first API call.
        threading.Thread(target=warm_up, name="warbench-warm-up", daemon=True).start()
        yield
        if state.opened is not None:
            state.opened.close()

    app = FastAPI(
        title="warbench",
        summary="The warbench workbench: profiles, points, odds, dice, rules and rosters.",
        version="1",
        lifespan=lifespan,
    )
    app.state = state
    errors.install(app)
    app.include_router(api.router)
    app.include_router(pages.router)
    # Speed (issue 13, cold start): the route modules the Design page does not call are
    # included by the first request under their paths (web/lazy.py); the schema has them all.
    install_lazy(app, lazy_parts())
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app
