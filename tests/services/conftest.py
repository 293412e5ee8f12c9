"""A library folder made from the real seed lists, shared by the service tests; a team
library's clients (tests/postgres_server.py starts its server)."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from paperdesk.core.team_url import TeamAddress
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import importing
from paperdesk.store.library import Library
from tests.postgres_server import PostgresServer

SEEDS = sorted((Path(__file__).resolve().parents[2] / "seeds").glob("*.txt"))


@pytest.fixture(scope="session")
def seeded_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Import the seeds once per session; tests get a private copy of the folder."""
    folder = tmp_path_factory.mktemp("seeded") / "library"
    with Desk.open(folder) as desk:
        report = importing.import_files(desk, SEEDS)
        assert not report.failed, report.summary()
    return folder


@pytest.fixture
def desk(seeded_template: Path, tmp_path: Path) -> Desk:
    folder = tmp_path / "library"
    # Without the template's backups: whether importing the two seed files took one
    # depends on how long the first took (database_backups.before_import shares one
    # backup among imports within a minute), and tests count backups.
    shutil.copytree(seeded_template, folder, ignore=shutil.ignore_patterns("backups"))
    opened = Desk.open(folder)
    yield opened
    opened.close()


@pytest.fixture
def empty_desk(tmp_path: Path) -> Desk:
    opened = Desk.open(tmp_path / "empty")
    yield opened
    opened.close()


#: Opens the test's team library as a user ("alice", "bob"...).
Client = Callable[[str], Desk]


@pytest.fixture
def client(
    postgres_server: PostgresServer,
    team_database: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Client]:
    """Opens the test's team library as a user; each user has their own local state
    (its index under the test's XDG_DATA_HOME), and every desk opened is closed."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    opened: list[Desk] = []

    def open_as(user: str) -> Desk:
        desk = Desk.open_team(TeamAddress.parse(postgres_server.url(team_database, user)))
        opened.append(desk)
        return desk

    yield open_as
    for desk in opened:
        desk.close()


def paper_with(desk: Desk, phrase: str) -> int:
    """The id of the seed paper whose abstract starts with `phrase`."""
    for batch in desk._library.papers.iter_all():
        for paper in batch:
            if paper.abstract.startswith(phrase):
                return paper.id
    raise AssertionError(f"no seed abstract starts with {phrase!r}")


@contextmanager
def another_program(desk: Desk) -> Iterator[Library]:
    """The desk's library as another program opens it: its writes reach the database
    and nothing of this program's (its index, its kept orders)."""
    library = Library.open(f"sqlite:///{desk.db_path}", desk.db_path)
    try:
        yield library
    finally:
        library.close()
