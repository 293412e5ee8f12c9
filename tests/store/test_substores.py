"""The facade's sub-stores: what each returns, and the actions that are one step each."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from paperdesk.core import fields
from paperdesk.core.errors import Cancelled, NotFoundError
from paperdesk.core.models import PaperRecord, Status, UndoLabels
from paperdesk.store.imports import BatchRecord
from paperdesk.store.library import Library
from paperdesk.store.papers import SORT_COLUMNS


@pytest.fixture
def library(tmp_path: Path) -> Library:
    db = tmp_path / "library.sqlite3"
    lib = Library.open(f"sqlite:///{db}", db, tmp_path / "backups")
    records = [
        PaperRecord(title=f"Paper {i}", abstract=f"Abstract {i}", authors=(f"Author {i}",))
        for i in range(4)
    ]
    lib.imports.commit("Import test", records)
    yield lib
    lib.close()


def test_reads_return_core_dataclasses_never_rows(library: Library) -> None:
    library.tags.add([1], ["rnn"])
    library.shortlists.create("S", [1])
    library.saved.save("Good", "rating:>=4")
    values = [
        *library.papers.get_many([1, 2]),
        *library.tags.all(),
        *library.shortlists.all(),
        *library.saved.all(),
        *library.history.recent(),
        *library.imports.batches(),
        library.stats.overview(),
        library.stats.library_stats(),
        library.history.labels(),
    ]
    assert values and all(dataclasses.is_dataclass(v) for v in values)
    assert type(library.papers.get(1)).__module__ == "paperdesk.core.models"


def test_every_sort_key_of_the_field_table_sorts(library: Library) -> None:
    assert set(SORT_COLUMNS) == set(fields.BY_SORT_KEY)
    for key in SORT_COLUMNS:
        assert sorted(library.papers.sorted_ids(key)) == [1, 2, 3, 4], key
    assert library.papers.sorted_ids("first_author", descending=True) == [4, 3, 2, 1]


def test_a_new_shortlist_with_papers_is_one_action_and_one_undo(library: Library) -> None:
    before = len(library.history.recent())
    changes = library.shortlists.create("Reading group", [3, 1, 3])
    assert changes.description == "Create shortlist Reading group with 2 papers"
    assert changes.paper_ids == {1, 3} and changes.shortlists
    assert len(library.history.recent()) == before + 1
    assert library.shortlists.paper_ids("Reading group") == [3, 1]
    library.history.undo()
    assert library.shortlists.all() == []
    library.history.redo()
    assert library.shortlists.paper_ids("Reading group") == [3, 1]


def test_a_shortlist_with_an_unknown_paper_is_not_created(library: Library) -> None:
    with pytest.raises(NotFoundError, match="no paper with id 99"):
        library.shortlists.create("Broken", [1, 99])
    assert library.shortlists.all() == []


def test_appending_to_a_note_is_one_action_named_for_what_it_did(library: Library) -> None:
    library.notes.set(2, "First thought")
    library.notes.append(2, "Second thought")
    assert library.papers.get(2).note == "First thought\n\nSecond thought"
    assert library.history.labels().undo == "Append to note"
    library.history.undo()
    assert library.papers.get(2).note == "First thought"
    library.notes.append(3, "Only thought")
    assert library.papers.get(3).note == "Only thought"


def test_undo_labels_follow_undo_and_redo(library: Library) -> None:
    assert library.history.labels().undo == "Import test"  # an import is one undo step
    library.papers.set_status([1], Status.READ)
    assert library.history.labels() == UndoLabels("Set status read", None)
    library.history.undo()
    labels = library.history.labels()
    assert (labels.undo, labels.redo) == ("Import test", "Set status read")


def test_saved_queries_are_found_by_name(library: Library) -> None:
    library.saved.save("Good", "rating:>=4")
    assert library.saved.query_of("Good") == "rating:>=4"
    with pytest.raises(NotFoundError, match="no saved search named 'Bad'"):
        library.saved.query_of("Bad")


def test_the_overview_and_the_stats_count_the_same_library(library: Library) -> None:
    library.papers.set_status([1, 2], Status.TO_READ)
    library.papers.set_rating([1], 5)
    library.tags.add([1, 2], ["rnn"])
    library.notes.set(3, "note")
    overview = library.stats.overview()
    assert overview.papers == 4
    assert dict(overview.by_status) == {s.value: 0 for s in Status} | {"new": 2, "to-read": 2}
    assert [(t.name, t.count) for t in overview.tags] == [("rnn", 2)]
    figures = library.stats.library_stats()
    assert (figures.papers, figures.by_status, figures.tags) == (4, overview.by_status, 1)
    assert (figures.rated, figures.with_notes, figures.by_venue_year) == (1, 1, (("(unknown)", 4),))


def test_an_import_records_its_provenance_and_a_cancelled_one_writes_nothing(
    library: Library,
) -> None:
    batch = BatchRecord("Extra", "extra.bib", "0" * 64, "bibtex", added=1, unchanged=1)
    new = library.imports.commit(
        "Import extra.bib", [PaperRecord(title="New")], batch=batch, present_ids=[2]
    ).new_ids
    assert new == [5]
    (recorded,) = library.imports.batches()
    assert (recorded.file_name, recorded.added, recorded.unchanged) == ("extra.bib", 1, 1)
    assert sorted(library.imports.batch_paper_ids(recorded.id)) == [2, 5]
    assert library.imports.papers_first_imported_from("extra.bib") == {2, 5}
    generation = library.generation()
    with pytest.raises(Cancelled):
        library.imports.commit(
            "Import more.bib", [PaperRecord(title="More")], batch=batch, cancelled=lambda: True
        )
    assert library.papers.count() == 5 and len(library.imports.batches()) == 1
    assert library.generation() == generation
