"""``parlour serve``: the web app on uvicorn, one process or several over PostgreSQL.

The host has an owner: the token printed at start (or ``--owner-token`` /
``$PARLOUR_OWNER_TOKEN``) signs the owner in at ``/owner``; visitors get what
``web/policy.py`` allows them. ``--open`` makes everyone the owner (a trusted table).
"""

from __future__ import annotations

import errno
import multiprocessing
import secrets
import socket
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Annotated

import typer

from parlour.core.errors import ParlourError

if TYPE_CHECKING:
    from parlour.web.policy import HostPolicy


def _run(
    url: str,
    host: str,
    port: int,
    worker: str,
    reuse: bool,
    page_workers: int,
    policy: HostPolicy,
) -> None:
    import os

    import uvicorn

    from parlour.runtime.host import GameHost
    from parlour.runtime.store import Store
    from parlour.web.app import create_app
    from parlour.web.serving import server_options

    if reuse:  # a supervised worker: stop with the supervisor, even one killed outright
        from parlour.cli.serve_workers import watch_parent

        watch_parent()
    store = Store(url)
    # Lease holders must be unique across machines and restarts, not just in this run.
    name = f"{worker}@{socket.gethostname()}:{os.getpid()}"
    app = create_app(store, GameHost(store, worker=name), page_workers=page_workers, policy=policy)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", **server_options())
    server = uvicorn.Server(config)
    if reuse:
        # Workers share one listening port: the kernel spreads connections among them.
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
        server.run(sockets=[sock])
    else:
        server.run()


def check_can_listen(host: str, port: int) -> None:
    """Bind and let go, before anything is announced or created: a port in use (another
    server, an earlier ``serve``) is one line naming the fix rather than "serving on ..."
    followed by uvicorn's errno. The same options as uvicorn's own socket
    (SO_REUSEADDR), so a port merely in TIME_WAIT is not refused."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except socket.gaierror as err:
        raise ParlourError(f"cannot listen on --host {host}: {err.strerror}") from err
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            raise ParlourError(
                f"port {port} is in use: pass --port N (or stop the other server)"
            ) from err
        if err.errno == errno.EACCES:
            raise ParlourError(
                f"port {port} needs administrator rights: pass --port 1024 or above"
            ) from err
        raise ParlourError(f"cannot listen on {host}:{port} ({err.strerror})") from err


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on", min=1, max=65535)] = 8000,
    db: Annotated[
        str | None, typer.Option(help="database file or URL (postgresql://... for --workers)")
    ] = None,
    workers: Annotated[int, typer.Option(help="processes, each a web server and game host")] = 1,
    page_workers: Annotated[
        int | None,
        typer.Option(
            help="processes rendering the pages, per web process (default: the cores "
            "shared among --workers, 1 to 4; 0: on the web process's threads)"
        ),
    ] = None,
    owner_token: Annotated[
        str | None,
        typer.Option(
            envvar="PARLOUR_OWNER_TOKEN",
            show_envvar=True,
            help="the owner's token (signs in at /owner); default: a new one, printed",
        ),
    ] = None,
    open_table: Annotated[
        bool,
        typer.Option(
            "--open",
            help="a trusted table: every visitor may do what the owner may (any model, "
            "option, seed; no limits)",
        ),
    ] = False,
    host_name: Annotated[
        list[str] | None,
        typer.Option(
            help="a name visitors reach this server by (repeat; default: --host, "
            "localhost, 127.0.0.1); requests naming any other host are refused"
        ),
    ] = None,
    allow_model: Annotated[
        list[str] | None,
        typer.Option(
            help="a model spec visitors may seat (repeat; default: scripted, random, local)"
        ),
    ] = None,
) -> None:
    """Play and watch games in the browser: lobby, per-seat links, spectators."""
    from parlour.runtime.store import Store, db_url, default_db_url
    from parlour.web.policy import DEFAULT_MODELS, LOCAL_HOSTS, HostPolicy

    printed = owner_token is None
    token = owner_token if owner_token is not None else secrets.token_urlsafe(32)
    if len(token) < 16:
        raise ParlourError("--owner-token must be at least 16 characters (or leave it out)")
    names = {n.strip().lower() for n in host_name or [] if n.strip()}
    policy = HostPolicy(
        owner_token=token,
        open_table=open_table,
        hosts=frozenset(names or (LOCAL_HOSTS | {host.lower()})),
        models=tuple(allow_model) if allow_model else DEFAULT_MODELS,
    )

    url = db_url(db) if db else default_db_url()
    if workers < 1:
        raise ParlourError("--workers must be 1 or more")
    if page_workers is None:
        from parlour.web.pages import default_size

        page_workers = default_size(workers)
    if page_workers < 0:
        raise ParlourError("--page-workers must be 0 (pages on the web process's threads) or more")
    if workers > 1 and not url.startswith("postgresql"):
        raise ParlourError(
            "--workers above 1 needs a shared server database; pass --db postgresql://..."
        )
    check_can_listen(host, port)
    Store(url).close()  # migrate once, and fail here with the cause if the database is bad
    typer.echo(f"parlour is serving on http://{host}:{port}/  (Ctrl-C stops it)", err=False)
    if open_table:
        typer.echo("open table: every visitor may do what the owner may")
    elif printed:
        typer.echo(f"owner token (sign in at /owner): {token}")
    if host in ("0.0.0.0", "::") and not names:
        typer.echo(
            "note: visitors reach this server by a name or address: pass --host-name for each "
            "(requests naming other hosts are refused)"
        )
    if workers == 1:
        _run(url, host, port, "web-1", reuse=False, page_workers=page_workers, policy=policy)
        return
    raise typer.Exit(_supervise(url, host, port, workers, page_workers, policy))


def _supervise(
    url: str, host: str, port: int, workers: int, page_workers: int, policy: HostPolicy
) -> int:
    """Run the workers until SIGTERM/SIGINT; dead ones are restarted (serve_workers.py)."""
    import threading

    from parlour.cli.serve_workers import Supervisor, stop_on_signals

    def start(name: str) -> BaseProcess:
        process = multiprocessing.get_context("spawn").Process(
            target=_run, args=(url, host, port, name, True, page_workers, policy), daemon=False
        )
        process.start()
        return process

    def say(line: str) -> None:
        typer.echo(line, err=True)

    stop = threading.Event()
    with stop_on_signals(stop):
        return Supervisor(start, [f"web-{i + 1}" for i in range(workers)], say=say).run(stop)
