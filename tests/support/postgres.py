"""A throwaway PostgreSQL server for tests: ``initdb`` + ``postgres`` on a free loopback port.

Use the fixtures from a test module (or a conftest)::

    from tests.support.postgres import postgres_server, postgres_url  # noqa: F401

``postgres_server`` (one per test session) starts the server; ``postgres_url`` gives each
test a fresh, empty database on it (a SQLAlchemy URL for psycopg 3). Where the server
binaries are absent the tests are skipped with the reason, except under ``CI=true``,
where a missing server fails instead (CI must test what it claims to).
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.processes import stop

#: Where Debian/Ubuntu install the server (the newest version wins); else the PATH.
BIN_GLOB = "/usr/lib/postgresql/*/bin/initdb"
#: A test server: no fsync, enough connections for a few workers and a web app.
SERVER_OPTIONS = ("-c", "fsync=off", "-c", "max_connections=100", "-c", "full_page_writes=off")


@dataclass(frozen=True)
class PostgresServer:
    host: str
    port: int
    user: str

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{self.user}@{self.host}:{self.port}/{database}"

    def create_database(self, name: str | None = None) -> str:
        """A new empty database on this server; returns its URL."""
        import psycopg

        name = name or f"t_{secrets.token_hex(6)}"
        with psycopg.connect(
            host=self.host, port=self.port, user=self.user, dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def server_binaries() -> Path | None:
    found = sorted(glob.glob(BIN_GLOB))
    initdb = found[-1] if found else shutil.which("initdb")
    if initdb is None:
        return None
    folder = Path(initdb).resolve().parent
    return folder if (folder / "postgres").exists() else None


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: PostgreSQL tests must run here)")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_server_user() -> Callable[[], None] | None:
    """postgres refuses to run as root: then it runs as ``nobody``."""
    if os.geteuid() != 0:
        return None
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        _unavailable("running as root and there is no 'nobody' user to run postgres as")
        raise

    def drop() -> None:
        os.setgid(nobody.pw_gid)
        os.setuid(nobody.pw_uid)

    return drop


def _accepting(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def start_server(home: Path) -> tuple[PostgresServer, subprocess.Popen[bytes]]:
    """initdb into ``home`` and start postgres on a free loopback port."""
    binaries = server_binaries()
    if binaries is None:
        _unavailable("PostgreSQL server binaries (initdb, postgres) are not installed")
        raise AssertionError  # unreachable: skip/fail raise
    data = home / "data"
    drop = _as_server_user()
    if drop is not None:
        shutil.chown(home, "nobody")
    subprocess.run(
        [str(binaries / "initdb"), "-D", str(data), "-U", "parlour", "-A", "trust", "--no-sync"],
        check=True,
        capture_output=True,
        timeout=120,
        preexec_fn=drop,
    )
    for _ in range(5):  # the port may be taken between choosing and binding it: retry
        port = _free_port()
        server = subprocess.Popen(
            [
                str(binaries / "postgres"),
                "-D",
                str(data),
                "-k",
                str(home),
                "-h",
                "127.0.0.1",
                "-p",
                str(port),
                *SERVER_OPTIONS,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=drop,
        )
        deadline = time.monotonic() + 60
        while server.poll() is None and not _accepting(port):
            if time.monotonic() > deadline:
                server.kill()
                raise AssertionError("postgres did not start in 60 s")
            time.sleep(0.1)
        if server.poll() is None:
            time.sleep(0.2)  # the port opens a moment before connections are served
            return PostgresServer("127.0.0.1", port, "parlour"), server
    err = server.stderr.read().decode() if server.stderr else ""
    raise AssertionError(f"postgres would not start: {err[-500:]}")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _unavailable("the psycopg driver is not installed")
    # Not under pytest's tmp_path: its root folder is private to the current user.
    home = Path(tempfile.mkdtemp(prefix="parlour-pg-"))
    try:
        found, server = start_server(home)
        try:
            yield found
        finally:
            stop(server, sig=signal.SIGINT, grace=60)  # fast shutdown: disconnects clients
    finally:
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """A fresh empty database for one test."""
    return postgres_server.create_database()
