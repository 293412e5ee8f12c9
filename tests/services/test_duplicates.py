"""Duplicates already in the library: clusters, merges, undo, and "not duplicates"."""

from __future__ import annotations

import pytest

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import Identifiers, PaperRecord, Status
from paperdesk.services.runtime import indexing
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    duplicates,
    editing,
    history,
    notes,
    searching,
    shortlists,
    tagging,
)
from tests.services.conftest import paper_with

TTT_START = "Self-attention performs well in long context"
TTT_TITLE = "Learning to (Learn at Test Time): RNNs with Expressive Hidden States"
TTT_AUTHORS = ("Yu Sun", "Xinhao Li", "Karan Dalal", "Jiarui Xu")
TTT_DOI = "10.5555/pmlr-v267-sun25h"


def insert(desk: Desk, *records: PaperRecord) -> list[int]:
    """Papers that reached the library without meeting the import's matcher
    (an older version, a restore): the duplicates this service exists for."""
    ids = desk._library.imports.commit("Set up duplicates", list(records)).new_ids
    indexing.add_new(desk._library, desk._index, ids)
    return ids


def pmlr_ttt(desk: Desk, **changes: object) -> PaperRecord:
    seed = desk._library.papers.get(paper_with(desk, TTT_START))
    fields = {
        "title": TTT_TITLE,
        "abstract": seed.abstract.replace("quadratic complexity", "quadratic complexity "),
        "authors": TTT_AUTHORS,
        "venue": "ICML",
        "year": 2025,
        "ids": Identifiers(doi=TTT_DOI),
        **changes,
    }
    return PaperRecord(**fields)  # type: ignore[arg-type]


def revised(abstract: str) -> str:
    """A later version of an abstract: its second and third sentences rewritten."""
    first, _second, _third, rest = abstract.split(". ", 3)
    return f"{first}. We revisit this question with a new and rather different argument. {rest}"


def test_a_pmlr_copy_of_a_seed_paper_is_one_cluster_that_would_keep_the_doi_record(
    desk: Desk,
) -> None:
    seed_id = paper_with(desk, TTT_START)
    (copy_id,) = insert(desk, pmlr_ttt(desk))
    (cluster,) = duplicates.find_clusters(desk)
    assert set(cluster.paper_ids) == {seed_id, copy_id}
    assert cluster.survivor == copy_id  # it has the DOI
    assert cluster.confidence == 1.0 and cluster.reasons == ("same abstract",)


def test_similar_text_gives_its_score_as_the_confidence(desk: Desk) -> None:
    seed = desk._library.papers.get(paper_with(desk, TTT_START))
    (typo_id,) = insert(desk, pmlr_ttt(desk, abstract=seed.abstract.replace("linear", "lienar", 1)))
    (version_id,) = insert(
        desk, PaperRecord(title="x", title_is_derived=True, abstract=revised(seed.abstract))
    )
    clusters = duplicates.find_clusters(desk)
    assert len(clusters) == 1
    (cluster,) = clusters
    assert set(cluster.paper_ids) == {seed.id, typo_id, version_id}
    # The weakest link joins the revised version: a suggestion, below the import's bar.
    assert 0.85 <= cluster.confidence < 0.95
    assert all(reason.startswith("similar text") for reason in cluster.reasons)
    assert duplicates.find_clusters(desk, min_confidence=0.95)[0].paper_ids == (typo_id, seed.id)


def test_merge_moves_what_the_user_made_to_the_survivor(desk: Desk) -> None:
    seed_id = paper_with(desk, TTT_START)
    (copy_id,) = insert(desk, pmlr_ttt(desk))
    tagging.add_tags(desk, [seed_id], ["rnn"])
    tagging.add_tags(desk, [copy_id], ["icml"])
    notes.set_note(desk, seed_id, "Read this before the group meeting.")
    notes.set_note(desk, copy_id, "PMLR version, cite this one.")
    editing.set_status(desk, [seed_id], Status.TO_READ)
    editing.set_status(desk, [copy_id], Status.DISCARDED)
    editing.set_rating(desk, [seed_id], 4)
    shortlists.create(desk, "reading group")
    other = paper_with(desk, "Scaling laws are powerful")
    shortlists.add(desk, "reading group", [other, seed_id])
    shortlists.create(desk, "to cite")
    shortlists.add(desk, "to cite", [copy_id])
    before = desk._library.papers.count()
    seed_added = desk._library.papers.get(seed_id).added

    changes = duplicates.merge(desk, [seed_id, copy_id])

    assert (
        changes.papers_added_or_removed and changes.description == f"Merge {seed_id} into {copy_id}"
    )
    assert desk._library.papers.count() == before - 1
    merged = desk._library.papers.get(copy_id)
    assert merged.title == TTT_TITLE and merged.authors == TTT_AUTHORS
    assert merged.tags == ("icml", "rnn")
    assert merged.note == "PMLR version, cite this one.\n\nRead this before the group meeting."
    assert merged.status is Status.TO_READ and merged.rating == 4
    assert merged.shortlists == ("reading group", "to cite")
    assert desk._library.shortlists.paper_ids("reading group") == [other, copy_id]
    assert merged.added == seed_added
    assert searching.find_ids(desk, "test-time training").ids[0] == copy_id
    assert seed_id not in searching.find_ids(desk, "test-time training").ids


def test_undo_of_a_merge_restores_both_records_and_redo_merges_again(desk: Desk) -> None:
    seed_id = paper_with(desk, TTT_START)
    (copy_id,) = insert(desk, pmlr_ttt(desk))
    desk._library.papers.set_citation_keys({copy_id: "sun2025learning"})
    tagging.add_tags(desk, [seed_id], ["rnn"])
    notes.set_note(desk, seed_id, "Read this first.")
    shortlists.create(desk, "reading group")
    shortlists.add(desk, "reading group", [seed_id])
    original = {p.id: p for p in desk._library.papers.get_many([seed_id, copy_id])}

    duplicates.merge(desk, [seed_id, copy_id], keep=seed_id)
    kept = desk._library.papers.get(seed_id)
    assert kept.citation_key == "sun2025learning" and kept.title == TTT_TITLE

    history.undo(desk)
    restored = {p.id: p for p in desk._library.papers.get_many([seed_id, copy_id])}
    assert restored == original
    assert desk._library.shortlists.paper_ids("reading group") == [seed_id]
    assert set(searching.find_ids(desk, '"expressive hidden states"').ids) >= {seed_id, copy_id}

    history.redo(desk)
    assert [p.id for p in desk._library.papers.get_many([seed_id, copy_id])] == [seed_id]
    assert desk._library.papers.get(seed_id).citation_key == "sun2025learning"


def test_not_duplicates_are_remembered_and_never_offered_again(desk: Desk) -> None:
    seed_id = paper_with(desk, TTT_START)
    (copy_id,) = insert(desk, pmlr_ttt(desk))
    duplicates.mark_not_duplicates(desk, [copy_id, seed_id])
    assert duplicates.find_clusters(desk) == []
    desk.close()
    with Desk.open(desk.folder) as reopened:
        assert duplicates.find_clusters(reopened) == []
        history.undo(reopened)
        assert len(duplicates.find_clusters(reopened)) == 1


def test_papers_marked_apart_are_not_joined_through_a_third(desk: Desk) -> None:
    seed_id = paper_with(desk, TTT_START)
    copy_id, mirror_id = insert(desk, pmlr_ttt(desk), pmlr_ttt(desk, title="A mirror copy"))
    duplicates.mark_not_duplicates(desk, [seed_id, mirror_id])
    clusters = duplicates.find_clusters(desk)
    assert clusters and all({seed_id, mirror_id} - set(c.paper_ids) for c in clusters)
    assert sum(len(c.paper_ids) for c in clusters) == 3


def test_a_decision_survives_merging_one_of_its_papers(desk: Desk) -> None:
    seed_id = paper_with(desk, TTT_START)
    copy_id, stranger_id = insert(
        desk, pmlr_ttt(desk), pmlr_ttt(desk, title="Another paper", ids=Identifiers())
    )
    duplicates.mark_not_duplicates(desk, [seed_id, stranger_id])
    duplicates.merge(desk, [seed_id, copy_id], keep=copy_id)
    assert desk._library.merges.not_duplicate_pairs() == {(copy_id, stranger_id)}
    assert duplicates.find_clusters(desk) == []


def test_merge_all_merges_only_sure_clusters_and_one_undo_restores_them(desk: Desk) -> None:
    ttt = desk._library.papers.get(paper_with(desk, TTT_START))
    scaling = desk._library.papers.get(paper_with(desk, "Scaling laws are powerful"))
    ids = insert(
        desk,
        pmlr_ttt(desk),
        PaperRecord(title="x", title_is_derived=True, abstract=revised(scaling.abstract)),
    )
    assert len(duplicates.find_clusters(desk)) == 2
    count = desk._library.papers.count()

    changes = duplicates.merge_all(desk)

    assert changes.description == "Merge 1 duplicate group (1 paper folded in)"
    assert desk._library.papers.count() == count - 1
    assert len(duplicates.find_clusters(desk)) == 1  # the revised version stays a suggestion
    history.undo(desk)
    back = [ttt.id, scaling.id, *ids]
    assert [p.id for p in desk._library.papers.get_many(back)] == back
    assert duplicates.merge_all(desk, min_confidence=0.99).description.startswith("Merge 1")
    assert duplicates.merge_all(desk, min_confidence=0.99).description.startswith("No duplicates")


def test_deleting_a_paper_and_undoing_keeps_its_not_duplicates_decision(desk: Desk) -> None:
    seed_id = paper_with(desk, TTT_START)
    (copy_id,) = insert(desk, pmlr_ttt(desk))
    duplicates.mark_not_duplicates(desk, [seed_id, copy_id])
    editing.delete_papers(desk, [copy_id])
    history.undo(desk)
    assert desk._library.merges.not_duplicate_pairs() == {(seed_id, copy_id)}


@pytest.mark.parametrize(
    "call",
    [
        lambda desk: duplicates.merge(desk, [1]),
        lambda desk: duplicates.merge(desk, [1, 2], keep=3),
        lambda desk: duplicates.mark_not_duplicates(desk, [2, 2]),
        lambda desk: duplicates.find_clusters(desk, min_confidence=1.5),
    ],
)
def test_impossible_requests_are_refused_with_a_reason(desk: Desk, call) -> None:  # type: ignore[no-untyped-def]
    generation = desk._library.generation()
    with pytest.raises(InvalidValueError):
        call(desk)
    assert desk._library.generation() == generation
