"""Route modules included on first use (issue 13: a page interactive within 1.5 s of a cold
start).

Building a FastAPI route costs CPU (its pydantic request and response models, its dependency
tree), and so does importing what a route module imports. The Design page needs a handful of
routes; the rosters (share codes, QR, PDF sheets), rules sections, WarEngine and play routes
are many more. :func:`install_lazy` puts one placeholder route per part in the app's router:
the first request under one of the part's path prefixes imports the part, includes its real
routes and is dispatched to them, as if they had been there from the start. The OpenAPI
document (``app.openapi()``, which ``/openapi.json`` and ``/docs`` call) includes every part
first, so the schema is always whole.

The import runs on the event loop's thread, once per part (under a lock, for servers with
several loops); a part's exception handlers are added to the app and to the handlers the
current request is answered with.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.routing import BaseRoute, Match

if TYPE_CHECKING:
    from fastapi import FastAPI
    from starlette.types import Receive, Scope, Send

__all__ = ["LazyPart", "install_lazy"]


@dataclass
class LazyPart:
    """Routes under ``prefixes`` that ``load(app)`` adds to ``app`` when first needed."""

    name: str
    prefixes: tuple[str, ...]
    load: Callable[[FastAPI], None]
    loaded: bool = field(default=False, init=False)

    def covers(self, path: str) -> bool:
        """True when ``path`` is one of the prefixes or under one."""
        return any(path == p or path.startswith(p.rstrip("/") + "/") for p in self.prefixes)


class _Placeholder(BaseRoute):
    """Matches the paths of parts not loaded yet; handling loads them and re-dispatches."""

    def __init__(self, app: FastAPI, parts: list[LazyPart], lock: threading.Lock) -> None:
        self.app = app
        self.parts = parts
        self.lock = lock

    def _wanted(self, path: str) -> list[LazyPart]:
        return [p for p in self.parts if not p.loaded and p.covers(path)]

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] == "http" and self._wanted(scope["path"]):
            return Match.FULL, {}
        return Match.NONE, {}

    def url_path_for(self, name: str, /, **path_params: Any) -> Any:
        from starlette.routing import NoMatchFound

        raise NoMatchFound(name, path_params)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        load_parts(self.app, self._wanted(scope["path"]), self.lock)
        handlers = scope.get("starlette.exception_handlers")
        if handlers is not None:  # this request's handlers (ExceptionMiddleware's own dict)
            for exc, handler in self.app.exception_handlers.items():
                handlers[0].setdefault(exc, handler)
        await self.app.router.app(scope, receive, send)


def load_parts(app: FastAPI, parts: list[LazyPart], lock: threading.Lock) -> None:
    """Include ``parts`` (those not included yet) in ``app``; the placeholder goes once every
    part is in, and the app's middleware is rebuilt with the parts' exception handlers."""
    with lock:
        todo = [p for p in parts if not p.loaded]
        if not todo:
            return
        routes = app.router.routes
        placeholder = next(r for r in routes if isinstance(r, _Placeholder))
        at = routes.index(placeholder)
        before = list(routes)
        for part in todo:
            part.load(app)
            part.loaded = True
        added = [r for r in routes if r not in before]
        # The new routes take the placeholder's place, ahead of the pages' catch-alls.
        del routes[len(before) :]
        routes[at:at] = added
        if all(p.loaded for p in placeholder.parts):
            routes.remove(placeholder)
        app.openapi_schema = None
        app.middleware_stack = None  # the next request's stack has the new exception handlers


def install_lazy(app: FastAPI, parts: list[LazyPart]) -> None:
    """Add a placeholder for ``parts`` to ``app``'s routes; ``app.openapi()`` loads them all."""
    lock = threading.Lock()
    app.router.routes.append(_Placeholder(app, parts, lock))
    build_schema = app.openapi

    def openapi() -> dict[str, Any]:
        load_parts(app, parts, lock)
        return build_schema()

    app.openapi = openapi  # type: ignore[method-assign]
    app.state.lazy_parts = parts
