"""Changes: the record of what a mutation touched, merged across steps of one job."""

from __future__ import annotations

from paperdesk.core.changes import Changes, ids_of


def test_a_default_record_is_empty_and_each_flag_makes_it_not() -> None:
    assert Changes().is_empty
    assert Changes("Rate 3 stars").is_empty  # a description alone changed nothing
    for flag in ("papers_added_or_removed", "tags", "shortlists", "saved_searches", "imports"):
        assert not Changes(**{flag: True}).is_empty, flag
    assert not Changes(paper_ids=ids_of([3])).is_empty


def test_merging_unites_papers_and_flags_and_keeps_the_first_description() -> None:
    first = Changes("Import a.bib", ids_of([1, 2]), papers_added_or_removed=True, history_id=4)
    second = Changes("Import b.bib", ids_of([2, 3]), tags=True, imports=True, history_id=5)
    merged = first.merged_with(second)
    assert merged.description == "Import a.bib"
    assert merged.paper_ids == {1, 2, 3}
    assert merged.papers_added_or_removed and merged.tags and merged.imports
    assert not merged.shortlists and not merged.saved_searches
    assert merged.history_id == 5  # the latest step is the one to undo first
    assert Changes().merged_with(second).description == "Import b.bib"
    assert second.merged_with(Changes()).history_id == 5


def test_ids_of_makes_a_frozen_set_of_ints() -> None:
    ids = ids_of(["7", 7, 8])
    assert ids == frozenset({7, 8}) and isinstance(ids, frozenset)
