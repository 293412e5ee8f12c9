"""What each kind of action changed, read from its journal (store/journal_changes.py).

One table of actions on one small library: the papers and the sidebar sections the
`Changes` of each names, and that its undo and its redo name the same. The papers are
those whose rows the action changed: where the writers' hand-built `Changes` named
more, the row says which and why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import update

from paperdesk.core.changes import Changes
from paperdesk.core.models import PaperRecord, Status
from paperdesk.core.screening import Screening
from paperdesk.core.triage import Decision
from paperdesk.store.imports import BatchRecord
from paperdesk.store.library import Library
from paperdesk.store.merges import PaperMerge
from paperdesk.store.tables import papers_t


@pytest.fixture
def library(tmp_path: Path) -> Iterator[Library]:
    """Papers 1-4; 1 and 2 tagged rnn and in the shortlist S, 4 tagged old; a note on 1."""
    db = tmp_path / "library.sqlite3"
    lib = Library.open(f"sqlite:///{db}", db, tmp_path / "backups")
    lib.imports.commit(
        "Import test",
        [PaperRecord(title=f"Paper {i}", abstract=f"About {i}") for i in range(1, 5)],
    )
    lib.tags.add([1, 2], ["rnn"])
    lib.tags.add([4], ["old"])
    lib.shortlists.create("S", [1, 2])
    lib.notes.set(1, "read it")
    yield lib
    lib.close()


def _import(library: Library) -> Changes:
    batch = BatchRecord("more.bib", "more.bib", "0" * 64, "bibtex", added=1)
    return library.imports.commit(
        "Import more.bib", [PaperRecord(title="Paper 5")], batch=batch, present_ids=[1]
    ).changes


@dataclass(frozen=True)
class Case:
    action: Callable[[Library], Changes]
    papers: set[int]
    sections: tuple[str, ...] = ()
    added_or_removed: bool = False


SECTIONS = ("tags", "shortlists", "saved_searches", "imports", "highlight_words")

CASES = {
    # Hand-built: papers 1 and 3; paper 1 had the tag already, its rows did not change.
    "tag": Case(lambda lib: lib.tags.add([1, 3], ["rnn"]), {3}, ("tags",)),
    "new tag": Case(lambda lib: lib.tags.add([3], ["fresh"]), {3}, ("tags",)),
    # Hand-built: papers 1 and 3; paper 3 never carried the tag.
    "untag": Case(lambda lib: lib.tags.remove([1, 3], ["rnn"]), {1}, ("tags",)),
    "rename tag": Case(lambda lib: lib.tags.rename("rnn", "lstm"), {1, 2}, ("tags",)),
    "recolour tag": Case(lambda lib: lib.tags.set_colour("rnn", "#ff0000"), set(), ("tags",)),
    "merge tags": Case(lambda lib: lib.tags.merge(["old"], "rnn"), {4}, ("tags",)),
    "delete tag": Case(lambda lib: lib.tags.delete("rnn"), {1, 2}, ("tags",)),
    "create tag": Case(lambda lib: lib.tags.create("empty"), set(), ("tags",)),
    "rate": Case(lambda lib: lib.papers.set_rating([1, 2], 4), {1, 2}),
    "status": Case(lambda lib: lib.papers.set_status([2, 3], Status.READ), {2, 3}),
    "note": Case(lambda lib: lib.notes.set(1, "read it again"), {1}),
    "append to note": Case(lambda lib: lib.notes.append(3, "later"), {3}),
    "highlight": Case(lambda lib: lib.annotations.add(2, 0, 5, "About", "#ffff00"), {2}),
    "edit title": Case(lambda lib: lib.papers.set_title(2, "Another title"), {2}),
    "edit field": Case(lambda lib: lib.papers.set_field(2, "year", 2020), {2}),
    "pin key": Case(lambda lib: lib.papers.set_citation_keys({1: "first2020"}), {1}),
    # Hand-built (by the import service): imports always; now its batch says so.
    # Paper 1, in the file but unchanged, is linked to the batch and not re-indexed.
    "import": Case(_import, {5}, ("imports",), added_or_removed=True),
    # Hand-built: tags and shortlists always; paper 2 had a tag and a place in S.
    "delete": Case(
        lambda lib: lib.papers.delete([2]), {2}, ("tags", "shortlists"), added_or_removed=True
    ),
    # Hand-built: tags and shortlists always, though paper 3 had neither.
    "delete bare": Case(lambda lib: lib.papers.delete([3]), {3}, added_or_removed=True),
    "merge": Case(
        lambda lib: lib.merges.merge(
            [PaperMerge(1, (2,), {"venue": "ICML"}, "")], "Merge 2 into 1"
        ),
        {1, 2},
        ("tags", "shortlists"),
        added_or_removed=True,
    ),
    "not duplicates": Case(lambda lib: lib.merges.mark_not_duplicates([3, 4]), {3, 4}),
    "new shortlist": Case(lambda lib: lib.shortlists.create("T", [3]), {3}, ("shortlists",)),
    # Hand-built: papers 2 and 3; paper 2 was in S already.
    "shortlist": Case(lambda lib: lib.shortlists.add("S", [2, 3]), {3}, ("shortlists",)),
    "unshortlist": Case(lambda lib: lib.shortlists.remove("S", [2]), {2}, ("shortlists",)),
    "rename shortlist": Case(lambda lib: lib.shortlists.rename("S", "R"), {1, 2}, ("shortlists",)),
    "reorder shortlist": Case(
        lambda lib: lib.shortlists.reorder("S", [2, 1]), set(), ("shortlists",)
    ),
    "delete shortlist": Case(lambda lib: lib.shortlists.delete("S"), {1, 2}, ("shortlists",)),
    "keep": Case(lambda lib: lib.triage.decide(3, Decision.KEEP, "S"), {3}, ("shortlists",)),
    "discard": Case(lambda lib: lib.triage.decide(3, Decision.DISCARD), {3}),
    "save search": Case(
        lambda lib: lib.saved.save("Good", "rating:>=4"), set(), ("saved_searches",)
    ),
    "highlight words": Case(
        lambda lib: lib.triage.set_highlight_words(["graph"]), set(), ("highlight_words",)
    ),
}


def _named(changes: Changes) -> tuple[set[int], set[str], bool]:
    sections = {name for name in SECTIONS if getattr(changes, name)}
    return set(changes.paper_ids), sections, changes.papers_added_or_removed


@pytest.mark.parametrize("kind", CASES)
def test_the_changes_name_the_papers_and_sections_the_action_changed(
    library: Library, kind: str
) -> None:
    case = CASES[kind]
    changes = case.action(library)
    assert _named(changes) == (case.papers, set(case.sections), case.added_or_removed)
    assert changes.history_id is not None and changes.generation == library.generation()


@pytest.mark.parametrize("kind", CASES)
def test_an_undo_and_a_redo_name_what_the_action_named(library: Library, kind: str) -> None:
    case = CASES[kind]
    done = _named(case.action(library))
    undone = library.history.undo()
    assert undone is not None and _named(undone) == done
    redone = library.history.redo()
    assert redone is not None and _named(redone) == done


def test_an_action_that_changes_nothing_names_nothing(library: Library) -> None:
    changes = library.tags.add([1, 2], ["rnn"])
    assert changes.is_empty and changes.history_id is None
    assert changes.description == "Add tag rnn"


def test_a_write_left_out_of_the_journal_fails_and_is_rolled_back(library: Library) -> None:
    """A writer that forgot its journal block would be missed by undo, the index and the
    window alike: its action fails in its first test."""
    with pytest.raises(RuntimeError, match="without journaling"):
        with library._db.action("Retitle quietly") as w:
            w.connection.execute(update(papers_t).where(papers_t.c.id == 1).values(title="Q"))
    assert library.papers.get(1).title == "Paper 1"


def test_the_listener_is_told_each_committed_write_once(library: Library) -> None:
    told: list[Changes] = []
    library.listen(told.append)
    rated = library.papers.set_rating([1], 5)
    library.papers.set_rating([1], 5)  # changes nothing, commits nothing
    undone = library.history.undo()
    library.screenings.save(Screening("First pass"))  # bookkeeping: nothing searched
    assert told == [rated, undone, Changes()]
