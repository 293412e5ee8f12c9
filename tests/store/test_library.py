"""The Library facade: every mutation, its change record, and undo/redo of each."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperdesk.core.errors import InvalidValueError, NotFoundError
from paperdesk.core.models import PaperRecord, Status
from paperdesk.store import bulk
from paperdesk.store.library import Library


@pytest.fixture
def library(tmp_path: Path) -> Library:
    db = tmp_path / "library.sqlite3"
    lib = Library.open(f"sqlite:///{db}", db, tmp_path / "backups")
    records = [
        PaperRecord(
            title=f"Paper {i}",
            abstract=f"Abstract {i} about recurrent networks",
            authors=(f"Author{i} Smith", "Bob Jones"),
            venue="ICML",
            year=2020 + i,
        )
        for i in range(4)
    ]
    with lib.bulk_write("Import test") as connection:
        bulk.insert_papers(connection, records)
    yield lib
    lib.close()


def test_papers_come_back_as_dataclasses_in_requested_order(library: Library) -> None:
    papers = library.papers([3, 1, 99, 2])
    assert [p.id for p in papers] == [3, 1, 2]
    assert papers[0].authors == ("Author2 Smith", "Bob Jones")
    assert papers[0].status is Status.NEW and papers[0].rating == 0


def test_tags_are_case_insensitive_and_undoable(library: Library) -> None:
    changes = library.add_tags([1, 2], ["RNN"])
    assert changes.paper_ids == {1, 2} and changes.tags
    library.add_tags([3], ["rnn"])
    assert [(t.name, t.count) for t in library.tags()] == [("RNN", 3)]
    library.undo()
    assert library.paper(3).tags == ()
    library.undo()
    assert library.tags() == []
    library.redo()
    assert library.paper(1).tags == ("RNN",)


def test_hierarchical_tag_rename_moves_children(library: Library) -> None:
    library.add_tags([1], ["ml/rnn", "ml/mamba"])
    library.rename_tag("ml", "learning")
    assert library.paper(1).tags == ("learning/mamba", "learning/rnn")
    library.undo()
    assert library.paper(1).tags == ("ml/mamba", "ml/rnn")


def test_merge_and_delete_tags(library: Library) -> None:
    library.add_tags([1], ["rnn"])
    library.add_tags([2], ["recurrent"])
    changes = library.merge_tags(["recurrent"], "rnn")
    assert changes.paper_ids == {2}
    assert [(t.name, t.count) for t in library.tags()] == [("rnn", 2)]
    library.delete_tag("rnn")
    assert library.paper(1).tags == () and library.tags() == []
    library.undo()
    assert library.paper(1).tags == ("rnn",) and library.paper(2).tags == ("rnn",)


def test_tag_names_are_validated(library: Library) -> None:
    with pytest.raises(InvalidValueError):
        library.add_tags([1], ["  "])
    with pytest.raises(InvalidValueError):
        library.add_tags([1], ["a//b"])
    with pytest.raises(NotFoundError):
        library.add_tags([42], ["x"])
    with pytest.raises(InvalidValueError):
        library.set_tag_colour("x", "red")


def test_status_rating_and_title_are_recorded_and_undone(library: Library) -> None:
    library.set_status([1, 2], Status.TO_READ)
    library.set_rating([1], 5)
    library.set_title(1, "A Real Title")
    paper = library.paper(1)
    assert (paper.status, paper.rating, paper.title) == (Status.TO_READ, 5, "A Real Title")
    assert library.undo_candidate().action == "Edit title"
    library.undo()
    library.undo()
    library.undo()
    paper = library.paper(1)
    assert (paper.status, paper.rating, paper.title) == (Status.NEW, 0, "Paper 0")
    with pytest.raises(InvalidValueError):
        library.set_rating([1], 6)


def test_notes_set_clear_and_undo(library: Library) -> None:
    library.set_note(1, "Compare with Mamba; read §3 first")
    library.set_note(1, "second version")
    assert library.paper(1).note == "second version"
    library.undo()
    assert library.paper(1).note == "Compare with Mamba; read §3 first"
    library.set_note(1, "")
    assert library.paper(1).note == ""


def test_shortlists_keep_order_and_undo(library: Library) -> None:
    library.create_shortlist("ICML reading group")
    library.add_to_shortlist("icml reading group", [3, 1, 2])
    assert library.shortlist_paper_ids("ICML reading group") == [3, 1, 2]
    library.reorder_shortlist("ICML reading group", [2])
    assert library.shortlist_paper_ids("ICML reading group") == [2, 3, 1]
    library.undo()
    assert library.shortlist_paper_ids("ICML reading group") == [3, 1, 2]
    library.remove_from_shortlist("ICML reading group", [1])
    library.rename_shortlist("ICML reading group", "Group")
    assert [(s.name, s.count) for s in library.shortlists()] == [("Group", 2)]
    library.delete_shortlist("Group")
    assert library.shortlists() == []
    library.undo()
    assert library.shortlist_paper_ids("Group") == [3, 2]
    with pytest.raises(InvalidValueError):
        library.create_shortlist("group")


def test_deleting_papers_is_undone_with_everything_attached(library: Library) -> None:
    library.add_tags([1], ["rnn"])
    library.set_note(1, "keep me")
    library.create_shortlist("S")
    library.add_to_shortlist("S", [1, 2])
    changes = library.delete_papers([1])
    assert changes.papers_added_or_removed
    assert library.count() == 3
    library.undo()
    paper = library.paper(1)
    assert (paper.tags, paper.note, paper.shortlists) == (("rnn",), "keep me", ("S",))
    assert paper.authors == ("Author0 Smith", "Bob Jones")
    assert library.shortlist_paper_ids("S") == [1, 2]


def test_a_new_action_clears_redo(library: Library) -> None:
    library.set_rating([1], 3)
    library.undo()
    assert library.redo_candidate() is not None
    library.set_rating([2], 4)
    assert library.redo_candidate() is None


def test_saved_searches(library: Library) -> None:
    library.save_search("Good RNNs", "tag:rnn rating:>=4")
    library.save_search("good rnns", "tag:rnn")
    assert [(s.name, s.query) for s in library.saved_searches()] == [("Good RNNs", "tag:rnn")]
    library.delete_saved_search("Good RNNs")
    assert library.saved_searches() == []


def test_every_write_raises_the_generation(library: Library) -> None:
    before = library.generation()
    library.set_rating([1], 2)
    assert library.generation() == before + 1


def test_sorting_by_every_column(library: Library) -> None:
    library.add_tags([4], ["aaa"])
    library.set_rating([2], 5)
    assert library.sorted_ids("year", descending=True) == [4, 3, 2, 1]
    assert library.sorted_ids("rating", descending=True)[0] == 2
    assert library.sorted_ids("tags")[-1] == 4  # papers with no tags sort first (NULL)
    assert library.sorted_ids("first_author") == [1, 2, 3, 4]
    with pytest.raises(InvalidValueError):
        library.sorted_ids("colour")


def test_integrity_check_is_clean(library: Library) -> None:
    assert library.integrity_problems() == []


def test_names_with_non_ascii_capitals_are_found_again(library: Library) -> None:
    library.add_tags([1], ["Über"])
    library.add_tags([2], ["Über"])
    library.set_tag_colour("Über", "#112233")
    library.create_shortlist("Ärger")
    library.add_to_shortlist("Ärger", [1])
    assert [(t.name, t.count, t.colour) for t in library.tags()] == [("Über", 2, "#112233")]
    assert library.shortlist_paper_ids("Ärger") == [1]


def test_wildcard_characters_in_tag_names_are_literal(library: Library) -> None:
    library.add_tags([1], ["ml_x/rnn", "mlax/cnn"])
    library.rename_tag("ml_x", "deep")
    assert library.paper(1).tags == ("deep/rnn", "mlax/cnn")


def test_undo_says_whether_papers_came_or_went(library: Library) -> None:
    library.set_rating([1], 4)
    assert library.undo().papers_added_or_removed is False
    library.delete_papers([2])
    assert library.undo().papers_added_or_removed is True
