"""``warbench serve``: the web workbench on localhost (issue 13).

FastAPI and uvicorn are imported inside the command, so no other command pays for them.
"""

from __future__ import annotations

import typer

from warbench.cli.app import app, console, fail
from warbench.kernel.errors import WarbenchError


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

    try:
        import uvicorn

        from warbench.web.app import create_app
    except ImportError as exc:  # pragma: no cover - a broken install
        raise fail(f"the web workbench needs fastapi and uvicorn ({exc})") from None
    try:
        web = create_app(db)
    except WarbenchError as exc:
        raise fail(str(exc)) from None
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        # Listening now: the address printed below accepts connections at once (they wait in
        # the backlog until uvicorn's loop takes them).
        sock.listen(128)
    except OSError as exc:
        raise fail(f"cannot listen on {host}:{port} ({exc.strerror}); try another --port") from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    console.print(f"warbench workbench on {url} (database {web.state.store.url}); Ctrl+C stops it")
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    server = uvicorn.Server(uvicorn.Config(web, log_level="warning"))
    server.run(sockets=[sock])
