"""Reading and restoring the whole library state (the store half of the JSON backup)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import PaperRecord
from paperdesk.formats.backup import SECTIONS
from paperdesk.store import snapshot
from paperdesk.store.library import Library
from paperdesk.store.schema import Base, written_columns

NESTED = {
    "papers": ("paper_authors", "authors"),
    "shortlists": ("shortlist_entries", "entries"),
    "import_batches": ("import_batch_papers", "paper_ids"),
}
# Tables whose columns a section keeps on its own rows: a paper's state on the paper.
MERGED = {"papers": "paper_state"}


def open_library(folder: Path) -> Library:
    db = folder / "library.sqlite3"
    return Library.open(f"sqlite:///{db}", db, folder / "backups")


@pytest.fixture
def library(tmp_path: Path) -> Library:
    lib = open_library(tmp_path)
    lib.imports.commit(
        "Import test", [PaperRecord(title=f"Paper {i}", authors=("A", "B")) for i in range(3)]
    )
    lib.tags.add([1, 2, 3], ["rnn"])
    yield lib
    lib.close()


def test_the_backup_format_has_a_place_for_every_column_of_user_data() -> None:
    # A migration adding a column or table must extend the backup, or this fails.
    # Columns the database computes (sort keys) are derived, not user data.
    tables = {
        name: {column.name for column in written_columns(table)}
        for name, table in Base.metadata.tables.items()
    }
    covered = {"history", "meta", "change_log"}  # not user data: records and counters
    # Members' own notes and ratings exist in a team library only, which pg_dump backs
    # up; the personal library keeps its note and rating in notes and paper_state.
    covered.add("member_values")
    for section, fields in SECTIONS.items():
        columns = tables[section]
        if section in NESTED:
            child, field = NESTED[section]
            covered.add(child)
            columns = columns | {field}
        if section in MERGED:
            covered.add(MERGED[section])
            columns = columns | (tables[MERGED[section]] - {"paper_id"})
        covered.add(section)
        assert set(fields) == columns, section
    assert covered == set(tables)


def test_a_read_sees_one_moment_even_when_a_write_lands_midway(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_papers = snapshot._papers

    def papers_then_a_deletion(connection):  # type: ignore[no-untyped-def]
        rows = read_papers(connection)
        library.papers.delete([2])  # another thread's write, between two of our reads
        return rows

    monkeypatch.setattr(snapshot, "_papers", papers_then_a_deletion)
    state = library.backups.read_state()
    assert [p["id"] for p in state["papers"]] == [1, 2, 3]
    assert [r["paper_id"] for r in state["paper_tags"]] == [1, 2, 3]
    assert library.papers.count() == 2


def test_a_state_breaking_a_database_rule_is_refused_and_rolled_back(
    library: Library, tmp_path: Path
) -> None:
    state = library.backups.read_state()
    state["tags"].append({"id": 9, "name": "RNN", "colour": None})  # names are case-blind
    (tmp_path / "target").mkdir()
    target = open_library(tmp_path / "target")
    try:
        with pytest.raises(InvalidValueError, match="breaks a rule of the library"):
            target.backups.restore(state, "Restore")
        assert (
            target.papers.count() == 0 and target.tags.all() == [] and target.history.recent() == []
        )
    finally:
        target.close()


def test_an_occupied_library_says_what_it_holds(library: Library) -> None:
    state = library.backups.read_state()
    with pytest.raises(snapshot.LibraryNotEmptyError, match="not empty") as refused:
        library.backups.restore(state, "Restore")
    assert refused.value.held == {"papers": 3, "tags": 1}
