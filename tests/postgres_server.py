"""A real PostgreSQL server for the team-library tests, started once per session.

The server's binaries are found where Debian puts them (/usr/lib/postgresql/N/bin) or
on PATH; without them the team tests skip. PostgreSQL refuses to run as root, so as
root the server runs as the `postgres` user (Debian's package creates it). The cluster
lives in a temporary folder, listens on a free localhost port and is stopped at the end
of the session.

It checks passwords over TCP (scram-sha-256), as a lab's server would: every role has
one, and the clients find them in a password file (PGPASSFILE), as the README tells
users to keep them, never in an address. A team database's roles are set up by
paperdesk itself (`team init`, `team add-member`): alice owns it, the other USERS are
members, READER only reads.
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

from tests.gui.tcp_proxy import TcpProxy

#: The people of the concurrency tests: each a role of the server, so the history
#: names who did what. alice owns the team databases (and may create roles).
USERS = ("alice", "bob", "carol", "dave", "erin")
#: A role that may only read a team database.
READER = "rita"


def password_of(user: str) -> str:
    return f"{user}-pw-7Qz"


@dataclass(frozen=True)
class PostgresServer:
    port: int

    def url(self, database: str, user: str = "alice") -> str:
        return f"postgresql://{user}@localhost:{self.port}/{database}"

    def create_database(self) -> str:
        """A new, empty database owned by alice (no tables, no roles); returns its name."""
        import psycopg

        name = f"team_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url("postgres", "postgres"), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}" OWNER alice')
        return name

    def create_team_database(self) -> str:
        """A team library set up as its owner would: alice opens it (creating the
        tables), runs `team init`, and adds the other USERS as members and READER as
        a reader."""
        name = self.create_database()
        self.set_up_team(name)
        return name

    def set_up_team(self, name: str) -> None:
        """alice opens the database (creating or upgrading its tables) and sets up its
        roles: the other USERS members, READER a reader."""
        from paperdesk.store.library import Library

        library = Library.open(self.url(name, "alice"))
        try:
            library.init_team()
            for user in USERS[1:]:
                library.add_member(user, "member", None)
            library.add_member(READER, "reader", None)
        finally:
            library.close()


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
                "--auth-local=trust",
                "--auth-host=scram-sha-256",
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
    passwords = root / "pgpass"  # any port: some tests connect through a proxy
    people = ("postgres", *USERS, READER)
    passwords.write_text(
        "".join(f"localhost:*:*:{user}:{password_of(user)}\n" for user in people),
        encoding="utf-8",
    )
    passwords.chmod(0o600)
    saved = os.environ.get("PGPASSFILE")
    os.environ["PGPASSFILE"] = str(passwords)  # the clients' (and the CLI's) password file
    try:
        import psycopg

        # Over the local socket, which trusts the server's own user: the only login
        # without a password, to give postgres one.
        with psycopg.connect(
            host=str(root), port=port, user="postgres", dbname="postgres", autocommit=True
        ) as connection:
            connection.execute(f"ALTER ROLE postgres PASSWORD '{password_of('postgres')}'")
            for user in (*USERS, READER):
                rights = " CREATEROLE" if user == "alice" else ""
                connection.execute(
                    f"CREATE ROLE {user} LOGIN{rights} PASSWORD '{password_of(user)}'"
                )
        yield server
    finally:
        if saved is None:
            os.environ.pop("PGPASSFILE", None)
        else:
            os.environ["PGPASSFILE"] = saved
        subprocess.run(
            _as_server_user([str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"]),
            check=False,
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def team_database(postgres_server: PostgresServer) -> str:
    """A fresh team library on the session's server (its database's name), its roles
    set up (PostgresServer.create_team_database)."""
    return postgres_server.create_team_database()


@pytest.fixture
def proxy(postgres_server: PostgresServer) -> Iterator[TcpProxy]:
    """A relay to the session's server that the test can cut, silence and restore
    (tests/gui/tcp_proxy.py), running; stopped after the test, failed or not, so that
    no socket of it is left for the garbage collector to warn about in a later test."""
    relay = TcpProxy(postgres_server.port)
    relay.start()
    yield relay
    relay.stop()
