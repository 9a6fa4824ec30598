"""Play in the browser (issue 14): games over the game protocol, stored in the database.

``service`` (games, tokens, actions as transactions, AI seats, undo, records), ``scenes``
(how a ruleset's view is drawn: per-ruleset presenters over the protocol's views, with a
generic fallback), ``manager`` (the WARSURGE Play Manager for a physical table) and
``routes`` (the JSON API, the live stream and the pages). :func:`install` adds them to the
app. Nothing here decides a rule: every action goes through the ruleset's ``check``/``apply``
for the seat the request's token plays (STYLE.md principle 15).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI


def install(app: FastAPI) -> None:
    """Add the play routes, pages and error handlers to ``app``."""
    from warbench.web.play import routes

    routes.install(app)
