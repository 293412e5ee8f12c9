"""`paperdesk --library postgresql://...`: the command line verbs on a team library.

Issue 14's bug: such an address made a local folder named `postgresql:` and worked
there. It is a team library now, wherever the command runs.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.test_cli import invoke
from tests.postgres_server import PostgresServer

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))


def paperdesk(
    where: Path, *args: str, library: str | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run the CLI in `where`, with its own user data folder there."""
    env = {**os.environ, "PYTHONWARNINGS": "error", "XDG_DATA_HOME": str(where / "share")}
    env.pop("PAPERDESK_LIBRARY", None)
    command = [sys.executable, "-m", "paperdesk"]
    if library is not None:
        command += ["--library", library]
    result = subprocess.run(
        [*command, *args], capture_output=True, text=True, env=env, cwd=where, check=False
    )
    if check:
        assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result


def listed_ids(output: str) -> list[int]:
    """The paper ids of a listing (the first column of its rows)."""
    return [int(line.split()[0]) for line in output.splitlines() if line.strip()[:1].isdigit()]


def test_the_verbs_work_on_a_team_library_and_no_folder_named_postgresql_appears(
    postgres_server: PostgresServer,
    team_database: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each verb in this process (what they do on a team library), run where `paperdesk`
    # would run them: in tmp_path, with its own user data folder.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    monkeypatch.delenv("PAPERDESK_LIBRARY", raising=False)

    def paperdesk(_where: Path, *args: str, library: str) -> subprocess.CompletedProcess[str]:
        return invoke(library, *args)

    alice = postgres_server.url(team_database, "alice")
    bob = postgres_server.url(team_database, "bob")
    imported = paperdesk(tmp_path, "import", *map(str, SEEDS), library=alice).stdout
    assert "19 added" in imported
    paperdesk(tmp_path, "tag", "1", "2", "--add", "to-discuss", library=alice)
    paperdesk(tmp_path, "tag", "2", "3", "--add", "To-Discuss", library=bob)
    paperdesk(tmp_path, "rate", "2", "5", library=bob)
    paperdesk(tmp_path, "note", "3", "--append", "bob: read the appendix", library=bob)
    paperdesk(tmp_path, "shortlist", "create", "Reading group", library=alice)
    paperdesk(tmp_path, "shortlist", "add", "Reading group", "3", "1", library=bob)

    found = paperdesk(tmp_path, "search", "tag:to-discuss", library=alice).stdout
    assert sorted(listed_ids(found)) == [1, 2, 3]  # alice's index caught up with bob's tags
    # Notes and ratings are each member's own; everyone's are in the team view.
    assert paperdesk(tmp_path, "note", "3", library=bob).stdout.strip() == (
        "bob: read the appendix"
    )
    assert paperdesk(tmp_path, "note", "3", library=alice).stdout.strip() == ""
    shown = paperdesk(tmp_path, "show", "3", library=alice).stdout
    assert "Team:      not rated yet" in shown
    assert shown.index("  bob (") < shown.index("    bob: read the appendix")
    paperdesk(tmp_path, "rate", "2", "3", library=alice)
    (item,) = json.loads(paperdesk(tmp_path, "show", "2", "--json", library=alice).stdout)
    assert item["rating"] == 3
    assert item["team"] | {"notes": []} == {
        "average": 4.0,
        "count": 2,
        "ratings": {"alice": 3, "bob": 5},
        "notes": [],
    }
    assert (
        "★ 4.0 average of 2 · alice 3, bob 5"
        in paperdesk(tmp_path, "show", "2", library=bob).stdout
    )
    listed = paperdesk(tmp_path, "shortlist", "show", "Reading group", library=alice).stdout
    assert listed_ids(listed) == [3, 1]
    changes = paperdesk(tmp_path, "history", library=alice).stdout
    assert "bob" in changes and "alice" in changes
    stats = paperdesk(tmp_path, "stats", library=alice).stdout
    assert f"Library   {alice}" in stats
    assert not list(tmp_path.glob("postgres*"))  # the bug of issue 14
    assert paperdesk(tmp_path, "check", library=bob).stdout.startswith("ok")


def test_the_library_variable_may_name_a_team_library(
    postgres_server: PostgresServer, team_database: str, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("PAPERDESK_LIBRARY", postgres_server.url(team_database, "alice"))
    env_run = subprocess.run(
        [sys.executable, "-m", "paperdesk", "import", str(SEEDS[0])],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "share")},
        check=False,
    )
    assert env_run.returncode == 0, env_run.stderr
    assert not list(tmp_path.glob("postgres*"))


def test_only_the_owner_creates_the_tables_and_others_are_told_in_one_line(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    empty = postgres_server.create_database()
    result = paperdesk(tmp_path, "list", library=postgres_server.url(empty, "bob"), check=False)
    assert result.returncode == 1
    assert "refused: permission denied for schema public" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("postgresql://alice:s3cret@localhost:1/icml", "cannot be reached"),
        ("postgresql://alice:s3cret@localhost", "names no database"),
    ],
)
def test_a_bad_address_is_one_line_that_never_shows_the_password(
    tmp_path: Path, address: str, message: str
) -> None:
    result = paperdesk(tmp_path, "list", library=address, check=False)
    assert result.returncode == 1
    assert message in result.stderr and "alice:***@localhost" in result.stderr
    assert "s3cret" not in result.stderr + result.stdout
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_desktop_app_opens_a_team_library(
    postgres_server: PostgresServer, team_database: str, tmp_path: Path
) -> None:
    picture = tmp_path / "team.png"
    result = paperdesk(
        tmp_path,
        "--screenshot",
        str(picture),
        library=postgres_server.url(team_database),
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert picture.stat().st_size > 10_000


def test_the_desktop_app_names_an_unreachable_team_library_without_its_password(
    tmp_path: Path,
) -> None:
    with socket.socket() as probe:  # a port nothing listens on once closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"postgresql://alice:s3cret@localhost:{port}/icml"
    result = paperdesk(
        tmp_path, "--screenshot", str(tmp_path / "x.png"), library=address, check=False
    )
    assert result.returncode == 1
    assert f"alice:***@localhost:{port}/icml cannot be reached" in result.stderr
    assert "s3cret" not in result.stderr + result.stdout
    assert "Traceback" not in result.stderr


def test_the_backup_verb_points_a_team_library_to_its_server(
    postgres_server: PostgresServer, team_database: str, tmp_path: Path
) -> None:
    result = paperdesk(tmp_path, "backup", library=postgres_server.url(team_database), check=False)
    assert result.returncode == 1
    assert "pg_dump" in result.stderr


def test_the_member_is_the_role_the_server_authenticated_whatever_the_environment_says(
    postgres_server: PostgresServer, team_database: str, tmp_path: Path, monkeypatch
) -> None:
    # No user in the address: libpq logs in as PGUSER; LOGNAME and USER say alice.
    address = f"postgresql://localhost:{postgres_server.port}/{team_database}"
    monkeypatch.setenv("PGUSER", "bob")
    monkeypatch.setenv("LOGNAME", "alice")
    monkeypatch.setenv("USER", "alice")
    paperdesk(tmp_path, "import", str(SEEDS[0]), library=postgres_server.url(team_database))
    paperdesk(tmp_path, "rate", "2", "5", library=address)
    (item,) = json.loads(paperdesk(tmp_path, "show", "2", "--json", library=address).stdout)
    assert item["team"]["ratings"] == {"bob": 5}
    changes = json.loads(paperdesk(tmp_path, "history", "--json", library=address).stdout)
    assert [(c["actor"], c["action"]) for c in changes][:1] == [("bob", "Rate 5 stars")]
    # undo is bob's own, and the history says who undid it.
    assert "Rate 5 stars" in paperdesk(tmp_path, "undo", library=address).stdout
    assert "nothing to undo" in paperdesk(tmp_path, "undo", library=address).stdout
    listed = paperdesk(tmp_path, "history", library=address).stdout
    assert "bob         Rate 5 stars  (undone by bob)" in listed


def test_an_owner_adds_a_member_later_who_logs_in_with_a_password_file(
    postgres_server: PostgresServer, team_database: str, tmp_path: Path
) -> None:
    import psycopg

    with psycopg.connect(postgres_server.url("postgres", "postgres"), autocommit=True) as admin:
        admin.execute("DROP ROLE IF EXISTS grace")
    owner = postgres_server.url(team_database, "alice")
    added = subprocess.run(
        [sys.executable, "-m", "paperdesk", "--library", owner, "team", "add-member", "grace"]
        + ["--password"],
        input="gr:ce@/pw\n",
        capture_output=True,
        text=True,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "share")},
        check=False,
    )
    assert added.returncode == 0, added.stderr
    assert "grace created and added as member" in added.stdout
    # grace keeps her password in her own password file (':' and '\' escaped there).
    passwords = tmp_path / "pgpass"
    passwords.write_text(
        f"localhost:{postgres_server.port}:*:grace:gr\\:ce@/pw\n", encoding="utf-8"
    )
    passwords.chmod(0o600)
    grace = postgres_server.url(team_database, "grace")
    env = {**os.environ, "PGPASSFILE": str(passwords), "XDG_DATA_HOME": str(tmp_path / "g")}
    rated = subprocess.run(
        [sys.executable, "-m", "paperdesk", "--library", grace, "import", str(SEEDS[0])],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert rated.returncode == 0, rated.stderr
    # A member may not let others in; the message says what it takes.
    bob = postgres_server.url(team_database, "bob")
    refused = paperdesk(tmp_path, "team", "add-member", "mallory", library=bob, check=False)
    assert refused.returncode == 1 and "CREATEROLE" in refused.stderr


PAT_SECRET = "p@ss/w:rd"


@pytest.fixture(scope="module")
def pat(postgres_server: PostgresServer) -> str:
    """A member whose password has a raw @, / and : (created once per module)."""
    import psycopg

    with psycopg.connect(postgres_server.url("postgres", "postgres"), autocommit=True) as admin:
        admin.execute("DROP ROLE IF EXISTS pat")
    return "pat"


FORMS = [
    "postgresql://pat:{raw}@localhost:{port}/{db}",
    "postgresql://pat:{quoted}@localhost:{port}/{db}",
    "postgresql://pat@localhost:{port}/{db}?password={quoted}",
    "postgresql://pat@localhost:{port}/{db}?password={raw}",
]


@pytest.mark.parametrize("form", FORMS)
def test_no_form_of_address_shows_the_password_in_any_output(
    postgres_server: PostgresServer, team_database: str, tmp_path: Path, pat: str, form: str
) -> None:
    from urllib.parse import quote

    from paperdesk.store.library import Library

    owner = Library.open(postgres_server.url(team_database, "alice"))
    try:
        owner.add_member(pat, "member", PAT_SECRET)
    finally:
        owner.close()
    secrets = (PAT_SECRET, quote(PAT_SECRET, safe=""), "p@ss", "w:rd")

    def shows_no_secret(result: subprocess.CompletedProcess[str]) -> None:
        for secret in secrets:
            assert secret not in result.stdout + result.stderr

    values = {"raw": PAT_SECRET, "quoted": quote(PAT_SECRET, safe=""), "db": team_database}
    address = form.format(port=postgres_server.port, **values)
    # It opens (the password read right), with -v logging, and warns about `ps`.
    opened = paperdesk(tmp_path, "-v", "list", library=address)
    shows_no_secret(opened)
    assert "~/.pgpass" in opened.stderr
    if form == FORMS[0]:  # what they print does not depend on how the address was spelt
        shows_no_secret(paperdesk(tmp_path, "stats", library=address))
        shows_no_secret(paperdesk(tmp_path, "history", library=address))
    # A wrong database, a closed port, no database: one line each, no password.
    for bad in (
        address.replace(team_database, "nothing_here"),
        address.replace(f":{postgres_server.port}/", ":1/"),
        address.replace(f"/{team_database}", ""),
    ):
        failed = paperdesk(tmp_path, "-v", "list", library=bad, check=False)
        assert failed.returncode == 1
        assert len(failed.stderr.strip().splitlines()) == 1, failed.stderr
        shows_no_secret(failed)
    # Nothing written on this machine holds it either.
    for written in (tmp_path / "share").rglob("*"):
        if written.is_file():
            data = written.read_bytes()
            assert all(secret.encode() not in data for secret in secrets), written
