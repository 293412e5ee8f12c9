"""A real PostgreSQL server for the team-library tests, started once per session.

The server's binaries are found where Debian puts them (/usr/lib/postgresql/N/bin) or
on PATH; without them the team tests skip. PostgreSQL refuses to run as root, so as
root the server runs as the `postgres` user (Debian's package creates it). The cluster
lives in a temporary folder, listens on a free localhost port, trusts local logins
(no password to leak) and is stopped at the end of the session.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

#: The people of the concurrency tests: each a role of the server, so the history
#: names who did what.
USERS = ("alice", "bob", "carol", "dave", "erin")


@dataclass(frozen=True)
class PostgresServer:
    port: int

    def url(self, database: str, user: str = "alice") -> str:
        return f"postgresql://{user}@localhost:{self.port}/{database}"

    def create_database(self) -> str:
        """A new, empty database owned by alice; returns its name."""
        import psycopg

        name = f"team_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url("postgres", "postgres"), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}" OWNER alice')
            # Every user may connect and change the shared tables alice's client creates.
            for user in USERS:
                connection.execute(f'GRANT ALL ON DATABASE "{name}" TO {user}')
        with psycopg.connect(self.url(name, "alice"), autocommit=True) as connection:
            connection.execute(
                "ALTER DEFAULT PRIVILEGES FOR ROLE alice IN SCHEMA public "
                f"GRANT ALL ON TABLES TO {', '.join(USERS)}"
            )
            connection.execute(
                "ALTER DEFAULT PRIVILEGES FOR ROLE alice IN SCHEMA public "
                f"GRANT ALL ON SEQUENCES TO {', '.join(USERS)}"
            )
        return name


def find_binaries() -> Path | None:
    """The folder holding initdb and pg_ctl (the newest Debian version first)."""
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
        reverse=True,
    )
    for folder in versions:
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    binaries = find_binaries()
    if binaries is None:
        pytest.skip("PostgreSQL's server binaries (initdb, pg_ctl) are not installed")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg is not installed")
    if os.geteuid() == 0:
        try:
            server_user = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root, and there is no postgres user to run the server")
    # Not under pytest's own temporary folder: as root, that is closed to other users.
    root = Path(tempfile.mkdtemp(prefix="paperdesk-postgres-"))
    data = root / "data"
    if os.geteuid() == 0:
        os.chown(root, server_user.pw_uid, server_user.pw_gid)
    port = _free_port()
    subprocess.run(
        _as_server_user(
            [
                str(binaries / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
            ]
        ),
        check=True,
        capture_output=True,
    )
    options = (
        f"-p {port} -k {root} -c listen_addresses=localhost -c max_connections=60 -c fsync=off"
    )
    subprocess.run(
        _as_server_user(
            [
                str(binaries / "pg_ctl"),
                "-D",
                str(data),
                "-o",
                options,
                "-l",
                str(root / "log"),
                "-w",
                "start",
            ]
        ),
        check=True,
        capture_output=True,
    )
    server = PostgresServer(port)
    try:
        import psycopg

        with psycopg.connect(server.url("postgres", "postgres"), autocommit=True) as connection:
            for user in USERS:
                connection.execute(f"CREATE ROLE {user} LOGIN")
        yield server
    finally:
        subprocess.run(
            _as_server_user([str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"]),
            check=False,
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def team_database(postgres_server: PostgresServer) -> str:
    """A fresh database on the session's server (its name)."""
    return postgres_server.create_database()
