"""``warbench serve``: the web workbench on localhost (issue 13).

FastAPI and uvicorn are imported inside the command, so no other command pays for them.
"""

from __future__ import annotations

import os
import re
from types import FrameType

import typer

from warbench.cli.app import app, console, fail
from warbench.kernel.errors import WarbenchError

DB_ENV = "WARBENCH_DB"  # as warbench.storage.store.DB_ENV (not imported: it loads SQLAlchemy)
#: Seconds Ctrl+C waits for open requests before it cuts them. A game page's live stream stays
#: open for 55 s (``web.play.routes.STREAM_SECONDS``): Ctrl+C with a game open took 52 s to stop
#: the server (session 37's walk). The streams now end at Ctrl+C; this bounds what is left (an
#: action is one database transaction, so one cut short is not half stored).
SHUTDOWN_SECONDS = 5


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port (0: any free one)."),
    db: str | None = typer.Option(
        None, "--db", help="SQLAlchemy database URL (default: $WARBENCH_DB, else the CLI's)."
    ),
    open_browser: bool = typer.Option(False, "--open", help="Open the workbench in a browser."),
) -> None:
    """Start the web workbench (designer, odds, dice, rules, rosters) and print its address."""
    import socket

    # Speed (issue 13: a page interactive within 1.5 s of a cold start). The socket listens and
    # the address is printed first; the server's imports and the database's opening (and
    # migration) follow while the browser opens: a request made meanwhile waits in the
    # listening socket's backlog and is answered as soon as the app is up. A database URL that
    # cannot name a database is refused before anything is printed; one that names a database
    # that then cannot be opened stops the server with one error line (exit code 2).
    url_text = db or os.environ.get(DB_ENV)
    if url_text:
        _check_url(url_text)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        raise fail(f"cannot listen on {host}:{port} ({exc.strerror}); try another --port") from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    console.print(f"warbench workbench on {url} (database {_shown_url(url_text)}); Ctrl+C stops it")
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    try:
        import uvicorn

        from warbench.web.app import create_app
    except ImportError as exc:  # pragma: no cover - a broken install
        raise fail(f"the web workbench needs fastapi and uvicorn ({exc})") from None
    # The database is opened once the Design page's first cost is answered (or after 3 s, or
    # by the first request that needs it): SQLAlchemy and the migration check are not on the
    # way to the first page. One that cannot be opened stops the server with one line.
    web = create_app(db, open_database=False)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            # Ctrl+C: the game pages' live streams end at once, so the server stops without
            # waiting up to 55 s for them (session 37's walk: 52 s)
            super().handle_exit(sig, frame)
            play = getattr(web.state, "play", None)
            if play is not None:
                play.stop_streams()

    config = uvicorn.Config(web, log_level="warning", timeout_graceful_shutdown=SHUTDOWN_SECONDS)
    server = Server(config)
    failed: list[str] = []

    def stop(exc: Exception) -> None:
        if isinstance(exc, WarbenchError):
            failed.append(str(exc))
        elif isinstance(exc, OSError):  # the SQLite file's folder cannot be made (Store.open)
            failed.append(f"{_shown_url(url_text)}: cannot open the database ({exc})")
        else:
            failed.append(f"{_shown_url(url_text)}: cannot open the database ({exc!r})")
        server.should_exit = True

    web.state.open_after(3.0, stop)
    # the rules' compiled kernels (numba) load in the background once the Design page's first
    # cost is answered, or the play pages are opened, so a player's first Move does not wait
    # for them, and no cold start's first page waits for them either (issue 10, session 38)
    from warbench.web.app import warm_rules

    warm_rules(web.state.first_cost)
    server.run(sockets=[sock])
    if failed:
        raise fail(failed[0])


_DIALECTS = ("sqlite", "postgresql", "mysql", "mariadb", "oracle", "mssql")  # SQLAlchemy's own


def _check_url(text: str) -> None:
    """Refuse a database URL whose scheme names no SQLAlchemy dialect (one line, exit 2),
    without loading SQLAlchemy: its own dialects, or one a package registers."""
    m = re.match(r"([A-Za-z][A-Za-z0-9_]*)(?:\+[A-Za-z0-9_]+)?://", text.strip())
    if m is None:
        raise fail(f"{text}: not a database URL (write dialect://..., e.g. sqlite:///file.db)")
    if m[1].lower() in _DIALECTS:
        return
    from importlib.metadata import entry_points

    if not any(ep.name.split(".")[0] == m[1] for ep in entry_points(group="sqlalchemy.dialects")):
        raise fail(
            f"{text}: not a database URL (no database dialect {m[1]!r}; "
            f"known: {', '.join(_DIALECTS)})"
        )


def default_database() -> str:
    """The CLI's default database, as ``warbench.storage.store.default_url`` gives it (a test
    keeps the two equal); computed here so the address is printed before SQLAlchemy loads."""
    from pathlib import Path

    from platformdirs import user_data_dir

    return f"sqlite:///{Path(user_data_dir('warbench')) / 'warbench.db'}"


def _shown_url(text: str | None) -> str:
    """The database URL as printed (password hidden), without importing the storage layer."""
    if not text:
        return default_database()
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", text)
