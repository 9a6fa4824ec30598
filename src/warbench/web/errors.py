"""One place that turns warbench's typed errors into HTTP answers (issue 13).

Every refusal is a 4xx with a JSON body ``{"detail": sentence, "field": path or null, "error":
kind}``; the sentence is the same one the CLI prints. The mapping:

* :class:`~warbench.kernel.errors.UnknownNameError` → 404 when the name is in the URL (``GET
  /api/rosters/Nope``) and 422 when it is in a request body (an unknown perk on a posted unit: the
  request cannot be processed, the URL exists); the message suggests close names,
* :class:`~warbench.storage.store.StorageError` → 409 (the database refuses the change, e.g. a
  faction or roster of that name already exists),
* every other :class:`~warbench.kernel.errors.WarbenchError` (bad profile field, bad dice
  expression, a rule broken, a bad share code) → 422,
* FastAPI's own request validation → 422 naming the first bad field (``body.seed``),
* the router's own refusals (404 no such path, 405 method not allowed) keep their status and
  get the same body shape with ``field: null``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from warbench.kernel.errors import ProfileError, UnknownNameError, WarbenchError

_PATH = re.compile(r"[a-z_][\w]*(\.[\w]+|\[\d+\])+")


def status_of(exc: WarbenchError, method: str = "GET") -> int:
    """The HTTP status of a typed error (see the module docstring)."""
    from warbench.storage.store import StorageError

    if isinstance(exc, UnknownNameError):
        return 422 if method in ("POST", "PUT", "PATCH") else 404
    if isinstance(exc, StorageError):
        return 409
    return 422


def field_of(exc: WarbenchError) -> str | None:
    """The field a typed error names, when it names one."""
    if isinstance(exc, ProfileError):
        return exc.field
    if isinstance(exc, UnknownNameError):
        # The reader puts the field's path before the message ("request, unit.unit.perks[0]:
        # unknown perk ..."); otherwise the kind of name stands for the field.
        where = str(exc).split(": unknown ", 1)[0] if ": unknown " in str(exc) else ""
        last = where.split(", ")[-1]
        return last if _PATH.fullmatch(last) else exc.kind
    return None


def _loc(loc: Sequence[Any]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def install(app: FastAPI) -> None:
    """Register the exception handlers on ``app``."""

    async def warbench_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, WarbenchError)
        return JSONResponse(
            status_code=status_of(exc, request.method),
            content={"detail": str(exc), "field": field_of(exc), "error": type(exc).__name__},
        )

    async def validation_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = list(exc.errors())
        first = errors[0] if errors else {"loc": (), "msg": "invalid request"}
        field = _loc(first.get("loc", ()))
        return JSONResponse(
            status_code=422,
            content={
                "detail": f"{field}: {first.get('msg', 'invalid')}",
                "field": field,
                "error": "RequestValidationError",
                "errors": [
                    {"field": _loc(e.get("loc", ())), "message": str(e.get("msg", ""))}
                    for e in errors
                ],
            },
        )

    async def http_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        return JSONResponse(
            status_code=exc.status_code,
            content={"detail": str(exc.detail), "field": None, "error": "HTTPException"},
            headers=exc.headers,
        )

    app.add_exception_handler(WarbenchError, warbench_error)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(RequestValidationError, validation_error)
