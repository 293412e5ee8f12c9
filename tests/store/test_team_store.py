"""The store on PostgreSQL (a team library): the same models and migrations as SQLite,
case-insensitive names, bulk changes and their undo, the change sequence."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import PaperRecord, Status
from paperdesk.store.db import make_engine
from paperdesk.store.library import Library
from paperdesk.store.migrate import current_revision, head_revision
from paperdesk.store.schema import Base
from tests.postgres_server import PostgresServer


@pytest.fixture
def url(postgres_server: PostgresServer, team_database: str) -> str:
    return postgres_server.url(team_database)


@pytest.fixture
def library(url: str) -> Iterator[Library]:
    opened = Library.open(url)
    yield opened
    opened.close()


def add_papers(library: Library, count: int) -> list[int]:
    return library.imports.commit(
        "Import test", [PaperRecord(title=f"Paper number {i}") for i in range(count)]
    ).new_ids


def test_models_and_migrations_do_not_drift_on_postgresql(library: Library, url: str) -> None:
    engine = make_engine(url)
    assert current_revision(engine) == head_revision()
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    assert differences == []


def test_clients_opening_a_new_library_at_once_create_it_once(url: str) -> None:
    with ThreadPoolExecutor(4) as pool:
        libraries = list(pool.map(lambda _: Library.open(url), range(4)))
    for opened in libraries:
        assert opened.generation() == 0
        opened.close()


def test_names_are_one_whatever_their_case(library: Library) -> None:
    ids = add_papers(library, 3)
    library.tags.add(ids[:2], ["ML/RNN"])
    library.tags.add(ids[1:], ["ml/rnn", "ml"])
    assert {(t.name, t.count) for t in library.tags.all()} == {("ML/RNN", 3), ("ml", 2)}
    with pytest.raises(InvalidValueError):
        library.tags.create("Ml")
    library.tags.rename("ML", "learning")  # the family moves with it, whatever its case
    assert {t.name for t in library.tags.all()} == {"learning/RNN", "learning"}
    library.shortlists.create("Reading Group", ids)
    with pytest.raises(InvalidValueError):
        library.shortlists.create("reading group")


def test_a_status_set_on_many_papers_is_undone_and_redone(library: Library) -> None:
    ids = add_papers(library, 1200)
    library.papers.set_status(ids[:700], Status.READ)
    library.papers.set_status(ids, Status.DISCARDED)
    assert library.history.undo() is not None
    statuses = [p.status for p in library.papers.get_many(ids)]
    assert statuses == [Status.READ] * 700 + [Status.NEW] * 500
    assert library.history.redo() is not None
    assert {p.status for p in library.papers.get_many(ids)} == {Status.DISCARDED}


def test_each_generation_logs_the_papers_it_touched(library: Library) -> None:
    ids = add_papers(library, 4)
    start = library.generation()
    library.tags.add(ids[:2], ["fav"])
    library.saved.save("liked", "rating:>=4")  # no paper's document changes
    library.papers.set_rating([ids[3]], 4)
    library.tags.rename("fav", "favourite")  # the papers carrying it do
    assert library.generation() == start + 4
    assert library.changes.papers_since(start, start + 1) == set(ids[:2])
    assert library.changes.papers_since(start + 1, start + 2) == set()
    assert library.changes.papers_since(start + 2, start + 3) == {ids[3]}
    assert library.changes.papers_since(start + 3, start + 4) == set(ids[:2])
    assert library.changes.count_since(start) == 5


def test_the_local_library_keeps_no_change_log(tmp_path) -> None:
    db = tmp_path / "library.sqlite3"
    local = Library.open(f"sqlite:///{db}", db, tmp_path / "backups")
    try:
        ids = add_papers(local, 2)
        local.tags.add(ids, ["fav"])
        assert not local.shared
        assert local.changes.count_since(0) == 0
    finally:
        local.close()
