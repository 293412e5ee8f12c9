"""Each user action through the services: the database changes, the index follows in the
same call, the change record names what was touched, and undo/redo restore it."""

from __future__ import annotations

import shutil

import pytest

from paperdesk.core.errors import NotFoundError, QueryError
from paperdesk.core.models import Status
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    editing,
    history,
    maintenance,
    notes,
    saved,
    searching,
    shortlists,
    stats,
    tagging,
)
from tests.services.conftest import another_program, paper_with


def found(desk: Desk, query: str) -> list[int]:
    return sorted(searching.find_ids(desk, query).ids)


def test_tags_are_searchable_at_once_and_undo_unsearches_them(desk: Desk) -> None:
    changes = tagging.add_tags(desk, [12, 7], ["rnn", "long-context"])
    assert changes.paper_ids == {7, 12} and changes.tags
    assert found(desk, "tag:rnn") == [7, 12]
    assert history.labels(desk).undo == "Add tag rnn, long-context"
    history.undo(desk)
    assert found(desk, "tag:rnn") == []
    assert history.labels(desk).redo == "Add tag rnn, long-context"
    history.redo(desk)
    assert found(desk, "tag:long-context") == [7, 12]


def test_tag_rename_merge_colour_delete(desk: Desk) -> None:
    tagging.add_tags(desk, [1], ["ml/rnn"])
    tagging.add_tags(desk, [2], ["recurrent"])
    tagging.rename_tag(desk, "ml", "learning")
    assert found(desk, "tag:learning") == [1]
    tagging.merge_tags(desk, ["recurrent"], "learning/rnn")
    assert found(desk, "tag:learning/rnn") == [1, 2]
    tagging.set_tag_colour(desk, "learning/rnn", "#ff8800")
    assert [t.colour for t in desk._library.tags.all()] == ["#ff8800"]
    tagging.delete_tag(desk, "learning/rnn")
    assert found(desk, "tag:learning") == []


def test_status_and_rating_filters_follow_edits(desk: Desk) -> None:
    editing.set_rating(desk, [12], 5)
    editing.set_status(desk, [12], Status.TO_READ)
    assert found(desk, "rating:>=4") == [12]
    assert found(desk, "status:to-read") == [12]
    history.undo(desk)
    assert found(desk, "status:to-read") == []
    assert found(desk, "status:new") == [i for i in range(1, 39)]


def test_title_edit_clears_the_derived_flag_and_is_searchable(desk: Desk) -> None:
    editing.set_title(desk, 3, "Stability and Generalization of Decentralized SGD")
    paper = desk._library.papers.get(3)
    assert paper.title_is_derived is False
    assert found(desk, "title:decentralized") == [3]
    history.undo(desk)
    assert desk._library.papers.get(3).title_is_derived is True


def test_notes_set_append_search_and_undo(desk: Desk) -> None:
    notes.set_note(desk, 12, "Compare with Mamba; read §3 first")
    notes.append_note(desk, 12, "Code is on GitHub")
    assert (
        desk._library.papers.get(12).note
        == "Compare with Mamba; read §3 first\n\nCode is on GitHub"
    )
    assert 12 in found(desk, "note:github")
    history.undo(desk)
    assert desk._library.papers.get(12).note == "Compare with Mamba; read §3 first"


def test_shortlists_through_services_and_in_query(desk: Desk) -> None:
    shortlists.create(desk, "ICML reading group")
    shortlists.add(desk, "ICML reading group", [12, 7])
    assert found(desk, 'in:"ICML reading group"') == [7, 12]
    assert searching.shortlist_ids(desk, "ICML reading group") == [12, 7]
    shortlists.reorder(desk, "ICML reading group", [7, 12])
    assert searching.shortlist_ids(desk, "ICML reading group") == [7, 12]
    shortlists.rename(desk, "ICML reading group", "Group")
    assert found(desk, "in:group") == [7, 12]
    shortlists.remove(desk, "Group", [7])
    assert found(desk, "in:group") == [12]
    shortlists.delete(desk, "Group")
    assert found(desk, "in:group") == []
    history.undo(desk)
    assert found(desk, "in:group") == [12]


def test_adding_to_a_shortlist_creates_it_when_asked_in_one_undo_step(desk: Desk) -> None:
    shortlists.add(desk, "Fresh", [12, 7], create_missing=True)
    assert searching.shortlist_ids(desk, "Fresh") == [12, 7]
    assert history.labels(desk).undo == "Create shortlist Fresh with 2 papers"
    shortlists.add(desk, "fresh", [3], create_missing=True)  # names are case-insensitive
    assert searching.shortlist_ids(desk, "Fresh") == [12, 7, 3]
    assert history.labels(desk).undo == "Add to fresh"
    history.undo(desk)
    history.undo(desk)
    assert desk._library.shortlists.all() == []
    with pytest.raises(NotFoundError):
        shortlists.add(desk, "Fresh", [12])


def test_deleting_papers_removes_them_from_search_until_undone(desk: Desk) -> None:
    ttt = paper_with(desk, "Self-attention performs well in long context")
    editing.delete_papers(desk, [ttt])
    assert ttt not in searching.find_ids(desk, "test-time training").ids
    history.undo(desk)
    assert searching.find_ids(desk, "test-time training").ids[0] == ttt


def test_saved_searches_refuse_broken_queries(desk: Desk) -> None:
    saved.save_search(desk, "Good", "rating:>=4")
    assert [s.query for s in desk._library.saved.all()] == ["rating:>=4"]
    with pytest.raises(QueryError):
        saved.save_search(desk, "Broken", '"unclosed')
    saved.delete_search(desk, "Good")
    assert desk._library.saved.all() == []


def test_sorting_a_query_by_a_column(desk: Desk) -> None:
    editing.set_rating(desk, [5], 2)
    editing.set_rating(desk, [9], 4)
    result = searching.find_ids(desk, "rating:>=1", sort="rating", descending=True)
    assert result.ids == [9, 5] and result.total_in_library == 38
    assert searching.find_ids(desk, None, sort="added").ids == list(range(1, 39))


def test_index_is_rebuilt_after_its_folder_is_deleted(desk: Desk) -> None:
    tagging.add_tags(desk, [4], ["kept"])
    folder = desk.folder
    desk.close()
    shutil.rmtree(folder / "index")
    reopened = Desk.open(folder)
    try:
        assert found(reopened, "tag:kept") == [4]
        assert maintenance.check(reopened) == []
    finally:
        reopened.close()


def test_a_write_the_index_missed_is_caught_up_on_open(desk: Desk) -> None:
    with another_program(desk) as other:
        other.tags.add([6], ["sneaky"])  # this program's index is now stale
    assert maintenance.check(desk)
    folder = desk.folder
    desk.close()
    with Desk.open(folder) as reopened:
        assert found(reopened, "tag:sneaky") == [6]


def test_stats_count_what_the_user_did(desk: Desk) -> None:
    editing.set_rating(desk, [1, 2], 3)
    notes.set_note(desk, 1, "x")
    tagging.add_tags(desk, [1], ["a", "b"])
    figures = stats.library_stats(desk)
    assert (figures.papers, figures.rated, figures.with_notes, figures.tags) == (38, 2, 1, 2)
    assert dict(figures.by_status)["new"] == 38
    assert figures.by_venue_year == (("ICML 2025", 38),)


def test_backup_is_a_consistent_copy(desk: Desk, tmp_path) -> None:
    import sqlite3

    target = maintenance.backup(desk, tmp_path / "copy.sqlite3")
    with sqlite3.connect(target) as connection:
        assert connection.execute("SELECT count(*) FROM papers").fetchone() == (38,)


def test_history_records_who_and_what(desk: Desk) -> None:
    editing.set_rating(desk, [1], 4)
    latest = history.recent(desk, 1)[0]
    assert latest.action == "Rate 4 stars" and latest.actor and not latest.undone


def test_adding_and_removing_tags_at_once_is_one_undo_step(desk: Desk) -> None:
    """`paperdesk tag 12 --add b --remove a`: one service call (it was two actions)."""
    tagging.add_tags(desk, [12, 7], ["Alpha"])
    changes = tagging.change_tags(desk, [12, 7], add=["Beta"], remove=["alpha"])
    assert changes.paper_ids == {7, 12} and changes.description == "Add tag Beta; remove tag alpha"
    assert [desk._library.papers.get(i).tags for i in (7, 12)] == [("Beta",), ("Beta",)]
    assert found(desk, "tag:beta") == [7, 12] and found(desk, "tag:alpha") == []
    history.undo(desk)
    assert [desk._library.papers.get(i).tags for i in (7, 12)] == [("Alpha",), ("Alpha",)]
    assert found(desk, "tag:alpha") == [7, 12] and found(desk, "tag:beta") == []
